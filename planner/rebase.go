package planner

import (
	"fmt"
	"math"
)

// rebase derives the job's own efficiency from a measured run: the ratio of
// measured to modelled speed on the baseline hardware. Every estimate is
// then scaled by it, so what the model does not know about this job (data
// loading, custom layers, eager code) carries to the other hardware, while
// what changes between them (peak, bandwidth, precision, the micro-batch
// memory allows, the interconnect) is still modelled.
func (pc *planContext) rebase(b Baseline) (*BaselineFit, error) {
	if b.Value <= 0 || math.IsNaN(b.Value) || math.IsInf(b.Value, 0) {
		return nil, userError(pc.pr.T("baseline value must be a positive number"))
	}
	if b.Hardware.Count < 1 {
		return nil, userError(pc.pr.T("baseline needs the hardware it was measured on: `baseline 5.67 h/epoch on 4x v100`"))
	}
	switch b.Unit {
	case HoursPerEpoch:
		if pc.info.EpochSamples == 0 {
			return pc.rebaseSameEpoch(b), nil
		}
	case Hours:
		if !pc.info.AmountKnown {
			return pc.rebaseSameWork(b), nil
		}
	case MFU:
		if b.Value > 1 {
			return nil, userError(pc.pr.Tf("an MFU of %.0f%% is more than a GPU's peak: give it as a share of peak, like `mfu 40%%`", b.Value*100))
		}
	case SamplesPerS, TokensPerS, SecPerStep:
	default:
		return nil, userError(pc.pr.Tf("unknown baseline unit %q: use samples/s, tokens/s, s/step, h/epoch or h", b.Unit))
	}
	defer pc.asMeasured(b)()

	// speed returns the predicted value as a rate (higher is faster).
	predict := func() (float64, *Estimate) {
		e := pc.configure(b.Hardware)
		switch b.Unit {
		case SamplesPerS:
			return e.Throughput.SamplesPerS, e
		case TokensPerS:
			return e.Throughput.TokensPerS, e
		case SecPerStep:
			return e.Time.StepS, e
		case MFU:
			return e.MFU, e
		case HoursPerEpoch:
			return *e.Time.EpochHours, e
		default:
			return *e.Time.TotalHours, e
		}
	}
	isRate := b.Unit == SamplesPerS || b.Unit == TokensPerS || b.Unit == MFU
	pc.jobFactor = 1
	pc.impliedBatch(b, predict)
	pc.impliedStepBatch(b, predict)
	first, e0 := predict()
	// Time is not exactly linear in utilization (communication and the
	// optimizer step do not scale with it): a few fixed-point steps make the
	// rebased baseline reproduce the measurement.
	for range 4 {
		p, _ := predict()
		ratio := b.Value / p
		if !isRate {
			ratio = p / b.Value
		}
		pc.jobFactor = math.Min(math.Max(pc.jobFactor*ratio, 0.02), 5)
	}
	_, e := predict()
	fit := &BaselineFit{
		Measured:     b.Value,
		Unit:         b.Unit,
		Hardware:     fmt.Sprintf("%dx %s", b.Hardware.Count, b.Hardware.GPU.Name),
		Predicted:    first,
		JobFactor:    pc.jobFactor,
		MeasuredMFU:  e.MFU,
		BaselinePlan: e,
	}
	if pc.explainFit(fit, b, e0, e, first) {
		return fit, nil
	}
	fit.Explanation += pc.impossibleMFU(b, e)
	return fit, nil
}

// impossibleMFU is what a measured step time adds when, at the batch the
// plan assumed, it would be faster than any GPU sustains: a step's time
// says little without its batch.
func (pc *planContext) impossibleMFU(b Baseline, e *Estimate) string {
	if b.Unit != SecPerStep || !pc.batchAssumed || e.MFU <= maxSustainedMFU {
		return ""
	}
	return pc.pr.Tf(" An MFU of %.0f%% is more than GPUs sustain: the run's batch was probably smaller than the assumed %d sequences of %d tokens; say `batch N seq N` for the measured run.",
		e.MFU*100, e.GlobalBatch, pc.job.SeqLen)
}

