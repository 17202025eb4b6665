package lang

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// The reader's notes (names resolved, assumptions made) are said in
// Korean for a Korean reply, one for one, and stay as they were in
// English.
func TestNotesInKorean(t *testing.T) {
	env := Env{Catalog: planner.DefaultCatalog()}
	ko := i18n.For(i18n.KO)
	for _, req := range []string{
		"bert-large 10 epochs of 1M samples on h100x2",
		"llama3 8b 1B tokens with deepspeed on 8x a100 mixed",
		"qwen2.5-7b gguf on a 4090",
		"mistral-7b awq vllm on l40s",
		"baseline 5.67 h/epoch on 4x v100, how long on h100x4?",
		"llama-3-8b int4 on 4090",
	} {
		r, err := Read(env, req)
		if err != nil {
			t.Fatalf("%q: %v", req, err)
		}
		if len(r.Request.Job.Notes) == 0 {
			t.Errorf("%q: no notes to check", req)
			continue
		}
		en, kn := r.NotesIn(i18n.For(i18n.EN)), r.NotesIn(ko)
		if strings.Join(en, "\n") != strings.Join(r.Request.Job.Notes, "\n") || len(kn) != len(en) {
			t.Errorf("%q: English notes changed or Korean count differs: %q / %q", req, en, kn)
		}
		for i, n := range kn {
			for _, w := range []string{"read as", "planned as", "without a", "not given", "no model named", "say `"} {
				if strings.Contains(n, w) {
					t.Errorf("%q: Korean note %q still says %q (English: %q)", req, n, w, en[i])
				}
			}
		}
	}
}
