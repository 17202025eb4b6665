package bot

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/planner"
	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
	"go.uber.org/goleak"
)

// pausedDeduper is a shared store that does not answer (a Redis stopped
// with SIGSTOP): FirstSeen blocks until released, or until its context
// ends when honorCtx is set (as go-redis does).
type pausedDeduper struct {
	honorCtx bool
	started  chan context.Context
	release  chan bool
	calls    atomic.Int32
	returned atomic.Int32
}

func (p *pausedDeduper) FirstSeen(ctx context.Context, _ string, _ time.Duration) (bool, error) {
	p.calls.Add(1)
	defer p.returned.Add(1)
	p.started <- ctx
	if p.honorCtx {
		<-ctx.Done()
		return false, ctx.Err()
	}
	return <-p.release, nil
}

type chanAcker struct{ acks chan string }

func (a chanAcker) AckCtx(_ context.Context, id string, _ any) error {
	a.acks <- id
	return nil
}

// Issue 12, item 6: the event loop never waits on the shared dedupe
// store. An event is acked before the shared check has returned; a
// redelivery is dropped by the loop's own memory without asking the store;
// a slash command (whose ack carries its answer) waits for the shared
// check at most DedupeTimeout, by the context's deadline.
func TestAckDoesNotWaitForSharedDedupe(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	paused := &pausedDeduper{started: make(chan context.Context, 4), release: make(chan bool)}
	cat := planner.DefaultCatalog()
	b, err := New(Config{AppToken: "xapp-1-abc", BotToken: "xoxb-abc", APIURL: "http://127.0.0.1:1"}, nil,
		commands.New(commands.Deps{Catalog: cat}), paused)
	if err != nil {
		t.Fatal(err)
	}
	acker := chanAcker{acks: make(chan string, 8)}
	ctx := context.Background()
	event := socketmode.Event{Type: socketmode.EventTypeEventsAPI, Request: &socketmode.Request{EnvelopeID: "env-1"},
		Data: slackevents.EventsAPIEvent{Type: slackevents.CallbackEvent, Data: &slackevents.EventsAPICallbackEvent{EventID: "Ev1"}}}

	loopDone := make(chan struct{})
	go func() {
		b.dispatchEnvelope(ctx, acker, event)
		close(loopDone)
	}()
	select {
	case <-loopDone:
	case <-time.After(10 * time.Second): // a failure detector, not a timing assertion
		t.Fatal("the event loop is waiting on the shared dedupe store")
	}
	if got := <-acker.acks; got != "env-1" {
		t.Fatalf("acked %q", got)
	}
	<-paused.started // the shared check runs, off the loop…
	if paused.returned.Load() != 0 {
		t.Fatal("the shared check returned before the ack was sent")
	}
	// …and the redelivery never reaches it: the loop's memory drops it.
	b.dispatchEnvelope(ctx, acker, event)
	if got := <-acker.acks; got != "env-1" {
		t.Fatalf("redelivery acked %q", got)
	}
	if n := paused.calls.Load(); n != 1 {
		t.Errorf("the shared store was asked %d times, want 1", n)
	}
	paused.release <- false // another replica had it: the handler does not run
	b.inflight.Wait()

	// A slash command: its ack waits for the shared check, bounded by
	// DedupeTimeout through the context's deadline.
	paused.honorCtx = true
	slash := socketmode.Event{Type: socketmode.EventTypeSlashCommand, Request: &socketmode.Request{EnvelopeID: "env-2"},
		Data: slack.SlashCommand{Command: "/gpuplan", Text: "help", UserID: "U1", ChannelID: "C1"}}
	before := time.Now()
	b.dispatchEnvelope(ctx, acker, slash)
	sctx := <-paused.started
	deadline, ok := sctx.Deadline()
	if !ok || deadline.Sub(before) > b.cfg.DedupeTimeout+time.Millisecond || b.cfg.DedupeTimeout > 100*time.Millisecond {
		t.Fatalf("shared check deadline %v (set %v) after the envelope; DedupeTimeout %v", deadline.Sub(before), ok, b.cfg.DedupeTimeout)
	}
	select {
	case got := <-acker.acks:
		if got != "env-2" {
			t.Fatalf("acked %q", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the slash command was never acked while the store did not answer")
	}
	b.inflight.Wait()
}

// The loop's own memory is bounded: the oldest keys go first.
func TestLocalSeenIsBounded(t *testing.T) {
	now := time.Unix(1000, 0)
	l := newLocalSeen(3, func() time.Time { return now })
	for _, k := range []string{"a", "b", "c", "d"} {
		if !l.FirstSeen(k, time.Hour) {
			t.Fatalf("%s seen before", k)
		}
	}
	if l.Len() != 3 {
		t.Errorf("%d keys kept, want 3", l.Len())
	}
	if l.FirstSeen("d", time.Hour) {
		t.Error("d forgotten")
	}
	if !l.FirstSeen("a", time.Hour) {
		t.Error("a, the oldest, still remembered past the bound")
	}
	now = now.Add(2 * time.Hour)
	if !l.FirstSeen("d", time.Hour) {
		t.Error("d remembered past its TTL")
	}
}
