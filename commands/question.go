package commands

import (
	"context"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// PlanData is a plan's --json form: the planner's result with what was read
// and, for a question, its answer in one line.
type PlanData struct {
	// ReadAs restates the request (the "Read as:" line), in the reply's
	// language (Lang): canonical words in English.
	ReadAs string `json:"read_as"`
	// Request is the request as the language restates it in English
	// (lang.RequestText): what a follow-up in the same conversation is
	// read with (Request.Earlier).
	Request string `json:"request"`
	// Question is the question asked ("fit", "time", "count", "which_gpu",
	// "which_server", "cost"), empty for a plain request.
	Question string `json:"question,omitempty"`
	// Answer is the one-line answer to a "how many" question.
	Answer string `json:"answer,omitempty"`
	// Also are the plans of the other questions a message asked, in
	// order, when it asked several ("… on an a100? also how many h100s
	// to serve …"); this one answers the first.
	Also []*PlanData `json:"also,omitempty"`
	*planner.Result
}

// planEnv is what plan requests are read against: the catalogue and the
// team's servers.
func (s *Set) planEnv() lang.Env { return s.planEnvCtx(context.Background()) }

// planEnvCtx is planEnv whose Hub look-ups end with ctx.
func (s *Set) planEnvCtx(ctx context.Context) lang.Env {
	env := lang.Env{Catalog: s.deps.Catalog, Now: time.Now(), KRWPerUSD: s.deps.KRWPerUSD}
	if models := s.deps.Models; models != nil {
		env.Resolve = func(ref string) (planner.Model, error) { return models(ctx, ref) }
	}
	if inv := s.deps.Inventory; inv != nil {
		if inv.Timezone != nil {
			env.Now = env.Now.In(inv.Timezone) // "by friday" ends on the team's Friday
		}
		for _, srv := range inv.Servers {
			env.Servers = append(env.Servers, srv.Hardware())
		}
		env.Models = inv.Models
	}
	return env
}

// countLadder is the GPU counts a "how many" question tries.
var countLadder = []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}

// pricesSaid gives the named GPUs the hourly price said ("on 1x h100 at
// $2.5/hr", "h100 시간당 2.5달러면"); the search keeps it as a ceiling.
func pricesSaid(p *i18n.Printer, rd lang.Reading, req *planner.Request) {
	if rd.MaxGPUHourUSD <= 0 {
		return
	}
	for i := range req.Targets {
		req.Targets[i].GPU.PriceUSD = rd.MaxGPUHourUSD
		req.Targets[i].GPU.PriceSource = p.T("the price you gave")
	}
}

// answerQuestion turns the question a request asks into the request to
// plan. "Which of our servers" plans on every team server (teamRanking);
// "how many H100s (to finish in a day)?" tries counts of that GPU
// (fewestGPUs). Other questions are answered by the plan card itself.
//
// answerQuestion is long on purpose: it is the one dispatch from each kind
// of question to the answer that works it out, a case each, in the order
// they take precedence.
func (s *Set) answerQuestion(p *i18n.Printer, rd lang.Reading) (planner.Request, string, error) {
	req := rd.Request
	if b := req.Baseline; b != nil && len(req.Targets) == 0 && len(req.Pool) == 0 && (rd.Ask == lang.AskTime || rd.Ask == lang.AskCost || rd.Ask == lang.AskNone) {
		// "4090 1장에서 초당 1500 토큰 나오는데 3억 토큰이면 며칠?": no other
		// hardware named, so the question is of the hardware it ran on
		req.Targets = []planner.Hardware{b.Hardware}
	}
	pricesSaid(p, rd, &req)
	switch {
	case rd.Ask == lang.AskWhichServer && len(req.Targets) == 0 && s.deps.Inventory != nil && len(s.deps.Inventory.Servers) > 0:
		req.Targets = s.teamRanking(req)
		req.Compare = len(req.Targets) > 1
		return req, "", nil
	case liveAsked(rd, req):
		return s.liveAnswer(p, rd, req) // "can it keep up with 10 live streams", "실시간 몇 배속"
	case rd.Buying && len(req.Targets) == 0 && len(req.Pool) == 0 && rd.Ask != lang.AskCount && rd.Ask != lang.AskAmount:
		// "서버 새로 사려는데 llama 70b 파인튜닝용으로 뭐 사야돼?"
		return s.buyOptions(p, req)
	case rd.NeedAsked != "" && len(req.Targets) == 1:
		return s.needAnswer(p, rd, req) // "or do I need ZeRO-3?"
	case rd.LargestModel:
		return s.largestModel(p, rd, req)
	case rd.BitsAsked:
		return s.widestFormat(p, req)
	case rd.ComparePrecisions[0] != "":
		return req, s.precisionsSideBySide(p, rd, req), nil
	case rd.Variant != nil:
		return s.variantAnswer(p, rd, req)
	case rd.CompareCkpt:
		return req, s.compareCheckpointing(p, req), nil
	case rd.CompareOpen:
		return s.fewestSaid(p, req), "", nil
	case len(rd.OpenTargets) > 0:
		return s.fewestOpen(rd, req), "", nil
	case rd.Ask == lang.AskCount && len(req.Targets) == 1 && req.Targets[0].Server != "" && req.Job.Workload == planner.Inference && (req.Job.RequestRate > 0 || req.Job.Concurrency > 0):
		// "would hana handle 20 req/s, and how many GPUs should we set aside?"
		return s.loadOnServer(p, rd, req)
	case rd.Ask == lang.AskCount && len(req.Targets) == 0 && len(req.Pool) == 0:
		// "how many GPUs to pretrain a 3b model on 300B tokens in 2
		// weeks": of the GPU the plan recommends, as many as the deadline
		// takes; with no deadline or load ("라마3 8b 학습 시킬려면 gpu
		// 몇개", "serve mixtral with tgi, how many gpus"), the fewest that
		// hold it, not the whole server the search would pick for speed
		if hw, ok := s.recommendedGPU(req); ok {
			req.Targets = []planner.Hardware{hw}
			return s.fewestGPUs(p, rd, req)
		}
		return req, "", nil
	case rd.Memory && rd.Ask == lang.AskFit && len(req.Targets) == 0 && len(req.Pool) == 0:
		// "how much vram does llama 3 8b need": on the fewest of the
		// recommended GPU that hold it, so the peak is one replica's,
		// not a share of a spread the search preferred for speed
		if hw, ok := s.recommendedGPU(req); ok {
			req.Targets = []planner.Hardware{hw}
			if r, _, err := s.fewestGPUs(p, rd, req); err == nil {
				return r, "", nil
			}
			req.Targets = nil
		}
		return req, "", nil
	case rd.Ask == lang.AskAmount && (rd.CountOpen || len(req.Targets) == 0 && len(req.Pool) == 0):
		// "with $5000, how many tokens can I pretrain on h100s": on the
		// fewest of the GPU (named, or the recommended one) that hold it
		open := rd
		open.Deadline = 0 // the time is spent, not met
		if len(req.Targets) == 0 {
			hw, ok := s.recommendedGPU(req)
			if !ok {
				return req, "", nil
			}
			req.Targets = []planner.Hardware{hw}
		}
		if r, _, err := s.fewestGPUs(p, open, req); err == nil {
			return r, "", nil
		}
		return req, "", nil
	case rd.Ask == lang.AskWhichServer && len(req.Targets) == 0 && len(req.Pool) > 0:
		return req, "", nil
	case rd.MaxBatch && rd.LatencyPerToken && rd.LatencyTargetS > 0 && req.Job.Workload == planner.Inference && len(req.Targets) == 1 && !rd.CountOpen:
		// "how many concurrent users at ~20 tok/s each", "유저당 초당 20토큰 기준 동접 몇 명"
		return s.atOnceWithin(p, rd, req)
	case withinAnswered(rd) && rd.RequestRate && len(req.Targets) <= 1:
		return s.rateWithinTarget(p, rd, req) // "QPS 얼마나 나와요? p50 latency 200ms 이하로요"
	}
	return s.oneOrFewest(p, rd, req)
}

