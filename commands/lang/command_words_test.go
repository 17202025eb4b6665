package lang

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Sentences that ask for a command by its everyday words, where two
// commands' words meet: "내 예약" shows them unless a verb says otherwise,
// and "free" asks who holds what unless it waits for GPUs to free up.
func TestCommandWordsThatMeet(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat)}
	for text, want := range map[string]string{
		"내 예약 보여줘":                                "mine",
		"show my reservations":                    "mine",
		"내 예약 2시간 연장해줘":                           "extend",
		"내 예약 반납할게요":                              "release",
		"server-a 2장 2시간 예약":                      "reserve",
		"is anything free on server-a right now?": "status",
		"what's free right now?":                  "status",
		"ping me when 2 gpus free up on server-a": "wait",
		// probe 10: availability asked, in Korean past forms, and a
		// question that says a need is asked, not booked
		"a서버 gpu 몇개 남았어":                                    "status",
		"server-h 비었어?":                                     "status",
		"is server-a free tomorrow? need 4 gpus for 2 days": "status",
		"I need 2 gpus on server-h from 1pm to 5pm":         "reserve",
	} {
		if cr, ok := ReadCommand(env, text); !ok || cr.Name != want {
			t.Errorf("%q: read as %q (%v), want %q", text, cr.Name, ok, want)
		}
	}
}

// A family with a size the catalogue does not hold under the version said
// takes another version of that size, or plans a model of that size —
// never another size of the family.
func TestFamilyWithAnotherSize(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]string{
		"llama 3 405b inference on 8x h200":     "llama-3.1-405b",
		"deepseek-coder 6.7b lora on l40s":      "6.7B",
		"mistral 22b lora on a100":              "22B",
		"qwen 3b lora 1B tokens on a100":        "qwen2.5-3b",
		"gpt2 124M pretrain 10B tokens on h100": "gpt2",
	} {
		r, err := ParsePlan(cat, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		got := r.Job.Model.ID
		if strings.HasSuffix(want, "B") {
			if p := r.Job.Model.Params(); math.Abs(p/1e9-mustFloat(strings.TrimSuffix(want, "B"))) > 0.05*p/1e9 {
				t.Errorf("%q: %s with %.3gB params, want a %s model", text, got, p/1e9, want)
			}
			continue
		}
		if got != want {
			t.Errorf("%q: %s, want %s", text, got, want)
		}
	}
}

func mustFloat(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(err)
	}
	return v
}

// People are not GPUs: "동시 접속 100명" is a served model's concurrency.
func TestKoreanPeopleAreUsers(t *testing.T) {
	r, err := Read(Env{Catalog: planner.DefaultCatalog()}, "mistral 7b 서빙 vllm 동시 접속 100명 l40s 몇 장?")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Request.Targets) != 1 || r.Request.Targets[0].Count == 100 || r.Ask != AskCount {
		t.Errorf("targets %+v, ask %q", r.Request.Targets, r.Ask)
	}
	if !strings.Contains(ReadAs(nil, r), "concurrency 100") {
		t.Errorf("read as %q", ReadAs(nil, r))
	}
}

// Concurrent requests said in Korean ("동시 요청 64개", "동시요청 32") are the
// served model's concurrency, read and not listed as skipped.
func TestKoreanConcurrentRequests(t *testing.T) {
	for text, want := range map[string]string{
		"qwen2.5 7b 서빙 동시 요청 64개 l4":       "concurrency 64",
		"qwen3 8b 추론 vllm 동시요청 32 l40s 2장": "concurrency 32",
		"llama3 8b 서빙 동시 접속 50 a100":       "concurrency 50",
	} {
		r, err := Read(Env{Catalog: planner.DefaultCatalog()}, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if ra := ReadAs(nil, r); !strings.Contains(ra, want) || strings.Contains(ra, "skipped") {
			t.Errorf("%q read as %q, want %q and nothing skipped", text, ra, want)
		}
	}
}

// Hours said after a speech model are hours of audio ("whisper small 파인튜닝
// 300시간"), unless the request says the run took them.
func TestSpeechModelHoursAreAudio(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]float64{
		"whisper small 한국어 파인튜닝 300시간":                   36000,
		"whisper large v3 finetune 500 hours on 4x a100": 60000,
	} {
		r, err := ParsePlan(cat, text)
		if err != nil || r.Job.Samples != want {
			t.Errorf("%q: %v samples, %v", text, r.Job.Samples, err)
		}
	}
	for _, text := range []string{"whisper small 파인튜닝 300시간 걸렸는데 h100이면?", "bert-base finetune 300 hours"} {
		if _, err := ParsePlan(cat, text); err == nil {
			t.Errorf("%q: planned; a duration there is a measurement, not data", text)
		}
	}
}

