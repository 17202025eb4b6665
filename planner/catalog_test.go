package planner

import "testing"

// An instruct or chat tune resolves to its base model, said in the note;
// a name that only contains such letters does not.
func TestTunedVariantsResolveToTheirBase(t *testing.T) {
	c := DefaultCatalog()
	for name, want := range map[string]string{
		"llama-3-70b-instruct":     "llama-3-70b",
		"gemma-2-9b-it":            "gemma-2-9b",
		"Qwen2.5-7B-Instruct":      "qwen2.5-7b",
		"llama-2-13b-chat-hf":      "llama-2-13b",
		"mistral-7b-instruct-v0.2": "mistral-7b-v0.1",
	} {
		m, res, err := c.Model(name)
		if err != nil || m.ID != want || res.As != want {
			t.Errorf("%s: %v %q %v, want %s", name, m.ID, res.Note, err, want)
		}
	}
	if _, ok := tunedVariantBase("bert-base-italian"); ok {
		t.Error("bert-base-italian read as a tune")
	}
}
