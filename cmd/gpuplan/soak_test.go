package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot/slackfake"
)

var (
	soak         = flag.Bool("soak", false, "run TestSoak: one `gpuplan serve` under steady load (see -soak.duration)")
	soakDuration = flag.Duration("soak.duration", 30*time.Minute, "how long TestSoak runs")
	soakRate     = flag.Int("soak.rate", 20, "TestSoak's commands per second")
	soakEvery    = flag.Duration("soak.every", 30*time.Second, "how often TestSoak samples the process")
	soakReconn   = flag.Duration("soak.reconnect", time.Minute, "how often TestSoak's Slack asks for a reconnect (refresh_requested)")
)

// soakCommands is the soak's mix: like TestReplicas' without `wait`, whose
// waiting list would grow for the whole run (more data is not a leak).
var soakCommands = []string{
	"bert-base 1 epoch of 100k samples on h100x2", "bert-base 1 epoch of 100k samples on h100x2",
	"llama-3-8b lora 1 epoch of 50k samples on a100x2",
	"status", "status", "status srv-h", "mine", "mine",
	"reserve 1 on srv-h for 1h", "reserve 1 on srv-h for 1h", "reserve 2 on srv-a for 30m", "reserve 1 on srv-v for 2h",
	"release all", "release all", "release srv-h",
	"help", "gpus h100", "models bert",
}

