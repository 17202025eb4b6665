package planner

import "math"

const gib = 1 << 30

// Memory constants, each with its reason. See docs/planner.md.
const (
	// cudaContextGiB is the CUDA context plus loaded kernels per process:
	// Hugging Face measured 1343 MiB on a V100 (model_memory_anatomy).
	cudaContextGiB = 1.3
	// ncclBuffersGiB is what NCCL communicators reserve per GPU in a
	// multi-GPU job.
	ncclBuffersGiB = 0.5
	// usableFraction of the label capacity that CUDA can allocate (an 80 GB
	// H100 reports 79.6 GiB to nvidia-smi).
	usableFraction = 0.99
	// loraTargets: q, k, v, o, gate, up, down adapted (PEFT-style
	// "all-linear"); the planner counts their r·(d_in+d_out) parameters.
	defaultLoRARank = 16
)

// MemItem is one line of the memory breakdown.
type MemItem struct {
	Name string  `json:"name"`
	GiB  float64 `json:"gib"`
}

// Memory is the per-GPU memory estimate of one configuration.
type Memory struct {
	PerGPUGiB     float64   `json:"per_gpu_gib"`
	CapacityGiB   float64   `json:"capacity_gib"`
	Fits          bool      `json:"fits"`
	HeadroomGiB   float64   `json:"headroom_gib"`
	Breakdown     []MemItem `json:"breakdown"`
	MaxMicroBatch int       `json:"max_micro_batch"`
	// PagedGiB is a paged optimizer's states per GPU: in unified memory,
	// outside PerGPUGiB (see paged.go).
	PagedGiB float64 `json:"paged_gib,omitempty"`
	// EngineCapGiB is what a batched serving engine lets itself use of
	// CapacityGiB (vLLM's gpu_memory_utilization); 0 when no such cap.
	EngineCapGiB float64 `json:"engine_cap_gib,omitempty"`
}

// OverEngineCap reports a plan that fits the card but not the share of it
// a serving engine takes.
func (m Memory) OverEngineCap() bool {
	return !m.Fits && m.EngineCapGiB > 0 && m.PerGPUGiB <= m.CapacityGiB
}

// layout is how one configuration spreads the job over the GPUs.
type layout struct {
	gpu       GPU
	n         int // total GPUs
	tp, pp    int // tensor / pipeline parallel degrees (1 = none)
	precision Precision
	strategy  Strategy
	micro     int
	ckpt      bool
	selective bool // ckpt keeps every other GEMM's output and SDPA's (Job.SelectiveRecompute)
	attention Attention
	cp        int // context-parallel degree (0/1: off)
}

func (l layout) dp() int { return max(1, l.n/(l.tp*l.pp*l.cpDeg())) }

// shardDP is how many GPUs share one model-parallel slice of the state:
// context-parallel ranks hold the same parameters, so ZeRO/FSDP and the
// gradient all-reduce span data × context parallel.
func (l layout) shardDP() int { return max(1, l.n/(l.tp*l.pp)) }

func (l layout) cpDeg() int { return max(1, l.cp) }

// ep is the expert-parallel degree: MoE experts spread over the
// data-parallel GPUs (Megatron/DeepSpeed-MoE); 1 for dense models.
func (l layout) ep(m Model) int {
	if m.Kind != MoE || m.Experts == 0 {
		return 1
	}
	return max(1, min(l.dp(), m.Experts))
}

// moeSplit returns the parameters every GPU of a replica holds (attention,
// shared experts, embeddings) and one routed expert's size, from the
// total, active, expert count and top-k: total = dense + E·e,
// active = dense + k·e.
func moeSplit(m Model) (dense, expert float64) {
	if m.Kind != MoE || m.Experts <= m.TopK {
		return m.Params(), 0
	}
	expert = (m.Params() - m.ActiveParams()) / float64(m.Experts-m.TopK)
	return m.ActiveParams() - float64(m.TopK)*expert, expert
}

// denseHeld is the part of a model every GPU of a replica holds whole:
// all of a dense model; a MoE's attention, shared experts and embeddings.
func denseHeld(m Model) float64 {
	if m.Kind != MoE {
		return m.Params()
	}
	dense, _ := moeSplit(m)
	return dense
}

