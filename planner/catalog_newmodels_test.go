package planner

import (
	"math"
	"testing"
)

// Llama 4, Qwen2.5-VL, GTE and SigLIP resolve by the names people type.
func TestNewModelsResolveByAlias(t *testing.T) {
	c := DefaultCatalog()
	for _, tc := range []struct{ in, want string }{
		{"llama-4-scout", "llama-4-scout"}, {"llama4 scout", "llama-4-scout"}, {"Llama 4 Scout", "llama-4-scout"},
		{"scout", "llama-4-scout"}, {"Llama-4-Scout-17B-16E", "llama-4-scout"},
		{"meta-llama/Llama-4-Scout-17B-16E-Instruct", "llama-4-scout"}, {"Llama-4-Scout-17B-16E-Instruct", "llama-4-scout"},
		{"llama-4-maverick", "llama-4-maverick"}, {"llama4 maverick", "llama-4-maverick"}, {"maverick", "llama-4-maverick"},
		{"Llama-4-Maverick-17B-128E-Instruct", "llama-4-maverick"}, {"meta-llama/Llama-4-Maverick-17B-128E", "llama-4-maverick"},
		{"qwen2.5-vl-3b", "qwen2.5-vl-3b"}, {"qwen2.5-vl-7b", "qwen2.5-vl-7b"}, {"qwen2.5 vl 7b", "qwen2.5-vl-7b"},
		{"Qwen2.5-VL-7B-Instruct", "qwen2.5-vl-7b"}, {"qwen2.5-vl-32b", "qwen2.5-vl-32b"}, {"Qwen2.5-VL-72B-Instruct", "qwen2.5-vl-72b"},
		{"gte-large", "gte-large"}, {"gte large", "gte-large"}, {"thenlper/gte-large", "gte-large"},
		{"gte-base", "gte-base"}, {"thenlper/gte-base", "gte-base"},
		{"siglip", "siglip-so400m-patch14-384"}, {"siglip-so400m", "siglip-so400m-patch14-384"},
		{"google/siglip-so400m-patch14-384", "siglip-so400m-patch14-384"},
		{"siglip-base", "siglip-base-patch16-224"}, {"google/siglip-base-patch16-224", "siglip-base-patch16-224"},
		// the short names already in use keep their reading
		{"qwen2-vl-7b", "qwen2-vl-7b"}, {"clip", "clip-vit-large-patch14"}, {"bge-large", "bge-large-en-v1.5"},
	} {
		m, _, err := c.Model(tc.in)
		if err != nil || m.ID != tc.want {
			t.Errorf("Model(%q) = %q, %v; want %q", tc.in, m.ID, err, tc.want)
		}
	}
}

