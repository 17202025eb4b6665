package store

import (
	"context"
	"errors"
	stdflag "flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

var scriptCost = stdflag.Bool("scriptcost", false, "measure the reserve script's Redis time with thousands of future bookings on one server (TestReserveScriptCost)")

// R3: a hot GPU. The 1,440 one-minute windows of a day, each asked for by
// three competing users (4,320 concurrent reserves in random order over
// three clients), plus 200 reserves of random windows that span several of
// them. Every accepted pair is disjoint; each window has exactly one winner
// unless a random reservation took (part of) it, and every loser got a
// conflict naming a reservation that is really there. Behind -scriptcost
// it also times 200 conflicting reserves into the tiled day, one at a
// time, and reports the script's p99 (fails over 5 ms):
//
//	go test ./store -run TestRedisHotGPU -scriptcost -v -count=1
func TestRedisHotGPU(t *testing.T) {
	srv := StartRedis(t)
	ctx := context.Background()
	now, err := NewRedis(srv.Client(), nil).Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	day := now.Truncate(time.Minute).Add(time.Hour)
	type attempt struct {
		rid    string
		win    int // tiling window, or -1
		start  time.Time
		dur    time.Duration
		owner  string
		result Reservation
		err    error
	}
	var all []*attempt
	for w := range 1440 {
		for u := range 3 {
			all = append(all, &attempt{rid: fmt.Sprintf("t%d-%d", w, u), win: w, start: day.Add(time.Duration(w) * time.Minute),
				dur: time.Minute, owner: fmt.Sprint("U", u)})
		}
	}
	rng := rand.New(rand.NewPCG(3, 1440))
	for i := range 200 {
		all = append(all, &attempt{rid: fmt.Sprint("x", i), win: -1, start: day.Add(time.Duration(rng.IntN(1440*60)) * time.Second),
			dur: time.Duration(2+rng.IntN(10)) * time.Minute, owner: "UX"})
	}
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })

	clients := make([]*Redis, 3)
	for i := range clients {
		clients[i] = NewRedis(redis.NewClient(srv.Options()), nil)
		defer clients[i].Close()
	}
	next := make(chan *attempt)
	var wg sync.WaitGroup
	for w := range 48 {
		s := clients[w%3]
		wg.Go(func() {
			for a := range next {
				a.result, a.err = s.Reserve(ctx, ReserveRequest{RequestID: a.rid, Server: "hot", ServerGPUs: 1, Count: 1,
					Owner: a.owner, Start: a.start, Duration: a.dur})
			}
		})
	}
	for _, a := range all {
		next <- a
	}
	close(next)
	wg.Wait()

	if err := CheckInvariants(ctx, srv.Client(), "hot"); err != nil {
		t.Fatal(err)
	}
	live, err := clients[0].List(ctx, "hot")
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Reservation{}
	for _, r := range live {
		byID[r.ID] = r
	}
	winners := make([]int, 1440)
	for _, a := range all {
		var ce *ConflictError
		switch {
		case a.err == nil:
			if _, ok := byID[a.result.ID]; !ok {
				t.Fatalf("%s won %s, which is not stored", a.rid, a.result.ID)
			}
			if a.win >= 0 {
				winners[a.win]++
			}
		case errors.As(a.err, &ce):
			if len(ce.Holders) == 0 {
				t.Fatalf("%s: a conflict naming nobody", a.rid)
			}
			for _, h := range ce.Holders {
				if _, ok := byID[h.ID]; !ok {
					t.Fatalf("%s: conflict names %s, which is not stored", a.rid, h.ID)
				}
			}
		default:
			t.Fatalf("%s: %v (want ok or a conflict)", a.rid, a.err)
		}
	}
	for w, n := range winners {
		if n > 1 {
			t.Fatalf("window %d has %d winners", w, n)
		}
		if n == 0 {
			// A random reservation must hold part of it.
			ws := day.Add(time.Duration(w) * time.Minute)
			held := slices.ContainsFunc(live, func(r Reservation) bool {
				return r.Start.Before(ws.Add(time.Minute)) && r.End.After(ws)
			})
			if !held {
				t.Fatalf("window %d has no winner and nobody holds it", w)
			}
		}
	}
	// The day is fully booked, so a conflicting minute at its start finds
	// the first free minute after it: the day's end.
	_, err = clients[0].Reserve(ctx, ReserveRequest{Server: "hot", ServerGPUs: 1, Count: 1, Owner: "U9", Start: day, Duration: time.Minute})
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("reserve in a full day: %v", err)
	}
	lastEnd := day
	for _, r := range live {
		if r.End.After(lastEnd) {
			lastEnd = r.End
		}
	}
	if !ce.Earliest.Equal(lastEnd) || !slices.Equal(ce.EarliestGPUs, []int{0}) {
		t.Errorf("earliest = %v %v, want %v [0]", ce.Earliest, ce.EarliestGPUs, lastEnd)
	}

	// Behind -scriptcost, on the test's own Redis: what a conflicting
	// reserve into the tiled day costs Redis, one call at a time.
	if !*scriptCost || srv.External {
		return
	}
	own := srv.Client()
	timed := NewRedis(own, nil)
	defer timed.Close()
	var us []float64
	for i := range 200 {
		at := day.Add(time.Duration(rng.IntN(1440)) * time.Minute)
		us = append(us, scriptTime(t, own, func() {
			if _, err := timed.Reserve(ctx, ReserveRequest{RequestID: fmt.Sprint("p", i), Server: "hot", ServerGPUs: 1, Count: 1,
				Owner: "U9", Start: at, Duration: time.Minute}); !errors.Is(err, ErrConflict) {
				t.Fatalf("reserve in the tiled day: %v, want a conflict", err)
			}
		}))
	}
	reportScriptTime(t, "R3: one GPU tiled into 1,440 windows, a minute in it", us)
}

