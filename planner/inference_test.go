package planner

import (
	"math"
	"strings"
	"testing"
)

// CNN inference is images/s from per-image FLOPs, compute-bound at batch:
// not the LLM decode path (which put ResNet-50 on a T4 ~480x too fast, with
// no weights and a tokens/s figure).
func TestCNNInferenceIsImagesPerSecond(t *testing.T) {
	c := DefaultCatalog()
	res := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "t4", 1)},
		Job: Job{Model: mustModel(t, c, "resnet-50"), Workload: Inference, Precision: FP16, GlobalBatch: 256, Stack: Tuned}})
	e := res.Plans[0]
	if !strings.Contains(e.RateText(), "images/s at batch 256") {
		t.Errorf("rate text %q", e.RateText())
	}
	if e.InferencePath != "images" || e.Time.PerTokenS != 0 || e.Throughput.TokensPerS != 0 {
		t.Errorf("path %q, per-token %v, tokens/s %v: want images/s only", e.InferencePath, e.Time.PerTokenS, e.Throughput.TokensPerS)
	}
	// NVIDIA DeepLearningExamples: 1198 img/s at batch 256, AMP, T4.
	if r := e.Throughput.SamplesPerS / 1198; r < 0.7 || r > 1.4 {
		t.Errorf("ResNet-50 T4 fp16 b256: %.0f img/s, measured 1198", e.Throughput.SamplesPerS)
	}
	// The per-image rate rises with the batch until the GPU is full, and
	// the batch's latency is reported.
	small := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "t4", 1)},
		Job: Job{Model: mustModel(t, c, "resnet-50"), Workload: Inference, Precision: FP16, GlobalBatch: 1, Stack: Tuned}}).Plans[0]
	if small.Throughput.SamplesPerS >= e.Throughput.SamplesPerS || small.Time.BatchLatencyS <= 0 {
		t.Errorf("batch 1: %.0f img/s (latency %v) vs batch 256 %.0f", small.Throughput.SamplesPerS, small.Time.BatchLatencyS, e.Throughput.SamplesPerS)
	}
	var weights, kv float64
	for _, it := range e.Memory.Breakdown {
		switch it.Name {
		case "weights":
			weights = it.GiB
		case "KV cache":
			kv = it.GiB
		}
	}
	if want := 25.6e6 * 2 / gib; math.Abs(weights/want-1) > 0.05 || kv != 0 {
		t.Errorf("weights %.3f GiB (want %.3f), KV %.3f (want none)", weights, want, kv)
	}
	// Two GPUs are two replicas: twice the images/s.
	two := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "t4", 2)},
		Job: Job{Model: mustModel(t, c, "resnet-50"), Workload: Inference, Precision: FP16, GlobalBatch: 512, Stack: Tuned}}).Plans[0]
	if r := two.Throughput.SamplesPerS / e.Throughput.SamplesPerS; math.Abs(r-2) > 0.01 {
		t.Errorf("2 replicas: %.2fx one GPU", r)
	}
}

// Encoder inference is one compute-bound forward pass per sequence.
func TestEncoderInferenceIsAForwardPass(t *testing.T) {
	c := DefaultCatalog()
	v100 := mustGPU(t, c, "v100-16gb", 1)
	job := Job{Model: mustModel(t, c, "bert-large"), Workload: Inference, Precision: FP16, GlobalBatch: 4, SeqLen: 384, Stack: Tuned}
	e := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{v100}, Job: job}).Plans[0]
	if e.InferencePath != "forward" || e.Time.PerTokenS != 0 {
		t.Errorf("path %q per-token %v", e.InferencePath, e.Time.PerTokenS)
	}
	// NVIDIA DeepLearningExamples (pytorch 19.07): 119.76 sequences/s at
	// batch 4, where a 2019 host's kernel issue weighs: within 2x.
	if r := e.Throughput.SamplesPerS / 119.76; r < 0.5 || r > 2 {
		t.Errorf("BERT-large SQuAD inference V100 fp16: %.0f seq/s, measured 119.76", e.Throughput.SamplesPerS)
	}
	// Compute-bound, HF BertModel in fp16 on an H200 (docs/device, DV25):
	// 1,540 sequences/s at seq 384, batch 32 — the utilization of a ViT
	// of the same width, with no fine-tuning penalty.
	h200 := mustGPU(t, c, "h200", 1)
	big := job
	big.GlobalBatch, big.Stack = 32, ""
	eb := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{h200}, Job: big}).Plans[0]
	if r := eb.Throughput.SamplesPerS / 1540; r < 0.7 || r > 1.4 {
		t.Errorf("BERT-large inference H200 batch 32: %.0f seq/s, measured 1540", eb.Throughput.SamplesPerS)
	}
	// A forward pass is a third of a training step's work, and task
	// fine-tuning runs below inference's utilization (on the H200, BERT-
	// large fine-tuning reaches ~15 % of peak, its inference ~36 %):
	// inference runs 3-8x the fine-tuning rate on the same GPU.
	ft := big
	ft.Workload, ft.MicroBatch = Finetune, 32
	tr := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{h200}, Job: ft}).Plans[0]
	if r := eb.Throughput.SamplesPerS / tr.Throughput.SamplesPerS; r < 3 || r > 8 {
		t.Errorf("inference/fine-tuning rate %.2f, want 3-8", r)
	}
}

