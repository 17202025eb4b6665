package commands

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

func gpusCommand() Command {
	return Command{
		Name:     "gpus",
		Usage:    "gpus [filter]",
		Summary:  msg.T("The GPU catalogue: memory, bandwidth, dense TFLOPS, NVLink, TDP, price."),
		Examples: []string{"gpus", "gpus h100"},
		run: func(_ context.Context, s *Set, req Request, args string) (*Reply, error) {
			p := req.printer()
			var shown []planner.GPU
			for _, g := range s.deps.Catalog.GPUs {
				if args != "" && !strings.Contains(g.ID, strings.ToLower(args)) && !strings.Contains(strings.ToLower(g.Name), strings.ToLower(args)) {
					continue
				}
				shown = append(shown, g)
			}
			if len(shown) == 0 {
				return nil, &UserError{Msg: p.Tf("no GPU matches `%s`", truncateRunes(args, echoMax)), Hint: p.T("try `gpus` for all of them")}
			}
			return gpuTable(p, shown), nil
		},
	}
}

// gpuTable is the catalogue's table of the GPUs given.
func gpuTable(p *i18n.Printer, shown []planner.GPU) *Reply {
	// Precisions, NVLink, TDP and $/h read the same in every language.
	t := &Table{Columns: []string{"id", p.T("memory"), p.T("bandwidth"), "bf16/fp16", "fp8", "tf32", "nvlink", "tdp", "$/h"}}
	for _, g := range shown {
		half, _ := g.Peak(planner.BF16)
		if half == 0 {
			half, _ = g.Peak(planner.FP16)
		}
		t.Rows = append(t.Rows, []string{g.ID, fmt.Sprintf("%.0f GB", g.MemoryGB), fmt.Sprintf("%.0f GB/s", g.MemBWGBs),
			tf(half), tf(peak(g, planner.FP8)), tf(peak(g, planner.TF32)), nvl(g), fmt.Sprintf("%.0f W", g.TDPW), fmt.Sprintf("%.2f", g.PriceUSD)})
	}
	return &Reply{
		Title:   p.T("GPU catalogue"),
		Summary: p.Tf("%d GPUs; dense tensor TFLOPS (no 2:4 sparsity)", len(shown)),
		Sections: []Section{
			{Table: t},
			{Kind: Context, Text: p.T("Peaks are dense (datasheet numbers marked * are 2:4-sparse, twice the dense rate). GeForce fp16/bf16 is the fp32-accumulate rate training uses. Prices are defaults: override them in the config.")},
		},
		Data: gpuData(shown),
	}
}

func peak(g planner.GPU, p planner.Precision) float64 { v, _ := g.Peak(p); return v }

func tf(v float64) string {
	if v == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f", v)
}

func nvl(g planner.GPU) string {
	if g.NVLinkGBs == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f GB/s", g.NVLinkGBs)
}

// GPUInfo is the JSON shape of `gpus --json`.
type GPUInfo struct {
	ID          string             `json:"id"`
	Name        string             `json:"name"`
	MemoryGB    float64            `json:"memory_gb"`
	MemBWGBs    float64            `json:"mem_bw_gbs"`
	TFLOPS      map[string]float64 `json:"dense_tflops"`
	NVLinkGBs   float64            `json:"nvlink_gbs_bidir"`
	TDPW        float64            `json:"tdp_w"`
	PriceUSD    float64            `json:"price_usd_per_gpu_hour"`
	PriceSource string             `json:"price_source"`
	Source      string             `json:"source"`
}

func gpuData(gs []planner.GPU) []GPUInfo {
	var out []GPUInfo
	for _, g := range gs {
		tfl := map[string]float64{}
		for _, p := range []planner.Precision{planner.FP32, planner.TF32, planner.FP16, planner.BF16, planner.FP8, planner.INT8} {
			if v, ok := g.Peak(p); ok {
				tfl[string(p)] = v
			}
		}
		out = append(out, GPUInfo{ID: g.ID, Name: g.Name, MemoryGB: g.MemoryGB, MemBWGBs: g.MemBWGBs, TFLOPS: tfl,
			NVLinkGBs: g.NVLinkGBs, TDPW: g.TDPW, PriceUSD: g.PriceUSD, PriceSource: g.PriceSource, Source: g.Source})
	}
	return out
}

