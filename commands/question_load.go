package commands

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// fewestForLoad answers "how many L4s to serve llama 3 8b at 2 req/s" (or
// for 50 concurrent users): for each tensor-parallel size that holds the
// model, as many replicas as the load takes — its requests in flight in
// the KV cache, its rate within what one replica serves at its fullest —
// and the fewest GPUs in all. The plan shown is one replica.
//
// A latency target said ("응답 지연 2초 이내", "500 ms time to first
// token") takes more replicas when one replica's share of the load runs
// over it: each replica then carries fewer requests at once.
func (s *Set) fewestForLoad(p *i18n.Printer, rd lang.Reading, req planner.Request) (planner.Request, string, error) {
	base := req.Targets[0]
	name := base.GPU.Name
	bestTotal, bestTP, bestReplicas := 0, 0, 0
	missTP, missGot := 0, 0.0 // the fewest GPUs that hold it but miss the latency target, and their time
	batched := 0              // the batch an embedding server runs the load at (the planner's bulkBatch)
	price := 0.0              // one GPU's hourly price, as the plans priced it
	for _, tp := range countLadder {
		if bestTotal > 0 && tp >= bestTotal {
			break
		}
		hw := base
		hw.Count, hw.GPUsPerNode = tp, 0
		r, err := s.deps.Catalog.Plan(planner.Request{Job: req.Job, Targets: []planner.Hardware{hw}, NoSearch: true})
		if err != nil || len(r.Plans) == 0 || !r.Plans[0].Memory.Fits {
			continue
		}
		sv := r.Plans[0].Serving
		price = r.Plans[0].PriceUSDPerGPUH
		if sv == nil {
			// a forward-only model (an encoder, a vision model)
			var total int
			if total, batched = forwardOnlyGPUs(req.Job, hw, r); total > 0 && (bestTotal == 0 || total < bestTotal) {
				bestTotal, bestTP, bestReplicas = total, 1, total
			}
			break
		}
		replicas := 1
		if c := req.Job.Concurrency; c > 0 && sv.MaxInFlight > 0 {
			replicas = max(replicas, (c+sv.MaxInFlight-1)/sv.MaxInFlight)
		}
		rate := req.Job.RequestRate
		if rate == 0 && req.Job.OutputTokPS > 0 && sv.OutputTokens > 0 {
			rate = req.Job.OutputTokPS / float64(sv.OutputTokens) // "20k tok/s": requests of this output length
		}
		if rate > 0 && sv.Saturated && sv.RequestsPerS > 0 {
			replicas = max(replicas, int(math.Ceil(rate/sv.RequestsPerS)))
		}
		if rd.LatencyTargetS > 0 {
			r, ok := s.replicasForLatency(rd, req.Job, hw, replicas, rate)
			if !ok {
				if missTP == 0 {
					missTP = tp
					missGot = servedLatency(rd, sv)
				}
				continue // no replica count at this size meets it
			}
			replicas = r
		}
		if total := tp * replicas; bestTotal == 0 || total < bestTotal {
			bestTotal, bestTP, bestReplicas = total, tp, replicas
		}
	}
	if bestTotal == 0 && missTP > 0 {
		// it fits, but no count meets the latency said
		what := latencyOf(p, rd)
		return req, p.Tf("No count of %s meets the %s target for %s: on %d (the fewest that hold it) it takes %s. If you meant each token's time or the first token's, say `%s per token` or `ttft %s`.",
			name, planner.FormatSeconds(rd.LatencyTargetS), what, missTP, planner.FormatSeconds(missGot), latencyWords(rd.LatencyTargetS), latencyWords(rd.LatencyTargetS)), nil
	}
	if bestTotal == 0 {
		return req, p.Tf("%s does not hold this job at up to %d GPUs — see the recommendations", name, countLadder[len(countLadder)-1]), nil
	}
	req.Targets[0].Count, req.Targets[0].GPUsPerNode = bestTP, 0
	req.Job = replicaShare(req.Job, bestReplicas)
	line := fmt.Sprintf("%d× %s", bestTotal, name) + p.Tf(" — %d replicas of %d, the fewest that serve that load (one replica below)", bestReplicas, bestTP)
	if bestReplicas == 1 {
		line = fmt.Sprintf("%d× %s", bestTotal, name) + p.T(" — the fewest that fit and serve that load")
	}
	if batched > 0 {
		line += p.Tf("; requests batched %d at a time, where a GPU's throughput levels off, as a server's dynamic batcher runs them (TEI, Triton)", batched)
	}
	if (rd.Ask == lang.AskCost || rd.AlsoCost) && price > 0 {
		// "비용도 같이 알려주세요": a server that runs around the clock
		h := float64(bestTotal) * price
		line += p.Tf("; %s an hour, %s a month around the clock", money(h), money(h*730))
	}
	return req, line, nil
}

