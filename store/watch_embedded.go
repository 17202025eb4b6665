package store

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The watch half: the rules both backends share (validation, a batch's
// weight, the hour it counts in, what is kept), then the embedded store's
// implementation. The Redis side (watch_redis.go, and its scripts in
// scripts.go) mirrors these rules; the contract suite and
// TestWatchRedisMatchesEmbedded hold the two together.
//
// Usage is kept in integer milliseconds (busy ms, util% × ms, MiB × ms,
// user ms) on both backends, so that sums are exact and the two agree to
// the bit; the API turns them into float64 seconds.

// Limits on the watch half's input.
const (
	maxGPUUsers    = 32  // users per GPU in one sample
	maxUserLen     = 64  // bytes per Unix user name
	maxSampleErr   = 500 // bytes of a batch's error
	maxAgentLen    = 200 // bytes of a batch's agent string
	maxUUIDLen     = 100 // bytes of a GPU's UUID
	maxMemMB       = 1 << 24
	defaultEvery   = 30 * time.Second
	maxUsageSpan   = 40 * 24 * time.Hour
	maxChannelLen  = 64
	maxSpecLen     = 200
	maxLabelLen    = 200
	maxSubServers  = 100
	maxJobLen      = 200
	maxHolderLen   = 200
	hourMS         = int64(time.Hour / time.Millisecond)
	claimGrace     = time.Minute // a claim key outlives its lease by this (Redis PX): a safety TTL only
	claimSweepEach = 64          // the embedded store drops finished claims every this many calls
)

// batchArgs is a validated SampleBatch reduced to what the decision needs.
type batchArgs struct {
	at     int64    // ms
	hour   int64    // ms, the start of the UTC hour containing at
	firstW int64    // ms: the weight if this is the server's first batch
	raws   []string // each GPU's sample as JSON (what the live state keeps)
}

// validateBatch checks a batch before anything is read or written.
func validateBatch(b SampleBatch) (batchArgs, error) {
	var a batchArgs
	if err := checkServer(b.Server); err != nil {
		return a, err
	}
	if b.At.IsZero() || b.At.UnixMilli() <= 0 {
		return a, invalidf("a sample batch needs its time")
	}
	if err := checkText("agent", b.Agent, maxAgentLen); err != nil {
		return a, err
	}
	if err := checkText("sample error", b.Err, maxSampleErr); err != nil {
		return a, err
	}
	if b.Err != "" && len(b.GPUs) > 0 {
		return a, invalidf("a batch with an error carries no GPUs")
	}
	seen := map[int]bool{}
	for _, g := range b.GPUs {
		if g.Index < 0 || g.Index >= MaxServerGPUs {
			return a, invalidf("GPU index %d is out of range (0-%d)", g.Index, MaxServerGPUs-1)
		}
		if seen[g.Index] {
			return a, invalidf("GPU %d is in the batch twice", g.Index)
		}
		seen[g.Index] = true
		if g.Util < -1 || g.Util > 100 {
			return a, invalidf("GPU %d: utilization %d is not -1 or 0-100", g.Index, g.Util)
		}
		if g.MemUsedMB < -1 || g.MemUsedMB > maxMemMB || g.MemTotalMB < -1 || g.MemTotalMB > maxMemMB {
			return a, invalidf("GPU %d: memory %d/%d MiB is not -1 or 0-%d", g.Index, g.MemUsedMB, g.MemTotalMB, maxMemMB)
		}
		if err := checkText("GPU UUID", g.UUID, maxUUIDLen); err != nil {
			return a, err
		}
		if len(g.Users) > maxGPUUsers {
			return a, invalidf("GPU %d: %d users; at most %d", g.Index, len(g.Users), maxGPUUsers)
		}
		for i, u := range g.Users {
			if u == "" {
				return a, invalidf("GPU %d: an empty user name", g.Index)
			}
			if err := checkText("user name", u, maxUserLen); err != nil {
				return a, err
			}
			if slices.Contains(g.Users[:i], u) {
				return a, invalidf("GPU %d: user %q is listed twice", g.Index, u)
			}
		}
		raw, err := json.Marshal(g)
		if err != nil {
			return a, err
		}
		a.raws = append(a.raws, string(raw))
	}
	a.at = b.At.UnixMilli()
	a.hour = a.at - a.at%hourMS
	every := b.Every
	if every < time.Millisecond {
		every = defaultEvery
	}
	a.firstW = min(every, MaxSampleWeight).Milliseconds()
	return a, nil
}

// sampleWeight decides a batch at at given the server's last recorded
// batch (last 0: none): ignored (ok false) unless it is newer; weighted
// by the gap, at most MaxSampleWeight, or firstW for the first one.
func sampleWeight(at, last, firstW int64) (w int64, ok bool) {
	if last == 0 {
		return firstW, true
	}
	if at <= last {
		return 0, false
	}
	return min(at-last, MaxSampleWeight.Milliseconds()), true
}

// hourTTL is how long (ms) the hour starting at hour is still kept at
// now: it ends UsageRetention after the hour ends. At or below 0 the hour
// is gone: it is neither written nor read.
func hourTTL(hour, now int64) int64 {
	return hour + hourMS + UsageRetention.Milliseconds() - now
}

// gpuHour is one GPU's hour as both backends keep it, in integer ms.
type gpuHour struct {
	Observed int64            `json:"o,omitempty"`
	Busy     int64            `json:"b,omitempty"`
	Util     int64            `json:"u,omitempty"` // util% × ms
	Mem      int64            `json:"m,omitempty"` // MiB × ms
	Users    map[string]int64 `json:"p,omitempty"`
}

// add counts one sample of weight w (ms). A GPU whose utilization is
// unknown (-1) still counts its users' time, but no observed, busy,
// utilization or memory time.
func (h *gpuHour) add(g GPUSample, w int64) {
	if g.Util >= 0 {
		h.Observed += w
		if g.Busy() {
			h.Busy += w
		}
		h.Util += int64(g.Util) * w
		if g.MemUsedMB >= 0 {
			h.Mem += int64(g.MemUsedMB) * w
		}
	}
	for _, u := range g.Users {
		if h.Users == nil {
			h.Users = map[string]int64{}
		}
		h.Users[u] += w
	}
}

// counts reports whether a sample adds anything to its hour: one with
// its utilization unknown and no users adds nothing (and, on Redis,
// writes no field).
func counts(g GPUSample) bool { return g.Util >= 0 || len(g.Users) > 0 }

func (h gpuHour) usage(hour int64, gpu int) HourUsage {
	sec := func(ms int64) float64 { return float64(ms) / 1000 }
	u := HourUsage{Hour: fromMS(hour), GPU: gpu, Observed: sec(h.Observed), Busy: sec(h.Busy),
		UtilSecs: sec(h.Util), MemSecs: sec(h.Mem)}
	if len(h.Users) > 0 {
		u.Users = make(map[string]float64, len(h.Users))
		for name, ms := range h.Users {
			u.Users[name] = sec(ms)
		}
	}
	return u
}

// usageHours returns the hours (ms) that start in [from, to), or an
// error for a range the stores refuse.
func usageHours(server string, from, to time.Time) ([]int64, error) {
	if err := checkServer(server); err != nil {
		return nil, err
	}
	if to.Before(from) {
		return nil, invalidf("the range ends before it starts")
	}
	if to.Sub(from) > maxUsageSpan {
		return nil, invalidf("usage is read at most %s at a time", roundDur(maxUsageSpan))
	}
	f, t := from.UnixMilli(), to.UnixMilli()
	h := f - f%hourMS
	if h < f {
		h += hourMS
	}
	var hours []int64
	for ; h < t; h += hourMS {
		if h > 0 {
			hours = append(hours, h)
		}
	}
	return hours, nil
}

// hourUsages is one hour's GPUs in GPU order.
func hourUsages(hour int64, gpus map[int]*gpuHour) []HourUsage {
	var out []HourUsage
	for _, g := range slices.Sorted(maps.Keys(gpus)) {
		out = append(out, gpus[g].usage(hour, g))
	}
	return out
}

// liveGPURec is one GPU's live state as both backends keep it.
type liveGPURec struct {
	First  int64     `json:"f"`
	Busy   int64     `json:"b,omitempty"`
	At     int64     `json:"a"`
	Sample GPUSample `json:"s"`
}

func (g liveGPURec) live() LiveGPU {
	return LiveGPU{GPUSample: g.Sample, At: fromMS(g.At), BusyAt: fromMS(g.Busy), FirstAt: fromMS(g.First)}
}

// next is the GPU's state after sample g at at.
func (g liveGPURec) next(s GPUSample, at int64) liveGPURec {
	n := liveGPURec{First: g.First, Busy: g.Busy, At: at, Sample: s}
	if n.First == 0 {
		n.First = at
	}
	if s.Busy() {
		n.Busy = at
	}
	return n
}

// liveState is a server's live state as the embedded store keeps it (the
// Redis hash holds the same fields).
type liveState struct {
	Last    int64              `json:"last"`
	Batches int64              `json:"n,omitempty"`
	Agent   string             `json:"agent,omitempty"`
	Err     string             `json:"err,omitempty"`
	GPUs    map[int]liveGPURec `json:"gpus,omitempty"`
}

func (s liveState) live(server string) Live {
	l := Live{Server: server, SeenAt: fromMS(s.Last), Batches: s.Batches, Agent: s.Agent, Err: s.Err, GPUs: []LiveGPU{}}
	for _, i := range slices.Sorted(maps.Keys(s.GPUs)) {
		l.GPUs = append(l.GPUs, s.GPUs[i].live())
	}
	return l
}

// historyOf keeps the reservations overlapping [from, to), earliest
// start first.
func historyOf(all []record, from, to int64) []Reservation {
	all = slices.DeleteFunc(all, func(r record) bool { return r.Start >= to || r.End <= from })
	slices.SortFunc(all, byStart)
	out := make([]Reservation, 0, len(all))
	for _, r := range all {
		out = append(out, r.reservation())
	}
	return out
}

func checkHistory(server string, from, to time.Time) error {
	if err := checkServer(server); err != nil {
		return err
	}
	if to.Before(from) {
		return invalidf("the range ends before it starts")
	}
	return nil
}

func validateSubscription(s Subscription) error {
	if s.Channel == "" {
		return invalidf("a subscription needs a channel")
	}
	if err := checkText("channel", s.Channel, maxChannelLen); err != nil {
		return err
	}
	if strings.TrimSpace(s.Spec) == "" {
		return invalidf("a subscription needs a schedule")
	}
	if err := checkText("schedule", s.Spec, maxSpecLen); err != nil {
		return err
	}
	if _, err := time.LoadLocation(s.TZ); err != nil {
		return invalidf("unknown time zone %q", s.TZ)
	}
	if s.Period != "day" && s.Period != "week" {
		return invalidf("the period is %q; want day or week", s.Period)
	}
	if err := checkText("label", s.Label, maxLabelLen); err != nil {
		return err
	}
	if err := checkText("subscriber", s.By, MaxOwnerLen); err != nil {
		return err
	}
	if len(s.Servers) > maxSubServers {
		return invalidf("a subscription names at most %d servers", maxSubServers)
	}
	for _, srv := range s.Servers {
		if err := checkServer(srv); err != nil {
			return err
		}
	}
	return nil
}

func sortSubscriptions(subs []Subscription) []Subscription {
	slices.SortFunc(subs, func(a, b Subscription) int { return cmp.Compare(a.Channel, b.Channel) })
	return subs
}

func validateJob(job string) error {
	if job == "" {
		return invalidf("a claim needs a job name")
	}
	return checkText("job name", job, maxJobLen)
}

func validateClaim(job, holder string, lease time.Duration) error {
	if err := validateJob(job); err != nil {
		return err
	}
	if holder == "" {
		return invalidf("a claim needs a holder")
	}
	if err := checkText("holder", holder, maxHolderLen); err != nil {
		return err
	}
	if lease < time.Millisecond || lease > MaxSpan {
		return invalidf("a lease must be between 1ms and %s", roundDur(MaxSpan))
	}
	return nil
}

// A claim is stored as "held:<until ms>:<holder>" or "done:<until ms>",
// on both backends. The deadline is in the value so that the store's
// clock decides, not a key's TTL (which on Redis runs on real time).
func heldValue(until int64, holder string) string {
	return "held:" + strconv.FormatInt(until, 10) + ":" + holder
}

func doneValue(until int64) string { return "done:" + strconv.FormatInt(until, 10) }

// parseClaim reads a stored claim; a malformed one reads as absent.
func parseClaim(v string) (kind string, until int64, holder string) {
	parts := strings.SplitN(v, ":", 3)
	if len(parts) < 2 {
		return "", 0, ""
	}
	until, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return "", 0, ""
	}
	if len(parts) == 3 {
		holder = parts[2]
	}
	return parts[0], until, holder
}

