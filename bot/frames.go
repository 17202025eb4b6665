package bot

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

// The bot reads a copy of every frame Slack sends, under the websocket
// library, for two things slack-go does not give it:
//
//   - the reason of a disconnect frame (slack-go reconnects on every
//     disconnect and never says why; link_disabled and
//     too_many_websockets call for a pause, not a reconnect storm);
//   - envelopes slack-go received but did not deliver: when Slack closes a
//     connection right after sending, slack-go's request handler may see
//     its context cancelled before it hands queued envelopes on, and drops
//     them. A slash command dropped like that is lost for good (Slack does
//     not retry them), so the bot keeps a ledger of received envelope ids,
//     crosses them off as events arrive, and handles the rest itself when
//     the next connection starts.

// maxTapFrame bounds what the tap buffers; Slack's frames are far smaller.
const maxTapFrame = 4 << 20

// frameTap copies the bytes read from and written to a connection into
// frame parsers: reads are Slack's frames, writes are the client's acks.
type frameTap struct {
	net.Conn
	p, w *frameParser
	end  func() // the connection is gone (a failed read or Close)
}

func (t frameTap) Read(b []byte) (int, error) {
	n, err := t.Conn.Read(b)
	if n > 0 {
		t.p.feed(b[:n])
	}
	if err != nil {
		t.end()
	}
	return n, err
}

func (t frameTap) Close() error {
	t.end()
	return t.Conn.Close()
}

func (t frameTap) Write(b []byte) (int, error) {
	n, err := t.Conn.Write(b)
	if n > 0 && err == nil {
		t.w.feed(b[:n])
	}
	return n, err
}

// newTap wraps one connection (generation gen) for the bot.
func (b *Bot) newTap(c net.Conn) net.Conn {
	gen := b.acks.newConn()
	return frameTap{Conn: c,
		p:   &frameParser{onText: func(raw []byte) { b.onFrame(gen, raw) }},
		w:   &frameParser{onText: func(raw []byte) { b.onWrittenFrame(gen, raw) }},
		end: func() { b.ledger.end(gen); b.connEnded(gen) },
	}
}

// ackLedger tracks acks until they are known to be on a healthy
// connection: an ack queued while a connection is going away is written
// to a socket Slack has closed, or not at all, and must be sent again.
type ackLedger struct {
	mu      sync.Mutex
	gen     int
	closing map[int]bool // connections that received a disconnect frame
	acks    map[string]ackEntry
}

type ackEntry struct {
	payload any
	at      time.Time
	written int // generation it was written on; 0 = not yet
}

func (a *ackLedger) newConn() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.gen++
	return a.gen
}

func (a *ackLedger) queued(id string, payload any, at time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.acks == nil {
		a.acks = map[string]ackEntry{}
	}
	a.acks[id] = ackEntry{payload: payload, at: at}
}

func (a *ackLedger) written(gen int, id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	e, ok := a.acks[id]
	if !ok {
		return
	}
	if a.closing[gen] {
		e.written = gen // on its way out: keep it for a resend
		a.acks[id] = e
		return
	}
	delete(a.acks, id)
}

func (a *ackLedger) markClosing(gen int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closing == nil {
		a.closing = map[int]bool{}
	}
	a.closing[gen] = true
}

// takeUnconfirmed returns the acks to send again: queued within the
// window and not written to a connection that stayed up.
func (a *ackLedger) takeUnconfirmed(now time.Time, window time.Duration) map[string]any {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := map[string]any{}
	for id, e := range a.acks {
		if now.Sub(e.at) <= window {
			out[id] = e.payload
		}
	}
	a.acks = nil
	return out
}

// onWrittenFrame sees every frame the client writes (acks).
func (b *Bot) onWrittenFrame(gen int, raw []byte) {
	var head struct {
		EnvelopeID string `json:"envelope_id"`
	}
	if json.Unmarshal(raw, &head) == nil && head.EnvelopeID != "" {
		b.acks.written(gen, head.EnvelopeID)
		b.ackWritten(head.EnvelopeID)
	}
}

// frameParser reassembles server-to-client text messages from a raw
// websocket byte stream (after the HTTP upgrade response).
type frameParser struct {
	handshakeDone bool
	buf           []byte
	msg           []byte
	broken        bool
	onText        func([]byte)
}

func (p *frameParser) feed(b []byte) {
	if p.broken {
		return
	}
	p.buf = append(p.buf, b...)
	if !p.handshakeDone {
		i := bytes.Index(p.buf, []byte("\r\n\r\n"))
		if i < 0 {
			if len(p.buf) > 64<<10 {
				p.broken = true
			}
			return
		}
		p.buf = p.buf[i+4:]
		p.handshakeDone = true
	}
	for p.next() {
	}
	if len(p.buf) > maxTapFrame {
		p.broken = true
		p.buf = nil
	}
}

