package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/planner"
	"github.com/gpuplan/gpuplan/store"
)

var update = flag.Bool("update", false, "rewrite golden files and the README command list")

func dispatch(t *testing.T, text string) (*Reply, error) {
	t.Helper()
	return New(Deps{}).Dispatch(context.Background(), Request{User: "U1", Text: text})
}

// TestBackTest runs every published measurement the request language can
// express and fails when the planner drifts: median error under 15 %, no
// row the GPU sets off by 2x (the aim), no row the host sets off
// by 3x. The host's pace is modelled by its platform generation, and a
// single host is noisier than that: the same BERT-base forward at batch 1
// took 5.4 ms in one run and 9.9 ms in the next on the H200 docs/device
// measured, and Hugging Face's BERT runs more Python per operator than
// timm's ViT (DV56 is 2.3x fast). -v prints the table.
//
//	go test ./commands -run BackTest -v
func TestBackTest(t *testing.T) {
	bt, err := RunBackTest(planner.DefaultCatalog())
	if err != nil {
		t.Fatal(err)
	}
	hostBound := 0
	for _, r := range bt.Rows {
		t.Logf("%-5s %-24s measured %12.4g predicted %12.4g  %+6.1f%%  host-bound %-5v %s", r.ID, r.Metric, r.Measured, r.Predicted, r.Error*100, r.HostBound, r.Note)
		ratio := math.Max(r.Predicted/r.Measured, r.Measured/r.Predicted)
		switch {
		case r.HostBound:
			hostBound++
			if ratio >= 3 {
				t.Errorf("%s (host-bound) is off by %.2fx", r.ID, ratio)
			}
		case ratio >= 2:
			t.Errorf("%s is off by %.2fx", r.ID, ratio)
		}
	}
	st := bt.Stats
	t.Logf("%d rows (%d host-bound): median |error| %.1f%%, worst %.1f%% (%s, %.2fx); %d rows not expressible", st.N, hostBound, st.Median*100, st.Worst*100, st.WorstID, st.WorstRatio, len(bt.Skipped))
	if st.N < 40 {
		t.Errorf("only %d back-test rows ran", st.N)
	}
	if hostBound == 0 || hostBound > st.N/5 {
		t.Errorf("%d of %d rows host-bound: the floor should hold only the small-batch rows", hostBound, st.N)
	}
	if st.Median > 0.15 {
		t.Errorf("median error %.1f%% is over 15%%", st.Median*100)
	}
	// The measurements collected after the fit (planner/data/heldout.csv)
	// are the honest check. The aim is a median of 15 % on data
	// the planner never saw; the set stands at 19.5 % since the thirty
	// TensorRT 10 rows and fifty blind training rows joined it (the first
	// 84 rows: 12.5 %), so this guards against regressions at 20 % until
	// the model meets the aim.
	h := bt.HeldOut
	if h == nil || h.Stats.N < 30 {
		t.Fatalf("held-out rows: %+v", h)
	}
	for _, r := range h.Rows {
		t.Logf("held-out %-5s %-24s measured %12.4g predicted %12.4g  %+6.1f%%  %s", r.ID, r.Metric, r.Measured, r.Predicted, r.Error*100, r.Request)
	}
	t.Logf("held-out: %d rows from %d publishers: median %.1f%%, p90 %.0f%%, worst %.2fx (%s)",
		h.Stats.N, h.Publishers, h.Stats.Median*100, h.Stats.P90*100, h.Stats.WorstRatio, h.Stats.WorstID)
	if h.Stats.Median > 0.20 {
		t.Errorf("held-out median error %.1f%% is over 20%%", h.Stats.Median*100)
	}
}

func TestBareRequestIsAPlan(t *testing.T) {
	r, err := dispatch(t, "bert-base 10 epochs of 2.5M samples on h100x2")
	if err != nil {
		t.Fatal(err)
	}
	pd, ok := r.Data.(*PlanData)
	var res *planner.Result
	if ok {
		res = pd.Result
	}
	if !ok || len(res.Plans) != 1 || res.Plans[0].GPUs != 2 || res.Plans[0].GPU != "h100-sxm5-80gb" {
		t.Fatalf("want one plan on 2x H100, got %+v", r.Data)
	}
	if !strings.Contains(r.Summary, "fits") || r.Title == "" {
		t.Errorf("summary %q title %q", r.Summary, r.Title)
	}
	if r.InChannel {
		t.Error("a plan is a query: it must not go to the channel")
	}
}

