package lang

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// The GPUs the asker has, said beside a count question, make the count
// asked how many of them the job takes; a time or users had, or a count
// said without a count question, keep their reading.
func TestCountHave(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, c := range []struct {
		text string
		have int
		ask  Ask
	}{
		{"qwen 72b lora h100 8장 중에 몇 장 필요해?", 8, AskCount},
		{"qwen 72b lora 하려는데 h100 8장 다 필요함?", 8, AskCount},
		{"qwen 72b lora: how many h100s do we need, we have 8", 8, AskCount},
		{"do we need all 8 h100s for qwen 72b lora?", 8, AskCount},
		{"llama 3 70b full finetune, how many of our 6 a100s do we need?", 6, AskCount},
		{"how many of the 16 h100 gpus does llama 3 70b lora need", 16, AskCount},
		// not a count question, or not GPUs had
		{"llama 3 8b lora on 8x h100, how long for 1B tokens? we have 3 days", 0, AskTime},
		{"llama 3 8b lora on all 8 h100s, how long for 1B tokens", 0, AskTime},
		{"h100 8장으로 llama 3 70b lora 얼마나 걸려?", 0, AskTime},
	} {
		r, err := Read(Env{Catalog: cat}, c.text)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		if r.CountHave != c.have || r.Ask != c.ask {
			t.Errorf("%q: have %d ask %s, want have %d ask %s", c.text, r.CountHave, r.Ask, c.have, c.ask)
		}
		if c.have > 0 && (!r.CountOpen || len(r.Request.Targets) != 1) {
			t.Errorf("%q: the count is not left open on one GPU: %+v", c.text, r.Request.Targets)
		}
	}
}

// A node count said with no GPU beside a node shape said once ("2 nodes of
// 8xh100 vs 1 node", "h100 8장짜리 2노드 vs 1노드") is that many of the
// same machines; two shapes leave a bare count without one.
func TestNodeShapeShared(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, c := range []struct {
		text   string
		counts []int
	}{
		{"2 nodes of 8xh100 vs 1 node for llama 70b full finetune", []int{16, 8}},
		{"llama 70b full finetune on 1 node of 8x h100 vs 2 nodes", []int{8, 16}},
		{"llama 3 70b 풀파인튜닝 h100 8장짜리 2노드 vs 1노드 얼마나 차이나?", []int{16, 8}},
		{"llama 3 8b lora h100 8장 1노드면 얼마나 걸려?", []int{8}},
	} {
		r, err := Read(Env{Catalog: cat}, c.text)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		var got []int
		for _, hw := range r.Request.Targets {
			if hw.GPU.ID != "h100-sxm5-80gb" {
				t.Errorf("%q: %s, want H100 SXM", c.text, hw.GPU.ID)
			}
			got = append(got, hw.Count)
		}
		if !slices.Equal(got, c.counts) {
			t.Errorf("%q: counts %v, want %v", c.text, got, c.counts)
		}
	}
	if _, err := Read(Env{Catalog: cat}, "llama 70b full finetune on 2 nodes of 8x h100 vs 1 node of 4x a100 vs 3 nodes"); err == nil {
		t.Errorf("a bare node count beside two shapes was given one of them")
	}
}

// A later day said with no time is when the GPUs are used: its working
// hours, its morning or its afternoon; a clock, an end or a duration said
// keep their reading.
func TestBookingDayPart(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "a100"), Count: 4, Server: "server-a"}}}
	for text, want := range map[string]string{
		"내일 오전에 a100 2장 쓸게요":         "2 on server-a from tomorrow 9:00 until tomorrow 12:00",
		"내일 a100 2장 쓸게요":             "2 on server-a from tomorrow 9:00 until tomorrow 18:00",
		"금요일 오후에 a100 2장 쓸게요":        "2 on server-a from fri 13:00 until fri 18:00",
		"내일까지 a100 2장 쓸게요":           "2 on server-a until tomorrow",
		"내일 오전 9시부터 a100 2장 쓸게요":     "2 on server-a from tomorrow 9:00",
		"내일 오전 9시부터 3시간 a100 2장 쓸게요": "2 on server-a from tomorrow 9:00 for 3h",
	} {
		cr, ok := ReadCommand(env, text)
		if !ok || cr.Name != "reserve" || cr.Args != want {
			t.Errorf("%q: %v %+v, want reserve %q", text, ok, cr, want)
		}
	}
}

