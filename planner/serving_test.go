package planner

import (
	"math"
	"strings"
	"testing"
)

// servePlan plans one serving job on n× gpu.
func servePlan(t *testing.T, model, gpu string, n int, mod func(*Job)) *Estimate {
	t.Helper()
	c := DefaultCatalog()
	m, _, err := c.Model(model)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := c.GPU(gpu)
	if err != nil {
		t.Fatal(err)
	}
	j := Job{Model: m, Workload: Inference}
	mod(&j)
	res, err := c.Plan(Request{Job: j, Targets: []Hardware{{GPU: g, Count: n}}, NoSearch: true})
	if err != nil {
		t.Fatal(err)
	}
	e := res.Plans[0]
	if e.Serving == nil {
		t.Fatalf("%s on %dx %s: no serving figures", model, n, gpu)
	}
	return e
}

func lengths(in, out int) func(*Job) {
	return func(j *Job) { j.SeqLen, j.GenTokens = in+out, out }
}

func within(got, want, tol float64) bool { return math.Abs(got/want-1) <= tol }

// Continuous batching: more requests in flight raise throughput and the
// time per output token; the request rate is what Little's law gives; the
// KV cache's capacity bounds the requests in flight, and an fp8 cache holds
// about twice as many as a 16-bit one.
func TestContinuousBatching(t *testing.T) {
	var prev *Estimate
	for _, c := range []int{1, 4, 16, 64} {
		e := servePlan(t, "llama-3.1-8b", "h100-sxm5-80gb", 1, func(j *Job) {
			j.Engine, j.Concurrency = EngineVLLM, c
			lengths(1024, 256)(j)
		})
		sv := e.Serving
		if math.Abs(sv.RequestsPerS*sv.LatencyS-sv.Concurrency) > 1e-6*sv.Concurrency {
			t.Errorf("c=%d: %.3g req/s × %.3g s is not %v in flight", c, sv.RequestsPerS, sv.LatencyS, sv.Concurrency)
		}
		if prev != nil && (sv.OutputTokPS <= prev.Serving.OutputTokPS || sv.TPOTS <= prev.Serving.TPOTS) {
			t.Errorf("c=%d: %0.f tok/s, %.1f ms/token; c smaller: %0.f tok/s, %.1f ms", c, sv.OutputTokPS, sv.TPOTS*1e3,
				prev.Serving.OutputTokPS, prev.Serving.TPOTS*1e3)
		}
		prev = e
	}
	// a rate the server can carry: that many requests/s come out
	e := servePlan(t, "llama-3.1-8b", "h100-sxm5-80gb", 1, func(j *Job) { j.Engine, j.RequestRate = EngineVLLM, 5; lengths(1024, 256)(j) })
	if !within(e.Serving.RequestsPerS, 5, 0.01) || e.Serving.Saturated {
		t.Errorf("5 req/s: %+v", e.Serving)
	}
	// a rate it cannot: saturated, said in a note
	e = servePlan(t, "llama-3.1-8b", "l4", 1, func(j *Job) { j.Engine, j.RequestRate = EngineVLLM, 500; lengths(1024, 256)(j) })
	if !e.Serving.Saturated || !strings.Contains(strings.Join(e.Notes, " "), "queue grows") {
		t.Errorf("500 req/s on an L4: %+v %v", e.Serving, e.Notes)
	}
	// KV capacity: 70B on 2x H100 with long prompts
	kv16 := servePlan(t, "llama-3.1-70b", "h100-sxm5-80gb", 2, func(j *Job) { j.Engine = EngineVLLM; lengths(8192, 1024)(j) })
	kv8 := servePlan(t, "llama-3.1-70b", "h100-sxm5-80gb", 2, func(j *Job) { j.Engine, j.KVPrecision = EngineVLLM, FP8; lengths(8192, 1024)(j) })
	if r := float64(kv8.Serving.MaxInFlight) / float64(kv16.Serving.MaxInFlight); r < 1.9 || r > 2.1 || kv16.Serving.MaxInFlight > 40 {
		t.Errorf("KV capacity: 16-bit %d, fp8 %d requests", kv16.Serving.MaxInFlight, kv8.Serving.MaxInFlight)
	}
	// asking for more in flight than the cache holds: capped, said
	e = servePlan(t, "llama-3.1-70b", "h100-sxm5-80gb", 2, func(j *Job) { j.Engine, j.Concurrency = EngineVLLM, 200; lengths(8192, 1024)(j) })
	if e.Serving.Concurrency != float64(kv16.Serving.MaxInFlight) || !strings.Contains(strings.Join(e.Notes, " "), "wait in the queue") {
		t.Errorf("200 asked: %v in flight, notes %v", e.Serving.Concurrency, e.Notes)
	}
}

