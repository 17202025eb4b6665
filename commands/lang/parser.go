package lang

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/planner"
)

// ---------------------------------------------------------------------------
// The parser

// reqSlot is a value the request may give once; a second, different value is
// a contradiction.
type reqSlot[T comparable] struct {
	v    T
	word string // the words that set it, as typed
	set  bool
}

type reqBatch struct {
	n      int
	tokens bool
}

type reqParser struct {
	notes []text // the sentences of req.Job.Notes, in order
	// ask is the question the canonizer read; runFor a span of time said
	// for the run ("on 8 h100s for 2 days", "a100 4장 10시간" with its
	// cost asked): the hardware held that long, not a measured run.
	ask         Ask
	runFor      time.Duration
	runForWords string
	mfuSpan     string // "mfu 40%" said before the GPUs it is assumed on
	cat         *planner.Catalog
	text        string
	toks        []reqToken
	i           int
	req         planner.Request

	// model
	model    reqSlot[string] // "cat:<id>" or "params:<n>"
	catModel planner.Model
	modelAt  int // the token the catalogue model was named at
	modelEnd int // the end of its last mention
	// lastMention: where the model was last named
	lastMention int
	// secondA, secondB: where a second catalogue model was first named
	secondA, secondB int
	earlier          *namedModel // a first catalogue model, when a second was named (pickModel)
	params           float64
	arch             planner.ArchSpec
	archWords        []string
	archSlots        map[string]*reqSlot[int]
	kind             reqSlot[planner.ModelKind]

	// work
	epochs, samples, tokens, steps     reqSlot[float64]
	dsSamples, dsTokens, stepsPerEpoch reqSlot[float64]
	workload                           reqSlot[planner.Workload]
	seq, micro, rank, gen              reqSlot[int]
	accum                              reqSlot[int] // gradient accumulation steps (gradient_accumulation_steps 8)
	batch                              reqSlot[reqBatch]
	precision                          reqSlot[planner.Precision]
	precisionEnd                       int                        // the token after the precision last read
	precisionPair                      [2]planner.Precision       // two float formats said side by side ("bf16 vs fp8"): both planned
	precisionMiddle                    reqSlot[planner.Precision] // the middle of three formats said side by side
	distill, distillNoted              bool                       // knowledge distillation said: of two models, the smaller is trained (and the note says so)
	amp, mixed                         bool
	attention                          reqSlot[planner.Attention]
	strategy                           reqSlot[planner.Strategy]
	optimizer                          reqSlot[planner.Optimizer]
	stack                              reqSlot[planner.Stack]
	kernels                            bool                     // torch.compile or Liger named: fused kernels on any framework
	openCount                          int                      // a GPU count said with no GPU named ("on 8 gpus")
	layoutGPUs                         int                      // the GPUs a said layout spans ("tp 2 pp 2": 4), 0 when none
	teamModels                         map[string]planner.Model // Env.Models
	perGPU                             bool                     // the measured rate was said per GPU ("tokens/s/gpu")
	// its is a measured run given in iterations per second: usable only
	// when the work is counted in the same steps (its refusal otherwise).
	its struct {
		span string
		err  error
	}
	interconnect                   reqSlot[planner.Interconnect]
	compare                        bool
	compareWord                    string
	vocab                          []string
	modelNames, modelNorms, gpuSet map[string]bool

	// servers are the team's servers by name; skipped the words read as
	// filler; counted marks targets whose count was written.
	servers      map[string]planner.Hardware
	skipped      []string
	counted      []bool
	lastCounted  bool
	standIn      bool
	rl           string // a reinforcement-learning method named ("GRPO"): its policy update is planned
	tpAsked      bool   // tensor parallelism named with no degree ("텐서병렬 써야하나"): whether the plan needs it
	bf16Named    bool   // bf16 was named, even when another format won ("bf16 안 된다던데 fp16 써도 돼요?")
	baselineAt   int    // the token the measured run starts at
	graphWord    bool   // a graph runtime was named (reqGraphRuntimes)
	graphTrainer bool   // one people train in (reqGraphTrainers)
	// workScale: "the dataset is 3x bigger" than the measured run's
	workScale      float64
	workScaleWords string
	// alts are the corrections' fallbacks, serverOrder the team's
	// servers as the servers file lists them (suggest.go).
	alts        map[string]hintAlt
	serverOrder []string
	resolve     func(string) (planner.Model, error)
	serve       servingState // the serving words (engine.go)
	// thenServe: a training workload and serving said in that order
	// ("lora 학습하고 vllm으로 서빙까지", "fine-tune … then serve it"):
	// the training is the job, serveJob the serving after it.
	largest    bool            // the largest model is asked: none need be named (canonizer.largest)
	familyTop  bool            // the family's largest member asked by name ("라마 제일 큰 거")
	chatFamily bool            // a chatbot said: a family alone is its chat-sized member ("사내 챗봇에 라마")
	sizeAsked  bool            // and none was: the model is a stand-in for the size asked
	largestOf  []planner.Model // a family named with it: its members, the sizes to try
	thenServe  bool
	serveJob   *planner.Job
	workloadAt int // the token of the workload word
	// workloadAssumed says why a workload the request did not name was
	// chosen by the reading ("from int4; say qlora to train").
	workloadAssumed string
}

