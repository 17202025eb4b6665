package planner

import (
	"fmt"
	"math"
	"regexp"
	"strings"
)

// Serving: decoder inference the way people run it. A batched server
// (vLLM, TGI, TensorRT-LLM, SGLang) keeps many requests in flight with
// continuous batching: every step decodes one token of each running
// request and mixes in a chunk of the prompts of new ones, so a step costs
// one read of the weights, the running requests' KV cache and their share
// of prefill compute. How many requests fit at once is the KV cache's
// capacity after the weights. A local engine (llama.cpp, Ollama) runs one
// stream from a GGUF file whose layers may sit partly in host memory.
//
// The constants are the fitted ones of the static decode path: the share
// of memory bandwidth a decode step reaches (DecodeBW), its loss when the
// kernel dequantises weights inside the loop (DequantDecode), and the
// forward-pass utilization for prefill (InferCompute × the HFU model).

// Engine is the inference engine a request names.
type Engine string

// Engines. The batched servers share one model (their kernels differ less
// than the spread of published benchmarks); llama.cpp and Ollama (which
// runs llama.cpp) share the local one.
const (
	EngineAuto   Engine = ""
	EngineVLLM   Engine = "vllm"
	EngineTGI    Engine = "tgi"
	EngineTRTLLM Engine = "trt-llm"
	// EngineTensorRT is TensorRT itself, for models served one forward
	// pass a sample (encoders, vision): a prebuilt engine of fused kernels.
	EngineTensorRT Engine = "tensorrt"
	// EngineGraph is a graph runtime serving a forward-only model
	// (TensorFlow with XLA, JAX, ONNX Runtime, TorchScript): the graph is
	// issued from C++, without Python between its operators.
	EngineGraph    Engine = "graph-runtime"
	EngineSGLang   Engine = "sglang"
	EngineLlamaCpp Engine = "llama.cpp"
	EngineOllama   Engine = "ollama"
	// EngineExLlama is ExLlamaV2 (served by TabbyAPI): local streams from
	// an EXL2 file of any bits per weight, its layers split over the GPUs
	// and none on the CPU.
	EngineExLlama Engine = "exllamav2"
)

// Local reports whether e runs one stream from a quantised file
// (llama.cpp class) rather than continuous batching.
func (e Engine) Local() bool { return e == EngineLlamaCpp || e == EngineOllama || e == EngineExLlama }

// Compiled reports whether e runs a forward-only model as a prebuilt
// TensorRT engine: fused kernels enqueued from C++, no Python or ATen
// dispatcher per operator.
func (e Engine) Compiled() bool { return e == EngineTensorRT || e == EngineTRTLLM }

// DefaultHostMemBWGBs is the host memory bandwidth (GB/s) planned for
// layers kept on the CPU when none is said: dual-channel DDR5-4800
// (76.8 GB/s peak) measures ~60 GB/s.
const DefaultHostMemBWGBs = 60.0

// QuantMethod is how the weights were quantised.
type QuantMethod string

// Quantisation methods.
const (
	QuantNone QuantMethod = ""
	GPTQ      QuantMethod = "gptq"
	AWQ       QuantMethod = "awq"
	BNB       QuantMethod = "bnb" // bitsandbytes NF4 / LLM.int8
	GGUF      QuantMethod = "gguf"
)

// Split is how one model is spread over several GPUs.
type Split string

// Splits. SplitAuto is the engine's default: tensor parallel for batched
// servers, layers for llama.cpp (--split-mode layer).
const (
	SplitAuto   Split = ""
	SplitLayer  Split = "layer"  // whole layers per GPU, run one after another (llama.cpp default, pipeline parallel)
	SplitTensor Split = "tensor" // every matrix split over the GPUs (vLLM -tp, llama.cpp --split-mode row)
)

// GGUFBitsPerWeight is the average bits per weight of a GGUF file type,
// the whole file (K-quant mixes keep some tensors at higher precision).
// K-quants: llama.cpp tools/quantize/README.md, Llama 2 7B table; the
// block formats by construction (Q8_0: 32 int8 + one fp16 scale = 8.5);
// the i-quants as llama-quantize lists them (IQ1_S 1.5625: the
// "1.58-bit" files of DeepSeek-R1 are mostly IQ1_S).
var GGUFBitsPerWeight = map[string]float64{
	"F32": 32, "F16": 16, "BF16": 16,
	"Q8_0": 8.5, "Q6_K": 6.56, "Q5_K_M": 5.68, "Q5_K_S": 5.52, "Q5_1": 6.0, "Q5_0": 5.5,
	"Q4_K_M": 4.84, "Q4_K_S": 4.58, "Q4_1": 5.0, "Q4_0": 4.5,
	"Q3_K_L": 4.27, "Q3_K_M": 3.91, "Q3_K_S": 3.5, "Q2_K": 3.35,
	"IQ4_XS": 4.25, "IQ4_NL": 4.5, "IQ3_M": 3.66, "IQ3_S": 3.44, "IQ3_XS": 3.3, "IQ3_XXS": 3.06,
	"IQ2_M": 2.7, "IQ2_S": 2.5, "IQ2_XS": 2.31, "IQ2_XXS": 2.06, "IQ1_M": 1.75, "IQ1_S": 1.5625,
}

