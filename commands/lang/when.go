package lang

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// whenExample is the hint every time-language error ends with.
const whenExample = "try: `reserve 2 on server-h from tomorrow 9:00 for 4h` (or `for 2h`, `until fri 18:00`, `from 14:00 until 18:00`)"

// durationExample is the hint for a word that should have been a duration.
const durationExample = "write durations like `2h`, `90m`, `1d12h`, `1.5h` or `1w` — e.g. `reserve 2 on server-h for 4h`"

// pastGrace is how far in the past a typed start may lie: "from 9:00"
// typed at 9:00:40 still means now-ish, not an error.
const pastGrace = time.Minute

// lateGrace is how far a start may have passed and still book from now,
// when the end said is at least that far ahead: the person was typing,
// not asking for time gone.
const lateGrace = 30 * time.Minute

// maxAhead is how far ahead a reservation may start; a start further out
// is almost always a typo in the year.
const maxAhead = 366 * 24 * time.Hour

// maxDurationWords caps what ParseDuration accepts (about 11 years), so the
// arithmetic cannot overflow; the servers' own caps are far lower.
const maxDurationWords = 100000 * time.Hour

// Default wall-clock times for a day given without a time.
const (
	dayStartMinute = 9 * 60  // `from tomorrow` = tomorrow 09:00
	dayEndMinute   = 18 * 60 // `until tomorrow` = tomorrow 18:00
)

func whenDigit(c byte) bool { return c >= '0' && c <= '9' }

// When is a reservation window. A zero Start means "now"; a zero End
// means the words gave no end (the caller applies its default duration or
// asks for one).
type When struct {
	Start time.Time
	End   time.Time
	// Late is a start said that had passed by under lateGrace when the
	// request came ("오늘 밤 11시부터 …" typed at 23:18): the window runs
	// from now to the end said, and the reply says so.
	Late time.Time
}

// ParseWindow reads a reservation window from words such as
// "for 2h", "for 1d12h", "from tomorrow 9:00 for 4h", "until fri 18:00",
// "from 14:00 until 18:00", "from 2026-11-24 09:00 for 3h",
// "until tomorrow", "from mon 9am for 8h".
//
// It picks the window clauses out of words wherever they stand and returns
// the other words, in their order, for the caller (GPU count, server,
// note); nothing outside a clause is an error here. Clauses:
//
//   - `for <duration>`: "for 4h", "for 2 hours", "for 1 day 12 hours",
//     "for an hour", "for half an hour". A bare "4h" outside any clause
//     is a duration too.
//   - `from|starting|at <point>`: the start. A point that begins with a day
//     word ("tomorrow 9:00", "fri", "2026-11-24", "nov 24") or a clock
//     time with a colon or am/pm ("14:00", "9am") starts the window even
//     without the keyword.
//   - `until|till|til <point>`: the end; after a start, "to" and "-" work
//     too ("from 14:00 to 18:00").
//
// A point is a day, a time, or both in either order ("tomorrow 9:00",
// "9:00 tomorrow", "fri at 6pm"). Days: `now`, `today`, `tomorrow`, weekday
// names (`mon`…`sun`, `monday`, `tues`, `thurs`…), ISO dates
// (`2026-11-24`, `2026-11-24T09:00`) and month-day dates (`nov 24`,
// `24 nov`, `november 24th`; the next such date). Times: `9`, `9:30`,
// `18:00`, `9am`, `6pm`, `9 am`, `noon`, `midnight`.
//
// Rules:
//
//   - Wall-clock points are computed in loc with time.Date, so "tomorrow
//     9:00" is 09:00 local across a DST change; a duration ("for 24h",
//     "for 1d") is that many real hours.
//   - `tomorrow` is the next calendar day in loc; `today` is today's date.
//   - A weekday is the next such day: today if that time is still ahead
//     (for a start: ahead of now; for an end: after the start), else the
//     same day next week. So "until fri 18:00" typed on a Friday at 17:00
//     ends today, typed at 19:00 it ends next Friday.
//   - A day without a time means 09:00 for a start and 18:00 (end of the
//     working day) for an end: "from tomorrow" = tomorrow 09:00, "until
//     fri" = Friday 18:00. Exception: "from today" and "from now" mean now.
//   - A time without a day: for a start, today if it is not yet (more
//     than a minute) past, else tomorrow; for an end, the first such time
//     after the start ("from 22:00 until 2:00" ends at 02:00 the next day).
//   - `midnight` is the end of its day (24:00): "until midnight" ends
//     tonight, "until fri midnight" at the turn from Friday to Saturday.
//   - Month-day dates without a year mean this year, or next year once the
//     date has passed.
//
// It rejects, with a *UserError naming the word and an example: a clause
// word that is not a day, time or duration ("for banana", "from tomorow"
// — with a did-you-mean), a start more than a minute in the past or more
// than a year ahead, an end at or before the start, and a window given
// twice ("for 4h until fri"). The returned Start is zero when the window
// starts now; End is zero when no end was given.
func ParseWindow(words []string, now time.Time, loc *time.Location) (When, []string, error) {
	if loc == nil {
		loc = time.UTC
	}
	p := &windowParser{words: words, now: now.In(loc), loc: loc}
	if err := p.run(); err != nil {
		return When{}, nil, inField(err, p.field)
	}
	w, rest, err := p.result()
	return w, rest, inField(err, p.field)
}