// Two choices said with one GPU and "which is faster" compare their speed
// there, not whether each fits.
func TestVariantFasterOnOneGPU(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{
		"lora vs qlora on mistral 7b, which one's faster on a single 4090?",
		"mistral 7b 4090 한장에서 lora랑 qlora 중에 뭐가 더 빨라?",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Variant == nil || r.Ask != AskNone {
			t.Errorf("%q: %v, variant %v, ask %q: want the two compared in speed", text, err, r.Variant != nil, r.Ask)
		}
	}
	if r, err := Read(Env{Catalog: cat}, "lora vs qlora on mistral 7b on a 4090, which fits?"); err != nil || r.Ask != AskFit {
		t.Errorf("which fits: %v, ask %q", err, r.Ask)
	}
}

// The reservations asked after as a whole are the status, not a booking
// with no server.
func TestReservationsStatus(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "a100"), Count: 4, Server: "server-a"}}}
	for _, text := range []string{"예약 현황", "현재 예약 상황 보여줘", "show reservations", "server-a 예약 현황"} {
		if cr, ok := ReadCommand(env, text); !ok || cr.Name != "status" {
			t.Errorf("%q: %v %+v, want status", text, ok, cr)
		}
	}
	if cr, ok := ReadCommand(env, "내일 a100 2장 예약해줘"); !ok || cr.Name != "reserve" {
		t.Errorf("a booking: %v %+v", ok, cr)
	}
}

// A per-user rate beside the users asked ("how many concurrent users at
// ~20 tok/s each") is a target for each token, not a service rate.
func TestPerUserRateWithUsersAsked(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{
		"llama 3.1 8b on an l40s, how many concurrent users at ~20 tok/s each?",
		"l40s 한장에 llama 3.1 8b 올리면 유저당 초당 20토큰 기준 동접 몇 명?",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || !r.MaxBatch || !r.LatencyPerToken || r.LatencyTargetS != 0.05 || r.Request.Job.OutputTokPS != 0 {
			t.Errorf("%q: %v, at once %v, per token %v target %v, rate %v", text, err, r.MaxBatch, r.LatencyPerToken, r.LatencyTargetS, r.Request.Job.OutputTokPS)
		}
	}
	r, err := Read(Env{Catalog: cat}, "llama 3.1 8b on an l40s, 30 tok/s per user for 40 users")
	if err != nil || r.Request.Job.OutputTokPS != 1200 || r.Request.Job.Concurrency != 40 {
		t.Errorf("users said: %v, rate %v, users %d", err, r.Request.Job.OutputTokPS, r.Request.Job.Concurrency)
	}
}

// A latency target is said to three significant figures.
func TestLatencyText(t *testing.T) {
	for v, want := range map[float64]string{1.0 / 60: "16.7 ms", 0.05: "50 ms", 0.1: "100 ms", 0.0025: "2.5 ms", 2: "2 s", 1500: "1500 s", 1.25: "1.25 s"} {
		if got := latencyText(v); got != want {
			t.Errorf("%v s: %q, want %q", v, got, want)
		}
	}
}

