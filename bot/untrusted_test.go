package bot

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/planner"
	"github.com/gpuplan/gpuplan/store"
)

// evilNote tries every way a note could ping, link or reorder text.
const evilNote = "ping <@U0ADMIN> <@U0ADMIN|boss> <#C0123|general> <!here> <!channel> <!subteam^S1|@team> " +
	"<https://evil.example|wiki.internal> <<@U0ADMIN>@U0ADMIN> \u202Eevil\u202C \u2066x\u2069 zero\u200bwidth"

// Issue 12, item 4: a note (or anything a user typed) cannot produce a
// live mention, channel link, special mention or link, nor bidi or
// invisible format characters, in the announcement, in status or on the
// App Home; the owner's own mention, written by the command layer, stays.
func TestUntrustedTextInEverySurface(t *testing.T) {
	ctx := context.Background()
	st, err := store.OpenEmbedded(filepath.Join(t.TempDir(), "r.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cat := planner.DefaultCatalog()
	set := commands.New(commands.Deps{Catalog: cat, Inventory: inventory.Default(cat), Reservations: st})
	req := commands.Request{User: "U0OWNER", Channel: "C0TEAM", Text: `reserve 1 on server-h for 2h note "` + evilNote + `"`}
	announce, err := set.Dispatch(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	status, err := set.Dispatch(ctx, commands.Request{User: "U0OTHER", Text: "status server-h"})
	if err != nil {
		t.Fatal(err)
	}
	mine, err := set.Dispatch(ctx, commands.Request{User: "U0OWNER", Text: "mine"})
	if err != nil {
		t.Fatal(err)
	}
	home, err := set.Home(ctx, commands.Request{User: "U0OWNER"})
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*commands.Reply{"announcement": announce, "status": status, "mine": mine, "home": home} {
		msg := renderReply(r, maxViewBlocks)
		raw, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		collectStrings(t, raw, &text)
		out := text.String()
		if !strings.Contains(out, "evil") {
			t.Fatalf("%s does not show the note at all:\n%s", name, out)
		}
		checkNoLiveSyntax(t, name, out, map[string]bool{"<@U0OWNER>": true})
	}
}

// collectStrings gathers every string value of a JSON document.
func collectStrings(t *testing.T, raw []byte, b *strings.Builder) {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x + "\n")
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
}

// checkNoLiveSyntax reads out as Slack reads mrkdwn (slackfake's reader)
// and fails on any entity — mention, channel link, special mention, link —
// but the allowed ones (their raw text), and on format characters.
func checkNoLiveSyntax(t *testing.T, name, out string, allowed map[string]bool) {
	t.Helper()
	ents, _ := slackfake.ReadMrkdwn(out)
	checkEntities(t, name, ents, allowed)
	for _, r := range out {
		if unicode.Is(unicode.Cf, r) && r != '\u200d' {
			t.Errorf("%s carries format character %U", name, r)
		}
	}
}

func checkEntities(t *testing.T, name string, ents []slackfake.Entity, allowed map[string]bool) {
	t.Helper()
	for _, e := range ents {
		if !allowed[e.Raw] {
			t.Errorf("%s carries a live %s %q", name, e.Kind, e.Raw)
		}
	}
}

// Issue 12: an error quotes the words it could not read, and those words
// can be a mention Slack sent for a picked user, a channel, or a special
// mention. Through the fake Slack — the slash command's ack, the mention's
// thread reply, blocks and fallback text alike — none of them is live,
// and each is still shown as typed.
func TestEchoedWordsInErrorsAreNotLive(t *testing.T) {
	h := start(t)
	posts := 0
	for _, tc := range []struct{ text, shown string }{
		{"reserve 1 on <@U0ADMIN|admin> for 1h", "<@U0ADMIN|admin>"},
		{"reserve 2 gpus on <#C0GEN|general> for 3h", "<#C0GEN|general>"},
		{"reserve 1 on <!channel> for 1h", "<!channel>"},
		{"plan llama-3-8b <@U0ADMIN> <!here>", "<@U0ADMIN>"},
	} {
		p := h.ackPayload(h.fake.Push(h.fake.SlashCommand(tc.text, "U0001", "C0001")))
		if p == nil { // acked first (the user's zone was looked up): answered on response_url
			posts++
			p = h.fake.WaitResponsePosts(t, posts, 5*time.Second)[posts-1].Body
		}
		text, _ := p["text"].(string)
		blocks, _ := p["blocks"].([]any)
		if len(blocks) == 0 || !strings.Contains(blocksJSON(blocks), "warning") {
			t.Fatalf("%q: not answered with a mistake: %s", tc.text, blocksJSON(p))
		}
		checkEntities(t, "slash "+tc.text, slackfake.MessageEntities(text, blocks), nil)
		if _, shown := slackfake.ReadMrkdwn(mrkdwnOf(blocks)); !strings.Contains(shown, tc.shown) {
			t.Errorf("slash %q: the mistake does not show %q as typed: %q", tc.text, tc.shown, shown)
		}
	}
	// A mention is answered visibly in the channel: the worst place for an
	// echoed <!channel>.
	for i, text := range []string{"reserve 1 on <!channel> for 1h", "plan llama-3-8b <@U0ADMIN>", "status <!here>"} {
		h.fake.Push(h.fake.AppMention("<@"+slackfake.BotUserID+"> "+text, "U0001", "C0001", ""))
		calls := h.fake.WaitCalls(t, "chat.postMessage", i+1, 5*time.Second)
		c := calls[i]
		var blocks []any
		if raw := c.Param("blocks"); raw != "" {
			if err := json.Unmarshal([]byte(raw), &blocks); err != nil {
				t.Fatal(err)
			}
		}
		checkEntities(t, "mention "+text, slackfake.MessageEntities(c.Param("text"), blocks), nil)
	}
}

// mrkdwnOf joins the mrkdwn texts of blocks.
func mrkdwnOf(blocks []any) string {
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			if x["type"] == "mrkdwn" {
				s, _ := x["text"].(string)
				b.WriteString(s + "\n")
			}
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(blocks)
	return b.String()
}

// A mention the command layer writes for someone the request did not name
// (who holds the GPUs) stays live in an error; one of the request's own
// words does not, however the request spelled it.
func TestErrorMentionsTheRequestDidNotName(t *testing.T) {
	ue := &commands.UserError{Msg: "cannot extend: the GPUs are booked right after — <@U0HOLDER> has GPUs 0 from 18:00; unknown `<@U0ADMIN>`"}
	for _, asked := range []string{"extend <@U0ADMIN> 1h", "extend <@u0admin> 1h", "extend &lt;@U0AD\u200bMIN&gt; 1h", "extend <@Ｕ０ＡＤＭＩＮ> 1h"} {
		m := errorMessage(ue, echoing(asked))
		raw, _ := json.Marshal(m.Blocks)
		var blocks []any
		_ = json.Unmarshal(raw, &blocks)
		ents := slackfake.MessageEntities(m.Text, blocks)
		checkEntities(t, asked, ents, map[string]bool{"<@U0HOLDER>": true})
		if len(ents) != 2 { // the holder, in the blocks and in the fallback
			t.Errorf("%q: the holder's mention should stay live in blocks and fallback: %v", asked, ents)
		}
	}
}

// FuzzEscapeMrkdwn: whatever a user types, read back as Slack reads
// mrkdwn (slackfake.ReadMrkdwn), makes no entity and shows the user's text:
//   - a reply's untrusted text (commands.Untrusted, then escape) makes no
//     entity, has no raw < or >, every & starts one of the three entities,
//     has no format characters, and shows exactly what Untrusted left;
//   - an error that quotes the request (errorMessage, echoing it) makes no
//     entity but the mention the command layer wrote for someone the
//     request did not name, in its blocks and in its fallback text, and
//     shows the quoted words as typed;
//   - escape alone round-trips: unescape(escape(s)) == s for text without
//     mentions or format characters.
func FuzzEscapeMrkdwn(f *testing.F) {
	for _, s := range []string{evilNote, "", "a & b < c > d", "&amp;", "&lt;@U1&gt;", "<@U123ABC>", "<#C1|x>", "<!here>",
		"<<@U1>@U1>", "<@U1<@U2>>", "<https://a|b>", "\u202e", "*bold* `code` _it_", "👨\u200d👩\u200d👧", "<@", "@U1>", "<!subteam^S1>",
		"<@U0HOLDER>", "<@U0ADMIN|admin>", "<@Ｕ０ＡＤＭＩＮ>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u := commands.Untrusted(s)
		out := escape(u)
		if strings.ContainsAny(out, "<>") {
			t.Fatalf("raw bracket in %q (from %q)", out, s)
		}
		for i := strings.IndexByte(out, '&'); i >= 0; i = nextAmp(out, i) {
			rest := out[i:]
			if !strings.HasPrefix(rest, "&amp;") && !strings.HasPrefix(rest, "&lt;") && !strings.HasPrefix(rest, "&gt;") {
				t.Fatalf("bare & at %d in %q (from %q)", i, out, s)
			}
		}
		checkNoLiveSyntax(t, "fuzz", out, nil)
		if _, shown := slackfake.ReadMrkdwn(out); shown != u {
			t.Fatalf("Slack shows %q for Untrusted(%q) = %q", shown, s, u)
		}
		plain := commands.StripFormat(s)
		if !strings.Contains(plain, "&lt;@") && !strings.Contains(plain, "&lt;#") && !mentionish.MatchString(plain) {
			if got := unescape(escape(plain)); got != plain {
				t.Fatalf("unescape(escape(%q)) = %q", plain, got)
			}
		}

		// The same words quoted back by an error, as the grammar quotes
		// what it cannot read.
		if utf8.RuneCountInString(s) > 1000 || !utf8.ValidString(s) {
			return // longer is cut to fit a section
		}
		ue := &commands.UserError{Msg: "GPUs 0 held by <@U0HOLDER>; I don't understand `" + s + "`", Hint: "you typed: " + s}
		asked := "reserve 1 on " + s + " for 1h"
		m := errorMessage(ue, echoing(asked))
		raw, _ := json.Marshal(m.Blocks)
		var blocks []any
		if err := json.Unmarshal(raw, &blocks); err != nil {
			t.Fatal(err)
		}
		allowed := map[string]bool{}
		if !strings.Contains(foldIDs(asked), "U0HOLDER") {
			allowed["<@U0HOLDER>"] = true
		}
		checkEntities(t, "error", slackfake.MessageEntities(m.Text, blocks), allowed)
		if _, shown := slackfake.ReadMrkdwn(mrkdwnOf(blocks)); !strings.Contains(shown, "`"+plain+"`") {
			t.Fatalf("the error shows %q, not the words %q as typed", shown, plain)
		}
	})
}

var mentionish = regexp.MustCompile(`<[@#]`)

func nextAmp(s string, i int) int {
	j := strings.IndexByte(s[i+1:], '&')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

func unescape(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}

// The renderer escapes each string once: "&amp;" typed stays "&amp;" on
// screen, so it is sent as "&amp;amp;".
func TestEscapeOnce(t *testing.T) {
	if got := escape("&amp;"); got != "&amp;amp;" {
		t.Errorf("escape(&amp;) = %q", got)
	}
}