// oneOrFewest plans a GPU named with no count ("llama 70b lora h100으로
// 하면 비용 얼마야?", "h100 빌리면 시간당 얼마야? llama 70b lora 돌리려고")
// on one of it when one holds the job, else, when a time or a cost is
// asked, on the fewest that do, and says so: one that cannot hold it
// answers neither. Asked nothing, or whether it fits, one is planned and
// the card says what to change. A
// count left open ("on h100s", "몇 장") is always the fewest.
func (s *Set) oneOrFewest(p *i18n.Printer, rd lang.Reading, req planner.Request) (planner.Request, string, error) {
	if rd.CountOpen {
		return s.fewestGPUs(p, rd, req)
	}
	if !rd.CountUnsaid || len(req.Targets) != 1 || req.Targets[0].Count != 1 || req.Baseline != nil || rd.Ask != lang.AskCost && rd.Ask != lang.AskTime || rd.Memory {
		return req, "", nil
	}
	r, err := s.deps.Catalog.Plan(planner.Request{Job: req.Job, Targets: req.Targets, NoSearch: true})
	if err != nil || len(r.Plans) == 0 || r.Plans[0].Memory.Fits {
		return req, "", nil
	}
	if open, line, err := s.fewestGPUs(p, rd, req); err == nil && open.Targets[0].Count > 1 {
		if rd.Latency || rd.Rate {
			line = "" // the latency or rate asked, on the fewest that hold it, is the answer
		}
		return open, line, nil
	}
	return req, "", nil
}

// recommendedGPU is one of the GPU a count question with no GPU named is
// answered in: the team's fastest server's GPU, or with no team servers
// the catalogue's balanced pick; off any server, so a count of it can go
// beyond what a server holds.
func (s *Set) recommendedGPU(req planner.Request) (planner.Hardware, bool) {
	if s.deps.Inventory != nil && len(s.deps.Inventory.Servers) > 0 {
		if ranked := s.teamRanking(req); len(ranked) > 0 {
			return planner.Hardware{GPU: ranked[0].GPU, Count: 1}, true
		}
	}
	r, err := s.deps.Catalog.Plan(req)
	if err != nil || r.Recommendations.Balanced == nil {
		return planner.Hardware{}, false
	}
	return planner.Hardware{GPU: r.Recommendations.Balanced.Hardware().GPU, Count: 1}, true
}

// fewestSaid plans each GPU type of a comparison said without counts on
// the fewest that hold the job, and says so where that is more than one
// ("4090에서 h100으로 바꾸면": one 4090 does not hold it, so two are set
// against the H100).
func (s *Set) fewestSaid(p *i18n.Printer, req planner.Request) planner.Request {
	req.Targets = s.fewestEach(req)
	for _, hw := range req.Targets {
		if hw.Count > 1 {
			req.Job.Notes = append(req.Job.Notes, p.Tf("one %s does not hold this job: it is compared on %d, the fewest that do", hw.GPU.Name, hw.Count))
		}
	}
	return req
}

