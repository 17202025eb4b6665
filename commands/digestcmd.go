package commands

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
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

var (
	channelRefRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^<#([CG][A-Z0-9]+)(\|[^>]*)?>$`) })
	channelIDRe2 = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^#?([CG][A-Z0-9]{2,})$`) })
)

func runDigest(ctx context.Context, s *Set, req Request, args string) (*Reply, error) {
	w := s.deps.Watch
	if w == nil || s.deps.Reservations == nil {
		return nil, &UserError{Msg: "digests need the reservation store, and this gpuplan has none", Hint: "run it with REDIS_URL set, or with the embedded store"}
	}
	words := strings.Fields(args)
	channel := req.Channel
	if len(words) > 0 {
		if c, ok := parseChannel(words[0]); ok {
			channel = c
			words = words[1:]
		} else if strings.HasPrefix(words[0], "#") || strings.HasPrefix(words[0], "<#") {
			return nil, &UserError{Msg: fmt.Sprintf("`%s` is not a channel I can use", words[0]), Hint: "type `#` and pick the channel from the list, so Slack sends its id"}
		}
	}
	verb := "list"
	if len(words) > 0 {
		verb = strings.ToLower(words[0])
		words = words[1:]
	}
	switch verb {
	case "list":
		return digestList(ctx, s, req)
	case "now", "preview":
		return digestNow(ctx, s, req, words)
	case "off", "stop", "remove":
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
	case "daily", "weekly", "cron", "every":
	default:
		return nil, userErrorf("try `digest #gpu-team daily 09:00`, `digest weekly mon 09:00`, `digest off`, `digest list` or `digest now`",
			"`digest %s` — I did not understand `%s`", args, verb)
	}
	if err := s.requireAdmin(req, "schedule a digest"); err != nil {
		return nil, err
	}
	if channel == "" {
		return nil, &UserError{Msg: "which channel?", Hint: "name it: `digest #gpu-team daily 09:00`"}
	}
	sub, err := s.parseSchedule(req, verb, words)
	if err != nil {
		return nil, err
	}
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

func parseChannel(w string) (string, bool) {
	if m := channelRefRe().FindStringSubmatch(w); m != nil {
		return m[1], true
	}
	if m := channelIDRe2().FindStringSubmatch(w); m != nil {
		return m[1], true
	}
	return "", false
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

// parseSchedule reads `daily 09:00 [tz]`, `weekly mon 09:00 [tz]` and
// `cron "<spec>" [tz] [weekly]`.
func (s *Set) parseSchedule(req Request, verb string, words []string) (store.Subscription, error) {
	sub := store.Subscription{TZ: s.loc(req).String(), Period: "day"}
	hint := "try `digest daily 09:00`, `digest weekly mon 09:00 Europe/Berlin` or `digest cron \"0 9 * * 1-5\"`"
	clock := func(w string) (int, int, error) {
		h, m, ok := lang.Clock(w)
		if !ok {
			return 0, 0, userErrorf(hint, "`%s` is not a time of day; write it as 09:00 or 18:30", w)
		}
		return h, m, nil
	}
	var rest []string
	switch verb {
	case "daily", "every":
		if verb == "every" {
			if len(words) == 0 || strings.ToLower(words[0]) != "day" {
				return sub, userErrorf(hint, "`every` needs `day`: `digest every day 09:00`")
			}
			words = words[1:]
		}
		if len(words) == 0 {
			return sub, userErrorf(hint, "a daily digest needs a time: `digest daily 09:00`")
		}
		h, m, err := clock(words[0])
		if err != nil {
			return sub, err
		}
		sub.Spec = fmt.Sprintf("%d %d * * *", m, h)
		sub.Label = fmt.Sprintf("daily %02d:%02d", h, m)
		rest = words[1:]
	case "weekly":
		if len(words) < 2 {
			return sub, userErrorf(hint, "a weekly digest needs a day and a time: `digest weekly mon 09:00`")
		}
		wd, ok := lang.Weekday(words[0])
		d := int(wd)
		if !ok {
			return sub, userErrorf(hint, "`%s` is not a day of the week; use mon, tue, … sun", words[0])
		}
		h, m, err := clock(words[1])
		if err != nil {
			return sub, err
		}
		sub.Spec = fmt.Sprintf("%d %d * * %d", m, h, d)
		sub.Period = "week"
		sub.Label = fmt.Sprintf("weekly %s %02d:%02d", time.Weekday(d).String()[:3], h, m)
		rest = words[2:]
	case "cron":
		var err error
		if sub, rest, err = s.cronSchedule(sub, words); err != nil {
			return sub, err
		}
	}
	for _, w := range rest {
		switch lw := strings.ToLower(w); {
		case lw == "weekly" && verb == "cron":
			sub.Period = "week"
		case lw == "daily" && verb == "cron":
			sub.Period = "day"
		default:
			loc, err := time.LoadLocation(w)
			if err != nil || w == "" || w == "Local" {
				return sub, userErrorf("time zones are IANA names: `Asia/Seoul`, `Europe/Berlin`, `America/New_York`, `UTC`", "`%s` is not a time zone I know", w)
			}
			sub.TZ = loc.String()
		}
	}
	return sub, nil
}

// cronSchedule reads `cron "m h dom mon dow"`: a digest that covers a day,
// or a week when the spec fires on one weekday only. rest is the words
// after the quoted spec.
func (s *Set) cronSchedule(sub store.Subscription, words []string) (_ store.Subscription, rest []string, _ error) {
	spec, after, ok := cronQuoted(strings.Join(words, " "))
	if !ok {
		return sub, nil, userErrorf("put the spec in quotes: `digest cron \"0 9 * * 1-5\"`", "the cron spec must be in double quotes")
	}
	if s.deps.Schedule == nil {
		return sub, nil, &UserError{Msg: "cron specs need the scheduler, which this gpuplan does not run", Hint: "use `daily` or `weekly`"}
	}
	f := strings.Fields(spec)
	if len(f) != 5 {
		return sub, nil, userErrorf("five fields: minute hour day-of-month month day-of-week, e.g. \"0 9 * * 1-5\"", "the cron spec `%s` has %d fields, not 5", spec, len(f))
	}
	sub.Spec = strings.Join(f, " ")
	sub.Label = "cron " + sub.Spec
	if _, err := strconv.Atoi(f[4]); err == nil && f[2] == "*" {
		sub.Period = "week"
	}
	return sub, strings.Fields(after), nil
}

// cronQuoted splits `"a b" rest` into a b and rest (straight or curly quotes,
// as Slack clients type them).
func cronQuoted(s string) (inside, rest string, ok bool) {
	s = strings.NewReplacer("“", `"`, "”", `"`).Replace(strings.TrimSpace(s))
	if !strings.HasPrefix(s, `"`) {
		return "", "", false
	}
	end := strings.Index(s[1:], `"`)
	if end < 0 {
		return "", "", false
	}
	return s[1 : end+1], s[end+2:], true
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

func digestNow(ctx context.Context, s *Set, req Request, words []string) (*Reply, error) {
	period := "day"
	var servers []string
	for _, w := range words {
		switch lw := strings.ToLower(w); lw {
		case "week", "weekly", "7d":
			period = "week"
		case "day", "daily", "24h":
			period = "day"
		default:
			srv, err := s.deps.Inventory.Server(w)
			if err != nil {
				return nil, err
			}
			servers = append(servers, srv.Name)
		}
	}
	now, err := s.deps.Reservations.Now(ctx)
	if err != nil {
		return nil, storeError(err, "digest")
	}
	loc := s.loc(req)
	rep, err := s.DigestFor(ctx, period, now.Truncate(time.Hour).Add(time.Hour), servers, loc)
	if err != nil {
		return nil, err
	}
	r := s.DigestReply(rep)
	r.InChannel = false
	r.Title = "Preview: " + r.Title
	return r, nil
}
