package store

import (
	"context"
	"time"
)

// The watch half of the store: GPU samples from `gpuplan agent`, digest
// subscriptions, and the claims that let exactly one of several replicas
// do a scheduled job. Both backends implement Watch next to Store.

// GPUSample is one GPU in one nvidia-smi reading.
type GPUSample struct {
	Index      int      `json:"index"`
	UUID       string   `json:"uuid,omitempty"`
	Util       int      `json:"util"`     // percent 0–100; -1 when nvidia-smi could not say ([N/A], reset needed)
	MemUsedMB  int      `json:"mem_used"` // MiB; -1 when unknown
	MemTotalMB int      `json:"mem_total"`
	Users      []string `json:"users,omitempty"` // Unix users with a compute process on this GPU, sorted, unique
}

// Busy reports whether the GPU did work in this sample: utilization at or
// above BusyUtil percent, or any compute process on it.
func (g GPUSample) Busy() bool { return g.Util >= BusyUtil || len(g.Users) > 0 }

// BusyUtil is the utilization (percent) from which a GPU counts as busy
// even with no process visible (processes in other containers are not).
const BusyUtil = 5

// SampleBatch is one reading of a server's GPUs by its agent.
type SampleBatch struct {
	Server string        `json:"server"`
	At     time.Time     `json:"at"`    // when the agent sampled, agent's clock
	Every  time.Duration `json:"every"` // the agent's sampling interval: the weight of the first sample
	GPUs   []GPUSample   `json:"gpus"`
	Agent  string        `json:"agent,omitempty"` // host and version, for status
	Err    string        `json:"err,omitempty"`   // nvidia-smi failed; the batch is a heartbeat with no GPUs
}

// MaxSampleWeight caps how much time one sample stands for, so an agent
// that was away for a day does not paint the whole day with its first
// reading back.
const MaxSampleWeight = 5 * time.Minute

// MaxClockAhead is how far a batch's At may be ahead of the store's
// clock. Further ahead it is refused: accepted, it would make every
// correct batch after it look old until real time caught up.
const MaxClockAhead = 10 * time.Minute

// HourUsage is one GPU's measured hour: how many seconds of it the agent
// observed, how many of those the GPU was busy, the utilization integral
// (percent × seconds), and seconds per Unix user with a process on it.
type HourUsage struct {
	Hour     time.Time          `json:"hour"` // start of the hour, UTC
	GPU      int                `json:"gpu"`
	Observed float64            `json:"observed_s"`
	Busy     float64            `json:"busy_s"`
	UtilSecs float64            `json:"util_s"` // Σ util% × seconds; mean util = UtilSecs / Observed
	MemSecs  float64            `json:"mem_s"`  // Σ MiB × seconds
	Users    map[string]float64 `json:"users,omitempty"`
}

// LiveGPU is what the agent last said about one GPU, and since when it
// has been idle.
type LiveGPU struct {
	GPUSample
	At      time.Time `json:"at"`       // the sample's time
	BusyAt  time.Time `json:"busy_at"`  // the last sample in which it was busy; zero if never seen busy
	FirstAt time.Time `json:"first_at"` // the first sample the store kept for this GPU
}

// Live is a server's latest agent state.
type Live struct {
	Server string    `json:"server"`
	SeenAt time.Time `json:"seen_at"` // the last batch (zero: no agent has reported)
	// Batches counts the batches recorded (resent and late ones are not).
	Batches int64     `json:"batches"`
	Agent   string    `json:"agent,omitempty"`
	Err     string    `json:"err,omitempty"` // the last batch's error, if it had one
	GPUs    []LiveGPU `json:"gpus"`
}

// Subscription is a channel's digest schedule.
type Subscription struct {
	Channel string    `json:"channel"`           // the key: one subscription per channel
	Spec    string    `json:"spec"`              // a standard 5-field cron spec, without CRON_TZ
	TZ      string    `json:"tz"`                // IANA zone the spec is read in
	Period  string    `json:"period"`            // "day" or "week": the window a digest covers
	Label   string    `json:"label"`             // how the user said it ("daily 09:00")
	Servers []string  `json:"servers,omitempty"` // empty: all servers
	By      string    `json:"by"`                // who set it
	Since   time.Time `json:"since"`             // when it was set; slots before are never posted
	// Lang is the language the digest is written in ("ko", "en"; empty:
	// English): the language of whoever scheduled it.
	Lang string `json:"lang,omitempty"`
}

// Watch is the store's watch half. Both backends implement it.
type Watch interface {
	// RecordSamples stores one agent batch: it updates the hourly usage of
	// each GPU and its live state. A batch whose At is not after the
	// server's last recorded batch is ignored (returns nil), so an agent
	// catching up after an outage may resend safely. The weight of each
	// sample is the time since the previous batch, at most
	// MaxSampleWeight (Every for the first, 30 s when Every is unset),
	// and all of it counts in the UTC hour containing At. A batch with Err
	// set updates only the live state's SeenAt, Agent and Err. A malformed
	// batch is refused with *InvalidError (see docs/store.md for the
	// limits).
	RecordSamples(ctx context.Context, b SampleBatch) error
	// Usage returns the server's hourly usage per GPU for the hours that
	// start in [from, to), ordered by hour then GPU. Hours with no
	// samples are absent. An hour is kept until UsageRetention after it
	// ends. A range over 40 days, or one that ends before it starts, is
	// refused with *InvalidError.
	Usage(ctx context.Context, server string, from, to time.Time) ([]HourUsage, error)
	// Live returns the server's latest agent state (SeenAt zero if none).
	Live(ctx context.Context, server string) (Live, error)

	// History returns the server's reservations whose window overlaps
	// [from, to), ended and released ones included (kept HistoryRetention
	// after they end), earliest start first.
	History(ctx context.Context, server string, from, to time.Time) ([]Reservation, error)

	// PutSubscription creates or replaces the channel's subscription.
	PutSubscription(ctx context.Context, s Subscription) error
	// DeleteSubscription removes it, reporting whether there was one.
	DeleteSubscription(ctx context.Context, channel string) (bool, error)
	// Subscriptions lists them all, by channel.
	Subscriptions(ctx context.Context) ([]Subscription, error)

	// Claim takes the named job for holder for lease. It reports true when
	// the job is now this holder's: nobody held it, a previous holder's
	// lease ran out before it was done, or holder holds it already (a
	// retry; the lease starts again). A job marked Done is never claimed
	// again (for DoneRetention). Leases run on the store's clock.
	Claim(ctx context.Context, job, holder string, lease time.Duration) (bool, error)
	// Done marks a job finished, claimed or not.
	Done(ctx context.Context, job string) error
	// FirstSeen records key for ttl and reports whether it was new: the
	// replicas' shared envelope de-duplication.
	FirstSeen(ctx context.Context, key string, ttl time.Duration) (bool, error)
}

// Retention of the watch data.
const (
	UsageRetention   = 35 * 24 * time.Hour // hourly usage: a month plus the weekly digest's previous week
	HistoryRetention = CleanupAfter        // ended reservations: two weekly digest periods
	DoneRetention    = 30 * 24 * time.Hour
)

// Backend is a complete store: reservations and the watch half.
type Backend interface {
	Store
	Watch
}
