package lang

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/hub"
	"github.com/gpuplan/gpuplan/planner"
)

// Probe 41's team: apollo, atlas and nova, spelled in Hangul too.
func probe41Env(t *testing.T, now time.Time) Env {
	return teamEnv(t, now, "apollo=h100:8", "atlas=a100:4", "nova=4090:2")
}

// Probe 41's commands: "줄 서줘" with a space queues (apart, 줄 is a row
// of data), a server "꽉 찼어" and "idle GPUs" ask the status, a status at
// a time needs no server, shortening is its own command, and "<server> …
// 다" releases every booking there.
func TestProbe41Commands(t *testing.T) {
	env := probe41Env(t, time.Date(2026, 11, 29, 15, 0, 0, 0, time.FixedZone("KST", 9*3600)))
	wantCommands(t, env, map[string]string{
		"아폴로 자리 나면 6장 줄 서줘":                    "wait 6 on apollo",
		"아폴로 지금 꽉 찼어?":                         "status apollo",
		"any idle GPUs right now?":             "status ",
		"is apollo full right now":             "status apollo",
		"what's free at 10pm?":                 "status at 10pm",
		"노바 오늘 밤 예약 1시간 줄여줘":                   "shorten nova today by 1h",
		"shorten my apollo booking by 2 hours": "shorten apollo by 2 hours",
		"아틀라스 예약한거 다 취소해줘":                     "release atlas all",
	})
}

// A start that passed while the request was typed books from now to the
// end said, and says so; one long gone is still refused.
func TestLateStartBooksFromNow(t *testing.T) {
	loc := time.FixedZone("KST", 9*3600)
	now := time.Date(2026, 11, 29, 23, 18, 0, 0, loc)
	srv := Servers{Names: []string{"atlas"}}
	a, err := ParseReserve("4 on atlas from today 23:00 until tomorrow 9:00", srv, now, loc)
	if err != nil || !a.Window.Start.IsZero() || a.Window.Late.IsZero() || !a.Window.End.Equal(time.Date(2026, 11, 30, 9, 0, 0, 0, loc)) {
		t.Fatalf("late by 18 minutes: %v %+v", err, a.Window)
	}
	if a, err := ParseReserve("4 on atlas from today 23:00 for 3h", srv, now, loc); err != nil || !a.Window.End.Equal(time.Date(2026, 11, 30, 2, 0, 0, 0, loc)) {
		t.Errorf("late with a duration ends where it was said to: %v %+v", err, a.Window)
	}
	if _, err := ParseReserve("4 on atlas from today 22:00 until tomorrow 9:00", srv, now, loc); err == nil {
		t.Errorf("a start 78 minutes gone should be refused")
	}
	if _, err := ParseReserve("4 on atlas from today 23:00 until today 23:30", srv, now, loc); err == nil {
		t.Errorf("late with only 12 minutes left should be refused")
	}
}

// A Hub id the Hub cannot be asked about is planned as the catalogue's
// model of the same family at the same size, said so ("mistralai/Mistral-
// 7B-v0.3" offline had been refused, probe 41); an id the Hub says does
// not exist, or one of no known family, is still refused.
func TestHubOfflineSameFamilySize(t *testing.T) {
	cat := planner.DefaultCatalog()
	kind := hub.ErrOffline
	resolve := func(ref string) (planner.Model, error) {
		return planner.Model{}, &hub.Error{Kind: kind, ID: ref, Msg: "cannot reach the Hub"}
	}
	env := Env{Catalog: cat, Resolve: resolve}
	r, err := Read(env, "mistralai/Mistral-7B-v0.3 serving on 4x a100")
	if err != nil || r.Request.Job.Model.ID != "mistral-7b-v0.1" || !strings.Contains(strings.Join(r.Request.Job.Notes, " "), "same family at the same size") {
		t.Fatalf("offline: %v %v %v", r.Request.Job.Model.ID, r.Request.Job.Notes, err)
	}
	if r.Request.Job.Repo != "mistralai/Mistral-7B-v0.3" {
		t.Errorf("the launch line should serve the repository asked for, got %q", r.Request.Job.Repo)
	}
	if _, err := Read(env, "someorg/Foo-7B lora on h100"); err == nil {
		t.Errorf("no family known: planned")
	}
	kind = hub.ErrNotFound
	if _, err := Read(env, "mistralai/Mistral-7B-v0.3 serving on 4x a100"); err == nil {
		t.Errorf("an id the Hub does not know was planned")
	}
}

