package planner

import (
	"math"
	"strings"
	"testing"
)

// The 2026 catalogue additions resolve by the names people type, and the
// short family names keep meaning what they meant before.
func TestCurrentGPUNamesResolve(t *testing.T) {
	c := DefaultCatalog()
	for _, tc := range []struct{ in, want string }{
		{"rtx 5090", "rtx-5090"}, {"5090", "rtx-5090"}, {"geforce 5090", "rtx-5090"},
		{"rtx pro 6000", "rtx-pro-6000-blackwell"}, {"RTX PRO 6000 Blackwell", "rtx-pro-6000-blackwell"},
		{"rtx pro 6000 server", "rtx-pro-6000-blackwell-server"}, {"rtx-pro-6000-blackwell-server", "rtx-pro-6000-blackwell-server"},
		{"rtx 6000", "rtx-6000-ada"}, {"rtx 6000 ada", "rtx-6000-ada"},
		{"l40", "l40"}, {"L40S", "l40s"}, {"a40", "a40"},
		{"a800", "a800-sxm4-80gb"}, {"a800 pcie", "a800-pcie-80gb"},
		{"h800", "h800-sxm5-80gb"}, {"h800 pcie", "h800-pcie-80gb"},
		{"h20", "h20"}, {"h200", "h200-sxm-141gb"},
		{"gb200", "gb200-nvl72"}, {"b200", "b200-hgx"},
		{"mi325x", "mi325x"}, {"mi325", "mi325x"}, {"mi300x", "mi300x"},
		{"mi250x", "mi250x"}, {"MI250X", "mi250x"},
		{"dgx b200", "b200-dgx"}, {"DGX B200", "b200-dgx"}, {"b200 dgx", "b200-dgx"}, {"hgx b200", "b200-hgx"},
		{"b300", "b300-hgx"}, {"B300", "b300-hgx"}, {"dgx b300", "b300-hgx"}, {"HGX B300", "b300-hgx"},
	} {
		g, _, err := c.GPU(tc.in)
		if err != nil || g.ID != tc.want {
			t.Errorf("GPU(%q) = %q, %v; want %q", tc.in, g.ID, err, tc.want)
		}
	}
}

func TestCurrentModelNamesResolve(t *testing.T) {
	c := DefaultCatalog()
	for _, tc := range []struct{ in, want string }{
		{"qwen3 8b", "qwen3-8b"}, {"Qwen3-0.6B", "qwen3-0.6b"}, {"Qwen3-30B-A3B", "qwen3-30b-a3b"},
		{"qwen3-235b-a22b", "qwen3-235b-a22b"}, {"llama 3.2 1b", "llama-3.2-1b"}, {"Llama-3.2-3B", "llama-3.2-3b"},
		{"llama3.3-70b", "llama-3.3-70b"}, {"gemma 3 27b", "gemma-3-27b"}, {"gemma-3-1b", "gemma-3-1b"},
		{"mistral small", "mistral-small-24b"}, {"mistral nemo", "mistral-nemo-12b"}, {"phi-4", "phi-4"},
		{"gpt-oss-20b", "gpt-oss-20b"}, {"gpt oss 120b", "gpt-oss-120b"}, {"modernbert", "modernbert-base"},
		{"modernbert-large", "modernbert-large"}, {"vit-h/14", "vit-huge-patch14-224"}, {"convnext", "convnext-base-224"},
		{"clip vit-l/14", "clip-vit-large-patch14"}, {"deepseek coder 1.3b", "deepseek-coder-1.3b"},
		{"whisper-large-v3", "whisper-large-v3"}, {"whisper large v3", "whisper-large-v3"},
		{"whisper-small", "whisper-small"}, {"whisper small", "whisper-small"},
		{"flan-t5-xl", "flan-t5-xl"}, {"flan t5 xxl", "flan-t5-xxl"}, {"flan-t5-base", "flan-t5-base"},
		{"FLAN-T5-Large", "flan-t5-large"}, {"mt0-xxl", "mt0-xxl"},
		// unchanged readings
		{"llama-3-70b", "llama-3-70b"}, {"mistral", "mistral-7b-v0.1"}, {"bert-base", "bert-base-uncased"},
	} {
		m, _, err := c.Model(tc.in)
		if err != nil || m.ID != tc.want {
			t.Errorf("Model(%q) = %q, %v; want %q", tc.in, m.ID, err, tc.want)
		}
	}
}

