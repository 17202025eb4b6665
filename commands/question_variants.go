package commands

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// compareVariants answers "tgi vs vllm …", "awq랑 gptq 중 …", "lora vs full
// finetune memory": each reading planned on the same hardware (the one
// named, or the team's fastest server), in what was asked — memory per
// GPU when memory or the fit is asked, else the time of the work or the
// rate — and how the two differ; "" when neither plans. The card below
// plans the first.
func (s *Set) compareVariants(p *i18n.Printer, rd lang.Reading, req planner.Request) string {
	hw, ok := s.sideBySideGPU(req)
	if !ok {
		return ""
	}
	v := rd.Variant
	memory := memoryCompared(rd)
	sides := []lang.Choice{{Label: v.Labels[0], Request: req}, {Label: v.Labels[1], Request: v.Request}}
	sides = append(sides, v.Also...)
	// "H100 기준", "on H100" with no count: each choice on the fewest
	// H100s that hold it
	own := (rd.CountOpen || rd.CountUnsaid && len(req.Targets) == 1) && !memory
	fewest := func(r planner.Request, on planner.Hardware) planner.Hardware {
		on.Count, on.GPUsPerNode, on.Server = 1, 0, ""
		return s.fewestEach(planner.Request{Job: r.Job, Targets: []planner.Hardware{on}, Baseline: r.Baseline})[0]
	}
	if own && v.Kind == "precision" {
		// formats compared on one count, the fewest that hold every one
		// of them: the format's own effect, not the GPUs'
		common := hw
		common.Count = 0
		for _, sd := range sides {
			if f := fewest(sd.Request, hw); f.Count > common.Count {
				common = f
			}
		}
		hw, own = common, false
	}
	plan := func(r planner.Request, on planner.Hardware) (*planner.Estimate, error) {
		if own {
			on = fewest(r, on) // "풀파인튜닝 vs LoRA … H100 기준": each on what it needs
		}
		r.Targets, r.NoSearch, r.Pool, r.Compare = []planner.Hardware{on}, true, nil, false
		if memory {
			leastSized(&r.Job)
		}
		res, err := s.deps.Catalog.Plan(r)
		if err != nil || len(res.Plans) == 0 {
			return nil, err
		}
		return res.Plans[0], nil
	}
	if one := hw; memory && len(req.Targets) == 0 && hw.Count > 1 {
		// memory asked of no GPU named: one of the team's fastest GPU when
		// every choice fits on it, so the figures are a whole model's
		one.Count, one.GPUsPerNode, one.Server = 1, 0, ""
		fits := true
		for _, sd := range sides {
			e, err := plan(sd.Request, one)
			fits = fits && err == nil && e != nil && e.Memory.Fits
		}
		if fits || rd.OOM {
			hw = one // out of memory: what each way needs of one GPU, fitting or not
		}
	}
	mode := sideRates
	switch {
	case memory:
		mode = sideMemory
	case rd.Ask == lang.AskCost || rd.Prefer == "cheapest":
		mode = sideCosts
	}
	parts, vals, each, shown, counted := sideFigures(p, sides, plan, hw, mode, own)
	if shown == nil {
		return ""
	}
	on := hwText(p, shown)
	if counted {
		on = shown.GPUName // each side says its count
	}
	verdict := variantVerdict(p, v.Kind, sides, vals, each, mode)
	if mode == sideRates && v.Kind == "workload" && !counted {
		parts, verdict = withLeastMemory(p, sides, plan, hw, parts, verdict) // "풀파인튜닝이랑 로라랑 … 뭘 써야돼요?"
	}
	if mode == sideMemory && rd.Ask == lang.AskTime {
		// "속도랑 메모리 비교", "memory and tokens/s?": each side's rate
		// beside its memory, and both differences
		parts, verdict = withRates(p, v.Kind, sides, plan, hw, parts, verdict)
	}
	return noBF16(p, v, hw) + strings.Join(parts, " · ") + p.Tf(" on %s", on) + leastSaid(p, mode, req.Job) + verdict + "."
}

