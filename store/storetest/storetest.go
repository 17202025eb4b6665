// Package storetest is the contract suite every store.Store backend
// passes: the embedded file store and Redis run the same cases, with an
// injected clock, so that they cannot drift apart.
//
// A backend's test calls Run with a function that opens an empty store
// reading the given clock:
//
//	storetest.Run(t, func(t *testing.T, clock func() time.Time) store.Store {
//		s, err := store.OpenEmbedded(filepath.Join(t.TempDir(), "db"), clock)
//		...
//		return s
//	})
//
// RunWatch runs the watch half's cases (samples, usage, live state,
// history, subscriptions, claims) with the same kind of opener.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/store"
)

// Clock is a fake clock a test moves by hand. It is safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock starts a clock at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now reads the clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// Base is where every case's clock starts: a Monday morning, on a whole
// second (the stores keep milliseconds).
var Base = time.Date(2030, 1, 7, 9, 0, 0, 0, time.UTC)

// Opener opens an empty store that reads clock as its now.
type Opener func(t *testing.T, clock func() time.Time) store.Store

// env is one case's store and clock.
type env struct {
	t     *testing.T
	s     store.Store
	clock *Clock
	ctx   context.Context
	n     int // request ids
}

func (e *env) rid() string {
	e.n++
	return fmt.Sprintf("req-%s-%d", e.t.Name(), e.n)
}

func (e *env) now() time.Time { return e.clock.Now() }

// reserve is a valid request on server "h" (4 GPUs) for count GPUs from
// start for d, with a fresh request id.
func (e *env) req(count int, start time.Time, d time.Duration) store.ReserveRequest {
	return store.ReserveRequest{RequestID: e.rid(), Server: "h", ServerGPUs: 4, Count: count,
		Owner: "U1", Start: start, Duration: d}
}

func (e *env) mustReserve(req store.ReserveRequest) store.Reservation {
	e.t.Helper()
	r, err := e.s.Reserve(e.ctx, req)
	if err != nil {
		e.t.Fatalf("Reserve(%+v): %v", req, err)
	}
	return r
}

func (e *env) list(server string) []store.Reservation {
	e.t.Helper()
	l, err := e.s.List(e.ctx, server)
	if err != nil {
		e.t.Fatalf("List(%s): %v", server, err)
	}
	return l
}

func (e *env) audit(server string) []store.AuditEvent {
	e.t.Helper()
	a, err := e.s.Audit(e.ctx, server, 1000)
	if err != nil {
		e.t.Fatalf("Audit(%s): %v", server, err)
	}
	return a
}

func ids(rs []store.Reservation) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

func conflict(t *testing.T, err error) *store.ConflictError {
	t.Helper()
	var ce *store.ConflictError
	if !errors.As(err, &ce) || !errors.Is(err, store.ErrConflict) {
		t.Fatalf("got %v, want a *store.ConflictError", err)
	}
	return ce
}

// Run runs the contract suite; open must return an empty store.
func Run(t *testing.T, open func(t *testing.T, clock func() time.Time) store.Store) {
	cases := []struct {
		name string
		run  func(e *env)
	}{
		{"ReserveByCount", testReserveByCount},
		{"ReserveByIDs", testReserveByIDs},
		{"ConflictHoldersAndEarliest", testConflict},
		{"ConflictNeverFits", testNeverFits},
		{"Idempotency", testIdempotency},
		{"IdempotentConcurrentDoubleClick", testDoubleClick},
		{"Release", testRelease},
		{"ReleasePending", testReleasePending},
		{"Extend", testExtend},
		{"Shorten", testShorten},
		{"StateWithTime", testStateWithTime},
		{"List", testList},
		{"CleanupAfter", testCleanup},
		{"SetAnnouncement", testAnnouncement},
		{"MarkRemindedOnce", testRemind},
		{"Waiters", testWaiters},
		{"Audit", testAudit},
		{"Validation", testValidation},
		{"NotesVerbatim", testNotesVerbatim},
		{"Now", testNow},
		{"Concurrency", testConcurrency},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clock := NewClock(Base)
			s := open(t, clock.Now)
			t.Cleanup(func() { s.Close() })
			c.run(&env{t: t, s: s, clock: clock, ctx: context.Background()})
		})
	}
}

