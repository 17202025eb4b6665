package lang

import (
	"math"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// Phrases of chat around a request that name no part of it, or name one
// in a form the readers do not take: a latency target ("p99 under 1.5s",
// "TTFT 500ms 안쪽으로": the card reports the latency, no target is
// planned for), "8-way" for eight GPUs, a "Context:" label, "data is 50K",
// "batch inference", and "baseline" used as a noun.
func (c *canonizer) chatPhrase(i int) int {
	if n := c.chatWords(i); n > i {
		return n
	}
	if n := c.asidePhrase(i); n > i {
		return n
	}
	if n := c.chatTargets(i); n > i {
		return n
	}
	w := c.w(i)
	switch {
	case (w == "same" || w == "identical") && (c.w(i+1) == "data" || c.w(i+1) == "dataset" || c.w(i+1) == "datasets"):
		// "on the same data": the data of the run just mentioned, not
		// hardware; with no size it says nothing a plan can use
		if lastW(c.out) == "the" {
			c.out = c.out[:len(c.out)-1]
		}
		if lastW(c.out) == "on" {
			c.out = c.out[:len(c.out)-1]
		}
		c.skip(i, i+2)
		return i + 2
	case reqStartsNumber(w) && strings.HasPrefix(c.w(i+1), "배") && !strings.HasPrefix(c.w(i+1), "배치") &&
		(lastW(c.out) == "data" || lastW(c.out) == "dataset" || strings.HasPrefix(c.w(i-1), "데이터")):
		// "데이터가 3배예요": the data is three times the measured run's
		if lw := lastW(c.out); lw != "data" && lw != "dataset" {
			c.emit("dataset", i, i+1)
		}
		c.emit(w+"x", i, i+1)
		c.emit("bigger", i+1, i+2)
		return i + 2
	case latencyWord(w):
		return c.latencyTargetAt(i)

	case strings.HasSuffix(w, "-way") || strings.HasSuffix(w, "way") && len(w) > 3 && digitsOnly(strings.TrimSuffix(w, "way")):
		if n := strings.TrimSuffix(strings.TrimSuffix(w, "way"), "-"); digitsOnly(n) {
			c.emit(n+"x", i, i+1) // "8-way a100 node": eight of them
			return i + 1
		}
	case (w == "a" || w == "one" || w == "single") && reqStartsNumber(c.w(i+1)) && c.gpu(c.w(i+1)) && !c.gpu(c.w(i+2)):
		c.emit("1x", i, i+1) // "will a 3060 do it": one of that GPU, not 3,060 of something
		c.emit(c.w(i+1), i+1, i+2)
		return i + 2
	case w == "count" && (isGPUWord(c.w(i-1)) || c.gpu(c.w(i-1))) || (w == "count" || w == "needed") && c.w(i-1) == "gpu":
		c.setAsk(AskCount) // "gpu count?", "H100 count?": how many
		c.skip(i, i+1)
		return i + 1
	case w == "context" && i == 0 && !reqStartsNumber(c.w(i+1)) && !slices.Contains([]string{"length", "len", "window", "size", "길이"}, c.w(i+1)):
		c.skip(i, i+1) // "Context: we have 2 spare A100s …"
		return i + 1
	case (w == "data" || w == "dataset") && (c.w(i+1) == "is" || c.w(i+1) == "are" || c.w(i+1) == "=") && reqStartsNumber(c.w(i+2)):
		if _, unit, ok := reqScanNumber(c.w(i + 2)); ok && unit == "" && reqUnitClass(c.w(i+3)) <= reqUUnknown {
			c.skip(i, i+2)
			c.emit(c.w(i+2), i+2, i+3)
			c.emit("samples", i+2, i+3) // "data is 50K": that many examples
			return i + 3
		}
	case (w == "batch" || w == "배치" || w == "offline") && batchJobWord(c.w(i+1)):
		// "batch inference", "batch 추론 1000시간 오디오", "배치 처리":
		// offline work at the best batch, not a batch size
		c.skip(i, i+1)
		return i + 1
	case w == "baseline" && (c.w(i+1) == "from" || c.w(i+1) == "model" || c.w(i+1) == "pretrain" || c.w(i+1) == "pretraining"):
		c.skip(i, i+1) // "gpt2 baseline from scratch": the noun
		return i + 1
	}
	return i
}

func latencyWord(w string) bool {
	switch w {
	case "p99", "p95", "p90", "p50", "ttft", "tpot", "itl", "latency", "레이턴시", "지연시간", "지연", "time-to-first-token", "first-token":
		return true
	}
	return false
}

func latencyComparator(w string) bool {
	switch w {
	case "under", "below", "<", "<=", "within", "less", "than", "max", "at", "most", "of", "target", "slo", "sla", "목표":
		return true
	}
	return false
}

func timeUnitWord(w string) bool {
	switch w {
	case "ms", "s", "sec", "secs", "second", "seconds", "초", "밀리초", "msec":
		return true
	}
	return strings.HasPrefix(w, "초") || strings.HasPrefix(w, "ms")
}

// lastParams is the last size-as-model word read ("150m-params"), "" for
// none.
func lastParams(out []reqToken) string {
	for k := len(out) - 1; k >= 0 && k >= len(out)-4; k-- {
		if strings.HasSuffix(out[k].w, "-params") {
			return out[k].w
		}
	}
	return ""
}

// chatWords reads the everyday words that stand for a keyword or say
// nothing: "how much faster" (a speed), "lora tune", "generate with
// transformers" (inference), "300 completion",
// "40 people", "on volta", "a 150m gpt"; i when none is there.
func (c *canonizer) chatWords(i int) int {
	w := c.w(i)
	if n := c.bitsAskedAt(i); n > i {
		return n
	}
	switch {
	case w == "how" && c.w(i+1) == "much" && (c.w(i+2) == "faster" || c.w(i+2) == "slower" || c.w(i+2) == "quicker" || c.w(i+2) == "longer"):
		c.setAsk(AskTime) // "how much faster is sxm": a speed, not a cost
		c.skip(i, i+3)
		return i + 3
	case (w == "compare" || w == "comparing") && weightWord(c.w(i+1)) && (variantWords[c.w(i+2)] || c.w(i+2) == "and" || c.w(i+2) == "with") && weightWord(c.w(i+3)):
		c.skip(i, i+1) // "compare bf16 vs fp8 training": the formats are the comparison, not hardware
		return i + 1
	case changeVerb(w) && c.w(i+1) == "to" && changedKey(c.w(i+2)) != "":
		// "it OOM'd at seq 8192 … if I drop to seq 4096": the new value
		// replaces the one said before
		c.dropKey(changedKey(c.w(i + 2)))
		c.skip(i, i+2)
		return i + 2
	case (w == "distill" || w == "distillation" || w == "distilling" || w == "distil" || w == "kd" || strings.HasPrefix(w, "증류")) &&
		!strings.HasSuffix(c.w(i-1), "r1"): // "deepseek r1 distill llama 70b" is a model's name
		// "distill A into B", "70B를 8B로 증류": training the student
		c.distill = true
		if !trainingSaid(c.in) && !trainWorkloadSaid(c.in) {
			c.emit("finetune", i, i+1)
		} else {
			c.skip(i, i+1)
		}
		return i + 1
	case w == "into" && c.distill:
		c.skip(i, i+1) // "distill A into B"
		return i + 1
	case digitsOnly(w) && c.w(i-1) == "the" && strings.Contains(strings.ToLower(c.text), w+"gb"):
		c.skip(i, i+1) // "A100 40GB vs A100 80GB … does the 40 suffice?": the card said before
		return i + 1
	case strings.HasPrefix(w, "dpo-") && trainingWords[strings.TrimPrefix(w, "dpo-")]:
		c.emit("dpo", i, i+1) // "DPO-train Zephyr 7B": DPO, which is training
		return i + 1
	case w == "rerank" || w == "reranking" || w == "re-rank":
		c.emit("inference", i, i+1) // "rerank 1M query-doc pairs": a forward pass over each pair
		return i + 1
	case w == "tune" || w == "tuning" || w == "tunes":
		if l := lastW(c.out); l == "lora" || l == "qlora" || l == "finetune" {
			c.skip(i, i+1) // "lora tune mistral": the LoRA said
		} else {
			c.emit("finetune", i, i+1)
		}
		return i + 1
	case (w == "completion" || w == "completions") && reqStartsNumber(lastW(c.out)):
		n := c.out[len(c.out)-1]
		c.out = c.out[:len(c.out)-1]
		c.out = append(c.out, reqToken{raw: n.raw, w: "gen", start: n.start, end: n.start}, n) // "300 completion": 300 tokens out
		c.skip(i, i+1)
		return i + 1
	case reqStartsNumber(lastW(c.out)) && dailyUsersWords(c.w(i), c.w(i+1), c.w(i+2)) > 0:
		// "~1000 DAU", "1000 daily active users": users a day, not at
		// once; a tenth of them at the busiest time, and the reading says so
		n := dailyUsersWords(c.w(i), c.w(i+1), c.w(i+2))
		last := &c.out[len(c.out)-1]
		if f, _, ok := reqScanNumber(last.w); ok && f.v > 0 {
			c.dailyUsers = f.v
			last.w = reqTrimNum(atOnce(f.v))
		}
		c.emit("users", i, i+n)
		return i + n
	case peopleWord(w) && reqStartsNumber(lastW(c.out)):
		c.emit("users", i, i+1) // "~40 people at once", "for 30 devs": users
		return i + 1
	case (w == "generate" || w == "generating" || w == "generation" || w == "generate()") && !reqStartsNumber(c.w(i+1)) && !trainingSaid(c.in):
		c.emit("inference", i, i+1) // "generate with transformers": the verb, not `gen 256`
		return i + 1
	case w == "volta" || w == "ampere" || w == "hopper" || w == "turing" || w == "blackwell":
		c.skip(i, i+1) // "bitsandbytes on volta": the generation, the GPU is named elsewhere
		return i + 1
	case (w == "gpt" || w == "llm") && len(c.out) > 0 && lastParams(c.out) != "":
		c.skip(i, i+1) // "150m짜리 작은 gpt": the size said is the model
		return i + 1
	}
	return i
}

// latencyTargetAt reads a latency said as a target after its word at i:
// "p99 under 1.5s", "TTFT 500ms 안쪽으로", "첫토큰 200ms 이하로", "지연 2초
// 이내": the seconds, and whether it is the first token's; i when no
// number follows.
func (c *canonizer) latencyTargetAt(i int) int {
	first := firstTokenWord(c.w(i)) || strings.HasPrefix(c.w(i), "첫")
	perToken := perTokenWord(c.w(i))
	j := i + 1
	for latencyWord(c.w(j)) || latencyComparator(c.w(j)) {
		// "p99 TTFT under 300ms": the percentile, then what it is of
		first = first || firstTokenWord(c.w(j))
		perToken = perToken || perTokenWord(c.w(j))
		j++
	}
	v, unit, ok := reqScanNumber(c.w(j))
	if !ok || v.v <= 0 {
		return i
	}
	j++
	if unit == "" {
		if !timeUnitWord(c.w(j)) {
			return i
		}
		unit = c.w(j)
		j++
	} else if !timeUnitWord(unit) {
		return i
	}
	for latencyComparator(c.w(j)) || strings.HasPrefix(c.w(j), "이내") || strings.HasPrefix(c.w(j), "안쪽") || strings.HasPrefix(c.w(j), "안으로") || strings.HasPrefix(c.w(j), "안에") || strings.HasPrefix(c.w(j), "이하") || strings.HasPrefix(c.w(j), "미만") {
		j++
	}
	c.latencyTarget, c.latencyFirst, c.latency = seconds(v.v, unit), first, true
	c.latencyPerToken = perToken
	return j // named in the reading
}

// perTokenWord is a latency word for each generated token's time.
func perTokenWord(w string) bool { return w == "tpot" || w == "itl" || w == "inter-token" }

// perTokenLatency reads a latency target for each generated token:
// "under 100ms per token", "100 ms/token", "50ms a token", "per token
// within 100 ms" (the reading's own words), "토큰당 100ms 이내", "토큰당
// 지연 50ms 이하"; i when none is there.
func (c *canonizer) perTokenLatency(i int) int {
	j := i
	switch {
	case c.words(j, "per", "token", "within"):
		j += 3
	case strings.HasPrefix(c.w(j), "토큰당"):
		j++
		for latencyWord(c.w(j)) {
			j++
		}
	case latencyComparator(c.w(j)) || c.w(j) == "within" || c.w(j) == "<":
		j++
	}
	korean := strings.HasPrefix(c.w(i), "토큰당")
	v, unit, ok := reqScanNumber(strings.TrimPrefix(c.w(j), "<"))
	if !ok || v.v <= 0 {
		return i
	}
	j++
	unit, perToken := strings.CutSuffix(unit, "/token")
	if unit == "" && timeUnitWord(strings.TrimSuffix(c.w(j), "/token")) {
		unit, perToken = strings.CutSuffix(c.w(j), "/token")
		j++
	}
	if !timeUnitWord(unit) {
		return i
	}
	switch {
	case korean || c.words(i, "per", "token", "within") || perToken:
	case c.words(j, "per", "token") || c.words(j, "a", "token") || c.words(j, "each", "token"):
		j += 2
	default:
		return i
	}
	for latencyComparator(c.w(j)) || strings.HasPrefix(c.w(j), "이내") || strings.HasPrefix(c.w(j), "이하") || strings.HasPrefix(c.w(j), "안쪽") || strings.HasPrefix(c.w(j), "미만") {
		j++
	}
	c.latencyTarget, c.latencyFirst, c.latencyPerToken, c.latency = seconds(v.v, unit), false, true, true
	return j // named in the reading
}

// koLatencyTarget reads "첫토큰 200ms 이하로", "지연 2초 이내", "응답 2초 안에", "레이턴시 1초
// 안쪽": a latency target said in Korean.
func (c *canonizer) koLatencyTarget(i int) int {
	w := c.w(i)
	for _, p := range []string{"첫토큰", "지연", "레이턴시", "응답시간", "응답"} {
		if strings.HasPrefix(w, p) {
			return c.latencyTargetAt(i)
		}
	}
	return i
}

// rateUnit is the per-second unit of a rate's noun ("tokens" → tokens/s).
func rateUnit(noun string) string {
	switch noun {
	case "tokens", "token", "tok", "toks":
		return "tokens/s"
	case "images", "imgs":
		return "images/s"
	case "requests", "reqs", "queries":
		return "req/s"
	}
	return "samples/s"
}

// latencyBeforeWord reads a latency target said before its word ("with
// <1s ttft", "<200ms p99", "under 200ms latency", "200 ms p99"): a
// comparator or none, the number and its unit, then the word; i when
// they are not a time.
func (c *canonizer) latencyBeforeWord(i int) int {
	j := i
	if w := c.w(j); w == "under" || w == "below" || w == "sub" || w == "<" || w == "<=" {
		j++
	}
	v, unit, ok := reqScanNumber(strings.TrimPrefix(c.w(j), "<"))
	if !ok || v.v <= 0 {
		return i
	}
	j++
	if unit == "" && timeUnitWord(c.w(j)) {
		unit = c.w(j)
		j++
	}
	if timeUnitWord(unit) && c.words(j, "time", "to", "first", "token") {
		// "500 ms time to first token": TTFT spelled out
		c.latencyTarget, c.latencyFirst, c.latency = seconds(v.v, unit), true, true
		c.skip(j, j+4)
		return j + 4
	}
	if !timeUnitWord(unit) || !latencyWord(c.w(j)) {
		return i
	}
	c.latencyTarget, c.latencyFirst, c.latency = seconds(v.v, unit), firstTokenWord(c.w(j)), true
	c.latencyPerToken = perTokenWord(c.w(j))
	return j + 1 // named in the reading
}

// chatTargets reads what a request wants said in chat's words: a measured
// rate in words ("500 tokens per second on a100"), a latency target before
// its word ("<1s ttft"), "on a budget" (the cheapest); i when none is there.
func (c *canonizer) chatTargets(i int) int {
	w := c.w(i)
	switch {
	case reqStartsNumber(w) && !isParamSize(w) && !isMemWord(w) && !c.gpu(w) && rateQuestion(c.w(i+1), c.w(i+2), c.w(i+3)) == 3:
		if c.measurement(i) {
			at := c.in[i].start
			c.out = append(c.out, reqToken{raw: "baseline", w: "baseline", start: at, end: at})
		}
		c.emit(w, i, i+1)
		c.emit(rateUnit(c.w(i+1)), i+1, i+4)
		return i + 4
	case reqStartsNumber(w) && !c.gpu(w) && !isParamSize(w) && (strings.HasPrefix(c.w(i+1), "동시") || strings.HasPrefix(c.w(i+1), "동접")) && !reqStartsNumber(c.w(i+2)):
		c.emit(w, i, i+1) // "128 동시", "동접 128" said number first: users at once
		c.emit("users", i+1, i+2)
		return i + 2
	case strings.HasPrefix(w, "<") || reqStartsNumber(w) || w == "under" || w == "below" || w == "sub":
		if n := c.latencyBeforeWord(i); n > i {
			return n
		}
	case (w == "avg" || w == "average" || w == "avg." || w == "mean") && reqStartsNumber(c.w(i+1)) && (c.w(i+2) == "tokens" || c.w(i+2) == "token" || c.w(i+2) == "tok"):
		// "30k instruction pairs (avg 1k tokens)": each sample's length, not
		// a second dataset size
		c.emit("seq", i, i+1)
		c.emit(c.w(i+1), i+1, i+2)
		c.skip(i+2, i+3)
		return i + 3
	case w == "on" && reqStartsNumber(c.w(i+1)) && (timeUnitWord(c.w(i+2)) || c.w(i+2) == "hrs") && !c.gpu(c.w(i+2)):
		c.skip(i, i+1) // "fine tune whisper on 500 hrs of korean audio": the data, not hardware
		return i + 1
	case w == "on" && c.w(i+1) == "a" && (c.w(i+2) == "budget" || c.w(i+2) == "tight" && c.w(i+3) == "budget" || c.w(i+2) == "shoestring"):
		n := i + 3
		if c.w(i+2) == "tight" {
			n++
		}
		c.prefer = "cheapest"
		c.skip(i, n)
		return n
	}
	return i
}

// firstTokenWord reports whether w names the first token's latency.
func firstTokenWord(w string) bool {
	return w == "ttft" || w == "time-to-first-token" || w == "first-token" || strings.HasPrefix(w, "첫토큰")
}

// seconds is a latency of v in unit ("ms", "밀리초", "s", "초") in seconds.
func seconds(v float64, unit string) float64 {
	if strings.HasPrefix(unit, "ms") || strings.HasPrefix(unit, "밀리") {
		return v / 1000
	}
	return v
}

// dataWords counts the words at i that say what a dataset is ("customer
// chat logs", "code", "korean support tickets"): plain English words that
// name no GPU, server, model, dataset or keyword, the last a kind of data
// (dataNoun); 0 when there are none.
func (c *canonizer) dataWords(i int) int {
	last := 0
	for k := i; k < len(c.in) && k < i+4; k++ {
		w := c.w(k)
		if !plainWord(w) || c.gpu(w) || c.servers[w] {
			break
		}
		if _, ok := lookupDataset(w); ok {
			break
		}
		if dataNoun(w, "") {
			last = k - i + 1 // "chat", "code": data, whatever else the word could name
			continue
		}
		if k > i && englishFillers[w] {
			break
		}
		if reqKeywords[w].kind != 0 || c.modelKnown != nil && c.modelKnown(w) && !dataNoun(c.w(k+1), c.w(k+2)) {
			break // a model's or a keyword's word, unless data is named right after ("customer chat logs")
		}
	}
	return last
}

// plainWord reports whether w is a lower-case English word of three
// letters or more.
func plainWord(w string) bool {
	if len(w) < 3 {
		return false
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// dataPhrase reads what the data is, said after "on" or after an amount
// and "of" ("finetuning llama on customer chat logs", "300M tokens of
// code"): words to skip, never hardware or a model; i when none is there.
func (c *canonizer) dataPhrase(i int) int {
	w := c.w(i)
	if w != "on" && (w != "of" || lastW(c.out) != "tokens" && lastW(c.out) != "samples") {
		return i
	}
	k := c.dataWords(i + 1)
	if k == 0 {
		return i
	}
	c.skip(i, i+1+k)
	return i + 1 + k
}

// precisionDenied reads a precision said as unsupported or not wanted
// ("V100s do not support bf16", "no bf16 on these", "without fp8"): the
// words are skipped, so the card picks what the GPU runs; i when none.
func (c *canonizer) precisionDenied(i int) int {
	w := c.w(i)
	if kw := reqKeywords[strings.TrimRight(w, "은는이가을를도")]; kw.kind == reqKwPrecision && koDenied(c.w(i+1), c.w(i+2)) > 0 {
		// "bf16 안된다고 들어서요", "bf16은 지원 안 해서", "bf16 못 쓰니까"
		n := i + 1 + koDenied(c.w(i+1), c.w(i+2))
		c.bf16Denied = c.bf16Denied || kw.val == string(planner.BF16)
		c.skip(i, n)
		return n
	}
	if w != "not" && w != "no" && w != "without" && w != "lack" && w != "lacks" {
		return i
	}
	for k := i + 1; k <= i+3 && k < len(c.in); k++ {
		if kw := reqKeywords[c.w(k)]; kw.kind == reqKwPrecision {
			c.bf16Denied = c.bf16Denied || kw.val == string(planner.BF16)
			c.skip(i, k+1)
			return k + 1
		}
		switch c.w(k) {
		case "support", "supports", "supported", "have", "has", "do", "does", "native", "use":
			continue
		}
		break
	}
	return i
}

// gpuCountList reads counts of one GPU set side by side after its name:
// "h200 1장 vs 2장", "h200 1장이랑 2장 비교", "a100 2, 4장": each count of
// it planned and compared, as "1 vs 2 h200s" is; i when the words are not
// such a list.
func (c *canonizer) gpuCountList(i int) int {
	g := c.w(i)
	if !c.gpu(g) || isHangulWord(g) {
		return i
	}
	unit := func(w string) bool {
		return strings.HasPrefix(w, "장") || strings.HasPrefix(w, "개") || strings.HasPrefix(w, "대") || w == "gpus" || w == "gpu" || w == "cards"
	}
	glued := func(w string) bool {
		return strings.HasSuffix(w, "이랑") || strings.HasSuffix(w, "랑") || strings.HasSuffix(w, "하고") || strings.HasSuffix(w, "vs")
	}
	sep := func(w string) bool {
		switch w {
		case "vs", "vs.", "versus", ",", "or", "랑", "이랑", "하고", "아니면", "대", "/":
			return true
		}
		return false
	}
	var counts []string
	k := i + 1
	for {
		n, rest, ok := reqScanInt(c.w(k))
		if !ok || rest != "" || n <= 0 {
			break
		}
		hasUnit := unit(c.w(k + 1))
		if !hasUnit && !sep(c.w(k+1)) {
			break // "2노드", "100만": not a count of this GPU
		}
		counts = append(counts, c.w(k))
		k++
		if hasUnit {
			k++
			if glued(c.w(k - 1)) {
				continue // "1장이랑 2장"
			}
		}
		if !sep(c.w(k)) {
			break
		}
		k++
	}
	if len(counts) < 2 || !unit(c.w(k-1)) {
		return i
	}
	for j, n := range counts {
		if j > 0 {
			c.emit(",", i, k)
		}
		c.emit(n+"x"+g, i, k)
	}
	return k
}

// peopleWord reports whether w counts the people a served model answers
// ("40 people", "30 devs", "200 employees").
func peopleWord(w string) bool {
	switch w {
	case "people", "ppl", "persons", "devs", "developers", "engineers", "employees", "members", "researchers", "teammates", "staff", "analysts":
		return true
	}
	return false
}

// dailyUsersWords is how many words at a say users a day: "dau", "daily
// active users", "daily users", "users per day", "users/day"; 0 for none.
func dailyUsersWords(a, b, c string) int {
	switch {
	case a == "dau" || a == "daus":
		return 1
	case a == "daily" && b == "active" && (c == "users" || c == "user"):
		return 3
	case a == "daily" && (b == "users" || b == "user"):
		return 2
	case (a == "users" || a == "user" || a == "people") && (b == "per" || b == "a" || b == "each" || b == "every") && c == "day":
		return 3 // "1000 users per day", "500 people a day"
	case (a == "users" || a == "people") && b == "daily", a == "users/day":
		return 2 - strings.Count(a, "/")
	}
	return 0
}

// atOnce is the users at once that n users a day come to at the busiest
// time: a tenth, at least one.
func atOnce(n float64) float64 { return math.Max(1, math.Ceil(n/10)) }

// dailyUsersAt reads users a day said before their count: "DAU 1000명",
// "하루 사용자 5000명"; a tenth of them at once at the busiest time, and
// the reading says so. It returns i when none is there.
func (c *canonizer) dailyUsersAt(i int) int {
	w := c.w(i)
	if w != "dau" && w != "일일" && w != "하루" && w != "일간" && w != "하루에" && w != "매일" {
		return i
	}
	j := i + 1
	if strings.HasPrefix(c.w(j), "사용자") || strings.HasPrefix(c.w(j), "이용자") || strings.HasPrefix(c.w(j), "유저") {
		j++
		if w := c.w(j); w == "수" || w == "수는" || w == "수가" || w == "수가요" {
			j++ // "하루 사용자 수 5000명"
		}
	}
	f, unit, ok := reqScanNumber(c.w(j))
	if !ok || f.v <= 0 || !(unit == "명" || unit == "" && (strings.HasPrefix(c.w(j+1), "명") || w == "dau")) {
		return i
	}
	n := j + 1
	if unit == "" && strings.HasPrefix(c.w(j+1), "명") {
		n++
	}
	c.dailyUsers = f.v
	c.emit(reqTrimNum(atOnce(f.v)), i, n)
	c.emit("users", n-1, n)
	return n
}

// changeVerb reports whether w changes a setting to a new value: "drop
// to", "reduce to", "bump to".
func changeVerb(w string) bool {
	switch w {
	case "drop", "reduce", "lower", "cut", "decrease", "increase", "raise", "bump", "change", "switch", "go", "set":
		return true
	}
	return false
}

// changedKey is the canonical key of a setting said after "drop to":
// seq, batch, micro or rank; "" for none.
func changedKey(w string) string {
	switch {
	case seqWord(w):
		return "seq"
	case w == "batch" || w == "bs":
		return "batch"
	case w == "micro" || w == "micro-batch" || w == "microbatch":
		return "micro"
	case w == "rank" || w == "r":
		return "rank"
	}
	return ""
}

// dropKey takes back the last value said for key ("seq 8192") from what
// was read, as skipped words.
func (c *canonizer) dropKey(key string) {
	for k := len(c.out) - 2; k >= 0; k-- {
		if c.out[k].w == key && reqStartsNumber(c.out[k+1].w) {
			c.skipped = append(c.skipped, c.out[k].raw+" "+c.out[k+1].raw)
			c.out = append(c.out[:k], c.out[k+2:]...)
			return
		}
	}
}

// sizeRange reads a range of model sizes ("7B~13B", "7-13b", "7b to
// 13b"): the largest is planned, since what holds it holds the others,
// and the reading says so. It returns i when none is there.
func (c *canonizer) sizeRange(i int) int {
	w, n := c.w(i), 1
	lo, hi := "", ""
	if a, b, ok := strings.Cut(w, "~"); ok {
		lo, hi = a, b
	} else if a, b, ok := strings.Cut(w, "-"); ok && digitsOnly(strings.TrimRight(a, ".0123456789")+"0") {
		lo, hi = a, b
	} else if (c.w(i+1) == "to" || c.w(i+1) == "~" || c.w(i+1) == "에서") && isParamSize(w) {
		lo, hi, n = w, c.w(i+2), 3
	}
	top, ok1 := paramSize(hi)
	low, ok2 := paramSize(lo)
	if !ok2 && hi != "" && len(hi) > 0 {
		low, ok2 = paramSize(lo + hi[len(hi)-1:]) // "7-13b": the unit said once
	}
	if !ok1 || !ok2 || low >= top || top < 100e6 {
		return i
	}
	c.emit(hi+"-params", i, i+n)
	c.corrected = append(c.corrected, c.text[c.in[i].start:c.in[i+n-1].end]+" → "+hi+" (the largest of the range)")
	return i + n
}

// bitsAskedAt reads the widest weight format that fits asked in English:
// "how many bits to fit gemma 3 27b on a 4090", "what quantization fits";
// i when it is not there.
func (c *canonizer) bitsAskedAt(i int) int {
	n := 0
	switch {
	case c.words(i, "how", "many", "bits"), c.words(i, "what", "bit", "width"):
		n = 3
	case c.words(i, "what", "bit-width"), c.words(i, "which", "bit-width"), c.words(i, "what", "quantization"), c.words(i, "which", "quantization"),
		c.words(i, "what", "quant"), c.words(i, "which", "quant"):
		n = 2
	default:
		return i
	}
	c.ask = AskNone
	c.setAsk(AskFit)
	c.bitsAsked, c.runWord = true, true
	c.skip(i, i+n)
	return i + n
}

// asideAt skips what a request says that does not change its plan, in
// either language, before the Korean readers take a Hangul word: a
// training setting ("dpo 베타 0.1", "lr 2e-5"), an image size ("224
// 해상도로"), serving round the clock ("서빙 24시간"); i when none is there.
func (c *canonizer) asideAt(i int) int {
	w := c.w(i)
	switch {
	case (w == "beta" || w == "베타" || w == "β" || w == "lr" || w == "learning-rate" || w == "warmup") && reqStartsNumber(c.w(i+1)) && !reqStartsNumber(c.w(i+2)):
		c.skip(i, i+2) // "dpo 베타 0.1", "lr 2e-5": a setting that does not change the plan
		return i + 2
	case reqStartsNumber(w) && (strings.HasPrefix(c.w(i+1), "해상도") || c.w(i+1) == "resolution" || c.w(i+1) == "px"),
		(w == "resolution" || strings.HasPrefix(w, "해상도")) && reqStartsNumber(c.w(i+1)):
		c.skip(i, i+2) // "224 해상도로": the image size (a model's own is 224)
		return i + 2
	case w == "24" && strings.HasPrefix(c.w(i+1), "시간") && !strings.HasPrefix(c.w(i+2), "안") && slices.ContainsFunc(c.out, func(t reqToken) bool { return t.w == "inference" }):
		c.skip(i, i+2) // "서빙 24시간": round the clock, as "24/7" is
		if c.serveHours == 0 {
			c.serveHours = 730
		}
		return i + 2
	}
	return i
}

// koDenied is how many words at a, b say the thing before them is not
// supported or not used: "안된다고", "안 돼서", "지원 안 해서", "못 쓰니까",
// "미지원"; 0 for none.
func koDenied(a, b string) int {
	switch {
	case strings.HasPrefix(a, "안돼") || strings.HasPrefix(a, "안되") || strings.HasPrefix(a, "안된") || strings.HasPrefix(a, "미지원") || strings.HasPrefix(a, "안쓰") || strings.HasPrefix(a, "못쓰"):
		return 1
	case (a == "안" || a == "못") && (strings.HasPrefix(b, "돼") || strings.HasPrefix(b, "되") || strings.HasPrefix(b, "된") || strings.HasPrefix(b, "쓰") || strings.HasPrefix(b, "써")):
		return 2
	case strings.HasPrefix(a, "지원") && (strings.HasPrefix(b, "안") || strings.HasPrefix(b, "못") || strings.HasPrefix(b, "없")):
		return 2
	}
	return 0
}
