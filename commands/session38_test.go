package commands

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/store"
)

// "release <server> all" (오크 예약한거 다 반납) releases every one of the
// asker's bookings on that server without asking which, and none of
// theirs elsewhere or anyone else's.
func TestReleaseAllOnOneServer(t *testing.T) {
	s, _ := newReservations(t)
	now := mustDo(t, s, "U1", "reserve 1 on server-h for 2h").Data.(store.Reservation)
	later := mustDo(t, s, "U1", "reserve 2 on server-h from tomorrow 9:00 for 4h").Data.(store.Reservation)
	other := mustDo(t, s, "U2", "reserve 1 on server-h for 2h").Data.(store.Reservation)
	elsewhere := mustDo(t, s, "U1", "reserve 1 on server-a for 2h").Data.(store.Reservation)
	r := mustDo(t, s, "U1", "release server-h all")
	if r.Refused != "" {
		t.Fatalf("asked instead of releasing: %q", r.Summary)
	}
	got := fmt.Sprint(r.Data)
	if !strings.Contains(got, now.ID) || !strings.Contains(got, later.ID) || strings.Contains(got, other.ID) || strings.Contains(got, elsewhere.ID) {
		t.Errorf("released %v; want %s and %s only", got, now.ID, later.ID)
	}
	if m := mustDo(t, s, "U1", "mine"); !strings.Contains(fmt.Sprint(m.Data), elsewhere.ID) {
		t.Errorf("the booking on another server went too: %v", m.Data)
	}
	if _, err := do(t, s, "U1", "release nowhere all"); err == nil || !strings.Contains(err.Error(), "nowhere") {
		t.Errorf("an unknown server with all: %v", err)
	}
}

// A booking is shortened, not extended, when asked to end earlier
// ("노바 오늘 밤 예약 1시간 줄여줘" had moved its end an hour later, probe
// 41), and the hour it gives back is free to book.
func TestShortenABooking(t *testing.T) {
	s, _ := newReservations(t)
	rv := mustDo(t, s, "U1", "reserve 2 on server-h for 4h").Data.(store.Reservation)
	r := mustDo(t, s, "U1", "server-h 예약 1시간 줄여줘")
	got, ok := r.Data.(store.Reservation)
	if !ok || !got.End.Equal(rv.End.Add(-time.Hour)) {
		t.Fatalf("shortened by an hour: %q %+v, want end %v", r.Summary, r.Data, rv.End.Add(-time.Hour))
	}
	if !strings.Contains(r.Title, "단축") {
		t.Errorf("the reply should say it was shortened: %q", r.Title)
	}
	if _, err := do(t, s, "U2", fmt.Sprintf("reserve 4 on server-h from %s for 1h", got.End.In(got.End.Location()).Format("15:04"))); err != nil {
		t.Errorf("the hour given back is not free: %v", err)
	}
	if _, err := do(t, s, "U1", "shorten server-h 5h"); err == nil || !strings.Contains(err.Error(), "release") {
		t.Errorf("shortened past now: %v, want a refusal that says release", err)
	}
	if _, err := do(t, s, "U1", "shorten "+rv.ID+" until tomorrow 9:00"); err == nil || !strings.Contains(err.Error(), "longer") {
		t.Errorf("a later end said to shorten: %v", err)
	}
	if _, err := do(t, s, "U1", "extend "+rv.ID+" until 11:00"); err == nil || !strings.Contains(err.Error(), "shorten") {
		t.Errorf("an earlier end said to extend should point to shorten: %v", err)
	}
}

// Two GPUs set side by side with a job's speed asked and no model are
// answered with a reference job's speed-up before the spec table (probe
// 41 got the table alone); a difference asked with no job stays the table.
func TestSpeedOfTwoGPUsWithNoModel(t *testing.T) {
	s, _ := newReservations(t)
	r := mustDo(t, s, "U1", "에이백 80기가랑 에이치백 비교하면 파인튜닝 속도 얼마나 차이나?")
	if !strings.Contains(r.Summary, "LoRA") || !strings.Contains(r.Summary, "H100 SXM5 80GB가 약") {
		t.Errorf("a fine-tune's speed-up: %q", r.Summary)
	}
	if r := mustDo(t, s, "U1", "h100 vs h200 차이가 뭐야"); strings.Contains(r.Summary, "Llama 3.1 8B") {
		t.Errorf("no job asked: %q", r.Summary)
	}
	if got := speedJob("4090 vs 3090 serving speed?"); got != "inference" {
		t.Errorf("serving speed: %q", got)
	}
}

