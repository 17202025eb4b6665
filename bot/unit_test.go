package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/commands"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

func TestSecretNeverPrints(t *testing.T) {
	s := Secret("xoxb-very-secret-token")
	for _, got := range []string{fmt.Sprint(s), fmt.Sprintf("%v %s %#v %q", s, s, s, s)} {
		if strings.Contains(got, "very-secret") {
			t.Errorf("secret printed: %s", got)
		}
	}
	raw, _ := json.Marshal(struct{ T Secret }{s})
	if strings.Contains(string(raw), "very-secret") {
		t.Errorf("secret in JSON: %s", raw)
	}
	if s.Reveal() != "xoxb-very-secret-token" {
		t.Error("Reveal must return the token")
	}
}

func TestConfigValidateSaysWhichTokenAndWhere(t *testing.T) {
	for _, tc := range []struct {
		app, bot string
		want     []string
	}{
		{"", "xoxb-1", []string{"SLACK_APP_TOKEN", "not set", "xapp-", "App-Level Tokens"}},
		{"xapp-1", "", []string{"SLACK_BOT_TOKEN", "not set", "xoxb-", "OAuth & Permissions"}},
		{"abc-1", "xoxb-1", []string{"SLACK_APP_TOKEN", "wrong prefix"}},
		{"xapp-1", "xoxp-1", []string{"SLACK_BOT_TOKEN", "wrong prefix"}},
		{"xoxb-secretA", "xapp-secretB", []string{"swapped"}},
	} {
		c := Config{AppToken: Secret(tc.app), BotToken: Secret(tc.bot)}
		err := c.Validate()
		if err == nil {
			t.Fatalf("%q/%q: no error", tc.app, tc.bot)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q/%q: %q lacks %q", tc.app, tc.bot, err, w)
			}
		}
		for _, secret := range []string{"secretA", "secretB"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error leaks the token: %v", err)
			}
		}
	}
	c := Config{AppToken: "xapp-1", BotToken: "xoxb-1", APIURL: "http://127.0.0.1:1"}
	if err := c.Validate(); err != nil || c.APIURL != "http://127.0.0.1:1/" || c.Workers == 0 || c.AckBudget == 0 {
		t.Errorf("defaults: %+v %v", c, err)
	}
}

// Secrets handed to the logger in any shape come out redacted, at debug level.
func TestLoggerRedactsSecrets(t *testing.T) {
	var buf bytes.Buffer
	core := zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), zapcore.AddSync(&buf), zap.DebugLevel)
	log := redactLogger(zap.New(core), "xoxb-abcdef123456", "xapp-1-zyxwvu987654")
	log.Debug("token xoxb-abcdef123456 in message", zap.String("t", "Bearer xapp-1-zyxwvu987654"),
		zap.Error(errors.New("bad xoxb-abcdef123456")), zap.Any("m", map[string]string{"k": "xoxb-abcdef123456"}),
		zap.Stringer("s", Secret("xoxb-abcdef123456")))
	log.With(zap.String("w", "xapp-1-zyxwvu987654")).Info("child")
	if strings.Contains(buf.String(), "abcdef123456") || strings.Contains(buf.String(), "zyxwvu987654") {
		t.Errorf("secret in log: %s", buf.String())
	}
	if !strings.Contains(buf.String(), "[redacted]") {
		t.Errorf("expected redaction marks: %s", buf.String())
	}
}

func TestDeduperRemembersForTTL(t *testing.T) {
	now := time.Unix(1000, 0)
	d := newMemoryDeduper(func() time.Time { return now })
	ctx := context.Background()
	if ok, _ := d.FirstSeen(ctx, "a", time.Minute); !ok {
		t.Fatal("first sight must be new")
	}
	if ok, _ := d.FirstSeen(ctx, "a", time.Minute); ok {
		t.Fatal("second sight within TTL must be a duplicate")
	}
	now = now.Add(2 * time.Minute)
	if ok, _ := d.FirstSeen(ctx, "a", time.Minute); !ok {
		t.Fatal("after the TTL the key is new again")
	}
}

