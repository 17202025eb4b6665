package lang

import (
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// quantisingAct reports whether w says the act of quantising ("to
// quantize", "양자화하려면", "gguf로 변환하려면"), not a quantised model
// ("양자화하면 메모리 얼마나 줄어" asks about serving it).
func quantisingAct(w string) bool {
	w = strings.ToLower(w)
	for _, v := range []string{"quantize", "quantise", "quantizing", "quantising"} {
		if w == v {
			return true
		}
	}
	for _, v := range []string{"양자화하려", "양자화하는데", "양자화작업", "양자화돌리", "변환하려", "변환하는데"} {
		if strings.HasPrefix(w, v) {
			return true
		}
	}
	return false
}

// quantisingNote reads a request to quantise a model ("llama 3 70b awq
// 양자화하려면 h100 몇 장", "how long to quantize … to gptq"): what the
// planner plans is serving the quantised model, so the note says what the
// quantisation run itself needs — AWQ and GPTQ go one layer at a time on
// one GPU, reading the 16-bit model from host memory; llama.cpp's
// quantize runs on the CPU — and the words are read, not skipped.
func (p *reqParser) quantisingNote(skipped ...*[]string) {
	j := p.req.Job
	m := j.Model
	said := false
	for _, s := range skipped {
		said = said || slices.ContainsFunc(*s, quantisingAct)
	}
	if j.Workload != planner.Inference || m.Layers <= 0 || m.Params() <= 0 || !said {
		return
	}
	for _, s := range skipped {
		*s = slices.DeleteFunc(*s, quantisingAct)
	}
	const gib = 1 << 30
	total := m.Params() * 2 / gib
	p.note(en.Tf("quantising itself is not what is planned: AWQ and GPTQ quantise one layer at a time on one GPU (a layer of %s is %.1f GiB in 16 bits, with its calibration activations beside it), reading the 16-bit model from host memory (%.0f GiB of RAM); llama.cpp's quantize runs on the CPU. Planned below: serving the quantised model",
		m.ID, total/float64(m.Layers), total))
}
