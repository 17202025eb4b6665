package bot

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/i18n"
)

// longReply is a reply whose table is cut to fit one section and whose
// sections do not fit one message, with a gauge over capacity.
func longReply(l i18n.Lang) *commands.Reply {
	t := &commands.Table{Columns: []string{"id", "메모리"}}
	for i := range 400 {
		t.Rows = append(t.Rows, []string{fmt.Sprintf("gpu-%03d", i), "80 GB"})
	}
	r := &commands.Reply{Lang: l, Title: "t", Sections: []commands.Section{
		{Table: t},
		{Bar: &commands.Bar{Label: "GPU", Used: 90, Total: 80, Unit: "GiB"}},
	}}
	for i := range 60 {
		r.Sections = append(r.Sections, commands.Section{Text: fmt.Sprintf("section %d", i)})
	}
	return r
}

// The renderer's own words (a table's cut, blocks left out, a gauge over
// capacity) are in the reply's language; English reads as before.
func TestRendererWordsInReplyLanguage(t *testing.T) {
	blocks := func(l i18n.Lang) string {
		raw, err := json.Marshal(renderReply(longReply(l), maxMessageBlocks).Blocks)
		if err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	en, ko := blocks(i18n.EN), blocks(i18n.KO)
	rows := regexp.MustCompile(`… (\d+) more rows`).FindStringSubmatch(en)
	cut := regexp.MustCompile("_(\\d+) more blocks left out: run the same request in a terminal \\(`gpuplan …`\\) for the whole report._").FindStringSubmatch(en)
	if rows == nil || cut == nil || !strings.Contains(en, " *over capacity*") {
		t.Fatalf("English blocks lack the cut table, the cut message or the overflow: %s", en)
	}
	for _, want := range []string{"… 외 " + rows[1] + "행", "_블록 " + cut[1] + "개는 생략했어요", " *용량 초과*"} {
		if !strings.Contains(ko, want) {
			t.Errorf("Korean blocks lack %q", want)
		}
	}
	for _, english := range []string{"more rows", "more blocks", "over capacity"} {
		if strings.Contains(ko, english) {
			t.Errorf("Korean blocks say %q", english)
		}
	}
}

// The Home's cut is in its reply's language too.
func TestHomeCutInReplyLanguage(t *testing.T) {
	r := longReply(i18n.KO)
	for i := range 120 {
		r.Sections = append(r.Sections, commands.Section{Text: fmt.Sprintf("more %d", i)})
	}
	raw, err := json.Marshal(homeView(r, nil).Blocks)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "개는 생략했어요") || strings.Contains(string(raw), "blocks left out") {
		t.Errorf("Korean Home's cut is not Korean: %s", raw[len(raw)-400:])
	}
}
