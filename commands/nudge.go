package commands

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/store"
)

// Idle nudges: reserved GPUs the agent has measured idle for
// Inventory.IdleNudgeAfter get their holder a DM with Release and Keep,
// at most once per reservation per period (a claim in the store, so one
// replica sends it).

// agentFresh is how recent the agent's last batch must be for its idle
// reading to count: an agent that stopped reporting says nothing.
const agentFresh = 5 * time.Minute

// nudgeJob names the claim of a reservation's nudge in its k-th period.
func nudgeJob(id string, k int64) string { return fmt.Sprintf("nudge:%s:%d", id, k) }

// idleSince is the moment from which every GPU of rv has been idle by
// the agent's reading, or false when that cannot be said (no fresh agent
// data, a GPU unknown, busy now).
func idleSince(rv store.Reservation, live store.Live, now time.Time) (time.Time, bool) {
	if live.SeenAt.IsZero() || now.Sub(live.SeenAt) > agentFresh || len(rv.GPUs) == 0 {
		return time.Time{}, false
	}
	since := rv.Start
	for _, id := range rv.GPUs {
		var g *store.LiveGPU
		for i := range live.GPUs {
			if live.GPUs[i].Index == id {
				g = &live.GPUs[i]
			}
		}
		if g == nil || g.Util < 0 || g.Busy() || now.Sub(g.At) > agentFresh {
			return time.Time{}, false
		}
		t := g.BusyAt
		if t.IsZero() {
			t = g.FirstAt
		}
		if t.After(since) {
			since = t
		}
	}
	return since, true
}

// nudges returns the DMs to send for the server's idle reservations.
func (s *Set) nudges(ctx context.Context, srv inventory.Server, resv []store.Reservation, now time.Time, loc *time.Location) ([]Notice, error) {
	w, every := s.deps.Watch, s.deps.Inventory.IdleNudgeAfter
	if w == nil || every <= 0 {
		return nil, nil
	}
	var live store.Live
	read := false
	var out []Notice
	for _, rv := range resv {
		if rv.State(now) != store.Active {
			continue
		}
		if !read {
			var err error
			if live, err = w.Live(ctx, srv.Name); err != nil {
				return nil, err
			}
			read = true
		}
		since, ok := idleSince(rv, live, now)
		if !ok || now.Sub(since) < every {
			continue
		}
		k := int64(now.Sub(rv.Start) / every)
		job := nudgeJob(rv.ID, k)
		first, err := w.Claim(ctx, job, s.holder(), time.Minute)
		if err != nil {
			return out, err
		}
		if !first {
			continue
		}
		if err := w.Done(ctx, job); err != nil {
			return out, err
		}
		out = append(out, Notice{User: rv.Owner, Kind: "nudge", Reply: s.nudgeReply(userPrinter(ctx, rv.Owner), rv, now.Sub(since), now, loc)})
	}
	return out, nil
}

// nudgeReply is the DM about idle GPUs, in p's language.
func (s *Set) nudgeReply(p *i18n.Printer, rv store.Reservation, idle time.Duration, now time.Time, loc *time.Location) *Reply {
	return &Reply{
		Title:   p.Tf("Your GPUs on %s look idle", rv.Server),
		Summary: p.Tf("`%s`: GPUs %s on %s have done no work for %s (measured), and are held until %s. Release them so others can use them?", rv.ID, rv.GPUList(), rv.Server, durationIn(p, idle.Round(time.Minute)), whenIn(p, rv.End, now, loc)),
		Actions: withPosted(rv,
			Action{ID: ActionRun, Label: p.T("Release"), Command: "release " + rv.ID, Style: "danger", RequestID: "rel-" + rv.ID},
			Action{ID: ActionRun, Label: p.T("Keep"), Command: "keep " + rv.ID, RequestID: fmt.Sprintf("keep-%s-%d", rv.ID, now.Unix()/60)},
		),
		Sections: []Section{{Kind: Context, Text: p.Tf("Idle = under %d%% utilization with no compute process, by `gpuplan agent`'s nvidia-smi readings.", store.BusyUtil)}},
		Data:     rv,
	}
}

func keepCommand() Command {
	return Command{
		Name:     "keep",
		Usage:    "keep <id>",
		Summary:  msg.T("Keep a reservation the idle nudge asked about; no nudge about it for the next period."),
		Examples: []string{"keep server-h-3"},
		run:      runKeep,
	}
}

func runKeep(ctx context.Context, s *Set, req Request, args string) (*Reply, error) {
	p := req.printer()
	st, err := s.store()
	if err != nil {
		return nil, err
	}
	words := strings.Fields(args)
	if len(words) == 0 {
		return nil, &UserError{Msg: p.T("keep which reservation?"), Hint: p.T("`keep server-h-3` — `mine` lists yours")}
	}
	rv, err := st.Get(ctx, words[0])
	if err != nil {
		return nil, storeError(err, "keep")
	}
	if rv.Owner != req.User && !s.deps.Inventory.IsAdmin(req.User) {
		return nil, storeError(store.ErrNotOwner, "keep")
	}
	now, err := st.Now(ctx)
	if err != nil {
		return nil, storeError(err, "keep")
	}
	if rv.State(now) == store.Expired || rv.State(now) == store.Released {
		return nil, storeError(store.ErrEnded, "keep")
	}
	every := s.deps.Inventory.IdleNudgeAfter
	r := &Reply{Title: p.T("Kept"), Data: rv}
	if every > 0 && s.deps.Watch != nil {
		// Mark the next period's nudge as sent, so the earliest next one is
		// two periods away.
		k := int64(max(0, now.Sub(rv.Start)) / every)
		if err := s.deps.Watch.Done(ctx, nudgeJob(rv.ID, k+1)); err != nil {
			return nil, storeError(err, "keep")
		}
		r.Summary = p.Tf("`%s` stays yours until %s; no idle nudge about it for the next %s.", rv.ID, whenIn(p, rv.End, now, s.loc(req)), durationIn(p, every))
	} else {
		r.Summary = p.Tf("`%s` stays yours until %s.", rv.ID, whenIn(p, rv.End, now, s.loc(req)))
	}
	return r, nil
}

// newHolder names this process in claims, so two replicas never share a
// lease.
func newHolder() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "gpuplan-" + hex.EncodeToString(b[:])
}
