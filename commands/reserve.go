package commands

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/store"
)

// The reservation commands: parse, decide with the store (one atomic step
// each), and answer. State changes are announced in the channel with
// buttons; queries are private.

func statusCommand() Command {
	return Command{
		Name:     "status",
		Usage:    "status [server] [window]",
		Summary:  msg.T("Who holds which GPUs on the team's servers, until when, the next free slot, the queue."),
		Examples: []string{"status", "status server-h", "status server-h from tomorrow 14:00 until 18:00"},
		run:      runStatus,
	}
}

func reserveCommand() Command {
	return Command{
		Name:    "reserve",
		Usage:   "reserve <n> [gpus] on <server> for <duration> [note \"…\"]",
		Summary: msg.T("Hold GPUs on a team server for a time; announced in the channel with Extend and Release buttons."),
		Grammar: []string{
			"how many: `reserve 2 on server-h …`, or which: `reserve gpus 0-3 on server-h …`, `reserve gpus 0,2 on …`",
			"when: `for 2h`, `for 1d12h`, `from tomorrow 9:00 for 4h`, `until fri 18:00`, `from 14:00 until 18:00` (your Slack time zone)",
			"note: `note \"fine-tuning run 3\"`",
			"on a conflict the answer says who holds the GPUs until when and offers the earliest slot that fits, with a button to book it",
			"or say it in a sentence, English or Korean, without the command word: `can I grab 2 h200s on server h until 6pm?`, `server-a 2장 내일 오전 9시부터 3시간 예약`, `h 서버 2개 오늘 저녁 6시까지 잡아줘`; `반납할게요 server-a`, `server-h 4장 비면 알려줘` and `who's using server-h?` work the same way",
		},
		Examples: []string{"reserve 2 on server-h for 4h note \"bert sweep\"", "reserve gpus 2-3 on server-a from tomorrow 9:00 for 8h",
			"server-a 2장 내일 오전 9시부터 3시간 예약"},
		run: runReserve,
	}
}

func releaseCommand() Command {
	return Command{
		Name:     "release",
		Usage:    "release <id> | release <server> [all] | release all [--force]",
		Summary:  msg.T("End your reservations now (admins: --force, the owner is told)."),
		Examples: []string{"release server-h-3", "release server-h", "release all"},
		run:      runRelease,
	}
}

func extendCommand() Command {
	return Command{
		Name:    "extend",
		Usage:   "extend [<id>|<server>] <duration>|until <time> [--force]",
		Summary: msg.T("Move a reservation's end later, if nobody has the GPUs booked after it."),
		Grammar: []string{
			"which: its id (`extend server-h-3 2h`), or a server for your only reservation there (`extend server-h 2h`), or nothing for your only reservation (`extend 1h`); holding several, you are asked which",
			"how much: `2h`, `by 90m`, `for 2 hours`, or a new end: `until 20:00`, `until fri 18:00` (the first such time after the reservation starts)",
			"or say it in a sentence: `server-a 2시간 연장`, `2시간 연장해줘`, `extend my reservation until 8pm`",
		},
		Examples: []string{"extend server-h-3 2h", "extend server-h until 20:00", "server-a 2시간 연장"},
		run:      runExtend,
	}
}

func shortenCommand() Command {
	return Command{
		Name:    "shorten",
		Usage:   "shorten [<id>|<server>] <duration>|until <time> [--force]",
		Summary: msg.T("Move a reservation's end earlier, giving the rest of its time back."),
		Grammar: []string{
			"which: as for `extend`: its id, a server for your only reservation there, or nothing for your only reservation",
			"how much: `1h` (ends an hour earlier), or a new end: `until 18:00`; it must still end after it starts and after now (done now? `release`)",
			"or say it in a sentence: `server-a 예약 1시간 줄여줘`, `end my booking at 6pm instead`",
		},
		Examples: []string{"shorten server-h-3 1h", "shorten server-h until 18:00", "server-a 예약 1시간 줄여줘"},
		run:      runShorten,
	}
}

func mineCommand() Command {
	return Command{
		Name:     "mine",
		Usage:    "mine",
		Summary:  msg.T("Your reservations on every server."),
		Examples: []string{"mine"},
		run:      runMine,
	}
}

