package lang

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The words of this file's readers are small lexicons the canonizer's
// phrase switch (canon.go) asks: activation offloading, an hourly price
// ceiling, the sequence length.

// actOffloadPhrase returns how many words at a, b, c say activation
// offloading (torchtune's enable_activation_offloading, Unsloth's
// offloaded gradient checkpointing), or 0.
func actOffloadPhrase(a, b, c string) int {
	acts := func(w string) bool { return w == "activation" || w == "activations" || w == "act" || w == "acts" }
	offl := func(w string) bool { return w == "offload" || w == "offloading" || w == "offloaded" }
	ckpt := func(w string) bool { return w == "checkpointing" || w == "checkpoints" || w == "ckpt" }
	switch {
	case a == "cpu" && acts(b) && offl(c), offl(a) && (b == "gradient" || b == "grad") && ckpt(c):
		return 3
	case acts(a) && offl(b), offl(a) && acts(b), offl(a) && ckpt(b):
		return 2
	}
	return 0
}

// ws returns the n words from i (empty past the end).
func (c *canonizer) ws(i, n int) []string {
	out := make([]string, n)
	for k := range out {
		out[k] = c.w(i + k)
	}
	return out
}

// hourlyPrice reads a ceiling on a GPU's hourly price at the start of w:
// "$2/hr", "$2/gpu-hour", "$2 per hour", "$2 an hour", "under $2/h",
// "시간당 2달러", "시간당 $2". It returns the price and how many words
// said it, or 0.
func hourlyPrice(w []string) (float64, int) {
	at := 0
	if w[0] == "under" || w[0] == "below" || w[0] == "max" || w[0] == "<=" || w[0] == "<" || w[0] == "upto" {
		at = 1
	}
	if w[0] == "시간당" || w[0] == "시간" && w[1] == "당" {
		// the Korean reader may have split the word: "시간" "당"
		k := 1
		if w[0] == "시간" {
			k = 2
		}
		v, n := dollars(w[k]), k+1
		for _, unit := range []string{"달러", "불"} {
			if s, ok := strings.CutSuffix(w[k], unit); ok && s != "" && v == 0 {
				v = dollars("$" + s)
			} else if strings.HasPrefix(w[k+1], unit) && v == 0 { // "달러면", "달러라면": the price said
				v, n = dollars("$"+w[k]), k+2
			}
		}
		if v > 0 && n < len(w) && (strings.HasPrefix(w[n], "이하") || strings.HasPrefix(w[n], "이내") || w[n] == "까지") {
			n++ // "2달러 이하": at most
		}
		if v == 0 {
			return 0, 0
		}
		return v, n
	}
	tok := w[at]
	if v, _, ok := reqScanNumber(tok); ok && v.v > 0 && (w[at+1] == "dollars" || w[at+1] == "dollar" || w[at+1] == "usd" || w[at+1] == "bucks") {
		// "under 2 dollars an hour", "1.5 usd per gpu hour"
		rest := w[at+2:]
		switch {
		case (rest[0] == "per" || rest[0] == "an" || rest[0] == "a" || rest[0] == "/") && hourWord(rest[1]):
			return v.v, at + 4
		case rest[0] == "per" && (rest[1] == "gpu" || rest[1] == "gpus") && hourWord(rest[2]):
			return v.v, at + 5
		}
		return 0, 0
	}
	for _, unit := range []string{"/gpu-hour", "/gpu-hr", "/gpu/hr", "/gpu/hour", "/gpuh", "/hour", "/hr", "/h"} {
		if s, ok := strings.CutSuffix(tok, unit); ok {
			if v := dollars(s); v > 0 {
				return v, at + 1
			}
		}
	}
	v := dollars(tok)
	if v == 0 {
		return 0, 0
	}
	switch rest := w[at+1:]; {
	case (rest[0] == "per" || rest[0] == "an" || rest[0] == "a" || rest[0] == "/") && hourWord(rest[1]):
		return v, at + 3
	case rest[0] == "per" && (rest[1] == "gpu" || rest[1] == "gpus") && hourWord(rest[2]):
		return v, at + 4
	case rest[0] == "/hr" || rest[0] == "/h" || rest[0] == "/hour" || rest[0] == "/gpu-hour":
		return v, at + 2
	}
	return 0, 0
}

// hourlyPriceAt is hourlyPrice's price alone.
func hourlyPriceAt(w []string) float64 {
	v, _ := hourlyPrice(w)
	return v
}