// forwardOnlyGPUs is the GPUs a forward-only model (an encoder, a vision
// model) takes for a request rate: each GPU answers on its own at the
// plan's rate, so the load's rate over one GPU's is the GPUs it takes.
// With no batch said the planner runs the load at a server's batch
// (bulkBatch); that batch is returned to be said. 0 GPUs when the load is
// not a rate.
func forwardOnlyGPUs(j planner.Job, hw planner.Hardware, r *planner.Result) (gpus, batched int) {
	e := r.Plans[0]
	if j.GlobalBatch == 0 && e.GlobalBatch > hw.Count {
		batched = e.GlobalBatch / hw.Count
	}
	sps := e.Throughput.SamplesPerS
	if sps <= 0 || j.RequestRate <= 0 {
		return 0, batched
	}
	return max(1, int(math.Ceil(j.RequestRate/(sps/float64(hw.Count))))), batched
}

// loadOnServer answers how many of a team server's GPUs a serving load
// takes: the fewest that carry it, and whether the server has them.
func (s *Set) loadOnServer(p *i18n.Printer, rd lang.Reading, req planner.Request) (planner.Request, string, error) {
	have, server := req.Targets[0].Count, req.Targets[0].Server
	open := req
	open.Targets = slices.Clone(req.Targets)
	open.Targets[0].Count = 1
	out, line, err := s.fewestForLoad(p, rd, open)
	if err != nil || line == "" || out.Job.RequestRate <= 0 && out.Job.Concurrency <= 0 {
		return req, line, err
	}
	replicas := 1
	switch {
	case out.Job.RequestRate > 0:
		replicas = int(math.Round(req.Job.RequestRate / out.Job.RequestRate))
	case out.Job.Concurrency > 0:
		replicas = (req.Job.Concurrency + out.Job.Concurrency - 1) / out.Job.Concurrency
	}
	if total := out.Targets[0].Count * max(1, replicas); total > have {
		return out, p.Tf("%s's %d GPUs are not enough: %s", server, have, line), nil
	}
	return out, p.Tf("%s can carry it: %s (it has %d)", server, line, have), nil
}

// replicaShare is the load one of n replicas carries: its share of the
// requests in flight and of the request rate.
func replicaShare(j planner.Job, n int) planner.Job {
	if n <= 1 {
		return j
	}
	if j.Concurrency > 0 {
		j.Concurrency = (j.Concurrency + n - 1) / n
	}
	if j.RequestRate > 0 {
		j.RequestRate /= float64(n)
	}
	if j.OutputTokPS > 0 {
		j.OutputTokPS /= float64(n)
	}
	return j
}

// replicasForLatency is the fewest replicas, from least on, whose share
// of the load keeps a request (or its first token, when that is the
// target) within the latency said; ok is false when none up to 256 does.
func (s *Set) replicasForLatency(rd lang.Reading, j planner.Job, hw planner.Hardware, least int, rate float64) (int, bool) {
	for n := least; n <= 256; n += max(1, n/4) {
		r, err := s.deps.Catalog.Plan(planner.Request{Job: replicaShare(j, n), Targets: []planner.Hardware{hw}, NoSearch: true})
		if err != nil || len(r.Plans) == 0 || r.Plans[0].Serving == nil || !r.Plans[0].Memory.Fits {
			return 0, false
		}
		sv := r.Plans[0].Serving
		got := servedLatency(rd, sv)
		if got <= rd.LatencyTargetS && !sv.Saturated {
			return n, true
		}
		if j.Concurrency > 0 && (j.Concurrency+n-1)/n <= 1 && rate == 0 {
			return 0, false // one request each and still over: more replicas do not help
		}
	}
	return 0, false
}

