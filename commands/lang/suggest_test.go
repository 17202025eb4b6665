package lang

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/gpuplan/gpuplan/planner"
)

// mutations make typical slips in a request: two letters swapped, a letter
// dropped — one word at a time.
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

// badRequests are requests people type that the language refuses: slips,
// cards the catalogue lacks, half-said phrases, conflicts.
var badRequests = []string{
	"124M epochs on h100", "bert-bse 10 epochs on h1000", "llama3 8b lora on gtx 1660", "gemma 2 9b on tpu v4",
	"bert-base can I run it on h100", "lol", "bert-base on a", "bert-base on", "bert-base seq", "bert-base of",
	"bert-base two and four a100s", "bert-base 10 on h100", "bert-base 36h on h100", "bert-base 3 bit",
	"bert-base zero", "bert-base precision", "bert-base compare h100x2", "bert-base nvlink", "bert-base on h100x0",
	"bert-base on 0 nodes of 8x h100", "bert-base on 2x h100 x2", "bert-base on server-x", "bert-base server-q 2장",
	"llama3 10 epochs", "bert-base gpt2", "bert-base bf16 fp16 on h100", "bert-base 10 epochs 3 epochs",
	"bert-base tokens", "bert-base batch 128 = 4x30", "bert-base batch 1M tokens = 4x32", "10T params",
	"bert-base baseline 5 furlongs on v100", "bert-base baseline 5.67 h/epoch", "bert-base baseline on 4x v100",
	"qwen3-235b-a22b inference — which of the three servers can hold it?", "bert-base 10epocs on h100x2",
	"bert-base 10 epochs on h100x2 with flsh", "bert-base -3 epochs", "llama3-8b inference ctx 512 gen 1024",
	"meta-llama/Llama-3.2-3Bx", "llama3 8b lora on 2 gtx 1660s", "mistral 7b on a radeon 7900",
}

// suggestionCorpus is every request the property below is checked over:
// the fuzz seeds, the phrasebooks and held-out sets, typical slips made in
// each word of the phrasebook and the first held-out set, and badRequests.
func suggestionCorpus(t *testing.T) []string {
	texts := append([]string(nil), planSeeds...)
	texts = append(texts, badRequests...)
	for _, path := range []string{"testdata/phrasebook.jsonl", "testdata/english.jsonl", "testdata/holdout.jsonl",
		"testdata/holdout2.jsonl", "testdata/holdout3.jsonl", "testdata/holdout4.jsonl", "testdata/holdout5.jsonl",
		"testdata/holdout6.jsonl", "testdata/holdout7.jsonl",
		"testdata/holdout8.jsonl"} {
		for _, p := range loadPhrases(t, path) {
			if c, _ := p.Expect["command"].(string); c != "" && c != "plan" {
				continue
			}
			texts = append(texts, p.Text)
			if path == "testdata/phrasebook.jsonl" || path == "testdata/holdout.jsonl" {
				texts = append(texts, mutations(p.Text)...)
			}
		}
	}
	return texts
}

// TestSuggestionsParse is the rule every suggestion keeps: a "try:" line
// parses on its own — no second suggestion to follow — and it is the
// user's request with the bad words fixed or left out: it keeps the rest
// of what they wrote and adds no stock amount, count or hardware. Any
// other hint is an example and says so ("e.g."), never "try:".
func TestSuggestionsParse(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)}
	tried, bad := 0, 0
	fail := func(format string, args ...any) {
		bad++
		if bad <= 15 {
			t.Errorf(format, args...)
		}
	}
	for _, text := range suggestionCorpus(t) {
		_, err := Read(env, text)
		var ue *UserError
		if !errors.As(err, &ue) {
			continue
		}
		next, ok := strings.CutPrefix(ue.Hint, tryPrefix)
		if !ok {
			if strings.HasPrefix(ue.Hint, "try") {
				fail("%q: hint %q is neither a whole request to try nor labelled as an example", text, ue.Hint)
			}
			continue
		}
		tried++
		if _, err := Read(env, next); err != nil {
			fail("%q → %q does not parse on its own: %v", text, next, strings.ReplaceAll(err.Error(), "\n", " / "))
			continue
		}
		if why := keepsWords(cat, text, next); why != "" {
			fail("%q → %q: %s", text, next, why)
		}
	}
	t.Logf("%d suggestions checked, %d broke the rule", tried, bad)
	if tried < 300 {
		t.Errorf("only %d suggestions were checked", tried)
	}
}

// reqWords are a request's words as the reader sees them.
func reqWords(s string) []string {
	var ws []string
	for _, t := range reqTokenize(reqStripLead(reqNormalize(s))) {
		ws = append(ws, t.w)
	}
	return ws
}

