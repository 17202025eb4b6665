package digest

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"testing"
	"time"
)

// flatMap is a rows × cols map with every cell at v, labelled by server
// groups of 8 GPUs.
func flatMap(rows, cols int, v float64) HeatMap {
	h := HeatMap{Title: "test", Start: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), Step: time.Hour}
	for r := range rows {
		h.Rows = append(h.Rows, fmt.Sprintf("srv-%03d/%d", r/8, r%8))
		row := make([]float64, cols)
		for c := range row {
			row[c] = v
		}
		h.Values = append(h.Values, row)
	}
	return h
}

func decodePNG(t testing.TB, raw []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	return img
}

func TestHeatMapSizes(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		w, h       int // 0: only the caps are checked
	}{
		{20, 168, 1439, 427}, // the seeds' fleet, one week
		{800, 168, 1425, 907},
		{1, 1, 0, 0},
		{3, 24, 0, 0},
		{250, 168, 0, 0},
		{5000, 24, 0, 0}, // rows averaged in bins
		{4, 9000, 0, 0},  // columns averaged in bins
	} {
		h := flatMap(tc.rows, tc.cols, 0.5)
		raw, err := h.PNG()
		if err != nil {
			t.Fatalf("%d×%d: %v", tc.rows, tc.cols, err)
		}
		b := decodePNG(t, raw).Bounds()
		l := h.layout()
		if b.Dx() != l.w || b.Dy() != l.h {
			t.Errorf("%d×%d: image %v, layout %d×%d", tc.rows, tc.cols, b, l.w, l.h)
		}
		if tc.w != 0 && (b.Dx() != tc.w || b.Dy() != tc.h) {
			t.Errorf("%d×%d: image %d×%d, want %d×%d", tc.rows, tc.cols, b.Dx(), b.Dy(), tc.w, tc.h)
		}
		if b.Dx() > chartMaxSide || b.Dy() > chartMaxSide || l.cellW < 1 || l.cellH < 1 {
			t.Errorf("%d×%d: %v with %d×%d cells breaks the caps", tc.rows, tc.cols, b, l.cellW, l.cellH)
		}
		if l.gridX+l.cols*l.cellW > l.w || l.legendY+glyphH > l.h {
			t.Errorf("%d×%d: the grid or legend does not fit: %+v", tc.rows, tc.cols, l)
		}
	}
}

// centre returns the colour in the middle of cell (r, c).
func centre(img image.Image, l chartLayout, r, c int) color.RGBA {
	x := l.gridX + c*l.cellW + (l.cellW-1)/2
	y := l.gridY + r*l.cellH + (l.cellH-1)/2
	return color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
}

func TestHeatMapColours(t *testing.T) {
	h := HeatMap{
		Title:  "colours",
		Rows:   []string{"server-h/0", "server-h/1"},
		Start:  time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC),
		Values: [][]float64{{1, math.NaN(), -1}, {0.02, 0.5, 0}},
		Booked: [][]bool{{true, false, false}, {true, false, false}},
	}
	raw, err := h.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, l := decodePNG(t, raw), h.layout()
	for _, tc := range []struct {
		r, c int
		want color.RGBA
		what string
	}{
		{0, 0, color.RGBA{253, 231, 37, 255}, "full utilization (booked: outlined only)"},
		{0, 1, chartNoData, "NaN: no data"},
		{0, 2, chartNoData, "negative: no data"},
		{1, 0, chartBookedIdle, "booked and idle"},
		{1, 1, chartPalette()[utilLevel(0.5)].(color.RGBA), "half utilization"},
		{1, 2, viridis(0), "idle, not booked"},
	} {
		if got := centre(img, l, tc.r, tc.c); got != tc.want {
			t.Errorf("%s: cell (%d,%d) is %v, want %v", tc.what, tc.r, tc.c, got, tc.want)
		}
	}
	// The booked, busy cell carries an outline.
	if got := color.RGBAModel.Convert(img.At(l.gridX, l.gridY)); got != chartBookedIdle {
		t.Errorf("booked cell's corner is %v, want the outline colour", got)
	}
}

