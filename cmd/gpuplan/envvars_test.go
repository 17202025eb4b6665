package main

import (
	"bytes"
	"context"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

var update = flag.Bool("update", false, "rewrite the README's generated configuration reference")

// The README's configuration reference is Settings rendered; `go test
// ./cmd/gpuplan -run TestConfigReference -update` rewrites it.
func TestConfigReference(t *testing.T) {
	const begin, end = "<!-- config:begin", "<!-- config:end -->"
	path := "../../README.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	i, j := strings.Index(readme, begin), strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatalf("README has no %s … %s markers", begin, end)
	}
	i += strings.Index(readme[i:], "-->") + len("-->")
	want := "\n" + ConfigReferenceMarkdown() + "\n"
	if readme[i:j] == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(readme[:i]+want+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README configuration reference is stale; run: go test ./cmd/gpuplan -run TestConfigReference -update")
}

// helpFlags runs `gpuplan <sub> -h` and returns the flags it prints with
// their defaults ("" when none is printed); ok is false when the
// subcommand does not exist.
func helpFlags(t *testing.T, sub string) (flags map[string]string, ok bool) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	run(context.Background(), []string{sub, "-h"}, func(string) string { return "" }, &stdout, &stderr)
	out := stderr.String() + stdout.String()
	if strings.Contains(out, "unknown command") {
		return nil, false
	}
	flags = map[string]string{}
	lines := strings.Split(out, "\n")
	re := regexp.MustCompile(`^  -([a-z][a-z0-9-]*)`)
	for n, l := range lines {
		m := re.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		usage := l
		for k := n + 1; k < len(lines) && strings.HasPrefix(lines[k], "    "); k++ {
			usage += lines[k]
		}
		def := ""
		if d := strings.LastIndex(usage, "(default "); d >= 0 {
			def = strings.TrimSuffix(strings.TrimSpace(usage[d+len("(default "):]), ")")
			if uq, err := strconv.Unquote(def); err == nil {
				def = uq
			}
		}
		flags[m[1]] = def
	}
	if len(flags) == 0 {
		t.Fatalf("gpuplan %s -h printed no flags:\n%s", sub, out)
	}
	return flags, true
}

// Every flag a subcommand defines is in Settings for that subcommand
// with its default, and every flag Settings names exists. doctor takes
// serve's flags; "plan" stands for the terminal commands.
func TestSettingsMatchTheFlags(t *testing.T) {
	tableFlags := func(sub string) map[string]Setting {
		out := map[string]Setting{}
		for _, s := range Settings {
			if s.Flag != "" && slices.Contains(s.Commands, sub) {
				out[s.Flag] = s
			}
		}
		return out
	}
	for _, sub := range []string{"serve", "doctor", "run", "plan", "build", "gpus", "models", "backtest", "agent", "healthcheck"} {
		got, ok := helpFlags(t, sub)
		if !ok {
			t.Logf("gpuplan %s does not exist yet", sub)
			continue
		}
		tableSub := sub
		switch sub {
		case "doctor":
			tableSub = "serve"
		case "build", "gpus", "models", "backtest":
			tableSub = "plan"
		}
		want := tableFlags(tableSub)
		for name, def := range got {
			s, ok := want[name]
			if !ok {
				t.Errorf("gpuplan %s has --%s, which Settings (envvars.go) does not list for %s", sub, name, tableSub)
				continue
			}
			// The agent's default server is this machine's host name.
			if def != "" && name != "server" && !strings.Contains(strings.ReplaceAll(s.Default, "`", ""), def) {
				t.Errorf("gpuplan %s --%s defaults to %q; Settings says %q", sub, name, def, s.Default)
			}
		}
		for name := range want {
			if _, ok := got[name]; !ok {
				t.Errorf("Settings lists --%s for %s, but gpuplan %s has no such flag", name, tableSub, sub)
			}
		}
	}
}

var envName = regexp.MustCompile(`^[A-Z][A-Z0-9_]{2,}$`)

