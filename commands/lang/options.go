package lang

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// ---------------------------------------------------------------------------
// Vocabulary

type reqKwKind int

const (
	reqKwWorkload reqKwKind = iota + 1
	reqKwPrecision
	reqKwCkpt
	reqKwCkptPrefix
	reqKwAttention
	reqKwStrategy
	reqKwZero
	reqKwDeepspeed
	reqKwOptimizer
	reqKwStack
	reqKwInterconnect
	reqKwKey
	reqKwModelKind
	reqKwOn
	reqKwCompare
	reqKwBaseline
	reqKwOf
	reqKwPer
	reqKwOffload    // offload (optimizer) | full offload
	reqKwInBackward // optimizer-in-backward
	reqKwPureBF16   // pure bf16: no fp32 master weights
	reqKwActOffload // activation offloading: saved activations in host memory
	reqKwRL         // grpo, ppo: reinforcement learning on sampled completions
	reqKwPreference // dpo: preference pairs with a frozen reference model
)

// reqKernels is the stack keyword of kernel libraries (torch.compile,
// Liger): tuned on any framework.
const reqKernels = "kernels"

type reqKeyword struct {
	kind reqKwKind
	val  string
}

// reqKeywords maps every word the language knows (other than model and
// GPU names, units and numbers) to what it does.
var reqKeywords = func() map[string]reqKeyword {
	// One map, sized once: it is built in every process that links the
	// reader, so no per-group maps are made and merged.
	all := make(map[string]reqKeyword, 256)
	reqKws := func(kind reqKwKind, val string, words ...string) {
		for _, w := range words {
			all[w] = reqKeyword{kind, val}
		}
	}
	reqKws(reqKwWorkload, string(planner.Pretrain), "pretrain", "pre-train", "pretraining", "pre-training")
	reqKws(reqKwWorkload, string(planner.Finetune), "finetune", "fine-tune", "ft", "finetuning", "fine-tuning", "sft",
		"fine-tuned", "finetuned",
		"full-ft", "full-finetune", "full-fine-tune", "fft", "instruction-tuning", "instruction-tune", "sft-tune")
	reqKws(reqKwWorkload, string(planner.LoRA), "lora", "lora-tune", "lora-tuning", "lora-finetune", "lora-ft")
	reqKws(reqKwWorkload, string(planner.QLoRA), "qlora", "q-lora", "qlora-tune", "qlora-tuning", "qlora-finetune", "qlora-ft")
	reqKws(reqKwWorkload, string(planner.Inference), "inference", "infer", "serve", "serving", "inf", "served",
		"deploy", "deployment", "serve-only", "transcribe", "transcribing", "transcription", "transcriptions")
	reqKws(reqKwPrecision, string(planner.FP32), "fp32", "float32", "32bit", "32-bit")
	reqKws(reqKwPrecision, string(planner.TF32), "tf32")
	reqKws(reqKwPrecision, string(planner.FP16), "fp16", "float16", "half")
	reqKws(reqKwPrecision, string(planner.BF16), "bf16", "bfloat16")
	reqKws(reqKwPrecision, string(planner.FP8), "fp8")
	reqKws(reqKwPrecision, string(planner.INT8), "int8", "8bit", "8-bit")
	reqKws(reqKwPrecision, string(planner.INT4), "int4", "nf4", "4bit", "4-bit", "mxfp4", "nvfp4")
	reqKws(reqKwPrecision, "amp", "amp")
	reqKws(reqKwPrecision, "mixed", "mixed", "mixed-precision", "16bit", "16-bit")
	reqKws(reqKwCkpt, "", "ckpt", "checkpointing", "grad-ckpt", "gradient-checkpointing", "gc",
		"activation-checkpointing", "act-ckpt", "recompute", "recomputation")
	reqKws(reqKwCkpt, "off", "no-ckpt", "no-checkpointing", "without-ckpt")
	reqKws(reqKwCkptPrefix, "", "gradient", "grad", "activation")
	reqKws(reqKwCkptPrefix, "selective", "selective")
	reqKws(reqKwCkpt, "selective", "sac", "selective-ckpt", "selective-checkpointing", "selective-recompute",
		"selective-recomputation", "selective-ac", "selective-activation-checkpointing")
	reqKws(reqKwAttention, string(planner.Flash), "flash", "flash-attn", "flash-attention", "flashattention",
		"flashattn", "flash-attn2", "fa", "fa2", "fa3", "sdpa")
	reqKws(reqKwAttention, string(planner.Eager), "eager")
	reqKws(reqKwStrategy, string(planner.DDP), "ddp")
	reqKws(reqKwStrategy, string(planner.ZeRO1), "zero1", "zero-1")
	reqKws(reqKwStrategy, string(planner.ZeRO2), "zero2", "zero-2")
	reqKws(reqKwStrategy, string(planner.ZeRO3), "zero3", "zero-3")
	reqKws(reqKwStrategy, string(planner.FSDP), "fsdp")
	reqKws(reqKwZero, "", "zero")
	reqKws(reqKwDeepspeed, "", "deepspeed")
	reqKws(reqKwOptimizer, string(planner.AdamW), "adamw", "adam")
	reqKws(reqKwOptimizer, string(planner.Adam8bit), "adam8bit", "8bit-adam", "adamw8bit", "adamw-8bit", "adam-8bit",
		"bnb-adam", "8bit-adamw", "8-bit-adam")
	reqKws(reqKwOptimizer, string(planner.PagedAdamW), "paged-adamw")
	reqKws(reqKwOptimizer, string(planner.PagedAdam8bit), "paged-adam8bit", "paged-adamw8bit")
	reqKws(reqKwOptimizer, string(planner.SGD), "sgd")
	reqKws(reqKwOptimizer, string(planner.Lion), "lion")
	// Stacks by the name of the software: the trainers built on Hugging
	// Face run its eager modules; the pre-training and recipe libraries
	// below ship fused kernels (FlashAttention, fused norms and loss).
	reqKws(reqKwStack, string(planner.HF), "hf", "huggingface", "hugging-face", "transformers", "eager-pytorch", "pytorch",
		"trainer", "hf-trainer", "trl", "sfttrainer", "sft-trainer", "peft", "axolotl", "llama-factory", "llamafactory",
		"plain-pytorch", "vanilla-pytorch")
	reqKws(reqKwStack, string(planner.Tuned), "tuned", "megatron", "megatron-lm", "fused", "nemo", "torchtitan", "torchtune",
		"llm-foundry", "llmfoundry", "composer", "nanotron", "maxtext", "levanter", "megatron-core", "mcore",
		"megatron-deepspeed", "transformer-engine", "llm.c")
	reqKws(reqKwStack, string(planner.Unsloth), "unsloth")
	// Kernels named on their own make whatever framework runs them fused.
	reqKws(reqKwStack, reqKernels, "torch.compile", "torch-compile", "torch_compile", "compile", "compiled", "liger",
		"liger-kernel", "liger-kernels")
	reqKws(reqKwInterconnect, string(planner.NVLink), "nvlink", "nvswitch")
	reqKws(reqKwInterconnect, string(planner.PCIe), "pcie")
	reqKws(reqKwInterconnect, string(planner.IB), "ib", "infiniband", "roce")
	reqKws(reqKwKey, "seq", "seq", "seqlen", "seq-len", "seq-length", "sequence-length", "sequence", "context", "context-length",
		"ctx", "ctx-len", "max-len", "max-length", "max-seq-len", "max-seq-length", "cutoff-len", "model-max-length", "max-model-len", "max_model_len", "block-size",
		"max-source-length")
	reqKws(reqKwKey, "batch", "batch", "bs", "global-batch", "batch-size", "batchsize", "global-batch-size", "gbs")
	reqKws(reqKwKey, "micro", "micro", "micro-batch", "microbatch", "mbs", "micro-batch-size", "per-gpu", "per-device",
		"per-gpu-batch", "per-device-train-batch-size", "per-device-batch-size", "train-micro-batch-size-per-gpu")
	reqKws(reqKwKey, "accum", "accum", "grad-accum", "gradient-accumulation-steps", "gradient-accumulation", "accumulation-steps",
		"grad-accumulation")
	reqKws(reqKwKey, "rank", "rank", "lora-r", "lora-rank", "r")
	reqKws(reqKwKey, "gen", "gen", "generate", "output", "max-new-tokens", "new-tokens", "gen-tokens", "output-tokens")
	reqKws(reqKwKey, "layers", "layers", "n-layers", "num-layers", "n-layer")
	reqKws(reqKwKey, "hidden", "hidden", "hidden-size", "d-model", "dmodel", "dim")
	reqKws(reqKwKey, "heads", "heads", "n-heads", "num-heads", "attention-heads")
	reqKws(reqKwKey, "kv", "kv", "kv-heads", "num-kv-heads", "kv-head", "n-kv-heads")
	reqKws(reqKwKey, "ffn", "ffn", "ffn-dim", "intermediate", "intermediate-size", "mlp")
	reqKws(reqKwKey, "vocab", "vocab", "vocab-size")
	reqKws(reqKwKey, "params", "params", "parameters", "param")
	reqKws(reqKwKey, "epochs", "epochs", "epoch", "ep")
	reqKws(reqKwKey, "steps", "steps")
	reqKws(reqKwKey, "precision", "precision", "dtype")
	reqKws(reqKwModelKind, string(planner.Encoder), "encoder", "encoder-only")
	reqKws(reqKwModelKind, string(planner.Decoder), "decoder", "decoder-only")
	reqKws(reqKwOn, "", "on")
	reqKws(reqKwCompare, "", "compare")
	reqKws(reqKwBaseline, "", "baseline", "measured", "took")
	reqKws(reqKwOf, "", "of", "dataset", "data")
	reqKws(reqKwPer, "", "per")
	reqKws(reqKwOffload, string(planner.OffloadOptimizer), "offload", "cpu-offload", "offload-optimizer", "optimizer-offload",
		"zero-offload", "offloading", "오프로드", "오프로딩")
	reqKws(reqKwOffload, string(planner.OffloadFull), "offload-params", "offload-all", "full-offload", "param-offload",
		"zero-infinity")
	reqKws(reqKwInBackward, "", "optimizer-in-backward", "optim-in-backward", "optimizer-in-bwd", "opt-in-bwd",
		"optim-in-bwd", "in-backward")
	reqKws(reqKwPureBF16, "", "pure-bf16", "bf16-pure", "pure-bfloat16")
	reqKws(reqKwPreference, "", "dpo", "ipo", "rlhf-dpo")
	reqKws(reqKwRL, "", "grpo", "ppo", "rlhf", "rloo", "dapo", "gspo")
	reqKws(reqKwActOffload, "", "activation-offload", "activation-offloading", "offload-activations", "act-offload",
		"activation-offloading=true", "enable-activation-offloading")
	reqKws(reqKwActOffload, "ckpt", "offloaded-checkpointing", "cpu-checkpointing")
	reqKws(reqKwKey, "cp", "cp", "context-parallel", "context-parallelism", "cp-size")
	reqKws(reqKwKey, "tp", "tp", "tensor-parallel", "tensor-parallelism", "tp-size", "tensor-parallel-size", "tensor_parallel_size")
	reqKws(reqKwKey, "pp", "pp", "pipeline-parallel", "pipeline-parallelism", "pp-size", "pipeline-parallel-size")
	return all
}()

