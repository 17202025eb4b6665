package store

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is the shared store: any number of bot replicas talk to one Redis
// (standalone, Sentinel or Cluster through go-redis's UniversalClient).
// Every mutation is one Lua script (scripts.go) and reads its clock with
// TIME, so replicas with skewed clocks still agree.
//
// Keys, all under one hash tag per server so that a script touches a single
// Cluster slot (see keysFor):
//
//	gpuplan:{srv:<server>}:resv         hash   id → reservation JSON
//	gpuplan:{srv:<server>}:ends         zset   "<id>|<start>|<gpus>" scored by end (ms): the live index
//	gpuplan:{srv:<server>}:gidx         zset   "<gpu>|<id>|<start>" scored gpu*2^42 + end: the per-GPU time index
//	gpuplan:{srv:<server>}:seq          string INCR counter for ids
//	gpuplan:{srv:<server>}:req:<rid>    string the answer to request <rid>, EX 86400
//	gpuplan:{srv:<server>}:wait         hash   waiter id → waiter JSON
//	gpuplan:{srv:<server>}:audit        stream every change, MAXLEN ~ 10000
//	gpuplan:{srv:<server>}:live         hash   the agent's live state (watch_redis.go)
//	gpuplan:{srv:<server>}:use:<hour>   hash   one hour's usage per GPU, expires UsageRetention after the hour
//	gpuplan:subs                        hash   channel → digest subscription JSON
//	gpuplan:claim:<job>                 string a scheduled job's claim: "held:<until>:<holder>" or "done:<until>"
type Redis struct {
	client  redis.UniversalClient
	clock   func() time.Time
	timeout time.Duration
	where   string   // "Redis at host:port", for messages
	secrets []string // scrubbed from every message

	// WAIT after each mutating script (RedisOptions.WaitReplicas).
	waitReplicas int
	waitTimeout  time.Duration
	unconfirmed  atomic.Int64

	idSuffix func() string // newIDSuffix; a test may make it predictable
}

var _ Store = (*Redis)(nil)

// RedisOptions says how to reach Redis.
type RedisOptions struct {
	// URL is redis://[user:password@]host:port[/db] or rediss:// for TLS.
	// Several addr= query parameters make it a Cluster seed list
	// (redis://h1:6379?addr=h2:6379&addr=h3:6379).
	URL string
	// SentinelAddrs and MasterName select Redis Sentinel instead.
	SentinelAddrs []string
	MasterName    string
	// Password overrides the URL's; it is never logged or put in an error.
	Password string
	// SentinelPassword authenticates to the Sentinels, if they need it.
	SentinelPassword string
	// DB is the database number with Sentinel (a URL carries its own).
	DB int
	// Clock, when set, replaces Redis TIME as "now" (passed to every
	// script). For tests only: replicas must share Redis's clock.
	Clock func() time.Time
	// Timeout bounds each operation (default 1 s), so that a user gets an
	// answer well inside 3 s even when Redis is gone.
	Timeout time.Duration
	// WaitReplicas, when above 0, sends WAIT <WaitReplicas> <WaitTimeout>
	// after each script, on the script's own connection: the answer then
	// comes once that many replicas have the change, or after WaitTimeout
	// (default 100 ms) without them. It narrows what a Sentinel failover
	// can lose; it does not make Redis consistent. A change that reached
	// fewer replicas is still answered as done (it is, on the primary) and
	// counted by Unconfirmed. Standalone and Sentinel only; ignored with
	// Cluster.
	WaitReplicas int
	WaitTimeout  time.Duration
}

// DefaultTimeout is RedisOptions.Timeout when it is left zero.
const DefaultTimeout = time.Second

// OpenRedis connects to Redis and checks that it answers. It does not
// check the server's configuration: call CheckPolicy for that.
func OpenRedis(ctx context.Context, opt RedisOptions) (*Redis, error) {
	uo, where, secrets, err := universalOptions(opt)
	if err != nil {
		return nil, err
	}
	r := &Redis{client: redis.NewUniversalClient(uo), clock: opt.Clock, timeout: uo.ReadTimeout, where: where, secrets: secrets,
		idSuffix: newIDSuffix}
	if opt.WaitReplicas > 0 {
		r.waitReplicas, r.waitTimeout = opt.WaitReplicas, cmp.Or(opt.WaitTimeout, 100*time.Millisecond)
	}
	pctx, cancel := r.opContext(ctx)
	defer cancel()
	if err := r.client.Ping(pctx).Err(); err != nil {
		r.client.Close()
		return nil, r.wrap(ctx, "connect", err)
	}
	return r, nil
}

