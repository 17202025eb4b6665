package lang

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Commands written as sentences: "server-a 2장 내일 오전 9시부터 3시간 예약",
// "can I grab 2 h200s on server h until 6pm?", "반납할게요 server-a",
// "who's using server-h?". ReadCommand finds the command a sentence asks
// for and restates its arguments in the commands' canonical words ("2 on
// server-a from tomorrow 9am for 3h"), so each command keeps one grammar.

// CommandReading is a sentence read as a command.
type CommandReading struct {
	Name string // reserve, release, extend, wait, status, mine, help
	Args string // the arguments in canonical words
	// Skipped are the words read as filler, as typed.
	Skipped []string
}

// commandVerbs name the command a sentence asks for, by a word anywhere in
// it (Korean stems match the start of a word: "예약해줘", "반납할게요").
var commandVerbs = []struct {
	name  string
	words []string
}{
	// "금요일 예약 오후 6시까지로 줄여줘", "노바 예약 1시간 줄여줘": an earlier end
	{"shorten", []string{"shorten", "cut short", "end early", "줄여", "줄이", "단축", "일찍 끝"}},
	{"extend", []string{"extend", "연장"}},
	{"release", []string{"release", "releasing", "cancel", "반납", "해제", "취소", "풀어", "풀게", "다 썼", "다썼"}},
	{"wait", []string{"wait", "queue", "대기", "줄서", "줄 서", "줄세", "기다", "면 알려", "면 dm", "let me know when", "open up", "opens up"}},
	// mine before reserve: "내 예약 보여줘" shows them; "내 예약 연장" and
	// "내 예약 반납" were taken by extend and release above.
	{"mine", []string{"내 예약", "내예약", "내꺼 예약", "내거 예약", "내 거 예약", "제꺼 예약", "제 거 예약", "my reservations", "my bookings", "my reservation", "my booking", "잡아둔", "잡아 둔", "잡아놓은", "잡아 놓은",
		"빌린 거", "빌린거", "예약한 거", "예약한거", "what did i book", "what have i booked", "when does my"}},
	// the reservations as a whole, before reserve: "예약 현황", "예약 상황
	// 보여줘", "show reservations" ask what is held, not to hold more
	{"status", []string{"예약 현황", "예약현황", "예약 상황", "예약상황", "예약 목록", "예약목록", "예약 리스트", "예약된 거", "예약된거",
		"show reservations", "list reservations", "all reservations", "show bookings", "list bookings", "current reservations", "current bookings",
		"한가해", "한가한", "한산", "anything i can", "anything we can"}}, // "GPU 좀 쓰고 싶은데 어디가 제일 한가해요?", "anything I can grab right now?": what is free
	{"reserve", []string{"reserve", "book", "grab", "hold", "taking", "예약", "신청", "잡아", "잡을", "빌려", "빌릴", "쓸게", "쓸께", "쓰겠", "사용할게", "사용할께", "사용하겠", "써도 되", "써도 돼", "써도 될", "사용해도",
		"써야 하는데", "써야하는데", "써야 되는데", "써야되는데", "써야 할 것 같", "써야할 것 같", "쓰고 싶", "쓰고싶", "사용하고 싶", "ㄱㄱ", "고고",
		// "다음주 화요일 오전에 h100 2장 쓸 수 있을까요?": asked as a booking
		"쓸 수 있을까", "쓸수 있을까", "쓸수있을까", "사용할 수 있을까", "사용 가능할까"}},
	{"status", []string{"status", "using", "busy", "who has", "who's on", "who is on", "who on", "whos on", "who holds", "who's got", "who got", "available", "anything free", "what's free", "whats free",
		"free right now", "free now", "idle", "full", "how busy", "any gpu", "any gpus", "쓰는 사람", "쓰는 분", "사용하는 사람", "사용하는 분", "꽉 찼", "꽉찼", "꽉 차", "꽉차", "asap", "급하게", "급한데", "몇 장 남아", "몇장 남아", "현황", "상태", "누가", "쓸 수 있는", "쓸수있는", "쓸수 있는", "쓸 수있는", "사용 가능한", "사용가능한", "놀고 있는", "놀고있는", "남는", "비어", "비었", "남았", "남아 있", "남아있", "빈 ", "빈거", "빈게", "사용중", "사용 중", "쓰고 있",
		// when someone's hold ends: "김대리가 잡은 gpu 언제 끝나요?"
		"언제 끝나", "언제끝나", "언제 풀려", "언제 비", "언제 반납", "빈자리", "빈 자리", "자리 나",
		// what the team has: "우리 서버 a100 몇 장 있어요?", "how many gpus do we have"
		"몇 장 있", "몇장 있", "몇 대 있", "몇대 있", "gpus do we have", "gpus we have", "gpu 뭐 있", "gpu 뭐있"}},
	// sizing a machine to build: "4090 8장짜리 서버 새로 맞추려는데 전원이랑
	// 쿨링 뭐 필요해?", "what psu for 4x 4090?"
	{"build", []string{"전원", "쿨링", "파워서플라이", "파워 서플라이", "조립", "psu", "power supply", "cooling", "what to build"}},
	{"help", []string{"help", "도움말", "사용법", "how do i use", "what can you do", "명령어", "어떻게 해", "어떻게 하", "how do i", "how to use"}},
}

