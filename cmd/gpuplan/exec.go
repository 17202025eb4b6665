package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/planner"
	"github.com/gpuplan/gpuplan/store"
)

// gpuplan exec: book GPUs, run a command on exactly those, give them back
// when it exits. The booking is a short lease that a heartbeat renews
// while the command runs, bounded by --for, so a gpuplan that dies
// (kill -9, a lost host) holds the GPUs for one lease more, not for the
// window it asked for.

const execUsage = `Usage:
  gpuplan exec [--as USER] [--on SERVER] (--gpus N | --ids 0,2) [--for DURATION] [--wait[=DUR]] -- CMD [ARG…]

Books the GPUs on SERVER (default: the server whose host name is this
machine's, from the servers file), runs CMD with CUDA_VISIBLE_DEVICES and
NVIDIA_VISIBLE_DEVICES set to the booked ids, and releases them when CMD
exits. stdin, stdout and stderr are CMD's; SIGINT and SIGTERM are passed to
it. The booking is renewed while CMD runs (GPUPLAN_EXEC_LEASE at a time)
and ends at --for at the latest, when CMD gets SIGTERM (SIGKILL 10s later).

Exit status: CMD's own; 128+N when signal N ended it; 124 when its booking
reached its end (--for, or someone's later booking) and gpuplan stopped it;
75 when the GPUs are not free (at once without --wait, or when --wait gives
up); 126/127 when CMD cannot be run; 2 for a usage or configuration error;
5 when the reservation store cannot be reached (6 when it stopped answering
after a booking was sent); 3 for an internal error. Only the booking step
can fail with 2-6: once CMD runs, its status is the exit status.

Flags:
`

// Exit codes of gpuplan exec besides the command's own and the store's
// (exitcodes.go: 2 usage, 3 internal, 5 store unavailable, 6 outcome
// unknown). They stay clear of the small numbers a command uses itself.
const (
	exitBoundEnd = 124 // as timeout(1): the booking ended and gpuplan stopped the command
	exitNotFree  = 75  // EX_TEMPFAIL: the GPUs are not free; try later or --wait
	exitNoExec   = 126 // found but not runnable (as a shell says it)
	exitNotFound = 127 // no such command
)

// Defaults of gpuplan exec.
const (
	defaultExecLease = 5 * time.Minute
	minExecLease     = time.Second
	defaultExecWait  = time.Hour
	execKillGrace    = 10 * time.Second
	// recentSample is how old an agent sample may be and still say
	// whether a GPU is idle now.
	recentSample = 2 * store.MaxSampleWeight
)

// waitFlag is --wait or --wait=DUR (parseExec reads --wait DUR too).
type waitFlag struct {
	on bool
	d  time.Duration
}

func (w *waitFlag) String() string {
	if w == nil || !w.on {
		return ""
	}
	return w.d.String()
}

func (w *waitFlag) IsBoolFlag() bool { return true }

func (w *waitFlag) Set(v string) error {
	switch v {
	case "true":
		w.on, w.d = true, defaultExecWait
		return nil
	case "false":
		w.on = false
		return nil
	}
	d, err := commands.ParseDuration(v) // 2h, 1d12h, as --for…
	if err != nil {
		d, err = time.ParseDuration(v) // …or Go's form
	}
	if err != nil || d <= 0 {
		return fmt.Errorf("not a positive duration (try --wait=30m)")
	}
	w.on, w.d = true, d
	return nil
}

// execConfig is a parsed gpuplan exec.
type execConfig struct {
	as, on  string
	count   int
	ids     []int
	forDur  time.Duration // 0: the server's maximum
	wait    waitFlag
	lease   time.Duration
	command []string
}

