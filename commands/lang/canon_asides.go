package lang

import "strings"

// asidePhrase reads phrases of chat that restate a part of the request in
// another order or wrap it in a claim (probe 10): "grad acc 16", "full
// params", "is it really 3x faster", "grad ckpt on,",
// "…or do i need 2". It returns the input after what it read, or i.
func (c *canonizer) asidePhrase(i int) int {
	w := c.w(i)
	switch {
	case (w == "grad" || w == "gradient") && (c.w(i+1) == "acc" || c.w(i+1) == "accum" || c.w(i+1) == "accumulate") && reqStartsNumber(c.w(i+2)):
		c.emit("accum", i, i+2) // "grad acc 16": accumulation steps
		return i + 2
	case w == "full" && (c.w(i+1) == "params" || c.w(i+1) == "parameters" || c.w(i+1) == "param" || c.w(i+1) == "parameter") && !reqStartsNumber(c.w(i+2)):
		c.emit("finetune", i, i+2) // "finetune qwen2.5 32b full params": every weight trained
		return i + 2
	case w == "per-gpu" && memoryWord(c.w(i+1)), w == "per" && c.w(i+1) == "gpu" && memoryWord(c.w(i+2)):
		n := i + 2 // "per-gpu memory", "per gpu vram": the peak on each GPU, which the plan gives
		if w == "per" {
			n++
		}
		c.setAsk(AskFit)
		c.memory = true
		c.skip(i, n)
		return n
	case (w == "active" || strings.HasPrefix(w, "활성")) && isParamsSize(c.w(i+1)), isParamsSize(w) && (c.w(i+1) == "active" || strings.HasPrefix(c.w(i+1), "활성")):
		// "Qwen3-30B-A3B는 active 3B라서", "3B active": an MoE's
		// parameters per token, which the model's name already says
		c.skip(i, i+2)
		return i + 2
	case w == "=" && i > 0 && reqKeywords[c.w(i-1)].kind != reqKwKey && (isHangulWord(c.w(i-1)) || c.w(i-1) == "model" || c.w(i-1) == "this" || c.w(i-1) == "estimate"):
		c.skip(i, i+1) // "학습 시간 계산해줘: 7B, …": a sentence's colon, no key's value
		return i + 1
	case c.selfIntro(i) > i:
		n := c.selfIntro(i)
		c.skip(i, n) // "PM인데요", "I'm a data analyst, new here": who asks, not what
		return n
	case launchWord(w) && !reqStartsNumber(c.w(i+1)):
		// "서빙 launch 명령어 알려주세요", "what's the vllm command for it":
		// the card's launch line is the answer
		c.launchAsked = true
		c.skip(i, i+1)
		return i + 1
	case reqStartsNumber(lastW(c.out)) && c.streamsAt(i) > i:
		n := c.streamsAt(i)
		c.emit("streams", i, n) // "10 live streams", "10 real-time audio streams": streams served together
		return n
	case (w == "conc" || w == "concurr") && reqStartsNumber(lastW(c.out)):
		c.emit("concurrent", i, i+1) // "50 conc users"
		return i + 1
	case w == "first" && (c.w(i+1) == "token" || c.w(i+1) == "tok") && (latencyWord(c.w(i+2)) || c.w(i+2) == "time"):
		c.setAsk(AskTime) // "first token latency": the time to the first token
		c.latency, c.runWord = true, true
		c.skip(i, i+3)
		return i + 3
	case speedClaim(w) && claimWord(c.w(i+1)):
		c.skip(i, i+1) // "is it really 3x faster": a claim to check, not three GPUs
		return i + 1
	case w == "on" && (c.w(i+1) == "," || c.w(i+1) == "") && toggleWord(c.w(i-1)):
		c.skip(i, i+1) // "grad ckpt on, zero-2": switched on
		return i + 1
	case (w == "need" || w == "needs" || w == "or") && reqStartsNumber(c.w(i+1)) && c.w(i+2) == "" && c.anyGPU(0, i):
		c.skip(i, i+2) // "is 1 h100 enough … or do i need 2": the plan says whether one does
		return i + 2
	case w == "on" && (c.w(i+1) == "our" || c.w(i+1) == "my" || c.w(i+1) == "the") && dataNoun(c.w(i+2), c.w(i+3)):
		c.skip(i, i+2) // "fine-tune … on our support tickets": the data, not hardware
		return i + 2
	}
	return i
}

// speedClaim reports a ratio said as "3x", "2.5x".
func speedClaim(w string) bool {
	n, ok := strings.CutSuffix(w, "x")
	if !ok || n == "" {
		return false
	}
	_, rest, ok := reqScanNumber(n)
	return ok && rest == ""
}

