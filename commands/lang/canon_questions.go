package lang

import (
	"strings"
	"time"
)

// Questions in the reading pass: deadlines, which-questions, the verbs
// that make a request a question.

// englishDeadline reads "in a day", "within 24h", "in under 2 days", "by
// friday", "by tomorrow": how soon the job must be done.
func (c *canonizer) englishDeadline(i int) (int, bool) {
	w := c.w(i)
	if n, ok := c.spanHad(i); ok {
		return n, true
	}
	if n, ok := c.timeThereIs(i); ok {
		return n, true
	}
	if n, ok := c.durationDeadline(i); ok {
		return n, true // "2 day deadline", "deadline 3일", "deadline: 48h"
	}
	if w == "on" || w == "due" || w == "deadline" {
		// "the deadline on Friday", "due tomorrow", "deadline is friday"
		j := i + 1
		for c.w(j) == "is" || c.w(j) == "by" || c.w(j) == "on" || c.w(j) == ":" {
			j++
		}
		if d, ok := c.dayDeadline(c.w(j)); ok {
			early, n := englishTimeOfDay(c.w(j + 1))
			c.setDeadline(d-early, i, j+1+n)
			return j + 1 + n, true
		}
		if w != "on" {
			if n, ok := c.byDeadline("by", i, j); ok {
				return n, true // "our deadline is next Friday", "deadline: end of month"
			}
			if day, n, ok := c.englishDate(j); ok {
				if left, ok := c.until(day); ok {
					c.setDeadline(left, i, n) // "our deadline is Dec 15"
					return n, true
				}
			}
		}
		return i, false
	}
	if (w == "until" || w == "till" || w == "til") && c.w(i+1) != "" {
		w = "by" // "until dec 15": by then
	}
	if w != "in" && w != "within" && w != "by" && w != "under" && w != "before" {
		return i, false
	}
	if w == "in" && c.pastBefore(i) && !c.deadlineWordsBefore(i) {
		return i, false // "did 1 epoch … in 3h on a single l4": how long it took, not a deadline
	}
	j := i + 1
	for c.w(j) == "under" || c.w(j) == "less" || c.w(j) == "than" || c.w(j) == "at" || c.w(j) == "most" || c.w(j) == "about" {
		j++
	}
	if w == "by" || w == "before" {
		return c.byWhom(w, i, j)
	}
	n := 1.0
	switch v := c.w(j); {
	case v == "a" || v == "an" || v == "one":
		j++
	default:
		if f, unit, ok := reqScanNumber(v); ok && f.v > 0 {
			n = f.v
			if unit != "" {
				if d, ok := deadlineUnit(unit); ok {
					c.setDeadline(time.Duration(n*float64(d)), i, j+1)
					return j + 1, true
				}
				return i, false
			}
			j++
		} else if k, ok := englishNumbers[v]; ok {
			n = k
			j++
		} else {
			return i, false
		}
	}
	d, ok := deadlineUnit(c.w(j))
	if !ok {
		return i, false
	}
	c.setDeadline(time.Duration(n*float64(d)), i, j+1)
	return j + 1, true
}

// byDeadline reads the day after "by" or "before" (w) at j: "by end of
// next week", "by next friday", "by tomorrow morning", "by dec 15".
func (c *canonizer) byDeadline(w string, i, j int) (int, bool) {
	if d, n, ok := c.endOf(j); ok {
		c.setDeadline(d, i, n) // "by end of next week", "by the end of the month", "by eow"
		return n, true
	}
	if d, ok := c.weekDeadline(c.w(j), c.w(j+1)); ok {
		c.setDeadline(d, i, j+2)
		return j + 2, true
	}
	if eod := c.w(j); (eod == "eod" || eod == "cob") && c.w(j+1) != "" {
		if d, ok := c.dayDeadline(c.w(j + 1)); ok && c.w(j+1) != "today" {
			early, _ := englishTimeOfDay(eod)
			c.setDeadline(d-early, i, j+2) // "by EOD friday": that day's end of work
			return j + 2, true
		}
	}
	if d, ok := c.dayDeadline(c.w(j)); ok {
		early, n := englishTimeOfDay(c.w(j + 1))
		c.setDeadline(d-early, i, j+1+n)
		return j + 1 + n, true
	}
	if day, n, ok := c.englishDate(j); ok {
		if left, ok := c.until(day); ok {
			if w == "before" {
				left -= 24 * time.Hour
			}
			c.setDeadline(left, i, n) // "by dec 15", "by the 15th", "before 12/15"
			return n, true
		}
	}
	return i, false
}

