package lang

// The plan request language: "bert-base 10 epochs of 2.5M samples on h100x2".
//
// A request is a bag of phrases in any order. The text is normalised
// (unicode spaces and dashes, smart quotes, Slack mentions), cut into
// tokens by a small scanner, and read left to right by typed readers: a
// number reader that knows units and multipliers, a hardware reader that
// knows counts, node groups and GPU qualifiers, key readers ("seq 512",
// "batch 128 = 4x32") and a table of option words. Nothing here is a
// regular expression. Every refusal is a *UserError that names the word
// it stopped at and, where one is close, the word that was probably meant.

import (
	"github.com/gpuplan/gpuplan/i18n"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/planner"
)

// DefaultKRWPerUSD is the won a dollar bought on average over 2025,
// 1,422.16 in onshore trading (Bank of Korea data as reported by Yonhap,
// 2025-12-31), rounded: what a budget said in won is converted at when an
// admin has not set GPUPLAN_KRW_PER_USD. The GPU prices it is set against
// are themselves 2025-26 listings, so a rate of the same years keeps the
// two comparable; the reading says the rate was assumed.
const DefaultKRWPerUSD = 1422

// noteWonBudget says the dollars a budget said in won came to and at
// which rate: the admin's, or the assumed 2025 average.
func noteWonBudget(p *reqParser, c *canonizer, rateSet bool) {
	switch {
	case c.wonBudget > 0 && rateSet:
		p.note(en.Tf("budget ₩%s is $%s at ₩%s a dollar (GPUPLAN_KRW_PER_USD)", groupThousands(c.wonBudget), groupThousands(c.budget), reqTrimNum(c.krwPerUSD)))
	case c.wonBudget > 0:
		p.note(en.Tf("budget ₩%s is $%s at ₩%s a dollar, the 2025 average (assumed; an admin sets today's with GPUPLAN_KRW_PER_USD)", groupThousands(c.wonBudget), groupThousands(c.budget), reqTrimNum(c.krwPerUSD)))
	}
}

// Env is what a request is read against.
type Env struct {
	// Catalog names the models and GPUs; nil means the default catalogue.
	Catalog *planner.Catalog
	// Servers are the team's servers as hardware (each with Server set):
	// "on server-h", "server-v에서" plan on them.
	Servers []planner.Hardware
	// Now anchors deadlines such as "by friday"; zero means time.Now.
	Now time.Time
	// KRWPerUSD converts a budget said in won ("예산 300만원") to dollars;
	// 0 means DefaultKRWPerUSD, and the reading says it assumed that rate.
	KRWPerUSD float64
	// Resolve reads a model named by its Hugging Face Hub id
	// ("meta-llama/Llama-3.2-3B") or a config.json path; nil means ids are
	// read against the catalogue only.
	Resolve func(ref string) (planner.Model, error)
	// Models are the team's own models by lower-case name ("logbert": a
	// catalogue architecture with the team's vocabulary), read before the
	// catalogue's.
	Models map[string]planner.Model

	// unsettled reads a correction itself, to check it parses: its own
	// hint is not checked again.
	unsettled bool
	// noVariant reads one side of a pair of choices (variants.go).
	noVariant bool
}