// The new rows are parsed into what the formulas read: MoE routing, the
// vision forward FLOPs, and datasheet values kept dense.
func TestCurrentCatalogueRowsParse(t *testing.T) {
	c := DefaultCatalog()
	for _, tc := range []struct {
		id            string
		experts, topK int
		activeB       float64
	}{
		{"qwen3-30b-a3b", 128, 8, 3.35}, {"qwen3-235b-a22b", 128, 8, 22.19},
		{"gpt-oss-20b", 32, 4, 4.19}, {"gpt-oss-120b", 128, 4, 5.71},
	} {
		m := mustModel(t, c, tc.id)
		if m.Kind != MoE || m.Experts != tc.experts || m.TopK != tc.topK || m.ActiveB != tc.activeB {
			t.Errorf("%s: kind %s, %d experts top-%d, %.2fB active", tc.id, m.Kind, m.Experts, m.TopK, m.ActiveB)
		}
	}
	for id, want := range map[string]float64{"clip-vit-large-patch14": 162.0, "vit-huge-patch14-224": 324, "convnext-base-224": 30.8} {
		if m := mustModel(t, c, id); m.FwdGFLOPs != want {
			t.Errorf("%s: %.1f forward GFLOPs, want %.1f", id, m.FwdGFLOPs, want)
		}
	}
	// Dense, not sparse: the datasheets' starred numbers halved.
	for id, want := range map[string]float64{
		"rtx-5090": 209.5, "rtx-pro-6000-blackwell": 500, "l40": 181.05, "a40": 149.7,
		"a800-sxm4-80gb": 312, "h20": 148, "gb200-nvl72": 2500, "mi325x": 1307.4,
		"mi250x": 191.5, "b200-dgx": 2250, "b300-hgx": 2250,
	} {
		g := mustGPU(t, c, id, 1).GPU
		if got, _ := g.Peak(BF16); got != want {
			t.Errorf("%s: bf16 %.1f dense TFLOPS, want %.1f", id, got, want)
		}
	}
	if g := mustGPU(t, c, "rtx-5090", 1).GPU; !g.Consumer || g.NVLinkGBs != 0 || g.Generation != Blackwell {
		t.Errorf("rtx-5090: consumer %v, nvlink %.0f, %s", g.Consumer, g.NVLinkGBs, g.Generation)
	}
	if g := mustGPU(t, c, "gb200", 1).GPU; !g.SXM || g.NVLinkGBs != 1800 || g.PCIeGen != 5 {
		t.Errorf("gb200: sxm %v, nvlink %.0f, host gen %d", g.SXM, g.NVLinkGBs, g.PCIeGen)
	}
	// One MI250X GCD is what ROCm calls a GPU: half the module's 128 GB,
	// CDNA 2 (the AMD maturity factor), no FP8.
	if g := mustGPU(t, c, "mi250x", 1).GPU; g.MemoryGB != 64 || g.Generation != CDNA2 || !g.SXM {
		t.Errorf("mi250x: %.0f GB, %s, sxm %v", g.MemoryGB, g.Generation, g.SXM)
	} else if v, _ := g.Peak(FP8); v != 0 {
		t.Errorf("mi250x: fp8 %.0f, CDNA 2 has none", v)
	}
	if g := mustGPU(t, c, "b300", 1).GPU; g.MemoryGB != 288 || g.PCIeGen != 5 || g.NVLinkGBs != 1800 {
		t.Errorf("b300: %.0f GB, host gen %d, nvlink %.0f", g.MemoryGB, g.PCIeGen, g.NVLinkGBs)
	}
	// Whisper as the Hub derives it: encoder-decoder, both stacks in Layers.
	for id, want := range map[string]float64{"whisper-large-v3": 1.55, "whisper-small": 0.244} {
		if m := mustModel(t, c, id); m.Kind != EncDec || m.ParamsB != want || m.MaxCtx != 1500 || !m.Tied {
			t.Errorf("%s: %s, %.3gB, ctx %d, tied %v", id, m.Kind, m.ParamsB, m.MaxCtx, m.Tied)
		}
	}
	for _, g := range c.GPUs {
		if g.PriceUSD <= 0 {
			t.Errorf("%s: no price (%q)", g.ID, g.PriceSource)
		}
	}
}

