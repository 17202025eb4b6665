package store

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Leases: a reservation held by a running job (`gpuplan exec`) is booked
// for a short lease and renewed by the job's heartbeat, so that a job
// whose runner dies (kill -9, a lost host) gives its GPUs back within a
// lease, not at the end of the window it asked for. Renewal is its own
// mutation, not an Extend: it moves the end to now+lease (never earlier),
// stops at the job's bound, and stops short of another reservation on
// the same GPUs rather than failing, so the job learns at once until when
// it holds them.

// RenewRequest renews a lease-held reservation.
type RenewRequest struct {
	RequestID string
	ID        string
	Actor     string        // must be the owner
	Lease     time.Duration // the end moves to now+Lease…
	Until     time.Time     // …but not past Until (zero: no bound but MaxSpan from the start)
}

// Leaser renews leases; both backends implement it.
type Leaser interface {
	// Renew moves the reservation's end to the store's now + Lease, bounded
	// by Until, by MaxSpan from its start and by the start of the next
	// reservation on any of its GPUs. It never moves the end earlier: a
	// renewal that cannot move it answers the reservation as it is. The
	// owner only (no force); a reservation that has ended (the lease
	// lapsed, or it was released) is ErrEnded.
	Renew(ctx context.Context, req RenewRequest) (Reservation, error)
}

var (
	_ Leaser = (*Redis)(nil)
	_ Leaser = (*Embedded)(nil)
)

// ExecNotePrefix starts the note of a reservation that `gpuplan exec`
// holds while its command runs; the rest of the note is the command.
// The digest counts these bookings as used by a job, and the sweep sends
// them no expiry reminder (their end is a lease the job renews).
const ExecNotePrefix = "exec: "

// maxExecCommand is how much of a command an exec note keeps (bytes).
const maxExecCommand = 500

// ExecNote is the note of an exec booking running command.
func ExecNote(command string) string {
	command = strings.ToValidUTF8(command, "?")
	if len(command) > maxExecCommand {
		cut := maxExecCommand
		for cut > 0 && !utf8.RuneStart(command[cut]) {
			cut--
		}
		command = command[:cut] + "…"
	}
	return ExecNotePrefix + command
}

// ExecCommand reports whether the reservation is held by `gpuplan exec`,
// and the command it runs.
func (r Reservation) ExecCommand() (string, bool) {
	return strings.CutPrefix(r.Note, ExecNotePrefix)
}

func validateRenew(req RenewRequest) error {
	if err := checkRequestID(req.RequestID); err != nil {
		return err
	}
	if strings.TrimSpace(req.Actor) == "" {
		return invalidf("who is renewing? (actor is empty)")
	}
	if err := checkText("actor", req.Actor, MaxOwnerLen); err != nil {
		return err
	}
	if req.Lease < time.Millisecond {
		return invalidf("renew for a positive lease")
	}
	if req.Lease > MaxSpan {
		return invalidf("%s is longer than the %s limit", roundDur(req.Lease), roundDur(MaxSpan))
	}
	if !req.Until.IsZero() && req.Until.UnixMilli() <= 0 {
		return invalidf("the bound is not a valid time")
	}
	return nil
}

// decideRenew is the whole renewal at now: the record with its new end,
// whether it changed, or a failure. until is 0 for no bound.
func decideRenew(r record, actor string, lease, until, now int64, all []record) (record, bool, *outcome) {
	if r.Owner != actor {
		return r, false, &outcome{Err: errNotOwner}
	}
	if r.End <= now {
		return r, false, &outcome{Err: errEnded}
	}
	want := now + lease
	if until > 0 && want > until {
		want = until
	}
	if limit := r.Start + MaxSpan.Milliseconds(); want > limit {
		want = limit
	}
	if want <= r.End {
		return r, false, nil
	}
	// The next reservation on one of its GPUs bounds it. Live
	// reservations on one GPU never overlap, so any other that ends after
	// this one starts at its end or later.
	for _, h := range liveAt(all, now) {
		if h.ID != r.ID && h.End > r.End && h.Start < want && sharesGPU(h, r.GPUs) {
			want = max(h.Start, r.End)
		}
	}
	if want <= r.End {
		return r, false, nil
	}
	r.End = want
	return r, true, nil
}

func renewDetail(r record) string {
	return "lease renewed to " + strconv.FormatInt(r.End, 10)
}

// Renew renews a lease (see Leaser).
func (e *Embedded) Renew(ctx context.Context, req RenewRequest) (Reservation, error) {
	if err := validateRenew(req); err != nil {
		return Reservation{}, err
	}
	server, ok := ServerOf(req.ID)
	if !ok {
		return Reservation{}, ErrNotFound
	}
	raw, err := e.apply(ctx, "renew", server, req.RequestID, func(s *srvTx) (outcome, error) {
		r, found, err := s.record(req.ID)
		if err != nil || !found {
			return outcome{Err: errNotFound}, err
		}
		all, err := s.records()
		if err != nil {
			return outcome{}, err
		}
		r, changed, fail := decideRenew(r, req.Actor, req.Lease.Milliseconds(), toMS(req.Until), s.now, all)
		if fail != nil {
			return *fail, nil
		}
		if changed {
			if err := s.putRecord(r); err != nil {
				return outcome{}, err
			}
			if err := s.audit("renew", r.ID, req.Actor, renewDetail(r)); err != nil {
				return outcome{}, err
			}
		}
		return okOutcome("renew", r), nil
	})
	return reservationAnswer("renew", raw, err)
}

