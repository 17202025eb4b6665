package lang

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// TestProbe32Bookings: everyday GPU-sharing talk from blind probe 32 —
// "내일 오후까지" is until the end of tomorrow's working day (it was a
// window inside tomorrow afternoon), "for the weekend" is Saturday and
// Sunday, "써야 하는데 가능할까요" books, "빈 거 있나요" and someone's hold
// asked about ("김대리가 잡은 gpu 언제 끝나요?") are status, and "free up
// the GPU I reserved" releases the asker's own.
func TestProbe32Bookings(t *testing.T) {
	cat := planner.DefaultCatalog()
	// a Wednesday morning: the weekend and next Monday are ahead
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)}
	for text, want := range map[string]string{
		"server-a GPU 2장 내일 오후까지 쓸게요":                    "reserve 2 on server-a until tomorrow",
		"server-a 1장 오늘 밤까지 쓸게요":                         "reserve 1 on server-a until today midnight",
		"server-a 1장 내일 오전까지 쓸게요":                        "reserve 1 on server-a until tomorrow noon",
		"server-a 1장 오후까지 쓸게요":                           "reserve 1 on server-a until today",
		"Book 4 GPUs on server-a for the weekend please": "reserve 4 on server-a from sat 0:00 until sun midnight",
		"server-a 8장 다음주 월요일부터 3일 풀로 써야하는데 가능할까요":        "reserve 8 on server-a from 2026-11-30 for 72h",
		"server-v V100 빈거 있나요?":                          "status server-v",
		"김대리가 잡은 gpu 언제 끝나요?":                            "status ",
		"can you free up the GPU I reserved":             "release all",
		"server-a 하나만 오늘 저녁까지 빌려주세요":                     "reserve 1 on server-a until today",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: read as %q (%v), want %q", text, got, ok, want)
		}
	}
}

// TestProbe32Readings: plan readings from blind probe 32 — a Korean
// family name and its version before a size with 모델 after it is one
// model (it was two: 라마3 and an 8B model), "context length" first in
// the sentence is the context, not a preface, and an instruct model
// served with no lengths is planned at chat's.
func TestProbe32Readings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat)}
	for text, ok := range map[string]func(Reading) bool{
		"라마3 8b 모델 돌리려면 GPU 뭐 사야돼요?": func(r Reading) bool { return r.Request.Job.Model.ID == "llama-3-8b" },
		"큐웬2.5 7b 모델 서빙 4090 되나요":    func(r Reading) bool { return r.Request.Job.Model.ID == "qwen2.5-7b" },
		// an instruct checkpoint served is a chat service: chat's lengths,
		// not the default context's 3,840-token prompts
		"vLLM으로 llama-3.1-8b-instruct 서빙시 L40S 1장에서 throughput 얼마나 나올까요": func(r Reading) bool {
			return r.Request.Job.GenTokens == chatOutputTokens && r.Request.Job.SeqLen == chatPromptTokens+chatOutputTokens
		},
		// a training's state sent to the CPU is offloading it
		"llama 3 8b 풀파인튜닝 optimizer를 cpu로 보내면 4090 한 장에 들어가?": func(r Reading) bool {
			return r.Request.Job.Offload != "" && !r.CPUOnly && r.Request.Job.Workload == planner.Finetune
		},
		// a span of running time said in words: what it buys
		"How much would it cost to fine-tune Mistral 7B on A100s for a day?": func(r Reading) bool { return r.Deadline == 24*time.Hour },
		"mistral 7b 파인튜닝 a100 8장 하루 돌리면 얼마":                                  func(r Reading) bool { return r.Deadline == 24*time.Hour },
		"mistral 7b 파인튜닝 a100 8장 이틀 동안 몇 토큰 학습돼?":                            func(r Reading) bool { return r.Deadline == 48*time.Hour },
		// "하루 만에" is a deadline (만 was read as ten thousand)
		"llama 8b lora 4090 하루 만에 끝나?": func(r Reading) bool { return r.Deadline == 24*time.Hour },
		// users a day with 에
		"하루에 사용자 5000명 gemma 7b 서빙": func(r Reading) bool { return r.Request.Job.Concurrency == 500 && r.Deadline == 0 },
		// probe 33: vLLM's flag for the context, a metric before a GPU
		// named by its number, a chatbot that is only to be used
		"vllm으로 llama-3.1-8b-instruct 서빙할때 max-model-len 32k면 4090 한장에 KV cache 얼마나 들어가요?": func(r Reading) bool {
			return r.Request.Job.SeqLen == 32768
		},
		"젬마2 27b 추론 tokens/s 4090 vs A100 비교해줘": func(r Reading) bool {
			return r.Request.Baseline == nil && len(r.Request.Targets) >= 2
		},
		"엑사원 3.5 32B 사내 챗봇으로 쓰려는데 서버 뭐가 필요할까요": func(r Reading) bool {
			return r.Request.Job.Workload == planner.Inference && r.Request.Job.Instruct
		},
		// the instruction-tuned checkpoint named: its repository is served
		"gemma-2-9b-it vllm 서빙 l40s 1장": func(r Reading) bool { return r.Request.Job.Instruct },
		// served to people: the chat checkpoint, not the base one (probe 36
		// was shown `vllm serve google/gemma-3-27b-pt` for 서빙)
		"qwen2.5 7b vllm 서빙 l40s 1장": func(r Reading) bool { return r.Request.Job.Instruct },
		"qwen2.5 7b vllm l40s 1장":    func(r Reading) bool { return !r.Request.Job.Instruct },
		"큐웬2.5 7b 인스트럭트 vllm으로 서빙하려는데 4090 한장이면 동접 몇명까지 돼요?": func(r Reading) bool {
			return r.Request.Job.Instruct && r.Request.Job.GenTokens == chatOutputTokens && !slices.Contains(r.Skipped, "인스트럭트")
		},
		"qwen2.5-7b-instruct 로 DPO 하려는데 A100 80GB 1장이면 vram 충분?": func(r Reading) bool { return r.Request.Job.Workload != planner.Inference },
		"context length 32k로 늘리면 KV cache 메모리 얼마나 잡아먹어요? qwen2.5 7b 기준": func(r Reading) bool {
			return r.Request.Job.Model.ID == "qwen2.5-7b" && r.Request.Job.SeqLen == 32768
		},
	} {
		r, err := Read(env, text)
		if err != nil || !ok(r) {
			t.Errorf("%q: read as %+v (%v)", text, r.Request.Job, err)
		}
	}
}

