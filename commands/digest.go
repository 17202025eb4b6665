package commands

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/store"
)

// The utilization digest: how the shared servers were booked and really
// used over a period, from the reservations (History) and the agents'
// hourly usage (Usage). Build decides from data; Digest reads the store
// and renders.

// DigestReport is a digest's data (the --json form, and what the Slack
// and text renderers draw).
type DigestReport struct {
	From, To   time.Time      `json:"-"`
	FromText   string         `json:"from"`
	ToText     string         `json:"to"`
	Period     string         `json:"period"`
	Servers    []ServerDigest `json:"servers"`
	TopBooked  []UserHours    `json:"top_booked"`
	TopUsed    []UserHours    `json:"top_used"`
	Expiring   []ExpiringSoon `json:"expiring_soon"`
	Late       string         `json:"late,omitempty"` // why it is posted after its slot
	chart      *HeatMap
	prevExists bool
}

// ServerDigest is one server's period.
type ServerDigest struct {
	Server     string  `json:"server"`
	GPUs       int     `json:"gpus"`
	CapacityH  float64 `json:"capacity_gpu_h"`
	BookedH    float64 `json:"booked_gpu_h"`
	PrevBooked float64 `json:"prev_booked_gpu_h"`
	// Measured is false when no agent reported in the period: the
	// server's digest comes from bookings alone.
	Measured bool    `json:"measured"`
	Coverage float64 `json:"coverage"`  // share of the period's GPU-hours the agent observed
	MeanUtil float64 `json:"mean_util"` // percent over observed time; -1 without data
	PrevUtil float64 `json:"prev_mean_util"`
	BusyH    float64 `json:"busy_gpu_h"` // GPU-hours with work on them (measured)
	// IdleBookedH is booked GPU-time the agent saw idle; UnbookedH is busy
	// GPU-time nobody had booked, with who ran it.
	IdleBookedH float64     `json:"booked_idle_gpu_h"`
	UnbookedH   float64     `json:"used_unbooked_gpu_h"`
	Unbooked    []UserHours `json:"used_unbooked_by"`
	Waiting     int         `json:"waiting"`
}

// UserHours is a user's GPU-hours; User is a Slack id, or "unix:<name>"
// for a Unix user the config does not map.
type UserHours struct {
	User  string  `json:"user"`
	Hours float64 `json:"gpu_h"`
	Prev  float64 `json:"prev_gpu_h"`
}

// ExpiringSoon is a reservation that ends within a day of the digest.
type ExpiringSoon struct {
	ID, Server, Owner, GPUs string
	End                     time.Time
}

// DigestInput is what Build needs for one server; the store reads fill it.
type DigestInput struct {
	Server      inventory.Server
	History     []store.Reservation // overlapping [prevFrom, to)
	Usage       []store.HourUsage   // hours in [prevFrom, to)
	Live        []store.Reservation // not ended at to (for "expiring soon")
	Waiting     int
	UnixToSlack map[string]string
}

// periodLength is the window a digest covers.
func periodLength(period string) time.Duration {
	if period == "week" {
		return 7 * 24 * time.Hour
	}
	return 24 * time.Hour
}

// BuildDigest computes the report for the period ending at to, comparing
// it with the period before. It is pure: the same input gives the same
// report.
func BuildDigest(period string, to time.Time, in []DigestInput, loc *time.Location) *DigestReport {
	total := 0
	for _, d := range in {
		total += d.Server.Count()
	}
	b := newDigestBuilder(period, to, total, loc)
	for _, d := range in {
		b.add(d)
	}
	return b.finish()
}

// digestBuilder folds servers in one at a time, so a digest of a large
// fleet holds one server's samples at once, not the fleet's.
type digestBuilder struct {
	rep            *DigestReport
	from, to, prev time.Time
	hours          int
	aggregate      bool
	heat           *HeatMap
	booked, used   map[string]*UserHours
}

