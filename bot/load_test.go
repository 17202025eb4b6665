package bot

import (
	"flag"
	"fmt"
	"runtime"
	"sort"
	"testing"
	"time"
)

var (
	loadRun     = flag.Bool("load", false, "run the slash-command load measurement")
	loadRate    = flag.Int("load.rate", 400, "slash commands per second")
	loadMaxP99  = flag.Duration("load.maxp99", 50*time.Millisecond, "fail when the ack p99 is above this (0: report only)")
	loadSeconds = flag.Int("load.seconds", 5, "how long to send")
	loadText    = flag.String("load.text", planText, "the command each request carries")
	loadShare   = flag.Float64("load.share", 0, "offer at most this share of the machine's capacity, anchored in the same run on one command at a time (0: offer -load.rate as is)")
)

// TestLoad pushes slash commands through the fake Slack at a fixed rate
// and reports ack latency and throughput. It checks that every command was
// answered and, being a measurement run only with -load, that the ack p99
// stays under -load.maxp99 (Slack's budget is 3 s; ours is 50 ms at 400/s
// on 2 cores). The figures go to docs/performance.md.
//
//	go test ./bot -run TestLoad -load -v
//	go test ./bot -run TestLoad -load -load.rate 400 -load.text help -v
func TestLoad(t *testing.T) {
	if !*loadRun {
		t.Skip("load measurement: run with -load")
	}
	h := start(t)
	rate := *loadRate
	if *loadShare > 0 {
		rate = min(rate, anchoredRate(t, h, *loadShare))
	}
	total := rate * *loadSeconds
	interval := time.Second / time.Duration(rate)
	ids := make([]string, 0, total)
	begin := time.Now()
	next := begin
	for range total {
		if d := time.Until(next); d > 0 {
			time.Sleep(d)
		}
		id, err := h.fake.PushErr(h.fake.SlashCommand(*loadText, "U0001", "C0001"))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
		next = next.Add(interval)
	}
	sent := time.Since(begin)
	var lat []time.Duration
	for _, id := range ids {
		a := h.fake.WaitAck(t, id, 30*time.Second)
		if len(a.Payload) == 0 || string(a.Payload) == "null" {
			t.Errorf("%s acked without an answer", id)
		}
		lat = append(lat, a.Latency)
	}
	done := time.Since(begin)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	t.Logf("%d commands (%q) offered at %d/s over %v; all answered in %v (%.0f/s)",
		total, *loadText, rate, sent.Round(time.Millisecond), done.Round(time.Millisecond), float64(total)/done.Seconds())
	t.Logf("ack latency p50 %v  p90 %v  p99 %v  max %v", pct(0.50), pct(0.90), pct(0.99), lat[len(lat)-1])
	fmt.Printf("LOAD rate=%d n=%d p50=%v p99=%v max=%v throughput=%.0f/s\n", rate, total, pct(0.50), pct(0.99), lat[len(lat)-1], float64(total)/done.Seconds())
	if *loadMaxP99 > 0 && pct(0.99) > *loadMaxP99 {
		t.Errorf("ack p99 %v at %d/s is above %v", pct(0.99), rate, *loadMaxP99)
	}
}

// anchoredRate is the rate that offers share of this machine's capacity
// for the load's command, measured here and now: the median ack of one
// command at a time (each carries its answer) is the CPU time a command
// costs end to end, so the machine's cores answer GOMAXPROCS of them in
// that time. On a slower or busier machine than the one the figures in
// docs/performance.md come from, the load is as heavy for it as 400/s
// is there, instead of more than it can answer at all.
func anchoredRate(t *testing.T, h *harness, share float64) int {
	t.Helper()
	var lat []time.Duration
	for range 60 {
		id, err := h.fake.PushErr(h.fake.SlashCommand(*loadText, "U0001", "C0001"))
		if err != nil {
			t.Fatal(err)
		}
		lat = append(lat, h.fake.WaitAck(t, id, 30*time.Second).Latency)
	}
	lat = lat[10:] // the first commands warm the caches
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	one := lat[len(lat)/2]
	capacity := float64(runtime.GOMAXPROCS(0)) / one.Seconds()
	rate := max(1, int(share*capacity))
	fmt.Printf("ANCHOR one at a time: ack p50=%v, so %d cores answer ~%.0f/s; offering %.0f%% of that: %d/s\n",
		one, runtime.GOMAXPROCS(0), capacity, 100*share, min(rate, *loadRate))
	return rate
}
