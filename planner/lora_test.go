package planner

import (
	"math"
	"strings"
	"testing"
)

func breakdown(e *Estimate, name string) float64 {
	for _, it := range e.Memory.Breakdown {
		if it.Name == name {
			return it.GiB
		}
	}
	return 0
}

// LoRA/QLoRA memory: adapters and their states are sharded with their
// layers under FSDP, a QLoRA kernel dequantises one matrix at a time, and
// the totals land near torchtune's published peaks (its README table:
// 8B QLoRA on a 4090 7.4 GiB, 70B LoRA 27.6 GiB and 405B QLoRA 44.8 on
// 8x A100; read as peaks allocated by PyTorch tensors: no CUDA context,
// NCCL buffers or allocator headroom).
func TestLoRAMemoryMatchesTorchtune(t *testing.T) {
	c := DefaultCatalog()
	plan := func(model, gpu string, n int, w Workload, st Strategy) *Estimate {
		return mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, gpu, n)}, Job: Job{Model: mustModel(t, c, model),
			Workload: w, SeqLen: 2048, MicroBatch: 2, GlobalBatch: 2 * n, Checkpointing: true, Stack: Tuned, Strategy: st}}).Plans[0]
	}
	allocated := func(e *Estimate) float64 {
		v := e.Memory.PerGPUGiB - cudaContextGiB - breakdown(e, "allocator headroom")
		if e.GPUs > 1 {
			v -= ncclBuffersGiB
		}
		return v
	}
	for _, tc := range []struct {
		model, gpu string
		n          int
		w          Workload
		st         Strategy
		meas, tol  float64
	}{
		{"llama-3.1-8b", "rtx-4090", 1, QLoRA, "", 7.4, 0.35},
		{"llama-3.1-70b", "a100-80gb", 8, LoRA, FSDP, 27.6, 0.2},
		{"llama-3.1-405b", "a100-80gb", 8, QLoRA, FSDP, 44.8, 0.35},
	} {
		e := plan(tc.model, tc.gpu, tc.n, tc.w, tc.st)
		if got := allocated(e); math.Abs(got/tc.meas-1) > tc.tol {
			t.Errorf("%s %s on %dx %s: %.1f GiB, torchtune measured %.1f", tc.model, tc.w, tc.n, tc.gpu, got, tc.meas)
		}
	}
	// Sharding: 8-way FSDP holds an eighth of the adapter states.
	one := plan("llama-3.1-70b", "a100-80gb", 1, LoRA, "")
	fsdp := plan("llama-3.1-70b", "a100-80gb", 8, LoRA, FSDP)
	a1, a8 := breakdown(one, "LoRA adapters + their grads/optimizer"), breakdown(fsdp, "LoRA adapters + their grads/optimizer")
	if a1 == 0 || math.Abs(a8*8/a1-1) > 1e-9 {
		t.Errorf("adapter states: %.3f GiB on one GPU, %.3f with FSDP over 8; want an eighth", a1, a8)
	}
	// QLoRA on one GPU dequantises the largest matrix (4096×14336) once.
	q := plan("llama-3.1-8b", "rtx-4090", 1, QLoRA, "")
	if got, want := breakdown(q, "gather/dequant workspace"), 4096.0*14336*2/gib; math.Abs(got/want-1) > 1e-6 {
		t.Errorf("dequant workspace %.3f GiB, want %.3f (one bf16 matrix)", got, want)
	}
	// Tuned stacks keep adapters in bf16 (8 B/param), PEFT in fp32 (16).
	hf := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "rtx-4090", 1)}, Job: Job{Model: mustModel(t, c, "llama-3.1-8b"),
		Workload: QLoRA, SeqLen: 2048, MicroBatch: 2, GlobalBatch: 2, Checkpointing: true, Stack: HF}}).Plans[0]
	if r := breakdown(hf, "LoRA adapters + their grads/optimizer") / breakdown(q, "LoRA adapters + their grads/optimizer"); math.Abs(r-2) > 1e-9 {
		t.Errorf("PEFT/torchtune adapter bytes ratio %.2f, want 2", r)
	}
}