// Published serving measurements that are not in the fit: the model is
// held to them within a stated band (the fitted constants, no per-row
// factor).
func TestServingMatchesPublished(t *testing.T) {
	// vLLM, Mistral-7B-Instruct-v0.3 on one RTX 4090, 256 in → 128 out,
	// max concurrency 4/16/48: 210/644/1190 output tokens/s
	// (https://mushfiqrahman.dev/?p=1668).
	for _, k := range []struct {
		c    int
		want float64
	}{{4, 210}, {16, 644}, {48, 1190}} {
		e := servePlan(t, "mistral-7b-v0.1", "rtx-4090", 1, func(j *Job) { j.Engine, j.Concurrency = EngineVLLM, k.c; lengths(256, 128)(j) })
		if !within(e.Serving.OutputTokPS, k.want, 0.25) {
			t.Errorf("4090 vLLM c=%d: %.0f output tok/s, measured %.0f", k.c, e.Serving.OutputTokPS, k.want)
		}
	}
	// vLLM, Llama-3.1-8B-Instruct BF16 on one A100 40GB, 1024 in / 128
	// out, one request at a time: ~75 tokens/s
	// (https://johnmusgrave.com/p/vllm-throughput-latency-sweep-on).
	e := servePlan(t, "llama-3.1-8b", "a100-sxm4-40gb", 1, func(j *Job) { j.Engine, j.Concurrency = EngineVLLM, 1; lengths(1024, 128)(j) })
	if got := 1 / e.Serving.TPOTS; !within(got, 75, 0.25) {
		t.Errorf("A100 40GB single stream: %.0f tok/s, measured ~75", got)
	}
	// llama.cpp, Llama 3 8B Q4_0 on an RTX 3090, one token per step
	// (micro-batch 1): 155 t/s (https://github.com/ggml-org/llama.cpp/pull/15802).
	e = servePlan(t, "llama-3.1-8b", "rtx-3090", 1, func(j *Job) { j.Engine, j.GGUFType = EngineLlamaCpp, "Q4_0"; lengths(512, 128)(j) })
	if !within(e.Serving.OutputTokPS, 155, 0.3) {
		t.Errorf("3090 llama.cpp Q4_0: %.0f tok/s, measured 155", e.Serving.OutputTokPS)
	}
}