// fewestOpen gives the GPUs of a comparison said without a count, beside
// ones said with one or as a team server ("our server-a vs renting
// h100s"), the fewest of each that hold the job.
func (s *Set) fewestOpen(rd lang.Reading, req planner.Request) planner.Request {
	req.Targets = slices.Clone(req.Targets)
	for _, k := range rd.OpenTargets {
		one := req
		one.Targets = req.Targets[k : k+1]
		req.Targets[k] = s.fewestEach(one)[0]
	}
	return req
}

// holdsUsers reports whether e holds every request in flight a serving
// job says ("for 200 users"): the KV cache of each replica times the
// replicas. A job with no concurrency said holds its users.
func holdsUsers(e *planner.Estimate, j planner.Job) bool {
	if j.Workload != planner.Inference || j.Concurrency <= 0 {
		return true
	}
	replicas := e.GPUs / max(1, e.TensorParallel*e.PipelineParallel)
	return e.Memory.MaxMicroBatch*max(1, replicas) >= j.Concurrency
}

// fewestEach gives each GPU type of a comparison said without counts the
// fewest of it that hold the job ("h100 vs a100 for llama 3 70b lora":
// 4 H100s against 4 A100s, not one of each that does not fit); a type no
// count holds stays at one, and its column says so.
func (s *Set) fewestEach(req planner.Request) []planner.Hardware {
	out := append([]planner.Hardware(nil), req.Targets...)
	for i, base := range out {
		for _, n := range countLadder {
			hw := base
			hw.Count, hw.GPUsPerNode = n, 0
			r, err := s.deps.Catalog.Plan(planner.Request{Job: req.Job, Targets: []planner.Hardware{hw}, NoSearch: true, Baseline: req.Baseline})
			if err == nil && len(r.Plans) > 0 && r.Plans[0].Memory.Fits && holdsUsers(r.Plans[0], req.Job) {
				out[i] = hw
				break
			}
		}
	}
	return out
}

// teamRanking is every team server's hardware, the fastest run that fits
// first; the team section then adds when each is free, and the answer
// line names the earliest finish.
func (s *Set) teamRanking(req planner.Request) []planner.Hardware {
	type ranked struct {
		hw    planner.Hardware
		hours float64
	}
	var rs []ranked
	for _, srv := range s.deps.Inventory.Servers {
		hw := srv.Hardware()
		h := math.Inf(1)
		if r, err := s.deps.Catalog.Plan(planner.Request{Job: req.Job, Targets: []planner.Hardware{hw}, NoSearch: true, Baseline: req.Baseline}); err == nil &&
			len(r.Plans) > 0 && r.Plans[0].Memory.Fits {
			if sps := r.Plans[0].Throughput.SamplesPerS; sps > 0 {
				h = 1 / sps // no amount: the time per sample ranks them (steps differ in batch)
			}
			if r.Plans[0].Time.TotalHours != nil {
				h = *r.Plans[0].Time.TotalHours
			}
		}
		rs = append(rs, ranked{hw, h})
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].hours < rs[j].hours })
	out := make([]planner.Hardware, len(rs))
	for i, r := range rs {
		out[i] = r.hw
	}
	return out
}