func waitCommand() Command {
	return Command{
		Name:     "wait",
		Usage:    "wait <n> on <server> [for <duration>]",
		Summary:  msg.T("Join a server's waiting list: you get a DM when enough GPUs are free (the wait expires, default 24h)."),
		Examples: []string{"wait 4 on server-h", "wait 2 on server-a for 8h"},
		run:      runWait,
	}
}

// errNoStore is a new error each time: Localize rewrites the one it says.
func errNoStore() error {
	return lang.Said(lang.En.T("reservations are not set up here: gpuplan runs without a reservation store"),
		&UserError{Hint: "run `gpuplan serve` or `gpuplan run` with REDIS_URL, or with the embedded store (the default), to use status/reserve/release"})
}

func (s *Set) store() (store.Store, error) {
	if s.deps.Reservations == nil {
		return nil, errNoStore()
	}
	return s.deps.Reservations, nil
}

func (s *Set) loc(req Request) *time.Location {
	if req.Location != nil {
		return req.Location
	}
	if s.deps.Inventory.Timezone != nil {
		return s.deps.Inventory.Timezone
	}
	return time.UTC
}

// requestID is the idempotency key of a state change.
func requestID(req Request) string {
	if req.ID != "" {
		return req.ID
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// when writes t for a user: "today 18:00", "tomorrow 09:00", "Fri 18:00",
// or a date further out, in loc.
func when(t, now time.Time, loc *time.Location) string { return whenIn(nil, t, now, loc) }

// whenIn is when in p's language: "오늘 19:28", "내일 09:00", "금요일
// 18:00", "11월 28일 15:04" in Korean; nil means English.
func whenIn(p *i18n.Printer, t, now time.Time, loc *time.Location) string {
	t, now = t.In(loc), now.In(loc)
	y1, m1, d1 := t.Date()
	y2, m2, d2 := now.Date()
	day := time.Date(y1, m1, d1, 0, 0, 0, 0, loc)
	today := time.Date(y2, m2, d2, 0, 0, 0, 0, loc)
	days := int(day.Sub(today).Hours() / 24)
	clock := t.Format("15:04")
	if p.Korean() {
		switch {
		case days == 0:
			return "오늘 " + clock
		case days == 1:
			return "내일 " + clock
		case days > 1 && days < 7:
			return koDayNames[t.Weekday()] + " " + clock
		default:
			return fmt.Sprintf("%d월 %d일 %s", t.Month(), t.Day(), clock)
		}
	}
	switch {
	case days == 0:
		return "today " + clock
	case days == 1:
		return "tomorrow " + clock
	case days > 1 && days < 7:
		return t.Format("Mon 15:04")
	default:
		return t.Format("Jan 2 15:04")
	}
}

var koDayNames = [...]string{"일요일", "월요일", "화요일", "수요일", "목요일", "금요일", "토요일"}

// durationIn is a duration for a reader: "1d12h" in English (as
// ParseDuration reads it), "1일 12시간" in Korean. A command line keeps
// formatDuration.
func durationIn(p *i18n.Printer, d time.Duration) string {
	if !p.Korean() {
		return formatDuration(d)
	}
	d = d.Round(time.Minute)
	days := d / (24 * time.Hour)
	d -= days * 24 * time.Hour
	h := d / time.Hour
	m := (d - h*time.Hour) / time.Minute
	var parts []string
	if days > 0 {
		parts = append(parts, fmt.Sprintf("%d일", days))
	}
	if h > 0 {
		parts = append(parts, fmt.Sprintf("%d시간", h))
	}
	if m > 0 || len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("%d분", m))
	}
	return strings.Join(parts, " ")
}

// durationWords is a deadline as a sentence says it ("1 day", "36 h";
// "1일", "36시간").
func durationWords(p *i18n.Printer, d time.Duration) string {
	if !p.Korean() {
		return lang.DurationWords(d)
	}
	h := d.Hours()
	switch {
	case h >= 48:
		return strconv.FormatFloat(float64(int(h/24*10+0.5))/10, 'f', -1, 64) + "일"
	case h >= 1:
		return strconv.FormatFloat(float64(int(h*10+0.5))/10, 'f', -1, 64) + "시간"
	default:
		return strconv.Itoa(int(d.Minutes()+0.5)) + "분"
	}
}

// stateText is a reservation's state for a reader.
func stateText(p *i18n.Printer, st store.State) string {
	switch st {
	case store.Pending:
		return p.T("pending")
	case store.Active:
		return p.T("active")
	case store.Expired:
		return p.T("expired")
	case store.Released:
		return p.T("released")
	}
	return string(st)
}

