package storetest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	_ "time/tzdata" // the subscription cases name zones; they must not depend on the host's zoneinfo

	"github.com/gpuplan/gpuplan/store"
)

// watcher is the part of store.Watch these cases cover: all of it but
// FirstSeen, which has its own cases. A store that lacks a method fails
// the cases, not the build.
type watcher interface {
	store.Store
	RecordSamples(ctx context.Context, b store.SampleBatch) error
	Usage(ctx context.Context, server string, from, to time.Time) ([]store.HourUsage, error)
	Live(ctx context.Context, server string) (store.Live, error)
	History(ctx context.Context, server string, from, to time.Time) ([]store.Reservation, error)
	PutSubscription(ctx context.Context, s store.Subscription) error
	DeleteSubscription(ctx context.Context, channel string) (bool, error)
	Subscriptions(ctx context.Context) ([]store.Subscription, error)
	Claim(ctx context.Context, job, holder string, lease time.Duration) (bool, error)
	Done(ctx context.Context, job string) error
}

// wenv is one watch case's store and clock.
type wenv struct {
	*env
	w watcher
}

// RunWatch runs the contract suite of the watch half (samples, usage,
// live state, history, subscriptions, claims); open must return an empty
// store that implements store.Watch.
func RunWatch(t *testing.T, open Opener) {
	cases := []struct {
		name string
		run  func(e *wenv)
	}{
		{"SampleWeights", testSampleWeights},
		{"FirstWeightFromEvery", testFirstWeight},
		{"SamplesResentOrLate", testSamplesResent},
		{"UtilUnknown", testUtilUnknown},
		{"ErrHeartbeat", testErrHeartbeat},
		{"UserSeconds", testUserSeconds},
		{"Live", testLive},
		{"UsageRange", testUsageRange},
		{"UsageRetention", testUsageRetention},
		{"SampleValidation", testSampleValidation},
		{"History", testHistory},
		{"HistoryAfterCleanup", testHistoryCleanup},
		{"Subscriptions", testSubscriptions},
		{"SubscriptionValidation", testSubscriptionValidation},
		{"Claim", testClaim},
		{"ClaimDone", testClaimDone},
		{"ClaimValidation", testClaimValidation},
		{"ClaimConcurrent", testClaimConcurrent},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clock := NewClock(Base)
			s := open(t, clock.Now)
			t.Cleanup(func() { s.Close() })
			w, ok := s.(watcher)
			if !ok {
				t.Fatalf("%T does not implement the watch half", s)
			}
			c.run(&wenv{env: &env{t: t, s: s, clock: clock, ctx: context.Background()}, w: w})
		})
	}
}

// gpu is a sample of GPU i.
func gpu(i, util, memMB int, users ...string) store.GPUSample {
	return store.GPUSample{Index: i, Util: util, MemUsedMB: memMB, MemTotalMB: 81559, Users: users}
}

func batch(server string, at time.Time, gpus ...store.GPUSample) store.SampleBatch {
	return store.SampleBatch{Server: server, At: at, Every: 30 * time.Second, GPUs: gpus, Agent: "host1 gpuplan/1"}
}

func (e *wenv) record(b store.SampleBatch) {
	e.t.Helper()
	// An agent samples at the store's now, give or take its clock: keep
	// the store's clock from falling behind the batches.
	if ahead := b.At.Sub(e.clock.Now()); ahead > 0 {
		e.clock.Advance(ahead)
	}
	if err := e.w.RecordSamples(e.ctx, b); err != nil {
		e.t.Fatalf("RecordSamples(%s at %v): %v", b.Server, b.At, err)
	}
}

func (e *wenv) usage(server string, from, to time.Time) []store.HourUsage {
	e.t.Helper()
	u, err := e.w.Usage(e.ctx, server, from, to)
	if err != nil {
		e.t.Fatalf("Usage(%s, %v, %v): %v", server, from, to, err)
	}
	return u
}

// hour is the usage of one GPU in the hour starting at h, or a zero
// HourUsage when there is none.
func (e *wenv) hour(server string, h time.Time, g int) store.HourUsage {
	e.t.Helper()
	for _, u := range e.usage(server, h, h.Add(time.Hour)) {
		if u.GPU == g {
			return u
		}
	}
	return store.HourUsage{}
}

func (e *wenv) live(server string) store.Live {
	e.t.Helper()
	l, err := e.w.Live(e.ctx, server)
	if err != nil {
		e.t.Fatalf("Live(%s): %v", server, err)
	}
	return l
}

// checkHour compares an hour's seconds.
func checkHour(t *testing.T, what string, got store.HourUsage, observed, busy, util, mem float64, users map[string]float64) {
	t.Helper()
	if got.Observed != observed || got.Busy != busy || got.UtilSecs != util || got.MemSecs != mem || !maps.Equal(got.Users, users) {
		t.Errorf("%s: observed %v busy %v util %v mem %v users %v; want %v %v %v %v %v", what,
			got.Observed, got.Busy, got.UtilSecs, got.MemSecs, got.Users, observed, busy, util, mem, users)
	}
}

