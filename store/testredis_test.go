package store

// Test helpers shared by the internal tests and store_test: a real
// redis-server per test (or the one GPUPLAN_TEST_REDIS_URL names), a TCP
// proxy that loses replies or hangs, and the invariant checker that reads
// a server's keys back.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"
)

// quiet drops go-redis's own log lines (dial failures while a test has
// killed Redis on purpose).
type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

// TestMain also checks that no test leaves a goroutine behind (a
// client, a proxy, the embedded store's backup timer).
func TestMain(m *testing.M) {
	redis.SetLogger(quiet{})
	goleak.VerifyTestMain(m,
		// go-redis retries a failed dial from a goroutine of its own that
		// sleeps a second between tries and ends once it sees its pool
		// closed: it outlives a closed client by up to that second.
		goleak.IgnoreAnyFunction("github.com/redis/go-redis/v9/internal/pool.(*ConnPool).tryDial"))
}

// SkipNoRedis is the message a test skips with when it has no Redis.
const SkipNoRedis = "real Redis suite not run: no redis-server on PATH and GPUPLAN_TEST_REDIS_URL unset"

// TestRedisDB is the database used on a Redis named by
// GPUPLAN_TEST_REDIS_URL; it is flushed, so never the default 0.
const TestRedisDB = 15

// TestServer is a Redis for one test.
type TestServer struct {
	Addr     string
	DB       int
	Username string
	Password string
	External bool // GPUPLAN_TEST_REDIS_URL: it cannot be killed or reconfigured freely

	t    testing.TB
	dir  string
	args []string
	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// StartRedis starts a redis-server on a free loopback port with no
// persistence (extra arguments override), or uses GPUPLAN_TEST_REDIS_URL
// (database 15, flushed). It skips the test when neither is there. The
// server is killed when the test ends.
func StartRedis(t testing.TB, extra ...string) *TestServer {
	t.Helper()
	if raw := os.Getenv("GPUPLAN_TEST_REDIS_URL"); raw != "" {
		o, err := redis.ParseURL(raw)
		if err != nil {
			t.Fatalf("GPUPLAN_TEST_REDIS_URL: %v", err)
		}
		u, _ := url.Parse(raw)
		db := TestRedisDB
		if p := strings.Trim(u.Path, "/"); p != "" && p != "0" {
			db = o.DB
		}
		s := &TestServer{Addr: o.Addr, DB: db, Username: o.Username, Password: o.Password, External: true, t: t}
		s.Flush()
		return s
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip(SkipNoRedis)
	}
	var lastErr error
	for range 5 {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		s := &TestServer{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), t: t, dir: t.TempDir()}
		s.args = append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
			"--dir", s.dir, "--logfile", "redis.log"}, extra...)
		if lastErr = s.start(bin); lastErr == nil {
			t.Cleanup(s.Kill)
			return s
		}
	}
	t.Fatalf("start redis-server: %v", lastErr)
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (s *TestServer) start(bin string) error {
	cmd := exec.Command(bin, s.args...)
	cmd.Dir = s.dir
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	s.mu.Lock()
	s.cmd, s.done = cmd, done
	s.mu.Unlock()
	c := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer c.Close()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			log, _ := os.ReadFile(s.dir + "/redis.log")
			return fmt.Errorf("redis-server exited: %s", lastLines(string(log), 5))
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		var rerr redis.Error
		if err == nil || errors.As(err, &rerr) { // NOAUTH: up, with a password
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.Kill()
	return errors.New("redis-server did not answer PING within 5s")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Kill kills the server at once (SIGKILL) and waits for it to go.
func (s *TestServer) Kill() {
	s.mu.Lock()
	cmd, done := s.cmd, s.done
	s.cmd = nil
	s.mu.Unlock()
	if cmd == nil {
		return
	}
	killGroup(cmd)
	<-done
}

// Restart starts the server again on the same port and directory.
func (s *TestServer) Restart() {
	s.t.Helper()
	if s.External {
		s.t.Fatal("cannot restart the Redis named by GPUPLAN_TEST_REDIS_URL")
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		s.t.Fatal(err)
	}
	var last error
	for range 20 { // the port may linger for a moment
		if last = s.start(bin); last == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("restart redis-server: %v", last)
}

// NeedOwn skips a test that must kill or reconfigure its server.
func (s *TestServer) NeedOwn(t testing.TB) {
	if s.External {
		t.Skip("needs a redis-server the test starts itself (GPUPLAN_TEST_REDIS_URL is set)")
	}
}

// Options are the client options a test client uses: the same bounded
// timeouts OpenRedis sets.
func (s *TestServer) Options() *redis.Options {
	return &redis.Options{
		Addr: s.Addr, DB: s.DB, Username: s.Username, Password: s.Password,
		ContextTimeoutEnabled: true,
		DialTimeout:           time.Second, ReadTimeout: time.Second, WriteTimeout: time.Second, PoolTimeout: time.Second,
		MaxRetries: 2, MinRetryBackoff: 8 * time.Millisecond, MaxRetryBackoff: 128 * time.Millisecond,
		DialerRetries: 2, DialerRetryTimeout: 50 * time.Millisecond,
	}
}

// Client is a new client for the server, closed when the test ends.
func (s *TestServer) Client() *redis.Client {
	c := redis.NewClient(s.Options())
	s.t.Cleanup(func() { c.Close() })
	return c
}

// URL is a redis:// URL for the server.
func (s *TestServer) URL() string {
	u := url.URL{Scheme: "redis", Host: s.Addr, Path: "/" + strconv.Itoa(s.DB)}
	if s.Password != "" {
		u.User = url.UserPassword(s.Username, s.Password)
	}
	return u.String()
}

// Flush empties the test database.
func (s *TestServer) Flush() {
	s.t.Helper()
	c := redis.NewClient(s.Options())
	defer c.Close()
	if err := c.FlushDB(context.Background()).Err(); err != nil {
		s.t.Fatalf("FLUSHDB: %v", err)
	}
}

// Proxy is a TCP proxy in front of a Redis that can lose replies.
type Proxy struct {
	Addr string
	l    net.Listener
	// dropReplies: the next n replies are swallowed and the connection
	// closed, after Redis has executed the command.
	dropReplies atomic.Int32
	hang        atomic.Bool // replies are held back, connections kept open
	// holdReq holds back the requests of the connections numbered below
	// holdBelow (those open when HoldRequests(true) was called).
	holdReq   atomic.Bool
	holdBelow atomic.Int64
	serial    atomic.Int64
	wg        sync.WaitGroup
	mu        sync.Mutex
	conns     []net.Conn
}

// StartProxy proxies to target until the test ends.
func StartProxy(t testing.TB, target string) *Proxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Addr: l.Addr().String(), l: l}
	p.wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			p.wg.Go(func() { p.serve(c, target) })
		}
	})
	t.Cleanup(func() {
		p.hang.Store(false)
		l.Close()
		p.mu.Lock()
		for _, c := range p.conns {
			c.Close()
		}
		p.mu.Unlock()
		p.wg.Wait()
	})
	return p
}

