package slackfake

import (
	"reflect"
	"testing"
)

func TestReadMrkdwn(t *testing.T) {
	for _, tc := range []struct {
		in    string
		kinds []EntityKind
		shown string
	}{
		{"held by <@U0BOB> until 18:00", []EntityKind{EntityUser}, "held by @U0BOB until 18:00"},
		{"<@U0BOB|bob> and <#C0GEN|general>", []EntityKind{EntityUser, EntityChannel}, "bob and general"},
		{"<!here> <!channel> <!subteam^S1|@team>", []EntityKind{EntitySpecial, EntitySpecial, EntitySpecial}, "@here @channel @team"},
		{"see <https://evil.example|wiki.internal>", []EntityKind{EntityLink}, "see wiki.internal"},
		{"<example.com>", []EntityKind{EntityLink}, "example.com"},
		{"&lt;@U0BOB&gt; &amp;lt; a &amp; b", nil, "<@U0BOB> &lt; a & b"},
		{"`<!here>` in code", []EntityKind{EntitySpecial}, "`@here` in code"},
		{"<<@U1>@U1>", []EntityKind{EntityLink}, "<@U1@U1>"}, // '<' to the first '>': "<<@U1>" is one sequence
		{"a < b", nil, "a < b"},
		{"plain @here and #general", nil, "plain @here and #general"},
	} {
		ents, shown := ReadMrkdwn(tc.in)
		var kinds []EntityKind
		for _, e := range ents {
			kinds = append(kinds, e.Kind)
		}
		if !reflect.DeepEqual(kinds, tc.kinds) {
			t.Errorf("ReadMrkdwn(%q) entities %v, want %v", tc.in, ents, tc.kinds)
		}
		if shown != tc.shown {
			t.Errorf("ReadMrkdwn(%q) shows %q, want %q", tc.in, shown, tc.shown)
		}
	}
}

func TestMessageEntitiesReadsOnlyMrkdwn(t *testing.T) {
	blocks := []any{
		map[string]any{"type": "header", "text": map[string]any{"type": "plain_text", "text": "<@U0PLAIN>"}},
		map[string]any{"type": "section", "text": map[string]any{"type": "mrkdwn", "text": "by <@U0OWNER>"},
			"fields": []any{map[string]any{"type": "mrkdwn", "text": "<!here>"}}},
	}
	got := MessageEntities("fallback <#C0TEAM>", blocks)
	targets := map[string]bool{}
	for _, e := range got {
		targets[e.Target] = true
	}
	if len(got) != 3 || !targets["U0OWNER"] || !targets["here"] || !targets["C0TEAM"] || targets["U0PLAIN"] {
		t.Errorf("entities %v", got)
	}
}
