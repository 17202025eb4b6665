package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const mod = "github.com/gpuplan/gpuplan/"

// depRules is DESIGN.md §2's table: what each package must not depend on
// (directly or through others).
var depRules = map[string][]string{
	"planner":  {mod, "github.com/", "go.uber.org/", "golang.org/x/"},
	"store":    {mod + "planner", mod + "commands", mod + "bot", "github.com/slack-go/", "go.uber.org/zap", "github.com/robfig/cron"},
	"commands": {mod + "bot", "github.com/slack-go/", "github.com/redis/", "github.com/robfig/cron"},
	"bot":      {mod + "store", mod + "planner", "github.com/redis/", "github.com/robfig/cron"},
}

// violations lists the forbidden packages among deps of pkg.
func violations(pkg string, deps []string) []string {
	var out []string
	for _, d := range deps {
		if d == mod+pkg {
			continue
		}
		for _, f := range depRules[pkg] {
			if strings.HasPrefix(d, f) {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// TestDependencyDirection enforces the table with `go list -deps`, in the
// style of tailscale's deptest. Packages that do not exist yet are skipped
// and named in the log, so the rule holds as they appear.
func TestDependencyDirection(t *testing.T) {
	checked := 0
	for pkg := range depRules {
		cmd := exec.Command("go", "list", "-json", "-deps", "./"+pkg)
		cmd.Dir = "../.." // the module root
		out, err := cmd.Output()
		if err != nil {
			t.Logf("./%s: not present yet", pkg)
			continue
		}
		var deps []string
		dec := json.NewDecoder(strings.NewReader(string(out)))
		for dec.More() {
			var p struct {
				ImportPath string
				Standard   bool
			}
			if err := dec.Decode(&p); err != nil {
				t.Fatal(err)
			}
			if !p.Standard {
				deps = append(deps, p.ImportPath)
			}
		}
		for _, v := range violations(pkg, deps) {
			t.Errorf("%s must not depend on %s (DESIGN.md §2)", pkg, v)
		}
		checked++
	}
	if checked < 2 {
		t.Errorf("checked %d packages; planner and commands at least must exist", checked)
	}
}

// The rule itself catches what it should.
func TestDependencyRulesCatchViolations(t *testing.T) {
	for _, tc := range []struct {
		pkg  string
		deps []string
		bad  int
	}{
		{"planner", []string{mod + "planner"}, 0},
		{"planner", []string{mod + "commands", "go.uber.org/zap"}, 2},
		{"commands", []string{mod + "planner", mod + "store", "github.com/slack-go/slack"}, 1},
		{"bot", []string{"github.com/slack-go/slack", "go.uber.org/zap", mod + "commands", mod + "store"}, 1},
		{"store", []string{"github.com/redis/go-redis/v9", mod + "planner"}, 1},
	} {
		if got := len(violations(tc.pkg, tc.deps)); got != tc.bad {
			t.Errorf("%s with %v: %d violations, want %d", tc.pkg, tc.deps, got, tc.bad)
		}
	}
}
