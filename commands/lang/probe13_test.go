package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Readings probe 13 (120 requests written blind, 2026-11-28) found
// wanting: a span of time the GPUs run for ("on 8 h100s for 2 days", "a100
// 4장 10시간" with its cost asked) is no measured run; an average length
// after a sample count ("10만개 평균 1000토큰") is each sample's length; a
// GPU's number before 시간 ("4090 시간 얼마나") is no duration; a size glued
// to its unit after a dataset ("openwebtext 9b토큰") is the size used; a
// version the catalogue lacks at a size it has ("exaone 3.0 7.8b");
// "multilingual bert" and 다국어; the money asked in won; "latency" after a
// model's size and a latency target said number first ("200ms latency");
// 실시간 처리 (real time) asking a rate; Gemma 7B, DeepSeek-Coder 6.7B and
// DeepSeek-V2-Lite, which the catalogue lacked.
func TestProbeThirteenReadings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"how much would it cost in KRW to lora train qwen2.5 72b on 8 h100s for 2 days", "qwen2.5-72b · lora · on 8x h100-sxm5-80gb · how many tokens in 2 days?"},
		{"llama 3 8b 학습 비용 원화로 얼마야? a100 4장 10시간", "on 4x a100-sxm4-80gb · how many tokens"},
		{"llama 3 8b lora a100 4장으로 10시간 돌리면 몇 토큰", "lora · on 4x a100-sxm4-80gb · how many tokens"},
		{"qwen2.5 7b 학습 데이터 10만개 평균 1000토큰 2에폭 h200 1장 얼마나 걸려요?", "2 epochs of 100000 samples · seq 1000"},
		{"llama3 8b lora 5만 문장 평균 512토큰 a100", "50000 samples · seq 512"},
		{"다국어 bert 학습 200만 문장 1에폭 4090 시간 얼마나", "bert-base-multilingual-cased · finetune (assumed) · 1 epoch of 2M samples · on 1x rtx-4090 · how long?"},
		{"multilingual bert finetune on a100", "bert-base-multilingual-cased · finetune"},
		{"gpt2 small 프리트레이닝 openwebtext 9b토큰 4090 한장 며칠", "pretrain · of 9B tokens (openwebtext) · on 1x rtx-4090 · how long?"},
		{"exaone 3.0 7.8b qlora 4090 2장 배치 8 시퀀스 2048", "exaone-3.5-7.8b · qlora"},
		{"mistral 7b latency per token on h100 with vllm", "mistral-7b-v0.1 · inference · vllm concurrency 1 · on 1x h100-sxm5-80gb · latency?"},
		{"llama 8b 200ms latency on h100", "latency within 200 ms"},
		{"llama 8b inference with <1s ttft on h100", "first token within 1 s"},
		{"whisper medium 추론 실시간 처리 a10 한장 가능?", "whisper-medium · inference · on 1x a10 · how fast?"},
		// models the catalogue lacked, now there from their configs; a
		// size said after the name that agrees with it is the model's own
		{"gemma 7b vllm 서빙 동시 100명 a100 2장이면 버틸까", "gemma-7b · inference · vllm concurrency 100"},
		{"deepseek coder 6.7b 추론 4bit 3060 12gb 에서 돌아감?", "deepseek-coder-6.7b · inference · int4"},
		{"deepseek-v2-lite 16b lora 학습 server-a 로 얼마나 걸려", "deepseek-v2-lite · lora · on 4x server-a · how long?"},
		// two models side by side with the particle glued to the first's
		// size, the second a family and a size
		{"llama3 8b랑 qwen 7b 중에 4090에서 lora 학습 더 빠른거?", "llama-3-8b · lora · llama3 8b vs qwen 7b · on 1x rtx-4090"},
	})
	if r, err := Read(env, "llama3 8b vs qwen2.5 7b lora on 4090, which is faster"); err != nil || r.Variant == nil || r.Ask == AskWhichGPU {
		t.Errorf("which of two models is faster: %+v %v; want the two side by side, no GPU asked", r.Ask, err)
	}
	// A bare time with nothing asked of it stays a measurement to move
	// into a baseline.
	if _, err := Read(env, "bert-base 36h on h100"); err == nil {
		t.Error("`bert-base 36h on h100` planned; want the measurement refusal")
	}
	for text, want := range map[string]bool{"resnet50 imagenet 학습 비용 h100 1장 90에폭 원화로": true, "cost in KRW of bert-base 3 epochs of 1M samples on h100": true,
		"bert-base 3 epochs of 1M samples on h100, cost?": false} {
		if r, err := Read(env, text); err != nil || r.InWon != want {
			t.Errorf("%q: InWon %v (%v), want %v", text, r.InWon, err, want)
		}
	}
}
