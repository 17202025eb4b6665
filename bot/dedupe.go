package bot

import (
	"context"
	"sync"
	"time"
)

// memoryDeduper is the single-process Deduper: a map of keys to expiry,
// swept as it grows.
type memoryDeduper struct {
	mu    sync.Mutex
	seen  map[string]time.Time
	now   func() time.Time
	sweep time.Time
}

func newMemoryDeduper(now func() time.Time) *memoryDeduper {
	return &memoryDeduper{seen: map[string]time.Time{}, now: now}
}

func (d *memoryDeduper) FirstSeen(_ context.Context, key string, ttl time.Duration) (bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.now()
	if now.Sub(d.sweep) > time.Minute {
		for k, exp := range d.seen {
			if now.After(exp) {
				delete(d.seen, k)
			}
		}
		d.sweep = now
	}
	if exp, ok := d.seen[key]; ok && now.Before(exp) {
		return false, nil
	}
	d.seen[key] = now.Add(ttl)
	return true, nil
}
