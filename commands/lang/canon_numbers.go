package lang

import (
	"math"
	"strings"
)

// Numbers in the reading pass: number words and scales, model sizes,
// amounts said around their units.

// englishNumbers are the number words people use for GPU counts, epochs
// and multipliers.
var englishNumbers = map[string]float64{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
	"fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
	"single": 1, "dozen": 12, "couple": 2, "pair": 2, "few": 3,
}

// numberWord reads "a single", "one", "a pair of", "a couple of", "a dozen",
// "half a dozen", and the number words said in several parts: "five
// hundred thousand", "two hundred fifty", "one and a half million",
// "a hundred", "twelve thousand", "twenty-five".
func (c *canonizer) numberWord(i int) int {
	if w := c.w(i); (w == "pair" || w == "pairs") && i > 0 && reqStartsNumber(lastW(c.out)) {
		return i // "2만 pair", "20k pairs": the DPO data's unit, not a count of two
	}
	if n, j, ok := c.compoundNumber(i); ok {
		c.emit(reqTrimNum(n), i, j)
		return j
	}
	j := i
	if c.w(j) == "a" || c.w(j) == "an" {
		j++
	}
	n, ok := englishNumbers[c.w(j)]
	if !ok {
		if c.words(i, "half", "a", "dozen") {
			c.emit("6", i, i+3)
			return i + 3
		}
		return i
	}
	if c.w(j) == "few" && j == i {
		return i // "few" alone is no number; "a few" is three
	}

	if j > i && (c.w(j) != "single" && c.w(j) != "pair" && c.w(j) != "couple" && c.w(j) != "dozen" && c.w(j) != "hundred" && c.w(j) != "few") {
		return i // "a two" is not English
	}
	j++
	if c.w(j) == "dozen" && n > 1 && n < 12 {
		n, j = n*12, j+1 // "two dozen A100s"
	}
	if c.w(j) == "of" && (n == 2 || n == 12 || n == 100) && c.w(j-1) != "two" {
		j++ // "a pair of", "a couple of", "a dozen of"
	}
	c.emit(reqTrimNum(n), i, j)
	return j
}

