package lang

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// A load a served model must sustain, said as a rate over any span of
// time: "5k req/min", "300 requests per minute", "100k requests a day",
// "for 20k tok/s", "20k tokens/s needed", "초당 2만 토큰 처리해야",
// "1시간당 100만 토큰 생성해야", "분당 300건", "하루에 요청 10만건". Requests are
// the arrival rate (`rate N`, per second); generated tokens are the output
// the service must sustain (`output-rate N`), turned into requests by the
// planner once the output length is known. A token rate with no word that
// makes it a target ("1,500 tokens/s on a 4090") stays a measured run.

// loadSpans are the seconds in each span a rate can be said over.
var loadSpans = map[string]float64{
	"s": 1, "sec": 1, "second": 1, "min": 60, "minute": 60, "m": 60, "h": 3600, "hr": 3600, "hour": 3600, "day": 86400, "d": 86400,
}

// loadUnit splits a rate unit ("req/min", "tokens/s", "rpm") into what is
// counted (requests or tokens) and the seconds of its span.
func loadUnit(u string) (what string, span float64, ok bool) {
	switch u {
	case "rpm", "qpm":
		return "requests", 60, true
	case "rph":
		return "requests", 3600, true
	case "tpm":
		return "tokens", 60, true
	}
	num, den, cut := strings.Cut(u, "/")
	if !cut {
		return "", 0, false
	}
	span, ok = loadSpans[strings.TrimSuffix(den, "s")]
	if !ok {
		span, ok = loadSpans[den]
	}
	if !ok {
		return "", 0, false
	}
	switch num {
	case "req", "reqs", "request", "requests", "queries", "query", "q", "docs", "doc", "documents", "sentences", "images", "imgs", "calls":
		return "requests", span, true
	case "tok", "toks", "token", "tokens", "t":
		return "tokens", span, true
	}
	return "", 0, false
}

// targetWord reports whether w, before a rate, makes it a load to plan
// for rather than a speed measured: "for 20k tok/s", "need 20k tokens/s".
func targetWord(w string) bool {
	switch w {
	case "for", "need", "needs", "needed", "handle", "serve", "serving", "target", "sustain", "hit", "reach", "deliver", "least", "support":
		return true
	}
	return false
}

// koTargetAfter reports whether one of the words from i on says the rate
// before them is needed ("필요", "처리해야", "생성해야", "목표", "뽑으려면").
func (c *canonizer) koTargetAfter(i int) bool {
	for k := i; k < i+4 && k < len(c.in); k++ {
		w := c.w(k)
		if c.koPastAfter(k) && k == i {
			return false // "하루에 200억 토큰 처리했는데": what a run did
		}
		for _, p := range []string{"필요", "처리", "생성", "목표", "해야", "뽑", "감당", "버티", "서빙", "소화", "려면", "나오게", "받으면", "받을", "들어오", "가능", "이상", "나와야", "기준", "유지", "보장"} {
			if strings.Contains(w, p) {
				return true
			}
		}
	}
	return false
}

// koPastAfter reports whether the words from i tell of a run in the
// past ("처리했는데", "돌렸더니", "나왔어요").
func (c *canonizer) koPastAfter(i int) bool {
	for k := i; k < i+3 && k < len(c.in); k++ {
		for _, p := range []string{"했", "었", "았", "였", "됐", "나옴", "돌림"} {
			if strings.Contains(c.w(k), p) {
				return true
			}
		}
	}
	return false
}

// loadTarget reads a load at i; i when none is there.
func (c *canonizer) loadTarget(i int) int {
	if n := c.koLoadTarget(i); n > i {
		return n
	}
	v, unit, ok := reqScanNumber(c.w(i))
	if !ok || v.v <= 0 || !reqStartsNumber(c.w(i)) {
		return i
	}
	j := i + 1
	if unit == "" {
		unit = c.w(j)
		j++
	}
	what, span, ok := loadUnit(unit)
	if !ok && (c.w(j) == "per" || c.w(j) == "a" || c.w(j) == "an") {
		// "300 requests per minute", "100k requests a day"
		w := strings.TrimSuffix(c.w(j+1), "s")
		if s, known := loadSpans[w]; known {
			what, span, ok = "", s, true
			switch unit {
			case "requests", "request", "reqs", "req", "queries", "docs", "documents", "calls":
				what = "requests"
			case "tokens", "token", "tok":
				what = "tokens"
			}
			j += 2
		}
	}
	if !ok || what == "" {
		return i
	}
	if w := c.w(j); what == "tokens" && (w == "each" || w == "per" && perWho(c.w(j+1))) {
		// "30 tok/s per user for 40 users": each stream's speed
		c.perUser = true
		c.emitLoad(what, v.v/span, i, j)
		if w == "per" {
			return j + 2
		}
		return j + 1
	}
	switch {
	case what == "requests" && span == 1 && (unit == "req/s" || unit == "requests/s" || unit == "queries/s"):
		return i // "10 req/s": the serving words read it
	case what == "requests" && c.pastBefore(i) && !targetWord(lastW(c.out)) && !targetWord(c.w(i-1)):
		return i // "we served 1M docs/day": what a run did
	case what == "tokens" && !targetWord(lastW(c.out)) && !targetWord(c.w(i-1)) && !c.koTargetAfter(j) &&
		c.w(j) != "needed" && c.w(j) != "target" && c.w(j) != "required" && !c.hardwareAsked(i):
		return i // "1,500 tokens/s on a 4090": a measured speed
	}
	c.emitLoad(what, v.v/span, i, j)
	return j
}