// claimable decides a claim by holder at now over the stored value ("":
// none).
func claimable(stored, holder string, now int64) bool {
	kind, until, who := parseClaim(stored)
	switch {
	case until <= now:
		return true
	case kind == "done":
		return false
	case kind == "held":
		return who == holder
	}
	return true
}

// The embedded store's watch buckets: per server "live" (one key, the
// live state JSON) and "use" (hour start, 8 bytes big-endian ms → that
// hour's GPUs as JSON); top level "subs" (channel → subscription JSON)
// and "claims" (job → claim value, as on Redis).
var (
	bucketLive   = []byte("live")
	bucketUse    = []byte("use")
	bucketSubs   = []byte("subs")
	bucketClaims = []byte("claims")
	keyState     = []byte("state")
)

func hourKey(hour int64) []byte { return seqKey(uint64(hour)) }

// RecordSamples stores one agent batch (see Watch).
func (e *Embedded) RecordSamples(ctx context.Context, b SampleBatch) error {
	a, err := validateBatch(b)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	err = e.update(func(tx *bolt.Tx) error {
		s := &srvTx{tx: tx, server: b.Server, now: e.nowMS()}
		if ahead := a.at - s.now; ahead > MaxClockAhead.Milliseconds() {
			return invalidCode(codeClockAhead, ahead, 0)
		}
		var st liveState
		if lb, err := s.bucket(bucketLive, false); err != nil {
			return err
		} else if lb != nil {
			if v := lb.Get(keyState); v != nil {
				if err := json.Unmarshal(v, &st); err != nil {
					return err
				}
			}
		}
		w, ok := sampleWeight(a.at, st.Last, a.firstW)
		if !ok {
			return errRollback
		}
		newHour := st.Last == 0 || st.Last-st.Last%hourMS != a.hour
		st.Last, st.Agent, st.Err = a.at, b.Agent, b.Err
		st.Batches++
		if b.Err == "" {
			if err := s.addUsage(a, b.GPUs, w, newHour); err != nil {
				return err
			}
			if st.GPUs == nil {
				st.GPUs = map[int]liveGPURec{}
			}
			for _, g := range b.GPUs {
				st.GPUs[g.Index] = st.GPUs[g.Index].next(g, a.at)
			}
		}
		lb, err := s.bucket(bucketLive, true)
		if err != nil {
			return err
		}
		v, err := json.Marshal(st)
		if err != nil {
			return err
		}
		return lb.Put(keyState, v)
	})
	var inv *InvalidError
	if errors.As(err, &inv) {
		return err
	}
	if err != nil && !errors.Is(err, errRollback) {
		return fmt.Errorf("store: record samples: %w", err)
	}
	return nil
}

