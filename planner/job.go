package planner

// Workload is what the GPUs do with the model.
type Workload string

// Workloads. The default (when a request names none) is Finetune for
// catalogue models and Pretrain for models given by size or architecture.
const (
	Pretrain  Workload = "pretrain"
	Finetune  Workload = "finetune"
	LoRA      Workload = "lora"
	QLoRA     Workload = "qlora"
	Inference Workload = "inference"
)

// Strategy is how model state is spread over data-parallel GPUs.
type Strategy string

// Strategies. StrategyAuto lets the planner choose the least sharding that fits.
const (
	StrategyAuto Strategy = ""
	DDP          Strategy = "ddp"
	ZeRO1        Strategy = "zero1"
	ZeRO2        Strategy = "zero2"
	ZeRO3        Strategy = "zero3"
	FSDP         Strategy = "fsdp" // FULL_SHARD: same memory as ZeRO-3
)

// Optimizer decides the optimizer-state bytes per parameter.
type Optimizer string

// Optimizers.
const (
	AdamW    Optimizer = "adamw"
	Adam8bit Optimizer = "adam8bit"
	SGD      Optimizer = "sgd"
	Lion     Optimizer = "lion"
)

// Stack is the software the job runs on: it scales achievable utilization.
type Stack string

// Stacks. HF (Hugging Face Trainer / eager PyTorch) is the default.
const (
	HF    Stack = "hf"
	Tuned Stack = "tuned" // fused kernels, FlashAttention, Megatron/NeMo/llm-foundry class
	// Unsloth is tuned kernels (Triton LoRA, RoPE, norms) plus two memory
	// mechanisms of its own: the cross-entropy never materialises the
	// logits (Cut Cross-Entropy, Unsloth 2024.12 on), and its default
	// gradient checkpointing keeps the checkpoints in host memory.
	Unsloth Stack = "unsloth"
	// Graph is training in a graph runtime: TensorFlow (with XLA) or JAX.
	// The compiler fuses element-wise operators, but its mixed-precision
	// policy keeps the residual stream, norms and softmax in fp32 like
	// autocast, and its kernels are not FlashAttention-class: utilization
	// as eager PyTorch's traffic, issue as a graph's (no Python per op).
	Graph Stack = "xla"
)

// Fused reports whether the stack runs fused kernels (FlashAttention,
// fused norms and activations, a chunked or fused loss) rather than eager
// PyTorch's one kernel per elementwise op.
func (s Stack) Fused() bool { return s == Tuned || s == Unsloth }

// Interconnect is how the GPUs of one job talk to each other.
type Interconnect string

// Interconnects. InterconnectAuto uses what the part has (NVSwitch on SXM
// boards, bridges on PCIe cards that have them, else PCIe); IB means
// several nodes joined by InfiniBand/RoCE.
const (
	InterconnectAuto Interconnect = ""
	NVLink           Interconnect = "nvlink"
	PCIe             Interconnect = "pcie"
	IB               Interconnect = "ib"
)

// Hardware is a GPU type and count.
type Hardware struct {
	GPU          GPU
	Count        int
	Interconnect Interconnect
	// GPUsPerNode is the node size for multi-node jobs; 0 means 8 for SXM
	// parts and the whole count otherwise.
	GPUsPerNode int
	// IDs are physical GPU ids for the launch line (CUDA_VISIBLE_DEVICES);
	// empty means 0..Count-1.
	IDs []int
	// Server names a team server this hardware stands for, if any.
	Server string
}

