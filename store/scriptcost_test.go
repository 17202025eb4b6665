package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// examinedHook reads what each conflicting reserve's script answered it
// examined (the index entries its cursors read; scripts.go).
type examinedHook struct {
	mu   sync.Mutex
	last int
}

func (h *examinedHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *examinedHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
func (h *examinedHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		if c, ok := cmd.(*redis.Cmd); ok && (cmd.Name() == "evalsha" || cmd.Name() == "eval") {
			if raw, _ := c.Text(); strings.Contains(raw, `"examined"`) {
				var a struct {
					Examined int `json:"examined"`
				}
				if json.Unmarshal([]byte(raw), &a) == nil {
					h.mu.Lock()
					h.last = a.Examined
					h.mu.Unlock()
				}
			}
		}
		return err
	}
}

func (h *examinedHook) take() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := h.last
	h.last = -1
	return n
}

// Issue 12, item 9, structurally: what a conflicting reserve costs Redis
// grows with the bookings it overlaps (and those it must cross to find the
// earliest free start), not with all the server's bookings. Each server
// below holds 3,000 future bookings (or 300), of which k tile the hour
// asked for on GPU 0; the rest lie a month ahead on all eight GPUs. The
// script's own count of the index entries it read is compared: the same
// with 300 and 3,000 bookings, larger with 40 overlaps than with 10, and
// within a few pages of the overlaps. (The time it takes is measured
// behind -scriptcost: TestReserveScriptCost.)
func TestReserveExaminesTheOverlapsNotAllBookings(t *testing.T) {
	srv := StartRedis(t)
	ctx := context.Background()
	client := srv.Client()
	hook := &examinedHook{last: -1}
	client.AddHook(hook)
	s := NewRedis(client, nil)
	defer s.Close()
	now, err := s.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	day := now.Truncate(time.Minute).Add(time.Hour)
	const gpus = 8
	examined := func(server string, k, total int) int {
		t.Helper()
		book := func(i int, start time.Time, dur time.Duration, g int) {
			if _, err := s.Reserve(ctx, ReserveRequest{RequestID: fmt.Sprint(server, "-b", i), Server: server, ServerGPUs: gpus,
				GPUs: []int{g}, Owner: "U1", Start: start, Duration: dur}); err != nil {
				t.Fatalf("%s booking %d: %v", server, i, err)
			}
		}
		slot := time.Hour / time.Duration(k)
		for i := range k {
			book(i, day.Add(time.Duration(i)*slot), slot, 0)
		}
		far := day.Add(30 * 24 * time.Hour)
		for i := range total - k {
			book(k+i, far.Add(time.Duration(i/gpus)*2*time.Hour), time.Hour, i%gpus)
		}
		_, err := s.Reserve(ctx, ReserveRequest{RequestID: server + "-c", Server: server, ServerGPUs: gpus, GPUs: []int{0},
			Owner: "U2", Start: day, Duration: time.Hour})
		var ce *ConflictError
		if !errors.As(err, &ce) || len(ce.Holders) != k || !ce.Earliest.Equal(day.Add(time.Hour)) {
			t.Fatalf("%s: %v (holders %d, earliest %v), want a conflict with %d holders, free at %v", server, err, len(ce.Holders), ce.Earliest, k, day.Add(time.Hour))
		}
		n := hook.take()
		if n < 0 {
			t.Fatalf("%s: the conflict did not say what it examined", server)
		}
		t.Logf("%s: %d future bookings, %d overlapping: the script read %d index entries", server, total, k, n)
		return n
	}
	few := examined("few", 10, 300)
	many := examined("many", 10, 3000)
	more := examined("more", 40, 3000)
	if many != few {
		t.Errorf("a conflict read %d index entries with 3,000 bookings and %d with 300: it grows with all bookings", many, few)
	}
	if more <= many {
		t.Errorf("40 overlaps read %d entries, 10 read %d: the count should follow the overlaps", more, many)
	}
	// Three cursors meet the overlaps (is GPU 0 busy, who holds it, when
	// is it free), and pages grow 4, 16, 64…, so each reads under 4(k+1)
	// entries to pass k of them.
	for _, c := range []struct{ k, n int }{{10, many}, {40, more}} {
		if limit := 4 + 2*4*(c.k+1); c.n > limit {
			t.Errorf("%d overlaps read %d index entries (want at most %d)", c.k, c.n, limit)
		}
	}
}
