package lang

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// A vision model trained from scratch on ImageNet-1k with no amount said is
// planned for its published recipe's epochs (90 for ResNet, 300 for ViT
// and ConvNeXt), shown in the reading and said in a note; epochs said,
// fine-tuning, or a language model on another dataset keep their reading.
func TestImageNetFromScratchTakesTheRecipesEpochs(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, c := range []struct {
		text   string
		epochs float64
		note   string
	}{
		{"resnet50 imagenet 학습하려면 a100 8장으로 얼마나 걸려?", 90, "90 epochs"},
		{"how long to train resnet50 on imagenet with a single 4090", 90, "90 epochs"},
		{"train vit-base on imagenet on 8x h100, how long?", 300, "300 epochs"},
		{"convnext-tiny 이미지넷 처음부터 학습 h100 4장 비용?", 300, "300 epochs"},
		{"resnet-50 train on imagenet for 40 epochs on 8x a100, how long?", 40, ""},
		{"convnext imagenet 파인튜닝 4090 한장 얼마나", 0, ""},
		{"resnet50 on cifar10 on a 4090 how long", 0, ""},
	} {
		r, err := Read(Env{Catalog: cat}, c.text)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		if got := r.Request.Job.Epochs; got != c.epochs {
			t.Errorf("%q: %v epochs, want %v", c.text, got, c.epochs)
		}
		notes := strings.Join(r.NotesIn(nil), "\n")
		if has := strings.Contains(notes, "ImageNet from scratch"); has != (c.note != "") || c.note != "" && !strings.Contains(notes, c.note) {
			t.Errorf("%q: notes %q, want %q", c.text, notes, c.note)
		}
		if c.note != "" && !strings.Contains(r.Request.Job.Notes[len(r.Request.Job.Notes)-1], c.note) {
			t.Errorf("%q: the plan's notes %q lack the recipe", c.text, r.Request.Job.Notes)
		}
	}
}

// A count of a team server's own GPU said before the server ("we have 8
// a100s on server-a") is that many of the server's GPUs, one setup, not the
// GPUs and the server side by side; another GPU type on it is left alone.
func TestGPUsOnAServerAreTheServers(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "a100"), Count: 4, Server: "server-a"}}}
	for text, want := range map[string]struct {
		server string
		count  int
	}{
		"we have 8 a100s on server-a, can we fine-tune llama 3 70b with lora?": {"", 8},
		"lora llama 3 8b on 2 a100s on server-a, how long for 10k samples?":    {"server-a", 2},
		"a100 x 4 in server-a lora llama 3 8b, fits?":                          {"server-a", 4},
		"4x A100 on server-a: llama 3 8b lora 10만 샘플 얼마나 걸려?":                  {"server-a", 4},
	} {
		r, err := Read(env, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if r.Request.Compare || len(r.Request.Targets) != 1 {
			t.Errorf("%q: targets %+v compare %v, want one setup", text, r.Request.Targets, r.Request.Compare)
			continue
		}
		if h := r.Request.Targets[0]; h.Server != want.server || h.Count != want.count || !strings.HasPrefix(h.GPU.ID, "a100") {
			t.Errorf("%q: %d× %s on %q, want %d on %q", text, h.Count, h.GPU.ID, h.Server, want.count, want.server)
		}
	}
}

// The catalogue's newer models read by the names people type, in Hangul
// too: Llama 4's variants, SigLIP, Qwen2.5-VL, GTE.
func TestNewerModelsByTheirNames(t *testing.T) {
	cat := planner.DefaultCatalog()
	readingsHave(t, cat, Env{Catalog: cat}, []struct{ text, has string }{
		{"라마4 스카우트 서빙 h100 몇장?", "llama-4-scout · inference"},
		{"라마 4 매버릭 추론 h200 몇장", "llama-4-maverick · inference"},
		{"llama 4 maverick on 8x h200 fits?", "llama-4-maverick"},
		{"시글립 추론 l4 배치 64 처리량", "siglip-so400m-patch14-384 · inference"},
		{"큐웬2.5 vl 7b 로라 4090", "qwen2.5-vl-7b · lora"},
		{"gte-large 임베딩 1억개 a10 몇시간?", "gte-large · inference"},
	})
}