// heldParams is the parameter count whose states one model-parallel
// group holds before ZeRO sharding: all of them for dense models; for MoE
// the dense part plus this GPU's share of the experts.
func heldParams(m Model, l layout) float64 {
	if m.Kind != MoE {
		return m.Params()
	}
	dense, expert := moeSplit(m)
	return dense + float64(m.Experts)*expert/float64(l.ep(m))
}

// stateBytes returns per-parameter bytes of weights, gradients and
// optimizer (including the fp32 master copy in mixed precision) before
// sharding, for the trainable and the frozen parameters.
type stateBytes struct {
	weights, grads, optim float64
}

func trainingStateBytes(p Precision, opt Optimizer) stateBytes {
	var optim float64
	switch opt.base() {
	case Adam8bit:
		optim = 2
	case SGD, Lion:
		optim = 4
	default:
		optim = 8
	}
	switch p {
	case FP32, TF32:
		return stateBytes{weights: 4, grads: 4, optim: optim}
	case FP8:
		// Transformer Engine: bf16 weights + fp8 weight copies, fp32 grads,
		// fp32 master + optimizer.
		return stateBytes{weights: 3, grads: 4, optim: optim + 4}
	default:
		// Mixed precision: 16-bit working weights, fp32 grads, fp32 master
		// + optimizer states: 2 + 4 + 12 = 18 B/param for AdamW (Megatron,
		// HF model_memory_anatomy).
		return stateBytes{weights: 2, grads: 4, optim: optim + 4}
	}
}

// activationBytes is the element size of stored activations.
func activationBytes(p Precision) float64 {
	if p == FP32 || p == TF32 {
		return 4
	}
	return 2
}

// loraParams counts adapter parameters for rank r on all linear layers.
func loraParams(m Model, r int) float64 {
	if r <= 0 {
		r = defaultLoRARank
	}
	in, out := loraDims(m)
	return float64(r) * (in + out) * float64(m.Layers)
}

// loraDims sums the input and output widths of the linear layers one
// transformer layer adapts (q, k, v, o and the MLP; attention only for a
// MoE, whose experts keep no adapters).
func loraDims(m Model) (in, out float64) {
	h := float64(m.Hidden)
	ad := float64(m.Heads * m.headDim())
	kv := float64(m.kvHeads() * m.headDim())
	f := float64(m.FFN)
	in, out = 3*h+ad, ad+2*kv+h // q, k, v read h; o reads ad
	switch {
	case m.Kind == MoE:
	case m.Gated:
		in, out = in+2*h+f, out+2*f+h // gate, up, down
	default:
		in, out = in+h+f, out+f+h // up, down
	}
	return in, out
}

// largestLayerParams approximates the biggest unit FSDP/ZeRO-3 gathers at
// once: one transformer block or the embedding, whichever is larger.
func largestLayerParams(m Model) float64 {
	block, emb := blockAndEmbedding(m)
	return math.Max(block, emb)
}

// blockAndEmbedding returns the parameters of one transformer block and of
// one embedding table (V·h).
func blockAndEmbedding(m Model) (block, emb float64) {
	if !m.IsTransformer() || m.Layers == 0 {
		return m.Params() / 10, 0
	}
	emb = float64(m.Vocab) * float64(m.Hidden)
	tables := emb
	if !m.Tied {
		tables *= 2
	}
	return math.Max(0, m.Params()-tables) / float64(m.Layers), emb
}

// largestMatrixParams is the biggest single weight matrix of a block: the
// unit a QLoRA kernel dequantises to bf16 at a time.
func largestMatrixParams(m Model) float64 {
	h := float64(m.Hidden)
	f := float64(m.FFN)
	if f == 0 {
		f = 4 * h
	}
	return math.Max(h*f, h*float64(m.Heads*m.headDim()))
}

// nf4BytesPerParam: NF4 with double quantisation (bitsandbytes, torchao):
// 4 bits plus 8-bit block scales per 64 and their fp32 scales per 256
// blocks, ~4.127 bits per weight.
const nf4BytesPerParam = 4.127 / 8