// withLeastMemory adds to each side's rate the least memory per GPU it
// needs (micro-batch 1, checkpointing), and to the verdict which needs
// less: between full fine-tuning and adapters, what each holds decides
// it as much as the speed does. The parts stay as they are when a side
// does not plan.
func withLeastMemory(p *i18n.Printer, sides []lang.Choice, plan func(planner.Request, planner.Hardware) (*planner.Estimate, error),
	hw planner.Hardware, parts []string, verdict string) ([]string, string) {
	vals := make([]float64, len(sides))
	out := slices.Clone(parts)
	for i, sd := range sides {
		r := sd.Request
		leastSized(&r.Job)
		e, err := plan(r, hw)
		if err != nil || e == nil || i >= len(out) {
			return parts, verdict
		}
		vals[i] = -e.Memory.PerGPUGiB
		out[i] += p.Tf(" (at least %.0f GiB per GPU)", e.Memory.PerGPUGiB)
	}
	if mv := variantVerdict(p, "workload", sides, vals, nil, sideMemory); mv != "" && mv != p.T(" — about the same") {
		verdict += "; " + strings.TrimPrefix(mv, " — ")
	}
	return out, verdict
}

// memoryCompared reports whether a side-by-side asks memory: a fit, or
// the word among those skipped ("vram 차이", "vram 덜 먹는거").
func memoryCompared(rd lang.Reading) bool {
	memory := rd.Memory || rd.Ask == lang.AskFit
	for _, w := range rd.Skipped {
		memory = memory || strings.EqualFold(w, "vram") || strings.HasPrefix(w, "메모리") || strings.EqualFold(w, "memory")
	}
	return memory
}

// noBF16 leads a comparison of formats that sets bf16 against another on a
// GPU without it ("fp16 or bf16 on a v100?"): that is the answer, before
// the figures, which plan the bf16 side as the fp16 it falls back to.
func noBF16(p *i18n.Printer, v *lang.Variant, hw planner.Hardware) string {
	if v.Kind != "precision" || hw.GPU.Supports(planner.BF16) {
		return ""
	}
	for _, l := range v.Labels {
		if strings.EqualFold(l, "bf16") || strings.EqualFold(l, "bfloat16") {
			return noBF16Line(p, hw.GPU.Name)
		}
	}
	return ""
}

func noBF16Line(p *i18n.Printer, gpu string) string {
	return p.Tf("%s has no bf16: use fp16 with loss scaling (`--fp16`, `GradScaler`). ", gpu)
}

// bf16Lead puts the missing bf16 ahead of an answer that names it
// ("llama 3 8b lora bf16 on v100 돼?", "v100은 bf16 안 된다던데 fp16 써도
// 돼요?"): the card plans fp16 either way, and that is the answer the
// asker most needs, before the fit.
func (s *Set) bf16Lead(p *i18n.Printer, rd lang.Reading, res *planner.Result, answer string) string {
	e := firstEstimate(res)
	if !rd.BF16Named || e == nil || answer == "" {
		return answer
	}
	g, _, err := s.deps.Catalog.GPU(e.GPU)
	if err != nil || g.Supports(planner.BF16) {
		return answer
	}
	lead := noBF16Line(p, g.Name)
	if rd.Request.Job.Workload == planner.Inference {
		// serving has no loss to scale: the weights load in fp16
		lead = p.Tf("%s has no bf16: load the weights in fp16 (`torch_dtype=torch.float16`, vLLM `--dtype half`). ", g.Name)
	}
	if strings.HasPrefix(answer, lead) {
		return answer
	}
	return lead + answer
}

// leastSized sizes a job whose memory is compared at the least it
// needs: training at micro-batch 1 with checkpointing, serving with no
// load said at one request ("awq랑 gptq 중에 뭐가 메모리 덜 먹어"), not
// what a serving engine reserves whatever the format.
func leastSized(j *planner.Job) {
	switch {
	case j.Workload != planner.Inference && j.MicroBatch == 0:
		j.MicroBatch, j.Checkpointing = 1, true
	case j.Workload == planner.Inference && j.GlobalBatch == 0 && j.Concurrency == 0 && j.RequestRate == 0 && j.OutputTokPS == 0:
		j.GlobalBatch = 1
	}
}

