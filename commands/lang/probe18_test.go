package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Readings probe 18 (100 requests in every style, written blind on the
// build after probe 17's fixes, 2026-11-28) found wanting, with the fixes'
// tests: a budget in 천만원 (read as thirty million GPUs); a range of model
// sizes ("7B~13B": the largest); "이미지넷 1k" (the dataset's name, not a
// size); "our deadline is next Friday"; "memory on T4" after three
// formats; "DPO-train"; "Rerank"; Zephyr by name; "500 ms time to first
// token" as a target; "토큰 생성 속도 초당 100토큰".
func TestProbeEighteenReadings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 28, 14, 0, 0, 0, time.UTC)}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"예산 3천만원으로 서버 사려는데 4090 여러장 vs A6000 몇장, 7B~13B 파인튜닝용으로 뭐가 나아요?", "13B params · finetune · compare rtx-4090, rtx-a6000"},
		{"llama 3 8b lora 예산 3천만원", "budget $21097"},
		{"7-13b models lora on a100", "13B params · lora"},
		{"ViT-B/16 이미지넷 1k 300에폭 학습 A100 8장 몇일 걸림?", "300 epochs of 1.281167M samples (imagenet-1k) · on 8x a100-sxm4-80gb · how long?"},
		{"Our deadline is next Friday. Can we finish a LoRA r=32 finetune of Llama 3.1 70B on 200k examples using server-h?", "how long to finish within"},
		{"Llama 3 8B int8 vs fp16 vs int4 memory on T4", "int8 vs fp16 vs int4 · on 1x t4 · will it fit?"},
		{"What's the cost in dollars to DPO-train Zephyr 7B on 60k preference pairs on H100s?", "mistral-7b-v0.1 · finetune (assumed) · of 60000 samples · dpo"},
		{"Rerank 1M query-doc pairs with bge-reranker-large on L4, latency?", "xlm-roberta-large · inference"},
		{"Serving Llama 3.1 8B with 100 concurrent users, 500 ms time to first token, how many L4s?", "first token within 500 ms"},
		{"라마3 8b 토큰 생성 속도 초당 100토큰 이상 나오려면 어떤 gpu 사야돼?", "output-rate 100 tok/s"},
		// a rank and a GGUF type compared; the widest format that fits asked
		{"llama 3 8b qlora r=8 vs r=64 memory on 4090", "r=8 vs r=64 · on 1x rtx-4090"},
		{"GGUF Q8_0 vs Q4_K_M for Llama 3 8B on RTX 3090, speed and quality tradeoff?", "Q8_0 vs Q4_K_M · on 1x rtx-3090"},
		{"gemma 3 27b 를 4090에 올릴려면 몇비트 양자화 해야댐?", "gemma-3-27b · inference · on 1x rtx-4090 · which bit width fits?"},
		{"how many bits to fit llama 3 70b on 2x 3090?", "llama-3-70b · inference · on 2x rtx-3090 · which bit width fits?"},
	})
}

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
