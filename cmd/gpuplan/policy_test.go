package main

import (
	"context"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/store"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// Issue 12: the Redis policy was checked only at start. serve re-reads it
// and exports it: an eviction policy set under a running bot turns
// gpuplan_redis_policy_safe to 0 and is logged as an error; setting
// noeviction back turns it to 1.
func TestRedisPolicyRechecked(t *testing.T) {
	rdb := startOwnRedis(t)
	if !rdb.own {
		t.Skip("reconfigures Redis: needs a redis-server the test starts itself")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := store.OpenRedis(ctx, store.RedisOptions{URL: rdb.url})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	admin := redis.NewClient(mustParseURL(t, rdb.url))
	defer admin.Close()
	m := newMetrics()
	core, logs := observer.New(zap.InfoLevel)
	done := make(chan struct{})
	go func() { watchRedisPolicy(ctx, r, m, 20*time.Millisecond, zap.New(core)); close(done) }()
	gauge := func() float64 {
		n, err := testutil.GatherAndCount(promGatherer(m.reg), metricRedisPolicy)
		if err != nil || n != 1 {
			return -1
		}
		mfs, _ := promGatherer(m.reg).Gather()
		for _, mf := range mfs {
			if mf.GetName() == metricRedisPolicy {
				return mf.GetMetric()[0].GetGauge().GetValue()
			}
		}
		return -1
	}
	waitFor := func(want float64) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); gauge() != want; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s = %v, want %v", metricRedisPolicy, gauge(), want)
			}
		}
	}
	waitFor(1)
	if err := admin.ConfigSet(ctx, "maxmemory-policy", "allkeys-lru").Err(); err != nil {
		t.Fatal(err)
	}
	waitFor(0)
	if logs.FilterMessage("redis policy unsafe: reservations can be evicted").Len() == 0 {
		t.Error("the unsafe policy was not logged")
	}
	if err := admin.ConfigSet(ctx, "maxmemory-policy", "noeviction").Err(); err != nil {
		t.Fatal(err)
	}
	waitFor(1)
	cancel()
	<-done
}

func mustParseURL(t *testing.T, u string) *redis.Options {
	t.Helper()
	o, err := redis.ParseURL(u)
	if err != nil {
		t.Fatal(err)
	}
	return o
}
