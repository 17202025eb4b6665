package planner

import (
	"fmt"
	"math"
	"reflect"
)

// Params are the free constants of the performance and memory model: the
// handful of physical quantities the formulas cannot derive from the
// datasheets and the architecture. Their values are not set by hand: they
// start from the priors below (each with its reason) and are fitted to the
// calibration rows (planner/data/backtest.csv) by Fit, a deterministic
// coordinate descent (see fit.go). `go generate ./planner` writes the
// result to params_fit.go; TestFittedParamsAreReproduced refits and fails
// when the checked-in values drift from what the data gives.
type Params struct {
	// HFU = E0 · g / (1 + R·k·(Alpha + Beta/h)) · T/(T + T0)
	E0    float64 // matmul efficiency ceiling
	Alpha float64 // non-matmul memory traffic per matmul FLOP, size-independent part
	Beta  float64 // non-matmul memory traffic per matmul FLOP, ∝ 1/hidden
	T0    float64 // tokens per micro-batch at which skinny matmuls lose half

	StackHF float64 // traffic multiplier k of eager PyTorch / HF Trainer (unfused elementwise kernels)
	// EagerAMPBytes: average bytes per activation element of an eager
	// autocast (AMP) run, between 2 (all 16-bit) and 4 (all fp32).
	EagerAMPBytes float64
	// FSDPTraffic: k of a tuned stack that shards its model with FSDP or
	// ZeRO-3 (llm-foundry, torchtitan, fms-fsdp, DeepSpeed) against a
	// Megatron-Core/Transformer Engine stack's 1.
	FSDPTraffic float64
	Finetune    float64 // k of task fine-tuning (heads on padded batches, per-step optimizer); decoder SFT has none
	// DequantBytes: memory traffic per frozen NF4 weight each time a QLoRA
	// pass dequantises it (read 4-bit + scales, write bf16, GEMM reads it).
	DequantBytes float64

	Volta float64 // g: share of peak first-generation tensor cores reach
	TF32  float64 // g: share of the TF32 peak a GEMM on 4-byte operands reaches against a 16-bit one
	AMD   float64 // g: ROCm software maturity on MI300X
	Board float64 // g: desk cards (GeForce, RTX workstation) against their datasheet peak

	AttnFlash float64 // FlashAttention kernel efficiency relative to a dense GEMM
	// EagerPasses: materialised (eager) attention writes the s² scores
	// and reads/writes them through scaling, mask, softmax and dropout;
	// this is how many times the score tensor crosses memory in a forward
	// and backward pass (its matmuls run as ordinary GEMMs).
	EagerPasses float64
	CNNWidth    float64 // the "hidden size" a CNN behaves like in the traffic term
	// CNNTensor: share of tensor-core peak cuDNN convolutions reach
	// relative to a transformer GEMM (implicit-GEMM tiles over 64-512
	// channels); fp32 on CUDA cores is not affected.
	CNNTensor float64

	// MoEGEMMS: the fixed time each routed expert's matrix multiply
	// costs on top of its FLOPs (tile scheduling, wave tails, the
	// dropless dispatch around it). An expert sees only the tokens routed
	// to it, so a small expert on a fast GPU is mostly this overhead.
	MoEGEMMS float64

	TPExposed float64 // share of tensor-parallel all-reduce time not hidden behind GEMMs
	LinkEff   float64 // achieved ring bus bandwidth / nominal per-direction link bandwidth
	Overlap   float64 // share of the last backward pass the gradient all-reduce hides behind
	SyncLoss  float64 // straggler/synchronisation loss per doubling of GPUs

	// Inference.
	DecodeBW float64 // share of memory bandwidth a decode step reaches reading weights + KV
	// DequantDecode: weight-only int8/int4 kernels dequantise inside the
	// GEMV loop and reach this share of the 16-bit kernels' bandwidth.
	DequantDecode float64
	InferCompute  float64 // share of dense peak a batched forward pass (prefill, encoder, CNN) reaches, before the traffic term
	// LaunchS: host time to run one ATen operator of an eager forward
	// pass (Python, dispatcher, launch) on a PCIe Gen4 host. A forward
	// pass cannot finish before its kernels are issued, so small batches
	// are latency-bound.
	LaunchS float64
	// HostGen: how much slower each older host platform runs an operator,
	// per PCIe generation below Gen4 (and faster per generation above).
	// The GPU says which servers it comes in: V100s sit beside 2016-18
	// Xeons on PCIe Gen3, A100s beside 2019-21 EPYCs and Xeons on Gen4,
	// H100s and later beside 2023+ CPUs on Gen5, each with the PyTorch
	// and CUDA of its years.
	HostGen float64
	// EngineKernelS: the least time one kernel of a TensorRT engine takes
	// on the GPU (launch latency, ramp-up and tail of a tiny grid); a
	// forward pass of small batches is this times its kernel count.
	EngineKernelS float64
	// GraphOps: operators a graph runtime (TensorFlow/XLA, JAX, ONNX
	// Runtime) issues per transformer layer, each at the host's operator
	// cost, against eager PyTorch's 75.
	GraphOps float64
	// EngineTraffic: the traffic multiplier k of a TensorRT engine's
	// forward pass against a fused training stack's (1).
	EngineTraffic float64
	// EngineCNN: the traffic multiplier k of a TensorRT engine's CNN
	// forward pass against eager PyTorch's (1).
	EngineCNN float64
	// LaunchBlend: how kernel issue and GPU execution overlap. A batch
	// takes (issue^k + compute^k)^(1/k): k = 1 is no overlap (their sum),
	// a large k full overlap (the larger of the two).
	LaunchBlend float64

	// Memory.
	AllocHeadroom float64 // caching-allocator fragmentation and temporaries, share of states + activations
}

