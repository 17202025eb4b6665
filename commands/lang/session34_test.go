package lang

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

// TestProbe30Bookings: bookings from blind probe 30 — 반나절 after a clock
// is half a day from it (not the clock's half hour), 취소 and cancel
// release, and a booking typed without spaces is spaced at a server's
// count and a day.
func TestProbe30Bookings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat)}
	for text, want := range map[string]string{
		"server-h 4장 내일 오전 9시부터 반나절 예약 부탁드려요": "reserve 4 on server-h from tomorrow 9:00 for 6h",
		"server-h 4장 내일 9시 반부터 3시간 예약":        "reserve 4 on server-h from tomorrow 9:30 for 3h",
		"server-v 예약 취소할게요 넵":                 "release server-v",
		"cancel my booking on server-a":       "release server-a",
		"server-v1장금요일까지빌릴게요ㄱㄱ":               "reserve 1 on server-v until fri",
		"server-a2장 3시간 쓸게요":                  "reserve 2 on server-a for 3h",
		// probe 31: asked as permission, one said in words, the asker's own
		"server-h 전체 4장 이번 주 금요일까지 써도 돼요? 논문 마감이라서요":              "reserve 4 on server-h until fri",
		"server-a 하나만 오늘 저녁까지 빌려주세요":                              "reserve 1 on server-a until today",
		"Can I book 2 GPUs on server-h tomorrow from 9am to 6pm?": "reserve 2 on server-h from tomorrow 9am to 6pm",
		"제가 잡아둔 거 언제까지였죠?":                                        "mine ",
		"제가 빌린 GPU 반납할게요":                                         "release all",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: read as %q (%v), want %q", text, got, ok, want)
		}
	}
}

// TestProbe30Readings: plan readings from blind probe 30.
func TestProbe30Readings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat)}
	for text, ok := range map[string]func(Reading) bool{
		// a load said unit first is a rate, not that many of the GPU after it
		"llama 3 8b vllm 초당 요청 10개(QPS 10) l40s 몇장?": func(r Reading) bool {
			return r.Request.Job.RequestRate == 10 && r.CountOpen && r.Ask == AskCount
		},
		// the percentile, then what it is of
		"We need p99 TTFT under 300ms at 20 QPS for Qwen2.5-32B-Instruct, 1k in / 256 out. How many H200s?": func(r Reading) bool {
			return r.LatencyFirst && r.LatencyTargetS == 0.3 && r.Request.Job.RequestRate == 20
		},
		"TensorRT-LLM으로 Llama 3 8B fp8 서빙하면 QPS 얼마나 나와요?": func(r Reading) bool { return r.RequestRate && r.Ask == AskTime },
		"34b 모델 fp16으로 로드하면 몇 GiB?":                       func(r Reading) bool { return r.Memory && r.Ask == AskFit },
		"gemma 2 27b 추론할때 kv cache 128k면 몇기가 필요함":         func(r Reading) bool { return r.Request.Job.SeqLen == 131072 && r.Memory },
		"qwen3 30b a3b has only 3B active, does it fit on a 4090?": func(r Reading) bool {
			return r.Request.Job.Model.ID == "qwen3-30b-a3b" && r.Ask == AskFit
		},
		"Whisper large-v3 batch 추론 1000시간 오디오 a100 한장이면 얼마나 걸림?": func(r Reading) bool {
			return r.Request.Job.GlobalBatch == 0 && r.Request.Job.Workload == planner.Inference
		},
		"https://huggingface.co/Qwen/Qwen2.5-7B-Instruct 서빙하려는데 l40s 한장이면 동접 몇명까지 가능?": func(r Reading) bool {
			return r.Request.Job.Model.ID == "qwen2.5-7b"
		},
		// an RL method is planned as its policy update, and says so
		"13b 모델 GRPO로 학습하려는데 h100 8장": func(r Reading) bool {
			return r.RL == "GRPO" && r.Request.Job.Workload == planner.Finetune
		},
		"qwen2.5 7b lora grpo on 8x h100 how long for 10k prompts?": func(r Reading) bool {
			return r.RL == "grpo" && r.Request.Job.Workload == planner.LoRA && r.Request.Job.Samples == 10000
		},
		// probe 31: a sentence's colon, users a day, who asks
		"모델 학습 시간 계산해줘: 7B, 토큰 10억 개, A100 4장": func(r Reading) bool {
			return r.Request.Job.Model.ParamsB == 7 && r.Request.Job.Tokens == 1e9 && r.Ask == AskTime
		},
		"백엔드 개발자인데 Gemma 7B를 API로 서빙해야 해요. 하루 사용자 수 5000명 정도면 GPU 한 장으로 충분할까요?": func(r Reading) bool {
			return r.Request.Job.Concurrency == 500 && r.Request.Job.Model.ID == "gemma-7b"
		},
		"I'm a data analyst, new here. Can I run a 7B model on my team's A100 server?": func(r Reading) bool {
			return len(r.Request.Targets) == 1 && r.Request.Targets[0].Server == "server-a" && r.Ask == AskFit
		},
		// the people a service is for: a tenth at once, unless 동시 is said
		"ChatGPT 같은 챗봇 만들고 싶은데 직원 200명이 쓸 거예요. 서버 뭐 쓰면 돼요?": func(r Reading) bool { return r.Request.Job.Concurrency == 20 },
		"qwen 7b 직원 100명이 동시에 쓰면 a100 되나?":                  func(r Reading) bool { return r.Request.Job.Concurrency == 100 },
		// the family's largest member said after it
		"라마 제일 큰 거 우리 서버에서 돌릴 수 있어요?": func(r Reading) bool { return r.Request.Job.Model.ID == "llama-3.1-405b" },
		// 돌리면 with nothing that says training runs the model
		"라마 70B를 H200에서 돌리면 A100보다 얼마나 빨라요?":                              func(r Reading) bool { return r.Request.Job.Workload == planner.Inference },
		"llama 3 8b lora h100에서 돌리면 몇 시간?":                                func(r Reading) bool { return r.Request.Job.Workload == planner.LoRA },
		"whisper large v3 on an l4, can it keep up with 10 live streams?": func(r Reading) bool { return r.LiveStreams == 10 },
		"whisper large v3 20채널 실시간 l4 한장 가능?":                             func(r Reading) bool { return r.LiveStreams == 20 },
	} {
		r, err := Read(env, text)
		if err != nil || !ok(r) {
			t.Errorf("%q: %v, %+v", text, err, r.Request.Job)
		}
	}
}