// A measured run said after its hardware ("on 8x v100 took 20 hours")
// keeps that hardware; the one asked after the comma or semicolon is the
// target.
func TestRunHardwareBeforeTheComma(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{
		"llama 3 8b lora on 8x v100 took 20 hours, how long on a100s?",
		"we trained llama 3 8b lora on 8x v100 and it took 20 hours, what would a100s cut that to?",
		"we finetuned llama 3 8b lora on 8x v100 last week, 3 epochs took 20 hours; how long on a100s?",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Request.Baseline == nil || len(r.Request.Targets) != 1 {
			t.Errorf("%q: %v, %+v", text, err, r.Request.Baseline)
			continue
		}
		if b, g := r.Request.Baseline.Hardware, r.Request.Targets[0]; b.GPU.ID != "v100-sxm2-32gb" || b.Count != 8 || g.GPU.ID != "a100-sxm4-80gb" {
			t.Errorf("%q: run on %d× %s, target %s", text, b.Count, b.GPU.ID, g.GPU.ID)
		}
	}
	if r, err := Read(Env{Catalog: cat}, "bert-base baseline 5.67 h/epoch, on 4x v100, how long on h100"); err != nil || r.Request.Baseline == nil || r.Request.Baseline.Hardware.GPU.ID != "v100-sxm2-32gb" {
		t.Errorf("a baseline with its hardware after a comma: %v", err)
	}
}

// Buying is read from its words, English and Korean, and a GPU server to
// be bought asks which GPUs, not which of the team's servers.
func TestBuyingRead(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, ask := range map[string]Ask{
		"서버 새로 사려는데 llama 70b 파인튜닝용으로 뭐 사야돼?":                        AskWhichGPU,
		"which gpus should we buy for llama 3 70b qlora?":            AskWhichGPU,
		"we're buying a new server for llama 3 8b lora, which gpus?": AskWhichGPU,
		"연구실 서버 구매 예정인데 qwen2.5 32b 서빙하려면 어떤 gpu?":                   AskWhichGPU,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || !r.Buying || r.Ask != ask {
			t.Errorf("%q: %v, buying %v, ask %q", text, err, r.Buying, r.Ask)
		}
	}
	for _, text := range []string{"llama 3 8b lora on our new server-h, how long?", "llama 3 8b 사용량 얼마나", "llama 3 8b lora 하려는데 h100 사용 가능?"} {
		if r, err := Read(Env{Catalog: cat}, text); err == nil && r.Buying {
			t.Errorf("%q: read as buying", text)
		}
	}
}

// Two models said together on one GPU ("같이", "together") are read as
// both at once, served when no work is said; "vs" keeps them apart.
func TestTwoModelsTogether(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{"llama 3 8b랑 whisper large 같이 a100 한장에 올릴 수 있어?", "can I serve llama 3 8b and bge-m3 together on one l40s?", "qwen2.5 32b and llama 3 8b together on a 4090?",
		"llama 3 8b and whisper on the same a100?", "can llama 3 8b and whisper share the same gpu? we have an a100", "llama 3 8b and whisper on the same gpu on an a100"} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || !r.Together || r.Variant == nil || r.Ask != AskFit || r.Request.Job.Workload != planner.Inference || r.Variant.Request.Job.Workload != planner.Inference {
			t.Errorf("%q: %v, together %v, ask %q", text, err, r.Together, r.Ask)
		}
	}
	if r, err := Read(Env{Catalog: cat}, "llama 3 8b vs qwen2.5 7b on a 4090, which is faster?"); err != nil || r.Together {
		t.Errorf("vs: %v, together %v", err, r.Together)
	}
}

// Booking words from probe 27: "who's on", "until EOD" and a purpose after
// the comma, a whole day ("하루종일") and the weekend ("주말 동안").
func TestProbe27Bookings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC), Servers: []planner.Hardware{
		{GPU: mustGPUFor(t, cat, "v100"), Count: 4, Server: "server-v"}, {GPU: mustGPUFor(t, cat, "a100"), Count: 4, Server: "server-a"}}}
	for text, want := range map[string]string{
		"who's on server-v right now?":                            "status server-v",
		"grab 1 gpu on server-v until EOD, running resnet sweeps": `reserve 1 on server-v until EOD note "running resnet sweeps"`,
		"server-a 내일 하루종일 네 장 다 쓸게요":                              "reserve 4 on server-a from tomorrow 0:00 until tomorrow midnight",
		"주말 동안 server-a 두 장 예약 가능?":                               "reserve 2 on server-a from sat 0:00 until sun midnight",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: %v %q, want %q", text, ok, got, want)
		}
	}
	env.Now = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC) // a Sunday: the weekend under way
	if cr, _ := ReadCommand(env, "주말 동안 server-a 두 장 예약 가능?"); cr.Args != "2 on server-a from now until sun midnight" {
		t.Errorf("on a Sunday: %q", cr.Args)
	}
	for _, w := range []string{"until EOD", "until eod"} {
		if win, _, err := ParseWindow(strings.Fields(w), env.Now, time.UTC); err != nil || win.End.Hour() != 18 {
			t.Errorf("%q: %+v %v, want today 18:00", w, win, err)
		}
	}
}