// Reading is a plan request as understood: the planner request plus what
// the words around it asked.
type Reading struct {
	Request planner.Request
	// Ask is the question asked, if the request was one.
	Ask Ask
	// Deadline is how soon the job must finish ("in a day", "금요일까지");
	// DeadlineWords are the words that said so.
	Deadline      time.Duration
	DeadlineWords string
	// CountOpen marks a GPU named without a count in a "how many" question:
	// the count is what is asked.
	CountOpen bool
	// CountHave is the GPUs the asker has beside a count question ("we
	// have 8", "do we need all 8?", "h100 8장 중에"): the count asked is
	// how many of them the job takes.
	CountHave int
	// CountUnsaid marks one GPU named with no count at all ("h100으로",
	// "on h100"): planned on one, or on the fewest that hold the job when
	// one does not.
	CountUnsaid bool
	// CompareOpen marks a comparison of GPU types none of which has a
	// count ("h100 vs a100 for …"): each is planned at the fewest that fit.
	CompareOpen bool
	// Variant is the request again with the second of two choices set
	// side by side ("vllm vs sglang"), nil when none were.
	Variant *Variant
	// ThenServe is the serving of the trained model when the request asks
	// both in that order ("lora 학습하고 vllm으로 서빙까지", "fine-tune …
	// then serve it for 20 users"): Request plans the training, this the
	// serving, on the same hardware words; nil otherwise.
	ThenServe *planner.Request
	// LargestModel: the largest model that fits the hardware named (or
	// that the budget trains) is asked, and no model was named; the
	// request's model is a stand-in the answer replaces with that size.
	LargestModel bool
	// LargestOf are the members of the family named with it ("the
	// largest qwen2.5 that fits"): the answer picks among them rather
	// than sizing a model from its parameter count.
	LargestOf []planner.Model
	// NegativeAsk marks a question asked in the negative ("v100에
	// 안들어가지?", "안 돼?"): a bare yes or no would answer it backwards.
	NegativeAsk bool
	// Chinchilla marks tokens set by Chinchilla's rule ("Chinchilla
	// optimal", "친칠라 기준"): the answer says how many.
	Chinchilla bool
	// LatencyTargetS is a latency said as a target ("p50 under 2s",
	// "첫토큰 200ms 이하"), in seconds; LatencyFirst marks it the first
	// token's, LatencyPerToken each generated token's ("100ms per token",
	// "tpot 50ms"). The answer says whether the plan meets it.
	LatencyTargetS  float64
	LatencyFirst    bool
	LatencyPerToken bool
	// InWon marks money asked in won ("원화로", "in KRW"): the answer
	// gives its dollar sums in won too.
	InWon bool
	// ServeHours is how long a served model runs when the request says
	// ("한 달 돌리면", "24/7 for a month", "월 비용"): 730 a month; 0 when
	// unsaid or not serving.
	ServeHours float64
	// Dataset is the dataset named instead of a number, if any.
	Dataset string
	// Skipped are the words read as filler, as typed.
	Skipped []string
	// Korean is true when the request was written in Korean.
	Korean bool
	// Corrected are the slips read as keywords ("finetnue → finetune").
	Corrected []string
	// LiveStreams is the number of live audio streams said for a speech
	// model ("can it keep up with 10 live streams"), planned as a rate of
	// 30-second windows.
	LiveStreams int
	// Hyperscaler: AWS, GCP or Azure named, which rent datacenter GPUs
	// only.
	Hyperscaler bool
	// CPUOnly: the model asked to run on the CPU alone ("CPU로만 돌리면",
	// "without a GPU"), planned as llama.cpp with no layer on a GPU.
	CPUOnly bool
	// Laptop: the model asked to run on a laptop or a personal computer
	// with no GPU named ("노트북에서도 돌아가요?", "on my laptop"): served, it
	// is planned as CPUOnly is, and the answer says which laptop GPUs hold
	// it.
	Laptop bool
	// CloudVsTeamCost: the cloud's cost set against the team's servers
	// ("클라우드 vs 우리 서버 … 비용 차이", "cloud or our servers, which is
	// cheaper"): the answer gives both.
	CloudVsTeamCost bool
	// TPAsked: tensor parallelism named with no degree ("텐서병렬 써야하나",
	// "do I need tensor parallel"): the answer says whether the plan uses it.
	TPAsked bool
	// RL is the reinforcement-learning method named ("GRPO"), planned as
	// its policy update alone.
	RL string
	// PerUser: a served model's rate asked for each user or stream
	// ("tokens/s per user at 32 concurrent users"): one token's time, not
	// the server's total.
	PerUser bool
	// LaunchAsked: the command that starts the job was asked ("launch
	// 명령어 알려주세요"): the card's launch line answers.
	LaunchAsked bool
	// BF16Named: bf16 was named, wanted or denied ("bf16 on a v100?",
	// "v100은 bf16 안 된다던데 fp16 써도 돼요?"): where the GPU has none, the
	// answer says so first.
	BF16Named bool
	// StandIn marks a model the request did not name: a measured run's
	// speed is carried over with a stand-in model.
	StandIn bool
	// WorkloadAssumed is set when the request named no workload: why the
	// one planned was chosen ("from int4; say qlora to train"), or "not
	// said" when the planner's default applies (AssumedWorkload). The Read
	// as line shows the workload then, marked as assumed.
	WorkloadAssumed string
	notes           []text // Request.Job.Notes as sentences (NotesIn)
	// Prefer is the pick the request asked for when it named no hardware:
	// "cheapest" or "fastest" ("the cheapest way to …"); "" for none.
	Prefer string
	// Rate: the question asked how fast as a rate ("tokens per second?"),
	// so the answer gives the throughput, not a time.
	Rate bool
	// Latency: the question asked the latency ("latency?", "지연시간"), so
	// the answer leads with a batch's (or a token's) time.
	Latency bool
	// ComparePrecisions: two float formats said side by side ("bf16 vs
	// fp8"); the request plans the second, the answer sets both.
	ComparePrecisions [2]planner.Precision
	// ThirdPrecision is a third format said beside them when memory is
	// asked ("4비트, 8비트, 16비트 … VRAM 각각"): each one's memory is given.
	ThirdPrecision planner.Precision
	// Cloud: the question is about rented GPUs ("in the cloud",
	// "클라우드에서"), so the team's servers are left out of the search.
	Cloud bool
	// Buying: the GPUs are to be bought ("서버 새로 사려는데 뭐 사야돼",
	// "which gpus should we buy"): the answer sets what to buy side by
	// side, not the team's servers nor rented ones.
	Buying bool
	// Together: the two models of a Variant run at once on the same
	// hardware ("llama 3 8b랑 whisper 같이 a100 한장에", "serve X and Y
	// together on one l40s"): their memory adds up.
	Together bool
	// NeedAsked is a technique said and asked whether it is needed ("or
	// do I need ZeRO-3?", "ckpt 켜야 돼?"): "strategy" or "ckpt"; the
	// answer plans the job without it too.
	NeedAsked string
	// OpenTargets are the GPUs of a comparison said without a count beside
	// ones said with a count or as a team server ("우리 server-a로 돌리는
	// 거랑 h100 클라우드 빌리는 거랑"): each is planned at the fewest that
	// hold the job, not at one that may not.
	OpenTargets []int
	// RequestRate: the rate asked is in requests ("requests per second?",
	// "초당 요청 몇 개"): a served model's answer gives requests/s.
	RequestRate bool
	// Memory: the question asked how much GPU memory the job needs.
	Memory bool
	// OOM: the request complains of running out of GPU memory, with no
	// GPU named; its choices are each planned on one GPU
	OOM bool
	// AmountUnit is the work an amount question asks for ("tokens",
	// "epochs", "samples", "steps"): how much of it a budget or a time
	// buys.
	AmountUnit string
	// FitAsked: a choice among the team's servers asked as whether it runs
	// there ("우리 서버에서 … 돌릴 수 있어?"): the answer says yes or no first.
	FitAsked bool
	// CompareCkpt: checkpointing asked on and off ("ckpt on vs off",
	// "체크포인팅 켰을 때랑 껐을 때"): both are planned side by side.
	CompareCkpt bool
	// AudioRate: a speech model's rate asked in audio time ("hours of
	// audio per hour", "실시간 몇 배").
	AudioRate bool
	// GPUHours: the GPU-hours were asked ("how many h100 hours for …").
	GPUHours bool
	// StepTime: a step's time was asked ("스텝당 몇초", "time per step?").
	StepTime bool
	// KVLeft: the room left for the KV cache was asked ("kv캐시 몇기가
	// 남아?", "how much room is left for the kv cache").
	KVLeft bool
	// KVCache: the request named the KV cache with no format ("kv cache
	// 얼마나 먹어?"): a memory answer gives its share.
	KVCache bool
	// MaxBatch: the question asked the largest batch that fits.
	MaxBatch bool
	// MaxSeq: the question asked the longest context that fits.
	MaxSeq bool
	// BitsAsked: the widest weight format that fits was asked ("몇비트로
	//양자화해야 4090에 올라가?", "what bit width fits").
	BitsAsked bool
	// Budget is a ceiling on the cost in USD the request said, 0 for none.
	Budget float64
	// AlsoTime: the speed or the time was asked beside a fit ("will it fit
	// and how fast?"): the fit's answer says it too.
	AlsoTime bool
	// AlsoCost: the cost was asked beside a count ("a100 몇장 필요하고
	// 비용은?"): the count's answer gives the money too.
	AlsoCost bool
	// GPUCount is a GPU count said with no GPU named ("on 8 gpus", "gpu
	// 8장"): the search keeps that count and finds the GPU. 0 for none.
	GPUCount int
	// NodesAsked: the count was asked in nodes ("how many h100 nodes",
	// "노드 몇 개"): counts are tried in whole nodes and said in nodes.
	NodesAsked bool
	// MaxGPUHourUSD is a ceiling on one GPU's hourly price the request
	// said ("under $2/hr"), 0 for none: the cloud search keeps the GPUs
	// the catalogue prices at or under it.
	MaxGPUHourUSD float64
}

