package main

import (
	"context"
	"encoding/json"
	"flag"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/redis/go-redis/v9"
)

var ackPause = flag.Bool("ackpause", false,
	"TestServeAcksWithRedisPaused pauses Redis for 4 s while slash commands flow, and fails on an ack p99 of 100 ms or more")

// Issue 12, item 6, end to end: serve on a Redis that is paused (SIGSTOP of
// the test's own redis-server: connections open, nothing answered) keeps
// acking. The shared dedupe no longer runs on the event loop, and a slash
// command waits for it at most the bot's DedupeTimeout (50 ms); events are
// acked before any check.
//
// Every run checks the shape: with Redis paused, every envelope pushed —
// slash commands and events — is acked, and Redis is resumed only after
// the last ack, so no ack waited for Redis to answer. Timing is asserted
// only under -ackpause (unit tests do not assert wall-clock time): Redis
// stays paused for 4 s while a slash command arrives every 50 ms, and the
// ack p99 must stay under 100 ms.
//
//	go test ./cmd/gpuplan -run TestServeAcksWithRedisPaused -ackpause -v -count=1
func TestServeAcksWithRedisPaused(t *testing.T) {
	rdb := startOwnRedis(t)
	if !rdb.own {
		t.Skip("pauses Redis: needs a redis-server the test starts itself (GPUPLAN_TEST_REDIS_URL is set)")
	}
	redis.SetLogger(quietRedis{})
	fake := slackfake.New(t)
	env := fakeEnv(t, fake, "REDIS_URL", rdb.url, "GPUPLAN_HTTP_ADDR", "off", "GPUPLAN_LOG_LEVEL", "info")
	var stdout, stderr lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	code := make(chan int, 1)
	go func() { code <- serve(ctx, nil, func(k string) string { return env[k] }, &stdout, &stderr) }()
	var resumeOnce sync.Once
	resume := func() { resumeOnce.Do(func() { rdb.cmd.Process.Signal(syscall.SIGCONT) }) }
	defer func() {
		resume()
		cancel()
		select {
		case <-code:
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop")
		}
	}()
	fake.WaitConnections(t, 1, 10*time.Second)
	// Warm: one command while Redis answers.
	e := fake.SlashCommand("help", "U0001", "C0001")
	fake.Push(e)
	fake.WaitAck(t, e.ID, 10*time.Second)

	if err := rdb.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	paused := time.Now()
	var ids []string
	push := func(e slackfake.Envelope) { fake.Push(e); ids = append(ids, e.ID) }
	if *ackPause {
		for time.Since(paused) < 4*time.Second {
			push(fake.SlashCommand("help", "U0001", "C0001"))
			time.Sleep(50 * time.Millisecond)
		}
	} else {
		for i := range 20 {
			if i%2 == 0 {
				push(fake.SlashCommand("help", "U0001", "C0001"))
			} else {
				push(fake.AppHomeOpened("U0001"))
			}
		}
	}
	var lat []time.Duration
	acks := map[string]slackfake.Ack{}
	for _, id := range ids {
		a := fake.WaitAck(t, id, 10*time.Second)
		acks[id] = a
		lat = append(lat, a.Latency)
	}
	// Every ack is in, and Redis has not answered anything since the pause.
	pausedFor := time.Since(paused)
	// An event is acked before its shared dedupe is even tried: its ack
	// precedes the line that says the dedupe store did not answer (the
	// old path logged that line, after the store's timeout, and then
	// acked). Waits for the lines (50 ms after the last ack).
	gaveUp := map[string]time.Time{}
	deadline := time.Now().Add(5 * time.Second)
	for len(gaveUp) < len(ids) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		gaveUp = dedupeGiveUps(t, stderr.String())
	}
	resume()
	for id, a := range acks {
		at, ok := gaveUp[id]
		switch {
		case !ok:
			t.Errorf("envelope %s: no line says the paused dedupe store was given up on", id)
		case a.Type == "events_api" && !a.At.Before(at):
			t.Errorf("event %s was acked at %v, after its dedupe gave up at %v: the ack waited for Redis", id, a.At, at)
		}
	}
	slices.Sort(lat)
	p50, p99, max := lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1]
	t.Logf("%d envelopes acked with Redis paused (%v paused in all): ack p50 %v, p99 %v, max %v", len(ids), pausedFor.Round(time.Millisecond), p50, p99, max)
	if *ackPause {
		if pausedFor < 4*time.Second {
			t.Errorf("Redis was paused %v, want 4 s", pausedFor)
		}
		if p99 >= 100*time.Millisecond {
			t.Errorf("ack p99 %v with Redis paused; the issue's bound is 100 ms", p99)
		}
	}
}

// dedupeGiveUps reads serve's JSON log: when each envelope's shared dedupe
// was given up on (the store did not answer).
func dedupeGiveUps(t *testing.T, log string) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	for line := range strings.SplitSeq(log, "\n") {
		if !strings.Contains(line, "dedupe store unavailable") {
			continue
		}
		var l struct {
			TS  string `json:"ts"`
			Env string `json:"envelope_id"`
		}
		if json.Unmarshal([]byte(line), &l) != nil {
			continue
		}
		at, err := time.Parse("2006-01-02T15:04:05.000Z0700", l.TS)
		if err != nil {
			t.Fatalf("log time %q: %v", l.TS, err)
		}
		out[l.Env] = at
	}
	return out
}