func testSampleWeights(e *wenv) {
	t := e.t
	t0 := Base.Add(10 * time.Minute) // 09:10
	b := batch("h", t0, gpu(0, 50, 1000))
	b.Every = 20 * time.Second
	e.record(b)
	h9 := Base
	checkHour(t, "first batch: weighted by Every", e.hour("h", h9, 0), 20, 20, 50*20, 1000*20, nil)
	e.record(batch("h", t0.Add(30*time.Second), gpu(0, 0, 0)))
	checkHour(t, "+30s idle", e.hour("h", h9, 0), 50, 20, 1000, 20000, nil)
	// Half an hour without a batch: the next one stands for 5 minutes.
	e.record(batch("h", t0.Add(30*time.Minute+30*time.Second), gpu(0, 100, 10)))
	checkHour(t, "after a 30m gap", e.hour("h", h9, 0), 350, 320, 1000+100*300, 20000+10*300, nil)
	// The whole weight goes to the hour containing At, to the millisecond.
	e.record(batch("h", Base.Add(59*time.Minute+59*time.Second+999*time.Millisecond), gpu(0, 10, 0)))
	checkHour(t, "at 09:59:59.999", e.hour("h", h9, 0), 350+300, 320+300, 31000+10*300, 23000, nil)
	e.record(batch("h", Base.Add(time.Hour), gpu(0, 10, 0)))
	checkHour(t, "hour 9 after a batch at 10:00", e.hour("h", h9, 0), 650, 620, 34000, 23000, nil)
	checkHour(t, "at 10:00:00.000", e.hour("h", Base.Add(time.Hour), 0), 0.001, 0.001, 0.01, 0, nil)
	e.record(batch("h", Base.Add(time.Hour+29*time.Second+500*time.Millisecond), gpu(0, 0, 0)))
	checkHour(t, "hour 10 after 29.5s more", e.hour("h", Base.Add(time.Hour), 0), 29.501, 0.001, 0.01, 0, nil)
}

func testFirstWeight(e *wenv) {
	t := e.t
	for _, c := range []struct {
		server string
		every  time.Duration
		want   float64
	}{
		{"e20", 20 * time.Second, 20},
		{"e0", 0, 30},
		{"eneg", -time.Second, 30},
		{"esub", 500 * time.Microsecond, 30},
		{"e10m", 10 * time.Minute, 300},
		{"e5m", store.MaxSampleWeight, 300},
	} {
		b := batch(c.server, Base, gpu(0, 0, -1))
		b.Every = c.every
		e.record(b)
		checkHour(t, c.server, e.hour(c.server, Base, 0), c.want, 0, 0, 0, nil)
	}
}

func testSamplesResent(e *wenv) {
	t := e.t
	b1 := batch("h", Base, gpu(0, 40, 100))
	b2 := batch("h", Base.Add(30*time.Second), gpu(0, 60, 200, "alice"))
	e.record(b1)
	e.record(b2)
	want := e.usage("h", Base, Base.Add(time.Hour))
	wantLive := e.live("h")
	// An agent catching up resends: the same batch, an older one, or a
	// different reading with the same time. All are ignored.
	e.record(b2)
	e.record(b1)
	e.record(batch("h", Base.Add(30*time.Second), gpu(0, 99, 999, "mallory"), gpu(1, 99, 1)))
	e.record(batch("h", Base.Add(-time.Hour), gpu(0, 99, 999)))
	if got := e.usage("h", Base.Add(-time.Hour), Base.Add(time.Hour)); !slices.EqualFunc(got, want, sameUsage) {
		t.Errorf("usage after resends = %+v, want %+v", got, want)
	}
	if got := e.live("h"); !sameLive(got, wantLive) {
		t.Errorf("live after resends = %+v, want %+v", got, wantLive)
	}
	checkHour(t, "two batches", e.hour("h", Base, 0), 60, 60, 40*30+60*30, 100*30+200*30, map[string]float64{"alice": 30})
	// The next new batch is weighed from the last recorded one.
	e.record(batch("h", Base.Add(45*time.Second), gpu(0, 0, 0)))
	checkHour(t, "then +15s", e.hour("h", Base, 0), 75, 60, 3000, 9000, map[string]float64{"alice": 30})
}

func sameUsage(a, b store.HourUsage) bool {
	return a.Hour.Equal(b.Hour) && a.GPU == b.GPU && a.Observed == b.Observed && a.Busy == b.Busy &&
		a.UtilSecs == b.UtilSecs && a.MemSecs == b.MemSecs && maps.Equal(a.Users, b.Users)
}