// "몇 기가" asks how much memory, not how many GPUs; so does a request
// that ends on the word ("vram?").
func TestKoreanHowManyGigabytes(t *testing.T) {
	for _, text := range []string{"lora로 llama2 13b 튜닝할 때 vram 몇 기가?", "llama3 8b 추론 몇 GB 필요해?", "gemma2 27b 추론 vram?", "llama3 8b lora memory?"} {
		r, err := Read(Env{Catalog: planner.DefaultCatalog()}, text)
		if err != nil || !r.Memory || r.Ask != AskFit {
			t.Errorf("%q: memory %v, ask %q, %v", text, r.Memory, r.Ask, err)
		}
	}
}

// "on our servers" names the team's servers (which of them), and "2
// servers with 8 a100s each" counts nodes.
func TestServersSaidInEnglish(t *testing.T) {
	cat := planner.DefaultCatalog()
	r, err := Read(Env{Catalog: cat}, "bert-base on our servers")
	if err != nil || r.Ask != AskWhichServer {
		t.Errorf("on our servers: ask %q, %v", r.Ask, err)
	}
	req, err := ParsePlan(cat, "we have 2 servers with 8 a100s each, can we pretrain a 13b model on 300b tokens")
	if err != nil || len(req.Targets) != 1 || req.Targets[0].Count != 16 || req.Targets[0].GPUsPerNode != 8 {
		t.Errorf("2 servers with 8 a100s each: %+v, %v", req.Targets, err)
	}
}

// Deadlines said with native Korean numbers and in months: "두 시간 안에",
// "한 달 안에", "2개월 안에", "in a month".
func TestDeadlinesInWordsAndMonths(t *testing.T) {
	day := 24 * time.Hour
	for text, want := range map[string]time.Duration{
		"bert-base 3 에폭 250만 샘플 두 시간 안에":                 2 * time.Hour,
		"llama 7b pretrain 100b tokens 한 달 안에 h100 몇 장?": 30 * day,
		"llama 7b pretrain 100b tokens 2개월 안에 h100 몇 장?": 60 * day,
		"llama 7b pretrain 100b tokens in a month":       30 * day,
		"llama 7b pretrain 100b tokens within 3 months":  90 * day,
	} {
		r, err := Read(Env{Catalog: planner.DefaultCatalog()}, text)
		if err != nil || r.Deadline != want {
			t.Errorf("%q: deadline %v, want %v (%v)", text, r.Deadline, want, err)
		}
	}
}

// "tensor parallel" without a degree and "한 달" that is no deadline (a
// month of serving) are read past, not refused.
func TestLayoutAndMonthWordsWithoutNumbers(t *testing.T) {
	for _, text := range []string{
		"Does Gemma 2 27B bf16 inference fit on one h100, or do we need tensor parallel?",
		"qwen2.5 7b 추론 비용 l4 한 장 한 달이면?",
		"deepseek-r1-distill-llama-70b 서빙 한 달 비용 h100 4장 기준으로 알려주세요",
	} {
		r, err := Read(Env{Catalog: planner.DefaultCatalog()}, text)
		if err != nil || r.Deadline != 0 {
			t.Errorf("%q: deadline %v, %v", text, r.Deadline, err)
		}
	}
}

// "tp 2", "tensor parallel 2", "pp 4" are the run's layout: read as its
// degrees, never a serving concurrency or an amount without a unit; said
// without a degree ("do we need tensor parallel?") the plan picks one.
func TestParallelDegreesAreRead(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string][2]int{
		"llama3.1 70b 추론 h100 2장 tp=2":                         {2, 0},
		"llama3.1 70b inference on 2 h100 tensor parallel 2":   {2, 0},
		"llama3.1 70b pretrain 1T tokens tp 8 pp 4 on 64 h100": {8, 4},
		"llama 70b finetune TP8 PP2 on 32 h100":                {8, 2},
		"llama 70b finetune TP=8, PP=2 on 32 h100":             {8, 2},
		"llama 70b 파인튜닝 텐서 병렬 8 파이프라인 병렬 2 h100 32장":           {8, 2},
	} {
		req, err := ParsePlan(cat, text)
		if err != nil || req.Job.Concurrency != 0 || req.Job.TensorParallel != want[0] || req.Job.PipelineParallel != want[1] {
			t.Errorf("%q: tp %d pp %d (want %v), concurrency %d, %v", text, req.Job.TensorParallel, req.Job.PipelineParallel, want, req.Job.Concurrency, err)
		}
	}
	req, err := ParsePlan(cat, "llama3.1 70b finetune on 8 h100, or do we need tensor parallel?")
	if err != nil || req.Job.TensorParallel != 0 || !strings.Contains(strings.Join(req.Job.Notes, "\n"), "the plan picks the tensor and pipeline layout itself") {
		t.Errorf("tensor parallel asked about: tp %d, notes %q, %v", req.Job.TensorParallel, req.Job.Notes, err)
	}
}

