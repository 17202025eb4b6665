package lang

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"2h":          2 * time.Hour,
		"90m":         90 * time.Minute,
		"1d12h":       36 * time.Hour,
		"1.5h":        90 * time.Minute,
		"2d":          48 * time.Hour,
		"1w":          7 * 24 * time.Hour,
		"1h30m":       90 * time.Minute,
		"1h30":        90 * time.Minute,
		"45min":       45 * time.Minute,
		"2 hours":     2 * time.Hour,
		"3 days":      72 * time.Hour,
		"1 day 12 hr": 36 * time.Hour,
		"2H":          2 * time.Hour,
		"0.5d":        12 * time.Hour,
		"1wk2d":       9 * 24 * time.Hour,
	} {
		got, err := ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"":       "missing",
		"2":      "`2` needs a unit",
		"abc":    "`abc` is not a duration",
		"2x":     "unit `x`",
		"2hurs":  "did you mean `hours`",
		"30s":    "minutes and up",
		"-1h":    "positive",
		"0h":     "longer than zero",
		"1.2.3h": "`1.2.3h` is not a duration",
		"h2":     "`h2` is not a duration",
		"1d12":   "`1d12` is not a duration",
		"99999w": "longer than anyone",
	} {
		_, err := ParseDuration(in)
		var ue *UserError
		if !errors.As(err, &ue) {
			t.Errorf("ParseDuration(%q): err = %v, want a *UserError", in, err)
			continue
		}
		if !strings.Contains(ue.Msg, want) || !strings.Contains(ue.Hint, "4h") {
			t.Errorf("ParseDuration(%q): %q / %q; want it to contain %q and an example", in, ue.Msg, ue.Hint, want)
		}
	}
}

// windowCase is one ParseWindow call: words typed at now, the start and
// end wanted (as wall clock in the zone; "" = zero) and the words left.
type windowCase struct {
	words string
	start string
	end   string
	rest  string
}

const wall = "2006-01-02 15:04"

func checkWindows(t *testing.T, loc *time.Location, now time.Time, cases []windowCase) {
	t.Helper()
	for _, c := range cases {
		w, rest, err := ParseWindow(strings.Fields(c.words), now, loc)
		if err != nil {
			t.Errorf("%s | %q: %v", now.Format("Mon "+wall+" MST"), c.words, err)
			continue
		}
		if got := fmtWall(w.Start, loc); got != c.start {
			t.Errorf("%s | %q: start %q, want %q", now.Format("Mon "+wall+" MST"), c.words, got, c.start)
		}
		if got := fmtWall(w.End, loc); got != c.end {
			t.Errorf("%s | %q: end %q, want %q", now.Format("Mon "+wall+" MST"), c.words, got, c.end)
		}
		if got := strings.Join(rest, " "); got != c.rest {
			t.Errorf("%s | %q: rest %q, want %q", now.Format("Mon "+wall+" MST"), c.words, got, c.rest)
		}
	}
}

func fmtWall(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return ""
	}
	if t.Location() != loc {
		return "wrong zone: " + t.String()
	}
	return t.Format(wall)
}

func TestParseWindowSeoul(t *testing.T) {
	seoul := mustZone(t, "Asia/Seoul")
	// Monday 2026-11-23 10:00 KST.
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, seoul)
	checkWindows(t, seoul, now, seoulCases)
}

