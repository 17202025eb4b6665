package planner

import (
	"strings"
	"testing"
)

// Issue 11: on thousands of GPUs a plan keeps the requested global batch
// as nearly as a layout can. Llama 3.1 405B at 16M tokens per step (1,953
// sequences of 8,192) on 16,384 H100s: no power-of-two data-parallel width
// divides 1,953, and pure data parallelism ran one sequence per GPU, a
// global batch of 16,384 (8.4×). Tensor and pipeline parallelism narrow the
// replicas to 128 (Meta's own TP8 × PP16 × DP128): 15 micro-batches each,
// 1,920 sequences, and the assumptions say so.
func TestManyGPUsKeepTheBatchNearlyAsAsked(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "llama-3.1-405b"), Workload: Pretrain, Stack: Tuned, SeqLen: 8192, Tokens: 15e12}
	h100 := mustGPU(t, c, "h100", 16384)

	t.Run("16M tokens: no layout keeps it", func(t *testing.T) {
		j := job
		j.GlobalBatchTokens = 16e6
		res, err := c.Plan(Request{Job: j, Targets: []Hardware{h100}, NoSearch: true})
		if err != nil {
			t.Fatal(err)
		}
		e := res.Plans[0]
		if e.TensorParallel*e.PipelineParallel == 1 {
			t.Errorf("%s: pure data parallel; want tensor/pipeline parallel to narrow the replicas", e.Strategy)
		}
		if e.GlobalBatch != 1920 {
			t.Errorf("global batch %d (%d × %d × %d replicas), want 1920: the closest to the 1953 asked", e.GlobalBatch, e.MicroBatch, e.GradAccum, e.layout.dp())
		}
		if !hasLine(e.Assumptions, "global batch 1920, not the 1953 requested: 128 data-parallel replicas") {
			t.Errorf("the assumptions do not say how the batch changed:\n%s", strings.Join(e.Assumptions, "\n"))
		}
	})

	t.Run("16Mi tokens: a layout keeps it", func(t *testing.T) {
		j := job
		j.GlobalBatchTokens = 16 << 20 // 2048 sequences
		res, err := c.Plan(Request{Job: j, Targets: []Hardware{h100}, NoSearch: true})
		if err != nil {
			t.Fatal(err)
		}
		e := res.Plans[0]
		if e.GlobalBatch != 2048 {
			t.Errorf("%s: global batch %d, want the 2048 asked", e.Strategy, e.GlobalBatch)
		}
		if hasLine(e.Assumptions, "global batch") {
			t.Errorf("a kept batch needs no note:\n%s", strings.Join(e.Assumptions, "\n"))
		}
	})

	t.Run("the closest within 2 % goes by speed", func(t *testing.T) {
		for _, c := range []struct{ requested, global, want int }{
			{1953, 1953, 0}, {0, 512, 0}, {1953, 1920, 1}, {2048, 2046, 1}, {2048, 2040, 1}, {2048, 1920, 4}, {1953, 16384, 370},
		} {
			if got := batchGap(c.requested, c.global); got != c.want {
				t.Errorf("batchGap(%d, %d) = %d, want %d", c.requested, c.global, got, c.want)
			}
		}
	})
}

func hasLine(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}
