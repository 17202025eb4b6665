package main

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/gpuplan/gpuplan/store"
	"go.uber.org/zap"
)

// metricRedisPolicy is 1 while Redis keeps reservations (maxmemory-policy
// noeviction), 0 once it would evict them. Only serve on Redis has it.
const metricRedisPolicy = "gpuplan_redis_policy_safe"

// redisPolicyEvery is how often serve re-reads Redis's settings: the
// start checks them once, but an operator (or a managed service) can
// change the eviction policy under a running bot.
const redisPolicyEvery = 5 * time.Minute

// watchRedisPolicy re-reads Redis's eviction and persistence settings
// every `every` until ctx ends, exporting the verdict as
// gpuplan_redis_policy_safe and logging an unsafe policy as an error each
// time it is seen (and a warning when the warnings change). A Redis that
// cannot be asked leaves the last verdict in place.
func watchRedisPolicy(ctx context.Context, r *store.Redis, m *Metrics, every time.Duration, log *zap.Logger) {
	policy := newGauge(metricRedisPolicy,
		"1 while Redis's maxmemory-policy keeps reservations (noeviction), 0 while it would evict them; re-read every 5 minutes.")
	g := policy.With()
	if err := m.reg.register(policy); err != nil {
		log.Warn("redis policy metric not registered", zap.Error(err))
	}
	var last []string
	check := func() {
		warnings, err := r.CheckPolicy(ctx)
		switch {
		case errors.Is(err, store.ErrUnsafeRedis):
			g.Set(0)
			log.Error("redis policy unsafe: reservations can be evicted", zap.Error(err))
		case err != nil:
			if ctx.Err() == nil {
				log.Warn("redis policy not checked", zap.Error(err))
			}
		default:
			g.Set(1)
			if !slices.Equal(warnings, last) {
				for _, w := range warnings {
					log.Warn("redis policy", zap.String("warning", w))
				}
				last = warnings
			}
		}
	}
	check()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			check()
		}
	}
}
