package lang

import (
	"strconv"
	"strings"
)

// GPUs the asker has, said beside a count question: "we have 8", "do we
// need all 8?", "how many of our 8 h100s", "h100 8장 중에 몇 장", "8장 다
// 필요함?". The count asked is then within them: the answer says how
// many of them the job takes, not the count said back.

// haveCount is the whole number a word says, up to the planner's limit;
// 0 for anything else ("8gb", "1.5", "8x").
func haveCount(w string) int {
	if !digitsOnly(w) {
		return 0
	}
	n, err := strconv.Atoi(w)
	if err != nil || n < 1 || n > reqMaxGPUs {
		return 0
	}
	return n
}

// haveEnds reports whether the word after a count said as possessed
// closes it as GPUs: the end of a sentence, a GPU word or name, "of
// them".
func (c *canonizer) haveEnds(i int) bool {
	w := c.w(i)
	switch {
	case w == "" || w == "," || w == "." || w == "?" || w == "!" || w == "and" || w == "but" || w == "so":
		return true
	case isGPUWord(w) || c.gpu(w) || c.gpu(strings.TrimSuffix(w, "s")):
		return true // "8 h100s"
	case w == "of" && (c.w(i+1) == "them" || c.w(i+1) == "those"):
		return true
	}
	return false
}

// countHaveAt reads the GPUs had at input i and returns where the next
// phrase starts (i when there is none). English consumes the words that
// say the possession and leaves the count to be read as a count; Korean
// marks it and leaves the words to the Korean readers.
func (c *canonizer) countHaveAt(i int) int {
	w := c.w(i)
	switch {
	case w == "all" && haveCount(c.w(i+1)) > 0 && c.haveEnds(i+2):
		// "do we need all 8?", "use all 8 h100s": whether all are needed
		// is how many are
		c.have = haveCount(c.w(i + 1))
		if c.w(i-1) == "need" || c.w(i-1) == "needed" || c.w(i-2) == "need" || c.w(i-1) == "require" {
			c.setAsk(AskCount)
		}
		return c.haveCountRead(i, i+1)
	case (w == "have" || w == "got") && haveCount(c.w(i+1)) > 0 && c.haveEnds(i+2) && !c.pastBefore(i):
		// "how many h100s do we need, we have 8"
		c.have = haveCount(c.w(i + 1))
		return c.haveCountRead(i, i+1)
	case (c.words(i, "of", "our") || c.words(i, "of", "my") || c.words(i, "of", "the") || c.words(i, "out", "of")) &&
		haveCount(c.w(i+2)) > 0 && c.haveEnds(i+3) && c.w(i+3) != "":
		// "how many of our 8 h100s", "out of 8 gpus"
		c.have = haveCount(c.w(i + 2))
		return c.haveCountRead(i, i+2)
	}
	if n := haveCount(w); n > 0 && koCounterWord(c.w(i+1)) {
		switch after := c.w(i + 2); {
		case after == "중에" || after == "중" || after == "중에서":
			c.have = n // "h100 8장 중에 몇 장": of the eight
		case (after == "다" || after == "전부" || after == "모두") && koNeedWord(c.w(i+3)):
			c.have = n // "8장 다 필요함?": whether all eight are needed
			c.setAsk(AskCount)
		}
	}
	return i
}

// haveCountRead skips the words of possession from a to the count at n
// and reads the count there as GPUs: a bare one ("we have 8") as that
// many of the GPU said elsewhere, one before a GPU word or name as the
// count ahead of it.
func (c *canonizer) haveCountRead(a, n int) int {
	c.skip(a, n)
	next := c.w(n + 1)
	c.emit(c.w(n), n, n+1)
	end := n + 1
	switch {
	case next == "of":
		c.emit("gpus", n+1, n+3) // "all 8 of them"
		end = n + 3
	case !isGPUWord(next) && !c.gpu(next) && !c.gpu(strings.TrimSuffix(next, "s")):
		c.emit("gpus", n, n+1)
	}
	return end
}

// koCounterWord reports whether w counts GPUs or machines ("장", "대",
// "개").
func koCounterWord(w string) bool {
	return w == "장" || w == "대" || w == "개"
}

// koNeedWord reports whether w says a need or a use ("필요함", "필요해",
// "써야", "있어야", "쓸").
func koNeedWord(w string) bool {
	for _, p := range []string{"필요", "써야", "있어야", "쓸", "써"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}
