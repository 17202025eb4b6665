package lang

import (
	"strings"
	"unicode/utf8"
)

// Measured runs and slips in the reading pass.

// typoVocabulary are the keywords a slip of the keyboard is read as.
var typoVocabulary = func() []string {
	v := append([]string(nil), reqSuggest...)
	return append(v, "epochs", "epoch", "samples", "tokens", "steps", "examples", "pretraining", "finetuning", "inference")
}()

// typo reads a word of five letters or more that is one edit (or one
// swap) from exactly one keyword, and is no name the catalogue knows.
func (c *canonizer) typo(w string) (string, bool) {
	if len(w) < 5 || reqStartsNumber(w) || englishFillers[w] || c.gpu(w) || c.servers[w] {
		return "", false
	}
	if _, ok := reqKeywords[w]; ok || reqUnitClass(w) > reqUUnknown {
		return "", false
	}
	if c.modelKnown != nil && c.modelKnown(w) {
		return "", false
	}
	found := ""
	n := utf8.RuneCountInString(w)
	for _, k := range typoVocabulary {
		if d := n - utf8.RuneCountInString(k); d > 1 || d < -1 {
			continue // one edit cannot bridge two runes of length
		}
		if osa(w, k) == 1 {
			same := found != "" && reqUnitClass(found) > reqUUnknown && reqUnitClass(found) == reqUnitClass(k)
			if found != "" && found != k && !same {
				return "", false
			}
			if found == "" {
				found = k
			}
		}
	}
	return found, found != ""
}

// measurement reports whether a time amount at i is a measured run: hours
// per epoch or step, or hours on named hardware, not after a word that
// already says so ("baseline", "took") nor a deadline ("in 36 hours").
func (c *canonizer) measurement(i int) bool {
	n, unit, ok := reqScanNumber(c.w(i))
	if !ok || n.v <= 0 {
		return false
	}
	if unit == "" && c.gpu(c.w(i)) && rateQuestion(c.w(i+1), c.w(i+2), c.w(i+3)) > 0 {
		return false // "llama 3 8b 4090 tokens/s?": the card, then the rate asked
	}
	for k := i + 1; k < len(c.in) && k <= i+4; k++ {
		if _, e, ok := koStem(c.w(k)); ok && e.act == koTook {
			return false // "3200 tokens/s 나왔는데": the Korean took-word reads the run and its hardware (…에서)
		}
	}
	j := i + 1
	if unit == "" && !isParamSize(c.w(i)) && !isMemWord(c.w(i)) && rateQuestion(c.w(i+1), c.w(i+2), c.w(i+3)) == 3 {
		unit, j = rateUnit(c.w(i+1)), i+4 // "500 tokens per second": a rate in words
	} else if unit == "" {
		unit = c.w(j)
		j++
	}
	unit = strings.TrimSuffix(unit, "/gpu") // "950 tokens/s/gpu": a per-GPU rate is a rate
	switch unit {
	case "h", "hr", "hrs", "hour", "hours", "min", "mins", "minutes", "s", "sec", "secs", "seconds", "d", "day", "days",
		"h/epoch", "h/ep", "s/step", "s/it", "min/epoch":
	default:
		if !strings.Contains(unit, "/") || reqUnitClass(unit) != reqUTime ||
			strings.HasPrefix(unit, "req") || strings.HasPrefix(unit, "quer") {
			return false // a request rate ("10 req/s") is load asked for, not a run
		}
		// a training rate ("1,500 tokens/s", "420 img/s"): a speed is only
		// ever measured, so it is a run whatever words surround it
	}
	if prev := lastW(c.out); (prev == "in" || prev == "within" || prev == "under" || prev == "for" || prev == "by") && !c.pastBefore(i) {
		return false
	}
	for _, t := range c.in {
		if t.w == "baseline" || t.w == "took" || t.w == "measured" {
			return false // the readers' own keyword says it
		}
	}
	if strings.Contains(unit, "/") {
		return true
	}
	switch {
	case c.w(j) == "per" || c.w(j) == "an" && c.w(j+1) == "epoch" || c.w(j) == "each" || c.w(j) == "a" && c.w(j+1) == "epoch":
		return true
	case c.w(j) == "on":
		next := c.w(j + 1)
		for k := j + 2; next == "a" || next == "an" || next == "one" || next == "the" || next == "single"; k++ {
			next = c.w(k)
		}
		_, rest, isNum := reqScanInt(next)
		if !(c.gpu(next) || c.servers[next] || isNum && (rest == "x" || rest == "" || c.gpu(strings.TrimPrefix(rest, "x")))) {
			return false
		}
		// "385 h on 1x a6000 … on 8x h100": measured there, asked here
		for k := j + 2; k < len(c.in); k++ {
			if w := c.in[k].w; c.gpu(w) || c.servers[w] || c.gpu(strings.TrimSuffix(w, "s")) {
				if k > j+3 {
					return true
				}
			}
		}
		return false
	}
	return false
}