// addUsage counts a batch's GPUs in its hour and, when a new hour
// starts, drops the hours past UsageRetention.
func (s *srvTx) addUsage(a batchArgs, gpus []GPUSample, w int64, newHour bool) error {
	ub, err := s.bucket(bucketUse, true)
	if err != nil {
		return err
	}
	if newHour {
		var old [][]byte
		c := ub.Cursor()
		for k, _ := c.First(); k != nil && hourTTL(int64(binary.BigEndian.Uint64(k)), s.now) <= 0; k, _ = c.Next() {
			old = append(old, slices.Clone(k))
		}
		if err := deleteKeys(ub, old); err != nil {
			return err
		}
	}
	if hourTTL(a.hour, s.now) <= 0 || !slices.ContainsFunc(gpus, counts) {
		return nil
	}
	hour := map[int]*gpuHour{}
	if v := ub.Get(hourKey(a.hour)); v != nil {
		if err := json.Unmarshal(v, &hour); err != nil {
			return err
		}
	}
	for _, g := range gpus {
		if !counts(g) {
			continue
		}
		h := hour[g.Index]
		if h == nil {
			h = &gpuHour{}
			hour[g.Index] = h
		}
		h.add(g, w)
	}
	v, err := json.Marshal(hour)
	if err != nil {
		return err
	}
	return ub.Put(hourKey(a.hour), v)
}

