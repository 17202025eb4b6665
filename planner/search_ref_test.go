package planner

import (
	"math"
	"sort"
)

// The exhaustive search as it was before layouts were pruned and only
// winners were named (issue 13): every layout of every option is
// evaluated in full. search_equiv_test.go holds the pruned search to the
// same answers.

func useReferenceSearch() func() {
	reference = &referenceSearch{choose: (*planContext).refChoose, search: (*planContext).refSearch}
	return func() { reference = nil }
}

func (pc *planContext) refLayouts(h Hardware, prec Precision) []layout {
	var out []layout
	pc.eachLayout(h, prec, func(_ int, l layout) bool { out = append(out, l); return true })
	return out
}

func (pc *planContext) refChoose(h Hardware) *Estimate {
	j := pc.job
	prec, precNote := pickPrecision(j, h.GPU)
	var best, smallest Estimate
	haveBest, haveSmallest := false, false
	bestGap := 0
	var lastNoCkpt layout
	lastNoCkptFast := false
	for _, l := range pc.refLayouts(h, prec) {
		if l.ckpt && lastNoCkptFast && l.tp == lastNoCkpt.tp && l.pp == lastNoCkpt.pp && l.strategy == lastNoCkpt.strategy && !j.Checkpointing {
			continue
		}
		e := pc.evaluate(h, l)
		if !l.ckpt {
			lastNoCkpt = l
			lastNoCkptFast = e.Memory.Fits && float64(e.MicroBatch*max(j.SeqLen, 1)) >= 2048
		}
		// keeping the global batch first, else the closest to it (in 2 %
		// steps), then speed
		gap := 0
		if off := e.GlobalBatch - j.GlobalBatch; j.GlobalBatch > 0 && off != 0 {
			gap = 1 + max(off, -off)*50/j.GlobalBatch
		}
		better := !haveBest || gap < bestGap ||
			(gap == bestGap && e.Time.StepS/float64(e.GlobalBatch) < best.Time.StepS/float64(best.GlobalBatch)*0.97)
		if e.Memory.Fits && better {
			best, haveBest, bestGap = e, true, gap
		}
		if !haveSmallest || e.Memory.PerGPUGiB < smallest.Memory.PerGPUGiB {
			smallest, haveSmallest = e, true
		}
	}
	e := new(Estimate)
	if haveBest {
		*e = best
	} else {
		*e = smallest
	}
	if precNote != "" {
		e.Notes = append([]string{precNote}, e.Notes...)
	}
	return e
}

func (pc *planContext) refSearch(pool []Hardware) Recommendations {
	var rec Recommendations
	if pool == nil {
		for _, g := range pc.cat.GPUs {
			for _, n := range searchCounts {
				if n > 8 && !g.SXM {
					continue
				}
				if cp := pc.job.ContextParallel; cp > 1 && n%cp != 0 {
					continue
				}
				pool = append(pool, Hardware{GPU: g, Count: n})
			}
		}
	}
	var feasible []*Estimate
	consider := func(hs []Hardware) {
		for _, h := range hs {
			rec.Considered++
			e := pc.refChoose(h)
			if e.Memory.Fits {
				feasible = append(feasible, e)
			}
		}
	}
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
		for _, e := range feasible {
			fastest = math.Min(fastest, e.sortKeyHours())
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
	byTime := append([]*Estimate(nil), feasible...)
	sort.SliceStable(byTime, func(a, b int) bool {
		ta, tb := byTime[a].sortKeyHours(), byTime[b].sortKeyHours()
		if math.Abs(ta-tb) > 1e-9*ta {
			return ta < tb
		}
		return byTime[a].sortKeyCost() < byTime[b].sortKeyCost()
	})
	byCost := append([]*Estimate(nil), feasible...)
	sort.SliceStable(byCost, func(a, b int) bool {
		ca, cb := byCost[a].sortKeyCost(), byCost[b].sortKeyCost()
		if math.Abs(ca-cb) > 1e-9*ca {
			return ca < cb
		}
		return byCost[a].sortKeyHours() < byCost[b].sortKeyHours()
	})
	defer func() {
		for _, e := range []*Estimate{rec.Fastest, rec.Cheapest, rec.Balanced} {
			if e.Launch == "" {
				pc.describe(e)
			}
		}
	}()
	rec.Fastest = byTime[fastestOf(len(byTime), func(i int) float64 { return byTime[i].sortKeyHours() }, func(i int) float64 { return byTime[i].sortKeyCost() })]
	rec.Cheapest = byCost[cheapestOf(len(byCost), func(i int) float64 { return byCost[i].sortKeyCost() }, func(i int) int { return byCost[i].GPUs })]
	limit := byCost[0].sortKeyCost() * 1.5
	rec.Balanced = rec.Cheapest
	for _, e := range byTime {
		if e.sortKeyCost() <= limit && (e.GPUs <= 8 || e.sortKeyHours() > 24) {
			rec.Balanced = e
			break
		}
	}
	return rec
}