// The unit of work said before the question ("토큰 몇개", "에폭 몇 번") asks
// the work a time or a budget buys, in that unit; the unit is no amount
// said ("에폭 뒤에 숫자가 필요해요" was the answer).
func TestKoreanUnitBeforeHowMany(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, unit := range map[string]string{
		"gemma 3 27b 풀파인튜닝 h100 8장이면 하루에 토큰 몇개 학습 가능?":      "tokens",
		"예산 100만원으로 llama 3 8b lora 에폭 몇개까지 돼?":             "epochs",
		"예산 100만원으로 llama 3 8b lora 데이터 5만개 에폭 몇번 돌릴 수 있어?": "epochs",
		"bert-base 파인튜닝 a100 한장 3일동안 에폭 몇 번 가능?":            "epochs",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if r.Ask != AskAmount || r.AmountUnit != unit {
			t.Errorf("%q: ask %q in %q, want the %s it buys", text, r.Ask, r.AmountUnit, unit)
		}
		if slices.Contains(r.Skipped, "번") {
			t.Errorf("%q: skipped %q", text, r.Skipped)
		}
	}
}

// NSMC, the Korean sentiment set teams fine-tune on, has its size.
func TestNSMCHasItsSize(t *testing.T) {
	cat := planner.DefaultCatalog()
	r, err := Read(Env{Catalog: cat}, "klue roberta large 파인튜닝 nsmc 3에폭 4090 시간")
	if err != nil || r.Request.Job.DatasetSamples != 150000 || r.Request.Job.Epochs != 3 {
		t.Errorf("%v: %v samples, %v epochs; want 3 epochs of 150k", err, r.Request.Job.DatasetSamples, r.Request.Job.Epochs)
	}
}

// Probe 24's plain words: a rate asked after a GPU's memory ("a100 80gb
// tokens per second?"), a memory size alone after a model's size ("27b
// 24GB에 들어가?"), nodes with no count a node (a server's eight), and a
// dataset the language does not know named where hardware goes.
func TestProbe24PlainWords(t *testing.T) {
	cat := planner.DefaultCatalog()
	readingsHave(t, cat, Env{Catalog: cat}, []struct{ text, has string }{
		{"vllm llama 3.1 70b on 4x a100 80gb tokens per second?", "on 4x a100-sxm4-80gb · how fast?"},
		{"ollama로 gemma2 27b 돌리려는데 24GB에 들어가?", "on 1x rtx-3090 · will it fit?"},
		{"2 node h100 training of 13b model, 100b tokens, how many days", "on 2 nodes of 8x h100-sxm5-80gb · how long?"},
		{"llama 3 70b 풀파인튜닝 h100 노드 4개면 얼마나 걸려", "on 4 nodes of 8x h100-sxm5-80gb"},
		{"dpo llama 3 8b on ultrafeedback 60k pairs, time on 4x a100", "60000 samples"},
		{"clip vit-b/32 training on laion 400m how many gpu days", "400M samples"},
		{"finetune bert-base on my-data 50k samples on a100", "50000 samples · on 1x a100-sxm4-80gb"},
	})
	r, err := Read(Env{Catalog: cat}, "2 node h100 training of 13b model, 100b tokens")
	if err != nil || !strings.Contains(strings.Join(r.NotesIn(nil), "\n"), "8 GPUs each, as HGX/DGX servers hold") {
		t.Errorf("nodes with no count: %v, notes %q", err, r.NotesIn(nil))
	}
	if r, err := Read(Env{Catalog: cat}, "clip vit-b/32 training on laion 400m"); err != nil || len(r.Corrected) != 0 || !slices.Contains(r.Skipped, "laion") {
		t.Errorf("laion: %v, corrected %q, skipped %q", err, r.Corrected, r.Skipped)
	}
}

