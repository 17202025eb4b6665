package planner

import (
	"flag"
	"fmt"
	"go/format"
	"math"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite params_fit.go and data/loso.csv from a fresh fit")

func backTestCases(t *testing.T) []BackTestCase {
	t.Helper()
	rows, err := DefaultCatalog().BackTestCases()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// The stored parsed rows cover backtest.csv exactly (go generate keeps
// them in step; the back-test command checks each against its parse).
func TestBackTestCasesMatchCSV(t *testing.T) {
	csvRows, _, err := BackTestRows()
	if err != nil {
		t.Fatal(err)
	}
	cases := backTestCases(t)
	if len(cases) != len(csvRows) {
		t.Fatalf("backtest-cases.jsonl has %d rows, backtest.csv %d: run go generate ./planner", len(cases), len(csvRows))
	}
	for i, r := range csvRows {
		k := cases[i]
		if k.ID != r.ID || k.Metric != r.Metric || k.Measured != r.Measured || k.Publisher != r.Publisher {
			t.Errorf("row %d: stored %s/%s/%v/%s, csv %s/%s/%v/%s: run go generate ./planner", i, k.ID, k.Metric, k.Measured, k.Publisher,
				r.ID, r.Metric, r.Measured, r.Publisher)
		}
		if r.Publisher == "" {
			t.Errorf("%s: no publisher", r.ID)
		}
	}
}

func sameParams(a, b Params, tol float64) (string, bool) {
	for i, s := range paramSpecs {
		x, y := a.get(i), b.get(i)
		if math.Abs(x-y) > tol*math.Max(math.Abs(x), math.Abs(y)) {
			return s.name, false
		}
	}
	return "", true
}

// The checked-in constants are what the documented fit gives on the
// checked-in rows: nobody tuned them by hand.
func TestFittedParamsAreReproduced(t *testing.T) {
	c := DefaultCatalog()
	rows := backTestCases(t)
	fit := c.Fit(rows)
	if *update {
		src := paramsGoSource(fit, "Fitted by (*Catalog).Fit over planner/data/backtest-cases.jsonl; see fit.go.")
		if err := os.WriteFile("params_fit.go", []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		loso, err := c.LeaveOneSourceOut(rows, fit, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("data/loso.csv", []byte(LOSOCSV(loso)), 0o644); err != nil {
			t.Fatal(err)
		}
		if doc, err := os.ReadFile("../docs/planner.md"); err == nil {
			s, err := parseLOSO(strings.NewReader(LOSOCSV(loso)))
			if err != nil {
				t.Fatal(err)
			}
			out, err := DocsWithBackTest(string(doc), s, fit)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile("../docs/planner.md", []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if name, ok := sameParams(fit, fittedParams, 0.002); !ok {
		t.Errorf("refit gives %s = %v, params_fit.go has %v: run go generate ./planner", name, fit, fittedParams)
	}
	for i, s := range paramSpecs {
		if v := fit.get(i); v < s.lo || v > s.hi {
			t.Errorf("%s = %v outside its physical range [%v, %v]", s.name, v, s.lo, s.hi)
		}
	}
	// The fit improves on its priors and is a minimum along every axis.
	prior := priorParams()
	if lf, lp := c.loss(&fittedParams, rows), c.loss(&prior, rows); lf > lp {
		t.Errorf("fitted loss %.4f above the priors' %.4f", lf, lp)
	}
	base := c.loss(&fittedParams, rows)
	for i, s := range paramSpecs {
		for _, f := range []float64{0.9, 1.1} {
			p := fittedParams
			v := math.Min(s.hi, math.Max(s.lo, p.get(i)*f))
			p.set(i, v)
			if l := c.loss(&p, rows); l < base-0.002 {
				t.Errorf("%s ×%.1f lowers the loss %.4f → %.4f: not a fitted minimum", s.name, f, base, l)
			}
		}
	}
}

// The stored leave-one-source-out predictions are what a refit without
// each publisher gives (all publishers; -short checks three).
func TestLeaveOneSourceOutIsReproduced(t *testing.T) {
	if *update {
		t.Skip("being rewritten")
	}
	c := DefaultCatalog()
	rows := backTestCases(t)
	stored, err := StoredLOSO()
	if err != nil {
		t.Fatal(err)
	}
	if len(stored.Rows) != len(rows) {
		t.Fatalf("loso.csv has %d rows, the back-test %d: run go generate ./planner", len(stored.Rows), len(rows))
	}
	var only []string
	if testing.Short() {
		only = []string{"nvidia-deeplearningexamples", "huggingface-docs", "mosaicml-llm-foundry"}
	}
	got, err := c.LeaveOneSourceOut(rows, fittedParams, only)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]LOSORow{}
	for _, r := range stored.Rows {
		want[r.ID] = r
	}
	for _, r := range got {
		w, ok := want[r.ID]
		if !ok {
			t.Errorf("%s missing from loso.csv", r.ID)
			continue
		}
		if math.Abs(r.LOSO/w.LOSO-1) > 0.005 || math.Abs(r.InSample/w.InSample-1) > 0.005 || w.Publisher != r.Publisher {
			t.Errorf("%s: refit predicts %.4g in-sample, %.4g left out; loso.csv has %.4g, %.4g: run go generate ./planner",
				r.ID, r.InSample, r.LOSO, w.InSample, w.LOSO)
		}
	}
	t.Logf("in-sample: median %.1f%%, p90 %.1f%%, worst %.2fx (%s); leave-one-source-out over %d publishers: median %.1f%%, p90 %.1f%%, worst %.2fx (%s)",
		stored.InSample.Median*100, stored.InSample.P90*100, stored.InSample.WorstRatio, stored.InSample.WorstID, stored.Publishers,
		stored.LOSO.Median*100, stored.LOSO.P90*100, stored.LOSO.WorstRatio, stored.LOSO.WorstID)
}

// docs/planner.md's generated blocks match the stored back-test and the
// fitted constants.
func TestDocsQuoteTheBackTest(t *testing.T) {
	doc, err := os.ReadFile("../docs/planner.md")
	if err != nil {
		t.Skip("docs not in this checkout:", err)
	}
	s, err := StoredLOSO()
	if err != nil {
		t.Fatal(err)
	}
	want, err := DocsWithBackTest(string(doc), s, fittedParams)
	if err != nil {
		t.Fatal(err)
	}
	if want != string(doc) {
		t.Errorf("docs/planner.md's back-test blocks are stale: run go generate ./planner")
	}
}

// Each stored case re-encodes to the same line: a field added to Job (or
// Hardware) shows up here as a stale file, not as a silent default.
func TestBackTestCasesRoundTrip(t *testing.T) {
	lines, err := caseLines()
	if err != nil {
		t.Fatal(err)
	}
	csvRows, _, err := BackTestRows()
	if err != nil {
		t.Fatal(err)
	}
	cases := backTestCases(t)
	for i, k := range cases {
		enc, err := EncodeBackTestCase(csvRows[i], k.Request)
		if err != nil {
			t.Fatal(err)
		}
		if string(enc) != string(lines[i]) {
			t.Errorf("%s: stored case does not re-encode to itself: run go generate ./planner", k.ID)
		}
	}
}

// paramsGoSource renders p as the generated params_fit.go. It lives in a
// test file because only the -update refit writes it: in params.go it
// linked go/format (parser, printer) into every gpuplan binary.
func paramsGoSource(p Params, header string) string {
	var b strings.Builder
	b.WriteString("// Code generated by go generate ./planner; DO NOT EDIT.\n")
	for _, l := range strings.Split(strings.TrimSpace(header), "\n") {
		b.WriteString("// " + l + "\n")
	}
	b.WriteString("\npackage planner\n\n// fittedParams are the constants fitted to planner/data/backtest.csv (see fit.go).\nvar fittedParams = Params{\n")
	for i, s := range paramSpecs {
		fmt.Fprintf(&b, "\t%s: %s,\n", s.name, fmtParam(p.get(i)))
	}
	b.WriteString("}\n")
	out, err := format.Source([]byte(b.String()))
	if err != nil {
		return b.String()
	}
	return string(out)
}
