package lang

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// A weight-only format with nothing about training is a question about
// running the model; a training word or an amount of work keeps it
// training (QLoRA on a 4-bit base). Either way the Read as line says the
// workload, marked as assumed.
func TestWeightOnlyMeansInference(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, tc := range []struct {
		in       string
		workload planner.Workload // as planned
		prec     planner.Precision
		readAs   string // in the Read as line
	}{
		{"will llama3 8b int4 fit on a t4?", planner.Inference, planner.INT4, "inference (assumed from int4"},
		{"qwen2.5 72b int4 on 2 a6000s?", planner.Inference, planner.INT4, "inference (assumed from int4"},
		{"llama3 8b q4_k_m on a t4", planner.Inference, planner.INT4, "inference (assumed from int4"},
		{"mistral 7b awq on a t4", planner.Inference, planner.INT4, "inference (assumed"},
		{"llama3 8b gptq on a t4", planner.Inference, planner.INT4, "inference (assumed"},
		{"llama3 8b gguf on a 4090", planner.Inference, planner.INT4, "inference (assumed"},
		{"llama3 8b q8_0 gguf on a 4090", planner.Inference, planner.INT8, "inference (assumed from int8"},
		{"llama3 8b 8bit on a t4", planner.Inference, planner.INT8, "inference (assumed from int8"},
		{"llama 3 8b 4비트로 t4에서 돌릴 수 있어?", planner.Inference, planner.INT4, "inference (assumed"},
		// said: no mark
		{"serve llama3 8b int4 on a t4", planner.Inference, planner.INT4, "llama-3-8b · inference · int4"},
		// training said, by a word or by the work
		{"train llama3 8b int4 on a t4", planner.QLoRA, planner.INT4, "qlora (assumed)"},
		{"llama3 8b 4bit로 학습하면 t4 한 장으로 될까?", planner.QLoRA, planner.INT4, "qlora (assumed)"},
		{"llama3 8b int4 3 epochs of 10k samples on a t4", planner.QLoRA, planner.INT4, "qlora (assumed)"},
		{"llama3 8b int4 rank 16 on a t4", planner.QLoRA, planner.INT4, "qlora (assumed)"},
		{"llama3 8b qlora int4 on a t4", planner.QLoRA, planner.INT4, "· qlora ·"},
		// no precision: the planner's default, shown
		{"bert-base 10 epochs on h100x2", planner.Finetune, "", "bert-base-uncased · finetune (assumed) · 10 epochs"},
		{"7b params 1B tokens on 8x h100", planner.Pretrain, "", "pretrain (assumed)"},
	} {
		r, err := Read(Env{Catalog: cat}, tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := effectiveWorkload(cat, r.Request); got != tc.workload {
			t.Errorf("%q: planned as %s, want %s", tc.in, got, tc.workload)
		}
		if r.Request.Job.Precision != tc.prec {
			t.Errorf("%q: precision %q, want %q", tc.in, r.Request.Job.Precision, tc.prec)
		}
		if ra := ReadAs(cat, r); !strings.Contains(ra, tc.readAs) {
			t.Errorf("%q: read as %q, want it to contain %q", tc.in, ra, tc.readAs)
		}
	}
}

// The workload the Read as line shows as assumed is the one the planner
// plans, for every request of the phrasebooks that names none.
func TestAssumedWorkloadIsThePlanners(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)}
	n := 0
	for _, path := range []string{"testdata/phrasebook.jsonl", "testdata/english.jsonl", "testdata/holdout.jsonl",
		"testdata/holdout2.jsonl", "testdata/holdout3.jsonl", "testdata/holdout4.jsonl", "testdata/holdout5.jsonl",
		"testdata/holdout6.jsonl", "testdata/holdout7.jsonl",
		"testdata/holdout8.jsonl"} {
		for _, p := range loadPhrases(t, path) {
			r, err := Read(env, p.Text)
			if err != nil || r.WorkloadAssumed != "not said" {
				continue
			}
			n++
			if got, want := AssumedWorkload(r.Request.Job), effectiveWorkload(cat, r.Request); want != "" && got != want {
				t.Errorf("%q: Read as says %s (assumed), the planner plans %s", p.Text, got, want)
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d requests without a workload were checked", n)
	}
}
