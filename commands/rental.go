package commands

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// rentalReply answers GPUs asked about for their price with no job ("how
// much for 8 h100s for a week", "h100 8장 일주일 빌리면 얼마야", "l40s
// rental price vs a100"): the GPUs' hours at the catalogue's price (or the
// team's for its servers), and without a time said, the price of an hour,
// a day, a week and a month; several GPUs are set side by side.
func rentalReply(p *i18n.Printer, rt lang.Rental) (*Reply, error) {
	r := &Reply{}
	var summaries []string
	for _, h := range rt.Hardware {
		g := h.GPU
		name := fmt.Sprintf("%d× %s", h.Count, g.Name)
		if h.Server != "" {
			name = h.Server + ": " + name
		}
		if g.PriceUSD <= 0 {
			return nil, &UserError{Msg: p.Tf("the catalogue has no hourly price for %s", g.Name),
				Hint: p.T("an admin sets one in the servers file (`price_usd_per_gpu_hour`) or with `--price GPU=USD`")}
		}
		hourly := g.PriceUSD * float64(h.Count)
		fields := []Field{{Label: p.T("Price"), Value: p.Tf("%s per GPU-hour (%s)", planner.FormatUSDIn(p, g.PriceUSD), g.PriceSource)},
			{Label: p.T("All GPUs"), Value: p.Tf("%s an hour", planner.FormatUSDIn(p, hourly))}}
		if rt.BudgetUSD > 0 {
			sum, more := budgetHours(p, rt, h, hourly)
			summaries = append(summaries, name+": "+sum)
			fields = append(fields, more...)
		} else if rt.Hours > 0 {
			total := hourly * rt.Hours
			summaries = append(summaries, p.Tf("%s for %s: %s", name, planner.FormatHoursIn(p, rt.Hours), planner.FormatUSDIn(p, total)))
			fields = append(fields, Field{Label: p.T("Total"), Value: p.Tf("%s GPU-hours × %s = %s", p.Count(rt.Hours*float64(h.Count)), planner.FormatUSDIn(p, g.PriceUSD), planner.FormatUSDIn(p, total))})
		} else {
			summaries = append(summaries, p.Tf("%s: %s an hour", name, planner.FormatUSDIn(p, hourly)))
			for _, d := range []struct {
				label string
				hours float64
			}{{p.T("A day"), 24}, {p.T("A week"), 168}, {p.T("A month (730 h)"), 730}} {
				fields = append(fields, Field{Label: d.label, Value: planner.FormatUSDIn(p, hourly*d.hours)})
			}
		}
		r.Sections = append(r.Sections, Section{Heading: name, Fields: fields})
	}
	r.Title = rt.Hardware[0].GPU.Name
	if rt.TeamAsked && rt.Hardware[0].Server != "" {
		r.Title = p.T("The team's servers by the hour")
	}
	if len(rt.Hardware) == 1 {
		r.Title = r.Sections[0].Heading
		r.Sections[0].Heading = ""
	}
	r.Summary = summaries[0]
	for _, s := range summaries[1:] {
		r.Summary += " · " + s
	}
	if rt.Buy {
		r.Summary = p.T("No purchase prices in the catalogue; renting: ") + r.Summary
		r.Sections = append(r.Sections, buySection(p, rt))
	}
	if notes := rt.NotesIn(p); len(notes) > 0 {
		r.Sections = append(r.Sections, Section{Heading: p.T("Assumptions"), Bullets: notes})
	}
	if rt.TeamAsked {
		r.Summary += ". " + teamAgainstCloud(p, rt)
	}
	r.Sections = append(r.Sections, Section{Text: p.T("The GPUs' price alone. Name a model and the work for how long a job takes there and what it costs (`plan llama3-8b lora 1B tokens on 8x h100`).")})
	return r, nil
}

