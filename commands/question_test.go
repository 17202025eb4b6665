package commands

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// The seeds' questions become plans with a one-line answer under the
// reading: how many GPUs, which team server, does it fit, how long.
func TestQuestionsAreAnswered(t *testing.T) {
	s, _ := newReservations(t)
	for _, tc := range []struct {
		text, question string
		answer         []string // words the answer line must hold
	}{
		{"llama3 8b lora 학습하려면 4090 몇 장 필요해?", "count", []string{"GeForce RTX 4090", "메모리에 들어가는 최소 개수"}}, // asked in Korean, answered in Korean
		// probe 8: a forward-only model under a load is as many GPUs as its rate takes (the headline said none held it)
		{"분당 600건 들어오는 분류 api bert-base 로 t4 몇개면 될까", "count", []string{"1× Tesla T4", "부하를 감당하는"}},
		{"bge-large 5000 req/s on l4 how many", "count", []string{"× L4", "serve that load"}},
		// a long sequence's logits do not shrink with more GPUs: the count
		// with a fused, chunked loss is said beside the plain stack's
		{"how many h100s to full finetune llama 3.1 8b at 32k context?", "count", []string{"64× H100 SXM5 80GB — the fewest that fit; with fused kernels and a chunked loss (Liger: `use_liger_kernel=True`; say `liger`), 4"}},
		{"how many a100s to full finetune llama 3 8b?", "count", []string{"2× A100 SXM4 80GB — the fewest that fit"}},
		// cheapest within a budget is the cheapest pick, not the fastest that fits it
		{"예산 200불, phi-3 mini lora, 데이터 5만개. 어떤 gpu 쓰는게 제일 쌈?", "which_gpu", []string{"1× H200"}},
		// cheaper per token: each served column with its price a token
		{"is H100 or H200 cheaper per token for llama 405b fp8 serving", "cost", []string{"8× H100:", "/1M tokens", "4× H200:"}},
		// a month of serving: the GPUs' hours at their price, and what they serve in them
		{"how much to serve mistral small 24b 24/7 for a month on A100s", "cost", []string{"for 730 hours of serving", "730 GPU-hours at $"}},
		// probe 9: a memory difference side by side is each side's least memory; a format's saving against 16 bits
		{"qwen3 14b lora랑 풀파인튜닝이랑 vram 차이 얼마나 나요", "time", []string{"lora:", "풀파인튜닝:", "GiB", "덜 써요"}},
		{"13b 모델 int4 양자화하면 정확도 말고 메모리 얼마나 줄어", "fit", []string{"fp16:", "int4:", "GiB", "덜 써요"}},
		// probe 10: over a serving engine's share of the card, not over the card ("needs 22 and has 24")
		{"qwen2.5-coder 32b awq on a 4090 - fits?", "fit", []string{"No — on 1× GeForce RTX 4090", "more than the 21.38 GiB of 24 a serving engine takes"}},
		// probe 11: a served model's memory asked is one request's need, not the KV cache the engine fills its share with
		{"how much vram for qwen2.5 72b awq int4?", "fit", []string{"for one request of 4096 tokens", "a serving engine takes"}},
		// the largest model asked: a size that fits, a budget's Chinchilla size, a family's largest member
		{"4090 한장으로 lora 가능한 최대 모델 크기", "fit", []string{"1× GeForce RTX 4090에 들어가는 가장 큰 크기예요", "그 이하의 카탈로그 모델:"}},
		{"the biggest model we can pretrain for $10k on 8x h100", "", []string{"20 a parameter, Chinchilla", "within the budget of $10,000"}},
		// a fine-tune's budget: with work said, the size must do it within the budget; with none, what the budget rents
		{"biggest model i can lora on an a100 for 100k samples with a $50 budget", "", []string{"is the largest that fits on 1× A100 SXM4 80GB and does the work said within the budget of $50 ("}},
		{"what's the biggest model I can fine-tune with lora on a 4090 with a $500 budget", "", []string{"is the largest that fits on 1× GeForce RTX 4090", "The budget of $500 rents it for ", "tokens of this training at that size"}},
		{"largest qwen2.5 for qlora on a 3090", "", []string{"is the largest of them that fits on 1× GeForce RTX 3090"}},
		// a GPU named with no count that one of does not hold: the fewest that do
		{"llama 2 70b lora on h100, how long for 100M tokens", "time", []string{"2× H100 SXM5 80GB — the fewest that fit"}},
		{"tinyllama 1.1b pretrain 3T tokens how many h100 days", "time", []string{"GPU-hours", "GPU-days"}},
		// training, then serving the trained model: both answered, the serving on the same GPU
		{"llama 8b lora 학습하고 vllm으로 서빙까지 하려면 4090 몇 장?", "count", []string{"GeForce RTX 4090", "이어서 서빙하면: 1× GeForce RTX 4090"}},
		{"llama 3 8b qlora on a 4090, then serve it with vllm", "", []string{"Then serving it: About", "tokens/s on 1× GeForce RTX 4090"}},
		// a latency target: whether the plan meets it
		{"qwen2.5 7b h100 vllm ttft 500ms 안쪽으로 되나?", "fit", []string{"목표 500 ms 안에 들어와요", "첫 토큰"}},
		// a question asked in the negative gets the fact, no yes that reads as no
		{"llama 3 8b lora 4090에서 안 돼?", "fit", []string{"1× GeForce RTX 4090에 들어가요"}},
		// two choices of one kind side by side, both planned on the same hardware
		{"unsloth vs hf llama 3 8b qlora 4090", "", []string{"unsloth:", "hf:", "unsloth is", "as fast as hf"}},
		{"phi-3-medium lora vs full finetune memory on a single h100 — which fits?", "fit", []string{"lora:", "GiB per GPU (fits)", "full finetune:", "(does not fit)", "lora needs"}},
		{"llama 3.1 8b vs qwen2.5 7b 로라 학습 시간 차이 a100 기준", "time", []string{"llama 3.1 8b:", "qwen2.5 7b:", "A100"}},
		// a generated-token load: requests of the plan's output length
		{"llama 8b serving 20k tok/s how many h100", "count", []string{"H100", "serve that load"}},
		// probe 15: which of two models needs fewer GPUs: the fewest of each, side by side
		{"which needs fewer GPUs, llama 3 70b or llama 3 8b, for lora on a100 80gb?", "count", []string{"llama 3 70b: 4× A100 SXM4 80GB", "llama 3 8b: 1× A100 SXM4 80GB", "llama 3 8b needs fewer"}},
		{"llama 3 70b vs qwen2.5 72b lora, 몇 장 필요해? a100 80gb", "count", []string{"llama 3 70b: 4×", "qwen2.5 72b: 4×", "같은 개수"}},
		// probe 16: a month of serving on two GPUs against a budget a month; a cost compared with no work; a load of users a day; no batch fits; the weights' size
		{"예산이 월 300만원밖에 없어서 그런데 라마3 70b 서빙 a100이랑 h100 중 뭐가 싸?", "cost", []string{"서빙 730시간 기준", "2× A100 SXM4 80GB:", "2× H100 SXM5 80GB:", "가장 싸요", "예산 $2,110"}},
		{"llama 3.2 3b lora on b200 vs h100, which is cheaper?", "cost", []string{"1× B200:", "1× H100:", "/1M samples"}},
		{"we're launching a chatbot next week, ~1000 DAU, llama 3.1 8b on vllm, how many gpus?", "count", []string{"the fewest that fit and serve that load"}},
		{"큐웬 2.5 3b 풀파튜 a6000 한장이면 배치 몇까지 돼?", "fit", []string{"어떤 배치도 안 들어가요", "마이크로 배치 1개도"}},
		{"llama 3 70b gguf q4_k_m 용량 얼마야?", "fit", []string{"GPU당 약", "그중 가중치가"}},
		{"라마3 8b 파인튜닝 예산 50만원인데 h100으로 데이터 몇개까지 돌릴수있어", "amount", []string{"샘플이에요", "$352"}},
		{"llama3 8b inference llama.cpp q8_0 vs vllm fp16 on 4090, which is faster?", "", []string{"llama.cpp q8_0:", "requests at once", "each request streams faster on llama.cpp q8_0"}},
		{"qwen2.5 14b 4비트, 8비트, 16비트로 돌리면 VRAM 각각 얼마나 필요해?", "fit", []string{"int4: GPU당", "· int8: GPU당", "· fp16: GPU당", "(1× H200", "int4가 가장 적게 써요"}},
		{"gemma3 27b 풀파인튜닝 vs LoRA 비용 비교 H100 기준", "cost", []string{"풀파인튜닝 (8×): $", "LoRA (1×): $", "LoRA 쪽이 가장 싸요"}},
		{"llama 3.2 3b lora vs full finetune on h100, which is cheaper?", "cost", []string{"lora: $", "full finetune: $", "lora costs least"}},
		// probe 17: formats compared in training on the fewest H100s that hold both; a rate asked as "tokens/s 얼마"
		{"Compare bf16 vs fp8 training for Llama 3 8B on H100, time and cost", "cost", []string{"bf16: $", "fp8: $", "on 4× H100 SXM5 80GB", "fp8 costs least"}},
		{"라마 3.2 3B ollama로 server-a 에서 돌리면 tokens/s 얼마?", "time", []string{"토큰/s예요", "server-a"}},
		{"whisper small 실시간 추론 A10 한 장에 몇 채널?", "time", []string{"실시간의", "를 한 번에 배치로 처리", "실시간 스트림 약"}},
		// probe 18: a latency target sizes the replicas; a fit asked with a target missed is answered no
		{"Serving Llama 3.1 8B with 100 concurrent users, 500 ms time to first token, how many L4s?", "count", []string{"× L4", "Within your 500 ms target for the first token"}},
		{"Can we serve Gemma 2 27B at p95 latency under 1s with 50 QPS on server-a?", "fit", []string{"No — it fits on server-a", "Over your 1 s target"}},
		{"gemma 3 27b 를 4090에 올릴려면 몇비트 양자화 해야댐?", "fit", []string{"int4가 1× GeForce RTX 4090에 들어가는 가장 넓은 형식이에요", "int8은"}},
		{"llama 3 405b what quantization fits on a 4090?", "fit", []string{"Not even 4 bits fit on 1× GeForce RTX 4090"}},
		{"GGUF Q8_0 vs Q4_K_M for Llama 3 8B on RTX 3090, speed and quality tradeoff?", "time", []string{"Q8_0:", "Q4_K_M:", "Q4_K_M is"}},
		// probe 19: a served job's memory for the batch said (it had come out negative); a rate asked with a fit is part of the answer; three models side by side
		{"How much VRAM does Llama 3.1 8B need at 32k context with batch 16 in vLLM?", "fit", []string{"It needs about 81 GiB per GPU", "for 16 requests of 32768 tokens at once"}},
		{"초당 토큰 2000개 뽑아야 되는데 큐웬2.5 32B AWQ L40S로 될까", "fit", []string{"아니요 — 1× L40S에 들어가요", "요청한 건 초당 2,000개"}},
		{"임베딩 서빙 e5-large 초당 500 요청 L4로 충분?", "fit", []string{"아니요", "요청한 건 초당 500개"}},
		{"Compare Llama 3.1 8B vs Qwen2.5 7B vs Gemma 2 9B serving throughput on one H100", "time", []string{"Llama 3.1 8B:", "Qwen2.5 7B:", "Gemma 2 9B:"}},
		// nothing on the team's servers holds it: the cloud's pick answers, against the budget
		{"Budget is $5k. Can we DPO Llama 3 70B on 20k preference pairs?", "cost", []string{"Nothing on the team's servers holds it; in the cloud:", "within the budget of $5,000"}},
		// a budget and no amount of work: what it buys there; a fit asked of no GPU gets the cloud's answer
		{"we have a $10k budget, can we full fine-tune mixtral 8x7b?", "", []string{"Nothing on the team's servers holds it; in the cloud:", "per 1M samples the budget of $10,000 buys about"}},
		{"예산 1000만원으로 mixtral 8x7b 풀파인튜닝 가능?", "fit", []string{"팀 서버에는 들어가는 구성이 없어요", "예산 $7,032로 샘플 약"}},
		// a month of hosting once hosting made it inference
		{"monthly cost of hosting llama 3 70b on server-h", "cost", []string{"for 730 hours of serving"}},
		// no count said: the month on the fewest GPUs that carry the load, not the whole server
		{"Our manager wants to know: what would it cost per month to serve Llama 3.1 8B to 500 daily users?", "cost", []string{"1× H200 SXM 141GB: about $2,555 for 730 hours of serving", "4.56B tokens"}},
		{"how many h100s do I need to pretrain a 1B model on 100B tokens in 2 days", "count", []string{"H100", "finish within"}},
		// asked in nodes: whole nodes of eight, said in nodes; past the ladder's 1,024 for a month's pre-training
		{"how many h100 nodes do we need to pretrain llama 3 70b on 15T tokens in 30 days", "count", []string{"nodes of 8× H100 SXM5 80GB (", "GPUs) — the fewest that finish within 30 days"}},
		{"llama 3 70b 15T 토큰 사전학습 45일 안에 끝내려면 h100 노드 몇 개?", "count", []string{"대 (노드당 8× H100 SXM5 80GB, 모두 ", "45일 안에 끝나는 최소 개수"}},
		{"how many h100 nodes for llama 3 8b lora", "count", []string{"1 node of 8× H100 SXM5 80GB — the fewest that fit"}},
		// the count asked of the GPUs the asker has: how many of them the job takes
		{"qwen 72b lora h100 8장 중에 몇 장 필요해?", "count", []string{"4장이면 충분해요(가진 8장 중): 4× H100 SXM5 80GB"}},
		{"qwen 72b lora: how many h100s do we need, we have 8", "count", []string{"4 of your 8 are enough: 4× H100 SXM5 80GB — the fewest that fit"}},
		{"do we need all 8 h100s for qwen 72b lora?", "count", []string{"4 of your 8 are enough: 4× H100 SXM5 80GB"}},
		{"llama 3 70b full finetune, how many of our 6 a100s do we need?", "count", []string{"Your 6 are not enough: "}},
		{"qwen 72b lora 하려는데 h100 4장으로 충분해? 아니면 4장 다 필요함?", "count", []string{"4장 모두 필요해요: 4× H100 SXM5 80GB"}},
		// formats compared in memory for serving with no load: one request each, not the engine's reservation
		{"qwen2.5 32b awq랑 gptq 중에 뭐가 메모리 덜 먹어?", "", []string{"awq: GPU당 22 GiB (메모리 OK) · gptq: GPU당 22 GiB"}},
		// training set side by side in memory: the least each needs, said so (the table plans for speed)
		{"qwen3 8b full finetune vs lora, memory difference?", "", []string{"(the least each needs: micro-batch 1, checkpointing) — lora needs"}},
		// users at once asked with each one's speed: the most whose time a token stays within it, under the KV cache's room
		{"llama 3.1 8b on an l40s, how many concurrent users at ~20 tok/s each?", "fit", []string{"requests at once on 1× L40S, each streaming at", "within your 50 ms target; the KV cache holds"}},
		{"llama 3.1 70b on an a10, how many users at 20 tok/s each", "fit", []string{"No — on 1× A10"}},
		{"qwen2.5 7b awq on a t4, how many users at 60 tok/s each", "fit", []string{"Not even one: on 1× Tesla T4 a single request takes", "over your 16.7 ms target"}},
		// two models at once on one GPU: their memory added up
		{"llama 3 8b랑 whisper large 같이 a100 한장에 올릴 수 있어?", "fit", []string{"네 — 같이 올리면 GPU당 약 23 / 79 GiB예요(1× A100 SXM4 80GB, llama 3 8b 18 GiB + whisper 5 GiB)"}},
		{"can I serve llama 3 8b and bge-m3 together on one l40s?", "fit", []string{"Yes — together they need about 20 of 48 GiB per GPU on 1× L40S"}},
		{"qwen2.5 32b and llama 3 8b together on a 4090?", "fit", []string{"No — together they need about 84 GiB per GPU on 1× GeForce RTX 4090"}},
		// two models on one team server, "which one is faster": the two, not which server
		{"Mistral-7B vs Llama-3-8B LoRA on server-a: which one is faster per epoch on 1M samples?", "", []string{"Mistral-7B: ", " · Llama-3-8B: ", "on server-a: 4× A100 SXM4 80GB"}},
		// the KV cache asked beside the fit: its size in the answer
		{"Qwen/Qwen2.5-72B-Instruct 추론 h200 두 장으로 가능? kv cache는 얼마나?", "fit", []string{"네 — 2× H200 SXM 141GB에 들어가요", "그중 KV 캐시가"}},
		// "can it keep up": whether it fits and serves the load
		// probe 30: a price per generated tokens, the context a KV cache
		// is asked at, an MoE's active size said, offline batch work
		{"How much would it cost per 1M output tokens to serve Llama-3.1-70B-Instruct in fp8 on 2x H200 with vLLM?", "cost", []string{"per 1M generated tokens on 2× H200 SXM 141GB at "}},
		{"llama 3.1 8b vllm h100 1장 100만 토큰당 비용 얼마?", "cost", []string{"생성 토큰 100만 개당 약 $"}},
		{"gemma 2 27b 추론할때 kv cache 128k면 몇기가 필요함", "fit", []string{"131,072 토큰 시퀀스 하나"}},
		{"Qwen3-30B-A3B 같은 MoE는 active 3B라서 v100 한장에도 올라가나요? 아님 전체 30B 다 올려야 하나요", "fit", []string{"아니요 — 1× Tesla V100 SXM2 32GB에서는 GPU당 61 GiB"}},
		{"Whisper large-v3 batch 추론 1000시간 오디오 a100 한장이면 얼마나 걸림?", "time", []string{"시간 걸려요 (1× A100 SXM4 80GB)"}},
		// live streams: how many the GPU keeps up with, batched, against
		// those said (each 30-second window done within 30 s)
		{"whisper large v3 on a T4 — can it keep up with 10 concurrent audio streams in real time?", "fit", []string{"Yes — 1× Tesla T4 keeps up with 10 live streams: about ", " at most", "30-second windows at once, each done in "}},
		{"whisper large v3 on an l4, can it keep up with 10 live streams?", "fit", []string{"Yes — 1× L4 keeps up with 10 live streams"}},
		{"whisper large v3 on a t4: 500 real time audio streams ok?", "fit", []string{"No — 1× Tesla T4 keeps up with about ", "not 500"}},
		{"위스퍼 large v3로 실시간 스트림 20개 a100 한장으로 감당 돼?", "time", []string{"네 — 1× A100 SXM4 80GB는 실시간 스트림 20개를 감당해요"}},
		{"whisper large v3 20채널 실시간 l4 한장 가능?", "time", []string{"L4는 실시간 스트림 20개를"}},
		// a technique asked whether it is needed: the job planned without it too
		{"Quick q: can I fine-tune llama3 8b with full params on 2x A100 80GB, or do I need ZeRO-3?", "fit", []string{"Yes — without zero3 it needs 147 GiB per GPU on 2× A100 SXM4 80GB"}},
		{"bert-large finetune seq 512 on a t4, do I need gradient checkpointing?", "fit", []string{"No — it fits without gradient checkpointing on 1× Tesla T4"}},
		{"llama 3 8b lora on a 4090, ckpt 켜야 돼?", "fit", []string{"네 — gradient checkpointing 없이는 GPU당 38 GiB가 필요해요"}},
		// a GPU compared without a count beside a team server: the fewest that hold it
		{"llama 3 8b full finetune on 1B tokens: our server-a or cloud h100s, which is cheaper?", "cost", []string{"4× A100: ", " · 2× H100: "}},
		// probe 29: an OOM asked with "어떻게 해요" is the plan; bf16 set against fp16 on a GPU without it
		{"llama3 8b 풀파인튜닝 4090에서 CUDA OOM 뜨는데 어떻게 해요?", "fit", []string{"아니요 — 1× GeForce RTX 4090에서는 GPU당"}},
		{"fp16 or bf16 for finetuning llama-3.2-1b on a v100? bf16 isn't supported there right?", "fit", []string{"Tesla V100 SXM2 32GB has no bf16: use fp16 with loss scaling"}},
		// bf16 named beside a fit on a GPU without it, wanted or denied:
		// that comes first, then the fit
		{"llama 3 8b lora bf16 on v100, will it fit?", "fit", []string{"Tesla V100 SXM2 32GB has no bf16: use fp16 with loss scaling (`--fp16`, `GradScaler`). Yes — it fits on 1× Tesla V100 SXM2 32GB"}},
		{"can I use fp16 on a v100 for llama 3 8b lora? heard it has no bf16", "fit", []string{"Tesla V100 SXM2 32GB has no bf16: use fp16 with loss scaling (`--fp16`, `GradScaler`). Yes — it fits"}},
		{"llama 3 8b lora bf16 on a100 80gb, will it fit?", "fit", []string{"Yes — it fits on 1× A100 SXM4 80GB"}},
		{"Phi-3-mini 4k를 v100에서 fp16으로 돌릴수 있나요? bf16 안된다고 들어서요", "fit", []string{"Tesla V100 SXM2 32GB는 bf16을 지원하지 않아요: 가중치를 fp16으로 올리세요", "네 — 1× Tesla V100 SXM2 32GB에 들어가요"}},
		{"v100은 bf16 안 된다던데 llama3 8b lora fp16 써도 돼요?", "fit", []string{"Tesla V100 SXM2 32GB는 bf16을 지원하지 않아요: fp16과 loss scaling", "네 — 1× Tesla V100 SXM2 32GB에 들어가요"}},
		// two GPU types said without counts, one of which needs two: the pace between them, and a note
		{"학습이 너무 느린데 qwen2.5 1.5b 풀파인튜닝을 4090에서 h100으로 바꾸면 얼마나 빨라져요?", "time", []string{"2× RTX-4090: ", " · 1× H100: ", "배 빨라요"}},
		// the cost asked beside the count: the count's answer gives it
		{"llama 3 8b lora 학습하려면 a100 몇장 필요하고 비용은 얼마야?", "count", []string{"1× A100 SXM4 80GB — 메모리에 들어가는 최소 개수 (샘플 100만 개당 $"}},
		{"how many a100s do i need and what will it cost to finetune llama 3 8b on 100k samples", "count", []string{"2× A100 SXM4 80GB — the fewest that fit ($"}},
		{"how many h100s to pretrain a 1B model on 100B tokens in 2 days, and the cost?", "count", []string{"— the fewest that finish within 2 days ($"}},
		{"how many h100s to pretrain llama 3 70b on 15T tokens in 60 days", "count", []string{"× H100 SXM5 80GB — the fewest that finish within 60 days"}},
		{"which of our servers is fastest for bert-base 3 epochs of 1M samples", "which_server", []string{"server-h finishes first", "free now"}},
		{"qlora로 llama-2-70b a100 80gb 1장에서 돌릴 수 있어?", "fit", []string{"네 — 1× A100", "에 들어가요"}},
		// a local engine that holds it only with layers in host memory says so, and how slow
		{"rtx 5090 32gb로 llama 3 70b q4 돌아가?", "fit", []string{"레이어 22/80개를 호스트 메모리에 두어야 돌아가요", "CPU 쪽 레이어 때문에 느려요"}},
		{"can i run llama 3 70b q4_k_m on a single 4090 with ollama?", "fit", []string{"Only with 38 of 80 layers in host memory on 1× GeForce RTX 4090", "tokens/s"}},
		{"will llama-3-70b fit on a single 4090 for inference?", "fit", []string{"No — on 1× GeForce RTX 4090"}},
		{"qwen2.5 7b 풀 파인튜닝 1B 토큰 h100 8장으로 얼마나 걸려?", "time", []string{"약 ", "시간 걸려요", "8× H100"}},
		// a measured run and a target, asked as "what about there?": how long, an epoch of the measured run
		{"v100 1장에서 에폭당 2시간 걸렸는데 h100이면?", "time", []string{"에폭당 약", "H100"}},
		{"bert-base took 2 h/epoch on 1x v100. on an h100?", "time", []string{"an epoch on 1× H100"}},
		// "the cheapest way", "제일 빠르게": that pick from the search, not the balanced one
		{"what's the cheapest way to pretrain a 350m model on 50B tokens?", "", []string{"cheapest: server-h: 1× H200"}},
		{"bert-base 3에폭 100만 샘플 제일 빠르게 돌리려면?", "fit", []string{"가장 빠른 구성: server-h: 4× H200"}},
		{"fastest setup for llama3 8b lora on 1B tokens?", "which_gpu", []string{"fastest: server-h: 4× H200"}},
		// how much memory: the least the job needs (micro-batch 1, checkpointing), not a cost
		{"how much vram for llama3 8b lora on a 4090?", "fit", []string{"It needs about", "GiB per GPU on 1× GeForce RTX 4090"}},
		{"llama3 70b qlora 메모리 얼마나 필요해?", "fit", []string{"GPU당 약", "GiB가 필요해요"}},
		// a rate asked, or measured, in either language
		{"llama3 8b lora on 4090 tokens per second?", "time", []string{"tokens/s on 1× GeForce RTX 4090"}},
		{"llama3 8b lora 4090 초당 토큰 몇 개?", "time", []string{"토큰/s예요", "RTX 4090"}},
		{"llama3 8b on 4090, how many tokens/s?", "time", []string{"RTX 4090", "tokens/s"}},
		{"llama3 8b 추론 t4에서 초당 40토큰 나왔는데 l4면?", "time", []string{"1× L4", "토큰/s"}},
		{"bert base 분류 모델 추론 배치 32 t4 초당 몇 개 처리?", "time", []string{"초당 약", "시퀀스예요", "T4", "배치 32", "배치당"}},
		{"resnet50 inference on t4 images per second?", "time", []string{"images/s on 1× Tesla T4 at batch 1", "ms a batch"}},
		// latency asked: the batch's (or a token's) time first, in the model's unit
		{"bert-large seq 384 batch 8 fp16 tensorrt on l40s — latency?", "time", []string{"ms a batch of 8 sequences on 1× L40S", "sequences/s"}},
		{"resnet50 inference latency at batch 1 on a t4?", "time", []string{"ms an image on 1× Tesla T4", "images/s"}},
		{"bert-large 추론 지연시간 l40s에서 얼마나?", "time", []string{"시퀀스 하나에 약", "ms예요", "L40S"}},
		{"llama 3 8b inference latency on an h100?", "time", []string{"First token after", "ms a token", "(1 in flight)"}},
		{"bert-base inference on a t4, how many sequences per second?", "time", []string{"sequences/s on 1× Tesla T4"}},
		// how many served at once: the KV cache's room
		{"llama 3.1 405b inference fp8 on 8x h200 — how many concurrent users at 4k context?", "fit", []string{"sequences of 4096 tokens at once on 8× H200"}},
		{"how many users can llama 3 8b serve on a 4090?", "fit", []string{"sequences of 4096 tokens at once on 1× GeForce RTX 4090", "KV cache"}},
		{"qwen2.5 7b 서빙 l40s 한 장이면 동시 사용자 몇 명까지 돼?", "fit", []string{"동시에 최대", "L40S"}},
		{"llama 3 8b a100에서 동시 요청 몇 개까지 받을 수 있어?", "fit", []string{"동시에 최대", "A100"}},
		{"gpt-oss-20b 를 rtx 5090에서 돌릴 수 있나요?", "fit", []string{"네", "RTX 5090"}},
		// a GPU type without a count: the fewest of it that hold the job
		{"cost to run mixtral 8x22b inference 24/7 on h100s for a month", "cost", []string{"4× H100 SXM5 80GB: about $7,300 for 730 hours of serving", "2,920 GPU-hours"}},
		{"whats the vram needed for llama 3.1 70b inference at 128k context", "fit", []string{"It needs about", "GiB per GPU"}},
		// the KV cache named: a served model's memory, with the cache's part,
		// on the fewest GPUs that hold it (one H200 for an 8B at 32k)
		{"llama3 8b kv cache 얼마나 먹어? 32k 컨텍스트", "fit", []string{"GPU당 약", "1× H200", "그중 KV 캐시가 4.0 GiB예요 (32,768 토큰 시퀀스 하나)"}},
		// how much work a budget or a time buys: the plan's rate times the hours
		{"예산 3000달러로 llama3 8b 사전학습 h100에서 몇 토큰까지 가능해?", "amount", []string{"× H100 SXM5 80GB에서 약 ", "억 토큰이에요: $3,000으로", "쓸 수 있어요 (시간당 $"}},
		{"how many tokens can I pretrain a 1b model on 8 h100s in 3 days?", "amount", []string{"On 8× H100 SXM5 80GB in 3.0 days: about ", "B tokens ($1440 at $20.00 an hour)."}},
		{"1000달러로 bert-base 몇 에폭 돌릴 수 있어? 100만 샘플 a100", "amount", []string{"1× A100 SXM4 80GB에서 약 ", " 에폭이에요: $1,000으로"}},
		// how long, with a budget and no dataset: the hours the money buys there, and their work
		{"llama3 8b lora 4090 2장 100만원이면 몇시간?", "time", []string{"2× GeForce RTX 4090에서 약 ", "억 토큰이에요: $703으로", "쓸 수 있어요 (시간당 $0.80)"}},
		{"bert-base finetune on a100, budget $50, how long", "time", []string{"On 1× A100 SXM4 80GB: about ", "M samples; $50 buys "}},
		// the GPUs held for a span of time: the work that time covers and its cost, here in won too
		{"how much would it cost in KRW to lora train qwen2.5 72b on 8 h100s for 2 days", "amount", []string{"On 8× H100 SXM5 80GB in 2.0 days: about ", "B tokens ($960 ≈ ₩1,370,000 at $20.00 ≈ ₩28,400 an hour)", "the 2025 average"}},
		{"resnet50 imagenet 학습 비용 h100 1장 90에폭 원화로", "cost", []string{"≈ ₩", "들어요 (1× H100", "2025년 평균 환율"}},
		// a cost asked with no amount of work: the cost of the card's unit
		{"how much does mistral 7b lora cost on an h100", "cost", []string{"per 1M samples on 1× H100 SXM5 80GB", "say the dataset size"}},
		{"llama3 8b lora a100 몇 토큰 학습 가능?", "amount", []string{"시간당 약", "예산(`예산 3000달러`)이나 시간(`3일 동안`)"}},
		// the cost asked of a GPU without a count: the fewest that fit, their cost first
		{"how much does it cost to fine tune llama 3 8b on 1B tokens on cloud h100s?", "cost", []string{"× H100 SXM5 80GB — the fewest that fit ($"}},
		// the work said and a GPU asked "…이면?": how long there
		{"t5-large 요약 파인튜닝 10만개 3 에포크 v100 한장이면?", "time", []string{"시간 걸려요", "V100"}},
		// a speech model's rate in audio time
		{"whisper large-v3 on an A10, how many hours of audio can it transcribe per hour?", "time", []string{"hours of audio an hour on 1× A10", "x real time"}},
		{"위스퍼 large-v3 a10에서 실시간 몇 배속이야?", "time", []string{"시간당 약", "시간 분량의 오디오예요", "실시간의"}},
		// memory asked with the unit glued and a particle after it: the least the job needs
		{"서버a에서 mistral 7b qlora 돌리면 vram 몇기가나 써?", "fit", []string{"GPU당 약", "GiB가 필요해요 (server-a"}},
		// GPU-hours asked: the run's hours times its GPUs, with its time and cost
		{"how many h100 hours for 7b full ft on 500M tokens", "time", []string{"GPU-hours on", "× H100 SXM5 80GB", "$"}},
		{"how many h100 hours for llama3 8b lora on 1B tokens on 8x h100", "time", []string{"GPU-hours on 8× H100 SXM5 80GB (", "on 8 GPUs"}},
		// a comparison asked in money: each column's cost beside its time
		{"llama 3.1 8b lora on 200M tokens, which is cheaper: 1 h100 or 2 a100s?", "cost", []string{"1× H100: ", " h, $", " · 2× A100: "}},
		// a step's time asked, with no run measured
		{"배치 1024 시퀀스 2048로 1b 모델 프리트레이닝 h100x8 스텝당 몇초", "time", []string{"스텝당 약", "micro-batch", "× GPU 8장"}},
		// the room left for the KV cache, in GiB and sequences
		{"qwen3 14b int8로 a6000 한장 올리면 kv캐시 몇기가 남아?", "fit", []string{"KV 캐시에 약", "GiB가 남아요 (1× RTX A6000)", "동시에 시퀀스"}},
		{"how much room is left for the kv cache with llama3 8b on a 4090?", "fit", []string{"GiB is left for the KV cache on 1× GeForce RTX 4090", "sequences of 4096 tokens at once"}},
		// 4-bit weights set against 16-bit ones, side by side
		{"llama3.1 8b int4 vs fp16 on an h100 speed", "time", []string{"int4: ", "fp16: ", "int4 is", "as fast as fp16"}},
		{"라마3.1 8b awq랑 fp16 h100 한장 속도 비교", "time", []string{"int4: 초당", "fp16: 초당", "빨라요 (fp16 대비)"}},
		// a latency target for each token: set against the time per output token
		{"llama 70b inference on h200 under 100ms per token, how many?", "count", []string{"2× H200 SXM 141GB", "Within your 100 ms target for each token"}},
		// a latency no count meets: said so, with the time it takes, not "does not hold"
		{"llama 70b inference on h200 latency under 100ms, how many?", "count", []string{"No count of H200 SXM 141GB meets the 100 ms target for a request: on 2 (the fewest that hold it)", "per token"}},
		// a fit asked with a budget and no amount of work: the fit, and what the budget buys
		{"7b 모델 풀파인튜닝 하는데 예산 300만원이면 충분해요?", "fit", []string{"네 —", "예산 $2,110로 샘플 약"}},
		// which is cheaper of two GPUs named: each one's cost
		{"a100이랑 h100 중에 라마 8b 로라 학습에 뭐가 더 싸게 먹혀?", "which_gpu", []string{"1× A100:", "/샘플 100만 개", "1× H100:"}},
		// a fit asked with the speed or the time: both answered
		{"ollama running qwen3 32b on an rtx 4090, will it fit and how fast?", "fit", []string{"Yes — it fits on 1× GeForce RTX 4090", "GiB per GPU. About ", " tokens/s."}},
		{"llama 8b lora on a 4090 for 10k samples, will it fit and how long?", "fit", []string{"Yes — it fits", "It takes "}},
		// speed and memory asked together: each side's memory and rate, both differences
		{"qwen2.5 7b awq vs fp16 on a 4090: memory and tokens/s?", "time", []string{"int4: ", "GiB per GPU (fits), ", "tokens/s · fp16: ", "GiB less per GPU; int4 is", "as fast as fp16"}},
		{"llama 3 8b 4bit vs 8bit 속도랑 메모리 비교 4090", "time", []string{"int4: GPU당", "(메모리 OK), 초당", "덜 써요; int4가", "빨라요"}},
		// checkpointing on and off: both planned, what it saves and costs
		{"llama3 8b lora 4090 with vs without gradient checkpointing", "", []string{"With checkpointing: ", " · without: ", "does not fit", "checkpointing saves "}},
		{"qwen2.5 7b lora a100 체크포인팅 유무 비교", "", []string{"체크포인팅 켜면: GPU당", "끄면: GPU당", "스텝은", "더 걸려요"}},
		{"grad checkpointing on vs off for llama-3-8b full ft on h100 - how much memory saved?", "fit", []string{"does not lower the peak here"}},
		// users at once asked as a yes/no: against what the KV cache holds
		{"llama3 8b l40s 한장 서빙 동접 20명 됨?", "fit", []string{"네 — 동시 요청 20개가", "KV 캐시에 최대"}},
		{"llama3 70b awq l40s 한장 서빙 동접 100명 됨?", "fit", []string{"아니요", "요청한 100개보다 적어요"}},
		// a batch that fits only split into micro-batches says so
		{"배치 64 seq 1024 로 gpt2 medium 파인튜닝 v100 16기가 한장 oom 나?", "fit", []string{"micro-batch 4 × 누적 16", "배치 64를 한 번에 돌리면 들어가지 않아요"}},
		// a measured rate asked of other hardware: the rate there
		{"resnet50 v100 8장에서 초당 3000장 나왔는데 h100 8장으로 바꾸면?", "time", []string{"초당 약", "샘플이에요 (8× H100", "측정값 3,000: 8× Tesla V100"}},
		// a measured step asked of other hardware: a step there
		{"a100 4장에서 스텝당 1.2초 나왔는데 h200 4장이면 몇초? llama2 7b 풀파인", "time", []string{"스텝당 약", "4× H200", "측정값 1.20초"}},
		{"how much kv cache does llama 3 70b need at 128k context?", "fit", []string{"It needs about", "The KV cache is 40.0 GiB of it, for one sequence of 131072 tokens."}},
		// how many GPUs by a deadline, no GPU named: the team's fastest GPU, as many as it takes
		{"how many gpus to pretrain a 3b model on 300B tokens in 2 weeks", "count", []string{"× H200 SXM 141GB — the fewest that finish within 14 days"}},
		{"7b 모델 프리트레이닝 2000억 토큰 한 달 안에 하려면 gpu 몇 장?", "count", []string{"× H200 SXM 141GB — 30일 안에 끝나는 최소 개수"}},
		// how many GPUs for a serving load: replicas of the smallest tensor-parallel group that holds it
		{"how many l4s to serve llama3 8b at 2 req/s", "count", []string{"replicas of", "the fewest that serve that load"}},
		// "which" asked of the one setup the user has: whether and how fast it runs there
		{"which gpu for llama 3 8b lora, we have 2x 4090", "fit", []string{"Yes — it fits on 2× GeForce RTX 4090", "tokens/s"}},
		{"whats the fastest way to run deepseek r1 671b locally? we have 8x a100 80gb", "fit", []string{"No — on 8× A100 SXM4 80GB it needs"}},
		// a latency asked of a GPU one of which cannot hold it: the latency, on the fewest that do
		{"phi-4 inference latency on l4 for 500 token prompts", "time", []string{"First token after ", "on 2× L4"}},
		// an embedding server at a request rate: batched where throughput levels off (at most TEI's 16,384 tokens), not one at a time
		{"gte-large embedding server at 1000 qps, how many l4s?", "count", []string{"× L4 — ", "; requests batched 8 at a time, where a GPU's throughput levels off"}},
		{"bge-m3 임베딩 서버 초당 500건 처리하려면 l4 몇 장?", "count", []string{"× L4 — replica", "; 요청은 "}},
		// a vision model served at a rate: at the batch where the GPU's throughput levels off
		{"resnet-50 inference 5000 images/s how many t4s", "count", []string{"× Tesla T4 — ", "where a GPU's throughput levels off"}},
		{"llama 3.1 8b 서빙 동시 사용자 50명 l4 몇 장 필요해요?", "count", []string{"× L4 — replica", "부하를 감당하는 최소 구성"}},
		// said in the flow of a question: the best server, how fast, a price for the named GPU
		{"best server for qwen2.5 7b full ft?", "which_server", []string{"server-h runs it fastest"}},
		// asked whether it runs on the team's servers: yes or no first
		{"우리 서버에서 llama 3.1 70b qlora 돌릴 수 있어?", "which_server", []string{"네 — 2대에 들어가요 (팀 서버 2대 중)", "server-h가 가장 빨라요"}},
		{"can we run llama 3.1 405b fp8 on any of our servers?", "which_server", []string{"Yes — it fits on 1 of the team's 2 servers; server-h runs it fastest"}},
		// the cheapest asked: the team server whose run costs least, the others' costs beside it
		{"which of our servers is cheapest for bert-base 3 epochs of 1M samples", "which_server", []string{"runs it cheapest ($", "server-a: $"}},
		// the cloud set against the team's servers: both, each with its time and cost
		{"llama3 8b lora 1B tokens: cloud h100 vs our servers, which is cheaper?", "which_server", []string{"Cloud: 1× H100 SXM5 80GB: fits", "The team's servers: cheapest server-"}},
		// how many GPUs llama.cpp needs: all layers on them, not some on the CPU
		{"llama 3.1 70b q4_k_m llama.cpp v100 몇 장 필요해?", "count", []string{"2× Tesla V100 SXM2 32GB"}},
		// a served model's rate in requests, its latency
		{"llama 3 8b vllm on an a100, requests per second?", "time", []string{"requests/s on 1× A100", "output tokens/s"}},
		{"qwen2.5 7b vllm a100 한 장 초당 요청 몇 개?", "time", []string{"초당 약", "요청이에요"}},
		{"llama 3 8b vllm on an a100 at 16 concurrent, what latency?", "time", []string{"First token after", "ms a token", "(16 in flight)"}},
		{"llama 3 8b vllm l40s 동시 32 지연시간?", "time", []string{"첫 토큰까지", "동시 32개"}},
		// two float formats side by side: both planned, the faster one named
		{"llama 3 8b pretrain 10B tokens bf16 vs fp8 on 8x h100 speed", "time", []string{"bf16: ", "fp8: ", "on 8× H100 SXM5 80GB — fp8 is", "as fast as bf16"}},
		{"llama3 8b 로라 bf16 대비 fp8 h100에서 속도 차이?", "time", []string{"bf16: 초당", "fp8: 초당", "빨라요 (bf16 대비)"}},
		{"llama 3 8b 4090에서 속도 얼마나 나와?", "time", []string{"토큰/s"}},
		// a measured rate with no other hardware named: the question is of the GPU it ran on
		{"4090 1장에서 초당 1500 토큰 나오는 llama3 8b qlora, 3억 토큰 돌리면 며칠?", "time", []string{"1× GeForce RTX 4090"}},
		{"we get 1500 tokens/s on a 4090 for llama3 8b qlora, how long for 300M tokens?", "time", []string{"on 1× GeForce RTX 4090"}},
		{"ollama qwen3 14b on 4090 how fast", "time", []string{"tokens/s on 1× GeForce RTX 4090"}},
		{"llama 3.1 8b 5만개 3에폭 lora 어떤 gpu가 제일 싸요?", "which_gpu", []string{"가장 저렴한 구성"}},
		{"estimate for pretraining a 125M gpt2 on openwebtext on one 4090", "time", []string{"on 1× GeForce RTX 4090"}},
		{"quick q: max batch size for bert-base on a t4 at seq 512?", "fit", []string{"The largest micro-batch that fits on 1× Tesla T4 is"}},
		{"llama3 8b lora 4090 최대 배치 크기?", "fit", []string{"가장 큰 micro-batch는 GPU당"}},
		// a cost ceiling: the fastest pick under it, else the cheapest and its cost
		{"train a 3b model from scratch on 100b tokens, budget $20k, what hardware?", "which_gpu", []string{"within $20,000: server-h: 4× H200"}},
		{"train a 3b model from scratch on 100b tokens under $1k", "", []string{"nothing searched stays within $1,000; the cheapest"}},
		// a deployment said as "서버 하나" is no GPU count; the cost of a load
		// is the GPUs' hours around the clock
		{"팀에 LLM api 서버 하나 띄우려는데 하루 요청 10만건, 평균 입력 1k토큰 출력 300토큰이에요. Qwen2.5-7B로 GPU 몇장 필요할까요? 비용도 같이 알려주세요", "count", []string{"부하를 감당하는 최소 개수; 시간당 $", "24시간 돌리면 한 달에 $"}},
		{"llama 3 8b vllm 10 req/s how many l40s and what does it cost?", "count", []string{"× L40S", "an hour,", "a month around the clock"}},
		// requests a second asked with a latency target: the most within it
		{"llama 3 8b vllm on an l40s, how many requests per second with ttft under 500ms?", "time", []string{"requests/s on 1× L40S (", " at once), with the first token in ", "within your 500 ms target."}},
		{"TensorRT-LLM으로 Llama 3 8B fp8 서빙하면 QPS 얼마나 나와요? p50 latency 200ms 이하로요", "time", []string{"요청 하나도 안 돼요", "목표 200 ms를 넘어요"}},
		// a rate per user asked at a load: each stream's pace, and the total
		{"`meta-llama/Llama-3.1-8B-Instruct` tokens/s per user at 32 concurrent users on one A100 80GB, vLLM bf16?", "time", []string{"tokens/s per user (", "with 32 in flight on 1× A100 SXM4 80GB", "tokens/s in all"}},
		{"llama 3.1 8b vllm a100 동접 32명이면 유저당 토큰 속도 어느정도?", "time", []string{"사용자당 초당 약", "동시 32개"}},
		// the launch command asked: the card's line, with the model's repository
		{"`Qwen/Qwen3-8B` 서빙 launch 명령어 알려주세요 vllm으로 h200 한장", "", []string{"실행 명령: `CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --tensor-parallel-size 1"}},
		// probe 32: run on the CPU alone, the host's rate first, then a GPU's
		{"미스트랄 7b를 CPU로만 돌리면 안되나요? GPU 꼭 필요해?", "", []string{"네, GPU 없이도 돼요: llama.cpp가 GGUF Q4_K_M", "토큰/s", "GPU가 꼭 필요하진 않지만"}},
		{"can I run mistral 7b on cpu only?", "", []string{"Yes, without a GPU", "~60 GB/s", "A GPU is not required"}},
		// a laptop: which laptop GPUs hold the file, else the CPU's rate
		{"can I run llama 3 8b on my laptop?", "", []string{"On a laptop", "8 GB or more (RTX 4060/4070 Laptop", "In 16-bit (15.0 GiB) it needs a 24 GB laptop GPU"}},
		{"llama 3 8b 노트북에서도 돌아가요?", "fit", []string{"노트북에서는 llama.cpp나 Ollama로", "노트북 GPU 메모리가 8 GB 이상이면"}},
		// a cost asked where only the cloud holds it, with no amount: its price per 1M samples
		{"PM인데 70B 모델 학습 한번 하는데 대충 얼마 드는지 알려줘", "cost", []string{"클라우드로는", "샘플 100만 개당 약 $"}},
		// tensor parallelism named with no degree: whether the plan uses it
		{"3090 두장으로 13b 모델 LoRA 학습 가능한가요? 텐서병렬 써야하나", "fit", []string{"텐서 병렬은 필요 없어요"}},
		{"llama 70b inference on 2x h100 tensor parallel needed?", "fit", []string{"It needs tensor parallelism: each layer split over 2 GPUs"}},
		// a laptop's GPU named: the laptop part's smaller memory, and whether the job fits it
		{"qwen2.5 7b 내 노트북 4090에서 돌아가?", "fit", []string{"노트북용 GeForce RTX 4090은 16 GB", "그 메모리에는 안 들어가요"}},
		{"will llama 3.2 3b inference fit on my laptop 4070?", "fit", []string{"A laptop's GeForce RTX 4070 has 8 GB", "at 8.3 GiB a GPU, the job does not fit it"}},
		// the cloud's cost against the team's servers: both, and which is less
		{"클라우드 vs 우리 서버 llama 8b lora 비용 차이", "which_server", []string{"팀 서버: $", "클라우드: $", "배 싸요"}},
		{"cloud vs our servers for llama 8b lora, which is cheaper?", "which_server", []string{"On the team's servers: $", "In the cloud: $", "less, at the prices configured"}},
		{"what's the vllm command to serve qwen3 8b on an l40s?", "fit", []string{"Launch it with `CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B"}},
	} {
		r := mustDo(t, s, "U1", tc.text)
		pd, ok := r.Data.(*PlanData)
		if !ok {
			t.Fatalf("%q: data %T", tc.text, r.Data)
		}
		if pd.Question != tc.question {
			t.Errorf("%q: question %q, want %q", tc.text, pd.Question, tc.question)
		}
		for _, w := range tc.answer {
			if !strings.Contains(pd.Answer, w) || !strings.Contains(r.Summary, w) {
				t.Errorf("%q: answer %q lacks %q", tc.text, pd.Answer, w)
			}
		}
		if pd.ReadAs == "" || r.ReadAs != pd.ReadAs {
			t.Errorf("%q: read as %q / %q", tc.text, pd.ReadAs, r.ReadAs)
		}
	}
}

