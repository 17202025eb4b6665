package store

import (
	"slices"
	"time"
)

// EarliestSlot finds where count GPUs of a server with serverGPUs are
// free for dur, at or after from, given the server's reservations (as
// List returns them). It follows Reserve's rule: the free set only grows
// when a reservation ends, so the candidates are from and every later end;
// the lowest free ids are taken. ok is false when the request can never
// fit (count exceeds the server).
func EarliestSlot(resv []Reservation, serverGPUs, count int, from time.Time, dur time.Duration) (start time.Time, gpus []int, ok bool) {
	if count < 1 || count > serverGPUs || dur <= 0 {
		return time.Time{}, nil, false
	}
	cands := []time.Time{from}
	for _, r := range resv {
		if r.End.After(from) {
			cands = append(cands, r.End)
		}
	}
	slices.SortFunc(cands, func(a, b time.Time) int { return a.Compare(b) })
	for _, c := range cands {
		end := c.Add(dur)
		busy := map[int]bool{}
		for _, r := range resv {
			if r.Start.Before(end) && c.Before(r.End) {
				for _, g := range r.GPUs {
					busy[g] = true
				}
			}
		}
		var free []int
		for g := 0; g < serverGPUs && len(free) < count; g++ {
			if !busy[g] {
				free = append(free, g)
			}
		}
		if len(free) == count {
			return c, free, true
		}
	}
	return time.Time{}, nil, false
}
