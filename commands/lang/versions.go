package lang

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// newestVersion reads the n words at p.i, a family and a size with no
// version, as the newest version the catalogue holds at that size, said
// in a note.
func (p *reqParser) newestVersion(ix *nameIndex, words []string, n int) (bool, error) {
	id := newestAtSize(ix, words[0], words[len(words)-1])
	if id == "" {
		return false, nil
	}
	m, _, err := p.cat.Model(id)
	if err != nil {
		return false, nil
	}
	p.note(en.Tf("`%s` names no version: read as %s, the newest of the family at that size (say the version for another)", p.span(p.i, p.i+n), m.ID))
	return true, p.setModel(m, planner.Resolution{}, p.i, p.i+n)
}

// newestAtSize is, for a family and a size said with no version ("llama
// 70b", "라마 8b"), the newest version the catalogue holds at that size
// when it holds several (Llama 2, 3, 3.1 and 3.3 at 70B: a team asking
// today means the newest); "" when it holds one, or when the ids differ
// by more than their version ("qwen 7b" beside a coder tune is not
// picked among them here).
func newestAtSize(ix *nameIndex, family, size string) string {
	best, bestV, count := "", []float64(nil), 0
	for i, ps := range ix.parts {
		if len(ps) < 3 || ps[0] != family || !partsSubset([]string{size}, ps[1:]) {
			continue
		}
		var ver []float64
		for _, w := range ps[1:] {
			if partMatch(size, w) {
				continue
			}
			if w == "v" {
				continue
			}
			if !isVersion(w) {
				ver = nil
				break
			}
			for _, f := range strings.Split(w, ".") {
				v, _ := strconv.ParseFloat(f, 64)
				ver = append(ver, v)
			}
		}
		if ver == nil {
			continue
		}
		count++
		if best == "" || slices.Compare(ver, bestV) > 0 {
			best, bestV = ix.names[i], ver
		}
	}
	if count < 2 {
		return ""
	}
	return best
}

// chatMember is the family member a chatbot is planned on when the
// family is said alone: among members of 6-10B parameters, the newest
// version (its number after the family's name: Llama 3.1 over 3, Qwen3
// over 2.5), the plain one first.
func (p *reqParser) chatMember(ids []string) (planner.Model, bool) {
	var best planner.Model
	bestV := -1.0
	for _, id := range ids {
		m, _, err := p.cat.Model(id)
		if err != nil || m.Params() < 6e9 || m.Params() > 10e9 || m.Kind != planner.Decoder {
			continue
		}
		v := familyVersionOf(id)
		if v > bestV || v == bestV && len(id) < len(best.ID) {
			best, bestV = m, v
		}
	}
	return best, best.ID != ""
}

// familyVersionOf is the version number after a model id's family letters
// ("llama-3.1-8b": 3.1, "qwen2.5-7b": 2.5, "gemma-2-9b": 2); 0 when none
// ("mistral-7b-v0.1": the 7 is a size).
func familyVersionOf(id string) float64 {
	rest := strings.TrimLeft(strings.TrimLeft(id, "abcdefghijklmnopqrstuvwxyz"), "-")
	end := strings.IndexFunc(rest, func(r rune) bool { return r != '.' && (r < '0' || r > '9') })
	if end < 0 {
		end = len(rest)
	}
	if end < len(rest) && (rest[end] == 'b' || rest[end] == 'm') {
		return 0 // a size, not a version
	}
	v, err := strconv.ParseFloat(rest[:end], 64)
	if err != nil {
		return 0
	}
	return v
}
