package lang

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// ---------------------------------------------------------------------------
// Hardware: on h100x2, on 2x h100, on H100 x 2, on 2 nodes of 8x h100

// hardwareList reads hardware entries after `on` or `compare`, separated
// by commas, `and` or `vs`. With must, the first entry has to be there;
// the others are read while they look like hardware.
func (p *reqParser) hardwareList(must bool) error {
	for n := 0; ; n++ {
		save := p.i
		commit := must && n == 0
		if n > 0 {
			sep := false
			for reqListSeps[p.tok(p.i).w] {
				p.i++
				sep = true
			}
			// after a separator, a word nothing else reads and that is
			// close to a GPU name is a GPU typo ("h100, a1000")
			if sep && p.i < len(p.toks) && !p.known(p.i) {
				sug := p.suggest(p.tok(p.i).w, nil)
				commit = p.gpuSet[sug]
			}
		}
		hw, ok, err := p.hardware(commit)
		if err != nil {
			return err
		}
		if !ok {
			p.i = save
			return nil
		}
		p.req.Targets = append(p.req.Targets, hw)
		p.counted = append(p.counted, p.lastCounted)
	}
}

// hardware reads one entry at p.i. Without commit it gives up quietly
// (ok false, p.i unchanged) when the words do not look like hardware; with
// commit, or once a count marker ("2x", "nodes") has been read, it fails
// with an error that names the word.
//
// hardware stays one function on purpose: the forms of a GPU count (before,
// after, fused, node groups, servers) share its cursor and its one rule for
// when a word commits to being hardware.
func (p *reqParser) hardware(commit bool) (planner.Hardware, bool, error) {
	a := p.i
	fail := func() (planner.Hardware, bool, error) {
		p.i = a
		return planner.Hardware{}, false, nil
	}
	t := p.tok(p.i)
	if t.w == "" {
		if commit {
			return planner.Hardware{}, false, said(en.T("which GPUs? the request ends where hardware should be"), &UserError{Hint: p.drop(p.i-1, p.i, reqEg("on h100x2"))})
		}
		return fail()
	}
	if srv, ok := p.servers[t.w]; ok {
		// "on server-h", "server-h x 2" (two of its GPUs)
		p.i++
		n := srv.Count
		if p.tok(p.i).w == "x" {
			if k, rest, ok := reqScanInt(p.tok(p.i + 1).w); ok && rest == "" {
				n = k
				p.i += 2
			}
		} else if k, rest, ok := reqScanInt(strings.TrimPrefix(p.tok(p.i).w, "x")); ok && rest == "" && strings.HasPrefix(p.tok(p.i).w, "x") {
			n = k // "lion x4"
			p.i++
		}
		return p.serverPart(srv, n, a)
	}
	if p.serverLike(t.w) {
		return planner.Hardware{}, false, p.unknownServer(p.i) // "on server-x"
	}
	if productNumber(t.w) && !p.isGPU(t.w) && !p.isGPU(p.tok(p.i+1).w) && p.tok(p.i+1).w != "x" {
		// "on a 1660": a card the catalogue lacks, not a count
		return planner.Hardware{}, false, p.notInCatalogue(t.raw)
	}
	// "2 nodes of 8x h100"
	if n, rest, ok := reqScanInt(t.w); ok && !p.isGPU(t.w) {
		j := -1
		switch {
		case reqUnitClass(rest) == reqUNodes:
			j = p.i + 1
		case rest == "" && reqUnitClass(p.tok(p.i+1).w) == reqUNodes:
			j = p.i + 2
		}
		if j >= 0 {
			p.i = j
			for w := p.tok(p.i).w; w == "of" || w == "with" || w == "x" || w == "*" || w == "=" || w == "each"; w = p.tok(p.i).w {
				p.i++
			}
			innerAt := p.i
			inner, _, err := p.hardware(true)
			if err != nil {
				return inner, false, err
			}
			if !p.lastCounted && inner.Server == "" {
				// "2 node h100", "h100 노드 4개": a node with no count of its
				// own is a server's eight, as HGX and DGX machines hold
				inner.Count = nodeGPUs
				p.lastCounted = true
				p.note(en.Tf("%d nodes of %s with no count a node: %d GPUs each, as HGX/DGX servers hold (say `%d nodes of 4x %s` for others)", n, inner.GPU.ID, nodeGPUs, n, inner.GPU.ID))
			}
			if inner.GPUsPerNode > 0 {
				return inner, false, said(en.Tf("`%s` nests nodes in nodes", p.span(a, p.i)), &UserError{Hint: p.drop(a, p.i, reqEg("on 2 nodes of 8x h100"))})
			}
			// A node group may total up to reqMaxGPUs, as
			// published runs do (Llama 3.1 405B: 2048 nodes of 8x h100).
			if n < 1 || n*inner.Count > reqMaxGPUs {
				return inner, false, said(en.Tf("`%s` is %s GPUs; a plan takes 1 to %d", p.span(a, p.i), reqCountText(n, inner.Count), reqMaxGPUs), &UserError{Hint: p.drop(a, innerAt, reqEg("on 2 nodes of 8x "+inner.GPU.ID))})
			}
			hw := inner
			hw.Count, hw.GPUsPerNode = n*inner.Count, inner.Count
			if n > 1 && hw.Interconnect == planner.InterconnectAuto {
				hw.Interconnect = planner.IB
			}
			return hw, true, nil
		}
	}
	count, countTok := 0, -1
	first, firstTok := t.w, p.i
	if n, rest, ok := reqScanInt(t.w); ok && !p.isGPU(t.w) {
		switch {
		case rest == "x" || rest == "*":
			count, countTok, commit = n, p.i, true
			p.i++
			first, firstTok = p.tok(p.i).w, p.i
		case rest == "" && (p.tok(p.i+1).w == "x" || p.tok(p.i+1).w == "*"):
			count, countTok, commit = n, p.i, true
			p.i += 2
			first, firstTok = p.tok(p.i).w, p.i
		case rest == "":
			count, countTok = n, p.i
			p.i++
			first, firstTok = p.tok(p.i).w, p.i
		case rest[0] == 'x' || rest[0] == '*':
			count, countTok, commit = n, p.i, true
			first = rest[1:] // "2xh100"
		default:
			if commit {
				return planner.Hardware{}, false, said(en.Tf("`%s` is not a GPU count; counts are whole numbers, like `on 2x h100`", reqShort(t.raw)), &UserError{
					Hint: p.drop(a, a+1, reqEg("on 2x h100"))})
			}
			return fail()
		}
	}
	if srv, ok := p.servers[first]; ok && countTok >= 0 {
		// "2 x server-h", "server-h 2장" read the other way round
		p.i = firstTok + 1
		return p.serverPart(srv, count, a)
	}
	m, ok := p.gpuName(firstTok, first)
	if !ok {
		if first == p.tok(firstTok).w && (productNumber(first) || gpuVendors[first] && modelNumber(p.tok(firstTok+1).w)) {
			// "2 1660s", "gtx 1660": a card the catalogue lacks; its
			// model number is part of its name, not a count
			return planner.Hardware{}, false, p.unknownGPU(firstTok, first, count)
		}
		if !commit {
			return fail()
		}
		return planner.Hardware{}, false, p.unknownGPU(firstTok, first, count)
	}
	if v := p.tok(m.next).w; v == "ti" || v == "super" {
		// "3060 ti", "4070 super": a variant the catalogue lacks is
		// another card (the 3060 Ti has 8 GB to the 3060's 12), not the
		// base card with a word skipped
		return planner.Hardware{}, false, p.notInCatalogue(p.span(firstTok, m.next+1))
	}
	p.i = m.next
	if m.sfxTok < 0 {
		// "h100 x2", "H100 x 2"
		w := p.tok(p.i).w
		if w == "x" || w == "*" {
			if n, rest, ok := reqScanInt(p.tok(p.i + 1).w); ok && rest == "" {
				m.sfx, m.sfxTok = n, p.i+1
				p.i += 2
			}
		} else if len(w) > 1 && (w[0] == 'x' || w[0] == '*') {
			if n, rest, ok := reqScanInt(w[1:]); ok && rest == "" {
				m.sfx, m.sfxTok = n, p.i
				p.i++
			}
		}
	}
	if m.sfxTok >= 0 {
		// "one HGX H200 node (8 GPUs)", "노드 하나(A100 8장)": one machine,
		// then its GPUs; "8 h100s (8 gpus)" says the same count twice
		if countTok >= 0 && !(count == 1 && m.sfx > 1 && p.machineWordNear(a, p.i)) {
			return planner.Hardware{}, false, said(en.Tf("`%s` gives the GPU count twice", p.span(a, p.i)), &UserError{
				Hint: p.try(a, p.i, fmt.Sprintf("%dx %s", count, m.g.ID))})
		}
		count, countTok = m.sfx, m.sfxTok
	}
	p.lastCounted = countTok >= 0
	if countTok < 0 {
		count = 1
	}
	if w := p.tok(p.i).w; w == "gpu" || w == "gpus" || w == "cards" || w == "card" {
		p.i++
	}
	hw := planner.Hardware{GPU: m.g, Count: count}
	j := p.i
	if w := p.tok(j).w; w == "with" || w == "over" || w == "via" {
		j++
	}
	if kw, ok := reqKeywords[p.tok(j).w]; ok && kw.kind == reqKwInterconnect {
		hw.Interconnect = planner.Interconnect(kw.val)
		p.i = j + 1
		// "8x a100 pcie" is the PCIe card, as "a100 pcie" is, when there is one
		if hw.Interconnect == planner.PCIe && !strings.Contains(m.name, "pcie") {
			if g, res, err := p.cat.GPU(m.name + "-pcie"); err == nil {
				hw.GPU, hw.Interconnect, m.res = g, planner.InterconnectAuto, res
			}
		}
	}
	if count < 1 || count > reqMaxGPUs {
		return hw, false, said(en.Tf("GPU count %d in `%s` is out of range — a plan takes 1 to 100,000 GPUs",
			count, p.span(a, max(m.next, countTok+1))), &UserError{
			Hint: p.try(a, p.i, m.name)})
	}
	p.noteRes(m.res)
	return hw, true, nil
}