func mention(user string) string {
	if strings.HasPrefix(user, "U") || strings.HasPrefix(user, "W") {
		return "<@" + user + ">"
	}
	return user
}

// reserveArgs is a reserve command decided on: its words as
// lang.ParseReserve read them, with the server from the inventory.
type reserveArgs struct {
	count  int
	gpus   []int
	server inventory.Server
	window lang.When
	note   string
}

func (s *Set) parseReserve(args string, now time.Time, loc *time.Location) (reserveArgs, error) {
	a, err := lang.ParseReserve(args, s.langServers(), now, loc)
	if err != nil {
		return reserveArgs{}, err
	}
	srv, err := s.deps.Inventory.Server(a.Server)
	if err != nil {
		return reserveArgs{}, lang.InField(err, lang.FieldServer)
	}
	return reserveArgs{count: a.Count, gpus: a.GPUs, server: srv, window: a.Window, note: a.Note}, nil
}

// langServers is the team's servers as the request language reads them:
// their names, resolved as the inventory resolves them ("h", "h200").
func (s *Set) langServers() lang.Servers {
	return lang.Servers{Names: s.serverNames(), Resolve: func(w string) (string, error) {
		srv, err := s.deps.Inventory.Server(w)
		return srv.Name, err
	}}
}

func (s *Set) serverNames() []string {
	var out []string
	for _, srv := range s.deps.Inventory.Servers {
		out = append(out, srv.Name)
	}
	return out
}

func runReserve(ctx context.Context, s *Set, req Request, args string) (*Reply, error) {
	st, err := s.store()
	if err != nil {
		return nil, err
	}
	now, err := st.Now(ctx)
	if err != nil {
		return nil, storeError(err, "reserve")
	}
	loc := s.loc(req)
	a, err := s.parseReserve(args, now, loc)
	if err != nil {
		return nil, err
	}
	maxDur := a.server.MaxDuration
	if maxDur == 0 {
		maxDur = s.deps.Inventory.MaxDuration
	}
	start := a.window.Start
	dur := a.window.End.Sub(now)
	if !start.IsZero() {
		dur = a.window.End.Sub(start)
	}
	if maxDur > 0 && dur > maxDur {
		return nil, s.overCap(req.printer(), a, dur, maxDur, loc)
	}
	rv, err := st.Reserve(ctx, store.ReserveRequest{
		RequestID: requestID(req), Server: a.server.Name, ServerGPUs: a.server.Count(), Count: a.count, GPUs: a.gpus,
		Owner: req.User, Start: start, Duration: dur, MaxDuration: maxDur, Note: a.note,
	})
	var ce *store.ConflictError
	if errors.As(err, &ce) {
		return s.conflictReply(req.printer(), req.User, a, ce, dur, now, loc), nil
	}
	if err != nil {
		return nil, storeError(err, "reserve")
	}
	r := s.reservationReplyIn(req.printer(), rv, "reserved", now, loc)
	if late := a.window.Late; !late.IsZero() {
		r.Summary += " " + req.printer().Tf("(the start said, %s, had just passed: booked from now)", late.In(loc).Format("15:04"))
	}
	return r, nil
}

// overCap refuses a booking longer than the server allows and offers the
// longest it does, from the same start ("이번 주 금요일까지 블루 2장": 72h,
// to be extended when it ends).
func (s *Set) overCap(p *i18n.Printer, a reserveArgs, dur, maxDur time.Duration, loc *time.Location) error {
	what := strconv.Itoa(a.count)
	if len(a.gpus) > 0 {
		what = "gpus " + joinInts(a.gpus)
	}
	cmd := fmt.Sprintf("reserve %s on %s", what, a.server.Name)
	if !a.window.Start.IsZero() {
		cmd += " from " + a.window.Start.In(loc).Format("2006-01-02 15:04")
	}
	cmd += " for " + inHours(maxDur)
	return &UserError{Msg: p.Tf("%s is longer than the %s a booking may last on %s", inHours(dur), inHours(maxDur), a.server.Name),
		Hint: p.Tf("book the most it allows and extend it when it ends: `%s`", cmd), Field: lang.FieldDuration}
}

