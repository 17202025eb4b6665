package lang

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// Rental is GPUs asked about for their price alone, with no job: "how much
// for 8 h100s for a week", "h100 8장 일주일 빌리면 얼마야", "a100 한대 시간당
// 얼마야? 72시간 쓰면 총 얼마". Hours is 0 when no time was said (the
// answer gives the hourly price and a day's, a week's and a month's).
type Rental struct {
	// Hardware is what was asked about: one, or a few set side by side
	// ("l40s rental price vs a100", "h100 pcie vs sxm price?").
	Hardware []planner.Hardware
	Hours    float64
	// Words are what said the time ("for a week", "72시간").
	Words string
	// BudgetUSD is a budget said with the GPUs ("예산 1000만원으로 H100 몇
	// 시간", "$5000 budget, how many a100 hours"): the answer is the hours
	// it buys, and with a time said, the GPUs it keeps running that long
	// ("한달 예산"). 0 for none.
	BudgetUSD float64
	// Buy: buying was asked ("구매가 기준으로", "should we buy 8 H100s or
	// rent?"): the catalogue has no purchase prices, and the answer says
	// so beside the rent a purchase quote is set against.
	Buy bool
	// InWon: the sums were asked in won ("원화로", "in KRW").
	InWon bool
	// TeamAsked: the cloud's price is set against the team's own servers
	// ("클라우드에서 H100 빌리는거랑 우리 서버 쓰는거 비용 비교"), which
	// Hardware then holds after the GPUs named.
	TeamAsked bool
	reading   Reading
}

// rentalTeamWords set a price against the team's own servers.
var rentalTeamWords = []string{"우리 서버", "우리서버", "우리 팀 서버", "팀 서버", "사내 서버", "자체 서버", "our server", "our own server", "our gpus", "our cluster", "the team's server", "team server"}

// withTeamServers adds to rt, when the team's servers are set against the
// GPUs asked, the servers with those GPUs (or every server, none having
// them), as many as the answer sets side by side.
func withTeamServers(rt *Rental, env Env, low string) {
	asked := false
	for _, w := range rentalTeamWords {
		asked = asked || strings.Contains(low, w)
	}
	if slices.ContainsFunc(rt.Hardware, func(h planner.Hardware) bool { return h.Server != "" }) {
		withCloudSide(rt, low)
		return
	}
	if !asked || len(env.Servers) == 0 {
		return
	}
	var same []planner.Hardware
	for _, srv := range env.Servers {
		if slices.ContainsFunc(rt.Hardware, func(h planner.Hardware) bool { return h.GPU.ID == srv.GPU.ID }) {
			same = append(same, srv)
		}
	}
	if len(same) == 0 {
		same = env.Servers
	}
	for i, h := range rt.Hardware {
		// a server's price overrides its GPU's in the catalogue; the
		// cloud side is the cloud's rate
		if g, _, err := planner.DefaultCatalog().GPU(h.GPU.ID); err == nil && h.GPU.PriceSource == "team price override" {
			rt.Hardware[i].GPU.PriceUSD, rt.Hardware[i].GPU.PriceSource = g.PriceUSD, g.PriceSource
		}
	}
	for _, srv := range same {
		if len(rt.Hardware) < 4 {
			rt.Hardware = append(rt.Hardware, srv)
		}
	}
	rt.TeamAsked = true
}

// rentalCloudWords say the cloud's side of a price.
var rentalCloudWords = []string{"클라우드", "cloud", "aws", "gcp", "azure", "런팟", "runpod", "lambda", "vast", "coreweave"}

