package planner

import "math"

// Utilization model parameters. They are few and physical, fitted to the
// throughput rows of the calibration set (docs/planner.md has the fit and
// the back-test):
//
//	HFU = e0 · g / (1 + R · k · (α + β/h)) · T/(T+T0)
//
// R is the GPU's dense peak over its memory bandwidth (FLOP per byte),
// scaled by the activation element size (fp32/tf32 runs move 4-byte
// activations); α + β/h is the memory traffic of the non-matmul work per
// matmul FLOP, which falls with the hidden size h; k multiplies that
// traffic for stacks that do not fuse elementwise kernels; g is a
// per-generation maturity factor; T is tokens per micro-batch.
const (
	utilE0    = 0.97    // matmul efficiency ceiling
	utilAlpha = 0.00195 // non-matmul traffic, size-independent part
	utilBeta  = 3.7     // non-matmul traffic ∝ 1/h
	utilT0    = 64.0    // tokens per micro-batch at which skinny matmuls lose half
	// stackTrafficHF: eager PyTorch/HF Trainer runs layer norms, GELU,
	// dropout, residuals and softmax upcasts as separate kernels and moves
	// ~2.5x the bytes of a fused stack.
	stackTrafficHF = 2.5
	// finetuneTraffic: full fine-tuning recipes (task heads, padding,
	// per-step optimizer) behave like a half-fused stack: NVIDIA's own BERT
	// SQuAD runs sit at 0.62-0.68 of its pre-training utilization.
	finetuneTraffic = 2.2
	// qloraTraffic: NF4 weights are dequantised to bf16 in every forward
	// and backward pass.
	qloraTraffic = 1.8
	// voltaTensor: first-generation tensor cores reach a smaller share of
	// their peak than Ampere/Hopper at the same R.
	voltaTensor = 0.86
	// amdSoftware: ROCm kernels for MI300X trail CUDA's in published
	// training runs; a maturity factor, not a hardware property.
	amdSoftware = 0.75
	// attnKernelRel: FlashAttention reaches about 3/4 of a dense GEMM's
	// share of peak (FlashAttention-2 paper, fwd+bwd on A100).
	attnKernelRel = 0.75
	// attnEagerRel: materialised attention (scores, softmax and dropout
	// over s² values) is memory-bound; FlashAttention's paper measured
	// 2-4x speed-ups over it.
	attnEagerRel = 0.3
	// cnnWidth: the "hidden size" a CNN behaves like in the traffic term:
	// small channel counts and batch-norm/ReLU passes put ResNet-50 at
	// 15-20 % of tensor peak (calibration README).
	cnnWidth = 128
	// tpExposed: share of tensor-parallel all-reduce time not hidden
	// behind GEMMs (sequence parallel + communication overlap).
	tpExposed = 0.25
)

// Communication constants.
const (
	linkEfficiency      = 0.8   // achieved ring bus bandwidth / nominal per-direction link bandwidth
	overlapBackward     = 0.7   // share of the last backward pass that gradient all-reduce hides behind
	minExposedComm      = 0.1   // the last bucket is never hidden
	syncLossPerDoubling = 0.006 // straggler/sync loss per doubling of GPUs (BERT 256 GPUs: 95 % of linear)
	ibGBsPerGPU         = 25.0  // HDR InfiniBand 200 Gb/s per GPU (DGX A100)
	ibNDRGBsPerGPU      = 50.0  // NDR 400 Gb/s per GPU (DGX H100/H200/B200)
)

// Goodput: whole-run wall clock over steady-state time. Llama 3 reported
// 419 unexpected interruptions in 54 days on 16,384 GPUs, ~2e-5 per GPU-hour;
// each costs about half an hour of cluster progress; evaluation and
// checkpoints add ~5 % to multi-day runs.
const (
	failuresPerGPUHour  = 2e-5
	lostHoursPerFailure = 0.5
	evalCkptOverhead    = 0.05
)

// flops describes the work per token (or per sample for CNNs).
type flops struct {
	model    float64 // model FLOPs per token: 6·N + attention (training)
	hardware float64 // what the GPU executes (adds recompute)
	attn     float64 // the attention-score part of hardware FLOPs
	perToken bool
}

// computeParams is the parameter count that costs matmul FLOPs per token:
// input embedding and position lookups are free; an encoder fine-tuned
// for classification has no LM head.
func computeParams(m Model, w Workload, stack Stack) float64 {
	n := m.ActiveParams()
	if !m.IsTransformer() {
		return n
	}
	emb := float64(m.Vocab) * float64(m.Hidden)
	if m.Learned {
		n -= float64(m.MaxCtx) * float64(m.Hidden)
	}
	if !m.Tied {
		n -= emb // the input table is a lookup; the output head stays
	}
	if m.Kind == Encoder {
		switch {
		case w != Pretrain:
			n -= emb // classification/QA heads are tiny
		case stack == Tuned:
			n -= 0.85 * emb // MLM head on masked positions only
		}
	}
	return math.Max(n, m.ActiveParams()*0.05)
}

