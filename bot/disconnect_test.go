package bot

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/store"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// logLines are the bot's JSON log lines at info and above that mention s.
func logLines(logs, s string) []map[string]any {
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) != nil || m["level"] == "debug" || !strings.Contains(line, s) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// Slack's refresh (warning, then refresh_requested): each makes the bot
// reconnect at once (no pause), is logged once with its reason and is
// counted once by the observer (the disconnect-reason metric).
func TestWarningAndRefreshDisconnectsReconnectLogOnceAndCount(t *testing.T) {
	rec := &recorder{}
	h := start(t, func(c *Config, _ *Bot) { c.Observer = rec })
	rec.waitFor(t, "the first connection", func() bool { return rec.connects == 1 })

	for i, reason := range []string{"warning", "refresh_requested"} {
		h.fake.Disconnect(reason)
		rec.waitFor(t, reason, func() bool { return rec.connects == i+2 && len(rec.disconnects) == i+1 })
		waitConnected(t, h.bot, true)
		if got := logLines(h.logs.String(), `"reason":"`+reason+`"`); len(got) != 1 {
			t.Errorf("%s logged %d times at info or above, want once: %v", reason, len(got), got)
		}
	}
	rec.mu.Lock()
	got := slices.Clone(rec.disconnects)
	rec.mu.Unlock()
	if !slices.Equal(got, []string{"warning", "refresh_requested"}) {
		t.Errorf("disconnects counted %q", got)
	}
	if n := h.fake.Opens(); n != 3 {
		t.Errorf("%d connection opens, want 3 (one per reconnect)", n)
	}
	if p := logLines(h.logs.String(), "paused before reconnecting"); len(p) != 0 {
		t.Errorf("a routine refresh paused the bot: %v", p)
	}
	if !strings.Contains(blocksJSON(h.ackPayload(h.fake.Push(h.fake.SlashCommand("help", "U0001", "C0001")))), "plan") {
		t.Error("no answer after the reconnects")
	}
}

// Slack refuses an 11th connection with disconnect{too_many_websockets}
// before hello. The bot must not hot-loop apps.connections.open: it stops
// the client and pauses, the pause doubling each time; each refusal is
// logged once and counted once with its reason; once a slot frees, it
// connects and serves.
func TestTooManyWebsocketsBacksOffLogsOnceAndCounts(t *testing.T) {
	fake := slackfake.New(t)
	other := startOn(t, fake, nil) // another replica holds the one slot
	fake.SetMaxConnections(1)

	const base = 20 * time.Millisecond
	rec := &recorder{}
	logs := &syncBuffer{}
	core := zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), zapcore.AddSync(logs), zap.DebugLevel)
	st, err := store.OpenEmbedded(filepath.Join(t.TempDir(), "r.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	b, err := New(Config{AppToken: slackfake.AppToken, BotToken: slackfake.BotToken, APIURL: fake.URL(),
		PingInterval: 5 * time.Second, DrainTimeout: 5 * time.Second, ReconnectBackoff: base, Observer: rec},
		zap.New(core), commands.New(commands.Deps{Reservations: st}), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Error("Run did not return after cancel")
		}
		if t.Failed() {
			t.Logf("bot log:\n%s", logs.String())
		}
	})

	const refusals = 5
	deadline := time.Now().Add(20 * time.Second)
	for fake.TooManyRefusals() < refusals {
		if time.Now().After(deadline) {
			t.Fatalf("%d refusals in 20 s", fake.TooManyRefusals())
		}
		time.Sleep(5 * time.Millisecond)
	}
	// A slot frees: the other replica stops.
	if err := other.stop(); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "the connection after the refusals", func() bool { return rec.connects == 1 })
	n := fake.TooManyRefusals()

	// The ledger: one apps.connections.open per refusal and one that
	// worked (the other replica's one aside), each after a pause at least
	// as long as the one logged before it, and the pauses doubling.
	opens := fake.Calls("apps.connections.open")[1:]
	if len(opens) != n+1 {
		t.Errorf("%d connection opens for %d refusals, want %d: a reconnect without a pause", len(opens), n, n+1)
	}
	pauses := logLines(logs.String(), "paused before reconnecting")
	if len(pauses) != n {
		t.Fatalf("%d pauses logged for %d refusals", len(pauses), n)
	}
	want := base
	for i, p := range pauses {
		if p["reason"] != "too_many_websockets" || p["level"] != "warn" || !strings.Contains(p["msg"].(string), "too many Socket Mode connections") {
			t.Errorf("pause %d: %v", i, p)
		}
		got := time.Duration(p["backoff"].(float64) * float64(time.Second))
		if got != want {
			t.Errorf("pause %d: backoff %v, want %v (doubling from %v)", i, got, want, base)
		}
		if i+1 < len(opens) && opens[i+1].At.Sub(opens[i].At) < got {
			t.Errorf("open %d came %v after open %d, before its %v pause ended", i+1, opens[i+1].At.Sub(opens[i].At), i, got)
		}
		want *= 2
	}
	if got := logLines(logs.String(), "too_many_websockets"); len(got) != n {
		t.Errorf("too_many_websockets logged %d times at info or above for %d refusals, want once each", len(got), n)
	}
	rec.mu.Lock()
	counted, disconnects := slices.Clone(rec.refused), slices.Clone(rec.disconnects)
	rec.mu.Unlock()
	if len(counted) != n || slices.ContainsFunc(counted, func(r string) bool { return r != "too_many_websockets" }) {
		t.Errorf("refusals counted %q, want too_many_websockets × %d", counted, n)
	}
	if len(disconnects) != 0 {
		t.Errorf("refused connections reported as disconnects of live ones (the connected gauge would go negative): %q", disconnects)
	}

	// Connected, it serves.
	fake.WaitConnections(t, 1, 5*time.Second)
	if !strings.Contains(blocksJSON(fake.WaitAck(t, fake.Push(fake.SlashCommand("help", "U0001", "C0001")), 5*time.Second).Payload), "plan") {
		t.Error("no answer once connected")
	}
}
