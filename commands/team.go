package commands

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/planner"
	"github.com/gpuplan/gpuplan/store"
)

// teamOption is the job on one of the team's servers: whether it fits, how
// long it runs, when the GPUs are free, and when it would finish.
type teamOption struct {
	server inventory.Server
	est    *planner.Estimate
	run    time.Duration
	free   time.Time
	gpus   []int
	finish time.Time
	own    []store.Reservation // the asker's bookings on the server
}

// reserveMargin pads a booking over the estimate: estimates miss, and a
// run that outlives its reservation is worse than an idle half hour.
func reserveMargin(d time.Duration) time.Duration {
	pad := max(30*time.Minute, time.Duration(float64(d)*0.2))
	return (d + pad).Round(30 * time.Minute)
}

// teamSection plans the job on every team server (those priced at or
// under maxGPUHour, when a ceiling was said), finds when each is free
// for the whole run, and offers to reserve the earliest finish. finish is
// the one-line answer to "which of our servers": the earliest finish
// (wait + run), and the fastest run when that is another server.
func (s *Set) teamSection(ctx context.Context, req Request, preq planner.Request, res *planner.Result, maxGPUHour float64) (sec *Section, act *Action, finish string) {
	st := s.deps.Reservations
	if st == nil || len(s.deps.Inventory.Servers) == 0 || res.Job.Workload == planner.Inference || !res.Job.AmountKnown {
		return nil, nil, ""
	}
	now, err := st.Now(ctx)
	if err != nil {
		return nil, nil, "" // occupancy is a bonus: the plan stands without it
	}
	loc := s.loc(req)
	p := req.printer()
	var opts []teamOption
	named := comparedServers(preq.Targets)
	for _, srv := range s.deps.Inventory.Servers {
		if named != nil && !named[srv.Name] {
			continue // "v100 server vs a100 server": the two set side by side
		}
		if maxGPUHour > 0 && srv.Hardware().GPU.PriceUSD > maxGPUHour {
			continue // "under $1/hr": a server over the ceiling was ruled out
		}
		r, err := s.deps.Catalog.Plan(planner.Request{Job: preq.Job, Targets: []planner.Hardware{srv.Hardware()}, NoSearch: true, Baseline: preq.Baseline})
		if err != nil || len(r.Plans) == 0 {
			continue
		}
		opts = append(opts, slotOn(ctx, st, req.User, srv, r.Plans[0], now))
	}
	if len(opts) == 0 {
		return nil, nil, ""
	}
	t := &Table{Columns: []string{p.T("server"), p.T("GPUs"), p.T("fits"), p.T("run time"), p.T("free from"), p.T("earliest finish")}}
	var best, fastest *teamOption
	for i := range opts {
		o := &opts[i]
		fits, run, free, finish := p.T("no"), "—", "—", "—"
		if o.est.Memory.Fits {
			fits = fmt.Sprintf("%.0f/%.0f GiB", o.est.Memory.PerGPUGiB, o.est.Memory.CapacityGiB)
			run = planner.FormatHoursIn(p, o.run.Hours())
			if !o.free.IsZero() {
				free = p.T("now")
				if o.free.Sub(now) > time.Minute {
					free = whenIn(p, o.free, now, loc)
				}
				finish = whenIn(p, o.finish, now, loc)
				if best == nil || o.finish.Before(best.finish) {
					best = o
				}
				if fastest == nil || o.run < fastest.run {
					fastest = o
				}
			}
		}
		t.Rows = append(t.Rows, []string{o.server.Name, strconv.Itoa(o.server.Count()) + "× " + shortGPU(o.server.GPU.ID), fits, run, free, finish})
	}
	sec = &Section{Heading: p.T("On the team's servers"), Table: t}
	if best == nil {
		sec.Text = p.T("None of the team's servers can run this job as asked.")
		return sec, nil, ""
	}
	best, finish = leadOption(p, opts, best, fastest, now, loc)
	book := reserveMargin(best.run)
	sec.Text = p.Tf("Earliest finish: %s on %s. Reserve books GPUs %s for %s (the estimate plus a margin).",
		whenIn(p, best.finish, now, loc), best.server.Name, joinInts(best.gpus), durationIn(p, book))
	if mine := ownInTheWay(best, book); len(mine) > 0 {
		// the asker's own booking holds some of these GPUs in that time:
		// the run may use it, but the store lets no new booking overlap it
		sec.Text += " " + p.Tf("Your booking %s holds some of these GPUs then: run within it, or release it first (`release %s`) and book the whole run.", strings.Join(mine, ", "), mine[0])
		return sec, nil, finish
	}
	sec.Text += p.Tf(" Or book and run in one step, on the server: `%s`", ExecLine(best.server.Name, len(best.gpus), book, best.free.Sub(now), best.est.Launch))
	cmd := fmt.Sprintf("reserve gpus %s on %s for %s note %q", joinInts(best.gpus), best.server.Name, formatDuration(book), "gpuplan: "+res.Model.ID)
	if best.free.Sub(now) > time.Minute {
		cmd = fmt.Sprintf("reserve gpus %s on %s from %s for %s note %q", joinInts(best.gpus), best.server.Name,
			best.free.In(loc).Format("2006-01-02 15:04"), formatDuration(book), "gpuplan: "+res.Model.ID)
	}
	return sec, &Action{ID: ActionRun, Label: p.Tf("Reserve %s", best.server.Name), Command: cmd, Style: "primary",
		RequestID: "plan-" + best.server.Name + "-" + strconv.FormatInt(best.free.Unix(), 36) + "-" + randomSuffix()}, finish
}