// Probe 24's questions read as asked: tokens that "come out" are a rate,
// a latency after a batch's value is the latency (at that batch, not one
// request), an epoch's time asked keeps one epoch.
func TestProbe24Questions(t *testing.T) {
	cat := planner.DefaultCatalog()
	r, err := Read(Env{Catalog: cat}, "llama.cpp로 llama 3 8b q4_k_m 돌리면 3090에서 몇 토큰 나와?")
	if err != nil || !r.Rate || r.Ask != AskTime {
		t.Errorf("몇 토큰 나와: %v, rate %v, ask %q", err, r.Rate, r.Ask)
	}
	for _, text := range []string{"qwen2.5 14b 추론 배치 32 latency 얼마나 나와요 h100에서", "qwen2.5 14b inference batch 32 latency on h100"} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || !r.Latency || r.Request.Job.Concurrency != 0 {
			t.Errorf("%q: %v, latency %v, concurrency %d", text, err, r.Latency, r.Request.Job.Concurrency)
		}
	}
	for _, text := range []string{
		"resnet-50 training on imagenet with 4x v100, time per epoch?",
		"how long does each epoch take for resnet50 on imagenet on 4x a100",
		"resnet50 imagenet 학습 a100 8장 에폭당 얼마나 걸려",
		"resnet50 imagenet 학습 a100 8장 한 에폭 얼마나 걸려",
		"vit-base imagenet training on 8x h100: how long is an epoch?",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Request.Job.Epochs > 1 {
			t.Errorf("%q: %v, %v epochs, want one epoch's time", text, err, r.Request.Job.Epochs)
		}
	}
}

// "응답 2초 안에" is a latency target, not an output length with no number.
func TestKoreanResponseWithinSeconds(t *testing.T) {
	cat := planner.DefaultCatalog()
	r, err := Read(Env{Catalog: cat}, "vllm llama 3.1 8b 동시 사용자 200명 응답 2초 안에 하려면 몇장")
	if err != nil || r.LatencyTargetS != 2 || r.Ask != AskCount {
		t.Errorf("%v: target %v s, ask %q", err, r.LatencyTargetS, r.Ask)
	}
	if r, err := Read(Env{Catalog: cat}, "llama 3 8b vllm 응답 토큰 평균 300개 동시 50 h100 몇장"); err != nil || r.Request.Job.GenTokens != 300 {
		t.Errorf("응답 토큰 300개: %v, gen %d", err, r.Request.Job.GenTokens)
	}
}

// Whether a job runs on the team's servers is asked in whole words: "can
// we", "fit", "돌릴 수 있어", "되나요"; a server named "fitbox" asks nothing.
func TestCanItRunWords(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: []planner.Hardware{
		{GPU: mustGPUFor(t, cat, "a100"), Count: 4, Server: "fitbox"},
		{GPU: mustGPUFor(t, cat, "h100"), Count: 8, Server: "server-h"},
	}}
	for text, want := range map[string]bool{
		"우리 서버에서 llama 3.1 70b qlora 돌릴 수 있어?":                 true,
		"우리 서버에서 llama 3.1 70b qlora 돌릴수있나요":                   true,
		"우리 서버 중에 llama 3 8b lora 되나요?":                        true,
		"can we run llama 3.1 70b qlora on our servers?":       true,
		"which of our servers is fastest for llama 3 8b lora?": false,
		"우리 서버 중 llama 3 8b lora 어디가 제일 빨라? fitbox도 포함":        false,
	} {
		r, err := Read(env, text)
		if err != nil || r.Ask != AskWhichServer || r.FitAsked != want {
			t.Errorf("%q: %v, ask %q, asked whether it runs %v, want %v", text, err, r.Ask, r.FitAsked, want)
		}
	}
}

