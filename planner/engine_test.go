package planner

import (
	"strings"
	"testing"
)

// A TensorRT engine runs an encoder's forward as a few fused kernels
// enqueued from C++: at batch 1 it is several times faster than eager
// PyTorch, whose host issues ~75 ATen operators a layer, and the floor it
// does have is the GPU's, so the estimate is not marked host-bound. At
// large batches both are compute-bound and close.
func TestTensorRTEncoderHasNoHostFloor(t *testing.T) {
	c := DefaultCatalog()
	plan := func(engine Engine, batch int) *Estimate {
		return mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "a100-sxm4-40gb", 1)},
			Job: Job{Model: mustModel(t, c, "bert-base"), Workload: Inference, Precision: FP16, SeqLen: 128, GlobalBatch: batch, Engine: engine}}).Plans[0]
	}
	eager, trt := plan("", 1), plan(EngineTensorRT, 1)
	if !eager.HostBound || trt.HostBound {
		t.Errorf("host-bound: eager %v, TensorRT %v; want true, false", eager.HostBound, trt.HostBound)
	}
	if r := trt.Throughput.SamplesPerS / eager.Throughput.SamplesPerS; r < 3 {
		t.Errorf("batch 1: TensorRT %.0f seq/s, eager %.0f (%.1fx); want several times faster", trt.Throughput.SamplesPerS, eager.Throughput.SamplesPerS, r)
	}
	// TensorRT-LLM named for an encoder is TensorRT itself.
	if llm := plan(EngineTRTLLM, 1); llm.Throughput.SamplesPerS != trt.Throughput.SamplesPerS {
		t.Errorf("trt-llm %.0f vs tensorrt %.0f seq/s for an encoder", llm.Throughput.SamplesPerS, trt.Throughput.SamplesPerS)
	}
	bigEager, bigTRT := plan("", 128), plan(EngineTensorRT, 128)
	if r := bigTRT.Throughput.SamplesPerS / bigEager.Throughput.SamplesPerS; r < 1 || r > 1.6 {
		t.Errorf("batch 128: TensorRT %.0f vs eager %.0f seq/s (%.2fx); want both compute-bound", bigTRT.Throughput.SamplesPerS, bigEager.Throughput.SamplesPerS, r)
	}
	var said bool
	for _, a := range mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "a100-sxm4-40gb", 1)},
		Job: Job{Model: mustModel(t, c, "bert-base"), Workload: Inference, Precision: FP16, SeqLen: 128, GlobalBatch: 1, Engine: EngineTensorRT}}).Advice {
		said = said || strings.Contains(a.Text, "TensorRT engine")
	}
	if !said {
		t.Error("no advice says the TensorRT engine's kernels set the small-batch latency")
	}
}

// The kernel floor is per kernel: BERT-large has twice BERT-base's layers
// and so about twice its batch-1 latency under TensorRT.
func TestTensorRTFloorCountsKernels(t *testing.T) {
	if b, l := engineKernels(Model{Kind: Encoder, Layers: 12, Hidden: 768, Heads: 12}), engineKernels(Model{Kind: Encoder, Layers: 24, Hidden: 1024, Heads: 16}); b != 87 || l != 171 {
		t.Errorf("kernels: base %v, large %v; want 87, 171", b, l)
	}
	if k := engineKernels(Model{Kind: VisionConv, Layers: 50}); k != 52 {
		t.Errorf("ResNet-50: %v kernels, want 52", k)
	}
}

// Power: a card given less power per TFLOPS than its generation needs at
// full clock cannot hold its quoted peak. Only the 70 W inference cards
// are short of it; the datasheet peak is still what the catalogue shows.
func TestPowerLimitedCardsHoldPartOfTheirPeak(t *testing.T) {
	c := DefaultCatalog()
	for id, want := range map[string]float64{"t4": 0.50, "l4": 0.72, "a100-pcie-40gb": 1, "h100-pcie-80gb": 1, "a30": 1, "a10": 1, "rtx-4090": 1, "v100-pcie-16gb": 1} {
		g := mustGPU(t, c, id, 1).GPU
		if s := sustainedShare(g); s < want-0.01 || s > want+0.01 {
			t.Errorf("%s holds %.2f of its peak, want %.2f", id, s, want)
		}
	}
	t4 := mustGPU(t, c, "t4", 1).GPU
	if v, _ := t4.Peak(FP16); v != 65 {
		t.Errorf("T4 datasheet fp16 peak %v, want 65", v)
	}
	if v := effectivePeak(t4, FP16); v > 33 || v < 32 {
		t.Errorf("T4 sustained fp16 peak %.1f, want ~32.6", v)
	}
	if v := effectivePeak(t4, FP32); v != 8.1 {
		t.Errorf("T4 fp32 (CUDA cores) %.1f, want the datasheet's 8.1", v)
	}
}