// frozenBaseBytes is what the frozen base of a LoRA/QLoRA job weighs in
// the format it is stored (and, under FSDP/ZeRO-3, gathered) in, for p of
// its parameters: 16-bit (fp32 in an fp32 run) for LoRA; for QLoRA NF4 on
// the linear weights while embeddings and norms stay 16-bit — PEFT's
// prepare_model_for_kbit_training casts every non-quantised parameter
// (embeddings, LM head, norms) to fp32, tuned stacks (torchtune) keep them
// in bf16.
func frozenBaseBytes(j Job, prec Precision, p float64) float64 {
	if !j.quantBase() {
		return p * activationBytes(prec)
	}
	m := j.Model
	emb := float64(m.Vocab) * float64(m.Hidden)
	if !m.Tied {
		emb *= 2
	}
	embBytes := 2.0
	if !j.Stack.Fused() {
		embBytes = 4
	}
	return (p-emb)*j.baseBytesPerParam() + emb*embBytes
}

// adapterStateBytes is what one trainable LoRA parameter holds: weight,
// gradient and two AdamW moments. Tuned stacks (torchtune, llm-foundry)
// keep them in bf16 like the rest of the model (8 bytes); PEFT with
// mixed precision keeps adapters and their states in fp32 (16 bytes).
func adapterStateBytes(stack Stack) float64 {
	if stack.Fused() {
		return 8
	}
	return 16
}

// activationPerSample returns stored activation bytes for one sample (one
// sequence of seq tokens) on one GPU, and the extra transient bytes needed
// during recomputation of one layer.
func activationPerSample(prm *Params, m Model, w Workload, l layout, seq int, stack Stack) (stored, transient, logits float64) {
	ab := activationBytes(l.precision)
	// Eager autocast keeps part of what it stores in fp32 (the residual
	// stream, norms, softmax): the share the time model fits as
	// EagerAMPBytes applies to the stored bytes as well.
	fp32Share := 0.0
	if ab == 2 && !stack.Fused() {
		fp32Share = (prm.EagerAMPBytes - 2) / 2
	}
	if m.Kind == VisionConv {
		// ResNet-50 at 224²: ~23M stored values per image (torchvision
		// profile), 2.07 for each of the 11.1M activations timm's card
		// counts (the convolutions' outputs; batch norm and the residual
		// adds store as much again). A CNN whose card gives its count
		// scales by it; another, by parameter count.
		perImage := 23e6 * ab * (m.Params() / 25.6e6)
		if m.ActivationsM > 0 {
			perImage = 23.0 / 11.1 * m.ActivationsM * 1e6 * ab
		}
		if l.ckpt {
			return perImage * 0.35, 0, 0
		}
		return perImage, 0, 0
	}
	s := float64(seq)
	h := float64(m.Hidden)
	a := float64(m.Heads)
	L := float64(m.Layers)
	f := float64(m.FFN)
	if f == 0 {
		f = 4 * h
	}
	mlp := 4 * f / h // Megatron: (18 + 4·f/h)·sbh per layer for 16-bit
	if m.Gated {
		mlp *= 1.5
	}
	perLayer := (18 + mlp + fp32Share*(16+mlp)) * s * h // bytes, 16-bit, FlashAttention
	if ab == 4 {
		perLayer = (2*(18+mlp) - 2) * s * h // fp32: every stored tensor doubles but the 1-byte dropout masks
	}
	if l.attention == Eager {
		k := 5.0 + 4*fp32Share // softmax output (2 B) + dropout mask (1 B) + scores (2 B) per head per position pair
		if ab == 4 {
			k = 9
		}
		perLayer += k * a * s * s
	}
	// Sequence parallel with tensor parallel (Megatron) and context
	// parallel both split the sequence's activations.
	tp := float64(l.tp * l.cpDeg())
	perLayer /= tp
	layers := L
	if l.ckpt && l.selective {
		// torchtitan's selective op policy: the layer's input, SDPA's
		// output and every other GEMM's output are kept (q, k, v, o, the
		// MLP's up/gate and down: 3h + 2·kv + F values a token); what
		// the rest recomputes is rebuilt one layer at a time
		kv := float64(m.KVHeads * m.headDim())
		if kv == 0 {
			kv = h
		}
		mm := 3*h + 2*kv + f
		if m.Gated {
			mm += f
		}
		keep := math.Min(perLayer, ab*(1+fp32Share)*s*(2*h+mm/2)/tp)
		stored = layers * keep
		transient = perLayer - keep
	} else if l.ckpt {
		// Only each layer's input is kept; one layer is rebuilt at a time.
		stored = layers * ab * (1 + fp32Share) * s * h / tp
		transient = perLayer
	} else {
		stored = layers * perLayer
	}
	// Logits: decoder LMs and MLM pre-training compute V scores per token;
	// classification fine-tuning of encoders does not.
	if m.Vocab > 0 && !(m.Kind == Encoder && w != Pretrain) && m.Kind != VisionViT {
		logits = s * float64(m.Vocab) * lossBytesPerScore(m, ab, stack) / tp
	}
	return stored, transient, logits
}

