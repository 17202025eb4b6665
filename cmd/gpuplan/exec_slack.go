package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/bot"
	"github.com/gpuplan/gpuplan/commands"
)

// An exec job's announcements in Slack: with the bot token (the one serve
// uses) and the servers file's team_channel, the booking is announced in
// the team channel as any reservation is, and its end replaces that
// announcement and is said in its thread. Slack is a side show here: a
// post that fails is one line on stderr, and the job goes on.

// execPostTimeout bounds each of the two posts (a slow or unreachable
// Slack must not keep gpuplan from exiting with the command's status).
const execPostTimeout = 15 * time.Second

// execAnnouncer is what exec needs of bot.Announcer.
type execAnnouncer interface {
	Announce(ctx context.Context, reply *commands.Reply) (bot.Posted, error)
	Follow(ctx context.Context, at bot.Posted, reply *commands.Reply) error
}

// execSlack posts one job's announcements. The start is posted in the
// background, so the command never waits for Slack; the end waits for it
// (so that it can follow it up) and is posted before gpuplan exits.
type execSlack struct {
	a      execAnnouncer
	st     execStore // records where the booking was announced
	stderr io.Writer

	done chan struct{} // closed when the start's post is over
	at   bot.Posted    // where the start went; zero when it did not
}

// newExecSlack is the job's Slack side, or nil when it has none: no bot
// token, no team channel, or a token of the wrong kind (said once on
// stderr; the job runs all the same).
func newExecSlack(getenv func(string) string, teamChannel string, st execStore, stderr io.Writer) *execSlack {
	token := bot.Secret(strings.TrimSpace(getenv("SLACK_BOT_TOKEN")))
	if token == "" {
		return nil
	}
	if teamChannel == "" {
		fmt.Fprintln(stderr, "gpuplan exec: note: SLACK_BOT_TOKEN is set but the servers file has no team_channel; the announcements are printed only")
		return nil
	}
	a, err := bot.NewAnnouncer(token, getenv("SLACK_API_URL"))
	if err != nil {
		fmt.Fprintf(stderr, "gpuplan exec: warning: %v; the announcements are printed only\n", err)
		return nil
	}
	return &execSlack{a: a, st: st, stderr: stderr}
}

// started posts the booking's announcement in the background and records
// where it went, so the bot can update it too (when the lease lapses
// because gpuplan was killed, its sweep says the booking expired).
func (s *execSlack) started(r *commands.Reply) {
	if s == nil {
		return
	}
	s.done = make(chan struct{})
	go func() {
		defer close(s.done)
		ctx, cancel := context.WithTimeout(context.Background(), execPostTimeout)
		defer cancel()
		at, err := s.a.Announce(ctx, r)
		if err != nil {
			fmt.Fprintf(s.stderr, "gpuplan exec: warning: the booking was not announced in Slack (%v); the job goes on\n", err)
			return
		}
		s.at = at
		if r.Announces != "" {
			if err := s.st.SetAnnouncement(ctx, r.Announces, at.Channel, at.TS); err != nil {
				fmt.Fprintf(s.stderr, "gpuplan exec: warning: could not record the announcement of %s (%s)\n", r.Announces, userWords(err))
			}
		}
	}()
}

// ended posts the job's end: as a follow-up of its announcement, or on
// its own when the announcement did not go out.
func (s *execSlack) ended(r *commands.Reply) {
	if s == nil {
		return
	}
	if s.done != nil {
		<-s.done
	}
	ctx, cancel := context.WithTimeout(context.Background(), execPostTimeout)
	defer cancel()
	var err error
	if s.at.TS != "" {
		err = s.a.Follow(ctx, s.at, r)
	} else {
		_, err = s.a.Announce(ctx, r)
	}
	if err != nil {
		fmt.Fprintf(s.stderr, "gpuplan exec: warning: the job's end was not announced in Slack (%v)\n", err)
	}
}
