package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/agent"
	"github.com/gpuplan/gpuplan/store"
)

// fakeNvidiaSMI writes a shell script that answers the agent's queries
// from agent/testdata recordings, and fails on any other arguments.
func fakeNvidiaSMI(t *testing.T, gpus, apps string) string {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	td, err := filepath.Abs("../../agent/testdata")
	if err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`#!/bin/sh
case "$*" in
%q) cat %q ;;
%q) cat %q ;;
*) echo "fake nvidia-smi: unexpected arguments: $*" >&2; exit 2 ;;
esac
`, strings.Join(agent.GPUQueryArgs, " "), filepath.Join(td, gpus),
		strings.Join(agent.AppsQueryArgs, " "), filepath.Join(td, apps))
	path := filepath.Join(t.TempDir(), "nvidia-smi")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func envMap(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestAgentOnce(t *testing.T) {
	smi := fakeNvidiaSMI(t, "gpus-h100-80gb-hbm3-590.48.01-load.txt", "apps-h100-80gb-hbm3-590.48.01-load.txt")
	// Two of the recording's three processes are ours; the third is in
	// another PID namespace.
	proc := t.TempDir()
	uid := os.Getuid()
	for _, pid := range []string{"11327", "11345"} {
		if err := os.MkdirAll(filepath.Join(proc, pid), 0o755); err != nil {
			t.Fatal(err)
		}
		status := fmt.Sprintf("Name:\tpython\nUid:\t%d\t%d\t%d\t%d\n", uid, uid, uid, uid)
		if err := os.WriteFile(filepath.Join(proc, pid, "status"), []byte(status), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	me := fmt.Sprint(uid)
	if u, err := user.LookupId(me); err == nil {
		me = u.Username
	}

	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := run(context.Background(), []string{"agent", "--once", "--nvidia-smi", smi, "--proc", proc},
		envMap(map[string]string{"GPUPLAN_AGENT_SERVER": "h", "GPUPLAN_AGENT_EVERY": "15s"}), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout.String(), stderr.String())
	}
	var b store.SampleBatch
	if err := json.Unmarshal(stdout.Bytes(), &b); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	host, _ := os.Hostname()
	want := []store.GPUSample{{Index: 0, UUID: "GPU-00000000-0000-0000-0000-000000000000", Util: 100, MemUsedMB: 19818, MemTotalMB: 81559, Users: []string{me}}}
	if b.Server != "h" || b.Every != 15*time.Second || b.Agent != host+" gpuplan-agent" || b.Err != "" || fmt.Sprint(b.GPUs) != fmt.Sprint(want) {
		t.Errorf("batch %+v\nwant GPUs %+v", b, want)
	}
	if b.At.Before(start.Add(-time.Second)) || b.At.After(time.Now().Add(time.Second)) {
		t.Errorf("At %v is not now", b.At)
	}
	for _, key := range []string{`"server": "h"`, `"util": 100`, `"mem_used": 19818`, `"users": [`} {
		if !strings.Contains(stdout.String(), key) {
			t.Errorf("JSON lacks %s:\n%s", key, stdout.String())
		}
	}
}

func TestAgentOnceWithoutNvidiaSMI(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"agent", "--once", "--server", "h", "--nvidia-smi", filepath.Join(t.TempDir(), "nvidia-smi")},
		envMap(nil), &stdout, &stderr)
	var b store.SampleBatch
	if err := json.Unmarshal(stdout.Bytes(), &b); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	if code != 1 || !strings.Contains(b.Err, "nvidia-smi not found") || len(b.GPUs) != 0 {
		t.Errorf("exit %d, batch %+v", code, b)
	}
	if !strings.Contains(stderr.String(), "cannot read the GPUs") {
		t.Errorf("no log line saying why:\n%s", stderr.String())
	}
}

func TestAgentFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--every", "soon"}, nil, "not a duration"},
		{[]string{"--every", "10m"}, nil, "use 1s to 5m0s"},
		{nil, map[string]string{"GPUPLAN_AGENT_EVERY": "100ms"}, "use 1s to 5m0s"},
		{[]string{"--server", "GPU H"}, nil, "set --server"},
		{[]string{"--log-level", "loud"}, nil, "log level"},
		{[]string{"--server", "h", "extra"}, nil, "unexpected argument"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"agent", "--once"}, tc.args...), envMap(tc.env), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v %v: exit %d, stderr %q; want 2 and %q", tc.args, tc.env, code, stderr.String(), tc.want)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"agent", "-h"}, envMap(nil), &stdout, &stderr); code != 0 || !strings.Contains(stderr.String(), "REDIS_URL") {
		t.Errorf("help: exit %d\n%s", code, stderr.String())
	}
}
