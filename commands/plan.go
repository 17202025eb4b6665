package commands

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

func planCommand() Command {
	return Command{
		Name:    "plan",
		Usage:   "plan <request>",
		Summary: msg.T("Will it fit, how long, what it costs, what to use instead, how to launch it."),
		Grammar: []string{
			"model: a catalogue name (`bert-base`, `llama3-8b`, `mistral-7b` — see `models`), a size (`7b params`, `350m params`) or an architecture (`layers 24 hidden 2048 heads 16 vocab 50k`, optional `kv 8`, `ffn 8192`); the same words after a name change it (`bert-base vocab 10k`)",
			"workload: `pretrain` | `finetune` | `lora` | `qlora` | `inference` (default: finetune for catalogue models, pretrain for sizes and architectures)",
			"amount: `10 epochs of 2.5M samples` (or `of 1.2B tokens`), `1.2B tokens`, `2.5M samples`, `5000 steps`, `19,252 steps/epoch`; numbers like `2.5M`, `1.2B`, `15T`, `100k`, `2,464,256`",
			"shape: `seq 512`, `batch 128` (global, samples) or `batch 4M tokens`, `batch 128 = 4x32`, `micro 32` (per GPU)",
			"precision: `fp32` `tf32` `fp16`/`amp` `bf16` `fp8`; inference weights `int8` `int4`",
			"options: `ckpt` (gradient checkpointing), `flash` | `eager`, `ddp` `zero1` `zero2` `zero3` `fsdp`, `adamw` `adam8bit` `paged adamw 8bit` `sgd` `lion`, `hf` | `tuned` | `unsloth`, or the software's name (`trl`, `axolotl` → hf; `torchtitan`, `torchtune`, `llm-foundry`, `torch.compile`, `liger` → tuned) (default hf: Hugging Face Trainer / eager PyTorch; tuned for pretraining a language model of 1B+), `rank 16`, `gen 256`",
			"saving memory: `offload` (optimizer to CPU) | `offload params` (everything, FSDP cpu_offload), `optimizer in backward`, `pure bf16` (no fp32 master), `paged 8-bit optimizers` (states page to host), `activation offloading` (saved activations to host), `selective ckpt` (keeps part of each layer), `context parallel 8`, `tp 8 pp 2` (a layout planned as said)",
			"hardware: `on h100x2`, `on 2x h100`, `on 8x a100-sxm4-80gb`, `on 2 nodes of 8x h100`, with `nvlink` | `pcie` | `ib` — see `gpus`; `on 8 gpus` (`gpu 8장`) keeps the count and finds the GPU",
			"measured run: `baseline 5.67 h/epoch on 4x v100` (units `samples/s`, `tokens/s`, `s/step`, `h/epoch`, `h`); the plain `on …` is the target",
			"an MFU you assume: `mfu 40%` (or `MFU 40% 가정`) plans the job at that utilization on the GPUs named",
			"side by side: `compare on h200x4, a100x4, v100x4`",
			"the team's servers are hardware: `on server-h`, `on server h`, `server-v에서`, `server-h 2장` (two of its GPUs), a name said in Hangul (`베타에서` for a server named beta); `which of our servers …` ranks them",
			"ask the way you talk, in English or Korean: `how long would it take to …`, `can I run mixtral on 2x a100 80gb?`, `how many h100s do I need to … in a day`, `qlora로 llama-2-70b a100 1장에서 돌릴 수 있어?`, `4090 몇 장 필요해?`, `how much vram for llama3 8b lora?`, `the cheapest way to pretrain a 350m model on 50B tokens`, `… budget $20k`, `under $2/hr` (a ceiling on one GPU's hourly price: GPUs and team servers priced over it are left out; `시간당 2달러 이하`), `예산 3000달러로 몇 토큰까지?` or `how many epochs in 3 days?` (the work a budget or a time buys), `kv cache 얼마나 먹어?`, `ckpt on vs off`, `초당 토큰 몇 개?`, `max context on a 4090` (`최대 컨텍스트 길이`: the longest sequence that fits at micro-batch 1), `v100에서 에폭당 2시간 걸렸는데 h100이면?`, `tgi vs vllm`, `awq랑 gptq 중 메모리 덜 먹는거`, `lora vs full finetune memory`, `llama 3.1 8b vs qwen2.5 7b` (two choices of one kind, both planned on the same hardware), `dpo` (preference pairs with a reference model), `12월 15일까지`, `by dec 15`, `5k req/min`, `for 20k tok/s`, `한달 서빙하면 얼마`, `h100 8장 일주일 빌리면 얼마야` (GPUs' price with no model: their hours at the catalogue's or the team's price); question words are skipped and listed, and every answer starts with a Read as: line",
			"everyday numbers: `a single 4090`, `a pair of a100s`, `2.5 million samples`, `400k`, `10만`, `250만`, `1억 토큰`, `h100 2장`; datasets by name: `90 epochs of imagenet`, `on squad`, `c4`",
			"without hardware, or in addition to it, the plan recommends the fastest, cheapest and balanced choice on the team's servers, then from the catalogue (labelled cloud)",
		},
		Examples: []string{
			"plan bert-base 10 epochs of 2.5M samples on h100x2",
			"plan llama3-8b qlora 3 epochs of 50k samples seq 2048 on 4090",
			"plan 70b params inference int4 batch 8 ctx 8k on 2x h100",
			"plan bert-base vocab 10k seq 512 batch 128 = 4x32 19252 steps/epoch 10 epochs baseline 5.67 h/epoch on 4x v100-32gb fp32 compare on h200x4, a100x4",
			"plan gpt2 pretrain 10B tokens seq 1024 batch 512 tuned",
			"plan qwen2.5 7b 풀 파인튜닝 1B 토큰 h100 8장으로 얼마나 걸려?",
			"plan which of our servers is fastest for bert-base 3 epochs of 2.5M samples",
		},
		run: runPlan,
	}
}

