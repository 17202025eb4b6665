package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/gpuplan/gpuplan/store"
	"github.com/redis/go-redis/v9"
)

var replicasFull = flag.Bool("replicas.full", false,
	"TestReplicas at full size: 1,000 commands, then 300 with a replica killed (.ci/run); default 300 and 150")

// Several `gpuplan serve` replicas share one Redis and one (fake) Slack
// app. The fake deals envelopes to their connections in turn, as Slack
// spreads them over an app's connections, and delivers some twice on two
// replicas (a duplicate during a connection refresh, or an Events API
// retry): every command must be answered exactly once, the store must stay
// consistent, and every reservation a user was told about must exist.
//
// Then one replica is SIGKILLed under load. Slack's behaviour is modelled
// explicitly:
//   - an envelope written to a connection that is gone is delivered on
//     another one (the fake's Push does this);
//   - an Events API envelope that is not acked within 3 s is delivered
//     again, on a live connection, with a new envelope_id, the same
//     event_id and retry_attempt 1 ("timeout");
//   - a slash command that is not acked in time is not retried: the user
//     sees an error (dispatch_failed) and types it again. The test counts
//     these.
//
// What must hold after the kill: every envelope that was acked was
// answered, exactly once, except on the killed replica, where a command
// acked without its answer (a state change is acked first and announced
// after, by Slack's rule that no Web API call precedes the ack) may have
// died between the two; the test counts those and requires that every one
// of them was acked by the killed replica.
func TestReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs three replicas against a real Redis")
	}
	phase1, phase2 := 300, 150
	if *replicasFull {
		phase1, phase2 = 1000, 300
	}
	rdb := startOwnRedis(t)
	bin := buildGpuplan(t)
	fake := slackfake.New(t, slackfake.WithRoundRobin(), slackfake.WithFailOnViolation())
	servers := filepath.Join(t.TempDir(), "servers.yaml")
	if err := os.WriteFile(servers, []byte(replicaServers), 0o600); err != nil {
		t.Fatal(err)
	}
	var reps []*replicaProc
	for i := range 3 {
		r := startReplica(t, bin, fmt.Sprintf("replica-%d", i), fake, map[string]string{
			"REDIS_URL": rdb.url, "GPUPLAN_SERVERS": servers, "GPUPLAN_HTTP_ADDR": "127.0.0.1:0",
		})
		fake.WaitConnections(t, i+1, 20*time.Second)
		r.conn = slices.Max(fake.ConnIDs())
		reps = append(reps, r)
	}
	st, err := store.OpenRedis(context.Background(), store.RedisOptions{URL: rdb.url})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	// Phase 1: all replicas up, duplicates delivered on other replicas.
	var logs []string
	for _, r := range reps {
		logs = append(logs, r.log)
	}
	load := &replicaLoad{t: t, fake: fake, rng: rand.New(rand.NewPCG(1, 2)), logs: logs}
	start := time.Now()
	load.run(phase1, 100, nil)
	sent := time.Since(start)
	answered := load.waitAnswered(60*time.Second, true)
	took := time.Since(start)
	res := load.tally(nil)
	t.Logf("REPLICAS phase 1: %d commands (%d slash, %d mentions) sent in %v at 100/s over 3 replicas; "+
		"%d duplicate deliveries on another replica; all answered after %v: %d answered once, %d twice or more, %d not at all; "+
		"acks per connection %v; duplicates dropped by the shared dedup %d; first ack p50 %v, p99 %v, max %v",
		phase1, res.slash, res.mentions, sent.Round(time.Millisecond), load.dups, took.Round(time.Millisecond),
		res.once, res.more, res.none, res.acksPerConn, countLog(reps, "duplicate delivery dropped"),
		res.ackPercentile(50), res.ackPercentile(99), res.ackPercentile(100))
	if !answered || res.once != phase1 {
		t.Errorf("phase 1: %d of %d commands answered exactly once (%d more than once, %d never)", res.once, phase1, res.more, res.none)
		load.explain(t, 5)
	}
	told := checkReplicaStore(t, st, load)
	t.Logf("REPLICAS phase 1: the store holds every reservation users were told about (%d), no GPU is held twice", told)

	// Phase 2: kill one replica a third of the way in.
	load2 := &replicaLoad{t: t, fake: fake, rng: rand.New(rand.NewPCG(3, 4)), noDups: true, first: len(load.items), logs: logs}
	victim := reps[1]
	load2.run(phase2, 50, func(i int) {
		if i != phase2/3 {
			return
		}
		// The victim stops reading (SIGSTOP) with two events and two
		// slash commands in its socket, then dies: they are certainly
		// never acked, whatever the timing.
		victim.pause(t)
		for j := range 4 {
			load2.send(j%2 == 0, victim.conn)
		}
		victim.kill()
	})
	// Slack's retries: events not acked within 3 s come again elsewhere.
	time.Sleep(3 * time.Second)
	redelivered := load2.redeliverUnacked()
	load2.waitAnswered(30*time.Second, false)
	res2 := load2.tally(map[int]bool{victim.conn: true})
	t.Logf("REPLICAS phase 2: %d commands at 50/s, and 4 more in the socket of the replica on connection %d, SIGSTOPped and SIGKILLed after %d; "+
		"%d acked (%d by the killed replica); %d events redelivered after 3 s without an ack; "+
		"%d slash commands never acked (the user sees an error and retries); "+
		"answered once %d, more than once %d; acked but not answered %d (%d of them by the killed replica); acks per connection %v",
		phase2, victim.conn, phase2/3, res2.acked, res2.ackedByKilled, redelivered, res2.unackedSlash,
		res2.once, res2.more, res2.lostAfterAck, res2.lostOnKilled, res2.acksPerConn)
	if res2.more > 0 {
		t.Errorf("phase 2: %d commands answered more than once", res2.more)
		load2.explain(t, 5)
	}
	if res2.lostAfterAck != res2.lostOnKilled {
		t.Errorf("phase 2: %d acked commands were never answered by a replica that is still up", res2.lostAfterAck-res2.lostOnKilled)
		load2.explain(t, 5)
	}
	if res2.unackedEvents > 0 {
		t.Errorf("phase 2: %d events were never acked, even after their redelivery", res2.unackedEvents)
	}
	if redelivered < 2 || res2.unackedSlash < 2 {
		t.Errorf("phase 2: %d events redelivered and %d slash commands unacked; the 2 and 2 left in the killed replica's socket should be among them", redelivered, res2.unackedSlash)
	}
	told = checkReplicaStore(t, st, load, load2)
	t.Logf("REPLICAS phase 2: the store holds every reservation users were told about (%d), no GPU is held twice", told)

	for _, r := range reps {
		if r != victim {
			r.stop(t)
		}
	}
}

