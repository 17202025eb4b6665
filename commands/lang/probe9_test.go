package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Probe 9's misses: DPO on a model given by size is a fine-tune, what is
// done with a model makes it run ("천만 문장 인코딩", "실시간 전사", "24/7
// for a month"), streams at once are users, deadlines beside 데드라인, as
// "2 days to finish" and at a part of a date ("24일 오후까지"), a load
// said as needed ("초당 1000건 가능한"), English words for fine-tuning and
// output and users ("lora tune", "300 completion", "40 people"), a size
// before "gpt", Hangul workloads and quantisation with its bits side by
// side, and "how much faster".
func TestProbeNineReadings(t *testing.T) {
	cat := planner.DefaultCatalog()
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: now}
	for text, w := range map[string]planner.Workload{
		"e5-large로 천만 문장 인코딩하면 비용 얼마?":                                  planner.Inference,
		"whisper medium 실시간 전사 동시 스트림 100개면 gpu 몇 장?":                   planner.Inference,
		"cost of running llama3 8b instruct 24/7 for a month on one l4": planner.Inference,
		"bge-m3 파인튜닝 쿼리-문서 100만쌍 a100 2장 시간":                            planner.Finetune,
		"ballpark cost to lora tune mistral 7b on 300M tokens?":         planner.LoRA,
	} {
		r, err := Read(env, text)
		if err != nil || r.Request.Job.Workload != w {
			t.Errorf("%q: %v, workload %q; want %q", text, err, r.Request.Job.Workload, w)
		}
	}
	if r, err := Read(env, "12월 20일까지 7b 모델 dpo 끝내야 함. 페어 10만개. gpu 뭘로 해야돼?"); err != nil || AssumedWorkload(r.Request.Job) != planner.Finetune {
		t.Errorf("dpo on a sized model: %v, %q", err, AssumedWorkload(r.Request.Job))
	}
	for text, want := range map[string]time.Duration{
		"데드라인 3일인데 llama 3.1 70b lora 5억 토큰 가능? h200 4장":                              72 * time.Hour,
		"2 days to finish, mistral-nemo 12b lora on 400M tokens - how many a100 80gb": 48 * time.Hour,
		"24일 오후까지 끝내야 하는데 mistral 7b full ft 3억토큰 a100 몇장 있어야 할까":                     time.Date(2026, 12, 24, 18, 59, 0, 0, time.UTC).Sub(now),
	} {
		if r, err := Read(env, text); err != nil || r.Deadline != want {
			t.Errorf("%q: %v, deadline %v; want %v", text, err, r.Deadline, want)
		}
	}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"whisper medium 실시간 전사 동시 스트림 100개면 gpu 몇 장?", "3.33 req/s"},
		{"llama 3.1 8b 서빙 with sglang, 5 requests per second, avg 1k prompt 300 completion. how many l4?", "gen 300"},
		{"could server-a alone serve llama 3.1 70b in fp16 for ~40 people at once?", "concurrency 40"},
		{"150m짜리 작은 gpt 처음부터 학습 4090 한장으로 며칠? 토큰 30억개", "150M params"},
		{"h100 pcie vs sxm for finetuning qwen2.5-72b lora, how much faster is sxm", "how long?"},
		{"13b 모델 int4 양자화하면 정확도 말고 메모리 얼마나 줄어", "fp16 vs int4"},
		{"사용자 동시 200명, 응답 토큰 평균 300개, llama 70b awq. a100 몇장?", "gen 300"},
		{"gemma3 12b gguf q8 올라마로 돌릴건데 맥 아니고 rtx 4080 16gb", "q8_0"},
		{"time-to-first-token for qwen2.5 7b on h100 with 4k prompt", "latency?"},
		{"모델 두개 비교: llama3.1 8b vs qwen2.5 7b 서빙 처리량 l4 한장에서", "llama3.1 8b vs qwen2.5 7b"},
	})
	if r, err := Read(env, "server-v로 qwen2.5 7b 추론 가능? v100이라 bf16 안되는걸로 아는데"); err != nil || r.Request.Job.Precision != "" {
		t.Errorf("bf16 ruled out: %v, precision %q", err, r.Request.Job.Precision)
	}
	if r, err := Read(env, "사용자 동시 200명, 응답 토큰 평균 300개, llama 70b awq. a100 몇장?"); err != nil || r.Request.Targets[0].Count == 300 {
		t.Errorf("300 tokens is no GPU count: %v, %+v", err, r.Request.Targets)
	}
	for _, k := range []struct{ text, a, b string }{
		{"qwen3 14b lora랑 풀파인튜닝이랑 vram 차이 얼마나 나요", "lora", "풀파인튜닝"},
		{"7b 풀파인튜닝 vs lora 시간 차이? 데이터 5천만 토큰 h100 2장", "풀파인튜닝", "lora"},
		{"8b 모델 gptq 4bit랑 awq 4bit 중에 vram 덜 먹는거?", "gptq 4bit", "awq 4bit"},
	} {
		r, err := Read(env, k.text)
		if err != nil || r.Variant == nil || r.Variant.Labels != [2]string{k.a, k.b} {
			t.Errorf("%q: %v, variant %+v", k.text, err, r.Variant)
		}
	}
	if r, err := Read(env, "distilbert 추론 초당 1000건 가능한 gpu?"); err == nil && r.Request.Job.RequestRate != 1000 {
		t.Errorf("초당 1000건 가능한: %v req/s", r.Request.Job.RequestRate)
	}
}

// A latency said as a target is read with its unit, first token's or a
// request's, and makes the job a served one.
func TestLatencyTargets(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Now: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)}
	for _, k := range []struct {
		text  string
		secs  float64
		first bool
	}{
		{"70b 모델인데 첫토큰 200ms 이하로 맞춰야 함. 어떤 구성이 좋을까", 0.2, true},
		{"we need llama-3.3-70b serving 100 concurrent users, p50 latency under 2s - what hardware?", 2, false},
		{"qwen2.5 7b h100 vllm ttft 500ms 안쪽으로 되나?", 0.5, true},
		{"deepseek-r1-distill-qwen-32b awq 서빙 p95 지연 2초 이내로 맞추려면?", 2, false},
	} {
		r, err := Read(env, k.text)
		if err != nil || r.LatencyTargetS != k.secs || r.LatencyFirst != k.first || r.Request.Job.Workload != planner.Inference {
			t.Errorf("%q: %v, target %v first %v, %q", k.text, err, r.LatencyTargetS, r.LatencyFirst, r.Request.Job.Workload)
		}
	}
}
