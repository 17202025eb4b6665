package planner

import (
	"math"
	"strings"
	"testing"
)

// Seed 000 as people ask it: "LogBERT took 5.67 h per epoch on 4x V100 —
// how long on server H?" gives no dataset size; for the same job an epoch
// is the same work everywhere, so it cancels like a total does.
func TestBaselinePerEpochWithoutDatasetSize(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "bert-base"), Workload: Finetune, SeqLen: 512, GlobalBatch: 128, Epochs: 10}
	v100 := mustGPU(t, c, "v100-32gb", 4)
	h200 := mustGPU(t, c, "h200", 4)
	res := mustPlan(t, c, Request{Job: job, Compare: true, NoSearch: true, Targets: []Hardware{h200, v100},
		Baseline: &Baseline{Value: 5.67, Unit: HoursPerEpoch, Hardware: v100}})
	if !res.Job.AmountKnown || res.Baseline == nil {
		t.Fatalf("amount known %v, baseline %+v", res.Job.AmountKnown, res.Baseline)
	}
	// An epoch on the measured hardware takes the measured 5.67 h (the
	// total adds the planner's goodput for a multi-day run on top).
	if h := *res.Plans[1].Time.EpochHours; math.Abs(h/5.67-1) > 0.02 {
		t.Errorf("4x V100: %.2f h an epoch, want the measured 5.67", h)
	}
	if h := *res.Plans[1].Time.TotalHours; h < 56.7 || h > 56.7*1.4 {
		t.Errorf("4x V100: %.1f h in all, want 10 epochs of 5.67 h plus goodput", h)
	}
	// The target: the same epoch at the modelled speed ratio.
	plain := mustPlan(t, c, Request{Job: job, NoSearch: true, Compare: true, Targets: []Hardware{h200, v100}})
	ratio := plain.Plans[1].Throughput.SamplesPerS / plain.Plans[0].Throughput.SamplesPerS
	if h := *res.Plans[0].Time.EpochHours; math.Abs(h/(5.67*ratio)-1) > 0.05 {
		t.Errorf("4x H200: %.2f h an epoch, want 5.67 × %.3f = %.2f", h, ratio, 5.67*ratio)
	}
	// Without epochs the run is one epoch.
	job.Epochs = 0
	res = mustPlan(t, c, Request{Job: job, NoSearch: true, Targets: []Hardware{v100},
		Baseline: &Baseline{Value: 5.67, Unit: HoursPerEpoch, Hardware: v100}})
	if res.Job.TotalSamples != res.Job.EpochSamples || res.Job.EpochSamples <= 0 {
		t.Errorf("no epochs given: %v samples in all, %v an epoch; want one epoch", res.Job.TotalSamples, res.Job.EpochSamples)
	}
}

// A measured decode rate rebases decode: the run on the measured card
// reproduces it, and the target carries the same factor (the plain decode
// path ignored it, so the factor ran to its bound and changed nothing).
func TestBaselineTokensPerSecondRebasesDecode(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "llama-3-8b"), Workload: Inference, Precision: INT4}
	t4 := mustGPU(t, c, "t4", 1)
	l4 := mustGPU(t, c, "l4", 1)
	plain := mustPlan(t, c, Request{Job: job, NoSearch: true, Compare: true, Targets: []Hardware{l4, t4}})
	res := mustPlan(t, c, Request{Job: job, NoSearch: true, Compare: true, Targets: []Hardware{l4, t4},
		Baseline: &Baseline{Value: 20, Unit: TokensPerS, Hardware: t4}})
	if got := res.Plans[1].Throughput.TokensPerS; math.Abs(got/20-1) > 0.03 {
		t.Errorf("1x T4: %.1f tokens/s, want the measured 20", got)
	}
	want := plain.Plans[0].Throughput.TokensPerS * 20 / plain.Plans[1].Throughput.TokensPerS
	if got := res.Plans[0].Throughput.TokensPerS; math.Abs(got/want-1) > 0.05 {
		t.Errorf("1x L4: %.1f tokens/s, want the modelled ratio applied: %.1f", got, want)
	}
}