// maxSustainedMFU is about the most model FLOPs utilization training
// sustains on any GPU (Megatron's best published runs reach 55-60 %): a
// measured run that implies more was planned on the wrong work.
const maxSustainedMFU = 0.75

// impliedBatch reads a measured decode rate far above one stream's ("2500
// tokens/s on an A6000" for a 7B model, which one sequence reads at ~40)
// as what it must be: many sequences decoded together. With no batch or
// load said, the job takes the batch (or, served by an engine, the
// concurrency) at which the model reaches the measured rate on the
// measured hardware, and every target is planned at it; the factor then
// compares like with like.
func (pc *planContext) impliedBatch(b Baseline, predict func() (float64, *Estimate)) {
	j := &pc.job
	if b.Unit != TokensPerS && b.Unit != SamplesPerS || j.Workload != Inference || j.GlobalBatch > 0 || j.Concurrency > 0 || j.RequestRate > 0 ||
		forwardOnly(j.Model) != (b.Unit == SamplesPerS) {
		return // decoders are measured in tokens/s, forward passes in samples/s
	}
	one, _ := predict()
	if one <= 0 || b.Value < 1.5*one {
		return
	}
	set := func(n int) {
		if servingJob(*j) {
			j.Concurrency = n
		} else {
			j.GlobalBatch = n
		}
	}
	best, bestGap := 0, math.Inf(1)
	reached := false
	type tried struct {
		n    int
		rate float64
	}
	var seen []tried
	for n := 2; n <= 1024; n *= 2 {
		set(n)
		rate, e := predict()
		if e == nil || !e.Memory.Fits || rate <= 0 {
			break
		}
		seen = append(seen, tried{n, rate})
		if gap := math.Abs(math.Log(rate / b.Value)); gap < bestGap {
			best, bestGap = n, gap
		}
		if rate >= b.Value {
			reached = true
			break
		}
	}
	if !reached && len(seen) > 0 {
		// No batch reaches the measured rate: the model is slower than
		// the run at any batch, which the factor carries; plan at the
		// batch where the rate levels off, not at the largest tried.
		top := seen[len(seen)-1].rate
		for _, s := range seen {
			if s.rate >= 0.9*top {
				best = s.n
				break
			}
		}
	}
	set(0)
	if best == 0 {
		return
	}
	set(best)
	if forwardOnly(j.Model) {
		pc.assume(pc.pr.Tf("the measured %s samples/s is %.0fx what a batch of 1 runs at: planned at batch %d, on every target", trimFloat(b.Value), b.Value/one, best))
		return
	}
	pc.assume(pc.pr.Tf("the measured %s tokens/s is %.0fx what one sequence decodes at: planned as %d sequences decoded together, on every target", trimFloat(b.Value), b.Value/one, best))
}

// workScale is how many times the measured run's data the job has, and
// says so among the assumptions when it is not the same.
func (pc *planContext) workScale(b Baseline) float64 {
	if b.WorkScale <= 0 || b.WorkScale == 1 {
		return 1
	}
	pc.assume(pc.pr.Tf("the data is %s× your measured run's, so the work is too", trimFloat(b.WorkScale)))
	return b.WorkScale
}

// asMeasured sets the job to the measured run's precision and model, where
// the baseline names its own ("we ran the 8B at 9 h/epoch; now the 70B"),
// and returns the function that puts the job's back. The run's efficiency
// against the model carries to the job; its own model and precision are
// what the model is compared with.
func (pc *planContext) asMeasured(b Baseline) (restore func()) {
	saved, savedModel := pc.job.Precision, pc.job.Model
	if b.Precision != "" {
		pc.job.Precision = b.Precision
	}
	if b.Model != nil {
		pc.job.Model = *b.Model
	}
	return func() { pc.job.Precision, pc.job.Model = saved, savedModel }
}

