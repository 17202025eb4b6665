package lang

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// The window of a command said as a sentence: Korean times, whole days,
// the weekend, a purpose after the comma.

// window writes the reservation window read: a whole day or the
// weekend, a later day's working hours, else each point with its role and
// the duration, then the English window words as typed.
func (r *cmdReader) window(add func(...string)) {
	if from, until, ok := r.spanWindow(); ok {
		add("from", from, "until", until) // "내일 하루종일", "주말 동안"
		return
	}
	if from, until, ok := r.dayPart(); ok {
		add("from", from, "until", until) // "내일 오전에 쓸게요": tomorrow morning
		return
	}
	if r.startIn != "" {
		add("in", r.startIn) // "2시간 뒤부터": a start that far from now
	}
	hasEnd := false
	roles := r.pointRoles()
	for k, p := range r.points {
		words := strings.TrimSpace(p.day + " " + p.clock)
		if words == "" {
			continue
		}
		role := roles[k]
		if words == "now" && (role == "from" || len(r.points) == 1) {
			continue
		}
		hasEnd = hasEnd || role == "until"
		add(role, words)
	}
	if r.duration != "" && !hasEnd {
		add("for", r.duration)
	}
	if len(r.english) > 0 {
		var en []string
		for _, w := range r.english {
			if lw := strings.ToLower(w); lw != "next" && lw != "the" && lw != "more" {
				en = append(en, w)
			}
		}
		// "tomorrow from 9am to 6pm": the day belongs to the start it is
		// said before ("from tomorrow 9am"), not a start of its own
		for k := 0; k+1 < len(en); k++ {
			if isDayWord(strings.ToLower(en[k])) && strings.EqualFold(en[k+1], "from") {
				en[k], en[k+1] = en[k+1], en[k]
			}
		}
		// "… overnight on sol for a training run": a "for" the words
		// after it left alone says no more ("from yesterday" is refused)
		for len(en) > 0 && strings.EqualFold(en[len(en)-1], "for") {
			en = en[:len(en)-1]
		}
		// "book 3 hours on titan": a number and its hours said with no
		// "for" is the duration, not a count of GPUs
		for k := 0; k+1 < len(en); k++ {
			if reqStartsNumber(en[k]) && hourWords[strings.ToLower(en[k+1])] && (k == 0 || !slices.Contains([]string{"for", "next", "in", "from", "until", "to", "at", "by", "another"}, strings.ToLower(en[k-1]))) {
				en = slices.Insert(en, k, "for")
				k++
			}
		}
		// a bare "30 mins" / "3 hours" after "next"/"for" reads as a duration
		add(en...)
	}
}

// nextWeekDay is the date of weekday wd in the week after now's, weeks
// starting on Monday as Korean calendars count them: "다음주 월요일" is
// tomorrow when said on a Sunday and a week ahead when said on a Monday.
func nextWeekDay(now time.Time, wd time.Weekday) string {
	sinceMonday := (int(now.Weekday()) + 6) % 7
	return now.AddDate(0, 0, 7-sinceMonday+(int(wd)+6)%7).Format("2006-01-02")
}

// hourWords are the units of a duration said in English words.
var hourWords = map[string]bool{"hours": true, "hour": true, "hrs": true, "hr": true, "h": true, "minutes": true, "mins": true, "min": true, "days": true, "day": true}

// spanWindow reads a whole day ("내일 하루종일": from its start to
// midnight; today's from now) or the weekend ("주말 동안": Saturday 0:00 to
// Sunday midnight, or from now when it is already the weekend) as the
// window, when no clock or duration was said.
func (r *cmdReader) spanWindow() (from, until string, ok bool) {
	day := "today"
	if len(r.english) == 1 && len(r.points) == 0 && isDayWord(strings.ToLower(r.english[0])) {
		day = strings.ToLower(r.english[0]) // "tomorrow all day"
	} else if len(r.english) > 0 {
		return "", "", false
	}
	if r.span == "" || r.duration != "" || len(r.points) > 1 {
		return "", "", false
	}
	if len(r.points) == 1 {
		if p := r.points[0]; p.clock != "" || p.role != "" || p.day == "" {
			return "", "", false
		} else {
			day = p.day
		}
	}
	if r.span == "week" {
		if r.now.Weekday() == time.Sunday {
			// on a Sunday "this week" is the one ahead, to next Sunday
			return "now", r.now.AddDate(0, 0, 7).Format("2006-01-02") + " midnight", true
		}
		return "now", "sun midnight", true
	}
	if part, ok := englishDayParts[r.span]; ok {
		// "tomorrow afternoon", "this evening": the part of that day
		day := "today"
		if len(r.english) == 1 {
			day = strings.ToLower(r.english[0])
		}
		from, until = day+" "+part[0], day+" "+part[1]
		if day == "today" && r.now.Hour() >= clockHour(part[0]) {
			from = "now"
		}
		return from, until, true
	}
	if r.span == "weekend" {
		if wd := r.now.Weekday(); wd == time.Saturday || wd == time.Sunday {
			return "now", "sun midnight", true
		}
		return "sat 0:00", "sun midnight", true
	}
	if day == "today" || day == "now" {
		return "now", "today midnight", true
	}
	return day + " 0:00", day + " midnight", true
}