// standInModel plans a measured run whose model was not named: the ratio of
// the measured hardware's speed to the target's is what matters, and a
// BERT-base-sized transformer is the seeds' own case (LogBERT).
const standInModel = "bert-base-uncased"

// standInAdapters stands in for a measured LoRA or QLoRA run: adapters
// are trained on an LLM, most often one of about 8B on a single card.
const standInAdapters = "llama-3.1-8b"

func (p *reqParser) tok(i int) reqToken {
	if i < 0 || i >= len(p.toks) {
		return reqToken{start: len(p.text), end: len(p.text)}
	}
	return p.toks[i]
}

// span is the text of tokens [a, b) as typed.
func (p *reqParser) span(a, b int) string {
	if a >= len(p.toks) || b <= a {
		return ""
	}
	b = min(b, len(p.toks))
	return reqShort(p.text[p.toks[a].start:p.toks[b-1].end])
}

// reqShort keeps echoed words readable.
func reqShort(s string) string {
	if utf8.RuneCountInString(s) <= 48 {
		return s
	}
	r := []rune(s)
	return string(r[:45]) + "…"
}

// set records v for s, or fails when s already holds a different value.
func reqSet[T comparable](p *reqParser, s *reqSlot[T], v T, a, b int, plural string) error {
	if s.set {
		if s.v == v {
			return nil
		}
		return said(en.Tf("two %s: `%s` and `%s` — which one?", pluralText(plural), s.word, p.span(a, b)), &UserError{
			Hint: p.try(a, b, ""),
		})
	}
	*s = reqSlot[T]{v: v, word: p.span(a, b), set: true}
	return nil
}

// note adds an assumption the reader made to the job's notes, in English,
// keeping its sentence so a reply in another language can say it
// (Reading.NotesIn).
func (p *reqParser) note(t text) {
	if s := t.String(); s != "" && !slices.Contains(p.req.Job.Notes, s) {
		p.req.Job.Notes = append(p.req.Job.Notes, s)
		p.notes = append(p.notes, t)
	}
}

// noteRes notes how the catalogue resolved a name.
func (p *reqParser) noteRes(res planner.Resolution) {
	switch {
	case res.Name != "" && len(res.Others) > 0:
		p.note(en.Tf("`%s` read as %s (others: %s)", res.Name, res.As, strings.Join(res.Others, ", ")))
	case res.Name != "":
		p.note(en.Tf("`%s` read as %s", res.Name, res.As))
	case res.Note != "":
		p.note(text{key: res.Note, plain: true})
	}
}

func (p *reqParser) run() error {
	for p.i < len(p.toks) {
		if err := p.step(); err != nil {
			return err
		}
	}
	if b := p.req.Baseline; b != nil && b.Unit == planner.MFU && b.Hardware.Count == 0 {
		if len(p.req.Targets) == 0 {
			return said(en.Tf("`%s` needs the GPUs it is assumed on, like `on 64x h100`", p.mfuSpan), &UserError{Hint: reqEg(p.mfuSpan + " on 64x h100")})
		}
		b.Hardware = p.req.Targets[0] // "mfu 0.35 … on 64x h100"
	}
	return p.finish()
}

