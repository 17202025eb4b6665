// Package schedule is when digests are due: a 5-field cron spec read in
// the wall-clock time of the subscription's zone. On a fall-back day 01:30
// happens twice but is one slot; on a spring-forward day 02:30 does not
// exist and the slot fires at the first moment after the gap (03:30).
// Either way, one post. The runner (cmd/gpuplan's scheduler) fires each
// slot through a claim in the store, named by SlotJob and held for
// ClaimLease.
//
// It is apart from package digest because it is the only digest code that
// needs robfig/cron, which commands and bot must not depend on.
package schedule

import (
	"fmt"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/digest"
	"github.com/gpuplan/gpuplan/store"
	"github.com/robfig/cron/v3"
)

// ClaimLease bounds how long a replica may hold a slot before another may
// take it over: longer than building and posting one digest takes.
const ClaimLease = 2 * time.Minute

// Wall reads a cron spec in the wall-clock time of a zone. robfig's
// own CRON_TZ handling skips a slot that falls in a spring-forward gap
// and fires one in a fall-back overlap twice; evaluating the spec on
// wall-clock times (as UTC, which has no DST) and mapping each slot back
// to one instant avoids both. It is a cron.Schedule.
type Wall struct {
	inner cron.Schedule
	loc   *time.Location
}

// Parse parses a 5-field spec for loc.
func Parse(spec string, loc *time.Location) (Wall, error) {
	if strings.Contains(spec, "TZ=") || strings.HasPrefix(strings.TrimSpace(spec), "@") {
		return Wall{}, fmt.Errorf("use five fields, without TZ= or @descriptors")
	}
	s, err := cron.ParseStandard(spec)
	if err != nil {
		return Wall{}, err
	}
	return Wall{inner: s, loc: loc}, nil
}

// NextFunc is Parse as commands.ScheduleFunc: it checks spec and
// returns when it next fires after a time.
func NextFunc(spec string, loc *time.Location) (func(time.Time) time.Time, error) {
	w, err := Parse(spec, loc)
	if err != nil {
		return nil, err
	}
	return w.Next, nil
}

// ForSubscription is sub's schedule in sub's zone.
func ForSubscription(sub store.Subscription) (Wall, error) {
	loc, err := time.LoadLocation(sub.TZ)
	if err != nil {
		return Wall{}, err
	}
	return Parse(sub.Spec, loc)
}

// Zone is sub's zone, UTC when it names none that exists.
func Zone(sub store.Subscription) *time.Location {
	loc, err := time.LoadLocation(sub.TZ)
	if err != nil {
		return time.UTC
	}
	return loc
}

// SlotJob names a subscription's slot in the claims.
func SlotJob(sub store.Subscription, wall time.Time) string {
	return "digest:" + sub.Channel + ":" + wall.Format("2006-01-02T15:04")
}

func wallClock(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
}

// instant maps a wall-clock slot (written in UTC) to the one moment it
// happens in loc: the earlier of the two in a fall-back overlap, and in a
// spring-forward gap the moment as far past the gap's start as the slot
// was (02:30 in a 02:00–03:00 gap fires at 03:30). time.Date leaves both
// cases unspecified, so the offsets either side are tried explicitly.
func instant(wall time.Time, loc *time.Location) time.Time {
	sec := wall.Unix()
	_, before := time.Unix(sec-86400, 0).In(loc).Zone()
	_, after := time.Unix(sec+86400, 0).In(loc).Zone()
	best := time.Time{}
	for _, off := range []int{before, after} {
		t := time.Unix(sec-int64(off), 0).In(loc)
		if wallClock(t, loc).Equal(wall.Truncate(time.Second)) && (best.IsZero() || t.Before(best)) {
			best = t
		}
	}
	if best.IsZero() { // in a gap: read it with the offset before the gap
		best = time.Unix(sec-int64(before), 0).In(loc)
	}
	return best
}

// Next is the first slot instant after t.
func (w Wall) Next(t time.Time) time.Time {
	wall := wallClock(t, w.loc)
	for range 8 {
		n := w.inner.Next(wall)
		if n.IsZero() {
			return n
		}
		if inst := instant(n, w.loc); inst.After(t) {
			return inst
		}
		wall = n
	}
	return time.Time{}
}

// Latest is the last slot at or before now within lookback: its
// wall-clock time (the slot's name) and its instant.
func (w Wall) Latest(now time.Time, lookback time.Duration) (wall, at time.Time, ok bool) {
	cur := wallClock(now.Add(-lookback), w.loc)
	for range 100000 {
		n := w.inner.Next(cur)
		if n.IsZero() {
			break
		}
		inst := instant(n, w.loc)
		if inst.After(now) {
			break
		}
		wall, at, ok = n, inst, true
		cur = n
	}
	return wall, at, ok
}

// LatestDue is sub's latest slot that is due at now and not older than
// its period (plus an hour's grace), nor before the subscription began:
// the one slot a runner that was down should still post.
func LatestDue(sub store.Subscription, now time.Time) (wall, at time.Time, ok bool) {
	w, err := ForSubscription(sub)
	if err != nil {
		return time.Time{}, time.Time{}, false
	}
	wall, at, ok = w.Latest(now, digest.PeriodLength(sub.Period)+time.Hour)
	if !ok || at.Before(sub.Since) {
		return time.Time{}, time.Time{}, false
	}
	return wall, at, true
}