// koDate reads "12월 3일" at i as an ISO date (this year's, or next
// year's once it has passed), with n the word after it; the particle on
// 일 ("3일부터") is read by the caller from the word n-1.
func (r *cmdReader) koDate(i int) (day string, n int, ok bool) {
	mo, rest, ok1 := reqScanInt(r.w(i))
	d, rest2, ok2 := reqScanInt(r.w(i + 2))
	if !ok1 || !ok2 || rest != "" || rest2 != "" || !strings.HasPrefix(r.w(i+1), "월") || !strings.HasPrefix(r.w(i+3), "일") ||
		mo < 1 || mo > 12 || d < 1 || d > 31 {
		return "", i, false
	}
	now := r.now
	t := time.Date(now.Year(), time.Month(mo), d, 0, 0, 0, 0, now.Location())
	if t.Month() != time.Month(mo) {
		return "", i, false // "2월 30일"
	}
	if t.AddDate(0, 0, 1).Before(now) {
		t = t.AddDate(1, 0, 0)
	}
	return t.Format("2006-01-02"), i + 4, true
}

// thisWeek reads "이번주 내내", "이번 주 동안", "이번주까지" as the rest of
// this week (span "week"); "이번주 금요일까지" is a day of it, read as a day.
func (r *cmdReader) thisWeek(i int) (int, bool) {
	w, j, rest := r.w(i), i+1, ""
	switch {
	case strings.HasPrefix(w, "이번주"):
		rest = strings.TrimPrefix(w, "이번주")
	case w == "이번" && strings.HasPrefix(r.w(i+1), "주"):
		rest, j = strings.TrimPrefix(r.w(i+1), "주"), i+2
	default:
		return i, false
	}
	if rest == "" {
		if nw := r.w(j); strings.HasPrefix(nw, "내내") || strings.HasPrefix(nw, "동안") {
			rest, j = nw, j+1
		}
	}
	for _, p := range []string{"내내", "동안", "까지"} {
		if strings.HasPrefix(rest, p) {
			r.span = "week"
			return j, true
		}
	}
	return i, false
}

// dayPart reads a later day said with no time ("내일 쓸게요", "금요일
// 오후에 쓸게요") as that day's working hours, 9:00 to 18:00, its morning
// to 12:00 or its afternoon from 13:00: the day is when the GPUs are
// used, not when a booking made now ends. Today, a clock or a duration
// said keep their reading.
func (r *cmdReader) dayPart() (from, until string, ok bool) {
	if len(r.points) != 1 || r.duration != "" || len(r.english) > 0 {
		return "", "", false
	}
	p := r.points[0]
	if p.role != "" || p.clock != "" || p.day == "" || p.day == "today" || p.day == "now" {
		return "", "", false
	}
	from, until = "9:00", "18:00"
	switch p.ampm {
	case "am":
		until = "12:00"
	case "pm":
		from = "13:00"
	}
	return p.day + " " + from, p.day + " " + until, true
}

// purposeTail reports whether the words after a booking's last comma say
// what the GPUs are for ("running resnet sweeps", "llama finetune"): a
// model or plan words, or a verb in -ing, and no words of the window.
func purposeTail(cat *planner.Catalog, toks []reqToken) bool {
	if len(toks) == 0 {
		return false
	}
	for _, t := range toks {
		if isWindowWord(strings.ToLower(t.w)) || reqStartsNumber(t.w) {
			return false
		}
	}
	return namesModel(cat, toks, nil) || planWords(toks) || strings.HasSuffix(strings.ToLower(toks[0].w), "ing")
}