func sameLive(a, b store.Live) bool {
	return a.Server == b.Server && a.SeenAt.Equal(b.SeenAt) && a.Agent == b.Agent && a.Err == b.Err &&
		slices.EqualFunc(a.GPUs, b.GPUs, func(x, y store.LiveGPU) bool {
			return x.At.Equal(y.At) && x.BusyAt.Equal(y.BusyAt) && x.FirstAt.Equal(y.FirstAt) &&
				fmt.Sprint(x.GPUSample) == fmt.Sprint(y.GPUSample)
		})
}

func testUtilUnknown(e *wenv) {
	t := e.t
	e.record(batch("h", Base, gpu(0, -1, 500, "alice"), gpu(1, -1, -1), gpu(2, 20, -1)))
	u := e.usage("h", Base, Base.Add(time.Hour))
	if len(u) != 2 || u[0].GPU != 0 || u[1].GPU != 2 {
		t.Fatalf("usage = %+v, want GPUs 0 (users only) and 2; GPU 1 (unknown, no users) adds nothing", u)
	}
	checkHour(t, "GPU 0, util unknown, alice on it", u[0], 0, 0, 0, 0, map[string]float64{"alice": 30})
	checkHour(t, "GPU 2, memory unknown", u[1], 30, 30, 600, 0, nil)
	l := e.live("h")
	if len(l.GPUs) != 3 {
		t.Fatalf("live GPUs = %+v, want 3", l.GPUs)
	}
	if g := l.GPUs[0]; g.Util != -1 || g.MemUsedMB != 500 || !g.BusyAt.Equal(Base) || !slices.Equal(g.Users, []string{"alice"}) {
		t.Errorf("GPU 0 live = %+v, want util -1, busy (a process) at %v", g, Base)
	}
	if g := l.GPUs[1]; g.Util != -1 || g.MemUsedMB != -1 || !g.BusyAt.IsZero() || !g.At.Equal(Base) {
		t.Errorf("GPU 1 live = %+v, want util -1, never busy, seen at %v", g, Base)
	}
}

func testErrHeartbeat(e *wenv) {
	t := e.t
	e.record(batch("h", Base, gpu(0, 50, 10)))
	hb := store.SampleBatch{Server: "h", At: Base.Add(30 * time.Second), Every: 30 * time.Second, Agent: "host1 gpuplan/2",
		Err: "nvidia-smi: Unable to determine the device handle for GPU0000:17:00.0: Unknown Error"}
	e.record(hb)
	l := e.live("h")
	if !l.SeenAt.Equal(hb.At) || l.Err != hb.Err || l.Agent != hb.Agent {
		t.Errorf("live after a failed reading = seen %v err %q agent %q; want %v, the error, %q", l.SeenAt, l.Err, l.Agent, hb.At, hb.Agent)
	}
	if len(l.GPUs) != 1 || !l.GPUs[0].At.Equal(Base) || l.GPUs[0].Util != 50 {
		t.Errorf("live GPUs after a failed reading = %+v, want the last good sample", l.GPUs)
	}
	checkHour(t, "a failed reading adds nothing", e.hour("h", Base, 0), 30, 30, 1500, 300, nil)
	bad := hb
	bad.At = hb.At.Add(time.Second)
	bad.GPUs = []store.GPUSample{gpu(0, 1, 1)}
	if err := e.w.RecordSamples(e.ctx, bad); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("an error with GPUs: %v, want ErrInvalid", err)
	}
	// The time the reading failed is not counted: the next batch stands
	// for the time since the failed one.
	e.record(batch("h", Base.Add(40*time.Second), gpu(0, 50, 10)))
	checkHour(t, "after recovery", e.hour("h", Base, 0), 40, 40, 2000, 400, nil)
	if l := e.live("h"); l.Err != "" || !l.SeenAt.Equal(Base.Add(40*time.Second)) || l.Agent != "host1 gpuplan/1" {
		t.Errorf("live after recovery = %+v, want no error", l)
	}
	// A server whose first batch is a failure.
	hb.Server = "f"
	e.record(hb)
	if l := e.live("f"); !l.SeenAt.Equal(hb.At) || l.Err == "" || len(l.GPUs) != 0 {
		t.Errorf("live of a server that only failed = %+v", l)
	}
	if u := e.usage("f", Base, Base.Add(time.Hour)); len(u) != 0 {
		t.Errorf("usage of a server that only failed = %+v", u)
	}
	e.record(batch("f", hb.At.Add(20*time.Second), gpu(0, 0, 0)))
	checkHour(t, "first good batch after a failure", e.hour("f", Base, 0), 20, 0, 0, 0, nil)
}

func testUserSeconds(e *wenv) {
	t := e.t
	e.record(batch("h", Base, gpu(0, 80, 2000, "alice", "bob"), gpu(1, 3, 100, "bob"), gpu(2, 3, 100)))
	e.record(batch("h", Base.Add(45*time.Second), gpu(0, 80, 2000, "alice"), gpu(1, 3, 100, "bob"), gpu(2, 3, 100)))
	checkHour(t, "GPU 0", e.hour("h", Base, 0), 75, 75, 80*75, 2000*75, map[string]float64{"alice": 75, "bob": 30})
	// Busy below BusyUtil when a process is on it; idle without one.
	checkHour(t, "GPU 1", e.hour("h", Base, 1), 75, 75, 3*75, 100*75, map[string]float64{"bob": 75})
	checkHour(t, "GPU 2", e.hour("h", Base, 2), 75, 0, 3*75, 100*75, nil)
}