// paramSpec describes one free constant: its prior (starting point), the
// physical range the fit may move it in, and why.
type paramSpec struct {
	name   string
	prior  float64
	lo, hi float64
	why    string
}

// paramSpecs lists every field of Params in order. The priors are the
// published or physical values the model was built with; the fit moves
// them only as far as the calibration rows ask, inside [lo, hi].
var paramSpecs = []paramSpec{
	{"E0", 0.97, 0.80, 1.00, "cuBLAS GEMMs reach 90-98 % of dense peak at large sizes"},
	{"Alpha", 0.00195, 0.0005, 0.006, "bytes of layer norm, residual, activation traffic per matmul FLOP"},
	{"Beta", 3.7, 1.0, 10.0, "the same traffic falls as 1/h: elementwise work is O(s·h), matmuls O(s·h²)"},
	{"T0", 64, 16, 512, "below a few hundred rows per GEMM tiles under-fill the SMs"},
	{"StackHF", 2.5, 1.2, 5.0, "eager PyTorch moves ~2-3x the bytes of a fused stack"},
	{"EagerAMPBytes", 3, 2, 4, "autocast keeps the residual stream, layer norms and softmax in fp32 (calibration README: eager AMP sits close to the fp32 count)"},
	{"FSDPTraffic", 1.0, 1.0, 3.0, "PyTorch-native sharded stacks run PyTorch's own norm, activation, rotary and loss kernels (compiled or not) where Megatron-Core uses Transformer Engine's fused ones (norm folded into the GEMM, fused bias-activation, fused cross entropy); start from no difference"},
	{"Finetune", 2.2, 1.0, 4.0, "NVIDIA's BERT SQuAD runs sit at 0.62-0.68 of pre-training utilization"},
	{"DequantBytes", 6, 3, 24, "per weight and pass: read 0.52 B of NF4 + scales, write 2 B of bf16, the GEMM reads the 2 B back (4.5 B), at ~75 % of bandwidth; unfused kernels move more"},
	{"TF32", 0.85, 0.6, 1.0, "a TF32 GEMM loads 4-byte operands: twice the bytes per multiply-add through shared memory and L2 of a 16-bit one, so its tiles stall more; cuBLAS reaches ~80-85 % of the TF32 peak where it reaches 90-95 % in 16 bits"},
	{"Volta", 0.86, 0.6, 1.0, "first-generation tensor cores under transformer GEMMs; cuDNN's convolutions are exempt (NVIDIA's ResNet-50 in AMP reaches 24 % of a V100's peak and 19 % of an A100's)"},
	{"AMD", 0.75, 0.5, 1.0, "ROCm kernels trail CUDA's in published training runs (no calibration row: stays at the prior)"},
	{"Board", 1.0, 0.8, 1.4, "GeForce/RTX workstation peaks are quoted at the rated boost clock, which GPU Boost exceeds by 5-15 % under load; start from no difference"},
	{"AttnFlash", 0.75, 0.4, 1.0, "FlashAttention-2 reaches ~3/4 of GEMM efficiency (its paper, A100)"},
	{"EagerPasses", 20, 6, 40, "forward: write scores, scale+mask, softmax, dropout, read for P·V (~7 passes); backward about twice that"},
	{"CNNWidth", 128, 48, 512, "ResNet-50 channel widths and batch-norm passes: 15-20 % of tensor peak"},
	{"CNNTensor", 1.0, 0.4, 1.0, "convolutions map onto tensor-core tiles less well than large GEMMs; start from no penalty"},
	{"MoEGEMMS", 5e-6, 0, 50e-6, "a GEMM kernel costs a few microseconds beyond its FLOPs; grouped expert GEMMs pay it per expert, with the token permutes and the dispatch's host sync around them"},
	{"TPExposed", 0.25, 0.05, 0.8, "sequence parallel plus communication overlap hide most TP all-reduces"},
	{"LinkEff", 0.8, 0.5, 0.95, "nccl-tests bus bandwidth is 70-90 % of nominal link bandwidth"},
	{"Overlap", 0.7, 0.3, 0.95, "DDP buckets overlap the all-reduce with most of the backward pass"},
	{"SyncLoss", 0.006, 0.0, 0.03, "BERT on 256 GPUs kept ~95 % of linear scaling"},
	{"DecodeBW", 0.75, 0.4, 0.95, "decode kernels stream weights at 60-90 % of HBM bandwidth"},
	{"DequantDecode", 0.8, 0.4, 1.0, "dequantising weights inside the GEMV loop costs bandwidth efficiency"},
	{"InferCompute", 1.0, 0.5, 2.0, "a forward pass runs the same GEMMs as training at the same efficiency; backward kernels (dgrad/wgrad) are often less efficient, so it may exceed 1"},
	{"LaunchS", 10e-6, 1e-6, 50e-6, "an eager forward runs 3-6 ATen operators per kernel it launches, which issues every 10-80 µs (dispatcher, autograd-off checks, Python module calls)"},
	{"HostGen", 1.4, 1.0, 2.5, "a server CPU generation runs Python and dispatcher work ~1.2-1.5x faster than the one before (single-thread gains, Broadwell to Ice Lake to Sapphire Rapids), and each era's PyTorch and CUDA launch paths are leaner than the last's"},
	{"EngineKernelS", 5e-6, 1e-6, 30e-6, "a kernel launched behind another starts 2-5 µs later and a small grid takes a few µs to ramp up and drain (CUDA launch-latency measurements); on a PCIe Gen4 platform, scaled by HostGen like the host's operators"},
	{"GraphOps", 30, 5, 75, "XLA fuses a layer's element-wise operators into a dozen or two fusions beside its GEMMs, and its executor dispatches each without Python: well under eager PyTorch's 75"},
	{"EngineCNN", 1.0 / 3, 0.1, 1.0, "TensorRT folds batch norm into the convolution and runs the activation and the residual add in its epilogue: a layer's output is written once and read once, against eager PyTorch's convolution, batch-norm and ReLU outputs, each written and read (no calibration row: stays at the prior)"},
	{"EngineTraffic", 1.0, 0.1, 1.0, "start from a fused training stack's traffic; fused epilogues and one attention kernel can only remove some of it"},
	{"LaunchBlend", 6, 4, 8, "launches are asynchronous: while the GPU is busy the host runs ahead, so issue and execution overlap almost fully (a smooth max); below 4 the host time would add to a GPU-bound batch of 1024, which no asynchronous issue does"},
	{"AllocHeadroom", 0.12, 0.03, 0.20, "measured peaks sit 10-15 % above the component sum; PyTorch's caching allocator reserves 5-20 % over what it has allocated, so no more than 20 %"},
}