func modelsCommand() Command {
	return Command{
		Name:     "models",
		Usage:    "models [filter]",
		Summary:  msg.T("The model catalogue: layers, hidden size, heads, vocabulary, parameters."),
		Examples: []string{"models", "models llama"},
		run: func(_ context.Context, s *Set, req Request, args string) (*Reply, error) {
			p := req.printer()
			t := &Table{Columns: []string{"id", p.T("type"), p.T("params"), p.T("layers"), p.T("hidden"), p.T("heads (kv)"), p.T("vocab"), p.T("context")}}
			var ids []string
			for _, m := range s.deps.Catalog.Models {
				if args != "" && !strings.Contains(m.ID, strings.ToLower(args)) && !strings.Contains(strings.ToLower(m.Family), strings.ToLower(args)) {
					continue
				}
				ids = append(ids, m.ID)
				heads := "—"
				if m.Heads > 0 {
					heads = fmt.Sprintf("%d (%d)", m.Heads, max(m.KVHeads, 0))
				}
				params := paramsText(i18n.For(i18n.EN), m.Params()) // a catalogue listing: the English figures it trims
				if m.ActiveB > 0 {
					params += p.Tf(", %s active", strings.TrimSuffix(paramsText(i18n.For(i18n.EN), m.ActiveParams()), " params"))
				}
				t.Rows = append(t.Rows, []string{m.ID, string(m.Kind), strings.TrimSuffix(params, " params"), dash(m.Layers), dash(m.Hidden), heads, dash(m.Vocab), dash(m.MaxCtx)})
			}
			if len(ids) == 0 {
				return nil, &UserError{Msg: p.Tf("no model matches `%s`", truncateRunes(args, echoMax)),
					Hint: p.T("try `models` for all of them, or give a size (`7b params`) or an architecture (`layers 24 hidden 2048 heads 16`)")}
			}
			return &Reply{
				Title:    p.T("Model catalogue"),
				Summary:  p.Tf("%d models; any other by size (`7b params`) or architecture (`layers 24 hidden 2048 heads 16 vocab 50k`)", len(ids)),
				Sections: []Section{{Table: t}, {Kind: Context, Text: p.T("Names resolve forgivingly: `llama3-8b` = `llama-3-8b`, `bert-base` = `bert-base-uncased`.")}},
				Data:     ids,
			}, nil
		},
	}
}

func dash(v int) string {
	if v <= 0 {
		return "—"
	}
	return fmt.Sprintf("%d", v)
}

