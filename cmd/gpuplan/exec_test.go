package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/store"
	"github.com/gpuplan/gpuplan/store/storetest"
)

func TestParseExec(t *testing.T) {
	env := func(k string) string { return map[string]string{"USER": "alice", "GPUPLAN_EXEC_LEASE": "3s"}[k] }
	c, err := parseExec([]string{"--on", "server-a", "--gpus", "2", "--for", "4h", "--wait", "--", "python", "train.py", "--lr", "3e-4"}, env, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if c.as != "alice" || c.on != "server-a" || c.count != 2 || c.forDur != 4*time.Hour || !c.wait.on || c.wait.d != defaultExecWait ||
		c.lease != 3*time.Second || !slices.Equal(c.command, []string{"python", "train.py", "--lr", "3e-4"}) {
		t.Errorf("parsed %+v", c)
	}
	for _, args := range [][]string{
		{"--ids", "0,2", "--wait=30m", "--", "sh"},
		{"--ids", "0,2", "--wait", "30m", "--", "sh"},
		{"--wait", "30m", "--ids=0,2", "--", "sh"},
	} {
		c, err := parseExec(args, env, &bytes.Buffer{})
		if err != nil || !slices.Equal(c.ids, []int{0, 2}) || c.wait.d != 30*time.Minute {
			t.Errorf("%q: %+v, %v", args, c, err)
		}
	}
	for _, args := range [][]string{
		{"--gpus", "2", "python", "train.py"},     // no --
		{"--gpus", "2", "--"},                     // no command
		{"--gpus", "2", "--ids", "0", "--", "sh"}, // both
		{"--", "sh"},                                     // how many?
		{"--gpus", "2", "train.py", "--", "sh"},          // words before --
		{"--gpus", "2", "--for", "soon", "--", "sh"},     // not a duration
		{"--ids", "0,0", "--", "sh"},                     // twice
		{"--gpus", "2", "--wait=-1m", "--", "sh"},        // negative wait
		{"--gpus", "2", "--bogus", "--", "sh"},           // unknown flag
		{"--gpus", "-1", "--", "sh"},                     // negative count
		{"--ids", "3-1", "--", "sh"},                     // backwards range
		{"--gpus", "1", "--for", "2d", "--", "sh", "-c"}, // fine: 2d reads as a duration
	} {
		_, err := parseExec(args, env, &bytes.Buffer{})
		if wantOK := slices.Contains(args, "2d"); (err == nil) != wantOK {
			t.Errorf("%q: err = %v", args, err)
		}
	}
	// The line a plan card offers parses.
	line := strings.Fields(commands.ExecLine("server-a", 2, 26*time.Hour+30*time.Minute, 3*time.Hour, "CUDA_VISIBLE_DEVICES=0,1 torchrun train.py"))
	if c, err := parseExec(line[2:], env, &bytes.Buffer{}); err != nil || c.forDur != 26*time.Hour+30*time.Minute || c.wait.d != 3*time.Hour+30*time.Minute || c.count != 2 {
		t.Errorf("%q: %+v, %v", line, c, err)
	}
	if _, err := parseExec([]string{"--gpus", "1", "--", "sh"}, func(k string) string {
		return map[string]string{"GPUPLAN_EXEC_LEASE": "10ms"}[k]
	}, &bytes.Buffer{}); err == nil {
		t.Error("a 10ms lease was accepted")
	}
}

func TestHostServer(t *testing.T) {
	inv := &inventory.Inventory{Servers: []inventory.Server{
		{Name: "server-h", Host: "gpu-h.lab.internal"},
		{Name: "server-a", Host: "gpu-a.lab.internal"},
		{Name: "box", Host: ""},
	}}
	for host, want := range map[string]string{
		"gpu-a.lab.internal": "server-a",
		"GPU-H":              "server-h",
		"gpu-a.other.domain": "server-a", // the first label decides when the whole name does not match
		"box":                "box",
		"laptop":             "",
		"":                   "",
	} {
		got, ok := hostServer(inv, host)
		if got.Name != want || ok != (want != "") {
			t.Errorf("hostServer(%q) = %q, %v; want %q", host, got.Name, ok, want)
		}
	}
}

func TestPickExecGPUs(t *testing.T) {
	t0 := time.Date(2030, 1, 7, 9, 0, 0, 0, time.UTC)
	last := map[int]time.Time{0: t0.Add(3 * time.Hour), 1: t0.Add(time.Hour), 3: t0.Add(2 * time.Hour)}
	// Never used (2) first, then the least recently used (1, then 3).
	if got := pickExecGPUs([]int{0, 1, 2, 3}, 3, last, nil); !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("LRU pick = %v, want [1 2 3]", got)
	}
	// A GPU the agent sees busy goes last, however long ago it was booked.
	if got := pickExecGPUs([]int{0, 1, 2, 3}, 2, last, map[int]bool{2: true}); !slices.Equal(got, []int{1, 3}) {
		t.Errorf("idle-first pick = %v, want [1 3]", got)
	}
	if got := pickExecGPUs([]int{1, 3}, 2, nil, nil); !slices.Equal(got, []int{1, 3}) {
		t.Errorf("pick of all free = %v", got)
	}
}

