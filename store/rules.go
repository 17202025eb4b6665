package store

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// The decision logic both backends share. The embedded store calls these
// functions inside one bbolt transaction; the Redis scripts (scripts.go)
// mirror them line for line, and a differential test runs the same
// operations through both and compares the answers. All times here are
// Unix milliseconds: the store keeps millisecond precision.

// Limits on requests.
const (
	MaxServerNameLen = 63
	MaxServerGPUs    = 1024
	MaxNoteLen       = 2000 // bytes
	MaxOwnerLen      = 200
	MaxRequestIDLen  = 200
	// Horizon is how far ahead a reservation may start. A conflict whose
	// earliest free slot lies beyond it reports a zero Earliest.
	Horizon = 366 * 24 * time.Hour
	// MaxSpan caps any window (a reservation or a wait), whatever the
	// server's MaxDuration.
	MaxSpan = 366 * 24 * time.Hour
	// PastGrace is how far in the past an explicit start may be (clock
	// skew, a slow click); older starts are refused.
	PastGrace = time.Minute
	// CleanupAfter is how long an ended reservation stays readable at
	// least (Get, the digest's "who booked what"). Every SweepEvery-th
	// reservation on a server drops those that ended longer ago (a sweep
	// on every reserve would cost the hot path a command).
	CleanupAfter = 15 * 24 * time.Hour
	SweepEvery   = 16
	// RequestTTL is how long a request id remembers its result.
	RequestTTL = 24 * time.Hour
	// AuditCap is about how many audit events are kept per server.
	AuditCap = 10000
)

var serverNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]*$`) })

// ValidServerName reports whether name can name a server: lowercase
// letters, digits, '-', '_' and '.', starting with a letter or digit, at
// most 63 characters. The name prefixes its reservation ids and Redis keys.
func ValidServerName(name string) bool {
	return len(name) <= MaxServerNameLen && serverNameRE().MatchString(name)
}

// ServerOf returns the server a reservation (or waiter) id belongs to: the
// id is "<server>-<n><suffix>" (waiters "<server>-w<n>"), so the server is
// everything before the last '-'. Ids made before the suffix existed
// ("<server>-<n>") are still read.
func ServerOf(id string) (string, bool) {
	i := strings.LastIndexByte(id, '-')
	if i <= 0 || i == len(id)-1 {
		return "", false
	}
	server := id[:i]
	if !ValidServerName(server) || !idTail().MatchString(id[i+1:]) {
		return "", false
	}
	return server, true
}

// idTail is what follows the server in an id: the sequence number and, in
// reservation ids, the random suffix.
var idTail = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(w[0-9]+|[0-9]+([a-z][a-z0-9]{0,3})?)$`) })

// seqOf is the number in an id, which orders ids created on one server.
func seqOf(id string) int64 {
	t := strings.TrimPrefix(id[strings.LastIndexByte(id, '-')+1:], "w")
	end := 0
	for end < len(t) && t[end] >= '0' && t[end] <= '9' {
		end++
	}
	n, _ := strconv.ParseInt(t[:end], 10, 64)
	return n
}

// A reservation id carries a random suffix after its sequence number
// ("server-h-12k3x"). The sequence lives in the store, so a store that
// loses data (Redis without persistence, a Sentinel failover that drops
// writes, an embedded file restored from its backup) counts again from
// where it was; the suffix keeps the new ids from being the old ones, so
// an old Release or Extend button cannot act on somebody else's new
// reservation. Letter first (the end of the number stays clear), no
// 0/1/i/l/o (nothing to misread when typed).
const (
	suffixFirst = "abcdefghjkmnpqrstuvwxyz"
	suffixRest  = "23456789abcdefghjkmnpqrstuvwxyz"
)

// newIDSuffix is three random characters: 23·31·31 = 22,103 values.
func newIDSuffix() string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return string([]byte{suffixFirst[int(b[0])%len(suffixFirst)], suffixRest[int(b[1])%len(suffixRest)], suffixRest[int(b[2])%len(suffixRest)]})
}

