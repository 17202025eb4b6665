package digest

import (
	"image/color"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/image/font/sfnt"

	"github.com/gpuplan/gpuplan/i18n"
)

const exampleChartKo = "../docs/digest-chart-ko.png"

// koreanWeek is the example week as a Korean digest draws it.
func koreanWeek() HeatMap {
	h := exampleWeek()
	h.Printer = i18n.For(i18n.KO)
	from, to := h.Start, h.Start.Add(7*24*time.Hour)
	h.Title = h.Printer.Tf("GPU utilization by hour, %s – %s", DateText(h.Printer, from, false), DateText(h.Printer, to, true))
	return h
}

// TestKoreanChartGlyphs renders the example week in Korean and fails for
// any Hangul in its labels (title, legend, every day of a year) that the
// embedded font cannot draw, and for a chart whose Korean labels were
// not drawn (the same pixels as the English one there).
func TestKoreanChartGlyphs(t *testing.T) {
	ko := koreanWeek()
	p := ko.Printer
	labels := []string{ko.Title}
	a, b, c, d := legendTexts(p)
	labels = append(labels, a, b, c, d)
	for day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC); day.Year() == 2026; day = day.AddDate(0, 0, 1) {
		labels = append(labels, dayLabels(p, day)...)
	}
	var buf sfnt.Buffer
	f := hangulFont()
	hangul := 0
	for _, s := range labels {
		for _, r := range s {
			if !isHangul(r) {
				continue
			}
			hangul++
			if g, err := f.GlyphIndex(&buf, r); err != nil || g == 0 {
				t.Errorf("label %q: the Hangul font has no %q", s, r)
			}
		}
	}
	if hangul == 0 {
		t.Fatalf("no Hangul in the Korean chart's labels: %q", labels)
	}

	raw, err := ko.PNG()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(exampleChartKo, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	img := decodePNG(t, raw)
	// The title's first syllable (two cells at the margin) has ink.
	ink := 0
	for y := chartMargin; y < chartMargin+glyphH+2; y++ {
		for x := chartMargin; x < chartMargin+textCells(strings.Fields(ko.Title)[0])*glyphW; x++ {
			if color.RGBAModel.Convert(img.At(x, y)) == color.RGBAModel.Convert(chartText) {
				ink++
			}
		}
	}
	if !strings.HasPrefix(ko.Title, "GPU") && ink == 0 {
		t.Errorf("the Korean title's first word %q has no ink", strings.Fields(ko.Title)[0])
	}
	want, err := os.ReadFile(exampleChartKo)
	if err != nil {
		t.Fatalf("%v (run go test ./digest -run TestKoreanChartGlyphs -update)", err)
	}
	w := decodePNG(t, want)
	if img.Bounds() != w.Bounds() {
		t.Fatalf("Korean example chart is %v, %s is %v: rerun with -update if the change is intended", img.Bounds(), exampleChartKo, w.Bounds())
	}
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			if color.RGBAModel.Convert(img.At(x, y)) != color.RGBAModel.Convert(w.At(x, y)) {
				t.Fatalf("Korean example chart differs from %s at (%d,%d): rerun with -update if the change is intended", exampleChartKo, x, y)
			}
		}
	}
}

// TestTextCells holds the chart's layout to the fonts: a Hangul syllable
// is two cells, ASCII one, and a cut never splits a syllable.
func TestTextCells(t *testing.T) {
	if n := textCells("GPU 사용률"); n != 4+3*2 {
		t.Errorf("textCells = %d", n)
	}
	if s := truncCells("서버-h/0", 3); s != "서" {
		t.Errorf("truncCells = %q", s)
	}
	if s := textFold("a – b × c…"); s != "a - b x c." {
		t.Errorf("textFold = %q", s)
	}
}