// claimWord is a comparative a ratio qualifies ("3x faster", "2x cheaper").
func claimWord(w string) bool {
	switch w {
	case "faster", "slower", "quicker", "cheaper", "speedup", "speed-up", "better", "more", "less", "as":
		return true
	}
	return false
}

// toggleWord is a feature switched "on" ("grad ckpt on", "flash on").
func toggleWord(w string) bool {
	switch w {
	case "ckpt", "checkpointing", "checkpoint", "recompute", "flash", "compile", "offload", "offloading", "ac", "sdpa", "liger":
		return true
	}
	return false
}

// dataNoun reports whether a or the word after it names data a model is
// trained on ("support tickets", "internal docs", "own data").
func dataNoun(a, b string) bool {
	for _, w := range []string{a, b} {
		switch strings.TrimSuffix(w, "s") {
		case "ticket", "doc", "document", "convo", "conversation", "chat", "email", "log", "data", "dataset", "corpu", "corpus", "text",
			"transcript", "review", "article", "question", "record", "note", "message", "code", "contract", "report", "faq", "manual", "wiki":
			return true
		}
	}
	return false
}

// aside reads, before the other readers, a bare count standing for the
// data ("llama8b / lora / 50k / 3ep") and Korean shorthand (koAside).
func (c *canonizer) aside(i int) int {
	if w := c.w(i); bareThousands(w) && (c.w(i-1) == "," || c.w(i-1) == "/" || lastW(c.out) == ",") && c.bareDataCount(i+1) && trainsSaid(c.in) {
		c.emit(w, i, i+1) // the data, beside the epochs said apart
		c.emit("samples", i, i+1)
		return i + 1
	}
	if isHangulWord(c.w(i)) {
		return c.koAside(i)
	}
	if next := c.w(i + 1); c.w(i) == "using" && (c.gpu(next) || c.gpu(strings.TrimSuffix(next, "s")) || reqStartsNumber(next) && c.gpu(strings.TrimSuffix(c.w(i+2), "s"))) {
		// "… pretrain a 1.3b model on using h100s", "train it using 4 a100s": the hardware
		if lastW(c.out) == "on" {
			c.skip(i, i+1)
		} else {
			c.emit("on", i, i+1)
		}
		return i + 1
	}
	if n := c.needAt(i); n > i {
		return n // "or do I need ZeRO-3?"
	}
	if w := c.w(i); (w == "on" || w == "in") && c.w(i+1) == "the" && !c.gpu(c.w(i+2)) && (c.w(i+3) == "team" || c.w(i+3) == "teams") {
		c.skip(i, i+4) // "I'm on the design team": who asks, not the hardware
		return i + 4
	}
	if w := c.w(i); (w == "qps" || w == "rps") && reqStartsNumber(c.w(i+1)) && !reqStartsNumber(c.w(i-1)) {
		// "(QPS 10)": the unit said first; after "초당 요청 10개" it says
		// the same rate again, else it is the rate
		for k := len(c.out) - 1; k >= 0 && k >= len(c.out)-3; k-- {
			if c.out[k].w == "qps" || c.out[k].w == "req/s" || c.out[k].w == "rate" {
				c.skip(i, i+2)
				return i + 2
			}
		}
		c.emit(c.w(i+1), i, i+2) // both over the two words: the number is said after its unit
		c.emit("qps", i, i+2)
		return i + 2
	}
	if w := c.w(i); (w == "fine-tunes" || w == "finetunes" || w == "runs" || w == "trainings") && c.howManyBefore(i) {
		// "how many full fine-tunes of … can we afford": runs of the job,
		// each one pass over the data said
		c.askAmount("epochs")
		c.skip(i, i+1)
		return i + 1
	}
	if c.words(i, "keep", "up") {
		c.setAsk(AskFit) // "can it keep up with 10 live streams": whether it serves the load
		c.skip(i, i+2)
		return i + 2
	}
	if c.w(i) == "same" && (isGPUWord(c.w(i+1)) || c.w(i+1) == "machine" || c.w(i+1) == "box" || c.w(i+1) == "server" || c.w(i+1) == "node") {
		c.skip(i, i+2) // "on the same gpu": together, as the reading of the two models says
		if n := len(c.out); n > 0 && c.out[n-1].w == "on" && c.w(i+2) == "on" {
			c.out = c.out[:n-1] // "on the same gpu on an a100": the GPU is the second "on"'s
		}
		return i + 2
	}
	if c.w(i) == "same" && (c.gpu(c.w(i+1)) || c.gpu(strings.TrimSuffix(c.w(i+1), "s"))) {
		c.skip(i, i+1) // "on the same a100"
		return i + 1
	}
	if buyWord(c.w(i)) || c.words(i, "new", "server") && c.w(i-1) != "our" {
		c.buying = true // "we're buying a new server for …": GPUs to buy
		c.skip(i, i+1)
		return i + 1
	}
	return i
}

