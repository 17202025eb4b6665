package commands

import (
	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// loadServer answers which server suits a serving load said ("초당 요청 20개
// … 어느 서버가 제일 적당해?"): of the team's options that carry it, the
// one that holds the fewest GPU-dollars an hour, not the fastest, which
// would take all of a server's GPUs for a load one of another carries.
func loadServer(p *i18n.Printer, rd lang.Reading, res *planner.Result) string {
	j := rd.Request.Job
	if j.Workload != planner.Inference || j.RequestRate <= 0 && j.Concurrency <= 0 {
		return ""
	}
	var best *planner.Estimate
	cost := func(e *planner.Estimate) float64 { return float64(e.GPUs) * e.PriceUSDPerGPUH }
	recs := res.Recommendations
	for _, e := range append(append([]*planner.Estimate(nil), res.Plans...), recs.Cheapest, recs.Balanced, recs.Fastest) {
		if e == nil || e.Server == "" || !e.Memory.Fits || e.Serving == nil || e.Serving.Saturated {
			continue
		}
		if best == nil || cost(e) < cost(best) {
			best = e
		}
	}
	if best == nil {
		return ""
	}
	return p.Tf("%s carries that load on %d× %s, the least of the team's GPUs that do", best.Server, best.GPUs, best.GPUName)
}
