package lang

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// An encoder fine-tuned or served for a named task, with no length said,
// is planned at the task's reference length (run_glue's 128, run_qa's
// 384); a length said, no task word, or a decoder keeps its own.
func TestEncoderTaskLengths(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, seq := range map[string]int{
		"bert-base로 문장 분류 파인튜닝 하려는데 데이터 10만개, 3090 4장이면 얼마나 걸려요?":          128,
		"klue/roberta-base 감성분류 fine-tune 5 epochs 20만 문장 on 4x 4090":      128,
		"fine-tune bert-large for sentiment classification on 50k reviews": 128,
		"bert-base 감성분석 모델 서빙 a10 몇 장?":                                    128,
		"bert-large 기계독해 파인튜닝 a100에서 얼마나 걸려?":                              384,
		"bert-base 분류 seq 256 fine-tune on a100":                           256,
		"bert-base fine-tune 10만 샘플 on a100":                               0,
		"llama 3 8b lora 분류 on a100":                                       0,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if r.Request.Job.SeqLen != seq {
			t.Errorf("%q: seq %d, want %d", text, r.Request.Job.SeqLen, seq)
		}
		if seq == 128 && slices.ContainsFunc(r.Skipped, isClassifyWord) {
			t.Errorf("%q: task word still skipped: %v", text, r.Skipped)
		}
	}
}

// Probe 34's bookings: a start said as a span from now ("2시간 뒤부터",
// "in 2 hours"), a clock span written as one word ("1pm-5pm"), GPUs over
// a window said start to end with no booking verb, "전부" on a server as
// all its GPUs, and the day of the booking an extension means.
func TestProbe34Bookings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "a100"), Count: 8, Server: "gpu1"},
		{GPU: mustGPUFor(t, cat, "h100"), Count: 4, Server: "gpu2"}, {GPU: mustGPUFor(t, cat, "3090"), Count: 4, Server: "dev-3090"}}}
	for text, want := range map[string]string{
		"2시간 뒤부터 3090 두장 3시간만 쓸게요":                     "reserve 2 on dev-3090 in 2h for 3h",
		"30분 후에 3090 한장 1시간 쓸게요":                       "reserve 1 on dev-3090 in 30m for 1h",
		"reserve 2 3090 in 2 hours for 3h":             "reserve 2 on dev-3090 in 2 hours for 3h",
		"book 2 H100s on gpu2 tomorrow 1pm-5pm":        "reserve 2 on gpu2 tomorrow 1pm to 5pm",
		"이번주 금요일 오후 2시부터 저녁 8시까지 에이백 4장 부탁드려요":         "reserve 4 on gpu1 from fri 14:00 until 20:00",
		"내일 하루종일 gpu1 전부 써야하는데 가능해요?":                  "reserve 8 on gpu1 from tomorrow 0:00 until tomorrow midnight",
		"extend my booking tomorrow on gpu1 by 1 hour": "extend gpu1 tomorrow by 1 hour",
		"금요일 예약 오후 6시까지로 줄여줘":                          "shorten until fri 18:00",
		"book gpus 0-3 on gpu1 from 9:30-11:00":        "reserve gpus 0,1,2,3 on gpu1 from 9:30 to 11:00",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: %v %q, want %q", text, ok, got, want)
		}
	}
	if cr, ok := ReadCommand(env, "3시간 뒤까지 3090 두장 쓸게요"); !ok || cr.Args != "2 on dev-3090 for 3h" {
		t.Errorf("뒤까지 is the end: %v %+v", ok, cr)
	}
	now := time.Date(2026, 11, 29, 17, 43, 20, 0, time.UTC)
	w, rest, err := ParseWindow([]string{"in", "2h", "for", "3h"}, now, time.UTC)
	if err != nil || len(rest) != 0 || !w.Start.Equal(time.Date(2026, 11, 29, 19, 43, 0, 0, time.UTC)) || !w.End.Equal(w.Start.Add(3*time.Hour)) {
		t.Errorf("in 2h for 3h: %v %v %v", w, rest, err)
	}
	if _, rest, err := ParseWindow([]string{"in", "the", "lab", "for", "3h"}, now, time.UTC); err != nil || len(rest) != 3 {
		t.Errorf("in the lab is a note: %v %v", rest, err)
	}
	a, err := ParseExtend("gpu1 tomorrow by 1h", Servers{Names: []string{"gpu1"}}, now, time.UTC)
	if err != nil || a.Day != "tomorrow" || a.By != time.Hour || a.Server != "gpu1" {
		t.Errorf("extend gpu1 tomorrow by 1h: %+v %v", a, err)
	}
	tomorrow := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	if !a.OnDay(tomorrow, tomorrow.Add(4*time.Hour), now, time.UTC) || a.OnDay(now, now.Add(time.Hour), now, time.UTC) {
		t.Errorf("OnDay: tomorrow's booking is the one meant, tonight's is not")
	}
}

