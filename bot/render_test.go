package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/slack-go/slack"
)

var update = flag.Bool("update", false, "rewrite golden Block Kit files")

// replyFor runs a command through the real command table.
func replyFor(t *testing.T, text string) *commands.Reply {
	t.Helper()
	r, err := commands.New(commands.Deps{}).Dispatch(context.Background(), commands.Request{User: "U1", Text: text})
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return r
}

// checkLimits fails the test on any Block Kit limit a message breaks.
func checkLimits(t *testing.T, name string, m Message, maxBlocks int) {
	t.Helper()
	if m.Text == "" {
		t.Errorf("%s: no fallback text", name)
	}
	if len(m.Blocks) > maxBlocks {
		t.Errorf("%s: %d blocks > %d", name, len(m.Blocks), maxBlocks)
	}
	text := func(o *slack.TextBlockObject, n int, what string) {
		if o == nil {
			return
		}
		if c := utf8.RuneCountInString(o.Text); c > n {
			t.Errorf("%s: %s is %d chars > %d", name, what, c, n)
		}
		if o.Type != slack.PlainTextType && o.Type != slack.MarkdownType {
			t.Errorf("%s: %s has type %q", name, what, o.Type)
		}
	}
	for _, b := range m.Blocks {
		switch b := b.(type) {
		case *slack.HeaderBlock:
			text(b.Text, maxHeaderText, "header")
		case *slack.SectionBlock:
			text(b.Text, maxSectionText, "section text")
			if len(b.Fields) > maxFields {
				t.Errorf("%s: %d fields", name, len(b.Fields))
			}
			for _, f := range b.Fields {
				text(f, maxFieldText, "field")
			}
			if b.Text == nil && len(b.Fields) == 0 {
				t.Errorf("%s: empty section", name)
			}
		case *slack.ContextBlock:
			if len(b.ContextElements.Elements) > maxContextElems || len(b.ContextElements.Elements) == 0 {
				t.Errorf("%s: context with %d elements", name, len(b.ContextElements.Elements))
			}
			for _, e := range b.ContextElements.Elements {
				if o, ok := e.(*slack.TextBlockObject); ok {
					text(o, maxSectionText, "context text")
				}
			}
		case *slack.ActionBlock:
			if len(b.Elements.ElementSet) > 25 {
				t.Errorf("%s: %d actions", name, len(b.Elements.ElementSet))
			}
			for _, e := range b.Elements.ElementSet {
				btn := e.(*slack.ButtonBlockElement)
				text(btn.Text, maxButtonText, "button text")
				if len(btn.Value) > maxButtonValue || len(btn.ActionID) > 255 {
					t.Errorf("%s: button value/action id too long", name)
				}
			}
		}
	}
}

var goldenReplies = []struct{ name, text string }{
	{"help", "help"},
	{"help-plan", "help plan"},
	{"plan", "bert-base 10 epochs of 2.5M samples on h100x2"},
	{"compare-logbert", "bert-base vocab 10k seq 512 batch 128 = 4x32 19252 steps/epoch 10 epochs baseline 5.67 h/epoch on 4x v100-32gb fp32 compare on h200x4, a100x4, v100x4"},
	{"inference-oom", "llama3-70b inference int4 batch 8 ctx 8k on 2x 4090"},
	{"build", "build 4x rtx-4090"},
	{"gpus", "gpus"},
	{"models", "models"},
}