// numberScales are the scale words a spelled-out number is built with.
var numberScales = map[string]float64{"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}

// numberPart is the value of one spelled-out part ("five", "twenty",
// "twenty-five"), 1 to 99; 0 for anything else.
func numberPart(w string) float64 {
	if a, b, ok := strings.Cut(w, "-"); ok {
		// "twenty-five": a ten and a unit
		ta, tb := numberPart(a), numberPart(b)
		if ta >= 20 && int(ta)%10 == 0 && ta < 100 && tb >= 1 && tb <= 9 {
			return ta + tb
		}
		return 0
	}
	switch w {
	case "single", "dozen", "couple", "pair", "few", "hundred":
		return 0 // counts of their own, read by numberWord
	}
	return englishNumbers[w]
}

// compoundNumber reads a number said in more than one word, the way it is
// spoken: parts under a hundred ("twenty five"), "hundred" after them
// ("five hundred", "fifteen hundred"), scales from large to small ("two
// million five hundred thousand"), "and" inside ("two hundred and
// fifty"), "and a half" before a scale ("one and a half million"), and a
// leading "a" for one ("a hundred", "a thousand"). ok is false for a single
// plain number word, which numberWord reads as before, and for "and"
// between two plain numbers ("two and four" is a list, not six).
//
// compoundNumber stays one loop on purpose: each word's meaning depends on
// the words before it (a unit after a ten adds, "hundred" multiplies what
// is under a hundred, a scale closes a group).
func (c *canonizer) compoundNumber(i int) (float64, int, bool) {
	total, cur := 0.0, 0.0
	lastScale := math.Inf(1)
	const (
		none = iota
		small
		tens
		hundred
		scale
	)
	last, words := none, 0
	j := i
	if w := c.w(j); (w == "a" || w == "an") && (c.w(j+1) == "hundred" || numberScales[c.w(j+1)] > 0) {
		cur, j = 1, j+1 // "a hundred", "a thousand"
		last = small
	}
	for {
		w := c.w(j)
		if v := numberPart(w); v > 0 {
			switch {
			case last == none || last == hundred && int(cur)%100 == 0 || last == scale:
			case last == tens && v < 10 && int(cur)%10 == 0:
			default:
				return 0, 0, false // "five seven": not one number
			}
			cur += v
			if v >= 20 && int(v)%10 == 0 {
				last = tens
			} else {
				last = small
			}
			j++
			words++
			continue
		}
		if w == "hundred" && (last == small || last == tens) && cur > 0 && cur < 100 {
			cur *= 100
			last = hundred
			j++
			words++
			continue
		}
		if f := numberScales[w]; f > 0 && last != none && last != scale && f < lastScale && cur > 0 {
			total += cur * f
			cur, lastScale, last = 0, f, scale
			j++
			words++
			continue
		}
		if w == "and" && last == hundred && numberPart(c.w(j+1)) > 0 {
			j++ // "two hundred and fifty" (after a scale, "and" starts a list: "a million and two h100s")
			continue
		}
		if w == "and" && c.w(j+1) == "a" && c.w(j+2) == "half" && last != none && last != scale {
			if f := numberScales[c.w(j+3)]; f > 0 && f < lastScale {
				total += (cur + 0.5) * f // "one and a half million"
				cur, lastScale, last = 0, f, scale
				j += 4
				words += 2
				continue
			}
		}
		break
	}
	if words < 2 && j == i+1 && !strings.Contains(c.w(i), "-") || words == 0 {
		return 0, 0, false // one plain word ("two"): numberWord's own
	}
	return total + cur, j, true
}

// scaleWords multiply the number before them.
var scaleWords = map[string]float64{
	"thousand": 1e3, "k": 1e3, "million": 1e6, "millions": 1e6, "mil": 1e6, "mn": 1e6, "m": 1e6,
	"billion": 1e9, "billions": 1e9, "bn": 1e9, "b": 1e9, "trillion": 1e12, "t": 1e12,
	"천": 1e3, "만": 1e4, "십만": 1e5, "백만": 1e6, "천만": 1e7, "억": 1e8, "십억": 1e9, "백억": 1e10, "천억": 1e11, "조": 1e12,
}

// scale folds "2.5 million" and "250 만" into the number before them.
func (c *canonizer) scale(i int) int {
	f, ok := scaleWords[c.w(i)]
	if !ok || len(c.out) == 0 {
		return i
	}
	last := &c.out[len(c.out)-1]
	n, unit, ok := reqScanNumber(last.w)
	if !ok || unit != "" || last.end > c.in[i].start || strings.Contains(last.w, "x") {
		return i
	}
	if len(c.w(i)) == 1 && !(c.in[i].start == last.end || c.w(i) == "k") {
		return i // a lone "m" or "b" after a space is not a scale ("2 b" is ambiguous)
	}
	v := n.v * f
	last.w = reqTrimNum(v)
	last.end = c.in[i].end
	last.raw = c.text[last.start:last.end]
	if isHangulWord(c.w(i)) {
		c.koCompound(f) // "1만 5천"
	}
	return i + 1
}

// sizeBeforeWord reads a size said before a generic word for a model ("a
// 124M gpt", "7B급") or before the job it is run in ("max batch for 13b
// inference", "a 7b lora") as the model's size; after a model's name
// ("deepseek-v2-lite 16b lora") the size is that model's, read with it.
func (c *canonizer) sizeBeforeWord(i int, next string) (int, bool) {
	switch next {
	case "급", "class", "-class",
		"model", "models", "llm", "transformer", "network", "net", "모델", "짜리", "dense", "decoder", "moe",
		"gpt", "gpt-style", "lm", "language", "언어": // "a 124M gpt", "a 1B language model": generic words, no catalogue name
		if k := len(c.out); k > 0 && (c.out[k-1].w == "on" || c.out[k-1].w == "of") {
			c.out = c.out[:k-1] // "qlora on a 32B model": the model, not hardware or a dataset
		}
		c.emit(c.w(i)+"-params", i, i+2)
		return i + 2, true
	case "inference", "serving", "training", "pretraining", "finetuning", "fine-tuning", "finetune", "lora", "qlora", "추론", "서빙", "학습", "파인튜닝":
	default:
		return i, false
	}
	if prev := c.w(i - 1); i > 0 && prev != "for" && prev != "of" && prev != "a" && prev != "an" && prev != "the" && c.anyModel() {
		return i, false
	}
	if k := len(c.out); k > 0 && (c.out[k-1].w == "for" || c.out[k-1].w == "of") {
		c.out = c.out[:k-1]
	}
	c.emit(c.w(i)+"-params", i, i+1)
	return i + 1, true
}

// size reads a model size written as a number: "7B model", "a 124M model",
// "7b params" is the readers' own; a bare "7B" when no catalogue model is
// named anywhere is a size too (people say "a 7B" for the model).
func (c *canonizer) size(i int) int {
	n, unit, ok := reqScanNumber(c.w(i))
	if !ok || unit != "" || n.mult == 0 || n.mult == 'k' {
		return i
	}
	if len(c.out) > 0 {
		if prev := c.out[len(c.out)-1].w; prev == "params" || prev == "=" || prev == "parameters" {
			return i // "params 7b" is the readers' own
		}
		if prev := lastW(c.out); !sizeAdjective(prev) && (c.modelPart != nil && c.modelPart(prev) || c.modelKnown != nil && c.modelKnown(prev) && c.modelID(prev) == "" || c.familyVersion()) {
			return i // "qwen2.5 14b", "r1 distill 14b", "라마3 8b": the size picks the family's model
		}
	}
	next := c.w(i + 1)
	if (next == "급" || next == "class" || next == "-class") && c.anyModel() {
		c.skip(i, i+2) // "7B급 모델(Qwen2.5-7B 생각중)": the class of the model named
		return i + 2
	}
	if n, ok := c.sizeBeforeWord(i, next); ok {
		return n
	}
	if c.modelKnown != nil && c.modelKnown(next) && c.modelID(next) == "" && !sizeAdjective(next) && !c.gpu(next) {
		// "8b llama3": the size said before its family reads as "llama3 8b"
		c.emit(next, i, i+2) // both stand for the two words: the spans stay in order
		c.emit(c.w(i), i, i+2)
		return i + 2
	}
	if (n.mult == 'm' || n.mult == 'b') && c.modelID != nil && c.modelID(next) != "" && !sizeAdjective(next) && !c.gpu(next) {
		// "a 125M gpt2": the model's own size said first; "350m gpt2"
		// another size of it, read as "gpt2 350m"
		c.emit(next, i, i+2)
		if c.ownSize(next, n) {
			return i + 2
		}
		c.emit(c.w(i), i, i+2)
		return i + 2
	}
	if reqUnitClass(next) > reqUUnknown {
		return i
	}
	if _, e, ok := koStem(next); ok && e.act == koWord && (e.word == "tokens" || e.word == "samples" || e.word == "steps" || e.word == "epochs") {
		return i // "100B 토큰": an amount, not a size
	}
	if strings.HasPrefix(lastW(c.out), unitMark) {
		return i // "토큰 300B", "토큰 1T면": the unit said first, an amount of it
	}
	if u := lastW(c.out); (u == "tokens" || u == "samples") && isHangulWord(c.in[i-1].w) {
		// "모델 토큰 100B개": the unit in Korean before its number; the
		// number, then its unit, as "100B 토큰" reads
		unit := c.out[len(c.out)-1]
		c.out = c.out[:len(c.out)-1]
		c.emit(c.w(i), i, i+1)
		at := c.in[i].end // spans stay in order: the unit stands where the number ends
		c.out = append(c.out, reqToken{raw: unit.raw, w: unit.w, start: at, end: at})
		if strings.HasPrefix(c.w(i+1), "개") {
			c.skip(i+1, i+2)
			return i + 2
		}
		return i + 1
	}
	if c.anyModel() {
		if prev := lastW(c.out); prev != "" && c.modelID != nil && c.modelID(prev) != "" && !c.gpu(prev) &&
			(c.modelID(prev+"-"+c.w(i)) == "" || c.modelID(prev+"-"+c.w(i)) == c.modelID(prev)) && c.ownSize(prev, n) {
			return i + 1 // "gpt2 124M", "deepseek-r1 671b": the model's own size, read and agreeing
		}
		return c.totalSizeAgain(i, n)
	}
	if n.mult == 'b' || n.mult == 't' || n.mult == 'm' && !c.amountWordsNear(i) {
		c.emit(c.w(i)+"-params", i, i+1) // one word, so a suggestion quoting it reads back the same
		return i + 1
	}
	return i
}

// anyModel reports whether some word of the request names a catalogue
// model.
func (c *canonizer) anyModel() bool {
	if c.modelKnown == nil {
		return false
	}
	for _, toks := range [][]reqToken{c.in, c.out} {
		for k := range toks {
			if isHangulWord(toks[k].w) || reqStartsNumber(toks[k].w) {
				continue
			}
			if c.modelKnown(toks[k].w) || k+1 < len(toks) && c.modelKnown(toks[k].w+"-"+toks[k+1].w) ||
				c.familyLike != nil && c.familyLike(toks[k].w) {
				return true
			}
		}
	}
	return false
}

// amountWordsNear reports whether an epochs/samples/tokens word sits right
// after token i, which makes a bare "124M" an amount, not a size.
func (c *canonizer) amountWordsNear(i int) bool {
	k := reqUnitClass(c.w(i + 1))
	return k == reqUSamples || k == reqUTokens || k == reqUEpochs || k == reqUSteps
}

func digitsOnly(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// adjectives skips the word at j when it stands between a number and its
// unit ("2,400,000 training rows", "half a million instruction pairs"):
// it says what kind of data, not how much. It returns where reading goes
// on (j when there is nothing to skip).
func (c *canonizer) adjectives(j int) int {
	w := c.w(j)
	if u := reqUnitClass(c.w(j + 1)); u != reqUSamples && u != reqUTokens {
		return j
	}
	if w == "" || isHangulWord(w) || reqUnitClass(w) > reqUUnknown || c.gpu(w) || scaleWords[w] != 0 ||
		reqKeywords[w].kind != 0 || reqStartsNumber(w) || w == "," {
		return j
	}
	if d, ok := lookupDataset(w); ok {
		c.dataset = d.Name // "50k alpaca samples": the size is the request's, the name says what it is
	}
	c.skip(j, j+1)
	return j + 1
}

// numericGPUCount reads "3090x2", "4090x8": a GPU whose name is a number,
// with its count after it, as "2x3090" (the count-first form the hardware
// reader takes for such names).
func (c *canonizer) numericGPUCount(i int) int {
	w := c.w(i)
	k := strings.IndexByte(w, 'x')
	if k <= 0 || k == len(w)-1 || !digitsOnly(w[:k]) || !digitsOnly(w[k+1:]) || !c.gpu(w[:k]) {
		return i
	}
	if v := lastW(c.out); v == "rtx" || v == "geforce" {
		// "rtx 4090x1": the count goes before the brand's name
		c.out = c.out[:len(c.out)-1]
		c.emit(w[k+1:]+"x", i-1, i)
		c.emit(v, i-1, i)
		c.emit(w[:k], i, i+1)
		return i + 1
	}
	c.emit(w[k+1:]+"x"+w[:k], i, i+1)
	return i + 1
}

// amountAfterEpochs puts "samples" after a bare number that follows an
// epoch count ("3ep 40k", "1ep 60k", "3에폭 5만"): people give the dataset
// size right after the epochs.
func (c *canonizer) amountAfterEpochs() {
	var out []reqToken
	for k, t := range c.out {
		out = append(out, t)
		if k == 0 {
			continue
		}
		n, unit, ok := reqScanNumber(t.w)
		if !ok || unit != "" || n.v < 100 {
			continue
		}
		prev := c.out[k-1].w
		_, pu, pok := reqScanNumber(prev)
		epochs := pok && reqUnitClass(pu) == reqUEpochs || reqUnitClass(prev) == reqUEpochs && k >= 2 && reqStartsNumber(c.out[k-2].w)
		if !epochs {
			continue
		}
		if k+1 < len(c.out) && reqUnitClass(c.out[k+1].w) > reqUUnknown || c.gpu(t.w) {
			continue // "3 epochs 1000 steps": its own unit; "20에폭 3090": a GPU
		}
		out = append(out, reqToken{raw: "samples", w: "samples", start: t.end, end: t.end})
	}
	c.out = out
}

// ownSize reports whether size n is model w's own ("gpt2 124M"), within a
// fifth: "deepseek-coder 6.7b" names another size of the family, which the
// model reader takes (familySize), not a repeat to skip.
func (c *canonizer) ownSize(w string, n reqNumber) bool {
	if c.modelParams == nil {
		return true
	}
	have := c.modelParams(w)
	said := n.v // the multiplier applied
	return have == 0 || said == 0 || math.Abs(said-have) <= 0.2*have
}

// sizeAdjective reports whether w sizes a model in words ("small",
// "base"): a variant's name, not a family a number picks from.
func sizeAdjective(w string) bool {
	switch w {
	case "small", "tiny", "mini", "base", "medium", "large", "big", "little", "huge":
		return true
	}
	return false
}

// totalSizeAgain skips a size said again as the named model's whole
// ("아님 전체 30B 다 올려야", "all 30B"); i when it is not.
func (c *canonizer) totalSizeAgain(i int, n reqNumber) int {
	if p := c.w(i - 1); (p == "전체" || p == "total" || p == "총" || p == "all") && n.mult == 'b' {
		c.skip(i, i+1)
		return i + 1
	}
	return i
}

// familyVersion reports whether the words read last are a family and its
// version apart ("라마3" read as "llama" "3"): a size after them is the
// family's model, as after "llama3".
func (c *canonizer) familyVersion() bool {
	k := len(c.out)
	if k < 2 || c.modelPart == nil || !c.modelPart(c.out[k-2].w) {
		return false
	}
	v := c.out[k-1].w
	return v != "" && strings.Trim(v, "0123456789.") == "" && v[0] != '.' && len(v) <= 4
}