func parseExec(args []string, getenv func(string) string, stderr io.Writer) (*execConfig, error) {
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, execUsage)
		fs.PrintDefaults()
	}
	c := &execConfig{}
	fs.StringVar(&c.as, "as", envOr(getenv, "USER", "terminal"), "the user the GPUs are booked for (a Slack user id, or a name; the servers file's users: maps Unix names)")
	fs.StringVar(&c.on, "on", "", "the server (default: the one whose host name is this machine's)")
	fs.IntVar(&c.count, "gpus", 0, "book this many GPUs (the least recently used free ones, idle first)")
	ids := fs.String("ids", "", "book exactly these GPU ids (0,2 or 0-3)")
	forDur := fs.String("for", "", "the longest the command may hold the GPUs (default: the server's maximum)")
	fs.Var(&c.wait, "wait", "when the GPUs are not free, wait in line for them (default 1h; --wait=30m)")
	dash := slices.Index(args, "--")
	if dash < 0 {
		// Without "--" the command's own flags would be read as ours.
		if slices.Contains(args, "-h") || slices.Contains(args, "--help") || slices.Contains(args, "-help") {
			fs.Usage()
			return nil, flag.ErrHelp
		}
		return nil, errors.New("put the command after --: gpuplan exec --gpus 2 -- python train.py")
	}
	if err := parseFlags(fs, args[:dash]); err != nil {
		return nil, err
	}
	if rest := fs.Args(); len(rest) > 0 {
		if len(rest) > 1 || !c.wait.on || c.wait.Set(rest[0]) != nil {
			return nil, fmt.Errorf("unexpected %q before --: the command goes after --", strings.Join(rest, " "))
		}
	}
	c.command = args[dash+1:]
	if len(c.command) == 0 || c.command[0] == "" {
		return nil, errors.New("no command after --")
	}
	switch {
	case c.count != 0 && *ids != "":
		return nil, errors.New("give --gpus N or --ids 0,2, not both")
	case *ids != "":
		got, err := parseIDList(*ids)
		if err != nil {
			return nil, fmt.Errorf("--ids %q: %v", *ids, err)
		}
		c.ids = got
	case c.count < 0:
		return nil, fmt.Errorf("--gpus %d: ask for at least one GPU", c.count)
	case c.count == 0:
		return nil, errors.New("how many GPUs? --gpus N or --ids 0,2")
	}
	if *forDur != "" {
		d, err := commands.ParseDuration(*forDur) // 4h, 2d, 90m, as in a reserve request…
		if err != nil {
			d, err = time.ParseDuration(*forDur) // …or Go's form (1h30m, 45s)
		}
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("--for %q: not a duration (try 4h or 30m)", *forDur)
		}
		c.forDur = d
	}
	c.lease = defaultExecLease
	if v := getenv("GPUPLAN_EXEC_LEASE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < minExecLease || d > time.Hour {
			return nil, fmt.Errorf("GPUPLAN_EXEC_LEASE=%q: use a Go duration from %s to 1h", v, minExecLease)
		}
		c.lease = d
	}
	return c, nil
}

// parseIDList reads "0,2", "0-3" or "1".
func parseIDList(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("%q is not a GPU id", part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a || b-a > store.MaxServerGPUs {
				return nil, fmt.Errorf("%q is not a range of GPU ids", part)
			}
		}
		for i := a; i <= b; i++ {
			if slices.Contains(out, i) {
				return nil, fmt.Errorf("GPU %d is listed twice", i)
			}
			out = append(out, i)
		}
	}
	return out, nil
}

// hostServer is the inventory's server for this machine: the one whose
// host (or name) is the host name, or whose host's first label is the
// host name's first label.
func hostServer(inv *inventory.Inventory, hostname string) (inventory.Server, bool) {
	h := strings.ToLower(strings.TrimSuffix(hostname, "."))
	if h == "" {
		return inventory.Server{}, false
	}
	short, _, _ := strings.Cut(h, ".")
	for _, exact := range []bool{true, false} {
		for _, s := range inv.Servers {
			host := strings.ToLower(strings.TrimSuffix(s.Host, "."))
			hs, _, _ := strings.Cut(host, ".")
			if exact && (host == h || s.Name == h) || !exact && (hs == short || s.Name == short) {
				return s, true
			}
		}
	}
	return inventory.Server{}, false
}

