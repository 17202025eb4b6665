package planner

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// The recommendation search: which layouts are tried on a GPU, and which
// GPU type × count options are searched and ranked.

// configure finds the fastest layout of the job on h that fits, or the
// smallest one with its overflow when nothing fits.
func (pc *planContext) configure(h Hardware) *Estimate {
	e := pc.choose(h)
	pc.describe(e)
	return e
}

// choose is configure without the prose: the estimate of h's best layout.
func (pc *planContext) choose(h Hardware) *Estimate {
	if reference != nil {
		return reference.choose(pc, h)
	}
	prec, _ := pickPrecision(pc.job, h.GPU)
	o := pc.best(h, prec, true, nil, nil)
	return pc.estimate(h, &o)
}

// option is one GPU type × count with its best layout and the keys the
// search ranks by. The search probes thousands of layouts: it compares
// numbers and builds (and names) an estimate only for what it keeps.
type option struct {
	l     layout // the layout to evaluate; the zero layout when h has none
	found bool   // l is set
	fits  bool
	// tooBig: every layout was too big at micro-batch 1 (so too big on
	// any GPU with as little memory)
	tooBig bool
	gpus   int
	hours  float64 // sortKeyHours
	cost   float64 // sortKeyCost
}

// estimate builds the full estimate of h's option o, noting a precision
// fallback.
func (pc *planContext) estimate(h Hardware, o *option) *Estimate {
	e := new(Estimate)
	if o.found {
		*e = pc.evaluate(h, o.l)
	}
	if precNote := pc.precisionNote(h.GPU); precNote != "" {
		e.Notes = append([]string{precNote}, e.Notes...)
	}
	return e
}

// best finds the fastest layout of the job on h that fits; with
// smallestToo, the smallest one when nothing fits (the search drops such
// options and does not ask). memo, when set, holds what h's layouts need
// at micro-batch 1 as found on other GPUs with the same count; floors,
// when set, the floor under each tensor/pipeline-parallel pair's time.
//
// A layout is ruled out as early as its numbers allow: one that does not
// fit at micro-batch 1 costs one memory estimate, one that cannot keep
// the global batch where another does is not sized or timed, nor one whose
// floor is above what a layout already found needs to be beaten, and only
// the winner is evaluated in full.
func (pc *planContext) best(h Hardware, prec Precision, smallestToo bool, memo *memoCount, floors *layoutFloors) option {
	j := &pc.job
	o := option{gpus: h.Count}
	if j.Workload == Inference {
		l := pc.inferenceLayout(h, prec)
		e := pc.evaluate(h, l)
		o.l, o.found, o.fits = l, true, e.Memory.Fits
		o.gpus, o.hours, o.cost = e.GPUs, e.sortKeyHours(), e.sortKeyCost()
		short := e.Serving != nil && e.Serving.Saturated ||
			forwardOnly(j.Model) && e.Throughput.SamplesPerS > 0 && e.Throughput.SamplesPerS < j.RequestRate // an encoder's sequences/s
		if short && j.RequestRate > 0 {
			// short of the load asked ("20 req/s"): it ranks after every
			// option that carries it, cheaper per token or not (the keys
			// only grow, so the search's floors stay below them)
			o.hours, o.cost = o.hours*shortOfLoad, o.cost*shortOfLoad
		} else if forwardOnly(j.Model) && j.RequestRate > 0 && e.Throughput.SamplesPerS > j.RequestRate {
			// it carries the load with room to spare: it serves at the
			// load, so more GPUs than it needs cost more per sequence
			// (a decoder's rate is the load's already)
			scale := e.Throughput.SamplesPerS / j.RequestRate
			o.hours, o.cost = o.hours*scale, o.cost*scale
		}
		return o
	}
	var slots []probeEntry
	if memo != nil {
		slots = memo.layouts[:]
	}
	r := race{pc: pc, h: h, smallestToo: smallestToo, memo: slots, floors: floors}
	complete := true // every layout was entered
	if j.GlobalBatch > 0 {
		// A layout that keeps the global batch beats every one that does
		// not, so when one fits the race among them alone has the same
		// winner. Replicas that do not divide the batch cannot keep it.
		skipped := false
		pc.eachLayout(h, prec, func(k int, l layout) bool {
			if j.GlobalBatch%l.dp() != 0 {
				skipped = true
				return true
			}
			return r.run(k, l)
		})
		complete = !skipped
		if skipped && !(r.haveBest && r.bestKeeps) {
			r = race{pc: pc, h: h, smallestToo: smallestToo, memo: slots, floors: floors}
			pc.eachLayout(h, prec, r.run)
			complete = true
		}
	} else {
		pc.eachLayout(h, prec, r.run)
	}
	o.tooBig = complete && !r.probeFits && !r.haveBest
	switch {
	case r.haveBest:
		o.l, o.found, o.fits = r.bestL, true, true
		o.hours = pc.rankHours(h.Count, r.bestSps)
		o.cost = o.hours * float64(h.Count) * h.GPU.PriceUSD
	case r.haveSmallest:
		o.l, o.found = r.smallL, true
	}
	return o
}

