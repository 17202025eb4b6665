package planner

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The pruned search (search.go) must answer exactly as the exhaustive one
// it replaced (search_ref_test.go): the same picks, every field the card
// shows, on every back-test row, the seeds' requests and the shapes of
// job the search prunes differently (sharded, tensor/pipeline parallel,
// nothing fits, a team pool, inference).
func TestPrunedSearchMatchesExhaustive(t *testing.T) {
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
		req.NoSearch = false // the back-test plans its targets; the card also searches
		reqs = append(reqs, named{"backtest " + bc.ID, req})
	}
	for _, r := range equivRequests(t, c) {
		reqs = append(reqs, named{r.name, r.req})
	}
	for _, r := range reqs {
		t.Run(r.name, func(t *testing.T) {
			got, gotErr := c.Plan(r.req)
			restore := useReferenceSearch()
			want, wantErr := c.Plan(r.req)
			restore()
			if (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("error: pruned %v, exhaustive %v", gotErr, wantErr)
			}
			if gotErr != nil {
				return
			}
			sameResult(t, got, want)
		})
	}
}

func sameResult(t *testing.T, got, want *Result) {
	t.Helper()
	g, w := got.Recommendations, want.Recommendations
	if g.Considered != w.Considered || g.Feasible != w.Feasible {
		t.Errorf("searched %d, %d fit; exhaustive %d, %d", g.Considered, g.Feasible, w.Considered, w.Feasible)
	}
	picks := func(r Recommendations) []*Estimate { return []*Estimate{r.Fastest, r.Cheapest, r.Balanced} }
	for i, ge := range picks(g) {
		we := picks(w)[i]
		if (ge == nil) != (we == nil) {
			t.Fatalf("pick %d: pruned %v, exhaustive %v", i, ge, we)
		}
		// the same option may fill two picks: it must be one estimate,
		// described once, in both
		for k := range i {
			if (ge == picks(g)[k]) != (we == picks(w)[k]) {
				t.Errorf("picks %d and %d: shared %v, exhaustive shared %v", k, i, ge == picks(g)[k], we == picks(w)[k])
			}
		}
	}
	if !reflect.DeepEqual(got, want) {
		gj, _ := json.MarshalIndent(got, "", " ")
		wj, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("results differ\npruned:\n%.3000s\nexhaustive:\n%.3000s", gj, wj)
	}
}

