package planner

import (
	"fmt"
	"strings"
	"testing"
)

// marker is a Printer that brackets every message it writes, so a test
// can tell a sentence that went through the reader's language from one
// the planner wrote in English on its own.
type marker struct{}

func (marker) T(key string) string               { return "‹" + key + "›" }
func (marker) Tf(key string, args ...any) string { return "‹" + fmt.Sprintf(key, args...) + "›" }

// TestEverySentenceGoesThroughThePrinter plans the kinds of requests
// people send (a rebased comparison, an out-of-memory fine-tune, a sharded
// pre-train, serving, llama.cpp with CPU layers, a CNN, a server build)
// with a marking Printer and fails for any text a reader sees that did not
// go through it: advice (but the launch line, a command), warnings,
// assumptions, notes, the amount of work, memory lines, interconnects,
// rates and times.
func TestEverySentenceGoesThroughThePrinter(t *testing.T) {
	c := DefaultCatalog()
	base := mustModel(t, c, "bert-base")
	logbert, _ := ModelFromArch(&base, ArchSpec{Vocab: 10000})
	v100 := mustGPU(t, c, "v100-32gb", 4)
	reqs := map[string]Request{
		"logbert rebased": {Job: Job{Model: logbert, Workload: Pretrain, SeqLen: 512, GlobalBatch: 128, StepsPerEpoch: 19252, Epochs: 10},
			Targets: []Hardware{mustGPU(t, c, "h200", 4), mustGPU(t, c, "a100", 4), v100}, Compare: true,
			Baseline: &Baseline{Value: 5.67, Unit: HoursPerEpoch, Hardware: v100, Precision: FP32}},
		"8b full fine-tune on a 4090": {Job: Job{Model: mustModel(t, c, "llama-3-8b"), Workload: Finetune, SeqLen: 2048, Samples: 1e4},
			Targets: []Hardware{mustGPU(t, c, "4090", 1)}, NoSearch: true},
		"70b pre-train, epochs only": {Job: Job{Model: mustModel(t, c, "llama-3.1-70b"), Workload: Pretrain, Epochs: 2},
			Targets: []Hardware{mustGPU(t, c, "h100", 8)}},
		"bert on h100s, no batch": {Job: Job{Model: base, Epochs: 3, DatasetSamples: 2.5e6},
			Targets: []Hardware{mustGPU(t, c, "h100", 8)}},
		"hours without amount": {Job: Job{Model: mustModel(t, c, "gpt2"), Workload: Pretrain, GlobalBatch: 64},
			Targets: []Hardware{mustGPU(t, c, "h100", 2)}, NoSearch: true,
			Baseline: &Baseline{Value: 385, Unit: Hours, Hardware: mustGPU(t, c, "a6000", 1)}},
		"vllm at a rate": {Job: Job{Model: mustModel(t, c, "llama-3.1-8b"), Workload: Inference, Engine: EngineVLLM, RequestRate: 500},
			Targets: []Hardware{mustGPU(t, c, "a100", 2)}, NoSearch: true},
		"llama.cpp with CPU layers": {Job: Job{Model: mustModel(t, c, "llama-3.1-70b"), Workload: Inference, GGUFType: "Q4_K_M"},
			Targets: []Hardware{mustGPU(t, c, "rtx-4090", 1)}, NoSearch: true},
		"resnet inference": {Job: Job{Model: mustModel(t, c, "resnet-50"), Workload: Inference},
			Targets: []Hardware{mustGPU(t, c, "t4", 2)}, NoSearch: true},
	}
	for name, req := range reqs {
		req.Printer = marker{}
		res, err := c.Plan(req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		check := func(what, s string) {
			if s != "" && !strings.HasPrefix(s, "‹") {
				t.Errorf("%s: %s %q did not go through the printer", name, what, s)
			}
		}
		for _, a := range res.Advice {
			if a.Topic != "launch" {
				check("advice ("+a.Topic+")", a.Text)
			}
			check("topic", TopicLabel(marker{}, a.Topic))
		}
		for _, s := range res.Warnings {
			check("warning", s)
		}
		for _, s := range res.Assumptions {
			check("assumption", s)
		}
		for _, s := range res.Recommendations.Notes {
			check("recommendation note", s)
		}
		check("amount", res.Job.Amount)
		check("speed-up base", res.SpeedUpBase)
		if res.Baseline != nil {
			check("baseline explanation", res.Baseline.Explanation)
		}
		es := append([]*Estimate(nil), res.Plans...)
		es = append(es, res.Recommendations.Fastest, res.Recommendations.Cheapest, res.Recommendations.Balanced)
		for _, e := range es {
			if e == nil {
				continue
			}
			for _, s := range append(append([]string(nil), e.Notes...), e.Assumptions...) {
				check("estimate line", s)
			}
			for _, it := range e.Memory.Breakdown {
				check("memory line", it.Name)
			}
			check("interconnect", e.Interconnect)
			if !strings.ContainsAny(e.Strategy, "DZTPF") { // DDP, ZeRO-n, TPn, PPn, FSDP are what engineers say
				check("strategy", e.Strategy)
			}
			if req.Job.Workload == Inference {
				check("rate", e.RateTextIn(marker{}))
			}
			if e.Time.TotalHours != nil {
				check("hours", FormatHoursIn(marker{}, *e.Time.TotalHours))
			}
		}
	}
	for _, hw := range []Hardware{mustGPU(t, c, "4090", 4), mustGPU(t, c, "v100", 8), mustGPU(t, c, "h100", 8), mustGPU(t, c, "t4", 1)} {
		b, err := c.BuildIn(hw, marker{})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range append(append([]string{b.Circuits, b.Platform, b.PeerToPeer, b.AllReduceRoute}, b.Cooling...), b.Notes...) {
			if s != "" && !strings.HasPrefix(s, "‹") {
				t.Errorf("build %dx %s: %q did not go through the printer", hw.Count, hw.GPU.Name, s)
			}
		}
	}
	if _, err := c.Plan(Request{Job: Job{Model: base}, Targets: []Hardware{mustGPU(t, c, "h100", MaxGPUs+1)}, Printer: marker{}}); err == nil ||
		!strings.HasPrefix(err.Error(), "‹") {
		t.Errorf("a refusal is the reader's words too: %v", err)
	}
}

// TestNoPrinterIsEnglish holds the default to the English a nil Printer
// has always written.
func TestNoPrinterIsEnglish(t *testing.T) {
	if got := FormatHoursIn(nil, 5.67); got != "5.7 h" || got != FormatHours(5.67) {
		t.Errorf("FormatHoursIn(nil) = %q", got)
	}
	if got := FormatUSDIn(nil, 0.001); got != "under $0.01" {
		t.Errorf("FormatUSDIn(nil) = %q", got)
	}
	if got := TopicLabel(nil, "out of memory"); got != "out of memory" {
		t.Errorf("TopicLabel(nil) = %q", got)
	}
}