// ParsePlan reads a plan request ("bert-base 10 epochs of 2.5M samples on
// h100x2") into a planner.Request. Every failure is a *UserError whose Msg
// names the offending word in backticks and, where a close valid word
// exists, says "did you mean `x`?"; its Hint gives a corrected or typical
// example.
func ParsePlan(cat *planner.Catalog, text string) (planner.Request, error) {
	r, err := Read(Env{Catalog: cat}, text)
	return r.Request, err
}

// Read reads a plan request as people type it — terse or as a question, in
// English or Korean — against the catalogue and the team's servers.
func Read(env Env, text string) (Reading, error) {
	cat := env.Catalog
	if cat == nil {
		cat = planner.DefaultCatalog()
	}
	now := env.Now
	if now.IsZero() {
		now = time.Now()
	}
	question := strings.ContainsAny(text, "?？")
	text = reqStripLead(reqNormalize(hangulServers(text, env.Servers)))
	text, amounts := amountsSaid(text)
	if n := utf8.RuneCountInString(text); n > reqMaxRunes {
		return Reading{}, userErrorf(reqExample,
			en.Tf("that request is %d characters long; I read plan requests of up to %d", n, reqMaxRunes))
	}
	if !env.noVariant && !env.unsettled {
		if r, ok := readVariants(env, text); ok {
			return r, nil
		}
	}
	servers := map[string]planner.Hardware{}
	names := map[string]bool{}
	gpus := map[string]string{}
	for _, h := range env.Servers {
		servers[h.Server] = h
		names[h.Server] = true
		gpus[h.Server] = h.GPU.ID
	}
	p := &reqParser{cat: cat, text: text, servers: servers, resolve: env.Resolve, teamModels: env.Models}
	for _, h := range env.Servers {
		p.serverOrder = append(p.serverOrder, h.Server)
	}
	c := newCanonizer(cat, p, text, names, gpus, now)
	c.question = question
	c.krwPerUSD = env.KRWPerUSD
	if c.krwPerUSD <= 0 {
		c.krwPerUSD = DefaultKRWPerUSD
	}
	c.run()
	noteWonBudget(p, c, env.KRWPerUSD > 0)
	noteUsersAtOnce(p, c)
	p.toks, p.largest, p.ask, p.distill, p.familyTop = c.out, c.largest, c.ask, c.distill, c.familyTop
	p.chatFamily = slices.ContainsFunc(c.in, func(t reqToken) bool { return chatWord(strings.ToLower(t.w)) })
	if err := p.run(); err != nil {
		if !env.unsettled {
			err = p.settle(env, err)
		} else if ue, ok := err.(*UserError); ok {
			ue.slip = p.alts[ue.Hint].slip
		}
		return Reading{}, err
	}
	p.afterRun(c)
	if j := p.req.Job; c.reduceAsked && p.precisionPair[0] == "" && (j.Precision == planner.INT4 || j.Precision == planner.INT8 || j.Precision == planner.FP8) {
		p.precisionPair = [2]planner.Precision{planner.FP16, j.Precision} // "int4 양자화하면 얼마나 줄어": against 16 bits
	}
	r := Reading{Request: p.req, Ask: c.ask, Deadline: c.deadline, DeadlineWords: c.deadlineWord, ThirdPrecision: p.thirdPrecision(c.memory || c.ask == AskFit),
		Dataset: c.dataset, Prefer: c.prefer, Rate: c.rate, Latency: c.latency, ComparePrecisions: p.precisionPair, Cloud: c.cloud, RequestRate: c.requestRate, Memory: c.memory, KVCache: c.kvWord, GPUHours: c.gpuHours, StepTime: c.stepAsked, KVLeft: c.kvWord && kvLeftAsked(c.in), AudioRate: c.audioRate, CompareCkpt: c.compareCkpt, AmountUnit: c.amountUnit, MaxBatch: c.maxBatch, MaxSeq: c.maxSeq, BitsAsked: c.bitsAsked, Budget: c.budget, MaxGPUHourUSD: c.hourly, notes: p.notes, Skipped: append(c.skipped, p.skipped...), Korean: c.korean, Corrected: ggufCorrections(c.corrected, p.req.Job), StandIn: p.standIn, BF16Named: p.bf16Named || c.bf16Denied, LaunchAsked: c.launchAsked, PerUser: c.perUser, RL: p.rl, Hyperscaler: c.hyperscaler, CPUOnly: c.cpuOnly || c.laptop && c.cpuOnlyEmitted, Laptop: c.laptop, TPAsked: p.tpAsked, CloudVsTeamCost: c.cloud && c.ask == AskWhichServer && (priceAsked(strings.ToLower(c.text)) || strings.Contains(strings.ToLower(c.text), "cheaper") || strings.Contains(c.text, "싸")),
		WorkloadAssumed: p.workloadAssumed, LargestModel: p.sizeAsked, LargestOf: p.largestOf, NegativeAsk: c.negativeAsk, Chinchilla: c.chinchilla && p.req.Job.Tokens > 0,
		LatencyTargetS: c.latencyTarget, LatencyFirst: c.latencyFirst, LatencyPerToken: c.latencyPerToken, InWon: c.inWon, AlsoTime: c.timeAsked && c.ask == AskFit,
		AlsoCost: c.costWord && c.ask == AskCount}
	p.rentSpan(&r)
	if r.ThenServe = p.thenServeRequest(); p.req.Job.Workload == planner.Inference || r.ThenServe != nil {
		r.ServeHours = c.serveHours
	}
	if p.openCount > 0 && len(r.Request.Targets) == 0 {
		n := p.openCount
		r.GPUCount = n
		r.Request.Pool = cat.CountPool(n)
		if r.Ask == AskNone {
			r.Ask = AskWhichGPU
		}
	}
	if c.standInGPU != "" {
		r.Corrected = append(r.Corrected, c.standInGPU+" (the cheapest card of that size)")
	}
	settleAsk(&r, c, p, question)
	impliedDefaults(&r, p, c)
	countsAsked(&r, c, p)
	amounts.apply(&r)
	return r, nil
}