// halfHour reports whether w is the half hour after a clock or a count
// of hours ("9시 반", "2시간 반까지"), not 반나절, half a day's time.
func halfHour(w string) bool {
	return strings.HasPrefix(w, "반") && !strings.HasPrefix(w, "반나절")
}

func koDurationWord(w string) (int, bool) {
	for k, h := range map[string]int{"하루": 24, "이틀": 48, "사흘": 72, "나흘": 96, "일주일": 168, "한시간": 1, "반나절": 6} {
		if strings.HasPrefix(w, k) && !strings.HasSuffix(w, "까지") {
			return h, true
		}
	}
	return 0, false
}

// koreanTime reads Korean days, clock times and durations: "내일 오전
// 9시부터", "오늘 저녁 6시까지", "3시간", "1시간 30분", "하루", "금요일까지".
//
// koreanTime is long on purpose: a Korean time is a day, a part of the
// day, a clock and a particle read as one phrase, and the pieces share
// the point being built.
func (r *cmdReader) koreanTime(i int) int {
	w := r.w(i)
	role := func(s string) string {
		switch {
		case strings.HasSuffix(s, "부터") || strings.HasSuffix(s, "에서"):
			return "from"
		case strings.HasSuffix(s, "까지"):
			return "until"
		}
		return ""
	}
	day := ""
	switch {
	case strings.HasPrefix(w, "내일"), strings.HasPrefix(w, "낼") && !strings.HasPrefix(w, "낼게") && !strings.HasPrefix(w, "낼께") && !strings.HasPrefix(w, "낼수"):
		day = "tomorrow" // 낼: 내일 as typed in a hurry
	case strings.HasPrefix(w, "오늘"):
		day = "today"
	case strings.HasPrefix(w, "지금"):
		day = "now"
	case strings.HasPrefix(w, "모레"), strings.HasPrefix(w, "글피"):
		// the day after tomorrow, and the day after that: a date
		ahead := 2
		if strings.HasPrefix(w, "글피") {
			ahead = 3
		}
		day = r.now.AddDate(0, 0, ahead).Format("2006-01-02")
	}
	for k, d := range whenWeekdays {
		if isHangulWord(k) && strings.HasPrefix(w, k) {
			day = strings.ToLower(d.String()[:3])
			if pw := r.w(i - 1); pw == "다음주" || pw == "담주" || pw == "주" && r.w(i-2) == "다음" {
				day = nextWeekDay(r.now, d) // "다음주 월요일" said on a Monday: a week ahead, not today
			}
		}
	}
	if d, n, ok := r.koDate(i); ok {
		// "12월 3일 목요일": the date, and the weekday after it says no more
		day, i, w = d, n-1, r.w(n-1)
		for _, k := range []string{"월요일", "화요일", "수요일", "목요일", "금요일", "토요일", "일요일"} {
			if strings.HasPrefix(r.w(n), k) {
				i, w = n, r.w(n)
			}
		}
	}
	if rest, ok := strings.CutPrefix(w, "오늘"); ok && w != "오늘" {
		// "오늘밤 10시", "오늘저녁": the part of the day glued to it
		switch {
		case strings.HasPrefix(rest, "밤") || strings.HasPrefix(rest, "저녁") || strings.HasPrefix(rest, "오후"):
			r.point().ampm = "pm"
		case strings.HasPrefix(rest, "아침") || strings.HasPrefix(rest, "오전") || strings.HasPrefix(rest, "새벽"):
			r.point().ampm = "am"
		}
	}
	if day != "" && (strings.HasPrefix(r.w(i+1), "데드라인") || strings.HasPrefix(r.w(i+1), "마감")) {
		return i + 2 // "금요일 데드라인이라": why, not when the booking is
	}
	if day != "" {
		p := r.point()
		p.day = day
		if ro := role(w); ro != "" {
			r.endPoint(ro)
			return i + 1
		}
		// "오늘 하루 쓸게요", "내일 하루 예약": that whole day, not 24 hours
		// from now ("하루 더" is an extension's length)
		if nw := r.w(i + 1); nw == "하루" || nw == "하루만" {
			if !strings.HasPrefix(r.w(i+2), "더") {
				r.span = "day"
				return i + 2
			}
		}
		return i + 1
	}
	if n, ok := r.thisWeek(i); ok {
		return n
	}
	if n := r.koDayPart(i, w); n > i {
		return n
	}
	switch {
	case strings.HasPrefix(w, "오전") || strings.HasPrefix(w, "아침") || strings.HasPrefix(w, "새벽"):
		r.point().ampm = "am"
		return i + 1
	case strings.HasPrefix(w, "오후") || strings.HasPrefix(w, "저녁") || strings.HasPrefix(w, "밤"):
		r.point().ampm = "pm"
		return i + 1
	case strings.HasPrefix(w, "퇴근"):
		// "퇴근 전까지", "퇴근할 때까지": the working day's end
		r.point().clock = "18:00"
		n := i + 1
		if nw := r.w(n); strings.HasPrefix(nw, "전") || strings.HasPrefix(nw, "까지") || strings.HasPrefix(nw, "때까지") {
			n++
		}
		r.endPoint("until")
		return n
	case strings.HasPrefix(w, "정오"):
		r.point().clock = "noon"
		r.endPoint(role(w))
		return i + 1
	case strings.HasPrefix(w, "자정"):
		r.point().clock = "midnight"
		r.endPoint(role(w))
		return i + 1
	case w == "다음주" || w == "이번주" || w == "동안" || strings.HasPrefix(w, "동안"):
		return i + 1
	case strings.HasPrefix(w, "하루종일") || strings.HasPrefix(w, "종일") || strings.HasPrefix(w, "온종일"):
		r.span = "day" // "내일 하루종일": the whole of that day
		return i + 1
	case strings.HasPrefix(w, "주말"):
		r.span = "weekend" // "주말 동안": Saturday and Sunday
		return i + 1
	}
	if h, ok := koDurationWord(w); ok {
		r.addDuration(strconv.Itoa(h) + "h")
		return i + 1
	}
	n, rest, ok := reqScanInt(w)
	if !ok || rest != "" {
		return i
	}
	next := r.w(i + 1)
	switch {
	case strings.HasPrefix(next, "시간"):
		d := strconv.Itoa(n) + "h"
		j := i + 2
		if m, rest, ok := reqScanInt(r.w(j)); ok && rest == "" && strings.HasPrefix(r.w(j+1), "분") {
			d += strconv.Itoa(m) + "m"
			j += 2
		} else if halfHour(r.w(j)) {
			d += "30m"
			j++
		}
		return r.durationOrStart(d, next, j)
	case strings.HasPrefix(next, "시"):
		p := r.point()
		h, m := n, 0
		j := i + 2
		suffix := next
		if strings.HasPrefix(next, "시반") || role(next) == "" && halfHour(r.w(j)) {
			m = 30
			if !strings.HasPrefix(next, "시반") {
				suffix = r.w(j)
				j++
			}
		} else if mm, rest, ok := reqScanInt(r.w(j)); ok && rest == "" && strings.HasPrefix(r.w(j+1), "분") {
			m = mm
			suffix = r.w(j + 1)
			j += 2
		}
		if p.ampm == "pm" && h < 12 {
			h += 12
		} else if p.ampm == "" && h >= 1 && h <= 7 {
			h += 12 // "6시까지" in an office is 18:00
		} else if prev := r.prevHour(); p.ampm == "" && h < 12 && prev >= 12 && h+12 > prev {
			h += 12 // "오후 2시~8시": the afternoon's eight, after its start
		}
		p.clock = strconv.Itoa(h) + ":" + twoDigits(m)
		r.endPoint(role(suffix))
		return j
	case strings.HasPrefix(next, "분"):
		return r.durationOrStart(strconv.Itoa(n)+"m", next, i+2)
	case strings.HasPrefix(next, "일") && !strings.HasPrefix(next, "일요일"):
		r.addDuration(strconv.Itoa(n*24) + "h")
		return i + 2
	case strings.HasPrefix(next, "주"):
		r.addDuration(strconv.Itoa(n*7*24) + "h")
		return i + 2
	}
	return i
}

