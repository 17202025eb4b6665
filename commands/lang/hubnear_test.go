package lang

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

// A Hub id the Hub cannot answer for is refused with the catalogue's
// nearest models by family, variant and size, even when the org added a
// suffix an edit distance cannot see past; the first one is a suggestion
// that parses.
func TestHubRefusalNamesNearestModels(t *testing.T) {
	cat := planner.DefaultCatalog()
	offline := func(string) (planner.Model, error) { return planner.Model{}, errors.New("the Hub is unreachable") }
	for _, c := range []struct{ text, first, also string }{
		{"mistralai/Mistral-Nemo-Base-2407-foo inference on h100", "mistral-nemo-12b", "mistral"},
		{"meta-llama/Meta-Llama-3.1-8B-Instruct-abliterated lora on a100", "llama-3.1-8b", "llama-3"},
		{"someorg/Qwen3-30B-A3B-Instruct-2507-FP8 inference on h100", "qwen3-30b-a3b", "qwen3"},
		{"acme/gemma-3-27b-it-qat-q4_0-unquantized inference on h100", "gemma-3-27b", "gemma"},
		// the size said breaks ties between members of the family
		{"beomi/gemma-ko-7b lora on v100", "gemma-7b", "gemma"}, // Gemma 1 7B is its base
	} {
		_, err := Read(Env{Catalog: cat, Resolve: offline}, c.text)
		var ue *UserError
		if !errors.As(err, &ue) {
			t.Errorf("%q: want a refusal, got %v", c.text, err)
			continue
		}
		_, near, ok := strings.Cut(ue.Msg, "nearest: ")
		if !ok || !strings.HasPrefix(near, c.first) || strings.Count(near, c.also) < 2 {
			t.Errorf("%q: %s", c.text, ue.Msg)
		}
		next, ok := strings.CutPrefix(ue.Hint, "try: gpuplan plan ")
		if !ok {
			t.Errorf("%q: hint %q", c.text, ue.Hint)
		} else if _, err := Read(Env{Catalog: cat, Resolve: offline}, next); err != nil {
			t.Errorf("%q: suggestion %q does not parse: %v", c.text, next, err)
		}
	}
	// nothing of the family in the catalogue: no made-up neighbour
	if got := hubNearest("Baichuan2-13B-Chat", cat.ModelNames(), 3); len(got) > 0 {
		t.Errorf("baichuan: %v", got)
	}
}
