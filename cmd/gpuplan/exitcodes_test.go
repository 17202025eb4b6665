package main

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/store"
)

// Issue 12, item 8: 0 only when the command did what was asked, so
// `gpuplan reserve … && python train.py` never starts a job without GPUs;
// distinct codes for bad input, refused, and an unavailable store, with
// --json too.
func TestExitCodes(t *testing.T) {
	env := map[string]string{"GPUPLAN_DB": filepath.Join(t.TempDir(), "r.db")}
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"reserve", "4 on server-h for 2h", "--as", "alice"}, exitOK},
		{[]string{"reserve", "1 on server-h for 1h", "--as", "bob"}, exitRefused},               // not free
		{[]string{"run", "reserve 1 on server-h for 1h", "--as", "bob", "--json"}, exitRefused}, // not free, as JSON
		{[]string{"release", "all", "--as", "carol"}, exitRefused},                              // nothing to release
		{[]string{"release", "server-h-99abc", "--as", "carol"}, exitRefused},                   // no such reservation
		{[]string{"reserve", "99 on server-h for 1h", "--as", "bob"}, exitBadInput},
		{[]string{"reserve", "1 on server-h for 1h", "--as", "bob", "--bogus"}, exitBadUsage},
		{[]string{"status"}, exitOK},
	} {
		code, out, errOut := runCLI(t, env, tc.args...)
		if code != tc.want {
			t.Errorf("%v: exit %d, want %d\nstdout %s\nstderr %s", tc.args, code, tc.want, out, errOut)
		}
		if strings.Contains(strings.Join(tc.args, " "), "--json") && !json.Valid([]byte(out)) {
			t.Errorf("%v: not JSON: %s", tc.args, out)
		}
	}
	// An extension into someone else's booking is refused, not bad input.
	_, out, _ := runCLI(t, env, "mine", "--as", "alice", "--json")
	var mine []store.Reservation
	if err := json.Unmarshal([]byte(out), &mine); err != nil || len(mine) != 1 {
		t.Fatalf("mine: %v %s", err, out)
	}
	if code, _, errOut := runCLI(t, env, "reserve", "4 on server-h from "+mine[0].End.Truncate(time.Minute).Add(time.Minute).Format("2006-01-02 15:04")+" for 1h", "--as", "bob"); code != exitOK {
		t.Fatalf("booking after alice: exit %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, env, "extend", mine[0].ID, "1h", "--as", "alice"); code != exitRefused {
		t.Errorf("extend into bob's booking: exit %d, want %d (%s)", code, exitRefused, errOut)
	}

	// The store cannot be reached.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	for _, args := range [][]string{{"status"}, {"reserve", "1 on server-h for 1h", "--as", "bob", "--json"}} {
		if code, _, errOut := runCLI(t, map[string]string{"REDIS_URL": "redis://" + closed}, args...); code != exitUnavailable {
			t.Errorf("%v with Redis down: exit %d, want %d (%s)", args, code, exitUnavailable, errOut)
		}
	}
}

// Issue 12, items 1 and 2 at the command line: a damaged or emptied store
// file stops run and doctor with a non-zero exit and a message that names
// the file and the way back, never a panic; `doctor --repair` puts the
// backup back and `doctor --new-store` starts afresh, keeping the file.
func TestDamagedStoreFileCLI(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	env := map[string]string{"GPUPLAN_DB": path}
	if code, _, errOut := runCLI(t, env, "reserve", "1 on server-h for 2h", "--as", "alice"); code != 0 {
		t.Fatalf("reserve: %d %s", code, errOut)
	}
	if err := os.Truncate(path, 16<<10); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, env, "status")
	if code != exitUnavailable || !strings.Contains(errOut, path) || !strings.Contains(errOut, "doctor --repair") || strings.Contains(errOut, "another gpuplan") {
		t.Fatalf("status on a damaged file: exit %d\n%s", code, errOut)
	}
	code, out, _ := runCLI(t, env, "doctor", "--repair")
	if code != 0 || !strings.Contains(out, "restored from its backup") {
		t.Fatalf("doctor --repair: exit %d\n%s", code, out)
	}
	if code, out, errOut := runCLI(t, env, "mine", "--as", "alice"); code != 0 || !strings.Contains(out, "server-h-1") {
		t.Fatalf("after the repair: exit %d\n%s%s", code, out, errOut)
	}

	// Emptied: refused, not a silent new store.
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, env, "status")
	if code != exitUnavailable || !strings.Contains(errOut, "empty (0 bytes)") || !strings.Contains(errOut, "--new-store") {
		t.Fatalf("status on an empty file: exit %d\n%s", code, errOut)
	}
	if st, _ := os.Stat(path); st.Size() != 0 {
		t.Fatal("the empty file was initialised")
	}
	if code, out, _ := runCLI(t, env, "doctor", "--new-store"); code != 0 || !strings.Contains(out, "kept as") {
		t.Fatalf("doctor --new-store: exit %d\n%s", code, out)
	}
	if code, _, errOut := runCLI(t, env, "status"); code != 0 {
		t.Fatalf("after --new-store: exit %d %s", code, errOut)
	}
	// doctor itself reports the damage without a panic.
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, env, "doctor")
	if code == 0 || !strings.Contains(out, "✗ reservation store") || !strings.Contains(out, path) || strings.Contains(out, "another gpuplan") {
		t.Errorf("doctor on a foreign file: exit %d\n%s", code, out)
	}
}

