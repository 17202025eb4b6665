package commands

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/store"
)

// Issue 12, item 3: a change whose outcome the store could not determine
// is never reported as "nothing was changed"; one the store checked and
// found not applied still is.
func TestUnknownOutcomeIsNotNothingChanged(t *testing.T) {
	unknown := storeError(&store.OutcomeUnknownError{Op: "reserve", Msg: "x", Cause: errors.New("timeout")}, "reserve")
	if KindOf(unknown) != Unknown {
		t.Fatalf("kind %v, want Unknown", KindOf(unknown))
	}
	ue := Explain(unknown)
	if ue == nil || strings.Contains(ue.Msg, "nothing was changed") || !strings.Contains(ue.Msg, "cannot tell") || !strings.Contains(ue.Hint, "mine") {
		t.Errorf("unknown outcome explained as %+v", ue)
	}
	// Only a button carries its request id again: a command typed again
	// in Slack is a new envelope, a new request id, and could book twice.
	if strings.Contains(ue.Hint, "command is safe") || !strings.Contains(ue.Hint, "same button") || !strings.Contains(ue.Hint, "typed again is a new request") {
		t.Errorf("the hint must not promise that retyping is safe: %q", ue.Hint)
	}
	checked := storeError(&store.UnavailableError{Msg: "down; checked afterwards: not applied", Cause: errors.New("EOF")}, "reserve")
	if ue := Explain(checked); KindOf(checked) != Unavailable || !strings.Contains(ue.Msg, "nothing was changed") {
		t.Errorf("a checked, unapplied change explained as %v %+v", KindOf(checked), ue)
	}
}