// countsAsked settles how a count is asked: of the team's servers, in
// nodes, or within the GPUs the asker has ("we have 8", "8장 중에").
func countsAsked(r *Reading, c *canonizer, p *reqParser) {
	r.Buying = c.buying
	if r.Request.Compare && !r.CompareOpen && len(p.counted) == len(r.Request.Targets) {
		for k, hw := range r.Request.Targets {
			if !p.counted[k] && hw.Server == "" {
				r.OpenTargets = append(r.OpenTargets, k)
			}
		}
	}
	if j := r.Request.Job; c.needAsked == "strategy" && j.Strategy != planner.StrategyAuto && j.Strategy != planner.DDP || c.needAsked == "ckpt" && j.Checkpointing {
		r.NeedAsked = c.needAsked
	}
	if r.Buying && r.Ask == AskWhichServer && !namesServer(r.Request.Targets) {
		r.Ask = AskWhichGPU // "서버 새로 사려는데 뭐 사야돼": which GPUs, for a server to come
	}
	r.FitAsked = r.Ask == AskWhichServer && c.canItRun()
	r.NodesAsked = c.nodesAsked && r.Ask == AskCount
	if c.have > 0 && r.Ask == AskCount && len(r.Request.Targets) == 1 && !r.Request.Compare && r.Variant == nil {
		r.CountHave, r.CountOpen = c.have, true
	}
}

// impliedDefaults fills in what the words imply and the request did not
// say: a recipe's epochs, an instruction set's sample length, the rate
// live audio streams send.
func impliedDefaults(r *Reading, p *reqParser, c *canonizer) {
	recipeEpochs(r, p, c.epochAsked)
	sampleSeq(r, p)
	taskSeq(r, p, c)
	liveStreams(r, p, c)
	unslothAdapters(r, p, c)
	chatLengths(r, p, c)
	instructNamed(r, c)
	oomChoices(r, p, c)
}