// FSDP shards a LoRA job's frozen base like any weight, so every
// micro-batch all-gathers it for the forward and again for the backward
// (in its stored format: bf16 for LoRA, NF4 for QLoRA); only the adapter
// gradients are reduce-scattered. Over PCIe the gathers cannot hide
// behind the compute, so the step is at least their time.
func TestFSDPLoRAGathersTheFrozenBase(t *testing.T) {
	c := DefaultCatalog()
	for _, w := range []Workload{LoRA, QLoRA} {
		hw := mustGPU(t, c, "a100-80gb", 8)
		hw.Interconnect = PCIe
		j := Job{Model: mustModel(t, c, "llama-3.1-70b"), Workload: w, SeqLen: 2048, MicroBatch: 2, GlobalBatch: 16,
			Checkpointing: true, Stack: Tuned, Strategy: FSDP}
		e := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{hw}, Job: j}).Plans[0]
		bus, _ := linkGBs(c.params(), hw.GPU, 8, 8, PCIe)
		mp := float64(max(1, e.TensorParallel) * max(1, e.PipelineParallel))
		dp := 8 / mp
		base := frozenBaseBytes(j, e.Precision, j.Model.Params()) / mp
		gathers := 2 * (dp - 1) / dp * base / (bus * 1e9)
		if dp < 2 {
			t.Fatalf("%s: planned %v, want FSDP over at least 2 ranks", w, e.Strategy)
		}
		if e.Time.StepS < gathers {
			t.Errorf("%s FSDP over PCIe: step %.1f s, under the %.1f s its two all-gathers of the frozen base take", w, e.Time.StepS, gathers)
		}
	}
}

// "qlora 4bit" says QLoRA's 4-bit base twice: it plans as QLoRA, and a
// 4-bit full fine-tune is still refused.
func TestQLoRASaidWithItsFourBits(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "llama-3-8b"), Workload: QLoRA, SeqLen: 2048, GlobalBatch: 4}
	hw := []Hardware{mustGPU(t, c, "4090", 1)}
	plain := mustPlan(t, c, Request{NoSearch: true, Job: job, Targets: hw}).Plans[0]
	job.Precision = INT4
	said := mustPlan(t, c, Request{NoSearch: true, Job: job, Targets: hw}).Plans[0]
	if said.Memory.PerGPUGiB != plain.Memory.PerGPUGiB || said.Time.StepS != plain.Time.StepS {
		t.Errorf("qlora int4: %.2f GiB %.4g s/step, qlora: %.2f GiB %.4g s/step", said.Memory.PerGPUGiB, said.Time.StepS, plain.Memory.PerGPUGiB, plain.Time.StepS)
	}
	job.Workload = Pretrain
	if _, err := c.Plan(Request{NoSearch: true, Job: job, Targets: hw}); err == nil {
		t.Error("a 4-bit pretrain was planned; it should be refused")
	}
}

// PEFT runs each adapter as separate kernels that re-read the layer's input
// and rewrite its full-width output; a fused stack folds that into the
// base GEMMs. For Llama 3.1 8B with checkpointing the traffic is ~60 MB a
// token, 10-20 % of an H100 step (docs/device measured 6,736 tokens/s).
func TestPEFTLoRAPaysTheAdaptersTraffic(t *testing.T) {
	c := DefaultCatalog()
	m := mustModel(t, c, "llama-3.1-8b")
	h100 := mustGPU(t, c, "h100", 1)
	j := Job{Model: m, Workload: LoRA, Precision: BF16, SeqLen: 2048, MicroBatch: 2, GlobalBatch: 2, Checkpointing: true, Stack: HF}
	l := layout{gpu: h100.GPU, n: 1, tp: 1, pp: 1, ckpt: true, micro: 2, precision: BF16}
	tok := 2.0 * 2048
	s := loraAdapterS(&fittedParams, j, l, tok)
	if perTok := s / tok * h100.GPU.MemBWGBs * 1e9 * fittedParams.DecodeBW; perTok < 55e6 || perTok > 66e6 {
		t.Errorf("adapter traffic %.1f MB a token, want ~60", perTok/1e6)
	}
	hf := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{h100}, Job: j}).Plans[0]
	if share := s / hf.Time.StepS; share < 0.08 || share > 0.25 {
		t.Errorf("adapter traffic is %.0f %% of the step", share*100)
	}
	if r := hf.Throughput.TokensPerS / 6736; r < 0.8 || r > 1.25 {
		t.Errorf("HF LoRA on an H100: %.0f tokens/s, measured 6,736", hf.Throughput.TokensPerS)
	}
	jt := j
	jt.Stack = Tuned
	if loraAdapterS(&fittedParams, jt, l, tok) != 0 {
		t.Errorf("a fused stack pays no separate adapter traffic")
	}
}