// leastSaid says a training memory comparison is the least each needs:
// the card's table below plans for speed, with a larger micro-batch.
func leastSaid(p *i18n.Printer, mode sideMode, j planner.Job) string {
	if mode != sideMemory || j.MicroBatch != 0 || j.Workload == planner.Inference {
		return ""
	}
	return p.T(" (the least each needs: micro-batch 1, checkpointing)")
}

// withRates adds each side's rate to its memory figures, and the rates'
// difference to the memory verdict.
func withRates(p *i18n.Printer, kind string, sides []lang.Choice, plan func(planner.Request, planner.Hardware) (*planner.Estimate, error),
	hw planner.Hardware, parts []string, verdict string) ([]string, string) {
	rates, vals, each, shown, _ := sideFigures(p, sides, plan, hw, sideRates, false)
	if shown == nil || len(rates) != len(parts) {
		return parts, verdict
	}
	out := make([]string, len(parts))
	for i := range parts {
		rate := rates[i]
		if _, after, ok := strings.Cut(rate, ": "); ok {
			rate = after // the label is said once, before the memory
		}
		out[i] = parts[i] + ", " + rate
	}
	if rv := variantVerdict(p, kind, sides, vals, each, sideRates); rv != "" {
		verdict += "; " + strings.TrimPrefix(rv, " — ")
	}
	return out, verdict
}

// sideMode is what a side-by-side answer compares: memory, rate or cost.
type sideMode int

const (
	sideRates sideMode = iota
	sideMemory
	sideCosts
)

// sideFigures plans each choice on hw and says its memory per GPU (memory
// asked) or its rate: the words, the figure to compare (higher is better;
// 0 for a choice that did not plan or fit), one request's own rate, and
// the first estimate that planned.
func sideFigures(p *i18n.Printer, sides []lang.Choice, plan func(planner.Request, planner.Hardware) (*planner.Estimate, error),
	hw planner.Hardware, mode sideMode, own bool) (parts []string, vals, each []float64, shown *planner.Estimate, counted bool) {
	vals, each = make([]float64, len(sides)), make([]float64, len(sides)) // each: one request's own rate, for served choices
	es, errs := make([]*planner.Estimate, len(sides)), make([]error, len(sides))
	counts := map[int]bool{}
	for i, sd := range sides {
		es[i], errs[i] = plan(sd.Request, hw)
		if es[i] != nil {
			counts[es[i].GPUs] = true
		}
	}
	for i, sd := range sides {
		e := es[i]
		if e == nil {
			parts = append(parts, p.Tf("%s: does not plan (%s)", sd.Label, shortError(errs[i])))
			continue
		}
		if shown == nil {
			shown = e
		}
		label := sd.Label
		counted = own && len(counts) > 1
		if counted {
			label = fmt.Sprintf("%s (%d×)", label, e.GPUs) // the fewest of the GPU each needs
		}
		switch {
		case mode == sideCosts && e.Memory.Fits && e.PriceUSDPerGPUH > 0:
			cost, words := sideCost(p, e)
			vals[i] = -cost // less is better
			parts = append(parts, fmt.Sprintf("%s: %s", label, words))
		case mode == sideMemory:
			vals[i] = -e.Memory.PerGPUGiB // less is better
			verdict := p.T("fits")
			if !e.Memory.Fits {
				verdict = p.T("does not fit")
			}
			if e.GPUs > 1 && (strings.Contains(e.Strategy, "ZeRO-3") || strings.Contains(e.Strategy, "FSDP")) {
				// full fine-tuning sharded over the server is no match for
				// a LoRA each GPU holds whole: say what it holds in all
				verdict += p.Tf(", sharded over %d GPUs: %.0f GiB in all", e.GPUs, e.Memory.PerGPUGiB*float64(e.GPUs))
			}
			parts = append(parts, p.Tf("%s: %.0f GiB per GPU (%s)", label, e.Memory.PerGPUGiB, verdict))
		default:
			var part string
			vals[i], part = sideRate(p, label, e)
			parts = append(parts, part)
			each[i] = vals[i]
			if sv := e.Serving; sv != nil && sv.Concurrency > 1 && sv.TPOTS > 0 {
				each[i] = 1 / sv.TPOTS
			}
		}
	}
	return parts, vals, each, shown, counted
}