// GGUF files weigh their bits per weight; GPTQ/AWQ keep embeddings in
// 16-bit; quantised decode runs at the fitted dequantising efficiency, so
// 4-bit is faster than 16-bit by less than the byte ratio; bitsandbytes
// pays a 16-bit round trip once more than one token is in a step.
func TestQuantisedWeights(t *testing.T) {
	q4 := servePlan(t, "llama-2-7b", "rtx-4090", 1, func(j *Job) { j.GGUFType = "Q4_K_M"; lengths(512, 128)(j) })
	q8 := servePlan(t, "llama-2-7b", "rtx-4090", 1, func(j *Job) { j.GGUFType = "Q8_0"; lengths(512, 128)(j) })
	if got := q4.Serving.WeightsGiB * gib; !within(got, 6.74e9*4.84/8, 0.001) {
		t.Errorf("Q4_K_M weighs %.3g bytes", got)
	}
	if r := q8.Serving.WeightsGiB / q4.Serving.WeightsGiB; !within(r, 8.5/4.84, 0.001) {
		t.Errorf("Q8_0/Q4_K_M weights: %.3f", r)
	}
	// DeepSeek-R1's "1.58-bit" file is IQ1_S: 671B at 1.5625 bits holds on two H100s
	iq1 := servePlan(t, "deepseek-r1", "h100-sxm5-80gb", 2, func(j *Job) { j.GGUFType = "IQ1_S"; lengths(512, 128)(j) })
	if got := iq1.Serving.WeightsGiB * gib; !within(got, mustModel(t, DefaultCatalog(), "deepseek-r1").Params()*1.5625/8, 0.001) || !iq1.Fits() {
		t.Errorf("IQ1_S DeepSeek-R1 weighs %.3g bytes, fits on 2 H100s: %v", got, iq1.Fits())
	}
	if q4.Serving.Engine != EngineLlamaCpp || q8.Serving.OutputTokPS >= q4.Serving.OutputTokPS {
		t.Errorf("Q4_K_M %0.f tok/s on %s, Q8_0 %0.f", q4.Serving.OutputTokPS, q4.Serving.Engine, q8.Serving.OutputTokPS)
	}
	one := func(j *Job) { j.Engine, j.Concurrency = EngineVLLM, 1; lengths(512, 128)(j) }
	bf := servePlan(t, "llama-3.1-8b", "l40s", 1, one)
	awq := servePlan(t, "llama-3.1-8b", "l40s", 1, func(j *Job) { one(j); j.Quant, j.Precision = AWQ, INT4 })
	emb := 128256.0 * 4096 * 2
	if got, want := awq.Serving.WeightsGiB*gib, (8.03e9-emb)*0.53+emb*2; !within(got, want, 0.01) {
		t.Errorf("AWQ weights %.3g bytes, want %.3g (16-bit embeddings)", got, want)
	}
	speed := awq.Serving.OutputTokPS / bf.Serving.OutputTokPS
	bytes := bf.Serving.WeightsGiB / awq.Serving.WeightsGiB
	if speed <= 1.5 || speed >= bytes {
		t.Errorf("AWQ single stream %.2fx bf16; bytes %.2fx", speed, bytes)
	}
	b16 := func(j *Job) { j.Engine, j.Concurrency = EngineVLLM, 16; lengths(512, 128)(j) }
	awq16 := servePlan(t, "llama-3.1-8b", "l40s", 1, func(j *Job) { b16(j); j.Quant, j.Precision = AWQ, INT4 })
	bnb16 := servePlan(t, "llama-3.1-8b", "l40s", 1, func(j *Job) { b16(j); j.Quant, j.Precision = BNB, INT4 })
	if bnb16.Serving.TPOTS <= awq16.Serving.TPOTS*1.5 {
		t.Errorf("bitsandbytes at 16 in flight: %.1f ms/token, AWQ %.1f", bnb16.Serving.TPOTS*1e3, awq16.Serving.TPOTS*1e3)
	}
}