// A count asked in nodes is asked as such: the GPU's count stays open
// (no node of eight is fixed), and the question says nodes; a node named
// is still a node of eight.
func TestNodesAsked(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{
		"how many h100 nodes do we need to pretrain llama 3 70b on 15T tokens in 30 days",
		"llama 3 70b 15T 토큰 사전학습 30일 안에 끝내려면 h100 노드 몇 개?",
		"how many nodes to pretrain llama 3 8b on 2T tokens on h100s in 2 weeks",
		"how many nodes of h100 to pretrain llama 3 8b on 1T tokens in a week",
		"llama 3.1 70b full finetune 하려면 h100 몇 노드?",
		"llama 3 70b 15T 토큰 30일 안에 사전학습 h100 몇노드 필요해?",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Ask != AskCount || !r.NodesAsked || len(r.Request.Targets) != 1 {
			t.Errorf("%q: %v, ask %q, nodes asked %v, %d targets", text, err, r.Ask, r.NodesAsked, len(r.Request.Targets))
			continue
		}
		if q := ReadAs(cat, r); !strings.Contains(q, "h100-sxm5-80gb × ? · how many nodes") {
			t.Errorf("%q: question said %q, want nodes", text, q)
		}
	}
	r, err := Read(Env{Catalog: cat}, "an h100 node vs an a100 node for llama 3 8b lora")
	if err != nil || r.NodesAsked || len(r.Request.Targets) != 2 || r.Request.Targets[0].Count != 8 {
		t.Errorf("a node named: %v, nodes asked %v, targets %d", err, r.NodesAsked, len(r.Request.Targets))
	}
}

// The cost asked beside a count is read as asked, and said back.
func TestCountAndCost(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]string{
		"how many a100s do i need and what will it cost to finetune llama 3 8b on 100k samples": "how many GPUs and the cost?",
		"llama 3 8b lora 학습하려면 a100 몇장 필요하고 비용은 얼마야?":                                           "how many GPUs and the cost?",
		"how many a100s to finetune llama 3 8b on 100k samples":                                 "how many GPUs?",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Ask != AskCount || !strings.Contains(ReadAs(cat, r), " · "+want) || (want == "how many GPUs?") == r.AlsoCost {
			t.Errorf("%q: %v, ask %q, read as %q, want %q in it", text, err, r.Ask, ReadAs(cat, r), want)
		}
	}
}

// A decoder fine-tuned on Alpaca with no length said is planned at its
// samples' mean length in that model's tokens; a length said, another
// workload or a model that is no decoder keeps the default.
func TestAlpacaSampleLength(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]int{
		"llama 3 8b lora on alpaca on a 4090 how long":       136, // 128K vocabulary: ~4 characters a token
		"llama 2 7b 알파카로 lora 학습 a100 한장 얼마나 걸려":             170, // 32K vocabulary: ~3.2
		"llama 3 8b lora on alpaca seq 512 on a 4090":        512,
		"bert-base finetune on alpaca on an a100":            0,
		"llama 3 8b lora on 52k samples on a 4090, how long": 0,
		"llama 3 8b qlora 알파카 데이터로 3 에폭 4090 몇 시간":           136,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Request.Job.SeqLen != want {
			t.Errorf("%q: %v, seq %d, want %d", text, err, r.Request.Job.SeqLen, want)
		}
		if noted := strings.Contains(strings.Join(r.Request.Job.Notes, " "), "samples average about"); noted != (want > 0 && want != 512) {
			t.Errorf("%q: the mean-length note said %v", text, noted)
		}
	}
}

