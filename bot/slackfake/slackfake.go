// Package slackfake is a local fake of Slack for end-to-end tests of the bot.
//
// It speaks the wire protocol that the real github.com/slack-go/slack client
// uses, without importing it: a Socket Mode endpoint (apps.connections.open
// plus a WebSocket that sends hello, pings and envelopes and records acks), the
// Web API methods the bot calls (auth.test, chat.*, views.*, users.info,
// conversations.open/info, the files upload trio) and response_url endpoints.
// Everything the bot sends is recorded so that tests can assert on it, and
// everything that carries Block Kit is checked against Slack's limits.
//
// Wiring a client to it:
//
//	fake := slackfake.New(t)
//	api := slack.New(slackfake.BotToken,
//		slack.OptionAPIURL(fake.URL()),
//		slack.OptionAppLevelToken(slackfake.AppToken))
//	sm := socketmode.New(api)
//
// The fake is meant for tests only: New takes a testing.TB and registers a
// Cleanup that closes every socket and stops every goroutine it started.
package slackfake

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Identities of the fake workspace and app.
const (
	AppToken  = "xapp-1-A0001-test"
	BotToken  = "xoxb-test-token"
	BotUserID = "U0BOT"
	BotID     = "B0001"
	TeamID    = "T0001"
	AppID     = "A0001"

	// TeamDomain is the workspace domain reported in payloads and auth.test.
	TeamDomain = "acme"
	// BotName is the bot user's name.
	BotName = "gpuplan"
	// Command is the slash command that SlashCommand builds.
	Command = "/gpuplan"
)

// Limits the fake enforces (Slack's documented values).
const (
	// TriggerTTL is how long a trigger_id may be exchanged after it was issued.
	TriggerTTL = 3 * time.Second
	// ResponseURLUses is how many times a response_url may be used.
	ResponseURLUses = 5
	// ResponseURLTTL is how long a response_url stays usable.
	ResponseURLTTL = 30 * time.Minute
	// MaxAckBytes is Slack's limit for a Socket Mode ack frame; larger acks are
	// dropped by Slack, and by the fake (they become violations, not acks).
	MaxAckBytes = 20 * 1024
)

// DefaultScopes are the bot scopes auth.test reports unless SetScopes changes them.
var DefaultScopes = []string{
	"commands", "chat:write", "chat:write.public", "app_mentions:read",
	"im:history", "im:write", "users:read", "channels:read", "groups:read",
	"files:write",
}

// Option configures a Server.
type Option func(*config)

type config struct {
	pingInterval    time.Duration
	seed            int64
	ackLog          bool
	clock           func() time.Time
	failOnViolation bool
	roundRobin      bool
}

// WithPingInterval sets how often the fake sends WebSocket PING frames on
// every connection (default 500ms). slack-go reconnects when it sees no PING
// for its own OptionPingInterval (default 30s).
func WithPingInterval(d time.Duration) Option {
	return func(c *config) { c.pingInterval = d }
}

// WithSeed seeds the choice of connection that Push makes when several are
// live (default seed 1, so runs are reproducible).
func WithSeed(seed int64) Option {
	return func(c *config) { c.seed = seed }
}

// WithRoundRobin makes Push spread envelopes over the live connections in
// turn (ascending connection id, wrapping around) instead of choosing one
// at random, so that every connection, and every replica of the app behind
// them, gets its share.
func WithRoundRobin() Option {
	return func(c *config) { c.roundRobin = true }
}

// WithAckLog logs every ack the fake receives with t.Logf.
func WithAckLog() Option {
	return func(c *config) { c.ackLog = true }
}

// WithClock replaces the clock used for trigger_id and response_url expiry and
// for message timestamps. Ack latencies always use the real clock.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.clock = now }
}

// WithFailOnViolation makes the Cleanup report every recorded violation with
// t.Errorf, so that a test fails when the bot sent something Slack rejects.
func WithFailOnViolation() Option {
	return func(c *config) { c.failOnViolation = true }
}

// Call is one Web API request the fake received.
type Call struct {
	Method string
	// Form holds the form (and query) values of a form-encoded request.
	Form url.Values
	// JSON holds the body of a JSON request.
	JSON   map[string]any
	Header http.Header
	At     time.Time
	// Status is the HTTP status the fake answered with.
	Status int
	// Error is the Slack error code answered ("" when ok was true).
	Error string
}

