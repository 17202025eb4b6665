package planner

import (
	"math"
	"strings"
	"sync"
)

// The utilization model's free constants live in Params (params.go),
// fitted to the calibration rows (fit.go); docs/planner.md has the fit and
// the back-test:
//
//	HFU = E0 · g / (1 + R · k · (Alpha + Beta/h)) · T/(T+T0)
//
// R is the GPU's dense peak over its memory bandwidth (FLOP per byte),
// scaled by the activation element size (fp32/tf32 runs move 4-byte
// activations); Alpha + Beta/h is the memory traffic of the non-matmul work
// per matmul FLOP, which falls with the hidden size h; k multiplies that
// traffic for stacks that do not fuse elementwise kernels; g is a
// per-generation maturity factor; T is tokens per micro-batch.

// Communication constants.
const (
	minExposedComm = 0.1  // the last bucket is never hidden
	ibGBsPerGPU    = 25.0 // HDR InfiniBand 200 Gb/s per GPU (DGX A100)
	ibNDRGBsPerGPU = 50.0 // NDR 400 Gb/s per GPU (DGX H100/H200/B200)
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
		case stack.Fused():
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
	// Training counts every layer's attention over the whole sequence,
	// sliding-window layers too: NeMo's GPT-OSS rows, the only windowed
	// models in the calibration set, run slower than full attention would
	// predict, so the window's saving is not assumed (inference does take
	// it, for the KV cache and prefill).
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
	if j.Preference {
		// the frozen reference model's forward over the same tokens
		f.model += 2*n + attnFwd
		f.attn += attnFwd
	}
	f.hardware = f.model
	if l.ckpt && l.selective {
		// every other GEMM's output is kept: half the forward's GEMMs run
		// again; SDPA's output is kept, so attention does not
		f.hardware += n
	} else if l.ckpt {
		f.hardware += 2*n + attnFwd
		f.attn += attnFwd
	}
	return f
}

// effectivePeak returns the dense TFLOPS g sustains in p: the datasheet
// peak, held down by the card's power limit for tensor-core work.
func effectivePeak(g GPU, p Precision) float64 {
	v, _ := g.Peak(p)
	if p == FP32 {
		return v
	}
	return v * sustainedShare(g)
}

// genWattsPerTF is, for each GPU generation, the least board power per
// dense 16-bit TFLOPS among the catalogue's parts of 250 W or more: what
// that generation's tensor cores cost at the clocks their peaks are
// quoted at (Turing: TITAN RTX, 280 W for 130.5 TFLOPS). The least is
// taken because a large part need not run at its power limit.
var genWattsPerTF = sync.OnceValue(func() map[Generation]float64 {
	w := map[Generation]float64{}
	for _, g := range catalogGPUs {
		pk := g.peak[pkFP16]
		if g.TDPW < 250 || pk == 0 {
			continue
		}
		if v, ok := w[g.Generation]; !ok || g.TDPW/pk < v {
			w[g.Generation] = g.TDPW / pk
		}
	}
	return w
})

// sustainedShare is the share of its datasheet tensor peak g holds under
// sustained load. A card given less power than its generation needs per
// TFLOPS at full clock (a 70 W T4 quotes 65 TFLOPS; a Turing part at
// full clock needs 2.15 W per TFLOPS, 140 W) lowers its clock until it
// fits: the T4 holds about half its peak, the L4 about three quarters;
// every part of 250 W or more, and every other part in the catalogue,
// holds all of it.
func sustainedShare(g GPU) float64 {
	w, ok := genWattsPerTF()[g.Generation]
	pk := g.peak[pkFP16]
	if !ok || g.TDPW == 0 || pk == 0 {
		return 1
	}
	return math.Min(1, g.TDPW/(pk*w))
}

