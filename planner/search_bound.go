package planner

import "math"

// A floor under an option's time, from what every layout of it must pay
// (its FLOPs at the best utilization it could reach, the communication
// no micro-batch can hide, the optimizer step): what lets the search
// rank options without timing every layout of every one.

// floorJob is what the floor under an option's time takes from the job:
// the same for every option of a search.
type floorJob struct {
	ok bool // the job has a floor (training)
	// per sample: the FLOPs a GPU executes (without recomputation unless
	// it is asked for: it only adds FLOPs), their attention-score part,
	// and the tokens (a CNN image fills the GPU like ~256)
	hw, attn, tokens float64
	attnEff          float64 // attention at GEMM efficiency or better (eager adds score traffic)
	// per sample, with recomputation (the costliest layout listed): the
	// FLOPs and attention FLOPs a GPU executes, and the attention's
	// efficiency at worst: a ceiling on a micro-batch's compute, which
	// hides part of the all-reduce
	hwMax, attnMax, attnEffMin float64
	hidesAR                    bool // the ceiling holds (QLoRA adds dequantisation time)
	capB                       int  // microFor's cap on the micro-batch
	lora                       bool
	trainable                  float64 // trainable parameters; 0: per layout (MoE)
}

func (pc *planContext) floorJob() floorJob {
	j := &pc.job
	if j.Workload == Inference {
		return floorJob{}
	}
	fj := floorJob{ok: true, tokens: 256, attnEff: math.Max(1, pc.prm.AttnFlash)}
	f := trainingFlops(*j, layout{ckpt: j.Checkpointing, selective: j.SelectiveRecompute})
	fj.hw, fj.attn = f.hardware, f.attn
	if f.perToken {
		seq := float64(j.SeqLen)
		fj.hw, fj.attn, fj.tokens = fj.hw*seq, fj.attn*seq, seq
	}
	fm := trainingFlops(*j, layout{ckpt: true})
	fj.hwMax, fj.attnMax = fm.hardware, fm.attn
	if fm.perToken {
		seq := float64(j.SeqLen)
		fj.hwMax, fj.attnMax = fj.hwMax*seq, fj.attnMax*seq
	}
	fj.attnEffMin = math.Min(1, pc.prm.AttnFlash)
	fj.hidesAR = !j.quantBase() && pc.prm.AttnFlash > 0
	fj.capB = max(1, min(256, 32768/max(j.SeqLen, 1)))
	if !j.Model.IsTransformer() {
		fj.capB = 256
	}
	fj.lora = j.Workload == LoRA || j.Workload == QLoRA
	switch {
	case fj.lora:
		fj.trainable = loraParams(j.Model, j.LoRARank)
	case j.Model.Kind != MoE:
		fj.trainable = j.Model.Params()
	}
	return fj
}

// floorGPU is what the floor takes from one GPU type: the same for every
// count.
type floorGPU struct {
	prec       Precision
	peak, uMax float64 // dense peak FLOP/s; hfu without its micro-batch term, its ceiling
	gradBytes  float64 // per trainable parameter all-reduced
	eagerS     float64 // per sample: eager attention's score traffic at its most passes, seconds
	stateBytes float64 // per trainable parameter the optimizer step reads and writes
}

func (pc *planContext) floorGPU(g *GPU) floorGPU {
	j := &pc.job
	prec, _ := pickPrecision(*j, *g)
	fg := floorGPU{prec: prec, peak: effectivePeak(*g, prec) * 1e12, gradBytes: 4}
	fg.uMax = hfu(pc.prm, *j, layout{gpu: *g, precision: prec}, 0) * pc.jobFactor
	if j.Stack.Fused() && prec != FP32 && prec != TF32 {
		fg.gradBytes = 2
	}
	sb := jobStateBytes(*j, prec)
	if j.Workload == LoRA || j.Workload == QLoRA {
		sb = stateBytes{4, 4, 8}
	}
	fg.stateBytes = sb.weights + sb.grads + sb.optim
	if j.Attention == Eager && j.Model.IsTransformer() && j.Model.Kind != VisionViT {
		fg.eagerS = eagerScoreBytes(j.Model, j.SeqLen, prec) * pc.prm.EagerPasses * 4 / 3 / (g.MemBWGBs * 1e9 * pc.jobFactor)
	}
	return fg
}

