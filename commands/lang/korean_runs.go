package lang

import (
	"slices"
	"strconv"
	"strings"
)

// Measured runs and rates in Korean: "A6000 1장에서 385시간 걸렸는데",
// "초당 40토큰 나왔는데", "초당 토큰 몇 개", and people ("동시 접속 100명").

// koTook reads a measured run: "A6000 1장에서 385시간 걸렸는데", "4x V100에서
// 에폭당 5.67시간 걸렸는데". The hours (per epoch when 에폭당 was said) and
// the hardware before them become "baseline 385 h on 1x a6000".
func (c *canonizer) koTook(i int) {
	c.skip(i, i+1)
	// a rate: the last "<number> tokens/s|samples/s" ("초당 40토큰 나왔는데")
	for k := len(c.out) - 1; k >= 1 && k >= len(c.out)-8; k-- {
		if w := rateUnitWord(c.out[k].w); w != "" {
			if v, u, ok := reqScanNumber(c.out[k-1].w); ok && u == "" {
				c.out[k].w = w
				c.tookAt(k-1, k, v.v, w)
				return
			}
		}
		if w := c.out[k-1].w; (w == "tokens/s" || w == "samples/s") && k == len(c.out)-1 {
			// "tokens/s가 2800 나와요": the unit said first
			if v, u, ok := reqScanNumber(c.out[k].w); ok && u == "" {
				c.out[k-1], c.out[k] = c.out[k], c.out[k-1]
				c.tookAt(k-1, k, v.v, w)
				return
			}
		}
	}
	// the time: the last "<number> h|d|min|s" read so far
	hAt := -1
	toHours := map[string]float64{"h": 1, "d": 24, "min": 1.0 / 60, "s": 1.0 / 3600}
	for k := len(c.out) - 1; k >= 1 && k >= len(c.out)-8; k-- {
		if _, isTime := toHours[c.out[k].w]; isTime {
			if _, u, ok := reqScanNumber(c.out[k-1].w); ok && u == "" {
				hAt = k
				break
			}
		}
	}
	if hAt < 0 {
		return
	}
	v, _, _ := reqScanNumber(c.out[hAt-1].w)
	unit := "h"
	if c.out[hAt].w == "s" && hAt >= 2 && c.out[hAt-2].w == "/step" {
		// "스텝당 1.8초": seconds a step
		unit = "s/step"
		c.out = append(c.out[:hAt-2], c.out[hAt-1:]...)
		hAt--
	} else {
		v.v *= toHours[c.out[hAt].w]
	}
	valAt := hAt - 1
	if valAt > 0 && unit == "h" && (c.out[valAt-1].w == "/epoch" || c.out[valAt-1].w == "/step") {
		unit += c.out[valAt-1].w
		valAt--
	}
	c.tookAt(valAt, hAt, v.v, unit)
}