// englishTimeOfDay reads a part of the day after a day's name ("tomorrow
// morning", "friday evening"): how long before the day's end it falls,
// and how many words it took.
func englishTimeOfDay(w string) (time.Duration, int) {
	switch w {
	case "morning", "am", "noon", "lunch", "lunchtime", "midday":
		return 12 * time.Hour, 1
	case "afternoon", "evening", "eod", "pm":
		return 5 * time.Hour, 1
	case "night", "midnight":
		return 0, 1
	}
	return 0, 0
}

func deadlineUnit(w string) (time.Duration, bool) {
	switch w {
	case "h", "hr", "hrs", "hour", "hours", "시간":
		return time.Hour, true
	case "d", "day", "days", "일":
		return 24 * time.Hour, true
	case "w", "wk", "week", "weeks", "주", "주일":
		return 7 * 24 * time.Hour, true
	case "min", "mins", "minute", "minutes", "분":
		return time.Minute, true
	case "month", "months", "mo", "달", "개월":
		return 30 * 24 * time.Hour, true // "in a month": thirty days
	}
	return 0, false
}

// dayDeadline is the time from now to the end of the named day ("friday",
// "tomorrow", "내일", "금요일").
func (c *canonizer) dayDeadline(w string) (time.Duration, bool) {
	now := c.now
	end := func(days int) time.Duration {
		y, m, d := now.AddDate(0, 0, days).Date()
		return time.Date(y, m, d, 23, 59, 0, 0, now.Location()).Sub(now)
	}
	switch w {
	case "today", "tonight", "eod", "오늘":
		return end(0), true
	case "tomorrow", "tmrw", "내일":
		return end(1), true
	case "모레":
		return end(2), true
	}
	if wd, ok := whenWeekdays[w]; ok {
		days := (int(wd) - int(now.Weekday()) + 7) % 7
		if days == 0 && !c.thisWeek {
			days = 7
		}
		if c.nextWeek {
			// the day in the week after this one (weeks start on Monday)
			iso := func(d time.Weekday) int { return (int(d)+6)%7 + 1 }
			days = 8 - iso(now.Weekday()) + iso(wd) - 1
		}
		return end(days), true
	}
	return 0, false
}

func (c *canonizer) setDeadline(d time.Duration, a, b int) {
	if d <= 0 {
		return
	}
	c.deadline = d
	c.deadlineWord = strings.TrimSpace(c.text[c.in[a].start:c.in[b-1].end])
	if c.ask == AskNone || c.ask == AskFit {
		// settleAsk decides: a count, or whether it finishes in time ("is
		// server-h enough for … in a month?" asks the time, not the fit)
		c.deadlineAsk = true
	}
}

// runVerb reports whether "run" after this word is the verb (to run a
// model: inference), not the noun ("our run", "the run").
func runVerb(prev string) bool {
	switch prev {
	case "", "i", "we", "you", "it", "to", "can", "could", "and", "just", "me", "us", "then", "also", "even", "will", "would",
		"gonna", "wanna", "gotta", "i'll", "we'll", "let's", "lets", "for":
		return true
	}
	return false
}

