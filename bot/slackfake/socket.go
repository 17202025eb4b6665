package slackfake

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// Ack is one acknowledgement the fake received on a Socket Mode connection.
type Ack struct {
	EnvelopeID string
	// Payload is the ack's payload, nil when the ack had none.
	Payload json.RawMessage
	// Latency is the time from writing the envelope to reading the ack.
	Latency time.Duration
	// Conn is the connection the ack arrived on, PushConn the one the
	// envelope was written to (0 if the fake never pushed that envelope).
	Conn     int
	PushConn int
	// Type is the type of the acked envelope ("" if unknown).
	Type string
	At   time.Time
}

// ErrNoConnection is returned by PushErr when no Socket Mode connection is live.
var ErrNoConnection = errors.New("slackfake: no live Socket Mode connection")

const writeTimeout = 5 * time.Second

type wsConn struct {
	id   int
	ws   *websocket.Conn
	done chan struct{} // closed when the reader has stopped and the socket is closed

	wmu   sync.Mutex // serialises every write on ws
	ready bool       // hello written (guarded by Server.mu)
}

// write writes one text frame under the connection's write lock.
func (c *wsConn) write(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = c.ws.SetWriteDeadline(time.Now().Add(writeTimeout))
	return c.ws.WriteMessage(websocket.TextMessage, data)
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// serveOpenLocked answers apps.connections.open (faults were applied by the caller).
func (s *Server) serveOpenLocked(c *apiCall) apiResp {
	if c.header.Get("Authorization") != "Bearer "+AppToken {
		return slackErr("invalid_auth")
	}
	s.opens++
	s.nextTicket++
	ticket := fmt.Sprint(s.nextTicket)
	s.tickets[ticket] = true
	host := s.hs.Listener.Addr().String()
	return success(map[string]any{"url": "ws://" + host + "/link/?ticket=" + ticket})
}

// serveLink upgrades a ticketed request to a Socket Mode connection, sends
// hello, and then reads acks until the socket closes.
func (s *Server) serveLink(w http.ResponseWriter, r *http.Request) {
	ticket := r.URL.Query().Get("ticket")
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "closed", http.StatusServiceUnavailable)
		return
	}
	if !s.tickets[ticket] {
		s.mu.Unlock()
		http.Error(w, "invalid or used ticket", http.StatusUnauthorized)
		return
	}
	delete(s.tickets, ticket)
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()

	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade already answered the request
	}
	ws.SetReadLimit(1 << 20)

	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ws.Close()
		return
	}
	live := 1
	for _, o := range s.conns {
		if o.ready {
			live++
		}
	}
	if s.maxConns > 0 && live > s.maxConns {
		s.tooMany++
		s.notifyLocked()
		s.mu.Unlock()
		refuseTooMany(ws)
		return
	}
	s.nextConn++
	c := &wsConn{id: s.nextConn, ws: ws, done: make(chan struct{})}
	s.conns[c.id] = c
	ws.SetPongHandler(func(string) error {
		s.mu.Lock()
		s.pongs++
		s.notifyLocked()
		s.mu.Unlock()
		return nil
	})
	// Hold the write lock from before the connection is visible to Push until
	// hello is written, so nothing can overtake hello.
	c.wmu.Lock()
	c.ready = true
	s.notifyLocked()
	s.mu.Unlock()

	err = writeHello(c, live)
	c.wmu.Unlock()

	if err == nil {
		s.wg.Go(func() { s.pinger(c) })
		s.readAcks(c)
	}

	ws.Close()
	s.mu.Lock()
	delete(s.conns, c.id)
	close(c.done)
	s.notifyLocked()
	s.mu.Unlock()
}

// refuseTooMany is Slack's answer to one connection too many: a
// disconnect frame instead of hello (the client is still "connecting"),
// then a close.
func refuseTooMany(ws *websocket.Conn) {
	msg, _ := json.Marshal(map[string]any{"type": "disconnect", "reason": "too_many_websockets",
		"debug_info": map[string]any{"host": "applink-fake-limit"}})
	_ = ws.SetWriteDeadline(time.Now().Add(writeTimeout))
	if ws.WriteMessage(websocket.TextMessage, msg) == nil {
		_ = ws.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.CloseNormalClosure, "too_many_websockets"), time.Now().Add(writeTimeout))
		// Give the app a moment to read both before the TCP close.
		_ = ws.SetReadDeadline(time.Now().Add(time.Second))
		for {
			if _, _, err := ws.ReadMessage(); err != nil {
				break
			}
		}
	}
	ws.Close()
}