// newDigestBuilder starts a report; gpus is the fleet's GPU count (over
// 64, the chart gets one row per server instead of one per GPU).
func newDigestBuilder(period string, to time.Time, gpus int, loc *time.Location) *digestBuilder {
	length := periodLength(period)
	to = to.Truncate(time.Hour) // hours are the unit of measurement
	from := to.Add(-length)
	return &digestBuilder{
		rep: &DigestReport{From: from, To: to, Period: period,
			FromText: from.In(loc).Format("Mon Jan 2 15:04"), ToText: to.In(loc).Format("Mon Jan 2 15:04 MST")},
		from: from, to: to, prev: from.Add(-length), hours: int(length / time.Hour),
		aggregate: gpus > 64,
		heat:      &HeatMap{Start: from, Step: time.Hour, Loc: loc},
		booked:    map[string]*UserHours{}, used: map[string]*UserHours{},
	}
}

func (b *digestBuilder) add(d DigestInput) {
	rep, heat, to := b.rep, b.heat, b.to
	sd, rows := buildServer(d, b.prev, b.from, to, b.hours, b.booked, b.used)
	rep.Servers = append(rep.Servers, sd)
	if sd.PrevBooked > 0 || sd.PrevUtil >= 0 {
		rep.prevExists = true
	}
	if b.aggregate {
		heat.Rows = append(heat.Rows, d.Server.Name)
		heat.Values = append(heat.Values, rows.serverUtil())
		heat.Booked = append(heat.Booked, rows.serverBooked())
	} else {
		for g := range rows.util {
			heat.Rows = append(heat.Rows, fmt.Sprintf("%s/%d", d.Server.Name, d.Server.GPUIDs[g]))
			heat.Values = append(heat.Values, rows.util[g])
			heat.Booked = append(heat.Booked, rows.booked[g])
		}
	}
	for _, rv := range d.Live {
		if !rv.End.After(to) || rv.End.Sub(to) > 24*time.Hour || rv.Start.After(to) {
			continue
		}
		rep.Expiring = append(rep.Expiring, ExpiringSoon{ID: rv.ID, Server: rv.Server, Owner: rv.Owner, GPUs: rv.GPUList(), End: rv.End})
	}
}

func (b *digestBuilder) finish() *DigestReport {
	rep := b.rep
	sort.Slice(rep.Expiring, func(i, j int) bool { return rep.Expiring[i].End.Before(rep.Expiring[j].End) })
	rep.TopBooked = top(b.booked, 5)
	rep.TopUsed = top(b.used, 5)
	b.heat.Title = fmt.Sprintf("GPU utilization by hour, %s – %s", rep.FromText, rep.ToText)
	if len(b.heat.Rows) > 0 {
		rep.chart = b.heat
	}
	return rep
}

// gpuRows are one server's per-GPU hourly cells for the chart.
type gpuRows struct {
	util   [][]float64 // NaN: no data
	booked [][]bool
}

func (r gpuRows) serverUtil() []float64 {
	if len(r.util) == 0 {
		return nil
	}
	out := make([]float64, len(r.util[0]))
	for h := range out {
		sum, n := 0.0, 0
		for g := range r.util {
			if v := r.util[g][h]; !math.IsNaN(v) {
				sum += v
				n++
			}
		}
		out[h] = math.NaN()
		if n > 0 {
			out[h] = sum / float64(n)
		}
	}
	return out
}

func (r gpuRows) serverBooked() []bool {
	if len(r.booked) == 0 {
		return nil
	}
	out := make([]bool, len(r.booked[0]))
	for h := range out {
		n := 0
		for g := range r.booked {
			if r.booked[g][h] {
				n++
			}
		}
		out[h] = n*2 >= len(r.booked) && n > 0
	}
	return out
}

// overlap is the seconds [a1,a2) and [b1,b2) share.
func overlap(a1, a2, b1, b2 time.Time) float64 {
	s, e := a1, a2
	if b1.After(s) {
		s = b1
	}
	if b2.Before(e) {
		e = b2
	}
	if !e.After(s) {
		return 0
	}
	return e.Sub(s).Seconds()
}

