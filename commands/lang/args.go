package lang

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The reservation commands' arguments, read into typed values: reserve,
// wait, release and extend. The commands decide and act on what these
// return; every word of their grammar is read here.

// Servers is what the command readers know of the team's servers.
type Servers struct {
	// Names are the servers' names, as the servers file lists them.
	Names []string
	// Resolve reads a server as typed ("server-h", "h", "h200") and
	// returns its name; its error is shown as it is. Nil matches Names
	// exactly (ignoring case).
	Resolve func(word string) (name string, err error)
}

func (s Servers) resolve(w string) (string, error) {
	if s.Resolve != nil {
		return s.Resolve(w)
	}
	for _, n := range s.Names {
		if strings.EqualFold(n, w) {
			return n, nil
		}
	}
	return "", said(en.Tf("unknown server `%s`", w), &UserError{Hint: "servers: " + strings.Join(s.Names, ", ")})
}

// reservationID reports whether w is a reservation id: a server's name,
// a dash and more ("server-h-3", "server-h-12k3x").
func (s Servers) reservationID(w string) bool {
	k := strings.LastIndexByte(w, '-')
	if k <= 0 || k == len(w)-1 {
		return false
	}
	for _, n := range s.Names {
		if strings.EqualFold(n, w[:k]) {
			return true
		}
	}
	return false
}

// ReserveArgs is a reserve command as read.
type ReserveArgs struct {
	Count  int    // how many GPUs; 0 when GPUs names them
	GPUs   []int  // which GPUs, by id
	Server string // the server's name, resolved
	Window When
	Note   string
}

const reserveHint = "try: `reserve 2 on server-h for 4h` or `reserve gpus 0-3 on server-a from tomorrow 9:00 for 8h`"

// windowLead are the words a window's number follows ("for 3 hours",
// "next 2 hours", "in 30 minutes").
var windowLead = map[string]bool{"for": true, "next": true, "in": true, "another": true}

// ParseReserve reads `reserve <n> [gpus] on <server> <window> [note "…"]`
// and `reserve gpus <ids> on <server> <window>`, the words in any order:
//
//	reserve = (count ["gpus"] | ("gpus"|"gpu"|"ids") ids) "on" server window [note] .
//	count   = 1…999 ["x"|"gpus"] .                       "2", "2x", "2gpus"
//	ids     = id {"," id} | id "-" id .                   "0-3", "0,2"
//	window  = ParseWindow's words, with an end .          "for 4h", "from 14:00 until 18:00"
//	note    = ["note"] quoted | "note" {word} .           note "bert sweep"
//
// The window is read with now and loc. A mistake is a *UserError with its
// Field set (server, count, ids, note, or the window's own).
func ParseReserve(args string, srv Servers, now time.Time, loc *time.Location) (ReserveArgs, error) {
	var a ReserveArgs
	words, note, err := splitNote(args)
	if err != nil {
		return a, inField(userErrorf(reserveHint, en.Tf("%s", err.Error())), FieldNote)
	}
	a.Note = note
	var rest []string
	for i := 0; i < len(words); i++ {
		w := strings.ToLower(words[i])
		switch {
		case w == "on" && i+1 < len(words) && isDayWord(strings.ToLower(words[i+1])):
			// "… for 3h on fri": the day, not a server (the window reads it)
		case w == "on" && i+1 < len(words):
			name, err := srv.resolve(words[i+1])
			if err != nil {
				return a, inField(err, FieldServer)
			}
			a.Server = name
			i++
		case (w == "gpus" || w == "gpu" || w == "ids") && a.Count == 0 && i+1 < len(words):
			ids, err := ParseIDs(words[i+1])
			if err != nil {
				return a, inField(userErrorf(reserveHint, en.Tf("`%s` is not a list of GPU ids (use 0-3 or 0,2)", words[i+1])), FieldIDs)
			}
			a.GPUs = ids
			i++
		case a.Count == 0 && a.GPUs == nil && isCount(w) && !(i > 0 && windowLead[strings.ToLower(words[i-1])]) && !(i+1 < len(words) && hourWords[strings.ToLower(words[i+1])]):
			a.Count = countOf(w) // not "for 3 hours": the window's
		case w == "gpus" || w == "gpu" || w == "asap" || w == "please" || w == "pls":
			// "reserve 2 on hana asap": a start is now unless said
		default:
			rest = append(rest, words[i])
		}
	}
	if a.Server == "" {
		return a, inField(userErrorf(reserveHint, en.Tf("which server? say `on <server>` (%s)", strings.Join(srv.Names, ", "))), FieldServer)
	}
	if a.Count == 0 && len(a.GPUs) == 0 {
		return a, inField(userErrorf(reserveHint, en.Tf("how many GPUs? say `reserve 2 on %s …` or `reserve gpus 0-1 on %s …`", a.Server, a.Server)), FieldCount)
	}
	win, left, err := ParseWindow(rest, now, loc)
	if err != nil {
		return a, err
	}
	if len(left) > 0 {
		return a, userErrorf(reserveHint, en.Tf("I don't understand `%s`", strings.Join(left, " ")))
	}
	if win.End.IsZero() {
		return a, inField(userErrorf(reserveHint, en.T("for how long? add `for 4h` or `until 18:00`")), FieldDuration)
	}
	a.Window = win
	return a, nil
}