// shortOfLoad sets a serving option that cannot carry the request rate
// asked behind every one that can, in the search's ranking.
const shortOfLoad = 1e6

// race is choose's rule, applied to h's layouts in the order they are
// listed: the fastest that fits, a later (more complex) one only when
// clearly faster.
type race struct {
	pc          *planContext
	h           Hardware
	smallestToo bool
	memo        []probeEntry
	floors      *layoutFloors
	probeFits   bool // some layout entered fits at micro-batch 1

	bestL, smallL          layout
	bestSps, bestPer       float64
	smallGiB               float64
	haveBest, haveSmallest bool
	bestKeeps              bool
	bestGap                int // batchGap of the best's global batch
	lastNoCkpt             layout
	lastNoCkptFast         bool
}

// run enters l, h's k-th layout, in the race; it always returns true
// (go on).
func (r *race) run(k int, l layout) bool {
	pc, j := r.pc, &r.pc.job
	// A layout listed later must be clearly faster than the best: one
	// that cannot be is neither sized nor timed (once the best keeps the
	// global batch: a layout that keeps it beats one that does not).
	if r.haveBest && r.bestKeeps && r.floors.of(&l) >= r.bestPer*0.97 {
		return true
	}
	// Recomputation only pays when it buys a usefully larger
	// micro-batch: skip it when the same layout already fits without it
	// at a micro-batch that fills the GPU.
	if l.ckpt && r.lastNoCkptFast && l.tp == r.lastNoCkpt.tp && l.pp == r.lastNoCkpt.pp && l.strategy == r.lastNoCkpt.strategy && !j.Checkpointing {
		r.probeFits = true // its sibling fits
		return true
	}
	slot := memoSlot(r.memo, k)
	if slot.tooBig(&l) {
		// too big at micro-batch 1 on a GPU with this much memory or
		// more: what size would say, without the memory model
		r.tooBig(&l, slot.giB)
		return true
	}
	s := pc.size(l)
	slot.record(&l, &s)
	if !(s.probeGiB > l.gpu.MemoryGB*usableFraction) {
		r.probeFits = true
	}
	if !s.mem.Fits {
		r.tooBig(&l, s.mem.PerGPUGiB)
		return true
	}
	if !l.ckpt {
		r.lastNoCkpt = l
		r.lastNoCkptFast = float64(s.l.micro*max(j.SeqLen, 1)) >= 2048
	}
	// A layout that cannot keep the requested global batch (more
	// replicas than samples per step, or replicas that do not divide it)
	// only wins when nothing else fits, and then the one closest to it
	// (batchGap): on thousands of GPUs tensor/pipeline parallelism
	// narrows the data-parallel width rather than multiplying the batch.
	gap := batchGap(j.GlobalBatch, s.global)
	keeps := gap == 0
	if r.haveBest && gap > r.bestGap {
		return true
	}
	t := pc.timeStep(&r.h, &s)
	per := t.step / float64(s.global)
	// A layout listed later is more complex; it must be clearly faster.
	if !r.haveBest || gap < r.bestGap || (gap == r.bestGap && per < r.bestPer*0.97) {
		r.bestGap = gap
		r.bestL, r.bestSps, r.bestPer, r.haveBest, r.bestKeeps = s.l, t.samplesPerS(&s), per, true, keeps
	}
	return true
}