func TestVisibleDevices(t *testing.T) {
	if got := visibleDevices(inventory.Server{GPUIDs: []int{0, 1, 2, 3}}, []int{1, 3}); got != "1,3" {
		t.Errorf("ids 0-3: %q", got)
	}
	// A server given as devices 4-7 of a bigger box: the store's 1 and 3
	// are devices 5 and 7.
	if got := visibleDevices(inventory.Server{GPUIDs: []int{4, 5, 6, 7}}, []int{1, 3}); got != "5,7" {
		t.Errorf("ids 4-7: %q", got)
	}
}

func TestFreeFor(t *testing.T) {
	now := time.Date(2030, 1, 7, 9, 0, 0, 0, time.UTC)
	rv := func(gpus []int, from, to time.Duration) store.Reservation {
		return store.Reservation{Server: "s", GPUs: gpus, Start: now.Add(from), End: now.Add(to)}
	}
	list := []store.Reservation{rv([]int{0}, -time.Hour, time.Hour), rv([]int{1, 2}, 2*time.Hour, 3*time.Hour), rv([]int{3}, 5*time.Hour, 6*time.Hour)}
	for _, c := range []struct {
		need int
		ids  []int
		want time.Duration
	}{
		{need: 3, want: 2 * time.Hour}, // 1, 2, 3 until the booking of 1 and 2
		{need: 1, want: 5 * time.Hour}, // GPU 3, until its booking: a job keeps its GPUs
		{need: 4, want: 0},             // GPU 0 is held now
		{ids: []int{3}, want: 5 * time.Hour},
		{ids: []int{0, 3}, want: 0},
	} {
		if got := freeFor(list, 4, c.need, c.ids, now, 8*time.Hour); got != c.want {
			t.Errorf("need %d ids %v: free for %v, want %v", c.need, c.ids, got, c.want)
		}
	}
}

func TestShellJoin(t *testing.T) {
	got := shellJoin([]string{"sh", "-c", "echo $X; it's", "a=b", ""})
	if want := `sh -c 'echo $X; it'\''s' a=b ''`; got != want {
		t.Errorf("shellJoin = %s, want %s", got, want)
	}
}

func TestExitStatus(t *testing.T) {
	for _, c := range []struct {
		script string
		code   int
		says   string
	}{
		{"exit 3", 3, "exit status 3"},
		{"kill -TERM $$", 128 + 15, "signal 15"},
	} {
		cmd := exec.Command("sh", "-c", c.script)
		err := cmd.Run()
		says, code := exitStatus(cmd.ProcessState, err)
		if code != c.code || !strings.Contains(says, c.says) {
			t.Errorf("%s: %q, %d; want %q, %d", c.script, says, code, c.says, c.code)
		}
	}
}

