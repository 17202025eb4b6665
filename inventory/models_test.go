package inventory

import (
	"math"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/planner"
)

// The team's own models: a name, a catalogue base and what the team
// changed; the parameters follow the vocabulary. A plan request names
// them like a catalogue model. Bad entries are refused with their line.
func TestTeamModels(t *testing.T) {
	cat := planner.DefaultCatalog()
	const file = "servers:\n  - name: server-v\n    gpu: v100\n    gpus: 4\nmodels:\n  LogBERT: {base: bert-base-uncased, vocab: 10000, seq: 512}\n"
	inv, err := Parse(cat, []byte(file), "")
	if err != nil {
		t.Fatal(err)
	}
	m, ok := inv.Models["logbert"]
	base, _, _ := cat.Model("bert-base-uncased")
	want := base.Params() - float64(base.Hidden)*float64(base.Vocab-10000)
	if !ok || m.Vocab != 10000 || m.MaxCtx != 512 || math.Abs(m.Params()/want-1) > 0.01 {
		t.Fatalf("logbert: %+v (ok %v), want BERT-base with 10k words, %.1fM params", m, ok, want/1e6)
	}
	env := lang.Env{Catalog: cat, Models: inv.Models}
	for _, srv := range inv.Servers {
		env.Servers = append(env.Servers, srv.Hardware())
	}
	r, err := lang.Read(env, "logbert 10 에폭 245만개 server-v 4장 배치 32씩")
	if err != nil || r.Request.Job.Model.ID != "logbert" || r.Request.Job.MicroBatch != 32 {
		t.Errorf("a request naming logbert: %v, model %q, micro %d", err, r.Request.Job.Model.ID, r.Request.Job.MicroBatch)
	}
	for name, tc := range map[string]struct{ file, want string }{
		"unknown base":   {"servers: [{name: a, gpu: a100, gpus: 1}]\nmodels:\n  mybert: {base: bert-huge}\n", "base"},
		"no base":        {"servers: [{name: a, gpu: a100, gpus: 1}]\nmodels:\n  mybert: {vocab: 100}\n", "give its base"},
		"catalogue name": {"servers: [{name: a, gpu: a100, gpus: 1}]\nmodels:\n  gpt2: {base: gpt2}\n", "already a catalogue model"},
		"not a mapping":  {"servers: [{name: a, gpu: a100, gpus: 1}]\nmodels: [logbert]\n", "models must map"},
	} {
		if _, err := Parse(cat, []byte(tc.file), ""); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error about %q", name, err, tc.want)
		}
	}
	if d := Default(cat); d.Models["logbert"].Vocab != 10000 {
		t.Errorf("the example inventory's LogBERT: %+v", d.Models["logbert"])
	}
}