// next consumes one complete frame from buf, if there is one.
func (p *frameParser) next() bool {
	if len(p.buf) < 2 {
		return false
	}
	fin := p.buf[0]&0x80 != 0
	op := p.buf[0] & 0x0f
	masked := p.buf[1]&0x80 != 0
	n := uint64(p.buf[1] & 0x7f)
	off := 2
	switch n {
	case 126:
		if len(p.buf) < 4 {
			return false
		}
		n = uint64(binary.BigEndian.Uint16(p.buf[2:4]))
		off = 4
	case 127:
		if len(p.buf) < 10 {
			return false
		}
		n = binary.BigEndian.Uint64(p.buf[2:10])
		off = 10
	}
	if n > maxTapFrame {
		p.broken = true
		return false
	}
	var mask []byte
	if masked {
		if len(p.buf) < off+4 {
			return false
		}
		mask = p.buf[off : off+4]
		off += 4
	}
	if uint64(len(p.buf)-off) < n {
		return false
	}
	payload := append([]byte(nil), p.buf[off:off+int(n)]...)
	for i := range payload {
		if mask != nil {
			payload[i] ^= mask[i%4]
		}
	}
	p.buf = p.buf[off+int(n):]
	switch op {
	case 0x1: // text
		p.msg = payload
	case 0x0: // continuation
		p.msg = append(p.msg, payload...)
	default: // control frames, binary
		return true
	}
	if fin && p.onText != nil {
		p.onText(p.msg)
		p.msg = nil
	}
	return true
}

// ledger holds envelopes read off the wire and not yet delivered, with the
// connection (generation) each came on. Only a connection that has ended
// can have dropped one: the tap reads a new connection's frames before the
// event loop sees its Connecting event, and those envelopes are still on
// their way through slack-go.
type ledger struct {
	mu      sync.Mutex
	pending map[string]pendingEnvelope
	ended   map[int]bool
}

type pendingEnvelope struct {
	raw []byte
	at  time.Time
	gen int
}

func (l *ledger) add(id string, gen int, raw []byte, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending == nil {
		l.pending = map[string]pendingEnvelope{}
	}
	l.pending[id] = pendingEnvelope{raw: raw, at: at, gen: gen}
}

func (l *ledger) done(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.pending, id)
}

// end records that connection gen is gone: nothing more is read from it.
func (l *ledger) end(gen int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended == nil {
		l.ended = map[int]bool{}
	}
	l.ended[gen] = true
}

// takeDropped removes and returns, oldest first, the envelopes of
// connections that have ended: slack-go will never deliver them.
func (l *ledger) takeDropped() []pendingEnvelope {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []pendingEnvelope
	for id, p := range l.pending {
		if l.ended[p.gen] {
			out = append(out, p)
			delete(l.pending, id)
		}
	}
	l.ended = nil // their envelopes are all taken, and no frame follows an end
	slices.SortFunc(out, func(a, b pendingEnvelope) int { return a.at.Compare(b.at) })
	return out
}

// onFrame sees every text frame Slack sends on connection gen.
func (b *Bot) onFrame(gen int, raw []byte) {
	var head struct {
		Type       string `json:"type"`
		EnvelopeID string `json:"envelope_id"`
		Reason     string `json:"reason"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return
	}
	switch {
	case head.Type == "hello":
		b.connHello(gen)
	case head.Type == "disconnect":
		b.acks.markClosing(gen)
		b.connReason(gen, head.Reason)
		b.onDisconnectFrame(head.Reason)
	case head.EnvelopeID != "":
		b.ledger.add(head.EnvelopeID, gen, append([]byte(nil), raw...), b.now())
	}
}

// rebuildEvent turns a raw envelope into the event slack-go would have
// delivered.
func rebuildEvent(raw []byte) (socketmode.Event, bool) {
	var req socketmode.Request
	if err := json.Unmarshal(raw, &req); err != nil {
		return socketmode.Event{}, false
	}
	switch req.Type {
	case socketmode.RequestTypeSlashCommands:
		var cmd slack.SlashCommand
		if err := json.Unmarshal(req.Payload, &cmd); err != nil {
			return socketmode.Event{}, false
		}
		return socketmode.Event{Type: socketmode.EventTypeSlashCommand, Data: cmd, Request: &req}, true
	case socketmode.RequestTypeEventsAPI:
		ev, err := slackevents.ParseEvent(req.Payload, slackevents.OptionNoVerifyToken())
		if err != nil {
			return socketmode.Event{}, false
		}
		return socketmode.Event{Type: socketmode.EventTypeEventsAPI, Data: ev, Request: &req}, true
	case socketmode.RequestTypeInteractive:
		var cb slack.InteractionCallback
		if err := json.Unmarshal(req.Payload, &cb); err != nil {
			return socketmode.Event{}, false
		}
		return socketmode.Event{Type: socketmode.EventTypeInteractive, Data: cb, Request: &req}, true
	}
	return socketmode.Event{}, false
}