func testReserveByCount(e *env) {
	t := e.t
	r := e.mustReserve(store.ReserveRequest{RequestID: e.rid(), Server: "h", ServerGPUs: 4, Count: 2,
		Owner: "U1", Duration: 2 * time.Hour, Note: "bert"})
	if !strings.HasPrefix(r.ID, "h-") || r.Server != "h" || r.Owner != "U1" || r.Note != "bert" {
		t.Errorf("reservation = %+v", r)
	}
	if !slices.Equal(r.GPUs, []int{0, 1}) {
		t.Errorf("GPUs = %v, want the lowest free [0 1]", r.GPUs)
	}
	if !r.Start.Equal(e.now()) || !r.End.Equal(e.now().Add(2*time.Hour)) || !r.CreatedAt.Equal(e.now()) {
		t.Errorf("window %v–%v created %v, want now–now+2h", r.Start, r.End, r.CreatedAt)
	}
	if st := r.State(e.now()); st != store.Active {
		t.Errorf("state = %s, want active", st)
	}
	got, err := e.s.Get(e.ctx, r.ID)
	if err != nil || got.ID != r.ID || !slices.Equal(got.GPUs, r.GPUs) || !got.End.Equal(r.End) {
		t.Errorf("Get = %+v, %v; want %+v", got, err, r)
	}
	r2 := e.mustReserve(e.req(2, time.Time{}, time.Hour))
	if !slices.Equal(r2.GPUs, []int{2, 3}) || r2.ID == r.ID {
		t.Errorf("second reservation %s GPUs %v, want a new id on [2 3]", r2.ID, r2.GPUs)
	}
	if _, err := e.s.Reserve(e.ctx, e.req(1, time.Time{}, time.Hour)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a fifth GPU: %v, want a conflict", err)
	}
	if _, err := e.s.Get(e.ctx, "h-999"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Get(h-999) = %v, want ErrNotFound", err)
	}
	if _, err := e.s.Get(e.ctx, "nonsense"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Get(nonsense) = %v, want ErrNotFound", err)
	}
}

func testReserveByIDs(e *env) {
	t := e.t
	req := e.req(0, time.Time{}, time.Hour)
	req.GPUs = []int{3, 1}
	r := e.mustReserve(req)
	if !slices.Equal(r.GPUs, []int{1, 3}) {
		t.Errorf("GPUs = %v, want [1 3]", r.GPUs)
	}
	r2 := e.mustReserve(e.req(2, time.Time{}, time.Hour))
	if !slices.Equal(r2.GPUs, []int{0, 2}) {
		t.Errorf("count 2 around [1 3] got %v, want [0 2]", r2.GPUs)
	}
	// The same ids later, after the first ends, are free.
	req = e.req(0, e.now().Add(time.Hour), time.Hour)
	req.GPUs = []int{1, 3}
	e.mustReserve(req)
	// Another server's GPU 1 is another GPU.
	req = e.req(0, time.Time{}, time.Hour)
	req.Server, req.GPUs = "a", []int{1}
	e.mustReserve(req)
}

