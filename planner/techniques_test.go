package planner

import (
	"math"
	"strings"
	"testing"
)

// The memory-saving techniques people use to make big jobs fit: offload,
// optimizer in backward, pure bf16, context parallel.
func TestMemorySavingTechniques(t *testing.T) {
	c := DefaultCatalog()
	m := mustModel(t, c, "llama-3-8b")
	h100 := mustGPU(t, c, "h100", 1)
	base := Job{Model: m, Workload: Finetune, SeqLen: 2048, MicroBatch: 1, GlobalBatch: 1, Checkpointing: true, Stack: Tuned, Samples: 1e5}
	plan := func(j Job, hw Hardware) *Result {
		return mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{hw}, Job: j})
	}
	plain := plan(base, h100).Plans[0]

	pure := base
	pure.PureBF16 = true
	pb := plan(pure, h100)
	states := func(e *Estimate) float64 {
		return breakdown(e, "weights") + breakdown(e, "gradients") + breakdown(e, "optimizer states")
	}
	if r := states(pb.Plans[0]) / states(plain); math.Abs(r-8.0/18) > 0.01 {
		t.Errorf("pure bf16 states / mixed precision states = %.3f, want 8/18", r)
	}
	if !strings.Contains(strings.Join(pb.Assumptions, " "), "pure bf16") {
		t.Errorf("pure bf16 not stated: %q", pb.Assumptions)
	}

	oib := base
	oib.OptimizerInBackward = true
	o := plan(oib, h100).Plans[0]
	if g := breakdown(o, "gradients"); g <= 0 || g > 0.1*breakdown(plain, "gradients") {
		t.Errorf("optimizer in backward keeps %.2f GiB of gradients (all of them: %.2f)", g, breakdown(plain, "gradients"))
	}
	oib.GlobalBatch = 8
	if n := plan(oib, h100).Plans[0].Notes; !strings.Contains(strings.Join(n, " "), "cannot accumulate") {
		t.Errorf("optimizer in backward with accumulation: want a note, got %q", n)
	}

	off := base
	off.Offload = OffloadOptimizer
	oo := plan(off, h100).Plans[0]
	if breakdown(oo, "optimizer states") != 0 || oo.Memory.PerGPUGiB >= plain.Memory.PerGPUGiB-40 {
		t.Errorf("optimizer offload: %.1f GiB (optimizer %.1f) vs %.1f", oo.Memory.PerGPUGiB, breakdown(oo, "optimizer states"), plain.Memory.PerGPUGiB)
	}
	if oo.Time.StepS <= plain.Time.StepS {
		t.Errorf("the CPU optimizer step should cost time: %.2f s vs %.2f", oo.Time.StepS, plain.Time.StepS)
	}
	off.Offload = OffloadFull
	of := plan(off, h100).Plans[0]
	if breakdown(of, "weights") != 0 || breakdown(of, "gather/dequant workspace") <= 0 || of.Memory.PerGPUGiB >= oo.Memory.PerGPUGiB {
		t.Errorf("full offload: %.1f GiB, weights %.2f, workspace %.2f", of.Memory.PerGPUGiB, breakdown(of, "weights"), breakdown(of, "gather/dequant workspace"))
	}
	if of.Time.StepS <= oo.Time.StepS {
		t.Errorf("full offload copies weights every micro-batch: %.2f s vs optimizer offload %.2f", of.Time.StepS, oo.Time.StepS)
	}
	// A 70B full fine-tune does not fit one 80 GB GPU, even with the
	// optimizer offloaded, but fits with everything offloaded.
	big := base
	big.Model = mustModel(t, c, "llama-3-70b")
	big.Offload = OffloadOptimizer
	if plan(big, h100).Plans[0].Memory.Fits {
		t.Error("70B with only the optimizer offloaded should not fit one H100")
	}
	big.Offload = OffloadFull
	if e := plan(big, h100).Plans[0]; !e.Memory.Fits {
		t.Errorf("70B fully offloaded: %.1f GiB, want it to fit", e.Memory.PerGPUGiB)
	}

	// Context parallel: a 128k-token sequence's activations split over 8
	// GPUs (FSDP on a plain PyTorch stack, so tensor parallel does not
	// split them already).
	long := Job{Model: m, Workload: Pretrain, SeqLen: 131072, GlobalBatch: 1, MicroBatch: 1, Checkpointing: true, Stack: HF, Strategy: FSDP, Samples: 1000}
	eight := mustGPU(t, c, "h100", 8)
	noCP := plan(long, eight).Plans[0]
	long.ContextParallel = 8
	cp := plan(long, eight).Plans[0]
	if r := breakdown(cp, "activations") / breakdown(noCP, "activations"); math.Abs(r-1.0/8) > 0.01 {
		t.Errorf("context parallel 8: activations ×%.3f, want 1/8", r)
	}
	// Eight GPUs work on one sequence: the global batch of 1 is kept
	// (without context parallel, 8 data-parallel replicas cannot keep it).
	if cp.GlobalBatch != 1 || noCP.GlobalBatch == 1 {
		t.Errorf("global batch with cp 8: %d, without: %d", cp.GlobalBatch, noCP.GlobalBatch)
	}
	if _, err := c.Plan(Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h100", 6)}, Job: long}); err == nil {
		t.Error("context parallel 8 on 6 GPUs: want an error")
	}
}