func hourWord(w string) bool {
	return w == "hour" || w == "hr" || w == "h" || w == "gpu-hour" || w == "gpu-hr" || w == "hours"
}

// seqWord reports whether w names the sequence length ("context", "seq").
func seqWord(w string) bool {
	switch w {
	case "context", "seq", "sequence", "seqlen", "seq-len", "context-length", "ctx", "context-window", "sequence-length":
		return true
	}
	return false
}

// selectiveCkptWords is how many of a, b name the checkpointing after
// "selective" / "선택적": "checkpointing", "activation checkpointing",
// "recompute", "체크포인팅", "재계산"; 0 for none.
func selectiveCkptWords(a, b string) int {
	ck := func(w string) bool {
		switch w {
		case "checkpointing", "ckpt", "recompute", "recomputation", "ac", "체크포인팅", "재계산", "리컴퓨트":
			return true
		}
		return strings.HasPrefix(w, "체크포인팅") || strings.HasPrefix(w, "재계산")
	}
	switch {
	case ck(a):
		return 1
	case (a == "activation" || a == "gradient" || a == "grad" || a == "액티베이션") && ck(b):
		return 2
	}
	return 0
}

// billions reports whether w is a count in billions ("8b", "70B"): a
// model's size, never a context length.
func billions(w string) bool {
	n, unit, ok := reqScanNumber(w)
	return ok && unit == "" && n.mult == 'b'
}

// sampleLength reports whether a, b, c, d say samples of a length: "samples
// of 512 tokens", "examples of 1k tokens".
func sampleLength(a, b, c, d string) bool {
	switch a {
	case "samples", "examples", "sequences", "seqs", "documents", "docs", "conversations", "rows":
	default:
		return false
	}
	n, unit, ok := reqScanNumber(c)
	return b == "of" && ok && unit == "" && n.v >= 16 && n.v <= 10_000_000 && (d == "tokens" || d == "token" || d == "toks")
}

// concurrentWords is how many words at a, b name people or requests served
// together ("concurrent users", "simultaneous requests", "users", "parallel
// sequences"); 0 for none.
func concurrentWords(a, b string) int {
	people := func(w string) bool {
		switch w {
		case "users", "user", "requests", "request", "reqs", "sequences", "seqs", "streams", "sessions", "chats", "clients", "people", "ppl":
			return true
		}
		return false
	}
	switch a {
	case "concurrent", "simultaneous", "parallel":
		if people(b) {
			return 2
		}
	}
	switch a {
	case "users", "clients", "sessions", "people", "ppl":
		return 1
	}
	return 0
}

// memoryWord names GPU memory: "vram", "memory", "gpu memory", "메모리".
func memoryWord(w string) bool {
	switch w {
	case "vram", "memory", "mem", "gpu-memory", "hbm", "ram", "gpu":
		return true
	}
	return strings.HasPrefix(w, "메모리") || strings.HasPrefix(w, "vram") || strings.HasPrefix(w, "램") || strings.HasPrefix(w, "용량") // "gguf 용량 얼마": the weights' size
}

// cloudWord reports whether w says rented GPUs: "cloud", "rent", a GPU
// cloud's name.
func cloudWord(w string) bool {
	switch w {
	case "cloud", "rent", "rented", "renting", "rental", "runpod", "vast.ai", "vastai", "lambda", "lambdalabs", "coreweave", "aws", "gcp", "azure", "ec2":
		return true
	}
	return false
}

// notePreference remembers a word that asks for one of the picks: "the
// cheapest way to …", "제일 싼", "fastest".
func (c *canonizer) notePreference(w string) {
	switch {
	case w == "cheapest" || w == "cheaper" || w == "cheap" || w == "싼" || w == "쌈" || w == "싸" || w == "싸요" || strings.HasPrefix(w, "싼거") || strings.HasPrefix(w, "싸게") || strings.HasPrefix(w, "저렴"):
		c.prefer = "cheapest"
	case w == "fastest" || w == "faster" || w == "quickest" || strings.HasPrefix(w, "빠르") || strings.HasPrefix(w, "빠른") ||
		strings.HasPrefix(w, "빨라") || strings.HasPrefix(w, "빨리") || strings.HasPrefix(w, "빠름") || strings.HasPrefix(w, "빠를"):
		c.prefer = "fastest"
	}
}

