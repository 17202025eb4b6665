package commands

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/digest"
	"github.com/gpuplan/gpuplan/store"
)

func userErr(t *testing.T, err error, want string) {
	t.Helper()
	if ue := Explain(err); ue == nil || !strings.Contains(ue.Msg, want) {
		t.Errorf("error = %v, want a UserError containing %q", err, want)
	}
}

func TestDigestSchedules(t *testing.T) {
	s, _ := newReservations(t)
	ctx := context.Background()
	run := func(user, text string) (*Reply, error) {
		return s.Dispatch(ctx, Request{User: user, Channel: "C0HERE", Text: text})
	}
	for _, tc := range []struct {
		text, channel, spec, tz, period string
	}{
		{"digest <#C0TEAM|gpu-team> daily 09:00", "C0TEAM", "0 9 * * *", "Asia/Seoul", "day"},
		{"digest daily 9:30 Europe/Berlin", "C0HERE", "30 9 * * *", "Europe/Berlin", "day"},
		{"digest #C0TEAM weekly Mon 09:00", "C0TEAM", "0 9 * * 1", "Asia/Seoul", "week"},
		{"digest every day 18:05 UTC", "C0HERE", "5 18 * * *", "UTC", "day"},
	} {
		r, err := run("U0ADMIN", tc.text)
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		sub := r.Data.(store.Subscription)
		if sub.Channel != tc.channel || sub.Spec != tc.spec || sub.TZ != tc.tz || sub.Period != tc.period || sub.By != "U0ADMIN" || !r.InChannel {
			t.Errorf("%q: %+v", tc.text, sub)
		}
	}
	// A digest scheduled in Korean is written in Korean when it posts: the
	// subscription keeps the language of whoever set it.
	kr, err := run("U0ADMIN", "digest #C0KO 매일 09:00")
	if err != nil {
		t.Fatal(err)
	}
	if sub := kr.Data.(store.Subscription); sub.Lang != "ko" {
		t.Errorf("a Korean schedule keeps lang %q, want ko", sub.Lang)
	}
	if _, err := run("U0ADMIN", "digest #C0KO off"); err != nil {
		t.Fatal(err)
	}
	subs, _ := s.deps.Watch.Subscriptions(ctx)
	if len(subs) != 2 { // C0TEAM and C0HERE, each replaced
		t.Fatalf("%d subscriptions, want 2", len(subs))
	}
	r, err := run("U0001", "digest list")
	if err != nil || !strings.Contains(r.Summary, "2 channel(s)") {
		t.Fatalf("list: %v %+v", err, r)
	}

	_, err = run("U0001", "digest daily 09:00")
	userErr(t, err, "only admins may schedule a digest")
	_, err = run("U0001", "digest off")
	userErr(t, err, "only admins may stop a digest")
	_, err = run("U0ADMIN", "digest daily 25:00")
	userErr(t, err, "`25:00` is not a time of day")
	_, err = run("U0ADMIN", "digest weekly someday 09:00")
	userErr(t, err, "`someday` is not a day of the week")
	_, err = run("U0ADMIN", "digest daily 09:00 Mars/Olympus")
	userErr(t, err, "`Mars/Olympus` is not a time zone")
	_, err = run("U0ADMIN", "digest #gpu-team daily 09:00")
	userErr(t, err, "`#gpu-team` is not a channel I can use")
	_, err = run("U0ADMIN", "digest hourly")
	userErr(t, err, "I did not understand `hourly`")
	_, err = run("U0ADMIN", `digest cron "0 9 * * 1-5"`)
	userErr(t, err, "cron specs need the scheduler")

	// With a scheduler: specs are checked by it, and too frequent ones refused.
	s.deps.Schedule = func(spec string, loc *time.Location) (func(time.Time) time.Time, error) {
		switch spec {
		case "*/10 * * * *":
			return func(t time.Time) time.Time { return t.Add(10 * time.Minute) }, nil
		case "0 9 * * 1-5", "0 9 * * 5":
			return func(t time.Time) time.Time { return t.Add(24 * time.Hour) }, nil
		}
		return nil, errors.New("bad field")
	}
	r, err = run("U0ADMIN", `digest cron “0 9 * * 1-5”`)
	if err != nil || r.Data.(store.Subscription).Period != "day" {
		t.Fatalf("cron: %v", err)
	}
	r, err = run("U0ADMIN", `digest cron "0 9 * * 5"`)
	if err != nil || r.Data.(store.Subscription).Period != "week" {
		t.Fatalf("cron on one weekday covers a week: %v", err)
	}
	_, err = run("U0ADMIN", `digest cron "*/10 * * * *"`)
	userErr(t, err, "fires more than once an hour")
	_, err = run("U0ADMIN", `digest cron "0 9 * *"`)
	userErr(t, err, "has 4 fields, not 5")
	_, err = run("U0ADMIN", `digest cron "0 99 * * *"`)
	userErr(t, err, "is not valid")
	_, err = run("U0ADMIN", `digest cron 0 9 * * *`)
	userErr(t, err, "must be in double quotes")

	// off, then off again.
	if _, err := run("U0ADMIN", "digest off"); err != nil {
		t.Fatal(err)
	}
	_, err = run("U0ADMIN", "digest off")
	userErr(t, err, "has no digest")

	// A preview is private and has the chart.
	r, err = run("U0001", "digest now week server-h")
	if err != nil || r.InChannel || len(r.Files) != 1 || len(r.Data.(*digest.Report).Servers) != 1 {
		t.Fatalf("preview: %v %+v", err, r)
	}
}
