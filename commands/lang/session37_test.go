package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// probe37Env is probe 37's team: servers named like English words, one
// of them (lion) also a word of the language (the Lion optimizer).
func probe37Env(t *testing.T, now time.Time) Env {
	cat := planner.DefaultCatalog()
	return Env{Catalog: cat, Now: now, Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "h100"), Count: 8, Server: "tiger"},
		{GPU: mustGPUFor(t, cat, "a100"), Count: 4, Server: "lion"}, {GPU: mustGPUFor(t, cat, "4090"), Count: 2, Server: "cat"}}}
}

// Probe 37's bookings: server names said as Korean loanwords (타이거 is
// tiger: its i said 아이, its r silent), a particle glued to a GPU is no
// server, "오늘밤 10시" is at night, "12월 3일" is a date, "오늘 하루" and
// "이번주 내내" are the rest of the day and of the week, and "예약 …
// 늘려줘" extends.
func TestProbe37Bookings(t *testing.T) {
	env := probe37Env(t, time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)) // a Wednesday
	for text, want := range map[string]string{
		"라이언 2장 지금부터 3시간 잡아줘":                      "reserve 2 on lion for 3h",
		"타이거 8장 전부 지금부터 6시간 쓸게요":                   "reserve 8 on tiger for 6h",
		"타이거 자리나면 알려줘 2장 필요함":                      "wait 2 on tiger",
		"라이언 예약 취소할게":                              "release lion",
		"타이거 내일 예약 취소해줘":                           "release tiger tomorrow",
		"라이언 예약 1시간 연장해줘":                          "extend lion by 1h",
		"타이거 예약 내일 저녁 8시까지로 늘려줘":                   "extend tiger until tomorrow 20:00",
		"12월 3일 목요일 타이거 4장 하루종일 쓰고싶어요":             "reserve 4 on tiger from 2026-12-03 0:00 until 2026-12-03 midnight",
		"cat 오늘밤 10시부터 내일 아침 8시까지 두장 다 예약해주세요":     "reserve 2 on cat from today 22:00 until tomorrow 8:00",
		"오늘 하루 타이거 2장 쓸게요":                         "reserve 2 on tiger from now until today midnight",
		"이번주 내내 라이언 4장 쓸게요":                        "reserve 4 on lion from now until sun midnight",
		"이번 주 내내 h100 2장 예약해줘":                     "reserve 2 on tiger from now until sun midnight",
		"book 2 on tiger for the rest of the week": "reserve 2 on tiger from now until sun midnight",
		"reserve 2 on lion tomorrow all day":       "reserve 2 on lion from tomorrow 0:00 until tomorrow midnight",
		"book 1 on cat for the whole day":          "reserve 1 on cat from now until today midnight",
		"하루 tiger 2장 쓸게요":                          "reserve 2 on tiger for 24h",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: %v %q, want %q", text, ok, got, want)
		}
	}
	if got := hangulServers("H100이랑 A100 학습속도", env.Servers); got != "H100이랑 A100 학습속도" {
		t.Errorf("a particle glued to a GPU was read as a server: %q", got)
	}
}