func execMain(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	c, err := parseExec(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "gpuplan exec:", err)
		return exitBadUsage
	}
	cat := planner.DefaultCatalog()
	inv, _, err := loadInventory(cat, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "gpuplan exec:", err)
		return exitBadUsage
	}
	var srv inventory.Server
	if c.on != "" {
		if srv, err = inv.Server(c.on); err != nil {
			fmt.Fprintf(stderr, "gpuplan exec: --on %s: %s\n", c.on, userWords(err))
			return exitBadUsage
		}
	} else {
		host, _ := os.Hostname()
		var ok bool
		if srv, ok = hostServer(inv, host); !ok {
			fmt.Fprintf(stderr, "gpuplan exec: this machine (%s) is not a server in the servers file; say which with --on SERVER\n", host)
			return exitBadUsage
		}
	}
	need := c.count
	for _, g := range c.ids {
		if g >= srv.Count() {
			fmt.Fprintf(stderr, "gpuplan exec: --ids: %s has GPUs 0-%d, not %d\n", srv.Name, srv.Count()-1, g)
			return exitBadUsage
		}
	}
	if len(c.ids) > 0 {
		need = len(c.ids)
	}
	if need > srv.Count() {
		fmt.Fprintf(stderr, "gpuplan exec: %s has %d GPUs; %d asked\n", srv.Name, srv.Count(), need)
		return exitBadUsage
	}
	maxDur := cmp.Or(srv.MaxDuration, inv.MaxDuration)
	if c.forDur == 0 {
		c.forDur = cmp.Or(maxDur, 24*time.Hour)
	}
	if maxDur > 0 && c.forDur > maxDur {
		fmt.Fprintf(stderr, "gpuplan exec: --for %s is longer than the %s maximum on %s\n", c.forDur, maxDur, srv.Name)
		return exitBadUsage
	}
	opened, _, warnings, err := openStore(ctx, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "gpuplan exec:", err)
		return exitForOpen(err)
	}
	for _, w := range warnings {
		fmt.Fprintln(stderr, "gpuplan: warning:", w)
	}
	var st execStore
	switch s := opened.(type) {
	case *store.Embedded:
		// One process holds the file at a time: hold it for each step, not
		// for the whole job, so that status or another exec on this host
		// can use it while the command runs.
		s.Close()
		path, err := embeddedPath(getenv)
		if err != nil {
			fmt.Fprintln(stderr, "gpuplan exec:", err)
			return exitBadUsage
		}
		st = embeddedSteps{path: path}
	case execStore:
		defer opened.Close()
		st = s
	default:
		opened.Close()
		fmt.Fprintf(stderr, "gpuplan exec: %T cannot hold leases\n", opened)
		return exitInternal
	}
	// The agent reports Unix users as the servers file maps them; a
	// booking owned by the mapped name is the one it matches.
	if id, ok := inv.Users[c.as]; ok {
		c.as = id
	}
	set := commands.New(commands.Deps{Catalog: cat, Inventory: inv})
	j := &execJob{cfg: c, srv: srv, need: need, st: st, set: set,
		req: commands.Request{User: c.as}, stdout: stdout, stderr: stderr}
	// Signals are the command's once it runs; until then they stop the
	// wait. main's own handler keeps them from killing gpuplan meanwhile.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	return j.run(ctx, sigs)
}

// userWords is an error as the terminal shows it.
func userWords(err error) string {
	if ue := commands.Explain(err); ue != nil {
		return strings.ReplaceAll(ue.Msg, "`", "")
	}
	return err.Error()
}

// execStore is what exec needs of the store: reservations, the lease,
// the waiting list, and the watch half's history and live state. Redis and
// the embedded store (embeddedSteps) provide it.
type execStore interface {
	Now(ctx context.Context) (time.Time, error)
	List(ctx context.Context, server string) ([]store.Reservation, error)
	Get(ctx context.Context, id string) (store.Reservation, error)
	Reserve(ctx context.Context, req store.ReserveRequest) (store.Reservation, error)
	Release(ctx context.Context, req store.ReleaseRequest) (store.Reservation, error)
	Renew(ctx context.Context, req store.RenewRequest) (store.Reservation, error)
	Wait(ctx context.Context, req store.WaitRequest) (store.Waiter, error)
	Waiters(ctx context.Context, server string) ([]store.Waiter, error)
	RemoveWaiter(ctx context.Context, server, id string) (bool, error)
	History(ctx context.Context, server string, from, to time.Time) ([]store.Reservation, error)
	Live(ctx context.Context, server string) (store.Live, error)
}

var (
	_ execStore = (*store.Redis)(nil)
	_ execStore = (*store.Embedded)(nil)
	_ execStore = embeddedSteps{}
)

// embeddedSteps is the embedded store opened for one call at a time.
type embeddedSteps struct{ path string }

// embeddedLockWait is how long a step waits for another process that
// holds the file (a status, another exec).
const embeddedLockWait = 10 * time.Second

func step[T any](e embeddedSteps, f func(*store.Embedded) (T, error)) (T, error) {
	s, err := store.OpenEmbeddedWith(e.path, store.EmbeddedOptions{LockTimeout: embeddedLockWait})
	if err != nil {
		var zero T
		return zero, err
	}
	defer s.Close()
	return f(s)
}

func (e embeddedSteps) Now(ctx context.Context) (time.Time, error) {
	return step(e, func(s *store.Embedded) (time.Time, error) { return s.Now(ctx) })
}