func testConflict(e *env) {
	t := e.t
	now := e.now()
	a := e.mustReserve(e.req(2, time.Time{}, 2*time.Hour))        // [0 1] now..+2h
	b := e.mustReserve(e.req(2, now.Add(time.Hour), 2*time.Hour)) // [2 3] +1h..+3h
	if !slices.Equal(b.GPUs, []int{2, 3}) {
		t.Fatalf("b GPUs = %v", b.GPUs)
	}

	// Three GPUs now for an hour: only 2 and 3 are free until a ends, and
	// b holds them from +1h to +3h, so three are free together at +3h.
	_, err := e.s.Reserve(e.ctx, e.req(3, time.Time{}, time.Hour))
	ce := conflict(t, err)
	if !slices.Equal(ids(ce.Holders), []string{a.ID}) {
		t.Errorf("holders = %v, want [%s]", ids(ce.Holders), a.ID)
	}
	if !ce.Earliest.Equal(now.Add(3*time.Hour)) || !slices.Equal(ce.EarliestGPUs, []int{0, 1, 2}) {
		t.Errorf("earliest %v %v, want +3h [0 1 2]", ce.Earliest.Sub(now), ce.EarliestGPUs)
	}
	if h := ce.Holders[0]; h.Owner != "U1" || !slices.Equal(h.GPUs, a.GPUs) || !h.End.Equal(a.End) {
		t.Errorf("holder = %+v, want %+v", h, a)
	}

	// Explicit ids 1 and 2 for an hour from +30m: a holds 1, b holds 2;
	// both free at +3h.
	req := e.req(0, now.Add(30*time.Minute), time.Hour)
	req.GPUs = []int{2, 1}
	_, err = e.s.Reserve(e.ctx, req)
	ce = conflict(t, err)
	if !slices.Equal(ids(ce.Holders), []string{a.ID, b.ID}) {
		t.Errorf("holders = %v, want [%s %s] earliest first", ids(ce.Holders), a.ID, b.ID)
	}
	if !ce.Earliest.Equal(now.Add(3*time.Hour)) || !slices.Equal(ce.EarliestGPUs, []int{1, 2}) {
		t.Errorf("earliest %v %v, want +3h [1 2]", ce.Earliest.Sub(now), ce.EarliestGPUs)
	}

	// GPU 0 only: a holds it; free when a ends at +2h.
	req = e.req(0, now.Add(30*time.Minute), time.Hour)
	req.GPUs = []int{0}
	_, err = e.s.Reserve(e.ctx, req)
	ce = conflict(t, err)
	if !slices.Equal(ids(ce.Holders), []string{a.ID}) || !ce.Earliest.Equal(now.Add(2*time.Hour)) || !slices.Equal(ce.EarliestGPUs, []int{0}) {
		t.Errorf("GPU 0: holders %v earliest %v %v, want [%s] +2h [0]", ids(ce.Holders), ce.Earliest.Sub(now), ce.EarliestGPUs, a.ID)
	}

	// Four GPUs from +1h30: both hold; everything is free at +3h.
	_, err = e.s.Reserve(e.ctx, e.req(4, now.Add(90*time.Minute), 30*time.Minute))
	ce = conflict(t, err)
	if !slices.Equal(ids(ce.Holders), []string{a.ID, b.ID}) || !ce.Earliest.Equal(now.Add(3*time.Hour)) {
		t.Errorf("4 GPUs: holders %v earliest %v", ids(ce.Holders), ce.Earliest.Sub(now))
	}

	// Back to back is not a conflict: a's end is exclusive.
	req = e.req(0, a.End, time.Hour)
	req.GPUs = []int{0, 1}
	e.mustReserve(req)

	// A conflict wrote nothing.
	if l := e.list("h"); len(l) != 3 {
		t.Errorf("List has %d reservations after conflicts, want 3", len(l))
	}
	for _, ev := range e.audit("h") {
		if ev.Action != "reserve" {
			t.Errorf("audit has %q; conflicts must not be recorded as changes", ev.Action)
		}
	}
}

func testNeverFits(e *env) {
	t := e.t
	now := e.now()
	// All four GPUs from day 360 for 300 days: a request overlapping it
	// could only start after day 660, beyond the booking horizon.
	e.mustReserve(e.req(4, now.Add(360*24*time.Hour), 300*24*time.Hour))
	_, err := e.s.Reserve(e.ctx, e.req(1, now.Add(300*24*time.Hour), 100*24*time.Hour))
	ce := conflict(t, err)
	if !ce.Earliest.IsZero() || ce.EarliestGPUs != nil {
		t.Errorf("earliest = %v %v, want zero: it never fits within %v", ce.Earliest, ce.EarliestGPUs, store.Horizon)
	}
	if len(ce.Holders) != 1 {
		t.Errorf("holders = %v", ids(ce.Holders))
	}
}

