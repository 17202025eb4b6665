package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// primary is the estimate advice is about: the first named target, else
// the balanced recommendation.
func primary(res *Result) *Estimate {
	if len(res.Plans) > 0 {
		return res.Plans[0]
	}
	return res.Recommendations.Balanced
}

// advise writes the how-to the seeds give: precision, batch and learning
// rate, DDP, ZeRO, checkpointing, out-of-memory fixes, and launch.
//
// advise is long on purpose: it is the list of advice topics in the order
// the card shows them.
func (pc *planContext) advise(res *Result, req Request) []Advice {
	j := pc.job
	e := primary(res)
	var out []Advice
	add := func(topic, text string) {
		out = append(out, Advice{Topic: topic, Text: text})
	}
	if e == nil {
		return out
	}
	g := e.hw.GPU
	if j.Workload == Inference && forwardOnly(j.Model) {
		unit := "images"
		if e.InferencePath == "forward" {
			unit = "sequences"
		}
		add("serving", pc.pr.Tf("One forward pass per request, no KV cache: each GPU runs its own copy of the model (%.2f GiB of weights) and batches of up to %d %s fit. Throughput comes from batching: %s/s at batch %d, %.1f ms per batch.",
			memItem(e.Memory, "weights"), e.Memory.MaxMicroBatch, unit, sig3(e.Throughput.SamplesPerS), e.MicroBatch, e.Time.BatchLatencyS*1000))
		switch {
		case j.Engine.Compiled():
			add("speed", pc.pr.Tf("as a TensorRT engine the layers run as %.0f fused kernels enqueued from C++, with no Python per operator; at small batches their own minimum times on the GPU set the latency.", engineKernels(j.Model)))
		case j.Engine == EngineGraph:
			add("speed", pc.pr.Tf("served as a graph (TensorFlow/XLA, JAX, ONNX Runtime) the forward pass issues about %.0f operators from C++, no Python between them; at small batches their issue sets the latency, and a TensorRT engine, with fewer and larger kernels, cuts it further.", graphOps(pc.prm, j.Model)))
		default:
			add("speed", pc.pr.T("an inference engine (TensorRT, ONNX Runtime, torch.compile) fuses the layers and issues them without Python: faster at every batch, and several times faster at small ones."))
			if e.HostBound {
				add("speed", pc.hostBoundAdvice())
			}
		}
		if !e.Memory.Fits {
			out = append(out, pc.oomAdvice(e)...)
		}
		add("launch", e.Launch)
		return out
	}
	if j.Workload == Inference {
		add("serving", pc.pr.Tf("Weights take %.1f GiB per GPU and each sequence of %d tokens adds %.2f GiB of KV cache; up to %d concurrent sequences fit. Use a paged-KV server (vLLM, TGI, TensorRT-LLM) to keep that capacity.",
			memItem(e.Memory, "weights"), j.SeqLen, kvBytesPerToken(j.Model)*j.Model.attnSpan(float64(j.SeqLen))*float64(j.SeqLen)/float64(e.GPUs)/gib, e.Memory.MaxMicroBatch))
		switch {
		case pc.eagerDecode && !e.HostBound:
			// eager, but the weight reads are slower than the host's issue
		case e.HostBound && e.engineTokensPerS > 0:
			add("speed", pc.pr.Tf("planned as eager PyTorch (`transformers` `generate()`): Python issues every layer's operators for each token, so the host sets the pace at %s tokens/s and a faster GPU will not help. An inference engine (vLLM, TGI, llama.cpp) or `torch.compile` with a static KV cache reads the weights at the GPU's pace: about %s tokens/s here. generate()'s own loop adds more on a slow host (38 ms a token on our H200 VM, whatever the model).", sig3(e.Throughput.TokensPerS), sig3(e.engineTokensPerS)))
		case e.Serving == nil && !j.Stack.Fused():
			add("speed", pc.pr.T("these decode rates are an inference engine's (vLLM, TGI, llama.cpp, or gpt-fast with torch.compile), which keeps the GPU busy. Plain `transformers` `generate()` is bound by the host instead: Python runs every layer's operators for each token, tens of milliseconds a token whatever the GPU (50-62 ms for Llama 3.2 1B and 3.1 8B on an H200, measured). Say `transformers` (or `hf`) to plan that."))
		}
		if !e.Memory.Fits {
			out = append(out, pc.oomAdvice(e)...)
		}
		if volta4bit(j, e, g) {
			add("serving", pc.pr.T("AWQ's kernels need a Turing GPU (sm_75) or newer, and a V100 is Volta (sm_70): serve a GPTQ build of the model instead (`--quantization gptq`; vLLM's GPTQ kernels run on Volta), or a GGUF file with llama.cpp."))
		}
		add("launch", e.Launch)
		return out
	}

	// Precision.
	if pc.keptPrecision {
		if a := pc.mixedPrecisionGain(res); a != "" {
			add("precision", a)
		}
	}
	switch {
	case g.Generation == Pascal:
		add("precision", pc.pr.Tf("%s has no bf16 and no tensor cores: fp16 AMP (`--fp16`, `GradScaler`) runs at twice its fp32 rate (%.1f vs %.1f TFLOPS) and halves activation memory.",
			g.Name, peakOf(g, FP16), peakOf(g, FP32)))
	case g.Generation == Volta || g.Generation == Turing:
		add("precision", pc.pr.Tf("%s has no bf16: use fp16 AMP (`torch.autocast(dtype=torch.float16)` + `GradScaler`, or `--fp16`). AMP runs the matmuls on tensor cores: %.0f vs %.1f TFLOPS in fp32.",
			g.Name, peakOf(g, FP16), peakOf(g, FP32)))
	case e.Precision == FP8:
		add("precision", pc.pr.T("fp8 needs Transformer Engine (or torchao float8) and keeps master weights in fp32; expect ~1.3-1.5x over bf16, not 2x."))
	case e.Precision == FP32:
		add("precision", pc.pr.Tf("plain fp32 leaves %s's tensor cores idle (%.1f vs %.0f TFLOPS bf16): turn on bf16 (`--bf16`) or at least TF32 (`torch.backends.cuda.matmul.allow_tf32 = True`).",
			g.Name, peakOf(g, FP32), peakOf(g, BF16)))
	default:
		add("precision", pc.pr.Tf("use bf16 on %s (`--bf16`, or `torch.autocast(dtype=torch.bfloat16)`): same range as fp32, no loss scaling needed.", g.Name))
	}

	// Batch, accumulation and learning rate.
	if e.GPUs > 1 || e.GradAccum > 1 || j.GlobalBatch > 0 {
		who := pc.pr.Tf("%d GPU(s)", e.layout.dp())
		if e.TensorParallel*e.PipelineParallel > 1 {
			who = pc.pr.Tf("%d data-parallel replica(s) of %d GPUs (%s)", e.layout.dp(), e.TensorParallel*e.PipelineParallel, e.Strategy)
		}
		add("batch", pc.pr.Tf("micro-batch %d × %d accumulation step(s) × %s = global batch %d.%s",
			e.MicroBatch, e.GradAccum, who, e.GlobalBatch, batchKeepNote(pc.pr, j, e)))
	}
	if res.Baseline != nil && res.Baseline.BaselinePlan != nil {
		bp := res.Baseline.BaselinePlan
		if bp.GlobalBatch != e.GlobalBatch && bp.GlobalBatch > 0 {
			ratio := float64(e.GlobalBatch) / float64(bp.GlobalBatch)
			add("learning rate", pc.pr.Tf("the global batch changes from %d to %d: scale the learning rate by %.2f (linear rule; for Adam-family optimizers √%.2f = %.2f is safer) and keep a warm-up.",
				bp.GlobalBatch, e.GlobalBatch, ratio, ratio, math.Sqrt(ratio)))
		} else {
			add("learning rate", pc.pr.Tf("the global batch stays %d, so keep the learning rate and schedule of the measured run.", e.GlobalBatch))
		}
	} else if e.GPUs > 1 || e.GradAccum > 1 {
		add("learning rate", pc.pr.Tf("tune the learning rate for the global batch (%d), not per GPU: when you change GPUs keep the global batch with gradient accumulation, or scale the learning rate with it (linear rule, √ for Adam) and keep a warm-up.", e.GlobalBatch))
	}
	if mb := e.Memory.MaxMicroBatch; mb > 2*e.MicroBatch && e.GradAccum > 1 {
		add("batch", pc.pr.Tf("memory allows a micro-batch up to %d: raise it and cut accumulation steps — fewer, larger steps use the GPU better.", mb))
	} else if mb > 2*e.MicroBatch && j.Model.IsTransformer() && float64(e.MicroBatch*j.SeqLen) >= 8192 {
		add("batch", pc.pr.Tf("memory allows a micro-batch up to %d, but %d tokens per micro-batch already fill the GPU: a larger one changes the optimisation, not the speed.", mb, e.MicroBatch*j.SeqLen))
	}

	// Multi-GPU.
	if e.GPUs > 1 {
		add("multi-GPU", pc.pr.T("use DistributedDataParallel via `torchrun`, not `nn.DataParallel`: DP runs one Python process (GIL), scatters from GPU 0 every step and piles memory on it; DDP overlaps the gradient all-reduce with the backward pass."))
		switch e.layout.strategy {
		case ZeRO1:
			add("sharding", pc.pr.Tf("ZeRO-1 (DeepSpeed stage 1 / Megatron distributed optimizer) shards the optimizer states: %.1f GiB per GPU instead of %.1f.", memItem(e.Memory, "optimizer states"), memItem(e.Memory, "optimizer states")*float64(e.layout.dp())))
		case ZeRO2:
			add("sharding", pc.pr.Tf("ZeRO-2 shards optimizer states and gradients over the %d GPUs; plain DDP would not fit or would be slower here.", e.layout.dp()))
		case ZeRO3, FSDP:
			if !e.Memory.Fits {
				// the advice does not contradict the verdict above it
				add("sharding", pc.pr.T("ZeRO-3 / FSDP FULL_SHARD already shards the weights, gradients and optimizer states over these GPUs, and it still does not fit: see what to change."))
				break
			}
			add("sharding", pc.pr.T("ZeRO-3 / FSDP FULL_SHARD shards the weights too: it fits, but gathers the parameters every micro-batch — keep the micro-batch large and the GPUs on NVLink."))
		default:
			add("sharding", pc.pr.T("model states fit on every GPU: plain DDP, no ZeRO needed."))
		}
		if strings.Contains(e.Interconnect, "PCIe") && e.ScalingEfficiency < 0.85 {
			add("interconnect", pc.pr.Tf("%s limits scaling to %.0f%%: gradient accumulation (fewer all-reduces per sample) or fewer, larger GPUs help.", e.Interconnect, e.ScalingEfficiency*100))
		}
	}
	if e.HostBound {
		add("speed", pc.hostBoundAdvice())
	}
	if e.Checkpointing {
		add("checkpointing", pc.pr.Tf("gradient checkpointing is on: ~33%% more compute in exchange for storing only each layer's input (`--gradient_checkpointing`)."))
	}
	if !e.Memory.Fits {
		out = append(out, pc.oomAdvice(e)...)
	}
	if j.Model.Kind == Decoder && !j.Stack.Fused() && e.Memory.Fits {
		if lg := memItem(e.Memory, "logits + loss"); lg > 0.15*e.Memory.PerGPUGiB {
			add("memory", pc.pr.Tf("logits and the loss take %.1f GiB (vocabulary %d): a fused/chunked cross-entropy (Liger kernel, `torch.compile`) removes most of it.", lg, j.Model.Vocab))
		}
	}
	add("launch", e.Launch)
	return out
}