// NewRedis wraps a client the caller built (tests, or a caller with its
// own options); clock as in RedisOptions. Close closes the client.
func NewRedis(client redis.UniversalClient, clock func() time.Time) *Redis {
	return &Redis{client: client, clock: clock, timeout: DefaultTimeout, where: "Redis", idSuffix: newIDSuffix}
}

func universalOptions(opt RedisOptions) (*redis.UniversalOptions, string, []string, error) {
	timeout := opt.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	uo := &redis.UniversalOptions{
		ClientName: "gpuplan",
		// An operation's context carries the deadline; the socket
		// timeouts stop a half-open connection from outliving it.
		ContextTimeoutEnabled: true,
		DialTimeout:           timeout,
		ReadTimeout:           timeout,
		WriteTimeout:          timeout,
		PoolTimeout:           timeout,
		// A retried script is harmless: the request id makes it apply once.
		MaxRetries:         2,
		MinRetryBackoff:    8 * time.Millisecond,
		MaxRetryBackoff:    128 * time.Millisecond,
		DialerRetries:      2,
		DialerRetryTimeout: 50 * time.Millisecond,
	}
	var secrets []string
	var where string
	switch {
	case opt.URL != "" && len(opt.SentinelAddrs) > 0:
		return nil, "", nil, errors.New("store: give a Redis URL or Sentinel addresses, not both")
	case opt.URL != "":
		u, err := url.Parse(opt.URL)
		if err != nil {
			return nil, "", nil, errors.New("store: the Redis URL is not a valid URL")
		}
		if p, ok := u.User.Password(); ok && p != "" {
			secrets = append(secrets, p)
		}
		safe := *u
		safe.User = nil
		if u.Query().Has("addr") {
			co, err := redis.ParseClusterURL(opt.URL)
			if err != nil {
				return nil, "", nil, fmt.Errorf("store: Redis URL %s: %s", safe.Redacted(), scrub(err.Error(), secrets))
			}
			uo.Addrs, uo.Username, uo.Password, uo.TLSConfig = co.Addrs, co.Username, co.Password, co.TLSConfig
			uo.IsClusterMode = true
			where = "Redis Cluster at " + strings.Join(co.Addrs, ",")
		} else {
			o, err := redis.ParseURL(opt.URL)
			if err != nil {
				return nil, "", nil, fmt.Errorf("store: Redis URL %s: %s", safe.Redacted(), scrub(err.Error(), secrets))
			}
			uo.Addrs = []string{o.Addr}
			uo.Username, uo.Password, uo.DB, uo.TLSConfig = o.Username, o.Password, o.DB, o.TLSConfig
			if o.Protocol != 0 {
				uo.Protocol = o.Protocol
			}
			where = "Redis at " + o.Addr
		}
	case len(opt.SentinelAddrs) > 0:
		if opt.MasterName == "" {
			return nil, "", nil, errors.New("store: Sentinel needs the master's name")
		}
		uo.Addrs, uo.MasterName, uo.DB = opt.SentinelAddrs, opt.MasterName, opt.DB
		uo.SentinelPassword = opt.SentinelPassword
		where = fmt.Sprintf("Redis (Sentinel master %s via %s)", opt.MasterName, strings.Join(opt.SentinelAddrs, ","))
	default:
		return nil, "", nil, errors.New("store: no Redis URL or Sentinel addresses")
	}
	if opt.Password != "" {
		uo.Password = opt.Password
	}
	for _, s := range []string{opt.Password, opt.SentinelPassword} {
		if s != "" {
			secrets = append(secrets, s)
		}
	}
	return uo, where, secrets, nil
}

func scrub(s string, secrets []string) string {
	for _, p := range secrets {
		s = strings.ReplaceAll(s, p, "[redacted]")
	}
	return s
}

// Close closes the client.
func (r *Redis) Close() error { return r.client.Close() }

// Client is the underlying go-redis client (for health checks).
func (r *Redis) Client() redis.UniversalClient { return r.client }

func (r *Redis) opContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, r.timeout)
}

// UnavailableError is how a Redis that cannot answer shows up: it matches
// ErrUnavailable, says which Redis and why, and never holds a password.
// The outcome of the operation is unknown; retrying it with the same
// request id is safe.
type UnavailableError struct {
	Msg   string
	Cause error
}