// which reads a choice asked for ("which one", "faster") over n words: of
// the team's servers when the request names one, else of GPUs.
func (c *canonizer) which(i, n int) int {
	if c.anyServer() {
		c.setAsk(AskWhichServer)
	} else {
		c.setAsk(AskWhichGPU)
	}
	c.notePreference(c.w(i + n)) // "which is cheaper", "which one is faster"
	c.skip(i, i+n)
	return i + n
}

// afterAmount reports whether the words just read end in an amount or its
// unit ("3.5 h", "19,252 steps"): then "per epoch" belongs to it (a
// measured run, steps per epoch), not to the question.
func (c *canonizer) afterAmount() bool {
	w := lastW(c.out)
	if _, unit, ok := reqScanNumber(w); ok {
		return unit == "" || reqUnitClass(unit) > reqUUnknown
	}
	return reqUnitClass(w) > reqUUnknown
}

// keepPer lists what "per" is the readers' own before: "per gpu 32",
// "h per epoch", "samples per sec".
func keepPer(next string) bool {
	switch next {
	case "gpu", "device", "epoch", "ep", "step", "sec", "second", "s", "it", "iteration", "hour", "h", "day", "min", "minute":
		return true
	}
	return false
}

func isContextWord(w string) bool {
	switch w {
	case "context", "ctx", "seq", "seqlen", "context-length", "sequence", "tokens-context":
		return true
	}
	// "128k 컨텍스트", "32k 문맥에서": the Korean words, particle and all
	return strings.HasPrefix(w, "컨텍스트") || strings.HasPrefix(w, "문맥") || strings.HasPrefix(w, "시퀀스")
}

// pastBefore reports whether a past-tense verb of a measured run comes
// before input i ("it took", "we did", "ran", "finished").
func (c *canonizer) pastBefore(i int) bool {
	for k := 0; k < i; k++ {
		switch c.w(k) {
		case "did", "took", "ran", "finished", "completed", "measured", "was", "were", "got":
			return true
		}
	}
	return false
}

// deadlineWordsBefore reports whether the words just before input i ask
// for a finish ("to finish it in 2 days", "need it done in a week"), which
// makes "in N days" a deadline even after a measured run.
func (c *canonizer) deadlineWordsBefore(i int) bool {
	for k := i - 1; k >= 0 && k >= i-4; k-- {
		switch c.w(k) {
		case "finish", "finished", "done", "complete", "need", "needs", "to", "want", "under", "by":
			return true
		case "did", "took", "ran", "was", "were", "measured":
			return false
		}
	}
	return false
}

// modalBefore reports whether a question's modal verb starts the sentence
// before input i ("can a 5090 run gemma", "could X run on …"): then "run"
// is the verb, and the question is whether it fits.
func (c *canonizer) modalBefore(i int) bool {
	for k := 0; k < i && k < 3; k++ {
		switch c.w(k) {
		case "can", "could", "will", "would", "does", "do", "is":
			switch c.w(0) {
			case "what", "how", "which", "when", "where", "why":
				// "what would it cost to run …", "how would mixtral run":
				// the wh-word asks, "run" is still the verb
			default:
				c.setAsk(AskFit)
			}
			return true
		}
	}
	return false
}

// koWeekRef reads "다음 주" / "다음주" / "이번 주" as the week a day is in
// ("다음 주 월요일까지"), not as a duration asked about: the words are
// skipped, and "다음" moves the weekday that follows to next week.
func (c *canonizer) koWeekRef(i int) int {
	if d, n := c.koPeriodEnd(i); n > i {
		c.setDeadline(d, i, n) // "다음 주 말까지", "이번 달 안에", "월말까지"
		return n
	}
	n, next := 0, false
	switch w, w2 := c.w(i), c.w(i+1); {
	case w == "다음주" || w == "담주":
		n, next = 1, true
	case w == "이번주":
		n = 1
	case (w == "다음" || w == "담") && (w2 == "주" || w2 == "주에"):
		n, next = 2, true
	case w == "이번" && (w2 == "주" || w2 == "주에"):
		n = 2
	}
	if n == 0 {
		return i
	}
	c.nextWeek, c.thisWeek = next, !next
	c.skip(i, i+n)
	return i + n
}

