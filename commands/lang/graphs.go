package lang

import (
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// The CUDA-graph words: an engine run without CUDA graphs issues every
// operator of a decode step from Python (planner.Job.NoGraphs).
//
//	nographs = "enforce-eager" | "enforce eager" | "cuda-graphs" ("0"|"off")
//	         | ("no"|"without") "cuda" ("graph"|"graphs") | "cuda" ("graph"|"graphs") ("off"|"disabled"|"없이"|"끄고"|…)
//	         | engine "eager" | "tgi" version .
//
// The reading pass (noGraphs) writes the phrases as `enforce-eager`; the
// parser reads that word, `cuda-graphs 0`, "eager" beside an engine and a
// TGI version.
//
// TGI made CUDA graphs its default in 2.0 (text-generation-inference
// #1703, April 2024): a TGI version said below 2 runs without them.

// graphsWord reads the words that turn CUDA graphs off as the reading
// pass writes them (noGraphs) and as a reading restates them:
// `enforce-eager` and `cuda-graphs 0`.
func (p *reqParser) graphsWord(a int) (bool, error) {
	w := strings.TrimLeft(p.tok(a).w, "-")
	end := 0
	switch {
	case w == "enforce-eager" || w == "enforce_eager":
		end = a + 1
	case w == "cuda-graphs" && graphsOffWord(p.tok(a+1).w):
		end = a + 2
	default:
		return false, nil
	}
	p.i = end
	return true, reqSet(p, &p.serve.noGraphs, true, a, end, "engines")
}

// graphsOffWord reports whether w, after "cuda graphs", turns them off.
func graphsOffWord(w string) bool {
	switch w {
	case "0", "off", "disabled", "disable", "false", "none", "없이", "끄고", "꺼", "끈", "끄면", "꺼서", "끄기", "안", "비활성화", "비활성":
		return true
	}
	return false
}

// engineVersion reads a version after the engine's name ("tgi 1.0.3",
// "tgi v2.4"): a TGI before 2.0 runs without CUDA graphs. Another
// engine's version is read and changes nothing.
func (p *reqParser) engineVersion(e planner.Engine) error {
	a := p.i
	major, ok := versionMajor(p.tok(a).w)
	if !ok {
		return nil
	}
	p.i = a + 1
	if e == planner.EngineTGI && major < 2 {
		return reqSet(p, &p.serve.noGraphs, true, a-1, p.i, "engines")
	}
	return nil
}

// versionMajor reads a release number with a dot or a v ("1.0.3",
// "v2", "2.4.1"): a bare number is a count, and "v100" a GPU.
func versionMajor(w string) (int, bool) {
	v, hasV := strings.CutPrefix(w, "v")
	if !hasV && !strings.Contains(v, ".") {
		return 0, false
	}
	parts := strings.Split(v, ".")
	if len(parts) > 3 || parts[0] == "" {
		return 0, false
	}
	for _, s := range parts {
		if s == "" || strings.Trim(s, "0123456789") != "" {
			return 0, false
		}
	}
	major, err := strconv.Atoi(parts[0])
	if len(parts) == 1 && major >= 10 {
		return 0, false // "v100" is a GPU
	}
	return major, err == nil
}

// finishGraphs puts the CUDA-graph words into j: only an engine that runs
// Python captures graphs; "eager" said with one ("vllm eager") is the
// engine's eager mode, not an attention kernel.
func (p *reqParser) finishGraphs(j *planner.Job) error {
	sv := &p.serve
	if j.Engine.Python() && p.attention.set && p.attention.v == planner.Eager {
		j.Attention = planner.AttentionDefault
		sv.noGraphs = reqSlot[bool]{v: true, word: p.attention.word, set: true}
	}
	if !sv.noGraphs.set {
		return nil
	}
	if j.Engine == "" {
		j.Engine = planner.EngineVLLM // --enforce-eager is vLLM's flag, and vLLM the server planned unnamed
	}
	if !j.Engine.Python() {
		return said(en.Tf("`%s` turns off a serving engine's CUDA graphs; %s does not capture them — name vLLM, TGI or SGLang", sv.noGraphs.word, j.Engine), &UserError{Hint: p.tryWithout(sv.noGraphs.word)})
	}
	j.NoGraphs = true
	return nil
}

// noGraphsWord restates NoGraphs in the engine's own flag.
func noGraphsWord(e planner.Engine) string {
	if e == planner.EngineVLLM {
		return "enforce-eager"
	}
	return "cuda-graphs 0"
}

// noGraphsEnd is the end of a phrase at i that turns CUDA graphs off, as
// people put it ("no cuda graphs", "cuda graph 없이", "쿠다 그래프 끄고",
// "eager mode"), or i when none starts there.
func (c *canonizer) noGraphsEnd(i int) int {
	graphAt := func(k int) int {
		w := c.w(k)
		switch {
		case w == "cuda-graph" || w == "cuda-graphs" || w == "cudagraph" || w == "cudagraphs" || w == "쿠다그래프":
			return k + 1
		case (w == "cuda" || w == "쿠다") && (strings.HasPrefix(c.w(k+1), "graph") || strings.HasPrefix(c.w(k+1), "그래프")):
			return k + 2
		}
		return 0
	}
	switch w := c.w(i); {
	case (w == "no" || w == "without") && graphAt(i+1) > 0:
		return graphAt(i + 1)
	case graphAt(i) > 0:
		k := graphAt(i)
		if c.w(k) == "안" || c.w(k) == "=" {
			k++ // "cuda graph 안 쓰고"
		}
		if graphsOffWord(c.w(k)) || strings.HasPrefix(c.w(k), "쓰지") || strings.HasPrefix(c.w(k), "안쓰") || c.w(k) == "쓰고" && c.w(k-1) == "안" {
			return k + 1
		}
	case w == "enforce" && c.w(i+1) == "eager":
		return i + 2
	}
	return i
}

// noGraphs emits the phrase at i as `enforce-eager`, the parser's word;
// it returns i when none starts there.
func (c *canonizer) noGraphs(i int) int {
	n := c.noGraphsEnd(i)
	if n > i {
		c.emit("enforce-eager", i, n)
	}
	return n
}

// mfuAt reads a model FLOPs utilization the request assumes ("MFU 40%
// 가정", "assuming 40% mfu", "mfu를 40%로", "at 0.4 MFU") as the
// parser's `baseline 0.4 mfu`: the plan runs at it on the GPUs named. It
// returns i when none starts there.
func (c *canonizer) mfuAt(i int) int {
	pct := func(k int) (float64, bool) {
		w := strings.TrimSuffix(strings.TrimSuffix(c.w(k), "로"), "으로")
		n, unit, ok := reqScanNumber(w)
		switch {
		case ok && unit == "%":
			return n.v / 100, true
		case ok && unit == "" && c.w(k+1) == "%":
			return n.v / 100, true
		case ok && unit == "" && n.v > 0 && n.v <= 1:
			return n.v, true
		}
		return 0, false
	}
	width := func(k int) int { // the number's words: "40%", or "40" "%"
		if c.w(k+1) == "%" {
			return 2
		}
		return 1
	}
	isMFU := func(w string) bool { return w == "mfu" || strings.HasPrefix(w, "mfu") && isHangulWord(w[3:]) }
	var v float64
	var n int
	switch w := c.w(i); {
	case isMFU(w):
		k := i + 1
		if c.w(k) == "=" || c.w(k) == "of" || c.w(k) == "at" {
			k++
		}
		x, ok := pct(k)
		if !ok {
			return i
		}
		v, n = x, k+width(k)
	case w == "assuming" || w == "assume" || w == "at":
		x, ok := pct(i + 1)
		if !ok || !isMFU(c.w(i+1+width(i+1))) {
			return i
		}
		v, n = x, i+2+width(i+1)
	default:
		x, ok := pct(i)
		if !ok || !isMFU(c.w(i+width(i))) || !strings.ContainsAny(c.w(i)+c.w(i+1), "%") {
			return i
		}
		v, n = x, i+1+width(i)
	}
	if w := c.w(n); strings.HasPrefix(w, "가정") || w == "assumed" || w == "기준" || strings.HasPrefix(w, "정도") {
		n++
	}
	c.emit("baseline", i, n)
	c.emit(strconv.FormatFloat(v, 'g', 4, 64), i, n)
	c.emit("mfu", i, n)
	return n
}
