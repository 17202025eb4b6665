package planner

import (
	"math"
)

// forwardOnly reports whether inference with m is one forward pass per
// sample (encoders, ViT, CNNs) rather than token-by-token generation.
func forwardOnly(m Model) bool {
	return m.Kind == Encoder || m.Kind == VisionViT || m.Kind == VisionConv || !m.IsTransformer()
}

// ForwardOnly is forwardOnly for the request language, which names
// TensorRT for these models and TensorRT-LLM for decoders.
func (m Model) ForwardOnly() bool { return forwardOnly(m) }

// engineKernels is the number of kernels a TensorRT engine runs for one
// forward pass: its BERT plugins fuse a transformer layer into 7 (QKV
// GEMM, fused attention, output GEMM, skip+LayerNorm, FC1 with GELU, FC2,
// skip+LayerNorm), plus embeddings+LayerNorm and the head; a CNN layer
// is one convolution with its batch norm and activation folded in.
func engineKernels(m Model) float64 {
	if m.Layers <= 0 {
		return 0
	}
	if m.Kind == VisionConv || !m.IsTransformer() {
		return float64(m.Layers) + 2
	}
	return 7*float64(m.Layers) + 3
}

// forwardFlops is the work of one sample's forward pass, and its
// attention-score part: CNN/ViT from the catalogue's per-image forward
// GFLOPs, encoders 2·N per token (no LM head: classification/QA heads are
// tiny) plus the s² attention scores.
func forwardFlops(m Model, seq int) (total, attn float64) {
	if m.FwdGFLOPs > 0 && (m.Kind == VisionConv || m.Kind == VisionViT || !m.IsTransformer()) {
		return m.FwdGFLOPs * 1e9, 0
	}
	s := float64(seq)
	n := computeParams(m, Inference, HF)
	attn = 4 * float64(m.Layers) * m.attnSpan(s) * s * float64(m.Heads*m.headDim()) * s
	return 2*n*s + attn, attn
}