// hfu is the calibrated hardware FLOPs utilization.
func hfu(p *Params, j Job, l layout, tokensPerMicro float64) float64 {
	g := l.gpu
	peak := effectivePeak(g, l.precision) * 1e12
	act := activationBytes(l.precision)
	k := 1.0
	// The stack's traffic terms describe transformer code (unfused layer
	// norms, GELU, dropout, softmax, fp32 residual stream under autocast).
	// CNNs run cuDNN convolutions and batch norm in eager PyTorch on every
	// stack (NVIDIA's own ResNet-50 numbers are eager PyTorch), so they
	// carry no stack penalty.
	if j.Workload == Inference && j.Engine == EngineTensorRT {
		// A TensorRT engine folds bias, GELU, residual and LayerNorm into
		// the GEMMs' epilogues and the attention into one kernel, and
		// runs no dropout: it may move less per FLOP than a training stack.
		k = p.EngineTraffic
		if j.Model.Kind == VisionConv {
			k = p.EngineCNN
		}
		if l.precision == INT8 || l.precision == FP8 {
			// an 8-bit engine (W8A8) keeps its activations in 8 bits
			// between layers
			act = 1
		}
	}
	if !j.Stack.Fused() && j.Model.Kind != VisionConv {
		k = p.StackHF
		if act == 2 && (j.Workload != Inference || j.Engine == EngineGraph) {
			// Eager autocast keeps the residual stream, layer norms and
			// softmax in fp32: its activations are not all 16-bit.
			// Inference loads the model in 16 bits (from_pretrained's
			// torch_dtype, model.half()) and runs no autocast; a graph
			// runtime's mixed-precision policy (TensorFlow's, JAX's) keeps
			// the same fp32 parts as autocast.
			act = p.EagerAMPBytes
		}
	}
	if j.Stack == Tuned && j.Workload != Inference && (l.strategy == FSDP || l.strategy == ZeRO3) && l.n > 1 && j.Model.Kind != VisionConv {
		// PyTorch-native sharded stacks (llm-foundry, torchtitan,
		// DeepSpeed) run PyTorch's own norm, activation and loss kernels
		// where Megatron-Core fuses them with Transformer Engine
		k = p.FSDPTraffic
	}
	R := peak / (g.MemBWGBs * 1e9) * act / 2
	// Task fine-tuning (classification or QA heads on padded batches, a
	// per-step optimizer over small batches) fuses less than pre-training
	// stacks; an encoder served for its task runs that same task code
	// forward. A decoder fine-tuned on its own next-token loss (SFT,
	// packed or not) runs the pre-training code path: same loss, same
	// kernels, so it carries no task penalty (torchtune's full fine-tunes
	// reach the utilization of its LoRA runs on the same card).
	if taskFinetune(j) {
		k = math.Max(k, p.Finetune)
	}
	h := float64(j.Model.Hidden)
	if j.Model.Kind == VisionConv || h == 0 {
		h = p.CNNWidth * cnnIntensity(j.Model)
	}
	u := p.E0 / (1 + R*k*(p.Alpha+p.Beta/h))
	if j.Model.Kind == VisionConv && l.precision != FP32 {
		u *= p.CNNTensor
	}
	if l.precision == TF32 {
		u *= p.TF32
	}
	switch {
	case g.Generation == Volta && l.precision != FP32 && j.Model.Kind != VisionConv:
		// Volta's first tensor cores fall short under transformer GEMMs,
		// not under cuDNN's convolutions (Params.Volta)
		u *= p.Volta
	case g.Generation == CDNA3 || g.Generation == CDNA2:
		u *= p.AMD
	case deskBoard(g) && (j.Workload != Inference || forwardOnly(j.Model)):
		// the clock a desk card holds does not depend on whether the
		// pass is followed by a backward one; decoder serving (vLLM,
		// llama.cpp on a 4090 or 3090) fits best without it
		u *= p.Board
	}
	if tokensPerMicro > 0 {
		u *= tokensPerMicro / (tokensPerMicro + p.T0)
	}
	return u
}