// tookAt rewrites a measured run read in Korean order — the value at
// c.out[valAt], its unit ending at hAt, the hardware before or right after
// — as the readers' "baseline <v> <unit> on <hardware>".
func (c *canonizer) tookAt(valAt, hAt int, value float64, unit string) {
	isHW := func(w string) bool {
		if c.gpu(w) || c.servers[w] {
			return true
		}
		// "v100x4", "4xa100": a GPU with its count in one word
		if k := strings.LastIndexByte(w, 'x'); k > 0 && digitsOnly(w[k+1:]) && c.gpu(w[:k]) {
			return true
		}
		k := strings.IndexByte(w, 'x')
		return k > 0 && digitsOnly(w[:k]) && c.gpu(w[k+1:])
	}
	// the hardware: the last GPU or server before the hours ("A6000 1장에서
	// 385시간"), else the one right after them ("5.67시간 (V100 4장) 나왔는데")
	var hw []reqToken
	var rest []reqToken
	for k := valAt - 1; k >= 0; k-- {
		if c.out[k].w == "baseline" {
			break // an earlier run's
		}
		if !isHW(c.out[k].w) {
			continue
		}
		start := k
		if k > 0 {
			if _, r, ok := reqScanInt(c.out[k-1].w); ok && (r == "x" || r == "") {
				start = k - 1
			} else if c.out[k-1].w == "x" && k > 1 {
				start = k - 2
			}
		}
		end := k + 1 // "a100 x 4", "a100 4 gpus": the count after the name
		if end+1 < valAt && (c.out[end].w == "x" && plainCount(c.out[end+1].w) || plainCount(c.out[end].w) && (c.out[end+1].w == "gpus" || c.out[end+1].w == "gpu" || c.out[end+1].w == "\x00count")) {
			end += 2
		}
		if end == valAt || k >= valAt-6 && end+6 > valAt {
			hw = append([]reqToken(nil), c.out[start:valAt]...)
			rest = append(append([]reqToken(nil), c.out[:start]...), c.out[hAt+1:]...)
			break
		}
		// "A100 4장으로 llama 3 8b lora 3에폭 돌렸는데 9시간 걸렸어요": the
		// hardware named earlier in the sentence; the words between stay
		at := c.out[valAt].start
		for _, t := range c.out[start:end] {
			hw = append(hw, reqToken{raw: t.raw, w: t.w, start: at, end: at})
		}
		rest = append(append(append([]reqToken(nil), c.out[:start]...), c.out[end:valAt]...), c.out[hAt+1:]...)
		break
	}
	if hw == nil && !c.finishing && hAt+1 < len(c.out) && isHW(c.out[hAt+1].w) {
		hw = append([]reqToken(nil), c.out[hAt+1:]...)
		rest = append([]reqToken(nil), c.out[:valAt]...)
	}
	if hw == nil && c.pendingRun == nil && !c.finishing {
		// "총 20시간 걸렸던 llama2 7b lora (a100x4). h100x8 이면?": the
		// hardware is yet to be read; try again once it is
		c.pendingRun = &pendingRun{valStart: c.out[valAt].start, unitStart: c.out[hAt].start, unitW: c.out[hAt].w, value: value, unit: unit}
		return
	}
	if hw == nil {
		// "스텝당 0.8초, 총 2만 스텝, a100 4장. h200 4장이면?": the first
		// hardware after the run is the run's when more follows (the
		// target); alone, it is the target and the run has none
		hw, rest = c.runHardwareAfter(valAt, hAt, isHW)
	}
	if hw == nil {
		return
	}
	at := hw[0].start
	if c.out[valAt].start < at {
		at = c.out[valAt].start
	}
	zero := func(w string) reqToken { return reqToken{raw: w, w: w, start: at, end: at} }
	// Spans must stay in order: the rewritten words stand where the
	// measured run begins, the hardware keeps its own span.
	c.out = append(append(rest, zero("baseline"), zero(reqTrimNum(value)), zero(unit), zero("on")), hw...)
}