// llama.cpp placement: layers split over GPUs add memory, not speed; row
// (tensor) split divides the reads; layers on the CPU run at host memory
// bandwidth, so each one more slows a token and more bandwidth helps.
func TestLocalLayerPlacement(t *testing.T) {
	q := func(mod func(*Job)) func(*Job) {
		return func(j *Job) { j.GGUFType = "Q4_K_M"; lengths(512, 128)(j); mod(j) }
	}
	layer := servePlan(t, "llama-3.1-70b", "rtx-3090", 2, q(func(*Job) {}))
	row := servePlan(t, "llama-3.1-70b", "rtx-3090", 2, q(func(j *Job) { j.Split = SplitTensor }))
	if !layer.Fits() || layer.Serving.CPULayers != 0 || row.Serving.TPOTS >= layer.Serving.TPOTS*0.75 {
		t.Errorf("2x 3090: layer split %.1f ms/token (fits %v, %d CPU layers), row split %.1f", layer.Serving.TPOTS*1e3, layer.Fits(),
			layer.Serving.CPULayers, row.Serving.TPOTS*1e3)
	}
	single := servePlan(t, "llama-3.1-8b", "rtx-3090", 1, q(func(*Job) {}))
	split := servePlan(t, "llama-3.1-8b", "rtx-3090", 2, q(func(*Job) {}))
	if !within(split.Serving.TPOTS, single.Serving.TPOTS, 0.02) {
		t.Errorf("layer split of a model that fits one GPU: %.2f ms vs %.2f ms", split.Serving.TPOTS*1e3, single.Serving.TPOTS*1e3)
	}
	auto := servePlan(t, "llama-3.1-70b", "rtx-4090", 1, q(func(*Job) {}))
	if auto.Serving.CPULayers == 0 || !auto.Fits() || auto.Serving.GPULayers+auto.Serving.CPULayers != 80 {
		t.Fatalf("70B Q4_K_M on one 4090: %+v", auto.Serving)
	}
	fewer := servePlan(t, "llama-3.1-70b", "rtx-4090", 1, q(func(j *Job) { j.GPULayers = auto.Serving.GPULayers - 20 }))
	fast := servePlan(t, "llama-3.1-70b", "rtx-4090", 1, q(func(j *Job) { j.HostMemBWGBs = 200 }))
	if fewer.Serving.TPOTS <= auto.Serving.TPOTS || fast.Serving.TPOTS >= auto.Serving.TPOTS {
		t.Errorf("ngl %d: %.0f ms; ngl %d: %.0f ms; 200 GB/s host: %.0f ms", auto.Serving.GPULayers, auto.Serving.TPOTS*1e3,
			fewer.Serving.GPULayers, fewer.Serving.TPOTS*1e3, fast.Serving.TPOTS*1e3)
	}
	// CPU decode is bandwidth: the CPU part of a token is its bytes over
	// host bandwidth at the fitted share
	all := servePlan(t, "llama-3.1-8b", "rtx-4090", 1, q(func(j *Job) { j.GPULayers = -1; j.HostMemBWGBs = 60 }))
	p := DefaultCatalog().params()
	want := all.Serving.WeightsGiB * gib / (60e9 * p.DecodeBW * p.DequantDecode)
	if !within(all.Serving.TPOTS, want, 0.1) {
		t.Errorf("all on the CPU: %.0f ms per token, want ~%.0f", all.Serving.TPOTS*1e3, want*1e3)
	}
	if !strings.Contains(all.Strategy, "32 layers on the CPU") {
		t.Errorf("strategy %q", all.Strategy)
	}
}

// CPU offload in an inference plan is llama.cpp's: as many layers on the
// GPU as fit, the rest on the CPU — not the training technique's error.
func TestInferenceCPUOffloadIsLayerSplit(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "llama-3-70b"), Workload: Inference, Offload: OffloadOptimizer}
	res := mustPlan(t, c, Request{NoSearch: true, Job: job, Targets: []Hardware{mustGPU(t, c, "4090", 1)}})
	e := res.Plans[0]
	if e.Serving == nil || e.Serving.CPULayers == 0 || e.Serving.GPULayers == 0 || !e.Memory.Fits {
		t.Fatalf("serving %+v, fits %v", e.Serving, e.Memory.Fits)
	}
	job.Engine = EngineVLLM // a server engine has no such offload here
	if _, err := c.Plan(Request{NoSearch: true, Job: job, Targets: []Hardware{mustGPU(t, c, "4090", 1)}}); err == nil {
		t.Error("vLLM with offload was planned; it should be refused")
	}
}

// A load given in generated tokens a second is that many requests of the
// output length: 2,560 tokens/s of 256-token answers plan as 10 req/s.
func TestOutputTokenRateIsRequests(t *testing.T) {
	byTok := servePlan(t, "llama-3.1-8b", "h100", 1, func(j *Job) { lengths(1024, 256)(j); j.Engine = EngineVLLM; j.OutputTokPS = 2560 })
	byReq := servePlan(t, "llama-3.1-8b", "h100", 1, func(j *Job) { lengths(1024, 256)(j); j.Engine = EngineVLLM; j.RequestRate = 10 })
	if a, b := byTok.Serving, byReq.Serving; a.RequestsPerS != b.RequestsPerS || a.Concurrency != b.Concurrency || a.LatencyS != b.LatencyS {
		t.Errorf("2560 tok/s: %+v; 10 req/s: %+v", a, b)
	}
}