// buildServer does one server. Cells are indexed [gpu position][hour of
// the current period]; the previous period only feeds the comparison.
func buildServer(d DigestInput, prevFrom, from, to time.Time, hours int, booked, used map[string]*UserHours) (ServerDigest, gpuRows) {
	srv := d.Server
	n := srv.Count()
	pos := map[int]int{}
	for i, id := range srv.GPUIDs {
		pos[id] = i
	}
	sd := ServerDigest{Server: srv.Name, GPUs: n, CapacityH: float64(n) * to.Sub(from).Hours(), Waiting: d.Waiting, MeanUtil: -1, PrevUtil: -1}
	// Booked seconds per (gpu, hour) in total and per owner.
	type ownerSecs struct {
		owner string
		secs  float64
	}
	bookedSecs := make([]float64, n*hours)
	byOwner := make([][]ownerSecs, n*hours)
	for _, rv := range d.History {
		sd.PrevBooked += overlap(rv.Start, rv.End, prevFrom, from) / 3600 * float64(len(rv.GPUs))
		cur := overlap(rv.Start, rv.End, from, to)
		if cur == 0 {
			continue
		}
		h := cur / 3600 * float64(len(rv.GPUs))
		sd.BookedH += h
		addHours(booked, rv.Owner, h, 0)
		first := max(0, int(rv.Start.Sub(from)/time.Hour))
		last := min(hours-1, int((rv.End.Sub(from)-1)/time.Hour))
		for hr := first; hr <= last; hr++ {
			hs := from.Add(time.Duration(hr) * time.Hour)
			secs := overlap(rv.Start, rv.End, hs, hs.Add(time.Hour))
			if secs == 0 {
				continue
			}
			for _, g := range rv.GPUs {
				p, ok := pos[g]
				if !ok {
					continue
				}
				c := p*hours + hr
				bookedSecs[c] += secs
				byOwner[c] = append(byOwner[c], ownerSecs{rv.Owner, secs})
			}
		}
	}
	for _, rv := range d.History {
		if prev := overlap(rv.Start, rv.End, prevFrom, from); prev > 0 {
			addHours(booked, rv.Owner, 0, prev/3600*float64(len(rv.GPUs)))
		}
	}
	rows := gpuRows{util: make([][]float64, n), booked: make([][]bool, n)}
	for g := range n {
		rows.util[g] = make([]float64, hours)
		rows.booked[g] = make([]bool, hours)
		for hr := range hours {
			rows.util[g][hr] = math.NaN()
			rows.booked[g][hr] = bookedSecs[g*hours+hr] >= 1800
		}
	}
	var obs, utilSecs, prevObs, prevUtil float64
	unbooked := map[string]*UserHours{}
	for _, u := range d.Usage {
		p, ok := pos[u.GPU]
		if !ok || u.Observed <= 0 {
			continue
		}
		if u.Hour.Before(from) {
			if !u.Hour.Before(prevFrom) {
				prevObs += u.Observed
				prevUtil += u.UtilSecs
				for unix, secs := range u.Users {
					addHours(used, slackUser(d.UnixToSlack, unix), 0, secs/3600)
				}
			}
			continue
		}
		hr := int(u.Hour.Sub(from) / time.Hour)
		if hr >= hours {
			continue
		}
		c := p*hours + hr
		obs += u.Observed
		utilSecs += u.UtilSecs
		sd.BusyH += u.Busy / 3600
		rows.util[p][hr] = u.UtilSecs / u.Observed / 100
		idleFrac := 1 - u.Busy/u.Observed
		bookedFrac := min(1, bookedSecs[c]/3600)
		// Booked time the agent watched, the idle share of it.
		watchedBooked := min(bookedSecs[c], u.Observed)
		sd.IdleBookedH += watchedBooked * idleFrac / 3600
		sd.UnbookedH += u.Busy * (1 - bookedFrac) / 3600
		for unix, secs := range u.Users {
			who := slackUser(d.UnixToSlack, unix)
			addHours(used, who, secs/3600, 0)
			mine := 0.0
			for _, o := range byOwner[c] {
				if o.owner == who {
					mine += o.secs
				}
			}
			if free := secs * (1 - min(1, mine/3600)); free > 0 {
				addHours(unbooked, who, free/3600, 0)
			}
		}
	}
	if obs > 0 {
		sd.Measured = true
		sd.MeanUtil = utilSecs / obs
		sd.Coverage = obs / 3600 / sd.CapacityH
	}
	if prevObs > 0 {
		sd.PrevUtil = prevUtil / prevObs
	}
	for _, uh := range top(unbooked, 5) {
		if uh.Hours >= 0.05 {
			sd.Unbooked = append(sd.Unbooked, uh)
		}
	}
	return sd, rows
}

func slackUser(m map[string]string, unix string) string {
	if id, ok := m[unix]; ok {
		return id
	}
	return "unix:" + unix
}