// The parameter count implied by each new row's shape lands within 3 % of
// the count the row reports: Llama 4's MoE layers (routed experts, one
// shared expert, Maverick's dense layers between), Qwen2.5-VL's language
// model plus its ViT (config.json vision_config), BERT-shaped GTE and the
// SigLIP towers with their attention-pooling head.
func TestNewModelsParamsFromShape(t *testing.T) {
	c := DefaultCatalog()
	check := func(id string, computed float64) {
		t.Helper()
		m := mustModel(t, c, id)
		if r := computed / m.Params(); math.Abs(r-1) > 0.03 {
			t.Errorf("%s: %.3fB from the shape, %.3fB reported (%.3fx)", id, computed/1e9, m.ParamsB, r)
		}
	}

	// Llama 4: GQA attention, SwiGLU experts of FFN each, a shared expert
	// of the same width, a router; untied embeddings. Scout's every layer
	// is MoE; Maverick alternates MoE and dense (intermediate_size_mlp
	// 16384). The rest of the card's total is the vision encoder: 34
	// layers of 1408 wide with a 5632 MLP (vision_config).
	llama4 := func(m Model, moeEvery int, denseFFN float64) (total, active float64) {
		h, d := float64(m.Hidden), float64(m.headDim())
		attn := h*float64(m.Heads)*d*2 + 2*h*float64(m.kvHeads())*d
		expert := 3 * h * float64(m.FFN)
		emb := 2 * float64(m.Vocab) * h
		total, active = emb, emb
		for l := 0; l < m.Layers; l++ {
			if (l+1)%moeEvery == 0 {
				total += attn + float64(m.Experts+1)*expert + h*float64(m.Experts)
				active += attn + float64(m.TopK+1)*expert
			} else {
				total += attn + 3*h*denseFFN
				active += attn + 3*h*denseFFN
			}
		}
		return total, active
	}
	vision := 34 * (4*1408.0*1408 + 2*1408*5632.0)
	for _, tc := range []struct {
		id       string
		moeEvery int
		denseFFN float64
		experts  int
	}{{"llama-4-scout", 1, 16384, 16}, {"llama-4-maverick", 2, 16384, 128}} {
		m := mustModel(t, c, tc.id)
		if m.Kind != MoE || m.Experts != tc.experts || m.TopK != 1 || m.ActiveB != 17 {
			t.Errorf("%s: kind %s, %d experts top-%d, %.1fB active", tc.id, m.Kind, m.Experts, m.TopK, m.ActiveB)
		}
		if m.Window != 8192 || m.LocalShare != 0.75 {
			t.Errorf("%s: window %d on %.2f of layers; want chunked 8192 on 3 of 4", tc.id, m.Window, m.LocalShare)
		}
		total, active := llama4(m, tc.moeEvery, tc.denseFFN)
		check(tc.id, total+vision)
		if r := active / m.ActiveParams(); math.Abs(r-1) > 0.03 {
			t.Errorf("%s: %.2fB active from the shape, %.2fB reported", tc.id, active/1e9, m.ActiveB)
		}
	}

	// Qwen2.5-VL: the language model from the row, the ViT from
	// vision_config (depth 32, hidden 1280, SwiGLU, QKV and MLP biases,
	// Conv3d 2x14x14 patch embedding) and the 2x2 patch merger.
	qwenViT := func(mlp, out float64) float64 {
		h := 1280.0
		block := 3*h*h + 3*h + h*h + h + 3*h*mlp + 2*mlp + h + 2*h
		return 32*block + 3*2*14*14*h + h + 4*h*4*h + 4*h + 4*h*out + out
	}
	for id, mlp := range map[string]float64{"qwen2.5-vl-3b": 3420, "qwen2.5-vl-7b": 3420, "qwen2.5-vl-32b": 3456, "qwen2.5-vl-72b": 3456} {
		m := mustModel(t, c, id)
		qkvBias := float64(m.Layers * (m.Heads + 2*m.kvHeads()) * m.headDim())
		check(id, archParams(m)+qkvBias+qwenViT(mlp, float64(m.Hidden)))
	}

	// GTE: BERT with token-type embeddings and the pooler.
	for _, id := range []string{"gte-large", "gte-base"} {
		m := mustModel(t, c, id)
		if m.Kind != Encoder {
			t.Errorf("%s: kind %s", id, m.Kind)
		}
		h := float64(m.Hidden)
		check(id, archParams(m)+2*h+h*h+h)
	}

	// SigLIP: ViT blocks, patch embedding and learned positions, and the
	// attention-pooling head (one more attention + MLP block).
	for id, patch := range map[string]float64{"siglip-so400m-patch14-384": 14, "siglip-base-patch16-224": 16} {
		m := mustModel(t, c, id)
		h, f := float64(m.Hidden), float64(m.FFN)
		block := 4*h*h + 4*h + 2*h*f + f + h + 4*h
		n := float64(m.Layers+1)*block + 3*patch*patch*h + h + float64(m.MaxCtx)*h
		check(id, n)
		if m.Kind != VisionViT || m.FwdGFLOPs <= 0 {
			t.Errorf("%s: kind %s, %.1f GFLOPs", id, m.Kind, m.FwdGFLOPs)
		}
	}
}

// Llama 4 Scout in int4 on one H100: the weights are its 109B parameters
// at half a byte each (plus the quantisation scales), about 55 GB, which
// is what Meta means by "fits within a single H100 with int4".
func TestLlama4ScoutInt4OnOneH100(t *testing.T) {
	c := DefaultCatalog()
	m := mustModel(t, c, "llama-4-scout")
	res := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, "h100-sxm5-80gb", 1)},
		Job: Job{Model: m, Workload: Inference, Precision: INT4, SeqLen: 4096, GlobalBatch: 1}})
	e := res.Plans[0]
	var weights float64
	for _, it := range e.Memory.Breakdown {
		if it.Name == "weights" {
			weights = it.GiB * gib
		}
	}
	want := 109e9 * 0.5
	if math.Abs(weights/want-1) > 0.15 {
		t.Errorf("weights %.1f GB, want %.1f GB ±15%%", weights/1e9, want/1e9)
	}
	if !e.Memory.Fits {
		t.Errorf("int4 Scout on one H100: %.1f of %.1f GiB, does not fit", e.Memory.PerGPUGiB, e.Memory.CapacityGiB)
	}
	t.Logf("llama-4-scout int4 on 1x h100: weights %.1f GB, %.1f of %.1f GiB", weights/1e9, e.Memory.PerGPUGiB, e.Memory.CapacityGiB)
}

