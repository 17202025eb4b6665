package commands

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// buyCandidates are the GPUs a team buys for its own servers in 2026, a
// desk tier and a server tier, with the most of each one machine of that
// kind takes: a workstation or a GeForce box holds up to four cards, an
// HGX-class server eight, and two servers are as far as a first purchase
// goes. Data-centre parts sold only as racks (GB200 NVL72) and parts past
// their generation are left out.
var buyCandidates = []struct {
	id   string
	most int
}{
	{"rtx-5090", 4},
	{"rtx-pro-6000-blackwell", 4},
	{"l40s", 8},
	{"h100-sxm5-80gb", 16},
	{"h200-sxm-141gb", 16},
	{"b200-hgx", 16},
}

// buyOptions answers "서버 새로 사려는데 뭐 사야돼", "which gpus should we
// buy for …": the fewest of each GPU a team buys that hold the job, side
// by side, at most four (the cheapest to rent first, as a stand-in for
// the price: the catalogue has no purchase prices). The team's servers
// and the cloud are not the question.
func (s *Set) buyOptions(p *i18n.Printer, req planner.Request) (planner.Request, string, error) {
	type option struct {
		hw   planner.Hardware
		e    *planner.Estimate
		cost float64
	}
	var opts []option
	for _, c := range buyCandidates {
		g, _, err := s.deps.Catalog.GPU(c.id)
		if err != nil {
			continue
		}
		for n := 1; n <= c.most; n *= 2 {
			hw := planner.Hardware{GPU: g, Count: n}
			res, err := s.deps.Catalog.Plan(planner.Request{Job: req.Job, Targets: []planner.Hardware{hw}, NoSearch: true})
			if err != nil || len(res.Plans) == 0 || !res.Plans[0].Memory.Fits {
				continue
			}
			opts = append(opts, option{hw, res.Plans[0], g.PriceUSD * float64(n)})
			break
		}
	}
	if len(opts) == 0 {
		return req, p.T("None of the GPUs teams buy holds it within two servers (5090, RTX PRO 6000, L40S, H100, H200, B200): see the recommendations for a cluster, or rent one."), nil
	}
	slices.SortStableFunc(opts, func(a, b option) int { return cmp.Compare(a.cost, b.cost) })
	opts = opts[:min(len(opts), 4)]
	req.Targets, req.Pool = nil, nil
	batch := 0
	for _, o := range opts {
		req.Targets = append(req.Targets, o.hw)
		batch = max(batch, o.e.GlobalBatch)
	}
	req.Compare = len(req.Targets) > 1
	if req.Compare && req.Job.Workload != planner.Inference && req.Job.GlobalBatch == 0 && batch > 0 {
		// side by side the options keep one global batch: the largest any
		// of them picks on its own, so the one with the most GPUs is not
		// held to the smallest one's micro-batches
		req.Job.GlobalBatch = batch
		req.Job.Notes = append(req.Job.Notes, p.Tf("global batch not given: %d, the largest the options pick on their own, kept for all of them; say `batch N`", batch))
	}
	var parts []string
	res, err := s.deps.Catalog.Plan(req)
	if err != nil || len(res.Plans) != len(opts) {
		return req, "", nil // the card says what is wrong
	}
	for _, e := range res.Plans {
		parts = append(parts, fmt.Sprintf("%d× %s (%s)", e.GPUs, e.GPUName, timeText(p, e, res.Job)))
	}
	line := p.Tf("To buy: %s — the fewest of each that hold it, side by side below.", strings.Join(parts, " · "))
	return req, line + " " + p.T("The catalogue has no purchase prices: the cost row is what renting them would cost, to rank them."), nil
}

