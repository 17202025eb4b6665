package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Readings probe 16 (100 requests in chat styles, written blind on the
// build after probe 15's fixes, 2026-11-28) found wanting: models spelled
// in Hangul ("코버트", "클루 로버타", "큐웬2.5 코더"); "배치 몇까지 돼?" named
// as the largest batch; the samples a budget buys ("데이터 몇개까지"); a
// budget a month ("월 300만원") for a month of serving; a day the answer
// is due, not the job ("numbers by monday"); users a day ("1000 DAU",
// "하루 사용자 5000명"); "500 hours of korean audio"; a GPU's number
// before "동시" ("4090 동시 사용자 몇 명"); "which needs fewer GPUs";
// "용량 얼마" (the weights' size).
func TestProbeSixteenReadings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 28, 13, 0, 0, 0, time.UTC)}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"코버트로 감성분석 학습 데이터 3만개 t4에서 돌리면 몇분?", "kobert · finetune"},
		{"큐웬2.5 코더 7b 로라 코드데이터 30만개 1에폭 a6000 2장 얼마걸림", "qwen2.5-coder-7b · lora"},
		{"클루 로버타 base 파인튜닝 10만개 a100 한장 비용 원화로 얼마?", "klue-roberta-base · finetune"},
		{"코일렉트라 파인튜닝 10만개 t4", "koelectra-base-v3 · finetune"},
		{"큐웬 2.5 3b 풀파튜 a6000 한장이면 배치 몇까지 돼?", "qwen2.5-3b · finetune · on 1x rtx-a6000 · largest batch?"},
		{"라마3 8b 파인튜닝 예산 50만원인데 h100으로 데이터 몇개까지 돌릴수있어", "how many samples? · budget $352"},
		{"예산이 월 300만원밖에 없어서 그런데 라마3 70b 서빙 a100이랑 h100 중 뭐가 싸?", "served for 730 h · compare a100-sxm4-80gb, h100-sxm5-80gb · what does it cost? · budget $2110"},
		{"we're launching a chatbot next week, ~1000 DAU, llama 3.1 8b on vllm, how many gpus?", "vllm concurrency 100 · how many GPUs?"},
		{"DAU 1000명 챗봇 라마3 8b vllm으로 서빙하면 h100 몇 장?", "concurrency 100 · on h100-sxm5-80gb × ?"},
		{"하루 사용자 5000명 정도 쓰는 사내 챗봇 qwen2.5 14b 서빙 a100 몇 장?", "concurrency 500"},
		{"llama 3 8b serving 2000 daily active users on l40s, how many?", "concurrency 200"},
		{"serving qwen2.5 7b with 1000 users per day, which gpu is cheapest", "concurrency 100"},
		{"llama 3 8b chatbot for 500 people a day on l4, how many?", "concurrency 50"},
		{"qwen 7b 2000 users/day cost per month", "concurrency 200"},
		{"whisper medium finetune on 500 hours of korean audio, 2x 4090", "whisper-medium · finetune · 60000 samples · on 2x rtx-4090"},
		{"llama 3 8b vllm 4090 동시 사용자 몇 명까지?", "vllm · on 1x rtx-4090 · how many at once?"},
		{"which needs fewer GPUs, llama 3 70b or qwen2.5 72b, for lora on a100 80gb?", "llama 3 70b vs qwen2.5 72b · on a100-sxm4-80gb × ? · how many GPUs?"},
		{"llama 3 70b gguf q4_k_m 용량 얼마야?", "q4_k_m · will it fit?"},
		// an engine and its weights changed together
		{"llama3 8b 추론 llama.cpp q8_0 vs vllm fp16 on 4090, which is faster?", "llama.cpp q8_0 vs vllm fp16 · on 1x rtx-4090"},
		{"qwen2.5 7b ollama q4_k_m이랑 vllm awq 중에 4090에서 뭐가 빨라?", "ollama q4_k_m vs vllm awq"},
		// three formats, each one's memory asked; 16-bit set beside a quantised format is 16-bit weights
		{"qwen2.5 14b 4비트, 8비트, 16비트로 돌리면 VRAM 각각 얼마나 필요해?", "int4 vs int8 vs fp16 · will it fit?"},
		{"qwen2.5 14b int4, int8, fp16 vram each?", "inference (assumed from int8; say qlora to train) · int4 vs int8 vs fp16 · will it fit?"},
		{"llama2 13b 추론 fp16 vs int8 vs int4 메모리 비교", "fp16 vs int8 vs int4 · will it fit?"},
		{"qwen2.5 14b 16bit vs 4bit vram", "fp16 vs int4"},
		// which is cheaper between two choices asks their cost
		{"llama 3.2 3b lora vs full finetune on h100, which is cheaper?", "lora vs full finetune · on 1x h100-sxm5-80gb · what does it cost?"},
	})
	// 16-bit said alone is still the planner's choice of 16-bit format
	if r, err := Read(env, "llama 3 8b 16bit lora on 4090"); err != nil || r.ComparePrecisions[0] != "" {
		t.Errorf("16bit alone: %v (%v); want no formats compared", r.ComparePrecisions, err)
	}
	// the day the numbers are due is not the job's deadline
	r, err := Read(env, "my manager wants numbers by monday: qwen2.5 72b lora on 8x h100, 500k samples 2 epochs, time + cost?")
	if err != nil || r.Deadline != 0 || r.Ask != AskCost {
		t.Errorf("numbers by monday: deadline %v, ask %q (%v); want no deadline and the cost asked", r.Deadline, r.Ask, err)
	}
	if r, err := Read(env, "llama 3 8b lora 10만개 4090 월요일까지 끝나?"); err != nil || r.Deadline == 0 {
		t.Errorf("a job's own deadline: %v (%v); want it kept", r.Deadline, err)
	}
	// the question words are not listed as skipped
	for _, s := range []string{"qwen2.5 1.5b full finetune on a6000 max batch size?", "how much vram for llama 3 8b lora", "llama 3 8b vllm 4090 동시 사용자 몇 명까지?"} {
		r, err := Read(env, s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		for _, sk := range notAsked(r) {
			if sk == "max batch size" || sk == "how much vram" || sk == "사용자" {
				t.Errorf("%q: %q listed as skipped", s, sk)
			}
		}
	}
}