// answerLine answers a question in one line from the plan: whether it
// fits, how long, what it costs, or which team server finishes first.
//
// answerLine is long on purpose: one switch over the kinds of question,
// each answer beside its kind.
func answerLine(p *i18n.Printer, rd lang.Reading, res *planner.Result) string {
	e := firstEstimate(res)
	if e == nil {
		if rd.Ask == lang.AskFit {
			return p.T("No — nothing searched holds this job; see what to change below.")
		}
		return ""
	}
	if rd.Ask == lang.AskAmount {
		return amountAnswer(p, rd, e, res.Job)
	}
	if (rd.Ask == lang.AskTime || rd.Ask == lang.AskNone || rd.Ask == lang.AskWhichGPU) && rd.Budget > 0 && e.Time.TotalHours == nil && res.Job.Workload != planner.Inference {
		// "100만원이면 몇시간?", "a $2000 budget, the cheapest way to
		// QLoRA Mixtral?" with no dataset: the hours the money buys there,
		// and the work they cover
		return amountAnswer(p, rd, e, res.Job)
	}
	if s := preferredPick(p, rd, res); s != "" {
		return s
	}
	hw := hwText(p, e)
	hours := ""
	if e.Time.TotalHours != nil {
		hours = planner.FormatHoursIn(p, *e.Time.TotalHours)
	}
	if rd.Deadline > 0 && !rd.CountOpen && e.Memory.Fits && e.Time.TotalHours != nil {
		// "… on server-a in under a week": does it make the deadline?
		took := time.Duration(*e.Time.TotalHours * float64(time.Hour))
		if took <= rd.Deadline {
			return p.Tf("Yes — %s on %s, within %s.", hours, hw, durationWords(p, rd.Deadline))
		}
		return p.Tf("No — %s on %s, past %s; ask how many GPUs it needs to finish in time.", hours, hw, durationWords(p, rd.Deadline))
	}
	if len(res.Plans) > 1 && res.Compare && (rd.Ask == lang.AskTime || rd.Ask == lang.AskCost || rd.Ask == lang.AskWhichGPU && rd.Prefer == "cheapest") {
		// "how long on 1, 2, 4, 8 H100s?": every column; asked in money, each with its cost
		return compareSummaryIn(p, res, rd.Ask == lang.AskCost || rd.Prefer == "cheapest")
	}
	if rd.KVLeft {
		if s := kvRoom(p, e, res.Job); s != "" {
			return s
		}
	}
	if rd.Memory {
		return memoryAnswer(p, e, hw) + kvShare(p, rd, e, res.Job)
	}
	if rd.MaxBatch && e.Memory.Fits && rd.Request.Job.Workload == planner.Inference && e.InferencePath == "decode" {
		if n := servedAtOnce(e); n > 0 {
			return p.Tf("Up to %d sequences of %d tokens at once on %s: what the KV cache has room for.", n, res.Job.SeqLen, hw)
		}
	}
	if rd.MaxBatch && !e.Memory.Fits && rd.Request.Job.Workload != planner.Inference {
		// "배치 몇까지 돼?" where one sample does not fit: no batch does
		return p.Tf("No batch fits on %s: even a micro-batch of one needs %.0f GiB per GPU and it has %.0f; see what to change below.", hw, e.Memory.PerGPUGiB, e.Memory.CapacityGiB)
	}
	if rd.MaxBatch && e.Memory.Fits && e.Memory.MaxMicroBatch > 0 {
		return p.Tf("The largest micro-batch that fits on %s is %d per GPU (planned at %d).", hw, e.Memory.MaxMicroBatch, e.MicroBatch)
	}
	switch rd.Ask {
	case lang.AskFit:
		if c := rd.Request.Job.Concurrency; c > 0 && e.Memory.Fits && e.InferencePath == "decode" && servedAtOnce(e) > 0 {
			// "동접 20명 됨?": do that many requests fit in the KV cache at once
			if n := servedAtOnce(e); n >= c {
				return p.Tf("Yes — %d requests at once fit on %s: its KV cache holds up to %d sequences of %d tokens.", c, hw, n, res.Job.SeqLen)
			} else {
				return p.Tf("No — %s holds %d sequences of %d tokens in its KV cache at once, not %d; see what to change below.", hw, n, res.Job.SeqLen, c)
			}
		}
		if j := rd.Request.Job; e.Memory.Fits && e.GradAccum > 1 && j.GlobalBatch > 0 && j.MicroBatch == 0 && e.Memory.MaxMicroBatch < e.MicroBatch*e.GradAccum {
			// "배치 64 … 한장 oom 나?": it fits only as smaller micro-batches; say so
			return p.Tf("Yes, as micro-batches of %d with %d accumulation steps on %s (%.0f of %.0f GiB per GPU); a batch of %d in one pass does not fit.", e.MicroBatch, e.GradAccum, hw, e.Memory.PerGPUGiB, e.Memory.CapacityGiB, e.MicroBatch*e.GradAccum)
		}
		if sv := e.Serving; e.Memory.Fits && sv != nil && sv.CPULayers > 0 {
			// "5090으로 70b q4 돌아가?": only with layers in host memory, and slowly
			return p.Tf("Only with %d of %d layers in host memory on %s (the GPUs hold %d): about %.1f tokens/s, held back by the CPU's layers.",
				sv.CPULayers, sv.CPULayers+sv.GPULayers, hw, sv.GPULayers, e.Throughput.TokensPerS)
		}
		if e.Memory.Fits {
			return p.Tf("Yes — it fits on %s: %.0f of %.0f GiB per GPU.", hw, e.Memory.PerGPUGiB, e.Memory.CapacityGiB) + kvShare(p, rd, e, res.Job) + alsoPace(p, rd, e)
		}
		if e.Memory.OverEngineCap() {
			return p.Tf("No — on %s it needs %.2f GiB per GPU, more than the %.2f GiB of %.0f a serving engine takes (vLLM's gpu_memory_utilization 0.9); see what to change below.", hw, e.Memory.PerGPUGiB, e.Memory.EngineCapGiB, e.Memory.CapacityGiB)
		}
		return p.Tf("No — on %s it needs %.0f GiB per GPU and has %.0f; see what to change below.", hw, e.Memory.PerGPUGiB, e.Memory.CapacityGiB)
	case lang.AskTime:
		if !e.Memory.Fits {
			return p.Tf("It does not fit on %s (%.0f of %.0f GiB per GPU); see what to change below.", hw, e.Memory.PerGPUGiB, e.Memory.CapacityGiB)
		}
		if rd.AudioRate && e.Throughput.SamplesPerS > 0 && rd.Request.Job.Model.Kind == planner.EncDec {
			// "how many hours of audio an hour": 30-second windows a second, in audio time
			x := e.Throughput.SamplesPerS * 30
			return p.Tf("About %.0f hours of audio an hour on %s (%.0fx real time), in 30-second windows.", x, hw, x) + " " +
				p.Tf("That is about %.0f live streams at once, batched.", math.Round(x))
		}
		if sv := e.Serving; sv != nil && rd.PerUser && sv.TPOTS > 0 {
			// "tokens/s per user at 32 concurrent users": each stream's pace
			return p.Tf("About %s tokens/s per user (%s a token) with %d in flight on %s; %s tokens/s in all.",
				lang.Num(math.Round(1/sv.TPOTS)), planner.FormatSeconds(sv.TPOTS), int(math.Round(sv.Concurrency)), hw, p.Count(sv.OutputTokPS))
		}
		// "tokens per second?", or how fast a served model runs: its rate
		rate := rd.Rate || hours == "" && rd.Request.Job.Workload == planner.Inference
		if s := forwardRate(p, rd, e, hw, rate); s != "" {
			return s
		}
		if sv := e.Serving; sv != nil && rd.Latency {
			return p.Tf("First token after %.0f ms, then %.1f ms a token: %.1f s a request of %d output tokens on %s (%d in flight).", sv.TTFTS*1000, sv.TPOTS*1000, sv.LatencyS, sv.OutputTokens, hw, int(math.Round(sv.Concurrency)))
		}
		if sv := e.Serving; sv != nil && rd.RequestRate {
			return p.Tf("About %.2f requests/s on %s (%.0f output tokens/s).", sv.RequestsPerS, hw, sv.OutputTokPS)
		}
		if rd.Latency && e.InferencePath == "decode" && e.Serving == nil && e.Time.PerTokenS > 0 {
			return p.Tf("About %.1f ms a token (%.0f tokens/s) on %s, after %.0f ms for the prompt.", e.Time.PerTokenS*1000, e.Throughput.TokensPerS, hw, e.Time.PrefillS*1000)
		}
		if rate && e.Throughput.TokensPerS > 0 {
			// "tokens per second?": the throughput (decode for inference)
			return usersAtOnce(p, e, rd.Request.Job.Concurrency) + p.Tf("About %.0f tokens/s on %s.", e.Throughput.TokensPerS, hw)
		}
		if b := rd.Request.Baseline; hours != "" && b != nil && b.Unit == planner.HoursPerEpoch && rd.Request.Job.Epochs == 0 {
			return p.Tf("About %s an epoch on %s.", hours, hw) // the measured run's epoch, the only work said
		}
		if rd.GPUHours && e.Time.TotalHours != nil {
			return gpuHoursLine(p, e, hw)
		}
		if rd.StepTime && e.Time.StepS > 0 && rd.Request.Baseline == nil {
			// "스텝당 몇초": a step of the plan's batch
			return p.Tf("About %.2f s a step on %s (micro-batch %d × %d accumulation × %d GPUs).", e.Time.StepS, hw, e.MicroBatch, e.GradAccum, e.GPUs/max(1, e.TensorParallel*e.PipelineParallel))
		}
		if b := rd.Request.Baseline; b != nil && b.Unit == planner.TokensPerS && e.Throughput.TokensPerS > 0 && !workSaid(rd.Request.Job) && rd.Request.Job.Workload != planner.Inference {
			// "we measured 1,800 tokens/s training … on one 4090; on server-h?": the rate there
			return p.Tf("About %s tokens/s on %s (measured %s on %d× %s).", p.Count(e.Throughput.TokensPerS), hw, p.Count(b.Value), b.Hardware.Count, b.Hardware.GPU.Name)
		}
		if b := rd.Request.Baseline; b != nil && b.Unit == planner.SamplesPerS && e.Throughput.SamplesPerS > 0 && !workSaid(rd.Request.Job) {
			// "v100 8장에서 초당 3000장 나왔는데 h100 8장이면?": the rate there
			return p.Tf("About %s samples/s on %s (measured %s on %d× %s).", p.Count(e.Throughput.SamplesPerS), hw, p.Count(b.Value), b.Hardware.Count, b.Hardware.GPU.Name)
		}
		if b := rd.Request.Baseline; b != nil && b.Unit == planner.SecPerStep && e.Time.StepS > 0 && !workSaid(rd.Request.Job) {
			// "스텝당 1.2초 나왔는데 h200 4장이면 몇초?": a step of the same batch there
			return p.Tf("About %.2f s a step on %s (measured %.2f s).", e.Time.StepS, hw, b.Value)
		}
		if hours != "" {
			return p.Tf("About %s on %s.", hours, hw)
		}
	case lang.AskCost:
		if c := perMillionTokens(e); e.CostUSD == nil && e.Memory.Fits && rd.Request.Job.Workload == planner.Inference && c > 0 && e.PriceUSDPerGPUH > 0 {
			// "cost per 1M output tokens to serve …": what the GPUs' hours
			// cost over the tokens they generate at the planned load
			return p.Tf("About %s per 1M generated tokens on %s at %s tokens/s (%s an hour for the GPUs).",
				money(c), hw, p.Count(e.Throughput.TokensPerS), money(float64(e.GPUs)*e.PriceUSDPerGPUH))
		}
		if e.CostUSD != nil && e.Memory.Fits {
			return p.Tf("About %s on %s (%s).", planner.FormatUSDIn(p, *e.CostUSD), hw, hours)
		}
		if h := e.Time.HoursPerMillionSamples; e.CostUSD == nil && e.Memory.Fits && h > 0 && e.PriceUSDPerGPUH > 0 && rd.Request.Job.Workload != planner.Inference {
			// no amount of work said: the cost of the card's unit, a
			// million samples, and what says the total
			return p.Tf("About %s per 1M samples on %s (%s at $%.2f an hour); say the dataset size (`of 50k samples`, `1B tokens`) for the total.",
				planner.FormatUSDIn(p, h*float64(e.GPUs)*e.PriceUSDPerGPUH), hw, planner.FormatHoursIn(p, h), e.PriceUSDPerGPUH*float64(e.GPUs))
		}
	case lang.AskWhichServer:
		if s := cloudAgainstTeam(p, rd, e, res); s != "" {
			return s
		}
		if s := cheapestServer(p, rd, res); s != "" {
			return s
		}
		if s := oneUserServer(p, rd, res); s != "" {
			return s
		}
		if s := loadServer(p, rd, res); s != "" {
			return s
		}
		if e = fastestPlan(res.Plans); len(res.Plans) > 1 && e != nil && e.Server != "" {
			// the servers as named ("server-a랑 server-h 비교"), or ranked:
			// the fastest that fits leads either way
			s := p.Tf("%s runs it fastest", e.Server)
			if rd.FitAsked {
				s = p.Tf("Yes — it fits on %d of the team's %d servers; %s", fittingServers(res.Plans), len(res.Plans), s)
			}
			if e.Time.TotalHours != nil {
				s += " (" + planner.FormatHoursIn(p, *e.Time.TotalHours) + ")"
			}
			return s + otherServers(p, e, res.Plans, func(o *planner.Estimate) string {
				if o.Time.TotalHours == nil {
					return ""
				}
				return planner.FormatHoursIn(p, *o.Time.TotalHours)
			})
		}
	}
	return ""
}