// priorParams returns the starting point of the fit.
func priorParams() Params {
	var p Params
	for i, s := range paramSpecs {
		p.set(i, s.prior)
	}
	return p
}

func (p *Params) field(i int) reflect.Value {
	return reflect.ValueOf(p).Elem().FieldByName(paramSpecs[i].name)
}

func (p *Params) get(i int) float64    { return p.field(i).Float() }
func (p *Params) set(i int, v float64) { p.field(i).SetFloat(v) }

// fmtParam writes a fitted value with 4 significant digits: the fit's own
// resolution, so a refit reproduces the file byte for byte.
func fmtParam(v float64) string {
	if v == 0 {
		return "0"
	}
	return fmt.Sprintf("%.4g", v)
}

// roundParam rounds like fmtParam.
func roundParam(v float64) float64 {
	if v == 0 {
		return 0
	}
	d := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*d) / d
}

// FittedParams returns the constants the planner uses.
func FittedParams() Params { return fittedParams }

// params returns the constants of c: the fitted ones unless a fit is
// probing others.
func (c *Catalog) params() *Params {
	if c.prm != nil {
		return c.prm
	}
	return &fittedParams
}

// withParams returns a shallow copy of c that plans with p.
func (c *Catalog) withParams(p *Params) *Catalog {
	return &Catalog{GPUs: c.GPUs, Models: c.Models, prm: p}
}
