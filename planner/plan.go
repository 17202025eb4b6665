package planner

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Throughput of one configuration.
type Throughput struct {
	SamplesPerS      float64 `json:"samples_per_s"`
	TokensPerS       float64 `json:"tokens_per_s"`
	TokensPerSPerGPU float64 `json:"tokens_per_s_per_gpu"`
}

// Time of one configuration. TotalHours is nil when the request gave no
// amount of work; HoursPerMillionSamples then carries the answer.
type Time struct {
	StepS                  float64  `json:"step_s"`
	StepsPerEpoch          float64  `json:"steps_per_epoch,omitempty"`
	EpochHours             *float64 `json:"epoch_hours"`
	TotalHours             *float64 `json:"total_hours"`
	HoursPerMillionSamples float64  `json:"hours_per_million_samples"`
	// Inference only: time to first token and per generated token
	// (decoders), or the latency of one batch (forward-only models).
	PrefillS      float64 `json:"prefill_s,omitempty"`
	PerTokenS     float64 `json:"per_token_s,omitempty"`
	BatchLatencyS float64 `json:"batch_latency_s,omitempty"`
}

// Estimate is the plan for one hardware configuration.
type Estimate struct {
	GPU               string     `json:"gpu"`
	GPUName           string     `json:"gpu_name"`
	GPUs              int        `json:"gpus"`
	Nodes             int        `json:"nodes"`
	Server            string     `json:"server,omitempty"`
	Interconnect      string     `json:"interconnect"`
	Precision         Precision  `json:"precision"`
	Strategy          string     `json:"strategy"`
	TensorParallel    int        `json:"tensor_parallel"`
	PipelineParallel  int        `json:"pipeline_parallel"`
	Checkpointing     bool       `json:"checkpointing"`
	MicroBatch        int        `json:"micro_batch"`
	GradAccum         int        `json:"grad_accum"`
	GlobalBatch       int        `json:"global_batch"`
	Memory            Memory     `json:"memory"`
	Throughput        Throughput `json:"throughput"`
	Time              Time       `json:"time"`
	GPUHours          *float64   `json:"gpu_hours"`
	CostUSD           *float64   `json:"cost_usd"`
	PriceUSDPerGPUH   float64    `json:"price_usd_per_gpu_hour"`
	MFU               float64    `json:"mfu"`
	HFU               float64    `json:"hfu"`
	ModelTFLOPsPerGPU float64    `json:"model_tflops_per_gpu"`
	HWTFLOPsPerGPU    float64    `json:"hardware_tflops_per_gpu"`
	ScalingEfficiency float64    `json:"scaling_efficiency"`
	Goodput           float64    `json:"goodput"`
	Notes             []string   `json:"notes"`
	Assumptions       []string   `json:"assumptions"`
	Launch            string     `json:"launch"`
	// InferencePath is how an inference estimate was computed: "decode"
	// (prefill + token-by-token generation, tokens/s), "forward" (one
	// compute-bound forward pass per sample: encoders, samples/s) or
	// "images" (CNN/ViT, images/s). Empty for training.
	InferencePath string `json:"inference_path,omitempty"`
	// SpeedUp is this plan's speed relative to Result.SpeedUpBase (time
	// per sample there ÷ time per sample here); 0 when not comparing.
	SpeedUp float64 `json:"speed_up,omitempty"`

	hw     Hardware
	layout layout
}

// Fits reports whether the configuration fits in GPU memory.
func (e *Estimate) Fits() bool { return e.Memory.Fits }

// Hardware returns the hardware the estimate is for.
func (e *Estimate) Hardware() Hardware { return e.hw }

// sortKeyHours is the total (or per-million-samples) time used to rank.
func (e *Estimate) sortKeyHours() float64 {
	switch {
	case e.Time.PerTokenS > 0 && e.Throughput.TokensPerS > 0:
		return 1e6 / e.Throughput.TokensPerS / 3600 // serving: hours per million generated tokens
	case e.Time.TotalHours != nil:
		return *e.Time.TotalHours
	default:
		return e.Time.HoursPerMillionSamples
	}
}

func (e *Estimate) sortKeyCost() float64 {
	return e.sortKeyHours() * float64(e.GPUs) * e.PriceUSDPerGPUH
}

// ModelInfo describes the resolved model.
type ModelInfo struct {
	ID           string  `json:"id"`
	Params       float64 `json:"params"`
	ActiveParams float64 `json:"active_params"`
	Layers       int     `json:"layers,omitempty"`
	Hidden       int     `json:"hidden,omitempty"`
	Heads        int     `json:"heads,omitempty"`
	KVHeads      int     `json:"kv_heads,omitempty"`
	Vocab        int     `json:"vocab,omitempty"`
	Origin       string  `json:"origin"`
	Source       string  `json:"source"`
}

// JobInfo is the job after defaults were filled in.
type JobInfo struct {
	Workload      Workload  `json:"workload"`
	SeqLen        int       `json:"seq_len"`
	GlobalBatch   int       `json:"global_batch"`
	Precision     Precision `json:"precision_requested,omitempty"`
	Stack         Stack     `json:"stack"`
	Optimizer     Optimizer `json:"optimizer,omitempty"`
	TotalSamples  float64   `json:"total_samples,omitempty"`
	TotalTokens   float64   `json:"total_tokens,omitempty"`
	Epochs        float64   `json:"epochs,omitempty"`
	GenTokens     int       `json:"gen_tokens,omitempty"` // inference: generated tokens per sequence
	EpochSamples  float64   `json:"epoch_samples,omitempty"`
	AmountKnown   bool      `json:"amount_known"`
	Amount        string    `json:"amount"`
	GlobalBatchBy string    `json:"-"`
}

// Recommendations are the three picks of the search.
type Recommendations struct {
	Fastest    *Estimate `json:"fastest"`
	Cheapest   *Estimate `json:"cheapest"`
	Balanced   *Estimate `json:"balanced"`
	Considered int       `json:"considered"`
	Feasible   int       `json:"feasible"`
	Notes      []string  `json:"notes,omitempty"`
}

// BaselineFit reports how a measured run rebased the estimates.
type BaselineFit struct {
	Measured     float64      `json:"measured"`
	Unit         BaselineUnit `json:"unit"`
	Hardware     string       `json:"hardware"`
	Predicted    float64      `json:"predicted"`
	JobFactor    float64      `json:"job_factor"`
	MeasuredMFU  float64      `json:"measured_mfu"`
	Explanation  string       `json:"explanation"`
	BaselinePlan *Estimate    `json:"baseline_plan"`
}

// Advice is one piece of how-to.
type Advice struct {
	Topic string `json:"topic"`
	Text  string `json:"text"`
}