// A graph runtime (TensorFlow with XLA, JAX, ONNX Runtime) issues the
// forward from C++: at batch 1 it sits between eager PyTorch, whose host
// runs 75 operators a layer through Python, and a TensorRT engine, whose
// floor is the GPU's own; its pace is still the host's.
func TestGraphRuntimeSitsBetweenEagerAndTensorRT(t *testing.T) {
	c := DefaultCatalog()
	plan := func(engine Engine) *Estimate {
		return mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "v100-sxm2-16gb", 1)},
			Job: Job{Model: mustModel(t, c, "bert-base"), Workload: Inference, Precision: FP16, SeqLen: 128, GlobalBatch: 1, Engine: engine}}).Plans[0]
	}
	eager, graph, trt := plan(""), plan(EngineGraph), plan(EngineTensorRT)
	if !(eager.Throughput.SamplesPerS < graph.Throughput.SamplesPerS && graph.Throughput.SamplesPerS < trt.Throughput.SamplesPerS) {
		t.Errorf("batch 1 on a V100: eager %.0f, graph %.0f, TensorRT %.0f seq/s; want them in that order", eager.Throughput.SamplesPerS, graph.Throughput.SamplesPerS, trt.Throughput.SamplesPerS)
	}
	if !graph.HostBound {
		t.Error("a graph runtime at batch 1 is paced by its host's issue")
	}
	if g := graphOps(c.params(), mustModel(t, c, "bert-base")); g >= forwardOps(mustModel(t, c, "bert-base")) {
		t.Errorf("graph operators %.0f, not fewer than eager's", g)
	}
}

// Training in TensorFlow or JAX (the Graph stack) moves eager PyTorch's
// bytes under mixed precision but issues the step with no Python between
// operators: slower than a fused stack at a large micro-batch, faster than
// eager PyTorch where the host paces a small one, and launched as a
// TensorFlow/JAX script, not torchrun.
func TestGraphStackTraining(t *testing.T) {
	c := DefaultCatalog()
	plan := func(stack Stack, micro int) *Estimate {
		return mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "a100-sxm4-80gb", 1)},
			Job: Job{Model: mustModel(t, c, "bert-large"), Workload: Pretrain, Precision: FP16, SeqLen: 128, MicroBatch: micro, GlobalBatch: micro * 4, Stack: stack}}).Plans[0]
	}
	big := func(s Stack) float64 { return plan(s, 256).Throughput.SamplesPerS }
	if !(big(Graph) < big(Tuned)) {
		t.Errorf("micro 256: graph %.0f, tuned %.0f seq/s; want the graph below the fused stack", big(Graph), big(Tuned))
	}
	small := func(s Stack) *Estimate { return plan(s, 1) }
	if g, h := small(Graph), small(HF); !(g.Throughput.SamplesPerS > h.Throughput.SamplesPerS) || !h.HostBound {
		t.Errorf("micro 1: graph %.1f, eager %.1f seq/s (eager host-bound %v); want the graph faster where Python paces eager", g.Throughput.SamplesPerS, h.Throughput.SamplesPerS, h.HostBound)
	}
	e := plan(Graph, 64)
	if strings.Contains(e.Launch, "torchrun") || !strings.Contains(e.Launch, "mixed_float16") {
		t.Errorf("launch %q, want a TensorFlow/JAX script with its mixed-precision policy", e.Launch)
	}
}

// A TensorRT engine runs a CNN with batch norm folded into its
// convolutions and the activation and residual add in their epilogues, and
// an int8 engine keeps its activations in 8 bits: at a large batch it
// moves a fraction of eager PyTorch's bytes, so ResNet-50 runs several
// times faster than eager fp16 (which the device rows put at ~13.9k
// images/s on an H100), and int8 faster than fp16.
func TestTensorRTCNNMovesFewerBytes(t *testing.T) {
	c := DefaultCatalog()
	rate := func(engine Engine, p Precision) float64 {
		return mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h100-sxm5-80gb", 1)},
			Job: Job{Model: mustModel(t, c, "resnet50"), Workload: Inference, Precision: p, GlobalBatch: 1024, Engine: engine}}).Plans[0].Throughput.SamplesPerS
	}
	eager, fp16, int8 := rate("", FP16), rate(EngineTensorRT, FP16), rate(EngineTensorRT, INT8)
	if fp16 < 1.5*eager || int8 < 1.5*fp16 {
		t.Errorf("ResNet-50 on an H100: eager fp16 %.0f, TensorRT fp16 %.0f, TensorRT int8 %.0f images/s; want each well above the last", eager, fp16, int8)
	}
}