// variantVerdict says how the choices differ: which needs less memory or
// is faster, and by how much; "" when one of them did not plan.
func variantVerdict(p *i18n.Printer, kind string, sides []lang.Choice, vals, each []float64, mode sideMode) string {
	memory := mode == sideMemory
	a, b := -1, -1 // the best and the worst
	for i, x := range vals {
		if x == 0 {
			return ""
		}
		if a < 0 || x > vals[a] {
			a = i
		}
		if b < 0 || x < vals[b] {
			b = i
		}
	}
	if a < 0 || a == b {
		a, b = 0, 1
	}
	la, lb := sides[a].Label, sides[b].Label
	switch {
	case memory && vals[a]-vals[b] >= 0.5 && len(sides) > 2:
		return p.Tf(" — %s needs the least, %.0f GiB less per GPU than %s", la, vals[a]-vals[b], lb)
	case memory && vals[a]-vals[b] >= 0.5:
		return p.Tf(" — %s needs %.0f GiB less per GPU", la, vals[a]-vals[b])
	case mode == sideCosts && vals[b]/vals[a] >= 1.02:
		return p.Tf(" — %s costs least, %.2fx less than %s", la, vals[b]/vals[a], lb)
	case memory || mode == sideCosts || vals[a]/vals[b] < 1.02:
		line := p.T(" — about the same")
		if kind == "engine" {
			line += p.T(" (the planner models vLLM, TGI and SGLang alike: their published throughputs differ by less than the benchmarks' spread)")
		}
		return line
	}
	line := p.Tf(" — %s is %.2fx as fast as %s", la, vals[a]/vals[b], lb)
	if each[b] > each[a]*1.02 {
		// "llama.cpp vs vllm, which is faster": vLLM's total is over many
		// requests, each slower than the other's one
		line += p.Tf(" in all; each request streams faster on %s (%.0f against %.0f tokens/s)", lb, each[b], each[a])
	}
	return line
}

// precisionsSideBySide answers "bf16 vs fp8 on h100", "int4 양자화하면
// 메모리 얼마나 줄어", "4비트, 8비트, 16비트로 … VRAM 각각": each format's
// rate, cost or memory side by side, in the order said.
func (s *Set) precisionsSideBySide(p *i18n.Printer, rd lang.Reading, req planner.Request) string {
	pr := rd.ComparePrecisions
	second := req
	second.Job.Precision = pr[1]
	first := req
	first.Job.Precision = pr[0]
	rd.Variant = &lang.Variant{Kind: "precision", Labels: [2]string{string(pr[0]), string(pr[1])}, Request: second}
	if t := rd.ThirdPrecision; t != "" {
		middle := req
		middle.Job.Precision = t
		rd.Variant.Labels[1], rd.Variant.Request = string(t), middle
		rd.Variant.Also = []lang.Choice{{Label: string(pr[1]), Request: second}}
	}
	return s.compareVariants(p, rd, first)
}

// variantAnswer answers two choices set side by side: the GPUs each
// needs when a count is asked, else each one's memory or speed.
func (s *Set) variantAnswer(p *i18n.Printer, rd lang.Reading, req planner.Request) (planner.Request, string, error) {
	if rd.Ask == lang.AskCount && len(req.Targets) <= 1 {
		return s.compareCounts(p, rd, req)
	}
	if rd.Together {
		if line := s.togetherAnswer(p, rd, req); line != "" {
			return req, line, nil
		}
	}
	return req, s.compareVariants(p, rd, req), nil
}

