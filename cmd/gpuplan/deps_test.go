package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const mod = "github.com/gpuplan/gpuplan/"

// depRules is DESIGN.md §2's table. "deps" are forbidden anywhere in the
// dependency graph; "imports" are forbidden as direct imports (commands
// may reach go-redis through store's types; bot may reach planner
// through commands).
var depRules = map[string]struct{ deps, imports []string }{
	"planner":       {deps: []string{mod, "github.com/", "go.uber.org/", "golang.org/x/"}},
	"store":         {deps: []string{mod + "planner", mod + "commands", mod + "bot", "github.com/slack-go/", "go.uber.org/zap", "github.com/robfig/cron"}},
	"commands/lang": {deps: []string{mod + "store", mod + "bot", mod + "commands", "github.com/slack-go/", "github.com/redis/", "go.uber.org/zap", "github.com/robfig/cron"}},
	// inventory and digest reach go-redis only through store's types.
	"inventory":       {deps: []string{mod + "bot", "github.com/slack-go/", "go.uber.org/zap"}, imports: []string{"github.com/redis/"}},
	"digest":          {deps: []string{mod + "bot", "github.com/slack-go/", "go.uber.org/zap"}, imports: []string{"github.com/redis/"}},
	"digest/schedule": {deps: []string{mod + "bot", "github.com/slack-go/", "go.uber.org/zap"}, imports: []string{"github.com/redis/"}},
	// commands reaches digest but never digest/schedule, the one package
	// besides cmd/gpuplan that uses cron: cron stays out of its graph.
	"commands": {deps: []string{mod + "bot", mod + "digest/schedule", "github.com/slack-go/", "github.com/robfig/cron"}, imports: []string{"github.com/redis/"}},
	"bot":      {deps: []string{"github.com/robfig/cron"}, imports: []string{mod + "store", mod + "planner", "github.com/redis/"}},
	// i18n (reply language and message catalogue): golang.org/x/text only;
	// the planner never reaches it (it stays standard library).
	"i18n": {deps: []string{mod, "github.com/", "go.uber.org/"}},
	// hub (Hugging Face config client): standard library and planner only.
	// The binary: every package it links runs its init in every process,
	// `gpuplan plan` included, so nothing heavy that only serve needs
	// (client_golang's stack cost ~2 ms and ~320 page faults at start;
	// docs/performance.md). The tests may use client_golang.
	"cmd/gpuplan": {deps: []string{"github.com/prometheus/", "google.golang.org/protobuf", "github.com/VictoriaMetrics/"}},
	"hub":         {deps: []string{mod + "store", mod + "bot", mod + "commands", "github.com/slack-go/", "github.com/redis/", "go.uber.org/zap", "github.com/robfig/cron"}},
}

// violations lists the forbidden packages among deps (everything pkg
// depends on) and imports (its direct imports).
func violations(pkg string, deps, imports []string) []string {
	var out []string
	check := func(list, forbidden []string) {
		for _, d := range list {
			if d == mod+pkg || strings.HasPrefix(d, mod+pkg+"/") {
				continue
			}
			for _, f := range forbidden {
				if strings.HasPrefix(d, f) {
					out = append(out, d)
					break
				}
			}
		}
	}
	check(deps, depRules[pkg].deps)
	check(imports, append(depRules[pkg].deps, depRules[pkg].imports...))
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
		var deps, imports []string
		dec := json.NewDecoder(strings.NewReader(string(out)))
		for dec.More() {
			var p struct {
				ImportPath string
				Standard   bool
				Imports    []string
			}
			if err := dec.Decode(&p); err != nil {
				t.Fatal(err)
			}
			if !p.Standard {
				deps = append(deps, p.ImportPath)
			}
			if p.ImportPath == mod+pkg {
				imports = p.Imports
			}
		}
		for _, v := range violations(pkg, deps, imports) {
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
		pkg           string
		deps, imports []string
		bad           int
	}{
		{"planner", []string{mod + "planner"}, nil, 0},
		{"planner", []string{mod + "commands", "go.uber.org/zap"}, nil, 2},
		{"commands", []string{mod + "planner", mod + "store", "github.com/redis/go-redis/v9"}, []string{mod + "planner", mod + "store"}, 0},
		{"commands", []string{"github.com/slack-go/slack"}, nil, 1},
		{"commands", []string{"github.com/redis/go-redis/v9"}, []string{"github.com/redis/go-redis/v9"}, 1},
		{"bot", []string{"github.com/slack-go/slack", mod + "commands", mod + "planner"}, []string{mod + "commands"}, 0},
		{"bot", []string{mod + "store"}, []string{mod + "store"}, 1},
		{"store", []string{"github.com/redis/go-redis/v9", mod + "planner"}, nil, 1},
		{"commands/lang", []string{mod + "planner"}, []string{mod + "planner"}, 0},
		{"commands/lang", []string{mod + "store", "go.uber.org/zap"}, nil, 2},
		{"inventory", []string{mod + "planner", mod + "store", mod + "commands/lang", "github.com/redis/go-redis/v9", "go.yaml.in/yaml/v3"}, []string{mod + "planner", mod + "commands/lang", "go.yaml.in/yaml/v3"}, 0},
		{"inventory", []string{"go.uber.org/zap", "github.com/slack-go/slack"}, nil, 2},
		{"inventory", []string{"github.com/redis/go-redis/v9"}, []string{"github.com/redis/go-redis/v9"}, 1},
		{"digest", []string{mod + "inventory", mod + "store", "github.com/redis/go-redis/v9", "golang.org/x/image/font"}, []string{mod + "inventory", mod + "store"}, 0},
		{"digest", []string{mod + "bot", "go.uber.org/zap"}, nil, 2},
		{"digest/schedule", []string{mod + "digest", "github.com/robfig/cron/v3"}, []string{mod + "digest", "github.com/robfig/cron/v3"}, 0},
		{"digest/schedule", []string{"github.com/slack-go/slack"}, nil, 1},
		{"commands", []string{mod + "inventory", mod + "digest"}, []string{mod + "inventory", mod + "digest"}, 0},
		{"commands", []string{mod + "digest", mod + "digest/schedule", "github.com/robfig/cron/v3"}, []string{mod + "digest/schedule"}, 3},
		{"cmd/gpuplan", []string{mod + "bot", "github.com/slack-go/slack", "github.com/redis/go-redis/v9"}, nil, 0},
		{"cmd/gpuplan", []string{"github.com/prometheus/client_golang/prometheus", "google.golang.org/protobuf/proto"}, nil, 2},
	} {
		if got := len(violations(tc.pkg, tc.deps, tc.imports)); got != tc.bad {
			t.Errorf("%s deps %v imports %v: %d violations, want %d", tc.pkg, tc.deps, tc.imports, got, tc.bad)
		}
	}
}