// reqFillers are words that carry no meaning of their own.
var reqFillers = map[string]bool{
	"for": true, "with": true, "using": true, "and": true, "or": true, "vs": true, "versus": true, "via": true,
	"a": true, "an": true, "the": true, "in": true, "at": true, "-": true, "+": true, "&": true, "w/": true,
	"plus": true, "train": true, "training": true, "model": true, "please": true, "global": true, "job": true,
	"version": true, "variant": true,
}

// reqListSeps separate entries of a hardware list.
var reqListSeps = map[string]bool{",": true, "and": true, "or": true, "vs": true, "versus": true, "/": true}

// reqSuggest is the keyword part of the "did you mean" vocabulary:
// canonical spellings only, long enough that a typo is not mistaken for a
// two-letter alias.
var reqSuggest = []string{
	"pretrain", "finetune", "lora", "qlora", "inference", "epochs", "samples", "tokens", "steps", "params",
	"seq", "context", "batch", "micro", "rank", "generate", "layers", "hidden", "heads", "kv-heads", "ffn", "vocab",
	"encoder", "decoder", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4", "nf4", "mixed", "ckpt",
	"checkpointing", "flash", "eager", "ddp", "zero1", "zero2", "zero3", "fsdp", "adamw", "adam8bit", "sgd", "lion",
	"huggingface", "tuned", "megatron", "nvlink", "pcie", "infiniband", "roce", "compare", "baseline", "nodes",
	"offload", "pure-bf16", "optimizer-in-backward", "context-parallel", "activation-offloading", "dpo",
	"dataset", "precision",
}

