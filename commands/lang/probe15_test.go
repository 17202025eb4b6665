package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Readings probe 15 (100 requests in every style, written blind on the
// build after probe 14's fixes, 2026-11-28) found wanting: a GPU's letter
// in Hangul glued to its digits ("에이100"); a family and version said in
// words before a size the catalogue has ("deepseek v3 671b", "deepseek v2
// lite 16b": the member with the fewest extra words); "for 2 weeks" after
// "how many GPUs"; "for 30 devs" and "128 동시" (users at once); hours of
// audio with the copula glued ("1200시간이고"); a token rate asked of
// hardware still to be found ("the cheapest GPU … at 50 tokens/s").
func TestProbeFifteenReadings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 28, 11, 0, 0, 0, time.UTC)}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"라마3.1 8b 로라 학습 에이100 두장으로 몇시간?", "llama-3.1-8b · lora · on 2x a100-sxm4-80gb · how long?"},
		{"에이치100 4장 llama 70b qlora", "qlora · on 4x h100-sxm5-80gb"},
		{"deepseek v3 671b fp8 inference, how many H200s minimum?", "deepseek-v3 · inference · fp8 · on h200-sxm-141gb × ? · how many GPUs?"},
		{"deepseek v2 lite 16b lora on h100", "deepseek-v2-lite · lora"},
		{"CLIP ViT-B/32 contrastive training from scratch on 400M image-text pairs, how many A100s for 2 weeks?", "how many GPUs to finish within 14 days?"},
		{"We need to serve DeepSeek-Coder-V2-Lite 16B for 30 devs via vLLM with 16k context, which of our servers should we use?", "vllm concurrency 30"},
		{"Gemma 2 27B 서빙 / 128 동시 / 지연시간 1초 이하 / H200 몇 장?", "gemma-2-27b · inference · concurrency 128"},
		{"음성인식 팀에서 whisper medium 한국어 파인튜닝 하려고 합니다. 데이터 1200시간이고 server-v 써도 될까요?", "whisper-medium · finetune · of 144000 samples · on 4x server-v"},
		{"What's the cheapest GPU to serve Phi-3-mini at 50 tokens/s?", "phi-3-mini-4k · inference · output-rate 50 tok/s"},
	})
	// a rate said of hardware named stays a measured run
	if r, err := Read(env, "llama 8b runs at 50 tokens/s on a 4090, how fast on h100"); err != nil || r.Request.Baseline == nil {
		t.Errorf("a rate measured on a 4090: baseline %v (%v); want the measured run", r.Request.Baseline, err)
	}
}
