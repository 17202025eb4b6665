package commands

import (
	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// thenServing answers the serving half of a request that trains a model
// and then serves it ("lora 학습하고 vllm으로 서빙까지 하려면 4090 몇 장?",
// "fine-tune mistral 7b with lora, then serve it with vllm for 20 users"):
// the served model on the hardware the request named, or on the GPU type
// the training plan picked; at the fewest of them that hold it (and its
// load) when a count is asked or none was said. The card below plans the
// training; "" when the serving does not plan.
func (s *Set) thenServing(p *i18n.Printer, rd lang.Reading, trained *planner.Result) string {
	if rd.ThenServe == nil {
		return ""
	}
	sv := rd
	sv.Request, sv.ThenServe, sv.Variant = *rd.ThenServe, nil, nil
	sv.Memory, sv.MaxBatch, sv.Deadline, sv.CountOpen = false, false, 0, false
	req := sv.Request
	req.Printer = rd.Request.Printer
	counted := len(req.Targets) > 0 && !rd.CountOpen && rd.Ask != lang.AskCount
	if len(req.Targets) == 0 {
		e := firstEstimate(trained)
		if e == nil {
			return ""
		}
		req.Targets = []planner.Hardware{{GPU: e.Hardware().GPU, Count: 1}}
		req.Pool = nil
	}
	line := ""
	if !counted {
		r, l, err := s.fewestGPUs(p, sv, req)
		if err != nil {
			return ""
		}
		req, line = r, l
	}
	if line == "" {
		req.NoSearch, req.Compare, req.Targets = true, false, req.Targets[:1]
		res, err := s.deps.Catalog.Plan(req)
		if err != nil {
			return ""
		}
		if sv.Ask != lang.AskFit {
			sv.Ask = lang.AskTime // how fast it serves there
		}
		line = answerLine(p, sv, res)
	}
	if line == "" {
		return ""
	}
	return p.Tf("Then serving it: %s", line)
}

// joinLines is a and b on lines of their own, either left out when empty.
func joinLines(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n" + b
}