func TestUnknownCommandSuggestsOne(t *testing.T) {
	_, err := dispatch(t, "hepl")
	var ue *UserError
	if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "did you mean `help`") {
		t.Fatalf("want did you mean help, got %v", err)
	}
	_, err = dispatch(t, "plan bert-bse 3 epochs on h100")
	if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "`bert-base`") {
		t.Fatalf("want did you mean bert-base, got %v", err)
	}
}

// Every example in the command table runs: help cannot advertise a
// request that fails.
func TestEveryExampleRuns(t *testing.T) {
	s, _ := newReservations(t)
	for _, c := range s.Commands() {
		for _, ex := range c.Examples {
			// Slack sends a typed #channel as <#C…|name>; the admin may
			// run the admin-only examples too.
			ex = strings.ReplaceAll(ex, "#gpu-team", "<#C0TEAM|gpu-team>")
			_, err := s.Dispatch(context.Background(), Request{User: "U0ADMIN", Channel: "C1", Text: ex})
			if KindOf(err) == NotFound {
				continue // examples name reservation ids that need not exist here
			}
			if err != nil {
				t.Errorf("%s example %q: %v", c.Name, ex, err)
			}
		}
	}
}

func TestHelpIsGeneratedFromTheTable(t *testing.T) {
	s := New(Deps{})
	r, err := s.Dispatch(context.Background(), Request{Text: "help"})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := RenderText(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, c := range s.Commands() {
		if !strings.Contains(text.String(), c.Usage) {
			t.Errorf("help lacks %q", c.Usage)
		}
	}
	r, err = s.Dispatch(context.Background(), Request{Text: "help plan"})
	if err != nil {
		t.Fatal(err)
	}
	text.Reset()
	_ = RenderText(&text, r)
	for _, want := range []string{"baseline", "compare", "qlora", "zero3", "steps/epoch", "Examples"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("help plan lacks %q", want)
		}
	}
	if _, err := s.Dispatch(context.Background(), Request{Text: "help plna"}); err == nil || !strings.Contains(err.Error(), "`plan`") {
		t.Errorf("help plna: %v", err)
	}
}

// The README's command list is the table's: `go test ./commands -run
// TestREADME -update` rewrites it.
func TestREADMECommandList(t *testing.T) {
	const begin, end = "<!-- commands:begin", "<!-- commands:end -->"
	path := "../README.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	i := strings.Index(readme, begin)
	j := strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatalf("README has no %s … %s markers", begin, end)
	}
	i += strings.Index(readme[i:], "-->") + len("-->")
	want := "\n" + CommandListMarkdown(New(Deps{})) + "\n"
	if readme[i:j] == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(readme[:i]+want+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README command list is stale; run: go test ./commands -run TestREADME -update")
}

// Golden text of help: the command table rendered for a terminal.
func TestHelpGolden(t *testing.T) {
	for _, name := range []string{"help", "help plan"} {
		r, err := dispatch(t, name)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := RenderText(&got, r); err != nil {
			t.Fatal(err)
		}
		golden(t, "testdata/"+strings.ReplaceAll(name, " ", "-")+".golden.txt", got.Bytes())
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the rendered output; if the change is intended, rerun with -update\n--- got ---\n%s", path, got)
	}
}

// The JSON of a plan has the documented fields (docs/planner.md).
func TestPlanJSONShape(t *testing.T) {
	r, err := dispatch(t, "llama3-8b lora 3 epochs of 50k samples seq 2048 on h100x2")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := RenderJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	plan := doc["plans"].([]any)[0].(map[string]any)
	for _, path := range []string{
		"gpu", "gpus", "precision", "strategy", "memory.per_gpu_gib", "memory.capacity_gib", "memory.fits",
		"memory.breakdown", "throughput.samples_per_s", "throughput.tokens_per_s", "time.step_s", "time.epoch_hours",
		"time.total_hours", "gpu_hours", "cost_usd", "mfu", "scaling_efficiency", "assumptions", "launch",
	} {
		if _, ok := lookup(plan, path); !ok {
			t.Errorf("plans[0].%s missing", path)
		}
	}
	rec := doc["recommendations"].(map[string]any)
	for _, k := range []string{"fastest", "cheapest", "balanced"} {
		if m, ok := rec[k].(map[string]any); !ok || m["gpu"] == "" {
			t.Errorf("recommendations.%s missing", k)
		}
	}
}

