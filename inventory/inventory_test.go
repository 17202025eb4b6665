package inventory

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/planner"
)

// TestInventoryExampleFile parses the shipped example and checks it says
// what its comments say.
func TestInventoryExampleFile(t *testing.T) {
	data, err := os.ReadFile("../deploy/servers.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cat := planner.DefaultCatalog()
	inv, err := Parse(cat, data, "servers.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if inv.Timezone.String() != "Asia/Seoul" || inv.TeamChannel != "C0123456789" {
		t.Errorf("timezone %v, channel %q", inv.Timezone, inv.TeamChannel)
	}
	if !slices.Equal(inv.Admins, []string{"U0ADMIN1", "U0ADMIN2"}) || !inv.IsAdmin("U0ADMIN2") || inv.IsAdmin("U0001ALICE") {
		t.Errorf("admins %v", inv.Admins)
	}
	if inv.MaxDuration != 72*time.Hour || inv.ReminderBefore != 15*time.Minute {
		t.Errorf("max %v, reminder %v", inv.MaxDuration, inv.ReminderBefore)
	}
	if inv.Users["alice"] != "U0001ALICE" || inv.Users["bob"] != "U0002BOB" || inv.Users["10042"] != "U0003CAROL" || len(inv.Users) != 3 || inv.IdleNudgeAfter != time.Hour {
		t.Errorf("users %v", inv.Users)
	}
	want := []struct {
		name, gpu, host string
		price           float64
		max             time.Duration
		labels          []string
	}{
		{"server-h", "h200-sxm-141gb", "server-h.lab.internal", 3.20, 48 * time.Hour, []string{"training", "big-memory"}},
		{"server-a", "a100-sxm4-80gb", "server-a.lab.internal", 1.60, 72 * time.Hour, []string{"training"}},
		{"server-v", "v100-sxm2-32gb", "server-v.lab.internal", 0, 168 * time.Hour, []string{"legacy", "debugging"}},
	}
	if len(inv.Servers) != len(want) {
		t.Fatalf("%d servers, want %d", len(inv.Servers), len(want))
	}
	for i, w := range want {
		s := inv.Servers[i]
		if s.Name != w.name || s.GPU.ID != w.gpu || s.Host != w.host || s.PriceUSD != w.price || s.MaxDuration != w.max ||
			!slices.Equal(s.Labels, w.labels) || s.Count() != 4 || !slices.Equal(s.GPUIDs, []int{0, 1, 2, 3}) || s.Interconnect != planner.NVLink {
			t.Errorf("server %d = %+v, want %+v", i, s, w)
		}
	}
	// The example describes the same fleet Default uses.
	def := Default(cat)
	for i, s := range def.Servers {
		e := inv.Servers[i]
		if s.Name != e.Name || s.GPU.ID != e.GPU.ID || s.Count() != e.Count() || s.Host != e.Host || s.Interconnect != e.Interconnect || !slices.Equal(s.Labels, e.Labels) {
			t.Errorf("Default server %d = %s/%s×%d, example has %s/%s×%d", i, s.Name, s.GPU.ID, s.Count(), e.Name, e.GPU.ID, e.Count())
		}
	}
}

func TestDefaultInventory(t *testing.T) {
	for _, cat := range []*planner.Catalog{nil, planner.DefaultCatalog(), {}} {
		inv := Default(cat)
		if inv.Timezone != time.UTC || inv.MaxDuration != 72*time.Hour || inv.ReminderBefore != 15*time.Minute || inv.Users == nil {
			t.Errorf("defaults: %+v", inv)
		}
		var got []string
		for _, s := range inv.Servers {
			got = append(got, fmt.Sprintf("%s:%s:%d:%v", s.Name, s.GPU.ID, s.Count(), s.MaxDuration))
		}
		want := []string{"server-h:h200-sxm-141gb:4:72h0m0s", "server-a:a100-sxm4-80gb:4:72h0m0s", "server-v:v100-sxm2-32gb:4:72h0m0s"}
		if !slices.Equal(got, want) {
			t.Errorf("servers %v, want %v", got, want)
		}
		if inv.IsAdmin("U0ADMIN1") {
			t.Error("the default inventory has no admins")
		}
	}
}

func TestInventoryDefaultsAndForms(t *testing.T) {
	inv, err := Parse(nil, []byte(`
servers:
  - name: gpu-node-1
    gpu: H100
    gpu_ids: [3, 1, 2]
  - name: box.2
    gpu: rtx 4090
    gpus: 2
    price: 0
    interconnect: PCIe
    labels: cheap
users:
`), "")
	if err != nil {
		t.Fatal(err)
	}
	if inv.Timezone != time.UTC || inv.MaxDuration != 72*time.Hour || inv.ReminderBefore != 15*time.Minute || inv.TeamChannel != "" || len(inv.Admins) != 0 {
		t.Errorf("defaults: %+v", inv)
	}
	n1, b2 := inv.Servers[0], inv.Servers[1]
	if n1.GPU.ID != "h100-sxm5-80gb" || !slices.Equal(n1.GPUIDs, []int{1, 2, 3}) || n1.MaxDuration != 72*time.Hour || n1.Interconnect != planner.InterconnectAuto {
		t.Errorf("gpu-node-1 = %+v", n1)
	}
	if !strings.HasPrefix(b2.GPU.ID, "rtx-4090") || b2.Count() != 2 || b2.Interconnect != planner.PCIe || !slices.Equal(b2.Labels, []string{"cheap"}) {
		t.Errorf("box.2 = %+v", b2)
	}
	// Hardware carries ids, name, one node, and the team's price when set.
	hw := n1.Hardware()
	if hw.Count != 3 || hw.Server != "gpu-node-1" || !slices.Equal(hw.IDs, []int{1, 2, 3}) || hw.GPUsPerNode != 3 || hw.GPU.PriceUSD != n1.GPU.PriceUSD {
		t.Errorf("hardware %+v", hw)
	}
	hw.IDs[0] = 99
	if n1.GPUIDs[0] != 1 {
		t.Error("Hardware shares the server's id slice")
	}
	priced := Server{Name: "x", GPU: n1.GPU, GPUIDs: []int{0}, PriceUSD: 1.25}
	if h := priced.Hardware(); h.GPU.PriceUSD != 1.25 || !strings.Contains(h.GPU.PriceSource, "team") {
		t.Errorf("priced hardware: %v %q", h.GPU.PriceUSD, h.GPU.PriceSource)
	}
	// Reminders may be turned off.
	if inv, err := Parse(nil, []byte("reminder_before: 0\nservers: [{name: a, gpu: a100, gpus: 1}]\n"), ""); err != nil || inv.ReminderBefore != 0 {
		t.Errorf("reminder_before: 0 → %v, %v", inv, err)
	}
}

// TestInventoryErrors: each mistake is reported with its line and reason.
func TestInventoryErrors(t *testing.T) {
	const good = "servers:\n  - name: server-h\n    gpu: h200\n    gpus: 4\n"
	cases := []struct {
		name, yaml string
		line       int // 0: no line
		want       []string
	}{
		{"unknown GPU", `
servers:
  - name: server-h
    gpu: h200
    gpus: 4
  - name: server-x
    gpu: h1000
    gpus: 2
`, 7, []string{`server "server-x": unknown GPU "h1000" — did you mean "h100"?`}},
		{"unknown top-level key", "timezon: UTC\n" + good, 1, []string{"unknown key `timezon`", "did you mean `timezone`"}},
		{"unknown server key", "servers:\n  - name: server-h\n    gpu: h200\n    gpu_count: 4\n", 4, []string{`server "server-h": unknown key ` + "`gpu_count`", "did you mean `gpus`"}},
		{"camel-case key", "servers:\n  - name: server-h\n    gpu: h200\n    gpus: 4\n    Max_Duration: 8h\n", 5, []string{"unknown key `Max_Duration`", "`max_duration`"}},
		{"duplicate server", good + "  - name: server-h\n    gpu: a100\n    gpus: 4\n", 5, []string{`server "server-h" is listed twice (first at line 2)`}},
		{"duplicate key", "servers:\n  - name: server-h\n    gpu: h200\n    gpus: 4\n    gpu: a100\n", 5, []string{"`gpu` is given twice (first at line 3)"}},
		{"duplicate top-level key", "timezone: UTC\n" + good + "timezone: Asia/Seoul\n", 6, []string{"`timezone` is given twice"}},
		{"missing name", "servers:\n  - gpu: h200\n    gpus: 4\n", 2, []string{"has no name"}},
		{"empty name", "servers:\n  - name:\n    gpu: h200\n    gpus: 4\n", 2, []string{"name is empty"}},
		{"missing gpu", "servers:\n  - name: server-h\n    gpus: 4\n", 2, []string{`server "server-h": no ` + "`gpu:`"}},
		{"zero gpus", "servers:\n  - name: server-h\n    gpu: h200\n    gpus: 0\n", 4, []string{"gpus: 0 — a server has 1 to 256 GPUs"}},
		{"negative gpus", "servers:\n  - name: server-h\n    gpu: h200\n    gpus: -2\n", 4, []string{"gpus: -2"}},
		{"gpus not a number", "servers:\n  - name: server-h\n    gpu: h200\n    gpus: four\n", 4, []string{`gpus: "four" is not a whole number`}},
		{"no count", "servers:\n  - name: server-h\n    gpu: h200\n", 2, []string{"no `gpus:`"}},
		{"gpus and gpu_ids", "servers:\n  - name: server-h\n    gpu: h200\n    gpus: 4\n    gpu_ids: [0, 1]\n", 4, []string{"either `gpus: N` or `gpu_ids: [...]`, not both"}},
		{"duplicate id", "servers:\n  - name: server-h\n    gpu: h200\n    gpu_ids:\n      - 0\n      - 1\n      - 1\n", 7, []string{"gpu id 1 is listed twice"}},
		{"negative id", "servers:\n  - name: server-h\n    gpu: h200\n    gpu_ids: [0, -1]\n", 4, []string{"gpu id -1 is negative"}},
		{"empty ids", "servers:\n  - name: server-h\n    gpu: h200\n    gpu_ids: []\n", 4, []string{"gpu_ids is empty"}},
		{"bad duration words", "max_duration: 3 days\n" + good, 1, []string{`max_duration: "3 days" is not a duration here — write it as 72h`}},
		{"bad duration d", "max_duration: 2d\n" + good, 1, []string{"write it as 48h"}},
		{"bad duration", "reminder_before: soon\n" + good, 1, []string{`reminder_before: "soon" is not a duration`, "72h"}},
		{"zero duration", "max_duration: 0s\n" + good, 1, []string{"must be longer than zero"}},
		{"server duration", "servers:\n  - name: server-h\n    gpu: h200\n    gpus: 4\n    max_duration: 1 week\n", 5, []string{`server "server-h": max_duration: "1 week"`, "168h"}},
		{"unknown timezone", "timezone: Asia/Seul\n" + good, 1, []string{`unknown time zone "Asia/Seul"`, "Asia/Seoul"}},
		{"abbreviated timezone", "timezone: KST\n" + good, 1, []string{`did you mean "Asia/Seoul"`}},
		{"local timezone", "timezone: Local\n" + good, 1, []string{"name the zone"}},
		{"bad server name", "servers:\n  - name: Server H\n    gpu: h200\n    gpus: 4\n", 2, []string{`server name "Server H"`, `"server-h"`}},
		{"long server name", "servers:\n  - name: " + strings.Repeat("a", 64) + "\n    gpu: h200\n    gpus: 4\n", 2, []string{"1–63"}},
		{"leading dash", "servers:\n  - name: -h\n    gpu: h200\n    gpus: 4\n", 2, []string{`server name "-h"`}},
		{"admin not an id", "admins: [U0ADMIN1, alice]\n" + good, 1, []string{`admins: "alice" is not a Slack user id (U… or W…)`}},
		{"admin lower case", "admins:\n  - U0ADMIN1\n  - u0admin2\n" + good, 3, []string{`"u0admin2" is not a Slack user id`}},
		{"admin twice", "admins: [U0ADMIN1, U0ADMIN1]\n" + good, 1, []string{"listed twice"}},
		{"channel name", "team_channel: '#gpu'\n" + good, 1, []string{"not a Slack channel id"}},
		{"bad interconnect", "servers:\n  - name: server-h\n    gpu: h200\n    gpus: 4\n    interconnect: nvlnk\n", 5, []string{`interconnect "nvlnk" — did you mean "nvlink"?`}},
		{"bad price", "servers:\n  - name: server-h\n    gpu: h200\n    gpus: 4\n    price: $3.20\n", 5, []string{`price "$3.20"`}},
		{"negative price", "servers:\n  - name: server-h\n    gpu: h200\n    gpus: 4\n    price: -1\n", 5, []string{"negative"}},
		{"bad host", "servers:\n  - name: server-h\n    gpu: h200\n    gpus: 4\n    host: ssh://server-h\n", 5, []string{"host"}},
		{"bad user id", good + "users:\n  alice: alice@example.com\n", 6, []string{`users: alice: "alice@example.com" is not a Slack user id`}},
		{"bad unix user", good + "users:\n  Alice Smith: U0001\n", 6, []string{`"Alice Smith" is not a Unix user name`}},
		{"servers not a list", "servers:\n  name: server-h\n", 2, []string{"servers must be a list"}},
		{"server not a mapping", "servers:\n  - server-h\n", 2, []string{"each server must be a mapping"}},
		{"gpu a list", "servers:\n  - name: server-h\n    gpu: [h200]\n    gpus: 4\n", 3, []string{"gpu must be a single value, not a list"}},
		{"no servers key", "timezone: UTC\n", 0, []string{"no `servers:`"}},
		{"empty servers", "servers: []\n", 1, []string{"servers is empty"}},
		{"empty file", "", 0, []string{"the file is empty"}},
		{"comments only", "# nothing yet\n", 0, []string{"the file is empty"}},
		{"not a mapping", "- server-h\n", 1, []string{"must be a mapping of keys"}},
		{"yaml syntax", "servers:\n  - name: server-h\n    gpu: h200: sxm\n", 3, []string{"not valid YAML"}},
		{"tab", "servers:\n\t- name: server-h\n", 2, []string{"not valid YAML"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(planner.DefaultCatalog(), []byte(c.yaml), "servers.yaml")
			var ie *Error
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v, want an *Error", err)
			}
			msg := err.Error()
			prefix := "servers.yaml: "
			if c.line > 0 {
				prefix = fmt.Sprintf("servers.yaml:%d: ", c.line)
			}
			found := false
			for _, line := range strings.Split(msg, "\n") {
				if !strings.HasPrefix(line, prefix) {
					continue
				}
				all := true
				for _, w := range c.want {
					all = all && strings.Contains(line, w)
				}
				found = found || all
			}
			if !found {
				t.Errorf("error:\n%s\nwant a line starting %q containing %q", msg, prefix, c.want)
			}
		})
	}
}