// koAside reads Korean chat shorthand the lexicon's words do not: "동접100",
// "동시접속 50" (users at once with no 명 after the number), "배치 글로벌
// 128" (the global batch, said batch first).
func (c *canonizer) koAside(i int) int {
	w := c.w(i)
	if w == "당" && (c.w(i-1) == "gpu" || c.w(i-1) == "카드") {
		c.skip(i, i+1) // "gpu당 메모리": each GPU's, as the plan gives it
		return i + 1
	}
	if next := c.w(i + 1); (w == "하나" || w == "하나만" || w == "한가지" || w == "한가지만") &&
		(strings.HasPrefix(next, "여쭤") || strings.HasPrefix(next, "물어") || strings.HasPrefix(next, "질문") || strings.HasPrefix(next, "궁금") || strings.HasPrefix(next, "여쭙")) {
		c.skip(i, i+1) // "하나 여쭤봐도 될까요": one question, not one GPU
		return i + 1
	}
	if next := c.w(i + 1); (w == "몇으로" || w == "몇로" || w == "몇까지로") && (strings.HasPrefix(next, "줄") || strings.HasPrefix(next, "낮")) {
		// "배치 8로 하면 메모리 터지는데 몇으로 줄여야 돼?": the batch that fits
		c.ask = AskNone
		c.setAsk(AskFit)
		c.maxBatch = true
		c.skip(i, i+2)
		return i + 2
	}
	if koBuyWord(w) {
		c.buying = true // "서버 새로 사려는데 뭐 사야돼": GPUs to buy, not the team's
		c.skip(i, i+1)
		return i + 1
	}
	if strings.HasPrefix(w, "빌려") || strings.HasPrefix(w, "빌리") || strings.HasPrefix(w, "대여") {
		c.cloud = true // "gpu 뭐 빌려야돼": rented GPUs, not the team's
		c.skip(i, i+1)
		return i + 1
	}
	if w == "배치" && (c.w(i+1) == "글로벌" || c.w(i+1) == "전체") && reqStartsNumber(c.w(i+2)) {
		c.emit("batch", i, i+2)
		return i + 2
	}
	if (w == "배치" || w == "배치사이즈") && reqStartsNumber(c.w(i+1)) && strings.HasPrefix(c.w(i+2), "씩") {
		c.emit("micro", i, i+1) // "4장 배치 32씩": 32 on each GPU
		c.emit(c.w(i+1), i+1, i+2)
		c.skip(i+2, i+3)
		return i + 3
	}
	if (w == "동접" || w == "동시접속" || w == "동접자") && reqStartsNumber(c.w(i+1)) {
		if _, unit, ok := reqScanNumber(c.w(i + 1)); ok && unit == "" && !strings.HasPrefix(c.w(i+2), "명") {
			c.emit("concurrency", i, i+1)
			c.emit(c.w(i+1), i+1, i+2)
			return i + 2
		}
	}
	return i
}

// bareThousands reports a count in thousands or millions with no unit
// ("50k", "1.2M").
func bareThousands(w string) bool {
	n, unit, ok := reqScanNumber(w)
	return ok && unit == "" && (n.mult == 'k' || n.mult == 'm')
}

// trainsSaid reports a training word or a training workload's name
// ("lora", "qlora", "sft", "로라").
func trainsSaid(in []reqToken) bool {
	if trainingSaid(in) {
		return true
	}
	for _, t := range in {
		switch t.w {
		case "lora", "qlora", "sft", "dpo", "ft", "finetune", "fine-tune", "pretrain", "로라", "큐로라":
			return true
		}
	}
	return false
}

// oneMachine drops "노드 하나", "서버 하나" after a GPU: one machine of them
// is the GPUs already counted ("8x H100 노드 하나 빌리면"); alone, 하나
// would count GPUs a second time ("a10 하나"); "gpu 서버 하나" is one
// machine of GPUs not named, no count of them.
func (c *canonizer) oneMachine() {
	for k := 1; k < len(c.in); k++ {
		if c.in[k].w != "하나" || !machineWord(c.w(k-1)) || !c.anyGPU(max(0, k-4), k-1) && c.w(k-2) != "gpu" {
			continue
		}
		c.in = append(c.in[:k-1], c.in[k+1:]...)
	}
}

