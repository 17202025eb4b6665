package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/i18n"
)

// dispatchIn runs text as a request in l.
func dispatchIn(t *testing.T, l i18n.Lang, text string) *Reply {
	t.Helper()
	r, err := New(Deps{}).Dispatch(context.Background(), Request{User: "U1", Text: text, Lang: l})
	if err != nil {
		t.Fatalf("%s (%s): %v", text, l, err)
	}
	return r
}

// The catalogue and back-test listings answer a Korean request in Korean:
// title, summary, headings and the column headers that are words (ids,
// precisions and units stay as engineers write them); English is as it was.
func TestCatalogueListingsInKorean(t *testing.T) {
	for _, tc := range []struct {
		cmd string
		en  [][]string // each table's English columns
		ko  []string   // columns that must read in Korean
	}{
		{"gpus", [][]string{{"id", "memory", "bandwidth", "bf16/fp16", "fp8", "tf32", "nvlink", "tdp", "$/h"}},
			[]string{"메모리", "대역폭"}},
		{"models", [][]string{{"id", "type", "params", "layers", "hidden", "heads (kv)", "vocab", "context"}},
			[]string{"종류", "파라미터", "레이어", "컨텍스트"}},
		{"backtest", [][]string{{"id", "metric", "measured", "predicted", "error", "what"},
			{"id", "metric", "measured", "predicted", "error", "request"},
			{"id", "claimed", "planned", "GiB per GPU", "request"},
			{"publisher", "rows", "in-sample median", "held-out median", "held-out worst"}},
			[]string{"지표", "측정값", "예측값", "오차", "출처", "요청", "주장", "플랜", "GPU당 GiB"}},
	} {
		en, ko := dispatchIn(t, i18n.EN, tc.cmd), dispatchIn(t, i18n.KO, tc.cmd)
		if hasHangul(en.Title+en.Summary) || !hasHangul(ko.Title) || !hasHangul(ko.Summary) {
			t.Errorf("%s: title/summary en %q / %q, ko %q / %q", tc.cmd, en.Title, en.Summary, ko.Title, ko.Summary)
		}
		var enCols, koCols [][]string
		for _, s := range en.Sections {
			if s.Table != nil {
				enCols = append(enCols, s.Table.Columns)
			}
		}
		for _, s := range ko.Sections {
			if s.Heading != "" && !hasHangul(s.Heading) {
				t.Errorf("%s: Korean heading %q", tc.cmd, s.Heading)
			}
			if s.Kind == Context && s.Text != "" && !hasHangul(s.Text) {
				t.Errorf("%s: Korean footnote %q", tc.cmd, s.Text)
			}
			if s.Table != nil {
				koCols = append(koCols, s.Table.Columns)
			}
		}
		if strings.Join(flat(enCols), "|") != strings.Join(flat(tc.en), "|") {
			t.Errorf("%s: English columns %q, want %q", tc.cmd, enCols, tc.en)
		}
		got := "|" + strings.Join(flat(koCols), "|") + "|"
		for _, c := range tc.ko {
			if !strings.Contains(got, "|"+c+"|") {
				t.Errorf("%s: Korean columns %s lack %q", tc.cmd, got, c)
			}
		}
		for _, w := range []string{"memory", "bandwidth", "type", "params", "layers", "context", "metric", "measured", "predicted", "error", "publisher", "rows"} {
			if strings.Contains(got, "|"+w+"|") {
				t.Errorf("%s: Korean columns %s keep %q", tc.cmd, got, w)
			}
		}
	}
}

func flat(xss [][]string) []string {
	var out []string
	for _, xs := range xss {
		out = append(out, xs...)
	}
	return out
}