// A paged optimizer's states live in unified memory: they leave the peak
// that must fit, and what does not fit beside the job costs PCIe time.
// torchtune's Llama 3.1 8B full fine-tune on one RTX 4090 (pure bf16,
// optimizer in backward, PagedAdamW8bit, checkpointing, batch 2 of 2048
// tokens) peaks at 18.9 GiB (torchtune README); the planner said 36 GiB
// and "does not fit" when paged was only 8-bit Adam.
func TestPagedOptimizer(t *testing.T) {
	c := DefaultCatalog()
	j := Job{Model: mustModel(t, c, "llama-3.1-8b"), Workload: Finetune, SeqLen: 2048, MicroBatch: 2, GlobalBatch: 2,
		Checkpointing: true, Stack: Tuned, Samples: 1e4, PureBF16: true, OptimizerInBackward: true, Precision: BF16,
		Optimizer: PagedAdam8bit}
	plan := func(j Job) *Estimate {
		return mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "rtx-4090", 1)}, Job: j}).Plans[0]
	}
	paged := plan(j)
	if !paged.Memory.Fits || paged.Memory.PerGPUGiB < 0.85*18.9 || paged.Memory.PerGPUGiB > 1.3*18.9 {
		t.Errorf("paged: %.1f GiB (fits %v), torchtune measured 18.9", paged.Memory.PerGPUGiB, paged.Memory.Fits)
	}
	if want := 8.03e9 * 2 / gib; math.Abs(paged.Memory.PagedGiB/want-1) > 0.05 || breakdown(paged, "optimizer states") != 0 {
		t.Errorf("paged states %.1f GiB (want %.1f), on the peak %.1f", paged.Memory.PagedGiB, want, breakdown(paged, "optimizer states"))
	}
	j.Optimizer = Adam8bit
	plain := plan(j)
	if plain.Memory.Fits || plain.Memory.PerGPUGiB-paged.Memory.PerGPUGiB < 14 {
		t.Errorf("8-bit Adam, not paged: %.1f GiB (fits %v) vs paged %.1f", plain.Memory.PerGPUGiB, plain.Memory.Fits, paged.Memory.PerGPUGiB)
	}
	// The states that did not fit cross PCIe twice a step.
	if paged.Time.StepS <= plain.Time.StepS {
		t.Errorf("paging costs time: %.2f s vs %.2f", paged.Time.StepS, plain.Time.StepS)
	}
	// On a GPU with room for them the states stay resident: no paging time.
	j.Optimizer = PagedAdam8bit
	big := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "a100-80gb", 1)}, Job: j}).Plans[0]
	j.Optimizer = Adam8bit
	bigPlain := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "a100-80gb", 1)}, Job: j}).Plans[0]
	if math.Abs(big.Time.StepS/bigPlain.Time.StepS-1) > 1e-9 {
		t.Errorf("paged states that fit cost %.3f s vs %.3f", big.Time.StepS, bigPlain.Time.StepS)
	}
	// bitsandbytes' 32-bit PagedAdamW keeps fp32 moments even for bf16
	// parameters: 8 bytes a parameter paged, four times the 8-bit one's.
	j.Optimizer = PagedAdamW
	full := plan(j)
	if want := 8.03e9 * 8 / gib; math.Abs(full.Memory.PagedGiB/want-1) > 0.05 {
		t.Errorf("PagedAdamW under pure bf16 pages %.1f GiB, want %.1f (fp32 m and v)", full.Memory.PagedGiB, want)
	}
	if full.Time.StepS <= paged.Time.StepS {
		t.Errorf("four times the paged bytes cost no more time: %.2f s vs %.2f", full.Time.StepS, paged.Time.StepS)
	}
}