func (e embeddedSteps) List(ctx context.Context, server string) ([]store.Reservation, error) {
	return step(e, func(s *store.Embedded) ([]store.Reservation, error) { return s.List(ctx, server) })
}

func (e embeddedSteps) Get(ctx context.Context, id string) (store.Reservation, error) {
	return step(e, func(s *store.Embedded) (store.Reservation, error) { return s.Get(ctx, id) })
}

func (e embeddedSteps) Reserve(ctx context.Context, req store.ReserveRequest) (store.Reservation, error) {
	return step(e, func(s *store.Embedded) (store.Reservation, error) { return s.Reserve(ctx, req) })
}

func (e embeddedSteps) Release(ctx context.Context, req store.ReleaseRequest) (store.Reservation, error) {
	return step(e, func(s *store.Embedded) (store.Reservation, error) { return s.Release(ctx, req) })
}

func (e embeddedSteps) Renew(ctx context.Context, req store.RenewRequest) (store.Reservation, error) {
	return step(e, func(s *store.Embedded) (store.Reservation, error) { return s.Renew(ctx, req) })
}

func (e embeddedSteps) Wait(ctx context.Context, req store.WaitRequest) (store.Waiter, error) {
	return step(e, func(s *store.Embedded) (store.Waiter, error) { return s.Wait(ctx, req) })
}

func (e embeddedSteps) Waiters(ctx context.Context, server string) ([]store.Waiter, error) {
	return step(e, func(s *store.Embedded) ([]store.Waiter, error) { return s.Waiters(ctx, server) })
}

func (e embeddedSteps) RemoveWaiter(ctx context.Context, server, id string) (bool, error) {
	return step(e, func(s *store.Embedded) (bool, error) { return s.RemoveWaiter(ctx, server, id) })
}

func (e embeddedSteps) History(ctx context.Context, server string, from, to time.Time) ([]store.Reservation, error) {
	return step(e, func(s *store.Embedded) ([]store.Reservation, error) { return s.History(ctx, server, from, to) })
}

func (e embeddedSteps) Live(ctx context.Context, server string) (store.Live, error) {
	return step(e, func(s *store.Embedded) (store.Live, error) { return s.Live(ctx, server) })
}

// execJob is one gpuplan exec from booking to release.
type execJob struct {
	cfg  *execConfig
	srv  inventory.Server
	need int
	st   execStore
	set  *commands.Set
	req  commands.Request

	stdout, stderr io.Writer
}

func (j *execJob) say(r *commands.Reply) {
	_ = commands.RenderText(j.stderr, r)
}

func (j *execJob) run(ctx context.Context, sigs <-chan os.Signal) int {
	rv, ce, err := j.book(ctx)
	if err == nil && ce != nil {
		if !j.cfg.wait.on {
			return j.notFree(ctx, ce)
		}
		var code int
		rv, code = j.waitInLine(ctx, sigs)
		if code != 0 {
			return code
		}
	}
	if err != nil {
		fmt.Fprintln(j.stderr, "gpuplan exec:", userWords(err))
		return exitForError(err)
	}
	return j.runOn(rv, sigs)
}

func (j *execJob) notFree(ctx context.Context, ce *store.ConflictError) int {
	now, err := j.st.Now(ctx)
	if err != nil {
		now = time.Now()
	}
	var freeNow time.Duration
	if list, err := j.st.List(ctx, j.srv.Name); err == nil {
		freeNow = freeFor(list, j.srv.Count(), j.need, j.cfg.ids, now, j.cfg.forDur)
	}
	r, err := j.set.ExecNotFree(j.req, j.srv.Name, j.cfg.count, j.cfg.ids, ce, j.cfg.forDur, freeNow, now)
	if err != nil {
		fmt.Fprintln(j.stderr, "gpuplan exec:", userWords(err))
		return exitBadUsage
	}
	j.say(r)
	return exitNotFree
}

// newRequestID names one attempt of a mutation (a retry of the same
// attempt reuses it, so it applies once).
func newRequestID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + "-" + hex.EncodeToString(b[:])
}