func testLive(e *wenv) {
	t := e.t
	if l := e.live("h"); l.Server != "h" || !l.SeenAt.IsZero() || len(l.GPUs) != 0 || l.Err != "" {
		t.Errorf("live with no agent = %+v, want a zero SeenAt", l)
	}
	g0 := gpu(0, 0, 0)
	g0.UUID = "GPU-8c2f-0"
	e.record(batch("h", Base, g0, gpu(1, 90, 4000, "alice")))
	l := e.live("h")
	if !l.SeenAt.Equal(Base) || l.Agent != "host1 gpuplan/1" || len(l.GPUs) != 2 {
		t.Fatalf("live = %+v", l)
	}
	if g := l.GPUs[0]; g.UUID != "GPU-8c2f-0" || g.MemTotalMB != 81559 || !g.FirstAt.Equal(Base) || !g.At.Equal(Base) || !g.BusyAt.IsZero() {
		t.Errorf("idle GPU 0 = %+v", g)
	}
	if g := l.GPUs[1]; !g.BusyAt.Equal(Base) || g.Util != 90 || !slices.Equal(g.Users, []string{"alice"}) {
		t.Errorf("busy GPU 1 = %+v", g)
	}
	t1 := Base.Add(30 * time.Second)
	e.record(batch("h", t1, gpu(1, 0, 0), gpu(0, 60, 10)))
	l = e.live("h")
	if g := l.GPUs[0]; !g.BusyAt.Equal(t1) || !g.FirstAt.Equal(Base) || !g.At.Equal(t1) || g.UUID != "" {
		t.Errorf("GPU 0 busy now = %+v", g)
	}
	if g := l.GPUs[1]; !g.BusyAt.Equal(Base) || !g.FirstAt.Equal(Base) || !g.At.Equal(t1) || g.Users != nil {
		t.Errorf("GPU 1 idle since %v = %+v", Base, g)
	}
	// A GPU that stops reporting keeps its last sample; a new one starts.
	t2 := t1.Add(30 * time.Second)
	e.record(batch("h", t2, gpu(1, 0, 0), gpu(2, 0, 0)))
	l = e.live("h")
	if len(l.GPUs) != 3 || !l.GPUs[0].At.Equal(t1) || !l.GPUs[2].FirstAt.Equal(t2) || !l.SeenAt.Equal(t2) {
		t.Errorf("live = %+v", l)
	}
	// A resent batch is not counted; a heartbeat is.
	e.record(batch("h", t1, gpu(1, 0, 0)))
	hb := batch("h", t2.Add(time.Second))
	hb.Err = "nvidia-smi not found"
	e.record(hb)
	if l := e.live("h"); l.Batches != 4 || l.Err != "nvidia-smi not found" {
		t.Errorf("batches = %d (err %q), want 4 recorded", l.Batches, l.Err)
	}
	if _, err := e.w.Live(e.ctx, "Bad Name"); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Live(Bad Name): %v, want ErrInvalid", err)
	}
	if l := e.live("other"); !l.SeenAt.IsZero() || len(l.GPUs) != 0 {
		t.Errorf("another server's live = %+v", l)
	}
}