// serverNoun reports whether w, or w2 after a count word w ("three
// servers"), names the team's machines.
func serverNoun(w, w2 string) bool {
	isNoun := func(x string) bool {
		switch x {
		case "servers", "server", "boxes", "box", "machines", "machine", "nodes":
			return true
		}
		return false
	}
	if isNoun(w) {
		return true
	}
	switch w {
	case "two", "three", "four", "five", "2", "3", "4", "5":
		return isNoun(w2)
	}
	return false
}

// dollars reads a sum of money as people write it: "$20k", "$1,500",
// "$2.5M", "500$"; 0 for anything else.
func dollars(w string) float64 {
	s, ok := strings.CutPrefix(w, "$")
	if !ok {
		if s, ok = strings.CutSuffix(w, "$"); !ok {
			return 0
		}
	}
	s = strings.ReplaceAll(s, ",", "")
	v, unit, ok := reqScanNumber(s)
	if !ok || unit != "" || v.v <= 0 {
		return 0
	}
	return v.v
}

// stepTimeValue is the input index after "step time [is|of|=|~] 2.1s" read
// from j (after "step time"), or 0 when no seconds follow.
func (c *canonizer) stepTimeValue(j int) int {
	for c.w(j) == "is" || c.w(j) == "of" || c.w(j) == "=" || c.w(j) == "~" || c.w(j) == "about" || c.w(j) == "around" {
		j++
	}
	w := c.w(j)
	if c.w(j+1) == "s" || c.w(j+1) == "sec" || c.w(j+1) == "secs" || c.w(j+1) == "seconds" {
		if _, u, ok := reqScanNumber(w); ok && u == "" {
			return j + 2
		}
	}
	if v, u, ok := reqScanNumber(w); ok && v.v > 0 && (u == "s" || u == "sec") {
		return j + 1
	}
	return 0
}

// koParticleAt is 1 when w is a Korean particle standing alone ("가" cut
// from "tokens/s가"), else 0.
func koParticleAt(w string) int {
	if slices.Contains(koParticles, w) {
		return 1
	}
	return 0
}

// koBudgetAt is how many words at a, b, c say a budget in Korean: "예산"
// then "3000달러", "3000 달러" or "$3000" ("예산은 3000달러로"); 0 for none.
func koBudgetAt(a, b, c string) int {
	if !strings.HasPrefix(a, "예산") {
		return 0
	}
	if dollars(b) > 0 {
		return 2
	}
	if _, u, ok := reqScanNumber(b); ok && u == "" && strings.HasPrefix(c, "달러") {
		return 3
	}
	if v, u, ok := reqScanNumber(b); ok && v.v > 0 && strings.HasPrefix(u, "달러") {
		return 2
	}
	return 0
}

// audioHours is how many words at a… say hours of audio with a number:
// "100 hours of audio", "100h audio", "100 hrs of speech"; 0 for none.
func audioHours(a, b, c, d, e string) int {
	v, unit, ok := reqScanNumber(a)
	if !ok || v.v <= 0 {
		return 0
	}
	audio := func(w string) bool {
		switch strings.TrimRight(w, "을를이가은는") {
		case "audio", "speech", "recordings", "recording", "voice", "오디오", "음성", "녹음":
			return true
		}
		return false
	}
	k := 1
	if unit == "" {
		switch b {
		case "hours", "hour", "hrs", "hr", "h", "시간":
			k = 2
		default:
			return 0
		}
	} else if unit == "시간짜리" {
		if audio(b) {
			return 2
		}
		return 0
	} else if unit != "h" && unit != "hours" && unit != "hrs" {
		return 0
	}
	next, after, third := b, c, d
	if k == 2 {
		next, after, third = c, d, e
	}
	switch {
	case audio(next):
		return k + 1
	case (next == "of" || next == "의" || next == "분량" || next == "분량의" || next == "짜리") && audio(after):
		return k + 2 // "1000시간 분량 음성", "500시간짜리 녹음"
	case (next == "of" || next == "의") && languageWord(after) && audio(third):
		return k + 3 // "500 hours of korean audio"
	}
	return 0
}

// languageWord reports whether w names a spoken language, as said before
// "audio" or "speech".
func languageWord(w string) bool {
	switch w {
	case "korean", "english", "japanese", "chinese", "mandarin", "spanish", "french", "german", "multilingual", "한국어", "영어", "일본어", "중국어":
		return true
	}
	return false
}