// writeHello sends the hello frame that opens a connection; the caller
// holds c.wmu so nothing overtakes it.
func writeHello(c *wsConn, live int) error {
	hello, _ := json.Marshal(map[string]any{
		"type":            "hello",
		"num_connections": live,
		"debug_info": map[string]any{
			"host":                        fmt.Sprintf("applink-fake-%d", c.id),
			"build_number":                1,
			"approximate_connection_time": 18060,
		},
		"connection_info": map[string]any{"app_id": AppID},
	})
	_ = c.ws.SetWriteDeadline(time.Now().Add(writeTimeout))
	return c.ws.WriteMessage(websocket.TextMessage, hello)
}

// pinger sends a PING control frame every ping interval until the connection
// or the server closes.
func (s *Server) pinger(c *wsConn) {
	tick := time.NewTicker(s.cfg.pingInterval)
	defer tick.Stop()
	for n := 1; ; n++ {
		select {
		case <-c.done:
			return
		case <-s.done:
			return
		case <-tick.C:
		}
		c.wmu.Lock()
		err := c.ws.WriteControl(websocket.PingMessage, fmt.Appendf(nil, "ping-%d", n), time.Now().Add(writeTimeout))
		c.wmu.Unlock()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.pings++
		s.mu.Unlock()
	}
}

// readAcks reads frames from the app until the socket fails. Control frames
// (pings from the app, pongs) are handled inside ReadMessage.
func (s *Server) readAcks(c *wsConn) {
	for {
		mt, data, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		at := time.Now()
		if mt != websocket.TextMessage {
			s.mu.Lock()
			s.violationLocked(fmt.Sprintf("socket: conn %d sent a binary frame (%d bytes)", c.id, len(data)))
			s.mu.Unlock()
			continue
		}
		s.recordAck(c.id, data, at)
	}
}

func (s *Server) recordAck(conn int, data []byte, at time.Time) {
	var msg struct {
		EnvelopeID *string         `json:"envelope_id"`
		Payload    json.RawMessage `json:"payload"`
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := json.Unmarshal(data, &msg); err != nil || msg.EnvelopeID == nil || *msg.EnvelopeID == "" {
		s.violationLocked(fmt.Sprintf("socket: conn %d sent a frame that is not an ack: %.200s", conn, data))
		return
	}
	id := *msg.EnvelopeID
	// gorilla's WriteJSON adds a newline; Slack's limit is on the frame.
	if len(data) > MaxAckBytes {
		s.violationLocked(fmt.Sprintf("socket: ack for %s is %d bytes (limit %d); Slack drops it", id, len(data), MaxAckBytes))
		return
	}
	p, known := s.pending[id]
	if !known {
		s.violationLocked(fmt.Sprintf("socket: conn %d acked unknown envelope_id %q", conn, id))
	}
	var payload json.RawMessage
	if len(msg.Payload) > 0 && string(msg.Payload) != "null" {
		payload = slices.Clone(msg.Payload)
	}
	a := Ack{EnvelopeID: id, Payload: payload, Conn: conn, PushConn: p.conn, Type: p.typ, At: at}
	if known {
		a.Latency = at.Sub(p.at)
	}
	s.acks[id] = append(s.acks[id], a)
	if payload != nil {
		s.checkAckPayloadLocked(a)
	}
	if s.cfg.ackLog {
		s.t.Logf("slackfake: ack %s (%s) on conn %d after %v: %s", id, p.typ, conn, a.Latency, payload)
	}
	s.notifyLocked()
}

// checkAckPayloadLocked validates what an ack payload will be used for.
func (s *Server) checkAckPayloadLocked(a Ack) {
	var body map[string]any
	if err := json.Unmarshal(a.Payload, &body); err != nil {
		s.violationLocked(fmt.Sprintf("ack %s: payload is not a JSON object", a.EnvelopeID))
		return
	}
	where := fmt.Sprintf("ack of %s %s", a.Type, a.EnvelopeID)
	switch a.Type {
	case "slash_commands":
		blocks, err := blocksOf(body["blocks"])
		if err != nil {
			s.violationLocked(where + ": " + err.Error())
			return
		}
		text, _ := body["text"].(string)
		for _, v := range validateMessage(where, text, blocks) {
			s.violationLocked(v)
		}
	case "interactive":
		switch body["response_action"] {
		case "update", "push":
			view, _ := body["view"].(map[string]any)
			if view == nil {
				s.violationLocked(where + ": response_action needs a view")
				return
			}
			for _, v := range validateView(where, view) {
				s.violationLocked(v)
			}
		}
	}
}

// Opens is the number of successful apps.connections.open calls.
func (s *Server) Opens() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opens
}