func testUsageRange(e *wenv) {
	t := e.t
	for m := 0; m < 3*60; m += 30 {
		at := Base.Add(time.Duration(m) * time.Minute)
		e.record(batch("h", at, gpu(1, 10, 0), gpu(0, 20, 0))) // out of order in the batch
	}
	type hg struct {
		h time.Duration
		g int
	}
	order := func(u []store.HourUsage) []hg {
		var out []hg
		for _, x := range u {
			out = append(out, hg{x.Hour.Sub(Base), x.GPU})
		}
		return out
	}
	all := []hg{{0, 0}, {0, 1}, {time.Hour, 0}, {time.Hour, 1}, {2 * time.Hour, 0}, {2 * time.Hour, 1}}
	for _, c := range []struct {
		from, to time.Time
		want     []hg
	}{
		{Base, Base.Add(3 * time.Hour), all},
		{Base.Add(-48 * time.Hour), Base.Add(48 * time.Hour), all},
		{Base.Add(30 * time.Minute), Base.Add(3 * time.Hour), all[2:]}, // hours that start in the range
		{Base, Base.Add(2 * time.Hour), all[:4]},                       // the end is exclusive
		{Base, Base.Add(2*time.Hour + time.Millisecond), all},
		{Base.Add(time.Hour), Base.Add(time.Hour), nil},
		{Base.Add(5 * time.Hour), Base.Add(9 * time.Hour), nil},
	} {
		if got := order(e.usage("h", c.from, c.to)); !slices.Equal(got, c.want) {
			t.Errorf("Usage(%v, %v) = %v, want %v", c.from.Sub(Base), c.to.Sub(Base), got, c.want)
		}
	}
	u := e.usage("h", Base, Base.Add(time.Hour))
	if !u[0].Hour.Equal(Base) || u[0].Hour.Location() != time.UTC {
		t.Errorf("hour = %v, want %v in UTC", u[0].Hour, Base)
	}
	// The first batch stands for Every (30s), the next for the 30m gap capped.
	checkHour(t, "09:00 GPU 0", u[0], 330, 330, 20*330, 0, nil)
	if u := e.usage("other", Base, Base.Add(3*time.Hour)); len(u) != 0 {
		t.Errorf("another server's usage = %+v", u)
	}
	if u := e.usage("h", Base.Add(-40*24*time.Hour), Base); len(u) != 0 {
		t.Errorf("40 days before = %+v", u)
	}
	for _, c := range []struct {
		server   string
		from, to time.Time
	}{
		{"h", Base.Add(time.Hour), Base},
		{"h", Base, Base.Add(40*24*time.Hour + time.Millisecond)},
		{"Bad Name", Base, Base.Add(time.Hour)},
	} {
		if _, err := e.w.Usage(e.ctx, c.server, c.from, c.to); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("Usage(%q, %v, %v): %v, want ErrInvalid", c.server, c.from, c.to, err)
		}
	}
}

func testUsageRetention(e *wenv) {
	t := e.t
	e.record(batch("h", Base.Add(10*time.Minute), gpu(0, 50, 0)))
	// Kept until UsageRetention after the hour ends, by the store's clock.
	e.clock.Set(Base.Add(time.Hour + store.UsageRetention - time.Millisecond))
	if u := e.usage("h", Base, Base.Add(time.Hour)); len(u) != 1 {
		t.Errorf("usage %v after the hour ended = %+v, want it kept", store.UsageRetention, u)
	}
	e.clock.Advance(time.Millisecond)
	if u := e.usage("h", Base, Base.Add(time.Hour)); len(u) != 0 {
		t.Errorf("usage past retention = %+v, want none", u)
	}
	// A batch for an hour already past retention updates the live state
	// only.
	old := e.now().Add(-store.UsageRetention - 2*time.Hour)
	e.record(batch("late", old, gpu(0, 50, 0)))
	if u := e.usage("late", old.Add(-time.Hour), old.Add(time.Hour)); len(u) != 0 {
		t.Errorf("usage of an hour past retention = %+v", u)
	}
	if l := e.live("late"); !l.SeenAt.Equal(old) || len(l.GPUs) != 1 {
		t.Errorf("live = %+v, want the sample", l)
	}
	// New hours are kept as before (and the old ones are gone for good).
	e.record(batch("h", e.now(), gpu(0, 50, 0)))
	if u := e.usage("h", e.now().Add(-time.Hour), e.now().Add(time.Hour)); len(u) != 1 || u[0].Observed != 300 {
		t.Errorf("usage after a long gap = %+v, want one hour with a capped 300s", u)
	}
	if u := e.usage("h", Base, Base.Add(time.Hour)); len(u) != 0 {
		t.Errorf("the expired hour came back: %+v", u)
	}
}