// TestCPUOnly: a model asked to run on the CPU alone is llama.cpp with no
// layer on a GPU, in the usual GGUF file unless a format is said; the
// CPU's other words (offloading, its memory, its bandwidth) are not it.
func TestCPUOnly(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat)}
	for text, gguf := range map[string]string{
		"미스트랄 7b를 CPU로만 돌리면 안되나요? GPU 꼭 필요해?":    "Q4_K_M",
		"can I run mistral 7b on cpu only?":      "Q4_K_M",
		"llama 3 8b q8_0 without a gpu how fast": "Q8_0",
		"qwen2.5 7b GPU 없이 돌릴 수 있어?":             "Q4_K_M",
		"qwen2.5 7b cpu에서 돌려도 돼요?":               "Q4_K_M",
	} {
		r, err := Read(env, text)
		j := r.Request.Job
		if err != nil || !r.CPUOnly || j.Engine != planner.EngineLlamaCpp || j.GPULayers != -1 || j.GGUFType != gguf {
			t.Errorf("%q: CPUOnly %v, %s ngl %d %s (%v)", text, r.CPUOnly, j.Engine, j.GPULayers, j.GGUFType, err)
		}
	}
	for _, text := range []string{"llama 3 8b lora cpu offload on 4090", "llama-3-8b inference llama.cpp ngl 20 cpu bandwidth 80 gb/s on rtx-3060",
		"llama 3 8b 풀파인튜닝 optimizer를 cpu로 보내면 4090 한 장에 들어가?"} {
		// (the last is offloading: TestProbe32Readings)
		if r, err := Read(env, text); err != nil || r.CPUOnly {
			t.Errorf("%q: read as CPU-only (%v)", text, err)
		}
	}
}

// TestLaptop: a laptop or a personal computer as where a model runs is
// read, not taken for a GPU ("unknown GPU laptop"); served, it is planned
// as a CPU-only run, and training on one keeps its own plan.
func TestLaptop(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat)}
	for text, cpu := range map[string]bool{
		"llama 3 8b 노트북에서도 돌아가요?":            true,
		"can I run llama 3 8b on my laptop?": true,
		"qwen2.5 7b 내 컴퓨터에서 돌릴 수 있어?":        true,
		"llama 3 8b lora 노트북으로 돼?":           false,
	} {
		r, err := Read(env, text)
		if err != nil || !r.Laptop || r.CPUOnly != cpu {
			t.Errorf("%q: Laptop %v CPUOnly %v, want CPU-only %v (%v)", text, r.Laptop, r.CPUOnly, cpu, err)
		}
	}
}

// TestProbe33Bookings: GPU-sharing talk from blind probe 33 — the GPU
// type names the server a release, a status or a booking means ("Release
// my V100 reservation" released every booking the asker held), "for me"
// is who for, "taking" books, a part of the day with 부터 or 까지 is a
// point of the window, 밤새 runs to the next morning, and a day named as
// the deadline is no point of it.
func TestProbe33Bookings(t *testing.T) {
	cat := planner.DefaultCatalog()
	// a Wednesday morning
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)}
	for text, want := range map[string]string{
		"Release my V100 reservation, I'm done early": "release server-v",
		"Release my 4090 reservation":                 "release ",
		"a100 예약한거 취소할게요":                             "release server-a",
		"에이백 다 쓰고 있으면 언제 빈자리 나는지 알려주세요":               "status server-a",
		"taking 2 V100s for the next 3 hours":         "reserve 2 on server-v for 3 hours",
		"Book 2 A100s for me tomorrow 9am to 5pm":     "reserve 2 on server-a tomorrow 9am to 5pm",
		"금요일 데드라인이라 a100 4장 목요일 저녁부터 금요일 아침까지 예약 가능할까요?":    "reserve 4 on server-a from thu 18:00 until fri 9:00",
		"오늘 저녁 8시부터 밤새 a100 4장 다 써도 될까요? 다른 사람 예약 있는지 확인 좀": "reserve 4 on server-a from today 20:00 until tomorrow 9:00",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: read as %q (%v), want %q", text, got, ok, want)
		}
	}
}

// A start already past with an end still ahead ("오늘 오후 2시부터 6시까지"
// asked at four) says how to book from now; with the end past too, the
// usual example.
func TestPastStartOffersNow(t *testing.T) {
	now := time.Date(2026, 11, 25, 16, 0, 0, 0, time.UTC)
	for words, now2 := range map[string]bool{"from today 14:00 until 18:00": true, "from today 9:00 until 12:00": false} {
		_, _, err := ParseWindow(strings.Fields(words), now, time.UTC)
		var ue *UserError
		if !errors.As(err, &ue) || strings.HasPrefix(ue.Hint, startNowHint) != now2 {
			t.Errorf("%q: %v, want the start-now hint %v", words, err, now2)
		}
	}
}