// Plan words from probe 27: "using h100s" is the hardware, "by EOD
// friday" that day's end of work, "회의" a meeting (not 회, times), and
// GPUs rented for a time with the job they are for are a rental.
func TestProbe27Plans(t *testing.T) {
	cat := planner.DefaultCatalog()
	now := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC) // a Sunday
	env := Env{Catalog: cat, Now: now}
	r, err := Read(env, "with a $5k budget how many tokens can we pretrain a 1.3b model on using h100s?")
	if err != nil || len(r.Request.Targets) != 1 || r.Request.Targets[0].GPU.ID != "h100-sxm5-80gb" || r.Budget != 5000 {
		t.Errorf("using h100s: %v %+v", err, r.Request.Targets)
	}
	r, err = Read(env, "by EOD friday I need to finish llama 3.1 8b qlora on 200M tokens — enough with one 4090?")
	if err != nil || r.Deadline < 5*24*time.Hour || r.Deadline > 6*24*time.Hour {
		t.Errorf("by EOD friday: %v, deadline %v, want about 5.7 days", err, r.Deadline)
	}
	r, err = Read(env, "whisper large-v3로 회의 녹음 천 시간 전사하려는데 v100 4장으로 며칠 걸려요?")
	if err != nil || r.Request.Job.Samples != 120000 || r.Request.Job.Epochs != 0 {
		t.Errorf("회의 녹음 천 시간: %v, samples %v epochs %v", err, r.Request.Job.Samples, r.Request.Job.Epochs)
	}
	for text, hours := range map[string]float64{"llama 3.1 70b 풀파인튜닝 하려고 h200 8장 2주 빌리면 얼마야": 336, "h200 8장 2주 빌리면 얼마야": 336} {
		if rt, ok := ReadRental(env, text); !ok || rt.Hours != hours || len(rt.Hardware) != 1 || rt.Hardware[0].Count != 8 {
			t.Errorf("%q: %v %+v", text, ok, rt)
		}
	}
	if rt, ok := ReadRental(env, "100만원으로 a100 며칠 빌릴 수 있어요?"); !ok || rt.BudgetUSD <= 0 {
		t.Errorf("며칠 빌릴: %v %+v", ok, rt)
	}
	if _, ok := ReadRental(env, "llama 3.1 70b 풀파인튜닝 h200 8장 비용 얼마야"); ok {
		t.Error("a plan's cost with no rental time was read as a rental")
	}
}

// A technique asked whether it is needed is read as that question, with
// the technique still planned; "need" before anything else is no such
// question.
func TestNeedAsked(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, tech := range map[string]string{
		"can I fine-tune llama3 8b with full params on 2x A100 80GB, or do I need ZeRO-3?": "strategy",
		"llama 3 8b 풀파인튜닝 a100 2장 zero3 필요해?":                                              "strategy",
		"bert-large finetune seq 512 on a t4, do I need gradient checkpointing?":           "ckpt",
		"llama 3 8b lora on a 4090, ckpt 켜야 돼?":                                            "ckpt",
		"how many h100s do we need for llama 70b lora":                                     "",
		"llama 3 8b full finetune zero3 on 2x a100, how long for 1B tokens":                "",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.NeedAsked != tech || tech != "" && r.Ask != AskFit {
			t.Errorf("%q: %v, need %q ask %q, want %q", text, err, r.NeedAsked, r.Ask, tech)
		}
	}
}

