package commands

import (
	"fmt"
	"strings"
	"testing"

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
