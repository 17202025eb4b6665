package lang

import (
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// GPUsNamed is the catalogue GPUs a sentence names, in order and once
// each, as the request language reads them: spelled in Hangul ("에이100"),
// with a particle after them ("h100이랑", "a100 중에"), or as written.
func GPUsNamed(cat *planner.Catalog, text string) []planner.GPU {
	isGPU := func(w string) bool { _, _, err := cat.GPU(w); return err == nil }
	var out []planner.GPU
	seen := map[string]bool{}
	for _, t := range respellKorean(reqTokenize(reqNormalize(text)), isGPU) {
		w := strings.ToLower(t.w)
		if !isGPU(w) {
			w = strings.TrimRightFunc(w, isHangul) // "h100이랑", "a100은"
		}
		g, _, err := cat.GPU(w)
		if w == "" || err != nil || seen[g.ID] {
			continue
		}
		seen[g.ID] = true
		out = append(out, g)
	}
	return out
}
