package slackfake_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gpuplan/gpuplan/bot/slackfake"
)

// --- raw helpers: plain net/http and gorilla/websocket, no slack-go ---

type reply struct {
	status int
	header http.Header
	body   map[string]any
}

func (r reply) errCode() string { s, _ := r.body["error"].(string); return s }

func do(t *testing.T, req *http.Request) reply {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, header: resp.Header}
	if err := json.Unmarshal(raw, &r.body); err != nil {
		t.Fatalf("%s: body %q is not JSON: %v", req.URL, raw, err)
	}
	return r
}

// form posts like slack-go's postMethod: form-encoded, token in the body.
func form(t *testing.T, s *slackfake.Server, method string, vals url.Values) reply {
	t.Helper()
	if vals == nil {
		vals = url.Values{}
	}
	if !vals.Has("token") {
		vals.Set("token", slackfake.BotToken)
	}
	req, _ := http.NewRequest(http.MethodPost, s.URL()+method, strings.NewReader(vals.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return do(t, req)
}

// postJSON posts like slack-go's postJSONMethod: JSON body, Bearer token.
func postJSON(t *testing.T, target, token string, body any) reply {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, target, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(t, req)
}

func jsonOf(v any) string { b, _ := json.Marshal(v); return string(b) }

type client struct {
	ws    *websocket.Conn
	msgs  chan map[string]any
	err   chan error
	pings atomic.Int32
}

// dial opens a Socket Mode connection the way slack-go does.
func dial(t *testing.T, s *slackfake.Server) *client {
	t.Helper()
	r := postJSON(t, s.URL()+"apps.connections.open", slackfake.AppToken, nil)
	u, _ := r.body["url"].(string)
	if r.body["ok"] != true || !strings.HasPrefix(u, "ws://127.0.0.1:") {
		t.Fatalf("apps.connections.open = %v", r.body)
	}
	ws, _, err := websocket.DefaultDialer.Dial(u, http.Header{"Origin": {"https://api.slack.com"}})
	if err != nil {
		t.Fatalf("dial %s: %v", u, err)
	}
	c := &client{ws: ws, msgs: make(chan map[string]any, 100), err: make(chan error, 1)}
	ws.SetPingHandler(func(data string) error {
		c.pings.Add(1)
		return ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				c.err <- err
				return
			}
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				c.err <- err
				return
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() { ws.Close(); <-done })
	return c
}

func (c *client) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case m := <-c.msgs:
		return m
	case err := <-c.err:
		// Frames read before the error are queued first: drain them first.
		select {
		case m := <-c.msgs:
			c.err <- err
			return m
		default:
		}
		t.Fatalf("socket closed: %v", err)
	case <-time.After(2 * time.Second):
		t.Fatal("no frame within 2s")
	}
	return nil
}

