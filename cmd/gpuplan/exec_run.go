package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/store"
)

// An exec job: booking the GPUs, running the command on them, keeping the
// lease alive while it runs and giving the GPUs back when it ends.

// execJob is one gpuplan exec from booking to release.
type execJob struct {
	cfg  *execConfig
	srv  inventory.Server
	need int
	st   execStore
	set  *commands.Set
	req  commands.Request

	stdout, stderr io.Writer
	slack          *execSlack // nil: the announcements are printed only
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
	start := j.set.ExecStarted(j.req, rv, command, until, storeNow)
	j.say(start)
	j.slack.started(start)

	cmd := exec.Command(j.cfg.command[0], j.cfg.command[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, j.stdout, j.stderr
	ids := visibleDevices(j.srv, rv.GPUs)
	cmd.Env = append(os.Environ(), "CUDA_VISIBLE_DEVICES="+ids, "NVIDIA_VISIBLE_DEVICES="+ids,
		"GPUPLAN_RESERVATION="+rv.ID)
	started := time.Now()
	if err := cmd.Start(); err != nil {
		return j.notStarted(ctx, rv, command, err)
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
	end := j.set.ExecEnded(j.req, last, command, ran, status, released, j.now(ctx))
	j.say(end)
	j.slack.ended(end)
	return code
}

// notStarted gives the booking back when the command could not be
// started, says so where the start was said, and returns the shell's code
// for it (127 not found, 126 not runnable).
func (j *execJob) notStarted(ctx context.Context, rv store.Reservation, command string, err error) int {
	code := exitNoExec
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
		code = exitNotFound
	}
	fmt.Fprintf(j.stderr, "gpuplan exec: %v\n", err)
	_, released := j.release(ctx, rv)
	end := j.set.ExecEnded(j.req, rv, command, 0, "not started", released, j.now(ctx))
	j.say(end)
	j.slack.ended(end)
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
