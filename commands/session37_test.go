package commands

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/store"
)

// A run measured in hours is planned on the team's servers from that
// measurement (it was 0 s there, the work unknown), and a price of rented
// GPUs ("런팟에서 … 빌리면") shows no team table (probe 37).
func TestTeamServersFromAMeasuredRun(t *testing.T) {
	s, _ := newReservations(t)
	r := mustDo(t, s, "U1", "plan 7b qlora 4090에서 10시간 걸렸는데 우리 서버에서는?")
	if !strings.Contains(r.Summary, "server-") {
		t.Errorf("which server, from a measured run: %q", r.Summary)
	}
	r = mustDo(t, s, "U1", "plan 7b qlora baseline 10h on 1x 4090")
	if text := sectionsText(r); !strings.Contains(text, "server-h") || strings.Contains(text, " 0s ") || strings.Contains(text, "None of the team's servers") {
		t.Errorf("the team's servers from a measured run:\n%s", text)
	}
	r = mustDo(t, s, "U1", "plan 7b qlora 10시간 정도 돌릴건데 런팟에서 4090 빌리면 얼마 나와요?")
	for _, sec := range r.Sections {
		if strings.Contains(sec.Heading, "팀 서버에서") || strings.Contains(sec.Heading, "On the team's servers") {
			t.Errorf("a rented GPU's price showed the team's servers: %q", sec.Heading)
		}
	}
	if !strings.Contains(r.Summary, "$4.00") {
		t.Errorf("10 h of a rented 4090: %q", r.Summary)
	}
}

// A memory question on GPUs it does not fit says so first, and the
// weights of a job spread over GPUs are given per GPU (probe 37).
func TestMemoryAnswerSaysItDoesNotFit(t *testing.T) {
	r, err := dispatch(t, "plan how much memory for llama3 70b full finetune on 8x h100?")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Summary, "It does not fit: It needs about") || !strings.Contains(r.Summary, "GiB of it on each GPU") {
		t.Errorf("summary %q", r.Summary)
	}
	r, err = dispatch(t, "plan how much memory for llama3 8b lora on 1x h100?")
	if err != nil || strings.Contains(r.Summary, "does not fit") || !strings.Contains(r.Summary, "The weights are") {
		t.Errorf("fits: %v %q", err, r.Summary)
	}
}

// The team's servers count the asker's own booking as GPUs to run on, but
// the booking offered cannot overlap it: the answer says so and offers no
// reserve button that the store would refuse (probe 37).
func TestOwnBookingInTheWayOfTheOffer(t *testing.T) {
	s, _ := newReservations(t)
	own := mustDo(t, s, "U1", "reserve 4 on server-h for 20h").Data.(store.Reservation)
	r := mustDo(t, s, "U1", "plan which of our servers is fastest for bert-base 3 epochs of 1M samples")
	var team *Section
	for i := range r.Sections {
		if r.Sections[i].Heading == "On the team's servers" {
			team = &r.Sections[i]
		}
	}
	if team == nil || !strings.Contains(team.Text, "Your booking "+own.ID+" holds some of these GPUs") {
		t.Fatalf("the asker's booking in the way was not said: %+v", team)
	}
	for _, a := range r.Actions {
		if strings.HasPrefix(a.Command, "reserve ") {
			t.Errorf("a reserve the store would refuse was offered: %q", a.Command)
		}
	}
	r = mustDo(t, s, "U2", "plan which of our servers is fastest for bert-base 3 epochs of 1M samples")
	for i := range r.Sections {
		if strings.Contains(r.Sections[i].Text, "Your booking") {
			t.Errorf("another's booking was called theirs: %q", r.Sections[i].Text)
		}
	}
}

// How many GPUs serve a model through a batching engine counts those with
// room for minServed requests at once, not only the weights (probe 38:
// Qwen2.5 72B on vLLM was 2× H100 with room for one request).
func TestFewestGPUsThatServe(t *testing.T) {
	r, err := dispatch(t, "plan how many h100s to serve qwen2.5 72b with vllm?")
	if err != nil || !strings.HasPrefix(r.Summary, "4× H100") || !strings.Contains(r.Summary, "requests at once") {
		t.Errorf("%v %q", err, r.Summary)
	}
	if r, err := dispatch(t, "plan how many 4090s to run llama 3 70b q4 with ollama?"); err != nil || !strings.HasPrefix(r.Summary, "2× GeForce RTX 4090") {
		t.Errorf("a local engine serves one user: %v %q", err, r.Summary)
	}
}

