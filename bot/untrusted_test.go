package bot

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

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

// liveSyntax is what Slack reads as a mention, channel link, special
// mention or link in mrkdwn.
var liveSyntax = regexp.MustCompile(`<[@#!][^>]*>|<https?:[^>]*>`)

func checkNoLiveSyntax(t *testing.T, name, out string, allowed map[string]bool) {
	t.Helper()
	for _, m := range liveSyntax.FindAllString(out, -1) {
		if !allowed[m] {
			t.Errorf("%s carries live %q", name, m)
		}
	}
	for _, r := range out {
		if unicode.Is(unicode.Cf, r) && r != '\u200d' {
			t.Errorf("%s carries format character %U", name, r)
		}
	}
}

// FuzzEscapeMrkdwn: whatever a user types, the rendered mrkdwn of it
// (commands.Untrusted, then escape) has no raw < or >, every & starts one
// of the three entities, no live syntax and no format characters; and
// escape alone round-trips: unescape(escape(s)) == s for text without
// mentions or format characters.
func FuzzEscapeMrkdwn(f *testing.F) {
	for _, s := range []string{evilNote, "", "a & b < c > d", "&amp;", "&lt;@U1&gt;", "<@U123ABC>", "<#C1|x>", "<!here>",
		"<<@U1>@U1>", "<@U1<@U2>>", "<https://a|b>", "\u202e", "*bold* `code` _it_", "👨\u200d👩\u200d👧", "<@", "@U1>", "<!subteam^S1>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := escape(commands.Untrusted(s))
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
		plain := commands.StripFormat(s)
		if !strings.Contains(plain, "&lt;@") && !strings.Contains(plain, "&lt;#") && !mentionish.MatchString(plain) {
			if got := unescape(escape(plain)); got != plain {
				t.Fatalf("unescape(escape(%q)) = %q", plain, got)
			}
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