// "초당 500건", "초당 500 요청" with nothing measured after them are a load
// to serve; "초당 40토큰 나왔는데" stays a measured rate. 임베딩 is read,
// not listed as skipped.
func TestKoreanRequestRateLoad(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{
		"bge-m3 임베딩 서버 초당 500 요청 t4 몇 장?",
		"bge-m3 임베딩 초당 500건 처리하려면 l4 몇 장?",
		"bge-m3 임베딩 초당 500개 t4 몇 장?",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Request.Job.RequestRate != 500 || r.Ask != AskCount || r.Request.Job.Workload != planner.Inference {
			t.Errorf("%q: %v, %v req/s, ask %q, workload %q", text, err, r.Request.Job.RequestRate, r.Ask, r.Request.Job.Workload)
		}
		if strings.Contains(strings.Join(r.Skipped, " "), "임베딩") {
			t.Errorf("%q: 임베딩 listed as skipped: %v", text, r.Skipped)
		}
	}
	r, err := Read(Env{Catalog: cat}, "llama 3 8b 4090에서 초당 40토큰 나왔는데 h100이면?")
	if err != nil || r.Request.Baseline == nil || r.Request.Job.RequestRate != 0 {
		t.Errorf("a measured rate: %v, baseline %v, %v req/s", err, r.Request.Baseline, r.Request.Job.RequestRate)
	}
}

// Live audio streams for a speech model are a rate of 30-second windows,
// not long requests in flight; a chat said real-time keeps its users.
func TestLiveStreams(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, rate := range map[string]float64{
		"whisper large v3 real-time transcription for 50 concurrent streams, how many l4s?": 1.67,
		"whisper large v3 실시간 전사 서비스 동시 50명 l4 몇장?":                                         1.67,
		"whisper large v3 turbo 실시간 자막 동시 200명 a10 몇 장 필요해?":                                6.67,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Request.Job.RequestRate != rate || r.Request.Job.Concurrency != 0 {
			t.Errorf("%q: %v, %v req/s, %d in flight; want %v req/s", text, err, r.Request.Job.RequestRate, r.Request.Job.Concurrency, rate)
		}
		if s := strings.Join(r.Skipped, " "); strings.Contains(s, "real") || strings.Contains(s, "실시간") {
			t.Errorf("%q: the live words listed as skipped: %q", text, s)
		}
	}
	r, err := Read(Env{Catalog: cat}, "llama 3 8b real-time chat 50 concurrent users on l4, how many?")
	if err != nil || r.Request.Job.Concurrency != 50 || r.Request.Job.RequestRate != 0 {
		t.Errorf("a chat: %v, %d in flight, %v req/s", err, r.Request.Job.Concurrency, r.Request.Job.RequestRate)
	}
}

// "for 500 token prompts" is the prompt's length, not 500 tokens of work.
func TestTokenPrompts(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, in := range map[string]int{
		"phi-4 inference latency on l4 for 500 token prompts": 500,
		"qwen 7b latency with 2000 token prompts on a10":      2000,
		"ttft for 8k prompt llama 3 8b on h100":               8192,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		j := r.Request.Job
		if err != nil || j.SeqLen-j.GenTokens != in || j.Tokens != 0 {
			t.Errorf("%q: %v, seq %d gen %d tokens %v; want a %d-token prompt", text, err, j.SeqLen, j.GenTokens, j.Tokens, in)
		}
	}
}

// Memory asked as people ask it in Korean ("vram 계산 좀", "메모리
// 사용량"), and "tps" with no number before it, a rate asked.
func TestMemoryAndTPSAsked(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{"7b 풀파인튜닝 vram 계산 좀", "llama 3 8b lora 메모리 사용량 알려줘", "qwen2.5 14b 추론 메모리 계산해줘"} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || !r.Memory || r.Ask != AskFit {
			t.Errorf("%q: %v, memory %v, ask %q", text, err, r.Memory, r.Ask)
		}
	}
	for _, text := range []string{"qwen3-30b-a3b 추론 vllm 4090 2장 tps", "llama 3 8b on a 4090 tps?"} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || !r.Rate || r.Ask != AskTime {
			t.Errorf("%q: %v, rate %v, ask %q", text, err, r.Rate, r.Ask)
		}
	}
}

