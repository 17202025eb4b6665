package digest

import (
	"bytes"
	_ "embed" // the Hangul font
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"sync"
	"time"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"github.com/gpuplan/gpuplan/i18n"
)

// HeatMap is the digest's chart: one row per GPU (or per server), one
// column per hour, coloured by mean measured utilization, with the hours
// a GPU was booked marked so that booked-but-idle time stands out.
type HeatMap struct {
	Title string
	// Rows are the row labels ("server-h/0", or "server-h" for a server's
	// mean). Rows of one server share the prefix before "/": when rows are
	// too thin for a label each, the chart labels the servers.
	Rows []string
	// Start is the first column's start; Step is a column's length (1 h
	// when zero); Loc is the zone of the hour and day labels (UTC when nil).
	Start time.Time
	Step  time.Duration
	Loc   *time.Location
	// Values is row × column mean utilization in 0..1; NaN or < 0 means no
	// data (no agent reported), > 1 counts as 1.
	Values [][]float64
	// Booked, when not nil, has the shape of Values: the GPU was reserved
	// in that hour.
	Booked [][]bool
	// Printer writes the legend and the day labels (English when nil).
	Printer *i18n.Printer
}

// printer is h's Printer, or English.
func (h HeatMap) printer() *i18n.Printer {
	if h.Printer == nil {
		return i18n.For(i18n.EN)
	}
	return h.Printer
}

// Chart colours. Utilization uses the viridis scale (dark purple = idle,
// yellow = full), which reads in greyscale and to colour-blind eyes.
var (
	chartBackground = color.RGBA{0xff, 0xff, 0xff, 0xff}
	chartText       = color.RGBA{0x21, 0x21, 0x21, 0xff}
	chartAxis       = color.RGBA{0x78, 0x78, 0x78, 0xff}
	chartNoData     = color.RGBA{0xdd, 0xdd, 0xdd, 0xff} // no agent reported
	chartBookedIdle = color.RGBA{0xe4, 0x1a, 0x1c, 0xff} // booked, measured under chartIdle
	chartSeparator  = color.RGBA{0xaa, 0xaa, 0xaa, 0xff}
)

// chartIdle is the utilization under which a booked hour counts as idle.
const chartIdle = 0.05

// viridisStops samples matplotlib's viridis at 0, 1/8, …, 1.
var viridisStops = [...]color.RGBA{
	{68, 1, 84, 255}, {71, 44, 122, 255}, {59, 81, 139, 255}, {44, 113, 142, 255}, {33, 144, 141, 255},
	{39, 173, 129, 255}, {92, 200, 99, 255}, {170, 220, 50, 255}, {253, 231, 37, 255},
}

// Palette indices: fixed colours first, then the utilization levels.
const (
	pxBackground = iota
	pxText
	pxAxis
	pxNoData
	pxBookedIdle
	pxSeparator
	pxLevel0    // utilization 0; pxLevel0+chartLevels-1 is utilization 1
	chartLevels = 256 - pxLevel0
)

// chartPalette is built on first use: 256 boxed colours would be 17 kB
// and 265 allocations in the start-up of every gpuplan process.
var chartPalette = sync.OnceValue(func() color.Palette {
	p := color.Palette{chartBackground, chartText, chartAxis, chartNoData, chartBookedIdle, chartSeparator}
	for i := range chartLevels {
		p = append(p, viridis(float64(i)/float64(chartLevels-1)))
	}
	return p
})

func viridis(v float64) color.RGBA {
	v = math.Min(math.Max(v, 0), 1)
	f := v * float64(len(viridisStops)-1)
	i := int(f)
	if i >= len(viridisStops)-1 {
		return viridisStops[len(viridisStops)-1]
	}
	t := f - float64(i)
	a, b := viridisStops[i], viridisStops[i+1]
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + t*(float64(y)-float64(x)))) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 255}
}

// level is the palette index of a utilization.
func utilLevel(v float64) uint8 {
	return uint8(pxLevel0 + int(math.Round(math.Min(v, 1)*float64(chartLevels-1))))
}

// Layout constants, in pixels.
const (
	chartMaxSide   = 2000 // neither side of the image exceeds this
	chartMargin    = 12
	chartTargetW   = 1400 // the grid aims at this size; cells are then capped
	chartTargetH   = 1200
	chartMaxCellW  = 12
	chartMaxCellH  = 16
	chartMaxLabel  = 24 // runes of a row label
	chartMinWidth  = 480
	glyphW         = 7 // basicfont.Face7x13
	glyphH         = 13
	glyphAscent    = 11
	chartTickMajor = 7
	chartTickMinor = 3
)

