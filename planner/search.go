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
	o, _ := pc.best(h, true, nil)
	return pc.estimate(&o)
}

// option is one GPU type × count with its best layout and the keys the
// search ranks by. The search probes thousands of layouts: it compares
// numbers and builds (and names) an estimate only for what it keeps.
type option struct {
	h     Hardware
	l     layout // the layout to evaluate; the zero layout when h has none
	found bool   // l is set
	fits  bool
	gpus  int
	hours float64 // sortKeyHours
	cost  float64 // sortKeyCost
	e     *Estimate
}

// estimate builds the full estimate of o, noting a precision fallback.
func (pc *planContext) estimate(o *option) *Estimate {
	e := o.e
	if e == nil {
		e = new(Estimate)
		if o.found {
			*e = pc.evaluate(o.h, o.l)
		}
	}
	if _, precNote := pickPrecision(pc.job, o.h.GPU); precNote != "" {
		e.Notes = append([]string{precNote}, e.Notes...)
	}
	return e
}

// best finds the fastest layout of the job on h that fits; with
// smallestToo, the smallest one when nothing fits (the search drops such
// options and does not ask). buf is reused for the layouts.
//
// A layout is ruled out as early as its numbers allow: one that does not
// fit at micro-batch 1 costs one memory estimate, one that cannot keep
// the global batch where another does is not timed, and only the winner
// is evaluated in full.
func (pc *planContext) best(h Hardware, smallestToo bool, buf []layout) (option, []layout) {
	j := pc.job
	prec, _ := pickPrecision(j, h.GPU)
	o := option{h: h, gpus: h.Count}
	ls := pc.layouts(h, prec, buf)
	if j.Workload == Inference {
		for _, l := range ls { // one layout
			e := pc.evaluate(h, l)
			o.l, o.found, o.fits, o.e = l, true, e.Memory.Fits, &e
			o.gpus, o.hours, o.cost = e.GPUs, e.sortKeyHours(), e.sortKeyCost()
		}
		return o, ls
	}
	var bestL, smallL layout
	var bestS sizedLayout
	var bestT stepTime
	var bestPer, smallGiB float64
	haveBest, haveSmallest := false, false
	bestKeeps := false
	var lastNoCkpt layout
	lastNoCkptFast := false
	for _, l := range ls {
		// Recomputation only pays when it buys a usefully larger
		// micro-batch: skip it when the same layout already fits without it
		// at a micro-batch that fills the GPU.
		if l.ckpt && lastNoCkptFast && l.tp == lastNoCkpt.tp && l.pp == lastNoCkpt.pp && l.strategy == lastNoCkpt.strategy && !j.Checkpointing {
			continue
		}
		s := pc.size(l)
		if !l.ckpt {
			lastNoCkpt = l
			lastNoCkptFast = s.mem.Fits && float64(s.l.micro*max(j.SeqLen, 1)) >= 2048
		}
		if !s.mem.Fits {
			// only the smallest counts, and only while nothing fits
			if smallestToo && !haveBest && (!haveSmallest || s.mem.PerGPUGiB < smallGiB) {
				smallL, smallGiB, haveSmallest = l, s.mem.PerGPUGiB, true
			}
			continue
		}
		// A layout that cannot keep the requested global batch (more
		// replicas than samples per step) only wins when nothing else fits.
		keeps := j.GlobalBatch == 0 || s.global == j.GlobalBatch
		if haveBest && bestKeeps && !keeps {
			continue
		}
		t := pc.stepTime(h, s)
		per := t.step / float64(s.global)
		// A layout listed later is more complex; it must be clearly faster.
		if !haveBest || (keeps && !bestKeeps) || (keeps == bestKeeps && per < bestPer*0.97) {
			bestL, bestS, bestT, bestPer, haveBest, bestKeeps = l, s, t, per, true, keeps
		}
	}
	switch {
	case haveBest:
		o.l, o.found, o.fits = bestL, true, true
		o.hours = pc.rankHours(h.Count, bestT.samplesPerS(bestS))
		o.cost = o.hours * float64(h.Count) * h.GPU.PriceUSD
	case haveSmallest:
		o.l, o.found = smallL, true
	}
	return o, ls
}

