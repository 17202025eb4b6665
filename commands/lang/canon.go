package lang

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The reading pass: before the typed readers run, the words people use
// around a request are put into the language's canonical words. Question
// and filler words are skipped and remembered (so the "Read as" line can
// name them), number words and scales become numbers ("a single" → 1,
// "2.5 million" → 2.5M, "250만" → 2.5M), Korean words become their English
// keywords ("에폭" → epochs, "파인튜닝" → finetune), a count with a counter
// ("2장", "8 cards") is attached to the GPU beside it, and the team's
// servers ("server h", "h 서버") become one word. Every token keeps the
// byte span of what was typed, so errors and suggestions quote the user.

// Ask is the question a request asks, when it is one.
type Ask string

// The questions the planner answers differently.
const (
	AskNone        Ask = ""
	AskFit         Ask = "fit"          // will it fit / 돌릴 수 있어
	AskTime        Ask = "time"         // how long / 얼마나 걸려
	AskCount       Ask = "count"        // how many GPUs / 몇 장
	AskWhichGPU    Ask = "which_gpu"    // which GPU should I use / 어떤 GPU
	AskWhichServer Ask = "which_server" // which of our servers / 우리 서버 중
	AskCost        Ask = "cost"         // how much / 비용
)

type canonizer struct {
	text       string
	in         []reqToken
	out        []reqToken
	servers    map[string]bool
	gpu        func(string) bool
	modelKnown func(string) bool
	// modelID is the one model a word names, "" for none or several.
	modelID func(string) string
	// familyLike reports whether a word is a model family or a typo of
	// one ("lamma", "deepsek").
	familyLike func(string) bool
	// modelPart reports whether a word is a part of a catalogue model's
	// name that is no size ("distill", "qwen", "r1", "instruct").
	modelPart func(string) bool

	ask          Ask
	deadline     time.Duration
	deadlineWord string
	dataset      string
	skipped      []string
	korean       bool
	now          time.Time
	pending      []pendingCount
	runWord      bool
	question     bool
	corrected    []string
	skipTo       int // emitDataset read a size up to here
	dsToks       []reqToken
	moved        map[int]bool // input words read out of order (measured … for MODEL on HW)
	costWord     bool
	gpuWord      bool // "gpu" said: a question is about GPUs, not servers
	// gpuByMem names the cheapest catalogue GPU with that many GB (""
	// for none); standInGPU says which one stood in for a bare size.
	gpuByMem   func(gb float64) string
	standInGPU string
	// serverGPU is each team server's GPU id, so "the a100 machine" is
	// server-a; serverWord marks "서버"/"server" said without a name.
	serverGPU  map[string]string
	serverWord bool
}

// emit appends canonical word w standing for input tokens [a, b).
func (c *canonizer) emit(w string, a, b int) {
	start, end := c.in[a].start, c.in[b-1].end
	c.out = append(c.out, reqToken{raw: c.text[start:end], w: w, start: start, end: end})
}

// emitAt appends w as a zero-width token at the start of input token i
// (a count marker the user implied: "h100 2장" reads "h100 x 2").
func (c *canonizer) emitAt(w string, i int) {
	at := c.in[i].start
	c.out = append(c.out, reqToken{raw: w, w: w, start: at, end: at})
}

func (c *canonizer) skip(a, b int) {
	s := strings.TrimSpace(c.text[c.in[a].start:c.in[b-1].end])
	if s == "" {
		return
	}
	for _, k := range c.skipped {
		if k == s {
			return
		}
	}
	c.skipped = append(c.skipped, s)
}

func (c *canonizer) setAsk(a Ask) {
	// A more specific question wins over a general one ("how long … and
	// how many"): count and which-server decide the card's shape.
	rank := map[Ask]int{AskNone: 0, AskTime: 1, AskCost: 2, AskFit: 3, AskWhichGPU: 4, AskCount: 5, AskWhichServer: 6}
	if a == AskCost {
		c.costWord = true // a comparison asked in money is a cost question
	}
	if rank[a] > rank[c.ask] {
		c.ask = a
	}
}

