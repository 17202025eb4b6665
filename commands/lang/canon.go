package lang

import (
	"strings"
	"time"
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
	AskAmount      Ask = "amount"       // how much work fits a budget or a time / 몇 토큰까지
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
	// modelParams is a catalogue model's parameter count, 0 if none.
	modelParams func(string) float64
	// familyLike reports whether a word is a model family or a typo of
	// one ("lamma", "deepsek").
	familyLike func(string) bool
	// modelPart reports whether a word is a part of a catalogue model's
	// name that is no size ("distill", "qwen", "r1", "instruct").
	modelPart func(string) bool

	ask            Ask
	deadline       time.Duration
	deadlineAsk    bool // the deadline is the question: how many GPUs, or does it make it (settleAsk)
	fitWord        bool // "fit", "fits", "oom" said: memory is the question even beside a deadline
	question       bool // the request had a question mark (normalisation removes it)
	largest        bool // the largest model that fits, or that the budget trains, is asked
	familyTop      bool // the family's largest member said after it ("라마 제일 큰 거")
	deadlineWord   string
	nextWeek       bool // "다음 주" before a weekday: that day of next week
	thisWeek       bool // "이번 주" before a weekday: today's weekday is today
	dataset        string
	skipped        []string
	korean         bool
	now            time.Time
	pending        []pendingCount
	runWord        bool
	corrected      []string
	skipTo         int // emitDataset read a size up to here
	dsToks         []reqToken
	moved          map[int]bool // input words read out of order (measured … for MODEL on HW)
	costWord       bool
	prefer         string      // "cheapest" or "fastest": the pick the request asked for
	rate           bool        // asked how fast as a rate ("tokens per second?")
	pluralGPU      bool        // a GPU said in the plural with no count before it ("on h100s")
	requestRate    bool        // the rate asked is in requests ("requests per second?", "초당 요청 몇 개")
	cloud          bool        // asked of rented GPUs, not the team's ("in the cloud", "클라우드에서")
	pendingRun     *pendingRun // a measured run read before its hardware (korean_runs.go)
	finishing      bool        // finishPending is reading it
	latency        bool        // asked the latency ("latency?", "지연시간"): a batch's or a token's time
	memory         bool        // asked how much memory ("how much vram", "메모리 얼마나")
	amountUnit     string      // the work asked of a budget or a time: "tokens", "epochs", "samples", "steps" ("how many tokens for $3000")
	compareCkpt    bool        // checkpointing asked on and off ("ckpt on vs off"): both planned
	audioWork      bool        // hours of audio said as the work ("100 hours of audio"): transcribed, unless training is said
	audioRate      bool        // asked audio time per wall time ("hours of audio per hour", "실시간 몇 배")
	bf16Denied     bool        // bf16 said as unsupported or not wanted ("no bf16", "v100 doesn't support bf16")
	hyperscaler    bool        // AWS, GCP or Azure named: datacenter GPUs only
	cpuOnly        bool        // run on the CPU alone ("CPU로만", "without a gpu"): llama.cpp, no layer on a GPU
	laptop         bool        // run on a laptop or a personal computer ("노트북에서도 돼요?", "on my laptop")
	cpuOnlyEmitted bool        // the laptop's run was written as llama.cpp with no layer on a GPU
	launchAsked    bool        // the command that launches it asked ("launch 명령어 알려주세요", "what's the vllm command")
	krwPerUSD      float64     // won per dollar (Env.KRWPerUSD); 0: none set
	wonBudget      float64     // a budget said in won ("예산 300만원"), converted with krwPerUSD
	timeAsked      bool        // a time or a rate was asked, whichever question won
	inWon          bool        // the money asked in won ("원화로", "in KRW")
	gpuHours       bool        // GPU-hours asked ("how many h100 hours")
	stepAsked      bool        // a step's time asked ("스텝당 몇초", "time per step")
	epochAsked     bool        // an epoch's time asked ("time per epoch", "에폭당 얼마나")
	nodesAsked     bool        // a count asked in nodes ("how many h100 nodes", "노드 몇 개")
	have           int         // the GPUs the asker has, beside a count question ("we have 8", "8장 중에")
	buying         bool        // GPUs to buy ("사려는데", "buying a new server"), not the team's nor rented
	needAsked      string      // a technique asked whether it is needed ("or do I need ZeRO-3?", "ckpt 켜야 돼?")
	kvWord         bool        // named the KV cache with no format ("kv cache 얼마나 먹어"): serving's memory
	maxBatch       bool        // asked the largest batch that fits ("max batch size", "최대 배치")
	maxSeq         bool        // asked the longest context that fits ("max context", "최대 컨텍스트")
	budget         float64     // a cost ceiling in USD ("budget $20k", "under $500")
	hourly         float64     // a ceiling on one GPU's hourly price in USD ("under $2/hr", "시간당 2달러")
	gpuWord        bool        // "gpu" said: a question is about GPUs, not servers
	// gpuByMem names the cheapest catalogue GPU with that many GB (""
	// for none); standInGPU says which one stood in for a bare size.
	gpuByMem   func(gb float64) string
	standInGPU string
	// serverGPU is each team server's GPU id, so "the a100 machine" is
	// server-a; serverWord marks "서버"/"server" said without a name.
	serverGPU  map[string]string
	serverWord bool
	// asked in the negative ("안 들어가지?"); a GPU named with 으로 and no
	// count ("h100으로 하면"); Chinchilla's tokens; a rate per user
	negativeAsk, gpuBy, chinchilla, perUser, useWord, reduceAsked, latencyFirst bool
	latencyPerToken                                                             bool    // the latency target is each token's (TPOT), not the request's
	serveHours, latencyTarget                                                   float64 // a span of serving; a latency target in seconds
	dailyUsers, population                                                      float64 // "1000 DAU", "직원 200명": users a day, the people it serves; a tenth at once
	distill                                                                     bool    // "distill A into B", "증류": the student is trained
	bitsAsked                                                                   bool    // "몇비트 양자화 해야돼": the widest weight format that fits
	// weightFormat is a quantised-weights container named without its
	// level ("gguf").
	weightFormat string
}

