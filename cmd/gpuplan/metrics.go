package main

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpuplan/gpuplan/bot"
	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/store"
)

// Metrics is serve's Prometheus instrumentation on its own registry (with
// the Go and process series; promtext.go says why it is not
// client_golang): the bot's Observer, the store
// decorator's meters (metered.go), a scrape-time collector of the fleet's
// reservations and agents, and counters the digest scheduler calls.
// Every method is safe for concurrent use.
type Metrics struct {
	reg *registry

	commands       *metric[counter]   // command, outcome
	commandSeconds *metric[histogram] // command
	ackSeconds     *histogram
	connects       *metric[counter] // kind
	connected      *gauge
	disconnects    *metric[counter]   // reason
	storeSeconds   *metric[histogram] // op
	storeErrors    *metric[counter]   // op
	digests        *metric[counter]   // outcome
	nudges         *counter

	names         atomic.Pointer[map[string]string] // word typed → command name
	everConnected atomic.Bool                       // a first connection was seen
}

// Metric names, for tests and docs/operations.md.
const (
	metricCommands        = "gpuplan_commands_total"
	metricCommandSeconds  = "gpuplan_command_duration_seconds"
	metricAckSeconds      = "gpuplan_ack_latency_seconds"
	metricConnects        = "gpuplan_socketmode_connects_total"
	metricDisconnects     = "gpuplan_socketmode_disconnects_total"
	metricConnected       = "gpuplan_socketmode_connected"
	metricStoreSeconds    = "gpuplan_store_operation_duration_seconds"
	metricStoreErrors     = "gpuplan_store_errors_total"
	metricReservations    = "gpuplan_reservations_held"
	metricGPUsHeld        = "gpuplan_gpus_held"
	metricAgentSampleAge  = "gpuplan_agent_last_sample_age_seconds"
	metricAgentBatches    = "gpuplan_agent_samples_total"
	metricDigests         = "gpuplan_digests_posted_total"
	metricNudges          = "gpuplan_nudges_sent_total"
	fleetRefreshTimeout   = 2 * time.Second
	fleetCacheTTL         = 15 * time.Second
	otherLabel            = "other"
	digestOutcomeOK       = "ok"
	digestOutcomeError    = "error"
	disconnectReasonOther = otherLabel
)

// knownDisconnectReasons bounds the reason label: Slack's documented
// reasons and the bot's own; anything else is "other".
var knownDisconnectReasons = []string{
	"refresh_requested", "warning", "link_disabled", "too_many_websockets",
	bot.ReasonShutdown, bot.ReasonConnectionLost, disconnectReasonOther,
}

// newMetrics builds the registry. Call setCommands with the command table
// before the bot runs so command labels are the table's names.
func newMetrics() *Metrics {
	m := &Metrics{reg: newRegistry()}
	m.commands = newCounter(metricCommands,
		"Commands run from Slack, by command and outcome (ok, user_error, error).", "command", "outcome")
	m.commandSeconds = newHistogramMetric(metricCommandSeconds,
		"Time a command took to compute, waiting for a worker included.",
		[]float64{.005, .01, .025, .05, .1, .25, .5, 1, 1.5, 2.5, 5, 10}, "command")
	// Fine below the 1.5 s ack budget, and the 3 s limit as an edge.
	ack := newHistogramMetric(metricAckSeconds,
		"Time from a Socket Mode envelope's arrival to its ack being written (Slack retries after 3 s).",
		[]float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 1.5, 2, 2.5, 3, 5})
	m.ackSeconds = ack.With()
	m.connects = newCounter(metricConnects,
		"Socket Mode connections Slack greeted: kind=connect for the first, reconnect after.", "kind")
	connected := newGauge(metricConnected,
		"Socket Mode connections up now (1 when this replica can receive envelopes; 2 briefly during a refresh).")
	m.connected = connected.With()
	m.disconnects = newCounter(metricDisconnects,
		"Socket Mode connections that ended, by reason (Slack's disconnect frame, shutdown, connection_lost).", "reason")
	m.storeSeconds = newHistogramMetric(metricStoreSeconds, "Reservation store operation latency, by operation.",
		[]float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}, "op")
	m.storeErrors = newCounter(metricStoreErrors,
		"Store operations that failed, by operation; the store's answers (conflict, not found, not owner, ended, invalid) are not failures.", "op")
	m.digests = newCounter(metricDigests, "Scheduled digests, by outcome (ok, error).", "outcome")
	nudges := newCounter(metricNudges, "Idle-reservation nudges sent.")
	m.nudges = nudges.With()
	m.reg.mustRegister(goCollector(), processCollector(),
		m.commands, m.commandSeconds, ack, m.connects, connected, m.disconnects,
		m.storeSeconds, m.storeErrors, m.digests, nudges)
	// Series that exist from the start, so rates and alerts see zeros.
	for _, k := range []string{"connect", "reconnect"} {
		m.connects.With(k)
	}
	for _, r := range knownDisconnectReasons {
		m.disconnects.With(r)
	}
	for _, o := range []string{digestOutcomeOK, digestOutcomeError} {
		m.digests.With(o)
	}
	return m
}

