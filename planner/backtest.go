package planner

import (
	"fmt"
	"math"
	"sort"
)

// BackTestRow is one published measurement written as a gpuplan request.
type BackTestRow struct {
	ID       string
	Request  string
	Metric   string
	Measured float64
	Note     string
	Source   string
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
			Measured: r.f("value"), Note: r.s("note"), Source: r.s("source")})
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
	}
	return 0, fmt.Errorf("unknown metric %q", name)
}

// ErrorStats summarises relative errors: median and worst of |pred/meas - 1|,
// and the worst ratio max(pred/meas, meas/pred).
type ErrorStats struct {
	N          int
	Median     float64
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
	}
	return st
}
