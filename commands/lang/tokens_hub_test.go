package lang

import "testing"

// TestHubLinksNameTheModel: a pasted Hub link is read as the id it names
// (a model's or a dataset's); a Space or a docs page names neither.
func TestHubLinksNameTheModel(t *testing.T) {
	for in, want := range map[string]string{
		"https://huggingface.co/Qwen/Qwen2.5-7B-Instruct 서빙":               "Qwen/Qwen2.5-7B-Instruct 서빙",
		"lora https://huggingface.co/meta-llama/Llama-3.1-8B/tree/main ok": "lora meta-llama/Llama-3.1-8B ok",
		"on https://hf.co/datasets/tatsu-lab/alpaca":                       "on alpaca",
		"https://huggingface.co/spaces/foo/bar llama":                      "llama",
	} {
		if got := reqNormalize(in); got != want {
			t.Errorf("reqNormalize(%q) = %q, want %q", in, got, want)
		}
	}
}