// koLoadTarget reads a Korean rate: "초당 2만 토큰", "분당 300건",
// "1시간당 100만 토큰", "하루에 요청 10만건", before words that make it
// needed (a token rate) or any (requests).
func (c *canonizer) koLoadTarget(i int) int {
	j := i
	if digitsOnly(c.w(j)) && c.w(j) == "1" && strings.HasSuffix(c.w(j+1), "당") {
		j++ // "1시간당"
	}
	span := 0.0
	switch w := c.w(j); {
	case strings.HasPrefix(w, "초당"):
		span = 1
	case strings.HasPrefix(w, "분당"):
		span = 60
	case strings.HasPrefix(w, "시간당"):
		span = 3600
	case w == "하루에" || w == "하루" || w == "일당" || w == "하루당":
		span = 86400
	default:
		return i
	}
	k := j + 1
	what := ""
	if strings.HasPrefix(c.w(k), "요청") || strings.HasPrefix(c.w(k), "리퀘스트") {
		what, k = "requests", k+1 // "하루에 요청 10만건"
	} else if strings.HasPrefix(c.w(k), "토큰") {
		what, k = "tokens", k+1
	}
	v, rest, k, ok := c.koCount(k)
	if !ok {
		return i
	}
	switch {
	case what == "" && strings.HasPrefix(rest, "토큰"):
		what = "tokens"
	case what == "" && (strings.HasPrefix(rest, "요청") || strings.HasPrefix(rest, "건") || strings.HasPrefix(rest, "문장") || strings.HasPrefix(rest, "문서") ||
		strings.HasPrefix(rest, "개") && strings.HasPrefix(c.w(k), "요청")):
		what = "requests"
	case what == "" && strings.HasPrefix(rest, "개") && strings.HasPrefix(c.w(k), "토큰"):
		what = "tokens"
	}
	if strings.HasPrefix(c.w(k), "요청") || strings.HasPrefix(c.w(k), "토큰") {
		k++
	}
	if what == "tokens" && span > 1 && c.koPastAfter(k) {
		// "하루에 200억 토큰 처리했는데": a measured speed, per second for
		// the took-words that read the run
		c.emit(reqTrimNum(math.Round(v/span*1000)/1000), i, k-1)
		c.emit("tokens/s", k-1, k)
		return k
	}
	// "초당 5요청이면", "서빙 … 초당 5건": a load the serving is planned
	// for, said as a condition or after the serving
	load := strings.HasSuffix(rest, "면") || strings.HasSuffix(c.w(k-1), "면") || slices.ContainsFunc(c.out, func(t reqToken) bool { return t.w == "inference" }) ||
		strings.HasPrefix(c.w(k), "들어오") || strings.HasPrefix(c.w(k), "들어와") || strings.HasPrefix(c.w(k), "들어옴") || strings.HasPrefix(c.w(k), "몰려") // "초당 200 요청 들어와요": the load coming in
	switch {
	case what == "requests" && (c.koPastAfter(k) || span == 1 && !c.koTargetAfter(k) && c.serveHours == 0 && !load):
		// "초당 10건 처리했는데", "초당 10건": a measured rate, or the rate
		// question's; beside a month of serving ("월 비용 … 초당 10
		// 요청") it is the load the month serves
		return i
	case what == "tokens" && !c.koTargetAfter(k):
		return i // "초당 40토큰 나왔는데": a measured speed
	case what == "":
		return i
	}
	if p := c.w(i - 1); what == "tokens" && strings.HasSuffix(p, "당") && (strings.HasPrefix(p, "유저") || strings.HasPrefix(p, "사용자") || strings.HasPrefix(p, "인당") || strings.HasPrefix(p, "1인") || strings.HasPrefix(p, "사람")) {
		c.perUser = true // "유저당 초당 50토큰": each user's speed
	}
	c.emitLoad(what, v/span, i, k)
	return k
}

