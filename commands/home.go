package commands

import (
	"context"
	"fmt"
	"strings"
	"time"

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
// what could not be read.
func (s *Set) Home(ctx context.Context, req Request) (*Reply, error) {
	r := &Reply{Title: "gpuplan", Summary: "your GPUs and the team's servers"}
	r.Actions = []Action{
		{ID: ActionOpenPlan, Label: "Plan a job", Style: "primary"},
		{ID: ActionOpenReserve, Label: "Reserve GPUs"},
	}
	st := s.deps.Reservations
	if st == nil {
		r.Sections = append(r.Sections, Section{Kind: Warning, Text: "No reservation store is configured, so there is nothing to show yet. Plans work: try `/gpuplan bert-base 10 epochs on h100x2`."})
		return r, nil
	}
	now, err := st.Now(ctx)
	if err != nil {
		return nil, storeError(err, "home")
	}
	loc := s.loc(req)

	mine, err := s.homeMine(ctx, st, req.User, now, loc)
	if err != nil {
		return nil, err
	}
	r.Sections = append(r.Sections, mine...)
	r.Sections = append(r.Sections, s.homeFleet(ctx, st, req.User, now, loc)...)
	if s.deps.Inventory.IsAdmin(req.User) && s.deps.Watch != nil {
		r.Sections = append(r.Sections, s.homeDigests(ctx))
	}
	r.Sections = append(r.Sections, Section{Kind: Context, Text: "Times in " + loc.String() + ". Utilization is measured by `gpuplan agent` on each server, by hour over the last 24 h; — means no agent reported."})
	return r, nil
}

// homeMine is the Home's "Your reservations": each with Extend and
// Release buttons, ten at most.
func (s *Set) homeMine(ctx context.Context, st store.Store, user string, now time.Time, loc *time.Location) ([]Section, error) {
	mine, err := s.mine(ctx, st, user, now)
	if err != nil {
		return nil, err
	}
	if len(mine) == 0 {
		return []Section{{Heading: "Your reservations", Text: "You hold no GPUs."}}, nil
	}
	out := []Section{{Heading: fmt.Sprintf("Your reservations (%d)", len(mine))}}
	for i, rv := range mine {
		if i == 10 {
			out = append(out, Section{Kind: Context, Text: fmt.Sprintf("and %d more — `mine` lists them all", len(mine)-10)})
			break
		}
		text := fmt.Sprintf("`%s` · %s GPUs %s · %s, %s → %s", rv.ID, rv.Server, rv.GPUList(), rv.State(now), when(rv.Start, now, loc), when(rv.End, now, loc))
		if rv.Note != "" {
			text += " · " + Untrusted(rv.Note)
		}
		out = append(out, Section{Text: text, Actions: withPosted(rv,
			Action{ID: ActionRun, Label: "Extend 1h", Command: "extend " + rv.ID + " 1h", RequestID: "ext-" + rv.ID + "-" + fmt.Sprint(rv.End.Unix())},
			Action{ID: ActionRun, Label: "Release", Command: "release " + rv.ID, Style: "danger", RequestID: "rel-" + rv.ID},
		)})
	}
	return out, nil
}

// homeFleet is the Home's fleet table, the servers the store could not
// read, and the user's places in the waiting lists.
func (s *Set) homeFleet(ctx context.Context, st store.Store, user string, now time.Time, loc *time.Location) []Section {
	fleet := &Table{Columns: []string{"server", "GPUs", "free now", "held", "util 24h", "next free"}}
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
		next := "now"
		if held >= srv.Count() {
			if t, ok := nextFree(resv, now); ok {
				next = when(t, now, loc)
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
				queue = append(queue, fmt.Sprintf("%s: %d GPU(s), place %d of %d, until %s", srv.Name, w.Count, i+1, len(waiters), when(w.Expires, now, loc)))
			}
		}
	}
	out := []Section{{Heading: "The fleet", Table: fleet}}
	if len(unread) > 0 {
		out = append(out, Section{Kind: Warning, Text: "Could not read " + strings.Join(unread, ", ") + " from the store; try again in a moment."})
	}
	if len(queue) > 0 {
		out = append(out, Section{Heading: "You are waiting for", Bullets: queue})
	}
	return out
}

// homeDigests lists the digest subscriptions, for admins.
func (s *Set) homeDigests(ctx context.Context) Section {
	subs, err := s.deps.Watch.Subscriptions(ctx)
	sec := Section{Heading: "Digest subscriptions (admin)"}
	switch {
	case err != nil:
		sec.Kind, sec.Text = Warning, "Could not read the subscriptions."
	case len(subs) == 0:
		sec.Text = "None. `digest #channel daily 09:00` sets one up."
	default:
		for _, sub := range subs {
			sec.Bullets = append(sec.Bullets, fmt.Sprintf("<#%s>: %s (%s)", sub.Channel, Untrusted(sub.Label), sub.TZ))
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