// "We ran the 3B at N samples/s on 2x 3090; now the 7B": the measured run
// is compared with the model's speed for the 3B, and that factor carries
// to the 7B. A run exactly at the modelled speed leaves the 7B's plan as
// the model has it; read as a 7B run it would make the 7B look over twice
// as fast as modelled.
func TestBaselineOfAnotherModel(t *testing.T) {
	c := DefaultCatalog()
	small, big := mustModel(t, c, "qwen2.5-3b"), mustModel(t, c, "qwen2.5-7b")
	run, target := mustGPU(t, c, "rtx-3090", 2), mustGPU(t, c, "a100-sxm4-80gb", 4)
	job := Job{Model: big, Workload: LoRA, SeqLen: 2048, GlobalBatch: 32, Samples: 100000}
	smallJob := job
	smallJob.Model = small
	modelled := mustPlan(t, c, Request{Job: smallJob, NoSearch: true, Targets: []Hardware{run}}).Plans[0].Throughput.SamplesPerS
	plain := mustPlan(t, c, Request{Job: job, NoSearch: true, Targets: []Hardware{target}}).Plans[0]
	res := mustPlan(t, c, Request{Job: job, NoSearch: true, Targets: []Hardware{target},
		Baseline: &Baseline{Value: modelled, Unit: SamplesPerS, Hardware: run, Model: &small}})
	if f := res.Baseline.JobFactor; math.Abs(f-1) > 0.02 {
		t.Errorf("the 3B run at its modelled speed: factor %.3f, want 1", f)
	}
	if r := res.Plans[0].Throughput.SamplesPerS / plain.Throughput.SamplesPerS; math.Abs(r-1) > 0.02 {
		t.Errorf("7B on 4x A100: %.3f of the plain plan's speed, want 1", r)
	}
	if res.Model.ID != big.ID {
		t.Errorf("planned %s, want the 7B", res.Model.ID)
	}
	var said bool
	for _, a := range res.Assumptions {
		said = said || strings.Contains(a, "the measured run was qwen2.5-3b")
	}
	if !said {
		t.Errorf("assumptions %q do not say the run was the 3B", res.Assumptions)
	}
}

// Three times the data of a run given in hours takes three times as long
// on the same hardware, whatever the model's speed.
func TestBaselineWorkScale(t *testing.T) {
	c := DefaultCatalog()
	a100 := mustGPU(t, c, "a100-sxm4-80gb", 1)
	job := Job{Model: mustModel(t, c, "llama-2-7b"), Workload: LoRA, SeqLen: 2048}
	plan := func(scale float64) float64 {
		res := mustPlan(t, c, Request{Job: job, NoSearch: true, Targets: []Hardware{a100},
			Baseline: &Baseline{Value: 6.5, Unit: Hours, Hardware: a100, WorkScale: scale}})
		return *res.Plans[0].Time.TotalHours
	}
	same, triple := plan(0), plan(3)
	if r := triple / same; math.Abs(r-3) > 0.15 {
		t.Errorf("3x the data: %.2f h against %.2f h (%.2fx), want 3x", triple, same, r)
	}
}