const replicaServers = `timezone: UTC
max_duration: 72h
servers:
  - name: srv-h
    gpu: h100-sxm-80gb
    gpus: 2
  - name: srv-a
    gpu: a100-sxm4-80gb
    gpus: 2
  - name: srv-v
    gpu: v100-sxm2-32gb
    gpus: 4
`

// replicaLoad sends commands and keeps what it sent, to match answers.
type replicaLoad struct {
	t      testing.TB
	fake   *slackfake.Server
	rng    *rand.Rand
	noDups bool
	mix    []string // slash commands to pick from, evenly; nil: replicaCommands
	logs   []string // the replicas' logs (JSON lines)
	first  int      // numbering offset (channels are unique across loads)
	items  []*loadItem
	dups   int
}

type loadItem struct {
	env     slackfake.Envelope
	mention bool
	user    string
	channel string
	text    string
	ids     []string // envelope ids it was delivered under (redeliveries)
	retried bool
}

// replicaCommands are the slash commands of the mix, by weight. Reserve
// and release aim at two small servers, so they contend.
var replicaCommands = []struct {
	weight int
	text   string
}{
	{12, "bert-base 1 epoch of 100k samples on h100x2"},
	{6, "llama-3-8b lora 1 epoch of 50k samples on a100x2"},
	{12, "status"},
	{4, "status srv-h"},
	{10, "mine"},
	{14, "reserve 1 on srv-h for 1h"},
	{8, "reserve 2 on srv-a for 30m"},
	{4, "reserve 1 on srv-v for 2h"},
	{10, "release all"},
	{4, "release srv-h"},
	{5, "wait 1 on srv-h for 1h"},
	{4, "help"},
	{3, "gpus h100"},
	{4, "models bert"},
}

var replicaMentions = []string{"status", "help", "bert-base 1 epoch of 100k samples on h100x2"}