func equivRequests(t *testing.T, c *Catalog) []struct {
	name string
	req  Request
} {
	m := func(name string) Model { return mustModel(t, c, name) }
	hw := func(name string, n int) Hardware { return mustGPU(t, c, name, n) }
	bert := m("bert-base")
	logbert, _ := ModelFromArch(&bert, ArchSpec{Vocab: 10000})
	b13, _ := ModelFromParams(1.3e9)
	v100 := hw("v100-32gb", 4)
	server := func(name string, g string, n int) Hardware {
		h := hw(g, n)
		h.Server = name
		return h
	}
	return []struct {
		name string
		req  Request
	}{
		// the seeds
		{"seed 000 LogBERT", Request{Job: Job{Model: logbert, Workload: Pretrain, SeqLen: 512, GlobalBatch: 128, StepsPerEpoch: 19252, Epochs: 10},
			Targets: []Hardware{hw("h200", 4), hw("a100", 4), v100}, Compare: true,
			Baseline: &Baseline{Value: 5.67, Unit: HoursPerEpoch, Hardware: v100, Precision: FP32}}},
		{"seed 000 servers", Request{Job: Job{Model: bert, Workload: Finetune, SeqLen: 512, Epochs: 10, DatasetSamples: 2.5e6},
			Pool: []Hardware{server("server-h", "h200", 8), server("server-a", "a100", 8), server("server-v", "v100-32gb", 8)}}},
		{"seed 001 how many H100s", Request{Job: Job{Model: b13, Workload: Pretrain, SeqLen: 2048, GlobalBatch: 64, Tokens: 20e9},
			Targets: []Hardware{hw("h100", 1), hw("h100", 2), hw("h100", 4), hw("h100", 8)}, Compare: true}},
		{"seed 001 recommend", Request{Job: Job{Model: b13, Workload: Pretrain, SeqLen: 2048, GlobalBatch: 64, Tokens: 20e9}}},
		{"seed 003 70B int4 on 4090s", Request{Job: Job{Model: m("llama-3-70b"), Workload: Inference, Precision: INT4, SeqLen: 4096, GlobalBatch: 1},
			Targets: []Hardware{hw("4090", 2)}}},
		{"seed 003 deepseek-r1 fp8", Request{Job: Job{Model: m("deepseek-r1"), Workload: Inference, Precision: FP8, SeqLen: 4096, GlobalBatch: 1}}},
		{"seed 004 DDP", Request{Job: Job{Model: bert, Workload: Finetune, SeqLen: 128, GlobalBatch: 64, Epochs: 5, DatasetSamples: 1e5},
			Targets: []Hardware{hw("a100", 8)}}},
		// the benchmarks
		{"8B LoRA", Request{Job: Job{Model: m("llama-3-8b"), Workload: LoRA, SeqLen: 2048, GlobalBatch: 64, Samples: 2e5}}},
		{"70B pretrain", Request{Job: Job{Model: m("llama-3-70b"), Workload: Pretrain, SeqLen: 4096, GlobalBatch: 512, Tokens: 1e11}}},
		{"70B pretrain tuned", Request{Job: Job{Model: m("llama-3-70b"), Workload: Pretrain, Stack: Tuned, SeqLen: 4096, GlobalBatch: 512, Tokens: 1e11}}},
		// shapes the pruning treats differently
		{"405B 15.6T tokens", Request{Job: Job{Model: m("llama-3.1-405b"), Workload: Pretrain, Stack: Tuned, SeqLen: 8192, GlobalBatchTokens: 16 << 20, Tokens: 15.6e12}}},
		{"405B on 16k H100", Request{Job: Job{Model: m("llama-3.1-405b"), Workload: Pretrain, Stack: Tuned, SeqLen: 8192, GlobalBatchTokens: 16 << 20, Tokens: 15.6e12},
			Targets: []Hardware{hw("h100", 16384)}}},
		{"70B no amount", Request{Job: Job{Model: m("llama-3-70b"), Workload: Pretrain, SeqLen: 4096}}},
		{"8B full fine-tune 4090", Request{Job: Job{Model: m("llama-3-8b"), Workload: Finetune, SeqLen: 2048, Samples: 1e4}, Targets: []Hardware{hw("4090", 1)}}},
		{"8B QLoRA", Request{Job: Job{Model: m("llama-3-8b"), Workload: QLoRA, SeqLen: 4096, Samples: 5e4, Stack: Tuned}}},
		{"8B micro and ckpt given", Request{Job: Job{Model: m("llama-3-8b"), Workload: Finetune, SeqLen: 4096, MicroBatch: 4, Checkpointing: true, GlobalBatch: 128, Tokens: 2e9}}},
		{"8B ZeRO-3 eager", Request{Job: Job{Model: m("llama-3-8b"), Workload: Finetune, SeqLen: 2048, Strategy: ZeRO3, Attention: Eager, Epochs: 3, DatasetSamples: 1e5}}},
		{"mixtral tuned", Request{Job: Job{Model: m("mixtral-8x7b"), Workload: Pretrain, Stack: Tuned, SeqLen: 4096, GlobalBatch: 1024, Tokens: 2e11}}},
		{"qwen MoE LoRA", Request{Job: Job{Model: m("qwen3-30b-a3b"), Workload: LoRA, SeqLen: 2048, Samples: 1e5}}},
		{"70B offload paged", Request{Job: Job{Model: m("llama-3-70b"), Workload: Finetune, SeqLen: 2048, Offload: OffloadOptimizer, Optimizer: PagedAdamW, Samples: 1e4}}},
		{"8B pure bf16 optimizer in backward", Request{Job: Job{Model: m("llama-3-8b"), Workload: Finetune, SeqLen: 2048, PureBF16: true, OptimizerInBackward: true, Samples: 1e4}}},
		{"8B context parallel", Request{Job: Job{Model: m("llama-3-8b"), Workload: Pretrain, Stack: Tuned, SeqLen: 131072, ContextParallel: 4, GlobalBatch: 16, Tokens: 1e10}}},
		{"resnet-50", Request{Job: Job{Model: m("resnet-50"), Workload: Pretrain, Epochs: 90, DatasetSamples: 1.28e6}}},
		{"vit fp32", Request{Job: Job{Model: m("vit-base-patch16-224"), Workload: Finetune, Precision: FP32, Epochs: 10, DatasetSamples: 1e6}}},
		{"bert fp8 on v100", Request{Job: Job{Model: bert, Workload: Finetune, Precision: FP8, Epochs: 3, DatasetSamples: 1e6}, Targets: []Hardware{hw("v100", 4)}}},
		{"8B inference batch 32", Request{Job: Job{Model: m("llama-3-8b"), Workload: Inference, SeqLen: 2048, GlobalBatch: 32}}},
		{"bert inference", Request{Job: Job{Model: bert, Workload: Inference, SeqLen: 128, GlobalBatch: 256}}},
		{"too big for any option", Request{Job: Job{Model: m("deepseek-v3"), Workload: Finetune, SeqLen: 4096, Strategy: DDP, Samples: 1e4}}},
		{"70B pool nothing fits", Request{Job: Job{Model: m("llama-3-70b"), Workload: Finetune, SeqLen: 4096, Samples: 1e4},
			Pool: []Hardware{server("server-v", "v100-32gb", 8), server("box", "4090", 4)}}},
	}
}
