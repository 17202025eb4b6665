package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/gpuplan/gpuplan/bot/slackfake"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/planner"
	"github.com/gpuplan/gpuplan/store"
	"github.com/gpuplan/gpuplan/store/storetest"
)

// goldenBlocks renders r as Block Kit within the message limits and
// compares it with testdata/<name>.golden.json (-update rewrites it);
// mask replaces what differs from run to run (reservation ids).
func goldenBlocks(t *testing.T, name string, r *commands.Reply, mask func(string) string) {
	t.Helper()
	m := renderReply(r, maxMessageBlocks)
	checkLimits(t, name, m, maxMessageBlocks)
	raw, err := json.MarshalIndent(map[string]any{"text": m.Text, "blocks": m.Blocks}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got := []byte(mask(string(raw)) + "\n")
	path := "testdata/" + name + ".golden.json"
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./bot -run Golden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s; if the change is intended rerun with -update", name, path)
	}
}

// The Korean plan card, reservation and conflict as Block Kit: headings,
// fields, buttons and the plain-text fallback in Korean; model, GPU and
// server names, ids and commands as they are.
func TestKoreanCardsGolden(t *testing.T) {
	ctx := context.Background()
	plan, err := commands.New(commands.Deps{}).Dispatch(ctx, commands.Request{User: "U0001", Text: "bert-base 10 에폭 250만 샘플 h100 2장", Lang: i18n.KO})
	if err != nil {
		t.Fatal(err)
	}
	goldenBlocks(t, "plan.ko", plan, func(s string) string { return s })

	seoul, _ := time.LoadLocation("Asia/Seoul")
	clock := storetest.NewClock(time.Date(2026, 11, 21, 10, 0, 0, 0, seoul))
	st, err := store.OpenEmbedded(filepath.Join(t.TempDir(), "r.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cat := planner.DefaultCatalog()
	inv, err := inventory.Parse(cat, []byte("timezone: Asia/Seoul\nservers:\n  - name: server-a\n    gpu: a100\n    gpus: 4\n"), "servers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	set := commands.New(commands.Deps{Catalog: cat, Inventory: inv, Reservations: st})
	r, err := set.Dispatch(ctx, commands.Request{User: "U0001", Channel: "C0001", Text: "server-a 2장 내일 오전 9시부터 3시간 예약", ID: "golden-1", Lang: i18n.KO})
	if err != nil {
		t.Fatal(err)
	}
	id := r.Data.(store.Reservation).ID
	random := regexp.MustCompile(`(book-server-a-[0-9a-z]+-)[0-9a-f]{8}`)
	mask := func(s string) string {
		return random.ReplaceAllString(strings.ReplaceAll(s, id, "server-a-ID"), "${1}RANDOM")
	}
	goldenBlocks(t, "reserve.ko", r, mask)

	c, err := set.Dispatch(ctx, commands.Request{User: "U0002", Channel: "C0001", Text: "reserve gpus 0-3 on server-a from tomorrow 10:00 for 2h", Lang: i18n.KO})
	if err != nil || c.Refused != "conflict" {
		t.Fatalf("not a conflict: %v %+v", err, c)
	}
	goldenBlocks(t, "conflict.ko", c, mask)

	for name, reply := range map[string]*commands.Reply{"plan": plan, "reservation": r, "conflict": c} {
		m := renderReply(reply, maxMessageBlocks)
		js := blocksJSON(m.Blocks)
		if !regexp.MustCompile(`[가-힣]`).MatchString(m.Text) {
			t.Errorf("%s: the fallback text is not Korean: %q", name, m.Text)
		}
		for _, en := range []string{"Total time", "Recommendations", "Read as", "Extend 1h", "Release", "Not free", "Book that slot", "Times in", "Share", "Adjust"} {
			if strings.Contains(js, en) {
				t.Errorf("%s: the Korean card says %q", name, en)
			}
		}
	}
}

// A user whose Slack is set to Korean asks for a plan in English words
// with /gpuplan, as their first command: gpuplan asks users.info for their
// locale within the ack budget, so even that first card, its buttons and
// its fallback text are Korean. An English user asking the same gets the
// English card.
func TestKoreanLocaleGetsAKoreanPlanCard(t *testing.T) {
	h := start(t)
	h.fake.SetLocale("U0001", "ko-KR")
	const plan = "bert-base 10 epochs of 2.5M samples on h100x2"
	p := h.ackPayload(h.fake.Push(h.fake.SlashCommand(plan, "U0001", "C0001")))
	js := blocksJSON(p["blocks"])
	wantAll(t, "Korean plan card", js,
		[]string{"bert-base-uncased", "H100", "✅ 메모리 OK", "총 소요 시간", "에폭당", "처리량", "이렇게 읽었어요", "공유", "수정", actionShare, actionAdjust},
		[]string{"Total time", "Per epoch", "Throughput", "Read as", `"Share"`, `"Adjust"`})
	if txt, _ := p["text"].(string); !strings.Contains(txt, "메모리 OK") {
		t.Errorf("fallback text %q", txt)
	}
	p = h.ackPayload(h.fake.Push(h.fake.SlashCommand(plan, "U0002", "C0001")))
	wantAll(t, "English plan card", blocksJSON(p["blocks"]), []string{"Total time", "Share", "Read as"}, []string{"총 소요 시간", "공유"})
}

// users.info refused (a workspace that did not grant users:read): the
// first command is answered in its own language, and the failure is
// remembered, so later commands neither ask again nor wait for it.
func TestFailedUserLookupIsRememberedNotWaitedOn(t *testing.T) {
	h := start(t)
	h.fake.Inject("users.info", slackfake.Fault{SlackError: "missing_scope", Times: 100})
	p := h.ackPayload(h.fake.Push(h.fake.SlashCommand("bert-base 10 에폭 250만 샘플 h100 2장", "U0001", "C0001")))
	if js := blocksJSON(p["blocks"]); !strings.Contains(js, "총 소요 시간") {
		t.Errorf("Korean request, users.info refused: %.300s", js)
	}
	h.fake.WaitCalls(t, "users.info", 1, 5*time.Second)
	for range 3 {
		h.ackPayload(h.fake.Push(h.fake.SlashCommand("bert-base 10 epochs of 2.5M samples on h100x2", "U0001", "C0001")))
	}
	if n := len(h.fake.Calls("users.info")); n != 1 {
		t.Errorf("users.info asked %d times after it failed, want 1 (remembered)", n)
	}
}

// Commands that arrive while a user's users.info is out wait for that
// look-up instead of asking again: a burst from one new user asks once.
func TestOneUserLookupForABurst(t *testing.T) {
	h := start(t)
	h.fake.SetLocale("U0001", "ko-KR")
	h.fake.Inject("users.info", slackfake.Fault{Delay: 200 * time.Millisecond})
	var ids []string
	for range 5 {
		ids = append(ids, h.fake.Push(h.fake.SlashCommand("bert-base 10 epochs of 2.5M samples on h100x2", "U0001", "C0001")))
	}
	for _, id := range ids {
		if js := blocksJSON(h.ackPayload(id)["blocks"]); !strings.Contains(js, "총 소요 시간") {
			t.Errorf("a ko-KR user's command in the burst: %.200s", js)
		}
	}
	if n := len(h.fake.Calls("users.info")); n != 1 {
		t.Errorf("users.info asked %d times for one user's burst, want 1", n)
	}
}