// WaitOpens waits until at least n apps.connections.open calls succeeded.
func (s *Server) WaitOpens(t testing.TB, n int, timeout time.Duration) {
	t.Helper()
	if !s.waitFor(timeout, func() bool { return s.opens >= n }) {
		t.Fatalf("slackfake: waited %v for %d connection opens, got %d", timeout, n, s.Opens())
	}
}

// SetMaxConnections makes the fake refuse a connection while n others
// are live, as Slack does past its 10 per app: the refused one gets a
// disconnect frame with reason too_many_websockets instead of hello and is
// closed. 0 removes the limit (the default).
func (s *Server) SetMaxConnections(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.maxConns = n
}

// TooManyRefusals is how many connections SetMaxConnections's limit refused.
func (s *Server) TooManyRefusals() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tooMany
}

// Connections is the number of live Socket Mode connections that got hello.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.readyLocked())
}

// ConnIDs returns the ids of the live connections, ascending. Ids start at 1
// and are never reused.
func (s *Server) ConnIDs() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readyLocked()
}

func (s *Server) readyLocked() []int {
	var ids []int
	for id, c := range s.conns {
		if c.ready {
			ids = append(ids, id)
		}
	}
	sort.Ints(ids)
	return ids
}

// WaitConnections waits until exactly n connections are live.
func (s *Server) WaitConnections(t testing.TB, n int, timeout time.Duration) {
	t.Helper()
	if !s.waitFor(timeout, func() bool { return len(s.readyLocked()) == n }) {
		t.Fatalf("slackfake: waited %v for %d live connections, have %d (opens: %d)", timeout, n, s.Connections(), s.Opens())
	}
}

// Pings is the number of PING frames the fake has written.
func (s *Server) Pings() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pings
}

// Pongs is the number of PONG frames received from the app.
func (s *Server) Pongs() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pongs
}

// Push writes an envelope to a random live connection (seeded, see WithSeed;
// in turn with WithRoundRobin) and returns its envelope_id once written. If
// the write fails because the connection is going away, it tries another, as
// Slack would. It fails the test if none is live.
func (s *Server) Push(e Envelope) string {
	s.t.Helper()
	id, err := s.PushErr(e)
	if err != nil {
		s.t.Fatalf("slackfake: Push %s: %v", e.Type, err)
	}
	return id
}

// PushErr is Push returning the error instead of failing the test.
func (s *Server) PushErr(e Envelope) (string, error) {
	return s.push(0, e)
}

// PushTo writes an envelope to connection conn (see ConnIDs).
func (s *Server) PushTo(conn int, e Envelope) string {
	s.t.Helper()
	id, err := s.push(conn, e)
	if err != nil {
		s.t.Fatalf("slackfake: PushTo %d %s: %v", conn, e.Type, err)
	}
	return id
}

