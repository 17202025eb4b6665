package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 12: `doctor --new-store` on a store that works and still holds
// reservations is refused, saying what would be left behind and how to go
// on; nothing is moved. With --confirm it is set aside as <file>.old-<t>
// (not ".broken": nothing was wrong with it), and the next start is empty.
func TestNewStoreRefusesAWorkingStoreWithReservations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hh.db")
	env := map[string]string{"GPUPLAN_DB": path}
	for _, r := range []string{"2 on server-h for 4h", "1 on server-a tomorrow 9:00 for 2h"} {
		if code, _, errOut := runCLI(t, env, "reserve", r, "--as", "alice"); code != 0 {
			t.Fatalf("reserve %s: %d %s", r, code, errOut)
		}
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, env, "doctor", "--new-store")
	if code != exitRefused || !strings.Contains(out, "2 reservation(s) that have not ended, on 2 server(s)") ||
		!strings.Contains(out, "Nothing was changed") || !strings.Contains(out, "--new-store --confirm") {
		t.Fatalf("doctor --new-store on a working store: exit %d\n%s", code, out)
	}
	after, err := os.ReadFile(path)
	if err != nil || string(after) != string(before) {
		t.Fatalf("the refused --new-store touched the file (%v)", err)
	}
	if code, out, errOut := runCLI(t, env, "mine", "--as", "alice"); code != 0 || !strings.Contains(out, "server-h-") || !strings.Contains(out, "server-a-") {
		t.Fatalf("after the refusal: exit %d\n%s%s", code, out, errOut)
	}

	if code, _, errOut := runCLI(t, env, "doctor", "--confirm"); code != 2 || !strings.Contains(errOut, "--new-store") {
		t.Errorf("--confirm alone: exit %d %s", code, errOut)
	}
	code, out, _ = runCLI(t, env, "doctor", "--new-store", "--confirm")
	if code != 0 || !strings.Contains(out, "kept as "+path+".old-") {
		t.Fatalf("doctor --new-store --confirm: exit %d\n%s", code, out)
	}
	if code, out, errOut := runCLI(t, env, "mine", "--as", "alice"); code != 0 || strings.Contains(out, "server-h-") {
		t.Fatalf("after --new-store --confirm: exit %d\n%s%s", code, out, errOut)
	}
	// The new store holds nothing yet: --new-store goes without --confirm.
	if code, out, _ := runCLI(t, env, "doctor", "--new-store"); code != 0 || !strings.Contains(out, "kept as") {
		t.Fatalf("doctor --new-store on an empty working store: exit %d\n%s", code, out)
	}
}

// doctor -h and the main usage name --repair and --new-store; the bare
// words are not actions.
func TestDoctorUsageNamesTheStoreActions(t *testing.T) {
	_, _, help := runCLI(t, nil, "doctor", "-h")
	_, usage, _ := runCLI(t, nil, "--help")
	for name, text := range map[string]string{"doctor -h": help, "gpuplan --help": usage} {
		for _, want := range []string{"doctor --repair", "--new-store"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s does not name %s:\n%s", name, want, text)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "r.db")
	code, out, errOut := runCLI(t, map[string]string{"GPUPLAN_DB": path, "SLACK_API_URL": "http://127.0.0.1:1"}, "doctor", "repair")
	if strings.Contains(out, "repair:") || code == 0 {
		t.Errorf("doctor repair (a bare word) acted as --repair: exit %d\n%s%s", code, out, errOut)
	}
}
