package store_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gpuplan/gpuplan/store"
	"github.com/gpuplan/gpuplan/store/storetest"
)

// The lease renewal (what `gpuplan exec`'s heartbeat calls), the same
// cases on both backends.
func TestRenewEmbedded(t *testing.T) { runRenew(t, openEmbedded) }

func TestRenewRedis(t *testing.T) {
	srv := store.StartRedis(t)
	runRenew(t, func(t *testing.T, clock func() time.Time) store.Store {
		srv.Flush()
		return store.NewRedis(redis.NewClient(srv.Options()), clock)
	})
}

func runRenew(t *testing.T, open storetest.Opener) {
	base := storetest.Base
	ctx := context.Background()
	setup := func(t *testing.T) (store.Store, store.Leaser, *storetest.Clock) {
		clock := storetest.NewClock(base)
		s := open(t, clock.Now)
		t.Cleanup(func() { s.Close() })
		l, ok := s.(store.Leaser)
		if !ok {
			t.Fatalf("%T does not renew leases", s)
		}
		return s, l, clock
	}
	reserve := func(t *testing.T, s store.Store, rid string, gpus []int, start time.Time, d time.Duration) store.Reservation {
		t.Helper()
		r, err := s.Reserve(ctx, store.ReserveRequest{RequestID: rid, Server: "h", ServerGPUs: 4, GPUs: gpus,
			Owner: "alice", Start: start, Duration: d, Note: store.ExecNote("sh -c 'sleep 1'")})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	renew := func(l store.Leaser, rid, id, actor string, lease time.Duration, until time.Time) (store.Reservation, error) {
		return l.Renew(ctx, store.RenewRequest{RequestID: rid, ID: id, Actor: actor, Lease: lease, Until: until})
	}

	t.Run("moves the end to now plus the lease, never back", func(t *testing.T) {
		s, l, clock := setup(t)
		r := reserve(t, s, "r1", []int{0, 1}, time.Time{}, 5*time.Minute)
		clock.Advance(2 * time.Minute)
		got, err := renew(l, "n1", r.ID, "alice", 5*time.Minute, time.Time{})
		if err != nil || !got.End.Equal(base.Add(7*time.Minute)) {
			t.Fatalf("renew = %v, %v; want end %v", got.End, err, base.Add(7*time.Minute))
		}
		// A shorter lease does not shorten it.
		got, err = renew(l, "n2", r.ID, "alice", time.Minute, time.Time{})
		if err != nil || !got.End.Equal(base.Add(7*time.Minute)) {
			t.Fatalf("short renew = %v, %v; want the end kept", got.End, err)
		}
		// The store agrees, and the audit has one renew (the no-op wrote nothing).
		if cur, _ := s.Get(ctx, r.ID); !cur.End.Equal(base.Add(7 * time.Minute)) {
			t.Errorf("stored end %v", cur.End)
		}
		n := 0
		ev, _ := s.Audit(ctx, "h", 10)
		for _, e := range ev {
			if e.Action == "renew" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("audit has %d renew events, want 1: %+v", n, ev)
		}
		// A repeated request id answers as before, even later.
		clock.Advance(time.Minute)
		again, err := renew(l, "n1", r.ID, "alice", 5*time.Minute, time.Time{})
		if err != nil || !again.End.Equal(base.Add(7*time.Minute)) {
			t.Errorf("retried renew = %v, %v", again.End, err)
		}
	})

	t.Run("stops at the bound", func(t *testing.T) {
		s, l, clock := setup(t)
		r := reserve(t, s, "r1", []int{0}, time.Time{}, 5*time.Minute)
		clock.Advance(4 * time.Minute)
		got, err := renew(l, "n1", r.ID, "alice", 5*time.Minute, base.Add(6*time.Minute))
		if err != nil || !got.End.Equal(base.Add(6*time.Minute)) {
			t.Fatalf("renew = %v, %v; want the bound", got.End, err)
		}
	})

	t.Run("stops short of the next booking on its GPUs", func(t *testing.T) {
		s, l, clock := setup(t)
		r := reserve(t, s, "r1", []int{0, 1}, time.Time{}, 5*time.Minute)
		// bob books GPU 1 from minute 8; GPU 2 (not ours) from minute 6.
		reserve(t, s, "b1", []int{1}, base.Add(8*time.Minute), time.Hour)
		reserve(t, s, "b2", []int{2}, base.Add(6*time.Minute), time.Hour)
		clock.Advance(3 * time.Minute)
		got, err := renew(l, "n1", r.ID, "alice", 10*time.Minute, time.Time{})
		if err != nil || !got.End.Equal(base.Add(8*time.Minute)) {
			t.Fatalf("renew = %v, %v; want it to stop at bob's start", got.End, err)
		}
		if err := storetest.CheckNoOverlap(mustList(t, s)); err != nil {
			t.Error(err)
		}
	})

	t.Run("a lapsed lease is ended and frees the GPUs", func(t *testing.T) {
		s, l, clock := setup(t)
		r := reserve(t, s, "r1", []int{0, 1}, time.Time{}, 5*time.Minute)
		clock.Advance(5*time.Minute + time.Millisecond)
		if _, err := renew(l, "n1", r.ID, "alice", 5*time.Minute, time.Time{}); !errors.Is(err, store.ErrEnded) {
			t.Fatalf("renew after the lease = %v, want ErrEnded", err)
		}
		if _, err := s.Reserve(ctx, store.ReserveRequest{RequestID: "b", Server: "h", ServerGPUs: 4, Count: 4,
			Owner: "bob", Duration: time.Hour}); err != nil {
			t.Errorf("the lapsed GPUs are not free: %v", err)
		}
	})

	t.Run("owner only, and checks its arguments", func(t *testing.T) {
		s, l, _ := setup(t)
		r := reserve(t, s, "r1", []int{0}, time.Time{}, 5*time.Minute)
		if _, err := renew(l, "n1", r.ID, "bob", time.Minute, time.Time{}); !errors.Is(err, store.ErrNotOwner) {
			t.Errorf("bob renewing = %v, want ErrNotOwner", err)
		}
		if _, err := renew(l, "n2", "h-999", "alice", time.Minute, time.Time{}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("renewing a missing one = %v, want ErrNotFound", err)
		}
		if _, err := renew(l, "n3", r.ID, "alice", 0, time.Time{}); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("a zero lease = %v, want ErrInvalid", err)
		}
		if _, err := renew(l, "n4", r.ID, "", time.Minute, time.Time{}); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("no actor = %v, want ErrInvalid", err)
		}
	})
}

