package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Probe 8's misses: a deadline said beside the word deadline as a length
// or a date ("2 day deadline", "deadline 3일", "our deadline is Dec 15"),
// the day before an event ("월요일 데모인데 그 전까지"), loads said glued or
// per hour or in documents ("초당 20요청", "5k req per hour", "1M
// docs/day", "초당 1000문장 인코딩하려면"), Korean names of engines and
// models (올라마, 딥식), a measured rate said with 찍혔는데 and the rate
// asked back ("h100이면 몇 나올까"), "gpu count?", and "제일 쌈".
func TestProbeEightReadings(t *testing.T) {
	cat := planner.DefaultCatalog()
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: now}
	for _, k := range []struct {
		text string
		want time.Duration
	}{
		{"budget 1000불, deadline 3일, llama3 8b full sft 2억 토큰 가능?", 72 * time.Hour},
		{"2 day deadline: qwen2.5 3b full FT on 1B tokens, what GPUs", 48 * time.Hour},
		{"48h deadline llama 8b lora 1B tokens how many h100", 48 * time.Hour},
		{"our deadline is Dec 15. full finetune gemma-2-27b on 500M tokens. H100 count?", time.Date(2026, 12, 15, 23, 59, 0, 0, time.UTC).Sub(now)},
		{"다음주 월요일 데모인데 그 전까지 gemma2 9b dpo 5천쌍 가능?", time.Date(2026, 11, 29, 23, 59, 0, 0, time.UTC).Sub(now)},
	} {
		r, err := Read(env, k.text)
		if err != nil || r.Deadline != k.want {
			t.Errorf("%q: %v, deadline %v; want %v", k.text, err, r.Deadline, k.want)
		}
	}
	for _, k := range []struct {
		text string
		rate float64
	}{
		{"vllm으로 qwen2.5 7b 띄우고 초당 20요청 받으면 a10g 몇장", 20},
		{"5k req per hour chatbot, avg 800 in / 200 out, qwen2.5 14b: gpu count?", 1.389},
		{"임베딩 모델 bge-large로 초당 1000문장 인코딩하려면 gpu 뭐가 필요?", 1000},
		{"embedding 서버 e5-large, 1M docs/day, 가장 싼 setup 뭐야", 11.574},
	} {
		r, err := Read(env, k.text)
		if err != nil || r.Request.Job.RequestRate != k.rate {
			t.Errorf("%q: %v, %v req/s; want %v", k.text, err, r.Request.Job.RequestRate, k.rate)
		}
	}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"올라마로 llama3.1 8b 돌릴건데 3070 8기가면 되냐", "ollama"},
		{"딥식 v3 학습은 무리고 추론만 fp8로 h100 8장이면 가능한지", "deepseek-v3"},
		{"l40s 한장에서 llama 8b 서빙 1200 tok/s 찍혔는데 h100이면 대충 몇 나올까", "baseline 1200 tokens/s on 1x l40s"},
		{"5k req per hour chatbot, avg 800 in / 200 out, qwen2.5 14b: gpu count?", "how many GPUs?"},
		{"server-v에서 돌린 resnet101 학습이 하루 반 걸렸거든 server-h로 옮기면?", "baseline 36 h on 4x server-v"},
		{"whisper medium 파인튜닝 500시간 데이터 4090 하나로 되나", "on 1x rtx-4090"},
	})
	if r, err := Read(env, "llama 3 70b lora 10만 샘플 학습 비용 얼마 나와? h100 기준"); err != nil || !r.CountOpen {
		t.Errorf("h100 기준: %v, count open %v; want as many H100s as it takes", err, r.CountOpen)
	}
	for text, neg := range map[string]bool{"llama 3 8b 풀파인튜닝 v100 한장에 안들어가지?": true, "llama 3 8b lora 4090에서 안 돼?": true,
		"llama 3 8b lora 4090에서 돼?": false, "llama 3 8b lora 3일 안에 h100 몇장": false} {
		if r, err := Read(env, text); err != nil || r.NegativeAsk != neg {
			t.Errorf("%q: %v, negative %v; want %v", text, err, r.NegativeAsk, neg)
		}
	}
	for text, open := range map[string]bool{"7b 모델 프리트레이닝 1T 토큰 h100으로 하면 돈 얼마나 드나": true, "llama 70b 풀파인튜닝 1억 토큰 a100으로 며칠?": true,
		"gpt2 124M 사전학습 100억 토큰 h100 하나로 얼마 걸림": false, "llama 3 8b 4090으로 몇 토큰/s?": false} {
		if r, err := Read(env, text); err != nil || r.CountOpen != open {
			t.Errorf("%q: %v, count open %v; want %v", text, err, r.CountOpen, open)
		}
	}
	if r, err := Read(env, "llama 3 8b lora 10만 샘플 h100 4장 기준 비용"); err != nil || r.CountOpen || r.Request.Targets[0].Count != 4 {
		t.Errorf("h100 4장 기준: %v, count open %v", err, r.CountOpen)
	}
	r, err := Read(env, "l40s 한장에서 llama 8b 서빙 1200 tok/s 찍혔는데 h100이면 대충 몇 나올까")
	if err != nil || r.Ask != AskTime || !r.Rate {
		t.Errorf("몇 나올까 after a measured rate: %v, ask %q, rate %v; want the rate there", err, r.Ask, r.Rate)
	}
	if r, err := Read(env, "예산 200불, phi-3 mini lora, 데이터 5만개. 어떤 gpu 쓰는게 제일 쌈?"); err != nil || r.Prefer != "cheapest" {
		t.Errorf("제일 쌈: %v, prefer %q", err, r.Prefer)
	}
}

