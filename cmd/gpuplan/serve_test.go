package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/gpuplan/gpuplan/store"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func fakeEnv(t *testing.T, fake *slackfake.Server, extra ...string) map[string]string {
	env := map[string]string{
		"SLACK_APP_TOKEN": slackfake.AppToken, "SLACK_BOT_TOKEN": slackfake.BotToken,
		"SLACK_API_URL": fake.URL(), "GPUPLAN_LOG_LEVEL": "debug",
		"GPUPLAN_DB": filepath.Join(t.TempDir(), "reservations.db"),
		// A free port: the default :8080 may be taken, or used by a parallel test.
		"GPUPLAN_HTTP_ADDR": "127.0.0.1:0",
	}
	for i := 0; i+1 < len(extra); i += 2 {
		env[extra[i]] = extra[i+1]
	}
	return env
}

// serve answers a slash command from the fake Slack, logs at debug without
// the tokens, and returns 0 when its context ends.
func TestServeAnswersAndStopsCleanly(t *testing.T) {
	fake := slackfake.New(t)
	env := fakeEnv(t, fake)
	var stdout, stderr lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	code := make(chan int, 1)
	go func() { code <- serve(ctx, nil, func(k string) string { return env[k] }, &stdout, &stderr) }()
	fake.WaitConnections(t, 1, 10*time.Second)
	id := fake.Push(fake.SlashCommand("bert-base 10 epochs of 2.5M samples on h100x2", "U0001", "C0001"))
	a := fake.WaitAck(t, id, 5*time.Second)
	var p map[string]any
	if err := json.Unmarshal(a.Payload, &p); err != nil || !strings.Contains(string(a.Payload), "H100") {
		t.Fatalf("ack payload: %s (%v)", a.Payload, err)
	}
	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("serve exited %d, want 0", c)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
	logs := stderr.String()
	for _, secret := range []string{slackfake.AppToken, slackfake.BotToken} {
		if strings.Contains(logs, secret) || strings.Contains(stdout.String(), secret) {
			t.Error("a token appears in serve's output")
		}
	}
	for _, want := range []string{`"envelope_id":"` + id, `"command":"bert-base"`, `"latency"`, `"level":"debug"`, "drained"} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %s", want)
		}
	}
}

func TestServeRefusesBadTokensWithoutPrintingThem(t *testing.T) {
	for _, env := range []map[string]string{
		{"SLACK_BOT_TOKEN": "xoxb-abcdef-secret"},
		{"SLACK_APP_TOKEN": "xapp-1-secretvalue", "SLACK_BOT_TOKEN": "xoxp-abcdef-secret"},
		{"SLACK_APP_TOKEN": "xoxb-abcdef-secret", "SLACK_BOT_TOKEN": "xapp-1-secretvalue"},
	} {
		var stdout, stderr bytes.Buffer
		c := serve(context.Background(), nil, func(k string) string { return env[k] }, &stdout, &stderr)
		out := stderr.String()
		if c != 2 || !strings.Contains(out, "SLACK_") || strings.Contains(out, "secret") {
			t.Errorf("env %v: exit %d, stderr %q", keys(env), c, out)
		}
	}
	// A token Slack refuses.
	fake := slackfake.New(t)
	env := fakeEnv(t, fake, "SLACK_BOT_TOKEN", "xoxb-refused-secret")
	var stderr lockedBuffer // the logger (sweeps, scheduler) and serve's own message share it
	c := serve(context.Background(), nil, func(k string) string { return env[k] }, &bytes.Buffer{}, &stderr)
	if c != 2 || !strings.Contains(stderr.String(), "SLACK_BOT_TOKEN was refused") || strings.Contains(stderr.String(), "refused-secret") {
		t.Errorf("refused token: exit %d, %q", c, stderr.String())
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestDoctor(t *testing.T) {
	fake := slackfake.New(t)
	env := fakeEnv(t, fake)
	var out bytes.Buffer
	if c := doctor(context.Background(), nil, func(k string) string { return env[k] }, &out, &bytes.Buffer{}); c != 0 {
		t.Fatalf("doctor against a healthy fake: exit %d\n%s", c, out.String())
	}
	for _, want := range []string{"✓ tokens", "✓ bot token", "✓ scopes", "✓ socket mode connection", "✓ servers", "✓ reservation store"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out.String())
		}
	}
	fake.SetScopes("commands", "chat:write")
	out.Reset()
	if c := doctor(context.Background(), nil, func(k string) string { return env[k] }, &out, &bytes.Buffer{}); c != 1 ||
		!strings.Contains(out.String(), "✗ scopes: missing") || !strings.Contains(out.String(), "im:history") || !strings.Contains(out.String(), "reinstall") {
		t.Errorf("missing scopes: exit %d\n%s", c, out.String())
	}
	env["SLACK_APP_TOKEN"] = "xapp-1-wrong-token"
	out.Reset()
	if c := doctor(context.Background(), nil, func(k string) string { return env[k] }, &out, &bytes.Buffer{}); c != 1 ||
		!strings.Contains(out.String(), "✗ socket mode connection") || strings.Contains(out.String(), "wrong-token") {
		t.Errorf("bad app token: exit %d\n%s", c, out.String())
	}
}

