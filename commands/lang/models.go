package lang

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// ---------------------------------------------------------------------------
// Models

// catalogModel reads a catalogue model name at p.i: one word ("llama3-8b")
// or, spelled with spaces, two to four that together are exactly a
// catalogue name ("llama 3 8b", "bert base", "deepseek coder v2 lite").
//
// catalogModel is long on purpose: a name and what a family word means
// beside the rest of the request (the largest asked, another model named,
// a typo) are read in one order of precedence.
func (p *reqParser) catalogModel() (bool, error) {
	if p.modelNorms == nil {
		p.modelNorms = modelNameIndex(p.cat).modelNorms()
	}
	if m, ok := p.teamModels[p.toks[p.i].w]; ok {
		// the team's own model ("logbert"), as its servers file defines it
		return true, p.setModel(m, planner.Resolution{}, p.i, p.i+1)
	}
	if ok, err := p.familySize(); ok {
		return true, err
	}
	fm, fn, fok := p.fuzzyModel()
	if fok && fn >= 3 {
		return true, p.setModel(fm, p.readAsNote(p.i, p.i+fn, fm), p.i, p.i+fn)
	}
	for n := 4; n >= 2; n-- {
		if p.i+n > len(p.toks) {
			continue
		}
		var parts []string
		for _, t := range p.toks[p.i : p.i+n] {
			parts = append(parts, t.w)
		}
		joined := strings.Join(parts, " ")
		if !p.modelNorms[reqNorm(joined)] && !planner.IsModelAlias(joined) {
			continue // "multilingual bert": an alias said in words
		}
		if m, res, err := p.cat.Model(joined); err == nil {
			return true, p.setModel(m, res, p.i, p.i+n)
		}
	}
	t := p.toks[p.i]
	if next := p.tok(p.i + 1).w; isParamSize(next) && !strings.Contains(t.w, next) {
		// "qwen2.5-coder 32b": a name the catalogue reads only with its
		// size joined on (a same-architecture variant)
		if m, res, err := p.cat.Model(t.w + "-" + next); err == nil && res.As != "" {
			return true, p.setModel(m, res, p.i, p.i+2)
		}
	}
	if m, n, ok := p.fuzzyModel(); ok && (n > 1 || len(nameParts(t.w)) >= 3) {
		// several words, or one word of several parts ("vit-base/16",
		// "r1-distill-llama-70b")
		return true, p.setModel(m, p.readAsNote(p.i, p.i+n, m), p.i, p.i+n)
	}
	m, res, err := p.cat.Model(t.w)
	if err == nil {
		return true, p.setModel(m, res, p.i, p.i+1)
	}
	var nf *planner.NotFoundError
	if errors.As(err, &nf) && nf.Ambiguous && len(nf.Candidates) > 0 && p.largest {
		// "the largest qwen2.5 that fits a 4090": the family's members are
		// the sizes to try, the answer picks
		for _, id := range nf.Candidates {
			if m, _, err := p.cat.Model(id); err == nil {
				p.largestOf = append(p.largestOf, m)
			}
		}
		if len(p.largestOf) > 0 {
			p.sizeAsked = true
			return true, p.setModel(p.largestOf[0], planner.Resolution{}, p.i, p.i+1)
		}
	}
	if errors.As(err, &nf) && nf.Ambiguous && len(nf.Candidates) > 0 && p.familyTop {
		// "라마 제일 큰 거": the family's largest member in the catalogue
		var top planner.Model
		for _, id := range nf.Candidates {
			if m, _, err := p.cat.Model(id); err == nil && m.Params() > top.Params() {
				top = m
			}
		}
		if top.ID != "" {
			p.note(en.Tf("the largest %s in the catalogue: %s", t.raw, top.ID))
			return true, p.setModel(top, planner.Resolution{}, p.i, p.i+1)
		}
	}
	if errors.As(err, &nf) && nf.Ambiguous && len(nf.Candidates) > 0 && p.chatFamily && !p.modelNamedAfter(p.i+1) && p.catModel.ID == "" {
		if m, ok := p.chatMember(nf.Candidates); ok {
			// "사내 챗봇에 라마 써보려는데": the size teams start a chatbot at
			p.note(en.Tf("`%s` names no size: a chatbot planned on %s, the newest of the family at 7-10B, the size teams start one at (say 70b or another size)", t.raw, m.ID))
			return true, p.setModel(m, planner.Resolution{}, p.i, p.i+1)
		}
	}
	if errors.As(err, &nf) && nf.Ambiguous && len(nf.Candidates) > 0 && (p.catModel.ID != "" || p.modelNamedAfter(p.i+1)) {
		// "an internal code assistant … Qwen2.5-Coder-32B": a family word
		// in a sentence around the model named
		p.skipped = append(p.skipped, t.raw)
		p.i++
		return true, nil
	}
	if errors.As(err, &nf) && nf.Ambiguous && len(nf.Candidates) > 0 && len(reqNorm(t.w)) >= 3 {
		c := nf.Candidates
		msg := en.Tf("model `%s` matches several: `%s` — say which", reqShort(t.raw), strings.Join(c, "`, `"))
		if len(c) > 5 {
			msg = en.Tf("model `%s` matches several: `%s` and %d more — say which", reqShort(t.raw), strings.Join(c[:5], "`, `"), len(c)-5)
			c = c[:5]
		}
		return true, said(msg, &UserError{
			Hint: p.fix(p.i, p.i+1, c[0]),
		})
	}
	return false, nil
}