func (l *replicaLoad) pick() string {
	if l.mix != nil {
		return l.mix[l.rng.IntN(len(l.mix))]
	}
	total := 0
	for _, c := range replicaCommands {
		total += c.weight
	}
	n := l.rng.IntN(total)
	for _, c := range replicaCommands {
		if n < c.weight {
			return c.text
		}
		n -= c.weight
	}
	panic("unreachable")
}

// run sends n commands at rate per second; 1 in 20 is a mention. Unless
// noDups, 1 in 10 is also delivered a second time on another connection
// (a slash command under the same envelope_id, an event as a retry with
// the same event_id). before runs ahead of each send.
func (l *replicaLoad) run(n, rate int, before func(i int)) {
	tick := time.NewTicker(time.Second / time.Duration(rate))
	defer tick.Stop()
	for i := range n {
		if before != nil {
			before(i)
		}
		<-tick.C
		it := l.send(l.rng.IntN(20) == 0, 0)
		id := it.ids[0]
		if l.noDups || l.rng.IntN(10) != 0 {
			continue
		}
		conn, _ := l.fake.PushedTo(id)
		var other int
		for _, c := range l.fake.ConnIDs() {
			if c != conn {
				other = c
				break
			}
		}
		dup := it.env
		if it.mention {
			dup = l.fake.Redeliver(it.env, 1, "timeout")
			it.ids = append(it.ids, dup.ID)
		}
		l.fake.PushTo(other, dup)
		l.dups++
	}
}

// send builds a command (a mention or a slash command), pushes it to
// connection conn (0: the fake's choice) and records it.
func (l *replicaLoad) send(mention bool, conn int) *loadItem {
	it, err := l.trySend(mention, conn)
	if err != nil {
		l.t.Fatalf("push: %v", err)
	}
	return it
}

// trySend is send, returning the error when no connection is live (the
// command is then not recorded: Slack would have failed it for the user).
func (l *replicaLoad) trySend(mention bool, conn int) (*loadItem, error) {
	k := l.first + len(l.items)
	it := &loadItem{user: fmt.Sprintf("U%03d", l.rng.IntN(12)), channel: fmt.Sprintf("C%05d", k), mention: mention}
	if mention {
		it.text = replicaMentions[l.rng.IntN(len(replicaMentions))]
		it.env = l.fake.AppMention(it.text, it.user, it.channel, "")
	} else {
		it.text = l.pick()
		it.env = l.fake.SlashCommand(it.text, it.user, it.channel)
	}
	var id string
	var err error
	if conn != 0 {
		id = l.fake.PushTo(conn, it.env)
	} else if id, err = l.fake.PushErr(it.env); err != nil {
		return nil, err
	}
	it.ids = append(it.ids, id)
	l.items = append(l.items, it)
	return it, nil
}

// redeliverUnacked delivers again, on a live connection, every event none
// of whose deliveries was acked: what Slack does after 3 s.
func (l *replicaLoad) redeliverUnacked() int {
	n := 0
	for _, it := range l.items {
		if !it.mention || l.acked(it) {
			continue
		}
		again := l.fake.Redeliver(it.env, 1, "timeout")
		if _, err := l.fake.PushErr(again); err != nil {
			l.t.Fatalf("redeliver: %v", err)
		}
		it.ids = append(it.ids, again.ID)
		it.retried = true
		n++
	}
	return n
}

func (l *replicaLoad) acked(it *loadItem) bool {
	for _, id := range it.ids {
		if len(l.fake.Acks(id)) > 0 {
			return true
		}
	}
	return false
}

// answers lists what the bot said in answer to it: slash-command acks
// with a payload (not the "working on it" placeholder), posts to its
// response_url, and the bot's chat.postMessage and chat.postEphemeral
// calls in its channel (every command has a channel of its own).
func (l *replicaLoad) answers(it *loadItem, sent *botPosts) []string {
	var out []string
	if !it.mention {
		for _, a := range l.fake.Acks(it.env.ID) {
			if a.Payload != nil && !strings.Contains(string(a.Payload), "Working on it") {
				out = append(out, "ack: "+string(a.Payload))
			}
		}
		for _, p := range sent.responses[it.env.ResponseURL()] {
			b, _ := json.Marshal(p.Body)
			out = append(out, "response_url: "+string(b))
		}
	}
	for _, c := range sent.chat[it.channel] {
		out = append(out, c.Method+": "+c.Param("text")+" "+c.Param("blocks"))
	}
	return out
}

