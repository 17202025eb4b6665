package lang

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/planner"
)

// Suggestions. A refusal's hint is one of two kinds:
//
//   - a correction, "try: gpuplan plan …": the user's own request with the
//     bad words replaced by the fix, or left out. It parses on its own —
//     Read checks every one before it is shown — and it adds nothing the
//     user did not say (no stock amounts, no invented hardware);
//   - an example, "e.g. …": how the phrase is said, labelled as an example,
//     never spliced into the user's request.

// tryPrefix starts every correction.
const tryPrefix = "try: gpuplan plan "

// hintAlt is what a correction gives way to when it does not parse on its
// own: the request without the bad words, else an example. slip marks a
// correction of a typo ("bert-bse" → "bert-base"), the one kind another
// correction may be carried through.
type hintAlt struct {
	drop, example string
	slip          bool
}

// try is a correction: the request with tokens [a, b) replaced by repl.
func (p *reqParser) try(a, b int, repl string) string { return p.tryOr(a, b, repl, "") }

// tryOr is try with the example shown when neither the correction nor the
// request without tokens [a, b) parses.
func (p *reqParser) tryOr(a, b int, repl, example string) string {
	s := p.rewrite(a, b, repl)
	if s == "" {
		if example != "" {
			return example
		}
		return reqExample
	}
	hint := tryPrefix + s
	if p.alts == nil {
		p.alts = map[string]hintAlt{}
	}
	if _, ok := p.alts[hint]; !ok {
		p.alts[hint] = hintAlt{drop: p.rewrite(a, b, ""), example: example}
	}
	return hint
}

// fix is the correction of a slip: the word at [a, b) is one typo from
// repl.
func (p *reqParser) fix(a, b int, repl string) string {
	hint := p.try(a, b, repl)
	if alt, ok := p.alts[hint]; ok {
		alt.slip = true
		p.alts[hint] = alt
	}
	return hint
}

// drop is the correction that leaves tokens [a, b) out; example is shown
// when the rest does not parse either.
func (p *reqParser) drop(a, b int, example string) string { return p.tryOr(a, b, "", example) }

// rewrite is the request with tokens [a, b) replaced by repl, "" when
// nothing is left or it is too long to show.
func (p *reqParser) rewrite(a, b int, repl string) string {
	start, end := p.tok(a).start, p.tok(a).start
	if b > a {
		end = p.tok(b - 1).end
	}
	if b >= len(p.toks) && b > a && onlyArticles(p.text[end:]) {
		end = len(p.text) // "on a": the article read as nothing goes with it
	}
	s := p.text[:start] + " " + repl + " " + p.text[end:]
	s = strings.Join(strings.Fields(s), " ")
	s = strings.ReplaceAll(s, " ,", ",")
	s = strings.Trim(s, ", ")
	if s == "" || utf8.RuneCountInString(s) > 300 {
		return ""
	}
	return s
}

// onlyArticles reports whether s has no words but articles.
func onlyArticles(s string) bool {
	for _, w := range strings.Fields(strings.ToLower(s)) {
		if !silentWords[w] {
			return false
		}
	}
	return true
}

// reqEg is an example hint: "e.g. `int4`, `int8` or `bf16`".
func reqEg(phrases ...string) string {
	s := "`" + phrases[len(phrases)-1] + "`"
	if len(phrases) > 1 {
		s = "`" + strings.Join(phrases[:len(phrases)-1], "`, `") + "` or " + s
	}
	return "e.g. " + s
}

// settle holds a correction to the rule every suggestion keeps: it parses
// on its own. A correction that meets a typo is carried through it (two
// typos, both fixed: "bert-bse … on h1000" → "bert-base … on h100"); one
// that does not parse gives way to the request without the bad words, then
// to an example, labelled as one.
func (p *reqParser) settle(env Env, err error) error {
	ue, ok := err.(*UserError)
	if !ok {
		return err
	}
	next, ok := strings.CutPrefix(ue.Hint, tryPrefix)
	if !ok {
		return err
	}
	alt := p.alts[ue.Hint]
	env.unsettled = true
	seen := map[string]bool{p.text: true}
	for range 4 {
		if seen[next] {
			break
		}
		seen[next] = true
		_, e := Read(env, next)
		if e == nil {
			ue.Hint = tryPrefix + next
			return ue
		}
		ne, ok := e.(*UserError)
		if !ok || !ne.slip {
			break // only a typo's fix is carried on: a guess on a guess is no one's request
		}
		if next, ok = strings.CutPrefix(ne.Hint, tryPrefix); !ok {
			break
		}
	}
	if alt.drop != "" && !seen[alt.drop] {
		if _, e := Read(env, alt.drop); e == nil {
			ue.Hint = tryPrefix + alt.drop
			return ue
		}
	}
	ue.Hint = alt.example
	if ue.Hint == "" {
		ue.Hint = reqExample
	}
	return ue
}

// ---------------------------------------------------------------------------
// Words that are not a GPU the catalogue has