// floorPerSample is a lower bound on the seconds per sample of every
// layout of h (timeStep's step / global batch), from what timeStep charges
// whatever the micro-batch and the sharding: the layout's FLOPs at the
// utilization of the largest micro-batch it could run, its pipeline
// bubble at the most micro-batches it could run, the part of the gradient
// all-reduce that is never hidden, the tensor-parallel all-reduces, the
// optimizer step over the most sharded state, and the straggler loss of
// the count. It sizes nothing. Zero when there is no floor to give.
// TestFloorUnderEveryLayout holds it under timeStep.
//
// floorPerSample is long on purpose: each term stands under a term of
// timeStep, in timeStep's order, so the two read side by side.
func (pc *planContext) floorPerSample(h *Hardware, fj *floorJob, fg *floorGPU, out *layoutFloors) float64 {
	j := &pc.job
	g, n := &h.GPU, h.Count
	sync := 1.0
	if n > 1 {
		sync = 1 - pc.prm.SyncLoss*math.Log2(float64(n))
	}
	if !fj.ok || !(fg.peak > 0 && fg.uMax > 0 && sync > 0) {
		return 0
	}
	perNode := gpusPerNode(*h)
	busGBs, _ := linkGBs(pc.prm, *g, n, perNode, h.Interconnect)
	cp := max(1, j.ContextParallel)
	var mpArr [8]mpPair
	floor := math.Inf(1)
	if out != nil {
		out.n = 0
	}
	for _, m := range pc.modelParallel(*h, mpArr[:0]) {
		mp := m.tp * m.pp
		if n%(mp*cp) != 0 {
			continue
		}
		dp, shardDP := n/(mp*cp), n/mp // data-parallel replicas; GPUs sharing one slice of the state
		// the largest micro-batch, the most micro-batches and the
		// largest global batch microFor can pick
		microMax, gaMax, globalMax := 1, 1, 1
		switch {
		case j.GlobalBatch > 0:
			per := max(1, j.GlobalBatch/dp)
			microMax, gaMax = min(per, fj.capB), per
			if m.pp > 1 {
				microMax = 1
			}
			if j.MicroBatch > 0 {
				microMax, gaMax = j.MicroBatch, max(1, (per+j.MicroBatch-1)/j.MicroBatch)
			}
			globalMax = (per + microMax - 1) * dp
		case j.MicroBatch > 0:
			microMax, globalMax = j.MicroBatch, j.MicroBatch*dp
		default:
			microMax = 1 << int(math.Floor(math.Log2(float64(fj.capB))))
			globalMax = microMax * dp
		}
		u := fg.uMax
		if tokens := float64(microMax) * fj.tokens / float64(m.tp*cp); tokens > 0 {
			u *= tokens / (tokens + pc.prm.T0)
		}
		bubble := 0.0
		if m.pp > 1 {
			v := 1.0
			if j.Stack == Tuned && j.Model.Layers/m.pp >= 4 {
				v = 4
			}
			bubble = float64(m.pp-1) / (v*float64(gaMax) + float64(m.pp-1))
		}
		perSample := ((fj.hw-fj.attn)/(fg.peak*u) + fj.attn/(fg.peak*u*fj.attnEff)) / float64(n) * (1 + bubble)
		if m.tp > 1 {
			// four activation all-reduces per layer, the same per sample
			// whatever the micro-batch
			nodeGBs, _ := linkGBs(pc.prm, *g, m.tp, perNode, NVLink)
			perSample += pc.prm.TPExposed * float64(j.Model.Layers) / float64(m.pp) * 8 * float64(m.tp-1) / float64(m.tp) *
				float64(j.SeqLen) * float64(j.Model.Hidden) * 2 / (nodeGBs * 1e9) / float64(dp)
		}
		// per step: the gradient all-reduce's last bucket and the
		// optimizer step over the most sharded state
		trainable := fj.trainable
		if trainable == 0 {
			trainable = heldParams(j.Model, layout{n: n, tp: m.tp, pp: m.pp, cp: cp})
		}
		var exposed, opt float64
		if shardDP > 1 {
			ring := 2 * float64(shardDP-1) / float64(shardDP)
			tAR := ring * trainable * fg.gradBytes / float64(mp) / (busGBs * 1e9)
			exposed = minExposedComm * tAR
			if fj.hidesAR {
				// what a micro-batch's compute can hide: the
				// all-reduce behind the last backward, or ZeRO-3's
				// gathers behind each micro-batch (at least the
				// all-reduce's volume)
				uLo := u * (1 - 1e-9)
				tMicro := float64(microMax) * ((fj.hwMax-fj.attnMax)/(fg.peak*uLo) + fj.attnMax/(fg.peak*uLo*fj.attnEffMin) + fg.eagerS) / float64(mp*cp)
				hide := pc.prm.Overlap * 2 / 3
				if j.Strategy == ZeRO3 || j.Strategy == FSDP || j.Strategy == StrategyAuto && (mp == 1 || j.Model.Kind == MoE && m.tp == 1) {
					hide = math.Max(hide, 0.8)
				}
				exposed = math.Max(exposed, tAR-hide*tMicro)
			}
		}
		if j.Offload == OffloadNone {
			shard := float64(mp)
			if j.Strategy != DDP {
				shard *= float64(shardDP)
			}
			opt = trainable * fg.stateBytes * 2 / shard / (g.MemBWGBs * 1e9 * 0.8)
		}
		f := (perSample/sync + (exposed/sync+opt)/float64(globalMax)) * (1 - 1e-9) // rounding: under the exact figure
		floor = math.Min(floor, f)
		if out != nil && f > 0 {
			out.pairs[out.n], out.floors[out.n] = m, f
			out.n++
		}
	}
	if !(floor > 0) || math.IsInf(floor, 1) {
		return 0
	}
	return floor
}