// emit appends canonical word w standing for input tokens [a, b).
func (c *canonizer) emit(w string, a, b int) {
	start, end := c.in[a].start, c.in[b-1].end
	c.out = append(c.out, reqToken{raw: c.text[start:end], w: w, start: start, end: end})
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

func (c *canonizer) run() {
	c.halfDurations()
	c.prepass()
	c.wordForms()
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
	c.hardwarePasses()
	c.placeNodes()
	c.finishPending()
	c.perUnitTimes()
	c.perUnitAsked()
}

// step reads the phrase at input i and returns where the next starts.
//
// earlyReaders read the phrases that go before a word's own reading, in
// order: counts and money, asides, "the largest", daily users, a size
// range, a setting said aside, a latency per token ("under 100ms per
// token", "토큰당 100ms 이내"), hours of audio said hours first ("1000시간
// 분량 음성": not a run's hours).
var earlyReaders = []func(*canonizer, int) int{
	(*canonizer).countsAndMoney, (*canonizer).aside, (*canonizer).largestAt, (*canonizer).dailyUsersAt,
	(*canonizer).sizeRange, (*canonizer).asideAt, (*canonizer).perTokenLatency, (*canonizer).koAudioHoursFirst, (*canonizer).nodesAskedAt, (*canonizer).countHaveAt,
	(*canonizer).noGraphs, (*canonizer).cpuOnlyAt, (*canonizer).laptopAt, (*canonizer).mfuAt,
}

// step is long on purpose: it is the ordered list of readers a word is
// tried against; the order is the reading's precedence.
func (c *canonizer) step(i int) int {
	t := c.in[i]
	for _, read := range earlyReaders {
		if n := read(c, i); n > i {
			return n
		}
	}
	if isHangulWord(t.w) {
		c.korean = true
		if n := koBudgetAt(c.w(i), c.w(i+1), c.w(i+2)); n > 0 {
			// "예산 3000달러로", "예산 $3000": a ceiling on the cost
			v, _, _ := reqScanNumber(strings.TrimPrefix(c.w(i+1), "$"))
			c.budget = v.v
			c.skip(i, i+1)
			return i + n
		}
		if v, n := hourlyPrice(c.ws(i, 6)); v > 0 {
			c.hourly = v // "시간당 2달러 이하"
			return i + n
		}
		if t.w == "시간당" {
			c.skip(i, i+1) // "시간당 얼마?": the card gives the hourly price
			return i + 1
		}
		if n := c.server(i); n > i && strings.HasPrefix(t.w, "서버") {
			return n // "서버 h", "서버-x"
		}
		return c.korean1(i)
	}
	if isHubRef(t.raw) && (c.modelKnown == nil || !c.modelKnown(strings.ReplaceAll(t.w, "/", ""))) && !digitsOnly(t.w[strings.IndexByte(t.w, '/')+1:]) {
		// "meta-llama/Llama-3.2-3B": a Hub model, read as typed (ids are case-sensitive)
		c.out = append(c.out, reqToken{raw: t.raw, w: hubMark + t.raw, start: t.start, end: t.end})
		return i + 1
	}
	if c.gpu(t.w) && !reqStartsNumber(t.w) {
		if n := c.machinesOf(i); n > i {
			return n // "A100 8장짜리 서버 2대"
		}
	}
	if n := c.phrase(i); n > i {
		return n
	}
	if n := c.quant(i); n > i {
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
	if d, ok := lookupDataset(t.w + "-" + c.w(i+1)); ok && (t.w == "glue" || t.w == "cnn" || t.w == "klue") {
		// "glue mnli": the benchmark's name, then its task; "cnn dailymail"
		return c.readDataset(d, i, i+2)
	}
	if d, ok := lookupDataset(t.w); ok {
		return c.readDataset(d, i, i+1)
	}
	if n := c.slashedGPUs(i); n > i {
		return n
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
	if n := c.runOnHardwareBefore(i); n > i {
		return n
	}
	if c.measurement(i) { // "5.67h per epoch on server-v", "ran 385 hours on 1x a6000": a run measured
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
		c.notePreference(t.w)
		c.skip(i, i+1)
		return i + 1
	}
	c.out = append(c.out, t)
	return i + 1
}

// phrase matches the multi-word English phrases: questions, deadlines,
// "from scratch".
//
// phrase is one switch over the multi-word phrases on purpose: the order of
// its cases is their precedence ("how many hours" before "how many"), which
// splitting would hide.
func (c *canonizer) phrase(i int) int {
	if n := c.chatPhrase(i); n > i {
		return n
	}
	if n := c.gpuHoursAt(i); n > i {
		return n
	}
	if n := c.memoryAsked(i); n > i {
		return n
	}
	switch {
	case stepTimeAsked(c.ws(i, 4)) > 0:
		// "time per step?", "step time on 8x h100", "seconds per step": a
		// step's time (a number after it would be a measured one)
		n := i + stepTimeAsked(c.ws(i, 4))
		c.setAsk(AskTime)
		c.stepAsked = true
		c.skip(i, n)
		return n
	case rateQuestion(c.w(i), c.w(i+1), c.w(i+2)) > 0 && (i == 0 || !reqStartsNumber(c.w(i-1)) || c.gpu(c.w(i-1)) || isParamSize(c.w(i-1)) || isMemWord(c.w(i-1))):
		// "tokens per second?", "how many tok/s", "images/sec": asks how
		// fast, with no measurement said (a number before it would be one)
		n := i + rateQuestion(c.w(i), c.w(i+1), c.w(i+2))
		if num := n + koParticleAt(c.w(n)); (c.w(i) == "tokens/s" || c.w(i) == "samples/s") && reqStartsNumber(c.w(num)) && !c.gpu(c.w(num)) {
			// "tokens/s가 2800 나와요": the unit said before its number, measured
			at := c.in[i].start // spans stay in order: the number stands where the unit began
			c.out = append(c.out, reqToken{raw: c.in[num].raw, w: c.w(num), start: at, end: at})
			c.emit(c.w(i), i, num+1)
			return num + 1
		}
		if c.ask == AskCount && i >= 2 && c.w(i-2) == "how" && (c.w(i-1) == "many" || c.w(i-1) == "much") {
			c.ask = AskNone // "how many tokens/s": a rate, not a GPU count
		}
		c.setAsk(AskTime)
		c.rate = true
		c.requestRate = c.requestRate || strings.HasPrefix(c.w(i), "req") || strings.HasPrefix(c.w(i), "quer") || c.w(i) == "qps" || c.w(i) == "rps"
		c.runWord = true // a rate asked of a model is how fast it runs
		c.skip(i, n)
		return n
	case sampleLength(c.w(i), c.w(i+1), c.w(i+2), c.w(i+3)):
		// "200k samples of 512 tokens (each)": each sample's length is
		// the sequence length, not a second dataset size
		c.emit(c.w(i), i, i+1)
		c.emit("seq", i+1, i+2)
		c.emit(c.w(i+2), i+2, i+3)
		n := i + 4
		if c.w(n) == "each" {
			n++
		}
		c.skip(i+3, n)
		return n
	case audioHours(c.w(i), c.w(i+1), c.w(i+2), c.w(i+3), c.w(i+4)) > 0:
		// "100 hours of audio": Whisper-class models read 30-second windows,
		// so an hour is 120 samples
		v, _, _ := reqScanNumber(c.w(i))
		n := i + audioHours(c.w(i), c.w(i+1), c.w(i+2), c.w(i+3), c.w(i+4))
		if lastW(c.out) == "on" {
			c.out = c.out[:len(c.out)-1] // "finetune on 100 hours of audio": the data, not hardware
		}
		c.emitAudioHours(v.v, i, n)
		return n
	case (c.w(i) == "max" || c.w(i) == "maximum" || c.w(i) == "largest" || c.w(i) == "biggest" || c.w(i) == "what" || c.w(i) == "which") &&
		(c.w(i+1) == "batch" || c.w(i+1) == "micro-batch" || c.w(i+1) == "microbatch" || c.w(i+1) == "bs") &&
		!reqStartsNumber(c.w(i+2)):
		// "max batch size for …": the largest micro-batch that fits
		n := i + 2
		if c.w(n) == "size" {
			n++
		}
		c.setAsk(AskFit)
		c.maxBatch = true
		c.skip(i, n)
		return n
	case (c.w(i) == "max" || c.w(i) == "maximum") && (c.w(i+1) == "len" || c.w(i+1) == "length" || seqWord(c.w(i+1))) && reqStartsNumber(c.w(i+2)):
		c.emit("seq", i, i+2) // "max len 256", "max length 512": the sequence length
		return i + 2
	case (c.w(i) == "max" || c.w(i) == "maximum" || c.w(i) == "longest" || c.w(i) == "largest") && seqWord(c.w(i+1)) &&
		!reqStartsNumber(c.w(i+2)):
		// "max context on a 4090", "longest sequence that fits": the
		// longest context that fits at micro-batch 1
		n := i + 2
		if c.w(n) == "length" || c.w(n) == "len" || c.w(n) == "size" {
			n++
		}
		c.setAsk(AskFit)
		c.maxSeq = true
		c.skip(i, n)
		return n
	case hourlyPriceAt(c.ws(i, 6)) > 0:
		// "under $2/hr", "$2 an hour", "max $2/gpu-hour", "시간당 2달러":
		// the most one GPU may cost an hour
		v, n := hourlyPrice(c.ws(i, 6))
		c.hourly = v
		if c.w(i+n) == "per" && (c.w(i+n+1) == "gpu" || c.w(i+n+1) == "card") {
			c.skip(i+n, i+n+2) // "under $3/hr per gpu": the price is a GPU's already
			return i + n + 2
		}
		return i + n // said back in the reading ("max $2/gpu-hour"), not skipped
	case dollars(c.w(i)) > 0 || (c.w(i) == "budget" || c.w(i) == "under" || c.w(i) == "within") && dollars(c.w(i+1)) > 0:
		// "budget $20k", "under $500", "$2k budget": a ceiling on the cost
		n := i
		if dollars(c.w(n)) == 0 {
			n++
		}
		c.budget = dollars(c.w(n))
		n++
		if c.w(n) == "budget" {
			n++
		}
		return n // said back in the reading ("budget $20000"), not skipped
	case c.words(i, "from", "scratch"):
		c.emit("pretrain", i, i+2)
		return i + 2
	case c.words(i, "pure", "bf16"), c.words(i, "pure", "bfloat16"):
		c.emit("pure-bf16", i, i+2)
		return i + 2
	case actOffloadPhrase(c.w(i), c.w(i+1), c.w(i+2)) > 0:
		// "activation offloading", "offload activations", "offloaded
		// gradient checkpointing": the saved activations in host memory
		n := i + actOffloadPhrase(c.w(i), c.w(i+1), c.w(i+2))
		if w := c.w(n - 1); w == "checkpointing" || w == "checkpoints" || w == "ckpt" {
			c.emit("offloaded-checkpointing", i, n)
			return n
		}
		c.emit("activation-offload", i, n)
		return n
	case c.words(i, "torch", "compile"), c.words(i, "torch", "compiled"), c.words(i, "liger", "kernel"), c.words(i, "liger", "kernels"):
		w := "compile"
		if c.w(i) == "liger" {
			w = "liger"
		}
		c.emit(w, i, i+2)
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
	case c.words(i, "tensor", "parallel"), c.words(i, "tensor", "parallelism"):
		c.emit("tp", i, i+2) // not "parallel 2", a serving concurrency
		return i + 2
	case c.words(i, "pipeline", "parallel"), c.words(i, "pipeline", "parallelism"):
		c.emit("pp", i, i+2)
		return i + 2
	case c.w(i) == "paged" && pagedOptimizerWord(c.w(i+1)):
		// bitsandbytes' paged optimizers: "paged adamw 8bit", "paged 8-bit
		// optimizers", "paged adamw" (32-bit states)
		n, opt, named := i+1, "paged-adamw", false
		for ; n < i+4 && pagedOptimizerWord(c.w(n)); n++ {
			w := c.w(n)
			if strings.Contains(w, "8bit") || w == "8-bit" { // "8bit", "adamw8bit"
				opt = "paged-adam8bit"
			}
			if w != "8bit" && w != "8-bit" && w != "32bit" && w != "32-bit" {
				named = true
			}
		}
		if !named {
			return i // "paged 8-bit" alone is not an optimizer
		}
		c.emit(opt, i, n)
		return n
	case strings.HasPrefix(c.w(i), "paged_adamw") || strings.HasPrefix(c.w(i), "paged-adamw"):
		opt := "paged-adamw"
		if strings.Contains(c.w(i), "8bit") {
			opt = "paged-adam8bit"
		}
		c.emit(opt, i, i+1)
		return i + 1
	case c.words(i, "kv", "cache"), c.words(i, "kv-cache"), c.w(i) == "kv" && strings.HasPrefix(c.w(i+1), "캐시"):
		if n := c.kvCache(i); n > i {
			return n // engine.go
		}
		n := i + 2
		if c.w(i) == "kv-cache" {
			n = i + 1
		}
		c.skip(i, n) // the KV cache is in every decode plan already
		c.kvWord = true
		return c.kvCacheContext(n)
	case c.w(i) == "half" && (c.w(i-1) == "in" || c.w(i-1) == "by"):
		// "cut that in half", "faster by half": a ratio, not fp16
		c.skip(i, i+1)
		return i + 1
	case c.w(i) == "half" && c.w(i+1) == "a" && scaleWords[c.w(i+2)] > 0:
		// "half a million"
		c.emit(reqTrimNum(0.5*scaleWords[c.w(i+2)]), i, i+3)
		return c.adjectives(i + 3)
	case (c.w(i) == "per" || c.w(i) == "each" || c.w(i) == "an" || c.w(i) == "a") && (c.w(i+1) == "epoch" || c.w(i+1) == "ep") && !c.afterAmount():
		// "how long does resnet-50 take per epoch", "how long is an epoch":
		// the card gives the time per epoch beside the total
		c.skip(i, i+2)
		c.epochAsked = true
		return i + 2
	case c.w(i) == "per" && !keepPer(c.w(i+1)):
		// "cost per run", "per 1m reqs", "throughput per dollar": the card
		// gives rates and totals already
		n := i + 2
		if reqStartsNumber(c.w(i+1)) || scaleWords[c.w(i+1)] > 0 {
			n = i + 3
		}
		if k := n - 1; k > i+1 && (c.w(k) == "output" || c.w(k) == "input" || c.w(k) == "generated" || c.w(k) == "prompt") && strings.HasPrefix(c.w(k+1), "tok") {
			n++ // "per 1M output tokens": the unit after its kind
		}
		n = min(n, len(c.in))
		c.skip(i, n)
		if c.w(i+1) == "dollar" || c.w(i+1) == "$" {
			c.setAsk(AskCost)
		}
		c.perUser = c.perUser || perWho(c.w(i+1)) // "tokens/s per user at 32 concurrent users"
		return n
	case c.w(i) == "$" || c.w(i) == "$$" || c.w(i) == "$?" || c.w(i) == "less" && strings.HasPrefix(c.w(i+1), "$") ||
		c.w(i) == "cheaper" || c.w(i) == "spend" || c.w(i) == "budget" || c.w(i) == "bill" || c.w(i) == "expense" ||
		c.w(i) == "expensive" || c.w(i) == "dollars" || c.w(i) == "usd":
		c.setAsk(AskCost)
		c.skip(i, i+1)
		return i + 1
	case (c.w(i) == "timeline" || c.w(i) == "wall-clock" || c.w(i) == "wallclock" || c.w(i) == "gpu-hours" || c.w(i) == "hrs" ||
		c.w(i) == "est" || c.w(i) == "estimate" || c.w(i) == "expect" || c.w(i) == "per-epoch" || c.w(i) == "runtime" ||
		latencyWord(c.w(i)) || c.w(i) == "latencies") &&
		(i == 0 || !reqStartsNumber(c.w(i-1)) || isParamSize(c.w(i-1)) || valueOfKey(c.w(i-2))):
		// "mistral 7b latency", "batch 32 latency": no target before it
		c.setAsk(AskTime)
		c.latency = c.latency || latencyWord(c.w(i)) || c.w(i) == "latencies"
		n := i + 1
		if c.latency && c.w(n) == "per" && (c.w(n+1) == "token" || c.w(n+1) == "tok") {
			n += 2 // "latency per token": the time of each token, which the answer gives
		}
		c.skip(i, n)
		return n
	case isContextWord(c.w(i+1)) && reqStartsNumber(c.w(i)) && !isContextWord(c.w(i-1)) && reqKeywords[c.w(i-1)].kind != reqKwKey &&
		c.w(i-1) != "=" && (!reqStartsNumber(c.w(i+2)) || c.gpu(c.w(i+2))) && !billions(c.w(i)):
		// "8k context", "4k ctx": the length before its key ("llama 3 8b
		// context" is the model's size, then the word)
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
	case (c.w(i) == "selective" || strings.HasPrefix(c.w(i), "선택적")) && selectiveCkptWords(c.w(i+1), c.w(i+2)) > 0:
		// "selective activation checkpointing", "선택적 체크포인팅", "selective recompute"
		n := i + 1 + selectiveCkptWords(c.w(i+1), c.w(i+2))
		c.emit("selective-ckpt", i, n)
		return n
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
		c.words(i, "least", "number"), (c.w(i) == "fewer" || c.w(i) == "less") && isGPUWord(c.w(i+1)):
		// "which needs fewer gpus, A or B": the count is asked
		c.setAsk(AskCount)
		n := i + 2
		if c.w(i) == "fewest" {
			n = i + 1
		}
		c.skip(i, n)
		return n
	case (c.w(i) == "best" || c.w(i) == "fastest" || c.w(i) == "quickest" || c.w(i) == "cheapest") && (c.w(i+1) == "server" || c.w(i+1) == "box" || c.w(i+1) == "machine"):
		// "best server for qwen2.5 7b", "fastest box for …": which of ours
		c.setAsk(AskWhichServer)
		c.notePreference(c.w(i))
		c.skip(i, i+2)
		return i + 2
	case c.w(i) == "cheapest" || c.w(i) == "best" || c.w(i) == "recommend" || c.w(i) == "recommended":
		if isGPUWord(c.w(i+1)) || c.w(i+1) == "option" || c.w(i+1) == "setup" {
			c.notePreference(c.w(i))
			c.setAsk(AskWhichGPU)
			c.skip(i, i+2)
			return i + 2
		}
	case (c.w(i) == "time" || c.w(i) == "hours" || c.w(i) == "days" || c.w(i) == "duration" || c.w(i) == "runtime") && audioRateAsked(c.ws(i, 8)) == 0 &&
		(i == 0 || !reqStartsNumber(c.w(i-1)) || c.w(i) == "time" && i == len(c.in)-1 ||
			(c.w(i) == "hours" || c.w(i) == "days") && i == len(c.in)-1 && c.question):
		// "… seq 2048 time?": a last "time" asks it, after a number too
		c.setAsk(AskTime)
		c.skip(i, i+1)
		return i + 1
	case (c.w(i) == "possible" || c.w(i) == "doable" || c.w(i) == "feasible" || c.w(i) == "realistic") &&
		(c.w(i+1) == "timeline" || c.w(i+1) == "time" || c.w(i+1) == "timeframe" || c.w(i+1) == "schedule"):
		c.setAsk(AskTime) // "feasible timeline?": the time is asked
		c.skip(i, i+2)
		return i + 2
	case c.words(i, "is", "it", "okay") || c.words(i, "is", "it", "ok") || c.words(i, "is", "that", "okay") || c.words(i, "is", "that", "ok"):
		c.setAsk(AskFit) // "is it okay 4090 one card?": does it work there
		c.skip(i, i+3)
		return i + 3
	case c.w(i) == "possible" || c.w(i) == "doable" || c.w(i) == "feasible" || c.w(i) == "handle" || c.w(i) == "load" ||
		c.w(i) == "ok" && i == len(c.in)-1:
		c.setAsk(AskFit)
		c.skip(i, i+1)
		return i + 1
	case c.w(i) == "host" || c.w(i) == "deploy" || c.w(i) == "serve" || c.w(i) == "locally":
		c.runWord = true
	case (c.w(i) == "embeddings" || c.w(i) == "embedding" || c.w(i) == "embed" || c.w(i) == "encode" || c.w(i) == "encoding") && !trainingSaid(c.in) && !trainWorkloadSaid(c.in) &&
		c.w(i+1) != "model" && c.w(i+1) != "models" && !epochsSaid(c.in):
		// ("an embedding model", "per epoch": the model's kind, and training)
		// "image embeddings for 50M images", "embed 10M docs": running the
		// model forward over the data, whatever amount is said
		c.emit("inference", i, i+1)
		return i + 1
	case (c.w(i) == "embeddings" || c.w(i) == "embedding") && (trainingSaid(c.in) || trainWorkloadSaid(c.in) || epochsSaid(c.in)):
		c.skip(i, i+1) // "finetune the embedding model", "e5-large embeddings … finetune it": the model's kind
		return i + 1
	case (c.w(i) == "run" || c.w(i) == "running") && (runVerb(c.w(i-1)) || c.modalBefore(i)):
		c.runWord = true // "can I run mixtral", not "our run was"
	case c.w(i) == "where" && (c.w(i+1) == "should" || c.w(i+1) == "do" || c.w(i+1) == "can") && c.anyServer():
		c.setAsk(AskWhichServer)
		c.skip(i, i+1)
		return i + 1
	case c.w(i) == "faster" || c.w(i) == "quicker" || c.w(i) == "fastest":
		c.notePreference(c.w(i))
		return c.which(i, 1)
	case (c.w(i) == "no" || c.w(i) == "nope" || c.w(i) == "아니" || c.w(i) == "아니고") && (c.w(i+1) == "=" || c.w(i+1) == "," || c.w(i+1) == "i" && c.w(i+2) == "mean"):
		// "gpt2 small? no: gpt2-large": the model said first is taken back
		c.retractModel()
		c.skip(i, i+2)
		return i + 2
	case c.w(i) == "like" && reqStartsNumber(c.w(i+1)) && c.hardwareBefore() && concurrentWords(c.w(i+2), c.w(i+3)) == 0 && !strings.HasPrefix(c.w(i+2), "user"):
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
	case (c.w(i) == "for" || c.w(i) == "training" || c.w(i) == "running" || c.w(i) == "with" || c.w(i) == "using") && c.measuredJustBefore():
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
	case audioRateAsked(c.ws(i, 8)) > 0:
		// "how many hours of audio can it transcribe per hour", "realtime
		// factor", "x real time": a speech model's rate, in audio time
		n := i + audioRateAsked(c.ws(i, 8))
		c.setAsk(AskTime)
		c.rate, c.audioRate, c.runWord = true, true, true
		c.skip(i, n)
		return n
	case audioRateAsked(c.ws(i, 8)) == 0 && (c.words(i, "how", "long") || c.words(i, "how", "many", "hours") || c.words(i, "how", "many", "days") || c.words(i, "how", "many", "hrs")),
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
	case c.words(i, "how", "many") && concurrentWords(c.w(i+2), c.w(i+3)) > 0:
		// "how many concurrent users", "how many requests at once": the
		// most sequences served together that memory holds
		n := i + 2 + concurrentWords(c.w(i+2), c.w(i+3))
		c.setAsk(AskFit)
		c.maxBatch = true
		c.runWord = true
		c.skip(i, n)
		return n
	case c.words(i, "how", "many") && workUnit(c.w(i+2)) != "" && !rateOrShareAfter(c.w(i+3)):
		// "how many tokens can I pretrain for $5000", "how many epochs in
		// 3 days": the work a budget or a time buys
		c.askAmount(workUnit(c.w(i + 2)))
		c.skip(i, i+3)
		return i + 3
	case c.words(i, "how", "many"):
		c.setAsk(AskCount)
		n := i + 2
		if w := strings.TrimRight(c.w(n), "?"); w == "nodes" || w == "servers" || w == "machines" {
			c.nodesAsked = w != "servers" // "how many nodes?": the GPUs it takes, in machines
			return n + 1
		}
		c.skip(i, n)
		return n
	case c.w(i) == "24/7" || c.w(i) == "round-the-clock" || c.w(i) == "around-the-clock" || c.w(i) == "always-on":
		c.skip(i, i+1) // "serve it 24/7": a served model runs all the time; the card prices an hour and a month
		return i + 1
	case c.words(i, "how", "much") && memoryWord(c.w(i+2)):
		// "how much vram for …", "how much memory does mixtral need"
		c.setAsk(AskFit)
		c.memory = true
		c.skip(i, i+3)
		return i + 3
	case c.words(i, "how", "much") && (c.w(i+2) == "time" || c.w(i+2) == "longer" || c.w(i+2) == "hour" || c.w(i+2) == "hours"):
		c.setAsk(AskTime) // "how much time will it take"
		c.skip(i, i+3)
		return i + 3
	case c.words(i, "how", "much") && speedGainWord(c.w(i+2)):
		// "how much throughput gain", "how much speedup": a rate asked,
		// against 16 bits when one lower format is said
		c.reduceAsked = true
		n := i + 3
		if g := c.w(n); g == "gain" || g == "gains" || g == "improvement" || g == "difference" || g == "boost" {
			n++
		}
		c.setAsk(AskTime)
		c.skip(i, n)
		return n
	case c.w(i) == "cost-wise" || c.w(i) == "costwise" || c.w(i) == "price-wise" || c.w(i) == "money-wise":
		c.setAsk(AskCost) // "3090 vs 4090, cost-wise?"
		c.skip(i, i+1)
		return i + 1
	case (c.w(i) == "which" || c.w(i) == "what") && c.words(i+1, "of", "the") && serverNoun(c.w(i+3), c.w(i+4)):
		c.setAsk(AskWhichServer) // "which of the three servers can hold it"
		n := i + 4
		if !serverNoun(c.w(i+3), "") {
			n++
		}
		c.skip(i, n)
		return n
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
	case (c.w(i) == "alpha" || c.w(i) == "lora-alpha") && (reqStartsNumber(c.w(i+1)) || c.w(i+1) == "=" && reqStartsNumber(c.w(i+2))):
		// "lora r=64 alpha 128": the scale changes nothing the plan counts
		n := i + 2
		if c.w(i+1) == "=" {
			n++
		}
		c.skip(i, n)
		return n
	case c.words(i, "step", "time") && c.stepTimeValue(i+2) > 0:
		// "step time is 2.1s on server-v": seconds a step, measured
		n := c.stepTimeValue(i + 2)
		v, _, _ := reqScanNumber(strings.TrimSuffix(c.w(n-1), "s"))
		c.emit("baseline", i, i+2)
		c.emit(reqTrimNum(v.v), n-1, n)
		c.emit("s/step", n-1, n)
		c.skip(i, n-1)
		return n
	case (c.w(i) == "step" || c.w(i) == "epoch") && (c.w(i+1) == "당" || c.w(i+1) == "per") && reqStartsNumber(c.w(i+2)):
		// "step당 0.8초": the Korean per after the English word
		c.emit("/"+c.w(i), i, i+2)
		return i + 2
	case reqStartsNumber(c.w(i)) && (c.w(i+1) == "out" || c.w(i+1) == "output" && c.w(i+2) != "per" || c.w(i+1) == "generated") && !reqStartsNumber(lastW(c.out)) &&
		c.w(i-1) != "in" && c.w(i-1) != "input" && c.w(i-1) != "prompt" && c.w(i-1) != "/" && c.w(i+2) != "/":
		// "2k prompt and 512 out", "512 output tokens": the output length
		n := i + 2
		if c.w(n) == "tokens" || c.w(n) == "toks" {
			n++
		}
		c.emit("out", i, n)
		c.emit(c.w(i), i, n)
		return n
	case reqStartsNumber(c.w(i)) && c.w(i+1) == "prompts" && (c.w(i-1) == "for" || c.w(i-1) == "of" || c.w(i-1) == "over"):
		c.emit(c.w(i), i, i+1) // "how long for 10k prompts": that many samples, not a prompt's length
		c.emit("samples", i+1, i+2)
		return i + 2
	case reqStartsNumber(c.w(i)) && promptAfter(c.ws(i+1, 2)) > 0 && !reqStartsNumber(lastW(c.out)):
		// "TTFT for 8k prompt", "for 500 token prompts": the input length
		n := i + 1 + promptAfter(c.ws(i+1, 2))
		c.emit("input", i, n)
		c.emit(c.w(i), i, n)
		return n
	case ckptOnOff(c.ws(i, 6)) > 0:
		// "grad checkpointing on vs off", "with vs without checkpointing",
		// "ckpt vs no-ckpt": both planned, side by side
		n := i + ckptOnOff(c.ws(i, 6))
		c.compareCkpt = true
		c.skip(i, n)
		return n
	case ckptNegated(c.ws(i, 4)) > 0:
		// "without gradient checkpointing", "no ckpt", "ckpt off"
		n := ckptNegated(c.ws(i, 4))
		c.emit("no-ckpt", i, i+n)
		return i + n
	case cloudWord(c.w(i)):
		// "in the cloud", "if we rent", "on runpod": the team's servers are
		// not the question
		c.cloud, c.hyperscaler = true, c.hyperscaler || hyperscaler(c.w(i))
		if n := len(c.out); n > 0 && (c.out[n-1].w == "on" || c.out[n-1].w == "in") {
			c.out = c.out[:n-1]
		}
		c.skip(i, i+1)
		return i + 1
	case (c.w(i) == "speed" || c.w(i) == "speedup" || c.w(i) == "speed-up") && (i+1 == len(c.in) || c.w(i+1) == "?" || c.w(i+1) == "difference" || c.w(i+1) == "diff"):
		// "bf16 vs fp8 on h100 speed?", "speed difference": how fast
		c.setAsk(AskTime)
		c.rate = true
		c.runWord = true
		n := i + 1
		if c.w(n) == "difference" || c.w(n) == "diff" {
			n++
		}
		c.skip(i, n)
		return n
	case c.words(i, "how", "fast"), c.words(i, "how", "quick"), c.words(i, "how", "quickly"):
		// "ollama qwen3 14b on 4090 how fast": the rate it runs at
		c.setAsk(AskTime)
		c.rate = true
		c.runWord = true
		c.skip(i, i+2)
		return i + 2
	case c.words(i, "sample", "packing"), c.words(i, "sequence", "packing"), c.words(i, "with", "packing"), c.w(i) == "packing", c.w(i) == "packed":
		// packing is how the planner counts tokens already (every sequence full)
		n := i + 1
		if c.w(i+1) == "packing" {
			n = i + 2
		}
		c.skip(i, n)
		return n
	case nodesAcross(c.w(i), c.w(i+1), c.w(i+2)) && c.splitOverNodes(i):
		return i + 3
	case c.ourServersEnd(i) > i:
		c.setAsk(AskWhichServer)
		if n := len(c.out); n > 0 && (c.out[n-1].w == "on" || c.out[n-1].w == "using") {
			c.out = c.out[:n-1] // "bert-base on our servers": the team's servers, which the plan ranks
		}
		n := c.ourServersEnd(i)
		c.skip(i, n)
		return n
	case (c.w(i) == "which" || c.w(i) == "what") && isGPUWord(c.w(i+1)):
		c.setAsk(AskWhichGPU)
		c.skip(i, i+2)
		return i + 2
	case c.w(i) == "fit" || c.w(i) == "fits" || c.w(i) == "enough" || c.w(i) == "oom":
		c.setAsk(AskFit)
		c.fitWord = c.w(i) != "enough"
		c.skip(i, i+1)
		return i + 1
	}
	if n, ok := c.englishDeadline(i); ok {
		return n
	}
	return i
}