// isCount reads a GPU count as the reserve and wait commands take it: "2",
// "2x", "2gpus" (1 to 999).
func isCount(w string) bool {
	n := countOf(w)
	return n > 0 && n < 1000
}

func countOf(w string) int {
	n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSuffix(w, "gpus"), "x"))
	if err != nil {
		return 0
	}
	return n
}

// splitNote takes `note "…"` (or a quoted string anywhere) out of args.
func splitNote(args string) ([]string, string, error) {
	i := strings.IndexAny(args, `"'`)
	if i < 0 {
		words := strings.Fields(args)
		for j, w := range words {
			if strings.EqualFold(w, "note") && j+1 < len(words) {
				return words[:j], strings.Join(words[j+1:], " "), nil
			}
		}
		return words, "", nil
	}
	q := args[i]
	j := strings.IndexByte(args[i+1:], q)
	if j < 0 {
		return nil, "", fmt.Errorf("the note's quote is not closed: %s", args[i:])
	}
	note := args[i+1 : i+1+j]
	before := strings.TrimSpace(args[:i])
	before = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(before, "note"), "NOTE"))
	words := append(strings.Fields(before), strings.Fields(args[i+2+j:])...)
	if len(note) > 300 {
		return nil, "", fmt.Errorf("the note is %d characters; keep it under 300", len(note))
	}
	return words, note, nil
}

// WaitArgs is a wait command as read.
type WaitArgs struct {
	Count  int
	Server string        // the server's name, resolved
	For    time.Duration // how long to stay in line
}

// DefaultWait is how long a wait lasts when the words do not say.
const DefaultWait = 24 * time.Hour

const waitHint = "try: `wait 4 on server-h` or `wait 2 on server-a for 8h`"

// ParseWait reads `wait <n> on <server> [for <duration>]`:
//
//	wait = count ["gpus"] "on" server ["for" duration] .
//
// The wait lasts DefaultWait unless a duration says otherwise.
func ParseWait(args string, srv Servers) (WaitArgs, error) {
	a := WaitArgs{For: DefaultWait}
	words := strings.Fields(args)
	for i := 0; i < len(words); i++ {
		w := strings.ToLower(words[i])
		switch {
		case w == "on" && i+1 < len(words):
			name, err := srv.resolve(words[i+1])
			if err != nil {
				return a, inField(err, FieldServer)
			}
			a.Server = name
			i++
		case w == "for" && i+1 < len(words) && a.Count == 0 && isCount(strings.ToLower(words[i+1])):
			// "wait for 4 gpus on server-a": a bare number is no duration
			a.Count = countOf(strings.ToLower(words[i+1]))
			i++
		case w == "for" && i+1 < len(words):
			d, err := ParseDuration(words[i+1])
			if err != nil {
				return a, inField(err, FieldDuration)
			}
			a.For = d
			i++
		case a.Count == 0 && isCount(w):
			a.Count = countOf(w)
		case w == "gpus" || w == "gpu":
		default:
			return a, userErrorf(waitHint, en.Tf("I don't understand `%s`", words[i]))
		}
	}
	if a.Server == "" || a.Count == 0 {
		return a, userErrorf(waitHint, en.T("wait for how many GPUs on which server?"))
	}
	return a, nil
}