// reqUnitSuggest is the vocabulary for the word after a number.
var reqUnitSuggest = []string{"epochs", "samples", "tokens", "steps", "params", "nodes", "layers", "heads",
	"sequences", "examples", "images"}

var reqKeyExamples = map[string]string{
	"seq": "seq 512", "batch": "batch 128", "micro": "micro 32", "accum": "gradient_accumulation_steps 8", "rank": "rank 16", "gen": "gen 256",
	"layers": "layers 24", "hidden": "hidden 2048", "heads": "heads 16", "kv": "kv 8", "ffn": "ffn 8192",
	"vocab": "vocab 50k", "params": "params 7b", "epochs": "epochs 10", "steps": "steps 5000", "precision": "precision bf16",
	"cp": "cp 2", "tp": "tp 2", "pp": "pp 2",
}

// ---------------------------------------------------------------------------
// Keywords

// keyword is one switch with a case per keyword kind on purpose: the table
// of what each kind does reads best in one place.
func (p *reqParser) keyword(kw reqKeyword) error {
	a := p.i
	t := p.toks[a]
	p.i++
	switch kw.kind {
	case reqKwWorkload:
		return p.setWorkload(planner.Workload(kw.val), a, p.i)
	case reqKwPrecision:
		if t.w == "8bit" || t.w == "8-bit" {
			if n := p.tok(p.i).w; n == "adam" || n == "adamw" {
				p.i++
				return reqSet(p, &p.optimizer, planner.Adam8bit, a, p.i, "optimizers")
			}
		}
		if p.tok(p.i).w == "precision" {
			p.i++
		}
		return p.setPrecision(kw.val, a, p.i)
	case reqKwCkpt:
		if kw.val == "off" {
			// "without gradient checkpointing", "체크포인팅 안 켜면"
			p.req.Job.NoCheckpointing = true
			return nil
		}
		p.req.Job.Checkpointing = true
		p.req.Job.SelectiveRecompute = p.req.Job.SelectiveRecompute || kw.val == "selective"
	case reqKwCkptPrefix:
		n := reqKeywords[p.tok(p.i).w]
		if kw.val == "selective" && n.kind == reqKwCkptPrefix && reqKeywords[p.tok(p.i+1).w].kind == reqKwCkpt {
			p.i++ // "selective activation checkpointing"
			n = reqKeywords[p.tok(p.i).w]
		}
		if n.kind == reqKwCkpt {
			p.i++
			p.req.Job.Checkpointing = true
			p.req.Job.SelectiveRecompute = p.req.Job.SelectiveRecompute || kw.val == "selective" || n.val == "selective"
			return nil
		}
		return said(en.Tf("`%s` what? I know `%s checkpointing`", t.raw, t.w), &UserError{Hint: p.try(a, a+1, "gradient-checkpointing")})
	case reqKwAttention:
		named := strings.Contains(t.w, "attn") || strings.Contains(t.w, "attention")
		if n := p.tok(p.i).w; n == "attention" || n == "attn" {
			p.i++
			named = true
		}
		// "flash attention 2"
		if n := p.tok(p.i).w; named && (n == "2" || n == "3") && reqUnitClass(p.tok(p.i+1).w) <= reqUUnknown {
			p.i++
		}
		return reqSet(p, &p.attention, planner.Attention(kw.val), a, p.i, "attention kernels")
	case reqKwStrategy:
		return reqSet(p, &p.strategy, planner.Strategy(kw.val), a, p.i, "sharding strategies")
	case reqKwDeepspeed:
		if n := reqKeywords[p.tok(p.i).w]; n.kind == reqKwStrategy && strings.HasPrefix(p.tok(p.i).w, "zero") || n.kind == reqKwZero {
			return nil // "deepspeed zero2": the stage says it all
		}
		// "w/ deepspeed" with no stage: ZeRO-2, DeepSpeed's usual
		// training config, said in the reading
		p.note(en.Tf("`%s` without a stage read as ZeRO-2 (say zero1, zero2 or zero3)", t.raw))
		return reqSet(p, &p.strategy, planner.ZeRO2, a, p.i, "sharding strategies")
	case reqKwZero:
		for p.tok(p.i).w == "=" || p.tok(p.i).w == "stage" || p.tok(p.i).w == "-" {
			p.i++
		}
		stage := map[string]planner.Strategy{"1": planner.ZeRO1, "2": planner.ZeRO2, "3": planner.ZeRO3}[p.tok(p.i).w]
		if stage == "" {
			return said(en.Tf("`%s` needs a stage: `zero1`, `zero2` or `zero3`", p.span(a, p.i+1)), &UserError{Hint: p.drop(a, a+1, reqEg("zero1", "zero2", "zero3"))})
		}
		p.i++
		return reqSet(p, &p.strategy, stage, a, p.i, "sharding strategies")
	case reqKwOptimizer:
		if n := p.tok(p.i).w; (t.w == "adam" || t.w == "adamw") && (n == "8bit" || n == "8-bit") {
			p.i++
			return reqSet(p, &p.optimizer, planner.Adam8bit, a, p.i, "optimizers")
		}
		return reqSet(p, &p.optimizer, planner.Optimizer(kw.val), a, p.i, "optimizers")
	case reqKwStack:
		switch {
		case kw.val == reqKernels:
			// "hf trainer with torch.compile", "trl + liger": the
			// framework's modules run as fused kernels
			p.kernels = true
			if p.stack.set && p.stack.v != planner.HF {
				return nil
			}
			p.stack = reqSlot[planner.Stack]{v: planner.Tuned, word: p.span(a, p.i), set: true}
			return nil
		case kw.val == string(planner.HF) && p.kernels:
			return nil
		}
		return reqSet(p, &p.stack, planner.Stack(kw.val), a, p.i, "stacks")
	case reqKwInterconnect:
		return reqSet(p, &p.interconnect, planner.Interconnect(kw.val), a, p.i, "interconnects")
	case reqKwModelKind:
		return reqSet(p, &p.kind, planner.ModelKind(kw.val), a, p.i, "model kinds")
	case reqKwKey:
		return p.key(kw.val, a)
	case reqKwPer:
		if n := p.tok(p.i).w; n == "gpu" || n == "device" {
			p.i++
			return p.key("micro", a)
		}
		return p.unknown(a, nil)
	case reqKwOf:
		return p.dataset(a)
	case reqKwOffload:
		// "offload", "cpu offload params", "offload optimizer"
		v := planner.Offload(kw.val)
		for {
			switch p.tok(p.i).w {
			case "params", "parameters", "param", "all", "everything", "weights":
				v = planner.OffloadFull
				p.i++
				continue
			case "optimizer", "optim", "states", "optimizer-states":
				p.i++
				continue
			}
			break
		}
		if t.w == "cpu" {
			p.i++
		}
		if p.req.Job.Offload != "" && p.req.Job.Offload != v {
			return said(en.Tf("two offloads: `%s` and `%s` — which one?", p.req.Job.Offload, p.span(a, p.i)), &UserError{Hint: reqEg("offload", "offload-params")})
		}
		p.req.Job.Offload = v
	case reqKwInBackward:
		p.req.Job.OptimizerInBackward = true
	case reqKwPureBF16:
		p.req.Job.PureBF16 = true
	case reqKwPreference:
		p.req.Job.Preference = true
	case reqKwRL:
		p.rl = p.span(a, p.i)
	case reqKwActOffload:
		p.req.Job.ActivationOffload = true
		p.req.Job.Checkpointing = p.req.Job.Checkpointing || kw.val == "ckpt"
	case reqKwOn:
		j := p.i
		for w := p.tok(j).w; w == "a" || w == "the" || w == "my" || w == "our" || w == "team" || w == "lab" || w == "company" || hostWord(w) && p.isGPU(p.tok(j+1).w); w = p.tok(j).w {
			j++
		}
		if n := p.tok(j).w; n == "dataset" || n == "data" {
			p.i = j // "on a dataset of 2.5M samples"
			return nil
		}
		if p.amountAt(j) {
			p.i = j // "on 2.5M samples" is the data, as "of 2.5M samples" is
			return p.dataset(a)
		}
		if n, rest, ok := reqScanInt(p.tok(j).w); ok && rest == "" && n >= 1 && n <= reqMaxGPUs && gpuWord(p.tok(j+1).w) {
			p.openCount, p.i = n, j+2 // "on 8 gpus": the count, not the GPU
			return nil
		}
		p.i = j // "on a t4", "on the h100s"
		if p.i >= len(p.toks) {
			return said(en.T("`on` needs hardware after it, like `on h100x2`"), &UserError{Hint: p.drop(a, p.i, reqEg("on h100x2"))})
		}
		return p.hardwareList(true)
	case reqKwCompare:
		p.compare = true
		if p.compareWord == "" {
			p.compareWord = p.span(a, a+1)
		}
		// "compare on h200x4, a100x4", "compare h200x4 a100x4", or
		// "compare bert-base on h200x4 vs a100x4" (the targets come later)
		if p.tok(p.i).w == "on" {
			p.i++
			return p.hardwareList(true)
		}
		return p.hardwareList(p.i < len(p.toks) && !p.known(p.i))
	case reqKwBaseline:
		return p.baseline(a)
	}
	return nil
}