// Usage returns the server's hourly usage (see Watch).
func (e *Embedded) Usage(ctx context.Context, server string, from, to time.Time) ([]HourUsage, error) {
	hours, err := usageHours(server, from, to)
	if err != nil || len(hours) == 0 {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	now := e.nowMS()
	var out []HourUsage
	err = e.view(func(tx *bolt.Tx) error {
		ub, err := (&srvTx{tx: tx, server: server}).bucket(bucketUse, false)
		if ub == nil || err != nil {
			return err
		}
		c := ub.Cursor()
		last := hours[len(hours)-1]
		for k, v := c.Seek(hourKey(hours[0])); k != nil; k, v = c.Next() {
			h := int64(binary.BigEndian.Uint64(k))
			if h > last {
				break
			}
			if hourTTL(h, now) <= 0 {
				continue
			}
			var gpus map[int]*gpuHour
			if err := json.Unmarshal(v, &gpus); err != nil {
				return err
			}
			out = append(out, hourUsages(h, gpus)...)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: usage: %w", err)
	}
	return out, nil
}

// Live returns the server's latest agent state.
func (e *Embedded) Live(ctx context.Context, server string) (Live, error) {
	if err := checkServer(server); err != nil {
		return Live{}, err
	}
	if err := ctx.Err(); err != nil {
		return Live{}, err
	}
	var st liveState
	err := e.view(func(tx *bolt.Tx) error {
		lb, err := (&srvTx{tx: tx, server: server}).bucket(bucketLive, false)
		if lb == nil || err != nil {
			return err
		}
		if v := lb.Get(keyState); v != nil {
			return json.Unmarshal(v, &st)
		}
		return nil
	})
	if err != nil {
		return Live{}, fmt.Errorf("store: live: %w", err)
	}
	return st.live(server), nil
}

// History returns the reservations overlapping [from, to), ended and
// released ones included.
func (e *Embedded) History(ctx context.Context, server string, from, to time.Time) ([]Reservation, error) {
	if err := checkHistory(server, from, to); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var all []record
	err := e.view(func(tx *bolt.Tx) error {
		var err error
		all, err = (&srvTx{tx: tx, server: server}).records()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: history: %w", err)
	}
	return historyOf(all, toMS(from), toMS(to)), nil
}

// PutSubscription creates or replaces the channel's subscription.
func (e *Embedded) PutSubscription(ctx context.Context, s Subscription) error {
	if err := validateSubscription(s); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	v, err := json.Marshal(s)
	if err != nil {
		return err
	}
	err = e.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketSubs)
		if err != nil {
			return err
		}
		return b.Put([]byte(s.Channel), v)
	})
	if err != nil {
		return fmt.Errorf("store: put subscription: %w", err)
	}
	return nil
}

// DeleteSubscription removes the channel's subscription, reporting
// whether there was one.
func (e *Embedded) DeleteSubscription(ctx context.Context, channel string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	var had bool
	err := e.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSubs)
		if b == nil || b.Get([]byte(channel)) == nil {
			return nil
		}
		had = true
		return b.Delete([]byte(channel))
	})
	if err != nil {
		return false, fmt.Errorf("store: delete subscription: %w", err)
	}
	return had, nil
}