// Param returns a request parameter as a string, from the form or the JSON body.
func (c Call) Param(name string) string {
	if c.JSON != nil {
		if s, ok := c.JSON[name].(string); ok {
			return s
		}
		return ""
	}
	return c.Form.Get(name)
}

// ResponsePost is one POST the fake received on a response_url.
type ResponsePost struct {
	URL  string
	Body map[string]any
	At   time.Time
	// Status is the HTTP status the fake answered with.
	Status int
	// Error is the error code answered ("" when the post was accepted).
	Error string
}

// Fault is an injected failure for the next calls of a method.
type Fault struct {
	// Status is the HTTP status to answer with (429, 500, ...). Zero means 200.
	Status int
	// RetryAfter is the Retry-After header, in seconds, of a 429 answer. Zero
	// means 1; a negative value leaves the header out.
	RetryAfter int
	// SlackError, with Status zero, answers 200 {"ok":false,"error":SlackError}.
	SlackError string
	// Delay holds the answer back (a Fault with only a Delay then answers normally).
	Delay time.Duration
	// Times is how many calls the fault applies to (zero means 1).
	Times int
}

// Message is a message the fake keeps for a channel.
type Message struct {
	Channel  string
	TS       string
	ThreadTS string
	Text     string
	Blocks   []any
	// User is the author: BotUserID for messages the bot posted.
	User  string
	BotID string
	// EphemeralTo is the recipient of an ephemeral message ("" otherwise).
	EphemeralTo string
	Edits       int
	Deleted     bool
}

// File is a file uploaded through files.getUploadURLExternal and
// files.completeUploadExternal.
type File struct {
	ID             string
	Filename       string
	Title          string
	Content        []byte
	Channel        string
	ThreadTS       string
	InitialComment string
	Completed      bool
}

type user struct {
	id, name, tz string
	locale       string // users.info's locale ("ko-KR"); "" reads as en-US
	admin, bot   bool
}

type channel struct {
	id, name string
	private  bool
	member   bool
	im       bool
	mpim     bool
	user     string // peer of a bot DM
	opened   bool
}

type trigger struct {
	issued time.Time
	used   bool
	viewID string // view the interaction came from, if any
}

type responseURL struct {
	issued    time.Time
	uses      int
	channel   string // container of the interaction, for replace/delete
	messageTS string
	user      string
}

type viewRec struct {
	id, root, previous string
	user               string
	hash               string
	data               map[string]any // the view as the app sent it
}

type pending struct {
	at   time.Time
	conn int
	typ  string
}

// Server is a running fake Slack. All methods are safe for concurrent use.
type Server struct {
	t   testing.TB
	cfg config
	hs  *httptest.Server
	url string

	wg   sync.WaitGroup
	done chan struct{}

	mu      sync.Mutex
	changed chan struct{}
	closed  bool
	rng     *rand.Rand

	// Socket Mode
	opens      int
	nextTicket int
	tickets    map[string]bool
	nextConn   int
	conns      map[int]*wsConn
	pending    map[string]pending
	lastPush   int // connection of the last Push, for WithRoundRobin
	acks       map[string][]Ack
	pongs      int
	pings      int
	maxConns   int // SetMaxConnections; 0: no limit
	tooMany    int // connections refused with too_many_websockets

	// Web API
	calls      []Call
	respPosts  []ResponsePost
	faults     map[string][]Fault
	violations []string
	scopes     []string
	users      map[string]*user
	channels   map[string]*channel
	messages   map[string][]*Message
	triggers   map[string]*trigger
	respURLs   map[string]*responseURL
	views      map[string]*viewRec
	homeViews  map[string]string // user -> view id
	stacks     map[string]int    // root view id -> modal stack depth
	files      map[string]*File
	fileOrder  []string
	ids        map[string]int // counters per id kind
	tsBase     int64
	tsSeq      int64
}

