package commands

import (
	"strings"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// valueAsked reports whether a message that sets GPUs side by side asks
// which is the better value ("가성비", "cost-effective", "bang for the
// buck", "per dollar").
func valueAsked(text string) bool {
	low := strings.ToLower(text)
	for _, w := range []string{"가성비", "가격 대비", "가격대비", "cost-effective", "cost effective", "costeffective", "bang for", "value for money", "better value", "best value", "per dollar", "worth it", "worth the"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// valueLine says which of the GPUs does more work per dollar, with no job
// said: compute-bound work (training, prefill, large batches) goes with
// the dense 16-bit tensor peak, memory-bound work (decoding a few streams)
// with the memory bandwidth, each over the GPU's hourly price. The best
// of each is set against the next best.
func valueLine(p *i18n.Printer, gs []planner.GPU) string {
	half := func(g planner.GPU) float64 {
		if v, ok := g.Peak(planner.BF16); ok && v > 0 {
			return v
		}
		v, _ := g.Peak(planner.FP16)
		return v
	}
	compute := func(g planner.GPU) float64 { return half(g) / g.PriceUSD }
	bandwidth := func(g planner.GPU) float64 { return g.MemBWGBs / g.PriceUSD }
	rank := func(by func(planner.GPU) float64) (best, next planner.GPU) {
		for _, g := range gs {
			switch {
			case g.PriceUSD <= 0:
			case best.ID == "" || by(g) > by(best):
				best, next = g, best
			case next.ID == "" || by(g) > by(next):
				next = g
			}
		}
		return best, next
	}
	cb, cn := rank(compute)
	bb, bn := rank(bandwidth)
	if cn.ID == "" || bn.ID == "" {
		return p.T("Per dollar: no price is set for these GPUs; set one in the config.")
	}
	return p.Tf("Per dollar, %s does the most compute-bound work (training, prefill, large batches): %s dense 16-bit TFLOPS per $/h, %.1fx %s's %s. For memory-bound work (decoding a few streams at once), %s leads: %s GB/s per $/h, %.1fx %s's %s.",
		cb.Name, sig(compute(cb)), compute(cb)/compute(cn), cn.Name, sig(compute(cn)),
		bb.Name, sig(bandwidth(bb)), bandwidth(bb)/bandwidth(bn), bn.Name, sig(bandwidth(bn)))
}

// speedJob is the job a message that sets GPUs side by side with no model
// asks their speed at, by its words: a fine-tune ("파인튜닝 속도 얼마나
// 차이나?"), training, or serving; "" when it asks no speed of a job.
func speedJob(text string) string {
	low := strings.ToLower(text)
	asks := false
	for _, w := range []string{"속도", "차이", "빠르", "빨라", "느려", "faster", "slower", "speed", "how much quicker", "difference"} {
		asks = asks || strings.Contains(low, w)
	}
	if !asks {
		return ""
	}
	for _, k := range []struct {
		job   string
		words []string
	}{
		{"lora", []string{"파인튜닝", "파인 튜닝", "미세조정", "fine-tun", "finetun", "lora", "로라"}},
		{"pretrain", []string{"학습", "훈련", "training", "train", "pretrain", "사전학습"}},
		{"inference", []string{"추론", "서빙", "inference", "serving", "serve", "decode", "생성"}},
	} {
		for _, w := range k.words {
			if strings.Contains(low, w) {
				return k.job
			}
		}
	}
	return ""
}

// speedLine plans one reference job (Llama 3.1 8B: LoRA for a fine-tune,
// pre-training for training, 8 streams served for inference) on the
// fewest GPUs of each of the first two types that both hold it (1, 2, 4
// or 8), and says how much faster one is: what to expect until the asker
// names a model. "" when no job is asked or no count holds it on both.
func speedLine(p *i18n.Printer, cat *planner.Catalog, gs []planner.GPU, job string) string {
	m, _, err := cat.Model("llama-3.1-8b")
	if err != nil || len(gs) < 2 || job == "" {
		return ""
	}
	j := planner.Job{Model: m, Workload: planner.LoRA, SeqLen: 2048, LoRARank: 16}
	what := p.T("a LoRA fine-tune of Llama 3.1 8B")
	switch job {
	case "pretrain":
		j, what = planner.Job{Model: m, Workload: planner.Pretrain, SeqLen: 4096}, p.T("training Llama 3.1 8B")
	case "inference":
		j, what = planner.Job{Model: m, Workload: planner.Inference, GlobalBatch: 8}, p.T("serving Llama 3.1 8B to 8 streams")
	}
	for n := 1; n <= 8; n *= 2 {
		var rate [2]float64
		for i, g := range gs[:2] {
			res, err := cat.Plan(planner.Request{Job: j, Targets: []planner.Hardware{{GPU: g, Count: n}}, NoSearch: true})
			if err == nil && len(res.Plans) == 1 && res.Plans[0].Memory.Fits {
				rate[i] = res.Plans[0].Throughput.TokensPerS
			}
		}
		if rate[0] <= 0 || rate[1] <= 0 {
			continue
		}
		fast, slow, ratio := gs[0], gs[1], rate[0]/rate[1]
		if ratio < 1 {
			fast, slow, ratio = gs[1], gs[0], 1/ratio
		}
		return p.Tf("For %s on %d of each, %s is about %.1fx as fast as %s; the ratio depends on the job, so name your model for yours.", what, n, fast.Name, ratio, slow.Name)
	}
	return ""
}

// whereAsked reports whether a message asks where to run something ("어디
// 쓰면 돼?", "어느 서버", "which server should I use"): with no model
// named, what is free answers it.
func whereAsked(text string) bool {
	low := strings.ToLower(text)
	for _, w := range []string{"어디 쓰", "어디서 돌", "어디에 돌", "어디서 하", "어디 써", "어느 서버", "어떤 서버", "which server", "where should i", "where can i run", "where do i run"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}
