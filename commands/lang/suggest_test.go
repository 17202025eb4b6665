package lang

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// followTry follows the "try: gpuplan plan …" hints from text until one
// parses. It reports the chain and whether it ended in a request that
// parses; a hint that repeats an earlier text is a loop and fails.
func followTry(env Env, text string) ([]string, bool) {
	chain := []string{text}
	seen := map[string]bool{text: true}
	for range 8 {
		_, err := Read(env, text)
		if err == nil {
			return chain, true
		}
		var ue *UserError
		if !errors.As(err, &ue) {
			return chain, false
		}
		next, ok := strings.CutPrefix(ue.Hint, "try: gpuplan plan ")
		if !ok {
			return chain, len(chain) > 1 // a general hint: only fine if a suggestion came before and parsed
		}
		if seen[next] {
			return append(chain, next), false
		}
		seen[next] = true
		chain = append(chain, next)
		text = next
	}
	return chain, false
}

// mutations make typical slips in a request: two letters swapped, a letter
// dropped, a letter doubled — one word at a time.
func mutations(text string) []string {
	words := strings.Fields(text)
	var out []string
	for k, w := range words {
		r := []rune(w)
		if len(r) < 5 {
			continue
		}
		for _, m := range []string{
			string(r[:2]) + string(r[3]) + string(r[2]) + string(r[4:]), // swap
			string(r[:3]) + string(r[4:]),                               // drop
		} {
			ws := append([]string(nil), words...)
			ws[k] = m
			out = append(out, strings.Join(ws, " "))
		}
	}
	return out
}

// TestSuggestionsParse is the property the request language holds every
// suggestion to: a "try:" line, followed, leads to a request that parses —
// never to a loop or to a word the language cannot read. It runs over
// every phrasebook request with typical slips made in each of its words.
func TestSuggestionsParse(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)}
	tried, bad := 0, 0
	for _, p := range append(loadPhrasebook(t), loadPhrases(t, "testdata/holdout.jsonl")...) {
		if c, _ := p.Expect["command"].(string); c != "" && c != "plan" {
			continue
		}
		if _, err := Read(env, p.Text); err != nil {
			continue // a request the language refuses as typed has nothing to mutate from
		}
		for _, m := range mutations(p.Text) {
			_, err := Read(env, m)
			var ue *UserError
			if !errors.As(err, &ue) || !strings.HasPrefix(ue.Hint, "try: gpuplan plan ") {
				continue
			}
			tried++
			if chain, ok := followTry(env, m); !ok {
				bad++
				if bad <= 10 {
					t.Errorf("a suggestion does not lead to a request that parses:\n  %s", strings.Join(chain, "\n  → "))
				}
			}
		}
	}
	t.Logf("%d suggestions followed, %d failed", tried, bad)
	if tried < 50 {
		t.Errorf("only %d suggestions were tried", tried)
	}
}

// Short common words never draw a suggestion, and a typo draws the word it
// is one slip from.
func TestSuggestionSimilarity(t *testing.T) {
	cat := planner.DefaultCatalog()
	p := &reqParser{cat: cat}
	for _, w := range []string{"can", "use", "gpu", "lol", "faster", "rent", "chat", "boxes", "load"} {
		if s := p.suggest(w, nil); s != "" {
			t.Errorf("suggest(%q) = %q, want none", w, s)
		}
	}
	for w, want := range map[string]string{"bert-bse": "bert-base", "h1000": "h100", "qlroa": "qlora"} {
		if s := p.suggest(w, nil); s != want {
			t.Errorf("suggest(%q) = %q, want %q", w, s, want)
		}
	}
}
