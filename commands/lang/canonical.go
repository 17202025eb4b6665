package lang

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// Fields is a request restated in the language's canonical words, one
// string per part; each part parses back to what was read.
type Fields struct {
	Model, Workload, Amount, Shape, Precision, Hardware, Options string
}

// Canonical restates a planner request in canonical words.
func Canonical(cat *planner.Catalog, req planner.Request) Fields {
	j := req.Job
	var f Fields
	f.Model = ModelWords(cat, j.Model)
	f.Workload = string(j.Workload)
	f.Amount = AmountWords(j)
	var shape []string
	if j.SeqLen > 0 {
		shape = append(shape, "seq "+strconv.Itoa(j.SeqLen))
	}
	switch {
	case j.GlobalBatch > 0:
		shape = append(shape, "batch "+strconv.Itoa(j.GlobalBatch))
	case j.GlobalBatchTokens > 0:
		shape = append(shape, "batch "+Num(float64(j.GlobalBatchTokens))+" tokens")
	}
	if j.MicroBatch > 0 {
		shape = append(shape, "micro "+strconv.Itoa(j.MicroBatch))
	}
	if j.GenTokens > 0 {
		shape = append(shape, "gen "+strconv.Itoa(j.GenTokens))
	}
	if j.LoRARank > 0 {
		shape = append(shape, "rank "+strconv.Itoa(j.LoRARank))
	}
	f.Shape = strings.Join(shape, " ")
	f.Precision = string(j.Precision)
	var hw []string
	for _, h := range req.Targets {
		hw = append(hw, HardwareWords(h))
	}
	f.Hardware = strings.Join(hw, ", ")
	var opts []string
	if j.SelectiveRecompute {
		opts = append(opts, "selective ckpt")
	} else if j.Checkpointing {
		opts = append(opts, "ckpt")
	} else if j.NoCheckpointing {
		opts = append(opts, "no-ckpt")
	}
	if j.Attention != "" {
		opts = append(opts, string(j.Attention))
	}
	if j.Strategy != "" {
		opts = append(opts, string(j.Strategy))
	}
	if j.Optimizer != "" {
		opts = append(opts, string(j.Optimizer))
	}
	if j.Stack != "" {
		opts = append(opts, string(j.Stack))
	}
	switch j.Offload {
	case planner.OffloadOptimizer:
		opts = append(opts, "offload")
	case planner.OffloadFull:
		opts = append(opts, "offload-params")
	}
	if j.OptimizerInBackward {
		opts = append(opts, "optimizer-in-backward")
	}
	if j.PureBF16 {
		opts = append(opts, "pure-bf16")
	}
	if j.Preference {
		opts = append(opts, "dpo")
	}
	if j.ActivationOffload {
		opts = append(opts, "activation-offload")
	}
	opts = append(opts, layoutWords(j)...)
	opts = append(opts, servingWords(j)...)
	if b := req.Baseline; b != nil {
		opts = append(opts, baselineWords(j, *b))
	}
	f.Options = strings.Join(opts, " ")
	return f
}

// modelWords names a model the way the parser reads it back.
func ModelWords(cat *planner.Catalog, m planner.Model) string {
	switch m.Origin {
	case "size":
		return Num(m.Params()) + " params"
	case "architecture":
		return archWords(m, planner.Model{})
	case "catalogue+architecture":
		baseID := strings.TrimSuffix(m.ID, " (modified)")
		if base, _, err := cat.Model(baseID); err == nil {
			return baseID + " " + archWords(m, base)
		}
	}
	return m.ID
}

// archWords lists the architecture numbers of m that differ from base.
func archWords(m, base planner.Model) string {
	var w []string
	add := func(key string, v, b int) {
		if v > 0 && v != b {
			w = append(w, key+" "+strconv.Itoa(v))
		}
	}
	add("layers", m.Layers, base.Layers)
	add("hidden", m.Hidden, base.Hidden)
	add("heads", m.Heads, base.Heads)
	if m.KVHeads != m.Heads || base.Layers > 0 {
		add("kv", m.KVHeads, base.KVHeads)
	}
	if m.FFN != 4*m.Hidden || base.Layers > 0 {
		add("ffn", m.FFN, base.FFN)
	}
	add("vocab", m.Vocab, base.Vocab)
	return strings.Join(w, " ")
}