// step reads one phrase at p.i.
func (p *reqParser) step() error {
	t := p.toks[p.i]
	if t.w == "," || t.w == "=" || reqFillers[t.w] {
		p.i++
		return nil
	}
	if ok, err := p.servingWord(); ok || err != nil {
		return err
	}
	if kw, ok := reqKeywords[t.w]; ok && !p.serverNotWord(t.w) {
		return p.keyword(kw)
	}
	if t.w[0] == '-' && reqStartsNumber(t.w[1:]) {
		return said(en.Tf("`%s` is negative; amounts and sizes are positive", reqShort(t.raw)), &UserError{Hint: p.try(p.i, p.i+1, strings.TrimLeft(t.raw, "-"))})
	}
	if reqStartsNumber(t.w) {
		return p.number()
	}
	if ref, ok := strings.CutPrefix(t.w, hubMark); ok {
		return p.hubModel(ref)
	}
	if ok, err := p.catalogModel(); ok || err != nil {
		return err
	}
	if hw, ok, err := p.hardware(false); err != nil {
		return err
	} else if ok {
		p.req.Targets = append(p.req.Targets, hw)
		p.counted = append(p.counted, p.lastCounted)
		return nil
	}
	if p.serverLike(t.w) {
		return p.unknownServer(p.i) // "server-x": not one of the team's
	}
	if gpuOnlyWords[t.w] {
		return p.vendorGPU(p.i) // "gtx 1660", "tpu v4": a GPU the catalogue lacks
	}
	if size, ok := sizeInName(t.w); ok && p.suggest(t.w, nil) == "" {
		// "llama-3.2-11b-vision", "gpt-neox-20b": an id the catalogue
		// lacks that carries its size
		if err := p.setParams(size, p.i, p.i+1); err != nil {
			return err
		}
		p.note(en.Tf("`%s` is not in the catalogue: planned as a model of %s parameters, the size in its name", t.raw, reqTrimNum(size/1e9)+"B"))
		p.i++
		return nil
	}
	if k := p.nameBeforeSize(p.i); k > 0 {
		// "internlm2 20b", "exaone 3.5 7.8b": a model the catalogue
		// lacks, planned by the size said after its name
		for range k {
			p.skipped = append(p.skipped, p.tok(p.i).raw)
			p.i++
		}
		return nil
	}
	if appleSilicon(t.w) {
		return p.unknownGPU(p.i, t.w, 0) // "맥북에서 돌아가?": a Mac, never skipped for a plan elsewhere
	}
	if p.skippable(p.i) {
		p.skipped = append(p.skipped, t.raw)
		p.i++
		return nil
	}
	return p.unknown(p.i, nil)
}

// sizeInName is the parameter count a model id carries among its parts
// ("llama-3.2-11b-vision" → 11e9); the id must have letters besides it.
func sizeInName(w string) (float64, bool) {
	parts := nameParts(w)
	if len(parts) < 2 {
		return 0, false
	}
	for _, part := range parts {
		if size, ok := paramSize(part); ok && size >= 100e6 && strings.HasSuffix(part, "b") {
			return size, true
		}
	}
	return 0, false
}

// nameBeforeSize is how many tokens at i name a model the catalogue lacks
// right before its size: a word close to nothing the language reads
// ("internlm2 20b"), with a version number after it ("exaone 3.5 7.8b");
// 0 when the size does not follow.
func (p *reqParser) nameBeforeSize(i int) int {
	// the canonizer marks a size it read as the model's ("20b-params")
	size := func(w string) bool {
		s, ok := strings.CutSuffix(w, "-params")
		return ok && isParamSize(s)
	}
	k := 0
	switch {
	case size(p.tok(i + 1).w):
		k = 1
	default:
		if n, unit, ok := reqScanNumber(p.tok(i + 1).w); ok && unit == "" && n.v < 100 && size(p.tok(i+2).w) {
			k = 2
		}
	}
	// the suggestion search last: skippable asks it again for every
	// other unknown word
	if w := p.tok(i).w; k == 0 || !strings.ContainsAny(w, "abcdefghijklmnopqrstuvwxyz") || p.suggest(w, nil) != "" {
		return 0
	}
	return k
}

// withModelFor is text with the first of the skipped words replaced by a
// catalogue model and the other skipped words left out.
func withModelFor(text string, skipped []string) string {
	left := slices.Clone(skipped)
	var out []string
	model := "bert-base"
	for _, f := range strings.Fields(text) {
		if k := slices.Index(left, strings.Trim(f, ",.?!")); k >= 0 {
			left = slices.Delete(left, k, k+1)
			if model != "" {
				out = append(out, model)
				model = ""
			}
			continue
		}
		out = append(out, f)
	}
	if model != "" {
		out = append([]string{model}, out...)
	}
	return strings.Join(out, " ")
}

// reqSoftware are frameworks and servers people name that the planner
// has no model of: passed over (and said so) even where they look like a
// GPU (`triton`, `titan`) or a precision (`tf2`, `tf32`), as the graph
// runtimes (reqGraphRuntimes) are when they serve no forward-only model.
var reqSoftware = map[string]bool{
	"triton": true, "triton-server": true, "tritonserver": true, "openvino": true, "fastertransformer": true,
	"mxnet": true, "paddle": true, "paddlepaddle": true, "keras": true,
}

