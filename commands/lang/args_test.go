package lang

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// argServers are the phrasebook's team; "h" and "h200" resolve as the
// inventory resolves them.
var argServers = Servers{
	Names: []string{"server-h", "server-a", "server-v"},
	Resolve: func(w string) (string, error) {
		switch strings.ToLower(w) {
		case "server-h", "h", "h200":
			return "server-h", nil
		case "server-a", "a", "a100":
			return "server-a", nil
		case "server-v", "v":
			return "server-v", nil
		}
		return "", &UserError{Msg: "unknown server `" + w + "`"}
	},
}

// argsNow is Saturday 2026-11-21 10:00 UTC.
var argsNow = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func fieldOf(err error) string {
	var ue *UserError
	if errors.As(err, &ue) {
		return ue.Field
	}
	return "not a UserError"
}

func TestParseReserve(t *testing.T) {
	for _, tc := range []struct {
		args  string
		count int
		gpus  []int
		note  string
		hours float64
	}{
		{`2 on server-h for 4h note "bert sweep"`, 2, nil, "bert sweep", 4},
		{"gpus 0-3 on a from 14:00 until 18:00", 0, []int{0, 1, 2, 3}, "", 4},
		{"on h 2x for 90m note lora run", 2, nil, "lora run", 1.5},
		{"2gpus on server-v until 13:00", 2, nil, "", 3},
	} {
		a, err := ParseReserve(tc.args, argServers, argsNow, time.UTC)
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		start := a.Window.Start
		if start.IsZero() {
			start = argsNow
		}
		if a.Count != tc.count || !slices.Equal(a.GPUs, tc.gpus) || a.Note != tc.note || a.Window.End.Sub(start).Hours() != tc.hours || a.Server == "" {
			t.Errorf("%q: %+v", tc.args, a)
		}
	}
	for _, tc := range []struct{ args, field, msg string }{
		{"2 on server-x for 2h", FieldServer, "server-x"},
		{"2 for 2h", FieldServer, "which server? say `on <server>` (server-h, server-a, server-v)"},
		{"on server-h for 2h", FieldCount, "how many GPUs"},
		{"gpus 3-1 on server-h for 2h", FieldIDs, "`3-1` is not a list of GPU ids"},
		{`2 on server-h for 2h note "open`, FieldNote, "quote is not closed"},
		{"2 on server-h", FieldDuration, "for how long"},
		{"2 on server-h for 2h pronto-ish", "", "I don't understand `pronto-ish`"},
		{"2 on server-h for banana", FieldDuration, "banana"},
	} {
		_, err := ParseReserve(tc.args, argServers, argsNow, time.UTC)
		if err == nil || fieldOf(err) != tc.field || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: %v (field %q), want %q in field %q", tc.args, err, fieldOf(err), tc.msg, tc.field)
		}
	}
}

func TestParseWaitAndRelease(t *testing.T) {
	if a, err := ParseWait("4 on server-h", argServers); err != nil || a.Count != 4 || a.Server != "server-h" || a.For != DefaultWait {
		t.Errorf("wait 4 on server-h: %+v %v", a, err)
	}
	if a, err := ParseWait("2 gpus on a for 8h", argServers); err != nil || a.Count != 2 || a.Server != "server-a" || a.For != 8*time.Hour {
		t.Errorf("wait 2 gpus on a for 8h: %+v %v", a, err)
	}
	if a, err := ParseWait("for 4 gpus on server-a for 2h", argServers); err != nil || a.Count != 4 || a.Server != "server-a" || a.For != 2*time.Hour {
		t.Errorf("wait for 4 gpus on server-a for 2h: %+v %v", a, err) // "for" a count, then "for" a time
	}
	for _, bad := range []string{"4", "on server-h", "4 on server-h soon", "4 on server-h for ever", "2 on server-h for 4"} {
		if _, err := ParseWait(bad, argServers); err == nil {
			t.Errorf("wait %q: no error", bad)
		}
	}
	for _, tc := range []struct {
		args string
		want ReleaseArgs
	}{
		{"server-h-3", ReleaseArgs{ID: "server-h-3"}},
		{"server-h-12k3x --force", ReleaseArgs{ID: "server-h-12k3x", Force: true}},
		{"h", ReleaseArgs{Server: "server-h"}},
		{"ALL", ReleaseArgs{All: true}},
		{"my gpus", ReleaseArgs{All: true}}, // the user's own, as a whole
		{"mine", ReleaseArgs{All: true}},
		{"내 거", ReleaseArgs{All: true}},
		{"nope", ReleaseArgs{ID: "nope"}},
	} {
		if a, err := ParseRelease(tc.args, argServers); err != nil || a != tc.want {
			t.Errorf("release %q: %+v %v, want %+v", tc.args, a, err, tc.want)
		}
	}
	a, err := ParseRelease("--force", argServers)
	if err == nil || !a.Force {
		t.Errorf("release --force: %+v %v: want an error, and Force read", a, err)
	}
}