// withCloudSide adds the cloud's rate for a named server's GPU when the
// words set the cloud against it ("클라우드에서 H100 빌리는거랑 우리 타이거
// 쓰는거 비용 비교"): the server's price and the cloud's side by side.
func withCloudSide(rt *Rental, low string) {
	if !slices.ContainsFunc(rentalCloudWords, func(w string) bool { return strings.Contains(low, w) }) {
		return
	}
	for _, h := range slices.Clone(rt.Hardware) {
		if h.Server == "" || len(rt.Hardware) >= 4 || slices.ContainsFunc(rt.Hardware, func(c planner.Hardware) bool { return c.Server == "" && c.GPU.ID == h.GPU.ID }) {
			continue
		}
		if g, _, err := planner.DefaultCatalog().GPU(h.GPU.ID); err == nil {
			rt.Hardware = append(rt.Hardware, planner.Hardware{GPU: g, Count: h.Count})
		}
	}
	rt.TeamAsked = true
}

// rentalBuyWords ask about buying GPUs rather than renting them.
var rentalBuyWords = []string{"buy", "purchase", "구매", "구입", "사는게", "사는 게", "살까", "사야", "살 수", "살수"}

// NotesIn is the reading's note on the budget (said in won: the dollars
// it came to, at what rate) in p's language; the stand-in job's are not
// the asker's.
func (r Rental) NotesIn(p *i18n.Printer) []string {
	var out []string
	said := r.reading.NotesIn(p)
	for i, n := range r.reading.Request.Job.Notes {
		if strings.HasPrefix(n, "budget ₩") && i < len(said) {
			out = append(out, said[i])
		}
	}
	return out
}

// rentalDurations are the times a rental is said for, each with its hours
// (a month is 730, the hours a GPU-month is billed at).
var rentalDurations = []struct {
	re    *regexp.Regexp
	hours func(n float64) float64
}{
	{regexp.MustCompile(`(?i)\b(\d+(?:\.\d+)?)\s*(?:hours?|hrs?|h)\b`), func(n float64) float64 { return n }},
	{regexp.MustCompile(`(?i)\b(\d+(?:\.\d+)?)\s*(?:days?|d)\b`), func(n float64) float64 { return 24 * n }},
	{regexp.MustCompile(`(?i)\b(\d+(?:\.\d+)?)\s*(?:weeks?|wks?)\b`), func(n float64) float64 { return 168 * n }},
	{regexp.MustCompile(`(?i)\b(\d+(?:\.\d+)?)\s*(?:months?|mo)\b`), func(n float64) float64 { return 730 * n }},
	{regexp.MustCompile(`(?i)\b(?:a|one)\s+(hour|day|week|month)\b`), nil},
	// a number of its own (not the 100 of "h100"), and 시간 not 시간당
	{regexp.MustCompile(`(?:^|[^a-z0-9.])(\d+(?:\.\d+)?)\s*시간(?:[^당]|$)`), func(n float64) float64 { return n }},
	{regexp.MustCompile(`(?:^|[^a-z0-9.])(\d+(?:\.\d+)?)\s*(?:개월|달)`), func(n float64) float64 { return 730 * n }},
	{regexp.MustCompile(`(?:^|\s)(월|매달|per month|a month|monthly)(?:\s|$)`), nil},
	{regexp.MustCompile(`(?:^|[^a-z0-9.])(\d+(?:\.\d+)?)\s*주(?:일|간|동안)?`), func(n float64) float64 { return 168 * n }},
	{regexp.MustCompile(`(?:^|[^a-z0-9.])(\d+(?:\.\d+)?)\s*일(?:간|동안)?`), func(n float64) float64 { return 24 * n }},
	{regexp.MustCompile(`(일주일|한\s?주|하루|이틀|사흘|나흘|닷새|열흘|보름|한\s?달|두\s?달|세\s?달)`), nil},
}

// rentalEnglishCount and rentalKoreanCount are a time's count said as a
// word ("for two weeks", "a couple of days", "이주일", "삼일"): rentalTime
// reads it as the digits.
var (
	rentalEnglishCount = regexp.MustCompile(`\b(?:a\s+)?(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|couple|few)(?:\s+of)?\s+(hours?|days?|weeks?|months?)\b`)
	// 이 only before 주일 or 개월: 이달 and 이주 are "this month" and "this week"
	rentalKoreanCount = regexp.MustCompile(`(^|[^가-힣])(이(?:\s*(?:주일|개월))|(?:삼|사|오|육|칠|팔|구|십)\s*(?:주일|주|개월|달|일))`)
	koreanDigits      = map[string]string{"이": "2", "삼": "3", "사": "4", "오": "5", "육": "6", "칠": "7", "팔": "8", "구": "9", "십": "10"}
)

