package commands

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The figures a card writes: dollars, GPU-hours and rates, in the digits
// people compare.

// money writes a cost in dollars: cents below ten, whole dollars with
// thousands separators above.
func money(v float64) string {
	if v < 10 {
		return fmt.Sprintf("$%.2f", v)
	}
	return "$" + thousands(math.Round(v))
}

// gpuHoursFigure writes GPU-hours for the cost line: one figure below a
// tenth, a tenth below ten ("0.4", not "0", for a 25-minute run), whole
// hours with thousands separators above.
func gpuHoursFigure(v float64) string {
	if v > 0 && v < 0.095 {
		return strconv.FormatFloat(v, 'g', 1, 64) // a minute's run: "0.003", not "0"
	}
	if v < 9.95 {
		return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
	}
	return thousands(v)
}

// thousands writes 1234567 as "1,234,567".
func thousands(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// sig writes a rate with three significant figures ("1.23k" style avoided:
// people compare these, so plain digits).
func sig(v float64) string {
	switch {
	case v >= 1000:
		return thousands(v)
	case v >= 10:
		return fmt.Sprintf("%.0f", v)
	default:
		return fmt.Sprintf("%.2g", v)
	}
}
