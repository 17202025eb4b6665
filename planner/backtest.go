package planner

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// BackTestRow is one published measurement written as a gpuplan request.
type BackTestRow struct {
	ID       string
	Request  string
	Metric   string
	Measured float64
	Note     string
	// Publisher groups rows by who published them: the back-test leaves
	// one publisher out at a time (leave-one-source-out).
	Publisher string
	Source    string
}

// SkippedRow is a calibration row the request language cannot express,
// with the reason.
type SkippedRow struct {
	ID     string
	Reason string
}

// BackTestRows returns the embedded back-test set (planner/data/backtest.csv,
// translated from planner/data/measured.csv).
func BackTestRows() ([]BackTestRow, []SkippedRow, error) {
	rows, err := readCSV("data/backtest.csv")
	if err != nil {
		return nil, nil, err
	}
	var out []BackTestRow
	for _, r := range rows {
		out = append(out, BackTestRow{ID: r.s("id"), Request: r.s("request"), Metric: r.s("metric"),
			Measured: r.f("value"), Note: r.s("note"), Publisher: r.s("publisher"), Source: r.s("source")})
	}
	f, err := dataFS.Open("data/backtest-skipped.csv")
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	skippedRows, err := readCSVNoSource(f)
	if err != nil {
		return nil, nil, err
	}
	var skipped []SkippedRow
	for _, r := range skippedRows {
		skipped = append(skipped, SkippedRow{ID: r.s("id"), Reason: r.s("reason")})
	}
	return out, skipped, nil
}

// Metric reads a back-test metric off an estimate.
func Metric(e *Estimate, name string) (float64, error) {
	deref := func(p *float64) (float64, error) {
		if p == nil {
			return 0, fmt.Errorf("%s needs an amount of work", name)
		}
		return *p, nil
	}
	switch name {
	case "samples_per_s":
		return e.Throughput.SamplesPerS, nil
	case "tokens_per_s":
		return e.Throughput.TokensPerS, nil
	case "tokens_per_s_per_gpu":
		return e.Throughput.TokensPerSPerGPU, nil
	case "step_s":
		return e.Time.StepS, nil
	case "model_tflops_per_gpu":
		return e.ModelTFLOPsPerGPU, nil
	case "hardware_tflops_per_gpu":
		return e.HWTFLOPsPerGPU, nil
	case "total_hours":
		return deref(e.Time.TotalHours)
	case "gpu_hours":
		return deref(e.GPUHours)
	case "peak_memory_mib":
		return e.Memory.PerGPUGiB * 1024, nil
	case "peak_memory_allocated_mib":
		// torch.cuda.max_memory_allocated: the tensors alone, without the
		// CUDA context, NCCL buffers or the caching allocator's headroom.
		v := e.Memory.PerGPUGiB - cudaContextGiB - memItem(e.Memory, "allocator headroom")
		if e.GPUs > 1 {
			v -= ncclBuffersGiB
		}
		return v * 1024, nil
	}
	return 0, fmt.Errorf("unknown metric %q", name)
}

// ErrorStats summarises relative errors: median, 90th percentile and worst
// of |pred/meas - 1|, and the worst ratio max(pred/meas, meas/pred).
type ErrorStats struct {
	N          int
	Median     float64
	P90        float64
	Worst      float64
	WorstRatio float64
	WorstID    string
}

// Summarise computes ErrorStats from predicted/measured pairs keyed by id.
func Summarise(ids []string, pred, meas []float64) ErrorStats {
	var errs []float64
	st := ErrorStats{N: len(pred)}
	for i := range pred {
		e := math.Abs(pred[i]/meas[i] - 1)
		errs = append(errs, e)
		ratio := math.Max(pred[i]/meas[i], meas[i]/pred[i])
		if ratio > st.WorstRatio {
			st.WorstRatio, st.WorstID = ratio, ids[i]
		}
		st.Worst = math.Max(st.Worst, e)
	}
	sort.Float64s(errs)
	if n := len(errs); n > 0 {
		if n%2 == 1 {
			st.Median = errs[n/2]
		} else {
			st.Median = (errs[n/2-1] + errs[n/2]) / 2
		}
		st.P90 = percentile(errs, 0.9)
	}
	return st
}

// percentile of sorted values, linear between closest ranks.
func percentile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	x := q * float64(len(sorted)-1)
	i := int(math.Floor(x))
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (x-float64(i))*(sorted[i+1]-sorted[i])
}

// LOSOSummary is the honest back-test: every row predicted by constants
// fitted without its publisher's rows, next to the in-sample error.
type LOSOSummary struct {
	Rows       []LOSORow
	InSample   ErrorStats
	LOSO       ErrorStats
	Publishers int
}