// An MFU said is the utilization the plan runs at on the GPUs named,
// wherever it stands in the request; with no GPUs it is refused.
func TestMFUAssumed(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{
		"8B 모델 프리트레이닝 1T 토큰 H100 64장이면 며칠 걸려요? MFU 40% 가정",
		"llama 3 8b pretrain 1T tokens on 64x h100 assuming 40% mfu",
		"mfu 0.4 llama 3 8b pretrain 1T tokens on 64x h100",
		"llama 3 8b pretrain 1T tokens, 40% MFU on 64x h100",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		b := r.Request.Baseline
		if b == nil || b.Unit != planner.MFU || b.Value != 0.4 || b.Hardware.Count != 64 || len(r.Request.Targets) != 1 || r.Request.Targets[0].Count != 64 {
			t.Errorf("%q: baseline %+v, targets %d", text, b, len(r.Request.Targets))
		}
		said := RequestText(cat, r)
		again, err := Read(Env{Catalog: cat}, said)
		if err != nil || again.Request.Baseline == nil || again.Request.Baseline.Value != b.Value || again.Request.Baseline.Unit != b.Unit || len(again.Request.Targets) != 1 {
			t.Errorf("%q: restated %q reads back %v %+v", text, said, err, again.Request.Baseline)
		}
	}
	if _, err := Read(Env{Catalog: cat}, "llama 3 8b pretrain 1T tokens mfu 40%"); err == nil || !strings.Contains(err.Error(), "needs the GPUs") {
		t.Errorf("mfu with no GPUs: %v", err)
	}
}

// An out-of-memory complaint that names a language model and no GPU sets
// full fine-tuning, LoRA and QLoRA side by side by memory, a workload not
// said read as a fine-tune; a GPU named keeps the plan there.
func TestOOMComplaint(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{
		"모델 학습시키는데 gpu 메모리가 부족하다고 에러나요 ㅠㅠ 7B 모델인데 어떻게 해야 하나요",
		"llama 3 8b finetune keeps hitting CUDA out of memory, what should I do?",
		"qwen2.5 7b 학습하는데 OOM 나요",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || !r.OOM || !r.Memory || r.Variant == nil || r.Variant.Kind != "workload" || len(r.Variant.Also) != 1 ||
			r.Request.Job.Workload != planner.Finetune || r.Variant.Request.Job.Workload != planner.LoRA || r.Variant.Also[0].Request.Job.Workload != planner.QLoRA {
			t.Errorf("%q: %v %+v", text, err, r.Variant)
		}
	}
	for _, text := range []string{"llama3 8b 풀파인튜닝 4090에서 OOM 뜨는데 어떻게 해요?", "llama 3 8b lora out of memory", "llama 3 8b finetune on 2x a100"} {
		if r, err := Read(Env{Catalog: cat}, text); err != nil || r.OOM {
			t.Errorf("%q: %v, oom %v", text, err, r.OOM)
		}
	}
}

// Everyday words where a model's name could stand ("our own model", "a
// small experiment") are not named back as an unknown model; a model
// trained from scratch is asked for a size.
func TestPlainWordsAreNoModel(t *testing.T) {
	cat := planner.DefaultCatalog()
	_, err := Read(Env{Catalog: cat}, "we want to train our own model from scratch, what would it cost roughly?")
	var ue *UserError
	if !errors.As(err, &ue) || strings.Contains(ue.Msg, "I do not know") || !strings.Contains(ue.Hint, "1b params") {
		t.Errorf("our own model from scratch: %v", err)
	}
	if _, err := Read(Env{Catalog: cat}, "which of our servers is the cheapest for a small fine-tuning experiment?"); err == nil || strings.Contains(err.Error(), "I do not know") {
		t.Errorf("a small experiment: %v", err)
	}
	if _, err := Read(Env{Catalog: cat}, "mobilenetv3 학습 4090"); err == nil || !strings.Contains(err.Error(), "I do not know `mobilenetv3`") {
		t.Errorf("an unknown model is still named: %v", err)
	}
}