func TestFrameParserReadsServerFrames(t *testing.T) {
	var got []string
	p := &frameParser{onText: func(b []byte) { got = append(got, string(b)) }}
	frame := func(op byte, fin bool, payload string) []byte {
		b0 := op
		if fin {
			b0 |= 0x80
		}
		out := []byte{b0}
		switch n := len(payload); {
		case n < 126:
			out = append(out, byte(n))
		case n < 65536:
			out = append(out, 126, byte(n>>8), byte(n))
		}
		return append(out, payload...)
	}
	long := strings.Repeat("x", 300)
	stream := []byte("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n")
	stream = append(stream, frame(0x1, true, `{"type":"hello"}`)...)
	stream = append(stream, frame(0x9, true, "")...) // ping
	stream = append(stream, frame(0x1, false, `{"a":"`)...)
	stream = append(stream, frame(0x0, true, long+`"}`)...)
	for i := 0; i < len(stream); i += 7 { // arbitrary read boundaries
		p.feed(stream[i:min(i+7, len(stream))])
	}
	if len(got) != 2 || got[0] != `{"type":"hello"}` || got[1] != `{"a":"`+long+`"}` {
		t.Errorf("messages: %q", got)
	}
}

func TestDroppedEnvelopesAreRebuilt(t *testing.T) {
	raw := []byte(`{"envelope_id":"e1","type":"slash_commands","accepts_response_payload":true,"payload":{"command":"/gpuplan","text":"help","user_id":"U1","channel_id":"C1","response_url":"https://x","trigger_id":"t","is_enterprise_install":"false"}}`)
	evt, ok := rebuildEvent(raw)
	if !ok || evt.Request.EnvelopeID != "e1" {
		t.Fatalf("rebuild: %v %+v", ok, evt)
	}
	var l ledger
	l.add("a", 1, raw, time.Unix(2, 0))
	l.add("b", 1, raw, time.Unix(1, 0))
	l.add("c", 1, raw, time.Unix(0, 0))
	l.add("new", 2, raw, time.Unix(3, 0)) // read off a live connection: slack-go will deliver it
	l.done("a")
	if got := l.takeDropped(); len(got) != 0 {
		t.Errorf("took %d envelopes of live connections", len(got))
	}
	l.end(1)
	if got := l.takeDropped(); len(got) != 2 || got[0].at != time.Unix(0, 0) || got[1].at != time.Unix(1, 0) {
		t.Errorf("ledger: %+v", got)
	}
	if len(l.takeDropped()) != 0 {
		t.Error("takeDropped must remove what it returns")
	}
	l.end(2)
	if got := l.takeDropped(); len(got) != 1 || got[0].gen != 2 {
		t.Errorf("after the second connection ended: %+v", got)
	}
}

type unexpectedEOFConn struct{ net.Conn }

func (unexpectedEOFConn) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

func TestEOFGuardTurnsUnexpectedEOFIntoEOF(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	_, err := eofGuard{unexpectedEOFConn{a}}.Read(make([]byte, 4))
	if !errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("got %v, want io.EOF", err)
	}
}

func TestStormDetection(t *testing.T) {
	now := time.Unix(0, 0)
	var cs []time.Time
	for i := range 6 {
		cs = append(cs, now.Add(time.Duration(i)*time.Second))
	}
	if !storming(cs, now.Add(6*time.Second)) {
		t.Error("6 attempts in 6 s is a storm")
	}
	if storming(cs, now.Add(40*time.Second)) {
		t.Error("old attempts do not count")
	}
}

// busySet is the command table with its cores said to be all computing.
type busySet struct {
	*commands.Set
	busy bool
}

func (s busySet) Busy() bool { return s.busy }

// A slash plan that finds every core computing is acked after coreWait
// instead of the whole budget, so its ack does not queue behind the plans
// ahead of it; a command that does not plan keeps the budget, and a full
// pool acks at once.
func TestAckBudgetWhenCoresAreBusy(t *testing.T) {
	const plan = "bert-base 10 epochs of 2.5M samples on h100x2"
	set := commands.New(commands.Deps{})
	b := &Bot{cfg: Config{AckBudget: 1500 * time.Millisecond}, pool: make(chan struct{}, 2)}
	for _, tc := range []struct {
		busy bool
		text string
		want time.Duration
	}{
		{false, plan, 1500 * time.Millisecond},
		{true, plan, coreWait},
		{true, "status", 1500 * time.Millisecond},
		{true, "help", 1500 * time.Millisecond},
	} {
		b.cmds = busySet{Set: set, busy: tc.busy}
		if got := b.ackBudget(tc.text); got != tc.want {
			t.Errorf("busy %v, %q: budget %v, want %v", tc.busy, tc.text, got, tc.want)
		}
	}
	b.pool <- struct{}{}
	b.pool <- struct{}{}
	if got := b.ackBudget("help"); got != 0 {
		t.Errorf("full pool: budget %v, want 0", got)
	}
}