// durationOrStart reads a span said ("3시간", "30분") as the booking's
// length, or, followed by 뒤/후 as its start ("2시간 뒤부터", "30분
// 후에", "1시간뒤"): that far from now. unit is the word the span's
// unit began ("시간뒤부터" glued), j the index after the span.
func (r *cmdReader) durationOrStart(d, unit string, j int) int {
	after := strings.TrimLeft(unit, "시간분")
	if after == "" {
		after = r.w(j)
		if koStartAfter(after) {
			j++
		}
	}
	if koStartAfter(after) && r.startIn == "" {
		r.startIn = d
		return j
	}
	r.addDuration(d)
	return j
}

// koStartAfter is 뒤/후 as when something starts ("뒤부터", "후에",
// "이후"), not as the end it runs to ("뒤까지").
func koStartAfter(w string) bool {
	switch w {
	case "뒤", "뒤부터", "뒤에", "뒤에서", "후", "후부터", "후에", "이후", "이후에", "이후부터":
		return true
	}
	return false
}

// IsDayWord is isDayWord for the commands' own readers ("status today").
func IsDayWord(w string) bool { return isDayWord(strings.ToLower(w)) }

// isDayWord reports whether w names a day a booking starts on: today,
// tomorrow or a weekday.
func isDayWord(w string) bool {
	switch w {
	case "today", "tomorrow", "tonight":
		return true
	}
	for k, d := range whenWeekdays {
		if !isHangulWord(k) && (w == k || w == strings.ToLower(d.String())) {
			return true
		}
	}
	return false
}

