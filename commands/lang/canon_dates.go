package lang

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Deadlines said as a date of the calendar: "by dec 15", "by the 15th",
// "by 12/15", "12월 15일까지", "다음 달 3일까지", "15일 전에". The job must be
// done by the end of that day; a date already past this year (or a day of
// the month already past) is the next one.

// calendarDay is a day of the calendar as said: month 0 when only the day
// of the month was said, months the months ahead said before it ("다음 달").
type calendarDay struct {
	month  time.Month
	mday   int
	months int
}

// until is the time from now to the end of the day d names, its next
// occurrence.
func (c *canonizer) until(d calendarDay) (time.Duration, bool) {
	now := c.now
	y, m, today := now.Date()
	at := func(y int, m time.Month) time.Time {
		return time.Date(y, m, d.mday, 23, 59, 0, 0, now.Location())
	}
	var t time.Time
	switch {
	case d.month != 0:
		if !whenValidDate(2000, d.month, d.mday) {
			return 0, false
		}
		t = at(y, d.month)
		if t.Before(now) {
			t = at(y+1, d.month)
		}
		if t.Day() != d.mday { // feb 29 in a common year: the next leap year's
			t = at(y+4-y%4, d.month)
		}
	case d.months > 0:
		mm := m + time.Month(d.months)
		t = at(y, mm)
		if t.Day() != d.mday {
			return 0, false // "다음 달 31일" in a month of 30 days
		}
	default:
		if d.mday < 1 || d.mday > 31 {
			return 0, false
		}
		mm := m
		if d.mday < today {
			mm++
		}
		for k := 0; k < 3; k++ { // "by the 31st" skips the months without one
			if t = at(y, mm+time.Month(k)); t.Day() == d.mday {
				break
			}
		}
		if t.Day() != d.mday {
			return 0, false
		}
	}
	return t.Sub(now), true
}

// englishDate reads a date at j after "by", "before" or "until": "dec 15",
// "15 dec", "december 15th", "the 15th", "15th", "12/15", "2026-12-15";
// the day and the index after the words.
func (c *canonizer) englishDate(j int) (calendarDay, int, bool) {
	w := c.w(j)
	if m := whenISODateMatch(w); m != nil && m[4] == "" {
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		return calendarDay{month: time.Month(mo), mday: d}, j + 1, true
	}
	if mo, d, ok := slashDate(w); ok {
		return calendarDay{month: mo, mday: d}, j + 1, true
	}
	if mo, ok := whenMonths[w]; ok {
		k := j + 1
		if c.w(k) == "the" {
			k++
		}
		if m := whenMdayMatch(c.w(k)); m != nil {
			d, _ := strconv.Atoi(m[1])
			return calendarDay{month: mo, mday: d}, k + 1, true
		}
		return calendarDay{}, j, false
	}
	k := j
	if w == "the" {
		k++
	}
	m := whenMdayMatch(c.w(k))
	if m == nil {
		return calendarDay{}, j, false
	}
	d, _ := strconv.Atoi(m[1])
	if c.w(k+1) == "of" {
		k++
	}
	if mo, ok := whenMonths[c.w(k+1)]; ok {
		return calendarDay{month: mo, mday: d}, k + 2, true // "15 dec", "the 15th of december"
	}
	if m[0] == m[1] && w != "the" {
		return calendarDay{}, j, false // a bare number is no date: "by 2" says nothing
	}
	if c.w(k+1) == "of" && c.w(k+2) == "next" && c.w(k+3) == "month" {
		return calendarDay{mday: d, months: 1}, k + 4, true
	}
	return calendarDay{mday: d}, k + 1, true
}

