package bot

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/store"
	"github.com/gpuplan/gpuplan/store/storetest"
)

// wantAll fails for every want missing from got and every unwanted text
// found in it.
func wantAll(t *testing.T, what, got string, want, unwanted []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q: %.900s", what, w, got)
		}
	}
	for _, w := range unwanted {
		if strings.Contains(got, w) {
			t.Errorf("%s still says %q in English: %.900s", what, w, got)
		}
	}
}

// A user whose Slack is set to Korean gets a Korean App Home, and the
// forms its quick actions open are Korean too; an English user's Home in
// the same workspace stays English.
func TestKoreanLocaleGetsAKoreanHomeAndForms(t *testing.T) {
	h := start(t)
	h.fake.SetLocale("U0001", "ko-KR")
	h.reserveBySlash("reserve 2 on server-h for 2h", "U0001", 1)
	blocks, viewID := h.openHome("U0001", 1)
	wantAll(t, "Korean Home", blocks,
		[]string{"내 예약 (1건)", "1시간 연장", "반납", "작업 계획하기", "GPU 예약", "서버 현황", "빈 GPU", "다음 빈 시각",
			"사용 중", "오늘 ", "시간은 Europe/Berlin 기준", "server-h", commands.ActionOpenPlan},
		[]string{"Your reservations", "Extend 1h", "The fleet", "Plan a job", "free now", "Times in", "today", "active"})

	english, _ := h.openHome("U0002", 2)
	wantAll(t, "English Home", english, []string{"You hold no GPUs", "Plan a job", "The fleet"}, []string{"예약", "서버 현황"})

	// The Reserve form from the Korean Home: Korean labels and buttons,
	// the language kept for its answer; a mistake is explained in Korean
	// under its field.
	h.fake.Push(h.fake.BlockAction("U0001", commands.ActionOpenReserve, "", slackfake.Container{Type: "view", ViewID: viewID}))
	open := h.fake.WaitCalls(t, "views.open", 1, 5*time.Second)[0]
	js := blocksJSON(open.JSON) + open.Param("view")
	wantAll(t, "Korean Reserve form", js, []string{"GPU 예약", "서버", "사용 시간", "메모", "취소", `\"l\":\"ko\"`},
		[]string{"For how long", "Cancel", "Choose a server"})
	meta := privateMetadata(open)
	in := func(v string) map[string]any {
		return map[string]any{modalInputID: map[string]any{"type": "plain_text_input", "value": v}}
	}
	p := h.ackPayload(h.fake.Push(h.fake.ViewSubmission("U0001", reserveModalID, meta, map[string]map[string]any{
		reserveServer:   {modalInputID: map[string]any{"type": "static_select", "selected_option": map[string]any{"value": "server-a", "text": map[string]any{"type": "plain_text", "text": "server-a"}}}},
		reserveCount:    {modalInputID: map[string]any{"type": "number_input", "value": "0"}},
		reserveDuration: in("2h"), reserveStart: in(""), reserveNote: in(""),
	})))
	if errs, _ := p["errors"].(map[string]any); errs == nil || !strings.Contains(errs[reserveCount].(string), "1 이상의 정수") {
		t.Errorf("Korean field error: %v", p)
	}

	// The Plan form from the Korean Home.
	h.fake.Push(h.fake.BlockAction("U0001", commands.ActionOpenPlan, "", slackfake.Container{Type: "view", ViewID: viewID}))
	open = h.fake.WaitCalls(t, "views.open", 2, 5*time.Second)[1]
	wantAll(t, "Korean plan form", blocksJSON(open.JSON)+open.Param("view"),
		[]string{"GPU 작업 계획", "모델", "작업량", "정밀도", "하드웨어", "계산하기", "취소"},
		[]string{"Plan a GPU job", "Amount of work", "Precision"})
}

// privateMetadata is the private_metadata of the view a views.open call
// opened.
func privateMetadata(open slackfake.Call) string {
	if view, ok := open.JSON["view"].(map[string]any); ok {
		meta, _ := view["private_metadata"].(string)
		return meta
	}
	var meta string
	if raw := open.Param("view"); raw != "" {
		var v map[string]any
		if err := json.Unmarshal([]byte(raw), &v); err == nil {
			meta, _ = v["private_metadata"].(string)
		}
	}
	return meta
}

