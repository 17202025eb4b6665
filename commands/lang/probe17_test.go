package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Readings probe 17 (100 requests in Konglish and mixed styles, written
// blind on the build after probe 16's fixes, 2026-11-28) found wanting: a
// model's size then tokens in 억 ("7B 3억 토큰" had become 7.3B tokens);
// "we have two weeks"; "compare bf16 vs fp8 training"; DPO with no other
// training word; "code" in a sentence around the model named; "embedding"
// beside a training word; a reranker by name; "초당 200 요청 들어와요";
// "알파카"; "tokens/s 얼마", "처리량?".
func TestProbeSeventeenReadings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 28, 14, 0, 0, 0, time.UTC)}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"미스트랄 7B 3억 토큰 continued pretraining H100 8장이면 며칠?", "mistral-7b-v0.1 · pretrain · 300M tokens · on 8x h100-sxm5-80gb · how long?"},
		{"llama 3 8b 사전학습 1억 5천만 토큰 h100", "150M tokens"},
		{"We have two weeks and about $3000. Goal is SFT of Qwen3-14B on 400k chat samples (avg 1k tokens). What's the cheapest plan that finishes in time?", "finish within 14 days? · budget $3000"},
		{"Compare bf16 vs fp8 training for Llama 3 8B on H100, time and cost", "llama-3-8b · finetune (assumed) · bf16 vs fp8 · on 1x h100-sxm5-80gb · what does it cost?"},
		{"라마3 8b 파인튜닝 bf16이랑 fp8 중에 h100에서 뭐가 빨라?", "bf16 vs fp8 · on 1x h100-sxm5-80gb"},
		{"qwen2.5-7b-instruct 로 DPO 하려는데 A100 80GB 1장이면 vram 충분?", "finetune (assumed) · dpo · on 1x a100-sxm4-80gb · will it fit?"},
		{"We're building an internal code assistant. Planning to serve Qwen2.5-Coder-32B with TGI, about 30 concurrent devs, avg prompt 4k tokens. Is 2x A100 80GB enough, or do we need H100s?", "qwen2.5-coder-32b · inference"},
		{"Our team has a RAG pipeline with multilingual-e5-large embeddings. We want to finetune it on 300k query-passage pairs. How long on one L40S?", "multilingual-e5-large · finetune · of 300000 samples · on 1x l40s · how long?"},
		{"ModernBERT-large embedding finetune 1M pairs, H100, cost?", "modernbert-large · finetune · 1M samples"},
		{"bge-m3 embeddings for 10M docs on l4", "bge-m3 · inference"},
		{"저희 팀 RAG 서비스 리랭커로 bge-reranker-large 쓰는데요. 초당 200 요청 들어와요. L4 몇 장이면 될까요?", "xlm-roberta-large · inference · 200 req/s · on l4 × ? · how many GPUs?"},
		{"phi-3-mini SFT 알파카 데이터로 L4 한장 가능?", "52002 samples (alpaca)"},
		{"라마 3.2 3B ollama로 server-v 에서 돌리면 tokens/s 얼마?", "ollama · on 4x server-v · how fast?"},
		{"gemma 3 12b vllm 서빙 L4 4장 tp=4 처리량?", "on 4x l4 · how fast?"},
	})
}
