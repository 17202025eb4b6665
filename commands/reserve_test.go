package commands

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/planner"
	"github.com/gpuplan/gpuplan/store"
	"github.com/gpuplan/gpuplan/store/storetest"
)

const testServers = `
timezone: Asia/Seoul
admins: [U0ADMIN]
max_duration: 72h
servers:
  - name: server-h
    gpu: h200
    gpus: 4
  - name: server-a
    gpu: a100
    gpus: 4
`

// newReservations is a command set on an embedded store with a clock the
// test moves (Saturday 2026-11-21 10:00 KST).
func newReservations(t *testing.T) (*Set, *storetest.Clock) {
	t.Helper()
	return newReservationsOn(t, testServers)
}

// newReservationsOn is newReservations with the servers file given.
func newReservationsOn(t *testing.T, servers string) (*Set, *storetest.Clock) {
	t.Helper()
	seoul, _ := time.LoadLocation("Asia/Seoul")
	clock := storetest.NewClock(time.Date(2026, 11, 21, 10, 0, 0, 0, seoul))
	st, err := store.OpenEmbedded(filepath.Join(t.TempDir(), "r.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cat := planner.DefaultCatalog()
	inv, err := inventory.Parse(cat, []byte(servers), "servers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return New(Deps{Catalog: cat, Inventory: inv, Reservations: st, Watch: st}), clock
}

func do(t *testing.T, s *Set, user, text string) (*Reply, error) {
	t.Helper()
	return s.Dispatch(context.Background(), Request{User: user, Channel: "C1", Text: text})
}

func mustDo(t *testing.T, s *Set, user, text string) *Reply {
	t.Helper()
	r, err := do(t, s, user, text)
	if err != nil {
		t.Fatalf("%s: %q: %v", user, text, err)
	}
	return r
}

func TestReserveAnnouncesWithButtons(t *testing.T) {
	s, _ := newReservations(t)
	r := mustDo(t, s, "U0001", `reserve 2 on server-h for 4h note "bert sweep"`)
	rv := r.Data.(store.Reservation)
	if !r.InChannel || r.Announces != rv.ID || rv.Server != "server-h" || len(rv.GPUs) != 2 || rv.Note != "bert sweep" {
		t.Fatalf("reply %+v, reservation %+v", r, rv)
	}
	if !strings.Contains(r.Summary, "<@U0001> reserved 2× H200") || !strings.Contains(r.Summary, "today 14:00") {
		t.Errorf("summary %q", r.Summary)
	}
	var labels []string
	for _, a := range r.Actions {
		labels = append(labels, a.Label)
		if a.ID != ActionRun || a.RequestID == "" || a.Command == "" {
			t.Errorf("button %+v must run a command with a request id", a)
		}
	}
	if strings.Join(labels, ",") != "Extend 1h,Release" {
		t.Errorf("buttons %v", labels)
	}
	st := mustDo(t, s, "U0002", "status server-h")
	if !strings.Contains(st.Summary, "2 of 4 GPUs free") {
		t.Errorf("status: %q", st.Summary)
	}
	if mine := mustDo(t, s, "U0001", "mine"); !strings.Contains(mine.Summary, "1 reservation") {
		t.Errorf("mine: %q", mine.Summary)
	}
}

func TestConflictOffersTheEarliestSlotAndBookingAppliesOnce(t *testing.T) {
	s, _ := newReservations(t)
	mustDo(t, s, "U0001", "reserve 3 on server-h for 4h")
	r := mustDo(t, s, "U0002", "reserve 2 on server-h for 2h")
	if r.InChannel || !strings.Contains(r.Title, "Not free") {
		t.Fatalf("want a private conflict answer, got %+v", r)
	}
	text := ""
	for _, sec := range r.Sections {
		text += strings.Join(sec.Bullets, " ") + " " + sec.Text
	}
	if !strings.Contains(text, "<@U0001>") || !strings.Contains(text, "today 14:00") {
		t.Errorf("conflict should name the holder and until when: %s", text)
	}
	if len(r.Actions) != 1 || r.Actions[0].Label != "Book that slot" {
		t.Fatalf("want a Book button, got %+v", r.Actions)
	}
	book := r.Actions[0]
	req := Request{User: "U0002", Channel: "C1", Text: book.Command, ID: book.RequestID}
	first, err := s.Dispatch(context.Background(), req)
	if err != nil {
		t.Fatalf("booking %q: %v", book.Command, err)
	}
	second, err := s.Dispatch(context.Background(), req) // a double click
	if err != nil {
		t.Fatalf("second click: %v", err)
	}
	if first.Data.(store.Reservation).ID != second.Data.(store.Reservation).ID {
		t.Error("a double click booked twice")
	}
}

func TestOnlyTheOwnerOrAnAdminWithForce(t *testing.T) {
	s, _ := newReservations(t)
	rv := mustDo(t, s, "U0001", "reserve 1 on server-a for 2h").Data.(store.Reservation)
	for _, tc := range []struct {
		user, text, want string
	}{
		{"U0002", "release " + rv.ID, "someone else's"},
		{"U0002", "release " + rv.ID + " --force", "admins"},
		{"U0002", "extend " + rv.ID + " 1h", "someone else's"},
	} {
		_, err := do(t, s, tc.user, tc.text)
		if ue := Explain(err); ue == nil || KindOf(err) == Internal || !strings.Contains(ue.Msg, tc.want) {
			t.Errorf("%s %q: %v, want a user error about %q", tc.user, tc.text, err, tc.want)
		}
	}
	r := mustDo(t, s, "U0ADMIN", "release "+rv.ID+" --force")
	if !strings.Contains(r.Summary, "--force") {
		t.Errorf("a forced release must say so (the owner is told): %q", r.Summary)
	}
	if _, err := do(t, s, "U0001", "release "+rv.ID); err == nil {
		t.Error("releasing an ended reservation must be refused")
	}
}

func TestExtendReleaseAllAndWait(t *testing.T) {
	s, clock := newReservations(t)
	a := mustDo(t, s, "U0001", "reserve gpus 0-1 on server-h for 2h").Data.(store.Reservation)
	mustDo(t, s, "U0002", "reserve gpus 0-1 on server-h from today 13:00 for 2h")
	if _, err := do(t, s, "U0001", "extend "+a.ID+" 2h"); err == nil || !strings.Contains(err.Error(), "booked right after") {
		t.Errorf("extend into a booked slot: %v", err)
	}
	if r := mustDo(t, s, "U0001", "extend "+a.ID+" 30m"); r.Data.(store.Reservation).End.Sub(a.End) != 30*time.Minute {
		t.Errorf("extend 30m: %+v", r.Data)
	}
	mustDo(t, s, "U0001", "reserve 1 on server-a for 1h")
	r := mustDo(t, s, "U0001", "release all")
	if !strings.Contains(r.Summary, "released 2") {
		t.Errorf("release all: %q", r.Summary)
	}
	if w := mustDo(t, s, "U0003", "wait 4 on server-h for 8h"); !strings.Contains(w.Summary, "are free now") || w.Data != nil {
		t.Errorf("wait for GPUs free now: %q %v, want them offered and no place in line", w.Summary, w.Data)
	}
	mustDo(t, s, "U0004", "reserve 4 on server-h for 1h")
	w := mustDo(t, s, "U0003", "wait 4 on server-h for 8h")
	if !strings.Contains(w.Summary, "number 1") {
		t.Errorf("wait: %q", w.Summary)
	}
	clock.Advance(3 * time.Hour) // U0002's booking is active now, and ends at 15:00
	if st := mustDo(t, s, "U0001", "status server-h"); !strings.Contains(st.Summary, "2 of 4 GPUs free") {
		t.Errorf("status after time passed: %q", st.Summary)
	}
}

func TestReservationMistakes(t *testing.T) {
	s, _ := newReservations(t)
	for _, tc := range []struct{ text, want string }{
		{"reserve 2 on server-x for 2h", "server-x"},
		{"reserve 2 for 2h", "which server"},
		{"reserve on server-h for 2h", "how many"},
		{"reserve 2 on server-h", "how long"},
		{"reserve 9 on server-h for 2h", "4"},
		{"reserve 2 on server-h for 200h", "72h"},
		{"extend nope", "extend which"},
		{"release", "release what"},
		{"wait 9 on server-h", "only 4"},
	} {
		_, err := do(t, s, "U0001", tc.text)
		if ue := Explain(err); ue == nil || !strings.Contains(ue.Error(), tc.want) {
			t.Errorf("%q: %v, want a user error mentioning %q", tc.text, err, tc.want)
		}
	}
}

// A store that is down answers in user words, and nothing is claimed.
type downStore struct{ store.Store }

func (downStore) Now(context.Context) (time.Time, error) {
	return time.Time{}, errors.Join(store.ErrUnavailable, errors.New("dial tcp: connection refused"))
}

func TestStoreDownIsSaidPlainly(t *testing.T) {
	cat := planner.DefaultCatalog()
	s := New(Deps{Catalog: cat, Reservations: downStore{}})
	_, err := do(t, s, "U0001", "reserve 2 on server-h for 2h")
	if ue := Explain(err); ue == nil || KindOf(err) != Unavailable || !strings.Contains(ue.Msg, "not answering") || strings.Contains(ue.Msg, "dial tcp") {
		t.Errorf("store down: %v", err)
	}
	s = New(Deps{Catalog: cat})
	if _, err := do(t, s, "U0001", "status"); err == nil || !strings.Contains(err.Error(), "not set up") {
		t.Errorf("no store: %v", err)
	}
}

// A plan knows the team's servers: when each is free, the earliest finish,
// and a button that books it with a margin.
func TestPlanMeetsOccupancy(t *testing.T) {
	s, _ := newReservations(t)
	mustDo(t, s, "U0001", "reserve 4 on server-h for 6h")
	r := mustDo(t, s, "U0002", "bert-base 3 epochs of 2.5M samples")
	var team *Section
	for i, sec := range r.Sections {
		if sec.Heading == "On the team's servers" {
			team = &r.Sections[i]
		}
	}
	if team == nil || team.Table == nil || len(team.Table.Rows) != 2 {
		t.Fatalf("no team section: %+v", r.Sections)
	}
	if len(r.Actions) == 0 || r.Actions[0].Label != "Reserve server-a" {
		t.Fatalf("want a Reserve server-a button first (server-h is held), got %+v", r.Actions)
	}
	book := r.Actions[0]
	res, err := s.Dispatch(context.Background(), Request{User: "U0002", Text: book.Command, ID: book.RequestID})
	if err != nil {
		t.Fatalf("%q: %v", book.Command, err)
	}
	rv := res.Data.(store.Reservation)
	if rv.Server != "server-a" || len(rv.GPUs) != 4 || !strings.Contains(res.Sections[1].Text, "CUDA_VISIBLE_DEVICES=0,1,2,3") {
		t.Errorf("booked %+v", rv)
	}
}

// Reminders go out once before expiry, the announcement is updated when a
// reservation ends, and a waiter is told when its GPUs are free.
func TestSweepRemindsExpiresAndCallsTheWaiting(t *testing.T) {
	s, clock := newReservations(t)
	ctx := context.Background()
	rv := mustDo(t, s, "U0001", "reserve 4 on server-h for 1h").Data.(store.Reservation)
	if err := s.Announced(ctx, rv.ID, "C1", "1700000000.000100"); err != nil {
		t.Fatal(err)
	}
	mustDo(t, s, "U0002", "wait 2 on server-h")
	kinds := func(ns []Notice) map[string][]Notice {
		m := map[string][]Notice{}
		for _, n := range ns {
			m[n.Kind] = append(m[n.Kind], n)
		}
		return m
	}
	ns, err := s.Sweep(ctx)
	if err != nil || len(ns) != 0 {
		t.Fatalf("nothing is due yet: %v %+v", err, ns)
	}
	clock.Advance(50 * time.Minute) // 10 minutes left, inside the default 15-minute reminder
	ns, _ = s.Sweep(ctx)
	k := kinds(ns)
	if len(k["reminder"]) != 1 || k["reminder"][0].User != "U0001" || len(k["reminder"][0].Reply.Actions) != 2 {
		t.Fatalf("want one reminder to the owner with two buttons: %+v", ns)
	}
	if ns, _ := s.Sweep(ctx); len(kinds(ns)["reminder"]) != 0 {
		t.Error("the reminder went out twice")
	}
	clock.Advance(15 * time.Minute) // ended
	ns, _ = s.Sweep(ctx)
	k = kinds(ns)
	if len(k["expired"]) != 1 || k["expired"][0].Channel != "C1" || k["expired"][0].TS != "1700000000.000100" {
		t.Errorf("want the announcement updated on expiry: %+v", ns)
	}
	if len(k["waiting"]) != 1 || k["waiting"][0].User != "U0002" {
		t.Errorf("want the waiter told: %+v", ns)
	}
	if ns, _ := s.Sweep(ctx); len(ns) != 0 {
		t.Errorf("a second sweep repeated notices: %+v", ns)
	}
}

// Two replicas sweeping the same store tell a waiter once.
func TestTwoReplicasTellAWaiterOnce(t *testing.T) {
	a, _ := newReservations(t)
	b := New(a.deps) // a second replica on the same store
	mustDo(t, a, "U0001", "reserve 4 on server-a for 1h")
	mustDo(t, a, "U0002", "wait 2 on server-a")
	mustDo(t, a, "U0001", "release all")
	var told int
	for _, s := range []*Set{a, b} {
		ns, err := s.Sweep(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range ns {
			if n.Kind == "waiting" {
				told++
			}
		}
	}
	if told != 1 {
		t.Errorf("the waiter was told %d times", told)
	}
}

// phrasebookServers are the phrasebook's team: server-h, server-a and
// server-v, four GPUs each.
const phrasebookServers = testServers + `
  - name: server-v
    gpu: v100
    gpus: 4
`

// TestPhrasebookExtendsRun runs every extend sentence of the request
// language's phrasebook against the embedded store, as the user who holds
// the reservation it means, and checks the reservation's new end: reading
// a sentence is not enough, the command must do what it read. An id in a
// sentence ("server-h-3") is replaced by the id the store gave.
func TestPhrasebookExtendsRun(t *testing.T) {
	seoul, _ := time.LoadLocation("Asia/Seoul")
	n := 0
	for _, p := range readPhrases(t, "lang/testdata/phrasebook.jsonl") {
		if p.Expect["command"] != "extend" {
			continue
		}
		n++
		s, _ := newReservationsOn(t, phrasebookServers)
		id, _ := p.Expect["id"].(string)
		server, _ := p.Expect["server"].(string)
		if id != "" {
			server = id[:strings.LastIndexByte(id, '-')]
		} else if server == "" {
			server = "server-a" // "2시간 연장해줘": the user's only reservation, wherever it is
		}
		mustDo(t, s, "U0002", "reserve 1 on "+server+" for 8h") // someone else's, on the same server
		mine := mustDo(t, s, "U0001", "reserve 1 on "+server+" for 4h").Data.(store.Reservation)
		text := p.Text
		if id != "" {
			text = strings.ReplaceAll(text, id, mine.ID)
		}
		var want time.Time
		switch {
		case p.Expect["duration"] != nil:
			d, err := time.ParseDuration(p.Expect["duration"].(string))
			if err != nil {
				t.Fatal(err)
			}
			want = mine.End.Add(d)
		case p.Expect["until"] != nil:
			h, m, _ := strings.Cut(p.Expect["until"].(string), ":")
			hh, _ := strconv.Atoi(h)
			mm, _ := strconv.Atoi(m)
			want = time.Date(2026, 11, 21, hh, mm, 0, 0, seoul)
		default:
			t.Fatalf("%q: the phrasebook says neither duration nor until", p.Text)
		}
		r, err := do(t, s, "U0001", text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		got, ok := r.Data.(store.Reservation)
		if !ok || got.ID != mine.ID || !got.End.Equal(want) {
			t.Errorf("%q: %+v, want %s to end at %s", text, r.Data, mine.ID, want.In(seoul).Format("15:04"))
		}
	}
	if n < 5 {
		t.Fatalf("%d extend sentences in the phrasebook; the test needs them", n)
	}
}

// Extending by server or "my reservation" picks the user's only one; with
// several it names them and changes nothing; "until" reads the end
// against the reservation.
func TestExtendByServerOrMine(t *testing.T) {
	s, _ := newReservations(t)
	if _, err := do(t, s, "U0001", "extend server-a 2h"); err == nil || !strings.Contains(Explain(err).Msg, "no reservation on server-a") {
		t.Errorf("nothing held: %v", err)
	}
	a := mustDo(t, s, "U0001", "reserve 1 on server-a for 2h").Data.(store.Reservation)
	for i, text := range []string{"extend my reservation 1h", "server-a 2시간 연장", "extend server-a 1h"} {
		want := a.End.Add([]time.Duration{time.Hour, 3 * time.Hour, 4 * time.Hour}[i])
		if r := mustDo(t, s, "U0001", text); r.Data.(store.Reservation).ID != a.ID || !r.Data.(store.Reservation).End.Equal(want) {
			t.Errorf("%q: %+v, want the end at %v", text, r.Data, want)
		}
	}
	b := mustDo(t, s, "U0001", "reserve 1 on server-h for 2h").Data.(store.Reservation)
	_, err := do(t, s, "U0001", "2시간 연장해줘")
	ue := Explain(err)
	if ue == nil || !strings.Contains(ue.Msg, "예약이 2건") || !strings.Contains(ue.Msg, a.ID) || !strings.Contains(ue.Msg, b.ID) {
		t.Errorf("two held, none named: %v", err)
	}
	_, err = do(t, s, "U0001", "extend my reservation 1h")
	if ue := Explain(err); ue == nil || !strings.Contains(ue.Msg, "2 reservations") {
		t.Errorf("two held, a sentence after the command word: %v", err)
	}
	if cur, _ := s.deps.Reservations.Get(context.Background(), b.ID); !cur.End.Equal(b.End) {
		t.Errorf("a refused extend changed %s", b.ID)
	}
	if r := mustDo(t, s, "U0001", "server-h 30분 연장"); r.Data.(store.Reservation).End.Sub(b.End) != 30*time.Minute {
		t.Errorf("server-h 30분 연장: %+v", r.Data)
	}
	if r := mustDo(t, s, "U0001", "extend "+b.ID+" until 20:00"); r.Data.(store.Reservation).End.In(s.loc(Request{})).Hour() != 20 {
		t.Errorf("until 20:00: %+v", r.Data)
	}
	if _, err := do(t, s, "U0001", "extend "+b.ID+" until 13:00"); err == nil || !strings.Contains(Explain(err).Msg, "already ends") {
		t.Errorf("an end before the current one: %v", err)
	}
	// A booking for tomorrow: "until 20:00" is tomorrow's.
	c := mustDo(t, s, "U0002", "reserve 1 on server-a from tomorrow 9:00 for 4h").Data.(store.Reservation)
	if r := mustDo(t, s, "U0002", "extend server-a until 20:00"); !r.Data.(store.Reservation).End.Equal(c.End.Add(7 * time.Hour)) {
		t.Errorf("until 20:00 of tomorrow's booking: %+v", r.Data)
	}
}

// A release's announcement says how long the GPUs were held, or that the
// window had not begun, and offers nothing to run on them: no launch
// line, no buttons.
func TestReleaseAnnouncementHasNoRunLine(t *testing.T) {
	s, clock := newReservations(t)
	a := mustDo(t, s, "U0001", "reserve 1 on server-a for 2h").Data.(store.Reservation)
	b := mustDo(t, s, "U0001", "reserve 1 on server-h from tomorrow 9:00 for 2h").Data.(store.Reservation)
	clock.Advance(30 * time.Minute)
	for id, want := range map[string]string{a.ID: "after holding them since", b.ID: "before its window began"} {
		r := mustDo(t, s, "U0001", "release "+id)
		if !strings.Contains(r.Summary, want) {
			t.Errorf("release %s: %q, want %q", id, r.Summary, want)
		}
		for _, sec := range r.Sections {
			if sec.Heading == "Run on them" || strings.Contains(sec.Text, "CUDA_VISIBLE_DEVICES") || strings.Contains(sec.Text, "buttons") {
				t.Errorf("release %s offers %q %q", id, sec.Heading, sec.Text)
			}
		}
		if len(r.Actions) > 0 {
			t.Errorf("release %s has buttons: %+v", id, r.Actions)
		}
	}
}

// "Release my H200 reservation" gives back the H200 server's booking and
// keeps the others (probe 33: "Release my V100 reservation" released
// every booking the asker held).
func TestReleaseByGPUType(t *testing.T) {
	s, _ := newReservations(t)
	v := mustDo(t, s, "U0001", "reserve 1 on server-h for 2h").Data.(store.Reservation)
	a := mustDo(t, s, "U0001", "reserve 1 on server-a for 2h").Data.(store.Reservation)
	r := mustDo(t, s, "U0001", "Release my H200 reservation, I'm done early")
	if got, ok := r.Data.(store.Reservation); !ok || got.ID != v.ID {
		t.Fatalf("released %+v, want %s only", r.Data, v.ID)
	}
	if st := mustDo(t, s, "U0001", "mine"); !strings.Contains(textOf(t, st), a.ID) {
		t.Errorf("the A100 booking %s is gone: %s", a.ID, textOf(t, st))
	}
}

// A booking example in a refusal names the team's own servers when the
// team has none called server-h or server-a (probe 33's hints named
// servers it could not book).
func TestExamplesNameTheTeamsServers(t *testing.T) {
	s, _ := newReservationsOn(t, `
timezone: Asia/Seoul
servers:
  - name: server-a100
    gpu: a100
    gpus: 8
  - name: server-v1
    gpu: v100
    gpus: 4
`)
	_, err := do(t, s, "U1", "reserve 2 on server-a100 from yesterday for 2h")
	ue := Explain(err)
	if ue == nil || !strings.Contains(ue.Hint, "server-a100") || strings.Contains(ue.Hint, "server-h") {
		t.Errorf("hint %+v, want the team's server named", ue)
	}
}

// A booking named by its day: "내일 예약한거 취소해줘" releases the ones
// held tomorrow and keeps today's; "내일 … 2시간만 연장해줘" extends
// tomorrow's by two hours, not to the end of tomorrow.
func TestBookingNamedByItsDay(t *testing.T) {
	s, _ := newReservations(t)
	today := mustDo(t, s, "U0001", "reserve 1 on server-a for 2h").Data.(store.Reservation)
	tomorrow := mustDo(t, s, "U0001", "reserve 1 on server-h from tomorrow 10:00 for 4h").Data.(store.Reservation)
	r := mustDo(t, s, "U0001", "내일 server-h 예약 2시간만 연장해줘")
	if got, ok := r.Data.(store.Reservation); !ok || got.ID != tomorrow.ID || !got.End.Equal(tomorrow.End.Add(2*time.Hour)) {
		t.Fatalf("extended %+v, want %s to %v", r.Data, tomorrow.ID, tomorrow.End.Add(2*time.Hour))
	}
	r = mustDo(t, s, "U0001", "내일 예약한거 취소해줘")
	if got, ok := r.Data.(store.Reservation); !ok || got.ID != tomorrow.ID {
		t.Fatalf("released %+v, want %s only", r.Data, tomorrow.ID)
	}
	if st := mustDo(t, s, "U0001", "mine"); !strings.Contains(textOf(t, st), today.ID) {
		t.Errorf("today's booking %s is gone: %s", today.ID, textOf(t, st))
	}
}

// A job of minutes anywhere goes to the server that holds the least GPU
// time for it, and a model one person tries to the smallest server that
// holds it: the large server is named with what it would hold.
func TestSmallJobsTakeTheSmallServer(t *testing.T) {
	s, _ := newReservationsOn(t, `
timezone: Asia/Seoul
servers:
  - name: alpha
    gpu: h100-sxm5-80gb
    gpus: 8
  - name: gamma
    gpu: rtx-4090
    gpus: 2
`)
	r := mustDo(t, s, "U0001", "which server should i use to fine-tune a BERT model on 10k customer reviews?")
	if !strings.HasPrefix(r.Summary, "gamma will do") || !strings.Contains(r.Summary, "alpha would finish") {
		t.Errorf("a job of seconds: %q", r.Summary)
	}
	r = mustDo(t, s, "U0001", "which of our servers for llama 3 8b lora on 1B tokens?")
	if !strings.HasPrefix(r.Summary, "alpha") {
		t.Errorf("a job of hours goes where it finishes first: %q", r.Summary)
	}
	r = mustDo(t, s, "U0001", "I want to try qwen2.5 7b with ollama, which of our servers?")
	if !strings.HasPrefix(r.Summary, "gamma holds it") {
		t.Errorf("one person trying a model: %q", r.Summary)
	}
}