// gpuVendors start a GPU's name ("gtx 1660", "tpu v4"): an unknown name is
// quoted with the model number after it, which is never read as a count.
var gpuVendors = map[string]bool{
	"rtx": true, "gtx": true, "geforce": true, "nvidia": true, "tesla": true, "quadro": true, "amd": true,
	"instinct": true, "radeon": true, "tpu": true, "tpus": true, "intel": true, "gaudi": true, "arc": true,
}

// modelNumber reports whether w reads as a product's model number ("4080",
// "v4", "v5e", "3080ti", "mi250").
func modelNumber(w string) bool {
	if w == "" || len(w) > 8 || !strings.ContainsAny(w, "0123456789") {
		return false
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// productNumber reports whether a bare number is a GeForce model number
// ("3060", "4080", "2080ti", "1660s"): a card, not a count. Counts people
// write (8, 64, 1024, 2048, 4096) are not of that shape.
func productNumber(w string) bool {
	for _, sfx := range []string{"super", "ti", "s"} {
		w = strings.TrimSuffix(w, sfx)
	}
	if len(w) != 4 || !digitsOnly(w) {
		return false
	}
	return w[0] >= '1' && w[0] <= '5' && (w[1] == '0' || w[1] == '6') && w[2] >= '5' && w[3] == '0'
}

// notInCatalogue is the error for a GPU named in full that the catalogue
// does not have: no guess at a different card, the list of those it has.
func (p *reqParser) notInCatalogue(shown string) error {
	w := strings.TrimPrefix(strings.ToLower(strings.ReplaceAll(shown, " ", "")), "rtx")
	if base := strings.TrimSuffix(strings.TrimSuffix(w, "ti"), "super"); base != w && neverSold[w] && p.isGPU(base) {
		// "4090ti": no such card was sold; the one without the suffix is
		// (a 3060 Ti or a 4070 Super was, and is only missing here)
		return said(en.Tf("unknown GPU `%s` — did you mean `%s`?", reqShort(shown), base), &UserError{Hint: p.gpuFamilies()})
	}
	return said(en.Tf("unknown GPU `%s`: it is not in the GPU catalogue", reqShort(shown)), &UserError{Hint: p.gpuFamilies()})
}

// vendorGPU is the error for a vendor word and the model number after it
// ("gtx 1660", "tpu v4") that name no catalogue GPU.
func (p *reqParser) vendorGPU(i int) error {
	shown := p.tok(i).raw
	if n := p.tok(i + 1).w; modelNumber(n) {
		shown = p.span(i, i+2)
	}
	return p.notInCatalogue(shown)
}

// nearestGPU is the catalogue GPU name a typo is close to ("h1000" →
// "h100"), "" when none is close enough to be a slip.
func (p *reqParser) nearestGPU(name string) string {
	if len(reqNorm(name)) < 3 || gpuVendors[name] {
		return "" // "v4" is no slip of "l4", "rtx" none of "rtx-3090"
	}
	p.loadVocab()
	var names []string
	for n := range p.gpuSet {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, s := range planner.Nearest(name, names, 3) {
		if closeEnough(name, s) {
			return s
		}
	}
	return ""
}

// ---------------------------------------------------------------------------
// The team's servers

// serverLike reports whether w is written as a team server's name is
// ("server-x" beside server-h, server-a, server-v) without being one.
func (p *reqParser) serverLike(w string) bool {
	if _, ok := p.servers[w]; ok {
		return false
	}
	if strings.HasPrefix(w, "server-") || strings.HasPrefix(w, "server_") || strings.HasPrefix(w, "서버-") {
		return len(w) > len("server-")
	}
	for name := range p.servers {
		if k := strings.LastIndexAny(name, "-_"); k > 0 && len(w) > k+1 && strings.HasPrefix(w, name[:k+1]) &&
			!p.isGPU(w) {
			return true
		}
	}
	return false
}

// unknownServer is the error for a server name the team does not have; it
// names the team's servers.
func (p *reqParser) unknownServer(i int) error {
	t := p.tok(i)
	if len(p.serverOrder) == 0 {
		return said(en.Tf("`%s` is not a server I know: no team servers are set up (the servers file)", reqShort(t.raw)), &UserError{Hint: p.gpuFamilies()})
	}
	var names, say []string
	for _, n := range p.serverOrder {
		h := p.servers[n]
		names = append(names, n)
		say = append(say, fmt.Sprintf("`on %s` (%dx %s)", n, h.Count, h.GPU.ID))
	}
	return said(en.Tf("`%s` is not one of the team's servers: %s", reqShort(t.raw), strings.Join(names, ", ")), &UserError{
		Hint:  "say " + strings.Join(say, ", "),
		Field: FieldServer,
	})
}

// gpuOnlyWords start nothing but a GPU's name: a request that has one
// where no catalogue GPU follows names a GPU the catalogue lacks.
var gpuOnlyWords = map[string]bool{
	"rtx": true, "gtx": true, "geforce": true, "radeon": true, "tpu": true, "tpus": true, "quadro": true,
}

// neverSold are suffixed GeForce names people type for cards that were
// never released: the top card of each generation had no Ti or Super.
var neverSold = map[string]bool{"4090ti": true, "4090super": true, "5090ti": true, "5090super": true, "3090super": true}
