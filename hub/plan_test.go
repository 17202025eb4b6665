package hub

import (
	"context"
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

// Every model read from the fake Hub plans end to end — training and
// inference on 8× H100 — and, where the catalogue has the same
// architecture, the plan's memory and step time match the catalogue
// model's within a few per cent.
func TestHubModelsPlanEndToEnd(t *testing.T) {
	hub := newFakeHub(t)
	c := hub.client(t, goodToken)
	cat := planner.DefaultCatalog()
	g, _, err := cat.GPU("h100")
	if err != nil {
		t.Fatal(err)
	}
	target := []planner.Hardware{{GPU: g, Count: 8}}
	plan := func(m planner.Model, w planner.Workload) *planner.Estimate {
		t.Helper()
		job := planner.Job{Model: m, Workload: w, Steps: 100, GlobalBatch: 64}
		if w == planner.Inference {
			job = planner.Job{Model: m, Workload: w, Samples: 1000}
		}
		res, err := cat.Plan(planner.Request{NoSearch: true, Targets: target, Job: job})
		if err != nil {
			t.Fatalf("%s %s: %v", m.ID, w, err)
		}
		if len(res.Plans) != 1 {
			t.Fatalf("%s %s: %d plans", m.ID, w, len(res.Plans))
		}
		e := res.Plans[0]
		if e.Memory.PerGPUGiB <= 0 || math.IsNaN(e.Memory.PerGPUGiB) || e.Time.StepS <= 0 || math.IsNaN(e.Time.StepS) {
			t.Errorf("%s %s: memory %v GiB, step %v s", m.ID, w, e.Memory.PerGPUGiB, e.Time.StepS)
		}
		if res.Model.ID != m.ID || res.Model.Source != m.Source {
			t.Errorf("%s %s: plan reports model %q from %q", m.ID, w, res.Model.ID, res.Model.Source)
		}
		return e
	}
	compared := 0
	for _, rc := range recordedConfigs {
		m, err := Load(context.Background(), c, rc.id)
		if err != nil {
			t.Fatal(err)
		}
		workloads := []planner.Workload{planner.Finetune, planner.Inference}
		if m.ParamsB > 200 {
			workloads = []planner.Workload{planner.Inference} // full fine-tuning does not fit one node
		}
		for _, w := range workloads {
			e := plan(m, w)
			if rc.catalog == "" {
				continue
			}
			ref, _, err := cat.Model(rc.catalog)
			if err != nil || ref.ID != rc.catalog {
				continue
			}
			if w == planner.Inference && ref.Kind == planner.MoE {
				// The planner sizes DeepSeek's latent KV cache by catalogue
				// id; a Hub model is sized as the heads it lists.
				continue
			}
			r := plan(ref, w)
			compared++
			if e.Fits() != r.Fits() || relErr(e.Memory.PerGPUGiB, r.Memory.PerGPUGiB) > 0.05 || relErr(e.Time.StepS, r.Time.StepS) > 0.05 {
				t.Errorf("%s %s: %.1f GiB/GPU %.4g s/step (fits %v), catalogue %s: %.1f GiB %.4g s (fits %v)",
					rc.id, w, e.Memory.PerGPUGiB, e.Time.StepS, e.Fits(), ref.ID, r.Memory.PerGPUGiB, r.Time.StepS, r.Fits())
			}
		}
	}
	if compared < 8 {
		t.Errorf("only %d plans compared with the catalogue's", compared)
	}
}