// serverOfGPU sets the server a command means by the GPU type it names
// ("book 4 a100s …", "4090 예약한거 취소할게요", "release my V100
// reservation", "에이백 다 쓰고 있으면"): the one team server with that GPU.
// A GPU named that no one server has is remembered (gpuNoServer).
func (r *cmdReader) serverOfGPU(env Env, toks []reqToken) {
	serverGPU := map[string]string{}
	for _, h := range env.Servers {
		serverGPU[h.Server] = h.GPU.ID
	}
	for _, t := range respellKorean(toks, r.gpu) {
		w := strings.TrimRightFunc(strings.TrimSuffix(t.w, "s"), isHangul) // "4090", "v100s", "a100은"
		if !r.gpu(t.w) && !r.gpu(w) {
			continue
		}
		if srv := oneServerWith(serverGPU, w); srv != "" {
			r.server = srv // the one server of them
			return
		}
		r.gpuNoServer = true
	}
}

// koDayParts are the clocks a part of the day stands for in a booking: as
// its start ("목요일 저녁부터": 18:00) and as its end ("금요일 아침까지":
// 9:00; "" is the working day's end, as a day said alone; the night ends
// at midnight).
var koDayParts = map[string]struct{ from, until string }{
	"새벽": {"6:00", "9:00"}, "아침": {"9:00", "9:00"}, "오전": {"9:00", "noon"}, "점심": {"12:00", "noon"},
	"오후": {"13:00", ""}, "저녁": {"18:00", ""}, "밤": {"21:00", "midnight"},
}

// koSpan is the English span an evening part of the day said alone
// stands for ("오늘 밤", "금요일 저녁"; 오전 and 오후 are read as clocks).
var koSpan = map[string]string{"밤": "tonight", "저녁": "evening"}

// koAfterPart is when "after" a part of the day begins ("점심 이후부터",
// "오전 이후에"): lunch is over at one, the morning at noon.
var koAfterPart = map[string]string{"점심": "13:00", "오전": "12:00", "아침": "12:00", "오후": "18:00", "저녁": "21:00"}

// koDayPart reads a part of the day with its particle ("내일 오후까지",
// "목요일 저녁부터", "금요일 아침까지") as a point of the window, "밤새" as
// until the next morning, and a day named as a deadline ("금요일
// 데드라인이라", "금요일 마감이라") as no point of it; i when none is there.
func (r *cmdReader) koDayPart(i int, w string) int {
	if strings.HasPrefix(w, "밤새") || w == "overnight" {
		// "오늘 저녁 8시부터 밤새": until 9:00 the day after the start
		day := "tomorrow"
		if len(r.points) > 0 && r.points[0].day != "" && r.points[0].day != "today" && r.points[0].day != "now" {
			day = r.dayAfter(r.points[0].day)
		} else if r.now.Hour() < 6 && (len(r.points) == 0 || r.points[0].day == "" || r.points[0].day == "today" || r.points[0].day == "now") {
			day = "today" // said after midnight ("오늘 밤새" at 00:19): this morning's 9:00
		}
		r.endPoint("")
		r.points = append(r.points, winPoint{day: day, clock: "9:00", role: "until"})
		return i + 1
	}
	for part, c := range koDayParts {
		rest, ok := strings.CutPrefix(w, part)
		if !ok {
			continue
		}
		role, n := "", i+1
		switch {
		case strings.HasPrefix(rest, "부터") || strings.HasPrefix(rest, "에서"):
			role = "from"
		case strings.HasPrefix(rest, "까지"):
			role = "until"
		case rest == "" && koAfterPart[part] != "" && koStartAfter(r.w(i+1)):
			role, n = "after", i+2 // "점심 이후부터": from the part's end
		case rest == "" && koSpan[part] != "" && r.span == "" && !reqStartsNumber(r.w(i+1)) && !strings.HasPrefix(r.w(i+1), "시") && len(r.points) <= 1:
			r.span = koSpan[part] // "gpu1 4장 오늘 밤 ㄱㄱ": the night's window, as "tonight"
			return i + 1
		default:
			return i
		}
		pt := r.point()
		switch {
		case role == "after":
			pt.clock, role = koAfterPart[part], "from"
		case role == "from":
			pt.clock = c.from
		case c.until != "":
			pt.clock = c.until
		}
		if pt.day == "" && pt.clock == "" {
			pt.day = "today" // "오후까지 쓸게요": today's
			if len(r.points) > 1 && r.points[0].day != "" {
				pt.day = r.points[0].day // "목요일 점심 이후부터 저녁까지": that day's evening
			}
		}
		r.endPoint(role)
		return n
	}
	return i
}

