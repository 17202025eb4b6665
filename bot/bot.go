package bot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"
	"go.uber.org/zap"
)

// Deduper remembers envelope and event ids so a redelivery is processed
// once. Every bot keeps a bounded one in memory, checked on the event
// loop; several replicas also share one through the store, checked off
// the loop after the ack (or, for slash commands, before their ack under
// Config.DedupeTimeout).
type Deduper interface {
	// FirstSeen records key and reports whether it was new.
	FirstSeen(ctx context.Context, key string, ttl time.Duration) (bool, error)
}

// Commands is what the bot needs from the command layer (a *commands.Set).
type Commands interface {
	Dispatch(ctx context.Context, req commands.Request) (*commands.Reply, error)
	// NeedsOf and FormFor read the command table: what the command a
	// text names needs before it runs (the user's zone), and the form to
	// open instead of running it.
	NeedsOf(text string) commands.Needs
	// Busy: every core is computing a plan, so a plan asked now waits.
	Busy() bool
	FormFor(text string) string
	Form(text string) (commands.PlanForm, error)
	ValidateForm(f commands.PlanForm, l i18n.Lang) (string, map[string]string)
	// Announced records where an announcement was posted (Reply.Announces).
	Announced(ctx context.Context, id, channel, ts string) error
	// Home builds a user's App Home; Servers names the servers the
	// Reserve form offers.
	Home(ctx context.Context, req commands.Request) (*commands.Reply, error)
	Servers() []string
}

// Bot is the Slack adapter. Create it with New and run it with Run.
type Bot struct {
	cfg  Config
	log  *zap.Logger
	cmds Commands
	api  *slack.Client
	// local is checked on the event loop (no I/O); shared, nil without a
	// shared store, in the envelope's goroutine.
	local  *localSeen
	shared Deduper

	pool     chan struct{}  // bounds concurrent command work
	inflight sync.WaitGroup // every handler goroutine, for the drain
	draining atomic.Bool

	botUserID string
	botID     string

	// workCtx outlives Run's context so in-flight work finishes during the
	// drain; it is cancelled when the drain deadline passes.
	workCtx    context.Context
	cancelWork context.CancelFunc

	// supervision
	storm chan string // disconnect reasons that call for a backoff
	// stopClient cancels the running socketmode client (runOnce's), so a
	// disconnect that calls for a pause stops it before slack-go can
	// reconnect on its own (guarded by stopMu).
	stopMu     sync.Mutex
	stopClient context.CancelFunc
	ledger     ledger    // envelopes read off the wire, not yet delivered
	acks       ackLedger // acks not yet known to be on a healthy connection
	tz         tzCache   // users' time zones from users.info
	now        func() time.Time
	// wrapConn lets tests inject transport faults under the websocket.
	wrapConn func(connWrapper) connWrapper
	// out paces channel posts and holds Post's client (post.go).
	out outbox

	// obs is what the Observer is told: the live connection, ack times.
	obs observeState
	// convs is each thread's last plan, for follow-ups (followup.go).
	convs conversations
}

// New checks the configuration and builds the bot. It does not connect.
func New(cfg Config, log *zap.Logger, cmds Commands, dedup Deduper) (*Bot, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if log == nil {
		log = zap.NewNop()
	}
	log = redactLogger(log, cfg.AppToken.Reveal(), cfg.BotToken.Reveal()).Named("bot")
	opts := []slack.Option{slack.OptionAppLevelToken(cfg.AppToken.Reveal()), slack.OptionRetry(3)}
	if cfg.APIURL != "" {
		opts = append(opts, slack.OptionAPIURL(cfg.APIURL))
	}
	workCtx, cancelWork := context.WithCancel(context.Background())
	b := &Bot{
		cfg: cfg, log: log, cmds: cmds, local: newLocalSeen(localSeenMax, time.Now), shared: dedup, workCtx: workCtx, cancelWork: cancelWork,
		api:   slack.New(cfg.BotToken.Reveal(), opts...),
		pool:  make(chan struct{}, cfg.Workers),
		storm: make(chan string, 8),
		now:   time.Now,
	}
	return b, nil
}

// API returns the Web API client (for doctor and tests).
func (b *Bot) API() *slack.Client { return b.api }

