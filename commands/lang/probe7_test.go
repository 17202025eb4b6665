package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Deadlines said as dates of the calendar, in both languages: on
// Saturday 28 November at 10:00 a date later this month is this month's,
// one already past is next month's ("by the 15th"), a month and day
// already past this year is next year's, "다음 달" moves the day to next
// month, 전(에) and "before" end the day before; "15일 안에" stays fifteen
// days and "최대 3일까지" three days at most, no date.
func TestDeadlinesOnCalendarDates(t *testing.T) {
	cat := planner.DefaultCatalog()
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	env := Env{Catalog: cat, Now: now}
	end := func(y int, m time.Month, d int) time.Duration {
		return time.Date(y, m, d, 23, 59, 0, 0, time.UTC).Sub(now)
	}
	for _, k := range []struct {
		text string
		want time.Duration
	}{
		{"llama3 8b lora 1B tokens by dec 15 how many h100", end(2026, 12, 15)},
		{"llama3 8b lora 1B tokens by the 15th, how many h100s?", end(2026, 12, 15)},
		{"llama3 8b lora 1B tokens by 12/15 how many h100", end(2026, 12, 15)},
		{"llama3 8b lora 1B tokens until december 20th on 2 h100s?", end(2026, 12, 20)},
		{"llama3 8b lora 1B tokens by 30th nov on 2 h100s?", end(2026, 11, 30)},
		{"llama3 8b lora 1B tokens by jan 5 on 2 h100s?", end(2027, 1, 5)},
		{"llama3 8b lora 1B tokens before dec 15, 2 h100s enough?", end(2026, 12, 14)},
		{"llama3 8b lora 1B tokens 12월 15일까지 h100 몇장", end(2026, 12, 15)},
		{"llama3 8b lora 1B tokens 12/15까지 h100 몇장", end(2026, 12, 15)},
		{"llama3 8b lora 다음달 15일까지 끝내려면 h100 몇장?", end(2026, 12, 15)},
		{"llama3 8b lora 1B tokens 다음 달 3일까지 h100 몇장", end(2026, 12, 3)},
		{"llama3 8b lora 1B tokens 30일까지 돼? h100 2장", end(2026, 11, 30)},
		{"llama3 8b lora 1B tokens 5일 전에 끝나야 해 h100 몇장", end(2026, 12, 4)},
		{"llama3 8b lora 1B tokens 1월 10일까지 h100 몇장", end(2027, 1, 10)},
		{"llama3 8b lora 1B tokens 15일 안에 h100 몇장", 15 * 24 * time.Hour},
	} {
		r, err := Read(env, k.text)
		if err != nil {
			t.Errorf("%q: %v", k.text, err)
			continue
		}
		if r.Deadline != k.want {
			t.Errorf("%q: deadline %v, want %v", k.text, r.Deadline, k.want)
		}
	}
	for _, text := range []string{"llama3 8b lora 1B tokens 2월 30일까지 h100 몇장", "llama3 8b lora 1B tokens 최대 3일까지 h100 2장"} {
		if r, err := Read(env, text); err == nil && r.Deadline > 0 && r.Deadline != 3*24*time.Hour {
			t.Errorf("%q: deadline %v, want none (or three days)", text, r.Deadline)
		}
	}
}

// A unit said before its number after a model size ("llama 3 8b 토큰
// 1억개": the 8b is the model's, the tokens are 1억), the width and the
// vocabulary said after their numbers like layers and heads, the Korean
// names of the parallel layouts, and a layout's degree as the GPU count
// when none is said.
func TestUnitsLayoutsAndWidthsAsWritten(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Now: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"llama 3 8b 토큰 1억개 학습 h100 4장이면 얼마나 걸려?", "100M tokens"},
		{"llama 3 8b 샘플 50만개 파인튜닝 h100 4장", "500000 samples"},
		{"qwen 7b 10억 토큰 3 에폭 h100 4장", "3 epochs of 1B tokens"},
		{"mistral 7b 1억 토큰 4장 h100", "on 4x h100"},
		{"24 layers 1024 hidden 16 heads pretrain 10B tokens on 8x a100", "layers 24 hidden 1024 heads 16"},
		{"a model with 24 layers, 1024 hidden, 16 heads, 32k vocab: 10B tokens on 8 a100s how long", "vocab 32000"},
		{"llama 70b 추론 텐서패러렐 2로 h100에서 돼?", "on 2x h100"},
		{"llama 70b inference tp 4 on h100", "on 4x h100"},
		{"llama3 70b 파인튜닝 tp 8 pp 2 h100", "on 16x h100"},
		{"llama 70b inference tp 4", "on 4 gpus"},
	})
	r, err := Read(env, "llama 70b inference tp 4 how many h100")
	if err != nil || r.Ask != AskCount || !r.CountOpen {
		t.Errorf("a count asked beside a layout: %+v, %v; want the count open", r.Request.Targets, err)
	}
	r, err = Read(env, "llama3 70b 128k context 학습 컨텍스트 병렬 필요해?")
	if err != nil {
		t.Fatal(err)
	}
	if got := ReadAs(cat, r); r.Request.Job.ContextParallel != 0 || len(r.notes) == 0 {
		t.Errorf("context parallel asked without a degree: %s, cp %d, notes %q", got, r.Request.Job.ContextParallel, r.notes)
	}
}