// pagedOptimizerWord is a word of "paged adamw 8bit" / "paged 8-bit
// optimizers" after "paged".
func pagedOptimizerWord(w string) bool {
	return strings.HasPrefix(w, "adam") || w == "optimizer" || w == "optimizers" || w == "optim" ||
		w == "8bit" || w == "8-bit" || w == "32bit" || w == "32-bit"
}

// ckptNegated is how many words at the start of w say checkpointing is not
// used: "without (gradient|activation)? checkpointing", "no ckpt", "ckpt
// off", "disable checkpointing"; 0 for none.
func ckptNegated(w []string) int {
	ckpt := ckptName
	if len(w) < 2 {
		return 0
	}
	switch w[0] {
	case "without", "no", "disable", "disabled", "w/o":
		if ckpt(w[1]) {
			return 2
		}
		if (w[1] == "gradient" || w[1] == "grad" || w[1] == "activation") && len(w) > 2 && ckpt(w[2]) {
			return 3
		}
	}
	if ckpt(w[0]) && (w[1] == "off" || w[1] == "disabled") {
		return 2
	}
	return 0
}

// workUnit is the unit of work a word names when asked "how many" of a
// budget or a time: tokens, epochs, samples or steps; "" for others.
func workUnit(w string) string {
	switch w {
	case "tokens", "token", "toks":
		return "tokens"
	case "epochs", "epoch", "eps":
		return "epochs"
	case "samples", "examples", "sequences", "images", "imgs", "docs", "documents", "rows", "pairs":
		return "samples"
	case "steps", "iterations", "iters":
		return "steps"
	}
	return ""
}

// rateOrShareAfter reports whether the word after "how many tokens" makes
// it a rate or a share ("per second", "a second", "each step"), not an
// amount.
func rateOrShareAfter(w string) bool {
	switch w {
	case "per", "a", "an", "each", "every", "/s", "/sec", "/step", "/epoch":
		return true
	}
	return strings.HasPrefix(w, "/")
}

// askAmount marks the question as the work that fits a budget or a time.
func (c *canonizer) askAmount(unit string) {
	c.ask = AskNone
	c.setAsk(AskAmount)
	c.amountUnit = unit
}

// koDollarsAt reads a sum in dollars said alone, "1000달러로", "500 달러
// 안에서", "300불이면": its value and how many words it took; 0 words for
// none. An hourly price ("시간당 2달러") is read before it.
func koDollarsAt(a, b string) (float64, int) {
	v, u, ok := reqScanNumber(a)
	if !ok || v.v <= 0 {
		return 0, 0
	}
	for scale, k := range map[string]float64{"천": 1e3, "만": 1e4, "백": 100} {
		// "3천달러", "1만 불": a scale before the currency
		if rest, ok := strings.CutPrefix(b, scale); ok && u == "" && (strings.HasPrefix(rest, "달러") || rest == "불" || strings.HasPrefix(rest, "불로") || strings.HasPrefix(rest, "불이면")) {
			return v.v * k, 2
		}
	}
	switch {
	case strings.HasPrefix(u, "달러") || strings.HasPrefix(u, "불"):
		return v.v, 1
	case u == "" && (strings.HasPrefix(b, "달러") || b == "불" || strings.HasPrefix(b, "불로") || strings.HasPrefix(b, "불이면")):
		return v.v, 2
	}
	return 0, 0
}