// New starts a fake Slack on 127.0.0.1. t.Cleanup closes it.
func New(t testing.TB, opts ...Option) *Server {
	t.Helper()
	cfg := config{pingInterval: 500 * time.Millisecond, seed: 1, clock: time.Now}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.pingInterval <= 0 {
		cfg.pingInterval = 500 * time.Millisecond
	}
	s := &Server{
		t:         t,
		cfg:       cfg,
		done:      make(chan struct{}),
		changed:   make(chan struct{}),
		rng:       rand.New(rand.NewPCG(uint64(cfg.seed), uint64(cfg.seed)^0x5eed)),
		tickets:   map[string]bool{},
		conns:     map[int]*wsConn{},
		pending:   map[string]pending{},
		acks:      map[string][]Ack{},
		faults:    map[string][]Fault{},
		scopes:    slices.Clone(DefaultScopes),
		users:     map[string]*user{},
		channels:  map[string]*channel{},
		messages:  map[string][]*Message{},
		triggers:  map[string]*trigger{},
		respURLs:  map[string]*responseURL{},
		views:     map[string]*viewRec{},
		homeViews: map[string]string{},
		stacks:    map[string]int{},
		files:     map[string]*File{},
		ids:       map[string]int{},
	}
	s.tsBase = cfg.clock().Unix()
	s.users[BotUserID] = &user{id: BotUserID, name: BotName, tz: "UTC", bot: true}
	s.users["U0001"] = &user{id: "U0001", name: "alice", tz: "Europe/Berlin"}
	s.users["U0002"] = &user{id: "U0002", name: "bob", tz: "America/New_York"}
	s.users["U0ADMIN"] = &user{id: "U0ADMIN", name: "carol", tz: "Asia/Seoul", admin: true}
	s.channels["C0001"] = &channel{id: "C0001", name: "ml-infra", member: true}
	s.channels["C0002"] = &channel{id: "C0002", name: "general", member: true}

	s.hs = httptest.NewServer(http.HandlerFunc(s.route))
	s.url = s.hs.URL + "/"
	t.Cleanup(s.Close)
	return s
}

// URL is the Web API base URL, with the trailing slash slack.OptionAPIURL needs.
func (s *Server) URL() string { return s.url }

// Close closes every connection and stops the server. Cleanup calls it; it
// may be called earlier to simulate Slack going away.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.done)
	conns := make([]*wsConn, 0, len(s.conns))
	for _, c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()

	for _, c := range conns {
		c.ws.Close()
	}
	s.hs.Close()
	s.wg.Wait()

	if s.cfg.failOnViolation {
		for _, v := range s.Violations() {
			s.t.Errorf("slackfake: violation: %s", v)
		}
	}
}

// notifyLocked wakes every waiter. Callers hold s.mu.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// waitFor waits until cond (called with s.mu held) is true or timeout passes.
func (s *Server) waitFor(timeout time.Duration, cond func() bool) bool {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		ok := cond()
		ch := s.changed
		s.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-timer.C:
			s.mu.Lock()
			defer s.mu.Unlock()
			return cond()
		}
	}
}

func (s *Server) now() time.Time { return s.cfg.clock() }

// nextIDLocked returns the next number for an id kind, starting at 1.
func (s *Server) nextIDLocked(kind string) int {
	s.ids[kind]++
	return s.ids[kind]
}

// nextTSLocked returns a fresh, strictly increasing Slack timestamp.
func (s *Server) nextTSLocked() string {
	s.tsSeq++
	return fmt.Sprintf("%d.%06d", s.tsBase+s.tsSeq/1000000, s.tsSeq%1000000)
}

func (s *Server) violationLocked(v string) {
	s.violations = append(s.violations, v)
	s.notifyLocked()
}

// Calls returns the recorded calls of a Web API method ("" for all of them),
// in arrival order.
func (s *Server) Calls(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.callsLocked(method)
}

func (s *Server) callsLocked(method string) []Call {
	var out []Call
	for _, c := range s.calls {
		if method == "" || c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// WaitCalls waits until at least n calls of method were recorded and returns
// all of them; it fails the test on timeout.
func (s *Server) WaitCalls(t testing.TB, method string, n int, timeout time.Duration) []Call {
	t.Helper()
	var out []Call
	if !s.waitFor(timeout, func() bool {
		out = s.callsLocked(method)
		return len(out) >= n
	}) {
		t.Fatalf("slackfake: waited %v for %d %s calls, got %d", timeout, n, method, len(out))
	}
	return out
}

// ResponsePosts returns every POST received on a response_url.
func (s *Server) ResponsePosts() []ResponsePost {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.respPosts)
}

// WaitResponsePosts waits until at least n response_url posts were recorded.
func (s *Server) WaitResponsePosts(t testing.TB, n int, timeout time.Duration) []ResponsePost {
	t.Helper()
	var out []ResponsePost
	if !s.waitFor(timeout, func() bool {
		out = slices.Clone(s.respPosts)
		return len(out) >= n
	}) {
		t.Fatalf("slackfake: waited %v for %d response_url posts, got %d", timeout, n, len(out))
	}
	return out
}

// Inject queues a fault for the next f.Times calls of method. method is a Web
// API method name, "apps.connections.open", or "response_url" for posts to any
// response_url. Faults for one method apply in the order they were injected.
func (s *Server) Inject(method string, f Fault) {
	if f.Times <= 0 {
		f.Times = 1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[method] = append(s.faults[method], f)
}

func (s *Server) takeFaultLocked(method string) (Fault, bool) {
	q := s.faults[method]
	if len(q) == 0 {
		return Fault{}, false
	}
	f := q[0]
	q[0].Times--
	if q[0].Times <= 0 {
		q = q[1:]
	}
	if len(q) == 0 {
		delete(s.faults, method)
	} else {
		s.faults[method] = q
	}
	return f, true
}

// Violations returns every Block Kit or protocol violation seen so far.
func (s *Server) Violations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.violations)
}

