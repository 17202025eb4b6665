package planner

import (
	"math"
	"testing"
)

// A small all-reduce through NCCL costs what nccl-tests measured on a DGX
// A100 (Ring, one channel): 10 µs on 2 GPUs, 16.9 on 4, 33.7 on 8.
func TestNCCLAllReduceLatencyGrowsWithTheRing(t *testing.T) {
	for n, us := range map[int]float64{2: 10, 4: 16.9, 8: 33.7} {
		if got := ncclAllReduceLatencyS(n) * 1e6; math.Abs(got-us) > 1.5 {
			t.Errorf("%d GPUs: %.1f µs, measured %.1f", n, got, us)
		}
	}
}

// Decode at batch 1 without an engine pays two all-reduces a layer per
// token: on 8 GPUs Llama 2 7B's 32 layers add 64 × 34 µs to the 1.1 ms
// its weight reads take, so it runs well under 8x one GPU's pace.
func TestTensorParallelDecodePaysItsAllReduces(t *testing.T) {
	c := DefaultCatalog()
	m := mustModel(t, c, "llama-2-7b")
	tokS := func(n int) float64 {
		r := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "a100-sxm4-80gb", n)},
			Job: Job{Model: m, Workload: Inference, Precision: BF16, SeqLen: 405, GenTokens: 200, GlobalBatch: 1, Stack: Tuned}})
		return r.Plans[0].Throughput.TokensPerS
	}
	one, eight := tokS(1), tokS(8)
	perTok1, perTok8 := 1/one, 1/eight
	comm := 2 * 32 * ncclAllReduceLatencyS(8)
	if got := perTok8 - perTok1/8; got < 0.9*comm {
		t.Errorf("8 GPUs: %.2f ms a token beyond an eighth of one GPU's, want the all-reduces' %.2f ms", got*1e3, comm*1e3)
	}
}

// A mixture of experts at a batch of one reads the experts its token is
// routed to and no others; a large batch reads them all.
func TestMoEDecodeReadsTheRoutedExperts(t *testing.T) {
	c := DefaultCatalog()
	m := mustModel(t, c, "mixtral-8x7b")
	total := m.Params() * 2
	if got, want := weightsTouched(m, total, 1), m.ActiveParams()*2; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("batch 1: %.3g bytes, want the active parameters' %.3g", got, want)
	}
	if got := weightsTouched(m, total, 256); math.Abs(got/total-1) > 1e-6 {
		t.Errorf("batch 256: %.3g bytes, want all %.3g", got, total)
	}
	if b4 := weightsTouched(m, total, 4); b4 <= m.ActiveParams()*2 || b4 >= total {
		t.Errorf("batch 4: %.3g bytes, want between the active %.3g and all %.3g", b4, m.ActiveParams()*2, total)
	}
}

// A GB200's GPU reaches the Grace CPU over NVLink-C2C (900 GB/s both ways),
// not PCIe: offloaded activations and states move at nine times an H100's
// PCIe Gen5 pace.
func TestGB200HostLinkIsC2C(t *testing.T) {
	c := DefaultCatalog()
	gb, h := mustGPU(t, c, "gb200", 1).GPU, mustGPU(t, c, "h100", 1).GPU
	if r := pcieBytesPerS(&fittedParams, gb) / pcieBytesPerS(&fittedParams, h); math.Abs(r-9) > 1e-9 {
		t.Errorf("GB200 host link %.1fx an H100's, want 9x (450 vs 50 GB/s each way)", r)
	}
}