// windowParser holds what ParseWindow has read so far.
type windowParser struct {
	words []string
	now   time.Time
	loc   *time.Location
	rest  []string

	hasStart  bool
	start     whenPoint
	startText string

	hasEnd  bool
	end     whenPoint
	endText string

	hasDur  bool
	dur     time.Duration
	durText string

	// field is the clause being read, for the field a mistake is in.
	field string
}

// dayKind says which kind of day a point names.
type dayKind int

const (
	dayNone dayKind = iota
	dayNow
	dayToday
	dayTomorrow
	dayWeekday
	dayDate
)

// whenPoint is a day and/or a time of day as typed, resolved later against now
// and the start.
type whenPoint struct {
	day     dayKind
	weekday time.Weekday
	year    int // 0: the next such month-day
	month   time.Month
	mday    int
	hasTime bool
	minute  int // minutes after midnight, 0..1440 (1440 = midnight at the end of the day)
}

var (
	// whenFromWords start a window; "from" insists on a day or time after it,
	// the others ("at the lab", "start training") are note words otherwise.
	whenFromWords  = map[string]bool{"from": true, "at": true, "starting": true, "start": true, "beginning": true}
	whenUntilWords = map[string]bool{"until": true, "till": true, "til": true, "untill": true, "ending": true}
	// whenSoftEnd words end a window only right after a start, and only when a
	// point follows: "from 14:00 to 18:00", but "to finish the run" is a note.
	whenSoftEnd = map[string]bool{"to": true, "-": true, "–": true, "—": true}
)

// whenWeekdays are the weekday names of every reader (windows, deadlines,
// digest schedules), English and Korean.
var whenWeekdays = map[string]time.Weekday{
	"sun": time.Sunday, "sunday": time.Sunday, "일요일": time.Sunday, "일욜": time.Sunday,
	"mon": time.Monday, "monday": time.Monday, "월요일": time.Monday, "월욜": time.Monday,
	"tue": time.Tuesday, "tues": time.Tuesday, "tuesday": time.Tuesday, "화요일": time.Tuesday, "화욜": time.Tuesday,
	"wed": time.Wednesday, "weds": time.Wednesday, "wednesday": time.Wednesday, "수요일": time.Wednesday, "수욜": time.Wednesday,
	"thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday, "thursday": time.Thursday, "목요일": time.Thursday, "목욜": time.Thursday,
	"fri": time.Friday, "friday": time.Friday, "금요일": time.Friday, "금욜": time.Friday,
	"sat": time.Saturday, "saturday": time.Saturday, "토요일": time.Saturday, "토욜": time.Saturday,
}

var whenMonths = map[string]time.Month{
	"jan": time.January, "january": time.January,
	"feb": time.February, "february": time.February,
	"mar": time.March, "march": time.March,
	"apr": time.April, "april": time.April,
	"may": time.May,
	"jun": time.June, "june": time.June,
	"jul": time.July, "july": time.July,
	"aug": time.August, "august": time.August,
	"sep": time.September, "sept": time.September, "september": time.September,
	"oct": time.October, "october": time.October,
	"nov": time.November, "november": time.November,
	"dec": time.December, "december": time.December,
}

