package lang

import (
	"slices"
	"strings"
	"time"
)

// Korean question words that read as something else unless their
// neighbours are looked at: 몇 before a unit of time, a run verb that says
// what is planned, 될까요 as politeness, 들어갈 into something that is no
// GPU, a part of the day after a day's name, and a unit said before its
// number with words between.

// koUnitFiller reports whether w may stand between a unit and its number
// ("토큰 수는 약 30억"): the count's own noun, or about.
func koUnitFiller(w string) bool {
	switch w {
	case "수", "수는", "수가", "수로", "약", "대략", "대충", "총", "거의", "전체", "합쳐서":
		return true
	}
	return false
}

// koIntoOther reports whether the word at i is a noun with 에 that is no
// GPU, server, memory or count ("보고서에 들어갈 내용"): what goes into it is
// not the model.
func (c *canonizer) koIntoOther(i int) bool {
	w := c.w(i)
	noun, ok := strings.CutSuffix(w, "에")
	if !ok || noun == "" || !isHangulWord(noun) || koNumberWord(noun) {
		return false
	}
	if _, _, known := koStem(noun); known || c.serverName(noun) != "" || strings.HasPrefix(noun, "서버") {
		return false
	}
	return true
}

// koAuxiliaryFit reports whether 될까/되나/돼 after prev is politeness or
// grammar, not the question whether the job fits: "여쭤봐도 될까요" (may I
// ask), and "몇 시간이면 될까요" / "며칠이면 돼" after a time or cost already
// asked (would that many hours do).
func koAuxiliaryFit(stem, prev string, asked Ask) bool {
	if stem != "될까" && stem != "되나" && stem != "돼" {
		return false
	}
	for _, p := range []string{"여쭤", "여쭈", "물어", "질문", "문의", "부탁"} {
		if strings.HasPrefix(prev, p) && strings.HasSuffix(prev, "도") {
			return true
		}
	}
	return strings.HasSuffix(prev, "면") && (asked == AskTime || asked == AskCost)
}

// koTimeOfDay reads a part of the day said with 까지 after a day ("오전까지",
// "아침까지", "오후까지"): how long before the day's end it falls.
func koTimeOfDay(w string) (time.Duration, bool) {
	part, ok := strings.CutSuffix(w, "까지")
	if !ok {
		return 0, false
	}
	switch part {
	case "오전", "아침", "점심":
		return 12 * time.Hour, true
	case "오후", "저녁":
		return 5 * time.Hour, true
	case "밤":
		return 0, true
	}
	return 0, false
}

// koTimeUnitWord reports whether w is a unit of time after 몇 ("몇 시간이에요",
// "몇 주 걸려요", "몇 분", "몇 일", "몇 달"): the question is how long.
func koTimeUnitWord(w string) bool {
	if s, e, ok := koStem(w); ok && s != "" && e.act == koWord && (e.word == "h" || e.word == "min" || e.word == "d" || e.word == "w") {
		return true
	}
	for _, u := range []string{"시간", "개월", "달", "주", "일", "분"} {
		if strings.HasPrefix(w, u) && !strings.HasPrefix(w, "일요일") && !strings.HasPrefix(w, "주말") {
			return true
		}
	}
	return false
}

// koIntent reports whether a run verb says what is planned ("돌릴 건데",
// "돌리려고", "돌릴 예정인데") rather than asks whether it can run.
func koIntent(w, next string) bool {
	if strings.Contains(w, "려고") || strings.Contains(w, "려는") || strings.Contains(w, "건데") {
		return true
	}
	for _, p := range []string{"건데", "거", "예정", "계획"} {
		if strings.HasPrefix(next, p) {
			return true
		}
	}
	return false
}

// koUnitFirst reads a unit said before its number ("토큰 150억", "샘플
// 5만개"); the reading pass moves it after the number ("이미지 분류" has
// none, and is skipped).
func (c *canonizer) koUnitFirst(i int, unit string) int {
	j := i + 1
	for koUnitFiller(c.w(j)) {
		j++ // "토큰은 대략 100억 개", "토큰 수는 약 30억 개"
	}
	if reqStartsNumber(c.w(j)) || koNumberWord(c.w(j)) {
		c.out = append(c.out, reqToken{raw: c.in[i].raw, w: unitMark + unit, start: c.in[i].start, end: c.in[i].end})
		if j > i+1 {
			c.skip(i+1, j)
		}
		return j
	}
	c.skip(i, i+1)
	return i + 1
}