// compareCounts answers "which needs fewer GPUs, A or B" and "A vs B, 몇
// 장?": the fewest of the GPU (the one named, or the team's fastest
// server's) that hold each side, and which needs fewer. The card below
// plans the first side on its count.
func (s *Set) compareCounts(p *i18n.Printer, rd lang.Reading, req planner.Request) (planner.Request, string, error) {
	hw, ok := s.sideBySideGPU(req)
	if !ok {
		return req, "", nil
	}
	hw.Count, hw.GPUsPerNode = 1, 0
	v := rd.Variant
	var parts []string
	var counts [2]int
	for i, r := range []planner.Request{req, v.Request} {
		r.Targets, r.NoSearch, r.Pool, r.Compare = []planner.Hardware{hw}, true, nil, false
		got := s.fewestEach(r)[0]
		res, err := s.deps.Catalog.Plan(planner.Request{Job: r.Job, Targets: []planner.Hardware{got}, NoSearch: true, Baseline: r.Baseline})
		switch {
		case err != nil || len(res.Plans) == 0:
			parts = append(parts, p.Tf("%s: does not plan (%s)", v.Labels[i], shortError(err)))
		case !res.Plans[0].Memory.Fits:
			parts = append(parts, p.Tf("%s: no count up to %d holds it", v.Labels[i], countLadder[len(countLadder)-1]))
		default:
			counts[i] = got.Count
			parts = append(parts, fmt.Sprintf("%s: %d× %s", v.Labels[i], got.Count, hw.GPU.Name))
			if i == 0 {
				req.Targets = []planner.Hardware{got}
			}
		}
	}
	line := strings.Join(parts, " · ") + p.T(", the fewest that hold each")
	switch a, b := counts[0], counts[1]; {
	case a == 0 || b == 0:
	case a == b:
		line += p.T(": the same count")
	case a < b:
		line += p.Tf(": %s needs fewer", v.Labels[0])
	default:
		line += p.Tf(": %s needs fewer", v.Labels[1])
	}
	return req, line + ".", nil
}

// shortError is the first line of an error, for a side that did not plan.
func shortError(err error) string {
	if err == nil {
		return "no plan"
	}
	first, _, _ := strings.Cut(err.Error(), "\n")
	return first
}

// sideCost is what e's run costs: the whole work when its size is known,
// else a million samples (or, served, a million tokens); with its time.
func sideCost(p *i18n.Printer, e *planner.Estimate) (float64, string) {
	switch {
	case e.CostUSD != nil && e.Time.TotalHours != nil:
		return *e.CostUSD, fmt.Sprintf("%s (%s)", money(*e.CostUSD), planner.FormatHoursIn(p, *e.Time.TotalHours))
	case e.Serving != nil || e.InferencePath != "":
		if c := perMillionTokens(e); c > 0 {
			return c, inferenceCost(p, e)
		}
	}
	c := perMillionSamples(e)
	return c, money(c) + p.T("/1M samples") + fmt.Sprintf(" (%s)", p.Tf("%s per 1M samples", planner.FormatHoursIn(p, e.Time.HoursPerMillionSamples)))
}

// sideRate is one column of a side-by-side answer: how fast e does the
// work (1 / its total hours when the work has a size, else its rate) and
// the words for it; 0 when it does not fit.
func sideRate(p *i18n.Printer, label string, e *planner.Estimate) (float64, string) {
	switch {
	case !e.Memory.Fits:
		return 0, p.Tf("%s: does not fit", label)
	case e.Time.TotalHours != nil:
		return 1 / *e.Time.TotalHours, fmt.Sprintf("%s: %s", label, planner.FormatHoursIn(p, *e.Time.TotalHours))
	case e.Serving != nil && e.Serving.Concurrency > 1 && e.Serving.TPOTS > 0:
		// a batched engine's rate is over the requests it runs together;
		// each of them streams at its own pace
		sv := e.Serving
		return e.Throughput.TokensPerS, p.Tf("%s: %.0f tokens/s over %.0f requests at once (%.0f each)", label, e.Throughput.TokensPerS, sv.Concurrency, 1/sv.TPOTS)
	case e.Throughput.TokensPerS > 0:
		return e.Throughput.TokensPerS, p.Tf("%s: %.0f tokens/s", label, e.Throughput.TokensPerS)
	}
	return e.Throughput.SamplesPerS, p.Tf("%s: %.0f samples/s", label, e.Throughput.SamplesPerS)
}