func testIdempotency(e *env) {
	t := e.t
	req := e.req(2, time.Time{}, time.Hour)
	r1 := e.mustReserve(req)
	// The retry comes later (a lost reply, a double click): same answer,
	// no second hold and no conflict with itself.
	e.clock.Advance(10 * time.Second)
	r2, err := e.s.Reserve(e.ctx, req)
	if err != nil {
		t.Fatalf("retry: %v (a retry must never conflict with its own first try)", err)
	}
	if r2.ID != r1.ID || !slices.Equal(r2.GPUs, r1.GPUs) || !r2.Start.Equal(r1.Start) {
		t.Errorf("retry = %+v, want %+v", r2, r1)
	}
	if l := e.list("h"); len(l) != 1 {
		t.Errorf("List = %v, want one reservation", ids(l))
	}
	// A different request id is a different request.
	req2 := req
	req2.RequestID = e.rid()
	r3 := e.mustReserve(req2)
	if r3.ID == r1.ID || !slices.Equal(r3.GPUs, []int{2, 3}) {
		t.Errorf("new request = %+v", r3)
	}
	// Release and extend are idempotent too: the retried release answers
	// as the first did, not ErrEnded.
	rel := store.ReleaseRequest{RequestID: e.rid(), ID: r1.ID, Actor: "U1"}
	a, err := e.s.Release(e.ctx, rel)
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(time.Second)
	b, err := e.s.Release(e.ctx, rel)
	if err != nil || b.ID != a.ID || !b.End.Equal(a.End) {
		t.Errorf("retried release = %+v, %v; want %+v", b, err, a)
	}
	ext := store.ExtendRequest{RequestID: e.rid(), ID: r3.ID, Actor: "U1", By: time.Hour}
	x1, err := e.s.Extend(e.ctx, ext)
	if err != nil {
		t.Fatal(err)
	}
	x2, err := e.s.Extend(e.ctx, ext)
	if err != nil || !x2.End.Equal(x1.End) {
		t.Errorf("retried extend = %v, %v; want end %v (applied once)", x2.End, err, x1.End)
	}
	got, _ := e.s.Get(e.ctx, r3.ID)
	if !got.End.Equal(r3.End.Add(time.Hour)) {
		t.Errorf("end after a retried 1h extend = %v, want %v", got.End, r3.End.Add(time.Hour))
	}
	// A request id reused for another action is refused, not misread.
	if _, err := e.s.Extend(e.ctx, store.ExtendRequest{RequestID: req.RequestID, ID: r3.ID, Actor: "U1", By: time.Hour}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("reserve's request id reused for extend: %v, want ErrInvalid", err)
	}
	// A failed request is not remembered: once the GPUs are free the same
	// request id succeeds.
	busy := e.req(4, time.Time{}, time.Hour)
	if _, err := e.s.Reserve(e.ctx, busy); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("4 GPUs while 2 are held: %v", err)
	}
	if _, err := e.s.Release(e.ctx, store.ReleaseRequest{RequestID: e.rid(), ID: r3.ID, Actor: "U1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Reserve(e.ctx, busy); err != nil {
		t.Errorf("the refused request, retried once the GPUs are free: %v", err)
	}
}

