package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The Redis side of the watch half. RecordSamples, Claim and Done are one
// script each (scripts.go), mirroring the rules in watch_embedded.go; the
// reads are plain commands, or a read script when they need several keys
// in one round trip. Subscriptions are single-key hash commands.

const (
	msMaxWeight  = int64(MaxSampleWeight / time.Millisecond)
	msRetention  = int64(UsageRetention / time.Millisecond)
	msDone       = int64(DoneRetention / time.Millisecond)
	msClaimGrace = int64(claimGrace / time.Millisecond)
)

// RecordSamples stores one agent batch (see Watch).
func (r *Redis) RecordSamples(ctx context.Context, b SampleBatch) error {
	a, err := validateBatch(b)
	if err != nil {
		return err
	}
	k := keysFor(b.Server)
	args := make([]any, 0, 10+len(a.raws))
	args = append(args, r.nowArg(), a.at, a.firstW, msMaxWeight, a.hour, msRetention, BusyUtil, b.Agent, b.Err, MaxClockAhead.Milliseconds())
	for _, raw := range a.raws {
		args = append(args, raw)
	}
	raw, err := r.script(ctx, "record samples", samplesScript, []string{k.live, k.use(a.hour)}, args...)
	_, err = decodeAnswer[bool]("samples", raw, err)
	return err
}

// Usage returns the server's hourly usage (see Watch).
func (r *Redis) Usage(ctx context.Context, server string, from, to time.Time) ([]HourUsage, error) {
	hours, err := usageHours(server, from, to)
	if err != nil || len(hours) == 0 {
		return nil, err
	}
	k := keysFor(server)
	keys := make([]string, len(hours))
	for i, h := range hours {
		keys[i] = k.use(h)
	}
	octx, cancel := r.opContext(ctx)
	defer cancel()
	vals, err := usageScript.Run(octx, r.client, keys, r.nowArg()).Slice()
	if err != nil {
		return nil, r.wrap(ctx, "usage", err)
	}
	if len(vals) != len(hours)+1 {
		return nil, fmt.Errorf("store: usage: %d answers for %d hours", len(vals), len(hours))
	}
	now, err := strconv.ParseInt(fmt.Sprint(vals[0]), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("store: usage: bad time %v", vals[0])
	}
	var out []HourUsage
	for i, h := range hours {
		flat, _ := vals[i+1].([]any)
		if len(flat) == 0 || hourTTL(h, now) <= 0 {
			continue
		}
		gpus, err := parseHour(flat)
		if err != nil {
			return nil, fmt.Errorf("store: usage: %s: %w", keys[i], err)
		}
		out = append(out, hourUsages(h, gpus)...)
	}
	return out, nil
}

// parseHour reads an hour hash's fields ("o:<gpu>", "b:", "u:", "m:",
// "p:<gpu>:<user>") from HGETALL's flat answer.
func parseHour(flat []any) (map[int]*gpuHour, error) {
	gpus := map[int]*gpuHour{}
	for i := 0; i+1 < len(flat); i += 2 {
		field, _ := flat[i].(string)
		val, _ := flat[i+1].(string)
		kind, rest, _ := strings.Cut(field, ":")
		gs, user, _ := strings.Cut(rest, ":")
		g, err1 := strconv.Atoi(gs)
		n, err2 := strconv.ParseInt(val, 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("bad field %q = %q", field, val)
		}
		h := gpus[g]
		if h == nil {
			h = &gpuHour{}
			gpus[g] = h
		}
		switch kind {
		case "o":
			h.Observed = n
		case "b":
			h.Busy = n
		case "u":
			h.Util = n
		case "m":
			h.Mem = n
		case "p":
			if h.Users == nil {
				h.Users = map[string]int64{}
			}
			h.Users[user] = n
		default:
			return nil, fmt.Errorf("bad field %q", field)
		}
	}
	return gpus, nil
}

// Live returns the server's latest agent state.
func (r *Redis) Live(ctx context.Context, server string) (Live, error) {
	if err := checkServer(server); err != nil {
		return Live{}, err
	}
	octx, cancel := r.opContext(ctx)
	defer cancel()
	m, err := r.client.HGetAll(octx, keysFor(server).live).Result()
	if err != nil {
		return Live{}, r.wrap(ctx, "live", err)
	}
	st := liveState{Agent: m["agent"], Err: m["err"]}
	if v, ok := m["last"]; ok {
		if st.Last, err = strconv.ParseInt(v, 10, 64); err != nil {
			return Live{}, fmt.Errorf("store: live: bad last %q", v)
		}
	}
	if v, ok := m["n"]; ok {
		if st.Batches, err = strconv.ParseInt(v, 10, 64); err != nil {
			return Live{}, fmt.Errorf("store: live: bad n %q", v)
		}
	}
	for f, v := range m {
		gs, ok := strings.CutPrefix(f, "g:")
		if !ok {
			continue
		}
		g, err := parseLiveGPU(v)
		if err != nil {
			return Live{}, fmt.Errorf("store: live: %s: %w", f, err)
		}
		if st.GPUs == nil {
			st.GPUs = map[int]liveGPURec{}
		}
		i, err := strconv.Atoi(gs)
		if err != nil {
			return Live{}, fmt.Errorf("store: live: bad field %q", f)
		}
		st.GPUs[i] = g
	}
	return st.live(server), nil
}