// Cloud instance types are read as the GPUs they hold, rented; asked
// "how many", as the count open (in nodes for eight-GPU types).
func TestCloudInstances(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]string{
		"llama 3 8b 학습 비용 aws p4d 기준으로 얼마":                            "8x a100-sxm4-40gb",
		"llama 3 8b lora on 100k samples cost on an aws p4d.24xlarge": "8x a100-sxm4-40gb",
		"qwen 7b serving on g5.xlarge tokens per second":              "1x a10",
		"llama 70b inference on a3-highgpu-8g will it fit":            "8x h100-sxm5-80gb",
		"llama 3 8b lora on a g6e.12xlarge how long for 50k samples":  "4x l40s",
		"how many g6.xlarge to serve llama 3 8b at 5 req/s":           "l4 × ? · how many GPUs?",
		"how many p5 to pretrain llama 3 8b on 1T tokens in a week":   "h100-sxm5-80gb × ? · how many nodes",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || !r.Cloud || !strings.Contains(ReadAs(cat, r), want) {
			t.Errorf("%q: %v, cloud %v, read as %q; want %q in it", text, err, r.Cloud, ReadAs(cat, r), want)
		}
	}
}

// Days said with no 안에 before a count asked, or a time right after "몇
// 장이면", are a deadline; hours said beside a measured run stay the run's.
func TestKoreanBareDeadline(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]time.Duration{
		"llama 3 70b 사전학습 15T 토큰 30일 h100 몇 장 필요?":  30 * 24 * time.Hour,
		"v100 4장에서 에폭당 5.67시간 걸렸는데 h100 몇 장이면 1시간?": time.Hour,
		"bert-base 100만 샘플 30에폭 a100 몇장이면 2일?":      48 * time.Hour,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Deadline != want || r.Ask != AskCount {
			t.Errorf("%q: %v, deadline %v, ask %q; want %v", text, err, r.Deadline, r.Ask, want)
		}
	}
	r, err := Read(Env{Catalog: cat}, "bert 학습 a6000 1장에서 385시간 걸렸는데 h100 8장이면?")
	if err != nil || r.Request.Baseline == nil || r.Deadline != 0 {
		t.Errorf("a measured run: %v, baseline %v, deadline %v", err, r.Request.Baseline, r.Deadline)
	}
}

// A fine-tune with Unsloth and no method is Unsloth's default, QLoRA;
// "full" keeps the full fine-tune. "compare bf16 and fp8" sets the two
// formats side by side.
func TestUnslothDefaultAndCompareFormats(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]planner.Workload{
		"llama 3.1 8b sft with unsloth on a t4, 10k samples": planner.QLoRA,
		"unsloth로 qwen2.5 7b 파인튜닝 3090 가능?":                  planner.QLoRA,
		"llama 3.1 8b full finetune with unsloth on an a100": planner.Finetune,
		"llama 3 8b lora unsloth 4090":                       planner.LoRA,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Request.Job.Workload != want {
			t.Errorf("%q: %v, %q, want %q", text, err, r.Request.Job.Workload, want)
		}
	}
	r, err := Read(Env{Catalog: cat}, "compare bf16 and fp8 for llama 3 70b pretraining on 64 h100s")
	if err != nil || r.ComparePrecisions != [2]planner.Precision{planner.BF16, planner.FP8} {
		t.Errorf("compare bf16 and fp8: %v, %v", err, r.ComparePrecisions)
	}
}

