package commands

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/digest"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/inventory"
)

// The digest command's store reads and its Reply: package digest computes
// the report from data; DigestFor reads the store for it and DigestReply
// renders it (text, Block Kit and JSON all draw this one Reply).

// DigestFor reads the store and builds the digest of the period ending at
// to for the given servers (all when empty), in English.
func (s *Set) DigestFor(ctx context.Context, period string, to time.Time, servers []string, loc *time.Location) (*digest.Report, error) {
	return s.DigestIn(ctx, i18n.For(i18n.EN), period, to, servers, loc)
}

// DigestIn is DigestFor written by p: the report, its chart and
// DigestReply's text are in p's language.
func (s *Set) DigestIn(ctx context.Context, p *i18n.Printer, period string, to time.Time, servers []string, loc *time.Location) (*digest.Report, error) {
	st, w := s.deps.Reservations, s.deps.Watch
	if st == nil || w == nil {
		return nil, &UserError{Msg: p.T("digests need the reservation store"), Hint: p.T("run `gpuplan serve` with REDIS_URL, or with the embedded store (GPUPLAN_DB)")}
	}
	length := digest.PeriodLength(period)
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
	b := digest.NewBuilderIn(p, period, to, gpus, loc)
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
		b.Add(digest.Input{Server: srv, History: hist, Usage: use, Live: live, Waiting: len(waiters), UnixToSlack: s.deps.Inventory.Users})
	}
	return b.Finish(), nil
}

