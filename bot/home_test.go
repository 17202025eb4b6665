package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/store"
	"github.com/slack-go/slack"
)

// openHome pushes app_home_opened for user and waits for the n-th
// views.publish; it returns the Home's blocks as JSON and its view id.
func (h *harness) openHome(user string, n int) (string, string) {
	h.t.Helper()
	env := h.fake.AppHomeOpened(user)
	id := h.fake.Push(env)
	h.fake.WaitCalls(h.t, "views.publish", n, 5*time.Second)
	h.fake.WaitAck(h.t, id, 5*time.Second)
	// The bot's own log orders the two (the fake reads acks asynchronously).
	h.waitLog(`"msg":"home published","envelope_id":"` + id)
	logs := h.logs.String()
	if acked := strings.Index(logs, `"msg":"acked","envelope_id":"`+id); acked < 0 || acked > strings.Index(logs, `"msg":"home published","envelope_id":"`+id) {
		h.t.Errorf("the Home was published before app_home_opened was acked")
	}
	return h.homeBlocks(user)
}

// homeBlocks returns the published Home's blocks (JSON) and view id.
func (h *harness) homeBlocks(user string) (string, string) {
	h.t.Helper()
	view, ok := h.fake.HomeView(user)
	if !ok {
		h.t.Fatalf("no Home published for %s", user)
	}
	if view["type"] != "home" {
		h.t.Errorf("published a %v view, want home", view["type"])
	}
	ev := h.fake.AppHomeOpened(user).Event() // carries the view as Slack keeps it, with its id
	v, _ := ev["view"].(map[string]any)
	id, _ := v["id"].(string)
	return blocksJSON(view["blocks"]), id
}

// reserveBySlash makes a reservation for user and waits for its announcement.
func (h *harness) reserveBySlash(text, user string, posts int) {
	h.t.Helper()
	h.fake.Push(h.fake.SlashCommand(text, user, "C0001"))
	h.fake.WaitCalls(h.t, "chat.postMessage", posts, 5*time.Second)
}

func TestHomeShowsMyReservationsWithTheirButtons(t *testing.T) {
	h := start(t)
	h.reserveBySlash(`reserve 2 on server-h for 2h note "<!channel> sweep"`, "U0001", 1)
	blocks, _ := h.openHome("U0001", 1)
	for _, want := range []string{"Your reservations (1)", "server-h", "Extend 1h", "Release", "Plan a job", "Reserve GPUs", "The fleet",
		commands.ActionOpenPlan, commands.ActionOpenReserve, "Europe/Berlin"} {
		if !strings.Contains(blocks, want) {
			t.Errorf("Home lacks %q: %.600s", want, blocks)
		}
	}
	if strings.Contains(blocks, "<!channel>") {
		t.Error("a note pinged the channel from the Home")
	}
	// Someone else's Home does not show it.
	other, _ := h.openHome("U0002", 2)
	if !strings.Contains(other, "You hold no GPUs") || strings.Contains(other, "Extend 1h") {
		t.Errorf("U0002's Home: %.400s", other)
	}
}

func TestReleaseOnTheHomeReleasesAndRepublishes(t *testing.T) {
	h := start(t)
	h.reserveBySlash("reserve 1 on server-a for 3h", "U0001", 1)
	blocks, viewID := h.openHome("U0001", 1)
	actionID, value := buttonValue(t, blocks, "Release")
	h.fake.Push(h.fake.BlockAction("U0001", actionID, value, slackfake.Container{Type: "view", ViewID: viewID}))
	h.fake.WaitCalls(t, "views.publish", 2, 5*time.Second)
	blocks, _ = h.homeBlocks("U0001")
	if !strings.Contains(blocks, "GPUs released") || !strings.Contains(blocks, "You hold no GPUs") {
		t.Errorf("Home after Release: %.600s", blocks)
	}
	// Nothing in a channel was touched: no team channel is configured.
	if n := len(h.fake.Calls("chat.update")); n != 0 {
		t.Errorf("%d chat.update calls", n)
	}
	// A second click on the stale Home says so on the Home.
	h.fake.Push(h.fake.BlockAction("U0001", actionID, value, slackfake.Container{Type: "view", ViewID: viewID}))
	h.fake.WaitCalls(t, "views.publish", 3, 5*time.Second)
	if blocks, _ = h.homeBlocks("U0001"); !strings.Contains(blocks, "You hold no GPUs") {
		t.Errorf("Home after a stale click: %.600s", blocks)
	}
}

