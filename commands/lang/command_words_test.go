package lang

import (
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

// Sentences that ask for a command by its everyday words, where two
// commands' words meet: "내 예약" shows them unless a verb says otherwise,
// and "free" asks who holds what unless it waits for GPUs to free up.
func TestCommandWordsThatMeet(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat)}
	for text, want := range map[string]string{
		"내 예약 보여줘":                                "mine",
		"show my reservations":                    "mine",
		"내 예약 2시간 연장해줘":                           "extend",
		"내 예약 반납할게요":                              "release",
		"server-a 2장 2시간 예약":                      "reserve",
		"is anything free on server-a right now?": "status",
		"what's free right now?":                  "status",
		"ping me when 2 gpus free up on server-a": "wait",
	} {
		if cr, ok := ReadCommand(env, text); !ok || cr.Name != want {
			t.Errorf("%q: read as %q (%v), want %q", text, cr.Name, ok, want)
		}
	}
}