func buildCommand() Command {
	return Command{
		Name:     "build",
		Usage:    "build <n>x <gpu>",
		Summary:  msg.T("Size a server for a GPU configuration: power supply, circuits, host memory, CPU and PCIe lanes, P2P, cooling."),
		Examples: []string{"build 4x rtx-4090", "build 8x a100-pcie", "build 2x rtx-a6000"},
		run: func(_ context.Context, s *Set, req Request, args string) (*Reply, error) {
			p := req.printer()
			hw, err := parseHardwareOnly(p, s.deps.Catalog, args)
			if err != nil {
				return nil, err
			}
			// BuildIn writes the sizing's sentences (circuits, platform,
			// P2P, cooling, notes) and its refusal in the reply's language;
			// the JSON's text fields follow it, as --json's "lang" says.
			b, err := s.deps.Catalog.BuildIn(hw, p)
			if err != nil {
				return nil, &UserError{Msg: err.Error(), Hint: p.T("try: `build 4x rtx-4090`")}
			}
			fields := []Field{
				{p.T("Power supply"), p.Tf("%s W (GPUs %s W × %.2f for transients + CPU/board)", thousands(b.PSUWatts), thousands(b.GPUWatts), b.TransientFactor)},
				{p.T("Sustained draw"), fmt.Sprintf("%s W", thousands(b.SystemWatts))},
				{p.T("Mains"), b.Circuits},
				{p.T("Host memory"), p.Tf("%d GB (2× the %.0f GB of GPU memory)", b.HostMemoryGB, b.TotalGPUMemGB)},
				{"CPU", p.Tf("≥ %d cores (4 data-loader workers per GPU)", b.CPUCores)},
				{"PCIe", p.Tf("%d lanes: %s", b.PCIeLanes, b.Platform)},
				{p.T("GPU-to-GPU"), b.PeerToPeer},
			}
			if b.AllReduceGBs > 0 {
				fields = append(fields, Field{"All-reduce", p.Tf("~%.0f GB/s bus bandwidth (%s)", b.AllReduceGBs, b.AllReduceRoute)})
			}
			secs := []Section{{Fields: fields}, {Heading: p.T("Cooling"), Bullets: b.Cooling}}
			if len(b.Notes) > 0 {
				secs = append(secs, Section{Heading: p.T("Notes"), Bullets: b.Notes})
			}
			return &Reply{
				Title:    p.Tf("Server for %d× %s", b.GPUs, b.GPUName),
				Summary:  p.Tf("%d× %s: %s W PSU, %d GB RAM, %d PCIe lanes", b.GPUs, b.GPUName, thousands(b.PSUWatts), b.HostMemoryGB, b.PCIeLanes),
				Sections: secs,
				Data:     b,
			}, nil
		},
	}
}

// parseHardwareOnly reads "4x rtx-4090" (any hardware form plan accepts);
// its refusals are in p's language.
func parseHardwareOnly(p *i18n.Printer, cat *planner.Catalog, args string) (planner.Hardware, error) {
	hint := p.T("try: `build 4x rtx-4090` or `build 8x a100-pcie`")
	if strings.TrimSpace(args) == "" {
		return planner.Hardware{}, &UserError{Msg: p.T("build for which GPUs?"), Hint: hint}
	}
	req, err := lang.ParsePlan(cat, "gpt2 on "+strings.TrimPrefix(strings.TrimSpace(args), "on "))
	if err != nil {
		if ue, ok := err.(*UserError); ok {
			// The reader's own refusal, kept whole so ExplainIn can say
			// it in the reply's language; the hint is build's.
			ue.Hint = hint
			return planner.Hardware{}, ue
		}
		return planner.Hardware{}, err
	}
	if len(req.Targets) != 1 {
		return planner.Hardware{}, &UserError{Msg: p.T("build one configuration at a time"), Hint: hint}
	}
	return req.Targets[0], nil
}