// rentalCounts writes a time's count said as a word in digits.
func rentalCounts(low string) string {
	low = rentalEnglishCount.ReplaceAllStringFunc(low, func(m string) string {
		g := rentalEnglishCount.FindStringSubmatch(m)
		return reqTrimNum(englishNumbers[g[1]]) + " " + g[2]
	})
	return rentalKoreanCount.ReplaceAllStringFunc(low, func(m string) string {
		g := rentalKoreanCount.FindStringSubmatch(m)
		first, size := utf8.DecodeRuneInString(g[2])
		return g[1] + koreanDigits[string(first)] + g[2][size:]
	})
}

// koRentalWords are the Korean times said as words, in hours.
var koRentalWords = map[string]float64{"월": 730, "매달": 730, "per month": 730, "a month": 730, "monthly": 730, "일주일": 168, "한주": 168, "한 주": 168, "하루": 24, "이틀": 48, "사흘": 72, "나흘": 96,
	"닷새": 120, "열흘": 240, "보름": 360,
	"한달": 730, "한 달": 730, "두달": 1460, "두 달": 1460, "세달": 2190, "세 달": 2190}

// rentalOnBudget is "on a $20k budget": the budget follows "on", not GPUs.
var rentalOnBudget = regexp.MustCompile(`\bon (?:a |our |the )?(\$|\d)`)

// rentalOf is "cost of", "price of": the GPUs follow, not a dataset.
var rentalOf = regexp.MustCompile(`\b(cost|price|rent|rental)\s+of\b`)

// rentalAsked are the words that ask a price.
// howMuchNotPrice is low without the 얼마나 that asks how much of
// something other than money ("학습속도 얼마나 차이나요", "얼마나 빨라"); one
// said with a price verb ("얼마나 들어", "얼마나 나와") stays.
func howMuchNotPrice(low string) string {
	for _, v := range []string{"얼마나 들", "얼마나 나와", "얼마나 나올", "얼마나 비싸", "얼마나 싸", "얼마나 아낄", "얼마나 절약"} {
		if strings.Contains(low, v) {
			return low
		}
	}
	return strings.ReplaceAll(low, "얼마나", "")
}

var rentalAsked = []string{"how much", "cost", "price", "rent", "going for", "얼마", "비용", "요금", "가격", "빌리", "렌탈", "대여"}

// rentalCountAsked asks how many GPUs a budget keeps ("월 천만원인데 h100
// 몇장까지", "how many h100s can we keep").
var rentalCountAsked = regexp.MustCompile(`몇\s*(?:장|대|개)|how many`)

// rentalHoursAsked asks the hours a budget buys ("how many a100 hours",
// "몇 시간", "gpu-hours").
var rentalHoursAsked = regexp.MustCompile(`how many\b([^?.!]{0,30}?)\b(?:hours|days)|몇\s*시간|며칠|몇\s*일|gpu[- ]?hours|gpu\s*시간`)

