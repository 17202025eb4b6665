package commands

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/store"
)

// button finds the action labelled label in r.
func button(t *testing.T, r *Reply, label string) Action {
	t.Helper()
	for _, a := range r.Actions {
		if a.Label == label {
			return a
		}
	}
	t.Fatalf("no %q button in %+v", label, r.Actions)
	return Action{}
}

// click runs a button as the bot does: its command, request id and
// fingerprint, as user.
func click(s *Set, user string, a Action) (*Reply, error) {
	return s.Dispatch(context.Background(), Request{User: user, Channel: "C1", Text: a.Command, ID: a.RequestID, Posted: a.Posted})
}

// wantStale checks that err is the out-of-date refusal and names want.
func wantStale(t *testing.T, what string, err error, want string) {
	t.Helper()
	ue := Explain(err)
	if err == nil || ue == nil || KindOf(err) != Refused || !strings.Contains(ue.Msg, "out of date") || !strings.Contains(ue.Msg, want) {
		t.Fatalf("%s: %v (kind %v), want an out-of-date refusal naming %q", what, err, KindOf(err), want)
	}
}

func get(t *testing.T, s *Set, id string) store.Reservation {
	t.Helper()
	rv, err := s.deps.Reservations.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return rv
}

func TestReservationButtonsCarryWhatTheyWerePostedAbout(t *testing.T) {
	s, _ := newReservations(t)
	r := mustDo(t, s, "U0001", "reserve 1 on server-a for 2h")
	rv := r.Data.(store.Reservation)
	want := fmt.Sprintf("%s@U0001@%d", rv.ID, rv.End.Unix())
	for _, a := range r.Actions {
		if a.Posted != want {
			t.Errorf("%s button carries %q, want %q", a.Label, a.Posted, want)
		}
	}
	home, err := s.homeMine(context.Background(), i18n.For(i18n.EN), s.deps.Reservations, "U0001", rv.Start, s.loc(Request{}))
	if err != nil || len(home) < 2 {
		t.Fatalf("App Home: %v %+v", err, home)
	}
	{
		for _, a := range home[1].Actions {
			if a.Posted != want {
				t.Errorf("App Home %s button carries %q, want %q", a.Label, a.Posted, want)
			}
		}
	}
	if id, owner, end, ok := parsePosted(want); !ok || id != rv.ID || owner != "U0001" || end != rv.End.Unix() {
		t.Errorf("parsePosted(%q) = %q %q %d %v", want, id, owner, end, ok)
	}
}

func TestStaleButtonAfterAnAdminExtendedIsRefused(t *testing.T) {
	s, _ := newReservations(t)
	r := mustDo(t, s, "U0001", "reserve 1 on server-a for 2h")
	rv := r.Data.(store.Reservation)
	mustDo(t, s, "U0ADMIN", "extend "+rv.ID+" 1h --force")
	extended := get(t, s, rv.ID)

	_, err := click(s, "U0001", button(t, r, "Release"))
	wantStale(t, "Release after an admin's extend", err, "now ends today 13:00")
	_, err = click(s, "U0001", button(t, r, "Extend 1h"))
	wantStale(t, "Extend after an admin's extend", err, rv.ID)
	if now := get(t, s, rv.ID); now.ReleasedBy != "" || !now.End.Equal(extended.End) {
		t.Errorf("a refused button changed the reservation: %+v", now)
	}

	// The fresh message's buttons work; so does a button from before
	// fingerprints (no Posted).
	fresh := mustDo(t, s, "U0001", "mine")
	if _, err := click(s, "U0001", button(t, fresh, "Release "+rv.ID)); err != nil {
		t.Errorf("a fresh button: %v", err)
	}
	r2 := mustDo(t, s, "U0001", "reserve 1 on server-a for 2h")
	old := button(t, r2, "Release")
	old.Posted = ""
	if _, err := click(s, "U0001", old); err != nil {
		t.Errorf("a button without a fingerprint: %v", err)
	}
}

func TestStaleButtonAfterAReleaseIsRefused(t *testing.T) {
	s, _ := newReservations(t)
	r := mustDo(t, s, "U0001", "reserve 1 on server-a for 2h")
	rv := r.Data.(store.Reservation)
	mustDo(t, s, "U0001", "release "+rv.ID)

	_, err := click(s, "U0001", button(t, r, "Extend 1h"))
	wantStale(t, "Extend after a release", err, "has ended or been released")
	if now, err := s.deps.Reservations.Get(context.Background(), rv.ID); err == nil {
		t.Errorf("a refused Extend brought the reservation back: %+v", now)
	}
	// A reminder DM posted before the release, too.
	rem := s.reminderReply(i18n.For(i18n.EN), rv, rv.Start, s.loc(Request{}))
	_, err = click(s, "U0001", button(t, rem, "Extend 1h"))
	wantStale(t, "reminder Extend after a release", err, "has ended or been released")
}

func TestStaleButtonAfterDataLossOrAReusedIDIsRefused(t *testing.T) {
	s, clock := newReservations(t)
	r := mustDo(t, s, "U0001", "reserve 1 on server-a for 2h")
	rv := r.Data.(store.Reservation)

	// The store is lost; a new one (a fresh file) takes over, and U0002
	// books on the same server.
	st2, err := store.OpenEmbedded(filepath.Join(t.TempDir(), "lost.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st2.Close() })
	s2 := New(Deps{Catalog: s.deps.Catalog, Inventory: s.deps.Inventory, Reservations: st2, Watch: st2})
	other := mustDo(t, s2, "U0002", "reserve 1 on server-a for 3h").Data.(store.Reservation)

	_, err = click(s2, "U0001", button(t, r, "Release"))
	if other.ID == rv.ID {
		wantStale(t, "Release after data loss", err, "different reservation")
	} else {
		wantStale(t, "Release after data loss", err, "has ended or been released")
	}

	// The id handed to someone else (what ids without the random suffix
	// did after data loss): the button showed U0001's, the store now
	// holds U0002's under that id.
	reused := button(t, r, "Release")
	reused.Command = "release " + other.ID
	reused.Posted = fmt.Sprintf("%s@U0001@%d", other.ID, rv.End.Unix())
	_, err = click(s2, "U0001", reused)
	wantStale(t, "Release of a reused id", err, "held by <@U0002>")
	_, err = click(s2, "U0ADMIN", Action{Command: "release " + other.ID + " --force", Posted: reused.Posted})
	wantStale(t, "an admin's forced click on a reused id", err, "different reservation")
	if now, _ := st2.Get(context.Background(), other.ID); now.ReleasedBy != "" {
		t.Error("a stale button released someone else's reservation")
	}
}