// A card named by its memory after a count ("a single 48gb card", "2 24gb
// cards") stands in as the cheapest card of that size.
func TestCountedCardsByMemory(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]int{"qlora 65b on a single 48gb card?": 1, "llama 65b qlora on 2 24gb cards": 2} {
		r, err := ParsePlan(cat, text)
		if err != nil || len(r.Targets) != 1 || r.Targets[0].Count != want {
			t.Errorf("%q: %+v %v", text, r.Targets, err)
		}
	}
}

// Hours of audio are 30-second windows: the amount a Whisper-class model
// reads, in either word order.
func TestAudioHoursAreSamples(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{
		"whisper large-v3 finetune on 100 hours of audio, a100",
		"whisper-large-v3 finetune 100h audio on a100",
		"whisper-large-v3 파인튜닝 음성 100시간 a100 1장",
		"whisper-large-v3 파인튜닝 100시간 음성 a100 1장",
	} {
		r, err := ParsePlan(cat, text)
		if err != nil || r.Job.Samples != 12000 || len(r.Targets) != 1 || r.Targets[0].GPU.ID != "a100-sxm4-80gb" {
			t.Errorf("%q: samples %v targets %+v %v", text, r.Job.Samples, r.Targets, err)
		}
	}
}

// A served request's lengths said label first in Korean ("입력 2000 출력
// 500", "입력 토큰 1000") are the serving readers' input and output.
func TestKoreanInputOutputLengths(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string][2]int{
		"llama3 70b vllm 서빙 h100 2장 동시 50명 입력 2000 출력 500":      {2500, 500},
		"qwen2.5 7b vllm l4 1장 입력 토큰 1000 출력 토큰 200 동시 사용자 20명": {1200, 200},
	} {
		r, err := ParsePlan(cat, text)
		if err != nil || r.Job.SeqLen != want[0] || r.Job.GenTokens != want[1] {
			t.Errorf("%q: seq %d gen %d (%v), want %v", text, r.Job.SeqLen, r.Job.GenTokens, err, want)
		}
	}
}

// A team server named beside its own GPU type is that many of the
// server's GPUs, one setup, not two to compare.
func TestServerNamedWithItsOwnGPU(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat)}
	for text, want := range map[string]struct {
		server string
		count  int
	}{
		"서버 V에 있는 V100 32GB 한 장으로 bert-base 3 에폭 100만 샘플 얼마나 걸려?": {"server-v", 1},
		"bert-base 3 epochs 1m samples on server-a a100 x4":       {"server-a", 4},
	} {
		r, err := Read(env, text)
		if err != nil || len(r.Request.Targets) != 1 || r.Request.Targets[0].Server != want.server || r.Request.Targets[0].Count != want.count {
			t.Errorf("%q: targets %+v, %v; want %s × %d", text, r.Request.Targets, err, want.server, want.count)
		}
	}
	// Two different servers stay two setups.
	r, err := Read(env, "compare bert-base 3 epochs 1m samples on server-a and server-v")
	if err != nil || len(r.Request.Targets) != 2 {
		t.Errorf("two servers: %+v, %v", r.Request.Targets, err)
	}
}

// A token count beside a sample count, with no sequence length said, is
// each sample's length ("5만 샘플 2048 토큰"); a count no sequence has
// stays a second amount of work and is asked about.
func TestTokensBesideSamplesAreTheSequenceLength(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, seq := range map[string]int{
		"llama 3.1 8b lora peft로 h100에서 5만 샘플 2048 토큰 얼마나 걸려?": 2048,
		"llama 3 8b lora 3 에폭 5만 샘플 4096 토큰 a100":              4096,
		"qwen2.5 7b qlora 20k samples, 1024 tokens, on a 4090": 1024,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Request.Job.SeqLen != seq || r.Request.Job.Tokens != 0 {
			t.Errorf("%q: seq %d, tokens %v, %v; want seq %d", text, r.Request.Job.SeqLen, r.Request.Job.Tokens, err, seq)
		}
	}
	if _, err := Read(Env{Catalog: cat}, "bert-base 1M samples 1B tokens"); err == nil {
		t.Errorf("1M samples and 1B tokens should still ask which amount")
	}
	if r, err := Read(Env{Catalog: cat}, "llama 3 8b lora 50k samples seq 1024 2048 tokens"); err == nil && r.Request.Job.SeqLen != 1024 {
		t.Errorf("a sequence length said keeps its value: %d", r.Request.Job.SeqLen)
	}
}

