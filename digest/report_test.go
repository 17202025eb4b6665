package digest

import (
	"math"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/planner"
	"github.com/gpuplan/gpuplan/store"
)

func testServer(name string, n int) inventory.Server {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	g, _, _ := planner.DefaultCatalog().GPU("h100")
	return inventory.Server{Name: name, GPU: g, GPUIDs: ids}
}

// hours writes one GPU's hourly usage over [from, from+n h) with the
// given busy seconds, utilization while busy and user.
func hours(gpu int, from time.Time, n int, busy float64, util float64, user string) []store.HourUsage {
	var out []store.HourUsage
	for i := range n {
		u := store.HourUsage{Hour: from.Add(time.Duration(i) * time.Hour), GPU: gpu, Observed: 3600, Busy: busy, UtilSecs: busy * util}
		if user != "" && busy > 0 {
			u.Users = map[string]float64{user: busy}
		}
		out = append(out, u)
	}
	return out
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-6 {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// handDay is one day on two servers, small enough to work out by hand.
func handDay() (to time.Time, in []Input) {
	to = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	from := to.Add(-24 * time.Hour)
	booked := store.Reservation{ID: "s1-1", Server: "s1", GPUs: []int{0}, Owner: "U1", Start: to.Add(-10 * time.Hour), End: to.Add(-4 * time.Hour)}
	prevBooked := store.Reservation{ID: "s1-0", Server: "s1", GPUs: []int{0, 1}, Owner: "U1", Start: from.Add(-5 * time.Hour), End: from.Add(-3*time.Hour - 30*time.Minute)}
	ending := store.Reservation{ID: "s1-2", Server: "s1", GPUs: []int{1}, Owner: "U3", Start: to.Add(-time.Hour), End: to.Add(3 * time.Hour)}
	var use []store.HourUsage
	// GPU 0: idle all day except the first 3 booked hours (busy, 80%, alice).
	use = append(use, hours(0, from, 14, 0, 0, "")...)
	use = append(use, hours(0, to.Add(-10*time.Hour), 3, 3600, 80, "alice")...)
	use = append(use, hours(0, to.Add(-7*time.Hour), 7, 0, 0, "")...)
	// GPU 1: bob runs 2 unbooked hours at 50%, idle otherwise; the booking
	// of its last hour (U3) sees it idle.
	use = append(use, hours(1, from, 20, 0, 0, "")...)
	use = append(use, hours(1, to.Add(-4*time.Hour), 2, 3600, 50, "bob")...)
	use = append(use, hours(1, to.Add(-2*time.Hour), 2, 0, 0, "")...)
	// The previous day: GPU 0 at 10% for 24 h.
	use = append(use, hours(0, from.Add(-24*time.Hour), 24, 3600, 10, "")...)
	in = []Input{
		{Server: testServer("s1", 2), History: []store.Reservation{prevBooked, booked, ending}, Usage: use, Live: []store.Reservation{ending}, Waiting: 1,
			UnixToSlack: map[string]string{"alice": "U1", "bob": "U2"}},
		{Server: testServer("s2", 4), History: []store.Reservation{{ID: "s2-1", Server: "s2", GPUs: []int{0, 1, 2, 3}, Owner: "U2", Start: from, End: from.Add(2 * time.Hour)}}},
	}
	return to, in
}

// One day on two servers, every number worked out by hand.
func TestBuildDigestByHand(t *testing.T) {
	to, in := handDay()
	rep := Build("day", to, in, time.UTC)
	s1, s2 := rep.Servers[0], rep.Servers[1]
	near(t, "s1 capacity", s1.CapacityH, 48)
	near(t, "s1 booked", s1.BookedH, 6+1)
	near(t, "s1 previous booked", s1.PrevBooked, 2*1.5)
	near(t, "s1 booked but idle", s1.IdleBookedH, 3+1) // U1's last 3 hours, U3's hour
	near(t, "s1 used unbooked", s1.UnbookedH, 2)
	near(t, "s1 busy", s1.BusyH, 5)
	near(t, "s1 mean util", s1.MeanUtil, (3*3600*80+2*3600*50)/(48*3600.0))
	near(t, "s1 previous util", s1.PrevUtil, 10)
	near(t, "s1 coverage", s1.Coverage, 1)
	if !s1.Measured || s1.Waiting != 1 {
		t.Errorf("s1 measured=%v waiting=%d", s1.Measured, s1.Waiting)
	}
	if len(s1.Unbooked) != 1 || s1.Unbooked[0].User != "U2" {
		t.Fatalf("s1 unbooked by = %+v, want U2 (bob)", s1.Unbooked)
	}
	near(t, "U2 unbooked", s1.Unbooked[0].Hours, 2)
	if s2.Measured || s2.MeanUtil != -1 {
		t.Errorf("s2 has no agent, got measured=%v util=%v", s2.Measured, s2.MeanUtil)
	}
	near(t, "s2 booked", s2.BookedH, 8)
	if len(rep.TopBooked) != 3 || rep.TopBooked[0].User != "U2" || rep.TopBooked[1].User != "U1" {
		t.Fatalf("top booked = %+v", rep.TopBooked)
	}
	near(t, "U1 booked", rep.TopBooked[1].Hours, 6)
	near(t, "U1 previous", rep.TopBooked[1].Prev, 3)
	if len(rep.TopUsed) != 2 || rep.TopUsed[0].User != "U1" || rep.TopUsed[1].User != "U2" {
		t.Fatalf("top used = %+v", rep.TopUsed)
	}
	if len(rep.Expiring) != 1 || rep.Expiring[0].ID != "s1-2" {
		t.Fatalf("expiring = %+v", rep.Expiring)
	}
	// The chart: one row per GPU (6 GPUs), 24 hourly columns.
	if rep.Chart == nil || len(rep.Chart.Rows) != 6 || len(rep.Chart.Values[0]) != 24 {
		t.Fatalf("chart shape wrong: %+v", rep.Chart)
	}
	near(t, "chart cell s1/0 at -10h", rep.Chart.Values[0][14], 0.8)
	if !math.IsNaN(rep.Chart.Values[2][0]) {
		t.Errorf("s2 has no data; cell = %v", rep.Chart.Values[2][0])
	}
	if !rep.Chart.Booked[0][14] || rep.Chart.Booked[0][0] {
		t.Errorf("booked cells wrong")
	}

}

// Many GPUs: the chart gets one row per server.
func TestBuildDigestAggregatesChart(t *testing.T) {
	to := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	var in []Input
	for i := range 10 {
		in = append(in, Input{Server: testServer("s"+string(rune('a'+i)), 8)})
	}
	rep := Build("week", to, in, time.UTC)
	if rep.Chart == nil || len(rep.Chart.Rows) != 10 || len(rep.Chart.Values[0]) != 168 {
		t.Fatalf("chart rows = %d", len(rep.Chart.Rows))
	}
}