func TestParseExtend(t *testing.T) {
	for _, tc := range []struct {
		args       string
		id, server string
		by         time.Duration
		until      string // the new end of a reservation ending at 12:00, "15:04"
		force      bool
	}{
		{"server-h-3 2h", "server-h-3", "", 2 * time.Hour, "", false},
		{"server-h-3 2 hours --force", "server-h-3", "", 2 * time.Hour, "", true},
		{"server-h by 90m", "", "server-h", 90 * time.Minute, "", false},
		{"h for an hour", "", "server-h", time.Hour, "", false},
		{"1 hour", "", "", time.Hour, "", false},
		{"by 1d12h", "", "", 36 * time.Hour, "", false},
		{"server-h-3 until 20:00", "server-h-3", "", 0, "20:00", false},
		{"server-a to 8pm", "", "server-a", 0, "20:00", false},
		{"server-v-2en8 20:00", "server-v-2en8", "", 0, "20:00", false},
		{"by 6pm", "", "", 0, "18:00", false},
		{"until tomorrow", "", "", 0, "18:00", false},
		{"nope 2h", "nope", "", 2 * time.Hour, "", false},
	} {
		a, err := ParseExtend(tc.args, argServers, argsNow, time.UTC)
		if err != nil {
			t.Errorf("extend %q: %v", tc.args, err)
			continue
		}
		if a.ID != tc.id || a.Server != tc.server || a.By != tc.by || a.Force != tc.force || (len(a.Until) > 0) != (tc.until != "") {
			t.Errorf("extend %q: %+v", tc.args, a)
			continue
		}
		end, err := a.End(argsNow.Add(-time.Hour), argsNow.Add(2*time.Hour), argsNow, time.UTC)
		if err != nil {
			t.Errorf("extend %q: end: %v", tc.args, err)
		} else if tc.until != "" && end.Format("15:04") != tc.until || tc.until == "" && end.Sub(argsNow.Add(2*time.Hour)) != tc.by {
			t.Errorf("extend %q: ends %v", tc.args, end)
		}
	}
	for _, tc := range []struct{ args, field, msg string }{
		{"", "", "extend which reservation by how much?"},
		{"nope", "", "extend which reservation by how much?"},
		{"server-h-3", FieldDuration, "extend `server-h-3` by how much?"},
		{"server-h 2h please", FieldDuration, "please"},
		{"server-h-3 for tomorrow", FieldDuration, ""},
		{"server-h-3 until banana", FieldEnd, "banana"},
		{"server-h-3 until", FieldEnd, "until when?"},
		{"server-h-3 from tomorrow 9:00", FieldDuration, ""},
	} {
		_, err := ParseExtend(tc.args, argServers, argsNow, time.UTC)
		if err == nil || fieldOf(err) != tc.field || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("extend %q: %v (field %q), want %q in field %q", tc.args, err, fieldOf(err), tc.msg, tc.field)
		}
	}
}

// "until 20:00" is read against the reservation: a booking for tomorrow
// ends at tomorrow's 20:00, one running now at today's.
func TestExtendUntilIsTheReservations(t *testing.T) {
	a, err := ParseExtend("server-h-3 until 20:00", argServers, argsNow, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	tomorrow9 := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	if end, err := a.End(tomorrow9, tomorrow9.Add(4*time.Hour), argsNow, time.UTC); err != nil || !end.Equal(tomorrow9.Add(11*time.Hour)) {
		t.Errorf("tomorrow's booking: %v %v", end, err)
	}
	if end, err := a.End(argsNow.Add(-time.Hour), argsNow.Add(time.Hour), argsNow, time.UTC); err != nil || !end.Equal(argsNow.Add(10*time.Hour)) {
		t.Errorf("today's booking: %v %v", end, err)
	}
}

// Every extend sentence of the phrasebook, read by ReadCommand, restates
// into words ParseExtend reads as the phrasebook means them.
func TestPhrasebookExtendsParse(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat)}
	n := 0
	for _, p := range loadPhrasebook(t) {
		if p.Expect["command"] != "extend" {
			continue
		}
		n++
		cr, ok := ReadCommand(env, p.Text)
		if !ok || cr.Name != "extend" {
			t.Errorf("%q: read as %q", p.Text, cr.Name)
			continue
		}
		a, err := ParseExtend(cr.Args, argServers, argsNow, time.UTC)
		if err != nil {
			t.Errorf("%q → %q: %v", p.Text, cr.Args, err)
			continue
		}
		var bad []string
		if id, _ := p.Expect["id"].(string); a.ID != id {
			bad = append(bad, "id "+a.ID)
		}
		if srv, _ := p.Expect["server"].(string); a.Server != srv {
			bad = append(bad, "server "+a.Server)
		}
		if d, ok := p.Expect["duration"].(string); ok {
			if want, _ := time.ParseDuration(d); a.By != want {
				bad = append(bad, fmt.Sprint("by ", a.By))
			}
		}
		if u, ok := p.Expect["until"].(string); ok {
			end, err := a.End(argsNow.Add(-time.Hour), argsNow.Add(time.Hour), argsNow, time.UTC)
			if err != nil || end.Format("15:04") != u {
				bad = append(bad, fmt.Sprint("until ", end, err))
			}
		}
		if len(bad) > 0 {
			t.Errorf("%q → %q: %s", p.Text, cr.Args, strings.Join(bad, "; "))
		}
	}
	if n < 5 {
		t.Fatalf("%d extend sentences in the phrasebook", n)
	}
}
