package lang

import (
	"slices"
	"strconv"
	"strings"
)

// Passes over the reading, once every word is read, that settle where
// the hardware is.

// gpusOnServer reads a count of a team server's own GPU said before the
// server ("we have 8 a100s on server-a", "4x h100 in server-h") as that
// many of the server's GPUs ("server-a x 8"): left as two, the GPUs and
// the server would be set side by side as two setups.
func (c *canonizer) gpusOnServer() {
	for k := 0; k+3 < len(c.out); k++ {
		n, g, next := 0, "", k
		if v, rest, ok := reqScanInt(c.out[k].w); ok && (rest == "" || rest == "x") && !c.gpu(c.out[k].w) {
			n, next = v, k+1
			if c.out[next].w == "x" {
				next++
			}
			if next < len(c.out) && c.gpu(c.out[next].w) {
				g, next = c.out[next].w, next+1
			}
		} else if c.gpu(c.out[k].w) && k+2 < len(c.out) && c.out[k+1].w == "x" {
			if v, rest, ok := reqScanInt(c.out[k+2].w); ok && rest == "" {
				n, g, next = v, c.out[k].w, k+3
			}
		}
		if g == "" || n < 1 || next+1 >= len(c.out) {
			continue
		}
		on, s := c.out[next].w, c.out[next+1].w
		if on != "on" && on != "in" && on != "at" || !c.servers[s] || !strings.Contains(c.serverGPU[s], strings.TrimPrefix(g, "rtx-")) {
			continue
		}
		srv, at := c.out[next+1], c.out[k]
		count := reqToken{raw: at.raw, w: strconv.Itoa(n), start: at.start, end: at.end}
		x := reqToken{raw: at.raw, w: "x", start: at.end, end: at.end}
		c.out = slices.Replace(c.out, k, next+2, srv, x, count)
	}
}

// hardwarePasses are the passes over the reading that settle where the
// hardware is: GPUs said before their team server, a dataset the language
// does not know said where hardware goes.
func (c *canonizer) hardwarePasses() {
	c.gpusOnServer()
	c.unknownDatasetOn()
	c.amountAfterOn()
}

// amountAfterOn reads "on 2m samples", "on 500k korean chat samples" as
// the work, not a GPU count: a number after "on" with its data unit after
// it, the words between (what the samples are) listed as skipped.
func (c *canonizer) amountAfterOn() {
	for k := 0; k+2 < len(c.out); k++ {
		if c.out[k].w != "on" {
			continue
		}
		if v, unit, ok := reqScanNumber(c.out[k+1].w); !ok || v.v <= 0 || unit != "" {
			continue
		}
		for j := k + 2; j < min(k+5, len(c.out)); j++ {
			if u := amountUnitWord(c.out[j].w); u == reqUSamples || u == reqUTokens {
				for _, t := range c.out[k+2 : j] {
					c.skipped = append(c.skipped, t.raw) // "korean chat": what the samples are
				}
				c.out = slices.Delete(c.out, k+2, j)
				c.out[k].w = "of" // the dataset it is trained on
				break
			}
			if _, kw := reqKeywords[c.out[j].w]; kw || c.gpu(c.out[j].w) || c.servers[c.out[j].w] || reqStartsNumber(c.out[j].w) {
				break
			}
		}
	}
}

// unknownDatasetOn reads "on <name> <size>" whose name is no GPU, server,
// model or word of the language ("dpo … on ultrafeedback 60k pairs",
// "clip training on laion 400m") as a dataset named with its size: the
// name is skipped and listed, the size kept (in samples when no unit is
// said). It had been refused as an unknown GPU.
func (c *canonizer) unknownDatasetOn() {
	for k := 0; k+2 < len(c.out); k++ {
		w := c.out[k+1].w
		if c.out[k].w != "on" || !datasetName(w) || c.gpu(w) || c.servers[w] || c.modelKnown != nil && c.modelKnown(w) || isGPUWord(w) || isServerWord(w) {
			continue
		}
		if _, ok := reqKeywords[w]; ok && strings.EqualFold(c.out[k+1].raw, w) || reqUnitClass(w) != reqUUnknown {
			continue // a word of the language, as typed ("laion" read as "lion" is still a name)
		}
		if !strings.EqualFold(c.out[k+1].raw, w) {
			w = strings.ToLower(c.out[k+1].raw)
			if !datasetName(w) || c.gpu(w) {
				continue
			}
		}
		v, unit, ok := reqScanNumber(c.out[k+2].w)
		if !ok || v.v <= 0 || unit != "" && unit != "k" && unit != "m" && unit != "b" || gpuVendors[w] || productNumber(c.out[k+2].w) {
			continue // "on gtx 1660": a card the catalogue lacks, said so
		}
		raw := c.out[k+1].raw
		c.skipped = append(c.skipped, raw)
		c.corrected = slices.DeleteFunc(c.corrected, func(s string) bool { return strings.HasPrefix(s, raw+" → ") })
		c.out = slices.Delete(c.out, k, k+2)
		if k+1 >= len(c.out) || reqUnitClass(c.out[k+1].w) == reqUUnknown && amountUnitWord(c.out[k+1].w) == reqUUnknown {
			at := c.out[k].end
			c.out = slices.Insert(c.out, k+1, reqToken{raw: "samples", w: "samples", start: at, end: at})
		}
	}
}