// A comparison of GPUs for serving a number of users puts each on the
// fewest that hold every user's KV cache, not the fewest that hold the
// weights (probe 41: one H100 held 108 of 200).
func TestCompareServingHoldsTheUsers(t *testing.T) {
	r, err := dispatch(t, "plan compare H100 vs A100 for serving llama 8B to 200 users")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Summary, "2× H100") || !strings.Contains(r.Summary, "2× A100") {
		t.Errorf("200 users: %q", r.Summary)
	}
}

// "Where should I run it?" with no model is answered with what is free
// and that the model picks the server, not "which model?" (probe 41).
func TestWhereToRunWithNoModel(t *testing.T) {
	s, _ := newReservations(t)
	r := mustDo(t, s, "U1", "오늘 좀 큰 모델 돌려야 되는데 어디 쓰면 돼?")
	if !strings.Contains(r.Summary, "모델(과 작업)을 알려") || len(r.Sections) == 0 {
		t.Errorf("where to run: %q", r.Summary)
	}
	if _, err := do(t, s, "U1", "오늘 좀 큰 모델 돌려야 돼"); err == nil {
		t.Errorf("no where asked: the refusal for a model should stand")
	}
}

// "방금 잡은 예약 한 시간 줄여줘" shortens the booking made last; with
// several held and none named, the command offered carries the amount
// asked (probe 42 offered `extend … 1h` for "by 2 hours" and said extend
// for a shortening).
func TestShortenTheLastAndOfferTheAmount(t *testing.T) {
	s, clock := newReservations(t)
	first := mustDo(t, s, "U1", "reserve 1 on server-h for 4h").Data.(store.Reservation)
	clock.Advance(time.Minute)
	last := mustDo(t, s, "U1", "reserve 1 on server-a for 4h").Data.(store.Reservation)
	r := mustDo(t, s, "U1", "방금 잡은 예약 한 시간 줄여줘")
	if got, ok := r.Data.(store.Reservation); !ok || got.ID != last.ID || !got.End.Equal(last.End.Add(-time.Hour)) {
		t.Fatalf("the last booking shortened: %q %+v", r.Summary, r.Data)
	}
	_, err := do(t, s, "U1", "extend my booking by 2 hours")
	if err == nil || !strings.Contains(err.Error(), "extend "+first.ID+" 2h") {
		t.Errorf("which one, with the amount asked: %v", err)
	}
	_, err = do(t, s, "U1", "shorten 30m")
	if err == nil || !strings.Contains(err.Error(), "shorten ") || strings.Contains(err.Error(), "`extend") {
		t.Errorf("which one to shorten: %v", err)
	}
}

// A day of cloud GPUs with no model is their price, not a measured run of
// a stand-in model (probe 42 answered with a BERT job that "took" a day).
func TestCloudDayIsARentalPrice(t *testing.T) {
	s, _ := newReservations(t)
	r := mustDo(t, s, "U1", "클라우드에서 H100 8장 하루 빌리면 얼마 정도 나와요? 원화로")
	if !strings.Contains(r.Summary, "24.0시간") || !strings.Contains(r.Summary, "₩") || strings.Contains(r.Title, "bert") {
		t.Errorf("a day of 8 H100s: %q %q", r.Title, r.Summary)
	}
}

// "Would <server> handle 20 req/s, and how many GPUs should we set
// aside?" is answered with the fewest of the server's GPUs that carry the
// load and whether it has them (probe 42 read a comparison).
func TestLoadOnATeamServer(t *testing.T) {
	s, _ := newReservations(t)
	r := mustDo(t, s, "U1", "serving llama 3 8b at 10 req/s on server-h, how many GPUs should we set aside?")
	if !strings.Contains(r.Summary, "server-h can carry it") {
		t.Errorf("carried: %q", r.Summary)
	}
	r = mustDo(t, s, "U1", "serving llama 3 70b at 200 req/s on server-h, how many GPUs do we need?")
	if !strings.Contains(r.Summary, "are not enough") {
		t.Errorf("not carried: %q", r.Summary)
	}
}