func testSampleValidation(e *wenv) {
	t := e.t
	long := strings.Repeat("u", 65)
	many := make([]string, 33)
	for i := range many {
		many[i] = fmt.Sprint("user", i)
	}
	mut := func(f func(b *store.SampleBatch)) store.SampleBatch {
		b := batch("h", Base, gpu(0, 10, 10), gpu(1, 10, 10))
		f(&b)
		return b
	}
	for name, b := range map[string]store.SampleBatch{
		"bad server":      mut(func(b *store.SampleBatch) { b.Server = "Bad Name" }),
		"no server":       mut(func(b *store.SampleBatch) { b.Server = "" }),
		"zero time":       mut(func(b *store.SampleBatch) { b.At = time.Time{} }),
		"clock ahead":     mut(func(b *store.SampleBatch) { b.At = Base.Add(store.MaxClockAhead + time.Second) }),
		"index -1":        mut(func(b *store.SampleBatch) { b.GPUs[0].Index = -1 }),
		"index 1024":      mut(func(b *store.SampleBatch) { b.GPUs[0].Index = 1024 }),
		"index twice":     mut(func(b *store.SampleBatch) { b.GPUs[1].Index = 0 }),
		"util -2":         mut(func(b *store.SampleBatch) { b.GPUs[0].Util = -2 }),
		"util 101":        mut(func(b *store.SampleBatch) { b.GPUs[1].Util = 101 }),
		"memory -2":       mut(func(b *store.SampleBatch) { b.GPUs[1].MemUsedMB = -2 }),
		"33 users":        mut(func(b *store.SampleBatch) { b.GPUs[0].Users = many }),
		"long user":       mut(func(b *store.SampleBatch) { b.GPUs[0].Users = []string{long} }),
		"empty user":      mut(func(b *store.SampleBatch) { b.GPUs[0].Users = []string{""} }),
		"user twice":      mut(func(b *store.SampleBatch) { b.GPUs[0].Users = []string{"a", "a"} }),
		"non-UTF-8 user":  mut(func(b *store.SampleBatch) { b.GPUs[0].Users = []string{"\xff"} }),
		"long error":      {Server: "h", At: Base, Err: strings.Repeat("e", 501)},
		"error with GPUs": mut(func(b *store.SampleBatch) { b.Err = "failed" }),
	} {
		if err := e.w.RecordSamples(e.ctx, b); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	if l := e.live("h"); !l.SeenAt.IsZero() {
		t.Fatalf("a refused batch was recorded: %+v", l)
	}
	// The limits themselves are fine.
	ok := batch("h", Base, gpu(1023, 100, 0, many[:32]...), gpu(0, -1, -1, strings.Repeat("ü", 32)))
	ok.GPUs[0].Users[0] = long[:64]
	e.record(ok)
	e.record(store.SampleBatch{Server: "h", At: Base.Add(time.Second), Err: strings.Repeat("e", 500)})
	if l := e.live("h"); len(l.GPUs) != 2 || l.GPUs[1].Index != 1023 || len(l.GPUs[1].Users) != 32 || len(l.Err) != 500 {
		t.Errorf("live = %+v", l)
	}
}

func (e *wenv) history(from, to time.Time) []string {
	e.t.Helper()
	h, err := e.w.History(e.ctx, "h", from, to)
	if err != nil {
		e.t.Fatalf("History(%v, %v): %v", from, to, err)
	}
	return ids(h)
}

func testHistory(e *wenv) {
	t := e.t
	ended := e.mustReserve(e.req(1, time.Time{}, time.Hour))                 // 09:00–10:00, runs out
	released := e.mustReserve(e.req(1, Base.Add(30*time.Minute), time.Hour)) // 09:30–, released at 09:45
	cancelled := e.mustReserve(e.req(1, Base.Add(5*time.Hour), time.Hour))   // 14:00, cancelled before it starts
	future := e.mustReserve(e.req(2, Base.Add(3*time.Hour), time.Hour))      // 12:00–13:00
	e.clock.Set(Base.Add(45 * time.Minute))
	for _, id := range []string{released.ID, cancelled.ID} {
		if _, err := e.s.Release(e.ctx, store.ReleaseRequest{RequestID: e.rid(), ID: id, Actor: "U1"}); err != nil {
			t.Fatal(err)
		}
	}
	e.clock.Set(Base.Add(11 * time.Hour))
	h, err := e.w.History(e.ctx, "h", Base.Add(-24*time.Hour), Base.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(h), []string{ended.ID, released.ID, future.ID}; !slices.Equal(got, want) {
		t.Fatalf("History = %v, want %v: ended and released included, the cancelled one gone, earliest start first", got, want)
	}
	if h[1].ReleasedBy != "U1" || !h[1].End.Equal(Base.Add(45*time.Minute)) || h[1].State(e.now()) != store.Released {
		t.Errorf("released = %+v", h[1])
	}
	if h[0].State(e.now()) != store.Expired || !slices.Equal(h[2].GPUs, future.GPUs) {
		t.Errorf("history = %+v", h)
	}
	for _, c := range []struct {
		from, to time.Duration
		want     []string
	}{
		{time.Hour, 3 * time.Hour, nil},                       // ended at 10:00, the next starts at 12:00
		{59 * time.Minute, 3 * time.Hour, []string{ended.ID}}, // overlaps by a minute
		{45 * time.Minute, 3*time.Hour + time.Minute, []string{ended.ID, future.ID}},
		{44 * time.Minute, 46 * time.Minute, []string{ended.ID, released.ID}},
		{0, 0, nil},
	} {
		if got := e.history(Base.Add(c.from), Base.Add(c.to)); !slices.Equal(got, c.want) {
			t.Errorf("History(+%v, +%v) = %v, want %v", c.from, c.to, got, c.want)
		}
	}
	if _, err := e.w.History(e.ctx, "Bad Name", Base, Base.Add(time.Hour)); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("History(Bad Name): %v, want ErrInvalid", err)
	}
	if _, err := e.w.History(e.ctx, "h", Base.Add(time.Hour), Base); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("History with to before from: %v, want ErrInvalid", err)
	}
	if h, err := e.w.History(e.ctx, "other", Base, Base.Add(time.Hour)); err != nil || len(h) != 0 {
		t.Errorf("another server's history = %v, %v", h, err)
	}
}

