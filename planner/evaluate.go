package planner

import (
	"fmt"
	"math"
	"strings"
)

// One layout evaluated: memory, step time and throughput, and the
// description the card shows.

// evaluate computes memory, speed, time and cost of one layout.
func (pc *planContext) evaluate(h Hardware, l layout) Estimate {
	j := pc.job
	if j.Workload == Inference {
		return pc.evaluateInference(h, l)
	}
	s := pc.size(l)
	t := pc.timeStep(&h, &s)
	g := h.GPU
	n := h.Count
	perNode := gpusPerNode(h)
	l = s.l
	e := Estimate{
		GPU: g.ID, GPUName: g.Name, GPUs: n, Nodes: max(1, (n+perNode-1)/perNode), Server: h.Server,
		Interconnect: t.linkDesc, Precision: l.precision, TensorParallel: l.tp, PipelineParallel: l.pp,
		Checkpointing: l.ckpt, SelectiveRecompute: l.selective, MicroBatch: l.micro, GradAccum: s.ga, GlobalBatch: s.global, Memory: s.mem,
		PriceUSDPerGPUH: g.PriceUSD, hw: h, layout: l, ScalingEfficiency: t.scaling, HostBound: t.hostBound,
	}
	e.Strategy = strategyName(l)
	if ep := l.ep(pc.job.Model); ep > 1 {
		e.Strategy += fmt.Sprintf(" + EP%d", ep) // the experts split over the data-parallel GPUs
	}
	sps := t.samplesPerS(&s)
	e.Throughput.SamplesPerS = sps
	if t.perToken {
		seq := float64(j.SeqLen)
		e.Throughput.TokensPerS = sps * seq
		e.Throughput.TokensPerSPerGPU = sps * seq / float64(n)
	}
	e.Time.StepS = t.step
	e.MFU = sps * t.perSampleModel / (float64(n) * t.peak)
	e.HFU = sps * t.perSampleHW / (float64(n) * t.peak)
	e.ModelTFLOPsPerGPU = sps * t.perSampleModel / float64(n) / 1e12
	e.HWTFLOPsPerGPU = sps * t.perSampleHW / float64(n) / 1e12
	pc.fillTime(&e, sps)
	return e
}

// sizedLayout is a training layout with its micro-batch (in l.micro),
// gradient accumulation, global batch and per-GPU memory: the first half
// of evaluate, and all the search needs to rule a layout out.
type sizedLayout struct {
	l          layout
	ga, global int
	mem        Memory
	probeGiB   float64 // per GPU at micro-batch 1
}

// size picks the micro-batch of l and its memory.
func (pc *planContext) size(l layout) sizedLayout {
	j := &pc.job
	// Memory at micro 1 gives the largest micro-batch that fits.
	l.micro = 1
	probe := trainingMemory(pc.prm, *j, l, false)
	micro, ga, global := pc.microFor(l, max(1, probe.MaxMicroBatch))
	mem := probe // at micro 1 the probe is the answer
	if micro != 1 {
		l.micro = micro
		mem = trainingMemory(pc.prm, *j, l, false)
	}
	return sizedLayout{l: l, ga: ga, global: global, mem: mem, probeGiB: probe.PerGPUGiB}
}

// timedStep is the second half of evaluate: one optimizer step of a sized
// layout, and the per-sample FLOPs the card's utilization figures use.
type timedStep struct {
	step, scaling                     float64
	perSampleModel, perSampleHW, peak float64
	perToken, hostBound               bool
	linkDesc                          string
}

func (t *timedStep) samplesPerS(s *sizedLayout) float64 { return float64(s.global) / t.step }