// lossBytesPerScore is what the loss keeps alive per logit (vocabulary
// score) of one token at the start of backward, by stack; ab is the
// activation bytes of the run's precision.
func lossBytesPerScore(m Model, ab float64, stack Stack) float64 {
	switch stack {
	case Tuned:
		// chunked cross-entropy (torchtune, llm-foundry): the 16-bit
		// logits of every chunk stay for backward and one chunk at a time
		// is upcast to fp32 (8 chunks: 2 + 4/8 bytes per score)
		if m.Kind == Encoder {
			return 2.5 * 0.15 // MLM head on masked positions only
		}
		return 2.5
	case Unsloth:
		// Cut Cross-Entropy computes the scores block by block in on-chip
		// memory: what remains per token is the final hidden state it
		// saves for backward, that state's gradient (16-bit each) and one
		// fp32 log-sum-exp
		return (4*float64(m.Hidden) + 4) / float64(m.Vocab)
	}
	// Eager cross-entropy (Hugging Face): the fp32 log-softmax kept for
	// backward, the loss's gradient and the log-softmax's input gradient
	// are alive together in backward, 4+4+4 bytes per score. The 16-bit
	// logits and their fp32 upcast are gone by then: the trainer keeps
	// only the loss, and log-softmax saves its output, not its input.
	return 12
}

// trainingMemory estimates per-GPU memory for training with layout l; the
// breakdown is filled only with detail (the search probes thousands of
// layouts and keeps a few).
// jobStateBytes is trainingStateBytes with the job's pure-bf16 choice:
// bf16 weights and gradients, optimizer moments in bf16, no fp32 master.
func jobStateBytes(j Job, p Precision) stateBytes {
	sb := trainingStateBytes(p, j.Optimizer)
	if j.PureBF16 && p == BF16 {
		optim := 4.0 // AdamW m and v in bf16
		switch j.Optimizer.base() {
		case Adam8bit:
			optim = 2
		case SGD, Lion:
			optim = 2
		}
		if j.Optimizer == PagedAdamW {
			// bitsandbytes' 32-bit optimizers allocate fp32 moments
			// whatever the parameters' dtype (Optimizer2State.init_state)
			optim = 8
		}
		return stateBytes{weights: 2, grads: 2, optim: optim}
	}
	return sb
}