// Result is a complete plan.
type Result struct {
	Model           ModelInfo       `json:"model"`
	Job             JobInfo         `json:"job"`
	Compare         bool            `json:"compare"`
	Plans           []*Estimate     `json:"plans"`
	Recommendations Recommendations `json:"recommendations"`
	Baseline        *BaselineFit    `json:"baseline,omitempty"`
	Advice          []Advice        `json:"advice"`
	Assumptions     []string        `json:"assumptions"`
	Warnings        []string        `json:"warnings"`
	// SpeedUpBase labels what every plan's SpeedUp is relative to: the
	// measured run when there is one, else the last column of a
	// comparison. Empty when there is nothing to compare.
	SpeedUpBase string `json:"speed_up_base,omitempty"`
}

// Error is a request the planner cannot answer as asked; the message says
// what to change.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// planContext carries the resolved job through one Plan call.
type planContext struct {
	cat       *Catalog
	job       Job
	info      JobInfo
	jobFactor float64 // from a baseline: measured / modelled speed
	// stepsPending: a step count waits for the default global batch.
	stepsPending bool
	prm          *Params // the model's fitted constants
	// keptPrecision: the job's precision came from the measured run.
	keptPrecision bool
	assumptions   []string
}

// Plan answers a request: the named targets, a recommendation search,
// advice and the assumptions behind every number.
func (c *Catalog) Plan(req Request) (*Result, error) {
	pc := &planContext{cat: c, job: req.Job, jobFactor: 1, prm: c.params()}
	if err := pc.resolveJob(); err != nil {
		return nil, err
	}
	res := &Result{Model: modelInfo(pc.job.Model), Compare: req.Compare}
	for _, h := range req.Targets {
		if h.Count < 1 || h.Count > MaxGPUs {
			return nil, errorf("GPU count %d is out of range: a plan takes 1 to %d GPUs", h.Count, MaxGPUs)
		}
		if cp := pc.job.ContextParallel; cp > 1 && h.Count%cp != 0 {
			return nil, errorf("context parallel %d needs a GPU count it divides; %d GPUs do not", cp, h.Count)
		}
	}
	if err := pc.describeTechniques(); err != nil {
		return nil, err
	}
	if b := req.Baseline; b != nil && b.Precision != "" && pc.job.Precision == "" && pc.job.Workload != Inference {
		// A measured run's precision is part of the job: comparing it with
		// bf16 elsewhere would mix a precision change into the hardware
		// change. Keep it; the advice says what bf16 would add.
		pc.job.Precision = b.Precision
		pc.info.Precision = b.Precision
		pc.keptPrecision = true
		pc.assume("precision: your measured run's %s is kept on every target, so the comparison shows the hardware alone (the advice says what bf16 would add)", b.Precision)
	}
	pc.defaultGlobalBatch(req)
	if req.Baseline != nil {
		fit, err := pc.rebase(*req.Baseline)
		if err != nil {
			return nil, err
		}
		res.Baseline = fit
	}
	for _, h := range req.Targets {
		res.Plans = append(res.Plans, pc.configure(h))
	}
	pc.speedUps(res)
	if !req.NoSearch {
		res.Recommendations = pc.search(req.Pool)
	}
	res.Job = pc.info
	res.Assumptions = append(res.Assumptions, pc.assumptions...)
	res.Advice = pc.advise(res, req)
	res.Warnings = pc.warnings(res, req)
	return res, nil
}

func modelInfo(m Model) ModelInfo {
	return ModelInfo{ID: m.ID, Params: m.Params(), ActiveParams: m.ActiveParams(), Layers: m.Layers,
		Hidden: m.Hidden, Heads: m.Heads, KVHeads: m.kvHeads(), Vocab: m.Vocab, Origin: m.Origin, Source: m.Source}
}

func (pc *planContext) assume(format string, args ...any) {
	pc.assumptions = append(pc.assumptions, fmt.Sprintf(format, args...))
}

// resolveJob fills defaults and converts the amount of work to samples.
func (pc *planContext) resolveJob() error {
	j := &pc.job
	m := j.Model
	if m.Params() <= 0 {
		return errorf("no model: name one (`bert-base`, `llama3-8b`), give a size (`7b params`) or an architecture (`layers 24 hidden 2048 heads 16`)")
	}
	pc.assumptions = append(pc.assumptions, j.Notes...)
	if j.Workload == "" {
		if m.Origin == "catalogue" && m.Kind != VisionConv && m.Kind != VisionViT {
			j.Workload = Finetune
		} else {
			j.Workload = Pretrain
		}
		pc.assume("workload not given: planned as %s (say `pretrain`, `finetune`, `lora`, `qlora` or `inference`)", j.Workload)
	}
	if (j.Precision == INT8 || j.Precision == INT4) && j.Workload != Inference {
		if j.Precision == INT4 && (j.Workload == LoRA || j.Workload == Finetune) {
			j.Workload = QLoRA
			j.Precision = ""
			pc.assume("4-bit training read as QLoRA (NF4 base, bf16 compute)")
		} else {
			return errorf("%s is an inference weight format; to train on a 4-bit base say `qlora`, otherwise use bf16/fp16/fp8", j.Precision)
		}
	}
	if j.Stack == "" {
		j.Stack = HF
		if j.Workload != Inference {
			pc.assume("stack: Hugging Face Trainer / eager PyTorch (say `tuned` for fused kernels, FlashAttention, Megatron-class)")
		}
	}
	if j.Optimizer == "" {
		j.Optimizer = AdamW
	}
	if j.Attention == AttentionDefault {
		j.Attention = Flash
		if m.IsTransformer() && j.Workload != Inference {
			pc.assume("attention: FlashAttention/SDPA kernels (no stored seq² scores); say `eager` for the classic implementation")
		}
	}
	if (j.Workload == LoRA || j.Workload == QLoRA) && j.LoRARank == 0 {
		j.LoRARank = defaultLoRARank
		pc.assume("LoRA rank 16 on all linear layers (q,k,v,o,gate,up,down): %s trainable parameters", formatParams(loraParams(m, j.LoRARank)))
	}
	if (j.Workload == LoRA || j.Workload == QLoRA) && !m.IsTransformer() {
		return errorf("LoRA/QLoRA planning needs a transformer model; %s is not one", m.ID)
	}
	if j.SeqLen == 0 {
		switch {
		case m.Kind == VisionViT:
			j.SeqLen = m.MaxCtx
		case !m.IsTransformer():
			j.SeqLen = 1
		case j.Workload == Inference:
			j.SeqLen = min(max(m.MaxCtx, 512), 4096)
			pc.assume("context not given: %d tokens per sequence (say `ctx 8k`)", j.SeqLen)
		default:
			j.SeqLen = min(max(m.MaxCtx, 128), 2048)
			if m.Kind == Encoder {
				j.SeqLen = min(m.MaxCtx, 512)
			}
			pc.assume("sequence length not given: %d tokens (say `seq N`)", j.SeqLen)
		}
	}
	if m.IsTransformer() && m.Kind != VisionViT && m.MaxCtx > 0 && j.SeqLen > m.MaxCtx && m.Learned {
		return errorf("seq %d is longer than %s's %d learned positions", j.SeqLen, m.ID, m.MaxCtx)
	}
	if j.Workload == Inference && j.GenTokens == 0 {
		j.GenTokens = min(256, j.SeqLen/2)
	}
	if j.GlobalBatchTokens > 0 && j.GlobalBatch == 0 {
		j.GlobalBatch = max(1, int(math.Round(float64(j.GlobalBatchTokens)/float64(j.SeqLen))))
	}
	pc.info = JobInfo{Workload: j.Workload, SeqLen: j.SeqLen, GlobalBatch: j.GlobalBatch, Precision: j.Precision,
		Stack: j.Stack, Optimizer: j.Optimizer, Epochs: j.Epochs}
	if j.Workload == Inference {
		pc.info.Optimizer = ""
		pc.info.GenTokens = j.GenTokens
	}
	return pc.resolveAmount()
}