// unslothAdapters reads a fine-tune said with Unsloth and no method
// ("sft with unsloth on a t4") as Unsloth runs one unless told
// full_finetuning: LoRA adapters on a 4-bit base (its notebooks'
// load_in_4bit=True), QLoRA; "full" keeps the full fine-tune.
func unslothAdapters(r *Reading, p *reqParser, c *canonizer) {
	j := &r.Request.Job
	if j.Stack != planner.Unsloth || j.Workload != planner.Finetune {
		return
	}
	for _, t := range c.in {
		if t.w == "full" || t.w == "fft" || strings.HasPrefix(t.w, "풀") || strings.HasPrefix(t.w, "full-") || strings.HasPrefix(t.w, "전체") {
			return
		}
	}
	j.Workload = planner.QLoRA
	p.note(en.T("Unsloth fine-tunes LoRA adapters on a 4-bit base unless told full_finetuning: planned as QLoRA (say `full finetune` for all the weights)"))
	r.notes, j.Notes = p.notes, p.req.Job.Notes
}

// liveStreams reads a speech model serving live streams ("real-time
// transcription for 50 concurrent streams", "실시간 전사 동시 50명"): each
// stream sends a 30-second window every 30 seconds, so N streams are N/30
// windows a second, a request rate, not N long requests in flight.
func liveStreams(r *Reading, p *reqParser, c *canonizer) {
	j := &r.Request.Job
	if j.Model.Family != "Whisper" || j.Concurrency <= 0 || j.RequestRate > 0 || !c.liveSaid() {
		return
	}
	n := j.Concurrency
	j.RequestRate, j.Concurrency = math.Round(float64(n)/30*100)/100, 0
	r.LiveStreams = n
	p.note(en.Tf("%d live streams: a 30 s window from each every 30 s, %s windows a second", n, reqTrimNum(j.RequestRate)))
	r.notes, j.Notes = p.notes, p.req.Job.Notes
	r.Skipped = slices.DeleteFunc(r.Skipped, func(s string) bool {
		for _, w := range strings.Fields(strings.ToLower(s)) {
			if w == "real-time" || w == "realtime" || w == "live" || w == "streaming" || strings.HasPrefix(w, "실시간") {
				return true // the live words are read here
			}
		}
		return false
	})
}

// recipeEpochs gives a vision model trained from scratch on ImageNet-1k
// with no amount said the epochs of its published recipe: "resnet50
// imagenet 학습 얼마나 걸려" asks for the whole training, not one pass.
// torchvision's ResNet reference trains 90 epochs; DeiT (ViT) and
// ConvNeXt train 300. The reading shows them and a note says so.
func recipeEpochs(r *Reading, p *reqParser, epochAsked bool) {
	j := &r.Request.Job
	if r.Dataset != "imagenet-1k" || j.Epochs > 0 || j.StepsPerEpoch > 0 || j.Samples > 0 || j.Tokens > 0 || j.Steps > 0 ||
		AssumedWorkload(*j) != planner.Pretrain || r.Request.Baseline != nil || r.Ask == AskAmount || epochAsked {
		return
	}
	switch {
	case j.Model.Kind == planner.VisionConv && j.Model.Family == "ResNet":
		j.Epochs = 90
		p.note(en.T("ImageNet from scratch: 90 epochs, torchvision's ResNet recipe (say `N epochs` for another)"))
	case j.Model.Kind == planner.VisionConv || j.Model.Kind == planner.VisionViT:
		j.Epochs = 300
		p.note(en.T("ImageNet from scratch: 300 epochs, the DeiT and ConvNeXt recipes (say `N epochs` for another)"))
	default:
		return
	}
	r.notes, j.Notes = p.notes, p.req.Job.Notes
}

// formatsAsked reads "which" of formats said side by side ("bf16이랑 fp8
// 중에 뭐가 빨라", "which is cheaper"): both are answered, the cost when
// cheaper was asked; it reports whether it did.
func formatsAsked(r *Reading, c *canonizer) bool {
	if r.ComparePrecisions[0] == "" || r.Ask != AskWhichGPU || r.Request.Compare {
		return false
	}
	r.Ask = AskNone
	if c.prefer == "cheapest" {
		r.Ask = AskCost
	}
	return true
}

// newCanonizer is the first pass over a request's words, with what it
// needs to know of the catalogue, the team's servers and the clock.
func newCanonizer(cat *planner.Catalog, p *reqParser, text string, names map[string]bool, gpus map[string]string, now time.Time) *canonizer {
	return &canonizer{text: text, in: respellKorean(reqTokenize(text), p.isGPU), servers: names, serverGPU: gpus, now: now,
		gpu: func(w string) bool { return p.isGPU(w) },
		modelKnown: func(w string) bool {
			if _, ok := p.teamModels[w]; ok {
				return true
			}
			_, _, err := cat.Model(w)
			return err == nil || reqAmbiguous(err)
		},
		modelID: func(w string) string {
			if m, ok := p.teamModels[w]; ok {
				return m.ID
			}
			m, _, err := cat.Model(w)
			if err != nil {
				return ""
			}
			return m.ID
		},
		modelParams: func(w string) float64 {
			m, _, err := cat.Model(w)
			if err != nil {
				return 0
			}
			return m.Params()
		},
		familyLike: func(w string) bool { return familyLike(cat, w) },
		gpuByMem:   func(gb float64) string { return gpuByMemory(cat, gb) },
		modelPart:  modelParts(cat)}
}