// keepsWords says how a suggestion breaks "the request minus the bad
// words", "" when it does not: the words it leaves out are a few, the words
// it adds are no more than one per word left out (plus a unit: "10" →
// "10 epochs"), and every word it adds is a fix of a word it replaces
// ("h1000" → "h100") or has no number the replaced words did not have (no
// "of 2.5M samples", no "on h100x2").
func keepsWords(cat *planner.Catalog, text, hint string) string {
	in, out := reqWords(text), reqWords(hint)
	// longest common subsequence
	n, m := len(in), len(out)
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if in[i] == out[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var removed, inserted []string
	for i, j := 0, 0; i < n || j < m; {
		switch {
		case i < n && j < m && in[i] == out[j]:
			i++
			j++
		case j < m && (i == n || l[i][j+1] >= l[i+1][j]):
			inserted = append(inserted, out[j])
			j++
		default:
			removed = append(removed, in[i])
			i++
		}
	}
	switch {
	case len(removed)+len(inserted) == 0:
		return "it repeats the request"
	case len(removed) > max(3, n/2):
		return "it leaves out most of the request: " + strings.Join(removed, " ")
	case len(inserted) > len(removed)+1:
		return "it adds words the request did not have: " + strings.Join(inserted, " ")
	}
	was := strings.Join(removed, " ")
	for _, r := range removed {
		if v, ok := englishNumbers[r]; ok {
			was += " " + strconv.Itoa(int(v)) // "one" written as 1 is no invented number
		}
	}
	for _, w := range inserted {
		if slices.ContainsFunc(removed, func(r string) bool { return closeEnough(r, w) }) {
			continue // a slip fixed ("bf61" → "bf16", "8x1a00" → "8xa100", "128" → "120" from the user's 4x30)
		}
		if _, _, err := cat.Model(w); err == nil {
			continue // a model the word named or was a slip of ("llama3" → "llama-3-8b")
		}
		if _, _, err := cat.GPU(w); err == nil {
			continue
		}
		if head, k, ok := reqSplitCount(w); ok {
			if _, _, err := cat.GPU(head); err == nil {
				if !strings.Contains(was, strconv.Itoa(k)) {
					return "it invents a GPU count: " + w
				}
				continue
			}
		}
		for _, d := range strings.FieldsFunc(w, func(r rune) bool { return !unicode.IsDigit(r) }) {
			if !strings.Contains(was, d) {
				return "it invents a number: " + w
			}
		}
	}
	return ""
}

// Short common words never draw a suggestion, and a typo draws the word it
// is one slip from; a vendor word is not a slip of a short GPU name.
func TestSuggestionSimilarity(t *testing.T) {
	cat := planner.DefaultCatalog()
	p := &reqParser{cat: cat}
	for _, w := range []string{"can", "use", "gpu", "lol", "faster", "rent", "chat", "boxes", "load", "rtx", "tpu", "gtx"} {
		if s := p.suggest(w, nil); s != "" {
			t.Errorf("suggest(%q) = %q, want none", w, s)
		}
	}
	for _, w := range []string{"rtx", "tpu", "gtx", "a", "v4"} {
		if s := p.nearestGPU(w); s != "" {
			t.Errorf("nearestGPU(%q) = %q, want none", w, s)
		}
	}
	for w, want := range map[string]string{"bert-bse": "bert-base", "h1000": "h100", "qlroa": "qlora"} {
		if s := p.suggest(w, nil); s != want {
			t.Errorf("suggest(%q) = %q, want %q", w, s, want)
		}
	}
}

// A server name the team does not have is named as such, with the team's
// servers, never read as a GPU or skipped.
func TestUnknownServer(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat)}
	for _, text := range []string{"bert-base 3 epochs on server-x", "bert-base server-q 2장", "bert-base 10 epochs server-z",
		"bert-base 3 epochs on server x", "bert-base 3 epochs 서버-x에서"} {
		_, err := Read(env, text)
		var ue *UserError
		if !errors.As(err, &ue) {
			t.Errorf("%q: %v, want a refusal", text, err)
			continue
		}
		if !strings.Contains(ue.Msg, "not one of the team's servers: server-h, server-a, server-v") || ue.Field != FieldServer {
			t.Errorf("%q: %q (field %q)", text, ue.Msg, ue.Field)
		}
		if !strings.Contains(ue.Hint, "on server-h") {
			t.Errorf("%q: hint %q does not name the servers", text, ue.Hint)
		}
	}
	// with no servers set up, it says so
	_, err := Read(Env{Catalog: cat}, "bert-base on server-x")
	if err == nil || !strings.Contains(err.Error(), "no team servers are set up") {
		t.Errorf("no servers: %v", err)
	}
	// the team's own servers still read
	if r, err := Read(env, "bert-base 3 epochs on server-h"); err != nil || !namesServer(r.Request.Targets) {
		t.Errorf("server-h: %v %+v", err, r.Request.Targets)
	}
}
