package planner

import "testing"

// The search leaves an option untimed, and a layout unsized, on the
// strength of floorPerSample: it must stay under timeStep's seconds per
// sample for every layout of every option the search lists, on every job
// the equivalence test plans (the back-test rows, the seeds, the shapes
// the pruning treats differently) and on the shapes below, which reach
// the floor's other branches. A change to the time model that breaks the
// floor fails here, before it changes a recommendation.
func TestFloorUnderEveryLayout(t *testing.T) {
	c := DefaultCatalog()
	cases, err := c.BackTestCases()
	if err != nil {
		t.Fatal(err)
	}
	type named struct {
		name string
		req  Request
	}
	var reqs []named
	for _, bc := range cases {
		req := bc.Request
		req.NoSearch = false
		reqs = append(reqs, named{"backtest " + bc.ID, req})
	}
	for _, r := range equivRequests(t, c) {
		reqs = append(reqs, named{r.name, r.req})
	}
	m := func(name string) Model { return mustModel(t, c, name) }
	reqs = append(reqs, []named{
		{"70B FSDP tuned (FSDP beside TP/PP)", Request{Job: Job{Model: m("llama-3-70b"), Workload: Pretrain, Stack: Tuned, Strategy: FSDP, SeqLen: 4096, GlobalBatch: 1024, Tokens: 1e11}}},
		{"13B eager ZeRO-3", Request{Job: Job{Model: m("llama-2-13b"), Workload: Finetune, Strategy: ZeRO3, Attention: Eager, SeqLen: 2048, GlobalBatch: 256, Tokens: 1e9}}},
		{"70B tuned micro-batch given, pipeline", Request{Job: Job{Model: m("llama-3-70b"), Workload: Pretrain, Stack: Tuned, MicroBatch: 2, SeqLen: 4096, GlobalBatch: 512, Tokens: 1e11}}},
		{"70B tuned no global batch", Request{Job: Job{Model: m("llama-3-70b"), Workload: Pretrain, Stack: Tuned, SeqLen: 4096, Tokens: 1e11}}},
		{"8B full offload", Request{Job: Job{Model: m("llama-3-8b"), Workload: Finetune, Offload: OffloadFull, SeqLen: 2048, GlobalBatch: 32, Samples: 1e4}}},
		{"70B QLoRA tuned", Request{Job: Job{Model: m("llama-3-70b"), Workload: QLoRA, Stack: Tuned, SeqLen: 2048, GlobalBatch: 16, Samples: 1e4}}},
		{"mixtral ZeRO-3 checkpointing", Request{Job: Job{Model: m("mixtral-8x7b"), Workload: Pretrain, Strategy: ZeRO3, Checkpointing: true, SeqLen: 4096, GlobalBatch: 256, Tokens: 1e10}}},
		{"8B tuned context parallel 2", Request{Job: Job{Model: m("llama-3-8b"), Workload: Pretrain, Stack: Tuned, ContextParallel: 2, SeqLen: 32768, GlobalBatch: 64, Tokens: 1e10}}},
	}...)
	defer func() { reference = nil }()
	for _, r := range reqs {
		t.Run(r.name, func(t *testing.T) {
			checked := 0
			reference = &referenceSearch{
				choose: (*planContext).refChoose,
				search: func(pc *planContext, pool []Hardware) Recommendations {
					checked += checkFloors(t, pc, pool)
					return pc.refSearch(pool)
				},
			}
			if _, err := c.Plan(r.req); err != nil {
				t.Skipf("not planned: %v", err)
			}
			if r.req.Job.Workload != Inference && !r.req.NoSearch && checked == 0 {
				t.Error("no layout had a floor to check")
			}
		})
	}
}

// checkFloors holds every option of the search over pool (nil: the
// catalogue) to its floor, layout by layout, and returns how many layouts
// it checked.
func checkFloors(t *testing.T, pc *planContext, pool []Hardware) int {
	t.Helper()
	sp := searchSpace{pool: pool, gpus: pc.cat.GPUs, cp: pc.job.ContextParallel}
	fj := pc.floorJob()
	checked := 0
	for i := range sp.len() {
		h, ok := sp.at(i)
		if !ok {
			continue
		}
		fg := pc.floorGPU(&h.GPU)
		var floors layoutFloors
		least := pc.floorPerSample(&h, &fj, &fg, &floors)
		if least == 0 {
			continue
		}
		pc.eachLayout(h, fg.prec, func(_ int, l layout) bool {
			s := pc.size(l)
			ts := pc.timeStep(&h, &s)
			per := ts.step / float64(s.global)
			if f := floors.of(&l); !(f >= least && f <= per) {
				t.Errorf("%d× %s, %s (micro %d, ga %d, global %d): %.6g s per sample, under its floor %.6g (option floor %.6g)",
					h.Count, h.GPU.ID, strategyName(s.l), s.l.micro, s.ga, s.global, per, f, least)
			}
			checked++
			return true
		})
	}
	return checked
}

// NoCheckpointing keeps every layout without recompute: a job that fits
// only with checkpointing does not fit, and says so.
func TestNoCheckpointingIsNeverRecomputed(t *testing.T) {
	c := DefaultCatalog()
	j := Job{Model: mustModel(t, c, "llama-3-8b"), Workload: LoRA, SeqLen: 2048, NoCheckpointing: true}
	r := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "rtx-4090", 1)}, Job: j})
	if e := r.Plans[0]; e.Checkpointing || e.Memory.Fits {
		t.Errorf("no-ckpt on a 4090: ckpt %v, fits %v (%.1f GiB)", e.Checkpointing, e.Memory.Fits, e.Memory.PerGPUGiB)
	}
	j.NoCheckpointing = false
	if e := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "rtx-4090", 1)}, Job: j}).Plans[0]; !e.Checkpointing || !e.Memory.Fits {
		t.Errorf("free to choose: ckpt %v, fits %v", e.Checkpointing, e.Memory.Fits)
	}
}