// Identify calls auth.test: it proves the bot token and learns the bot's
// own ids (to ignore its own messages). It returns the granted scopes.
func (b *Bot) Identify(ctx context.Context) ([]string, error) {
	var scopes []string
	resp, err := b.api.AuthTestContext(ctx)
	if err != nil {
		var se slack.SlackErrorResponse
		if errors.As(err, &se) && (se.Err == "invalid_auth" || se.Err == "not_authed" || se.Err == "token_revoked" || se.Err == "account_inactive") {
			return nil, &TokenError{Name: "SLACK_BOT_TOKEN", Want: "xoxb-", Problem: "was refused by Slack (" + se.Err + ")", Where: botTokenWhere}
		}
		return nil, fmt.Errorf("auth.test: %w", err)
	}
	b.botUserID, b.botID = resp.UserID, resp.BotID
	if h := resp.Header.Get("X-OAuth-Scopes"); h != "" {
		for _, s := range strings.Split(h, ",") {
			scopes = append(scopes, strings.TrimSpace(s))
		}
	}
	return scopes, nil
}

// Run connects and serves until ctx ends, then stops taking envelopes,
// finishes in-flight work within the drain timeout and returns nil. A
// refused token returns an error at once.
func (b *Bot) Run(ctx context.Context) error {
	b.observeRun(ctx)
	if b.botUserID == "" {
		if err := b.identifyWithRetry(ctx); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
	}
	backoff := b.cfg.ReconnectBackoff
	for {
		began := time.Now()
		reason, err := b.runOnce(ctx)
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return b.drain()
		}
		if time.Since(began) >= healthyRun {
			backoff = b.cfg.ReconnectBackoff // the storm is new, not the last one going on
		}
		// The connection was stopped on purpose: Slack keeps telling us to
		// go away. Wait before the next apps.connections.open. This is the
		// one log line for the disconnect (onDisconnectFrame leaves it here).
		msg, level := pauseWords(reason)
		b.log.Log(level, msg, zap.String("reason", reason), zap.Duration("backoff", backoff))
		select {
		case <-ctx.Done():
			return b.drain()
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, maxReconnectBackoff)
	}
}

// identifyWithRetry calls auth.test until Slack answers: a Slack that
// cannot be reached at start (network down, Slack's outage, DNS) is
// waited for with backoff (Config.StartBackoff doubling to a minute) and
// a log line per attempt, so a bot started before its network comes up
// connects when it does. A token Slack refuses is not retried: that
// returns the *TokenError at once. `gpuplan doctor` stays the fail-fast
// check. It returns nil when ctx ends first.
func (b *Bot) identifyWithRetry(ctx context.Context) error {
	backoff := b.cfg.StartBackoff
	for attempt := 1; ; attempt++ {
		_, err := b.Identify(ctx)
		if err == nil {
			if attempt > 1 {
				b.log.Info("slack reachable", zap.Int("attempt", attempt))
			}
			return nil
		}
		var te *TokenError
		if errors.As(err, &te) {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
		b.log.Warn("slack not reachable at start; retrying", zap.Int("attempt", attempt),
			zap.Duration("backoff", backoff), zap.Error(err))
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, time.Minute)
	}
}