func (c *canonizer) w(i int) string {
	if i < 0 || i >= len(c.in) {
		return ""
	}
	return c.in[i].w
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

func (c *canonizer) run() {
	for i := 0; i < len(c.in); {
		if c.moved[i] {
			i++ // read earlier, where it belongs
			continue
		}
		i = c.step(i)
	}
	c.placeUnits()
	c.amountAfterEpochs()
	c.placeDataset()
	c.attachCounts()
	out := c.out[:0]
	for _, t := range c.out {
		if t.w == "/epoch" || t.w == "/step" {
			continue // "에폭당 얼마나": per epoch, asked for, not measured
		}
		out = append(out, t)
	}
	c.out = out
}

// step reads the phrase at input i and returns where the next starts.
func (c *canonizer) step(i int) int {
	t := c.in[i]
	if isHangulWord(t.w) {
		c.korean = true
		return c.korean1(i)
	}
	if isHubRef(t.raw) && (c.modelKnown == nil || !c.modelKnown(strings.ReplaceAll(t.w, "/", ""))) && !digitsOnly(t.w[strings.IndexByte(t.w, '/')+1:]) {
		// "meta-llama/Llama-3.2-3B": a Hub model, read as typed (ids are case-sensitive)
		c.out = append(c.out, reqToken{raw: t.raw, w: hubMark + t.raw, start: t.start, end: t.end})
		return i + 1
	}
	if n := c.phrase(i); n > i {
		return n
	}
	if n := c.server(i); n > i {
		return n
	}
	if n := c.countList(i); n > i {
		return n
	}
	if n := c.gpuWords(i); n > i {
		return n
	}
	if n := c.numberWord(i); n > i {
		return n
	}
	if n := c.scale(i); n > i {
		return n
	}
	if reqStartsNumber(t.w) {
		if _, unit, ok := reqScanNumber(t.w); ok && unit == "" {
			if n := c.adjectives(i + 1); n > i+1 {
				c.out = append(c.out, t)
				return n
			}
		}
	}
	if d, ok := lookupDataset(t.w); ok {
		c.dataset = d.Name
		c.skipTo = 0
		c.emitDataset(d, i, i+1)
		if c.skipTo > i {
			return c.scaleAfter(c.skipTo)
		}
		return i + 1
	}
	if (t.w == "/" && !(reqUnitClass(c.w(i+1)) > reqUUnknown && (reqUnitClass(lastW(c.out)) > reqUUnknown || reqStartsNumber(lastW(c.out))))) ||
		t.w == "->" || t.w == "=>" || t.w == "|" || t.w == "—" || t.w == "--" {
		// "h100 8 / qwen2.5 72b lora / 1ep 60k": a separator between phrases
		c.out = append(c.out, reqToken{raw: t.raw, w: ",", start: t.start, end: t.end})
		return i + 1
	}
	if n := c.numericGPUCount(i); n > i {
		return n
	}
	if silentWords[t.w] {
		return i + 1 // articles carry nothing and are not worth listing
	}
	if n := c.size(i); n > i {
		return n
	}
	if c.measurement(i) {
		// "5.67h per epoch on server-v", "ran 385 hours on 1x a6000": a
		// measured run, said without the keyword
		at := c.in[i].start
		c.out = append(c.out, reqToken{raw: "baseline", w: "baseline", start: at, end: at})
	}
	if isGPUWord(t.w) {
		c.gpuWord = true
	}
	if isGPUWord(t.w) && len(c.out) > 0 {
		// "8 gpus", "2 cards": the number before counts GPUs
		if _, rest, ok := reqScanInt(c.out[len(c.out)-1].w); ok && rest == "" && !c.gpu(c.w(i+1)) {
			c.out = append(c.out, reqToken{raw: t.raw, w: "\x00count", start: t.start, end: t.end})
			return i + 1
		}
	}
	if fixed, ok := c.typo(t.w); ok {
		// "finetnue", "epcohs": one slip from a keyword, read as it
		c.corrected = append(c.corrected, t.raw+" → "+fixed)
		c.emit(fixed, i, i+1)
		return i + 1
	}
	if englishFillers[t.w] && !c.keep(i) {
		c.skip(i, i+1)
		return i + 1
	}
	c.out = append(c.out, t)
	return i + 1
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
	return false
}

// phrase matches the multi-word English phrases: questions, deadlines,
// "from scratch".
func (c *canonizer) phrase(i int) int {
	switch {
	case c.words(i, "from", "scratch"):
		c.emit("pretrain", i, i+2)
		return i + 2
	case c.words(i, "pure", "bf16"), c.words(i, "pure", "bfloat16"):
		c.emit("pure-bf16", i, i+2)
		return i + 2
	case c.words(i, "cpu", "offload"), c.words(i, "cpu", "offloading"):
		c.emit("offload", i, i+2)
		return i + 2
	case c.words(i, "optimizer", "in", "backward"), c.words(i, "optimizer", "in", "bwd"):
		c.emit("optimizer-in-backward", i, i+3)
		return i + 3
	case c.words(i, "context", "parallel"), c.words(i, "context", "parallelism"):
		c.emit("cp", i, i+2)
		return i + 2
	case c.w(i) == "paged" && (strings.HasPrefix(c.w(i+1), "adam")):
		// "paged adamw 8bit", "paged_adamw_8bit": bitsandbytes' paged 8-bit optimizer
		n := i + 2
		if c.w(n) == "8bit" || c.w(n) == "8-bit" {
			n++
		}
		c.emit("adam8bit", i, n)
		return n
	case strings.HasPrefix(c.w(i), "paged_adamw") || strings.HasPrefix(c.w(i), "paged-adamw"):
		c.emit("adam8bit", i, i+1)
		return i + 1
	case c.words(i, "kv", "cache"), c.words(i, "kv-cache"):
		c.skip(i, i+2) // the KV cache is in every decode plan already
		return i + 2
	case c.w(i) == "half" && c.w(i+1) == "a" && scaleWords[c.w(i+2)] > 0:
		// "half a million"
		c.emit(reqTrimNum(0.5*scaleWords[c.w(i+2)]), i, i+3)
		return c.adjectives(i + 3)
	case c.w(i) == "per" && !keepPer(c.w(i+1)):
		// "cost per run", "per 1m reqs", "throughput per dollar": the card
		// gives rates and totals already
		n := i + 2
		if reqStartsNumber(c.w(i + 1)) {
			n = i + 3
		}
		n = min(n, len(c.in))
		c.skip(i, n)
		if c.w(i+1) == "dollar" || c.w(i+1) == "$" {
			c.setAsk(AskCost)
		}
		return n
	case c.w(i) == "$" || c.w(i) == "$$" || c.w(i) == "$?" || c.w(i) == "less" && strings.HasPrefix(c.w(i+1), "$") ||
		c.w(i) == "cheaper" || c.w(i) == "spend" || c.w(i) == "budget" || c.w(i) == "bill" || c.w(i) == "expense" ||
		c.w(i) == "expensive" || c.w(i) == "dollars" || c.w(i) == "usd":
		c.setAsk(AskCost)
		c.skip(i, i+1)
		return i + 1
	case (c.w(i) == "timeline" || c.w(i) == "wall-clock" || c.w(i) == "wallclock" || c.w(i) == "gpu-hours" || c.w(i) == "hrs" ||
		c.w(i) == "est" || c.w(i) == "estimate" || c.w(i) == "expect" || c.w(i) == "per-epoch" || c.w(i) == "runtime") &&
		(i == 0 || !reqStartsNumber(c.w(i-1))):
		c.setAsk(AskTime)
		c.skip(i, i+1)
		return i + 1
	case isContextWord(c.w(i+1)) && reqStartsNumber(c.w(i)) && !isContextWord(c.w(i-1)) && reqKeywords[c.w(i-1)].kind != reqKwKey &&
		c.w(i-1) != "=" && !reqStartsNumber(c.w(i+2)):
		// "8k context", "4k ctx": the length before its key
		at := c.in[i].start
		c.out = append(c.out, reqToken{raw: c.in[i+1].raw, w: "seq", start: at, end: at})
		c.emit(c.w(i), i, i+1)
		c.skip(i+1, i+2)
		return i + 2
	case (c.w(i) == "node" || c.w(i) == "box" || c.w(i) == "machine" || c.w(i) == "nodes" && !reqStartsNumber(c.w(i-1))) &&
		i > 0 && (c.gpu(c.w(i-1)) || isMemWord(c.w(i-1))):
		// "a 4x A100 80GB node", "H200 node versus A100 node": a box of
		// those GPUs (a whole HGX node, 8, when no count was given)
		if !c.countedBefore() {
			at := c.in[i].start
			c.out = append(c.out, reqToken{raw: "x", w: "x", start: at, end: at}, reqToken{raw: "8", w: "8", start: at, end: at})
		}
		c.skip(i, i+1)
		return i + 1
	case c.words(i, "fine", "tune"), c.words(i, "fine", "tuning"), c.words(i, "fine", "tuned"):
		c.emit("finetune", i, i+2)
		return i + 2
	case c.w(i) == "stage" && reqStartsNumber(c.w(i+1)) && c.w(i-1) != "zero" && c.w(i-1) != "deepspeed":
		c.skip(i, i+2) // "stage 1" is a label, not an amount
		return i + 2
	case c.w(i) == "s" && i > 0 && !reqStartsNumber(c.w(i-1)):
		return i + 1 // "what's" lost its apostrophe
	case c.w(i) == "of" && c.ofDrops(i):
		return i + 1
	case c.words(i, "which", "one"), c.words(i, "which", "is"), c.words(i, "which", "would"):
		return c.which(i, 2)
	case c.words(i, "smallest", "number"), c.words(i, "minimum", "number"), c.words(i, "fewest"), c.words(i, "min", "number"),
		c.words(i, "least", "number"):
		c.setAsk(AskCount)
		n := i + 2
		if c.w(i) == "fewest" {
			n = i + 1
		}
		c.skip(i, n)
		return n
	case c.w(i) == "cheapest" || c.w(i) == "best" || c.w(i) == "recommend" || c.w(i) == "recommended":
		if isGPUWord(c.w(i+1)) || c.w(i+1) == "option" || c.w(i+1) == "setup" {
			c.setAsk(AskWhichGPU)
			c.skip(i, i+2)
			return i + 2
		}
	case (c.w(i) == "time" || c.w(i) == "hours" || c.w(i) == "days" || c.w(i) == "duration" || c.w(i) == "runtime") &&
		(i == 0 || !reqStartsNumber(c.w(i-1))):
		c.setAsk(AskTime)
		c.skip(i, i+1)
		return i + 1
	case c.w(i) == "possible" || c.w(i) == "doable" || c.w(i) == "feasible" || c.w(i) == "handle" || c.w(i) == "load" ||
		c.w(i) == "ok" && i == len(c.in)-1:
		c.setAsk(AskFit)
		c.skip(i, i+1)
		return i + 1
	case c.w(i) == "host" || c.w(i) == "deploy" || c.w(i) == "serve":
		c.runWord = true
	case (c.w(i) == "run" || c.w(i) == "running") && (runVerb(c.w(i-1)) || c.modalBefore(i)):
		c.runWord = true // "can I run mixtral", not "our run was"
	case c.w(i) == "where" && (c.w(i+1) == "should" || c.w(i+1) == "do" || c.w(i+1) == "can") && c.anyServer():
		c.setAsk(AskWhichServer)
		c.skip(i, i+1)
		return i + 1
	case c.w(i) == "faster" || c.w(i) == "quicker" || c.w(i) == "fastest":
		return c.which(i, 1)
	case (c.w(i) == "no" || c.w(i) == "nope" || c.w(i) == "아니" || c.w(i) == "아니고") && (c.w(i+1) == "=" || c.w(i+1) == "," || c.w(i+1) == "i" && c.w(i+2) == "mean"):
		// "gpt2 small? no: gpt2-large": the model said first is taken back
		c.retractModel()
		c.skip(i, i+2)
		return i + 2
	case c.w(i) == "like" && reqStartsNumber(c.w(i+1)) && c.hardwareBefore():
		// "on a few L40S, like 3", "on T4s, like 4 of them": the count, said after
		n := i + 2
		if c.w(n) == "of" && (c.w(n+1) == "them" || c.w(n+1) == "those") {
			n += 2
		}
		if _, rest, ok := reqScanInt(c.w(i + 1)); ok && rest == "" {
			c.emit(c.w(i+1), i+1, i+2)
			c.out = append(c.out, reqToken{raw: "gpus", w: "\x00count", start: c.in[i+1].end, end: c.in[i+1].end})
		}
		c.skip(i, i+1)
		return n
	case c.w(i) == "for" && c.measuredJustBefore():
		// "measured 0.9 s/step for llama 2 13b lora on 4x a100": the
		// hardware the run was measured on is read right after the
		// measurement, and the model words after it
		if n := c.moveHardware(i + 1); n > 0 {
			c.skip(i, i+1)
			return i + 1
		}
	case c.w(i) == "on" && (c.w(i+1) == "it" || c.w(i+1) == "them" || c.w(i+1) == "that" || c.w(i+1) == "this"):
		c.skip(i, i+2) // "fine-tuning on it": the hardware was named before
		return i + 2
	case englishNumbers[c.w(i)] > 0 && (c.w(i+1) == "servers" || c.w(i+1) == "boxes" || c.w(i+1) == "machines"):
		c.skip(i, i+2) // "which of our three servers"
		return i + 2
	case c.w(i) == "on" && i == len(c.in)-1 && c.ask != AskNone:
		return i + 1 // "… a 13b model on": a dangling preposition
	case c.w(i) == "per" && (c.w(i+1) == "day" || c.w(i+1) == "hour" || c.w(i+1) == "month" || c.w(i+1) == "week"):
		c.skip(i, i+2) // "cost per day": the card gives cost per hour and in total
		return i + 2
	case c.w(i) == "on" && c.modelKnown != nil && c.modelKnown(c.w(i+1)) && !c.gpu(c.w(i+1)) && !c.servers[c.w(i+1)]:
		return i + 1 // "qlora on llama3 70b": the model, not hardware
	case c.words(i, "how", "long"), c.words(i, "how", "many", "hours"), c.words(i, "how", "many", "days"), c.words(i, "how", "many", "hrs"),
		c.words(i, "hw", "long"),
		c.words(i, "eta"):
		c.setAsk(AskTime)
		n := i + 2
		if c.w(i) == "eta" {
			n = i + 1
		} else if c.w(i+1) == "many" {
			n = i + 3
		}
		c.skip(i, n)
		return n
	case c.words(i, "how", "many"):
		c.setAsk(AskCount)
		c.skip(i, i+2)
		return i + 2
	case c.words(i, "how", "much"), c.words(i, "what", "would", "it", "cost"), c.words(i, "cost"), c.words(i, "price"):
		c.setAsk(AskCost)
		n := i + 1
		if c.w(i) == "how" {
			n = i + 2
		} else if c.w(i) == "what" {
			n = i + 4
		}
		c.skip(i, n)
		return n
	case (c.w(i) == "which" || c.w(i) == "what") && (c.w(i+1) == "of" && c.w(i+2) == "our" || c.w(i+1) == "server" || c.w(i+1) == "servers" || c.w(i+1) == "box" || c.w(i+1) == "machine"):
		c.setAsk(AskWhichServer)
		n := i + 2
		if c.w(i+1) == "of" {
			n = i + 3
		}
		c.skip(i, n)
		return n
	case c.words(i, "our", "servers"), c.words(i, "our", "server"), c.words(i, "our", "machines"), c.words(i, "our", "boxes"):
		c.setAsk(AskWhichServer)
		c.skip(i, i+2)
		return i + 2
	case (c.w(i) == "which" || c.w(i) == "what") && isGPUWord(c.w(i+1)):
		c.setAsk(AskWhichGPU)
		c.skip(i, i+2)
		return i + 2
	case c.w(i) == "fit" || c.w(i) == "fits" || c.w(i) == "enough" || c.w(i) == "oom":
		c.setAsk(AskFit)
		c.skip(i, i+1)
		return i + 1
	}
	if n, ok := c.englishDeadline(i); ok {
		return n
	}
	return i
}

func isGPUWord(w string) bool {
	switch w {
	case "gpu", "gpus", "card", "cards", "hardware", "instance", "accelerator":
		return true
	}
	return false
}

// englishDeadline reads "in a day", "within 24h", "in under 2 days", "by
// friday", "by tomorrow": how soon the job must be done.
func (c *canonizer) englishDeadline(i int) (int, bool) {
	w := c.w(i)
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
		if d, ok := c.dayDeadline(c.w(j)); ok {
			c.setDeadline(d, i, j+1)
			return j + 1, true
		}
		return i, false
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
		if days == 0 {
			days = 7
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
	if c.ask == AskNone {
		c.setAsk(AskCount)
	}
}

// koLetters are the Korean names of the letters servers are named by
// ("서버 에이", "에이치 서버").
var koLetters = map[string]string{"에이": "a", "비": "b", "씨": "c", "디": "d", "이": "e", "에프": "f", "지": "g",
	"에이치": "h", "아이": "i", "제이": "j", "케이": "k", "엘": "l", "엠": "m", "엔": "n", "오": "o", "피": "p", "큐": "q",
	"알": "r", "에스": "s", "티": "t", "유": "u", "브이": "v", "더블유": "w", "엑스": "x", "와이": "y", "제트": "z"}

// serverName is the team server a word names: its name ("server-h"),
// its short name ("h", "serverh", "srv-h", "에이치"), or the GPU type
// only one team server has ("a100" for server-a); "" for none.
func (c *canonizer) serverName(w string) string {
	if w == "" || len(c.servers) == 0 {
		return ""
	}
	w = strings.TrimSuffix(strings.TrimSuffix(w, "-server"), "-box")
	if c.servers[w] {
		return w
	}
	if l, ok := koLetters[w]; ok {
		w = l
	}
	for _, pre := range []string{"server-", "server", "srv-", "srv", ""} {
		if rest, ok := strings.CutPrefix(w, pre); ok && rest != "" && c.servers["server-"+rest] {
			return "server-" + rest
		}
	}
	if c.gpu(w) {
		found := ""
		for name, id := range c.serverGPU {
			if strings.Contains(id, strings.TrimPrefix(w, "rtx-")) {
				if found != "" {
					return "" // two servers have it: the type does not say which
				}
				found = name
			}
		}
		return found
	}
	return ""
}

func isServerWord(s string) bool {
	switch s {
	case "server", "srv", "box", "서버", "node", "machine", "rig":
		return true
	}
	return false
}

// server reads a team server: "server-h", "server h", "h server", "the h
// box", "A-server", "the a100 machine".
func (c *canonizer) server(i int) int {
	if len(c.servers) == 0 {
		return i
	}
	w := c.w(i)
	// alone, a word names a server only in a server's own form ("server-h",
	// "serverh", "srv-h", "a-server"): a bare "h" is hours
	named := strings.HasPrefix(w, "server") || strings.HasPrefix(w, "srv") || strings.HasSuffix(w, "-server") || strings.HasSuffix(w, "-box")
	if name := c.serverName(w); name != "" && (c.servers[w] || named) {
		c.emit(name, i, i+1)
		return i + 1
	}
	if isServerWord(w) {
		if name := c.serverName(c.w(i + 1)); name != "" && !c.gpu(c.w(i+1)) {
			c.emit(name, i, i+2)
			return i + 2
		}
	}
	if isServerWord(c.w(i + 1)) {
		if name := c.serverName(w); name != "" {
			c.emit(name, i, i+2)
			return i + 2
		}
	}
	return i
}

// englishNumbers are the number words people use for GPU counts, epochs
// and multipliers.
var englishNumbers = map[string]float64{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "sixteen": 16, "twenty": 20, "thirty": 30, "forty": 40,
	"fifty": 50, "sixty": 60, "hundred": 100, "single": 1, "dozen": 12, "couple": 2, "pair": 2, "few": 3,
}

// numberWord reads "a single", "one", "a pair of", "a couple of", "a dozen",
// "half a dozen".
func (c *canonizer) numberWord(i int) int {
	j := i
	if c.w(j) == "a" || c.w(j) == "an" {
		j++
	}
	n, ok := englishNumbers[c.w(j)]
	if !ok {
		if c.words(i, "half", "a", "dozen") {
			c.emit("6", i, i+3)
			return i + 3
		}
		return i
	}
	if c.w(j) == "few" && j == i {
		return i // "few" alone is no number; "a few" is three
	}
	if j > i && (c.w(j) != "single" && c.w(j) != "pair" && c.w(j) != "couple" && c.w(j) != "dozen" && c.w(j) != "hundred" && c.w(j) != "few") {
		return i // "a two" is not English
	}
	j++
	if c.w(j) == "of" && (n == 2 || n == 12 || n == 100) && c.w(j-1) != "two" {
		j++ // "a pair of", "a couple of", "a dozen of"
	}
	c.emit(reqTrimNum(n), i, j)
	return j
}

// scaleWords multiply the number before them.
var scaleWords = map[string]float64{
	"thousand": 1e3, "k": 1e3, "million": 1e6, "millions": 1e6, "mil": 1e6, "mn": 1e6, "m": 1e6,
	"billion": 1e9, "billions": 1e9, "bn": 1e9, "b": 1e9, "trillion": 1e12, "t": 1e12,
	"천": 1e3, "만": 1e4, "십만": 1e5, "백만": 1e6, "천만": 1e7, "억": 1e8, "십억": 1e9, "백억": 1e10, "천억": 1e11, "조": 1e12,
}

// scale folds "2.5 million" and "250 만" into the number before them.
func (c *canonizer) scale(i int) int {
	f, ok := scaleWords[c.w(i)]
	if !ok || len(c.out) == 0 {
		return i
	}
	last := &c.out[len(c.out)-1]
	n, unit, ok := reqScanNumber(last.w)
	if !ok || unit != "" || last.end > c.in[i].start || strings.Contains(last.w, "x") {
		return i
	}
	if len(c.w(i)) == 1 && !(c.in[i].start == last.end || c.w(i) == "k") {
		return i // a lone "m" or "b" after a space is not a scale ("2 b" is ambiguous)
	}
	v := n.v * f
	last.w = reqTrimNum(v)
	last.end = c.in[i].end
	last.raw = c.text[last.start:last.end]
	if isHangulWord(c.w(i)) {
		c.koCompound(f) // "1만 5천"
	}
	return i + 1
}

// englishFillers are skipped: question words, verbs of asking, articles and
// pronouns. None of them is a keyword, so skipping never hides meaning.
var englishFillers = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`how would will it take takes taking to can could i we you my our me us
		do does did need needs needed is are was be been being what which whats what's much many if
		want wanna gonna like about roughly approx approximately around estimate estimated expect
		should shall may might let lets let's tell show give guess run running runs go get got
		hey hi hello pls plz thanks thank thx bot gpuplan quick question q possible possibly feasible
		doable work works okay ok enough fit fits will finish finished done complete completed
		so then just only also really actually still even there here that this these those it's
		full whole entire fine some any all every each kinda sort of typically usually about
		need required require requires requirement necessary go able be when where who whose
		on-prem onprem locally local box machine use uses used load loads loaded lol lmao haha hmm
		faster fastest cheapest cheaper cheap smallest smaller minimum number best better good recommend
		recommended suggest suggestion wondering curious try trying planning budget quick ok? total
		gpu gpus card cards hardware instance accelerator box boxes setup rig
		vram memory mem without w/o cost price rent rented renting chat instruct ran servers machines gives gave brings bring makes
		them dreaming am honestly tbh rn gonna wanna lemme kinda idk btw fyi asap
		cloud aws gcp azure runpod vastai`) {
		m[w] = true
	}
	// "of" and "on" are keywords the readers use; "take"/"took" too where
	// measured runs are read, so they are not fillers.
	for _, w := range []string{"of", "on", "took", "it"} {
		delete(m, w)
	}
	return m
}()

