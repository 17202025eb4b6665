package planner

import "testing"

// ZeRO and FSDP shard a routed expert over the GPUs that hold a copy of
// it (the expert data-parallel group, dp/ep), not over all of dp again:
// a 141B MoE's full fine-tune needs its 16 bytes a parameter somewhere,
// 2.26 TB, more than 8 H200s hold, and fits on 32.
func TestMoEStatesShardOverTheExpertGroup(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "mixtral-8x22b"), Workload: Finetune, SeqLen: 2048, MicroBatch: 1}
	for n, fits := range map[int]bool{8: false, 32: true} {
		res := mustPlan(t, c, Request{Job: job, NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h200", n)}})
		if e := res.Plans[0]; e.Memory.Fits != fits {
			t.Errorf("%d× H200: fits %v at %.0f GiB per GPU; want %v", n, e.Memory.Fits, e.Memory.PerGPUGiB, fits)
		}
	}
	// whatever the layout, the states across the GPUs are at least the
	// model's 16 bytes a parameter
	e := mustPlan(t, c, Request{Job: job, NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h200", 32)}}).Plans[0]
	var states float64
	for _, it := range e.Memory.Breakdown {
		if it.Name == "weights" || it.Name == "gradients" || it.Name == "optimizer states" {
			states += it.GiB
		}
	}
	if total := states * float64(e.GPUs) * (1 << 30); total < 0.95*16*job.Model.Params() {
		t.Errorf("32× H200: %.2f TB of states in all, under the 16 B/param %.2f TB", total/1e12, 16*job.Model.Params()/1e12)
	}
}