// timeStep is long on purpose: compute, communication, bubble and
// optimizer step share their intermediate values, in the order the model
// computes them. It takes pointers: the search times thousands of layouts
// and each carries its GPU.
func (pc *planContext) timeStep(h *Hardware, s *sizedLayout) timedStep {
	j := &pc.job
	l, micro, ga := &s.l, s.l.micro, s.ga
	g := &h.GPU
	f := trainingFlops(*j, *l)
	seq := float64(j.SeqLen)
	perSampleHW := f.hardware
	perSampleModel := f.model
	perSampleAttn := f.attn
	tokensPerMicro := float64(micro)
	if f.perToken {
		perSampleHW *= seq
		perSampleModel *= seq
		perSampleAttn *= seq
		tokensPerMicro *= seq
	} else {
		tokensPerMicro = float64(micro) * 256 // CNN: images fill the GPU like ~256-token sequences
	}
	peak := effectivePeak(*g, l.precision) * 1e12
	u := hfu(pc.prm, *j, *l, tokensPerMicro/float64(l.tp*l.cpDeg())) * pc.jobFactor
	// Compute time of one micro-batch on one GPU (its share under TP/PP).
	mpShare := float64(l.tp * l.pp)
	cpShare := float64(l.cpDeg())
	tAttn := perSampleAttn / (peak * u * pc.prm.AttnFlash)
	if l.attention == Eager && f.perToken {
		passes := pc.prm.EagerPasses
		if l.ckpt {
			passes *= 4.0 / 3 // the forward runs twice
		}
		tAttn = perSampleAttn/(peak*u) + eagerScoreBytes(j.Model, j.SeqLen, l.precision)*passes/(g.MemBWGBs*1e9*pc.jobFactor)
	}
	tMicro := float64(micro) * ((perSampleHW-perSampleAttn)*moeExpertFactor(pc.prm, j, l, peak*u)/(peak*u) + tAttn) / mpShare / cpShare
	tMicro += qloraDequantS(pc.prm, *j, *l) / pc.jobFactor
	tMicro += loraAdapterS(pc.prm, *j, *l, tokensPerMicro) / pc.jobFactor
	tMicro, hostBound := withTrainLaunchFloor(pc.prm, *g, j.Model, j.Stack, l.ckpt, l.pp, tMicro)
	tCompute := tMicro * float64(ga)
	var exposed float64
	if j.ActivationOffload {
		// saved activations out over PCIe in forward and back in
		// backward, on a side stream behind the micro-batch's compute
		stored, _, _ := activationPerSample(pc.prm, j.Model, j.Workload, *l, j.SeqLen, j.Stack)
		copyS := 2 * stored * float64(micro) / pcieBytesPerS(pc.prm, *g)
		exposed = float64(ga) * math.Max(0, copyS-offloadOverlap*tMicro)
	}

	n := h.Count
	perNode := gpusPerNode(*h)
	busGBs, linkDesc := linkGBs(pc.prm, *g, n, perNode, h.Interconnect)
	dp := l.shardDP() // gradients are reduced over data × context parallel ranks
	held := heldParams(j.Model, *l)
	trainable := held
	if j.Workload == LoRA || j.Workload == QLoRA {
		trainable = loraParams(j.Model, j.LoRARank)
	}
	if dp > 1 {
		gradBytes := 4.0
		if j.Stack.Fused() && l.precision != FP32 && l.precision != TF32 {
			gradBytes = 2
		}
		bytes := trainable * gradBytes / mpShare
		ring := 2 * float64(dp-1) / float64(dp)
		tAR := ring * bytes / (busGBs * 1e9)
		if l.strategy == ZeRO3 || l.strategy == FSDP {
			// Every held parameter is all-gathered for the forward and
			// again for the backward, every micro-batch, in the format
			// it is stored in (16-bit under mixed precision, fp32 in an
			// fp32 run; a LoRA job's frozen base too: FSDP and ZeRO-3
			// shard it and gather it like any weight, NF4 for QLoRA);
			// only the trainable parameters' gradients are
			// reduce-scattered (half the all-reduce's volume). A full
			// fine-tune moves 1.5x the all-reduce volume per micro-batch.
			wb := activationBytes(l.precision) * held
			if j.Workload == LoRA || j.Workload == QLoRA {
				wb = frozenBaseBytes(*j, l.precision, held)
			}
			gather := float64(dp-1) / float64(dp) * wb / mpShare / (busGBs * 1e9)
			perMicro := 2*gather + tAR/2
			exposed += float64(ga) * math.Max(minExposedComm*perMicro, perMicro-0.8*tMicro)
		} else {
			exposed += math.Max(minExposedComm*tAR, tAR-pc.prm.Overlap*tMicro*2/3)
		}
	}
	if cp := l.cpDeg(); cp > 1 {
		// Ring attention passes every chunk's K and V around the cp ranks
		// (and dK, dV back in backward), mostly hidden behind attention.
		nodeGBs, _ := linkGBs(pc.prm, *g, min(cp*l.tp, perNode), perNode, NVLink)
		kv := float64(micro) * seq / float64(cp) * 2 * float64(j.Model.kvHeads()*j.Model.headDim()) * 2
		tCP := float64(j.Model.Layers) / float64(l.pp) * 3 * float64(cp-1) * kv / float64(l.tp) / (nodeGBs * 1e9)
		exposed += pc.prm.TPExposed * tCP * float64(ga)
	}
	if l.tp > 1 {
		// Four all-reduces of the activations per layer (two forward, two
		// backward) over the node's NVLink, mostly overlapped.
		nodeGBs, _ := linkGBs(pc.prm, *g, l.tp, perNode, NVLink)
		act := float64(micro) * seq * float64(j.Model.Hidden) * 2
		tTP := float64(j.Model.Layers) / float64(l.pp) * 4 * 2 * float64(l.tp-1) / float64(l.tp) * act / (nodeGBs * 1e9)
		exposed += pc.prm.TPExposed * tTP * float64(ga)
	}
	bubble := 0.0
	if l.pp > 1 {
		// 1F1B bubble, shrunk by the interleaved schedule (virtual stages)
		// that tuned stacks use when each stage holds enough layers.
		v := 1.0
		if j.Stack == Tuned && j.Model.Layers/l.pp >= 4 {
			v = 4
		}
		bubble = float64(l.pp-1) / (v*float64(ga) + float64(l.pp-1))
	}
	if ep := l.ep(j.Model); ep > 1 {
		// Token all-to-all: dispatch and combine, forward and backward, of
		// top-k copies of every token's hidden state, per MoE layer; half
		// of it overlapped with expert GEMMs.
		a2aGBs, _ := linkGBs(pc.prm, *g, ep*l.tp, perNode, h.Interconnect) // rank order tp-ep-dp-pp: an expert group spans ep·tp neighbouring GPUs
		tokens := float64(micro) * seq
		bytes := 4 * tokens * float64(j.Model.TopK) * float64(j.Model.Hidden) * 2 * float64(ep-1) / float64(ep)
		exposed += 0.5 * float64(j.Model.Layers) / float64(l.pp) * bytes / (a2aGBs * 1e9) * float64(ga) / float64(l.tp)
	}
	// Optimizer step: read and write every state byte once.
	sb := jobStateBytes(*j, l.precision)
	if j.Workload == LoRA || j.Workload == QLoRA {
		sb = stateBytes{4, 4, 8}
	}
	shard := mpShare
	if l.strategy != DDP {
		shard *= float64(dp)
	}
	tOpt := trainable * (sb.weights + sb.grads + sb.optim) * 2 / shard / (g.MemBWGBs * 1e9 * 0.8)
	if j.Offload != OffloadNone {
		tOpt, exposed = pc.offloadTime(*j, *h, *l, trainable/shard, held/shard, sb, tMicro, ga, exposed)
	}
	// Paged optimizer states that did not fit are paged in for the step
	// and evicted again by the next forward pass.
	tOpt += 2 * pagedSpill(s.mem) / pcieBytesPerS(pc.prm, *g)

	ideal := tCompute * (1 + bubble)
	step := ideal + exposed
	sync := 1.0
	if n > 1 {
		sync = 1 - pc.prm.SyncLoss*math.Log2(float64(n))
	}
	step = step/sync + tOpt
	scaling := 1.0
	if n > 1 {
		scaling = (tCompute) / (step - tOpt)
	}
	return timedStep{step: step, scaling: scaling, perSampleModel: perSampleModel, perSampleHW: perSampleHW,
		peak: peak, perToken: f.perToken, hostBound: hostBound, linkDesc: linkDesc}
}