// koRateQuestion reads "초당 토큰 몇 개", "초당 몇 토큰", "초당토큰": how fast,
// asked as a rate with no number (a measured rate is "초당 40토큰").
func (c *canonizer) koRateQuestion(i int) int {
	w := c.w(i)
	if !strings.HasPrefix(w, "초당") {
		return i
	}
	unit := strings.TrimPrefix(w, "초당")
	n := i + 1
	if unit == "" && reqStartsNumber(c.w(n)) {
		// "초당 40토큰", "초당 40 토큰": a measured rate, for the took-words
		num, rest := c.w(n), ""
		k := 0
		for k < len(num) && (num[k] >= '0' && num[k] <= '9' || num[k] == '.') {
			k++
		}
		num, rest = num[:k], num[k:]
		m := n + 1
		if rest == "" {
			rest = c.w(m)
			m++
		}
		if f, ok := map[string]float64{"만": 1e4, "천": 1e3, "억": 1e8}[rest]; ok && num != "" {
			// "초당 2만 토큰": the scale, then the unit
			v, _ := strconv.ParseFloat(num, 64)
			num, rest = strconv.FormatFloat(v*f, 'f', -1, 64), c.w(m)
			m++
		} else if f, ok := map[string]float64{"만": 1e4, "천": 1e3}[strings.SplitN(rest, "토", 2)[0]]; ok && num != "" && strings.Contains(rest, "토큰") {
			v, _ := strconv.ParseFloat(num, 64) // "초당 2만토큰"
			num, rest = strconv.FormatFloat(v*f, 'f', -1, 64), strings.TrimPrefix(rest, strings.SplitN(rest, "토", 2)[0])
		}
		for _, u := range []struct{ ko, en string }{{"토큰", "tokens/s"}, {"샘플", "samples/s"}, {"이미지", "samples/s"}, {"장", "samples/s"}, {"개", "samples/s"}, {"건", "samples/s"}, {"문장", "samples/s"}, {"요청", "samples/s"}, {"리퀘스트", "samples/s"}} {
			if strings.HasPrefix(rest, u.ko) && num != "" {
				if u.en == "samples/s" && !c.koTookWithin(m, 4) {
					// "초당 500건 처리하려면", "초당 요청 500": a load to
					// serve, not a rate measured ("초당 500장 나왔는데")
					c.emit(num, n, n+1)
					c.emit("req/s", n, m)
					return m
				}
				c.emit(num, n, n+1)
				c.emit(u.en, n, m)
				c.skip(i, i+1)
				return m
			}
		}
		return i
	}
	if unit == "" || unit == "몇" {
		if c.w(n) == "몇" {
			n++
		}
		unit = c.w(n)
		n++
	}
	switch {
	case strings.HasPrefix(unit, "토큰"), strings.HasPrefix(unit, "샘플"), strings.HasPrefix(unit, "이미지"), strings.HasPrefix(unit, "요청"), strings.HasPrefix(unit, "리퀘스트"),
		strings.HasPrefix(unit, "개"), strings.HasPrefix(unit, "건"), strings.HasPrefix(unit, "장"), strings.HasPrefix(unit, "문장"), strings.HasPrefix(unit, "처리"): // "초당 몇 개 처리", "초당 몇 건", "초당 처리량"
	default:
		return i
	}
	if strings.HasPrefix(c.w(n), "처리") {
		n++
	}
	if m := c.koRateUnitFirst(i, n, unit); m > i {
		return m
	}
	for c.w(n) == "몇" || strings.HasPrefix(c.w(n), "개") || strings.HasPrefix(c.w(n), "정도") {
		n++
	}
	c.setAsk(AskTime)
	c.rate = true
	c.requestRate = c.requestRate || strings.HasPrefix(unit, "요청") || strings.HasPrefix(unit, "리퀘스트")
	c.runWord = true
	c.skip(i, n)
	return n
}

// koPeople reads "100명" (people: users of a served model, "동시 접속 100명")
// as "100 users", never as a GPU count.
func (c *canonizer) koPeople(i int) int {
	w := c.w(i)
	if w == "명" || strings.HasPrefix(w, "명") && slices.Contains(koParticles, strings.TrimPrefix(w, "명")) {
		// "100 명", "100명" cut by the tokenizer: the number is out already
		if last := lastW(c.out); last != "" {
			if f, unit, ok := reqScanNumber(last); ok && unit == "" {
				if c.koPopulation(i-1) && f.v >= 20 {
					// "직원 200명이": the people it serves, a tenth at once
					c.population = f.v
					c.out[len(c.out)-1].w = reqTrimNum(atOnce(f.v))
					c.out[len(c.out)-1].raw = c.out[len(c.out)-1].w
				}
				c.emit("users", i, i+1)
				return i + 1
			}
		}
		return i
	}
	num, ok := strings.CutSuffix(w, "명")
	if !ok {
		for _, p := range koParticles {
			if s, cut := strings.CutSuffix(w, "명"+p); cut {
				num, ok = s, true
				break
			}
		}
	}
	if !ok || num == "" || !reqStartsNumber(num) {
		return i
	}
	f, unit, ok := reqScanNumber(num)
	if !ok || unit != "" {
		return i
	}
	if c.koPopulation(i) && f.v >= 20 {
		// "직원 200명이 쓸 거예요": the people who use it, a tenth of them
		// at once at the busiest time, as users a day are
		c.population = f.v
		c.emit(reqTrimNum(atOnce(f.v)), i, i+1)
		c.emit("users", i, i+1)
		return i + 1
	}
	c.emit(num, i, i+1)
	c.emit("users", i, i+1)
	return i + 1
}