// batchGap ranks how far global is from the requested global batch: 0
// when it keeps it (or none was requested), else 1 + the whole 2 % steps
// it is off by, so that batches within a step of each other count as
// equally close and the race between them goes by speed.
func batchGap(requested, global int) int {
	if requested == 0 || global == requested {
		return 0
	}
	off := max(global-requested, requested-global)
	return 1 + off*50/requested
}

// tooBig enters a layout that does not fit, needing giB per GPU.
func (r *race) tooBig(l *layout, giB float64) {
	if !l.ckpt {
		r.lastNoCkpt, r.lastNoCkptFast = *l, false
	}
	// only the smallest counts, and only while nothing fits
	if r.smallestToo && !r.haveBest && (!r.haveSmallest || giB < r.smallGiB) {
		r.smallL, r.smallGiB, r.haveSmallest = *l, giB, true
	}
}

// probeEntry is what one layout needs per GPU at micro-batch 1 in one
// search. That depends on the count, precision and layout, not on the GPU
// (its memory only decides whether it fits), so a layout too big for one
// GPU type is not sized again for another with as little memory.
// It is 16 bytes (the strategy as a code, not its name): a search keeps
// 64 per GPU count and precision.
type probeEntry struct {
	set, ckpt bool
	tp, pp    int16
	strategy  uint8 // strategyCode
	giB       float64
}

// strategyCode numbers a strategy for probeEntry.
func strategyCode(s Strategy) uint8 {
	switch s {
	case DDP:
		return 1
	case ZeRO1:
		return 2
	case ZeRO2:
		return 3
	case ZeRO3:
		return 4
	case FSDP:
		return 5
	}
	return 0
}

// memoSlot is entry k of memo, or nil.
func memoSlot(memo []probeEntry, k int) *probeEntry {
	if k < len(memo) {
		return &memo[k]
	}
	return nil
}

// tooBig reports whether the entry holds l and l is too big for its GPU.
func (e *probeEntry) tooBig(l *layout) bool {
	return e != nil && e.set && int(e.tp) == l.tp && int(e.pp) == l.pp && e.ckpt == l.ckpt && e.strategy == strategyCode(l.strategy) &&
		e.giB > l.gpu.MemoryGB*usableFraction
}

// record keeps what l, sized as s, needs at micro-batch 1.
func (e *probeEntry) record(l *layout, s *sizedLayout) {
	if e != nil {
		*e = probeEntry{set: true, tp: int16(l.tp), pp: int16(l.pp), ckpt: l.ckpt, strategy: strategyCode(l.strategy), giB: s.probeGiB}
	}
}

// memoCount is the memo of one GPU count at one precision: what each
// layout needs at micro-batch 1, and the most memory per GPU on which
// every layout listed for nodes of nonePerNode GPUs was too big.
type memoCount struct {
	layouts     [memoLayouts]probeEntry
	noneGiB     float64
	nonePerNode int
}

// nothingFits reports whether no layout of h can fit: all were too big
// on a GPU with as much memory or more, listed the same way.
func (m *memoCount) nothingFits(h Hardware) bool {
	return m != nil && m.nonePerNode == gpusPerNode(h) && h.GPU.MemoryGB*usableFraction <= m.noneGiB
}

// noteNothingFits records that every layout of h was too big.
func (m *memoCount) noteNothingFits(h Hardware) {
	if m == nil {
		return
	}
	capGiB, perNode := h.GPU.MemoryGB*usableFraction, gpusPerNode(h)
	if m.nonePerNode != perNode || capGiB > m.noneGiB {
		m.noneGiB, m.nonePerNode = capGiB, perNode
	}
}