// slotOn is the job's estimate e on srv with the earliest slot that holds
// the whole run from now (none when it does not fit or runs no known
// time). The asker's own bookings are GPUs they can run the job on; they
// are kept to say when one is in the way of the booking offered.
func slotOn(ctx context.Context, st store.Store, user string, srv inventory.Server, e *planner.Estimate, now time.Time) teamOption {
	o := teamOption{server: srv, est: e}
	if !e.Memory.Fits || e.Time.TotalHours == nil {
		return o
	}
	o.run = time.Duration(*e.Time.TotalHours * float64(time.Hour))
	all, err := st.List(ctx, srv.Name)
	if err != nil {
		return o
	}
	others := slices.DeleteFunc(slices.Clone(all), func(r store.Reservation) bool { return r.Owner == user })
	o.own = slices.DeleteFunc(all, func(r store.Reservation) bool { return r.Owner != user })
	if start, gpus, ok := store.EarliestSlot(others, srv.Count(), e.GPUs, now, reserveMargin(o.run)); ok {
		o.free, o.gpus, o.finish = start, gpus, start.Add(o.run)
	}
	return o
}

// ownInTheWay is the ids of o's asker's own bookings on o's GPUs within
// the booking the answer would offer (book from o.free).
func ownInTheWay(o *teamOption, book time.Duration) []string {
	var ids []string
	for _, r := range o.own {
		if r.Start.Before(o.free.Add(book)) && r.End.After(o.free) && slices.ContainsFunc(r.GPUs, func(g int) bool { return slices.Contains(o.gpus, g) }) {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// leadOption is the server the answer leads with and its line: the one
// finishing first, or one nearly as soon that holds less (modestOption),
// said beside what the first would hold.
func leadOption(p *i18n.Printer, opts []teamOption, first, fastest *teamOption, now time.Time, loc *time.Location) (*teamOption, string) {
	best := modestOption(opts, first)
	if best == first {
		return best, finishLine(p, best, fastest, now, loc)
	}
	return best, p.Tf("%s will do: done %s (free now, runs %s); %s would finish %s sooner but holds %d× %s for it.", best.server.Name,
		whenIn(p, best.finish, now, loc), planner.FormatHoursIn(p, best.run.Hours()), first.server.Name,
		planner.FormatHoursIn(p, best.finish.Sub(first.finish).Hours()), len(first.gpus), shortGPU(first.server.GPU.ID))
}

// modestOption is, among the servers that finish a job within ten
// minutes (or a quarter of its run) of the earliest, the one that holds
// the least GPU time for it: a BERT fine-tune of seconds, or a 7B model
// tried on Ollama, goes to the small server and leaves the large one
// free, where the earliest finish would hold all eight H100s.
func modestOption(opts []teamOption, earliest *teamOption) *teamOption {
	slack := max(10*time.Minute, earliest.run/4)
	best := earliest
	held := func(o *teamOption) float64 {
		return float64(len(o.gpus)) * o.run.Hours() * max(o.est.PriceUSDPerGPUH, 0.01) // the server's price, as its plan used it
	}
	for i := range opts {
		o := &opts[i]
		if !o.est.Memory.Fits || o.free.IsZero() || o.finish.After(earliest.finish.Add(slack)) {
			continue
		}
		if held(o) < held(best) {
			best = o
		}
	}
	return best
}

// finishLine answers "which of our servers" by the earliest finish: the
// wait for free GPUs plus the run, and names the fastest run when another
// server has it but is busy.
func finishLine(p *i18n.Printer, best, fastest *teamOption, now time.Time, loc *time.Location) string {
	start := p.T("free now")
	if best.free.Sub(now) > time.Minute {
		start = p.Tf("free %s", whenIn(p, best.free, now, loc))
	}
	line := p.Tf("%s finishes first, %s (%s, runs %s)", best.server.Name, whenIn(p, best.finish, now, loc), start, planner.FormatHoursIn(p, best.run.Hours()))
	if fastest != nil && fastest != best {
		line += p.Tf("; %s runs it faster (%s) but finishes %s", fastest.server.Name, planner.FormatHoursIn(p, fastest.run.Hours()), whenIn(p, fastest.finish, now, loc))
	}
	return line + "."
}

// comparedServers is the team servers a request sets side by side ("v100
// server vs a100 server"), nil when it names fewer than two.
func comparedServers(targets []planner.Hardware) map[string]bool {
	named := map[string]bool{}
	for _, hw := range targets {
		if hw.Server != "" {
			named[hw.Server] = true
		}
	}
	if len(named) < 2 {
		return nil
	}
	return named
}