// datasetName reports whether w could name a dataset: a letter, then at
// least two letters, digits, '-' or '_'.
func datasetName(w string) bool {
	if len(w) < 3 || w[0] < 'a' || w[0] > 'z' {
		return false
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// nodesAskedAt reads a count of machines asked ("how many h100 nodes",
// "how many nodes", "h100 노드 몇 개", "h100 몇 노드"): the count is asked in whole
// nodes of a server's eight GPUs, and the answer says nodes. The words
// are read as said (not listed as skipped); the GPU and the question are
// read as ever.
func (c *canonizer) nodesAskedAt(i int) int {
	w := c.w(i)
	switch {
	case (w == "nodes" || w == "node" || w == "machines" || w == "servers" || w == "boxes") &&
		(c.w(i-1) == "many" || c.gpu(c.w(i-1)) && c.w(i-2) == "many" || isMemWord(c.w(i-1)) && c.w(i-3) == "many"):
		if w == "servers" && c.w(i-1) == "many" {
			return i // "how many servers": the team's servers, asked elsewhere
		}
		c.setAsk(AskCount)
	case strings.HasPrefix(w, "노드") && (strings.HasPrefix(c.w(i+1), "몇") || strings.HasPrefix(w, "노드몇")):
		if strings.HasPrefix(w, "노드몇") {
			c.setAsk(AskCount) // "노드몇개": the "몇" is read with the word
		}
	case strings.HasPrefix(w, "노드") && c.w(i-1) == "몇" || strings.HasPrefix(w, "몇노드"):
		c.setAsk(AskCount) // "h100 몇 노드?", "몇노드"
	default:
		return i
	}
	c.nodesAsked = true
	return i + 1
}

// siblingMemory reads a memory size set against the same GPU's other
// size ("a100 40gb vs 80gb", "a100 40gb랑 80gb 중에"): that GPU with this
// memory, side by side, not the cheapest card of the size. A size said of
// the host's RAM ("+ 64gb ram") is no card at all.
func (c *canonizer) siblingMemory(i int) int {
	w, n := c.w(i), len(c.out)
	if !isMemWord(w) {
		return i
	}
	if next := c.w(i + 1); next == "ram" || next == "dram" || next == "ddr5" || next == "ddr4" || strings.HasPrefix(next, "램") || next == "system" && c.w(i+2) == "ram" {
		c.skip(i, i+2) // "a 4090 + 64gb ram": the host's memory, not a card of that size
		return i + 2
	}
	var gpu reqToken
	switch {
	case n >= 3 && (c.out[n-1].w == "vs" || c.out[n-1].w == "or" || c.out[n-1].w == ",") && isMemWord(c.out[n-2].w) && c.gpu(c.out[n-3].w):
		gpu = c.out[n-3]
	case n >= 2 && isMemWord(c.out[n-1].w) && c.gpu(c.out[n-2].w) && slices.Contains([]string{"랑", "이랑", "하고", "과", "와", "아니면", "or", "vs"}, c.w(i-1)):
		gpu = c.out[n-2]
		c.out = append(c.out, reqToken{raw: c.in[i-1].raw, w: "vs", start: c.in[i-1].start, end: c.in[i-1].end})
	default:
		return i
	}
	c.out = append(c.out, reqToken{raw: gpu.raw, w: gpu.w, start: c.in[i].start, end: c.in[i].start})
	c.emit(w, i, i+1)
	return i + 1
}

// nodeShapeShared gives a node count said with no GPU ("2 nodes of 8x h100
// vs 1 node") the node shape said beside it: the same machines, fewer or
// more of them. Only one shape said is shared; two leave it as it is.
func (c *canonizer) nodeShapeShared() {
	var shape []reqToken
	for k := 1; k+2 < len(c.out); k++ {
		if !nodeWord(c.out[k].w) || c.out[k+1].w != "of" || !reqStartsNumber(c.out[k-1].w) {
			continue
		}
		for j := k + 2; j < min(k+5, len(c.out)); j++ {
			if c.gpu(c.out[j].w) || c.gpu(countedGPU(c.out[j].w)) {
				if shape != nil && !slices.EqualFunc(shape, c.out[k+1:j+1], func(a, b reqToken) bool { return a.w == b.w }) {
					return // two shapes: a bare count is not either's
				}
				shape = c.out[k+1 : j+1]
				break
			}
		}
	}
	if shape == nil {
		return
	}
	shape = slices.Clone(shape)
	for k := 1; k < len(c.out); k++ {
		if !nodeWord(c.out[k].w) || !reqStartsNumber(c.out[k-1].w) || k+1 < len(c.out) && c.out[k+1].w == "of" {
			continue
		}
		at := c.out[k]
		add := make([]reqToken, len(shape))
		for i, t := range shape {
			add[i] = reqToken{raw: t.raw, w: t.w, start: at.end, end: at.end}
		}
		c.out = slices.Insert(c.out, k+1, add...)
		k += len(add)
	}
}

// countedGPU is the GPU of a count glued to it ("8xh100": "h100"); "" for
// anything else.
func countedGPU(w string) string {
	n, g, ok := strings.Cut(w, "x")
	if !ok || !digitsOnly(n) || n == "" {
		return ""
	}
	return g
}