// parseLiveGPU reads "<first>|<busy>|<at>|<sample JSON>".
func parseLiveGPU(v string) (liveGPURec, error) {
	var g liveGPURec
	parts := strings.SplitN(v, "|", 4)
	if len(parts) != 4 {
		return g, errors.New("malformed live GPU")
	}
	var errs [3]error
	g.First, errs[0] = strconv.ParseInt(parts[0], 10, 64)
	g.Busy, errs[1] = strconv.ParseInt(parts[1], 10, 64)
	g.At, errs[2] = strconv.ParseInt(parts[2], 10, 64)
	if err := errors.Join(errs[:]...); err != nil {
		return g, err
	}
	return g, json.Unmarshal([]byte(parts[3]), &g.Sample)
}

// History returns the reservations overlapping [from, to), ended and
// released ones included.
func (r *Redis) History(ctx context.Context, server string, from, to time.Time) ([]Reservation, error) {
	if err := checkHistory(server, from, to); err != nil {
		return nil, err
	}
	octx, cancel := r.opContext(ctx)
	defer cancel()
	vals, err := r.client.HVals(octx, keysFor(server).resv).Result()
	if err != nil {
		return nil, r.wrap(ctx, "history", err)
	}
	all := make([]record, 0, len(vals))
	for _, raw := range vals {
		var rec record
		if err := json.Unmarshal([]byte(raw), &rec); err != nil {
			return nil, fmt.Errorf("store: history: %w", err)
		}
		all = append(all, rec)
	}
	return historyOf(all, toMS(from), toMS(to)), nil
}

// PutSubscription creates or replaces the channel's subscription.
func (r *Redis) PutSubscription(ctx context.Context, s Subscription) error {
	if err := validateSubscription(s); err != nil {
		return err
	}
	v, err := json.Marshal(s)
	if err != nil {
		return err
	}
	octx, cancel := r.opContext(ctx)
	defer cancel()
	if err := r.client.HSet(octx, subsKey, s.Channel, v).Err(); err != nil {
		return r.wrap(ctx, "put subscription", err)
	}
	return nil
}

// DeleteSubscription removes the channel's subscription, reporting
// whether there was one.
func (r *Redis) DeleteSubscription(ctx context.Context, channel string) (bool, error) {
	octx, cancel := r.opContext(ctx)
	defer cancel()
	n, err := r.client.HDel(octx, subsKey, channel).Result()
	if err != nil {
		return false, r.wrap(ctx, "delete subscription", err)
	}
	return n > 0, nil
}

// Subscriptions lists all subscriptions by channel.
func (r *Redis) Subscriptions(ctx context.Context) ([]Subscription, error) {
	octx, cancel := r.opContext(ctx)
	defer cancel()
	vals, err := r.client.HVals(octx, subsKey).Result()
	if err != nil {
		return nil, r.wrap(ctx, "subscriptions", err)
	}
	var out []Subscription
	for _, raw := range vals {
		var s Subscription
		if err := json.Unmarshal([]byte(raw), &s); err != nil {
			return nil, fmt.Errorf("store: subscriptions: %w", err)
		}
		out = append(out, s)
	}
	return sortSubscriptions(out), nil
}

// Claim takes the named job for holder for lease (see Watch).
func (r *Redis) Claim(ctx context.Context, job, holder string, lease time.Duration) (bool, error) {
	if err := validateClaim(job, holder, lease); err != nil {
		return false, err
	}
	raw, err := r.script(ctx, "claim", claimScript, []string{claimKey(job)},
		r.nowArg(), holder, lease.Milliseconds(), msClaimGrace)
	return decodeAnswer[bool]("claim", raw, err)
}

// Done marks a job finished: it is not claimed again for DoneRetention.
func (r *Redis) Done(ctx context.Context, job string) error {
	if err := validateJob(job); err != nil {
		return err
	}
	raw, err := r.script(ctx, "done", doneScript, []string{claimKey(job)}, r.nowArg(), msDone)
	_, err = decodeAnswer[bool]("done", raw, err)
	return err
}