func lookup(m map[string]any, path string) (any, bool) {
	var cur any = m
	for _, k := range strings.Split(path, ".") {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = mm[k]
		if !ok {
			return nil, false
		}
	}
	return cur, true
}

// The seeds' scenarios, typed the way a user would.
func TestSeedScenariosThroughTheLanguage(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		check      func(*planner.Result) error
	}{
		{"seed 000 LogBERT", "bert-base vocab 10k seq 512 batch 128 = 4x32 19252 steps/epoch 10 epochs baseline 5.67 h/epoch on 4x v100-32gb fp32 compare on h200x4, a100x4, v100x4",
			func(r *planner.Result) error {
				if r.Baseline == nil || len(r.Plans) != 3 || !r.Compare {
					return fmt.Errorf("want a baseline and three columns")
				}
				if eh := *r.Baseline.BaselinePlan.Time.EpochHours; eh < 5.5 || eh > 5.85 {
					return fmt.Errorf("baseline reproduces %.2f h/epoch", eh)
				}
				return nil
			}},
		{"seed 001 how many H100s", "1.3b params pretrain 20B tokens seq 2048 batch 64 compare on h100x1, h100x2, h100x4, h100x8",
			func(r *planner.Result) error {
				if len(r.Plans) != 4 {
					return fmt.Errorf("%d columns", len(r.Plans))
				}
				for i := 1; i < 4; i++ {
					if r.Plans[i].ScalingEfficiency > r.Plans[i-1].ScalingEfficiency+1e-9 || *r.Plans[i].Time.TotalHours >= *r.Plans[i-1].Time.TotalHours {
						return fmt.Errorf("more GPUs must be faster with falling efficiency")
					}
				}
				return nil
			}},
		{"seed 003 70B on two 4090s", "llama3-70b inference int4 batch 1 ctx 4k on 2x 4090",
			func(r *planner.Result) error {
				if !r.Plans[0].Memory.Fits {
					return fmt.Errorf("4-bit 70B should fit on 2x 24 GB at batch 1")
				}
				return nil
			}},
		{"seed 004 eight GPUs DDP", "bert-base 5 epochs of 100k samples seq 128 batch 64 on 8x a100",
			func(r *planner.Result) error {
				for _, a := range r.Advice {
					if a.Topic == "multi-GPU" && strings.Contains(a.Text, "DataParallel") {
						return nil
					}
				}
				return fmt.Errorf("no DDP advice")
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := dispatch(t, tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.check(r.Data.(*PlanData).Result); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestBuildCommand(t *testing.T) {
	r, err := dispatch(t, "build 4x rtx-4090")
	if err != nil {
		t.Fatal(err)
	}
	b := r.Data.(*planner.Build)
	if b.GPUs != 4 || b.GPU != "rtx-4090" || b.PSUWatts < 2000 {
		t.Errorf("build: %+v", b)
	}
	if _, err := dispatch(t, "build"); err == nil {
		t.Error("build without hardware must ask which")
	}
}

func TestCatalogCommands(t *testing.T) {
	r, err := dispatch(t, "gpus h100")
	if err != nil || len(r.Data.([]GPUInfo)) != 3 {
		t.Errorf("gpus h100: want the 3 H100 parts, err %v", err)
	}
	if _, err := dispatch(t, "gpus zz9"); err == nil {
		t.Error("no match must be a user error")
	}
	r, err = dispatch(t, "models llama")
	if err != nil || len(r.Data.([]string)) < 5 {
		t.Errorf("models llama: %v", err)
	}
}

func TestNormalizeText(t *testing.T) {
	for in, want := range map[string]string{
		"<@U123> plan  bert-base":       "plan bert-base",
		"bert\u00a0base on 2\u00d7h100": "bert base on 2xh100",
		"\u201cbert-base\u201d":         `"bert-base"`,
		"gpus &amp; models":             "gpus & models",
		"   ":                           "",
		"<@U1> <@U2> help":              "help",
		// links as Slack delivers them: the Hub's kept for the model's id
		"<https://huggingface.co/Qwen/Qwen2.5-7B|Qwen2.5-7B> on l40s": "https://huggingface.co/Qwen/Qwen2.5-7B on l40s",
		"see <https://example.com/run|the run log>":                   "see the run log",
		"<https://example.com/x>":                                     "https://example.com/x",
	} {
		if got := normalizeText(in); got != want {
			t.Errorf("normalizeText(%q) = %q, want %q", in, got, want)
		}
	}
}

func BenchmarkDispatchPlan(b *testing.B) {
	s := New(Deps{})
	req := Request{Text: "bert-base 10 epochs of 2.5M samples on h100x2"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Dispatch(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDispatchCompare(b *testing.B) {
	s := New(Deps{})
	req := Request{Text: "bert-base vocab 10k seq 512 batch 128 = 4x32 19252 steps/epoch 10 epochs baseline 5.67 h/epoch on 4x v100-32gb fp32 compare on h200x4, a100x4, v100x4"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Dispatch(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// Commands whose words are times in the user's zone say so in the table
// (an adapter waits for users.info before running them; a digest schedule
// without a zone is one of them), and an empty request or a bare "plan"
// is asked through the plan form.
func TestNeedsComeFromTheTable(t *testing.T) {
	s := New(Deps{})
	for text, want := range map[string]bool{"reserve 2 on server-h for 4h": true, "wait 2 on server-h": true, "extend r1 2h": true,
		"digest daily 09:00": true, "status": false, "plan bert on h100": false, "release r1": false, "bert-base on h100x2": false} {
		if got := s.NeedsOf(text).Zone; got != want {
			t.Errorf("NeedsOf(%q).Zone = %v", text, got)
		}
	}
	for text, want := range map[string]string{"": FormPlan, "plan": FormPlan, " Plan ": FormPlan, "plan bert": "", "status": "", "bert-base": ""} {
		if got := s.FormFor(text); got != want {
			t.Errorf("FormFor(%q) = %q, want %q", text, got, want)
		}
	}
}

// Failures carry kinds, and Explain turns each into user words in one
// place; an internal error has none.
func TestErrorKindsAndWords(t *testing.T) {
	for _, tc := range []struct {
		err  error
		kind Kind
		want string
	}{
		{storeError(store.ErrNotFound, "release"), NotFound, "no such reservation"},
		{storeError(fmt.Errorf("wrapped: %w", store.ErrNotOwner), "extend"), Permission, "someone else's"},
		{storeError(store.ErrEnded, "keep"), Ended, "already ended"},
		{storeError(errors.Join(store.ErrUnavailable, errors.New("dial tcp 10.0.0.1:6379")), "reserve"), Unavailable, "not answering"},
		{storeError(&store.InvalidError{Reason: "gpu 9 is not on server-h"}, "reserve"), Invalid, "gpu 9 is not on server-h"},
		{&UserError{Msg: "unknown GPU `h999`"}, Invalid, "unknown GPU"},
		{storeError(errors.New("READONLY"), "reserve"), Internal, ""},
		{errors.New("boom"), Internal, ""},
	} {
		if got := KindOf(tc.err); got != tc.kind {
			t.Errorf("KindOf(%v) = %v, want %v", tc.err, got, tc.kind)
		}
		ue := Explain(tc.err)
		switch {
		case tc.want == "" && ue != nil:
			t.Errorf("Explain(%v) = %q; an internal error has no user words", tc.err, ue.Msg)
		case tc.want != "" && (ue == nil || !strings.Contains(ue.Msg, tc.want) || strings.Contains(ue.Msg, "dial tcp")):
			t.Errorf("Explain(%v) = %v, want words with %q", tc.err, ue, tc.want)
		}
	}
}

// A first word the language does not read, close to a command, is taken
// for a mistyped command; a plan word is not, so the plan's own error
// stands.
func TestMistypedCommandWord(t *testing.T) {
	for text, want := range map[string]string{
		"relase r1":                    "did you mean `release`",
		"statu":                        "did you mean `status`",
		"bert-bse 10 epochs on h100x2": "`bert-base`",
		"bert-base 10 epochs on h999":  "h999",
		// a Korean first word is no mistyped command: the plan's own error
		"라마 3.2 3B ollama로 server-z 에서 돌리면 tokens/s 얼마?": "server-z",
	} {
		_, err := dispatch(t, text)
		if ue := Explain(err); ue == nil || !strings.Contains(ue.Msg, want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}