// weekDeadline reads "next friday", "this friday", "next week" (its
// Sunday), "this week" after "by": the time to the end of that day.
func (c *canonizer) weekDeadline(which, day string) (time.Duration, bool) {
	_, weekday := whenWeekdays[day]
	if which != "next" && which != "this" || day != "week" && !weekday {
		return 0, false
	}
	if day == "week" {
		day = "sunday"
	}
	next, this := c.nextWeek, c.thisWeek
	c.nextWeek, c.thisWeek = which == "next", which == "this"
	defer func() { c.nextWeek, c.thisWeek = next, this }()
	return c.dayDeadline(day)
}

// endOf reads "end of next week", "the end of the week", "end of this
// month", "eow", "eom" at j: the time to that week's Sunday or the
// month's last day, and where the words end.
func (c *canonizer) endOf(j int) (time.Duration, int, bool) {
	switch c.w(j) {
	case "eow":
		d, ok := c.weekDeadline("this", "week")
		return d, j + 1, ok
	case "eom":
		return c.monthEnd(0), j + 1, true
	}
	if c.w(j) == "the" {
		j++
	}
	if c.w(j) != "end" || c.w(j+1) != "of" {
		return 0, j, false
	}
	k := j + 2
	which := "this"
	switch c.w(k) {
	case "the", "this":
		k++
	case "next":
		which = "next"
		k++
	}
	switch c.w(k) {
	case "week":
		d, ok := c.weekDeadline(which, "week")
		return d, k + 1, ok
	case "month":
		months := 0
		if which == "next" {
			months = 1
		}
		return c.monthEnd(months), k + 1, true
	}
	return 0, j, false
}

// monthEnd is the time to the end of the month months after this one.
func (c *canonizer) monthEnd(months int) time.Duration {
	y, m, _ := c.now.Date()
	first := time.Date(y, m+time.Month(months)+1, 1, 0, 0, 0, 0, c.now.Location())
	return first.Add(-time.Minute).Sub(c.now)
}

// koQuarterEnd reads "이번 분기 안에", "다음 분기까지", "분기말까지": the
// time to the last day of this quarter (or the next), and where the words
// end; i when none is there.
func (c *canonizer) koQuarterEnd(i int) (time.Duration, int) {
	w, k, next := c.w(i), i+1, false
	switch {
	case strings.HasPrefix(w, "분기말"):
	case (w == "이번" || w == "다음") && strings.HasPrefix(c.w(i+1), "분기"):
		next, w, k = w == "다음", c.w(i+1), i+2
	case strings.HasPrefix(w, "이번분기") || strings.HasPrefix(w, "다음분기"):
		next = strings.HasPrefix(w, "다음")
	default:
		return 0, i
	}
	rest := w[strings.Index(w, "분기")+len("분기"):]
	if rest == "" {
		rest, k = c.w(k), k+1
	}
	switch strings.TrimPrefix(rest, "말") {
	case "까지", "안에", "내로", "내에", "중으로", "중에", "전까지", "이내":
	default:
		return 0, i
	}
	_, m, _ := c.now.Date()
	months := (3 - (int(m)-1)%3) - 1 // to the quarter's last month
	if next {
		months += 3
	}
	return c.monthEnd(months), k
}