// TestInventoryErrorsAll: every problem in a file is reported at once, in
// line order, and gpu_count does not also produce "no gpus".
func TestInventoryErrorsAll(t *testing.T) {
	_, err := Parse(nil, []byte(`timezone: Mars/Olympus
servers:
  - name: server-h
    gpu: h1000
    gpu_count: 4
  - name: server-a
    gpu: a100
    gpus: 4
    labels: [x, x]
`), "inv.yaml")
	var ie *Error
	if !errors.As(err, &ie) {
		t.Fatalf("err = %v", err)
	}
	var lines []int
	for _, p := range ie.Problems {
		lines = append(lines, p.Line)
	}
	if !slices.Equal(lines, []int{1, 4, 5, 9}) {
		t.Errorf("problem lines %v, want [1 4 5 9]:\n%v", lines, err)
	}
	if strings.Contains(err.Error(), "no `gpus:`") {
		t.Errorf("gpu_count also reported as a missing count:\n%v", err)
	}
}

func TestInventoryServerLookup(t *testing.T) {
	inv, err := Parse(nil, []byte(`
servers:
  - {name: server-h, gpu: h200, gpus: 4}
  - {name: server-a, gpu: a100, gpus: 4}
  - {name: server-v, gpu: v100, gpus: 4}
  - {name: gpu-node-1, gpu: l40s, gpus: 8}
  - {name: gpu-node-2, gpu: l40s, gpus: 8}
`), "servers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"server-h":   "server-h",
		"Server-H":   "server-h",
		"SERVER-H":   "server-h",
		"server h":   "server-h",
		"server_h":   "server-h",
		"serverh":    "server-h",
		"h":          "server-h",
		"H":          "server-h",
		" a ":        "server-a",
		"`server-v`": "server-v",
		"v":          "server-v",
		"node-1":     "gpu-node-1",
		"node 2":     "gpu-node-2",
		"2":          "gpu-node-2",
		"h200":       "server-h", // the only server with that GPU
		"A100":       "server-a",
		"v100-sxm2":  "",
	} {
		s, err := inv.Server(q)
		if want == "" {
			if err == nil {
				t.Errorf("Server(%q) = %s, want an error", q, s.Name)
			}
			continue
		}
		if err != nil || s.Name != want {
			t.Errorf("Server(%q) = %q, %v; want %q", q, s.Name, err, want)
		}
	}
	for q, want := range map[string]string{
		"server-x": "unknown server `server-x` — did you mean `server-h`?",
		"node":     "`node` matches several servers: `gpu-node-1`, `gpu-node-2`",
		"server":   "matches several servers",
		"l40s":     "matches several servers",
		"":         "which server?",
		"zzz":      "unknown server `zzz`",
	} {
		_, err := inv.Server(q)
		var ue *lang.UserError
		if !errors.As(err, &ue) {
			t.Errorf("Server(%q): err = %v, want a *UserError", q, err)
			continue
		}
		if !strings.Contains(ue.Msg, want) || !strings.Contains(ue.Hint, "`server-h` (4× H200 SXM 141GB)") {
			t.Errorf("Server(%q): %q / %q; want %q and the server list", q, ue.Msg, ue.Hint, want)
		}
	}
	var empty *Inventory
	if _, err := empty.Server("h"); err == nil || empty.IsAdmin("U1") {
		t.Error("a nil inventory finds servers or admins")
	}
}

func TestInventoryIsAdmin(t *testing.T) {
	inv := &Inventory{Admins: []string{"U0ADMIN1", "W0ENTERPRISE"}}
	for user, want := range map[string]bool{"U0ADMIN1": true, "u0admin1": true, "W0ENTERPRISE": true, "U0OTHER": false, "": false} {
		if got := inv.IsAdmin(user); got != want {
			t.Errorf("IsAdmin(%q) = %v", user, got)
		}
	}
}