// slashDate reads "12/15" (month/day) as a date.
func slashDate(w string) (time.Month, int, bool) {
	a, b, ok := strings.Cut(w, "/")
	if !ok || len(a) == 0 || len(a) > 2 || len(b) == 0 || len(b) > 2 || !digitsOnly(a) || !digitsOnly(b) {
		return 0, 0, false
	}
	mo, _ := strconv.Atoi(a)
	d, _ := strconv.Atoi(b)
	if mo < 1 || mo > 12 || !whenValidDate(2000, time.Month(mo), d) {
		return 0, 0, false
	}
	return time.Month(mo), d, true
}

// koDateDeadline reads a date said in Korean before 까지 or 전(에): "12월
// 15일까지", "다음 달 3일까지", "이번 달 20일 전에", "15일까지", "12/15까지";
// i when none is there. "15일 안에" is fifteen days, read elsewhere.
func (c *canonizer) koDateDeadline(i int) int {
	j := i
	var d calendarDay
	switch w := c.w(j); {
	case w == "다음달" || w == "담달":
		d.months, j = 1, j+1
	case (w == "다음" || w == "담") && c.w(j+1) == "달":
		d.months, j = 1, j+2
	case w == "이번달":
		j++
	case w == "이번" && c.w(j+1) == "달":
		j += 2
	}
	if mo, dd, ok := slashDate(c.w(j)); ok {
		d.month, d.mday = mo, dd
		return c.koDateEnd(d, i, j+1, "")
	}
	if !digitsOnly(c.w(j)) {
		return i
	}
	n, _ := strconv.Atoi(c.w(j))
	if c.w(j+1) == "월" && d.months == 0 && digitsOnly(c.w(j+2)) {
		if n < 1 || n > 12 {
			return i
		}
		d.month = time.Month(n)
		j += 2
		n, _ = strconv.Atoi(c.w(j))
	}
	rest, ok := strings.CutPrefix(c.w(j+1), "일")
	if !ok {
		return i
	}
	d.mday = n
	if strings.HasPrefix(c.w(i-1), "최대") {
		return i // "최대 3일까지": up to three days
	}
	return c.koDateEnd(d, i, j+2, rest)
}

// koDateEnd finishes a Korean date whose words end before k, rest the
// particle glued to its last word: a deadline when 까지 or 전(에/까지)
// follows, the day's end or the day before.
func (c *canonizer) koDateEnd(d calendarDay, i, k int, rest string) int {
	before := false
	switch {
	case rest == "까지" || rest == "까진" || rest == "까지는":
	case rest == "" && (c.w(k) == "까지" || c.w(k) == "까진"):
		k++
	case rest == "" && (c.w(k) == "전에" || c.w(k) == "전까지" || c.w(k) == "전"):
		before, k = true, k+1
	case rest == "전에" || rest == "전까지":
		before = true
	default:
		early, ok := koTimeOfDay(c.w(k))
		if rest != "" || !ok {
			return i
		}
		left, ok := c.until(d) // "24일 오후까지": that day's afternoon
		if !ok {
			return i
		}
		c.setDeadline(left-early, i, k+1)
		return k + 1
	}
	left, ok := c.until(d)
	if !ok {
		c.skip(i, k) // "2월 30일까지": no such day
		return k
	}
	if before {
		left -= 24 * time.Hour
	}
	c.setDeadline(left, i, k)
	return k
}

