package commands

import (
	"fmt"
	"slices"
	"time"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// nodeGPUs is a node's GPUs where a count is asked in nodes: an HGX or
// DGX server's eight.
const nodeGPUs = 8

// countsToTry is the GPU counts a "how many" question tries, fewest
// first: the ladder, whole nodes only when nodes were asked, and with a
// deadline the ladder's doubling on to the planner's limit, since a
// pre-training run in a month can take thousands of GPUs (Llama 3 70B:
// 6.4M H100-hours).
func countsToTry(rd lang.Reading) []int {
	var out []int
	for _, n := range countLadder {
		if !rd.NodesAsked || n%nodeGPUs == 0 {
			out = append(out, n)
		}
	}
	if rd.Deadline > 0 {
		for n := countLadder[len(countLadder)-1] * 2; n < planner.MaxGPUs; n *= 2 {
			out = append(out, n)
		}
		out = append(out, planner.MaxGPUs-planner.MaxGPUs%nodeGPUs)
	}
	if h := rd.CountHave; h > 0 && !slices.Contains(out, h) && (!rd.NodesAsked || h%nodeGPUs == 0) {
		// "we have 6": the six are tried too, in their place
		at, _ := slices.BinarySearch(out, h)
		out = slices.Insert(out, at, h)
	}
	return out
}

// meets reports whether a plan finishes within the deadline.
func meets(e *planner.Estimate, deadline time.Duration) bool {
	return e.Time.TotalHours != nil && time.Duration(*e.Time.TotalHours*float64(time.Hour)) <= deadline
}

// fewestBetween narrows a deadline's count between a count that misses
// it (lo) and a plan that meets it, in whole nodes: between 512 and 1,024
// GPUs the answer is the node count that does it, not the next power of
// two.
func fewestBetween(plan func(int) *planner.Estimate, deadline time.Duration, lo int, best *planner.Estimate) *planner.Estimate {
	hi := best.GPUs
	for hi-lo > nodeGPUs {
		mid := (lo + hi) / 2 / nodeGPUs * nodeGPUs
		if mid <= lo {
			break
		}
		if e := plan(mid); e != nil && meets(e, deadline) {
			hi, best = mid, e
		} else {
			lo = mid
		}
	}
	return best
}

// minServed is the fewest requests a served model's KV cache must hold
// at once for the fewest GPUs that serve it: continuous batching runs
// them in one pass over the weights, so eight at once decode nearly eight
// times one stream's tokens, where GPUs with room for one or two serve a
// single user at a time.
const minServed = 8

// fewestGPUs answers "how many <GPU>s (to finish by …)?": it tries counts
// of the named GPU and plans the smallest that fits and meets the
// deadline, or the fastest tried when none does.
func (s *Set) fewestGPUs(p *i18n.Printer, rd lang.Reading, req planner.Request) (planner.Request, string, error) {
	if req.Job.Workload == planner.Inference && (req.Job.Concurrency > 0 || req.Job.RequestRate > 0 || req.Job.OutputTokPS > 0) {
		return s.fewestForLoad(p, rd, req)
	}
	base := req.Targets[0]
	var best, fastest *planner.Estimate
	noTotal := false // a deadline asked of work with no total ("10 epochs" of no dataset)
	plan := func(n int) *planner.Estimate {
		hw := base
		hw.Count = n
		hw.GPUsPerNode = 0
		r, err := s.deps.Catalog.Plan(planner.Request{Job: req.Job, Targets: []planner.Hardware{hw}, NoSearch: true, Baseline: req.Baseline})
		if err != nil || len(r.Plans) == 0 || !r.Plans[0].Memory.Fits {
			return nil
		}
		return r.Plans[0]
	}
	missed := 0       // the largest count tried that fits and misses the deadline
	roomless := false // a count that fit served too few requests at once
	for _, n := range countsToTry(rd) {
		e := plan(n)
		if e == nil {
			continue
		}
		if sv := e.Serving; sv != nil && sv.CPULayers > 0 && req.Job.Offload == planner.OffloadNone && n < countLadder[len(countLadder)-1] {
			continue // "how many v100s for llama.cpp 70b": all layers on GPUs, unless offload was asked
		}
		if sv := e.Serving; sv != nil && (req.Job.Engine.Python() || req.Job.Engine == planner.EngineTRTLLM) && sv.MaxInFlight < minServed && n < countLadder[len(countLadder)-1] {
			roomless = true
			continue // "qwen 72b vllm으로 서빙하려면 h100 몇장": room for one request is no service
		}
		if fastest == nil || e.Time.TotalHours != nil && fastest.Time.TotalHours != nil && *e.Time.TotalHours < *fastest.Time.TotalHours {
			fastest = e
		}
		if rd.Deadline > 0 && e.Time.TotalHours == nil {
			best, noTotal = e, true // the deadline cannot be checked: the fewest that fit
			break
		}
		if rd.Deadline > 0 && !meets(e, rd.Deadline) {
			missed = n
			continue
		}
		best = e
		break
	}
	if best != nil && !noTotal && missed >= nodeGPUs {
		best = fewestBetween(plan, rd.Deadline, missed, best)
	}
	name := base.GPU.Name
	switch {
	case best != nil:
		req.Targets[0].Count = best.GPUs
		req.Targets[0].GPUsPerNode = 0
		if rd.GPUHours && best.Time.TotalHours != nil {
			return req, gpuHoursLine(p, best, hwText(p, best)), nil // "how many h100 hours for …"
		}
		line := fewestLine(p, rd, best, name, noTotal)
		if roomless && best.Serving != nil {
			line += p.Tf(" with room for %d requests at once (fewer GPUs hold the weights with room for too few: a serving engine batches at least %d)", best.Serving.MaxInFlight, minServed)
		}
		if rd.Deadline == 0 {
			if n := s.fewestWithKernels(rd, req, best.GPUs); n > 0 {
				line += p.Tf("; with fused kernels and a chunked loss (Liger: `use_liger_kernel=True`; say `liger`), %d", n)
			}
		}
		return req, line, nil
	case fastest != nil:
		req.Targets[0].Count = fastest.GPUs
		req.Targets[0].GPUsPerNode = 0
		return req, p.Tf("no count of %s finishes within %s (%s); the fastest tried is %d× at %s",
			name, durationWords(p, rd.Deadline), rd.DeadlineWords, fastest.GPUs, planner.FormatHoursIn(p, *fastest.Time.TotalHours)), nil
	default:
		return req, p.Tf("%s does not hold this job at up to %d GPUs — see the recommendations", name, countLadder[len(countLadder)-1]), nil
	}
}

// fewestWithKernels is the fewest of req's GPU that hold its training
// job with fused kernels and a chunked loss (Liger's, as `liger` plans
// it), when that is half the count the plain Hugging Face stack needs or
// less; 0 otherwise. A long sequence's logits do not shrink with more
// GPUs — every GPU holds its own micro-batch's — so the plain stack's
// count can grow far past what a fused loss needs: 64 H100s for an 8B
// fine-tune at 32K tokens, where Liger's needs a few.
func (s *Set) fewestWithKernels(rd lang.Reading, req planner.Request, count int) int {
	j := req.Job
	if j.Workload == planner.Inference || j.Stack != "" && j.Stack != planner.HF || j.Model.Vocab == 0 || count < 4 {
		return 0
	}
	j.Stack = planner.Tuned
	for _, n := range countsToTry(rd) {
		if n > count/2 {
			break
		}
		hw := req.Targets[0]
		hw.Count, hw.GPUsPerNode = n, 0
		if e := s.fixedPlan(planner.Request{Job: j, Targets: []planner.Hardware{hw}, Baseline: req.Baseline}); e != nil && e.Memory.Fits {
			return n
		}
	}
	return 0
}

// haveLead answers a count asked of the GPUs the asker has ("do we need
// all 8?", "8장 중에 몇 장"), before the count found: how many of them
// are enough, all of them, or that they are too few.
func haveLead(p *i18n.Printer, have, need int) string {
	switch {
	case have <= 0:
		return ""
	case need < have:
		return p.Tf("%d of your %d are enough: ", need, have)
	case need == have:
		return p.Tf("All %d are needed: ", have)
	}
	return p.Tf("Your %d are not enough: ", have)
}

// fewestLine answers "how many" with the count found: in GPUs or in
// nodes as asked, and what it meets — the deadline, the fit, the cost
// when the money was asked.
func fewestLine(p *i18n.Printer, rd lang.Reading, best *planner.Estimate, name string, noTotal bool) string {
	line := haveLead(p, rd.CountHave, best.GPUs) + fmt.Sprintf("%d× %s", best.GPUs, name)
	switch {
	case rd.NodesAsked && best.GPUs == nodeGPUs:
		line = p.Tf("1 node of %d× %s", nodeGPUs, name)
	case rd.NodesAsked:
		line = p.Tf("%d nodes of %d× %s (%d GPUs)", best.GPUs/nodeGPUs, nodeGPUs, name, best.GPUs)
	}
	if noTotal {
		return line + p.Tf(" — the fewest that fit; to see whether it finishes within %s, say how much work: `of 2.5M samples` or `of 1B tokens`", durationWords(p, rd.Deadline))
	}
	if rd.Deadline > 0 && best.Time.TotalHours != nil {
		took := planner.FormatHoursIn(p, *best.Time.TotalHours)
		if rd.AlsoCost && best.CostUSD != nil {
			took = money(*best.CostUSD) + ", " + took // "… in 2 days, and the cost?"
		}
		line += p.Tf(" — the fewest that finish within %s (%s)", durationWords(p, rd.Deadline), took)
	} else {
		line += p.T(" — the fewest that fit")
		switch {
		case (rd.Ask == lang.AskCost || rd.AlsoCost) && best.Time.TotalHours != nil && best.CostUSD != nil:
			// "how much does it cost … on cloud h100s": the money first
			line += fmt.Sprintf(" (%s, %s)", money(*best.CostUSD), planner.FormatHoursIn(p, *best.Time.TotalHours))
		case best.Time.TotalHours != nil:
			line += fmt.Sprintf(" (%s)", planner.FormatHoursIn(p, *best.Time.TotalHours))
		case (rd.Ask == lang.AskCost || rd.AlsoCost) && best.Time.HoursPerMillionSamples > 0 && best.PriceUSDPerGPUH > 0:
			// no work said: the cost of a million samples there
			h := best.Time.HoursPerMillionSamples
			line += p.Tf(" (%s per 1M samples, %s)", money(perMillionSamples(best)), planner.FormatHoursIn(p, h))
		}
	}
	return line
}