func testDoubleClick(e *env) {
	t := e.t
	req := e.req(2, time.Time{}, time.Hour)
	const n = 10
	got := make([]store.Reservation, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { got[i], errs[i] = e.s.Reserve(e.ctx, req) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || got[i].ID != got[0].ID {
			t.Errorf("click %d: %s, %v; want %s", i, got[i].ID, errs[i], got[0].ID)
		}
	}
	if l := e.list("h"); len(l) != 1 {
		t.Errorf("%d reservations after %d clicks with one request id", len(l), n)
	}
}

func testRelease(e *env) {
	t := e.t
	r := e.mustReserve(e.req(2, time.Time{}, 2*time.Hour))
	e.clock.Advance(30 * time.Minute)

	if _, err := e.s.Release(e.ctx, store.ReleaseRequest{RequestID: e.rid(), ID: r.ID, Actor: "U2"}); !errors.Is(err, store.ErrNotOwner) {
		t.Errorf("release by another user: %v, want ErrNotOwner", err)
	}
	if got, _ := e.s.Get(e.ctx, r.ID); !got.End.Equal(r.End) || got.ReleasedBy != "" {
		t.Errorf("a refused release changed the reservation: %+v", got)
	}
	rel, err := e.s.Release(e.ctx, store.ReleaseRequest{RequestID: e.rid(), ID: r.ID, Actor: "U1"})
	if err != nil {
		t.Fatal(err)
	}
	if !rel.End.Equal(e.now()) || rel.ReleasedBy != "U1" || rel.State(e.now()) != store.Released {
		t.Errorf("released = %+v (state %s), want end now, released by U1", rel, rel.State(e.now()))
	}
	if got, err := e.s.Get(e.ctx, r.ID); err != nil || !got.End.Equal(e.now()) || got.ReleasedBy != "U1" {
		t.Errorf("Get after release = %+v, %v", got, err)
	}
	if l := e.list("h"); len(l) != 0 {
		t.Errorf("List after release = %v, want empty", ids(l))
	}
	// The GPUs are free again at once.
	again := e.mustReserve(e.req(4, time.Time{}, time.Hour))
	if _, err := e.s.Release(e.ctx, store.ReleaseRequest{RequestID: e.rid(), ID: r.ID, Actor: "U1"}); !errors.Is(err, store.ErrEnded) {
		t.Errorf("releasing twice: %v, want ErrEnded", err)
	}
	// An admin may force.
	forced, err := e.s.Release(e.ctx, store.ReleaseRequest{RequestID: e.rid(), ID: again.ID, Actor: "UADMIN", Force: true})
	if err != nil || forced.ReleasedBy != "UADMIN" || forced.Owner != "U1" {
		t.Errorf("forced release = %+v, %v", forced, err)
	}
	if _, err := e.s.Release(e.ctx, store.ReleaseRequest{RequestID: e.rid(), ID: "h-999", Actor: "U1"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("release h-999: %v, want ErrNotFound", err)
	}
	if _, err := e.s.Release(e.ctx, store.ReleaseRequest{RequestID: e.rid(), ID: "garbage", Actor: "U1"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("release garbage: %v, want ErrNotFound", err)
	}
	// Expired by time is ended too.
	r3 := e.mustReserve(e.req(1, time.Time{}, time.Hour))
	e.clock.Advance(time.Hour)
	if _, err := e.s.Release(e.ctx, store.ReleaseRequest{RequestID: e.rid(), ID: r3.ID, Actor: "U1"}); !errors.Is(err, store.ErrEnded) {
		t.Errorf("release after its end: %v, want ErrEnded", err)
	}
}

func testReleasePending(e *env) {
	t := e.t
	r := e.mustReserve(e.req(2, e.now().Add(time.Hour), time.Hour))
	if r.State(e.now()) != store.Pending {
		t.Fatalf("state = %s, want pending", r.State(e.now()))
	}
	rel, err := e.s.Release(e.ctx, store.ReleaseRequest{RequestID: e.rid(), ID: r.ID, Actor: "U1"})
	if err != nil || rel.ID != r.ID || rel.ReleasedBy != "U1" {
		t.Fatalf("release pending = %+v, %v", rel, err)
	}
	if _, err := e.s.Get(e.ctx, r.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Get of a cancelled pending reservation: %v, want ErrNotFound (it is removed)", err)
	}
	if l := e.list("h"); len(l) != 0 {
		t.Errorf("List = %v", ids(l))
	}
	ev := e.audit("h")
	if len(ev) != 2 || ev[1].Action != "release" || ev[1].ID != r.ID {
		t.Errorf("audit = %+v, want reserve then release", ev)
	}
}

func testExtend(e *env) {
	t := e.t
	now := e.now()
	r := e.mustReserve(e.req(2, time.Time{}, time.Hour))             // [0 1] 0..1h
	next := e.mustReserve(e.req(1, now.Add(3*time.Hour), time.Hour)) // [0] 3h..4h
	oreq := e.req(0, now.Add(time.Hour), 5*time.Hour)
	oreq.GPUs = []int{2, 3}
	other := e.mustReserve(oreq) // [2 3] 1h..6h
	x, err := e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: r.ID, Actor: "U1", By: time.Hour})
	if err != nil || !x.End.Equal(now.Add(2*time.Hour)) || !slices.Equal(x.GPUs, r.GPUs) {
		t.Fatalf("extend by 1h = %+v, %v", x, err)
	}
	// Up to next's start is fine (ends are exclusive); one minute more is not.
	if _, err := e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: r.ID, Actor: "U1", By: time.Hour}); err != nil {
		t.Fatalf("extend to touch the next reservation: %v", err)
	}
	_, err = e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: r.ID, Actor: "U1", By: time.Minute})
	ce := conflict(t, err)
	if !slices.Equal(ids(ce.Holders), []string{next.ID}) {
		t.Errorf("extend conflict holders = %v, want [%s] (not %s, on other GPUs)", ids(ce.Holders), next.ID, other.ID)
	}
	if got, _ := e.s.Get(e.ctx, r.ID); !got.End.Equal(now.Add(3 * time.Hour)) {
		t.Errorf("a refused extend changed the end to %v", got.End)
	}
	if _, err := e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: r.ID, Actor: "U2", By: time.Minute}); !errors.Is(err, store.ErrNotOwner) {
		t.Errorf("extend by another user: %v, want ErrNotOwner", err)
	}
	if _, err := e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: other.ID, Actor: "UADMIN", Force: true, By: time.Hour}); err != nil {
		t.Errorf("forced extend: %v", err)
	}
	// MaxDuration caps the whole window, not the increment.
	_, err = e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: other.ID, Actor: "U1", By: time.Hour, MaxDuration: 6 * time.Hour})
	if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "7h") || !strings.Contains(err.Error(), "6h") {
		t.Errorf("extend past MaxDuration: %v, want ErrInvalid naming 7h and 6h", err)
	}
	if _, err := e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: r.ID, Actor: "U1", By: 0}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("extend by 0: %v, want ErrInvalid", err)
	}
	if _, err := e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: "h-999", Actor: "U1", By: time.Hour}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("extend h-999: %v, want ErrNotFound", err)
	}
	e.clock.Advance(3 * time.Hour)
	if _, err := e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: r.ID, Actor: "U1", By: time.Minute}); !errors.Is(err, store.ErrEnded) {
		t.Errorf("extend after the end: %v, want ErrEnded", err)
	}
	// So may one that started late.
	if x, err := e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: next.ID, Actor: "U1", By: time.Hour}); err != nil || !x.End.Equal(now.Add(5*time.Hour)) {
		t.Errorf("extend pending = %v, %v", x.End, err)
	}
}