// evaluateForward plans inference of a forward-only model: each GPU runs a
// replica on its share of the batch; a batch takes max(compute at the
// calibrated forward-pass utilization, reading the weights once).
func (pc *planContext) evaluateForward(h Hardware, l layout) Estimate {
	j := pc.job
	g := h.GPU
	m := j.Model
	mem := inferenceMemory(pc.prm, j, l)
	b := float64(l.micro)
	n := float64(h.Count)
	F, attn := forwardFlops(m, j.SeqLen)
	peakP := l.precision
	if peakP == INT4 || (peakP == INT8 && !g.Supports(INT8)) {
		peakP = FP16
	}
	peak := effectivePeak(g, peakP) * 1e12
	if peak == 0 {
		peak = effectivePeak(g, FP32) * 1e12
	}
	tokens := b * 256 // a CNN image fills the GPU like a ~256-token sequence (as in training)
	if m.IsTransformer() {
		tokens = b * float64(j.SeqLen)
	}
	engine := j.Engine.Compiled()
	if engine {
		j.Stack, j.Engine = Tuned, EngineTensorRT // the engine's own fused kernels, whatever trained the model
	}
	u := pc.prm.InferCompute * hfu(pc.prm, j, l, tokens) * pc.jobFactor
	tAttn := attn / (peak * u * pc.prm.AttnFlash)
	if l.attention == Eager && m.IsTransformer() && !engine {
		// forward only: a third of the training passes
		tAttn = attn/(peak*u) + eagerScoreBytes(m, j.SeqLen, l.precision)*pc.prm.EagerPasses/3/(g.MemBWGBs*1e9*pc.jobFactor)
	}
	compute := b * ((F-attn)/(peak*u) + tAttn)
	weights := m.Params() * weightBytesInference(l.precision)
	gpu := math.Max(compute, weights/(g.MemBWGBs*1e9*pc.prm.DecodeBW))
	var batch float64
	var hostBound bool
	if engine {
		// Enqueued from C++ in one call, the kernels run back to back:
		// the floor is each kernel's own minimum time on the GPU, which
		// shrinks with the platform's and TensorRT's generation as the
		// host's operators do (TensorRT 7 on a V100 runs BERT-base at
		// batch 1 in 1.37 ms, TensorRT 10 on an A100 in 0.62 ms).
		batch, _ = blendIssue(pc.prm, engineKernels(m)*pc.prm.EngineKernelS*opS(pc.prm, g)/pc.prm.LaunchS, gpu)
	} else if j.Engine == EngineGraph {
		batch, hostBound = blendIssue(pc.prm, graphOps(pc.prm, m)*opS(pc.prm, g), gpu)
	} else {
		batch, hostBound = withLaunchFloor(pc.prm, g, m, gpu)
	}

	e := Estimate{
		GPU: g.ID, GPUName: g.Name, GPUs: h.Count, Nodes: 1, Server: h.Server, Interconnect: "none (independent replicas)",
		Precision: l.precision, TensorParallel: 1, PipelineParallel: 1, MicroBatch: l.micro, GradAccum: 1,
		GlobalBatch: l.micro * h.Count, Memory: mem, PriceUSDPerGPUH: g.PriceUSD, hw: h, layout: l, ScalingEfficiency: 1,
	}
	e.Strategy = "single GPU"
	if h.Count > 1 {
		e.Strategy = pc.pr.Tf("%d replicas (one per GPU)", h.Count)
	}
	e.HostBound = hostBound
	e.InferencePath = "forward"
	if !m.IsTransformer() || m.Kind == VisionViT {
		e.InferencePath = "images"
	}
	e.Time.StepS = batch
	e.Time.BatchLatencyS = batch
	sps := b * n / batch
	e.Throughput.SamplesPerS = sps
	if m.IsTransformer() && m.Kind != VisionViT {
		e.Throughput.TokensPerS = sps * float64(j.SeqLen)
		e.Throughput.TokensPerSPerGPU = e.Throughput.TokensPerS / n
	}
	e.MFU = sps * F / (n * peak)
	e.HFU = e.MFU
	e.ModelTFLOPsPerGPU = sps * F / n / 1e12
	e.HWTFLOPsPerGPU = e.ModelTFLOPsPerGPU
	pc.fillTime(&e, sps)
	return e
}

// eagerScoreBytes is one pass over the materialised attention scores of
// one sample: heads × s² elements per layer, at the activation size.
func eagerScoreBytes(m Model, seq int, p Precision) float64 {
	s := float64(seq)
	return float64(m.Layers) * float64(m.Heads) * s * s * activationBytes(p)
}

// RateText is the throughput of an inference estimate in its own unit, for
// cards: tokens/s for decoders, sequences/s for encoders, images/s for
// vision models, with the batch latency for forward-only models.
func (e *Estimate) RateText() string { return e.RateTextIn(nil) }

// RateTextIn is RateText written for pr's reader; nil means English.
func (e *Estimate) RateTextIn(pr Printer) string {
	pr = printerOr(pr)
	if e.Serving != nil {
		return e.servingText(pr)
	}
	switch e.InferencePath {
	case "images":
		return pr.Tf("%s images/s at batch %d per GPU (%.1f ms per batch)", sig3(e.Throughput.SamplesPerS), e.MicroBatch, e.Time.BatchLatencyS*1000)
	case "forward":
		return pr.Tf("%s sequences/s (%s tokens/s) at batch %d per GPU (%.1f ms per batch)", sig3(e.Throughput.SamplesPerS),
			sig3(e.Throughput.TokensPerS), e.MicroBatch, e.Time.BatchLatencyS*1000)
	default:
		return pr.Tf("%s tokens/s over %d sequences (%.1f ms per token each)", sig3(e.Throughput.TokensPerS), e.MicroBatch, e.Time.PerTokenS*1000)
	}
}
