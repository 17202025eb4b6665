package main

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/digest/schedule"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/store"
	"github.com/robfig/cron/v3"
	"github.com/slack-go/slack"
	"go.uber.org/zap"
)

// The digest scheduler. Every replica runs one: robfig/cron fires each
// subscription at its slots, and a reconcile job every minute reloads the
// subscriptions and posts any slot that is due but not done (a slot missed
// while every replica was down is posted late, once). A slot is posted by
// whoever claims it in the store first; the claim is a lease, so a replica
// that dies holding it leaves the slot to another after the lease.
//
// What a slot is (wall-clock times, one post across a DST change), its
// name and its lease are package digest's; this file runs them.

// digestPoster posts a reply to a channel (bot.Post).
type digestPoster func(ctx context.Context, channel string, r *commands.Reply) (string, error)

type scheduler struct {
	set    *commands.Set
	watch  store.Watch
	clock  func(ctx context.Context) (time.Time, error) // the store's now
	post   digestPoster
	log    *zap.Logger
	holder string
	// posted is told each digest's outcome: "ok", "late", "error".
	posted func(outcome string)
	// every is how often the reconcile job runs (cron's @every; a minute).
	every time.Duration

	mu      sync.Mutex
	entries map[string]cronEntry // by channel
	cron    *cron.Cron
	wg      sync.WaitGroup // fires in flight
}

type cronEntry struct {
	id  cron.EntryID
	key string // spec and zone it was added with
}

func newScheduler(set *commands.Set, w store.Watch, clock func(context.Context) (time.Time, error), post digestPoster, log *zap.Logger, holder string) *scheduler {
	return &scheduler{set: set, watch: w, clock: clock, post: post, log: log, holder: holder, entries: map[string]cronEntry{}, posted: func(string) {}, every: time.Minute}
}

// cronLogger adapts zap to cron.Logger for Recover and SkipIfStillRunning.
type cronLogger struct{ log *zap.Logger }

func (l cronLogger) Info(msg string, kv ...any) {
	if msg == "skip" { // a job ran past its next slot: worth an operator's eye
		l.log.Warn("cron: skipped a run; the previous one is still running", zap.Any("detail", kv))
		return
	}
	l.log.Debug("cron: "+msg, zap.Any("detail", kv))
}

func (l cronLogger) Error(err error, msg string, kv ...any) {
	l.log.Error("cron: "+msg, zap.Error(err), zap.Any("detail", kv))
}

// newCron is the cron the scheduler's jobs run on, in loc. A job still
// running when it is due again is skipped (and the skip logged), so no two
// runs of one job overlap; a job that panics is recovered and logged, and
// its next run still happens. The order matters: SkipIfStillRunning frees
// its slot only when the job returns, so Recover must sit inside it. With
// Recover outside, one panic kept the slot taken and every later run of
// that job was skipped.
func newCron(loc *time.Location, log *zap.Logger) *cron.Cron {
	cl := cronLogger{log}
	return cron.New(cron.WithLocation(loc), cron.WithLogger(cl),
		cron.WithChain(cron.SkipIfStillRunning(cl), cron.Recover(cl)))
}

// Run starts cron and blocks until ctx ends, then waits for jobs in flight.
func (s *scheduler) Run(ctx context.Context, loc *time.Location) {
	c := newCron(loc, s.log)
	s.mu.Lock()
	s.cron = c
	s.mu.Unlock()
	if _, err := c.AddFunc("@every "+s.every.String(), func() { s.Tick(ctx) }); err != nil {
		s.log.Error("digest scheduler", zap.Error(err))
		return
	}
	c.Start()
	s.Tick(ctx) // catch up at once, not a minute after start
	<-ctx.Done()
	<-c.Stop().Done()
	s.wg.Wait()
}

// Tick reloads the subscriptions, keeps cron's entries in step, and posts
// every subscription's latest slot that is due and not done.
func (s *scheduler) Tick(ctx context.Context) {
	subs, err := s.watch.Subscriptions(ctx)
	if err != nil {
		s.log.Warn("digest scheduler: cannot read subscriptions", zap.Error(err))
		return
	}
	s.sync(ctx, subs)
	for _, sub := range subs {
		s.fireLatest(ctx, sub)
	}
}