// fillTime turns throughput into epoch/total hours, GPU-hours and cost.
func (pc *planContext) fillTime(e *Estimate, sps float64) {
	info := pc.info
	e.Time.HoursPerMillionSamples = 1e6 / sps / 3600
	if info.EpochSamples > 0 {
		eh := info.EpochSamples / sps / 3600
		e.Time.EpochHours = &eh
		if e.GlobalBatch > 0 {
			e.Time.StepsPerEpoch = math.Ceil(info.EpochSamples / float64(e.GlobalBatch))
		}
	}
	e.Goodput = 1
	if info.AmountKnown {
		var total float64
		total, e.Goodput = pc.totalHours(e.GPUs, sps)
		gh := total * float64(e.GPUs)
		cost := gh * e.PriceUSDPerGPUH
		e.Time.TotalHours, e.GPUHours, e.CostUSD = &total, &gh, &cost
	}
}

// totalHours is the wall clock of the whole run on gpus GPUs at sps
// samples/s, with the goodput it assumes.
func (pc *planContext) totalHours(gpus int, sps float64) (total, gp float64) {
	steady := pc.info.TotalSamples / sps / 3600
	gp = goodput(gpus, steady)
	return steady / gp, gp
}

// rankHours is a training estimate's sortKeyHours from its throughput,
// without building the estimate.
func (pc *planContext) rankHours(gpus int, sps float64) float64 {
	if pc.info.AmountKnown {
		total, _ := pc.totalHours(gpus, sps)
		return total
	}
	return 1e6 / sps / 3600
}