// envReads parses the Go files (not tests) under dir and returns the
// environment variables they read: the string-literal arguments of calls
// to anything named like getenv/Getenv/LookupEnv/envOr, or of calls that
// are handed the getenv function.
func envReads(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			name := ""
			switch fn := call.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			}
			envish := strings.Contains(strings.ToLower(name), "env")
			for _, a := range call.Args {
				if id, ok := a.(*ast.Ident); ok && id.Name == "getenv" {
					envish = true
				}
			}
			if !envish {
				return true
			}
			for _, a := range call.Args {
				if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if v, err := strconv.Unquote(lit.Value); err == nil && envName.MatchString(v) {
						out[v] = fset.Position(lit.Pos()).String()
					}
				}
			}
			return true
		})
	}
	return out
}

// Every environment variable the binary reads is in Settings, and every
// one Settings lists is read. Only cmd/gpuplan reads the environment
// (main hands os.Getenv down); no other package calls os.Getenv.
func TestSettingsMatchTheEnvironmentRead(t *testing.T) {
	reads := envReads(t, ".")
	if len(reads) < 10 {
		t.Fatalf("found only %v: the scan is broken", reads)
	}
	for v, where := range reads {
		if _, ok := settingFor(v); !ok {
			t.Errorf("%s: reads %s, which Settings (envvars.go) does not list", where, v)
		}
	}
	for _, v := range EnvVars() {
		if _, ok := reads[v]; !ok {
			t.Errorf("Settings lists %s, which nothing in cmd/gpuplan reads", v)
		}
	}
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "../.." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Base(filepath.Dir(path)) == "gpuplan" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, call := range []string{"os.Getenv(", "os.LookupEnv(", "os.Environ("} {
			if bytes.Contains(src, []byte(call)) {
				t.Errorf("%s calls %s: read the environment in cmd/gpuplan (getenv) and list it in Settings", path, call)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The table renders one row per setting, escapes pipes, and the secrets
// are the tokens and the Redis password.
func TestConfigReferenceMarkdown(t *testing.T) {
	md := ConfigReferenceMarkdown()
	if got, want := strings.Count(md, "\n")+1, len(Settings)+2; got != want {
		t.Errorf("%d lines, want %d", got, want)
	}
	for _, s := range Settings {
		if s.What == "" || s.Default == "" || s.Wrong == "" || len(s.Commands) == 0 || s.Env == "" && s.Flag == "" {
			t.Errorf("incomplete setting %+v", s)
		}
	}
	var secrets []string
	for _, s := range Settings {
		if s.Secret {
			secrets = append(secrets, s.Env)
		}
	}
	if !slices.Equal(secrets, []string{"SLACK_APP_TOKEN", "SLACK_BOT_TOKEN", "REDIS_PASSWORD", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"}) {
		t.Errorf("secret settings %v", secrets)
	}
	if !strings.Contains(md, "| `USER`, `--as` | run, plan, exec |") {
		t.Errorf("a variable with its flag renders as one row:\n%s", md)
	}
}

// serve reads GPUPLAN_PRICES as the terminal commands do; a bad one stops
// the start and says which.
func TestApplyEnvPrices(t *testing.T) {
	cat := planner.DefaultCatalog()
	if err := applyEnvPrices(cat, func(string) string { return "h100=9.5, v100=$0.25" }); err != nil {
		t.Fatal(err)
	}
	if g, _, _ := cat.GPU("h100"); g.PriceUSD != 9.5 {
		t.Errorf("h100 price %v", g.PriceUSD)
	}
	for _, bad := range []string{"h1000=2", "h100=cheap", "h100"} {
		err := applyEnvPrices(planner.DefaultCatalog(), func(string) string { return bad })
		if err == nil || !strings.Contains(err.Error(), "GPUPLAN_PRICES") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	env := map[string]string{"GPUPLAN_PRICES": "h100=x", "SLACK_APP_TOKEN": "xapp-1", "SLACK_BOT_TOKEN": "xoxb-1", "GPUPLAN_HTTP_ADDR": "off"}
	var stderr bytes.Buffer
	if c := serve(context.Background(), nil, func(k string) string { return env[k] }, &bytes.Buffer{}, &stderr); c != 2 || !strings.Contains(stderr.String(), "GPUPLAN_PRICES") {
		t.Errorf("serve with a bad GPUPLAN_PRICES: exit %d %q", c, stderr.String())
	}
}