// Decoder inference: prefill compute-bound, decode memory-bound at batch 1
// (each token reads every weight once) and compute-bound at large batch.
func TestDecoderInferenceIsPrefillPlusDecode(t *testing.T) {
	c := DefaultCatalog()
	m := mustModel(t, c, "llama-3-8b")
	h100 := mustGPU(t, c, "h100", 1)
	one := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{h100},
		Job: Job{Model: m, Workload: Inference, GlobalBatch: 1, SeqLen: 2048, GenTokens: 256}}).Plans[0]
	if one.InferencePath != "decode" || one.Time.PrefillS <= 0 {
		t.Fatalf("path %q prefill %v", one.InferencePath, one.Time.PrefillS)
	}
	bw := h100.GPU.MemBWGBs * 1e9 * fittedParams.DecodeBW
	want := m.Params() * 2 / bw
	if r := one.Time.PerTokenS / want; r < 1 || r > 1.1 {
		t.Errorf("batch 1: %.2f ms per token, weights/bandwidth gives %.2f ms", one.Time.PerTokenS*1e3, want*1e3)
	}
	big := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{h100},
		Job: Job{Model: m, Workload: Inference, GlobalBatch: 64, SeqLen: 2048, GenTokens: 256}}).Plans[0]
	if big.Throughput.TokensPerS < 20*one.Throughput.TokensPerS {
		t.Errorf("batch 64 decode %.0f tokens/s vs batch 1 %.0f: batching should amortise the weight reads", big.Throughput.TokensPerS, one.Throughput.TokensPerS)
	}
	// Prefill of 1792 prompt tokens is compute-bound: a fraction of a second.
	if one.Time.PrefillS > 0.5 || one.Time.PrefillS < 0.02 {
		t.Errorf("prefill %.3f s", one.Time.PrefillS)
	}
}

// Forward-only inference gets forward-only advice and launch: no KV
// cache, no vLLM; and a CNN carries no transformer stack penalty.
func TestForwardInferenceAdviceAndStack(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "resnet-50"), Workload: Inference, Precision: FP16, GlobalBatch: 256}
	res := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "t4", 1)}, Job: job})
	e := res.Plans[0]
	if strings.Contains(e.Launch, "vllm") || !strings.Contains(e.Launch, "trtexec") {
		t.Errorf("launch %q", e.Launch)
	}
	for _, a := range res.Advice {
		if strings.Contains(a.Text, "KV cache;") {
			t.Errorf("KV-cache advice for a CNN: %q", a.Text)
		}
	}
	job.Stack = Tuned
	tuned := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "t4", 1)}, Job: job}).Plans[0]
	if math.Abs(tuned.Throughput.SamplesPerS/e.Throughput.SamplesPerS-1) > 1e-9 {
		t.Errorf("ResNet-50 inference: %.0f img/s tuned vs %.0f plain PyTorch; CNNs run the same cuDNN kernels", tuned.Throughput.SamplesPerS, e.Throughput.SamplesPerS)
	}
}