// Optimizer offload keeps only the 16-bit gradients on the GPU: the fp32
// copy is made on the host for the CPU's step (ZeRO-Offload).
func TestOptimizerOffloadKeeps16BitGradients(t *testing.T) {
	c := DefaultCatalog()
	j := Job{Model: mustModel(t, c, "llama-3.1-8b"), Workload: Finetune, SeqLen: 2048, MicroBatch: 1, GlobalBatch: 1,
		Checkpointing: true, Stack: Tuned, Samples: 1e4, Precision: BF16}
	plain := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "a100-80gb", 1)}, Job: j}).Plans[0]
	j.Offload = OffloadOptimizer
	off := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "a100-80gb", 1)}, Job: j}).Plans[0]
	if r := breakdown(off, "gradients") / breakdown(plain, "gradients"); math.Abs(r-0.5) > 0.01 {
		t.Errorf("offloaded optimizer: gradients ×%.2f of the fp32 ones, want 2/4", r)
	}
	j.Precision = FP32
	fp32 := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "a100-80gb", 1)}, Job: j}).Plans[0]
	if g := breakdown(fp32, "gradients"); math.Abs(g/(8.03e9*4/gib)-1) > 0.05 {
		t.Errorf("fp32 training with the optimizer offloaded keeps fp32 gradients: %.1f GiB", g)
	}
}

// Activation offloading keeps what backward needs in host memory: the GPU
// holds two layers' worth, and the copies cost time only when PCIe cannot
// keep up with the compute.
func TestActivationOffload(t *testing.T) {
	c := DefaultCatalog()
	m := mustModel(t, c, "llama-3.2-3b")
	a100 := mustGPU(t, c, "a100-sxm4-80gb", 1)
	plan := func(j Job) *Estimate {
		return mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{a100}, Job: j}).Plans[0]
	}
	base := Job{Model: m, Workload: LoRA, SeqLen: 4096, MicroBatch: 2, GlobalBatch: 2, Checkpointing: true, Stack: Tuned, Samples: 1e4}
	kept := plan(base)
	off := base
	off.ActivationOffload = true
	o := plan(off)
	if a, k := breakdown(o, "activations"), breakdown(kept, "activations"); a >= k || a <= 0 {
		t.Errorf("offloaded checkpoints: activations %.2f GiB on the GPU, kept %.2f", a, k)
	}
	if o.Time.StepS > kept.Time.StepS*1.01 {
		t.Errorf("checkpoint copies hide behind compute: %.3f s vs %.3f", o.Time.StepS, kept.Time.StepS)
	}
	// Without checkpointing every activation crosses PCIe twice: more
	// bytes than the compute can hide.
	full := off
	full.Checkpointing = false
	nockpt := base
	nockpt.Checkpointing = false
	if f, k := plan(full), plan(nockpt); f.Time.StepS <= k.Time.StepS {
		t.Errorf("offloading all activations should be PCIe-bound: %.3f s vs %.3f kept", f.Time.StepS, k.Time.StepS)
	}
	inf := Job{Model: m, Workload: Inference, SeqLen: 1024, GlobalBatch: 1, ActivationOffload: true}
	if _, err := c.Plan(Request{NoSearch: true, Targets: []Hardware{a100}, Job: inf}); err == nil {
		t.Error("activation offloading in an inference plan: want an error")
	}
}

