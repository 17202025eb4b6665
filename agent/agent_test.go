package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/store"
)

// fakeProc builds a proc tree: pid → uid, written as /proc/<pid>/status.
func fakeProc(t testing.TB, procs map[int]int) string {
	t.Helper()
	root := t.TempDir()
	for pid, uid := range procs {
		dir := filepath.Join(root, strconv.Itoa(pid))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		status := fmt.Sprintf("Name:\tpython\nUmask:\t0022\nState:\tR (running)\nTgid:\t%d\nPid:\t%d\nUid:\t%d\t%d\t%d\t%d\nGid:\t100\t100\t100\t100\n", pid, pid, uid, uid, uid, uid)
		if err := os.WriteFile(filepath.Join(dir, "status"), []byte(status), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func names(m map[string]string, calls *int) func(string) (string, error) {
	return func(uid string) (string, error) {
		*calls++
		if n, ok := m[uid]; ok {
			return n, nil
		}
		return "", errors.New("unknown user")
	}
}

func TestOwners(t *testing.T) {
	var calls int
	o := &Owners{Proc: fakeProc(t, map[int]int{100: 1001, 101: 1001, 102: 1002, 103: 4242}), LookupID: names(map[string]string{"1001": "alice", "1002": "bob"}, &calls)}
	for _, tc := range []struct {
		pid  int
		want string
		ok   bool
	}{
		{100, "alice", true},
		{101, "alice", true}, // cached
		{102, "bob", true},
		{103, "4242", true}, // no name: the number
		{103, "4242", true}, // the failure is cached too
		{999, "", false},    // another PID namespace, or ended
		{0, "", false},
		{-1, "", false},
	} {
		got, ok := o.Owner(tc.pid)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Owner(%d) = %q, %v; want %q, %v", tc.pid, got, ok, tc.want, tc.ok)
		}
	}
	if calls != 3 {
		t.Errorf("%d name lookups, want 3 (one per uid)", calls)
	}
}

// Without a readable Uid line the owner of /proc/<pid> is used.
func TestOwnersFallsBackToDirectoryOwner(t *testing.T) {
	root := t.TempDir()
	for pid, status := range map[int]string{7: "", 8: "Name:\tx\nUid:\tgarbage\n"} {
		dir := filepath.Join(root, strconv.Itoa(pid))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if status != "" {
			if err := os.WriteFile(filepath.Join(dir, "status"), []byte(status), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	me := strconv.Itoa(os.Getuid())
	var calls int
	o := &Owners{Proc: root, LookupID: names(map[string]string{me: "me"}, &calls)}
	for _, pid := range []int{7, 8} {
		if got, ok := o.Owner(pid); got != "me" || !ok {
			t.Errorf("Owner(%d) = %q, %v; want the directory's owner", pid, got, ok)
		}
	}
}

// recorded answers nvidia-smi's three queries from testdata files or
// inline text, and counts the calls.
type recorded struct {
	gpus, apps, list string // file names, or "=" + text
	err              error  // returned with the GPU query
	mu               sync.Mutex
	calls            map[string]int
}

func (r *recorded) Run(_ context.Context, args ...string) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls == nil {
		r.calls = map[string]int{}
	}
	key := strings.Join(args, " ")
	r.calls[key]++
	read := func(src string) []byte {
		if text, ok := strings.CutPrefix(src, "="); ok {
			return []byte(text)
		}
		if src == "" {
			return nil
		}
		data, err := os.ReadFile(filepath.Join("testdata", src))
		if err != nil {
			panic(err)
		}
		return data
	}
	switch key {
	case strings.Join(GPUQueryArgs, " "):
		return read(r.gpus), r.err
	case strings.Join(AppsQueryArgs, " "):
		return read(r.apps), nil
	case strings.Join(ListArgs, " "):
		return read(r.list), nil
	}
	return nil, fmt.Errorf("unexpected nvidia-smi %s", key)
}

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// clock returns a Now that advances by step on every call.
func clock(step time.Duration) func() time.Time {
	var mu sync.Mutex
	now := t0
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(step)
		return now
	}
}

func newAgent(t *testing.T, cfg Config) *Agent {
	t.Helper()
	if cfg.Server == "" {
		cfg.Server = "h"
	}
	if cfg.Host == "" {
		cfg.Host = "gpu-h"
	}
	if cfg.Now == nil {
		cfg.Now = clock(cfg.Every)
	}
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestSampleRecordings(t *testing.T) {
	proc := fakeProc(t, map[int]int{11327: 1001, 11328: 1001, 11345: 1002, 2165: 1003, 5021: 1001})
	lookup := map[string]string{"1001": "alice", "1002": "bob", "1003": "kwin"}
	for _, tc := range []struct {
		name  string
		r     *recorded
		want  []store.GPUSample
		busy  bool
		notes bool // something was skipped and logged
	}{
		{"H100 under load, two users", &recorded{gpus: "gpus-h100-80gb-hbm3-590.48.01-load.txt", apps: "apps-h100-80gb-hbm3-590.48.01-load.txt"},
			[]store.GPUSample{{Index: 0, UUID: zeroUUID, Util: 100, MemUsedMB: 19818, MemTotalMB: 81559, Users: []string{"alice", "bob"}}}, true, false},
		{"RTX 4080 SUPER, one process in another namespace", &recorded{gpus: "gpus-rtx-4080-super-595.71.05-load.txt", apps: "apps-rtx-4080-super-595.71.05-load.txt"},
			[]store.GPUSample{{Index: 0, UUID: zeroUUID, Util: 7, MemUsedMB: 1474, MemTotalMB: 16376, Users: []string{"alice", "kwin"}}}, true, false},
		{"H200 MIG, processes not in this /proc", &recorded{gpus: "gpus-h200-mig-590.48.01-load.txt", apps: "apps-h200-mig-590.48.01-load.txt"},
			[]store.GPUSample{{Index: 0, UUID: zeroUUID, Util: -1, MemUsedMB: 16959, MemTotalMB: 143771}}, false, false},
		{"H200 MIG idle", &recorded{gpus: "gpus-h200-mig-590.48.01-idle.txt", apps: "apps-h200-mig-590.48.01-idle.txt"},
			[]store.GPUSample{{Index: 0, UUID: zeroUUID, Util: -1, MemUsedMB: 55, MemTotalMB: 143771}}, false, false},
		{"container: pid unreadable", &recorded{gpus: "=0, GPU-ae3738d5-9aa2-e1c9-53be-65b6d373d3d9, 3, 100, 200\n", apps: "apps-mig-container-insufficient-permissions.txt"},
			[]store.GPUSample{{Index: 0, UUID: "GPU-ae3738d5-9aa2-e1c9-53be-65b6d373d3d9", Util: 3, MemUsedMB: 100, MemTotalMB: 200}}, false, false},
		{"processes on MIG devices placed with -L", &recorded{gpus: "gpus-h200-mig-590.48.01-load.txt", apps: "=MIG-00000003-0000-0000-0000-000000000003, 11345, 100\nMIG-00000004-0000-0000-0000-000000000004, 11327, 100\n", list: "list-h200-mig-590.48.01.txt"},
			[]store.GPUSample{{Index: 0, UUID: zeroUUID, Util: -1, MemUsedMB: 16959, MemTotalMB: 143771, Users: []string{"alice", "bob"}}}, true, false},
		{"process on an unknown GPU", &recorded{gpus: "gpus-h100-80gb-hbm3-590.48.01-load.txt", apps: "=GPU-elsewhere, 11327, 1\n"},
			[]store.GPUSample{{Index: 0, UUID: zeroUUID, Util: 100, MemUsedMB: 19818, MemTotalMB: 81559}}, true, true},
		{"several GPUs, out of order, one bad line", &recorded{gpus: "=1, GPU-b, 0, 1, 2\n0, GPU-a, 50, 3, 4\n2, GPU-c, 9\n", apps: "=GPU-b, 11327, 1\nGPU-b, 11328, 1\nGPU-a, 11345, 1\n"},
			[]store.GPUSample{{Index: 0, UUID: "GPU-a", Util: 50, MemUsedMB: 3, MemTotalMB: 4, Users: []string{"bob"}}, {Index: 1, UUID: "GPU-b", Util: 0, MemUsedMB: 1, MemTotalMB: 2, Users: []string{"alice"}}}, true, true},
		{"compute-apps query fails: GPUs without users", &recorded{gpus: "gpus-rtx-4090-535.86.05-idle.txt", apps: "err-driver-not-loaded.txt"},
			[]store.GPUSample{{Index: 0, UUID: "GPU-71d1acc2-662d-2166-bf9f-65272d2fc437", Util: 0, MemUsedMB: 2, MemTotalMB: 24564}}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			var calls int
			a := newAgent(t, Config{Every: 30 * time.Second, Runner: tc.r, Owners: &Owners{Proc: proc, LookupID: names(lookup, &calls)}, Log: slog.New(slog.NewTextHandler(&logs, nil))})
			b := a.Sample(context.Background())
			want := store.SampleBatch{Server: "h", At: t0.Add(30 * time.Second), Every: 30 * time.Second, GPUs: tc.want, Agent: "gpu-h gpuplan-agent"}
			if !reflect.DeepEqual(b, want) {
				t.Errorf("batch\n got %+v\nwant %+v", b, want)
			}
			busy := false
			for _, g := range b.GPUs {
				busy = busy || g.Busy()
			}
			if busy != tc.busy {
				t.Errorf("busy = %v, want %v", busy, tc.busy)
			}
			if got := strings.Contains(logs.String(), "skipped part of a reading"); got != tc.notes {
				t.Errorf("logged a skipped part: %v, want %v\n%s", got, tc.notes, logs.String())
			}
			if tc.r.list != "" && tc.r.calls["-L"] != 1 {
				t.Errorf("nvidia-smi -L ran %d times, want once", tc.r.calls["-L"])
			}
			if tc.r.list == "" && tc.r.calls["-L"] != 0 {
				t.Errorf("nvidia-smi -L ran without a MIG device to place")
			}
		})
	}
}

func TestSampleFailures(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Runner
		want string // in Err
	}{
		{"no devices", &recorded{gpus: "err-no-devices.txt", err: errors.New("exit status 6")}, "No devices were found"},
		{"driver not loaded", &recorded{gpus: "err-driver-not-loaded.txt", err: errors.New("exit status 9")}, "couldn't communicate with the NVIDIA driver"},
		{"driver mismatch, exit 0", &recorded{gpus: "err-nvml-mismatch.txt"}, "Driver/library version mismatch"},
		{"garbage", &recorded{gpus: "=Segmentation fault\n"}, "not understood: Segmentation fault"},
		{"exit status without output", &recorded{err: errors.New("signal: killed")}, "signal: killed"},
		{"missing binary", ExecRunner{Path: filepath.Join(t.TempDir(), "nvidia-smi")}, "nvidia-smi not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAgent(t, Config{Every: time.Second, Runner: tc.r})
			b := a.Sample(context.Background())
			if !strings.Contains(b.Err, tc.want) || b.GPUs == nil || len(b.GPUs) != 0 {
				t.Errorf("batch %+v, want a heartbeat whose Err says %q", b, tc.want)
			}
		})
	}
}

// A panic while sampling is a bug, but the loop must outlive it.
func TestSamplePanicBecomesHeartbeat(t *testing.T) {
	proc := fakeProc(t, map[int]int{11327: 1001})
	var logs bytes.Buffer
	a := newAgent(t, Config{Every: time.Second, Log: slog.New(slog.NewTextHandler(&logs, nil)),
		Runner: &recorded{gpus: "gpus-h100-80gb-hbm3-590.48.01-load.txt", apps: "apps-h100-80gb-hbm3-590.48.01-load.txt"},
		Owners: &Owners{Proc: proc, LookupID: func(string) (string, error) { panic("boom") }}})
	b := a.Sample(context.Background())
	if !strings.Contains(b.Err, "internal error") || len(b.GPUs) != 0 {
		t.Errorf("batch %+v", b)
	}
	if !strings.Contains(logs.String(), "panic") {
		t.Errorf("no log of the panic:\n%s", logs.String())
	}
}

// The store ignores a batch not after the last: a clock stepped back must
// not silence the agent.
func TestStampsIncrease(t *testing.T) {
	a := newAgent(t, Config{Every: time.Second, Runner: &recorded{gpus: "gpus-rtx-4090-535.86.05-idle.txt"}, Now: func() time.Time { return t0 }})
	first := a.Sample(context.Background()).At
	second := a.Sample(context.Background()).At
	if !second.After(first) {
		t.Errorf("At %v then %v", first, second)
	}
}

func TestNewChecksAndDefaults(t *testing.T) {
	r := &recorded{}
	if _, err := New(Config{Server: "GPU H", Runner: r}); err == nil || !strings.Contains(err.Error(), "lowercase") {
		t.Errorf("bad server name: %v", err)
	}
	if _, err := New(Config{Server: "h"}); err == nil {
		t.Error("no runner accepted")
	}
	a, err := New(Config{Server: "h", Runner: r, Host: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if a.cfg.Every != 30*time.Second || a.cfg.Queue != 240 || a.name != "x gpuplan-agent" || a.cfg.RetryMax != 30*time.Second {
		t.Errorf("defaults: %+v", a.cfg)
	}
}

// fakeSink fails its first failN calls, records what it accepts, and can
// reject or panic on demand.
type fakeSink struct {
	mu      sync.Mutex
	failN   int
	calls   int
	got     []store.SampleBatch
	reject  map[int]bool // call numbers answered with an InvalidError
	panicAt map[int]bool
	sent    chan struct{}
}

func (s *fakeSink) RecordSamples(_ context.Context, b store.SampleBatch) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	switch {
	case s.panicAt[s.calls]:
		panic("store bug")
	case s.calls <= s.failN:
		return errors.New("dial tcp 10.0.0.5:6379: connect: connection refused")
	case s.reject[s.calls]:
		return &store.InvalidError{Reason: "bad batch"}
	}
	s.got = append(s.got, b)
	if s.sent != nil {
		select {
		case s.sent <- struct{}{}:
		default:
		}
	}
	return nil
}

func (s *fakeSink) batches() []store.SampleBatch {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]store.SampleBatch(nil), s.got...)
}