// modelInSpan reports whether a token of [a, b) names a catalogue model
// with its size on its own ("deepseek-r1-distill-qwen-32b"; not "solar",
// a family said alone).
func (p *reqParser) modelInSpan(a, b int) bool {
	for k := a; k < b && k < len(p.toks); k++ {
		sized := slices.ContainsFunc(nameParts(p.toks[k].w), func(w string) bool { _, ok := paramSize(w); return ok })
		if m, _, err := p.cat.Model(p.toks[k].w); err == nil && m.ID != "" && sized {
			return true
		}
	}
	return false
}

// modelNamedAfter reports whether a token from k on names one catalogue
// model exactly.
func (p *reqParser) modelNamedAfter(k int) bool {
	for ; k < len(p.toks); k++ {
		if m, _, err := p.cat.Model(p.toks[k].w); err == nil && m.ID != "" && len(p.toks[k].w) >= 4 {
			return true
		}
	}
	return false
}

func (p *reqParser) setModel(m planner.Model, res planner.Resolution, a, b int) error {
	if p.model.set && p.model.v != "cat:"+m.ID && p.catModel.ID != "" && p.earlier == nil {
		// a second model: "we ran X at 9 h/epoch; now Y", "X or Y… going
		// with Y" — both kept, pickModel decides which is planned
		p.earlier = &namedModel{m: p.catModel, word: p.model.word, at: p.modelAt, end: p.modelEnd}
		p.secondA, p.secondB = a, b
		p.model = reqSlot[string]{}
	}
	if p.model.set && strings.HasPrefix(p.model.v, "params:") && p.params > 0 && math.Abs(m.Params()/p.params-1) < 0.1 {
		// "70b 모델 qlora … 모델은 llama 3.1 70b": the size said first, then
		// the model of that size it meant
		p.model, p.params = reqSlot[string]{}, 0
	}
	if err := reqSet(p, &p.model, "cat:"+m.ID, a, b, "models"); err != nil {
		return err
	}
	if p.catModel.ID != m.ID {
		p.catModel, p.modelAt = m, a
	}
	p.modelEnd, p.lastMention = b, a // the last mention: "… 일단 qwen2.5 14b로 할게요"
	p.noteRes(res)
	p.i = b
	return nil
}

// namedModel is a catalogue model the request named, and where.
type namedModel struct {
	m       planner.Model
	word    string
	at, end int
}

// sentenceBetween reports whether a sentence ends between tokens a and b:
// a full stop, question or exclamation mark, or a line break.
func (p *reqParser) sentenceBetween(a, b int) bool {
	if a < 0 || a >= b || b >= len(p.toks) {
		return false
	}
	return strings.ContainsAny(p.text[p.toks[a].end:p.toks[b].start], ".?!\n。")
}