// hostBoundAdvice is the advice for an estimate the host's kernel issue
// paces (Estimate.HostBound).
func (pc *planContext) hostBoundAdvice() string {
	if pc.job.Workload != Inference {
		return pc.pr.T("at this micro-batch the host sets the pace, not the GPU: Python issues the forward's and backward's kernels one by one more slowly than the GPU runs them, so a faster GPU will not help. A larger micro-batch (with fewer accumulation steps) costs little extra time per step; `torch.compile` fuses the small kernels and cuts their number.")
	}
	return pc.pr.T("at this batch the host sets the pace, not the GPU: Python issues PyTorch's kernels one by one more slowly than the GPU runs them, so a faster GPU will not help. A larger batch costs little extra time; `torch.compile(mode=\"reduce-overhead\")` (CUDA graphs) or an inference engine removes most of the issue time.")
}

func batchKeepNote(pr Printer, j Job, e *Estimate) string {
	if j.GlobalBatch > 0 && e.GlobalBatch != j.GlobalBatch {
		return pr.Tf(" (%d requested; %d data-parallel replicas do not divide it evenly)", j.GlobalBatch, e.layout.dp())
	}
	if j.GlobalBatch > 0 {
		return pr.T(" This keeps the requested global batch, so convergence behaves as before.")
	}
	return ""
}