// koPopulation reports whether the count at i is of the people a service
// is for ("직원 200명", "임직원 500명이", "회원 1만명"), not of users at once:
// a population noun before it and no 동시/동접 around it.
func (c *canonizer) koPopulation(i int) bool {
	pop := false
	for _, p := range []string{"직원", "임직원", "사원", "팀원", "회원", "학생", "고객", "구성원"} {
		pop = pop || strings.HasPrefix(c.w(i-1), p)
	}
	if !pop {
		return false
	}
	for k := i - 3; k <= i+2; k++ {
		if w := c.w(k); strings.HasPrefix(w, "동시") || strings.HasPrefix(w, "동접") {
			return false
		}
	}
	return true
}

// koStreamsAfter reads a count said before streams ("20개 스트림", "20채널",
// "스트림 20개" is koConcurrent's) as that many served together; i when
// the words are not such a count.
func (c *canonizer) koStreamsAfter(i int) int {
	num, next := c.w(i), strings.TrimRight(c.w(i+1), "은는이가을를의")
	end := i + 2
	if s, ok := strings.CutSuffix(num, "채널"); ok && s != "" {
		num, next, end = s, "채널", i+1 // "20채널"
	}
	if next == "개" {
		next, end = strings.TrimRight(c.w(i+2), "은는이가을를의"), i+3 // "20 개 스트림": the counter cut off
	}
	num = strings.TrimSuffix(num, "개")
	if next != "스트림" && next != "채널" && next != "실시간스트림" || !reqStartsNumber(num) {
		return i
	}
	if _, unit, ok := reqScanNumber(num); !ok || unit != "" {
		return i
	}
	c.emit(num, i, end)
	c.emit("users", i, end)
	return end
}

// koConcurrent reads "동시 요청 32", "동시요청 32개", "동시 접속 50" (a
// served model's concurrent requests or users) as "32 users".
func (c *canonizer) koConcurrent(i int) int {
	w := strings.TrimRight(c.w(i), "은는이가을를의")
	j := i + 1
	switch w {
	case "동시요청", "동시접속", "동시사용자", "동시처리", "동시스트림":
	case "스트림", "채널", "실시간스트림":
		// "실시간 스트림 20개": streams run together, with or without 동시
		if !reqStartsNumber(c.w(j)) {
			return i
		}
	case "동시":
		switch strings.TrimRight(c.w(j), "은는이가을를의") {
		case "요청", "접속", "사용자", "처리", "스트림", "세션":
			j++
		default:
			if !reqStartsNumber(c.w(j)) {
				return i
			} // "동시 32": the number right after it
		}
	default:
		return i
	}
	num := c.w(j)
	for _, k := range []string{"개", "건", "명"} {
		if s, ok := strings.CutSuffix(num, k); ok {
			num = s
			break
		}
	}
	if !reqStartsNumber(num) {
		return i
	}
	if _, unit, ok := reqScanNumber(num); !ok || unit != "" {
		return i
	}
	end := j + 1
	if k := strings.TrimRight(c.w(end), "은는이가을를의씩"); k == "개" || k == "건" || k == "명" {
		end++ // "64 개": the tokenizer cut the counter off
	}
	c.emit(num, i, end) // the words are read, not skipped
	c.emit("users", j, end)
	return end
}

// koAudioHours reads "음성 1000시간", "오디오 100시간 분량": hours of audio
// said audio first, as 30-second samples (audioHours reads the number-first
// order).
func (c *canonizer) koAudioHours(i int) int {
	if !koAudioWord(c.w(i)) {
		return i
	}
	v, n, ok := c.koHoursAt(i + 1)
	if !ok {
		return i
	}
	c.emitAudioHours(v, i, n)
	return n
}

// koAudioHoursFirst reads the hours said first: "1000시간 분량 음성",
// "500시간짜리 녹음", "100시간 분량의 오디오".
func (c *canonizer) koAudioHoursFirst(i int) int {
	v, n, ok := c.koHoursAt(i)
	if !ok || !koAudioWord(c.w(n)) {
		return i
	}
	c.emitAudioHours(v, i, n+1)
	return n + 1
}

// koAudioWord reports whether w names audio: 음성, 오디오, 녹음, alone or
// at the end of a compound ("회의녹음"), with a particle or not.
func koAudioWord(w string) bool {
	w = strings.TrimRight(w, "을를이가은는의")
	return strings.HasSuffix(w, "음성") || strings.HasSuffix(w, "오디오") || strings.HasSuffix(w, "녹음") // "회의녹음", "통화 음성"
}