func ats(bs []store.SampleBatch) []time.Time {
	var out []time.Time
	for _, b := range bs {
		out = append(out, b.At)
	}
	return out
}

// While the store is away readings queue up; when it is back they go out
// oldest-first.
func TestCatchUpOldestFirst(t *testing.T) {
	sink := &fakeSink{failN: 5}
	var logs bytes.Buffer
	a := newAgent(t, Config{Every: time.Minute, Runner: &recorded{gpus: "gpus-rtx-4090-535.86.05-idle.txt"}, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	for range 5 {
		a.Tick(context.Background(), sink)
	}
	if st := a.Stats(); st.Queued != 5 || st.Sent != 0 {
		t.Fatalf("during the outage: %+v", st)
	}
	a.Tick(context.Background(), sink)
	got := sink.batches()
	if len(got) != 6 || !got[0].At.Equal(t0.Add(time.Minute)) {
		t.Fatalf("sent %v, want all 6 readings starting with the first", ats(got))
	}
	for i := 1; i < len(got); i++ {
		if !got[i].At.After(got[i-1].At) {
			t.Errorf("not oldest-first: %v", ats(got))
		}
	}
	if st := a.Stats(); st != (Stats{Samples: 6, Sent: 6}) {
		t.Errorf("stats %+v", st)
	}
	log := logs.String()
	if strings.Count(log, "store unreachable;") != 1 || !strings.Contains(log, "store reachable again") || !strings.Contains(log, "sent=6") {
		t.Errorf("outage not logged once and recovery not logged:\n%s", log)
	}
}

// A full queue drops the oldest readings and says how many.
func TestQueueDropsOldest(t *testing.T) {
	sink := &fakeSink{failN: 6}
	var logs bytes.Buffer
	a := newAgent(t, Config{Every: time.Minute, Queue: 3, Runner: &recorded{gpus: "gpus-rtx-4090-535.86.05-idle.txt"}, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	for range 7 {
		a.Tick(context.Background(), sink)
	}
	stamps := ats(sink.batches())
	if len(stamps) != 3 {
		t.Fatalf("sent %d batches, want the 3 newest", len(stamps))
	}
	for i := 1; i < len(stamps); i++ {
		if !stamps[i].After(stamps[i-1]) {
			t.Errorf("not oldest-first: %v", stamps)
		}
	}
	if st := a.Stats(); st.Dropped != 4 || st.Sent != 3 || st.Queued != 0 {
		t.Errorf("stats %+v, want 4 dropped, 3 sent", st)
	}
	log := logs.String()
	if strings.Count(log, "dropping the oldest") != 1 || !strings.Contains(log, "dropped=4") {
		t.Errorf("drops not logged with their count:\n%s", log)
	}
}

func TestRejectedBatchIsNotRetried(t *testing.T) {
	sink := &fakeSink{reject: map[int]bool{1: true}}
	a := newAgent(t, Config{Every: time.Minute, Runner: &recorded{gpus: "gpus-rtx-4090-535.86.05-idle.txt"}})
	a.Tick(context.Background(), sink)
	a.Tick(context.Background(), sink)
	if st := a.Stats(); st.Rejected != 1 || st.Sent != 1 || st.Queued != 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestSinkPanicIsAFailedSend(t *testing.T) {
	sink := &fakeSink{panicAt: map[int]bool{1: true}}
	a := newAgent(t, Config{Every: time.Minute, Runner: &recorded{gpus: "gpus-rtx-4090-535.86.05-idle.txt"}})
	a.Tick(context.Background(), sink)
	a.Tick(context.Background(), sink)
	if st := a.Stats(); st.Sent != 2 || st.Queued != 0 {
		t.Errorf("stats %+v", st)
	}
}

// With no nvidia-smi the agent still sends a heartbeat every interval,
// logs the reason once, and stops when cancelled.
func TestRunHeartbeatsWithoutNvidiaSMI(t *testing.T) {
	sink := &fakeSink{sent: make(chan struct{}, 1)}
	var logs syncBuffer
	a := newAgent(t, Config{Every: 5 * time.Millisecond, Now: time.Now, Runner: ExecRunner{Path: filepath.Join(t.TempDir(), "nvidia-smi")}, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { a.Run(ctx, sink); close(done) }()
	for len(sink.batches()) < 3 {
		select {
		case <-sink.sent:
		case <-time.After(5 * time.Second):
			t.Fatal("no heartbeats")
		}
	}
	cancel()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	for _, b := range sink.batches() {
		if !strings.Contains(b.Err, "nvidia-smi not found") || len(b.GPUs) != 0 || b.Server != "h" {
			t.Errorf("heartbeat %+v", b)
		}
	}
	if n := strings.Count(logs.String(), "cannot read the GPUs"); n != 1 {
		t.Errorf("reason logged %d times, want once:\n%s", n, logs.String())
	}
}

// Between samples a failed send is retried with backoff.
func TestRunRetriesBetweenSamples(t *testing.T) {
	sink := &fakeSink{failN: 3, sent: make(chan struct{}, 1)}
	a := newAgent(t, Config{Every: time.Hour, Now: time.Now, RetryMin: time.Millisecond, RetryMax: 4 * time.Millisecond,
		Runner: &recorded{gpus: "gpus-rtx-4090-535.86.05-idle.txt"}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() { a.Run(ctx, sink); close(done) }()
	select {
	case <-sink.sent:
	case <-time.After(5 * time.Second):
		t.Fatal("the queued reading was never retried")
	}
	cancel()
	<-done
	if st := a.Stats(); st.Samples != 1 || st.Sent != 1 {
		t.Errorf("stats %+v", st)
	}
}

// A send in progress ends with the context.
func TestRunStopsDuringASlowSend(t *testing.T) {
	entered := make(chan struct{})
	sink := sinkFunc(func(ctx context.Context, _ store.SampleBatch) error {
		close(entered)
		<-ctx.Done()
		return ctx.Err()
	})
	a := newAgent(t, Config{Every: time.Hour, Now: time.Now, SendTimeout: time.Hour, Runner: &recorded{gpus: "gpus-rtx-4090-535.86.05-idle.txt"}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { a.Run(ctx, sink); close(done) }()
	<-entered
	cancel()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("Run did not return")
	}
}

type sinkFunc func(context.Context, store.SampleBatch) error

func (f sinkFunc) RecordSamples(ctx context.Context, b store.SampleBatch) error { return f(ctx, b) }

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func writeScript(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nvidia-smi")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestExecRunner(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	ctx := context.Background()
	t.Run("missing path", func(t *testing.T) {
		_, err := ExecRunner{Path: filepath.Join(t.TempDir(), "nvidia-smi")}.Run(ctx)
		if !errors.Is(err, exec.ErrNotFound) {
			t.Errorf("err = %v, want exec.ErrNotFound", err)
		}
	})
	t.Run("missing on PATH", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := ExecRunner{}.Run(ctx)
		if !errors.Is(err, exec.ErrNotFound) {
			t.Errorf("err = %v, want exec.ErrNotFound", err)
		}
	})
	t.Run("args and output", func(t *testing.T) {
		out, err := ExecRunner{Path: writeScript(t, `printf '%s|' "$@"`)}.Run(ctx, GPUQueryArgs...)
		if err != nil || string(out) != strings.Join(GPUQueryArgs, "|")+"|" {
			t.Errorf("out %q, err %v", out, err)
		}
	})
	t.Run("failure keeps stdout", func(t *testing.T) {
		out, err := ExecRunner{Path: writeScript(t, "echo 'No devices were found'\necho oops >&2\nexit 6\n")}.Run(ctx)
		if string(out) != "No devices were found\n" || err == nil || !strings.Contains(err.Error(), "exit status 6: oops") {
			t.Errorf("out %q, err %v", out, err)
		}
	})
	t.Run("hung nvidia-smi is killed", func(t *testing.T) {
		start := time.Now()
		_, err := ExecRunner{Path: writeScript(t, "exec sleep 30\n"), Timeout: 100 * time.Millisecond}.Run(ctx)
		if !errors.Is(err, ErrTimeout) {
			t.Errorf("err = %v, want ErrTimeout", err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("took %v", d)
		}
	})
	t.Run("output is capped", func(t *testing.T) {
		out, err := ExecRunner{Path: writeScript(t, "head -c 5000000 /dev/zero\n")}.Run(ctx)
		if err != nil || len(out) != maxOutput {
			t.Errorf("%d bytes, err %v", len(out), err)
		}
	})
}
