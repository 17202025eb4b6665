package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Readings probe 19 (100 requests in every style, written blind on the
// build after probe 18's fixes, 2026-11-28: 82 read right) found wanting:
// two models compared when one is spelled in Hangul ("젬마2 9B vs 라마3.1
// 8B"); a third model or engine ("A vs B vs C"); "does the 40 suffice?";
// "2000 tokens/s aggregate" beside users, GPUs to count; "이번 분기 안에".
func TestProbeNineteenReadings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 28, 14, 0, 0, 0, time.UTC)}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"젬마2 9B vs 라마3.1 8B 파인튜닝 비용 비교해줘", "gemma-2-9b · finetune · 젬마2 9B vs 라마3.1 8B · what does it cost?"},
		{"Compare Llama 3.1 8B vs Qwen2.5 7B vs Gemma 2 9B serving throughput on one H100", "Llama 3.1 8B vs Qwen2.5 7B vs Gemma 2 9B · on 1x h100-sxm5-80gb"},
		{"llama.cpp랑 ollama랑 vllm 중에 라마 8B 로컬 서빙 뭐가 빠름?", "llama.cpp vs ollama vs vllm"},
		{"A100 40GB vs A100 80GB for Qwen2.5 14B LoRA - does the 40 suffice?", "compare a100-sxm4-40gb, a100-sxm4-80gb"},
		{"We expect 500 concurrent chat users, 2000 tokens/s aggregate, Llama 3.1 8B. How many L4s?", "concurrency 500 output-rate 2000 tok/s · on l4 × ? · how many GPUs?"},
		{"이번 분기 안에 7B 모델 2T 토큰 프리트레이닝 가능한지 H100 256장 기준으로 봐주세요", "how long to finish within 33.4 days?"},
		{"llama 3 8b 사전학습 100B 토큰 다음 분기까지 h100 몇 장?", "how many GPUs to finish within 123.4 days?"},
	})
}
