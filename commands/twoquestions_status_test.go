package commands

import (
	"fmt"
	"strings"
	"testing"
)

// A message that asks a server's status in one sentence and plans a job
// in another gets both: the status ahead of the plan's card, the plan read
// with the server as its hardware. A status asked alone stays the status.
func TestStatusBesidePlan(t *testing.T) {
	s, _ := newReservations(t)
	mustDo(t, s, "U2", "reserve 1 on server-h for 2h")
	r := mustDo(t, s, "U1", "server-h 비어있어? qwen 72b lora 하려는데 4장 다 필요함?")
	if !strings.Contains(r.Summary, "3/4") || !strings.Contains(r.Summary, "2장이면 충분해요(가진 4장 중)") {
		t.Errorf("summary %q: want the status (3 of 4 free) and the count", r.Summary)
	}
	if _, ok := r.Data.(*PlanData); !ok {
		t.Errorf("data %T: the plan's card is the reply", r.Data)
	}
	var free bool
	for _, sec := range r.Sections {
		if strings.HasPrefix(sec.Heading, "server-h") && strings.Contains(sec.Heading, "3") {
			free = true
		}
	}
	if !free {
		t.Errorf("no server-h status section in %+v", r.Sections)
	}
	r = mustDo(t, s, "U1", "is server-h free?")
	if _, ok := r.Data.(*PlanData); ok {
		t.Errorf("a status asked alone planned a job: %q", r.Summary)
	}
}

// Two team servers set side by side are answered between themselves: a
// third, faster server the question did not name is not the answer.
func TestTwoServersComparedBetweenThemselves(t *testing.T) {
	s, _ := newReservationsOn(t, testServers+`  - name: server-v
    gpu: v100
    gpus: 4
`)
	r := mustDo(t, s, "U1", "v100 server vs a100 server for resnet-50 imagenet 90 epochs")
	ans := r.Data.(*PlanData).Answer
	if !strings.HasPrefix(ans, "server-a finishes first") {
		t.Errorf("answer %q: want server-a, the faster of the two named", ans)
	}
	r = mustDo(t, s, "U1", "which of our servers is fastest for resnet-50 imagenet 90 epochs")
	if ans := r.Data.(*PlanData).Answer; !strings.HasPrefix(ans, "server-h finishes first") {
		t.Errorf("answer %q: asked of all servers, want server-h", ans)
	}
}

// A booking refused only by the asker's own reservation says so: the
// GPUs are theirs, to use or extend; another's holder is named as before.
func TestConflictWithOwnBooking(t *testing.T) {
	s, _ := newReservations(t)
	mustDo(t, s, "U1", "reserve 4 on server-h for 5h")
	r := mustDo(t, s, "U1", "can I grab 2 h200s on server h until 6pm?")
	if !strings.HasPrefix(r.Summary, "You already hold GPUs 0,1,2,3 on server-h") || !strings.Contains(r.Summary, "extend server-h-") {
		t.Errorf("own booking: summary %q", r.Summary)
	}
	if b := strings.Join(r.Sections[0].Bullets, " "); !strings.Contains(b, "held by you") {
		t.Errorf("own booking: held %q", b)
	}
	r = mustDo(t, s, "U2", "can I grab 2 h200s on server h until 6pm?")
	if strings.Contains(r.Summary, "You already") || !strings.Contains(strings.Join(r.Sections[0].Bullets, " "), "<@U1>") {
		t.Errorf("another's booking: %q %v", r.Summary, r.Sections[0].Bullets)
	}
}

// Which server finishes first counts the asker's own booking as GPUs they
// can run on; another's booking still holds the server.
func TestWhichServerCountsOwnBookingAsFree(t *testing.T) {
	s, _ := newReservations(t)
	mustDo(t, s, "U1", "reserve 4 on server-h for 20h")
	q := "which of our servers is fastest for bert-base 3 epochs of 1M samples"
	if ans := mustDo(t, s, "U1", q).Data.(*PlanData).Answer; !strings.HasPrefix(ans, "server-h finishes first") {
		t.Errorf("the asker's own booking: %q, want server-h", ans)
	}
	if ans := mustDo(t, s, "U2", q).Data.(*PlanData).Answer; !strings.HasPrefix(ans, "server-a finishes first") {
		t.Errorf("another's booking: %q, want server-a", ans)
	}
}

// GPUs to buy ("서버 새로 사려는데 … 뭐 사야돼", "we're buying a new
// server for …") are answered with the fewest of each GPU teams buy that
// hold the job, side by side at one global batch, and no team servers.
func TestBuyOptions(t *testing.T) {
	s, _ := newReservations(t)
	for _, text := range []string{"서버 새로 사려는데 llama 70b 파인튜닝용으로 뭐 사야돼?", "we're buying a new server for llama 3 8b lora, which gpus should we get?"} {
		r := mustDo(t, s, "U1", text)
		pd := r.Data.(*PlanData)
		if !strings.HasPrefix(pd.Answer, "To buy: ") && !strings.HasPrefix(pd.Answer, "구매 후보: ") {
			t.Errorf("%q: answer %q", text, pd.Answer)
		}
		if len(pd.Result.Plans) < 2 {
			t.Errorf("%q: %d options side by side", text, len(pd.Result.Plans))
		}
		for _, e := range pd.Result.Plans {
			if !e.Memory.Fits || e.Server != "" || !strings.Contains(pd.Answer, fmt.Sprintf("%d× %s (", e.GPUs, e.GPUName)) {
				t.Errorf("%q: option %d× %s (fits %v, server %q) not as the answer says", text, e.GPUs, e.GPUName, e.Memory.Fits, e.Server)
			}
		}
		for _, sec := range r.Sections {
			if strings.Contains(sec.Heading, "team's servers") || strings.Contains(sec.Heading, "팀 서버") {
				t.Errorf("%q: a team section %q", text, sec.Heading)
			}
		}
	}
	// a GPU named with buying: whether it does the job, as before
	if r := mustDo(t, s, "U1", "4090 사려는데 llama 3 8b lora 돌아가?"); !strings.HasPrefix(r.Data.(*PlanData).Answer, "네 — 1× GeForce RTX 4090") {
		t.Errorf("a GPU named: %q", r.Data.(*PlanData).Answer)
	}
}

// TestProbe31Answers: a diffusion model named first is refused as one,
// not as a mistyped command; a hyperscaler named leaves GeForce cards out.
func TestProbe31Answers(t *testing.T) {
	_, err := dispatch(t, "Stable Diffusion으로 이미지 만드는 거 해보고 싶은데 어떤 서버가 나아요?")
	if ue := Explain(err); ue == nil || !strings.Contains(ue.Msg, "디퓨전") || strings.Contains(ue.Msg, "status") {
		t.Errorf("stable diffusion: %v", err)
	}
	r, err := dispatch(t, "How much would it cost per month to run a Llama 70B chatbot on AWS?")
	if err != nil || strings.Contains(r.Summary, "GeForce") || !strings.Contains(textOf(t, r), "GeForce and workstation cards are left out") {
		t.Errorf("on AWS: %v %q", err, r.Summary)
	}
}