// The real binary drains on SIGTERM and exits 0.
func TestBinaryDrainsOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "gpuplan")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	fake := slackfake.New(t)
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "SLACK_APP_TOKEN="+slackfake.AppToken, "SLACK_BOT_TOKEN="+slackfake.BotToken,
		"SLACK_API_URL="+fake.URL(), "GPUPLAN_LOG_FORMAT=console", "GPUPLAN_DB="+filepath.Join(t.TempDir(), "r.db"), "GPUPLAN_HTTP_ADDR=127.0.0.1:0")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	fake.WaitConnections(t, 1, 10*time.Second)
	id := fake.Push(fake.SlashCommand("help", "U0001", "C0001"))
	fake.WaitAck(t, id, 5*time.Second)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v\n%s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("no exit after SIGTERM")
	}
	if !strings.Contains(stderr.String(), "drained") {
		t.Errorf("no drain in the log:\n%s", stderr.String())
	}
}

// serve runs the digest scheduler: a subscription whose latest slot went
// by while no gpuplan was running is posted (late) soon after the start,
// into the channel, with its chart in the thread.
func TestServePostsADueDigest(t *testing.T) {
	fake := slackfake.New(t)
	fake.AddChannel("C0DIGEST", "gpu-digest", false, true)
	env := fakeEnv(t, fake)
	st, err := store.OpenEmbedded(env["GPUPLAN_DB"], nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.PutSubscription(context.Background(), store.Subscription{Channel: "C0DIGEST", Spec: "0 * * * *", TZ: "UTC",
		Period: "day", Label: "hourly", By: "U0ADMIN", Since: time.Now().Add(-3 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	var stdout, stderr lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	code := make(chan int, 1)
	go func() { code <- serve(ctx, nil, func(k string) string { return env[k] }, &stdout, &stderr) }()
	// "digest posted" is logged once the message and its chart are out.
	for deadline := time.Now().Add(15 * time.Second); !strings.Contains(stderr.String(), `"msg":"digest posted"`) && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	if c := <-code; c != 0 {
		t.Errorf("serve exited %d", c)
	}
	msgs := fake.Messages("C0DIGEST")
	if len(msgs) != 1 || !strings.Contains(msgs[0].Text, "GPU digest") {
		t.Fatalf("digests posted: %+v\n%s", msgs, stderr.String())
	}
	if f := fake.Files(); len(f) != 1 || f[0].ThreadTS != msgs[0].TS {
		t.Errorf("chart: %+v", f)
	}
	if !strings.Contains(stderr.String(), `"msg":"digest posted"`) {
		t.Error("the post is not logged")
	}
}
