package schedule

import (
	"testing"
	"time"
)

func mustLoc(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// slotsBetween lists the instants a schedule fires in [from, to), the way
// robfig's runner walks it: Next from the last firing.
func slotsBetween(t *testing.T, spec string, loc *time.Location, from, to time.Time) []time.Time {
	t.Helper()
	w, err := Parse(spec, loc)
	if err != nil {
		t.Fatal(err)
	}
	var out []time.Time
	for cur := from; ; {
		n := w.Next(cur)
		if n.IsZero() || !n.Before(to) {
			return out
		}
		out = append(out, n)
		cur = n
	}
}

// A daily slot fires once on every day of a DST change, including the
// spring-forward day where 02:30 does not exist (robfig alone skips it)
// and the fall-back day where 01:30 happens twice (robfig alone fires
// twice).
func TestWallScheduleDST(t *testing.T) {
	ny := mustLoc(t, "America/New_York")
	berlin := mustLoc(t, "Europe/Berlin")
	for _, tc := range []struct {
		name, spec string
		loc        *time.Location
		day        time.Time // local midnight of the DST day
		want       string    // the slot's instant on that day, in loc
	}{
		{"NY spring gap", "30 2 * * *", ny, time.Date(2026, 3, 8, 0, 0, 0, 0, ny), "2026-03-08 03:30 EDT"},
		{"NY fall overlap", "30 1 * * *", ny, time.Date(2026, 11, 1, 0, 0, 0, 0, ny), "2026-11-01 01:30 EDT"},
		{"NY fall 09:00", "0 9 * * *", ny, time.Date(2026, 11, 1, 0, 0, 0, 0, ny), "2026-11-01 09:00 EST"},
		{"Berlin spring gap", "30 2 * * *", berlin, time.Date(2026, 3, 29, 0, 0, 0, 0, berlin), "2026-03-29 03:30 CEST"},
		{"Berlin fall overlap", "30 2 * * *", berlin, time.Date(2026, 10, 25, 0, 0, 0, 0, berlin), "2026-10-25 02:30 CEST"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := slotsBetween(t, tc.spec, tc.loc, tc.day, tc.day.Add(25*time.Hour))
			var today []string
			for _, g := range got {
				if g.In(tc.loc).Day() == tc.day.Day() {
					today = append(today, g.In(tc.loc).Format("2006-01-02 15:04 MST"))
				}
			}
			if len(today) != 1 || today[0] != tc.want {
				t.Fatalf("slots on the day = %v, want exactly [%s]", today, tc.want)
			}
		})
	}
}

// A year of a daily spec in a DST zone: 365 slots, one per day.
func TestWallScheduleYear(t *testing.T) {
	ny := mustLoc(t, "America/New_York")
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, ny)
	got := slotsBetween(t, "30 2 * * *", ny, from, from.AddDate(1, 0, 0))
	if len(got) != 365 {
		t.Fatalf("%d slots in 2026, want 365", len(got))
	}
	days := map[string]bool{}
	for _, g := range got {
		days[g.In(ny).Format("2006-01-02")] = true
	}
	if len(days) != 365 {
		t.Fatalf("%d distinct days, want 365", len(days))
	}
}

func TestWallLatest(t *testing.T) {
	seoul := mustLoc(t, "Asia/Seoul")
	w, err := Parse("0 9 * * 1", seoul) // Mondays 09:00
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, seoul) // a Wednesday
	wall, at, ok := w.Latest(now, 8*24*time.Hour)
	if !ok || at.In(seoul).Format("Mon 2006-01-02 15:04") != "Mon 2026-11-23 09:00" || wall.Format("2006-01-02T15:04") != "2026-11-23T09:00" {
		t.Fatalf("latest = %v %v %v", wall, at, ok)
	}
	if _, _, ok := w.Latest(now, 24*time.Hour); ok {
		t.Fatal("a lookback of a day should find no Monday slot on a Wednesday")
	}
}

func TestParseRefuses(t *testing.T) {
	for _, spec := range []string{"", "0 9 * *", "CRON_TZ=UTC 0 9 * * *", "@daily", "61 9 * * *", "0 9 * * mon-"} {
		if _, err := Parse(spec, time.UTC); err == nil {
			t.Errorf("Parse(%q) accepted", spec)
		}
	}
}
