package lang

import (
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

// TestProbe30Bookings: bookings from blind probe 30 — 반나절 after a clock
// is half a day from it (not the clock's half hour), 취소 and cancel
// release, and a booking typed without spaces is spaced at a server's
// count and a day.
func TestProbe30Bookings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat)}
	for text, want := range map[string]string{
		"server-h 4장 내일 오전 9시부터 반나절 예약 부탁드려요": "reserve 4 on server-h from tomorrow 9:00 for 6h",
		"server-h 4장 내일 9시 반부터 3시간 예약":        "reserve 4 on server-h from tomorrow 9:30 for 3h",
		"server-v 예약 취소할게요 넵":                 "release server-v",
		"cancel my booking on server-a":       "release server-a",
		"server-v1장금요일까지빌릴게요ㄱㄱ":               "reserve 1 on server-v until fri",
		"server-a2장 3시간 쓸게요":                  "reserve 2 on server-a for 3h",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: read as %q (%v), want %q", text, got, ok, want)
		}
	}
}