func (p *reqParser) setWorkload(w planner.Workload, a, b int) error {
	if p.workload.set {
		cur := p.workload.v
		if cur != planner.Inference && w == planner.Inference && p.thenAfter(p.workloadAt, a) {
			// "fine-tune mistral with lora, then serve it": the training
			// planned, the serving after it (finishServing)
			p.thenServe = true
			return nil
		}
		// LoRA and QLoRA are ways to fine-tune: "lora finetune" is LoRA.
		if cur == planner.Finetune && (w == planner.LoRA || w == planner.QLoRA) {
			p.workload = reqSlot[planner.Workload]{v: w, word: p.span(a, b), set: true}
			return nil
		}
		if w == planner.Finetune && (cur == planner.LoRA || cur == planner.QLoRA) {
			return nil
		}
	}
	if !p.workload.set {
		p.workloadAt = a
	}
	return reqSet(p, &p.workload, w, a, b, "workloads")
}

// setPrecision records a precision word. `amp` means fp16 autocast unless
// another precision is named ("bf16 amp" is bf16); `mixed` leaves the
// choice of 16-bit format to the planner.
func (p *reqParser) setPrecision(v string, a, b int) error {
	if v == "mixed" && p.sixteenBeside(a, b) {
		v = string(planner.FP16) // "4bit, 8bit, 16bit": 16-bit weights set beside quantised ones
	}
	switch v {
	case "amp":
		p.amp = true
		return nil
	case "mixed":
		p.mixed = true
		return nil
	}
	pv := planner.Precision(v)
	p.bf16Named = p.bf16Named || pv == planner.BF16
	if prev := p.precision; prev.set && prev.v != pv && !(reqFloatFormat(prev.v) && reqFloatFormat(pv)) && p.onlySeparators(p.precisionEnd, a) &&
		p.toks[p.precisionEnd-1].end < p.toks[a].start && strings.TrimSpace(p.text[p.toks[p.precisionEnd-1].end:p.toks[a].start]) != "" {
		// "int4 vs fp16", "awq랑 fp16 비교", "int8 vs int4": weights in
		// 4 or 8 bits set against 16 or each other, side by side; a third
		// ("fp16 vs int8 vs int4") sets the first against the last
		first := prev.v
		if p.precisionPair[0] != "" {
			first = p.precisionPair[0]
			p.precisionMiddle = prev // compared too when memory is asked; else noted
		}
		p.precisionPair = [2]planner.Precision{first, pv}
		p.precision = reqSlot[planner.Precision]{v: pv, word: p.span(a, b), set: true}
		p.precisionEnd = b
		return nil
	}
	if prev := p.precision; prev.set && prev.v != pv && reqFloatFormat(prev.v) && reqFloatFormat(pv) {
		// "bf16 won't work on a v100, so fp16", "fp8 or bf16, doesn't
		// matter": people settle on the last format they name; side by
		// side ("bf16 vs fp8") the answer sets the two against each other
		if w := p.tok(b).w; p.onlySeparators(p.precisionEnd, a) || w == "대비" || w == "비해" || w == "보다" || w == "than" || strings.HasPrefix(w, "대비") {
			p.precisionPair = [2]planner.Precision{prev.v, pv} // "fp8로 … bf16 대비 얼마나 빨라져"
		}
		p.precision = reqSlot[planner.Precision]{v: pv, word: p.span(a, b), set: true}
		p.precisionEnd = b
		p.note(en.Tf("`%s` and `%s` both named: planned in %s, the last one", prev.word, p.span(a, b), pv))
		return nil
	}
	p.precisionEnd = b
	return reqSet(p, &p.precision, pv, a, b, "precisions")
}