// chartLayout is where everything goes. Rows and columns beyond what fits
// at one pixel each are averaged in bins of rowBin × colBin.
type chartLayout struct {
	w, h           int
	rows, cols     int // after binning
	rowBin, colBin int
	cellW, cellH   int
	gridX, gridY   int
	labelW         int
	rowLabels      bool // one label per row; else one per group of rows
	axisY          int  // top of the tick area, under the grid
	legendY        int
	title          string
}

func (h HeatMap) check() error {
	if len(h.Values) == 0 || len(h.Values[0]) == 0 {
		return errors.New("heat map: no values")
	}
	cols := len(h.Values[0])
	for i, r := range h.Values {
		if len(r) != cols {
			return fmt.Errorf("heat map: row %d has %d values, row 0 has %d", i, len(r), cols)
		}
	}
	if len(h.Rows) != len(h.Values) {
		return fmt.Errorf("heat map: %d labels for %d rows", len(h.Rows), len(h.Values))
	}
	if h.Booked != nil {
		if len(h.Booked) != len(h.Values) {
			return fmt.Errorf("heat map: booked has %d rows, values %d", len(h.Booked), len(h.Values))
		}
		for i, r := range h.Booked {
			if len(r) != cols {
				return fmt.Errorf("heat map: booked row %d has %d cells, values %d", i, len(r), cols)
			}
		}
	}
	if h.Step < 0 {
		return errors.New("heat map: negative step")
	}
	return nil
}

func (h HeatMap) layout() chartLayout {
	l := chartLayout{rowBin: 1, colBin: 1}
	rows, cols := len(h.Values), len(h.Values[0])
	top := chartMargin + glyphH + 10
	axisH := chartTickMajor + 2 + 2*glyphH + 8
	legendH := glyphH + 4
	bottom := axisH + legendH + chartMargin
	if avail := chartMaxSide - top - bottom; rows > avail {
		l.rowBin = ceilDiv(rows, avail)
	}
	l.rows = ceilDiv(rows, l.rowBin)
	l.cellH = clampInt(chartTargetH/l.rows, 1, chartMaxCellH)
	l.rowLabels = l.cellH >= glyphH
	longest := 0
	for i, r := range h.Rows {
		if !l.rowLabels && i > 0 && rowGroup(r) == rowGroup(h.Rows[i-1]) {
			continue
		}
		name := r
		if !l.rowLabels {
			name = rowGroup(r)
		}
		longest = max(longest, min(textCells(name), chartMaxLabel))
	}
	l.labelW = longest*glyphW + 8
	if avail := chartMaxSide - 2*chartMargin - l.labelW; cols > avail {
		l.colBin = ceilDiv(cols, avail)
	}
	l.cols = ceilDiv(cols, l.colBin)
	l.cellW = clampInt(chartTargetW/l.cols, 1, chartMaxCellW)
	l.gridX = chartMargin + l.labelW
	l.gridY = top
	l.axisY = l.gridY + l.rows*l.cellH
	l.legendY = l.axisY + axisH
	l.h = l.legendY + legendH + chartMargin
	l.w = max(l.gridX+l.cols*l.cellW+chartMargin, legendWidth(h.printer(), l.outlines())+2*chartMargin, chartMinWidth)
	title := textFold(h.Title)
	l.w = min(max(l.w, textCells(title)*glyphW+2*chartMargin), chartMaxSide)
	if n := (l.w - 2*chartMargin) / glyphW; textCells(title) > n {
		title = truncCells(title, n-3) + "..."
	}
	l.title = title
	return l
}

// outlines says whether cells are big enough to outline booked ones.
func (l chartLayout) outlines() bool { return l.cellW >= 5 && l.cellH >= 5 }

// PNG renders the heat map. It fails on an empty or ragged map; any size
// renders, with rows and columns averaged in bins when there are more
// than about 1,900 of them, so the image is at most 2000×2000.
func (h HeatMap) PNG() ([]byte, error) {
	if err := h.check(); err != nil {
		return nil, err
	}
	img := h.render(h.layout())
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("heat map: %w", err)
	}
	return buf.Bytes(), nil
}

// heatCell is one drawn cell after binning.
type heatCell struct {
	v      float64 // mean utilization; NaN without data
	booked bool
}

