package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot"
	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/digest/schedule"
	"github.com/gpuplan/gpuplan/store"
	"github.com/gpuplan/gpuplan/store/storetest"
	"go.uber.org/zap"
)

// digestReplica is one bot replica's digest side: its own Redis client,
// command set, bot (for Post) and scheduler.
type digestReplica struct {
	st    *store.Redis
	sched *scheduler
}

func newDigestReplicas(t *testing.T, n int, clock *storetest.Clock, fake *slackfake.Server) []*digestReplica {
	t.Helper()
	rd := startOwnRedis(t)
	var out []*digestReplica
	for i := range n {
		st, err := store.OpenRedis(context.Background(), store.RedisOptions{URL: rd.url, Clock: clock.Now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		set := commands.New(commands.Deps{Reservations: st, Watch: st, Schedule: schedule.NextFunc})
		b, err := bot.New(bot.Config{AppToken: slackfake.AppToken, BotToken: slackfake.BotToken, APIURL: fake.URL()}, zap.NewNop(), set, nil)
		if err != nil {
			t.Fatal(err)
		}
		sched := newScheduler(set, st, st.Now, b.Post, zap.NewNop(), fmt.Sprintf("replica-%d", i))
		out = append(out, &digestReplica{st: st, sched: sched})
	}
	return out
}

// tickAll runs every replica's reconcile at the same moment.
func tickAll(reps []*digestReplica) {
	var wg sync.WaitGroup
	for _, r := range reps {
		wg.Go(func() { r.sched.Tick(context.Background()) })
	}
	wg.Wait()
}

func subscribe(t *testing.T, st store.Watch, channel, spec string, since time.Time) {
	t.Helper()
	if err := st.PutSubscription(context.Background(), store.Subscription{Channel: channel, Spec: spec, TZ: "UTC", Period: "day", Label: spec, By: "U0ADMIN", Since: since}); err != nil {
		t.Fatal(err)
	}
}

// Three replicas, one Redis, the fake Slack: 40 channels with an hourly
// digest over 5 hours are 200 slots, and every replica reconciles at
// every slot at once. Exactly 200 digests come out, one per channel and
// slot, each with its chart in the thread.
func TestDigestReplicasPostEachSlotOnce(t *testing.T) {
	fake := slackfake.New(t)
	start := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	clock := storetest.NewClock(start)
	reps := newDigestReplicas(t, 3, clock, fake)
	const channels, slots = 40, 5
	for c := range channels {
		ch := fmt.Sprintf("C0DIG%02d", c)
		fake.AddChannel(ch, "digest-"+ch, false, true)
		subscribe(t, reps[0].st, ch, "0 * * * *", start)
	}
	for range slots {
		clock.Advance(time.Hour)
		tickAll(reps)
	}
	total := 0
	for c := range channels {
		ch := fmt.Sprintf("C0DIG%02d", c)
		msgs := fake.Messages(ch)
		var top int
		for _, m := range msgs {
			if m.ThreadTS == "" {
				top++
			}
		}
		if top != slots {
			t.Errorf("%s got %d digests, want %d", ch, top, slots)
		}
		total += top
	}
	files := 0
	for _, f := range fake.Files() {
		if f.Completed && f.ThreadTS != "" {
			files++
		}
	}
	if total != channels*slots || files != channels*slots {
		t.Fatalf("%d digests and %d charts for %d slots", total, files, channels*slots)
	}
}

// A replica that claims a slot and dies before posting leaves it to
// another once the lease runs out: one post, late. A slot missed while
// every replica was down is posted once when they come back, not once
// per replica and not once per missed slot.
func TestDigestReplicaKilledHoldingAClaim(t *testing.T) {
	fake := slackfake.New(t)
	start := time.Date(2026, 11, 20, 8, 30, 0, 0, time.UTC)
	clock := storetest.NewClock(start)
	reps := newDigestReplicas(t, 3, clock, fake)
	fake.AddChannel("C0TEAM", "team", false, true)
	subscribe(t, reps[0].st, "C0TEAM", "0 9 * * *", start)

	// Replica 0 claims the 09:00 slot, then "dies" inside Post.
	clock.Advance(30 * time.Minute)
	dying, kill := context.WithCancel(context.Background())
	claimed := make(chan struct{})
	alive := reps[0].sched.post
	reps[0].sched.post = func(ctx context.Context, channel string, r *commands.Reply) (string, error) {
		close(claimed)
		<-ctx.Done()
		return "", ctx.Err()
	}
	done := make(chan struct{})
	go func() { reps[0].sched.Tick(dying); close(done) }()
	<-claimed
	// While the lease holds, the others leave the slot alone.
	reps[1].sched.Tick(context.Background())
	reps[2].sched.Tick(context.Background())
	kill()
	<-done
	reps[0].sched.post = alive // restarted, it is a healthy replica again
	if n := len(fake.Messages("C0TEAM")); n != 0 {
		t.Fatalf("%d posts while the dead replica's lease held", n)
	}
	// After the lease, exactly one of the survivors posts it, marked late.
	clock.Advance(schedule.ClaimLease + time.Second)
	tickAll(reps[1:])
	tickAll(reps[1:])
	msgs := fake.Messages("C0TEAM")
	if len(top(msgs)) != 1 || !strings.Contains(top(msgs)[0].Text+fmt.Sprint(top(msgs)[0].Blocks), "Posted late") {
		t.Fatalf("after the lease: %d posts (want 1, late): %+v", len(top(msgs)), msgs)
	}

	// Everyone down from 09:05 until 11:30 two days later: the 09:00 slots
	// of both days were missed; only the latest is posted, once.
	clock.Advance(2*24*time.Hour + 2*time.Hour + 25*time.Minute)
	tickAll(reps)
	tickAll(reps)
	msgs = top(fake.Messages("C0TEAM"))
	if len(msgs) != 2 {
		t.Fatalf("after the outage: %d posts in all, want 2", len(msgs))
	}
	if !strings.Contains(fmt.Sprint(msgs[1].Blocks), "Posted late") {
		t.Errorf("the missed slot should say it is late: %v", msgs[1].Text)
	}
}

func top(msgs []slackfake.Message) []slackfake.Message {
	var out []slackfake.Message
	for _, m := range msgs {
		if m.ThreadTS == "" {
			out = append(out, m)
		}
	}
	return out
}

// The real cron runner drives the reconcile: with the job every second,
// a due slot is posted without anyone calling Tick, and Run returns
// when its context ends.
func TestSchedulerRunsOnCron(t *testing.T) {
	fake := slackfake.New(t)
	start := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	clock := storetest.NewClock(start)
	reps := newDigestReplicas(t, 1, clock, fake)
	fake.AddChannel("C0TEAM", "team", false, true)
	subscribe(t, reps[0].st, "C0TEAM", "0 9 * * *", start)
	s := reps[0].sched
	s.every = time.Second
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { s.Run(ctx, time.UTC); close(stopped) }()
	time.Sleep(100 * time.Millisecond) // Run's first Tick: nothing due yet
	clock.Advance(time.Hour)
	deadline := time.Now().Add(10 * time.Second)
	for len(fake.Messages("C0TEAM")) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
	if n := len(top(fake.Messages("C0TEAM"))); n != 1 {
		t.Fatalf("cron posted %d digests, want 1", n)
	}
}

// Through the claims, on the two DST days in New York with three
// replicas reconciling every quarter hour: the fall-back day's 01:30,
// which happens twice, is posted once; the spring-forward day's 02:30,
// which does not happen, is posted once (at 03:30).
func TestDigestDSTDaysPostOnce(t *testing.T) {
	fake := slackfake.New(t)
	ny, _ := time.LoadLocation("America/New_York")
	for _, tc := range []struct {
		channel, spec string
		from          time.Time
	}{
		{"C0FALL", "30 1 * * *", time.Date(2026, 10, 31, 12, 0, 0, 0, ny)},
		{"C0SPRING", "30 2 * * *", time.Date(2026, 3, 7, 12, 0, 0, 0, ny)},
	} {
		clock := storetest.NewClock(tc.from)
		reps := newDigestReplicas(t, 3, clock, fake)
		fake.AddChannel(tc.channel, tc.channel, false, true)
		if err := reps[0].st.PutSubscription(context.Background(), store.Subscription{Channel: tc.channel, Spec: tc.spec, TZ: "America/New_York",
			Period: "day", Label: tc.spec, By: "U0ADMIN", Since: tc.from}); err != nil {
			t.Fatal(err)
		}
		var at []string
		for range 4 * 24 { // a day in quarter hours
			clock.Advance(15 * time.Minute)
			before := len(top(fake.Messages(tc.channel)))
			tickAll(reps)
			if len(top(fake.Messages(tc.channel))) > before {
				at = append(at, clock.Now().In(ny).Format("Jan 2 15:04 MST"))
			}
		}
		want := map[string]string{"C0FALL": "Nov 1 01:30 EDT", "C0SPRING": "Mar 8 03:30 EDT"}[tc.channel]
		if len(at) != 1 || at[0] != want {
			t.Errorf("%s: posted at %v, want once at %s", tc.channel, at, want)
		}
	}
}
