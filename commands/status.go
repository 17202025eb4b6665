package commands

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/store"
)

// runStatus answers status: each server's GPUs, free or held and by whom,
// now or within a window asked.
func runStatus(ctx context.Context, s *Set, req Request, args string) (*Reply, error) {
	st, err := s.store()
	if err != nil {
		return nil, err
	}
	servers := s.deps.Inventory.Servers
	words := strings.Fields(args)
	if len(words) > 0 {
		if srv, err := s.deps.Inventory.Server(words[0]); err == nil {
			servers, words = []inventory.Server{srv}, words[1:]
		} else if len(words) == 1 && !lang.IsDayWord(words[0]) {
			return nil, err // "status today": the day, every server
		}
	}
	now, err := st.Now(ctx)
	if err != nil {
		return nil, storeError(err, "status")
	}
	loc, p := s.loc(req), req.printer()
	from, to, err := statusWindow(words, now, loc)
	if err != nil {
		return nil, err
	}
	r := &Reply{Title: p.T("GPU servers"), Data: map[string]any{}}
	var free, total int
	data := map[string]any{}
	for _, srv := range servers {
		resv, err := st.List(ctx, srv.Name)
		if err != nil {
			return nil, storeError(err, "status")
		}
		waiters, err := st.Waiters(ctx, srv.Name)
		if err != nil {
			return nil, storeError(err, "status")
		}
		sec, nFree := statusSection(p, srv, resv, len(waiters), now, from, to, loc)
		free += nFree
		total += srv.Count()
		r.Sections = append(r.Sections, sec)
		data[srv.Name] = map[string]any{"gpus": srv.Count(), "free": nFree, "reservations": resv, "waiting": len(waiters)}
	}
	r.Summary = p.Tf("%d of %d GPUs free on %d server(s)", free, total, len(servers))
	if !to.IsZero() {
		r.Summary = p.Tf("%d of %d GPUs free on %d server(s), %s", free, total, len(servers), statusWhen(p, from, to, now, loc))
	}
	r.Sections = append(r.Sections, Section{Kind: Context, Text: p.Tf("Times in %s. `reserve 2 on <server> for 4h` to book, `mine` for yours.", loc.String())})
	r.Data = data
	return r, nil
}

// statusWindow reads the window a status asks about ("status comet from
// tomorrow 14:00 until 18:00", "status rocket tonight"); zero times for
// now, and for the words "now" alone.
func statusWindow(words []string, now time.Time, loc *time.Location) (from, to time.Time, err error) {
	if len(words) == 0 || len(words) == 1 && strings.EqualFold(words[0], "now") {
		return time.Time{}, time.Time{}, nil
	}
	if len(words) == 1 && lang.IsDayWord(words[0]) && !strings.EqualFold(words[0], "today") && !strings.EqualFold(words[0], "tonight") {
		// "who's on luna tomorrow": that working day, as 내일 is read
		words = []string{"from", words[0], "9:00", "until", words[0], "18:00"}
	}
	w, _, err := lang.ParseWindow(words, now, loc)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	from, to = w.Start, w.End
	if from.IsZero() {
		from = now
	}
	if to.IsZero() || !to.After(from) {
		to = from.Add(time.Minute) // a point: who holds the GPUs then
	}
	return from, to, nil
}

// statusWhen says the window a status was asked of: "at" a point (the
// minute statusWindow makes of one), else from its start to its end.
func statusWhen(p *i18n.Printer, from, to, now time.Time, loc *time.Location) string {
	if to.Sub(from) <= time.Minute {
		return p.Tf("at %s", whenIn(p, from, now, loc))
	}
	return p.Tf("from %s to %s", whenIn(p, from, now, loc), whenIn(p, to, now, loc))
}

// nextFree is the earliest end among active reservations.
func nextFree(resv []store.Reservation, now time.Time) (time.Time, bool) {
	var best time.Time
	for _, r := range resv {
		if r.State(now) == store.Active && (best.IsZero() || r.End.Before(best)) {
			best = r.End
		}
	}
	return best, !best.IsZero()
}

// statusSection is one server's GPUs in a status: who holds each now, or
// within the window from..to when one was asked (to not zero), what frees
// up next and what is booked later; nFree is how many are free.
func statusSection(p *i18n.Printer, srv inventory.Server, resv []store.Reservation, waiting int, now, from, to time.Time, loc *time.Location) (sec Section, nFree int) {
	held := map[int]store.Reservation{}
	for _, rv := range resv {
		if to.IsZero() && rv.State(now) == store.Active || !to.IsZero() && rv.Start.Before(to) && rv.End.After(from) {
			for _, g := range rv.GPUs {
				held[g] = rv
			}
		}
	}
	t := &Table{Columns: []string{"GPU", p.T("holder"), p.T("until"), p.T("note")}}
	for _, id := range srv.GPUIDs {
		if rv, ok := held[id]; ok {
			until := whenIn(p, rv.End, now, loc)
			if _, isExec := rv.ExecCommand(); isExec {
				until = p.T("while the job runs") // its end is a lease the job renews, not when it frees
			}
			t.Rows = append(t.Rows, []string{strconv.Itoa(id), mention(rv.Owner), until, Untrusted(rv.Note)})
		} else {
			t.Rows = append(t.Rows, []string{strconv.Itoa(id), p.T("free"), "", ""})
		}
	}
	nFree = srv.Count() - len(held)
	head := p.Tf("%s — %d× %s: %d free, %d held", srv.Name, srv.Count(), srv.GPU.Name, nFree, len(held))
	if !to.IsZero() {
		head += " (" + statusWhen(p, from, to, now, loc) + ")"
	}
	var notes []string
	if nFree < srv.Count() {
		if next, ok := nextFree(withoutExec(resv), now); ok {
			notes = append(notes, p.Tf("next GPU frees up %s", whenIn(p, next, now, loc)))
		} else {
			notes = append(notes, p.T("held while a job runs (`gpuplan exec`): free when it ends"))
		}
	}
	var pending []string
	for _, rv := range resv {
		if rv.State(now) == store.Pending {
			pending = append(pending, p.Tf("%s: GPUs %s from %s to %s (%s)", rv.ID, rv.GPUList(), whenIn(p, rv.Start, now, loc), whenIn(p, rv.End, now, loc), mention(rv.Owner)))
		}
	}
	if len(pending) > 0 {
		notes = append(notes, p.Tf("booked later: %s", strings.Join(pending, "; ")))
	}
	if waiting > 0 {
		notes = append(notes, p.Tf("%d waiting", waiting))
	}
	return Section{Heading: head, Table: t, Bullets: notes}, nFree
}