func backtestCommand() Command {
	return Command{
		Name:     "backtest",
		Usage:    "backtest",
		Summary:  msg.T("Run every published measurement the planner can express and show its error (median and worst)."),
		Examples: []string{"backtest"},
		run: func(_ context.Context, s *Set, req Request, _ string) (*Reply, error) {
			p := req.printer()
			bt, err := RunBackTest(s.deps.Catalog)
			if err != nil {
				return nil, err
			}
			// The rows' metrics, notes and reasons are the measurement
			// file's words, shown as published.
			t := &Table{Columns: []string{"id", p.T("metric"), p.T("measured"), p.T("predicted"), p.T("error"), p.T("what")}}
			for _, r := range bt.Rows {
				t.Rows = append(t.Rows, []string{r.ID, r.Metric, sig(r.Measured), sig(r.Predicted), fmt.Sprintf("%+.0f%%", r.Error*100), r.Note})
			}
			st := bt.Stats
			var skipped []string
			for _, sk := range bt.Skipped {
				skipped = append(skipped, sk.ID+": "+sk.Reason)
			}
			sections := []Section{{Table: t}}
			if l := bt.LOSO; l != nil {
				sections = append(sections, Section{Heading: p.T("Fitted vs held out"), Bullets: []string{
					p.Tf("in-sample (constants fitted to all %d rows): median %.1f%%, p90 %.0f%%, worst %.2fx (%s)",
						l.InSample.N, l.InSample.Median*100, l.InSample.P90*100, l.InSample.WorstRatio, l.InSample.WorstID),
					p.Tf("leave-one-source-out (each of %d publishers predicted by constants fitted without its rows): median %.1f%%, p90 %.0f%%, worst %.2fx (%s)",
						l.Publishers, l.LOSO.Median*100, l.LOSO.P90*100, l.LOSO.WorstRatio, l.LOSO.WorstID),
				}})
			}
			if h := bt.HeldOut; h != nil && h.Stats.N > 0 {
				ht := &Table{Columns: []string{"id", p.T("metric"), p.T("measured"), p.T("predicted"), p.T("error"), p.T("request")}}
				for _, r := range h.Rows {
					ht.Rows = append(ht.Rows, []string{r.ID, r.Metric, sig(r.Measured), sig(r.Predicted), fmt.Sprintf("%+.0f%%", r.Error*100), r.Request})
				}
				sections = append(sections, Section{Heading: p.T("Never fitted (planner/data/heldout.csv)"), Table: ht, Bullets: []string{
					p.Tf("%d rows from %d publishers, collected after the fit: median %.1f%%, p90 %.0f%%, worst %.2fx (%s)",
						h.Stats.N, h.Publishers, h.Stats.Median*100, h.Stats.P90*100, h.Stats.WorstRatio, h.Stats.WorstID)}})
			}
			if f := bt.FitClaims; f != nil && len(f.Rows) > 0 {
				sections = append(sections, fitClaimSection(p, f))
			}
			if l := bt.LOSO; l != nil {
				pt := &Table{Columns: []string{p.T("publisher"), p.T("rows"), p.T("in-sample median"), p.T("held-out median"), p.T("held-out worst")}}
				for _, p := range l.ByPublisher() {
					pt.Rows = append(pt.Rows, []string{p.Publisher, fmt.Sprint(p.LOSO.N), fmt.Sprintf("%.1f%%", p.InSample.Median*100),
						fmt.Sprintf("%.1f%%", p.LOSO.Median*100), fmt.Sprintf("%.2fx (%s)", p.LOSO.WorstRatio, p.LOSO.WorstID)})
				}
				sections = append(sections, Section{Heading: p.T("Each publisher held out"), Table: pt})
			}
			if len(bt.Stale) > 0 {
				sections = append(sections, Section{Heading: p.T("Stale fit data"), Kind: Context, Bullets: []string{
					p.Tf("these rows parse differently from planner/data/backtest-cases.jsonl, which the fit replays: run `go generate ./planner` (%s)",
						strings.Join(bt.Stale, ", "))}})
			}
			sections = append(sections, Section{Heading: p.T("Not expressible"), Kind: Context, Bullets: skipped})
			summary := p.Tf("%d rows: median error %.1f%%, p90 %.0f%%, worst %.0f%% (%s, %.2fx)",
				st.N, st.Median*100, st.P90*100, st.Worst*100, st.WorstID, st.WorstRatio)
			if l := bt.LOSO; l != nil {
				summary += p.Tf("; leave-one-source-out median %.1f%%, p90 %.0f%%, worst %.2fx", l.LOSO.Median*100, l.LOSO.P90*100, l.LOSO.WorstRatio)
			}
			if h := bt.HeldOut; h != nil && h.Stats.N > 0 {
				summary += p.Tf("; never fitted median %.1f%%", h.Stats.Median*100)
			}
			if f := bt.FitClaims; f != nil && len(f.Rows) > 0 {
				summary += p.Tf("; %d of %d published fit claims agree", f.Agree, len(f.Rows))
			}
			return &Reply{
				Title:    p.T("Back-test against published measurements"),
				Summary:  summary,
				Sections: sections,
				Data:     bt,
			}, nil
		},
	}
}