// TestReserveScriptCost measures what a reserve costs Redis (the script's
// own time, from INFO commandstats reset before each call) when a server holds thousands of future bookings: 3,000 on
// an 8-GPU server, GPU 0 tiled with the 1,440 one-minute windows of a day,
// the other 1,560 spread over GPUs 1-7 and the next 90 days. Conflicting
// reserves of three kinds are timed. Behind -scriptcost: a measurement,
// not a unit test.
//
//	go test ./store -run TestReserveScriptCost -scriptcost -v -count=1
func TestReserveScriptCost(t *testing.T) {
	if !*scriptCost {
		t.Skip("a measurement: run with -scriptcost")
	}
	srv := StartRedis(t)
	srv.NeedOwn(t)
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
	const server, gpus = "cost", 8
	book := func(i int, start time.Time, dur time.Duration, ids []int) {
		if _, err := s.Reserve(ctx, ReserveRequest{RequestID: fmt.Sprint("b", i), Server: server, ServerGPUs: gpus, GPUs: ids,
			Owner: "U1", Start: start, Duration: dur}); err != nil {
			t.Fatalf("booking %d: %v", i, err)
		}
	}
	for w := range 1440 {
		book(w, day.Add(time.Duration(w)*time.Minute), time.Minute, []int{0})
	}
	for i := range 1560 {
		g := 1 + i%7
		slot := i / 7 // 223 slots per GPU, 9 h 40 min apart, 1 h each
		book(1440+i, day.Add(time.Duration(slot)*580*time.Minute), time.Hour, []int{g})
	}
	if n, _ := client.ZCard(ctx, keysFor(server).ends).Result(); n != 3000 {
		t.Fatalf("%d bookings, want 3000", n)
	}
	kinds := []struct {
		name string
		req  ReserveRequest
	}{
		{"GPU 0, a minute in the tiled day (earliest: after 1,440 bookings)", ReserveRequest{GPUs: []int{0}, Start: day.Add(time.Minute), Duration: time.Minute}},
		{"all 8 GPUs for an hour (earliest: a gap in the spread bookings)", ReserveRequest{Count: 8, Start: day, Duration: time.Hour}},
		{"GPUs 1-7 for a day", ReserveRequest{GPUs: []int{1, 2, 3, 4, 5, 6, 7}, Start: day, Duration: 24 * time.Hour}},
	}
	for _, k := range kinds {
		const n = 200
		var us []float64
		for i := range n {
			req := k.req
			req.Server, req.ServerGPUs, req.Owner, req.RequestID = server, gpus, "U2", fmt.Sprint("c", i)
			us = append(us, scriptTime(t, client, func() {
				if _, err := s.Reserve(ctx, req); !errors.Is(err, ErrConflict) {
					t.Fatalf("%s: %v, want a conflict", k.name, err)
				}
			}))
		}
		reportScriptTime(t, k.name+fmt.Sprintf(" (read %d index entries)", hook.take()), us)
	}
}

// scriptTime is the Redis time of the scripts run by call: INFO
// commandstats is reset before it and read after (SLOWLOG with every
// command logged also logs each command inside the script, which inflates
// the very time it measures). The server must be the test's own.
func scriptTime(t *testing.T, client *redis.Client, call func()) float64 {
	t.Helper()
	ctx := context.Background()
	if err := client.ConfigResetStat(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	call()
	info, err := client.Info(ctx, "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	var total float64
	for line := range strings.SplitSeq(info, "\n") {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || (name != "cmdstat_evalsha" && name != "cmdstat_eval") {
			continue
		}
		for f := range strings.SplitSeq(rest, ",") {
			if v, ok := strings.CutPrefix(f, "usec="); ok {
				u, _ := strconv.ParseFloat(v, 64)
				total += u
			}
		}
	}
	return total
}

// reportScriptTime logs the spread of per-call script times (µs) and fails
// a p99 over the 5 ms budget.
func reportScriptTime(t *testing.T, name string, us []float64) {
	t.Helper()
	slices.Sort(us)
	var sum float64
	for _, u := range us {
		sum += u
	}
	n := len(us)
	p50, p99, max := us[n/2], us[n*99/100], us[n-1]
	t.Logf("%s: %d conflicting reserves, Redis time per script: mean %.0f µs, p50 %.0f µs, p99 %.0f µs, max %.0f µs",
		name, n, sum/float64(n), p50, p99, max)
	if p99 > 5000 {
		t.Errorf("%s: p99 %.0f µs, over the 5 ms budget", name, p99)
	}
}