func peakOf(g GPU, p Precision) float64 { v, _ := g.Peak(p); return v }

func memItem(m Memory, name string) float64 {
	for _, it := range m.Breakdown {
		if it.Name == name {
			return it.GiB
		}
	}
	return 0
}

// oomAdvice says what to change, and by how much, when e does not fit.
func (pc *planContext) oomAdvice(e *Estimate) []Advice {
	j := pc.job
	over := e.Memory.PerGPUGiB - e.Memory.CapacityGiB
	var tips []string
	tips = append(tips, pc.pr.Tf("needs %.1f GiB per GPU, %.1f GiB over %s's %.1f GiB.", e.Memory.PerGPUGiB, over, e.GPUName, e.Memory.CapacityGiB))
	try := func(desc string, mod func(*Job), h Hardware) {
		saved := pc.job
		mod(&pc.job)
		alt := pc.configure(h)
		pc.job = saved
		if alt.Memory.Fits {
			tips = append(tips, pc.pr.Tf("%s → %.1f GiB per GPU (fits, %s)", desc, alt.Memory.PerGPUGiB, hoursText(pc.pr, alt)))
		} else {
			tips = append(tips, pc.pr.Tf("%s → %.1f GiB per GPU (still too much)", desc, alt.Memory.PerGPUGiB))
		}
	}
	if j.Workload == Inference {
		if j.Precision != INT4 && j.Precision != INT8 && j.Precision != FP8 {
			// half the bytes, before a quarter: 405B in FP8 serves on 8× H100
			p8, desc := INT8, pc.pr.T("8-bit weights (`int8`, bitsandbytes or GPTQ 8-bit)")
			if v, _ := e.hw.GPU.Peak(FP8); v > 0 {
				p8, desc = FP8, pc.pr.T("FP8 weights (`fp8`, as vLLM and TensorRT-LLM serve them)")
			}
			try(desc, func(x *Job) { x.Precision = p8 }, e.hw)
		}
		if j.Precision != INT4 {
			try(pc.pr.T("4-bit weights (`int4`, AWQ/GPTQ)"), func(x *Job) { x.Precision = INT4 }, e.hw)
		}
		if j.GlobalBatch > 1 {
			try(pc.pr.T("one sequence at a time (`batch 1`)"), func(x *Job) { x.GlobalBatch = 1 }, e.hw)
		}
	} else {
		if !e.Checkpointing {
			try(pc.pr.T("gradient checkpointing (`ckpt`)"), func(x *Job) { x.Checkpointing = true }, e.hw)
		}
		if e.MicroBatch > 1 {
			try(pc.pr.T("micro-batch 1 with accumulation"), func(x *Job) { x.MicroBatch = 1 }, e.hw)
		}
		if e.GPUs > 1 && e.layout.strategy != ZeRO3 {
			try("ZeRO-3 / FSDP", func(x *Job) { x.Strategy = ZeRO3; x.Checkpointing = true }, e.hw)
		}
		if j.Workload == Pretrain || j.Workload == Finetune {
			try(pc.pr.T("LoRA instead of full fine-tuning (`lora`)"), func(x *Job) { x.Workload = LoRA; x.LoRARank = defaultLoRARank; x.Strategy = StrategyAuto }, e.hw)
		}
		if j.Workload == Pretrain || j.Workload == Finetune || j.Workload == LoRA {
			try(pc.pr.T("QLoRA on a 4-bit base (`qlora`)"), func(x *Job) { x.Workload = QLoRA; x.LoRARank = defaultLoRARank; x.Strategy = StrategyAuto }, e.hw)
		}
		pc.smallCardTips(e, try)
	}
	// How many of this GPU would it take?
	for n := e.GPUs * 2; n <= 512; n *= 2 {
		h := e.hw
		h.Count = n
		alt := pc.configure(h)
		if alt.Memory.Fits {
			tips = append(tips, pc.pr.Tf("%d× %s with %s → %.1f GiB per GPU (%s)", n, e.GPUName, alt.Strategy, alt.Memory.PerGPUGiB, hoursText(pc.pr, alt)))
			break
		}
	}
	var out []Advice
	for _, t := range tips {
		out = append(out, Advice{Topic: "out of memory", Text: t})
	}
	return out
}