func (pc *planContext) resolveAmount() error {
	j := &pc.job
	seq := float64(j.SeqLen)
	tokenBased := j.Model.IsTransformer() && j.Model.Kind != VisionViT
	epochSamples := j.DatasetSamples
	if j.DatasetTokens > 0 {
		epochSamples = j.DatasetTokens / seq
	}
	if j.StepsPerEpoch > 0 {
		if j.GlobalBatch == 0 {
			return errorf("`steps/epoch` needs the global batch to turn steps into samples: add `batch N`")
		}
		epochSamples = j.StepsPerEpoch * float64(j.GlobalBatch)
	}
	var total float64
	switch {
	case j.Epochs > 0 && epochSamples > 0:
		total = j.Epochs * epochSamples
		pc.info.Amount = fmt.Sprintf("%s epochs of %s samples", trimFloat(j.Epochs), humanCount(epochSamples))
	case j.Epochs > 0:
		pc.info.Amount = fmt.Sprintf("%s epochs (dataset size not given)", trimFloat(j.Epochs))
	case epochSamples > 0:
		total = epochSamples
		pc.info.Amount = fmt.Sprintf("1 epoch of %s samples", humanCount(epochSamples))
		pc.assume("epochs not given: 1 epoch")
	case j.Tokens > 0:
		total = j.Tokens / seq
		pc.info.Amount = humanCount(j.Tokens) + " tokens"
	case j.Samples > 0:
		total = j.Samples
		pc.info.Amount = humanCount(j.Samples) + " samples"
	case j.Steps > 0:
		if j.GlobalBatch == 0 {
			// the global batch is chosen with the defaults; the steps
			// become samples then (defaultGlobalBatch)
			pc.stepsPending = true
			pc.info.Amount = fmt.Sprintf("%s steps", humanCount(j.Steps))
			return nil
		}
		total = j.Steps * float64(j.GlobalBatch)
		pc.info.Amount = fmt.Sprintf("%s steps of %d samples", humanCount(j.Steps), j.GlobalBatch)
	}
	pc.info.EpochSamples = epochSamples
	if total > 0 {
		pc.info.TotalSamples = total
		pc.info.AmountKnown = true
		if tokenBased {
			pc.info.TotalTokens = total * seq
		}
	} else if j.Workload != Inference {
		pc.info.Amount = strings.TrimSpace(pc.info.Amount + " — add a dataset size (`of 2.5M samples` or `of 1B tokens`) for totals; times below are per epoch of 1M samples")
	}
	return nil
}

func humanCount(v float64) string {
	switch {
	case v >= 1e12:
		return trimFloat(v/1e12) + "T"
	case v >= 1e9:
		return trimFloat(v/1e9) + "B"
	case v >= 1e6:
		return trimFloat(v/1e6) + "M"
	case v >= 1e4:
		return trimFloat(v/1e3) + "k"
	default:
		return trimFloat(v)
	}
}

// defaultGlobalBatch fixes the global batch when the request gave none, so
// every option the plan compares solves the same optimisation problem:
// the first named target's natural choice, else a workload default.
func (pc *planContext) defaultGlobalBatch(req Request) {
	j := &pc.job
	if j.GlobalBatch > 0 || j.Workload == Inference {
		return
	}
	switch {
	case len(req.Targets) > 0:
		e := pc.choose(req.Targets[0])
		j.GlobalBatch = e.GlobalBatch
		pc.assume("global batch not given: %d (micro-batch %d × %d GPUs on %s); every option below keeps it — say `batch N` to set it",
			e.GlobalBatch, e.MicroBatch, e.layout.dp(), e.GPUName)
	case j.Workload == Pretrain && j.Model.IsTransformer():
		// ~0.5M tokens per step, GPT-3-small-like
		j.GlobalBatch = 1 << int(math.Round(math.Log2(math.Max(1, 524288/float64(j.SeqLen)))))
		pc.assume("global batch not given: %d sequences (~0.5M tokens per step); say `batch N`", j.GlobalBatch)
	case !j.Model.IsTransformer():
		j.GlobalBatch = 256
		pc.assume("global batch not given: 256 samples; say `batch N`")
	default:
		j.GlobalBatch = 32
		pc.assume("global batch not given: 32 sequences (a common fine-tuning batch); say `batch N`")
	}
	pc.info.GlobalBatch = j.GlobalBatch
	if j.StepsPerEpoch > 0 {
		pc.info.EpochSamples = j.StepsPerEpoch * float64(j.GlobalBatch)
	}
	if pc.stepsPending {
		// "8k steps" with no batch: steps of the batch just chosen (and
		// said in the assumptions), so a step count still plans
		pc.stepsPending = false
		pc.info.TotalSamples = j.Steps * float64(j.GlobalBatch)
		pc.info.AmountKnown = true
		if j.Model.IsTransformer() && j.Model.Kind != VisionViT {
			pc.info.TotalTokens = pc.info.TotalSamples * float64(j.SeqLen)
		}
		pc.info.Amount = fmt.Sprintf("%s steps of %d samples", humanCount(j.Steps), j.GlobalBatch)
	}
}

