package commands

import (
	"context"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/store"
	"github.com/gpuplan/gpuplan/store/storetest"
)

// sample records one agent batch for server-h at the clock's now: the
// given GPUs busy (util 90, a process of alice), the rest idle.
func sample(t *testing.T, s *Set, clock *storetest.Clock, busy ...int) {
	t.Helper()
	b := store.SampleBatch{Server: "server-h", At: clock.Now(), Every: 30 * time.Second}
	for g := range 4 {
		gs := store.GPUSample{Index: g, Util: 0, MemUsedMB: 0, MemTotalMB: 141000}
		for _, x := range busy {
			if x == g {
				gs.Util, gs.Users = 90, []string{"alice"}
			}
		}
		b.GPUs = append(b.GPUs, gs)
	}
	if err := s.deps.Watch.RecordSamples(context.Background(), b); err != nil {
		t.Fatal(err)
	}
}

func nudgesIn(t *testing.T, s *Set) []Notice {
	t.Helper()
	ns, err := s.Sweep(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []Notice
	for _, n := range ns {
		if n.Kind == "nudge" {
			out = append(out, n)
		}
	}
	return out
}

// Idle reserved GPUs get their holder one nudge per period; busy ones,
// unreserved ones and servers whose agent went quiet get none; Keep
// skips the next period.
func TestIdleNudges(t *testing.T) {
	s, clock := newReservations(t)
	s.deps.Inventory.ReminderBefore = 0
	rv := mustDo(t, s, "U0001", "reserve 2 on server-h for 8h").Data.(store.Reservation)
	// Agent every 5 minutes: GPU 0 busy for the first 20 minutes, then
	// everything idle.
	step := func(n int, busy ...int) {
		for range n {
			clock.Advance(5 * time.Minute)
			sample(t, s, clock, busy...)
		}
	}
	sample(t, s, clock, 0)
	step(4, 0) // busy until +20m
	step(11)   // idle from +20m to +75m: 55 minutes
	if n := nudgesIn(t, s); len(n) != 0 {
		t.Fatalf("nudged after 55 idle minutes: %+v", n[0].Reply.Summary)
	}
	step(1) // 60 minutes idle
	n := nudgesIn(t, s)
	if len(n) != 1 || n[0].User != "U0001" || n[0].Reply.Actions[0].Command != "release "+rv.ID || n[0].Reply.Actions[1].Command != "keep "+rv.ID {
		t.Fatalf("want one nudge to the owner with Release and Keep, got %+v", n)
	}
	step(1)
	if n := nudgesIn(t, s); len(n) != 0 {
		t.Fatal("a second nudge in the same period")
	}
	// The next period, still idle: one more.
	step(12)
	if n := nudgesIn(t, s); len(n) != 1 {
		t.Fatalf("next period: %d nudges, want 1", len(n))
	}
	// Keep: the period after passes in silence; the one after that nudges.
	mustDo(t, s, "U0001", "keep "+rv.ID)
	if _, err := do(t, s, "U0002", "keep "+rv.ID); err == nil {
		t.Error("someone else kept the reservation")
	}
	step(12)
	if n := nudgesIn(t, s); len(n) != 0 {
		t.Fatal("nudged in the period Keep skipped")
	}
	step(12)
	if n := nudgesIn(t, s); len(n) != 1 {
		t.Fatalf("after the kept period: %d nudges, want 1", len(n))
	}
	// Busy again: no nudge.
	step(14, 1)
	if n := nudgesIn(t, s); len(n) != 0 {
		t.Fatal("nudged while a GPU is busy")
	}
	// The agent goes quiet: idle or not, nothing is said.
	step(14)
	clock.Advance(10 * time.Minute)
	step(0)
	if n := nudgesIn(t, s); len(n) != 0 {
		t.Fatal("nudged on stale agent data")
	}
}

// Two replicas sweeping at once: one nudge.
func TestIdleNudgeOncePerReplicaSet(t *testing.T) {
	s, clock := newReservations(t)
	s.deps.Inventory.ReminderBefore = 0
	mustDo(t, s, "U0001", "reserve 1 on server-h for 8h")
	other := New(s.deps)
	sample(t, s, clock)
	for range 13 {
		clock.Advance(5 * time.Minute)
		sample(t, s, clock)
	}
	if a, b := nudgesIn(t, s), nudgesIn(t, other); len(a)+len(b) != 1 {
		t.Fatalf("%d + %d nudges from two replicas, want 1", len(a), len(b))
	}
}