// takeForce removes `--force` (or `force`) from words and says whether it
// was there.
func takeForce(words []string) ([]string, bool) {
	var kept []string
	force := false
	for _, w := range words {
		if w == "--force" || w == "force" {
			force = true
			continue
		}
		kept = append(kept, w)
	}
	return kept, force
}

// ReleaseArgs is a release command as read: one of ID, Server or All.
type ReleaseArgs struct {
	ID     string // a reservation id, or a word to look up as one
	Server string // the server's name: the user's reservations there
	All    bool   // every reservation the user holds (on Server, when named)
	Force  bool   // --force: an admin releasing someone else's
	// Day limits All or Server to the reservations held on that day, as
	// typed ("내일 예약한거 취소해줘": release tomorrow).
	Day string
	// Lasting limits them to the booking of about that length ("그 5시간
	// 짜리 예약 취소": release green lasting 5h).
	Lasting time.Duration
}

// ParseRelease reads `release <id> | <server> [all] | all [--force]`:
//
//	release = (id | server ["all"] | "all") ["--force"|"force"] .
//
// A word that is a server's name followed by a dash is an id
// ("server-h-3"), whatever the server resolver would make of it. Force is
// read even when the rest is missing, so the caller can tell a user who
// may not force that first.
func ParseRelease(args string, srv Servers) (ReleaseArgs, error) {
	words, force := takeForce(strings.Fields(args))
	a := ReleaseArgs{Force: force}
	if k := slices.Index(words, "lasting"); k >= 0 && k+1 < len(words) {
		d, err := ParseDuration(words[k+1])
		if err != nil {
			return a, userErrorf("`release <server> lasting 5h`: the booking of that length", en.Tf("`%s` is not a duration", words[k+1]))
		}
		a.Lasting, words = d, slices.Delete(words, k, k+2)
	}
	if n := len(words); n > 0 && isDayWord(strings.ToLower(words[n-1])) {
		a.Day, words = words[n-1], words[:n-1]
		if len(words) == 0 {
			words = []string{"all"} // "release tomorrow": the user's held that day
		}
	}
	if n := len(words); n > 1 && strings.EqualFold(words[n-1], "all") {
		// "release oak all": every one of the user's on that server, with
		// no question which
		a.All, words = true, words[:n-1]
	}
	what := strings.Join(words, " ")
	switch {
	case what == "":
		return a, userErrorf("`release <id>`, `release <server>` or `release all` — `mine` lists your reservations", en.T("release what?"))
	case strings.EqualFold(what, "all") || allMine(what):
		a.All = true // "release my gpus", "release mine": all of the user's
	default:
		if name, err := srv.resolve(what); err == nil && !strings.Contains(strings.TrimPrefix(what, name), "-") {
			a.Server = name
		} else if !a.All && !strings.ContainsFunc(what, isHangul) {
			a.ID = what
		} else {
			return a, userErrorf("`release <id>`, `release <server>` or `release all` — `mine` lists your reservations", en.Tf("unknown server `%s`", what))
		}
	}
	return a, nil
}

// allMine reports whether a release names the user's own reservations
// as a whole: "my gpus", "mine", "my reservations", "everything", "내 거".
func allMine(what string) bool {
	switch strings.ToLower(strings.Trim(what, " .!?")) {
	case "my gpus", "my gpu", "mine", "my reservations", "my reservation", "my bookings", "my booking", "them", "everything",
		"all of them", "all mine", "내 거", "내거", "내꺼", "제 거", "내 gpu", "제 gpu", "내 예약", "제 예약":
		return true
	}
	return false
}

