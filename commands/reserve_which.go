package commands

import (
	"context"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/store"
)

// Which booking a command means when the asker holds several.

// extendTarget is the reservation an extend names: by id, else the user's
// only one that has not ended on the server named, or anywhere. Holding
// several there, the user is asked which, by id.
func (s *Set) extendTarget(ctx context.Context, p *i18n.Printer, st store.Store, user string, a lang.ExtendArgs, op string, now time.Time, loc *time.Location) (store.Reservation, error) {
	if a.ID != "" {
		cur, err := st.Get(ctx, a.ID)
		if err != nil {
			return cur, storeError(err, "extend")
		}
		return cur, nil
	}
	mine, err := s.mine(ctx, st, user, now)
	if err != nil {
		return store.Reservation{}, err
	}
	var open []store.Reservation
	for _, r := range mine {
		if st := r.State(now); (st == store.Active || st == store.Pending) && (a.Server == "" || r.Server == a.Server) {
			open = append(open, r)
		}
	}
	if len(open) > 1 {
		// "금요일 예약 …까지로", "my booking tomorrow": the one held that day
		var that []store.Reservation
		for _, r := range open {
			if a.OnDay(r.Start, r.End, now, loc) {
				that = append(that, r)
			}
		}
		if len(that) > 0 {
			open = that
		}
	}
	if len(open) > 1 && !a.Last {
		// "스타 예약 2시간 연장해줘": of one running and one ahead, the running one
		var running []store.Reservation
		for _, r := range open {
			if r.State(now) == store.Active {
				running = append(running, r)
			}
		}
		if len(running) == 1 {
			open = running
		}
	}
	if a.Last && len(open) > 1 {
		// "방금 잡은 예약": the one made last
		last := open[0]
		for _, r := range open[1:] {
			if r.CreatedAt.After(last.CreatedAt) {
				last = r
			}
		}
		open = []store.Reservation{last}
	}
	where := ""
	if a.Server != "" {
		where = p.Tf(" on %s", a.Server)
	}
	switch len(open) {
	case 0:
		none := p.Tf("you hold no reservation%s to extend", where)
		if op == "shorten" {
			none = p.Tf("you hold no reservation%s to shorten", where)
		}
		return store.Reservation{}, &Error{Kind: NotFound, Op: op, Err: &UserError{Msg: none,
			Hint: p.T("`mine` lists yours; `reserve 2 on server-h for 4h` books one"), Field: lang.FieldServer}}
	case 1:
		return open[0], nil
	}
	amount := "1h" // the amount asked, in the command offered
	switch {
	case len(a.Until) > 0:
		amount = "until " + strings.Join(a.Until, " ")
	case a.By > 0:
		amount = formatDuration(a.By)
	}
	var list []string
	for _, r := range open {
		list = append(list, p.Tf("`%s` (GPUs %s until %s)", r.ID, r.GPUList(), whenIn(p, r.End, now, loc)))
	}
	return store.Reservation{}, &UserError{Msg: p.Tf("you hold %d reservations%s: %s — which one?", len(open), where, strings.Join(list, ", ")),
		Hint: p.Tf("name it: `%s %s %s`", op, open[0].ID, amount), Field: lang.FieldServer}
}

// lastsAbout reports whether r was booked for about d (within a quarter
// of an hour or a tenth of it); any r when d is 0.
func lastsAbout(r store.Reservation, d time.Duration) bool {
	if d == 0 {
		return true
	}
	gap := r.End.Sub(r.Start) - d
	return gap.Abs() <= max(15*time.Minute, d/10)
}

// oneOfSeveral asks which booking a release of a server means, when the
// asker holds several there that are not all running now and no day was
// said ("release my maple booking" with tonight's and December 24th's):
// giving GPUs back is of the booking in use, and a booking days ahead is
// not released unasked. Nil when the release is clear.
func (s *Set) oneOfSeveral(req Request, resv []store.Reservation, now time.Time, daySaid bool) *Reply {
	if len(resv) < 2 || daySaid {
		return nil
	}
	active := 0
	for _, r := range resv {
		if r.State(now) == store.Active {
			active++
		}
	}
	if active == len(resv) {
		return nil // every one is in use now: the server's GPUs back
	}
	p, loc := req.printer(), s.loc(req)
	r := &Reply{Title: p.T("Which booking?"), Summary: p.Tf("You hold %d bookings on %s; say which to release (or `release all`).", len(resv), resv[0].Server), Refused: "ambiguous"}
	var lines []string
	for _, rv := range resv {
		lines = append(lines, p.Tf("%s: GPUs %s from %s to %s", rv.ID, rv.GPUList(), whenIn(p, rv.Start, now, loc), whenIn(p, rv.End, now, loc)))
		r.Actions = append(r.Actions, Action{ID: ActionRun, Label: p.Tf("Release %s", rv.ID), Command: "release " + rv.ID, Style: "danger", RequestID: "rel-" + rv.ID})
	}
	r.Sections = append(r.Sections, Section{Bullets: lines})
	return r
}