const (
	// servingMemFraction is the share of GPU memory a batched engine
	// claims by default (vLLM gpu_memory_utilization 0.9, TensorRT-LLM
	// kv_cache_free_gpu_mem_fraction 0.9, SGLang mem_fraction_static ~0.88).
	servingMemFraction = 0.9
	// prefillChunk is the token budget of one step (vLLM
	// max_num_batched_tokens 8192 with chunked prefill).
	prefillChunk = 8192.0
	// defaultHostBWGBs is host memory bandwidth for layers kept on the
	// CPU: dual-channel DDR5-4800 (76.8 GB/s peak) measures ~60 GB/s.
	defaultHostBWGBs = DefaultHostMemBWGBs
	// llamaComputeBufGiB is llama.cpp's CUDA compute buffer at the
	// default 512-token micro-batch for 7-70B models (its load log).
	llamaComputeBufGiB = 0.5
)

// maxNumSeqs is the engine's default cap on running requests.
func maxNumSeqs(e Engine) int {
	if e == EngineTGI {
		return 128 // --max-concurrent-requests
	}
	return 256 // vLLM max_num_seqs; TensorRT-LLM and SGLang are limited by KV first in practice
}

// Serving is what a serving plan adds to an estimate.
type Serving struct {
	Engine       Engine  `json:"engine"`
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	Concurrency  float64 `json:"concurrency"`     // requests in flight
	MaxInFlight  int     `json:"max_concurrency"` // what the KV cache (and the engine's cap) holds
	RequestsPerS float64 `json:"requests_per_s"`
	OutputTokPS  float64 `json:"output_tokens_per_s"`
	TotalTokPS   float64 `json:"total_tokens_per_s"` // input + output
	TTFTS        float64 `json:"ttft_s"`
	TPOTS        float64 `json:"tpot_s"`
	LatencyS     float64 `json:"latency_s"` // per request: TTFT + TPOT × (output − 1)
	// Saturated is set when the requested rate is more than the
	// configuration serves: the queue grows without bound.
	Saturated     bool    `json:"saturated,omitempty"`
	KVCacheGiB    float64 `json:"kv_cache_gib"` // per GPU, at MaxInFlight
	KVPrecision   string  `json:"kv_precision"`
	WeightsGiB    float64 `json:"weights_gib"` // all GPUs and host together
	Weights       string  `json:"weights"`     // the format: "GGUF Q4_K_M (4.84 bits/weight)", "AWQ int4", "bf16"
	GPULayers     int     `json:"gpu_layers,omitempty"`
	CPULayers     int     `json:"cpu_layers,omitempty"`
	Split         Split   `json:"split"`
	BandwidthNote string  `json:"bandwidth_note,omitempty"`
}

// servingJob reports whether the job asks for the serving model: an
// engine, a load (concurrency, request rate), or a word only serving has.
func servingJob(j Job) bool {
	if j.Workload != Inference || forwardOnly(j.Model) {
		return false
	}
	return j.Engine != "" || j.Concurrency > 0 || j.RequestRate > 0 || j.KVPrecision != "" || j.Quant != "" ||
		j.GGUFType != "" || j.WeightBits > 0 || j.GPULayers != 0 || j.Split != "" || j.HostMemBWGBs > 0
}

// servingEngine is the engine the job runs on: as named, else llama.cpp
// for GGUF words and layers on the CPU, else a vLLM-class server.
func servingEngine(j Job) Engine {
	switch {
	case j.Engine != "":
		return j.Engine
	case j.WeightBits > 0:
		return EngineExLlama
	case j.GGUFType != "" || j.Quant == GGUF || j.GPULayers != 0 || j.HostMemBWGBs > 0:
		return EngineLlamaCpp
	default:
		return EngineVLLM
	}
}

// kvElemBytes is one KV-cache element: 16-bit by default; fp8 is a byte;
// int8 and int4 are llama.cpp's q8_0/q4_0 (a scale per 32 values).
func kvElemBytes(p Precision) float64 {
	switch p {
	case FP8:
		return 1
	case INT8:
		return 8.5 / 8
	case INT4:
		return 4.5 / 8
	case FP32:
		return 4
	default:
		return 2
	}
}

// embeddingParams is the token embedding and LM head, which GPTQ, AWQ and
// bitsandbytes leave in 16-bit.
func embeddingParams(m Model) float64 {
	e := float64(m.Vocab) * float64(m.Hidden)
	if !m.Tied {
		e *= 2
	}
	return math.Min(e, m.Params()/2)
}

// servingWeightBytes is the whole model's weight bytes as the engine
// loads it, and whether its decode kernels dequantise.
func servingWeightBytes(j Job, p Precision) (bytes float64, dequant bool) {
	m := j.Model
	if t := j.GGUFType; t != "" {
		bpw := GGUFBitsPerWeight[t]
		return m.Params() * bpw / 8, bpw < 16
	}
	if j.WeightBits > 0 {
		return m.Params() * j.WeightBits / 8, j.WeightBits < 16
	}
	b := weightBytesInference(p)
	if p != INT8 && p != INT4 {
		return m.Params() * b, false
	}
	emb := embeddingParams(m)
	return (m.Params()-emb)*b + emb*2, true
}