var seoulCases = []windowCase{
	{"", "", "", ""},
	{"for 2h", "", "2026-11-23 12:00", ""},
	{"for 1d12h", "", "2026-11-24 22:00", ""},
	{"for 90m", "", "2026-11-23 11:30", ""},
	{"for 2 hours", "", "2026-11-23 12:00", ""},
	{"for 1 day and 12 hours", "", "2026-11-24 22:00", ""},
	{"for an hour", "", "2026-11-23 11:00", ""},
	{"for half an hour", "", "2026-11-23 10:30", ""},
	{"for 2h 30m", "", "2026-11-23 12:30", ""},
	{"4h", "", "2026-11-23 14:00", ""},
	{"from tomorrow 9:00 for 4h", "2026-11-24 09:00", "2026-11-24 13:00", ""},
	{"from tomorrow at 9 for 4h", "2026-11-24 09:00", "2026-11-24 13:00", ""},
	{"from 9am tomorrow for 4h", "2026-11-24 09:00", "2026-11-24 13:00", ""},
	{"tomorrow 9:00 for 4h", "2026-11-24 09:00", "2026-11-24 13:00", ""},
	{"until fri 18:00", "", "2026-11-27 18:00", ""},
	{"until Friday 6pm", "", "2026-11-27 18:00", ""},
	{"from 14:00 until 18:00", "2026-11-23 14:00", "2026-11-23 18:00", ""},
	{"from 14:00 to 18:00", "2026-11-23 14:00", "2026-11-23 18:00", ""},
	{"from 2pm - 6pm", "2026-11-23 14:00", "2026-11-23 18:00", ""},
	{"from 2 pm until 6 pm", "2026-11-23 14:00", "2026-11-23 18:00", ""},
	{"from 2026-11-24 09:00 for 3h", "2026-11-24 09:00", "2026-11-24 12:00", ""},
	{"from 2026-11-24T09:30 for 3h", "2026-11-24 09:30", "2026-11-24 12:30", ""},
	{"until tomorrow", "", "2026-11-24 18:00", ""},
	{"from tomorrow until wed", "2026-11-24 09:00", "2026-11-25 18:00", ""},
	{"from mon 9am for 8h", "2026-11-30 09:00", "2026-11-30 17:00", ""},  // Monday 9:00 has passed: next Monday
	{"from mon 11am for 1h", "2026-11-23 11:00", "2026-11-23 12:00", ""}, // still ahead today
	{"from 9:00 for 1h", "2026-11-24 09:00", "2026-11-24 10:00", ""},     // a bare time that has passed is tomorrow's
	{"from 22:00 until 2:00", "2026-11-23 22:00", "2026-11-24 02:00", ""},
	{"until midnight", "", "2026-11-24 00:00", ""},
	{"until fri midnight", "", "2026-11-28 00:00", ""},
	{"from noon for 1h", "2026-11-23 12:00", "2026-11-23 13:00", ""},
	{"from now for 1h", "", "2026-11-23 11:00", ""},
	{"from today for 1h", "", "2026-11-23 11:00", ""},
	{"from today 15:00 for 1h", "2026-11-23 15:00", "2026-11-23 16:00", ""},
	{"until today", "", "2026-11-23 18:00", ""},
	{"from nov 30 for 2h", "2026-11-30 09:00", "2026-11-30 11:00", ""},
	{"from 1 dec 10:00 until dec 2nd", "2026-12-01 10:00", "2026-12-02 18:00", ""},
	{"from jan 5 for 1h", "2027-01-05 09:00", "2027-01-05 10:00", ""}, // no year: the next Jan 5
	{"from tomorrow", "2026-11-24 09:00", "", ""},                     // no end: the caller decides
	{"2 on server-h for 4h bert run", "", "2026-11-23 14:00", "2 on server-h bert run"},
	{"for 4h for the bert run", "", "2026-11-23 14:00", "for the bert run"},
	{"for 4h at the lab", "", "2026-11-23 14:00", "at the lab"},
	{"from tomorrow for 4h, data from the lab", "2026-11-24 09:00", "2026-11-24 13:00", "data from the lab"},
	{"for 4h to train bert", "", "2026-11-23 14:00", "to train bert"},
	{"FROM Tomorrow 9:00 FOR 4H", "2026-11-24 09:00", "2026-11-24 13:00", ""},
	{"until fri, please", "", "2026-11-27 18:00", "please"},
}