// koPeriodEnd reads the end of a week or a month said in Korean — "다음 주
// 말까지", "이번 주 안에", "이번주 중으로", "주말까지", "이번 달 말까지",
// "다음 달 안에", "월말까지" — as the time to that week's Sunday or that
// month's last day, and where the words end; i when none is there.
func (c *canonizer) koPeriodEnd(i int) (time.Duration, int) {
	w := c.w(i)
	if strings.HasPrefix(w, "월말") {
		return c.monthEnd(0), i + 1
	}
	if d, n := c.koQuarterEnd(i); n > i {
		return d, n
	}
	which, unit, k := "", "", i
	switch {
	case w == "다음주" || w == "담주" || w == "이번주" || w == "다음달" || w == "이번달" || w == "이달" || w == "담달":
		which, unit, k = w[:len(w)-len("주")], w[len(w)-len("주"):], i+1
		if strings.HasSuffix(w, "달") {
			which, unit = w[:len(w)-len("달")], "달"
		}
	case (w == "다음" || w == "담" || w == "이번") && (strings.HasPrefix(c.w(i+1), "주") || strings.HasPrefix(c.w(i+1), "달")):
		which, unit, k = w, c.w(i+1), i+2
	case strings.HasPrefix(w, "주말까지"):
		which, unit, k = "이번", "주말까지", i+1
	default:
		return 0, i
	}
	// what follows the week or month: its end (말까지, 말 안에), within it
	// (안에, 내로, 중으로), or the end glued to it ("주말까지")
	end := strings.TrimPrefix(strings.TrimPrefix(unit, "주"), "달")
	if end == "" {
		end = c.w(k)
		k++
		if end == "말" || end == "말에" {
			end += c.w(k)
			k++
		}
	}
	switch strings.TrimPrefix(end, "말") {
	case "까지", "안에", "내로", "내에", "중으로", "중에", "전까지", "이내":
	default:
		return 0, i
	}
	next := which == "다음" || which == "담"
	if strings.HasPrefix(unit, "달") {
		months := 0
		if next {
			months = 1
		}
		return c.monthEnd(months), k
	}
	d, ok := c.weekDeadline(map[bool]string{true: "next", false: "this"}[next], "week")
	if !ok {
		return 0, i
	}
	return d, k
}

// timeThereIs reads the time there is said as a possession or a fraction:
// "I have 3 days", "we've got 2 weeks", "half a day on 4 a100s" (not "half
// a day per epoch", a measured rate): a deadline.
func (c *canonizer) timeThereIs(i int) (int, bool) {
	if (c.w(i) == "have" || c.w(i) == "got") && !c.pastBefore(i) {
		// "I have 3 days", "we've got 2 weeks": the time there is
		if f, unit, ok := reqScanNumber(c.w(i + 1)); ok && f.v > 0 {
			if d, ok := deadlineUnit(unit); ok && unit != "" {
				c.setDeadline(durScale(f.v, d), i, i+2)
				return i + 2, true
			}
			if d, ok := deadlineUnit(c.w(i + 2)); ok && unit == "" {
				c.setDeadline(durScale(f.v, d), i, i+3)
				return i + 3, true
			}
		}
	}
	if f, unit, ok := reqScanNumber(c.w(i)); ok && f.v > 0 && !c.pastBefore(i) {
		// "4 days left", "2 weeks left": the time there is
		n, d, okU := i+1, time.Duration(0), false
		if unit != "" {
			d, okU = deadlineUnit(unit)
		} else {
			d, okU = deadlineUnit(c.w(i + 1))
			n = i + 2
		}
		if okU && (c.w(n) == "left" || c.w(n) == "remaining") {
			c.setDeadline(durScale(f.v, d), i, n+1)
			return n + 1, true
		}
	}
	if c.w(i) == "half" && !c.pastBefore(i) {
		// "half a day on 4 a100s — how many tokens": twelve hours there
		// are (not half precision); "half a day per epoch" is a rate
		n := i + 1
		if c.w(n) == "a" || c.w(n) == "an" {
			n++
		}
		if d, ok := deadlineUnit(c.w(n)); ok && halfDuration(c.w(i+1), c.w(i+2)) > 0 && !c.halfRate(i) {
			c.setDeadline(d/2, i, n+1)
			return n + 1, true
		}
	}
	return i, false
}

