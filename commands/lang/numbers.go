package lang

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// ---------------------------------------------------------------------------
// Numbers and units

// reqNumber is a number as typed: "2.5M", "1,200", "1e6", "8k".
type reqNumber struct {
	v    float64 // the value, multiplier applied (may be ±Inf when absurd)
	mant float64 // the value before the multiplier
	mult byte    // 'k', 'm', 'b', 't' or 0
}

// reqStartsNumber reports whether w begins like a number ("10", ".5").
func reqStartsNumber(w string) bool {
	return w != "" && (reqIsDigit(w[0]) || w[0] == '.' && len(w) > 1 && reqIsDigit(w[1]))
}

// reqScanNumber reads the number at the start of w and returns what
// follows it. A k/m/b/t right after the digits is a multiplier (thousand,
// million, billion, trillion) unless the rest reads as a unit on its own:
// "10ms" is milliseconds, "10m" ten million, "7b-params" seven billion
// parameters.
func reqScanNumber(w string) (n reqNumber, unit string, ok bool) {
	i, digits := 0, 0
	for i < len(w) && (reqIsDigit(w[i]) || w[i] == ',' && i+1 < len(w) && reqIsDigit(w[i+1]) && digits > 0) {
		if w[i] != ',' {
			digits++
		}
		i++
	}
	if i < len(w) && w[i] == '.' && i+1 < len(w) && reqIsDigit(w[i+1]) {
		i++
		for i < len(w) && reqIsDigit(w[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return reqNumber{}, "", false
	}
	if i < len(w) && w[i] == 'e' {
		j := i + 1
		if j < len(w) && (w[j] == '+' || w[j] == '-') {
			j++
		}
		if j < len(w) && reqIsDigit(w[j]) {
			for j < len(w) && reqIsDigit(w[j]) {
				j++
			}
			i = j
		}
	}
	num := strings.ReplaceAll(w[:i], ",", "")
	v, err := strconv.ParseFloat(num, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return reqNumber{}, "", false
	}
	n = reqNumber{v: v, mant: v}
	rest := w[i:]
	if rest == "" {
		return n, "", true
	}
	if r := strings.TrimLeft(rest, "-"); reqUnitClass(r) > reqUUnknown {
		return n, r, true
	}
	if exp := strings.IndexByte("kmbt", rest[0]); exp >= 0 {
		r := strings.TrimLeft(rest[1:], "-")
		if r == "" || reqUnitClass(r) > reqUUnknown {
			n.mult = rest[0]
			if strings.Contains(num, "e") {
				n.v *= math.Pow(1000, float64(exp+1))
			} else {
				// exact decimal: "1.2b" is 1.2e9, not 1.2 × 1e9
				n.v, _ = strconv.ParseFloat(num+"e"+strconv.Itoa(3*(exp+1)), 64)
			}
			return n, r, true
		}
	}
	return n, rest, true
}

// reqScanInt reads leading decimal digits: "2x" → 2, "x"; huge counts
// saturate so range checks still see them.
func reqScanInt(w string) (n int, rest string, ok bool) {
	i := 0
	for i < len(w) && reqIsDigit(w[i]) {
		if n < 1e9 {
			n = n*10 + int(w[i]-'0')
		}
		i++
	}
	return n, w[i:], i > 0
}

type reqUnitKind int

const (
	reqUNone reqUnitKind = iota
	reqUUnknown
	reqUEpochs
	reqUSamples
	reqUTokens
	reqUSteps
	reqUStepsPerEpoch
	reqUParams
	reqUBits
	reqUNodes
	reqULayers
	reqUHeads
	reqUHidden
	reqUVocab
	reqUTime // durations and rates: a measurement, read by `baseline`
)

var reqUnits = map[string]reqUnitKind{
	"ep": reqUEpochs, "eps": reqUEpochs, "epoch": reqUEpochs, "epochs": reqUEpochs,
	"sample": reqUSamples, "samples": reqUSamples, "seqs": reqUSamples, "sequences": reqUSamples,
	"example": reqUSamples, "examples": reqUSamples, "ex": reqUSamples, "exs": reqUSamples,
	"pair": reqUSamples, "pairs": reqUSamples, "row": reqUSamples, "rows": reqUSamples, "doc": reqUSamples, "docs": reqUSamples,
	"passage": reqUSamples, "passages": reqUSamples, "chunk": reqUSamples, "chunks": reqUSamples, "paragraph": reqUSamples, "paragraphs": reqUSamples,
	"document": reqUSamples, "documents": reqUSamples, "prompt": reqUSamples, "prompts": reqUSamples, "request": reqUSamples,
	"requests": reqUSamples, "req": reqUSamples, "reqs": reqUSamples, "record": reqUSamples, "records": reqUSamples,
	"instance": reqUSamples, "instances": reqUSamples, "conversation": reqUSamples, "conversations": reqUSamples,
	"sentence": reqUSamples, "sentences": reqUSamples, "utterance": reqUSamples, "utterances": reqUSamples,
	"clip": reqUSamples, "clips": reqUSamples, "tweet": reqUSamples, "tweets": reqUSamples, "article": reqUSamples, "articles": reqUSamples,
	"review": reqUSamples, "reviews": reqUSamples, "post": reqUSamples, "posts": reqUSamples, "comment": reqUSamples, "comments": reqUSamples,
	"caption": reqUSamples, "captions": reqUSamples, "transcript": reqUSamples, "transcripts": reqUSamples, "email": reqUSamples, "emails": reqUSamples,
	"ticket": reqUSamples, "tickets": reqUSamples, "abstract": reqUSamples, "abstracts": reqUSamples, "summaries": reqUSamples, "dialogue": reqUSamples, "dialogues": reqUSamples,
	"convo": reqUSamples, "convos": reqUSamples, "chats": reqUSamples, "dialog": reqUSamples, "dialogs": reqUSamples,
	"query": reqUSamples, "queries": reqUSamples, "pics": reqUSamples, "photos": reqUSamples, "image": reqUSamples, "images": reqUSamples, "img": reqUSamples, "imgs": reqUSamples,
	"token": reqUTokens, "tokens": reqUTokens, "tok": reqUTokens, "toks": reqUTokens,
	"step": reqUSteps, "steps": reqUSteps, "it": reqUSteps, "its": reqUSteps, "iter": reqUSteps, "iters": reqUSteps,
	"iteration": reqUSteps, "iterations": reqUSteps,
	"param": reqUParams, "params": reqUParams, "parameter": reqUParams, "parameters": reqUParams,
	"bit": reqUBits, "bits": reqUBits,
	"node": reqUNodes, "nodes": reqUNodes, "servers": reqUNodes, "server": reqUNodes, "machines": reqUNodes, "machine": reqUNodes,
	"boxes": reqUNodes, "box": reqUNodes, "hosts": reqUNodes,
	"layer": reqULayers, "layers": reqULayers,
	"head": reqUHeads, "heads": reqUHeads,
	"hidden": reqUHidden, "d_model": reqUHidden, "vocab": reqUVocab,
	"h": reqUTime, "hr": reqUTime, "hrs": reqUTime, "hour": reqUTime, "hours": reqUTime,
	"min": reqUTime, "mins": reqUTime, "minute": reqUTime, "minutes": reqUTime,
	"s": reqUTime, "sec": reqUTime, "secs": reqUTime, "second": reqUTime, "seconds": reqUTime, "ms": reqUTime,
	"d": reqUTime, "day": reqUTime, "days": reqUTime,
}

// reqUnitClass classifies a unit word; "a/b" forms are steps per epoch or
// a rate.
func reqUnitClass(u string) reqUnitKind {
	if u == "" {
		return reqUNone
	}
	if num, den, ok := strings.Cut(u, "/"); ok {
		nc, dc := reqUnits[num], reqUnits[den]
		switch {
		case nc == reqUSteps && dc == reqUEpochs:
			return reqUStepsPerEpoch
		case (nc == reqUSamples || nc == reqUTokens || nc == reqUSteps || nc == reqUTime || num == "seq") &&
			(dc == reqUTime || dc == reqUSteps || dc == reqUEpochs):
			return reqUTime
		}
		return reqUUnknown
	}
	if c, ok := reqUnits[u]; ok {
		return c
	}
	return reqUUnknown
}

// ---------------------------------------------------------------------------
// Amounts: 10 epochs, of 2.5M samples, 1.2B tokens, 5000 steps

// reqQuantity is a number and the unit after it.
type reqQuantity struct {
	n     reqNumber
	unit  string
	class reqUnitKind
	fused bool // the unit was part of the number's token
}

// readQuantity reads a number at p.i and, when it has one, its unit: fused
// ("10ep"), the next word ("10 epochs"), or steps per epoch spelled
// "steps/epoch", "steps / epoch" or "steps per epoch".
func (p *reqParser) readQuantity() (reqQuantity, error) {
	n, unit, ok := reqScanNumber(p.tok(p.i).w)
	if !ok {
		return reqQuantity{}, p.badNumber(p.i)
	}
	p.i++
	q := reqQuantity{n: n, unit: unit, class: reqUnitClass(unit), fused: unit != ""}
	if unit == "" {
		if c := reqUnitClass(p.tok(p.i).w); c > reqUUnknown {
			q.unit, q.class = p.tok(p.i).w, c
			p.i++
		}
	}
	if q.class == reqUSteps {
		switch {
		case (p.tok(p.i).w == "per" || p.tok(p.i).w == "/" || p.tok(p.i).w == "an" || p.tok(p.i).w == "a") &&
			reqUnitClass(p.tok(p.i+1).w) == reqUEpochs:
			p.i += 2
			q.class = reqUStepsPerEpoch
		case strings.HasPrefix(p.tok(p.i).w, "/") && reqUnitClass(p.tok(p.i).w[1:]) == reqUEpochs:
			p.i++
			q.class = reqUStepsPerEpoch
		}
	}
	return q, nil
}

// number reads a phrase that starts with a number.
func (p *reqParser) number() error {
	a := p.i
	q, err := p.readQuantity()
	if err != nil {
		return err
	}
	b := p.i
	switch q.class {
	case reqUEpochs, reqUSamples, reqUTokens, reqUSteps, reqUStepsPerEpoch:
		return p.setAmount(q.class, q.n.v, a, b, false)
	case reqUParams:
		return p.setParams(q.n.v, a, b)
	case reqUBits:
		v := map[float64]string{4: string(planner.INT4), 8: string(planner.INT8), 16: "mixed", 32: string(planner.FP32)}[q.n.v]
		if v == "" {
			return said(en.Tf("`%s` is not a precision I know; 4-bit, 8-bit, 16-bit and 32-bit are", p.span(a, b)), &UserError{Hint: reqEg("int4", "int8", "bf16", "fp32")})
		}
		return p.setPrecision(v, a, b)
	case reqULayers, reqUHeads, reqUHidden, reqUVocab:
		// "24 layers", "1024 hidden": the shape said number first
		key := map[reqUnitKind]string{reqULayers: "layers", reqUHeads: "heads", reqUHidden: "hidden", reqUVocab: "vocab"}[q.class]
		return p.setArch(key, q.n.v, a, b)
	case reqUTime:
		return p.timeQuantity(q, a, b)
	}
	// No unit: hardware ("2 h100", "2xh100", "4090", "2 nodes of 8x h100")?
	p.i = a
	hw, ok, err := p.hardware(false)
	if err != nil {
		return err
	}
	if ok {
		p.req.Targets = append(p.req.Targets, hw)
		p.counted = append(p.counted, p.lastCounted)
		return nil
	}
	p.i = a
	t := p.toks[a]
	if n := int(q.n.v); q.fused && gpuWord(strings.TrimLeft(q.unit, "-")) && float64(n) == q.n.v && n >= 1 && n <= reqMaxGPUs {
		p.openCount, p.i = n, a+1 // "8gpu": the count, no GPU named
		return nil
	}
	if q.fused && q.class == reqUUnknown {
		u := strings.TrimLeft(q.unit, "-")
		if sug := p.suggest(u, reqUnitSuggest); sug != "" {
			fix := strings.TrimSuffix(t.w, q.unit) + " " + sug
			return said(en.Tf("I don't understand `%s` — did you mean `%s`?", reqShort(t.raw), fix), &UserError{Hint: p.fix(a, a+1, fix)})
		}
		return said(en.Tf("I don't understand `%s`", reqShort(t.raw)), &UserError{Hint: reqKinds})
	}
	if w := p.tok(a + 1).w; gpuWord(w) {
		// "with 8 gpus", "gpu 8장": a count with no GPU named; the search
		// keeps the count and finds the GPU
		if n := int(q.n.v); float64(n) == q.n.v && n >= 1 && n <= reqMaxGPUs {
			p.openCount, p.i = n, a+2
			return nil
		}
		return p.unknownGPU(a+1, w, int(q.n.v))
	}
	if reqModelSize(t.w) {
		// a size alone after a model: "라마2 7b … 이번엔 13b로", "the 70b version"
		if m, ok := p.siblingModel(t.w); ok {
			return p.setModel(m, planner.Resolution{}, a, a+1)
		}
	}
	if a+1 < len(p.toks) && !p.known(a+1) {
		return p.unknown(a+1, reqUnitSuggest)
	}
	return said(en.Tf("`%s` needs a unit: `%s epochs`, `%s samples`, `%s tokens`, `%s steps` or `%s params`?",
		reqShort(t.raw), reqShort(t.raw), reqShort(t.raw), reqShort(t.raw), reqShort(t.raw), reqShort(t.raw)), &UserError{
		Hint: p.try(a, a+1, t.raw+" epochs"),
	})
}

// reqModelSize reports whether w is a model size as people write one
// alone: digits and a b or m ("13b", "1.5b", "350m").
func reqModelSize(w string) bool {
	n := len(w)
	if n < 2 || (w[n-1] != 'b' && w[n-1] != 'm') {
		return false
	}
	_, err := strconv.ParseFloat(w[:n-1], 64)
	return err == nil
}

// timesBigger reads "3x bigger", "2 times larger", "twice as big",
// "double" at i: a factor on the data of a measured run, and where it ends.
func (p *reqParser) timesBigger(i int) (float64, int, bool) {
	w := p.tok(i).w
	f, j := 0.0, i+1
	switch {
	case w == "twice" || w == "double" || w == "doubled":
		f = 2
	case w == "triple" || w == "tripled":
		f = 3
	default:
		n, rest, ok := reqScanNumber(w)
		if !ok || n.v <= 0 {
			return 0, 0, false
		}
		switch {
		case rest == "x" || rest == "times":
		case rest == "" && (p.tok(j).w == "x" || p.tok(j).w == "times"):
			j++
		default:
			return 0, 0, false
		}
		f = n.v
	}
	for p.tok(j).w == "as" || p.tok(j).w == "the" {
		j++
	}
	switch p.tok(j).w {
	case "bigger", "larger", "more", "big", "large", "much", "size":
		j++
	default:
		if w != "doubled" && w != "tripled" {
			return 0, 0, false
		}
	}
	if f < 0.01 || f > 1000 {
		return 0, 0, false
	}
	return f, j, true
}

// scaleWork puts "the dataset is 3x bigger" on the measured run it
// compares with: a run in hours or hours per epoch whose amount the
// request does not give.
func (p *reqParser) scaleWork() error {
	if p.workScale == 0 {
		return nil
	}
	b := p.req.Baseline
	amount := p.samples.set || p.tokens.set || p.steps.set || p.dsSamples.set || p.dsTokens.set
	if b == nil || (b.Unit != planner.Hours && b.Unit != planner.HoursPerEpoch) || amount {
		return said(en.Tf("`%s` scales a measured run's data: say the run in hours (`it took 6.5 hours on 1x a100`), or give the dataset size", p.workScaleWords), &UserError{
			Hint: reqEg("baseline 6.5 h on 1x a100, dataset 3x bigger", "of 2.5M samples")})
	}
	b.WorkScale = p.workScale
	return nil
}

// needNumber is the error for a unit word with no number before it.
func (p *reqParser) needNumber(i int, c reqUnitKind) error {
	ex := map[reqUnitKind]string{reqUEpochs: "10 epochs", reqUSamples: "2.5M samples", reqUTokens: "1.2B tokens",
		reqUSteps: "5000 steps", reqUStepsPerEpoch: "19252 steps/epoch", reqUParams: "7b params", reqUBits: "4bit",
		reqUNodes: "on 2 nodes of 8x h100", reqULayers: "24 layers", reqUHeads: "16 heads",
		reqUHidden: "1024 hidden", reqUVocab: "32000 vocab", reqUTime: "baseline 5.67 h/epoch on 4x v100"}[c]
	return said(en.Tf("`%s` needs a number before it, like `%s`", reqShort(p.tok(i).raw), ex), &UserError{Hint: p.drop(i, i+1, reqEg(ex))})
}

// dataset reads "of 2.5M samples" / "of 1.2B tokens" after `of` at a.
func (p *reqParser) dataset(a int) error {
	for w := p.tok(p.i).w; w == "of" || w == "=" || w == "size" || w == "is" || w == "now"; w = p.tok(p.i).w {
		p.i++
	}
	if f, n, ok := p.timesBigger(p.i); ok {
		// "the dataset is 3x bigger": the measured run's data, scaled
		p.workScale, p.workScaleWords = f, p.span(a, n)
		p.i = n
		return nil
	}
	if reqStartsNumber(p.tok(p.i).w) {
		q, err := p.readQuantity()
		if err != nil {
			return err
		}
		if q.class == reqUSamples || q.class == reqUTokens {
			return p.setAmount(q.class, q.n.v, a, p.i, true)
		}
		if h, ok := speechDataHours(p.catModel, q); ok && q.class == reqUTime {
			// "whisper small … 데이터 200시간": a speech dataset in hours of audio
			p.note(en.Tf("`%s` read as hours of audio: %s samples of 30 seconds", p.span(a, p.i), reqTrimNum(h*120)))
			return p.setAmount(reqUSamples, h*120, a, p.i, true)
		}
	}
	return said(en.Tf("`%s` should say the dataset size, like `of 2.5M samples` or `of 1.2B tokens`",
		p.span(a, p.i+1)), &UserError{Hint: p.drop(a, p.i, reqEg("of 2.5M samples", "of 1.2B tokens"))})
}

// setAmount records an amount of work. Bare samples and tokens are totals
// unless epochs are given (then they are the dataset, sorted out at the
// end); after `of` they are always the dataset.
func (p *reqParser) setAmount(c reqUnitKind, v float64, a, b int, of bool) error {
	type limit struct {
		hi     float64
		hiText string
	}
	lim := map[reqUnitKind]limit{reqUEpochs: {100e3, "100k epochs"}, reqUSamples: {1e13, "10T samples"},
		reqUTokens: {1e15, "1000T tokens"}, reqUSteps: {1e9, "1B steps"}, reqUStepsPerEpoch: {1e9, "1B steps"}}[c]
	if err := p.check(v, a, b, 0, lim.hi, lim.hiText, c == reqUSteps || c == reqUStepsPerEpoch); err != nil {
		return err
	}
	switch {
	case c == reqUEpochs:
		return reqSet(p, &p.epochs, v, a, b, "epoch counts")
	case c == reqUSteps:
		return reqSet(p, &p.steps, v, a, b, "step counts")
	case c == reqUStepsPerEpoch:
		return reqSet(p, &p.stepsPerEpoch, v, a, b, "epoch sizes")
	case c == reqUSamples && of:
		return reqSet(p, &p.dsSamples, v, a, b, "dataset sizes")
	case c == reqUTokens && of:
		return reqSet(p, &p.dsTokens, v, a, b, "dataset sizes")
	case c == reqUSamples:
		return reqSet(p, &p.samples, v, a, b, "sample counts")
	default:
		return reqSet(p, &p.tokens, v, a, b, "token counts")
	}
}

// amountAt reports whether a dataset size starts at i: a number whose unit
// (fused or the next word) is samples or tokens ("2.5M samples", "400k
// examples", "1B tokens").
func (p *reqParser) amountAt(i int) bool {
	n, unit, ok := reqScanNumber(p.tok(i).w)
	if !ok || n.v <= 0 {
		return false
	}
	if unit == "" {
		unit = p.tok(i + 1).w
	}
	k := reqUnitClass(unit)
	return k == reqUSamples || k == reqUTokens
}

// speechDataHours is q in hours when q is a duration said after a speech model
// (Whisper reads audio in 30-second windows) with nothing that makes it a
// measured run.
func speechDataHours(m planner.Model, q reqQuantity) (float64, bool) {
	if m.Family != "Whisper" {
		return 0, false
	}
	switch q.unit {
	case "h", "hr", "hrs", "hour", "hours":
		return q.n.v, true
	case "min", "mins", "minute", "minutes":
		return q.n.v / 60, true
	}
	return 0, false
}

// saysTook reports whether a request says a run took its time ("took",
// "걸렸는데", "소요됐어"): a duration there is a measured run, whatever the
// model.
func saysTook(text string) bool {
	text = strings.ToLower(text)
	for _, w := range []string{"took", "걸렸", "소요됐", "소요되었"} {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// gpuWord reports whether w says "GPU" without naming one.
func gpuWord(w string) bool { return w == "gpus" || w == "gpu" || w == "cards" || w == "card" }

// runSpanAt reads the time quantity q at [a, b) as a span the GPUs run
// for ("on 8 h100s for 2 days", "a100 4장 10시간" with its cost or the work
// it covers asked): nothing says it was measured ("took", 걸렸), and "for"
// or the question says it is the run's length.
func (p *reqParser) runSpanAt(q reqQuantity, a, b int) bool {
	d, ok := deadlineUnit(q.unit)
	if !ok || saysTook(p.text) || p.runFor != 0 || p.ask != AskCost && p.ask != AskAmount && p.tok(a-1).w != "for" {
		return false
	}
	p.runFor, p.runForWords = durScale(q.n.v, d), p.span(a, b)
	return true
}

// timeQuantity reads a time said with no other word for it: hours of
// audio for a speech model, a span the GPUs run for, else a measurement
// that belongs in a baseline.
func (p *reqParser) timeQuantity(q reqQuantity, a, b int) error {
	if h, ok := speechDataHours(p.catModel, q); ok && !saysTook(p.text) {
		// "whisper small 파인튜닝 300시간": hours of data for a
		// speech model are hours of audio, not a measured run
		p.note(en.Tf("`%s` read as hours of audio: %s samples of 30 seconds", p.span(a, b), reqTrimNum(h*120)))
		return p.setAmount(reqUSamples, h*120, a, b, false)
	}
	if p.runSpanAt(q, a, b) {
		return nil
	}
	return said(en.Tf("`%s` is a measurement; a plan needs the work (`10 epochs`, `5000 steps`) — a measured run goes in a baseline", p.span(a, b)), &UserError{
		Hint: p.tryOr(a, b, "baseline "+p.span(a, b), reqEg("baseline 5.67 h/epoch on 4x v100")),
	})
}