// pickPrecision chooses the precision for the job on g and says why when
// it differs from what was asked.
func pickPrecision(j Job, g GPU) (Precision, string) {
	want := j.Precision
	if j.Workload == Inference {
		switch want {
		case INT8, INT4:
			return want, "" // weight-only formats run on any tensor-core GPU via dequant kernels
		case FP8:
			if g.Supports(FP8) {
				return FP8, ""
			}
			return INT8, fmt.Sprintf("%s has no fp8: planned with int8 weights", g.Name)
		case FP32:
			return FP32, ""
		case TF32:
			if g.Supports(TF32) {
				return TF32, ""
			}
			return FP32, fmt.Sprintf("tf32 requested but %s has no tf32: planned as fp32", g.Name)
		case FP16:
			return FP16, ""
		case BF16:
			if g.Supports(BF16) {
				return BF16, ""
			}
			return FP16, fmt.Sprintf("bf16 requested but %s has no bf16: planned as fp16", g.Name)
		}
		if g.Supports(BF16) {
			return BF16, ""
		}
		return FP16, ""
	}
	switch want {
	case "":
		if g.Supports(BF16) {
			return BF16, ""
		}
		return FP16, fmt.Sprintf("%s has no bf16: planned as fp16 AMP with loss scaling", g.Name)
	case BF16:
		if g.Supports(BF16) {
			return BF16, ""
		}
		return FP16, fmt.Sprintf("bf16 requested but %s has no bf16: planned as fp16 AMP with loss scaling (GradScaler)", g.Name)
	case TF32:
		if g.Supports(TF32) {
			return TF32, ""
		}
		return FP32, fmt.Sprintf("tf32 requested but %s has no tf32: planned as fp32", g.Name)
	case FP8:
		if g.Supports(FP8) {
			return FP8, ""
		}
		p := FP16
		if g.Supports(BF16) {
			p = BF16
		}
		return p, fmt.Sprintf("fp8 requested but %s has no fp8 tensor cores: planned as %s", g.Name, p)
	}
	return want, ""
}

// configure finds the fastest layout of the job on h that fits, or the
// smallest one with its overflow when nothing fits.
func (pc *planContext) configure(h Hardware) *Estimate {
	e := pc.choose(h)
	pc.describe(e)
	return e
}

// choose is configure without the prose: the search calls it for every
// candidate and describes only the ones it keeps.
func (pc *planContext) choose(h Hardware) *Estimate {
	j := pc.job
	prec, precNote := pickPrecision(j, h.GPU)
	// Candidates stay values: the search probes thousands of layouts and
	// only the winner needs to live on the heap.
	var best, smallest Estimate
	haveBest, haveSmallest := false, false
	bestKeeps := false
	var lastNoCkpt layout
	lastNoCkptFast := false
	for _, l := range pc.layouts(h, prec) {
		// Recomputation only pays when it buys a usefully larger
		// micro-batch: skip it when the same layout already fits without it
		// at a micro-batch that fills the GPU.
		if l.ckpt && lastNoCkptFast && l.tp == lastNoCkpt.tp && l.pp == lastNoCkpt.pp && l.strategy == lastNoCkpt.strategy && !j.Checkpointing {
			continue
		}
		e := pc.evaluate(h, l)
		if !l.ckpt {
			lastNoCkpt = l
			lastNoCkptFast = e.Memory.Fits && float64(e.MicroBatch*max(j.SeqLen, 1)) >= 2048
		}
		// A layout that cannot keep the requested global batch (more
		// replicas than samples per step) only wins when nothing else fits.
		keeps := j.GlobalBatch == 0 || e.GlobalBatch == j.GlobalBatch
		// A layout listed later is more complex; it must be clearly faster.
		better := !haveBest || (keeps && !bestKeeps) ||
			(keeps == bestKeeps && e.Time.StepS/float64(e.GlobalBatch) < best.Time.StepS/float64(best.GlobalBatch)*0.97)
		if e.Memory.Fits && better {
			best, haveBest, bestKeeps = e, true, keeps
		}
		if !haveSmallest || e.Memory.PerGPUGiB < smallest.Memory.PerGPUGiB {
			smallest, haveSmallest = e, true
		}
	}
	e := new(Estimate)
	if haveBest {
		*e = best
	} else {
		*e = smallest
	}
	if precNote != "" {
		e.Notes = append([]string{precNote}, e.Notes...)
	}
	return e
}

// layouts enumerates the strategies worth trying on h: sharding stages,
// gradient checkpointing, tensor/pipeline parallel for the tuned stack,
// with the largest micro-batch that fits each.
func (pc *planContext) layouts(h Hardware, prec Precision) []layout {
	j := pc.job
	n := h.Count
	base := layout{gpu: h.GPU, n: n, tp: 1, pp: 1, precision: prec, attention: j.Attention}
	if j.Workload == Inference {
		l := base
		l.micro = max(1, j.GlobalBatch)
		if forwardOnly(j.Model) {
			// replicas: each GPU runs its own share of the batch
			l.micro = max(1, (j.GlobalBatch+n-1)/n)
		}
		return []layout{l}
	}
	strategies := []Strategy{DDP}
	if j.Strategy != StrategyAuto {
		strategies = []Strategy{j.Strategy}
	} else if n > 1 {
		strategies = []Strategy{DDP, ZeRO1, ZeRO2, ZeRO3}
	}
	ckpts := []bool{false, true}
	if j.Checkpointing {
		ckpts = []bool{true}
	}
	type mp struct{ tp, pp int }
	mps := []mp{{1, 1}}
	perNode := gpusPerNode(h)
	if j.Stack == Tuned && j.Model.IsTransformer() && j.Model.Kind != VisionViT && j.Workload != QLoRA {
		for tp := 2; tp <= min(8, perNode, n); tp *= 2 {
			if j.Model.Heads%tp == 0 && n%tp == 0 {
				mps = append(mps, mp{tp, 1})
				for pp := 2; pp <= 16 && tp*pp <= n; pp *= 2 {
					// stages may be uneven (61 layers over 16 stages is fine)
					if j.Model.Layers >= 2*pp && n%(tp*pp) == 0 && tp == min(8, perNode) {
						mps = append(mps, mp{tp, pp})
					}
				}
			}
		}
	}
	out := make([]layout, 0, len(mps)*len(strategies)*len(ckpts))
	cp := max(1, j.ContextParallel)
	for _, m := range mps {
		if n%(m.tp*m.pp*cp) != 0 {
			continue
		}
		for _, s := range strategies {
			if m.tp*m.pp > 1 && (s == ZeRO2 || s == ZeRO3) {
				continue // Megatron pairs TP/PP with the distributed optimizer (ZeRO-1)
			}
			if n/(m.tp*m.pp) == 1 && s != DDP && j.Strategy == StrategyAuto {
				continue // nothing to shard over
			}
			for _, ck := range ckpts {
				l := base
				l.tp, l.pp, l.strategy, l.ckpt, l.cp = m.tp, m.pp, s, ck, cp
				out = append(out, l)
			}
		}
	}
	return out
}

// microFor picks the micro-batch for layout l: what the user said, else the
// largest that fits, divides the per-replica share of the global batch and
// keeps a micro-batch under 32k tokens.
func (pc *planContext) microFor(l layout, maxFit int) (micro, ga, global int) {
	j := pc.job
	dp := l.dp()
	tokensCap := 32768
	seq := max(j.SeqLen, 1)
	capB := max(1, min(256, tokensCap/seq))
	if !j.Model.IsTransformer() {
		capB = 256
	}
	if j.GlobalBatch > 0 {
		per := max(1, j.GlobalBatch/dp)
		if l.pp > 1 {
			capB = 1 // pipelines want many small micro-batches to fill the bubble
		}
		if j.MicroBatch > 0 {
			micro = j.MicroBatch
		} else {
			micro = 1
			for b := min(per, maxFit, capB); b >= 1; b-- {
				if per%b == 0 {
					micro = b
					break
				}
			}
		}
		ga = max(1, int(math.Ceil(float64(per)/float64(micro))))
		if l.pp > 1 {
			ga = max(ga, 1)
		}
		return micro, ga, micro * ga * dp
	}
	if j.MicroBatch > 0 {
		micro = j.MicroBatch
	} else {
		micro = max(1, min(maxFit, capB))
		// round down to a power of two, as people configure it
		micro = 1 << int(math.Floor(math.Log2(float64(micro))))
	}
	return micro, 1, micro * dp
}