// weightsTouched is the bytes one decode step reads for b sequences: all
// of a dense model; for a mixture of experts, the shared part and the
// experts the batch's tokens are routed to (E(1 − (1 − k/E)^b) of them:
// k at a batch of one, all of them at a large batch).
func weightsTouched(m Model, total float64, b float64) float64 {
	if m.Kind != MoE || m.ActiveParams() >= m.Params() {
		return total
	}
	perParam := total / m.Params()
	if m.Experts > m.TopK && m.TopK > 0 {
		// b tokens each pick k of E experts: E(1 − (1 − k/E)^b) distinct
		// experts are read, the k a single token reads (in the active
		// parameters) and a share of the E − k others (the rest)
		routed := m.Params() - m.ActiveParams() // approximately the idle experts' share
		k, e := float64(m.TopK), float64(m.Experts)
		frac := math.Max(0, (e*(1-math.Pow(1-k/e, math.Max(b, 1)))-k)/(e-k))
		touched := m.ActiveParams() + routed*frac
		return math.Min(total, touched*perParam)
	}
	return math.Min(total, m.ActiveParams()*perParam*1.5)
}

// servingSetup is what both serving models share for one configuration.
type servingSetup struct {
	in, out     float64
	weights     float64 // all weight bytes
	dequant     bool
	kvTok       float64 // KV bytes per token of context, whole model
	bw          float64 // achieved bytes/s of one GPU's memory for decode
	peak        float64 // dense FLOP/s of one GPU at the compute precision
	computeP    Precision
	prefillTokS float64 // seconds of one GPU per prefill token
	kvPrec      string
}

func (pc *planContext) servingSetup(h Hardware, l layout) servingSetup {
	j := pc.job
	m := j.Model
	g := h.GPU
	s := servingSetup{out: float64(j.GenTokens)}
	s.in = float64(j.SeqLen - j.GenTokens)
	s.weights, s.dequant = servingWeightBytes(j, l.precision)
	// per token of a request's context, local layers caching at most their window
	s.kvTok = kvBytesPerToken(m) * m.attnSpan(float64(j.SeqLen)) / 2 * kvElemBytes(j.KVPrecision)
	s.kvPrec = "16-bit"
	if j.KVPrecision != "" {
		s.kvPrec = string(j.KVPrecision)
	}
	s.bw = g.MemBWGBs * 1e9 * pc.prm.DecodeBW
	if s.dequant {
		s.bw *= pc.prm.DequantDecode
	}
	cp := l.precision
	if cp == INT8 || cp == INT4 || j.GGUFType != "" || j.WeightBits > 0 {
		cp = FP16 // weight-only formats compute in 16-bit
	}
	s.peak = effectivePeak(g, cp) * 1e12
	if s.peak == 0 {
		cp = FP32
		s.peak = effectivePeak(g, FP32) * 1e12
	}
	s.computeP = cp
	// Engines run fused kernels: the tuned stack's utilization.
	jt := j
	jt.Stack = Tuned
	pl := l
	pl.precision = cp
	chunk := math.Max(1, math.Min(s.in, prefillChunk))
	uPre := pc.prm.InferCompute * hfu(pc.prm, jt, pl, chunk) * pc.jobFactor
	attn := 4 * float64(m.Layers) * m.attnSpan(s.in) * s.in / 2 * float64(m.Heads*m.headDim()) / pc.prm.AttnFlash
	s.prefillTokS = (2*m.ActiveParams() + attn) / (s.peak * uPre)
	return s
}

// evaluateServing dispatches to the batched or the local serving model.
func (pc *planContext) evaluateServing(h Hardware, l layout) Estimate {
	if servingEngine(pc.job).Local() {
		return pc.evaluateLocal(h, l)
	}
	return pc.evaluateBatched(h, l)
}