// Two choices of one kind set side by side are read twice, once with
// each: engines, quantisation methods, stacks, workloads and models; a
// pair of GPUs or of precisions keeps its own reading, and a model's name
// takes only its own words.
func TestVariantsSideBySide(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Now: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)}
	for _, k := range []struct {
		text, kind, a, b string
		check            func(j1, j2 planner.Job) bool
	}{
		{"tgi vs vllm llama3.1 8b latency 차이 h100", "engine", "tgi", "vllm", func(j1, j2 planner.Job) bool {
			return j1.Engine == planner.EngineTGI && j2.Engine == planner.EngineVLLM
		}},
		{"awq랑 gptq 중 llama 70b 서빙 메모리 덜 먹는거", "quant", "awq", "gptq", func(j1, j2 planner.Job) bool { return j1.Quant == planner.AWQ && j2.Quant == planner.GPTQ }},
		{"unsloth vs hf llama 3 8b qlora 4090", "stack", "unsloth", "hf", func(j1, j2 planner.Job) bool { return j1.Stack != j2.Stack }},
		{"phi-3-medium lora vs full finetune memory on a single h100", "workload", "lora", "full finetune", func(j1, j2 planner.Job) bool {
			return j1.Workload == planner.LoRA && j2.Workload == planner.Finetune
		}},
		{"llama 3.1 8b vs qwen2.5 7b 로라 학습 시간 차이 a100 기준", "model", "llama 3.1 8b", "qwen2.5 7b", func(j1, j2 planner.Job) bool {
			return j1.Model.ID == "llama-3.1-8b" && j2.Model.ID == "qwen2.5-7b" && j1.Workload == planner.LoRA && j2.Workload == planner.LoRA
		}},
	} {
		r, err := Read(env, k.text)
		if err != nil || r.Variant == nil {
			t.Errorf("%q: %v, variant %+v", k.text, err, r.Variant)
			continue
		}
		v := r.Variant
		if v.Kind != k.kind || v.Labels != [2]string{k.a, k.b} || !k.check(r.Request.Job, v.Request.Job) {
			t.Errorf("%q: %s %q; jobs %+v / %+v", k.text, v.Kind, v.Labels, r.Request.Job.Model.ID, v.Request.Job.Model.ID)
		}
	}
	for _, text := range []string{"h100 vs a100 for llama 8b lora", "bf16 vs fp8 llama 8b pretrain on h100", "llama 3 8b lora on 4090"} {
		if r, err := Read(env, text); err != nil || r.Variant != nil {
			t.Errorf("%q: %v, variant %+v; want none", text, err, r.Variant)
		}
	}
}

// Chinchilla's rule sets the tokens (20 a parameter) unless the work is
// said, and "how many tokens and hours" then asks the time.
func TestChinchillaTokens(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Now: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)}
	for text, want := range map[string]float64{
		"pretrain a 350M model Chinchilla optimal, how many tokens and hours on 4x A100":              7e9,
		"1b짜리 모델 처음부터 프리트레이닝하면 친칠라 기준 토큰 몇개 필요하고 h100 8장으로 며칠 걸려?":                                    2e10,
		"pretrain a 350M model on 30B tokens, chinchilla optimal would be fewer, how long on 4x a100": 0,
	} {
		r, err := Read(env, text)
		if err != nil || r.Request.Job.Tokens != want || r.Ask != AskTime || r.Chinchilla != (want > 0) {
			t.Errorf("%q: %v, %v tokens, ask %q; want %v and the time", text, err, r.Request.Job.Tokens, r.Ask, want)
		}
	}
}

// A span of serving said with a served model is its hours (a month is
// 730), for the cost of keeping it up; with training it is nothing.
func TestServingSpans(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Now: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)}
	for text, want := range map[string]float64{
		"qwen2.5 72b 서빙 한달 돌리면 클라우드비용 대충 얼마야":                           730,
		"llama3.1 8b 하루 요청 100만건 처리하면 월 비용?":                            730,
		"how much to serve mistral small 24b 24/7 for a month on A100s": 730,
		"llama 3 8b inference on l4 per month cost":                     730,
		"llama 3 8b lora 1B tokens in a month on h100s, how many":       0,
	} {
		r, err := Read(env, text)
		if err != nil || r.ServeHours != want {
			t.Errorf("%q: %v, serve hours %v; want %v", text, err, r.ServeHours, want)
		}
	}
}

// A run's time said after its hardware ("ran the same job on 1 a100 in
// 5h 20m") and an hour with its minutes ("10h 30m") are read whole; a
// comparison asked in money of served models gives each column's price a
// token.
func TestRunTimesSaidAfterTheirHardware(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Now: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"ran the same job on 1 a100 in 5h 20m; roughly how long on 8 h100s?", "baseline 5.333 h on 1x a100"},
		{"bert-base ran on 1 a100 in 5h, how long on 8 h100s?", "baseline 5 h on 1x a100"},
		{"bert-base took 2 hours 30 minutes per epoch on a t4, how long on an a100?", "baseline 2.5 h/epoch on 1x t4"},
	})
	if r, err := Read(env, "need ~30 tok/s per user for 40 users, llama 3.1 8b, which gpu"); err != nil || r.Request.Job.OutputTokPS != 1200 || r.Request.Job.Concurrency != 40 {
		t.Errorf("30 tok/s per user for 40 users: %v, %+v", err, r.Request.Job)
	}
	r, err := Read(env, "llama 8b lora 1B tokens within 10h 30m on h100s how many")
	if err != nil || r.Deadline != 630*time.Minute {
		t.Errorf("10h 30m: %v, deadline %v", err, r.Deadline)
	}
}