// evaluate computes memory, speed, time and cost of one layout.
func (pc *planContext) evaluate(h Hardware, l layout) Estimate {
	j := pc.job
	if j.Workload == Inference {
		return pc.evaluateInference(h, l)
	}
	// Memory at micro 1 gives the largest micro-batch that fits.
	l.micro = 1
	probe := trainingMemory(pc.prm, j, l, false)
	micro, ga, global := pc.microFor(l, max(1, probe.MaxMicroBatch))
	l.micro = micro
	mem := trainingMemory(pc.prm, j, l, false)

	g := h.GPU
	f := trainingFlops(j, l)
	seq := float64(j.SeqLen)
	perSampleHW := f.hardware
	perSampleModel := f.model
	perSampleAttn := f.attn
	tokensPerMicro := float64(micro)
	if f.perToken {
		perSampleHW *= seq
		perSampleModel *= seq
		perSampleAttn *= seq
		tokensPerMicro *= seq
	} else {
		tokensPerMicro = float64(micro) * 256 // CNN: images fill the GPU like ~256-token sequences
	}
	peak := effectivePeak(g, l.precision) * 1e12
	u := hfu(pc.prm, j, l, tokensPerMicro/float64(l.tp*l.cpDeg())) * pc.jobFactor
	// Compute time of one micro-batch on one GPU (its share under TP/PP).
	mpShare := float64(l.tp * l.pp)
	cpShare := float64(l.cpDeg())
	tAttn := perSampleAttn / (peak * u * pc.prm.AttnFlash)
	if l.attention == Eager && f.perToken {
		passes := pc.prm.EagerPasses
		if l.ckpt {
			passes *= 4.0 / 3 // the forward runs twice
		}
		tAttn = perSampleAttn/(peak*u) + eagerScoreBytes(j.Model, j.SeqLen, l.precision)*passes/(g.MemBWGBs*1e9*pc.jobFactor)
	}
	tMicro := float64(micro) * ((perSampleHW-perSampleAttn)/(peak*u) + tAttn) / mpShare / cpShare
	tCompute := tMicro * float64(ga)

	n := h.Count
	perNode := gpusPerNode(h)
	busGBs, linkDesc := linkGBs(pc.prm, g, n, perNode, h.Interconnect)
	dp := l.shardDP() // gradients are reduced over data × context parallel ranks
	var exposed float64
	if dp > 1 {
		trainable := heldParams(j.Model, l)
		if j.Workload == LoRA || j.Workload == QLoRA {
			trainable = loraParams(j.Model, j.LoRARank)
		}
		gradBytes := 4.0
		if j.Stack == Tuned && l.precision != FP32 && l.precision != TF32 {
			gradBytes = 2
		}
		bytes := trainable * gradBytes / mpShare
		ring := 2 * float64(dp-1) / float64(dp)
		tAR := ring * bytes / (busGBs * 1e9)
		if (l.strategy == ZeRO3 || l.strategy == FSDP) && j.Workload != LoRA && j.Workload != QLoRA {
			// parameters gathered forward and backward every micro-batch,
			// gradients reduce-scattered: 1.5x the all-reduce volume, per micro-batch
			gather := float64(dp-1) / float64(dp) * trainable * 2 / mpShare / (busGBs * 1e9)
			perMicro := 2*gather + tAR/2
			exposed = float64(ga) * math.Max(minExposedComm*perMicro, perMicro-0.8*tMicro)
		} else {
			exposed = math.Max(minExposedComm*tAR, tAR-pc.prm.Overlap*tMicro*2/3)
		}
	}
	if cp := l.cpDeg(); cp > 1 {
		// Ring attention passes every chunk's K and V around the cp ranks
		// (and dK, dV back in backward), mostly hidden behind attention.
		nodeGBs, _ := linkGBs(pc.prm, g, min(cp*l.tp, perNode), perNode, NVLink)
		kv := float64(micro) * seq / float64(cp) * 2 * float64(j.Model.kvHeads()*j.Model.headDim()) * 2
		tCP := float64(j.Model.Layers) / float64(l.pp) * 3 * float64(cp-1) * kv / float64(l.tp) / (nodeGBs * 1e9)
		exposed += pc.prm.TPExposed * tCP * float64(ga)
	}
	if l.tp > 1 {
		// Four all-reduces of the activations per layer (two forward, two
		// backward) over the node's NVLink, mostly overlapped.
		nodeGBs, _ := linkGBs(pc.prm, g, l.tp, perNode, NVLink)
		act := float64(micro) * seq * float64(j.Model.Hidden) * 2
		tTP := float64(j.Model.Layers) / float64(l.pp) * 4 * 2 * float64(l.tp-1) / float64(l.tp) * act / (nodeGBs * 1e9)
		exposed += pc.prm.TPExposed * tTP * float64(ga)
	}
	bubble := 0.0
	if l.pp > 1 {
		// 1F1B bubble, shrunk by the interleaved schedule (virtual stages)
		// that tuned stacks use when each stage holds enough layers.
		v := 1.0
		if j.Stack == Tuned && j.Model.Layers/l.pp >= 4 {
			v = 4
		}
		bubble = float64(l.pp-1) / (v*float64(ga) + float64(l.pp-1))
	}
	if ep := l.ep(j.Model); ep > 1 {
		// Token all-to-all: dispatch and combine, forward and backward, of
		// top-k copies of every token's hidden state, per MoE layer; half
		// of it overlapped with expert GEMMs.
		a2aGBs, _ := linkGBs(pc.prm, g, ep*l.tp*l.pp, perNode, h.Interconnect)
		tokens := float64(micro) * seq
		bytes := 4 * tokens * float64(j.Model.TopK) * float64(j.Model.Hidden) * 2 * float64(ep-1) / float64(ep)
		exposed += 0.5 * float64(j.Model.Layers) / float64(l.pp) * bytes / (a2aGBs * 1e9) * float64(ga) / float64(l.tp)
	}
	// Optimizer step: read and write every state byte once.
	sb := jobStateBytes(j, l.precision)
	trainable := heldParams(j.Model, l)
	if j.Workload == LoRA || j.Workload == QLoRA {
		trainable = loraParams(j.Model, j.LoRARank)
		sb = stateBytes{4, 4, 8}
	}
	shard := mpShare
	if l.strategy != DDP {
		shard *= float64(dp)
	}
	tOpt := trainable * (sb.weights + sb.grads + sb.optim) * 2 / shard / (g.MemBWGBs * 1e9 * 0.8)
	if j.Offload != OffloadNone {
		tOpt, exposed = pc.offloadTime(j, h, l, trainable/shard, heldParams(j.Model, l)/shard, sb, tMicro, ga, exposed)
	}

	ideal := tCompute * (1 + bubble)
	step := ideal + exposed
	sync := 1.0
	if n > 1 {
		sync = 1 - pc.prm.SyncLoss*math.Log2(float64(n))
	}
	step = step/sync + tOpt
	scaling := 1.0
	if n > 1 {
		scaling = (tCompute) / (step - tOpt)
	}

	e := Estimate{
		GPU: g.ID, GPUName: g.Name, GPUs: n, Nodes: max(1, (n+perNode-1)/perNode), Server: h.Server,
		Interconnect: linkDesc, Precision: l.precision, TensorParallel: l.tp, PipelineParallel: l.pp,
		Checkpointing: l.ckpt, MicroBatch: micro, GradAccum: ga, GlobalBatch: global, Memory: mem,
		PriceUSDPerGPUH: g.PriceUSD, hw: h, layout: l, ScalingEfficiency: scaling,
	}
	e.Strategy = strategyName(l)
	sps := float64(global) / step
	e.Throughput.SamplesPerS = sps
	if f.perToken {
		e.Throughput.TokensPerS = sps * seq
		e.Throughput.TokensPerSPerGPU = sps * seq / float64(n)
	}
	e.Time.StepS = step
	e.MFU = sps * perSampleModel / (float64(n) * peak)
	e.HFU = sps * perSampleHW / (float64(n) * peak)
	e.ModelTFLOPsPerGPU = sps * perSampleModel / float64(n) / 1e12
	e.HWTFLOPsPerGPU = sps * perSampleHW / float64(n) / 1e12
	pc.fillTime(&e, sps)
	return e
}