// smallCardTips are the changes that fit an adapter fine-tune of a
// decoder on one small card (a Colab T4, a 4090) without more GPUs:
// Unsloth, whose fused cross-entropy keeps a large vocabulary's logits
// out of memory, and half the sequence length.
func (pc *planContext) smallCardTips(e *Estimate, try func(string, func(*Job), Hardware)) {
	j := pc.job
	decoder := j.Model.Kind == Decoder || j.Model.Kind == MoE
	if !decoder || (j.Workload != LoRA && j.Workload != QLoRA) {
		return
	}
	if j.Stack != Unsloth {
		try(pc.pr.T("Unsloth (`unsloth`): its fused cross-entropy keeps the logits out of memory"), func(x *Job) { x.Stack = Unsloth }, e.hw)
	}
	if j.SeqLen >= 1024 {
		half := j.SeqLen / 2
		try(pc.pr.Tf("shorter sequences (`seq %s`)", strconv.Itoa(half)), func(x *Job) { x.SeqLen = half }, e.hw)
	}
}

func hoursText(pr Printer, e *Estimate) string {
	switch {
	case e.Time.PerTokenS > 0:
		if e.Throughput.TokensPerS < 10 {
			return fmt.Sprintf("%.2g tokens/s", e.Throughput.TokensPerS) // "0.31 tokens/s", not "0"
		}
		return fmt.Sprintf("%.0f tokens/s", e.Throughput.TokensPerS)
	case e.Time.TotalHours != nil:
		return "≈ " + FormatHoursIn(pr, *e.Time.TotalHours)
	case e.Throughput.SamplesPerS < 10:
		return fmt.Sprintf("%.2g samples/s", e.Throughput.SamplesPerS) // "0.42 samples/s", not "0"
	default:
		return fmt.Sprintf("%.0f samples/s", e.Throughput.SamplesPerS)
	}
}