// testShorten: a negative By moves the end earlier, never to or before
// the start or now, and gives the time back to the others.
func testShorten(e *env) {
	t := e.t
	now := e.now()
	r := e.mustReserve(e.req(2, time.Time{}, 4*time.Hour)) // 0..4h
	x, err := e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: r.ID, Actor: "U1", By: -time.Hour, MaxDuration: time.Hour})
	if err != nil || !x.End.Equal(now.Add(3*time.Hour)) {
		t.Fatalf("shorten by 1h (past a cap it already exceeds) = %v, %v", x.End, err)
	}
	req := e.req(0, now.Add(3*time.Hour), time.Hour)
	req.GPUs = r.GPUs
	e.mustReserve(req) // the hour given back is free
	if _, err := e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: r.ID, Actor: "U2", By: -time.Minute}); !errors.Is(err, store.ErrNotOwner) {
		t.Errorf("shorten by another user: %v, want ErrNotOwner", err)
	}
	e.clock.Advance(time.Hour)
	_, err = e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: r.ID, Actor: "U1", By: -2 * time.Hour})
	if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "release") {
		t.Errorf("shorten to now: %v, want ErrInvalid saying to release", err)
	}
	if got, _ := e.s.Get(e.ctx, r.ID); !got.End.Equal(now.Add(3 * time.Hour)) {
		t.Errorf("a refused shorten changed the end to %v", got.End)
	}
	p := e.mustReserve(e.req(1, now.Add(5*time.Hour), 2*time.Hour)) // 5h..7h, pending
	if _, err := e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: p.ID, Actor: "U1", By: -2 * time.Hour}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("shorten a pending one to its start: %v, want ErrInvalid", err)
	}
	if x, err := e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: p.ID, Actor: "U1", By: -90 * time.Minute}); err != nil || !x.End.Equal(now.Add(5*time.Hour+30*time.Minute)) {
		t.Errorf("shorten a pending one = %v, %v", x.End, err)
	}
}