// evaluateBatched plans a continuous-batching server on h.
//
// evaluateBatched is long on purpose: capacity, step time, the load and
// the estimate share their intermediate values.
func (pc *planContext) evaluateBatched(h Hardware, l layout) Estimate {
	j := pc.job
	m := j.Model
	g := h.GPU
	n := float64(h.Count)
	eng := servingEngine(j)
	s := pc.servingSetup(h, l)
	split := j.Split
	if split == SplitAuto {
		split = SplitTensor
	}

	// Memory: the engine claims its share; weights, a prefill chunk's
	// activations and the runtime come off it; the rest is KV cache.
	wGPU := s.weights / n
	work := prefillChunk * (4*float64(m.Hidden) + 2*float64(m.FFN)) * 2 / n
	fixed := wGPU + work + (cudaContextGiB)*gib
	if h.Count > 1 {
		fixed += ncclBuffersGiB * gib
	}
	capB := g.MemoryGB * usableFraction * gib
	kvBudget := capB*servingMemFraction - fixed
	perReq := s.kvTok / n * (s.in + s.out)
	maxConc := 0
	if kvBudget > 0 && perReq > 0 {
		maxConc = int(kvBudget / perReq)
	}
	inFlight := min(maxConc, maxNumSeqs(eng))

	// One step: read the weights the batch touches and the KV cache of the
	// running requests, or compute, whichever is longer; plus the share of
	// new prompts' prefill each step carries (b/out requests finish per
	// step, and as many start); plus tensor-parallel all-reduces.
	busGBs, linkDesc := linkGBs(pc.prm, g, h.Count, gpusPerNode(h), h.Interconnect)
	// stepTime is one forward pass over b decode tokens plus pre prefill
	// tokens: it reads the weights and KV once and is bound by that or by
	// compute, whichever is longer.
	prefillPerTok := s.prefillTokS / n
	issue := engineIssueS(pc.prm, j, eng, g)
	stepTime := func(b, pre float64) float64 {
		bytes := weightsTouched(m, s.weights, b)/n + s.kvTok/n*b*(s.in+s.out/2)
		if j.Quant == BNB && b+pre > 1 {
			// bitsandbytes has a fused 4-bit kernel only for one token;
			// more dequantise each weight to 16-bit and multiply: a 16-bit
			// write and read on top of the packed read.
			bytes += weightsTouched(m, m.Params(), b) / n * 4
		}
		jt := j
		jt.Stack = Tuned
		ul := l
		ul.precision = s.computeP
		u := pc.prm.InferCompute * hfu(pc.prm, jt, ul, b)
		t := math.Max(bytes/s.bw, 2*m.ActiveParams()*b/(n*s.peak*u)+pre*prefillPerTok)
		if split == SplitLayer {
			t *= n // stages run one after another for one token
			t += (n - 1) * 20e-6
		} else if h.Count > 1 {
			t += float64(m.Layers) * 2 * (10e-6 + 2*(b+pre)*float64(m.Hidden)*2/(busGBs*1e9))
		}
		t, _ = blendIssue(pc.prm, issue, t)
		return t / pc.jobFactor
	}
	// Each step b/out requests finish and as many start: a step that
	// carries a new prompt's chunk is longer by what the chunk adds.
	chunks := math.Ceil(s.in / prefillChunk)
	withPrompt := func(b float64) float64 { return chunks * stepTime(b, s.in/chunks) }
	step := func(b float64) float64 {
		d := stepTime(b, 0)
		return d + b/s.out*math.Max(0, withPrompt(b)-chunks*d)
	}
	ttft := withPrompt
	latency := func(b float64) float64 { return ttft(b) + step(b)*(s.out-1) }
	reqRate := func(b float64) float64 { return b / latency(b) }

	b := float64(inFlight)
	saturated := false
	var notes []string
	switch {
	case j.RequestRate > 0:
		if inFlight < 1 || reqRate(float64(inFlight)) < j.RequestRate {
			saturated = true
		} else {
			// Little's law: the requests in flight at a steady rate λ
			// solve b = λ · latency(b); b/latency(b) rises with b.
			lo, hi := 1e-3, float64(inFlight)
			for range 60 {
				mid := (lo + hi) / 2
				if reqRate(mid) < j.RequestRate {
					lo = mid
				} else {
					hi = mid
				}
			}
			b = hi
		}
	case j.Concurrency > 0 || j.GlobalBatch > 0:
		want := j.Concurrency
		if want == 0 {
			want = j.GlobalBatch
		}
		b = float64(min(want, inFlight))
		if want > inFlight && inFlight > 0 {
			notes = append(notes, pc.pr.Tf("%d requests in flight asked; the KV cache and the engine's cap hold %d, the rest wait in the queue", want, inFlight))
		}
	}
	if b < 1e-3 {
		b = 1
	}

	mem := pc.servingMemory(h, h.Count > 1, wGPU, work, s.kvTok/n*(s.in+s.out)*math.Max(1, math.Ceil(b)), capB*servingMemFraction)
	mem.MaxMicroBatch = inFlight
	if maxConc < 1 {
		mem.Fits = false
	}

	e := Estimate{
		GPU: g.ID, GPUName: g.Name, GPUs: h.Count, Nodes: 1, Server: h.Server, Interconnect: linkDesc,
		Precision: l.precision, TensorParallel: h.Count, PipelineParallel: 1, MicroBatch: int(math.Ceil(b)), GradAccum: 1,
		GlobalBatch: int(math.Ceil(b)), Memory: mem, PriceUSDPerGPUH: g.PriceUSD, hw: h, layout: l, ScalingEfficiency: 1,
	}
	e.Strategy = "single GPU"
	if h.Count > 1 {
		e.Strategy = pc.pr.Tf("tensor parallel ×%d", h.Count)
		if split == SplitLayer {
			e.TensorParallel, e.PipelineParallel = 1, h.Count
			e.Strategy = pc.pr.Tf("layers split over %d GPUs (pipeline)", h.Count)
		}
	}
	e.InferencePath = "decode"
	tpot := step(b)
	sv := &Serving{Engine: eng, InputTokens: int(s.in), OutputTokens: int(s.out), Concurrency: b, MaxInFlight: inFlight,
		TTFTS: ttft(b), TPOTS: tpot, Saturated: saturated, KVPrecision: s.kvPrec, WeightsGiB: s.weights / gib, Split: split,
		Weights:    weightFormat(j, l.precision),
		KVCacheGiB: s.kvTok / n * (s.in + s.out) * float64(inFlight) / gib}
	sv.LatencyS = sv.TTFTS + tpot*(s.out-1)
	sv.RequestsPerS = b / sv.LatencyS
	sv.OutputTokPS = sv.RequestsPerS * s.out
	sv.TotalTokPS = sv.RequestsPerS * (s.in + s.out)
	e.Serving = sv
	e.Time.PrefillS = sv.TTFTS
	e.Time.PerTokenS = tpot
	e.Time.StepS = sv.LatencyS
	e.Throughput.TokensPerS = sv.OutputTokPS
	e.Throughput.TokensPerSPerGPU = sv.OutputTokPS / n
	e.Throughput.SamplesPerS = sv.RequestsPerS
	e.MFU = 2 * m.ActiveParams() * sv.TotalTokPS / (n * s.peak)
	e.HFU = e.MFU
	e.ModelTFLOPsPerGPU = 2 * m.ActiveParams() * sv.TotalTokPS / n / 1e12
	e.HWTFLOPsPerGPU = e.ModelTFLOPsPerGPU
	e.Notes = append(e.Notes, notes...)
	if issue > 0 {
		host := issue
		issue = 0 // the same load with CUDA graphs: the GPU's own pace
		e.Notes = append(e.Notes, pc.pr.Tf("no CUDA graphs: each step's ~%.0f operators are issued from Python at %.1f µs each (%s a step); with them (vLLM's default, TGI's since 2.0) this load gives about %s tokens/s",
			engineDecodeOps(m), opS(pc.prm, g)*1e6, FormatSeconds(host), sig3(b/latency(b)*s.out)))
	}
	if saturated && inFlight > 0 {
		e.Notes = append(e.Notes, pc.pr.Tf("%s requests/s is more than this serves (at most %s requests/s with %d in flight): the queue grows — add GPUs or replicas",
			sig3(j.RequestRate), sig3(reqRate(float64(inFlight))), inFlight))
	}
	pc.fillTime(&e, sv.RequestsPerS)
	return e
}