// dayAfter names the day after the booking day d ("tomorrow", "thu").
func (r *cmdReader) dayAfter(d string) string {
	if d == "tomorrow" {
		return strings.ToLower(r.now.AddDate(0, 0, 2).Weekday().String()[:3])
	}
	for k, wd := range whenWeekdays {
		if strings.ToLower(wd.String()[:3]) == d && !isHangulWord(k) {
			return strings.ToLower(((wd + 1) % 7).String()[:3])
		}
	}
	return "tomorrow"
}

// pointRoles is each point's role: its particle's, else a start, but a
// point alone with no length is when it ends ("오늘 저녁 6시"), and one
// after a start with no length is the end ("내일 오후 2시~6시", "14시-18시").
func (r *cmdReader) pointRoles() []string {
	roles := make([]string, len(r.points))
	started := false
	for k, p := range r.points {
		role := p.role
		if role == "" {
			role = "from"
			switch {
			case r.duration == "" && len(r.points) == 1:
				role = "until" // "오늘 저녁 6시" alone is when it ends
			case r.duration == "" && started && p.clock != "":
				role = "until"
			}
		}
		started = started || role == "from" && strings.TrimSpace(p.day+p.clock) != ""
		roles[k] = role
	}
	return roles
}

// startAndEnd reports whether the words said a window from a start to
// an end or for a length: "오후 2시부터 저녁 8시까지", "in 2h for 3h".
func (r *cmdReader) startAndEnd() bool {
	start, end := r.startIn != "", r.duration != ""
	for _, role := range r.pointRoles() {
		start = start || role == "from"
		end = end || role == "until"
	}
	return start && end
}

// clockRangeRE is a span of clock times written as one word, at least one
// side with am/pm or minutes: "1pm-5pm", "9am~6pm", "14:00-18:00".
var clockRangeRE = regexp.MustCompile(`(?i)\b(\d{1,2}(?::\d{2})?(?:am|pm)?)[-–~](\d{1,2}(?::\d{2})?(?:am|pm)?)\b`)

// clockRange spells a clock span as the window's words, "1pm to 5pm";
// GPU id ranges ("gpus 0-3") have neither am/pm nor minutes and stay.
func clockRange(s string) string {
	return clockRangeRE.ReplaceAllStringFunc(s, func(m string) string {
		if !strings.ContainsAny(strings.ToLower(m), ":apm") {
			return m
		}
		sub := clockRangeRE.FindStringSubmatch(m)
		return sub[1] + " to " + sub[2]
	})
}

// tildeRange writes "0~3" as "0-3": the normaliser treats '~' as noise.
func tildeRange(s string) string {
	b := []byte(s)
	for i := 1; i+1 < len(b); i++ {
		if b[i] == '~' && b[i-1] >= '0' && b[i-1] <= '9' && b[i+1] >= '0' && b[i+1] <= '9' {
			b[i] = '-'
		}
	}
	return string(b)
}

// dayOnly is the day of the one point said, when it has no clock
// ("내일", "금요일"): which booking a release or an extension means.
func (r *cmdReader) dayOnly() string {
	if len(r.points) != 1 || r.points[0].clock != "" || r.points[0].day == "now" {
		return ""
	}
	if d := r.points[0].day; isDayWord(d) {
		return d
	}
	return ""
}