// probeMemo holds the memo of one search, by precision and GPU count.
type probeMemo struct {
	precs [3]Precision
	tabs  [3][]memoCount
}

const memoLayouts = 64 // layouts one option lists at most: 8 TP/PP pairs × 4 strategies × 2

// count returns the memo of count index ci at precision p, or nil.
func (m *probeMemo) count(ci int, p Precision) *memoCount {
	for i := range m.precs {
		if m.tabs[i] == nil {
			m.precs[i], m.tabs[i] = p, make([]memoCount, len(searchCounts))
		}
		if m.precs[i] == p {
			return &m.tabs[i][ci]
		}
	}
	return nil
}

// inferenceLayout is the one layout of an inference job on h.
func (pc *planContext) inferenceLayout(h Hardware, prec Precision) layout {
	j := &pc.job
	n := h.Count
	l := layout{gpu: h.GPU, n: n, tp: 1, pp: 1, precision: prec, attention: j.Attention}
	l.micro = max(1, j.GlobalBatch)
	if forwardOnly(j.Model) {
		// replicas: each GPU runs its own share of the batch
		l.micro = max(1, (j.GlobalBatch+n-1)/n)
		if j.GlobalBatch == 0 && (pc.info.AmountKnown || j.RequestRate > 0) {
			l.micro = pc.bulkBatch(h, l)
			if !pc.info.AmountKnown && j.Model.Kind == Encoder && j.SeqLen > 0 {
				// served at a rate: an embedding server's dynamic batcher
				// holds at most TEI's default batch of tokens
				l.micro = min(l.micro, max(1, TEIMaxBatchTokens/j.SeqLen))
			}
		}
	}
	return l
}

// TEIMaxBatchTokens is Text Embeddings Inference's default
// --max-batch-tokens: the tokens its dynamic batcher puts in one batch
// (github.com/huggingface/text-embeddings-inference, docs/source/en/
// cli_arguments.md: "[default: 16384]").
const TEIMaxBatchTokens = 16384

// bulkBatch is the batch a forward model runs a bulk job at when none is
// said ("embed 100M sentences", "classify 10M images"): nobody serves
// such a job one sample at a time, so it is the smallest batch, up to
// 1,024 per GPU, within 5 % of the best throughput that fits. A server
// batching the requests that arrive at a rate ("1000 qps") reaches the
// same batch at its busiest, which is what sizes it.
func (pc *planContext) bulkBatch(h Hardware, l layout) int {
	type tried struct {
		b    int
		rate float64
	}
	var seen []tried
	best := 0.0
	for b := 1; b <= 1024; b *= 2 {
		l.micro = b
		e := pc.evaluateForward(h, l)
		if !e.Memory.Fits {
			break
		}
		seen = append(seen, tried{b, e.Throughput.SamplesPerS})
		best = math.Max(best, e.Throughput.SamplesPerS)
	}
	for _, t := range seen {
		if t.rate >= 0.95*best {
			return t.b
		}
	}
	return 1
}

var (
	autoStrategies = [...]Strategy{DDP, ZeRO1, ZeRO2, ZeRO3}
	ckptChoices    = [...]bool{false, true}
)