func isHangulWord(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return isHangul(r)
}

// attachCounts moves a counted GPU number next to its GPU: "h100 2장" and
// "2장 h100" become "h100 x 2" and "2 x h100" (the counter was emitted as
// the word "gpus" after the number).
func (c *canonizer) attachCounts() {
	var out []reqToken
	toks := c.out
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		if t.w != "\x00count" {
			out = append(out, t)
			continue
		}
		// the number is the token before; a GPU name before it or after.
		if len(out) == 0 {
			continue
		}
		num := out[len(out)-1]
		if _, rest, ok := reqScanInt(num.w); !ok || rest != "" {
			continue
		}
		prev := ""
		if len(out) >= 2 {
			prev = out[len(out)-2].w
		}
		if prev != "" && (c.gpu(prev) || isMemWord(prev) || c.servers[prev]) {
			// a counter follows what it counts: "v100 4장 a100 4장" is 4 of each
			// "h100 2장" → "h100 x 2"
			x := reqToken{raw: "x", w: "x", start: num.start, end: num.start}
			out = append(out[:len(out)-1], x, num)
			continue
		}
		next := ""
		if k+1 < len(toks) {
			next = toks[k+1].w
		}
		if c.gpu(next) || c.servers[next] {
			// "2장 h100", "8 gpus h100": "2 x" before the GPU
			out = append(out, reqToken{raw: "x", w: "x", start: t.start, end: t.start})
			continue
		}
		if g := c.onlyGPU(toks); g >= 0 {
			// "8장으로 … h100": the one GPU of the request, wherever it is
			out = out[:len(out)-1]
			c.pending = append(c.pending, pendingCount{gpu: g, num: num})
			continue
		}
		if !isHangulWord(t.raw) {
			// "on 8 gpus" names no GPU: the readers say so
			out = append(out, reqToken{raw: t.raw, w: strings.ToLower(t.raw), start: t.start, end: t.end})
		}
	}
	c.out = c.placePending(out, toks)
}

