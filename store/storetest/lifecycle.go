package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gpuplan/gpuplan/store"
)

// The contract's later parts: reminders, waiting lists, the audit trail,
// validation, notes kept verbatim, the store clock and concurrency.

func testCleanup(e *env) {
	t := e.t
	r := e.mustReserve(e.req(1, time.Time{}, time.Hour))
	// Sweeps run every SweepEvery-th reservation on a server.
	burst := func() {
		for k := range store.SweepEvery {
			e.mustReserve(e.req(1, e.now().Add(time.Duration(k)*time.Minute), time.Minute))
		}
	}
	e.clock.Advance(time.Hour + store.CleanupAfter - time.Minute)
	burst()
	if _, err := e.s.Get(e.ctx, r.ID); err != nil {
		t.Errorf("an ended reservation is readable for %v: %v", store.CleanupAfter, err)
	}
	e.clock.Advance(time.Hour)
	burst()
	if _, err := e.s.Get(e.ctx, r.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("ended %v ago and still stored after %d more reservations: %v", store.CleanupAfter+59*time.Minute, store.SweepEvery, err)
	}
}

func testAnnouncement(e *env) {
	t := e.t
	r := e.mustReserve(e.req(1, time.Time{}, time.Hour))
	if err := e.s.SetAnnouncement(e.ctx, r.ID, "C123", "1700000000.000100"); err != nil {
		t.Fatal(err)
	}
	got, err := e.s.Get(e.ctx, r.ID)
	if err != nil || got.Channel != "C123" || got.MessageTS != "1700000000.000100" {
		t.Errorf("Get = %+v, %v", got, err)
	}
	if l := e.list("h"); len(l) != 1 || l[0].Channel != "C123" {
		t.Errorf("List = %+v", l)
	}
	if err := e.s.SetAnnouncement(e.ctx, "h-999", "C", "1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetAnnouncement(h-999): %v, want ErrNotFound", err)
	}
}