func TestParseWindowStartGrace(t *testing.T) {
	seoul := mustZone(t, "Asia/Seoul")
	now := time.Date(2026, 11, 23, 9, 0, 40, 0, seoul)
	// 40 s past 9:00 is within the minute of grace: today, not tomorrow.
	checkWindows(t, seoul, now, []windowCase{
		{"from 9:00 for 1h", "2026-11-23 09:00", "2026-11-23 10:00", ""},
		{"from today 9:00 for 1h", "2026-11-23 09:00", "2026-11-23 10:00", ""},
		{"from mon 9:00 for 1h", "2026-11-23 09:00", "2026-11-23 10:00", ""},
	})
	late := time.Date(2026, 11, 23, 9, 1, 1, 0, seoul)
	// 61 s late is past the grace: booked from now to the end said, marked late
	if w, _, err := ParseWindow(strings.Fields("from today 9:00 for 1h"), late, seoul); err != nil || !w.Start.IsZero() || w.Late.IsZero() || !w.End.Equal(time.Date(2026, 11, 23, 10, 0, 0, 0, seoul)) {
		t.Errorf("61 s late: %+v, %v, want from now until 10:00", w, err)
	}
	// an hour late is no slip of typing
	if _, _, err := ParseWindow(strings.Fields("from today 8:00 for 3h"), late, seoul); err == nil || !strings.Contains(err.Error(), "in the past") {
		t.Errorf("61 min late: err = %v, want 'in the past'", err)
	}
}

// TestParseWindowWeekdays covers the weekday wrap-around and "until fri
// 18:00" typed on a Friday before and after 18:00.
func TestParseWindowWeekdays(t *testing.T) {
	seoul := mustZone(t, "Asia/Seoul")
	friBefore := time.Date(2026, 11, 27, 17, 0, 0, 0, seoul) // Friday
	checkWindows(t, seoul, friBefore, []windowCase{
		{"until fri 18:00", "", "2026-11-27 18:00", ""},
		{"until fri", "", "2026-11-27 18:00", ""},
		{"until friday 5:30pm", "", "2026-11-27 17:30", ""},
		{"until fri 17:00", "", "2026-12-04 17:00", ""}, // exactly now is not after the start
	})
	friAfter := time.Date(2026, 11, 27, 19, 0, 0, 0, seoul)
	checkWindows(t, seoul, friAfter, []windowCase{
		{"until fri 18:00", "", "2026-12-04 18:00", ""},
		{"until fri", "", "2026-12-04 18:00", ""},
		{"until sat", "", "2026-11-28 18:00", ""},
		{"from fri 20:00 for 2h", "2026-11-27 20:00", "2026-11-27 22:00", ""},
	})
	sat := time.Date(2026, 11, 28, 10, 0, 0, 0, seoul) // Saturday
	checkWindows(t, seoul, sat, []windowCase{
		{"from mon 9am for 8h", "2026-11-30 09:00", "2026-11-30 17:00", ""},
		{"from fri for 1h", "2026-12-04 09:00", "2026-12-04 10:00", ""},
		{"until sun", "", "2026-11-29 18:00", ""},
		{"from sat 9:00 for 1h", "2026-12-05 09:00", "2026-12-05 10:00", ""}, // 9:00 passed: next Saturday
		{"from sat 11:00 for 1h", "2026-11-28 11:00", "2026-11-28 12:00", ""},
		{"from sun 22:00 until mon 2:00", "2026-11-29 22:00", "2026-11-30 02:00", ""},
		// an end weekday counts from the start, not from now
		{"from tue until mon", "2026-12-01 09:00", "2026-12-07 18:00", ""},
		{"from 2026-12-20 until fri", "2026-12-20 09:00", "2026-12-25 18:00", ""},
	})
	sun := time.Date(2026, 11, 29, 23, 30, 0, 0, seoul) // Sunday night: the week wraps
	checkWindows(t, seoul, sun, []windowCase{
		{"from mon 9am for 8h", "2026-11-30 09:00", "2026-11-30 17:00", ""},
		{"until sun", "", "2026-12-06 18:00", ""},
		{"from tomorrow until sat", "2026-11-30 09:00", "2026-12-05 18:00", ""},
	})
}