// pendingCount is a GPU count written away from its GPU.
type pendingCount struct {
	gpu int // index of the GPU token in the canonical words
	num reqToken
}

// onlyGPU is the index of the one GPU (or server) the words name, -1 when
// there is none or more than one.
func (c *canonizer) onlyGPU(toks []reqToken) int {
	at := -1
	for k, t := range toks {
		if c.gpu(t.w) || c.servers[t.w] {
			if at >= 0 {
				return -1
			}
			at = k
		}
	}
	return at
}

// placePending writes each pending count after its GPU: "h100 x 8".
func (c *canonizer) placePending(out, toks []reqToken) []reqToken {
	if len(c.pending) == 0 {
		return out
	}
	p := c.pending[0]
	c.pending = nil
	g := toks[p.gpu]
	for k, t := range out {
		if t.start == g.start && t.w == g.w {
			// the count keeps a zero-width span at the GPU's end, so spans stay in order
			at := g.end
			ins := []reqToken{{raw: "x", w: "x", start: at, end: at}, {raw: p.num.raw, w: p.num.w, start: at, end: at}}
			// a count already written beside the GPU wins
			if k+1 < len(out) && out[k+1].w == "x" {
				return out
			}
			if k > 0 {
				if _, r, ok := reqScanInt(out[k-1].w); ok && (r == "" || r == "x") || out[k-1].w == "x" {
					return out
				}
			}
			return append(out[:k+1], append(ins, out[k+1:]...)...)
		}
	}
	return out
}