// nodeGPUs is a node's GPUs when a request does not say: an HGX or DGX
// server's eight.
const nodeGPUs = 8

func reqCountText(n, per int) string {
	if n > 1e6 || per > 1e6 {
		return "too many"
	}
	return strconv.Itoa(n * per)
}

// reqSplitCount splits a fused count suffix: "h100x2" → "h100", 2.
func reqSplitCount(w string) (string, int, bool) {
	k := strings.LastIndexAny(w, "x*")
	if k <= 0 || k == len(w)-1 {
		return "", 0, false
	}
	n, rest, ok := reqScanInt(w[k+1:])
	if !ok || rest != "" {
		return "", 0, false
	}
	return w[:k], n, true
}

// reqGPUMatch is a GPU name read from the request.
type reqGPUMatch struct {
	g      planner.GPU
	res    planner.Resolution
	name   string // the name that resolved ("rtx4090", "a100-80gb")
	next   int    // the token after the name
	sfx    int    // a count fused to the name ("h100x2")
	sfxTok int    // its token, or -1
}

// gpuName resolves a GPU name at token i whose text is first (the token,
// or its tail after a fused count as in "2xh100"). It reads a vendor word
// before it ("nvidia h100", "rtx 4090"), a fused count after it ("h100x2"),
// a plural ("a100s") and qualifier words ("a100 80gb", "h100 pcie").
func (p *reqParser) gpuName(i int, first string) (reqGPUMatch, bool) {
	m := reqGPUMatch{sfxTok: -1}
	if first == "" {
		return m, false
	}
	j, w, prefix := i, first, ""
	if first == p.tok(i).w {
		switch w {
		case "nvidia", "amd", "tesla", "instinct", "quadro":
			if j+1 < len(p.toks) {
				j++
				w = p.tok(j).w
			}
		}
		if (w == "rtx" || w == "geforce") && j+1 < len(p.toks) {
			prefix = w
			j++
			w = p.tok(j).w
		}
	}
	resolve := func(name string) bool {
		cands := []string{name}
		if prefix != "" {
			cands = []string{prefix + name, name}
		}
		if strings.HasSuffix(name, "s") && len(name) > 2 {
			cands = append(cands, strings.TrimSuffix(name, "s")) // "a100s"
		}
		for _, c := range cands {
			if g, res, err := p.cat.GPU(c); err == nil {
				m.g, m.res, m.name = g, res, c
				return true
			}
		}
		return false
	}
	if !resolve(w) {
		head, n, ok := reqSplitCount(w)
		if !ok || !resolve(head) {
			return m, false
		}
		m.sfx, m.sfxTok = n, j
	}
	// qualifier words: "a100 80gb", "h100 pcie", "rtx 6000 ada"
	for j+1 < len(p.toks) {
		q := p.tok(j + 1).w
		if kw, isKw := reqKeywords[q]; isKw && kw.kind != reqKwInterconnect || !strings.ContainsAny(q, "abcdefghijklmnopqrstuvwxyz") {
			break
		}
		name := m.name + "-" + q
		g, res, err := p.cat.GPU(name)
		if err != nil && m.sfxTok < 0 {
			if head, n, ok := reqSplitCount(q); ok {
				name = m.name + "-" + head
				if g, res, err = p.cat.GPU(name); err == nil {
					m.sfx, m.sfxTok = n, j+1
				}
			}
		}
		if err != nil {
			break
		}
		m.g, m.res, m.name = g, res, name
		j++
	}
	m.next = j + 1
	return m, true
}