// finishAsked reports whether the request asks if the job finishes ("will
// it finish", "done in time"): a span said with "for" is then the time it
// has.
func (c *canonizer) finishAsked() bool {
	for _, t := range c.in {
		if t.w == "finish" || t.w == "finish?" || t.w == "done" || t.w == "done?" || t.w == "finished" {
			return true
		}
	}
	return false
}

// spanHad reads a time the job has, said with "a": "we have a week",
// "got one day", "have server-h for a week" when finishing is asked; and
// "for 2 weeks" after "how many GPUs".
func (c *canonizer) spanHad(i int) (int, bool) {
	w := c.w(i)
	if w == "for" && c.ask == AskCount {
		// "how many A100s for 2 weeks?": the GPUs that finish in that time
		if v, unit, ok := reqScanNumber(c.w(i + 1)); ok && v.v > 0 && unit == "" {
			if d, ok := deadlineUnit(c.w(i + 2)); ok {
				c.setDeadline(durScale(v.v, d), i, i+3)
				return i + 3, true
			}
		}
	}
	if w == "have" || w == "got" {
		// "we have two weeks and about $3000", "only have 10 days": the time there is
		n := numberPart(c.w(i + 1))
		if v, unit, ok := reqScanNumber(c.w(i + 1)); ok && unit == "" {
			n = v.v
		}
		if d, ok := deadlineUnit(c.w(i + 2)); ok && n > 1 {
			c.setDeadline(durScale(n, d), i, i+3)
			return i + 3, true
		}
	}
	if _, ok := deadlineUnit(c.w(i + 2)); ok && w == "for" && (c.w(i+1) == "a" || c.w(i+1) == "one") && !c.finishAsked() && priceAsked(strings.ToLower(c.text)) && !c.servingSaid() {
		// "how much would it cost to fine-tune … for a day?": what that
		// span buys, read as "for 1 day" is (serving for a week is
		// servingSpan's)
		c.in[i+1].w = "1"
		return i, false
	}
	if c.w(i+1) != "a" && c.w(i+1) != "one" || w != "have" && w != "got" && (w != "for" || !c.finishAsked()) {
		return i, false
	}
	d, ok := deadlineUnit(c.w(i + 2))
	if !ok {
		return i, false
	}
	c.setDeadline(d, i, i+3)
	return i + 3, true
}

// byWhom reads a day after "by" or "before": the job's deadline, or,
// after what a person hands in ("my manager wants numbers by monday"),
// when the answer is due, which is no deadline of the job's.
func (c *canonizer) byWhom(w string, i, j int) (int, bool) {
	if !reportWord(c.w(i - 1)) {
		return c.byDeadline(w, i, j)
	}
	d, dw, da := c.deadline, c.deadlineWord, c.deadlineAsk
	n, ok := c.byDeadline(w, i, j)
	c.deadline, c.deadlineWord, c.deadlineAsk = d, dw, da
	if ok {
		c.skip(i, n)
	}
	return n, ok
}

// reportWord reports whether w names what a person must hand in, not the
// job: "numbers by monday", "an estimate by friday".
func reportWord(w string) bool {
	switch w {
	case "numbers", "estimate", "estimates", "answer", "report", "slides", "quote", "figures", "proposal":
		return true
	}
	return false
}

// perUnitAsked drops the "/epoch" and "/step" words no measured time took
// ("에폭당 얼마나"): a time per epoch or step asked for, not measured. An
// epoch's time asked is kept (no recipe's epochs are planned then).
func (c *canonizer) perUnitAsked() {
	out := c.out[:0]
	for k, t := range c.out {
		if t.w == "/epoch" || t.w == "/step" {
			c.epochAsked = c.epochAsked || t.w == "/epoch"
			continue
		}
		if t.w == "per" && k == len(c.out)-1 && k > 1 && c.out[k-1].w == "tokens" && reqStartsNumber(c.out[k-2].w) && c.ask == AskCost && len(out) >= 2 {
			// "100만 토큰당 비용": the price per tokens generated, as
			// "cost per 1M tokens" asks it, not that many tokens of work
			if a, b := c.out[k-2].start, t.end; a < b && b <= len(c.text) {
				c.skipped = append(c.skipped, strings.TrimSpace(c.text[a:b]))
			}
			out = out[:len(out)-2]
			continue
		}
		out = append(out, t)
	}
	c.out = out
}

