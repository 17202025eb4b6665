package lang

import "strings"

// cpuOnlyAt reads a model asked to run on the CPU alone: "CPU로만
// 돌리면", "cpu에서 돌려도 돼?", "cpu only", "on the cpu", "without a
// gpu", "GPU 없이". It is llama.cpp's case (a GGUF file read from host
// memory every token), so the phrase reads as `ngl 0` and, with no
// engine named, `llama.cpp`; the answer leads with the CPU's rate. "cpu
// offload", "cpu bandwidth" and "cpu ram" are other words and are left.
func (c *canonizer) cpuOnlyAt(i int) int {
	n := c.cpuOnlyEnd(i)
	if n == i {
		return i
	}
	c.cpuOnly = true
	engine := false
	for k := range c.in {
		if engineWords[strings.TrimLeft(c.w(k), "-")] != "" {
			engine = true
		}
	}
	if !engine {
		c.emit("llama.cpp", i, n)
	}
	c.emit("ngl", i, n)
	c.emit("0", i, n)
	if !c.weightFormatSaid() {
		c.emit("gguf", i, n) // the usual download, Q4_K_M, and said so
	}
	return n
}

// weightFormatSaid reports whether the sentence names the weights'
// precision, GGUF type or quantisation method.
func (c *canonizer) weightFormatSaid() bool {
	for k := range c.in {
		w := c.w(k)
		if _, ok := ggufType(w); ok || quantWords[w] != "" || reqKeywords[w].kind == reqKwPrecision {
			return true
		}
	}
	return false
}

// cpuOnlyEnd is the end of a CPU-only phrase at i, or i.
func (c *canonizer) cpuOnlyEnd(i int) int {
	w, next := c.w(i), c.w(i+1)
	switch {
	case w == "cpu-only" || w == "cpu만" || w == "cpu로만" || w == "cpu로" && !cpuOther(next) || strings.HasPrefix(w, "cpu에서") && !cpuOther(next):
		return i + 1
	case w == "cpu" && (next == "only" || next == "alone" || next == "만" || next == "로만"),
		w == "cpu" && (next == "에서" || next == "로") && !cpuOther(c.w(i+2)):
		return i + 2
	case (w == "on" || w == "with") && next == "cpu" && !cpuOther(c.w(i+2)) && !strings.HasPrefix(c.w(i-1), "layer"):
		if c.w(i+2) == "only" || c.w(i+2) == "alone" {
			return i + 3
		}
		return i + 2
	case (w == "on" || w == "with") && next == "the" && c.w(i+2) == "cpu" && !cpuOther(c.w(i+3)):
		if c.w(i+3) == "only" || c.w(i+3) == "alone" {
			return i + 4
		}
		return i + 3
	case (w == "without" || w == "no") && (next == "gpu" || next == "a" && c.w(i+2) == "gpu"):
		if next == "a" {
			return i + 3
		}
		return i + 2
	case w == "gpu없이" || w == "gpu" && next == "없이":
		if w == "gpu" {
			return i + 2
		}
		return i + 1
	}
	return i
}

// cpuOther reports whether w, after "cpu", makes it another phrase:
// offloading training state, the host's memory or its bandwidth.
func cpuOther(w string) bool {
	switch w {
	case "offload", "offloading", "ram", "memory", "bandwidth", "bw", "adam", "optimizer", "오프로드", "오프로딩", "메모리", "램":
		return true
	}
	return false
}