// oneUserServer answers which server to serve a model on when no load is
// said ("올라마로 LLM 써보고 싶은데 회사 서버 중에 뭘 써야하나요?"): one
// person trying it needs the server that holds it at the least GPU cost,
// not the fastest, which would hold all eight H100s for a 4-bit 7B model.
func oneUserServer(p *i18n.Printer, rd lang.Reading, res *planner.Result) string {
	j := rd.Request.Job
	if j.Workload != planner.Inference || j.RequestRate > 0 || j.Concurrency > 0 || j.GlobalBatch > 0 || j.OutputTokPS > 0 || len(res.Plans) < 2 {
		return ""
	}
	var small, fast *planner.Estimate
	cost := func(e *planner.Estimate) float64 { return float64(e.GPUs) * max(e.PriceUSDPerGPUH, 0.01) }
	for _, e := range res.Plans {
		if e.Server == "" || !e.Memory.Fits {
			continue
		}
		if small == nil || cost(e) < cost(small) {
			small = e
		}
		if fast == nil || e.Throughput.TokensPerS > fast.Throughput.TokensPerS {
			fast = e
		}
	}
	if small == nil || small == fast || small.Throughput.TokensPerS <= 0 {
		return ""
	}
	return p.Tf("%s holds it, enough for one person trying it (%s tokens/s); %s runs it fastest (%s tokens/s), for many users at once.",
		small.Server, p.Count(small.Throughput.TokensPerS), fast.Server, p.Count(fast.Throughput.TokensPerS))
}