// A measured decode rate far above one stream's is a batched one: "2500
// tokens/s on an A6000" for Qwen2.5 7B (one sequence decodes at ~40) is
// planned at the batch the model needs to reach it, so an H100 comes out
// faster than the A6000 measured, not slower (it came out at 875 tokens/s,
// one stream's rate times a factor capped at 5).
func TestBatchedDecodeBaselineIsPlannedBatched(t *testing.T) {
	c := DefaultCatalog()
	a6000, h100 := mustGPU(t, c, "rtx-a6000", 1), mustGPU(t, c, "h100-sxm5-80gb", 1)
	res := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{h100},
		Job:      Job{Model: mustModel(t, c, "qwen2.5-7b"), Workload: Inference},
		Baseline: &Baseline{Value: 2500, Unit: TokensPerS, Hardware: a6000}})
	e := res.Plans[0]
	if e.Throughput.TokensPerS <= 2500 {
		t.Errorf("H100: %.0f tokens/s, below the A6000's measured 2500", e.Throughput.TokensPerS)
	}
	if e.MicroBatch < 8 {
		t.Errorf("planned at batch %d: a 2500 tokens/s run decodes many sequences together", e.MicroBatch)
	}
	if f := res.Baseline.JobFactor; f < 0.5 || f > 2 {
		t.Errorf("job factor %.2f: at the implied batch the model and the run should roughly agree", f)
	}
	said := strings.Join(res.Assumptions, "\n")
	if !strings.Contains(said, "sequences decoded together") {
		t.Errorf("the implied batch is not said:\n%s", said)
	}
	// one stream's rate measured: no batch is implied
	one := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{h100},
		Job:      Job{Model: mustModel(t, c, "qwen2.5-7b"), Workload: Inference},
		Baseline: &Baseline{Value: 45, Unit: TokensPerS, Hardware: a6000}})
	if one.Plans[0].MicroBatch != 1 {
		t.Errorf("a one-stream rate planned at batch %d", one.Plans[0].MicroBatch)
	}
}

// A step time measured with no batch said, far under what the assumed
// batch takes on the measured hardware, is a smaller batch: the plan takes
// the batch whose step fits it, says so, and claims no MFU a GPU cannot
// reach; with the batch said, it keeps it and says the MFU is impossible.
func TestBaselineStepTimeWithAnImpossibleMFU(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "llama-2-7b"), Workload: Finetune, SeqLen: 2048}
	a100 := mustGPU(t, c, "a100", 4)
	h200 := mustGPU(t, c, "h200", 4)
	res := mustPlan(t, c, Request{Job: job, NoSearch: true, Targets: []Hardware{h200},
		Baseline: &Baseline{Value: 1.2, Unit: SecPerStep, Hardware: a100}})
	if res.Baseline == nil || res.Baseline.MeasuredMFU > maxSustainedMFU || !strings.Contains(strings.Join(res.Assumptions, " "), "the batch that step fits") {
		t.Errorf("1.2 s/step on 4x A100 with no batch said: MFU %.2f, assumptions %v", res.Baseline.MeasuredMFU, res.Assumptions)
	}
	if res.Job.GlobalBatch >= 16 {
		t.Errorf("global batch %d: want the smaller batch the step implies", res.Job.GlobalBatch)
	}
	job.GlobalBatch = 64 // said: the run's own batch, far too much work for 1.2 s
	res = mustPlan(t, c, Request{Job: job, NoSearch: true, Targets: []Hardware{h200},
		Baseline: &Baseline{Value: 1.2, Unit: SecPerStep, Hardware: a100}})
	if res.Job.GlobalBatch != 64 || strings.Contains(strings.Join(res.Assumptions, " "), "the batch that step fits") {
		t.Errorf("batch said: global %d, assumptions %v", res.Job.GlobalBatch, res.Assumptions)
	}
}

// A forward model's measured rate far above what a batch of 1 runs at is
// a batched run: the plan takes the batch that reaches it, so the target
// GPU is compared at the same batch (an L4 beats the T4 it replaces).
func TestBaselineSamplesPerSecondImpliesABatch(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "resnet-50"), Workload: Inference}
	t4 := mustGPU(t, c, "t4", 1)
	l4 := mustGPU(t, c, "l4", 1)
	res := mustPlan(t, c, Request{Job: job, NoSearch: true, Targets: []Hardware{l4},
		Baseline: &Baseline{Value: 2000, Unit: SamplesPerS, Hardware: t4}})
	e := res.Plans[0]
	if e.MicroBatch < 8 || e.Throughput.SamplesPerS < 2000 {
		t.Errorf("2000 images/s on a T4: L4 planned at batch %d, %.0f images/s; want a batch and more than the T4's", e.MicroBatch, e.Throughput.SamplesPerS)
	}
	if !strings.Contains(strings.Join(res.Assumptions, " "), "what a batch of 1 runs at") {
		t.Errorf("the implied batch is not said: %v", res.Assumptions)
	}
}