func trainingFlops(j Job, l layout) flops {
	m := j.Model
	if !m.IsTransformer() || m.Kind == VisionViT {
		per := 3 * m.FwdGFLOPs * 1e9 // forward + backward (2x forward)
		hw := per
		if l.ckpt {
			hw += m.FwdGFLOPs * 1e9
		}
		return flops{model: per, hardware: hw}
	}
	n := computeParams(m, j.Workload, j.Stack)
	attnFwd := 4 * float64(m.Layers) * float64(j.SeqLen) * float64(m.Heads*m.headDim())
	var f flops
	f.perToken = true
	switch j.Workload {
	case LoRA, QLoRA:
		// no weight gradients for the frozen base: forward 2N + input grads 2N
		f.model = 4*n + 3*attnFwd
	default:
		f.model = 6*n + 3*attnFwd
	}
	f.attn = 3 * attnFwd
	f.hardware = f.model
	if l.ckpt {
		f.hardware += 2*n + attnFwd
		f.attn += attnFwd
	}
	return f
}

// effectivePeak returns the dense TFLOPS used for p on g and the
// activation bytes that set R.
func effectivePeak(g GPU, p Precision) float64 {
	v, _ := g.Peak(p)
	return v
}

// hfu is the calibrated hardware FLOPs utilization.
func hfu(j Job, l layout, tokensPerMicro float64) float64 {
	g := l.gpu
	peak := effectivePeak(g, l.precision) * 1e12
	R := peak / (g.MemBWGBs * 1e9) * activationBytes(l.precision) / 2
	k := 1.0
	if j.Stack != Tuned {
		k = stackTrafficHF
	}
	if j.Workload == Finetune {
		k = math.Max(k, finetuneTraffic)
	}
	if j.Workload == QLoRA {
		k *= qloraTraffic
	}
	h := float64(j.Model.Hidden)
	if j.Model.Kind == VisionConv || h == 0 {
		h = cnnWidth
	}
	u := utilE0 / (1 + R*k*(utilAlpha+utilBeta/h))
	switch {
	case g.Generation == Volta && l.precision != FP32:
		u *= voltaTensor
	case g.Generation == CDNA3:
		u *= amdSoftware
	}
	if tokensPerMicro > 0 {
		u *= tokensPerMicro / (tokensPerMicro + utilT0)
	}
	return u
}

// linkGBs returns the achievable per-direction bus bandwidth (GB/s) for
// data-parallel collectives on n GPUs of g over ic, and a description.
func linkGBs(g GPU, n, perNode int, ic Interconnect) (float64, string) {
	if n <= 1 {
		return math.Inf(1), "single GPU"
	}
	if n > perNode || ic == IB {
		ib := ibGBsPerGPU
		if g.Generation == Hopper || g.Generation == Blackwell {
			ib = ibNDRGBsPerGPU
		}
		return ib * linkEfficiency, "multi-node InfiniBand/RoCE"
	}
	pcie := 12.5 // PCIe Gen3 x16 per direction, GB/s; Gen4 and Gen5 double it each
	switch g.PCIeGen {
	case 4:
		pcie = 25
	case 5:
		pcie = 50
	}
	pcieDesc := "PCIe ring all-reduce"
	if g.Consumer && g.NVLinkGBs == 0 {
		pcie *= 0.6 // no P2P on GeForce 40-series: traffic bounces through host memory
		pcieDesc = "PCIe through host memory (no P2P)"
	}
	switch {
	case ic == PCIe:
		return pcie * linkEfficiency, pcieDesc
	case g.SXM && g.NVLinkGBs > 0:
		if g.Generation == Volta && n > 4 {
			// DGX-1 hybrid cube mesh: not all pairs are linked
			return g.NVLinkGBs / 2 * linkEfficiency * 0.8, "NVLink hybrid cube mesh"
		}
		return g.NVLinkGBs / 2 * linkEfficiency, "NVLink/NVSwitch"
	case g.NVLinkGBs > 0 && n == 2:
		return g.NVLinkGBs / 2 * linkEfficiency, "NVLink bridge (pair)"
	case g.NVLinkGBs > 0 && ic == NVLink:
		// bridges join pairs only; the ring crosses PCIe between pairs
		return pcie * linkEfficiency, "NVLink pairs + PCIe between pairs"
	default:
		return pcie * linkEfficiency, pcieDesc
	}
}

// gpusPerNode is how many GPUs share one box for this hardware.
func gpusPerNode(h Hardware) int {
	if h.GPUsPerNode > 0 {
		return h.GPUsPerNode
	}
	if h.GPU.SXM {
		return 8
	}
	if h.Interconnect == IB {
		return min(h.Count, 8)
	}
	return max(h.Count, 1)
}

// goodput is the share of wall-clock time that advances training for a
// run of the given steady-state hours on n GPUs.
func goodput(n int, hours float64) float64 {
	if hours < 24 {
		return 1 / (1 + float64(n)*failuresPerGPUHour*lostHoursPerFailure)
	}
	return (1 - evalCkptOverhead) / (1 + float64(n)*failuresPerGPUHour*lostHoursPerFailure)
}