// servingMemory is one GPU's memory under a serving engine: the engine's
// share of it, of which weights, workspace and runtime are fixed and the
// rest KV cache for the requests in flight.
func (pc *planContext) servingMemory(h Hardware, nccl bool, weights, work, kv, budget float64) Memory {
	items := []MemItem{
		{"weights", weights / gib},
		{"KV cache", kv / gib},
		{"activations workspace", work / gib},
		{"CUDA context", cudaContextGiB},
	}
	if nccl {
		items = append(items, MemItem{"NCCL buffers", ncclBuffersGiB})
	}
	mem := finishMemory(items, h.GPU)
	if budget > 0 {
		mem.EngineCapGiB = budget / gib
		if mem.PerGPUGiB*gib > budget {
			mem.Fits = false
		}
	}
	return mem
}

// evaluateLocal plans llama.cpp-class inference: a GGUF (or 16-bit) model
// whose first layers sit on the GPUs (-ngl) and the rest in host memory;
// decode reads each device's layers at its bandwidth, one after another.
//
// evaluateLocal is long on purpose: the layer placement, decode and
// prefill share their intermediate values.
func (pc *planContext) evaluateLocal(h Hardware, l layout) Estimate {
	j := pc.job
	m := j.Model
	g := h.GPU
	n := float64(h.Count)
	eng := servingEngine(j)
	s := pc.servingSetup(h, l)
	split := j.Split
	if split == SplitAuto {
		split = SplitLayer
	}
	L := m.Layers
	perLayer := s.weights / float64(L)
	ctx := s.in + s.out
	streams := float64(max(1, j.Concurrency, j.GlobalBatch)) // llama-server --parallel slots
	kvLayer := s.kvTok / float64(L) * ctx * streams
	capB := g.MemoryGB * usableFraction * gib
	fixed := (cudaContextGiB + llamaComputeBufGiB) * gib
	gpuLayers := 0
	var notes []string
	switch {
	case eng == EngineExLlama:
		gpuLayers = L // ExLlamaV2 runs every layer on the GPUs
	case j.GPULayers < 0:
		gpuLayers = 0
	case j.GPULayers > 0:
		gpuLayers = min(j.GPULayers, L)
	default:
		// as many as fit, as Ollama does (llama.cpp: say -ngl)
		gpuLayers = min(L, int(math.Floor((capB-fixed)*n/(perLayer+kvLayer))))
		gpuLayers = max(gpuLayers, 0)
	}
	cpuLayers := L - gpuLayers
	hostBW := j.HostMemBWGBs
	if hostBW == 0 {
		hostBW = defaultHostBWGBs
	}
	gpuBytes := float64(gpuLayers) * perLayer
	cpuBytes := float64(cpuLayers) * perLayer
	gpuKV := float64(gpuLayers) * kvLayer
	cpuKV := float64(cpuLayers) * kvLayer

	// Decode: one token of every stream reads each device's layers and KV.
	// Layer split runs the GPUs one after another (their bandwidth does
	// not add up, their memory does); row split divides every matrix.
	readKV := s.kvTok / float64(L) * (s.in + s.out/2) * streams
	gpuRead := (weightsTouched(m, gpuBytes, streams) + float64(gpuLayers)*readKV) / s.bw
	if split == SplitTensor && h.Count > 1 {
		busGBs, _ := linkGBs(pc.prm, g, h.Count, gpusPerNode(h), h.Interconnect)
		gpuRead = gpuRead/n + float64(gpuLayers)*2*(10e-6+2*streams*float64(m.Hidden)*2/(busGBs*1e9))
	}
	hostEff := pc.prm.DecodeBW
	if s.dequant {
		hostEff *= pc.prm.DequantDecode
	}
	cpuRead := (weightsTouched(m, cpuBytes, streams) + float64(cpuLayers)*readKV) / (hostBW * 1e9 * hostEff)
	perToken := (gpuRead + cpuRead) / pc.jobFactor

	// Prefill: GPU layers compute-bound; for layers on the CPU llama.cpp
	// copies the weights to the GPU for large batches, so they cost their
	// PCIe transfer once per prompt batch (512 tokens) when that is longer.
	pcie := 12.5
	switch g.PCIeGen {
	case 4:
		pcie = 25
	case 5:
		pcie = 50
	}
	pcie *= pc.prm.LinkEff * 1e9
	batches := math.Ceil(s.in / 512)
	prefill := s.in * s.prefillTokS * float64(gpuLayers) / float64(L)
	if split == SplitTensor {
		prefill /= n
	}
	if cpuLayers > 0 {
		compute := s.in * s.prefillTokS * float64(cpuLayers) / float64(L)
		prefill += math.Max(compute, batches*cpuBytes/pcie)
	}
	prefill /= pc.jobFactor

	gpuPer := gpuBytes / n
	kvPer := gpuKV / n
	mem := pc.servingMemory(h, false, gpuPer, llamaComputeBufGiB*gib, kvPer, 0) // llama.cpp copies between GPUs itself, no NCCL
	mem.MaxMicroBatch = int(streams)
	if j.GPULayers > 0 && j.GPULayers > L {
		notes = append(notes, pc.pr.Tf("-ngl %d is more than %s's %d layers: all of them are on the GPU", j.GPULayers, m.ID, L))
	}
	if cpuLayers > 0 {
		notes = append(notes, pc.pr.Tf("%d of %d layers run on the CPU from host memory (%.1f GiB at ~%s GB/s): each token waits on them — fewer CPU layers, a smaller quant or another GPU speeds it up",
			cpuLayers, L, (cpuBytes+cpuKV)/gib, trimFloat(hostBW)))
	}

	e := Estimate{
		GPU: g.ID, GPUName: g.Name, GPUs: h.Count, Nodes: 1, Server: h.Server, Interconnect: "none (layers run in turn)",
		Precision: l.precision, TensorParallel: 1, PipelineParallel: h.Count, MicroBatch: int(streams), GradAccum: 1,
		GlobalBatch: int(streams), Memory: mem, PriceUSDPerGPUH: g.PriceUSD, hw: h, layout: l, ScalingEfficiency: 1,
	}
	e.Strategy = "single GPU"
	switch {
	case h.Count > 1 && split == SplitTensor:
		e.TensorParallel, e.PipelineParallel = h.Count, 1
		e.Strategy = pc.pr.Tf("rows split over %d GPUs (--split-mode row)", h.Count)
		_, e.Interconnect = linkGBs(pc.prm, g, h.Count, gpusPerNode(h), h.Interconnect)
	case h.Count > 1:
		e.Strategy = pc.pr.Tf("layers split over %d GPUs (--split-mode layer)", h.Count)
	}
	if cpuLayers > 0 {
		e.Strategy += pc.pr.Tf(", %d layers on the CPU", cpuLayers)
	}
	e.InferencePath = "decode"
	sv := &Serving{Engine: eng, InputTokens: int(s.in), OutputTokens: int(s.out), Concurrency: streams, MaxInFlight: int(streams),
		TTFTS: prefill + perToken, TPOTS: perToken, KVPrecision: s.kvPrec, WeightsGiB: s.weights / gib, Split: split,
		Weights:    weightFormat(j, l.precision),
		KVCacheGiB: kvPer / gib, GPULayers: gpuLayers, CPULayers: cpuLayers}
	sv.LatencyS = sv.TTFTS + perToken*(s.out-1)
	sv.RequestsPerS = streams / sv.LatencyS
	sv.OutputTokPS = streams / perToken
	sv.TotalTokPS = sv.RequestsPerS * (s.in + s.out)
	e.Serving = sv
	e.Notes = append(e.Notes, notes...)
	e.Time.PrefillS = sv.TTFTS
	e.Time.PerTokenS = perToken
	e.Time.StepS = sv.LatencyS
	e.Throughput.TokensPerS = sv.OutputTokPS
	e.Throughput.TokensPerSPerGPU = sv.OutputTokPS / n
	e.Throughput.SamplesPerS = sv.RequestsPerS
	e.MFU = 2 * m.ActiveParams() * sv.OutputTokPS / (n * s.peak)
	e.HFU = e.MFU
	e.ModelTFLOPsPerGPU = 2 * m.ActiveParams() * sv.OutputTokPS / n / 1e12
	e.HWTFLOPsPerGPU = e.ModelTFLOPsPerGPU
	pc.fillTime(&e, sv.RequestsPerS)
	return e
}