// book tries once to book the job's GPUs: free for its whole window
// [now, now+for), chosen by preference, held for a first lease. It
// answers the reservation, or the conflict that explains why not.
func (j *execJob) book(ctx context.Context) (store.Reservation, *store.ConflictError, error) {
	for attempt := 0; ; attempt++ {
		now, err := j.st.Now(ctx)
		if err != nil {
			return store.Reservation{}, nil, err
		}
		list, err := j.st.List(ctx, j.srv.Name)
		if err != nil {
			return store.Reservation{}, nil, err
		}
		free := freeDuring(list, j.srv.Count(), now, now.Add(j.cfg.forDur))
		var gpus []int
		if len(j.cfg.ids) > 0 {
			if !containsAll(free, j.cfg.ids) {
				return store.Reservation{}, j.conflict(list, now), nil
			}
			gpus = j.cfg.ids
		} else {
			if len(free) < j.need {
				return store.Reservation{}, j.conflict(list, now), nil
			}
			last := j.lastUse(ctx, now)
			gpus = pickExecGPUs(free, j.need, last, j.measured(ctx, now, last))
		}
		rv, err := j.st.Reserve(ctx, store.ReserveRequest{
			RequestID: newRequestID("exec"), Server: j.srv.Name, ServerGPUs: j.srv.Count(), GPUs: gpus,
			Owner: j.cfg.as, Duration: min(j.cfg.lease, j.cfg.forDur), Note: store.ExecNote(shellJoin(j.cfg.command)),
		})
		var ce *store.ConflictError
		if errors.As(err, &ce) && attempt < 3 {
			continue // someone took them between the read and the booking: look again
		}
		if ce != nil {
			return store.Reservation{}, ce, nil
		}
		return rv, nil, err
	}
}

// conflict explains, in the store's terms, why the job's window does not
// fit now.
func (j *execJob) conflict(list []store.Reservation, now time.Time) *store.ConflictError {
	_, err := store.Fit(store.ReserveRequest{Server: j.srv.Name, ServerGPUs: j.srv.Count(), Count: j.cfg.count,
		GPUs: j.cfg.ids, Owner: j.cfg.as, Duration: j.cfg.forDur}, list, now)
	var ce *store.ConflictError
	if errors.As(err, &ce) {
		return ce
	}
	// It fits after all (a booking ended between the reads): say so as
	// an empty conflict with the slot now, and the caller tries again.
	return &store.ConflictError{Earliest: now}
}

// freeDuring is the GPU ids 0..n-1 that no reservation in list holds
// during [from, to).
func freeDuring(list []store.Reservation, n int, from, to time.Time) []int {
	var free []int
	for g := range n {
		probe := store.Reservation{GPUs: []int{g}, Start: from, End: to}
		taken := slices.ContainsFunc(list, func(r store.Reservation) bool {
			probe.Server = r.Server
			return probe.Overlaps(r)
		})
		if !taken {
			free = append(free, g)
		}
	}
	return free
}

// freeFor is how long from now enough of the job's GPUs stay free (need
// of them, or the ids), at most max; 0 when they are not free now. Only a
// booking's start can end a free stretch.
func freeFor(list []store.Reservation, n, need int, ids []int, now time.Time, max time.Duration) time.Duration {
	fits := func(to time.Time) bool {
		free := freeDuring(list, n, now, to)
		if len(ids) > 0 {
			return containsAll(free, ids)
		}
		return len(free) >= need
	}
	if !fits(now.Add(time.Millisecond)) {
		return 0
	}
	var starts []time.Time
	for _, r := range list {
		if r.Start.After(now) && r.Start.Before(now.Add(max)) {
			starts = append(starts, r.Start)
		}
	}
	slices.SortFunc(starts, time.Time.Compare)
	for _, s := range starts {
		if !fits(s.Add(time.Millisecond)) {
			return s.Sub(now)
		}
	}
	return max
}

func containsAll(have, want []int) bool {
	for _, g := range want {
		if !slices.Contains(have, g) {
			return false
		}
	}
	return true
}