// servingSpanCost answers "한 달 서빙하면 얼마", "24/7 for a month on
// A100s": the plan's GPUs at their hourly price for the span said, with
// what they serve in it; each column of a comparison ("a100이랑 h100 중
// 뭐가 싸?") side by side, the cheaper named; against the budget when
// one was said ("월 300만원"); "" when nothing fits or has a price.
func servingSpanCost(p *i18n.Printer, rd lang.Reading, res *planner.Result) string {
	hours := rd.ServeHours
	spanCost := func(e *planner.Estimate) float64 { return e.PriceUSDPerGPUH * float64(e.GPUs) * hours }
	if res.Compare && len(res.Plans) > 1 {
		var parts []string
		var cheapest *planner.Estimate
		for _, e := range res.Plans {
			if !e.Memory.Fits || e.PriceUSDPerGPUH <= 0 {
				parts = append(parts, p.Tf("%s: does not fit", hwText(p, e)))
				continue
			}
			parts = append(parts, p.Tf("%s: %s (%.0f tokens/s)", hwText(p, e), money(spanCost(e)), e.Throughput.TokensPerS))
			if cheapest == nil || spanCost(e) < spanCost(cheapest) {
				cheapest = e
			}
		}
		if cheapest == nil {
			return ""
		}
		s := p.Tf("For %.0f hours of serving: %s — %s costs least.", hours, strings.Join(parts, " · "), hwText(p, cheapest))
		return s + spanBudget(p, rd, spanCost(cheapest))
	}
	e := firstEstimate(res)
	if c := res.Recommendations.Cheapest; (len(rd.Request.Targets) == 0 || rd.CountUnsaid) && c != nil && c.Memory.Fits &&
		c.PriceUSDPerGPUH > 0 && (c.Serving == nil || !c.Serving.Saturated) && (e == nil || spanCost(c) < spanCost(e) && (len(rd.Request.Targets) == 0 || c.GPU == e.GPU)) {
		e = c // no count said: the month on the fewest GPUs that serve the load, not a whole server
	}
	if e == nil || !e.Memory.Fits || e.PriceUSDPerGPUH <= 0 {
		return ""
	}
	cost := spanCost(e)
	s := p.Tf("%s: about %s for %.0f hours of serving (%s GPU-hours at $%.2f)", hwText(p, e), money(cost), hours, p.Count(hours*float64(e.GPUs)), e.PriceUSDPerGPUH)
	count := func(v float64) string { return bigCount(p, v) }
	if tps := e.Throughput.TokensPerS; tps > 0 {
		s += p.Tf(", up to %s tokens in that time at %.0f tokens/s", count(tps*hours*3600), tps)
	} else if sps := e.Throughput.SamplesPerS; sps > 0 {
		s += p.Tf(", up to %s requests in that time at %.0f a second", count(sps*hours*3600), sps)
	}
	return s + "." + spanBudget(p, rd, cost)
}

// spanBudget says whether a span of serving's cost is within the budget
// said; "" with no budget.
func spanBudget(p *i18n.Printer, rd lang.Reading, cost float64) string {
	switch {
	case rd.Budget <= 0:
		return ""
	case cost <= rd.Budget:
		return " " + p.Tf("Within your %s budget.", money(rd.Budget))
	}
	return " " + p.Tf("Over your %s budget by %s: a smaller quantised model (int4 AWQ/GPTQ) or fewer GPUs brings it down.", money(rd.Budget), money(cost-rd.Budget))
}

// latencyWords is a latency target as a request says it: "100ms", "2s".
func latencyWords(sec float64) string {
	if sec < 1 {
		return fmt.Sprintf("%gms", math.Round(sec*1e4)/10)
	}
	return fmt.Sprintf("%gs", sec)
}

// atOnceWithin answers "how many users at once, each at 20 tokens/s" or
// "… within 50 ms a token" on one setup: the most requests in flight
// whose time per output token stays within the target, up to what the
// KV cache holds. The card plans that many.
func (s *Set) atOnceWithin(p *i18n.Printer, rd lang.Reading, req planner.Request) (planner.Request, string, error) {
	target := rd.LatencyTargetS
	took := func(e *planner.Estimate) float64 { return servedLatency(rd, e.Serving) }
	plan := func(c int) *planner.Estimate {
		r := req
		r.Job.Concurrency, r.Job.RequestRate = c, 0
		if e := s.fixedPlan(r); e != nil && e.Memory.Fits && e.Serving != nil {
			return e
		}
		return nil
	}
	one := plan(1)
	if one == nil || one.Serving.MaxInFlight < 1 {
		return req, "", nil // the card says why it does not fit
	}
	hw, room := hwText(p, one), one.Serving.MaxInFlight
	if took(one) > target {
		req.Job.Concurrency = 1
		return req, p.Tf("Not even one: on %s a single request takes %s for %s, over your %s target; a faster GPU or more tensor parallelism brings it down.",
			hw, planner.FormatSeconds(took(one)), latencyOf(p, rd), lang.LatencyText(target)), nil
	}
	lo, best := mostAtOnce(one, func(c int) *planner.Estimate {
		if e := plan(c); e != nil && took(e) <= target {
			return e
		}
		return nil
	})
	req.Job.Concurrency = lo
	sv := best.Serving
	switch {
	case rd.RequestRate:
		// "QPS 얼마나 나와요? p50 latency 200ms 이하로": the rate at the most
		// requests in flight that stay within the target
		return req, p.Tf("Up to %s requests/s on %s (%d at once), with %s in %s within your %s target.",
			lang.Num(math.Round(sv.RequestsPerS*100)/100), hw, lo, latencyOf(p, rd), planner.FormatSeconds(took(best)), lang.LatencyText(target)), nil
	case rd.LatencyPerToken:
		return req, p.Tf("Up to %d requests at once on %s, each streaming at %s tokens/s (%s a token) within your %s target; the KV cache holds %d.",
			lo, hw, lang.Num(math.Round(1/sv.TPOTS)), planner.FormatSeconds(sv.TPOTS), lang.LatencyText(target), room), nil
	}
	return req, p.Tf("Up to %d requests at once on %s, with %s in %s within your %s target; the KV cache holds %d.",
		lo, hw, latencyOf(p, rd), planner.FormatSeconds(took(best)), lang.LatencyText(target), room), nil
}
