package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Readings found wanting in the 2026-11-28 evening session: "generate" as
// a verb (inference, not a missing `gen` count), "speed" asking a rate, a
// rate asked of training staying training ("a model I trained" is served),
// four-letter typos of a family ("llma", "gema", "qwne"; "bart" is
// another model, not BERT), a GPU before its rate's noun ("4090 토큰
// 속도", "4090 token speed": the card, not 4,090 tokens), and a measured
// rate said in words ("500 tokens per second on a100").
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
		{"llama3 8b 4090 토큰 속도", "llama-3-8b · inference · on 1x rtx-4090 · how fast?"},
		{"llama 3 8b 4090 token speed?", "llama-3-8b · inference · on 1x rtx-4090 · how fast?"},
		{"mistral 7b token rate on a 4090", "inference · on 1x rtx-4090 · how fast?"},
		{"we get 500 tokens per second on a100, llama 8b, how fast on h100?", "baseline 500 tokens/s on 1x a100-sxm4-80gb · on 1x h100-sxm5-80gb"},
		{"llama 8b lora runs at 2000 tokens per second on 4090, how long for 1B tokens on 2x a100", "lora · 1B tokens · baseline 2000 tokens/s on 1x rtx-4090 · on 2x a100-sxm4-80gb"},
		{"resnet50 training 1200 images per second on a100, h100은?", "baseline 1200 samples/s on 1x a100-sxm4-80gb"},
	})
	if r, err := Read(env, "bart large finetune on a100"); err == nil {
		t.Errorf("bart large read as %s: BART is not in the catalogue, and is not BERT", r.Request.Job.Model.ID)
	}
}