// "Which of our servers" is answered by the earliest finish from the live
// reservations: the fastest server, booked for a day, loses to a slower
// one that is free now, and the answer says both.
func TestWhichServerIsEarliestFinish(t *testing.T) {
	s, _ := newReservations(t)
	mustDo(t, s, "U2", "reserve 4 on server-h for 20h")
	r := mustDo(t, s, "U1", "which of our servers is fastest for bert-base 3 epochs of 1M samples")
	ans := r.Data.(*PlanData).Answer
	if !strings.HasPrefix(ans, "server-a finishes first") || !strings.Contains(ans, "server-h runs it faster") {
		t.Errorf("answer %q: want server-a first and server-h named as faster but busy", ans)
	}
}

// The team's servers are hardware: "on server-h" plans on its GPUs, count
// and price, and the reading names the server.
func TestTeamServerIsHardware(t *testing.T) {
	s, _ := newReservations(t)
	for _, text := range []string{"bert-base 10 epochs of 2.5M samples on server-h", "server-h에서 bert-base 10에폭 250만 샘플", "bert-base 10 epochs of 2.5M samples on h 서버"} {
		r := mustDo(t, s, "U1", text)
		pd := r.Data.(*PlanData)
		if len(pd.Plans) == 0 || pd.Plans[0].Server != "server-h" || pd.Plans[0].GPUs != 4 || !strings.Contains(pd.Plans[0].GPU, "h200") {
			t.Errorf("%q: planned on %+v", text, pd.Plans)
		}
		if !strings.Contains(pd.ReadAs, "server-h") {
			t.Errorf("%q: read as %q", text, pd.ReadAs)
		}
	}
	// Two of its four GPUs.
	r := mustDo(t, s, "U1", "bert-base 10 epochs of 2.5M samples server-h 2장")
	if p := r.Data.(*PlanData).Plans[0]; p.GPUs != 2 || p.Server != "server-h" {
		t.Errorf("server-h 2장: %d GPUs on %q", p.GPUs, p.Server)
	}
	// More than it holds: that many of its GPU, off the server, said so.
	r = mustDo(t, s, "U1", "bert-base 10 epochs on server-h x 8")
	if p := r.Data.(*PlanData).Plans[0]; p.GPUs != 8 || p.Server != "" || !strings.Contains(p.GPU, "h200") || !strings.Contains(render(t, r), "has 4 GPUs") {
		t.Errorf("8 of server-h's 4 GPUs: %d GPUs on %q (%s)", p.GPUs, p.Server, p.GPU)
	}
}