// inHours writes a duration in hours and minutes ("72h", "113h6m"), as a
// booking's cap is said.
func inHours(d time.Duration) string {
	d = d.Round(time.Minute)
	if m := int(d.Minutes()) % 60; m != 0 {
		return fmt.Sprintf("%dh%dm", int(d.Hours()), m)
	}
	return fmt.Sprintf("%dh", int(d.Hours()))
}

// reservationReply announces a reservation in the channel, in English.
func (s *Set) reservationReply(rv store.Reservation, verb string, now time.Time, loc *time.Location) *Reply {
	return s.reservationReplyIn(i18n.For(i18n.EN), rv, verb, now, loc)
}

// reservationReplyIn announces a reservation in the channel, with its
// buttons and the launch line's GPU ids, in p's language. verb is what
// happened: "reserved", "released", "extended", "shortened" or "expired".
func (s *Set) reservationReplyIn(p *i18n.Printer, rv store.Reservation, verb string, now time.Time, loc *time.Location) *Reply {
	if rv.CreatedAt.After(now) {
		now = rv.CreatedAt // the store's clock, at the moment it decided
	}
	srv, _ := s.deps.Inventory.Server(rv.Server)
	span := p.Tf("until %s", whenIn(p, rv.End, now, loc))
	if rv.State(now) == store.Pending {
		span = p.Tf("from %s until %s", whenIn(p, rv.Start, now, loc), whenIn(p, rv.End, now, loc))
	}
	title, summary := fmt.Sprintf("GPUs %s: %s", verb, rv.Server), ""
	owner, n, gpu, gpus := mention(rv.Owner), len(rv.GPUs), srv.GPU.Name, rv.GPUList()
	switch verb {
	case "reserved":
		title = p.Tf("GPUs reserved: %s", rv.Server)
		summary = p.Tf("%s reserved %d× %s on %s (GPUs %s) %s", owner, n, gpu, rv.Server, gpus, span)
	case "released":
		// released now: when they were held from, not an end that is now
		span = p.T("before its window began")
		if rv.Start.Before(now) {
			span = p.Tf("after holding them since %s", whenIn(p, rv.Start, now, loc))
		}
		title = p.Tf("GPUs released: %s", rv.Server)
		summary = p.Tf("%s released %d× %s on %s (GPUs %s) %s", owner, n, gpu, rv.Server, gpus, span)
	case "extended":
		title = p.Tf("GPUs extended: %s", rv.Server)
		summary = p.Tf("%s extended %d× %s on %s (GPUs %s) %s", owner, n, gpu, rv.Server, gpus, span)
	case "shortened":
		title = p.Tf("GPUs shortened: %s", rv.Server)
		summary = p.Tf("%s shortened %d× %s on %s (GPUs %s): now %s", owner, n, gpu, rv.Server, gpus, span)
	case "expired":
		title = p.Tf("GPUs expired: %s", rv.Server)
		summary = p.Tf("%s expired %d× %s on %s (GPUs %s) %s", owner, n, gpu, rv.Server, gpus, span)
	default:
		summary = fmt.Sprintf("%s %s %d× %s on %s (GPUs %s) %s", owner, verb, n, gpu, rv.Server, gpus, span)
	}
	r := &Reply{
		Title:     title,
		Summary:   summary,
		InChannel: true,
		Data:      rv,
		Channel:   s.deps.Inventory.TeamChannel,
		Announces: rv.ID,
		Lang:      p.Lang(),
	}
	if r.Channel == "" {
		// No team channel: changes go where the reservation was announced,
		// even when made from the App Home or a DM.
		r.Channel = rv.Channel
	}
	fields := []Field{{p.T("Reservation"), "`" + rv.ID + "`"}, {p.T("GPUs"), rv.GPUList()}, {p.T("Window"), whenIn(p, rv.Start, now, loc) + " → " + whenIn(p, rv.End, now, loc)}}
	if rv.Note != "" {
		fields = append(fields, Field{p.T("Note"), Untrusted(rv.Note)})
	}
	r.Sections = append(r.Sections, Section{Fields: fields})
	if verb == "released" || verb == "expired" || rv.State(now) == store.Expired || rv.State(now) == store.Released {
		// GPUs given back: nothing to run on them, no buttons
		r.Sections = append(r.Sections, Section{Kind: Context, Text: p.Tf("Times in %s.", loc.String())})
	} else {
		r.Sections = append(r.Sections,
			Section{Heading: p.T("Run on them"), Text: "`CUDA_VISIBLE_DEVICES=" + rv.GPUList() + " torchrun --nproc_per_node=" + strconv.Itoa(len(rv.GPUs)) + " train.py`"},
			Section{Kind: Context, Text: p.Tf("Times in %s. Only the owner (or an admin) can use the buttons.", loc.String())})
		r.Actions = withPosted(rv,
			Action{ID: ActionRun, Label: p.T("Extend 1h"), Command: "extend " + rv.ID + " 1h", RequestID: "ext-" + rv.ID + "-" + strconv.FormatInt(rv.End.Unix(), 36)},
			Action{ID: ActionRun, Label: p.T("Release"), Command: "release " + rv.ID, Style: "danger", RequestID: "rel-" + rv.ID},
		)
	}
	return r
}

