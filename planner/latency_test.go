package planner

import (
	"strings"
	"testing"
)

// A forward pass at a small batch is bound by the host issuing its
// kernels, not by the GPU: batch 1 and batch 8 take about as long, the
// latency does not depend on the GPU, and a batch of 1 is not faster per
// image than the GPU's compute allows (the model once put ResNet-50 at
// batch 1 on a T4 11x too fast).
func TestSmallBatchInferenceHasALatencyFloor(t *testing.T) {
	c := DefaultCatalog()
	rn := mustModel(t, c, "resnet-50")
	at := func(gpu string, p Precision, batch int) *Estimate {
		t.Helper()
		return mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, gpu, 1)},
			Job: Job{Model: rn, Workload: Inference, Precision: p, GlobalBatch: batch, Stack: Tuned}}).Plans[0]
	}
	// NVIDIA DeepLearningExamples, ResNet-50 v1.5 inference tables
	// (pytorch-21.03): images/s at batch 1, 4 and 256. The floor is the
	// host's, and hosts differ: the same 280 kernels take 12.8 ms on
	// NVIDIA's V100 host and 3.2 ms on the 2026 H200 host of docs/device.
	// The launch-bound rows (batch 4 and below) are held within 2x, the
	// compute-bound ones within 0.7-1.4.
	for _, k := range []struct {
		gpu      string
		p        Precision
		batch    int
		measured float64
	}{
		{"t4", FP16, 1, 79}, {"v100-16gb", FP16, 1, 78}, {"v100-16gb", FP16, 4, 300},
		{"v100-16gb", FP32, 1, 96}, {"t4", FP32, 4, 325}, {"t4", FP16, 256, 1198},
	} {
		e := at(k.gpu, k.p, k.batch)
		lo, hi := 0.7, 1.4
		if k.batch <= 4 {
			lo, hi = 0.5, 2
		}
		if r := e.Throughput.SamplesPerS / k.measured; r < lo || r > hi {
			t.Errorf("%s %s batch %d: %.0f images/s, measured %.0f", k.gpu, k.p, k.batch, e.Throughput.SamplesPerS, k.measured)
		}
	}
	b1, b8 := at("t4", FP16, 1), at("t4", FP16, 8)
	if r := b8.Time.BatchLatencyS / b1.Time.BatchLatencyS; r > 1.3 {
		t.Errorf("T4 batch 8 takes %.2fx batch 1: small batches should be launch-bound", r)
	}
	// The floor lies between the slowest and the fastest host measured.
	if ms := b1.Time.BatchLatencyS * 1e3; ms < 3.2 || ms > 12.8 {
		t.Errorf("batch-1 floor %.1f ms, outside the 3.2-12.8 ms the hosts measured", ms)
	}
	// A V100 has twice a T4's fp16 compute but sits on the same
	// generation of host: batch 1 takes as long. An H100's host is two
	// platform generations newer: its floor is the T4's over HostGen²,
	// however much more compute it has (15x).
	if r := at("v100-16gb", FP16, 1).Time.BatchLatencyS / b1.Time.BatchLatencyS; r < 0.9 || r > 1.1 {
		t.Errorf("batch 1 on a V100 takes %.2fx a T4's: the floor is the host's, not the GPU's", r)
	}
	hg := fittedParams.HostGen
	if r := at("h100", FP16, 1).Time.BatchLatencyS / b1.Time.BatchLatencyS; r < 0.9/(hg*hg) || r > 1.1/(hg*hg) {
		t.Errorf("batch 1 on an H100 takes %.2fx a T4's, want the host generations' %.2fx", r, 1/(hg*hg))
	}
	// At a large batch the floor is hidden behind the compute.
	if b256 := at("t4", FP16, 256); b256.Time.BatchLatencyS < 10*b1.Time.BatchLatencyS {
		t.Errorf("batch 256 %.1f ms vs batch 1 %.1f ms", b256.Time.BatchLatencyS*1e3, b1.Time.BatchLatencyS*1e3)
	}
}