// Registry is what /metrics serves.
func (m *Metrics) Registry() *registry { return m.reg }

// setCommands maps the words users type onto the command table's names
// (aliases included), so the command label stays bounded.
func (m *Metrics) setCommands(cmds []commands.Command) {
	names := map[string]string{}
	for _, c := range cmds {
		names[c.Name] = c.Name
		for _, a := range c.Aliases {
			names[a] = c.Name
		}
		for _, o := range []string{bot.OutcomeOK, bot.OutcomeUserError, bot.OutcomeError} {
			m.commands.With(c.Name, o)
		}
	}
	m.names.Store(&names)
}

// commandName is the label for a typed first word: the command it names,
// "help" for nothing, and "plan" for anything else, as commands.Dispatch
// reads it.
func (m *Metrics) commandName(word string) string {
	word = strings.ToLower(word)
	if word == "" {
		return "help"
	}
	if names := m.names.Load(); names != nil {
		if n, ok := (*names)[word]; ok {
			return n
		}
	}
	return "plan"
}

// CommandDone implements bot.Observer.
func (m *Metrics) CommandDone(name, outcome string, d time.Duration) {
	name = m.commandName(name)
	m.commands.With(name, outcome).Inc()
	m.commandSeconds.With(name).Observe(d.Seconds())
}

// Acked implements bot.Observer.
func (m *Metrics) Acked(d time.Duration) { m.ackSeconds.Observe(d.Seconds()) }

// Connected implements bot.Observer.
func (m *Metrics) Connected() {
	kind := "reconnect"
	if m.everConnected.CompareAndSwap(false, true) {
		kind = "connect"
	}
	m.connects.With(kind).Inc()
	m.connected.Inc()
}

// Disconnected implements bot.Observer.
func (m *Metrics) Disconnected(reason string) {
	m.disconnects.With(disconnectLabel(reason)).Inc()
	m.connected.Dec()
}

// Refused implements bot.Observer: a connection Slack turned away before
// hello counts as a disconnect with its reason, but was never connected.
func (m *Metrics) Refused(reason string) {
	m.disconnects.With(disconnectLabel(reason)).Inc()
}

// disconnectLabel bounds a disconnect reason to the known ones.
func disconnectLabel(reason string) string {
	for _, r := range knownDisconnectReasons {
		if r == reason {
			return r
		}
	}
	return disconnectReasonOther
}

// DigestPosted counts a scheduled digest: outcome "ok" when it was posted,
// "error" when posting failed. Call it on the replica that claimed the
// slot only.
func (m *Metrics) DigestPosted(outcome string) { m.digests.With(outcome).Inc() }

// NudgeSent counts one idle-reservation nudge sent to its owner.
func (m *Metrics) NudgeSent() { m.nudges.Inc() }