// runOnce runs one socketmode client until ctx ends (returns "", nil), a
// storm of disconnects calls for a pause (returns the reason), or the
// tokens are refused (returns the error).
func (b *Bot) runOnce(ctx context.Context) (string, error) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	b.setStopClient(cancel)
	defer b.setStopClient(nil)
	client := socketmode.New(b.api,
		socketmode.OptionLog(&slackLog{bot: b}),
		socketmode.OptionPingInterval(b.cfg.PingInterval),
		socketmode.OptionDialer(b.dialer()),
	)
	errc := make(chan error, 1)
	go func() { errc <- client.RunContext(runCtx) }()
	var connects []time.Time
	for {
		select {
		case <-ctx.Done():
			// Stop intake: no more envelopes are read once the client stops.
			b.draining.Store(true)
			cancel()
			<-errc
			return "", nil
		case reason := <-b.storm:
			cancel()
			<-errc
			b.drainStorm()
			return reason, nil
		case err := <-errc:
			if ctx.Err() != nil {
				return "", nil
			}
			select {
			case reason := <-b.storm: // the client stopped because of it
				b.drainStorm()
				return reason, nil
			default:
			}
			if err != nil && isAuthError(err) {
				return "", &TokenError{Name: "SLACK_APP_TOKEN", Want: "xapp-", Problem: "was refused by Slack (" + err.Error() + ")", Where: appTokenWhere}
			}
			b.log.Warn("socket mode client stopped; restarting", zap.Error(err))
			return "client stopped", nil
		case evt, ok := <-client.Events:
			if !ok {
				return "events closed", nil
			}
			switch evt.Type {
			case socketmode.EventTypeConnecting:
				// Every event of the previous connection is ahead of this one
				// in the channel, and slack-go closed it before dialling
				// again: what the ledger still holds of ended connections
				// was dropped. The new connection's envelopes may already be
				// in the ledger (the tap reads them before this loop gets
				// here); slack-go delivers those.
				b.recoverDropped(client)
				connects = append(connects, b.now())
				if storming(connects, b.now()) {
					cancel()
					<-errc
					return "reconnect storm: more than 5 connection attempts in 30 s", nil
				}
			case socketmode.EventTypeConnected:
				b.log.Info("connected to Slack", zap.Int("connections", connectionCount(evt)))
			case socketmode.EventTypeHello:
				b.log.Debug("hello", zap.Int("num_connections", evt.Request.NumConnections))
			case socketmode.EventTypeInvalidAuth:
				cancel()
				<-errc
				return "", &TokenError{Name: "SLACK_APP_TOKEN", Want: "xapp-", Problem: "was refused by Slack (invalid_auth)", Where: appTokenWhere}
			case socketmode.EventTypeConnectionError:
				b.log.Warn("connection to Slack failed; retrying", zap.Any("detail", errDetail(evt)))
			case socketmode.EventTypeIncomingError, socketmode.EventTypeErrorBadMessage, socketmode.EventTypeErrorWriteFailed:
				b.log.Warn("socket mode error", zap.String("type", string(evt.Type)), zap.Any("detail", errDetail(evt)))
			case socketmode.EventTypeSlashCommand, socketmode.EventTypeEventsAPI, socketmode.EventTypeInteractive:
				b.dispatchEnvelope(b.workCtx, client, evt)
			}
		}
	}
}

// recoverDropped handles envelopes slack-go read but never delivered.
func (b *Bot) recoverDropped(client acker) {
	for id, payload := range b.acks.takeUnconfirmed(b.now(), 3*time.Second) {
		log := b.log.With(zap.String("envelope_id", id))
		log.Info("ack re-sent on the new connection")
		b.ack(client, id, payload, b.now(), log)
	}
	for _, p := range b.ledger.takeDropped() {
		evt, ok := rebuildEvent(p.raw)
		if !ok {
			continue
		}
		b.log.Warn("envelope dropped by the Socket Mode client during a reconnect; handling it now",
			zap.String("envelope_id", evt.Request.EnvelopeID), zap.String("type", string(evt.Type)))
		b.dispatchEnvelope(b.workCtx, client, evt)
	}
}

func storming(connects []time.Time, now time.Time) bool {
	n := 0
	for _, t := range connects {
		if now.Sub(t) < 30*time.Second {
			n++
		}
	}
	return n > 5
}

func connectionCount(evt socketmode.Event) int {
	if c, ok := evt.Data.(*socketmode.ConnectedEvent); ok {
		return c.ConnectionCount
	}
	return 0
}

func errDetail(evt socketmode.Event) string {
	if err, ok := evt.Data.(error); ok {
		return err.Error()
	}
	return fmt.Sprintf("%v", evt.Data)
}

func isAuthError(err error) bool {
	s := err.Error()
	for _, code := range []string{"invalid_auth", "not_authed", "token_revoked", "account_inactive"} {
		if strings.Contains(s, code) {
			return true
		}
	}
	return false
}

// drain waits for in-flight handlers, at most DrainTimeout.
func (b *Bot) drain() error {
	b.draining.Store(true)
	done := make(chan struct{})
	go func() { b.inflight.Wait(); close(done) }()
	select {
	case <-done:
		b.log.Info("drained: all in-flight work finished")
	case <-time.After(b.cfg.DrainTimeout):
		b.log.Warn("drain timeout: some work was still running", zap.Duration("timeout", b.cfg.DrainTimeout))
	}
	b.cancelWork()
	return nil
}