// Subscriptions lists all subscriptions by channel.
func (e *Embedded) Subscriptions(ctx context.Context) ([]Subscription, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []Subscription
	err := e.view(func(tx *bolt.Tx) error {
		var err error
		out, err = decodeAll[Subscription](tx.Bucket(bucketSubs))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: subscriptions: %w", err)
	}
	return sortSubscriptions(out), nil
}

// claimTx runs f on the claims bucket in one transaction, and now and
// then drops the claims whose time is over.
func (e *Embedded) claimTx(ctx context.Context, op string, f func(b *bolt.Bucket, now int64) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := e.update(func(tx *bolt.Tx) error {
		now := e.nowMS()
		b, err := tx.CreateBucketIfNotExists(bucketClaims)
		if err != nil {
			return err
		}
		if err := f(b, now); err != nil {
			return err
		}
		n, err := b.NextSequence()
		if err != nil || n%claimSweepEach != 0 {
			return err
		}
		var old [][]byte
		err = b.ForEach(func(k, v []byte) error {
			if _, until, _ := parseClaim(string(v)); until <= now {
				old = append(old, slices.Clone(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
		return deleteKeys(b, old)
	})
	if err != nil {
		return fmt.Errorf("store: %s: %w", op, err)
	}
	return nil
}

// Claim takes the named job for holder for lease (see Watch).
func (e *Embedded) Claim(ctx context.Context, job, holder string, lease time.Duration) (bool, error) {
	if err := validateClaim(job, holder, lease); err != nil {
		return false, err
	}
	var got bool
	err := e.claimTx(ctx, "claim", func(b *bolt.Bucket, now int64) error {
		if !claimable(string(b.Get([]byte(job))), holder, now) {
			return nil
		}
		got = true
		return b.Put([]byte(job), []byte(heldValue(now+lease.Milliseconds(), holder)))
	})
	return got, err
}

// Done marks a job finished: it is not claimed again for DoneRetention.
func (e *Embedded) Done(ctx context.Context, job string) error {
	if err := validateJob(job); err != nil {
		return err
	}
	return e.claimTx(ctx, "done", func(b *bolt.Bucket, now int64) error {
		return b.Put([]byte(job), []byte(doneValue(now+DoneRetention.Milliseconds())))
	})
}