// digestWords make a sentence about the digest (checked before the other
// verbs: "리포트 지금 미리보기" is no status question).
var digestWords = []string{"digest", "다이제스트", "리포트", "report", "요약 리포트", "주간 리포트"}

// ReadCommand reads a sentence that asks for a command other than a plan.
// It reports false for a plan request (it names a model) or a sentence
// with no command word.
//
// ReadCommand is long on purpose: finding the command, guarding plans and
// restating the arguments are one pass over one sentence.
func ReadCommand(env Env, text string) (CommandReading, bool) {
	note := ""
	if k := noteStart(text); k >= 0 {
		text, note = text[:k], quotedNote(strings.TrimSpace(text[k:]))
	}
	text = unglue(clockRange(tildeRange(hangulServers(misspeltServers(text, env.Servers, env.knownWord), env.Servers))), env.Servers)
	norm := reqStripLead(reqNormalize(text))
	low := " " + strings.ToLower(norm) + " "
	name := ""
	for _, w := range digestWords {
		if strings.Contains(low, w) {
			name = "digest"
		}
	}
	// "how do I book a gpu?", "예약 어떻게 해?": help about that command
	helpTopic := ""
	for _, h := range []string{"how do i", "how to ", "어떻게", "명령어", "도움말", "사용법", "help"} {
		if strings.Contains(low, h) && name == "" {
			for _, v := range commandVerbs {
				if v.name == "help" {
					continue
				}
				for _, w := range v.words {
					if isHangulWord(w) && strings.Contains(low, w) || strings.Contains(low, " "+w) {
						helpTopic = v.name
						break
					}
				}
				if helpTopic != "" {
					break
				}
			}
			name = "help"
			break
		}
	}
	for _, v := range commandVerbs {
		if name != "" {
			break
		}
		for _, w := range v.words {
			if isHangulWord(w) && strings.Contains(low, w) || strings.Contains(low, " "+w+" ") || strings.Contains(low, " "+w+"s ") {
				name = v.name
				break
			}
		}
		if name != "" {
			break
		}
	}
	if name == "" {
		// "ping me when 2 gpus free up on server-a", "notify me when …"
		if strings.Contains(low, " when ") && (strings.Contains(low, "ping me") || strings.Contains(low, "notify me") || strings.Contains(low, "tell me")) {
			name = "wait"
		} else if strings.Contains(low, "free up") && (strings.Contains(low, "my ") || strings.Contains(low, " i reserved") || strings.Contains(low, " i booked") ||
			strings.Contains(low, " i'm holding") || strings.Contains(low, " i hold")) || strings.Contains(low, "done with") {
			name = "release"
		} else if strings.Contains(low, "free up") || strings.Contains(low, "free gpu") || strings.Contains(low, "비면") ||
			strings.Contains(low, " free") && strings.ContainsAny(text, "?？") {
			name = "status" // "is server-a free tomorrow? need 4 gpus": asked, not booked
		}
	}
	cat := env.Catalog
	toks := reqTokenize(norm)
	servers := map[string]bool{}
	for _, h := range env.Servers {
		servers[h.Server] = true
	}
	r := &cmdReader{text: norm, raw: text, in: toks, servers: servers, now: env.Now}
	if r.now.IsZero() {
		r.now = time.Now()
	}
	// "book 4 a100s tomorrow 9am to 6pm for llama finetune": a sentence
	// that starts by booking, asks nothing and says when is a booking,
	// whatever it is for (the window is checked once read)
	// what it is for ("… for llama finetune") is kept as the note; the
	// rest must read as a booking with no model
	booking := name == "reserve" && bookingLead(low) && !strings.ContainsAny(text, "?？") && !strings.Contains(low, "몇") && !strings.Contains(low, " how ")
	if booking && note == "" {
		if k := strings.LastIndex(low, " for "); k > 0 && cat != nil {
			if purpose := reqTokenize(norm[min(k+4, len(norm)):]); namesModel(cat, purpose, nil) || planWords(purpose) {
				// "… for llama 3 8b lora": what it is for, kept as the note
				note = "note \"" + strings.TrimSpace(norm[min(k+4, len(norm)):]) + "\""
				norm = norm[:max(0, k-1)]
				low = " " + strings.ToLower(norm) + " "
				toks = reqTokenize(norm)
				r.text, r.in = norm, toks
			}
		}
	}
	if booking && note == "" && cat != nil {
		if k := strings.LastIndex(low, ","); k > 0 {
			if tail := strings.TrimSpace(norm[min(k, len(norm)):]); purposeTail(cat, reqTokenize(tail)) {
				// "grab 1 gpu on server-v until EOD, running resnet sweeps"
				note = "note \"" + tail + "\""
				norm = strings.TrimSpace(norm[:max(0, k-1)])
				low = " " + strings.ToLower(norm) + " "
				toks = reqTokenize(norm)
				r.text, r.in = norm, toks
			}
		}
	}
	booking = booking && note != "" && (cat == nil || !namesModel(cat, toks, servers)) && !planWords(toks)
	if cat != nil {
		r.gpu = func(w string) bool { _, _, err := cat.GPU(w); return err == nil }
		if namesModel(cat, toks, servers) && !booking {
			return CommandReading{}, false // a model is named: a plan, not a command
		}
	} else {
		r.gpu = func(string) bool { return false }
	}
	if name != "digest" && name != "help" && planWords(toks) && !booking {
		return CommandReading{}, false // "a 7B model using 8 gpus for 10B tokens" is a plan
	}
	if name == "status" && r.softStatus(low) {
		return CommandReading{}, false
	}
	r.read()
	if name == "help" && (helpTopic == "" || helpTopic == "reserve" && r.server != "" && r.count > 0) {
		if name = helpOrJob(env, text, r); name == "" {
			return CommandReading{}, false // "llama3 8b 풀파인튜닝 4090에서 OOM 뜨는데 어떻게 해요?": the plan says what to change
		}
	}
	if name == "status" && r.server == "" && priceAsked(low) && (strings.Contains(low, "rent") || strings.Contains(low, "빌리") || strings.Contains(low, "cloud") || strings.Contains(low, "클라우드")) {
		return CommandReading{}, false // "what does renting an h100 cost vs using our servers": a price
	}
	if name == "reserve" && r.server == "" && priceAsked(low) {
		return CommandReading{}, false // "예산 잡아야 해서요 … 3개월 쓰면 얼마예요?": a price, not a booking
	}
	if name == "reserve" && strings.Contains(low, "예약") && (strings.Contains(low, "늘려") || strings.Contains(low, "늘리") || strings.Contains(low, "늘릴")) {
		name = "extend" // "타이거 예약 내일 저녁 8시까지로 늘려줘": the booking held, made longer
	}
	if name == "" && (r.count > 0 || len(r.ids) > 0) && r.startAndEnd() && !strings.Contains(low, "얼마나") && !strings.Contains(low, "how long") {
		name = "reserve" // "이번주 금요일 오후 2시부터 저녁 8시까지 에이백 4장 부탁드려요": GPUs over a window said start to end
	}
	inventory := strings.Contains(low, "있어") || strings.Contains(low, "있나") || strings.Contains(low, "have")
	if r.server == "" && (name == "reserve" || name == "release" || name == "extend" || name == "shorten" || name == "wait" || name == "status" && !inventory) {
		// (what the team has, "우리 서버 a100 몇 장 있어요?", lists every server)
		r.serverOfGPU(env, toks)
	}
	if name == "wait" && r.windowAhead() {
		// "내일 오후에 알파 8장 … 자리 나면 잡히게 대기 걸어줘": a wait is for
		// GPUs now; for a window ahead, book it (a conflict offers the
		// earliest slot that fits)
		name = "reserve"
	}
	if name == "reserve" && (r.all || r.span != "") && r.count == 0 && len(r.ids) == 0 {
		for _, h := range env.Servers {
			if h.Server == r.server {
				r.count = h.Count // "gpu1 전부 써야하는데", "오크 하루종일": every GPU the server has
			}
		}
	}
	if booking && (r.count == 0 && len(r.ids) == 0 || r.duration == "" && len(r.points) == 0 && len(r.english) == 0) {
		return CommandReading{}, false // no count or no window: the plan words were a plan after all
	}
	if name == "" && r.server != "" && (r.count > 0 || len(r.ids) > 0) && (r.duration != "" || len(r.points) > 0 || len(r.english) > 0) &&
		(strings.Contains(low, "need") || strings.Contains(low, "want") || strings.Contains(low, "필요") || strings.Contains(low, "쓸 ") || strings.Contains(low, "쓰고싶") || strings.Contains(low, "쓰고 싶")) &&
		!strings.Contains(low, "how long") && !strings.Contains(low, "얼마나") && !strings.Contains(low, "걸렸") {
		name = "reserve" // "I need 2 gpus on server-h from 1pm to 5pm"
	}
	if name == "" {
		return CommandReading{}, false
	}
	args := r.args(name)
	switch name {
	case "help":
		args = helpTopic
	case "digest":
		args = r.digestArgs(low)
	}
	if note != "" {
		args = strings.TrimSpace(args + " " + note)
	}
	return CommandReading{Name: name, Args: args, Skipped: r.skipped}, true
}