func runPlan(ctx context.Context, s *Set, ureq Request, args string) (*Reply, error) {
	p := ureq.printer()
	if strings.TrimSpace(args) == "" {
		return nil, &UserError{Msg: p.T("plan what? Name a model and, if you like, the hardware"),
			Hint: p.T("try: `plan bert-base 10 epochs of 2.5M samples on h100x2` — `help plan` lists every word")}
	}
	env := s.planEnvCtx(ctx)
	rd, followed, err := readPlan(env, ureq, args)
	if !followed && !ureq.oneQuestion {
		if parts := questionParts(env, args, err == nil); parts != nil {
			return manyQuestions(ctx, s, ureq, parts)
		}
	}
	if err == nil && rd.StandIn && !tookSaid(args) {
		if _, rental := lang.ReadRental(env, args); rental {
			// "클라우드에서 H100 8장 하루 빌리면 얼마?": a day of GPUs is
			// their price, not a measured run of a stand-in model
			return s.notAPlan(ctx, ureq, args, err)
		}
	}
	if err != nil {
		return s.notAPlan(ctx, ureq, args, err)
	}
	rd.Request.Printer = p
	rd.Request.Job.Notes = rd.NotesIn(p) // the reader's assumptions, in the reply's language
	if followed {
		rd.Request.Job.Notes = append(rd.Request.Job.Notes, p.Tf("read as a follow-up to this conversation's earlier request: %s", ureq.Earlier))
	}
	release, err := s.cores.take(ctx)
	if err != nil {
		return nil, err
	}
	reply, req, res, err := s.searchPlan(p, args, rd)
	release()
	if err != nil {
		return nil, err
	}
	s.addTeam(ctx, ureq, req, rd, res, reply, p.T("Recommendations"))
	return reply, nil
}

// searchPlan is a plan's CPU work, on a core runPlan holds: the question's
// answer and the searches of the team's servers and the cloud.
func (s *Set) searchPlan(p *i18n.Printer, args string, rd lang.Reading) (*Reply, planner.Request, *planner.Result, error) {
	req, answer, err := s.answerQuestion(p, rd)
	if err != nil {
		return nil, req, nil, err
	}
	leastMemory(p, rd, &req)
	team, cloudPool, err := s.searchPools(p, rd, &req)
	if err != nil {
		return nil, req, nil, err
	}
	cloud := splitSearch(&req, team, cloudPool)
	// The cloud search is independent of the team's: it runs beside it
	// when a core is spare, so a plan takes one search's time on a quiet
	// machine, and one after the other when other plans are computing.
	type planned struct {
		res *planner.Result
		err error
	}
	var cloudDone chan planned
	if cloud != nil {
		cloudDone = make(chan planned, 1)
		search := func(c planner.Request) {
			r, err := s.deps.Catalog.Plan(c)
			cloudDone <- planned{r, err}
		}
		if release, ok := s.spareCore(); ok {
			go func() {
				defer release()
				search(*cloud)
			}()
		} else {
			search(*cloud)
		}
	}
	res, err := s.deps.Catalog.Plan(req)
	if err != nil {
		if cloudDone != nil {
			<-cloudDone // no goroutine outlives the command
		}
		if planner.IsPlannerError(err) {
			return nil, req, nil, &UserError{Msg: err.Error(), Hint: p.T("`help plan` lists every word the planner understands")}
		}
		return nil, req, nil, fmt.Errorf("plan %q: %w", args, err)
	}
	reply := planReply(p, args, res)
	recHead := p.T("Recommendations")
	var cloudRes *planner.Result
	if cloudDone != nil {
		if c := <-cloudDone; c.err == nil && c.res.Recommendations.Feasible > 0 {
			addCloud(p, reply, c.res, recHead)
			cloudRes = c.res
		}
	}
	// In the reply's language, in --json too: its "lang" says which.
	readAs := lang.ReadAsIn(p, s.deps.Catalog, rd)
	reply.Data = &PlanData{ReadAs: readAs, Request: lang.RequestText(s.deps.Catalog, rd), Question: string(rd.Ask), Result: res}
	reply.ReadAs = readAs
	s.answer(p, rd, req, res, cloudRes, answer, reply)
	return reply, req, res, nil
}

// readPlan reads a plan request; words that read as no plan of their own
// under an earlier plan ("what about on 4x h100?") are read with that
// plan's request, unless they ask a price of their own (followed).
func readPlan(env lang.Env, ureq Request, args string) (rd lang.Reading, followed bool, err error) {
	rd, err = lang.Read(env, args)
	if err != nil && ureq.Earlier != "" {
		if _, rental := lang.ReadRental(env, args); !rental {
			if frd, _, ferr := lang.FollowUp(env, ureq.Earlier, args); ferr == nil {
				return frd, true, nil
			}
		}
	}
	return rd, false, err
}

