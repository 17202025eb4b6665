package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/store"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/zap"
)

// runningServe is serve started in the test's process.
type runningServe struct {
	addr   string // the health and metrics listener, host:port
	stderr *lockedBuffer
	cancel context.CancelFunc
	code   chan int
}

// startServe runs serve with env (GPUPLAN_HTTP_ADDR on a free port) and
// waits for its health and metrics listener.
func startServe(t *testing.T, env map[string]string) *runningServe {
	t.Helper()
	env["GPUPLAN_HTTP_ADDR"] = "127.0.0.1:0"
	env["GPUPLAN_LOG_FORMAT"] = "json"
	ctx, cancel := context.WithCancel(context.Background())
	s := &runningServe{stderr: &lockedBuffer{}, cancel: cancel, code: make(chan int, 1)}
	go func() { s.code <- serve(ctx, nil, func(k string) string { return env[k] }, io.Discard, s.stderr) }()
	t.Cleanup(func() { s.stop(t) })
	deadline := time.Now().Add(10 * time.Second)
	for s.addr == "" {
		for _, line := range strings.Split(s.stderr.String(), "\n") {
			var l struct{ Msg, Addr string }
			if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "health and metrics" {
				s.addr = l.Addr
			}
		}
		select {
		case c := <-s.code:
			t.Fatalf("serve exited %d:\n%s", c, s.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no health listener in the log:\n%s", s.stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	return s
}

// stop cancels serve and returns its exit code (-1 if it had stopped).
func (s *runningServe) stop(t *testing.T) int {
	t.Helper()
	if s.cancel == nil {
		return -1
	}
	s.cancel()
	s.cancel = nil
	select {
	case c := <-s.code:
		return c
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop")
		return -1
	}
}

func (s *runningServe) url(path string) string { return "http://" + s.addr + path }

// get returns the status and body of a GET.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// waitStatus polls url until it answers status; it returns the body.
func waitStatus(t *testing.T, url string, status int) string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		code, body := get(t, url)
		if code == status {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d %q, want %d", url, code, body, status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitScrape polls /metrics until it contains every want.
func waitScrape(t *testing.T, s *runningServe, want ...string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, body := get(t, s.url(metricsPath))
		var missing []string
		for _, w := range want {
			if !strings.Contains(body, w) {
				missing = append(missing, w)
			}
		}
		if len(missing) == 0 {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("/metrics lacks %q:\n%s", missing, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// commandsExpected is the exposition of gpuplan_commands_total with the
// given counts and zeros for every other command and outcome.
func commandsExpected(counts map[string]int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# HELP %s Commands run from Slack, by command and outcome (ok, user_error, error).\n# TYPE %s counter\n", metricCommands, metricCommands)
	for _, c := range commands.New(commands.Deps{}).Commands() {
		for _, o := range []string{"error", "ok", "user_error"} {
			fmt.Fprintf(&b, "%s{command=%q,outcome=%q} %d\n", metricCommands, c.Name, o, counts[c.Name+" "+o])
		}
	}
	return b.String()
}

// serve answers /healthz at once, /readyz once Socket Mode is up, and
// /metrics with the commands, acks, connections and store operations it
// saw; a dropped socket makes it unready until it reconnects; no token is
// ever in what it serves; SIGTERM-style cancellation stops the listener.
func TestServeHealthAndMetrics(t *testing.T) {
	fake := slackfake.New(t)
	s := startServe(t, fakeEnv(t, fake))
	if code, body := get(t, s.url(healthPath)); code != 200 || body != "ok\n" {
		t.Errorf("/healthz: %d %q", code, body)
	}
	fake.WaitConnections(t, 1, 10*time.Second)
	waitStatus(t, s.url(readyPath), 200)
	// The container health check: the binary asks its own listener.
	hcEnv := map[string]string{"GPUPLAN_HTTP_ADDR": s.addr}
	healthcheck := func(args ...string) (int, string) {
		var out strings.Builder
		c := run(context.Background(), append([]string{"healthcheck"}, args...), func(k string) string { return hcEnv[k] }, &out, io.Discard)
		return c, out.String()
	}
	if c, out := healthcheck(); c != 0 || out != "200 ok\n" {
		t.Errorf("gpuplan healthcheck: %d %q", c, out)
	}
	if c, out := healthcheck(readyPath); c != 0 || out != "200 ready\n" {
		t.Errorf("gpuplan healthcheck /readyz: %d %q", c, out)
	}

	for _, text := range []string{"help", "bert-bse 3 epochs on h100", "reserve 1 on server-h for 1h", "gpus h100"} {
		fake.WaitAck(t, fake.Push(fake.SlashCommand(text, "U0001", "C0001")), 5*time.Second)
	}
	fake.WaitCalls(t, "chat.postMessage", 1, 5*time.Second) // the reservation's announcement
	waitScrape(t, s, `gpuplan_commands_total{command="reserve",outcome="ok"} 1`)
	err := testutil.ScrapeAndCompare(s.url(metricsPath), strings.NewReader(commandsExpected(map[string]int{
		"help ok": 1, "plan user_error": 1, "reserve ok": 1, "gpus ok": 1,
	})), metricCommands)
	if err != nil {
		t.Error(err)
	}
	body := waitScrape(t, s,
		metricAckSeconds+"_count 4",
		`gpuplan_socketmode_connects_total{kind="connect"} 1`,
		`gpuplan_socketmode_connected 1`,
		`gpuplan_store_operation_duration_seconds_count{op="reserve"} 1`,
		`gpuplan_reservations_held{server="server-h"} 1`,
		`gpuplan_gpus_held{server="server-h"} 1`,
		`gpuplan_reservations_held{server="server-v"} 0`,
		`gpuplan_digests_posted_total{outcome="ok"} 0`,
		`gpuplan_nudges_sent_total 0`,
		"go_goroutines", "process_resident_memory_bytes",
	)
	if strings.Contains(body, metricAgentSampleAge+"{") {
		t.Error("agent sample age reported with no agent")
	}

	// The socket drops and Slack is slow to hand out a new one: unready
	// until the bot is back.
	fake.Inject("apps.connections.open", slackfake.Fault{Delay: 2 * time.Second})
	fake.DropConnections()
	if body := waitStatus(t, s.url(readyPath), 503); !strings.Contains(body, "Socket Mode is not connected") {
		t.Errorf("/readyz while reconnecting: %q", body)
	}
	waitStatus(t, s.url(readyPath), 200)
	waitScrape(t, s, `gpuplan_socketmode_disconnects_total{reason="connection_lost"} 1`,
		`gpuplan_socketmode_connects_total{kind="reconnect"} 1`)

	_, metrics := get(t, s.url(metricsPath))
	_, ready := get(t, s.url(readyPath))
	for _, secret := range []string{slackfake.AppToken, slackfake.BotToken, "xoxb-", "xapp-"} {
		if strings.Contains(metrics, secret) || strings.Contains(ready, secret) {
			t.Errorf("%q appears in /metrics or /readyz", secret)
		}
	}

	if c := s.stop(t); c != 0 {
		t.Errorf("serve exited %d", c)
	}
	if _, err := http.Get(s.url(healthPath)); err == nil {
		t.Error("the health listener still answers after serve returned")
	}
	if c, _ := healthcheck(); c != 1 {
		t.Errorf("gpuplan healthcheck with serve gone: exit %d, want 1", c)
	}
	if !strings.Contains(s.stderr.String(), "drained") {
		t.Error("serve stopped without draining the bot")
	}
}

// A taken --http-addr stops the start with exit 2 and says which.
func TestServeRefusesATakenHTTPAddr(t *testing.T) {
	fake := slackfake.New(t)
	s := startServe(t, fakeEnv(t, fake))
	env := fakeEnv(t, fake, "GPUPLAN_HTTP_ADDR", s.addr)
	var stderr lockedBuffer
	if c := serve(context.Background(), nil, func(k string) string { return env[k] }, io.Discard, &stderr); c != 2 ||
		!strings.Contains(stderr.String(), "--http-addr "+s.addr) {
		t.Errorf("exit %d: %s", c, stderr.String())
	}
}

// pingStore counts pings and fails while down is set.
type pingStore struct {
	fakeBackend
	pings atomic.Int32
	down  atomic.Bool
}

func (p *pingStore) Now(context.Context) (time.Time, error) {
	p.pings.Add(1)
	if p.down.Load() {
		return time.Time{}, &store.UnavailableError{Msg: "the reservation store is unavailable: Redis at redis://:hunter2@db:6379 is unreachable"}
	}
	return time.Now(), nil
}

// Readiness needs the socket and the store; it caches the store's answer
// for two seconds and never shows the store's error text.
func TestReadiness(t *testing.T) {
	var connected atomic.Bool
	st := &pingStore{}
	now := time.Unix(1_700_000_000, 0)
	r := &readiness{connected: connected.Load, log: zap.NewNop(), now: func() time.Time { return now },
		ping: func(ctx context.Context) error { _, err := st.Now(ctx); return err }}
	h := newHTTPHandler(newMetrics().Registry(), r)
	probe := func() (int, string) {
		req, _ := http.NewRequest("GET", readyPath, nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	if c, body := probe(); c != 503 || body != "not ready: Socket Mode is not connected\n" {
		t.Errorf("before connecting: %d %q", c, body)
	}
	connected.Store(true)
	if c, _ := probe(); c != 200 {
		t.Errorf("connected and the store answers: %d", c)
	}
	st.down.Store(true)
	if c, _ := probe(); c != 200 || st.pings.Load() != 1 {
		t.Errorf("within the cache: %d after %d pings, want 200 after 1", c, st.pings.Load())
	}
	now = now.Add(storePingCache)
	c, body := probe()
	if c != 503 || body != "not ready: the reservation store does not answer\n" {
		t.Errorf("store down: %d %q", c, body)
	}
	if strings.Contains(body, "hunter2") || strings.Contains(body, "redis://") {
		t.Error("readiness shows the store's error")
	}
	connected.Store(false)
	if _, body := probe(); !strings.Contains(body, "Socket Mode is not connected; the reservation store does not answer") {
		t.Errorf("both down: %q", body)
	}
}

// Readiness against a real Redis: 503 once the store is closed.
func TestReadinessWhenTheStoreIsClosed(t *testing.T) {
	url := testRedis(t, "noeviction", "yes")
	r, err := store.OpenRedis(context.Background(), store.RedisOptions{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	st := meterStore(r, newMetrics())
	rd := &readiness{connected: func() bool { return true }, log: zap.NewNop(), now: time.Now,
		ping: func(ctx context.Context) error { _, err := st.Now(ctx); return err }}
	if reason := rd.check(context.Background()); reason != "" {
		t.Fatalf("Redis up: %q", reason)
	}
	st.Close()
	rd.pingedAt = time.Time{} // skip the cache
	if reason := rd.check(context.Background()); reason != "the reservation store does not answer" {
		t.Errorf("store closed: %q", reason)
	}
	if !errors.Is(rd.pingErr, store.ErrUnavailable) {
		t.Errorf("ping error %v", rd.pingErr)
	}
}