// eachLayout yields the layouts worth trying on h: sharding stages,
// gradient checkpointing, tensor/pipeline parallel for the tuned stack
// (the micro-batch is picked for each later). It yields values, not a
// slice: a layout carries its GPU, and a list of them on the heap cost the
// search a write barrier per pointer.
func (pc *planContext) eachLayout(h Hardware, prec Precision, yield func(int, layout) bool) {
	j := &pc.job
	n := h.Count
	base := layout{gpu: h.GPU, n: n, tp: 1, pp: 1, precision: prec, attention: j.Attention}
	if j.Workload == Inference {
		yield(0, pc.inferenceLayout(h, prec))
		return
	}
	strategies := autoStrategies[:1]
	if j.Strategy != StrategyAuto {
		strategies = []Strategy{j.Strategy}
	} else if n > 1 {
		strategies = autoStrategies[:]
	}
	ckpts := ckptChoices[:]
	if j.Checkpointing {
		ckpts = ckptChoices[1:]
	} else if j.NoCheckpointing {
		ckpts = ckptChoices[:1]
	}
	var mpArr [8]mpPair
	mps := pc.modelParallel(h, mpArr[:0])
	cp := max(1, j.ContextParallel)
	k := 0
	for _, m := range mps {
		if n%(m.tp*m.pp*cp) != 0 || j.Strategy == DDP && m.tp*m.pp > 1 {
			continue // DDP said: whole replicas, no model split
		}
		for _, s := range strategies {
			moeFSDP := s == ZeRO3 && j.Strategy == StrategyAuto && j.Model.Kind == MoE
			if moeFSDP {
				// a MoE's full sharding is FSDP2's (torchtitan, NeMo
				// Automodel: FSDP2 + EP, with pipeline stages too), which
				// frees its gradient shards between steps
				s = FSDP
			}
			if m.tp*m.pp > 1 && (s == ZeRO2 || s == ZeRO3) || moeFSDP && m.tp > 1 {
				// Megatron pairs TP/PP with the distributed optimizer
				// (ZeRO-1); a MoE's pipeline stages also run under FSDP
				continue
			}
			if n/(m.tp*m.pp) == 1 && s != DDP && j.Strategy == StrategyAuto {
				continue // nothing to shard over
			}
			for _, ck := range ckpts {
				l := base
				l.tp, l.pp, l.strategy, l.ckpt, l.cp = m.tp, m.pp, s, ck, cp
				l.selective = ck && j.SelectiveRecompute
				if !yield(k, l) {
					return
				}
				k++
			}
		}
	}
}

// mpPair is a tensor × pipeline parallel degree.
type mpPair struct{ tp, pp int }

// modelParallel appends to mps the tensor/pipeline-parallel pairs worth
// trying on h: (1,1), and for the tuned stack TP 2/4/8 and TP8 × PP
// 2/4/8/16 — for a MoE model pipeline stages without TP instead, which
// keep the data-parallel group, and so the expert-parallel one, large
// (NeMo's PP8 × EP32 for Qwen3-235B-A22B). At most 8 pairs.
func (pc *planContext) modelParallel(h Hardware, mps []mpPair) []mpPair {
	j := &pc.job
	if pc.pinLayout && j.layoutSaid() {
		return append(mps, mpPair{max(1, j.TensorParallel), max(1, j.PipelineParallel)})
	}
	n := h.Count
	mps = append(mps, mpPair{1, 1})
	perNode := gpusPerNode(h)
	if j.Stack == Tuned && j.Model.IsTransformer() && j.Model.Kind != VisionViT && !j.quantBase() {
		for tp := 2; tp <= min(8, perNode, n); tp *= 2 {
			if j.Model.Heads%tp == 0 && n%tp == 0 {
				mps = append(mps, mpPair{tp, 1})
				for pp := 2; pp <= 16 && tp*pp <= n; pp *= 2 {
					// stages may be uneven (61 layers over 16 stages is fine)
					if j.Model.Layers >= 2*pp && n%(tp*pp) == 0 && tp == min(8, perNode) && j.Model.Kind != MoE {
						mps = append(mps, mpPair{tp, pp})
					}
				}
			}
		}
		if j.Model.Kind == MoE {
			for pp := 2; pp <= 16 && pp <= n; pp *= 2 {
				if j.Model.Layers >= 2*pp && n%pp == 0 {
					mps = append(mps, mpPair{1, pp})
				}
			}
		}
	}
	return mps
}

