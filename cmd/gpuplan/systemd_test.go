package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const systemdDir = "../../deploy/systemd"

// unitFile is a systemd unit: section → key → values (a key may repeat).
type unitFile map[string]map[string][]string

// parseUnit reads systemd's unit syntax: [Section] headers, Key=Value
// lines, '#' and ';' comments, and a trailing backslash continuing a line.
func parseUnit(t *testing.T, path string) unitFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	u := unitFile{}
	section := ""
	var cont string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if cont != "" {
			line = cont + " " + line
			cont = ""
		}
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if strings.HasSuffix(line, `\`) {
			cont = strings.TrimSuffix(line, `\`)
			continue
		}
		if line[0] == '[' && line[len(line)-1] == ']' {
			section = line[1 : len(line)-1]
			if u[section] == nil {
				u[section] = map[string][]string{}
			}
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok || section == "" {
			t.Fatalf("%s:%d: not a Key=Value line in a section: %q", path, n, line)
		}
		key = strings.TrimSpace(key)
		u[section][key] = append(u[section][key], strings.TrimSpace(value))
	}
	return u
}

func (u unitFile) one(t *testing.T, section, key string) string {
	t.Helper()
	v := u[section][key]
	if len(v) != 1 {
		t.Fatalf("[%s] %s: %d values %q, want one", section, key, len(v), v)
	}
	return v[0]
}

func TestSystemdUnit(t *testing.T) {
	u := parseUnit(t, filepath.Join(systemdDir, "gpuplan-agent.service"))

	// ExecStart's command may carry systemd's prefixes (@-:+!).
	argv := strings.Fields(strings.TrimLeft(u.one(t, "Service", "ExecStart"), "@-:+!"))
	if len(argv) < 2 || filepath.Base(argv[0]) != "gpuplan" || argv[1] != "agent" || !filepath.IsAbs(argv[0]) {
		t.Errorf("ExecStart runs %q, want /…/gpuplan agent", argv)
	}
	// The agent never exits on its own; anything that stops it is a crash.
	if got := u.one(t, "Service", "Restart"); got != "always" {
		t.Errorf("Restart=%s, want always", got)
	}
	// No leading '-': a missing env file must stop the start, not run an
	// agent that records into a local store the bot never sees.
	if got := u.one(t, "Service", "EnvironmentFile"); got != "/etc/gpuplan/agent.env" {
		t.Errorf("EnvironmentFile=%s", got)
	}
	if got := u.one(t, "Install", "WantedBy"); got != "multi-user.target" {
		t.Errorf("WantedBy=%s", got)
	}
	if u.one(t, "Service", "DynamicUser") != "yes" {
		t.Error("the agent should run unprivileged (DynamicUser=yes)")
	}
	for key, want := range map[string]string{"NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes"} {
		if got := u.one(t, "Service", key); got != want {
			t.Errorf("%s=%s, want %s", key, got, want)
		}
	}
	// What would hide the processes the agent reports or the GPUs.
	for key, bad := range map[string][]string{
		"ProtectProc":    {"invisible", "noaccess", "ptraceable"},
		"ProcSubset":     {"pid"},
		"PrivateDevices": {"yes", "true", "1"},
		"DevicePolicy":   {"closed", "strict"},
		"ProtectClock":   {"yes", "true", "1"},
		"PrivateUsers":   {"yes", "true", "1"},
	} {
		for _, v := range u["Service"][key] {
			if slices.Contains(bad, v) {
				t.Errorf("%s=%s would keep the agent from other users' processes or from /dev/nvidia*", key, v)
			}
		}
	}
}

// exampleVars lists the variables agent.env.example sets or shows
// commented out.
func exampleVars(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(systemdDir, "agent.env.example"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^#?\s*([A-Z][A-Z0-9_]*)=`)
	var vars []string
	for _, m := range re.FindAllStringSubmatch(string(data), -1) {
		vars = append(vars, m[1])
	}
	return vars
}

// agentReads runs `gpuplan agent` until it tries the store (an address
// that refuses, under a context already cancelled) and returns every
// variable it looked up.
func agentReads(t *testing.T, env map[string]string) []string {
	t.Helper()
	var mu sync.Mutex
	read := map[string]bool{}
	getenv := func(k string) string {
		mu.Lock()
		read[k] = true
		mu.Unlock()
		return env[k]
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	var stdout, stderr bytes.Buffer
	if code := run(ctx, []string{"agent", "--server", "h", "--nvidia-smi", filepath.Join(t.TempDir(), "nvidia-smi")}, getenv, &stdout, &stderr); code != 2 {
		t.Fatalf("exit %d, want 2 (the store cannot be opened)\n%s", code, stderr.String())
	}
	var keys []string
	for k := range read {
		keys = append(keys, k)
	}
	return keys
}

func TestAgentEnvExampleMatchesWhatTheAgentReads(t *testing.T) {
	reads := agentReads(t, map[string]string{"REDIS_URL": "redis://127.0.0.1:1"})
	reads = append(reads, agentReads(t, map[string]string{"REDIS_SENTINEL_ADDRS": "127.0.0.1:1"})...)
	vars := exampleVars(t)
	if len(vars) < 3 {
		t.Fatalf("found only %v in agent.env.example", vars)
	}
	for _, v := range vars {
		if !slices.Contains(reads, v) {
			t.Errorf("agent.env.example sets %s, which gpuplan agent never reads (it reads %v)", v, reads)
		}
	}
	for _, v := range []string{"REDIS_URL", "GPUPLAN_AGENT_SERVER"} {
		if !slices.Contains(vars, v) {
			t.Errorf("agent.env.example does not mention %s", v)
		}
	}
}