// layoutFloors is floorPerSample for each tensor/pipeline-parallel pair of
// one option: what lets best leave a pair unsized once a layout it has
// found is clearly faster than the pair can be.
type layoutFloors struct {
	n      int
	pairs  [8]mpPair
	floors [8]float64
}

// of is the floor of l's pair; 0 when there is none.
func (f *layoutFloors) of(l *layout) float64 {
	if f == nil {
		return 0
	}
	for i := range f.n {
		if f.pairs[i].tp == l.tp && f.pairs[i].pp == l.pp {
			return f.floors[i]
		}
	}
	return 0
}

// optionSet is the options one search considers, each with a floor under
// its hours and cost (floorPerSample). Only the options whose floors leave
// room to be the fastest, the cheapest or the balanced pick are timed
// (best); the others are only checked for fit. The picks and the count of
// options that fit are those of timing every option: an option left
// untimed is slower than a timed one that beats it for that pick.
type optionSet struct {
	pc   *planContext
	sp   searchSpace
	memo probeMemo
	opts []optionState
	// the options by floor of hours and of cost, as of the first
	// ordered options
	byHours, byCost floorOrder
	ordered         int
	// the floor's terms of the job, and of the GPU type last entered
	fj   floorJob
	fg   floorGPU
	fgOf int // the catalogue index fg is for; -1: none
}

// optionState is one option of the set: its floors, and once timed, its
// keys. It is 48 bytes (its precision is the GPU's, pickPrecision, not
// kept): the catalogue search holds one per GPU and count.
type optionState struct {
	floorHours, floorCost float64
	hours, cost           float64
	src, gpus             int32
	state                 optionTiming
}

// floorKey is an option's floor and its index in the set.
type floorKey struct {
	floor float64
	k     int32
}