// A chatbot served with no lengths said is planned at ShareGPT's mean chat
// turn; lengths said, or no chat word, keep theirs.
func TestChatLengths(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, seq := range map[string]int{
		"초당 요청 50개 들어오는 챗봇 qwen2.5 14b로 띄우려면 a100 몇 장?":                       404,
		"a chatbot on llama 3 8b with vllm, 20 req/s, how many h100s?":        404,
		"a chatbot on llama 3 8b, in 1000 out 200, 20 req/s, how many h100s?": 1200,
		"llama 3 8b serving 20 req/s, how many h100s?":                        0,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Request.Job.SeqLen != seq {
			t.Errorf("%q: %v, seq %d, want %d", text, err, r.Request.Job.SeqLen, seq)
		}
	}
}

// Probe 28: "(QPS 10)" restating a rate is no GPU count, "하나
// 여쭤봐도" is one question, a note said in Korean keeps its quoted words,
// a GPU compared without a count is left open beside a team server, and
// "how many fine-tunes … can we afford" asks the runs a budget buys.
func TestProbe28Readings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "a100"), Count: 4, Server: "server-a"}, {GPU: mustGPUFor(t, cat, "h200"), Count: 4, Server: "server-h"}}}
	r, err := Read(env, "실례지만 하나 여쭤봐도 될까요? 저희 팀에서 T4 여러 장으로 phi-3 mini를 추론 서빙하려고 하는데요, 초당 요청 10개(QPS 10) 정도를 감당하려면 T4가 몇 장 필요할지 궁금합니다.")
	if err != nil || r.Ask != AskCount || !r.CountOpen || r.Request.Job.RequestRate != 10 {
		t.Errorf("QPS restated: %v, ask %q open %v rate %v", err, r.Ask, r.CountOpen, r.Request.Job.RequestRate)
	}
	if r, err := Read(env, "phi-3 mini serving, QPS 10, how many t4s?"); err != nil || r.Request.Job.RequestRate != 10 || !r.CountOpen {
		t.Errorf("QPS 10: %v, rate %v", err, r.Request.Job.RequestRate)
	}
	cr, ok := ReadCommand(env, `안녕하세요, 내일 오전 10시부터 6시간 정도 서버 H에서 GPU 2장을 쓰고 싶은데요, 예약 가능할까요? 메모는 "dpo 실험"으로 남겨주세요.`)
	if !ok || cr.Name != "reserve" || !strings.HasSuffix(cr.Args, `note "dpo 실험"`) {
		t.Errorf("메모는: %v %+v", ok, cr)
	}
	r, err = Read(env, "우리 server-a로 돌리는 거랑 h100 클라우드 빌리는 거랑 llama3 8b 풀파인튜닝 10억 토큰 한 번 돌릴 때 어느 쪽이 더 싸?")
	if err != nil || !slices.Equal(r.OpenTargets, []int{1}) {
		t.Errorf("server-a vs h100: %v, open %v", err, r.OpenTargets)
	}
	r, err = Read(env, "budget question: we have $10k this quarter for fine-tuning. how many full fine-tunes of qwen2.5 14b on 500M tokens can we afford on a100 80gb?")
	if err != nil || r.Ask != AskAmount || r.AmountUnit != "epochs" || r.Budget != 10000 {
		t.Errorf("fine-tunes afforded: %v, ask %q unit %q budget %v", err, r.Ask, r.AmountUnit, r.Budget)
	}
}

