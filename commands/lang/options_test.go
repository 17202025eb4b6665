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
		{"llama-3.2-3b lora seq 4096 with activation offloading on a100", func(j planner.Job) bool {
			return j.ActivationOffload && !j.Checkpointing && j.Offload == planner.OffloadNone
		}},
		{"llama-3.2-3b lora offload activations on a100", func(j planner.Job) bool { return j.ActivationOffload && j.Offload == planner.OffloadNone }},
		{"llama-3.1-8b qlora with offloaded gradient checkpointing on a 4090", func(j planner.Job) bool { return j.ActivationOffload && j.Checkpointing }},
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

// The software people name: trainers built on Hugging Face run eager
// modules, pre-training and recipe libraries ship fused kernels, Unsloth
// is its own stack, and torch.compile or Liger fuse whatever runs them.
func TestStackNames(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, tc := range []struct {
		in   string
		want planner.Stack
	}{
		{"llama 3.1 8b pretrain with torchtitan on 8x h100 seq 8192", planner.Tuned},
		{"llama 3.1 8b lora with torchtune on a 4090", planner.Tuned},
		{"mpt-7b pretrain llm-foundry on 8x a100", planner.Tuned},
		{"llama 3.1 8b qlora with unsloth on a t4", planner.Unsloth},
		{"llama 3.1 8b lora with axolotl on a 4090", planner.HF},
		{"llama 3.1 8b finetune with trl on a100", planner.HF},
		{"llama 3.1 8b lora hf trainer with torch.compile on a 4090", planner.Tuned},
		{"llama 3.1 8b lora trl + liger on a 4090", planner.Tuned},
		{"llama 3.1 8b lora liger with trl on a 4090", planner.Tuned},
		{"llama 3.1 8b lora torch compile on a 4090", planner.Tuned}, {"llama 3.1 8b lora with liger kernels + trl on a 4090", planner.Tuned},
		{"llama 3.1 8b qlora unsloth torch.compile on a 4090", planner.Unsloth},
		{"언슬로스로 llama 3.1 8b qlora 4090 1장", planner.Unsloth}, {"토치튠으로 llama 3.1 8b lora 4090", planner.Tuned},
		{"허깅페이스로 bert-base 파인튜닝 t4", planner.HF},
	} {
		r, err := Read(Env{Catalog: cat}, tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := r.Request.Job.Stack; got != tc.want {
			t.Errorf("%q: stack %q, want %q (skipped %q)", tc.in, got, tc.want, r.Skipped)
		}
		back, err := Read(Env{Catalog: cat}, ReadAs(cat, r))
		if err != nil || back.Request.Job.Stack != tc.want {
			t.Errorf("%q: read as %q, which reads back as %v (%v)", tc.in, ReadAs(cat, r), back, err)
		}
	}
	if _, err := Read(Env{Catalog: cat}, "llama 3.1 8b lora unsloth with torchtitan on a 4090"); err == nil {
		t.Error("two stacks named: want a question")
	}
}

// A ceiling on one GPU's hourly price, in the ways people write it, is
// read as that ceiling (not as a budget for the whole job) and said back
// in a form that reads the same.
func TestHourlyPriceWords(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, tc := range []struct {
		in   string
		want float64
	}{
		{"llama 3 8b lora under $2/hr", 2}, {"llama 3 8b lora $2 an hour", 2}, {"llama 3 8b lora with gpus under $2 per hour", 2},
		{"llama 3 8b lora max $1.5/gpu-hour", 1.5}, {"llama 3 8b lora at $0.8/h", 0.8}, {"llama 3 8b lora $3 per gpu hour", 3},
		{"llama 3 8b lora 시간당 2달러 이하", 2}, {"llama 3 8b lora 시간당 $2", 2}, {"시간당 2 달러 이하로 llama 3 8b lora", 2},
		{"llama 3 8b lora under 2 dollars an hour", 2}, {"llama 3 8b lora 1.5 usd per gpu hour", 1.5},
	} {
		r, err := Read(Env{Catalog: cat}, tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if r.MaxGPUHourUSD != tc.want || r.Budget != 0 {
			t.Errorf("%q: hourly ceiling %v, budget %v; want %v and no budget", tc.in, r.MaxGPUHourUSD, r.Budget, tc.want)
		}
		back, err := Read(Env{Catalog: cat}, ReadAs(cat, r))
		if err != nil || back.MaxGPUHourUSD != tc.want {
			t.Errorf("%q: read as %q, which reads back as %v (%v)", tc.in, ReadAs(cat, r), back.MaxGPUHourUSD, err)
		}
	}
	// a budget is still a budget
	if r, err := Read(Env{Catalog: cat}, "llama 3 8b lora under $500"); err != nil || r.Budget != 500 || r.MaxGPUHourUSD != 0 {
		t.Errorf("under $500: budget %v, hourly %v, %v", r.Budget, r.MaxGPUHourUSD, err)
	}
}

// A request that opens "can I …" or "can my 3090 …" and names hardware
// asks whether the job fits there.
func TestModalQuestionAsksFit(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, in := range []string{"can i serve llama 3 70b on two h100s", "can we do 13b qlora on one a6000", "can my 3090 take llama 3 8b q4_k_m gguf", "could we finetune mistral 7b on a single 4090"} {
		r, err := Read(Env{Catalog: cat}, in)
		if err != nil || r.Ask != AskFit {
			t.Errorf("%q: ask %q (%v), want fit", in, r.Ask, err)
		}
	}
	if r, err := Read(Env{Catalog: cat}, "can i get a plan for bert-base 3 epochs of 1M samples"); err != nil || r.Ask == AskFit {
		t.Errorf("no hardware named: ask %q (%v), want no fit question", r.Ask, err)
	}
}

// A deadline with the hardware's count said asks whether the job makes
// it there; without a count, how many GPUs it takes.
func TestDeadlineAsksFeasibilityOnCountedHardware(t *testing.T) {
	cat := planner.DefaultCatalog()
	for in, want := range map[string]Ask{
		"Fine-tune llama-3.1-8b, 1.2M samples, 2 epochs, 4 H100s, within 3 days — feasible?": AskTime,
		"pretrain a 1B model on 100B tokens on 8x h100 in 2 days":                            AskTime,
		"pretrain a 1B model on 100B tokens on h100 in 2 days":                               AskCount,
		"pretrain a 1B model on 100B tokens in 2 days":                                       AskCount,
		"how many h100s to pretrain a 1B model on 100B tokens in 2 days":                     AskCount,
	} {
		r, err := Read(Env{Catalog: cat}, in)
		if err != nil || r.Ask != want {
			t.Errorf("%q: ask %q (%v), want %q", in, r.Ask, err, want)
		}
	}
}

// A wh-question keeps its own question: "what would be the cost of
// running …" asks the cost, not whether it fits.
func TestWhQuestionKeepsItsQuestion(t *testing.T) {
	cat := planner.DefaultCatalog()
	r, err := Read(Env{Catalog: cat}, "What would be the cost of running llama-3-70b inference on 4x h100 for a week?")
	if err != nil || r.Ask != AskCost || r.Request.Job.Workload != planner.Inference {
		t.Errorf("ask %q, workload %q (%v); want cost of inference", r.Ask, r.Request.Job.Workload, err)
	}
}