// canItRun reports whether the request asks whether a job runs at all
// ("돌릴 수 있어?", "can we run …", "되나요", "does it fit"): asked of the
// team's servers, the answer says yes or no before which is fastest. It
// reads whole words, so a server or dataset named "fitbox" is no question.
func (c *canonizer) canItRun() bool {
	for i := range c.in {
		w := strings.TrimRight(c.w(i), "?!.~")
		switch {
		case w == "can" && (c.w(i+1) == "we" || c.w(i+1) == "i"),
			w == "fit" || w == "fits",
			(w == "수" || strings.HasSuffix(w, "수")) && strings.HasPrefix(c.w(i+1), "있"),
			strings.Contains(w, "수있"):
			return true
		}
		for _, k := range []string{"돌아가", "되나", "될까", "돼", "되요", "가능"} {
			if strings.Contains(w, k) {
				return true
			}
		}
	}
	return false
}

// liveSaid reports whether the request says its audio comes live
// ("real-time", "live", "streaming", "실시간").
func (c *canonizer) liveSaid() bool {
	for i := range c.in {
		switch w := c.w(i); {
		case w == "real-time" || w == "realtime" || w == "live" || w == "streaming" || strings.HasPrefix(w, "실시간"),
			w == "real" && c.w(i+1) == "time":
			return true
		}
	}
	return false
}

// promptAfter is how many words after a number say it is a prompt's
// length: "prompt", "prompts", "token-prompt", "token prompts"; 0 for none.
func promptAfter(w []string) int {
	prompt := func(w string) bool {
		return w == "prompt" || w == "prompts" || w == "token-prompt" || w == "token-prompts"
	}
	switch {
	case len(w) > 0 && prompt(w[0]):
		return 1
	case len(w) > 1 && (w[0] == "token" || w[0] == "tokens") && prompt(w[1]):
		return 2
	}
	return 0
}

// koMemoryAsk reports whether a Korean word after a memory word asks its
// amount: "계산", "사용량", "요구량", "필요량".
func koMemoryAsk(w string) bool {
	for _, p := range []string{"계산", "사용량", "요구량", "필요량", "소요량"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// rateQuestion is how many words at a, b, c say a rate unit with no
// number: "tokens per second", "tokens/s", "tok/s", "it/s", "samples per
// sec", "images a second", "speed"; 0 for none.
func rateQuestion(a, b, c string) int {
	switch a {
	case "qps", "rps":
		if reqStartsNumber(b) || reqStartsNumber(strings.TrimLeft(b, "=:")) {
			return 0 // "QPS 10": the load said
		}
		return 1 // "QPS 얼마나 나와요": how many requests a second
	case "tokens", "token", "tok", "toks", "samples", "images", "imgs", "requests", "reqs", "sequences", "seqs", "queries", "docs", "documents", "sentences", "passages":
	case "tokens/s", "tok/s", "tokens/sec", "tok/sec", "samples/s", "images/s", "img/s", "images/sec", "img/sec", "requests/s", "req/s", "sequences/s", "seq/s", "queries/s", "docs/s", "docs/sec", "throughput", "speed", "tps", "t/s":
		return 1 // "generation speed?": how fast
	default:
		return 0
	}
	switch {
	case (b == "per" || b == "a" || b == "/") && (c == "second" || c == "sec" || c == "s"):
		return 3
	case b == "speed" || b == "rate" || b == "throughput":
		return 2 // "token speed on a 4090"
	case b == "/s" || b == "/sec":
		return 2
	}
	return 0
}