func AmountWords(j planner.Job) string {
	var w []string
	if j.StepsPerEpoch > 0 {
		w = append(w, Num(j.StepsPerEpoch)+" steps/epoch")
	}
	if j.Epochs > 0 {
		e := Num(j.Epochs) + " epochs"
		if j.Epochs == 1 {
			e = "1 epoch"
		}
		switch {
		case j.DatasetSamples > 0:
			e += " of " + Num(j.DatasetSamples) + " samples"
		case j.DatasetTokens > 0:
			e += " of " + Num(j.DatasetTokens) + " tokens"
		}
		w = append(w, e)
	} else {
		switch {
		case j.DatasetSamples > 0:
			w = append(w, "of "+Num(j.DatasetSamples)+" samples")
		case j.DatasetTokens > 0:
			w = append(w, "of "+Num(j.DatasetTokens)+" tokens")
		}
	}
	switch {
	case j.Tokens > 0:
		w = append(w, Num(j.Tokens)+" tokens")
	case j.Samples > 0:
		w = append(w, Num(j.Samples)+" samples")
	case j.Steps > 0:
		w = append(w, Num(j.Steps)+" steps")
	}
	return strings.Join(w, " ")
}

func HardwareWords(h planner.Hardware) string {
	if h.Server != "" {
		return fmt.Sprintf("%dx %s", h.Count, h.Server)
	}
	s := fmt.Sprintf("%dx %s", h.Count, h.GPU.ID)
	if h.GPUsPerNode > 0 && h.Count > h.GPUsPerNode {
		s = fmt.Sprintf("%d nodes of %dx %s", h.Count/h.GPUsPerNode, h.GPUsPerNode, h.GPU.ID)
	}
	if h.Interconnect != "" && !(h.GPUsPerNode > 0 && h.Interconnect == planner.IB) {
		s += " " + string(h.Interconnect)
	}
	return s
}