// An estimate the host paces says so, in the flag and in the advice; one
// the GPU paces does not. Training has the same floor: BERT-base at
// micro-batch 8 on an H200 is host-bound, Llama 3 8B at 2 x 2048 tokens is
// not.
func TestHostBoundIsMarked(t *testing.T) {
	c := DefaultCatalog()
	infer := func(batch int) *Result {
		return mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h100", 1)},
			Job: Job{Model: mustModel(t, c, "resnet-50"), Workload: Inference, Precision: FP16, GlobalBatch: batch}})
	}
	speedAdvice := func(r *Result) bool {
		for _, a := range r.Advice {
			if a.Topic == "speed" && strings.Contains(a.Text, "the host sets the pace") {
				return true
			}
		}
		return false
	}
	b1, b256 := infer(1), infer(256)
	if !b1.Plans[0].HostBound || !speedAdvice(b1) {
		t.Errorf("ResNet-50 batch 1: host-bound %v, advice %v", b1.Plans[0].HostBound, speedAdvice(b1))
	}
	if b256.Plans[0].HostBound || speedAdvice(b256) {
		t.Errorf("ResNet-50 batch 256 is the GPU's: host-bound %v", b256.Plans[0].HostBound)
	}
	train := func(model string, seq, micro int) *Estimate {
		return mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h200", 1)},
			Job: Job{Model: mustModel(t, c, model), Workload: Finetune, Precision: BF16, SeqLen: seq,
				MicroBatch: micro, GlobalBatch: micro, Samples: 1e5}}).Plans[0]
	}
	if e := train("bert-base", 128, 8); !e.HostBound {
		t.Errorf("BERT-base fine-tuning at micro-batch 8 should be host-bound")
	}
	tr := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h200", 1)},
		Job: Job{Model: mustModel(t, c, "bert-base"), Workload: Finetune, Precision: BF16, SeqLen: 128, MicroBatch: 8, GlobalBatch: 8, Samples: 1e5}})
	var speed string
	for _, a := range tr.Advice {
		if a.Topic == "speed" {
			speed = a.Text
		}
	}
	if !strings.Contains(speed, "micro-batch") || strings.Contains(speed, "inference engine") {
		t.Errorf("host-bound training advice should speak of the micro-batch, not an inference engine: %q", speed)
	}
	if e := train("llama-3.1-8b", 2048, 2); e.HostBound {
		t.Errorf("Llama 3.1 8B at 2 x 2048 tokens should not be host-bound")
	}
}

// A decoder served by eager PyTorch (`transformers`, `hf`, named) decodes
// at the host's pace: each token is a forward pass of decodeOps operators
// issued from Python, so an H100 is no faster than its host allows, a
// bigger batch costs almost nothing more per step, and the advice gives
// the engine's rate beside it. Said by no stack word, decode stays an
// engine's; `tuned` (torch.compile, an engine) is the GPU's pace. An
// attention kernel named with no engine (LitGPT's and transformers'
// generate with FlashAttention) is a PyTorch program too; with an engine
// named, the kernel is the engine's.
func TestEagerDecodeIsTheHostsPace(t *testing.T) {
	c := DefaultCatalog()
	m := mustModel(t, c, "llama-3-8b")
	at := func(s Stack, batch int) (*Estimate, *Result) {
		t.Helper()
		r := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h100-sxm5-80gb", 1)},
			Job: Job{Model: m, Workload: Inference, Precision: BF16, GlobalBatch: batch, SeqLen: 768, GenTokens: 256, Stack: s}})
		return r.Plans[0], r
	}
	def, _ := at("", 1)
	eager, res := at(HF, 1)
	tuned, _ := at(Tuned, 1)
	if def.HostBound || tuned.HostBound || !eager.HostBound {
		t.Fatalf("host-bound: default %v, tuned %v, hf %v; want only hf", def.HostBound, tuned.HostBound, eager.HostBound)
	}
	if def.Throughput.TokensPerS != tuned.Throughput.TokensPerS {
		t.Errorf("no stack word: %.0f tokens/s, tuned %.0f: both are an engine's", def.Throughput.TokensPerS, tuned.Throughput.TokensPerS)
	}
	// 32 layers × 170 operators at the H100 host's operator cost, against
	// 15 GB read at the GPU's bandwidth in ~6 ms
	issue := decodeOps(m) * opS(&fittedParams, mustGPU(t, c, "h100-sxm5-80gb", 1).GPU)
	if got := eager.Time.PerTokenS; got < issue || got > 1.1*issue {
		t.Errorf("eager decode %.1f ms a token; the host issues it in %.1f ms", got*1e3, issue*1e3)
	}
	if r := def.Throughput.TokensPerS / eager.Throughput.TokensPerS; r < 2.5 {
		t.Errorf("an engine decodes %.1fx eager PyTorch's rate on an H100 at batch 1; the host should cost more", r)
	}
	if b8, _ := at(HF, 8); b8.Time.PerTokenS > 1.05*eager.Time.PerTokenS {
		t.Errorf("eager batch 8 takes %.1f ms a step, batch 1 %.1f: the host's issue does not grow with the batch", b8.Time.PerTokenS*1e3, eager.Time.PerTokenS*1e3)
	}
	kernel := func(engine Engine) *Estimate {
		t.Helper()
		r := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h100-sxm5-80gb", 1)},
			Job: Job{Model: m, Workload: Inference, Precision: BF16, GlobalBatch: 1, SeqLen: 768, GenTokens: 256, Attention: Flash, Engine: engine}})
		return r.Plans[0]
	}
	if e := kernel(""); !e.HostBound || e.Time.PerTokenS != eager.Time.PerTokenS {
		t.Errorf("`flash` and no engine: host-bound %v, %.1f ms a token; want eager's %.1f", e.HostBound, e.Time.PerTokenS*1e3, eager.Time.PerTokenS*1e3)
	}
	if e := kernel("vllm"); e.HostBound {
		t.Errorf("`flash` with vllm is host-bound: the engine's kernel, the engine's pace")
	}
	said := strings.Join(eager.Assumptions, "\n")
	for _, a := range res.Advice {
		said += "\n" + a.Text
	}
	for _, w := range []string{"eager PyTorch decode", "host sets the pace", sig3(def.Throughput.TokensPerS) + " tokens/s"} {
		if !strings.Contains(said, w) {
			t.Errorf("the eager plan does not say %q:\n%s", w, said)
		}
	}
}