// The launch line starts the engine the plan is for: llama-server with the
// GGUF file and its layers on the GPU, Ollama, TGI, SGLang, TensorRT-LLM,
// vLLM with the quantisation and KV format said (it was vLLM for all).
func TestLaunchLineNamesTheEngine(t *testing.T) {
	for _, k := range []struct {
		model  string
		n      int
		mod    func(*Job)
		starts []string
	}{
		{"llama-3-70b", 2, func(j *Job) { j.Engine, j.Quant, j.GGUFType = EngineLlamaCpp, GGUF, "Q4_K_M" }, []string{"llama-server -m <model>-Q4_K_M.gguf -ngl 80"}},
		{"llama-3-8b", 1, func(j *Job) { j.Engine, j.Quant, j.GGUFType = EngineOllama, GGUF, "Q4_K_M" }, []string{"ollama run <model>:q4_k_m"}},
		{"llama-3-70b", 2, func(j *Job) { j.Engine, j.Quant, j.Precision = EngineTGI, AWQ, INT4 }, []string{"text-generation-launcher", "--num-shard 2", "--quantize awq"}},
		{"llama-3-70b", 4, func(j *Job) { j.Engine = EngineSGLang }, []string{"sglang.launch_server", "--tp 4"}},
		{"llama-3-8b", 1, func(j *Job) { j.Engine, j.Precision = EngineTRTLLM, FP8 }, []string{"trtllm-serve", "--tp_size 1"}},
		{"llama-3-8b", 1, func(j *Job) { j.Engine, j.Quant, j.Precision, j.KVPrecision = EngineVLLM, GPTQ, INT4, FP8 }, []string{"vllm serve", "--quantization gptq", "--kv-cache-dtype fp8"}},
	} {
		e := servePlan(t, k.model, map[int]string{1: "h100", 2: "rtx-4090", 4: "h100"}[k.n], k.n, func(j *Job) { lengths(1024, 256)(j); k.mod(j) })
		for _, w := range k.starts {
			if !strings.Contains(e.Launch, w) {
				t.Errorf("%s on %d GPUs: launch %q lacks %q", k.model, k.n, e.Launch, w)
			}
		}
	}
}

// llama.cpp copies activations between the GPUs of a layer split itself:
// no NCCL buffers, and the layers it places on the GPUs fit them (a 70B
// Q5_K_M on two 3090s keeps most layers on the GPUs and fits).
func TestLlamaCppSplitFitsWhatItPlaces(t *testing.T) {
	c := DefaultCatalog()
	e := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "rtx-3090", 2)},
		Job: Job{Model: mustModel(t, c, "llama-3-70b"), Workload: Inference, Precision: INT8, Engine: EngineLlamaCpp, GGUFType: "Q5_K_M"}}).Plans[0]
	if !e.Memory.Fits || e.Serving == nil || e.Serving.CPULayers == 0 || e.Serving.GPULayers < 60 {
		t.Fatalf("fits %v (%.1f/%.1f GiB), serving %+v", e.Memory.Fits, e.Memory.PerGPUGiB, e.Memory.CapacityGiB, e.Serving)
	}
	for _, it := range e.Memory.Breakdown {
		if it.Name == "NCCL buffers" {
			t.Errorf("llama.cpp planned with NCCL buffers: %+v", e.Memory.Breakdown)
		}
	}
}

// ExLlamaV2 keeps every layer on the GPUs (no CPU offload): an EXL2 file
// is its bits per weight, a 70B at 4.65 bits fits two 24 GB cards and
// not one, where llama.cpp would spill layers to the CPU.
func TestExLlamaRunsOnTheGPUsOnly(t *testing.T) {
	c := DefaultCatalog()
	plan := func(n int) *Estimate {
		return mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "rtx-3090", n)},
			Job: Job{Model: mustModel(t, c, "llama-3-70b"), Workload: Inference, Precision: INT4, Engine: EngineExLlama, WeightBits: 4.65}}).Plans[0]
	}
	two, one := plan(2), plan(1)
	if !two.Memory.Fits || two.Serving.CPULayers != 0 || one.Memory.Fits || one.Serving.CPULayers != 0 {
		t.Fatalf("two: fits %v, cpu layers %d; one: fits %v, cpu layers %d", two.Memory.Fits, two.Serving.CPULayers, one.Memory.Fits, one.Serving.CPULayers)
	}
	want := mustModel(t, c, "llama-3-70b").Params() * 4.65 / 8 / (1 << 30)
	if got := two.Serving.WeightsGiB; math.Abs(got-want) > 0.01 {
		t.Errorf("weights %.2f GiB, want %.2f (4.65 bits a weight)", got, want)
	}
	if !strings.Contains(two.Launch, "4.65bpw") {
		t.Errorf("launch %q lacks the EXL2 file", two.Launch)
	}
}