// DropNextReplies loses the next n replies.
func (p *Proxy) DropNextReplies(n int) { p.dropReplies.Store(int32(n)) }

// Hang holds every reply back (a Redis that stopped answering) until
// Hang(false).
func (p *Proxy) Hang(on bool) { p.hang.Store(on) }

// HoldRequests(true) holds back what the connections open now send
// (a request stuck on its way); new connections pass. HoldRequests(false)
// delivers what was held, also for connections the client has closed.
func (p *Proxy) HoldRequests(on bool) {
	if on {
		p.holdBelow.Store(p.serial.Load())
	}
	p.holdReq.Store(on)
}

func (p *Proxy) track(c net.Conn) {
	p.mu.Lock()
	p.conns = append(p.conns, c)
	p.mu.Unlock()
}

func (p *Proxy) serve(client net.Conn, target string) {
	server, err := net.Dial("tcp", target)
	if err != nil {
		client.Close()
		return
	}
	p.track(client)
	p.track(server)
	serial := p.serial.Add(1) - 1
	closeBoth := func() { client.Close(); server.Close() }
	p.wg.Go(func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := client.Read(buf)
			if n > 0 {
				for p.holdReq.Load() && serial < p.holdBelow.Load() {
					time.Sleep(5 * time.Millisecond)
				}
				if _, werr := server.Write(buf[:n]); werr != nil {
					closeBoth()
					return
				}
			}
			if err != nil {
				// Half-close: Redis still runs what it got, then
				// closes, which ends the reply loop below.
				if tc, ok := server.(*net.TCPConn); ok {
					tc.CloseWrite()
				} else {
					closeBoth()
				}
				return
			}
		}
	})
	buf := make([]byte, 64<<10)
	for {
		n, err := server.Read(buf)
		if n > 0 {
			for p.hang.Load() {
				time.Sleep(5 * time.Millisecond)
			}
			if v := p.dropReplies.Load(); v > 0 && p.dropReplies.CompareAndSwap(v, v-1) {
				closeBoth()
				return
			}
			if _, werr := client.Write(buf[:n]); werr != nil {
				closeBoth()
				return
			}
		}
		if err != nil {
			closeBoth()
			return
		}
	}
}