// A CNN's traffic width follows its FLOPs per activation: ResNet-50 is the
// reference (1); EfficientNet-B0's depthwise blocks do about a sixth of
// the work per value written, so per FLOP it trains far slower than
// ResNet-50 on the same card (NVIDIA publishes both at ~2,500 img/s on
// one A100 for a tenth of the FLOPs), not at the same utilization.
func TestCNNWidthFollowsFLOPsPerActivation(t *testing.T) {
	cat := DefaultCatalog()
	rn, _, err := cat.Model("resnet-50")
	if err != nil {
		t.Fatal(err)
	}
	ef, _, err := cat.Model("efficientnet-b0")
	if err != nil {
		t.Fatal(err)
	}
	if got := cnnIntensity(rn); math.Abs(got-1) > 1e-9 {
		t.Errorf("resnet-50 intensity %v, want 1", got)
	}
	if got := cnnIntensity(ef); got < 0.1 || got > 0.25 {
		t.Errorf("efficientnet-b0 intensity %v, want about a sixth", got)
	}
	a100, _, err := cat.GPU("a100-sxm4-80gb")
	if err != nil {
		t.Fatal(err)
	}
	rate := func(m Model) float64 {
		res, err := cat.Plan(Request{Job: Job{Model: m, Workload: Pretrain, Precision: FP16, Stack: Tuned}, Targets: []Hardware{{GPU: a100, Count: 1}}})
		if err != nil || len(res.Plans) == 0 {
			t.Fatalf("plan %s: %v", m.ID, err)
		}
		return res.Plans[0].Throughput.SamplesPerS
	}
	// FLOPs-normalised: samples/s × forward GFLOPs per sample
	rnWork, efWork := rate(rn)*rn.FwdGFLOPs, rate(ef)*ef.FwdGFLOPs
	if efWork > rnWork/3 {
		t.Errorf("efficientnet-b0 does %.0f GFLOP/s to resnet-50's %.0f: its traffic should hold it under a third", efWork, rnWork)
	}
}

// A slow alternative's rate is written with its digits, not rounded to
// "0 samples/s".
func TestHoursTextKeepsSmallRates(t *testing.T) {
	e := &Estimate{}
	e.Throughput.SamplesPerS = 0.16
	if got := hoursText(nil, e); got != "0.16 samples/s" {
		t.Errorf("hoursText = %q", got)
	}
	e.Throughput.SamplesPerS = 250
	if got := hoursText(nil, e); got != "250 samples/s" {
		t.Errorf("hoursText = %q", got)
	}
}

// An encoder served at a request rate with no batch said runs at a
// server's batch: where throughput levels off, at most TEI's 16,384
// tokens; one request at a time would undercount what a GPU serves.
func TestServedEncoderBatches(t *testing.T) {
	cat := DefaultCatalog()
	m, _, err := cat.Model("gte-large")
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := cat.GPU("l4")
	if err != nil {
		t.Fatal(err)
	}
	plan := func(rate float64) *Estimate {
		r, err := cat.Plan(Request{Job: Job{Model: m, Workload: Inference, SeqLen: 512, RequestRate: rate}, Targets: []Hardware{{GPU: g, Count: 1}}, NoSearch: true})
		if err != nil || len(r.Plans) == 0 {
			t.Fatalf("plan: %v", err)
		}
		return r.Plans[0]
	}
	e := plan(1000)
	if e.GlobalBatch < 2 || e.GlobalBatch > TEIMaxBatchTokens/512 {
		t.Errorf("served at 1000 req/s: batch %d, want 2 to %d", e.GlobalBatch, TEIMaxBatchTokens/512)
	}
	if one := plan(0); one.GlobalBatch != 1 || one.Throughput.SamplesPerS >= e.Throughput.SamplesPerS {
		t.Errorf("no load: batch %d at %.0f/s, served %.0f/s: want batch 1, slower", one.GlobalBatch, one.Throughput.SamplesPerS, e.Throughput.SamplesPerS)
	}
}
