package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]Lang{
		"ko": KO, "ko-KR": KO, "ko_KR.UTF-8": KO, "Korean": KO, "한국어": KO,
		"en": EN, "en-US": EN, "en_GB.UTF-8": EN, "C": EN, "POSIX": EN,
	} {
		if got, ok := Parse(in); !ok || got != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "fr-FR", "ja_JP.UTF-8", "kok"} {
		if got, ok := Parse(in); ok {
			t.Errorf("Parse(%q) = %q; want not understood", in, got)
		}
	}
}

func TestFromEnvAndChoose(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if l := FromEnv(env(map[string]string{"LANG": "ko_KR.UTF-8"})); l != KO {
		t.Errorf("LANG=ko_KR: %q", l)
	}
	if l := FromEnv(env(map[string]string{"LC_ALL": "C", "LANG": "ko_KR.UTF-8"})); l != EN {
		t.Errorf("LC_ALL=C beats LANG: %q", l)
	}
	if l := FromEnv(env(nil)); l != EN {
		t.Errorf("nothing set: %q", l)
	}
	if l := Choose("ko-KR", false); l != KO {
		t.Errorf("Slack ko-KR: %q", l)
	}
	if l := Choose("en-US", true); l != KO {
		t.Errorf("a Korean request from a Slack left at en-US: %q", l)
	}
	if l := Choose("ko-KR", false); l != KO {
		t.Errorf("an English request from a Korean Slack: %q", l)
	}
	if l := Choose("en-GB", false); l != EN {
		t.Errorf("Slack en-GB, English request: %q", l)
	}
	if l := Choose("", true); l != KO {
		t.Errorf("no locale, Korean request: %q", l)
	}
	if l := Choose("fr-FR", false); l != EN {
		t.Errorf("a locale gpuplan does not speak, English request: %q", l)
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[float64]string{2_500_000: "250만", 100_000_000: "1억", 120_000_000: "1.2억", 9_999: "9,999", 15_000_000_000_000: "15조"} {
		if got := For(KO).Count(n); got != want {
			t.Errorf("Korean Count(%v) = %q, want %q", n, got, want)
		}
	}
	if got := For(EN).Count(2_500_000); got != "2,500,000" {
		t.Errorf("English Count = %q", got)
	}
}

func TestEnglishIsTheKey(t *testing.T) {
	if got := For(EN).Tf("%d GPUs on %s", 1234, "server-h"); got != "1234 GPUs on server-h" {
		t.Errorf("English must format exactly as fmt: %q", got)
	}
}

// TestEveryKeyHasKorean scans the tree for every message a reply prints
// through a Printer (p.T("…"), p.Tf("…", …)) and fails for a key with no
// Korean text, so a Korean reply never falls back to English silently. A
// key must be a string literal, or the scan could not see it.
func TestEveryKeyHasKorean(t *testing.T) {
	keys := scanKeys(t, "..")
	var missing []string
	for k, at := range keys {
		if _, ok := korean()[k]; !ok {
			missing = append(missing, at+": "+strconv.Quote(k))
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("no Korean text for %s", m)
	}
	// Every catalogue entry keeps the verbs of its key, in order, so the
	// arguments land where they belong.
	for k, v := range korean() {
		if verbs(k) != verbs(v) {
			t.Errorf("Korean text for %q has verbs %q, the key %q", k, verbs(v), verbs(k))
		}
	}
	t.Logf("%d keys in use, %d Korean entries", len(keys), len(korean()))
}

// verbs lists a format string's verbs ("%s %d %.1f").
func verbs(s string) string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(s) && strings.IndexByte("0123456789.+-# []*", s[j]) >= 0 {
			j++
		}
		if j < len(s) {
			if s[j] != '%' {
				out = append(out, s[i:j+1])
			}
			i = j
		}
	}
	return strings.Join(out, " ")
}

// scanKeys finds the literal first argument of every T/Tf/Tn call in the
// module's non-test Go files, with where it was first seen.
func scanKeys(t *testing.T, root string) map[string]string {
	t.Helper()
	keys := map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			// The store's refusals (invalidf(format, …), invalidIn(field,
			// format, …)) are said through their format too.
			if id, ok := call.Fun.(*ast.Ident); ok && (id.Name == "invalidf" || id.Name == "invalidIn") {
				at := 0
				if id.Name == "invalidIn" {
					at = 1
				}
				if lit, ok := call.Args[at].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if k, err := strconv.Unquote(lit.Value); err == nil {
						if _, seen := keys[k]; !seen {
							keys[k] = fset.Position(lit.Pos()).String()
						}
					}
				}
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "T" && sel.Sel.Name != "Tf") {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: %s's key is not a string literal, so no test can see it", fset.Position(call.Pos()), sel.Sel.Name)
				return true
			}
			k, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Errorf("%s: %v", fset.Position(lit.Pos()), err)
				return true
			}
			if _, seen := keys[k]; !seen {
				keys[k] = fset.Position(lit.Pos()).String()
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}
