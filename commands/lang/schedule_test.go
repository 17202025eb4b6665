package lang

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseDigest(t *testing.T) {
	seoul, _ := time.LoadLocation("Asia/Seoul")
	for _, tc := range []struct {
		args    string
		channel string
		action  string
		sched   Schedule
		period  string
		servers []string
	}{
		{"", "", DigestList, Schedule{}, "", nil},
		{"list", "", DigestList, Schedule{}, "", nil},
		{"<#C0TEAM|gpu-team> daily 09:00", "C0TEAM", DigestSchedule, Schedule{Spec: "0 9 * * *", Label: "daily 09:00", Period: "day", TZ: "Asia/Seoul"}, "", nil},
		{"daily 9:30 Europe/Berlin", "", DigestSchedule, Schedule{Spec: "30 9 * * *", Label: "daily 09:30", Period: "day", TZ: "Europe/Berlin"}, "", nil},
		{"#C0TEAM weekly Mon 09:00", "C0TEAM", DigestSchedule, Schedule{Spec: "0 9 * * 1", Label: "weekly Mon 09:00", Period: "week", TZ: "Asia/Seoul"}, "", nil},
		{"every day 6pm UTC", "", DigestSchedule, Schedule{Spec: "0 18 * * *", Label: "daily 18:00", Period: "day", TZ: "UTC"}, "", nil},
		{`cron “0 9 * * 1-5”`, "", DigestSchedule, Schedule{Spec: "0 9 * * 1-5", Label: "cron 0 9 * * 1-5", Period: "day", TZ: "Asia/Seoul", Cron: true}, "", nil},
		{`cron "0 9 * * 5"`, "", DigestSchedule, Schedule{Spec: "0 9 * * 5", Label: "cron 0 9 * * 5", Period: "week", TZ: "Asia/Seoul", Cron: true}, "", nil},
		{`cron "0 9 1 * *" weekly UTC`, "", DigestSchedule, Schedule{Spec: "0 9 1 * *", Label: "cron 0 9 1 * *", Period: "week", TZ: "UTC", Cron: true}, "", nil},
		{"<#C0TEAM> off", "C0TEAM", DigestOff, Schedule{}, "", nil},
		{"stop", "", DigestOff, Schedule{}, "", nil},
		{"now week server-h a", "", DigestPreview, Schedule{}, "week", []string{"server-h", "a"}},
		{"preview", "", DigestPreview, Schedule{}, "day", nil},
	} {
		a, err := ParseDigest(tc.args, seoul)
		if err != nil {
			t.Errorf("digest %q: %v", tc.args, err)
			continue
		}
		if a.Channel != tc.channel || a.Action != tc.action || a.Schedule != tc.sched || a.Period != tc.period || !slices.Equal(a.Servers, tc.servers) {
			t.Errorf("digest %q: %+v", tc.args, a)
		}
	}
	for _, tc := range []struct{ args, action, msg string }{
		{"#gpu-team daily 09:00", "", "`#gpu-team` is not a channel I can use"},
		{"hourly", "", "I did not understand `hourly`"},
		{"daily 25:00", DigestSchedule, "`25:00` is not a time of day"},
		{"daily", DigestSchedule, "needs a time"},
		{"every week 09:00", DigestSchedule, "`every` needs `day`"},
		{"weekly someday 09:00", DigestSchedule, "`someday` is not a day of the week"},
		{"weekly mon", DigestSchedule, "needs a day and a time"},
		{"daily 09:00 Mars/Olympus", DigestSchedule, "`Mars/Olympus` is not a time zone"},
		{"daily 09:00 Local", DigestSchedule, "`Local` is not a time zone"},
		{`cron 0 9 * * *`, DigestSchedule, "must be in double quotes"},
		{`cron "0 9 * *"`, DigestSchedule, "has 4 fields, not 5"},
	} {
		a, err := ParseDigest(tc.args, seoul)
		if err == nil || a.Action != tc.action || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("digest %q: %+v %v, want %q with action %q", tc.args, a, err, tc.msg, tc.action)
		}
	}
}

func TestChannelID(t *testing.T) {
	for w, want := range map[string]string{"<#C0TEAM|gpu-team>": "C0TEAM", "<#G12>": "G12", "C0TEAM": "C0TEAM", "#GAB1": "GAB1"} {
		if got, ok := ChannelID(w); !ok || got != want {
			t.Errorf("%q: %q %v", w, got, ok)
		}
	}
	for _, w := range []string{"#gpu-team", "<#c0team>", "C1", "#X0TEAM", "<#C0TE-AM|x>", "", "daily"} {
		if got, ok := ChannelID(w); ok {
			t.Errorf("%q read as channel %q", w, got)
		}
	}
}