// TestParseWindowDST: wall-clock points stay on the wall clock across a DST
// change; durations are real hours.
func TestParseWindowDST(t *testing.T) {
	berlin := mustZone(t, "Europe/Berlin")
	ny := mustZone(t, "America/New_York")
	type dstCase struct {
		loc      *time.Location
		now      time.Time
		words    string
		startUTC string // "" = now
		endUTC   string
		hours    float64 // End - start in real hours
	}
	cases := []dstCase{
		// Berlin springs forward on Sunday 2026-03-29, 02:00 CET → 03:00 CEST.
		{berlin, time.Date(2026, 3, 28, 12, 0, 0, 0, berlin), "from tomorrow 9:00 for 4h", "2026-03-29 07:00", "2026-03-29 11:00", 4},
		{berlin, time.Date(2026, 3, 28, 12, 0, 0, 0, berlin), "for 24h", "", "2026-03-29 11:00", 24}, // 13:00 CEST on the wall
		{berlin, time.Date(2026, 3, 28, 12, 0, 0, 0, berlin), "for 1d", "", "2026-03-29 11:00", 24},
		{berlin, time.Date(2026, 3, 28, 12, 0, 0, 0, berlin), "until tomorrow 12:00", "", "2026-03-29 10:00", 23},
		{berlin, time.Date(2026, 3, 28, 12, 0, 0, 0, berlin), "until sun", "", "2026-03-29 16:00", 29},
		{berlin, time.Date(2026, 3, 28, 23, 0, 0, 0, berlin), "from 1:00 until 4:00", "2026-03-29 00:00", "2026-03-29 02:00", 2},
		// Berlin falls back on Sunday 2026-10-25, 03:00 CEST → 02:00 CET.
		{berlin, time.Date(2026, 10, 24, 12, 0, 0, 0, berlin), "from tomorrow 9:00 for 4h", "2026-10-25 08:00", "2026-10-25 12:00", 4},
		{berlin, time.Date(2026, 10, 24, 12, 0, 0, 0, berlin), "for 24h", "", "2026-10-25 10:00", 24}, // 11:00 CET on the wall
		{berlin, time.Date(2026, 10, 24, 12, 0, 0, 0, berlin), "until tomorrow 12:00", "", "2026-10-25 11:00", 25},
		{berlin, time.Date(2026, 10, 24, 23, 0, 0, 0, berlin), "from 1:00 until 4:00", "2026-10-24 23:00", "2026-10-25 03:00", 4},
		// New York springs forward on Sunday 2026-03-08, 02:00 EST → 03:00 EDT.
		{ny, time.Date(2026, 3, 7, 20, 0, 0, 0, ny), "from tomorrow 9:00 for 4h", "2026-03-08 13:00", "2026-03-08 17:00", 4},
		{ny, time.Date(2026, 3, 7, 20, 0, 0, 0, ny), "for 24h", "", "2026-03-09 01:00", 24}, // 21:00 EDT on the wall
		{ny, time.Date(2026, 3, 7, 20, 0, 0, 0, ny), "until sun 18:00", "", "2026-03-08 22:00", 21},
		{ny, time.Date(2026, 3, 7, 20, 0, 0, 0, ny), "from mon 9am for 8h", "2026-03-09 13:00", "2026-03-09 21:00", 8},
		// New York falls back on Sunday 2026-11-01, 02:00 EDT → 01:00 EST.
		{ny, time.Date(2026, 10, 31, 20, 0, 0, 0, ny), "from tomorrow 9:00 for 4h", "2026-11-01 14:00", "2026-11-01 18:00", 4},
		{ny, time.Date(2026, 10, 31, 20, 0, 0, 0, ny), "for 24h", "", "2026-11-02 00:00", 24}, // 19:00 EST on the wall
		{ny, time.Date(2026, 10, 31, 20, 0, 0, 0, ny), "until sun 18:00", "", "2026-11-01 23:00", 23},
		{ny, time.Date(2026, 10, 31, 20, 0, 0, 0, ny), "until midnight", "", "2026-11-01 04:00", 4},
	}
	for _, c := range cases {
		w, _, err := ParseWindow(strings.Fields(c.words), c.now, c.loc)
		if err != nil {
			t.Errorf("%s %q: %v", c.now, c.words, err)
			continue
		}
		start := c.now
		got := ""
		if !w.Start.IsZero() {
			start = w.Start
			got = w.Start.UTC().Format(wall)
		}
		if got != c.startUTC {
			t.Errorf("%s %q: start %s UTC, want %q", c.now, c.words, got, c.startUTC)
		}
		if e := w.End.UTC().Format(wall); e != c.endUTC {
			t.Errorf("%s %q: end %s UTC (%s local), want %s UTC", c.now, c.words, e, w.End, c.endUTC)
		}
		if h := w.End.Sub(start).Hours(); h != c.hours {
			t.Errorf("%s %q: %v real hours, want %v", c.now, c.words, h, c.hours)
		}
	}
	// "tomorrow 9:00" is 09:00 on the local wall clock on both sides of every change.
	for _, c := range []struct {
		loc *time.Location
		now time.Time
	}{
		{berlin, time.Date(2026, 3, 28, 12, 0, 0, 0, berlin)},
		{berlin, time.Date(2026, 10, 24, 12, 0, 0, 0, berlin)},
		{ny, time.Date(2026, 3, 7, 20, 0, 0, 0, ny)},
		{ny, time.Date(2026, 10, 31, 20, 0, 0, 0, ny)},
	} {
		w, _, err := ParseWindow([]string{"from", "tomorrow", "9:00"}, c.now, c.loc)
		if err != nil {
			t.Fatal(err)
		}
		if got := w.Start.Format("15:04"); got != "09:00" {
			t.Errorf("%s: tomorrow 9:00 = %s on the wall", c.now, w.Start)
		}
	}
	// A time in the spring-forward gap still yields a valid window.
	w, _, err := ParseWindow(strings.Fields("from 2:30 for 1h"), time.Date(2026, 3, 29, 0, 30, 0, 0, berlin), berlin)
	if err != nil || w.End.Sub(w.Start) != time.Hour || w.Start.Before(time.Date(2026, 3, 29, 0, 30, 0, 0, berlin)) {
		t.Errorf("from 2:30 in the gap: %v %v", w, err)
	}
}