type optionTiming uint8

const (
	notTimed optionTiming = iota
	timedFits
	doesNotFit
	fitsNotTimed
)

// floorSlack keeps an option whose floor ties a timed figure (within
// rounding) in the race: ties are ranked by the next key and the listing
// order, so they must be timed.
const floorSlack = 1 + 1e-6

func newOptionSet(pc *planContext, sp searchSpace) optionSet {
	return optionSet{pc: pc, sp: sp, fj: pc.floorJob(), fgOf: -1, opts: make([]optionState, 0, sp.len())}
}

// add enters option src (h) with its floors.
func (s *optionSet) add(src int, h *Hardware) {
	pc := s.pc
	if gi := src / len(searchCounts); s.sp.pool != nil || gi != s.fgOf {
		s.fg, s.fgOf = pc.floorGPU(&h.GPU), gi
		if s.sp.pool != nil {
			s.fgOf = -1
		}
	}
	o := optionState{src: int32(src)}
	if f := pc.floorPerSample(h, &s.fj, &s.fg, nil); f > 0 {
		o.floorHours = pc.rankHours(h.Count, 1/f)
		o.floorCost = o.floorHours * float64(h.Count) * h.GPU.PriceUSD
	}
	s.opts = append(s.opts, o)
}

// memoFor is the probe memo of option src at prec, or nil.
func (s *optionSet) memoFor(src int, prec Precision) *memoCount {
	if s.sp.pool != nil || s.pc.job.Workload == Inference {
		return nil
	}
	return s.memo.count(src%len(searchCounts), prec)
}

// time finds option k's best layout and its keys.
func (s *optionSet) time(k int) *optionState {
	o := &s.opts[k]
	if o.state != notTimed && o.state != fitsNotTimed {
		return o
	}
	h, _ := s.sp.at(int(o.src))
	fg := s.pc.floorGPU(&h.GPU)
	mc := s.memoFor(int(o.src), fg.prec)
	o.state = doesNotFit
	if mc.nothingFits(h) {
		return o
	}
	var floors layoutFloors
	s.pc.floorPerSample(&h, &s.fj, &fg, &floors)
	switch b := s.pc.best(h, fg.prec, false, mc, &floors); {
	case b.fits:
		o.state, o.gpus, o.hours, o.cost = timedFits, int32(b.gpus), b.hours, b.cost
	case b.tooBig:
		mc.noteNothingFits(h)
	}
	return o
}

// floorOrder hands out a set's options by one floor, least first,
// sorting only as far as it is asked: a min-heap of the options not
// handed out yet, and the ones handed out, in order.
type floorOrder struct {
	heap, out []floorKey
}

// reset orders opts by key.
func (q *floorOrder) reset(opts []optionState, key func(*optionState) float64) {
	q.heap, q.out = q.heap[:0], q.out[:0]
	for k := range opts {
		q.heap = append(q.heap, floorKey{key(&opts[k]), int32(k)})
	}
	for i := len(q.heap)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
}

// at is the i-th least option, or false when there are fewer.
func (q *floorOrder) at(i int) (floorKey, bool) {
	for len(q.out) <= i && len(q.heap) > 0 {
		last := len(q.heap) - 1
		q.out = append(q.out, q.heap[0])
		q.heap[0] = q.heap[last]
		q.heap = q.heap[:last]
		q.down(0)
	}
	if i < len(q.out) {
		return q.out[i], true
	}
	return floorKey{}, false
}

func (q *floorOrder) down(i int) {
	h := q.heap
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c+1].floor < h[c].floor {
			c++
		}
		if !(h[c].floor < h[i].floor) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// order brings the floor orders up to the options entered.
func (s *optionSet) order() {
	if s.ordered == len(s.opts) {
		return
	}
	s.byHours.reset(s.opts, func(o *optionState) float64 { return o.floorHours })
	s.byCost.reset(s.opts, func(o *optionState) float64 { return o.floorCost })
	s.ordered = len(s.opts)
}