// unknownGPU is the error for a word where a GPU name should be.
func (p *reqParser) unknownGPU(i int, name string, count int) error {
	t := p.tok(i)
	if i >= len(p.toks) {
		return said(en.Tf("which GPU? `%s` names none, like `on %dx h100`", p.span(p.i-1, p.i), max(count, 1)), &UserError{Hint: p.gpuFamilies()})
	}
	if head, _, ok := reqSplitCount(name); ok {
		name = head
	}
	if name == "gpu" || name == "gpus" || name == "cards" {
		return said(en.Tf("which GPU? `%s` does not say — name it, like `on 8x h100`", reqShort(t.raw)), &UserError{Hint: p.gpuFamilies()})
	}
	if gpuVendors[name] && name == t.w {
		return p.vendorGPU(i) // "gtx 1660", "tpu v4"
	}
	if name == "cpu" || name == "cpus" || name == "cpu-only" || strings.HasPrefix(name, "cpu") && strings.Contains(p.text, "only") {
		// "on a cpu only server?": no GPU at all
		return said(en.T("gpuplan plans GPUs, not a CPU-only server. llama.cpp and Ollama do run on a CPU alone: each token reads every weight from RAM, so tokens/s is about the RAM bandwidth over the model file's size (60 GB/s of dual-channel DDR5 over a 2 GB 3B Q4_K_M file: about 30). With a GPU and layers kept on the CPU, say `ngl 0` (all on the CPU) or `ngl 20`"),
			&UserError{Hint: reqEg("llama-3.2-3b inference llama.cpp q4_k_m ngl 0 on 1x rtx-3060")})
	}
	if appleSilicon(name) {
		mac := reqShort(t.raw)
		if stem, _, ok := koStem(t.raw); ok && isHangulWord(t.raw) {
			mac = stem // "맥북에서": the Mac, without its particle
		}
		return said(en.Tf("`%s` is Apple silicon: gpuplan plans NVIDIA and AMD GPUs, and Macs are not in its catalogue", mac), &UserError{Hint: p.gpuFamilies()})
	}
	shown := name
	if name == t.w {
		shown = t.raw
	}
	if productNumber(name) {
		return p.notInCatalogue(shown) // "1660" is a card, not a slip of another
	}
	sug := p.nearestGPU(name)
	if sug == "" {
		return said(en.Tf("unknown GPU `%s`", reqShort(shown)), &UserError{Hint: p.gpuFamilies()})
	}
	return said(en.Tf("unknown GPU `%s` — did you mean `%s`?", reqShort(shown), sug), &UserError{Hint: p.fix(i, i+1, strings.Replace(t.w, name, sug, 1))})
}