func TestParseWindowNilZoneAndForeignNow(t *testing.T) {
	// now in another zone is read in loc; a nil loc is UTC.
	seoul := mustZone(t, "Asia/Seoul")
	now := time.Date(2026, 11, 23, 1, 0, 0, 0, time.UTC) // 10:00 KST
	checkWindows(t, seoul, now, []windowCase{{"until 18:00", "", "2026-11-23 18:00", ""}})
	w, _, err := ParseWindow([]string{"until", "18:00"}, now, nil)
	if err != nil || w.End != time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC) {
		t.Errorf("nil loc: %v %v", w, err)
	}
}

func TestParseWindowErrors(t *testing.T) {
	seoul := mustZone(t, "Asia/Seoul")
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, seoul) // Monday
	for in, want := range map[string]string{
		"for banana":                   "`banana` is not a duration",
		"for":                          "`for` needs a duration",
		"for 4":                        "`4` needs a unit",
		"for 4x":                       "`4x` is not a duration",
		"for 0h":                       "longer than zero",
		"from tomorow 9:00 for 4h":     "did you mean `tomorrow`",
		"until fryday":                 "did you mean `friday`",
		"from next fri":                "just name the day",
		"from":                         "`from` needs a day or time",
		"until":                        "`until` needs a day or time",
		"from 25:00 for 1h":            "`25:00` is not a time",
		"from 9:75 for 1h":             "`9:75` is not a time",
		"from 13pm for 1h":             "`13pm` is not a time",
		"from 2026-02-30 for 1h":       "`2026-02-30` is not a date",
		"from feb 30 for 1h":           "`feb 30` is not a date",
		"from today 8:00 for 1h":       "is in the past",
		"from 2026-11-20 09:00 for 1h": "is in the past",
		"from 2030-01-01 for 1h":       "more than a year ahead",
		"from tomorrow 18:00 until tomorrow 9:00":  "is not after the start",
		"until today 9:00":                         "is not after the start",
		"until now":                                "is not after the start",
		"for 4h until fri":                         "not both",
		"until fri for 4h":                         "not both",
		"4h for 2h":                                "given twice",
		"from tomorrow from fri":                   "start is given twice",
		"until fri until sat":                      "end is given twice",
		"from 9:00 now":                            "do not go together",
		"from tomorrow 9:00 until tomorrow 9:00":   "is not after the start",
		"reserve 2 on server-h from yesterday 9am": "not a day or time",
	} {
		_, _, err := ParseWindow(strings.Fields(in), now, seoul)
		var ue *UserError
		if !errors.As(err, &ue) {
			t.Errorf("%q: err = %v, want a *UserError", in, err)
			continue
		}
		if !strings.Contains(ue.Msg, want) {
			t.Errorf("%q: %q, want it to contain %q", in, ue.Msg, want)
		}
		if !strings.Contains(ue.Hint, "e.g.") && !strings.Contains(ue.Hint, "try:") {
			t.Errorf("%q: hint %q has no example", in, ue.Hint)
		}
	}
}