// evaluateInference: decode is memory-bound (weights + KV per token),
// prefill compute-bound.
func (pc *planContext) evaluateInference(h Hardware, l layout) Estimate {
	j := pc.job
	if forwardOnly(j.Model) {
		return pc.evaluateForward(h, l)
	}
	if servingJob(j) {
		return pc.evaluateServing(h, l)
	}
	g := h.GPU
	m := j.Model
	mem := inferenceMemory(pc.prm, j, l)
	b := float64(l.micro)
	n := float64(h.Count)
	bw := g.MemBWGBs * 1e9 * pc.prm.DecodeBW
	if l.precision == INT8 || l.precision == INT4 {
		bw *= pc.prm.DequantDecode
	}
	// a mixture of experts reads the experts its batch's tokens are routed to
	weights := weightsTouched(m, m.Params()*weightBytesInference(l.precision), b) / n
	avgCtx := float64(j.SeqLen-j.GenTokens) + float64(j.GenTokens)/2
	kv := kvBytesPerToken(m) * m.attnSpan(avgCtx) / n * avgCtx * b
	peakP := l.precision
	if peakP == INT8 || peakP == INT4 {
		peakP = FP16 // weight-only quantisation computes in 16-bit
	}
	peak := effectivePeak(g, peakP) * 1e12
	if peak == 0 {
		peak = effectivePeak(g, FP32) * 1e12
	}
	// Large batches make decode compute-bound; small ones are already
	// bounded by the weight reads, so no skinny-matmul penalty here.
	compute := 2 * m.ActiveParams() * b / (n * peak * pc.prm.InferCompute * hfu(pc.prm, j, l, 0))
	perToken := math.Max((weights+kv)/bw, compute)
	busGBs, linkDesc := linkGBs(pc.prm, g, h.Count, gpusPerNode(h), h.Interconnect)
	if h.Count > 1 {
		// two all-reduces of b·h per layer per token; latency-bound at small batch
		perToken += float64(m.Layers) * 2 * (ncclAllReduceLatencyS(h.Count) + 2*b*float64(m.Hidden)*2/(busGBs*1e9))
	}
	prompt := float64(j.SeqLen - j.GenTokens)
	// Prefill is a batched forward pass: compute-bound, at the calibrated
	// forward-pass utilization (the training HFU model × InferCompute).
	pl := l
	if pl.precision == INT8 || pl.precision == INT4 {
		pl.precision = FP16
	}
	uPre := pc.prm.InferCompute * hfu(pc.prm, j, pl, prompt*b/n)
	attnPre := 4 * float64(m.Layers) * m.attnSpan(prompt) * prompt / 2 * float64(m.Heads*m.headDim()) // causal: half the score matrix
	prefill := (2*m.ActiveParams() + attnPre/pc.prm.AttnFlash) * prompt * b / (n * peak * uPre)
	e := Estimate{
		GPU: g.ID, GPUName: g.Name, GPUs: h.Count, Nodes: 1, Server: h.Server, Interconnect: linkDesc,
		Precision: l.precision, TensorParallel: h.Count, PipelineParallel: 1, MicroBatch: l.micro, GradAccum: 1,
		GlobalBatch: l.micro, Memory: mem, PriceUSDPerGPUH: g.PriceUSD, hw: h, layout: l, ScalingEfficiency: 1,
	}
	e.Strategy = "single GPU"
	if h.Count > 1 {
		e.Strategy = pc.pr.Tf("tensor parallel ×%d", h.Count)
	}
	// A measured run's factor (rebase) carries to decode and prefill here
	// as in the serving engines' path: what the model does not know about
	// this job's code is in both.
	if pc.eagerDecode {
		perToken, prefill = pc.eagerDecodeTimes(&e, b, perToken, prefill)
	}
	perToken /= pc.jobFactor
	prefill /= pc.jobFactor
	e.InferencePath = "decode"
	e.Time.PrefillS = prefill
	e.Time.PerTokenS = perToken
	reqTime := prefill + float64(j.GenTokens)*perToken
	e.Time.StepS = reqTime
	e.Throughput.TokensPerS = b / perToken
	e.Throughput.TokensPerSPerGPU = e.Throughput.TokensPerS / n
	e.Throughput.SamplesPerS = b / reqTime
	e.MFU = 2 * m.ActiveParams() * e.Throughput.TokensPerS / (n * peak)
	e.HFU = e.MFU
	e.ModelTFLOPsPerGPU = 2 * m.ActiveParams() * e.Throughput.TokensPerS / n / 1e12
	e.HWTFLOPsPerGPU = e.ModelTFLOPsPerGPU
	pc.fillTime(&e, e.Throughput.SamplesPerS)
	return e
}