// whichAsked settles a "which" question by what it is asked of: of the
// team's servers side by side, which one; in money, the cost; of one
// setup said with its count ("the fastest way to run deepseek r1? we have
// 8x a100 80gb"), whether and how fast it runs there.
func whichAsked(r *Reading, c *canonizer, p *reqParser) {
	if r.Request.Compare && (r.Ask == AskWhichGPU || r.Ask == AskFit) && allServers(r.Request.Targets) {
		r.Ask = AskWhichServer // "server-a or server-h, which one?"
	}
	if r.Request.Compare && c.costWord {
		r.Ask = AskCost // "which is cheaper", "비용 비교", "가성비"
	}
	if r.Ask == AskWhichGPU && !r.Request.Compare && len(r.Request.Targets) == 1 && !p.countOpen() && !namesServer(r.Request.Targets) {
		r.Ask, r.AlsoTime = AskFit, true
	}
}

// settleAsk decides what a read request asks and the workload that running
// a model implies, from the question words and the shape of what was
// read; the order of the rules is their precedence.
func settleAsk(r *Reading, c *canonizer, p *reqParser, question bool) {
	if formatsAsked(r, c) {
		question = false // answered by the formats side by side
	}
	if c.serverWord && !c.gpuWord && (r.Ask == AskWhichGPU || r.Ask == AskFit && len(r.Request.Targets) == 0) && !namesServer(r.Request.Targets) && !r.Request.Compare {
		// "서버 어디가 나음", "가능한 서버 있음?": a choice among the team's servers
		r.Ask = AskWhichServer
	}
	if (c.runWord || c.serveHours > 0 || c.latencyTarget > 0 || c.latency && !trainingSaid(c.in)) && r.Request.Job.Workload == "" && (!trainingJob(r.Request) && !trainingAhead(c.in) || c.useWord) {
		// "can I run mixtral on 2 a6000": running a model is inference;
		// so is a latency or a rate asked ("ttft for llama 3 8b", "latency
		// for 512 output tokens") when nothing says training ("training
		// bert-base on a100, how fast" is training's speed)
		r.Request.Job.Workload = planner.Inference
	}
	if c.maxSeq && r.Request.Job.Workload == "" && !trainingSaid(c.in) && !trainingJob(r.Request) {
		// "컨텍스트 몇 토큰까지 돼?", "max context on a 4090": a served
		// model's window, when nothing says training
		r.Request.Job.Workload = planner.Inference
	}
	servedFromWords(r, c, question)
	if j := &r.Request.Job; c.latency && !c.requestRate && j.Workload == planner.Inference && j.Concurrency == 0 && j.RequestRate == 0 && j.MicroBatch == 0 && j.GlobalBatch == 0 && j.Model.Kind != "" && !j.Model.ForwardOnly() {
		// "TTFT?", "지연시간": one request's latency unless a load is said
		j.Concurrency = 1
		p.note(en.T("latency asked with no load: one request at a time (say `concurrency 32` for a loaded server)"))
	}
	if r.Request.Job.Workload == "" {
		r.WorkloadAssumed = "not said"
	}
	if r.Ask == AskNone && r.Request.Compare {
		r.Ask = AskWhichGPU // "l40s vs a100 for …?"
	}
	if r.Ask == AskNone && len(r.Request.Targets) > 0 && modalStart(c) {
		r.Ask = AskFit // "can i serve llama 3 70b on two h100s", "can my 3090 take …": does it fit there
	}
	if question && r.Ask == AskNone && len(r.Request.Targets) > 0 && r.Request.Baseline != nil {
		r.Ask = AskTime // "v100에서 에폭당 2시간 걸렸는데 h100이면?": a measured run asks how long there
	}
	if j := r.Request.Job; question && r.Ask == AskNone && len(r.Request.Targets) > 0 && (j.Epochs > 0 || j.Samples > 0 || j.Tokens > 0 || j.Steps > 0) {
		r.Ask = AskTime // "t5-large 10만개 3 에포크 v100 한장이면?": the work is said, so how long there
	}
	if question && r.Ask == AskNone && len(r.Request.Targets) > 0 {
		r.Ask = AskFit // "13b lora on a 3090?" asks whether it works there
	}
	if r.Request.Compare && (r.Ask == AskNone || r.Ask == AskWhichGPU || r.Ask == AskFit && !question) {
		r.Ask = AskWhichGPU // "l40s vs a100 for …"
	}
	if r.Request.Compare && r.Ask == AskFit && offersAlternatives(p.text) {
		r.Ask = AskWhichGPU // "is an L4 enough, or do we need an L40S?", "L4로도 충분한가요, 아니면 L40S?"
	}
	whichAsked(r, c, p)
	if c.deadlineAsk && (r.Ask == AskNone || r.Ask == AskFit && !c.fitWord) {
		// "… on 4 H100s by Friday — feasible?", "finish on the V100 server
		// within 48 hours?": hardware with its count said asks whether it
		// makes it; without one, how many GPUs it takes
		r.Ask = AskCount
		if len(r.Request.Targets) > 0 && !p.countOpen() && !r.Request.Compare {
			r.Ask = AskTime
		}
	}
	r.CompareOpen = r.Request.Compare && len(r.Request.Targets) > 1 && !slices.Contains(p.counted, true) && !namesServer(r.Request.Targets)
	j := r.Request.Job
	if r.Chinchilla && (r.Ask == AskAmount || r.Ask == AskCount && !p.countOpen() && len(r.Request.Targets) > 0) {
		r.Ask = AskTime // "how many tokens and hours": the tokens are the rule's, the hours the plan's
	}
	costOrTime := (r.Ask == AskCost || r.Ask == AskTime) && c.gpuBy && r.Request.Baseline == nil && !r.Request.Compare &&
		!c.rate && !c.latency && !c.audioRate && !c.stepAsked && (j.Epochs > 0 || j.Samples > 0 || j.Tokens > 0 || j.Steps > 0 || j.DatasetSamples > 0 || j.DatasetTokens > 0)
	if r.Ask == AskCount || r.Ask == AskAmount || r.Deadline > 0 || costOrTime || c.pluralGPU && !r.Request.Compare && r.Ask != AskWhichServer {
		// "… on h100s": as many of them as the job takes; "h100으로 하면
		// 돈 얼마나": Korean says no plural, so a cost or a time asked of a
		// GPU named without a count is of as many as the job takes too
		r.CountOpen = p.countOpen()
	}
	r.CountUnsaid = p.countOpen()
}

