package digest

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/store"
)

// Report is a digest's data (the --json form, and what the Slack
// and text renderers draw).
type Report struct {
	From, To  time.Time      `json:"-"`
	FromText  string         `json:"from"`
	ToText    string         `json:"to"`
	Period    string         `json:"period"`
	Servers   []ServerReport `json:"servers"`
	TopBooked []UserHours    `json:"top_booked"`
	TopUsed   []UserHours    `json:"top_used"`
	Expiring  []ExpiringSoon `json:"expiring_soon"`
	Late      string         `json:"late,omitempty"` // why it is posted after its slot
	// Chart is the hour-by-hour heat map (nil without servers); it goes
	// out as a PNG file, not in the JSON.
	Chart *HeatMap `json:"-"`
	// PrevExists is whether the period before had any data, so changes
	// against it mean something.
	PrevExists bool `json:"-"`

	p *i18n.Printer // the language of its text (and its chart's)
}

// Printer is the printer the report's text is written with: English
// unless the builder was given another.
func (r *Report) Printer() *i18n.Printer {
	if r.p == nil {
		return i18n.For(i18n.EN)
	}
	return r.p
}

// ServerReport is one server's period.
type ServerReport struct {
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
	// ExecH is the booked GPU-hours held by `gpuplan exec` while its
	// command ran: booked and used by a job, by construction.
	ExecH   float64 `json:"exec_gpu_h,omitempty"`
	Waiting int     `json:"waiting"`
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

// Input is what Build needs for one server; the store reads fill it.
type Input struct {
	Server      inventory.Server
	History     []store.Reservation // overlapping [prevFrom, to)
	Usage       []store.HourUsage   // hours in [prevFrom, to)
	Live        []store.Reservation // not ended at to (for "expiring soon")
	Waiting     int
	UnixToSlack map[string]string
}

// PeriodLength is the window a digest covers.
func PeriodLength(period string) time.Duration {
	if period == "week" {
		return 7 * 24 * time.Hour
	}
	return 24 * time.Hour
}

// Build computes the report for the period ending at to, comparing
// it with the period before. It is pure: the same input gives the same
// report.
func Build(period string, to time.Time, in []Input, loc *time.Location) *Report {
	total := 0
	for _, d := range in {
		total += d.Server.Count()
	}
	b := NewBuilder(period, to, total, loc)
	for _, d := range in {
		b.Add(d)
	}
	return b.Finish()
}

// Builder folds servers in one at a time, so a digest of a large
// fleet holds one server's samples at once, not the fleet's.
type Builder struct {
	rep            *Report
	from, to, prev time.Time
	hours          int
	aggregate      bool
	heat           *HeatMap
	booked, used   map[string]*UserHours
}

// NewBuilder starts a report in English; gpus is the fleet's GPU count
// (over 64, the chart gets one row per server instead of one per GPU).
func NewBuilder(period string, to time.Time, gpus int, loc *time.Location) *Builder {
	return NewBuilderIn(nil, period, to, gpus, loc)
}

// NewBuilderIn starts a report whose text (period, chart) p writes; nil
// means English.
func NewBuilderIn(p *i18n.Printer, period string, to time.Time, gpus int, loc *time.Location) *Builder {
	if p == nil {
		p = i18n.For(i18n.EN)
	}
	length := PeriodLength(period)
	to = to.Truncate(time.Hour) // hours are the unit of measurement
	from := to.Add(-length)
	return &Builder{
		rep: &Report{From: from, To: to, Period: period, p: p,
			FromText: DateText(p, from.In(loc), false), ToText: DateText(p, to.In(loc), true)},
		from: from, to: to, prev: from.Add(-length), hours: int(length / time.Hour),
		aggregate: gpus > 64,
		heat:      &HeatMap{Start: from, Step: time.Hour, Loc: loc, Printer: p},
		booked:    map[string]*UserHours{}, used: map[string]*UserHours{},
	}
}

// koDays are the weekdays as Korean dates write them: 1월 2일 (월).
var koDays = [...]string{"일", "월", "화", "수", "목", "금", "토"}

// DayName is a weekday for p's reader: "Fri", "금요일".
func DayName(p *i18n.Printer, d time.Weekday) string {
	if !p.Korean() {
		return d.String()[:3]
	}
	return koDays[d] + "요일"
}

// DateText writes a digest's date and time for p's reader: "Mon Jan 2
// 15:04" or "1월 2일 (월) 15:04", with the zone when zone is set.
func DateText(p *i18n.Printer, t time.Time, zone bool) string {
	if !p.Korean() {
		if zone {
			return t.Format("Mon Jan 2 15:04 MST")
		}
		return t.Format("Mon Jan 2 15:04")
	}
	s := fmt.Sprintf("%d월 %d일 (%s) %s", t.Month(), t.Day(), koDays[t.Weekday()], t.Format("15:04"))
	if zone {
		s += t.Format(" MST")
	}
	return s
}

// Add folds one server's reservations and samples into the report.
func (b *Builder) Add(d Input) {
	rep, heat, to := b.rep, b.heat, b.to
	sd, rows := buildServer(d, b.prev, b.from, to, b.hours, b.booked, b.used)
	rep.Servers = append(rep.Servers, sd)
	if sd.PrevBooked > 0 || sd.PrevUtil >= 0 {
		rep.PrevExists = true
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
		if _, ok := rv.ExecCommand(); ok {
			continue // a running job's lease: it ends when the job does
		}
		rep.Expiring = append(rep.Expiring, ExpiringSoon{ID: rv.ID, Server: rv.Server, Owner: rv.Owner, GPUs: rv.GPUList(), End: rv.End})
	}
}

// Finish ranks the users, orders what expires soon and titles the chart.
func (b *Builder) Finish() *Report {
	rep := b.rep
	sort.Slice(rep.Expiring, func(i, j int) bool { return rep.Expiring[i].End.Before(rep.Expiring[j].End) })
	rep.TopBooked = top(b.booked, 5)
	rep.TopUsed = top(b.used, 5)
	b.heat.Title = rep.Printer().Tf("GPU utilization by hour, %s – %s", rep.FromText, rep.ToText)
	if len(b.heat.Rows) > 0 {
		rep.Chart = b.heat
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
func buildServer(d Input, prevFrom, from, to time.Time, hours int, booked, used map[string]*UserHours) (ServerReport, gpuRows) {
	srv := d.Server
	n := srv.Count()
	sd := ServerReport{Server: srv.Name, GPUs: n, CapacityH: float64(n) * to.Sub(from).Hours(), Waiting: d.Waiting, MeanUtil: -1, PrevUtil: -1}
	c := &cells{prevFrom: prevFrom, from: from, to: to, hours: hours, pos: map[int]int{},
		bookedSecs: make([]float64, n*hours), byOwner: make([][]ownerSecs, n*hours)}
	for i, id := range srv.GPUIDs {
		c.pos[id] = i
	}
	c.addBookings(&sd, d.History, booked)
	rows := gpuRows{util: make([][]float64, n), booked: make([][]bool, n)}
	for g := range n {
		rows.util[g] = make([]float64, hours)
		rows.booked[g] = make([]bool, hours)
		for hr := range hours {
			rows.util[g][hr] = math.NaN()
			rows.booked[g][hr] = c.bookedSecs[g*hours+hr] >= 1800
		}
	}
	unbooked := c.addUsage(&sd, rows, d, used)
	for _, uh := range top(unbooked, 5) {
		if uh.Hours >= 0.05 {
			sd.Unbooked = append(sd.Unbooked, uh)
		}
	}
	return sd, rows
}

// cells are one server's booked seconds per (GPU position, hour of the
// current period), in total and per owner.
type cells struct {
	prevFrom, from, to time.Time
	hours              int
	pos                map[int]int // GPU id → position
	bookedSecs         []float64
	byOwner            [][]ownerSecs
}

type ownerSecs struct {
	owner string
	secs  float64
}

// addBookings counts the reservations into the server's booked hours (now
// and in the period before), each owner's hours, and the cells.
func (c *cells) addBookings(sd *ServerReport, history []store.Reservation, booked map[string]*UserHours) {
	for _, rv := range history {
		sd.PrevBooked += overlap(rv.Start, rv.End, c.prevFrom, c.from) / 3600 * float64(len(rv.GPUs))
		cur := overlap(rv.Start, rv.End, c.from, c.to)
		if cur == 0 {
			continue
		}
		h := cur / 3600 * float64(len(rv.GPUs))
		sd.BookedH += h
		if _, ok := rv.ExecCommand(); ok {
			sd.ExecH += h
		}
		addHours(booked, rv.Owner, h, 0)
		first := max(0, int(rv.Start.Sub(c.from)/time.Hour))
		last := min(c.hours-1, int((rv.End.Sub(c.from)-1)/time.Hour))
		for hr := first; hr <= last; hr++ {
			hs := c.from.Add(time.Duration(hr) * time.Hour)
			secs := overlap(rv.Start, rv.End, hs, hs.Add(time.Hour))
			if secs == 0 {
				continue
			}
			for _, g := range rv.GPUs {
				p, ok := c.pos[g]
				if !ok {
					continue
				}
				i := p*c.hours + hr
				c.bookedSecs[i] += secs
				c.byOwner[i] = append(c.byOwner[i], ownerSecs{rv.Owner, secs})
			}
		}
	}
	for _, rv := range history {
		if prev := overlap(rv.Start, rv.End, c.prevFrom, c.from); prev > 0 {
			addHours(booked, rv.Owner, 0, prev/3600*float64(len(rv.GPUs)))
		}
	}
}

// addUsage folds the agent's hourly samples into the server's measured
// figures, the chart's cells and each user's hours, and returns the
// GPU-hours each user ran without a booking of their own.
func (c *cells) addUsage(sd *ServerReport, rows gpuRows, d Input, used map[string]*UserHours) map[string]*UserHours {
	var obs, utilSecs, prevObs, prevUtil float64
	unbooked := map[string]*UserHours{}
	for _, u := range d.Usage {
		p, ok := c.pos[u.GPU]
		if !ok || u.Observed <= 0 {
			continue
		}
		if u.Hour.Before(c.from) {
			if !u.Hour.Before(c.prevFrom) {
				prevObs += u.Observed
				prevUtil += u.UtilSecs
				for unix, secs := range u.Users {
					addHours(used, slackUser(d.UnixToSlack, unix), 0, secs/3600)
				}
			}
			continue
		}
		hr := int(u.Hour.Sub(c.from) / time.Hour)
		if hr >= c.hours {
			continue
		}
		i := p*c.hours + hr
		obs += u.Observed
		utilSecs += u.UtilSecs
		sd.BusyH += u.Busy / 3600
		rows.util[p][hr] = u.UtilSecs / u.Observed / 100
		idleFrac := 1 - u.Busy/u.Observed
		bookedFrac := min(1, c.bookedSecs[i]/3600)
		// Booked time the agent watched, the idle share of it.
		watchedBooked := min(c.bookedSecs[i], u.Observed)
		sd.IdleBookedH += watchedBooked * idleFrac / 3600
		sd.UnbookedH += u.Busy * (1 - bookedFrac) / 3600
		for unix, secs := range u.Users {
			who := slackUser(d.UnixToSlack, unix)
			addHours(used, who, secs/3600, 0)
			mine := 0.0
			for _, o := range c.byOwner[i] {
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
	return unbooked
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