func (h HeatMap) cellAt(l chartLayout, r, c int) heatCell {
	sum, n, booked, total := 0.0, 0, 0, 0
	for i := r * l.rowBin; i < min((r+1)*l.rowBin, len(h.Values)); i++ {
		for j := c * l.colBin; j < min((c+1)*l.colBin, len(h.Values[i])); j++ {
			total++
			if v := h.Values[i][j]; !math.IsNaN(v) && v >= 0 {
				sum += math.Min(v, 1)
				n++
			}
			if h.Booked != nil && h.Booked[i][j] {
				booked++
			}
		}
	}
	out := heatCell{v: math.NaN(), booked: booked > 0 && booked*2 >= total}
	if n > 0 {
		out.v = sum / float64(n)
	}
	return out
}

func (h HeatMap) render(l chartLayout) *image.Paletted {
	img := image.NewPaletted(image.Rect(0, 0, l.w, l.h), chartPalette()) // all pxBackground
	drawText(img, chartMargin, chartMargin+glyphAscent, l.title, pxText)

	// Cells, with a one-pixel gap when they are large enough to afford it.
	gapX, gapY := 0, 0
	if l.cellW >= 4 {
		gapX = 1
	}
	if l.cellH >= 6 {
		gapY = 1
	}
	for r := range l.rows {
		y0 := l.gridY + r*l.cellH
		for c := range l.cols {
			x0 := l.gridX + c*l.cellW
			x1, y1 := x0+l.cellW-gapX, y0+l.cellH-gapY
			cl := h.cellAt(l, r, c)
			switch {
			case math.IsNaN(cl.v):
				fillRect(img, x0, y0, x1, y1, pxNoData)
			case cl.booked && cl.v < chartIdle:
				fillRect(img, x0, y0, x1, y1, pxBookedIdle)
			default:
				fillRect(img, x0, y0, x1, y1, utilLevel(cl.v))
			}
			if cl.booked && l.outlines() {
				// One frame around each run of booked hours: top and
				// bottom edges bridge the gap to a booked neighbour.
				before := c > 0 && h.cellAt(l, r, c-1).booked
				after := c+1 < l.cols && h.cellAt(l, r, c+1).booked
				right := x1
				if after {
					right = x0 + l.cellW
				}
				fillRect(img, x0, y0, right, y0+1, pxBookedIdle)
				fillRect(img, x0, y1-1, right, y1, pxBookedIdle)
				if !before {
					fillRect(img, x0, y0, x0+1, y1, pxBookedIdle)
				}
				if !after {
					fillRect(img, x1-1, y0, x1, y1, pxBookedIdle)
				}
			}
		}
	}
	h.drawRowLabels(img, l)
	h.drawTimeAxis(img, l)
	drawLegend(img, h.printer(), chartMargin, l.legendY, l.outlines())
	return img
}

func (h HeatMap) drawRowLabels(img *image.Paletted, l chartLayout) {
	lastY := -glyphH
	for r := range l.rows {
		i := r * l.rowBin
		name := h.Rows[i]
		y := l.gridY + r*l.cellH
		if !l.rowLabels {
			if r > 0 && rowGroup(name) == rowGroup(h.Rows[(r-1)*l.rowBin]) {
				continue
			}
			name = rowGroup(name)
			if r > 0 {
				// A rule in the gutter where a server's rows begin.
				fillRect(img, chartMargin, y, l.gridX-3, y+1, pxSeparator)
			}
			if y < lastY+glyphH {
				continue
			}
			lastY = y
			drawText(img, chartMargin, y+glyphAscent+1, truncCells(name, chartMaxLabel), pxText)
			continue
		}
		drawText(img, chartMargin, y+(l.cellH-glyphH)/2+glyphAscent, truncCells(name, chartMaxLabel), pxText)
	}
}