// koCount reads a count at k: digits with a scale word glued or after
// them ("2만", "100만토큰", "10만건", "300건"); the value, what is glued
// after it, and where the next word starts.
func (c *canonizer) koCount(k int) (float64, string, int, bool) {
	num := strings.ReplaceAll(c.w(k), ",", "")
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v <= 0 {
		return 0, "", k, false
	}
	k++
	rest := ""
	if k < len(c.in) && isHangulWord(c.w(k)) {
		rest = c.w(k)
		k++
	}
	for _, s := range []struct {
		w string
		f float64
	}{{"억", 1e8}, {"만", 1e4}, {"천", 1e3}} {
		if r, ok := strings.CutPrefix(rest, s.w); ok {
			v *= s.f
			rest = r
			if rest == "" && k < len(c.in) && isHangulWord(c.w(k)) {
				rest = c.w(k)
				k++
			}
			break
		}
	}
	return v, rest, k, true
}

// emitLoad writes the load read from words [a, b): requests as `rate`,
// generated tokens as `output-rate`, both per second.
func (c *canonizer) emitLoad(what string, perS float64, a, b int) {
	key := "rate"
	if what == "tokens" {
		key = "output-rate"
	}
	c.emit(key, a, b)
	at := c.in[b-1].end
	c.out = append(c.out, reqToken{raw: c.text[c.in[a].start:at], w: reqTrimNum(math.Round(perS*1000) / 1000), start: at, end: at})
}

// servingSpan reads how long a served model runs, when said: "24/7",
// "for a month", "per month", "monthly", "/month", "월 비용", "매달",
// "한달에"; a month is 730 hours. It sets the span and takes the words
// (a deadline's "in a month" is read elsewhere first).
func (c *canonizer) servingSpan(i int) int {
	w := c.w(i)
	month := 730.0
	switch {
	case w == "24/7":
		if c.serveHours == 0 {
			c.serveHours = month
		}
		return i + 1
	case (w == "for" || w == "per" || w == "a") && (c.w(i+1) == "month" || c.w(i+1) == "mo") && c.w(i-1) != "in":
		c.serveHours = month
		return i + 2
	case w == "for" && c.w(i+1) == "a" && c.w(i+2) == "month":
		c.serveHours = month
		return i + 3
	case w == "monthly" || w == "/month" || w == "/mo" || w == "매달" || w == "매월" || strings.HasPrefix(w, "월비용") || strings.HasPrefix(w, "월간"):
		c.serveHours = month
		return i + 1
	case (w == "월" || w == "한달에" || w == "매달" || w == "매월") && reqStartsNumber(c.w(i+1)) && koMoneyAhead(c.w(i+1), c.w(i+2)):
		// "예산이 월 300만원": money a month, for a month of serving
		c.serveHours = month
		c.skip(i, i+1)
		return i + 1
	case (w == "월" || w == "한달에" || w == "한달" || w == "한달간" || w == "한달동안") && koServeSpanNext(c.w(i+1)):
		c.serveHours = month
		return i + 1
	}
	return i
}

// koMoneyAhead reports whether an amount of money is said in w or in w
// and the word after it ("300만원", "2000 달러").
func koMoneyAhead(w, next string) bool {
	for _, x := range []string{w, next} {
		if strings.Contains(x, "원") || strings.Contains(x, "달러") || strings.Contains(x, "불") || strings.HasPrefix(x, "$") {
			return true
		}
	}
	return false
}

// koServeSpanNext reports whether w, after a month said in Korean, makes
// it a span of serving or its cost ("한달 돌리면", "월 비용", "한달 서빙").
func koServeSpanNext(w string) bool {
	for _, p := range []string{"비용", "요금", "얼마", "돌리", "서빙", "운영", "띄우", "켜", "동안", "유지", "기준", "빌리", "렌탈", "대여", "쓰면"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// perWho reports whether w, after "per", names one stream of a served
// model: a user, a request, a stream, a client.
func perWho(w string) bool {
	switch strings.TrimSuffix(w, "s") {
	case "user", "stream", "request", "client", "person", "seat", "session", "req":
		return true
	}
	return false
}

// hardwareAsked reports whether a rate at i is asked of hardware still to
// be found ("the cheapest GPU to serve phi-3-mini at 50 tokens/s", "how
// many h100s at 2k tok/s"): "at" before it, and which GPU or how many is
// the question.
func (c *canonizer) hardwareAsked(i int) bool {
	if c.w(i-1) == "at" && (c.ask == AskWhichGPU || c.ask == AskCount || c.prefer != "") {
		return true
	}
	aggregate := slices.ContainsFunc([]string{c.w(i + 1), c.w(i + 2), c.w(i + 3), c.w(i + 4)}, func(w string) bool {
		return strings.TrimRight(w, ",.") == "aggregate" || strings.TrimRight(w, ",.") == "total"
	})
	// "500 concurrent chat users, 2000 tokens/s aggregate … How many
	// L4s?": a rate beside users, with the GPUs still to be counted
	for k := i + 1; k < len(c.in)-1; k++ {
		if c.words(k, "how", "many") || c.words(k, "how", "much") && c.w(k+2) == "gpu" {
			return slices.ContainsFunc(c.out, func(t reqToken) bool { return t.w == "users" || t.w == "concurrency" }) || aggregate || c.w(i-1) == "at"
		}
	}
	return false
}