// CheckInvariants reads one server's keys and checks what the scripts
// promise: no two live reservations hold a GPU at the same moment; the
// hash and the end index agree exactly (no partial reservation); every
// remembered reserve answer names a stored reservation with the same GPUs.
func CheckInvariants(ctx context.Context, c redis.UniversalClient, server string) error {
	k := keysFor(server)
	hash, err := c.HGetAll(ctx, k.resv).Result()
	if err != nil {
		return err
	}
	ends, err := c.ZRangeWithScores(ctx, k.ends, 0, -1).Result()
	if err != nil {
		return err
	}
	if len(hash) != len(ends) {
		return fmt.Errorf("%s: %d records but %d index entries", server, len(hash), len(ends))
	}
	var all []Reservation
	for _, z := range ends {
		m := z.Member.(string)
		id, rest, _ := strings.Cut(m, "|")
		raw, ok := hash[id]
		if !ok {
			return fmt.Errorf("%s: index has %s but the hash does not", server, m)
		}
		var r record
		if err := json.Unmarshal([]byte(raw), &r); err != nil {
			return fmt.Errorf("%s: %s: %v", server, id, err)
		}
		if want := fmt.Sprintf("%d|%s", r.Start, joinInts(r.GPUs)); rest != want || r.ID != id || r.Server != server ||
			float64(r.End) != z.Score || r.Start >= r.End || len(r.GPUs) == 0 {
			return fmt.Errorf("%s: record %s does not match its index entry %s %v: %+v", server, id, m, z.Score, r)
		}
		all = append(all, r.reservation())
	}
	// The per-GPU time index holds exactly the end index's entries, one per
	// GPU, scored gpu*2^42 + end.
	gidx, err := c.ZRangeWithScores(ctx, k.gidx, 0, -1).Result()
	if err != nil {
		return err
	}
	want := map[string]float64{}
	for _, r := range all {
		for _, g := range r.GPUs {
			want[fmt.Sprintf("%d|%s|%d", g, r.ID, r.Start.UnixMilli())] = float64(int64(g)<<42 + r.End.UnixMilli())
		}
	}
	if len(gidx) != len(want) {
		return fmt.Errorf("%s: the GPU index has %d entries, want %d", server, len(gidx), len(want))
	}
	for _, z := range gidx {
		if sc, ok := want[z.Member.(string)]; !ok || sc != z.Score {
			return fmt.Errorf("%s: GPU index entry %v %v does not match the reservations", server, z.Member, z.Score)
		}
	}
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			if all[i].Overlaps(all[j]) {
				return fmt.Errorf("%s: %s %v %v–%v overlaps %s %v %v–%v", server, all[i].ID, all[i].GPUs, all[i].Start, all[i].End,
					all[j].ID, all[j].GPUs, all[j].Start, all[j].End)
			}
		}
	}
	var cursor uint64
	for {
		keys, next, err := c.Scan(ctx, cursor, k.prefix+"req:*", 100).Result()
		if err != nil {
			return err
		}
		for _, key := range keys {
			raw, err := c.Get(ctx, key).Result()
			if err != nil {
				return err
			}
			var o outcome
			if err := json.Unmarshal([]byte(raw), &o); err != nil {
				return fmt.Errorf("%s: %v", key, err)
			}
			if o.Op != "reserve" || o.Err != "" {
				continue
			}
			var r record
			if err := json.Unmarshal(o.OK, &r); err != nil {
				return err
			}
			raw, ok := hash[r.ID]
			if !ok {
				continue // released before its start
			}
			var stored record
			json.Unmarshal([]byte(raw), &stored)
			if fmt.Sprint(stored.GPUs) != fmt.Sprint(r.GPUs) || stored.Owner != r.Owner {
				return fmt.Errorf("%s answered %+v but %s is stored as %+v", key, r, r.ID, stored)
			}
		}
		if cursor = next; cursor == 0 {
			break
		}
	}
	return nil
}

// StartSentinel starts a Redis Sentinel on a free port watching the
// master at masterAddr under the name master; killed when the test ends.
func StartSentinel(t testing.TB, master, masterAddr string) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip(SkipNoRedis)
	}
	host, port, _ := net.SplitHostPort(masterAddr)
	var last error
	for range 5 {
		p, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		conf := filepath.Join(dir, "sentinel.conf")
		body := fmt.Sprintf("port %d\nbind 127.0.0.1\ndir %s\nsentinel monitor %s %s %s 1\nsentinel down-after-milliseconds %s 1000\n",
			p, dir, master, host, port, master)
		if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		s := &TestServer{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(p)), t: t, dir: dir,
			args: []string{conf, "--sentinel", "--logfile", "redis.log"}}
		if last = s.start(bin); last == nil {
			t.Cleanup(s.Kill)
			return s.Addr
		}
	}
	t.Fatalf("start redis sentinel: %v", last)
	return ""
}