// drawTimeAxis draws a tick every 6 hours (labelled when there is room)
// and a longer one at each midnight, with the day's name under it.
func (h HeatMap) drawTimeAxis(img *image.Paletted, l chartLayout) {
	step := h.Step
	if step == 0 {
		step = time.Hour
	}
	step *= time.Duration(l.colBin)
	loc := h.Loc
	if loc == nil {
		loc = time.UTC
	}
	gridW := l.cols * l.cellW
	fillRect(img, l.gridX, l.axisY, l.gridX+gridW, l.axisY+1, pxAxis)
	sixHours := float64(6*time.Hour) / float64(step) * float64(l.cellW) // pixels between 6-hour ticks
	hourLabels := sixHours >= 2*glyphW+4
	type day struct {
		x    int
		date time.Time
	}
	var days []day
	prev := time.Time{}
	for c := 0; c <= l.cols; c++ {
		t := h.Start.Add(time.Duration(c) * step).In(loc)
		x := l.gridX + c*l.cellW
		newDay := c == 0 || t.YearDay() != prev.YearDay() || t.Year() != prev.Year()
		prev = t
		if newDay && c < l.cols {
			days = append(days, day{x, t})
		}
		if c == l.cols {
			break
		}
		onHour := t.Minute() == 0 && t.Second() == 0
		switch {
		case newDay && c > 0:
			fillRect(img, x, l.axisY, x+1, l.axisY+chartTickMajor, pxText)
		case onHour && t.Hour()%6 == 0 && sixHours >= 3:
			fillRect(img, x, l.axisY, x+1, l.axisY+chartTickMinor, pxAxis)
		default:
			continue
		}
		if hourLabels && onHour && t.Hour()%6 == 0 {
			lbl := fmt.Sprintf("%02d", t.Hour())
			drawText(img, x-glyphW+1, l.axisY+chartTickMajor+1+glyphAscent, lbl, pxAxis)
		}
	}
	// Day names, centred on their span when it is wide enough.
	for i, d := range days {
		end := l.gridX + gridW
		if i+1 < len(days) {
			end = days[i+1].x
		}
		span := end - d.x
		y := l.axisY + chartTickMajor + 1 + glyphH + glyphAscent
		if !hourLabels {
			y -= glyphH
		}
		for _, s := range dayLabels(h.printer(), d.date) {
			if w := textCells(s) * glyphW; w+4 <= span {
				drawText(img, d.x+(span-w)/2, y, s, pxText)
				break
			}
		}
	}
}

// dayLabels are a day's axis labels, longest first: "Mon Jan 2", "Mon
// 2", "2" (Korean "1월 2일 (월)", "2일 (월)", "2일").
func dayLabels(p *i18n.Printer, t time.Time) []string {
	if !p.Korean() {
		return []string{t.Format("Mon Jan 2"), t.Format("Mon 2"), t.Format("2")}
	}
	return []string{fmt.Sprintf("%d월 %d일 (%s)", t.Month(), t.Day(), koDays[t.Weekday()]),
		fmt.Sprintf("%d일 (%s)", t.Day(), koDays[t.Weekday()]), fmt.Sprintf("%d일", t.Day())}
}

// legendWidth is the legend's width in pixels.
func legendWidth(p *i18n.Printer, outlines bool) int { return drawLegend(nil, p, 0, 0, outlines) }

// legendTexts are the legend's words, for p's reader.
func legendTexts(p *i18n.Printer) (scale, noData, bookedIdle, booked string) {
	return p.Tf(" %d%% mean GPU utilization", 100), p.T("no data"),
		p.Tf("booked, idle (<%d%%)", int(chartIdle*100)), p.T("booked")
}

// drawLegend draws the legend at (x, y) and returns its width; a nil img
// only measures.
func drawLegend(img *image.Paletted, p *i18n.Printer, x, y int, outlines bool) int {
	x0 := x
	scale, noData, bookedIdle, booked := legendTexts(p)
	text := func(s string, idx uint8) {
		if img != nil {
			drawText(img, x, y+glyphAscent, s, idx)
		}
		x += textCells(s) * glyphW
	}
	swatch := func(idx uint8, boxed bool) {
		if img != nil {
			if boxed {
				outlineRect(img, x, y+2, x+10, y+12, idx)
			} else {
				fillRect(img, x, y+2, x+10, y+12, idx)
			}
		}
		x += 14
	}
	text("0% ", pxText)
	const barW = 125
	if img != nil {
		for i := range barW {
			fillRect(img, x+i, y+2, x+i+1, y+12, utilLevel(float64(i)/float64(barW-1)))
		}
	}
	x += barW
	text(scale, pxText)
	x += 16
	swatch(pxNoData, false)
	text(noData, pxText)
	x += 16
	swatch(pxBookedIdle, false)
	text(bookedIdle, pxText)
	if outlines {
		x += 16
		swatch(pxBookedIdle, true)
		text(booked, pxText)
	}
	return x - x0
}

