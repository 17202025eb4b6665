package bot

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// recorder is an Observer that keeps what it was told.
type recorder struct {
	mu          sync.Mutex
	commands    []string // "name outcome"
	acks        []time.Duration
	connects    int
	disconnects []string
	refused     []string
}

func (r *recorder) CommandDone(name, outcome string, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.commands = append(r.commands, name+" "+outcome)
}

func (r *recorder) Acked(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.acks = append(r.acks, d)
}

func (r *recorder) Connected() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.connects++
}

func (r *recorder) Disconnected(reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.disconnects = append(r.disconnects, reason)
}

func (r *recorder) Refused(reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.refused = append(r.refused, reason)
}

// waitFor polls cond under the recorder's lock.
func (r *recorder) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r.mu.Lock()
		ok := cond()
		r.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			r.mu.Lock()
			defer r.mu.Unlock()
			t.Fatalf("observer never saw %s: commands %q, %d acks, %d connects, disconnects %q",
				what, r.commands, len(r.acks), r.connects, r.disconnects)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func waitConnected(t *testing.T, b *Bot, want bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for b.Connected() != want {
		if time.Now().After(deadline) {
			t.Fatalf("Connected() stayed %v", !want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The observer hears every command with its outcome, every ack once it
// is written, and each connection's start and end with the reason from
// Slack's disconnect frame.
func TestObserverHooks(t *testing.T) {
	rec := &recorder{}
	h := start(t, func(c *Config, _ *Bot) { c.Observer = rec })
	rec.waitFor(t, "the first connection", func() bool { return rec.connects == 1 })
	waitConnected(t, h.bot, true)

	for _, text := range []string{"help", "bert-bse 3 epochs on h100", "explode", "<@U0BOT> gpus h100"} {
		h.fake.WaitAck(t, h.fake.Push(h.fake.SlashCommand(text, "U0001", "C0001")), 5*time.Second)
	}
	want := []string{"help ok", "bert-bse user_error", "explode error", "gpus ok"}
	// The ack is observed just after its frame is written: the fake may
	// see it first.
	rec.waitFor(t, "four commands and their acks", func() bool { return len(rec.commands) == 4 && len(rec.acks) >= 4 })
	rec.mu.Lock()
	got := slices.Clone(rec.commands)
	acks := slices.Clone(rec.acks)
	rec.mu.Unlock()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("commands %q, want %q", got, want)
	}
	if len(acks) < 4 {
		t.Errorf("%d acks observed, want one per envelope (4)", len(acks))
	}
	for _, d := range acks {
		if d <= 0 || d >= 3*time.Second {
			t.Errorf("ack latency %v", d)
		}
	}

	h.fake.Disconnect("refresh_requested")
	rec.waitFor(t, "the refresh", func() bool { return slices.Contains(rec.disconnects, "refresh_requested") && rec.connects == 2 })
	waitConnected(t, h.bot, true)

	h.fake.DropConnections()
	rec.waitFor(t, "the lost connection", func() bool { return slices.Contains(rec.disconnects, ReasonConnectionLost) && rec.connects == 3 })
	waitConnected(t, h.bot, true)

	if err := h.stop(); err != nil {
		t.Fatal(err)
	}
	if h.bot.Connected() {
		t.Error("Connected() after Run returned")
	}
	rec.waitFor(t, "the shutdown", func() bool { return slices.Contains(rec.disconnects, ReasonShutdown) })
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.disconnects) != 3 {
		t.Errorf("disconnects %q, want one per connection", rec.disconnects)
	}
}

// Without an Observer nothing breaks, and a bot that never connected is
// not connected.
func TestNopObserverAndNotConnected(t *testing.T) {
	b, err := New(Config{AppToken: "xapp-1-abc", BotToken: "xoxb-abc"}, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.Connected() {
		t.Error("connected before Run")
	}
	b.connHello(1)
	if !b.Connected() {
		t.Error("not connected after hello")
	}
	b.connHello(2) // a reconnect greets before the old connection's read fails
	b.connEnded(1)
	if !b.Connected() {
		t.Error("the old connection's end took the new one down")
	}
	b.connEnded(2)
	b.connEnded(2)
	if b.Connected() {
		t.Error("connected after the last connection ended")
	}
	b.ackStarted("E1", time.Now())
	b.ackWritten("E1")
}
