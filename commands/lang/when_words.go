package lang

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// The words of the time language that other readers share: durations,
// weekdays, clock times, dates and GPU id lists, each read by hand.

// durationUnits maps every unit word ParseDuration reads to its length.
var durationUnits = map[string]time.Duration{
	"m": time.Minute, "min": time.Minute, "mins": time.Minute, "minute": time.Minute, "minutes": time.Minute,
	"h": time.Hour, "hr": time.Hour, "hrs": time.Hour, "hour": time.Hour, "hours": time.Hour,
	"d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
	"w": 7 * 24 * time.Hour, "wk": 7 * 24 * time.Hour, "wks": 7 * 24 * time.Hour,
	"week": 7 * 24 * time.Hour, "weeks": 7 * 24 * time.Hour,
}

// ParseDuration reads a reservation length: one or more number+unit pairs
// ("2h", "90m", "1d12h", "1.5h", "2d", "1w", "1h30m", "2 hours"), units
// m/min, h/hr/hour, d/day, w/week (singular or plural), and "1h30" for an
// hour and a half. Days and weeks are 24 and 168 real hours, whatever the
// calendar does. The result is positive; errors are *UserError naming the
// word, with an example.
func ParseDuration(s string) (time.Duration, error) {
	raw := strings.TrimSpace(s)
	w := strings.ToLower(strings.Join(strings.Fields(raw), ""))
	if w == "" {
		return 0, said(en.T("a duration is missing"), &UserError{Hint: durationExample})
	}
	bad := func(why text) error {
		if why.key != "" {
			return said(en.Tf("`%s` is not a duration — %s", raw, why), &UserError{Hint: durationExample})
		}
		return said(en.Tf("`%s` is not a duration", raw), &UserError{Hint: durationExample})
	}
	if w[0] == '-' {
		return 0, bad(en.T("durations are positive"))
	}
	var total float64 // nanoseconds, as float so "1.5h" and overflow are easy
	lastUnit := time.Duration(0)
	for i := 0; i < len(w); {
		j := i
		dots := 0
		for j < len(w) && (whenDigit(w[j]) || w[j] == '.') {
			if w[j] == '.' {
				dots++
			}
			j++
		}
		if j == i {
			return 0, bad(text{})
		}
		num := w[i:j]
		if dots > 1 || num == "." {
			return 0, bad(text{})
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return 0, bad(text{})
		}
		k := j
		for k < len(w) && w[k] >= 'a' && w[k] <= 'z' {
			k++
		}
		unitWord := w[j:k]
		if unitWord == "" {
			// "1h30": a bare number right after hours is minutes.
			if k == len(w) && lastUnit == time.Hour && i > 0 {
				total += v * float64(time.Minute)
				break
			}
			if i == 0 && k == len(w) {
				return 0, said(en.Tf("`%s` needs a unit — `%sh` or `%sm`?", raw, num, num), &UserError{Hint: durationExample})
			}
			return 0, bad(text{})
		}
		unit, ok := durationUnits[unitWord]
		if !ok {
			msg := en.Tf("`%s` is not a duration: I don't know the unit `%s`", raw, unitWord)
			if unitWord == "s" || strings.HasPrefix(unitWord, "sec") {
				msg = en.Tf("`%s` is not a duration: I don't know the unit `%s` — reservations are counted in minutes and up", raw, unitWord)
			} else if sug := planner.Nearest(unitWord, []string{"min", "minutes", "hours", "days", "weeks"}, 1); len(sug) > 0 {
				msg = en.Tf("`%s` is not a duration: I don't know the unit `%s` — did you mean `%s`?", raw, unitWord, sug[0])
			}
			return 0, said(msg, &UserError{Hint: durationExample})
		}
		total += v * float64(unit)
		lastUnit = unit
		i = k
	}
	if total > float64(maxDurationWords) {
		return 0, bad(en.T("that is longer than anyone can reserve"))
	}
	d := time.Duration(math.Round(total/float64(time.Second))) * time.Second
	if d <= 0 {
		return 0, bad(en.T("it must be longer than zero"))
	}
	return d, nil
}

// Weekday reads a weekday name ("mon", "Friday", "금요일").
func Weekday(w string) (time.Weekday, bool) {
	d, ok := whenWeekdays[strings.ToLower(w)]
	return d, ok
}