// koCountAfter reports whether a count of things follows the unit at i
// ("8b 토큰 1억개", "7b 샘플 50만 개로"): plain digits and a Korean scale
// or counter after them. The unit is then said before its number even
// where a number stands before it; a model size ("토큰으로 1b짜리") or a
// GPU ("샘플 4090 1장") after the unit is no count of it.
func (c *canonizer) koCountAfter(i int) bool {
	j := i + 1
	for koUnitFiller(c.w(j)) {
		j++
	}
	if !digitsOnly(strings.ReplaceAll(strings.ReplaceAll(c.w(j), ",", ""), ".", "")) || c.gpu(c.w(j)) {
		return false
	}
	for _, p := range []string{"억", "만", "천", "개", "건", "쌍"} {
		if rest, ok := strings.CutPrefix(c.w(j+1), p); ok {
			return !moneyUnit(rest) && !moneyUnit(c.w(j+2)) // "1만불로", "5천만 원": a sum
		}
	}
	return false
}

// koSelectiveCkpt reads "선택적 체크포인팅", "선택적 재계산": checkpointing
// that keeps part of each layer.
func (c *canonizer) koSelectiveCkpt(i int) int {
	if !strings.HasPrefix(c.w(i), "선택적") {
		return i
	}
	n := selectiveCkptWords(c.w(i+1), c.w(i+2))
	if n == 0 {
		return i
	}
	c.emit("selective-ckpt", i, i+1+n)
	return i + 1 + n
}

// koRateUnitAt is the number of words at i that make a unit of rate after
// 몇, a count per second ("토큰/s", "tok/s", "이미지/초", "시퀀스/sec";
// the tokenizer cuts "토큰/" from "s"), or 0.
func (c *canonizer) koRateUnitAt(i int) int {
	w := c.w(i)
	for _, u := range []string{"토큰", "tokens", "token", "tok", "샘플", "samples", "sample", "이미지", "images", "image", "시퀀스", "seq", "요청", "req"} {
		rest, ok := strings.CutPrefix(w, u)
		if !ok {
			continue
		}
		if rest == "/" {
			rest += c.w(i + 1)
			if perSecond(rest) {
				return 2
			}
		}
		if perSecond(rest) {
			return 1
		}
		return 0
	}
	return 0
}

func perSecond(s string) bool {
	return s == "/s" || s == "/sec" || s == "/초" || strings.HasPrefix(s, "/s?") || strings.HasPrefix(s, "/초")
}

// koHowManyTokens reads 몇 at i after 배치 or before tokens: "배치 몇까지
// 돼?" asks the largest batch that fits; "컨텍스트 몇 토큰까지 돼?" (or
// "몇까지") the longest context; "몇 토큰/s", "몇
// tok/s", "몇 이미지/초" ask how fast, as a rate (the number before it is
// no amount of tokens: "4090에서 몇 토큰/s").
func (c *canonizer) koHowManyTokens(i int, w string) (int, bool) {
	if n, ok := c.koBitsAsked(i, w); ok {
		return n, true
	}
	if n, ok := c.koHowManyRate(i, w); ok {
		return n, true
	}
	if next := c.w(i + 1); i > 0 && koDataWord(c.w(i-1)) && !c.rate &&
		(w == "몇" && (strings.HasPrefix(next, "개") || strings.HasPrefix(next, "까지")) || strings.HasPrefix(w, "몇개") || strings.HasPrefix(w, "몇까지")) {
		// "예산 50만원인데 데이터 몇개까지 돌릴수있어": the samples a budget
		// or a time buys
		c.ask = AskNone
		c.askAmount("samples")
		return c.skipCounters(i+1, "개", "까지"), true
	}
	if n, ok := c.koUnitBeforeHowMany(i, w); ok {
		return n, true
	}
	gpuCounter := strings.HasPrefix(w, "몇장") || strings.HasPrefix(w, "몇대") || strings.HasPrefix(c.w(i+1), "장") || strings.HasPrefix(c.w(i+1), "대")
	if next := c.w(i + 1); strings.HasPrefix(next, "명") || strings.HasPrefix(w, "몇명") || i > 0 && koConcurrent(c.w(i-1), c.w(i-2)) && !gpuCounter {
		// "동시 사용자 몇 명", "동시 요청 몇 개까지": the most sequences
		// served together that memory holds
		c.ask = AskNone
		c.setAsk(AskFit)
		c.maxBatch = true
		c.runWord = true
		return c.skipCounters(i+1, "명", "개", "까지"), true
	}
	b := i - 1
	for b > 0 && (strings.HasPrefix(c.w(b), "사이즈") || strings.HasPrefix(c.w(b), "크기") || strings.HasPrefix(c.w(b), "최대")) {
		b-- // "배치 사이즈 최대 몇까지": the words between are the batch's
	}
	if i > 0 && strings.HasPrefix(c.w(b), "배치") {
		// "배치 몇까지 돼?", "배치 몇 개까지": the largest batch that fits
		if n := len(c.out); n > 0 && c.out[n-1].w == "batch" {
			c.out = c.out[:n-1]
		}
		c.ask = AskNone
		c.setAsk(AskFit)
		c.maxBatch = true
		n := i + 1
		for strings.HasPrefix(c.w(n), "개") || strings.HasPrefix(c.w(n), "까지") {
			n++
		}
		if n > i+1 {
			c.skip(i+1, n) // 몇 itself is listed by the caller
		}
		return n, true
	}
	if next := c.w(i + 1); i > 0 && koSeqWord(c.w(i-1)) && (strings.HasPrefix(next, "토큰") || strings.HasPrefix(next, "까지") || strings.HasSuffix(w, "까지")) {
		if n := len(c.out); n > 0 && c.out[n-1].w == "seq" {
			c.out = c.out[:n-1]
		}
		c.ask = AskNone
		c.setAsk(AskFit)
		c.maxSeq = true
		if strings.HasSuffix(w, "까지") {
			return i + 1, true
		}
		c.skip(i+1, i+2)
		return i + 2, true
	}
	if k := c.koRateUnitAt(i + 1); k > 0 {
		c.ask = AskNone
		c.setAsk(AskTime)
		c.rate = true
		c.requestRate = c.requestRate || strings.HasPrefix(c.w(i+1), "요청") || strings.HasPrefix(c.w(i+1), "req")
		c.runWord = true
		c.skip(i+1, i+1+k)
		return i + 1 + k, true
	}
	if s, e, ok := koStem(c.w(i + 1)); ok && s != "" && e.act == koWord && workUnit(e.word) != "" && !c.rate && !koPerTime(c.w(i-1)) {
		// "3000달러로 몇 토큰까지 돼?", "3일 동안 몇 에폭": the work a budget
		// or a time buys
		c.askAmount(workUnit(e.word))
		c.skip(i+1, i+2)
		return i + 2, true
	}
	return 0, false
}