// BackTestResult is the outcome of RunBackTest.
type BackTestResult struct {
	Rows    []BackTestOutcome  `json:"rows"`
	Stats   planner.ErrorStats `json:"stats"`
	Skipped []planner.SkippedRow
	// LOSO is the leave-one-source-out result stored by `go generate
	// ./planner` (the planner's tests check it is reproduced).
	LOSO *planner.LOSOSummary `json:"loso,omitempty"`
	// Stale lists rows whose parse no longer matches the parsed form the
	// fit replays.
	Stale []string `json:"stale,omitempty"`
	// HeldOut is the planner on measurements the fit never saw.
	HeldOut *HeldOutResult `json:"held_out,omitempty"`
	// FitClaims is the planner's memory verdict against published
	// claims that a job fits, or does not, on the GPUs named.
	FitClaims *FitClaimResult `json:"fit_claims,omitempty"`
}

// BackTestOutcome is one row's prediction.
type BackTestOutcome struct {
	ID        string  `json:"id"`
	Request   string  `json:"request"`
	Metric    string  `json:"metric"`
	Measured  float64 `json:"measured"`
	Predicted float64 `json:"predicted"`
	Error     float64 `json:"error"` // predicted/measured - 1
	Note      string  `json:"note"`
	// HostBound marks a prediction the host's kernel issue sets, not
	// the GPU (planner.Estimate.HostBound).
	HostBound bool `json:"host_bound,omitempty"`
}

// RunBackTest parses every back-test request with the same grammar users
// type, plans it on its named hardware, and compares the metric.
func RunBackTest(cat *planner.Catalog) (*BackTestResult, error) {
	rows, skipped, err := planner.BackTestRows()
	if err != nil {
		return nil, err
	}
	out := &BackTestResult{Skipped: skipped}
	var ids []string
	var pred, meas []float64
	for _, r := range rows {
		o, req, err := predictRow(cat, r)
		if err != nil {
			return nil, fmt.Errorf("back-test %s: %w", r.ID, err)
		}
		if enc, err := planner.EncodeBackTestCase(r, req); err == nil {
			if stored, ok := planner.StoredBackTestCase(r.ID); !ok || !bytes.Equal(enc, stored) {
				out.Stale = append(out.Stale, r.ID)
			}
		}
		out.Rows = append(out.Rows, o)
		ids = append(ids, r.ID)
		pred = append(pred, o.Predicted)
		meas = append(meas, r.Measured)
	}
	out.Stats = planner.Summarise(ids, pred, meas)
	if l, err := planner.StoredLOSO(); err == nil && len(l.Rows) > 0 {
		out.LOSO = l
	}
	held, err := planner.HeldOutRows()
	if err != nil {
		return nil, err
	}
	ho := &HeldOutResult{}
	ids, pred, meas = nil, nil, nil
	pubs := map[string]bool{}
	for _, r := range held {
		o, _, err := predictRow(cat, r)
		if err != nil {
			return nil, fmt.Errorf("held-out %s: %w", r.ID, err)
		}
		ho.Rows = append(ho.Rows, o)
		ids = append(ids, r.ID)
		pred = append(pred, o.Predicted)
		meas = append(meas, r.Measured)
		pubs[r.Publisher] = true
	}
	ho.Stats = planner.Summarise(ids, pred, meas)
	ho.Publishers = len(pubs)
	out.HeldOut = ho
	if out.FitClaims, err = checkFitClaims(cat); err != nil {
		return nil, err
	}
	return out, nil
}

// fitClaimSection lists the claims the plan disagrees with, and the count
// that agree on each side.
func fitClaimSection(p *i18n.Printer, f *FitClaimResult) Section {
	t := &Table{Columns: []string{"id", p.T("claimed"), p.T("planned"), p.T("GiB per GPU"), p.T("request")}}
	var yes, yesAgree, no, noAgree int
	verdict := func(fits bool) string {
		if fits {
			return p.T("fits")
		}
		return p.T("does not fit")
	}
	for _, r := range f.Rows {
		if r.Claimed {
			yes++
		} else {
			no++
		}
		if r.Claimed == r.Planned {
			if r.Claimed {
				yesAgree++
			} else {
				noAgree++
			}
			continue
		}
		t.Rows = append(t.Rows, []string{r.ID, verdict(r.Claimed), verdict(r.Planned), fmt.Sprintf("%.1f / %.1f", r.PerGPUGiB, r.CapacityGiB), r.Request})
	}
	return Section{Heading: p.T("Published fit claims (planner/data/fitclaims.csv)"), Table: t, Bullets: []string{
		p.Tf("%d of %d claims from %d publishers agree with the plan: %d of %d that a job fits, %d of %d that it does not; the table lists the others",
			f.Agree, len(f.Rows), f.Publishers, yesAgree, yes, noAgree, no)}}
}

