package commands

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// A request shown in the form and submitted unchanged plans the same job.
func TestFormRoundTrip(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{
		"bert-base 10 epochs of 2.5M samples on h100x2",
		"bert-base vocab 10k seq 512 batch 128 = 4x32 19252 steps/epoch 10 epochs baseline 5.67 h/epoch on 4x v100-32gb fp32 compare on h200x4, a100x4",
		"llama3-8b qlora 3 epochs of 50k samples seq 2048 batch 16 on 4090",
		"70b params inference int4 batch 8 ctx 8k gen 512 on 2x h100",
		"layers 24 hidden 2048 heads 16 vocab 50k pretrain 20B tokens seq 2048 batch 1M tokens on 8x a100 nvlink tuned zero2 ckpt flash",
		"gpt2 1.2B tokens on 2 nodes of 8x h100",
		"gpt2-xl 5000 steps batch 32 on 8x a100 fsdp adam8bit tf32",
	} {
		f, err := FormFromText(cat, text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		back, errs := ValidateForm(cat, f, i18n.For(i18n.EN))
		if errs != nil {
			t.Fatalf("%q → form %+v → %v", text, f, errs)
		}
		a, _ := cat.Plan(mustParse(t, cat, text))
		b, _ := cat.Plan(mustParse(t, cat, back))
		if planSummary(a) != planSummary(b) {
			t.Errorf("%q\n  form text %q\n  plans differ:\n  %s\n  %s", text, back, planSummary(a), planSummary(b))
		}
	}
}

func mustParse(t *testing.T, cat *planner.Catalog, text string) planner.Request {
	t.Helper()
	r, err := lang.ParsePlan(cat, text)
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	r.NoSearch = true
	return r
}

func planSummary(r *planner.Result) string {
	if r == nil {
		return "<nil>"
	}
	var b strings.Builder
	b.WriteString(r.Model.ID + " " + string(r.Job.Workload) + " " + r.Job.Amount)
	for _, e := range r.Plans {
		b.WriteString(" | " + e.GPU + " " + e.Strategy + " " + string(e.Precision))
		b.WriteString(" " + sig(e.Throughput.SamplesPerS))
	}
	return b.String()
}

func TestFormErrorsLandOnTheirField(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, tc := range []struct {
		form  PlanForm
		field string
		want  string
	}{
		{PlanForm{Model: "bert-bse"}, "model", "bert-base"},
		{PlanForm{Model: "bert-base", Hardware: "2x h1000"}, "hardware", "h100"},
		{PlanForm{Model: "bert-base", Amount: "10 bananas"}, "amount", "bananas"},
		{PlanForm{Model: "bert-base", Precision: "bf17"}, "precision", "bf16"},
		{PlanForm{}, "model", "Name a model"},
	} {
		_, errs := ValidateForm(cat, tc.form, i18n.For(i18n.EN))
		if msg, ok := errs[tc.field]; !ok || !strings.Contains(msg, tc.want) {
			t.Errorf("%+v: errors %v, want %s to mention %q", tc.form, errs, tc.field, tc.want)
		}
	}
	// A form opened in Korean complains in Korean, naming the same words.
	_, errs := ValidateForm(cat, PlanForm{}, i18n.For(i18n.KO))
	if msg := errs["model"]; !strings.Contains(msg, "모델") || !strings.Contains(msg, "`bert-base`") {
		t.Errorf("Korean form without a model: %v", errs)
	}
}
