package lang

import (
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

// The words people use to make big jobs fit (issue 11): CPU offload,
// optimizer-in-backward, pure bf16, context parallelism, paged 8-bit
// optimizers — read, restated, and read back the same.
func TestMemorySavingWords(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, tc := range []struct {
		in    string
		check func(planner.Job) bool
	}{
		{"llama-3-70b finetune 1B tokens with cpu offload on 8x a100", func(j planner.Job) bool { return j.Offload == planner.OffloadOptimizer }},
		{"llama-3-70b finetune zero3 offload params on 8x a100", func(j planner.Job) bool { return j.Offload == planner.OffloadFull }},
		{"llama-3-8b finetune optimizer in backward on a 4090", func(j planner.Job) bool { return j.OptimizerInBackward }},
		{"llama-3-8b finetune pure bf16 on a 4090", func(j planner.Job) bool { return j.PureBF16 }},
		{"llama-3-70b pretrain 1T tokens seq 131072 context parallel 8 on 64x h100", func(j planner.Job) bool { return j.ContextParallel == 8 }},
		{"llama-3-70b pretrain seq 128k cp 4 on 32x h100", func(j planner.Job) bool { return j.ContextParallel == 4 }},
		{"mistral-7b qlora paged adamw 8bit on a t4", func(j planner.Job) bool { return j.Optimizer == planner.PagedAdam8bit }},
		{"llama-3.1-8b full finetune with paged 8-bit optimizers on a 4090", func(j planner.Job) bool { return j.Optimizer == planner.PagedAdam8bit }},
		{"llama-3.1-8b finetune paged_adamw_32bit on a 4090", func(j planner.Job) bool { return j.Optimizer == planner.PagedAdamW }},
		{"llama-3-8b lora 오프로드 4090 1장", func(j planner.Job) bool { return j.Offload == planner.OffloadOptimizer }},
	} {
		r, err := Read(Env{Catalog: cat}, tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if !tc.check(r.Request.Job) {
			t.Errorf("%q: read as %+v", tc.in, r.Request.Job)
		}
		// the restatement reads back to the same job options
		back, err := Read(Env{Catalog: cat}, ReadAs(cat, r)[:len(ReadAs(cat, r))])
		if err == nil && !tc.check(back.Request.Job) {
			t.Errorf("%q: read as %q, which reads back differently", tc.in, ReadAs(cat, r))
		}
	}
}
