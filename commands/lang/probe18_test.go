package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Readings left from the earlier probes' lists: hardware taken back ("on
// a Mac? no wait, on a 4090", "a100에서, 아 아니 h100"), and a speech
// model's rate asked without "how many" ("hours of audio per hour?").
func TestTakenBackAndAudioRate(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 28, 14, 0, 0, 0, time.UTC)}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"llama 3 8b inference on a Mac? no wait, on a 4090", "llama-3-8b · inference · on 1x rtx-4090"},
		{"llama 3 8b lora on a100, actually make it h100", "llama-3-8b · lora · on 1x h100-sxm5-80gb"},
		{"qwen2.5 7b lora a100에서, 아 아니 h100 2장으로 몇시간?", "qwen2.5-7b · lora · on 2x h100-sxm5-80gb · how long?"},
		{"whisper large v3 on an a10: hours of audio per hour?", "whisper-large-v3 · inference · on 1x a10 · how fast?"},
	})
	// "actually" with no hardware taken back changes nothing
	r, err := Read(env, "a100 vs h100 for llama 3 8b lora, which is actually faster?")
	if err != nil || len(r.Request.Targets) != 2 {
		t.Errorf("a comparison with 'actually' in its question: %v (%v); want both GPUs", r.Request.Targets, err)
	}
}