func testHistoryCleanup(e *wenv) {
	t := e.t
	if store.HistoryRetention != store.CleanupAfter || store.CleanupAfter < 15*24*time.Hour {
		t.Errorf("HistoryRetention %v, CleanupAfter %v: want equal, at least 15 days", store.HistoryRetention, store.CleanupAfter)
	}
	early := e.mustReserve(e.req(1, time.Time{}, time.Hour))            // ends 10:00
	late := e.mustReserve(e.req(1, Base.Add(2*time.Hour), 2*time.Hour)) // ends 13:00
	burst := func() {
		for k := range store.SweepEvery {
			e.mustReserve(e.req(1, e.now().Add(time.Duration(k)*time.Minute), time.Minute))
		}
	}
	window := func() []string {
		return e.history(Base, Base.Add(4*time.Hour))
	}
	e.clock.Set(Base.Add(time.Hour + store.HistoryRetention - time.Minute))
	burst()
	if got := window(); !slices.Equal(got, []string{early.ID, late.ID}) {
		t.Errorf("History %v after they ended = %v, want both", store.HistoryRetention-time.Minute, got)
	}
	e.clock.Advance(2 * time.Hour)
	burst()
	if got := window(); !slices.Equal(got, []string{late.ID}) {
		t.Errorf("History after the sweep = %v, want only %s (ended less than %v ago)", got, late.ID, store.HistoryRetention)
	}
}

func sub(channel string) store.Subscription {
	return store.Subscription{Channel: channel, Spec: "0 9 * * 1-5", TZ: "Asia/Seoul", Period: "day",
		Label: "weekdays 09:00", By: "U1", Since: Base.Add(1500 * time.Millisecond)}
}

func (e *wenv) subs() []store.Subscription {
	e.t.Helper()
	s, err := e.w.Subscriptions(e.ctx)
	if err != nil {
		e.t.Fatalf("Subscriptions: %v", err)
	}
	return s
}