// StoredLOSO returns the leave-one-source-out result checked in as
// planner/data/loso.csv (written by `go generate ./planner`; the planner's
// tests refit and fail when it is stale).
func StoredLOSO() (*LOSOSummary, error) {
	f, err := dataFS.Open("data/loso.csv")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseLOSO(f)
}

// parseLOSO reads the loso.csv format (LOSOCSV) and summarises it.
func parseLOSO(r io.Reader) (*LOSOSummary, error) {
	rows, err := readCSVNoSource(r)
	if err != nil {
		return nil, err
	}
	s := &LOSOSummary{}
	pubs := map[string]bool{}
	var ids []string
	var in, lo, meas []float64
	for _, r := range rows {
		lr := LOSORow{ID: r.s("id"), Publisher: r.s("publisher"), Metric: r.s("metric"), Measured: r.f("measured"),
			InSample: r.f("in_sample"), LOSO: r.f("loso")}
		s.Rows = append(s.Rows, lr)
		pubs[lr.Publisher] = true
		ids = append(ids, lr.ID)
		in, lo, meas = append(in, lr.InSample), append(lo, lr.LOSO), append(meas, lr.Measured)
	}
	s.Publishers = len(pubs)
	s.InSample = Summarise(ids, in, meas)
	s.LOSO = Summarise(ids, lo, meas)
	return s, nil
}

// LOSOCSV renders rows as planner/data/loso.csv.
func LOSOCSV(rows []LOSORow) string {
	var b strings.Builder
	b.WriteString("id,publisher,metric,measured,in_sample,loso\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%s,%s,%s,%.6g,%.6g,%.6g\n", r.ID, r.Publisher, r.Metric, r.Measured, r.InSample, r.LOSO)
	}
	return b.String()
}

// PublisherStats is one publisher's rows, predicted in-sample and with
// the constants fitted without them.
type PublisherStats struct {
	Publisher string
	InSample  ErrorStats
	LOSO      ErrorStats
}

// ByPublisher splits the leave-one-source-out result by publisher, in the
// order the rows come.
func (s *LOSOSummary) ByPublisher() []PublisherStats {
	var order []string
	groups := map[string][]LOSORow{}
	for _, r := range s.Rows {
		if _, ok := groups[r.Publisher]; !ok {
			order = append(order, r.Publisher)
		}
		groups[r.Publisher] = append(groups[r.Publisher], r)
	}
	var out []PublisherStats
	for _, p := range order {
		var ids []string
		var in, lo, meas []float64
		for _, r := range groups[p] {
			ids = append(ids, r.ID)
			in, lo, meas = append(in, r.InSample), append(lo, r.LOSO), append(meas, r.Measured)
		}
		out = append(out, PublisherStats{Publisher: p, InSample: Summarise(ids, in, meas), LOSO: Summarise(ids, lo, meas)})
	}
	return out
}

// HeldOutRows returns the published measurements of data/heldout.csv:
// rows collected after the fit and never given to it (Fit reads
// backtest-cases.jsonl only), each with its source and a quote of the
// number as published. `gpuplan backtest` reports them apart.
func HeldOutRows() ([]BackTestRow, error) {
	rows, err := readCSV("data/heldout.csv")
	if err != nil {
		return nil, err
	}
	var out []BackTestRow
	for _, r := range rows {
		out = append(out, BackTestRow{ID: r.s("id"), Request: r.s("request"), Metric: r.s("metric"),
			Measured: r.f("value"), Note: r.s("quote"), Publisher: r.s("publisher"), Source: r.s("source")})
	}
	return out, nil
}

// FitClaim is a published statement that a job does or does not fit in
// the memory of the GPUs named, written as a request
// (planner/data/fitclaims.csv): model cards, papers and maintainers' docs.
// Like heldout.csv the claims were collected after the fit and no
// constant has seen them.
type FitClaim struct {
	ID        string
	Request   string
	Fits      bool
	Publisher string
	Source    string
	Quote     string
}

// FitClaims returns the published fit and no-fit claims.
func FitClaims() ([]FitClaim, error) {
	rows, err := readCSV("data/fitclaims.csv")
	if err != nil {
		return nil, err
	}
	var out []FitClaim
	for _, r := range rows {
		fits := r.s("fits")
		if fits != "yes" && fits != "no" {
			return nil, fmt.Errorf("fitclaims.csv %s: fits is %q, want yes or no", r.s("id"), fits)
		}
		out = append(out, FitClaim{ID: r.s("id"), Request: r.s("request"), Fits: fits == "yes",
			Publisher: r.s("publisher"), Source: r.s("source"), Quote: r.s("quote")})
	}
	return out, nil
}
