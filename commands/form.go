package commands

import (
	"strings"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
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
	c := lang.Canonical(cat, req)
	return PlanForm{Model: c.Model, Workload: c.Workload, Amount: c.Amount, Shape: c.Shape,
		Precision: c.Precision, Hardware: c.Hardware, Options: c.Options}
}

// ValidateForm parses a submitted form. On a mistake it returns the
// message, in p's language, keyed by the field that holds the offending
// word, so the modal can show it under that field.
func ValidateForm(cat *planner.Catalog, f PlanForm, p *i18n.Printer) (string, map[string]string) {
	if strings.TrimSpace(f.Model) == "" {
		return "", map[string]string{"model": p.T("Name a model: `bert-base`, `llama3-8b`, `7b params` or `layers 24 hidden 2048 heads 16`.")}
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

// ValidateForm checks a submitted form with the set's catalogue; its
// complaints are in l.
func (s *Set) ValidateForm(f PlanForm, l i18n.Lang) (string, map[string]string) {
	return ValidateForm(s.deps.Catalog, f, i18n.For(l))
}
