package commands

import (
	"fmt"

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
		if rt.Hours > 0 {
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
	if len(rt.Hardware) == 1 {
		r.Title = r.Sections[0].Heading
		r.Sections[0].Heading = ""
	}
	r.Summary = summaries[0]
	for _, s := range summaries[1:] {
		r.Summary += " · " + s
	}
	r.Sections = append(r.Sections, Section{Text: p.T("The GPUs' price alone. Name a model and the work for how long a job takes there and what it costs (`plan llama3-8b lora 1B tokens on 8x h100`).")})
	return r, nil
}