// Reservations asked for in sentences, Korean and English, reach the
// reservation commands with what they asked.
func TestCommandsInSentences(t *testing.T) {
	s, _ := newReservations(t)
	r := mustDo(t, s, "U1", "server-a 2장 내일 오전 9시부터 3시간 예약")
	// A request written in Korean is answered in Korean.
	if !r.InChannel || !strings.Contains(r.Summary+r.Title, "server-a") || !strings.Contains(textOf(t, r), "내일 09:00") ||
		!strings.Contains(textOf(t, r), "내일 12:00") || r.Lang != i18n.KO {
		t.Errorf("Korean reservation: %s", textOf(t, r))
	}
	r = mustDo(t, s, "U2", "can I grab 2 h200s on server h until 6pm?")
	if !r.InChannel || !strings.Contains(textOf(t, r), "server-h") || !strings.Contains(textOf(t, r), "18:00") {
		t.Errorf("English sentence reservation: %s", textOf(t, r))
	}
	r = mustDo(t, s, "U3", "who's using server-h?")
	if txt := textOf(t, r); !strings.Contains(txt, "<@U2>") && !strings.Contains(txt, "U2") {
		t.Errorf("status in a sentence: %s", txt)
	}
	r = mustDo(t, s, "U0ADMIN", "매주 월요일 오전 10시에 <#C0123ABC|ml-infra>로 주간 리포트 보내줘")
	if txt := textOf(t, r); !strings.Contains(txt, "매주 월 10:00") || !strings.Contains(txt, "직전 1주") {
		t.Errorf("Korean digest schedule (answered in Korean): %s", txt)
	}
	r = mustDo(t, s, "U1", "예약 어떻게 해?")
	if txt := textOf(t, r); !strings.Contains(txt, "도움말: reserve") {
		t.Errorf("Korean help question: %.200s", txt)
	}
	for _, inventory := range []string{"우리 서버 a100 몇 장 있어요?", "how many gpus do we have?"} {
		if txt := textOf(t, mustDo(t, s, "U1", inventory)); !strings.Contains(txt, "server-a") || !strings.Contains(txt, "server-h") {
			t.Errorf("%q: the team's GPUs: %.200s", inventory, txt)
		}
	}
	r = mustDo(t, s, "U1", "반납할게요 server-a")
	if txt := textOf(t, r); !strings.Contains(txt, "GPU 반납됨: server-a") {
		t.Errorf("Korean release: %s", txt)
	}
}

