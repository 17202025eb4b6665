package commands

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/store"
)

// Action ids of the App Home's quick actions: the adapter opens a form.
const (
	ActionOpenPlan    = "open.plan"
	ActionOpenReserve = "open.reserve"
)

// Servers lists the inventory's server names in order (the Reserve form's
// choices).
func (s *Set) Servers() []string { return s.serverNames() }

// Home builds the user's App Home: their reservations with Extend and
// Release, the fleet at a glance with measured utilization, their places
// in waiting lists, quick actions, and for admins the digest
// subscriptions. It never fails on one server's trouble: a section says
// what could not be read. It is written in the user's language
// (Request.Lang).
func (s *Set) Home(ctx context.Context, req Request) (*Reply, error) {
	req.Lang = ReplyLang(req)
	p := req.printer()
	r := &Reply{Title: "gpuplan", Summary: p.T("your GPUs and the team's servers"), Lang: req.Lang}
	r.Actions = QuickActions(p)
	st := s.deps.Reservations
	if st == nil {
		r.Sections = append(r.Sections, Section{Kind: Warning, Text: p.T("No reservation store is configured, so there is nothing to show yet. Plans work: try `/gpuplan bert-base 10 epochs on h100x2`.")})
		return r, nil
	}
	now, err := st.Now(ctx)
	if err != nil {
		return nil, storeError(err, "home")
	}
	loc := s.loc(req)

	mine, err := s.homeMine(ctx, p, st, req.User, now, loc)
	if err != nil {
		return nil, err
	}
	r.Sections = append(r.Sections, mine...)
	r.Sections = append(r.Sections, s.homeFleet(ctx, p, st, req.User, now, loc)...)
	if s.deps.Inventory.IsAdmin(req.User) && s.deps.Watch != nil {
		r.Sections = append(r.Sections, s.homeDigests(ctx, p))
	}
	r.Sections = append(r.Sections, Section{Kind: Context, Text: p.Tf("Times in %s. Utilization is measured by `gpuplan agent` on each server, by hour over the last 24 h; — means no agent reported.", loc.String())})
	return r, nil
}

// QuickActions are the Home's buttons that open a form, in p's language;
// an adapter that shows the Home without the store's part shows them too.
func QuickActions(p *i18n.Printer) []Action {
	return []Action{
		{ID: ActionOpenPlan, Label: p.T("Plan a job"), Style: "primary"},
		{ID: ActionOpenReserve, Label: p.T("Reserve GPUs")},
	}
}

// homeMine is the Home's "Your reservations": each with Extend and
// Release buttons, ten at most.
func (s *Set) homeMine(ctx context.Context, p *i18n.Printer, st store.Store, user string, now time.Time, loc *time.Location) ([]Section, error) {
	mine, err := s.mine(ctx, st, user, now)
	if err != nil {
		return nil, err
	}
	if len(mine) == 0 {
		return []Section{{Heading: p.T("Your reservations"), Text: p.T("You hold no GPUs.")}}, nil
	}
	out := []Section{{Heading: p.Tf("Your reservations (%d)", len(mine))}}
	for i, rv := range mine {
		if i == 10 {
			out = append(out, Section{Kind: Context, Text: p.Tf("and %d more — `mine` lists them all", len(mine)-10)})
			break
		}
		text := p.Tf("`%s` · %s GPUs %s · %s, %s → %s", rv.ID, rv.Server, rv.GPUList(), stateText(p, rv.State(now)), whenIn(p, rv.Start, now, loc), whenIn(p, rv.End, now, loc))
		if rv.Note != "" {
			text += " · " + Untrusted(rv.Note)
		}
		out = append(out, Section{Text: text, Actions: withPosted(rv,
			Action{ID: ActionRun, Label: p.T("Extend 1h"), Command: "extend " + rv.ID + " 1h", RequestID: "ext-" + rv.ID + "-" + fmt.Sprint(rv.End.Unix())},
			Action{ID: ActionRun, Label: p.T("Release"), Command: "release " + rv.ID, Style: "danger", RequestID: "rel-" + rv.ID},
		)})
	}
	return out, nil
}