// DigestReply renders a report in its language (Report.Printer): a
// headline per server, what was booked but idle and used without a
// booking, top users, what expires soon, and the chart as a PNG file. The
// text alone tells the story; the chart shows the shape.
//
// DigestReply is long on purpose: the digest's sections in the order the
// message shows them.
func (s *Set) DigestReply(rep *digest.Report) *Reply {
	p := rep.Printer()
	title := p.T("Daily GPU digest")
	if rep.Period == "week" {
		title = p.T("Weekly GPU digest")
	}
	r := &Reply{Title: title, InChannel: true, Data: rep}
	var totalCap, totalBooked, totalIdle, totalUnbooked float64
	measured := false
	t := &Table{Columns: []string{p.T("server"), p.T("booked"), p.T("measured util"), p.T("booked but idle"), p.T("used unbooked"), p.T("waiting")}}
	var notes []string
	for _, sd := range rep.Servers {
		totalCap += sd.CapacityH
		totalBooked += sd.BookedH
		totalIdle += sd.IdleBookedH
		totalUnbooked += sd.UnbookedH
		bookedCell := p.Tf("%s of %s GPU-h (%s)%s", gpuH(sd.BookedH), gpuH(sd.CapacityH), pct(sd.BookedH/sd.CapacityH), change(p, sd.BookedH, sd.PrevBooked, rep.PrevExists))
		util, idle, unb := p.T("no agent"), "—", "—"
		if sd.Measured {
			measured = true
			util = fmt.Sprintf("%.0f%%%s", sd.MeanUtil, changePoints(p, sd.MeanUtil, sd.PrevUtil))
			if sd.Coverage < 0.9 {
				util += p.Tf(" (%s observed)", pct(sd.Coverage))
			}
			idle = gpuH(sd.IdleBookedH) + " GPU-h"
			unb = gpuH(sd.UnbookedH) + " GPU-h"
		} else {
			notes = append(notes, p.Tf("%s: no agent reported, so this is from bookings alone", sd.Server))
		}
		t.Rows = append(t.Rows, []string{sd.Server, bookedCell, util, idle, unb, fmt.Sprint(sd.Waiting)})
		if sd.ExecH > 0 {
			notes = append(notes, p.Tf("%s: %s of the booked GPU-h ran a job through `gpuplan exec` (booked and used)", sd.Server, gpuH(sd.ExecH)))
		}
		if len(sd.Unbooked) > 0 {
			var who []string
			for _, u := range sd.Unbooked {
				who = append(who, fmt.Sprintf("%s %s GPU-h", userName(p, u.User), gpuH(u.Hours)))
			}
			notes = append(notes, p.Tf("%s used without a booking: %s", sd.Server, strings.Join(who, ", ")))
		}
	}
	r.Summary = p.Tf("%s – %s: %s of %s GPU-hours booked (%s)",
		rep.FromText, rep.ToText, gpuH(totalBooked), gpuH(totalCap), pct(totalBooked/max(totalCap, 1e-9)))
	if measured {
		r.Summary += p.Tf("; %s booked but idle; %s used without a booking", gpuH(totalIdle), gpuH(totalUnbooked))
	} else {
		r.Summary += p.T("; no agent reported, so nothing was measured")
	}
	if rep.Late != "" {
		r.Sections = append(r.Sections, Section{Kind: Warning, Text: rep.Late})
	}
	r.Sections = append(r.Sections, Section{Heading: p.T("Servers"), Table: t})
	if len(notes) > 0 {
		r.Sections = append(r.Sections, Section{Heading: p.T("Worth a look"), Bullets: notes})
	}
	var tops []string
	for _, u := range rep.TopBooked {
		tops = append(tops, p.Tf("booked: %s %s GPU-h%s", userName(p, u.User), gpuH(u.Hours), change(p, u.Hours, u.Prev, rep.PrevExists)))
	}
	for _, u := range rep.TopUsed {
		tops = append(tops, p.Tf("used: %s %s GPU-h%s", userName(p, u.User), gpuH(u.Hours), change(p, u.Hours, u.Prev, rep.PrevExists)))
	}
	if len(tops) > 0 {
		r.Sections = append(r.Sections, Section{Heading: p.T("Top users"), Bullets: tops})
	}
	if len(rep.Expiring) > 0 {
		var ex []string
		for _, e := range rep.Expiring {
			ex = append(ex, p.Tf("`%s` %s GPUs %s, %s, ends %s", e.ID, e.Server, e.GPUs, mention(e.Owner), endText(p, e.End.In(s.loc(Request{})))))
		}
		r.Sections = append(r.Sections, Section{Heading: p.T("Expiring within a day"), Bullets: ex})
	}
	r.Sections = append(r.Sections, Section{Kind: Context, Text: p.Tf("Booked = reserved GPU-hours. Measured by `gpuplan agent` (nvidia-smi every 30 s): a GPU is busy at ≥5%% utilization or with a compute process. Changes compare with the period before.")})
	if rep.Chart != nil {
		if png, err := rep.Chart.PNG(); err == nil {
			r.Files = append(r.Files, File{Name: "gpu-digest-" + rep.To.Format("2006-01-02-1504") + ".png", Title: p.T("GPU utilization by hour"),
				AltText: p.Tf("Heat map of measured GPU utilization per hour; %s", r.Summary), Type: "image/png", Data: png})
		}
	}
	return r
}

// endText is when a reservation ends, for p's reader: "Fri 18:00" or
// "금요일 18:00".
func endText(p *i18n.Printer, t time.Time) string {
	return digest.DayName(p, t.Weekday()) + " " + t.Format("15:04")
}

func userName(p *i18n.Printer, u string) string {
	if rest, ok := strings.CutPrefix(u, "unix:"); ok {
		return p.Tf("%s (unmapped Unix user)", rest)
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
func change(p *i18n.Printer, cur, prev float64, havePrev bool) string {
	if !havePrev {
		return ""
	}
	switch {
	case prev == 0 && cur == 0:
		return ""
	case prev == 0:
		return p.T(" (new)")
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

func changePoints(p *i18n.Printer, cur, prev float64) string {
	if prev < 0 || cur < 0 {
		return ""
	}
	d := cur - prev
	switch {
	case math.Abs(d) < 1:
		return " (≈)"
	case d > 0:
		return p.Tf(" (↑%.0f pts)", d)
	default:
		return p.Tf(" (↓%.0f pts)", -d)
	}
}