// koHoursAt reads a number of hours at i ("1000시간", "1000 시간", "500h",
// "500시간짜리") and a 분량/짜리 after it: the hours and the index after
// them.
func (c *canonizer) koHoursAt(i int) (float64, int, bool) {
	v, unit, ok := reqScanNumber(c.w(i))
	if !ok || v.v <= 0 {
		return 0, i, false
	}
	n := i + 1
	switch {
	case unit == "" && strings.HasPrefix(c.w(i+1), "시간"):
		n = i + 2
	case unit == "h" || strings.HasSuffix(c.w(i), "시간") || strings.HasSuffix(c.w(i), "시간짜리"):
	default:
		return 0, i, false
	}
	if w := c.w(n); strings.HasPrefix(w, "분량") || strings.HasPrefix(w, "짜리") {
		n++
	}
	return v.v, n, true
}

// koMaxBatch reads "최대 배치 크기", "최대 배치가 얼마": the largest
// micro-batch that fits; "최대 컨텍스트 길이", "최대 시퀀스": the longest
// context.
func (c *canonizer) koMaxBatch(i int) int {
	if strings.HasPrefix(c.w(i), "배치") && strings.HasPrefix(c.w(i+1), "최대") && !reqStartsNumber(c.w(i+2)) {
		// "a100 4장 배치 최대", "배치 최대 몇까지": the largest micro-batch
		return c.koLargestAsked(i, i+2, &c.maxBatch, "얼마", "몇", "크기", "까지")
	}
	if b := strings.TrimRight(c.w(i), "는은가이"); b == "배치사이즈" || b == "배치크기" || b == "배치" && (strings.HasPrefix(c.w(i+1), "사이즈") || strings.HasPrefix(c.w(i+1), "크기")) {
		// "배치사이즈 얼마까지 돼?", "배치 크기 몇까지": the largest micro-batch
		n := i + 1
		if b == "배치" {
			n++
		}
		if w := c.w(n); (strings.HasPrefix(w, "얼마") || strings.HasPrefix(w, "몇")) && (strings.HasSuffix(w, "까지") || strings.HasPrefix(c.w(n+1), "까지")) {
			return c.koLargestAsked(i, n+1, &c.maxBatch, "까지")
		}
	}
	if koSeqWord(c.w(i)) && (strings.HasPrefix(c.w(i+1), "얼마") && strings.HasSuffix(c.w(i+1), "까지") || c.w(i+1) == "얼마나" && strings.HasPrefix(c.w(i+2), "까지")) {
		// "컨텍스트 얼마까지 가능", "시퀀스 얼마까지 돼?": the longest context
		return c.koLargestAsked(i, i+2, &c.maxSeq, "까지")
	}
	if koSeqWord(c.w(i)) && c.w(i+1) == "최대" && !reqStartsNumber(c.w(i+2)) {
		// "컨텍스트 최대 얼마까지?", "시퀀스 최대 몇까지 돼?"
		return c.koLargestAsked(i, i+2, &c.maxSeq, "얼마", "몇", "길이", "까지")
	}
	if c.w(i) != "최대" || reqStartsNumber(c.w(i+2)) && !c.gpu(c.w(i+2)) {
		return i // "최대 컨텍스트 8k": a length; "최대 컨텍스트 4090에서": the card follows
	}
	var asked *bool
	var sizes []string
	switch {
	case koSeqWord(c.w(i + 1)):
		asked, sizes = &c.maxSeq, []string{"길이", "length"}
	case strings.HasPrefix(c.w(i+1), "배치"):
		asked, sizes = &c.maxBatch, []string{"크기", "사이즈"}
	default:
		return i
	}
	n := i + 2
	for _, w := range sizes {
		if strings.HasPrefix(c.w(n), w) {
			n++
			break
		}
	}
	c.setAsk(AskFit)
	*asked = true
	c.skip(i, n)
	return n
}

