package store_test

// The Redis backend against a real redis-server: the contract suite, the
// configuration check, contention across clients with a linearizability
// check, and faults (Redis killed, replies lost, Redis hung, the script
// cache flushed). Each test starts its own redis-server on a free port, or
// uses GPUPLAN_TEST_REDIS_URL (database 15, flushed); with neither, the
// tests skip and say so.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/redis/go-redis/v9"

	"github.com/gpuplan/gpuplan/store"
	"github.com/gpuplan/gpuplan/store/storetest"
)

func TestRedisContract(t *testing.T) {
	srv := store.StartRedis(t)
	open := func(t *testing.T, clock func() time.Time) store.Store {
		srv.Flush()
		return store.NewRedis(redis.NewClient(srv.Options()), clock)
	}
	storetest.Run(t, open)
	t.Run("Watch", func(t *testing.T) { storetest.RunWatch(t, open) })
}

// The same suite through a Redis Cluster client against a one-node
// cluster: a script touching keys in two slots would fail with CROSSSLOT.
func TestRedisClusterContract(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip(store.SkipNoRedis)
	}
	srv := store.StartRedis(t, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf")
	srv.NeedOwn(t)
	ctx := context.Background()
	admin := srv.Client()
	if err := admin.Do(ctx, "CLUSTER", "ADDSLOTSRANGE", 0, 16383).Err(); err != nil {
		t.Fatalf("CLUSTER ADDSLOTSRANGE: %v", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(admin.ClusterInfo(ctx).Val(), "cluster_state:ok") {
		if time.Now().After(deadline) {
			t.Fatal("one-node cluster did not come up")
		}
		time.Sleep(20 * time.Millisecond)
	}
	open := func(t *testing.T, clock func() time.Time) store.Store {
		if err := admin.FlushDB(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		s, err := store.OpenRedis(ctx, store.RedisOptions{URL: "redis://" + srv.Addr + "?addr=" + srv.Addr, Clock: clock})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := s.Client().(*redis.ClusterClient); !ok {
			t.Fatalf("client is %T, want a cluster client", s.Client())
		}
		return s
	}
	storetest.Run(t, open)
	// The watch scripts too: the usage read script takes many hour keys,
	// all under the server's tag; subscriptions and claims are one key each.
	t.Run("Watch", func(t *testing.T) { storetest.RunWatch(t, open) })
}

// With no injected clock every decision uses Redis TIME.
func TestRedisUsesRedisTime(t *testing.T) {
	srv := store.StartRedis(t)
	ctx := context.Background()
	s, err := store.OpenRedis(ctx, store.RedisOptions{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now, err := s.Now(ctx)
	if err != nil || time.Until(now).Abs() > 2*time.Second {
		t.Fatalf("Now = %v, %v; want about %v", now, err, time.Now())
	}
	r, err := s.Reserve(ctx, store.ReserveRequest{RequestID: "t1", Server: "h", ServerGPUs: 2, Count: 1, Owner: "U1", Duration: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if r.Start.Sub(now).Abs() > time.Second || r.State(time.Now()) != store.Active {
		t.Errorf("reservation %v–%v, state %s", r.Start, r.End, r.State(time.Now()))
	}
	// Expiry is read from the data with TIME, not from a key's TTL.
	time.Sleep(250 * time.Millisecond)
	if l, err := s.List(ctx, "h"); err != nil || len(l) != 0 {
		t.Errorf("List after the end = %v, %v", l, err)
	}
	if _, err := s.Reserve(ctx, store.ReserveRequest{RequestID: "t2", Server: "h", ServerGPUs: 2, GPUs: r.GPUs, Owner: "U2", Duration: time.Hour}); err != nil {
		t.Errorf("GPUs of an expired reservation: %v", err)
	}
}

func TestOpenRedisErrors(t *testing.T) {
	ctx := context.Background()
	const secret = "s3cr3t-hunter2"
	// Nothing listens on the port: a clear ErrUnavailable, fast, no secret.
	port := freePort(t)
	for _, opt := range []store.RedisOptions{
		{URL: "redis://:" + secret + "@127.0.0.1:" + port + "/0"},
		{URL: "redis://127.0.0.1:" + port, Password: secret},
	} {
		start := time.Now()
		_, err := store.OpenRedis(ctx, opt)
		if !errors.Is(err, store.ErrUnavailable) || !strings.Contains(err.Error(), "unreachable") {
			t.Errorf("OpenRedis to a closed port: %v, want ErrUnavailable saying unreachable", err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("took %v, want under 3s", d)
		}
		if err != nil && strings.Contains(err.Error(), secret) {
			t.Errorf("error shows the password: %v", err)
		}
	}
	for _, opt := range []store.RedisOptions{
		{URL: "redis://:" + secret + "@127.0.0.1:notaport"},
		{URL: "http://:" + secret + "@127.0.0.1"},
		{URL: "redis://:" + secret + "@h:1?bogus=1"},
		{},
		{SentinelAddrs: []string{"127.0.0.1:26379"}},
	} {
		_, err := store.OpenRedis(ctx, opt)
		if err == nil || strings.Contains(err.Error(), secret) {
			t.Errorf("OpenRedis(%+v) = %v; want an error without the password", opt, err)
		}
	}
	// A wrong password against a real Redis.
	srv := store.StartRedis(t, "--requirepass", "right-one")
	srv.NeedOwn(t)
	_, err := store.OpenRedis(ctx, store.RedisOptions{URL: "redis://" + srv.Addr, Password: secret})
	if !errors.Is(err, store.ErrUnavailable) || strings.Contains(err.Error(), secret) {
		t.Errorf("wrong password: %v", err)
	}
	s, err := store.OpenRedis(ctx, store.RedisOptions{URL: "redis://:right-one@" + srv.Addr + "/3"})
	if err != nil {
		t.Fatalf("right password: %v", err)
	}
	s.Close()
}

func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return port
}

func TestRedisCheckPolicy(t *testing.T) {
	srv := store.StartRedis(t)
	srv.NeedOwn(t)
	ctx := context.Background()
	s := store.NewRedis(srv.Client(), nil)
	admin := srv.Client()
	set := func(k, v string) {
		t.Helper()
		if err := admin.ConfigSet(ctx, k, v).Err(); err != nil {
			t.Fatalf("CONFIG SET %s %s: %v", k, v, err)
		}
	}
	warnings, err := s.CheckPolicy(ctx)
	if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "persistence is off") {
		t.Errorf("noeviction, no persistence: %q, %v; want one persistence warning", warnings, err)
	}
	set("save", "3600 1")
	if warnings, _ := s.CheckPolicy(ctx); len(warnings) != 1 || !strings.Contains(warnings[0], "RDB") {
		t.Errorf("RDB only: %q", warnings)
	}
	set("appendonly", "yes")
	if warnings, err := s.CheckPolicy(ctx); err != nil || len(warnings) != 0 {
		t.Errorf("noeviction + AOF: %q, %v; want nothing", warnings, err)
	}
	for _, p := range []string{"allkeys-lru", "allkeys-lfu", "allkeys-random", "volatile-lru", "volatile-ttl", "volatile-random"} {
		set("maxmemory-policy", p)
		_, err := s.CheckPolicy(ctx)
		if !errors.Is(err, store.ErrUnsafeRedis) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "set maxmemory-policy noeviction") {
			t.Errorf("%s: %v, want a refusal naming it and the fix", p, err)
		}
	}
	set("maxmemory-policy", "noeviction")
	// A Redis that forbids CONFIG: a warning, not a refusal.
	if err := admin.Do(ctx, "ACL", "SETUSER", "bot", "on", ">pw", "~*", "+@all", "-config").Err(); err != nil {
		t.Fatal(err)
	}
	o := srv.Options()
	o.Username, o.Password = "bot", "pw"
	limited := store.NewRedis(redis.NewClient(o), nil)
	defer limited.Close()
	warnings, err = limited.CheckPolicy(ctx)
	if err != nil || len(warnings) == 0 || !strings.Contains(warnings[0], "could not read") {
		t.Errorf("without CONFIG: %q, %v", warnings, err)
	}
}

// R1: 200 goroutines over 3 clients (3 replicas) race for the same GPUs.
func TestRedisContention(t *testing.T) {
	srv := store.StartRedis(t)
	ctx := context.Background()
	stores := make([]*store.Redis, 3)
	for i := range stores {
		o := srv.Options()
		o.PoolSize = 70
		stores[i] = store.NewRedis(redis.NewClient(o), nil)
		defer stores[i].Close()
	}
	now, err := stores[0].Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const n = 200
	var wg sync.WaitGroup
	var won, conflicts atomic.Int32
	errs := make(chan error, n)
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			req := store.ReserveRequest{RequestID: fmt.Sprintf("c-%d", i), Server: "hot", ServerGPUs: 8, GPUs: []int{2, 3, 4, 5},
				Owner: fmt.Sprintf("U%d", i), Start: now.Add(time.Hour + time.Duration(i)*time.Second), Duration: time.Hour}
			_, err := stores[i%3].Reserve(ctx, req)
			var ce *store.ConflictError
			switch {
			case err == nil:
				won.Add(1)
			case errors.As(err, &ce) && len(ce.Holders) == 1:
				conflicts.Add(1)
			default:
				errs <- fmt.Errorf("goroutine %d: %v", i, err)
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if won.Load() != 1 || conflicts.Load() != n-1 {
		t.Errorf("%d won, %d typed conflicts; want 1 and %d", won.Load(), conflicts.Load(), n-1)
	}
	if err := store.CheckInvariants(ctx, stores[0].Client(), "hot"); err != nil {
		t.Error(err)
	}
}

// A linearizability check (porcupine) of a mixed reserve/release/get
// workload from 3 clients on one server's GPUs, against a model of one
// GPU set. The clock is fixed so that every reservation stays pending and
// the model needs no time.
type linInput struct {
	op    string // reserve, release, get
	count int
	id    string
}

type linOutput struct {
	ok   bool // reserved / released / found
	id   string
	gpus []int
	err  string // conflict, not_found, or an unexpected error
}

type linState struct {
	next int              // the sequence number the next reservation gets
	held map[string][]int // id → GPUs
}

const linGPUs = 4

func linModel() porcupine.Model {
	return porcupine.Model{
		Init: func() any { return linState{next: 1, held: map[string][]int{}} },
		Step: func(st, in, out any) (bool, any) {
			s, i, o := st.(linState), in.(linInput), out.(linOutput)
			switch i.op {
			case "reserve":
				busy := map[int]bool{}
				for _, g := range s.held {
					for _, x := range g {
						busy[x] = true
					}
				}
				var free []int
				for g := 0; g < linGPUs && len(free) < i.count; g++ {
					if !busy[g] {
						free = append(free, g)
					}
				}
				if len(free) < i.count {
					return !o.ok && o.err == "conflict", s
				}
				id := "lin-" + strconv.Itoa(s.next)
				if !o.ok || o.id != id || !slices.Equal(o.gpus, free) {
					return false, s
				}
				held := make(map[string][]int, len(s.held)+1)
				for k, v := range s.held {
					held[k] = v
				}
				held[id] = free
				return true, linState{next: s.next + 1, held: held}
			case "release":
				if _, ok := s.held[i.id]; !ok {
					return !o.ok && o.err == "not_found", s
				}
				if !o.ok {
					return false, s
				}
				held := make(map[string][]int, len(s.held))
				for k, v := range s.held {
					if k != i.id {
						held[k] = v
					}
				}
				return true, linState{next: s.next, held: held}
			default: // get
				g, ok := s.held[i.id]
				if !ok {
					return !o.ok && o.err == "not_found", s
				}
				return o.ok && slices.Equal(o.gpus, g), s
			}
		},
		Equal: func(a, b any) bool {
			x, y := a.(linState), b.(linState)
			if x.next != y.next || len(x.held) != len(y.held) {
				return false
			}
			for k, v := range x.held {
				if !slices.Equal(v, y.held[k]) {
					return false
				}
			}
			return true
		},
		DescribeOperation: func(in, out any) string {
			return fmt.Sprintf("%+v → %+v", in, out)
		},
	}
}

func TestRedisLinearizable(t *testing.T) {
	srv := store.StartRedis(t)
	ctx := context.Background()
	fixed := storetest.Base
	clock := func() time.Time { return fixed }
	stores := make([]*store.Redis, 3)
	for i := range stores {
		stores[i] = store.NewRedis(redis.NewClient(srv.Options()), clock)
		defer stores[i].Close()
	}
	const workers, opsEach = 12, 40
	var maxID atomic.Int32
	var mu sync.Mutex
	known := map[string]string{} // "lin-<seq>" → the stored id
	var history []porcupine.Operation
	epoch := time.Now()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			s := stores[w%3]
			for k := range opsEach {
				var in linInput
				switch p := rng.IntN(10); {
				case p < 5:
					in = linInput{op: "reserve", count: 1 + rng.IntN(2)}
				case p < 8:
					in = linInput{op: "release", id: "lin-" + strconv.Itoa(1+rng.IntN(int(maxID.Load())+2))}
				default:
					in = linInput{op: "get", id: "lin-" + strconv.Itoa(1+rng.IntN(int(maxID.Load())+2))}
				}
				// The model names reservations by sequence ("lin-3"); the
				// store's ids carry a random suffix after it. A sequence
				// whose reserve has not returned yet is replaced by one
				// that never exists.
				realID := ""
				if in.op != "reserve" {
					mu.Lock()
					id, ok := known[in.id]
					mu.Unlock()
					if !ok {
						in.id, id = "lin-0", "lin-0"
					}
					realID = id
				}
				call := time.Since(epoch).Nanoseconds()
				var out linOutput
				var r store.Reservation
				var err error
				switch in.op {
				case "reserve":
					r, err = s.Reserve(ctx, store.ReserveRequest{RequestID: fmt.Sprintf("w%d-%d", w, k), Server: "lin", ServerGPUs: linGPUs,
						Count: in.count, Owner: "U", Start: fixed.Add(time.Hour), Duration: time.Hour})
				case "release":
					r, err = s.Release(ctx, store.ReleaseRequest{RequestID: fmt.Sprintf("w%d-%d", w, k), ID: realID, Actor: "U"})
				default:
					r, err = s.Get(ctx, realID)
				}
				ret := time.Since(epoch).Nanoseconds()
				switch {
				case err == nil:
					tail := strings.TrimPrefix(r.ID, "lin-")
					seq := tail[:len(tail)-len(strings.TrimLeft(tail, "0123456789"))]
					out = linOutput{ok: true, id: "lin-" + seq, gpus: r.GPUs}
					if n, _ := strconv.Atoi(seq); in.op == "reserve" {
						mu.Lock()
						known["lin-"+seq] = r.ID
						mu.Unlock()
						for m := maxID.Load(); int32(n) > m && !maxID.CompareAndSwap(m, int32(n)); m = maxID.Load() {
						}
					}
				case errors.Is(err, store.ErrConflict):
					out.err = "conflict"
				case errors.Is(err, store.ErrNotFound):
					out.err = "not_found"
				default:
					t.Errorf("%+v: unexpected %v", in, err)
					out.err = err.Error()
				}
				mu.Lock()
				history = append(history, porcupine.Operation{ClientId: w, Input: in, Call: call, Output: out, Return: ret})
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	res, _ := porcupine.CheckOperationsVerbose(linModel(), history, 20*time.Second)
	if res != porcupine.Ok {
		t.Fatalf("history of %d operations is not linearizable (result %v)", len(history), res)
	}
	if err := store.CheckInvariants(ctx, stores[0].Client(), "lin"); err != nil {
		t.Error(err)
	}
	var oks int
	for _, op := range history {
		if op.Output.(linOutput).ok {
			oks++
		}
	}
	t.Logf("%d operations, %d succeeded, linearizable", len(history), oks)
}

// F1: Redis is SIGKILLed mid-workload. Every call answers within 3 s;
// failures are ErrUnavailable; after a restart (AOF, fsync always) calls
// work again, nothing is half written, every acknowledged reservation is
// there, and retrying a failed request with its request id applies it once.
func TestRedisKilledMidWorkload(t *testing.T) {
	srv := store.StartRedis(t, "--appendonly", "yes", "--appendfsync", "always")
	srv.NeedOwn(t)
	ctx := context.Background()
	s, err := store.OpenRedis(ctx, store.RedisOptions{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	type result struct {
		req  store.ReserveRequest
		id   string
		err  error
		took time.Duration
		at   time.Time
	}
	const workers = 4
	var mu sync.Mutex
	var results []result
	var restarted atomic.Bool
	var okAfterRestart atomic.Int32
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				req := store.ReserveRequest{RequestID: fmt.Sprintf("k%d-%d", w, i), Server: fmt.Sprintf("kill%d", w), ServerGPUs: 2,
					Count: 1, Owner: "U", Start: time.Now().Add(time.Duration(i+1) * time.Minute), Duration: time.Minute}
				t0 := time.Now()
				r, err := s.Reserve(ctx, req)
				mu.Lock()
				results = append(results, result{req: req, id: r.ID, err: err, took: time.Since(t0), at: t0})
				mu.Unlock()
				if err == nil && restarted.Load() {
					okAfterRestart.Add(1)
				}
				time.Sleep(2 * time.Millisecond)
			}
		})
	}
	time.Sleep(300 * time.Millisecond)
	srv.Kill()
	killed := time.Now()
	time.Sleep(1500 * time.Millisecond)
	srv.Restart()
	restarted.Store(true)
	for deadline := time.Now().Add(5 * time.Second); okAfterRestart.Load() < 2*workers && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if okAfterRestart.Load() < 2*workers {
		t.Fatalf("only %d successes after the restart", okAfterRestart.Load())
	}

	var failed, duringOutage int
	acked := map[string]string{} // request id → reservation id
	for _, r := range results {
		if r.took > 3*time.Second {
			t.Errorf("%s took %v, want under 3s", r.req.RequestID, r.took)
		}
		switch {
		case r.err == nil:
			acked[r.req.RequestID] = r.id
		case errors.Is(r.err, store.ErrUnavailable):
			failed++
			if !strings.Contains(r.err.Error(), "Redis at "+srv.Addr) {
				t.Errorf("error does not say which Redis: %v", r.err)
			}
		default:
			t.Errorf("%s: %v, want success or ErrUnavailable", r.req.RequestID, r.err)
		}
		if r.at.After(killed) && r.err != nil {
			duringOutage++
		}
	}
	if duringOutage == 0 {
		t.Fatal("no call failed while Redis was down: the test did not test anything")
	}
	t.Logf("%d calls, %d failed with ErrUnavailable during the outage", len(results), failed)
	for w := range workers {
		if err := store.CheckInvariants(ctx, s.Client(), fmt.Sprintf("kill%d", w)); err != nil {
			t.Error(err)
		}
	}
	for rid, id := range acked {
		if _, err := s.Get(ctx, id); err != nil {
			t.Errorf("acknowledged %s (%s) is gone after the restart: %v", id, rid, err)
		}
	}
	// The user retries what failed, exactly as sent: whether or not the
	// first try reached Redis, it applies once.
	perServer := map[string]int{}
	for _, r := range results {
		perServer[r.req.Server]++
		if r.err == nil {
			continue
		}
		if _, err := s.Reserve(ctx, r.req); err != nil {
			t.Errorf("retry of %s: %v", r.req.RequestID, err)
		}
	}
	for server, n := range perServer {
		l, err := s.List(ctx, server)
		if err != nil || len(l) != n {
			t.Errorf("%s: %d reservations after retries, want one per request (%d): %v", server, len(l), n, err)
		}
		if err := store.CheckInvariants(ctx, s.Client(), server); err != nil {
			t.Error(err)
		}
	}
}

// F3: the reply to a reserve is lost after Redis applied it. go-redis
// resends it on a fresh connection; the request id makes the resend return
// the first answer: success, never a conflict with itself.
func TestRedisLostReply(t *testing.T) {
	srv := store.StartRedis(t)
	ctx := context.Background()
	proxy := store.StartProxy(t, srv.Addr)
	o := srv.Options()
	o.Addr = proxy.Addr
	s := store.NewRedis(redis.NewClient(o), nil)
	defer s.Close()
	req := store.ReserveRequest{RequestID: "lost-1", Server: "lost", ServerGPUs: 2, Count: 2, Owner: "U1", Duration: time.Hour}
	if _, err := s.Now(ctx); err != nil { // open a connection
		t.Fatal(err)
	}
	proxy.DropNextReplies(1)
	r, err := s.Reserve(ctx, req)
	if err != nil {
		t.Fatalf("reserve whose first reply was lost: %v (the client's resend must get the stored answer)", err)
	}
	if l, _ := s.List(ctx, "lost"); len(l) != 1 || l[0].ID != r.ID {
		t.Errorf("List = %+v, want only %s", l, r.ID)
	}

	// Without client retries the reply is simply lost. The store looks up
	// the request id and answers what happened: the reservation was made
	// (issue 12, item 3: it used to say ErrUnavailable, which the user was
	// told as "nothing was changed", and a retry booked a second one).
	o.MaxRetries = -1
	once := store.NewRedis(redis.NewClient(o), nil)
	defer once.Close()
	once.Now(ctx)
	req2 := store.ReserveRequest{RequestID: "lost-2", Server: "lost2", ServerGPUs: 2, Count: 2, Owner: "U1", Duration: time.Hour}
	proxy.DropNextReplies(1)
	got, err := once.Reserve(ctx, req2)
	if err != nil {
		t.Fatalf("lost reply without retries: %v, want the reservation it made", err)
	}
	applied, _ := s.List(ctx, "lost2")
	if len(applied) != 1 || applied[0].ID != got.ID {
		t.Fatalf("stored %+v, answered %s", applied, got.ID)
	}
	again, err := once.Reserve(ctx, req2)
	if err != nil || again.ID != applied[0].ID {
		t.Errorf("caller's retry = %+v, %v; want %s and no conflict", again, err, applied[0].ID)
	}
	// The same for release and extend (their scripts loaded first: a lost
	// NOSCRIPT reply is a script that did not run, and is reported so).
	warm, err := once.Reserve(ctx, store.ReserveRequest{Server: "warm", ServerGPUs: 1, Count: 1, Owner: "U1", Duration: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := once.Extend(ctx, store.ExtendRequest{ID: warm.ID, Actor: "U1", By: time.Hour}); err != nil {
		t.Fatal(err)
	}
	if _, err := once.Release(ctx, store.ReleaseRequest{ID: warm.ID, Actor: "U1"}); err != nil {
		t.Fatal(err)
	}
	proxy.DropNextReplies(1)
	ext, err := once.Extend(ctx, store.ExtendRequest{RequestID: "lost-ext", ID: got.ID, Actor: "U1", By: time.Hour})
	if err != nil || !ext.End.Equal(got.End.Add(time.Hour)) {
		t.Errorf("extend with a lost reply = %+v, %v", ext, err)
	}
	proxy.DropNextReplies(1)
	rel, err := once.Release(ctx, store.ReleaseRequest{RequestID: "lost-rel", ID: got.ID, Actor: "U1"})
	if err != nil || rel.ReleasedBy != "U1" {
		t.Errorf("release with a lost reply = %+v, %v", rel, err)
	}
	if err := store.CheckInvariants(ctx, s.Client(), "lost2"); err != nil {
		t.Error(err)
	}
}

// Issue 12, item 3: a reserve whose request is still on its way when the
// caller gives up. The store checks the request id, finds no answer, and
// fences that attempt: the caller is told nothing was changed, which stays
// true when the stuck request finally reaches Redis; a retry with the same
// request id then books exactly once. When Redis answers neither the call
// nor the check, the error says the outcome is unknown (never "nothing was
// changed"), and the retry with the same id applies once.
func TestRedisUnknownOutcome(t *testing.T) {
	srv := store.StartRedis(t)
	ctx := context.Background()
	proxy := store.StartProxy(t, srv.Addr)
	s, err := store.OpenRedis(ctx, store.RedisOptions{URL: "redis://" + proxy.Addr + "/" + strconv.Itoa(srv.DB), Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	direct := store.NewRedis(srv.Client(), nil)
	defer direct.Close()
	req := store.ReserveRequest{RequestID: "stuck-1", Server: "stuck", ServerGPUs: 2, Count: 1, Owner: "U1", Duration: time.Hour}

	// The caller is told when its reply was lost and the store is checking
	// (a user sees "the store did not answer; checking…"), once per call.
	var checked []string
	cctx := store.WithChecking(ctx, func(op string) { checked = append(checked, op) })
	proxy.HoldRequests(true) // the open connection's requests are stuck; new ones pass
	_, err = s.Reserve(cctx, req)
	if len(checked) != 1 || checked[0] != "reserve" {
		t.Errorf("checking notices %q, want one for the reserve", checked)
	}
	if !errors.Is(err, store.ErrUnavailable) || errors.Is(err, store.ErrOutcomeUnknown) || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("stuck reserve: %v; want checked: not applied", err)
	}
	proxy.HoldRequests(false) // the stuck request reaches Redis now
	time.Sleep(200 * time.Millisecond)
	if l, err := direct.List(ctx, "stuck"); err != nil || len(l) != 0 {
		t.Fatalf("after the stuck request arrived: %+v, %v; want nothing booked (it was fenced)", l, err)
	}
	r1, err := s.Reserve(cctx, req)
	if err != nil {
		t.Fatalf("retry with the same request id: %v", err)
	}
	if len(checked) != 1 {
		t.Errorf("a call whose reply came was said to be checking: %q", checked)
	}
	if l, _ := direct.List(ctx, "stuck"); len(l) != 1 || l[0].ID != r1.ID {
		t.Fatalf("after the retry: %+v", l)
	}

	// Redis answers nothing: the outcome is unknown and said so.
	req2 := store.ReserveRequest{RequestID: "stuck-2", Server: "stuck", ServerGPUs: 2, Count: 1, Owner: "U2", Duration: time.Hour}
	proxy.Hang(true)
	start := time.Now()
	_, err = s.Reserve(ctx, req2)
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("took %v", took)
	}
	var ue *store.OutcomeUnknownError
	if !errors.As(err, &ue) || !errors.Is(err, store.ErrOutcomeUnknown) || !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("hung reserve: %v; want *OutcomeUnknownError", err)
	}
	if strings.Contains(err.Error(), "nothing was changed") || !strings.Contains(err.Error(), "may or may not") {
		t.Errorf("unknown outcome reads %q", err)
	}
	proxy.Hang(false)
	time.Sleep(100 * time.Millisecond)
	r2, err := s.Reserve(ctx, req2)
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Reserve(ctx, req2)
	if err != nil || again.ID != r2.ID {
		t.Errorf("second retry = %+v, %v", again, err)
	}
	l, _ := direct.List(ctx, "stuck")
	owners := map[string]int{}
	for _, r := range l {
		owners[r.Owner]++
	}
	if len(l) != 2 || owners["U1"] != 1 || owners["U2"] != 1 {
		t.Errorf("booked %+v; want one each", l)
	}
	if err := store.CheckInvariants(ctx, srv.Client(), "stuck"); err != nil {
		t.Error(err)
	}
}

// F2/F8: Redis stops answering (connections stay open). The caller gets
// ErrUnavailable within 3 s, and everything works once it answers again.
func TestRedisHung(t *testing.T) {
	srv := store.StartRedis(t)
	ctx := context.Background()
	proxy := store.StartProxy(t, srv.Addr)
	s, err := store.OpenRedis(ctx, store.RedisOptions{URL: "redis://" + proxy.Addr + "/" + strconv.Itoa(srv.DB)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	proxy.Hang(true)
	for _, op := range []func() error{
		func() error {
			_, err := s.Reserve(ctx, store.ReserveRequest{RequestID: "h1", Server: "hung", ServerGPUs: 1, Count: 1, Owner: "U", Duration: time.Hour})
			return err
		},
		func() error { _, err := s.List(ctx, "hung"); return err },
		func() error { _, err := s.Get(ctx, "hung-1"); return err },
	} {
		start := time.Now()
		err := op()
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("took %v with Redis hung, want under 3s", took)
		}
		if !errors.Is(err, store.ErrUnavailable) || !strings.Contains(err.Error(), "did not answer in time") {
			t.Errorf("hung Redis: %v, want ErrUnavailable", err)
		}
	}
	proxy.Hang(false)
	r, err := s.Reserve(ctx, store.ReserveRequest{RequestID: "h1", Server: "hung", ServerGPUs: 1, Count: 1, Owner: "U", Duration: time.Hour})
	if err != nil {
		t.Fatalf("after Redis answers again: %v", err)
	}
	if l, _ := s.List(ctx, "hung"); len(l) != 1 || l[0].ID != r.ID {
		t.Errorf("List = %+v", l)
	}
}

// F4: SCRIPT FLUSH (a restart, a failover) between and during calls is
// invisible to users: Script.Run falls back to EVAL.
func TestRedisScriptFlush(t *testing.T) {
	srv := store.StartRedis(t)
	ctx := context.Background()
	s := store.NewRedis(srv.Client(), nil)
	admin := srv.Client()
	flush := func() {
		if err := admin.ScriptFlush(ctx).Err(); err != nil {
			t.Fatal(err)
		}
	}
	flush()
	r, err := s.Reserve(ctx, store.ReserveRequest{RequestID: "f1", Server: "fl", ServerGPUs: 4, Count: 1, Owner: "U", Duration: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	flush()
	if _, err := s.Extend(ctx, store.ExtendRequest{RequestID: "f2", ID: r.ID, Actor: "U", By: time.Hour}); err != nil {
		t.Error(err)
	}
	flush()
	if _, err := s.List(ctx, "fl"); err != nil {
		t.Error(err)
	}
	flush()
	if _, err := s.Release(ctx, store.ReleaseRequest{RequestID: "f3", ID: r.ID, Actor: "U"}); err != nil {
		t.Error(err)
	}
	// And flushing every few milliseconds under load.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(3 * time.Millisecond):
				admin.ScriptFlush(ctx)
			}
		}
	})
	var errs atomic.Int32
	var load sync.WaitGroup
	for w := range 4 {
		load.Go(func() {
			for i := range 50 {
				srvName := fmt.Sprintf("fl%d", w)
				r, err := s.Reserve(ctx, store.ReserveRequest{RequestID: fmt.Sprintf("fl%d-%d", w, i), Server: srvName, ServerGPUs: 1, Count: 1, Owner: "U", Duration: time.Hour})
				if err == nil {
					_, err = s.Release(ctx, store.ReleaseRequest{RequestID: fmt.Sprintf("flr%d-%d", w, i), ID: r.ID, Actor: "U"})
				}
				if err != nil {
					errs.Add(1)
					t.Error(err)
				}
			}
		})
	}
	load.Wait()
	close(stop)
	wg.Wait()
	if errs.Load() != 0 {
		t.Errorf("%d user-visible errors with the script cache flushed", errs.Load())
	}
}

// BenchmarkRedisReserve measures reservations per second through the full
// path (validation, Script.Run, JSON) from 50 goroutines, each on its own
// server; the clock moves 10 s per call so that every server keeps a few
// live reservations and cleanup runs, as in use.
func BenchmarkRedisReserve(b *testing.B) {
	srv := store.StartRedis(b)
	o := srv.Options()
	o.PoolSize = 64
	var tick atomic.Int64
	clock := func() time.Time { return storetest.Base.Add(time.Duration(tick.Add(1)) * 10 * time.Second) }
	s := store.NewRedis(redis.NewClient(o), clock)
	defer s.Close()
	ctx := context.Background()
	var gid, fails atomic.Int64
	b.SetParallelism(max(1, 50/runtime.GOMAXPROCS(0)))
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		g := gid.Add(1)
		server := fmt.Sprintf("bench-%d", g)
		for i := 0; pb.Next(); i++ {
			_, err := s.Reserve(ctx, store.ReserveRequest{RequestID: fmt.Sprintf("b%d-%d", g, i), Server: server, ServerGPUs: 8,
				Count: 1, Owner: "U", Duration: time.Minute})
			if err != nil {
				fails.Add(1)
			}
		}
	})
	b.StopTimer()
	if fails.Load() > 0 {
		b.Fatalf("%d reserves failed", fails.Load())
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "reserves/s")
}

// The Sentinel path of OpenRedis: the client asks a Sentinel for the
// master and works through it.
func TestRedisSentinel(t *testing.T) {
	srv := store.StartRedis(t)
	srv.NeedOwn(t)
	sentinel := store.StartSentinel(t, "gpuplan-master", srv.Addr)
	ctx := context.Background()
	s, err := store.OpenRedis(ctx, store.RedisOptions{SentinelAddrs: []string{sentinel}, MasterName: "gpuplan-master"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := s.Reserve(ctx, store.ReserveRequest{RequestID: "s1", Server: "sent", ServerGPUs: 2, Count: 2, Owner: "U", Duration: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	direct := store.NewRedis(srv.Client(), nil)
	if got, err := direct.Get(ctx, r.ID); err != nil || got.Owner != "U" {
		t.Errorf("the reservation made through Sentinel is not on the master: %+v, %v", got, err)
	}
	if _, err := store.OpenRedis(ctx, store.RedisOptions{SentinelAddrs: []string{sentinel}, MasterName: "nope", Timeout: 300 * time.Millisecond}); !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("unknown master: %v, want ErrUnavailable", err)
	}
}

// F6: Redis at maxmemory with noeviction refuses the script at its first
// write: a clear ErrUnavailable, nothing half written, and it works again
// once there is room.
func TestRedisOutOfMemory(t *testing.T) {
	srv := store.StartRedis(t)
	srv.NeedOwn(t)
	ctx := context.Background()
	admin := srv.Client()
	s := store.NewRedis(srv.Client(), nil)
	req := store.ReserveRequest{RequestID: "oom", Server: "oom", ServerGPUs: 2, Count: 1, Owner: "U", Duration: time.Hour}
	if _, err := s.Reserve(ctx, store.ReserveRequest{RequestID: "pre", Server: "oom", ServerGPUs: 2, Count: 1, Owner: "U", Duration: time.Hour}); err != nil {
		t.Fatal(err)
	}
	if err := admin.ConfigSet(ctx, "maxmemory", "1").Err(); err != nil {
		t.Fatal(err)
	}
	_, err := s.Reserve(ctx, req)
	if !errors.Is(err, store.ErrUnavailable) || !strings.Contains(err.Error(), "out of memory") {
		t.Errorf("reserve at maxmemory: %v, want ErrUnavailable saying out of memory", err)
	}
	if err := store.CheckInvariants(ctx, admin, "oom"); err != nil {
		t.Error(err)
	}
	if err := admin.ConfigSet(ctx, "maxmemory", "0").Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reserve(ctx, req); err != nil {
		t.Errorf("after maxmemory is lifted: %v", err)
	}
	if l, _ := s.List(ctx, "oom"); len(l) != 2 {
		t.Errorf("List = %+v, want 2", l)
	}
}

// BenchmarkRedisRawEvalsha is the floor to compare BenchmarkRedisReserve
// with: the tiny script redis-benchmark runs (INCR of one key), through the
// same go-redis client, pool and parallelism.
func BenchmarkRedisRawEvalsha(b *testing.B) {
	srv := store.StartRedis(b)
	o := srv.Options()
	o.PoolSize = 64
	c := redis.NewClient(o)
	defer c.Close()
	script := redis.NewScript("return redis.call('INCR', KEYS[1])")
	ctx := context.Background()
	var gid atomic.Int64
	b.SetParallelism(max(1, 50/runtime.GOMAXPROCS(0)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		key := fmt.Sprintf("bench:{%d}", gid.Add(1))
		for pb.Next() {
			if err := script.Run(ctx, c, []string{key}).Err(); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// The watch half with Redis TIME: hour hashes expire UsageRetention after
// their hour (a deliberate TTL: nothing is evicted), claim keys carry a
// safety TTL past their lease, and a lease runs out on Redis's clock.
func TestRedisWatchKeysAndTime(t *testing.T) {
	srv := store.StartRedis(t)
	ctx := context.Background()
	s, err := store.OpenRedis(ctx, store.RedisOptions{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := srv.Client()
	now, err := s.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	at := now.Add(-time.Second)
	err = s.RecordSamples(ctx, store.SampleBatch{Server: "h", At: at, Every: 30 * time.Second,
		GPUs: []store.GPUSample{{Index: 0, Util: 50, MemUsedMB: 10, Users: []string{"alice"}}, {Index: 1, Util: -1, MemUsedMB: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	hour := at.Truncate(time.Hour)
	key := fmt.Sprintf("gpuplan:{srv:h}:use:%d", hour.Unix())
	want := hour.Add(time.Hour + store.UsageRetention).Sub(now)
	if ttl := c.PTTL(ctx, key).Val(); (ttl - want).Abs() > 2*time.Second {
		t.Errorf("PTTL %s = %v, want about %v", key, ttl, want)
	}
	fields := c.HGetAll(ctx, key).Val()
	if fields["o:0"] != "30000" || fields["u:0"] != "1500000" || fields["p:0:alice"] != "30000" || len(fields) != 5 {
		t.Errorf("%s = %v, want integer ms for GPU 0 only", key, fields)
	}
	if live := c.HGetAll(ctx, "gpuplan:{srv:h}:live").Val(); len(live) != 6 || live["n"] != "1" || !strings.HasPrefix(live["g:0"], strconv.FormatInt(at.UnixMilli(), 10)+"|") {
		t.Errorf("live hash = %v", live)
	}
	if c.TTL(ctx, "gpuplan:{srv:h}:live").Val() != -1 {
		t.Error("the live hash has a TTL")
	}

	const lease = 300 * time.Millisecond
	if ok, err := s.Claim(ctx, "job", "r1", lease); err != nil || !ok {
		t.Fatalf("Claim = %v, %v", ok, err)
	}
	if v := c.Get(ctx, "gpuplan:claim:job").Val(); !strings.HasPrefix(v, "held:") || !strings.HasSuffix(v, ":r1") {
		t.Errorf("claim value %q", v)
	}
	if ttl := c.PTTL(ctx, "gpuplan:claim:job").Val(); ttl <= lease || ttl > lease+time.Minute {
		t.Errorf("claim PTTL %v, want the lease plus a margin", ttl)
	}
	if ok, _ := s.Claim(ctx, "job", "r2", lease); ok {
		t.Error("r2 got a held job")
	}
	time.Sleep(lease + 50*time.Millisecond)
	if ok, err := s.Claim(ctx, "job", "r2", lease); err != nil || !ok {
		t.Errorf("after the lease ran out on Redis's clock: %v, %v; want r2 to take over", ok, err)
	}
	if err := s.Done(ctx, "job"); err != nil {
		t.Fatal(err)
	}
	if ttl := c.TTL(ctx, "gpuplan:claim:job").Val(); (ttl - store.DoneRetention).Abs() > 2*time.Second {
		t.Errorf("done TTL %v, want %v", ttl, store.DoneRetention)
	}
	if err := s.PutSubscription(ctx, store.Subscription{Channel: "C1", Spec: "0 9 * * *", TZ: "UTC", Period: "day"}); err != nil {
		t.Fatal(err)
	}
	if v := c.HGet(ctx, "gpuplan:subs", "C1").Val(); !strings.Contains(v, `"spec":"0 9 * * *"`) {
		t.Errorf("gpuplan:subs C1 = %q", v)
	}
}

// Every watch operation reports a Redis that is gone as ErrUnavailable,
// in time.
func TestRedisWatchUnavailable(t *testing.T) {
	srv := store.StartRedis(t)
	srv.NeedOwn(t)
	ctx := context.Background()
	s, err := store.OpenRedis(ctx, store.RedisOptions{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	srv.Kill()
	now := time.Now()
	for name, op := range map[string]func() error{
		"RecordSamples": func() error {
			return s.RecordSamples(ctx, store.SampleBatch{Server: "h", At: now, GPUs: []store.GPUSample{{Index: 0, Util: 1}}})
		},
		"Usage":   func() error { _, err := s.Usage(ctx, "h", now.Add(-time.Hour), now); return err },
		"Live":    func() error { _, err := s.Live(ctx, "h"); return err },
		"History": func() error { _, err := s.History(ctx, "h", now.Add(-time.Hour), now); return err },
		"PutSubscription": func() error {
			return s.PutSubscription(ctx, store.Subscription{Channel: "C", Spec: "* * * * *", Period: "day"})
		},
		"DeleteSubscription": func() error { _, err := s.DeleteSubscription(ctx, "C"); return err },
		"Subscriptions":      func() error { _, err := s.Subscriptions(ctx); return err },
		"Claim":              func() error { _, err := s.Claim(ctx, "j", "r", time.Minute); return err },
		"Done":               func() error { return s.Done(ctx, "j") },
	} {
		start := time.Now()
		err := op()
		if !errors.Is(err, store.ErrUnavailable) {
			t.Errorf("%s with Redis gone: %v, want ErrUnavailable", name, err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s took %v", name, d)
		}
	}
}