func (s *Set) conflictReply(p *i18n.Printer, user string, a reserveArgs, ce *store.ConflictError, dur time.Duration, now time.Time, loc *time.Location) *Reply {
	var holders []string
	var own []store.Reservation
	for _, h := range ce.Holders {
		if h.Owner == user {
			// "can I grab 2 h200s on server-h" from the one who holds them
			own = append(own, h)
			holders = append(holders, p.Tf("GPUs %s held by you until %s (`%s`)", h.GPUList(), whenIn(p, h.End, now, loc), h.ID))
			continue
		}
		holders = append(holders, p.Tf("GPUs %s held by %s until %s (`%s`)", h.GPUList(), mention(h.Owner), whenIn(p, h.End, now, loc), h.ID))
	}
	want := p.Tf("%d GPU(s)", a.count)
	if len(a.gpus) > 0 {
		want = p.Tf("GPUs %s", joinInts(a.gpus))
	}
	r := &Reply{
		Title:    p.Tf("Not free: %s", a.server.Name),
		Summary:  p.Tf("%s on %s are not free for that time", want, a.server.Name),
		Sections: []Section{{Heading: p.T("Held"), Bullets: holders}},
		Data:     ce,
		Refused:  "conflict",
		Lang:     p.Lang(),
	}
	if len(own) == len(ce.Holders) && len(own) > 0 {
		// only the asker's own booking stands in the way: use it, or
		// keep it longer
		r.Summary = p.Tf("You already hold GPUs %s on %s until %s: use them, or `extend %s 1h` to keep them longer",
			own[0].GPUList(), a.server.Name, whenIn(p, own[0].End, now, loc), own[0].ID)
	}
	if ce.Earliest.IsZero() {
		r.Sections = append(r.Sections, Section{Kind: Warning, Text: p.Tf("%s has %d GPUs: that request can never fit there.", a.server.Name, a.server.Count())})
		return r
	}
	slot := p.Tf("%s → %s (GPUs %s)", whenIn(p, ce.Earliest, now, loc), whenIn(p, ce.Earliest.Add(dur), now, loc), joinInts(ce.EarliestGPUs))
	r.Sections = append(r.Sections, Section{Heading: p.T("Earliest slot that fits"), Text: slot})
	book := fmt.Sprintf("reserve gpus %s on %s from %s for %s", joinInts(ce.EarliestGPUs), a.server.Name, ce.Earliest.In(loc).Format("2006-01-02 15:04"), formatDuration(dur))
	if a.note != "" {
		book += fmt.Sprintf(" note %q", a.note)
	}
	r.Actions = []Action{{ID: ActionRun, Label: p.T("Book that slot"), Command: book, Style: "primary",
		RequestID: "book-" + a.server.Name + "-" + strconv.FormatInt(ce.Earliest.Unix(), 36) + "-" + randomSuffix()}}
	return r
}