// microFor picks the micro-batch for layout l: what the user said, else the
// largest that fits, divides the per-replica share of the global batch and
// keeps a micro-batch under 32k tokens.
func (pc *planContext) microFor(l layout, maxFit int) (micro, ga, global int) {
	j := pc.job
	dp := l.dp()
	tokensCap := 32768
	seq := max(j.SeqLen, 1)
	capB := max(1, min(256, tokensCap/seq))
	if !j.Model.IsTransformer() {
		capB = 256
	}
	unit := 1
	if j.Preference {
		unit = 2 // a DPO micro-batch holds whole pairs: chosen and rejected together
		capB = max(capB, unit)
	}
	if j.GlobalBatch > 0 {
		per := max(1, j.GlobalBatch/dp)
		if l.pp > 1 {
			capB = unit // pipelines want many small micro-batches to fill the bubble
		}
		if j.MicroBatch > 0 {
			micro = j.MicroBatch
		} else {
			micro = unit
			for b := min(per, maxFit, capB); b >= unit; b-- {
				if per%b == 0 && b%unit == 0 {
					micro = b
					break
				}
			}
		}
		ga = max(1, int(math.Ceil(float64(per)/float64(micro))))
		if l.pp > 1 {
			ga = max(ga, 1)
		}
		return micro, ga, micro * ga * dp
	}
	if j.MicroBatch > 0 {
		micro = j.MicroBatch
	} else {
		micro = max(unit, min(maxFit, capB))
		// round down to a power of two, as people configure it
		micro = 1 << int(math.Floor(math.Log2(float64(micro))))
	}
	return micro, 1, micro * dp
}

func strategyName(l layout) string {
	var parts []string
	if l.tp > 1 {
		parts = append(parts, fmt.Sprintf("TP%d", l.tp))
	}
	if l.pp > 1 {
		parts = append(parts, fmt.Sprintf("PP%d", l.pp))
	}
	switch {
	case l.n == 1 || (l.dp() == 1 && l.strategy == DDP):
		if len(parts) == 0 {
			parts = append(parts, "single GPU")
		}
	case l.strategy == DDP:
		parts = append(parts, "DDP")
	case l.strategy == ZeRO1:
		parts = append(parts, "ZeRO-1")
	case l.strategy == ZeRO2:
		parts = append(parts, "ZeRO-2")
	case l.strategy == ZeRO3:
		parts = append(parts, "ZeRO-3")
	case l.strategy == FSDP:
		parts = append(parts, "FSDP")
	}
	return strings.Join(parts, " + ")
}

// referenceSearch is the exhaustive search the equivalence test holds
// this one to.
type referenceSearch struct {
	choose func(*planContext, Hardware) *Estimate
	search func(*planContext, []Hardware) Recommendations
}

// reference, when set, answers choose and search in place of the pruned
// search: only the equivalence test (search_equiv_test.go) sets it.
var reference *referenceSearch

// searchCounts are the GPU counts the recommendation search tries: one
// box, then multi-node jobs up to the largest clusters trained on (Llama 3
// used 16,384 H100s; named targets go to MaxGPUs).
var searchCounts = []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536}

// searchSpace is what the search tries: the team's pool, or every
// catalogue GPU at every count of searchCounts. Options are addressed by
// index, so the search keeps no copies of them.
type searchSpace struct {
	pool []Hardware // nil: the catalogue
	gpus []GPU
	cp   int // context-parallel degree: counts it does not divide are left out
}

func (s searchSpace) len() int {
	if s.pool != nil {
		return len(s.pool)
	}
	return len(s.gpus) * len(searchCounts)
}

// at returns option i, or false when the catalogue search leaves it out.
func (s searchSpace) at(i int) (Hardware, bool) {
	if s.pool != nil {
		return s.pool[i], true
	}
	g, n := &s.gpus[i/len(searchCounts)], searchCounts[i%len(searchCounts)]
	if n > 8 && !g.SXM {
		return Hardware{}, false // PCIe boxes above 8 GPUs are rare; multi-node is planned on SXM parts
	}
	if s.cp > 1 && n%s.cp != 0 {
		return Hardware{}, false
	}
	return Hardware{GPU: *g, Count: n}, true
}

// SearchPool lists the options the recommendation search tries when it is
// given no pool (every catalogue GPU at each searched count, multi-node
// counts on SXM parts only), keeping those keep accepts: a request that
// caps the hourly price searches the GPUs under it.
func (c *Catalog) SearchPool(keep func(Hardware) bool) []Hardware {
	sp := searchSpace{gpus: c.GPUs}
	var out []Hardware
	for i := range sp.len() {
		if h, ok := sp.at(i); ok && keep(h) {
			out = append(out, h)
		}
	}
	return out
}