// fillTime turns throughput into epoch/total hours, GPU-hours and cost.
func (pc *planContext) fillTime(e *Estimate, sps float64) {
	info := pc.info
	e.Time.HoursPerMillionSamples = 1e6 / sps / 3600
	if info.EpochSamples > 0 {
		eh := info.EpochSamples / sps / 3600
		e.Time.EpochHours = &eh
		if e.GlobalBatch > 0 {
			e.Time.StepsPerEpoch = math.Ceil(info.EpochSamples / float64(e.GlobalBatch))
		}
	}
	e.Goodput = 1
	if info.AmountKnown {
		steady := info.TotalSamples / sps / 3600
		e.Goodput = goodput(e.GPUs, steady)
		total := steady / e.Goodput
		gh := total * float64(e.GPUs)
		cost := gh * e.PriceUSDPerGPUH
		e.Time.TotalHours, e.GPUHours, e.CostUSD = &total, &gh, &cost
	}
}

func strategyName(l layout) string {
	var parts []string
	if l.tp > 1 {
		parts = append(parts, fmt.Sprintf("TP%d", l.tp))
	}
	if l.pp > 1 {
		parts = append(parts, fmt.Sprintf("PP%d", l.pp))
	}
	switch {
	case l.n == 1 || (l.dp() == 1 && l.strategy == DDP):
		if len(parts) == 0 {
			parts = append(parts, "single GPU")
		}
	case l.strategy == DDP:
		parts = append(parts, "DDP")
	case l.strategy == ZeRO1:
		parts = append(parts, "ZeRO-1")
	case l.strategy == ZeRO2:
		parts = append(parts, "ZeRO-2")
	case l.strategy == ZeRO3:
		parts = append(parts, "ZeRO-3")
	case l.strategy == FSDP:
		parts = append(parts, "FSDP")
	}
	return strings.Join(parts, " + ")
}

// evaluateInference: decode is memory-bound (weights + KV per token),
// prefill compute-bound.
func (pc *planContext) evaluateInference(h Hardware, l layout) Estimate {
	j := pc.job
	if forwardOnly(j.Model) {
		return pc.evaluateForward(h, l)
	}
	g := h.GPU
	m := j.Model
	mem := inferenceMemory(pc.prm, j, l)
	b := float64(l.micro)
	n := float64(h.Count)
	bw := g.MemBWGBs * 1e9 * pc.prm.DecodeBW
	if l.precision == INT8 || l.precision == INT4 {
		bw *= pc.prm.DequantDecode
	}
	weights := m.Params() * weightBytesInference(l.precision) / n
	if m.Kind == MoE {
		weights = m.ActiveParams() * weightBytesInference(l.precision) / n * 1.5 // routed experts touched per step
	}
	avgCtx := float64(j.SeqLen-j.GenTokens) + float64(j.GenTokens)/2
	kv := kvBytesPerToken(m) / n * avgCtx * b
	peakP := l.precision
	if peakP == INT8 || peakP == INT4 {
		peakP = FP16 // weight-only quantisation computes in 16-bit
	}
	peak := effectivePeak(g, peakP) * 1e12
	if peak == 0 {
		peak = effectivePeak(g, FP32) * 1e12
	}
	// Large batches make decode compute-bound; small ones are already
	// bounded by the weight reads, so no skinny-matmul penalty here.
	compute := 2 * m.ActiveParams() * b / (n * peak * pc.prm.InferCompute * hfu(pc.prm, j, l, 0))
	perToken := math.Max((weights+kv)/bw, compute)
	busGBs, linkDesc := linkGBs(pc.prm, g, h.Count, gpusPerNode(h), h.Interconnect)
	if h.Count > 1 {
		// two all-reduces of b·h per layer per token; latency-bound at small batch
		perToken += float64(m.Layers) * 2 * (10e-6 + 2*b*float64(m.Hidden)*2/(busGBs*1e9))
	}
	prompt := float64(j.SeqLen - j.GenTokens)
	// Prefill is a batched forward pass: compute-bound, at the calibrated
	// forward-pass utilization (the training HFU model × InferCompute).
	pl := l
	if pl.precision == INT8 || pl.precision == INT4 {
		pl.precision = FP16
	}
	uPre := pc.prm.InferCompute * hfu(pc.prm, j, pl, prompt*b/n)
	attnPre := 4 * float64(m.Layers) * prompt / 2 * float64(m.Heads*m.headDim()) // causal: half the score matrix
	prefill := (2*m.ActiveParams() + attnPre/pc.prm.AttnFlash) * prompt * b / (n * peak * uPre)
	e := Estimate{
		GPU: g.ID, GPUName: g.Name, GPUs: h.Count, Nodes: 1, Server: h.Server, Interconnect: linkDesc,
		Precision: l.precision, TensorParallel: h.Count, PipelineParallel: 1, MicroBatch: l.micro, GradAccum: 1,
		GlobalBatch: l.micro, Memory: mem, PriceUSDPerGPUH: g.PriceUSD, hw: h, layout: l, ScalingEfficiency: 1,
	}
	e.Strategy = "single GPU"
	if h.Count > 1 {
		e.Strategy = fmt.Sprintf("tensor parallel ×%d", h.Count)
	}
	e.InferencePath = "decode"
	e.Time.PrefillS = prefill
	e.Time.PerTokenS = perToken
	reqTime := prefill + float64(j.GenTokens)*perToken
	e.Time.StepS = reqTime
	e.Throughput.TokensPerS = b / perToken
	e.Throughput.TokensPerSPerGPU = e.Throughput.TokensPerS / n
	e.Throughput.SamplesPerS = b / reqTime
	e.MFU = 2 * m.ActiveParams() * e.Throughput.TokensPerS / (n * peak)
	e.HFU = e.MFU
	e.ModelTFLOPsPerGPU = 2 * m.ActiveParams() * e.Throughput.TokensPerS / n / 1e12
	e.HWTFLOPsPerGPU = e.ModelTFLOPsPerGPU
	pc.fillTime(&e, e.Throughput.SamplesPerS)
	return e
}