func randomSuffix() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func joinInts(ids []int) string {
	s := make([]string, len(ids))
	for i, v := range ids {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

// formatDuration writes a duration the way ParseDuration reads it.
func formatDuration(d time.Duration) string {
	d = d.Round(time.Minute)
	days := d / (24 * time.Hour)
	d -= days * 24 * time.Hour
	h := d / time.Hour
	m := (d - h*time.Hour) / time.Minute
	var b strings.Builder
	if days > 0 {
		fmt.Fprintf(&b, "%dd", days)
	}
	if h > 0 {
		fmt.Fprintf(&b, "%dh", h)
	}
	if m > 0 {
		fmt.Fprintf(&b, "%dm", m)
	}
	if b.Len() == 0 {
		return "0m"
	}
	return b.String()
}

// mayForce refuses --force to a user who is not an admin.
func (s *Set) mayForce(req Request, force bool) error {
	if force && !s.deps.Inventory.IsAdmin(req.User) {
		p := req.printer()
		return &UserError{Msg: p.T("`--force` is for admins: only the owner can change this reservation"), Hint: p.T("ask the owner, or an admin listed in the inventory")}
	}
	return nil
}

func runRelease(ctx context.Context, s *Set, req Request, args string) (*Reply, error) {
	st, err := s.store()
	if err != nil {
		return nil, err
	}
	a, err := lang.ParseRelease(args, s.langServers())
	if ferr := s.mayForce(req, a.Force); ferr != nil {
		return nil, ferr
	}
	if err != nil {
		return nil, err
	}
	force := a.Force
	now, err := st.Now(ctx)
	if err != nil {
		return nil, storeError(err, "release")
	}
	loc := s.loc(req)
	// the asker's, limited to the day said ("release tomorrow")
	keep := func(r store.Reservation) bool {
		return r.Owner == req.User && (a.Day == "" || lang.OnDay(a.Day, r.Start, r.End, now, loc)) && lastsAbout(r, a.Lasting)
	}
	var ids []string
	switch {
	case a.All:
		mine, err := s.mine(ctx, st, req.User, now)
		if err != nil {
			return nil, err
		}
		for _, r := range mine {
			if keep(r) && (a.Server == "" || r.Server == a.Server) {
				ids = append(ids, r.ID)
			}
		}
	case a.Server != "":
		resv, err := st.List(ctx, a.Server)
		if err != nil {
			return nil, storeError(err, "release")
		}
		resv = slices.DeleteFunc(resv, func(r store.Reservation) bool { return !keep(r) })
		if which := s.oneOfSeveral(req, resv, now, a.Day != ""); which != nil {
			return which, nil
		}
		for _, r := range resv {
			ids = append(ids, r.ID)
		}
	default:
		ids = []string{a.ID}
	}
	p := req.printer()
	if len(ids) == 0 {
		return &Reply{Title: p.T("Nothing to release"), Summary: p.T("you hold no reservations there"), Refused: "nothing to do"}, nil
	}
	var released []store.Reservation
	for _, id := range ids {
		rv, err := st.Release(ctx, store.ReleaseRequest{RequestID: requestID(req) + "-" + id, ID: id, Actor: req.User, Force: force})
		if err != nil {
			if len(ids) == 1 {
				return nil, storeError(err, "release")
			}
			continue
		}
		released = append(released, rv)
	}
	if len(released) == 1 {
		rv := released[0]
		r := s.reservationReplyIn(p, rv, "released", now, loc)
		r.Actions = nil
		if force && rv.Owner != req.User {
			// Said in the channel with a mention, so the owner is notified.
			r.Summary = p.Tf("%s released %s's GPUs %s on %s with --force", mention(req.User), mention(rv.Owner), rv.GPUList(), rv.Server)
		}
		return r, nil
	}
	var lines []string
	for _, rv := range released {
		lines = append(lines, p.Tf("`%s`: GPUs %s on %s", rv.ID, rv.GPUList(), rv.Server))
	}
	return &Reply{Title: p.T("GPUs released"), Summary: p.Tf("%s released %d reservation(s)", mention(req.User), len(released)),
		Sections: []Section{{Bullets: lines}}, InChannel: true, Data: released}, nil
}

// runExtend moves a reservation's end: the one named by id, or the user's
// only reservation on a server ("extend server-a 2h", "server-a 2시간 연장")
// or anywhere ("2시간 연장해줘"), by a duration or until a time.
func runExtend(ctx context.Context, s *Set, req Request, args string) (*Reply, error) {
	return moveEnd(ctx, s, req, args, "extend")
}

// runShorten moves a reservation's end earlier: by a duration ("1h": an
// hour earlier) or to a time ("until 18:00"), read as extend reads them.
func runShorten(ctx context.Context, s *Set, req Request, args string) (*Reply, error) {
	return moveEnd(ctx, s, req, args, "shorten")
}

// moveEnd is extend (op "extend") and shorten (op "shorten").
func moveEnd(ctx context.Context, s *Set, req Request, args, op string) (*Reply, error) {
	st, err := s.store()
	if err != nil {
		return nil, err
	}
	now, err := st.Now(ctx)
	if err != nil {
		return nil, storeError(err, "extend")
	}
	loc := s.loc(req)
	p := req.printer()
	a, err := lang.ParseExtend(args, s.langServers(), now, loc)
	if err != nil {
		// "extend my reservation 1h": a sentence after the command word.
		// Read here, not only by Dispatch's second try, so what it then
		// refuses ("you hold 2 reservations — which one?") is what is said.
		if cr, ok := lang.ReadCommand(s.planEnv(), op+" "+args); ok && cr.Name == op && cr.Args != args {
			if a2, err2 := lang.ParseExtend(cr.Args, s.langServers(), now, loc); err2 == nil {
				a2.Force = a2.Force || a.Force
				a, err = a2, nil
			}
		}
	}
	if ferr := s.mayForce(req, a.Force); ferr != nil {
		return nil, ferr
	}
	if err != nil {
		return nil, err
	}
	cur, err := s.extendTarget(ctx, p, st, req.User, a, op, now, loc)
	if err != nil {
		return nil, err
	}
	end, err := a.End(cur.Start, cur.End, now, loc)
	if err != nil {
		return nil, err
	}
	if op == "shorten" && len(a.Until) == 0 {
		end = cur.End.Add(-a.By) // "1시간 줄여줘": an hour earlier
	}
	by := end.Sub(cur.End)
	switch {
	case op == "extend" && by <= 0:
		return nil, &UserError{Msg: p.Tf("`%s` already ends %s: ending %s would shorten it", cur.ID, whenIn(p, cur.End, now, loc), whenIn(p, end, now, loc)),
			Hint: p.Tf("name a later end, or a duration: `extend %s 1h`; to end it earlier: `shorten %s until <time>`", cur.ID, cur.ID), Field: lang.FieldEnd}
	case op == "shorten" && by >= 0:
		return nil, &UserError{Msg: p.Tf("`%s` ends %s: ending %s would make it longer", cur.ID, whenIn(p, cur.End, now, loc), whenIn(p, end, now, loc)),
			Hint: p.Tf("name an earlier end, or how much earlier: `shorten %s 1h`; to make it longer: `extend %s`", cur.ID, cur.ID), Field: lang.FieldEnd}
	}
	srv, _ := s.deps.Inventory.Server(cur.Server)
	maxDur := srv.MaxDuration
	if maxDur == 0 {
		maxDur = s.deps.Inventory.MaxDuration
	}
	rv, err := st.Extend(ctx, store.ExtendRequest{RequestID: requestID(req), ID: cur.ID, Actor: req.User, Force: a.Force, By: by, MaxDuration: maxDur})
	var ce *store.ConflictError
	if errors.As(err, &ce) {
		var holders []string
		for _, h := range ce.Holders {
			holders = append(holders, p.Tf("%s has GPUs %s from %s", mention(h.Owner), h.GPUList(), whenIn(p, h.Start, now, loc)))
		}
		return nil, &Error{Kind: Refused, Op: "extend", Err: &UserError{Msg: p.Tf("cannot extend: the GPUs are booked right after — %s", strings.Join(holders, "; ")), Hint: p.T("a shorter extension may fit")}}
	}
	if err != nil {
		return nil, storeError(err, op)
	}
	if op == "shorten" {
		return s.reservationReplyIn(p, rv, "shortened", now, loc), nil
	}
	return s.reservationReplyIn(p, rv, "extended", now, loc), nil
}

func (s *Set) mine(ctx context.Context, st store.Store, user string, now time.Time) ([]store.Reservation, error) {
	var out []store.Reservation
	for _, srv := range s.deps.Inventory.Servers {
		resv, err := st.List(ctx, srv.Name)
		if err != nil {
			return nil, storeError(err, "mine")
		}
		for _, r := range resv {
			if r.Owner == user {
				out = append(out, r)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out, nil
}

func runMine(ctx context.Context, s *Set, req Request, _ string) (*Reply, error) {
	st, err := s.store()
	if err != nil {
		return nil, err
	}
	now, err := st.Now(ctx)
	if err != nil {
		return nil, storeError(err, "mine")
	}
	mine, err := s.mine(ctx, st, req.User, now)
	if err != nil {
		return nil, err
	}
	loc := s.loc(req)
	p := req.printer()
	r := &Reply{Title: p.T("Your reservations"), Data: mine}
	if len(mine) == 0 {
		r.Summary = p.T("you hold no GPUs — `status` shows what is free")
		return r, nil
	}
	t := &Table{Columns: []string{"id", p.T("server"), p.T("GPUs"), p.T("state"), p.T("from"), p.T("until"), p.T("note")}}
	for _, rv := range mine {
		t.Rows = append(t.Rows, []string{rv.ID, rv.Server, rv.GPUList(), stateText(p, rv.State(now)), whenIn(p, rv.Start, now, loc), whenIn(p, rv.End, now, loc), Untrusted(rv.Note)})
		r.Actions = append(r.Actions, withPosted(rv, Action{ID: ActionRun, Label: p.Tf("Release %s", rv.ID), Command: "release " + rv.ID, Style: "danger", RequestID: "rel-" + rv.ID})...)
	}
	if len(r.Actions) > 5 {
		r.Actions = r.Actions[:5]
	}
	r.Summary = p.Tf("%d reservation(s)", len(mine))
	r.Sections = []Section{{Table: t}, {Kind: Context, Text: p.Tf("Times in %s.", loc.String())}}
	return r, nil
}

func runWait(ctx context.Context, s *Set, req Request, args string) (*Reply, error) {
	st, err := s.store()
	if err != nil {
		return nil, err
	}
	a, err := lang.ParseWait(args, s.langServers())
	if err != nil {
		return nil, err
	}
	srv, err := s.deps.Inventory.Server(a.Server)
	if err != nil {
		return nil, err
	}
	p := req.printer()
	if a.Count > srv.Count() {
		return nil, &UserError{Msg: p.Tf("%s has only %d GPUs", srv.Name, srv.Count()), Hint: p.T("try: `wait 4 on server-h` or `wait 2 on server-a for 8h`")}
	}
	if r := freeNow(ctx, st, p, srv.Name, srv.Count(), a.Count); r != nil {
		return r, nil // nothing to wait for
	}
	w, err := st.Wait(ctx, store.WaitRequest{RequestID: requestID(req), Server: srv.Name, Count: a.Count, Owner: req.User, For: a.For})
	if err != nil {
		return nil, storeError(err, "wait")
	}
	waiters, _ := st.Waiters(ctx, srv.Name)
	now, _ := st.Now(ctx)
	return &Reply{
		Title:   p.Tf("Waiting for %s", srv.Name),
		Summary: p.Tf("you are number %d waiting for %d GPU(s) on %s, until %s", len(waiters), a.Count, srv.Name, whenIn(p, w.Expires, now, s.loc(req))),
		Data:    w,
	}, nil
}

// freeNow answers a wait for GPUs that are free already ("notify me when
// 4 GPUs free up on tiger" while tiger is idle): it says so and how to
// book them, instead of queueing the asker behind nobody. Nil when they
// are not free, or the store cannot say.
func freeNow(ctx context.Context, st store.Store, p *i18n.Printer, server string, gpus, count int) *Reply {
	resv, err := st.List(ctx, server)
	if err != nil {
		return nil
	}
	now, err := st.Now(ctx)
	if err != nil {
		return nil
	}
	start, ids, ok := store.EarliestSlot(resv, gpus, count, now, time.Minute)
	if !ok || start.After(now) {
		return nil
	}
	cmd := fmt.Sprintf("reserve %d on %s for 4h", count, server)
	return &Reply{
		Title:   p.Tf("%d GPU(s) free on %s now", count, server),
		Summary: p.Tf("%d GPU(s) on %s are free now (GPUs %s): no need to wait. Book them before someone else does: `%s`", count, server, joinInts(ids), cmd),
		Actions: []Action{{ID: ActionRun, Label: p.T("Book them"), Command: cmd, Style: "primary"}},
	}
}

// Announced records where a reservation's announcement was posted.
func (s *Set) Announced(ctx context.Context, id, channel, ts string) error {
	if s.deps.Reservations == nil || id == "" {
		return nil
	}
	return s.deps.Reservations.SetAnnouncement(ctx, id, channel, ts)
}

// ParseDuration reads a reservation length as people type it ("4h",
// "90m", "1d12h", "2 hours"); the grammar is the request language's.
func ParseDuration(s string) (time.Duration, error) { return lang.ParseDuration(s) }
