package planner

import "testing"

// go test ./planner -run '^$' -bench . -benchmem

func benchJob(b *testing.B, c *Catalog) Job {
	return Job{Model: mustModel(b, c, "llama-3-8b"), Workload: LoRA, SeqLen: 2048, GlobalBatch: 64, Samples: 2e5}
}

// BenchmarkPlanOne plans one named configuration, no search.
func BenchmarkPlanOne(b *testing.B) {
	c := DefaultCatalog()
	req := Request{Job: benchJob(b, c), Targets: []Hardware{mustGPU(b, c, "h100", 2)}, NoSearch: true}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Plan(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompare plans seed 000's three servers side by side.
func BenchmarkCompare(b *testing.B) {
	c := DefaultCatalog()
	req := Request{Job: benchJob(b, c), Compare: true, NoSearch: true,
		Targets: []Hardware{mustGPU(b, c, "h200", 4), mustGPU(b, c, "a100", 4), mustGPU(b, c, "v100", 4)}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Plan(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecommendationSearch is the full search over GPU type × count ×
// strategy × checkpointing × micro-batch.
func BenchmarkRecommendationSearch(b *testing.B) {
	c := DefaultCatalog()
	req := Request{Job: benchJob(b, c)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Plan(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecommendationSearchTuned adds tensor/pipeline-parallel layouts
// (tuned stack, full pre-training of a 70B model).
func BenchmarkRecommendationSearchTuned(b *testing.B) {
	c := DefaultCatalog()
	req := Request{Job: Job{Model: mustModel(b, c, "llama-3-70b"), Workload: Pretrain, Stack: Tuned, SeqLen: 4096, GlobalBatch: 512, Tokens: 1e11}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Plan(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearch70BPretrain is the full search for pre-training a 70B
// model on the default stack: no single node fits, so every multi-node
// count is searched.
func BenchmarkSearch70BPretrain(b *testing.B) {
	c := DefaultCatalog()
	req := Request{Job: Job{Model: mustModel(b, c, "llama-3-70b"), Workload: Pretrain, SeqLen: 4096, GlobalBatch: 512, Tokens: 1e11}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Plan(req); err != nil {
			b.Fatal(err)
		}
	}
}