// TestParseWindowNamesTheWord: a nonsense word in a clause is quoted back.
func TestParseWindowNamesTheWord(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	_, _, err := ParseWindow(strings.Fields("from blorp for 4h"), now, time.UTC)
	if err == nil || !strings.Contains(err.Error(), "`blorp`") || !strings.Contains(err.Error(), "reserve 2 on server-h from tomorrow 9:00 for 4h") {
		t.Errorf("err = %v", err)
	}
}

func FuzzParseWindow(f *testing.F) {
	for _, c := range seoulCases {
		f.Add(c.words)
	}
	f.Add("from 24:00 until midnight")
	f.Add("for 99999999999999h")
	f.Add("from feb 29 for 1h")
	seoul, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		f.Fatal(err)
	}
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, seoul)
	f.Fuzz(func(t *testing.T, s string) {
		w, rest, err := ParseWindow(strings.Fields(s), now, seoul)
		if err != nil {
			var ue *UserError
			if !errors.As(err, &ue) {
				t.Fatalf("%q: %T %v", s, err, err)
			}
			return
		}
		start := now
		if !w.Start.IsZero() {
			start = w.Start
			if w.Start.Before(now.Add(-time.Minute)) {
				t.Fatalf("%q: start %v is in the past", s, w.Start)
			}
		}
		if !w.End.IsZero() && !w.End.After(start) {
			t.Fatalf("%q: end %v not after start %v", s, w.End, start)
		}
		if len(rest) > len(strings.Fields(s)) {
			t.Fatalf("%q: more words left than given", s)
		}
	})
}

// The hand scanners read exactly the shapes the regular expressions they
// replaced read.
func TestWhenScanners(t *testing.T) {
	clock := regexp.MustCompile(`^(\d{1,2})(?::(\d{2}))?(am|pm|a\.m\.|p\.m\.)?$`)
	iso := regexp.MustCompile(`^(\d{4})-(\d{1,2})-(\d{1,2})(?:t(\d{1,2}:\d{2}))?$`)
	mday := regexp.MustCompile(`^(\d{1,2})(?:st|nd|rd|th)?$`)
	words := []string{"9", "09", "9:30", "18:00", "6pm", "9:30a.m.", "9:3", "123", "9:300", "pm", "", "9am ", "2026-11-24",
		"2026-11-24t09:00", "2026-1-4", "2026-11-24t9:00", "2026-11-24t09:0", "2026-11-24x", "26-11-24", "24", "24th", "1st",
		"3rd", "24x", "2nd2", "a9", "12:00pm", "0:00", "99:99", "2026-11-24t09:00:00"}
	for _, w := range words {
		if got, want := whenClockMatch(w), clock.FindStringSubmatch(w); !slices.Equal(got, want) {
			t.Errorf("clock %q: %q, want %q", w, got, want)
		}
		if got, want := whenISODateMatch(w), iso.FindStringSubmatch(w); !slices.Equal(got, want) {
			t.Errorf("iso %q: %q, want %q", w, got, want)
		}
		if got, want := whenMdayMatch(w), mday.FindStringSubmatch(w); !slices.Equal(got, want) {
			t.Errorf("mday %q: %q, want %q", w, got, want)
		}
	}
}