// Job is one training or inference job, as typed (zero values mean
// "not said": the planner fills defaults and reports them as assumptions).
type Job struct {
	Model    Model
	Workload Workload

	// Amount of work. Epochs with DatasetSamples or DatasetTokens, or
	// Tokens, Samples or Steps on their own.
	Epochs         float64
	DatasetSamples float64
	DatasetTokens  float64
	Tokens         float64
	Samples        float64
	Steps          float64
	StepsPerEpoch  float64 // dataset size as optimizer steps per epoch (× global batch)

	SeqLen            int
	GlobalBatch       int // samples per optimizer step
	GlobalBatchTokens int // alternative to GlobalBatch
	MicroBatch        int // per GPU per forward pass; 0 = largest that fits (capped)

	Precision     Precision // "" = best the GPU supports
	Checkpointing bool      // gradient (activation) checkpointing
	// NoCheckpointing: said without checkpointing ("no ckpt", "체크포인팅
	// 안 켜면"): layouts that recompute are not tried.
	NoCheckpointing bool `json:",omitempty"`
	// SelectiveRecompute: checkpointing that keeps part of each layer
	// (torchtitan's selective op policy, Megatron's selective recompute)
	// instead of its input alone; implies Checkpointing.
	SelectiveRecompute bool
	Attention          Attention // "" = default for the stack
	Strategy           Strategy
	Optimizer          Optimizer // "" = AdamW
	Stack              Stack     // "" = HF
	LoRARank           int       // 0 = 16
	// Base8bit: LoRA on a base loaded in 8 bits (bitsandbytes LLM.int8,
	// `load_in_8bit`, as alpaca-lora and PEFT's early examples ran it):
	// the frozen weights are stored int8 and dequantised for each GEMM's
	// backward like QLoRA's NF4, at twice NF4's bytes.
	Base8bit bool

	// Memory-saving techniques (zero values: off).
	Offload Offload // states kept in host memory instead of on the GPU
	// OptimizerInBackward steps each parameter as soon as its gradient is
	// ready (torchtune optimizer_in_bwd, LOMO): no full gradient buffer,
	// so no gradient accumulation either.
	OptimizerInBackward bool
	// PureBF16 trains with bf16 weights and optimizer states and no fp32
	// master copy (torchtune's default, llm.c-style): 8 bytes per
	// parameter with AdamW instead of 18.
	PureBF16 bool
	// Preference is DPO-style preference training (DPO, IPO): every
	// sample is a pair, a chosen and a rejected answer, run as two
	// sequences in one batch, and a frozen reference model scores both
	// (the base itself with the adapters off under LoRA/QLoRA, a second
	// copy of the weights otherwise). Samples, DatasetSamples, MicroBatch
	// and GlobalBatch count pairs.
	Preference bool `json:",omitempty"`
	// ContextParallel splits every sequence over this many GPUs (ring
	// attention, Megatron/NeMo context parallelism); 0 or 1 = off.
	ContextParallel int
	// TensorParallel and PipelineParallel are a layout said ("tp 8 pp
	// 2"): the measured run's when there is one, else the named
	// targets'; the recommendation search picks its own. 0: the search
	// picks. A served model is split over the GPUs it is given.
	TensorParallel   int `json:",omitempty"`
	PipelineParallel int `json:",omitempty"`
	// ActivationOffload keeps the activations saved for backward (the
	// layer inputs under checkpointing) in host memory: torchtune's
	// enable_activation_offloading, Unsloth's checkpointing, DeepSpeed's
	// cpu_checkpointing. They stream out during forward and back during
	// backward on a side stream.
	ActivationOffload bool `json:",omitempty"`

	// Inference: GlobalBatch concurrent sequences of SeqLen context
	// (prompt + generated tokens); GenTokens is the generated part.
	GenTokens int

	// Serving (inference only; zero values: one static batch). Engine is
	// the inference engine: a batched server (vLLM, TGI, TensorRT-LLM,
	// SGLang) is planned with continuous batching, a local one (llama.cpp,
	// Ollama) as streams from a GGUF file.
	Engine Engine `json:",omitempty"`
	// Instruct: the instruction-tuned checkpoint was named
	// ("qwen2.5-7b-instruct", "gemma-2-9b-it"): a launch line serves its
	// repository, not the base one the catalogue row cites.
	Instruct bool `json:",omitempty"`
	// Repo is the Hugging Face repository the asker named when a catalogue
	// model stands in for it ("mistralai/Mistral-7B-Instruct-v0.3" planned
	// as mistral-7b-v0.1 with the Hub out of reach): the launch line
	// serves what was asked for, not the stand-in's repository.
	Repo string `json:",omitempty"`
	// NoGraphs: the engine runs each forward pass op by op from Python,
	// without CUDA graphs (vLLM --enforce-eager, TGI before 2.0 or with
	// --cuda-graphs 0).
	NoGraphs bool `json:",omitempty"`
	// Concurrency is the requests in flight (vllm bench --max-concurrency,
	// llama-server --parallel); RequestRate an arrival rate in requests/s.
	Concurrency int     `json:",omitempty"`
	RequestRate float64 `json:",omitempty"`
	// OutputTokPS is a load given as the generated tokens a second the
	// service must sustain ("20k tok/s"): RequestRate is that over each
	// request's output once the output length is known.
	OutputTokPS float64 `json:",omitempty"`
	// KVPrecision is the KV cache's element type: "" is 16-bit; FP8, INT8
	// (q8_0) or INT4 (q4_0).
	KVPrecision Precision `json:",omitempty"`
	// Quant is how the weights were quantised; GGUFType the GGUF file type
	// ("Q4_K_M", a key of GGUFBitsPerWeight).
	Quant    QuantMethod `json:",omitempty"`
	GGUFType string      `json:",omitempty"`
	// WeightBits is an EXL2 file's bits per weight ("4.65bpw"), 0 for
	// none: ExLlamaV2 quantises to any average between 2 and 8.
	WeightBits float64 `json:",omitempty"`
	// GPULayers is the layers a local engine keeps on the GPUs (llama.cpp
	// -ngl): 0 = as many as fit, -1 = none.
	GPULayers int `json:",omitempty"`
	// Split is how a model spreads over several GPUs ("" = the engine's
	// default: tensor parallel for servers, layers for llama.cpp).
	Split Split `json:",omitempty"`
	// HostMemBWGBs is the CPU memory bandwidth for layers kept in host
	// memory; 0 = 60 GB/s (dual-channel DDR5).
	HostMemBWGBs float64 `json:",omitempty"`

	// Notes carries how the request's words were read ("h100" → SXM),
	// shown with the assumptions.
	Notes []string
}