func (s *Server) push(conn int, e Envelope) (string, error) {
	if e.ID == "" {
		s.mu.Lock()
		e.ID = s.envelopeIDLocked()
		s.mu.Unlock()
	}
	data, err := json.Marshal(e)
	if err != nil {
		return "", err
	}
	tried := map[int]bool{}
	for {
		s.mu.Lock()
		var c *wsConn
		if conn != 0 {
			if cc, ok := s.conns[conn]; ok && cc.ready && !tried[conn] {
				c = cc
			}
		} else {
			var ids []int
			for _, id := range s.readyLocked() {
				if !tried[id] {
					ids = append(ids, id)
				}
			}
			if len(ids) > 0 {
				var pick int
				if s.cfg.roundRobin {
					pick = ids[0]
					for _, id := range ids {
						if id > s.lastPush {
							pick = id
							break
						}
					}
					s.lastPush = pick
				} else {
					pick = ids[s.rng.IntN(len(ids))]
				}
				c = s.conns[pick]
			}
		}
		s.mu.Unlock()
		if c == nil {
			if conn != 0 {
				return "", fmt.Errorf("connection %d is not live", conn)
			}
			return "", ErrNoConnection
		}
		tried[c.id] = true

		c.wmu.Lock()
		s.mu.Lock()
		s.pending[e.ID] = pending{at: time.Now(), conn: c.id, typ: e.Type}
		s.mu.Unlock()
		_ = c.ws.SetWriteDeadline(time.Now().Add(writeTimeout))
		err := c.ws.WriteMessage(websocket.TextMessage, data)
		c.wmu.Unlock()
		if err == nil {
			return e.ID, nil
		}
		s.mu.Lock()
		delete(s.pending, e.ID)
		s.mu.Unlock()
		// The connection is going away: Slack would deliver elsewhere.
	}
}

// PushedTo is the connection envelopeID was last written to (0, false if
// the fake never wrote it).
func (s *Server) PushedTo(envelopeID string) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.pending[envelopeID]
	return p.conn, ok
}

// WaitAck waits for the first ack of envelopeID and returns it; it fails the
// test on timeout.
func (s *Server) WaitAck(t testing.TB, envelopeID string, timeout time.Duration) Ack {
	t.Helper()
	var a Ack
	if !s.waitFor(timeout, func() bool {
		if l := s.acks[envelopeID]; len(l) > 0 {
			a = l[0]
			return true
		}
		return false
	}) {
		t.Fatalf("slackfake: no ack for envelope %s within %v", envelopeID, timeout)
	}
	return a
}

// Acks returns every ack seen for envelopeID, in arrival order.
func (s *Server) Acks(envelopeID string) []Ack {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.acks[envelopeID])
}

// Disconnect sends {"type":"disconnect","reason":reason} on every live
// connection. For "warning" the sockets stay open; for any other reason the
// fake then closes them (close frame, then the TCP connection once the app
// has answered or after a second) and returns when they are gone.
func (s *Server) Disconnect(reason string) {
	for _, id := range s.ConnIDs() {
		s.DisconnectOne(id, reason)
	}
}

// DisconnectOne is Disconnect for one connection.
func (s *Server) DisconnectOne(conn int, reason string) {
	s.mu.Lock()
	c := s.conns[conn]
	s.mu.Unlock()
	if c == nil {
		return
	}
	msg, _ := json.Marshal(map[string]any{
		"type":       "disconnect",
		"reason":     reason,
		"debug_info": map[string]any{"host": fmt.Sprintf("applink-fake-%d", conn)},
	})
	if err := c.write(msg); err != nil || reason == "warning" {
		return
	}
	c.wmu.Lock()
	_ = c.ws.WriteControl(websocket.CloseMessage,
		websocket.FormatCloseMessage(websocket.CloseNormalClosure, reason), time.Now().Add(writeTimeout))
	c.wmu.Unlock()
	// Let the app read the frames and answer before the TCP connection goes,
	// so nothing it has not read yet is lost to a reset.
	select {
	case <-c.done:
	case <-time.After(time.Second):
		c.ws.Close()
		<-c.done
	}
}

// DropConnections closes every live connection's TCP socket without a close
// frame (the app sees close code 1006) and returns when they are gone.
func (s *Server) DropConnections() {
	s.mu.Lock()
	var cs []*wsConn
	for _, c := range s.conns {
		cs = append(cs, c)
	}
	s.mu.Unlock()
	for _, c := range cs {
		c.ws.Close()
	}
	for _, c := range cs {
		<-c.done
	}
}