func textOf(t *testing.T, r *Reply) string {
	t.Helper()
	var b strings.Builder
	if err := RenderText(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A deadline asked of work with no total ("10 epochs" of no dataset) gets
// the fewest GPUs that fit and what to add — it crashed the command.
func TestDeadlineWithoutATotal(t *testing.T) {
	s, _ := newReservations(t)
	r := mustDo(t, s, "U1", "plan bert-base 10 epochs in a week on a100")
	pd, ok := r.Data.(*PlanData)
	if !ok || !strings.Contains(pd.Answer, "the fewest that fit; to see whether it finishes within 7 days") {
		t.Errorf("answer %+v", r.Data)
	}
}

// "Under $1/hr" caps one GPU's hourly price: the search keeps the GPUs
// priced at or under it, the team's servers at their configured price too
// (none of the test team's is that cheap, so the options are the cloud's),
// the card says so, and a ceiling no GPU meets is refused with the
// cheapest one.
func TestHourlyPriceCap(t *testing.T) {
	s, _ := newReservations(t)
	const limit = 1.0
	for _, text := range []string{"llama3 8b lora 3 epochs of 50k samples under $1/hr", "llama3 8b lora 5만 샘플 3에폭 시간당 1달러 이하"} {
		r := mustDo(t, s, "U1", text)
		var cloud *Section
		for i := range r.Sections {
			if h := strings.ToLower(r.Sections[i].Heading); r.Sections[i].Table != nil && (strings.Contains(h, "cloud") || strings.Contains(h, "클라우드") || strings.Contains(h, "recommend") || strings.Contains(h, "추천")) {
				cloud = &r.Sections[i]
			}
			if h := strings.ToLower(r.Sections[i].Heading); strings.Contains(h, "team") || strings.Contains(h, "팀") {
				if r.Sections[i].Table != nil && len(r.Sections[i].Table.Rows) > 0 {
					t.Errorf("%q: team servers over the ceiling are still offered: %v", text, r.Sections[i].Table.Rows)
				}
			}
		}
		if cloud == nil || cloud.Table == nil || len(cloud.Table.Rows) == 0 {
			t.Fatalf("%q: no cloud options", text)
		}
		for _, row := range cloud.Table.Rows {
			found := false
			for _, g := range s.deps.Catalog.GPUs {
				if strings.Contains(row[1], g.Name+" (") || strings.HasSuffix(row[1], " "+g.Name) {
					found = true
					if g.PriceUSD > limit {
						t.Errorf("%q: %s at $%.2f/h is over the $1 ceiling", text, g.Name, g.PriceUSD)
					}
				}
			}
			if !found {
				t.Errorf("%q: no catalogue GPU in %q", text, row[1])
			}
		}
		if pd := r.Data.(*PlanData); !strings.Contains(pd.ReadAs, "$1") {
			t.Errorf("%q: the reading %q does not say the ceiling", text, pd.ReadAs)
		}
	}
	if _, err := do(t, s, "U1", "llama3 8b lora under $0.01/hr"); err == nil || !strings.Contains(err.Error(), "cheapest") {
		t.Errorf("a ceiling no GPU meets: want the cheapest named, got %v", err)
	}
}

// "On 8 gpus" keeps the count and asks which GPU: every option searched,
// on the team's servers and in the cloud, is 8 GPUs.
func TestGPUCountSaidGPUAsked(t *testing.T) {
	s, _ := newReservations(t)
	for _, text := range []string{"llama3 8b lora 3 epochs of 50k samples on 8 gpus", "llama3 8b lora 5만 샘플 3에폭 gpu 4장으로 얼마나 걸려?"} {
		want := "8× "
		if strings.Contains(text, "4장") {
			want = "4× "
		}
		r := mustDo(t, s, "U1", text)
		rows := 0
		for _, sec := range r.Sections {
			if sec.Table == nil || len(sec.Table.Columns) < 2 || sec.Table.Columns[1] != "hardware" && sec.Table.Columns[1] != "하드웨어" {
				continue
			}
			for _, row := range sec.Table.Rows {
				rows++
				if !strings.Contains(row[1], want) {
					t.Errorf("%q: option %q is not %s", text, row[1], want)
				}
			}
		}
		if rows == 0 {
			t.Errorf("%q: no options searched", text)
		}
	}
}

// "Max context on a 4090" is answered with the longest sequence that fits
// at micro-batch 1: planned at that length the job fits, 5 % longer it
// does not; Unsloth's offloaded checkpoints and fused loss reach further
// than an HF run; the model's own limit caps it; Korean asks, Korean
// answers.
func TestLongestContext(t *testing.T) {
	s, _ := newReservations(t)
	num := regexp.MustCompile(`about ([0-9,]+) tokens`)
	longest := func(text string) int {
		t.Helper()
		ans := mustDo(t, s, "U1", text).Data.(*PlanData).Answer
		m := num.FindStringSubmatch(ans)
		if m == nil {
			t.Fatalf("%q: answer %q names no length", text, ans)
		}
		n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		return n
	}
	hf := longest("llama-3.1-8b qlora max context on a 4090")
	uns := longest("llama-3.1-8b qlora unsloth max context on a 4090")
	if uns <= 2*hf {
		t.Errorf("longest context on a 4090: unsloth %d, hf %d; offloaded checkpoints and no logits should reach much further", uns, hf)
	}
	fits := func(seq int) bool {
		r := mustDo(t, s, "U1", fmt.Sprintf("llama-3.1-8b qlora seq %d micro 1 batch 1 on a 4090", seq))
		return r.Data.(*PlanData).Result.Plans[0].Memory.Fits
	}
	if !fits(hf) || fits(hf*105/100) {
		t.Errorf("hf's longest context %d: fits %v; 5%% longer fits %v", hf, fits(hf), fits(hf*105/100))
	}
	if ans := mustDo(t, s, "U1", "gemma-3-27b inference max context on h100").Data.(*PlanData).Answer; !strings.Contains(ans, "131,072") {
		t.Errorf("gemma 3 27b on an h100: %q; all of its 128k context fits", ans)
	}
	if ans := mustDo(t, s, "U1", "llama 3.1 8b qlora 4090에서 최대 컨텍스트 길이?").Data.(*PlanData).Answer; !strings.Contains(ans, "가장 긴 컨텍스트") {
		t.Errorf("asked in Korean, answered %q", ans)
	}
}

// A comparison of GPU types said without counts plans each at the fewest
// of it that hold the job: one of each does not hold Llama 3 70B LoRA.
func TestCompareWithoutCountsPlansTheFewestThatFit(t *testing.T) {
	s, _ := newReservations(t)
	for _, text := range []string{"compare a100s and h100s for llama 3 70b lora", "h100 vs a100 라마 3 70b 로라 뭐가 나아?"} {
		r := mustDo(t, s, "U1", text)
		pd, ok := r.Data.(*PlanData)
		if !ok || len(pd.Plans) != 2 {
			t.Fatalf("%q: data %T", text, r.Data)
		}
		for _, e := range pd.Plans {
			if !e.Memory.Fits || e.GPUs < 2 {
				t.Errorf("%q: %d× %s fits %v; want the fewest that fit", text, e.GPUs, e.GPUName, e.Memory.Fits)
			}
		}
	}
}

// "In the cloud", "클라우드에서": rented GPUs only, the team's servers left
// out of the answer and the search.
func TestCloudQuestionsLeaveTheTeamServersOut(t *testing.T) {
	s, _ := newReservations(t)
	for _, text := range []string{"mistral 7b qlora 2만 샘플 3 에폭 클라우드에서 하면 얼마 들어?", "what would llama 3 8b lora on 100k samples cost in the cloud?"} {
		r := mustDo(t, s, "U1", text)
		pd := r.Data.(*PlanData)
		if pd.Answer == "" || strings.Contains(pd.Answer, "server-") {
			t.Errorf("%q: answer %q; want a cloud GPU's cost", text, pd.Answer)
		}
		if !strings.Contains(pd.ReadAs, "in the cloud") && !strings.Contains(pd.ReadAs, "클라우드에서") {
			t.Errorf("%q: read as %q", text, pd.ReadAs)
		}
	}
}

// The largest size found fits and the next size up does not: the search
// names the edge, rounded down, not a size that was never checked.
func TestLargestModelIsTheEdge(t *testing.T) {
	s, _ := newReservations(t)
	rd, err := lang.Read(lang.Env{Catalog: s.deps.Catalog}, "what's the largest model I can fine-tune with lora on a 4090")
	if err != nil || !rd.LargestModel {
		t.Fatalf("largest asked %v, %v", rd.LargestModel, err)
	}
	req, line, err := s.largestModel(i18n.For(i18n.EN), rd, rd.Request)
	if err != nil || line == "" {
		t.Fatalf("%q, %v", line, err)
	}
	fits := func(n float64) bool {
		m, err := planner.ModelFromParams(n)
		if err != nil {
			t.Fatal(err)
		}
		j := req.Job
		j.Model = m
		r, err := s.deps.Catalog.Plan(planner.Request{Job: j, Targets: req.Targets, NoSearch: true})
		return err == nil && len(r.Plans) > 0 && r.Plans[0].Memory.Fits
	}
	n := req.Job.Model.Params()
	if !fits(n) || fits(n*1.15) {
		t.Errorf("%s: %.3g parameters fits %v, 15 %% more fits %v", line, n, fits(n), fits(n*1.15))
	}
}

// A message that names GPUs and no model sets the GPUs side by side and
// says how to plan on them.
func TestGPUsSideBySide(t *testing.T) {
	s, _ := newReservations(t)
	for _, text := range []string{"h100 vs h200 차이가 뭐야", "a100 vs h100?"} {
		r := mustDo(t, s, "U1", text)
		d, ok := r.Data.([]GPUInfo)
		if !ok || len(d) != 2 || !strings.Contains(r.Summary, "lora") {
			t.Errorf("%q: data %T (%v), summary %q", text, r.Data, r.Data, r.Summary)
		}
	}
}

// Which GPU is the better value, with no job said ("에이100이랑 h100 중에
// 뭐가 가성비 좋아요?", asked in probe 32 and refused for want of a
// model): the work per dollar, compute-bound and memory-bound, from the
// catalogue's peaks, bandwidths and prices.
func TestGPUValueWithNoJob(t *testing.T) {
	s, _ := newReservations(t)
	for text, want := range map[string][]string{
		"에이100이랑 h100 중에 뭐가 가성비 좋아요?":                 {"가성비(달러당)", "H100 SXM5 80GB가 가장 좋아요", "2.2배"},
		"which is more cost-effective, a100 or h100?": {"Per dollar, H100 SXM5 80GB does the most compute-bound work", "2.2x A100 SXM4 80GB's 178"},
		"4090이랑 a6000 가성비":                            {"GeForce RTX 4090"},
	} {
		r := mustDo(t, s, "U1", text)
		for _, w := range want {
			if !strings.Contains(r.Summary, w) {
				t.Errorf("%q: %q lacks %q", text, r.Summary, w)
			}
		}
	}
	if r := mustDo(t, s, "U1", "a100 vs h100?"); strings.Contains(r.Summary, "Per dollar") {
		t.Errorf("no value asked, yet the value line: %q", r.Summary)
	}
}

// A laptop with no GPU named is answered with the laptop GPUs that hold
// the file; the desktop card the CPU-only plan happened to sit on is no
// laptop part to warn about.
func TestLaptopWithNoGPUNamed(t *testing.T) {
	s, _ := newReservationsOn(t, `
timezone: Asia/Seoul
servers:
  - name: server-4090
    gpu: 4090
    gpus: 4
`)
	r := mustDo(t, s, "U1", "can I run llama 3.1 8b on my laptop?")
	if !strings.Contains(r.Summary, "On a laptop") || strings.Contains(r.Summary, "A laptop's") {
		t.Errorf("summary %q: want the laptop GPUs that hold it and no desktop card's laptop part", r.Summary)
	}
}