// FitClaimResult is the planner against planner/data/fitclaims.csv.
type FitClaimResult struct {
	Rows       []FitClaimOutcome `json:"rows"`
	Agree      int               `json:"agree"`
	Publishers int               `json:"publishers"`
}

// FitClaimOutcome is one claim and the plan's verdict on the same job.
type FitClaimOutcome struct {
	ID          string  `json:"id"`
	Request     string  `json:"request"`
	Claimed     bool    `json:"claimed"`
	Planned     bool    `json:"planned"`
	PerGPUGiB   float64 `json:"per_gpu_gib"`
	CapacityGiB float64 `json:"capacity_gib"`
}

// checkFitClaims plans each claim's job on its hardware, the layout
// searched as for any plan there, and compares the memory verdict.
func checkFitClaims(cat *planner.Catalog) (*FitClaimResult, error) {
	claims, err := planner.FitClaims()
	if err != nil {
		return nil, err
	}
	out := &FitClaimResult{}
	pubs := map[string]bool{}
	for _, c := range claims {
		req, err := lang.ParsePlan(cat, c.Request)
		if err != nil {
			return nil, fmt.Errorf("fit claim %s %q: %w", c.ID, c.Request, err)
		}
		req.NoSearch = true
		res, err := cat.Plan(req)
		if err != nil {
			return nil, fmt.Errorf("fit claim %s: %w", c.ID, err)
		}
		if len(res.Plans) != 1 {
			return nil, fmt.Errorf("fit claim %s: the request must name exactly one hardware target", c.ID)
		}
		e := res.Plans[0]
		o := FitClaimOutcome{ID: c.ID, Request: c.Request, Claimed: c.Fits, Planned: e.Memory.Fits,
			PerGPUGiB: e.Memory.PerGPUGiB, CapacityGiB: e.Memory.CapacityGiB}
		if o.Claimed == o.Planned {
			out.Agree++
		}
		out.Rows = append(out.Rows, o)
		pubs[c.Publisher] = true
	}
	out.Publishers = len(pubs)
	return out, nil
}

// predictRow parses one measurement's request with the language users
// type, plans it on its one hardware target and reads the metric off the
// estimate.
func predictRow(cat *planner.Catalog, r planner.BackTestRow) (BackTestOutcome, planner.Request, error) {
	req, err := lang.ParsePlan(cat, r.Request)
	if err != nil {
		return BackTestOutcome{}, req, fmt.Errorf("%q: %w", r.Request, err)
	}
	req.NoSearch = true
	res, err := cat.Plan(req)
	if err != nil {
		return BackTestOutcome{}, req, err
	}
	if len(res.Plans) != 1 {
		return BackTestOutcome{}, req, fmt.Errorf("request must name exactly one hardware target")
	}
	v, err := planner.Metric(res.Plans[0], r.Metric)
	if err != nil {
		return BackTestOutcome{}, req, err
	}
	if v <= 0 || math.IsNaN(v) {
		return BackTestOutcome{}, req, fmt.Errorf("predicted %v", v)
	}
	return BackTestOutcome{ID: r.ID, Request: r.Request, Metric: r.Metric, Measured: r.Measured,
		Predicted: v, Error: v/r.Measured - 1, Note: r.Note, HostBound: res.Plans[0].HostBound}, req, nil
}

// HeldOutResult is the planner against planner/data/heldout.csv: published
// measurements collected after the fit, which no constant has seen.
type HeldOutResult struct {
	Rows       []BackTestOutcome  `json:"rows"`
	Stats      planner.ErrorStats `json:"stats"`
	Publishers int                `json:"publishers"`
}