// storeOp records one store call (metered.go).
func (m *Metrics) storeOp(op string, d time.Duration, err error) {
	m.storeSeconds.With(op).Observe(d.Seconds())
	if storeFailed(err) {
		m.storeErrors.With(op).Inc()
	}
}

// watchFleet registers the scrape-time collector of reservations held
// and agent sample ages for the inventory's servers. st should be the
// metered store, so the collector's reads show in the store metrics.
func (m *Metrics) watchFleet(st store.Store, servers []string) {
	m.reg.mustRegister(newFleetCollector(st, servers, time.Now))
}

var _ bot.Observer = (*Metrics)(nil)

// fleetCollector reads the store at scrape time, at most every
// fleetCacheTTL and within fleetRefreshTimeout, so a scrape never waits
// on a slow store for long and many scrapes cost one read.
type fleetCollector struct {
	st      store.Store
	watch   store.Watch // nil: no agent data
	servers []string
	now     func() time.Time

	mu   sync.Mutex
	at   time.Time // last refresh; zero: never
	held map[string][2]int
	seen map[string]time.Time
	n    map[string]int64
}

func newFleetCollector(st store.Store, servers []string, now func() time.Time) *fleetCollector {
	c := &fleetCollector{st: st, servers: servers, now: now}
	c.watch, _ = st.(store.Watch)
	return c
}

func (c *fleetCollector) names() []string {
	return []string{metricReservations, metricGPUsHeld, metricAgentSampleAge, metricAgentBatches}
}

func (c *fleetCollector) gather() []family {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if c.at.IsZero() || now.Sub(c.at) >= fleetCacheTTL {
		c.refresh()
		c.at = now
	}
	res := family{name: metricReservations, typ: "gauge", help: "Reservations holding GPUs now, per server (read at scrape time, cached 15 s)."}
	gpus := family{name: metricGPUsHeld, typ: "gauge", help: "GPUs held by reservations now, per server (read at scrape time, cached 15 s)."}
	age := family{name: metricAgentSampleAge, typ: "gauge", help: "Seconds since the server's gpuplan agent last reported; absent when no agent ever has."}
	batches := family{name: metricAgentBatches, typ: "counter", help: "Agent sample batches the store has recorded for the server (all replicas and agents; read at scrape time)."}
	servers := slices.Sorted(slices.Values(c.servers))
	for _, s := range servers {
		l := []labelPair{{"server", s}}
		if h, ok := c.held[s]; ok {
			res.samples = append(res.samples, sample{labels: l, value: float64(h[0])})
			gpus.samples = append(gpus.samples, sample{labels: l, value: float64(h[1])})
		}
		if t, ok := c.seen[s]; ok {
			age.samples = append(age.samples, sample{labels: l, value: max(0, now.Sub(t).Seconds())})
			batches.samples = append(batches.samples, sample{labels: l, value: float64(c.n[s])})
		}
	}
	return []family{res, gpus, age, batches}
}

// refresh reads every server; a server the store cannot answer for is
// left out of this scrape (its failure is in gpuplan_store_errors_total).
func (c *fleetCollector) refresh() {
	ctx, cancel := context.WithTimeout(context.Background(), fleetRefreshTimeout)
	defer cancel()
	c.held, c.seen, c.n = map[string][2]int{}, map[string]time.Time{}, map[string]int64{}
	now, err := c.st.Now(ctx)
	if err != nil {
		now = c.now()
	}
	for _, s := range c.servers {
		if rs, err := c.st.List(ctx, s); err == nil {
			var h [2]int
			for _, r := range rs {
				if r.State(now) == store.Active {
					h[0]++
					h[1] += len(r.GPUs)
				}
			}
			c.held[s] = h
		}
		if c.watch != nil {
			if l, err := c.watch.Live(ctx, s); err == nil && !l.SeenAt.IsZero() {
				c.seen[s] = l.SeenAt
				c.n[s] = l.Batches
			}
		}
	}
}
