package lang

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Fields is a request restated in the language's canonical words, one
// string per part; each part parses back to what was read.
type Fields struct {
	Model, Workload, Amount, Shape, Precision, Hardware, Options string
}

// Canonical restates a planner request in canonical words.
func Canonical(cat *planner.Catalog, req planner.Request) Fields {
	j := req.Job
	var f Fields
	f.Model = ModelWords(cat, j.Model)
	f.Workload = string(j.Workload)
	f.Amount = AmountWords(j)
	var shape []string
	if j.SeqLen > 0 {
		shape = append(shape, "seq "+strconv.Itoa(j.SeqLen))
	}
	switch {
	case j.GlobalBatch > 0:
		shape = append(shape, "batch "+strconv.Itoa(j.GlobalBatch))
	case j.GlobalBatchTokens > 0:
		shape = append(shape, "batch "+Num(float64(j.GlobalBatchTokens))+" tokens")
	}
	if j.MicroBatch > 0 {
		shape = append(shape, "micro "+strconv.Itoa(j.MicroBatch))
	}
	if j.GenTokens > 0 {
		shape = append(shape, "gen "+strconv.Itoa(j.GenTokens))
	}
	if j.LoRARank > 0 {
		shape = append(shape, "rank "+strconv.Itoa(j.LoRARank))
	}
	f.Shape = strings.Join(shape, " ")
	f.Precision = string(j.Precision)
	var hw []string
	for _, h := range req.Targets {
		hw = append(hw, HardwareWords(h))
	}
	f.Hardware = strings.Join(hw, ", ")
	var opts []string
	if j.Checkpointing {
		opts = append(opts, "ckpt")
	}
	if j.Attention != "" {
		opts = append(opts, string(j.Attention))
	}
	if j.Strategy != "" {
		opts = append(opts, string(j.Strategy))
	}
	if j.Optimizer != "" {
		opts = append(opts, string(j.Optimizer))
	}
	if j.Stack != "" {
		opts = append(opts, string(j.Stack))
	}
	switch j.Offload {
	case planner.OffloadOptimizer:
		opts = append(opts, "offload")
	case planner.OffloadFull:
		opts = append(opts, "offload-params")
	}
	if j.OptimizerInBackward {
		opts = append(opts, "optimizer-in-backward")
	}
	if j.PureBF16 {
		opts = append(opts, "pure-bf16")
	}
	if j.ContextParallel > 1 {
		opts = append(opts, "cp "+strconv.Itoa(j.ContextParallel))
	}
	opts = append(opts, servingWords(j)...)
	if b := req.Baseline; b != nil {
		s := fmt.Sprintf("baseline %s %s on %s", Num(b.Value), b.Unit, HardwareWords(b.Hardware))
		if b.Precision != "" {
			s += " " + string(b.Precision)
		}
		opts = append(opts, s)
	}
	f.Options = strings.Join(opts, " ")
	return f
}

// modelWords names a model the way the parser reads it back.
func ModelWords(cat *planner.Catalog, m planner.Model) string {
	switch m.Origin {
	case "size":
		return Num(m.Params()) + " params"
	case "architecture":
		return archWords(m, planner.Model{})
	case "catalogue+architecture":
		baseID := strings.TrimSuffix(m.ID, " (modified)")
		if base, _, err := cat.Model(baseID); err == nil {
			return baseID + " " + archWords(m, base)
		}
	}
	return m.ID
}

// archWords lists the architecture numbers of m that differ from base.
func archWords(m, base planner.Model) string {
	var w []string
	add := func(key string, v, b int) {
		if v > 0 && v != b {
			w = append(w, key+" "+strconv.Itoa(v))
		}
	}
	add("layers", m.Layers, base.Layers)
	add("hidden", m.Hidden, base.Hidden)
	add("heads", m.Heads, base.Heads)
	if m.KVHeads != m.Heads || base.Layers > 0 {
		add("kv", m.KVHeads, base.KVHeads)
	}
	if m.FFN != 4*m.Hidden || base.Layers > 0 {
		add("ffn", m.FFN, base.FFN)
	}
	add("vocab", m.Vocab, base.Vocab)
	return strings.Join(w, " ")
}

