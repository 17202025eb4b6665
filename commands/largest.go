package commands

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// largestModel answers "what's the largest model I can fine-tune on a
// 4090", "4090으로 몇b까지 돌아가?" and "the biggest model we can pretrain
// for $10k on h100s": the largest size, as a GPT-shaped model of that
// many parameters, that fits the hardware named (the team's best server
// when none is) for the workload said — or, given a budget for
// pre-training, that the budget trains on Chinchilla's 20 tokens a
// parameter. The search halves the interval of log-size 30 times between
// 10M and 2T parameters; fitting and cost both grow with the size. The
// card then plans that size, and the answer names the catalogue's largest
// models at or under it.
func (s *Set) largestModel(p *i18n.Printer, rd lang.Reading, req planner.Request) (planner.Request, string, error) {
	hw, ok := s.sideBySideGPU(req)
	if !ok {
		return req, "", nil
	}
	job := req.Job
	budget := rd.Budget > 0 && (job.Workload == planner.Pretrain || job.Workload == "")
	// a budget beside an amount of work said ("for 100k samples with a
	// $50 budget"): the size must do that work within it too
	budgetWork := rd.Budget > 0 && !budget && (job.Samples > 0 || job.Tokens > 0 || job.DatasetSamples > 0 || job.DatasetTokens > 0 || job.Steps > 0)
	try := func(n float64) (*planner.Estimate, planner.Model, bool) {
		m, err := planner.ModelFromParams(n)
		if err != nil {
			return nil, m, false
		}
		j := job
		j.Model = m
		if budget {
			j.Workload, j.Tokens = planner.Pretrain, 20*n
		}
		r, err := s.deps.Catalog.Plan(planner.Request{Job: j, Targets: []planner.Hardware{hw}, NoSearch: true})
		if err != nil || len(r.Plans) == 0 || !r.Plans[0].Memory.Fits {
			return nil, m, false
		}
		e := r.Plans[0]
		if (budget || budgetWork) && (e.CostUSD == nil || *e.CostUSD > rd.Budget) {
			return nil, m, false
		}
		return e, m, true
	}
	if len(rd.LargestOf) > 0 {
		return s.largestOfFamily(p, rd, req, hw)
	}
	lo, hi := math.Log(10e6), math.Log(2e12)
	if _, _, ok := try(math.Exp(lo)); !ok && budgetWork {
		return req, p.Tf("Not even a model of %s parameters does this work on %s within the budget of %s.", "10M", hwLabel(hw), money(rd.Budget)), nil
	} else if !ok {
		return req, p.Tf("Not even a model of %s parameters fits on %s for this job.", "10M", hwLabel(hw)), nil
	}
	for range 30 {
		mid := (lo + hi) / 2
		if _, _, ok := try(math.Exp(mid)); ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	n := roundDown2(math.Exp(lo))
	e, m, ok := try(n)
	if !ok {
		return req, "", nil
	}
	req.Job.Model, req.Targets, req.Pool, req.Compare = m, []planner.Hardware{hw}, nil, false
	if budget {
		req.Job.Workload, req.Job.Tokens = planner.Pretrain, 20*n
	}
	size := paramsText(p, n)
	var line string
	if budget {
		line = p.Tf("About %s: on %s tokens (20 a parameter, Chinchilla) it takes %s and %s on %s, within the budget of %s.",
			size, bigCount(p, 20*n), planner.FormatHoursIn(p, *e.Time.TotalHours), money(*e.CostUSD), hwLabel(hw), money(rd.Budget))
	} else if budgetWork {
		line = p.Tf("About %s is the largest that fits on %s and does the work said within the budget of %s (%s, %s).",
			size, hwLabel(hw), money(rd.Budget), planner.FormatHoursIn(p, *e.Time.TotalHours), money(*e.CostUSD))
	} else {
		line = p.Tf("About %s is the largest that fits on %s (%.0f of %.0f GiB per GPU).", size, hwLabel(hw), e.Memory.PerGPUGiB, e.Memory.CapacityGiB)
	}
	if names := catalogueAtMost(s.deps.Catalog, n); len(names) > 0 {
		line += " " + p.Tf("Catalogue models at or under it: %s.", strings.Join(names, ", "))
	}
	if rd.Budget > 0 && !budget && !budgetWork {
		line += budgetAtSize(p, rd.Budget, e)
	}
	return req, line, nil
}

// budgetAtSize says what a budget said beside "the biggest model I can
// fine-tune" does at that size: the work said, its cost against the
// budget; no work said, the hours the budget rents there and the tokens
// of this training they run.
func budgetAtSize(p *i18n.Printer, budget float64, e *planner.Estimate) string {
	if e.Time.TotalHours != nil && e.CostUSD != nil {
		if *e.CostUSD <= budget {
			return " " + p.Tf("The work said takes %s and %s there, within the budget of %s.", planner.FormatHoursIn(p, *e.Time.TotalHours), money(*e.CostUSD), money(budget))
		}
		return " " + p.Tf("The work said takes %s and %s there, over the budget of %s.", planner.FormatHoursIn(p, *e.Time.TotalHours), money(*e.CostUSD), money(budget))
	}
	if e.PriceUSDPerGPUH <= 0 || e.Throughput.TokensPerS <= 0 {
		return ""
	}
	hours := budget / (e.PriceUSDPerGPUH * float64(e.GPUs))
	return " " + p.Tf("The budget of %s rents it for %s: about %s tokens of this training at that size.", money(budget), planner.FormatHoursIn(p, hours), bigCount(p, e.Throughput.TokensPerS*hours*3600))
}

// hwLabel is "1× GeForce RTX 4090" for a hardware choice, in every
// language.
func hwLabel(hw planner.Hardware) string {
	return fmt.Sprintf("%d× %s", hw.Count, hw.GPU.Name)
}

// roundDown2 rounds n down to two significant digits: the answer never
// names a size the search did not find to fit.
func roundDown2(n float64) float64 {
	d := math.Pow(10, math.Floor(math.Log10(n))-1)
	return math.Floor(n/d) * d
}

// catalogueAtMost is up to three of the catalogue's language models
// closest under n parameters, the largest first.
func catalogueAtMost(c *planner.Catalog, n float64) []string {
	var ms []planner.Model
	for _, m := range c.Models {
		if (m.Kind == planner.Decoder || m.Kind == planner.MoE) && m.Params() <= n && m.Params() >= n/3 {
			ms = append(ms, m)
		}
	}
	sort.SliceStable(ms, func(a, b int) bool { return ms[a].Params() > ms[b].Params() })
	var out []string
	for _, m := range ms {
		if len(out) == 3 {
			break
		}
		out = append(out, m.ID)
	}
	return out
}

// largestOfFamily answers "the largest qwen2.5 that fits a 4090": of the
// family's catalogue members, the largest that fits hw for the job.
func (s *Set) largestOfFamily(p *i18n.Printer, rd lang.Reading, req planner.Request, hw planner.Hardware) (planner.Request, string, error) {
	ms := append([]planner.Model(nil), rd.LargestOf...)
	sort.SliceStable(ms, func(a, b int) bool { return ms[a].Params() > ms[b].Params() })
	for _, m := range ms {
		j := req.Job
		j.Model = m
		r, err := s.deps.Catalog.Plan(planner.Request{Job: j, Targets: []planner.Hardware{hw}, NoSearch: true})
		if err != nil || len(r.Plans) == 0 || !r.Plans[0].Memory.Fits {
			continue
		}
		e := r.Plans[0]
		req.Job.Model, req.Targets, req.Pool, req.Compare = m, []planner.Hardware{hw}, nil, false
		return req, p.Tf("%s is the largest of them that fits on %s (%.0f of %.0f GiB per GPU).", m.ID, hwLabel(hw), e.Memory.PerGPUGiB, e.Memory.CapacityGiB), nil
	}
	smallest := ms[len(ms)-1]
	req.Job.Model, req.Targets, req.Pool, req.Compare = smallest, []planner.Hardware{hw}, nil, false
	return req, p.Tf("None of them fits on %s for this job, not even %s; see what to change below.", hwLabel(hw), smallest.ID), nil
}
