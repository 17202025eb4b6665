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
	if n > i && c.trainingSaid() {
		// a training's state sent to the CPU ("optimizer를 cpu로 보내면",
		// "cpu로 오프로드하면") is offloading it; else the words are left
		for _, v := range []string{"보내", "내리", "옮기", "옮겨", "빼", "오프로드", "오프로딩", "offload"} {
			if strings.HasPrefix(c.w(n), v) {
				c.emit("offload", i, n+1)
				return n + 1
			}
		}
		return i
	}
	if n == i {
		return i
	}
	c.cpuOnly = true
	return c.emitCPUOnly(i, n)
}

// emitCPUOnly writes the words at i..n as llama.cpp (unless an engine is
// named) with no layer on a GPU, in the usual GGUF file unless a format
// is said.
func (c *canonizer) emitCPUOnly(i, n int) int {
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
	return c.gpuNeededEnd(i)
}

// gpuNeededEnd is the end of a question whether a GPU is needed at all
// ("GPU 꼭 필요한가요?", "gpu 없어도 돼?", "do I need a gpu", "is a gpu
// required"), read as the CPU-only run it asks about: the answer gives
// the CPU's rate and a GPU's beside it. Only for the models llama.cpp
// runs: a speech or vision model's CPU engine is another.
func (c *canonizer) gpuNeededEnd(i int) int {
	n := c.gpuNeededPhrase(i)
	if n == i {
		return i
	}
	for k := range c.in {
		if w := c.w(k); strings.Contains(w, "whisper") || strings.Contains(w, "위스퍼") || strings.Contains(w, "clip") || strings.Contains(w, "vit") || strings.Contains(w, "resnet") {
			return i
		}
	}
	return n
}

// gpuNeededPhrase is the end of the words that ask whether a GPU is
// needed, at i, or i.
func (c *canonizer) gpuNeededPhrase(i int) int {
	w, next := c.w(i), c.w(i+1)
	switch {
	case (w == "gpu" || w == "gpu가" || w == "gpu는") && (next == "꼭" || next == "반드시" || next == "무조건") && strings.HasPrefix(c.w(i+2), "필요"):
		return i + 3
	case (w == "gpu" || w == "gpu가" || w == "gpu는") && (strings.HasPrefix(next, "필요한가") || strings.HasPrefix(next, "필요해") || strings.HasPrefix(next, "필요하나") || strings.HasPrefix(next, "없어도") || strings.HasPrefix(next, "있어야")):
		return i + 2
	case w == "need" && (next == "a" && c.w(i+2) == "gpu" || next == "gpu" || next == "gpus"):
		if next == "a" {
			return i + 3
		}
		return i + 2
	case (w == "gpu" || w == "gpus") && (next == "required" || next == "necessary" || next == "needed"):
		return i + 2
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

// laptopAt reads a laptop or a personal computer as where a model is to
// run ("노트북에서도 돌아가요?", "can I run it on my laptop?", "내 컴퓨터에서"):
// with no GPU named and nothing said about training, it is planned as a
// CPU-only run (the machine's GPU, if any, unknown), and the answer says
// which laptop GPUs hold the file. The words are read either way, not
// left to name a GPU ("unknown GPU laptop").
func (c *canonizer) laptopAt(i int) int {
	n := c.laptopEnd(i)
	if n == i {
		return i
	}
	c.laptop = true
	if c.trainingSaid() || c.anyGPU(0, len(c.in)) {
		c.skip(i, n)
		return n
	}
	c.cpuOnlyEmitted = true
	return c.emitCPUOnly(i, n)
}

// laptopEnd is the end of a laptop phrase at i ("on my laptop", "노트북에서도",
// "my pc", "내 컴퓨터로"), or i.
func (c *canonizer) laptopEnd(i int) int {
	j := i
	if w := c.w(j); w == "on" || w == "in" || w == "with" || w == "using" {
		j++
	}
	if w := c.w(j); w == "my" || w == "a" || w == "the" || w == "our" || w == "내" || w == "제" || w == "개인" || w == "집" {
		j++
	}
	w := c.w(j)
	switch {
	case w == "laptop" || w == "laptops" || w == "notebook":
		return j + 1
	case strings.HasPrefix(w, "노트북") || strings.HasPrefix(w, "랩탑"):
		return j + 1
	case (w == "pc" || w == "computer" || w == "desktop") && j > i && (c.w(j-1) == "my" || c.w(j-1) == "our"),
		(strings.HasPrefix(w, "컴퓨터") || strings.HasPrefix(w, "pc에서") || strings.HasPrefix(w, "pc로")) && j > i && (c.w(j-1) == "내" || c.w(j-1) == "제" || c.w(j-1) == "개인" || c.w(j-1) == "집"):
		return j + 1
	}
	return i
}

// trainingSaid reports whether the sentence says training of any kind.
func (c *canonizer) trainingSaid() bool {
	for _, t := range c.in {
		w := strings.ToLower(t.w)
		for _, p := range []string{"train", "finetun", "fine-tun", "lora", "qlora", "pretrain", "학습", "파인튜닝", "훈련", "sft", "dpo", "orpo", "kto", "grpo", "ppo", "rlhf"} {
			if strings.HasPrefix(w, p) || isHangulWord(p) && strings.Contains(w, p) { // "풀파인튜닝
				return true
			}
		}
	}
	return false
}

// hostWord names the machine a GPU sits in ("on my laptop 4070", "on
// our workstation 3090"): the GPU after it is what is planned.
func hostWord(w string) bool {
	switch w {
	case "laptop", "notebook", "desktop", "workstation", "pc", "rig", "home", "gaming", "local":
		return true
	}
	return false
}
