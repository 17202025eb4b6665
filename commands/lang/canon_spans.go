package lang

import (
	"slices"
	"strings"
)

// spelledSpans writes a span of running time said in Korean words as the
// number the time readers take: "하루 돌리면", "이틀 동안", "일주일 쓰면" →
// "1일", "2일", "7일", so "a100 8장 하루 돌리면 얼마" asks what a day buys,
// as "24시간 돌리면" does ("for a day" in English: haveSpan). A month is serving's span
// (servingSpan) and is left to it; "하루에" (a day's worth of users or
// requests) is another phrase, and "하루 만에" a deadline, joined as
// "하루만에" is read.
func (c *canonizer) spelledSpans() {
	days := map[string]string{"하루": "1", "이틀": "2", "사흘": "3", "나흘": "4", "일주일": "7"}
	for k := 0; k < len(c.in); k++ {
		d, ok := days[c.w(k)]
		split := k+2 < len(c.in) && strings.HasPrefix(c.in[k+1].raw, "만") && c.w(k+2) == "에" // 만 read as 10000, then its particle
		if n := k + 2; ok && (c.w(k+1) == "만에" || split) {
			// "하루 만에 끝나?": a deadline, read as "하루만에" is, not 만
			// (ten thousand) of something
			if split {
				n = k + 3
			}
			c.in[k].w += "만에"
			c.in[k].end = c.in[n-1].end
			c.in = slices.Delete(c.in, k+1, n)
			continue
		}
		if !ok || !koRunSpanNext(c.w(k+1)) {
			continue
		}
		// the number, then its unit as a word of its own, both standing
		// for the word as typed
		t := c.in[k]
		c.in[k].w = d
		c.in = slices.Insert(c.in, k+1, reqToken{raw: "", w: "일", start: t.end, end: t.end})
		k++
	}
}

// koRunSpanNext reports whether w, after a span of days, says the span is
// running time: a run verb or 동안 ("하루 돌리면", "이틀 동안", "일주일
// 빌리면", "하루 정도 학습하면").
func koRunSpanNext(w string) bool {
	for _, p := range []string{"돌리", "돌려", "동안", "쓰면", "써서", "쓰고", "빌리", "빌려", "학습", "훈련", "정도", "풀로", "내내", "꼬박"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// servingSaid reports whether the sentence says serving or inference,
// whose span of time is servingSpan's ("cost of running … inference on
// 4x h100 for a week").
func (c *canonizer) servingSaid() bool {
	for _, t := range c.in {
		switch w := strings.ToLower(t.w); {
		case w == "inference" || w == "serve" || w == "serving" || w == "served" || strings.HasPrefix(w, "서빙") || strings.HasPrefix(w, "추론") || engineWords[w] != "":
			return true
		}
	}
	return false
}