// ---------------------------------------------------------------------------
// Baseline: baseline 5.67 h/epoch on 4x v100-32gb

// baseline reads a measured run: a value with a rate or duration unit, the
// hardware it ran on (its own `on`, which is not a target) and optionally
// the precision it ran in, in any order within the clause.
func (p *reqParser) baseline(a int) error {
	if p.req.Baseline != nil {
		return said(en.Tf("a second `%s`: give one measured run", p.toks[a].raw), &UserError{Hint: p.try(a, a+1, "")})
	}
	b := &planner.Baseline{}
	p.baselineAt = a
	haveValue, haveHW := false, false
	for {
		if p.tok(p.i).w == "," && !haveHW && len(p.req.Targets) == 1 && !p.req.Compare && p.toks[a].w != "baseline" {
			// "lora on 8x v100 took 20 hours, how long on a100s?": the
			// hardware before the run is its own; after the comma comes
			// the question's
			break
		}
		for p.tok(p.i).w == "=" || p.tok(p.i).w == "of" || p.tok(p.i).w == "at" || p.tok(p.i).w == "," {
			p.i++
		}
		w := p.tok(p.i).w
		switch {
		case !haveValue && reqStartsNumber(w) && !p.looksHardware():
			if err := p.rate(b, a); err != nil {
				return err
			}
			haveValue = true
			continue
		case !haveHW && w == "on":
			p.i++
			hw, _, err := p.hardware(true)
			if err != nil {
				return err
			}
			b.Hardware, haveHW = hw, true
			continue
		case !haveHW && p.looksHardware():
			hw, ok, err := p.hardware(false)
			if err != nil {
				return err
			}
			if ok {
				b.Hardware, haveHW = hw, true
				continue
			}
		case b.Precision == "":
			if kw, ok := reqKeywords[w]; ok && kw.kind == reqKwPrecision && kw.val != "amp" && kw.val != "mixed" {
				b.Precision = planner.Precision(kw.val)
				p.i++
				continue
			}
		}
		break
	}
	switch {
	case !haveValue:
		return said(en.Tf("`%s` needs a measurement, like `baseline 5.67 h/epoch on 4x v100`", p.span(a, p.i)), &UserError{Hint: reqEg("baseline 5.67 h/epoch on 4x v100", "baseline 120 samples/s on 4x v100")})
	case !haveHW && b.Unit == planner.MFU && len(p.req.Targets) > 0:
		b.Hardware = p.req.Targets[0] // "… on 64x h100, mfu 40%": the utilization assumed there
	case b.Unit == planner.MFU && !haveHW:
		p.mfuSpan = p.span(a, p.i) // the GPUs may come later ("mfu 0.35 … on 64x h100"): finish takes them
	case b.Unit == planner.MFU && len(p.req.Targets) == 0:
		p.req.Targets = []planner.Hardware{b.Hardware} // "mfu 40% on 64x h100": planned there
	case !haveHW && len(p.req.Targets) == 1 && !p.req.Compare:
		// "we finetuned it on 4x a100 last week, 3 epochs took 9 hours;
		// how long on server-h?": the hardware named before the run is
		// the run's, and the target comes after
		b.Hardware = p.req.Targets[0]
		p.req.Targets, p.counted = nil, nil
	case !haveHW:
		return said(en.Tf("`%s` needs the hardware it was measured on, like `on 4x v100`", p.span(a, p.i)), &UserError{Hint: reqEg(p.span(a, p.i) + " on 4x v100")})
	}
	if p.perGPU {
		if b.Unit != planner.SamplesPerS && b.Unit != planner.TokensPerS {
			return said(en.Tf("`%s` is per GPU; per-GPU measurements are rates (samples/s, tokens/s)", p.span(a, p.i)), &UserError{Hint: reqEg("baseline 1500 tokens/s per gpu on 8x a100")})
		}
		if n := b.Hardware.Count; n > 1 {
			b.Value *= float64(n)
			p.note(en.Tf("the per-GPU rate is taken across all %d GPUs it was measured on", n))
		}
	}
	p.req.Baseline = b
	return nil
}

