package commands

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/digest"
	"github.com/gpuplan/gpuplan/inventory"
)

// The digest command's store reads and its Reply: package digest computes
// the report from data; DigestFor reads the store for it and DigestReply
// renders it (text, Block Kit and JSON all draw this one Reply).

// DigestFor reads the store and builds the digest of the period ending at
// to for the given servers (all when empty).
func (s *Set) DigestFor(ctx context.Context, period string, to time.Time, servers []string, loc *time.Location) (*digest.Report, error) {
	st, w := s.deps.Reservations, s.deps.Watch
	if st == nil || w == nil {
		return nil, &UserError{Msg: "digests need the reservation store", Hint: "run `gpuplan serve` with REDIS_URL, or with the embedded store (GPUPLAN_DB)"}
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
	b := digest.NewBuilder(period, to, gpus, loc)
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

// DigestReply renders a report: a headline per server, what was booked
// but idle and used without a booking, top users, what expires soon, and
// the chart as a PNG file. The text alone tells the story; the chart
// shows the shape.
func (s *Set) DigestReply(rep *digest.Report) *Reply {
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
		bookedCell := fmt.Sprintf("%s of %s GPU-h (%s)%s", gpuH(sd.BookedH), gpuH(sd.CapacityH), pct(sd.BookedH/sd.CapacityH), change(sd.BookedH, sd.PrevBooked, rep.PrevExists))
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
		if sd.ExecH > 0 {
			notes = append(notes, fmt.Sprintf("%s: %s of the booked GPU-h ran a job through `gpuplan exec` (booked and used)", sd.Server, gpuH(sd.ExecH)))
		}
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
		tops = append(tops, fmt.Sprintf("booked: %s %s GPU-h%s", userName(u.User), gpuH(u.Hours), change(u.Hours, u.Prev, rep.PrevExists)))
	}
	for _, u := range rep.TopUsed {
		tops = append(tops, fmt.Sprintf("used: %s %s GPU-h%s", userName(u.User), gpuH(u.Hours), change(u.Hours, u.Prev, rep.PrevExists)))
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
	if rep.Chart != nil {
		if png, err := rep.Chart.PNG(); err == nil {
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
