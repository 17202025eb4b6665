package commands

import (
	"strings"
	"testing"

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