// reqGraphRuntimes are the software names that serve a forward-only model
// as a graph issued from C++ (planner.EngineGraph); named for a decoder's
// inference they are passed over like the rest.
var reqGraphRuntimes = map[string]bool{
	"tf2": true, "tf1": true, "tensorflow": true, "tensorflow2": true, "xla": true, "jax": true, "flax": true,
	"onnx": true, "onnxruntime": true, "onnx-runtime": true, "torchscript": true,
}

// reqGraphTrainers are the graph runtimes people train in: a training
// job named with one runs as planner.Graph.
var reqGraphTrainers = map[string]bool{
	"tf2": true, "tf1": true, "tensorflow": true, "tensorflow2": true, "xla": true, "jax": true, "flax": true,
}

// skippable reports whether the word at i can be passed over as filler: a
// word of letters only that is close to nothing the language reads. A
// word with digits may be a size or a GPU and is never skipped; a typo of
// a known word gets its suggestion instead.
func (p *reqParser) skippable(i int) bool {
	t := p.tok(i)
	if reqGraphRuntimes[t.w] {
		p.graphWord = true
		p.graphTrainer = p.graphTrainer || reqGraphTrainers[t.w]
		return true
	}
	if reqSoftware[t.w] {
		return true
	}
	for _, r := range t.w {
		if r >= '0' && r <= '9' || r == '/' || r == '=' {
			return false
		}
	}
	return p.suggest(t.w, nil) == ""
}

// known reports whether token i is a word the language reads (so that an
// error about the word before it should not blame it).
func (p *reqParser) known(i int) bool {
	t := p.tok(i)
	if t.w == "" || t.w == "," || t.w == "=" || reqFillers[t.w] || reqStartsNumber(t.w) {
		return true
	}
	if _, ok := reqKeywords[t.w]; ok {
		return true
	}
	if reqUnitClass(t.w) > reqUUnknown {
		return true
	}
	if _, _, err := p.cat.Model(t.w); err == nil || reqAmbiguous(err) {
		return true
	}
	return p.isGPU(t.w)
}

func reqAmbiguous(err error) bool {
	var nf *planner.NotFoundError
	return errors.As(err, &nf) && nf.Ambiguous
}

func (p *reqParser) isGPU(w string) bool {
	_, _, err := p.cat.GPU(w)
	return err == nil
}

// unknown is the error for a word nothing reads. prefer, when given, is
// searched for a suggestion before the whole vocabulary.
func (p *reqParser) unknown(i int, prefer []string) error {
	t := p.tok(i)
	if c := reqUnitClass(t.w); c > reqUUnknown {
		return p.needNumber(i, c)
	}
	if appleSilicon(t.w) {
		return p.unknownGPU(i, t.w, 0) // "m2 ultra에서": a Mac, said so
	}
	if !p.model.set && p.arch.IsZero() {
		if err := familyRefusal(t.raw, true); err != nil {
			return err // "yolov8 학습", "sd15 finetune", "efficientdet-d0": a family with no path, not a slip for a catalogue name
		}
	}
	sug := p.suggest(t.w, prefer)
	if sug == "" && !p.model.set && p.arch.IsZero() && modelish(t.w) {
		// a model the catalogue lacks, named where the model goes
		return said(en.Tf("which model? I do not know `%s` — name a catalogue model (`bert-base`, `llama3-8b`), give its size (`7b params`) or an architecture (`layers 24 hidden 2048 heads 16`)",
			reqShort(t.raw)), &UserError{Hint: "e.g. with a model: gpuplan plan " + withModelFor(p.text, []string{t.raw})})
	}
	if sug == "" {
		if err := familyRefusal(p.text, false); err != nil && !p.model.set {
			return err // "욜로 v8 학습": the family named, its version not a word of its own
		}
		return said(en.Tf("I don't understand `%s`", reqShort(t.raw)), &UserError{Hint: reqKinds})
	}
	p.loadVocab()
	msg := en.Tf("I don't understand `%s` — did you mean `%s`?", reqShort(t.raw), sug)
	switch {
	case p.modelNames[sug]:
		msg = en.Tf("unknown model `%s` — did you mean `%s`?", reqShort(t.raw), sug)
	case p.gpuSet[sug]:
		msg = en.Tf("unknown GPU `%s` — did you mean `%s`?", reqShort(t.raw), sug)
	}
	return said(msg, &UserError{Hint: p.fix(i, i+1, sug)})
}

