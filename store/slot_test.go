package store

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestEarliestSlot(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	h := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Hour) }
	resv := []Reservation{
		{Server: "s", GPUs: []int{0, 1}, Start: h(0), End: h(4)},
		{Server: "s", GPUs: []int{2}, Start: h(1), End: h(2)},
		{Server: "s", GPUs: []int{0, 1, 2, 3}, Start: h(6), End: h(8)},
	}
	for _, tc := range []struct {
		count int
		dur   time.Duration
		want  time.Time
		gpus  int
		ok    bool
	}{
		{1, time.Hour, h(0), 1, true},         // GPU 2... no: 2 busy 1-2 but free now for 1h; lowest free is 2
		{2, 2 * time.Hour, h(2), 2, true},     // 2,3 free from 2h (GPU 2 frees at 2h)
		{4, 2 * time.Hour, h(4), 4, true},     // all four free 4h-6h
		{4, 3 * time.Hour, h(8), 4, true},     // the 6-8h booking pushes it past 8h
		{5, time.Hour, time.Time{}, 0, false}, // never fits
	} {
		got, gpus, ok := EarliestSlot(resv, 4, tc.count, h(0), tc.dur)
		if ok != tc.ok || !got.Equal(tc.want) || len(gpus) != tc.gpus {
			t.Errorf("%d GPUs for %v: %v %v %v, want %v", tc.count, tc.dur, got, gpus, ok, tc.want)
		}
	}
}

// EarliestSlot and Reserve's conflict answer follow one rule: on random
// bookings the slot EarliestSlot finds is the one Reserve offers.
func TestEarliestSlotAgreesWithReserve(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	now := t0
	st, err := OpenEmbedded(t.TempDir()+"/s.db", func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := t.Context()
	rnd := uint64(7)
	next := func(n int) int { rnd = rnd*6364136223846793005 + 1442695040888963407; return int(rnd>>33) % n }
	checked := 0
	for i := range 300 {
		req := ReserveRequest{RequestID: fmt.Sprint("r", i), Server: "s", ServerGPUs: 8, Count: 1 + next(8), Owner: "U",
			Start: now.Add(time.Duration(next(48)) * 30 * time.Minute), Duration: time.Duration(1+next(12)) * 30 * time.Minute}
		_, err := st.Reserve(ctx, req)
		var ce *ConflictError
		if !errors.As(err, &ce) {
			continue
		}
		list, err := st.List(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		got, gpus, ok := EarliestSlot(list, 8, req.Count, req.Start, req.Duration)
		if ok != !ce.Earliest.IsZero() || !got.Equal(ce.Earliest) || fmt.Sprint(gpus) != fmt.Sprint(ce.EarliestGPUs) {
			t.Fatalf("request %+v: EarliestSlot %v %v %v, Reserve offered %v %v", req, got, gpus, ok, ce.Earliest, ce.EarliestGPUs)
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("only %d conflicts exercised", checked)
	}
}