// On one GPU zero_grad(set_to_none=True) frees the gradients between
// steps, so the peak holds them or the activations, not both; DDP keeps
// them in its buckets.
func TestGradientsAreNotAtTheSingleGPUPeak(t *testing.T) {
	c := DefaultCatalog()
	m := mustModel(t, c, "llama-3.2-1b")
	j := Job{Model: m, Workload: Finetune, Precision: BF16, SeqLen: 2048, MicroBatch: 4, GlobalBatch: 4, Stack: HF}
	one := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h200", 1)}, Job: j}).Plans[0]
	jd := j
	jd.GlobalBatch, jd.Strategy = 8, DDP
	ddp := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h200", 2)}, Job: jd}).Plans[0]
	var grads float64
	for _, it := range one.Memory.Breakdown {
		if it.Name == "gradients" {
			grads = it.GiB
		}
	}
	if grads < 4 {
		t.Fatalf("1B gradients %.2f GiB, want ~4.6 (fp32)", grads)
	}
	// The DDP plan carries NCCL buffers and the gradients on top.
	if d := ddp.Memory.PerGPUGiB - one.Memory.PerGPUGiB - ncclBuffersGiB; d < 0.8*grads {
		t.Errorf("DDP holds %.2f GiB more than one GPU; its gradients alone are %.2f", d, grads)
	}
	// Measured on the H200 (docs/device, DV06): 43.8 GiB allocated.
	if alloc := one.Memory.PerGPUGiB - cudaContextGiB - memItem(one.Memory, "allocator headroom"); alloc < 0.9*43.8 || alloc > 1.1*43.8 {
		t.Errorf("1B full fine-tune at micro-batch 4: %.1f GiB allocated, measured 43.8", alloc)
	}
}

// The card's memory line adds up: what is never alive together at the
// peak (gradients freed between steps, the rebuilt layer beside the
// logits) is a line of its own, taken off.
func TestMemoryBreakdownAddsUpToTheTotal(t *testing.T) {
	c := DefaultCatalog()
	for _, tc := range []struct {
		model string
		gpus  int
		j     Job
	}{
		{"llama-3.2-1b", 1, Job{Workload: Finetune, Precision: BF16, SeqLen: 2048, MicroBatch: 8, GlobalBatch: 8, Checkpointing: true, Stack: HF}},
		{"llama-3.1-8b", 1, Job{Workload: QLoRA, SeqLen: 2048, MicroBatch: 2, GlobalBatch: 2, Checkpointing: true, Stack: Tuned}},
		{"bert-base", 2, Job{Workload: Finetune, Precision: BF16, SeqLen: 512, MicroBatch: 32, GlobalBatch: 64}},
		{"llama-3-70b", 8, Job{Workload: LoRA, SeqLen: 4096, MicroBatch: 1, GlobalBatch: 8, Strategy: FSDP, Checkpointing: true}},
	} {
		j := tc.j
		j.Model = mustModel(t, c, tc.model)
		e := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h100", tc.gpus)}, Job: j}).Plans[0]
		sum, off := 0.0, false
		for _, it := range e.Memory.Breakdown {
			sum += it.GiB
			off = off || it.GiB < 0
		}
		if math.Abs(sum-e.Memory.PerGPUGiB) > 0.01 {
			t.Errorf("%s on %d GPU(s): the breakdown adds up to %.2f GiB, the total is %.2f", tc.model, tc.gpus, sum, e.Memory.PerGPUGiB)
		}
		if tc.gpus == 1 && !off {
			t.Errorf("%s on one GPU: no line for what is not alive at the peak", tc.model)
		}
	}
}