func (c *client) ack(t *testing.T, id string, payload any) {
	t.Helper()
	m := map[string]any{"envelope_id": id}
	if payload != nil {
		m["payload"] = payload
	}
	if err := c.ws.WriteJSON(m); err != nil {
		t.Fatal(err)
	}
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) Advance(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

func noViolations(t *testing.T, s *slackfake.Server) {
	t.Helper()
	if v := s.Violations(); len(v) > 0 {
		t.Fatalf("unexpected violations: %q", v)
	}
}

// --- Socket Mode ---

func TestHelloAndPings(t *testing.T) {
	s := slackfake.New(t, slackfake.WithPingInterval(20*time.Millisecond))
	c := dial(t, s)
	hello := c.next(t)
	if hello["type"] != "hello" || hello["num_connections"] != 1.0 ||
		obj(hello["connection_info"])["app_id"] != slackfake.AppID ||
		obj(hello["debug_info"])["approximate_connection_time"] == nil {
		t.Fatalf("hello = %v", hello)
	}
	s.WaitConnections(t, 1, time.Second)
	eventually(t, "3 pings", func() bool { return c.pings.Load() >= 3 })
	eventually(t, "pongs", func() bool { return s.Pongs() >= 3 })

	c2 := dial(t, s)
	if h := c2.next(t); h["num_connections"] != 2.0 {
		t.Fatalf("second hello = %v", h)
	}
	s.WaitConnections(t, 2, time.Second)
	if s.Opens() != 2 || !slices.Equal(s.ConnIDs(), []int{1, 2}) {
		t.Fatalf("opens %d, conns %v", s.Opens(), s.ConnIDs())
	}
}

func TestPushAckLatency(t *testing.T) {
	s := slackfake.New(t)
	c := dial(t, s)
	c.next(t)

	env := s.SlashCommand("bert-base 10 epochs on h100x2", "U0001", "C0001")
	id := s.Push(env)
	got := c.next(t)
	p := obj(got["payload"])
	if got["envelope_id"] != id || got["type"] != "slash_commands" || got["accepts_response_payload"] != true ||
		p["is_enterprise_install"] != "false" || p["command"] != "/gpuplan" || p["user_name"] != "alice" ||
		p["channel_name"] != "ml-infra" || p["trigger_id"] == "" ||
		!strings.HasPrefix(p["response_url"].(string), s.URL()+"response/") {
		t.Fatalf("slash envelope = %v", got)
	}
	if _, has := got["retry_attempt"]; has {
		t.Errorf("slash_commands envelope carries retry_attempt: %v", got)
	}

	time.Sleep(30 * time.Millisecond)
	c.ack(t, id, map[string]any{"text": "working on it"})
	a := s.WaitAck(t, id, time.Second)
	if a.Latency < 30*time.Millisecond || a.Latency > time.Second || a.Conn != 1 || a.PushConn != 1 ||
		a.Type != "slash_commands" || !strings.Contains(string(a.Payload), "working on it") {
		t.Fatalf("ack = %+v", a)
	}
	c.ack(t, id, nil)
	eventually(t, "second ack", func() bool { return len(s.Acks(id)) == 2 })
	if s.Acks(id)[1].Payload != nil {
		t.Errorf("bare ack has payload %s", s.Acks(id)[1].Payload)
	}

	// events_api envelopes always carry the retry fields.
	mid := s.Push(s.AppMention("status node1", "U0002", "C0001", "1700000000.000100"))
	m := c.next(t)
	ev := obj(obj(m["payload"])["event"])
	if m["envelope_id"] != mid || m["retry_attempt"] != 0.0 || m["retry_reason"] != "" ||
		ev["text"] != "<@U0BOT> status node1" || ev["thread_ts"] != "1700000000.000100" || ev["type"] != "app_mention" {
		t.Fatalf("app_mention = %v", m)
	}
	noViolations(t, s)
}

func TestRedeliverKeepsEventID(t *testing.T) {
	s := slackfake.New(t)
	e := s.DirectMessage("status", "U0001")
	r := s.Redeliver(e, 1, "timeout")
	if r.ID == e.ID || r.EventID() != e.EventID() || r.RetryAttempt != 1 || r.RetryReason != "timeout" {
		t.Fatalf("redelivery %+v of %+v", r, e)
	}
	if ev := e.Event(); ev["channel"] != slackfake.DMChannel("U0001") || ev["channel_type"] != "im" {
		t.Fatalf("DM event = %v", ev)
	}
	if ev := s.BotEcho("x").Event(); ev["bot_id"] != slackfake.BotID || ev["subtype"] != "bot_message" {
		t.Fatalf("bot echo = %v", ev)
	}
}

func TestRandomDistributionIsSeeded(t *testing.T) {
	run := func(seed int64) []int {
		s := slackfake.New(t, slackfake.WithSeed(seed))
		c1 := dial(t, s)
		c1.next(t)
		c2 := dial(t, s)
		c2.next(t)
		s.WaitConnections(t, 2, time.Second)
		var got []int
		for range 40 {
			id := s.Push(s.DirectMessage("hi", "U0001"))
			var m map[string]any
			select {
			case m = <-c1.msgs:
				got = append(got, 1)
			case m = <-c2.msgs:
				got = append(got, 2)
			case <-time.After(time.Second):
				t.Fatal("envelope not delivered")
			}
			if m["envelope_id"] != id {
				t.Fatalf("got %v, pushed %s", m["envelope_id"], id)
			}
		}
		return got
	}
	a, b := run(7), run(7)
	if !slices.Equal(a, b) {
		t.Fatalf("same seed, different distribution:\n%v\n%v", a, b)
	}
	ones := 0
	for _, c := range a {
		if c == 1 {
			ones++
		}
	}
	if ones < 8 || ones > 32 {
		t.Fatalf("connection 1 got %d of 40 envelopes: %v", ones, a)
	}
}

// WithRoundRobin deals envelopes to the live connections in turn, skipping
// one that went away; PushedTo says where each went.
func TestRoundRobin(t *testing.T) {
	s := slackfake.New(t, slackfake.WithRoundRobin())
	// One at a time: the fake numbers a connection after the upgrade and
	// before its hello, so waiting for each hello fixes the numbering
	// (dialled together, two upgrades could be numbered in either order).
	var cs []*client
	for range 3 {
		c := dial(t, s)
		c.next(t)
		cs = append(cs, c)
	}
	s.WaitConnections(t, 3, time.Second)
	recv := func() int {
		t.Helper()
		select {
		case <-cs[0].msgs:
			return 1
		case <-cs[1].msgs:
			return 2
		case <-cs[2].msgs:
			return 3
		case <-time.After(time.Second):
			t.Fatal("envelope not delivered")
		}
		return 0
	}
	var got []int
	for range 7 {
		id := s.Push(s.DirectMessage("hi", "U0001"))
		conn := recv()
		if at, ok := s.PushedTo(id); !ok || at != conn {
			t.Errorf("PushedTo(%s) = %d, %v; it arrived on %d", id, at, ok, conn)
		}
		got = append(got, conn)
	}
	if want := []int{1, 2, 3, 1, 2, 3, 1}; !slices.Equal(got, want) {
		t.Errorf("round robin over 3 connections: %v, want %v", got, want)
	}
	s.DisconnectOne(2, "refresh_requested")
	s.WaitConnections(t, 2, 2*time.Second)
	if m := cs[1].next(t); m["type"] != "disconnect" {
		t.Fatalf("connection 2 got %v, want the disconnect", m)
	}
	got = got[:0]
	for range 4 {
		s.Push(s.DirectMessage("hi", "U0001"))
		got = append(got, recv())
	}
	if want := []int{3, 1, 3, 1}; !slices.Equal(got, want) {
		t.Errorf("round robin after connection 2 left: %v, want %v", got, want)
	}
	if _, ok := s.PushedTo("never-pushed"); ok {
		t.Error("PushedTo knows an envelope that was never pushed")
	}
}

func TestDisconnect(t *testing.T) {
	s := slackfake.New(t)
	c := dial(t, s)
	c.next(t)

	s.Disconnect("warning")
	if m := c.next(t); m["type"] != "disconnect" || m["reason"] != "warning" {
		t.Fatalf("got %v", m)
	}
	if s.Connections() != 1 {
		t.Fatal("warning closed the socket")
	}
	s.Push(s.AppHomeOpened("U0001"))
	c.next(t)

	s.Disconnect("refresh_requested")
	if m := c.next(t); m["type"] != "disconnect" || m["reason"] != "refresh_requested" {
		t.Fatalf("got %v", m)
	}
	if n := s.Connections(); n != 0 {
		t.Fatalf("%d connections after refresh_requested", n)
	}
	select {
	case err := <-c.err:
		if !websocket.IsCloseError(err, websocket.CloseNormalClosure) {
			t.Fatalf("client read error %v, want a close frame", err)
		}
	case <-time.After(time.Second):
		t.Fatal("socket still open")
	}
	if _, err := s.PushErr(s.AppHomeOpened("U0001")); !errors.Is(err, slackfake.ErrNoConnection) {
		t.Fatalf("PushErr without connections = %v", err)
	}

	c2 := dial(t, s)
	c2.next(t)
	s.DropConnections()
	select {
	case err := <-c2.err:
		if !websocket.IsCloseError(err, websocket.CloseAbnormalClosure) {
			t.Fatalf("client read error %v, want 1006", err)
		}
	case <-time.After(time.Second):
		t.Fatal("socket still open")
	}
	s.WaitConnections(t, 0, time.Second)
}

func TestConnectionsOpenAuthAndTickets(t *testing.T) {
	s := slackfake.New(t)
	open := s.URL() + "apps.connections.open"
	for _, tok := range []string{"", slackfake.BotToken, "xapp-wrong"} {
		if r := postJSON(t, open, tok, nil); r.errCode() != "invalid_auth" {
			t.Errorf("token %q: %v", tok, r.body)
		}
	}
	r := postJSON(t, open, slackfake.AppToken, nil)
	u := r.body["url"].(string)
	ws, _, err := websocket.DefaultDialer.Dial(u, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if _, resp, err := websocket.DefaultDialer.Dial(u, nil); err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("second dial with the same ticket: err %v", err)
	}
	if s.Opens() != 1 || len(s.Calls("apps.connections.open")) != 4 {
		t.Fatalf("opens %d, calls %d", s.Opens(), len(s.Calls("apps.connections.open")))
	}
}

func TestAckViolations(t *testing.T) {
	s := slackfake.New(t)
	c := dial(t, s)
	c.next(t)
	id := s.Push(s.SlashCommand("x", "U0001", "C0001"))
	c.next(t)
	c.ack(t, id, map[string]any{"blocks": []any{map[string]any{"type": "divider"}}})
	s.WaitAck(t, id, time.Second)
	c.ack(t, id, map[string]any{"text": strings.Repeat("x", slackfake.MaxAckBytes)})
	c.ack(t, "no-such-envelope", nil)
	eventually(t, "violations", func() bool { return len(s.Violations()) == 3 })
	v := strings.Join(s.Violations(), "\n")
	for _, want := range []string{"no top-level text fallback", "Slack drops it", "unknown envelope_id"} {
		if !strings.Contains(v, want) {
			t.Errorf("violations %q lack %q", v, want)
		}
	}
	if n := len(s.Acks(id)); n != 1 {
		t.Errorf("oversized ack was recorded: %d acks", n)
	}
}

// --- Web API ---

func TestWebAPITokens(t *testing.T) {
	s := slackfake.New(t)
	r := form(t, s, "auth.test", nil)
	if r.body["ok"] != true || r.body["user_id"] != slackfake.BotUserID || r.body["bot_id"] != slackfake.BotID ||
		r.header.Get("X-OAuth-Scopes") != strings.Join(slackfake.DefaultScopes, ",") {
		t.Fatalf("auth.test = %v %v", r.body, r.header)
	}
	if r := postJSON(t, s.URL()+"auth.test", slackfake.BotToken, map[string]any{}); r.body["ok"] != true {
		t.Fatalf("auth.test with Bearer = %v", r.body)
	}
	for tok, want := range map[string]string{"": "not_authed", "xoxb-wrong": "invalid_auth", slackfake.AppToken: "invalid_auth"} {
		req, _ := http.NewRequest(http.MethodPost, s.URL()+"chat.postMessage",
			strings.NewReader(url.Values{"token": {tok}, "channel": {"C0001"}, "text": {"x"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if r := do(t, req); r.errCode() != want {
			t.Errorf("token %q: %v, want %s", tok, r.body, want)
		}
	}
	if r := form(t, s, "chat.frobnicate", nil); r.status != http.StatusNotFound || r.errCode() != "unknown_method" {
		t.Errorf("unknown method: %d %v", r.status, r.body)
	}

	s.SetScopes("chat:write")
	if r := form(t, s, "auth.test", nil); r.header.Get("X-OAuth-Scopes") != "chat:write" {
		t.Errorf("scopes header %q", r.header.Get("X-OAuth-Scopes"))
	}
	if r := form(t, s, "users.info", url.Values{"user": {"U0001"}}); r.errCode() != "missing_scope" || r.body["needed"] != "users:read" {
		t.Errorf("users.info without users:read = %v", r.body)
	}
	if calls := s.Calls("auth.test"); len(calls) != 3 || calls[0].Form.Get("token") != slackfake.BotToken {
		t.Errorf("auth.test calls = %+v", calls)
	}
}

func TestTriggerIDExpiryAndSingleUse(t *testing.T) {
	clk := newClock()
	s := slackfake.New(t, slackfake.WithClock(clk.Now))
	modal := map[string]any{"type": "modal", "callback_id": "reserve.modal",
		"title": map[string]any{"type": "plain_text", "text": "Reserve GPUs"}, "blocks": []any{}}
	open := func(trigger string) reply {
		return postJSON(t, s.URL()+"views.open", slackfake.BotToken, map[string]any{"trigger_id": trigger, "view": modal})
	}

	trig := s.SlashCommand("reserve", "U0001", "C0001").TriggerID()
	clk.Advance(2900 * time.Millisecond)
	r := open(trig)
	view := obj(r.body["view"])
	if r.body["ok"] != true || view["id"] == "" || view["callback_id"] != "reserve.modal" {
		t.Fatalf("views.open = %v", r.body)
	}
	if r := open(trig); r.errCode() != "exchanged_trigger_id" {
		t.Errorf("reused trigger: %v", r.body)
	}
	late := s.SlashCommand("reserve", "U0001", "C0001").TriggerID()
	clk.Advance(3001 * time.Millisecond)
	if r := open(late); r.errCode() != "expired_trigger_id" {
		t.Errorf("late trigger: %v", r.body)
	}
	if r := open("1.2.deadbeef"); r.errCode() != "expired_trigger_id" {
		t.Errorf("unknown trigger: %v", r.body)
	}

	// A modal stack holds 3 views: views.open plus two views.push.
	top := view["id"].(string)
	for i := range 3 {
		trig := s.BlockAction("U0001", "more", "", slackfake.Container{Type: "view", ViewID: top}).TriggerID()
		r := postJSON(t, s.URL()+"views.push", slackfake.BotToken, map[string]any{"trigger_id": trig, "view": modal})
		if i < 2 {
			if r.body["ok"] != true || obj(r.body["view"])["root_view_id"] != view["id"] {
				t.Fatalf("push %d = %v", i, r.body)
			}
			top = obj(r.body["view"])["id"].(string)
		} else if r.errCode() != "push_limit_reached" {
			t.Fatalf("third push = %v", r.body)
		}
	}

	// view_submission carries the modal the app opened last with that callback_id.
	sub := s.ViewSubmission("U0001", "reserve.modal", `{"channel":"C0001"}`,
		map[string]map[string]any{"count": {"count_input": map[string]any{"type": "number_input", "value": "2"}}})
	v := obj(sub.Payload["view"])
	if v["id"] != top || v["private_metadata"] != `{"channel":"C0001"}` || sub.TriggerID() == "" ||
		obj(obj(obj(v["state"])["values"])["count"])["count_input"] == nil {
		t.Fatalf("view_submission view = %v", v)
	}
	noViolations(t, s)
}

func TestResponseURLLimits(t *testing.T) {
	clk := newClock()
	s := slackfake.New(t, slackfake.WithClock(clk.Now))
	u := s.SlashCommand("plan", "U0001", "C0001").ResponseURL()
	for i := range 5 {
		r := postJSON(t, u, "", map[string]any{"text": "plan ready", "response_type": "in_channel"})
		if r.status != 200 || r.body["ok"] != true || r.header.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("use %d: %d %v %v", i+1, r.status, r.header, r.body)
		}
	}
	if r := postJSON(t, u, "", map[string]any{"text": "again"}); r.status != 404 || r.errCode() != "used_url" {
		t.Fatalf("sixth use: %d %v", r.status, r.body)
	}
	posts := s.WaitResponsePosts(t, 6, time.Second)
	if posts[0].URL != u || posts[0].Body["text"] != "plan ready" || posts[5].Error != "used_url" {
		t.Fatalf("posts = %+v", posts)
	}
	if n := len(s.Messages("C0001")); n != 5 {
		t.Errorf("in_channel responses kept: %d", n)
	}

	old := s.SlashCommand("plan", "U0001", "C0001").ResponseURL()
	clk.Advance(31 * time.Minute)
	if r := postJSON(t, old, "", map[string]any{"text": "late"}); r.status != 404 || r.errCode() != "expired_url" {
		t.Fatalf("expired url: %d %v", r.status, r.body)
	}
}

func TestChatMessages(t *testing.T) {
	s := slackfake.New(t)
	post := form(t, s, "chat.postMessage", url.Values{"channel": {"C0001"}, "text": {"Reserved"}})
	ts, _ := post.body["ts"].(string)
	if post.body["ok"] != true || ts == "" || obj(post.body["message"])["bot_id"] != slackfake.BotID {
		t.Fatalf("postMessage = %v", post.body)
	}
	if r := form(t, s, "chat.update", url.Values{"channel": {"C0001"}, "ts": {ts}, "text": {"Released"}}); r.body["ok"] != true {
		t.Fatalf("update = %v", r.body)
	}
	if m := s.Messages("C0001"); len(m) != 1 || m[0].Text != "Released" || m[0].Edits != 1 {
		t.Fatalf("messages = %+v", m)
	}
	eph := form(t, s, "chat.postEphemeral", url.Values{"channel": {"C0001"}, "user": {"U0001"}, "text": {"only you"}})
	ets, _ := eph.body["message_ts"].(string)
	if eph.body["ok"] != true || ets == "" {
		t.Fatalf("postEphemeral = %v", eph.body)
	}
	mention := s.AppMention("hi", "U0001", "C0001", "").Event()["ts"].(string)
	for ts, want := range map[string]string{ets: "cant_update_message", mention: "cant_update_message", "1.000001": "message_not_found"} {
		if r := form(t, s, "chat.update", url.Values{"channel": {"C0001"}, "ts": {ts}, "text": {"x"}}); r.errCode() != want {
			t.Errorf("update %s: %v, want %s", ts, r.body, want)
		}
	}
	if r := form(t, s, "chat.delete", url.Values{"channel": {"C0001"}, "ts": {ts}}); r.body["ok"] != true {
		t.Fatalf("delete = %v", r.body)
	}
	if r := form(t, s, "chat.delete", url.Values{"channel": {"C0001"}, "ts": {ts}}); r.errCode() != "message_not_found" {
		t.Fatalf("second delete = %v", r.body)
	}
	if r := form(t, s, "chat.postMessage", url.Values{"channel": {"U0002"}, "text": {"dm"}}); r.body["channel"] != "D0002" {
		t.Fatalf("post to a user = %v", r.body)
	}

	s.AddChannel("C0PUB", "random", false, false)
	s.AddChannel("G0PRIV", "secret", true, false)
	if r := form(t, s, "chat.postMessage", url.Values{"channel": {"C0PUB"}, "text": {"x"}}); r.body["ok"] != true {
		t.Errorf("public channel with chat:write.public: %v", r.body)
	}
	if r := form(t, s, "chat.postMessage", url.Values{"channel": {"G0PRIV"}, "text": {"x"}}); r.errCode() != "channel_not_found" {
		t.Errorf("private channel: %v", r.body)
	}
	if r := form(t, s, "chat.postEphemeral", url.Values{"channel": {"C0PUB"}, "user": {"U0001"}, "text": {"x"}}); r.errCode() != "not_in_channel" {
		t.Errorf("ephemeral in a channel the bot is not in: %v", r.body)
	}
	if r := form(t, s, "chat.postMessage", url.Values{"channel": {"C0001"}}); r.errCode() != "no_text" {
		t.Errorf("empty message: %v", r.body)
	}
	noViolations(t, s)
}

func TestUsersAndConversations(t *testing.T) {
	s := slackfake.New(t, slackfake.WithClock(newClock().Now))
	r := form(t, s, "users.info", url.Values{"user": {"U0001"}})
	u := obj(r.body["user"])
	if u["name"] != "alice" || u["tz"] != "Europe/Berlin" || u["tz_offset"] != 7200.0 {
		t.Fatalf("users.info = %v", r.body)
	}
	if r := form(t, s, "users.info", url.Values{"user": {"U9999"}}); r.errCode() != "user_not_found" {
		t.Errorf("unknown user: %v", r.body)
	}
	s.AddUser("U0003", "dave", "Asia/Kolkata")
	if r := form(t, s, "users.info", url.Values{"user": {"U0003"}}); obj(r.body["user"])["tz_offset"] != 19800.0 {
		t.Errorf("added user: %v", r.body)
	}

	r = form(t, s, "conversations.open", url.Values{"users": {"U0002"}})
	if obj(r.body["channel"])["id"] != "D0002" || r.body["already_open"] != false {
		t.Fatalf("conversations.open = %v", r.body)
	}
	if r := form(t, s, "conversations.open", url.Values{"users": {"U0002"}}); r.body["already_open"] != true {
		t.Errorf("second open = %v", r.body)
	}
	if r := form(t, s, "conversations.info", url.Values{"channel": {"C0001"}}); obj(r.body["channel"])["name"] != "ml-infra" {
		t.Errorf("conversations.info = %v", r.body)
	}
	// The default scopes do not include im:read.
	if r := form(t, s, "conversations.info", url.Values{"channel": {"D0002"}}); r.errCode() != "missing_scope" {
		t.Errorf("conversations.info on a DM = %v", r.body)
	}
}

func TestFaultInjection(t *testing.T) {
	s := slackfake.New(t)
	post := func() reply {
		return form(t, s, "chat.postMessage", url.Values{"channel": {"C0001"}, "text": {"x"}})
	}
	s.Inject("chat.postMessage", slackfake.Fault{Status: 429, RetryAfter: 2})
	s.Inject("chat.postMessage", slackfake.Fault{SlackError: "not_in_channel", Times: 2})
	if r := post(); r.status != 429 || r.header.Get("Retry-After") != "2" || r.errCode() != "ratelimited" {
		t.Fatalf("429 fault: %d %v %v", r.status, r.header, r.body)
	}
	for range 2 {
		if r := post(); r.status != 200 || r.errCode() != "not_in_channel" {
			t.Fatalf("slack error fault: %d %v", r.status, r.body)
		}
	}
	if r := post(); r.body["ok"] != true {
		t.Fatalf("after faults: %v", r.body)
	}
	var statuses []int
	for _, c := range s.Calls("chat.postMessage") {
		statuses = append(statuses, c.Status)
	}
	if !slices.Equal(statuses, []int{429, 200, 200, 200}) {
		t.Errorf("recorded statuses %v", statuses)
	}

	s.Inject("apps.connections.open", slackfake.Fault{Status: 429})
	if r := postJSON(t, s.URL()+"apps.connections.open", slackfake.AppToken, nil); r.status != 429 || r.header.Get("Retry-After") != "1" {
		t.Errorf("open 429: %d %v", r.status, r.header)
	}
	s.Inject("response_url", slackfake.Fault{Status: 500})
	if r := postJSON(t, s.SlashCommand("x", "U0001", "C0001").ResponseURL(), "", map[string]any{"text": "x"}); r.status != 500 {
		t.Errorf("response_url 500: %d", r.status)
	}
	s.Inject("auth.test", slackfake.Fault{Delay: 50 * time.Millisecond})
	start := time.Now()
	if r := form(t, s, "auth.test", nil); r.body["ok"] != true || time.Since(start) < 50*time.Millisecond {
		t.Errorf("delayed auth.test: %v after %v", r.body, time.Since(start))
	}
}

func TestBlockActionCarriesMessage(t *testing.T) {
	s := slackfake.New(t)
	blocks := []any{map[string]any{"type": "actions", "block_id": "res:42", "elements": []any{
		map[string]any{"type": "button", "action_id": "reservation.release", "value": "42",
			"text": map[string]any{"type": "plain_text", "text": "Release"}},
	}}}
	r := form(t, s, "chat.postMessage", url.Values{"channel": {"C0001"}, "text": {"Reserved"}, "blocks": {jsonOf(blocks)}})
	ts := r.body["ts"].(string)
	e := s.BlockAction("U0002", "reservation.release", "42", slackfake.Container{Type: "message", ChannelID: "C0001", MessageTS: ts})
	act := obj(e.Payload["actions"].([]any)[0])
	if act["block_id"] != "res:42" || obj(act["text"])["text"] != "Release" || obj(e.Payload["message"])["ts"] != ts ||
		e.ResponseURL() == "" || e.TriggerID() == "" || obj(e.Payload["user"])["name"] != "bob" {
		t.Fatalf("block_actions = %v", e.Payload)
	}
	// replace_original through the action's response_url edits the message.
	postJSON(t, e.ResponseURL(), "", map[string]any{"text": "Released", "replace_original": true})
	if m := s.Messages("C0001"); m[0].Text != "Released" || m[0].Blocks != nil {
		t.Fatalf("after replace_original: %+v", m[0])
	}
	eph := s.BlockAction("U0002", "x", "", slackfake.Container{Type: "message", ChannelID: "C0001", MessageTS: ts, IsEphemeral: true})
	if _, has := eph.Payload["message"]; has || obj(eph.Payload["container"])["is_ephemeral"] != true {
		t.Fatalf("ephemeral block_actions = %v", eph.Payload)
	}
}

func TestBlockKitLimits(t *testing.T) {
	text := func(typ string, n int) map[string]any {
		return map[string]any{"type": typ, "text": strings.Repeat("a", n)}
	}
	section := func(n int) map[string]any { return map[string]any{"type": "section", "text": text("mrkdwn", n)} }
	repeat := func(n int, v any) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = v
		}
		return out
	}
	button := func(label, value, actionID int) map[string]any {
		return map[string]any{"type": "button", "text": text("plain_text", label),
			"value": strings.Repeat("v", value), "action_id": strings.Repeat("a", actionID)}
	}
	actions := func(elems ...any) []any { return []any{map[string]any{"type": "actions", "elements": elems}} }
	modal := func(mod func(map[string]any)) map[string]any {
		v := map[string]any{"type": "modal", "title": text("plain_text", 24), "submit": text("plain_text", 24),
			"close": text("plain_text", 24), "private_metadata": strings.Repeat("m", 3000), "blocks": []any{section(10)}}
		if mod != nil {
			mod(v)
		}
		return v
	}
	home := func(n int) map[string]any { return map[string]any{"type": "home", "blocks": repeat(n, section(5))} }

	type tc struct {
		name   string
		blocks []any          // posted with chat.postMessage
		text   string         // its fallback text ("-" for none)
		view   map[string]any // or opened with views.open / views.publish
		want   string         // "" = accepted
	}
	cases := []tc{
		{name: "at every message limit", blocks: append(repeat(45, map[string]any{"type": "divider"}),
			section(3000),
			map[string]any{"type": "section", "fields": repeat(10, text("mrkdwn", 2000)), "block_id": strings.Repeat("b", 255)},
			map[string]any{"type": "header", "text": text("plain_text", 150)},
			map[string]any{"type": "context", "elements": repeat(10, text("mrkdwn", 5))},
			actions(repeat(25, button(75, 2000, 255))...)[0])},
		{name: "51 blocks", blocks: repeat(51, map[string]any{"type": "divider"}), want: "51 blocks (limit 50 per message)"},
		{name: "section text", blocks: []any{section(3001)}, want: "blocks[0] (section).text.text: is 3001 characters (limit 3000)"},
		{name: "section fields", blocks: []any{map[string]any{"type": "section", "fields": repeat(11, text("mrkdwn", 1))}}, want: "11 fields (limit 10)"},
		{name: "section field length", blocks: []any{map[string]any{"type": "section", "fields": []any{text("mrkdwn", 2001)}}}, want: "fields[0].text: is 2001 characters (limit 2000)"},
		{name: "header length", blocks: []any{map[string]any{"type": "header", "text": text("plain_text", 151)}}, want: "is 151 characters (limit 150)"},
		{name: "header mrkdwn", blocks: []any{map[string]any{"type": "header", "text": text("mrkdwn", 5)}}, want: "must be plain_text"},
		{name: "context elements", blocks: []any{map[string]any{"type": "context", "elements": repeat(11, text("plain_text", 1))}}, want: "11 elements (limit 10)"},
		{name: "actions elements", blocks: actions(repeat(26, button(5, 5, 5))...), want: "26 elements (limit 25)"},
		{name: "button text", blocks: actions(button(76, 1, 1)), want: "(button).text.text: is 76 characters (limit 75)"},
		{name: "button value", blocks: actions(button(1, 2001, 1)), want: "(button).value: is 2001 characters (limit 2000)"},
		{name: "action_id", blocks: actions(button(1, 1, 256)), want: "(button).action_id: is 256 characters (limit 255)"},
		{name: "block_id", blocks: []any{map[string]any{"type": "divider", "block_id": strings.Repeat("b", 256)}}, want: "block_id: is 256 characters (limit 255)"},
		{name: "text object type", blocks: []any{map[string]any{"type": "section", "text": text("markdown", 3)}}, want: `"markdown" is not a valid text object type`},
		{name: "no fallback text", blocks: []any{section(3)}, text: "-", want: "no top-level text fallback"},
		{name: "modal at limits", view: modal(nil)},
		{name: "modal title", view: modal(func(v map[string]any) { v["title"] = text("plain_text", 25) }), want: "view.title.text: is 25 characters (limit 24)"},
		{name: "modal submit", view: modal(func(v map[string]any) { v["submit"] = text("plain_text", 25) }), want: "view.submit.text: is 25 characters"},
		{name: "modal close", view: modal(func(v map[string]any) { v["close"] = text("plain_text", 25) }), want: "view.close.text: is 25 characters"},
		{name: "private_metadata", view: modal(func(v map[string]any) { v["private_metadata"] = strings.Repeat("m", 3001) }), want: "view.private_metadata: is 3001 characters (limit 3000)"},
		{name: "modal 101 blocks", view: modal(func(v map[string]any) { v["blocks"] = repeat(101, section(1)) }), want: "101 blocks (limit 100 per view)"},
		{name: "home 100 blocks", view: home(100)},
		{name: "home 101 blocks", view: home(101), want: "101 blocks (limit 100 per view)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := slackfake.New(t)
			var r reply
			switch {
			case c.view == nil:
				vals := url.Values{"channel": {"C0001"}, "text": {"fallback"}, "blocks": {jsonOf(c.blocks)}}
				if c.text == "-" {
					vals.Del("text")
				}
				r = form(t, s, "chat.postMessage", vals)
			case c.view["type"] == "home":
				r = postJSON(t, s.URL()+"views.publish", slackfake.BotToken, map[string]any{"user_id": "U0001", "view": c.view})
			default:
				trig := s.SlashCommand("x", "U0001", "C0001").TriggerID()
				r = postJSON(t, s.URL()+"views.open", slackfake.BotToken, map[string]any{"trigger_id": trig, "view": c.view})
			}
			v := s.Violations()
			if c.want == "" {
				if r.body["ok"] != true || len(v) > 0 {
					t.Fatalf("rejected: %v %q", r.body, v)
				}
				return
			}
			if r.errCode() != "invalid_blocks" || len(v) != 1 || !strings.Contains(v[0], c.want) {
				t.Fatalf("got %v, violations %q; want one containing %q", r.body, v, c.want)
			}
		})
	}

	// response_url bodies are checked too.
	s := slackfake.New(t)
	u := s.SlashCommand("x", "U0001", "C0001").ResponseURL()
	r := postJSON(t, u, "", map[string]any{"blocks": []any{section(3)}})
	if r.errCode() != "invalid_blocks" || len(s.Violations()) != 1 || !strings.HasPrefix(s.Violations()[0], "response_url:") {
		t.Fatalf("response_url without fallback: %v %q", r.body, s.Violations())
	}
}

func TestCloseStopsEverything(t *testing.T) {
	var slow chan error
	t.Run("server", func(t *testing.T) {
		s := slackfake.New(t, slackfake.WithPingInterval(5*time.Millisecond))
		for range 2 {
			c := dial(t, s)
			c.next(t)
		}
		s.Push(s.DirectMessage("hi", "U0001"))
		s.Inject("auth.test", slackfake.Fault{Delay: time.Hour})
		slow = make(chan error, 1)
		go func() {
			resp, err := http.PostForm(s.URL()+"auth.test", url.Values{"token": {slackfake.BotToken}})
			if err == nil {
				resp.Body.Close()
			}
			slow <- err
		}()
		s.WaitConnections(t, 2, time.Second)
		time.Sleep(20 * time.Millisecond)
	})
	select {
	case <-slow:
	case <-time.After(2 * time.Second):
		t.Fatal("a delayed call outlived the server")
	}
	eventually(t, "server goroutines to stop", func() bool {
		buf := make([]byte, 1<<20)
		return !strings.Contains(string(buf[:runtime.Stack(buf, true)]), "slackfake.(*Server)")
	})
}