const (
	reqMaxGPUs  = 100000 // GPUs in a plan: Llama 3 trained on 16,384 H100s; plans go to 100k
	reqMaxRunes = 2000
	reqExample  = "e.g. gpuplan plan bert-base 10 epochs of 2.5M samples on h100x2"
	// reqKinds is the hint for a word that is close to nothing.
	reqKinds = "I read: a model (bert-base, 7b params, layers 24 hidden 2048 heads 16), " +
		"the work (10 epochs of 2.5M samples, 1.2B tokens, 5000 steps), seq 512, batch 128, micro 32, " +
		"a precision (bf16, fp16, int4), options (lora, qlora, inference, ckpt, flash, zero2, fsdp, adam8bit, tuned), " +
		"hardware (on h100x2, on 2 nodes of 8x h100, compare h200x4, a100x4) " +
		"and a measurement (baseline 5.67 h/epoch on 4x v100)"
)

// familyLike reports whether w names a model family of the catalogue of
// four letters or more, or is a typo of one (familyTypo).
func familyLike(cat *planner.Catalog, w string) bool {
	if len(w) < 4 || reqStartsNumber(w) {
		return false
	}
	for _, f := range modelNameIndex(cat).parts {
		if len(f) > 0 && len(f[0]) >= 4 && (len(w) >= 5 && w == f[0] || familyTypo(w, f[0])) {
			return true
		}
	}
	return false
}

// gpuByMemory is the cheapest catalogue GPU whose memory is gb (within
// 5 %): "is 24GB enough" plans on a 24 GB card.
func gpuByMemory(cat *planner.Catalog, gb float64) string {
	best, price := "", math.Inf(1)
	for _, g := range cat.GPUs {
		if math.Abs(g.MemoryGB-gb) <= 0.05*gb && g.PriceUSD > 0 && g.PriceUSD < price {
			best, price = g.ID, g.PriceUSD
		}
	}
	return best
}

func namesServer(hs []planner.Hardware) bool {
	for _, h := range hs {
		if h.Server != "" {
			return true
		}
	}
	return false
}

// modelParts is the set of name parts of the catalogue's models that are
// neither their family nor a size ("distill", "qwen", "r1", "instruct",
// "medium"), and of the families themselves.
func modelParts(cat *planner.Catalog) func(string) bool {
	set := modelNameIndex(cat).words
	return func(w string) bool { return set[w] }
}

func allServers(hs []planner.Hardware) bool {
	for _, h := range hs {
		if h.Server == "" {
			return false
		}
	}
	return len(hs) > 0
}

// afterRun settles what the typed readers left to the whole request:
// weights said for inference, counts asked of a layout or a run, a
// Chinchilla budget, a per-user rate, quantising asked as a job.
func (p *reqParser) afterRun(c *canonizer) {
	p.weightOnlyInference(trainingSaid(c.in), c.weightFormat)
	p.layoutCount(c.ask)
	p.runCount(c.ask)
	p.chinchillaTokens(c.chinchilla)
	p.perUserRate(c)
	p.quantisingNote(&c.skipped, &p.skipped)
	p.rlUpdate()
}

// rlUpdate plans a reinforcement-learning run said by its method (GRPO,
// PPO) as its policy update — a fine-tune over the sampled completions,
// LoRA when said — and says what that leaves out: the rollouts, which
// generate several completions per prompt and often take longer than the
// update.
func (p *reqParser) rlUpdate() {
	if p.rl == "" {
		return
	}
	j := &p.req.Job
	if j.Workload == "" || j.Workload == planner.Inference || j.Workload == planner.Pretrain {
		j.Workload = planner.Finetune
	}
	p.note(en.Tf("%s is planned as its policy update, a %s over the sampled completions; the rollouts (several completions generated per prompt, usually with vLLM) and the reference model's forward take time of their own, often more than the update, and are not in these figures", p.rl, j.Workload))
}

// NotesIn is the reader's notes on the request (Request.Job.Notes) in p's
// language: the assumptions it made and how it resolved names.
func (r Reading) NotesIn(p *i18n.Printer) []string {
	if !p.Korean() || len(r.notes) != len(r.Request.Job.Notes) {
		return r.Request.Job.Notes
	}
	out := make([]string, len(r.notes))
	for i, t := range r.notes {
		out[i] = t.in(p)
	}
	return out
}

