package commands

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/planner"
)

// PlanForm is a plan request split into the fields of the Adjust modal.
// Each field holds request-language words, so a form and a typed request
// are interchangeable.
type PlanForm struct {
	Model     string // "llama-3-8b", "7b params", "layers 24 hidden 2048 heads 16"
	Workload  string // "lora"
	Amount    string // "3 epochs of 50k samples"
	Shape     string // "seq 2048 batch 64 micro 4"
	Precision string // "bf16"
	Hardware  string // "2x h100-sxm5-80gb" or "4x h200-sxm-141gb, 4x a100-sxm4-80gb" (compared)
	Options   string // "ckpt zero2 tuned baseline 5.67 h/epoch on 4x v100-sxm2-32gb fp32"
}

// FormFields names the fields in modal order; the names are the modal's
// block ids.
var FormFields = []string{"model", "workload", "amount", "shape", "precision", "hardware", "options"}

// Get returns a field by name.
func (f PlanForm) Get(name string) string {
	switch name {
	case "model":
		return f.Model
	case "workload":
		return f.Workload
	case "amount":
		return f.Amount
	case "shape":
		return f.Shape
	case "precision":
		return f.Precision
	case "hardware":
		return f.Hardware
	case "options":
		return f.Options
	}
	return ""
}

// Set sets a field by name.
func (f *PlanForm) Set(name, v string) {
	v = strings.TrimSpace(v)
	switch name {
	case "model":
		f.Model = v
	case "workload":
		f.Workload = v
	case "amount":
		f.Amount = v
	case "shape":
		f.Shape = v
	case "precision":
		f.Precision = v
	case "hardware":
		f.Hardware = v
	case "options":
		f.Options = v
	}
}

// Text joins the fields into one request.
func (f PlanForm) Text() string {
	var parts []string
	for _, name := range FormFields {
		v := f.Get(name)
		if v == "" {
			continue
		}
		if name == "hardware" {
			v = strings.TrimPrefix(strings.TrimPrefix(v, "compare "), "on ")
			if strings.Contains(v, ",") {
				v = "compare on " + v
			} else {
				v = "on " + v
			}
		}
		parts = append(parts, v)
	}
	return strings.Join(parts, " ")
}

// FormFromText parses a request and writes it back as form fields in
// canonical words (catalogue ids, plain numbers), so the modal shows what
// the planner understood.
func FormFromText(cat *planner.Catalog, text string) (PlanForm, error) {
	req, err := lang.ParsePlan(cat, text)
	if err != nil {
		return PlanForm{}, err
	}
	return formFromRequest(cat, req), nil
}

func formFromRequest(cat *planner.Catalog, req planner.Request) PlanForm {
	j := req.Job
	var f PlanForm
	f.Model = modelWords(cat, j.Model)
	f.Workload = string(j.Workload)
	f.Amount = amountWords(j)
	var shape []string
	if j.SeqLen > 0 {
		shape = append(shape, "seq "+strconv.Itoa(j.SeqLen))
	}
	switch {
	case j.GlobalBatch > 0:
		shape = append(shape, "batch "+strconv.Itoa(j.GlobalBatch))
	case j.GlobalBatchTokens > 0:
		shape = append(shape, "batch "+num(float64(j.GlobalBatchTokens))+" tokens")
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
		hw = append(hw, hardwareWords(h))
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
	if b := req.Baseline; b != nil {
		s := fmt.Sprintf("baseline %s %s on %s", num(b.Value), b.Unit, hardwareWords(b.Hardware))
		if b.Precision != "" {
			s += " " + string(b.Precision)
		}
		opts = append(opts, s)
	}
	f.Options = strings.Join(opts, " ")
	return f
}

// modelWords names a model the way the parser reads it back.
func modelWords(cat *planner.Catalog, m planner.Model) string {
	switch m.Origin {
	case "size":
		return num(m.Params()) + " params"
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

func amountWords(j planner.Job) string {
	var w []string
	if j.StepsPerEpoch > 0 {
		w = append(w, num(j.StepsPerEpoch)+" steps/epoch")
	}
	if j.Epochs > 0 {
		e := num(j.Epochs) + " epochs"
		switch {
		case j.DatasetSamples > 0:
			e += " of " + num(j.DatasetSamples) + " samples"
		case j.DatasetTokens > 0:
			e += " of " + num(j.DatasetTokens) + " tokens"
		}
		w = append(w, e)
	} else {
		switch {
		case j.DatasetSamples > 0:
			w = append(w, "of "+num(j.DatasetSamples)+" samples")
		case j.DatasetTokens > 0:
			w = append(w, "of "+num(j.DatasetTokens)+" tokens")
		}
	}
	switch {
	case j.Tokens > 0:
		w = append(w, num(j.Tokens)+" tokens")
	case j.Samples > 0:
		w = append(w, num(j.Samples)+" samples")
	case j.Steps > 0:
		w = append(w, num(j.Steps)+" steps")
	}
	return strings.Join(w, " ")
}

func hardwareWords(h planner.Hardware) string {
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
func num(v float64) string {
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

// ValidateForm parses a submitted form. On a mistake it returns the
// message keyed by the field that holds the offending word, so the modal
// can show it under that field.
func ValidateForm(cat *planner.Catalog, f PlanForm) (string, map[string]string) {
	if strings.TrimSpace(f.Model) == "" {
		return "", map[string]string{"model": "Name a model: `bert-base`, `llama3-8b`, `7b params` or `layers 24 hidden 2048 heads 16`."}
	}
	text := f.Text()
	req, err := lang.ParsePlan(cat, text)
	if err == nil {
		_, err = cat.Plan(planner.Request{Job: req.Job, Targets: req.Targets, Baseline: req.Baseline, NoSearch: true})
		if err != nil && !planner.IsPlannerError(err) {
			return text, nil // internal trouble is not the user's field; the run reports it
		}
	}
	if err == nil {
		return text, nil
	}
	msg := err.Error()
	if ue, ok := err.(*UserError); ok {
		msg = ue.Msg
	}
	return text, map[string]string{fieldOf(f, msg): truncateRunes(msg, 150)}
}

// fieldOf finds the field whose words the error names in backticks.
func fieldOf(f PlanForm, msg string) string {
	for _, w := range quoted(msg) {
		lw := strings.ToLower(w)
		for _, name := range FormFields {
			if v := strings.ToLower(f.Get(name)); v != "" && strings.Contains(v, lw) {
				return name
			}
		}
	}
	return "model"
}

func quoted(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			return out
		}
		out = append(out, s[i+1:i+1+j])
		s = s[i+2+j:]
	}
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Form reads a request into form fields with the set's catalogue.
func (s *Set) Form(text string) (PlanForm, error) { return FormFromText(s.deps.Catalog, text) }

// ValidateForm checks a submitted form with the set's catalogue.
func (s *Set) ValidateForm(f PlanForm) (string, map[string]string) {
	return ValidateForm(s.deps.Catalog, f)
}