// The embedded store (one host, no Redis): the command runs on the
// booked ids, its status passes through and the GPUs are free after. The
// file is not held while the command runs, so status and a second exec
// on the host work meanwhile; the owner is the Slack id the servers file
// maps the Unix user to, so the agent's readings match the booking.
func TestExecEmbedded(t *testing.T) {
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.yaml")
	if err := os.WriteFile(servers, []byte("servers:\n  - name: box\n    gpu: a100\n    gpus: 4\nusers:\n  alice: U0001ALICE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GPUPLAN_DB": filepath.Join(dir, "r.db"), "HOME": dir, "GPUPLAN_EXEC_LEASE": "2s",
		"GPUPLAN_SERVERS": servers, "USER": "alice"}
	getenv := func(k string) string { return env[k] }
	ctx := context.Background()
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"exec", "--on", "box", "--ids", "1,3", "--for", "1h", "--",
			"sh", "-c", `echo "$CUDA_VISIBLE_DEVICES $NVIDIA_VISIBLE_DEVICES"; touch "$0/started"; while [ ! -e "$0/go" ]; do sleep 0.05; done; exit 7`, dir},
			getenv, &stdout, &stderr)
	}()
	eventually(t, "the command to start", func() bool { return exists(dir + "/started") })
	var status lockedBuffer
	if code := run(ctx, []string{"status", "box"}, getenv, &status, &status); code != 0 || !strings.Contains(status.String(), "U0001ALICE") {
		t.Errorf("status while the job runs: exit %d\n%s", code, status.String())
	}
	var second lockedBuffer
	if code := run(ctx, []string{"exec", "--on", "box", "--gpus", "3", "--", "touch", dir + "/ran"}, getenv, &second, &second); code != exitNotFree || exists(dir+"/ran") {
		t.Errorf("a second exec for more than is free: exit %d (want %d)\n%s", code, exitNotFree, second.String())
	}
	os.WriteFile(dir+"/go", nil, 0o644)
	var code int
	select {
	case code = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("exec did not end")
	}
	if code != 7 || strings.TrimSpace(stdout.String()) != "1,3 1,3" {
		t.Fatalf("exit %d, stdout %q; want 7 and the ids twice\n%s", code, stdout.String(), stderr.String())
	}
	for _, want := range []string{"Running", "exit status 7", "released"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	st, err := store.OpenEmbedded(env["GPUPLAN_DB"], nil)
	if err != nil {
		t.Fatal(err)
	}
	if l, _ := st.List(ctx, "box"); len(l) != 0 {
		t.Errorf("still held after the job: %+v", l)
	}
	st.Close()
	// A command that does not exist: 127, nothing held.
	stderr = lockedBuffer{}
	if code := run(ctx, []string{"exec", "--on", "box", "--gpus", "1", "--", "/no/such/command"}, getenv, &stdout, &stderr); code != exitNotFound {
		t.Errorf("a missing command exits %d, want %d: %s", code, exitNotFound, stderr.String())
	}
}

// --- end to end: the built binary against a real redis-server ---

// execRun is one gpuplan exec process.
type execRun struct {
	cmd            *exec.Cmd
	stdout, stderr lockedBuffer
	done           chan struct{}
	code           int
}

func startExec(t *testing.T, bin string, env []string, args ...string) *execRun {
	t.Helper()
	r := &execRun{done: make(chan struct{})}
	r.cmd = exec.Command(bin, append([]string{"exec"}, args...)...)
	r.cmd.Env = append(os.Environ(), env...)
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	// Its own process group, so the cleanup ends the command too (after a
	// kill -9 the command outlives gpuplan), and a command left holding
	// the output pipes cannot hold Wait.
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	r.cmd.WaitDelay = time.Second
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		err := r.cmd.Wait()
		var ee *exec.ExitError
		switch {
		case err == nil:
		case errors.As(err, &ee):
			r.code = ee.ExitCode()
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				r.code = 128 + int(ws.Signal())
			}
		default:
			r.code = -1
		}
		close(r.done)
	}()
	t.Cleanup(func() {
		syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
		<-r.done
	})
	return r
}

// exit waits for the process and returns its exit code.
func (r *execRun) exit(t *testing.T) int {
	t.Helper()
	select {
	case <-r.done:
		return r.code
	case <-time.After(30 * time.Second):
		t.Fatalf("gpuplan exec did not exit\nstderr:\n%s", r.stderr.String())
		return 0
	}
}

