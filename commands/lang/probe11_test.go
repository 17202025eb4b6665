package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Probe 11's misses: "sequence length", "50 conc users", "cost/mo", "first
// token latency", a Korean request rate beside a month of serving ("월
// 비용 … 초당 10 요청"), renting said in Korean (빌려야돼: the cloud, not
// the team's servers), 잼마 for Gemma, and each GPU's memory asked ("gpu당
// 메모리", "per-gpu memory"; "per-gpu 4" stays a micro-batch).
func TestProbeElevenReadings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"fine-tune Llama 3.1 70B with QLoRA on roughly 30k instruction examples, sequence length 4096, on H100s", "seq 4096"},
		{"serving gemma2 9b, 50 conc users, l4 or a10g? cost/mo?", "concurrency 50 · served for 730 h"},
		{"first token latency for qwen2.5 14b on h100 with vllm?", "inference · vllm concurrency 1 · on 1x h100-sxm5-80gb · latency?"},
		{"llama 3.1 8b 추론 월 비용 얼마나 나와? 초당 10 요청", "10 req/s · served for 730 h"},
		{"서빙 한달 비용 비교: llama 8b 초당 5요청 h100 vs a100", "5 req/s"},
		{"deepseek r1 distill llama 70b 서빙하려면 gpu 뭐 빌려야돼?", "in the cloud"},
		{"a100에서 잼마2 9b 로라 돌리면 vram 충분한가여", "gemma-2-9b · lora"},
		{"tp4 pp2로 llama 70b 학습하면 gpu당 메모리 얼마?", "tp 4 pp 2 · on 8 gpus · will it fit?"},
		{"llama 70b tp4 on h100, per-gpu memory for serving with 32k context?", "inference · seq 32768 · tp 4"},
		{"llama 8b lora per-gpu 4 on 2 a100", "micro 4"},
	})
}
