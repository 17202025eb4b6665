package lang

import (
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

// The GPUs the asker has, said beside a count question, make the count
// asked how many of them the job takes; a time or users had, or a count
// said without a count question, keep their reading.
func TestCountHave(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, c := range []struct {
		text string
		have int
		ask  Ask
	}{
		{"qwen 72b lora h100 8장 중에 몇 장 필요해?", 8, AskCount},
		{"qwen 72b lora 하려는데 h100 8장 다 필요함?", 8, AskCount},
		{"qwen 72b lora: how many h100s do we need, we have 8", 8, AskCount},
		{"do we need all 8 h100s for qwen 72b lora?", 8, AskCount},
		{"llama 3 70b full finetune, how many of our 6 a100s do we need?", 6, AskCount},
		{"how many of the 16 h100 gpus does llama 3 70b lora need", 16, AskCount},
		// not a count question, or not GPUs had
		{"llama 3 8b lora on 8x h100, how long for 1B tokens? we have 3 days", 0, AskTime},
		{"llama 3 8b lora on all 8 h100s, how long for 1B tokens", 0, AskTime},
		{"h100 8장으로 llama 3 70b lora 얼마나 걸려?", 0, AskTime},
	} {
		r, err := Read(Env{Catalog: cat}, c.text)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		if r.CountHave != c.have || r.Ask != c.ask {
			t.Errorf("%q: have %d ask %s, want have %d ask %s", c.text, r.CountHave, r.Ask, c.have, c.ask)
		}
		if c.have > 0 && (!r.CountOpen || len(r.Request.Targets) != 1) {
			t.Errorf("%q: the count is not left open on one GPU: %+v", c.text, r.Request.Targets)
		}
	}
}
