package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// Readings probe 20 (100 requests in every style, written blind on the
// final build of 2026-11-28: 76 read right) refused over one word each:
// "at 2000 tokens/s aggregate, how many L40S?" (a load, not a run); "10
// million won"; "dpo 베타 0.1" (a setting); "for 500 internal users"; "서빙
// 24시간" (round the clock); "224 해상도로" (the image size).
func TestProbeTwentyReadings(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 28, 14, 0, 0, 0, time.UTC)}
	readingsHave(t, cat, env, []struct{ text, has string }{
		{"Serving Gemma 3 12B with vLLM at 2000 tokens/s aggregate, how many L40S?", "vllm output-rate 2000 tok/s · on l40s × ? · how many GPUs?"},
		{"budget 10 million won, llama 3 70b qlora on 1M samples, which server?", "budget $7032"},
		{"미스트랄7b dpo 베타 0.1 데이터 5만 a100 4장 몇시간", "mistral-7b-v0.1 · finetune (assumed) · of 50000 samples · dpo · on 4x a100-sxm4-80gb · how long?"},
		{"Manager here — what would it cost per month to serve Qwen2.5 14B for 500 internal users?", "qwen2.5-14b · inference · concurrency 500 · served for 730 h · what does it cost?"},
		{"월 500만원 안에서 qwen 32b 서빙 24시간 어떤 gpu가 제일 싸?", "qwen3-32b · inference · served for 730 h"},
		// the unit in Korean before a number with an English scale
		{"사전학습 1B 모델 토큰 100B개 H100 64장 며칠 걸림", "1B params · pretrain · 100B tokens · on 64x h100-sxm5-80gb · how long?"},
		{"사전학습 llama 3 8b 토큰 100B h100 64장", "llama-3-8b · pretrain · 100B tokens"},
		// "월 기준" beside a cost comparison; "tokens/s 몇?"; "몇에폭" with a budget
		{"h100 vs h200 라마 70b 서빙 비용 비교 월 기준", "served for 730 h · compare h100-sxm5-80gb, h200-sxm-141gb · what does it cost?"},
		{"미스트랄 nemo 12b gptq 4bit 4090 서빙 tokens/s 몇?", "mistral-nemo-12b · inference · int4 · gptq · on 1x rtx-4090 · how fast?"},
		{"200달러 예산으로 qwen2.5 7b lora 런팟에서 h100 쓰면 몇에폭 돌릴수있어", "how many epochs? · budget $200"},
		{"안녕하세요 비전팀입니다. 제품 결함 검출용으로 ResNet-101을 학습하려고 하는데 이미지가 40만장 정도이고 224 해상도로 50에폭 돌릴 예정입니다. server-a랑 server-h 중 어디가 나을까요?", "resnet-101 · pretrain (assumed) · 50 epochs of 400000 samples"},
	})
}