// pickModel settles a request that names two catalogue models. With a
// measured run, the model named nearest before it is the run's (so "we ran
// qwen2.5 3b at 1.8 h/epoch … for qwen2.5 7b" and "for qwen2.5 7b …? we ran
// qwen2.5 3b at 1.8 h/epoch" both plan the 7B from the 3B's run); without
// one, the last model named is the one to plan, the first its context.
//
// Two models with neither a measured run nor a sentence between them
// ("bert-base gpt2", "bert-base compare on bert-large") are a question back.
func (p *reqParser) pickModel() error {
	if p.earlier == nil {
		if p.distill && p.model.set && !p.distillNoted {
			p.note(en.T("distillation: planned as training the model named; the teacher's forward passes over the data are not in it (name both: `distill <teacher> into <student>`)"))
		}
		return nil
	}
	first, last := *p.earlier, namedModel{m: p.catModel, word: p.model.word, at: p.modelAt, end: p.modelEnd}
	if p.distill && p.req.Baseline == nil {
		student, teacher := last, first
		if first.m.Params() < last.m.Params() {
			student, teacher = first, last
		}
		p.distillNote(student.m.ID, teacher.m.ID)
		p.catModel, p.modelAt = student.m, student.at
		p.model = reqSlot[string]{v: "cat:" + student.m.ID, word: student.word, set: true}
		return nil
	}
	if p.req.Baseline == nil && !p.sentenceBetween(first.end-1, p.lastMention) {
		return said(en.Tf("two %s: `%s` and `%s` — which one?", pluralText("models"), first.word, p.span(p.secondA, p.secondB)), &UserError{
			Hint: p.try(p.secondA, p.secondB, ""),
		})
	}
	plan, ran := last, first
	if b := p.req.Baseline; b != nil {
		if p.baselineAt > last.at {
			plan, ran = first, last
		}
		m := ran.m
		b.Model = &m
		p.note(en.Tf("`%s` read as the model of your measured run, `%s` as the one to plan", ran.word, plan.word))
	} else {
		p.note(en.Tf("`%s` and `%s` both named: planned `%s`, the last one", first.word, last.word, last.word))
	}
	p.catModel, p.modelAt = plan.m, plan.at
	p.model = reqSlot[string]{v: "cat:" + plan.m.ID, word: plan.word, set: true}
	return nil
}

// siblingModel is the catalogue model of the same family as the one
// named, at another size: "llama-2-7b … 이번엔 13b로" is llama-2-13b, "the
// 70b version" of llama-3.1-8b is llama-3.1-70b.
func (p *reqParser) siblingModel(size string) (planner.Model, bool) {
	id := p.catModel.ID
	if id == "" {
		return planner.Model{}, false
	}
	size = strings.ToLower(size)
	for _, part := range nameParts(id) {
		if n := len(part); n < 2 || (part[n-1] != 'b' && part[n-1] != 'm') || part[0] < '0' || part[0] > '9' || part == size {
			continue
		}
		m, _, err := p.cat.Model(strings.Replace(id, part, size, 1))
		if err == nil && m.ID != id {
			return m, true
		}
	}
	return planner.Model{}, false
}

// nameParts cuts a model name into the parts people name it by: letters,
// version numbers and sizes ("llama3.1-8b" → llama 3.1 8b, "qwen2.5" →
// qwen 2.5). A size keeps its letter ("8b", "4k"); a version may carry a
// "v" ("v3" → 3).
func nameParts(s string) []string {
	// The parts are substrings of the lowered name: names are ASCII, and a
	// byte of a multi-byte rune is neither a letter nor a digit here.
	s = strings.ToLower(s)
	parts := make([]string, 0, 4)
	start, kind := -1, 0 // the current part's first byte (-1: none); 1 letters, 2 digits
	flush := func(i int) {
		if start >= 0 && i > start {
			parts = append(parts, s[start:i])
		}
		start, kind = -1, 0
	}
	letter := func(i int) bool { return i < len(s) && s[i] >= 'a' && s[i] <= 'z' }
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case letter(i):
			// a size letter right after digits stays with them: "8b", "4k", "32k"
			if kind == 2 && !letter(i+1) {
				continue
			}
			if kind != 1 {
				flush(i)
				start = i
			}
			kind = 1
		case b >= '0' && b <= '9' || b == '.' && kind == 2:
			if kind != 2 {
				// "v3", "r1" are names as typed: keep "r1" whole, drop the "v"
				if cur := s[max(start, 0):i]; kind == 1 && (cur == "r" || cur == "v" && len(parts) > 0) {
					if cur == "v" {
						start = i
					}
					kind = 2
					continue
				}
				flush(i)
				start = i
			}
			kind = 2
		default:
			flush(i)
		}
	}
	flush(len(s))
	return parts
}

