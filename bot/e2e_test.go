package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/store"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// syncBuffer is a log sink shared by the bot's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testCommands wraps the real command table with two test-only words:
// "explode" panics and "slow …" sleeps before answering.
type testCommands struct {
	*commands.Set
	slow time.Duration
}

func (c testCommands) Dispatch(ctx context.Context, req commands.Request) (*commands.Reply, error) {
	text := commands.StripMentions(req.Text)
	if strings.HasPrefix(text, "explode") {
		panic("test panic in a handler")
	}
	if rest, ok := strings.CutPrefix(text, "slow "); ok {
		time.Sleep(c.slow)
		req.Text = rest
	}
	return c.Set.Dispatch(ctx, req)
}

type harness struct {
	t      *testing.T
	fake   *slackfake.Server
	bot    *Bot
	logs   *syncBuffer
	cancel context.CancelFunc
	done   chan error
}

type harnessOpt func(*Config, *Bot)

// start runs a real bot against a fresh fake Slack, logging at debug.
func start(t *testing.T, opts ...harnessOpt) *harness {
	t.Helper()
	fake := slackfake.New(t)
	return startOn(t, fake, nil, opts...)
}

func startOn(t *testing.T, fake *slackfake.Server, dedup Deduper, opts ...harnessOpt) *harness {
	t.Helper()
	logs := &syncBuffer{}
	core := zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), zapcore.AddSync(logs), zap.DebugLevel)
	cfg := Config{AppToken: slackfake.AppToken, BotToken: slackfake.BotToken, APIURL: fake.URL(),
		PingInterval: 5 * time.Second, DrainTimeout: 5 * time.Second}
	st, err := store.OpenEmbedded(filepath.Join(t.TempDir(), "r.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cmds := testCommands{Set: commands.New(commands.Deps{Reservations: st}), slow: 800 * time.Millisecond}
	b, err := New(cfg, zap.New(core), cmds, dedup)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range opts {
		o(&b.cfg, b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h := &harness{t: t, fake: fake, bot: b, logs: logs, cancel: cancel, done: make(chan error, 1)}
	before := len(fake.ConnIDs())
	go func() { h.done <- b.Run(ctx) }()
	waitForNewConnection(t, fake, before)
	t.Cleanup(func() {
		h.stop()
		if t.Failed() {
			lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
			t.Logf("bot log (last %d lines):\n%s", min(len(lines), 80), strings.Join(lines[max(0, len(lines)-80):], "\n"))
		}
		for _, secret := range []string{slackfake.AppToken, slackfake.BotToken} {
			if strings.Contains(logs.String(), secret) {
				t.Errorf("a token appears in the debug log")
			}
		}
		if v := fake.Violations(); len(v) > 0 {
			t.Errorf("Block Kit / protocol violations: %q", v)
		}
	})
	return h
}

func (h *harness) stop() error {
	if h.cancel == nil {
		return nil
	}
	h.cancel()
	h.cancel = nil
	select {
	case err := <-h.done:
		return err
	case <-time.After(15 * time.Second):
		h.t.Fatal("Run did not return after cancel")
		return nil
	}
}

// waitLog waits until every want appears in the bot's log.
func (h *harness) waitLog(want ...string) {
	h.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		logs := h.logs.String()
		var missing []string
		for _, w := range want {
			if !strings.Contains(logs, w) {
				missing = append(missing, w)
			}
		}
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			h.t.Errorf("log lacks %q", missing)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// ackPayload waits for the ack of id and decodes its payload.
func (h *harness) ackPayload(id string) map[string]any {
	h.t.Helper()
	a := h.fake.WaitAck(h.t, id, 5*time.Second)
	if a.Latency >= 3*time.Second {
		h.t.Errorf("ack of %s took %v: Slack's deadline is 3 s", id, a.Latency)
	}
	var p map[string]any
	if len(a.Payload) > 0 && string(a.Payload) != "null" {
		if err := json.Unmarshal(a.Payload, &p); err != nil {
			h.t.Fatalf("ack payload: %v", err)
		}
	}
	return p
}

func blocksJSON(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}

const planText = "bert-base 10 epochs of 2.5M samples on h100x2"

func TestSlashPlanIsAnsweredInTheAck(t *testing.T) {
	h := start(t)
	id := h.fake.Push(h.fake.SlashCommand(planText, "U0001", "C0001"))
	p := h.ackPayload(id)
	if p["response_type"] != "ephemeral" {
		t.Errorf("a plan is ephemeral, got %v", p["response_type"])
	}
	js := blocksJSON(p["blocks"])
	for _, want := range []string{"bert-base-uncased", "H100", "fits", actionShare, actionAdjust, "On the team's servers", "Cloud options", "Read as"} {
		if !strings.Contains(js, want) {
			t.Errorf("plan card lacks %q", want)
		}
	}
	if s, _ := p["text"].(string); s == "" {
		t.Error("no fallback text")
	}
	// The structured log names the envelope, user, command and latency
	// (written just after the ack went out, so wait for it).
	h.waitLog(`"envelope_id":"`+id, `"user":"U0001"`, `"command":"bert-base"`, `"latency"`, `"ack_latency"`)
}

func TestSlashHelpAndMistakes(t *testing.T) {
	h := start(t)
	p := h.ackPayload(h.fake.Push(h.fake.SlashCommand("help", "U0001", "C0001")))
	if js := blocksJSON(p["blocks"]); !strings.Contains(js, "build") || !strings.Contains(js, "models") || !strings.Contains(js, "request") {
		t.Errorf("help lacks the command table: %.300s", js)
	}
	p = h.ackPayload(h.fake.Push(h.fake.SlashCommand("bert-bse 3 epochs on h100", "U0001", "C0001")))
	if js := blocksJSON(p); !strings.Contains(js, "did you mean") || p["response_type"] != "ephemeral" {
		t.Errorf("mistake: %s", js)
	}
}

func TestSlashWithoutTextOpensThePlanModal(t *testing.T) {
	h := start(t)
	env := h.fake.SlashCommand("", "U0001", "C0001")
	h.fake.Push(env)
	calls := h.fake.WaitCalls(t, "views.open", 1, 5*time.Second)
	if calls[0].Status != 200 || calls[0].Error != "" {
		t.Fatalf("views.open failed: %+v", calls[0])
	}
	if js := blocksJSON(calls[0].JSON); !strings.Contains(js, planModalID) || !strings.Contains(js, env.TriggerID()) {
		t.Errorf("views.open: %.400s", js)
	}
}

func TestMentionsAreAnsweredWhereTheyWereMade(t *testing.T) {
	h := start(t)
	// In a thread: the answer goes to that thread, visibly.
	h.fake.Push(h.fake.AppMention("<@"+slackfake.BotUserID+"> "+planText, "U0001", "C0001", "1700000000.000100"))
	calls := h.fake.WaitCalls(t, "chat.postMessage", 1, 5*time.Second)
	if c := calls[0]; c.Param("thread_ts") != "1700000000.000100" || c.Param("channel") != "C0001" {
		t.Errorf("thread mention answered as %v", c.Form)
	}
	// At the top of the channel: a thread is started under the mention.
	env := h.fake.AppMention("<@"+slackfake.BotUserID+"> llama3 8b lora 학습하려면 4090 몇 장 필요해?", "U0002", "C0001", "")
	ts := env.Event()["ts"].(string)
	h.fake.Push(env)
	calls = h.fake.WaitCalls(t, "chat.postMessage", 2, 5*time.Second)
	c := calls[1]
	if c.Param("thread_ts") != ts || c.Param("channel") != "C0001" {
		t.Errorf("top-level mention answered as %v, want a thread under %s", c.Form, ts)
	}
	if js := blocksJSON(c.JSON) + c.Param("blocks"); !strings.Contains(js, "Read as") || !strings.Contains(js, "rtx-4090") {
		t.Errorf("the Korean question's answer lacks its reading: %.600s", js)
	}
	if n := len(h.fake.Calls("chat.postEphemeral")); n != 0 {
		t.Errorf("%d ephemeral answers to mentions; mentions answer the team", n)
	}
}

func TestDirectMessagesAndTheBotsOwnMessages(t *testing.T) {
	h := start(t)
	h.fake.Push(h.fake.BotEcho("a plan the bot posted"))
	h.fake.Push(h.fake.DirectMessage(planText, "U0001"))
	calls := h.fake.WaitCalls(t, "chat.postMessage", 1, 5*time.Second)
	time.Sleep(200 * time.Millisecond) // let a wrong answer to the echo arrive, if there were one
	if n := len(h.fake.Calls("chat.postMessage")); n != 1 {
		t.Errorf("%d posts: the bot answered its own message", n)
	}
	if calls[0].Param("channel") != slackfake.DMChannel("U0001") || !strings.Contains(calls[0].Param("blocks"), "H100") {
		t.Errorf("DM answer: %v", calls[0].Form)
	}
}

func TestShareRepostsInTheChannel(t *testing.T) {
	h := start(t)
	env := h.fake.BlockAction("U0001", actionShare, planText, slackfake.Container{Type: "message", ChannelID: "C0001", MessageTS: "1700000000.000200", IsEphemeral: true})
	h.fake.Push(env)
	posts := h.fake.WaitResponsePosts(t, 1, 5*time.Second)
	if posts[0].Body["response_type"] != "in_channel" || !strings.Contains(blocksJSON(posts[0].Body), "H100") {
		t.Errorf("share: %.300s", blocksJSON(posts[0].Body))
	}
}

func TestAdjustOpensAPrefilledModalAndValidates(t *testing.T) {
	h := start(t)
	action := h.fake.BlockAction("U0001", actionAdjust, planText, slackfake.Container{Type: "message", ChannelID: "C0001", MessageTS: "1700000000.000300", IsEphemeral: true})
	h.fake.Push(action)
	open := h.fake.WaitCalls(t, "views.open", 1, 5*time.Second)[0]
	if js := blocksJSON(open.JSON); !strings.Contains(js, "bert-base-uncased") || !strings.Contains(js, "2x h100-sxm5-80gb") {
		t.Errorf("modal not prefilled: %.500s", js)
	}
	meta, _ := json.Marshal(modalMeta{Channel: "C0001", ResponseURL: action.ResponseURL()})
	field := func(v string) map[string]any {
		return map[string]any{modalInputID: map[string]any{"type": "plain_text_input", "value": v}}
	}
	bad := h.fake.ViewSubmission("U0001", planModalID, string(meta), map[string]map[string]any{
		"model": field("bert-bse"), "hardware": field("2x h100"),
	})
	p := h.ackPayload(h.fake.Push(bad))
	errs, _ := p["errors"].(map[string]any)
	if p["response_action"] != "errors" || !strings.Contains(errs["model"].(string), "bert-base") {
		t.Fatalf("want a field error under model, got %v", p)
	}
	good := h.fake.ViewSubmission("U0001", planModalID, string(meta), map[string]map[string]any{
		"model": field("bert-base"), "amount": field("3 epochs of 1M samples"), "hardware": field("4x a100"),
	})
	if p := h.ackPayload(h.fake.Push(good)); p != nil {
		t.Errorf("a valid form closes the modal with a bare ack, got %v", p)
	}
	posts := h.fake.WaitResponsePosts(t, 1, 5*time.Second)
	if js := blocksJSON(posts[0].Body); !strings.Contains(js, "A100") {
		t.Errorf("the adjusted plan was not posted: %.300s", js)
	}
}

func TestDuplicatesAreProcessedOnce(t *testing.T) {
	h := start(t)
	env := h.fake.SlashCommand(planText, "U0001", "C0001")
	h.fake.Push(env)
	h.fake.Push(env) // same envelope id: a redelivery
	h.ackPayload(env.ID)
	deadline := time.Now().Add(5 * time.Second)
	for len(h.fake.Acks(env.ID)) < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	withAnswer := 0
	for _, a := range h.fake.Acks(env.ID) {
		if len(a.Payload) > 0 && string(a.Payload) != "null" {
			withAnswer++
		}
	}
	if n := len(h.fake.Acks(env.ID)); n != 2 || withAnswer != 1 {
		t.Errorf("%d acks, %d with an answer: want both acked, one answered", n, withAnswer)
	}
	dm := h.fake.DirectMessage("help", "U0002")
	h.fake.Push(dm)
	h.fake.Push(h.fake.Redeliver(dm, 1, "timeout")) // new envelope, same event_id
	h.fake.WaitCalls(t, "chat.postMessage", 1, 5*time.Second)
	time.Sleep(200 * time.Millisecond)
	if n := len(h.fake.Calls("chat.postMessage")); n != 1 {
		t.Errorf("redelivered event answered %d times", n)
	}
}

func TestRefreshDisconnectLosesNoCommand(t *testing.T) {
	h := start(t)
	var ids []string
	for range 5 {
		ids = append(ids, h.fake.Push(h.fake.SlashCommand("help", "U0001", "C0001")))
	}
	h.fake.Disconnect("refresh_requested")
	h.fake.WaitOpens(t, 2, 10*time.Second)
	h.fake.WaitConnections(t, 1, 10*time.Second)
	for range 5 {
		ids = append(ids, h.fake.Push(h.fake.SlashCommand("help", "U0002", "C0001")))
	}
	for _, id := range ids {
		h.ackPayload(id)
	}
	h.waitLog("refresh_requested")
}

func TestRateLimitIsHonoured(t *testing.T) {
	h := start(t)
	h.fake.Inject("chat.postMessage", slackfake.Fault{Status: 429, RetryAfter: 1, Times: 1})
	h.fake.Push(h.fake.DirectMessage("help", "U0001"))
	calls := h.fake.WaitCalls(t, "chat.postMessage", 2, 10*time.Second)
	if calls[0].Status != 429 || calls[1].Status != 200 {
		t.Fatalf("statuses %d, %d", calls[0].Status, calls[1].Status)
	}
	if gap := calls[1].At.Sub(calls[0].At); gap < 900*time.Millisecond {
		t.Errorf("retried after %v, Retry-After said 1 s", gap)
	}
}

func TestAHandlerPanicDoesNotStopTheBot(t *testing.T) {
	h := start(t)
	p := h.ackPayload(h.fake.Push(h.fake.SlashCommand("explode", "U0001", "C0001")))
	if js := blocksJSON(p); !strings.Contains(js, "Something went wrong") || !strings.Contains(js, "ref") {
		t.Errorf("panic answer: %s", js)
	}
	p = h.ackPayload(h.fake.Push(h.fake.SlashCommand(planText, "U0001", "C0001")))
	if !strings.Contains(blocksJSON(p), "H100") {
		t.Error("the bot stopped answering after a panic")
	}
	h.waitLog("command panicked")
	// The error is logged once, with the ref the user saw.
	if n := strings.Count(h.logs.String(), "test panic in a handler"); n != 1 {
		t.Errorf("panic logged %d times", n)
	}
}

func TestSlowCommandsFinishThroughResponseURLAndShutdownDrains(t *testing.T) {
	h := start(t, func(c *Config, b *Bot) { b.cfg.AckBudget = 200 * time.Millisecond })
	id := h.fake.Push(h.fake.SlashCommand("slow "+planText, "U0001", "C0001"))
	p := h.ackPayload(id)
	if !strings.Contains(blocksJSON(p), "Working on it") {
		t.Errorf("slow command ack: %v", p)
	}
	// SIGTERM while the command is still running: Run returns only after it
	// has answered.
	if err := h.stop(); err != nil {
		t.Fatalf("Run returned %v, want nil after a drain", err)
	}
	posts := h.fake.ResponsePosts()
	if len(posts) != 1 || posts[0].Body["replace_original"] != true || !strings.Contains(blocksJSON(posts[0].Body), "H100") {
		t.Fatalf("the in-flight command did not finish before shutdown: %d posts", len(posts))
	}
	if !strings.Contains(h.logs.String(), "drained") {
		t.Error("no drain log line")
	}
}

// faultyConn returns io.ErrUnexpectedEOF (what crypto/tls returns when a
// stream ends mid-record) from the moment its connection is tripped.
type faultyConn struct {
	net.Conn
	tripped *atomic.Bool
}

func (c faultyConn) Read(p []byte) (int, error) {
	if c.tripped.Load() {
		return 0, io.ErrUnexpectedEOF
	}
	n, err := c.Conn.Read(p)
	if c.tripped.Load() {
		return 0, io.ErrUnexpectedEOF
	}
	return n, err
}

func TestATransportUnexpectedEOFReconnectsInsteadOfCrashing(t *testing.T) {
	var mu sync.Mutex
	var current *atomic.Bool // the flag of the newest connection
	h := start(t, func(c *Config, b *Bot) {
		b.wrapConn = func(c net.Conn) net.Conn {
			f := &atomic.Bool{}
			mu.Lock()
			current = f
			mu.Unlock()
			return faultyConn{Conn: c, tripped: f}
		}
	})
	first := h.fake.Opens()
	old := h.fake.ConnIDs()
	mu.Lock()
	current.Store(true) // this connection's transport now fails every read
	mu.Unlock()
	h.fake.WaitOpens(t, first+1, 10*time.Second)
	// Wait until the old socket is gone and only the new one is live, so
	// the push cannot land on the connection the bot abandoned.
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ids := h.fake.ConnIDs()
		if len(ids) == 1 && ids[0] != old[0] {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	ids := h.fake.ConnIDs()
	if len(ids) != 1 || ids[0] == old[0] {
		t.Fatalf("connections %v after the fault (old %v)", ids, old)
	}
	if !strings.Contains(blocksJSON(h.ackPayload(h.fake.PushTo(ids[0], h.fake.SlashCommand("help", "U0001", "C0001")))), "plan") {
		t.Error("no answer after the reconnect")
	}
}

func TestLinkDisabledBacksOffInsteadOfHammering(t *testing.T) {
	h := start(t)
	h.fake.Disconnect("link_disabled")
	time.Sleep(500 * time.Millisecond)
	if n := h.fake.Opens(); n != 1 {
		t.Errorf("%d connection opens within 0.5 s of link_disabled: want a backoff", n)
	}
	h.fake.WaitOpens(t, 2, 10*time.Second)
	h.waitLog("link_disabled", "Socket Mode")
}

// Two replicas on one fake Slack that spreads envelopes over both
// connections: every command answered exactly once.
func TestTwoConnectionsShareTheWork(t *testing.T) {
	fake := slackfake.New(t, slackfake.WithSeed(7))
	shared := newMemoryDeduper(time.Now)
	startOn(t, fake, shared)
	fake.WaitConnections(t, 1, 5*time.Second)
	startOn(t, fake, shared)
	fake.WaitConnections(t, 2, 5*time.Second)
	var ids []string
	for range 20 {
		env := fake.SlashCommand("help", "U0001", "C0001")
		ids = append(ids, fake.Push(env))
		fake.Push(env) // and a redelivery, possibly to the other connection
	}
	conns := map[int]bool{}
	for _, id := range ids {
		answered := 0
		deadline := time.Now().Add(5 * time.Second)
		for len(fake.Acks(id)) < 2 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		for _, a := range fake.Acks(id) {
			conns[a.Conn] = true
			if len(a.Payload) > 0 && string(a.Payload) != "null" {
				answered++
			}
		}
		if answered != 1 {
			t.Errorf("%s answered %d times", id, answered)
		}
	}
	if len(conns) < 2 {
		t.Errorf("envelopes went to %d connection(s); the fake should spread them", len(conns))
	}
}

// waitForNewConnection waits until the fake has more live connections
// than before (counted before the bot started).
func waitForNewConnection(t *testing.T, fake *slackfake.Server, before int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(fake.ConnIDs()) <= before && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if len(fake.ConnIDs()) <= before {
		t.Fatal("the bot did not connect")
	}
}

// buttonValue finds a button by its text in posted blocks (a JSON string).
func buttonValue(t *testing.T, blocksJSON, label string) (actionID, value string) {
	t.Helper()
	var blocks []map[string]any
	if err := json.Unmarshal([]byte(blocksJSON), &blocks); err != nil {
		t.Fatalf("blocks: %v", err)
	}
	for _, b := range blocks {
		els, _ := b["elements"].([]any)
		for _, e := range els {
			el, _ := e.(map[string]any)
			txt, _ := el["text"].(map[string]any)
			if txt["text"] == label {
				return el["action_id"].(string), el["value"].(string)
			}
		}
	}
	t.Fatalf("no %q button in %s", label, blocksJSON)
	return "", ""
}

func TestReservationsAreAnnouncedAndTheirButtonsWork(t *testing.T) {
	h := start(t)
	id := h.fake.Push(h.fake.SlashCommand(`reserve 2 on server-h for 2h note "<!channel> sweep"`, "U0001", "C0001"))
	h.ackPayload(id)
	post := h.fake.WaitCalls(t, "chat.postMessage", 1, 5*time.Second)[0]
	if post.Param("channel") != "C0001" || !strings.Contains(post.Param("text"), "reserved 2") {
		t.Fatalf("announcement: %v", post.Form)
	}
	if strings.Contains(post.Param("blocks"), "<!channel>") {
		t.Error("a note pinged the channel")
	}
	msgs := h.fake.Messages("C0001")
	ts := msgs[len(msgs)-1].TS
	actionID, value := buttonValue(t, post.Param("blocks"), "Release")

	// Someone else's click is refused privately and changes nothing.
	h.fake.Push(h.fake.BlockAction("U0002", actionID, value, slackfake.Container{Type: "message", ChannelID: "C0001", MessageTS: ts}))
	resp := h.fake.WaitResponsePosts(t, 1, 5*time.Second)[0]
	if !strings.Contains(blocksJSON(resp.Body), "someone else") || resp.Body["response_type"] != "ephemeral" {
		t.Errorf("other user's click: %.300s", blocksJSON(resp.Body))
	}
	if n := len(h.fake.Calls("chat.update")); n != 0 {
		t.Errorf("%d chat.update calls after a refused click", n)
	}
	// The owner's click releases and updates the announcement in place.
	h.fake.Push(h.fake.BlockAction("U0001", actionID, value, slackfake.Container{Type: "message", ChannelID: "C0001", MessageTS: ts}))
	upd := h.fake.WaitCalls(t, "chat.update", 1, 5*time.Second)[0]
	if upd.Param("ts") != ts || !strings.Contains(upd.Param("text"), "released") {
		t.Errorf("update: %v", upd.Form)
	}
	// A second click on the stale button applies nothing new.
	h.fake.Push(h.fake.BlockAction("U0001", actionID, value, slackfake.Container{Type: "message", ChannelID: "C0001", MessageTS: ts}))
	time.Sleep(300 * time.Millisecond)
	if n := len(h.fake.Calls("chat.update")); n > 2 {
		t.Errorf("a double click produced %d updates", n)
	}
}

func TestNoticesAreDeliveredAsDMsAndUpdates(t *testing.T) {
	h := start(t)
	ctx := context.Background()
	dm := commands.Notice{User: "U0001", Kind: "reminder", Reply: &commands.Reply{Title: "Your GPUs end in 10m", Summary: "soon",
		Actions: []commands.Action{{ID: commands.ActionRun, Label: "Extend 1h", Command: "extend server-h-1 1h", RequestID: "x"}}}}
	if err := h.bot.Notify(ctx, dm); err != nil {
		t.Fatal(err)
	}
	post := h.fake.WaitCalls(t, "chat.postMessage", 1, 5*time.Second)[0]
	if post.Param("channel") != slackfake.DMChannel("U0001") || !strings.Contains(post.Param("blocks"), "Extend 1h") {
		t.Errorf("DM: %v", post.Form)
	}
	// An update of a message the bot posted.
	_, ts := h.fake.Calls("chat.postMessage")[0].Param("channel"), h.fake.Messages(slackfake.DMChannel("U0001"))[0].TS
	if err := h.bot.Notify(ctx, commands.Notice{Channel: slackfake.DMChannel("U0001"), TS: ts, Kind: "expired",
		Reply: &commands.Reply{Title: "expired", Summary: "GPUs expired"}}); err != nil {
		t.Fatal(err)
	}
	if upd := h.fake.WaitCalls(t, "chat.update", 1, 5*time.Second)[0]; upd.Param("ts") != ts {
		t.Errorf("update: %v", upd.Form)
	}
}

func TestReservationTimesAreReadInTheUsersTimeZone(t *testing.T) {
	h := start(t)
	id := h.fake.Push(h.fake.SlashCommand("reserve 1 on server-a from tomorrow 9:00 for 1h", "U0001", "C0001"))
	if p := h.ackPayload(id); p != nil {
		t.Errorf("a time-sensitive command is acked before users.info, without an answer: %v", p)
	}
	if calls := h.fake.WaitCalls(t, "users.info", 1, 5*time.Second); calls[0].Param("user") != "U0001" {
		t.Errorf("users.info for %v", calls[0].Form)
	}
	post := h.fake.WaitCalls(t, "chat.postMessage", 1, 5*time.Second)[0]
	if !strings.Contains(post.Param("blocks"), "Europe/Berlin") || !strings.Contains(post.Param("text"), "tomorrow 09:00") {
		t.Errorf("announcement not in the user's zone: %s", post.Param("text"))
	}
}

// A button whose reservation changed since its message was posted (here:
// extended from a slash command) is refused privately with what changed,
// and does not act.
func TestAStaleReservationButtonIsRefused(t *testing.T) {
	h := start(t)
	h.ackPayload(h.fake.Push(h.fake.SlashCommand("reserve 1 on server-h for 2h", "U0001", "C0001")))
	post := h.fake.WaitCalls(t, "chat.postMessage", 1, 5*time.Second)[0]
	msgs := h.fake.Messages("C0001")
	ts := msgs[len(msgs)-1].TS
	actionID, value := buttonValue(t, post.Param("blocks"), "Release")
	var rv runValue
	if err := json.Unmarshal([]byte(value), &rv); err != nil || rv.Posted == "" {
		t.Fatalf("the Release button carries no fingerprint: %s (%v)", value, err)
	}
	id := strings.TrimPrefix(rv.Command, "release ")
	if !strings.HasPrefix(rv.Posted, id+"@U0001@") {
		t.Fatalf("fingerprint %q is not about %s", rv.Posted, id)
	}

	h.ackPayload(h.fake.Push(h.fake.SlashCommand("extend "+id+" 1h", "U0001", "C0001")))
	before := len(h.fake.ResponsePosts())
	updates := len(h.fake.Calls("chat.update"))
	h.fake.Push(h.fake.BlockAction("U0001", actionID, value, slackfake.Container{Type: "message", ChannelID: "C0001", MessageTS: ts}))
	resp := h.fake.WaitResponsePosts(t, before+1, 5*time.Second)[before]
	body := blocksJSON(resp.Body)
	if resp.Body["response_type"] != "ephemeral" || !strings.Contains(body, "out of date") || !strings.Contains(body, id) || !strings.Contains(body, "now ends") {
		t.Errorf("stale click: %.400s", body)
	}
	time.Sleep(200 * time.Millisecond)
	for _, c := range h.fake.Calls("chat.update")[updates:] {
		t.Errorf("a stale click updated the message: %v", c.Form)
	}
	// The reservation is still held.
	if mine := blocksJSON(h.ackPayload(h.fake.Push(h.fake.SlashCommand("mine", "U0001", "C0001")))); !strings.Contains(mine, id) {
		t.Errorf("after a refused Release, mine: %.400s", mine)
	}
}