// ExtendArgs is an extend command as read. It names the reservation by ID,
// or by Server (the user's only reservation there), or neither (the user's
// only reservation anywhere); and says how much later it ends: By, or the
// end Until names, read against the reservation by End.
type ExtendArgs struct {
	ID     string
	Server string // the server's name, resolved
	By     time.Duration
	// Until is the new end as typed ("until", "20:00"), when the words
	// name a time rather than a duration.
	Until []string
	// Day is the day the booking meant is held on, as typed ("tomorrow",
	// "fri"): "extend my booking tomorrow on gpu1 by 1 hour".
	Day   string
	Force bool
	// Last names the user's booking made last ("extend last 1h", "방금
	// 잡은 예약").
	Last bool
}

// OnDay reports whether a window from start to end holds some of the
// day a.Day names, or of the day of the new end Until names; true when
// neither names a day.
func (a ExtendArgs) OnDay(start, end, now time.Time, loc *time.Location) bool {
	switch {
	case a.Day != "":
		return OnDay(a.Day, start, end, now, loc)
	case len(a.Until) > 1 && isDayWord(strings.ToLower(a.Until[1])):
		t, err := untilPoint(a.Until, now, loc)
		return err != nil || holdsDay(t, start, end, loc)
	}
	return true
}

const extendHint = "try: `extend server-h-3 2h`, `extend server-h 2h` or `extend server-h-3 until 20:00` — `mine` lists your reservations"

// OnDay reports whether a window from start to end holds some of the day
// the word names ("tomorrow", "fri"); true when it names none.
func OnDay(word string, start, end, now time.Time, loc *time.Location) bool {
	w, _, err := ParseWindow([]string{"from", word}, now, loc)
	if err != nil {
		return true
	}
	day := w.Start
	if day.IsZero() {
		day = now // "today"
	}
	return holdsDay(day, start, end, loc)
}

// holdsDay reports whether a window from start to end is a booking of the
// calendar day of t in loc: it starts that day, or it began earlier and
// still holds the GPUs past that day's 9:00. Tonight's booking that runs
// a few minutes past midnight is not tomorrow's ("내일 예약 취소" leaves it).
func holdsDay(t, start, end time.Time, loc *time.Location) bool {
	t = t.In(loc)
	from := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
	if !start.Before(from) {
		return start.Before(from.AddDate(0, 0, 1))
	}
	return end.After(from.Add(9 * time.Hour))
}

// ParseExtend reads the extend command:
//
//	extend = [id | server] amount ["--force"|"force"] .
//	amount = ["by"|"for"] duration | ("until"|"till"|"to"|"by") point .
//
// "extend server-h-3 2h", "extend server-h by 90m", "extend 1 hour",
// "extend server-h-3 until 20:00", "extend until fri 18:00". The target is
// the first word when it is an id or a server (ids win: "server-h-3" is
// never the server); any other first word that is not part of the amount
// is taken as an id to look up. Durations are ParseWindow's ("2h",
// "2 hours", "an hour", "1d12h"); points too ("20:00", "8pm", "tomorrow
// 9:00"). The point is checked here against now and read for real by End,
// once the reservation is known.
func ParseExtend(args string, srv Servers, now time.Time, loc *time.Location) (ExtendArgs, error) {
	words, force := takeForce(strings.Fields(args))
	a := ExtendArgs{Force: force}
	if len(words) == 0 {
		return a, userErrorf(extendHint, en.T("extend which reservation by how much?"))
	}
	known := true // the first word names a reservation or a server
	if first := words[0]; !amountWord(first) {
		switch {
		case strings.EqualFold(first, "last"):
			a.Last = true // the user's booking made last
		case srv.reservationID(first):
			a.ID = first
		default:
			if name, err := srv.resolve(first); err == nil {
				a.Server = name
			} else {
				a.ID, known = first, false
			}
		}
		words = words[1:]
	}
	if len(words) == 0 {
		if !known {
			return a, userErrorf(extendHint, en.T("extend which reservation by how much?"))
		}
		return a, inField(userErrorf(extendHint, en.Tf("extend `%s` by how much? add a duration (`2h`) or an end (`until 20:00`)", a.ID+a.Server)), FieldDuration)
	}
	if len(words) > 1 && isDayWord(strings.ToLower(words[0])) && amountWord(words[1]) {
		a.Day, words = words[0], words[1:]
	}
	kw := strings.ToLower(words[0])
	switch kw {
	case "until", "till", "til", "to":
		return a, a.readUntil(words[1:], now, loc)
	case "for":
		d, err := extendDuration(words[1:], now, loc)
		a.By = d
		return a, err
	case "by":
		words = words[1:]
	}
	d, err := extendDuration(words, now, loc)
	if err == nil {
		a.By = d
		return a, nil
	}
	if uerr := a.readUntil(words, now, loc); uerr == nil {
		return a, nil
	}
	return a, err
}