// trainingMemory is long on purpose: it is the memory formula term by term
// (weights, gradients, optimizer, activations, logits, workspace), each
// beside its source.
func trainingMemory(prm *Params, j Job, l layout, detail bool) Memory {
	m := j.Model
	p := heldParams(m, l)
	sb := jobStateBytes(j, l.precision)
	dp := float64(l.shardDP())
	mp := float64(l.tp * l.pp)
	// ZeRO/FSDP shard a parameter over the GPUs that hold a copy of it: the
	// whole data-parallel group for the dense part, but only dp/ep GPUs for
	// a routed expert, which expert parallelism already placed on one GPU
	// of every ep (Megatron's expert data-parallel group).
	pe := p - denseHeld(m)
	pd := p - pe
	edp := math.Max(1, dp/float64(l.ep(m)))
	shard := func(bytes float64) float64 { return (pd*bytes/dp + pe*bytes/edp) / mp }

	var weights, grads, optim, adapters, workspace float64
	trainable := p
	switch j.Workload {
	case LoRA, QLoRA:
		trainable = loraParams(m, j.LoRARank)
		base := frozenBaseBytes(j, l.precision, p)
		if j.quantBase() {
			// The kernel dequantises one matrix at a time to bf16 and
			// frees it after the matmul.
			workspace = largestMatrixParams(m) * 2 / float64(l.tp)
		}
		weights = base / mp
		adapters = trainable * adapterStateBytes(j.Stack) / mp
		switch l.strategy {
		case ZeRO3, FSDP:
			// FSDP wraps the adapters with their layers: sharded like the base
			weights = shard(base / p)
			adapters /= dp
		case ZeRO2:
			adapters = trainable * adapterStateBytes(j.Stack) / mp * (0.25 + 0.75/dp)
		case ZeRO1:
			adapters = trainable * adapterStateBytes(j.Stack) / mp * (0.5 + 0.5/dp)
		}
	default:
		weights = p * sb.weights / mp
		grads = p * sb.grads / mp
		optim = p * sb.optim / mp
		switch l.strategy {
		case ZeRO1:
			optim = shard(sb.optim)
		case ZeRO2:
			optim, grads = shard(sb.optim), shard(sb.grads)
		case ZeRO3, FSDP:
			optim, grads, weights = shard(sb.optim), shard(sb.grads), shard(sb.weights)
		}
	}
	if j.OptimizerInBackward && grads > 0 {
		// gradients live only until their layer's step: one layer's worth
		grads = math.Min(grads, largestLayerParams(m)*sb.grads/mp)
	}
	switch j.Offload {
	case OffloadOptimizer:
		optim = 0
		if sb.weights < 4 && sb.grads > 2 {
			// ZeRO-Offload and FSDP optimizer offload reduce the 16-bit
			// gradients and stream them to the host in buckets, where the
			// CPU upcasts them for its step: no fp32 gradient copy stays
			// on the GPU, only the 16-bit gradients the backward writes.
			grads *= 2 / sb.grads
		}
		if l.strategy == ZeRO2 || l.strategy == ZeRO3 {
			// DeepSpeed copies each reduced bucket to the host as the
			// backward fills it: two buckets of reduce_bucket_size (5e8
			// elements, its default, double-buffered with overlap_comm)
			// stay on the GPU, not the model's gradients
			grads = math.Min(grads, 2*5e8*2)
		}
	case OffloadFull:
		weights, grads, optim = 0, 0, 0
		adapters = 0
	}
	var paged float64
	if j.Optimizer.Paged() && optim > 0 {
		// unified memory, outside the peak: only a mixed-precision master
		// copy stays an ordinary allocation
		paged = optim * momentBytes(l.precision, sb) / sb.optim
		optim -= paged
	}
	if ((l.strategy == ZeRO3 || l.strategy == FSDP) && l.shardDP() > 1) || j.Offload == OffloadFull {
		// Gathered working set: the current unit and the prefetched next
		// one, in the format they are stored in (NF4 blocks stay 4-bit
		// until the kernel dequantises them; embeddings are 16-bit).
		block, emb := blockAndEmbedding(m)
		blockBytes := block * sb.weights
		switch {
		case j.quantBase():
			blockBytes = block * j.baseBytesPerParam()
		case j.Workload == LoRA:
			blockBytes = block * 2
		}
		workspace += 2 * math.Max(blockBytes, emb*2) / mp
	}

	stored, transient, logits := activationPerSample(prm, m, j.Workload, l, j.SeqLen, j.Stack)
	b := float64(l.micro)
	if j.ActivationOffload && m.Layers > 0 {
		// What backward needs waits in host memory: on the GPU only the
		// layer being written out (forward) or read back (backward) and
		// the one prefetched behind it.
		stored = math.Min(stored, 2*stored/float64(m.Layers))
	}
	acts := stored * b
	if l.pp > 1 {
		acts = acts / float64(l.pp) * float64(l.pp) // first stage: pp micro-batches of L/pp layers
	}
	trans := transient * b
	logit := logits * b

	var reference float64
	if j.Preference && j.Workload != LoRA && j.Workload != QLoRA {
		// DPO's reference model: the starting weights, frozen, in the
		// compute precision, sharded as the trained ones are under
		// ZeRO-3/FSDP (TRL prepares it with the same DeepSpeed stage)
		rb := activationBytes(l.precision)
		reference = p * rb / mp
		if l.strategy == ZeRO3 || l.strategy == FSDP {
			reference = shard(rb)
		}
	}
	parts := []MemItem{
		{"weights", weights},
		{"reference model (frozen)", reference},
		{"LoRA adapters + their grads/optimizer", adapters},
		{"gradients", grads},
		{"optimizer states", optim},
		{"gather/dequant workspace", workspace},
		{"activations", acts + trans},
		{"logits + loss", logit},
	}
	sum := 0.0
	for _, it := range parts {
		sum += it.GiB / gib
	}
	// The loss's buffers are freed once the head's backward has run,
	// before backward reaches the last layer and rebuilds it: the rebuilt
	// layer and the logits are never alive together.
	notTogether := math.Min(trans, logit)
	if gradsFreedBetweenSteps(l) && grads > 0 {
		// zero_grad(set_to_none=True), PyTorch 2's default, frees the
		// gradients after each step: the next backward allocates them
		// layer by layer as it frees the activations, so the peak is the
		// larger of the two, not their sum (torchtune's optimizer-in-
		// backward row and its plain one differ by the gradients alone).
		notTogether += math.Min(grads, acts+math.Max(trans, logit))
	}
	sum -= notTogether / gib
	// Fragmentation and temporaries come from what is allocated and freed
	// step after step; weights are allocated once at load, and the
	// optimizer's states once at its first step (ZeRO and FSDP keep them
	// in flat buffers), so neither churns.
	headroom := (sum - weights/gib - reference/gib - optim/gib) * prm.AllocHeadroom
	fixedGiB := cudaContextGiB
	if l.n > 1 {
		fixedGiB += ncclBuffersGiB
	}
	capGiB := l.gpu.MemoryGB * usableFraction
	total := sum + headroom + fixedGiB
	mem := Memory{PerGPUGiB: total, CapacityGiB: capGiB, Fits: total <= capGiB, HeadroomGiB: capGiB - total, PagedGiB: paged / gib}
	if detail {
		for _, it := range parts {
			if it.GiB > 0 || it.Name == "weights" || it.Name == "activations" {
				mem.Breakdown = append(mem.Breakdown, MemItem{it.Name, it.GiB / gib})
			}
		}
		if notTogether > 0 {
			// the parts above that are never alive at the same moment:
			// the listed items then add up to the total
			mem.Breakdown = append(mem.Breakdown, MemItem{notAtPeakName, -notTogether / gib})
		}
		mem.Breakdown = append(mem.Breakdown, MemItem{"allocator headroom", headroom}, MemItem{"CUDA context", cudaContextGiB})
		if l.n > 1 {
			mem.Breakdown = append(mem.Breakdown, MemItem{"NCCL buffers", ncclBuffersGiB})
		}
	}

	// Everything but the per-sample terms is fixed; solve for the micro-batch.
	perSample := (stored + math.Max(transient, logits)) * (1 + prm.AllocHeadroom) / gib
	fixed := mem.PerGPUGiB - perSample*b
	if perSample > 0 {
		mem.MaxMicroBatch = int(math.Floor((mem.CapacityGiB - fixed) / perSample))
		mem.MaxMicroBatch = max(mem.MaxMicroBatch, 0)
	}
	return mem
}