// Probe 7's misses: a deadline glued to its particle ("이틀안에"), a sum
// with a Korean scale before the currency ("3천달러"), a length said with
// 길이 alone, an 8-bit optimizer said with the word optimizer (not int8
// weights), "quick one" (no count), percentile latencies, things counted
// as samples (tweets, articles), the machine a GPU sits in ("my laptop
// 4070"), and a latency asked with 얼마 (not a cost).
func TestProbeSevenReadings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"llama 3.1 8b 한국어 continued pretraining 토큰 100억개, 예산 3천달러 안에 가능?", "budget $3000"},
		{"llama 3.1 8b lora 1억 토큰 1만불로 h100 몇장", "budget $10000"},
		{"qwen2.5-3b 학습, 프롬프트+응답 길이 4k, 배치 16, a6000 한장 메모리?", "seq 4096"},
		{"혹시 mistral nemo 12b 풀파인 h200 한장에 들어가나? 옵티마이저 8bit 쓰면", "adam8bit"},
		{"mistral 7b full finetune h100 with 8-bit optimizer", "adam8bit"},
		{"quick one: qwen3-8b full FT on server-h, 400M tokens, how long", "400M tokens"},
		{"what's the p50 latency for mixtral 8x7b on 2x h100 with vllm, 512 in / 256 out", "latency?"},
		{"roberta-base sentiment finetune, 1.2M tweets, 2 epochs, single t4 — time?", "2 epochs of 1.2M samples"},
		{"t5-base summarization fine-tune, 287k cnn/dm articles, 3 epochs, a100 40g?", "287000 samples"},
		{"gemma 2 2b full finetune on my laptop 4070 (12gb)?", "on 1x rtx-4070"},
		{"첫 토큰 지연시간 (ttft) gemma 3 12b h100에서 얼마? 프롬프트 8k", "concurrency 1"},
		{"llama3 8b dpo 60k pairs on 2x h100", "dpo"},
		{"estimated cost to DPO llama 3.1 70b with 50k preference pairs on h100s", "dpo"},
		{"이번주 안에 gemma2 27b dpo 끝내야함. 데이터 2만쌍. h100 몇장 빌려야돼", "dpo"},
	})
	r, err := Read(env, "clip vit-l/14로 이미지 5천만장 임베딩하려면 a100 몇장 필요해? 이틀안에 끝내고 싶어")
	if err != nil || r.Deadline != 48*time.Hour || r.Ask != AskCount {
		t.Errorf("이틀안에: %v, deadline %v, ask %q", err, r.Deadline, r.Ask)
	}
	r, err = Read(env, "첫 토큰 지연시간 (ttft) gemma 3 12b h100에서 얼마? 프롬프트 8k")
	if err != nil || r.Ask != AskTime || !r.Latency {
		t.Errorf("지연시간 … 얼마: %v, ask %q, latency %v; want the latency", err, r.Ask, r.Latency)
	}
}

// A load said over any span of time is the arrival rate per second
// ("5k req/min" is 83.333 req/s, "하루에 요청 10만건" 1.157); a token rate is
// a load to serve when a word makes it a target ("for 20k tok/s", "생성해야")
// and a measured speed otherwise ("초당 40토큰 나왔는데").
func TestLoadsOverAnySpan(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Now: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)}
	for _, k := range []struct {
		text      string
		rate, tok float64
	}{
		{"we need 5k req/min throughput for an embedding service using bge-large-en-v1.5, which gpu and how many?", 83.333, 0},
		{"llama 3.1 8b vllm 300 requests per minute on h100 how many", 5, 0},
		{"하루에 요청 10만건 들어오는데 qwen2.5 7b 서빙 a100 몇장?", 1.157, 0},
		{"llama 3.1 8b 분당 300건 처리 h100 몇장", 5, 0},
		{"llama 8b serving 20k tok/s how many h100", 0, 20000},
		{"we measured 1,800 tok/s on one h100 for llama 8b with vllm; how many h100s for 20k tok/s?", 0, 20000},
		{"1시간당 100만 토큰 생성해야 하는데 llama 3.1 8b로 l40s 몇장?", 0, 277.778},
		{"llama 3.1 8b 초당 2만 토큰 처리해야 하는데 h100 몇장", 0, 20000},
	} {
		r, err := Read(env, k.text)
		if err != nil {
			t.Errorf("%q: %v", k.text, err)
			continue
		}
		if j := r.Request.Job; j.RequestRate != k.rate || j.OutputTokPS != k.tok || j.Workload != planner.Inference {
			t.Errorf("%q: %v req/s, %v tok/s, %q; want %v, %v, inference", k.text, j.RequestRate, j.OutputTokPS, j.Workload, k.rate, k.tok)
		}
	}
	team := Env{Catalog: cat, Servers: teamServers(t, cat), Now: env.Now}
	if r, err := Read(team, "타이니라마 사전학습 H100x8에서 하루에 200억 토큰 처리했는데, server-h 네 장으로 1000억 토큰이면 며칠?"); err != nil || r.Request.Job.OutputTokPS != 0 || r.Request.Baseline == nil || r.Request.Baseline.Value != 231481.481 {
		t.Errorf("a day's tokens processed in the past: %v, output rate %v, baseline %+v; want a measured run of 2e10/86400 tokens/s", err, r.Request.Job.OutputTokPS, r.Request.Baseline)
	}
	r, err := Read(env, "llama 3 8b 4090에서 초당 40토큰 나왔는데 h100이면?")
	if err != nil || r.Request.Baseline == nil || r.Request.Job.OutputTokPS != 0 {
		t.Errorf("a measured speed: %v, baseline %+v, output rate %v", err, r.Request.Baseline, r.Request.Job.OutputTokPS)
	}
}
