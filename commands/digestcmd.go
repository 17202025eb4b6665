package commands

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/store"
)

// ScheduleFunc checks a 5-field cron spec read in loc and returns when it
// next fires after a time. cmd/gpuplan supplies digest/schedule's NextFunc,
// which is built on robfig/cron, a dependency this package may not have.
type ScheduleFunc func(spec string, loc *time.Location) (next func(time.Time) time.Time, err error)

func digestCommand() Command {
	return Command{
		Name:    "digest",
		Usage:   "digest [#channel] daily <hh:mm> | weekly <day> <hh:mm> | off | list | now",
		Summary: "Post a utilization digest to a channel on a schedule (admins), list the schedules, or preview one now.",
		Grammar: []string{
			"`digest #gpu-team daily 09:00` · `digest weekly mon 09:00 Asia/Seoul` · `digest cron \"0 9 * * 1-5\"` (the channel defaults to this one)",
			"a daily digest covers the 24 hours before it, a weekly one the 7 days; `cron` covers a day unless it fires on one weekday only, or add `weekly`",
			"`digest off` stops this channel's digest · `digest list` shows every schedule · `digest now` previews one privately",
			"the time zone defaults to yours; it is an IANA name such as `Europe/Berlin`",
		},
		Examples: []string{"digest #gpu-team daily 09:00", "digest weekly mon 09:00 Asia/Seoul", "digest now week"},
		run:      runDigest,
	}
}

func runDigest(ctx context.Context, s *Set, req Request, args string) (*Reply, error) {
	w := s.deps.Watch
	if w == nil || s.deps.Reservations == nil {
		return nil, &UserError{Msg: "digests need the reservation store, and this gpuplan has none", Hint: "run it with REDIS_URL set, or with the embedded store"}
	}
	a, err := lang.ParseDigest(args, s.loc(req))
	channel := req.Channel
	if a.Channel != "" {
		channel = a.Channel
	}
	switch a.Action {
	case lang.DigestList:
		return digestList(ctx, s, req)
	case lang.DigestPreview:
		return digestNow(ctx, s, req, a)
	case lang.DigestOff:
		if err := s.requireAdmin(req, "stop a digest"); err != nil {
			return nil, err
		}
		ok, err := w.DeleteSubscription(ctx, channel)
		if err != nil {
			return nil, storeError(err, "digest")
		}
		if !ok {
			return nil, &UserError{Msg: fmt.Sprintf("<#%s> has no digest", channel), Hint: "`digest list` shows the channels that do"}
		}
		return &Reply{Title: "Digest stopped", Summary: fmt.Sprintf("<#%s> gets no more digests (stopped by %s)", channel, mention(req.User)), InChannel: true, Channel: channel}, nil
	case lang.DigestSchedule:
	default:
		return nil, err
	}
	// Who may schedule, and where, before what is wrong with the schedule.
	if err := s.requireAdmin(req, "schedule a digest"); err != nil {
		return nil, err
	}
	if channel == "" {
		return nil, &UserError{Msg: "which channel?", Hint: "name it: `digest #gpu-team daily 09:00`"}
	}
	if a.Schedule.Cron && s.deps.Schedule == nil {
		return nil, &UserError{Msg: "cron specs need the scheduler, which this gpuplan does not run", Hint: "use `daily` or `weekly`"}
	}
	if err != nil {
		return nil, err
	}
	sc := a.Schedule
	sub := store.Subscription{Spec: sc.Spec, Label: sc.Label, Period: sc.Period, TZ: sc.TZ}
	now, err := s.deps.Reservations.Now(ctx)
	if err != nil {
		return nil, storeError(err, "digest")
	}
	sub.Channel, sub.By, sub.Since = channel, req.User, now
	loc, _ := time.LoadLocation(sub.TZ)
	next, err := s.nextSlot(sub, loc, now)
	if err != nil {
		return nil, err
	}
	if err := w.PutSubscription(ctx, sub); err != nil {
		return nil, storeError(err, "digest")
	}
	return &Reply{
		Title: "Digest scheduled",
		Summary: fmt.Sprintf("<#%s> gets a digest %s (%s) covering the %s before it; the first on %s",
			channel, Untrusted(sub.Label), sub.TZ, sub.Period, next.In(loc).Format("Mon Jan 2 15:04 MST")),
		InChannel: true, Channel: channel, Data: sub,
		Sections: []Section{{Kind: Context, Text: fmt.Sprintf("Set by %s. `digest off` stops it; `digest now` previews one.", mention(req.User))}},
	}, nil
}

