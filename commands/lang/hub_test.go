package lang

import (
	"errors"
	"github.com/gpuplan/gpuplan/hub"
	"github.com/gpuplan/gpuplan/i18n"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

// A model named by its Hub id is read through the resolver, as typed (ids
// are case-sensitive); when the Hub cannot answer, a catalogue model of the
// same name stands in and the reading says so; otherwise the refusal says
// why and suggests a catalogue name that parses.
func TestHubModels(t *testing.T) {
	cat := planner.DefaultCatalog()
	var asked []string
	resolve := func(ref string) (planner.Model, error) {
		asked = append(asked, ref)
		switch ref {
		case "meta-llama/Llama-3.2-3B":
			m, _ := planner.ModelFromParams(3.2e9)
			m.ID, m.Origin = ref, "hub"
			return m, nil
		case "./config.json":
			m, _ := planner.ModelFromParams(1e9)
			m.ID, m.Origin = "custom-from-config", "hub"
			return m, nil
		}
		return planner.Model{}, errors.New("the Hugging Face Hub cannot be reached (offline?)")
	}
	env := Env{Catalog: cat, Resolve: resolve}
	r, err := Read(env, "meta-llama/Llama-3.2-3B lora 1B tokens on h100")
	if err != nil || r.Request.Job.Model.ID != "meta-llama/Llama-3.2-3B" || r.Request.Job.Workload != planner.LoRA {
		t.Fatalf("hub id: %+v, %v", r.Request.Job.Model.ID, err)
	}
	if len(asked) != 1 || asked[0] != "meta-llama/Llama-3.2-3B" {
		t.Errorf("resolver asked %q", asked)
	}
	if r, err := Read(env, "./config.json finetune 1B tokens on 8x a100"); err != nil || r.Request.Job.Model.ID != "custom-from-config" {
		t.Errorf("config path: %v, %v", r.Request.Job.Model.ID, err)
	}
	// Offline, but the catalogue knows the name.
	r, err = Read(env, "Qwen/Qwen2.5-7B finetune 1B tokens on h100x8")
	if err != nil || r.Request.Job.Model.ID != "qwen2.5-7b" || !strings.Contains(strings.Join(r.Request.Job.Notes, " "), "cannot be reached") {
		t.Errorf("offline catalogue stand-in: %v %v %v", r.Request.Job.Model.ID, r.Request.Job.Notes, err)
	}
	// Offline and unknown: the reason, and a suggestion that parses.
	_, err = Read(env, "someorg/llama-3-8b-custom-finetune lora 1B tokens on h100")
	var ue *UserError
	if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "cannot be reached") {
		t.Fatalf("unknown hub model: %v", err)
	}
	if next, ok := strings.CutPrefix(ue.Hint, "try: gpuplan plan "); !ok {
		t.Errorf("no suggestion: %q", ue.Hint)
	} else if _, err := Read(env, next); err != nil {
		t.Errorf("the suggestion %q does not parse: %v", next, err)
	}
	// Rates and units with a slash are not ids.
	for _, w := range []string{"h/epoch", "samples/s", "tokens/s", "s/step", "steps/epoch", "w/", "1/2"} {
		if isHubRef(w) {
			t.Errorf("%q read as a Hub id", w)
		}
	}
	// Without a resolver the catalogue answers alone.
	if r, err := Read(Env{Catalog: cat}, "mistralai/mistral-7b-v0.1 lora on 4090"); err != nil || r.Request.Job.Model.ID != "mistral-7b-v0.1" {
		t.Errorf("no resolver: %v %v", r.Request.Job.Model.ID, err)
	}
}

// A Hub refusal is said by its kind in Korean, with what to do; in English
// the client's own message (URL, cause) stays as it was.
func TestHubRefusalsInKorean(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, tc := range []struct {
		kind   error
		ko, en string
	}{
		{hub.ErrOffline, "Hub에 접속할 수 없어서", "cannot reach"},
		{hub.ErrGated, "HF_TOKEN을 설정해", "gated"},
		{hub.ErrNotFound, "철자를 확인해", "not found"},
		{hub.ErrMalformed, "모델 설정으로 읽지 못했어요", "malformed"},
	} {
		resolve := func(ref string) (planner.Model, error) {
			return planner.Model{}, &hub.Error{Kind: tc.kind, ID: ref, Msg: "client says: " + tc.en}
		}
		env := Env{Catalog: cat, Resolve: resolve}
		_, err := Read(env, "someorg/zzqx-custom lora 1B tokens on h100")
		var ue *UserError
		if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "client says: "+tc.en) {
			t.Fatalf("%v, English: %v", tc.kind, err)
		}
		_, err = Read(env, "someorg/zzqx-custom lora 1B tokens on h100")
		if !errors.As(Localize(i18n.For(i18n.KO), err), &ue) || !strings.Contains(ue.Msg, tc.ko) || strings.Contains(ue.Msg, "client says") {
			t.Errorf("%v, Korean: %q", tc.kind, ue.Msg)
		}
	}
}