// spawn runs fn in a tracked goroutine with panic recovery. It does not
// take a pool slot: handlers take one around the command itself.
func (b *Bot) spawn(name string, log *zap.Logger, fn func()) {
	b.inflight.Add(1)
	go func() {
		defer b.inflight.Done()
		defer func() {
			if p := recover(); p != nil {
				ref := newRef()
				log.Error("handler panicked", zap.String("handler", name), zap.String("ref", ref), zap.Any("panic", p), zap.Stack("stack"))
			}
		}()
		fn()
	}()
}

// run executes a command within a pool slot, turning a panic into an
// internal error with a ref.
func (b *Bot) run(ctx context.Context, req commands.Request) (reply *commands.Reply, err error) {
	defer func() {
		if err != nil {
			err = &askedError{err: err, asked: req.Text, lang: commands.ReplyLang(req)}
		}
	}()
	started := time.Now()
	select {
	case b.pool <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-b.pool }()
	defer func() {
		if p := recover(); p != nil {
			reply, err = nil, &panicError{value: p}
		}
		b.commandDone(req, err, time.Since(started))
	}()
	if req.Location == nil {
		req.Location = b.cachedLocation(req.User)
	}
	reply, err = b.cmds.Dispatch(ctx, req)
	if err == nil && reply != nil && !reply.InChannel && len(reply.Files) > 0 && req.User != "" {
		// A private answer cannot carry a file (ephemeral messages have
		// none): the files go to the user's DM with the bot.
		b.sendFilesToDM(req.User, reply.Files)
		reply.Sections = append(reply.Sections, commands.Section{Kind: commands.Context,
			Text: "The chart is in your direct messages with gpuplan."})
	}
	return reply, err
}

// sendFilesToDM uploads files into the user's DM in the background.
func (b *Bot) sendFilesToDM(user string, files []commands.File) {
	log := b.log.With(zap.String("user", user))
	b.spawn("files.dm", log, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		dm, err := b.openDM(ctx, user)
		if err != nil {
			log.Warn("could not open a DM for the files", zap.Error(err))
			return
		}
		for _, f := range files {
			if err := b.upload(ctx, b.postClient(), dm, "", f); err != nil {
				log.Warn("file upload to DM failed", zap.String("file", f.Name), zap.Error(err))
			}
		}
	})
}

type panicError struct{ value any }

// askedError carries the words of the request that failed to where the
// failure becomes words (message), so that an error quoting them does not
// make them live (escaper).
type askedError struct {
	err   error
	asked string
	lang  i18n.Lang // the language the answer would have been in
}

func (a *askedError) Error() string { return a.err.Error() }
func (a *askedError) Unwrap() error { return a.err }

func (p *panicError) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// message turns a command outcome into what the user sees, logging an
// internal error once with its ref. This is the only place errors meet
// user words.
func (b *Bot) message(reply *commands.Reply, err error, log *zap.Logger) (Message, bool) {
	if err == nil {
		return renderReply(reply, maxMessageBlocks), reply.InChannel
	}
	var asked string
	var lang i18n.Lang
	var ae *askedError
	if errors.As(err, &ae) {
		asked, lang = ae.asked, ae.lang
	}
	p := i18n.For(lang)
	if ue := commands.ExplainIn(p, err); ue != nil {
		log.Info("user error", zap.Stringer("kind", commands.KindOf(err)), zap.String("msg", ue.Msg))
		return errorMessage(ue, echoing(asked)), false
	}
	ref := newRef()
	log = log.With(zap.String("ref", ref), zap.Error(err))
	var pe *panicError
	if errors.As(err, &pe) {
		log.Error("command panicked", zap.Stack("stack"))
	} else {
		log.Error("command failed")
	}
	return internalErrorMessage(p, ref), false
}

// newRef is a short id that ties a user's "something went wrong" to one
// log line.
func newRef() string {
	var buf [4]byte
	_, _ = rand.Read(buf[:])
	return hex.EncodeToString(buf[:])
}