// TestNoSuchCardSuggestsTheBase: a suffix on a card never sold ("4090ti")
// suggests the card without it; a card the catalogue lacks is said so.
func TestNoSuchCardSuggestsTheBase(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat}
	if _, err := Read(env, "llama 3 8b lora on a 4090ti"); err == nil || !strings.Contains(err.Error(), "did you mean `4090`") {
		t.Errorf("4090ti: %v", err)
	}
	if _, err := Read(env, "llama 3 8b lora on a 3060 ti"); err == nil || !strings.Contains(err.Error(), "not in the GPU catalogue") {
		t.Errorf("3060 ti (a card sold, not in the catalogue): %v", err)
	}
	if _, err := Read(env, "llama 3 8b lora on a 1660"); err == nil || !strings.Contains(err.Error(), "not in the GPU catalogue") {
		t.Errorf("1660: %v", err)
	}
}

// TestPriceIsNoBooking: "예산 잡아야" (set a budget) beside a price asked is
// no booking, even with a GPU that one team server holds.
func TestPriceIsNoBooking(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat)}
	if cr, ok := ReadCommand(env, "이번 분기 GPU 예산 잡아야 해서요. A100 8장 클라우드로 3개월 쓰면 대략 얼마예요?"); ok {
		t.Errorf("read as %+v", cr)
	}
}

// TestUseNamesAModel: a chatbot or an embedding model asked with no model
// named is planned with a common open one, and the reading says so.
func TestUseNamesAModel(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat)}
	for text, want := range map[string]string{
		"고객 상담 챗봇 만들건데 동시접속 50명 정도면 어떤 GPU 몇 장 있어야 돼요?":           "qwen2.5-7b",
		"임베딩 모델로 문서 100만 개 벡터로 바꾸면 시간 얼마나 걸려요?":                   "bge-m3",
		"how many l4s to serve a chatbot to 50 concurrent users?": "qwen2.5-7b",
	} {
		r, err := Read(env, text)
		if err != nil || r.Request.Job.Model.ID != want || !strings.Contains(strings.Join(r.Request.Job.Notes, " "), "no model named: planned with "+want) {
			t.Errorf("%q: %v, model %q, notes %q", text, err, r.Request.Job.Model.ID, r.Request.Job.Notes)
		}
	}
	if _, err := Read(env, "how long to train it on 4 a100s?"); err == nil {
		t.Error("no model and no use: planned anyway")
	}
}
