package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	bolt "go.etcd.io/bbolt"
)

// deduper is the part of the store these tests exercise.
type deduper interface {
	FirstSeen(ctx context.Context, key string, ttl time.Duration) (bool, error)
}

// dedupeContract is what both backends promise: a key is new once per
// ttl, bad keys are refused, and of many concurrent callers one wins.
// expire lets the ttl pass (moving the clock, or sleeping on Redis).
func dedupeContract(t *testing.T, d deduper, ttl time.Duration, expire func()) {
	ctx := context.Background()
	first := func(key string) bool {
		t.Helper()
		ok, err := d.FirstSeen(ctx, key, ttl)
		if err != nil {
			t.Fatalf("FirstSeen(%q): %v", key, err)
		}
		return ok
	}
	if !first("env:1") {
		t.Error("a new key is not new")
	}
	for range 2 {
		if first("env:1") {
			t.Error("a repeated key is new again")
		}
	}
	if !first("evt:1") {
		t.Error("another key is not new")
	}
	expire()
	if !first("env:1") {
		t.Error("after its ttl a key is not new again")
	}
	if first("env:1") {
		t.Error("a key recorded again after expiry is new twice")
	}
	for _, bad := range []struct {
		key string
		ttl time.Duration
	}{{"", ttl}, {strings.Repeat("k", MaxSeenKey+1), ttl}, {"\xff\xfe", ttl}, {"ok", 0}, {"ok", -time.Second}} {
		if ok, err := d.FirstSeen(ctx, bad.key, bad.ttl); !errors.Is(err, ErrInvalid) || ok {
			t.Errorf("FirstSeen(%.20q, %v) = %v, %v; want ErrInvalid", bad.key, bad.ttl, ok, err)
		}
	}
	if !first(strings.Repeat("k", MaxSeenKey)) {
		t.Error("a key of exactly the limit is refused")
	}

	// 50 goroutines, one key: exactly one is first.
	for round := range 3 {
		key := fmt.Sprintf("race:%d", round)
		var wins atomic.Int32
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range 50 {
			wg.Go(func() {
				<-start
				ok, err := d.FirstSeen(ctx, key, ttl)
				if err != nil {
					t.Error(err)
				}
				if ok {
					wins.Add(1)
				}
			})
		}
		close(start)
		wg.Wait()
		if n := wins.Load(); n != 1 {
			t.Errorf("round %d: %d of 50 concurrent callers were first, want 1", round, n)
		}
	}
}

func TestEmbeddedFirstSeen(t *testing.T) {
	clock := &testClock{t: time.Date(2030, 1, 7, 9, 0, 0, 0, time.UTC)} // diff_test.go
	path := filepath.Join(t.TempDir(), "db")
	e, err := OpenEmbedded(path, clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	dedupeContract(t, e, 10*time.Minute, func() { clock.Advance(10 * time.Minute) })

	// A key is still seen one millisecond before its expiry, new at it.
	ctx := context.Background()
	e.FirstSeen(ctx, "edge", time.Second)
	clock.Advance(999 * time.Millisecond)
	if ok, _ := e.FirstSeen(ctx, "edge", time.Second); ok {
		t.Error("a key is new before its ttl ran out")
	}
	clock.Advance(time.Millisecond)
	if ok, _ := e.FirstSeen(ctx, "edge", time.Second); !ok {
		t.Error("a key is not new when its ttl ran out")
	}

	// Expired keys are swept as new ones come: after 2,000 one-minute keys
	// a second apart, the bucket holds the last minute's and at most one
	// sweep interval more.
	e.db.NoSync = true // thousands of commits; durability is not the point here
	for i := range 2000 {
		if ok, err := e.FirstSeen(ctx, fmt.Sprintf("bulk:%d", i), time.Minute); err != nil || !ok {
			t.Fatalf("bulk %d: %v %v", i, ok, err)
		}
		clock.Advance(time.Second)
	}
	var n int
	e.db.View(func(tx *bolt.Tx) error { n = tx.Bucket(bucketSeen).Stats().KeyN; return nil })
	if n > 61+seenPruneEvery+10 {
		t.Errorf("the seen bucket holds %d keys after 2,000 one-minute keys a second apart; expired ones are not swept", n)
	}
	e.db.NoSync = false
	// The record survives a reopen: a redelivery after a restart is still dropped.
	e.FirstSeen(ctx, "durable", time.Hour)
	e.Close()
	e2, err := OpenEmbedded(path, clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	if ok, _ := e2.FirstSeen(ctx, "durable", time.Hour); ok {
		t.Error("a key is new again after a reopen")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e2.FirstSeen(cctx, "cancelled", time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

func TestRedisFirstSeen(t *testing.T) {
	srv := StartRedis(t)
	r := NewRedis(srv.Client(), nil)
	dedupeContract(t, r, 150*time.Millisecond, func() { time.Sleep(300 * time.Millisecond) })

	// The key and its ttl as Redis holds them.
	ctx := context.Background()
	admin := srv.Client()
	if ok, err := r.FirstSeen(ctx, "env:abc", 10*time.Minute); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if pttl := admin.PTTL(ctx, "gpuplan:seen:env:abc").Val(); pttl <= 9*time.Minute || pttl > 10*time.Minute {
		t.Errorf("PTTL of gpuplan:seen:env:abc = %v, want about 10m", pttl)
	}

	// Several clients (the replicas) share it.
	others := []*Redis{NewRedis(srv.Client(), nil), NewRedis(srv.Client(), nil)}
	for _, o := range others {
		if ok, _ := o.FirstSeen(ctx, "env:abc", time.Minute); ok {
			t.Error("another replica sees the key as new")
		}
	}
}

// A lost reply makes go-redis send the SET NX again; the re-sent one finds
// the key the first one wrote. The caller must still be told it was first,
// or nobody would handle the envelope.
func TestRedisFirstSeenLostReply(t *testing.T) {
	srv := StartRedis(t)
	proxy := StartProxy(t, srv.Addr)
	o := srv.Options()
	o.Addr = proxy.Addr
	c := redis.NewClient(o)
	defer c.Close()
	r := NewRedis(c, nil)
	ctx := context.Background()
	if err := c.Ping(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	proxy.DropNextReplies(1)
	ok, err := r.FirstSeen(ctx, "env:lost", time.Minute)
	if err != nil || !ok {
		t.Errorf("FirstSeen with the first reply lost = %v, %v; want true (the retry found its own write)", ok, err)
	}
	if ok, _ := r.FirstSeen(ctx, "env:lost", time.Minute); ok {
		t.Error("the key is new twice")
	}
}

// Redis gone: ErrUnavailable within the store's timeout, never a panic or
// a silent "seen" (the bot processes the envelope when it gets an error).
func TestRedisFirstSeenUnavailable(t *testing.T) {
	srv := StartRedis(t)
	srv.NeedOwn(t)
	ctx := context.Background()
	r, err := OpenRedis(ctx, RedisOptions{URL: srv.URL(), Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	srv.Kill()
	start := time.Now()
	ok, err := r.FirstSeen(ctx, "env:down", time.Minute)
	if !errors.Is(err, ErrUnavailable) || ok {
		t.Errorf("FirstSeen with Redis down = %v, %v; want ErrUnavailable", ok, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("FirstSeen with Redis down took %v", d)
	}
	srv.Restart()
	if ok, err := r.FirstSeen(ctx, "env:down", time.Minute); err != nil || !ok {
		t.Errorf("after the restart: %v, %v", ok, err)
	}
}
