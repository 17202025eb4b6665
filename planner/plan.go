package planner

import (
	"errors"
	"math"
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
	GPU              string    `json:"gpu"`
	GPUName          string    `json:"gpu_name"`
	GPUs             int       `json:"gpus"`
	Nodes            int       `json:"nodes"`
	Server           string    `json:"server,omitempty"`
	Interconnect     string    `json:"interconnect"`
	Precision        Precision `json:"precision"`
	Strategy         string    `json:"strategy"`
	TensorParallel   int       `json:"tensor_parallel"`
	PipelineParallel int       `json:"pipeline_parallel"`
	Checkpointing    bool      `json:"checkpointing"`
	// SelectiveRecompute: the checkpointing keeps part of each layer
	// (Job.SelectiveRecompute).
	SelectiveRecompute bool       `json:"selective_recompute,omitempty"`
	MicroBatch         int        `json:"micro_batch"`
	GradAccum          int        `json:"grad_accum"`
	GlobalBatch        int        `json:"global_batch"`
	Memory             Memory     `json:"memory"`
	Throughput         Throughput `json:"throughput"`
	Time               Time       `json:"time"`
	GPUHours           *float64   `json:"gpu_hours"`
	CostUSD            *float64   `json:"cost_usd"`
	PriceUSDPerGPUH    float64    `json:"price_usd_per_gpu_hour"`
	MFU                float64    `json:"mfu"`
	HFU                float64    `json:"hfu"`
	ModelTFLOPsPerGPU  float64    `json:"model_tflops_per_gpu"`
	HWTFLOPsPerGPU     float64    `json:"hardware_tflops_per_gpu"`
	ScalingEfficiency  float64    `json:"scaling_efficiency"`
	Goodput            float64    `json:"goodput"`
	Notes              []string   `json:"notes"`
	Assumptions        []string   `json:"assumptions"`
	Launch             string     `json:"launch"`
	// HostBound marks an estimate whose pace the host sets: issuing the
	// eager kernels of a step (or of a forward pass) takes longer than
	// the GPU needs to run them, so a faster GPU does not help and a
	// larger batch costs little.
	HostBound bool `json:"host_bound,omitempty"`
	// InferencePath is how an inference estimate was computed: "decode"
	// (prefill + token-by-token generation, tokens/s), "forward" (one
	// compute-bound forward pass per sample: encoders, samples/s) or
	// "images" (CNN/ViT, images/s). Empty for training.
	InferencePath string `json:"inference_path,omitempty"`
	// Serving holds the serving figures (requests/s, TTFT, TPOT, KV
	// capacity) when the request named an engine or a load.
	Serving *Serving `json:"serving,omitempty"`
	// SpeedUp is this plan's speed relative to Result.SpeedUpBase (time
	// per sample there ÷ time per sample here); 0 when not comparing.
	SpeedUp float64 `json:"speed_up,omitempty"`

	hw     Hardware
	layout layout
	// engineTokensPerS: for eager decode, the rate the GPU alone would
	// reach (an engine's), for the advice.
	engineTokensPerS float64
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

// userError is a refusal in the reader's words (written through the
// request's Printer).
func userError(msg string) error { return &Error{Msg: msg} }

// planContext carries the resolved job through one Plan call.
type planContext struct {
	cat *Catalog
	job Job
	// batchAssumed: the request gave no global batch; the plan chose one
	batchAssumed bool
	info         JobInfo
	jobFactor    float64 // from a baseline: measured / modelled speed
	// stepsPending: a step count waits for the default global batch.
	stepsPending bool
	prm          *Params // the model's fitted constants
	// keptPrecision: the job's precision came from the measured run.
	keptPrecision bool
	// eagerDecode: a decoder served by eager PyTorch, named as such
	// (`hf`, `transformers`, `pytorch`, or an attention kernel with no
	// engine): its decode is the host's pace.
	eagerDecode bool
	// pinLayout: the layout said (Job.TensorParallel, PipelineParallel)
	// is the only one tried; set while the measured run, or the targets
	// without one, are planned.
	pinLayout   bool
	assumptions []string
	pr          Printer // the reader's language
}

// Plan answers a request: the named targets, a recommendation search,
// advice and the assumptions behind every number.
func (c *Catalog) Plan(req Request) (*Result, error) {
	pc := &planContext{cat: c, job: req.Job, jobFactor: 1, prm: c.params(), pr: printerOr(req.Printer)}
	if err := pc.resolveJob(); err != nil {
		return nil, err
	}
	res := &Result{Model: modelInfo(pc.job.Model), Compare: req.Compare}
	for _, h := range req.Targets {
		if h.Count < 1 || h.Count > MaxGPUs {
			return nil, userError(pc.pr.Tf("GPU count %d is out of range: a plan takes 1 to %d GPUs", h.Count, MaxGPUs))
		}
		if cp := pc.job.ContextParallel; cp > 1 && h.Count%cp != 0 {
			return nil, userError(pc.pr.Tf("context parallel %d needs a GPU count it divides; %d GPUs do not", cp, h.Count))
		}
		if req.Baseline == nil {
			if err := pc.checkLayout(h); err != nil {
				return nil, err
			}
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
		pc.assume(pc.pr.Tf("precision: your measured run's %s is kept on every target, so the comparison shows the hardware alone (the advice says what bf16 would add)", b.Precision))
	}
	pc.defaultGlobalBatch(req)
	if req.Baseline != nil {
		if err := pc.checkLayout(req.Baseline.Hardware); err != nil {
			return nil, err
		}
		pc.pinLayout = true
		fit, err := pc.rebase(*req.Baseline)
		pc.pinLayout = false
		if err != nil {
			return nil, err
		}
		res.Baseline = fit
		if m := req.Baseline.Model; m != nil && m.ID != pc.job.Model.ID {
			pc.assume(pc.pr.Tf("the measured run was %s: how far it ran from the model's speed carries to %s on the same data", m.ID, pc.job.Model.ID))
		}
	}
	pc.pinLayout = req.Baseline == nil
	for _, h := range req.Targets {
		res.Plans = append(res.Plans, pc.configure(h))
	}
	pc.pinLayout = false
	pc.speedUps(res)
	if !req.NoSearch {
		res.Recommendations = pc.search(req.Pool)
		if pc.job.layoutSaid() && res.Recommendations.Fastest != nil {
			res.Recommendations.Notes = append(res.Recommendations.Notes, pc.pr.T("the tensor/pipeline layout you said is planned on your hardware; these options pick their own"))
		}
	}
	res.Job = pc.info
	res.Assumptions = append(res.Assumptions, pc.assumptions...)
	res.Advice = pc.advise(res, req)
	res.Warnings = pc.warnings(res, req)
	pc.localize(res)
	return res, nil
}

func modelInfo(m Model) ModelInfo {
	return ModelInfo{ID: m.ID, Params: m.Params(), ActiveParams: m.ActiveParams(), Layers: m.Layers,
		Hidden: m.Hidden, Heads: m.Heads, KVHeads: m.kvHeads(), Vocab: m.Vocab, Origin: m.Origin, Source: m.Source}
}

// assume records an assumption, already written for the reader.
func (pc *planContext) assume(text string) {
	pc.assumptions = append(pc.assumptions, text)
}

// resolveJob fills defaults and converts the amount of work to samples.
func (pc *planContext) resolveJob() error {
	j := &pc.job
	m := j.Model
	if m.Params() <= 0 {
		return userError(pc.pr.T("no model: name one (`bert-base`, `llama3-8b`), give a size (`7b params`) or an architecture (`layers 24 hidden 2048 heads 16`)"))
	}
	pc.assumptions = append(pc.assumptions, j.Notes...)
	if j.Workload == "" && j.Preference {
		j.Workload = Finetune // DPO tunes a trained model, whatever its origin
	}
	if j.Workload == "" {
		if m.Origin == "catalogue" && m.Kind != VisionConv && m.Kind != VisionViT {
			j.Workload = Finetune
		} else {
			j.Workload = Pretrain
		}
		pc.assume(pc.pr.Tf("workload not given: planned as %s (say `pretrain`, `finetune`, `lora`, `qlora` or `inference`)", j.Workload))
	}
	if err := pc.preferencePairs(j); err != nil {
		return err
	}
	if err := pc.quantisedTraining(j); err != nil {
		return err
	}
	pc.shippedWeights(j, m)
	pc.eagerDecodeSaid(j, m)
	stackSaid := j.Stack
	if j.Stack == "" {
		pc.defaultStack(j, m)
	}
	if j.Stack == Graph && j.Workload != Inference {
		pc.assume(pc.pr.T("stack: TensorFlow or JAX with XLA: the compiler fuses element-wise operators and issues the step with no Python between them, but its mixed-precision policy keeps the residual stream, norms and softmax in fp32 as autocast does, so memory traffic is planned as eager PyTorch's"))
	}
	pc.inferenceOffload(j)
	pc.resolveLayout()
	if j.Optimizer == "" {
		j.Optimizer = AdamW
	}
	if j.Attention == AttentionDefault {
		j.Attention = Flash
		if m.IsTransformer() && j.Workload != Inference {
			pc.assume(pc.pr.T("attention: FlashAttention/SDPA kernels (no stored seq² scores); say `eager` for the classic implementation"))
		}
	}
	if (j.Workload == LoRA || j.Workload == QLoRA) && j.LoRARank == 0 {
		j.LoRARank = defaultLoRARank
		pc.assume(pc.pr.Tf("LoRA rank 16 on all linear layers (q,k,v,o,gate,up,down): %s trainable parameters", formatParams(loraParams(m, j.LoRARank))))
	}
	pc.qloraCheckpointing(j)
	if (j.Workload == LoRA || j.Workload == QLoRA) && !m.IsTransformer() {
		return userError(pc.pr.Tf("LoRA/QLoRA planning needs a transformer model; %s is not one", m.ID))
	}
	if j.SeqLen == 0 {
		pc.defaultSeq(m)
	}
	if m.IsTransformer() && m.Kind != VisionViT && m.MaxCtx > 0 && j.SeqLen > m.MaxCtx && m.Learned {
		return userError(pc.pr.Tf("seq %d is longer than %s's %d learned positions", j.SeqLen, m.ID, m.MaxCtx))
	}
	if j.Workload == Inference && j.GenTokens == 0 {
		j.GenTokens = min(256, j.SeqLen/2)
	}
	if j.OutputTokPS > 0 && j.RequestRate == 0 && j.Workload == Inference && j.GenTokens > 0 {
		j.RequestRate = j.OutputTokPS / float64(j.GenTokens)
		pc.assume(pc.pr.Tf("a load of %s generated tokens/s is %s requests/s of %d output tokens", trimFloat(j.OutputTokPS), trimFloat(j.RequestRate), j.GenTokens))
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
	if err := pc.resolveAmount(); err != nil {
		return err
	}
	pc.bulkDecode(j, m, stackSaid)
	return nil
}

// bulkDecode plans a decoder's bulk work — an amount of prompts or
// tokens said, and no batch, load, engine or eager stack — as an offline
// batched engine runs it: vLLM's LLM.generate keeps as many sequences in
// flight as the KV cache holds. Planned one sequence at a time, a million
// prompts for an 8B model took 489 H100-hours where the batched run
// takes 44.
func (pc *planContext) bulkDecode(j *Job, m Model, stackSaid Stack) {
	if j.Workload != Inference || forwardOnly(m) || !pc.info.AmountKnown || j.Engine != "" || pc.eagerDecode || stackSaid != "" ||
		j.GlobalBatch > 0 || j.Concurrency > 0 || j.RequestRate > 0 || j.OutputTokPS > 0 || servingJob(*j) {
		return
	}
	j.Engine = EngineVLLM
	pc.assume(pc.pr.T("engine not given: a bulk job runs batched, as vLLM's offline `LLM.generate` does, with as many sequences in flight as the KV cache holds; say `batch N` or another engine"))
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
			return userError(pc.pr.T("`steps/epoch` needs the global batch to turn steps into samples: add `batch N`"))
		}
		epochSamples = j.StepsPerEpoch * float64(j.GlobalBatch)
	}
	var total float64
	switch {
	case j.Epochs > 0 && epochSamples > 0:
		total = j.Epochs * epochSamples
		pc.info.Amount = pc.pr.Tf("%s epochs of %s samples", trimFloat(j.Epochs), countText(pc.pr, epochSamples))
	case j.Epochs > 0:
		pc.info.Amount = pc.pr.Tf("%s epochs (dataset size not given)", trimFloat(j.Epochs))
	case epochSamples > 0:
		total = epochSamples
		pc.info.Amount = pc.pr.Tf("1 epoch of %s samples", countText(pc.pr, epochSamples))
		pc.assume(pc.pr.T("epochs not given: 1 epoch"))
	case j.Tokens > 0:
		total = j.Tokens / seq
		pc.info.Amount = pc.pr.Tf("%s tokens", countText(pc.pr, j.Tokens))
	case j.Samples > 0:
		total = j.Samples
		pc.info.Amount = pc.pr.Tf("%s samples", countText(pc.pr, j.Samples))
	case j.Steps > 0:
		if j.GlobalBatch == 0 {
			// the global batch is chosen with the defaults; the steps
			// become samples then (defaultGlobalBatch)
			pc.stepsPending = true
			pc.info.Amount = pc.pr.Tf("%s steps", countText(pc.pr, j.Steps))
			return nil
		}
		total = j.Steps * float64(j.GlobalBatch)
		pc.info.Amount = pc.pr.Tf("%s steps of %d samples", countText(pc.pr, j.Steps), j.GlobalBatch)
	}
	pc.info.EpochSamples = epochSamples
	if total > 0 {
		pc.info.TotalSamples = total
		pc.info.AmountKnown = true
		if tokenBased {
			pc.info.TotalTokens = total * seq
		}
	} else if j.Workload != Inference {
		pc.info.Amount = strings.TrimSpace(pc.info.Amount + pc.pr.T(" — add a dataset size (`of 2.5M samples` or `of 1B tokens`) for totals; times below are per epoch of 1M samples"))
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
	if j.GlobalBatch == 0 && j.Workload == Inference && forwardOnly(j.Model) && pc.info.AmountKnown {
		pc.assume(pc.pr.T("batch not given: a bulk job runs at the batch where throughput levels off on each GPU (up to 1,024; shown under Batch); say `batch N`"))
	} else if j.GlobalBatch == 0 && j.Workload == Inference && forwardOnly(j.Model) && j.RequestRate > 0 {
		pc.assume(pc.pr.T("batch not given: a server batches the requests that arrive together, up to the batch where throughput levels off on each GPU (an encoder at most TEI's 16,384 tokens); say `batch N`"))
	}
	if j.GlobalBatch > 0 || j.Workload == Inference {
		return
	}
	pc.batchAssumed = true
	pretrainBatch := 1 << int(math.Round(math.Log2(math.Max(1, 524288/float64(max(1, j.SeqLen))))))
	switch {
	case len(req.Targets) > 0 && j.Workload == Pretrain && j.Model.IsTransformer() && pc.choose(req.Targets[0]).GlobalBatch < pretrainBatch:
		// pre-training steps ~0.5M tokens whatever the first target would
		// fit: two sequences a step on 2× A100 made eight H100s split the
		// model (TP4) rather than each take its share of the batch
		j.GlobalBatch = pretrainBatch
		pc.assume(pc.pr.Tf("global batch not given: %d sequences (~0.5M tokens per step); say `batch N`", j.GlobalBatch))
	case len(req.Targets) > 0:
		e := pc.choose(req.Targets[0])
		j.GlobalBatch = e.GlobalBatch
		pc.assume(pc.pr.Tf("global batch not given: %d (micro-batch %d × %d GPUs on %s); every option below keeps it — say `batch N` to set it",
			e.GlobalBatch, e.MicroBatch, e.layout.dp(), e.GPUName))
	case j.Workload == Pretrain && j.Model.IsTransformer():
		// ~0.5M tokens per step, GPT-3-small-like
		j.GlobalBatch = pretrainBatch
		pc.assume(pc.pr.Tf("global batch not given: %d sequences (~0.5M tokens per step); say `batch N`", j.GlobalBatch))
	case !j.Model.IsTransformer():
		j.GlobalBatch = 256
		pc.assume(pc.pr.T("global batch not given: 256 samples; say `batch N`"))
	default:
		j.GlobalBatch = 32
		pc.assume(pc.pr.T("global batch not given: 32 sequences (a common fine-tuning batch); say `batch N`"))
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
		pc.info.Amount = pc.pr.Tf("%s steps of %d samples", countText(pc.pr, j.Steps), j.GlobalBatch)
	}
}

// pickPrecision chooses the precision for the job on g.
func pickPrecision(j Job, g GPU) (Precision, string) { return pickPrecisionIn(english{}, j, g) }

// precisionNote says, for the reader, why the job's precision on g
// differs from what was asked; "" when it does not.
func (pc *planContext) precisionNote(g GPU) string {
	_, note := pickPrecisionIn(pc.pr, pc.job, g)
	return note
}

// pickPrecisionIn chooses the precision for the job on g and says why (in
// pr's words) when it differs from what was asked.
func pickPrecisionIn(pr Printer, j Job, g GPU) (Precision, string) {
	want := j.Precision
	if j.Workload == Inference {
		switch want {
		case INT8, INT4:
			return want, "" // weight-only formats run on any tensor-core GPU via dequant kernels
		case FP8:
			if g.Supports(FP8) {
				return FP8, ""
			}
			return INT8, pr.Tf("%s has no fp8: planned with int8 weights", g.Name)
		case FP32:
			return FP32, ""
		case TF32:
			if g.Supports(TF32) {
				return TF32, ""
			}
			return FP32, pr.Tf("tf32 requested but %s has no tf32: planned as fp32", g.Name)
		case FP16:
			return FP16, ""
		case BF16:
			if g.Supports(BF16) {
				return BF16, ""
			}
			return FP16, pr.Tf("bf16 requested but %s has no bf16: planned as fp16", g.Name)
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
		return FP16, pr.Tf("%s has no bf16: planned as fp16 AMP with loss scaling", g.Name)
	case BF16:
		if g.Supports(BF16) {
			return BF16, ""
		}
		return FP16, pr.Tf("bf16 requested but %s has no bf16: planned as fp16 AMP with loss scaling (GradScaler)", g.Name)
	case TF32:
		if g.Supports(TF32) {
			return TF32, ""
		}
		return FP32, pr.Tf("tf32 requested but %s has no tf32: planned as fp32", g.Name)
	case FP8:
		if g.Supports(FP8) {
			return FP8, ""
		}
		p := FP16
		if g.Supports(BF16) {
			p = BF16
		}
		return p, pr.Tf("fp8 requested but %s has no fp8 tensor cores: planned as %s", g.Name, p)
	}
	return want, ""
}

// IsPlannerError reports whether err is a request the planner refused
// with a user-facing message.
func IsPlannerError(err error) bool {
	var pe *Error
	return errors.As(err, &pe)
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

// shippedWeights serves a checkpoint that ships quantised as published
// (DeepSeek-V3's FP8 weights, GPT-OSS's MXFP4 experts) when an inference
// request names no precision, and says so.
func (pc *planContext) shippedWeights(j *Job, m Model) {
	if j.Workload == Inference && j.Precision == "" && j.Engine == EngineOllama && j.GGUFType == "" {
		// `ollama run qwen3:14b` pulls the library's default tag, Q4_K_M
		j.Precision, j.GGUFType = INT4, "Q4_K_M"
		pc.assume(pc.pr.T("weights: Q4_K_M, what ollama pulls by default; say `q8_0` or `fp16` for another tag"))
		return
	}
	if j.Workload == Inference && j.Precision == "" && m.Shipped != "" {
		j.Precision = m.Shipped
		pc.assume(pc.pr.Tf("weights: %s as the checkpoint ships them (%s); say bf16 to plan the unquantised model", m.ID, m.Shipped))
	}
}

// defaultStack sets the stack of a request that names none, and says so.
func (pc *planContext) defaultStack(j *Job, m Model) {
	j.Stack = HF
	switch {
	case pretrainsAtScale(j.Workload, m):
		j.Stack = Tuned
		pc.assume(pc.pr.T("stack: Megatron-class (tuned): language models of a billion parameters and more are pretrained on Megatron, NeMo, torchtitan or llm-foundry, not an eager Trainer (say `hf` to plan eager PyTorch)"))
	case j.Workload != Inference:
		pc.assume(pc.pr.T("stack: Hugging Face Trainer / eager PyTorch (say `tuned` for fused kernels, FlashAttention, Megatron-class)"))
	}
}

// inferenceOffload reads CPU offload in an inference plan the way local
// engines do it: llama.cpp keeps as many layers on the GPU as fit and runs
// the rest on the CPU ("phi-3 mini inference cpu offload on an 8gb gpu").
// A server engine named with it keeps the error describeTechniques gives.
func (pc *planContext) inferenceOffload(j *Job) {
	if j.Workload != Inference || j.Offload == OffloadNone || (j.Engine != "" && !j.Engine.Local()) {
		return
	}
	j.Offload = OffloadNone
	if j.Engine == "" {
		j.Engine = EngineLlamaCpp
	}
	pc.assume(pc.pr.Tf("CPU offload for inference: %s keeps as many layers on the GPU as fit and runs the rest on the CPU", j.Engine))
}

// pretrainsAtScale reports whether a job is the pretraining of a language
// model of a billion parameters or more: runs that are made on
// Megatron-class stacks (fused kernels, FlashAttention, tensor and pipeline
// parallelism), so that is what the plan assumes when the request names no
// stack. An eager Trainer there would be planned several times slower than
// any published run of that kind (Llama 3 405B on 16,384 H100s: 284 days
// eager against the 30.8M GPU-hours Meta reports, 82 days tuned).
func pretrainsAtScale(w Workload, m Model) bool {
	return w == Pretrain && (m.Kind == Decoder || m.Kind == MoE) && m.ParamsB >= 1
}

// defaultSeq sets the sequence length of a job that said none and says
// so: an image model's patches, an encoder's sentence or passage, a served
// decoder's context, a training run's typical length.
func (pc *planContext) defaultSeq(m Model) {
	j := &pc.job
	switch {
	case m.Kind == VisionViT:
		j.SeqLen = m.MaxCtx
	case !m.IsTransformer():
		j.SeqLen = 1
	case j.Workload == Inference && m.Kind == Encoder:
		// an encoder's input is a sentence or a passage: BERT's 512
		// (bge-m3 takes 8,192, but passages are split far shorter)
		j.SeqLen = min(m.MaxCtx, 512)
		pc.assume(pc.pr.Tf("context not given: %d tokens per sequence (say `ctx 8k`)", j.SeqLen))
	case j.Workload == Inference:
		j.SeqLen = min(max(m.MaxCtx, 512), 4096)
		pc.assume(pc.pr.Tf("context not given: %d tokens per sequence (say `ctx 8k`)", j.SeqLen))
	default:
		j.SeqLen = min(max(m.MaxCtx, 128), 2048)
		if m.Kind == Encoder {
			j.SeqLen = min(m.MaxCtx, 512)
		}
		pc.assume(pc.pr.Tf("sequence length not given: %d tokens (say `seq N`)", j.SeqLen))
	}
}

// preferencePairs turns a preference job's pairs into the sequences the
// GPUs run: a chosen and a rejected answer per pair, in one batch (TRL's
// DPOTrainer concatenates them), so every count of samples and every
// batch doubles; the plan's figures count sequences from here on.
func (pc *planContext) preferencePairs(j *Job) error {
	if !j.Preference {
		return nil
	}
	if j.Workload == Inference || j.Workload == Pretrain {
		return userError(pc.pr.T("DPO trains a model that is already trained: say it with `finetune`, `lora` or `qlora`"))
	}
	j.Samples *= 2
	j.DatasetSamples *= 2
	j.MicroBatch *= 2
	j.GlobalBatch *= 2
	ref := pc.pr.T("a second copy of the weights, frozen")
	if j.Workload == LoRA || j.Workload == QLoRA {
		ref = pc.pr.T("the base with the adapters off, no second copy")
	}
	pc.assume(pc.pr.Tf("DPO: every pair is two sequences (chosen and rejected) in one batch, so samples, batches and rates below count sequences (2 per pair); a frozen reference model scores both every step (%s)", ref))
	return nil
}

// eagerDecodeSaid sets pc.eagerDecode: a decoder run with no serving
// engine on a stack named as eager PyTorch (`hf`, `transformers`), or
// with an attention kernel named ("inference … flash"): that kernel is a
// choice made in a PyTorch program (transformers' attn_implementation,
// LitGPT's generate), where a serving engine picks its own unasked.
func (pc *planContext) eagerDecodeSaid(j *Job, m Model) {
	pc.eagerDecode = j.Workload == Inference && j.Engine == "" && !forwardOnly(m) &&
		(j.Stack == HF || j.Stack == "" && j.Attention != AttentionDefault)
	if pc.eagerDecode && j.Stack == "" {
		j.Stack = HF
		pc.assume(pc.pr.Tf("an attention kernel (`%s`) and no serving engine: planned as PyTorch's own generate loop with that kernel (say `vllm`, `tgi`, `sglang`, `trt-llm` or `llama.cpp` to plan an engine)", j.Attention))
	}
}

// quantisedTraining reads a training job said in an inference weight
// format: 4-bit as QLoRA (NF4 base, bf16 compute), 8-bit LoRA or
// fine-tuning as LoRA on an 8-bit base; anything else is refused.
func (pc *planContext) quantisedTraining(j *Job) error {
	if (j.Precision == INT8 || j.Precision == INT4) && j.Workload != Inference {
		if j.Precision == INT4 && j.Workload == QLoRA {
			j.Precision = "" // "qlora 4bit": the 4-bit base is what QLoRA is; it computes in bf16
		} else if j.Precision == INT4 && (j.Workload == LoRA || j.Workload == Finetune) {
			j.Workload = QLoRA
			j.Precision = ""
			pc.assume(pc.pr.T("4-bit training read as QLoRA (NF4 base, bf16 compute)"))
		} else if j.Precision == INT8 && (j.Workload == LoRA || j.Workload == Finetune) {
			// "lora 8bit", "8bit로 파인튜닝": LoRA on a base loaded in 8 bits
			j.Workload, j.Base8bit, j.Precision = LoRA, true, ""
			pc.assume(pc.pr.T("8-bit training read as LoRA on an 8-bit base (bitsandbytes int8, bf16 compute)"))
		} else {
			return userError(pc.pr.Tf("%s is an inference weight format; to train on a quantised base say `qlora` (4-bit) or `lora 8bit`, otherwise use bf16/fp16/fp8", j.Precision))
		}
	}
	return nil
}

// qloraCheckpointing turns checkpointing on for a QLoRA job that says
// nothing of it: the run people launch — peft's
// prepare_model_for_kbit_training (use_gradient_checkpointing=True by
// default), Unsloth's notebooks and torchtune's QLoRA recipes all turn
// it on.
func (pc *planContext) qloraCheckpointing(j *Job) {
	if j.Workload == QLoRA && !j.Checkpointing && !j.NoCheckpointing {
		j.Checkpointing = true
		pc.assume(pc.pr.T("checkpointing: on, as QLoRA recipes run it (peft's prepare_model_for_kbit_training, Unsloth, torchtune); say `no ckpt` to plan without"))
	}
}