// botPosts is what the bot sent through the Web API, by where it went.
type botPosts struct {
	responses map[string][]slackfake.ResponsePost // by response_url
	chat      map[string][]slackfake.Call         // accepted chat.post* calls by channel
}

func (l *replicaLoad) responsePosts() *botPosts {
	b := &botPosts{responses: map[string][]slackfake.ResponsePost{}, chat: map[string][]slackfake.Call{}}
	for _, p := range l.fake.ResponsePosts() {
		b.responses[p.URL] = append(b.responses[p.URL], p)
	}
	for _, m := range []string{"chat.postMessage", "chat.postEphemeral"} {
		for _, c := range l.fake.Calls(m) {
			if c.Error == "" && c.Status == 200 {
				b.chat[c.Param("channel")] = append(b.chat[c.Param("channel")], c)
			}
		}
	}
	return b
}

// waitAnswered waits until every command (all) or every command that was
// acked has an answer, and reports whether they all do.
func (l *replicaLoad) waitAnswered(timeout time.Duration, all bool) bool {
	deadline := time.Now().Add(timeout)
	for {
		posts := l.responsePosts()
		missing := 0
		for _, it := range l.items {
			if len(l.answers(it, posts)) == 0 && (all || l.acked(it)) {
				missing++
			}
		}
		if missing == 0 {
			// Let late duplicates, if any, arrive before counting.
			time.Sleep(500 * time.Millisecond)
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(200 * time.Millisecond)
	}
}

type replicaTally struct {
	slash, mentions             int
	once, more, none            int
	acked, ackedByKilled        int
	unackedSlash, unackedEvents int
	lostAfterAck, lostOnKilled  int
	acksPerConn                 map[int]int
	latencies                   []time.Duration // each command's first ack, sorted
}

// ackPercentile is the p-th percentile (0–100) of the first-ack latencies.
func (r replicaTally) ackPercentile(p int) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	return r.latencies[min(len(r.latencies)-1, len(r.latencies)*p/100)].Round(100 * time.Microsecond)
}

func (l *replicaLoad) tally(killed map[int]bool) replicaTally {
	r := replicaTally{acksPerConn: map[int]int{}}
	sent := l.responsePosts()
	processed := l.processed()
	for _, it := range l.items {
		if it.mention {
			r.mentions++
		} else {
			r.slash++
		}
		byKilled, acked := false, false
		for _, id := range it.ids {
			for i, a := range l.fake.Acks(id) {
				r.acksPerConn[a.Conn]++
				if !acked && i == 0 {
					r.latencies = append(r.latencies, a.Latency)
				}
				acked = true
				byKilled = byKilled || killed[a.Conn]
			}
		}
		answered, dup, _ := l.verdict(it, sent, processed)
		switch {
		case dup:
			r.more++
		case answered:
			r.once++
		default:
			r.none++
		}
		switch {
		case acked:
			r.acked++
			if byKilled {
				r.ackedByKilled++
			}
			if !answered {
				r.lostAfterAck++
				if byKilled {
					r.lostOnKilled++
				}
			}
		case it.mention:
			r.unackedEvents++
		default:
			r.unackedSlash++
		}
	}
	slices.Sort(r.latencies)
	return r
}

// verdict says whether it was answered, and whether twice. Twice means:
// a replica log says "command answered" for its envelope more than once
// (all replicas counted), or it got more than one answer tied to the
// envelope (ack payload, response_url post), or the same message twice
// in its channel. (Its channel may rightly get other messages later: a
// release of the reservation it made is announced where the reservation
// was.)
func (l *replicaLoad) verdict(it *loadItem, sent *botPosts, processed map[string]int) (answered, dup bool, detail []string) {
	detail = l.answers(it, sent)
	answered = len(detail) > 0
	direct := 0
	if !it.mention {
		for _, a := range l.fake.Acks(it.env.ID) {
			if a.Payload != nil && !strings.Contains(string(a.Payload), "Working on it") {
				direct++
			}
		}
		direct += len(sent.responses[it.env.ResponseURL()])
		if processed[it.env.ID] > 1 {
			dup = true
			detail = append(detail, fmt.Sprintf("processed %d times", processed[it.env.ID]))
		}
	}
	texts := map[string]int{}
	for _, c := range sent.chat[it.channel] {
		texts[c.Param("text")]++
		if texts[c.Param("text")] > 1 {
			dup = true
		}
	}
	if it.mention && len(sent.chat[it.channel]) > 1 {
		dup = true
	}
	return answered, dup || direct > 1, detail
}