// suggest returns the nearest word to w, from prefer first, then from the
// whole vocabulary; "" when nothing is close or w is too short to judge.
func (p *reqParser) suggest(w string, prefer []string) string {
	if len(reqNorm(w)) < 3 {
		return ""
	}
	if len(prefer) > 0 {
		if s := planner.Nearest(w, prefer, 1); len(s) > 0 && closeEnough(w, s[0]) {
			return s[0]
		}
	}
	p.loadVocab()
	if s := planner.Nearest(w, p.vocab, 1); len(s) > 0 && closeEnough(w, s[0]) {
		return s[0]
	}
	return ""
}

// closeEnough is the similarity a suggestion must have: a word of four
// letters or fewer is one edit from it ("h1000" → "h100"), a longer word
// with the same first letter two (a typo or a transposition; people seldom
// mistype the first letter), measured on the folded names, so short
// common words ("can", "use", "gpu") never match a keyword.
func closeEnough(w, s string) bool {
	a, b := reqNorm(w), reqNorm(s)
	if strings.HasPrefix(b, a) && len(a) >= 3 || strings.HasPrefix(a, b) && len(b) >= 3 {
		return true // "bert-bas", "h100s": a prefix or an extension
	}
	limit := 1
	if len(a) >= 6 && a[0] == b[0] {
		limit = 2 // two slips, the first letter kept: "logbert" is not "kobert"
	}
	return osa(a, b) <= limit
}

func (p *reqParser) loadVocab() {
	if p.vocab != nil {
		return
	}
	v := modelNameIndex(p.cat).vocabulary(p.cat)
	p.vocab, p.modelNames, p.gpuSet, p.modelNorms = v.all, v.modelNames, v.gpuSet, v.modelNorms
}

// gpuFamilies lists the short GPU names, for hints.
func (p *reqParser) gpuFamilies() string {
	var fam []string
	for _, n := range p.cat.GPUNames() {
		if !strings.Contains(n, "-") && !slices.Contains(fam, n) {
			fam = append(fam, n) // families ("h100") and one-word ids ("t4")
		}
	}
	return "GPUs I know: " + strings.Join(fam, ", ")
}

// reqNorm folds a name the way the catalogue does: lower case letters and
// digits, '.' as 'p'.
func reqNorm(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '.':
			b.WriteByte('p')
		}
	}
	return b.String()
}

// ---------------------------------------------------------------------------
// Putting it together