// fuzzyModel reads a model named in loose words — "qwen 7b", "llama 3 8b",
// "phi-3 mini", "deepseek r1 distill qwen 32b", "vit large" — by matching
// the words' parts against each catalogue id's parts. The longest run of
// words (up to six) whose parts all belong to one model family wins;
// among equals, the model with the fewest parts left unsaid, then the
// newest in the catalogue. It reports the model and how many tokens it
// took.
func (p *reqParser) fuzzyModel() (planner.Model, int, bool) {
	ix := modelNameIndex(p.cat)
	type cand struct {
		id     string
		parts  []string
		family string
	}
	cands := make([]cand, 0, len(ix.names))
	for i, n := range ix.names {
		if ps := ix.parts[i]; len(ps) > 0 {
			cands = append(cands, cand{n, ps, ps[0]})
		}
	}
	for n := min(6, len(p.toks)-p.i); n >= 1; n-- {
		var words []string
		ok := true
		for _, t := range p.toks[p.i : p.i+n] {
			if strings.HasPrefix(t.w, "ds-") || t.w == "ds" {
				// "ds-r1-distill-…": DeepSeek, as people abbreviate it
				words = append(words, "deepseek")
				if t.w == "ds" {
					continue
				}
				words = append(words, nameParts(strings.TrimPrefix(t.w, "ds-"))...)
				continue
			}
			if t.w == "," || reqKeywords[t.w].kind != 0 && t.w != "base" && !p.modelPartWord(t.w) {
				ok = false
				break
			}
			words = append(words, nameParts(t.w)...)
		}
		if !ok || len(words) == 0 {
			continue
		}
		best, bestExtra, tie := -1, 1<<30, false
		for k, c := range cands {
			typo := 0
			switch {
			case c.family == words[0] || len(words[0]) >= 4 && strings.HasPrefix(c.family, words[0]) || familyTypo(words[0], c.family):
				// the family, a prefix of it, or a typo of it ("lamma", "deepsek", "llma", "qwne")
				if !partsSubset(words[1:], c.parts[1:]) {
					continue
				}
				if c.family != words[0] && !strings.HasPrefix(c.family, words[0]) {
					typo = 1 << 20 // a family said right beats one a typo away ("llama 13b" is no LLaVA)
				}
			case len(words) >= 3 && partsSubset(words, c.parts[1:]):
				// "r1 distill qwen 14b": the family left out
			default:
				continue
			}
			extra := len(c.parts) - len(words) + typo
			switch {
			case extra < bestExtra:
				best, bestExtra, tie = k, extra, false
			case extra == bestExtra:
				// the version was not said: the earlier release ("qwen 14b" is
				// qwen2.5-14b, not qwen3-14b; "gemma 27b" gemma-2-27b), and the
				// reading shows which, so a person adds the version if not
				tie = true
				if modelVersion(c.parts) < modelVersion(cands[best].parts) {
					best = k
				}
			}
		}
		if best < 0 {
			continue
		}
		if n == 1 && (len(words) == 1 || tie && !glued(words)) {
			return planner.Model{}, 0, false // one bare family name: the catalogue's own reading decides
		}
		m, _, err := p.cat.Model(cands[best].id)
		if err != nil {
			return planner.Model{}, 0, false
		}
		return m, n, true
	}
	return planner.Model{}, 0, false
}

// familyTypo reports whether w is a typo of a model family's name: the
// same first letter and, for five letters or more, two edits at most
// ("lamma", "deepsek"); for four, one letter left out of a longer name
// ("llma", "gema") or two letters swapped ("qwne"), not one changed
// ("bart" is another model, not BERT).
func familyTypo(w, family string) bool {
	if len(w) < 4 || w[0] != family[0] {
		return false
	}
	if len(w) >= 5 {
		return osa(w, family) <= 2
	}
	if osa(w, family) != 1 {
		return false
	}
	return len(family) > len(w) || len(family) == len(w) && swapped(w, family)
}