// fastest is the least hours of an option that fits; false when none
// fits. Every option that may come within pickTie of it is timed: the
// fastest pick is the cheapest among those.
func (s *optionSet) fastest() (float64, bool) {
	return s.least(&s.byHours, func(o *optionState) float64 { return o.hours }, pickTie*floorSlack)
}

// cheapest is the least cost of an option that fits; false when none
// fits. Every option that may come within pickTie of it is timed: the
// cheapest pick is the one on the fewest GPUs among those.
func (s *optionSet) cheapest() (float64, bool) {
	return s.least(&s.byCost, func(o *optionState) float64 { return o.cost }, pickTie*floorSlack)
}

// least times options in the order of their floors until no floor left
// can come within slack of the least value of an option that fits, and
// returns it.
func (s *optionSet) least(order *floorOrder, value func(*optionState) float64, slack float64) (float64, bool) {
	s.order()
	least, found := math.Inf(1), false
	for i := 0; ; i++ {
		fk, ok := order.at(i)
		if !ok || found && fk.floor > least*slack {
			break
		}
		if o := s.time(int(fk.k)); o.state == timedFits && (!found || value(o) < least) {
			least, found = value(o), true
		}
	}
	return least, found
}

// timeBalanced times every option that may be the balanced pick: the
// fastest that costs at most limit (and, on more than 8 GPUs, takes more
// than a day).
func (s *optionSet) timeBalanced(limit float64) {
	s.order()
	least, found := math.Inf(1), false
	for i := 0; ; i++ {
		fk, ok := s.byHours.at(i)
		if !ok || found && fk.floor > least*floorSlack {
			break
		}
		if s.opts[fk.k].floorCost > limit*floorSlack {
			continue
		}
		if o := s.time(int(fk.k)); o.state == timedFits && o.cost <= limit && (o.gpus <= 8 || o.hours > 24) && o.hours < least {
			least, found = o.hours, true
		}
	}
}

// ranked times what the picks need and checks the rest for fit: the timed
// options that fit, in the order they were entered, and how many fit in
// all.
func (s *optionSet) ranked() (feasible []ranked, fit int) {
	cheapest, any := s.cheapest()
	if !any {
		return nil, 0 // every option was timed: none fits
	}
	s.fastest()
	s.timeBalanced(cheapest * 1.5)
	for k := range s.opts {
		o := &s.opts[k]
		if o.state == notTimed {
			h, _ := s.sp.at(int(o.src))
			prec, _ := pickPrecision(s.pc.job, h.GPU)
			o.state = doesNotFit
			if s.pc.fitsAny(h, prec, s.memoFor(int(o.src), prec)) {
				o.state = fitsNotTimed
			}
		}
		switch o.state {
		case timedFits:
			feasible = append(feasible, ranked{src: int(o.src), gpus: int(o.gpus), hours: o.hours, cost: o.cost})
			fit++
		case fitsNotTimed:
			fit++
		}
	}
	return feasible, fit
}

// fitsAny reports whether some layout of h fits, sizing layouts until one
// does (best's notion of fit, without timing).
func (pc *planContext) fitsAny(h Hardware, prec Precision, mc *memoCount) bool {
	if pc.job.Workload == Inference {
		return pc.best(h, prec, false, nil, nil).fits
	}
	if mc.nothingFits(h) {
		return false
	}
	var slots []probeEntry
	if mc != nil {
		slots = mc.layouts[:]
	}
	fits, probeFits := false, false
	pc.eachLayout(h, prec, func(k int, l layout) bool {
		slot := memoSlot(slots, k)
		if slot.tooBig(&l) {
			return true
		}
		s := pc.size(l)
		slot.record(&l, &s)
		if !(s.probeGiB > l.gpu.MemoryGB*usableFraction) {
			probeFits = true
		}
		fits = s.mem.Fits
		return !fits
	})
	if !fits && !probeFits {
		mc.noteNothingFits(h)
	}
	return fits
}