// Unsloth: tuned kernels, its offloaded checkpointing on by default, and a
// cross-entropy that never builds the logits, so a long context fits
// where a tuned stack that keeps its checkpoints and logits does not.
func TestUnslothStack(t *testing.T) {
	c := DefaultCatalog()
	m := mustModel(t, c, "llama-3.1-8b")
	a100 := mustGPU(t, c, "a100-sxm4-40gb", 1)
	j := Job{Model: m, Workload: QLoRA, LoRARank: 32, SeqLen: 150_000, MicroBatch: 1, GlobalBatch: 1, Stack: Unsloth, Samples: 100}
	res := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{a100}, Job: j})
	u := res.Plans[0]
	// Cut Cross-Entropy keeps the final hidden state and its gradient
	// (4·h bytes a token), not the V scores a token the tuned stack does
	if !u.Checkpointing || !u.Memory.Fits || breakdown(u, "logits + loss") > 150_000*(4*4096+4)*1.01/(1<<30) {
		t.Errorf("unsloth at 150k tokens: ckpt %v, fits %v (%.1f GiB), logits %.2f GiB", u.Checkpointing, u.Memory.Fits, u.Memory.PerGPUGiB, breakdown(u, "logits + loss"))
	}
	if !strings.Contains(strings.Join(res.Assumptions, " "), "Unsloth") {
		t.Errorf("the stack's defaults are not stated: %q", res.Assumptions)
	}
	j.Stack, j.Checkpointing = Tuned, true
	if tu := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{a100}, Job: j}).Plans[0]; tu.Memory.Fits {
		t.Errorf("tuned with its checkpoints and logits on the GPU fits 150k tokens in 40 GB (%.1f GiB)", tu.Memory.PerGPUGiB)
	}
	// Same kernels: at a short context the two stacks run at one speed.
	j.SeqLen, j.MicroBatch = 2048, 2
	tuned := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{a100}, Job: j}).Plans[0]
	j.Stack = Unsloth
	uns := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{a100}, Job: j}).Plans[0]
	if r := uns.Time.StepS / tuned.Time.StepS; r < 0.99 || r > 1.1 {
		t.Errorf("unsloth / tuned step time at 2k tokens = %.3f, want about 1", r)
	}
	cnn := Job{Model: mustModel(t, c, "resnet-50"), Workload: Finetune, Stack: Unsloth, Samples: 1e5}
	if _, err := c.Plan(Request{NoSearch: true, Targets: []Hardware{a100}, Job: cnn}); err == nil || !strings.Contains(err.Error(), "transformers") {
		t.Errorf("unsloth on a CNN: want a refusal naming what it trains, got %v", err)
	}
}

// DeepSpeed's ZeRO-2 with the optimizer offloaded streams each reduced
// gradient bucket to the host: at most two buckets of its default
// reduce_bucket_size (5e8 elements, 2 bytes) stay on the GPU, whatever
// the model's size, so 13B trains on one 32 GB V100 (DeepSpeed's
// ZeRO-Offload tutorial); without offload the gradients are all there.
func TestZeROOffloadKeepsBucketsOnTheGPU(t *testing.T) {
	c := DefaultCatalog()
	j := Job{Model: mustModel(t, c, "llama-2-13b"), Workload: Pretrain, SeqLen: 1024, MicroBatch: 1, GlobalBatch: 1,
		Checkpointing: true, Samples: 1e4, Strategy: ZeRO2, Offload: OffloadOptimizer}
	v100 := mustGPU(t, c, "v100-sxm2-32gb", 1)
	off := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{v100}, Job: j}).Plans[0]
	if g := breakdown(off, "gradients"); g > 2e9/gib+1e-9 || g <= 0 {
		t.Errorf("ZeRO-2 offload keeps %.2f GiB of gradients on the GPU, want two buckets (%.2f GiB)", g, 2e9/gib)
	}
	if !off.Memory.Fits {
		t.Errorf("13B with ZeRO-Offload on a 32 GB V100: %.1f of %.1f GiB, want it to fit", off.Memory.PerGPUGiB, off.Memory.CapacityGiB)
	}
	j.Offload = OffloadNone
	plain := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{v100}, Job: j}).Plans[0]
	if g := breakdown(plain, "gradients"); g < 20 {
		t.Errorf("ZeRO-2 on one GPU without offload keeps %.1f GiB of gradients, want all of them", g)
	}
}