// fill paints [x0,x1)×[y0,y1) with palette index idx, clipped.
func fillRect(img *image.Paletted, x0, y0, x1, y1 int, idx uint8) {
	b := img.Bounds()
	x0, y0, x1, y1 = max(x0, b.Min.X), max(y0, b.Min.Y), min(x1, b.Max.X), min(y1, b.Max.Y)
	for y := y0; y < y1; y++ {
		row := img.Pix[y*img.Stride+x0 : y*img.Stride+x1]
		for i := range row {
			row[i] = idx
		}
	}
}

// outline draws a one-pixel frame inside [x0,x1)×[y0,y1).
func outlineRect(img *image.Paletted, x0, y0, x1, y1 int, idx uint8) {
	fillRect(img, x0, y0, x1, y0+1, idx)
	fillRect(img, x0, y1-1, x1, y1, idx)
	fillRect(img, x0, y0, x0+1, y1, idx)
	fillRect(img, x1-1, y0, x1, y1, idx)
}

// drawText writes s with its baseline at y, straight into the palette
// indices: ASCII in the 7×13 bitmap font (whose glyph masks are either on
// or off), Hangul in the embedded Hangul font at two cells a syllable,
// its anti-aliased masks cut at half coverage.
func drawText(img *image.Paletted, x, y int, s string, idx uint8) {
	var hangul font.Face
	for _, r := range textFold(s) {
		face, cells := font.Face(basicfont.Face7x13), 1
		if isHangul(r) {
			if hangul == nil {
				hangul = newHangulFace()
			}
			face, cells = hangul, 2
		}
		dr, mask, mp, _, ok := face.Glyph(fixed.P(x, y), r)
		if ok {
			for py := dr.Min.Y; py < dr.Max.Y; py++ {
				for px := dr.Min.X; px < dr.Max.X; px++ {
					if _, _, _, a := mask.At(mp.X+px-dr.Min.X, mp.Y+py-dr.Min.Y).RGBA(); a > 0x8000 && image.Pt(px, py).In(img.Bounds()) {
						img.SetColorIndex(px, py, idx)
					}
				}
			}
		}
		x += cells * glyphW
	}
}

// hangulTTF is GpuplanHangul: NanumGothicCoding's ASCII and KS X 1001
// Hangul (SIL OFL 1.1; fonts/README.md says where it comes from).
//
//go:embed fonts/GpuplanHangul-Regular.ttf
var hangulTTF []byte

var hangulFont = sync.OnceValue(func() *sfnt.Font {
	f, err := opentype.Parse(hangulTTF)
	if err != nil {
		panic(fmt.Sprintf("digest: the embedded Hangul font: %v", err)) // a build without its font
	}
	return f
})

// newHangulFace is a face of the Hangul font sized so a syllable fills
// two 7×13 cells on the bitmap font's baseline. A face is not safe for
// concurrent use: each drawing makes its own.
func newHangulFace() font.Face {
	face, err := opentype.NewFace(hangulFont(), &opentype.FaceOptions{Size: 2 * glyphW, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(fmt.Sprintf("digest: the embedded Hangul font: %v", err))
	}
	return face
}

// isHangul reports whether r is drawn with the Hangul font: syllables and
// compatibility jamo.
func isHangul(r rune) bool { return unicode.Is(unicode.Hangul, r) && r >= 0x3131 }

// textFold keeps what the chart's fonts can draw.
func textFold(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 0x20 && r < 0x7f, isHangul(r):
			return r
		case r == '–' || r == '—' || r == '−':
			return '-'
		case r == '×':
			return 'x'
		case r == '…':
			return '.'
		}
		return '?'
	}, s)
}

// textCells is s's width in 7-pixel cells: Hangul takes two.
func textCells(s string) int {
	n := 0
	for _, r := range textFold(s) {
		n++
		if isHangul(r) {
			n++
		}
	}
	return n
}

// group is a row label's server: the part before "/".
func rowGroup(label string) string {
	g, _, _ := strings.Cut(label, "/")
	return g
}

// truncCells is s cut to at most n cells.
func truncCells(s string, n int) string {
	if textCells(s) <= n {
		return s
	}
	var b strings.Builder
	w := 0
	for _, r := range textFold(s) {
		c := 1
		if isHangul(r) {
			c = 2
		}
		if w+c > n {
			break
		}
		w += c
		b.WriteRune(r)
	}
	return b.String()
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

func clampInt(v, lo, hi int) int { return min(max(v, lo), hi) }