// Runs said ("5번정도 돌리면", "3회 실험", "5 runs of 1 epoch") are no GPU
// count: the work of all of them is planned when the request gives an
// amount, else the figures are one run's, said so; "에폭 5번" stays five
// epochs and "3번 GPU" a GPU (probe 39: "70B 로라 5번정도" read 5 GPUs).
func TestRunsSaid(t *testing.T) {
	env := Env{Catalog: planner.DefaultCatalog(), Now: time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC)}
	for _, tc := range []struct {
		text   string
		epochs float64
		count  int
		note   string
	}{
		{"70B 로라 5번정도 돌리면 H100에서 비용 얼마나 들어?", 0, 1, "5 runs: the figures are one run's"},
		{"llama 3 70b lora 5 runs of 1 epoch on 50k samples, cost on h100?", 5, 1, "5 runs: planned as the work of all 5"},
		{"llama 3 8b lora 2 epochs of 50k samples 3회 실험 a100", 6, 1, "3 runs"},
		{"에폭 5번 돌리면 bert-base 1M samples on a100", 5, 1, ""},
	} {
		r, err := Read(env, tc.text)
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		j := r.Request.Job
		notes := strings.Join(j.Notes, " | ")
		if j.Epochs != tc.epochs || len(r.Request.Targets) != 1 || r.Request.Targets[0].Count != tc.count || tc.note != "" && !strings.Contains(notes, tc.note) || tc.note == "" && strings.Contains(notes, "runs") {
			t.Errorf("%q: epochs %v, targets %+v, notes %q", tc.text, j.Epochs, len(r.Request.Targets), notes)
		}
	}
	if s, n := cutRuns("3번 GPU로 돌려도 돼?"); n != 0 || s != "3번 GPU로 돌려도 돼?" {
		t.Errorf("a GPU's number read as runs: %q %d", s, n)
	}
}

// Probe 42's team names its servers hana, dul and set, which Korean also
// says as the numbers 하나, 둘, 셋: such a word is the server where a
// server stands (a particle of place, before 서버, 예약, 누가 or a count)
// and the number after a GPU or a count ("GPU 하나만"). Native hours said
// apart ("한 시간") are a duration; "방금 잡은 예약" is the one made last;
// "한가해요" asks what is idle; "쓰고 싶은데" books.
func TestProbe42Commands(t *testing.T) {
	env := teamEnv(t, time.Date(2026, 11, 29, 15, 0, 0, 0, time.FixedZone("KST", 9*3600)), "hana=h100:8", "dul=l40s:4", "set=3090:4")
	wantCommands(t, env, map[string]string{
		"셋에 2장 3시간만 잡아줘":                  "reserve 2 on set for 3h",
		"셋 예약 2시간 연장해줘":                   "extend set by 2h",
		"금요일까지 셋 1장 예약":                   "reserve 1 on set until fri",
		"셋에서 GPU 하나만 2시간 쓸게요":             "reserve 1 on set for 2h",
		"둘 서버 지금 누가 쓰고 있어?":               "status dul",
		"방금 잡은 예약 한 시간 줄여줘":               "shorten last by 1h",
		"예약 한 시간 연장해줘":                    "extend by 1h",
		"GPU 좀 쓰고 싶은데 어디가 제일 한가해요?":       "status ",
		"이번 주말 내내 하나 8장 전부 쓰고 싶은데 가능한가요?": "reserve 8 on hana from now until sun midnight",
	})
	if got := hangulServers("3090 둘로 llama 8b lora, 세 번째 셋이서", env.Servers); got != "3090 둘로 llama 8b lora, 세 번째 셋이서" {
		t.Errorf("numbers read as servers: %q", got)
	}
}

// A server named like an English verb is no server in its phrasal verb
// ("set aside"), and output lengths said as kinds of output ("~500 token
// outputs") are the generation length, not an amount of work (probe 42
// compared hana with set and planned 500 tokens of work).
func TestSetAsideAndTokenOutputs(t *testing.T) {
	env := teamEnv(t, time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC), "hana=h100:8", "set=3090:4")
	r, err := Read(env, "we're planning to serve a 34B model, maybe 20 requests/s at peak with ~500 token outputs. Would hana handle it, and how many GPUs should we set aside?")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Request.Targets) != 1 || r.Request.Targets[0].Server != "hana" || r.Request.Job.GenTokens != 500 {
		t.Errorf("targets %+v, gen %d", r.Request.Targets, r.Request.Job.GenTokens)
	}
	if got := outputLengths("responses of about 300 tokens"); got != "osl 300" {
		t.Errorf("responses of about 300 tokens: %q", got)
	}
	if got := hangulServers("book 2 on set for 3h", env.Servers); got != "book 2 on set for 3h" {
		t.Errorf("the server itself: %q", got)
	}
}

