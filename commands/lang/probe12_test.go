package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Readings found wanting in the 2026-11-28 evening session: "generate" as
// a verb (inference, not a missing `gen` count), "speed" asking a rate, a
// rate asked of training staying training ("a model I trained" is served),
// and four-letter typos of a family ("llma", "gema", "qwne"; "bart" is
// another model, not BERT).
func TestProbeTwelveReadings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 28, 18, 0, 0, 0, time.UTC)}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"llama 2 7b generate with transformers on a100 40gb, batch 1", "llama-2-7b · inference · batch 1 · hf"},
		{"generation speed of qwen2.5 7b on 3090?", "qwen2.5-7b · inference · on 1x rtx-3090 · how fast?"},
		{"mistral 7b inference, generate 256 tokens, on l4", "gen 256"},
		{"training bert-base on a100, how fast", "bert-base-uncased · finetune (assumed)"},
		{"llama 3 8b i trained, how fast does it run on a 4090", "llama-3-8b · inference"},
		{"llma 3.1 8b lora on a100", "llama-3.1-8b · lora"},
		{"gema 2 9b lora on a100", "gemma-2-9b · lora"},
		{"qwne 2.5 7b lora on a100", "qwen2.5-7b · lora"},
	})
	if r, err := Read(env, "bart large finetune on a100"); err == nil {
		t.Errorf("bart large read as %s: BART is not in the catalogue, and is not BERT", r.Request.Job.Model.ID)
	}
}
