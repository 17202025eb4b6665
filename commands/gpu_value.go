package commands

import (
	"strings"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// valueAsked reports whether a message that sets GPUs side by side asks
// which is the better value ("가성비", "cost-effective", "bang for the
// buck", "per dollar").
func valueAsked(text string) bool {
	low := strings.ToLower(text)
	for _, w := range []string{"가성비", "가격 대비", "가격대비", "cost-effective", "cost effective", "costeffective", "bang for", "value for money", "better value", "best value", "per dollar", "worth it", "worth the"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// valueLine says which of the GPUs does more work per dollar, with no job
// said: compute-bound work (training, prefill, large batches) goes with
// the dense 16-bit tensor peak, memory-bound work (decoding a few streams)
// with the memory bandwidth, each over the GPU's hourly price. The best
// of each is set against the next best.
func valueLine(p *i18n.Printer, gs []planner.GPU) string {
	half := func(g planner.GPU) float64 {
		if v, ok := g.Peak(planner.BF16); ok && v > 0 {
			return v
		}
		v, _ := g.Peak(planner.FP16)
		return v
	}
	compute := func(g planner.GPU) float64 { return half(g) / g.PriceUSD }
	bandwidth := func(g planner.GPU) float64 { return g.MemBWGBs / g.PriceUSD }
	rank := func(by func(planner.GPU) float64) (best, next planner.GPU) {
		for _, g := range gs {
			switch {
			case g.PriceUSD <= 0:
			case best.ID == "" || by(g) > by(best):
				best, next = g, best
			case next.ID == "" || by(g) > by(next):
				next = g
			}
		}
		return best, next
	}
	cb, cn := rank(compute)
	bb, bn := rank(bandwidth)
	if cn.ID == "" || bn.ID == "" {
		return p.T("Per dollar: no price is set for these GPUs; set one in the config.")
	}
	return p.Tf("Per dollar, %s does the most compute-bound work (training, prefill, large batches): %s dense 16-bit TFLOPS per $/h, %.1fx %s's %s. For memory-bound work (decoding a few streams at once), %s leads: %s GB/s per $/h, %.1fx %s's %s.",
		cb.Name, sig(compute(cb)), compute(cb)/compute(cn), cn.Name, sig(compute(cn)),
		bb.Name, sig(bandwidth(bb)), bandwidth(bb)/bandwidth(bn), bn.Name, sig(bandwidth(bn)))
}