// A status asked of a time ahead ("내일 오후 2시~6시 코멧 비어있어?", "who's
// on rocket tonight?") counts the GPUs held then, not now (probe 39).
func TestStatusOfATimeAhead(t *testing.T) {
	s, _ := newReservations(t)
	mustDo(t, s, "U2", "reserve 2 on server-a from tomorrow 15:00 until 17:00")
	if r := mustDo(t, s, "U1", "status server-a"); !strings.HasPrefix(r.Summary, "4 of 4 GPUs free") {
		t.Errorf("now: %q", r.Summary)
	}
	r := mustDo(t, s, "U1", "plan 내일 오후 2시~6시 server-a 전부 비어있어?")
	if !strings.Contains(r.Summary, "2/4개 비어 있음") || !strings.Contains(r.Summary, "내일 14:00부터") {
		t.Errorf("tomorrow afternoon: %q", r.Summary)
	}
	if r := mustDo(t, s, "U1", "status server-a from tomorrow 16:00 for 3h"); !strings.HasPrefix(r.Summary, "2 of 4 GPUs free on 1 server(s), from tomorrow 16:00") {
		t.Errorf("a window: %q", r.Summary)
	}
	if _, err := do(t, s, "U1", "status server-a from yesterday"); err == nil {
		t.Error("a window that cannot be read was not refused")
	}
}

// "for 20 concurrent users? throughput?" says first whether the KV cache
// holds them all at once, or how many of them (probe 39).
func TestUsersAtOnceBeforeTheThroughput(t *testing.T) {
	r, err := dispatch(t, "plan can I serve llama 3 8B with vLLM on one 4090 for 20 concurrent users? expected throughput?")
	if err != nil || !strings.HasPrefix(r.Summary, "Partly: the KV cache holds ") || !strings.Contains(r.Summary, "of the 20 requests at once") {
		t.Errorf("20 users: %v %q", err, r.Summary)
	}
	r, err = dispatch(t, "plan can I serve llama 3 8B with vLLM on one h100 for 5 concurrent users? expected throughput?")
	if err != nil || !strings.HasPrefix(r.Summary, "Yes: the KV cache holds all 5 requests at once.") {
		t.Errorf("5 users: %v %q", err, r.Summary)
	}
}

// Full fine-tuning sharded over the GPUs set against a LoRA each GPU
// holds whole says what it holds in all (probe 39).
func TestShardedSideSaysItsWhole(t *testing.T) {
	r, err := dispatch(t, "plan llama3 8b full finetune vs lora memory on 8x h100")
	if err != nil || !strings.Contains(r.Summary, "sharded over 8 GPUs: ") || strings.Count(r.Summary, "sharded over") != 1 {
		t.Errorf("%v %q", err, r.Summary)
	}
}

// A release of a server where the asker holds several bookings, not all
// in use now, asks which, and releases none (probe 40: "release my maple
// booking" freed tonight's and December 24th's); a day said, or all of
// them running, releases as before.
func TestReleaseOfOneOfSeveral(t *testing.T) {
	s, _ := newReservations(t)
	now := mustDo(t, s, "U1", "reserve 1 on server-h for 2h").Data.(store.Reservation)
	later := mustDo(t, s, "U1", "reserve 2 on server-h from tomorrow 9:00 for 4h").Data.(store.Reservation)
	r := mustDo(t, s, "U1", "release server-h")
	if r.Refused == "" || len(r.Actions) != 2 || r.Actions[0].Command != "release "+now.ID || r.Actions[1].Command != "release "+later.ID {
		t.Fatalf("two bookings, one later: %q %+v", r.Summary, r.Actions)
	}
	if m := mustDo(t, s, "U1", "mine"); !strings.Contains(fmt.Sprint(m.Data), later.ID) || !strings.Contains(fmt.Sprint(m.Data), now.ID) {
		t.Errorf("a booking was released unasked: %v", m.Data)
	}
	if r := mustDo(t, s, "U1", "release server-h tomorrow"); r.Refused != "" {
		t.Errorf("a day said: %q", r.Summary)
	}
	if m := mustDo(t, s, "U1", "mine"); strings.Contains(fmt.Sprint(m.Data), later.ID) || !strings.Contains(fmt.Sprint(m.Data), now.ID) {
		t.Errorf("the day's release: %v", m.Data)
	}
	if r := mustDo(t, s, "U1", "release server-h"); r.Refused != "" {
		t.Errorf("one booking left: %q", r.Summary)
	}
}
