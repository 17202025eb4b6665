package planner

import (
	"strings"
	"testing"
)

// Without CUDA graphs a Python engine issues every operator of a decode
// step from the host: a deep model at one request in flight is the host's
// pace, well below the weights' read time on a fast GPU, and the plan
// says what graphs would give. A C++ engine is unchanged by the flag.
func TestNoGraphsIsTheHostsPace(t *testing.T) {
	plan := func(engine Engine, noGraphs bool, gpu string, n int) *Estimate {
		return servePlan(t, "llama-2-70b", gpu, n, func(j *Job) {
			j.Engine, j.Concurrency, j.NoGraphs = engine, 1, noGraphs
			lengths(226, 50)(j)
		})
	}
	graphs := plan(EngineTGI, false, "a100-sxm4-40gb", 8)
	eager := plan(EngineTGI, true, "a100-sxm4-40gb", 8)
	// 80 layers × 65 operators + 45 at 7.4 µs (a PCIe Gen4 host): ~39 ms a
	// step, where eight A100s read 140 GB of weights in ~14 ms
	m, _, err := DefaultCatalog().Model("llama-2-70b")
	if err != nil {
		t.Fatal(err)
	}
	prm := FittedParams()
	host := engineDecodeOps(m) * opS(&prm, eager.hw.GPU)
	if eager.Serving.TPOTS < host || eager.Serving.TPOTS < 2*graphs.Serving.TPOTS {
		t.Errorf("no graphs: %.1f ms a token; host issue %.1f ms, with graphs %.1f ms", eager.Serving.TPOTS*1e3, host*1e3, graphs.Serving.TPOTS*1e3)
	}
	notes := strings.Join(eager.Notes, " ")
	if !strings.Contains(notes, "no CUDA graphs") || !strings.Contains(notes, sig3(graphs.Serving.OutputTokPS)) {
		t.Errorf("no-graphs note missing or not the graphs' rate (%s): %v", sig3(graphs.Serving.OutputTokPS), eager.Notes)
	}
	if strings.Contains(strings.Join(graphs.Notes, " "), "no CUDA graphs") {
		t.Errorf("graphs on, yet the note: %v", graphs.Notes)
	}
	// TensorRT-LLM's runtime is C++: the flag has nothing to turn off
	a, b := plan(EngineTRTLLM, false, "h100-sxm5-80gb", 2), plan(EngineTRTLLM, true, "h100-sxm5-80gb", 2)
	if a.Serving.TPOTS != b.Serving.TPOTS {
		t.Errorf("trt-llm changed by NoGraphs: %.2f vs %.2f ms", a.Serving.TPOTS*1e3, b.Serving.TPOTS*1e3)
	}
}

// With no load said, a served decoder's balanced pick is one replica on
// the fewest GPUs that hold it: probe 33's "serve Mistral 7B behind an
// API" was recommended all four 4090s of a server, tensor parallel, for
// a single stream's speed.
func TestServingWithNoLoadIsOneReplica(t *testing.T) {
	c := DefaultCatalog()
	m, _, err := c.Model("mistral-7b")
	if err != nil {
		t.Fatal(err)
	}
	var pool []Hardware // the team's server, at each count the search tries there
	for _, n := range []int{1, 2, 4} {
		h := mustGPU(t, c, "4090", n)
		h.Server = "server-4090"
		pool = append(pool, h)
	}
	res, err := c.Plan(Request{Job: Job{Model: m, Workload: Inference, Engine: EngineVLLM}, Pool: pool})
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Recommendations
	if rec.Balanced == nil || rec.Balanced.GPUs != 1 || rec.Fastest == nil || rec.Fastest.GPUs <= 1 {
		t.Errorf("balanced %+v, fastest %+v: want one GPU balanced, more for the fastest single stream", rec.Balanced, rec.Fastest)
	}
}
