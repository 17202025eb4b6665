package commands

import (
	"math"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// liveWindowS is the audio a speech model reads at a time: Whisper takes
// 30-second windows, so a live stream sends one every 30 seconds.
const liveWindowS = 30

// liveAsked reports whether rd asks what a speech model keeps up with on
// one GPU set: live streams said ("can it keep up with 10 live streams",
// "실시간 스트림 20개 감당 돼?"), or its speed in audio time with no load
// said ("실시간 몇 배속이야").
func liveAsked(rd lang.Reading, req planner.Request) bool {
	j := req.Job
	if j.Model.Family != "Whisper" || j.Workload != planner.Inference || len(req.Targets) != 1 {
		return false
	}
	return rd.LiveStreams > 0 || rd.AudioRate && j.RequestRate == 0 && j.Concurrency == 0 && j.GlobalBatch == 0
}

// liveCapacity is the most 30-second windows req's speech model
// transcribes at once on its one GPU set with each window done within
// 30 seconds (a stream's next window arrives then), and the plan at that
// many; 0 and nil when even one does not fit. Batched windows share each
// weight read, so the rate grows with the batch until the KV cache is
// full or a window takes longer than the audio it holds.
func (s *Set) liveCapacity(req planner.Request) (int, *planner.Estimate) {
	plan := func(c int) *planner.Estimate {
		r := req
		r.Job.Concurrency, r.Job.RequestRate = c, 0
		if e := s.fixedPlan(r); e != nil && e.Memory.Fits && e.Serving != nil && e.Serving.LatencyS <= liveWindowS {
			return e
		}
		return nil
	}
	one := plan(1)
	if one == nil {
		return 0, nil
	}
	return mostAtOnce(one, plan)
}

// mostAtOnce is the most requests in flight, up to what one's KV cache
// holds, for which ok plans (nil where the count misses what was asked),
// and that plan; one is ok's plan at a single request. A count that misses
// stays missed above it (more in flight only slows each request), so the
// search halves the range.
func mostAtOnce(one *planner.Estimate, ok func(int) *planner.Estimate) (int, *planner.Estimate) {
	room := one.Serving.MaxInFlight
	if e := ok(room); e != nil {
		return room, e
	}
	lo, best := 1, one
	for hi := room; hi-lo > 1; {
		mid := (lo + hi) / 2
		if e := ok(mid); e != nil {
			lo, best = mid, e
		} else {
			hi = mid
		}
	}
	return lo, best
}

// liveAnswer answers liveAsked: how many live streams the GPUs keep up
// with, against the streams said; with none said, the card is planned at
// that batch, so its figures are the batched rate, not one window at a
// time.
func (s *Set) liveAnswer(p *i18n.Printer, rd lang.Reading, req planner.Request) (planner.Request, string, error) {
	c, e := s.liveCapacity(req)
	if e == nil {
		return req, "", nil // the card says why it does not fit
	}
	hw := hwText(p, e)
	x := e.Serving.RequestsPerS * liveWindowS // audio seconds a second: streams kept up with
	how := p.Tf("batching %d 30-second windows at once, each done in %s", c, planner.FormatSeconds(e.Serving.LatencyS))
	if n := rd.LiveStreams; n > 0 {
		if x < 1 {
			return req, p.Tf("No — %s transcribes slower than real time (%s), so not even one live stream keeps up; see what to change below.", hw, times(p, x)), nil
		}
		if x >= float64(n) {
			return req, p.Tf("Yes — %s keeps up with %d live streams: about %s at most (%s real time), %s.", hw, n, lang.Num(math.Floor(x)), times(p, x), how), nil
		}
		return req, p.Tf("No — %s keeps up with about %s live streams, not %d (%s real time at most, %s); see what to change below.", hw, lang.Num(math.Floor(x)), n, times(p, x), how), nil
	}
	req.Job.Concurrency = c
	return req, p.Tf("About %s hours of audio an hour on %s (%s real time), %s: about %s live streams at once.", lang.Num(math.Floor(x)), hw, times(p, x), how, lang.Num(math.Floor(x))), nil
}

// times says a real-time factor: "53x", "1.4x" (rounded down, as the
// streams it keeps up with are).
func times(p *i18n.Printer, x float64) string {
	if x < 10 {
		return p.Tf("%sx", lang.Num(math.Floor(x*10)/10))
	}
	return p.Tf("%sx", lang.Num(math.Floor(x)))
}