// windowAhead reports whether the words said a window that starts later
// than now: a day or a part of one ahead, a start clock, "in 2h".
func (r *cmdReader) windowAhead() bool {
	if _, _, ok := r.spanWindow(); ok {
		return true
	}
	if _, _, ok := r.dayPart(); ok {
		return true
	}
	roles := r.pointRoles()
	for k, p := range r.points {
		if roles[k] == "from" && (p.day != "" && p.day != "now" && p.day != "today" || p.clock != "") {
			return true
		}
	}
	return r.startIn != ""
}

// prevHour is the hour of the last clock said before the point being
// read, -1 for none.
func (r *cmdReader) prevHour() int {
	for k := len(r.points) - 1; k >= 0; k-- {
		if &r.points[k] == r.cur || r.points[k].clock == "" {
			continue
		}
		h, _, ok := reqScanInt(strings.SplitN(r.points[k].clock, ":", 2)[0])
		if ok {
			return h
		}
	}
	return -1
}

// koDoneAfter reports whether w, after 다, says a thing is finished ("다
// 썼어요", "다 끝났어요", "다 돌렸어요"): 다 there is "done", not "all".
func koDoneAfter(w string) bool {
	for _, p := range []string{"썼", "씀", "끝", "돌렸", "했", "마쳤", "됐"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// englishDayParts are the parts of a day said in English, as the window
// they hold (the working day's, as 오전/오후 are read).
var englishDayParts = map[string][2]string{"morning": {"9:00", "12:00"}, "afternoon": {"13:00", "18:00"}, "evening": {"18:00", "22:00"}, "tonight": {"18:00", "midnight"}}

// clockHour is the hour of a clock word of englishDayParts.
func clockHour(c string) int {
	h, _, _ := strings.Cut(c, ":")
	n, _ := strconv.Atoi(h)
	return n
}

// englishSpan reads the i-th word as a span said in English: "for the
// weekend", "over the weekend" (Saturday and Sunday, as 주말 동안); "all
// day", "the whole day", "rest of today" (that day to its end); "all
// week", "for the rest of the week" (this week to Sunday's end). The
// words before it say nothing more.
func (r *cmdReader) englishSpan(i int) bool {
	w := r.w(i)
	span := ""
	switch {
	case w == "weekend" || w == "weekends":
		span = "weekend"
	case englishDayParts[w] != [2]string{} && (r.w(i-1) == "this" || isDayWord(r.w(i-1)) || w == "tonight"):
		span = w // "tomorrow afternoon", "this evening", "tonight"
	case (w == "day" || w == "week") && wholeOf(r.w(i-1), r.w(i-2), r.w(i-3)):
		span = w
	case w == "today" && r.w(i-1) == "of" && r.w(i-2) == "rest":
		span = "day"
	default:
		return false
	}
	r.span = span
	for len(r.english) > 0 && slices.Contains([]string{"for", "the", "this", "over", "during", "on"}, strings.ToLower(r.english[len(r.english)-1])) {
		r.english = r.english[:len(r.english)-1]
	}
	return true
}

// wholeOf reports whether the words before "day" or "week" (nearest
// first) say all of it: "all day", "the whole day", "entire week", "the
// rest of the week", "rest of this week".
func wholeOf(w1, w2, w3 string) bool {
	switch {
	case w1 == "all" || w1 == "whole" || w1 == "entire":
		return true
	case (w1 == "the" || w1 == "this") && w2 == "of" && w3 == "rest":
		return true
	}
	return false
}

// statusWindow writes the window a status asks about ("내일 오후 2시~6시
// 코멧 비어있어?": free then); "now" alone is the status's own time.
func (r *cmdReader) statusWindow(add func(...string)) {
	var when []string
	r.window(func(ws ...string) { when = append(when, ws...) })
	if len(when) == 2 && when[0] == "until" && len(r.points) == 1 {
		when[0] = "from" // "내일 오후 3시에 메이플 몇장 비어?": free at that time
	}
	if len(when) == 1 && (strings.EqualFold(when[0], "now") || strings.EqualFold(when[0], "for")) {
		return // "any gpus free for a quick test?": no window said ("from yesterday" stays, to be refused)
	}
	if len(when) > 0 {
		add(when...)
	}
}