// Clock reads a time of day: "09:00", "18:30", "9am", "6pm", "9:30pm".
// A bare number is no clock here (it could be anything).
func Clock(w string) (hour, minute int, ok bool) {
	w = strings.ToLower(w)
	ampm := ""
	if strings.HasSuffix(w, "am") || strings.HasSuffix(w, "pm") {
		ampm, w = w[len(w)-2:], w[:len(w)-2]
	}
	if ampm == "" && !strings.Contains(w, ":") {
		return 0, 0, false
	}
	mins, ok := whenClockMinutes(w, ampm)
	if !ok || mins >= 24*60 {
		return 0, 0, false
	}
	return mins / 60, mins % 60, true
}

// ParseIDs reads GPU ids: "0-3", "0,2,5" or "1". A word that is not an id,
// a backward or overlong range, or an id given twice is an error that says
// which.
func ParseIDs(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("%q is not a GPU id", part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a || b-a > 1024 {
				return nil, fmt.Errorf("%q is not a range of GPU ids", part)
			}
		}
		for i := a; i <= b; i++ {
			if slices.Contains(out, i) {
				return nil, fmt.Errorf("GPU %d is listed twice", i)
			}
			out = append(out, i)
		}
	}
	return out, nil
}

func whenValidDate(y int, m time.Month, d int) bool {
	if m < 1 || m > 12 || d < 1 || d > 31 {
		return false
	}
	t := time.Date(y, m, d, 12, 0, 0, 0, time.UTC)
	return t.Month() == m && t.Day() == d
}

// whenClockMinutes converts "9", "9:30", "18:00" with an optional am/pm to
// minutes after midnight; "24:00" is midnight at the end of the day.
func whenClockMinutes(clock, ampm string) (int, bool) {
	hs, ms, _ := strings.Cut(clock, ":")
	h, err := strconv.Atoi(hs)
	if err != nil {
		return 0, false
	}
	m := 0
	if ms != "" {
		if len(ms) != 2 {
			return 0, false
		}
		if m, err = strconv.Atoi(ms); err != nil || m > 59 {
			return 0, false
		}
	}
	switch strings.ReplaceAll(ampm, ".", "") {
	case "am":
		if h < 1 || h > 12 {
			return 0, false
		}
		if h == 12 {
			h = 0
		}
	case "pm":
		if h < 1 || h > 12 {
			return 0, false
		}
		if h != 12 {
			h += 12
		}
	default:
		if h == 24 && m == 0 {
			return 24 * 60, true
		}
		if h > 23 {
			return 0, false
		}
	}
	return h*60 + m, true
}

// digitsAt reads between lo and hi digits at s[i:] and returns them and the
// index after them.
func digitsAt(s string, i, lo, hi int) (string, int, bool) {
	j := i
	for j < len(s) && j-i < hi && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j-i < lo {
		return "", i, false
	}
	return s[i:j], j, true
}

// whenClockMatch reads h, h:mm with an optional am/pm ("9", "9:30",
// "6pm", "9:30a.m."): groups hour, minute, am/pm.
func whenClockMatch(w string) []string {
	h, i, ok := digitsAt(w, 0, 1, 2)
	if !ok {
		return nil
	}
	m := ""
	if i < len(w) && w[i] == ':' {
		if m, i, ok = digitsAt(w, i+1, 2, 2); !ok {
			return nil
		}
	}
	ampm := w[i:]
	switch ampm {
	case "", "am", "pm", "a.m.", "p.m.":
		return []string{w, h, m, ampm}
	}
	return nil
}

// whenISODateMatch reads 2026-11-24 and 2026-11-24t09:00: groups year,
// month, day, time.
func whenISODateMatch(w string) []string {
	y, i, ok := digitsAt(w, 0, 4, 4)
	if !ok || i >= len(w) || w[i] != '-' {
		return nil
	}
	mo, i, ok := digitsAt(w, i+1, 1, 2)
	if !ok || i >= len(w) || w[i] != '-' {
		return nil
	}
	d, i, ok := digitsAt(w, i+1, 1, 2)
	if !ok {
		return nil
	}
	t := ""
	if i < len(w) {
		if w[i] != 't' {
			return nil
		}
		h, j, ok := digitsAt(w, i+1, 1, 2)
		if !ok || j >= len(w) || w[j] != ':' {
			return nil
		}
		mm, k, ok := digitsAt(w, j+1, 2, 2)
		if !ok || k != len(w) {
			return nil
		}
		t = h + ":" + mm
	}
	return []string{w, y, mo, d, t}
}

// whenMdayMatch reads a day of the month, "24" or "24th": group day.
func whenMdayMatch(w string) []string {
	d, i, ok := digitsAt(w, 0, 1, 2)
	if !ok {
		return nil
	}
	switch w[i:] {
	case "", "st", "nd", "rd", "th":
		return []string{w, d}
	}
	return nil
}