func testStateWithTime(e *env) {
	t := e.t
	r := e.mustReserve(e.req(1, e.now().Add(time.Hour), time.Hour))
	steps := []struct {
		advance time.Duration
		want    store.State
		listed  bool
	}{
		{0, store.Pending, true},
		{59 * time.Minute, store.Pending, true},
		{time.Minute, store.Active, true},
		{59 * time.Minute, store.Active, true},
		{time.Minute, store.Expired, false},
	}
	for _, s := range steps {
		e.clock.Advance(s.advance)
		got, err := e.s.Get(e.ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st := got.State(e.now()); st != s.want {
			t.Errorf("at +%v: state %s, want %s", e.now().Sub(Base), st, s.want)
		}
		if l := e.list("h"); (len(l) == 1) != s.listed {
			t.Errorf("at +%v: List = %v, listed want %v", e.now().Sub(Base), ids(l), s.listed)
		}
	}
	// Its GPUs are free once it expired, without anyone releasing it.
	req := e.req(0, time.Time{}, time.Hour)
	req.GPUs = r.GPUs
	e.mustReserve(req)
}

func testList(e *env) {
	t := e.t
	now := e.now()
	c := e.mustReserve(e.req(1, now.Add(3*time.Hour), time.Hour))
	a := e.mustReserve(e.req(1, time.Time{}, time.Hour))
	b := e.mustReserve(e.req(1, now.Add(time.Hour), time.Hour))
	b2 := e.mustReserve(e.req(1, now.Add(time.Hour), 2*time.Hour))
	gone := e.mustReserve(e.req(1, time.Time{}, 30*time.Minute))
	rel := e.mustReserve(e.req(1, now.Add(4*time.Hour), time.Hour))
	req := e.req(1, time.Time{}, time.Hour)
	req.Server = "a"
	e.mustReserve(req)
	if _, err := e.s.Release(e.ctx, store.ReleaseRequest{RequestID: e.rid(), ID: rel.ID, Actor: "U1"}); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(30 * time.Minute) // gone has expired
	want := []string{a.ID, b.ID, b2.ID, c.ID}
	if got := ids(e.list("h")); !slices.Equal(got, want) {
		t.Errorf("List = %v, want %v (earliest start first, same start by creation; %s expired, %s released)", got, want, gone.ID, rel.ID)
	}
	if l := e.list("empty"); len(l) != 0 {
		t.Errorf("List of a server never used = %v", ids(l))
	}
	if _, err := e.s.List(e.ctx, "Bad Name"); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("List(Bad Name): %v, want ErrInvalid", err)
	}
}