// "need gpus asap" and "any gpus free for a quick test?" ask the status,
// with no window read out of their "for"; a booking "asap" or "please"
// starts now (probe 42: "unknown command need").
func TestAsapAndFreeFor(t *testing.T) {
	env := probe41Env(t, time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC))
	wantCommands(t, env, map[string]string{
		"need gpus asap for a deadline, what do I do": "status ",
		"any gpus free for a quick test?":             "status ",
	})
	srv := Servers{Names: []string{"apollo"}}
	if a, err := ParseReserve("2 on apollo asap for 3h please", srv, time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC), time.UTC); err != nil || a.Count != 2 {
		t.Errorf("asap, please: %v %+v", err, a)
	}
}

// Probe 43's lab: gpu1, gpu2 and titan, said "1번 서버", "2번 서버"; a
// GPU read half in English ("에이식스천", A6000) finds its server; a
// month/day with a slash is a date; "ㄱㄱ" books; "오늘 밤" is tonight's
// window; "몇 장 남아" asks the status; CLIP ViT-B/16 is one model.
func TestProbe43Commands(t *testing.T) {
	env := teamEnv(t, time.Date(2026, 11, 29, 20, 0, 0, 0, time.FixedZone("KST", 9*3600)), "gpu1=a100:8", "gpu2=a6000:4", "titan=4090:2")
	wantCommands(t, env, map[string]string{
		"2번 서버 예약 2시간 연장해줘":             "extend gpu2 by 2h",
		"1번 서버 4장 자리 나면 대기 걸어줘":         "wait 4 on gpu1",
		"에이식스천 4장 이번 주 금요일까지 예약 가능할까요?": "reserve 4 on gpu2 until fri",
		"12/10 하루종일 gpu2 전부 예약":         "reserve 4 on gpu2 from 2026-12-10 0:00 until 2026-12-10 midnight",
		"gpu1 4장 오늘 밤 ㄱㄱ":               "reserve 4 on gpu1 from now until today midnight",
		"내일 gpu2 몇 장 남아?":               "status gpu2 from tomorrow 9:00 until tomorrow 18:00",
	})
	r, err := Read(env, "Llama-3.1-8B QLoRA 3에폭 2번 서버에서 얼마나 걸릴까요?")
	if err != nil || len(r.Request.Targets) != 1 || r.Request.Targets[0].Server != "gpu2" {
		t.Errorf("2번 서버 in a plan: %v %+v", err, r.Request.Targets)
	}
	if r, err := Read(env, "CLIP ViT-B/16 on 400M image-text pairs for 32 epochs on 8x a100"); err != nil || r.Request.Job.Model.ID != "clip-vit-base-patch16" {
		t.Errorf("CLIP ViT-B/16: %v %v", err, r.Request.Job.Model.ID)
	}
	if got := numberedServers("2 servers, server 9", env.Servers); got != "2 servers, server 9" {
		t.Errorf("no such server: %q", got)
	}
}

// "2에폭 3회 실험" is three runs of two epochs, not three epochs with a
// 2 left over, and a release that names a server the team does not have
// is refused by that name, never read as every booking ("오크 예약한거
// 다 반납" with no oak had released the asker's other bookings).
func TestRunsOfEpochsAndAnUnknownServerReleased(t *testing.T) {
	env := probe41Env(t, time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC))
	r, err := Read(env, "llama 3 8b lora 5만개 2에폭 3회 실험 atlas에서 얼마나 걸려?")
	if err != nil || r.Request.Job.Epochs != 6 {
		t.Errorf("3 runs of 2 epochs: %v %v", err, r.Request.Job.Epochs)
	}
	wantCommands(t, env, map[string]string{
		"오크 예약한거 다 반납할게": "release 오크 all",
		"내 예약 다 반납할게":    "release all",
		"오늘 예약 다 취소해줘":   "release all today",
	})
	if _, err := ParseRelease("오크 all", Servers{Names: []string{"apollo"}}); !UnknownServer(err) {
		t.Errorf("an unknown server released: %v", err)
	}
}