func (s *scheduler) sync(ctx context.Context, subs []store.Subscription) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cron == nil {
		return
	}
	seen := map[string]bool{}
	for _, sub := range subs {
		seen[sub.Channel] = true
		key := sub.Spec + "|" + sub.TZ + "|" + sub.Period + "|" + sub.Since.String()
		if e, ok := s.entries[sub.Channel]; ok && e.key == key {
			continue
		} else if ok {
			s.cron.Remove(e.id)
		}
		w, err := schedule.ForSubscription(sub)
		if err != nil {
			s.log.Warn("digest scheduler: bad subscription", zap.String("channel", sub.Channel), zap.Error(err))
			continue
		}
		sub := sub
		id := s.cron.Schedule(w, cron.FuncJob(func() { s.fireLatest(ctx, sub) }))
		s.entries[sub.Channel] = cronEntry{id: id, key: key}
	}
	for ch, e := range s.entries {
		if !seen[ch] {
			s.cron.Remove(e.id)
			delete(s.entries, ch)
		}
	}
}

// fireLatest posts sub's latest due slot if nobody has.
func (s *scheduler) fireLatest(ctx context.Context, sub store.Subscription) {
	s.wg.Add(1)
	defer s.wg.Done()
	if ctx.Err() != nil {
		return
	}
	now, err := s.clock(ctx)
	if err != nil {
		s.log.Warn("digest scheduler: no clock from the store", zap.Error(err))
		return
	}
	if wallAt, at, ok := schedule.LatestDue(sub, now); ok {
		s.fire(ctx, sub, wallAt, at, now)
	}
}

// fire claims one slot and, if it is ours, builds and posts the digest.
func (s *scheduler) fire(ctx context.Context, sub store.Subscription, wall, at, now time.Time) {
	job := schedule.SlotJob(sub, wall)
	mine, err := s.watch.Claim(ctx, job, s.holder, schedule.ClaimLease)
	if err != nil {
		s.log.Warn("digest scheduler: claim failed", zap.String("job", job), zap.Error(err))
		return
	}
	if !mine {
		return
	}
	log := s.log.With(zap.String("channel", sub.Channel), zap.String("slot", job))
	loc := schedule.Zone(sub)
	p := i18n.For(i18n.Lang(sub.Lang)) // written in the language of whoever scheduled it
	rep, err := s.set.DigestIn(ctx, p, sub.Period, at, sub.Servers, loc)
	if err != nil {
		log.Warn("digest: cannot build; another replica retries after the lease", zap.Error(err))
		s.posted("error")
		return
	}
	outcome := "ok"
	if late := now.Sub(at); late > 2*time.Minute {
		rep.Late = p.Tf("Posted late: no gpuplan was running at %s.", at.In(loc).Format("Mon 15:04 MST"))
		outcome = "late"
	}
	reply := s.set.DigestReply(rep)
	if _, err := s.post(ctx, sub.Channel, reply); err != nil {
		if permanent(err) {
			log.Error("digest: Slack refused it for good; the slot is given up (invite the bot to the channel, or `digest off`)", zap.Error(err))
			_ = s.watch.Done(ctx, job)
		} else {
			log.Warn("digest: post failed; retried after the lease", zap.Error(err))
		}
		s.posted("error")
		return
	}
	if err := s.watch.Done(ctx, job); err != nil {
		// Posted but not marked: after the lease another replica could
		// post it again. Say so loudly; it is the one window for a double.
		log.Error("digest: posted, but marking the slot done failed", zap.Error(err))
	}
	log.Info("digest posted", zap.String("outcome", outcome))
	s.posted(outcome)
}

// permanent reports Slack errors that retrying will not fix, by the error
// code Slack answered with.
func permanent(err error) bool {
	switch slackCode(err) {
	case "channel_not_found", "not_in_channel", "is_archived", "invalid_auth", "account_inactive", "restricted_action":
		return true
	}
	return false
}

// slackCode is the error code of a Slack Web API refusal ("invalid_auth"),
// "" for any other error.
func slackCode(err error) string {
	var se slack.SlackErrorResponse
	if errors.As(err, &se) {
		return se.Err
	}
	var sp *slack.SlackErrorResponse
	if errors.As(err, &sp) && sp != nil {
		return sp.Err
	}
	return ""
}