func testSubscriptions(e *wenv) {
	t := e.t
	if s := e.subs(); len(s) != 0 {
		t.Errorf("no subscriptions yet: %+v", s)
	}
	c2 := sub("C2")
	c2.Servers = []string{"h", "a100"}
	c2.Period = "week"
	for _, s := range []store.Subscription{c2, sub("C1")} {
		if err := e.w.PutSubscription(e.ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	got := e.subs()
	if len(got) != 2 || got[0].Channel != "C1" || got[1].Channel != "C2" {
		t.Fatalf("Subscriptions = %+v, want C1 then C2", got)
	}
	if g := got[1]; g.Spec != c2.Spec || g.TZ != c2.TZ || g.Period != "week" || g.Label != c2.Label || g.By != "U1" ||
		!g.Since.Equal(c2.Since) || !slices.Equal(g.Servers, c2.Servers) {
		t.Errorf("C2 = %+v, want %+v", g, c2)
	}
	if got[0].Servers != nil {
		t.Errorf("C1 servers = %#v, want none (all servers)", got[0].Servers)
	}
	// Put replaces.
	c1 := sub("C1")
	c1.Spec, c1.TZ, c1.Label = "30 17 * * 5", "UTC", "fridays 17:30"
	if err := e.w.PutSubscription(e.ctx, c1); err != nil {
		t.Fatal(err)
	}
	if got := e.subs(); len(got) != 2 || got[0].Spec != c1.Spec || got[0].TZ != "UTC" {
		t.Errorf("after replacing C1: %+v", got)
	}
	if had, err := e.w.DeleteSubscription(e.ctx, "C1"); err != nil || !had {
		t.Errorf("DeleteSubscription(C1) = %v, %v; want true", had, err)
	}
	if had, err := e.w.DeleteSubscription(e.ctx, "C1"); err != nil || had {
		t.Errorf("DeleteSubscription(C1) again = %v, %v; want false", had, err)
	}
	if had, err := e.w.DeleteSubscription(e.ctx, "C9"); err != nil || had {
		t.Errorf("DeleteSubscription(C9) = %v, %v; want false", had, err)
	}
	if got := e.subs(); len(got) != 1 || got[0].Channel != "C2" {
		t.Errorf("after deleting C1: %+v", got)
	}
}

func testSubscriptionValidation(e *wenv) {
	t := e.t
	mut := func(f func(s *store.Subscription)) store.Subscription {
		s := sub("C1")
		f(&s)
		return s
	}
	for name, s := range map[string]store.Subscription{
		"no channel":   mut(func(s *store.Subscription) { s.Channel = "" }),
		"long channel": mut(func(s *store.Subscription) { s.Channel = strings.Repeat("C", 65) }),
		"no spec":      mut(func(s *store.Subscription) { s.Spec = "" }),
		"long spec":    mut(func(s *store.Subscription) { s.Spec = strings.Repeat("*", 201) }),
		"unknown zone": mut(func(s *store.Subscription) { s.TZ = "Mars/Olympus_Mons" }),
		"period month": mut(func(s *store.Subscription) { s.Period = "month" }),
		"no period":    mut(func(s *store.Subscription) { s.Period = "" }),
		"bad server":   mut(func(s *store.Subscription) { s.Servers = []string{"h", "Bad Name"} }),
	} {
		if err := e.w.PutSubscription(e.ctx, s); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	if s := e.subs(); len(s) != 0 {
		t.Errorf("refused subscriptions were stored: %+v", s)
	}
	edge := mut(func(s *store.Subscription) {
		s.Channel, s.Spec = strings.Repeat("C", 64), strings.Repeat("*", 200)
	})
	if err := e.w.PutSubscription(e.ctx, edge); err != nil {
		t.Errorf("a 64-byte channel and a 200-byte spec: %v", err)
	}
}

func (e *wenv) claim(job, holder string, lease time.Duration) bool {
	e.t.Helper()
	ok, err := e.w.Claim(e.ctx, job, holder, lease)
	if err != nil {
		e.t.Fatalf("Claim(%s, %s): %v", job, holder, err)
	}
	return ok
}

func testClaim(e *wenv) {
	t := e.t
	job := "digest:{C1}:2030-01-07T09:00" // braces and colons are fine
	if !e.claim(job, "r1", time.Minute) {
		t.Fatal("the first claim failed")
	}
	if e.claim(job, "r2", time.Minute) {
		t.Error("a second holder got a held job")
	}
	// The holder may claim again (a retry): true, and the lease restarts.
	e.clock.Advance(50 * time.Second)
	if !e.claim(job, "r1", time.Minute) {
		t.Error("the holder's own claim again was refused")
	}
	e.clock.Advance(50 * time.Second) // 100s after the first claim, 50s after the refresh
	if e.claim(job, "r2", time.Minute) {
		t.Error("r2 got the job while r1's refreshed lease runs")
	}
	// A lease that runs out (the holder died) lets another take over.
	e.clock.Advance(10 * time.Second)
	if !e.claim(job, "r2", time.Minute) {
		t.Error("r2 could not take over after r1's lease ran out")
	}
	if e.claim(job, "r1", time.Minute) {
		t.Error("r1 got back a job r2 holds")
	}
	// Jobs are independent.
	if !e.claim("digest:{C1}:2030-01-07T10:00", "r1", time.Minute) {
		t.Error("another job was not free")
	}
}

func testClaimDone(e *wenv) {
	t := e.t
	const job = "digest:C1:2030-01-07T09:00"
	if !e.claim(job, "r1", time.Minute) {
		t.Fatal("claim failed")
	}
	if err := e.w.Done(e.ctx, job); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"r1", "r2"} {
		if e.claim(job, h, time.Minute) {
			t.Errorf("%s claimed a finished job", h)
		}
	}
	e.clock.Advance(store.DoneRetention - time.Second)
	if e.claim(job, "r2", time.Minute) {
		t.Errorf("claimed %v after it was done", store.DoneRetention-time.Second)
	}
	e.clock.Advance(time.Second)
	if !e.claim(job, "r2", time.Minute) {
		t.Errorf("a job done %v ago is forgotten, so it can be claimed", store.DoneRetention)
	}
	// Done without a claim (a replica that ran it anyway) also closes it.
	if err := e.w.Done(e.ctx, "never-claimed"); err != nil {
		t.Fatal(err)
	}
	if e.claim("never-claimed", "r1", time.Minute) {
		t.Error("claimed a job marked done")
	}
	if err := e.w.Done(e.ctx, "never-claimed"); err != nil {
		t.Errorf("Done twice: %v", err)
	}
}

func testClaimValidation(e *wenv) {
	t := e.t
	for _, c := range []struct {
		job, holder string
		lease       time.Duration
	}{
		{"", "r1", time.Minute},
		{strings.Repeat("j", 201), "r1", time.Minute},
		{"job", "", time.Minute},
		{"job", "r1", 0},
		{"job", "r1", -time.Second},
		{"job", "r1", 500 * time.Microsecond},
	} {
		if _, err := e.w.Claim(e.ctx, c.job, c.holder, c.lease); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("Claim(%.10q, %q, %v): %v, want ErrInvalid", c.job, c.holder, c.lease, err)
		}
	}
	if err := e.w.Done(e.ctx, ""); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Done(\"\"): %v, want ErrInvalid", err)
	}
	if !e.claim(strings.Repeat("j", 200), "r1", time.Millisecond) {
		t.Error("a 200-byte job with a 1ms lease was refused")
	}
}

func testClaimConcurrent(e *wenv) {
	t := e.t
	const n = 50
	var won atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			ok, err := e.w.Claim(e.ctx, "digest:C1:2030-01-07T09:00", fmt.Sprintf("replica-%d", i), time.Minute)
			if err != nil {
				t.Errorf("replica %d: %v", i, err)
			}
			if ok {
				won.Add(1)
			}
		})
	}
	close(start)
	wg.Wait()
	if won.Load() != 1 {
		t.Errorf("%d of %d replicas claimed the job, want exactly 1", won.Load(), n)
	}
}