// whenVocabulary is what a did-you-mean for a misspelt day or time draws from.
var whenVocabulary = []string{"now", "today", "tomorrow", "noon", "midnight", "eod",
	"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
	"mon", "tue", "wed", "thu", "fri", "sat", "sun"}

// whenUnitLetters are the letters duration units are spelt with; a word of
// digits and these only is a (possibly broken) duration.
var whenUnitLetters = func() string {
	var b strings.Builder
	for u := range durationUnits {
		for _, r := range u {
			if !strings.ContainsRune(b.String(), r) {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}()

var ()

// wordAt is the i-th word folded for matching ("Tomorrow," → "tomorrow"),
// or "" past the end.
func (p *windowParser) wordAt(i int) string {
	if i < 0 || i >= len(p.words) {
		return ""
	}
	return whenFold(p.words[i])
}

func whenFold(w string) string {
	return strings.TrimRight(strings.ToLower(strings.TrimSpace(w)), ",;")
}

func (p *windowParser) text(a, b int) string {
	return strings.Join(p.words[a:b], " ")
}

func (p *windowParser) run() error {
	for i := 0; i < len(p.words); {
		w := p.wordAt(i)
		n, err := p.clause(i, w)
		if err != nil {
			return err
		}
		if n == 0 {
			p.rest = append(p.rest, p.words[i])
			n = 1
		}
		i += n
	}
	return nil
}

// clause reads the window clause that starts at word i and returns how
// many words it took; 0 means word i is not part of the window.
func (p *windowParser) clause(i int, w string) (int, error) {
	switch {
	case whenFromWords[w]:
		p.field = FieldStart
		pt, n, err := p.point(i+1, true)
		if n == 0 && err == nil && (w != "from" || p.hasStart) {
			return 0, nil // "at the lab", "data from the cluster": note words
		}
		if err != nil {
			return 0, err
		}
		if n == 0 {
			return 0, p.notAPoint(i, "start")
		}
		return 1 + n, p.setStart(pt, i, i+1+n)
	case whenUntilWords[w]:
		p.field = FieldEnd
		pt, n, err := p.point(i+1, true)
		if err != nil {
			return 0, err
		}
		if n == 0 {
			if p.hasEnd || p.hasDur {
				return 0, nil
			}
			return 0, p.notAPoint(i, "end")
		}
		return 1 + n, p.setEnd(pt, i, i+1+n)
	case whenSoftEnd[w] && p.hasStart && !p.hasEnd && !p.hasDur:
		pt, n, err := p.point(i+1, true)
		if n == 0 || err != nil {
			return 0, nil
		}
		return 1 + n, p.setEnd(pt, i, i+1+n)
	case w == "in" && !p.hasStart:
		// "in 2h", "in 30 minutes": a start that far from now
		d, n, err := p.duration(i + 1)
		if n == 0 || err != nil {
			return 0, nil // "in the lab", "in fp16": note words
		}
		p.field = FieldStart
		t := p.now.Add(d)
		pt := whenPoint{day: dayDate, year: t.Year(), month: t.Month(), mday: t.Day(), hasTime: true, minute: t.Hour()*60 + t.Minute()}
		return 1 + n, p.setStart(pt, i, i+1+n)
	case w == "for":
		p.field = FieldDuration
		d, n, err := p.duration(i + 1)
		if n == 0 && err == nil {
			if p.hasDur || p.hasEnd {
				return 0, nil // "for 4h for the bert run"
			}
			return 0, p.notADuration(i)
		}
		if err != nil {
			return 0, err
		}
		return 1 + n, p.setDur(d, i, i+1+n)
	}
	if d, n, err := p.duration(i); n > 0 && err == nil && whenStartsDigit(w) {
		p.field = FieldDuration
		return n, p.setDur(d, i, i+n)
	}
	if !p.hasStart {
		p.field = FieldStart
		// A day word or a clock time starts the window without "from".
		pt, n, err := p.point(i, false)
		if err != nil {
			return 0, err
		}
		if n > 0 {
			return n, p.setStart(pt, i, i+n)
		}
	}
	return 0, nil
}

func whenStartsDigit(w string) bool { return w != "" && whenDigit(w[0]) }

func (p *windowParser) setStart(pt whenPoint, a, b int) error {
	if p.hasStart {
		return said(en.Tf("the start is given twice: `%s` and `%s` — say it once", p.startText, p.text(a, b)), &UserError{Hint: whenExample})
	}
	p.hasStart, p.start, p.startText = true, pt, p.text(a, b)
	return nil
}

func (p *windowParser) setEnd(pt whenPoint, a, b int) error {
	if p.hasEnd {
		return said(en.Tf("the end is given twice: `%s` and `%s` — say it once", p.endText, p.text(a, b)), &UserError{Hint: whenExample})
	}
	if p.hasDur {
		return said(en.Tf("`%s` and `%s` both say when it ends — give a duration or an end, not both", p.durText, p.text(a, b)), &UserError{Hint: whenExample})
	}
	p.hasEnd, p.end, p.endText = true, pt, p.text(a, b)
	return nil
}

func (p *windowParser) setDur(d time.Duration, a, b int) error {
	if p.hasDur {
		return said(en.Tf("the duration is given twice: `%s` and `%s` — say it once", p.durText, p.text(a, b)), &UserError{Hint: whenExample})
	}
	if p.hasEnd {
		return said(en.Tf("`%s` and `%s` both say when it ends — give a duration or an end, not both", p.endText, p.text(a, b)), &UserError{Hint: whenExample})
	}
	p.hasDur, p.dur, p.durText = true, d, p.text(a, b)
	return nil
}

// notAPoint explains the word after a from/until keyword that is not a day
// or time.
func (p *windowParser) notAPoint(kw int, what string) error {
	if kw+1 >= len(p.words) {
		return said(en.Tf("`%s` needs a day or time after it (e.g. `%s tomorrow 9:00`)", p.words[kw], p.words[kw]), &UserError{Hint: whenExample})
	}
	raw := p.words[kw+1]
	whatText := en.T("start")
	if what != "start" {
		whatText = en.T("end")
	}
	msg := en.Tf("`%s %s`: `%s` is not a day or time for the %s", p.words[kw], raw, raw, whatText)
	if sug := planner.Nearest(whenFold(raw), whenVocabulary, 1); len(sug) > 0 {
		msg = en.Tf("`%s %s`: `%s` is not a day or time for the %s — did you mean `%s`?", p.words[kw], raw, raw, whatText, sug[0])
	} else if whenFold(raw) == "next" || whenFold(raw) == "this" {
		msg = en.Tf("`%s %s`: `%s` is not a day or time for the %s — just name the day: `fri` is the coming Friday", p.words[kw], raw, raw, whatText)
	}
	return said(msg, &UserError{Hint: whenExample})
}

func (p *windowParser) notADuration(kw int) error {
	if kw+1 >= len(p.words) {
		return said(en.T("`for` needs a duration after it (e.g. `for 4h`)"), &UserError{Hint: whenExample})
	}
	raw := p.words[kw+1]
	return said(en.Tf("`for %s`: `%s` is not a duration — e.g. `for 4h`, `for 90m`, `for 1d12h`", raw, raw), &UserError{Hint: whenExample})
}

// duration reads duration pieces from word i on: "4h", "2 hours",
// "1 day and 12 hours", "an hour", "half an hour". n is 0 when word i does
// not start a duration; err is set when it starts one that is broken
// ("4" without a unit, "0h").
func (p *windowParser) duration(i int) (time.Duration, int, error) {
	var total time.Duration
	j := i
	pieces := 0
	for {
		w := p.wordAt(j)
		if pieces > 0 && (w == "and" || w == ",") {
			if _, n := p.durationPiece(j + 1); n > 0 {
				j++
				continue
			}
			break
		}
		d, n := p.durationPiece(j)
		if n == 0 {
			break
		}
		if n < 0 {
			return 0, 0, said(en.Tf("`%s` needs a unit — `%sh` or `%sm`?", p.words[j], w, w), &UserError{Hint: durationExample})
		}
		total += d
		j += n
		pieces++
	}
	if pieces == 0 {
		// A word that tried to be a duration and failed ("0h", "4x", "1.2.3h")
		// is worth explaining; anything else is simply not one.
		w := p.wordAt(i)
		if whenStartsDigit(w) && whenClockMatch(w) == nil && whenISODateMatch(w) == nil && strings.IndexFunc(w, whenLetter) > 0 {
			if _, err := ParseDuration(w); err != nil && p.looksLikeDuration(w) {
				return 0, 0, err
			}
		}
		return 0, 0, nil
	}
	if total <= 0 {
		return 0, 0, said(en.Tf("`%s` is not a duration — it must be longer than zero", p.text(i, j)), &UserError{Hint: durationExample})
	}
	if total > maxDurationWords {
		return 0, 0, said(en.Tf("`%s` is longer than anyone can reserve", p.text(i, j)), &UserError{Hint: durationExample})
	}
	return total, j - i, nil
}

func whenLetter(r rune) bool { return r >= 'a' && r <= 'z' }

// looksLikeDuration is true for words made of digits, dots and duration
// unit letters only ("0h", "1.2.3h", "2d5"): a broken duration, not a
// server name or a GPU count like "2x".
func (p *windowParser) looksLikeDuration(w string) bool {
	for _, r := range w {
		if !(r >= '0' && r <= '9') && r != '.' && !strings.ContainsRune(whenUnitLetters, r) {
			return false
		}
	}
	return true
}

// durationPiece reads one piece at word j. n is words taken; n == -1 marks
// a bare number where a unit word should follow and does not.
func (p *windowParser) durationPiece(j int) (time.Duration, int) {
	w := p.wordAt(j)
	if w == "" {
		return 0, 0
	}
	if whenStartsDigit(w) {
		if d, err := ParseDuration(w); err == nil {
			return d, 1
		}
		if v, err := strconv.ParseFloat(w, 64); err == nil && v >= 0 {
			if u, ok := durationUnits[p.wordAt(j+1)]; ok {
				return time.Duration(math.Round(v*float64(u)/float64(time.Second))) * time.Second, 2
			}
			if j > 0 && p.wordAt(j-1) == "for" {
				return 0, -1
			}
		}
		return 0, 0
	}
	switch w {
	case "a", "an", "one":
		if u, ok := durationUnits[p.wordAt(j+1)]; ok {
			return u, 2
		}
	case "half":
		if a := p.wordAt(j + 1); a == "a" || a == "an" {
			if u, ok := durationUnits[p.wordAt(j+2)]; ok {
				return u / 2, 3
			}
		}
	}
	return 0, 0
}

// point reads a day and/or a time starting at word i. n is 0 when word i
// does not start a point. bare allows a plain number as the time ("from 9");
// without a keyword only clock-shaped times ("9:00", "9am") and day words
// count.
func (p *windowParser) point(i int, bare bool) (whenPoint, int, error) {
	var pt whenPoint
	j := i
	dn, err := p.day(j, &pt)
	if err != nil {
		return pt, 0, err
	}
	j += dn
	if pt.day == dayNow {
		return pt, j - i, nil
	}
	if dn > 0 && p.wordAt(j) == "at" {
		if tn, _ := p.clock(j+1, &whenPoint{}, true); tn > 0 {
			j++
		}
	}
	if !pt.hasTime {
		tn, err := p.clock(j, &pt, bare || dn > 0)
		if err != nil {
			return pt, 0, err
		}
		j += tn
		if tn > 0 && dn == 0 {
			// "9:00 tomorrow"
			if p.wordAt(j) == "on" {
				var probe whenPoint
				if n, _ := p.day(j+1, &probe); n > 0 {
					j++
				}
			}
			dn2, err := p.day(j, &pt)
			if err != nil {
				return pt, 0, err
			}
			if pt.day == dayNow {
				return pt, 0, said(en.Tf("`%s`: a time and `now` do not go together", p.text(i, j+1)), &UserError{Hint: whenExample})
			}
			j += dn2
		}
	}
	return pt, j - i, nil
}

// day reads a day at word j into pt and returns the words taken.
func (p *windowParser) day(j int, pt *whenPoint) (int, error) {
	w := p.wordAt(j)
	switch w {
	case "":
		return 0, nil
	case "now":
		pt.day = dayNow
		return 1, nil
	case "today":
		pt.day = dayToday
		return 1, nil
	case "tomorrow", "tmr", "tmrw":
		pt.day = dayTomorrow
		return 1, nil
	}
	if wd, ok := whenWeekdays[w]; ok {
		pt.day, pt.weekday = dayWeekday, wd
		return 1, nil
	}
	if m := whenISODateMatch(w); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		if !whenValidDate(y, time.Month(mo), d) {
			return 0, said(en.Tf("`%s` is not a date", p.words[j]), &UserError{Hint: "dates are written 2026-11-24 or nov 24 — " + whenExample})
		}
		pt.day, pt.year, pt.month, pt.mday = dayDate, y, time.Month(mo), d
		if m[4] != "" {
			mins, ok := whenClockMinutes(m[4], "")
			if !ok {
				return 0, said(en.Tf("`%s`: `%s` is not a time of day", p.words[j], m[4]), &UserError{Hint: whenExample})
			}
			pt.hasTime, pt.minute = true, mins
		}
		return 1, nil
	}
	// "nov 24", "24 nov", "november 24th"
	if mo, ok := whenMonths[w]; ok {
		if m := whenMdayMatch(p.wordAt(j + 1)); m != nil {
			d, _ := strconv.Atoi(m[1])
			if !whenValidDate(2000, mo, d) { // 2000 is a leap year: feb 29 passes here
				return 0, said(en.Tf("`%s %s` is not a date", p.words[j], p.words[j+1]), &UserError{Hint: whenExample})
			}
			pt.day, pt.month, pt.mday = dayDate, mo, d
			return 2, nil
		}
		return 0, nil
	}
	if m := whenMdayMatch(w); m != nil {
		if mo, ok := whenMonths[p.wordAt(j+1)]; ok {
			d, _ := strconv.Atoi(m[1])
			if !whenValidDate(2000, mo, d) {
				return 0, said(en.Tf("`%s %s` is not a date", p.words[j], p.words[j+1]), &UserError{Hint: whenExample})
			}
			pt.day, pt.month, pt.mday = dayDate, mo, d
			return 2, nil
		}
	}
	return 0, nil
}

// clock reads a time of day at word j into pt and returns the words taken.
// bare allows a plain number ("9").
func (p *windowParser) clock(j int, pt *whenPoint, bare bool) (int, error) {
	w := p.wordAt(j)
	switch w {
	case "noon", "midday":
		pt.hasTime, pt.minute = true, 12*60
		return 1, nil
	case "midnight":
		pt.hasTime, pt.minute = true, 24*60
		return 1, nil
	case "eod", "cob":
		pt.hasTime, pt.minute = true, dayEndMinute // "until EOD": the working day's end
		return 1, nil
	}
	m := whenClockMatch(w)
	if m == nil {
		return 0, nil
	}
	// A number followed by a month name is a date ("24 nov"), not a time.
	if _, ok := whenMonths[p.wordAt(j+1)]; ok && m[2] == "" && m[3] == "" {
		return 0, nil
	}
	n := 1
	ampm := m[3]
	if ampm == "" {
		if next := p.wordAt(j + 1); next == "am" || next == "pm" || next == "a.m." || next == "p.m." {
			ampm, n = next, 2
		}
	}
	if m[2] == "" && ampm == "" && !bare {
		return 0, nil
	}
	if m[2] == "" && ampm == "" {
		// A bare number followed by a duration unit is a duration, not a time.
		if _, ok := durationUnits[p.wordAt(j+1)]; ok {
			return 0, nil
		}
	}
	clock := m[1]
	if m[2] != "" {
		clock += ":" + m[2]
	}
	mins, ok := whenClockMinutes(clock, ampm)
	if !ok {
		return 0, said(en.Tf("`%s` is not a time of day", p.text(j, j+n)), &UserError{Hint: "times are written 9, 9:30, 18:00, 9am, 6pm, noon or midnight — " + whenExample})
	}
	pt.hasTime, pt.minute = true, mins
	return n, nil
}

// startNowHint starts the hint for a start already past with an end still
// ahead: saying the end alone books from now (hintIn translates it).
const startNowHint = "to start now, say only the end: "

// result resolves the clauses against now and checks the window.
func (p *windowParser) result() (When, []string, error) {
	var w When
	startAt := p.now
	if p.hasStart {
		t, isNow := p.resolve(p.start, dayStartMinute, true, p.now)
		if !isNow {
			p.field = FieldStart
			if t.Before(p.now.Add(-pastGrace)) && t.After(p.now.Add(-lateGrace)) && p.lateEnd(t).After(p.now.Add(lateGrace)) {
				w.Late, t = t, p.now // booked from now; the end said stands
			}
			if t.Before(p.now.Add(-pastGrace)) {
				hint := whenExample
				if end, _ := p.resolve(p.end, dayEndMinute, false, t); p.hasEnd && end.After(p.now) {
					// "오늘 오후 2시부터 6시까지" at four: the end is still
					// ahead, and saying it alone starts the booking now
					hint = startNowHint + "`" + p.endText + "`"
				}
				return When{}, nil, said(en.Tf("`%s` (%s) is in the past — it is %s now", p.startText, p.format(t), p.format(p.now)), &UserError{
					Hint: hint,
				})
			}
			if t.After(p.now.Add(maxAhead)) {
				return When{}, nil, said(en.Tf("`%s` (%s) is more than a year ahead", p.startText, p.format(t)), &UserError{Hint: whenExample})
			}
			w.Start, startAt = t, t
			if !w.Late.IsZero() {
				w.Start, startAt = time.Time{}, w.Late // from now, to the end said from the start said
			}
		}
	}
	switch {
	case p.hasDur:
		w.End = startAt.Add(p.dur)
	case p.hasEnd:
		t, _ := p.resolve(p.end, dayEndMinute, false, startAt)
		p.field = FieldEnd
		if !t.After(startAt) {
			from := "now"
			if !w.Start.IsZero() {
				from = p.format(w.Start)
			}
			return When{}, nil, said(en.Tf("`%s` (%s) is not after the start (%s) — a reservation has to end after it starts", p.endText, p.format(t), from), &UserError{
				Hint: whenExample,
			})
		}
		w.End = t
	}
	return w, p.rest, nil
}

// lateEnd is the end a window said from start would have.
func (p *windowParser) lateEnd(start time.Time) time.Time {
	switch {
	case p.hasDur:
		return start.Add(p.dur)
	case p.hasEnd:
		end, _ := p.resolve(p.end, dayEndMinute, false, start)
		return end
	}
	return time.Time{}
}

// format writes a moment the way the error messages show it.
func (p *windowParser) format(t time.Time) string {
	return t.In(p.loc).Format("Mon 2 Jan 2006 15:04 MST")
}

// resolve turns a typed point into a moment. defMinute is the time for a
// day without one; isStart picks the start rules; ref is the moment a
// weekday or a bare time must lie after (now for a start, the start for an
// end). isNow reports a start that means "now" (`now`, `today`).
func (p *windowParser) resolve(pt whenPoint, defMinute int, isStart bool, ref time.Time) (t time.Time, isNow bool) {
	y, m, d := p.now.Date()            // calendar words count from today
	by, bm, bd := ref.In(p.loc).Date() // whenWeekdays and bare times count from ref
	minute := defMinute
	if pt.hasTime {
		minute = pt.minute
	}
	at := func(y int, m time.Month, d int) time.Time {
		// time.Date normalises the minutes into the wall clock of that day,
		// in loc, so 09:00 stays 09:00 across a DST change.
		return time.Date(y, m, d, 0, minute, 0, 0, p.loc)
	}
	ahead := func(c time.Time) bool {
		if isStart {
			return !c.Before(ref.Add(-pastGrace))
		}
		return c.After(ref)
	}
	switch pt.day {
	case dayNow:
		return p.now, isStart
	case dayToday:
		if isStart && !pt.hasTime {
			return p.now, true
		}
		return at(y, m, d), false
	case dayTomorrow:
		return at(y, m, d+1), false
	case dayWeekday:
		for k := 0; k < 8; k++ {
			if time.Date(by, bm, bd+k, 12, 0, 0, 0, time.UTC).Weekday() != pt.weekday {
				continue
			}
			if c := at(by, bm, bd+k); ahead(c) {
				return c, false
			}
		}
	case dayDate:
		if pt.year != 0 {
			return at(pt.year, pt.month, pt.mday), false
		}
		yy := y
		if pt.month < m || (pt.month == m && pt.mday < d) {
			yy++
		}
		for !whenValidDate(yy, pt.month, pt.mday) { // feb 29
			yy++
		}
		return at(yy, pt.month, pt.mday), false
	case dayNone:
		for k := 0; k < 3; k++ {
			if c := at(by, bm, bd+k); ahead(c) {
				return c, false
			}
		}
	}
	return at(y, m, d), false // not reached: the loops above always find one
}

// The scanners below read the three word shapes of the window language by
// hand (no regular expressions: nothing is compiled at start-up, and each
// shape is stated once). Each returns what regexp.FindStringSubmatch would:
// the whole word and its groups, or nil.