// eagerDecodeTimes is decode and prefill in eager PyTorch: each token is
// one forward pass issued from Python (decodeOps), blended with the GPU's
// time; e keeps the GPU's own rate (an engine's) for the advice.
func (pc *planContext) eagerDecodeTimes(e *Estimate, batch, perToken, prefill float64) (float64, float64) {
	e.engineTokensPerS = batch / perToken / pc.jobFactor
	issue := decodeOps(pc.job.Model) * opS(pc.prm, e.hw.GPU)
	perToken, e.HostBound = blendIssue(pc.prm, issue, perToken)
	prefill, _ = blendIssue(pc.prm, issue, prefill)
	return perToken, prefill
}

// describe attaches the assumptions and launch line of one estimate.
func (pc *planContext) describe(e *Estimate) {
	j := pc.job
	if j.Workload != Inference && e.Memory.Breakdown == nil {
		e.Memory.Breakdown = trainingMemory(pc.prm, j, e.layout, true).Breakdown
	}
	g := e.hw.GPU
	compute := e.Precision
	if compute == INT8 || compute == INT4 {
		compute = FP16 // weight-only quantisation: matmuls in 16-bit
	}
	peak, _ := g.Peak(compute)
	if e.Strategy == "single GPU" {
		e.Strategy = pc.pr.T("single GPU")
	}
	e.Interconnect = linkLabel(pc.pr, e.Interconnect)
	e.Assumptions = append(e.Assumptions,
		pc.pr.Tf("%s: %.0f dense TFLOPS %s, %.0f GB at %.0f GB/s (%s)", g.Name, peak, compute, g.MemoryGB, g.MemBWGBs, shortSource(g.Source)),
		pc.pr.Tf("price $%.2f per GPU-hour (%s)", g.PriceUSD, g.PriceSource),
	)
	if j.Workload != Inference {
		e.Assumptions = append(e.Assumptions,
			pc.pr.Tf("utilization: %.0f%% of peak (hardware FLOPs), %.0f%% MFU, %s stack", e.HFU*100, e.MFU*100, j.Stack))
		if e.GPUs > 1 {
			e.Assumptions = append(e.Assumptions, pc.pr.Tf("scaling efficiency %.0f%% over %s", e.ScalingEfficiency*100, e.Interconnect))
		}
		if e.Goodput < 0.999 {
			e.Assumptions = append(e.Assumptions, pc.pr.Tf("goodput %.0f%% (restarts, evaluation, checkpoints)", e.Goodput*100))
		}
		if j.GlobalBatch > 0 && e.GlobalBatch != j.GlobalBatch {
			e.Assumptions = append(e.Assumptions, pc.pr.Tf("global batch %d, not the %d requested: %d data-parallel replicas cannot split it evenly, and no layout here keeps it; this is the closest one", e.GlobalBatch, j.GlobalBatch, e.layout.dp()))
		}
	} else {
		switch e.InferencePath {
		case "decode":
			if e.Serving != nil {
				e.Assumptions = append(e.Assumptions, pc.servingAssumption(e))
				break
			}
			if e.HostBound {
				e.Assumptions = append(e.Assumptions, pc.pr.Tf("eager PyTorch decode: each token is a forward pass of ~%.0f operators issued from Python at %.1f µs each, slower than the GPU reads the weights", decodeOps(pc.job.Model), opS(pc.prm, e.hw.GPU)*1e6))
				break
			}
			e.Assumptions = append(e.Assumptions, pc.pr.Tf("prefill is compute-bound; decode reads the weights + KV cache every token at %.0f%% of memory bandwidth (or is compute-bound at large batch)", pc.prm.DecodeBW*100))
		default:
			if e.HostBound {
				e.Assumptions = append(e.Assumptions, pc.pr.Tf("one forward pass per sample, bound at batch %d by the host running ~%.0f eager PyTorch operators at %.1f µs each; each GPU runs its own replica", e.MicroBatch, forwardOps(pc.job.Model), opS(pc.prm, e.hw.GPU)*1e6))
				break
			}
			e.Assumptions = append(e.Assumptions, pc.pr.Tf("one forward pass per sample, compute-bound at batch: %.0f%% of dense peak; each GPU runs its own replica", e.HFU*100))
		}
	}
	if pc.jobFactor != 1 {
		e.Assumptions = append(e.Assumptions, pc.pr.Tf("rebased on your measured run: this job runs at %.2fx the modelled speed", pc.jobFactor))
	}
	switch {
	case e.Memory.OverEngineCap():
		e.Notes = append(e.Notes, pc.pr.Tf("does not fit: needs %.2f GiB per GPU, more than the %.2f GiB of %s's %.1f a serving engine takes (vLLM's gpu_memory_utilization 0.9), which leaves the KV cache no room", e.Memory.PerGPUGiB, e.Memory.EngineCapGiB, g.Name, e.Memory.CapacityGiB))
	case !e.Memory.Fits:
		e.Notes = append(e.Notes, pc.pr.Tf("does not fit: needs %.1f GiB per GPU, %s has %.1f GiB", e.Memory.PerGPUGiB, g.Name, e.Memory.CapacityGiB))
	}
	if j.OptimizerInBackward && e.GradAccum > 1 && j.Workload != LoRA && j.Workload != QLoRA {
		e.Notes = append(e.Notes, pc.pr.Tf("optimizer in backward cannot accumulate gradients: this layout needs %d accumulation steps, so the optimizer would step on every micro-batch of %d — raise the GPU count or lower the global batch", e.GradAccum, e.MicroBatch))
	}
	if j.PureBF16 && e.Precision != BF16 {
		e.Notes = append(e.Notes, pc.pr.Tf("pure bf16 needs bf16 support; %s runs %s with an fp32 master copy", g.Name, e.Precision))
	}
	if g.Vendor != "NVIDIA" {
		e.Notes = append(e.Notes, pc.pr.Tf("%s runs ROCm, not CUDA: check that your PyTorch build and kernels (FlashAttention, bitsandbytes) support it", g.Name))
	}
	e.Launch = launchLine(j, e)
}