// homeFleet is the Home's fleet table, the servers the store could not
// read, and the user's places in the waiting lists.
func (s *Set) homeFleet(ctx context.Context, p *i18n.Printer, st store.Store, user string, now time.Time, loc *time.Location) []Section {
	fleet := &Table{Columns: []string{p.T("server"), p.T("GPUs"), p.T("free now"), p.T("held"), p.T("util 24h"), p.T("next free")}}
	var queue []string
	var unread []string
	for _, srv := range s.deps.Inventory.Servers {
		resv, err := st.List(ctx, srv.Name)
		if err != nil {
			unread = append(unread, srv.Name)
			continue
		}
		held := 0
		for _, rv := range resv {
			if rv.State(now) == store.Active {
				held += len(rv.GPUs)
			}
		}
		next := p.T("now")
		if held >= srv.Count() {
			if t, ok := nextFree(resv, now); ok {
				next = whenIn(p, t, now, loc)
			}
		}
		fleet.Rows = append(fleet.Rows, []string{srv.Name, fmt.Sprintf("%d× %s", srv.Count(), srv.GPU.Name),
			fmt.Sprint(srv.Count() - held), fmt.Sprint(held), s.sparkline(ctx, srv.Name, now), next})
		waiters, err := st.Waiters(ctx, srv.Name)
		if err != nil {
			continue
		}
		for i, w := range waiters {
			if w.Owner == user {
				queue = append(queue, p.Tf("%s: %d GPU(s), place %d of %d, until %s", srv.Name, w.Count, i+1, len(waiters), whenIn(p, w.Expires, now, loc)))
			}
		}
	}
	out := []Section{{Heading: p.T("The fleet"), Table: fleet}}
	if len(unread) > 0 {
		out = append(out, Section{Kind: Warning, Text: p.Tf("Could not read %s from the store; try again in a moment.", strings.Join(unread, ", "))})
	}
	if len(queue) > 0 {
		out = append(out, Section{Heading: p.T("You are waiting for"), Bullets: queue})
	}
	return out
}

// homeDigests lists the digest subscriptions, for admins.
func (s *Set) homeDigests(ctx context.Context, p *i18n.Printer) Section {
	subs, err := s.deps.Watch.Subscriptions(ctx)
	sec := Section{Heading: p.T("Digest subscriptions (admin)")}
	switch {
	case err != nil:
		sec.Kind, sec.Text = Warning, p.T("Could not read the subscriptions.")
	case len(subs) == 0:
		sec.Text = p.T("None. `digest #channel daily 09:00` sets one up.")
	default:
		for _, sub := range subs {
			sec.Bullets = append(sec.Bullets, fmt.Sprintf("<#%s>: %s (%s)", sub.Channel, Untrusted(scheduleText(p, sub.Label)), sub.TZ))
		}
	}
	return sec
}

// sparkline draws a server's mean measured utilization per hour over the
// last day, one block character per hour; "—" without agent data.
func (s *Set) sparkline(ctx context.Context, server string, now time.Time) string {
	if s.deps.Watch == nil {
		return "—"
	}
	end := now.Truncate(time.Hour).Add(time.Hour)
	start := end.Add(-24 * time.Hour)
	use, err := s.deps.Watch.Usage(ctx, server, start, end)
	if err != nil || len(use) == 0 {
		return "—"
	}
	obs := make([]float64, 24)
	util := make([]float64, 24)
	for _, u := range use {
		i := int(u.Hour.Sub(start) / time.Hour)
		if i >= 0 && i < 24 {
			obs[i] += u.Observed
			util[i] += u.UtilSecs
		}
	}
	const blocks = "▁▂▃▄▅▆▇█"
	bs := []rune(blocks)
	var b strings.Builder
	for i := range 24 {
		if obs[i] == 0 {
			b.WriteRune(' ')
			continue
		}
		mean := util[i] / obs[i] / 100
		b.WriteRune(bs[min(len(bs)-1, int(mean*float64(len(bs))))])
	}
	return strings.TrimRight(b.String(), " ")
}