// layouts enumerates the strategies worth trying on h: sharding stages,
// gradient checkpointing, tensor/pipeline parallel for the tuned stack,
// with the largest micro-batch that fits each.
func (pc *planContext) layouts(h Hardware, prec Precision, buf []layout) []layout {
	j := pc.job
	n := h.Count
	base := layout{gpu: h.GPU, n: n, tp: 1, pp: 1, precision: prec, attention: j.Attention}
	if j.Workload == Inference {
		l := base
		l.micro = max(1, j.GlobalBatch)
		if forwardOnly(j.Model) {
			// replicas: each GPU runs its own share of the batch
			l.micro = max(1, (j.GlobalBatch+n-1)/n)
		}
		return append(buf[:0], l)
	}
	strategies := []Strategy{DDP}
	if j.Strategy != StrategyAuto {
		strategies = []Strategy{j.Strategy}
	} else if n > 1 {
		strategies = []Strategy{DDP, ZeRO1, ZeRO2, ZeRO3}
	}
	ckpts := []bool{false, true}
	if j.Checkpointing {
		ckpts = []bool{true}
	}
	type mp struct{ tp, pp int }
	mps := []mp{{1, 1}}
	perNode := gpusPerNode(h)
	if j.Stack == Tuned && j.Model.IsTransformer() && j.Model.Kind != VisionViT && j.Workload != QLoRA {
		for tp := 2; tp <= min(8, perNode, n); tp *= 2 {
			if j.Model.Heads%tp == 0 && n%tp == 0 {
				mps = append(mps, mp{tp, 1})
				for pp := 2; pp <= 16 && tp*pp <= n; pp *= 2 {
					// stages may be uneven (61 layers over 16 stages is fine)
					if j.Model.Layers >= 2*pp && n%(tp*pp) == 0 && tp == min(8, perNode) {
						mps = append(mps, mp{tp, pp})
					}
				}
			}
		}
	}
	out := buf[:0]
	cp := max(1, j.ContextParallel)
	for _, m := range mps {
		if n%(m.tp*m.pp*cp) != 0 {
			continue
		}
		for _, s := range strategies {
			if m.tp*m.pp > 1 && (s == ZeRO2 || s == ZeRO3) {
				continue // Megatron pairs TP/PP with the distributed optimizer (ZeRO-1)
			}
			if n/(m.tp*m.pp) == 1 && s != DDP && j.Strategy == StrategyAuto {
				continue // nothing to shard over
			}
			for _, ck := range ckpts {
				l := base
				l.tp, l.pp, l.strategy, l.ckpt, l.cp = m.tp, m.pp, s, ck, cp
				out = append(out, l)
			}
		}
	}
	return out
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
	if j.GlobalBatch > 0 {
		per := max(1, j.GlobalBatch/dp)
		if l.pp > 1 {
			capB = 1 // pipelines want many small micro-batches to fill the bubble
		}
		if j.MicroBatch > 0 {
			micro = j.MicroBatch
		} else {
			micro = 1
			for b := min(per, maxFit, capB); b >= 1; b-- {
				if per%b == 0 {
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
		micro = max(1, min(maxFit, capB))
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
	if pool == nil {
		for _, g := range pc.cat.GPUs {
			for _, n := range searchCounts {
				if n > 8 && !g.SXM {
					continue // PCIe boxes above 8 GPUs are rare; multi-node is planned on SXM parts
				}
				if cp := pc.job.ContextParallel; cp > 1 && n%cp != 0 {
					continue
				}
				pool = append(pool, Hardware{GPU: g, Count: n})
			}
		}
	}
	feasible := make([]option, 0, len(pool))
	var buf []layout
	consider := func(hs []Hardware) {
		for _, h := range hs {
			rec.Considered++
			var o option
			o, buf = pc.best(h, false, buf)
			if o.fits {
				feasible = append(feasible, o)
			}
		}
	}
	// Single boxes first: several nodes are searched only when no single
	// node fits or the fastest one would take more than a day.
	var single, multi []Hardware
	for _, h := range pool {
		if h.Count <= gpusPerNode(h) && h.Interconnect != IB {
			single = append(single, h)
		} else {
			multi = append(multi, h)
		}
	}
	consider(single)
	if len(multi) > 0 {
		fastest := math.Inf(1)
		for _, o := range feasible {
			fastest = math.Min(fastest, o.hours)
		}
		if len(feasible) == 0 || (pc.info.AmountKnown && fastest > 24) {
			consider(multi)
		} else {
			rec.Notes = append(rec.Notes, "multi-node options left out: one node finishes within a day")
		}
	}
	rec.Feasible = len(feasible)
	if len(feasible) == 0 {
		rec.Notes = append(rec.Notes, "nothing in the search fits: see the out-of-memory advice")
		return rec
	}
	byTime := make([]int, len(feasible))
	for i := range byTime {
		byTime[i] = i
	}
	byCost := append([]int(nil), byTime...)
	sort.SliceStable(byTime, func(a, b int) bool {
		ta, tb := feasible[byTime[a]].hours, feasible[byTime[b]].hours
		if math.Abs(ta-tb) > 1e-9*ta {
			return ta < tb
		}
		return feasible[byTime[a]].cost < feasible[byTime[b]].cost
	})
	sort.SliceStable(byCost, func(a, b int) bool {
		ca, cb := feasible[byCost[a]].cost, feasible[byCost[b]].cost
		if math.Abs(ca-cb) > 1e-9*ca {
			return ca < cb
		}
		return feasible[byCost[a]].hours < feasible[byCost[b]].hours
	})
	// Balanced: the fastest option that costs at most 1.5x the cheapest and
	// does not use more than 8 GPUs for less than a day's work.
	limit := feasible[byCost[0]].cost * 1.5
	balanced := byCost[0]
	for _, i := range byTime {
		if o := &feasible[i]; o.cost <= limit && (o.gpus <= 8 || o.hours > 24) {
			balanced = i
			break
		}
	}
	// Only the picks are evaluated in full; an option picked twice is one
	// estimate.
	var built [3]*Estimate
	var builtFrom [3]int
	nb := 0
	pick := func(i int) *Estimate {
		for k := range nb {
			if builtFrom[k] == i {
				return built[k]
			}
		}
		built[nb], builtFrom[nb] = pc.estimate(&feasible[i]), i
		nb++
		return built[nb-1]
	}
	rec.Fastest, rec.Cheapest, rec.Balanced = pick(byTime[0]), pick(byCost[0]), pick(balanced)
	for _, e := range []*Estimate{rec.Fastest, rec.Cheapest, rec.Balanced} {
		if e.Launch == "" {
			pc.describe(e)
		}
	}
	return rec
}

// speedUps fills SpeedUp against one labelled reference, so a comparison
// never silently changes what "2.3x" means: the measured run when there is
// one, else the last column.
func (pc *planContext) speedUps(res *Result) {
	if len(res.Plans) == 0 || len(res.Plans) < 2 && res.Baseline == nil {
		return // a measured run with no named target: nothing to compare
	}
	ref := res.Plans[len(res.Plans)-1]
	label := fmt.Sprintf("vs %d× %s (last column)", ref.GPUs, ref.GPUName)
	if res.Baseline != nil && res.Baseline.BaselinePlan != nil {
		ref = res.Baseline.BaselinePlan
		label = fmt.Sprintf("vs your measured run (%s, %s)", res.Baseline.Hardware, ref.Precision)
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