// moneyUnit reports whether w names a currency after a number ("달러",
// "불이면", "usd", "dollars", "원", "만원"): the number is a sum, not a
// count of GPUs.
func moneyUnit(w string) bool {
	for _, p := range []string{"달러", "불", "원", "만원", "usd", "dollar", "bucks"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// halfDuration is half the time unit in "half a day", "half an hour",
// "half day"; 0 for none.
func halfDuration(a, b string) time.Duration {
	w := a
	if a == "a" || a == "an" {
		w = b
	}
	switch w {
	case "day", "hour", "week":
		d, _ := deadlineUnit(w)
		return d / 2
	}
	return 0
}

// halfRate reports whether "half a day" at i is followed by what makes it
// a measured rate ("half a day per epoch", "half a day an epoch").
func (c *canonizer) halfRate(i int) bool {
	n := i + 2
	if c.w(i+1) == "a" || c.w(i+1) == "an" {
		n++
	}
	w := c.w(n)
	return w == "per" || w == "a" || w == "an" || w == "each" || strings.HasPrefix(w, "/")
}

// halfDurations rewrites "half a day" said of a measured run ("took half
// a day per epoch") as the hours it is ("12h"), before the reading pass,
// so the run's readers see a duration as if typed. Said of the time there
// is, it stays for the deadline reader ("half a day on 4 a100s").
func (c *canonizer) halfDurations() {
	for i := 0; i < len(c.in); i++ {
		if c.w(i) != "half" || !(c.pastBefore(i) || c.halfRate(i)) {
			continue
		}
		d := halfDuration(c.w(i+1), c.w(i+2))
		if d == 0 {
			continue
		}
		n := i + 2
		if c.w(i+1) == "a" || c.w(i+1) == "an" {
			n++
		}
		tok := reqToken{raw: c.text[c.in[i].start:c.in[n-1].end], w: strconv.FormatFloat(d.Hours(), 'f', -1, 64) + "h", start: c.in[i].start, end: c.in[n-1].end}
		c.in = append(append(c.in[:i:i], tok), c.in[n:]...)
	}
}

// ckptOnOff is how many words at the start of w ask checkpointing on and
// off side by side: "(grad|gradient|activation) checkpointing on vs off",
// "ckpt on/off", "with vs without (gradient) checkpointing", "ckpt vs
// no-ckpt"; 0 for none.
func ckptOnOff(w []string) int {
	ckpt := ckptName
	vs := func(s string) bool { return s == "vs" || s == "vs." || s == "versus" || s == "or" }
	at := func(k int) string {
		if k < len(w) {
			return w[k]
		}
		return ""
	}
	k := 0
	if at(0) == "with" && vs(at(1)) && at(2) == "without" {
		k = 3
		if at(k) == "gradient" || at(k) == "grad" || at(k) == "activation" {
			k++
		}
		if ckpt(at(k)) {
			return k + 1
		}
		return 0
	}
	if at(0) == "gradient" || at(0) == "grad" || at(0) == "activation" {
		k++
	}
	if !ckpt(at(k)) {
		return 0
	}
	switch {
	case at(k+1) == "on" && vs(at(k+2)) && at(k+3) == "off", at(k+1) == "off" && vs(at(k+2)) && at(k+3) == "on":
		return k + 4
	case at(k+1) == "on/off" || at(k+1) == "off/on":
		return k + 2
	case vs(at(k+1)) && (at(k+2) == "no-ckpt" || at(k+2) == "without" || at(k+2) == "none" || at(k+2) == "no" && ckpt(at(k+3))):
		if at(k+2) == "no" {
			return k + 4
		}
		return k + 3
	}
	return 0
}

// audioRateAsked is how many words at the start of w ask a speech model's
// rate in audio time: "how many hours of audio (can it transcribe) per
// hour", "realtime factor", "rtf", "x real time"; 0 for none.
func audioRateAsked(w []string) int {
	at := func(k int) string {
		if k < len(w) {
			return w[k]
		}
		return ""
	}
	switch {
	case at(0) == "rtf" || at(0) == "realtime-factor" || at(0) == "real-time-factor":
		return 1
	case (at(0) == "realtime" || at(0) == "real-time") && (at(1) == "factor" || at(1) == "speed"):
		return 2
	case at(0) == "how" && (at(1) == "many" || at(1) == "much") && (at(2) == "hours" || at(2) == "hrs" || at(2) == "minutes") && at(3) == "of" && (at(4) == "audio" || at(4) == "speech"):
		// then to the end of "… per hour" / "an hour" / "a day"
		for k := 5; k < len(w); k++ {
			if (at(k) == "per" || at(k) == "an" || at(k) == "a" || at(k) == "each") && (at(k+1) == "hour" || at(k+1) == "day") {
				return k + 2
			}
		}
		return 5
	case (at(0) == "hours" || at(0) == "hrs") && at(1) == "of" && (at(2) == "audio" || at(2) == "speech") && (at(3) == "per" || at(3) == "an" || at(3) == "a") &&
		(strings.TrimRight(at(4), "?") == "hour" || strings.TrimRight(at(4), "?") == "hr"):
		return 5 // "hours of audio per hour?" without "how many"
	}
	return 0
}

// koWonAt reads a sum in won at the start of w: "300" "만원", "500" "만"
// "원으로", "1" "억원", "5000000" "원": the won and how many words it took;
// 0 words for none.
func koWonAt(w []string) (float64, int) {
	if len(w) < 2 {
		return 0, 0
	}
	if s, ok := strings.CutPrefix(w[0], "₩"); ok {
		if v, u, ok := reqScanNumber(strings.ReplaceAll(s, ",", "")); ok && u == "" && v.v > 0 {
			return v.v, 1 // "₩3,000,000"
		}
	}
	if w[0] == "krw" {
		if v, u, ok := reqScanNumber(strings.ReplaceAll(w[1], ",", "")); ok && u == "" && v.v > 0 {
			return v.v, 2 // "krw 3,000,000"
		}
	}
	v, u, ok := reqScanNumber(w[0])
	if !ok || u != "" || v.v <= 0 {
		return 0, 0
	}
	if w[1] == "won" || w[1] == "krw" {
		return v.v, 2 // "3000000 won", "3M krw"
	}
	if f := scaleWords[w[1]]; f > 0 && len(w) > 2 && (w[2] == "won" || w[2] == "krw") {
		return v.v * f, 3 // "10 million won"
	}
	scale := map[string]float64{"만": 1e4, "억": 1e8, "천": 1e3, "천만": 1e7, "백만": 1e6, "십만": 1e5, "십억": 1e9}
	for _, s := range []string{"천만", "백만", "십만", "십억", "만", "억", "천"} { // longest first: "3천만원"
		f := scale[s]
		if strings.HasPrefix(w[1], s+"원") {
			return v.v * f, 2
		}
		if w[1] == s && len(w) > 2 && wonWord(w[2]) {
			return v.v * f, 3
		}
	}
	if wonWord(w[1]) {
		return v.v, 2
	}
	return 0, 0
}

// wonWord is "원" with a particle after it ("원", "원으로", "원이면",
// "원까지", "원정도").
func wonWord(w string) bool {
	rest, ok := strings.CutPrefix(w, "원")
	if !ok {
		return false
	}
	switch rest {
	case "", "으로", "이면", "까지", "정도", "쯤", "이하", "안에", "내로", "이내", "에", "짜리", "으로는",
		"인데", "인데요", "이고", "이에요", "입니다", "이니까", "밖에", "이야", "임": // "월 천만원인데", "예산이 500만원이에요"
		return true
	}
	return false
}

// keep reports whether a filler word at i is in fact part of a phrase the
// readers need ("it/s" after a number is a rate).
func (c *canonizer) keep(i int) bool {
	if isGPUWord(c.w(i)) && c.w(i-1) == "per" {
		return true // "per gpu 32" is a micro-batch
	}
	if c.w(i) == "it" || c.w(i) == "its" {
		return len(c.out) > 0 && reqStartsNumber(c.out[len(c.out)-1].w)
	}
	if reqUnitClass(c.w(i)) == reqUNodes {
		// "2 servers with 8 a100s each": machines counted are nodes
		if _, unit, ok := reqScanNumber(lastW(c.out)); ok && unit == "" {
			return true
		}
	}
	return false
}

func isHangulWord(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return isHangul(r)
}

// ofDrops reports whether "of" at i is English, not the dataset keyword:
// "of" before a number, a dataset or "data" says the size; "the cost of
// finetuning", "number of l40s" or "2 epochs of gpt2-xl" do not.
func (c *canonizer) ofDrops(i int) bool {
	next := c.w(i + 1)
	if (next == "a" || next == "an" || next == "the") && isParamSize(c.w(i+2)) {
		return true // "full fine-tune of a 70B": the model, not the data
	}
	if next == "" || reqStartsNumber(next) || next == "dataset" || next == "data" || next == "a" || next == "the" {
		return false
	}
	if _, ok := lookupDataset(next); ok {
		return false
	}
	if _, ok := englishNumbers[next]; ok {
		return false
	}
	return true
}

// emitAudioHours says hours of audio (input words [a, b)) as the samples a
// Whisper-class model reads: 30-second windows, 120 an hour.
func (c *canonizer) emitAudioHours(hours float64, a, b int) {
	samples := reqTrimNum(hours * 120)
	c.corrected = append(c.corrected, c.text[c.in[a].start:c.in[b-1].end]+" → "+samples+" samples (30 s windows)")
	c.emit(samples, a, b)
	c.emit("samples", a, b)
	c.audioWork = true
}

// wordForms rewrites, before the reading pass, shorthands whose words mean
// another's: "128k 풀 컨텍스트" (the length said of the whole window), "w/"
// and "w/o" (with, without).
func (c *canonizer) wordForms() {
	for k := 1; k+1 < len(c.in); k++ {
		if (c.in[k].w == "풀" || c.in[k].w == "full") && reqStartsNumber(c.in[k-1].w) && (koSeqWord(c.in[k+1].w) || seqWord(c.in[k+1].w)) {
			// "128k 풀 컨텍스트", "128k full context": the whole window, said of the length
			c.in = append(c.in[:k:k], c.in[k+1:]...)
		}
	}
	for k := range c.in {
		switch c.in[k].w {
		case "w/":
			c.in[k].w = "with" // "a 7b w/ fsdp"
		case "w/o", "wo/":
			c.in[k].w = "without" // "w/o ckpt"
		}
	}
}

// ckptName is a word that names gradient checkpointing.
func ckptName(s string) bool {
	switch s {
	case "ckpt", "checkpointing", "grad-ckpt", "gradient-checkpointing", "gc", "activation-checkpointing", "act-ckpt", "recompute":
		return true
	}
	return false
}

// kvLeftAsked reports whether the words ask what is left after the model
// ("남아", "남는", "left", "room", "headroom", "free"): with the KV cache
// named, the room it has.
func kvLeftAsked(in []reqToken) bool {
	for _, t := range in {
		if strings.HasPrefix(t.w, "남") || t.w == "left" || t.w == "room" || t.w == "headroom" || t.w == "free" || t.w == "spare" {
			return true
		}
	}
	return false
}

// usdAfter is the sum in "10k usd", "5000 dollars": a number then the
// currency; 0 for none.
func usdAfter(num, cur string) float64 {
	if cur != "usd" && cur != "dollars" && cur != "dollar" && cur != "bucks" {
		return 0
	}
	v, u, ok := reqScanNumber(strings.ReplaceAll(num, ",", ""))
	if !ok || u != "" || v.v <= 0 {
		return 0
	}
	return v.v
}

// stepTimeAsked is how many words at the start of w ask a step's time:
// "time per step", "step time", "seconds per step", "s/step?", not
// followed by a number, "is" or "=" (a measured one); 0 for none.
func stepTimeAsked(w []string) int {
	at := func(k int) string {
		if k < len(w) {
			return w[k]
		}
		return ""
	}
	n := 0
	switch {
	case (at(0) == "time" || at(0) == "seconds" || at(0) == "secs") && at(1) == "per" && at(2) == "step":
		n = 3
	case at(0) == "step" && at(1) == "time":
		n = 2
	default:
		return 0
	}
	if next := at(n); reqStartsNumber(next) || next == "is" || next == "=" || next == "was" || next == "of" {
		return 0
	}
	return n
}

// gpuAfter reports whether a GPU is named from input i on ("… on 8x h100").
func (c *canonizer) gpuAfter(i int) bool {
	for k := i; k < len(c.in); k++ {
		w := c.w(k)
		if c.gpu(w) || c.gpu(strings.TrimSuffix(w, "s")) {
			return true
		}
		if _, rest, ok := reqScanInt(w); ok && strings.HasPrefix(rest, "x") && c.gpu(strings.TrimPrefix(rest, "x")) {
			return true
		}
	}
	return false
}

// gpuHoursAt reads GPU-hours asked at i ("how many h100 hours for …",
// "how many gpu hours"); i when not.
func (c *canonizer) gpuHoursAt(i int) int {
	if !(c.words(i, "how", "many") && (c.gpu(c.w(i+2)) || c.w(i+2) == "gpu" || c.w(i+2) == "gpu-hours" || c.w(i+2) == "gpu-days") &&
		(c.w(i+3) == "hours" || c.w(i+3) == "hrs" || c.w(i+3) == "days" || c.w(i+2) == "gpu-hours" || c.w(i+2) == "gpu-days")) {
		return i
	}
	// "how many h100 hours for …", "how many gpu hours", "how many h100
	// days": the GPU-hours (the answer gives the days beside them)
	c.setAsk(AskTime)
	c.gpuHours = true
	n := i + 4
	if c.w(i+2) == "gpu-hours" || c.w(i+2) == "gpu-days" {
		n = i + 3
	}
	if c.gpu(c.w(i+2)) && !c.gpuAfter(i+4) {
		c.pluralGPU = true // of that GPU, as many as the job takes
		c.skip(i, i+2)
		c.emit(c.w(i+2), i+2, i+3)
		c.skip(i+3, n)
		return n
	}
	c.skip(i, n)
	return n
}

// words reports whether the input at i starts with the given words.
func (c *canonizer) words(i int, ws ...string) bool {
	for k, w := range ws {
		if c.w(i+k) != w {
			return false
		}
	}
	return true
}

// memoryAsked reads a memory word that asks the memory: "llama3 8b
// memory?", "vram needed for …", "vram each?", "memory on T4", "memory
// for 13b inference"; i when none is there.
func (c *canonizer) memoryAsked(i int) int {
	switch {
	case memoryWord(c.w(i)) && c.w(i) != "gpu" && (i+1 == len(c.in) || c.w(i+1) == "?" || strings.HasSuffix(c.in[i].raw, "?")) &&
		(len(c.out) == 0 || !strings.HasSuffix(lastW(c.out), "gb") && !reqStartsNumber(lastW(c.out))):
		// "gemma2 27b 추론 vram?", "llama3 8b memory?": the request ends
		// asking about memory (not "24gb vram", a card's size)
		c.setAsk(AskFit)
		c.memory = true
		c.skip(i, i+1)
		return i + 1
	case memoryWord(c.w(i)) && c.w(i) != "gpu" && (c.w(i+1) == "needed" || c.w(i+1) == "required" || c.w(i+1) == "usage" || c.w(i+1) == "requirement" || c.w(i+1) == "requirements" ||
		c.w(i+1) == "each" && (i+2 == len(c.in) || c.w(i+2) == "?" || strings.HasSuffix(c.in[i+1].raw, "?"))):
		// "vram each?": each choice's memory
		// "what's the vram needed for …", "memory requirements of …"
		c.setAsk(AskFit)
		c.memory = true
		c.skip(i, i+2)
		return i + 2
	case memoryWord(c.w(i)) && c.w(i) != "gpu" && c.w(i+1) == "on" && c.gpu(strings.TrimRight(c.w(i+2), "?")) && (i == 0 || !reqStartsNumber(c.w(i-1))):
		// "int8 vs fp16 vs int4 memory on T4": the memory there asked
		c.setAsk(AskFit)
		c.memory = true
		c.skip(i, i+1)
		return i + 1
	case memoryWord(c.w(i)) && c.w(i) != "gpu" && koMemoryAsk(c.w(i+1)) && (i == 0 || !reqStartsNumber(c.w(i-1))):
		// "7b 풀파인튜닝 vram 계산 좀", "메모리 사용량": the memory asked
		c.setAsk(AskFit)
		c.memory = true
		n := i + 2
		if c.w(n) == "좀" || strings.HasPrefix(c.w(n), "해") {
			n++
		}
		return n
	case memoryWord(c.w(i)) && c.w(i) != "gpu" && c.w(i+1) == "for" && (i == 0 || !reqStartsNumber(c.w(i-1))):
		// "memory for 13b inference …", "vram for llama3 8b lora": how much
		c.setAsk(AskFit)
		c.memory = true
		c.skip(i, i+2)
		return i + 2
	}
	return i
}

// speedGainWord is a word after "how much" that asks a rate, not money:
// "how much throughput (gain)", "how much speedup", "how much faster".
func speedGainWord(w string) bool {
	switch w {
	case "throughput", "speedup", "speed-up", "speed", "perf", "performance", "tokens/s", "tok/s":
		return true
	}
	return false
}

// valueOfKey reports whether w is a setting's key, so the number after it
// is its value ("batch 32 latency", "배치 32 latency"), not a target.
func valueOfKey(w string) bool {
	if kw, ok := reqKeywords[w]; ok && kw.kind == reqKwKey {
		return true
	}
	return strings.HasPrefix(w, "배치") || strings.HasPrefix(w, "시퀀스")
}

// hyperscaler reports whether w names a cloud that rents datacenter GPUs
// only (AWS, Google Cloud, Azure): no GeForce or workstation cards.
func hyperscaler(w string) bool {
	switch w {
	case "aws", "ec2", "gcp", "azure", "sagemaker":
		return true
	}
	return false
}

// w is the input word at i, "" outside the input.
func (c *canonizer) w(i int) string {
	if i < 0 || i >= len(c.in) {
		return ""
	}
	return c.in[i].w
}