// koInOut reads a served request's lengths said label first: "입력 2000
// 출력 500", "입력 토큰 2000", "프롬프트 1k": the serving readers' "input N"
// and "out N".
func (c *canonizer) koInOut(i int) int {
	word := ""
	switch strings.TrimRight(c.w(i), "은는이가") {
	case "입력", "프롬프트", "입력토큰":
		word = "input"
	case "출력", "생성", "출력토큰", "생성토큰":
		word = "out"
	default:
		return i
	}
	n := i + 1
	if strings.HasPrefix(c.w(n), "토큰") || c.w(n) == "길이" {
		n++
	}
	v := c.w(n)
	if num, ok := strings.CutSuffix(v, "토큰"); ok {
		v = num
	}
	num, unit, ok := reqScanNumber(v)
	if !ok || unit != "" && unit != "k" {
		return i
	}
	if trainingSaid(c.in) && !servingSaid(c.in) {
		// "요약 모델 학습, 입력 512 출력 128": a training sample's source and
		// target, one sequence of both, not a served request's lengths
		c.trainInOut(word, num.v, i, n)
		n++
		if strings.HasPrefix(c.w(n), "토큰") || c.w(n) == "개" {
			n++
		}
		return n
	}
	c.emit(word, i, i+1)
	c.emit(v, n, n+1)
	n++
	if strings.HasPrefix(c.w(n), "토큰") || c.w(n) == "개" {
		n++
	}
	return n
}