// answer puts the question's answer under the reading: the one worked out
// before planning, else the plan's answer line, refined (a latency or rate
// target, won); with no line, the cloud's pick when nothing on the team's
// servers holds the job, or the card's own summary.
func (s *Set) answer(p *i18n.Printer, rd lang.Reading, req planner.Request, res, cloudRes *planner.Result, answer string, reply *Reply) {
	if answer == "" && rd.MaxSeq {
		answer = s.longestContext(p, req, res)
	}
	if answer == "" {
		answer = s.cpuOnlyAnswer(p, rd, req, res)
	}
	if answer == "" {
		answer = cloudVsTeamCost(p, rd, res, cloudRes)
	}
	if answer == "" {
		answer = answerLine(p, rd, res)
	}
	answer = s.laptopPart(p, rd, res, tpNeeded(p, rd, res, s.bf16Lead(p, rd, res, refineAnswer(p, rd, res, answer))))
	if rd.RL != "" && strings.HasSuffix(answer, ".") {
		// "grpo … how long": the figure is the update's; say so where it is read
		answer = strings.TrimSuffix(answer, ".") + p.Tf(" — %s's policy update only; the rollouts that generate its samples are not counted.", rd.RL)
	}
	if e := firstEstimate(res); rd.LaunchAsked && e != nil && e.Launch != "" && e.Memory.Fits {
		// "launch 명령어 알려주세요": the command, after any other answer
		answer = joinLines(answer, p.Tf("Launch it with `%s`.", e.Launch))
	}
	if e := firstEstimate(res); rd.Ask == lang.AskFit && rd.Budget > 0 && e != nil && e.Memory.Fits && strings.HasSuffix(answer, ".") && !strings.Contains(answer, money(rd.Budget)) {
		// "예산 300만원이면 충분해요?": the fit, and the budget against it
		answer = strings.TrimSuffix(answer, ".") + budgetBuys(p, rd, e) + "."
	}
	answer = joinLines(answer, s.thenServing(p, rd, res))
	switch ci := cloudInstead(p, rd, res, cloudRes); {
	case answer != "" && !(rd.Ask == lang.AskFit && ci != "" && len(req.Targets) == 0 && !rd.BitsAsked):
		// (a fit asked of no GPU where nothing on the team's servers holds
		// it: the cloud's answer says so and where it does fit)
		answer = inWon(p, rd, s.deps.KRWPerUSD, answer)
		reply.Summary = answer // the first line under the reading: the question's answer
		reply.Data.(*PlanData).Answer = answer
	case ci != "":
		reply.Summary = ci
		reply.Data.(*PlanData).Answer = ci
	case rd.LatencyTargetS > 0:
		reply.Summary = strings.TrimSuffix(reply.Summary, ".") + "." + latencyVerdict(p, rd, firstEstimate(res)) // "p50 under 2s - what hardware?"
	default:
		reply.Summary = inWon(p, rd, s.deps.KRWPerUSD, reply.Summary)
	}
}

// splitSearch points req's recommendation search at the team's servers
// and returns the separate cloud search over cloudPool (nil: the whole
// catalogue), or nil when there is no team pool. The team's servers come
// first: the recommendations search them (so "far beyond this job"
// compares with the team's smaller boxes), and the catalogue's cloud
// options follow, labelled.
func splitSearch(req *planner.Request, team, cloudPool []planner.Hardware) *planner.Request {
	if len(team) > 0 && len(req.Pool) == 0 && !req.NoSearch {
		c := *req
		c.Targets, c.Compare = nil, false
		c.Pool = cloudPool
		req.Pool = team
		return &c
	}
	if len(req.Pool) == 0 {
		req.Pool = cloudPool
	}
	return nil
}

// searchPools are the team's and the cloud's search pools for what rd
// said: a GPU count with no GPU named ("on 8 gpus") keeps that count in
// both; a ceiling on one GPU's hourly price ("under $2/hr") keeps the
// GPUs priced under it, the team's servers at their configured price
// included (a pick the asker ruled out is no answer). A nil cloud pool is
// the whole catalogue. The cloud said alone ("클라우드에서") leaves the
// team's servers out.
func (s *Set) searchPools(p *i18n.Printer, rd lang.Reading, req *planner.Request) (team, cloud []planner.Hardware, err error) {
	team = s.teamPool()
	if rd.Cloud && len(team) > 0 && rd.Ask != lang.AskWhichServer {
		// "클라우드에서 하면 얼마": rented GPUs only; "cloud h100 vs our
		// servers" keeps the team's, to set against the cloud's
		team = nil
		req.Job.Notes = append(req.Job.Notes, p.T("cloud GPUs only, as asked: the team's servers are left out"))
	}
	if rd.Buying {
		team = nil // "서버 새로 사려는데": the GPUs to buy, not the team's
	}
	if rd.Hyperscaler && len(req.Targets) == 0 && len(req.Pool) == 0 {
		// "on AWS": datacenter GPUs; the prices stay the catalogue's
		cloud = s.deps.Catalog.SearchPool(func(h planner.Hardware) bool {
			return !h.GPU.Consumer && !strings.Contains(strings.ToLower(h.GPU.FormFactor), "workstation")
		})
		req.Job.Notes = append(req.Job.Notes, p.T("AWS, Google Cloud and Azure rent datacenter GPUs: GeForce and workstation cards are left out; prices are the catalogue's, not that cloud's list"))
	}
	if n := rd.GPUCount; n > 0 && len(req.Targets) == 0 {
		cloud, req.Pool = req.Pool, nil // the reader's pool: every GPU at n
		had := len(team) > 0
		team = slices.DeleteFunc(team, func(h planner.Hardware) bool { return h.Count != n })
		req.Job.Notes = append(req.Job.Notes, p.Tf("GPU count: %d, as asked; the search picks the GPU", n))
		if had && len(team) == 0 {
			req.Job.Notes = append(req.Job.Notes, p.Tf("none of the team's servers has %d GPUs: the options below are cloud GPUs", n))
		}
	}
	limit := rd.MaxGPUHourUSD
	if limit <= 0 || req.NoSearch {
		return team, cloud, nil
	}
	if cloud == nil {
		cloud = s.deps.Catalog.SearchPool(func(planner.Hardware) bool { return true })
	}
	cp := max(1, req.Job.ContextParallel)
	cloud = slices.DeleteFunc(cloud, func(h planner.Hardware) bool { return h.GPU.PriceUSD > limit || h.Count%cp != 0 })
	if had := len(team); had > 0 {
		team = slices.DeleteFunc(team, func(h planner.Hardware) bool { return h.GPU.PriceUSD > limit })
		if len(team) < had {
			req.Job.Notes = append(req.Job.Notes, p.Tf("team servers priced over $%s a GPU-hour are left out, as asked", trimUSD(limit)))
		}
	}
	if len(cloud) == 0 {
		cheapest := s.deps.Catalog.GPUs[0]
		for _, g := range s.deps.Catalog.GPUs {
			if g.PriceUSD < cheapest.PriceUSD {
				cheapest = g
			}
		}
		return nil, nil, &UserError{Msg: p.Tf("no GPU in the catalogue rents for $%s an hour or less; the cheapest is %s at %s", trimUSD(limit), cheapest.Name, planner.FormatUSDIn(p, cheapest.PriceUSD)),
			Hint: p.T("raise the ceiling, or set a price you pay with `--price GPU=USD`")}
	}
	req.Job.Notes = append(req.Job.Notes, p.Tf("cloud options: GPUs priced at $%s an hour or less (catalogue prices; `--price` sets yours)", trimUSD(limit)))
	return team, cloud, nil
}