// A sentence that starts by booking, asks nothing and says when is a
// booking whatever it is for (the purpose kept as the note); the GPU type
// said names the one server that has it. Asking how many to book is a plan.
func TestBookingSentences(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: []planner.Hardware{
		{GPU: mustGPUFor(t, cat, "a100"), Count: 4, Server: "server-a"},
		{GPU: mustGPUFor(t, cat, "h200"), Count: 4, Server: "server-h"},
	}}
	for text, want := range map[string]string{
		"book 4 a100s tomorrow 9am to 6pm for llama finetune":     `4 on server-a tomorrow 9am to 6pm note "llama finetune"`,
		"book 2 gpus on server-h for 3 hours for llama 3 8b lora": `2 on server-h for 3 hours note "llama 3 8b lora"`,
		"a100 2장 내일 오전 9시부터 3시간 예약해줘":                             "2 on server-a",
	} {
		cr, ok := ReadCommand(env, text)
		if !ok || cr.Name != "reserve" || !strings.HasPrefix(cr.Args, want) {
			t.Errorf("%q: %v %+v, want reserve %q", text, ok, cr, want)
		}
	}
	for _, text := range []string{"how many a100s should i book for llama 70b lora?", "book llama 3 8b lora on server-h"} {
		if cr, ok := ReadCommand(env, text); ok {
			t.Errorf("%q: read as the command %+v, want a plan", text, cr)
		}
	}
}

// "배치 사이즈 얼마로" asks the batch, not money.
func TestKoreanBatchSizeAsked(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{"llama 3 8b 학습할 때 배치 사이즈 얼마로 해야돼 a100에서", "bert-base 파인튜닝 배치 크기 얼마까지 돼 v100에서"} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || !r.MaxBatch || r.Ask != AskFit {
			t.Errorf("%q: %v, max batch %v, ask %q", text, err, r.MaxBatch, r.Ask)
		}
	}
	if r, err := Read(Env{Catalog: cat}, "llama 3 8b lora a100 비용 얼마"); err != nil || r.MaxBatch || r.Ask != AskCost {
		t.Errorf("the cost: %v, max batch %v, ask %q", err, r.MaxBatch, r.Ask)
	}
}

// A memory size set against the same GPU's other size is that GPU with
// it, side by side ("a100 40gb vs 80gb", "a100 40gb랑 80gb 중에").
func TestSiblingMemory(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{
		"a100 40gb랑 80gb 중에 뭐 사야돼? llama 13b 파인튜닝용",
		"a100 40gb vs 80gb for llama 13b finetune",
		"a100 40gb or 80gb for llama 13b lora?",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || !strings.Contains(ReadAs(cat, r), "a100-sxm4-40gb, a100-sxm4-80gb") {
			t.Errorf("%q: %v, read as %q", text, err, ReadAs(cat, r))
		}
	}
}

// CNN/DailyMail, XSum, KorQuAD and GSM8K by name, with their training
// splits' sizes.
func TestMoreDatasets(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, n := range map[string]float64{
		"t5-base summarization on cnn dailymail 3 epochs on a v100": 287113,
		"t5-base 요약 학습 cnn_dailymail 3에폭 v100":                      287113,
		"t5-base xsum 1 epoch a100":                                 204045,
		"klue roberta korquad 2에폭 a100 얼마나":                         60407,
		"qwen2.5 7b lora gsm8k 3 epochs a100":                       7473,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Request.Job.DatasetSamples != n {
			t.Errorf("%q: %v, %v samples, want %v", text, err, r.Request.Job.DatasetSamples, n)
		}
	}
}

// "몇 번 돌릴 수 있어" beside a budget asks the runs it buys, in epochs;
// "gpu 서버 하나" is one machine, no count of GPUs.
func TestBudgetRunsAndOneServer(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{"예산 2천만원으로 h100 빌려서 llama 3 8b 파인튜닝 몇 번 돌릴 수 있어", "예산 100만원으로 llama 3 8b lora 데이터 5만개 몇번 돌릴 수 있어?"} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Ask != AskAmount || r.AmountUnit != "epochs" {
			t.Errorf("%q: %v, ask %q in %q", text, err, r.Ask, r.AmountUnit)
		}
	}
	r, err := Read(Env{Catalog: cat}, "gpu 서버 하나 사려는데 llama 70b 추론용으로 뭐 사야돼")
	if err != nil || r.GPUCount != 0 {
		t.Errorf("gpu 서버 하나: %v, %d GPUs", err, r.GPUCount)
	}
}