// togetherAnswer answers two models asked to run at once on the same
// hardware ("llama 3 8b랑 whisper 같이 a100 한장에 올릴 수 있어?"): each
// one's memory at one request (or at the load said), added up against the
// GPU's; each runs in its own process, so each brings its own CUDA
// context, as each figure counts.
func (s *Set) togetherAnswer(p *i18n.Printer, rd lang.Reading, req planner.Request) string {
	hw, ok := s.sideBySideGPU(req)
	if !ok {
		return ""
	}
	sides := append([]lang.Choice{{Label: rd.Variant.Labels[0], Request: req}, {Label: rd.Variant.Labels[1], Request: rd.Variant.Request}}, rd.Variant.Also...)
	var parts []string
	var sum, capGiB float64
	for _, sd := range sides {
		r := sd.Request
		r.Targets, r.NoSearch, r.Pool, r.Compare = []planner.Hardware{hw}, true, nil, false
		leastSized(&r.Job)
		e := s.fixedPlan(r)
		if e == nil {
			return ""
		}
		sum += e.Memory.PerGPUGiB
		capGiB = e.Memory.CapacityGiB
		parts = append(parts, fmt.Sprintf("%s %.0f GiB", sd.Label, e.Memory.PerGPUGiB))
	}
	on := fmt.Sprintf("%d× %s", hw.Count, hw.GPU.Name)
	if sum > capGiB {
		return p.Tf("No — together they need about %.0f GiB per GPU on %s (%s) and it has %.0f.", sum, on, strings.Join(parts, " + "), capGiB)
	}
	return p.Tf("Yes — together they need about %.0f of %.0f GiB per GPU on %s (%s), %.0f GiB left for their KV caches and batches. With vLLM, give each its share with --gpu-memory-utilization, the shares adding up to 0.9 or less.",
		sum, capGiB, on, strings.Join(parts, " + "), capGiB-sum)
}

// needAnswer answers whether a technique said is needed ("can I fine-tune
// llama3 8b on 2x A100 80GB, or do I need ZeRO-3?", "ckpt 켜야 돼?"): the
// job planned without it on the same GPUs, against with it. The card
// plans the one that is needed: without when that fits.
func (s *Set) needAnswer(p *i18n.Printer, rd lang.Reading, req planner.Request) (planner.Request, string, error) {
	without := req
	what := p.T("gradient checkpointing")
	if rd.NeedAsked == "strategy" {
		what = string(req.Job.Strategy)
		without.Job.Strategy = planner.DDP
		if req.Targets[0].Count == 1 {
			without.Job.Strategy = planner.StrategyAuto
		}
	} else {
		without.Job.Checkpointing, without.Job.NoCheckpointing = false, true
	}
	off, on := s.fixedPlan(without), s.fixedPlan(req)
	if off == nil || on == nil {
		return req, "", nil
	}
	hw := hwText(p, on)
	switch {
	case off.Memory.Fits:
		return without, p.Tf("No — it fits without %s on %s: %.0f of %.0f GiB per GPU (with it, %.0f); the card plans it without.",
			what, hw, off.Memory.PerGPUGiB, off.Memory.CapacityGiB, on.Memory.PerGPUGiB), nil
	case on.Memory.Fits:
		return req, p.Tf("Yes — without %s it needs %.0f GiB per GPU on %s, which has %.0f; with it, %.0f.",
			what, off.Memory.PerGPUGiB, hw, off.Memory.CapacityGiB, on.Memory.PerGPUGiB), nil
	}
	return req, p.Tf("Even with %s it needs %.0f of %.0f GiB per GPU on %s; see what to change below.", what, on.Memory.PerGPUGiB, on.Memory.CapacityGiB, hw), nil
}

// fixedPlan plans r on its targets as said, with no search, and returns
// the first estimate; nil when the planner refuses it.
func (s *Set) fixedPlan(r planner.Request) *planner.Estimate {
	r.NoSearch = true
	res, err := s.deps.Catalog.Plan(r)
	if err != nil || len(res.Plans) == 0 {
		return nil
	}
	return res.Plans[0]
}