// bookingLead reports whether a sentence starts by booking GPUs ("book 4
// a100s …", "reserve 2 on server-h …", "grab 2 gpus …").
func bookingLead(low string) bool {
	for _, w := range []string{" book ", " reserve ", " grab ", " please book ", " pls book "} {
		if strings.HasPrefix(low, w) {
			return true
		}
	}
	return false
}

// noteStart finds where a quoted note begins (`note "…"`, `메모 "…"`).
func noteStart(s string) int {
	for _, k := range []string{" note ", " 메모 ", " note:", " 메모:", " 메모는 ", " 메모를 ", " 메모로 ", " 메모에 "} {
		if i := strings.Index(s, k); i >= 0 && strings.ContainsAny(s[i:], "\"“'") {
			return i + 1
		}
	}
	return -1
}

// quotedNote writes a note said in Korean ("메모는 \"dpo 실험\"으로
// 남겨주세요") as the commands' `note "…"`: the quoted words, without the
// particle and the verb after the closing quote. Other notes stay as said.
func quotedNote(note string) string {
	if strings.HasPrefix(strings.ToLower(note), "note") {
		return note
	}
	open := strings.IndexAny(note, "\"“'")
	if open < 0 {
		return note
	}
	rest := note[open:]
	_, size := utf8.DecodeRuneInString(rest)
	end := strings.IndexAny(rest[size:], "\"”'")
	if end < 0 {
		return note
	}
	return "note \"" + rest[size:size+end] + "\""
}

