package commands

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
)

// dollarSum finds a sum of dollars in an answer: "$18.09", "$1,440",
// "$2.5k", "$1.2M".
var dollarSum = regexp.MustCompile(`\$([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(\.[0-9]+)?([kKM]?)`)

// inWon adds each dollar sum's value in won after it ("$960 ≈ ₩1,370,000")
// when the money was asked in won (`원화로`, `in KRW`), and says the rate:
// the admin's GPUPLAN_KRW_PER_USD, or the 2025 average assumed. GPU
// prices are kept in dollars, the currency they are listed in.
func inWon(p *i18n.Printer, rd lang.Reading, rate float64, s string) string {
	if !rd.InWon || s == "" || !strings.Contains(s, "$") {
		return s
	}
	assumed := rate <= 0
	if assumed {
		rate = lang.DefaultKRWPerUSD
	}
	s = dollarSum.ReplaceAllStringFunc(s, func(m string) string {
		g := dollarSum.FindStringSubmatch(m)
		v, err := strconv.ParseFloat(strings.ReplaceAll(g[1], ",", "")+g[2], 64)
		if err != nil {
			return m
		}
		v *= map[string]float64{"": 1, "k": 1e3, "K": 1e3, "M": 1e6}[g[3]]
		return m + " ≈ ₩" + thousands(wonRounded(v*rate))
	})
	if assumed {
		return s + " " + p.Tf("(₩%s/$, the 2025 average; GPUPLAN_KRW_PER_USD sets today's)", thousands(rate))
	}
	return s + " " + p.Tf("(₩%s/$, GPUPLAN_KRW_PER_USD)", thousands(rate))
}

// wonRounded keeps three significant figures of a sum in won: a dollar
// price times an exchange rate is not exact to the won.
func wonRounded(v float64) float64 {
	if v < 1000 {
		return math.Round(v)
	}
	step := math.Pow(10, math.Floor(math.Log10(v))-2)
	return math.Round(v/step) * step
}