// FormatHours writes a duration in hours the way people say it, in
// English.
func FormatHours(h float64) string { return FormatHoursIn(nil, h) }

// FormatHoursIn writes a duration in hours the way pr's reader says it
// ("5.7 h", "5.7시간"); nil means English.
func FormatHoursIn(pr Printer, h float64) string {
	pr = printerOr(pr)
	switch {
	case h < 1.0/60:
		return pr.Tf("%.0f s", h*3600)
	case h < 1:
		return pr.Tf("%.0f min", h*60)
	case h < 48:
		return pr.Tf("%.1f h", h)
	default:
		return pr.Tf("%.1f days", h/24)
	}
}

// launchLine is the command that runs the estimate: torchrun with the
// Hugging Face Trainer flags the plan implies.
//
// launchLine is long on purpose: the flags of one torchrun or Megatron line,
// each set by the plan.
func launchLine(j Job, e *Estimate) string {
	ids := e.hw.IDs
	if len(ids) == 0 {
		n := e.GPUs
		if e.Nodes > 1 {
			n = e.GPUs / e.Nodes
		}
		for i := range n {
			ids = append(ids, i)
		}
	}
	var idStr []string
	for _, id := range ids {
		idStr = append(idStr, strconv.Itoa(id))
	}
	perNode := len(ids)
	env := "CUDA_VISIBLE_DEVICES=" + strings.Join(idStr, ",")
	if j.Workload == Inference && forwardOnly(j.Model) {
		// One replica per GPU: a process per GPU, each with its own batch.
		prec := "--fp16"
		switch e.Precision {
		case FP32, TF32:
			prec = ""
		case INT8:
			prec = "--int8"
		}
		shapes := fmt.Sprintf("input:%dx3x224x224", e.MicroBatch)
		if e.InferencePath == "forward" {
			shapes = fmt.Sprintf("input_ids:%dx%d,attention_mask:%dx%d", e.MicroBatch, j.SeqLen, e.MicroBatch, j.SeqLen)
		}
		return fmt.Sprintf("%s trtexec --onnx=<model>.onnx %s --shapes=%s  # one process per GPU; or torch.compile / ONNX Runtime at this batch",
			env, prec, shapes)
	}
	if j.Workload == Inference {
		return env + " " + serveLine(j, e)
	}
	var b strings.Builder
	b.WriteString(env)
	if j.Stack == Graph {
		// one process per node drives its GPUs (tf.distribute, jax.pmap)
		fmt.Fprintf(&b, " python train.py --per_replica_batch_size %d --grad_accum_steps %d", e.MicroBatch, e.GradAccum)
		if e.Precision == FP16 || e.Precision == BF16 {
			fmt.Fprintf(&b, " --mixed_precision %s", map[Precision]string{FP16: "mixed_float16", BF16: "mixed_bfloat16"}[e.Precision])
		}
		if e.Nodes > 1 {
			fmt.Fprintf(&b, "  # on each of %d nodes (MultiWorkerMirroredStrategy / jax.distributed)", e.Nodes)
		}
		return b.String()
	}
	if e.TensorParallel > 1 || e.PipelineParallel > 1 {
		return megatronLine(&b, j, e, perNode)
	}
	if e.Nodes > 1 {
		fmt.Fprintf(&b, " torchrun --nnodes=%d --nproc_per_node=%d --rdzv_backend=c10d --rdzv_endpoint=$MASTER_ADDR:29500 train.py", e.Nodes, perNode)
	} else {
		fmt.Fprintf(&b, " torchrun --nproc_per_node=%d train.py", perNode)
	}
	fmt.Fprintf(&b, " --per_device_train_batch_size %d --gradient_accumulation_steps %d", e.MicroBatch, e.GradAccum)
	switch e.Precision {
	case BF16:
		b.WriteString(" --bf16")
	case FP16:
		b.WriteString(" --fp16")
	case TF32:
		b.WriteString(" --tf32 True")
	case FP8:
		b.WriteString(" --bf16  # + Transformer Engine fp8 recipe")
	}
	if e.Checkpointing {
		b.WriteString(" --gradient_checkpointing")
	}
	switch e.layout.strategy {
	case ZeRO1:
		if e.layout.dp() > 1 {
			b.WriteString(" --deepspeed zero1.json")
		}
	case ZeRO2:
		b.WriteString(" --deepspeed zero2.json")
	case ZeRO3:
		b.WriteString(" --deepspeed zero3.json")
	case FSDP:
		b.WriteString(` --fsdp "full_shard auto_wrap"`)
	}
	switch j.Optimizer {
	case Adam8bit:
		b.WriteString(" --optim adamw_bnb_8bit")
	case PagedAdam8bit:
		b.WriteString(" --optim paged_adamw_8bit")
	case PagedAdamW:
		b.WriteString(" --optim paged_adamw_32bit")
	}
	return b.String()
}