// koSeqWord reports whether w (with its particle) names the context
// length: 컨텍스트, 시퀀스, 문맥, 입력 길이, or the English words.
func koSeqWord(w string) bool {
	for _, p := range []string{"컨텍스트", "시퀀스", "문맥", "context", "seq"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// pendingRun is a measured run read before the hardware it ran on.
type pendingRun struct {
	valStart, unitStart int
	unitW               string
	value               float64
	unit                string
}

// finishPending reads a measured run whose hardware came after it, now that
// every word is out: the value and its unit found again by where they were
// typed.
func (c *canonizer) finishPending() {
	pr := c.pendingRun
	c.pendingRun = nil
	if pr == nil || slices.ContainsFunc(c.out, func(t reqToken) bool { return t.w == "baseline" }) {
		return
	}
	for k := 0; k+1 < len(c.out); k++ {
		if c.out[k].start == pr.valStart && c.out[k+1].start == pr.unitStart && c.out[k+1].w == pr.unitW {
			c.finishing = true
			c.tookAt(k, k+1, pr.value, pr.unit)
			c.finishing = false
			return
		}
	}
}

// perUnitTimes reads a time per step or per epoch said with no verb after
// it ("스텝당 0.8초, 총 2만 스텝, a100 4장에서"): a time per unit of work
// can only have been measured, so it is the run, on the hardware beside it.
func (c *canonizer) perUnitTimes() {
	if slices.ContainsFunc(c.out, func(t reqToken) bool { return t.w == "baseline" }) {
		return
	}
	toHours := map[string]float64{"h": 1, "d": 24, "min": 1.0 / 60, "s": 1.0 / 3600}
	for k := 0; k+2 < len(c.out); k++ {
		per := c.out[k].w
		if per != "/step" && per != "/epoch" {
			continue
		}
		v, u, ok := reqScanNumber(c.out[k+1].w)
		f, isTime := toHours[c.out[k+2].w]
		if !ok || u != "" || !isTime || v.v <= 0 {
			continue
		}
		c.finishing = true // every word is out: no later pass to wait for
		defer func() { c.finishing = false }()
		if per == "/step" {
			c.out = append(c.out[:k], c.out[k+1:]...) // "1.8 s" a step
			c.tookAt(k, k+1, v.v*f*3600, "s/step")
			return
		}
		c.tookAt(k, k+2, v.v*f, "h/epoch")
		return
	}
}

// runHardwareAfter finds the run's hardware after its value at hAt: the
// first GPU (with its count) when another GPU or server follows it. It
// returns the hardware, moved to stand at the value, and the rest.
func (c *canonizer) runHardwareAfter(valAt, hAt int, isHW func(string) bool) (hw, rest []reqToken) {
	first := -1
	for k := hAt + 1; k < len(c.out); k++ {
		if isHW(c.out[k].w) {
			first = k
			break
		}
	}
	if first < 0 {
		return nil, nil
	}
	end := first + 1
	if end+1 < len(c.out) && c.out[end].w == "x" && plainCount(c.out[end+1].w) {
		end += 2
	}
	later := false
	for k := end; k < len(c.out); k++ {
		later = later || isHW(c.out[k].w)
	}
	if !later {
		return nil, nil
	}
	at := c.out[valAt].start
	for _, t := range c.out[first:end] {
		hw = append(hw, reqToken{raw: t.raw, w: t.w, start: at, end: at})
	}
	rest = append(append(append([]reqToken(nil), c.out[:valAt]...), c.out[hAt+1:first]...), c.out[end:]...)
	return hw, rest
}

// koLargestAsked marks the largest batch or the longest context asked by
// the words from i ("배치 최대 몇까지", "컨텍스트 얼마까지"): the words up to
// n, and after them those starting with one of tails, are the question.
func (c *canonizer) koLargestAsked(i, n int, asked *bool, tails ...string) int {
	for slices.ContainsFunc(tails, func(p string) bool { return strings.HasPrefix(c.w(n), p) }) {
		n++
	}
	c.setAsk(AskFit)
	*asked = true
	c.skip(i, n)
	return n
}

// rateUnitWord is a measured rate's unit as the reading writes it
// ("tok/s" is tokens/s, "img/s" samples/s); "" for none.
func rateUnitWord(w string) string {
	switch w {
	case "tokens/s", "tok/s", "tokens/sec", "tok/sec", "t/s", "toks/s":
		return "tokens/s"
	case "samples/s", "img/s", "images/s", "imgs/s", "images/sec", "seq/s", "sequences/s":
		return "samples/s"
	}
	return ""
}

// trainInOut adds a training sample's input or output length at [i, n]
// to the sequence length: the first said is the length, the second adds
// to it.
func (c *canonizer) trainInOut(word string, v float64, i, n int) {
	for k := len(c.out) - 2; k >= 0; k-- {
		if c.out[k].w == "seq" {
			if have, _, ok := reqScanNumber(c.out[k+1].w); ok {
				c.out[k+1].w = reqTrimNum(have.v + v)
				return
			}
		}
	}
	c.emit("seq", i, i+1)
	c.emit(reqTrimNum(v), n, n+1)
}

// servingSaid reports whether in says the model is served or run for
// inference (서빙, 추론, serve, vllm…), beside any training it names.
func servingSaid(in []reqToken) bool {
	for _, t := range in {
		if engineWords[t.w] != "" || t.w == "serve" || t.w == "serving" || t.w == "inference" {
			return true
		}
		for _, ko := range []string{"서빙", "추론", "배포", "인퍼런스"} {
			if strings.Contains(t.w, ko) {
				return true
			}
		}
	}
	return false
}

// koTookWithin reports whether a word that reports a measurement ("나왔는데",
// "걸렸고") comes within k words from i.
func (c *canonizer) koTookWithin(i, k int) bool {
	for j := i; j < i+k && j < len(c.in); j++ {
		if _, e, ok := koStem(c.w(j)); ok && e.act == koTook {
			return true
		}
	}
	return false
}

// koRateUnitFirst reads a rate whose unit comes before its number, at n
// after "초당 <unit>": "초당 요청 10개" is the load to serve, "초당 토큰
// 2000개" a rate of tokens; i when no number follows.
func (c *canonizer) koRateUnitFirst(i, n int, unit string) int {
	num := strings.TrimRight(c.w(n), "개건")
	if !reqStartsNumber(num) || !strings.HasPrefix(unit, "요청") && !strings.HasPrefix(unit, "리퀘스트") && !strings.HasPrefix(unit, "토큰") {
		return i
	}
	if _, u, ok := reqScanNumber(num); !ok || u != "" {
		return i
	}
	m := n + 1
	if k := c.w(m); k == "개" || k == "건" || strings.HasPrefix(k, "개") && slices.Contains(koParticles, strings.TrimPrefix(k, "개")) {
		m++
	}
	c.skip(i, n)
	c.emit(num, n, m)
	if strings.HasPrefix(unit, "토큰") {
		c.emit("tokens/s", n, m)
	} else {
		c.emit("req/s", n, m)
	}
	return m
}
