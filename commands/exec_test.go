package commands

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/digest"
	"github.com/gpuplan/gpuplan/store"
)

func TestExecLabel(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"python train.py --lr 3e-4", "python train.py --lr 3e-4"},
		{"sh -c 'echo `id`'\n  && rm", "sh -c 'echo 'id'' && rm"}, // no backtick can end the code span; one line
		{"", "(no command)"},
		// What a command may carry that would ping or spoof once posted:
		// mentions and broadcasts become the plain text Slack shows, bidi
		// controls go.
		{"python train.py --tag <@U0123ABCD> --notify <!channel>", "python train.py --tag @U0123ABCD --notify @channel"},
		{"sh -c 'echo <!here|here> <#C0001|ml-infra>'", "sh -c 'echo @here #ml-infra'"},
		{"python \u202etxt.exe\u2066evil.py", "python txt.exeevil.py"},
	} {
		if got := ExecLabel(c.in); got != c.want {
			t.Errorf("ExecLabel(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := ExecLabel(strings.Repeat("한", 200))
	if n := utf8.RuneCountInString(long); n != MaxExecLabel || !strings.HasSuffix(long, "…") {
		t.Errorf("a long command's label has %d characters: %q", n, long)
	}
}

// The booking is announced like a reservation, marked with the command;
// the end says how long it ran and how it ended. Both go to the channel.
func TestExecAnnouncements(t *testing.T) {
	s, clock := newReservations(t)
	ctx := context.Background()
	st := s.deps.Reservations
	cmd := "python train.py <!channel> & " + strings.Repeat("x", 100)
	rv, err := st.Reserve(ctx, store.ReserveRequest{RequestID: "e1", Server: "server-a", ServerGPUs: 4, GPUs: []int{1, 3},
		Owner: "U0001", Duration: 5 * time.Minute, Note: store.ExecNote(cmd)})
	if err != nil {
		t.Fatal(err)
	}
	now := clock.Now()
	start := s.ExecStarted(Request{User: "U0001"}, rv, cmd, now.Add(8*time.Hour), now)
	if !start.InChannel || start.Announces != rv.ID || len(start.Actions) != 0 {
		t.Errorf("start: InChannel %v, Announces %q, %d actions", start.InChannel, start.Announces, len(start.Actions))
	}
	label := "`" + ExecLabel(cmd) + "`"
	if !strings.Contains(start.Summary, label) || !strings.Contains(start.Summary, "GPUs 1,3") || !strings.Contains(start.Summary, "<@U0001>") {
		t.Errorf("start summary %q lacks the command, the GPUs or the owner", start.Summary)
	}
	if strings.Contains(start.Summary, strings.Repeat("x", 100)) {
		t.Errorf("start summary shows more than %d characters of the command: %q", MaxExecLabel, start.Summary)
	}
	if !strings.Contains(start.Summary, "18:00") { // 10:00 KST + 8h: the --for bound
		t.Errorf("start summary %q does not say until when at most", start.Summary)
	}
	clock.Advance(90 * time.Minute)
	end := s.ExecEnded(Request{User: "U0001"}, rv, cmd, 90*time.Minute+10*time.Second, "exit status 3", true, clock.Now())
	if !end.InChannel || !strings.Contains(end.Summary, "1h30m") || !strings.Contains(end.Summary, "exit status 3") ||
		!strings.Contains(end.Summary, "released") || !strings.Contains(end.Summary, label) {
		t.Errorf("end summary %q", end.Summary)
	}
	lapsed := s.ExecEnded(Request{User: "U0001"}, rv, cmd, 20*time.Second, "killed by signal 9 (killed)", false, clock.Now())
	if !strings.Contains(lapsed.Summary, "20s") || !strings.Contains(lapsed.Summary, "already ended") {
		t.Errorf("end of a lapsed booking: %q", lapsed.Summary)
	}
}

// Not free: who holds the GPUs, the earliest slot for the whole job, and
// how to wait.
func TestExecNotFree(t *testing.T) {
	s, clock := newReservations(t)
	ctx := context.Background()
	mustDo(t, s, "U0002", "reserve 3 on server-a for 2h")
	list, _ := s.deps.Reservations.List(ctx, "server-a")
	_, err := store.Fit(store.ReserveRequest{Server: "server-a", ServerGPUs: 4, Count: 2, Owner: "U0001", Duration: time.Hour}, list, clock.Now())
	var ce *store.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("Fit = %v, want a conflict", err)
	}
	r, err := s.ExecNotFree(Request{User: "U0001"}, "server-a", 2, nil, ce, time.Hour, 0, clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := RenderText(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"U0002", "12:00", "--wait", "not run"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the not-free answer lacks %q:\n%s", want, text.String())
		}
	}
	if strings.Contains(text.String(), "free now for") {
		t.Errorf("GPUs that are not free now are said to be:\n%s", text.String())
	}
	r, _ = s.ExecNotFree(Request{User: "U0001"}, "server-a", 2, nil, ce, time.Hour, 90*time.Minute+40*time.Second, clock.Now())
	if text.Reset(); RenderText(&text, r) != nil || !strings.Contains(text.String(), "--for 1h30m starts it at once") {
		t.Errorf("the shorter --for that would run now is not offered:\n%s", text.String())
	}
	if _, err := s.ExecNotFree(Request{User: "U0001"}, "server-x", 2, nil, ce, time.Hour, 0, clock.Now()); err == nil {
		t.Error("an unknown server was accepted")
	}
}

// An exec booking's end is a lease its job renews: the sweep does not
// remind its owner that it is about to end, as it does for others.
func TestSweepDoesNotRemindExecBookings(t *testing.T) {
	s, clock := newReservations(t)
	ctx := context.Background()
	st := s.deps.Reservations
	for i, note := range []string{store.ExecNote("python train.py"), "plain booking"} {
		if _, err := st.Reserve(ctx, store.ReserveRequest{RequestID: "r" + string(rune('0'+i)), Server: "server-h", ServerGPUs: 4,
			Count: 1, Owner: "U0001", Duration: 30 * time.Minute, Note: note}); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(20 * time.Minute) // both end within the 15-minute reminder window
	ns, err := s.Sweep(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var reminded []string
	for _, n := range ns {
		if n.Kind == "reminder" {
			reminded = append(reminded, n.Reply.Data.(store.Reservation).Note)
		}
	}
	if len(reminded) != 1 || reminded[0] != "plain booking" {
		t.Errorf("reminders went out for %q; want only the plain booking's", reminded)
	}
}

// The digest tells exec jobs' hours apart: booked and used by a job.
func TestDigestTellsExecHours(t *testing.T) {
	s, _ := newReservations(t)
	rep := &digest.Report{Period: "day", Servers: []digest.ServerReport{
		{Server: "server-a", GPUs: 4, CapacityH: 96, BookedH: 10, ExecH: 4, MeanUtil: -1, PrevUtil: -1},
		{Server: "server-h", GPUs: 4, CapacityH: 96, BookedH: 10, MeanUtil: -1, PrevUtil: -1},
	}}
	var text strings.Builder
	if err := RenderText(&text, s.DigestReply(rep)); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(text.String(), "gpuplan exec"); got != 1 || !strings.Contains(text.String(), "server-a: 4.0 of the booked GPU-h ran a job") {
		t.Errorf("the digest does not tell server-a's exec hours (and only those):\n%s", text.String())
	}
}

// The plan card's team section offers the same booking as one
// `gpuplan exec` line: the server, the GPU count, the booked time and the
// plan's launch line without its CUDA_VISIBLE_DEVICES (exec sets it).
func TestPlanOffersAnExecLine(t *testing.T) {
	s, _ := newReservations(t)
	mustDo(t, s, "U0001", "reserve 4 on server-h for 6h")
	r := mustDo(t, s, "U0002", "bert-base 3 epochs of 2.5M samples")
	var team string
	for _, sec := range r.Sections {
		if sec.Heading == "On the team's servers" {
			team = sec.Text
		}
	}
	_, line, ok := strings.Cut(team, "`gpuplan exec ")
	line, _, _ = strings.Cut(line, "`")
	if !ok || !strings.HasPrefix(line, "--on server-a --gpus 4 --for ") || !strings.Contains(line, " -- ") || strings.Contains(line, "CUDA_VISIBLE_DEVICES") {
		t.Fatalf("the team section has no exec line for server-a: %q", team)
	}
}

func TestExecLine(t *testing.T) {
	got := ExecLine("server-a", 2, 6*time.Hour+30*time.Minute, 2*time.Hour, "CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node=2 train.py")
	if want := "gpuplan exec --on server-a --gpus 2 --for 6h30m --wait=2h30m -- torchrun --nproc_per_node=2 train.py"; got != want {
		t.Errorf("ExecLine = %q, want %q", got, want)
	}
	if got := ExecLine("h", 1, time.Hour, 0, "python `x`.py"); got != "gpuplan exec --on h --gpus 1 --for 1h -- python 'x'.py" {
		t.Errorf("ExecLine = %q", got)
	}
}

// status shows an exec booking as held while its job runs: its end is a
// lease the job renews every few minutes, not when the GPUs free up.
func TestStatusHoldsExecWhileTheJobRuns(t *testing.T) {
	s, _ := newReservations(t)
	ctx := context.Background()
	if _, err := s.deps.Reservations.Reserve(ctx, store.ReserveRequest{RequestID: "e1", Server: "server-a", ServerGPUs: 4, GPUs: []int{0, 1},
		Owner: "U0001", Duration: 5 * time.Minute, Note: store.ExecNote("python train.py")}); err != nil {
		t.Fatal(err)
	}
	out := textOf(t, mustDo(t, s, "U0002", "status server-a"))
	if !strings.Contains(out, "while the job runs") || strings.Contains(out, "10:05") || strings.Contains(out, "next GPU frees up") {
		t.Errorf("status of an exec booking shows its lease end as when it frees:\n%s", out)
	}
	// A reservation beside it still says when it frees up.
	mustDo(t, s, "U0002", "reserve 1 on server-a for 2h")
	out = textOf(t, mustDo(t, s, "U0002", "status server-a"))
	if !strings.Contains(out, "next GPU frees up today 12:00") || strings.Contains(out, "10:05") {
		t.Errorf("status with an exec booking and a reservation:\n%s", out)
	}
}

// An exec booking announced in Slack whose lease lapses (gpuplan was
// killed, so nothing released it) is marked expired on its announcement
// by the bot's sweep, as any reservation that ends by time.
func TestSweepMarksALapsedExecExpired(t *testing.T) {
	s, clock := newReservations(t)
	ctx := context.Background()
	st := s.deps.Reservations
	rv, err := st.Reserve(ctx, store.ReserveRequest{RequestID: "e1", Server: "server-a", ServerGPUs: 4, GPUs: []int{0},
		Owner: "U0001", Duration: 5 * time.Minute, Note: store.ExecNote("python train.py")})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Announced(ctx, rv.ID, "C0001", "1700000000.000100"); err != nil {
		t.Fatal(err)
	}
	if ns, err := s.Sweep(ctx); err != nil || len(ns) != 0 {
		t.Fatalf("sweep while the job runs: %+v, %v", ns, err)
	}
	clock.Advance(6 * time.Minute)
	ns, err := s.Sweep(ctx)
	if err != nil || len(ns) != 1 || ns[0].Kind != "expired" || ns[0].Channel != "C0001" || ns[0].TS != "1700000000.000100" {
		t.Fatalf("sweep after the lease lapsed: %+v, %v", ns, err)
	}
}