// processed counts the "command answered" log lines of every replica by
// envelope_id.
func (l *replicaLoad) processed() map[string]int {
	n := map[string]int{}
	for _, path := range l.logs {
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var line struct {
				Msg        string `json:"msg"`
				EnvelopeID string `json:"envelope_id"`
			}
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "command answered" {
				n[line.EnvelopeID]++
			}
		}
		f.Close()
	}
	return n
}

// explain logs a few commands that were not answered exactly once.
func (l *replicaLoad) explain(t *testing.T, n int) {
	sent, processed := l.responsePosts(), l.processed()
	for _, it := range l.items {
		answered, dup, a := l.verdict(it, sent, processed)
		if answered && !dup {
			continue
		}
		var acks []string
		for _, id := range it.ids {
			for _, ack := range l.fake.Acks(id) {
				acks = append(acks, fmt.Sprintf("%s on conn %d (pushed to %d) payload %.80s", id, ack.Conn, ack.PushConn, ack.Payload))
			}
		}
		t.Logf("%q by %s in %s (envelopes %v): %d answers %.300q; acks %q", it.text, it.user, it.channel, it.ids, len(a), a, acks)
		if n--; n == 0 {
			return
		}
	}
}

var reservationID = regexp.MustCompile(`\bsrv-[hav]-[0-9]+[a-z0-9]*\b`)

// checkReplicaStore checks from outside what the store holds: on each
// server no GPU is held by two live reservations at once, and every
// reservation announced to a user exists and is theirs. It returns how
// many announced reservations it checked.
func checkReplicaStore(t *testing.T, st *store.Redis, loads ...*replicaLoad) int {
	ctx := context.Background()
	for _, server := range []string{"srv-h", "srv-a", "srv-v"} {
		live, err := st.List(ctx, server)
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range live {
			for _, b := range live[i+1:] {
				shared := false
				for _, g := range a.GPUs {
					shared = shared || slices.Contains(b.GPUs, g)
				}
				if shared && a.Start.Before(b.End) && b.Start.Before(a.End) {
					t.Errorf("%s: %s %v and %s %v hold a GPU at the same time", server, a.ID, a.GPUs, b.ID, b.GPUs)
				}
			}
		}
	}
	told := map[string]bool{}
	for _, l := range loads {
		sent := l.responsePosts()
		for _, it := range l.items {
			if !strings.HasPrefix(it.text, "reserve") {
				continue
			}
			// A reservation is announced with chat.postMessage; a conflict
			// or an error is ephemeral.
			for _, c := range sent.chat[it.channel] {
				if c.Method != "chat.postMessage" {
					continue
				}
				for _, id := range slices.Compact(slices.Sorted(slices.Values(reservationID.FindAllString(c.Param("text")+c.Param("blocks"), -1)))) {
					if told[id] {
						continue
					}
					told[id] = true
					rv, err := st.Get(ctx, id)
					if err != nil || rv.Owner != it.user {
						t.Errorf("%s was told it has %s, but the store has %+v (%v)", it.user, id, rv, err)
					}
				}
			}
		}
	}
	return len(told)
}

// --- processes ---

// buildGpuplan builds the gpuplan binary into the test's temp dir.
func buildGpuplan(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gpuplan")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// replicaProc is one `gpuplan serve` process, its log in a file.
type replicaProc struct {
	name string
	cmd  *exec.Cmd
	log  string
	conn int // its Socket Mode connection on the fake
	done chan struct{}
	err  error
}

func startReplica(t *testing.T, bin, name string, fake *slackfake.Server, env map[string]string) *replicaProc {
	t.Helper()
	r := &replicaProc{name: name, log: filepath.Join(t.TempDir(), name+".log"), done: make(chan struct{})}
	f, err := os.Create(r.log)
	if err != nil {
		t.Fatal(err)
	}
	r.cmd = exec.Command(bin, "serve")
	r.cmd.Env = append(os.Environ(), "SLACK_APP_TOKEN="+slackfake.AppToken, "SLACK_BOT_TOKEN="+slackfake.BotToken,
		"SLACK_API_URL="+fake.URL(), "GPUPLAN_LOG_FORMAT=json", "GPUPLAN_LOG_LEVEL=info")
	for k, v := range env {
		r.cmd.Env = append(r.cmd.Env, k+"="+v)
	}
	r.cmd.Stdout, r.cmd.Stderr = f, f
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.err = r.cmd.Wait(); f.Close(); close(r.done) }()
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		<-r.done
		if t.Failed() {
			b, _ := os.ReadFile(r.log)
			t.Logf("%s log (last lines):\n%s", r.name, lastLogLines(string(b), 15))
		}
	})
	return r
}

