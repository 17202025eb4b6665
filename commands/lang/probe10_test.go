package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Probe 10's misses: a family and its size glued ("qwen7b", "llama8b",
// "mistral7b@bf16", "라마38b"), sizes and epoch counts in Hangul words
// ("칠십이비", "칠비", "에폭 세번"), a list's markers ("1) … 2) …"), a size
// class beside the model named ("7B급 모델(Qwen2.5-7B …)"), the batch said
// first ("배치 글로벌 128"), "grad acc", a speed claim ("3x faster"), "…or
// do i need 2", "full params", "grad ckpt on,", the data trained on
// ("on our support tickets"), "rtx 4090x1", serving words that make a job
// inference ("ttft", "will it run", "latency for", "locally"), a run said
// "for 36 hours" after its hardware, a target named without a count beside
// a measured run, slash-separated one-liners and "동접100".
func TestProbeTenReadings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"qwen7b / qlora / 4090 / 들어감?", "qwen2.5-7b · qlora"},
		{"llama8b / lora / 50k samples / 3ep / 2xa100 / eta?", "llama-3.1-8b · lora · 3 epochs of 50000 samples · on 2x a100"},
		{"mistral7b@bf16 on a6000 - fits w/ 32k ctx?", "mistral-7b-v0.1"},
		{"라마38b로라a100한장3에폭5만개몇시간걸려요", "llama-3-8b · lora · 3 epochs of 50000 samples"},
		{"큐웬 칠십이비 서빙 h100 두장이면 됨?", "qwen2.5-72b · inference · on 2x h100"},
		{"젬마 이십칠비 qlora 메모리 얼마나 먹어?", "gemma-3-27b · qlora"},
		{"데이터 오만개 에폭 세번 라마 팔비 로라 에이백 한장 얼마나 걸림", "llama-3.1-8b · lora · 3 epochs of 50000 samples"},
		{"에폭 다섯번, 데이터 이십만 건, 큐웬 14b 큐로라, 에이백 두 장. 몇 시간 걸려요?", "qwen3-14b · qlora · 5 epochs of 200000 samples"},
		{"llama 3 70b 서빙하려는데 1) h200 몇장 필요하고 2) 한달 비용 얼마고 3) 동시 100명 가능한지", "concurrency 100"},
		{"7B급 모델 lora a100 한장", "7B params · lora"},
		{"라마 3.1 8b 풀파인튜닝 / 데이터 8만 / 에폭3 / 시퀀스 4096 / 배치 글로벌 128 / h200 8장", "batch 128"},
		{"라마 3.1 8b 풀파인튜닝 데이터 8만 에폭 3 h200 8장", "3 epochs of 80000 samples"},
		{"h100 x 8, llama3-70b, lora r=16, seq 8k, bs 1, grad acc 16, 데이터 3만, 2 epoch → 몇 시간?", "2 epochs of 30000 samples"},
		{"h100 llama 8b lora throughput vs a100 - is it really 3x faster?", "compare h100-sxm5-80gb, a100-sxm4-80gb"},
		{"is 1 h100 enough for gemma-2-27b dpo w/ 10k pairs or do i need 2", "on 1x h100-sxm5-80gb"},
		{"how many gpus to finetune qwen2.5 32b full params", "qwen2.5-32b · finetune"},
		{"full ft llama 3 8b, bs 8, seq 8192, grad ckpt on, zero-2, 8x h100 - oom?", "ckpt zero2 · on 8x h100"},
		{"we're planning to fine-tune llama-3.1-8b-instruct on our support tickets (~120k convos) with lora for 3 epochs on 4x a100 80gb", "3 epochs of 120000 samples"},
		{"q: qwen 14b qlora, 30k samples, rtx 4090x1. (a) fits? (b) hours?", "on 1x rtx-4090"},
		{"ttft for llama 3 8b on h100 with 8k context?", "llama-3-8b · inference"},
		{"phi-3-mini on rtx 4060 8gb, will it run?", "phi-3-mini-4k · inference"},
		{"latency for 512 output tokens llama 3 8b on a10g", "llama-3-8b · inference · gen 512"},
		{"ran sft on 8xA100 for 36 hours, 200k samples; if we switch to 8x H100 how long", "baseline 36 h on 8x a100-sxm4-80gb · on 8x h100"},
		{"v100 4장에서 에폭당 5.67시간 걸렸는데 h200으로 옮기면 에폭당 얼마나 걸릴까요?", "on 4x h200-sxm-141gb"},
		{"llama8b/lora/5만/3ep/a100x2/시간?", "llama-3.1-8b · lora · 3 epochs of 50000 samples · on 2x a100-sxm4-80gb"},
		{"라마/8b/서빙/vllm/동접100/h100몇장", "llama-3.1-8b · inference · vllm concurrency 100"},
		{"llama8b / lora / 50k / 3ep / 2xa100 / eta?", "3 epochs of 50000 samples"},
		{"혹시 8x H100 노드 하나 빌리면 llama 3 8b continued pretraining 50B 토큰 몇일이나 걸리는지랑 대충 비용도 알수있을까여", "50B tokens · in the cloud · on 8x h100"},
		{"a10 하나로 llama 8b 추론", "on 1x a10"},
		{"which gpu should i rent for finetuning 13b models with lora, budget $2k/month?", "budget $2000"},
		{"llama 8b serving budget $2k/month on l4", "served for 730 h"},
	})
	// a unit after a slash stays the rate's; a Hub id keeps its slash
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"llama 3 8b 4090에서 몇 토큰/s 나와?", "inference · on 1x rtx-4090"},
		{"meta-llama/Llama-3.2-3B lora on a100", "llama-3.2-3b · lora"},
	})
	for _, text := range []string{"사비로 4090 샀는데 llama 8b lora 돼?", "bert-base on"} {
		r, err := Read(env, text)
		if text == "bert-base on" {
			if err == nil {
				t.Errorf("%q: a dangling `on` names no hardware: want an error", text)
			}
			continue
		}
		if err != nil || r.Request.Job.Model.Params() > 9e9 {
			t.Errorf("%q: %v, model %s: 사비 is one's own money, not a 4B model", text, err, r.Request.Job.Model.ID)
		}
	}
}