// Every Korean table lines up in a terminal: each row's last column starts
// at the same display column as the header's (a Hangul syllable is two
// columns), and the dashed rule is as wide as each column.
func TestKoreanTablesLineUp(t *testing.T) {
	for _, cmd := range []string{"gpus", "models", "backtest", "help"} {
		r := dispatchIn(t, i18n.KO, cmd)
		n := 0
		for _, s := range r.Sections {
			if s.Table == nil {
				continue
			}
			n++
			lines := s.Table.Lines(true)
			cells := append([][]string{s.Table.Columns, nil}, s.Table.Rows...)
			last := len(s.Table.Columns) - 1
			start := -1
			for i, l := range lines {
				if i == 1 {
					continue // the rule, checked below
				}
				c := plain(cells[i][last])
				if c == "" {
					if w := displayWidth(l); start >= 0 && w > start {
						t.Errorf("%s: row %d with an empty last cell is %d wide, past the last column at %d:\n%s", cmd, i, w, start, l)
					}
					continue
				}
				head, ok := strings.CutSuffix(l, c)
				if !ok {
					t.Fatalf("%s: row %d does not end in its last cell %q:\n%s", cmd, i, c, l)
				}
				w := displayWidth(head)
				if start < 0 {
					start = w
				}
				if w != start {
					t.Errorf("%s: row %d's last column starts at %d, the header's at %d:\n%s\n%s", cmd, i, w, start, lines[0], l)
				}
			}
			rule := strings.Fields(lines[1])
			for i, c := range s.Table.Columns[:last] {
				if displayWidth(c) > len(rule[i]) {
					t.Errorf("%s: column %q is %d wide, its rule %d", cmd, c, displayWidth(c), len(rule[i]))
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no table", cmd)
		}
	}
}

func TestDisplayWidth(t *testing.T) {
	for s, want := range map[string]int{
		"":         0,
		"GPU":      3,
		"메모리":      6,
		"GPU 간 통신": 11,
		"ａｂ":       4, // fullwidth forms
		"漢字":       4,
		"✅ OK":     5,
		"e\u0301":  1, // a combining accent takes no column
		"a\u200bb": 2, // nor does a zero-width space
		"× — ≥":    5, // ambiguous: one column
	} {
		if got := displayWidth(s); got != want {
			t.Errorf("displayWidth(%q) = %d, want %d", s, got, want)
		}
	}
}

// wrap folds Korean at the display width: no line is wider than asked
// (a word longer than the width aside), and no line could have taken the
// next word.
func TestWrapKoreanAtDisplayWidth(t *testing.T) {
	text := "피크 성능은 dense 기준이에요 (데이터시트에서 *가 붙은 수치는 2:4 sparse라 dense의 두 배예요). GeForce의 fp16/bf16은 학습에 쓰는 fp32 accumulate 기준이에요."
	for _, width := range []int{20, 33, 60} {
		out := wrap(text, width, "  - ")
		lines := strings.Split(out, "\n")
		if strings.Join(strings.Fields(strings.Join(lines, " ")), " ") != "- "+text {
			t.Fatalf("width %d: words changed:\n%s", width, out)
		}
		for i, l := range lines {
			if w := displayWidth(l); w > width && len(strings.Fields(l)) > 1 {
				t.Errorf("width %d: line %d is %d columns: %q", width, i, w, l)
			}
			if i+1 < len(lines) {
				next := strings.Fields(lines[i+1])[0]
				if displayWidth(l)+1+displayWidth(next) <= width {
					t.Errorf("width %d: line %d (%d columns) could have taken %q", width, i, displayWidth(l), next)
				}
			}
			if i > 0 && !strings.HasPrefix(l, "    ") {
				t.Errorf("width %d: line %d not indented under the prefix: %q", width, i, l)
			}
		}
	}
}

// build answers and refuses in the reply's language: the sizing's own
// sentences (the planner's BuildIn) included.
func TestBuildInKorean(t *testing.T) {
	r := dispatchIn(t, i18n.KO, "build 4x rtx-4090")
	if !hasHangul(r.Title) || !hasHangul(r.Summary) {
		t.Errorf("title %q, summary %q", r.Title, r.Summary)
	}
	for _, s := range r.Sections {
		for _, f := range s.Fields {
			if f.Label != "CPU" && f.Label != "PCIe" && f.Label != "All-reduce" && !hasHangul(f.Label) {
				t.Errorf("field label %q", f.Label)
			}
			if !hasHangul(f.Value) && !strings.HasSuffix(f.Value, " W") {
				t.Errorf("%s: value %q", f.Label, f.Value)
			}
		}
		for _, b := range s.Bullets {
			if !hasHangul(b) {
				t.Errorf("%s: bullet %q", s.Heading, b)
			}
		}
	}
	en := dispatchIn(t, i18n.EN, "build 4x rtx-4090")
	if en.Title != "Server for 4× GeForce RTX 4090" || hasHangul(render(t, en)) {
		t.Errorf("English build changed: %q", en.Title)
	}
	for _, text := range []string{"build", "build 4x nosuchgpu", "build 100x h100", "build h100x2, a100x4", "gpus nosuchgpu", "models nosuchmodel"} {
		_, err := New(Deps{}).Dispatch(context.Background(), Request{User: "U1", Text: text, Lang: i18n.KO})
		ue := ExplainIn(i18n.For(i18n.KO), err)
		if ue == nil {
			t.Fatalf("%s: %v, want a refusal", text, err)
		}
		if !hasHangul(ue.Msg) || !hasHangul(ue.Hint) {
			t.Errorf("%s: Korean refusal %q / %q", text, ue.Msg, ue.Hint)
		}
		_, err = New(Deps{}).Dispatch(context.Background(), Request{User: "U1", Text: text, Lang: i18n.EN})
		if ue := ExplainIn(i18n.For(i18n.EN), err); ue == nil || hasHangul(ue.Msg+ue.Hint) {
			t.Errorf("%s: English refusal %v", text, ue)
		}
	}
}