// teamAgainstCloud sets the team's servers' GPU-hour against the cloud's
// for the same GPU: at the price the servers file gives a server, or,
// with none given, says the figures above are the cloud's rate and what
// an admin sets for the team's own cost.
func teamAgainstCloud(p *i18n.Printer, rt lang.Rental) string {
	var cloud *planner.GPU
	for _, h := range rt.Hardware {
		if h.Server == "" {
			g := h.GPU
			cloud = &g
			break
		}
	}
	var lines, unpriced []string
	for _, h := range rt.Hardware {
		if h.Server == "" {
			continue
		}
		if !strings.HasPrefix(h.GPU.PriceSource, "team price") {
			unpriced = append(unpriced, h.Server)
			continue
		}
		line := p.Tf("%s costs %s per GPU-hour at the team's price", h.Server, planner.FormatUSDIn(p, h.GPU.PriceUSD))
		if cloud != nil && cloud.ID == h.GPU.ID && cloud.PriceUSD > 0 && h.GPU.PriceUSD > 0 {
			if r := cloud.PriceUSD / h.GPU.PriceUSD; r >= 1 {
				line += p.Tf(", %.1fx less than the cloud's %s", r, planner.FormatUSDIn(p, cloud.PriceUSD))
			} else {
				line += p.Tf(", %.1fx more than the cloud's %s", 1/r, planner.FormatUSDIn(p, cloud.PriceUSD))
			}
		}
		lines = append(lines, line)
	}
	if len(unpriced) > 0 {
		lines = append(lines, p.Tf("%s has no price in the servers file, so its figures are the cloud's rate; an admin sets `price:` (USD per GPU-hour: power, upkeep, the hardware written off) to compare", strings.Join(unpriced, ", ")))
	}
	return strings.Join(lines, "; ") + "."
}

// budgetHours is what a budget buys of GPUs h at hourly (all of them, an
// hour): its GPU-hours, how long the GPUs asked about run on it, and with
// a time said ("한달 예산"), how many run around the clock for that time.
func budgetHours(p *i18n.Printer, rt lang.Rental, h planner.Hardware, hourly float64) (string, []Field) {
	gpuHours := rt.BudgetUSD / h.GPU.PriceUSD
	fields := []Field{{Label: p.T("Budget"), Value: planner.FormatUSDIn(p, rt.BudgetUSD)},
		{Label: p.T("GPU-hours"), Value: p.Tf("%s (%s ÷ %s)", p.Count(math.Floor(gpuHours)), planner.FormatUSDIn(p, rt.BudgetUSD), planner.FormatUSDIn(p, h.GPU.PriceUSD))}}
	sum := p.Tf("%s buys %s GPU-hours", planner.FormatUSDIn(p, rt.BudgetUSD), p.Count(math.Floor(gpuHours)))
	if gpuHours >= 48 {
		sum += p.Tf(": one GPU for %s", planner.FormatHoursIn(p, gpuHours)) // "며칠 빌릴 수 있어": in days
	}
	if h.Count > 1 {
		fields = append(fields, Field{Label: p.Tf("%d GPUs", h.Count), Value: planner.FormatHoursIn(p, rt.BudgetUSD/hourly)})
		sum = p.Tf("%s buys %s on all %d GPUs (%s GPU-hours)", planner.FormatUSDIn(p, rt.BudgetUSD), planner.FormatHoursIn(p, rt.BudgetUSD/hourly), h.Count, p.Count(math.Floor(gpuHours)))
	}
	if rt.Hours > 0 {
		n := math.Floor(gpuHours / rt.Hours)
		fields = append(fields, Field{Label: p.Tf("For %s", planner.FormatHoursIn(p, rt.Hours)),
			Value: p.Tf("%s GPUs around the clock (%s)", p.Count(n), planner.FormatUSDIn(p, n*rt.Hours*h.GPU.PriceUSD))})
		sum += p.Tf("; for %s, %s GPUs around the clock", planner.FormatHoursIn(p, rt.Hours), p.Count(n))
	}
	return sum, fields
}

// buySection answers buying asked beside the rent: the catalogue has no
// purchase prices (they vary by vendor, quantity and year), so it sets
// what renting costs against any quote: the hours of renting that each
// $100,000 of a quote pays for.
func buySection(p *i18n.Printer, rt lang.Rental) Section {
	var bullets []string
	for _, h := range rt.Hardware {
		hourly := h.GPU.PriceUSD * float64(h.Count)
		if hourly <= 0 {
			continue
		}
		hours := 100_000 / hourly
		bullets = append(bullets, p.Tf("%d× %s: each $100,000 of a purchase quote pays for %s hours of renting them (%s around the clock)",
			h.Count, h.GPU.Name, p.Count(math.Round(hours)), planner.FormatHoursIn(p, hours)))
	}
	return Section{Heading: p.T("Buying"), Text: p.T("Purchase prices are not in the catalogue: they vary by vendor, quantity and year. Set a quote against the rent: buying pays off once you would have rented longer than this, before power, hosting and staff."), Bullets: bullets}
}