func helpCommand() Command {
	return Command{
		Name:     "help",
		Usage:    "help [command]",
		Summary:  msg.T("Show the commands, or one command's words and examples."),
		Examples: []string{"help", "help plan"},
		run: func(_ context.Context, s *Set, req Request, args string) (*Reply, error) {
			p := req.printer()
			if args == "" {
				return s.help(p, ""), nil
			}
			name := strings.ToLower(strings.Fields(args)[0])
			if _, ok := s.index[name]; !ok {
				if sug := planner.Nearest(name, s.names(), 1); len(sug) > 0 {
					return nil, &UserError{Msg: p.Tf("no command `%s` — did you mean `%s`?", truncateRunes(name, echoMax), sug[0]), Hint: p.T("`help` lists the commands")}
				}
				return nil, &UserError{Msg: p.Tf("no command `%s`", truncateRunes(name, echoMax)), Hint: p.T("`help` lists the commands")}
			}
			return s.help(p, name), nil
		},
	}
}

// help renders the command list, or one command, from the table, in p's
// language (the summaries; usage, grammar and examples are what is typed).
func (s *Set) help(p *i18n.Printer, name string) *Reply {
	if name == "" {
		t := &Table{Columns: []string{p.T("command"), p.T("what it does")}}
		for _, c := range s.cmds {
			t.Rows = append(t.Rows, []string{c.Usage, tr(p, c.Summary)})
		}
		return &Reply{
			Title:   p.T("gpuplan — GPU plans for your team"),
			Summary: p.Tf("Commands: %s. A request without a command is a plan.", strings.Join(s.cmdNames(), ", ")),
			Sections: []Section{
				{Text: p.T("Ask in plain words: `bert-base 10 epochs of 2.5M samples on h100x2`. A request without a command word is a `plan`.")},
				{Table: t},
				{Kind: Context, Text: p.T("`help <command>` shows its words and examples.")},
			},
		}
	}
	c := s.index[name]
	secs := []Section{{Text: tr(p, c.Summary)}, {Heading: p.T("Usage"), Text: "`" + c.Usage + "`"}}
	if len(c.Grammar) > 0 {
		secs = append(secs, Section{Heading: p.T("Words it understands"), Bullets: c.Grammar})
	}
	var ex []string
	for _, e := range c.Examples {
		ex = append(ex, "`"+e+"`")
	}
	secs = append(secs, Section{Heading: p.T("Examples"), Bullets: ex})
	if len(c.Aliases) > 0 {
		secs = append(secs, Section{Kind: Context, Text: p.T("Also:") + " " + strings.Join(c.Aliases, ", ")})
	}
	return &Reply{Title: p.Tf("help: %s", c.Name), Summary: c.Usage + " — " + tr(p, c.Summary), Sections: secs}
}

func (s *Set) cmdNames() []string {
	var out []string
	for _, c := range s.cmds {
		out = append(out, c.Name)
	}
	sort.Strings(out)
	return out
}

// CommandListMarkdown is the README's command list: the command table as
// markdown, with the plan grammar, so the README cannot drift from help.
func CommandListMarkdown(s *Set) string {
	var b strings.Builder
	b.WriteString("| command | what it does | example |\n|---|---|---|\n")
	// A | inside a cell, even in a code span, ends the cell in GitHub's
	// tables; escaped, it shows as |.
	cell := strings.NewReplacer("|", "\\|").Replace
	for _, c := range s.cmds {
		fmt.Fprintf(&b, "| `%s` | %s | `%s` |\n", cell(c.Usage), cell(c.Summary), cell(c.Examples[0]))
	}
	for _, c := range s.cmds {
		if len(c.Grammar) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\nWords `%s` understands (any order where unambiguous):\n\n", c.Name)
		for _, g := range c.Grammar {
			b.WriteString("- " + g + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// echoMax is how much of what the user typed an error message repeats: a
// long paste is shown by its start, not sent back whole.
const echoMax = 60
