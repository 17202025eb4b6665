package lang

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

var phrasebookVerbose = flag.Bool("phrasebook.v", false, "list every phrasebook request that is not read as meant")

// phrase is one line of testdata/phrasebook.jsonl: a request as people type
// it and what a careful reader understands by it.
type phrase struct {
	Text   string         `json:"text"`
	Lang   string         `json:"lang"`
	Expect map[string]any `json:"expect"`
}

func loadPhrasebook(t testing.TB) []phrase { return loadPhrases(t, "testdata/phrasebook.jsonl") }

func loadPhrases(t testing.TB, path string) []phrase {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []phrase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var p phrase
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("phrasebook.jsonl:%d: %v", n, err)
		}
		out = append(out, p)
	}
	return out
}

// teamServers are deploy/servers.example.yaml's servers as hardware (the
// seeds' team: H200, A100 and V100 boxes of four GPUs).
func teamServers(t testing.TB, cat *planner.Catalog) []planner.Hardware {
	var hw []planner.Hardware
	for _, s := range []struct{ name, gpu string }{{"server-h", "h200-sxm-141gb"}, {"server-a", "a100-sxm4-80gb"}, {"server-v", "v100-sxm2-32gb"}} {
		g, _, err := cat.GPU(s.gpu)
		if err != nil {
			t.Fatal(err)
		}
		hw = append(hw, planner.Hardware{GPU: g, Count: 4, GPUsPerNode: 4, Interconnect: planner.NVLink, Server: s.name, IDs: []int{0, 1, 2, 3}})
	}
	return hw
}

// coreKeys are what "understood as meant" is judged on: the model, the
// workload, the GPU type and count (or server), and the amount of work.
var coreKeys = []string{"model", "params", "workload", "gpu", "gpu_mem", "count", "server", "epochs", "samples", "tokens", "steps"}

// judge compares a reading with the expectation and lists what differs,
// split into the core keys and the rest.
func judge(cat *planner.Catalog, r Reading, exp map[string]any) (core, other []string) {
	j := r.Request.Job
	miss := func(key string, got any) {
		s := fmt.Sprintf("%s: got %v, want %v", key, got, exp[key])
		for _, k := range coreKeys {
			if k == key {
				core = append(core, s)
				return
			}
		}
		other = append(other, s)
	}
	num := func(key string) (float64, bool) {
		v, ok := exp[key].(float64)
		return v, ok
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 0.02*math.Max(math.Abs(a), math.Abs(b)) }
	if v, ok := exp["model"].(string); ok && j.Model.ID != v {
		miss("model", j.Model.ID)
	}
	if v, ok := num("params"); ok && !(strings.HasPrefix(j.Model.Origin, "size") && math.Abs(j.Model.Params()-v) <= 0.1*v) {
		miss("params", j.Model.Params())
	}
	if v, ok := exp["workload"].(string); ok {
		got := effectiveWorkload(cat, r.Request)
		if string(got) != v {
			miss("workload", got)
		}
	}
	targets := r.Request.Targets
	if v, ok := exp["server"].(string); ok {
		found := false
		for _, h := range targets {
			found = found || h.Server == v
		}
		if !found {
			miss("server", hwList(targets))
		}
	}
	if v, ok := exp["gpu"].(string); ok {
		found := false
		for _, h := range targets {
			found = found || strings.Contains(h.GPU.ID, v)
		}
		if !found {
			miss("gpu", hwList(targets))
		}
	}
	if v, ok := num("gpu_mem"); ok {
		found := false
		for _, h := range targets {
			found = found || math.Abs(h.GPU.MemoryGB-v) <= 0.05*v
		}
		if !found {
			miss("gpu_mem", hwList(targets))
		}
	}
	if v, ok := num("count"); ok {
		found := r.GPUCount == int(v) // "8장으로" with no GPU named: the count is kept
		for _, h := range targets {
			found = found || h.Count == int(v)
		}
		if !found || r.CountOpen {
			miss("count", hwList(targets))
		}
	}
	if v, ok := num("epochs"); ok && !near(j.Epochs, v) {
		miss("epochs", j.Epochs)
	}
	if v, ok := num("samples"); ok && !near(j.DatasetSamples, v) && !near(j.Samples, v) {
		miss("samples", fmt.Sprintf("%v/%v", j.DatasetSamples, j.Samples))
	}
	if v, ok := num("tokens"); ok && !near(j.DatasetTokens, v) && !near(j.Tokens, v) {
		miss("tokens", fmt.Sprintf("%v/%v", j.DatasetTokens, j.Tokens))
	}
	if v, ok := num("steps"); ok && !near(j.Steps, v) {
		miss("steps", j.Steps)
	}
	if v, ok := num("seq"); ok && j.SeqLen != int(v) {
		miss("seq", j.SeqLen)
	}
	if v, ok := exp["precision"].(string); ok && string(j.Precision) != v {
		miss("precision", j.Precision)
	}
	if v, ok := exp["ask"].(string); ok && string(r.Ask) != v {
		miss("ask", r.Ask)
	}
	if v, ok := exp["dataset"].(string); ok {
		norm := func(s string) string {
			return strings.NewReplacer("-", "", " ", "", "the", "").Replace(strings.ToLower(s))
		}
		if !strings.Contains(norm(r.Dataset), norm(v)) && !strings.Contains(norm(v), norm(r.Dataset)) || r.Dataset == "" {
			miss("dataset", r.Dataset)
		}
	}
	if v, ok := exp["deadline"].(string); ok {
		want, err := time.ParseDuration(v)
		switch {
		case r.Deadline <= 0:
			miss("deadline", "none")
		case err == nil && math.Abs(r.Deadline.Hours()-want.Hours()) > 0.1*want.Hours():
			miss("deadline", r.Deadline)
		}
	}
	if _, ok := exp["baseline"]; ok && r.Request.Baseline == nil {
		miss("baseline", "none")
	}
	return core, other
}

