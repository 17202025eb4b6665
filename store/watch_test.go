package store

import (
	"context"
	stdflag "flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// watchBackend is the watch half without FirstSeen (dedupe_test.go has
// its own cases).
type watchBackend interface {
	RecordSamples(ctx context.Context, b SampleBatch) error
	Usage(ctx context.Context, server string, from, to time.Time) ([]HourUsage, error)
	Live(ctx context.Context, server string) (Live, error)
	History(ctx context.Context, server string, from, to time.Time) ([]Reservation, error)
	PutSubscription(ctx context.Context, s Subscription) error
	DeleteSubscription(ctx context.Context, channel string) (bool, error)
	Subscriptions(ctx context.Context) ([]Subscription, error)
	Claim(ctx context.Context, job, holder string, lease time.Duration) (bool, error)
	Done(ctx context.Context, job string) error
}

var (
	_ watchBackend = (*Redis)(nil)
	_ watchBackend = (*Embedded)(nil)
)

// The samples script mirrors the Go rules: random batches (valid and
// not, resent, late, failed readings, unknown utilization, long gaps,
// hours past retention), claims and subscriptions give the same answers
// from Redis and from the embedded store, to the bit.
func TestWatchRedisMatchesEmbedded(t *testing.T) {
	ctx := context.Background()
	clock, emb, red := openBoth(t)
	backends := []watchBackend{emb, red}

	rng := rand.New(rand.NewPCG(2030, 2))
	servers := []string{"d1", "d2"}
	users := []string{"alice", "bob", "carol", "dæmon"}
	pick := func(v []string) string { return v[rng.IntN(len(v))] }
	last := map[string]time.Time{}
	const n = 1500
	kinds := map[string]int{}
	for i := range n {
		var desc string
		var call func(watchBackend) (any, error)
		switch p := rng.IntN(100); {
		case p < 20:
			d := time.Duration(rng.IntN(10*60)) * time.Second
			switch rng.IntN(40) {
			case 0:
				d = 36 * 24 * time.Hour // past usage retention
			case 1, 2:
				d = 3 * time.Hour
			}
			clock.Advance(d)
			continue
		case p < 60:
			b := randomBatch(rng, pick(servers), clock.Now(), last, users)
			desc, call = fmt.Sprintf("RecordSamples %+v", b), func(w watchBackend) (any, error) { return nil, w.RecordSamples(ctx, b) }
		case p < 72:
			from := clock.Now().Add(-time.Duration(rng.IntN(50*24)) * time.Hour).Add(time.Duration(rng.IntN(3600)) * time.Second)
			if rng.IntN(2) == 0 {
				from = clock.Now().Add(-time.Duration(rng.IntN(6*3600)) * time.Second)
			}
			to := from.Add(time.Duration(rng.IntN(45*24*60)) * time.Minute)
			if rng.IntN(3) == 0 {
				to = from.Add(time.Duration(rng.IntN(48)) * time.Hour)
			}
			server := pick(servers)
			desc, call = fmt.Sprintf("Usage %s %v %v", server, from, to), func(w watchBackend) (any, error) { return w.Usage(ctx, server, from, to) }
		case p < 80:
			server := pick(servers)
			desc, call = "Live "+server, func(w watchBackend) (any, error) { return w.Live(ctx, server) }
		case p < 88:
			job, holder := "job"+strconv.Itoa(rng.IntN(3)), "r"+strconv.Itoa(rng.IntN(3))
			lease := time.Duration(rng.IntN(10*60)) * time.Second
			desc, call = fmt.Sprintf("Claim %s %s %v", job, holder, lease), func(w watchBackend) (any, error) { return w.Claim(ctx, job, holder, lease) }
		case p < 91:
			job := "job" + strconv.Itoa(rng.IntN(4))
			desc, call = "Done "+job, func(w watchBackend) (any, error) { return nil, w.Done(ctx, job) }
		case p < 96:
			s := Subscription{Channel: "C" + strconv.Itoa(rng.IntN(4)), Spec: "0 9 * * *", TZ: pick([]string{"UTC", "Asia/Seoul", "Nowhere/Land"}),
				Period: pick([]string{"day", "week", "month"}), Label: "daily", By: "U1", Since: clock.Now(), Servers: []string{pick(servers)}}
			desc, call = fmt.Sprintf("PutSubscription %+v", s), func(w watchBackend) (any, error) { return nil, w.PutSubscription(ctx, s) }
		case p < 98:
			c := "C" + strconv.Itoa(rng.IntN(4))
			desc, call = "DeleteSubscription "+c, func(w watchBackend) (any, error) { return w.DeleteSubscription(ctx, c) }
		default:
			desc, call = "Subscriptions", func(w watchBackend) (any, error) { return w.Subscriptions(ctx) }
		}
		var got [2]string
		for b, w := range backends {
			v, err := call(w)
			got[b] = describe(v, err)
		}
		kind := strings.SplitN(desc, " ", 2)[0]
		switch {
		case strings.HasPrefix(got[0], "error"):
			kind += " refused"
		case kind == "Usage" && got[0] != "[]":
			kind += " with data"
		}
		kinds[kind]++
		if got[0] != got[1] {
			t.Fatalf("op %d %s:\nembedded: %s\nredis:    %s", i, desc, got[0], got[1])
		}
	}
	t.Logf("operations by kind: %v", kinds)
}

// randomBatch is a batch for server near now: mostly valid and newer than
// the last one, sometimes resent, late, failed or invalid.
func randomBatch(rng *rand.Rand, server string, now time.Time, last map[string]time.Time, users []string) SampleBatch {
	at := now.Add(-time.Duration(rng.IntN(120)) * time.Minute)
	if l, ok := last[server]; ok && rng.IntN(4) > 0 {
		at = l.Add(time.Duration(rng.IntN(40*60*1000)-2000) * time.Millisecond)
	}
	if at.After(last[server]) {
		last[server] = at
	}
	b := SampleBatch{Server: server, At: at, Every: time.Duration(rng.IntN(400)-20) * time.Second, Agent: "a" + strconv.Itoa(rng.IntN(2))}
	if rng.IntN(12) == 0 {
		b.Err = "nvidia-smi failed"
		if rng.IntN(4) > 0 {
			return b
		}
	}
	for g := range rng.IntN(5) {
		s := GPUSample{Index: g, Util: rng.IntN(103) - 1, MemUsedMB: rng.IntN(80000) - 1, MemTotalMB: 81559}
		switch rng.IntN(30) {
		case 0:
			s.Util = -2
		case 1:
			s.Index = 1024
		case 2, 3, 4, 5:
			s.Util = -1
		}
		if rng.IntN(20) == 0 && g > 0 {
			s.Index = g - 1 // twice
		}
		for _, u := range users {
			if rng.IntN(4) == 0 {
				s.Users = append(s.Users, u)
			}
		}
		b.GPUs = append(b.GPUs, s)
	}
	return b
}

var sizes = stdflag.Bool("sizes", false, "measure Redis memory per sample batch and per reservation (TestRedisSizes)")

// TestRedisSizes measures what the Redis store costs in memory: go test
// ./store -run TestRedisSizes -sizes -v. The figures are in docs/store.md.
func TestRedisSizes(t *testing.T) {
	if !*sizes {
		t.Skip("run with -sizes")
	}
	srv := StartRedis(t)
	ctx := context.Background()
	c := srv.Client()
	clock := &testClock{t: time.Date(2030, 1, 7, 9, 0, 0, 0, time.UTC)}
	s := NewRedis(redis.NewClient(srv.Options()), clock.Now)
	defer s.Close()
	used := func() int64 {
		c.Do(ctx, "MEMORY", "PURGE")
		info, err := c.Info(ctx, "memory").Result()
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.SplitSeq(info, "\r\n") {
			if v, ok := strings.CutPrefix(line, "used_memory:"); ok {
				n, _ := strconv.ParseInt(v, 10, 64)
				return n
			}
		}
		t.Fatal("no used_memory in INFO")
		return 0
	}
	keySize := func(key string) int64 {
		n, err := c.MemoryUsage(ctx, key, 0).Result()
		if err != nil {
			t.Fatalf("MEMORY USAGE %s: %v", key, err)
		}
		return n
	}

	// Sample batches: 8 GPUs, two users on half of them, every 30 s for a
	// day, on 4 servers.
	const servers, perServer = 4, 24 * 120
	// Load the script first: the script cache is not the data.
	if err := s.RecordSamples(ctx, SampleBatch{Server: "warmup", At: clock.t, GPUs: []GPUSample{{Index: 0}}}); err != nil {
		t.Fatal(err)
	}
	before := used()
	for i := range servers {
		server := fmt.Sprintf("node%d", i)
		for k := range perServer {
			b := SampleBatch{Server: server, At: clock.t.Add(time.Duration(k) * 30 * time.Second), Every: 30 * time.Second,
				Agent: "node1 gpuplan/0.1.0"}
			for g := range 8 {
				smp := GPUSample{Index: g, UUID: fmt.Sprintf("GPU-%08x-1111-2222-3333-444455556666", g), Util: (k + g) % 101,
					MemUsedMB: 40000 + g, MemTotalMB: 81559}
				if g%2 == 0 {
					smp.Users = []string{"alice", "bob"}
				}
				b.GPUs = append(b.GPUs, smp)
			}
			if err := s.RecordSamples(ctx, b); err != nil {
				t.Fatal(err)
			}
		}
	}
	delta := used() - before
	var keysTotal int64 // MEMORY USAGE over the servers' keys: the data alone
	watchKeys, _ := c.Keys(ctx, "gpuplan:{srv:node*}:*").Result()
	for _, key := range watchKeys {
		keysTotal += keySize(key)
	}
	t.Logf("samples: %d keys, MEMORY USAGE summed %d bytes, %.0f bytes per batch, %.0f bytes per server-day",
		len(watchKeys), keysTotal, float64(keysTotal)/float64(servers*perServer), float64(keysTotal)/servers)
	k := keysFor("node0")
	hour := k.use(clock.t.UnixMilli())
	t.Logf("samples: %d batches of 8 GPUs on %d servers: used_memory +%d bytes, %.0f bytes per batch",
		servers*perServer, servers, delta, float64(delta)/float64(servers*perServer))
	t.Logf("samples: MEMORY USAGE live hash %d bytes, one hour's usage hash (8 GPUs, 2 users on 4) %d bytes, %.0f bytes per batch",
		keySize(k.live), keySize(hour), float64(keySize(hour))/120)

	// Reservations: one GPU for 5 minutes, one a minute on each server (all
	// kept: none has ended CleanupAfter ago), each with a request id and a
	// 30-byte note, on 4 servers.
	const resvPer = 2000
	before = used()
	for j := range resvPer {
		clock.Advance(time.Minute)
		for i := range servers {
			_, err := s.Reserve(ctx, ReserveRequest{RequestID: fmt.Sprintf("U0123ABCD:%d-%d", i, j), Server: fmt.Sprintf("node%d", i),
				ServerGPUs: 8, Count: 1, Owner: "U0123ABCD", Duration: 5 * time.Minute, Note: "bert-base fine-tune, 10 epochs"})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	delta = used() - before
	t.Logf("reservations: %d on %d servers: used_memory +%d bytes, %.0f bytes per reservation",
		servers*resvPer, servers, delta, float64(delta)/float64(servers*resvPer))
	var req int64
	keys, _ := c.Keys(ctx, k.prefix+"req:*").Result()
	for _, key := range keys {
		req += keySize(key)
	}
	t.Logf("reservations: per reservation on node0: record (hash) %.0f, index (zset) %.0f, audit (stream) %.0f, request id (24 h) %.0f bytes",
		float64(keySize(k.resv))/resvPer, float64(keySize(k.ends))/resvPer, float64(keySize(k.audit))/resvPer, float64(req)/resvPer)
}