type winPoint struct {
	day, clock string
	ampm       string // "am", "pm" or ""
	role       string // "from", "until" or ""
}

type cmdReader struct {
	text    string
	raw     string // as typed, for what the normaliser would cut (channel links)
	in      []reqToken
	servers map[string]bool
	gpu     func(string) bool

	server   string
	id       string
	count    int
	ids      []int
	all      bool
	english  []string // window words typed in English, kept as they are
	points   []winPoint
	cur      *winPoint
	duration string
	startIn  string // "2시간 뒤부터": the start, that long from now
	now      time.Time
	span     string // a whole day ("하루종일") or the weekend ("주말 동안") said as the window
	// gpuNoServer: a GPU type is named that no one team server has
	// ("release my V100 reservation" with no V100 server): not all of the
	// asker's GPUs
	gpuNoServer bool
	skipped     []string
}

func (r *cmdReader) w(i int) string {
	if i < 0 || i >= len(r.in) {
		return ""
	}
	return r.in[i].w
}

func (r *cmdReader) point() *winPoint {
	if r.cur == nil {
		r.points = append(r.points, winPoint{})
		r.cur = &r.points[len(r.points)-1]
	}
	return r.cur
}

// endPoint closes the point being read with a role from its particle.
func (r *cmdReader) endPoint(role string) {
	if r.cur != nil {
		if role != "" {
			r.cur.role = role
		}
		r.cur = nil
	}
}

