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

// localSeenMax bounds the event loop's own duplicate cache: Slack retries
// within about 5 minutes, and a bot sees far fewer envelopes than this in
// a DedupeTTL.
const localSeenMax = 50000

// localSeen is the event loop's duplicate check: memory only, bounded
// (the oldest keys go first), so it never waits on anything.
type localSeen struct {
	mu    sync.Mutex
	seen  map[string]time.Time // key → expiry
	order []string             // insertion order, a ring of max keys
	next  int
	max   int
	now   func() time.Time
}

func newLocalSeen(max int, now func() time.Time) *localSeen {
	return &localSeen{seen: map[string]time.Time{}, order: make([]string, max), max: max, now: now}
}

// FirstSeen records key and reports whether it was new.
func (l *localSeen) FirstSeen(key string, ttl time.Duration) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if exp, ok := l.seen[key]; ok && now.Before(exp) {
		return false
	}
	if old := l.order[l.next]; old != "" {
		delete(l.seen, old)
	}
	l.order[l.next] = key
	l.next = (l.next + 1) % l.max
	l.seen[key] = now.Add(ttl)
	return true
}

// Len is how many keys are remembered.
func (l *localSeen) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.seen)
}
