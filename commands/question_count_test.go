package commands

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/planner"
)

// A deadline's count is narrowed to the whole node that meets it, not
// left at the next power of two; past the ladder's 1,024 a deadline tries
// on to the planner's limit.
func TestFewestBetweenNodes(t *testing.T) {
	const gpuHours = 1_000_000.0
	plan := func(n int) *planner.Estimate {
		h := gpuHours / float64(n)
		e := &planner.Estimate{GPUs: n}
		e.Time.TotalHours = &h
		return e
	}
	deadline := 30 * 24 * time.Hour // 1,388.9 GPUs → 1,392 in whole nodes
	got := fewestBetween(plan, deadline, 1024, plan(2048))
	if got.GPUs != 1392 {
		t.Errorf("narrowed to %d GPUs, want 1392 (the first whole node that meets 30 days)", got.GPUs)
	}
	var rd lang.Reading
	rd.Deadline = deadline
	counts := countsToTry(rd)
	if last := counts[len(counts)-1]; last != planner.MaxGPUs {
		t.Errorf("a deadline tries up to %d GPUs, want %d", last, planner.MaxGPUs)
	}
	rd.NodesAsked = true
	for _, n := range countsToTry(rd) {
		if n%nodeGPUs != 0 {
			t.Errorf("asked in nodes, %d GPUs tried", n)
		}
	}
}

// The cost line's GPU-hours keep a tenth below ten: a 25-minute run is
// 0.4 GPU-h, not 0.
func TestGPUHoursFigure(t *testing.T) {
	for v, want := range map[float64]string{0.0031: "0.003", 0.41: "0.4", 0.78: "0.8", 3: "3", 9.96: "10", 1234.4: "1,234"} {
		if got := gpuHoursFigure(v); got != want {
			t.Errorf("%v GPU-h written %q, want %q", v, got, want)
		}
	}
}