// finish is long on purpose: it is the list of checks that span phrases
// (amounts, shape, precision, interconnect), in the order they apply.
func (p *reqParser) finish() error {
	j := &p.req.Job
	// model
	if err := p.pickModel(); err != nil {
		return err
	}
	if err := p.scaleWork(); err != nil {
		return err
	}
	m, err := p.buildModel()
	if err != nil {
		return err
	}
	j.Model = m

	p.tokensAsSeqLen()
	// amounts: bare samples/tokens are the dataset when epochs are given
	if p.epochs.set {
		for _, mv := range []struct{ from, to *reqSlot[float64] }{{&p.samples, &p.dsSamples}, {&p.tokens, &p.dsTokens}} {
			if !mv.from.set {
				continue
			}
			if mv.to.set && mv.to.v != mv.from.v {
				return said(en.Tf("two dataset sizes: `%s` and `%s` — which one?", mv.to.word, mv.from.word), &UserError{Hint: reqExample})
			}
			*mv.to, *mv.from = *mv.from, reqSlot[float64]{}
		}
	}
	if err := p.one("amounts of work", &p.epochs, &p.samples, &p.tokens, &p.steps); err != nil {
		return err
	}
	if err := p.one("dataset sizes", &p.dsSamples, &p.dsTokens, &p.stepsPerEpoch); err != nil {
		return err
	}
	j.Epochs, j.Samples, j.Tokens, j.Steps = p.epochs.v, p.samples.v, p.tokens.v, p.steps.v
	if p.its.err != nil {
		if j.Steps == 0 {
			return p.its.err
		}
		p.note(en.Tf("`%s` read as optimizer steps per second, the steps the work is counted in", p.its.span))
	}
	j.DatasetSamples, j.DatasetTokens, j.StepsPerEpoch = p.dsSamples.v, p.dsTokens.v, p.stepsPerEpoch.v

	// shape
	j.Workload = p.workload.v
	j.SeqLen = p.seq.v
	if p.batch.v.tokens {
		j.GlobalBatchTokens = p.batch.v.n
	} else {
		j.GlobalBatch = p.batch.v.n
	}
	j.MicroBatch = p.micro.v
	if p.accum.set && j.GlobalBatch == 0 && j.GlobalBatchTokens == 0 {
		// per_device_train_batch_size 4 gradient_accumulation_steps 8 on
		// 4 GPUs: the global batch is 4 × 8 × 4
		gpus := 1
		if len(p.req.Targets) > 0 && !p.req.Compare {
			gpus = p.req.Targets[0].Count
		}
		j.GlobalBatch = max(j.MicroBatch, 1) * p.accum.v * gpus
	}
	if j.GlobalBatch > 0 && j.MicroBatch > j.GlobalBatch {
		return said(en.Tf("micro-batch `%s` is larger than the global batch `%s`", p.micro.word, p.batch.word), &UserError{Hint: "the global batch is GPUs × micro-batch × accumulation steps, e.g. batch 128 = 4x32"})
	}
	if j.GlobalBatchTokens > 0 && j.SeqLen > 0 && j.GlobalBatchTokens < j.SeqLen {
		return said(en.Tf("`%s` is less than one sequence of `%s`", p.batch.word, p.seq.word), &UserError{Hint: "batch in tokens = sequences × seq, e.g. batch 1M tokens with seq 2048"})
	}
	j.LoRARank = p.rank.v
	j.GenTokens = p.gen.v
	if j.GenTokens > 0 && j.SeqLen > 0 && j.GenTokens >= j.SeqLen {
		return said(en.Tf("`%s` leaves no room for a prompt in `%s`: the context counts prompt and generated tokens", p.gen.word, p.seq.word), &UserError{
			Hint: reqEg(fmt.Sprintf("ctx %d gen %d", j.SeqLen, max(1, j.SeqLen/4))),
		})
	}

	// precision: an explicit format wins over `amp` and `mixed`
	j.Precision = p.precision.v
	if j.Precision == "" {
		switch {
		case p.amp:
			j.Precision = planner.FP16
		case p.mixed:
			p.note(en.T("`mixed` read as mixed precision: the best 16-bit format the GPU supports (bf16, else fp16)"))
		}
	}
	j.Attention, j.Strategy, j.Optimizer, j.Stack = p.attention.v, p.strategy.v, p.optimizer.v, p.stack.v
	if err := p.finishServing(); err != nil {
		return err
	}

	// interconnect given outside a hardware clause applies to every target
	if p.interconnect.set {
		if len(p.req.Targets) == 0 {
			return said(en.Tf("`%s` says how GPUs connect, but no GPUs are named — put it after them, like `on 8x a100 %s`", p.interconnect.word, p.interconnect.word), &UserError{
				Hint: reqEg("on 8x a100 " + p.interconnect.word),
			})
		}
		for k := range p.req.Targets {
			if p.req.Targets[k].Interconnect == planner.InterconnectAuto {
				p.req.Targets[k].Interconnect = p.interconnect.v
			}
		}
	}
	if !p.compare {
		p.req.Targets, p.counted = ownGPUsOfServer(p.req.Targets, p.counted)
		p.req.Targets = sameHardwareOnce(p.req.Targets)
		if len(p.req.Targets) == 1 && len(p.counted) > 1 {
			// "t4 여러 장으로 … t4 몇 장": one GPU named twice, counted if either said a count
			p.counted = []bool{slices.Contains(p.counted, true)}
		}
	}
	if p.compare && len(p.req.Targets) < 2 {
		return said(en.Tf("`%s` needs at least two setups, like `compare h200x4, a100x4`", p.compareWord), &UserError{Hint: reqEg("compare h200x4, a100x4")})
	}
	p.req.Compare = len(p.req.Targets) >= 2
	return nil
}

// one fails when more than one of the slots is set.
func (p *reqParser) one(plural string, slots ...*reqSlot[float64]) error {
	var words []string
	for _, s := range slots {
		if s.set {
			words = append(words, s.word)
		}
	}
	if len(words) > 1 {
		return said(en.Tf("two %s: `%s` and `%s` — which one?", pluralText(plural), words[0], words[1]), &UserError{Hint: reqExample})
	}
	return nil
}

