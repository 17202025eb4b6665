package lang

import (
	"strings"
	"time"
)

// The Korean reader's handlers for servers, durations, days and measured
// runs, and the small tests of the words around them (korean.go reads
// the words and dispatches here).

func (c *canonizer) koServerAt(i int, w, stem string, e koEntry) int {
	// "h 서버", "a서버로", "A100 서버", "서버 h", "서버 에이(A)", "서버h"
	if i > 0 {
		if name := c.serverName(c.w(i - 1)); name != "" {
			prev := c.in[i-1]
			if len(c.out) > 0 && c.out[len(c.out)-1].start == prev.start {
				c.out = c.out[:len(c.out)-1]
			}
			c.emit(name, i-1, i+1)
			return i + 1
		}
	}
	if rest := strings.TrimPrefix(w, "서버"); rest != "" && c.serverName(strings.ToLower(rest)) != "" {
		c.emit(c.serverName(strings.ToLower(rest)), i, i+1)
		return i + 1
	}
	if name := c.serverName(c.w(i + 1)); name != "" {
		c.emit(name, i, i+2)
		return i + 2
	}
	c.serverWord = true
	if n := c.w(i + 1); (n == "하나" || n == "한대" || n == "1대" || n == "한" && strings.HasPrefix(c.w(i+2), "대")) && !c.gpu(c.w(i-1)) && !reqStartsNumber(c.w(i-1)) && !strings.HasSuffix(c.w(i-1), "장") && !strings.HasSuffix(c.w(i-1), "장짜리") {
		// "api 서버 하나 띄우려는데": one deployment, no GPU count
		end := i + 2
		if n == "한" {
			end++
		}
		c.skip(i, end)
		return end
	}
	c.skip(i, i+1)
	return i + 1
}

func (c *canonizer) koWithinAt(i int, w, stem string, e koEntry) int {
	c.koDeadline(i, e.act)
	c.skip(i, i+1)
	return i + 1
}

func (c *canonizer) koDurationAt(i int, w, stem string, e koEntry) int {
	if h, n := e.dur, i+1; true {
		if c.w(n) == "반" {
			h, n = h*1.5, n+1 // "하루 반": a day and a half
		}
		if s, e2, ok := koStem(c.w(n)); ok && s != "" && e2.act == koTook {
			// "하루 걸렸는데", "이틀 반 걸렸거든": how long a run took
			c.emit(reqTrimNum(h), i, n)
			c.emit("h", i, n)
			return n
		}
	}
	if next, _, ok := koStem(c.w(i + 1)); ok && (koLexicon()[next].act == koWithin) {
		c.setDeadline(durHours(e.dur), i, i+2)
		return i + 2
	}
	switch strings.TrimPrefix(w, stem) {
	case "안에", "내에", "이내", "내로", "안으로", "이내로":
		c.setDeadline(durHours(e.dur), i, i+1) // "이틀안에", "일주일이내"
		return i + 1
	}
	if rest := strings.TrimPrefix(w, stem); (rest == "에" || rest == "만에") && !c.koPastSaid() && !strings.HasSuffix(c.w(i+2), "번") {
		// "1억 토큰을 하루에 학습하려면", "하루에 몇 토큰": within a day
		c.setDeadline(durHours(e.dur), i, i+1)
		return i + 1
	}
	if (strings.HasSuffix(w, "동안") || strings.HasPrefix(c.w(i+1), "동안")) && !c.koPastSaid() {
		// "일주일 동안 몇 토큰": the time there is
		n := i + 1
		if strings.HasPrefix(c.w(i+1), "동안") {
			n++
		}
		c.setDeadline(durHours(e.dur), i, n)
		return n
	}
	c.skip(i, i+1)
	return i + 1
}

func (c *canonizer) koDayAt(i int, w, stem string, e koEntry) int {
	if next, _, ok := koStem(c.w(i + 1)); ok && koLexicon()[next].act == koUntil {
		if d, ok := c.dayDeadline(stem); ok {
			c.setDeadline(d, i, i+2)
			return i + 2
		}
	}
	if strings.HasSuffix(w, "까지") {
		if d, ok := c.dayDeadline(stem); ok {
			c.setDeadline(d, i, i+1)
			return i + 1
		}
	}
	next := c.w(i + 1)
	if h, n := koClockAt(c.ws(i+1, 4)); n > 0 {
		// "내일 오전 9시까지", "금요일 오후 6시까지": that hour of that day
		if d, ok := c.dayDeadline(stem); ok {
			end := c.now.Add(d)
			y, m, dd := end.Date()
			at := time.Date(y, m, dd, h, 0, 0, 0, end.Location())
			c.setDeadline(at.Sub(c.now), i, i+1+n)
			return i + 1 + n
		}
	}
	if early, ok := koTimeOfDay(next); ok {
		// "모레 오전까지": that day's morning, not its end
		if d, ok := c.dayDeadline(stem); ok {
			c.setDeadline(d-early, i, i+2)
			return i + 2
		}
	}
	if c.w(i+2) == "그" && (c.w(i+3) == "전까지" || c.w(i+3) == "전에") {
		// "월요일 데모인데 그 전까지": before that day
		if d, ok := c.dayDeadline(stem); ok {
			c.setDeadline(d-24*time.Hour, i, i+4)
			c.skip(i+1, i+2)
			return i + 4
		}
	}
	if before := c.w(i + 2); next == "전에" || next == "전까지" || before == "전에" || before == "전까지" {
		// "목요일 전에", "목요일 데모 전에": before that day
		if d, ok := c.dayDeadline(stem); ok {
			n := i + 2
			if next != "전에" && next != "전까지" {
				n = i + 3
			}
			c.setDeadline(d-24*time.Hour, i, n)
			c.skip(i, n)
			return n
		}
	}
	if strings.HasPrefix(next, "데드라인") || strings.HasPrefix(next, "마감") ||
		strings.HasPrefix(c.w(i-1), "데드라인") || strings.HasPrefix(c.w(i-1), "마감") {
		// "금요일 데드라인인데", "마감이 금요일이라"
		if d, ok := c.dayDeadline(stem); ok {
			c.setDeadline(d, i, i+1)
			c.skip(i, i+1)
			return i + 1
		}
	}
	c.skip(i, i+1)
	return i + 1
}

