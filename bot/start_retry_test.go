package bot

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/planner"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// Issue 12, item 5: Slack unreachable at start is waited for with backoff
// and a log line per attempt, then the bot connects; it used to exit.
// A refused token is still fatal at once (S6).
func TestRunRetriesSlackAtStart(t *testing.T) {
	fake := slackfake.New(t)
	target, _ := url.Parse(fake.URL())
	proxy := httputil.NewSingleHostReverseProxy(target)
	var authCalls atomic.Int32
	const failures = 3
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "auth.test") && authCalls.Add(1) <= failures {
			// Slack is unreachable: the connection drops with no answer.
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer front.Close()

	core, logs := observer.New(zap.InfoLevel)
	cat := planner.DefaultCatalog()
	b, err := New(Config{AppToken: slackfake.AppToken, BotToken: slackfake.BotToken, APIURL: front.URL + "/",
		StartBackoff: 10 * time.Millisecond}, zap.New(core), commands.New(commands.Deps{Catalog: cat}), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	fake.WaitConnections(t, 1, 20*time.Second)
	retries := logs.FilterMessage("slack not reachable at start; retrying").All()
	if len(retries) < failures {
		t.Errorf("%d retry log lines, want one per failed attempt (%d)", len(retries), failures)
	}
	for i, e := range retries {
		if got := e.ContextMap()["attempt"]; got != int64(i+1) {
			t.Errorf("line %d says attempt %v", i, got)
		}
	}
	if logs.FilterMessage("slack reachable").Len() != 1 {
		t.Error("no line says Slack became reachable")
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// A token Slack refuses stops the start at once, without retries.
func TestRunStopsOnRefusedToken(t *testing.T) {
	fake := slackfake.New(t)
	core, logs := observer.New(zap.InfoLevel)
	b, err := New(Config{AppToken: slackfake.AppToken, BotToken: "xoxb-wrong", APIURL: fake.URL(), StartBackoff: 10 * time.Millisecond},
		zap.New(core), commands.New(commands.Deps{Catalog: planner.DefaultCatalog()}), nil)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Run(context.Background())
	var te *TokenError
	if !errors.As(err, &te) {
		t.Fatalf("Run with a refused token: %v, want *TokenError", err)
	}
	if n := logs.FilterMessage("slack not reachable at start; retrying").Len(); n != 0 {
		t.Errorf("%d retries for a refused token", n)
	}
}