func (r *cmdReader) read() {
	for i := 0; i < len(r.in); i++ {
		w := r.w(i)
		// servers: "server-h", "server h", "h 서버", "서버 h", "v서버"
		if r.servers[w] {
			r.server = w
			continue
		}
		if strings.HasPrefix(w, "server") && r.servers["server-"+strings.TrimLeft(strings.TrimPrefix(w, "server"), "-")] {
			r.server = "server-" + strings.TrimLeft(strings.TrimPrefix(w, "server"), "-")
			continue
		}
		if (w == "server" || strings.HasPrefix(w, "서버")) && r.servers["server-"+r.w(i+1)] {
			r.server = "server-" + r.w(i+1)
			i++
			continue
		}
		if strings.HasPrefix(r.w(i+1), "서버") && r.servers["server-"+w] {
			r.server = "server-" + w
			i++
			continue
		}
		// a reservation id: "server-h-3"
		if k := strings.LastIndexByte(w, '-'); k > 0 && r.servers[w[:k]] {
			r.id = w
			continue
		}
		if w == "all" || w == "전부" || w == "전체" || w == "모두" || w == "다" && !koDoneAfter(r.w(i+1)) {
			r.all = true
			continue
		}
		if n, rest, ok := reqScanInt(strings.TrimPrefix(w, "x")); ok && rest == "" && strings.HasPrefix(w, "x") && r.count == 0 {
			r.count = n // "book rocket x2 this evening"
			continue
		}
		if _, _, date := r.koDate(i); !date {
			if n := r.number(i); n > i {
				i = n - 1
				continue
			}
		}
		if n := r.koreanTime(i); n > i {
			i = n - 1
			continue
		}
		if isHangulWord(w) {
			r.skipped = append(r.skipped, r.in[i].raw)
			continue
		}
		if w == "for" && (r.w(i+1) == "me" || r.w(i+1) == "us" || r.w(i+1) == "myself" || r.w(i+1) == "my" || r.w(i+1) == "our") {
			i++ // "book 2 a100s for me tomorrow …": who for, not how long
			continue
		}
		if w == "for" && reqStartsNumber(r.w(i+1)) && (strings.HasPrefix(r.w(i+2), "gpu") || r.gpu(strings.TrimSuffix(r.w(i+2), "s"))) {
			continue // "queue me for 4 GPUs on falcon": what for, the count after it
		}
		if r.englishSpan(i) {
			continue
		}
		if reqStartsNumber(w) && r.in[min(i+1, len(r.in)-1)].raw == ":" && i+2 < len(r.in) && reqStartsNumber(r.w(i+2)) {
			r.english = append(r.english, w+":"+r.w(i+2)) // "18:00", cut at its colon by the tokenizer
			i += 2
			continue
		}
		if isWindowWord(w) || reqStartsNumber(w) || strings.HasSuffix(w, "am") || strings.HasSuffix(w, "pm") ||
			w == "in" && (reqStartsNumber(r.w(i+1)) || r.w(i+1) == "an" || r.w(i+1) == "half") { // "in 2 hours": the start

			r.english = append(r.english, r.in[i].raw)
			continue
		}
		if w == "gpus" || w == "gpu" || w == "ids" {
			continue
		}
		if r.gpu(w) || len(w) > 1 && r.gpu(strings.TrimSuffix(w, "s")) {
			continue // the server decides the GPU type: "2 h200s on server h"
		}
		if _, ok := englishNumbers[w]; ok {
			continue
		}
		r.skipped = append(r.skipped, r.in[i].raw)
	}
}

// isWindowWord is a word of the English window grammar (ParseWindow's).
func isWindowWord(w string) bool {
	switch w {
	case "for", "from", "starting", "at", "until", "till", "til", "to", "now", "today", "tomorrow", "tonight",
		"noon", "midnight", "eod", "cob", "am", "pm", "h", "hr", "hrs", "hour", "hours", "m", "min", "mins", "minute", "minutes",
		"d", "day", "days", "w", "week", "weeks", "half", "an", "next", "more", "by", "-", "mon", "tue", "tues",
		"wed", "thu", "thurs", "fri", "sat", "sun", "monday", "tuesday", "wednesday", "thursday", "friday",
		"saturday", "sunday", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec":
		return true
	}
	return false
}