// CountPool is every catalogue GPU at n of them (above 8, SXM parts only,
// as the search plans multi-node runs): the search for "on 8 gpus", where
// the count is said and the GPU is asked.
func (c *Catalog) CountPool(n int) []Hardware {
	var out []Hardware
	for _, g := range c.GPUs {
		if n <= 8 || g.SXM {
			out = append(out, Hardware{GPU: g, Count: n})
		}
	}
	return out
}

// ranked is a feasible option as the search ranks it: which one, and its
// keys.
type ranked struct {
	src, gpus   int
	hours, cost float64
}

// MaxGPUs is the largest GPU count the planner accepts for one job.
const MaxGPUs = 100000

// search enumerates GPU type × count and keeps the three picks.
//
// search is long on purpose: building the pool, the single-box-first rule
// and the ranking share the feasible list.
func (pc *planContext) search(pool []Hardware) Recommendations {
	if reference != nil {
		return reference.search(pc, pool)
	}
	var rec Recommendations
	sp := searchSpace{pool: pool, gpus: pc.cat.GPUs, cp: pc.job.ContextParallel}
	opts := newOptionSet(pc, sp)
	multi := 0
	consider := func(single bool) {
		for i := range sp.len() {
			h, ok := sp.at(i)
			if !ok {
				continue
			}
			if one := h.Count <= gpusPerNode(h) && h.Interconnect != IB; one != single {
				if single {
					multi++
				}
				continue
			}
			rec.Considered++
			opts.add(i, &h)
		}
	}
	// Single boxes first: several nodes are searched only when no single
	// node fits or the fastest one would take more than a day.
	consider(true)
	if multi > 0 {
		if fastest, any := opts.fastest(); !any || (pc.info.AmountKnown && fastest > 24) {
			consider(false)
		} else {
			rec.Notes = append(rec.Notes, pc.pr.T("multi-node options left out: one node finishes within a day"))
		}
	}
	// Only the options that may be picked are timed; the others are
	// checked for fit.
	feasible, fit := opts.ranked()
	rec.Feasible = fit
	if fit == 0 {
		rec.Notes = append(rec.Notes, pc.pr.T("nothing in the search fits: see the out-of-memory advice"))
		return rec
	}
	byTime := append([]ranked(nil), feasible...)
	sort.SliceStable(byTime, func(a, b int) bool {
		ta, tb := byTime[a].hours, byTime[b].hours
		if math.Abs(ta-tb) > 1e-9*ta {
			return ta < tb
		}
		return byTime[a].cost < byTime[b].cost
	})
	byCost := feasible
	sort.SliceStable(byCost, func(a, b int) bool {
		ca, cb := byCost[a].cost, byCost[b].cost
		if math.Abs(ca-cb) > 1e-9*ca {
			return ca < cb
		}
		return byCost[a].hours < byCost[b].hours
	})
	cheapest := byCost[cheapestOf(len(byCost), func(i int) float64 { return byCost[i].cost }, func(i int) int { return byCost[i].gpus })].src
	// Balanced: the fastest option that costs at most 1.5x the cheapest and
	// does not use more than 8 GPUs for less than a day's work; a served
	// model with no load said keeps to one replica's GPUs (oneReplica).
	limit := byCost[0].cost * 1.5
	balanced := cheapest
	fewest := pc.oneReplica(sp, feasible)
	for _, o := range byTime {
		if o.cost <= limit && (o.gpus <= 8 || o.hours > 24) && (fewest == nil || o.gpus <= fewest[hwKey(sp, o.src)]) {
			balanced = o.src
			break
		}
	}
	// Only the picks are evaluated in full (their layouts found again); an
	// option picked twice is one estimate.
	var built [3]*Estimate
	var builtFrom [3]int
	nb := 0
	pick := func(i int) *Estimate {
		for k := range nb {
			if builtFrom[k] == i {
				return built[k]
			}
		}
		h, _ := sp.at(i)
		prec, _ := pickPrecision(pc.job, h.GPU)
		o := pc.best(h, prec, false, nil, nil)
		built[nb], builtFrom[nb] = pc.estimate(h, &o), i
		nb++
		return built[nb-1]
	}
	fastest := byTime[fastestOf(len(byTime), func(i int) float64 { return byTime[i].hours }, func(i int) float64 { return byTime[i].cost })].src
	rec.Fastest, rec.Cheapest, rec.Balanced = pick(fastest), pick(cheapest), pick(balanced)
	for _, e := range []*Estimate{rec.Fastest, rec.Cheapest, rec.Balanced} {
		if e.Launch == "" {
			pc.describe(e)
		}
	}
	return rec
}