// A request rate asked ("20 req/s") is a load the recommendation must
// carry: an option short of it ranks after every option that carries it,
// even when it is cheaper per token (probe 37: 2× H100 at ~15 req/s was
// the pick for Mistral 7B at 20 req/s).
func TestRecommendationCarriesTheRateAsked(t *testing.T) {
	c := DefaultCatalog()
	res, err := c.Plan(Request{Job: Job{Model: mustModel(t, c, "mistral-7b"), Workload: Inference, Engine: EngineVLLM, RequestRate: 20}})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Recommendations
	if r.Fastest == nil || r.Cheapest == nil || r.Balanced == nil {
		t.Fatalf("no recommendations: %+v", r)
	}
	for name, e := range map[string]*Estimate{"fastest": r.Fastest, "cheapest": r.Cheapest, "balanced": r.Balanced} {
		if e.Serving == nil || e.Serving.Saturated {
			t.Errorf("%s: %d GPUs short of 20 req/s (%+v)", name, e.GPUs, e.Serving)
		}
	}
}

// A model given by size alone has grouped-query attention with 8 KV heads
// from a billion parameters up, as the open decoders since Llama 2 70B do:
// a 70B said alone keeps about Llama 3 70B's KV cache per token, not 8x
// it (probe 37: "a 70B Q4_K_M on 2x 4090" spilled layers to the CPU).
func TestModelBySizeSharesKeysAndValues(t *testing.T) {
	c := DefaultCatalog()
	llama := mustModel(t, c, "llama-3-70b")
	kvPerToken := func(m Model) float64 { return float64(m.Layers * m.KVHeads * m.Hidden / m.Heads) }
	for _, params := range []float64{1.2e9, 7e9, 70e9, 405e9} {
		m, err := ModelFromParams(params)
		if err != nil {
			t.Fatal(err)
		}
		if m.KVHeads != min(m.Heads, 8) {
			t.Errorf("%s: %d KV heads of %d, want %d", m.ID, m.KVHeads, m.Heads, min(m.Heads, 8))
		}
	}
	m, _ := ModelFromParams(70e9)
	if r := kvPerToken(m) / kvPerToken(llama); r < 0.7 || r > 1.5 {
		t.Errorf("70B by size: KV per token %.2fx Llama 3 70B's", r)
	}
	if small, _ := ModelFromParams(125e6); small.KVHeads != small.Heads {
		t.Errorf("a 125M model by size: %d KV heads of %d, want every head its own (GPT-2's shape)", small.KVHeads, small.Heads)
	}
}

// An encoder served at a request rate is recommended on the least
// hardware that carries the rate: short of it ranks last, and room to
// spare costs more per sequence (probe 39: e5-large at 1000 req/s got 2×
// RTX 4090 at 542 sequences/s).
func TestEncoderRecommendationCarriesTheRate(t *testing.T) {
	c := DefaultCatalog()
	h100, _, err := c.GPU("h100")
	if err != nil {
		t.Fatal(err)
	}
	var pool []Hardware
	for _, n := range []int{1, 2, 4, 8} {
		pool = append(pool, Hardware{GPU: h100, Count: n})
	}
	res, err := c.Plan(Request{Job: Job{Model: mustModel(t, c, "e5-large"), Workload: Inference, RequestRate: 1000}, Pool: pool})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Recommendations
	if r.Cheapest == nil || r.Balanced == nil {
		t.Fatalf("no recommendations: %+v", r)
	}
	for name, e := range map[string]*Estimate{"cheapest": r.Cheapest, "balanced": r.Balanced} {
		if e.Throughput.SamplesPerS < 1000 {
			t.Errorf("%s: %d GPUs at %.0f sequences/s, short of 1000", name, e.GPUs, e.Throughput.SamplesPerS)
		}
		if e.GPUs == 8 {
			t.Errorf("%s: all eight H100s for a load fewer carry", name)
		}
	}
}