// AddUser adds (or replaces) a users.info fixture. Default users: U0001 alice
// (Europe/Berlin), U0002 bob (America/New_York), U0ADMIN carol (Asia/Seoul,
// workspace admin).
func (s *Server) AddUser(id, name, tz string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[id] = &user{id: id, name: name, tz: tz}
}

// SetLocale sets a user's Slack locale ("ko-KR"), which users.info returns
// with include_locale=true; users default to en-US.
func (s *Server) SetLocale(id, locale string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u, ok := s.users[id]; ok {
		u.locale = locale
	}
}

// AddChannel adds (or replaces) a channel. Default channels: C0001 ml-infra and
// C0002 general, both public with the bot a member. Channels that envelope
// builders mention are added on first use. Posting to a public channel the bot
// is not in needs chat:write.public; a private one it is not in is invisible
// (channel_not_found).
func (s *Server) AddChannel(id, name string, private, member bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.channels[id] = &channel{id: id, name: name, private: private, member: member}
}

// SetScopes replaces the bot scopes (reported by auth.test in X-OAuth-Scopes
// and checked by the methods that need one: missing_scope).
func (s *Server) SetScopes(scopes ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scopes = slices.Clone(scopes)
}

// Messages returns the messages kept for a channel (posted by the bot, or
// built by AppMention/DirectMessage), oldest first, including ephemeral and
// deleted ones.
func (s *Server) Messages(channel string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, m := range s.messages[channel] {
		c := *m
		c.Blocks = slices.Clone(m.Blocks)
		out = append(out, c)
	}
	return out
}

// HomeView returns the view last published to user's App Home, as the app sent it.
func (s *Server) HomeView(user string) (map[string]any, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.homeViews[user]
	if !ok {
		return nil, false
	}
	var out map[string]any
	b, _ := json.Marshal(s.views[id].data)
	_ = json.Unmarshal(b, &out)
	return out, true
}

// Files returns the uploaded files in upload order.
func (s *Server) Files() []File {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []File
	for _, id := range s.fileOrder {
		out = append(out, *s.files[id])
	}
	return out
}

// DMChannel is the ID of the bot's direct-message channel with user
// (what conversations.open returns and DirectMessage uses).
func DMChannel(user string) string {
	return "D" + strings.TrimPrefix(user, "U")
}

func (s *Server) hasScopeLocked(scope string) bool {
	return slices.Contains(s.scopes, scope)
}

// ensureUserLocked registers a user an envelope builder mentions.
func (s *Server) ensureUserLocked(id string) *user {
	u, ok := s.users[id]
	if !ok {
		u = &user{id: id, name: strings.ToLower(id), tz: "UTC"}
		s.users[id] = u
	}
	return u
}

// ensureChannelLocked registers a channel an envelope builder mentions.
// forUser is the user acting in it (to tell the bot's DM from other DMs).
func (s *Server) ensureChannelLocked(id, forUser string) *channel {
	if id == "" {
		return &channel{}
	}
	if c, ok := s.channels[id]; ok {
		return c
	}
	c := &channel{id: id, name: strings.ToLower(id), member: true}
	switch {
	case strings.HasPrefix(id, "D"):
		c.im = true
		c.name = ""
		if id == DMChannel(forUser) {
			c.user = forUser
		} else {
			// A DM between people: the bot is not part of it.
			c.member = false
		}
	case strings.HasPrefix(id, "G"):
		c.private = true
	}
	s.channels[id] = c
	return c
}
