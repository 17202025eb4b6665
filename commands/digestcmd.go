package commands

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
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
		Summary: msg.T("Post a utilization digest to a channel on a schedule (admins), list the schedules, or preview one now."),
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
	p := req.printer()
	w := s.deps.Watch
	if w == nil || s.deps.Reservations == nil {
		return nil, &UserError{Msg: p.T("digests need the reservation store, and this gpuplan has none"), Hint: p.T("run it with REDIS_URL set, or with the embedded store")}
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
		if err := s.requireAdmin(p, req, p.T("stop a digest")); err != nil {
			return nil, err
		}
		ok, err := w.DeleteSubscription(ctx, channel)
		if err != nil {
			return nil, storeError(err, "digest")
		}
		if !ok {
			return nil, &UserError{Msg: p.Tf("<#%s> has no digest", channel), Hint: p.T("`digest list` shows the channels that do")}
		}
		return &Reply{Title: p.T("Digest stopped"), Summary: p.Tf("<#%s> gets no more digests (stopped by %s)", channel, mention(req.User)), InChannel: true, Channel: channel}, nil
	case lang.DigestSchedule:
	default:
		return nil, err
	}
	// Who may schedule, and where, before what is wrong with the schedule.
	if err := s.requireAdmin(p, req, p.T("schedule a digest")); err != nil {
		return nil, err
	}
	if channel == "" {
		return nil, &UserError{Msg: p.T("which channel?"), Hint: p.T("name it: `digest #gpu-team daily 09:00`")}
	}
	if a.Schedule.Cron && s.deps.Schedule == nil {
		return nil, &UserError{Msg: p.T("cron specs need the scheduler, which this gpuplan does not run"), Hint: p.T("use `daily` or `weekly`")}
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
	sub.Channel, sub.By, sub.Since, sub.Lang = channel, req.User, now, string(req.Lang)
	loc, _ := time.LoadLocation(sub.TZ)
	next, err := s.nextSlot(p, sub, loc, now)
	if err != nil {
		return nil, err
	}
	if err := w.PutSubscription(ctx, sub); err != nil {
		return nil, storeError(err, "digest")
	}
	label, first := Untrusted(scheduleText(p, sub.Label)), slotText(p, next.In(loc))
	summary := p.Tf("<#%s> gets a digest %s (%s) covering the day before it; the first on %s", channel, label, sub.TZ, first)
	if sub.Period == "week" {
		summary = p.Tf("<#%s> gets a digest %s (%s) covering the week before it; the first on %s", channel, label, sub.TZ, first)
	}
	return &Reply{
		Title:     p.T("Digest scheduled"),
		Summary:   summary,
		InChannel: true, Channel: channel, Data: sub,
		Sections: []Section{{Kind: Context, Text: p.Tf("Set by %s. `digest off` stops it; `digest now` previews one.", mention(req.User))}},
	}, nil
}

// requireAdmin refuses what (a deed in p's language: "stop a digest") to
// a user who is not an admin.
func (s *Set) requireAdmin(p *i18n.Printer, req Request, what string) error {
	if s.deps.Inventory.IsAdmin(req.User) {
		return nil
	}
	if len(s.deps.Inventory.Admins) == 0 {
		return &UserError{Msg: p.Tf("only admins may %s, and no admins are configured", what), Hint: p.T("add Slack user ids to `admins:` in the servers file")}
	}
	return &UserError{Msg: p.Tf("only admins may %s", what), Hint: p.Tf("ask one of %s", mentions(s.deps.Inventory.Admins))}
}

// scheduleText is a subscription's label ("daily 09:00", "weekly Mon
// 09:00", "cron 0 9 * * 1-5", as lang.ParseDigest writes it) in p's
// language.
func scheduleText(p *i18n.Printer, label string) string {
	kind, rest, _ := strings.Cut(label, " ")
	switch kind {
	case "daily":
		return p.Tf("daily %s", rest)
	case "weekly":
		if day, at, ok := strings.Cut(rest, " "); ok {
			return p.Tf("weekly %s %s", weekdayText(p, day), at)
		}
	}
	return label
}