// buildModel makes the one model the request names: a catalogue entry
// (with architecture overrides), a size, or an architecture.
func (p *reqParser) buildModel() (planner.Model, error) {
	spec := p.arch
	spec.Kind = p.kind.v
	archText := strings.Join(p.archWords, " ")
	var m planner.Model
	var err error
	switch {
	case strings.HasPrefix(p.model.v, "cat:"):
		base := p.catModel
		if spec.Kind == base.Kind {
			spec.Kind = ""
		}
		m = base
		if !spec.IsZero() {
			m, err = planner.ModelFromArch(&base, spec)
		}
	case strings.HasPrefix(p.model.v, "params:"):
		// A size takes a vocabulary and a kind ("65.2b params vocab 32000"):
		// the count stays as given, the shape is the size ladder's. Other
		// architecture words would contradict the count.
		if shape := (planner.ArchSpec{Layers: p.arch.Layers, Hidden: p.arch.Hidden, Heads: p.arch.Heads,
			KVHeads: p.arch.KVHeads, FFN: p.arch.FFN}); !shape.IsZero() {
			return m, said(en.Tf("two models: `%s` and `%s` — give a size or an architecture, not both", p.model.word, archText), &UserError{Hint: reqEg("7b params", "layers 24 hidden 2048 heads 16")})
		}
		m, err = planner.ModelFromParams(p.params)
		if err == nil && spec.Kind != "" {
			m.Kind = spec.Kind
		}
		if err == nil && spec.Vocab > 0 {
			m.Vocab = spec.Vocab
		}
	case !p.arch.IsZero():
		m, err = planner.ModelFromArch(nil, spec)
	case p.req.Baseline != nil || p.largest:
		m, err = p.standInModel()
	default:
		// an example with a model, labelled as one: the model is not the
		// user's to be slipped into their request
		if err := p.familyNamed(); err != nil {
			return m, err
		}
		if um, ok := p.useModel(); ok {
			m = um // "ChatGPT 같은 챗봇", "사내 문서 검색용 임베딩": a common model for the use
			break
		}
		if slices.ContainsFunc(p.skipped, func(w string) bool { return !plainWords[strings.ToLower(w)] }) && utf8.RuneCountInString(p.text) <= 300 {
			// "sdxl 학습 4090": the word that names the model is one
			// the catalogue lacks, so say that rather than ask for one,
			// and show a model in its place
			return m, said(en.Tf("which model? I do not know `%s` — name a catalogue model (`bert-base`, `llama3-8b`), give its size (`7b params`) or an architecture (`layers 24 hidden 2048 heads 16`)",
				reqShort(strings.Join(p.skipped, " "))), &UserError{Hint: "e.g. with a model: gpuplan plan " + withModelFor(p.text, p.skipped)})
		}
		hint := "e.g. with a model: gpuplan plan bert-base " + p.text
		if low := strings.ToLower(p.text); strings.Contains(low, "scratch") || strings.Contains(low, "처음부터") {
			// "train our own model from scratch": a size to start from
			hint = "e.g. with a size: gpuplan plan 1b params pretrain 20B tokens"
		}
		if p.text == "" || utf8.RuneCountInString(p.text) > 300 {
			hint = reqExample
		}
		return m, said(en.T("which model? name one (`bert-base`, `llama3-8b`), give a size (`7b params`) or an architecture (`layers 24 hidden 2048 heads 16`)"), &UserError{
			Hint: hint,
		})
	}
	if err != nil {
		msg := err.Error()
		if !strings.Contains(msg, "`") {
			what := archText
			if what == "" {
				what = p.model.word
			}
			return m, said(en.Tf("`%s`: %s", what, msg), &UserError{Hint: reqEg("layers 24 hidden 2048 heads 16 vocab 50k")})
		}
		return m, &UserError{Msg: msg, Hint: reqEg("layers 24 hidden 2048 heads 16 vocab 50k")}
	}
	if params := m.Params(); math.IsNaN(params) || math.IsInf(params, 0) || params <= 0 || params > 5e12 {
		return m, said(en.Tf("`%s` works out to %s parameters, outside the 1M–5T gpuplan plans for", archText, reqParamsText(params)), &UserError{Hint: reqEg("layers 24 hidden 2048 heads 16 vocab 50k")})
	}
	return m, nil
}

func reqParamsText(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0) || v >= 1e15:
		return "over 1000T"
	case v >= 1e12:
		return strconv.FormatFloat(v/1e12, 'g', 3, 64) + "T"
	case v >= 1e9:
		return strconv.FormatFloat(v/1e9, 'g', 3, 64) + "B"
	default:
		return strconv.FormatFloat(v/1e6, 'g', 3, 64) + "M"
	}
}

