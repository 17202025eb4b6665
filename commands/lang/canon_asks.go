package lang

import "strings"

// The question a request asks: the more specific wins, and whether a
// technique said is needed at all.

func (c *canonizer) setAsk(a Ask) {
	// A more specific question wins over a general one ("how long … and
	// how many"): count and which-server decide the card's shape.
	rank := map[Ask]int{AskNone: 0, AskTime: 1, AskCost: 2, AskFit: 3, AskWhichGPU: 4, AskAmount: 4, AskCount: 5, AskWhichServer: 6}
	if a == AskCost {
		c.costWord = true // a comparison asked in money is a cost question
	}
	c.timeAsked = c.timeAsked || a == AskTime
	if a == AskFit && c.ask == AskTime && c.rate {
		return // "초당 이미지 몇 장 처리 가능?": the rate asked, "가능" its verb
	}
	if rank[a] > rank[c.ask] {
		c.ask = a
	}
}

// needTechnique names the technique a word says that a job can do without
// and someone may ask whether it needs: sharding ("zero3", "fsdp",
// "deepspeed") or gradient checkpointing; "" for anything else.
func needTechnique(w string) string {
	kw, ok := reqKeywords[w]
	switch {
	case !ok:
		return ""
	case kw.kind == reqKwStrategy && kw.val != "ddp", kw.kind == reqKwZero, kw.kind == reqKwDeepspeed:
		return "strategy"
	case kw.kind == reqKwCkpt && kw.val == "", kw.kind == reqKwCkptPrefix && kw.val == "":
		return "ckpt"
	}
	return ""
}

// needAt reads a technique asked whether it is needed ("or do I need
// ZeRO-3?", "need gradient checkpointing?", "zero3 필요해?", "ckpt 켜야
// 돼?"): the question is whether the job fits without it. The technique's
// own word is left to be read, so the plan has it.
func (c *canonizer) needAt(i int) int {
	w := c.w(i)
	if w == "need" || w == "needs" || w == "require" || w == "requires" {
		j := i + 1
		if c.w(j) == "to" && (c.w(j+1) == "use" || c.w(j+1) == "enable" || c.w(j+1) == "turn") {
			j += 2
		}
		if tech := needTechnique(c.w(j)); tech != "" {
			c.needAsked = tech
			c.setAsk(AskFit)
			c.skip(i, j)
			return j
		}
		return i
	}
	if tech := needTechnique(w); tech != "" {
		for _, p := range []string{"필요", "써야", "켜야", "해야", "있어야"} {
			if strings.HasPrefix(c.w(i+1), p) {
				c.needAsked = tech // "zero3 필요해?": read on, the word is the plan's
				c.setAsk(AskFit)
			}
		}
	}
	return i
}