// megatronLine launches a tensor/pipeline-parallel layout with Megatron-LM,
// which is what such a layout needs (the HF Trainer has no TP/PP).
func megatronLine(b *strings.Builder, j Job, e *Estimate, perNode int) string {
	if e.Nodes > 1 {
		fmt.Fprintf(b, " torchrun --nnodes=%d --nproc_per_node=%d --rdzv_backend=c10d --rdzv_endpoint=$MASTER_ADDR:29500", e.Nodes, perNode)
	} else {
		fmt.Fprintf(b, " torchrun --nproc_per_node=%d", perNode)
	}
	fmt.Fprintf(b, " pretrain_gpt.py --tensor-model-parallel-size %d --pipeline-model-parallel-size %d --sequence-parallel",
		e.TensorParallel, e.PipelineParallel)
	fmt.Fprintf(b, " --micro-batch-size %d --global-batch-size %d --seq-length %d --use-flash-attn", e.MicroBatch, e.GlobalBatch, j.SeqLen)
	if e.layout.strategy == ZeRO1 {
		b.WriteString(" --use-distributed-optimizer")
	}
	switch e.Precision {
	case FP8:
		b.WriteString(" --bf16 --fp8-format hybrid")
	case FP16:
		b.WriteString(" --fp16")
	default:
		b.WriteString(" --bf16")
	}
	if e.Checkpointing {
		b.WriteString(" --recompute-granularity full --recompute-method uniform")
	}
	if e.PipelineParallel > 1 && j.Model.Layers/e.PipelineParallel >= 4 {
		fmt.Fprintf(b, " --num-layers-per-virtual-pipeline-stage %d", max(1, j.Model.Layers/e.PipelineParallel/4))
	}
	return b.String()
}