// "book 3 hours on titan starting now": the hours are the window, not
// three GPUs (probe 43: "I don't understand hours").
func TestHoursAreNoCount(t *testing.T) {
	env := probe41Env(t, time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC))
	if cr, ok := ReadCommand(env, "book 3 hours on nova starting now"); !ok || cr.Args != "on nova for 3 hours starting now" {
		t.Errorf("book 3 hours: %v %q", ok, cr.Args)
	}
	srv := Servers{Names: []string{"nova"}}
	if _, err := ParseReserve("on nova for 3 hours starting now", srv, time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC), time.UTC); !isField(err, FieldCount) {
		t.Errorf("want the count asked: %v", err)
	}
}

func isField(err error, field string) bool {
	var ue *UserError
	return errors.As(err, &ue) && ue.Field == field
}

// Probe 44 (blue, green, red; said after midnight on a Monday):
// "다음주 월요일" is a week ahead, "밤새" after midnight ends this morning,
// "5시간짜리" names the booking of that length, "내꺼 예약" lists mine,
// "how busy" and "any gpu?" ask the status, and a corpus in gigabytes is
// tokens of it, not a GPU's memory.
func TestProbe44Commands(t *testing.T) {
	env := teamEnv(t, time.Date(2026, 11, 30, 0, 10, 0, 0, time.FixedZone("KST", 9*3600)), "blue=h100:8", "green=a100:8", "red=l40s:4")
	wantCommands(t, env, map[string]string{
		"다음주 월요일 오전에 블루 8장 예약해주세요":   "reserve 8 on blue from 2026-12-07 9:00 until 2026-12-07 12:00",
		"밤새 그린 2장 돌릴 건데 잡아줘 ㅇㅇ":      "reserve 2 on green until today 9:00",
		"그 그린 5시간짜리 예약 취소할게요":        "release green lasting 5h",
		"내꺼 예약 뭐 있지?":                "mine ",
		"how busy are things today?": "status today",
		"any gpu?":                   "status ",
	})
	if got := nextWeekDay(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC), time.Monday); got != "2026-11-30" {
		t.Errorf("다음주 월요일 said on a Sunday: %s", got)
	}
	r, err := Read(env, "미스트랄 7B 컨티뉴드 프리트레이닝 텍스트 20GB 정도인데 그린으로 하면 얼마나 걸려?")
	if err != nil || r.Request.Job.Tokens != 5e9 || r.Request.Targets[0].Server != "green" {
		t.Errorf("20 GB of text: %v tokens %v targets %+v", err, r.Request.Job.Tokens, r.Request.Targets)
	}
}

// "full fine-tune of a 70B … on 1B tokens": "of a 70B" names the model,
// so the tokens after "on" are the data (probe 44 asked for a dataset).
func TestOfAModelSize(t *testing.T) {
	r, err := Read(Env{Catalog: planner.DefaultCatalog()}, "multi-node: 2 nodes of 8x H100, full fine-tune of a 70B with ZeRO-3 on 1B tokens, how long?")
	if j := r.Request.Job; err != nil || j.Tokens+j.DatasetTokens != 1e9 || j.Model.Params() < 60e9 {
		t.Errorf("%v tokens %v %v", err, r.Request.Job.Tokens, r.Request.Job.DatasetTokens)
	}
}

// A measured LoRA run with no model named stands in an 8B LLM, not BERT:
// adapters are trained on LLMs (probe 44 showed BERT's memory).
func TestLoRAStandIn(t *testing.T) {
	r, err := Read(Env{Catalog: planner.DefaultCatalog()}, "4090 한장에서 LoRA 6시간 걸렸는데 H100이면 얼마나 걸림?")
	if err != nil || r.Request.Job.Model.ID != standInAdapters || !r.StandIn {
		t.Errorf("%v %s", err, r.Request.Job.Model.ID)
	}
	if r, err := Read(Env{Catalog: planner.DefaultCatalog()}, "LogBERT took 5.67 h/epoch on 4x V100, how long on 8x h100?"); err == nil && r.Request.Job.Model.ID == standInAdapters {
		t.Errorf("a run with no adapters stood in an LLM")
	}
}

