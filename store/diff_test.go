package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *testClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// openBoth opens an embedded store and a Redis one on one injected clock,
// for the differential tests; both close with the test.
func openBoth(t *testing.T) (*testClock, *Embedded, *Redis) {
	t.Helper()
	srv := StartRedis(t)
	clock := &testClock{t: time.Date(2030, 1, 7, 9, 0, 0, 0, time.UTC)}
	emb, err := OpenEmbedded(filepath.Join(t.TempDir(), "db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emb.Close() })
	red := NewRedis(redis.NewClient(srv.Options()), clock.Now)
	t.Cleanup(func() { red.Close() })
	// Both stores draw the same id suffixes in the same order (each gets
	// the same calls), so their answers can be compared byte for byte.
	emb.idSuffix, red.idSuffix = seededSuffixes(), seededSuffixes()
	return clock, emb, red
}

// seededSuffixes gives the same id suffixes to each store it is given to.
func seededSuffixes() func() string {
	rng := rand.New(rand.NewPCG(7, 7))
	return func() string {
		return string([]byte{suffixFirst[rng.IntN(len(suffixFirst))], suffixRest[rng.IntN(len(suffixRest))], suffixRest[rng.IntN(len(suffixRest))]})
	}
}

// The Lua scripts mirror rules.go: thousands of random operations (valid
// and not, retries, conflicts, time passing) give the same answers from
// Redis and from the embedded store, down to the audit trail.
func TestRedisMatchesEmbedded(t *testing.T) {
	ctx := context.Background()
	clock, emb, red := openBoth(t)
	backends := []Store{emb, red}

	rng := rand.New(rand.NewPCG(2030, 1))
	servers := map[string]int{"d1": 4, "d2": 2}
	names := []string{"d1", "d2"}
	var ids []string
	type sent struct {
		rid string
		at  time.Time
	}
	var rids []sent
	owners := []string{"U1", "U2", "U3"}
	rid := func(i int) string {
		// Now and then a retry of a recent request (Redis keeps request ids
		// for a day of its own clock, the embedded store for a day of the
		// injected one: stay well inside both).
		if len(rids) > 0 && rng.IntN(10) == 0 {
			r := rids[len(rids)-1-rng.IntN(min(len(rids), 20))]
			if clock.Now().Sub(r.at) < 12*time.Hour {
				return r.rid
			}
		}
		id := fmt.Sprintf("r%d", i)
		rids = append(rids, sent{id, clock.Now()})
		return id
	}
	pickID := func() string {
		if len(ids) == 0 || rng.IntN(12) == 0 {
			return names[rng.IntN(2)] + "-" + fmt.Sprint(rng.IntN(500))
		}
		return ids[rng.IntN(len(ids))]
	}
	const n = 2500
	kinds := map[string]int{}
	for i := range n {
		var desc string
		var call func(Store) (any, error)
		switch p := rng.IntN(100); {
		case p < 12:
			d := time.Duration(rng.IntN(90)) * time.Minute
			clock.Advance(d)
			continue
		case p < 50:
			server := names[rng.IntN(2)]
			req := ReserveRequest{RequestID: rid(i), Server: server, ServerGPUs: servers[server], Owner: owners[rng.IntN(3)],
				Duration: time.Duration(1+rng.IntN(240)) * time.Minute, Note: fmt.Sprintf("<!here> job %d", i)}
			if rng.IntN(3) == 0 {
				for g := range servers[server] + 1 {
					if rng.IntN(2) == 0 {
						req.GPUs = append(req.GPUs, g)
					}
				}
			} else {
				req.Count = rng.IntN(servers[server] + 2)
			}
			if rng.IntN(3) > 0 {
				req.Start = clock.Now().Add(time.Duration(rng.IntN(8*60)-20) * time.Minute)
			}
			if rng.IntN(4) == 0 {
				req.MaxDuration = 3 * time.Hour
			}
			desc, call = fmt.Sprintf("%+v", req), func(s Store) (any, error) { return s.Reserve(ctx, req) }
		case p < 62:
			id := pickID()
			req := ReleaseRequest{RequestID: rid(i), ID: id, Actor: owners[rng.IntN(3)], Force: rng.IntN(5) == 0}
			desc, call = fmt.Sprintf("%+v", req), func(s Store) (any, error) { return s.Release(ctx, req) }
		case p < 75:
			req := ExtendRequest{RequestID: rid(i), ID: pickID(), Actor: owners[rng.IntN(3)], Force: rng.IntN(5) == 0,
				By: time.Duration(rng.IntN(240)-60) * time.Minute} // some shorten
			if rng.IntN(3) == 0 {
				req.MaxDuration = 5 * time.Hour
			}
			desc, call = fmt.Sprintf("%+v", req), func(s Store) (any, error) { return s.Extend(ctx, req) }
		case p < 80:
			id := pickID()
			desc, call = "Get "+id, func(s Store) (any, error) { return s.Get(ctx, id) }
		case p < 85:
			server := names[rng.IntN(2)]
			desc, call = "List "+server, func(s Store) (any, error) { return s.List(ctx, server) }
		case p < 88:
			id := pickID()
			desc, call = "MarkReminded "+id, func(s Store) (any, error) { return s.MarkReminded(ctx, id) }
		case p < 90:
			id := pickID()
			desc, call = "SetAnnouncement "+id, func(s Store) (any, error) { return nil, s.SetAnnouncement(ctx, id, "C1", fmt.Sprint(i)) }
		case p < 94:
			req := WaitRequest{RequestID: rid(i), Server: names[rng.IntN(2)], Count: rng.IntN(3), Owner: owners[rng.IntN(3)],
				For: time.Duration(rng.IntN(120)) * time.Minute}
			desc, call = fmt.Sprintf("%+v", req), func(s Store) (any, error) { return s.Wait(ctx, req) }
		case p < 97:
			server := names[rng.IntN(2)]
			desc, call = "Waiters "+server, func(s Store) (any, error) { return s.Waiters(ctx, server) }
		default:
			server := names[rng.IntN(2)]
			id := fmt.Sprintf("%s-w%d", server, rng.IntN(200))
			desc, call = "RemoveWaiter "+id, func(s Store) (any, error) { return s.RemoveWaiter(ctx, server, id) }
		}
		var got [2]string
		for b, s := range backends {
			v, err := call(s)
			got[b] = describe(v, err)
			if r, ok := v.(Reservation); ok && err == nil && r.ID != "" && !containsStr(ids, r.ID) {
				ids = append(ids, r.ID)
			}
		}
		kind := "ok"
		if f := strings.Fields(got[0]); len(f) > 2 && (f[0] == "conflict" || f[0] == "error") {
			kind = f[0]
			if f[0] == "error" {
				kind += " " + f[1] + " " + f[2]
			}
		}
		kinds[kind]++
		if got[0] != got[1] {
			t.Fatalf("op %d %s:\nembedded: %s\nredis:    %s", i, desc, got[0], got[1])
		}
	}
	t.Logf("answers by kind: %v", kinds)
	for _, server := range names {
		a, err1 := emb.Audit(ctx, server, 100000)
		b, err2 := red.Audit(ctx, server, 100000)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("%s audit differs (%v, %v):\nembedded %d events, redis %d", server, err1, err2, len(a), len(b))
		}
		if err := CheckInvariants(ctx, red.client, server); err != nil {
			t.Error(err)
		}
	}
}

func containsStr(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// describe renders a result so that two backends' answers compare as
// strings; a conflict's details count, not only its message.
func describe(v any, err error) string {
	var ce *ConflictError
	switch {
	case errors.As(err, &ce):
		return fmt.Sprintf("conflict %+v earliest %v %v", ce.Holders, ce.Earliest, ce.EarliestGPUs)
	case err != nil:
		return "error " + err.Error()
	}
	return fmt.Sprintf("%+v", v)
}