// teamPool is every way to run on the team's servers: each server at 1, 2,
// 4 … of its GPUs and whole, so the search can recommend part of a box.
func (s *Set) teamPool() []planner.Hardware {
	if s.deps.Inventory == nil {
		return nil
	}
	var pool []planner.Hardware
	for _, srv := range s.deps.Inventory.Servers {
		full := srv.Hardware()
		for n := 1; n <= full.Count; n *= 2 {
			if n == full.Count {
				break
			}
			part := full
			part.Count = n
			if len(part.IDs) > n {
				part.IDs = part.IDs[:n]
			}
			pool = append(pool, part)
		}
		pool = append(pool, full)
	}
	return pool
}

// preferredPick answers "the cheapest way to …", "제일 빠른 구성" with that
// pick of the search, not the balanced one; "" when the request named its
// hardware or asked no such thing.
func preferredPick(p *i18n.Printer, rd lang.Reading, res *planner.Result) string {
	if rd.Budget > 0 && len(res.Plans) == 0 {
		return withinBudget(p, rd.Budget, rd.Prefer == "cheapest", res)
	}
	if rd.Prefer == "" || len(res.Plans) > 0 || !(rd.Ask == lang.AskNone || rd.Ask == lang.AskWhichGPU || rd.Ask == lang.AskCost || rd.Ask == lang.AskFit) {
		return ""
	}
	rec := res.Recommendations
	switch {
	case rd.Prefer == "cheapest" && rec.Cheapest != nil:
		return p.Tf("cheapest: %s", estimateSummary(p, rec.Cheapest, res.Job))
	case rd.Prefer == "fastest" && rec.Fastest != nil:
		return p.Tf("fastest: %s", estimateSummary(p, rec.Fastest, res.Job))
	}
	return ""
}

// jobLoad is the requests at once a served plan was asked for: the
// concurrency said, within what fits; 0 when the engine's own fill was
// planned.
func jobLoad(sv *planner.Serving) int {
	if sv.Concurrency >= float64(sv.MaxInFlight) {
		return 0
	}
	return int(math.Ceil(sv.Concurrency))
}

// kvRoom answers "kv캐시 몇기가 남아?": what the GPUs have left for the KV
// cache once the weights and the workspace are in, and how many sequences
// of the context fit in it; "" when the plan is no served decoder.
func kvRoom(p *i18n.Printer, e *planner.Estimate, job planner.JobInfo) string {
	if e.InferencePath != "decode" || !e.Memory.Fits {
		return ""
	}
	used := e.Memory.PerGPUGiB
	for _, it := range e.Memory.Breakdown {
		if it.Name == "KV cache" {
			used -= it.GiB
		}
	}
	room := (e.Memory.CapacityGiB - used) * float64(max(1, e.TensorParallel))
	return p.Tf("About %.0f GiB is left for the KV cache on %s: %d sequences of %d tokens at once.", room, hwText(p, e), servedAtOnce(e), job.SeqLen)
}

// kvShare is what a memory answer adds when the KV cache was named: its
// part of the peak per GPU, for how many sequences of how many tokens.
func kvShare(p *i18n.Printer, rd lang.Reading, e *planner.Estimate, job planner.JobInfo) string {
	if !rd.KVCache {
		return ""
	}
	for _, it := range e.Memory.Breakdown {
		if it.Name == "KV cache" && it.GiB > 0 {
			all := it.GiB * float64(max(1, e.TensorParallel)*max(1, e.PipelineParallel))
			if e.MicroBatch <= 1 {
				return " " + p.Tf("The KV cache is %.1f GiB of it, for one sequence of %d tokens.", all, job.SeqLen)
			}
			return " " + p.Tf("The KV cache is %.1f GiB of it, for %d sequences of %d tokens.", all, e.MicroBatch, job.SeqLen)
		}
	}
	return ""
}