// rebaseSameWork plans a measured total ("took 385 h on 1x A6000") whose
// amount of work was not given. For the same job the amount cancels: each
// target takes the measured hours × the modelled speed ratio. The amount
// becomes what the baseline hardware processes in that time, so every
// plan, its cost and the comparison follow from it; the job's own
// efficiency cannot be calibrated (one measurement, two unknowns), so the
// job factor stays 1.
func (pc *planContext) rebaseSameWork(b Baseline) *BaselineFit {
	restore := pc.asMeasured(b)
	e := pc.configure(b.Hardware)
	restore()
	// The measured wall clock includes restarts, evaluation and
	// checkpoints: only its goodput share advanced training.
	steady := b.Value * goodput(e.GPUs, b.Value)
	samples := steady * 3600 * e.Throughput.SamplesPerS * pc.workScale(b)
	pc.info.TotalSamples = samples
	pc.info.AmountKnown = true
	if pc.job.Model.IsTransformer() && pc.job.Model.Kind != VisionViT {
		pc.info.TotalTokens = samples * float64(pc.job.SeqLen)
	}
	hw := fmt.Sprintf("%dx %s", b.Hardware.Count, b.Hardware.GPU.Name)
	pc.info.Amount = pc.pr.Tf("the work of your measured run (%s h on %s; ~%s samples at the modelled speed)", trimFloat(b.Value), hw, countText(pc.pr, samples))
	if b.WorkScale > 0 && b.WorkScale != 1 {
		pc.info.Amount = pc.pr.Tf("%s× %s", trimFloat(b.WorkScale), pc.info.Amount)
	}
	pc.assume(pc.pr.Tf("baseline in hours without the amount of work: for the same job the amount cancels, so each target takes %s h × the modelled speed ratio to %s", trimFloat(b.Value), hw))
	pc.fillTime(e, e.Throughput.SamplesPerS)
	return &BaselineFit{
		Measured:     b.Value,
		Unit:         b.Unit,
		Hardware:     hw,
		Predicted:    b.Value,
		JobFactor:    1,
		MeasuredMFU:  e.MFU,
		BaselinePlan: e,
		Explanation: pc.pr.Tf("Measured %s h in total on %s, with no dataset size: for the same job the amount of work cancels, so each target's time is %s h × (modelled speed on %s ÷ modelled speed on the target). Add the dataset size (`of N samples`, `N tokens`) to also calibrate this job's own efficiency from the run.",
			trimFloat(b.Value), hw, trimFloat(b.Value), hw),
	}
}

// rebaseSameEpoch plans a measured time per epoch ("5.67 h/epoch on 4x
// V100") whose dataset size was not given: for the same job an epoch is the
// same work on every GPU, so each target's epoch takes the measured hours ×
// the modelled speed ratio, and the run is as many epochs as asked (one
// when none were).
func (pc *planContext) rebaseSameEpoch(b Baseline) *BaselineFit {
	restore := pc.asMeasured(b)
	e := pc.configure(b.Hardware)
	restore()
	epochSamples := b.Value * 3600 * e.Throughput.SamplesPerS * pc.workScale(b)
	epochs := pc.job.Epochs
	if epochs <= 0 {
		epochs = 1
		pc.assume(pc.pr.T("epochs not given: 1 epoch"))
	}
	pc.info.EpochSamples = epochSamples
	pc.info.TotalSamples = epochs * epochSamples
	pc.info.AmountKnown = true
	if pc.job.Model.IsTransformer() && pc.job.Model.Kind != VisionViT {
		pc.info.TotalTokens = pc.info.TotalSamples * float64(pc.job.SeqLen)
	}
	hw := fmt.Sprintf("%dx %s", b.Hardware.Count, b.Hardware.GPU.Name)
	if epochs == 1 {
		pc.info.Amount = pc.pr.Tf("%s epoch of your measured run's data (%s h/epoch on %s; ~%s samples an epoch at the modelled speed)",
			trimFloat(epochs), trimFloat(b.Value), hw, countText(pc.pr, epochSamples))
	} else {
		pc.info.Amount = pc.pr.Tf("%s epochs of your measured run's data (%s h/epoch on %s; ~%s samples an epoch at the modelled speed)",
			trimFloat(epochs), trimFloat(b.Value), hw, countText(pc.pr, epochSamples))
	}
	pc.assume(pc.pr.Tf("baseline in h/epoch without the dataset size: an epoch is the same work everywhere, so each target's epoch takes %s h × the modelled speed ratio to %s", trimFloat(b.Value), hw))
	pc.fillTime(e, e.Throughput.SamplesPerS)
	return &BaselineFit{
		Measured:     b.Value,
		Unit:         b.Unit,
		Hardware:     hw,
		Predicted:    b.Value,
		JobFactor:    1,
		MeasuredMFU:  e.MFU,
		BaselinePlan: e,
		Explanation: pc.pr.Tf("Measured %s h per epoch on %s, with no dataset size: an epoch is the same work on every GPU, so each target's epoch takes %s h × (modelled speed on %s ÷ modelled speed on the target). Add the dataset size (`of N samples`) to also calibrate this job's own efficiency from the run.",
			trimFloat(b.Value), hw, trimFloat(b.Value), hw),
	}
}