// pickExecGPUs chooses n of the free GPUs: the ones the agent did not see
// busy first, then the least recently booked (never booked first), then
// the lowest id. It spreads wear and heat, and keeps off a GPU someone
// uses without a booking.
func pickExecGPUs(free []int, n int, lastUse map[int]time.Time, busyNow map[int]bool) []int {
	order := slices.Clone(free)
	slices.SortStableFunc(order, func(a, b int) int {
		if busyNow[a] != busyNow[b] {
			if busyNow[a] {
				return 1
			}
			return -1
		}
		if c := lastUse[a].Compare(lastUse[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	got := order[:min(n, len(order))]
	slices.Sort(got)
	return got
}

// lastUse is when each GPU's last booking ended (the last week), from the
// store's history; measured adds the agent's readings.
func (j *execJob) lastUse(ctx context.Context, now time.Time) map[int]time.Time {
	out := map[int]time.Time{}
	hist, err := j.st.History(ctx, j.srv.Name, now.Add(-7*24*time.Hour), now)
	if err != nil {
		return out // a preference, not a rule
	}
	for _, r := range hist {
		end := r.End
		if end.After(now) {
			end = now
		}
		for _, g := range r.GPUs {
			if end.After(out[g]) {
				out[g] = end
			}
		}
	}
	return out
}

// measured is the GPUs (store numbers) the agent saw busy in a recent
// sample; it also folds the agent's last busy time of each GPU into last,
// so that use without a booking counts as use.
func (j *execJob) measured(ctx context.Context, now time.Time, last map[int]time.Time) map[int]bool {
	busy := map[int]bool{}
	live, err := j.st.Live(ctx, j.srv.Name)
	if err != nil {
		return busy // a preference, not a rule
	}
	for _, g := range live.GPUs {
		i := slices.Index(j.srv.GPUIDs, g.Index)
		if i < 0 {
			continue
		}
		if now.Sub(g.At) <= recentSample && g.Busy() {
			busy[i] = true
		}
		if b := g.BusyAt; b.After(last[i]) && !b.After(now) {
			last[i] = b
		}
	}
	return busy
}

// visibleDevices is the booked GPUs as the driver numbers them: the store
// numbers a server's GPUs 0..n-1, and the servers file may give their
// device ids (gpu_ids), which the agent reads too.
func visibleDevices(srv inventory.Server, gpus []int) string {
	ids := make([]string, len(gpus))
	for i, g := range gpus {
		if g < len(srv.GPUIDs) {
			g = srv.GPUIDs[g]
		}
		ids[i] = strconv.Itoa(g)
	}
	return strings.Join(ids, ",")
}

// waitInLine joins the server's waiting list and books the GPUs once
// they are free, first come first served with the others in line (as the
// bot's sweep serves them). It gives up after --wait, or on a signal.
func (j *execJob) waitInLine(ctx context.Context, sigs <-chan os.Signal) (store.Reservation, int) {
	bg := context.WithoutCancel(ctx)
	w, err := j.st.Wait(ctx, store.WaitRequest{RequestID: newRequestID("exec-wait"), Server: j.srv.Name,
		Count: j.need, Owner: j.cfg.as, For: j.cfg.wait.d})
	if err != nil {
		fmt.Fprintln(j.stderr, "gpuplan exec:", userWords(err))
		return store.Reservation{}, exitForError(err)
	}
	leave := func() { _, _ = j.st.RemoveWaiter(bg, j.srv.Name, w.ID) }
	fmt.Fprintf(j.stderr, "gpuplan exec: %d GPU(s) on %s are not free; waiting in line (up to %s)\n", j.need, j.srv.Name, j.cfg.wait.d)
	poll := min(j.cfg.lease/3, 10*time.Second)
	tick := time.NewTicker(poll)
	defer tick.Stop()
	giveUp := time.NewTimer(j.cfg.wait.d)
	defer giveUp.Stop()
	for {
		select {
		case s := <-sigs:
			leave()
			fmt.Fprintf(j.stderr, "gpuplan exec: %v while waiting; the command was not run\n", s)
			return store.Reservation{}, 128 + signum(s)
		case <-giveUp.C:
			leave()
			fmt.Fprintf(j.stderr, "gpuplan exec: gave up waiting after %s; the command was not run\n", j.cfg.wait.d)
			_, ce, err := j.book(bg)
			if err == nil && ce != nil {
				j.notFree(bg, ce)
			}
			return store.Reservation{}, exitNotFree
		case <-tick.C:
		}
		if !j.ahead(bg, w.ID) {
			continue
		}
		rv, ce, err := j.book(bg)
		if err != nil {
			fmt.Fprintln(j.stderr, "gpuplan exec: warning:", userWords(err))
			continue
		}
		if ce == nil {
			leave()
			return rv, 0
		}
	}
}

// ahead reports whether the job's turn has come: the waiters before it
// that fit in the free GPUs would take theirs first (the sweep's rule),
// and enough remain for it.
func (j *execJob) ahead(ctx context.Context, me string) bool {
	waiters, err := j.st.Waiters(ctx, j.srv.Name)
	if err != nil {
		return false
	}
	now, err := j.st.Now(ctx)
	if err != nil {
		return false
	}
	list, err := j.st.List(ctx, j.srv.Name)
	if err != nil {
		return false
	}
	free := len(freeDuring(list, j.srv.Count(), now, now.Add(time.Millisecond)))
	for _, w := range waiters {
		if w.ID == me {
			return j.need <= free
		}
		if w.Count <= free {
			free -= w.Count
		}
	}
	return j.need <= free // our entry expired: go when it fits
}

// runOn runs the command on the booked GPUs and releases them after.
func (j *execJob) runOn(rv store.Reservation, sigs <-chan os.Signal) int {
	// The job outlives a cancelled context: signals are forwarded to the
	// command, and its booking is renewed and released whatever happens.
	ctx := context.Background()
	command := shellJoin(j.cfg.command)
	select {
	case s := <-sigs:
		// Interrupted while booking: the command never starts.
		j.release(ctx, rv)
		fmt.Fprintf(j.stderr, "gpuplan exec: %v before the command started; it was not run and %s is released\n", s, rv.ID)
		return 128 + signum(s)
	default:
	}
	storeNow, err := j.st.Now(ctx)
	if err != nil {
		storeNow = rv.Start
	}
	until := rv.Start.Add(j.cfg.forDur)
	j.say(j.set.ExecStarted(j.req, rv, command, until, storeNow))

	cmd := exec.Command(j.cfg.command[0], j.cfg.command[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, j.stdout, j.stderr
	ids := visibleDevices(j.srv, rv.GPUs)
	cmd.Env = append(os.Environ(), "CUDA_VISIBLE_DEVICES="+ids, "NVIDIA_VISIBLE_DEVICES="+ids,
		"GPUPLAN_RESERVATION="+rv.ID)
	started := time.Now()
	if err := cmd.Start(); err != nil {
		code := exitNoExec
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
			code = exitNotFound
		}
		fmt.Fprintf(j.stderr, "gpuplan exec: %v\n", err)
		_, released := j.release(ctx, rv)
		j.say(j.set.ExecEnded(j.req, rv, command, 0, "not started", released, j.now(ctx)))
		return code
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	fromTerminal := terminalSignalsCommand()

	hb := newHeartbeat(j, rv, until)
	go hb.run()
	var stopAt <-chan time.Time // the booking's bound: stop the command there
	var killAt <-chan time.Time // SIGTERM was not enough
	bounded := false
	var waitErr error
loop:
	for {
		select {
		case s := <-sigs:
			if s == os.Interrupt && fromTerminal {
				continue // the terminal sent it to the command as well
			}
			_ = cmd.Process.Signal(s)
		case b := <-hb.bound:
			stopAt = time.After(time.Until(b))
		case <-stopAt:
			bounded = true
			fmt.Fprintf(j.stderr, "gpuplan exec: the booking %s has reached its end; stopping the command (SIGTERM, then SIGKILL after %s)\n", rv.ID, execKillGrace)
			_ = cmd.Process.Signal(syscall.SIGTERM)
			killAt = time.After(execKillGrace)
		case <-killAt:
			_ = cmd.Process.Kill()
		case waitErr = <-exited:
			break loop
		}
	}
	ran := time.Since(started)
	hb.stop()
	status, code := exitStatus(cmd.ProcessState, waitErr)
	if bounded {
		code = exitBoundEnd
	}
	last, released := j.release(ctx, rv)
	j.say(j.set.ExecEnded(j.req, last, command, ran, status, released, j.now(ctx)))
	return code
}

func (j *execJob) now(ctx context.Context) time.Time {
	if t, err := j.st.Now(ctx); err == nil {
		return t
	}
	return time.Now()
}

// release gives the GPUs back, retrying (with the same request id, so it
// applies once) while the store is unavailable. It reports whether this
// call ended the booking.
func (j *execJob) release(ctx context.Context, rv store.Reservation) (store.Reservation, bool) {
	rid := newRequestID("exec-release")
	for try := 0; ; try++ {
		got, err := j.st.Release(ctx, store.ReleaseRequest{RequestID: rid, ID: rv.ID, Actor: j.cfg.as})
		switch {
		case err == nil:
			return got, true
		case errors.Is(err, store.ErrEnded), errors.Is(err, store.ErrNotFound):
			if cur, err := j.st.Get(ctx, rv.ID); err == nil {
				return cur, false
			}
			return rv, false
		case errors.Is(err, store.ErrUnavailable) && try < 5:
			time.Sleep(time.Duration(try+1) * 500 * time.Millisecond)
		default:
			fmt.Fprintf(j.stderr, "gpuplan exec: could not release %s (%s); it ends by itself within %s\n", rv.ID, userWords(err), j.cfg.lease)
			return rv, false
		}
	}
}

// exitStatus describes how the command ended and the code gpuplan exits
// with: its own, or 128+N for signal N (as a shell reports it).
func exitStatus(ps *os.ProcessState, waitErr error) (string, int) {
	if ps == nil {
		return fmt.Sprintf("unknown (%v)", waitErr), exitInternal
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		sig := ws.Signal()
		return fmt.Sprintf("killed by signal %d (%v)", int(sig), sig), 128 + int(sig)
	}
	return fmt.Sprintf("exit status %d", ps.ExitCode()), ps.ExitCode()
}

func signum(s os.Signal) int {
	if ss, ok := s.(syscall.Signal); ok {
		return int(ss)
	}
	return 1
}

// heartbeat renews the job's lease every third of a lease. When a
// renewal can no longer move the end (the --for bound, or someone's
// booking next on those GPUs), it sends that end on bound, in local
// time, once. A booking lost otherwise (the store unreachable for a whole
// lease, an admin's release) is said on stderr; the command goes on.
type heartbeat struct {
	j     *execJob
	rv    store.Reservation
	until time.Time
	bound chan time.Time
	quit  chan struct{}
	done  chan struct{}
}

func newHeartbeat(j *execJob, rv store.Reservation, until time.Time) *heartbeat {
	return &heartbeat{j: j, rv: rv, until: until, bound: make(chan time.Time, 1),
		quit: make(chan struct{}), done: make(chan struct{})}
}

func (h *heartbeat) stop() {
	close(h.quit)
	<-h.done
}

func (h *heartbeat) run() {
	defer close(h.done)
	ctx := context.Background()
	lease := h.j.cfg.lease
	every := max(lease/3, 100*time.Millisecond)
	sentBound := false
	// The first booking may already be all there is (--for within a lease).
	if !h.rv.End.Before(h.until) {
		h.sendBound(h.rv.End, time.Now(), h.rv.Start)
		sentBound = true
	}
	t := time.NewTimer(every)
	defer t.Stop()
	failing := 0
	for {
		select {
		case <-h.quit:
			return
		case <-t.C:
		}
		if sentBound {
			return // nothing left to renew
		}
		asked := time.Now()
		rv, err := h.j.st.Renew(ctx, store.RenewRequest{RequestID: newRequestID("exec-renew"), ID: h.rv.ID,
			Actor: h.j.cfg.as, Lease: lease, Until: h.until})
		next := every
		switch {
		case err == nil:
			failing = 0
			storeNow, nerr := h.j.st.Now(ctx)
			if nerr != nil {
				storeNow = rv.End.Add(-lease)
			}
			// An end short of a whole lease ahead (less one beat) is a
			// bound: no later renewal can move it.
			if !rv.End.Before(h.until) || rv.End.Before(storeNow.Add(lease-every)) {
				h.sendBound(rv.End, asked, storeNow)
				sentBound = true
				if rv.End.Before(h.until) {
					fmt.Fprintf(h.j.stderr, "gpuplan exec: GPUs %s on %s are booked by someone else from %s; the command will be stopped then\n",
						rv.GPUList(), rv.Server, rv.End.Local().Format("15:04:05"))
				}
			}
		case errors.Is(err, store.ErrEnded), errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrNotOwner):
			fmt.Fprintf(h.j.stderr, "gpuplan exec: the booking %s has ended (%s); the command goes on without a booking\n", h.rv.ID, userWords(err))
			return
		default:
			failing++
			if failing == 1 || failing%10 == 0 {
				fmt.Fprintf(h.j.stderr, "gpuplan exec: warning: could not renew the booking %s: %s\n", h.rv.ID, userWords(err))
			}
			next = max(every/4, 100*time.Millisecond) // try again soon: the lease is running out
		}
		t.Reset(next)
	}
}

// sendBound turns the store's end into local time (the store's clock
// may differ from this machine's) and hands it to the job.
func (h *heartbeat) sendBound(end, localAt, storeAt time.Time) {
	h.bound <- localAt.Add(end.Sub(storeAt))
}

// shellJoin writes argv as a shell would read it back: words with
// anything but plain characters in single quotes.
func shellJoin(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		plain := a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
		}) < 0
		if plain {
			out[i] = a
		} else {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}