// gradsFreedBetweenSteps reports whether the gradients are ordinary
// tensors that zero_grad frees (one GPU, or FSDP's sharded gradients)
// rather than persistent buffers: DDP's buckets, ZeRO's partitions and
// Megatron's contiguous gradient buffers stay allocated.
func gradsFreedBetweenSteps(l layout) bool {
	return l.n == 1 || l.strategy == FSDP
}

// notAtPeakName is the breakdown line that takes off what the parts above
// it count twice: gradients freed between steps and the rebuilt layer are
// never alive together with the activations and the logits.
const notAtPeakName = "not alive at the peak (freed before)"

func finishMemory(items []MemItem, g GPU) Memory {
	total := 0.0
	for _, it := range items {
		total += it.GiB
	}
	capGiB := g.MemoryGB * usableFraction
	return Memory{
		PerGPUGiB:   total,
		CapacityGiB: capGiB,
		Fits:        total <= capGiB,
		HeadroomGiB: capGiB - total,
		Breakdown:   items,
	}
}

// weightBytesInference is bytes per parameter for serving in dtype p.
func weightBytesInference(p Precision) float64 {
	switch p {
	case FP32, TF32:
		return 4
	case FP8, INT8:
		return 1.03 // + per-channel scales
	case INT4:
		return 0.53 // 4-bit + group-128 scales and zeros (GPTQ/AWQ)
	default:
		return 2
	}
}