// Issue 12, item 8: go-redis's own log lines ("redis: … pool.go: failed to
// dial") do not reach the terminal, and a command other than plan does not
// echo a 100 KB input back.
func TestCLIQuietOnFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "gpuplan")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "status")
	cmd.Env = append(os.Environ(), "REDIS_URL=redis://"+closed)
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != exitUnavailable {
		t.Errorf("exit %d (%v), want %d", code, err, exitUnavailable)
	}
	if strings.Contains(string(out), "pool.go") || strings.Count(string(out), "\n") != 1 {
		t.Errorf("stderr has more than gpuplan's one line:\n%s", out)
	}

	big := strings.Repeat("x", 100<<10)
	for _, args := range [][]string{{"gpus", big}, {"models", big}, {"help", big}, {"status", big}, {"release", big}, {"extend", big + " 1h"}} {
		_, out, errOut := runCLI(t, map[string]string{"GPUPLAN_DB": filepath.Join(t.TempDir(), "r.db")}, args...)
		if n := len(out) + len(errOut); n > 4000 {
			t.Errorf("%s <100 KB>: %d bytes of output", args[0], n)
		}
	}
}

// Issue 12, item 3 at the terminal: a rerun with the run's --request-id
// (printed when the outcome is unknown) applies at most once.
func TestCLIRequestIDMakesARetrySafe(t *testing.T) {
	env := map[string]string{"GPUPLAN_DB": filepath.Join(t.TempDir(), "r.db")}
	args := []string{"reserve", "1 on server-h for 1h", "--as", "alice", "--request-id", "cli-retry-1", "--json"}
	var ids []string
	for range 2 {
		code, out, errOut := runCLI(t, env, args...)
		if code != exitOK {
			t.Fatalf("exit %d %s", code, errOut)
		}
		var r store.Reservation
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ID)
	}
	if ids[0] != ids[1] {
		t.Errorf("the retry booked again: %v", ids)
	}
	_, out, _ := runCLI(t, env, "mine", "--as", "alice", "--json")
	var mine []store.Reservation
	if err := json.Unmarshal([]byte(out), &mine); err != nil || len(mine) != 1 {
		t.Errorf("mine = %s (%v); want one reservation", out, err)
	}
}

// serve on a damaged store file stops with the file's name and the way
// back, and no panic (issue 12, item 1).
func TestServeRefusesDamagedStoreFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	if code, _, errOut := runCLI(t, map[string]string{"GPUPLAN_DB": path}, "reserve", "1 on server-h for 1h", "--as", "alice"); code != 0 {
		t.Fatalf("reserve: %d %s", code, errOut)
	}
	if err := os.Truncate(path, 16<<10); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GPUPLAN_DB": path, "SLACK_APP_TOKEN": "xapp-1-A1-test", "SLACK_BOT_TOKEN": "xoxb-test",
		"SLACK_API_URL": "http://127.0.0.1:1/", "GPUPLAN_HTTP_ADDR": "off"}
	code, _, errOut := runCLI(t, env, "serve")
	if code == 0 || !strings.Contains(errOut, path) || !strings.Contains(errOut, "doctor --repair") {
		t.Errorf("serve on a damaged file: exit %d\n%s", code, errOut)
	}
}