// machineWordNear reports whether a word for one machine (node, server,
// box, HGX/DGX, 노드, 서버, 대) is among tokens [a-1, b): the count before
// it counts machines, not GPUs.
func (p *reqParser) machineWordNear(a, b int) bool {
	if b > len(p.toks) || a >= b {
		return false
	}
	text := strings.ToLower(p.text[p.toks[max(a-1, 0)].start:p.toks[b-1].end])
	for _, w := range machineWords {
		if strings.Contains(text, w) {
			return true
		}
	}
	return strings.Contains(text, "대")
}

// machineWords name one machine of GPUs, in English and Korean.
var machineWords = []string{"node", "server", "box", "machine", "hgx", "dgx", "노드", "서버", "머신", "박스"}

// machineWord reports whether w starts with a word for one machine
// ("서버로", "노드", "hgx").
func machineWord(w string) bool {
	for _, m := range machineWords {
		if strings.HasPrefix(w, m) {
			return true
		}
	}
	return false
}

// looksHardware reports whether the words at p.i read as hardware.
func (p *reqParser) looksHardware() bool {
	save := p.i
	_, ok, err := p.hardware(false)
	p.i = save
	return ok || err != nil
}

// rate reads a baseline value and unit: samples/s, tokens/s, s/step,
// h/epoch or h, in their common spellings ("120 samples/sec",
// "500 ms/step", "30 min/epoch", "2 days").
func (p *reqParser) rate(b *planner.Baseline, a int) error {
	v0 := p.i
	n, unit, ok := reqScanNumber(p.tok(p.i).w)
	if !ok {
		return p.badNumber(p.i)
	}
	p.i++
	if unit == "" {
		unit = p.tok(p.i).w
		p.i++
	}
	if strings.HasSuffix(unit, "/") && p.i < len(p.toks) {
		unit += p.tok(p.i).w
		p.i++
	} else if !strings.Contains(unit, "/") {
		if w := p.tok(p.i).w; (w == "/" || w == "per" || w == "a" || w == "an") && reqRateDen(p.tok(p.i+1).w) != "" {
			unit += "/" + p.tok(p.i+1).w
			p.i += 2
		} else if strings.HasPrefix(w, "/") && reqRateDen(w[1:]) != "" {
			unit += w
			p.i++
		} else if d := reqRateDen(w); (d == "epoch" || d == "step") && reqSeconds[reqRateNum(unit)] > 0 {
			unit += "/" + w // "6.5 hours an epoch": the reader dropped the article
			p.i++
		}
	}
	// "tokens/s/gpu", "1,500 tokens/s per GPU": a per-GPU rate, which
	// baseline multiplies by the GPUs it was measured on
	if d, ok := strings.CutSuffix(unit, "/gpu"); ok {
		unit, p.perGPU = d, true
	} else if w := p.tok(p.i).w; (w == "per" || w == "/" || w == "a") && (p.tok(p.i+1).w == "gpu" || p.tok(p.i+1).w == "device") {
		p.i += 2
		p.perGPU = true
	} else if w == "/gpu" {
		p.i++
		p.perGPU = true
	}
	if unit == "%" && p.tok(p.i).w == "mfu" || unit == "mfu" {
		return p.mfuRate(b, n.v, unit, v0)
	}
	end := p.i
	num, den, _ := strings.Cut(unit, "/")
	nu, de := reqRateNum(num), reqRateDen(den)
	v := n.v
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 || v > 1e12 {
		return said(en.Tf("`%s` is not a measurement I can use", p.span(v0, end)), &UserError{Hint: reqEg("baseline 5.67 h/epoch on 4x v100", "baseline 120 samples/s on 4x v100")})
	}
	switch {
	case nu == "it" && de == "s":
		// iterations: the same loop the request counts its steps in
		// ("2.3 it/s … 50k steps") cancels what an iteration holds;
		// finish refuses it when the work is not in steps
		p.its.span = p.span(v0, end)
		p.its.err = said(en.Tf("`%s` counts loop iterations, which depend on batch and accumulation; give seconds per optimizer step or samples per second", p.its.span), &UserError{
			Hint: "say `baseline " + strconv.FormatFloat(1/v, 'g', 3, 64) + " s/step`" + itsHintMiddle + "`baseline <it/s × batch> samples/s`",
		})
		b.Unit = planner.SecPerStep // s/step to four digits, as the reading says it back
		v, _ = strconv.ParseFloat(strconv.FormatFloat(1/v, 'g', 4, 64), 64)
	case nu == "samples" && de == "s":
		b.Unit = planner.SamplesPerS
	case nu == "tokens" && de == "s":
		b.Unit = planner.TokensPerS
	case nu == "steps" && de == "s":
		b.Unit, v = planner.SecPerStep, 1/v // steps/s is exact: s/step is its inverse
	case de == "step" && (nu == "s" || nu == "ms" || nu == "min"):
		b.Unit, v = planner.SecPerStep, v*reqSeconds[nu]
	case de == "epoch" && reqSeconds[nu] > 0:
		b.Unit, v = planner.HoursPerEpoch, v*reqSeconds[nu]/3600
	case de == "" && reqSeconds[nu] > 0 && den == "":
		b.Unit, v = planner.Hours, v*reqSeconds[nu]/3600
	default:
		return said(en.Tf("`%s` is not a unit I read for a baseline; I read samples/s, tokens/s, s/step, h/epoch or h", p.span(v0, end)), &UserError{
			Hint: reqEg("baseline 5.67 h/epoch on 4x v100", "baseline 120 samples/s on 4x v100"),
		})
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 || v > 1e12 {
		return said(en.Tf("`%s` is not a measurement I can use", p.span(v0, end)), &UserError{Hint: reqEg("baseline 5.67 h/epoch on 4x v100", "baseline 120 samples/s on 4x v100")})
	}
	b.Value = v
	return nil
}

// mfuRate reads "baseline 0.4 mfu", "baseline 40% mfu": a utilization
// assumed, as a share of peak.
func (p *reqParser) mfuRate(b *planner.Baseline, v float64, unit string, v0 int) error {
	if unit == "%" {
		p.i++
	}
	if unit == "%" || v > 1 {
		v /= 100
	}
	if v <= 0 || math.IsNaN(v) {
		return said(en.Tf("`%s` is not a measurement I can use", p.span(v0, p.i)), &UserError{Hint: reqEg("mfu 40%")})
	}
	b.Unit, b.Value = planner.MFU, v
	return nil
}

var reqSeconds = map[string]float64{"s": 1, "ms": 1e-3, "min": 60, "h": 3600, "d": 86400}

// reqRateNum normalises the numerator of a baseline unit.
func reqRateNum(w string) string {
	switch w {
	case "s", "sec", "secs", "second", "seconds":
		return "s"
	case "ms", "msec":
		return "ms"
	case "min", "mins", "minute", "minutes":
		return "min"
	case "h", "hr", "hrs", "hour", "hours":
		return "h"
	case "d", "day", "days":
		return "d"
	case "it", "its", "iter", "iters", "iteration", "iterations":
		return "it"
	case "step", "steps":
		return "steps"
	case "seq":
		return "samples"
	}
	switch reqUnits[w] {
	case reqUSamples:
		return "samples"
	case reqUTokens:
		return "tokens"
	}
	return ""
}

// reqRateDen normalises the denominator of a baseline unit.
func reqRateDen(w string) string {
	switch w {
	case "s", "sec", "secs", "second", "seconds":
		return "s"
	case "step", "steps", "it", "iter", "iteration":
		return "step"
	case "epoch", "epochs", "ep":
		return "epoch"
	}
	return ""
}

// serverPart is n GPUs of a team server (all of them when n is its size).
func (p *reqParser) serverPart(srv planner.Hardware, n, a int) (planner.Hardware, bool, error) {
	p.lastCounted = true
	if n < 1 || n > reqMaxGPUs {
		return srv, false, said(en.Tf("`%s` has %d GPUs; `%s` asks for %d", srv.Server, srv.Count, p.span(a, p.i), n), &UserError{
			Hint: p.try(a, p.i, srv.Server)})
	}
	if n > srv.Count {
		// "if we bump to 8 gpus on server-a", "8-way a100 node": more than
		// the server holds, planned as that many of its GPU, said so
		p.note(en.Tf("`%s` has %d GPUs: planned %d of its %s as asked, more than it holds", srv.Server, srv.Count, n, srv.GPU.ID))
		return planner.Hardware{GPU: srv.GPU, Count: n}, true, nil
	}
	if n < srv.Count {
		srv.Count = n
		if len(srv.IDs) > n {
			srv.IDs = srv.IDs[:n]
		}
	}
	return srv, true, nil
}

// serverNotWord reports whether w, a word of the language, is read as the
// team's server of that name: a server called lion is the server, unless
// the next word says the optimizer ("lion optimizer", "lion 옵티마이저").
func (p *reqParser) serverNotWord(w string) bool {
	if _, ok := p.servers[w]; !ok {
		return false
	}
	next := p.tok(p.i + 1).w
	return !strings.HasPrefix(next, "optim") && !strings.HasPrefix(next, "옵티마이저")
}

// countOpen reports whether the request names one GPU type without a count
// ("how many h100s"): the count is the question.
func (p *reqParser) countOpen() bool {
	return len(p.req.Targets) == 1 && len(p.counted) == 1 && !p.counted[0] && p.req.Targets[0].Server == ""
}

// layoutCount gives a GPU named without a count the GPUs a said layout
// spans ("70b 추론 텐서패러렐 2로 h100에서": two H100s), and a request
// with no GPU named that many of any kind, unless the count is what is
// asked.
func (p *reqParser) layoutCount(ask Ask) {
	n := p.layoutGPUs
	if n <= 1 || ask == AskCount {
		return
	}
	switch {
	case p.countOpen():
		p.req.Targets[0].Count = n
		p.counted[0] = true
	case len(p.req.Targets) == 0 && p.openCount == 0:
		p.openCount = n
	default:
		return
	}
	p.note(en.Tf("the layout said spans %d GPUs: planned on %d", n, n))
}

// runCount gives a GPU named without a count beside a measured run the
// run's count ("v100 4장에서 에폭당 5.67시간 걸렸는데 h200으로 옮기면": four
// H200s): the same job moved, unless the count is what is asked.
func (p *reqParser) runCount(ask Ask) {
	b := p.req.Baseline
	if b == nil || b.Hardware.Count <= 1 || ask == AskCount || !p.countOpen() || b.Hardware.Server != "" && b.Hardware.Server == p.req.Targets[0].Server {
		return
	}
	p.req.Targets[0].Count = b.Hardware.Count
	p.counted[0] = true
	p.note(en.Tf("no count said for %s: planned on %d, as many as your measured run", p.req.Targets[0].GPU.ID, b.Hardware.Count))
}

// appleSilicon reports whether name is a Mac or an Apple chip ("mac",
// "macbook", "m3", "m2-ultra"): not a GPU the catalogue plans.
func appleSilicon(name string) bool {
	switch name {
	case "mac", "macs", "macbook", "macbook-pro", "mac-studio", "mac-mini", "apple", "apple-silicon", "mps", "맥", "맥북":
		return true
	}
	if len(name) >= 2 && name[0] == 'm' && name[1] >= '1' && name[1] <= '5' {
		rest := strings.TrimLeft(name[2:], "-")
		return rest == "" || rest == "pro" || rest == "max" || rest == "ultra"
	}
	return false
}

// chinchillaTokens gives a job whose tokens were said as Chinchilla's
// ("pretrain a 350M model Chinchilla optimal") 20 tokens a parameter
// (Hoffmann et al. 2022), unless the work was said too.
func (p *reqParser) chinchillaTokens(said bool) {
	j := &p.req.Job
	if !said || j.Tokens > 0 || j.Samples > 0 || j.Steps > 0 || j.Epochs > 0 || j.DatasetTokens > 0 || j.DatasetSamples > 0 || j.Model.Params() <= 0 {
		return
	}
	j.Tokens = math.Round(20 * j.Model.Params())
	p.note(en.Tf("Chinchilla-optimal: 20 tokens a parameter (Hoffmann et al. 2022), %s tokens", reqTrimNum(j.Tokens)))
}

// perUserRate turns a token rate said per user ("30 tok/s per user for 40
// users") into the service's: times the users at once, or one stream
// when none are said.
func (p *reqParser) perUserRate(c *canonizer) {
	j := &p.req.Job
	if !c.perUser || j.OutputTokPS <= 0 {
		return
	}
	if c.maxBatch && j.Concurrency <= 0 && c.latencyTarget == 0 {
		// "how many concurrent users at ~20 tok/s each": the users are
		// asked, so each one's speed is a target for each token
		c.latencyTarget, c.latencyPerToken = 1/j.OutputTokPS, true
		p.note(en.Tf("%s tokens/s for each user: each output token within %s", reqTrimNum(j.OutputTokPS), planner.FormatSeconds(c.latencyTarget)))
		j.OutputTokPS = 0
		return
	}
	if j.Concurrency <= 0 {
		j.Concurrency = 1
	}
	each := j.OutputTokPS
	j.OutputTokPS *= float64(j.Concurrency)
	p.note(en.Tf("%s tokens/s for each of %d streams at once: %s tokens/s in all", reqTrimNum(each), j.Concurrency, reqTrimNum(j.OutputTokPS)))
}
