package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Readings probe 14 (100 Slack-style requests written blind, 2026-11-28:
// context first, polite Korean, slash notes, numbers in words) found
// wanting: a closing bracket after a value ("(데이터 2만5천 개, 에폭 5)",
// "(epochs 5)") is no list marker and brackets are not part of words;
// "max len 256"; what the data is ("on customer chat logs", "300M tokens
// of code", "on 500 hrs of korean audio") is neither hardware nor a model;
// "like 100 concurrent users" after the GPUs is a load, not a GPU count;
// a training job's input and output lengths ("입력 512 출력 128") are its
// sequence, not a served request's; "an embedding model … per epoch" and
// "임베딩 모델 파인튜닝" train; "배치 사이즈 최대 몇까지" asks the largest
// batch; "moe" after a model's name is filler; a precision said as
// unsupported ("V100s do not support bf16") is not planned; counts of one
// GPU side by side after its name ("h200 1장 vs 2장") are compared; two
// weight formats side by side ("int8 vs int4"), a third option beside two
// (named in the notes), "compare" before two choices; "quality/memory" is
// two words, not a Hub id; a size said first and then the model of that
// size ("70b 모델 … 모델은 llama 3.1 70b") is one model; "A를 B로 바꾸면"
// sets the two models side by side.
func TestProbeFourteenReadings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 28, 11, 0, 0, 0, time.UTC)}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"KLUE RoBERTa base로 NLI 학습 (데이터 2만5천 개, 에폭 5) 비용이 원화로 얼마나 들까요? server-v 기준으로요", "5 epochs of 25000 samples · seq 128 · on 4x server-v · what does it cost?"},
		{"roberta base finetune (epochs 5) on h100", "roberta-base · finetune · 5 epochs · on 1x h100-sxm5-80gb"},
		{"llama 8b lora 1) h200 몇장 2) 한달 비용", "llama-3.1-8b · lora"},
		{"koelectra-base-v3 / 문장 분류 / 80만 문장 / max len 256 / 에폭 4 / server-v 1장 → 몇 시간?", "4 epochs of 800000 samples · seq 256 · on 1x server-v · how long?"},
		{"trying to fine tune whisper-large-v3 on 500 hrs of korean audio, which of our servers shoud i use?", "whisper-large-v3 · finetune · 60000 samples"},
		{"deepseek-coder-v2-lite 16b lora on 1x h200, 300M tokens of code, how long?", "deepseek-coder-v2-lite · lora · 300M tokens · on 1x h200-sxm-141gb · how long?"},
		{"finetuning llama3.1-8b-instruct on customer chat logs (about 2.5 billion tokens lol) w/ full ft on server-h", "llama-3.1-8b · finetune · 2.5B tokens · on 4x server-h"},
		{"can i serve llama 3.1 70b in fp8 with vllm on 2 h200s? expecting like 100 concurrent users", "vllm concurrency 100 · on 2x h200-sxm-141gb"},
		{"t5-large 요약 모델 학습, 문서 40만 건, 입력 512 출력 128, 3 에폭, a100 2장", "t5-large · finetune (assumed) · 3 epochs of 400000 samples · seq 640 · on 2x a100-sxm4-80gb"},
		{"llama3 8b 서빙 입력 1000 출력 200 h100", "llama-3-8b · inference"},
		{"we got a new dataset of ~20 million sentence pairs for an embedding model (e5-large). how long per epoch on server-h with all 4 gpus?", "e5-large-v2 · finetune (assumed)"},
		{"bge-m3 임베딩 모델 파인튜닝, 쿼리-문서 쌍 50만 개, a100 1장", "bge-m3 · finetune · 500000 samples"},
		{"llama 3.1 8b lora 학습하려고 하는데 h200 1장에 배치 사이즈 최대 몇까지 올릴 수 있을까요? seq 4096이요", "llama-3.1-8b · lora · seq 4096 · on 1x h200-sxm-141gb · largest batch?"},
		{"deepseek v2 lite moe 풀파인튜닝 h200 4장으로 가능?", "deepseek-v2-lite · finetune · on 4x h200-sxm-141gb"},
		// counts of one GPU side by side after its name
		{"mixtral 8x7b vllm 서빙 → h200 1장 vs 2장 (텐서 병렬)", "compare 1x h200-sxm-141gb, 2x h200-sxm-141gb"},
		{"mixtral 8x7b vllm 서빙 h200 1장이랑 2장 비교", "compare 1x h200-sxm-141gb, 2x h200-sxm-141gb"},
		{"bert h100 2장, 100만 샘플 1에폭", "1 epoch of 1M samples · on 2x h100-sxm5-80gb"},
		// two weight formats side by side; a third choice beside two; the
		// word "compare" before two choices that are not hardware
		{"solar 10.7b int8 vs int4 quality/memory tradeoff for serving on a 4090?", "solar-10.7b · inference · int8 vs int4 · on 1x rtx-4090"},
		{"llama 3.2 3b를 fp16 vs int8 vs int4로 서빙할 때 메모리 차이 알려주세요", "llama-3.2-3b · inference · fp16 vs int8 vs int4"},
		{"serving qwen2.5 7b with ollama vs vllm vs tgi on a l40s, which gives best throughput?", "ollama vs vllm vs tgi · on 1x l40s"},
		{"혹시 70b 모델 qlora 학습을 a100 80기가 한 장으로 돌리는 게 현실적으로 가능한지 여쭤봐도 될까요? 모델은 llama 3.1 70b 입니다.", "llama-3.1-70b · qlora · on 1x a100-sxm4-80gb · will it fit?"},
		{"기존에 쓰던 bert-base-multilingual을 roberta large로 바꾸려는데, 학습 시간이 얼마나 늘어날지 궁금합니다. 데이터 10만 개, a100 1장 기준이에요.", "bert-base-multilingual vs roberta large · on 1x a100-sxm4-80gb"},
		{"exaone 3.5 7.8b lora on server-v, given V100s do not support bf16, 20k samples, how long", "exaone-3.5-7.8b · lora · 20000 samples · on 4x server-v · how long?"},
		{"hey so we're finetuning llama3.1-8b-instruct on customer chat logs (about 2.5 billion tokens lol) w/ full ft. have server-h for a week. will it finish?", "2.5B tokens · on 4x server-h · how long to finish within 7 days?"},
		{"compare full finetune vs lora for mistral 7b on server-a, 100M tokens, time + cost pls", "mistral-7b-v0.1 · finetune · 100M tokens · full finetune vs lora · on 4x server-a"},
	})
	for _, text := range []string{"llama 8b lora on v100, no bf16", "exaone 3.5 7.8b lora on server-v, V100s do not support bf16, 20k samples, how long"} {
		// a precision said as unsupported is not the one planned
		if r, err := Read(env, text); err != nil || r.Request.Job.Precision != "" {
			t.Errorf("%q: precision %q (%v); want none said", text, r.Request.Job.Precision, err)
		}
	}
	if r, err := Read(env, "llama 3.1 8b lora 학습하려고 하는데 h200 1장에 배치 사이즈 최대 몇까지 올릴 수 있을까요? seq 4096이요"); err != nil || !r.MaxBatch {
		t.Errorf("배치 사이즈 최대 몇까지: MaxBatch %v (%v); want the largest batch asked", r.MaxBatch, err)
	}
	if r, err := Read(env, "우리 팀 서버 중에 llama3.2 1b 학습 제일 싸게 할 수 있는 곳 어디에요? 데이터 5백만 토큰"); err != nil || r.Prefer != "cheapest" || r.Ask != AskWhichServer {
		t.Errorf("제일 싸게 할 수 있는 곳: prefer %q ask %v (%v); want the cheapest team server", r.Prefer, r.Ask, err)
	}
}