// ReadRental reads a request that names GPUs and asks their price, with no
// model: the hardware the plan language reads, and the time said. It
// reports false when a model is named, no price is asked or no GPU is.
func ReadRental(env Env, text string) (Rental, bool) {
	low := strings.ToLower(reqNormalize(text))
	asked, hoursAsked := false, false
	for _, w := range rentalAsked {
		asked = asked || strings.Contains(howMuchNotPrice(low), w)
	}
	hoursAsked = rentalHoursAsked.MatchString(low) || rentalCountAsked.MatchString(low) // with a budget: what it keeps running
	buy := false
	for _, w := range rentalBuyWords {
		buy = buy || strings.Contains(low, w)
	}
	if !asked && !hoursAsked && !buy && !(strings.Contains(low, "싸") || strings.Contains(low, "cheap")) {
		return Rental{}, false
	}
	cat := env.Catalog
	if cat == nil {
		cat = planner.DefaultCatalog()
	}
	hours, words, rest := rentalTime(rentalCounts(rentalHoursAsked.ReplaceAllString(low, " $1 "))) // the GPU said between stays
	if namesModel(cat, reqTokenize(low), nil) {
		return Rental{}, false // a model: a plan's cost, not a rental
	}
	rest = rentalOf.ReplaceAllString(rest, "$1")       // "cost of 4x a100": the GPUs, not a dataset
	rest = rentalOnBudget.ReplaceAllString(rest, "$1") // "on a $20k budget": money, not hardware
	rest = strings.NewReplacer("going for", " ", "these days", " ", "nowadays", " ", "compared to", " vs ", "compared with", " vs ").Replace(rest)
	// the hardware, read by the plan language with a stand-in job
	env.noVariant = true
	r, err := Read(env, "bert-base inference "+rest)
	if err != nil && hours > 0 && rentWord(low) {
		// GPUs rented for a time said, with what they are for ("llama
		// 70b 풀파인튜닝 하려고 h200 8장 2주 빌리면 얼마야"): the job
		// named is the purpose, the price is the rent's
		if r2, err2 := Read(env, rest); err2 == nil && !r2.StandIn {
			r, err = r2, nil
		}
	}
	if err == nil && len(r.Request.Targets) == 0 && r.Ask == AskWhichServer && len(env.Servers) > 0 {
		// "우리 서버 중에 어디서 돌리는게 젤 싸요?" with no job: the servers'
		// own prices, side by side
		rt := Rental{Hardware: env.Servers[:min(4, len(env.Servers))], Hours: hours, Words: words, InWon: r.InWon, TeamAsked: true}
		return rt, true
	}
	if err != nil || len(r.Request.Targets) == 0 || len(r.Request.Targets) > 4 {
		return Rental{}, false
	}
	if !asked && !hoursAsked && !buy {
		return Rental{}, false // "cheap" said of GPUs named: a plan's question
	}
	rt := Rental{Hardware: r.Request.Targets, Hours: hours, Words: words, Buy: buy, InWon: r.InWon}
	withTeamServers(&rt, env, low)
	if r.Budget > 0 {
		rt.BudgetUSD, rt.reading = r.Budget, r
	} else if !asked && !buy {
		return Rental{}, false // hours asked, but of no budget
	}
	return rt, true
}

// rentalTime finds the time a rental is said for in low and returns its
// hours, the words and low without them.
func rentalTime(low string) (float64, string, string) {
	for _, d := range rentalDurations {
		m := d.re.FindStringSubmatchIndex(low)
		if m == nil {
			continue
		}
		words := low[m[0]:m[1]]
		rest := low[:m[0]] + " " + low[m[1]:]
		if d.hours == nil {
			unit := strings.TrimSpace(low[m[2]:m[3]])
			h := map[string]float64{"hour": 1, "day": 24, "week": 168, "month": 730}[unit]
			if h == 0 {
				h = koRentalWords[unit]
			}
			return h, words, rest
		}
		n, err := strconv.ParseFloat(low[m[2]:m[3]], 64)
		if err != nil || n <= 0 {
			continue
		}
		return d.hours(n), words, rest
	}
	return 0, "", low
}

// namesModel reports whether a word of toks names a catalogue model: a
// word of four letters or more that is no GPU, number or team server.
func namesModel(cat *planner.Catalog, toks []reqToken, servers map[string]bool) bool {
	for _, t := range toks {
		if len(t.w) <= 3 || reqStartsNumber(t.w) || servers[t.w] {
			continue
		}
		if _, _, err := cat.Model(t.w); err != nil {
			continue
		}
		if _, _, err := cat.GPU(t.w); err != nil {
			return true
		}
	}
	return false
}

// rentWord reports whether low says renting ("빌리면", "대여", "rent").
func rentWord(low string) bool {
	for _, w := range []string{"빌리", "빌려", "대여", "렌탈", "rent"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}