// pause stops the process (SIGSTOP) and waits until it is stopped.
func (r *replicaProc) pause(t *testing.T) {
	t.Helper()
	r.cmd.Process.Signal(syscall.SIGSTOP)
	stat := fmt.Sprintf("/proc/%d/stat", r.cmd.Process.Pid)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		b, err := os.ReadFile(stat)
		if err != nil {
			t.Skipf("cannot tell whether %s stopped: %v", r.name, err)
		}
		// pid (comm) state ...: the state follows the last ')'.
		if i := strings.LastIndexByte(string(b), ')'); i > 0 && strings.HasPrefix(string(b[i+1:]), " T") {
			return
		}
	}
	t.Fatalf("%s did not stop within 5 s of SIGSTOP", r.name)
}

// kill SIGKILLs the process and waits for it.
func (r *replicaProc) kill() {
	r.cmd.Process.Signal(syscall.SIGKILL)
	<-r.done
}

// stop sends SIGTERM and requires a clean drain and exit 0.
func (r *replicaProc) stop(t *testing.T) {
	t.Helper()
	r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.done:
		if r.err != nil {
			t.Errorf("%s exited with %v after SIGTERM", r.name, r.err)
		}
	case <-time.After(30 * time.Second):
		t.Errorf("%s did not exit within 30 s of SIGTERM", r.name)
	}
}

func lastLogLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// countLog counts the log lines (all replicas) that contain s.
func countLog(reps []*replicaProc, s string) int {
	n := 0
	for _, r := range reps {
		f, err := os.Open(r.log)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if strings.Contains(sc.Text(), s) {
				n++
			}
		}
		f.Close()
	}
	return n
}

// ownRedis is a redis-server the test started on a free loopback port,
// or the Redis GPUPLAN_TEST_REDIS_URL names (database 15, flushed), which
// the test must not kill.
type ownRedis struct {
	url  string
	own  bool
	cmd  *exec.Cmd
	done chan struct{}
}

// Extra arguments go after the defaults, so they override them (the
// last of a repeated directive wins); they do not apply to a
// GPUPLAN_TEST_REDIS_URL Redis.
func startOwnRedis(t *testing.T, extra ...string) *ownRedis {
	t.Helper()
	if raw := os.Getenv("GPUPLAN_TEST_REDIS_URL"); raw != "" {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatalf("GPUPLAN_TEST_REDIS_URL: %v", err)
		}
		u.Path = "/15"
		r := &ownRedis{url: u.String()}
		o, err := redis.ParseURL(r.url)
		if err != nil {
			t.Fatal(err)
		}
		c := redis.NewClient(o)
		defer c.Close()
		if err := c.FlushDB(context.Background()).Err(); err != nil {
			t.Fatalf("FLUSHDB: %v", err)
		}
		return r
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("no redis-server on PATH and GPUPLAN_TEST_REDIS_URL unset")
	}
	for range 5 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		dir := t.TempDir()
		r := &ownRedis{url: "redis://127.0.0.1:" + strconv.Itoa(port) + "/0", own: true, done: make(chan struct{})}
		args := append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "",
			"--appendonly", "no", "--dir", dir, "--logfile", "redis.log"}, extra...)
		r.cmd = exec.Command(bin, args...)
		r.cmd.Dir = dir
		if err := r.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { r.cmd.Wait(); close(r.done) }()
		c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(port), MaxRetries: -1})
		up := false
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if c.Ping(context.Background()).Err() == nil {
				up = true
				break
			}
		}
		c.Close()
		if up {
			t.Cleanup(r.kill)
			return r
		}
		r.kill()
	}
	t.Fatal("could not start redis-server")
	return nil
}