// amountWord reports whether w starts an extension's amount rather than
// naming the reservation.
func amountWord(w string) bool {
	switch strings.ToLower(w) {
	case "by", "for", "until", "till", "til", "to", "an", "a", "half", "another":
		return true
	}
	return w != "" && whenDigit(w[0])
}

// extendDuration reads words as a duration ("2h", "2 hours", "an hour").
func extendDuration(words []string, now time.Time, loc *time.Location) (time.Duration, error) {
	if len(words) == 0 {
		return 0, inField(userErrorf(extendHint, en.T("extend by how much? add a duration (`2h`) or an end (`until 20:00`)")), FieldDuration)
	}
	win, left, err := ParseWindow(append([]string{"for"}, words...), now, loc)
	if err != nil {
		return 0, inField(err, FieldDuration)
	}
	if len(left) > 0 || !win.Start.IsZero() {
		bad := strings.Join(left, " ")
		if bad == "" {
			bad = strings.Join(words, " ")
		}
		return 0, inField(userErrorf(extendHint, en.Tf("I don't understand `%s` — extend by a duration or until a time", bad)), FieldDuration)
	}
	if loc == nil {
		loc = time.UTC
	}
	return win.End.Sub(now.In(loc)), nil
}

// readUntil checks the words of an end point and keeps them for End.
func (a *ExtendArgs) readUntil(words []string, now time.Time, loc *time.Location) error {
	if len(words) == 0 {
		return inField(userErrorf(extendHint, en.T("until when? say `until 20:00` or `until fri 18:00`")), FieldEnd)
	}
	until := append([]string{"until"}, words...)
	if _, err := untilPoint(until, now, loc); err != nil {
		return err
	}
	a.Until = until
	return nil
}

func untilPoint(until []string, ref time.Time, loc *time.Location) (time.Time, error) {
	win, left, err := ParseWindow(until, ref, loc)
	if err != nil {
		return time.Time{}, inField(err, FieldEnd)
	}
	if len(left) > 0 || !win.Start.IsZero() || win.End.IsZero() {
		return time.Time{}, inField(userErrorf(extendHint, en.Tf("I don't understand `%s` as a new end", strings.Join(until[1:], " "))), FieldEnd)
	}
	return win.End, nil
}

// End is the reservation's new end: its end moved By, or the point Until
// names, read as the first such time after the reservation starts (or
// after now, once it has started), so "until 20:00" of a booking for
// tomorrow is tomorrow's 20:00.
func (a ExtendArgs) End(start, end, now time.Time, loc *time.Location) (time.Time, error) {
	if len(a.Until) == 0 {
		return end.Add(a.By), nil
	}
	ref := now
	if start.After(now) {
		ref = start
	}
	return untilPoint(a.Until, ref, loc)
}