// warnings flag choices far beyond the job and numbers to distrust.
func (pc *planContext) warnings(res *Result, req Request) []string {
	var w []string
	for _, e := range res.Plans {
		if !e.Memory.Fits {
			continue
		}
		used := e.Memory.PerGPUGiB / e.Memory.CapacityGiB
		g := e.hw.GPU
		top := g.Generation == Hopper || g.Generation == Blackwell || g.MemoryGB >= 80
		short := e.Time.TotalHours != nil && *e.Time.TotalHours < 1
		if top && used < 0.3 && pc.job.Workload != Inference {
			msg := pc.pr.Tf("%d× %s is far beyond this job: it uses %.0f%% of the memory", e.GPUs, e.GPUName, used*100)
			if short {
				msg += pc.pr.T(" and finishes within the hour")
			}
			if c := res.Recommendations.Cheapest; c != nil && c.GPU != e.GPU {
				msg += pc.pr.Tf("; %d× %s does it for %s", c.GPUs, c.GPUName, costText(pc.pr, c))
			}
			w = append(w, msg+".")
		}
		if g.Confidence == "low" || g.Confidence == "medium" {
			w = append(w, pc.pr.Tf("%s specs are %s confidence in the catalogue (%s).", g.Name, confidenceText(pc.pr, g.Confidence), shortSource(g.Source)))
		}
	}
	if pc.job.Model.Origin == "size" {
		w = append(w, pc.pr.Tf("model given by size only: shape assumed %d layers × hidden %d with %d KV heads; activations, the KV cache and speed depend on the real shape.", pc.job.Model.Layers, pc.job.Model.Hidden, pc.job.Model.KVHeads))
	}
	return w
}

