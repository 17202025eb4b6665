package main

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/store"
	"github.com/robfig/cron/v3"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// fastEvery is a cron.Schedule that fires every d: robfig's own @every
// rounds up to a second, too slow for a test.
type fastEvery time.Duration

func (e fastEvery) Next(t time.Time) time.Time { return t.Add(time.Duration(e)) }

// waitCron polls cond until it holds or a generous deadline passes: a
// failure detector, not a timing assertion.
func waitCron(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Issue 12: a digest job that panics does not take the scheduler down. The
// panic is recovered and logged once, with its stack, and the job's next
// run still happens (it did not: SkipIfStillRunning outside Recover kept
// the panicked run's slot taken, and every later run was skipped).
func TestCronRecoversPanickingJob(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	c := newCron(time.UTC, zap.New(core))
	var runs atomic.Int32
	c.Schedule(fastEvery(10*time.Millisecond), cron.FuncJob(func() {
		if runs.Add(1) == 1 {
			panic("digest builder blew up")
		}
	}))
	c.Start()
	waitCron(t, "the runs after the panicking one", func() bool { return runs.Load() >= 3 })
	<-c.Stop().Done()

	panics := logs.FilterMessage("cron: panic").All()
	if len(panics) != 1 {
		t.Fatalf("logged %d panics, want 1 (%d runs)", len(panics), runs.Load())
	}
	p := panics[0]
	if p.Level != zapcore.ErrorLevel {
		t.Errorf("panic logged at %v, want error", p.Level)
	}
	if got := p.ContextMap()["error"]; got != "digest builder blew up" {
		t.Errorf("panic logged with error %v", got)
	}
	if d := fmt.Sprint(p.ContextMap()["detail"]); !strings.Contains(d, "TestCronRecoversPanickingJob") {
		t.Errorf("panic logged without the job's stack: %.300s", d)
	}
}

// Issue 12: a job that runs past its next slot is not started a second
// time alongside itself; the overlapping runs are skipped and each skip is
// logged at warn, and the job runs again once the long run is over.
func TestCronSkipsOverlongJob(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	c := newCron(time.UTC, zap.New(core))
	var runs, running, overlaps atomic.Int32
	release := make(chan struct{})
	c.Schedule(fastEvery(10*time.Millisecond), cron.FuncJob(func() {
		if running.Add(1) > 1 {
			overlaps.Add(1)
		}
		defer running.Add(-1)
		if runs.Add(1) == 1 {
			<-release // the overlong run: held until a few slots have passed
		}
	}))
	c.Start()
	skips := func() int { return logs.FilterMessageSnippet("cron: skipped a run").Len() }
	waitCron(t, "skips while the first run is still running", func() bool { return skips() >= 3 || overlaps.Load() > 0 })
	close(release)
	waitCron(t, "a run after the overlong one", func() bool { return runs.Load() >= 2 })
	<-c.Stop().Done()

	if n := overlaps.Load(); n != 0 {
		t.Fatalf("%d runs started while another run of the job was still running", n)
	}
	for _, e := range logs.FilterMessageSnippet("cron: skipped a run").All() {
		if e.Level != zapcore.WarnLevel {
			t.Fatalf("skip logged at %v, want warn", e.Level)
		}
	}
}

// stuckWatch is a store whose subscriptions read, on its second call (the
// first from cron), hangs until released and then panics.
type stuckWatch struct {
	store.Watch              // only Subscriptions is called: there are none
	calls, running, overlaps atomic.Int32
	release                  chan struct{}
}

func (w *stuckWatch) Subscriptions(context.Context) ([]store.Subscription, error) {
	if w.running.Add(1) > 1 {
		w.overlaps.Add(1)
	}
	defer w.running.Add(-1)
	if w.calls.Add(1) == 2 {
		<-w.release
		panic("subscriptions: corrupt record")
	}
	return nil, nil
}

// The scheduler's own reconcile job runs on that cron: one that runs past
// its next slot and then panics is skipped meanwhile (logged), recovered
// (logged once), and the reconcile after it still runs; Run still returns
// when its context ends. It takes about three of robfig's one-second
// @every ticks.
func TestSchedulerReconcileSurvivesOverrunAndPanic(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	w := &stuckWatch{release: make(chan struct{})}
	s := newScheduler(nil, w, nil, nil, zap.New(core), "replica-0")
	s.every = time.Second
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopped := make(chan struct{})
	go func() { s.Run(ctx, time.UTC); close(stopped) }()

	skips := func() int { return logs.FilterMessageSnippet("cron: skipped a run").Len() }
	waitCron(t, "a skipped reconcile while one hangs", func() bool { return skips() >= 1 || w.overlaps.Load() > 0 })
	close(w.release)
	waitCron(t, "the reconcile after the one that panicked", func() bool { return w.calls.Load() >= 3 })
	cancel()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
	if n := w.overlaps.Load(); n != 0 {
		t.Fatalf("%d reconciles started while another was still running", n)
	}
	if n := logs.FilterMessage("cron: panic").Len(); n != 1 {
		t.Fatalf("logged %d panics, want 1", n)
	}
}