func addHours(m map[string]*UserHours, user string, cur, prev float64) {
	u := m[user]
	if u == nil {
		u = &UserHours{User: user}
		m[user] = u
	}
	u.Hours += cur
	u.Prev += prev
}

// top returns the n users with the most hours in the period (ties by id).
func top(m map[string]*UserHours, n int) []UserHours {
	var out []UserHours
	for _, u := range m {
		if u.Hours > 0 {
			out = append(out, *u)
		}
	}
	slices.SortFunc(out, func(a, b UserHours) int {
		if a.Hours != b.Hours {
			if a.Hours > b.Hours {
				return -1
			}
			return 1
		}
		return strings.Compare(a.User, b.User)
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// DigestFor reads the store and builds the digest of the period ending at
// to for the given servers (all when empty).
func (s *Set) DigestFor(ctx context.Context, period string, to time.Time, servers []string, loc *time.Location) (*DigestReport, error) {
	st, w := s.deps.Reservations, s.deps.Watch
	if st == nil || w == nil {
		return nil, &UserError{Msg: "digests need the reservation store", Hint: "run `gpuplan serve` with REDIS_URL, or with the embedded store (GPUPLAN_DB)"}
	}
	length := periodLength(period)
	end := to.Truncate(time.Hour)
	prevFrom := end.Add(-2 * length)
	var chosen []inventory.Server
	gpus := 0
	for _, srv := range s.deps.Inventory.Servers {
		if len(servers) == 0 || slices.Contains(servers, srv.Name) {
			chosen = append(chosen, srv)
			gpus += srv.Count()
		}
	}
	b := newDigestBuilder(period, to, gpus, loc)
	for _, srv := range chosen {
		hist, err := w.History(ctx, srv.Name, prevFrom, end)
		if err != nil {
			return nil, storeError(err, "digest")
		}
		use, err := w.Usage(ctx, srv.Name, prevFrom, end)
		if err != nil {
			return nil, storeError(err, "digest")
		}
		live, err := st.List(ctx, srv.Name)
		if err != nil {
			return nil, storeError(err, "digest")
		}
		waiters, err := st.Waiters(ctx, srv.Name)
		if err != nil {
			return nil, storeError(err, "digest")
		}
		b.add(DigestInput{Server: srv, History: hist, Usage: use, Live: live, Waiting: len(waiters), UnixToSlack: s.deps.Inventory.Users})
	}
	return b.finish(), nil
}

// DigestReply renders a report: a headline per server, what was booked
// but idle and used without a booking, top users, what expires soon, and
// the chart as a PNG file. The text alone tells the story; the chart
// shows the shape.
func (s *Set) DigestReply(rep *DigestReport) *Reply {
	what := "Daily"
	if rep.Period == "week" {
		what = "Weekly"
	}
	r := &Reply{Title: what + " GPU digest", InChannel: true, Data: rep}
	var totalCap, totalBooked, totalIdle, totalUnbooked float64
	measured := false
	t := &Table{Columns: []string{"server", "booked", "measured util", "booked but idle", "used unbooked", "waiting"}}
	var notes []string
	for _, sd := range rep.Servers {
		totalCap += sd.CapacityH
		totalBooked += sd.BookedH
		totalIdle += sd.IdleBookedH
		totalUnbooked += sd.UnbookedH
		bookedCell := fmt.Sprintf("%s of %s GPU-h (%s)%s", gpuH(sd.BookedH), gpuH(sd.CapacityH), pct(sd.BookedH/sd.CapacityH), change(sd.BookedH, sd.PrevBooked, rep.prevExists))
		util, idle, unb := "no agent", "—", "—"
		if sd.Measured {
			measured = true
			util = fmt.Sprintf("%.0f%%%s", sd.MeanUtil, changePoints(sd.MeanUtil, sd.PrevUtil))
			if sd.Coverage < 0.9 {
				util += fmt.Sprintf(" (%s observed)", pct(sd.Coverage))
			}
			idle = gpuH(sd.IdleBookedH) + " GPU-h"
			unb = gpuH(sd.UnbookedH) + " GPU-h"
		} else {
			notes = append(notes, sd.Server+": no agent reported, so this is from bookings alone")
		}
		t.Rows = append(t.Rows, []string{sd.Server, bookedCell, util, idle, unb, fmt.Sprint(sd.Waiting)})
		if len(sd.Unbooked) > 0 {
			var who []string
			for _, u := range sd.Unbooked {
				who = append(who, fmt.Sprintf("%s %s GPU-h", userName(u.User), gpuH(u.Hours)))
			}
			notes = append(notes, fmt.Sprintf("%s used without a booking: %s", sd.Server, strings.Join(who, ", ")))
		}
	}
	r.Summary = fmt.Sprintf("%s – %s: %s of %s GPU-hours booked (%s)",
		rep.FromText, rep.ToText, gpuH(totalBooked), gpuH(totalCap), pct(totalBooked/max(totalCap, 1e-9)))
	if measured {
		r.Summary += fmt.Sprintf("; %s booked but idle; %s used without a booking", gpuH(totalIdle), gpuH(totalUnbooked))
	} else {
		r.Summary += "; no agent reported, so nothing was measured"
	}
	if rep.Late != "" {
		r.Sections = append(r.Sections, Section{Kind: Warning, Text: rep.Late})
	}
	r.Sections = append(r.Sections, Section{Heading: "Servers", Table: t})
	if len(notes) > 0 {
		r.Sections = append(r.Sections, Section{Heading: "Worth a look", Bullets: notes})
	}
	var tops []string
	for _, u := range rep.TopBooked {
		tops = append(tops, fmt.Sprintf("booked: %s %s GPU-h%s", userName(u.User), gpuH(u.Hours), change(u.Hours, u.Prev, rep.prevExists)))
	}
	for _, u := range rep.TopUsed {
		tops = append(tops, fmt.Sprintf("used: %s %s GPU-h%s", userName(u.User), gpuH(u.Hours), change(u.Hours, u.Prev, rep.prevExists)))
	}
	if len(tops) > 0 {
		r.Sections = append(r.Sections, Section{Heading: "Top users", Bullets: tops})
	}
	if len(rep.Expiring) > 0 {
		var ex []string
		for _, e := range rep.Expiring {
			ex = append(ex, fmt.Sprintf("`%s` %s GPUs %s, %s, ends %s", e.ID, e.Server, e.GPUs, mention(e.Owner), e.End.In(s.loc(Request{})).Format("Mon 15:04")))
		}
		r.Sections = append(r.Sections, Section{Heading: "Expiring within a day", Bullets: ex})
	}
	r.Sections = append(r.Sections, Section{Kind: Context, Text: "Booked = reserved GPU-hours. Measured by `gpuplan agent` (nvidia-smi every 30 s): a GPU is busy at ≥5% utilization or with a compute process. Changes compare with the period before."})
	if rep.chart != nil {
		if png, err := rep.chart.PNG(); err == nil {
			r.Files = append(r.Files, File{Name: "gpu-digest-" + rep.To.Format("2006-01-02-1504") + ".png", Title: "GPU utilization by hour",
				AltText: "Heat map of measured GPU utilization per hour; " + r.Summary, Type: "image/png", Data: png})
		}
	}
	return r
}

func userName(u string) string {
	if rest, ok := strings.CutPrefix(u, "unix:"); ok {
		return rest + " (unmapped Unix user)"
	}
	return mention(u)
}

func gpuH(x float64) string {
	if x >= 10 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}

func pct(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) }

// change says how cur compares with prev ("", " ↑ 20%", " new").
func change(cur, prev float64, havePrev bool) string {
	if !havePrev {
		return ""
	}
	switch {
	case prev == 0 && cur == 0:
		return ""
	case prev == 0:
		return " (new)"
	}
	d := (cur - prev) / prev * 100
	switch {
	case math.Abs(d) < 1:
		return " (≈)"
	case d > 0:
		return fmt.Sprintf(" (↑%.0f%%)", d)
	default:
		return fmt.Sprintf(" (↓%.0f%%)", -d)
	}
}

func changePoints(cur, prev float64) string {
	if prev < 0 || cur < 0 {
		return ""
	}
	d := cur - prev
	switch {
	case math.Abs(d) < 1:
		return " (≈)"
	case d > 0:
		return fmt.Sprintf(" (↑%.0f pts)", d)
	default:
		return fmt.Sprintf(" (↓%.0f pts)", -d)
	}
}