// isMemWord is a memory qualifier after a GPU name ("a100 80gb").
func isMemWord(w string) bool {
	v, unit, ok := reqScanNumber(w)
	return ok && v.v > 0 && (unit == "gb" || unit == "g")
}

// parseIntWord reads a whole number token.
func parseIntWord(w string) (int, bool) {
	n, err := strconv.Atoi(w)
	return n, err == nil
}

// silentWords are skipped without being listed.
var silentWords = map[string]bool{"a": true, "an": true, "the": true}

// size reads a model size written as a number: "7B model", "a 124M model",
// "7b params" is the readers' own; a bare "7B" when no catalogue model is
// named anywhere is a size too (people say "a 7B" for the model).
func (c *canonizer) size(i int) int {
	n, unit, ok := reqScanNumber(c.w(i))
	if !ok || unit != "" || n.mult == 0 || n.mult == 'k' {
		return i
	}
	if len(c.out) > 0 {
		if prev := c.out[len(c.out)-1].w; prev == "params" || prev == "=" || prev == "parameters" {
			return i // "params 7b" is the readers' own
		}
		if prev := lastW(c.out); c.modelPart != nil && c.modelPart(prev) || c.modelKnown != nil && c.modelKnown(prev) && c.modelID(prev) == "" {
			return i // "qwen2.5 14b", "r1 distill 14b": the size picks the family's model
		}
	}
	next := c.w(i + 1)
	switch next {
	case "model", "models", "llm", "transformer", "network", "net", "모델", "짜리", "dense", "decoder", "moe":
		c.emit(c.w(i)+"-params", i, i+2)
		return i + 2
	}
	if reqUnitClass(next) > reqUUnknown {
		return i
	}
	if _, e, ok := koStem(next); ok && e.act == koWord && (e.word == "tokens" || e.word == "samples" || e.word == "steps" || e.word == "epochs") {
		return i // "100B 토큰": an amount, not a size
	}
	if c.anyModel() {
		if prev := lastW(c.out); prev != "" && c.modelID != nil && c.modelID(prev) != "" && !c.gpu(prev) &&
			(c.modelID(prev+"-"+c.w(i)) == "" || c.modelID(prev+"-"+c.w(i)) == c.modelID(prev)) {
			c.skip(i, i+1) // "gpt2 124M", "deepseek-r1 671b": the model's own size, already named
			return i + 1
		}
		return i
	}
	if n.mult == 'b' || n.mult == 't' || n.mult == 'm' && !c.amountWordsNear(i) {
		c.emit(c.w(i)+"-params", i, i+1) // one word, so a suggestion quoting it reads back the same
		return i + 1
	}
	return i
}