// withoutYesNo drops the yes or no that opens an answer: to a question
// asked in the negative it would read backwards, and the fact after it
// answers either way.
func withoutYesNo(p *i18n.Printer, answer string) string {
	for _, w := range []string{p.T("Yes"), p.T("No")} {
		if rest, ok := strings.CutPrefix(answer, w+" — "); ok && rest != "" {
			r := []rune(rest)
			return strings.ToUpper(string(r[0])) + string(r[1:])
		}
	}
	return answer
}

// refineAnswer finishes the answer line: the cost of a span of serving
// when one was said, the tokens Chinchilla's rule set, and no yes or no
// before the fact when the question was asked in the negative.
func refineAnswer(p *i18n.Printer, rd lang.Reading, res *planner.Result, answer string) string {
	if rd.ServeHours > 0 {
		if a := servingSpanCost(p, rd, res); a != "" {
			answer = a
		}
	}
	if answer != "" && rd.Chinchilla {
		answer = p.Tf("Chinchilla-optimal: %s tokens.", bigCount(p, rd.Request.Job.Tokens)) + " " + answer
	}
	if answer != "" && rd.LatencyTargetS > 0 && !withinAnswered(rd) {
		if !strings.HasSuffix(answer, ".") && !strings.HasSuffix(answer, "요") {
			answer += "." // "… (one replica below)": a sentence ends before the verdict
		}
		e := firstEstimate(res)
		v := latencyVerdict(p, rd, e)
		if rest, ok := strings.CutPrefix(answer, p.T("Yes")+" — "); ok && latencyOver(rd, e) {
			// "can we serve … at p95 under 1s": it fits, but the target is the question
			answer = p.T("No") + " — " + rest
		}
		answer += v
	}
	if rest, ok := strings.CutPrefix(answer, p.T("Yes")+" — "); ok && rd.Ask == lang.AskFit {
		if got, want, short := rateShort(rd.Request.Job, firstEstimate(res)); short {
			// "초당 토큰 2000개 뽑아야 되는데 … L40S로 될까": it fits, but the rate is the question
			answer = p.T("No") + " — " + rest + " " + p.Tf("It serves %s of the %s asked a second: more GPUs carry the rest (ask how many).", sig(got), sig(want))
		}
	}
	if answer != "" && rd.NegativeAsk {
		answer = withoutYesNo(p, answer) // "안 들어가지?": the fact, not a yes that reads as no
	}
	return answer
}

// rateShort reports whether a served plan falls short of the rate the job
// asked for — tokens a second, or requests a second — with what it serves
// and what was asked.
func rateShort(j planner.Job, e *planner.Estimate) (got, want float64, short bool) {
	if e == nil || !e.Memory.Fits || j.Workload != planner.Inference {
		return 0, 0, false
	}
	switch sv := e.Serving; {
	case j.OutputTokPS > 0 && sv != nil:
		return sv.OutputTokPS, j.OutputTokPS, sv.OutputTokPS < 0.98*j.OutputTokPS
	case j.RequestRate > 0 && sv != nil:
		return sv.RequestsPerS, j.RequestRate, sv.Saturated
	case j.RequestRate > 0 && e.Throughput.SamplesPerS > 0:
		return e.Throughput.SamplesPerS, j.RequestRate, e.Throughput.SamplesPerS < 0.98*j.RequestRate
	}
	return 0, 0, false
}

// latencyOver reports whether a served plan runs over the latency target
// said (the first token's for a TTFT target, a whole request's otherwise).
func latencyOver(rd lang.Reading, e *planner.Estimate) bool {
	if e == nil || e.Serving == nil || !e.Memory.Fits {
		return false
	}
	return servedLatency(rd, e.Serving) > rd.LatencyTargetS
}

// servedLatency is the time a latency target is set against: the first
// token's (TTFT), each token's (TPOT), or a whole request's.
func servedLatency(rd lang.Reading, sv *planner.Serving) float64 {
	switch {
	case rd.LatencyFirst:
		return sv.TTFTS
	case rd.LatencyPerToken:
		return sv.TPOTS
	}
	return sv.LatencyS
}