// weekdayText is a weekday's short name ("Mon") in p's language.
func weekdayText(p *i18n.Printer, day string) string {
	if !p.Korean() {
		return day
	}
	for d := time.Sunday; d <= time.Saturday; d++ {
		if strings.EqualFold(d.String()[:3], day) {
			return koWeekday(d)
		}
	}
	return day
}

// koWeekday is a weekday as Korean dates write it: 2일 (월).
func koWeekday(d time.Weekday) string { return string([]rune(koDayNames[d])[:1]) }

// slotText writes when a digest fires, for p's reader: "Mon Jan 2 15:04
// MST", or "1월 2일 (월) 15:04 KST".
func slotText(p *i18n.Printer, t time.Time) string {
	if !p.Korean() {
		return t.Format("Mon Jan 2 15:04 MST")
	}
	return fmt.Sprintf("%d월 %d일 (%s) %s", t.Month(), t.Day(), koWeekday(t.Weekday()), t.Format("15:04 MST"))
}

func mentions(ids []string) string {
	var out []string
	for _, id := range ids {
		out = append(out, mention(id))
	}
	return strings.Join(out, ", ")
}

// nextSlot is when sub next fires after now; its complaints are in p's
// language.
func (s *Set) nextSlot(p *i18n.Printer, sub store.Subscription, loc *time.Location, now time.Time) (time.Time, error) {
	if s.deps.Schedule == nil {
		return nextWallClock(sub.Spec, loc, now)
	}
	next, err := s.deps.Schedule(sub.Spec, loc)
	if err != nil {
		return time.Time{}, &UserError{Msg: p.Tf("the cron spec `%s` is not valid: %v", sub.Spec, err),
			Hint: p.T("five fields: minute hour day-of-month month day-of-week, e.g. \"0 9 * * 1-5\"")}
	}
	t := next(now)
	if t.IsZero() {
		return t, &UserError{Msg: p.Tf("the cron spec `%s` never fires", sub.Spec)}
	}
	if t2 := next(t); !t2.IsZero() && t2.Sub(t) < time.Hour {
		return t, &UserError{Msg: p.Tf("the cron spec `%s` fires more than once an hour; a digest that often is noise", sub.Spec), Hint: p.T("hourly at most: `0 * * * *`")}
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
	p := req.printer()
	subs, err := s.deps.Watch.Subscriptions(ctx)
	if err != nil {
		return nil, storeError(err, "digest")
	}
	r := &Reply{Title: p.T("Digest schedules"), Data: subs}
	if len(subs) == 0 {
		r.Summary = p.T("no channel gets a digest yet — `digest #channel daily 09:00` sets one up (admins)")
		return r, nil
	}
	now, err := s.deps.Reservations.Now(ctx)
	if err != nil {
		return nil, storeError(err, "digest")
	}
	t := &Table{Columns: []string{p.T("channel"), p.T("schedule"), p.T("covers"), p.T("next"), p.T("set by")}}
	for _, sub := range subs {
		loc, err := time.LoadLocation(sub.TZ)
		if err != nil {
			loc = time.UTC
		}
		next := "?"
		if n, err := s.nextSlot(p, sub, loc, now); err == nil {
			next = slotText(p, n.In(loc))
		}
		covers := p.T("the day before")
		if sub.Period == "week" {
			covers = p.T("the week before")
		}
		t.Rows = append(t.Rows, []string{"<#" + sub.Channel + ">", Untrusted(scheduleText(p, sub.Label)) + " " + sub.TZ, covers, next, mention(sub.By)})
	}
	r.Summary = p.Tf("%d channel(s) get a digest", len(subs))
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
	loc, p := s.loc(req), req.printer()
	rep, err := s.DigestIn(ctx, p, a.Period, now.Truncate(time.Hour).Add(time.Hour), servers, loc)
	if err != nil {
		return nil, err
	}
	r := s.DigestReply(rep)
	r.InChannel = false
	r.Title = p.Tf("Preview: %s", r.Title)
	return r, nil
}
