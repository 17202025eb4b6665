package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/store"
)

// Sink receives the agent's readings. store.Redis and store.Embedded
// implement it; RecordSamples ignores a batch whose At is not after the
// server's last one, so a resend after an outage is harmless.
type Sink interface {
	RecordSamples(ctx context.Context, b store.SampleBatch) error
}

// Defaults.
const (
	DefaultEvery = 30 * time.Second
	// QueueSpan is how much time of readings the agent keeps while the
	// store is unreachable; older ones are dropped first.
	QueueSpan          = 2 * time.Hour
	DefaultSendTimeout = 10 * time.Second
	defaultRetryMin    = time.Second
	defaultRetryMax    = time.Minute
	// stillDownEvery is how often an outage is logged again.
	stillDownEvery = 10 * time.Minute
)

// The store refuses a batch with longer texts or more users than these.
const (
	maxErr      = 480 // bytes of SampleBatch.Err (the store takes 500)
	maxAgent    = 200 // bytes of SampleBatch.Agent
	maxUsers    = 32  // users per GPU
	maxUserName = 64  // bytes per user name
)

// clip shortens s to at most n bytes of valid UTF-8.
func clip(s string, n int) string {
	s = strings.ToValidUTF8(s, "?")
	if len(s) <= n {
		return s
	}
	n -= len("…")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// Config configures an Agent. Server and Runner are required.
type Config struct {
	Server string        // the server's name in the inventory
	Every  time.Duration // sampling interval; 0 means DefaultEvery
	Runner Runner        // runs nvidia-smi
	Owners *Owners       // nil means the real /proc
	// Host names the machine in SampleBatch.Agent; "" means os.Hostname.
	Host string
	Log  *slog.Logger     // nil discards
	Now  func() time.Time // nil means time.Now
	// Queue is the most readings kept while the store is unreachable;
	// 0 means QueueSpan's worth at Every.
	Queue       int
	SendTimeout time.Duration // per RecordSamples call; 0 means DefaultSendTimeout
	// RetryMin and RetryMax bound the backoff between sends while the
	// store is unreachable (sampling goes on at Every regardless).
	RetryMin, RetryMax time.Duration
}

// Stats counts what an Agent has done.
type Stats struct {
	Samples  int // readings taken
	Sent     int // accepted by the store
	Dropped  int // dropped from a full queue while the store was away
	Rejected int // refused by the store as invalid (never retried)
	Queued   int // waiting to be sent
}

// Agent samples a server's GPUs and sends the readings to a Sink.
type Agent struct {
	cfg   Config
	name  string // SampleBatch.Agent
	log   *slog.Logger
	owner *Owners

	// Owned by the goroutine that calls Tick/Flush/Run.
	lastAt     time.Time // the last reading's stamp
	lastNow    time.Time // Now() then, with its monotonic reading
	lastErr    string
	lastNotes  map[string]bool
	down       bool // the last send failed
	downSince  time.Time
	downLogged time.Time
	downFrom   Stats // counters when the outage began
	backoff    time.Duration

	mu    sync.Mutex // guards queue and stats, read by Stats
	queue []store.SampleBatch
	stats Stats
}

// New checks cfg and fills in its defaults.
func New(cfg Config) (*Agent, error) {
	if !store.ValidServerName(cfg.Server) {
		return nil, fmt.Errorf("server name %q: use lowercase letters, digits, '-', '_' and '.', as in the inventory (at most %d characters)", cfg.Server, store.MaxServerNameLen)
	}
	if cfg.Runner == nil {
		return nil, errors.New("agent: no nvidia-smi runner")
	}
	if cfg.Every == 0 {
		cfg.Every = DefaultEvery
	}
	if cfg.Every < time.Millisecond {
		return nil, fmt.Errorf("sampling interval %v is too short", cfg.Every)
	}
	if cfg.Host == "" {
		cfg.Host, _ = os.Hostname()
		if cfg.Host == "" {
			cfg.Host = "unknown-host"
		}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Queue <= 0 {
		cfg.Queue = max(1, int((QueueSpan+cfg.Every-1)/cfg.Every))
	}
	if cfg.SendTimeout <= 0 {
		cfg.SendTimeout = DefaultSendTimeout
	}
	if cfg.RetryMin <= 0 {
		cfg.RetryMin = defaultRetryMin
	}
	if cfg.RetryMax <= 0 {
		cfg.RetryMax = min(defaultRetryMax, max(cfg.Every, cfg.RetryMin))
	}
	cfg.RetryMax = max(cfg.RetryMax, cfg.RetryMin)
	owners := cfg.Owners
	if owners == nil {
		owners = &Owners{}
	}
	name := cfg.Host + " gpuplan-agent"
	if len(name) > maxAgent {
		name = clip(cfg.Host, maxAgent-len(" gpuplan-agent")) + " gpuplan-agent"
	}
	return &Agent{cfg: cfg, name: name, log: cfg.Log, owner: owners}, nil
}

// Stats returns the agent's counters. It may be called from any goroutine.
func (a *Agent) Stats() Stats {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.stats
	s.Queued = len(a.queue)
	return s
}

// Sample takes one reading. It never fails: when nvidia-smi cannot be
// read the batch has no GPUs and Err says why (a heartbeat), and a panic
// in parsing — a bug — becomes such a batch too.
func (a *Agent) Sample(ctx context.Context) (b store.SampleBatch) {
	b = store.SampleBatch{
		Server: a.cfg.Server,
		At:     a.stamp(),
		Every:  a.cfg.Every,
		Agent:  a.name,
		GPUs:   []store.GPUSample{},
	}
	notes := map[string]bool{}
	defer func() {
		if r := recover(); r != nil {
			a.log.Error("bug: panic while reading nvidia-smi; sending a heartbeat instead", "panic", r, "stack", string(debug.Stack()))
			b.GPUs = []store.GPUSample{}
			b.Err = clip(fmt.Sprintf("internal error in gpuplan agent: %v", r), maxErr)
		}
		a.mu.Lock()
		a.stats.Samples++
		a.mu.Unlock()
		a.noteErr(b.Err)
		a.noteProblems(notes)
	}()
	gpus, err := a.readGPUs(ctx, notes)
	if err != nil {
		b.Err = clip(err.Error(), maxErr)
		return b
	}
	byUUID := make(map[string]int, len(gpus)) // UUID → position in b.GPUs
	users := make([]map[string]bool, len(gpus))
	for i, g := range gpus {
		b.GPUs = append(b.GPUs, store.GPUSample{Index: g.Index, UUID: g.UUID, Util: g.Util, MemUsedMB: g.MemUsedMB, MemTotalMB: g.MemTotalMB})
		users[i] = map[string]bool{}
		if g.UUID != "" {
			byUUID[g.UUID] = i
		}
	}
	apps := a.readApps(ctx, notes)
	var list map[string]string
	for _, app := range apps {
		i, ok := byUUID[gpuOf(app.GPUUUID, list)]
		if !ok && list == nil && strings.HasPrefix(app.GPUUUID, "MIG-") {
			list = a.readList(ctx, notes)
			i, ok = byUUID[gpuOf(app.GPUUUID, list)]
		}
		if !ok {
			notes[fmt.Sprintf("compute process %d is on %s, which is not among the GPUs listed", app.PID, app.GPUUUID)] = true
			continue
		}
		if app.PID == 0 {
			continue // nvidia-smi could not see it either; utilization still counts
		}
		name, found := a.owner.Owner(app.PID)
		if !found {
			continue // ended, or in another PID namespace
		}
		if len(name) > maxUserName || !utf8.ValidString(name) {
			notes[fmt.Sprintf("process %d's user name %q is too long for the store", app.PID, shorten(name))] = true
			continue
		}
		users[i][name] = true
	}
	for i := range b.GPUs {
		if len(users[i]) > maxUsers {
			notes[fmt.Sprintf("GPU %d has %d users; reporting the first %d", b.GPUs[i].Index, len(users[i]), maxUsers)] = true
		}
		if len(users[i]) > 0 {
			b.GPUs[i].Users = sortedKeys(users[i])[:min(len(users[i]), maxUsers)]
		}
	}
	slices.SortFunc(b.GPUs, func(x, y store.GPUSample) int { return x.Index - y.Index })
	return b
}

// stamp is the reading's time: now, but always after the previous one.
// If the wall clock steps back (NTP), the time since the last reading on
// the monotonic clock is added to the last stamp instead, so the store
// neither ignores the readings nor crams them together.
func (a *Agent) stamp() time.Time {
	now := a.cfg.Now()
	at := now.Round(0)
	if !a.lastAt.IsZero() && !at.After(a.lastAt) {
		at = a.lastAt.Add(max(now.Sub(a.lastNow), time.Millisecond))
	}
	a.lastAt, a.lastNow = at, now
	return at
}

func (a *Agent) readGPUs(ctx context.Context, notes map[string]bool) ([]GPU, error) {
	out, runErr := a.cfg.Runner.Run(ctx, GPUQueryArgs...)
	if errors.Is(runErr, exec.ErrNotFound) {
		return nil, fmt.Errorf("nvidia-smi not found (%v): install the NVIDIA driver or point --nvidia-smi at it", runErr)
	}
	gpus, problems, err := ParseGPUs(out)
	for _, p := range problems {
		notes["nvidia-smi GPU query: "+p.Error()] = true
	}
	switch {
	case err == nil:
		if runErr != nil {
			notes[fmt.Sprintf("nvidia-smi GPU query exited with an error but printed GPUs: %v", runErr)] = true
		}
		return gpus, nil
	case runErr == nil:
		return nil, err
	}
	var f *Failure
	if errors.As(err, &f) && (f.Kind == ErrNoDevices || f.Kind == ErrDriver) {
		return nil, err // nvidia-smi's own words say more than its exit code
	}
	return nil, runErr
}

func (a *Agent) readApps(ctx context.Context, notes map[string]bool) []App {
	out, runErr := a.cfg.Runner.Run(ctx, AppsQueryArgs...)
	apps, problems, err := ParseApps(out)
	for _, p := range problems {
		notes["nvidia-smi compute-apps query: "+p.Error()] = true
	}
	if err == nil && runErr != nil && len(apps) == 0 {
		err = runErr
	}
	if err != nil {
		notes[fmt.Sprintf("nvidia-smi compute-apps query failed, so GPU users are unknown: %v", err)] = true
	}
	return apps
}

func (a *Agent) readList(ctx context.Context, notes map[string]bool) map[string]string {
	out, runErr := a.cfg.Runner.Run(ctx, ListArgs...)
	list, err := ParseList(out)
	if err == nil && runErr != nil && len(list) == 0 {
		err = runErr
	}
	if err != nil {
		notes[fmt.Sprintf("nvidia-smi -L failed, so processes on MIG devices are not placed: %v", err)] = true
	}
	if list == nil {
		list = map[string]string{}
	}
	return list
}

// noteErr logs a failed reading when the reason changes, and the
// recovery, rather than every Every.
func (a *Agent) noteErr(msg string) {
	switch {
	case msg == a.lastErr:
	case msg == "":
		a.log.Info("nvidia-smi answers again", "server", a.cfg.Server)
	default:
		a.log.Error("cannot read the GPUs; sending heartbeats without GPU data until this is fixed", "server", a.cfg.Server, "reason", msg)
	}
	a.lastErr = msg
}

// noteProblems logs lines and processes that could not be used, each
// once while it lasts.
func (a *Agent) noteProblems(notes map[string]bool) {
	for _, n := range sortedKeys(notes) {
		if !a.lastNotes[n] {
			a.log.Warn("skipped part of a reading", "server", a.cfg.Server, "what", n)
		}
	}
	a.lastNotes = notes
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Send is RecordSamples without panics and with the send timeout.
func (a *Agent) send(ctx context.Context, sink Sink, b store.SampleBatch) (err error) {
	defer func() {
		if r := recover(); r != nil {
			a.log.Error("bug: panic in the store while recording samples", "panic", r, "stack", string(debug.Stack()))
			err = fmt.Errorf("panic in store: %v", r)
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, a.cfg.SendTimeout)
	defer cancel()
	return sink.RecordSamples(ctx, b)
}

// enqueue adds a reading, dropping the oldest when the queue is full.
func (a *Agent) enqueue(b store.SampleBatch) {
	a.mu.Lock()
	dropped := 0
	for len(a.queue) >= a.cfg.Queue {
		a.queue = a.queue[1:]
		dropped++
	}
	a.queue = append(a.queue, b)
	first := a.stats.Dropped == a.downFrom.Dropped
	a.stats.Dropped += dropped
	total := a.stats.Dropped - a.downFrom.Dropped
	a.mu.Unlock()
	if dropped > 0 && first {
		a.log.Warn("store unreachable for too long: queue full, dropping the oldest readings",
			"server", a.cfg.Server, "queue", a.cfg.Queue, "dropped", total)
	}
}

// Flush sends queued readings oldest-first until the queue is empty or a
// send fails. It reports whether the queue is empty.
func (a *Agent) Flush(ctx context.Context, sink Sink) bool {
	for ctx.Err() == nil {
		a.mu.Lock()
		if len(a.queue) == 0 {
			a.mu.Unlock()
			a.recovered()
			return true
		}
		b := a.queue[0]
		a.mu.Unlock()

		err := a.send(ctx, sink, b)
		if err != nil && errors.Is(err, store.ErrInvalid) {
			a.log.Error("the store refused a reading; dropping it", "server", a.cfg.Server, "at", b.At, "error", err)
			a.pop(&a.stats.Rejected)
			continue
		}
		if err != nil {
			if ctx.Err() == nil {
				a.failed(err)
			}
			return false
		}
		a.pop(&a.stats.Sent)
	}
	return false
}

func (a *Agent) pop(counter *int) {
	a.mu.Lock()
	a.queue = a.queue[1:]
	*counter++
	a.mu.Unlock()
}

func (a *Agent) failed(err error) {
	now := a.cfg.Now()
	st := a.Stats()
	if !a.down {
		a.down, a.downSince, a.downLogged = true, now, now
		a.mu.Lock()
		a.downFrom = st
		a.mu.Unlock()
		a.backoff = a.cfg.RetryMin
		a.log.Warn("store unreachable; keeping readings to send when it is back",
			"server", a.cfg.Server, "error", err, "queued", st.Queued, "keeps", a.cfg.Queue)
		return
	}
	a.backoff = min(2*a.backoff, a.cfg.RetryMax)
	if now.Sub(a.downLogged) >= stillDownEvery {
		a.downLogged = now
		a.log.Warn("store still unreachable", "server", a.cfg.Server, "error", err,
			"since", a.downSince.Format(time.RFC3339), "queued", st.Queued, "dropped", st.Dropped-a.downFromDropped())
	}
}

func (a *Agent) downFromDropped() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.downFrom.Dropped
}

func (a *Agent) recovered() {
	if !a.down {
		return
	}
	st := a.Stats()
	a.mu.Lock()
	from := a.downFrom
	a.mu.Unlock()
	a.log.Info("store reachable again; sent the readings kept meanwhile",
		"server", a.cfg.Server, "down_for", a.cfg.Now().Sub(a.downSince).Round(time.Second).String(),
		"sent", st.Sent-from.Sent, "dropped", st.Dropped-from.Dropped)
	a.down = false
	a.backoff = 0
	a.mu.Lock()
	a.downFrom = Stats{Dropped: a.stats.Dropped}
	a.mu.Unlock()
}

// Tick takes a reading, queues it and sends what is queued.
func (a *Agent) Tick(ctx context.Context, sink Sink) {
	a.enqueue(a.Sample(ctx))
	a.Flush(ctx, sink)
}

// Run samples every Every and sends the readings to sink until ctx is
// cancelled; it returns after the step in progress. Readings still queued
// then are lost: the agent keeps nothing on disk.
func (a *Agent) Run(ctx context.Context, sink Sink) {
	a.log.Info("agent started", "server", a.cfg.Server, "every", a.cfg.Every.String(), "agent", a.name, "queue", a.cfg.Queue)
	ticker := time.NewTicker(a.cfg.Every)
	defer ticker.Stop()
	retry := time.NewTimer(time.Hour)
	retry.Stop()
	defer retry.Stop()
	a.Tick(ctx, sink)
	for {
		if a.down {
			retry.Reset(a.backoff)
		}
		select {
		case <-ctx.Done():
			a.log.Info("agent stopped", "server", a.cfg.Server, "queued_unsent", a.Stats().Queued)
			return
		case <-ticker.C:
			retry.Stop()
			a.Tick(ctx, sink)
		case <-retry.C:
			a.Flush(ctx, sink)
		}
	}
}