// servingAssumption is the assumption line of a serving estimate.
func (pc *planContext) servingAssumption(e *Estimate) string {
	sv := e.Serving
	j := pc.job
	var b strings.Builder
	if sv.Engine.Local() {
		b.WriteString(pc.pr.Tf("%s: %s weights (%.1f GiB), %d layers on the GPU", sv.Engine, weightFormat(j, e.Precision), sv.WeightsGiB, sv.GPULayers))
		if sv.CPULayers > 0 {
			hb := j.HostMemBWGBs
			if hb == 0 {
				hb = defaultHostBWGBs
			}
			b.WriteString(pc.pr.Tf(" and %d on the CPU at %s GB/s host memory bandwidth (say `cpu bandwidth N gb/s`)", sv.CPULayers, trimFloat(hb)))
		}
		b.WriteString(pc.pr.Tf("; each token reads every layer once at %.0f%% of bandwidth", pc.prm.DecodeBW*100))
	} else {
		b.WriteString(pc.pr.Tf("%s continuous batching: %d in / %d out tokens per request, %s requests in flight (the KV cache holds %d), %s KV cache; each step reads the weights and the running requests' KV at %.0f%% of bandwidth and carries their share of prefill",
			sv.Engine, sv.InputTokens, sv.OutputTokens, sig3(sv.Concurrency), sv.MaxInFlight, sv.KVPrecision, pc.prm.DecodeBW*100))
	}
	if _, dq := servingWeightBytes(j, e.Precision); dq {
		b.WriteString(pc.pr.Tf("; dequantising kernels reach %.0f%% of that", pc.prm.DequantDecode*100))
	}
	if j.Quant == BNB {
		b.WriteString(pc.pr.T("; bitsandbytes dequantises every weight to 16-bit for a batch of more than one token"))
	}
	return b.String()
}