func (c *canonizer) koTookAt(i int, w, stem string, e koEntry) int {
	c.koTook(i)
	return i + 1
}

// koPastSaid reports whether the request tells of a run in the past tense
// ("돌렸는데", "걸렸어", "나왔고", "했더니"): "3일 동안" then says how long
// it ran, not the time there is.
func (c *canonizer) koPastSaid() bool {
	for _, t := range c.in {
		for _, m := range []string{"렸", "했", "었", "았", "나왔", "걸림", "됐"} {
			if strings.Contains(t.w, m) {
				return true
			}
		}
	}
	return false
}

// koRaisesModel reports whether 올리다 after prev puts a model on GPUs
// ("모델 올리면", "h100 두장에 올리면"), not a setting raised ("배치
// 올리면", "시퀀스 8k로 올리면", "4로 올리면").
func koRaisesModel(prev string) bool {
	for _, p := range []string{"배치", "batch", "시퀀스", "컨텍스트", "lr", "학습률", "랭크", "rank"} {
		if strings.HasPrefix(prev, p) {
			return false
		}
	}
	return !reqStartsNumber(prev)
}

// koUnitAfter reports whether the word at i is a unit of its own or a
// multiple ("3에폭이면", "3배"), so the number before it is no count of
// samples ("alpaca 데이터 3에폭이면", "데이터가 3배").
func (c *canonizer) koUnitAfter(i int) bool {
	w := c.w(i)
	if strings.HasPrefix(w, "배") {
		return true
	}
	if _, e, ok := koStem(w); ok && e.act == koWord {
		switch e.word {
		case "epochs", "steps", "tokens", "samples", "images", "params", "seq", "batch":
			return true
		}
	}
	return false
}

// koCkptOnOff reads, after a checkpointing word at i, the words that ask
// it on and off together: "켰을 때랑 껐을 때", "켜고 끄고", "켠 거랑 끈
// 거", "유무", "on/off", "있을 때랑 없을 때"; the index after them, or i.
func (c *canonizer) koCkptOnOff(i int) int {
	if w := c.w(i + 1); strings.HasPrefix(w, "유무") || w == "on/off" || w == "온오프" {
		return i + 2
	}
	on, off := false, false
	for k := i + 1; k < len(c.in) && k <= i+6; k++ {
		w := c.w(k)
		switch {
		case strings.HasPrefix(w, "켰") || strings.HasPrefix(w, "켜고") || strings.HasPrefix(w, "켠") || strings.HasPrefix(w, "있을"):
			on = true
		case strings.HasPrefix(w, "껐") || strings.HasPrefix(w, "끄고") || strings.HasPrefix(w, "끈") || strings.HasPrefix(w, "없을"):
			off = true
		}
		if on && off {
			n := k + 1
			for n < len(c.in) && (strings.HasPrefix(c.w(n), "때") || strings.HasPrefix(c.w(n), "거")) {
				n++
			}
			return n
		}
	}
	return i
}

// koAfterWord is "뒤" or "후" after a duration ("2주 뒤 데드라인", "3일 후에
// 발표"): the time from now to a deadline.
func koAfterWord(w string) bool {
	switch w {
	case "뒤", "뒤에", "뒤까지", "후", "후에", "후까지", "뒤가", "후가":
		return true
	}
	return false
}

// koTookBefore reports whether a took-word came before input i ("스텝당
// 0.8초 나왔어요 … 얼마?"): "얼마" after a measured run asks its time there.
func (c *canonizer) koTookBefore(i int) bool {
	for k := 0; k < i; k++ {
		if _, e, ok := koStem(c.w(k)); ok && e.act == koTook {
			return true
		}
	}
	return false
}

// costWordSaid reports whether the request names money ("비용", "돈",
// "가격", "달러", "cost"): "얼마" then asks a cost after all.
func (c *canonizer) costWordSaid() bool {
	for _, t := range c.in {
		for _, m := range []string{"비용", "돈", "가격", "달러", "원", "cost", "price", "$"} {
			if strings.HasPrefix(t.w, m) {
				return true
			}
		}
	}
	return false
}