// deskBoard reports whether g is an actively cooled desk card (GeForce, RTX
// workstation). Their datasheet peak is quoted at the rated boost clock,
// which GPU Boost exceeds under sustained load; datacenter parts are
// quoted at their top clock and hold it at best. The same torchtune and
// llm.c-trainer code reaches a larger share of the quoted peak on a 4090
// or an A6000 than on an A100, at every workload.
func deskBoard(g GPU) bool {
	return g.Consumer || containsFold(g.FormFactor, "workstation")
}

// containsFold is strings.Contains(strings.ToLower(s), sub) for a
// lower-case sub, without the copy: hfu asks for every layout the search
// times.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// taskFinetune reports whether j runs task code around the model: a full
// fine-tune of anything but a decoder language model, or an encoder
// serving its task.
func taskFinetune(j Job) bool {
	decoder := j.Model.Kind == Decoder || j.Model.Kind == MoE || j.Model.Kind == ""
	return j.Workload == Finetune && !decoder
}

// loraAdapterS is the time one micro-batch spends on the adapters' own
// memory traffic on an eager stack. PEFT runs each adapted linear's
// low-rank path as separate kernels: A re-reads the layer's input, B
// writes a full-width output, which is scaled and added to the base
// output (2 bytes an element: 2·in + 12·out bytes a token forward);
// backward reads and writes about as much for the input gradient it adds
// to the base's (10·in + 8·out). The rank-16 GEMMs do next to no
// arithmetic, so the bytes set their time, at the streaming share of the
// bandwidth (DecodeBW). Fused stacks (Unsloth's kernels, compiled
// recipes) fold this into the base GEMMs.
func loraAdapterS(p *Params, j Job, l layout, tokens float64) float64 {
	if (j.Workload != LoRA && j.Workload != QLoRA) || j.Stack.Fused() || !j.Model.IsTransformer() {
		return 0
	}
	in, out := loraDims(j.Model)
	fwd := 2*in + 12*out
	bytes := fwd + 10*in + 8*out
	if l.ckpt {
		bytes += fwd // the checkpointed forward runs again
	}
	layers := float64(j.Model.Layers) / float64(l.pp)
	return tokens / float64(l.tp*l.cpDeg()) * bytes * layers / (l.gpu.MemBWGBs * 1e9 * p.DecodeBW)
}

// qloraDequantS is the time one micro-batch spends dequantising the frozen
// NF4 base of a QLoRA job. Every pass over a layer (forward, its recompute
// under checkpointing, backward for the input gradients) dequantises each
// 4-bit weight to bf16 for the GEMM: it reads the packed weight and its
// scales, writes the bf16 copy and the GEMM reads it back, DequantBytes
// per weight per pass at the card's memory bandwidth (DequantBytes
// absorbs the kernels' efficiency). The work is per weight, not per token, so it
// weighs most on small micro-batches and on cards with little bandwidth:
// torchtune's 8B QLoRA on a 4090 runs at 0.78 of its LoRA speed, the 3B
// on an A100 at micro-batch 2 x 4096 at 0.98.
func qloraDequantS(p *Params, j Job, l layout) float64 {
	m := j.Model
	if !j.quantBase() || !m.IsTransformer() {
		return 0
	}
	tables := float64(m.Vocab) * float64(m.Hidden) // embeddings and head stay 16-bit
	if !m.Tied {
		tables *= 2
	}
	// FSDP gathers each layer whole before it is dequantised, so every
	// rank dequantises the full model; tensor and pipeline parallel split it.
	w := math.Max(0, heldParams(m, l)-tables) / float64(l.tp*l.pp)
	passes := 2.0
	if l.ckpt {
		passes = 3
	}
	// DequantBytes is fitted on NF4 (0.52 B read, 2 written, 2 read back
	// by the GEMM); an int8 base reads 1 B in place of the 0.52.
	bytes := p.DequantBytes * (j.baseBytesPerParam() + 4) / (nf4BytesPerParam + 4)
	return passes * w * bytes / (l.gpu.MemBWGBs * 1e9)
}