// pickTie is how close to the best value an option may be and still be
// the pick for a reason of its own: the model cannot tell 1 % apart.
const pickTie = 1.01

// cheapestOf returns the cheapest pick among n options sorted by cost: of
// those within pickTie of the lowest cost, the one on the fewest GPUs,
// which are easier to get and to run, the cheaper first.
func cheapestOf(n int, cost func(int) float64, gpus func(int) int) int {
	best := 0
	for i := 1; i < n && cost(i) <= cost(0)*pickTie; i++ {
		if gpus(i) < gpus(best) {
			best = i
		}
	}
	return best
}

// fastestOf returns the fastest pick among n options sorted by time: of
// those within pickTie of the least time, the cheapest. A decode bound by
// the host runs as fast on one GPU as on four, and four cost four times.
func fastestOf(n int, hours, cost func(int) float64) int {
	best := 0
	for i := 1; i < n && hours(i) <= hours(0)*pickTie; i++ {
		if cost(i) < cost(best) {
			best = i
		}
	}
	return best
}

// speedUps fills SpeedUp against one labelled reference, so a comparison
// never silently changes what "2.3x" means: the measured run when there is
// one, else the last column.
func (pc *planContext) speedUps(res *Result) {
	if len(res.Plans) == 0 || len(res.Plans) < 2 && res.Baseline == nil {
		return // a measured run with no named target: nothing to compare
	}
	ref := res.Plans[len(res.Plans)-1]
	label := pc.pr.Tf("vs %d× %s (last column)", ref.GPUs, ref.GPUName)
	if res.Baseline != nil && res.Baseline.BaselinePlan != nil {
		ref = res.Baseline.BaselinePlan
		label = pc.pr.Tf("vs your measured run (%s, %s)", res.Baseline.Hardware, ref.Precision)
	}
	base := ref.Time.HoursPerMillionSamples
	if base <= 0 {
		return
	}
	res.SpeedUpBase = label
	for _, e := range res.Plans {
		if e.Time.HoursPerMillionSamples > 0 {
			e.SpeedUp = base / e.Time.HoursPerMillionSamples
		}
	}
}

// oneReplica is, for a served decoder with no load said, the fewest GPUs
// of each type (keyed by hwKey) that hold one replica: more GPUs on one
// replica only quicken a single stream, while a service grows by
// replicas, so the balanced pick stays on one replica's GPUs (a 7B model
// is served on one 4090, not split over four). nil for any other job.
func (pc *planContext) oneReplica(sp searchSpace, feasible []ranked) map[string]int {
	j := pc.job
	if j.Workload != Inference || forwardOnly(j.Model) || j.Concurrency > 0 || j.RequestRate > 0 || j.OutputTokPS > 0 || j.GlobalBatch > 0 || j.Engine.Local() {
		return nil
	}
	fewest := map[string]int{}
	for _, o := range feasible {
		k := hwKey(sp, o.src)
		if n, ok := fewest[k]; !ok || o.gpus < n {
			fewest[k] = o.gpus
		}
	}
	return fewest
}

// hwKey names the GPU type and server of search option i.
func hwKey(sp searchSpace, i int) string {
	h, _ := sp.at(i)
	return h.Server + "/" + h.GPU.ID
}
