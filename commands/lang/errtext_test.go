package lang

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/i18n"
)

// Each fixed hint's key is the hint as the readers write it: in English
// the printer gives the key back, so a key that drifted from its constant
// shows here (and would leave the Korean reply in English).
func TestHintSentenceKeysAreTheHints(t *testing.T) {
	for _, h := range []string{reqExample, reqKinds, whenExample, durationExample, reserveHint, waitHint, extendHint, scheduleHint,
		"try a catalogue name (`gpuplan models` lists them)"} {
		got, ok := hintSentence(i18n.For(i18n.EN), h)
		if !ok || got != h {
			t.Errorf("hint %q: key %q (known %v)", h, got, ok)
		}
		if ko, _ := hintSentence(i18n.For(i18n.KO), h); ko == h {
			t.Errorf("hint %q has no Korean", h)
		}
	}
}

// Localize leaves English alone, and leaves a Msg someone rewrote after
// the reader wrote it (its words are no longer the key's).
func TestLocalize(t *testing.T) {
	_, err := ParseDuration("4")
	inEnglish := err.Error()
	if got := Localize(nil, err); got.Error() != inEnglish {
		t.Errorf("English: %q, want %q", got, inEnglish)
	}
	ko := Localize(i18n.For(i18n.KO), err).Error()
	if ko == inEnglish || !containsAll(ko, "`4`", "`4h`", "`4m`") {
		t.Errorf("Korean: %q", ko)
	}
	ue := said(en.Tf("`%s` is not a date", "x"), &UserError{})
	ue.Msg = "rewritten"
	Localize(i18n.For(i18n.KO), ue)
	if ue.Msg != "rewritten" {
		t.Errorf("a rewritten Msg became %q", ue.Msg)
	}
	if Localize(i18n.For(i18n.KO), errors.New("internal")).Error() != "internal" {
		t.Error("an internal error changed")
	}
}

func containsAll(s string, subs ...string) bool {
	for _, w := range subs {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// The it/s refusal's hint is Korean around its two examples, which stay as
// typed; in English it is unchanged.
func TestItPerSecondHintInKorean(t *testing.T) {
	_, err := ParsePlan(nil, "bert-base baseline 4 it/s on 1x v100")
	var ue *UserError
	if !errors.As(err, &ue) || !strings.Contains(ue.Hint, "(1 ÷ it/s, if each iteration is one optimizer step) or `baseline <it/s × batch> samples/s`") {
		t.Fatalf("English hint: %v", err)
	}
	english := ue.Hint
	if !errors.As(Localize(i18n.For(i18n.KO), err), &ue) || strings.Contains(ue.Hint, "if each iteration") ||
		!containsAll(ue.Hint, "`baseline 0.25 s/step`", "`baseline <it/s × batch> samples/s`", "optimizer step 하나라면") {
		t.Errorf("Korean hint: %q (English: %q)", ue.Hint, english)
	}
}