// effectiveWorkload is the workload the plan uses: the one read, else the
// planner's default for the model.
func effectiveWorkload(cat *planner.Catalog, req planner.Request) planner.Workload {
	if req.Job.Workload != "" {
		return req.Job.Workload
	}
	req.NoSearch = true
	if len(req.Targets) == 0 {
		g, _, _ := cat.GPU("h100")
		req.Targets = []planner.Hardware{{GPU: g, Count: 1}}
	}
	res, err := cat.Plan(req)
	if err != nil {
		return ""
	}
	return res.Job.Workload
}

func hwList(hs []planner.Hardware) string {
	var s []string
	for _, h := range hs {
		s = append(s, HardwareWords(h))
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// TestPhrasebook reads every plan request of the phrasebook and reports
// the share understood as meant (the core keys), per language. It fails
// when the share drops under the floor the README reports, so a change
// that reads people worse cannot land quietly.
func TestPhrasebook(t *testing.T) {
	readShare(t, loadPhrasebook(t), phrasebookFloor, 200)
}

// TestHoldout measures the same on testdata/holdout.jsonl: requests written
// by someone who saw neither the parser nor the phrasebook, and which the
// language is not tuned on (a request from it that fails is fixed by a
// mechanism and a new phrasebook line, never by editing the holdout).
func TestHoldout(t *testing.T) {
	readShare(t, loadPhrases(t, "testdata/holdout.jsonl"), holdoutFloor, 100)
}

// TestHoldout2 is a second held-out set, by five personas (a polite new
// student, a terse senior engineer, an infra engineer, a researcher with
// typos, numbers in every form), under the same rule.
func TestHoldout2(t *testing.T) {
	readShare(t, loadPhrases(t, "testdata/holdout2.jsonl"), holdout2Floor, 100)
}

// TestHoldout3 is a third held-out set (a busy Korean channel, English DMs,
// measured runs and comparisons, terse mixed one-liners), under the same
// rule.
func TestHoldout3(t *testing.T) {
	readShare(t, loadPhrases(t, "testdata/holdout3.jsonl"), holdout3Floor, 100)
}

// TestHoldout4 is a fourth held-out set, written in the spirit of the
// requests the request-language issue quotes, under the same rule.
func TestHoldout4(t *testing.T) {
	readShare(t, loadPhrases(t, "testdata/holdout4.jsonl"), holdout4Floor, 100)
}

// TestHoldout5 is the fifth held-out set, written to be measured and not
// tuned on; on 2026-11-27 its misses were looked at with the others', so
// it is no longer blind.
func TestHoldout5(t *testing.T) {
	readShare(t, loadPhrases(t, "testdata/holdout5.jsonl"), holdout5Floor, 100)
}

// TestHoldout6 is the sixth held-out set (2026-11-27), written blind by a
// writer who read only the testdata README, the catalogue ids and the
// seeds: 95.0 % on its first run, before its misses were fixed.
func TestHoldout6(t *testing.T) {
	readShare(t, loadPhrases(t, "testdata/holdout6.jsonl"), holdout6Floor, 100)
}

// TestHoldout7 is the seventh held-out set (2026-11-27), written blind
// like the sixth in faster chat styles (Korean spelled-out GPU names and
// numbers, slang, no spaces): 78.3 % on its first run (Korean 66 %).
func TestHoldout7(t *testing.T) {
	readShare(t, loadPhrases(t, "testdata/holdout7.jsonl"), holdout7Floor, 100)
}

// TestHoldout8 is the eighth held-out set (2026-11-27), written blind:
// context before the question, server nicknames, latency targets,
// Konglish. 79.2 % on its first run.
func TestHoldout8(t *testing.T) {
	readShare(t, loadPhrases(t, "testdata/holdout8.jsonl"), holdout8Floor, 100)
}

// TestEnglish is an English-only set in many styles (abbreviations,
// non-native English, measured runs in every unit), tuned on.
func TestEnglish(t *testing.T) {
	readShare(t, loadPhrases(t, "testdata/english.jsonl"), englishFloor, 100)
}

func readShare(t *testing.T, phrases []phrase, floor float64, atLeast int) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)}
	type tally struct{ n, core, all int }
	by := map[string]*tally{}
	total := &tally{}
	for _, p := range phrases {
		if c, _ := p.Expect["command"].(string); c != "" && c != "plan" {
			continue
		}
		tl := by[p.Lang]
		if tl == nil {
			tl = &tally{}
			by[p.Lang] = tl
		}
		tl.n++
		total.n++
		if cr, ok := ReadCommand(env, p.Text); ok {
			// Dispatch tries sentences as commands first: a plan must not be taken for one
			if *phrasebookVerbose {
				t.Logf("TAKEN FOR %s %q: %q", cr.Name, cr.Args, p.Text)
			}
			continue
		}
		r, err := Read(env, p.Text)
		if err != nil {
			if *phrasebookVerbose {
				t.Logf("REFUSED %q: %v", p.Text, strings.ReplaceAll(err.Error(), "\n", " / "))
			}
			continue
		}
		core, other := judge(cat, r, p.Expect)
		if len(core) == 0 {
			tl.core++
			total.core++
			if len(other) == 0 {
				tl.all++
				total.all++
			}
		}
		if *phrasebookVerbose && len(core)+len(other) > 0 {
			t.Logf("MISREAD %q: %s | read as: %s", p.Text, strings.Join(append(core, other...), "; "), ReadAs(cat, r))
		}
	}
	for _, l := range []string{"en", "ko"} {
		if tl := by[l]; tl != nil {
			t.Logf("%s: %d of %d plan requests read as meant (%.0f%%); %d with every detail (question, deadline, dataset)",
				l, tl.core, tl.n, 100*float64(tl.core)/float64(tl.n), tl.all)
		}
	}
	share := float64(total.core) / float64(total.n)
	t.Logf("all: %d of %d (%.1f%%)", total.core, total.n, 100*share)
	if total.n < atLeast {
		t.Errorf("%d plan requests; keep at least %d", total.n, atLeast)
	}
	if share < floor {
		t.Errorf("%.1f%% read as meant, under the %.0f%% floor", 100*share, 100*floor)
	}
}