func (s *Set) requireAdmin(req Request, what string) error {
	if s.deps.Inventory.IsAdmin(req.User) {
		return nil
	}
	if len(s.deps.Inventory.Admins) == 0 {
		return &UserError{Msg: "only admins may " + what + ", and no admins are configured", Hint: "add Slack user ids to `admins:` in the servers file"}
	}
	return &UserError{Msg: "only admins may " + what, Hint: "ask one of " + mentions(s.deps.Inventory.Admins)}
}

func mentions(ids []string) string {
	var out []string
	for _, id := range ids {
		out = append(out, mention(id))
	}
	return strings.Join(out, ", ")
}

// nextSlot is when sub next fires after now.
func (s *Set) nextSlot(sub store.Subscription, loc *time.Location, now time.Time) (time.Time, error) {
	if s.deps.Schedule == nil {
		return nextWallClock(sub.Spec, loc, now)
	}
	next, err := s.deps.Schedule(sub.Spec, loc)
	if err != nil {
		return time.Time{}, userErrorf("five fields: minute hour day-of-month month day-of-week, e.g. \"0 9 * * 1-5\"", "the cron spec `%s` is not valid: %v", sub.Spec, err)
	}
	t := next(now)
	if t.IsZero() {
		return t, &UserError{Msg: fmt.Sprintf("the cron spec `%s` never fires", sub.Spec)}
	}
	if t2 := next(t); !t2.IsZero() && t2.Sub(t) < time.Hour {
		return t, &UserError{Msg: fmt.Sprintf("the cron spec `%s` fires more than once an hour; a digest that often is noise", sub.Spec), Hint: "hourly at most: `0 * * * *`"}
	}
	return t, nil
}

// nextWallClock handles the daily and weekly specs this package writes
// itself ("m h * * *", "m h * * d"), for when no scheduler is wired.
func nextWallClock(spec string, loc *time.Location, now time.Time) (time.Time, error) {
	f := strings.Fields(spec)
	if len(f) != 5 {
		return time.Time{}, errors.New("bad spec")
	}
	m, _ := strconv.Atoi(f[0])
	h, _ := strconv.Atoi(f[1])
	dow := -1
	if f[4] != "*" {
		dow, _ = strconv.Atoi(f[4])
	}
	n := now.In(loc)
	for i := range 9 {
		d := time.Date(n.Year(), n.Month(), n.Day()+i, h, m, 0, 0, loc)
		if d.After(now) && (dow < 0 || int(d.Weekday()) == dow) {
			return d, nil
		}
	}
	return time.Time{}, errors.New("no slot")
}

func digestList(ctx context.Context, s *Set, req Request) (*Reply, error) {
	subs, err := s.deps.Watch.Subscriptions(ctx)
	if err != nil {
		return nil, storeError(err, "digest")
	}
	r := &Reply{Title: "Digest schedules", Data: subs}
	if len(subs) == 0 {
		r.Summary = "no channel gets a digest yet — `digest #channel daily 09:00` sets one up (admins)"
		return r, nil
	}
	now, err := s.deps.Reservations.Now(ctx)
	if err != nil {
		return nil, storeError(err, "digest")
	}
	t := &Table{Columns: []string{"channel", "schedule", "covers", "next", "set by"}}
	for _, sub := range subs {
		loc, err := time.LoadLocation(sub.TZ)
		if err != nil {
			loc = time.UTC
		}
		next := "?"
		if n, err := s.nextSlot(sub, loc, now); err == nil {
			next = n.In(loc).Format("Mon Jan 2 15:04 MST")
		}
		t.Rows = append(t.Rows, []string{"<#" + sub.Channel + ">", Untrusted(sub.Label) + " " + sub.TZ, "the " + sub.Period + " before", next, mention(sub.By)})
	}
	r.Summary = fmt.Sprintf("%d channel(s) get a digest", len(subs))
	r.Sections = []Section{{Table: t}}
	return r, nil
}

func digestNow(ctx context.Context, s *Set, req Request, a lang.DigestArgs) (*Reply, error) {
	var servers []string
	for _, w := range a.Servers {
		srv, err := s.deps.Inventory.Server(w)
		if err != nil {
			return nil, err
		}
		servers = append(servers, srv.Name)
	}
	now, err := s.deps.Reservations.Now(ctx)
	if err != nil {
		return nil, storeError(err, "digest")
	}
	loc := s.loc(req)
	rep, err := s.DigestFor(ctx, a.Period, now.Truncate(time.Hour).Add(time.Hour), servers, loc)
	if err != nil {
		return nil, err
	}
	r := s.DigestReply(rep)
	r.InChannel = false
	r.Title = "Preview: " + r.Title
	return r, nil
}