func TestHeatMapRejectsBadShapes(t *testing.T) {
	good := flatMap(2, 3, 0.1)
	for name, h := range map[string]HeatMap{
		"empty":          {},
		"no columns":     {Rows: []string{"a"}, Values: [][]float64{{}}},
		"ragged":         {Rows: []string{"a", "b"}, Values: [][]float64{{1, 2}, {1}}},
		"labels":         {Rows: []string{"a"}, Values: good.Values},
		"booked rows":    {Rows: good.Rows, Values: good.Values, Booked: [][]bool{{true, true, true}}},
		"booked ragged":  {Rows: good.Rows, Values: good.Values, Booked: [][]bool{{true, true, true}, {true}}},
		"negative step:": {Rows: good.Rows, Values: good.Values, Step: -time.Hour},
	} {
		if _, err := h.PNG(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// exampleWeek is a plausible week on the seeds' three servers, made by
// formula (no randomness): a long pretraining run on server-h that
// crashes on Friday night while its booking runs on, daytime fine-tuning,
// a steady inference service on server-a, and an agent outage on
// server-v.
func exampleWeek() HeatMap {
	start := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC) // a Monday
	const hours = 7 * 24
	h := HeatMap{Title: "GPU utilization by hour, Mon Nov 16 00:00 - Mon Nov 23 00:00 UTC", Start: start, Step: time.Hour, Loc: time.UTC}
	// noise is a fixed hash of (row, hour) in [0, 1).
	noise := func(r, c int) float64 {
		x := uint32(r*7919+c*104729) ^ 0x9e3779b9
		x ^= x >> 16
		x *= 0x7feb352d
		x ^= x >> 15
		x *= 0x846ca68b
		x ^= x >> 16
		return float64(x%1000) / 1000
	}
	type job struct {
		from, to     int // hours since start
		util         float64
		bookedTo     int // the booking's end; ≥ to
		bookedFrom   int
		jitter       float64
		gpuLo, gpuHi int
	}
	weekday := func(d, h int) int { return d*24 + h }
	servers := []struct {
		name string
		gpus int
		jobs []job
	}{
		{"server-h", 8, []job{
			// Pretraining on 0-3: Mon 10:00 to Fri 02:00, booked to Fri 18:00.
			{from: weekday(0, 10), to: weekday(4, 2), util: 0.92, bookedFrom: weekday(0, 9), bookedTo: weekday(4, 18), jitter: 0.06, gpuLo: 0, gpuHi: 4},
			// Fine-tuning on 4-7, three daytime runs.
			{from: weekday(0, 9), to: weekday(0, 19), util: 0.7, bookedFrom: weekday(0, 9), bookedTo: weekday(0, 20), jitter: 0.2, gpuLo: 4, gpuHi: 8},
			{from: weekday(1, 10), to: weekday(1, 22), util: 0.75, bookedFrom: weekday(1, 9), bookedTo: weekday(1, 22), jitter: 0.2, gpuLo: 4, gpuHi: 8},
			{from: weekday(3, 9), to: weekday(3, 17), util: 0.65, bookedFrom: weekday(3, 9), bookedTo: weekday(3, 18), jitter: 0.25, gpuLo: 4, gpuHi: 6},
			// Booked on Wednesday, never used.
			{from: weekday(2, 0), to: weekday(2, 0), bookedFrom: weekday(2, 8), bookedTo: weekday(2, 20), gpuLo: 6, gpuHi: 8},
		}},
		{"server-a", 8, []job{
			// Inference service on 0-1 all week.
			{from: 0, to: hours, util: 0.35, bookedFrom: 0, bookedTo: hours, jitter: 0.15, gpuLo: 0, gpuHi: 2},
			// Sweeps on 2-7.
			{from: weekday(0, 14), to: weekday(1, 6), util: 0.85, bookedFrom: weekday(0, 13), bookedTo: weekday(1, 8), jitter: 0.1, gpuLo: 2, gpuHi: 8},
			{from: weekday(2, 11), to: weekday(3, 15), util: 0.8, bookedFrom: weekday(2, 10), bookedTo: weekday(3, 16), jitter: 0.15, gpuLo: 2, gpuHi: 6},
			{from: weekday(4, 9), to: weekday(4, 12), util: 0.5, bookedFrom: weekday(4, 9), bookedTo: weekday(5, 9), jitter: 0.3, gpuLo: 6, gpuHi: 8},
		}},
		{"server-v", 4, []job{
			{from: weekday(0, 10), to: weekday(0, 16), util: 0.45, bookedFrom: weekday(0, 10), bookedTo: weekday(0, 16), jitter: 0.3, gpuLo: 0, gpuHi: 2},
			{from: weekday(3, 13), to: weekday(3, 18), util: 0.55, bookedFrom: weekday(3, 13), bookedTo: weekday(3, 18), jitter: 0.3, gpuLo: 0, gpuHi: 4},
		}},
	}
	row := 0
	for _, s := range servers {
		for g := range s.gpus {
			h.Rows = append(h.Rows, fmt.Sprintf("%s/%d", s.name, g))
			vals, booked := make([]float64, hours), make([]bool, hours)
			for c := range hours {
				vals[c] = 0.02 * noise(row, c) // idle draws a little
			}
			for _, j := range s.jobs {
				if g < j.gpuLo || g >= j.gpuHi {
					continue
				}
				for c := j.from; c < j.to; c++ {
					vals[c] = math.Min(1, math.Max(0, j.util+j.jitter*(noise(row, c)-0.5)*2))
				}
				for c := j.bookedFrom; c < j.bookedTo; c++ {
					booked[c] = true
				}
			}
			if s.name == "server-v" {
				for c := weekday(1, 12); c < weekday(2, 8); c++ {
					vals[c] = math.NaN() // the agent was down
				}
			}
			h.Values = append(h.Values, vals)
			h.Booked = append(h.Booked, booked)
			row++
		}
	}
	return h
}

var update = flag.Bool("update", false, "rewrite the example chart")

const exampleChart = "../docs/digest-chart.png"

// The committed example chart is what the renderer draws today (compared
// pixel by pixel; go test ./digest -run TestChartExample -update
// rewrites it).
func TestChartExample(t *testing.T) {
	raw, err := exampleWeek().PNG()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(exampleChart, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(exampleChart)
	if err != nil {
		t.Fatalf("%v (run go test ./digest -run TestChartExample -update)", err)
	}
	a, b := decodePNG(t, raw), decodePNG(t, want)
	if a.Bounds() != b.Bounds() {
		t.Fatalf("example chart is %v, %s is %v: rerun with -update if the change is intended", a.Bounds(), exampleChart, b.Bounds())
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			if color.RGBAModel.Convert(a.At(x, y)) != color.RGBAModel.Convert(b.At(x, y)) {
				t.Fatalf("example chart differs from %s at (%d,%d): rerun with -update if the change is intended", exampleChart, x, y)
			}
		}
	}
}

// BenchmarkHeatMapPNG renders a week for 100 servers × 8 GPUs.
func BenchmarkHeatMapPNG(b *testing.B) {
	h := flatMap(800, 168, 0)
	for r := range h.Values {
		for c := range h.Values[r] {
			h.Values[r][c] = float64((r*31+c*17)%101) / 100
		}
	}
	b.ReportAllocs()
	var size int
	for b.Loop() {
		raw, err := h.PNG()
		if err != nil {
			b.Fatal(err)
		}
		size = len(raw)
	}
	b.ReportMetric(float64(size), "bytes/png")
}
