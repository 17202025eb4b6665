package lang

import "strings"

// Counts in Korean: a scale word after a number ("10만", "만 스텝"), a
// bare count beside epochs said apart ("lora/5만/3ep"), and the epoch
// words a native count follows ("에폭 세번").

// koEpochWord reports whether w names epochs ("에폭", "에포크", "epochs").
func koEpochWord(w string) bool {
	switch w {
	case "에폭", "에포크", "epoch", "epochs", "ep":
		return true
	}
	return false
}

// koScaleAt reads a Korean scale word (만, 억, 천) at i: it multiplies the
// number before it, or stands for its own value ("만 스텝").
func (c *canonizer) koScaleAt(i int, w, stem string, e koEntry) int {
	if n := c.scale(i); n > i {
		if c.bareDataCount(n) {
			at := c.out[len(c.out)-1].end
			c.out = append(c.out, reqToken{w: itemsMark, start: at, end: at}) // "lora/5만/3ep": the data
		}
		return n
	}
	// "10만" was split into "10" and "만…": scale by the stem alone
	f := scaleWords[stem]
	if len(c.out) > 0 && f > 0 {
		last := &c.out[len(c.out)-1]
		if n, unit, ok := reqScanNumber(last.w); ok && unit == "" && last.end == c.in[i].start {
			last.w = reqTrimNum(n.v * f)
			last.end = c.in[i].start + len(stem)
			last.raw = c.text[last.start:last.end]
			c.koCompound(f)
			if rest := w[len(stem):]; rest != "" {
				if _, e2, ok := koStem(rest); ok && e2.act == koWord {
					c.out = append(c.out, reqToken{raw: rest, w: e2.word, start: last.end, end: c.in[i].end})
				} else if ok && e2.act == koCounter {
					// "2만개", "250만 장": that many items
					c.out = append(c.out, reqToken{raw: rest, w: itemsMark, start: last.end, end: c.in[i].end})
				}
			}
			return i + 1
		}
	}
	if f > 0 && (len(c.out) == 0 || c.out[len(c.out)-1].end != c.in[i].start) {
		// "만 스텝" is ten thousand steps
		c.out = append(c.out, reqToken{raw: c.text[c.in[i].start : c.in[i].start+len(stem)], w: reqTrimNum(f), start: c.in[i].start, end: c.in[i].start + len(stem)})
		if rest := w[len(stem):]; rest != "" {
			if _, e2, ok := koStem(rest); ok && e2.act == koWord {
				c.out = append(c.out, reqToken{raw: rest, w: e2.word, start: c.in[i].start + len(stem), end: c.in[i].end})
			}
		}
		return i + 1
	}
	c.skip(i, i+1)
	return i + 1
}

// bareDataCount reports whether a count with a Korean scale and nothing
// after it, in a list whose epochs are said apart ("llama8b/lora/5만/3ep"),
// is the data's: a phrase of its own (a separator or the end at i) beside
// an epoch count, which leaves samples as the only thing it can count.
func (c *canonizer) bareDataCount(i int) bool {
	if w := c.w(i); w != "," && w != "" && w != "/" {
		return false
	}
	for k := range c.in {
		if w := c.w(k); koEpochWord(w) || strings.HasSuffix(w, "ep") && reqStartsNumber(w) || strings.HasSuffix(w, "epochs") && reqStartsNumber(w) || strings.HasPrefix(w, "에폭") {
			return true
		}
	}
	return false
}

// copulaRest reports whether rest continues the copula 이 after a noun
// ("이었어요", "이고", "이며", "이라서", "이니까", "이에요"): the noun is said,
// not asked about.
func copulaRest(rest string) bool {
	for _, p := range []string{"었", "고", "며", "라", "니까", "니", "에요", "예요", "거든"} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return false
}

// koBareDeadline reports whether days, weeks or months said with no
// "안에" are a deadline all the same: nothing in the request says a run
// was measured, and a count is asked after them ("15T 토큰 30일 h100 몇
// 장 필요?"). Hours stay a measured run's unless said as a deadline or
// right after the count asked ("몇 장이면 1시간?").
func (c *canonizer) koBareDeadline(i int, unit string) bool {
	j := i - 1
	if reqStartsNumber(c.w(j)) {
		j-- // "… 몇 장이면 1 시간?": the number stands between
	}
	if p := c.w(j); strings.HasSuffix(p, "면") && (strings.HasPrefix(p, "몇") || c.w(j-1) == "몇") {
		return true // "h100 몇 장이면 1시간?": the time the count is asked to meet
	}
	if unit != "d" && unit != "w" && unit != "month" || c.koPastSaid() || c.koTookWithin(0, len(c.in)) {
		return false
	}
	for k := i + 1; k < len(c.in); k++ {
		w := c.w(k)
		if strings.HasPrefix(w, "몇장") || strings.HasPrefix(w, "몇대") || strings.HasPrefix(w, "몇개") ||
			w == "몇" && (strings.HasPrefix(c.w(k+1), "장") || strings.HasPrefix(c.w(k+1), "대") || strings.HasPrefix(c.w(k+1), "개")) {
			return true
		}
	}
	return false
}

// koTimeAndCost reports whether a time word joined to the next by "and"
// names the cost beside it ("시간이랑 비용", "시간하고 비용", "시간과 비용"):
// both are asked, and the number before the time counts something else.
func koTimeAndCost(w, next string) bool {
	for _, j := range []string{"이랑", "랑", "하고", "과", "와", "이나"} {
		if strings.HasSuffix(w, j) && (strings.HasPrefix(next, "비용") || strings.HasPrefix(next, "가격") || strings.HasPrefix(next, "돈")) {
			return true
		}
	}
	return false
}

// koRateNoun skips 토큰 between a GPU and 속도 ("4090 토큰 속도"): the
// card, then the rate asked (속도 asks it), not 4,090 tokens; i when it
// is not there.
func (c *canonizer) koRateNoun(i int, e koEntry) int {
	if e.word == "tokens" && strings.HasPrefix(c.w(i+1), "속도") && len(c.out) > 0 && c.gpu(lastW(c.out)) {
		c.skip(i, i+1)
		return i + 1
	}
	if e.word == "tokens" && (strings.HasPrefix(c.w(i+1), "생성") || strings.HasPrefix(c.w(i+1), "출력")) && strings.HasPrefix(c.w(i+2), "속도") {
		c.skip(i, i+1) // "토큰 생성 속도": the rate named, its number comes later
		return i + 1
	}
	return i
}

// koBatchBefore reports whether the words before a question at i name
// the batch ("배치 사이즈 얼마로", "배치 크기 얼마"): the batch is asked.
func (c *canonizer) koBatchBefore(i int) bool {
	p := c.w(i - 1)
	if strings.HasPrefix(p, "사이즈") || strings.HasPrefix(p, "크기") {
		p = c.w(i - 2)
	}
	return strings.HasPrefix(p, "배치") || p == "batch" || p == "bs"
}