// A family named with no size is its most used checkpoint: whisper is
// large-v3, bart is bart-large; a size said keeps its own.
func TestBareFamilyNames(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]string{
		"whisper 파인튜닝 1000시간 데이터 a100 8장 며칠 걸려요": "whisper-large-v3",
		"openai whisper on a t4 how fast":        "whisper-large-v3",
		"whisper small 추론 t4":                    "whisper-small",
		"bart xsum 1 epoch a100":                 "bart-large",
		"bart-base xsum 1 epoch a100":            "bart-base",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Request.Job.Model.ID != want {
			t.Errorf("%q: %v, %s, want %s", text, err, r.Request.Job.Model.ID, want)
		}
	}
}

// Probe 25's misreadings, each as it reads now.
func TestProbe25Readings(t *testing.T) {
	cat := planner.DefaultCatalog()
	read := func(text string) Reading {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
		}
		return r
	}
	if r := read("gguf q4_k_m of llama 3.1 70b on a 4090 + 64gb ram, tok/s?"); len(r.Request.Targets) != 1 || r.Request.Targets[0].GPU.ID != "rtx-4090" {
		t.Errorf("64gb ram is the host's: %d targets", len(r.Request.Targets))
	}
	if r := read("a100 vs h100 for 13b inference, which is cheaper per million tokens"); r.Ask != AskCost || r.Request.Job.Tokens != 0 {
		t.Errorf("per million tokens: ask %q, %v tokens", r.Ask, r.Request.Job.Tokens)
	}
	if r := read("회의녹음 1000시간 전사해야됨 whisper medium faster-whisper로 4090이면 얼마나 걸려?"); r.Request.Job.Samples != 120000 {
		t.Errorf("회의녹음 1000시간: %v samples", r.Request.Job.Samples)
	}
	if r := read("roberta-large on klue-ynat 3 epochs, how long on a single a100 40gb"); r.Request.Job.DatasetSamples != 45678 {
		t.Errorf("klue-ynat: %v", r.Request.Job.DatasetSamples)
	}
	if r := read("kobert로 ner 파인튜닝 klue ner 데이터 5에폭 t4로 얼마나 걸리나여"); r.Request.Job.DatasetSamples != 21008 {
		t.Errorf("klue ner: %v", r.Request.Job.DatasetSamples)
	}
	if r := read("라마3.1 8b vllm으로 초당 몇 리퀘스트 처리가능? h100 1장, 입력 1k 출력 256토큰 정도"); !r.Rate || !r.RequestRate {
		t.Errorf("초당 몇 리퀘스트: rate %v, in requests %v", r.Rate, r.RequestRate)
	}
	if r := read("llama.cpp로 7b q4_k_m 3060 12gb에서 토큰 몇개나옴?"); !r.Rate || r.Ask != AskTime {
		t.Errorf("토큰 몇개나옴: rate %v, ask %q", r.Rate, r.Ask)
	}
	if r := read("resnet50 우리 데이터셋 20만장 파인튜닝 10에폭 3090으로 몇분이면됨?"); r.Ask != AskTime {
		t.Errorf("몇분이면됨: ask %q", r.Ask)
	}
	if r := read("full ft qwen2.5 1.5b on 2m korean chat samples, avg 512 tokens, 3 epochs, on 4090s. how many and how long"); r.Request.Job.DatasetSamples != 2e6 || r.Request.Job.SeqLen != 512 || r.Ask != AskCount {
		t.Errorf("on 2m korean chat samples: %v samples, seq %d, ask %q", r.Request.Job.DatasetSamples, r.Request.Job.SeqLen, r.Ask)
	}
	if r := read("how many people can use llama 3 8b on one l4 at once"); !r.MaxBatch || r.Request.Job.Workload != planner.Inference {
		t.Errorf("how many people at once: max batch %v, %q", r.MaxBatch, r.Request.Job.Workload)
	}
}