// linkGBs returns the achievable per-direction bus bandwidth (GB/s) for
// data-parallel collectives on n GPUs of g over ic, and a description.
func linkGBs(p *Params, g GPU, n, perNode int, ic Interconnect) (float64, string) {
	if n <= 1 {
		return math.Inf(1), "single GPU"
	}
	if n > perNode || ic == IB {
		ib := ibGBsPerGPU
		if g.Generation == Hopper || g.Generation == Blackwell {
			ib = ibNDRGBsPerGPU
		}
		return ib * p.LinkEff, "multi-node InfiniBand/RoCE"
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
		return pcie * p.LinkEff, pcieDesc
	case g.SXM && g.NVLinkGBs > 0:
		if g.Generation == Volta {
			// V100 SXM2 boards (DGX-1/HGX-1) have no NVSwitch: a hybrid
			// cube mesh, fully connected only within each quad.
			if n > 4 {
				return g.NVLinkGBs / 2 * p.LinkEff * 0.8, "NVLink hybrid cube mesh"
			}
			return g.NVLinkGBs / 2 * p.LinkEff, "NVLink (fully connected quad)"
		}
		return g.NVLinkGBs / 2 * p.LinkEff, "NVLink/NVSwitch"
	case g.NVLinkGBs > 0 && n == 2:
		return g.NVLinkGBs / 2 * p.LinkEff, "NVLink bridge (pair)"
	case g.NVLinkGBs > 0 && ic == NVLink:
		// bridges join pairs only; the ring crosses PCIe between pairs
		return pcie * p.LinkEff, "NVLink pairs + PCIe between pairs"
	default:
		return pcie * p.LinkEff, pcieDesc
	}
}

// gpusPerNode is how many GPUs share one box for this hardware.
func gpusPerNode(h Hardware) int {
	if h.GPUsPerNode > 0 {
		return h.GPUsPerNode
	}
	if h.GPU.SXM {
		if strings.HasSuffix(h.GPU.ID, "nvl72") {
			// a GB200 NVL72 rack is one NVLink domain of 72 GPUs: tensor
			// and expert parallel groups up to 72 stay on NVLink
			return min(h.Count, 72)
		}
		return 8
	}
	if h.Interconnect == IB {
		return min(h.Count, 8)
	}
	return max(h.Count, 1)
}

// goodput is the share of wall-clock time that advances training for a
// run of the given steady-state hours on n GPUs. Evaluation and
// checkpoint saves grow in from nothing for a short run to their full
// share at a day: a cliff at 24 h made a 39 h run on 4 GPUs take more
// than twice an 19 h run on 8.
func goodput(n int, hours float64) float64 {
	overhead := evalCkptOverhead * math.Min(1, hours/24)
	return (1 - overhead) / (1 + float64(n)*failuresPerGPUHour*lostHoursPerFailure)
}

// resNet50FLOPsPerActivation is ResNet-50's forward FLOPs per activation
// its timm card counts: 8.2 GFLOPs over 11.1M activations at 224².
const resNet50FLOPsPerActivation = 8.2e9 / 11.1e6

// cnnIntensity is how much work a CNN does per value it writes, against
// ResNet-50 (1 for ResNet-50, and for a CNN whose card gives no
// activation count). The traffic term's width plays the part hidden size
// does for a transformer: the FLOPs done per byte moved. A depthwise or
// grouped CNN does few FLOPs per activation — EfficientNet-B0 about a
// sixth of ResNet-50's — so batch norm, activations and the depthwise
// convolutions' reads and writes, not the tensor cores, set its pace.
func cnnIntensity(m Model) float64 {
	if m.Kind != VisionConv || m.ActivationsM <= 0 || m.FwdGFLOPs <= 0 {
		return 1
	}
	return m.FwdGFLOPs * 1e9 / (m.ActivationsM * 1e6) / resNet50FLOPsPerActivation
}