// Latency asked of an inference ("latency at batch 1", "지연시간",
// "레이턴시") is how long it takes, not whether it fits.
func TestLatencyIsATimeQuestion(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{
		"vit-base inference latency at batch 1 on an a100?",
		"resnet50 배치 1 추론 지연시간 t4",
		"bert-base 추론 레이턴시 배치 1 l4",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Ask != AskTime {
			t.Errorf("%q: ask %q, %v", text, r.Ask, err)
		}
	}
}

// Korean how-long questions that read as something else: 몇 before a unit
// of time, a run verb that says what is planned, a weekday of next week,
// and a feasibility word beside a deadline.
func TestKoreanHowLongAndNextWeek(t *testing.T) {
	cat := planner.DefaultCatalog()
	fri := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: fri}
	for text, want := range map[string]Ask{
		"qwen2.5-1.5b lora 100만 샘플 2에폭 서버 A에서 2장 쓰면 몇 시간이에요?":                       AskTime,
		"3B 모델 사전학습 토큰 600억 개면 서버a 4장으로 몇 주 걸려요?":                                   AskTime,
		"bert-base 10 epochs a100 돌릴 건데 얼마나 걸려?":                                    AskTime,
		"a100에서 llama 3 8b lora 5만 샘플 돌리려고 하는데 얼마나 걸려?":                             AskTime,
		"llama 3 8b a100 한 장에 돌릴 수 있어?":                                             AskFit,
		"bert-base 10 epochs a100 몇 장?":                                             AskCount,
		"is server-h enough for pretraining a 30B model on 100B tokens in a month?": AskTime,
	} {
		r, err := Read(env, text)
		if err != nil || r.Ask != want {
			t.Errorf("%q: ask %q, %v; want %q", text, r.Ask, err, want)
		}
	}
	day := func(d int) time.Duration {
		y, m, dd := fri.AddDate(0, 0, d).Date()
		return time.Date(y, m, dd, 23, 59, 0, 0, time.UTC).Sub(fri)
	}
	for text, want := range map[string]time.Duration{
		"다음 주 월요일까지 qwen2.5-7b lora a6000 한 장으로 돼?": day(3), // Monday, Nov 30
		"다음주 금요일까지 bert-base 10 epochs a100 몇 장?":   day(7), // Friday, Dec 4
		"이번 주 금요일까지 bert-base 10 epochs a100 몇 장?":  day(0), // today
		"금요일까지 bert-base 10 epochs a100 몇 장?":       day(7), // the next Friday
	} {
		r, err := Read(env, text)
		if err != nil || r.Deadline != want {
			t.Errorf("%q: deadline %v, %v; want %v", text, r.Deadline, err, want)
		}
	}
	tue := Env{Catalog: cat, Now: time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)}
	if r, err := Read(tue, "다음 주 금요일까지 bert-base 10 epochs a100 몇 장?"); err != nil || r.Deadline.Hours() < 24*10 || r.Deadline.Hours() > 24*11 {
		t.Errorf("next week's Friday from a Tuesday: %v, %v; want 10-11 days", r.Deadline, err)
	}
}

// "time?" at the end, after a number too, and "feasible timeline?" ask how
// long; "feasible?" alone still asks whether it fits.
func TestTimeAskedAtTheEnd(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]Ask{
		"deepseek-r1-distill-qwen-7b lora, 250k examples, 3 epochs, two 3090s. time?":        AskTime,
		"llama-2-13b full ft 8xa100 80g 1 epoch 500k samples seq 2048 time?":                 AskTime,
		"Train GPT-2 medium from scratch on 900M tokens with one A6000 — feasible timeline?": AskTime,
		"bert-base 10 epochs on a100 feasible?":                                              AskFit,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Ask != want {
			t.Errorf("%q: ask %q, %v; want %q", text, r.Ask, err, want)
		}
	}
}