// Probe 45 (sol, luna, star; just after midnight): 솔 is sol before a time
// or 자리; "오늘 밤새" after midnight ends this morning; a trailing purpose
// ("for a training run") leaves no "for"; "anything I can grab right
// now?" asks the status; "13b inference" is the model's size; 사구공 is
// the 4090; "만원 단위로" asks won, not a ₩10,000 budget.
func TestProbe45Readings(t *testing.T) {
	env := teamEnv(t, time.Date(2026, 11, 30, 0, 19, 0, 0, time.FixedZone("KST", 9*3600)), "sol=h200:8", "luna=a100:4", "star=3090:2")
	wantCommands(t, env, map[string]string{
		"/gpuplan 솔 지금부터 3시간 2장 잡아줘":                                            "reserve 2 on sol for 3h",
		"솔 자리 나면 4장 줄 서줘":                                                       "wait 4 on sol",
		"오늘 밤새 루나 2장 쓸게":                                                        "reserve 2 on luna from today until today 9:00",
		"need 4 gpus overnight on sol for a training run, can you set that up?": "reserve 4 on sol until today 9:00",
		"hey, anything I can grab right now?":                                   "status ",
	})
	if r, err := Read(env, "max batch size for 13b inference on a100 80gb with 8k context?"); err != nil || r.Request.Job.Model.Params() < 12e9 {
		t.Errorf("13b inference: %v", err)
	}
	if r, err := Read(env, "70B 4비트 양자화하면 사구공 두 장으로 돌아가?"); err != nil || len(r.Request.Targets) != 1 || r.Request.Targets[0].GPU.ID != "rtx-4090" {
		t.Errorf("사구공: %v %+v", err, r.Request.Targets)
	}
	if r, err := Read(env, "7B LoRA 파인튜닝 비용 h100으로 5만개 만원 단위로 알려주세요"); err != nil || r.Budget != 0 || !r.InWon {
		t.Errorf("만원 단위: %v budget %v won %v", err, r.Budget, r.InWon)
	}
}

// Probe 46: "에이치백이랑" is the H100 with its particle (백이 had read as
// 102), and "내일 베타 쓰는 사람 있어요?" asks who holds beta tomorrow.
func TestProbe46Readings(t *testing.T) {
	cat := planner.DefaultCatalog()
	r, err := Read(Env{Catalog: cat}, "에이치백이랑 에이백 80기가 중에 7B 인퍼런스 하면 뭐가 더 나아요?")
	if err != nil || len(r.Request.Targets) != 2 || r.Request.Targets[0].GPU.ID != "h100-sxm5-80gb" {
		t.Errorf("에이치백이랑: %v %+v", err, r.Request.Targets)
	}
	env := teamEnv(t, time.Date(2026, 11, 30, 0, 37, 0, 0, time.FixedZone("KST", 9*3600)), "beta=a100:8")
	if cr, ok := ReadCommand(env, "내일 베타 쓰는 사람 있어요?"); !ok || cr.Name != "status" || !strings.HasPrefix(cr.Args, "beta from tomorrow") {
		t.Errorf("who holds beta tomorrow: %v %+v", ok, cr)
	}
}

// Probe 47: 코알라 is koala (a vowel pair said as two syllables, as
// loanwords write "oa"), and "줄 세워줘" queues.
func TestProbe47Readings(t *testing.T) {
	env := teamEnv(t, time.Date(2026, 11, 30, 1, 9, 0, 0, time.FixedZone("KST", 9*3600)), "tiger=h100:8", "panda=a100:4", "koala=l40s:4")
	wantCommands(t, env, map[string]string{
		"내일 오전에 코알라 4장 전부 쓸게요": "reserve 4 on koala from tomorrow 9:00 until tomorrow 12:00",
		"코알라 오늘 밤 예약 30분 줄여줘":  "shorten koala today by 30m",
		"타이거 8장 다 빌 때 나 줄 세워줘": "wait 8 on tiger",
	})
	r, err := Read(env, "BAAI/bge-m3로 문서 1000만 개 임베딩하면 코알라에서 얼마나 걸림?")
	if err != nil || len(r.Request.Targets) != 1 || r.Request.Targets[0].Server != "koala" {
		t.Errorf("코알라 in a plan: %v %+v", err, r.Request.Targets)
	}
}

// wantCommands checks that each sentence reads as the command given.
func wantCommands(t *testing.T, env Env, want map[string]string) {
	t.Helper()
	for text, w := range want {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != w {
			t.Errorf("%q: %v %q, want %q", text, ok, got, w)
		}
	}
}

// teamEnv is a team's servers as "name=gpu:count" at now.
func teamEnv(t *testing.T, now time.Time, servers ...string) Env {
	t.Helper()
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Now: now}
	for _, sv := range servers {
		name, spec, _ := strings.Cut(sv, "=")
		gpu, count, _ := strings.Cut(spec, ":")
		n, err := strconv.Atoi(count)
		if err != nil {
			t.Fatal(err)
		}
		env.Servers = append(env.Servers, planner.Hardware{GPU: mustGPUFor(t, cat, gpu), Count: n, Server: name})
	}
	return env
}