// A soak: one `gpuplan serve` against the fake Slack and a real Redis, a
// steady mixed command load (-soak.rate, 20/s) and a reconnect every
// -soak.reconnect, for -soak.duration (30 min). Every -soak.every the
// process's resident memory (/proc/<pid>/status VmRSS) and goroutine count
// (go_goroutines on its /metrics) are sampled. It fails when the last
// third's mean RSS is over 1.5× the first third's, when goroutines grow
// (the last third's mean over the first third's by more than 20% and 10),
// or when a command goes unanswered.
//
//	go test ./cmd/gpuplan -run TestSoak -soak -v -timeout 40m
func TestSoak(t *testing.T) {
	if !*soak {
		t.Skip("a soak test: run it with -soak (and -soak.duration, default 30m)")
	}
	rdb := startOwnRedis(t)
	bin := buildGpuplan(t)
	fake := slackfake.New(t)
	servers := filepath.Join(t.TempDir(), "servers.yaml")
	if err := os.WriteFile(servers, []byte(replicaServers), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	httpAddr := l.Addr().String()
	l.Close()
	proc := startReplica(t, bin, "soak", fake, map[string]string{
		"REDIS_URL": rdb.url, "GPUPLAN_SERVERS": servers, "GPUPLAN_HTTP_ADDR": httpAddr,
	})
	fake.WaitConnections(t, 1, 20*time.Second)

	load := &replicaLoad{t: t, fake: fake, rng: rand.New(rand.NewPCG(5, 6)), noDups: true, mix: soakCommands}
	type sample struct {
		at               time.Duration
		rss              int64 // KiB
		goroutines       int
		threads          int
		sent, acked, gap int
		reconnects       int
	}
	var samples []sample
	start := time.Now()
	tick := time.NewTicker(time.Second / time.Duration(*soakRate))
	defer tick.Stop()
	nextSample := start.Add(*soakEvery)
	nextReconnect := start.Add(*soakReconn)
	reconnects, ackedUpTo, acked, gap := 0, 0, 0, 0
	var bg sync.WaitGroup
	defer bg.Wait()
	t.Logf("SOAK %v at %d commands/s, a reconnect every %v, a sample every %v", *soakDuration, *soakRate, *soakReconn, *soakEvery)
	t.Logf("SOAK | minute | RSS MiB | goroutines | threads | commands sent | acked | failed in a reconnect gap | reconnects |")
	for time.Since(start) < *soakDuration {
		<-tick.C
		if _, err := load.trySend(false, 0); errors.Is(err, slackfake.ErrNoConnection) {
			gap++ // between two connections: Slack fails the command for the user
		} else if err != nil {
			t.Fatal(err)
		}
		if now := time.Now(); now.After(nextReconnect) {
			nextReconnect = now.Add(*soakReconn)
			bg.Go(func() { fake.Disconnect("refresh_requested") }) // returns once the old socket is gone
			reconnects++
		}
		if now := time.Now(); now.After(nextSample) {
			nextSample = nextSample.Add(*soakEvery)
			for ackedUpTo < len(load.items) {
				if it := load.items[ackedUpTo]; len(fake.Acks(it.ids[0])) == 0 {
					break
				}
				ackedUpTo++
				acked++
			}
			s := sample{at: time.Since(start), sent: len(load.items), acked: acked, gap: gap, reconnects: reconnects}
			s.rss, s.threads = procStatus(t, proc.cmd.Process.Pid)
			s.goroutines = scrapeGoroutines(t, httpAddr)
			samples = append(samples, s)
			t.Logf("SOAK | %6.1f | %7.1f | %10d | %7d | %13d | %5d | %25d | %10d |",
				s.at.Minutes(), float64(s.rss)/1024, s.goroutines, s.threads, s.sent, s.acked, s.gap, s.reconnects)
		}
	}
	// Every command answered: acked (with its answer, or before it) and,
	// for those acked without one, answered later.
	time.Sleep(5 * time.Second)
	unacked := 0
	for _, it := range load.items {
		if len(fake.Acks(it.ids[0])) == 0 {
			unacked++
		}
	}
	posts := load.responsePosts()
	unanswered := 0
	for _, it := range load.items[max(0, len(load.items)-500):] {
		if len(load.answers(it, posts)) == 0 {
			unanswered++
		}
	}
	if unacked > 0 || unanswered > 0 {
		t.Errorf("%d of %d commands never acked; %d of the last 500 never answered", unacked, len(load.items), unanswered)
	}
	if len(samples) < 3 {
		t.Fatalf("only %d samples: run longer than 3 × -soak.every", len(samples))
	}
	third := len(samples) / 3
	mean := func(ss []sample, f func(sample) float64) float64 {
		var sum float64
		for _, s := range ss {
			sum += f(s)
		}
		return sum / float64(len(ss))
	}
	first, last := samples[:third], samples[len(samples)-third:]
	rss := func(s sample) float64 { return float64(s.rss) }
	gor := func(s sample) float64 { return float64(s.goroutines) }
	r1, r3 := mean(first, rss), mean(last, rss)
	g1, g3 := mean(first, gor), mean(last, gor)
	t.Logf("SOAK %d commands in %v (%d more failed in a reconnect gap), %d reconnects (%d connection opens); RSS mean first third %.1f MiB, last third %.1f MiB (×%.2f); goroutines mean first third %.0f, last third %.0f",
		len(load.items), time.Since(start).Round(time.Second), gap, reconnects, fake.Opens(), r1/1024, r3/1024, r3/r1, g1, g3)
	if r3 > 1.5*r1 {
		t.Errorf("resident memory grew: last third's mean %.1f MiB is over 1.5× the first third's %.1f MiB", r3/1024, r1/1024)
	}
	if g3 > g1+max(10, 0.2*g1) {
		t.Errorf("goroutines grew: last third's mean %.0f, first third's %.0f", g3, g1)
	}
	proc.stop(t)
}

// procStatus reads VmRSS (KiB) and Threads from /proc/<pid>/status.
func procStatus(t *testing.T, pid int) (rssKiB int64, threads int) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("the soaked process is gone: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		fields := strings.Fields(v)
		if len(fields) == 0 {
			continue
		}
		switch k {
		case "VmRSS":
			rssKiB, _ = strconv.ParseInt(fields[0], 10, 64)
		case "Threads":
			threads, _ = strconv.Atoi(fields[0])
		}
	}
	return rssKiB, threads
}

// scrapeGoroutines reads go_goroutines from the process's /metrics.
func scrapeGoroutines(t *testing.T, addr string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/metrics", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("scrape /metrics: %v", err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "go_goroutines "); ok {
			n, _ := strconv.ParseFloat(v, 64)
			return int(n)
		}
	}
	t.Fatal("no go_goroutines on /metrics")
	return 0
}