// koBuyWord reports whether w says buying ("사려는데", "사야돼", "살까",
// "구매", "구입"): "사" alone is too short to be sure of, so only its
// forms of intent count.
func koBuyWord(w string) bool {
	for _, p := range []string{"사려", "사야", "살까", "살려", "사고싶", "사고 싶", "살건데", "살 건데", "구매", "구입"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// buyWord reports whether an English word says buying ("buy",
// "buying", "purchase").
func buyWord(w string) bool {
	switch w {
	case "buy", "buying", "bought", "purchase", "purchasing", "procure", "procuring":
		return true
	}
	return false
}

// howManyBefore reports whether "how many" comes within the three words
// before i ("how many full fine-tunes").
func (c *canonizer) howManyBefore(i int) bool {
	for k := max(0, i-4); k < i; k++ {
		if c.words(k, "how", "many") {
			return true
		}
	}
	return false
}

// streamsAt reads the words between a number and "streams" that say what
// kind they are ("live", "real-time", "real time", "audio"): the end of
// "streams" (or "channels"), or i when the words are not such.
func (c *canonizer) streamsAt(i int) int {
	for k := i; k < i+4; k++ {
		switch c.w(k) {
		case "live", "real-time", "realtime", "audio", "speech", "voice", "transcription":
			continue
		case "real":
			if c.w(k+1) == "time" {
				k++
				continue
			}
		case "streams", "stream", "channels":
			if k > i {
				return k + 1
			}
		}
		return i
	}
	return i
}

// isParamsSize reports whether w is a parameter count ("3B", "30b",
// "3B라서", "30B를"): a number with a b (or m) for billions.
func isParamsSize(w string) bool {
	w = strings.TrimRightFunc(w, isHangul)
	if !reqStartsNumber(w) {
		return false
	}
	n, unit, ok := reqScanNumber(strings.ToLower(w))
	return ok && unit == "" && n.mult == 'b'
}

// batchJobWord reports whether w, after "batch", says offline work
// ("batch inference", "배치 추론", "batch 전사") rather than a batch size.
func batchJobWord(w string) bool {
	switch w {
	case "inference", "inferencing", "job", "jobs", "mode", "processing", "transcription", "scoring", "prediction", "predictions", "embedding", "embeddings":
		return true
	}
	for _, p := range []string{"추론", "처리", "전사", "작업", "임베딩", "돌리"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// launchWord reports whether w asks for the command that starts the job:
// "launch", "command", "명령어", "커맨드", "실행법".
func launchWord(w string) bool {
	switch w {
	case "launch", "command", "cmd", "commandline", "command-line":
		return true
	}
	for _, p := range []string{"명령어", "커맨드", "실행법", "실행명령", "런치"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// kvCacheContext reads a bare length right after "kv cache" as the
// context it holds ("kv cache 128k면 몇기가"); n when none is there.
func (c *canonizer) kvCacheContext(n int) int {
	num := strings.TrimRight(c.w(n), "면은이가")
	v, unit, ok := reqScanNumber(num)
	if !ok || !reqStartsNumber(num) || unit != "k" && unit != "" || v.v < 512 || isContextWord(c.w(n+1)) || reqUnitClass(c.w(n+1)) > reqUUnknown {
		return n
	}
	c.emit("ctx", n, n+1)
	c.emit(num, n, n+1)
	return n + 1
}

// selfIntro reads the asker introducing themselves: "I'm a data analyst,"
// (up to the comma) or "PM인데요", "백엔드 개발자인데" (a role before a
// copula); the end of it, or i when none is there. A model, a GPU or a
// number in it makes it no introduction.
func (c *canonizer) selfIntro(i int) int {
	plain := func(w string) bool {
		return w != "" && !reqStartsNumber(w) && !c.gpu(w) && (c.modelKnown == nil || !c.modelKnown(w)) && (c.familyLike == nil || !c.familyLike(w))
	}
	if c.w(i) == "i" && (c.w(i+1) == "a" || c.w(i+1) == "an") {
		for k := i + 2; k < i+7 && k < len(c.in); k++ {
			switch w := c.w(k); {
			case w == "," || w == ".":
				if k > i+2 {
					return k + 1
				}
				return i
			case !plain(w):
				return i
			}
		}
		return i
	}
	if w := c.w(i); !isHangulWord(w) && plain(w) && len(w) <= 12 {
		for _, p := range []string{"인데", "입니다", "이에요", "예요", "이고요"} {
			if strings.HasPrefix(c.w(i+1), p) && (i == 0 || c.w(i-1) == "," || c.w(i-1) == "." || isHangulWord(c.w(i-1))) {
				return i + 2
			}
		}
	}
	return i
}

// ourServersEnd is the end of "our servers" at i ("our server", "our
// machines", "our own servers", "our team's gpus"), or i.
func (c *canonizer) ourServersEnd(i int) int {
	if c.w(i) != "our" {
		return i
	}
	k := i + 1
	if w := c.w(k); w == "own" || w == "team's" || w == "in-house" {
		k++
	}
	switch c.w(k) {
	case "servers", "server", "machines", "boxes":
		return k + 1
	case "gpus":
		if k > i+1 {
			return k + 1 // "our own gpus"; "our gpus" alone is left to the readers
		}
	}
	return i
}