// describe attaches the assumptions and launch line of one estimate.
func (pc *planContext) describe(e *Estimate) {
	j := pc.job
	if j.Workload != Inference && e.Memory.Breakdown == nil {
		e.Memory.Breakdown = trainingMemory(pc.prm, j, e.layout, true).Breakdown
	}
	g := e.hw.GPU
	compute := e.Precision
	if compute == INT8 || compute == INT4 {
		compute = FP16 // weight-only quantisation: matmuls in 16-bit
	}
	peak, _ := g.Peak(compute)
	e.Assumptions = append(e.Assumptions,
		fmt.Sprintf("%s: %.0f dense TFLOPS %s, %.0f GB at %.0f GB/s (%s)", g.Name, peak, compute, g.MemoryGB, g.MemBWGBs, shortSource(g.Source)),
		fmt.Sprintf("price $%.2f per GPU-hour (%s)", g.PriceUSD, g.PriceSource),
	)
	if j.Workload != Inference {
		e.Assumptions = append(e.Assumptions,
			fmt.Sprintf("utilization: %.0f%% of peak (hardware FLOPs), %.0f%% MFU, %s stack", e.HFU*100, e.MFU*100, j.Stack))
		if e.GPUs > 1 {
			e.Assumptions = append(e.Assumptions, fmt.Sprintf("scaling efficiency %.0f%% over %s", e.ScalingEfficiency*100, e.Interconnect))
		}
		if e.Goodput < 0.999 {
			e.Assumptions = append(e.Assumptions, fmt.Sprintf("goodput %.0f%% (restarts, evaluation, checkpoints)", e.Goodput*100))
		}
	} else {
		switch e.InferencePath {
		case "decode":
			e.Assumptions = append(e.Assumptions, fmt.Sprintf("prefill is compute-bound; decode reads the weights + KV cache every token at %.0f%% of memory bandwidth (or is compute-bound at large batch)", pc.prm.DecodeBW*100))
		default:
			e.Assumptions = append(e.Assumptions, fmt.Sprintf("one forward pass per sample, compute-bound at batch: %.0f%% of dense peak; each GPU runs its own replica", e.HFU*100))
		}
	}
	if pc.jobFactor != 1 {
		e.Assumptions = append(e.Assumptions, fmt.Sprintf("rebased on your measured run: this job runs at %.2fx the modelled speed", pc.jobFactor))
	}
	if !e.Memory.Fits {
		e.Notes = append(e.Notes, fmt.Sprintf("does not fit: needs %.1f GiB per GPU, %s has %.1f GiB", e.Memory.PerGPUGiB, g.Name, e.Memory.CapacityGiB))
	}
	if j.OptimizerInBackward && e.GradAccum > 1 && j.Workload != LoRA && j.Workload != QLoRA {
		e.Notes = append(e.Notes, fmt.Sprintf("optimizer in backward cannot accumulate gradients: this layout needs %d accumulation steps, so the optimizer would step on every micro-batch of %d — raise the GPU count or lower the global batch", e.GradAccum, e.MicroBatch))
	}
	if j.PureBF16 && e.Precision != BF16 {
		e.Notes = append(e.Notes, fmt.Sprintf("pure bf16 needs bf16 support; %s runs %s with an fp32 master copy", g.Name, e.Precision))
	}
	if g.Vendor != "NVIDIA" {
		e.Notes = append(e.Notes, fmt.Sprintf("%s runs ROCm, not CUDA: check that your PyTorch build and kernels (FlashAttention, bitsandbytes) support it", g.Name))
	}
	e.Launch = launchLine(j, e)
}

func shortSource(s string) string {
	if i := strings.IndexAny(s, ";("); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// searchCounts are the GPU counts the recommendation search tries: one
// box, then multi-node jobs up to the largest clusters trained on (Llama 3
// used 16,384 H100s; named targets go to MaxGPUs).
var searchCounts = []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536}

// MaxGPUs is the largest GPU count the planner accepts for one job.
const MaxGPUs = 100000

// search enumerates GPU type × count and keeps the three picks.
func (pc *planContext) search(pool []Hardware) Recommendations {
	var rec Recommendations
	if pool == nil {
		for _, g := range pc.cat.GPUs {
			for _, n := range searchCounts {
				if n > 8 && !g.SXM {
					continue // PCIe boxes above 8 GPUs are rare; multi-node is planned on SXM parts
				}
				if cp := pc.job.ContextParallel; cp > 1 && n%cp != 0 {
					continue
				}
				pool = append(pool, Hardware{GPU: g, Count: n})
			}
		}
	}
	var feasible []*Estimate
	consider := func(hs []Hardware) {
		for _, h := range hs {
			rec.Considered++
			e := pc.choose(h)
			if e.Memory.Fits {
				feasible = append(feasible, e)
			}
		}
	}
	// Single boxes first: several nodes are searched only when no single
	// node fits or the fastest one would take more than a day.
	var single, multi []Hardware
	for _, h := range pool {
		if h.Count <= gpusPerNode(h) && h.Interconnect != IB {
			single = append(single, h)
		} else {
			multi = append(multi, h)
		}
	}
	consider(single)
	if len(multi) > 0 {
		fastest := math.Inf(1)
		for _, e := range feasible {
			fastest = math.Min(fastest, e.sortKeyHours())
		}
		if len(feasible) == 0 || (pc.info.AmountKnown && fastest > 24) {
			consider(multi)
		} else {
			rec.Notes = append(rec.Notes, "multi-node options left out: one node finishes within a day")
		}
	}
	rec.Feasible = len(feasible)
	if len(feasible) == 0 {
		rec.Notes = append(rec.Notes, "nothing in the search fits: see the out-of-memory advice")
		return rec
	}
	byTime := append([]*Estimate(nil), feasible...)
	sort.SliceStable(byTime, func(a, b int) bool {
		ta, tb := byTime[a].sortKeyHours(), byTime[b].sortKeyHours()
		if math.Abs(ta-tb) > 1e-9*ta {
			return ta < tb
		}
		return byTime[a].sortKeyCost() < byTime[b].sortKeyCost()
	})
	byCost := append([]*Estimate(nil), feasible...)
	sort.SliceStable(byCost, func(a, b int) bool {
		ca, cb := byCost[a].sortKeyCost(), byCost[b].sortKeyCost()
		if math.Abs(ca-cb) > 1e-9*ca {
			return ca < cb
		}
		return byCost[a].sortKeyHours() < byCost[b].sortKeyHours()
	})
	defer func() {
		for _, e := range []*Estimate{rec.Fastest, rec.Cheapest, rec.Balanced} {
			if e.Launch == "" {
				pc.describe(e)
			}
		}
	}()
	rec.Fastest = byTime[0]
	rec.Cheapest = byCost[0]
	// Balanced: the fastest option that costs at most 1.5x the cheapest and
	// does not use more than 8 GPUs for less than a day's work.
	limit := rec.Cheapest.sortKeyCost() * 1.5
	rec.Balanced = rec.Cheapest
	for _, e := range byTime {
		if e.sortKeyCost() <= limit && (e.GPUs <= 8 || e.sortKeyHours() > 24) {
			rec.Balanced = e
			break
		}
	}
	return rec
}