// Attention selects the attention kernel, which decides whether the
// seq² score matrix is stored.
type Attention string

// Attention kernels.
const (
	AttentionDefault Attention = ""
	Flash            Attention = "flash" // FlashAttention / SDPA memory-efficient kernels
	Eager            Attention = "eager" // scores materialised: 5·a·s/h term
)

// Offload says which training state lives in host memory.
type Offload string

// Offload modes.
const (
	OffloadNone Offload = ""
	// OffloadOptimizer: optimizer states and the fp32 master weights on
	// the CPU, which also runs the optimizer step (DeepSpeed ZeRO-Offload,
	// FSDP optimizer offload).
	OffloadOptimizer Offload = "optimizer"
	// OffloadFull: weights, gradients and optimizer states on the CPU;
	// each layer is copied in for its forward and backward (FSDP
	// cpu_offload, DeepSpeed ZeRO-3 offload_param + offload_optimizer).
	OffloadFull Offload = "full"
)

// BaselineUnit is the unit of a measured baseline.
type BaselineUnit string

// Baseline units.
const (
	SamplesPerS   BaselineUnit = "samples/s"
	TokensPerS    BaselineUnit = "tokens/s"
	SecPerStep    BaselineUnit = "s/step"
	HoursPerEpoch BaselineUnit = "h/epoch"
	Hours         BaselineUnit = "h"
	// MFU is a model FLOPs utilization the user assumes on the hardware
	// ("MFU 40% 가정"), as a fraction: the plan runs at it there, and the
	// other hardware carries the same factor as from a measured run.
	MFU BaselineUnit = "mfu"
)

// Baseline is a measurement of this job on some hardware ("5.67 h/epoch
// on 4x V100"); the planner derives the job's own efficiency from it.
type Baseline struct {
	Value    float64
	Unit     BaselineUnit
	Hardware Hardware
	// Precision the measured run used, when it differs from the target's
	// ("baseline 5.67 h/epoch on 4x v100 fp32"); "" means the job's.
	Precision Precision
	// Model the measured run trained, when it is not the job's ("we ran
	// the 8B at 9 h/epoch; now the 70B"); nil means the job's. An epoch
	// is the same data for both.
	Model *Model `json:",omitempty"`
	// WorkScale: the job's data is this many times the measured run's
	// ("the dataset is 3x bigger"), for a run given in hours or hours per
	// epoch without its amount; 0 means the same.
	WorkScale float64 `json:",omitempty"`
}

// Request is everything a plan needs.
type Request struct {
	Job Job
	// Targets are the hardware configurations the user named ("on h100x2",
	// or each entry of "compare on …"). Empty means recommend only.
	Targets []Hardware
	// Compare marks a side-by-side request: every target gets a column.
	Compare bool
	// Baseline, when set, rebases the estimate on a measured run.
	Baseline *Baseline
	// NoSearch skips the recommendation search (used by compare tables and
	// benchmarks that only want the named targets).
	NoSearch bool
	// Pool, when set, restricts the recommendation search to these
	// configurations (the team's servers); otherwise the whole catalogue.
	Pool []Hardware
	// Printer writes the plan's sentences in the reader's language; nil
	// means English.
	Printer Printer `json:"-"`
}

// quantBase reports whether j's frozen base is stored quantised (QLoRA's
// NF4, or an 8-bit LoRA base) and dequantised to bf16 for its GEMMs.
func (j Job) quantBase() bool {
	return j.Workload == QLoRA || j.Workload == LoRA && j.Base8bit
}

// baseBytesPerParam is what one quantised frozen weight weighs: NF4 with
// its scales, or int8 with one fp32 scale per row (LLM.int8's row-wise
// absmax; the scales are ~0.1 % of the bytes, inside the rounding).
func (j Job) baseBytesPerParam() float64 {
	if j.Workload == LoRA && j.Base8bit {
		return 1
	}
	return nf4BytesPerParam
}
