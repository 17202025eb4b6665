package lang

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/planner"
)

// FuzzParsePlan checks that no request, however mangled, panics the parser
// or produces an error a user cannot read.
//
//	go test ./commands/lang -run XXX -fuzz FuzzParsePlan -fuzztime 60s
func FuzzParsePlan(f *testing.F) {
	for _, s := range planSeeds {
		f.Add(s)
	}
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(f, cat)}
	f.Fuzz(func(t *testing.T, text string) { fuzzOne(t, env, text) })
}

// planSeeds are the fuzz corpus's seeds: requests in every form the
// language reads. TestSuggestionsParse checks its rule over them too.
var planSeeds = []string{
	"bert-base 10 epochs on h100x2",
	"bert-base vocab 10k seq 512 batch 128 = 4x32 19252 steps/epoch 10 epochs baseline 5.67 h/epoch on 4x v100-32gb compare on h200x4, a100x4",
	"llama3-8b qlora seq 2048 batch 16 of 50k samples 3 epochs on 4090",
	"70b params inference int4 batch 8 ctx 8k on 2x 4090",
	"layers 24 hidden 2048 heads 16 vocab 50k pretrain 20B tokens seq 2048 batch 1M tokens on 8x a100 nvlink tuned zero2 ckpt flash",
	"gpt2 1.2B tokens on 2 nodes of 8x h100",
	"<@U123ABC> mistral-7b lora r16 3 epochs of 2,464,256 samples on H100 x 2 bf16",
	"llama-3.1-70b inference gen 256 ctx 4k batch 32 on h200 nvl x 2 nvlink",
	"compare h200x4 a100x4 v100x4 bert-large 3 epochs of 1e6 samples fp16 amp",
	"qwen2.5-7b finetune 8bit adam seq=1024 micro-batch 4 global-batch 64 on 4 a100 40gb zero3",
	"7b-params 1.2B tokens on h100x8, a100x8 deepspeed zero 2 ckpt",
	"gpt2-xl 5000 steps batch 32 per gpu on 8 a100 80gb fsdp adamw tf32",
	"bert-base baseline 120 samples/sec on 4x v100 fp32 on h100x4",
	"llama 3 8b 15T tokens seq 8k batch 4M tokens on 64 nodes of 8x h100 ib megatron fp8",
	"bert-bse 10 epocs on h1000x0",
	"“bert-base” 10\u00a0epochs on 2×h100 — with flash-attn",
	"resnet50 90 epochs of 1.28M images batch 1024 on 8x a100 amp",
	"tinyllama-1.1b pretrain 3T tokens layers 22 baseline 2 days on 16x a100",
	"mixtral-8x7b qlora nf4 rank 64 2 epochs of 100k samples on 2x rtx 4090 pcie",
	"layers 32 hidden 4096 heads 32 kv 8 ffn 14336 vocab 128k decoder inference int8 ctx 128k gen 1k on 8x h200",
	"bert-base baseline 500 ms/step on v100x4 1.5 it/s 2.5msamples 1,000,000 .5ep",
	"qwen2.5 7b 풀 파인튜닝 1B 토큰 h100 8장으로 얼마나 걸려?",
	"qlora로 llama-2-70b a100 80gb 1장에서 돌릴 수 있어?",
	"LogBERT 4x V100에서 에폭당 5.67시간 걸렸는데 서버 H로 옮기면 얼마나 걸려?",
	"how many h100s do I need to pretrain a 7B model on 1T tokens in a week",
	"which of our servers is fastest for bert-base 3 epochs of 2.5 million samples",
	"90 epochs of imagenet resnet-50 on a pair of a100s",
	"server-a 2장 내일 오전 9시부터 3시간 예약",
	"llama3 8b lora on rtx 4080", "gemma 2 9b on tpu v4", "bert-base on server-x", "llama3 8b q4_k_m gguf on a t4",
	"gpt2 3 epochs of five hundred thousand samples on eight a100s", "bert-bse 10 epochs on h1000",
}

// fuzzOne checks one fuzzed request.
func fuzzOne(t *testing.T, env Env, text string) {
	cat := env.Catalog
	{
		rd, err := Read(env, text)
		r := rd.Request
		if err == nil {
			_ = ReadAs(cat, rd)
		}
		ReadCommand(env, text)
		if err != nil {
			var hue *UserError
			if errors.As(err, &hue) {
				if next, ok := strings.CutPrefix(hue.Hint, tryPrefix); ok {
					// a suggestion is a different request, and it parses on its own
					if next == strings.TrimSpace(text) {
						t.Fatalf("Read(%q): the suggestion repeats the request", text)
					}
					if _, err := Read(env, next); err != nil {
						t.Fatalf("Read(%q): the suggestion %q does not parse: %v", text, next, err)
					}
				}
			}
		}
		if err != nil {
			var ue *UserError
			if !errors.As(err, &ue) {
				t.Fatalf("ParsePlan(%q): %T %v, want a *UserError", text, err, err)
			}
			if strings.TrimSpace(ue.Msg) == "" || ue.Hint == "" {
				t.Fatalf("ParsePlan(%q): empty message or hint: %q / %q", text, ue.Msg, ue.Hint)
			}
			if !utf8.ValidString(ue.Msg) || !utf8.ValidString(ue.Hint) {
				t.Fatalf("ParsePlan(%q): invalid UTF-8 in %q / %q", text, ue.Msg, ue.Hint)
			}
			for _, bad := range []string{"%!", "planner.", "commands.", "UserError", "float64", "map[", "[]", "struct {",
				"<nil>", "NaN", "Inf"} {
				if (strings.Contains(ue.Msg, bad) || strings.Contains(ue.Hint, bad)) && !strings.Contains(text, bad) {
					t.Fatalf("ParsePlan(%q): message shows %q: %q / %q", text, bad, ue.Msg, ue.Hint)
				}
			}
			return
		}
		m := r.Job.Model
		if p := m.Params(); !(p > 0) || math.IsInf(p, 0) || m.ID == "" {
			t.Fatalf("ParsePlan(%q): model %q with %g parameters", text, m.ID, p)
		}
		for _, h := range r.Targets {
			if h.GPU.ID == "" || h.Count < 1 || h.Count > reqMaxGPUs {
				t.Fatalf("ParsePlan(%q): target %q x%d", text, h.GPU.ID, h.Count)
			}
		}
		if r.Compare != (len(r.Targets) >= 2) {
			t.Fatalf("ParsePlan(%q): compare %v with %d targets", text, r.Compare, len(r.Targets))
		}
		if b := r.Baseline; b != nil && (b.Hardware.GPU.ID == "" || !(b.Value > 0) || math.IsInf(b.Value, 0) || b.Unit == "") {
			t.Fatalf("ParsePlan(%q): baseline %+v", text, *b)
		}
		j := r.Job
		for _, v := range []float64{j.Epochs, j.DatasetSamples, j.DatasetTokens, j.Tokens, j.Samples, j.Steps, j.StepsPerEpoch} {
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("ParsePlan(%q): amount %g", text, v)
			}
		}
		for _, v := range []int{j.SeqLen, j.GlobalBatch, j.GlobalBatchTokens, j.MicroBatch, j.LoRARank, j.GenTokens} {
			if v < 0 {
				t.Fatalf("ParsePlan(%q): negative size %d", text, v)
			}
		}
	}
}
