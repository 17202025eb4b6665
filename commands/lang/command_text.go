package lang

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// gluedDay is a day or a particle run into the next word of a booking
// typed without spaces ("server-v1장금요일까지빌릴게요").
var gluedDay = regexp.MustCompile(`([장개대])(월요일|화요일|수요일|목요일|금요일|토요일|일요일|내일|오늘|모레)|(까지|부터)(\p{Hangul})`)

// notServerWords are the words that stand before 예약 or 서버 in a
// sentence and name no server: whose booking, which one, when.
var notServerWords = []string{"내", "제", "나", "저", "우리", "저희", "그", "이", "저", "모든", "전체", "전부", "다", "오늘", "내일", "모레", "어제", "방금", "아까",
	"이번", "다음", "지난", "주말", "오전", "오후", "저녁", "밤", "아침", "새벽", "my", "the", "all", "our", "this", "that", "gpu", "gpus"}

// unknownServer is the word a release names as its server when the team
// has no server by that name ("오크 예약한거 다 반납" with no oak): the
// word before 예약 or 서버 that is no GPU, number, day or pronoun. ""
// when there is none. A release must not fall back to every booking
// because a name was not known.
func (r *cmdReader) unknownServer() string {
	for i := 0; i+1 < len(r.in); i++ {
		w, next := r.w(i), r.w(i+1)
		if !strings.HasPrefix(next, "예약") && !strings.HasPrefix(next, "서버") && next != "booking" && next != "bookings" && next != "reservation" && next != "server" {
			continue
		}
		if r.servers[w] || r.gpu(w) || reqStartsNumber(w) || isDayWord(w) || strings.HasSuffix(w, "요일") || slices.Contains(notServerWords, w) {
			return ""
		}
		if _, num := koNumbers[w]; num {
			return ""
		}
		return w
	}
	return ""
}

// justBooked reports whether a sentence names the booking made last
// ("방금 잡은 예약", "the one I just booked").
func justBooked(text string) bool {
	low := strings.ToLower(text)
	for _, w := range []string{"방금 잡은", "방금 예약한", "방금 한 예약", "아까 잡은", "just booked", "just made", "just reserved", "latest booking", "last booking", "most recent"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// slashMonthDay is a month and day written with a slash in a command
// ("12/10 하루종일 gpu2 전부 예약"), as Korean and American dates put them.
var slashMonthDay = regexp.MustCompile(`(^|\s)(\d{1,2})/(\d{1,2})(\s|$|[,.!?에부까])`)

// nativeHours is a native number said before hours or minutes, apart
// ("한 시간", "두 시간 반", "세 시간만"); glued ones ("한시간") are read
// as words.
var nativeHours = regexp.MustCompile(`(^|\s)(한|두|세|네|다섯|여섯|일곱|여덟|아홉|열|열두)\s+(시간|분)`)

// unglue spaces a booking typed without them: a team server's name run
// into its GPU count ("server-v1장": server-v, 1장, unless server-v1 is a
// server too), a counter into the day after it ("장금요일까지"), and a
// day's particle into the verb ("까지빌릴게요"). "줄 서줘" (queue me) is
// joined the other way: apart, 줄 is a row of data, the sentence a plan.
func unglue(text string, servers []planner.Hardware) string {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "줄 서", "줄서"), "줄 세", "줄세")
	text = slashMonthDay.ReplaceAllStringFunc(text, func(m string) string {
		sub := slashMonthDay.FindStringSubmatch(m)
		mo, _ := strconv.Atoi(sub[2])
		d, _ := strconv.Atoi(sub[3])
		if mo < 1 || mo > 12 || d < 1 || d > 31 {
			return m
		}
		if !strings.ContainsFunc(text, isHangul) {
			return sub[1] + strings.ToLower(time.Month(mo).String()[:3]) + " " + sub[3] + sub[4] // "book 2 on titan 12/10 …": dec 10
		}
		return sub[1] + sub[2] + "월 " + sub[3] + "일" + sub[4] // "12/10 하루종일": December 10th
	})
	text = nativeHours.ReplaceAllStringFunc(text, func(m string) string {
		sub := nativeHours.FindStringSubmatch(m)
		return sub[1] + strconv.Itoa(koNumbers[sub[2]]) + sub[3] // "한 시간 줄여줘": 1시간
	})
	known := map[string]bool{}
	for _, h := range servers {
		known[strings.ToLower(h.Server)] = true
	}
	for name := range known {
		low := strings.ToLower(text)
		for at := 0; ; {
			k := strings.Index(low[at:], name)
			if k < 0 {
				break
			}
			k += at
			end := k + len(name)
			at = end
			if end >= len(text) || text[end] < '0' || text[end] > '9' {
				continue
			}
			tok := end
			for tok < len(low) && (low[tok] == '-' || low[tok] >= '0' && low[tok] <= '9' || low[tok] >= 'a' && low[tok] <= 'z') {
				tok++
			}
			if known[low[k:tok]] {
				continue // "server-v1" is a server of its own
			}
			text = text[:end] + " " + text[end:]
			low = strings.ToLower(text)
			at = end + 1
		}
	}
	return gluedDay.ReplaceAllStringFunc(text, func(m string) string {
		sub := gluedDay.FindStringSubmatch(m)
		if sub[1] != "" {
			return sub[1] + " " + sub[2]
		}
		return sub[3] + " " + sub[4]
	})
}