// anyModel reports whether some word of the request names a catalogue
// model.
func (c *canonizer) anyModel() bool {
	if c.modelKnown == nil {
		return false
	}
	for _, toks := range [][]reqToken{c.in, c.out} {
		for k := range toks {
			if isHangulWord(toks[k].w) || reqStartsNumber(toks[k].w) {
				continue
			}
			if c.modelKnown(toks[k].w) || k+1 < len(toks) && c.modelKnown(toks[k].w+"-"+toks[k+1].w) ||
				c.familyLike != nil && c.familyLike(toks[k].w) {
				return true
			}
		}
	}
	return false
}

// amountWordsNear reports whether an epochs/samples/tokens word sits right
// after token i, which makes a bare "124M" an amount, not a size.
func (c *canonizer) amountWordsNear(i int) bool {
	k := reqUnitClass(c.w(i + 1))
	return k == reqUSamples || k == reqUTokens || k == reqUEpochs || k == reqUSteps
}

// ofDrops reports whether "of" at i is English, not the dataset keyword:
// "of" before a number, a dataset or "data" says the size; "the cost of
// finetuning", "number of l40s" or "2 epochs of gpt2-xl" do not.
func (c *canonizer) ofDrops(i int) bool {
	next := c.w(i + 1)
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

// gpuWords reads GPU names written loosely: "6000 ada" (one name in two
// words), "a100s" (a plural), "16gb v100" (the memory first).
func (c *canonizer) gpuWords(i int) int {
	w, next := c.w(i), c.w(i+1)
	if next != "" && !c.gpu(w) {
		for _, j := range []string{w + next, w + "-" + next} {
			if c.gpu(j) {
				c.emit(j, i, i+2)
				return i + 2
			}
		}
	}
	if len(w) > 2 && strings.HasSuffix(w, "s") && !c.gpu(w) && c.gpu(w[:len(w)-1]) {
		c.emit(w[:len(w)-1], i, i+1)
		return i + 1
	}
	if isMemWord(w) && !c.gpu(next) && !c.gpu(lastW(c.out)) && c.gpuByMem != nil && (len(c.out) == 0 || !reqStartsNumber(lastW(c.out))) {
		// "is 24GB enough for …", "24기가로": a card of that size stands in,
		// the cheapest the catalogue has, and the reading says so
		if v, _, _ := reqScanNumber(w); v.v > 0 {
			if id := c.gpuByMem(v.v); id != "" {
				c.standInGPU = fmt.Sprintf("%s: %s", c.in[i].raw, id)
				c.emit(id, i, i+1)
				return i + 1
			}
		}
	}
	if v, unit, ok := reqScanNumber(w); ok && unit == "" && i > 0 && c.gpu(c.w(i-1)) && !isCounterWord(next) &&
		(v.v == 16 || v.v == 24 || v.v == 32 || v.v == 40 || v.v == 48 || v.v == 80 || v.v == 94 || v.v == 141) &&
		c.gpu(c.w(i-1)+"-"+w+"gb") && !c.gpu(c.w(i-1)+"-"+w+"gbx") {
		// "a100 80 4장": the memory, said without its unit
		c.emit(w+"gb", i, i+1)
		return i + 1
	}
	if c.gpu(w) && !reqStartsNumber(w) {
		if n, rest, ok := reqScanInt(next); ok && rest == "" && n >= 1 && n <= 4096 && reqUnitClass(c.w(i+2)) <= reqUUnknown &&
			!isCounterWord(c.w(i+2)) && !(n == 16 || n == 24 || n == 32 || n == 40 || n == 48 || n == 80 || n == 94 || n == 141) {
			// "h100 8 / …", "a100 4": the count after the name
			c.emit(w, i, i+1)
			at := c.in[i+1].start
			c.out = append(c.out, reqToken{raw: "x", w: "x", start: at, end: at})
			c.emit(next, i+1, i+2)
			return i + 2
		}
	}
	if isMemWord(w) && c.gpu(next) {
		// "a 16gb v100" reads as "v100 16gb": the name at the memory's place
		at := c.in[i].start
		c.out = append(c.out, reqToken{raw: c.in[i+1].raw, w: next, start: at, end: at})
		c.emit(w, i, i+2)
		return i + 2
	}
	return i
}

// anyServer reports whether the request names a team server.
func (c *canonizer) anyServer() bool {
	for k := range c.in {
		if c.servers[c.in[k].w] || c.servers["server-"+c.in[k].w] && k > 0 && (c.in[k-1].w == "server" || c.in[k-1].w == "서버") {
			return true
		}
		if strings.HasPrefix(c.in[k].w, "server") && c.servers["server-"+strings.TrimLeft(strings.TrimPrefix(c.in[k].w, "server"), "-")] {
			return true
		}
	}
	return false
}

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
	for _, k := range typoVocabulary {
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
	j := i + 1
	if unit == "" {
		unit = c.w(j)
		j++
	}
	switch unit {
	case "h", "hr", "hrs", "hour", "hours", "min", "mins", "minutes", "s", "sec", "secs", "seconds", "d", "day", "days",
		"h/epoch", "h/ep", "s/step", "s/it", "min/epoch":
	default:
		return false
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

// runVerb reports whether "run" after this word is the verb (to run a
// model: inference), not the noun ("our run", "the run").
func runVerb(prev string) bool {
	switch prev {
	case "", "i", "we", "you", "to", "can", "could", "and", "just", "me", "us", "then", "also", "even", "will", "would":
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
	c.skip(i, i+n)
	return i + n
}

// countList reads several counts of one GPU — "1, 2, 4, 8 H100s", "2 or 4
// a100s", "4/8 h100" — as that many setups side by side ("1xh100, 2xh100,
// …"): seed 001's "how long on 1, 2, 4, 8 H100s?".
func (c *canonizer) countList(i int) int {
	var counts []int
	j := i
	for {
		n, rest, ok := reqScanInt(c.w(j))
		if !ok || rest != "" || n < 1 {
			break
		}
		counts = append(counts, n)
		j++
		if w := c.w(j); w == "," || w == "or" || w == "and" || w == "/" || w == "vs" {
			j++
			continue
		}
		break
	}
	if len(counts) < 2 {
		return i
	}
	g := c.w(j)
	if !c.gpu(g) {
		if t := strings.TrimSuffix(g, "s"); len(t) > 1 && c.gpu(t) {
			g = t
		} else {
			return i
		}
	}
	k := i
	for n, cnt := range counts {
		// each count keeps the span of its own number
		for c.w(k) != strconv.Itoa(cnt) {
			k++
		}
		if n > 0 {
			at := c.in[k].start
			c.out = append(c.out, reqToken{raw: ",", w: ",", start: at, end: at})
		}
		c.emit(fmt.Sprintf("%dx%s", cnt, g), k, k+1)
		k++
	}
	return j + 1
}

func digitsOnly(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
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
	return false
}

// countedBefore reports whether the GPU just read has a count written
// before it ("4x a100 80gb node").
func (c *canonizer) countedBefore() bool {
	n := len(c.out)
	for k := n - 1; k >= 0 && k >= n-3; k-- {
		w := c.out[k].w
		if _, rest, ok := reqScanInt(w); ok && (rest == "x" || rest == "") || strings.Contains(w, "x") && reqStartsNumber(w) {
			return true
		}
	}
	return false
}

// adjectives skips the word at j when it stands between a number and its
// unit ("2,400,000 training rows", "half a million instruction pairs"):
// it says what kind of data, not how much. It returns where reading goes
// on (j when there is nothing to skip).
func (c *canonizer) adjectives(j int) int {
	w := c.w(j)
	if u := reqUnitClass(c.w(j + 1)); u != reqUSamples && u != reqUTokens {
		return j
	}
	if w == "" || isHangulWord(w) || reqUnitClass(w) > reqUUnknown || c.gpu(w) || scaleWords[w] != 0 ||
		reqKeywords[w].kind != 0 || reqStartsNumber(w) || w == "," {
		return j
	}
	c.skip(j, j+1)
	return j + 1
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

// numericGPUCount reads "3090x2", "4090x8": a GPU whose name is a number,
// with its count after it, as "2x3090" (the count-first form the hardware
// reader takes for such names).
func (c *canonizer) numericGPUCount(i int) int {
	w := c.w(i)
	k := strings.IndexByte(w, 'x')
	if k <= 0 || k == len(w)-1 || !digitsOnly(w[:k]) || !digitsOnly(w[k+1:]) || !c.gpu(w[:k]) {
		return i
	}
	c.emit(w[k+1:]+"x"+w[:k], i, i+1)
	return i + 1
}

// amountAfterEpochs puts "samples" after a bare number that follows an
// epoch count ("3ep 40k", "1ep 60k", "3에폭 5만"): people give the dataset
// size right after the epochs.
func (c *canonizer) amountAfterEpochs() {
	var out []reqToken
	for k, t := range c.out {
		out = append(out, t)
		if k == 0 {
			continue
		}
		n, unit, ok := reqScanNumber(t.w)
		if !ok || unit != "" || n.v < 100 {
			continue
		}
		prev := c.out[k-1].w
		_, pu, pok := reqScanNumber(prev)
		epochs := pok && reqUnitClass(pu) == reqUEpochs || reqUnitClass(prev) == reqUEpochs && k >= 2 && reqStartsNumber(c.out[k-2].w)
		if !epochs {
			continue
		}
		if k+1 < len(c.out) && reqUnitClass(c.out[k+1].w) > reqUUnknown || c.gpu(t.w) {
			continue // "3 epochs 1000 steps": its own unit; "20에폭 3090": a GPU
		}
		out = append(out, reqToken{raw: "samples", w: "samples", start: t.end, end: t.end})
	}
	c.out = out
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

// hardwareBefore reports whether a GPU was named in the last few words.
func (c *canonizer) hardwareBefore() bool {
	for k := len(c.out) - 1; k >= 0 && k >= len(c.out)-3; k-- {
		if c.gpu(c.out[k].w) {
			return true
		}
	}
	return false
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

func (c *canonizer) anyGPU(a, b int) bool {
	for m := a; m < b; m++ {
		if w := c.w(m); c.gpu(w) || len(w) > 2 && c.gpu(strings.TrimSuffix(w, "s")) || c.servers[w] {
			return true
		}
		if _, rest, ok := reqScanInt(c.w(m)); ok && c.gpu(strings.TrimPrefix(rest, "x")) {
			return true
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
			c.setAsk(AskFit)
			return true
		}
	}
	return false
}