// weightFormat names the weights' format for the card.
func weightFormat(j Job, p Precision) string {
	switch {
	case j.GGUFType != "":
		return fmt.Sprintf("GGUF %s (%s bits/weight)", j.GGUFType, trimFloat(GGUFBitsPerWeight[j.GGUFType]))
	case j.WeightBits > 0:
		return fmt.Sprintf("EXL2 %s bits/weight", trimFloat(j.WeightBits))
	case j.Quant != "" && j.Quant != GGUF:
		return fmt.Sprintf("%s %s", strings.ToUpper(string(j.Quant)), p)
	default:
		return string(p)
	}
}

// servingText is the rate line of a serving estimate.
func (e *Estimate) servingText(pr Printer) string {
	sv := e.Serving
	if sv.Engine.Local() {
		s := pr.Tf("%s tokens/s per stream (%.1f ms per token), first token after %s for a %d-token prompt",
			sig3(sv.OutputTokPS/sv.Concurrency), sv.TPOTS*1000, FormatSeconds(sv.TTFTS), sv.InputTokens)
		if sv.CPULayers > 0 {
			s += pr.Tf("; %d GPU + %d CPU layers", sv.GPULayers, sv.CPULayers)
		}
		return s
	}
	return pr.Tf("%s requests/s, %s output tokens/s (%s with prompts) at %s requests in flight; per request: first token %s, then %.1f ms per token, %s in all (%d in / %d out)",
		sig3(sv.RequestsPerS), sig3(sv.OutputTokPS), sig3(sv.TotalTokPS), sig3(sv.Concurrency), FormatSeconds(sv.TTFTS), sv.TPOTS*1000,
		FormatSeconds(sv.LatencyS), sv.InputTokens, sv.OutputTokens)
}

// FormatSeconds writes a latency: milliseconds under a second.
func FormatSeconds(s float64) string {
	if s < 1 {
		return fmt.Sprintf("%.0f ms", s*1000)
	}
	return fmt.Sprintf("%.2g s", s)
}

