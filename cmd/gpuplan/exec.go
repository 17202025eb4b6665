package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/commands/lang"
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
With SLACK_BOT_TOKEN and the servers file's team_channel, the booking and
its end are announced there too; a command that cannot be found is said
before anything is booked.

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
	lang    *langValue // --lang: the announcements' language
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
	c.lang = langFlag(fs, getenv)
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
		got, err := lang.ParseIDs(*ids)
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

// execMain is long on purpose: flags, inventory, store and the job are wired
// in one place, in the order exec needs them.
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
			fmt.Fprintf(stderr, "gpuplan exec: --on %s: %s%s\n", c.on, userWords(err), theServers(inv))
			return exitBadUsage
		}
	} else {
		host, _ := os.Hostname()
		var ok bool
		if srv, ok = hostServer(inv, host); !ok {
			fmt.Fprintf(stderr, "gpuplan exec: this machine (%s) is not a server in the servers file; say which with --on SERVER%s\n", host, theServers(inv))
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
	// A command that cannot be run is said before anything is booked or
	// announced (a race with its removal is still caught at the start).
	if code, err := lookCommand(c.command[0]); err != nil {
		fmt.Fprintf(stderr, "gpuplan exec: %v; nothing was booked\n", err)
		return code
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
		req: commands.Request{User: c.as, Lang: c.lang.lang()}, stdout: stdout, stderr: stderr,
		slack: newExecSlack(getenv, inv.TeamChannel, st, stderr)}
	// Signals are the command's once it runs; until then they stop the
	// wait. main's own handler keeps them from killing gpuplan meanwhile.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	return j.run(ctx, sigs)
}

// theServers lists the inventory's servers for a message about a
// server: " (the servers: a, b)"; "" when there are none.
func theServers(inv *inventory.Inventory) string {
	if len(inv.Servers) == 0 {
		return ""
	}
	return " (the servers: " + strings.Join(serverNames(inv), ", ") + ")"
}

// lookCommand finds the command as exec.Command will: a name with a slash
// is that file, any other is searched in PATH. It answers the exit code
// a shell gives when it cannot run one: 127 not found, 126 found but not
// runnable (not executable, a directory, found only relative to the
// current directory).
func lookCommand(name string) (int, error) {
	_, err := exec.LookPath(name)
	switch {
	case err == nil:
		return 0, nil
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return exitNotFound, fmt.Errorf("%s: command not found", name)
	default:
		return exitNoExec, fmt.Errorf("%s: cannot be run (%v)", name, unwrapExecError(err))
	}
}

// unwrapExecError is the reason inside an *exec.Error (its text repeats
// the name).
func unwrapExecError(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) && ee.Err != nil {
		return ee.Err
	}
	return err
}

// userWords is an error as the terminal shows it.
func userWords(err error) string {
	if ue := commands.Explain(err); ue != nil {
		return strings.ReplaceAll(ue.Msg, "`", "")
	}
	return err.Error()
}

// execStore is what exec needs of the store: reservations, the lease,
// the waiting list, the watch half's history and live state, and where a
// booking was announced in Slack. Redis and
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
	SetAnnouncement(ctx context.Context, id, channel, ts string) error
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

func (e embeddedSteps) SetAnnouncement(ctx context.Context, id, channel, ts string) error {
	_, err := step(e, func(s *store.Embedded) (struct{}, error) { return struct{}{}, s.SetAnnouncement(ctx, id, channel, ts) })
	return err
}
