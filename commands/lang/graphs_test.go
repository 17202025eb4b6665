package lang

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

// CUDA graphs turned off, as people say it: vLLM's flag, TGI's, an old
// TGI's version, "eager" beside an engine, English and Korean phrases.
// Each reading restates the engine's flag and reads back the same; a
// TGI 2 or later, and a bare count after an engine, leave graphs on.
func TestNoGraphsWords(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]bool{
		"llama-2-7b inference vllm --enforce-eager on a10":                              true,
		"llama-2-7b inference vllm enforce eager on a10":                                true,
		"llama-2-7b inference tgi --cuda-graphs 0 on a10":                               true,
		"llama-2-70b inference tgi 1.0.3 in 226 out 50 concurrency 20 on 8x a100":       true,
		"llama-2-7b inference tgi v1.4 on a10":                                          true,
		"llama-2-7b inference tgi 2.4.1 on a10":                                         false,
		"llama-2-7b inference tgi v3.0.0 on a10":                                        false,
		"llama-2-7b inference vllm 0.6.3 on a10":                                        false,
		"llama-2-7b inference vllm eager mode on a10":                                   true,
		"llama-2-7b inference sglang no cuda graphs on a10":                             true,
		"llama 3 8b vllm으로 서빙하는데 쿠다 그래프 끄고 돌리면 a10에서 몇 토큰 나와?":                          true,
		"llama 3 8b vllm cuda graph 없이 a10":                                             true,
		"llama 3 8b vllm cuda graph 안 쓰고 a10":                                           true,
		"qwen2.5 7b 동시 32명 enforce-eager h100":                                          true,
		"llama 3.1 70b q4_k_m llama.cpp v100 몇 장 필요해?":                                  false,
		"llama-3.1-8b vllm 2 gpus h100":                                                 false,
		"llama-3.1-8b inference eager attention on h100":                                false,
		"llama-2-7b inference vllm in 1024 out 256 concurrency 8 cuda-graphs=0 on l40s": true,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		j := r.Request.Job
		if j.NoGraphs != want {
			t.Errorf("%q: NoGraphs %v, want %v (read as %q)", text, j.NoGraphs, want, readingText(cat, r))
			continue
		}
		if want && j.Attention != planner.AttentionDefault {
			t.Errorf("%q: eager read as an attention kernel too (%s)", text, j.Attention)
		}
		again := readingText(cat, r)
		r2, err := Read(Env{Catalog: cat}, again)
		if err != nil || r2.Request.Job.NoGraphs != want || r2.Request.Job.Engine != j.Engine {
			t.Errorf("%q: reading %q reads back as %+v (%v)", text, again, r2.Request.Job, err)
		}
	}
	// an engine with no CUDA graphs to turn off is told so
	for _, text := range []string{"llama-3-8b inference llama.cpp --enforce-eager on rtx-4090", "llama-3-8b inference trt-llm cuda graphs off on h100"} {
		if _, err := Read(Env{Catalog: cat}, text); err == nil || !strings.Contains(err.Error(), "CUDA graphs") {
			t.Errorf("%q: %v, want the engine said to have no graphs", text, err)
		}
	}
}
