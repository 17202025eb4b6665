package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/i18n"
)

// The request language's refusals in the reply's language: a Korean
// request (or a Korean Slack locale) that is refused is told so in Korean,
// with the request words and the corrected request as typed; the same
// mistake in English reads as it always did.
func TestRefusalsInTheReplyLanguage(t *testing.T) {
	s, _ := newReservations(t)
	for _, tc := range []struct {
		lang      i18n.Lang
		text      string
		want      []string // all in the message and hint
		notWanted []string
	}{
		{"", "bert-bse 10 에폭 250만 샘플 h100 2장",
			[]string{"모르는 모델", "`bert-bse`", "`bert-base`", "이렇게 해 보세요: gpuplan plan bert-base 10 에폭 250만 샘플 h100 2장"}, []string{"unknown", "did you mean", "try:"}},
		{"", "bert-base 10 에폭 250만 샘플 h1000 2장",
			[]string{"모르는 GPU", "`h1000`", "`h100`"}, []string{"unknown"}},
		{"", "bert-base 10 250만 샘플 h100 2장",
			[]string{"단위가 필요해요", "`10 epochs`"}, []string{"needs a unit"}},
		{"", "llama 10 에폭 h100 2장",
			[]string{"모델이 여러 개예요", "`llama-2-7b`", "외 "}, []string{"matches several", " more"}},
		{"", "10 에폭 250만 샘플 h100 2장",
			[]string{"어떤 모델이요?", "`7b params`"}, []string{"which model"}},
		{i18n.KO, "reserve 2 on server-h for 4",
			[]string{"단위가 필요해요", "`4h`", "기간은", "예: `reserve 2 on server-h for 4h`"}, []string{"needs a unit", "write durations"}},
		{i18n.KO, "reserve 2 on server-a from tomorrow 9:00 for 0h",
			[]string{"기간이 아니에요", "0보다 길어야"}, []string{"not a duration"}},
		{i18n.KO, "reserve 2 on server-a from 2025-01-05 9:00 for 2h",
			[]string{"이미 지났어요"}, []string{"in the past"}},
		{i18n.EN, "bert-bse 10 에폭 250만 샘플 h100 2장", // a Slack user set to English
			[]string{"unknown model `bert-bse` — did you mean `bert-base`?", "try: gpuplan plan bert-base"}, []string{"모르는"}},
		{"", "bert-bse 10 epochs of 2.5M samples on h100x2",
			[]string{"unknown model `bert-bse` — did you mean `bert-base`?", "try: gpuplan plan bert-base 10 epochs of 2.5M samples on h100x2"}, []string{"모르는"}},
		{i18n.EN, "reserve 2 on server-h for 4",
			[]string{"`4` needs a unit — `4h` or `4m`?", "write durations like"}, []string{"단위"}},
	} {
		_, err := s.Dispatch(context.Background(), Request{User: "U0001", Channel: "C1", Text: tc.text, Lang: tc.lang})
		ue := ExplainIn(i18n.For(tc.lang), err)
		if ue == nil {
			t.Errorf("%q (%q): no refusal but %v", tc.text, tc.lang, err)
			continue
		}
		got := ue.Msg + "\n" + ue.Hint
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%q (%q): the refusal lacks %q:\n%s", tc.text, tc.lang, w, got)
			}
		}
		for _, w := range tc.notWanted {
			if strings.Contains(got, w) {
				t.Errorf("%q (%q): the refusal has %q:\n%s", tc.text, tc.lang, w, got)
			}
		}
	}
}
