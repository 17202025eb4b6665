package commands

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/store"
)

// A button about a reservation carries the reservation as its message
// showed it, "<id>@<owner>@<end unix>" (Action.Posted → Request.Posted).
// When it is clicked, Dispatch compares that with the reservation now and
// refuses, saying what changed, when the owner or the end moved since the
// message was posted: extended by someone else, released, or the id
// handed to another reservation after data loss. A button without one
// (posted before this existed) runs as before.

// postedAs is rv's fingerprint as a button carries it.
func postedAs(rv store.Reservation) string {
	return rv.ID + "@" + rv.Owner + "@" + strconv.FormatInt(rv.End.Unix(), 10)
}

// parsePosted reads a fingerprint; ok is false for one it cannot read.
func parsePosted(p string) (id, owner string, end int64, ok bool) {
	i := strings.LastIndexByte(p, '@')
	if i < 0 {
		return "", "", 0, false
	}
	end, err := strconv.ParseInt(p[i+1:], 10, 64)
	if err != nil {
		return "", "", 0, false
	}
	j := strings.LastIndexByte(p[:i], '@')
	if j <= 0 {
		return "", "", 0, false
	}
	return p[:j], p[j+1 : i], end, true
}

// withPosted marks actions as being about rv.
func withPosted(rv store.Reservation, actions ...Action) []Action {
	p := postedAs(rv)
	for i := range actions {
		actions[i].Posted = p
	}
	return actions
}

// checkPosted refuses a button whose reservation changed owner or window
// since its message was posted; nil lets the command run.
func (s *Set) checkPosted(ctx context.Context, req Request) error {
	id, owner, end, ok := parsePosted(req.Posted)
	if !ok {
		return nil // unreadable: as a button without one
	}
	st, err := s.store()
	if err != nil {
		return err
	}
	rv, err := st.Get(ctx, id)
	p := req.printer()
	stale := func(what string) error {
		return &Error{Kind: Refused, Op: "button", Err: &UserError{Msg: p.Tf("this message is out of date: %s — nothing was changed", what),
			Hint: p.T("`status` shows what is held now; `mine` lists yours with fresh buttons")}}
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		return stale(p.Tf("`%s` has ended or been released since", id))
	case err != nil:
		return storeError(err, "button")
	}
	now, err := st.Now(ctx)
	if err != nil {
		return storeError(err, "button")
	}
	loc := s.loc(req)
	switch {
	case rv.Owner != owner:
		return stale(p.Tf("`%s` is now a different reservation, held by %s until %s", id, mention(rv.Owner), whenIn(p, rv.End, now, loc)))
	case rv.End.Unix() == end:
		return nil
	case rv.ReleasedBy != "":
		return stale(p.Tf("`%s` was released by %s (%s)", id, mention(rv.ReleasedBy), whenIn(p, rv.End, now, loc)))
	default:
		return stale(p.Tf("`%s` now ends %s, not %s as this message shows", id, whenIn(p, rv.End, now, loc), whenIn(p, time.Unix(end, 0), now, loc)))
	}
}
