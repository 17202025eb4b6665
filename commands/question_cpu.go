package commands

import (
	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// cpuOnlyAnswer answers a model asked to run without a GPU ("미스트랄
// 7b를 CPU로만 돌리면 안되나요? GPU 꼭 필요해?"): llama.cpp reads its whole
// file from host memory every token, so the rate is the host's memory
// bandwidth over the file; then the same file on one GPU of the
// recommended kind, for how much a GPU adds. "" when the reading asked
// for no CPU-only run or nothing was planned.
func (s *Set) cpuOnlyAnswer(p *i18n.Printer, rd lang.Reading, req planner.Request, res *planner.Result) string {
	e := firstEstimate(res)
	if !rd.CPUOnly || e == nil || e.Serving == nil || !e.Memory.Fits {
		return ""
	}
	bw := req.Job.HostMemBWGBs
	if bw == 0 {
		bw = planner.DefaultHostMemBWGBs
	}
	line := p.Tf("Yes, without a GPU: %s runs the %s file (%.1f GiB in RAM) at about %s tokens/s, reading all of it from host memory for every token (~%s GB/s; say `cpu bandwidth N gb/s` for your machine's), and a long prompt takes seconds to minutes on the CPU.",
		e.Serving.Engine, e.Serving.Weights, e.Serving.WeightsGiB, sig(e.Throughput.TokensPerS), sig(bw))
	g, _, err := s.deps.Catalog.GPU(e.GPU)
	if err != nil {
		return line
	}
	j := req.Job
	j.GPULayers = 0 // as many layers as fit on the GPU
	r, err := s.deps.Catalog.Plan(planner.Request{Job: j, Targets: []planner.Hardware{{GPU: g, Count: 1}}, NoSearch: true})
	if err != nil || len(r.Plans) == 0 || !r.Plans[0].Memory.Fits || r.Plans[0].Serving == nil || r.Plans[0].Serving.CPULayers > 0 {
		return line
	}
	return line + " " + p.Tf("A GPU is not required, but one %s holding the file runs it at about %s tokens/s.", g.Name, sig(r.Plans[0].Throughput.TokensPerS))
}
