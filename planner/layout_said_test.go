package planner

import (
	"strings"
	"testing"
)

// A layout said with the job is the one planned on its hardware, whatever
// the search would prefer; the recommendation search still picks its own
// layout for every other option, and a layout the hardware or the model
// cannot hold is refused with the reason.
func TestSaidLayoutIsPlanned(t *testing.T) {
	c := DefaultCatalog()
	j := Job{Model: mustModel(t, c, "llama-3.1-70b"), Workload: Pretrain, SeqLen: 4096, GlobalBatch: 256, Samples: 1e5, Stack: Tuned}
	auto := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h100-sxm5-80gb", 32)}, Job: j}).Plans[0]
	j.TensorParallel, j.PipelineParallel = 4, 2
	res := mustPlan(t, c, Request{Targets: []Hardware{mustGPU(t, c, "h100-sxm5-80gb", 32)}, Job: j})
	said := res.Plans[0]
	if said.TensorParallel != 4 || said.PipelineParallel != 2 {
		t.Fatalf("tp 4 pp 2 said: planned TP%d PP%d", said.TensorParallel, said.PipelineParallel)
	}
	if auto.TensorParallel == 4 && auto.PipelineParallel == 2 {
		t.Fatalf("the search already picks TP4 PP2 here: the test shows nothing")
	}
	if said.Time.StepS == auto.Time.StepS {
		t.Errorf("the said layout times like the searched one (%.2f s)", said.Time.StepS)
	}
	if f := res.Recommendations.Fastest; f == nil || !strings.Contains(strings.Join(res.Recommendations.Notes, " "), "these options pick their own") {
		t.Errorf("the search should run and say it picks its own layouts: %v", res.Recommendations.Notes)
	}
	for _, bad := range []struct {
		tp, pp, n int
		want      string
	}{
		{3, 1, 24, "head count"},
		{8, 1, 12, "GPU count"},
		{1, 200, 200, "layers"},
	} {
		j.TensorParallel, j.PipelineParallel = bad.tp, bad.pp
		if _, err := c.Plan(Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h100-sxm5-80gb", bad.n)}, Job: j}); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("tp %d pp %d on %d GPUs: %v, want an error about the %s", bad.tp, bad.pp, bad.n, err, bad.want)
		}
	}
	// a served model is split over its GPUs: the degree is not planned
	inf := Job{Model: mustModel(t, c, "llama-3.1-70b"), Workload: Inference, GlobalBatch: 1, SeqLen: 1024, GenTokens: 512, TensorParallel: 2}
	if r := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h100-sxm5-80gb", 2)}, Job: inf}); !strings.Contains(strings.Join(r.Assumptions, " "), "split over the GPUs it is given") {
		t.Errorf("inference with tp 2: %q", r.Assumptions)
	}
}

// The cheapest pick is the option on the fewest GPUs among those within 1 %
// of the least cost: a 0.2 % saving on four GPUs is no reason to rent four.
func TestCheapestPrefersFewerGPUsAtTheSameCost(t *testing.T) {
	costs, gpus := []float64{4.55, 4.56, 4.70}, []int{4, 1, 1}
	if got := cheapestOf(3, func(i int) float64 { return costs[i] }, func(i int) int { return gpus[i] }); got != 1 {
		t.Errorf("picked option %d ($%.2f on %d GPUs), want the single GPU at $4.56", got, costs[got], gpus[got])
	}
	costs, gpus = []float64{4.00, 4.56}, []int{4, 1}
	if got := cheapestOf(2, func(i int) float64 { return costs[i] }, func(i int) int { return gpus[i] }); got != 0 {
		t.Errorf("a 14 %% saving was passed over for fewer GPUs")
	}
}

// The fastest pick is the cheapest of the options within 1 % of the least
// time: a decode bound by the host runs as fast on one GPU as on four.
func TestFastestPrefersTheCheaperAtTheSameTime(t *testing.T) {
	hours, costs := []float64{1.000, 1.004, 1.2}, []float64{4, 1, 0.5}
	if got := fastestOf(3, func(i int) float64 { return hours[i] }, func(i int) float64 { return costs[i] }); got != 1 {
		t.Errorf("picked option %d (%.3f h at $%.0f), want the $1 one at 1.004 h", got, hours[got], costs[got])
	}
	hours = []float64{1.0, 1.1}
	if got := fastestOf(2, func(i int) float64 { return hours[i] }, func(i int) float64 { return costs[i] }); got != 0 {
		t.Errorf("a 10 %% faster option was passed over for a cheaper one")
	}
}