// ownGPUsOfServer reads a team server named beside its own GPU type as
// that many of the server's GPUs: "서버 V에 있는 V100 32GB 한 장", "에이
// 서버 A100 네 장" name one setup (server-v × 1, server-a × 4), not two to
// compare. The type named again with no count ("on server-v, given V100s
// …") leaves the server whole.
func ownGPUsOfServer(targets []planner.Hardware, counted []bool) ([]planner.Hardware, []bool) {
	if len(targets) != 2 {
		return targets, counted
	}
	for _, k := range [][2]int{{0, 1}, {1, 0}} {
		srv, g := targets[k[0]], targets[k[1]]
		if srv.Server == "" || g.Server != "" || g.GPU.ID != srv.GPU.ID || g.Count < 1 || g.Count > srv.Count {
			continue
		}
		wasCounted := true
		if k[1] < len(counted) {
			wasCounted = counted[k[1]]
		}
		part := srv
		if wasCounted {
			part.Count = g.Count
			if len(part.IDs) > g.Count {
				part.IDs = part.IDs[:g.Count]
			}
		} else if k[0] < len(counted) {
			wasCounted = counted[k[0]] // "server-v … V100s": the type named again, the server whole
		}
		return []planner.Hardware{part}, []bool{wasCounted}
	}
	return targets, counted
}

// tokensAsSeqLen reads a token count said beside a sample count as each
// sample's length when no sequence length is given and the count is one
// a sequence can have ("5만 샘플 2048 토큰", "50k samples, 4096 tokens"):
// two amounts of work that would otherwise be refused as a conflict.
func (p *reqParser) tokensAsSeqLen() {
	t := p.tokens.v
	if !p.samples.set || !p.tokens.set || p.seq.set || t < 16 || t > maxSeqAsTokens || t != float64(int(t)) {
		return
	}
	p.seq = reqSlot[int]{v: int(t), word: p.tokens.word, set: true}
	p.note(en.Tf("`%s` beside `%s` read as each sample's length", p.tokens.word, p.samples.word))
	p.tokens = reqSlot[float64]{}
}

// maxSeqAsTokens is the longest token count read as a sequence length
// beside a sample count (the longest contexts the catalogue's models have).
const maxSeqAsTokens = 1 << 20

// modelish reports whether w looks like a model's name: letters with a
// version or size in digits ("yolov8", "sd15", "efficientnet-b0"), not a
// number with a unit.
func modelish(w string) bool {
	letters, digits := 0, 0
	for _, r := range w {
		switch {
		case r >= 'a' && r <= 'z':
			letters++
		case r >= '0' && r <= '9':
			digits++
		case r == '-' || r == '.' || r == '_':
		default:
			return false
		}
	}
	return letters >= 2 && digits >= 1 && !reqStartsNumber(w)
}

// plainWords are everyday words a request may skip where a model's name
// could stand ("our own model", "a small experiment", "a custom model"):
// no unknown model to name back to the asker.
var plainWords = map[string]bool{"own": true, "small": true, "big": true, "large": true, "new": true, "custom": true, "simple": true,
	"quick": true, "experiment": true, "experiments": true, "test": true, "tiny": true, "first": true, "some": true, "any": true}

// standInModel is the model planned when none is named but none need be:
// a measured run ("LogBERT took 5.67 h/epoch on 4x V100 — on server-h?")
// carries the speed, so a stand-in of the measured kind plans the ratio
// and the reading says so; the largest model asked ("the biggest model
// that fits a 4090") has its size found by the answer, a 7B standing in
// until then.
func (p *reqParser) standInModel() (planner.Model, error) {
	if p.req.Baseline == nil {
		p.sizeAsked = true
		return planner.ModelFromParams(7e9)
	}
	id := standInModel
	if slices.ContainsFunc(p.toks, func(t reqToken) bool { return t.w == "lora" || t.w == "qlora" }) {
		id = standInAdapters // "4090 한장에서 LoRA 6시간": adapters go on an LLM, not BERT
	}
	base, _, err := p.cat.Model(id)
	if err != nil {
		return base, err
	}
	p.standIn = true
	p.note(en.Tf("no model named: the measured run sets the speed; memory is for a %s-sized stand-in — name the model to check memory", id))
	return base, nil
}

// sameHardwareOnce drops a target said again ("48기가 한장으로 되나
// (a6000)": the 48 GB card and its name are one A6000, not a comparison
// of it with itself).
func sameHardwareOnce(ts []planner.Hardware) []planner.Hardware {
	var out []planner.Hardware
	for _, t := range ts {
		if !slices.ContainsFunc(out, func(o planner.Hardware) bool {
			return o.GPU.ID == t.GPU.ID && o.Count == t.Count && o.GPUsPerNode == t.GPUsPerNode && o.Server == t.Server && o.Interconnect == t.Interconnect
		}) {
			out = append(out, t)
		}
	}
	return out
}