// onlySeparators reports whether what was typed between token a-1 and
// token b only joins a list: "vs", "or", "and", a comma, a slash, 대비,
// 랑/이랑/하고, or nothing ("bf16 안 되는 걸로 아는데 fp16" is a change of
// mind, not two formats side by side).
func (p *reqParser) onlySeparators(a, b int) bool {
	if a < 1 || b > len(p.toks) || a > b || p.toks[a-1].end > p.toks[b].start || p.toks[b].start > len(p.text) {
		return false
	}
	for _, w := range strings.Fields(strings.NewReplacer(",", " ", "/", " ").Replace(p.text[p.toks[a-1].end:p.toks[b].start])) {
		switch strings.ToLower(w) {
		case "vs", "vs.", "versus", "or", "and", "대비", "랑", "이랑", "하고", "과", "와", "아니면":
		default:
			return false
		}
	}
	return true
}

// reqFloatFormat reports whether v is a floating-point compute format,
// one people weigh against another in the same message; integer and
// 4-bit weight formats are a different choice and still conflict.
func reqFloatFormat(v planner.Precision) bool {
	switch v {
	case planner.FP32, planner.TF32, planner.FP16, planner.BF16, planner.FP8:
		return true
	}
	return false
}

// ---------------------------------------------------------------------------
// Keys with a number: seq 512, batch 128 = 4x32, micro 32, layers 24, …