// phrasebookFloor is the share of the phrasebook the README reports,
// rounded down: raise it as the language reads more.
const phrasebookFloor = 0.95

// holdoutFloor is the held-out share the README reports, rounded down.
const holdoutFloor = 0.95

// holdout2Floor is the second held-out set's share, rounded down.
const holdout2Floor = 0.9

// holdout3Floor is the third held-out set's share, rounded down.
const holdout3Floor = 0.9

// holdout4Floor is the fourth held-out set's share, rounded down.
const holdout4Floor = 0.95

// holdout5Floor is the fifth held-out set's share, rounded down.
const holdout5Floor = 0.9

// holdout6Floor is the sixth held-out set's floor: its blind share,
// rounded down.
const holdout6Floor = 0.9

// holdout7Floor is the seventh held-out set's floor: its share after the
// spelled-out names were read, rounded down.
const holdout7Floor = 0.9

// holdout8Floor is the eighth held-out set's floor: its share after the
// first fixes (89 %), rounded down.
const holdout8Floor = 0.85

// englishFloor is the English set's share, rounded down.
const englishFloor = 0.9

// TestPhrasebookCommands reads the phrasebook's reservation, release,
// extend, wait and status sentences and checks the command, the server,
// the count or ids, and that the window words parse with the duration
// asked for.
func TestPhrasebookCommands(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat)}
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	n, ok := 0, 0
	for _, p := range loadPhrasebook(t) {
		name, _ := p.Expect["command"].(string)
		switch name {
		case "reserve", "release", "extend", "wait", "status", "digest", "help":
		default:
			continue
		}
		n++
		cr, found := ReadCommand(env, p.Text)
		var bad []string
		if !found || cr.Name != name {
			bad = append(bad, fmt.Sprintf("command %q", cr.Name))
		}
		args, _, _ := strings.Cut(cr.Args, " note ") // the note is the command's own
		words := strings.Fields(args)
		has := func(s string) bool {
			for _, w := range words {
				if w == s {
					return true
				}
			}
			return false
		}
		if v, ok := p.Expect["server"].(string); ok && !has(v) && !strings.Contains(cr.Args, v+"-") {
			bad = append(bad, "server")
		}
		if v, ok := p.Expect["count"].(float64); ok && (len(words) == 0 || words[0] != strconv.Itoa(int(v))) {
			bad = append(bad, "count")
		}
		if v, ok := p.Expect["ids"].([]any); ok {
			var s []string
			for _, x := range v {
				s = append(s, strconv.Itoa(int(x.(float64))))
			}
			if !has(strings.Join(s, ",")) {
				bad = append(bad, "ids")
			}
		}
		if v, ok := p.Expect["schedule"].(string); ok && !strings.Contains(cr.Args, v) {
			bad = append(bad, "schedule")
		}
		if v, ok := p.Expect["channel"].(string); ok && !has(v) {
			bad = append(bad, "channel")
		}
		if v, ok := p.Expect["action"].(string); ok && !has(v) {
			bad = append(bad, "action")
		}
		if v, ok := p.Expect["topic"].(string); ok && cr.Args != v {
			bad = append(bad, "topic")
		}
		if name == "reserve" || name == "wait" {
			var rest []string
			for k := 0; k < len(words); k++ {
				switch {
				case k == 0 && reqStartsNumber(words[k]):
				case words[k] == "on" || words[k] == "gpus":
					k++
				default:
					rest = append(rest, words[k])
				}
			}
			win, left, err := ParseWindow(rest, now, time.UTC)
			switch {
			case err != nil:
				bad = append(bad, "window: "+err.Error())
			case len(left) > 0:
				bad = append(bad, fmt.Sprintf("left %v", left))
			default:
				if v, ok := p.Expect["duration"].(string); ok && name == "reserve" {
					want, _ := time.ParseDuration(v)
					start := win.Start
					if start.IsZero() {
						start = now
					}
					if win.End.Sub(start) != want {
						bad = append(bad, fmt.Sprintf("duration %v", win.End.Sub(start)))
					}
				}
			}
		}
		if len(bad) == 0 {
			ok++
		} else if *phrasebookVerbose {
			t.Logf("MISREAD %q → %s %q: %s", p.Text, cr.Name, cr.Args, strings.Join(bad, "; "))
		}
	}
	t.Logf("commands: %d of %d read as meant (%.0f%%)", ok, n, 100*float64(ok)/float64(n))
	if float64(ok) < commandFloor*float64(n) {
		t.Errorf("%d of %d command sentences read as meant, under the %.0f%% floor", ok, n, 100*commandFloor)
	}
}

// commandFloor is the share of command sentences the README reports,
// rounded down.
const commandFloor = 0.95