func toMS(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMS(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// record is a reservation as stored (JSON, in a Redis hash or a bbolt
// bucket); the Lua scripts read and write the same shape.
type record struct {
	ID         string `json:"id"`
	Server     string `json:"server"`
	GPUs       []int  `json:"gpus"`
	Owner      string `json:"owner"`
	Start      int64  `json:"start"`
	End        int64  `json:"end"`
	Note       string `json:"note,omitempty"`
	Created    int64  `json:"created"`
	ReleasedBy string `json:"released_by,omitempty"`
	Channel    string `json:"channel,omitempty"`
	MessageTS  string `json:"message_ts,omitempty"`
	Reminded   bool   `json:"reminded,omitempty"`
}

func (r record) reservation() Reservation {
	return Reservation{
		ID: r.ID, Server: r.Server, GPUs: slices.Clone(r.GPUs), Owner: r.Owner,
		Start: fromMS(r.Start), End: fromMS(r.End), Note: r.Note,
		CreatedAt: fromMS(r.Created), ReleasedBy: r.ReleasedBy,
		Channel: r.Channel, MessageTS: r.MessageTS, Reminded: r.Reminded,
	}
}

// waiterRecord is a Waiter as stored.
type waiterRecord struct {
	ID      string `json:"id"`
	Server  string `json:"server"`
	Count   int    `json:"count"`
	Owner   string `json:"owner"`
	Since   int64  `json:"since"`
	Expires int64  `json:"expires"`
}

func (w waiterRecord) waiter() Waiter {
	return Waiter{ID: w.ID, Server: w.Server, Count: w.Count, Owner: w.Owner,
		Since: fromMS(w.Since), Expires: fromMS(w.Expires)}
}

// byStart orders reservations earliest start first, then by creation.
func byStart(a, b record) int {
	if a.Start != b.Start {
		if a.Start < b.Start {
			return -1
		}
		return 1
	}
	return cmpInt64(seqOf(a.ID), seqOf(b.ID))
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// outcome is what every mutation answers, in one JSON shape for both
// backends: the Lua scripts return it as a string, the embedded store
// builds it in Go, and a request id stores it so that a retry gets the
// very same answer.
type outcome struct {
	Op  string          `json:"op,omitempty"`
	OK  json.RawMessage `json:"ok,omitempty"`
	Err string          `json:"err,omitempty"` // conflict, invalid, not_found, not_owner, ended

	Holders      []record `json:"holders,omitempty"`
	Earliest     int64    `json:"earliest,omitempty"`
	EarliestGPUs []int    `json:"earliest_gpus,omitempty"`

	Code string `json:"code,omitempty"` // which validation failed
	A    int64  `json:"a,omitempty"`
	B    int64  `json:"b,omitempty"`
}

// Error codes in an outcome.
const (
	errConflict = "conflict"
	errInvalid  = "invalid"
	errNotFound = "not_found"
	errNotOwner = "not_owner"
	errEnded    = "ended"
	// errNotApplied answers an attempt that was fenced after its reply
	// was lost (outcome.go); only the Redis store gives it.
	errNotApplied = "not_applied"
)

// Validation codes decided with the clock (the rest are checked in Go
// before a script runs; the scripts re-check them as "args").
const (
	codePastStart     = "past_start"      // A: how far in the past (ms)
	codeBeyondHorizon = "beyond_horizon"  // A: how far ahead (ms)
	codeExtendTooLong = "extend_too_long" // A: new length, B: the cap (ms)
	codeShortenPast   = "shorten_past"    // A: the new end, B: the least it may be (ms)
	codeBadArgs       = "args"            // a script got arguments Go would have refused
	codeClockAhead    = "clock_ahead"     // A: how far the sample is ahead of the store (ms)
)

func okOutcome(op string, v any) outcome {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // records are plain data
	}
	return outcome{Op: op, OK: b}
}

// err turns a failed outcome into the contract's typed error; nil when it
// succeeded.
func (o outcome) err() error {
	switch o.Err {
	case "":
		return nil
	case errConflict:
		ce := &ConflictError{Earliest: fromMS(o.Earliest), EarliestGPUs: o.EarliestGPUs}
		for _, h := range o.Holders {
			ce.Holders = append(ce.Holders, h.reservation())
		}
		return ce
	case errInvalid:
		return invalidCode(o.Code, o.A, o.B)
	case errNotFound:
		return ErrNotFound
	case errNotOwner:
		return ErrNotOwner
	case errEnded:
		return ErrEnded
	case errNotApplied:
		return fmt.Errorf("%w: this attempt arrived after its caller had given up on it, so it was not applied", ErrUnavailable)
	}
	return fmt.Errorf("store: unknown outcome %q", o.Err)
}

func invalidCode(code string, a, b int64) error {
	ms := func(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
	switch code {
	case codePastStart:
		return invalidIn("start", "the start is %s in the past; leave it out to start now", roundDur(ms(a)))
	case codeBeyondHorizon:
		return invalidIn("start", "the start is %s ahead; reservations may start at most %s ahead", roundDur(ms(a)), roundDur(Horizon))
	case codeClockAhead:
		return invalidf("the sample is %s ahead of the store's clock (more than %s): fix the agent host's clock (NTP)", roundDur(ms(a)), roundDur(MaxClockAhead))
	case codeExtendTooLong:
		return invalidIn("duration", "extended, the reservation would last %s, longer than the %s maximum", roundDur(ms(a)), roundDur(ms(b)))
	case codeShortenPast:
		return invalidIn("end", "shortened by that much, the reservation would end %s before it starts or before now: release it instead", roundDur(ms(b-a)))
	}
	return invalidf("invalid request (%s)", code)
}

// roundDur prints a duration the way a person would read it: "2h0m0s"
// becomes "2h", "366 days" stays in hours.
func roundDur(d time.Duration) string {
	if d >= time.Minute {
		d = d.Round(time.Minute)
	} else {
		d = d.Round(time.Second)
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// decodeAnswer parses a mutation's answer (a script's, the embedded
// store's, or one stored for a request id) in one pass, and checks that it
// answers the operation asked: a request id reused for another operation
// is a client bug, reported as invalid rather than misread.
func decodeAnswer[T any](op, raw string, err error) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	var a struct {
		outcome
		OK *T `json:"ok"`
	}
	if err := json.Unmarshal([]byte(raw), &a); err != nil {
		return zero, fmt.Errorf("store: malformed %s answer: %w", op, err)
	}
	if a.Op != "" && a.Op != op {
		return zero, invalidf("request id already used for a %s, not a %s", a.Op, op)
	}
	if err := a.outcome.err(); err != nil {
		return zero, err
	}
	if a.OK == nil {
		return zero, fmt.Errorf("store: empty %s answer", op)
	}
	return *a.OK, nil
}

func reservationAnswer(op, raw string, err error) (Reservation, error) {
	r, err := decodeAnswer[record](op, raw, err)
	if err != nil {
		return Reservation{}, err
	}
	return r.reservation(), nil
}

// reserveArgs is a ReserveRequest reduced to what the decision needs.
type reserveArgs struct {
	Server     string
	ServerGPUs int
	Count      int
	GPUs       []int // sorted, when given
	Owner      string
	Start      int64 // 0: now
	Duration   int64
	Max        int64 // 0: no cap
	Note       string
}

// checkText refuses text a store cannot keep faithfully.
func checkText(what, s string, max int) error {
	if !utf8.ValidString(s) {
		return invalidIn(textField(what), "%s is not valid UTF-8", what)
	}
	if len(s) > max {
		return invalidIn(textField(what), "%s is too long (%d bytes; at most %d)", what, len(s), max)
	}
	return nil
}

func checkRequestID(id string) error {
	return checkText("request id", id, MaxRequestIDLen)
}

func checkServer(name string) error {
	if !ValidServerName(name) {
		return invalidIn("server", "%q is not a valid server name: use lowercase letters, digits, '-', '_' or '.', at most %d characters", name, MaxServerNameLen)
	}
	return nil
}

// validateReserve checks everything about a reservation request that does
// not depend on the clock or the stored data.
func validateReserve(req ReserveRequest) (reserveArgs, error) {
	a := reserveArgs{Server: req.Server, ServerGPUs: req.ServerGPUs, Count: req.Count,
		Owner: req.Owner, Start: toMS(req.Start), Note: req.Note}
	if err := checkServer(req.Server); err != nil {
		return a, err
	}
	if err := checkRequestID(req.RequestID); err != nil {
		return a, err
	}
	if req.ServerGPUs < 1 || req.ServerGPUs > MaxServerGPUs {
		return a, invalidf("server %s has %d GPUs in the inventory; expected 1 to %d", req.Server, req.ServerGPUs, MaxServerGPUs)
	}
	if strings.TrimSpace(req.Owner) == "" {
		return a, invalidf("a reservation needs an owner")
	}
	if err := checkText("owner", req.Owner, MaxOwnerLen); err != nil {
		return a, err
	}
	if err := checkText("note", req.Note, MaxNoteLen); err != nil {
		return a, err
	}
	if len(req.GPUs) > 0 {
		if req.Count != 0 && req.Count != len(req.GPUs) {
			return a, invalidIn("count", "asked for %d GPUs but listed %d ids; give a count or ids", req.Count, len(req.GPUs))
		}
		seen := map[int]bool{}
		for _, g := range req.GPUs {
			if g < 0 || g >= req.ServerGPUs {
				return a, invalidIn("count", "GPU %d does not exist on %s (ids 0-%d)", g, req.Server, req.ServerGPUs-1)
			}
			if seen[g] {
				return a, invalidIn("count", "GPU %d is listed twice", g)
			}
			seen[g] = true
		}
		a.GPUs = slices.Sorted(slices.Values(req.GPUs))
		a.Count = len(a.GPUs)
	} else {
		if req.Count < 1 {
			return a, invalidIn("count", "ask for at least one GPU")
		}
		if req.Count > req.ServerGPUs {
			return a, invalidIn("count", "%s has %d GPUs; %d asked", req.Server, req.ServerGPUs, req.Count)
		}
	}
	if req.Duration < time.Millisecond {
		return a, invalidIn("duration", "the duration must be positive")
	}
	if req.MaxDuration < 0 {
		return a, invalidf("the maximum duration must not be negative")
	}
	if req.MaxDuration > 0 && req.Duration > req.MaxDuration {
		return a, invalidIn("duration", "%s is longer than the %s maximum on %s", roundDur(req.Duration), roundDur(req.MaxDuration), req.Server)
	}
	if req.Duration > MaxSpan {
		return a, invalidIn("duration", "%s is longer than the %s limit", roundDur(req.Duration), roundDur(MaxSpan))
	}
	if !req.Start.IsZero() && req.Start.UnixMilli() <= 0 {
		return a, invalidIn("start", "the start time is not valid")
	}
	a.Duration = req.Duration.Milliseconds()
	a.Max = req.MaxDuration.Milliseconds()
	return a, nil
}

func validateRelease(req ReleaseRequest) error {
	if err := checkRequestID(req.RequestID); err != nil {
		return err
	}
	if strings.TrimSpace(req.Actor) == "" {
		return invalidf("who is releasing? (actor is empty)")
	}
	return checkText("actor", req.Actor, MaxOwnerLen)
}

func validateExtend(req ExtendRequest) error {
	if err := checkRequestID(req.RequestID); err != nil {
		return err
	}
	if strings.TrimSpace(req.Actor) == "" {
		return invalidf("who is extending? (actor is empty)")
	}
	if err := checkText("actor", req.Actor, MaxOwnerLen); err != nil {
		return err
	}
	if req.By > -time.Millisecond && req.By < time.Millisecond {
		return invalidf("extend by a positive duration, or shorten by a negative one")
	}
	if req.By > MaxSpan || req.By < -MaxSpan {
		return invalidf("%s is longer than the %s limit", roundDur(req.By), roundDur(MaxSpan))
	}
	if req.MaxDuration < 0 {
		return invalidf("the maximum duration must not be negative")
	}
	return nil
}

func validateWait(req WaitRequest) error {
	if err := checkServer(req.Server); err != nil {
		return err
	}
	if err := checkRequestID(req.RequestID); err != nil {
		return err
	}
	if req.Count < 1 || req.Count > MaxServerGPUs {
		return invalidf("wait for 1 to %d GPUs", MaxServerGPUs)
	}
	if strings.TrimSpace(req.Owner) == "" {
		return invalidf("a waiter needs an owner")
	}
	if err := checkText("owner", req.Owner, MaxOwnerLen); err != nil {
		return err
	}
	if req.For < time.Millisecond {
		return invalidf("wait for a positive duration")
	}
	if req.For > MaxSpan {
		return invalidf("%s is longer than the %s limit", roundDur(req.For), roundDur(MaxSpan))
	}
	return nil
}

// liveAt keeps the reservations that have not ended at now.
func liveAt(all []record, now int64) []record {
	var live []record
	for _, r := range all {
		if r.End > now {
			live = append(live, r)
		}
	}
	return live
}

// busyDuring returns the GPUs held during [s, e) and the reservations that
// hold them, skipping the reservation skip (an extend's own).
func busyDuring(live []record, s, e int64, skip string) (map[int]bool, []record) {
	busy := map[int]bool{}
	var holders []record
	for _, r := range live {
		if r.ID == skip || r.Start >= e || r.End <= s {
			continue
		}
		holders = append(holders, r)
		for _, g := range r.GPUs {
			busy[g] = true
		}
	}
	return busy, holders
}

// pickGPUs chooses GPUs for a request given the busy ones: the explicit ids
// if all are free, else the lowest free ids.
func pickGPUs(a reserveArgs, busy map[int]bool) ([]int, bool) {
	if len(a.GPUs) > 0 {
		for _, g := range a.GPUs {
			if busy[g] {
				return nil, false
			}
		}
		return slices.Clone(a.GPUs), true
	}
	var free []int
	for g := 0; g < a.ServerGPUs && len(free) < a.Count; g++ {
		if !busy[g] {
			free = append(free, g)
		}
	}
	return free, len(free) == a.Count
}

func sharesGPU(r record, gpus []int) bool {
	for _, g := range r.GPUs {
		if slices.Contains(gpus, g) {
			return true
		}
	}
	return false
}

// decideReserve is the whole reserve decision at now over the server's
// stored reservations: an invalid start, a conflict (with the holders and
// the earliest start that fits), or the GPUs to hold and the window.
// It writes nothing.
func decideReserve(a reserveArgs, now int64, all []record) (gpus []int, start, end int64, fail *outcome) {
	start = a.Start
	if start == 0 {
		start = now
	}
	if start < now-PastGrace.Milliseconds() {
		return nil, 0, 0, &outcome{Err: errInvalid, Code: codePastStart, A: now - start}
	}
	horizon := now + Horizon.Milliseconds()
	if start > horizon {
		return nil, 0, 0, &outcome{Err: errInvalid, Code: codeBeyondHorizon, A: start - now}
	}
	end = start + a.Duration
	live := liveAt(all, now)
	busy, holders := busyDuring(live, start, end, "")
	if g, ok := pickGPUs(a, busy); ok {
		return g, start, end, nil
	}
	if len(a.GPUs) > 0 {
		holders = slices.DeleteFunc(holders, func(r record) bool { return !sharesGPU(r, a.GPUs) })
	}
	slices.SortFunc(holders, byStart)
	fail = &outcome{Err: errConflict, Holders: holders}
	// The free set only grows when a reservation ends, so the first fit is
	// at one of the ends after the requested start.
	var cands []int64
	for _, r := range live {
		if r.End > start {
			cands = append(cands, r.End)
		}
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	for _, c := range cands {
		if c > horizon {
			break
		}
		busy, _ := busyDuring(live, c, c+a.Duration, "")
		if g, ok := pickGPUs(a, busy); ok {
			fail.Earliest, fail.EarliestGPUs = c, g
			break
		}
	}
	return nil, 0, 0, fail
}

// decideRelease checks a release of r at now; on success it returns the
// record to keep (nil: delete it, a pending reservation is cancelled) and
// the audit detail.
func decideRelease(r record, actor string, force bool, now int64) (keep *record, out record, detail string, fail *outcome) {
	if r.Owner != actor && !force {
		return nil, r, "", &outcome{Err: errNotOwner}
	}
	if r.End <= now {
		return nil, r, "", &outcome{Err: errEnded}
	}
	r.ReleasedBy = actor
	if now <= r.Start { // it has held nothing yet: gone, rather than a zero-length window
		detail = "cancelled before its start"
	} else {
		r.End = now
		keep = &r
		detail = "ended at " + strconv.FormatInt(now, 10)
	}
	if r.Owner != actor {
		detail += " (forced)"
	}
	return keep, r, detail, nil
}

// decideExtend checks an extension of r by by ms at now against the
// server's other reservations; on success it returns the new record.
func decideExtend(r record, actor string, force bool, by, max, now int64, all []record) (record, *outcome) {
	if r.Owner != actor && !force {
		return r, &outcome{Err: errNotOwner}
	}
	if r.End <= now {
		return r, &outcome{Err: errEnded}
	}
	newEnd := r.End + by
	if by < 0 {
		// shortened: it still ends after it starts and after now; the
		// GPUs it gives back were its own, so nobody is in the way
		least := r.Start
		if now > least {
			least = now
		}
		if newEnd <= least {
			return r, &outcome{Err: errInvalid, Code: codeShortenPast, A: newEnd, B: least}
		}
		r.End = newEnd
		return r, nil
	}
	length := newEnd - r.Start
	if max > 0 && length > max {
		return r, &outcome{Err: errInvalid, Code: codeExtendTooLong, A: length, B: max}
	}
	if length > MaxSpan.Milliseconds() {
		return r, &outcome{Err: errInvalid, Code: codeExtendTooLong, A: length, B: MaxSpan.Milliseconds()}
	}
	_, holders := busyDuring(liveAt(all, now), r.Start, newEnd, r.ID)
	holders = slices.DeleteFunc(holders, func(h record) bool { return !sharesGPU(h, r.GPUs) })
	if len(holders) > 0 {
		slices.SortFunc(holders, byStart)
		return r, &outcome{Err: errConflict, Holders: holders}
	}
	r.End = newEnd
	return r, nil
}

func reserveDetail(r record) string {
	return fmt.Sprintf("gpus %s from %d to %d", joinInts(r.GPUs), r.Start, r.End)
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, g := range v {
		s[i] = strconv.Itoa(g)
	}
	return strings.Join(s, ",")
}

// textField is the argument a text check is about, when a form has it.
func textField(what string) string {
	if what == "note" {
		return "note"
	}
	return ""
}