func shortSource(s string) string {
	if i := strings.IndexAny(s, ";("); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

func (pc *planContext) offloadTime(j Job, h Hardware, l layout, shardParams, heldShard float64, sb stateBytes, tMicro float64, ga int, exposed float64) (tOpt, exp float64) {
	g := h.GPU
	perNode := float64(min(h.Count, gpusPerNode(h)))
	pcie := pcieBytesPerS(pc.prm, g)
	host := hostMemGBsPerNode * 1e9 / perNode
	// CPU step: read and write the states, read the gradient.
	tCPU := shardParams * (2*sb.optim + sb.grads + 2) / host
	// PCIe: gradients down, 16-bit weights up.
	tPCIe := shardParams * (sb.grads + 2) / pcie
	exp = exposed
	if j.Offload == OffloadFull {
		// weights in for forward and again for backward, every micro-batch
		wb := 2.0
		if j.quantBase() {
			wb = j.baseBytesPerParam()
		}
		perMicro := 2 * heldShard * wb / pcie
		exp += float64(ga) * math.Max(0, perMicro-offloadOverlap*tMicro)
	}
	return tCPU + tPCIe, exp
}

// describeTechniques checks the memory-saving techniques against the job
// and states what each does.
func (pc *planContext) describeTechniques() error {
	j := &pc.job
	if j.Workload == Inference {
		if j.Offload != OffloadNone || j.OptimizerInBackward || j.PureBF16 || j.ContextParallel > 1 || j.ActivationOffload {
			return userError(pc.pr.T("offload, activation offloading, optimizer-in-backward, pure bf16 and context parallel are training techniques; this is an inference plan"))
		}
		return nil
	}
	if j.Stack == Unsloth && !j.Model.IsTransformer() {
		return userError(pc.pr.Tf("Unsloth trains transformers; %s is not one: say `tuned` or `hf`", j.Model.ID))
	}
	if j.Stack == Unsloth {
		// use_gradient_checkpointing="unsloth", the default of its
		// notebooks and docs
		j.Checkpointing, j.ActivationOffload = true, true
		pc.assume(pc.pr.T("Unsloth: its own gradient checkpointing (the default) keeps each layer's input in host memory, and its cross-entropy never builds the logits"))
	} else if j.ActivationOffload {
		pc.assume(pc.pr.T("activation offloading: the activations saved for backward wait in host memory and stream back over PCIe behind the compute"))
	}
	switch j.Offload {
	case OffloadNone:
	case OffloadOptimizer:
		pc.assume(pc.pr.Tf("optimizer offload: optimizer states and fp32 master weights live in host memory and the CPU runs the optimizer step (needs ~%s of host RAM across the job)",
			formatBytes(j.Model.Params()*12)))
	case OffloadFull:
		pc.assume(pc.pr.Tf("full offload: weights, gradients and optimizer states live in host memory; each layer is copied in over PCIe for its forward and backward (needs ~%s of host RAM across the job)",
			formatBytes(j.Model.Params()*18)))
	default:
		return userError(pc.pr.Tf("unknown offload %q: use optimizer or full", j.Offload))
	}
	if j.OptimizerInBackward {
		if j.Workload == LoRA || j.Workload == QLoRA {
			pc.assume(pc.pr.T("optimizer in backward: adapter gradients are stepped as they arrive (little to save: adapters are small)"))
		} else {
			pc.assume(pc.pr.T("optimizer in backward: each parameter is stepped as soon as its gradient is ready, so only one layer's gradients exist at a time; gradient accumulation is not possible"))
		}
	}
	if j.Optimizer.Paged() {
		pc.assume(pc.pr.T("paged optimizer: its states live in CUDA unified memory, outside the peak below; what does not fit beside the job is paged to host RAM and back over PCIe every step"))
	}
	if j.Offload == OffloadOptimizer && j.Strategy == FSDP {
		pc.assume(pc.pr.T("offload here moves only the optimizer (DeepSpeed ZeRO-Offload style); FSDP's CPUOffload(offload_params=True) moves weights and gradients too: say `offload params` for that"))
	}
	if j.PureBF16 {
		pc.assume(pc.pr.T("pure bf16: weights, gradients and optimizer states in bf16 with no fp32 master copy (8 bytes per parameter with AdamW); use Kahan summation or stochastic rounding for long runs"))
	}
	if cp := j.ContextParallel; cp > 1 {
		if !j.Model.IsTransformer() || j.Model.Kind == VisionViT {
			return userError(pc.pr.Tf("context parallel splits token sequences; %s has none", j.Model.ID))
		}
		pc.assume(pc.pr.Tf("context parallel %d: each sequence is split over %d GPUs (ring attention), dividing activations by %d", cp, cp, cp))
	}
	return nil
}

func formatBytes(b float64) string {
	switch {
	case b >= 1e12:
		return trimFloat(math.Round(b/1e11)/10) + " TB"
	default:
		return trimFloat(math.Round(b/1e8)/10) + " GB"
	}
}

// moeExpertFactor stretches a MoE model's matmul time for its routed
// experts: each expert multiplies only the tokens routed to it from the
// whole expert-parallel group (ep × tokens × top-k / experts), and every
// such GEMM costs MoEGEMMS beyond its FLOPs at rate FLOP/s. 1 for a dense
// model.
func moeExpertFactor(p *Params, j *Job, l *layout, rate float64) float64 {
	m := j.Model
	if m.Kind != MoE || p.MoEGEMMS <= 0 || m.Experts == 0 || m.Hidden == 0 || m.Layers == 0 {
		return 1
	}
	_, e := moeSplit(m)
	share := math.Min(1, float64(m.TopK)*e/computeParams(m, j.Workload, j.Stack))
	h := float64(m.Hidden)
	mats := 2.0
	if m.Gated {
		mats = 3
	}
	width := e / (mats * h * float64(max(1, m.Layers))) // one layer's expert: its intermediate size
	tokens := float64(l.ep(m)) * float64(l.micro) * float64(j.SeqLen) / float64(l.tp*l.cpDeg()) * float64(m.TopK) / float64(m.Experts)
	gemm := 2 * tokens * h * width // FLOPs of one expert matrix multiply
	eff := gemm / (gemm + rate*p.MoEGEMMS)
	return 1 - share + share/eff
}

// ncclAllReduceLatencyS is the time of one small all-reduce through NCCL
// across n GPUs of a node: a ring's 2(n − 1) steps, each a few
// microseconds. Measured on a DGX A100 with nccl-tests (Ring, one channel,
// 8-128 bytes): 10 µs on 2 GPUs, 16.9 on 4, 33.7 on 8
// (https://github.com/NVIDIA/nccl-tests/issues/123), 6 µs + 4 µs a GPU
// after the first. Decode without an engine (gpt-fast, plain PyTorch)
// pays it twice a layer per token; the serving engines' one-shot custom
// all-reduce does not grow with n (serving.go). Past 8 GPUs NCCL turns to
// tree and NVLink SHARP algorithms, whose latency grows with log n, not
// n: the 8-GPU ring's figure stands in for them.
func ncclAllReduceLatencyS(n int) float64 {
	return 6e-6 + 4e-6*float64(min(max(n, 2), 8)-1)
}