// A server named like a word of the language (lion, the optimizer) is the
// server in a plan, with its count said after it; "lion optimizer" is
// still the optimizer.
func TestServerNamedLikeAWord(t *testing.T) {
	env := probe37Env(t, time.Now())
	for text, want := range map[string]int{
		"gemma 2 27b 풀파인튜닝 라이언 4장으로 가능?": 4,
		"llama3 8b lora lion x 2":        2,
		"llama3 8b lora on lion x2":      2,
		"llama3 8b lora lion":            4,
		"llama3 8b lora tiger x4":        4,
	} {
		rd, err := Read(env, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if ts := rd.Request.Targets; len(ts) != 1 || ts[0].Server == "" || ts[0].Count != want {
			t.Errorf("%q: targets %+v, want %d GPUs of a server", text, ts, want)
		}
	}
	rd, err := Read(env, "llama3 8b lora with lion optimizer on 4090")
	if err != nil || rd.Request.Job.Optimizer != planner.Lion {
		t.Errorf("lion optimizer: %v %q", err, rd.Request.Job.Optimizer)
	}
}

// A booking is a day's when it starts that day, or began earlier and holds
// the GPUs past that day's 9:00: tonight's booking that runs a few
// minutes past midnight is not tomorrow's.
func TestBookingOfADay(t *testing.T) {
	loc := time.FixedZone("KST", 9*3600)
	now := time.Date(2026, 11, 29, 21, 7, 0, 0, loc)
	day := func(h, m int, d int) time.Time { return time.Date(2026, 11, 29+d, h, m, 0, 0, loc) }
	for _, tc := range []struct {
		start, end time.Time
		want       bool
	}{
		{day(21, 8, 0), day(0, 8, 1), false}, // tonight, 8 minutes past midnight
		{day(9, 0, 1), day(19, 0, 1), true},  // tomorrow's
		{day(14, 0, 1), day(16, 0, 1), true},
		{day(9, 0, 0), day(18, 0, 2), true}, // held across all of tomorrow
		{day(9, 0, 2), day(18, 0, 2), false},
	} {
		if got := OnDay("tomorrow", tc.start, tc.end, now, loc); got != tc.want {
			t.Errorf("%v – %v on tomorrow: %v, want %v", tc.start, tc.end, got, tc.want)
		}
	}
}

// 얼마나 asks how much of something other than money ("학습속도 얼마나
// 차이나요"), unless a price verb says money ("얼마나 들어요").
func TestHowMuchIsNotAlwaysAPrice(t *testing.T) {
	env := probe37Env(t, time.Now())
	if _, ok := ReadRental(env, "H100이랑 A100 학습속도 얼마나 차이나요?"); ok {
		t.Error("a speed difference was read as a price")
	}
	if _, ok := ReadRental(env, "h100 8장 일주일 빌리면 얼마나 들어요?"); !ok {
		t.Error("a week of rent asked with 얼마나 들어요 was not read as a price")
	}
}

// An image classifier asked for with no model is planned on ResNet-50,
// or ResNet-18 when it is said to be small, with a note; a model named
// wins.
func TestImageClassifierWithNoModel(t *testing.T) {
	env := probe37Env(t, time.Now())
	for text, want := range map[string]string{
		"which server for a small image classifier?":       "resnet-18",
		"이미지 분류 모델 학습하려는데 4090으로 충분해?":                     "resnet-50",
		"vit-base 이미지 분류 파인튜닝 4090 한장":                     "vit-base-patch16-224",
		"train an image classifier on imagenet on 8x a100": "resnet-50",
	} {
		rd, err := Read(env, text)
		if err != nil || rd.Request.Job.Model.ID != want {
			t.Errorf("%q: %v %q, want %s", text, err, rd.Request.Job.Model.ID, want)
		}
	}
}

// Whether a GPU is needed at all ("GPU 꼭 필요한가요?", "do I need a gpu")
// is the CPU-only run it asks about, for a model llama.cpp runs; a
// training, or a speech model, keeps its own reading.
func TestIsAGPUNeeded(t *testing.T) {
	env := probe37Env(t, time.Now())
	for text, cpu := range map[string]bool{
		"라마3 8b 돌리는데 GPU 꼭 필요한가요?":           true,
		"do I need a gpu to run mistral 7b?": true,
		"qwen2.5 7b 추론하려면 gpu 필요해?":          true,
		"llama 3 8b lora 학습 gpu 꼭 필요해?":      false,
		"whisper large-v3 GPU 꼭 필요한가요?":      false,
	} {
		rd, err := Read(env, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if got := rd.CPUOnly; got != cpu {
			t.Errorf("%q: CPU-only %v, want %v (engine %q)", text, got, cpu, rd.Request.Job.Engine)
		}
	}
}

// Probe 38's bookings: 이글 (its ea said 이) is eagle, 스패로우 (the 으 of
// a cluster no vowel of the name) sparrow, "팔콘a100" the server then its
// GPU; "queue me for 4 GPUs" says the count, not the wait's length.
func TestProbe38Bookings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC), Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "a100"), Count: 8, Server: "falcon"},
		{GPU: mustGPUFor(t, cat, "h100"), Count: 4, Server: "eagle"}, {GPU: mustGPUFor(t, cat, "3090"), Count: 4, Server: "sparrow"}}}
	for text, want := range map[string]string{
		"스패로우 3장 지금부터 6시간 예약해줘":                                                   "reserve 3 on sparrow for 6h",
		"이글2장 내일오후 2시부터6시까지 잡아주세요":                                                "reserve 2 on eagle from tomorrow 14:00 until 18:00",
		"팔콘a100 4장 지금부터 3시간 쓸게":                                                   "reserve 4 on falcon for 3h",
		"스패로우 지금 누가 쓰고있어?":                                                        "status sparrow",
		"queue me for 4 GPUs on falcon when they free up, need them for 12 hours": "wait 4 on falcon for 12 hours",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: %v %q, want %q", text, ok, got, want)
		}
	}
	rd, err := Read(env, "how much would it cost to QLoRA qwen2.5 32b on runpod vs on our own servers?")
	if err != nil || rd.Ask != AskWhichServer {
		t.Errorf("our own servers: %v %v", err, rd.Ask)
	}
}