func mustList(t *testing.T, s store.Store) []store.Reservation {
	t.Helper()
	l, err := s.List(context.Background(), "h")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestExecNote(t *testing.T) {
	r := store.Reservation{Note: store.ExecNote("python train.py --lr 3e-4")}
	if cmd, ok := r.ExecCommand(); !ok || cmd != "python train.py --lr 3e-4" {
		t.Errorf("ExecCommand = %q, %v", cmd, ok)
	}
	if _, ok := (store.Reservation{Note: "fine-tuning"}).ExecCommand(); ok {
		t.Error("a plain note reads as an exec booking")
	}
	long := store.ExecNote(strings.Repeat("é", 1000))
	if len(long) > store.MaxNoteLen || !strings.HasSuffix(long, "…") || !strings.HasPrefix(long, store.ExecNotePrefix) {
		t.Errorf("a long command's note is %d bytes: %.40q…", len(long), long)
	}
}

// Fit answers from a List what Reserve would: the same GPUs when it fits,
// the same holders and earliest slot when it does not.
func TestFitAgreesWithReserve(t *testing.T) {
	clock := storetest.NewClock(storetest.Base)
	s := openEmbedded(t, clock.Now)
	defer s.Close()
	ctx := context.Background()
	base := storetest.Base
	for i, b := range []struct {
		gpus       []int
		start, dur time.Duration
	}{{[]int{0, 1}, 0, 2 * time.Hour}, {[]int{2}, time.Hour, 3 * time.Hour}, {[]int{3}, 0, 30 * time.Minute}} {
		if _, err := s.Reserve(ctx, store.ReserveRequest{RequestID: "b" + string(rune('0'+i)), Server: "h", ServerGPUs: 4, GPUs: b.gpus,
			Owner: "bob", Start: base.Add(b.start), Duration: b.dur}); err != nil {
			t.Fatal(err)
		}
	}
	list := mustList(t, s)
	for i, req := range []store.ReserveRequest{
		{Count: 1, Duration: time.Hour},     // fits: GPU 2 is free until bob books it at +1h
		{Count: 2, Duration: time.Hour},     // conflict
		{Count: 2, Duration: 4 * time.Hour}, // conflict, later slot
		{GPUs: []int{0, 3}, Duration: time.Hour},
		{Count: 5, Duration: time.Hour}, // invalid
	} {
		req.Server, req.ServerGPUs, req.Owner = "h", 4, "alice"
		fit, ferr := store.Fit(req, list, clock.Now())
		req.RequestID = "a" + string(rune('0'+i))
		got, rerr := s.Reserve(ctx, req)
		if (ferr == nil) != (rerr == nil) {
			t.Fatalf("case %d: Fit %v, Reserve %v", i, ferr, rerr)
		}
		if rerr == nil {
			if !slices.Equal(fit, got.GPUs) {
				t.Errorf("case %d: Fit chose %v, Reserve %v", i, fit, got.GPUs)
			}
			if _, err := s.Release(ctx, store.ReleaseRequest{RequestID: "rel" + req.RequestID, ID: got.ID, Actor: "alice"}); err != nil {
				t.Fatal(err)
			}
			list = mustList(t, s)
			continue
		}
		var fc, rc *store.ConflictError
		if errors.As(ferr, &fc) != errors.As(rerr, &rc) || !errors.Is(ferr, store.ErrInvalid) && fc == nil {
			t.Fatalf("case %d: Fit %v, Reserve %v", i, ferr, rerr)
		}
		if fc != nil && (!fc.Earliest.Equal(rc.Earliest) || !slices.Equal(fc.EarliestGPUs, rc.EarliestGPUs) || len(fc.Holders) != len(rc.Holders)) {
			t.Errorf("case %d: Fit %+v, Reserve %+v", i, fc, rc)
		}
	}
}