// number reads counts and GPU ids: "2장", "두 장", "2 gpus", "a single gpu",
// "0번 1번", "0~3번", "gpus 0,1".
func (r *cmdReader) number(i int) int {
	w := r.w(i)
	next := r.w(i + 1)
	// Korean native numbers with a counter: "두 장", "한장"
	for n, v := range koNumbers {
		if w == n && isCounterWord(next) {
			r.count = v
			return i + 2
		}
		if strings.HasPrefix(w, n) && isCounterWord(w[len(n):]) {
			r.count = v
			return i + 1
		}
	}
	if (w == "gpus" || w == "gpu" || w == "ids") && reqStartsNumber(next) && !isCounterWord(r.w(i+2)) {
		// "gpus 0,1", "gpus 0-3": the tokenizer cut "0,1" at its comma
		j := i + 1
		list := ""
		for reqStartsNumber(r.w(j)) || r.w(j) == "," && reqStartsNumber(r.w(j+1)) {
			list += r.w(j)
			j++
		}
		if ids, err := ParseIDs(list); err == nil {
			r.ids = ids
			return j
		}
	}
	n, rest, ok := reqScanInt(w)
	if !ok {
		if (w == "하나" || w == "하나만" || w == "한장" || w == "한장만" || w == "한개" || w == "한개만") && r.count == 0 && len(r.ids) == 0 {
			r.count = 1 // "server-a 하나만 오늘 저녁까지 빌려주세요": one GPU
			return i + 1
		}
		if v, ok := englishNumbers[w]; ok && (isCounterWord(next) || next == "more" || r.gpu(strings.TrimSuffix(next, "s")) && v >= 1 && v <= 64) { // "book one 3090", "two a100s"
			r.count = int(v)
			return i + 2
		}
		if (w == "a" || w == "an") && (next == "single" || next == "pair" || next == "couple") {
			r.count = int(englishNumbers[next])
			if r.w(i+2) == "of" {
				return i + 3
			}
			return i + 2
		}
		return i
	}
	switch {
	case rest == "" && (next == "번" || strings.HasPrefix(next, "번")):
		r.ids = append(r.ids, n)
		return i + 2
	case rest == "" && (next == "~" || next == "-") && strings.HasSuffix(r.w(i+3), "번"):
		if m, _, ok := reqScanInt(r.w(i + 2)); ok && m >= n && m-n < 64 {
			for k := n; k <= m; k++ {
				r.ids = append(r.ids, k)
			}
			return i + 4
		}
	case strings.Contains(w, "~") || strings.Contains(w, "-") && rest != "" && strings.HasPrefix(next, "번"):
		if ids, err := ParseIDs(strings.ReplaceAll(w, "~", "-")); err == nil {
			r.ids = ids
			return i + 2
		}
	case rest == "" && (isCounterWord(next) || r.gpu(strings.TrimSuffix(next, "s"))):
		r.count = n
		return i + 2
	case rest == "x" || rest == "gpus" || rest == "gpu":
		r.count = n
		return i + 1
	case rest == "" && r.count == 0 && !isTimeFollow(next) && !isWindowWord(next) && (i == 0 || !isWindowWord(r.w(i-1))) && r.in[min(i+1, len(r.in)-1)].raw != ":":
		r.count = n // "reserve 2 on server-h"
		return i + 1
	}
	return i
}