// A machine to build said in a sentence ("4090 8장짜리 서버 새로
// 맞추려는데 전원이랑 쿨링 뭐 필요해?", "what psu for 4x 4090") is the
// build command on its count and GPU, the model number no count.
func TestBuildSentence(t *testing.T) {
	env := Env{Catalog: planner.DefaultCatalog()}
	for text, want := range map[string]string{
		"팀에 4090 8장짜리 서버 하나 새로 맞추려는데, 전원이랑 쿨링 뭐 필요해?": "8x 4090",
		"what psu do I need for 4x 4090?": "4x 4090",
		"a100 2장 서버 조립하려는데 파워 몇 와트?":      "2x a100",
	} {
		if cr, ok := ReadCommand(env, text); !ok || cr.Name != "build" || cr.Args != want {
			t.Errorf("%q: %v %+v, want build %q", text, ok, cr, want)
		}
	}
}

// "1억 토큰 몇 번 돌릴 … 한 번에 얼마": the tokens are the amount's unit,
// how many runs is context with no budget said, and a run's cost is asked.
func TestRunsAsContext(t *testing.T) {
	r, err := Read(Env{Catalog: planner.DefaultCatalog()}, "다음 분기에 llama3 70b LoRA 파인튜닝(1억 토큰) 몇 번 돌릴 예산 잡아야 하는데 h100 8장 기준 한 번에 얼마 들어?")
	if err != nil || r.Ask != AskCost || r.Request.Job.Tokens != 1e8 || len(r.Request.Targets) != 1 || r.Request.Targets[0].Count != 8 {
		t.Errorf("%v, ask %q tokens %v targets %+v", err, r.Ask, r.Request.Job.Tokens, r.Request.Targets)
	}
}

// The longest context asked is said back as that question, its words not
// listed as skipped.
func TestMaxSeqSaid(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]string{
		"llama3 8b max context on a 4090?":    "longest context?",
		"llama3 8b 최대 컨텍스트 길이 4090에서 얼마까지 돼?": "longest context?",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil {
			t.Fatal(err)
		}
		if got := ReadAs(cat, r); !strings.Contains(got, want) || strings.Contains(got, "skipped") {
			t.Errorf("%q: read as %q", text, got)
		}
	}
}

// Probe 29: "어떻게 해요" beside a concrete job is the job, not help; free
// GPUs asked as "쓸 수 있는 gpu" are the status; "몇으로 줄여야" asks the
// batch; "뭐 써야 돼요" between two methods asks memory and speed.
func TestProbe29Readings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "h200"), Count: 4, Server: "server-h"}}}
	if cr, ok := ReadCommand(env, "llama3 8b 풀파인튜닝 4090에서 CUDA OOM 뜨는데 어떻게 해요?"); ok {
		t.Errorf("OOM with a job: read as the command %+v, want a plan", cr)
	}
	for text, want := range map[string]string{
		"h 서버 2장 오늘 저녁까지 쓰고 싶은데 어떻게 해요?": "reserve",
		"지금 쓸 수 있는 gpu 있어요?":             "status",
		"예약 어떻게 해요?":                     "help",
	} {
		if cr, ok := ReadCommand(env, text); !ok || cr.Name != want {
			t.Errorf("%q: %v %+v, want %s", text, ok, cr, want)
		}
	}
	r, err := Read(env, "qwen2.5 7b lora 하는데 배치 8로 하면 메모리 터지는데 몇으로 줄여야 돼? 3090 한장이에요")
	if err != nil || !r.MaxBatch || r.Ask != AskFit {
		t.Errorf("몇으로 줄여야: %v, max batch %v ask %q", err, r.MaxBatch, r.Ask)
	}
	r, err = Read(env, "qlora랑 lora 중에 뭐 써야 돼요? 4090 한 장이고 모델은 mistral 7b")
	if err != nil || r.Variant == nil || !r.Memory || r.Ask != AskTime {
		t.Errorf("뭐 써야: %v, memory %v ask %q", err, r.Memory, r.Ask)
	}
	r, err = Read(env, "my bert-base training takes 40 min per epoch on one v100, how long on server-h?")
	if got := ReadAs(cat, r); err != nil || !strings.Contains(got, "baseline 0.6667 h/epoch") {
		t.Errorf("40 min an epoch: %v %q", err, got)
	}
}
