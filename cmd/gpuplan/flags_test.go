package main

import (
	"encoding/json"
	"flag"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// parseFlags takes a subcommand's flags anywhere among its words.
func TestParseFlags(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		json     bool
		as, ch   string
		prices   int
		text     []string
		wantFail bool
	}{
		{args: []string{"--json", "bert on h100"}, json: true, text: []string{"bert on h100"}},
		{args: []string{"bert on h100", "--json"}, json: true, text: []string{"bert on h100"}},
		{args: []string{"status", "--channel", "C123"}, ch: "C123", text: []string{"status"}},
		{args: []string{"--as=alice", "reserve", "2", "--channel=C9", "on", "h"}, as: "alice", ch: "C9", text: []string{"reserve", "2", "on", "h"}},
		{args: []string{"-as", "bob", "-json", "mine"}, as: "bob", json: true, text: []string{"mine"}},
		{args: []string{"--price", "h100=2", "x", "--price", "a100=1"}, prices: 2, text: []string{"x"}},
		// a flag's value is taken whatever it looks like
		{args: []string{"--as", "-odd-", "status"}, as: "-odd-", text: []string{"status"}},
		// words that start with "-" but not with a letter are request text
		{args: []string{"extend", "r1", "-1h", "-"}, text: []string{"extend", "r1", "-1h", "-"}},
		// "--" ends the flags
		{args: []string{"--json", "--", "--as", "x"}, json: true, text: []string{"--as", "x"}},
		{args: []string{"status", "--chanel", "C1"}, wantFail: true},
		{args: []string{"status", "--channel"}, wantFail: true},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		asJSON := fs.Bool("json", false, "")
		as := fs.String("as", "", "")
		ch := fs.String("channel", "", "")
		var prices priceFlags
		fs.Var(&prices, "price", "")
		err := parseFlags(fs, tc.args)
		if tc.wantFail {
			if err == nil {
				t.Errorf("%q: accepted", tc.args)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if *asJSON != tc.json || *as != tc.as || *ch != tc.ch || len(prices) != tc.prices || !slices.Equal(fs.Args(), tc.text) {
			t.Errorf("%q: json %v as %q channel %q prices %d text %q; want %v %q %q %d %q",
				tc.args, *asJSON, *as, *ch, len(prices), fs.Args(), tc.json, tc.as, tc.ch, tc.prices, tc.text)
		}
	}
}

// Every flag of `gpuplan run` works after the command's words too, and in
// the shortcut forms (`gpuplan status …`).
func TestStoreCommandFlagsAnywhere(t *testing.T) {
	env := map[string]string{"GPUPLAN_DB": filepath.Join(t.TempDir(), "gpuplan.db")}
	if code, out, errOut := runCLI(t, env, "status", "--channel", "C123"); code != 0 || !strings.Contains(out, "server-h") {
		t.Fatalf("status --channel C123: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, env, "run", "reserve 2 on server-h for 4h", "--as", "alice", "--json"); code != 0 || !json.Valid([]byte(out)) {
		t.Fatalf("run … --as alice --json: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := runCLI(t, env, "mine", "--json", "--as=alice")
	if code != 0 || !json.Valid([]byte(out)) || !strings.Contains(out, "server-h") {
		t.Fatalf("mine --json --as=alice: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, env, "status", "--chanel", "C1"); code != 2 || !strings.Contains(errOut, "chanel") {
		t.Fatalf("a misspelt flag: exit %d, %s", code, errOut)
	}
}