func testRemind(e *env) {
	t := e.t
	r := e.mustReserve(e.req(1, time.Time{}, time.Hour))
	first, err := e.s.MarkReminded(e.ctx, r.ID)
	if err != nil || !first {
		t.Fatalf("first MarkReminded = %v, %v; want true", first, err)
	}
	second, err := e.s.MarkReminded(e.ctx, r.ID)
	if err != nil || second {
		t.Errorf("second MarkReminded = %v, %v; want false", second, err)
	}
	if got, _ := e.s.Get(e.ctx, r.ID); !got.Reminded {
		t.Errorf("Get after MarkReminded: Reminded false")
	}
	if _, err := e.s.MarkReminded(e.ctx, "h-999"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("MarkReminded(h-999): %v", err)
	}
	// Concurrent replicas: exactly one is told to send.
	r2 := e.mustReserve(e.req(1, time.Time{}, time.Hour))
	var wg sync.WaitGroup
	var mu sync.Mutex
	winners := 0
	for range 8 {
		wg.Go(func() {
			ok, err := e.s.MarkReminded(e.ctx, r2.ID)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				winners++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if winners != 1 {
		t.Errorf("%d replicas were told to send the reminder, want 1", winners)
	}
	if ev := e.audit("h"); len(ev) != 4 || ev[1].Action != "remind" || ev[3].Action != "remind" {
		t.Errorf("audit = %+v, want reserve, remind, reserve, remind", ev)
	}
}

func testWaiters(e *env) {
	t := e.t
	now := e.now()
	w1, err := e.s.Wait(e.ctx, store.WaitRequest{RequestID: e.rid(), Server: "h", Count: 2, Owner: "U1", For: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(w1.ID, "h-") || w1.Count != 2 || w1.Owner != "U1" || !w1.Since.Equal(now) || !w1.Expires.Equal(now.Add(time.Hour)) {
		t.Errorf("waiter = %+v", w1)
	}
	e.clock.Advance(time.Minute)
	wreq := store.WaitRequest{RequestID: e.rid(), Server: "h", Count: 1, Owner: "U2", For: 3 * time.Hour}
	w2, err := e.s.Wait(e.ctx, wreq)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := e.s.Wait(e.ctx, wreq); err != nil || again.ID != w2.ID {
		t.Errorf("retried Wait = %+v, %v; want %s once", again, err, w2.ID)
	}
	got, err := e.s.Waiters(e.ctx, "h")
	if err != nil || len(got) != 2 || got[0].ID != w1.ID || got[1].ID != w2.ID {
		t.Errorf("Waiters = %+v, %v; want [%s %s] oldest first", got, err, w1.ID, w2.ID)
	}
	if other, _ := e.s.Waiters(e.ctx, "a"); len(other) != 0 {
		t.Errorf("Waiters(a) = %+v", other)
	}
	e.clock.Advance(time.Hour) // w1 expired
	got, _ = e.s.Waiters(e.ctx, "h")
	if len(got) != 1 || got[0].ID != w2.ID {
		t.Errorf("Waiters after w1 expired = %+v", got)
	}
	if removed, err := e.s.RemoveWaiter(e.ctx, "h", w2.ID); err != nil || !removed {
		t.Fatalf("RemoveWaiter = %v, %v; want true", removed, err)
	}
	// A second removal (a retry, or another replica) is not an error but
	// reports that it removed nothing: that is the claim a replica tests
	// before it tells the waiter.
	if removed, err := e.s.RemoveWaiter(e.ctx, "h", w2.ID); err != nil || removed {
		t.Errorf("removing twice: %v, %v; want false, nil", removed, err)
	}
	if got, _ = e.s.Waiters(e.ctx, "h"); len(got) != 0 {
		t.Errorf("Waiters after remove = %+v", got)
	}
	for _, bad := range []store.WaitRequest{
		{Server: "h", Count: 0, Owner: "U1", For: time.Hour},
		{Server: "h", Count: 1, Owner: "", For: time.Hour},
		{Server: "h", Count: 1, Owner: "U1", For: 0},
		{Server: "H!", Count: 1, Owner: "U1", For: time.Hour},
	} {
		if _, err := e.s.Wait(e.ctx, bad); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("Wait(%+v): %v, want ErrInvalid", bad, err)
		}
	}
	var actions []string
	for _, ev := range e.audit("h") {
		actions = append(actions, ev.Action+" "+ev.Actor)
	}
	if want := []string{"wait U1", "wait U2", "unwait U2"}; !slices.Equal(actions, want) {
		t.Errorf("audit = %q, want %q", actions, want)
	}
}

func testAudit(e *env) {
	t := e.t
	r := e.mustReserve(e.req(2, time.Time{}, time.Hour))
	e.clock.Advance(time.Minute)
	if _, err := e.s.Extend(e.ctx, store.ExtendRequest{RequestID: e.rid(), ID: r.ID, Actor: "U1", By: time.Hour}); err != nil {
		t.Fatal(err)
	}
	if err := e.s.SetAnnouncement(e.ctx, r.ID, "C1", "123.456"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.MarkReminded(e.ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(time.Minute)
	if _, err := e.s.Release(e.ctx, store.ReleaseRequest{RequestID: e.rid(), ID: r.ID, Actor: "UADMIN", Force: true}); err != nil {
		t.Fatal(err)
	}
	w, err := e.s.Wait(e.ctx, store.WaitRequest{RequestID: e.rid(), Server: "h", Count: 1, Owner: "U3", For: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.RemoveWaiter(e.ctx, "h", w.ID); err != nil {
		t.Fatal(err)
	}
	// Failures are not changes.
	e.s.Release(e.ctx, store.ReleaseRequest{RequestID: e.rid(), ID: r.ID, Actor: "U1"})
	e.s.Reserve(e.ctx, e.req(0, time.Time{}, time.Hour))

	type row struct{ action, id, actor string }
	want := []row{
		{"reserve", r.ID, "U1"}, {"extend", r.ID, "U1"}, {"announce", r.ID, ""}, {"remind", r.ID, ""},
		{"release", r.ID, "UADMIN"}, {"wait", w.ID, "U3"}, {"unwait", w.ID, "U3"},
	}
	got := e.audit("h")
	if len(got) != len(want) {
		t.Fatalf("audit has %d events, want %d: %+v", len(got), len(want), got)
	}
	for i, ev := range got {
		if (row{ev.Action, ev.ID, ev.Actor}) != want[i] || ev.Server != "h" {
			t.Errorf("event %d = %+v, want %+v", i, ev, want[i])
		}
	}
	if !got[0].At.Equal(Base) || !got[4].At.Equal(Base.Add(2*time.Minute)) {
		t.Errorf("event times %v, %v; want the store's clock", got[0].At, got[4].At)
	}
	if !strings.Contains(got[0].Detail, "gpus 0,1") || !strings.Contains(got[4].Detail, "forced") {
		t.Errorf("details %q, %q", got[0].Detail, got[4].Detail)
	}
	last, err := e.s.Audit(e.ctx, "h", 2)
	if err != nil || len(last) != 2 || last[0].Action != "wait" || last[1].Action != "unwait" {
		t.Errorf("Audit(h, 2) = %+v, %v; want the last two, newest last", last, err)
	}
	if other := e.audit("a"); len(other) != 0 {
		t.Errorf("audit of another server = %+v", other)
	}
}

func testValidation(e *env) {
	now := e.now()
	ok := func() store.ReserveRequest { return e.req(1, time.Time{}, time.Hour) }
	with := func(f func(*store.ReserveRequest)) store.ReserveRequest { r := ok(); f(&r); return r }
	cases := []struct {
		name string
		req  store.ReserveRequest
		want string // in the reason
	}{
		{"zero duration", with(func(r *store.ReserveRequest) { r.Duration = 0 }), "duration"},
		{"negative duration", with(func(r *store.ReserveRequest) { r.Duration = -time.Hour }), "duration"},
		{"over max duration", with(func(r *store.ReserveRequest) { r.Duration, r.MaxDuration = 25*time.Hour, 24*time.Hour }), "24h"},
		{"over the absolute cap", with(func(r *store.ReserveRequest) { r.Duration = 400 * 24 * time.Hour }), "limit"},
		{"start in the past", with(func(r *store.ReserveRequest) { r.Start = now.Add(-2 * time.Minute) }), "in the past"},
		{"start beyond the horizon", with(func(r *store.ReserveRequest) { r.Start = now.Add(store.Horizon + time.Hour) }), "ahead"},
		{"id out of range", with(func(r *store.ReserveRequest) { r.Count, r.GPUs = 0, []int{4} }), "GPU 4"},
		{"negative id", with(func(r *store.ReserveRequest) { r.Count, r.GPUs = 0, []int{-1} }), "GPU -1"},
		{"duplicate id", with(func(r *store.ReserveRequest) { r.Count, r.GPUs = 0, []int{1, 1} }), "twice"},
		{"count and ids disagree", with(func(r *store.ReserveRequest) { r.Count, r.GPUs = 3, []int{1} }), "count"},
		{"count zero", with(func(r *store.ReserveRequest) { r.Count = 0 }), "at least one"},
		{"more than the server has", with(func(r *store.ReserveRequest) { r.Count = 5 }), "4 GPUs"},
		{"no inventory", with(func(r *store.ReserveRequest) { r.ServerGPUs = 0 }), "GPUs"},
		{"bad server name", with(func(r *store.ReserveRequest) { r.Server = "H/100" }), "server name"},
		{"server name too long", with(func(r *store.ReserveRequest) { r.Server = strings.Repeat("a", 64) }), "server name"},
		{"no owner", with(func(r *store.ReserveRequest) { r.Owner = " " }), "owner"},
		{"note too long", with(func(r *store.ReserveRequest) { r.Note = strings.Repeat("x", store.MaxNoteLen+1) }), "note"},
		{"note not UTF-8", with(func(r *store.ReserveRequest) { r.Note = "\xff" }), "UTF-8"},
	}
	for _, c := range cases {
		_, err := e.s.Reserve(e.ctx, c.req)
		var ie *store.InvalidError
		if !errors.Is(err, store.ErrInvalid) || !errors.As(err, &ie) {
			e.t.Errorf("%s: %v, want ErrInvalid", c.name, err)
			continue
		}
		if !strings.Contains(ie.Reason, c.want) {
			e.t.Errorf("%s: reason %q does not mention %q", c.name, ie.Reason, c.want)
		}
	}
	if l := e.list("h"); len(l) != 0 {
		e.t.Errorf("invalid requests wrote %v", ids(l))
	}
	if a := e.audit("h"); len(a) != 0 {
		e.t.Errorf("invalid requests were audited: %+v", a)
	}
	// Within the grace minute a past start is kept as asked.
	r := e.mustReserve(with(func(r *store.ReserveRequest) { r.Start = now.Add(-30 * time.Second) }))
	if !r.Start.Equal(now.Add(-30 * time.Second)) {
		e.t.Errorf("start 30s ago stored as %v", r.Start)
	}
	// Exactly at the cap is fine.
	e.mustReserve(with(func(r *store.ReserveRequest) { r.Duration, r.MaxDuration = 24*time.Hour, 24*time.Hour }))
}

func testNotesVerbatim(e *env) {
	note := "<!channel> ping <@U0ADMIN> <https://evil.example|wiki> &lt; *bold* `x` \"q\" \\ / é 日本 \u202e\t"
	req := e.req(1, time.Time{}, time.Hour)
	req.Note = note
	r := e.mustReserve(req)
	got, err := e.s.Get(e.ctx, r.ID)
	if err != nil || got.Note != note || r.Note != note {
		e.t.Errorf("note stored as %q / returned %q (%v), want %q verbatim", got.Note, r.Note, err, note)
	}
	_, err = e.s.Reserve(e.ctx, e.req(4, time.Time{}, time.Hour))
	if ce := conflict(e.t, err); ce.Holders[0].Note != note {
		e.t.Errorf("holder's note = %q", ce.Holders[0].Note)
	}
}

func testNow(e *env) {
	got, err := e.s.Now(e.ctx)
	if err != nil || !got.Equal(Base) {
		e.t.Errorf("Now = %v, %v; want %v", got, err, Base)
	}
	e.clock.Advance(90 * time.Minute)
	if got, _ := e.s.Now(e.ctx); !got.Equal(Base.Add(90 * time.Minute)) {
		e.t.Errorf("Now after 90m = %v", got)
	}
}

func testConcurrency(e *env) {
	t := e.t
	const n = 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	var won []store.Reservation
	conflicts := 0
	for i := range n {
		wg.Go(func() {
			req := store.ReserveRequest{RequestID: fmt.Sprintf("race-%d", i), Server: "h", ServerGPUs: 4,
				GPUs: []int{1, 2}, Owner: fmt.Sprintf("U%d", i), Start: e.now().Add(time.Duration(i) * time.Minute), Duration: 2 * time.Hour}
			r, err := e.s.Reserve(e.ctx, req)
			mu.Lock()
			defer mu.Unlock()
			var ce *store.ConflictError
			switch {
			case err == nil:
				won = append(won, r)
			case errors.As(err, &ce):
				conflicts++
			default:
				t.Errorf("goroutine %d: %v, want success or a conflict", i, err)
			}
		})
	}
	wg.Wait()
	if len(won) != 1 || conflicts != n-1 {
		t.Fatalf("%d won and %d conflicted, want 1 and %d", len(won), conflicts, n-1)
	}
	l := e.list("h")
	if len(l) != 1 || l[0].ID != won[0].ID {
		t.Errorf("List = %v, want only the winner %s", ids(l), won[0].ID)
	}
	if err := CheckNoOverlap(l); err != nil {
		t.Error(err)
	}
}

// CheckNoOverlap returns an error naming the first two reservations that
// hold a GPU at the same moment.
func CheckNoOverlap(rs []store.Reservation) error {
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			if rs[i].Overlaps(rs[j]) {
				return fmt.Errorf("%s %v %v–%v and %s %v %v–%v overlap", rs[i].ID, rs[i].GPUs, rs[i].Start, rs[i].End,
					rs[j].ID, rs[j].GPUs, rs[j].Start, rs[j].End)
			}
		}
	}
	return nil
}