// latencyOf names what servedLatency times, in p's language.
func latencyOf(p *i18n.Printer, rd lang.Reading) string {
	switch {
	case rd.LatencyFirst:
		return p.T("the first token")
	case rd.LatencyPerToken:
		return p.T("each token")
	}
	return p.T("a request")
}

// latencyVerdict says whether the plan meets a latency said as a target:
// the first token's time for a TTFT target, a whole request's otherwise.
func latencyVerdict(p *i18n.Printer, rd lang.Reading, e *planner.Estimate) string {
	if e == nil || e.Serving == nil || !e.Memory.Fits {
		return ""
	}
	got, what := servedLatency(rd, e.Serving), latencyOf(p, rd)
	target := planner.FormatSeconds(rd.LatencyTargetS)
	if got <= rd.LatencyTargetS {
		return " " + p.Tf("Within your %s target for %s (%s).", target, what, planner.FormatSeconds(got))
	}
	return " " + p.Tf("Over your %s target for %s (%s): fewer requests at once, a faster GPU or more tensor parallelism brings it down.", target, what, planner.FormatSeconds(got))
}

// bigCount writes a large count as people read it: "7B", "93.4M" in
// English, "70억" in Korean.
func bigCount(p *i18n.Printer, v float64) string {
	if p.Korean() {
		return p.Count(math.Round(v))
	}
	if v <= 0 {
		return lang.Num(0)
	}
	d := math.Pow(10, math.Floor(math.Log10(v))-2) // three significant figures
	return lang.Num(math.Round(v/d) * d)
}

// widestFormat answers "4090에 올릴려면 몇비트 양자화 해야댐?", "how many bits
// to fit gemma 3 27b on a 4090": the widest weight format, of 16, 8 and 4
// bits, that holds the job on the hardware named (one of it when no count
// is said, the team's fastest server's GPU when none is named), and what
// each wider one needs; the card below plans that format.
func (s *Set) widestFormat(p *i18n.Printer, req planner.Request) (planner.Request, string, error) {
	hw, ok := s.sideBySideGPU(req)
	if !ok {
		return req, "", nil
	}
	if len(req.Targets) == 0 {
		hw.Count, hw.GPUsPerNode, hw.Server = 1, 0, ""
	}
	var over []string
	for _, f := range []planner.Precision{planner.BF16, planner.INT8, planner.INT4} {
		j := req.Job
		j.Precision = f
		if f == planner.BF16 && !hw.GPU.Supports(planner.BF16) {
			j.Precision = planner.FP16
		}
		res, err := s.deps.Catalog.Plan(planner.Request{Job: j, Targets: []planner.Hardware{hw}, NoSearch: true})
		if err != nil || len(res.Plans) == 0 {
			continue
		}
		e := res.Plans[0]
		if !e.Memory.Fits {
			over = append(over, p.Tf("%s needs %.0f GiB", j.Precision, e.Memory.PerGPUGiB))
			continue
		}
		req.Job, req.Targets = j, []planner.Hardware{hw}
		line := p.Tf("%s is the widest that fits on %s (%.0f of %.0f GiB per GPU)", j.Precision, hwText(p, e), e.Memory.PerGPUGiB, e.Memory.CapacityGiB)
		if len(over) > 0 {
			line += "; " + strings.Join(over, ", ")
		}
		return req, line + ".", nil
	}
	return req, p.Tf("Not even 4 bits fit on %s (%s); more GPUs or a larger card hold it.", hwText(p, &planner.Estimate{GPUs: hw.Count, GPUName: hw.GPU.Name, Server: hw.Server}), strings.Join(over, ", ")), nil
}

// withinAnswered reports whether atOnceWithin answered the question: the
// most requests at once, or a second, that stay within the latency said,
// which sets the target against the figures itself.
func withinAnswered(rd lang.Reading) bool {
	j := rd.Request.Job
	return rd.LatencyTargetS > 0 && (rd.MaxBatch && rd.LatencyPerToken || rd.RequestRate && j.Workload == planner.Inference && j.Concurrency == 0 && j.RequestRate == 0 && !rd.CountOpen)
}
