package lang

import (
	"math"
	"strings"
)

// The reading pass's first look at a word, before the readers by kind:
// machines and the GPUs each holds said around a counted GPU, a choice
// said against ("vllm 말고"), and sums of money in won and dollars.

// countsAndMoney reads, at input i, what must be read before the words
// around it take their usual meaning; i when none is there.
func (c *canonizer) countsAndMoney(i int) int {
	if n := c.dataPhrase(i); n > i {
		return n
	}
	if n := c.precisionDenied(i); n > i {
		return n
	}
	if n := c.gpuCountList(i); n > i {
		return n
	}
	if n := c.koStreamsAfter(i); n > i {
		c.korean = true
		return n // "20개 스트림", "20채널"
	}
	if n := c.koParallelism(i); n > i && !isHangulWord(c.w(i)) {
		return n // "context 병렬", "tensor 패러렐"
	}
	if n := c.koDateDeadline(i); n > i {
		c.korean = true
		return n // "12월 15일까지", "다음 달 3일까지", "12/15까지"
	}
	if n := c.inWonAt(i); n > i {
		return n
	}
	if n := c.loadTarget(i); n > i {
		return n // "5k req/min", "for 20k tok/s", "1시간당 100만 토큰 생성해야"
	}
	if w := c.w(i); strings.HasPrefix(w, "chinchilla") || strings.HasPrefix(w, "친칠라") || w == "compute-optimal" || w == "compute-optimally" {
		// "Chinchilla optimal", "친칠라 기준": 20 tokens a parameter
		c.chinchilla = true
		n := i + 1
		if w := c.w(n); w == "optimal" || w == "optimally" || strings.HasPrefix(w, "기준") || strings.HasPrefix(w, "법칙") || w == "scaling" {
			n++
		}
		return n
	}
	if n := c.servingSpan(i); n > i {
		return n // "24/7 for a month", "per month", "월 비용"
	}
	if n := c.optimizer8bit(i); n > i {
		return n // "옵티마이저 8bit", "8-bit optimizer"
	}
	if (c.w(i) == "one" || c.w(i) == "1") && (c.w(i-1) == "quick" || c.w(i+1) == "question" || c.w(i+1) == "q") {
		c.skip(i, i+1) // "quick one:", "one question": no count
		return i + 1
	}
	if n := c.nodesFirst(i); n > i {
		return n // "노드 4개(노드당 h100 8장)": the machines, then what each holds
	}
	if n := c.nodesAfter(i); n > i {
		return n // "h100 8장짜리 2노드", "h100 8장 노드 2개", "8x h100 2 nodes"
	}
	if nx := c.w(i + 1); (nx == "말고" || nx == "아니고" || nx == "대신" || nx == "말고요") && !isHangulWord(c.w(i)) && (engineWords[c.w(i)] != "" || c.gpu(c.w(i))) {
		c.skip(i, i+2) // "vllm 말고 tgi로", "a100 말고 h100": not that one
		return i + 2
	}
	if won, n := koWonAt(c.ws(i, 3)); n > 0 && !strings.HasPrefix(c.w(i-1), "시간당") {
		c.korean = true
		c.wonBudget = won // "예산 300만원", "500만 원으로": a budget in won
		if c.krwPerUSD > 0 {
			c.budget = math.Round(won / c.krwPerUSD)
		}
		return i + n
	}
	if v, n := koDollarsAt(c.w(i), c.w(i+1)); n > 0 && !strings.HasPrefix(c.w(i-1), "시간당") {
		c.korean = true
		c.budget = v // "1000달러로 몇 에폭", "3000달러 안에서": what may be spent
		return i + n
	}
	return c.usdBudget(i)
}

// usdBudget reads a budget said in dollars with the word budget or a
// ceiling: "budget 10k usd", "under 5000 dollars", "10k usd budget",
// "50k budget (in usd)".
func (c *canonizer) usdBudget(i int) int {
	if (c.w(i) == "budget" || c.w(i) == "under" || c.w(i) == "within") && usdAfter(c.w(i+1), c.w(i+2)) > 0 && hourlyPriceAt(c.ws(i, 6)) == 0 && !perHour(c.w(i+3), c.w(i+4)) {
		// "budget 10k usd", "under 5000 dollars": a ceiling on the cost
		c.budget = usdAfter(c.w(i+1), c.w(i+2))
		c.skip(i, i+1)
		return i + 3
	}
	if usdAfter(c.w(i), c.w(i+1)) > 0 && c.w(i+2) == "budget" {
		c.budget = usdAfter(c.w(i), c.w(i+1)) // "10k usd budget"
		c.skip(i+2, i+3)
		return i + 3
	}
	if v, u, ok := reqScanNumber(strings.ReplaceAll(c.w(i), ",", "")); ok && u == "" && v.v > 0 && c.w(i+1) == "budget" && !c.gpu(c.w(i)) {
		// "50k budget (in usd)": a budget, in dollars unless said otherwise
		c.budget = v.v
		n := i + 2
		if c.w(n) == "in" && usdAfter("1", c.w(n+1)) > 0 {
			n += 2
		}
		c.skip(i+1, n)
		return n
	}
	return i
}

// perHour reports whether a, b say "an hour", "per hour" or "/hr": a sum
// before them is an hourly price, not a budget.
func perHour(a, b string) bool {
	return (a == "an" || a == "a" || a == "per" || a == "each") && (b == "hour" || b == "hr" || b == "gpu-hour") || strings.HasPrefix(a, "/h")
}

// optimizer8bit reads an 8-bit optimizer said with the word optimizer
// beside it ("옵티마이저 8bit", "8-bit optimizer", "optimizer 8비트"):
// adam8bit, not int8 weights.
func (c *canonizer) optimizer8bit(i int) int {
	eight := func(w string) bool {
		switch w {
		case "8bit", "8-bit", "8비트", "8bits":
			return true
		}
		return false
	}
	optim := func(w string) bool {
		for _, p := range []string{"optimizer", "optim", "옵티마이저", "옵티마이져", "adam", "adamw", "아담"} {
			if strings.HasPrefix(w, p) {
				return true
			}
		}
		return false
	}
	switch {
	case optim(c.w(i)) && eight(c.w(i+1)):
		c.emit("adam8bit", i, i+2)
		return i + 2
	case eight(c.w(i)) && optim(c.w(i+1)):
		c.emit("adam8bit", i, i+2)
		return i + 2
	}
	return i
}

// inWonAt reads money asked in won at i: "원화로", "원화 기준", "한화로",
// "in KRW", "in won".
func (c *canonizer) inWonAt(i int) int {
	w := c.w(i)
	switch {
	case strings.HasPrefix(w, "원화") || strings.HasPrefix(w, "한화") || w == "krw" || w == "krw로" || w == "krw로?":
		c.inWon = true
		if strings.HasPrefix(c.w(i+1), "기준") {
			return i + 2
		}
		return i + 1
	case w == "in" && (c.w(i+1) == "krw" || c.w(i+1) == "won" || c.w(i+1) == "korean" && strings.HasPrefix(c.w(i+2), "won")):
		c.inWon = true
		if c.w(i+1) == "korean" {
			return i + 3
		}
		return i + 2
	}
	return i
}
