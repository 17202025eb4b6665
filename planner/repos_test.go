package planner

import (
	"strings"
	"testing"
)

// The instruction-tuned repository beside a base one, by each publisher's
// naming on the Hub.
func TestInstructRepo(t *testing.T) {
	for base, want := range map[string]string{
		"Qwen/Qwen2.5-7B":                         "Qwen/Qwen2.5-7B-Instruct",
		"Qwen/Qwen3-8B":                           "Qwen/Qwen3-8B",
		"Qwen/Qwen3-8B-Base":                      "Qwen/Qwen3-8B",
		"Qwen/Qwen2.5-Coder-7B-Instruct":          "Qwen/Qwen2.5-Coder-7B-Instruct",
		"meta-llama/Llama-3.1-8B":                 "meta-llama/Llama-3.1-8B-Instruct",
		"meta-llama/Meta-Llama-3-8B":              "meta-llama/Meta-Llama-3-8B-Instruct",
		"meta-llama/Llama-2-7b-hf":                "meta-llama/Llama-2-7b-chat-hf",
		"mistralai/Mistral-7B-v0.1":               "mistralai/Mistral-7B-Instruct-v0.1",
		"mistralai/Mistral-Small-24B-Base-2501":   "mistralai/Mistral-Small-24B-Instruct-2501",
		"google/gemma-2-9b":                       "google/gemma-2-9b-it",
		"google/gemma-3-12b-pt":                   "google/gemma-3-12b-it",
		"google/flan-t5-base":                     "google/flan-t5-base",
		"deepseek-ai/DeepSeek-R1-Distill-Qwen-7B": "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",
	} {
		if got := instructRepo(base); got != want {
			t.Errorf("%s: %s, want %s", base, got, want)
		}
	}
}

// A launch line serves the instruction-tuned repository when that
// checkpoint was named (probe 33: "qwen2.5-7b-instruct" was launched as
// the base Qwen/Qwen2.5-7B).
func TestLaunchServesTheInstructModel(t *testing.T) {
	for instruct, want := range map[bool]string{true: "vllm serve Qwen/Qwen2.5-7B-Instruct ", false: "vllm serve Qwen/Qwen2.5-7B "} {
		e := servePlan(t, "qwen2.5-7b", "l40s", 1, func(j *Job) { j.Engine, j.Instruct = EngineVLLM, instruct })
		if !strings.Contains(e.Launch, want) {
			t.Errorf("instruct %v: %q, want %q", instruct, e.Launch, want)
		}
	}
}