// swapped reports whether a and b, of the same length, differ by two
// neighbouring letters swapped.
func swapped(a, b string) bool {
	for i := 0; i+1 < len(a); i++ {
		if a[i] != b[i] {
			return a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
		}
	}
	return false
}

// familySize reads a family the catalogue knows with a size it does not
// hold under the version said ("llama 3 405b", "deepseek-coder 6.7b",
// "mistral 22b"). Another version of the family with that size is taken
// and shown ("llama 3 405b" is llama-3.1-405b); failing that, the size is
// planned as a model of that many parameters, said in the notes — never a
// different size of the family.
func (p *reqParser) familySize() (bool, error) {
	ix := modelNameIndex(p.cat)
	for n := min(4, len(p.toks)-p.i); n >= 1; n-- {
		var words []string
		for _, t := range p.toks[p.i : p.i+n] {
			if t.w == "," || reqKeywords[t.w].kind != 0 && !p.modelPartWord(t.w) {
				words = nil
				break
			}
			words = append(words, nameParts(t.w)...)
		}
		if len(words) < 2 {
			continue
		}
		size, ok := paramSize(words[len(words)-1])
		if next := p.tok(p.i + n).w; !ok || size < 10e6 || reqUnitClass(next) > reqUUnknown && reqKeywords[next].kind != reqKwPrecision || next == "params" || next == "parameters" {
			continue // "gpt2 1.2B tokens", "bert-base 7b params": an amount, or a size said as its own model
		}
		words = dropVersionV(words)
		rest := words[1 : len(words)-1]
		if len(rest) == 0 {
			if ok, err := p.newestVersion(ix, words, n); ok {
				return true, err
			}
		}
		familyKnown, exact := false, false
		var relaxed []string // ids whose version starts with the one said
		var family []string  // ids of the family said, at any size
		var otherVersion []string
		for i, ps := range ix.parts {
			if len(ps) == 0 || ps[0] != words[0] {
				continue
			}
			if partsSubset(words[1:], ps[1:]) {
				exact = true
				break
			}
			if partsSubset(rest, ps[1:]) {
				familyKnown = true
				family = append(family, ix.names[i])
			}
			if versionPrefixed(rest, ps[1:]) && partsSubset(words[len(words)-1:], ps[1:]) {
				relaxed = append(relaxed, ix.names[i])
			}
			if nv := unversioned(rest); len(nv) < len(rest) && partsSubset(append(nv, words[len(words)-1]), ps[1:]) {
				otherVersion = append(otherVersion, ix.names[i])
			}
		}
		if !exact && !familyKnown && len(relaxed) == 0 && len(otherVersion) > 0 {
			// "exaone 3.0 7.8b": a version the catalogue lacks, at a size
			// another version of the family has: that one, said so
			m, _, err := p.cat.Model(otherVersion[0])
			if err == nil {
				p.note(en.Tf("`%s` is not in the catalogue: planned as %s, the same family at the same size", p.span(p.i, p.i+n), m.ID))
				return true, p.setModel(m, planner.Resolution{}, p.i, p.i+n)
			}
		}
		if ok, err := p.gluedModel(words, n, exact, !exact && familyKnown && len(relaxed) == 0); ok {
			return true, err
		}
		if !exact && !familyKnown && len(relaxed) == 0 && len(rest) > 0 && len(rest) <= 2 && familyName(p.cat, words[0]) && size >= 100e6 && !p.modelInSpan(p.i, p.i+n) {
			// "solar pro 22b": a member the catalogue lacks, at a size none
			// of the family has: a dense model of that size, said so
			return true, p.familyAtSize(nil, size, n)
		}
		switch {
		case exact:
			return false, nil // the catalogue has it: the usual readers take it
		case len(relaxed) > 0:
			m, _, err := p.cat.Model(relaxed[0])
			if err != nil {
				return false, nil
			}
			return true, p.setModel(m, p.readAsNote(p.i, p.i+n, m), p.i, p.i+n)
		case familyKnown:
			return true, p.familyAtSize(family, size, n)
		}
	}
	return false, nil
}