// A family said alone for a chatbot is planned on its newest 7-10B
// member; said alone for anything else it is still asked which.
func TestChatbotOnAFamily(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]string{
		"우리 팀 사내 챗봇에 라마 써보려는데 어떤 서버 쓰면 돼요?":   "llama-3.1-8b",
		"qwen으로 챗봇 만들려는데 4090 몇장?":            "qwen3-8b",
		"a chatbot on gemma, how many a100s?": "gemma-2-9b",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Request.Job.Model.ID != want {
			t.Errorf("%q: %v, model %q, want %q", text, err, r.Request.Job.Model.ID, want)
		}
	}
	if _, err := Read(Env{Catalog: cat}, "라마 파인튜닝 a100"); err == nil {
		t.Errorf("a family alone outside a chatbot is asked which")
	}
	for id, v := range map[string]float64{"llama-3.1-8b": 3.1, "qwen2.5-7b": 2.5, "gemma-2-9b": 2, "mistral-7b-v0.1": 0, "qwen3-8b": 3} {
		if got := familyVersionOf(id); got != v {
			t.Errorf("familyVersionOf(%q) = %v, want %v", id, got, v)
		}
	}
}

// 모레 and 글피 are the day after tomorrow and the one after; an English
// number word before a GPU is the count ("book one 3090").
func TestDayAfterTomorrow(t *testing.T) {
	cat := planner.DefaultCatalog()
	now := time.Date(2026, 11, 29, 18, 20, 0, 0, time.UTC)
	env := Env{Catalog: cat, Now: now, Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "a100"), Count: 8, Server: "gpu1"},
		{GPU: mustGPUFor(t, cat, "3090"), Count: 4, Server: "dev-3090"}}}
	for text, want := range map[string]string{
		"모레 오전 10시부터 a100 2장 5시간 잡아주세요": "reserve 2 on gpu1 from 2026-12-01 10:00 for 5h",
		"글피 오후 3시부터 a100 1장 2시간 예약":     "reserve 1 on gpu1 from 2026-12-02 15:00 for 2h",
		"book one 3090 now until 11pm":  "reserve 1 on dev-3090 now until 11pm",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: %v %q, want %q", text, ok, got, want)
		}
	}
}

// A clock span with no particles ("오후 2시~6시", "14시-18시") is a start
// and an end; "퇴근 전까지" ends at the working day's end; "쓸 수
// 있을까요" with GPUs and a time asks to book them.
func TestKoreanSpans(t *testing.T) {
	cat := planner.DefaultCatalog()
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	env := Env{Catalog: cat, Now: now, Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "a100"), Count: 8, Server: "gpu1"},
		{GPU: mustGPUFor(t, cat, "h100"), Count: 4, Server: "gpu2"}}}
	for text, want := range map[string]string{
		"내일 오후 2시~6시 a100 2장":           "reserve 2 on gpu1 from tomorrow 14:00 until 18:00",
		"a100 2장 내일 14시-18시 예약":         "reserve 2 on gpu1 from tomorrow 14:00 until 18:00",
		"다음주 화요일 오전에 h100 2장 쓸 수 있을까요?": "reserve 2 on gpu2 from 2026-12-01 9:00 until 2026-12-01 12:00",
		"퇴근 전까지 a100 한장 쓸게요":            "reserve 1 on gpu1 until 18:00",
		"오늘 저녁 6시 a100 한장 쓸게요":          "reserve 1 on gpu1 until today 18:00",
		"내일 오전 9시부터 a100 1장 3시간 쓸게요":    "reserve 1 on gpu1 from tomorrow 9:00 for 3h",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: %v %q, want %q", text, ok, got, want)
		}
	}
}