// serveLine is the command that starts the engine the estimate plans, with
// the split, the context, the sequences in flight and the weights' format
// it assumed: llama-server (or Ollama) for a GGUF file, else the batched
// server named (vLLM when none is).
func serveLine(j Job, e *Estimate) string {
	inFlight := max(1, min(e.Memory.MaxMicroBatch, maxNumSeqs(EngineVLLM))) // the engine's cap, not 11,505 short sequences
	eng := EngineVLLM
	if sv := e.Serving; sv != nil {
		eng = sv.Engine
		inFlight = max(1, sv.MaxInFlight)
	}
	quant := string(j.Quant)
	if quant == "" || quant == string(BNB) && eng != EngineVLLM {
		switch e.Precision {
		case INT4:
			quant = string(AWQ)
			if !awqRuns(e.hw.GPU) {
				quant = string(GPTQ) // GPTQ's kernels run where AWQ's do not
			}
		case FP8:
			quant = "fp8"
		}
	}
	if quant == string(BNB) {
		quant = "bitsandbytes"
	}
	switch eng {
	case EngineExLlama:
		// TabbyAPI serves EXL2 files with ExLlamaV2; gpu_split_auto fills
		// the GPUs in turn, as llama.cpp's layer split does
		return fmt.Sprintf("python main.py --model-name <model>-exl2-%sbpw --max-seq-len %d --gpu-split-auto true --cache-mode %s  # TabbyAPI",
			trimFloat(j.WeightBits), j.SeqLen, map[bool]string{true: "Q8", false: "FP16"}[j.KVPrecision == INT8 || j.KVPrecision == FP8])
	case EngineLlamaCpp, EngineOllama:
		gguf := j.GGUFType
		if gguf == "" {
			gguf = strings.ToUpper(string(e.Precision))
		}
		ngl := 99
		split := ""
		if sv := e.Serving; sv != nil {
			ngl = sv.GPULayers
			if sv.Split == SplitTensor && e.GPUs > 1 {
				split = " --split-mode row"
			}
		}
		if eng == EngineOllama {
			return fmt.Sprintf("OLLAMA_NUM_PARALLEL=%d OLLAMA_CONTEXT_LENGTH=%d ollama run <model>:%s  # %d of %d layers on the GPU",
				inFlight, j.SeqLen, strings.ToLower(gguf), ngl, j.Model.Layers)
		}
		return fmt.Sprintf("llama-server -m <model>-%s.gguf -ngl %d -c %d --parallel %d%s", gguf, ngl, j.SeqLen*inFlight, inFlight, split)
	case EngineTGI:
		q := ""
		if quant != "" {
			q = " --quantize " + quant
		}
		return fmt.Sprintf("text-generation-launcher --model-id %s --num-shard %d --max-input-tokens %d --max-total-tokens %d --max-concurrent-requests %d%s",
			launchRepo(j), e.GPUs, max(1, j.SeqLen-j.GenTokens), j.SeqLen, inFlight, q)
	case EngineSGLang:
		q := ""
		if quant != "" {
			q = " --quantization " + quant
		}
		return fmt.Sprintf("python -m sglang.launch_server --model-path %s --tp %d --context-length %d --max-running-requests %d%s",
			launchRepo(j), e.GPUs, j.SeqLen, inFlight, q)
	case EngineTRTLLM:
		return fmt.Sprintf("trtllm-serve %s --tp_size %d --max_seq_len %d --max_batch_size %d", launchRepo(j), e.GPUs, j.SeqLen, inFlight)
	}
	q := ""
	if quant != "" {
		q = " --quantization " + quant
	}
	if j.KVPrecision == FP8 {
		q += " --kv-cache-dtype fp8"
	}
	return fmt.Sprintf("vllm serve %s --tensor-parallel-size %d --max-model-len %d --max-num-seqs %d%s", launchRepo(j), e.GPUs, serveModelLen(j), inFlight, q)
}

// repoID is the Hugging Face repository a launch line names: a Hub
// model's own id, a catalogue model's from the config.json its row cites
// first, else "<model>" for the asker to fill in.
func repoID(m Model) string {
	if m.Origin == "hub" && strings.Contains(m.ID, "/") {
		return m.ID
	}
	for _, sub := range hubRepoInSource.FindAllStringSubmatch(m.Source, -1) {
		if org, _, _ := strings.Cut(sub[1], "/"); publisherOrgs[org] {
			return sub[1]
		}
	}
	return "<model>"
}

// publisherOrgs are the Hugging Face organisations that publish the
// catalogue's models. A row's source may cite a copy of a config in
// someone else's repository (a quantised or fine-tuned upload): a launch
// line serves the publisher's repository or, with none cited, says
// <model>, never a stranger's copy.
var publisherOrgs = map[string]bool{"Qwen": true, "google": true, "deepseek-ai": true, "openai": true, "timm": true, "microsoft": true,
	"meta-llama": true, "openai-community": true, "mistralai": true, "FacebookAI": true, "klue": true, "intfloat": true, "facebook": true,
	"LGAI-EXAONE": true, "BAAI": true, "thenlper": true, "google-t5": true, "answerdotai": true, "upstage": true, "tiiuae": true, "skt": true,
	"sentence-transformers": true, "google-bert": true, "bigscience": true, "EleutherAI": true, "nvidia": true, "allenai": true,
	"HuggingFaceTB": true, "01-ai": true, "mosaicml": true, "Salesforce": true, "stabilityai": true, "TinyLlama": true, "lmsys": true,
	"liuhaotian": true, "llava-hf": true, "THUDM": true, "internlm": true, "beomi": true, "naver-hyperclovax": true, "kakaocorp": true}

var hubRepoInSource = regexp.MustCompile(`https://huggingface\.co/([\w.-]+/[\w.-]+)/(?:blob|raw|resolve|tree)/`)

// serveModelLen is the longest request a launch line admits: the length
// planned, and at least the model's context up to 4,096 tokens. A chat
// planned at ShareGPT's mean turn (404 tokens) must still take the long
// ones; vLLM allots KV cache as requests arrive, so the cap costs nothing
// when they are short.
func serveModelLen(j Job) int {
	if c := j.Model.MaxCtx; c > 0 {
		return max(j.SeqLen, min(c, 4096))
	}
	return j.SeqLen
}