func (r *execRun) exited() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// eventually polls cond for up to 15 s (generous: the leases are 2 s).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// A command that says its GPU ids, marks that it started, and exits with
// status 3 once the test creates <dir>/go.
const heldJob = `echo "$CUDA_VISIBLE_DEVICES|$NVIDIA_VISIBLE_DEVICES"; touch "$0/started"; while [ ! -e "$0/go" ]; do sleep 0.05; done; exit 3`

// The end-to-end cases with fake commands, on one redis-server:
// the ids are visible, status shows them held while it runs and the lease
// is renewed, the exit status passes through, the GPUs are free after; a
// second exec asking for more than is free does not run; two racing for
// the same GPUs never share one; kill -9 lets the lease lapse; --wait
// starts when the GPUs are free; signals reach the command; --for stops it.
func TestExecEndToEnd(t *testing.T) {
	rdb := startOwnRedis(t)
	bin := buildGpuplan(t)
	const lease = 2 * time.Second
	env := []string{"REDIS_URL=" + rdb.url, "GPUPLAN_EXEC_LEASE=" + lease.String(), "GPUPLAN_SERVERS=", "USER=tester"}
	ctx := context.Background()
	st, err := store.OpenRedis(ctx, store.RedisOptions{URL: rdb.url})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	held := func(t *testing.T) []store.Reservation {
		t.Helper()
		l, err := st.List(ctx, "server-a")
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	free := func(t *testing.T) {
		t.Helper()
		eventually(t, "server-a to be free", func() bool { return len(held(t)) == 0 })
	}

	t.Run("runs on the booked GPUs and passes the exit status through", func(t *testing.T) {
		dir := t.TempDir()
		r := startExec(t, bin, env, "--as", "alice", "--on", "server-a", "--gpus", "2", "--for", "1h", "--", "sh", "-c", heldJob, dir)
		eventually(t, "the command to start", func() bool { return exists(dir + "/started") })
		l := held(t)
		if len(l) != 1 || l[0].Owner != "alice" || len(l[0].GPUs) != 2 {
			t.Fatalf("while it runs the store holds %+v; want alice's 2 GPUs", l)
		}
		if cmd, ok := l[0].ExecCommand(); !ok || !strings.Contains(cmd, "$CUDA_VISIBLE_DEVICES") {
			t.Errorf("the booking is not tagged as an exec job: note %q", l[0].Note)
		}
		ids := l[0].GPUList()
		if got := strings.TrimSpace(r.stdout.String()); got != ids+"|"+ids {
			t.Errorf("the command saw %q; booked %s", got, ids)
		}
		status := exec.Command(bin, "status", "server-a")
		status.Env = append(os.Environ(), env...)
		out, err := status.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "2 free, 2 held") || strings.Count(string(out), "alice") != 2 {
			t.Errorf("status while it runs (%v):\n%s", err, out)
		}
		// The heartbeat renews the lease past its first end.
		first := l[0].End
		eventually(t, "a renewal", func() bool {
			l := held(t)
			return len(l) == 1 && l[0].End.After(first.Add(lease/4))
		})
		if err := os.WriteFile(dir+"/go", nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if code := r.exit(t); code != 3 {
			t.Errorf("exit %d, want the command's 3\n%s", code, r.stderr.String())
		}
		if l := held(t); len(l) != 0 {
			t.Errorf("still held after the command exited: %+v", l)
		}
		if got, err := st.Get(ctx, l[0].ID); err != nil || got.ReleasedBy != "alice" {
			t.Errorf("the booking was not released by alice: %+v, %v", got, err)
		}
		if s := r.stderr.String(); !strings.Contains(s, "exit status 3") || !strings.Contains(s, "Running") {
			t.Errorf("the announcements do not say what ran and how it ended:\n%s", s)
		}
	})

	t.Run("a second exec asking for more than is free does not run", func(t *testing.T) {
		dir := t.TempDir()
		first := startExec(t, bin, env, "--as", "alice", "--on", "server-a", "--gpus", "3", "--", "sh", "-c", heldJob, dir)
		eventually(t, "the first command to start", func() bool { return exists(dir + "/started") })
		second := startExec(t, bin, env, "--as", "bob", "--on", "server-a", "--gpus", "2", "--", "touch", dir+"/ran")
		if code := second.exit(t); code != exitNotFree {
			t.Errorf("the second exec exits %d, want %d\n%s", code, exitNotFree, second.stderr.String())
		}
		if exists(dir + "/ran") {
			t.Error("the second exec ran its command")
		}
		if s := second.stderr.String(); !strings.Contains(s, "alice") || !strings.Contains(s, "Earliest slot") || !strings.Contains(s, "--wait") {
			t.Errorf("the refusal does not say who holds the GPUs and when they are free:\n%s", s)
		}
		os.WriteFile(dir+"/go", nil, 0o644)
		first.exit(t)
		free(t)
	})

	t.Run("two execs racing for the same GPUs", func(t *testing.T) {
		for round := range 3 {
			dir := t.TempDir()
			var runs []*execRun
			for i := range 2 {
				d := filepath.Join(dir, strconv.Itoa(i))
				os.Mkdir(d, 0o755)
				runs = append(runs, startExec(t, bin, env, "--as", "user"+strconv.Itoa(i), "--on", "server-a", "--gpus", "3", "--", "sh", "-c", heldJob, d))
			}
			eventually(t, "one to start and one to give up", func() bool {
				started := 0
				for i := range 2 {
					if exists(filepath.Join(dir, strconv.Itoa(i), "started")) {
						started++
					}
				}
				return started >= 1 && (runs[0].exited() || runs[1].exited())
			})
			loser := 0
			if runs[1].exited() {
				loser = 1
			}
			winner := 1 - loser
			if c := runs[loser].exit(t); c != exitNotFree || exists(filepath.Join(dir, strconv.Itoa(loser), "started")) {
				t.Errorf("round %d: the loser exited %d (want %d) or ran its command\n%s", round, c, exitNotFree, runs[loser].stderr.String())
			}
			if l := held(t); len(l) != 1 || len(l[0].GPUs) != 3 {
				t.Errorf("round %d: held %+v; want one booking of 3", round, l)
			}
			os.WriteFile(filepath.Join(dir, strconv.Itoa(winner), "go"), nil, 0o644)
			if c := runs[winner].exit(t); c != 3 {
				t.Errorf("round %d: the winner exited %d", round, c)
			}
			free(t)
		}
		// Two that fit side by side both run, on different GPUs.
		dir := t.TempDir()
		var runs []*execRun
		for i := range 2 {
			d := filepath.Join(dir, strconv.Itoa(i))
			os.Mkdir(d, 0o755)
			runs = append(runs, startExec(t, bin, env, "--as", "user"+strconv.Itoa(i), "--on", "server-a", "--gpus", "2", "--", "sh", "-c", heldJob, d))
		}
		eventually(t, "both to start", func() bool {
			return exists(filepath.Join(dir, "0", "started")) && exists(filepath.Join(dir, "1", "started"))
		})
		a, _, _ := strings.Cut(strings.TrimSpace(runs[0].stdout.String()), "|")
		b, _, _ := strings.Cut(strings.TrimSpace(runs[1].stdout.String()), "|")
		for _, g := range strings.Split(a, ",") {
			if slices.Contains(strings.Split(b, ","), g) {
				t.Errorf("both commands see GPU %s (%s and %s)", g, a, b)
			}
		}
		for i := range 2 {
			os.WriteFile(filepath.Join(dir, strconv.Itoa(i), "go"), nil, 0o644)
			runs[i].exit(t)
		}
		free(t)
	})

	t.Run("kill -9 of gpuplan lets the lease lapse", func(t *testing.T) {
		dir := t.TempDir()
		r := startExec(t, bin, env, "--as", "alice", "--on", "server-a", "--gpus", "2", "--for", "8h", "--",
			"sh", "-c", `echo $$ > "$0/pid"; touch "$0/started"; exec sleep 60`, dir)
		eventually(t, "the command to start", func() bool { return exists(dir + "/started") })
		l := held(t)
		if len(l) != 1 {
			t.Fatalf("held %+v", l)
		}
		time.Sleep(lease) // a renewal or two
		killed, err := st.Now(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		r.exit(t)
		if b, err := os.ReadFile(dir + "/pid"); err == nil { // the orphaned command: not the test's to leave behind
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		free(t)
		got, err := st.Get(ctx, l[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		// It ended by time, a lease after the last renewal at most, never
		// at the 8h the job asked for.
		if got.ReleasedBy != "" || got.End.After(killed.Add(lease+time.Second)) {
			t.Errorf("after kill -9 at %v the booking ends %v (released by %q); want within a lease", killed, got.End, got.ReleasedBy)
		}
	})

	t.Run("--wait starts the command when the GPUs are free", func(t *testing.T) {
		dir := t.TempDir()
		first := startExec(t, bin, env, "--as", "alice", "--on", "server-a", "--gpus", "4", "--", "sh", "-c", heldJob, dir)
		eventually(t, "the first command to start", func() bool { return exists(dir + "/started") })
		second := startExec(t, bin, env, "--as", "bob", "--on", "server-a", "--gpus", "2", "--wait=30s", "--",
			"sh", "-c", `echo "$CUDA_VISIBLE_DEVICES" > "$0/second"`, dir)
		eventually(t, "bob in the waiting list", func() bool {
			w, _ := st.Waiters(ctx, "server-a")
			return len(w) == 1 && w[0].Owner == "bob"
		})
		if exists(dir+"/second") || second.exited() {
			t.Fatalf("the waiting command ran (or gave up) while the GPUs were held\n%s", second.stderr.String())
		}
		os.WriteFile(dir+"/go", nil, 0o644)
		first.exit(t)
		if code := second.exit(t); code != 0 || !exists(dir+"/second") {
			t.Errorf("the waiting exec exited %d without running its command\n%s", code, second.stderr.String())
		}
		if w, _ := st.Waiters(ctx, "server-a"); len(w) != 0 {
			t.Errorf("still in the waiting list: %+v", w)
		}
		free(t)
		// --wait gives up after its timeout and does not run the command.
		first = startExec(t, bin, env, "--as", "alice", "--on", "server-a", "--gpus", "4", "--", "sh", "-c", heldJob, dir+"/x")
		os.Mkdir(dir+"/x", 0o755)
		eventually(t, "the first command to start", func() bool { return exists(dir + "/x/started") })
		late := startExec(t, bin, env, "--as", "bob", "--on", "server-a", "--gpus", "1", "--wait=1s", "--", "touch", dir+"/late")
		if code := late.exit(t); code != exitNotFree || exists(dir+"/late") {
			t.Errorf("a timed-out wait exited %d (want %d) or ran\n%s", code, exitNotFree, late.stderr.String())
		}
		os.WriteFile(dir+"/x/go", nil, 0o644)
		first.exit(t)
		free(t)
	})

	t.Run("SIGTERM and SIGINT go to the command", func(t *testing.T) {
		for sig, want := range map[syscall.Signal]int{syscall.SIGTERM: 42, syscall.SIGINT: 43} {
			dir := t.TempDir()
			r := startExec(t, bin, env, "--as", "alice", "--on", "server-a", "--gpus", "1", "--",
				"sh", "-c", `trap 'exit 42' TERM; trap 'exit 43' INT; touch "$0/started"; while :; do sleep 0.05; done`, dir)
			eventually(t, "the command to start", func() bool { return exists(dir + "/started") })
			r.cmd.Process.Signal(sig)
			if code := r.exit(t); code != want {
				t.Errorf("%v: exit %d, want the command's %d (its trap)\n%s", sig, code, want, r.stderr.String())
			}
			if l := held(t); len(l) != 0 {
				t.Errorf("%v: still held: %+v", sig, l)
			}
		}
	})

	t.Run("someone's later booking on its GPUs bounds the job", func(t *testing.T) {
		dir := t.TempDir()
		r := startExec(t, bin, env, "--as", "alice", "--on", "server-a", "--ids", "0,1", "--for", "1h", "--",
			"sh", "-c", `touch "$0/started"; exec sleep 60`, dir)
		eventually(t, "the command to start", func() bool { return exists(dir + "/started") })
		now, _ := st.Now(ctx)
		// After the lease's present end, GPU 1 is free to book.
		if _, err := st.Reserve(ctx, store.ReserveRequest{RequestID: "bob-later", Server: "server-a", ServerGPUs: 4, GPUs: []int{1},
			Owner: "bob", Start: now.Add(lease + lease/4), Duration: time.Hour}); err != nil {
			t.Fatal(err)
		}
		if code := r.exit(t); code != exitBoundEnd {
			t.Errorf("exit %d, want %d\n%s", code, exitBoundEnd, r.stderr.String())
		}
		if !strings.Contains(r.stderr.String(), "booked by someone else") {
			t.Errorf("stderr does not say whose booking stopped it:\n%s", r.stderr.String())
		}
		if err := storeCheckNoOverlap(held(t)); err != nil {
			t.Error(err)
		}
		l := held(t)
		if len(l) != 1 || l[0].Owner != "bob" {
			t.Errorf("after the job: %+v; want only bob's booking", l)
		}
		st.Release(ctx, store.ReleaseRequest{RequestID: "bob-later-rel", ID: l[0].ID, Actor: "bob"})
		free(t)
	})

	t.Run("a booking released by an admin: the command goes on", func(t *testing.T) {
		dir := t.TempDir()
		r := startExec(t, bin, env, "--as", "alice", "--on", "server-a", "--gpus", "1", "--", "sh", "-c", heldJob, dir)
		eventually(t, "the command to start", func() bool { return exists(dir + "/started") })
		l := held(t)
		if _, err := st.Release(ctx, store.ReleaseRequest{RequestID: "admin-rel", ID: l[0].ID, Actor: "UADMIN", Force: true}); err != nil {
			t.Fatal(err)
		}
		eventually(t, "exec to notice", func() bool { return strings.Contains(r.stderr.String(), "goes on without a booking") })
		os.WriteFile(dir+"/go", nil, 0o644)
		if code := r.exit(t); code != 3 || !strings.Contains(r.stderr.String(), "already ended") {
			t.Errorf("exit %d (want the command's 3), and the end should say the booking had ended:\n%s", code, r.stderr.String())
		}
	})

	t.Run("--for bounds the job", func(t *testing.T) {
		dir := t.TempDir()
		r := startExec(t, bin, env, "--as", "alice", "--on", "server-a", "--gpus", "1", "--for", "3s", "--",
			"sh", "-c", `touch "$0/started"; exec sleep 60`, dir)
		eventually(t, "the command to start", func() bool { return exists(dir + "/started") })
		if code := r.exit(t); code != exitBoundEnd {
			t.Errorf("exit %d, want %d\n%s", code, exitBoundEnd, r.stderr.String())
		}
		if !strings.Contains(r.stderr.String(), "reached its end") {
			t.Errorf("stderr does not say why the command was stopped:\n%s", r.stderr.String())
		}
		free(t)
	})
}

// storeCheckNoOverlap fails when two reservations share a GPU at a moment.
func storeCheckNoOverlap(rs []store.Reservation) error {
	for i, a := range rs {
		for _, b := range rs[i+1:] {
			if a.Overlaps(b) {
				return fmt.Errorf("%s and %s overlap", a.ID, b.ID)
			}
		}
	}
	return nil
}

// book prefers what the store and the agent say: never booked and idle
// first, then the least recently used; a GPU busy without a booking last.
func TestExecBookPrefersIdleLeastRecentlyUsed(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	now := time.Now()
	clock := storetest.NewClock(now.Add(-time.Hour))
	st, err := store.OpenEmbedded(path, clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	// GPU 0 was booked until 50 minutes ago, GPU 2 until 20 minutes ago.
	for i, g := range []int{0, 2} {
		rv, err := st.Reserve(ctx, store.ReserveRequest{RequestID: "old" + strconv.Itoa(i), Server: "box", ServerGPUs: 4, GPUs: []int{g},
			Owner: "bob", Duration: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		clock.Advance(10*time.Minute + time.Duration(i)*20*time.Minute)
		if _, err := st.Release(ctx, store.ReleaseRequest{RequestID: "rel" + strconv.Itoa(i), ID: rv.ID, Actor: "bob"}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	// GPU 1 runs someone's process without a booking right now.
	if st, err = store.OpenEmbedded(path, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.RecordSamples(ctx, store.SampleBatch{Server: "box", At: now, Every: 30 * time.Second, GPUs: []store.GPUSample{
		{Index: 0, MemTotalMB: 80000}, {Index: 1, Util: 97, MemUsedMB: 30000, MemTotalMB: 80000, Users: []string{"carol"}},
		{Index: 2, MemTotalMB: 80000}, {Index: 3, MemTotalMB: 80000},
	}}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	j := &execJob{cfg: &execConfig{as: "alice", count: 2, forDur: time.Hour, lease: time.Minute, command: []string{"true"}},
		srv: inventory.Server{Name: "box", GPUIDs: []int{0, 1, 2, 3}}, need: 2, st: embeddedSteps{path: path}}
	rv, ce, err := j.book(ctx)
	if err != nil || ce != nil {
		t.Fatalf("book: %v, %v", ce, err)
	}
	// 3 was never used, 0 longer ago than 2; 1 is busy.
	if !slices.Equal(rv.GPUs, []int{0, 3}) {
		t.Errorf("booked %v, want [0 3]: never used first, then the least recently used, never the busy one", rv.GPUs)
	}
	j.need, j.cfg.count = 3, 3
	if _, err := j.st.Release(ctx, store.ReleaseRequest{RequestID: "r", ID: rv.ID, Actor: "alice"}); err != nil {
		t.Fatal(err)
	}
	if rv, _, err = j.book(ctx); err != nil || !slices.Equal(rv.GPUs, []int{0, 2, 3}) {
		t.Errorf("3 GPUs: booked %v (%v), want [0 2 3]: the busy GPU only when nothing else is left", rv.GPUs, err)
	}
}

// What exec can tell before booking, it tells without booking: a command
// that is not there (127) or cannot be run (126), and a server it does
// not know, naming the ones it does (2).
func TestExecRefusesBeforeBooking(t *testing.T) {
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.yaml")
	if err := os.WriteFile(servers, []byte("servers:\n  - name: box\n    gpu: a100\n    gpus: 4\n  - name: gpu-big\n    gpu: h100\n    gpus: 8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	notExec := filepath.Join(dir, "train.sh")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\necho hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GPUPLAN_DB": filepath.Join(dir, "r.db"), "HOME": dir, "GPUPLAN_SERVERS": servers, "USER": "alice"}
	getenv := func(k string) string { return env[k] }
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--on", "box", "--gpus", "1", "--", "pyhton", "train.py"}, exitNotFound, "pyhton: command not found; nothing was booked"},
		{[]string{"--on", "box", "--gpus", "1", "--", "/opt/venv/bin/python", "train.py"}, exitNotFound, "/opt/venv/bin/python: command not found"},
		{[]string{"--on", "box", "--gpus", "1", "--", notExec}, exitNoExec, "cannot be run (permission denied)"},
		{[]string{"--on", "box", "--gpus", "1", "--", dir}, exitNoExec, "cannot be run"},
		{[]string{"--on", "server-z", "--gpus", "1", "--", "true"}, exitBadUsage, "(the servers: box, gpu-big)"},
	} {
		var out lockedBuffer
		code := run(context.Background(), append([]string{"exec"}, c.args...), getenv, &out, &out)
		if code != c.code || !strings.Contains(out.String(), c.want) {
			t.Errorf("exec %s: exit %d, want %d and %q:\n%s", strings.Join(c.args, " "), code, c.code, c.want, out.String())
		}
		if strings.Contains(out.String(), "GPUs booked") {
			t.Errorf("exec %s announced a booking:\n%s", strings.Join(c.args, " "), out.String())
		}
	}
	if exists(env["GPUPLAN_DB"]) {
		st, err := store.OpenEmbedded(env["GPUPLAN_DB"], nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if h, _ := st.History(context.Background(), "box", time.Now().Add(-time.Hour), time.Now().Add(time.Hour)); len(h) != 0 {
			t.Errorf("booked: %+v", h)
		}
	}
}