func (r *ownRedis) kill() {
	if r.cmd == nil {
		return
	}
	r.cmd.Process.Kill()
	<-r.done
}

// --- the bot keeps answering when the shared dedup store fails ---

// With Redis gone the store's dedup call fails; the bot must still answer
// (a rare double answer beats a lost command), quickly, and say so in its
// log once per envelope.
func TestServeDedupFailsOpen(t *testing.T) {
	rdb := startOwnRedis(t)
	if !rdb.own {
		t.Skip("kills Redis: needs a redis-server the test starts itself (GPUPLAN_TEST_REDIS_URL is set)")
	}
	// go-redis logs every failed dial to stderr; the test kills Redis on
	// purpose, so those lines are noise here.
	redis.SetLogger(quietRedis{})
	fake := slackfake.New(t)
	env := fakeEnv(t, fake, "REDIS_URL", rdb.url, "GPUPLAN_HTTP_ADDR", "off", "GPUPLAN_LOG_LEVEL", "info")
	var stdout, stderr lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	code := make(chan int, 1)
	go func() { code <- serve(ctx, nil, func(k string) string { return env[k] }, &stdout, &stderr) }()
	defer func() {
		cancel()
		select {
		case <-code:
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop")
		}
	}()
	fake.WaitConnections(t, 1, 10*time.Second)
	plan := "bert-base 1 epoch of 100k samples on h100x2"
	ask := func() slackfake.Ack {
		t.Helper()
		e := fake.SlashCommand(plan, "U0001", "C0001")
		fake.Push(e)
		a := fake.WaitAck(t, e.ID, 10*time.Second)
		if a.Payload != nil && !strings.Contains(string(a.Payload), "Working on it") {
			return a
		}
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			for _, p := range fake.ResponsePosts() {
				if p.URL == e.ResponseURL() {
					return a
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("no answer to %s: ack %s and nothing on its response_url", e.ID, a.Payload)
		return a
	}
	ask()
	e := fake.SlashCommand(plan, "U0001", "C0001")
	fake.Push(e)
	fake.WaitAck(t, e.ID, 5*time.Second)
	fake.PushTo(fake.ConnIDs()[0], e) // a duplicate: dropped through Redis
	waitLog(t, &stderr, "duplicate delivery dropped", 5*time.Second)

	rdb.kill()
	for i := range 3 {
		a := ask()
		if a.Latency > 2*time.Second {
			t.Errorf("command %d with Redis down: acked after %v", i, a.Latency)
		}
	}
	if n := strings.Count(stderr.String(), "dedupe store unavailable; processing anyway"); n != 3 {
		t.Errorf("%d log lines say the dedupe store is unavailable; want 3 (one per envelope)", n)
	}
}

type quietRedis struct{}

func (quietRedis) Printf(context.Context, string, ...any) {}

func waitLog(t *testing.T, b *lockedBuffer, s string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !strings.Contains(b.String(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in the log within %v", s, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The dedup adapter bounds each call and, after a failure, leaves the
// store alone for a few seconds so that the bot's event loop is not held.
func TestStoreDeduperPausesAfterAFailure(t *testing.T) {
	d := &countingDeduper{err: errors.New("down")}
	s := &storeDeduper{d: d, timeout: 50 * time.Millisecond}
	ctx := context.Background()
	if _, err := s.FirstSeen(ctx, "a", time.Minute); err == nil {
		t.Fatal("want the store's error")
	}
	for range 5 {
		if _, err := s.FirstSeen(ctx, "b", time.Minute); !errors.Is(err, errDedupPaused) {
			t.Errorf("during the pause: %v, want errDedupPaused", err)
		}
	}
	if d.calls != 1 {
		t.Errorf("the store was asked %d times, want once", d.calls)
	}
	s.pausing = time.Time{}
	d.err = nil
	if ok, err := s.FirstSeen(ctx, "c", time.Minute); err != nil || !ok {
		t.Errorf("after the pause: %v %v", ok, err)
	}
	if !d.hadDeadline {
		t.Error("the store's call had no deadline")
	}
}

type countingDeduper struct {
	mu          sync.Mutex
	calls       int
	err         error
	hadDeadline bool
}

func (c *countingDeduper) FirstSeen(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	dl, ok := ctx.Deadline()
	c.hadDeadline = ok && time.Until(dl) <= 50*time.Millisecond
	return c.err == nil, c.err
}