func trimUSD(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// addTeam adds when the team's servers could run the job, and a button
// that reserves the earliest finish, before the recommendations (headed
// recHead).
func (s *Set) addTeam(ctx context.Context, ureq Request, req planner.Request, rd lang.Reading, res *planner.Result, reply *Reply, recHead string) {
	if rd.Buying {
		return // the GPUs to buy are the question, not when the team's are free
	}
	if rd.Cloud && !rd.CloudVsTeamCost && rd.Ask != lang.AskWhichServer {
		return // "런팟에서 4090 빌리면 얼마": rented GPUs, not the team's
	}
	sec, act, finish := s.teamSection(ctx, ureq, req, res, rd.MaxGPUHourUSD)
	if sec == nil {
		return
	}
	if rd.Ask == lang.AskWhichServer && finish != "" && rd.Prefer != "cheapest" && !rd.Cloud {
		// Which server to use is when it finishes, not only how fast
		// it runs: the live reservations decide (unless the cheapest, or
		// the cloud against the team, was asked).
		reply.Summary = finish
		reply.Data.(*PlanData).Answer = finish
	}
	// After the plan's own estimates, before recommendations.
	at := len(reply.Sections)
	for i, sc := range reply.Sections {
		if sc.Heading == recHead {
			at = i
			break
		}
	}
	reply.Sections = append(reply.Sections[:at], append([]Section{*sec}, reply.Sections[at:]...)...)
	if act != nil {
		reply.Actions = append([]Action{*act}, reply.Actions...)
	}
}

// cloudInstead is the answer when nothing on the team's servers holds the
// job and the cloud search found something ("Budget is $5k. Can we DPO
// Llama 3 70B …?"): the cheapest cloud option when money was asked (said
// against the budget), the balanced one otherwise; "" when the team's
// servers hold it or the cloud was not searched.
func cloudInstead(p *i18n.Printer, rd lang.Reading, res, cloud *planner.Result) string {
	if cloud == nil || res.Recommendations.Feasible > 0 || firstEstimate(res) != nil && firstEstimate(res).Memory.Fits {
		return ""
	}
	rec := cloud.Recommendations
	pick := rec.Balanced
	if rd.Budget > 0 || rd.Ask == lang.AskCost || rd.Prefer == "cheapest" {
		pick = rec.Cheapest
	}
	if pick == nil {
		return ""
	}
	line := p.Tf("Nothing on the team's servers holds it; in the cloud: %s", estimateSummary(p, pick, cloud.Job))
	if per := perMillionSamples(pick); rd.Ask == lang.AskCost && pick.CostUSD == nil && rd.Budget <= 0 && pick.Serving == nil && per > 0 {
		// "70B 학습 한번 하는데 대충 얼마": the cost asked, at the rate the
		// card gives its time in
		line += p.Tf(", about %s per 1M samples", money(per))
	}
	return line + budgetBuys(p, rd, pick) + "."
}

// budgetBuys sets a plan against the budget said: its cost within or over
// it, or, with no amount of work said, the samples the budget buys at the
// plan's cost per million; "" with no budget.
func budgetBuys(p *i18n.Printer, rd lang.Reading, e *planner.Estimate) string {
	switch per := perMillionSamples(e); {
	case rd.Budget <= 0 || e == nil:
		return ""
	case e.CostUSD != nil && *e.CostUSD <= rd.Budget:
		return p.Tf(", within the budget of %s", money(rd.Budget))
	case e.CostUSD != nil:
		return p.Tf(", over the budget of %s", money(rd.Budget))
	case per > 0 && e.Time.HoursPerMillionSamples > 0:
		// no amount of work said: what the budget buys there
		return p.Tf("; at %s per 1M samples the budget of %s buys about %s samples", money(per), money(rd.Budget), p.Count(round2(rd.Budget/per*1e6)))
	}
	return ""
}

// round2 rounds v to two significant figures, for amounts said as estimates.
func round2(v float64) float64 {
	if v <= 0 {
		return 0
	}
	d := math.Pow(10, math.Floor(math.Log10(v))-1)
	return math.Round(v/d) * d
}

// addCloud adds the catalogue's recommendations, labelled cloud, after
// the team's (whose heading, recHead, it renames).
func addCloud(p *i18n.Printer, reply *Reply, cres *planner.Result, recHead string) {
	sec := recommendSection(p, cres.Recommendations, cres.Job)
	sec.Heading = p.T("Cloud options (not the team's servers)")
	for _, row := range sec.Table.Rows {
		row[1] += p.T(" (cloud)")
	}
	at := len(reply.Sections)
	for i, sc := range reply.Sections {
		if sc.Heading == recHead {
			reply.Sections[i].Heading = p.T("On the team's servers")
			at = i + 1
		}
	}
	reply.Sections = append(reply.Sections[:at], append([]Section{sec}, reply.Sections[at:]...)...)
}

// planReply turns a planner result into the card every renderer shows.
func planReply(p *i18n.Printer, text string, res *planner.Result) *Reply {
	r := &Reply{Data: res}
	job := res.Job
	r.Title = fmt.Sprintf("%s · %s · %s", res.Model.ID, lang.WorkloadWords(p, job.Workload), paramsText(p, res.Model.Params))
	if res.Model.ActiveParams != res.Model.Params {
		r.Title += p.Tf(" (%s active)", paramsText(p, res.Model.ActiveParams))
	}
	var intro []string
	if job.Amount != "" {
		intro = append(intro, job.Amount)
	}
	if e := firstEstimate(res); job.Workload == planner.Inference && (e == nil || e.InferencePath == "" || e.InferencePath == "decode") {
		intro = append(intro, p.Tf("context %d tokens", job.SeqLen))
	} else if job.SeqLen > 1 {
		intro = append(intro, p.Tf("seq %d", job.SeqLen))
	}
	if len(intro) > 0 {
		r.Sections = append(r.Sections, Section{Text: strings.Join(intro, " · ")})
	}

	if res.Baseline != nil {
		heading := p.T("Your measured run")
		if res.Baseline.Unit == planner.MFU {
			heading = p.T("The MFU you assume")
		}
		r.Sections = append(r.Sections, Section{Heading: heading, Text: res.Baseline.Explanation})
	}
	switch {
	case res.Compare && len(res.Plans) > 1:
		r.Sections = append(r.Sections, compareSection(p, res))
		r.Summary = compareSummary(p, res)
	case len(res.Plans) > 0:
		r.Sections = append(r.Sections, estimateSections(p, res.Plans[0], job)...)
		r.Summary = estimateSummary(p, res.Plans[0], job)
		for _, e := range res.Plans[1:] {
			r.Sections = append(r.Sections, estimateSections(p, e, job)...)
		}
	}
	if rec := res.Recommendations; rec.Considered > 0 {
		r.Sections = append(r.Sections, recommendSection(p, rec, job))
		if r.Summary == "" && rec.Balanced != nil {
			r.Summary = p.Tf("recommended: %s", estimateSummary(p, rec.Balanced, job))
		}
	}
	if r.Summary == "" {
		r.Summary = p.T("nothing fits: see the out-of-memory advice")
	}
	if len(res.Warnings) > 0 {
		r.Sections = append(r.Sections, Section{Heading: p.T("Watch out"), Kind: Warning, Bullets: res.Warnings})
	}
	var advice, oom []string
	launch := ""
	for _, a := range res.Advice {
		switch a.Topic {
		case "launch":
			launch = a.Text
		case "out of memory":
			oom = append(oom, a.Text)
		default:
			advice = append(advice, planner.TopicLabel(p, a.Topic)+": "+a.Text)
		}
	}
	if len(oom) > 0 {
		r.Sections = append(r.Sections, Section{Heading: p.T("Out of memory — what to change"), Kind: Warning, Bullets: oom})
	}
	if len(advice) > 0 {
		r.Sections = append(r.Sections, Section{Heading: p.T("How to run it"), Bullets: advice})
	}
	if launch != "" {
		r.Sections = append(r.Sections, Section{Heading: p.T("Launch"), Text: "`" + launch + "`"})
	}
	assumptions := append([]string(nil), res.Assumptions...)
	if e := firstEstimate(res); e != nil {
		assumptions = append(assumptions, e.Assumptions...)
	}
	r.Sections = append(r.Sections, Section{Heading: p.T("Assumptions"), Kind: Context, Bullets: dedupe(assumptions)})
	r.Actions = []Action{
		{ID: "plan.share", Label: p.T("Share"), Value: text, Style: "primary"},
		{ID: "plan.adjust", Label: p.T("Adjust"), Value: text, Command: "gpuplan plan \"" + text + "\""},
	}
	return r
}

func firstEstimate(res *planner.Result) *planner.Estimate {
	if len(res.Plans) > 0 {
		return res.Plans[0]
	}
	return res.Recommendations.Balanced
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func hwText(p *i18n.Printer, e *planner.Estimate) string {
	s := fmt.Sprintf("%d× %s", e.GPUs, e.GPUName)
	if e.Nodes > 1 {
		s += p.Tf(" (%d nodes)", e.Nodes)
	}
	if e.Server != "" {
		s = e.Server + ": " + s
	}
	return s
}

func estimateSummary(p *i18n.Printer, e *planner.Estimate, job planner.JobInfo) string {
	fit := p.T("fits")
	if !e.Memory.Fits {
		fit = p.T("does NOT fit")
	}
	s := p.Tf("%s: %s (%.0f of %.0f GiB per GPU)", hwText(p, e), fit, e.Memory.PerGPUGiB, e.Memory.CapacityGiB)
	if e.Memory.Fits {
		s += ", " + timeText(p, e, job)
		if e.CostUSD != nil {
			s += ", " + money(*e.CostUSD)
		}
	}
	return s
}

func timeText(p *i18n.Printer, e *planner.Estimate, job planner.JobInfo) string {
	if job.Workload == planner.Inference {
		switch e.InferencePath {
		case "images":
			return p.Tf("%s images/s", sig(e.Throughput.SamplesPerS))
		case "forward":
			return p.Tf("%s sequences/s", sig(e.Throughput.SamplesPerS))
		}
		return p.Tf("%s tokens/s", sig(e.Throughput.TokensPerS)) // "0.31 tokens/s", not "0"
	}
	if e.Time.TotalHours != nil {
		return planner.FormatHoursIn(p, *e.Time.TotalHours)
	}
	return p.Tf("%s per 1M samples", planner.FormatHoursIn(p, e.Time.HoursPerMillionSamples))
}

func estimateSections(p *i18n.Printer, e *planner.Estimate, job planner.JobInfo) []Section {
	verdict := p.T("✅ fits")
	kind := Normal
	if !e.Memory.Fits {
		verdict = p.T("❌ does not fit")
		kind = Warning
	}
	head := Section{
		Heading: hwText(p, e) + " — " + verdict,
		Kind:    kind,
		Bar:     &Bar{Label: p.T("memory per GPU"), Used: e.Memory.PerGPUGiB, Total: e.Memory.CapacityGiB, Unit: "GiB"},
	}
	var fields []Field
	if job.Workload == planner.Inference && e.InferencePath != "" && e.InferencePath != "decode" {
		// CNNs, ViTs and encoders run one forward pass: images or
		// sequences per second, no prefill and no generated tokens.
		fields = append(fields,
			Field{p.T("Throughput"), e.RateTextIn(p)},
			Field{p.T("Serving cost"), inferenceCost(p, e)},
			Field{p.T("Batch"), p.Tf("%d per GPU (max %d)", e.MicroBatch, e.Memory.MaxMicroBatch)},
			Field{p.T("Weights"), string(e.Precision)},
		)
	} else if job.Workload == planner.Inference && e.Serving != nil {
		fields = append(fields, servingFields(p, e)...)
	} else if job.Workload == planner.Inference {
		fields = append(fields,
			Field{p.T("Decode"), p.Tf("%s tokens/s over %d sequences (%.1f ms per token each)", sig(e.Throughput.TokensPerS), e.MicroBatch, e.Time.PerTokenS*1000)},
			Field{p.T("Prefill"), p.Tf("%.2f s for %d prompts of %s tokens", e.Time.PrefillS, e.MicroBatch, thousands(float64(job.SeqLen)-float64(job.GenTokens)))},
			Field{p.T("Serving cost"), p.Tf("%s per 1M generated tokens", money(perMillionTokens(e)))},
			Field{p.T("Batch"), p.Tf("%d sequences (max %d)", e.MicroBatch, e.Memory.MaxMicroBatch)},
			Field{p.T("Weights"), string(e.Precision)},
		)
	} else {
		if e.Time.TotalHours != nil {
			fields = append(fields, Field{p.T("Total time"), planner.FormatHoursIn(p, *e.Time.TotalHours)})
		} else {
			fields = append(fields, Field{p.T("Per 1M samples"), planner.FormatHoursIn(p, e.Time.HoursPerMillionSamples)})
		}
		if e.Time.EpochHours != nil {
			fields = append(fields, Field{p.T("Per epoch"), p.Tf("%s (%s steps)", planner.FormatHoursIn(p, *e.Time.EpochHours), thousands(e.Time.StepsPerEpoch))})
		}
		tput := p.Tf("%s samples/s", sig(e.Throughput.SamplesPerS))
		if e.Throughput.TokensPerS > 0 {
			tput += p.Tf(" · %s tokens/s", sig(e.Throughput.TokensPerS))
		}
		fields = append(fields,
			Field{p.T("Throughput"), tput},
			Field{p.T("Step"), fmt.Sprintf("%.3g s", e.Time.StepS)},
			Field{p.T("Batch"), p.Tf("micro %d × accum %d × %d = %d", e.MicroBatch, e.GradAccum, max(1, e.GPUs/(e.TensorParallel*e.PipelineParallel)), e.GlobalBatch)},
			Field{p.T("Setup"), setupText(p, e)},
		)
	}
	if e.CostUSD != nil {
		fields = append(fields, Field{p.T("Cost"), fmt.Sprintf("%s (%s GPU-h × $%.2f)", money(*e.CostUSD), gpuHoursFigure(*e.GPUHours), e.PriceUSDPerGPUH)})
	}
	if job.Workload != planner.Inference {
		util := fmt.Sprintf("MFU %.0f%%", e.MFU*100)
		if e.GPUs > 1 {
			util += p.Tf(" · scaling %.0f%%", e.ScalingEfficiency*100)
		}
		fields = append(fields, Field{p.T("Efficiency"), util})
	}
	head.Fields = fields
	var bd []string
	for _, it := range e.Memory.Breakdown {
		if math.Abs(it.GiB) >= 0.005 {
			bd = append(bd, fmt.Sprintf("%s %.2f GiB", it.Name, it.GiB))
		}
	}
	secs := []Section{head, {Kind: Context, Text: p.Tf("Memory per GPU: %s", strings.Join(bd, " · "))}}
	if len(e.Notes) > 0 {
		secs = append(secs, Section{Kind: Warning, Bullets: e.Notes})
	}
	return secs
}

func setupText(p *i18n.Printer, e *planner.Estimate) string {
	s := fmt.Sprintf("%s, %s", e.Precision, e.Strategy)
	switch {
	case e.SelectiveRecompute:
		s += p.T(", selective checkpointing")
	case e.Checkpointing:
		s += p.T(", grad checkpointing")
	}
	return s
}

// compareSection is seed 000's table: one column per hardware option.
func compareSection(p *i18n.Printer, res *planner.Result) Section {
	t := &Table{Columns: []string{""}}
	rows := map[string][]string{}
	order := []string{"fits", "memory/GPU", "setup", "batch", "per epoch", "total", "speed-up", "cost"}
	label := map[string]string{"fits": p.T("fits"), "memory/GPU": p.T("memory/GPU"), "setup": p.T("setup"), "batch": p.T("batch"),
		"per epoch": p.T("per epoch"), "total": p.T("total"), "speed-up": p.T("speed-up"), "cost": p.T("cost")}
	fastest := math.Inf(1)
	for _, e := range res.Plans {
		if e.Memory.Fits && e.Time.HoursPerMillionSamples < fastest {
			fastest = e.Time.HoursPerMillionSamples
		}
	}
	base := res.Plans[len(res.Plans)-1].Time.HoursPerMillionSamples
	if res.Baseline != nil && res.Baseline.BaselinePlan != nil {
		base = res.Baseline.BaselinePlan.Time.HoursPerMillionSamples
	}
	for _, e := range res.Plans {
		t.Columns = append(t.Columns, fmt.Sprintf("%d× %s", e.GPUs, shortGPU(e.GPU)))
		fit := p.T("yes")
		if !e.Memory.Fits {
			fit = p.T("NO")
		}
		rows["fits"] = append(rows["fits"], fit)
		rows["memory/GPU"] = append(rows["memory/GPU"], fmt.Sprintf("%.0f/%.0f GiB", e.Memory.PerGPUGiB, e.Memory.CapacityGiB))
		rows["setup"] = append(rows["setup"], fmt.Sprintf("%s %s", e.Precision, e.Strategy))
		rows["batch"] = append(rows["batch"], fmt.Sprintf("%d×%d×%d", e.MicroBatch, e.GradAccum, e.GPUs/(e.TensorParallel*e.PipelineParallel)))
		ep := "—"
		if e.Time.EpochHours != nil {
			ep = planner.FormatHoursIn(p, *e.Time.EpochHours)
		}
		rows["per epoch"] = append(rows["per epoch"], ep)
		tot := planner.FormatHoursIn(p, e.Time.HoursPerMillionSamples) + "/1M"
		if e.Time.TotalHours != nil {
			tot = planner.FormatHoursIn(p, *e.Time.TotalHours)
		}
		rows["total"] = append(rows["total"], tot)
		su := base / e.Time.HoursPerMillionSamples
		if e.SpeedUp > 0 {
			su = e.SpeedUp // against the planner's one labelled reference
		}
		rows["speed-up"] = append(rows["speed-up"], fmt.Sprintf("%.1fx", su))
		cost := "—"
		if e.CostUSD != nil {
			cost = money(*e.CostUSD)
		}
		rows["cost"] = append(rows["cost"], cost)
	}
	for _, k := range order {
		if allDash(rows[k]) {
			continue // "per epoch" with no dataset size says nothing
		}
		t.Rows = append(t.Rows, append([]string{label[k]}, rows[k]...))
	}
	sec := Section{Heading: p.T("Side by side"), Table: t}
	if res.SpeedUpBase != "" {
		sec.Text = p.Tf("speed-up %s", res.SpeedUpBase)
	}
	return sec
}

func compareSummary(p *i18n.Printer, res *planner.Result) string {
	return compareSummaryIn(p, res, false)
}

// compareSummaryIn is compareSummary with each column's cost after its
// time when withCost is set ("which is cheaper: 1 h100 or 2 a100s?").
func compareSummaryIn(p *i18n.Printer, res *planner.Result, withCost bool) string {
	var parts []string
	for _, e := range res.Plans {
		if !e.Memory.Fits {
			parts = append(parts, p.Tf("%d× %s: does not fit", e.GPUs, shortGPU(e.GPU)))
			continue
		}
		part := fmt.Sprintf("%d× %s: %s", e.GPUs, shortGPU(e.GPU), timeText(p, e, res.Job))
		switch {
		case withCost && e.CostUSD != nil:
			part += ", " + money(*e.CostUSD)
		case withCost && res.Job.Workload == planner.Inference:
			part += ", " + inferenceCost(p, e) // "cheaper per token": a served token's price
		case withCost && e.PriceUSDPerGPUH > 0:
			// "b200 vs h100, which is cheaper?" with no work said: a million samples' price
			part += ", " + money(perMillionSamples(e)) + p.T("/1M samples")
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, " · ") + twoPaces(p, res, withCost)
}

// twoPaces says how many times as fast the faster of two setups set side
// by side is ("4090에서 h100으로 바꾸면 얼마나 빨라져요?"), when both fit.
func twoPaces(p *i18n.Printer, res *planner.Result, withCost bool) string {
	if len(res.Plans) != 2 || withCost {
		return ""
	}
	a, b := res.Plans[0], res.Plans[1]
	if !a.Memory.Fits || !b.Memory.Fits || a.Throughput.SamplesPerS <= 0 || b.Throughput.SamplesPerS <= 0 {
		return ""
	}
	if a.Throughput.SamplesPerS < b.Throughput.SamplesPerS {
		a, b = b, a
	}
	x := a.Throughput.SamplesPerS / b.Throughput.SamplesPerS
	if x < 1.1 {
		return ""
	}
	return p.Tf(" — %d× %s is %.1fx as fast", a.GPUs, shortGPU(a.GPU), x)
}

func recommendSection(p *i18n.Printer, rec planner.Recommendations, job planner.JobInfo) Section {
	if rec.Feasible == 0 {
		return Section{Heading: p.T("Recommendations"), Kind: Warning,
			Text: p.Tf("None of %d configurations in the catalogue fits; see the out-of-memory advice.", rec.Considered)}
	}
	t := &Table{Columns: []string{p.T("pick"), p.T("hardware"), p.T("time"), p.T("cost"), p.T("memory/GPU"), p.T("setup")}}
	for _, pk := range []struct {
		name string
		e    *planner.Estimate
	}{{p.T("fastest"), rec.Fastest}, {p.T("cheapest"), rec.Cheapest}, {p.T("balanced"), rec.Balanced}} {
		var cost string
		switch {
		case job.Workload == planner.Inference:
			cost = inferenceCost(p, pk.e)
		case pk.e.CostUSD != nil:
			cost = money(*pk.e.CostUSD)
		default:
			cost = money(perMillionSamples(pk.e)) + p.T("/1M samples")
		}
		t.Rows = append(t.Rows, []string{pk.name, hwText(p, pk.e), timeText(p, pk.e, job), cost,
			fmt.Sprintf("%.0f/%.0f GiB", pk.e.Memory.PerGPUGiB, pk.e.Memory.CapacityGiB), setupText(p, pk.e)})
	}
	return Section{Heading: p.T("Recommendations"), Table: t,
		Text: p.Tf("Searched %d GPU type × count options; %d fit. Balanced = the fastest within 1.5× the cheapest cost.", rec.Considered, rec.Feasible)}
}

// inferenceCost is the serving cost in the unit the model serves: per 1M
// generated tokens for decoders, per 1M images or sequences for forward-only
// models.
func inferenceCost(p *i18n.Printer, e *planner.Estimate) string {
	switch e.InferencePath {
	case "images", "forward":
		unit := p.T("/1M images")
		if e.InferencePath == "forward" {
			unit = p.T("/1M sequences")
		}
		if e.Throughput.SamplesPerS <= 0 {
			return "—"
		}
		return money(float64(e.GPUs)*e.PriceUSDPerGPUH/3600/e.Throughput.SamplesPerS*1e6) + unit
	}
	return money(perMillionTokens(e)) + p.T("/1M tokens")
}

// perMillionSamples is the GPU cost of training on a million samples.
func perMillionSamples(e *planner.Estimate) float64 {
	return e.Time.HoursPerMillionSamples * float64(e.GPUs) * e.PriceUSDPerGPUH
}

// perMillionTokens is the GPU cost of generating a million tokens.
func perMillionTokens(e *planner.Estimate) float64 {
	if e.Throughput.TokensPerS <= 0 {
		return 0
	}
	return float64(e.GPUs) * e.PriceUSDPerGPUH / 3600 / e.Throughput.TokensPerS * 1e6
}

func shortGPU(id string) string {
	for _, suf := range []string{"-sxm5-80gb", "-sxm4-80gb", "-sxm2-32gb", "-sxm-141gb", "-hgx"} {
		if strings.HasSuffix(id, suf) {
			return strings.ToUpper(strings.TrimSuffix(id, suf))
		}
	}
	return strings.ToUpper(id)
}

func paramsText(p *i18n.Printer, n float64) string {
	switch {
	case n >= 1e12:
		return p.Tf("%.3gT params", n/1e12)
	case n >= 1e9:
		return p.Tf("%.3gB params", n/1e9)
	default:
		return p.Tf("%.3gM params", n/1e6)
	}
}

func allDash(cells []string) bool {
	for _, c := range cells {
		if c != "—" {
			return false
		}
	}
	return len(cells) > 0
}

// leastMemory sizes a "how much vram for …" question at the least the job
// needs (micro-batch 1, activation checkpointing), not at a batch sized to
// fill the card, and says so.
func leastMemory(p *i18n.Printer, rd lang.Reading, req *planner.Request) {
	if !rd.Memory || req.Job.MicroBatch != 0 || req.Job.Workload == planner.Inference {
		return
	}
	req.Job.MicroBatch = 1
	req.Job.Checkpointing = true
	req.Job.Notes = append(req.Job.Notes, p.T("sized at micro-batch 1 with activation checkpointing: the least memory the job needs (a larger batch, or no checkpointing, uses more and runs faster)"))
}