// impliedStepBatch reads a measured step time far under what the plan's
// assumed batch takes on the measured hardware ("0.45 s/step for qwen3-4b
// full ft on one h100", modelled at 2 s for 32 sequences) as what it must
// be: a smaller batch. With no batch said, the job takes the global batch
// whose modelled step is nearest the measurement, so the factor compares
// like with like instead of claiming an MFU no GPU reaches.
func (pc *planContext) impliedStepBatch(b Baseline, predict func() (float64, *Estimate)) {
	j := &pc.job
	if b.Unit != SecPerStep || !pc.batchAssumed || j.Workload == Inference || j.GlobalBatch <= 1 {
		return
	}
	assumed := j.GlobalBatch
	step, e := predict()
	if e == nil || step <= 0 || step < 1.5*b.Value || e.MFU*step/b.Value <= maxSustainedMFU {
		return
	}
	best, bestGap := assumed, math.Abs(math.Log(step/b.Value))
	for gb := assumed / 2; gb >= 1; gb /= 2 {
		j.GlobalBatch = gb
		s, e := predict()
		if e == nil || s <= 0 {
			break
		}
		if gap := math.Abs(math.Log(s / b.Value)); gap < bestGap {
			best, bestGap = gb, gap
		}
		if s <= b.Value {
			break
		}
	}
	j.GlobalBatch = best
	pc.info.GlobalBatch = best
	if best != assumed {
		pc.assume(pc.pr.Tf("the measured %s s a step is far under what %d sequences take on the measured hardware: planned at a global batch of %d, the batch that step fits", trimFloat(b.Value), assumed, best))
	}
}

// explainFit writes what a fitted baseline means for the plan into fit;
// it reports true for an assumed MFU, which has no measurement to doubt.
func (pc *planContext) explainFit(fit *BaselineFit, b Baseline, e0, e *Estimate, first float64) bool {
	switch {
	case b.Unit == MFU:
		fit.Explanation = pc.pr.Tf("Planned at the MFU you assume, %.0f%% on %s, where the model predicts %.0f%% for that setup (%s, %s): factor %.2f, which the other estimates carry.",
			b.Value*100, fit.Hardware, first*100, e0.Precision, e0.Strategy, pc.jobFactor)
		if b.Value > maxSustainedMFU {
			fit.Explanation += pc.pr.Tf(" No published training run sustains more than about %.0f%%.", maxSustainedMFU*100)
		}
		return true
	case pc.jobFactor > 1:
		fit.Explanation = pc.pr.Tf("Measured %s %s on %s; the model predicts %s for that setup (%s, %s), so this job runs %.0f%% faster than modelled (factor %.2f, MFU %.0f%%). The other estimates carry that factor.",
			trimFloat(b.Value), b.Unit, fit.Hardware, trimFloat(first), e0.Precision, e0.Strategy,
			math.Abs(pc.jobFactor-1)*100, pc.jobFactor, e.MFU*100)
	default:
		fit.Explanation = pc.pr.Tf("Measured %s %s on %s; the model predicts %s for that setup (%s, %s), so this job runs %.0f%% slower than modelled (factor %.2f, MFU %.0f%%). The other estimates carry that factor.",
			trimFloat(b.Value), b.Unit, fit.Hardware, trimFloat(first), e0.Precision, e0.Strategy,
			math.Abs(pc.jobFactor-1)*100, pc.jobFactor, e.MFU*100)
	}
	if pc.jobFactor < 0.33 || pc.jobFactor > 3 {
		fit.Explanation += pc.pr.T(" That is far from the model: check the precision the run really used (say `fp32` in the baseline if AMP was off), data loading, and the batch.")
	}
	return false
}