// A setting changed from one value to another ("시퀀스 길이 2048에서
// 4096으로 늘리면", "seq 2048 vs 4096", "배치사이즈 16에서 32로") sets the two
// side by side; a batch is the one each GPU runs at once (probe 38).
func TestSettingFromOneValueToAnother(t *testing.T) {
	env := probe37Env(t, time.Now())
	for text, want := range map[string][2]int{
		"시퀀스 길이 2048에서 4096으로 늘리면 메모리 얼마나 더 필요해? llama 8b lora": {2048, 4096},
		"llama 8b lora seq 2048 vs 4096 memory?":                {2048, 4096},
	} {
		rd, err := Read(env, text)
		if err != nil || rd.Variant == nil || rd.Variant.Kind != "seq" || rd.Request.Job.SeqLen != want[0] || rd.Variant.Request.Job.SeqLen != want[1] {
			t.Errorf("%q: %v %+v", text, err, rd.Variant)
		}
	}
	rd, err := Read(env, "배치사이즈 16에서 32로 올리면 메모리 얼마나 더 먹어? 라마 8b 로라 기준")
	if err != nil || rd.Variant == nil || rd.Variant.Kind != "batch" || rd.Request.Job.MicroBatch != 16 || rd.Variant.Request.Job.MicroBatch != 32 {
		t.Errorf("batch: %v %+v", err, rd.Variant)
	}
}

// Probe 39's bookings: a part of a day said in English is its window
// ("tomorrow afternoon" 13–18, "this evening" to 22:00, from now when it
// has begun), "this week" on a Sunday is the week ahead, "x2" after a
// server is its count, and a wait "now" has no end at now.
func TestProbe39Bookings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Now: time.Date(2026, 11, 29, 21, 47, 0, 0, time.FixedZone("KST", 9*3600)), Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "h100"), Count: 8, Server: "rocket"},
		{GPU: mustGPUFor(t, cat, "a100"), Count: 4, Server: "comet"}, {GPU: mustGPUFor(t, cat, "4090"), Count: 2, Server: "pixel"}}}
	for text, want := range map[string]string{
		"book 2 GPUs on comet tomorrow afternoon": "reserve 2 on comet from tomorrow 13:00 until tomorrow 18:00",
		"reserve 1 on pixel tomorrow morning":     "reserve 1 on pixel from tomorrow 9:00 until tomorrow 12:00",
		"book rocket x2 this evening":             "reserve 2 on rocket from now until today 22:00",
		"이번주 내내 코멧 A100 1장 쓸 수 있을까요?":             "reserve 1 on comet from now until 2026-12-06 midnight",
		"로켓 지금 4장 필요한데 자리 없으면 대기 걸어줘":             "wait 4 on rocket",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: %v %q, want %q", text, ok, got, want)
		}
	}
}

// Probe 40's bookings: 파인 is pine (인 after 파 ends a diphthong), 오크 oak
// (one consonant, two syllables), 낼 is tomorrow, and a status at a clock
// is free at that time.
func TestProbe40Bookings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Now: time.Date(2026, 11, 29, 21, 47, 0, 0, time.FixedZone("KST", 9*3600)), Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "h100"), Count: 8, Server: "maple"},
		{GPU: mustGPUFor(t, cat, "l40s"), Count: 4, Server: "pine"}, {GPU: mustGPUFor(t, cat, "3090"), Count: 2, Server: "oak"}}}
	for text, want := range map[string]string{
		"파인 2장 낼 오전에 잡아줘":      "reserve 2 on pine from tomorrow 9:00 until tomorrow 12:00",
		"내일 오전 파인 예약 취소할게요":    "release pine tomorrow",
		"오크 예약한거 다 반납할게":       "release oak all",
		"내일 오후 3시에 메이플 몇장 비어?": "status maple from tomorrow 15:00",
		"오크 누가 쓰고 있어?":         "status oak",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: %v %q, want %q", text, ok, got, want)
		}
	}
}

// A server booked for a whole span with no count is the whole server, and
// "on friday" after the window is the day, not a server (probe 40).
func TestWholeServerForASpan(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC), Servers: []planner.Hardware{{GPU: mustGPUFor(t, cat, "3090"), Count: 2, Server: "oak"}}}
	for text, want := range map[string]string{
		"reserve oak for the whole day on friday": "reserve 2 on oak from friday 0:00 until friday midnight",
		"오크 하루종일 예약해줘":                            "reserve 2 on oak from now until today midnight",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: %v %q, want %q", text, ok, got, want)
		}
	}
	srv := Servers{Names: []string{"oak"}}
	if a, err := ParseReserve("2 on oak for 3h on fri", srv, time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC), time.UTC); err != nil || a.Server != "oak" {
		t.Errorf("on fri after the window: %v %+v", err, a)
	}
}