// kvBytesPerToken is the KV cache per token of context, GQA-aware: K and V
// for every layer and KV head, in 16-bit.
func kvBytesPerToken(m Model) float64 {
	if !m.IsTransformer() {
		return 0
	}
	if m.ID == "deepseek-v3" || m.ID == "deepseek-r1" {
		// MLA caches the compressed latent: (kv_lora_rank 512 + rope 64) per layer.
		return float64(m.Layers) * (512 + 64) * 2
	}
	return 2 * float64(m.Layers) * float64(m.kvHeads()) * float64(m.headDim()) * 2
}

// inferenceMemory: weights split over tp GPUs (tensor parallel), KV cache
// for batch × context, a prefill workspace, context.
func inferenceMemory(prm *Params, j Job, l layout) Memory {
	m := j.Model
	if forwardOnly(m) {
		return forwardMemory(j, l)
	}
	tp := float64(l.n)
	weights := m.Params() * weightBytesInference(l.precision) / tp
	kvTok := kvBytesPerToken(m) / tp
	ctx := float64(j.SeqLen)
	b := float64(l.micro)
	kv := kvTok * m.attnSpan(ctx) * ctx * b // local layers cache at most their window
	work := 0.0
	if m.IsTransformer() {
		chunk := math.Min(ctx*b, 8192) // prefill is chunked (vLLM default 8192 tokens)
		work = chunk * (4*float64(m.Hidden) + 2*float64(m.FFN)) * 2 / tp
		work += b * float64(m.Vocab) * 4 // last-token logits in fp32
	}
	items := []MemItem{
		{"weights", weights / gib},
		{"KV cache", kv / gib},
		{"activations workspace", work / gib},
	}
	sum := (weights + kv + work) / gib
	items = append(items, MemItem{"allocator headroom", sum * 0.05})
	items = append(items, MemItem{"CUDA context", cudaContextGiB})
	if l.n > 1 {
		items = append(items, MemItem{"NCCL buffers", ncclBuffersGiB})
	}
	mem := finishMemory(items, l.gpu)
	perSeq := kvTok * ctx * 1.05 / gib
	if perSeq > 0 {
		fixed := mem.PerGPUGiB - perSeq*b
		mem.MaxMicroBatch = max(0, int(math.Floor((mem.CapacityGiB-fixed)/perSeq)))
	}
	return mem
}

// forwardMemory is one replica of a forward-only model (encoder, ViT, CNN)
// per GPU: all its weights, no KV cache, and the live activations of one
// layer for the batch (inference frees each layer's input once the next
// has run).
func forwardMemory(j Job, l layout) Memory {
	m := j.Model
	weights := m.Params() * weightBytesInference(l.precision)
	ab := activationBytes(l.precision)
	b := float64(l.micro)
	var perSample float64
	if !m.IsTransformer() {
		// ResNet-50's largest residual block keeps ~2.5M values live per
		// 224² image (56×56×256 input and output, two 56×56×64
		// intermediates, the 112×112×64 stem before it): ~1/9 of the 23M
		// values training stores, scaled by parameter count like training.
		perSample = 23e6 / 9 * ab * (m.Params() / 25.6e6)
	} else {
		s := float64(j.SeqLen)
		h := float64(m.Hidden)
		f := float64(m.FFN)
		if f == 0 {
			f = 4 * h
		}
		perSample = s * (4*h + 2*f) * ab
		if l.attention == Eager {
			perSample += float64(m.Heads) * s * s * ab * 2 // scores and softmax
		}
	}
	act := perSample * b
	items := []MemItem{
		{"weights", weights / gib},
		{"activations workspace", act / gib},
	}
	sum := (weights + act) / gib
	items = append(items, MemItem{"allocator headroom", sum * 0.05}, MemItem{"CUDA context", cudaContextGiB})
	mem := finishMemory(items, l.gpu)
	if per := perSample * 1.05 / gib; per > 0 {
		fixed := mem.PerGPUGiB - per*b
		mem.MaxMicroBatch = max(0, int(math.Floor((mem.CapacityGiB-fixed)/per)))
	}
	return mem
}
