package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/digest"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/store"
)

// Three days of a team's life through the real (embedded) store with an
// injected clock: bookings by three people, the agent every 15 minutes
// on two of the three servers, someone running without a booking. The
// weekly-digest text and its reply (the input of the Slack golden in
// bot/testdata) are golden files; the chart is a PNG of the expected size.
func TestDigestGoldenThroughTheStore(t *testing.T) {
	s, clock := newReservations(t)
	ctx := context.Background()
	book := func(user, text string) {
		t.Helper()
		mustDo(t, s, user, text)
	}
	// Day by day: bookings at 09:00, samples every 15 minutes.
	for day := range 3 {
		switch day {
		case 0:
			book("U0001", `reserve 4 on server-h for 8h note "llama sweep"`)
			book("U0002", "reserve 2 on server-a for 30h")
		case 1:
			book("U0003", "reserve gpus 2-3 on server-a for 6h")
		case 2:
			book("U0001", "reserve 2 on server-h for 20h")
		}
		for q := range 96 {
			clock.Advance(15 * time.Minute)
			h := q / 4
			for _, srv := range []string{"server-h", "server-a"} {
				b := store.SampleBatch{Server: srv, At: clock.Now(), Every: 15 * time.Minute}
				for g := range 4 {
					gs := store.GPUSample{Index: g, MemTotalMB: 81559}
					switch {
					case srv == "server-h" && day != 1 && h < 5 && (day == 0 || g < 2): // U0001 works 5 of 8 booked hours
						gs.Util, gs.MemUsedMB, gs.Users = 85+g, 60000, []string{"alice"}
					case srv == "server-a" && g < 2 && h%3 != 0: // U0002's long job, with evaluation pauses
						gs.Util, gs.MemUsedMB, gs.Users = 70, 40000, []string{"bob"}
					case srv == "server-a" && day == 2 && g == 3 && h >= 12 && h < 16: // carol, unbooked
						gs.Util, gs.MemUsedMB, gs.Users = 95, 70000, []string{"carol"}
					}
					b.GPUs = append(b.GPUs, gs)
				}
				if err := s.deps.Watch.RecordSamples(ctx, b); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	s.deps.Inventory.Users = map[string]string{"alice": "U0001", "bob": "U0002"}
	seoul, _ := time.LoadLocation("Asia/Seoul")
	rep, err := s.DigestFor(ctx, "week", clock.Now(), nil, seoul)
	if err != nil {
		t.Fatal(err)
	}
	r := s.DigestReply(rep)
	if len(r.Files) != 1 {
		t.Fatal("no chart")
	}
	img, err := png.Decode(bytes.NewReader(r.Files[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 600 || b.Dy() < 12*4 || b.Dx() > 2000 || b.Dy() > 2000 {
		t.Errorf("chart is %dx%d", b.Dx(), b.Dy())
	}
	var text bytes.Buffer
	if err := RenderText(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"carol (unmapped Unix user)", "<@U0002> 19 GPU-h", "<@U0001>"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("digest lacks %q", want)
		}
	}
	replyJSON, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/digest.golden.txt", text.Bytes())
	golden(t, "testdata/digest.reply.json", append(replyJSON, '\n'))

	// The same week for a Korean reader: every heading, cell and note in
	// Korean, the numbers and ids as they are.
	ko, err := s.DigestIn(ctx, i18n.For(i18n.KO), "week", clock.Now(), nil, seoul)
	if err != nil {
		t.Fatal(err)
	}
	rk := s.DigestReply(ko)
	var koText bytes.Buffer
	if err := RenderText(&koText, rk); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"주간 GPU 다이제스트", "carol (Slack 계정과 연결 안 된 Unix 사용자)", "<@U0002> 19 GPU-h", "많이 쓴 사람"} {
		if !strings.Contains(koText.String(), want) {
			t.Errorf("Korean digest lacks %q:\n%s", want, koText.String())
		}
	}
	if len(rk.Files) != 1 || rk.Files[0].Title != "시간대별 GPU 사용률" {
		t.Errorf("Korean digest chart: %+v", rk.Files)
	}
	golden(t, "testdata/digest.ko.golden.txt", koText.Bytes())
}

// hourUsage writes one GPU's hourly usage over [from, from+n h) with the
// given busy seconds, utilization while busy and user.
func hourUsage(gpu int, from time.Time, n int, busy float64, util float64, user string) []store.HourUsage {
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

// The reply of digest's by-hand day (TestBuildDigestByHand has its
// numbers): each figure in its words, the chart as a PNG.
func TestDigestReplyByHand(t *testing.T) {
	to := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	from := to.Add(-24 * time.Hour)
	booked := store.Reservation{ID: "s1-1", Server: "s1", GPUs: []int{0}, Owner: "U1", Start: to.Add(-10 * time.Hour), End: to.Add(-4 * time.Hour)}
	prevBooked := store.Reservation{ID: "s1-0", Server: "s1", GPUs: []int{0, 1}, Owner: "U1", Start: from.Add(-5 * time.Hour), End: from.Add(-3*time.Hour - 30*time.Minute)}
	ending := store.Reservation{ID: "s1-2", Server: "s1", GPUs: []int{1}, Owner: "U3", Start: to.Add(-time.Hour), End: to.Add(3 * time.Hour)}
	var use []store.HourUsage
	// GPU 0: idle all day except the first 3 booked hours (busy, 80%, alice).
	use = append(use, hourUsage(0, from, 14, 0, 0, "")...)
	use = append(use, hourUsage(0, to.Add(-10*time.Hour), 3, 3600, 80, "alice")...)
	use = append(use, hourUsage(0, to.Add(-7*time.Hour), 7, 0, 0, "")...)
	// GPU 1: bob runs 2 unbooked hours at 50%, idle otherwise; the booking
	// of its last hour (U3) sees it idle.
	use = append(use, hourUsage(1, from, 20, 0, 0, "")...)
	use = append(use, hourUsage(1, to.Add(-4*time.Hour), 2, 3600, 50, "bob")...)
	use = append(use, hourUsage(1, to.Add(-2*time.Hour), 2, 0, 0, "")...)
	// The previous day: GPU 0 at 10% for 24 h.
	use = append(use, hourUsage(0, from.Add(-24*time.Hour), 24, 3600, 10, "")...)
	in := []digest.Input{
		{Server: testServer("s1", 2), History: []store.Reservation{prevBooked, booked, ending}, Usage: use, Live: []store.Reservation{ending}, Waiting: 1,
			UnixToSlack: map[string]string{"alice": "U1", "bob": "U2"}},
		{Server: testServer("s2", 4), History: []store.Reservation{{ID: "s2-1", Server: "s2", GPUs: []int{0, 1, 2, 3}, Owner: "U2", Start: from, End: from.Add(2 * time.Hour)}}},
	}
	rep := digest.Build("day", to, in, time.UTC)
	set := New(Deps{})
	r := set.DigestReply(rep)
	var buf bytes.Buffer
	if err := RenderText(&buf, r); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{
		"7.0 of 48 GPU-h (15%) (↑133%)", // booked 7 against 3 the day before
		"s2: no agent reported, so this is from bookings alone",
		"s1 used without a booking: <@U2> 2.0 GPU-h",
		"booked but idle",
		"Expiring within a day",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("digest text lacks %q:\n%s", want, text)
		}
	}
	if len(r.Files) != 1 || r.Files[0].Type != "image/png" {
		t.Fatalf("files = %+v", r.Files)
	}
	if _, err := png.Decode(bytes.NewReader(r.Files[0].Data)); err != nil {
		t.Fatalf("chart is not a PNG: %v", err)
	}
}
