package commands

import (
	"fmt"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/digest"
	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/planner"
	"github.com/gpuplan/gpuplan/store"
)

// fleetWeek builds the digest input of servers × gpus with two weeks of
// 30-second samples (the digest reads this week and the one before),
// folded into hours exactly as the store folds them (each sample weighs
// 30 s), and five reservations per server per day.
func fleetWeek(servers, gpus int, to time.Time) []digest.Input {
	const every = 30
	from := to.Add(-14 * 24 * time.Hour)
	hours := 14 * 24
	var in []digest.Input
	for s := range servers {
		srv := testServer(fmt.Sprintf("srv-%03d", s), gpus)
		d := digest.Input{Server: srv, UnixToSlack: map[string]string{"alice": "U0ALICE", "bob": "U0BOB"}}
		for h := range hours {
			hour := from.Add(time.Duration(h) * time.Hour)
			for g := range gpus {
				u := store.HourUsage{Hour: hour, GPU: g, Users: map[string]float64{}}
				for i := range 3600 / every {
					// a deterministic daily pattern with per-GPU phase
					util := (h*7 + g*13 + i + s) % 100
					if (h+g+s)%24 < 8 {
						util = 0
					}
					u.Observed += every
					u.UtilSecs += float64(util * every)
					u.MemSecs += float64(40000 * every)
					if util >= store.BusyUtil {
						u.Busy += every
						if g%2 == 0 {
							u.Users["alice"] += every
						} else {
							u.Users["bob"] += every
						}
					}
				}
				d.Usage = append(d.Usage, u)
			}
		}
		for day := range 14 {
			for k := range 5 {
				start := from.Add(time.Duration(day*24+k*4) * time.Hour)
				d.History = append(d.History, store.Reservation{ID: fmt.Sprintf("%s-%d", srv.Name, day*5+k), Server: srv.Name,
					GPUs: []int{k % gpus, (k + 1) % gpus}, Owner: fmt.Sprintf("U%04d", k), Start: start, End: start.Add(3 * time.Hour)})
			}
		}
		in = append(in, d)
	}
	return in
}

// BenchmarkDigestFleet: a weekly digest of 100 servers × 8 GPUs from a
// week of 30-second samples (and the week before), text and chart.
func BenchmarkDigestFleet(b *testing.B) {
	to := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	in := fleetWeek(100, 8, to)
	set := New(Deps{})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rep := digest.Build("week", to, in, time.UTC)
		r := set.DigestReply(rep)
		if len(r.Files) != 1 {
			b.Fatal("no chart")
		}
	}
}

// testServer is a server of n H100s with ids 0…n-1.
func testServer(name string, n int) inventory.Server {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	g, _, _ := planner.DefaultCatalog().GPU("h100")
	return inventory.Server{Name: name, GPU: g, GPUIDs: ids}
}
