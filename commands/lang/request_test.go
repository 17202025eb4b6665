package lang

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

// summary writes the fields of a parsed request that are set, in a fixed
// order, so a table can say what a request means in one line.
func summary(r planner.Request) string {
	j := r.Job
	var b []string
	add := func(k string, v any) { b = append(b, fmt.Sprintf("%s=%v", k, v)) }
	add("model", j.Model.ID)
	f := func(k string, v float64) {
		if v != 0 {
			add(k, strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	i := func(k string, v int) {
		if v != 0 {
			add(k, v)
		}
	}
	s := func(k, v string) {
		if v != "" {
			add(k, v)
		}
	}
	s("wl", string(j.Workload))
	s("prec", string(j.Precision))
	f("ep", j.Epochs)
	f("ds", j.DatasetSamples)
	f("dt", j.DatasetTokens)
	f("tok", j.Tokens)
	f("smp", j.Samples)
	f("steps", j.Steps)
	f("spe", j.StepsPerEpoch)
	i("seq", j.SeqLen)
	i("gb", j.GlobalBatch)
	i("gbt", j.GlobalBatchTokens)
	i("mb", j.MicroBatch)
	if j.Checkpointing {
		b = append(b, "ckpt")
	}
	s("att", string(j.Attention))
	s("st", string(j.Strategy))
	s("opt", string(j.Optimizer))
	s("stack", string(j.Stack))
	i("rank", j.LoRARank)
	i("gen", j.GenTokens)
	hw := func(h planner.Hardware) string {
		out := fmt.Sprintf("%sx%d", h.GPU.ID, h.Count)
		if h.Interconnect != "" {
			out += "/" + string(h.Interconnect)
		}
		if h.GPUsPerNode != 0 {
			out += fmt.Sprintf("/%d-per-node", h.GPUsPerNode)
		}
		return out
	}
	for _, h := range r.Targets {
		add("on", hw(h))
	}
	if r.Compare {
		b = append(b, "compare")
	}
	if bl := r.Baseline; bl != nil {
		out := fmt.Sprintf("baseline=%s %s on %s", strconv.FormatFloat(bl.Value, 'g', 6, 64), bl.Unit, hw(bl.Hardware))
		if bl.Precision != "" {
			out += " " + string(bl.Precision)
		}
		b = append(b, out)
	}
	return strings.Join(b, " ")
}

func TestParsePlan(t *testing.T) {
	cat := planner.DefaultCatalog()
	tests := []struct{ in, want string }{
		// the examples people type
		{"bert-base 10 epochs on h100x2",
			"model=bert-base-uncased ep=10 on=h100-sxm5-80gbx2"},
		{"bert-base vocab 10k seq 512 batch 128 = 4x32 19252 steps/epoch 10 epochs baseline 5.67 h/epoch on 4x v100-32gb compare on h200x4, a100x4",
			"model=bert-base-uncased (modified) ep=10 spe=19252 seq=512 gb=128 mb=32 on=h200-sxm-141gbx4 on=a100-sxm4-80gbx4 compare baseline=5.67 h/epoch on v100-sxm2-32gbx4"},
		{"llama3-8b qlora seq 2048 batch 16 of 50k samples 3 epochs on 4090",
			"model=llama-3-8b wl=qlora ep=3 ds=50000 seq=2048 gb=16 on=rtx-4090x1"},
		{"70b params inference int4 batch 8 ctx 8k on 2x 4090",
			"model=70B-params wl=inference prec=int4 seq=8192 gb=8 on=rtx-4090x2"},
		{"layers 24 hidden 2048 heads 16 vocab 50k pretrain 20B tokens seq 2048 batch 1M tokens on 8x a100 nvlink tuned zero2 ckpt flash",
			"model=custom-1.41B wl=pretrain tok=2e+10 seq=2048 gbt=1000000 ckpt att=flash st=zero2 stack=tuned on=a100-sxm4-80gbx8/nvlink"},
		{"gpt2 1.2B tokens on 2 nodes of 8x h100",
			"model=gpt2 tok=1.2e+09 on=h100-sxm5-80gbx16/ib/8-per-node"},
		{"llama-3.1-405b pretrain 15.6T tokens seq 8192 batch 16M tokens bf16 tuned on 2048 nodes of 8x h100-sxm5-80gb",
			"model=llama-3.1-405b wl=pretrain prec=bf16 tok=1.56e+13 seq=8192 gbt=16000000 stack=tuned on=h100-sxm5-80gbx16384/ib/8-per-node"},

		// catalogue names
		{"llama-3.1-70b", "model=llama-3.1-70b"},
		{"Llama-3.1-70B", "model=llama-3.1-70b"},
		{"gpt2-xl", "model=gpt2-xl"},
		{"mistral-7b", "model=mistral-7b-v0.1"},
		{"llama 3 8b", "model=llama-3-8b"},
		{"bert base 3 epochs", "model=bert-base-uncased ep=3"},
		{"gpt2 large", "model=gpt2-large"},

		// models by size and architecture
		{"7b params", "model=7B-params"},
		{"350m params", "model=350M-params"},
		{"1.5B params", "model=1.5B-params"},
		{"params 7b", "model=7B-params"},
		{"params=7b", "model=7B-params"},
		{"7b-params", "model=7B-params"},
		{"layers 32 hidden 4096 heads 32 kv 8 ffn 14336 vocab 128k", "model=custom-6.15B"},
		{"layers 32 hidden 4096 heads 32 kv-heads 8 ffn 14336 vocab 128k", "model=custom-6.15B"},
		{"24 layers hidden 1024 16 heads encoder", "model=custom-405M"},
		{"bert-base vocab 10k", "model=bert-base-uncased (modified)"},
		{"bert-base encoder", "model=bert-base-uncased"},

		// workloads
		{"bert-base pretrain", "model=bert-base-uncased wl=pretrain"},
		{"bert-base fine-tune", "model=bert-base-uncased wl=finetune"},
		{"bert-base ft", "model=bert-base-uncased wl=finetune"},
		{"llama3-8b lora", "model=llama-3-8b wl=lora"},
		{"llama3-8b lora finetune", "model=llama-3-8b wl=lora"},
		{"llama3-8b finetune qlora", "model=llama-3-8b wl=qlora"},
		{"llama3-8b infer", "model=llama-3-8b wl=inference"},
		{"llama3-8b serving", "model=llama-3-8b wl=inference"},

		// amounts
		{"bert-base 10 epoch", "model=bert-base-uncased ep=10"},
		{"bert-base 10ep", "model=bert-base-uncased ep=10"},
		{"bert-base 10 ep", "model=bert-base-uncased ep=10"},
		{"bert-base epochs=3", "model=bert-base-uncased ep=3"},
		{"bert-base 0.5 epochs", "model=bert-base-uncased ep=0.5"},
		{"bert-base 10 epochs of 2.5M samples", "model=bert-base-uncased ep=10 ds=2.5e+06"},
		{"bert-base 10 epochs of 1.2B tokens", "model=bert-base-uncased ep=10 dt=1.2e+09"},
		{"bert-base 10 epochs 2.5M samples", "model=bert-base-uncased ep=10 ds=2.5e+06"},
		{"bert-base 2.5M samples 10 epochs", "model=bert-base-uncased ep=10 ds=2.5e+06"},
		{"bert-base 1.2B tokens 3 epochs", "model=bert-base-uncased ep=3 dt=1.2e+09"},
		{"bert-base of 2.5M samples", "model=bert-base-uncased ds=2.5e+06"},
		{"bert-base 2.5M samples", "model=bert-base-uncased smp=2.5e+06"},
		{"bert-base 1.2B tokens", "model=bert-base-uncased tok=1.2e+09"},
		{"bert-base 5000 steps", "model=bert-base-uncased steps=5000"},
		{"bert-base 19252 steps/epoch", "model=bert-base-uncased spe=19252"},
		{"bert-base 19,252 steps per epoch", "model=bert-base-uncased spe=19252"},
		{"bert-base 19252 steps / epoch", "model=bert-base-uncased spe=19252"},
		{"bert-base 2,464,256 samples", "model=bert-base-uncased smp=2.464256e+06"},
		{"bert-base 1e6 samples", "model=bert-base-uncased smp=1e+06"},
		{"bert-base 2.5m samples", "model=bert-base-uncased smp=2.5e+06"},
		{"bert-base 100k samples", "model=bert-base-uncased smp=100000"},
		{"bert-base 50K examples", "model=bert-base-uncased smp=50000"},
		{"bert-base 1.2M images", "model=bert-base-uncased smp=1.2e+06"},
		{"bert-base 1.2M seqs", "model=bert-base-uncased smp=1.2e+06"},
		{"llama3-8b 15T tokens", "model=llama-3-8b tok=1.5e+13"},
		{"llama3-8b 15T tok", "model=llama-3-8b tok=1.5e+13"},
		{"llama3-8b 1.2btoks", "model=llama-3-8b tok=1.2e+09"},
		{"bert-base on a dataset of 1M samples", "model=bert-base-uncased ds=1e+06"},

		// sequence length
		{"bert-base seq 512", "model=bert-base-uncased seq=512"},
		{"bert-base seq=512", "model=bert-base-uncased seq=512"},
		{"bert-base seq:512", "model=bert-base-uncased seq=512"},
		{"bert-base seqlen 128", "model=bert-base-uncased seq=128"},
		{"bert-base seq-len 128", "model=bert-base-uncased seq=128"},
		{"bert-base seq len 128", "model=bert-base-uncased seq=128"},
		{"bert-base seq512", "model=bert-base-uncased seq=512"},
		{"llama3-8b context 4k", "model=llama-3-8b seq=4096"},
		{"llama3-8b ctx 32k", "model=llama-3-8b seq=32768"},
		{"llama3-8b ctx 128k", "model=llama-3-8b seq=131072"},
		{"llama3-8b max-len 2k", "model=llama-3-8b seq=2048"},
		{"llama3-8b seq 10k", "model=llama-3-8b seq=10000"},
		{"llama3-8b seq 1.5k", "model=llama-3-8b seq=1500"},
		{"llama3-8b seq 2048 tokens", "model=llama-3-8b seq=2048"},

		// batch
		{"bert-base batch 128", "model=bert-base-uncased gb=128"},
		{"bert-base bs 64", "model=bert-base-uncased gb=64"},
		{"bert-base bs32", "model=bert-base-uncased gb=32"},
		{"bert-base global-batch 256", "model=bert-base-uncased gb=256"},
		{"bert-base global batch size 256", "model=bert-base-uncased gb=256"},
		{"llama3-8b batch 4M tokens", "model=llama-3-8b gbt=4000000"},
		{"bert-base batch 4x32", "model=bert-base-uncased gb=128 mb=32"},
		{"bert-base batch 128 = 4x32", "model=bert-base-uncased gb=128 mb=32"},
		{"bert-base batch 256 = 4x32", "model=bert-base-uncased gb=256 mb=32"},
		{"bert-base batch 256 = 4x32x2", "model=bert-base-uncased gb=256 mb=32"},
		{"bert-base micro 32", "model=bert-base-uncased mb=32"},
		{"bert-base micro-batch 32", "model=bert-base-uncased mb=32"},
		{"bert-base micro batch size 32", "model=bert-base-uncased mb=32"},
		{"bert-base mbs 32", "model=bert-base-uncased mb=32"},
		{"bert-base per-gpu 32", "model=bert-base-uncased mb=32"},
		{"bert-base per-device 32", "model=bert-base-uncased mb=32"},
		{"bert-base per gpu 32", "model=bert-base-uncased mb=32"},
		{"bert-base batch 32 per gpu", "model=bert-base-uncased mb=32"},
		{"bert-base batch 128 micro 32", "model=bert-base-uncased gb=128 mb=32"},

		// precision
		{"bert-base fp32", "model=bert-base-uncased prec=fp32"},
		{"bert-base tf32", "model=bert-base-uncased prec=tf32"},
		{"bert-base fp16", "model=bert-base-uncased prec=fp16"},
		{"bert-base amp", "model=bert-base-uncased prec=fp16"},
		{"bert-base bf16 amp", "model=bert-base-uncased prec=bf16"},
		{"bert-base amp bf16", "model=bert-base-uncased prec=bf16"},
		{"bert-base mixed precision", "model=bert-base-uncased"},
		{"bert-base mixed bf16", "model=bert-base-uncased prec=bf16"},
		{"bert-base bf16", "model=bert-base-uncased prec=bf16"},
		{"bert-base precision=bf16", "model=bert-base-uncased prec=bf16"},
		{"llama3-8b fp8", "model=llama-3-8b prec=fp8"},
		// a weight format with nothing about training is a question about running it
		{"llama3-8b int8", "model=llama-3-8b wl=inference prec=int8"},
		{"llama3-8b 8bit", "model=llama-3-8b wl=inference prec=int8"},
		{"llama3-8b int4", "model=llama-3-8b wl=inference prec=int4"},
		{"llama3-8b nf4", "model=llama-3-8b wl=inference prec=int4"},
		{"llama3-8b 4bit", "model=llama-3-8b wl=inference prec=int4"},
		{"llama3-8b 4-bit", "model=llama-3-8b wl=inference prec=int4"},
		{"llama3-8b 4 bit", "model=llama-3-8b wl=inference prec=int4"},

		// options
		{"bert-base ckpt", "model=bert-base-uncased ckpt"},
		{"bert-base checkpointing", "model=bert-base-uncased ckpt"},
		{"bert-base grad-ckpt", "model=bert-base-uncased ckpt"},
		{"bert-base gradient-checkpointing", "model=bert-base-uncased ckpt"},
		{"bert-base gradient checkpointing", "model=bert-base-uncased ckpt"},
		{"bert-base gc", "model=bert-base-uncased ckpt"},
		{"bert-base flash", "model=bert-base-uncased att=flash"},
		{"bert-base flash-attn", "model=bert-base-uncased att=flash"},
		{"bert-base fa2", "model=bert-base-uncased att=flash"},
		{"bert-base sdpa", "model=bert-base-uncased att=flash"},
		{"bert-base flash attention 2", "model=bert-base-uncased att=flash"},
		{"bert-base eager", "model=bert-base-uncased att=eager"},
		{"bert-base ddp", "model=bert-base-uncased st=ddp"},
		{"bert-base zero1", "model=bert-base-uncased st=zero1"},
		{"bert-base zero-1", "model=bert-base-uncased st=zero1"},
		{"bert-base zero 1", "model=bert-base-uncased st=zero1"},
		{"bert-base zero stage 3", "model=bert-base-uncased st=zero3"},
		{"bert-base zero2", "model=bert-base-uncased st=zero2"},
		{"bert-base deepspeed zero3", "model=bert-base-uncased st=zero3"},
		{"bert-base fsdp", "model=bert-base-uncased st=fsdp"},
		{"bert-base adamw", "model=bert-base-uncased opt=adamw"},
		{"bert-base adam", "model=bert-base-uncased opt=adamw"},
		{"bert-base adam8bit", "model=bert-base-uncased opt=adam8bit"},
		{"bert-base 8bit-adam", "model=bert-base-uncased opt=adam8bit"},
		{"bert-base adamw8bit", "model=bert-base-uncased opt=adam8bit"},
		{"bert-base bnb-adam", "model=bert-base-uncased opt=adam8bit"},
		{"bert-base 8bit adam", "model=bert-base-uncased opt=adam8bit"},
		{"bert-base sgd", "model=bert-base-uncased opt=sgd"},
		{"bert-base lion", "model=bert-base-uncased opt=lion"},
		{"bert-base hf", "model=bert-base-uncased stack=hf"},
		{"bert-base huggingface", "model=bert-base-uncased stack=hf"},
		{"bert-base eager-pytorch", "model=bert-base-uncased stack=hf"},
		{"bert-base tuned", "model=bert-base-uncased stack=tuned"},
		{"bert-base megatron", "model=bert-base-uncased stack=tuned"},
		{"bert-base fused", "model=bert-base-uncased stack=tuned"},
		{"llama3-8b lora rank 16", "model=llama-3-8b wl=lora rank=16"},
		{"llama3-8b lora r16", "model=llama-3-8b wl=lora rank=16"},
		{"llama3-8b lora r=64", "model=llama-3-8b wl=lora rank=64"},
		{"llama3-8b lora lora-r 8", "model=llama-3-8b wl=lora rank=8"},
		{"llama3-8b inference gen 256", "model=llama-3-8b wl=inference gen=256"},
		{"llama3-8b inference generate 256 tokens", "model=llama-3-8b wl=inference gen=256"},
		{"llama3-8b inference output 256", "model=llama-3-8b wl=inference gen=256"},
		{"llama3-8b inference ctx 4k gen 512", "model=llama-3-8b wl=inference seq=4096 gen=512"},

		// hardware
		{"bert-base on h100", "model=bert-base-uncased on=h100-sxm5-80gbx1"},
		{"bert-base on h100 x2", "model=bert-base-uncased on=h100-sxm5-80gbx2"},
		{"bert-base on 2x h100", "model=bert-base-uncased on=h100-sxm5-80gbx2"},
		{"bert-base on 2xh100", "model=bert-base-uncased on=h100-sxm5-80gbx2"},
		{"bert-base on 2 h100", "model=bert-base-uncased on=h100-sxm5-80gbx2"},
		{"bert-base on H100 x 2", "model=bert-base-uncased on=h100-sxm5-80gbx2"},
		{"bert-base on h100*2", "model=bert-base-uncased on=h100-sxm5-80gbx2"},
		{"bert-base on 2 × h100", "model=bert-base-uncased on=h100-sxm5-80gbx2"},
		{"bert-base on 8x a100-sxm4-80gb", "model=bert-base-uncased on=a100-sxm4-80gbx8"},
		{"bert-base on 4x a100 40gb", "model=bert-base-uncased on=a100-sxm4-40gbx4"},
		{"bert-base on a100-40gb x4", "model=bert-base-uncased on=a100-sxm4-40gbx4"},
		{"bert-base on 2x h100 pcie", "model=bert-base-uncased on=h100-pcie-80gbx2"},
		{"bert-base on 2x rtx 4090", "model=bert-base-uncased on=rtx-4090x2"},
		{"bert-base on nvidia h200", "model=bert-base-uncased on=h200-sxm-141gbx1"},
		{"bert-base on 4 a100s", "model=bert-base-uncased on=a100-sxm4-80gbx4"},
		{"bert-base on 4x l40s", "model=bert-base-uncased on=l40sx4"},
		{"bert-base on 8 mi300x", "model=bert-base-uncased on=mi300xx8"},
		{"bert-base on 8x h100 gpus", "model=bert-base-uncased on=h100-sxm5-80gbx8"},
		{"bert-base on 2x 4090 pcie", "model=bert-base-uncased on=rtx-4090x2/pcie"},
		{"bert-base on 8x a100 pcie", "model=bert-base-uncased on=a100-pcie-80gbx8"},
		{"bert-base on v100 16gb x8 pcie", "model=bert-base-uncased on=v100-pcie-16gbx8"},
		{"bert-base on rtx 6000 ada x2", "model=bert-base-uncased on=rtx-6000-adax2"},
		{"bert-base on a6000", "model=bert-base-uncased on=rtx-a6000x1"},
		// desk and workstation cards teams own: the model number is the card, not a count
		{"llama3 8b int4 on a 3060", "model=llama-3-8b wl=inference prec=int4 on=rtx-3060x1"},
		{"bert-base on 2 3060s", "model=bert-base-uncased on=rtx-3060x2"},
		{"bert-base on my 3060 12gb", "model=bert-base-uncased on=rtx-3060x1"},
		{"llama3 8b lora on rtx 4080", "model=llama-3-8b wl=lora on=rtx-4080x1"},
		{"bert-base on rtx 4080 super", "model=bert-base-uncased on=rtx-4080superx1"},
		{"bert-base on 4070 ti super", "model=bert-base-uncased on=rtx-4070tisuperx1"},
		{"bert-base on 2x 3090 ti", "model=bert-base-uncased on=rtx-3090tix2"},
		{"mixtral 8x7b qlora on 2 a6000 ada", "model=mixtral-8x7b wl=qlora on=rtx-6000-adax2"},
		{"qwen2.5-coder 32b on 2x a100", "model=qwen2.5-coder-32b on=a100-sxm4-80gbx2"},
		{"llama 2 7b 배치 16 4090 2장", "model=llama-2-7b gb=16 on=rtx-4090x2"},
		// alpaca named: its samples' mean length in tokens (Llama 3 reads ~4 characters a token)
		{"llama3-8b lora, 1 epoch of 52k alpaca, 4090", "model=llama-3-8b wl=lora ep=1 ds=52000 seq=136 on=rtx-4090x1"},
		// a value before a dataset's name is the value's, not the dataset's size
		{"resnet50 batch 256 imagenet 90 epochs on 8 v100", "model=resnet-50 ep=90 ds=1.281167e+06 gb=256 on=v100-sxm2-32gbx8"},
		{"bert-base seq 384 squad 2 epochs", "model=bert-base-uncased ep=2 ds=87599 seq=384"},
		{"can I fine tune mistral 7b on a free colab t4", "model=mistral-7b-v0.1 wl=finetune on=t4x1"},
		// a model the catalogue lacks, named before its size: planned by the size
		{"internlm2 20b lora on 8x a800", "model=20B-params wl=lora on=a800-sxm4-80gbx8"},
		{"gpt-neox-20b finetune on 8x a100", "model=20B-params wl=finetune on=a100-sxm4-80gbx8"},
		{"exaone 3.5 7.8b finetune on 4x a100", "model=exaone-3.5-7.8b wl=finetune on=a100-sxm4-80gbx4"}, // in the catalogue since 2026-11-27
		{"qwen2.5-coder-7b-instruct lora on a100", "model=qwen2.5-coder-7b wl=lora on=a100-sxm4-80gbx1"},
		{"bert-base on 3080 12gb", "model=bert-base-uncased on=rtx-3080-12gbx1"},
		{"bert-base on 2080ti", "model=bert-base-uncased on=rtx-2080tix1"},
		{"bert-base on titan rtx", "model=bert-base-uncased on=titan-rtxx1"},
		{"bert-base on 4x a5000", "model=bert-base-uncased on=rtx-a5000x4"},
		{"bert-base on rtx 4000 ada", "model=bert-base-uncased on=rtx-4000-adax1"},
		{"bert-base on 2 a30", "model=bert-base-uncased on=a30x2"},
		{"bert-base on h100x2 l4", "model=bert-base-uncased on=h100-sxm5-80gbx2 on=l4x1 compare"},
		{"bert-base on a100 80gb x 2 and h100 x 2", "model=bert-base-uncased on=a100-sxm4-80gbx2 on=h100-sxm5-80gbx2 compare"},
		{"bert-base on 8x h100 with infiniband", "model=bert-base-uncased on=h100-sxm5-80gbx8/ib"},
		{"bert-base on 16x h100 roce", "model=bert-base-uncased on=h100-sxm5-80gbx16/ib"},
		{"bert-base on 1 node of 8x h100", "model=bert-base-uncased on=h100-sxm5-80gbx8/8-per-node"},
		{"bert-base on 4 nodes of 8 a100 nvlink", "model=bert-base-uncased on=a100-sxm4-80gbx32/nvlink/8-per-node"},
		{"bert-base h100x2", "model=bert-base-uncased on=h100-sxm5-80gbx2"},
		{"bert-base nvlink on 4x a100", "model=bert-base-uncased on=a100-sxm4-80gbx4/nvlink"},
		{"bert-base on h100x2, a100x4", "model=bert-base-uncased on=h100-sxm5-80gbx2 on=a100-sxm4-80gbx4 compare"},
		{"bert-base on h100x2 vs a100x4", "model=bert-base-uncased on=h100-sxm5-80gbx2 on=a100-sxm4-80gbx4 compare"},
		{"bert-base on h100x2, 3 epochs", "model=bert-base-uncased ep=3 on=h100-sxm5-80gbx2"},

		// compare
		{"bert-base compare on h200x4, a100x4, v100x4",
			"model=bert-base-uncased on=h200-sxm-141gbx4 on=a100-sxm4-80gbx4 on=v100-sxm2-32gbx4 compare"},
		{"bert-base compare h200x4 a100x4 v100x4",
			"model=bert-base-uncased on=h200-sxm-141gbx4 on=a100-sxm4-80gbx4 on=v100-sxm2-32gbx4 compare"},
		{"compare h200x4 and a100x4 for bert-base 3 epochs",
			"model=bert-base-uncased ep=3 on=h200-sxm-141gbx4 on=a100-sxm4-80gbx4 compare"},
		{"compare bert-base 10 epochs on h200x4 vs a100x4",
			"model=bert-base-uncased ep=10 on=h200-sxm-141gbx4 on=a100-sxm4-80gbx4 compare"},
		{"bert-base on h100x2 compare a100x4", "model=bert-base-uncased on=h100-sxm5-80gbx2 on=a100-sxm4-80gbx4 compare"},

		// baselines
		{"bert-base baseline 5.67 h/epoch on 4x v100-32gb",
			"model=bert-base-uncased baseline=5.67 h/epoch on v100-sxm2-32gbx4"},
		{"bert-base baseline 5.67h/epoch on 4x v100", "model=bert-base-uncased baseline=5.67 h/epoch on v100-sxm2-32gbx4"},
		{"bert-base baseline 5.67 hours per epoch on 4x v100", "model=bert-base-uncased baseline=5.67 h/epoch on v100-sxm2-32gbx4"},
		{"bert-base baseline 5.67 hrs/epoch on 4x v100", "model=bert-base-uncased baseline=5.67 h/epoch on v100-sxm2-32gbx4"},
		{"bert-base baseline 30 min/epoch on 4x v100", "model=bert-base-uncased baseline=0.5 h/epoch on v100-sxm2-32gbx4"},
		{"bert-base baseline 120 samples/s on v100x4", "model=bert-base-uncased baseline=120 samples/s on v100-sxm2-32gbx4"},
		{"bert-base baseline 120 samples/sec on v100x4", "model=bert-base-uncased baseline=120 samples/s on v100-sxm2-32gbx4"},
		{"bert-base baseline 120 seq/s on v100x4", "model=bert-base-uncased baseline=120 samples/s on v100-sxm2-32gbx4"},
		{"bert-base baseline 120 img/s on v100x4", "model=bert-base-uncased baseline=120 samples/s on v100-sxm2-32gbx4"},
		{"bert-base baseline 3000 tok/s on v100x4", "model=bert-base-uncased baseline=3000 tokens/s on v100-sxm2-32gbx4"},
		{"bert-base baseline 3000 tokens/s on v100x4", "model=bert-base-uncased baseline=3000 tokens/s on v100-sxm2-32gbx4"},
		{"bert-base baseline 0.5 s/step on v100x4", "model=bert-base-uncased baseline=0.5 s/step on v100-sxm2-32gbx4"},
		{"bert-base baseline 0.5 sec/step on v100x4", "model=bert-base-uncased baseline=0.5 s/step on v100-sxm2-32gbx4"},
		{"bert-base baseline 1.2 s/it on v100x4", "model=bert-base-uncased baseline=1.2 s/step on v100-sxm2-32gbx4"},
		{"bert-base baseline 500 ms/step on v100x4", "model=bert-base-uncased baseline=0.5 s/step on v100-sxm2-32gbx4"},
		{"bert-base baseline 2 steps/s on v100x4", "model=bert-base-uncased baseline=0.5 s/step on v100-sxm2-32gbx4"},
		{"bert-base baseline 36 h on v100x4", "model=bert-base-uncased baseline=36 h on v100-sxm2-32gbx4"},
		{"bert-base baseline 36 hours on v100x4", "model=bert-base-uncased baseline=36 h on v100-sxm2-32gbx4"},
		{"bert-base baseline 36 hrs on v100x4", "model=bert-base-uncased baseline=36 h on v100-sxm2-32gbx4"},
		{"bert-base baseline 2 days on v100x4", "model=bert-base-uncased baseline=48 h on v100-sxm2-32gbx4"},
		{"bert-base baseline 2d on v100x4", "model=bert-base-uncased baseline=48 h on v100-sxm2-32gbx4"},
		{"bert-base baseline 5.67 h/epoch 4x v100", "model=bert-base-uncased baseline=5.67 h/epoch on v100-sxm2-32gbx4"},
		{"bert-base baseline on 4x v100 5.67 h/epoch", "model=bert-base-uncased baseline=5.67 h/epoch on v100-sxm2-32gbx4"},
		{"bert-base baseline 5.67 h/epoch on 4x v100 fp32 on h100x2",
			"model=bert-base-uncased on=h100-sxm5-80gbx2 baseline=5.67 h/epoch on v100-sxm2-32gbx4 fp32"},
		{"bert-base on h100x2 baseline: 5.67 h/epoch on 4x v100",
			"model=bert-base-uncased on=h100-sxm5-80gbx2 baseline=5.67 h/epoch on v100-sxm2-32gbx4"},

		// normalising: mentions, unicode spaces and quotes, case, punctuation, filler
		{"<@U123ABC> bert-base 10 epochs on h100x2", "model=bert-base-uncased ep=10 on=h100-sxm5-80gbx2"},
		{"<@U123ABC> <@U456> plan bert-base", "model=bert-base-uncased"},
		{"bert-base\u00a010\u202fepochs on\u2009h100x2", "model=bert-base-uncased ep=10 on=h100-sxm5-80gbx2"},
		{"“bert-base” 10 ‘epochs’ on h100x2", "model=bert-base-uncased ep=10 on=h100-sxm5-80gbx2"},
		{"BERT-BASE 10 EPOCHS ON H100X2", "model=bert-base-uncased ep=10 on=h100-sxm5-80gbx2"},
		{"`bert-base` for 10 epochs on h100x2, with bf16 and flash.", "model=bert-base-uncased prec=bf16 ep=10 att=flash on=h100-sxm5-80gbx2"},
		{"*bert-base* 10 epochs on _h100x2_", "model=bert-base-uncased ep=10 on=h100-sxm5-80gbx2"},
		{"llama\u20113\u20118b lora", "model=llama-3-8b wl=lora"},
		{"bert-base 10 epochs of ~2.5M samples", "model=bert-base-uncased ep=10 ds=2.5e+06"},
		{"bert-base lora lora", "model=bert-base-uncased wl=lora"},
		{"bert-base 3 epochs 3 epochs", "model=bert-base-uncased ep=3"},
	}
	for _, tc := range tests {
		r, err := ParsePlan(cat, tc.in)
		if err != nil {
			t.Errorf("ParsePlan(%q): %v", tc.in, err)
			continue
		}
		if got := summary(r); got != tc.want {
			t.Errorf("ParsePlan(%q)\n got: %s\nwant: %s", tc.in, got, tc.want)
		}
		if r.Job.Model.Params() <= 0 {
			t.Errorf("ParsePlan(%q): model with %g parameters", tc.in, r.Job.Model.Params())
		}
	}
}

func TestParsePlanDetails(t *testing.T) {
	cat := planner.DefaultCatalog()
	r, err := ParsePlan(cat, "bert-base vocab 10k seq 512 batch 128 = 4x32 19252 steps/epoch 10 epochs baseline 5.67 h/epoch on 4x v100-32gb compare on h200x4, a100x4")
	if err != nil {
		t.Fatal(err)
	}
	if m := r.Job.Model; m.Vocab != 10000 || m.Layers != 12 || m.Hidden != 768 {
		t.Errorf("LogBERT model: vocab %d layers %d hidden %d", m.Vocab, m.Layers, m.Hidden)
	}
	wantNotes := []string{
		"`bert-base` read as bert-base-uncased",
		"`v100-32gb` read as Tesla V100 SXM2 32GB (others: v100-pcie-32gb)",
		"`h200` read as H200 SXM 141GB (others: h200-nvl-141gb)",
		"`a100` read as A100 SXM4 80GB (others: a100-sxm4-40gb, a100-pcie-80gb, a100-pcie-40gb)",
	}
	if !slices.Equal(r.Job.Notes, wantNotes) {
		t.Errorf("notes:\n got %q\nwant %q", r.Job.Notes, wantNotes)
	}

	// a GPU read twice is noted once
	r, err = ParsePlan(cat, "bert-base compare h100x2 h100x4")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Job.Notes) != 2 {
		t.Errorf("notes %q: want the model note and one h100 note", r.Job.Notes)
	}

	// architecture
	r, err = ParsePlan(cat, "layers 32 hidden 4096 heads 32 kv 8 ffn 14336 vocab 128k decoder")
	if err != nil {
		t.Fatal(err)
	}
	if m := r.Job.Model; m.Layers != 32 || m.Hidden != 4096 || m.Heads != 32 || m.KVHeads != 8 || m.FFN != 14336 ||
		m.Vocab != 128000 || m.Kind != planner.Decoder || m.Origin != "architecture" {
		t.Errorf("architecture model: %+v", m)
	}
	r, err = ParsePlan(cat, "layers 12 hidden 768 encoder")
	if err != nil {
		t.Fatal(err)
	}
	if r.Job.Model.Kind != planner.Encoder {
		t.Errorf("encoder keyword: kind %s", r.Job.Model.Kind)
	}
	r, err = ParsePlan(cat, "7b params")
	if err != nil {
		t.Fatal(err)
	}
	if r.Job.Model.Params() != 7e9 || r.Job.Model.Origin != "size" {
		t.Errorf("7b params: %g (%s)", r.Job.Model.Params(), r.Job.Model.Origin)
	}
	// a size keeps its count and takes a vocabulary
	r, err = ParsePlan(cat, "65.2b params vocab 32000")
	if err != nil {
		t.Fatal(err)
	}
	if m := r.Job.Model; m.Params() != 65.2e9 || m.Vocab != 32000 {
		t.Errorf("65.2b params vocab 32000: %g params, vocab %d", m.Params(), m.Vocab)
	}

	// `mixed` leaves the precision to the planner and says so
	r, err = ParsePlan(cat, "gpt2 mixed")
	if err != nil {
		t.Fatal(err)
	}
	if r.Job.Precision != "" || !slices.ContainsFunc(r.Job.Notes, func(s string) bool { return strings.Contains(s, "`mixed`") }) {
		t.Errorf("mixed: precision %q notes %q", r.Job.Precision, r.Job.Notes)
	}

	// exact numbers
	for in, want := range map[string]float64{
		"gpt2 1.2B tokens": 1.2e9, "gpt2 0.3b tokens": 0.3e9, "gpt2 2.7T tokens": 2.7e12, "gpt2 1.1e9 tokens": 1.1e9,
	} {
		r, err := ParsePlan(cat, in)
		if err != nil {
			t.Fatal(err)
		}
		if r.Job.Tokens != want {
			t.Errorf("%q: tokens %v, want %v", in, r.Job.Tokens, want)
		}
	}
}

func TestParsePlanErrors(t *testing.T) {
	cat := planner.DefaultCatalog()
	tests := []struct{ in, msg, hint string }{
		{"bert-bse 10 epochs on h100x2",
			"unknown model `bert-bse` — did you mean `bert-base`?",
			"try: gpuplan plan bert-base 10 epochs on h100x2"},
		{"bert-base 10 epochs on h10",
			"unknown GPU `h10` — did you mean `h100`?",
			"try: gpuplan plan bert-base 10 epochs on h100"},
		{"bert-base 10 epochs on h1000",
			"unknown GPU `h1000` — did you mean `h100`?",
			"try: gpuplan plan bert-base 10 epochs on h100"},
		{"bert-base 10 epochs on h1000x2",
			"unknown GPU `h1000` — did you mean `h100`?",
			"try: gpuplan plan bert-base 10 epochs on h100x2"},
		{"bert-base 10 epochs on 2x h1000",
			"unknown GPU `h1000` — did you mean `h100`?",
			"try: gpuplan plan bert-base 10 epochs on 2x h100"},
		{"bert-base 10 epochs h1000",
			"unknown GPU `h1000` — did you mean `h100`?",
			"try: gpuplan plan bert-base 10 epochs h100"},
		{"bert-base 10epocs on h100x2",
			"I don't understand `10epocs` — did you mean `10 epochs`?",
			"try: gpuplan plan bert-base 10 epochs on h100x2"},
		{"bert-base 10 epochs on h100x2 with flsh",
			"I don't understand `flsh` — did you mean `flash`?",
			"try: gpuplan plan bert-base 10 epochs on h100x2 with flash"},
		{"10 epochs on h100x2",
			"which model? name one (`bert-base`, `llama3-8b`), give a size (`7b params`) or an architecture (`layers 24 hidden 2048 heads 16`)",
			"e.g. with a model: gpuplan plan bert-base 10 epochs on h100x2"},
		{"", "which model? name one (`bert-base`, `llama3-8b`), give a size (`7b params`) or an architecture (`layers 24 hidden 2048 heads 16`)",
			reqExample},
		// the word that names the model is one the catalogue lacks: say so
		{"mobilenetv3 finetune on 4090",
			"which model? I do not know `mobilenetv3` — name a catalogue model (`bert-base`, `llama3-8b`), give its size (`7b params`) or an architecture (`layers 24 hidden 2048 heads 16`)",
			"e.g. with a model: gpuplan plan bert-base finetune on 4090"},
		// a diffusion model is named as one, and the planner says it has no path for it
		{"sdxl finetune on 4090",
			"`sdxl` is an image-generation (diffusion) model: gpuplan plans language and speech models (LLMs, BERT, Whisper), ViTs and CNNs, and has no path yet for a diffusion model's denoising steps",
			"try a catalogue name (`gpuplan models` lists them)"},
		{"stable diffusion xl lora on a 4090",
			"`stable diffusion xl` is an image-generation (diffusion) model: gpuplan plans language and speech models (LLMs, BERT, Whisper), ViTs and CNNs, and has no path yet for a diffusion model's denoising steps",
			"try a catalogue name (`gpuplan models` lists them)"},
		{"스테이블 디퓨전 학습 3090",
			"`스테이블 디퓨전` is an image-generation (diffusion) model: gpuplan plans language and speech models (LLMs, BERT, Whisper), ViTs and CNNs, and has no path yet for a diffusion model's denoising steps",
			"try a catalogue name (`gpuplan models` lists them)"},
		{"bert-base on h100x0",
			"GPU count 0 in `h100x0` is out of range — a plan takes 1 to 100,000 GPUs",
			"try: gpuplan plan bert-base on h100"},
		{"bert-base on 0x h100",
			"GPU count 0 in `0x h100` is out of range — a plan takes 1 to 100,000 GPUs", ""},
		{"bert-base on h100x200000",
			"GPU count 200000 in `h100x200000` is out of range — a plan takes 1 to 100,000 GPUs", ""},
		{"bert-base on 20000 nodes of 8x h100",
			"`20000 nodes of 8x h100` is 160000 GPUs; a plan takes 1 to 100000", ""},
		{"bert-base on 0 nodes of 8x h100",
			"`0 nodes of 8x h100` is 0 GPUs; a plan takes 1 to 100000", ""},
		{"bert-base on 2 nodes of 200000x h100",
			"GPU count 200000 in `200000x h100` is out of range — a plan takes 1 to 100,000 GPUs", ""},
		{"7b params layers 24 vocab 32000",
			"two models: `7b params` and `layers 24 vocab 32000` — give a size or an architecture, not both", ""},
		{"llama-3.1-8b int4 bf16 on h100",
			"two precisions: `int4` and `bf16` — which one?",
			"try: gpuplan plan llama-3.1-8b int4 on h100"},
		{"bert-base gpt2", "two models: `bert-base` and `gpt2` — which one?", "try: gpuplan plan bert-base"},
		{"bert-base 7b params", "two models: `bert-base` and `7b params` — which one?", ""},
		{"7b params layers 24 hidden 1024",
			"two models: `7b params` and `layers 24 hidden 1024` — give a size or an architecture, not both", ""},
		{"llama3-8b lora qlora", "two workloads: `lora` and `qlora` — which one?", ""},
		{"llama3-8b inference pretrain", "two workloads: `inference` and `pretrain` — which one?", ""},
		{"bert-base 10 epochs 3 epochs", "two epoch counts: `10 epochs` and `3 epochs` — which one?", ""},
		{"bert-base seq 512 seq 128", "two sequence lengths: `seq 512` and `seq 128` — which one?", ""},
		{"bert-base flash eager", "two attention kernels: `flash` and `eager` — which one?", ""},
		{"bert-base ddp fsdp", "two sharding strategies: `ddp` and `fsdp` — which one?", ""},
		{"bert-base 10 epochs 5000 steps", "two amounts of work: `10 epochs` and `5000 steps` — which one?", ""},
		{"bert-base 1M samples 1B tokens", "two amounts of work: `1M samples` and `1B tokens` — which one?", ""},
		{"bert-base 3 epochs of 1M samples of 1B tokens", "two dataset sizes: `of 1M samples` and `of 1B tokens` — which one?", ""},
		{"bert-base 0 epochs", "`0 epochs` must be more than zero", ""},
		{"bert-base -3 epochs", "`-3` is negative; amounts and sizes are positive", ""},
		{"bert-base 1e999 epochs", "`1e999 epochs` is more than gpuplan plans for (at most 100k epochs)", ""},
		{"bert-base 200k epochs", "`200k epochs` is more than gpuplan plans for (at most 100k epochs)", ""},
		{"bert-base seq 20M", "`seq 20M` is more than gpuplan plans for (at most 10M tokens)", ""},
		{"bert-base seq 0", "`seq 0` must be more than zero", ""},
		{"bert-base seq 512.5", "`seq 512.5` must be a whole number", ""},
		{"bert-base batch 200M", "`batch 200M` is more than gpuplan plans for (at most 100M)", ""},
		{"bert-base 1.5 steps", "`1.5 steps` must be a whole number", ""},
		{"bert-base seq", "`seq` needs a number after it, like `seq 512`", "try: gpuplan plan bert-base"},
		{"bert-base seq long", "`seq` needs a number, not `long`, like `seq 512`", ""},
		{"llama3 10 epochs",
			"model `llama3` matches several: `llama-3-8b`, `llama-3.1-8b`, `llama-3-70b`, `llama-3.1-70b`, `llama-3.1-405b` and 4 more — say which",
			"try: gpuplan plan llama-3-8b 10 epochs"},
		{"bert-base baseline 1.5 it/s on 4x v100",
			"`1.5 it/s` counts loop iterations, which depend on batch and accumulation; give seconds per optimizer step or samples per second", ""},
		{"bert-base baseline 5.67 h/epoch", "`baseline 5.67 h/epoch` needs the hardware it was measured on, like `on 4x v100`", ""},
		{"bert-base baseline on 4x v100", "`baseline on 4x v100` needs a measurement, like `baseline 5.67 h/epoch on 4x v100`", ""},
		{"bert-base baseline 5 furlongs on v100", "`5 furlongs` is not a unit I read for a baseline; I read samples/s, tokens/s, s/step, h/epoch or h", ""},
		{"bert-base baseline 5 h/epoch on v100 baseline 6 h/epoch on a100", "a second `baseline`: give one measured run", ""},
		{"bert-base compare h100x2", "`compare` needs at least two setups, like `compare h200x4, a100x4`", ""},
		{"bert-base compare", "`compare` needs at least two setups, like `compare h200x4, a100x4`", ""},
		{"bert-base compare h1000x2 a100x4", "unknown GPU `h1000` — did you mean `h100`?", ""},
		{"bert-base compare on bert-large", "two models: `bert-base` and `bert-large` — which one?", ""},
		{"bert-base on 2x h100 x2", "`2x h100 x2` gives the GPU count twice", ""},
		{"bert-base on rtx 4090 x0", "GPU count 0 in `rtx 4090 x0` is out of range — a plan takes 1 to 100,000 GPUs",
			"try: gpuplan plan bert-base on rtx4090"},
		// a GPU the catalogue lacks is named whole and never read as a count or a near card
		{"bert-base 10 epochs on tpu", "unknown GPU `tpu`: it is not in the GPU catalogue", ""},
		{"gemma 2 9b on tpu v4", "unknown GPU `tpu v4`: it is not in the GPU catalogue", ""},
		{"llama3 8b lora on gtx 1660", "unknown GPU `gtx 1660`: it is not in the GPU catalogue", ""},
		{"llama3 8b lora gtx 1660", "unknown GPU `gtx 1660`: it is not in the GPU catalogue", ""},
		{"llama3 8b int4 on a 1660", "unknown GPU `1660`: it is not in the GPU catalogue", ""},
		{"bert-base on 2 1660s", "unknown GPU `1660s`: it is not in the GPU catalogue", ""},
		// a variant the catalogue lacks is another card, not the base card with a word skipped
		{"bert-base on a 3060 ti", "unknown GPU `3060 ti`: it is not in the GPU catalogue", ""},
		{"bert-base on 2x rtx 4070 super", "unknown GPU `rtx 4070 super`: it is not in the GPU catalogue", ""},
		// two slips: the correction fixes both, so it parses on its own
		{"bert-bse 10 epochs on h1000", "unknown model `bert-bse` — did you mean `bert-base`?",
			"try: gpuplan plan bert-base 10 epochs on h100"},
		{"llama 10 epochs",
			"model `llama` matches several: `llama-2-7b`, `llama-2-13b`, `llama-2-70b`, `llama-3-8b`, `llama-3.1-8b` and 9 more — say which", ""},
		{"bert-base on", "`on` needs hardware after it, like `on h100x2`", "try: gpuplan plan bert-base"},
		{"bert-base on a", "`on` needs hardware after it, like `on h100x2`", "try: gpuplan plan bert-base"},
		{"bert-base on 2", "which GPU? `2` names none, like `on 2x h100`", ""},
		{"bert-base 10 on h100",
			"`10` needs a unit: `10 epochs`, `10 samples`, `10 tokens`, `10 steps` or `10 params`?",
			"try: gpuplan plan bert-base 10 epochs on h100"},
		{"bert-base 36h on h100", "`36h` is a measurement; a plan needs the work (`10 epochs`, `5000 steps`) — a measured run goes in a baseline", ""},
		{"bert-base nvlink", "`nvlink` says how GPUs connect, but no GPUs are named — put it after them, like `on 8x a100 nvlink`", ""},
		{"bert-base batch 128 = 4x30", "`batch 128 = 4x30` does not add up: 4x30 is 120", ""},
		{"bert-base batch 128 micro 256", "micro-batch `micro 256` is larger than the global batch `batch 128`", ""},
		{"llama3-8b inference ctx 512 gen 1024",
			"`gen 1024` leaves no room for a prompt in `ctx 512`: the context counts prompt and generated tokens", ""},
		{"bert-base tokens", "`tokens` needs a number before it, like `1.2B tokens`", ""},
		{"bert-base of", "`of` should say the dataset size, like `of 2.5M samples` or `of 1.2B tokens`", ""},
		{"bert-base zero", "`zero` needs a stage: `zero1`, `zero2` or `zero3`", ""},
		{"bert-base 3 bit", "`3 bit` is not a precision I know; 4-bit, 8-bit, 16-bit and 32-bit are", ""},
		{"10T params", "`10T params` is outside the 1M–5T parameters gpuplan plans for", ""},
		{"layers 2000 hidden 200000 heads 1000", "`layers 2000 hidden 200000 heads 1000` works out to 960T parameters, outside the 1M–5T gpuplan plans for", ""},
		{"layers 24 hidden 1000 heads 16", "`layers 24 hidden 1000 heads 16`: hidden 1000 is not divisible by heads 16", ""},
		{"hidden 1024", "an architecture needs at least `layers` and `hidden` (e.g. `layers 24 hidden 2048 heads 16`)", ""},
		{"mixtral-8x7b layers 40", "`layers 40`: mixtral-8x7b: architecture overrides are supported for dense transformer models only", ""},
		{strings.Repeat("bert-base ", 300), "that request is 2999 characters long; I read plan requests of up to 2000", ""},
	}
	for _, tc := range tests {
		_, err := ParsePlan(cat, tc.in)
		var ue *UserError
		if !errors.As(err, &ue) {
			t.Errorf("ParsePlan(%q): error %v, want a *UserError", tc.in, err)
			continue
		}
		if ue.Msg != tc.msg {
			t.Errorf("ParsePlan(%q)\n got msg: %s\nwant msg: %s", tc.in, ue.Msg, tc.msg)
		}
		if tc.hint != "" && ue.Hint != tc.hint {
			t.Errorf("ParsePlan(%q)\n got hint: %s\nwant hint: %s", tc.in, ue.Hint, tc.hint)
		}
		if ue.Hint == "" {
			t.Errorf("ParsePlan(%q): no hint", tc.in)
		}
	}
}

func TestParsePlanNilCatalog(t *testing.T) {
	if _, err := ParsePlan(nil, "gpt2 on h100"); err != nil {
		t.Fatal(err)
	}
}

func TestScanNumber(t *testing.T) {
	tests := []struct {
		in   string
		v    float64
		unit string
	}{
		{"512", 512, ""}, {"2.5m", 2.5e6, ""}, {"1.2b", 1.2e9, ""}, {"15t", 15e12, ""}, {"100k", 1e5, ""},
		{"2,464,256", 2464256, ""}, {"1e6", 1e6, ""}, {".5", 0.5, ""}, {"10ep", 10, "ep"}, {"7b-params", 7e9, "params"},
		{"4-bit", 4, "bit"}, {"10ms", 10, "ms"}, {"10tok", 10, "tok"}, {"2xh100", 2, "xh100"}, {"5.67h/epoch", 5.67, "h/epoch"},
		{"2.5msamples", 2.5e6, "samples"}, {"36h", 36, "h"}, {"2d", 2, "d"}, {"1min", 1, "min"},
	}
	for _, tc := range tests {
		n, unit, ok := reqScanNumber(tc.in)
		if !ok || n.v != tc.v || unit != tc.unit {
			t.Errorf("reqScanNumber(%q) = %v %q %v, want %v %q", tc.in, n.v, unit, ok, tc.v, tc.unit)
		}
	}
	if _, _, ok := reqScanNumber("x"); ok {
		t.Error("reqScanNumber(x) ok")
	}
}

func BenchmarkParsePlan(b *testing.B) {
	cat := planner.DefaultCatalog()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParsePlan(cat, "llama3-8b qlora 3 epochs of 50k samples seq 2048 batch 16 on 4090"); err != nil {
			b.Fatal(err)
		}
	}
}

// A slip one edit from a keyword is read as it and named in the reading.
func TestKeywordSlipsAreRead(t *testing.T) {
	for in, want := range map[string]string{
		"bert-base 10 epocs on h100x2":                  "epocs → epochs",
		"finetnue llama-3-8b 2 epochs on 4 h100":        "finetnue → finetune",
		"finetuen llama2 7b with lora, 3 epocs, 1 a100": "epocs → epochs",
	} {
		r, err := Read(Env{}, in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if got := strings.Join(r.Corrected, ", "); !strings.Contains(got, want) {
			t.Errorf("%q: corrected %q, want %q", in, got, want)
		}
	}
}

// A GPU count with no GPU named ("on 8 gpus", "gpu 8장") keeps the count
// and asks which GPU: the reading says it, reads back the same, and the
// request searches only that count.
func TestGPUCountWithoutGPU(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, in := range []string{"train gpt2 on openwebtext with 8 gpus", "bert-base on 8 gpus", "llama 3 8b lora gpu 8장",
		"llama 3 8b lora GPU 8개로 얼마나 걸려?", "llama 3 8b lora 8 gpu", "which gpu for llama 3 8b lora with 8 gpus", "llama 3 8b lora 8gpu"} {
		r, err := Read(Env{Catalog: cat}, in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if r.GPUCount != 8 || len(r.Request.Targets) != 0 || r.Ask == AskNone {
			t.Errorf("%q: count %d, targets %d, ask %q", in, r.GPUCount, len(r.Request.Targets), r.Ask)
		}
		if len(r.Request.Pool) == 0 {
			t.Errorf("%q: no search pool", in)
		}
		for _, h := range r.Request.Pool {
			if h.Count != 8 {
				t.Errorf("%q: the pool holds %dx %s", in, h.Count, h.GPU.ID)
				break
			}
		}
		back, err := Read(Env{Catalog: cat}, ReadAs(cat, r))
		if err != nil || back.GPUCount != 8 {
			t.Errorf("%q: read as %q, which reads back with count %d (%v)", in, ReadAs(cat, r), back.GPUCount, err)
		}
	}
	// a GPU named anywhere takes the count
	if r, err := Read(Env{Catalog: cat}, "llama 3 8b lora h100 with 8 gpus"); err != nil || r.GPUCount != 0 || len(r.Request.Targets) != 1 || r.Request.Targets[0].Count != 8 {
		t.Errorf("h100 with 8 gpus: %+v, %v", r.Request.Targets, err)
	}
}

// A measured run in it/s is usable when the work is counted in steps of
// the same loop: "2.3 it/s … 50k steps" reads as 1/2.3 s a step, whatever
// an iteration holds. Without steps it is refused as before.
func TestIterationsPerSecondWithSteps(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, in := range []string{"2.3 it/s on a 4090 for our gemma-2-2b ft, 50k steps. how long on 2x h100?",
		"we get 2.3 it/s on a 4090 for gemma-2-2b finetune. how long would 50000 steps take on 2x h100?"} {
		r, err := Read(Env{Catalog: cat}, in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		b := r.Request.Baseline
		if b == nil || b.Unit != planner.SecPerStep || math.Abs(b.Value-1/2.3) > 1e-3 || r.Request.Job.Steps != 50000 {
			t.Errorf("%q: baseline %+v, steps %v", in, b, r.Request.Job.Steps)
		}
		back, err := Read(Env{Catalog: cat}, ReadAs(cat, r))
		if err != nil || back.Request.Baseline == nil || back.Request.Baseline.Value != b.Value {
			t.Errorf("%q: read as %q, which reads back as %v (%v)", in, ReadAs(cat, r), back.Request.Baseline, err)
		}
	}
	if _, err := Read(Env{Catalog: cat}, "gemma-2-2b finetune 3 epochs of 50k samples baseline 2.3 it/s on a 4090 on 2x h100"); err == nil || !strings.Contains(err.Error(), "loop iterations") {
		t.Errorf("it/s with the work in epochs: want the refusal, got %v", err)
	}
}

// A rate said per GPU is the run's rate over all the GPUs it ran on:
// "950 tokens/s/gpu on 4x v100" is 3,800 tokens/s on the four; on GPUs
// named without a count it is one GPU's rate.
func TestPerGPURate(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, tc := range []struct {
		in    string
		value float64
		n     int
	}{
		{"llama-2-7b lora 1B tokens baseline 950 tokens/s/gpu on 4x v100 on 4x h100", 3800, 4},
		{"llama-2-7b lora 1B tokens baseline 950 tokens/s per gpu on 4x v100 on 4x h100", 3800, 4},
		{"we got 1,500 tokens/s per GPU on A100s pretraining llama 2 7b. how long for 20B tokens on 2x h100?", 1500, 1},
		{"we did 950 tokens/s/gpu on V100s with llama-2-7b lora; how long for 1e9 tokens on 4x H100?", 950, 1},
	} {
		r, err := Read(Env{Catalog: cat}, tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		b := r.Request.Baseline
		if b == nil || b.Unit != planner.TokensPerS || b.Value != tc.value || b.Hardware.Count != tc.n {
			t.Errorf("%q: baseline %+v, want %v tokens/s on %d", tc.in, b, tc.value, tc.n)
		}
	}
	if _, err := Read(Env{Catalog: cat}, "llama-2-7b lora 1B tokens baseline 5 h/epoch per gpu on 4x v100 on 4x h100"); err == nil {
		t.Error("a duration per GPU: want a refusal")
	}
}

// "6.5 hours an epoch" is a time per epoch, the article dropped or not.
func TestHoursAnEpoch(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, in := range []string{"bert-large took 6.5 hours an epoch on 4 v100s, what about 4 h100?", "bert-large baseline 6.5 hours per epoch on 4x v100 on 4x h100"} {
		r, err := Read(Env{Catalog: cat}, in)
		if err != nil || r.Request.Baseline == nil || r.Request.Baseline.Unit != planner.HoursPerEpoch || r.Request.Baseline.Value != 6.5 {
			t.Errorf("%q: baseline %+v (%v), want 6.5 h/epoch", in, r.Request.Baseline, err)
		}
	}
}
