package commands

import (
	"math"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// amountAnswer answers how much work a budget or a time buys: the plan's
// rate in the unit asked, times the hours the money pays for on that
// hardware or the time given (the smaller, when both are said).
func amountAnswer(p *i18n.Printer, rd lang.Reading, e *planner.Estimate, job planner.JobInfo) string {
	hw := hwText(p, e)
	if !e.Memory.Fits {
		return p.Tf("It does not fit on %s (%.0f of %.0f GiB per GPU); see what to change below.", hw, e.Memory.PerGPUGiB, e.Memory.CapacityGiB)
	}
	unit := rd.AmountUnit
	if unit == "" {
		unit = lang.DefaultAmountUnit(rd.Request.Job.Model) // "100만원이면 몇시간?"
	}
	perS := e.Throughput.SamplesPerS
	switch unit {
	case "tokens":
		perS = e.Throughput.TokensPerS
		if perS == 0 {
			perS = e.Throughput.SamplesPerS * float64(job.SeqLen)
		}
	case "steps":
		perS /= float64(max(1, e.GlobalBatch))
	case "epochs":
		epoch := job.EpochSamples
		if epoch <= 0 && job.Epochs == 0 {
			epoch = job.TotalSamples // "100만 샘플 몇 에폭": the samples said are one pass
		}
		if epoch <= 0 {
			unit = "samples" // no dataset size: an epoch has no length yet
		} else {
			perS /= epoch
		}
	}
	seconds := math.Inf(1)
	perHour := e.PriceUSDPerGPUH * float64(e.GPUs)
	if rd.Budget > 0 && perHour > 0 {
		seconds = rd.Budget / perHour * 3600
	}
	if rd.Deadline > 0 {
		seconds = math.Min(seconds, rd.Deadline.Seconds())
	}
	if perS <= 0 {
		return ""
	}
	if math.IsInf(seconds, 1) {
		return p.Tf("On %s: about %s %s an hour; say a budget (`$3000`) or a time (`in 3 days`) for the total.", hw, amountText(p, perS*3600, unit), unitWords(p, unit))
	}
	amount, hours := amountText(p, perS*seconds, unit), planner.FormatHoursIn(p, seconds/3600)
	var s string
	switch {
	case rd.Budget > 0 && seconds < rd.Deadline.Seconds() || rd.Deadline == 0:
		// the money runs out first
		s = p.Tf("On %s: about %s %s; $%.0f buys %s at $%.2f an hour.", hw, amount, unitWords(p, unit), rd.Budget, hours, perHour)
	case perHour > 0:
		s = p.Tf("On %s in %s: about %s %s ($%.0f at $%.2f an hour).", hw, hours, amount, unitWords(p, unit), perHour*seconds/3600, perHour)
	default:
		s = p.Tf("On %s in %s: about %s %s.", hw, hours, amount, unitWords(p, unit))
	}
	if unit == "samples" && rd.AmountUnit == "epochs" {
		s += " " + p.T("Say the dataset size (`of 2.5M samples`) to count it in epochs.")
	}
	return s
}

// amountText writes an amount of work for people: epochs with a decimal,
// counts in 만/억 in Korean and with M/B in English past a million.
func amountText(p *i18n.Printer, v float64, unit string) string {
	if v < 10 {
		return strconv.FormatFloat(v, 'g', 2, 64) // "0.35 epochs an hour", "4.2"
	}
	if unit == "epochs" {
		return p.Count(math.Round(v)) // "410 epochs", not "4.1e+02"
	}
	if p.Korean() || v < 1e6 {
		return p.Count(v)
	}
	for _, u := range []struct {
		v   float64
		suf string
	}{{1e12, "T"}, {1e9, "B"}, {1e6, "M"}} {
		if v >= u.v {
			return strconv.FormatFloat(v/u.v, 'g', 3, 64) + u.suf
		}
	}
	return p.Count(v)
}

// cloudAgainstTeam answers "cloud h100 vs our servers": the cloud
// hardware planned, then the team's cheapest and fastest that hold the
// job, each with its time and cost; "" when the plan is on a team server
// or the team's servers were not searched.
func cloudAgainstTeam(p *i18n.Printer, rd lang.Reading, e *planner.Estimate, res *planner.Result) string {
	rec := res.Recommendations
	if !rd.Cloud || e == nil || e.Server != "" || rec.Cheapest == nil || rec.Cheapest.Server == "" {
		return ""
	}
	s := p.Tf("Cloud: %s.", estimateSummary(p, e, res.Job)) + " " + p.Tf("The team's servers: cheapest %s", estimateSummary(p, rec.Cheapest, res.Job))
	if f := rec.Fastest; f != nil && f.Server != "" && f != rec.Cheapest && (f.Server != rec.Cheapest.Server || f.GPUs != rec.Cheapest.GPUs) {
		s += p.Tf("; fastest %s", estimateSummary(p, f, res.Job))
	}
	return s + "."
}

// cheapestServer answers "which of our servers runs it cheapest" ("제일
// 싸게 할 수 있는 곳"): the team server whose run costs least, each other's
// cost beside it; "" unless the cheapest was asked and costs are known.
func cheapestServer(p *i18n.Printer, rd lang.Reading, res *planner.Result) string {
	if rd.Prefer != "cheapest" || len(res.Plans) < 2 {
		return ""
	}
	var best *planner.Estimate
	for _, e := range res.Plans {
		if e.Memory.Fits && e.CostUSD != nil && e.Server != "" && (best == nil || *e.CostUSD < *best.CostUSD) {
			best = e
		}
	}
	if best == nil {
		return ""
	}
	s := p.Tf("%s runs it cheapest", best.Server) + " (" + money(*best.CostUSD)
	if best.Time.TotalHours != nil {
		s += ", " + planner.FormatHoursIn(p, *best.Time.TotalHours)
	}
	s += ")"
	return s + otherServers(p, best, res.Plans, func(o *planner.Estimate) string {
		if o.CostUSD == nil {
			return ""
		}
		return money(*o.CostUSD)
	})
}

// otherServers ends a which-server answer: each server planned besides
// best with value (its time, its cost), or that it does not fit; "." when
// there is none.
func otherServers(p *i18n.Printer, best *planner.Estimate, plans []*planner.Estimate, value func(*planner.Estimate) string) string {
	var others []string
	for _, o := range plans {
		switch v := value(o); {
		case o == best:
		case !o.Memory.Fits:
			others = append(others, p.Tf("%s: does not fit", o.Server))
		case v != "":
			others = append(others, o.Server+": "+v)
		}
	}
	if len(others) == 0 {
		return "."
	}
	return "; " + strings.Join(others, ", ") + "."
}
