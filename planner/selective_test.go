package planner

import (
	"math"
	"testing"
)

// Selective recompute (torchtitan's op policy) keeps each layer's input,
// SDPA's output and every other GEMM's output: Llama 3 8B keeps 2h +
// (3h + 2·kv + 2f)/2 values a token a layer, 14.5 bytes per hidden unit in
// 16 bits, between full checkpointing's 2 (the input) and none's 39
// (Megatron's 18 + 4f/h·1.5). Its time recomputes half the forward's
// GEMMs, between none and full checkpointing.
func TestSelectiveRecomputeSitsBetween(t *testing.T) {
	c := DefaultCatalog()
	m := mustModel(t, c, "llama-3.1-8b")
	l := layout{precision: BF16, ckpt: true, selective: true, tp: 1, pp: 1, micro: 1}
	stored, _, _ := activationPerSample(&fittedParams, m, Pretrain, l, 8192, Tuned)
	h, kv, f := 4096.0, 1024.0, 14336.0
	want := 32 * 2 * 8192 * (2*h + (3*h+2*kv+2*f)/2)
	if math.Abs(stored/want-1) > 1e-9 {
		t.Errorf("stored %.4g bytes, want %.4g", stored, want)
	}
	full, _, _ := activationPerSample(&fittedParams, m, Pretrain, layout{precision: BF16, ckpt: true, tp: 1, pp: 1, micro: 1}, 8192, Tuned)
	none, _, _ := activationPerSample(&fittedParams, m, Pretrain, layout{precision: BF16, tp: 1, pp: 1, micro: 1}, 8192, Tuned)
	if !(full < stored && stored < none) {
		t.Errorf("stored: full ckpt %.3g, selective %.3g, none %.3g", full, stored, none)
	}
	j := Job{Model: m, Workload: Pretrain, SeqLen: 8192}
	hwNone := trainingFlops(j, layout{}).hardware
	hwSel := trainingFlops(j, layout{ckpt: true, selective: true}).hardware
	hwFull := trainingFlops(j, layout{ckpt: true}).hardware
	if !(hwNone < hwSel && hwSel < hwFull) {
		t.Errorf("FLOPs: none %.3g, selective %.3g, full %.3g", hwNone, hwSel, hwFull)
	}
	// a plan asked for it says so
	r := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h200", 8)},
		Job: Job{Model: m, Workload: Pretrain, SeqLen: 8192, MicroBatch: 2, GlobalBatch: 16, Precision: BF16,
			Strategy: FSDP, Checkpointing: true, SelectiveRecompute: true, Stack: Tuned}})
	if e := r.Plans[0]; !e.Checkpointing || !e.SelectiveRecompute {
		t.Errorf("plan: checkpointing %v, selective %v", e.Checkpointing, e.SelectiveRecompute)
	}
}