// Every new model plans end to end on a new GPU: inference and a LoRA or
// fine-tune where it is a language model.
func TestCurrentCataloguePlans(t *testing.T) {
	c := DefaultCatalog()
	for _, tc := range []struct {
		model, gpu string
		n          int
		w          Workload
	}{
		{"llama-3.2-1b", "rtx-5090", 1, Finetune}, {"qwen3-8b", "l40", 1, LoRA}, {"qwen3-30b-a3b", "h20", 2, Inference},
		{"gemma-3-27b", "rtx-pro-6000-blackwell", 1, QLoRA}, {"gpt-oss-120b", "gb200", 4, Inference},
		{"llama-3.3-70b", "mi325x", 8, LoRA}, {"modernbert-base", "a40", 1, Finetune}, {"phi-4", "a800", 8, Finetune},
		{"clip-vit-large-patch14", "l40", 1, Inference}, {"convnext-base-224", "rtx-5090", 1, Inference},
		{"vit-huge-patch14-224", "h800 pcie", 1, Inference},
		{"llama-3.1-8b", "mi250x", 8, Finetune}, {"llama-3.1-405b", "b300", 8, Inference}, {"llama-3.1-70b", "dgx b200", 8, LoRA},
		{"whisper-large-v3", "rtx-4090", 1, Finetune}, {"whisper-small", "t4", 1, Inference},
		{"flan-t5-xl", "rtx-4090", 1, LoRA}, {"flan-t5-xxl", "a100-sxm4-80gb", 8, Finetune}, {"mt0-xxl", "a100-sxm4-80gb", 1, LoRA},
	} {
		j := Job{Model: mustModel(t, c, tc.model), Workload: tc.w, Precision: BF16, Stack: Tuned, GlobalBatch: 8, Steps: 100}
		res := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{mustGPU(t, c, tc.gpu, tc.n)}, Job: j})
		e := res.Plans[0]
		t.Logf("%s %s on %dx %s: %.3g s/step, %.1f of %.1f GiB, MFU %.2f", tc.model, tc.w, tc.n, tc.gpu, e.Time.StepS, e.Memory.PerGPUGiB, e.Memory.CapacityGiB, e.MFU)
		if e.Time.StepS <= 0 || math.IsNaN(e.Time.StepS) || e.Memory.PerGPUGiB <= 0 {
			t.Errorf("%s on %dx %s: step %.3g s, %.1f GiB", tc.model, tc.n, tc.gpu, e.Time.StepS, e.Memory.PerGPUGiB)
		}
	}
}

// A vision transformer's forward pass is two FLOPs per parameter per
// token, plus attention: a catalogue figure near half of that is GMACs
// written as GFLOPs (the timm cards print GMACs), which plans the model
// twice as fast as it runs.
func TestVisionTransformerGFLOPsAreFLOPs(t *testing.T) {
	c := DefaultCatalog()
	for _, m := range c.Models {
		if m.Kind != VisionViT || m.FwdGFLOPs == 0 {
			continue
		}
		tokens := float64(m.MaxCtx)
		want := 2*m.ParamsB*1e9*tokens + 4*float64(m.Layers)*tokens*tokens*float64(m.Hidden)
		if r := m.FwdGFLOPs * 1e9 / want; r < 0.85 || r > 1.15 {
			t.Errorf("%s: %.1f forward GFLOPs in the catalogue, %.1f from its parameters and %d tokens (%.2fx)", m.ID, m.FwdGFLOPs, want/1e9, m.MaxCtx, r)
		}
	}
}

// FLAN-T5 and mT0 are T5 v1.1: gated-GELU MLPs, an untied LM head and a
// decoder with cross-attention. Counted from the architecture columns
// their parameters land on the published sizes.
func TestT5V11RowsCountTheirParameters(t *testing.T) {
	c := DefaultCatalog()
	for _, id := range []string{"flan-t5-small", "flan-t5-base", "flan-t5-large", "flan-t5-xl", "flan-t5-xxl", "mt0-xxl"} {
		m := mustModel(t, c, id)
		h, f, a := float64(m.Hidden), float64(m.FFN), float64(m.Heads*m.headDim())
		per := float64(m.Layers) / 2
		n := per*(4*h*a+3*h*f) + per*(8*h*a+3*h*f) + 2*float64(m.Vocab)*h
		if !m.Gated || m.Tied || m.Kind != EncDec || math.Abs(n/1e9/m.ParamsB-1) > 0.02 {
			t.Errorf("%s: gated %v tied %v kind %s, %.3fB from the shape vs %.3fB listed", id, m.Gated, m.Tied, m.Kind, n/1e9, m.ParamsB)
		}
	}
}