// value reads the number after a key. Skip words ("size", "len") and '='
// may come between. It returns the number and a unit fused to it.
func (p *reqParser) value(key string, a int, skip ...string) (reqNumber, string, error) {
	for p.tok(p.i).w == "=" || slices.Contains(skip, p.tok(p.i).w) {
		p.i++
	}
	t := p.tok(p.i)
	if !reqStartsNumber(t.w) {
		msg := en.Tf("`%s` needs a number after it, like `%s`", reqShort(p.toks[a].raw), reqKeyExamples[key])
		if p.i < len(p.toks) && !p.known(p.i) {
			msg = en.Tf("`%s` needs a number, not `%s`, like `%s`", reqShort(p.toks[a].raw), reqShort(t.raw), reqKeyExamples[key])
		}
		return reqNumber{}, "", said(msg, &UserError{Hint: p.drop(a, p.i, reqEg(reqKeyExamples[key]))})
	}
	n, unit, ok := reqScanNumber(t.w)
	if !ok {
		return reqNumber{}, "", p.badNumber(p.i)
	}
	p.i++
	return n, unit, nil
}

func (p *reqParser) badNumber(i int) error {
	return said(en.Tf("`%s` is not a number I can read", reqShort(p.tok(i).raw)), &UserError{Hint: "numbers look like 512, 2.5M, 1.2B, 15T, 100k, 2,464,256 or 1e6"})
}

// check validates a value for the phrase [a, b): finite, within [lo, hi],
// and whole when asked.
func (p *reqParser) check(v float64, a, b int, lo, hi float64, hiText string, whole bool) error {
	phrase := p.span(a, b)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0) || v > hi:
		return said(en.Tf("`%s` is more than gpuplan plans for (at most %s)", phrase, hiText), &UserError{Hint: p.try(a, b, "")})
	case v <= 0:
		return said(en.Tf("`%s` must be more than zero", phrase), &UserError{Hint: p.try(a, b, "")})
	case whole && v != math.Trunc(v):
		return said(en.Tf("`%s` must be a whole number", phrase), &UserError{Hint: p.try(a, b, "")})
	case v < lo:
		return said(en.Tf("`%s` must be at least %s", phrase, reqTrimNum(lo)), &UserError{Hint: p.try(a, b, "")})
	}
	return nil
}