// durationDeadline reads a deadline said as a length of time beside the
// word deadline: "2 day deadline", "48h deadline", "deadline 3일",
// "deadline: 2 weeks"; i when none is there.
func (c *canonizer) durationDeadline(i int) (int, bool) {
	amount := func(j int) (time.Duration, int, bool) {
		v, unit, ok := reqScanNumber(c.w(j))
		if !ok || v.v <= 0 || !reqStartsNumber(c.w(j)) {
			return 0, j, false
		}
		unit = strings.TrimPrefix(unit, "-")
		n := j + 1
		if unit == "" {
			unit, n = strings.TrimSuffix(c.w(j+1), ","), j+2
		}
		d, ok := deadlineUnit(unit)
		if !ok {
			if s, e, ok2 := koStem(unit); ok2 && s != "" && e.act == koWord {
				d, ok = deadlineUnit(e.word)
			}
		}
		if !ok {
			return 0, j, false
		}
		return durScale(v.v, d), n, true
	}
	w := c.w(i)
	if w == "deadline" || strings.HasPrefix(w, "데드라인") || strings.HasPrefix(w, "마감") {
		j := i + 1
		for c.w(j) == "is" || c.w(j) == ":" || c.w(j) == "of" {
			j++
		}
		if d, n, ok := amount(j); ok {
			c.setDeadline(d, i, n)
			return n, true
		}
		return i, false
	}
	if d, n, ok := amount(i); ok && (c.w(n) == "deadline" || c.w(n) == "deadline:") {
		c.setDeadline(d, i, n+1)
		return n + 1, true
	}
	if d, n, ok := amount(i); ok && c.w(n) == "to" && (c.w(n+1) == "finish" || c.w(n+1) == "go" || c.w(n+1) == "complete" || c.w(n+1) == "do") {
		c.setDeadline(d, i, n+2) // "2 days to finish"
		return n + 2, true
	}
	return i, false
}

// compoundDurations joins an hour and its minutes said apart ("5h 20m",
// "2 hours 30 minutes", "1h 30min") into one time in hours, so a measured
// run or a deadline reads it whole.
func (c *canonizer) compoundDurations() {
	amount := func(j int, units ...string) (float64, int, bool) {
		v, unit, ok := reqScanNumber(c.w(j))
		if !ok || v.v <= 0 || !reqStartsNumber(c.w(j)) {
			return 0, j, false
		}
		n := j + 1
		if unit == "" {
			unit, n = c.w(j+1), j+2
		}
		for _, u := range units {
			if unit == u {
				return v.v, n, true
			}
		}
		return 0, j, false
	}
	for i := 0; i < len(c.in); i++ {
		h, n, ok := amount(i, "h", "hr", "hrs", "hour", "hours")
		if !ok {
			continue
		}
		m, end, ok := amount(n, "m", "min", "mins", "minute", "minutes")
		for _, suf := range []string{"mins", "min", "m"} {
			// "5h 20m": "20m" scans as 20 million; right after hours
			// written the same way it is minutes
			if d, cut := strings.CutSuffix(c.w(n), suf); !ok && n == i+1 && cut && digitsOnly(d) && d != "" {
				m, _ = strconv.ParseFloat(d, 64)
				end, ok = n+1, true
			}
		}
		if !ok || m >= 60 {
			continue
		}
		w := strconv.FormatFloat(math.Round((h+m/60)*1000)/1000, 'f', -1, 64) + "h"
		tok := reqToken{raw: c.text[c.in[i].start:c.in[end-1].end], w: w, start: c.in[i].start, end: c.in[end-1].end}
		c.in = append(append(c.in[:i:i], tok), c.in[end:]...)
	}
}

// prepass joins, before the reading, words said apart that stand for one:
// an hour and its minutes ("5h 20m"), and a GPU's form factor said alone
// after another of its family ("h100 sxm vs pcie": the H100 PCIe).
func (c *canonizer) prepass() {
	c.cloudInstancesAt()
	c.spelledSpans()
	c.compoundDurations()
	c.oneMachine()
	c.takeBack()
	form := func(w string) bool {
		switch w {
		case "sxm", "sxm4", "sxm5", "pcie", "nvl", "sxm2":
			return true
		}
		return false
	}
	for k := 2; k+1 < len(c.in); k++ {
		if !variantWords[c.w(k)] || !form(c.w(k-1)) || !form(c.w(k+1)) || !c.gpu(c.w(k-2)) {
			continue
		}
		if name := c.w(k-2) + "-" + c.w(k+1); c.gpu(name) {
			c.in[k+1].w = name
		}
	}
}
