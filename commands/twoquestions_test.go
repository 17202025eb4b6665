package commands

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/planner"
)

// A message that asks two unrelated plans is answered for each: both
// answers on top, each card under its question, both plans in the data.
// A message that reads as one plan (training then serving it) is one plan;
// a second sentence that does not read alone stays with the first.
func TestTwoQuestionsInOneMessage(t *testing.T) {
	s, _ := newReservations(t)
	for _, tc := range []struct {
		text  string
		reads [2]string // each question's reading holds these
	}{
		{"how long to finetune bert-base on 100k samples on an a100? also how many h100s to serve llama 3 70b?", [2]string{"bert-base-uncased · finetune", "llama-3-70b · inference"}},
		{"bert-base 파인튜닝 10만개 a100 얼마나 걸려? 그리고 llama 3 70b 서빙은 h100 몇장?", [2]string{"bert-base-uncased · 파인튜닝", "llama-3-70b · 추론"}},
		{"resnet50 on imagenet with 4x a100, how long. and whisper large v3 on 1000 hours of audio on an l4", [2]string{"resnet-50", "whisper-large-v3"}},
		// the second names no model: read with the first's request
		{"gemma 2 9b 파인튜닝 얼마나 걸려? 그리고 서빙은 몇장?", [2]string{"gemma-2-9b · 파인튜닝", "gemma-2-9b · 추론"}},
		// joined inside one sentence
		{"bert-base 파인튜닝 10만개 a100 얼마나 걸려 그리고 llama 3 70b 서빙 h100 몇장", [2]string{"bert-base-uncased · 파인튜닝", "llama-3-70b · 추론"}},
		{"how long is bert-base finetune on 100k samples on a100 and also how many h100s for serving llama 3 70b", [2]string{"bert-base-uncased · finetune", "llama-3-70b · inference"}},
	} {
		r := mustDo(t, s, "U1", tc.text)
		pd, ok := r.Data.(*PlanData)
		if !ok || len(pd.Also) != 1 {
			t.Errorf("%q: data %T, want two plans", tc.text, r.Data)
			continue
		}
		if !strings.Contains(pd.ReadAs, tc.reads[0]) || !strings.Contains(pd.Also[0].ReadAs, tc.reads[1]) {
			t.Errorf("%q: read as %q and %q, want %q", tc.text, pd.ReadAs, pd.Also[0].ReadAs, tc.reads)
		}
		if !strings.HasPrefix(r.Summary, "1) ") || !strings.Contains(r.Summary, " 2) ") {
			t.Errorf("%q: summary %q lacks both answers", tc.text, r.Summary)
		}
		all := textOf(t, r)
		if !strings.Contains(all, pd.Also[0].ReadAs) || strings.Count(all, pd.Answer) < 1 {
			t.Errorf("%q: the reply does not carry both questions:\n%s", tc.text, all)
		}
	}
	for _, one := range []string{
		"fine-tune llama 3 8b with lora on 100k samples then serve it with vllm for 50 concurrent users, how many a100s?",
		"llama 3 8b lora on a 4090? and what would it cost?",
		"llama 3 8b lora 학습하고 그리고 vllm으로 서빙하려면 a100 몇장",
	} {
		if pd, ok := mustDo(t, s, "U1", one).Data.(*PlanData); !ok || len(pd.Also) != 0 {
			t.Errorf("%q: read as several questions", one)
		}
	}
}

// Sentences cuts at sentence ends and drops the word that joins the next.
func TestSentences(t *testing.T) {
	for text, want := range map[string][]string{
		"a? also b":                     {"a?", "b"},
		"a? and also b!":                {"a?", "b!"},
		"llama 3.1 8b on h100. qwen 7b": {"llama 3.1 8b on h100.", "qwen 7b"},
		"a 얼마나 걸려? 그리고 b 몇장?":           {"a 얼마나 걸려?", "b 몇장?"},
		"one sentence only":             {"one sentence only"},
	} {
		if got := lang.Sentences(text); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
}

// Each question of a message is read once while it is cut: a Hub model id
// in it is looked up once, not once per reading.
func TestQuestionPartsReadEachOnce(t *testing.T) {
	cat := planner.DefaultCatalog()
	lookups := 0
	env := lang.Env{Catalog: cat, Resolve: func(string) (planner.Model, error) {
		lookups++
		m, _, err := cat.Model("llama-3.2-3b")
		return m, err
	}}
	first := "how long to finetune meta-llama/Llama-3.2-3B on 100k samples on an a100?"
	if _, err := lang.Read(env, first); err != nil {
		t.Fatal(err)
	}
	once := lookups
	lookups = 0
	parts := questionParts(env, first+" also how many h100s to serve llama 3 70b?", false)
	if len(parts) != 2 {
		t.Fatalf("cut into %d questions, want 2", len(parts))
	}
	if once == 0 || lookups != once {
		t.Errorf("the Hub id was looked up %d times while cutting, want %d (one reading)", lookups, once)
	}
}

// A sentence that names no model is context for the next, not a question
// of its own: "… h100이면? bert-large 파인튜닝임" is one plan of bert-large.
func TestNoModelPartIsContext(t *testing.T) {
	env := lang.Env{Catalog: planner.DefaultCatalog()}
	if parts := questionParts(env, "v100 4장에서 에폭당 5시간 걸렸는데 h100이면? bert-large 파인튜닝임 h100도 4장", true); parts != nil {
		t.Errorf("cut into %d questions, want one plan", len(parts))
	}
}
