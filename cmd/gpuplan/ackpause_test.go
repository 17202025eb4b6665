package main

import (
	"context"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/redis/go-redis/v9"
)

// Issue 12, item 6, end to end: serve on a Redis that is paused (SIGSTOP,
// connections open, nothing answered) keeps acking. The shared dedupe no
// longer runs on the event loop, and a slash command waits for it at most
// the bot's DedupeTimeout (50 ms), so acks stay far below the 1 s the
// dedupe used to cost each envelope. Events are acked before any check.
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
	resumed := false
	defer func() {
		if !resumed {
			rdb.cmd.Process.Signal(syscall.SIGCONT)
		}
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
	var lat []time.Duration
	for i := range 20 {
		var e slackfake.Envelope
		if i%2 == 0 {
			e = fake.SlashCommand("help", "U0001", "C0001")
		} else {
			e = fake.AppHomeOpened("U0001")
		}
		fake.Push(e)
		a := fake.WaitAck(t, e.ID, 10*time.Second)
		lat = append(lat, a.Latency)
	}
	rdb.cmd.Process.Signal(syscall.SIGCONT)
	resumed = true
	slices.Sort(lat)
	t.Logf("acks with Redis paused: p50 %v, p99 %v, max %v (20 envelopes: 10 slash commands, 10 events)", lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1])
	// The bound is DedupeTimeout (50 ms) plus scheduling; the old path
	// waited the store adapter's full second on the event loop.
	if lat[len(lat)-1] > 500*time.Millisecond {
		t.Errorf("slowest ack %v with Redis paused; the dedupe must not hold acks", lat[len(lat)-1])
	}
	if !strings.Contains(stderr.String(), "dedupe store unavailable; processing anyway") {
		t.Error("the paused store was never noticed")
	}
}