// A checkpoint that ships quantised is served as shipped when the request
// names no precision: GPT-OSS-120B's MXFP4 experts fit one 80 GB H100 (as
// OpenAI publishes), DeepSeek-V3's FP8 weights fit 8x H200; said bf16,
// they do not.
func TestShippedWeightsServeAsShipped(t *testing.T) {
	c := DefaultCatalog()
	for _, tc := range []struct {
		model, gpu string
		n          int
		want       Precision
	}{{"gpt-oss-120b", "h100", 1, INT4}, {"gpt-oss-20b", "rtx-4090", 1, INT4}, {"deepseek-v3", "h200", 8, FP8}, {"deepseek-r1", "h200", 8, FP8}} {
		m := mustModel(t, c, tc.model)
		if m.Shipped != tc.want {
			t.Errorf("%s ships %q, want %q", tc.model, m.Shipped, tc.want)
		}
		hw := mustGPU(t, c, tc.gpu, tc.n)
		res := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{hw}, Job: Job{Model: m, Workload: Inference, SeqLen: 4096, GlobalBatch: 1}})
		if e := res.Plans[0]; !e.Memory.Fits || !strings.Contains(strings.Join(res.Assumptions, " "), "as the checkpoint ships") {
			t.Errorf("%s on %dx %s: fits %v (%.0f GiB), assumptions %q", tc.model, tc.n, tc.gpu, e.Memory.Fits, e.Memory.PerGPUGiB, res.Assumptions)
		}
		bf := mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{hw}, Job: Job{Model: m, Workload: Inference, SeqLen: 4096, GlobalBatch: 1, Precision: BF16}})
		if bf.Plans[0].Memory.Fits {
			t.Errorf("%s in bf16 on %dx %s fits (%.0f GiB); the unquantised model should not", tc.model, tc.n, tc.gpu, bf.Plans[0].Memory.PerGPUGiB)
		}
	}
	if m := mustModel(t, c, "llama-3.1-8b"); m.Shipped != "" {
		t.Errorf("llama-3.1-8b ships %q; 16-bit checkpoints ship nothing special", m.Shipped)
	}
}

// Sliding-window layers cache at most their window: Gemma 3 27B at 128k
// tokens fits one H100 in bf16 (5 of its 6 layers keep 1024 tokens), the
// same model with every layer global does not; below the window nothing
// changes, and training counts attention in full.
func TestSlidingWindowKVCache(t *testing.T) {
	c := DefaultCatalog()
	m := mustModel(t, c, "gemma-3-27b")
	if m.Window != 1024 || math.Abs(m.LocalShare-5.0/6) > 1e-9 {
		t.Fatalf("gemma-3-27b window %d, local share %.3f; want 1024 and 5/6", m.Window, m.LocalShare)
	}
	h100 := mustGPU(t, c, "h100", 1)
	plan := func(m Model, seq int) *Estimate {
		return mustPlan(t, c, Request{NoSearch: true, Targets: []Hardware{h100}, Job: Job{Model: m, Workload: Inference, SeqLen: seq, GlobalBatch: 1, Precision: BF16}}).Plans[0]
	}
	global := m
	global.Window, global.LocalShare = 0, 0
	if w, g := plan(m, 131072), plan(global, 131072); !w.Memory.Fits || g.Memory.Fits {
		t.Errorf("128k context on 1x H100: windowed %.1f GiB (fits %v), all-global %.1f GiB (fits %v)", w.Memory.PerGPUGiB, w.Memory.Fits, g.Memory.PerGPUGiB, g.Memory.Fits)
	}
	if w, g := plan(m, 1000), plan(global, 1000); math.Abs(w.Memory.PerGPUGiB-g.Memory.PerGPUGiB) > 1e-9 {
		t.Errorf("under the window the cache is the same: %.3f vs %.3f GiB", w.Memory.PerGPUGiB, g.Memory.PerGPUGiB)
	}
	if got := m.attnSpan(8192); math.Abs(got-(1.0/6+5.0/6*1024/8192)) > 1e-12 {
		t.Errorf("attnSpan(8192) = %.4f", got)
	}
	tj := Job{Model: m, Workload: Pretrain, SeqLen: 8192}
	tg := tj
	tg.Model = global
	if a, b := trainingFlops(tj, layout{}), trainingFlops(tg, layout{}); a.attn != b.attn {
		t.Errorf("training attention FLOPs %.3g with windows, %.3g without: training counts them in full", a.attn, b.attn)
	}
}