// koDataWord reports whether w names a dataset's samples: "데이터",
// "샘플", "문장", "이미지", "문서".
func koDataWord(w string) bool {
	for _, p := range []string{"데이터", "샘플", "문장", "이미지", "문서"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// koRateWord reports whether w names a rate ("tokens/s", "tok/s", "tps",
// "처리량"): 얼마 after it asks the rate, not a cost.
func koRateWord(w string) bool {
	return strings.HasSuffix(w, "/s") || strings.HasSuffix(w, "/sec") || w == "tps" || strings.HasPrefix(w, "처리량") || strings.HasPrefix(w, "throughput")
}

// koPerTime reports whether w says "per unit of time" ("초당", "시간당"):
// 몇 after it asks a rate, not an amount.
func koPerTime(w string) bool {
	for _, p := range []string{"초당", "분당", "시간당", "일당"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// numberJustBefore reports whether the last word written out is a number
// read from the words right before input i ("100억 토큰"), not one from
// further back ("8장 서버 두 대로 토큰 100억 개": the 8 is GPUs).
func (c *canonizer) numberJustBefore(i int) bool {
	if !reqStartsNumber(lastW(c.out)) {
		return false
	}
	return i == 0 || c.out[len(c.out)-1].end >= c.in[i-1].end
}

// koConcurrent reports whether the words before 몇 say requests or users
// served together: "동시 요청", "동시 사용자", "동시 접속", "동시에".
func koConcurrent(prev, prev2 string) bool {
	if strings.HasPrefix(prev, "동시") || strings.HasPrefix(prev, "동접") {
		return true
	}
	for _, w := range []string{"요청", "사용자", "접속", "유저", "스트림", "세션"} {
		if strings.HasPrefix(prev, w) && strings.HasPrefix(prev2, "동시") {
			return true
		}
	}
	return false
}

// koNegatedAt is how many words at a, b say an option is off: "안 켜면",
// "안 쓰고", "없이", "끄고", "빼고"; 0 for none.
func koNegatedAt(a, b string) int {
	switch {
	case a == "안" && (strings.HasPrefix(b, "켜") || strings.HasPrefix(b, "쓰") || strings.HasPrefix(b, "하")):
		return 2
	case strings.HasPrefix(a, "없이") || strings.HasPrefix(a, "끄") || strings.HasPrefix(a, "빼") || strings.HasPrefix(a, "끈"):
		return 1
	}
	return 0
}

// koAskFlags notes what a question word at i says beyond its question:
// the cheapest ("제일 싸요"), a rate ("속도"), the latency ("지연시간").
func (c *canonizer) koAskFlags(i int, stem string) {
	if strings.HasPrefix(stem, "싸") && (c.w(i-1) == "제일" || c.w(i-1) == "가장" || c.w(i-1) == "젤") {
		c.prefer = "cheapest" // "어떤 gpu가 제일 싸요?"
	}
	if stem == "속도" || stem == "처리량" {
		c.rate = true // "속도 얼마나 나와?", "속도 차이", "처리량?": how fast
		c.runWord = true
	}

	if strings.HasPrefix(stem, "실시간") || strings.HasPrefix(c.w(i-1), "실시간") {
		c.audioRate, c.rate, c.runWord = true, true, true // "실시간 몇 배속": audio time per wall time
	}
	if latencyWord(stem) || stem == "응답시간" {
		c.latency = true // "지연시간", "레이턴시": a batch's or a token's time
	}
	if strings.HasPrefix(stem, "몇") || strings.HasPrefix(stem, "얼마") {
		// "요청 하나에 몇초", "요청당 얼마나 걸려": one request's time
		for _, w := range []string{c.w(i - 1), c.w(i - 2)} {
			if strings.HasPrefix(w, "요청") || strings.HasPrefix(w, "응답") {
				c.latency = true
			}
		}
	}
}

// koItemWord reports whether w names what a rate counts: images, samples,
// tokens, sentences, requests ("초당 이미지 몇 장").
func koItemWord(w string) bool {
	for _, p := range []string{"이미지", "사진", "샘플", "토큰", "문장", "요청", "건", "개"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// koClockAt reads an hour of the day said before 까지: "오전 9시까지",
// "오후 6시까지", "9시까지" (the morning unless 오후, 저녁 or 밤 says
// otherwise), with the hour split from 시 or not: the hour (0-23) and how
// many words it took; 0 words for none.
func koClockAt(ws []string) (int, int) {
	k, pm := 0, false
	switch ws[0] {
	case "오전", "아침":
		k = 1
	case "오후", "저녁", "밤":
		k, pm = 1, true
	}
	if k >= len(ws) {
		return 0, 0
	}
	h, rest, ok := reqScanInt(ws[k])
	if !ok || h < 0 || h > 24 {
		return 0, 0
	}
	switch {
	case strings.HasPrefix(rest, "시") && strings.HasSuffix(rest, "까지"):
		k++
	case rest == "" && k+1 < len(ws) && strings.HasPrefix(ws[k+1], "시") && strings.HasSuffix(ws[k+1], "까지"):
		k += 2
	default:
		return 0, 0
	}
	if pm && h < 12 {
		h += 12
	}
	return h % 24, k
}

// koHowManyRate reads 몇 asking a rate: "실시간 몇 배속" (a speech model's
// speed in audio time), "초당 이미지 몇장", "초당 몇 개", "시간당 토큰 몇 개".
func (c *canonizer) koHowManyRate(i int, w string) (int, bool) {
	realtime := strings.HasPrefix(c.w(i-1), "실시간") || c.audioModel() && slices.ContainsFunc(c.in[:i], func(t reqToken) bool { return strings.HasPrefix(t.w, "실시간") })
	if realtime && (strings.HasPrefix(c.w(i+1), "배") || strings.HasPrefix(w, "몇배") || strings.HasPrefix(c.w(i+1), "채널") || strings.HasPrefix(c.w(i+1), "스트림")) {
		// "실시간 몇 배속이야", "whisper … 실시간 … 한 장에 몇 채널": a speech
		// model's speed in audio time, as many live streams as that
		// "실시간 몇 배속이야": a speech model's speed in audio time
		c.ask = AskNone
		c.setAsk(AskTime)
		c.rate, c.audioRate, c.runWord = true, true, true
		if strings.HasPrefix(c.w(i+1), "배") || strings.HasPrefix(c.w(i+1), "채널") || strings.HasPrefix(c.w(i+1), "스트림") {
			c.skip(i+1, i+2)
			return i + 2, true
		}
		return i + 1, true
	}
	if koPerTime(c.w(i-1)) || koPerTime(c.w(i-2)) && koItemWord(c.w(i-1)) {
		// "초당 이미지 몇장", "초당 몇 개", "시간당 토큰 몇 개": a rate, not
		// how many GPUs
		c.ask = AskNone
		c.setAsk(AskTime)
		c.rate = true
		c.runWord = true
		return c.skipCounters(i+1, "장", "개", "건"), true
	}
	return 0, false
}

// skipCounters skips the words from i that start with one of the
// counters after 몇 ("몇 명까지", "몇 장"), and returns where the next
// word starts.
func (c *canonizer) skipCounters(i int, counters ...string) int {
	n := i
	for slices.ContainsFunc(counters, func(p string) bool { return strings.HasPrefix(c.w(n), p) }) {
		n++
	}
	if n > i {
		c.skip(i, n)
	}
	return n
}

// koParallelWords are the Korean names of the ways to split a model, by
// what comes before 병렬 or 패러렐.
var koParallelWords = map[string]string{"텐서": "tp", "파이프라인": "pp", "컨텍스트": "cp", "tensor": "tp", "pipeline": "pp", "context": "cp"}

// koParallelism reads "텐서 병렬 2로", "텐서패러렐 2", "파이프라인 병렬",
// "컨텍스트 병렬 필요해?": the layout word the English reader knows as tp,
// pp or cp; i when none is there.
func (c *canonizer) koParallelism(i int) int {
	w := c.w(i)
	for head, key := range koParallelWords {
		rest, ok := strings.CutPrefix(w, head)
		if !ok {
			continue
		}
		n := i + 1
		if rest == "" {
			rest, n = c.w(i+1), i+2
		}
		for _, p := range []string{"병렬", "패러렐", "페러렐", "패럴렐"} {
			if strings.HasPrefix(rest, p) {
				c.emit(key, i, n)
				return n
			}
		}
	}
	return i
}

// koLength reads "길이 4k", "최대 길이 2048": a sequence length said with
// the word 길이 alone ("프롬프트+응답 길이 4k"); after 컨텍스트 or 시퀀스,
// already the length's word, it is nothing more. "평균 1000토큰" after a sample
// count is each sample's length too.
func (c *canonizer) koLength(i int) int {
	if lastW(c.out) == "seq" || !reqStartsNumber(c.w(i+1)) {
		return i
	}
	if strings.HasPrefix(c.w(i), "길이") {
		c.emit("seq", i, i+1)
		return i + 1
	}
	if (c.w(i) == "평균" || c.w(i) == "평균적으로" || c.w(i) == "평균길이") && strings.HasPrefix(c.w(i+2), "토큰") && c.samplesSaid(i) {
		// "10만개 평균 1000토큰": each sample's length after their count,
		// not a second dataset size
		c.emit("seq", i, i+1)
		c.emit(c.w(i+1), i+1, i+2)
		return i + 3
	}
	return i
}

// samplesSaid reports whether a count of samples was read just before i
// ("10만개", "5만 문장", "20k samples"): what an average length belongs to.
func (c *canonizer) samplesSaid(i int) bool {
	if w := lastW(c.out); w == itemsMark || w == "samples" {
		return true // "10만개", "5만 문장": the count just read
	}
	prev := c.w(i - 1)
	return reqStartsNumber(lastW(c.out)) && koItemWord(prev) && !strings.HasPrefix(prev, "토큰")
}

// koRateComesOut reads "몇 나올까", "몇 나와" at i: how much comes out,
// the rate there after a measured one ("h100이면 대충 몇 나올까").
func (c *canonizer) koRateComesOut(i int, w string) (int, bool) {
	n := c.w(i + 1)
	rate := rateUnitWord(n) != "" || rateQuestion(n, c.w(i+2), c.w(i+3)) > 0 // "몇 img/s", "몇 tokens/s"
	if w != "몇" || !rate && !strings.HasPrefix(n, "나오") && !strings.HasPrefix(n, "나올") && !strings.HasPrefix(n, "나와") {
		return i, false
	}
	c.ask = AskNone
	c.setAsk(AskTime)
	c.rate = true
	c.skip(i+1, i+2)
	return i + 2, true
}

// koBasis reads "h100 기준", "a100 기준으로": the GPU named without a count
// is the kind to plan on, as many as the job takes ("on h100s").
func (c *canonizer) koBasis(i int) int {
	if !strings.HasPrefix(c.w(i), "기준") || !c.gpu(lastW(c.out)) {
		return i
	}
	if k := len(c.out); k >= 2 && reqStartsNumber(c.out[k-2].w) || strings.Contains(lastW(c.out), "x") {
		return i // "h100 4장 기준": the count is said
	}
	c.pluralGPU = true
	c.skip(i, i+1)
	return i + 1
}

// koGPUBy notes "h100으로", "a100으로 하면": a GPU named by its kind
// with no count, the means of a cost or a time asked (the words stay for
// the other readers).
func (c *canonizer) koGPUBy(i int) int {
	switch w := c.w(i); {
	case w != "으로" && w != "로" && w != "으로는" && w != "로는" && !strings.HasPrefix(w, "으로하") && !strings.HasPrefix(w, "로하"):
	case !c.gpu(lastW(c.out)) || strings.Contains(lastW(c.out), "x"):
	case len(c.out) >= 2 && reqStartsNumber(c.out[len(c.out)-2].w):
	default:
		c.gpuBy = true
	}
	return i
}

// koNegative notes a question asked in the negative at i: "안들어가지?",
// "안 돼?", "못 돌리나?" (the words stay for the other readers).
func (c *canonizer) koNegative(i int) int {
	w := c.w(i)
	rest, ok := strings.CutPrefix(w, "안")
	if !ok {
		rest, ok = strings.CutPrefix(w, "못")
	}
	if !ok {
		return i
	}
	if rest == "" {
		rest = c.w(i + 1)
	}
	if k := len(c.out) - 1; k >= 0 && reqKeywords[c.out[k].w].kind == reqKwPrecision && (strings.HasPrefix(rest, "되") || strings.HasPrefix(rest, "돼")) {
		// "v100이라 bf16 안되는걸로 아는데": a format ruled out, not asked for
		c.out = c.out[:k]
		c.skip(i, i+1)
		return i + 1
	}
	for _, v := range []string{"들어", "돼", "되", "돌", "올라", "맞", "나오", "나와"} {
		if strings.HasPrefix(rest, v) {
			c.negativeAsk = true
			break
		}
	}
	return i
}

// koUseWords reads what is done with a model that makes it run, not
// train, unless training is said: "인코딩", "임베딩", "전사", "회의록",
// "받아쓰기", "변환" ("천만 문장 인코딩하면", "회의록 변환").
func (c *canonizer) koUseWords(i int) int {
	w := c.w(i)
	for _, p := range []string{"인코딩", "임베딩", "전사", "회의록", "받아쓰기", "자막"} {
		if strings.HasPrefix(w, p) && !trainingSaid(c.in) {
			c.runWord, c.useWord = true, true
			return i + 1 // read, so not listed as skipped
		}
		if strings.HasPrefix(w, p) && (p == "임베딩" || p == "인코딩") {
			return i + 1 // "임베딩 모델 파인튜닝": the kind of model trained, not a second workload
		}
	}
	return i
}

// koDeadlineWord reads "데드라인 3일인데", "마감 이틀": a deadline said as a
// length beside the word for it.
func (c *canonizer) koDeadlineWord(i int) int {
	if n, ok := c.durationDeadline(i); ok {
		return n
	}
	return i
}

// koReduce notes "얼마나 줄어", "메모리 절약", "얼마나 아낄": how much a
// change saves, which sets it against what it changes (the words stay).
func (c *canonizer) koReduce(i int) int {
	for _, p := range []string{"줄어", "줄일", "줄이", "절약", "아낄", "아껴"} {
		if strings.HasPrefix(c.w(i), p) {
			c.reduceAsked = true
		}
	}
	return i
}

// koPhrases read Korean phrases of several words before the numbers and
// the lexicon do: rates, people, concurrent requests, hours of audio, the largest batch, a
// served request's lengths.
var koPhrases = []func(*canonizer, int) int{
	(*canonizer).koVersus, (*canonizer).koRateQuestion, (*canonizer).koPeople, (*canonizer).koConcurrent, (*canonizer).koAudioHours, (*canonizer).koMaxBatch, (*canonizer).koInOut,
	(*canonizer).koWeekRef, (*canonizer).koSelectiveCkpt, (*canonizer).koParallelism,
	(*canonizer).koLength, (*canonizer).koBasis, (*canonizer).koNegative, (*canonizer).koGPUBy, (*canonizer).koUseWords,
	(*canonizer).koDeadlineWord, (*canonizer).koReduce, (*canonizer).koOutputLength, (*canonizer).koLatencyTarget,
	(*canonizer).koRealtime, (*canonizer).koPerUserAsked,
}

// koRealtime reads "실시간 처리 가능?", "실시간으로 돼?": whether the model
// keeps up with real time, a rate asked (a speech model's in audio time
// per wall time, the answer's "x real time").
func (c *canonizer) koRealtime(i int) int {
	w := c.w(i)
	if !strings.HasPrefix(w, "실시간") || strings.HasPrefix(c.w(i+1), "몇") || strings.HasPrefix(c.w(i+1), "배") {
		return i // "실시간 몇 배속" is read with its 몇
	}
	n := i + 1
	if strings.HasPrefix(c.w(n), "처리") || strings.HasPrefix(c.w(n), "전사") || strings.HasPrefix(c.w(n), "인식") || strings.HasPrefix(c.w(n), "변환") {
		n++
	}
	c.ask = AskNone
	c.setAsk(AskTime)
	c.audioRate, c.rate, c.runWord = true, true, true
	c.skip(i, n)
	return n
}

// koOutputLength reads an answer's length: "응답 토큰 평균 300개", "출력
// 500토큰", "답변 길이 1k": the tokens generated per request.
func (c *canonizer) koOutputLength(i int) int {
	w := c.w(i)
	if !strings.HasPrefix(w, "응답") && !strings.HasPrefix(w, "출력") && !strings.HasPrefix(w, "답변") {
		return i
	}
	j := i + 1
	for strings.HasPrefix(c.w(j), "토큰") || strings.HasPrefix(c.w(j), "길이") || c.w(j) == "평균" || koUnitFiller(c.w(j)) {
		j++
	}
	v, unit, ok := reqScanNumber(c.w(j))
	if !ok || v.v <= 0 || !reqStartsNumber(c.w(j)) || unit != "" && unit != "k" || timeUnitWord(c.w(j+1)) || strings.HasPrefix(c.w(j+1), "초") {
		return i // "응답 2초 안에": a latency, read by koLatencyTarget
	}
	n := j + 1
	if k := c.w(n); strings.HasPrefix(k, "개") || strings.HasPrefix(k, "토큰") {
		n++
	}
	c.emit("gen", i, j)
	c.emit(c.w(j), j, n)
	return n
}

// audioModel reports whether the request names a speech model ("whisper",
// "위스퍼"): live audio is what its real-time questions are about.
func (c *canonizer) audioModel() bool {
	return slices.ContainsFunc(c.in, func(t reqToken) bool {
		return strings.Contains(t.w, "whisper") || strings.Contains(t.w, "위스퍼")
	})
}

// koBitsAsked reads 몇 glued to what it counts: "몇비트" ("4090에 올릴려면
// 몇비트 양자화 해야댐?" asks the widest weight format that fits) and "몇에폭"
// ("200달러로 몇에폭 돌릴수있어": the work a budget buys).
func (c *canonizer) koBitsAsked(i int, w string) (int, bool) {
	if rest, ok := strings.CutPrefix(w, "몇"); ok && rest != "" && !c.rate {
		if s, e, ok := koStem(rest); ok && s != "" && e.act == koWord && workUnit(e.word) != "" && !koPerTime(c.w(i-1)) {
			c.ask = AskNone
			c.askAmount(workUnit(e.word)) // "몇에폭 돌릴수있어": the work a budget buys, the unit glued
			return i + 1, true
		}
	}
	if !strings.HasPrefix(w, "몇비트") && (w != "몇" || !strings.HasPrefix(c.w(i+1), "비트")) {
		return 0, false
	}
	c.ask = AskNone
	c.setAsk(AskFit)
	c.bitsAsked, c.runWord = true, true
	n := i + 1
	if w == "몇" {
		n++
	}
	return c.skipCounters(n, "양자화", "로", "으로"), true
}

// koVersus keeps "대비", "비해", "보다" after a format ("fp8로 … bf16 대비
// 얼마나 빨라져"): the parser sets the two formats side by side.
func (c *canonizer) koVersus(i int) int {
	w := c.w(i)
	if (strings.HasPrefix(w, "대비") || strings.HasPrefix(w, "비해") || w == "보다") && reqKeywords[lastW(c.out)].kind == reqKwPrecision {
		c.emit("대비", i, i+1)
		return i + 1
	}
	return i
}

// koWorkUnitBefore is the unit of work w names, in Korean or English
// ("토큰", "에폭", "tokens"), "" for none.
func koWorkUnitBefore(w string) string {
	if s, e, ok := koStem(w); ok && s != "" && e.act == koWord {
		return workUnit(e.word)
	}
	return workUnit(w)
}

// koUnitBeforeHowMany reads the unit of work said before 몇 ("하루에 토큰
// 몇개", "에폭 몇 번 돌릴 수 있어"): the work a time or a budget buys, in
// that unit.
func (c *canonizer) koUnitBeforeHowMany(i int, w string) (int, bool) {
	if n, ok := c.koTokensComeOut(i); ok {
		return n, true // "몇 토큰 나와": a rate
	}
	if rest := strings.TrimPrefix(strings.TrimPrefix(w, "몇"), "개"); koWorkUnitBefore(c.w(i-1)) == "tokens" && !koPerTime(c.w(i-2)) &&
		(koComesOut(rest) || koComesOut(c.w(i+1)) || strings.HasPrefix(c.w(i+1), "개") && koComesOut(c.w(i+2))) {
		// "3060에서 토큰 몇개나옴?": how fast it generates, not how many a time buys
		c.ask = AskNone
		c.setAsk(AskTime)
		c.rate, c.runWord = true, true
		n := i + 1
		for n < len(c.in) && (strings.HasPrefix(c.w(n), "개") || koComesOut(c.w(n))) {
			n++
		}
		return n, true
	}
	if unit := koWorkUnitBefore(c.w(i - 1)); unit != "" && !c.rate && !koPerTime(c.w(i-2)) && !koConcurrent(c.w(i-1), c.w(i-2)) && !c.koAmountAt(i-2) &&
		(w == "몇" && (strings.HasPrefix(c.w(i+1), "개") || strings.HasPrefix(c.w(i+1), "번") || strings.HasPrefix(c.w(i+1), "까지")) ||
			strings.HasPrefix(w, "몇개") || strings.HasPrefix(w, "몇번") || strings.HasPrefix(w, "몇까지")) {
		// "h100 8장이면 하루에 토큰 몇개 학습 가능?": the work a time or a
		// budget buys, the unit said before the question
		c.ask = AskNone
		c.askAmount(unit)
		if k := len(c.out) - 1; k >= 0 && workUnit(c.out[k].w) != "" && c.out[k].start == c.in[i-1].start {
			c.out = c.out[:k] // "에폭 몇개까지": the unit asked for, not an amount said
		}
		n := c.skipCounters(i+1, "개", "까지")
		if strings.HasPrefix(c.w(n), "번") {
			n++ // "에폭 몇 번": how many times, read
		}
		return n, true
	}
	if c.budget > 0 && !c.rate && (w == "몇" && strings.HasPrefix(c.w(i+1), "번") || strings.HasPrefix(w, "몇번")) && koWorkUnitBefore(c.w(i-1)) == "" {
		// "예산 2천만원으로 … 파인튜닝 몇 번 돌릴 수 있어": how many runs
		// the budget buys, each a pass over the data: epochs
		c.ask = AskNone
		c.askAmount("epochs")
		n := i + 1
		if w == "몇" {
			n++
		}
		return n, true
	}
	if n := i + 1; (w == "몇" && strings.HasPrefix(c.w(n), "번") || strings.HasPrefix(w, "몇번")) && c.budget == 0 {
		if w == "몇" {
			n++
		}
		if v := c.w(n); strings.HasPrefix(v, "돌릴") || strings.HasPrefix(v, "돌려") || strings.HasPrefix(v, "돌리") {
			// "몇 번 돌릴 예산 잡아야 하는데 … 한 번에 얼마": how many runs
			// is theirs to decide; with no budget said, the question is
			// the rest (a run's cost), not a GPU count
			if c.ask == AskCount {
				c.ask = AskNone // the 몇 the lexicon read as a count
			}
			c.skip(i, n+1)
			return n + 1, true
		}
	}
	return 0, false
}

// koComesOut reports whether w says what a run puts out ("나와", "나오나요",
// "뽑혀"): "몇 토큰 나와" asks a rate.
func koComesOut(w string) bool {
	return strings.HasPrefix(w, "나와") || strings.HasPrefix(w, "나오") || strings.HasPrefix(w, "나옴") || strings.HasPrefix(w, "뽑")
}

// koTokensComeOut reads "몇 토큰 나와" at i: how fast it generates, not how
// many tokens a time buys.
func (c *canonizer) koTokensComeOut(i int) (int, bool) {
	if s, e, ok := koStem(c.w(i + 1)); !ok || s == "" || e.act != koWord || workUnit(e.word) != "tokens" || !koComesOut(c.w(i+2)) {
		return 0, false
	}
	c.ask = AskNone
	c.setAsk(AskTime)
	c.rate, c.runWord = true, true
	c.skip(i+1, i+3)
	return i + 3, true
}

// koAmountAt reports whether the word at k ends an amount said ("1억
// 토큰 몇 번 돌릴": the tokens are the amount's unit, and "몇 번" asks the
// runs, not the tokens).
func (c *canonizer) koAmountAt(k int) bool {
	w := c.w(k)
	if reqStartsNumber(w) {
		return true
	}
	switch w {
	case "만", "억", "천", "조", "백":
		return true
	}
	_, ok := koNumbers[w]
	return ok
}

// koPerUserAsked reads "유저당", "사용자당", "1인당", "인당" with no rate
// after it ("동접 32명이면 유저당 토큰 속도"): each user's pace is asked,
// not the server's total; a rate after it is a target, read elsewhere.
func (c *canonizer) koPerUserAsked(i int) int {
	w := c.w(i)
	per := false
	for _, p := range []string{"유저당", "사용자당", "1인당", "인당", "명당", "스트림당"} {
		per = per || strings.HasPrefix(w, p)
	}
	if !per || reqStartsNumber(c.w(i+1)) || strings.HasPrefix(c.w(i+1), "초당") && reqStartsNumber(c.w(i+2)) {
		return i
	}
	c.perUser = true
	c.skip(i, i+1)
	return i + 1
}