// withinBudget answers a request with a cost ceiling: the fastest of the
// search's picks that keeps under it, else the cheapest and what it costs.
func withinBudget(p *i18n.Printer, budget float64, cheapest bool, res *planner.Result) string {
	rec := res.Recommendations
	picks := []*planner.Estimate{rec.Fastest, rec.Balanced, rec.Cheapest}
	if cheapest {
		picks = []*planner.Estimate{rec.Cheapest} // "예산 200불 … 제일 싼 거"
	}
	for _, e := range picks {
		if e != nil && e.CostUSD != nil && *e.CostUSD <= budget {
			return p.Tf("within %s: %s", planner.FormatUSDIn(p, budget), estimateSummary(p, e, res.Job))
		}
	}
	if c := rec.Cheapest; c != nil && c.CostUSD != nil {
		return p.Tf("nothing searched stays within %s; the cheapest: %s", planner.FormatUSDIn(p, budget), estimateSummary(p, c, res.Job))
	}
	return ""
}

// longestContext answers "max context on a 4090": the longest sequence
// that fits the plan's hardware at micro-batch 1, found by halving the
// range between a context that fits and one that does not (to 1 %).
func (s *Set) longestContext(p *i18n.Printer, req planner.Request, res *planner.Result) string {
	e := firstEstimate(res)
	if e == nil {
		return ""
	}
	h := planner.Hardware{Count: e.GPUs}
	if len(req.Targets) > 0 {
		h = req.Targets[0]
	} else if g, _, err := s.deps.Catalog.GPU(e.GPU); err == nil {
		h.GPU = g
	} else {
		return ""
	}
	req.Job.MicroBatch, req.Job.GlobalBatch, req.Job.GlobalBatchTokens = 1, 1, 0
	fits := func(seq int) bool {
		r := req
		r.Job.SeqLen, r.NoSearch, r.Targets, r.Compare, r.Baseline = seq, true, []planner.Hardware{h}, false, nil
		out, err := s.deps.Catalog.Plan(r)
		return err == nil && len(out.Plans) > 0 && out.Plans[0].Memory.Fits
	}
	hw := hwText(p, e)
	limit := req.Job.Model.MaxCtx
	if limit <= 0 {
		limit = 1 << 20
	}
	if fits(limit) {
		return p.Tf("All of the model's %s-token context fits on %s at micro-batch 1.", thousands(float64(limit)), hw)
	}
	lo, hi := 0, limit
	if !fits(128) {
		return p.Tf("Not even 128 tokens fit on %s at micro-batch 1; see what to change below.", hw)
	}
	lo = 128
	for hi-lo > max(64, lo/100) {
		mid := lo + (hi-lo)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return p.Tf("The longest context that fits on %s at micro-batch 1 is about %s tokens (the model reads up to %s).", hw, thousands(float64(lo)), thousands(float64(limit)))
}

// forwardRate answers how fast a forward-only model (an encoder, a CNN, a
// ViT) is served: its rate in sequences or images with the batch and its
// latency, or the latency first when that was asked; "" for other plans.
// The two units keep sentences of their own: Korean counts sequences (개)
// and images (장) with different counters.
func forwardRate(p planner.Printer, rd lang.Reading, e *planner.Estimate, hw string, rate bool) string {
	if !(rate || rd.Latency) || e.Throughput.SamplesPerS <= 0 {
		return ""
	}
	ms := e.Time.BatchLatencyS * 1000
	switch e.InferencePath {
	case "forward":
		if rd.Latency && e.MicroBatch == 1 {
			return p.Tf("About %.1f ms a sequence on %s (%.0f sequences/s).", ms, hw, e.Throughput.SamplesPerS)
		}
		if rd.Latency {
			return p.Tf("About %.1f ms a batch of %d sequences on %s (%.0f sequences/s).", ms, e.MicroBatch, hw, e.Throughput.SamplesPerS)
		}
		return p.Tf("About %.0f sequences/s on %s at batch %d (%.1f ms a batch).", e.Throughput.SamplesPerS, hw, e.MicroBatch, ms)
	case "images":
		if rd.Latency && e.MicroBatch == 1 {
			return p.Tf("About %.1f ms an image on %s (%.0f images/s).", ms, hw, e.Throughput.SamplesPerS)
		}
		if rd.Latency {
			return p.Tf("About %.1f ms a batch of %d images on %s (%.0f images/s).", ms, e.MicroBatch, hw, e.Throughput.SamplesPerS)
		}
		return p.Tf("About %.0f images/s on %s at batch %d (%.1f ms a batch).", e.Throughput.SamplesPerS, hw, e.MicroBatch, ms)
	}
	return ""
}

// servedAtOnce is how many sequences a decoder's plan holds at once: the
// serving engine's limit, or the largest batch memory has room for.
func servedAtOnce(e *planner.Estimate) int {
	if e.Serving != nil {
		return e.Serving.MaxInFlight
	}
	return e.Memory.MaxMicroBatch
}

// fastestPlan is the plan that fits and takes the least time per sample,
// nil when none fits.
func fastestPlan(plans []*planner.Estimate) *planner.Estimate {
	var best *planner.Estimate
	for _, e := range plans {
		if !e.Memory.Fits || e.Throughput.SamplesPerS <= 0 {
			continue
		}
		if best == nil || e.Throughput.SamplesPerS > best.Throughput.SamplesPerS {
			best = e
		}
	}
	return best
}

// unitWords names a unit of work in p's language.
func unitWords(p *i18n.Printer, unit string) string {
	switch unit {
	case "tokens":
		return p.T("tokens")
	case "epochs":
		return p.T("epochs")
	case "steps":
		return p.T("steps")
	}
	return p.T("samples")
}

// workSaid reports whether a job names an amount of work (epochs,
// samples, tokens, steps or a dataset).
func workSaid(j planner.Job) bool {
	return j.Epochs > 0 || j.Samples > 0 || j.Tokens > 0 || j.Steps > 0 || j.DatasetSamples > 0 || j.DatasetTokens > 0
}

// compareCheckpointing answers "checkpointing on vs off": the job planned
// both ways on the named hardware (or the team's fastest server), with the
// memory each needs per GPU and its time, and what checkpointing saves
// and costs.
func (s *Set) compareCheckpointing(p *i18n.Printer, req planner.Request) string {
	hw, ok := s.sideBySideGPU(req)
	if !ok {
		return ""
	}
	var es [2]*planner.Estimate
	for i, on := range []bool{true, false} {
		j := req.Job
		j.Checkpointing, j.NoCheckpointing = on, !on
		if j.MicroBatch == 0 {
			j.MicroBatch = 1 // the same micro-batch both ways, so the saving is checkpointing's alone
		}
		r, err := s.deps.Catalog.Plan(planner.Request{Job: j, Targets: []planner.Hardware{hw}, NoSearch: true, Baseline: req.Baseline})
		if err != nil || len(r.Plans) == 0 {
			return ""
		}
		es[i] = r.Plans[0]
	}
	side := func(e *planner.Estimate) string {
		if !e.Memory.Fits {
			return p.Tf("%.0f GiB per GPU, does not fit", e.Memory.PerGPUGiB)
		}
		return p.Tf("%.0f GiB per GPU, %s", e.Memory.PerGPUGiB, stepOrTotal(p, e))
	}
	line := p.Tf("With checkpointing: %s · without: %s on %s", side(es[0]), side(es[1]), hwText(p, es[0]))
	saved := es[1].Memory.PerGPUGiB - es[0].Memory.PerGPUGiB
	switch {
	case saved >= 1 && es[0].Time.StepS > 0 && es[1].Time.StepS > 0:
		line += p.Tf(" — checkpointing saves %.0f GiB per GPU and takes %.0f%% longer a step", saved, (es[0].Time.StepS/es[1].Time.StepS-1)*100)
	case saved < 1:
		line += p.T(" — checkpointing does not lower the peak here: it comes from the weights, gradients and optimizer states, not the activations")
	}
	return line + "."
}

// stepOrTotal is an estimate's time for a side-by-side answer: the whole
// run when its work is known, else a step.
func stepOrTotal(p *i18n.Printer, e *planner.Estimate) string {
	if e.Time.TotalHours != nil {
		return planner.FormatHoursIn(p, *e.Time.TotalHours)
	}
	return p.Tf("%.2f s a step", e.Time.StepS)
}

// sideBySideGPU is the hardware a side-by-side answer plans on: the one
// named, else the team's fastest server; false with neither.
func (s *Set) sideBySideGPU(req planner.Request) (planner.Hardware, bool) {
	switch {
	case len(req.Targets) > 0:
		return req.Targets[0], true
	case s.deps.Inventory != nil && len(s.deps.Inventory.Servers) > 0:
		return s.teamRanking(req)[0], true
	}
	return planner.Hardware{}, false
}

// gpuHoursLine answers "how many h100 hours": the run's hours times its
// GPUs, with the run's time and cost.
func gpuHoursLine(p *i18n.Printer, e *planner.Estimate, hw string) string {
	gh := *e.Time.TotalHours * float64(e.GPUs)
	s := p.Tf("About %s GPU-hours on %s (%s on %d GPUs", p.Count(math.Round(gh)), hw, planner.FormatHoursIn(p, *e.Time.TotalHours), e.GPUs)
	if e.GPUs == 1 {
		s = p.Tf("About %s GPU-hours on %s (%s", p.Count(math.Round(gh)), hw, planner.FormatHoursIn(p, *e.Time.TotalHours))
	}
	if gh >= 48 {
		s += p.Tf("; %s GPU-days", p.Count(math.Round(gh/24)))
	}
	if e.CostUSD != nil {
		s += ", " + money(*e.CostUSD)
	}
	return s + ")."
}

// alsoPace is the speed or the time a fit's answer adds when it was asked
// too ("will it fit and how fast?"), "" otherwise.
func alsoPace(p *i18n.Printer, rd lang.Reading, e *planner.Estimate) string {
	switch {
	case !rd.AlsoTime:
		return ""
	case e.Time.TotalHours != nil:
		return " " + p.Tf("It takes %s.", planner.FormatHoursIn(p, *e.Time.TotalHours))
	case e.Throughput.TokensPerS > 0:
		return " " + p.Tf("About %.0f tokens/s.", e.Throughput.TokensPerS)
	case e.Throughput.SamplesPerS > 0:
		return " " + p.Tf("About %.0f samples/s.", e.Throughput.SamplesPerS)
	}
	return ""
}

// fittingServers is how many of the plans' servers hold the job.
func fittingServers(plans []*planner.Estimate) int {
	n := 0
	for _, e := range plans {
		if e.Memory.Fits {
			n++
		}
	}
	return n
}

// rateWithinTarget answers requests a second asked with a latency target
// ("QPS 얼마나 나와요? p50 latency 200ms 이하로요"): the most within it, on
// the GPU named or the team's pick.
func (s *Set) rateWithinTarget(p *i18n.Printer, rd lang.Reading, req planner.Request) (planner.Request, string, error) {
	if req.Job.Workload != planner.Inference {
		return s.oneOrFewest(p, rd, req)
	}
	if len(req.Targets) == 0 {
		hw, ok := s.recommendedGPU(req)
		if !ok {
			return req, "", nil
		}
		req.Targets = []planner.Hardware{hw}
	}
	return s.atOnceWithin(p, rd, req)
}