func AmountWords(j planner.Job) string {
	var w []string
	if j.StepsPerEpoch > 0 {
		w = append(w, Num(j.StepsPerEpoch)+" steps/epoch")
	}
	if j.Epochs > 0 {
		e := Num(j.Epochs) + " epochs"
		if j.Epochs == 1 {
			e = "1 epoch"
		}
		switch {
		case j.DatasetSamples > 0:
			e += " of " + Num(j.DatasetSamples) + " samples"
		case j.DatasetTokens > 0:
			e += " of " + Num(j.DatasetTokens) + " tokens"
		}
		w = append(w, e)
	} else {
		switch {
		case j.DatasetSamples > 0:
			w = append(w, "of "+Num(j.DatasetSamples)+" samples")
		case j.DatasetTokens > 0:
			w = append(w, "of "+Num(j.DatasetTokens)+" tokens")
		}
	}
	switch {
	case j.Tokens > 0:
		w = append(w, Num(j.Tokens)+" tokens")
	case j.Samples > 0:
		w = append(w, Num(j.Samples)+" samples")
	case j.Steps > 0:
		w = append(w, Num(j.Steps)+" steps")
	}
	return strings.Join(w, " ")
}

func HardwareWords(h planner.Hardware) string {
	if h.Server != "" {
		return fmt.Sprintf("%dx %s", h.Count, h.Server)
	}
	s := fmt.Sprintf("%dx %s", h.Count, h.GPU.ID)
	if h.GPUsPerNode > 0 && h.Count > h.GPUsPerNode {
		s = fmt.Sprintf("%d nodes of %dx %s", h.Count/h.GPUsPerNode, h.GPUsPerNode, h.GPU.ID)
	}
	if h.Interconnect != "" && !(h.GPUsPerNode > 0 && h.Interconnect == planner.IB) {
		s += " " + string(h.Interconnect)
	}
	return s
}

// num writes a number so the parser reads it back exactly: plain digits up
// to a million, then k/M/B/T with as many decimals as needed.
func Num(v float64) string {
	if v < 1e6 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	for _, s := range []struct {
		div float64
		suf string
	}{{1e12, "T"}, {1e9, "B"}, {1e6, "M"}} {
		if v >= s.div {
			return strconv.FormatFloat(v/s.div, 'f', -1, 64) + s.suf
		}
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// askWords say the question back.
var askWords = map[Ask]string{
	AskFit: "will it fit?", AskTime: "how long?", AskCount: "how many GPUs?", AskWhichGPU: "which GPU?",
	AskWhichServer: "which of our servers?", AskCost: "what does it cost?",
}

// ReadAs restates a reading in canonical words — what was understood, the
// question, and the words skipped — for the "Read as:" line of a plan.
func ReadAs(cat *planner.Catalog, r Reading) string {
	if cat == nil {
		cat = planner.DefaultCatalog()
	}
	f := Canonical(cat, r.Request)
	var parts []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	if r.StandIn {
		add("model not named (" + f.Model + " stands in)")
	} else {
		add(f.Model)
	}
	switch r.WorkloadAssumed {
	case "":
		add(f.Workload)
	case "not said":
		add(string(AssumedWorkload(r.Request.Job)) + " (assumed)")
	default:
		add(f.Workload + " (assumed " + r.WorkloadAssumed + ")")
	}
	amount := f.Amount
	if r.Dataset != "" {
		amount += " (" + r.Dataset + ")"
	}
	add(amount)
	add(f.Shape)
	add(f.Precision)
	add(f.Options)
	if f.Hardware != "" {
		hw := "on " + f.Hardware
		if r.CountOpen {
			hw = "on " + r.Request.Targets[0].GPU.ID + " × ?"
		}
		if r.Request.Compare {
			hw = "compare " + f.Hardware
		}
		add(hw)
	}
	if q := askWords[r.Ask]; q != "" {
		if r.Deadline > 0 {
			q = strings.TrimSuffix(q, "?") + " to finish within " + DurationWords(r.Deadline) + "?"
		}
		add(q)
	} else if r.Deadline > 0 {
		add("finish within " + DurationWords(r.Deadline))
	}
	s := strings.Join(parts, " · ")
	if len(r.Corrected) > 0 {
		s += " (read " + strings.Join(r.Corrected, ", ") + ")"
	}
	if len(r.Skipped) > 0 {
		s += " (skipped: " + strings.Join(r.Skipped, ", ") + ")"
	}
	return s
}

// DurationWords writes a deadline the way people say it: "36 h", "2 days".
func DurationWords(d time.Duration) string {
	h := d.Hours()
	switch {
	case h >= 48:
		return strconv.FormatFloat(float64(int(h/24*10+0.5))/10, 'f', -1, 64) + " days"
	case h >= 1:
		return strconv.FormatFloat(float64(int(h*10+0.5))/10, 'f', -1, 64) + " h"
	default:
		return strconv.Itoa(int(d.Minutes()+0.5)) + " min"
	}
}