// Every main reply renders within Block Kit's limits, and matches its
// golden file (go test ./bot -run Golden -update rewrites them). The
// digest is the reply commands' own golden test built from three days
// through the store (commands/testdata/digest.reply.json).
func TestRenderedRepliesRespectLimitsAndGolden(t *testing.T) {
	raw, err := os.ReadFile("../commands/testdata/digest.reply.json")
	if err != nil {
		t.Fatal(err)
	}
	var digest commands.Reply
	if err := json.Unmarshal(raw, &digest); err != nil {
		t.Fatal(err)
	}
	replies := map[string]*commands.Reply{"digest": &digest}
	names := []string{"digest"}
	for _, g := range goldenReplies {
		replies[g.name] = replyFor(t, g.text)
		names = append(names, g.name)
	}
	for _, name := range names {
		g := struct{ name string }{name}
		m := renderReply(replies[name], maxMessageBlocks)
		checkLimits(t, g.name, m, maxMessageBlocks)
		raw, err := json.MarshalIndent(map[string]any{"text": m.Text, "blocks": m.Blocks}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		path := "testdata/" + g.name + ".golden.json"
		if *update {
			_ = os.MkdirAll("testdata", 0o755)
			if err := os.WriteFile(path, append(raw, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./bot -run Golden -update)", err)
		}
		if !bytes.Equal(append(raw, '\n'), want) {
			t.Errorf("%s differs from %s; if the change is intended rerun with -update", g.name, path)
		}
	}
}

// A huge reply is cut to the limit, keeps its buttons and says so.
func TestRenderCutsToTheBlockLimit(t *testing.T) {
	r := &commands.Reply{Title: strings.Repeat("T", 400), Summary: "s",
		Actions: []commands.Action{{ID: "plan.share", Label: "Share", Value: "x"}}}
	for i := range 80 {
		r.Sections = append(r.Sections, commands.Section{Heading: fmt.Sprint("h", i), Text: strings.Repeat("word ", 900),
			Fields: make([]commands.Field, 13), Bullets: []string{strings.Repeat("b", 5000)}})
	}
	m := renderReply(r, maxMessageBlocks)
	checkLimits(t, "huge", m, maxMessageBlocks)
	if _, ok := m.Blocks[len(m.Blocks)-1].(*slack.ActionBlock); !ok {
		t.Error("the buttons must survive the cut")
	}
	raw, _ := json.Marshal(m.Blocks)
	if !strings.Contains(string(raw), "left out") {
		t.Error("the cut must be said")
	}
}

// Untrusted text cannot ping @channel or forge links; user and channel
// mentions stay mentions (the command layer writes them for owners, and
// in a note they are what the user typed in Slack), labels dropped.
func TestUntrustedTextIsEscaped(t *testing.T) {
	r := &commands.Reply{Title: "t", Summary: "<!channel> & <https://evil|click>",
		Sections: []commands.Section{{Text: "<@U123> hi <#C0TEAM|team> <@U1|<!here>> <@u1> <#C0X|x&gt;<!channel>>", Bullets: []string{"<!here>"}, Fields: []commands.Field{{Label: "<b>", Value: "<!everyone>"}}}}}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(renderReply(r, maxMessageBlocks).Blocks)
	raw := buf.Bytes()
	for _, bad := range []string{"<!channel>", "<!here>", "<!everyone>", "<https://", "<@u1>", "|<"} {
		if strings.Contains(string(raw), bad) {
			t.Errorf("unescaped %q in %s", bad, raw)
		}
	}
	if !strings.Contains(string(raw), "<@U123> hi <#C0TEAM> ") {
		t.Errorf("mentions should stay live: %s", raw)
	}
	if !strings.Contains(string(raw), "&lt;!channel&gt; &amp;") {
		t.Errorf("escaping: %s", raw)
	}
}

func TestErrorMessages(t *testing.T) {
	m := errorMessage(&commands.UserError{Msg: "unknown model `bert-bse` — did you mean `bert-base`?", Hint: "try: <x>"}, escaper{})
	checkLimits(t, "user error", m, maxMessageBlocks)
	raw, _ := json.Marshal(m.Blocks)
	if !strings.Contains(string(raw), "bert-base") || strings.Contains(string(raw), "<x>") {
		t.Errorf("user error: %s", raw)
	}
	m = internalErrorMessage(i18n.For(i18n.EN), "ab12cd34")
	if !strings.Contains(m.Text, "ab12cd34") {
		t.Errorf("internal error must carry the ref: %q", m.Text)
	}
}

func TestPlanModalLimits(t *testing.T) {
	f, err := commands.FormFromText(commands.New(commands.Deps{}).Catalog(), "bert-base 10 epochs of 2.5M samples on h100x2 ckpt")
	if err != nil {
		t.Fatal(err)
	}
	v := planModal(f, modalMeta{Channel: "C1", ResponseURL: "https://hooks.slack.com/x"})
	if len(v.Blocks.BlockSet) > maxViewBlocks || len(v.PrivateMetadata) > 3000 || utf8.RuneCountInString(v.Title.Text) > 24 {
		t.Errorf("modal limits: %d blocks, %d metadata", len(v.Blocks.BlockSet), len(v.PrivateMetadata))
	}
	in := v.Blocks.BlockSet[0].(*slack.InputBlock)
	if in.BlockID != "model" || in.Element.(*slack.PlainTextInputBlockElement).InitialValue != "bert-base-uncased" {
		t.Errorf("model field not prefilled: %+v", in)
	}
}