// Korean teams name their encoders by the Korean release (KoELECTRA,
// KoBERT, KLUE): each is read as the catalogue model of its shape, and
// every alias points at a model the catalogue has.
func TestKoreanModelAliases(t *testing.T) {
	c := DefaultCatalog()
	for name, want := range map[string]string{
		"koelectra": "koelectra-base-v3", "KoELECTRA-base-v3": "koelectra-base-v3", "kobert": "kobert",
		"klue/roberta-large": "klue-roberta-large", "klue/bert-base": "klue-bert-base", "klue-bert": "klue-bert-base",
		"klue roberta": "klue-roberta-base", "solar": "solar-10.7b",
		// Meta's own ids for Llama 3 and 3.1
		"Meta-Llama-3-8B-Instruct": "llama-3-8b", "Meta-Llama-3.1-70B-Instruct": "llama-3.1-70b",
	} {
		m, res, err := c.Model(name)
		if err != nil || m.ID != want || res.As != want && norm(name) != norm(want) {
			t.Errorf("%s: %s (%+v, %v); want %s", name, m.ID, res, err, want)
		}
	}
	for alias, id := range modelAliases {
		if _, ok := c.modelNorm[norm(id)]; !ok {
			t.Errorf("alias %s points at %s, which is not in the catalogue", alias, id)
		}
	}
}

// Embedding models and XLM-RoBERTa, which Korean teams use for retrieval
// and classification, are in the catalogue under the names people type,
// with the parameters their cards state.
func TestEmbeddingEncoders(t *testing.T) {
	c := DefaultCatalog()
	for name, want := range map[string]struct {
		id     string
		params float64
	}{
		"bge-m3": {"bge-m3", 0.568}, "multilingual-e5-large": {"multilingual-e5-large", 0.56},
		"bge-large": {"bge-large-en-v1.5", 0.335}, "e5-large": {"e5-large-v2", 0.335}, "xlm-roberta-large": {"xlm-roberta-large", 0.56},
		"xlmr-base": {"xlm-roberta-base", 0.278},
	} {
		m, _, err := c.Model(name)
		if err != nil || m.ID != want.id {
			t.Errorf("%s: %s %v; want %s", name, m.ID, err, want.id)
			continue
		}
		if got := m.Params() / 1e9; math.Abs(got/want.params-1) > 0.03 {
			t.Errorf("%s: %.3fB params, the card says %.3fB", name, got, want.params)
		}
		if m.Kind != Encoder {
			t.Errorf("%s: kind %s", name, m.Kind)
		}
	}
}

// A CNN's stored activations follow the count its model card gives, not
// its parameters: ResNet-18 has 46 % of ResNet-50's parameters and 23 %
// of its activations, ConvNeXt-Large 7.7x the parameters and 3.9x the
// activations. The ResNet-50 reference (23M values an image) is kept.
func TestCNNActivationsFollowTheCard(t *testing.T) {
	c := DefaultCatalog()
	stored := func(id string) float64 {
		t.Helper()
		m := mustModel(t, c, id)
		if m.ActivationsM == 0 {
			t.Fatalf("%s has no activation count", id)
		}
		s, _, _ := activationPerSample(&fittedParams, m, Pretrain, layout{precision: FP16}, 224, Tuned)
		return s / 2
	}
	if got := stored("resnet-50"); math.Abs(got-23e6) > 0.2e6 {
		t.Errorf("ResNet-50 stores %.1fM values an image, want 23M", got/1e6)
	}
	for id, ratio := range map[string]float64{"resnet-18": 2.5 / 11.1, "convnext-large-224": 43.1 / 11.1} {
		if r := stored(id) / stored("resnet-50"); math.Abs(r-ratio) > 0.01 {
			t.Errorf("%s stores %.2fx ResNet-50's activations, its card says %.2fx", id, r, ratio)
		}
	}
}
