package commands

// Where a job runs, as people ask it: on the CPU alone or a laptop, on the
// cloud against the team's servers, split across GPUs or not.

import (
	"slices"
	"strings"

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
	if rd.Laptop {
		return laptopLine(p, req, e, bw)
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

// laptopGPUs are the memory sizes of NVIDIA's laptop GPUs, smallest
// first, with the parts that have them (NVIDIA's GeForce RTX 40 and 50
// Series Laptop specifications): a laptop part has less memory than the
// desktop card of the same name.
// desktops are the catalogue's desktop cards of the same names.
var laptopGPUs = []struct {
	gb       float64
	parts    string
	desktops []string
}{
	{6, "RTX 4050 Laptop", nil},
	{8, "RTX 4060/4070 Laptop, RTX 5070 Laptop", []string{"rtx-4060", "rtx-4070"}},
	{12, "RTX 4080 Laptop, RTX 5070 Ti Laptop", []string{"rtx-4080"}},
	{16, "RTX 4090 Laptop, RTX 5080 Laptop", []string{"rtx-4090", "rtx-5080"}},
	{24, "RTX 5090 Laptop", []string{"rtx-5090"}},
}

// laptopClass is the smallest laptop GPU memory that holds need GiB
// (with 5 % for the driver), "" when none does.
func laptopClass(need float64) (float64, string) {
	for _, l := range laptopGPUs {
		if need*1.05 <= l.gb*1e9/(1<<30) {
			return l.gb, l.parts
		}
	}
	return 0, ""
}

// laptopLine answers a model asked to run on a laptop ("노트북에서도
// 돌아가요?"): the quantised file on a laptop GPU that holds it, else on
// the CPU from RAM at the host's rate; and which laptop GPU the 16-bit
// weights need.
func laptopLine(p *i18n.Printer, req planner.Request, e *planner.Estimate, bw float64) string {
	const runtimeGiB = 1.0 // CUDA context and a short context's KV cache
	file := e.Serving.WeightsGiB
	half := req.Job.Model.Params() * 2 / (1 << 30)
	var b strings.Builder
	if gb, parts := laptopClass(file + runtimeGiB); gb > 0 {
		b.WriteString(p.Tf("On a laptop, with llama.cpp or Ollama and the %s file (%.1f GiB): a laptop GPU with %.0f GB or more (%s) holds all of it; with no such GPU, the CPU runs it from RAM at about %s tokens/s (~%s GB/s).",
			e.Serving.Weights, file, gb, parts, sig(e.Throughput.TokensPerS), sig(bw)))
	} else {
		b.WriteString(p.Tf("On a laptop, with llama.cpp or Ollama and the %s file (%.1f GiB): no laptop GPU holds it all; the CPU runs it from RAM at about %s tokens/s (~%s GB/s), if the laptop has the memory.",
			e.Serving.Weights, file, sig(e.Throughput.TokensPerS), sig(bw)))
	}
	if gb, parts := laptopClass(half + runtimeGiB); gb > 0 {
		b.WriteString(" " + p.Tf("In 16-bit (%.1f GiB) it needs a %.0f GB laptop GPU (%s).", half, gb, parts))
	} else {
		b.WriteString(" " + p.Tf("In 16-bit (%.1f GiB) no laptop GPU holds it.", half))
	}
	b.WriteString(" " + p.T("Say the laptop's GPU (`on rtx-4060`) for its rate."))
	return b.String()
}

// cloudVsTeamCost answers the cloud's cost set against the team's
// servers ("클라우드 vs 우리 서버 llama 8b lora 비용 차이"): the cheapest
// that fits on each side, at the configured and the catalogue's prices.
func cloudVsTeamCost(p *i18n.Printer, rd lang.Reading, res, cloudRes *planner.Result) string {
	if !rd.CloudVsTeamCost || res == nil || cloudRes == nil || len(rd.Request.Targets) > 0 {
		// (a cloud GPU named, "cloud h100 vs our servers", is answered
		// with that GPU by the plan's own line)
		return ""
	}
	team, cloud := res.Recommendations.Cheapest, cloudRes.Recommendations.Cheapest
	if cloud == nil {
		return ""
	}
	cc, cloudText := sideCost(p, cloud)
	if team == nil {
		return p.Tf("Nothing on the team's servers holds it; in the cloud the cheapest is %s on %s.", cloudText, hwText(p, cloud))
	}
	tc, teamText := sideCost(p, team)
	line := p.Tf("On the team's servers: %s on %s. In the cloud: %s on %s.", teamText, hwText(p, team), cloudText, hwText(p, cloud))
	if tc > 0 && cc > 0 {
		if tc <= cc {
			line += " " + p.Tf("The team's servers cost %.1fx less, at the prices configured for them.", cc/tc)
		} else {
			line += " " + p.Tf("The cloud costs %.1fx less, at the prices configured for the team's servers.", tc/cc)
		}
	}
	return line
}

// tpNeeded adds to an answer whether the plan splits layers across GPUs
// when tensor parallelism was named with no degree ("3090 두장으로 13b
// LoRA 가능한가요? 텐서병렬 써야하나"): the layout the plan chose, said.
func tpNeeded(p *i18n.Printer, rd lang.Reading, res *planner.Result, answer string) string {
	e := firstEstimate(res)
	if !rd.TPAsked || e == nil || !e.Memory.Fits || !strings.HasSuffix(answer, ".") {
		return answer
	}
	if e.TensorParallel > 1 {
		return answer + " " + p.Tf("It needs tensor parallelism: each layer split over %d GPUs (%s).", e.TensorParallel, e.Strategy)
	}
	return answer + " " + p.Tf("Tensor parallelism is not needed: the plan runs %s, each GPU running whole layers.", e.Strategy)
}

// laptopPart adds to an answer, when the GPU was said to sit in a laptop
// ("llama 3 8b on my laptop 4070"), that the laptop part has less memory
// than the desktop card planned, and whether the job fits it.
func (s *Set) laptopPart(p *i18n.Printer, rd lang.Reading, res *planner.Result, answer string) string {
	e := firstEstimate(res)
	if !rd.Laptop || rd.CPUOnly || len(rd.Request.Targets) == 0 || e == nil || answer == "" {
		return answer // (no GPU named: laptopLine said which laptop GPUs hold it)
	}
	gb := 0.0
	for _, l := range laptopGPUs {
		if slices.Contains(l.desktops, e.GPU) {
			gb = l.gb
		}
	}
	if g, _, err := s.deps.Catalog.GPU(e.GPU); gb == 0 || err != nil || gb >= g.MemoryGB {
		return answer // no laptop part by that name, or one with the desktop card's memory
	}
	fits := p.T("the job does not fit it")
	if e.Memory.PerGPUGiB*1.05 <= gb*1e9/(1<<30) {
		fits = p.T("the job fits it too")
	}
	return answer + " " + p.Tf("A laptop's %s has %.0f GB, less than the desktop card planned here: at %.1f GiB a GPU, %s.", e.GPUName, gb, e.Memory.PerGPUGiB, fits)
}
