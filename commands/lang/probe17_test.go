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
		// a busy server named as the reason is not where to plan
		{"현재 server-h에서 다른 실험 돌고 있어서요. Llama 3.1 8B 를 QLoRA로 학습하려는데 4bit, r=8, seq 4096. server-a 쪽으로 돌려도 충분할까요?", "llama-3.1-8b · qlora · seq 4096 rank 8 · int4 · on 4x server-a · will it fit?"},
		{"server-h is busy, can I run llama 3 8b lora on server-a?", "on 4x server-a · will it fit?"},
		// GPUs said of "a server" with a fit asked: whether it fits there
		{"A100 4장짜리 서버에서 mixtral 8x22b fp8 서빙 되나?", "mixtral-8x22b · inference · fp8 · on 4x a100-sxm4-80gb · will it fit?"},
		// a family member the catalogue lacks, at a size none of it has
		{"solar pro 22b full finetune on h100", "22B params · finetune"},
		// a bare size on a card, asked whether it fits: whether it loads
		{"13B on 24GB?", "13B params · inference · on 1x rtx-3090 · will it fit?"},
		// the new value of a setting replaces the one said before
		{"I ran a LoRA on server-v last week and it OOM'd at seq 8192. Model was Llama 3.1 8B, rank 128, batch 4. Will it fit if I drop to seq 4096 or should I use server-h?", "seq 4096 batch 4 rank 128"},
		// live streams of a speech model
		{"whisper small 실시간 추론 A10 한 장에 몇 채널?", "whisper-small · inference · on 1x a10 · how fast?"},
		// distillation trains the student, the smaller of two models
		{"70B를 8B로 distillation 하고 싶은데 H200 8장이면 얼마나 걸려? 2B 토큰", "8B params · finetune · 2B tokens · on 8x h200-sxm-141gb · how long?"},
		{"Need to distill DeepSeek-R1-Distill-Qwen-32B into Qwen2.5-1.5B, 500M tokens, 8x H100. How long and how much?", "qwen2.5-1.5b · finetune · 500M tokens · on 8x h100-sxm5-80gb"},
		{"exaone 2.4b 증류 학습 4090 2장 가능?", "exaone-3.5-2.4b · finetune"},
		{"deepseek r1 distill llama 70b 추론 h100 몇 장?", "deepseek-r1-distill-llama-70b · inference"},
	})
}
