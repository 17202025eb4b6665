package planner

import (
	"strings"
	"testing"
)

// A model served in 16 bits that does not fit is first offered 8-bit
// weights — FP8 where the GPU has FP8 tensor cores, int8 where it has
// not — before 4-bit ones: Llama 3.1 405B in FP8 serves on 8× H100.
func TestOOMAdviceOffersEightBitFirst(t *testing.T) {
	c := DefaultCatalog()
	job := Job{Model: mustModel(t, c, "llama-3.1-405b"), Workload: Inference, Precision: BF16, SeqLen: 2048, GlobalBatch: 1}
	for _, tc := range []struct {
		gpu, want string
	}{{"h100", "FP8 weights"}, {"a100", "8-bit weights (`int8`"}} {
		res := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, tc.gpu, 8)}, Job: job})
		var text []string
		for _, a := range res.Advice {
			text = append(text, a.Text)
		}
		all := strings.Join(text, "\n")
		i8, i4 := strings.Index(all, tc.want), strings.Index(all, "4-bit weights")
		if i8 < 0 || i4 < 0 || i8 > i4 {
			t.Errorf("%s: want %q offered before 4-bit in:\n%s", tc.gpu, tc.want, all)
		}
	}
}

// A pre-training plan with no batch named steps ~0.5M tokens even when
// its first target would fit only two sequences, so the options beside
// it split the batch across their GPUs rather than the model (probe 42:
// 8× H100 showed TP4 at 20.9 days in the options and 11.8 days in the
// team's table of the same answer).
func TestPretrainBatchNotSetByASmallTarget(t *testing.T) {
	c := DefaultCatalog()
	m, err := ModelFromParams(7e9)
	if err != nil {
		t.Fatal(err)
	}
	res := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "a100-sxm4-80gb", 2)}, Job: Job{Model: m, Workload: Pretrain, Tokens: 100e9}})
	if got := res.Job.GlobalBatch; got*2048 < 400e3 {
		t.Errorf("global batch %d sequences of 2048: want ~0.5M tokens", got)
	}
}

// A launch line serves the repository the asker named when a catalogue
// model stands in for it (probe 42 served Mistral-7B-Instruct-v0.1 for a
// request for v0.3).
func TestLaunchServesTheRepoAsked(t *testing.T) {
	c := DefaultCatalog()
	j := Job{Model: mustModel(t, c, "mistral-7b-v0.1"), Workload: Inference, Repo: "mistralai/Mistral-7B-Instruct-v0.3", Instruct: true}
	if got := launchRepo(j); got != "mistralai/Mistral-7B-Instruct-v0.3" {
		t.Errorf("launch repo %q", got)
	}
	j.Repo = ""
	if got := launchRepo(j); got == "mistralai/Mistral-7B-Instruct-v0.3" {
		t.Errorf("without a repo named: %q", got)
	}
}

// A launch line never serves a stranger's copy that a catalogue row's
// source cites (probe 46 served shilinxu/Qwen2-VL-7B-ViT): the
// publisher's repository, or <model>.
func TestLaunchRepoIsThePublishers(t *testing.T) {
	c := DefaultCatalog()
	for _, m := range c.Models {
		r := repoID(m)
		if org, _, ok := strings.Cut(r, "/"); ok && !publisherOrgs[org] {
			t.Errorf("%s launches %s", m.ID, r)
		}
	}
	if got := repoID(mustModel(t, c, "qwen2.5-7b")); !strings.HasPrefix(got, "Qwen/") {
		t.Errorf("qwen2.5-7b launches %s", got)
	}
}