// DDP said is whole replicas: the search splits no model over GPUs for
// it, so a 1.5B GPT-2 at batch 1 per V100 keeps all its states on each
// GPU (DeepSpeed's ZeRO tutorial: out of memory without ZeRO).
func TestDDPSaidSplitsNoModel(t *testing.T) {
	c := DefaultCatalog()
	m := mustModel(t, c, "gpt2-xl")
	j := Job{Model: m, Workload: Pretrain, SeqLen: 1024, MicroBatch: 1, GlobalBatch: 8, Samples: 1e5, Strategy: DDP}
	e := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "v100-sxm2-32gb", 8)}, Job: j}).Plans[0]
	if e.TensorParallel != 1 || e.PipelineParallel != 1 {
		t.Errorf("ddp said: TP%d PP%d, want whole replicas", e.TensorParallel, e.PipelineParallel)
	}
	if s := breakdown(e, "optimizer states"); s < m.Params()*12/gib*0.95 {
		t.Errorf("ddp said: %.1f GiB of optimizer states per GPU, want all of them (%.1f)", s, m.Params()*12/gib)
	}
}

// DPO: a pair is two sequences in one batch and a frozen reference model
// scores both, so a pair costs 2 x (6N + 2N) / 6N = 8/3 of a supervised
// sample's work in a full fine-tune; the reference is a second copy of
// the weights there, and the base itself (no memory) under LoRA; a
// micro-batch holds whole pairs.
func TestPreferencePairs(t *testing.T) {
	c := DefaultCatalog()
	m := mustModel(t, c, "llama-3-8b")
	h100 := mustGPU(t, c, "h100", 8)
	sft := Job{Model: m, Workload: Finetune, SeqLen: 2048, MicroBatch: 2, GlobalBatch: 64, Checkpointing: true, Stack: Tuned, Samples: 1e4, Strategy: FSDP}
	dpo := sft
	dpo.Preference, dpo.MicroBatch = true, 1
	plan := func(j Job) *Estimate {
		return mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{h100}, Job: j}).Plans[0]
	}
	s, d := plan(sft), plan(dpo)
	if d.MicroBatch != 2 || d.GlobalBatch != 128 {
		t.Errorf("dpo micro 1 pair, batch 64 pairs: micro %d, global %d sequences; want 2 and 128", d.MicroBatch, d.GlobalBatch)
	}
	// same micro-batch of sequences on both sides: the ratio is the FLOPs'
	if r := *d.Time.TotalHours / *s.Time.TotalHours; r < 8.0/3*0.9 || r > 8.0/3*1.1 {
		t.Errorf("dpo pairs take %.2fx a supervised sample, want about 8/3", r)
	}
	if ref := breakdown(d, "reference model (frozen)"); math.Abs(ref/breakdown(d, "weights")-1) > 0.01 {
		t.Errorf("full dpo: reference %.2f GiB, want the trained weights' %.2f (both sharded)", ref, breakdown(d, "weights"))
	}
	lora := dpo
	lora.Workload = LoRA
	if ref := breakdown(plan(lora), "reference model (frozen)"); ref != 0 {
		t.Errorf("lora dpo: reference %.2f GiB, want none (the base with adapters off)", ref)
	}
	free := dpo
	free.MicroBatch, free.GlobalBatch = 0, 0
	if e := plan(free); e.MicroBatch%2 != 0 {
		t.Errorf("dpo micro-batch %d sequences: want whole pairs", e.MicroBatch)
	}
	pre := dpo
	pre.Workload = Pretrain
	if _, err := c.Plan(Request{NoSearch: true, Targets: []Hardware{h100}, Job: pre}); err == nil {
		t.Error("dpo pretraining: want a refusal")
	}
}
