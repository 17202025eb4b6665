package commands

import (
	"math"
	"strconv"

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
	if unit == "epochs" || v < 10 {
		return strconv.FormatFloat(v, 'g', 2, 64) // "0.35 epochs an hour", "4.2"
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