// A bulk job of a forward model with no batch said ("embed 100M
// sentences") runs batched, at the batch where throughput levels off,
// and says so; a rate asked with no work keeps batch 1 (one request).
func TestBulkForwardJobsRunBatched(t *testing.T) {
	c := DefaultCatalog()
	a10 := mustGPU(t, c, "a10", 1)
	job := Job{Model: mustModel(t, c, "e5-large-v2"), Workload: Inference, SeqLen: 128, Samples: 1e8}
	res := mustPlan(t, c, Request{Job: job, NoSearch: true, Targets: []Hardware{a10}})
	bulk := res.Plans[0]
	if bulk.MicroBatch < 8 || !strings.Contains(strings.Join(res.Assumptions, " "), "bulk job") {
		t.Errorf("100M sentences on an A10: batch %d, assumptions %v", bulk.MicroBatch, res.Assumptions)
	}
	job.Samples = 0
	one := mustPlan(t, c, Request{Job: job, NoSearch: true, Targets: []Hardware{a10}}).Plans[0]
	if one.MicroBatch != 1 || bulk.Throughput.SamplesPerS < 3*one.Throughput.SamplesPerS {
		t.Errorf("no work said: batch %d at %.0f/s; bulk %.0f/s", one.MicroBatch, one.Throughput.SamplesPerS, bulk.Throughput.SamplesPerS)
	}
}

// A decoder's bulk work with no batch, load or engine said runs batched,
// as an offline engine runs it; said eager (`hf`), it stays one sequence
// at a time.
func TestBulkDecodeBatched(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "llama-3-8b"), Workload: Inference, DatasetSamples: 1e6}
	hw := []Hardware{mustGPU(t, c, "h100", 1)}
	e := mustPlan(t, c, Request{NoSearch: true, Job: job, Targets: hw}).Plans[0]
	if e.Serving == nil || e.Serving.Concurrency < 16 || e.Time.TotalHours == nil {
		t.Fatalf("bulk decode: serving %+v", e.Serving)
	}
	batched := *e.Time.TotalHours
	job.Stack = HF
	e = mustPlan(t, c, Request{NoSearch: true, Job: job, Targets: hw}).Plans[0]
	if e.Serving != nil || e.Time.TotalHours == nil || *e.Time.TotalHours < 5*batched {
		t.Errorf("hf bulk decode: serving %v, %v h against %.1f h batched", e.Serving != nil, e.Time.TotalHours, batched)
	}
}

// AWQ's kernels do not run on Volta: a V100 plan says so when AWQ is
// asked, and serves 4-bit weights as GPTQ when no method is.
func TestAWQNotOnVolta(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "qwen2.5-32b"), Workload: Inference, Precision: INT4, Engine: EngineVLLM, Quant: AWQ}
	hw := []Hardware{mustGPU(t, c, "v100", 2)}
	res := mustPlan(t, c, Request{NoSearch: true, Job: job, Targets: hw})
	warned := false
	for _, a := range res.Advice {
		warned = warned || strings.Contains(a.Text, "AWQ's kernels need a Turing GPU")
	}
	if !warned {
		t.Errorf("awq on v100: no warning in %+v", res.Advice)
	}
	job.Quant = ""
	if e := mustPlan(t, c, Request{NoSearch: true, Job: job, Targets: hw}).Plans[0]; !strings.Contains(e.Launch, "--quantization gptq") {
		t.Errorf("int4 on v100: launch %q", e.Launch)
	}
	if e := mustPlan(t, c, Request{NoSearch: true, Job: job, Targets: []Hardware{mustGPU(t, c, "a100", 1)}}).Plans[0]; !strings.Contains(e.Launch, "--quantization awq") {
		t.Errorf("int4 on a100: launch %q", e.Launch)
	}
}

// A launch line admits the model's context (up to 4,096) whatever the
// mean length planned, and no more sequences than the engine's cap.
func TestLaunchLineAdmitsLongRequests(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "qwen2.5-7b"), Workload: Inference, SeqLen: 404, GenTokens: 194}
	e := mustPlan(t, c, Request{NoSearch: true, Job: job, Targets: []Hardware{mustGPU(t, c, "h200", 1)}}).Plans[0]
	if !strings.Contains(e.Launch, "--max-model-len 4096") || !strings.Contains(e.Launch, "--max-num-seqs 256") {
		t.Errorf("launch %q", e.Launch)
	}
}