// modalStart reports whether the request opens as a yes/no question about
// its own hardware: "can I …", "could we …", "can my 3090 …".
func modalStart(c *canonizer) bool {
	if len(c.in) < 2 || (c.in[0].w != "can" && c.in[0].w != "could") {
		return false
	}
	switch c.in[1].w {
	case "i", "we", "you", "my", "our", "it", "this", "a", "one":
		return true
	}
	return c.gpu(c.in[1].w)
}

// offersAlternatives reports whether text puts its hardware as
// alternatives ("… or …", "아니면", "또는", "혹은"): asking whether one is
// enough, or the other is needed, asks which to use.
func offersAlternatives(text string) bool {
	t := " " + strings.ToLower(text) + " "
	for _, w := range []string{" or ", "아니면", "또는", "혹은"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// servedFromWords settles a job no workload was said for as serving when
// its words say so: whether a language model fits with nothing said of
// training, audio given as the work, the KV cache named. The KV cache
// named asks its memory too.
func servedFromWords(r *Reading, c *canonizer, question bool) {
	j := r.Request.Job
	fitAsked := r.Ask == AskFit || question && r.Ask == AskNone && len(r.Request.Targets) > 0 && j.Epochs == 0 && j.Samples == 0 && j.Tokens == 0 && j.Steps == 0 // "13B on 24GB?"
	if fitAsked && j.Workload == "" && (j.Model.Kind == planner.Decoder || j.Model.Kind == planner.MoE) &&
		j.Model.Params() >= 1e9 && !trainingSaid(c.in) && !trainingJob(r.Request) {
		// "gpt-oss-120b on one h100 - fits?", "mixtral 8x22b fp8 on 4x h100,
		// enough memory?": whether a language model fits, with nothing
		// said of training, is whether it loads to run
		r.Request.Job.Workload = planner.Inference
	}
	if c.audioWork && r.Request.Job.Workload == "" && !trainingSaid(c.in) {
		// "whisper on 100 hours of audio": transcribing it, unless training is said
		r.Request.Job.Workload = planner.Inference
	}
	if c.kvWord && (r.Request.Job.Workload == "" || r.Request.Job.Workload == planner.Inference) && !trainingSaid(c.in) && !trainingJob(r.Request) {
		// "kv cache 얼마나 먹어?", "how much kv cache at 32k", "kv cache
		// for … with 8 concurrent requests?": only a served model keeps
		// one, and how much is a memory question
		r.Request.Job.Workload = planner.Inference
		if (r.Ask == AskNone || r.Ask == AskTime || r.Ask == AskCost) && !c.latency && !c.rate && r.Request.Baseline == nil {
			r.Ask, r.Memory = AskFit, true
		}
	}
	if r.ServeHours == 0 && c.serveHours > 0 && r.Request.Job.Workload == planner.Inference {
		r.ServeHours = c.serveHours // "monthly cost of hosting …": served, once hosting made it inference
	}
}

// groupThousands writes a whole amount with thousands separators
// ("5,000,000"), as money is read.
func groupThousands(v float64) string {
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// rentSpan makes a span of time said for the run ("for 2 days") the
// reading's time limit, and with no work said, asks what that time buys:
// the work done in it and its cost.
func (p *reqParser) rentSpan(r *Reading) {
	if p.runFor == 0 || r.Deadline > 0 {
		return
	}
	r.Deadline, r.DeadlineWords = p.runFor, p.runForWords
	j := r.Request.Job
	if j.Epochs == 0 && j.Tokens == 0 && j.Samples == 0 && j.Steps == 0 && j.Workload != planner.Inference &&
		(r.Ask == AskCost || r.Ask == AskNone || r.Ask == AskTime) {
		r.Ask = AskAmount
	}
	if r.Ask == AskAmount && r.AmountUnit == "" {
		r.AmountUnit = DefaultAmountUnit(j.Model)
	}
}

// DefaultAmountUnit is the unit the work a time or a budget buys is
// counted in when none was asked: a language model's in tokens, any
// other's in samples.
func DefaultAmountUnit(m planner.Model) string {
	if m.Kind == planner.Decoder || m.Kind == planner.MoE {
		return "tokens"
	}
	return "samples"
}

// ggufCorrections drops "q5_k_m → int8 (priced as 8-bit, the safe side)"
// from a served model's corrections when the engine reads the GGUF type:
// its weights are then priced at the type's own bits (planner's
// GGUFBitsPerWeight, 5.7 for Q5_K_M), and 8-bit is only the compute
// format's name.
func ggufCorrections(corrected []string, j planner.Job) []string {
	if j.GGUFType == "" || j.Workload != planner.Inference {
		return corrected
	}
	return slices.DeleteFunc(slices.Clone(corrected), func(c string) bool { return strings.HasSuffix(c, int8Note) })
}

// noteUsersAtOnce says how the people a service is for, or its users a
// day, became the users planned at once: a tenth at the busiest time.
func noteUsersAtOnce(p *reqParser, c *canonizer) {
	if c.population > 0 {
		p.note(en.Tf("%s people who use it planned as %s at once at the busiest time (a tenth, assumed); say `N concurrent` for your peak", groupThousands(c.population), groupThousands(atOnce(c.population))))
	}
	if c.dailyUsers > 0 {
		p.note(en.Tf("%s users a day planned as %s at once at the busiest time (a tenth, assumed); say `N concurrent` for your peak", groupThousands(c.dailyUsers), groupThousands(atOnce(c.dailyUsers))))
	}
}
