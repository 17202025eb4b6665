package lang

import (
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// oomSaid reports whether the request complains that training ran out
// of GPU memory: "OOM", "out of memory", "메모리가 부족하다고 에러나요",
// "vram 부족", "메모리 터져요".
func (c *canonizer) oomSaid() bool {
	for i, t := range c.in {
		w := strings.ToLower(t.w)
		switch {
		case w == "oom" || strings.HasPrefix(w, "oom") && isHangulWord(w[3:]) || w == "out-of-memory" || w == "outofmemoryerror":
			return true
		case w == "out" && c.w(i+1) == "of" && strings.HasPrefix(c.w(i+2), "memory"):
			return true
		case (strings.HasPrefix(w, "메모리") || w == "vram" || w == "gpu메모리" || strings.HasPrefix(w, "vram")) &&
			(strings.HasPrefix(c.w(i+1), "부족") || strings.HasPrefix(c.w(i+1), "터지") || strings.HasPrefix(c.w(i+1), "터져") || strings.Contains(w, "부족")):
			return true
		}
	}
	return false
}

// oomChoices answers an out-of-memory complaint that names a language
// model but no GPU ("7B 모델 학습시키는데 gpu 메모리가 부족하다고 에러나요
// … 어떻게 해야 하나요"): not a plan of a pre-training run on GPUs it picks,
// but the least memory per GPU each way of tuning it needs, full weights,
// LoRA and QLoRA, side by side; the plan below adds what else to change.
// A workload not said is a fine-tune: a team running out of memory on a
// 7B model is tuning it, not pre-training it.
func oomChoices(r *Reading, p *reqParser, c *canonizer) {
	j := &r.Request.Job
	if r.Variant != nil || len(r.Request.Targets) > 0 || r.Request.Baseline != nil || !c.oomSaid() ||
		j.Model.Kind != planner.Decoder && j.Model.Kind != planner.MoE {
		return
	}
	switch j.Workload {
	case "":
		j.Workload = planner.Finetune
		p.note(en.T("out of memory in training with no method said: planned as a full fine-tune, against LoRA and QLoRA (say `pretrain` if it is)"))
		r.notes, j.Notes = p.notes, p.req.Job.Notes
	case planner.Finetune:
	default:
		return // LoRA or QLoRA said: the plan's own advice says what to change
	}
	choice := func(w planner.Workload) planner.Request {
		req := r.Request
		req.Job.Workload = w
		return req
	}
	r.Variant = &Variant{Kind: "workload", Labels: [2]string{"full finetune", "lora"}, Request: choice(planner.LoRA),
		Also: []Choice{{Label: "qlora", Request: choice(planner.QLoRA)}}}
	r.Memory, r.OOM = true, true
	r.Skipped = slices.DeleteFunc(r.Skipped, func(w string) bool {
		w = strings.ToLower(w)
		return w == "out" || w == "oom" || strings.HasPrefix(w, "부족") // read here
	})
}