// scaleAfter applies a Korean scale word right after a number the dataset
// reader took ("128만 장"), so the size is whole.
func (c *canonizer) scaleAfter(j int) int {
	if j < len(c.in) {
		if _, e, ok := koStem(c.w(j)); ok && e.act == koScale && len(c.out) >= 2 {
			num := &c.out[len(c.out)-2] // before the unit just emitted
			if n, unit, ok := reqScanNumber(num.w); ok && unit == "" {
				stem, _, _ := koStem(c.w(j))
				num.w = reqTrimNum(n.v * scaleWords[stem])
			}
			j++
			if j < len(c.in) {
				if _, e2, ok := koStem(c.w(j)); ok && (e2.act == koCounter || e2.act == koWord && e2.word == "images") {
					j++ // "128만 장": the counter names what was counted
				}
			}
		}
	}
	return j
}

// retractModel drops the model words just read ("gpt2 small? no: …").
func (c *canonizer) retractModel() {
	for len(c.out) > 0 {
		w := lastW(c.out)
		if c.modelKnown != nil && c.modelKnown(w) || c.modelPart != nil && c.modelPart(w) || w == "small" || w == "base" || w == "large" {
			c.out = c.out[:len(c.out)-1]
			continue
		}
		break
	}
}

// measuredJustBefore reports whether the words just read are a measured
// run's value and unit ("measured 3.5 hours per epoch", "took 2 days").
func (c *canonizer) measuredJustBefore() bool {
	n := len(c.out)
	for k := n - 1; k >= 0 && k >= n-5; k-- {
		switch c.out[k].w {
		case "baseline", "measured", "took":
			return k < n-1
		}
	}
	return false
}

// moveHardware finds "on <hardware>" within the next words and reads it
// now, as zero-width words here; the input words are marked read. It
// returns how many words were moved (0: none found).
func (c *canonizer) moveHardware(j int) int {
	for k := j; k < len(c.in) && k < j+8; k++ {
		if c.w(k) != "on" {
			continue
		}
		end := k + 1
		for end < len(c.in) && end < k+5 {
			w := c.w(end)
			_, rest, isNum := reqScanInt(w)
			switch {
			case isNum && (rest == "" || rest == "x" || c.gpu(strings.TrimPrefix(rest, "x"))), w == "x", w == "a", w == "one", w == "single",
				c.gpu(w), len(w) > 2 && c.gpu(strings.TrimSuffix(w, "s")), isMemWord(w), c.servers[w]:
				end++
				continue
			}
			break
		}
		if end == k+1 || !c.anyGPU(k+1, end) {
			return 0
		}
		if c.moved == nil {
			c.moved = map[int]bool{}
		}
		at := c.in[j-1].end
		for m := k; m < end; m++ {
			c.moved[m] = true
			w := c.w(m)
			switch w {
			case "a", "one", "single":
				w = "1"
			}
			if t := strings.TrimSuffix(w, "s"); !c.gpu(w) && len(w) > 2 && c.gpu(t) {
				w = t
			}
			c.out = append(c.out, reqToken{raw: c.in[m].raw, w: w, start: at, end: at})
		}
		return end - k
	}
	return 0
}

// runOnHardwareBefore reads the time of a run whose hardware was said
// first ("ran the same job on 1 a100 in 5h 20m", "it took on 4 v100s in
// 3 days"): the time becomes the measured run's and the hardware moves
// after it, as "baseline 5.333h on 1 a100" reads; i when the words are
// no such run.
func (c *canonizer) runOnHardwareBefore(i int) int {
	if lastW(c.out) != "in" && lastW(c.out) != "for" || !c.pastBefore(i) {
		return i // "ran sft on 8xA100 for 36 hours" too
	}
	_, unit, ok := reqScanNumber(c.w(i))
	if !ok || !reqStartsNumber(c.w(i)) {
		return i
	}
	n := i + 1
	if unit == "" {
		unit, n = c.w(i+1), i+2
	}
	switch unit {
	case "h", "hr", "hrs", "hour", "hours", "d", "day", "days", "min", "mins", "minutes":
	default:
		return i
	}
	end := len(c.out) - 1 // the "in" or "for"
	on := -1
	for k := end - 1; k >= 0 && k >= end-5; k-- {
		if c.out[k].w == "on" {
			on = k
			break
		}
	}
	if on < 0 {
		return i
	}
	hw := append([]reqToken(nil), c.out[on:end]...)
	gpu := false
	for _, t := range hw[1:] {
		_, rest, isNum := reqScanInt(t.w) // "8xa100"
		gpu = gpu || c.gpu(t.w) || c.servers[t.w] || isNum && c.gpu(strings.TrimPrefix(rest, "x"))
	}
	if !gpu {
		return i
	}
	c.out = c.out[:on]
	at := c.in[i].start
	c.out = append(c.out, reqToken{raw: "baseline", w: "baseline", start: at, end: at})
	c.emit(c.w(i), i, i+1)
	if n == i+2 {
		c.emit(c.w(i+1), i+1, i+2)
	}
	c.out = append(c.out, hw...)
	return n
}