// Renew renews a lease (see Leaser).
func (r *Redis) Renew(ctx context.Context, req RenewRequest) (Reservation, error) {
	if err := validateRenew(req); err != nil {
		return Reservation{}, err
	}
	server, ok := ServerOf(req.ID)
	if !ok {
		return Reservation{}, ErrNotFound
	}
	k := keysFor(server)
	attempt := newAttempt()
	raw, err := r.script(ctx, "renew", renewScript,
		[]string{k.resv, k.ends, k.audit, k.req(req.RequestID), k.gidx},
		r.nowArg(), req.RequestID, req.ID, req.Actor, req.Lease.Milliseconds(), toMS(req.Until),
		msSpan, server, reqTTLSec, AuditCap, attempt)
	raw, err = r.settle(ctx, "renew", k, req.RequestID, attempt, raw, err)
	return reservationAnswer("renew", raw, err)
}

// renewLua mirrors decideRenew. The next reservation on each GPU is the
// first one in the per-GPU index (scored gpu * 2^42 + end, see the
// prelude) that ends after this one's end: this one ends exactly there,
// so the exclusive range skips it.
//
// KEYS: resv, ends, audit, req, gidx.
// ARGV: now, rid, id, actor, lease, until (0 = none), max_span, server,
// req_ttl_s, audit_cap, attempt. Times in ms.
const renewLua = prelude + `
local rid = ARGV[2]
local prev = stored(KEYS[4], rid, ARGV[11])
if prev then return prev end
local now = now_ms()
local id, actor, server = ARGV[3], ARGV[4], ARGV[8]
local lease, untl, span = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
if not (lease and untl and span) or lease < 1 or untl < 0 then
  return answer('renew', {err = 'invalid', code = 'args'})
end
local raw = redis.call('HGET', KEYS[1], id)
if not raw then return answer('renew', {err = 'not_found'}) end
local r = cjson.decode(raw)
if r.owner ~= actor then return answer('renew', {err = 'not_owner'}) end
if r['end'] <= now then return answer('renew', {err = 'ended'}) end
local old = r['end']
local want = now + lease
if untl > 0 and want > untl then want = untl end
if want > r.start + span then want = r.start + span end
if want > old then
  ensure_gidx(KEYS[5], KEYS[2], now)
  for _, g in ipairs(r.gpus) do
    local nxt = redis.call('ZRANGEBYSCORE', KEYS[5], '(' .. fmt(g * 4398046511104 + old),
      '(' .. fmt((g + 1) * 4398046511104), 'LIMIT', 0, 1)
    local hs = nxt[1] and tonumber(string.match(nxt[1], '|(%d+)$'))
    if hs and hs < want then want = math.max(hs, old) end
  end
end
local res
if want > old then
  r['end'] = want
  local js = cjson.encode(r)
  redis.call('HSET', KEYS[1], id, js)
  redis.call('ZADD', KEYS[2], fmt(want), member(id, r.start, r.gpus))
  gindex(KEYS[5], id, r.start, want, r.gpus)
  audit(KEYS[3], tonumber(ARGV[10]), now, 'renew', server, id, actor, 'lease renewed to ' .. fmt(want))
  res = ok('renew', js)
else
  res = ok('renew', raw)
end
remember(KEYS[4], rid, res, ARGV[9])
return res
`

var renewScript = newLuaScript(renewLua)

// Fit answers, from a server's reservations as List returned them at now,
// what Reserve would decide for req, writing nothing: the GPUs it would
// hold, or a *ConflictError (the holders, the earliest slot that fits) or
// an *InvalidError. A caller that picks GPUs by its own preference (exec's
// least recently used first) explains a shortage with it in the store's
// own terms, then reserves explicit ids, which the store checks again.
func Fit(req ReserveRequest, list []Reservation, now time.Time) ([]int, error) {
	a, err := validateReserve(req)
	if err != nil {
		return nil, err
	}
	recs := make([]record, 0, len(list))
	for _, r := range list {
		if r.Server != req.Server {
			continue
		}
		recs = append(recs, record{ID: r.ID, Server: r.Server, GPUs: r.GPUs, Owner: r.Owner,
			Start: toMS(r.Start), End: toMS(r.End), Note: r.Note, Created: toMS(r.CreatedAt), ReleasedBy: r.ReleasedBy})
	}
	gpus, _, _, fail := decideReserve(a, toMS(now), recs)
	if fail != nil {
		return nil, fail.err()
	}
	return gpus, nil
}