func TestHomeWhenTheStoreIsDown(t *testing.T) {
	st, err := store.OpenEmbedded(filepath.Join(t.TempDir(), "down.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Close() // every read now fails
	h := start(t, func(_ *Config, b *Bot) { b.cmds = testCommands{Set: commands.New(commands.Deps{Reservations: st})} })
	blocks, _ := h.openHome("U0001", 1)
	for _, want := range []string{"Something went wrong", "ref", "Plan a job", commands.ActionOpenPlan} {
		if !strings.Contains(blocks, want) {
			t.Errorf("error Home lacks %q: %.500s", want, blocks)
		}
	}
	if strings.Contains(blocks, "database not open") {
		t.Error("the cause reached the user")
	}
	h.waitLog("command failed", "database not open")
}

func TestReserveModalFromTheHome(t *testing.T) {
	h := start(t)
	_, viewID := h.openHome("U0001", 1)
	h.fake.Push(h.fake.BlockAction("U0001", commands.ActionOpenReserve, "", slackfake.Container{Type: "view", ViewID: viewID}))
	open := h.fake.WaitCalls(t, "views.open", 1, 5*time.Second)[0]
	if open.Error != "" {
		t.Fatalf("views.open: %s", open.Error)
	}
	js := blocksJSON(open.JSON)
	for _, want := range []string{reserveModalID, "server-h", "server-v", "static_select", "number_input", `\"tz\":\"Europe/Berlin\"`, `\"h\":true`} {
		if !strings.Contains(js, want) {
			t.Errorf("Reserve modal lacks %s: %.800s", want, js)
		}
	}
	var meta string
	if view, ok := open.JSON["view"].(map[string]any); ok {
		meta, _ = view["private_metadata"].(string)
	} else if raw := open.Param("view"); raw != "" {
		var v map[string]any
		_ = json.Unmarshal([]byte(raw), &v)
		meta, _ = v["private_metadata"].(string)
	}
	submit := func(server, count, dur, start, note string) map[string]any {
		t.Helper()
		in := func(v string) map[string]any {
			return map[string]any{modalInputID: map[string]any{"type": "plain_text_input", "value": v}}
		}
		values := map[string]map[string]any{
			reserveServer:   {modalInputID: map[string]any{"type": "static_select", "selected_option": map[string]any{"value": server, "text": map[string]any{"type": "plain_text", "text": server}}}},
			reserveCount:    {modalInputID: map[string]any{"type": "number_input", "value": count}},
			reserveDuration: in(dur), reserveStart: in(start), reserveNote: in(note),
		}
		return h.ackPayload(h.fake.Push(h.fake.ViewSubmission("U0001", reserveModalID, meta, values)))
	}
	fieldErr := func(p map[string]any, field, want string) {
		t.Helper()
		errs, _ := p["errors"].(map[string]any)
		if p["response_action"] != "errors" || !strings.Contains(errs[field].(string), want) {
			t.Errorf("want an error under %s saying %q, got %v", field, want, p)
		}
	}
	// Caught before the store: instant.
	fieldErr(submit("server-h", "0", "2h", "", ""), reserveCount, "1 or more")
	fieldErr(submit("server-h", "2", "2 parsecs", "", ""), reserveDuration, "not a duration")
	// Caught by the command, shown under the field it concerns.
	fieldErr(submit("server-h", "9", "2h", "", ""), reserveCount, "9")
	fieldErr(submit("server-h", "1", "2h", "2020-01-01 9:00", ""), reserveStart, "past")
	if n := len(h.fake.Calls("chat.postMessage")); n != 0 {
		t.Fatalf("%d posts after refused forms", n)
	}
	// A good form closes the modal and the reservation is announced (no
	// team channel: in the user's DM) and the Home refreshed.
	if p := submit("server-h", "2", "4h", "tomorrow 9:00", `<!channel> "big" run`); p != nil {
		t.Fatalf("a valid form closes with a bare ack, got %v", p)
	}
	post := h.fake.WaitCalls(t, "chat.postMessage", 1, 5*time.Second)[0]
	if post.Param("channel") != slackfake.DMChannel("U0001") || !strings.Contains(post.Param("text"), "reserved 2") ||
		!strings.Contains(post.Param("text"), "tomorrow 09:00") {
		t.Errorf("announcement: %v", post.Form)
	}
	if b := post.Param("blocks"); strings.Contains(b, "<!channel>") || !strings.Contains(b, "big") || !strings.Contains(b, "Release") {
		t.Errorf("announcement blocks: %.500s", b)
	}
	h.fake.WaitCalls(t, "views.publish", 2, 5*time.Second)
	if blocks, _ := h.homeBlocks("U0001"); !strings.Contains(blocks, "Your reservations (1)") || !strings.Contains(blocks, "GPUs reserved") {
		t.Errorf("Home after reserving: %.500s", blocks)
	}
}

func TestPlanQuickActionOpensAnEmptyPlanModal(t *testing.T) {
	h := start(t)
	_, viewID := h.openHome("U0001", 1)
	h.fake.Push(h.fake.BlockAction("U0001", commands.ActionOpenPlan, "", slackfake.Container{Type: "view", ViewID: viewID}))
	open := h.fake.WaitCalls(t, "views.open", 1, 5*time.Second)[0]
	if js := blocksJSON(open.JSON) + open.Param("view"); open.Error != "" || !strings.Contains(js, planModalID) || strings.Contains(js, "initial_value") {
		t.Errorf("plan modal from the Home: %s %.500s", open.Error, js)
	}
}

func TestReserveFormCommand(t *testing.T) {
	for _, tc := range []struct {
		form reserveForm
		want string
		errs []string
	}{
		{reserveForm{Server: "server-h", Count: "2", Duration: "4h"}, "reserve 2 on server-h for 4h", nil},
		{reserveForm{Server: "server-a", Count: "1", Duration: "1d 12h", Start: "tomorrow  9:00", Note: `say "hi"`},
			`reserve 1 on server-a for 1d12h from tomorrow 9:00 note "say 'hi'"`, nil},
		{reserveForm{Count: "x", Duration: "soon", Start: `"now"`, Note: strings.Repeat("n", 301)}, "",
			[]string{reserveServer, reserveCount, reserveDuration, reserveStart, reserveNote}},
	} {
		got, errs := tc.form.command(i18n.For(i18n.EN))
		if got != tc.want || len(errs) != len(tc.errs) {
			t.Errorf("%+v: %q %v", tc.form, got, errs)
		}
		for _, f := range tc.errs {
			if errs[f] == "" {
				t.Errorf("%+v: no error under %s", tc.form, f)
			}
		}
	}
	// A refusal goes under the input its reader named, never by its words.
	for field, want := range map[string]string{
		"count": reserveCount, "ids": reserveCount, "duration": reserveDuration, "end": reserveDuration,
		"start": reserveStart, "note": reserveNote, "server": reserveServer, "": reserveCount,
	} {
		if got := errorField(&commands.UserError{Msg: "the words do not matter", Field: field}); got != want {
			t.Errorf("field %q goes under %s, want %s", field, got, want)
		}
	}
	// The readers name their fields: the store's rules, the time words, the
	// reserve words.
	st, err := store.OpenEmbedded(filepath.Join(t.TempDir(), "fields.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for text, want := range map[string]string{
		"reserve 9 on server-h for 2h":                      "count",
		"reserve 2 on server-h for 80h":                     "duration",
		"reserve 2 on server-h from 2020-01-01 9:00 for 2h": "start",
		"reserve 2 on server-x for 2h":                      "server",
		"reserve 2 on server-h for soon":                    "duration",
	} {
		_, err := commands.New(commands.Deps{Reservations: st}).Dispatch(context.Background(), commands.Request{User: "U1", Text: text})
		ue := commands.Explain(err)
		if ue == nil || ue.Field != want {
			t.Errorf("%q: %v, field %q, want %q", text, err, fieldOf(ue), want)
		}
	}
}

func fieldOf(ue *commands.UserError) string {
	if ue == nil {
		return "<nil>"
	}
	return ue.Field
}

// homeReply is a fixed Home reply for the golden file.
func homeReply() *commands.Reply {
	return &commands.Reply{
		Title: "gpuplan", Summary: "your GPUs and the team's servers",
		Actions: []commands.Action{
			{ID: commands.ActionOpenPlan, Label: "Plan a job", Style: "primary"},
			{ID: commands.ActionOpenReserve, Label: "Reserve GPUs"},
		},
		Sections: []commands.Section{
			{Heading: "Your reservations (2)"},
			{Text: "`server-h-7` · server-h GPUs 0,1 · active, today 09:00 → today 17:00 · <!channel> & sweep", Actions: []commands.Action{
				{ID: commands.ActionRun, Label: "Extend 1h", Command: "extend server-h-7 1h", RequestID: "ext-server-h-7-1795330800"},
				{ID: commands.ActionRun, Label: "Release", Command: "release server-h-7", Style: "danger", RequestID: "rel-server-h-7"},
			}},
			{Text: "`server-a-3` · server-a GPUs 2 · pending, tomorrow 09:00 → tomorrow 13:00", Actions: []commands.Action{
				{ID: commands.ActionRun, Label: "Extend 1h", Command: "extend server-a-3 1h", RequestID: "ext-server-a-3-1795424400"},
				{ID: commands.ActionRun, Label: "Release", Command: "release server-a-3", Style: "danger", RequestID: "rel-server-a-3"},
			}},
			{Heading: "The fleet", Table: &commands.Table{Columns: []string{"server", "GPUs", "free now", "held", "util 24h", "next free"},
				Rows: [][]string{{"server-h", "4× H200", "2", "2", "▁▂▅▇██▇▅", "now"}, {"server-v", "4× V100", "4", "0", "—", "now"}}}},
			{Kind: commands.Context, Text: "Times in Europe/Berlin."},
		},
	}
}

// The Home renders within a view's limits, with each reservation's
// buttons right after it and the quick actions on top, and matches its
// golden file (go test ./bot -run Golden -update rewrites it).
func TestHomeGolden(t *testing.T) {
	view := homeView(homeReply(), []slack.Block{slack.NewContextBlock("", mrkdwn(":white_check_mark: GPUs released: server-v"))})
	checkLimits(t, "home", Message{Text: "home", Blocks: view.Blocks.BlockSet}, maxViewBlocks)
	var ids []string
	for _, b := range view.Blocks.BlockSet {
		if ab, ok := b.(*slack.ActionBlock); ok {
			ids = append(ids, ab.BlockID)
		}
	}
	if strings.Join(ids, " ") != "quick actions.1 actions.2" {
		t.Errorf("actions blocks %v", ids)
	}
	if _, ok := view.Blocks.BlockSet[3].(*slack.ActionBlock); !ok {
		t.Errorf("quick actions are not right under the header, banner and summary")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(view); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "<!channel>") {
		t.Error("unescaped note")
	}
	path := "testdata/home.golden.json"
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./bot -run Golden -update)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("the Home differs from %s; if the change is intended rerun with -update", path)
	}
}

// A message renders a section's buttons right after the section, and a
// cut never keeps them without it.
func TestSectionActionsInMessages(t *testing.T) {
	r := homeReply()
	r.Actions = nil
	m := renderReply(r, maxMessageBlocks)
	checkLimits(t, "sections", m, maxMessageBlocks)
	var kinds []string
	for _, b := range m.Blocks {
		kinds = append(kinds, string(b.BlockType()))
	}
	if got := strings.Join(kinds, " "); got != "header section section section actions section actions section section context" {
		t.Errorf("blocks: %s", got)
	}
	for range 60 {
		r.Sections = append(r.Sections, commands.Section{Text: "x", Actions: []commands.Action{{ID: "x", Label: "x", Value: "x"}}})
	}
	m = renderReply(r, maxMessageBlocks)
	if last, ok := m.Blocks[len(m.Blocks)-1].(*slack.ActionBlock); ok {
		t.Errorf("a section's buttons %q survived the cut without their section", last.BlockID)
	}
}