// reqTrimNum writes v in plain digits, rounded to 12 significant digits
// so arithmetic on a typed value (2.4 days as 57.6 h) reads back as typed.
func reqTrimNum(v float64) string {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	if err != nil {
		r = v
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// reqSeqValue turns a context length as typed into tokens. "8k" is 8192, not
// 8000: contexts are powers of two, and people write 4k/8k/32k/128k for
// 4096…131072. So a k on a power-of-two whole number (1k, 2k, 4k … 128k,
// 256k) means ×1024; any other k ("10k", "1.5k") means ×1000, and m/b/t
// are decimal.
func reqSeqValue(n reqNumber) float64 {
	if n.mult == 'k' && n.mant >= 1 && n.mant == math.Trunc(n.mant) && n.mant < 1<<20 {
		if m := int(n.mant); m&(m-1) == 0 {
			return float64(m) * 1024
		}
	}
	return n.v
}

// plainValue reads the number after key and refuses a unit glued to it
// ("rank 16gb").
func (p *reqParser) plainValue(key string, a int, skip ...string) (reqNumber, error) {
	n, unit, err := p.value(key, a, skip...)
	if err != nil {
		return n, err
	}
	if unit != "" {
		return n, p.badNumber(p.i - 1)
	}
	return n, nil
}

// key is one switch with a case per key on purpose (seq, batch, micro,
// rank, …): each key's range check sits beside its word.
func (p *reqParser) key(key string, a int) error {
	switch key {
	case "seq":
		n, unit, err := p.value(key, a, "len", "length", "size", "window", "of")
		if err != nil {
			return err
		}
		if unit == "" && reqUnitClass(p.tok(p.i).w) == reqUTokens {
			p.i++
		} else if c := reqUnitClass(unit); c != reqUNone && c != reqUTokens {
			return p.badNumber(p.i - 1)
		}
		v := reqSeqValue(n)
		if err := p.check(v, a, p.i, 1, 10e6, "10M tokens", true); err != nil {
			return err
		}
		return reqSet(p, &p.seq, int(v), a, p.i, "sequence lengths")
	case "batch":
		return p.batchKey(a)
	case "accum":
		n, err := p.plainValue(key, a, "steps")
		if err != nil {
			return err
		}
		if err := p.check(n.v, a, p.i, 1, 1e5, "100k", true); err != nil {
			return err
		}
		return reqSet(p, &p.accum, int(n.v), a, p.i, "accumulation steps")
	case "micro":
		n, err := p.plainValue(key, a, "batch", "size", "bs")
		if err != nil {
			return err
		}
		if err := p.check(n.v, a, p.i, 1, 1e6, "1M", true); err != nil {
			return err
		}
		return reqSet(p, &p.micro, int(n.v), a, p.i, "micro-batch sizes")
	case "cp":
		if w := p.tok(p.i).w; w != "=" && !reqStartsNumber(w) && w != "size" && w != "degree" {
			// "128k 학습에 context parallel 필요해?": the plan without it
			// shows whether a sequence fits one GPU; the degree splits it
			p.note(en.T("context parallelism is planned when its degree is said (`cp 2`, `cp 4`): this plan runs without it, and shows whether one sequence fits a GPU"))
			return nil
		}
		n, err := p.plainValue(key, a, "size", "degree")
		if err != nil {
			return err
		}
		if err := p.check(n.v, a, p.i, 1, 1024, "1024", true); err != nil {
			return err
		}
		p.req.Job.ContextParallel = int(n.v)
		return nil
	case "tp", "pp":
		// a degree said is the run's layout: planned as said on its
		// hardware (a served model is split over its GPUs whatever is
		// said); without one the search picks
		if w := p.tok(p.i).w; w != "=" && !reqStartsNumber(w) {
			p.note(en.Tf("`%s`: the plan picks the tensor and pipeline layout itself and shows it under Setup", p.span(a, p.i)))
			p.tpAsked = p.tpAsked || key == "tp"
			return nil // "or do we need tensor parallel?"
		}
		n, err := p.plainValue(key, a, "size", "degree")
		if err != nil {
			return err
		}
		if err := p.check(n.v, a, p.i, 1, 1024, "1024", true); err != nil {
			return err
		}
		p.layoutGPUs = max(p.layoutGPUs, 1) * int(n.v)
		if key == "tp" {
			p.req.Job.TensorParallel = int(n.v)
		} else {
			p.req.Job.PipelineParallel = int(n.v)
		}
		return nil
	case "rank":
		n, err := p.plainValue(key, a, "r", "rank")
		if err != nil {
			return err
		}
		if err := p.check(n.v, a, p.i, 1, 65536, "65536", true); err != nil {
			return err
		}
		return reqSet(p, &p.rank, int(n.v), a, p.i, "LoRA ranks")
	case "gen":
		n, unit, err := p.value(key, a, "tokens", "len", "length")
		if err != nil {
			return err
		}
		if unit == "" && reqUnitClass(p.tok(p.i).w) == reqUTokens {
			p.i++
		} else if c := reqUnitClass(unit); c != reqUNone && c != reqUTokens {
			return p.badNumber(p.i - 1)
		}
		if err := p.check(n.v, a, p.i, 1, 10e6, "10M tokens", true); err != nil {
			return err
		}
		return reqSet(p, &p.gen, int(n.v), a, p.i, "generation lengths")
	case "layers", "hidden", "heads", "kv", "ffn", "vocab":
		skip := map[string][]string{"kv": {"heads", "head"}, "hidden": {"size", "dim"}, "ffn": {"size", "dim"},
			"vocab": {"size"}}[key]
		n, err := p.plainValue(key, a, skip...)
		if err != nil {
			return err
		}
		return p.setArch(key, n.v, a, p.i)
	case "params":
		n, err := p.plainValue(key, a)
		if err != nil {
			return err
		}
		return p.setParams(n.v, a, p.i)
	case "epochs":
		n, err := p.plainValue(key, a)
		if err != nil {
			return err
		}
		return p.setAmount(reqUEpochs, n.v, a, p.i, false)
	case "steps":
		n, err := p.plainValue(key, a)
		if err != nil {
			return err
		}
		return p.setAmount(reqUSteps, n.v, a, p.i, false)
	case "precision":
		for p.tok(p.i).w == "=" {
			p.i++
		}
		if kw, ok := reqKeywords[p.tok(p.i).w]; ok && kw.kind == reqKwPrecision {
			b := p.i
			p.i++
			return p.setPrecision(kw.val, b, p.i)
		}
		return said(en.Tf("`%s` needs a precision after it: fp32, tf32, fp16, bf16, fp8, int8 or int4",
			p.span(a, p.i+1)), &UserError{Hint: p.drop(a, p.i, reqEg("precision bf16"))})
	}
	return nil
}

// reqArchLimits bound the architecture numbers to what a real model could be.
var reqArchLimits = map[string]struct {
	hi     float64
	hiText string
}{
	"layers": {10000, "10,000"}, "hidden": {1e6, "1M"}, "heads": {1e5, "100k"}, "kv": {1e5, "100k"},
	"ffn": {1e7, "10M"}, "vocab": {1e7, "10M"},
}

// setArch records one architecture number. Sizes use decimal multipliers:
// "vocab 50k" is 50,000 and "vocab 32k" 32,000, as vocabularies are quoted.
func (p *reqParser) setArch(key string, v float64, a, b int) error {
	lim := reqArchLimits[key]
	if err := p.check(v, a, b, 1, lim.hi, lim.hiText, true); err != nil {
		return err
	}
	if p.archSlots == nil {
		p.archSlots = map[string]*reqSlot[int]{}
	}
	s := p.archSlots[key]
	if s == nil {
		s = &reqSlot[int]{}
		p.archSlots[key] = s
	}
	plural := map[string]string{"layers": "layer counts", "hidden": "hidden sizes", "heads": "head counts",
		"kv": "kv-head counts", "ffn": "FFN sizes", "vocab": "vocabulary sizes"}[key]
	if err := reqSet(p, s, int(v), a, b, plural); err != nil {
		return err
	}
	switch key {
	case "layers":
		p.arch.Layers = int(v)
	case "hidden":
		p.arch.Hidden = int(v)
	case "heads":
		p.arch.Heads = int(v)
	case "kv":
		p.arch.KVHeads = int(v)
	case "ffn":
		p.arch.FFN = int(v)
	case "vocab":
		p.arch.Vocab = int(v)
	}
	p.archWords = append(p.archWords, p.span(a, b))
	return nil
}

func (p *reqParser) setParams(v float64, a, b int) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 1e6 || v > 5e12 {
		return said(en.Tf("`%s` is outside the 1M–5T parameters gpuplan plans for", p.span(a, b)), &UserError{Hint: p.drop(a, b, reqEg("7b params"))})
	}
	if p.distill && p.model.set && strings.HasPrefix(p.model.v, "params:") {
		// "70B를 8B로 증류": of the two sizes, the student (the smaller) is trained
		teacher := p.model.word
		if v > p.params {
			teacher = p.span(a, b)
			p.distillNote(p.model.word, teacher)
			return nil
		}
		p.distillNote(p.span(a, b), teacher)
		p.model = reqSlot[string]{}
	}
	if err := reqSet(p, &p.model, "params:"+reqTrimNum(v), a, b, "models"); err != nil {
		return err
	}
	p.params = v
	return nil
}

// batchKey reads "batch 128", "batch 4M tokens", "batch 4x32",
// "batch 128 = 4x32" (4 GPUs × micro-batch 32) and "batch 32 per gpu".
//
// batchKey is long on purpose: the batch forms (samples, tokens, = 4x32,
// per GPU) share one check that they add up.
func (p *reqParser) batchKey(a int) error {
	for p.tok(p.i).w == "=" || p.tok(p.i).w == "size" || p.tok(p.i).w == "of" {
		p.i++
	}
	if f, next, ok := p.factors(p.i); ok {
		p.i = next
		prod := 1
		for _, x := range f {
			prod *= x
		}
		if err := p.check(float64(prod), a, p.i, 1, 100e6, "100M", true); err != nil {
			return err
		}
		if err := reqSet(p, &p.batch, reqBatch{n: prod}, a, p.i, "batch sizes"); err != nil {
			return err
		}
		return reqSet(p, &p.micro, f[1], a, p.i, "micro-batch sizes")
	}
	n, unit, err := p.value("batch", a)
	if err != nil {
		return err
	}
	tokens := false
	if unit == "" {
		switch reqUnitClass(p.tok(p.i).w) {
		case reqUTokens:
			tokens = true
			p.i++
		case reqUSamples:
			p.i++
		}
	} else {
		switch reqUnitClass(unit) {
		case reqUTokens:
			tokens = true
		case reqUSamples:
		default:
			return p.badNumber(p.i - 1)
		}
	}
	if w := p.tok(p.i).w; !tokens && (w == "per-gpu" || w == "/gpu" || w == "per-device" ||
		w == "per" && (p.tok(p.i+1).w == "gpu" || p.tok(p.i+1).w == "device")) {
		p.i++
		if w == "per" {
			p.i++
		}
		if err := p.check(n.v, a, p.i, 1, 1e6, "1M", true); err != nil {
			return err
		}
		return reqSet(p, &p.micro, int(n.v), a, p.i, "micro-batch sizes")
	}
	if tokens {
		if err := p.check(n.v, a, p.i, 1, 10e9, "10B tokens", true); err != nil {
			return err
		}
	} else if err := p.check(n.v, a, p.i, 1, 100e6, "100M", true); err != nil {
		return err
	}
	// "= 4x32": GPUs × micro-batch (× accumulation)
	j := p.i
	if p.tok(j).w == "=" {
		j++
	}
	f, next, ok := p.factors(j)
	if !ok || j == p.i && p.isGPU(p.tok(j).w) {
		// "배치 16 4090 2장": a GPU named after the batch is hardware,
		// not the batch's factors
		return reqSet(p, &p.batch, reqBatch{n: int(n.v), tokens: tokens}, a, p.i, "batch sizes")
	}
	if tokens {
		return said(en.Tf("`%s` mixes a batch in tokens with GPUs × micro-batch", p.span(a, next)), &UserError{Hint: p.drop(p.i, next, reqEg("batch 128 = 4x32", "batch 1M tokens"))})
	}
	p.i = next
	prod := 1
	for _, x := range f {
		prod *= x
	}
	if int(n.v)%prod != 0 || len(f) == 3 && prod != int(n.v) {
		return said(en.Tf("`%s` does not add up: %s is %d", p.span(a, p.i), p.span(j, next), prod), &UserError{Hint: p.try(a, p.i, fmt.Sprintf("batch %d = %s", prod, p.span(j, next)))})
	}
	if err := reqSet(p, &p.batch, reqBatch{n: int(n.v)}, a, p.i, "batch sizes"); err != nil {
		return err
	}
	return reqSet(p, &p.micro, f[1], a, p.i, "micro-batch sizes")
}

// factors reads "4x32" (GPUs × micro-batch) or "4x32x2" (× accumulation)
// at token i, also spelled "4 x 32".
func (p *reqParser) factors(i int) ([]int, int, bool) {
	w, next := p.tok(i).w, i+1
	if _, rest, ok := reqScanInt(w); ok && rest == "" && (p.tok(i+1).w == "x" || p.tok(i+1).w == "*") {
		w, next = w+"x"+p.tok(i+2).w, i+3
	}
	parts := strings.FieldsFunc(w, func(r rune) bool { return r == 'x' || r == '*' })
	if len(parts) < 2 || len(parts) > 3 || strings.Count(w, "x")+strings.Count(w, "*") != len(parts)-1 {
		return nil, 0, false
	}
	var f []int
	for _, s := range parts {
		n, rest, ok := reqScanInt(s)
		if !ok || rest != "" || n < 1 || n > 1e6 {
			return nil, 0, false
		}
		f = append(f, n)
	}
	return f, next, true
}
