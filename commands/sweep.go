package commands

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/store"
)

// UserLang is the language a user reads, which only the adapter knows
// (Slack's locale in users.info). Sweep asks it for each user it writes to.
type UserLang func(ctx context.Context, user string) i18n.Lang

type userLangKey struct{}

// WithUserLang returns ctx under which Sweep writes each DM in the
// language langOf gives for its reader; without it DMs are in English.
// An announcement's update is written in its owner's language, as the
// announcement was.
func WithUserLang(ctx context.Context, langOf UserLang) context.Context {
	return context.WithValue(ctx, userLangKey{}, langOf)
}

// userPrinter is the printer for user's DMs under ctx (WithUserLang).
func userPrinter(ctx context.Context, user string) *i18n.Printer {
	if langOf, ok := ctx.Value(userLangKey{}).(UserLang); ok && langOf != nil {
		return i18n.For(langOf(ctx, user))
	}
	return i18n.For(i18n.EN)
}

// Notice is something the bot says without being asked: a DM to a user,
// or an update of an announcement already posted.
type Notice struct {
	User    string // DM this user; empty for an update
	Channel string // with TS: the message to update
	TS      string
	Reply   *Reply
	Kind    string // "reminder", "expired", "waiting", "nudge" (for logs and metrics)
}

// sweeper remembers announced reservations between sweeps, to notice
// the ones that ended by time (List no longer returns them).
type sweeper struct {
	mu        sync.Mutex
	announced map[string]store.Reservation
}

// Sweep looks at every server once and returns what to tell whom:
// reminders before expiry (claimed in the store, so one replica sends
// each), announcements of reservations that ended by time, and waiters
// whose GPUs are free. Run it every half minute or so.
func (s *Set) Sweep(ctx context.Context) ([]Notice, error) {
	st := s.deps.Reservations
	if st == nil {
		return nil, nil
	}
	now, err := st.Now(ctx)
	if err != nil {
		return nil, err
	}
	inv := s.deps.Inventory
	loc := inv.Timezone
	if loc == nil {
		loc = time.UTC
	}
	var out []Notice
	live := map[string]bool{}
	for _, srv := range inv.Servers {
		resv, err := st.List(ctx, srv.Name)
		if err != nil {
			return out, err
		}
		held := 0
		for _, rv := range resv {
			live[rv.ID] = true
			if rv.Channel != "" {
				s.sweep.remember(rv)
			}
			if rv.State(now) != store.Active {
				continue
			}
			held += len(rv.GPUs)
			_, isExec := rv.ExecCommand() // its end is a lease the running job renews: nothing to remind of
			if inv.ReminderBefore > 0 && !rv.Reminded && !isExec && rv.End.Sub(now) <= inv.ReminderBefore {
				first, err := st.MarkReminded(ctx, rv.ID)
				if err != nil {
					return out, err
				}
				if first {
					out = append(out, Notice{User: rv.Owner, Kind: "reminder", Reply: s.reminderReply(userPrinter(ctx, rv.Owner), rv, now, loc)})
				}
			}
		}
		nudges, err := s.nudges(ctx, srv, resv, now, loc)
		out = append(out, nudges...)
		if err != nil {
			return out, err
		}
		freed, err := s.freedWaiters(ctx, st, srv.Name, srv.Count()-held)
		out = append(out, freed...)
		if err != nil {
			return out, err
		}
	}
	// Announced reservations that List no longer returns have ended by
	// time: say so where they were announced.
	for _, rv := range s.sweep.gone(live) {
		cur, err := st.Get(ctx, rv.ID)
		if err != nil {
			cur = rv // cleaned up already: the copy is enough to write the notice
		}
		if cur.State(now) != store.Expired {
			continue
		}
		r := s.reservationReply(cur, "expired", now, loc)
		r.Actions = nil
		out = append(out, Notice{Channel: rv.Channel, TS: rv.MessageTS, Kind: "expired", Reply: r})
	}
	return out, nil
}

// freedWaiters tells the waiters on server whose count now fits in free
// GPUs, first come first served; each waiter is told by the replica that
// takes it off the list.
func (s *Set) freedWaiters(ctx context.Context, st store.Store, server string, free int) ([]Notice, error) {
	waiters, err := st.Waiters(ctx, server)
	if err != nil {
		return nil, err
	}
	var out []Notice
	for _, w := range waiters {
		if w.Count > free {
			continue
		}
		removed, err := st.RemoveWaiter(ctx, server, w.ID)
		if err != nil {
			return out, err
		}
		free -= w.Count
		if !removed {
			continue // another replica took it and tells the waiter
		}
		p := userPrinter(ctx, w.Owner)
		out = append(out, Notice{User: w.Owner, Kind: "waiting", Reply: &Reply{
			Title:   p.Tf("%d GPU(s) free on %s", w.Count, server),
			Summary: p.Tf("The %d GPU(s) you were waiting for on %s are free now.", w.Count, server),
			Actions: []Action{{ID: ActionRun, Label: p.T("Reserve for 4h"), Style: "primary",
				Command: fmt.Sprintf("reserve %d on %s for 4h", w.Count, server), RequestID: "wait-" + w.ID}},
		}})
	}
	return out, nil
}

func (w *sweeper) remember(rv store.Reservation) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.announced == nil {
		w.announced = map[string]store.Reservation{}
	}
	w.announced[rv.ID] = rv
}

// gone returns (and forgets) the announced reservations not in live.
func (w *sweeper) gone(live map[string]bool) []store.Reservation {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []store.Reservation
	for id, rv := range w.announced {
		if !live[id] {
			out = append(out, rv)
			delete(w.announced, id)
		}
	}
	return out
}

// reminderReply is the DM before a reservation ends, in p's language.
func (s *Set) reminderReply(p *i18n.Printer, rv store.Reservation, now time.Time, loc *time.Location) *Reply {
	left := rv.End.Sub(now).Round(time.Minute)
	return &Reply{
		Title:   p.Tf("Your GPUs on %s end in %s", rv.Server, durationIn(p, left)),
		Summary: p.Tf("`%s`: GPUs %s on %s end %s.", rv.ID, rv.GPUList(), rv.Server, whenIn(p, rv.End, now, loc)),
		Actions: withPosted(rv,
			Action{ID: ActionRun, Label: p.T("Extend 1h"), Command: "extend " + rv.ID + " 1h", Style: "primary", RequestID: "remind-ext-" + rv.ID},
			Action{ID: ActionRun, Label: p.T("Release now"), Command: "release " + rv.ID, Style: "danger", RequestID: "rel-" + rv.ID},
		),
		Data: rv,
	}
}