// LoRA on an 8-bit base ("lora 8bit", bitsandbytes load_in_8bit): its
// frozen linear weights weigh one byte each, between QLoRA's NF4 and
// LoRA's bf16, and each pass dequantises them like QLoRA's, reading twice
// NF4's bytes, so a step is no faster than QLoRA's and slower than LoRA's.
// Said as int8 with lora (or a fine-tune), the request is read that way.
func TestLoRAOnAnEightBitBase(t *testing.T) {
	c := DefaultCatalog()
	m := mustModel(t, c, "llama-3-8b")
	plan := func(j Job) *Estimate {
		j.Model, j.SeqLen, j.MicroBatch, j.GlobalBatch, j.Checkpointing = m, 2048, 1, 1, true
		return mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "rtx-4090", 1)}, Job: j}).Plans[0]
	}
	lora, q := plan(Job{Workload: LoRA}), plan(Job{Workload: QLoRA})
	int8 := plan(Job{Workload: LoRA, Precision: INT8})
	w := func(e *Estimate) float64 { return breakdown(e, "weights") }
	tables := float64(m.Vocab) * float64(m.Hidden) * 2 // untied embeddings and head stay fp32 under PEFT
	want := ((m.Params()-tables)*1 + tables*4) / (1 << 30)
	if math.Abs(w(int8)/want-1) > 0.01 || !(w(q) < w(int8) && w(int8) < w(lora)) {
		t.Errorf("weights: 8-bit %.2f GiB (want %.2f), NF4 %.2f, bf16 %.2f", w(int8), want, w(q), w(lora))
	}
	if !(int8.Time.StepS >= q.Time.StepS && int8.Time.StepS > lora.Time.StepS) {
		t.Errorf("step: 8-bit %.3f s, QLoRA %.3f s, LoRA %.3f s", int8.Time.StepS, q.Time.StepS, lora.Time.StepS)
	}
	res := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "rtx-4090", 1)}, Job: Job{Model: m, Workload: Finetune, Precision: INT8}})
	if !strings.Contains(strings.Join(res.Assumptions, " "), "8-bit base") || res.Job.Workload != LoRA {
		t.Errorf("finetune int8: %s, assumptions %q; want LoRA on an 8-bit base, said", res.Job.Workload, res.Assumptions)
	}
	if _, err := c.Plan(Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "rtx-4090", 1)}, Job: Job{Model: m, Workload: Pretrain, Precision: INT8}}); err == nil {
		t.Error("pretraining in int8 planned; want the inference-format error")
	}
}

// QLoRA with no checkpointing said is planned as its recipes run it, with
// checkpointing on and an assumption that says so; "no ckpt" keeps it off.
func TestQLoRACheckpointsByDefault(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "llama-3-8b"), Workload: QLoRA, SeqLen: 2048, GlobalBatch: 4}
	hw := []Hardware{mustGPU(t, c, "4090", 1)}
	res := mustPlan(t, c, Request{NoSearch: true, Job: job, Targets: hw})
	if !res.Plans[0].Checkpointing || !strings.Contains(strings.Join(res.Assumptions, "\n"), "as QLoRA recipes run it") {
		t.Errorf("qlora: checkpointing %v, assumptions %q", res.Plans[0].Checkpointing, res.Assumptions)
	}
	job.NoCheckpointing = true
	if e := mustPlan(t, c, Request{NoSearch: true, Job: job, Targets: hw}).Plans[0]; e.Checkpointing {
		t.Error("qlora no ckpt: planned with checkpointing")
	}
	job.NoCheckpointing, job.Workload = false, LoRA
	if e := mustPlan(t, c, Request{NoSearch: true, Job: job, Targets: []Hardware{mustGPU(t, c, "h100", 1)}}).Plans[0]; e.Checkpointing {
		t.Error("lora on an h100: checkpointing chosen where it fits without")
	}
}

// The sharding advice under a plan that does not fit does not say it fits.
func TestShardingAdviceFollowsTheVerdict(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "llama-3-70b"), Workload: Finetune, SeqLen: 2048, GlobalBatch: 8, Strategy: ZeRO3}
	res := mustPlan(t, c, Request{NoSearch: true, Job: job, Targets: []Hardware{mustGPU(t, c, "h100", 2)}})
	if res.Plans[0].Memory.Fits {
		t.Fatal("70B full fine-tune fits on 2 H100s: pick a job that does not")
	}
	said := false
	for _, a := range res.Advice {
		if a.Topic == "sharding" {
			said = true
			if strings.Contains(a.Text, "it fits") {
				t.Errorf("sharding advice %q under a plan that does not fit", a.Text)
			}
		}
	}
	if !said {
		t.Error("no sharding advice for a ZeRO-3 plan on 2 GPUs")
	}
}

// An adapter fine-tune that does not fit one small card is offered the
// changes that fit it there: QLoRA, Unsloth's fused loss, half the
// sequence, not only more cards.
func TestSmallCardOOMTips(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "gemma-3-4b"), Workload: LoRA, SeqLen: 2048, GlobalBatch: 1}
	res := mustPlan(t, c, Request{NoSearch: true, Job: job, Targets: []Hardware{mustGPU(t, c, "t4", 1)}})
	if res.Plans[0].Memory.Fits {
		t.Fatal("gemma 3 4b LoRA fits a T4 at seq 2048: pick a job that does not")
	}
	var tips string
	for _, a := range res.Advice {
		if a.Topic == "out of memory" {
			tips += a.Text + "\n"
		}
	}
	for _, want := range []string{"QLoRA on a 4-bit base", "Unsloth", "shorter sequences (`seq 1024`)"} {
		if !strings.Contains(tips, want) {
			t.Errorf("no %q among the out-of-memory tips:\n%s", want, tips)
		}
	}
}