func costText(pr Printer, e *Estimate) string {
	if e.CostUSD != nil {
		return FormatUSDIn(pr, *e.CostUSD)
	}
	return pr.Tf("%s per 1M samples", FormatUSDIn(pr, e.Time.HoursPerMillionSamples*float64(e.GPUs)*e.PriceUSDPerGPUH))
}

// confidenceText is a catalogue confidence ("low", "medium") for pr's
// reader.
func confidenceText(pr Printer, c string) string {
	switch c {
	case "low":
		return pr.T("low")
	case "medium":
		return pr.T("medium")
	}
	return c
}

// FormatUSD writes a dollar amount with the precision it deserves: cents
// below $100, whole dollars above, and never "$0" for a job that costs
// something.
func FormatUSD(v float64) string { return FormatUSDIn(nil, v) }

// FormatUSDIn is FormatUSD for pr's reader; nil means English.
func FormatUSDIn(pr Printer, v float64) string {
	switch {
	case v <= 0:
		return "$0"
	case v < 0.01:
		return printerOr(pr).T("under $0.01")
	case v < 100:
		return fmt.Sprintf("$%.2f", v)
	default:
		return "$" + groupThousands(math.Round(v))
	}
}

func groupThousands(v float64) string {
	s := strconv.FormatFloat(v, 'f', 0, 64)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// mixedPrecisionGain says what the best mixed precision (bf16, fp16 AMP on
// GPUs without bf16) would add on each named target when the plan kept a
// measured run's precision.
func (pc *planContext) mixedPrecisionGain(res *Result) string {
	kept := pc.job.Precision
	saved := pc.job
	pc.job.Precision = ""
	defer func() { pc.job = saved }()
	var parts []string
	for _, e := range res.Plans {
		if e.Precision != kept {
			continue
		}
		alt := pc.choose(e.hw)
		if alt.Precision == kept || !alt.Memory.Fits {
			continue
		}
		cur := e.Time.StepS / float64(max(1, e.GlobalBatch))
		next := alt.Time.StepS / float64(max(1, alt.GlobalBatch))
		if next <= 0 {
			continue
		}
		p := pc.pr.Tf("%s %.1fx faster", e.GPUName, cur/next)
		if e.Time.EpochHours != nil && alt.Time.EpochHours != nil {
			p += pc.pr.Tf(" (%s/epoch instead of %s)", FormatHoursIn(pc.pr, *alt.Time.EpochHours), FormatHoursIn(pc.pr, *e.Time.EpochHours))
		} else if e.Time.TotalHours != nil && alt.Time.TotalHours != nil {
			p += pc.pr.Tf(" (%s instead of %s)", FormatHoursIn(pc.pr, *alt.Time.TotalHours), FormatHoursIn(pc.pr, *e.Time.TotalHours))
		}
		p += pc.pr.Tf(" in %s", alt.Precision)
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	return pc.pr.Tf("the comparison keeps your run's %s. Mixed precision (bf16 AMP; fp16 with loss scaling where there is no bf16) would add, on top of the hardware: %s. Check accuracy after switching.",
		kept, strings.Join(parts, "; "))
}

// sig3 writes v with three significant digits and thousands grouped.
func sig3(v float64) string {
	if v >= 1000 {
		return groupThousands(math.Round(v))
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// volta4bit reports whether a 4-bit decoder served with AWQ by vLLM or
// SGLang sits on a Volta GPU (V100, sm_70), where AWQ's kernels do not
// run: they need Turing (sm_75) or newer (vLLM's quantization hardware
// table); GPTQ's do.
func volta4bit(j Job, e *Estimate, g GPU) bool {
	if awqRuns(g) || e.Precision != INT4 || j.Quant != AWQ {
		return false
	}
	eng := servingEngine(j)
	return eng == EngineVLLM || eng == EngineSGLang
}

// awqRuns reports whether vLLM's AWQ kernels run on g: Turing (sm_75) or
// newer, so not on Volta (vLLM's quantization hardware table).
func awqRuns(g GPU) bool { return g.Generation != Volta }
