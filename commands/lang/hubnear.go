package lang

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// hubNearest names the catalogue models nearest a Hub id's model name, for
// a refusal: by the name's parts (family, variant, size: "Mistral-Nemo-
// Base-2407" shares mistral and nemo with mistral-nemo-12b), which an edit
// distance misses once an org adds a suffix; the spelling distance breaks
// ties and answers when no part is shared.
func hubNearest(name string, names []string, n int) []string {
	parts := hubNameParts(name)
	if len(parts) == 0 {
		return nil
	}
	type scored struct {
		name  string
		score int
		gap   float64 // how far its size is from the size said (log ratio); 0 when either has none
		d     int
	}
	said := partsSize(parts)
	var all []scored
	for _, c := range names {
		cp := hubNameParts(c)
		if len(cp) == 0 || !slices.Contains(parts, cp[0]) {
			continue // another family is not near, whatever it shares
		}
		score := 0
		for _, p := range cp {
			for _, q := range parts {
				if p == q {
					score++
					break
				}
			}
		}
		gap := 0.0
		if have := partsSize(cp); said > 0 && have > 0 {
			gap = math.Abs(math.Log(have / said))
		}
		all = append(all, scored{c, score, gap, planner.Levenshtein(strings.ToLower(name), c)})
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].score != all[j].score {
			return all[i].score > all[j].score
		}
		if all[i].gap != all[j].gap {
			return all[i].gap < all[j].gap // "gemma-ko-7b": the 9B before the 1B
		}
		return all[i].d < all[j].d
	})
	var out []string
	for _, s := range all {
		if len(out) == n {
			break
		}
		out = append(out, s.name)
	}
	if len(out) == 0 {
		return planner.Nearest(name, names, n)
	}
	return out
}

// hubNameParts cuts a model name into lower-case parts at '-', '_', '.' and
// where letters meet digits in a family name ("llama3" → llama 3, "qwen2"
// → qwen 2), so Hub and catalogue spellings meet.
func hubNameParts(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' }) {
		i := 0
		for i < len(f) && f[i] >= 'a' && f[i] <= 'z' {
			i++
		}
		if i > 1 && i < len(f) && f[i] >= '0' && f[i] <= '9' && len(out) == 0 {
			out = append(out, f[:i], f[i:])
			continue
		}
		out = append(out, f)
	}
	return out
}

// partsSize is the parameter count a name's parts give ("7b"), 0 for none.
func partsSize(parts []string) float64 {
	for _, w := range parts {
		if v, ok := paramSize(w); ok {
			return v
		}
	}
	return 0
}