// The sweep writes each DM in its reader's Slack language: a reminder and
// an idle nudge reach a Korean user in Korean, the English user's
// reminder stays English.
func TestKoreanLocaleGetsKoreanRemindersAndNudges(t *testing.T) {
	seoul, _ := time.LoadLocation("Asia/Seoul")
	clock := storetest.NewClock(time.Date(2026, 11, 21, 10, 0, 0, 0, seoul)) // the reminder's "오늘" holds in any zone
	st, err := store.OpenEmbedded(filepath.Join(t.TempDir(), "r.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	set := commands.New(commands.Deps{Reservations: st, Watch: st}) // default servers: reminders 15 min before, nudges after 1 h idle
	h := start(t, func(_ *Config, b *Bot) { b.cmds = testCommands{Set: set} })
	h.fake.SetLocale("U0001", "ko-KR")
	ctx := context.Background()
	for user, text := range map[string]string{"U0001": "reserve 2 on server-h for 2h", "U0002": "reserve 1 on server-a for 2h"} {
		if _, err := set.Dispatch(ctx, commands.Request{User: user, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	// server-h's agent reports every GPU idle for the whole reservation;
	// 1h50m in, both reservations end within 15 minutes.
	for i := range 23 {
		if i > 0 {
			clock.Advance(5 * time.Minute)
		}
		b := store.SampleBatch{Server: "server-h", At: clock.Now(), Every: 5 * time.Minute}
		for g := range 4 {
			b.GPUs = append(b.GPUs, store.GPUSample{Index: g, Util: 0, MemTotalMB: 141000})
		}
		if err := st.RecordSamples(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); h.bot.RunSweeps(sctx, set, 20*time.Millisecond) }()
	h.fake.WaitCalls(t, "chat.postMessage", 3, 5*time.Second)
	stop()
	<-done
	var ko, en []string
	for _, c := range h.fake.Calls("chat.postMessage") {
		switch c.Param("channel") {
		case slackfake.DMChannel("U0001"):
			ko = append(ko, c.Param("text")+"\n"+c.Param("blocks"))
		case slackfake.DMChannel("U0002"):
			en = append(en, c.Param("text")+"\n"+c.Param("blocks"))
		}
	}
	if len(ko) != 2 || len(en) != 1 {
		t.Fatalf("want a reminder and a nudge to U0001 and a reminder to U0002, got %d and %d DMs", len(ko), len(en))
	}
	all := strings.Join(ko, "\n")
	wantAll(t, "Korean DMs", all,
		[]string{"server-h GPU 예약이 10분 후 끝납니다", "오늘 ", "1시간 연장", "지금 반납", // the reminder
			"놀고 있는 것 같습니다", "1시간 50분 동안", "반납할까요?", "계속 쓰기", "사용률 5% 미만"}, // the nudge
		[]string{"Your GPUs", "Extend 1h", "Release now", "look idle", "Keep", "today", "10m"})
	wantAll(t, "English reminder", en[0], []string{"Your GPUs on server-a end in 10m", "today ", "Extend 1h", "Release now"}, []string{"예약", "오늘"})
}

// The "working on it" ack is written before users.info may be asked: in
// the user's cached Slack language, else the request's language.
func TestWorkingOnItInTheAskersLanguage(t *testing.T) {
	h := start(t, func(c *Config, b *Bot) { b.cfg.AckBudget = 100 * time.Millisecond })
	for _, tc := range []struct{ user, text, want, not string }{
		{"U0001", "slow bert-base 10에폭 on h100x2", "처리 중…", "Working on it"},
		{"U0002", "slow bert-base 10 epochs on h100x2", "Working on it…", "처리 중"},
	} {
		p := h.ackPayload(h.fake.Push(h.fake.SlashCommand(tc.text, tc.user, "C0001")))
		if got := blocksJSON(p); !strings.Contains(got, tc.want) || strings.Contains(got, tc.not) {
			t.Errorf("%q: ack %s, want %q", tc.text, got, tc.want)
		}
	}
}

// A user whose Slack is set to Korean is answered in Korean however they
// write — a DM, a mention announced in the channel, a button on it — and
// an English user in the same channel in English.
func TestKoreanLocaleGetsKoreanAnswers(t *testing.T) {
	h := start(t)
	h.fake.SetLocale("U0001", "ko-KR")
	h.fake.Push(h.fake.DirectMessage("reserve 1 on server-a for 1h", "U0001"))
	dm := h.fake.WaitCalls(t, "chat.postMessage", 1, 5*time.Second)[0]
	wantAll(t, "Korean DM answer", dm.Param("text")+dm.Param("blocks"), []string{"GPU 예약됨: server-a", "반납"}, []string{"GPUs reserved", "Release"})

	h.fake.Push(h.fake.AppMention("<@"+slackfake.BotUserID+"> reserve 1 on server-h for 2h", "U0001", "C0001", ""))
	post := h.fake.WaitCalls(t, "chat.postMessage", 2, 5*time.Second)[1]
	wantAll(t, "Korean announcement", post.Param("text")+post.Param("blocks"), []string{"GPU 예약됨: server-h", "1시간 연장"}, []string{"Extend 1h"})
	// Its Release button, clicked by its owner, answers in Korean too.
	id, value := buttonValue(t, post.Param("blocks"), "반납")
	h.fake.Push(h.fake.BlockAction("U0001", id, value, slackfake.Container{Type: "message", ChannelID: "C0001", MessageTS: h.fake.Messages("C0001")[0].TS}))
	upd := h.fake.WaitCalls(t, "chat.update", 1, 5*time.Second)[0]
	wantAll(t, "Korean update", upd.Param("text")+upd.Param("blocks"), []string{"반납"}, []string{"released"})

	h.fake.Push(h.fake.DirectMessage("reserve 1 on server-v for 1h", "U0002"))
	en := h.fake.WaitCalls(t, "chat.postMessage", 3, 5*time.Second)[2]
	wantAll(t, "English DM answer", en.Param("text")+en.Param("blocks"), []string{"GPUs reserved: server-v", "Release"}, []string{"예약"})
}
