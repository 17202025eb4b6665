package commands

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// Every published fit claim has its source and quote, reads with the
// request language, names one hardware target and gets a verdict; the
// share that agrees is reported by the back-test and must not fall below
// what it was when the claims were collected (60 of 70) by more than a
// claim or two of noise from a mechanism change — a larger fall is a
// regression in the memory model.
func TestPublishedFitClaims(t *testing.T) {
	claims, err := planner.FitClaims()
	if err != nil {
		t.Fatal(err)
	}
	yes, no := 0, 0
	for _, c := range claims {
		if !strings.HasPrefix(c.Source, "https://") || c.Quote == "" || c.Publisher == "" {
			t.Errorf("%s: source %q, publisher %q, quote %d bytes", c.ID, c.Source, c.Publisher, len(c.Quote))
		}
		if c.Fits {
			yes++
		} else {
			no++
		}
	}
	if yes < 12 || no < 12 {
		t.Errorf("%d claims that fit and %d that do not; want both sides", yes, no)
	}
	r, err := checkFitClaims(planner.DefaultCatalog())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != len(claims) {
		t.Fatalf("%d verdicts for %d claims", len(r.Rows), len(claims))
	}
	if r.Agree < 58 {
		for _, o := range r.Rows {
			if o.Claimed != o.Planned {
				t.Logf("%s: claimed %v, planned %v (%.1f of %.1f GiB): %s", o.ID, o.Claimed, o.Planned, o.PerGPUGiB, o.CapacityGiB, o.Request)
			}
		}
		t.Errorf("%d of %d fit claims agree, want at least 58", r.Agree, len(r.Rows))
	}
}

// A question asked in the negative ("4090에서 안 돼?") is answered with the
// fact alone: a "네 —" before "들어가요" would read as "no, it does not".
func TestNegativeQuestionGetsNoYesOrNo(t *testing.T) {
	neg := dispatchIn(t, i18n.KO, "plan llama 3 8b lora 4090에서 안 돼?")
	pos := dispatchIn(t, i18n.KO, "plan llama 3 8b lora 4090에서 돼?")
	if strings.HasPrefix(neg.Summary, "네") || strings.HasPrefix(neg.Summary, "아니요") || !strings.Contains(neg.Summary, "들어가요") {
		t.Errorf("negative question: %q", neg.Summary)
	}
	if !strings.HasPrefix(pos.Summary, "네 — ") {
		t.Errorf("plain question: %q", pos.Summary)
	}
}
