package bot

import (
	"context"
	"sync"
	"time"

	"github.com/gpuplan/gpuplan/commands"
)

// Observer is told what the bot does, for metrics. The bot owns the
// interface so that it needs no metrics library; cmd/gpuplan implements
// it. Calls come from many goroutines and must not block.
type Observer interface {
	// CommandDone reports one command run: name is the first word of the
	// request as typed (lower case, mentions stripped; the consumer maps it
	// onto the command table), outcome is ok, user_error or error, and d
	// is how long the command took, waiting for a pool slot included.
	CommandDone(name, outcome string, d time.Duration)
	// Acked reports the time from an envelope's arrival to its ack being
	// written to the socket.
	Acked(d time.Duration)
	// Connected reports a Socket Mode connection that Slack greeted
	// (hello): the bot can receive envelopes.
	Connected()
	// Disconnected reports the end of a greeted connection: the reason of
	// Slack's disconnect frame (refresh_requested, warning, link_disabled,
	// too_many_websockets, …), "shutdown" when the bot closed it to stop,
	// or "connection_lost" when it ended without a word.
	Disconnected(reason string)
	// Refused reports a connection Slack turned away with a disconnect
	// frame before hello (too_many_websockets when the app already has
	// 10): never up, so no Connected precedes it.
	Refused(reason string)
}

// Command outcomes reported to Observer.CommandDone.
const (
	OutcomeOK        = "ok"
	OutcomeUserError = "user_error"
	OutcomeError     = "error"
)

// Disconnect reasons the bot makes up (Slack's own come from its frames).
const (
	ReasonShutdown       = "shutdown"
	ReasonConnectionLost = "connection_lost"
)

// NopObserver ignores everything; it is the default.
type NopObserver struct{}

func (NopObserver) CommandDone(string, string, time.Duration) {}
func (NopObserver) Acked(time.Duration)                       {}
func (NopObserver) Connected()                                {}
func (NopObserver) Disconnected(string)                       {}
func (NopObserver) Refused(string)                            {}

func (b *Bot) observer() Observer {
	if b.cfg.Observer == nil {
		return NopObserver{}
	}
	return b.cfg.Observer
}

// Connected reports whether a Socket Mode connection is up and greeted:
// envelopes can reach this replica. Readiness uses it.
func (b *Bot) Connected() bool {
	b.obs.mu.Lock()
	defer b.obs.mu.Unlock()
	return len(b.obs.greeted) > 0
}

// observeState is the bot's bookkeeping for the observer: which
// connections are up, why each one is going away, and when each pending
// ack's envelope arrived.
type observeState struct {
	mu sync.Mutex
	// greeted holds the connections Slack said hello on that have not
	// ended; during a refresh the new one may greet before the old one's
	// read fails.
	greeted map[int]bool
	reasons map[int]string  // the last disconnect frame's reason, by connection
	run     context.Context // Run's: once it is done, connections end for shutdown
	ackFrom map[string]time.Time
}

// observeRun remembers Run's context. A connection that ends after it is
// done ends for the shutdown, even when slack-go (whose context derives
// from it) closes the socket before Run's loop has noticed.
func (b *Bot) observeRun(ctx context.Context) {
	b.obs.mu.Lock()
	defer b.obs.mu.Unlock()
	b.obs.run = ctx
}

// connHello is called when Slack's hello frame arrives on connection gen.
func (b *Bot) connHello(gen int) {
	b.obs.mu.Lock()
	if b.obs.greeted == nil {
		b.obs.greeted = map[int]bool{}
	}
	fresh := !b.obs.greeted[gen]
	b.obs.greeted[gen] = true
	b.obs.mu.Unlock()
	if fresh {
		b.observer().Connected()
	}
}

// connReason records the reason of a disconnect frame on connection gen.
func (b *Bot) connReason(gen int, reason string) {
	b.obs.mu.Lock()
	defer b.obs.mu.Unlock()
	if b.obs.reasons == nil {
		b.obs.reasons = map[int]string{}
	}
	b.obs.reasons[gen] = reason
}

// connEnded is called when connection gen is closed or fails a read; it
// reports the disconnect once per greeted connection.
func (b *Bot) connEnded(gen int) {
	b.obs.mu.Lock()
	greeted := b.obs.greeted[gen]
	reason, framed := b.obs.reasons[gen]
	delete(b.obs.greeted, gen)
	delete(b.obs.reasons, gen)
	stopping := b.obs.run != nil && b.obs.run.Err() != nil
	b.obs.mu.Unlock()
	if !greeted {
		// Never up: a failed dial or handshake says nothing; a connection
		// Slack turned away with a disconnect frame before hello
		// (too_many_websockets) is reported with its reason.
		if framed && reason != "" {
			b.observer().Refused(reason)
		}
		return
	}
	switch {
	case framed && reason != "":
	case stopping || b.draining.Load():
		reason = ReasonShutdown
	default:
		reason = ReasonConnectionLost
	}
	b.observer().Disconnected(reason)
}

// ackStarted remembers when the envelope an ack answers arrived.
func (b *Bot) ackStarted(envelopeID string, received time.Time) {
	b.obs.mu.Lock()
	defer b.obs.mu.Unlock()
	if b.obs.ackFrom == nil {
		b.obs.ackFrom = map[string]time.Time{}
	}
	if len(b.obs.ackFrom) > 1000 {
		// Acks that never reached a socket (the connection died): forget
		// them rather than grow.
		for id, at := range b.obs.ackFrom {
			if received.Sub(at) > time.Minute {
				delete(b.obs.ackFrom, id)
			}
		}
	}
	b.obs.ackFrom[envelopeID] = received
}

// ackWritten reports the ack latency once the ack's frame is on the wire.
func (b *Bot) ackWritten(envelopeID string) {
	b.obs.mu.Lock()
	from, ok := b.obs.ackFrom[envelopeID]
	delete(b.obs.ackFrom, envelopeID)
	b.obs.mu.Unlock()
	if ok {
		b.observer().Acked(b.now().Sub(from))
	}
}

// commandDone reports a command's outcome.
func (b *Bot) commandDone(req commands.Request, err error, d time.Duration) {
	outcome := OutcomeOK
	if err != nil {
		outcome = OutcomeError
		if commands.KindOf(err) != commands.Internal {
			outcome = OutcomeUserError
		}
	}
	b.observer().CommandDone(firstWord(commands.StripMentions(req.Text)), outcome, d)
}
