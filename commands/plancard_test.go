package commands

import (
	"regexp"
	"strings"
	"testing"
)

// Forward-only models (CNNs, ViTs, encoders) are served in images or
// sequences per second, priced per million of them, with no decode, prefill
// or generated-token lines (issue 11: ResNet-50 on a T4 once came out as
// tokens/s through the LLM decode path).
func TestForwardInferenceCard(t *testing.T) {
	for _, tc := range []struct{ text, unit string }{
		{"resnet-50 inference on a t4", "images/s"},
		{"bert-large inference seq 384 batch 8 on a v100", "sequences/s"},
	} {
		r, err := dispatch(t, tc.text)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := RenderText(&b, r); err != nil {
			t.Fatal(err)
		}
		txt := b.String()
		if regexp.MustCompile(`context \d+ tokens`).MatchString(txt) {
			t.Errorf("%q: the card gives a context length:\n%s", tc.text, txt)
		}
		for _, bad := range []string{"Decode", "Prefill", "generated tokens", "/1M tokens"} {
			if strings.Contains(txt, bad) {
				t.Errorf("%q: the card says %q:\n%s", tc.text, bad, txt)
			}
		}
		if !strings.Contains(txt, tc.unit) || !strings.Contains(txt, "Serving cost") {
			t.Errorf("%q: the card lacks %q or its serving cost:\n%s", tc.text, tc.unit, txt)
		}
	}
}