// IsPlannerError reports whether err is a request the planner refused
// with a user-facing message.
func IsPlannerError(err error) bool {
	var pe *Error
	return errors.As(err, &pe)
}

// speedUps fills SpeedUp against one labelled reference, so a comparison
// never silently changes what "2.3x" means: the measured run when there is
// one, else the last column.
func (pc *planContext) speedUps(res *Result) {
	if len(res.Plans) == 0 || len(res.Plans) < 2 && res.Baseline == nil {
		return // a measured run with no named target: nothing to compare
	}
	ref := res.Plans[len(res.Plans)-1]
	label := fmt.Sprintf("vs %d× %s (last column)", ref.GPUs, ref.GPUName)
	if res.Baseline != nil && res.Baseline.BaselinePlan != nil {
		ref = res.Baseline.BaselinePlan
		label = fmt.Sprintf("vs your measured run (%s, %s)", res.Baseline.Hardware, ref.Precision)
	}
	base := ref.Time.HoursPerMillionSamples
	if base <= 0 {
		return
	}
	res.SpeedUpBase = label
	for _, e := range res.Plans {
		if e.Time.HoursPerMillionSamples > 0 {
			e.SpeedUp = base / e.Time.HoursPerMillionSamples
		}
	}
}

// Host side of offloaded training: the CPU optimizer step streams every
// offloaded state byte through host memory, gradients go down and updated
// 16-bit weights come up over PCIe; with full offload each micro-batch
// also copies the weights in for forward and backward, partly hidden
// behind compute.
const (
	// hostMemGBsPerNode: achieved host memory bandwidth of a dual-socket
	// server (8-12 DDR4/DDR5 channels per socket reach 150-300 GB/s;
	// CPU Adam reaches about half of it).
	hostMemGBsPerNode = 150.0
	// offloadOverlap: share of a micro-batch's compute that weight and
	// gradient copies hide behind (prefetch on a side stream).
	offloadOverlap = 0.5
)

func (pc *planContext) offloadTime(j Job, h Hardware, l layout, shardParams, heldShard float64, sb stateBytes, tMicro float64, ga int, exposed float64) (tOpt, exp float64) {
	g := h.GPU
	perNode := float64(min(h.Count, gpusPerNode(h)))
	pcie := 12.5
	switch g.PCIeGen {
	case 4:
		pcie = 25
	case 5:
		pcie = 50
	}
	pcie *= pc.prm.LinkEff * 1e9
	host := hostMemGBsPerNode * 1e9 / perNode
	// CPU step: read and write the states, read the gradient.
	tCPU := shardParams * (2*sb.optim + sb.grads + 2) / host
	// PCIe: gradients down, 16-bit weights up.
	tPCIe := shardParams * (sb.grads + 2) / pcie
	exp = exposed
	if j.Offload == OffloadFull {
		// weights in for forward and again for backward, every micro-batch
		wb := 2.0
		if j.Workload == QLoRA {
			wb = nf4BytesPerParam
		}
		perMicro := 2 * heldShard * wb / pcie
		exp += float64(ga) * math.Max(0, perMicro-offloadOverlap*tMicro)
	}
	return tCPU + tPCIe, exp
}

// describeTechniques checks the memory-saving techniques against the job
// and states what each does.
func (pc *planContext) describeTechniques() error {
	j := &pc.job
	if j.Workload == Inference {
		if j.Offload != OffloadNone || j.OptimizerInBackward || j.PureBF16 || j.ContextParallel > 1 {
			return errorf("offload, optimizer-in-backward, pure bf16 and context parallel are training techniques; this is an inference plan")
		}
		return nil
	}
	switch j.Offload {
	case OffloadNone:
	case OffloadOptimizer:
		pc.assume("optimizer offload: optimizer states and fp32 master weights live in host memory and the CPU runs the optimizer step (needs ~%s of host RAM across the job)",
			formatBytes(j.Model.Params()*12))
	case OffloadFull:
		pc.assume("full offload: weights, gradients and optimizer states live in host memory; each layer is copied in over PCIe for its forward and backward (needs ~%s of host RAM across the job)",
			formatBytes(j.Model.Params()*18))
	default:
		return errorf("unknown offload %q: use optimizer or full", j.Offload)
	}
	if j.OptimizerInBackward {
		if j.Workload == LoRA || j.Workload == QLoRA {
			pc.assume("optimizer in backward: adapter gradients are stepped as they arrive (little to save: adapters are small)")
		} else {
			pc.assume("optimizer in backward: each parameter is stepped as soon as its gradient is ready, so only one layer's gradients exist at a time; gradient accumulation is not possible")
		}
	}
	if j.PureBF16 {
		pc.assume("pure bf16: weights, gradients and optimizer states in bf16 with no fp32 master copy (8 bytes per parameter with AdamW); use Kahan summation or stochastic rounding for long runs")
	}
	if cp := j.ContextParallel; cp > 1 {
		if !j.Model.IsTransformer() || j.Model.Kind == VisionViT {
			return errorf("context parallel splits token sequences; %s has none", j.Model.ID)
		}
		pc.assume("context parallel %d: each sequence is split over %d GPUs (ring attention), dividing activations by %d", cp, cp, cp)
	}
	return nil
}

func formatBytes(b float64) string {
	switch {
	case b >= 1e12:
		return trimFloat(math.Round(b/1e11)/10) + " TB"
	default:
		return trimFloat(math.Round(b/1e8)/10) + " GB"
	}
}