// A release naming a server the team does not have releases nothing
// (it had released every booking of the asker's).
func TestReleaseOfAnUnknownServerKeepsTheBookings(t *testing.T) {
	s, _ := newReservations(t)
	rv := mustDo(t, s, "U1", "reserve 1 on server-h for 2h").Data.(store.Reservation)
	if _, err := do(t, s, "U1", "오크 예약한거 다 반납할게"); err == nil || !strings.Contains(err.Error(), "오크") {
		t.Errorf("an unknown server: %v", err)
	}
	if m := mustDo(t, s, "U1", "mine"); !strings.Contains(fmt.Sprint(m.Data), rv.ID) {
		t.Errorf("the booking was released: %v", m.Data)
	}
}

// "그 5시간짜리 예약 취소" releases the booking of that length only, even
// when both are in use (probe 44 released both).
func TestReleaseTheBookingOfALength(t *testing.T) {
	s, _ := newReservations(t)
	five := mustDo(t, s, "U1", "reserve 1 on server-h for 5h").Data.(store.Reservation)
	two := mustDo(t, s, "U1", "reserve 1 on server-h for 2h").Data.(store.Reservation)
	r := mustDo(t, s, "U1", "server-h 5시간짜리 예약 취소할게요")
	got, ok := r.Data.(store.Reservation)
	if !ok || got.ID != five.ID {
		t.Fatalf("released %+v, want %s", r.Data, five.ID)
	}
	if m := mustDo(t, s, "U1", "mine"); !strings.Contains(fmt.Sprint(m.Data), two.ID) {
		t.Errorf("the 2-hour booking went too: %v", m.Data)
	}
}

// "스타 예약 2시간 연장해줘" with one booking running and one ahead extends
// the running one (probe 45 asked which).
func TestExtendTheRunningOne(t *testing.T) {
	s, _ := newReservations(t)
	now := mustDo(t, s, "U1", "reserve 1 on server-h for 2h").Data.(store.Reservation)
	mustDo(t, s, "U1", "reserve 1 on server-h from tomorrow 9:00 for 2h")
	r := mustDo(t, s, "U1", "server-h 예약 2시간 연장해줘")
	if got, ok := r.Data.(store.Reservation); !ok || got.ID != now.ID || !got.End.Equal(now.End.Add(2*time.Hour)) {
		t.Errorf("extended %+v, want %s by 2h", r.Data, now.ID)
	}
}

// "who's on server-h tomorrow" counts tomorrow's working day, not the
// minute at 9:00 (probe 45 missed a booking of the afternoon).
func TestStatusOfADay(t *testing.T) {
	s, _ := newReservations(t)
	mustDo(t, s, "U2", "reserve 2 on server-h from tomorrow 13:00 for 2h")
	r := mustDo(t, s, "U1", "who's on server-h tomorrow")
	if !strings.Contains(r.Summary, "2 of 4 GPUs free") || !strings.Contains(r.Summary, "from tomorrow 09:00 to tomorrow 18:00") {
		t.Errorf("tomorrow: %q", r.Summary)
	}
}

// A booking past the server's cap offers the longest it allows, from the
// same start (probe 46 pointed to the help page).
func TestOverTheCapOffersTheMost(t *testing.T) {
	s, _ := newReservations(t)
	_, err := do(t, s, "U1", "reserve 2 on server-h from tomorrow 9:00 for 100h")
	if err == nil || !strings.Contains(err.Error(), "reserve 2 on server-h from 2026-11-22 09:00 for 72h") {
		t.Fatalf("over the cap: %v", err)
	}
	if _, err := do(t, s, "U1", "reserve 2 on server-h from 2026-11-22 09:00 for 72h"); err != nil {
		t.Errorf("the offer does not book: %v", err)
	}
}

// Which server suits a serving load: the least of the team's GPUs that
// carry it, not the fastest server (probe 46).
func TestWhichServerForALoad(t *testing.T) {
	s, _ := newReservations(t)
	r := mustDo(t, s, "U1", "초당 요청 20개 들어오는 챗봇 8B 모델로 서빙할 건데 어느 서버가 제일 적당해?")
	if !strings.Contains(r.Summary, "부하를 감당해요") || strings.Contains(r.Summary, "가장 빨라요") {
		t.Errorf("which server for 20 req/s: %q", r.Summary)
	}
}