func (e *UnavailableError) Error() string { return e.Msg }

func (e *UnavailableError) Unwrap() []error { return []error{ErrUnavailable, e.Cause} }

// wrap classifies a go-redis error: the caller's own cancellation stays
// what it is; Redis being unreachable, slow, loading, read-only, out of
// memory or refusing our credentials is ErrUnavailable; anything else is
// a bug (a script error) and says so.
func (r *Redis) wrap(parent context.Context, op string, err error) error {
	if errors.Is(parent.Err(), context.Canceled) {
		return fmt.Errorf("store: %s: %w", op, parent.Err())
	}
	var why string
	var rerr redis.Error
	switch {
	case errors.Is(err, redis.Nil):
		why = "cannot be found (Sentinel does not know that master name?)"
	case errors.As(err, &rerr):
		msg := rerr.Error()
		switch {
		case strings.HasPrefix(msg, "OOM"):
			why = "is out of memory (maxmemory reached); nothing was written"
		case strings.HasPrefix(msg, "NOAUTH"), strings.HasPrefix(msg, "WRONGPASS"), strings.HasPrefix(msg, "NOPERM"):
			why = "refused gpuplan's credentials"
		case strings.HasPrefix(msg, "LOADING"), strings.HasPrefix(msg, "MASTERDOWN"), strings.HasPrefix(msg, "CLUSTERDOWN"),
			strings.HasPrefix(msg, "TRYAGAIN"), strings.HasPrefix(msg, "READONLY"), strings.HasPrefix(msg, "NOREPLICAS"),
			strings.HasPrefix(msg, "BUSY"), strings.Contains(msg, "READONLY"):
			why = "is not ready"
		default:
			return fmt.Errorf("store: %s: Redis answered an error: %s", op, scrub(msg, r.secrets))
		}
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		why = "is unreachable: it did not answer in time"
	case errors.Is(err, redis.ErrClosed):
		why = "is closed (the store was shut down)"
	default:
		why = "is unreachable"
	}
	return &UnavailableError{
		Msg:   scrub(fmt.Sprintf("%v: %s %s (%s: %v); try again", ErrUnavailable, r.where, why, op, err), r.secrets),
		Cause: err,
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func (r *Redis) nowArg() string {
	if r.clock == nil {
		return ""
	}
	return strconv.FormatInt(r.clock().UnixMilli(), 10)
}

// keys are one server's keys; every one carries the hash tag {srv:<name>}.
type keys struct {
	resv, ends, seq, wait, audit, live, gidx string
	prefix                                   string
}

func keysFor(server string) keys {
	p := "gpuplan:{srv:" + server + "}:"
	return keys{resv: p + "resv", ends: p + "ends", seq: p + "seq", wait: p + "wait", audit: p + "audit",
		live: p + "live", gidx: p + "gidx", prefix: p}
}

// req is the key remembering request rid's answer.
func (k keys) req(rid string) string { return k.prefix + "req:" + rid }

// use is the hash of the hour that starts at hour (Unix ms); the key
// names it in Unix seconds.
func (k keys) use(hour int64) string { return k.prefix + "use:" + strconv.FormatInt(hour/1000, 10) }

func (k keys) all(rid string) []string {
	return []string{k.resv, k.ends, k.seq, k.wait, k.audit, k.req(rid), k.live, k.use(1893456000000), k.gidx}
}

// The watch half's keys that belong to no server: each is the only key
// of the commands and scripts that touch it.
const subsKey = "gpuplan:subs" // hash: channel → subscription JSON

func claimKey(job string) string { return "gpuplan:claim:" + job }

// script runs one script and returns its JSON answer. Scripts always go
// through Script.Run (EVALSHA, then EVAL on NOSCRIPT), never in a pipeline,
// where that fallback does not work.
func (r *Redis) script(ctx context.Context, op string, s *luaScript, keys []string, args ...any) (string, error) {
	octx, cancel := r.opContext(ctx)
	defer cancel()
	if c, ok := r.client.(*redis.Client); ok && r.waitReplicas > 0 {
		// WAIT counts the writes of its own connection: pin one.
		conn := c.Conn()
		defer conn.Close()
		v, err := s.Run(octx, conn, keys, args...).Text()
		if err != nil {
			return "", r.wrap(ctx, op, err)
		}
		if n, err := conn.Wait(octx, r.waitReplicas, r.waitTimeout).Result(); err != nil || n < int64(r.waitReplicas) {
			r.unconfirmed.Add(1)
		}
		return v, nil
	}
	v, err := s.Run(octx, r.client, keys, args...).Text()
	if err != nil {
		return "", r.wrap(ctx, op, err)
	}
	return v, nil
}

// Unconfirmed counts the scripts whose WAIT reached fewer replicas than
// RedisOptions.WaitReplicas: changes a failover may lose.
func (r *Redis) Unconfirmed() int64 { return r.unconfirmed.Load() }

const (
	msGrace   = int64(PastGrace / time.Millisecond)
	msHorizon = int64(Horizon / time.Millisecond)
	msCleanup = int64(CleanupAfter / time.Millisecond)
	msSpan    = int64(MaxSpan / time.Millisecond)
	reqTTLSec = int64(RequestTTL / time.Second)
)

// Reserve holds GPUs (see Store).
func (r *Redis) Reserve(ctx context.Context, req ReserveRequest) (Reservation, error) {
	a, err := validateReserve(req)
	if err != nil {
		return Reservation{}, err
	}
	k := keysFor(a.Server)
	attempt := newAttempt()
	raw, err := r.script(ctx, "reserve", reserveScript,
		[]string{k.resv, k.ends, k.seq, k.audit, k.req(req.RequestID), k.gidx},
		r.nowArg(), req.RequestID, a.Server, a.ServerGPUs, a.Count, joinInts(a.GPUs), a.Owner,
		a.Start, a.Duration, a.Max, jsonString(a.Note), msGrace, msHorizon, msCleanup, reqTTLSec, AuditCap, msSpan,
		jsonString(a.Owner), SweepEvery, attempt, r.idSuffix())
	raw, err = r.settle(ctx, "reserve", k, req.RequestID, attempt, raw, err)
	return reservationAnswer("reserve", raw, err)
}

// Release ends or cancels a reservation (see Store).
func (r *Redis) Release(ctx context.Context, req ReleaseRequest) (Reservation, error) {
	if err := validateRelease(req); err != nil {
		return Reservation{}, err
	}
	server, ok := ServerOf(req.ID)
	if !ok {
		return Reservation{}, ErrNotFound
	}
	k := keysFor(server)
	attempt := newAttempt()
	raw, err := r.script(ctx, "release", releaseScript,
		[]string{k.resv, k.ends, k.audit, k.req(req.RequestID), k.gidx},
		r.nowArg(), req.RequestID, req.ID, req.Actor, flag(req.Force), server, reqTTLSec, AuditCap, attempt)
	raw, err = r.settle(ctx, "release", k, req.RequestID, attempt, raw, err)
	return reservationAnswer("release", raw, err)
}

// jsonString is s as a JSON string literal, "" for the empty string; the
// reserve script splices it into the record it stores.
func jsonString(s string) string {
	if s == "" {
		return ""
	}
	b, _ := json.Marshal(s)
	return string(b)
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// Extend moves a reservation's end later (see Store).
func (r *Redis) Extend(ctx context.Context, req ExtendRequest) (Reservation, error) {
	if err := validateExtend(req); err != nil {
		return Reservation{}, err
	}
	server, ok := ServerOf(req.ID)
	if !ok {
		return Reservation{}, ErrNotFound
	}
	k := keysFor(server)
	attempt := newAttempt()
	raw, err := r.script(ctx, "extend", extendScript,
		[]string{k.resv, k.ends, k.audit, k.req(req.RequestID), k.gidx},
		r.nowArg(), req.RequestID, req.ID, req.Actor, flag(req.Force), req.By.Milliseconds(),
		req.MaxDuration.Milliseconds(), msSpan, server, reqTTLSec, AuditCap, attempt)
	raw, err = r.settle(ctx, "extend", k, req.RequestID, attempt, raw, err)
	return reservationAnswer("extend", raw, err)
}

// Get returns a reservation, also an ended one until it is cleaned up.
func (r *Redis) Get(ctx context.Context, id string) (Reservation, error) {
	server, ok := ServerOf(id)
	if !ok {
		return Reservation{}, ErrNotFound
	}
	octx, cancel := r.opContext(ctx)
	defer cancel()
	raw, err := r.client.HGet(octx, keysFor(server).resv, id).Result()
	if errors.Is(err, redis.Nil) {
		return Reservation{}, ErrNotFound
	}
	if err != nil {
		return Reservation{}, r.wrap(ctx, "get", err)
	}
	var rec record
	if err := json.Unmarshal([]byte(raw), &rec); err != nil {
		return Reservation{}, fmt.Errorf("store: get %s: %w", id, err)
	}
	return rec.reservation(), nil
}

// readNowAndJSON runs a read script answering now, then JSON values.
func (r *Redis) readNowAndJSON(ctx context.Context, op string, s *luaScript, keys []string) (int64, []string, error) {
	octx, cancel := r.opContext(ctx)
	defer cancel()
	vals, err := s.Run(octx, r.client, keys, r.nowArg()).StringSlice()
	if err != nil {
		return 0, nil, r.wrap(ctx, op, err)
	}
	if len(vals) == 0 {
		return 0, nil, fmt.Errorf("store: %s: empty answer", op)
	}
	now, err := strconv.ParseInt(vals[0], 10, 64)
	if err != nil {
		return 0, nil, fmt.Errorf("store: %s: bad time %q", op, vals[0])
	}
	return now, vals[1:], nil
}

// List returns the server's reservations that have not ended, earliest
// start first.
func (r *Redis) List(ctx context.Context, server string) ([]Reservation, error) {
	if err := checkServer(server); err != nil {
		return nil, err
	}
	k := keysFor(server)
	now, raws, err := r.readNowAndJSON(ctx, "list", listScript, []string{k.resv, k.ends})
	if err != nil {
		return nil, err
	}
	all := make([]record, 0, len(raws))
	for _, raw := range raws {
		var rec record
		if err := json.Unmarshal([]byte(raw), &rec); err != nil {
			return nil, fmt.Errorf("store: list: %w", err)
		}
		all = append(all, rec)
	}
	return listed(all, now), nil
}

// SetAnnouncement records where a reservation was announced.
func (r *Redis) SetAnnouncement(ctx context.Context, id, channel, ts string) error {
	server, ok := ServerOf(id)
	if !ok {
		return ErrNotFound
	}
	k := keysFor(server)
	raw, err := r.script(ctx, "announce", announceScript, []string{k.resv, k.audit},
		r.nowArg(), id, channel, ts, server, AuditCap)
	_, err = decodeAnswer[bool]("announce", raw, err)
	return err
}

// MarkReminded records that the expiry reminder went out; false if it
// already had, so that one replica sends it.
func (r *Redis) MarkReminded(ctx context.Context, id string) (bool, error) {
	server, ok := ServerOf(id)
	if !ok {
		return false, ErrNotFound
	}
	k := keysFor(server)
	raw, err := r.script(ctx, "remind", remindScript, []string{k.resv, k.audit},
		r.nowArg(), id, server, AuditCap)
	return decodeAnswer[bool]("remind", raw, err)
}

// Wait joins a server's waiting list.
func (r *Redis) Wait(ctx context.Context, req WaitRequest) (Waiter, error) {
	if err := validateWait(req); err != nil {
		return Waiter{}, err
	}
	k := keysFor(req.Server)
	attempt := newAttempt()
	raw, err := r.script(ctx, "wait", waitScript, []string{k.wait, k.seq, k.audit, k.req(req.RequestID)},
		r.nowArg(), req.RequestID, req.Server, req.Count, req.Owner, req.For.Milliseconds(), reqTTLSec, AuditCap, attempt)
	raw, err = r.settle(ctx, "wait", k, req.RequestID, attempt, raw, err)
	w, err := decodeAnswer[waiterRecord]("wait", raw, err)
	if err != nil {
		return Waiter{}, err
	}
	return w.waiter(), nil
}

// Waiters lists the server's waiters that have not expired, oldest first.
func (r *Redis) Waiters(ctx context.Context, server string) ([]Waiter, error) {
	if err := checkServer(server); err != nil {
		return nil, err
	}
	now, raws, err := r.readNowAndJSON(ctx, "waiters", waitersScript, []string{keysFor(server).wait})
	if err != nil {
		return nil, err
	}
	all := make([]waiterRecord, 0, len(raws))
	for _, raw := range raws {
		var w waiterRecord
		if err := json.Unmarshal([]byte(raw), &w); err != nil {
			return nil, fmt.Errorf("store: waiters: %w", err)
		}
		all = append(all, w)
	}
	return waiting(all, now), nil
}

// RemoveWaiter takes a waiter off the list. Removing one that is not
// there (already removed, expired) is not an error, so a retry is safe.
func (r *Redis) RemoveWaiter(ctx context.Context, server, id string) (bool, error) {
	if err := checkServer(server); err != nil {
		return false, err
	}
	k := keysFor(server)
	raw, err := r.script(ctx, "unwait", unwaitScript, []string{k.wait, k.audit}, r.nowArg(), id, server, AuditCap)
	return decodeAnswer[bool]("unwait", raw, err)
}

// Audit returns the server's last n changes, newest last.
func (r *Redis) Audit(ctx context.Context, server string, n int) ([]AuditEvent, error) {
	if err := checkServer(server); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, nil
	}
	octx, cancel := r.opContext(ctx)
	defer cancel()
	msgs, err := r.client.XRevRangeN(octx, keysFor(server).audit, "+", "-", int64(n)).Result()
	if err != nil {
		return nil, r.wrap(ctx, "audit", err)
	}
	out := make([]AuditEvent, 0, len(msgs))
	for _, m := range slices.Backward(msgs) {
		str := func(k string) string { s, _ := m.Values[k].(string); return s }
		at, _ := strconv.ParseInt(str("at"), 10, 64)
		out = append(out, AuditEvent{At: fromMS(at), Action: str("action"), Server: str("server"),
			ID: str("id"), Actor: str("actor"), Detail: str("detail")})
	}
	return out, nil
}

// Now is Redis's clock (TIME), or the injected one.
func (r *Redis) Now(ctx context.Context) (time.Time, error) {
	if r.clock != nil {
		return fromMS(r.clock().UnixMilli()), nil
	}
	octx, cancel := r.opContext(ctx)
	defer cancel()
	t, err := r.client.Time(octx).Result()
	if err != nil {
		return time.Time{}, r.wrap(ctx, "time", err)
	}
	return fromMS(t.UnixMilli()), nil
}

// ErrUnsafeRedis is what CheckPolicy returns when Redis could silently
// drop reservations.
var ErrUnsafeRedis = errors.New("unsafe Redis configuration")

// CheckPolicy reads Redis's configuration at start. It refuses an eviction
// policy (Redis would evict reservations to make room) and warns when
// persistence is off or weak. A Redis that forbids CONFIG (an ACL, a
// managed service) gets a warning instead: check it by hand.
func (r *Redis) CheckPolicy(ctx context.Context) (warnings []string, err error) {
	octx, cancel := r.opContext(ctx)
	defer cancel()
	denied := false
	get := func(name string) (string, bool, error) {
		if denied {
			return "", false, nil
		}
		m, err := r.client.ConfigGet(octx, name).Result()
		var rerr redis.Error
		if errors.As(err, &rerr) {
			denied = true
			warnings = append(warnings, fmt.Sprintf("could not read the Redis configuration (%s); make sure maxmemory-policy is noeviction and appendonly is yes", scrub(rerr.Error(), r.secrets)))
			return "", false, nil
		}
		if err != nil {
			return "", false, r.wrap(ctx, "config get", err)
		}
		v, ok := m[name]
		return v, ok, nil
	}
	policy, ok, err := get("maxmemory-policy")
	if err != nil {
		return nil, err
	}
	if ok {
		switch {
		case policy == "noeviction":
		case strings.HasPrefix(policy, "allkeys-"), strings.HasPrefix(policy, "volatile-"),
			strings.HasSuffix(policy, "-lru"), strings.HasSuffix(policy, "-lfu"), strings.HasSuffix(policy, "-random"):
			return warnings, fmt.Errorf("%w: maxmemory-policy is %s, which would let Redis evict reservations; set maxmemory-policy noeviction", ErrUnsafeRedis, policy)
		default:
			warnings = append(warnings, fmt.Sprintf("unknown Redis maxmemory-policy %q; gpuplan needs noeviction", policy))
		}
	}
	aof, okA, err := get("appendonly")
	if err != nil {
		return nil, err
	}
	save, okS, err := get("save")
	if err != nil {
		return nil, err
	}
	if okA && okS && aof == "no" {
		if strings.TrimSpace(save) == "" {
			warnings = append(warnings, "Redis persistence is off (appendonly no, save \"\"): a Redis restart loses every reservation; set appendonly yes")
		} else {
			warnings = append(warnings, "Redis keeps only RDB snapshots (appendonly no): a crash loses the reservations made since the last snapshot; set appendonly yes")
		}
	}
	return warnings, nil
}