// Probe 35's bookings: "점심 이후부터 저녁까지" on a day said is that day
// from one to the working day's end; a day with an extension's length
// names the booking; a day with a release limits it to that day's.
func TestProbe35Bookings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "h100"), Count: 8, Server: "alpha"},
		{GPU: mustGPUFor(t, cat, "a100"), Count: 4, Server: "beta"}}}
	for text, want := range map[string]string{
		"다음주 목요일 점심 이후부터 저녁까지 alpha 2장 예약 가능?": "reserve 2 on alpha from 2026-12-03 13:00 until 2026-12-03",
		"내일 알파 예약 2시간만 연장해줘":                   "extend alpha tomorrow by 2h",
		"내일 예약한거 취소해줘":                         "release tomorrow",
		"베타 지금 비어있으면 2장 3시간 뒤까지 쓸게":            "reserve 2 on beta for 3h",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: %v %q, want %q", text, ok, got, want)
		}
	}
	if a, err := ParseRelease("alpha tomorrow", Servers{Names: []string{"alpha"}}); err != nil || a.Server != "alpha" || a.Day != "tomorrow" {
		t.Errorf("release alpha tomorrow: %+v %v", a, err)
	}
}

// Probe 35's other readings: a wait for a window ahead books it, "I'm on
// the design team" is who asks, and rows of a spreadsheet ("만 줄", "2만
// 행") are samples.
func TestProbe35Readings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "h100"), Count: 8, Server: "alpha"}}}
	if cr, ok := ReadCommand(env, "내일 오후에 알파 8장 다 써야되는데 자리 나면 잡히게 대기 걸어줘"); !ok || cr.Name != "reserve" || !strings.Contains(cr.Args, "from tomorrow 13:00") {
		t.Errorf("a wait for a window ahead: %v %+v", ok, cr)
	}
	if cr, ok := ReadCommand(env, "알파 2장 비면 알려줘"); !ok || cr.Name != "wait" {
		t.Errorf("a wait now: %v %+v", ok, cr)
	}
	if _, err := Read(env, "Can our servers run Stable Diffusion? I'm on the design team"); err == nil || strings.Contains(err.Error(), "design") {
		t.Errorf("the design team is no GPU: %v", err)
	}
	for text, n := range map[string]float64{"bert-base 파인튜닝 데이터 엑셀 만 줄, a100": 10000, "bert-base 파인튜닝 데이터 2만 행, a100": 20000} {
		r, err := Read(env, text)
		if j := r.Request.Job; err != nil || max(j.Samples, j.DatasetSamples) != n {
			t.Errorf("%q: %v, samples %v/%v", text, err, j.Samples, j.DatasetSamples)
		}
	}
}

// A month of renting said with a service ("챗봇 … GPU 한달 빌리면 얼마")
// is a month of serving, as "한달 서빙하면" is.
func TestMonthRentedForAService(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{"챗봇 서비스 하나 띄우려는데 GPU 한달 빌리면 얼마에요?", "챗봇 서비스 하나 띄우려는데 GPU 한달 쓰면 얼마에요?"} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.ServeHours != 730 || r.Request.Job.Workload != planner.Inference {
			t.Errorf("%q: %v, serve hours %v", text, err, r.ServeHours)
		}
	}
}

// Probe 36: "hopper 반납할게요 다 썼어요" released every booking the asker
// held (다 read as "all"); "오후 2시~8시" ended at 8 the next morning;
// "돌릴수 있어요" unspaced planned a fine-tune; "쓸수 있는 GPU 몇장
// 남았어" asked for a model; "2만 pair" read pair as two.
func TestProbe36Readings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "h200"), Count: 4, Server: "hopper"},
		{GPU: mustGPUFor(t, cat, "a100"), Count: 8, Server: "ampere"}}}
	for text, want := range map[string]string{
		"hopper 반납할게요 다 썼어요":               "release hopper",
		"hopper 전부 반납할게요":                  "release hopper all",
		"다 반납할게요":                          "release all",
		"금요일 오후 2시~8시 ampere 8장 전부 예약 가능?": "reserve 8 on ampere from fri 14:00 until 20:00",
		"내일 오전 9시~11시 ampere 2장 예약":        "reserve 2 on ampere from tomorrow 9:00 until 11:00",
		"지금 바로 쓸수 있는 GPU 몇장 남았어?":          "status ",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: %v %q, want %q", text, ok, got, want)
		}
	}
	if r, err := Read(env, "딥시크 R1 우리 서버에서 돌릴수 있어요?"); err != nil || r.Request.Job.Workload != planner.Inference {
		t.Errorf("돌릴수 있어요: %v %q", err, r.Request.Job.Workload)
	}
	if r, err := Read(env, "Qwen3-8B DPO 2만 pair 학습 h200 4장"); err != nil || max(r.Request.Job.Samples, r.Request.Job.DatasetSamples) == 0 {
		t.Errorf("2만 pair: %v", err)
	}
}