// paramSize reads a model size part ("6.7b", "405b", "350m").
func paramSize(w string) (float64, bool) {
	mult := 0.0
	switch {
	case strings.HasSuffix(w, "b"):
		mult = 1e9
	case strings.HasSuffix(w, "m"):
		mult = 1e6
	default:
		return 0, false
	}
	v, err := strconv.ParseFloat(w[:len(w)-1], 64)
	if err != nil || v <= 0 {
		return 0, false
	}
	return v * mult, true
}

// versionPrefixed reports whether the words said match have's parts with
// a version said short ("3" for "3.1"): every said word is a part, or a
// version the part starts with.
func versionPrefixed(said, have []string) bool {
	used := make([]bool, len(have))
	for _, w := range said {
		found := false
		for k, h := range have {
			if used[k] {
				continue
			}
			if partMatch(w, h) || isVersion(w) && isVersion(h) && strings.HasPrefix(h, w+".") {
				used[k], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// unversioned is words less the version numbers among them.
func unversioned(words []string) []string {
	var out []string
	for _, w := range words {
		if !isVersion(w) {
			out = append(out, w)
		}
	}
	return out
}

func isVersion(w string) bool {
	_, err := strconv.ParseFloat(w, 64)
	return err == nil
}

// partsSubset reports whether every part of want is among have (each used
// once).
func partsSubset(want, have []string) bool {
	used := make([]bool, len(have))
	for _, w := range want {
		found := false
		for k, h := range have {
			if !used[k] && partMatch(w, h) {
				used[k], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// osa is the optimal-string-alignment distance: insertions, deletions,
// substitutions and adjacent transpositions each cost 1 ("finetnue" is one
// from "finetune").
func osa(a, b string) int {
	// Three rows of the distance table (the transposition looks two rows
	// back), on the stack for words as people type them: the readers call
	// it for every unknown word against every keyword of its length.
	var ab, bb [32]rune
	var rows [3][33]int
	ra, rb := appendRunes(ab[:0], a), appendRunes(bb[:0], b)
	var pp, prev, cur []int
	if len(rb) < len(rows[0]) {
		pp, prev, cur = rows[0][:len(rb)+1], rows[1][:len(rb)+1], rows[2][:len(rb)+1]
	} else {
		pp, prev, cur = make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)
	}
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], pp[j-2]+1)
			}
		}
		pp, prev, cur = prev, cur, pp
	}
	return prev[len(rb)]
}

// appendRunes appends s's runes to buf.
func appendRunes(buf []rune, s string) []rune {
	for _, r := range s {
		buf = append(buf, r)
	}
	return buf
}

// modelVersion is the first plain number among a model name's parts after
// its family ("qwen 2.5 14b" → 2.5); a name without one counts as version 0.
func modelVersion(parts []string) float64 {
	for _, p := range parts[1:] {
		if v, err := strconv.ParseFloat(p, 64); err == nil {
			return v
		}
	}
	return 0
}

// readAsNote says which model loose words were read as, unless they were
// its id already.
func (p *reqParser) readAsNote(a, b int, m planner.Model) planner.Resolution {
	words := p.span(a, b)
	if strings.EqualFold(words, m.ID) {
		return planner.Resolution{}
	}
	return planner.Resolution{Note: fmt.Sprintf("`%s` read as %s", words, m.ID), Name: words, As: m.ID}
}

// partMatch reports whether a typed name part is a catalogue name part:
// the same, "3" for "3.0", a size letter for its word ("l" for large, "b"
// for base: "vit-l/14"), or a word cut short ("distil" for distill).
func partMatch(w, h string) bool {
	if h == w || w == strings.TrimSuffix(h, ".0") {
		return true
	}
	switch h {
	case "large", "base", "huge", "small", "tiny", "medium", "mini":
		if len(w) == 1 && w[0] == h[0] {
			return true
		}
	}
	return len(w) >= 5 && len(h) > len(w) && strings.HasPrefix(h, w)
}

// modelPartWord reports whether a keyword is also a part of some catalogue
// model's name ("nemo" in mistral-nemo-12b).
func (p *reqParser) modelPartWord(w string) bool {
	return modelNameIndex(p.cat).inner[w]
}

// isParamSize reports whether w is a model size ("32b", "350m") and not
// an amount said with it ("32b tokens" reads the size and its unit apart).
func isParamSize(w string) bool {
	size, ok := paramSize(w)
	return ok && size >= 10e6
}

// gluedModel reads a family and a size said as one word: "qwen7b",
// "llama8b" (read like the two words, the earlier release on a tie), and a
// version glued to the size ("라마38b", "llama370b": "3" + "8b") when the
// family has no model of the glued size (onlyFamily).
func (p *reqParser) gluedModel(words []string, n int, exact, onlyFamily bool) (bool, error) {
	if onlyFamily {
		if v, s, ok := splitVersionSize(words[len(words)-1]); ok {
			said := append(append(append([]string(nil), words[:len(words)-1]...), v), s)
			if m, _, err := p.cat.Model(strings.Join(said, " ")); err == nil {
				return true, p.setModel(m, p.readAsNote(p.i, p.i+n, m), p.i, p.i+n)
			}
		}
	}
	if exact && n == 1 && len(words) == 2 {
		if m, fn, ok := p.fuzzyModel(); ok && fn == 1 {
			return true, p.setModel(m, p.readAsNote(p.i, p.i+1, m), p.i, p.i+1)
		}
	}
	return false, nil
}

// splitVersionSize cuts a size with a version glued before it: "38b" →
// "3", "8b"; "370b" → "3", "70b". Only a one-digit version is cut off.
func splitVersionSize(w string) (version, size string, ok bool) {
	if len(w) < 3 || !reqIsDigit(w[0]) || !reqIsDigit(w[1]) {
		return "", "", false
	}
	if _, isSize := paramSize(w[1:]); !isSize {
		return "", "", false
	}
	return w[:1], w[1:], true
}

// glued reports a family and a size said as one word ("llama8b",
// "qwen14b"): read like the two words, the earlier release on a tie.
func glued(words []string) bool {
	if len(words) != 2 {
		return false
	}
	_, ok := paramSize(words[1])
	return ok
}

// weighedWord reports whether w names something a plan is judged by
// ("quality/memory tradeoff", "time/cost"): a slash between two of them
// is "and", never a Hub id.
func weighedWord(w string) bool {
	switch w {
	case "quality", "memory", "vram", "time", "cost", "costs", "price", "speed", "throughput", "latency", "accuracy",
		"performance", "perf", "tradeoff", "tradeoffs", "size", "power":
		return true
	}
	return false
}

// dropVersionV drops a "v" said before a version's number ("deepseek v3"
// as typed splits into deepseek, v, 3), as the catalogue's names are
// split (deepseek-v3 is deepseek, 3).
func dropVersionV(words []string) []string {
	var out []string
	for k, w := range words {
		if w == "v" && k+1 < len(words) && isVersion(words[k+1]) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// familyAtSize plans the member of family the size said names, the one
// with the fewest words beside those said ("deepseek v2 lite 16b" is
// deepseek-v2-lite, not deepseek-coder-v2-lite; "deepseek r1 671b": the
// catalogue's model is that size, its id just does not say it); failing
// that, a model of that many parameters, said in the notes.
func (p *reqParser) familyAtSize(family []string, size float64, n int) error {
	a := p.i
	slices.SortStableFunc(family, func(x, y string) int { return len(nameParts(x)) - len(nameParts(y)) })
	for _, id := range family {
		if m, _, err := p.cat.Model(id); err == nil && math.Abs(m.Params()/size-1) < 0.03 {
			return p.setModel(m, p.readAsNote(a, a+n, m), a, a+n)
		}
	}
	if err := p.setParams(size, a, a+n); err != nil {
		return err
	}
	p.note(en.Tf("`%s` is not in the catalogue: planned as a %s-parameter model of the usual shape", p.span(a, a+n), reqParamsText(size)))
	p.i = a + n
	return nil
}

// distillNote says a distillation is planned as the student's training,
// and that the teacher's forward passes come on top.
func (p *reqParser) distillNote(student, teacher string) {
	p.note(en.Tf("distillation: planned as training the student `%s`; the teacher `%s` also runs forward over every sample (plan that with `%s inference …`, or precompute its outputs once)", student, teacher, teacher))
	p.distillNoted = true
}
