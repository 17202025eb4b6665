package commands

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/planner"
)

// GPUs asked about for their price with no job are answered with their
// hours at the catalogue's price; a team server at the team's price; no
// time said, an hour's, a day's, a week's and a month's. A request that
// names a model is a plan, whatever it asks.
func TestRentalWithoutAModel(t *testing.T) {
	h100, _, err := planner.DefaultCatalog().GPU("h100")
	if err != nil {
		t.Fatal(err)
	}
	week := planner.FormatUSD(8 * 168 * h100.PriceUSD)
	for text, want := range map[string]string{
		"how much for 8 h100s for a week": week,
		"h100 8장 일주일 빌리면 얼마야":             week,
		"cost of 8x h100 for 7 days":      week,
		"a100 한대 시간당 얼마야? 72시간 쓰면 총 얼마":   "72",
		"h100 가격 얼마야":                     "$" + strings.TrimPrefix(planner.FormatUSD(h100.PriceUSD), "$"),
		// probe 11: the 100 of h100 is no hundred hours; several GPUs side by side
		"H100 시간당 얼마야?":                            planner.FormatUSD(h100.PriceUSD),
		"what's l40s rental price vs a100?":        "L40S",
		"h100 pcie vs sxm price?":                  "H100 PCIe",
		"what's an a100 80gb going for these days": "A100",
		// a time's count said as a word
		"how much to rent 8 h100s for one week":  week,
		"a couple of weeks on 4 h100s, how much": planner.FormatUSD(4 * 336 * h100.PriceUSD),
		"h100 8장 이주일 빌리면 얼마":                     planner.FormatUSD(8 * 336 * h100.PriceUSD),
		"h100 보름 빌리면 얼마":                         planner.FormatUSD(360 * h100.PriceUSD),
	} {
		r, err := dispatch(t, "plan "+text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if all := r.Summary + " " + sectionsText(r); !strings.Contains(all, want) {
			t.Errorf("%q: %q lacks %q", text, all, want)
		}
	}
	if r := dispatchIn(t, i18n.KO, "plan h100 8장 일주일 빌리면 얼마야"); !strings.Contains(r.Summary, "동안") {
		t.Errorf("asked in Korean, answered %q", r.Summary)
	}
	if r, err := dispatch(t, "plan h100 한 장 한달 빌리면 얼마에요? 원화로"); err != nil || !strings.Contains(r.Summary, "≈ ₩") {
		t.Errorf("asked in won: %v, %q", err, r.Summary)
	}
	r, err := dispatch(t, "plan how much to lora llama3 8b on 1B tokens on 8 h100s")
	if err != nil || r.Data == nil {
		t.Errorf("a model named is a plan: %v, %+v", err, r)
	}
}

// A budget said with GPUs and no model asks the hours it buys: its
// GPU-hours at the GPU's price, the time the GPUs said run on it, and with
// a time said ("한달 예산"), how many GPUs it keeps running that long.
func TestBudgetHoursWithoutAModel(t *testing.T) {
	cat := planner.DefaultCatalog()
	h100, _, _ := cat.GPU("h100")
	a100, _, _ := cat.GPU("a100")
	count := func(v float64) string { return i18n.For(i18n.EN).Count(math.Floor(v)) }
	won := 10_000_000 / 1422.0 // the default rate the note names
	for text, want := range map[string][]string{
		"budget 3000 dollars, how many a100 hours?":          {count(3000 / a100.PriceUSD), "GPU-hours"},
		"with a $5000 budget how many H100 hours can we get": {count(5000 / h100.PriceUSD)},
		"한달 예산 1000만원으로 H100 몇 시간":                           {count(won / h100.PriceUSD), "24시간 내내", "GPU " + count(won/h100.PriceUSD/730) + "장"},
		"h100 8장 예산 500만원이면 몇시간 쓸 수 있어?":                     {"GPU 8장 전부"},
	} {
		r, err := dispatch(t, "plan "+text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		all := r.Summary + " " + sectionsText(r)
		for _, w := range want {
			if !strings.Contains(all, w) {
				t.Errorf("%q: %q lacks %q", text, all, w)
			}
		}
		if strings.Contains(all, "bert") {
			t.Errorf("%q: the stand-in job shows: %q", text, all)
		}
	}
	if r := dispatchIn(t, i18n.KO, "plan 한달 예산 1000만원으로 H100 몇 시간"); !strings.Contains(r.Summary, "24시간 내내") {
		t.Errorf("asked in Korean, answered %q", r.Summary)
	}
	if _, err := dispatch(t, "plan how many hours is an h100"); err == nil {
		t.Error("hours asked of no budget and no job: want the plan language's question back")
	}
}

// Buying asked ("구매가 기준으로", "should we buy … or rent?") is answered
// with the rent and what it sets against a purchase quote: the catalogue
// has no purchase prices, and the answer says so first.
func TestBuyingAskedIsSetAgainstTheRent(t *testing.T) {
	h100, _, _ := planner.DefaultCatalog().GPU("h100")
	for text, want := range map[string][]string{
		"should we buy 8 H100s or rent? we train about 10 hours a day": {"No purchase prices in the catalogue", i18n.For(i18n.EN).Count(math.Round(100_000/(8*h100.PriceUSD))) + " hours of renting"},
		"h200 가격 얼마예요? 구매가 기준으로요":                                      {"구매 가격은 카탈로그에 없어요", "구매 견적 $100,000마다"},
		"예산 3천만원으로 h100 사는게 나아 아니면 a100 여러장 사는게 나아?":                   {"구매 가격은 카탈로그에 없어요", "A100"},
	} {
		r, err := dispatch(t, "plan "+text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		all := r.Summary + " " + sectionsText(r)
		for _, s := range r.Sections {
			all += " " + strings.Join(s.Bullets, " ")
		}
		for _, w := range want {
			if !strings.Contains(all, w) {
				t.Errorf("%q: %q lacks %q", text, all, w)
			}
		}
	}
}

// sectionsText is a reply's section texts and fields, joined.
func sectionsText(r *Reply) string {
	var b strings.Builder
	for _, s := range r.Sections {
		b.WriteString(s.Text + " ")
		for _, f := range s.Fields {
			b.WriteString(f.Label + " " + f.Value + " ")
		}
	}
	return b.String()
}

// "plan server-h 비었어?": a question about the reservations sent as a plan
// is answered as the status; a booking sent as a plan is not made, and the
// answer says what it reads as.
func TestPlanOfAReservationQuestion(t *testing.T) {
	s, _ := newReservations(t)
	r, err := do(t, s, "U1", "plan server-h 비었어?")
	if err != nil || !strings.Contains(r.Summary, "4/4") {
		t.Errorf("status asked through plan: %v, %+v", err, r)
	}
	_, err = do(t, s, "U1", "plan server-a 2장 내일 오전 9시부터 3시간 예약")
	if err == nil || !strings.Contains(err.Error(), "reserve 2 on server-a") {
		t.Errorf("a booking through plan: %v", err)
	}
	if r, _ := do(t, s, "U1", "status"); strings.Contains(sectionsText(r), "U1") {
		t.Errorf("the booking sent through plan was made: %s", sectionsText(r))
	}
}

// A plan's request (PlanData.Request) is what a follow-up is read with
// (Request.Earlier): words that are no plan of their own plan the earlier
// request with them, and say so; a price asked on its own stays a rental;
// without an earlier request the words are the usual question back.
func TestFollowUpPlansWithTheEarlierRequest(t *testing.T) {
	s := New(Deps{})
	ctx := context.Background()
	first, err := s.Dispatch(ctx, Request{User: "U1", Text: "plan llama 8b lora 50k samples on a 4090 how long?"})
	if err != nil {
		t.Fatal(err)
	}
	earlier := first.Data.(*PlanData).Request
	if !strings.Contains(earlier, "llama-3.1-8b · lora") {
		t.Fatalf("PlanData.Request = %q", earlier)
	}
	r, err := s.Dispatch(ctx, Request{User: "U1", Text: "plan what about on 4x h100?", Earlier: earlier})
	if err != nil {
		t.Fatalf("follow-up: %v", err)
	}
	var bullets []string
	for _, sc := range r.Sections {
		bullets = append(bullets, sc.Bullets...)
	}
	if !strings.Contains(r.Data.(*PlanData).ReadAs, "compare 1x rtx-4090, 4x h100-sxm5-80gb") || !strings.Contains(strings.Join(bullets, " "), "follow-up to this conversation's earlier request") {
		t.Errorf("follow-up read as %q, notes %q", r.Data.(*PlanData).ReadAs, bullets)
	}
	if r, err := s.Dispatch(ctx, Request{User: "U1", Text: "plan h100 시간당 얼마야?", Earlier: earlier}); err != nil || !strings.Contains(r.Summary, "$") || r.Data != nil {
		t.Errorf("a price asked on its own: %v, %+v", err, r)
	}
	if _, err := s.Dispatch(ctx, Request{User: "U1", Text: "plan what about on 4x h100?"}); err == nil {
		t.Error("no earlier request: want the question back")
	}
}

// The cloud's price set against the team's own servers ("클라우드에서 H100
// 빌리는거랑 우리 서버 쓰는거 비용 비교") adds the servers with that GPU: at
// the team's price when the servers file gives one, with the ratio to the
// cloud's; with none, it says the figures are the cloud's rate.
func TestCloudPriceAgainstTheTeamsServers(t *testing.T) {
	cat := planner.DefaultCatalog()
	h200, _, err := cat.GPU("h200")
	if err != nil {
		t.Fatal(err)
	}
	r, err := dispatch(t, "plan 클라우드에서 H200 빌리는거랑 우리 서버 쓰는거 비용 비교해주실 수 있나요?")
	if err != nil || !strings.Contains(r.Summary, "server-h는 서버 파일에 가격이 없어서") || !strings.Contains(r.Summary, planner.FormatUSD(h200.PriceUSD)) {
		t.Errorf("no team price: %v %q", err, r.Summary)
	}
	inv := inventory.Default(cat)
	inv.Servers[0].PriceUSD = 1.5
	r, err = New(Deps{Inventory: inv}).Dispatch(context.Background(), Request{User: "U1", Text: "plan how much is renting an h200 compared to our servers?"})
	want := fmt.Sprintf("server-h costs $1.50 per GPU-hour at the team's price, %.1fx less than the cloud's %s", h200.PriceUSD/1.5, planner.FormatUSD(h200.PriceUSD))
	if err != nil || !strings.Contains(r.Summary, want) {
		t.Errorf("team price: %v %q, want %q", err, r.Summary, want)
	}
	if r, err := dispatch(t, "plan h100 8장 일주일 빌리면 얼마야"); err != nil || strings.Contains(r.Summary, "server-") {
		t.Errorf("no team asked: %v %q", err, r.Summary)
	}
	// a server named, with the cloud set against it (probe 37): both
	r, err = New(Deps{Inventory: inv}).Dispatch(context.Background(), Request{User: "U1", Text: "plan 클라우드에서 H200 빌리는거랑 우리 server-h 쓰는거 비용 비교 좀"})
	if err != nil || !strings.Contains(r.Summary, "server-h는 팀 가격으로 GPU-시간당 $1.50") || len(r.Sections) < 2 {
		t.Errorf("a server named against the cloud: %v %q", err, r.Summary)
	}
}

// "Which of our servers is cheapest" with no job sets the servers' own
// hourly prices side by side, and names those with no price set.
func TestTeamServersByTheHour(t *testing.T) {
	for _, text := range []string{"plan 우리 서버 중에 어디서 돌리는게 젤 싸요?", "plan which of our servers is cheapest per hour?"} {
		r, err := dispatch(t, text)
		if err != nil || !strings.Contains(r.Summary, "server-h: 4×") || !strings.Contains(r.Summary, "server-v: 4×") || !strings.Contains(r.Summary, "server-h, server-a, server-v") {
			t.Errorf("%q: %v %q", text, err, r.Summary)
		}
	}
}