// num writes a number so the parser reads it back exactly: plain digits up
// to a million, then k/M/B/T with as many decimals as needed.
func Num(v float64) string {
	if v < 1e6 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	for _, s := range []struct {
		div float64
		suf string
	}{{1e12, "T"}, {1e9, "B"}, {1e6, "M"}} {
		if v >= s.div {
			return strconv.FormatFloat(v/s.div, 'f', -1, 64) + s.suf
		}
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// precisionsSaid is the reading's precision: the formats compared when
// several were set side by side (all are answered; the card plans the
// second), else the one planned.
func precisionsSaid(r Reading, planned string) string {
	pr := r.ComparePrecisions
	switch {
	case pr[0] == "":
		return planned
	case r.ThirdPrecision != "":
		return string(pr[0]) + " vs " + string(r.ThirdPrecision) + " vs " + string(pr[1])
	}
	return string(pr[0]) + " vs " + string(pr[1])
}

// askWords says the question back: "how many GPUs?", "GPU 몇 장?".
func askWords(p *i18n.Printer, a Ask) string {
	switch a {
	case AskFit:
		return p.T("will it fit?")
	case AskTime:
		return p.T("how long?")
	case AskCount:
		return p.T("how many GPUs?")
	case AskWhichGPU:
		return p.T("which GPU?")
	case AskWhichServer:
		return p.T("which of our servers?")
	case AskCost:
		return p.T("what does it cost?")
	}
	return ""
}

// amountWords says an amount question back: "how many tokens?".
func amountWords(p *i18n.Printer, unit string) string {
	switch unit {
	case "tokens":
		return p.T("how many tokens?")
	case "epochs":
		return p.T("how many epochs?")
	case "steps":
		return p.T("how many steps?")
	}
	return p.T("how many samples?")
}

// ReadAs restates a reading in canonical words — what was understood, the
// question, and the words skipped — for the "Read as:" line of a plan.
// Read parses it back to the same request.
func ReadAs(cat *planner.Catalog, r Reading) string { return ReadAsIn(nil, cat, r) }

// RequestText is a reading restated as a request that reads back the
// same: the English "Read as" line without its notes in brackets, its
// parts still separated by " · " (FollowUp splits on them; Read skips
// them).
func RequestText(cat *planner.Catalog, r Reading) string {
	return strings.TrimSpace(noteBrackets.ReplaceAllString(ReadAs(cat, r), ""))
}

// noteBrackets are the bracketed notes of a "Read as" line.
var noteBrackets = regexp.MustCompile(`\s*\([^)]*\)`)

// ReadAsIn is ReadAs in p's language. In English (p nil or English) it is
// the canonical words; in Korean it says the same parts the way the card
// does — 파인튜닝 (가정) · 10 에폭 × 250만 샘플 · h100-sxm5-80gb 2장 · 얼마나
// 걸려요? — with model and GPU ids, precisions and options as typed.
// The Korean line is for reading; only the English one parses back.
func ReadAsIn(p *i18n.Printer, cat *planner.Catalog, r Reading) string {
	if cat == nil {
		cat = planner.DefaultCatalog()
	}
	f := Canonical(cat, r.Request)
	if p.Korean() {
		f = koreanFields(p, cat, r.Request, f)
	}
	var parts []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	j := r.Request.Job
	add(modelSaid(p, r, f.Model))
	switch r.WorkloadAssumed {
	case "":
		add(f.Workload)
	case "not said":
		add(p.Tf("%s (assumed)", WorkloadWords(p, AssumedWorkload(j))))
	case weightsAssumed(planner.INT4), weightsAssumed(planner.INT8):
		// the quantised format that made it inference, which may be one
		// of several compared ("int4 vs int8 vs fp16")
		pr := strings.TrimSuffix(strings.TrimPrefix(r.WorkloadAssumed, "from "), "; say qlora to train")
		add(p.Tf("%s (assumed from %s; say qlora to train)", f.Workload, pr))
	default:
		add(p.Tf("%s (assumed %s)", f.Workload, r.WorkloadAssumed))
	}
	amount := f.Amount
	if r.Dataset != "" {
		amount += " (" + r.Dataset + ")"
	}
	add(amount)
	add(f.Shape)
	add(precisionsSaid(r, f.Precision))
	add(f.Options)
	if r.CompareCkpt {
		add(p.T("ckpt on vs off"))
	}
	if v := r.Variant; v != nil {
		add(v.said(r.Together)) // all are answered; the card plans the first
	}
	if r.Cloud {
		add(p.T("in the cloud"))
	}
	add(thenServedSaid(p, r))
	if r.ServeHours > 0 {
		add(p.Tf("served for %.0f h", r.ServeHours))
	}
	if f.Hardware != "" {
		add(hardwareSaid(p, r, f.Hardware))
	} else if r.GPUCount > 0 {
		add(p.Tf("on %d gpus", r.GPUCount))
	}
	if r.Buying {
		add(p.T("to buy"))
	}
	add(questionSaid(p, r))
	add(latencySaid(p, r))
	if r.Budget > 0 {
		add(p.Tf("budget $%s", strconv.FormatFloat(r.Budget, 'f', -1, 64)))
	}
	if r.MaxGPUHourUSD > 0 {
		add(p.Tf("max $%s/gpu-hour", strconv.FormatFloat(r.MaxGPUHourUSD, 'f', -1, 64)))
	}
	s := strings.Join(parts, " · ")
	if len(r.Corrected) > 0 {
		said := r.Corrected
		if p.Korean() {
			said = make([]string, len(r.Corrected))
			for i, c := range r.Corrected {
				said[i] = correctedIn(p, c)
			}
		}
		s += p.Tf(" (read %s)", strings.Join(said, ", "))
	}
	if skipped := notAsked(r); len(skipped) > 0 {
		s += p.Tf(" (skipped: %s)", strings.Join(skipped, ", "))
	}
	return s
}

// askEnglish are the English words that say what is asked ("how long",
// "how many", "what does it cost"), and the Korean nouns of a time or a
// cost asked (시간, 비용) that the Korean lexicon reads as units or skips:
// read as the question, which the reading shows, not as filler.
var askEnglish = map[string]bool{"how": true, "long": true, "many": true, "much": true, "hours": true, "days": true,
	"hrs": true, "eta": true, "what": true, "whats": true, "what's": true, "which": true, "when": true,
	"cost": true, "costs": true, "price": true, "fast": true, "speed": true, "latency": true, "latencies": true,
	"시간": true, "실시간": true, "실시간으로": true, "처리": true, "배속": true, "배속이야": true, "중에": true, "중": true, "더": true, "our": true, "servers": true, "우리": true, "팀": true, "서버": true, "제일": true, "가장": true, "싸게": true, "곳": true, "배치": true, "사이즈": true, "최대": true, "크기": true, "빠른거": true, "빠른": true, "빨라": true, "faster": true, "is": true, "one": true, "cheaper": true, "cheapest": true, "fastest": true, "비용": true, "비용은": true, "비용이": true, "가격": true, "가격은": true, "돈": true,
	"fewer": true, "fewest": true, "less": true, "gpus": true, "needs": true, "need": true,
	"장": true, "필요해": true, "필요": true, "필요한지": true, "필요함": true, "필요할까": true, "필요하지": true,
	"용량": true, "용량은": true, "용량이": true, "각각": true, "each": true, "비교": true, "비교해줘": true,
	"fit": true, "fits": true, "fitting": true, "will": true}

// maxBatchWords asked the largest batch, or the most requests at once.
var maxBatchWords = map[string]bool{"max": true, "maximum": true, "largest": true, "biggest": true, "batch": true, "size": true,
	"bs": true, "동시": true, "사용자": true, "명까지": true, "명": true, "개까지": true, "까지": true, "users": true, "concurrent": true}

// audioAskWords asked a speech model's rate in audio time.
var audioAskWords = map[string]bool{"hours": true, "hrs": true, "of": true, "audio": true, "speech": true, "per": true, "an": true, "hour": true,
	"real-time": true, "realtime": true, "factor": true, "rtf": true, "real-time-factor": true, "채널": true, "실시간": true}

// bitsAskWords asked the widest weight format that fits.
var bitsAskWords = map[string]bool{"bits": true, "bit": true, "width": true, "bit-width": true, "quantization": true, "quant": true,
	"fit": true, "fits": true, "양자화": true, "양자화해야": true}

// budgetWords said the budget the reading names.
// maxSeqWords asked the longest context that fits ("max context", "최대
// 컨텍스트 길이").
var maxSeqWords = map[string]bool{"max": true, "maximum": true, "longest": true, "context": true, "length": true, "seq": true,
	"최대": true, "컨텍스트": true, "길이": true, "시퀀스": true, "문맥": true}

var budgetWords = map[string]bool{"예산": true, "예산이": true, "예산은": true, "budget": true}

// notAsked is the skipped words less those that asked the reading's
// question ("how long", "몇시간 걸려") or set its two choices against each
// other ("더 빠른거", "which is faster"): the reading names the question,
// and listing its words as skipped says they were not read.
func notAsked(r Reading) []string {
	if r.Ask == AskNone && r.Variant == nil && r.ComparePrecisions[0] == "" {
		return r.Skipped
	}
	var out []string
	for _, sk := range r.Skipped {
		if r.Latency && strings.HasSuffix(strings.ToLower(sk), "latency per token") {
			continue // the time of each token, which the answer gives
		}
		asked := true
		for _, w := range strings.Fields(sk) {
			w = strings.ToLower(strings.Trim(w, "?!.,~"))
			if _, e, ok := koStem(w); ok && e.act == koAsk || askEnglish[w] || r.Ask == AskAmount && amountUnitWord(w) > reqUUnknown ||
				(r.Memory || r.Ask == AskFit) && memoryWord(w) || r.Rate && koRateWord(w) || r.AudioRate && audioAskWords[w] || r.BitsAsked && bitsAskWords[w] || r.MaxBatch && maxBatchWords[w] || r.MaxSeq && maxSeqWords[w] || r.Ask == AskAmount && (koDataWord(w) || w == "개" || w == "예산") ||
				r.Budget > 0 && budgetWords[w] || r.ServeHours > 0 && w == "월" {
				continue // "how many tokens": the amount asked, in its unit
			}
			asked = false
		}
		if !asked {
			out = append(out, sk)
		}
	}
	return out
}

// weightsAssumed is why a request naming only an inference weight format
// is planned as inference (weightOnlyInference says it so).
func weightsAssumed(prec planner.Precision) string {
	return "from " + string(prec) + "; say qlora to train"
}

// WorkloadWords names a workload in p's language, as the Read as line and
// the card's title say it: the planner's word in English, 파인튜닝 in
// Korean; lora and qlora as engineers say them.
func WorkloadWords(p *i18n.Printer, w planner.Workload) string {
	if !p.Korean() {
		return string(w)
	}
	switch w {
	case planner.Pretrain:
		return p.T("pretrain")
	case planner.Finetune:
		return p.T("finetune")
	case planner.Inference:
		return p.T("inference")
	}
	return string(w)
}

// The English notes a correction carries (canon and weights write them),
// which a Korean reading says in Korean.
const (
	cheapestNote = " (the cheapest card of that size)"
	int8Note     = " → int8 (priced as 8-bit, the safe side)"
)

// correctedIn is a correction ("finetnue → finetune", "24gb: rtx-4090
// (the cheapest card of that size)") said in p's language.
func correctedIn(p *i18n.Printer, c string) string {
	switch {
	case strings.HasSuffix(c, cheapestNote):
		return p.Tf("%s (the cheapest card of that size)", strings.TrimSuffix(c, cheapestNote))
	case strings.HasSuffix(c, int8Note):
		return p.Tf("%s → int8 (priced as 8-bit, the safe side)", strings.TrimSuffix(c, int8Note))
	}
	return c
}

// koreanFields are f's parts said in Korean where they are words: the
// workload (파인튜닝), the amount (10 에폭 × 250만 샘플), the shape
// (시퀀스 길이 512, 배치 128) and the hardware (h100-sxm5-80gb 2장); a
// model size, and a measured run's hardware. Model and GPU ids,
// precisions and options stay as they are.
func koreanFields(p *i18n.Printer, cat *planner.Catalog, req planner.Request, f Fields) Fields {
	j := req.Job
	if j.Model.Origin == "size" {
		f.Model = p.Tf("%s params", Num(j.Model.Params()))
	}
	f.Workload = WorkloadWords(p, j.Workload)
	f.Amount = koreanAmount(p, j)
	f.Shape = koreanShape(p, j)
	var hw []string
	for _, h := range req.Targets {
		hw = append(hw, koreanHardware(p, h))
	}
	f.Hardware = strings.Join(hw, ", ")
	if b := req.Baseline; b != nil {
		noBase := req
		noBase.Baseline = nil
		run := koreanMeasure(p, b.Value, b.Unit)
		if b.Precision != "" {
			run += " " + string(b.Precision)
		}
		model, scale := runExtras(j, *b)
		if model != "" {
			run = model + " " + run
		}
		if scale != "" {
			run += ", 데이터 " + scale + "배"
		}
		said := p.Tf("baseline %s, measured on %s", run, koreanHardware(p, b.Hardware))
		if b.Unit == planner.MFU {
			said = p.Tf("MFU %.0f%% assumed", b.Value*100) // on the GPUs planned, said beside it
		}
		f.Options = strings.TrimSpace(Canonical(cat, noBase).Options + " " + said)
	}
	return f
}

// baselineWords restates a measured run: the run's own model when it is
// not the job's (named before it, as pickModel reads it), its value, unit,
// hardware and precision, and how much more data the job has.
func baselineWords(j planner.Job, b planner.Baseline) string {
	v := Num(b.Value)
	if len(v) > 8 && b.Value < 1e6 {
		v = strconv.FormatFloat(b.Value, 'g', 4, 64) // "40 min per epoch": 0.6667 h, not 0.6666666666666666
	}
	s := fmt.Sprintf("baseline %s %s on %s", v, b.Unit, HardwareWords(b.Hardware))
	if b.Precision != "" {
		s += " " + string(b.Precision)
	}
	model, scale := runExtras(j, b)
	if model != "" {
		s = model + " " + s
	}
	if scale != "" {
		s += ", dataset " + scale + "x bigger"
	}
	return s
}

// runExtras is what a measured run adds beside its value: its own model's
// id when it is not the job's, and its data factor when it is not 1.
func runExtras(j planner.Job, b planner.Baseline) (model, scale string) {
	if m := b.Model; m != nil && m.ID != j.Model.ID {
		model = m.ID
	}
	if b.WorkScale > 0 && b.WorkScale != 1 {
		scale = Num(b.WorkScale)
	}
	return model, scale
}

// koreanMeasure is a measured run's value in its unit, said in Korean
// (에폭당 5.67시간, 420 샘플/s) to three figures: 40 min/epoch is 에폭당
// 0.667시간, not 0.6666666666666666.
func koreanMeasure(p *i18n.Printer, v float64, u planner.BaselineUnit) string {
	n := strconv.FormatFloat(v, 'g', 3, 64)
	if v >= 100 {
		n = koreanNum(p, math.Round(v))
	}
	switch u {
	case planner.SamplesPerS:
		return p.Tf("%s samples/s", n)
	case planner.TokensPerS:
		return p.Tf("%s tokens/s", n)
	case planner.SecPerStep:
		return p.Tf("%s s/step", n)
	case planner.HoursPerEpoch:
		return p.Tf("%s h/epoch", n)
	case planner.Hours:
		return p.Tf("%s h", n)
	}
	return n + " " + string(u)
}

// koreanAmount is AmountWords in Korean: 에폭당 100 스텝, 10 에폭 × 250만 샘플.
func koreanAmount(p *i18n.Printer, j planner.Job) string {
	var w []string
	if j.StepsPerEpoch > 0 {
		w = append(w, p.Tf("%s steps/epoch", koreanNum(p, j.StepsPerEpoch)))
	}
	epochs := Num(j.Epochs)
	switch {
	case j.Epochs == 1 && j.DatasetSamples > 0:
		w = append(w, p.Tf("1 epoch of %s samples", koreanNum(p, j.DatasetSamples)))
	case j.Epochs == 1 && j.DatasetTokens > 0:
		w = append(w, p.Tf("1 epoch of %s tokens", koreanNum(p, j.DatasetTokens)))
	case j.Epochs == 1:
		w = append(w, p.T("1 epoch"))
	case j.Epochs > 0 && j.DatasetSamples > 0:
		w = append(w, p.Tf("%s epochs of %s samples", epochs, koreanNum(p, j.DatasetSamples)))
	case j.Epochs > 0 && j.DatasetTokens > 0:
		w = append(w, p.Tf("%s epochs of %s tokens", epochs, koreanNum(p, j.DatasetTokens)))
	case j.Epochs > 0:
		w = append(w, p.Tf("%s epochs", epochs))
	case j.DatasetSamples > 0:
		w = append(w, p.Tf("of %s samples", koreanNum(p, j.DatasetSamples)))
	case j.DatasetTokens > 0:
		w = append(w, p.Tf("of %s tokens", koreanNum(p, j.DatasetTokens)))
	}
	switch {
	case j.Tokens > 0:
		w = append(w, p.Tf("%s tokens", koreanNum(p, j.Tokens)))
	case j.Samples > 0:
		w = append(w, p.Tf("%s samples", koreanNum(p, j.Samples)))
	case j.Steps > 0:
		w = append(w, p.Tf("%s training steps", koreanNum(p, j.Steps)))
	}
	return strings.Join(w, ", ")
}

// koreanShape is the sequence and batch in Korean: 시퀀스 길이 512, 배치 128.
func koreanShape(p *i18n.Printer, j planner.Job) string {
	var w []string
	if j.SeqLen > 0 {
		w = append(w, p.Tf("seq %d", j.SeqLen))
	}
	switch {
	case j.GlobalBatch > 0:
		w = append(w, p.Tf("batch %d", j.GlobalBatch))
	case j.GlobalBatchTokens > 0:
		w = append(w, p.Tf("batch %s tokens", koreanNum(p, float64(j.GlobalBatchTokens))))
	}
	if j.MicroBatch > 0 {
		w = append(w, p.Tf("micro %d", j.MicroBatch))
	}
	if j.GenTokens > 0 {
		w = append(w, p.Tf("gen %d", j.GenTokens))
	}
	if j.LoRARank > 0 {
		w = append(w, p.Tf("rank %d", j.LoRARank))
	}
	return strings.Join(w, ", ")
}

// koreanHardware is HardwareWords in Korean: h100-sxm5-80gb 2장, server-h
// 2장, h100-sxm5-80gb 8장 × 노드 2개.
func koreanHardware(p *i18n.Printer, h planner.Hardware) string {
	if h.Server != "" {
		return p.Tf("%s, %d GPUs", h.Server, h.Count)
	}
	s := p.Tf("%s, %d GPUs", h.GPU.ID, h.Count)
	if h.GPUsPerNode > 0 && h.Count > h.GPUsPerNode {
		s = p.Tf("%s, %d GPUs a node, %d nodes", h.GPU.ID, h.GPUsPerNode, h.Count/h.GPUsPerNode)
	}
	if h.Interconnect != "" && !(h.GPUsPerNode > 0 && h.Interconnect == planner.IB) {
		s += " " + string(h.Interconnect)
	}
	return s
}

// koreanNum writes a count the Korean way where that is exact (250만,
// 1.2억), else as digits (2,464,256); small numbers as they are.
func koreanNum(p *i18n.Printer, v float64) string {
	if v < 1e4 {
		return Num(v)
	}
	if c := p.Count(v); countValue(c) == v {
		return c
	}
	if v == math.Trunc(v) && v < 1e15 {
		return groupDigits(strconv.FormatFloat(v, 'f', 0, 64))
	}
	return Num(v)
}

// countValue is the value of a Korean count (250만, 1.2억), or -1.
func countValue(c string) float64 {
	for _, u := range []struct {
		name string
		v    float64
	}{{"조", 1e12}, {"억", 1e8}, {"만", 1e4}} {
		if n, ok := strings.CutSuffix(c, u.name); ok {
			if f, err := strconv.ParseFloat(n, 64); err == nil {
				return math.Round(f*u.v*1000) / 1000
			}
		}
	}
	return -1
}

// groupDigits puts commas between thousands: 2464256 → 2,464,256.
func groupDigits(d string) string {
	for i := len(d) - 3; i > 0; i -= 3 {
		d = d[:i] + "," + d[i:]
	}
	return d
}

// DurationWords writes a deadline the way people say it: "36 h", "2 days".
func DurationWords(d time.Duration) string { return DurationWordsIn(nil, d) }

// DurationWordsIn is DurationWords in p's language: "36시간", "2일".
func DurationWordsIn(p *i18n.Printer, d time.Duration) string {
	h := d.Hours()
	switch {
	case h >= 48:
		return p.Tf("%s days", strconv.FormatFloat(float64(int(h/24*10+0.5))/10, 'f', -1, 64))
	case h >= 1:
		return p.Tf("%s h", strconv.FormatFloat(float64(int(h*10+0.5))/10, 'f', -1, 64))
	default:
		return p.Tf("%s min", strconv.Itoa(int(d.Minutes()+0.5)))
	}
}

// hardwareSaid restates the hardware read: "on 2x h100", "on h100 × ?"
// when the count is the question, "compare a, b" with their counts, or
// without them when none was said (each is planned at the fewest that
// fit).
func hardwareSaid(p *i18n.Printer, r Reading, hw string) string {
	switch {
	case r.CompareOpen:
		ids := make([]string, len(r.Request.Targets))
		for i, h := range r.Request.Targets {
			ids[i] = h.GPU.ID
		}
		return p.Tf("compare %s", strings.Join(ids, ", "))
	case r.Request.Compare:
		return p.Tf("compare %s", hw)
	case r.CountOpen:
		return p.Tf("on %s × ?", r.Request.Targets[0].GPU.ID)
	}
	return p.Tf("on %s", hw)
}

// questionSaid restates the question and its deadline: "how long?", "how
// fast?" for a rate, "latency?", "how many GPUs to finish within 14
// days?", or "finish within …" alone; "" for none.
func questionSaid(p *i18n.Printer, r Reading) string {
	q := askWords(p, r.Ask)
	switch {
	case r.LargestModel:
		return p.T("how big?")
	case r.BitsAsked:
		q = p.T("which bit width fits?")
	case r.MaxBatch && r.Ask == AskFit && r.Request.Job.Workload == planner.Inference:
		q = p.T("how many at once?")
	case r.MaxBatch && r.Ask == AskFit:
		q = p.T("largest batch?")
	case r.MaxSeq && r.Ask == AskFit:
		q = p.T("longest context?")
	case r.Ask == AskCount && r.NodesAsked:
		q = p.T("how many nodes?")
	case r.Ask == AskTime && r.Latency:
		q = p.T("latency?")
	case r.Ask == AskTime && (r.Rate || servedRate(r)):
		q = p.T("how fast?")
	case r.Ask == AskAmount:
		q = amountWords(p, r.AmountUnit)
	}
	if r.AlsoCost {
		q = p.Tf("%s and the cost?", strings.TrimSuffix(q, "?"))
	}
	switch {
	case r.Ask == AskAmount && r.Deadline > 0:
		return p.Tf("%s in %s?", strings.TrimSuffix(q, "?"), DurationWordsIn(p, r.Deadline))
	case q != "" && r.Deadline > 0:
		return p.Tf("%s to finish within %s?", strings.TrimSuffix(q, "?"), DurationWordsIn(p, r.Deadline))
	case q != "":
		return q
	case r.Deadline > 0:
		return p.Tf("finish within %s", DurationWordsIn(p, r.Deadline))
	}
	return ""
}

// layoutWords says the parallel layout the job was given: `cp 2`, `tp 8`,
// `pp 2`.
func layoutWords(j planner.Job) []string {
	var out []string
	for _, d := range []struct {
		word string
		n    int
	}{{"cp", j.ContextParallel}, {"tp", j.TensorParallel}, {"pp", j.PipelineParallel}} {
		if d.n > 1 || d.word != "cp" && d.n > 0 {
			out = append(out, d.word+" "+strconv.Itoa(d.n))
		}
	}
	return out
}

// thenServedSaid is the reading's words for the serving after the
// training ("then served (vllm concurrency 20)"), "" when none was asked.
func thenServedSaid(p *i18n.Printer, r Reading) string {
	if r.ThenServe == nil {
		return ""
	}
	if w := strings.Join(servingWords(r.ThenServe.Job), " "); w != "" {
		return p.Tf("then served (%s)", w)
	}
	return p.T("then served")
}

// modelSaid is the reading's words for the model: its name, or what
// stands in for one not named.
func modelSaid(p *i18n.Printer, r Reading, model string) string {
	switch {
	case r.LargestModel:
		return p.T("the largest model")
	case r.StandIn:
		return p.Tf("model not named (%s stands in)", model)
	}
	return model
}

// latencySaid is the latency target the reading plans against, or "".
func latencySaid(p *i18n.Printer, r Reading) string {
	switch {
	case r.LatencyTargetS > 0 && r.LatencyFirst:
		return p.Tf("first token within %s", latencyText(r.LatencyTargetS))
	case r.LatencyTargetS > 0 && r.LatencyPerToken:
		return p.Tf("per token within %s", latencyText(r.LatencyTargetS))
	case r.LatencyTargetS > 0:
		return p.Tf("latency within %s", latencyText(r.LatencyTargetS))
	}
	return ""
}

// latencyText writes a latency target as people say it: "200 ms", "1.5 s".
func latencyText(s float64) string {
	// three significant figures: a rate's inverse (60 tok/s each) is no
	// round number of milliseconds
	if s < 1 {
		return sigFigs(s*1000) + " ms"
	}
	return sigFigs(s) + " s"
}

// servedRate reports whether a time asked of inference with no amount of
// work is its rate ("how much throughput gain?", "속도 비교"): there is no
// "how long" without work to time.
func servedRate(r Reading) bool {
	j := r.Request.Job
	return j.Workload == planner.Inference && j.Samples == 0 && j.Tokens == 0 && j.DatasetSamples == 0 && j.DatasetTokens == 0 && r.ServeHours == 0 && r.Request.Baseline == nil
}

// LatencyText writes a latency target as the reading says it: to three
// significant figures, in ms under a second ("16.7 ms", "2 s").
func LatencyText(s float64) string { return latencyText(s) }

// sigFigs writes v to three significant figures, with no trailing zeros
// ("16.7", "50", "1500").
func sigFigs(v float64) string {
	if v <= 0 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	prec := max(0, 2-int(math.Floor(math.Log10(v))))
	out := strconv.FormatFloat(v, 'f', prec, 64)
	if prec > 0 {
		out = strings.TrimRight(strings.TrimRight(out, "0"), ".")
	}
	return out
}