func isCounterWord(w string) bool {
	switch w {
	case "장", "개", "대", "gpus", "gpu", "cards", "card", "장만", "개만":
		return true
	}
	for _, c := range []string{"장", "개", "대"} {
		if strings.HasPrefix(w, c) && (len(w) == len(c) || !isTimeFollow(w)) {
			rest := strings.TrimSuffix(w[len(c):], "요") // "8장으로요": the polite ending after the particle
			return rest == "" || slicesContains(koParticles, rest) || rest == "만" || rest == "씩"
		}
	}
	return false
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isTimeFollow reports whether a word after a number makes it a time.
func isTimeFollow(w string) bool {
	return strings.HasPrefix(w, "시") || strings.HasPrefix(w, "분") || strings.HasPrefix(w, "일") ||
		strings.HasPrefix(w, "주") || w == "h" || w == "m" || w == "d" || w == "hours" || w == "hour" ||
		w == "am" || w == "pm" || w == ":"
}

func twoDigits(m int) string {
	if m < 10 {
		return "0" + strconv.Itoa(m)
	}
	return strconv.Itoa(m)
}

func (r *cmdReader) addDuration(d string) {
	if r.duration == "" {
		r.duration = d
	}
	r.endPoint("")
}

// args writes what was read in the command's canonical words.
func (r *cmdReader) args(name string) string {
	var out []string
	add := func(s ...string) { out = append(out, s...) }
	switch name {
	case "reserve", "wait":
		if r.count > 0 {
			add(strconv.Itoa(r.count))
		}
		if len(r.ids) > 0 {
			var s []string
			for _, id := range r.ids {
				s = append(s, strconv.Itoa(id))
			}
			add("gpus", strings.Join(s, ","))
		}
		if r.server != "" {
			add("on", r.server)
		}
		r.window(add)
	case "release":
		switch {
		case r.id != "":
			add(r.id)
		case r.server != "" && r.all:
			add(r.server, "all") // "hopper 전부 반납", "오크 예약한거 다": every one of the asker's there, not everywhere
		case r.server != "":
			add(r.server)
		case r.unknownServer() != "":
			add(r.unknownServer(), "all") // "오크 예약한거 다" with no oak: refused by name, not every booking
		case r.all:
			add("all")
		case r.mineSaid() && !r.gpuNoServer:
			add("all") // "제가 빌린 GPU 반납할게요", "releasing my gpus": all of the asker's
		}
		if day := r.dayOnly(); day != "" && r.id == "" {
			add(day) // "내일 예약한거 취소해줘": those held that day
		}
		if r.duration != "" && r.id == "" {
			add("lasting", r.duration) // "그 그린 5시간짜리 예약 취소": the one that long
		}
	case "extend", "shorten":
		// ParseExtend's words: [id | server] (by <duration> | until <point>);
		// with neither, the user's only reservation.
		if r.id != "" {
			add(r.id)
		} else if r.server != "" {
			add(r.server)
		} else if justBooked(r.raw) {
			add("last") // "방금 잡은 예약 1시간 줄여줘": the one made last
		}
		r.extendAmount(add)
	case "status":
		if r.server != "" {
			add(r.server)
		}
		r.statusWindow(add) // "what's free tonight at 10pm?": every server then
	case "build":
		add(r.buildArgs())
	}
	return strings.Join(out, " ")
}

// extendAmount writes how much later an extension ends: the Korean words'
// "by <duration>" or "until <point>" (a time in an extend sentence is the
// new end: "저녁 8시까지 연장"), else the English window words as typed
// ("by 2h", "until 8pm", "1 hour"), a bare unit counting one ("another
// hour" → "1 hour").
func (r *cmdReader) extendAmount(add func(...string)) {
	if day := r.dayOnly(); day != "" && r.duration != "" {
		add(day, "by", r.duration) // "내일 알파 예약 2시간만 연장해줘": the day says which booking
		return
	}
	for k := len(r.points) - 1; k >= 0; k-- {
		if words := strings.TrimSpace(r.points[k].day + " " + r.points[k].clock); words != "" && words != "now" {
			add("until", words)
			return
		}
	}
	if r.duration != "" {
		add("by", r.duration)
		return
	}
	var en []string
	for _, w := range r.english {
		if lw := strings.ToLower(w); lw != "next" && lw != "the" && lw != "more" {
			en = append(en, w)
		}
	}
	if len(en) > 0 {
		if _, unit := durationUnits[strings.ToLower(en[0])]; unit && len(en[0]) > 1 {
			en = append([]string{"1"}, en...)
		}
	}
	add(en...)
}

// digestArgs writes a digest sentence in the digest command's words:
// "[#channel] daily 09:00", "weekly mon 09:00", "off", "list", "now".
func (r *cmdReader) digestArgs(low string) string {
	var out []string
	if ch := channelRef(r.raw); ch != "" {
		out = append(out, ch)
	}
	has := func(ws ...string) bool {
		for _, w := range ws {
			if strings.Contains(low, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has(" off ", "turn off", " stop", "꺼", "끄", "중지", "취소"):
		return strings.Join(append(out, "off"), " ")
	case has(" list", "목록", "schedules", "리스트"):
		return "list"
	case has(" now", "지금", "미리보기", "preview", "show me"):
		return strings.Join(append(out, "now"), " ")
	}
	clock := ""
	day := ""
	for _, p := range r.points {
		if p.clock != "" {
			clock = p.clock
		}
		if p.day != "" && p.day != "today" && p.day != "tomorrow" && p.day != "now" {
			day = p.day
		}
	}
	for _, w := range r.english {
		lw := strings.ToLower(w)
		if h, m, ok := Clock(lw); ok {
			clock = strconv.Itoa(h) + ":" + twoDigits(m)
		}
		if d, ok := Weekday(lw); ok {
			day = strings.ToLower(d.String()[:3])
		}
	}
	for k := range whenWeekdays {
		if !isHangulWord(k) && strings.Contains(low, " "+k+" ") || strings.Contains(low, " every "+k) {
			day = k[:3]
		}
	}
	if clock == "" {
		return strings.Join(out, " ")
	}
	if len(clock) == 4 {
		clock = "0" + clock // "9:00" → "09:00"
	}
	if day != "" || has("weekly", "매주", "주간", "every week") {
		if day == "" {
			day = "mon"
		}
		return strings.Join(append(out, "weekly", day, clock), " ")
	}
	return strings.Join(append(out, "daily", clock), " ")
}

// channelRef finds the channel a sentence names: Slack's link form
// ("<#C0123|ml-infra>", what the client sends for a picked channel) or a
// typed "#name", with any Korean particle after it dropped.
func channelRef(text string) string {
	if i := strings.Index(text, "<#"); i >= 0 {
		if j := strings.IndexByte(text[i:], '>'); j > 0 {
			return text[i : i+j+1]
		}
	}
	for _, f := range strings.Fields(text) {
		if strings.HasPrefix(f, "#") && len(f) > 1 {
			end := len(f)
			for k, r := range f {
				if k > 0 && (isHangul(r) || strings.ContainsRune(",.?!)", r)) {
					end = k
					break
				}
			}
			return f[:end]
		}
	}
	return ""
}

// planWords reports whether the words say a plan: a workload, an amount of
// work or a model size.
func planWords(toks []reqToken) bool {
	for k, t := range toks {
		if kw, ok := reqKeywords[t.w]; ok && (kw.kind == reqKwWorkload || kw.kind == reqKwPrecision) {
			return true
		}
		if n, unit, ok := reqScanNumber(t.w); ok {
			if unit == "" && k+1 < len(toks) {
				unit = toks[k+1].w
			}
			switch reqUnitClass(unit) {
			case reqUEpochs, reqUSamples, reqUTokens, reqUSteps, reqUParams:
				return true
			}
			if n.mult == 'b' {
				return true // "7b": a model size ("30m" is half an hour to a reservation)
			}
		}
		if _, _, ok := koStem(t.w); ok {
			if e := koLexicon()[t.w]; e.act == koWord && (e.word == "epochs" || e.word == "tokens" || e.word == "samples" ||
				e.word == "finetune" || e.word == "pretrain" || e.word == "inference") {
				return true
			}
		}
	}
	return false
}

// softStatus reports whether a status word ("using", "available", "busy")
// stands without anything that makes it a question about the servers: no
// server, no "who", no "any", no "free".
func (r *cmdReader) softStatus(low string) bool {
	for _, w := range []string{"who", "any ", "free", "status", "현황", "상태", "상황", "누가", "남는", "비어", "빈 ", "빈거", "빈게", "server", "서버", "예약", "reservations", "bookings", "쓸 수 있는", "쓸수있는", "쓸수 있는", "쓸 수있는", "남았", "사용 가능한", "사용가능한", "놀고",
		"언제 끝나", "언제끝나", "언제 풀려", "언제 비", "잡은 gpu", "잡은 거", "빈자리", "빈 자리", "자리 나", "한가", "한산", "idle", "꽉", "asap", "급하", "busy", "anything i can", "anything we can"} {
		if strings.Contains(low, w) {
			return false
		}
	}
	for s := range r.servers {
		if strings.Contains(low, s) {
			return false
		}
	}
	return true
}

// buildArgs writes the machine a build sentence sizes ("4090 8장짜리 서버",
// "4x 4090"): the count said with a counter or an x, not a GPU's model
// number read as one, and the GPU.
func (r *cmdReader) buildArgs() string {
	n, gpu := 1, ""
	for i, t := range r.in {
		if w := strings.TrimSuffix(t.w, "s"); gpu == "" && (r.gpu(t.w) || r.gpu(w)) {
			gpu = w
			continue
		}
		v, rest, ok := reqScanInt(t.w)
		if !ok || v < 1 {
			continue
		}
		switch {
		case rest == "장" || rest == "장짜리" || rest == "x" || rest == "개" || rest == "대",
			rest == "" && (strings.HasPrefix(r.w(i+1), "장") || r.w(i+1) == "x" || r.w(i+1) == "gpus"):
			n = v
		}
	}
	if gpu == "" {
		return ""
	}
	return strconv.Itoa(n) + "x " + gpu
}

// helpOrJob settles a "how do I" said beside a concrete job: a plan that
// reads ("… OOM 뜨는데 어떻게 해요?": "" — the plan's answer says what to
// change), GPUs of a server wanted ("h 서버 2장 오늘 저녁까지 쓰고 싶은데
// 어떻게 해요?": a booking), else help.
func helpOrJob(env Env, text string, r *cmdReader) string {
	if r.server != "" && (r.count > 0 || len(r.ids) > 0) {
		return "reserve"
	}
	env.noVariant = true
	if rd, err := Read(env, text); err == nil && !rd.StandIn {
		return ""
	}
	return "help"
}

// mineSaid reports whether the sentence says the GPUs are the asker's own
// ("제가 빌린", "내가 잡은", "my gpus", "the gpu I reserved"): releasing them is releasing all of
// the asker's reservations.
func (r *cmdReader) mineSaid() bool {
	for i := range r.in {
		switch w := r.w(i); {
		case w == "my" || w == "mine" || w == "제가" || w == "내가" || w == "제" || w == "내" || w == "저희가":
			return true
		case w == "i" && (r.w(i+1) == "reserved" || r.w(i+1) == "booked" || r.w(i+1) == "took" || r.w(i+1) == "grabbed" || r.w(i+1) == "have"):
			return true // "the gpu I reserved"
		}
	}
	return false
}

// priceAsked reports whether a sentence asks what something costs ("얼마예요",
// "비용", "how much", "cost"): a rental priced, not GPUs booked.
func priceAsked(low string) bool {
	for _, w := range []string{"얼마", "비용", "예산", "원화", "how much", "cost", "price", "budget"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}
