package hub

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

// recorded describes one config.json in testdata and the published size
// of the model it belongs to (model cards, papers; see testdata/README.md).
type recorded struct {
	file, id string
	kind     planner.ModelKind
	paramsB  float64 // published total
	tol      float64 // relative tolerance on paramsB
	activeB  float64 // published active per token (MoE)
	activeTl float64
	catalog  string  // the same architecture in the planner's catalogue, if any
	gflops   float64 // published forward multiply-adds per sample (G), vision models: the derivation's FLOPs are twice
}

var recordedConfigs = []recorded{
	{file: "meta-llama_Llama-3.2-3B.json", id: "meta-llama/Llama-3.2-3B", kind: planner.Decoder, paramsB: 3.21, tol: 0.01},
	{file: "meta-llama_Llama-3.1-8B.json", id: "meta-llama/Llama-3.1-8B", kind: planner.Decoder, paramsB: 8.03, tol: 0.01, catalog: "llama-3.1-8b"},
	{file: "Qwen_Qwen2.5-7B.json", id: "Qwen/Qwen2.5-7B", kind: planner.Decoder, paramsB: 7.61, tol: 0.01, catalog: "qwen2.5-7b"},
	{file: "Qwen_Qwen2.5-0.5B.json", id: "Qwen/Qwen2.5-0.5B", kind: planner.Decoder, paramsB: 0.49, tol: 0.01, catalog: "qwen2.5-0.5b"},
	{file: "Qwen_Qwen3-0.6B.json", id: "Qwen/Qwen3-0.6B", kind: planner.Decoder, paramsB: 0.6, tol: 0.01},
	{file: "Qwen_Qwen3-8B.json", id: "Qwen/Qwen3-8B", kind: planner.Decoder, paramsB: 8.2, tol: 0.01},
	{file: "Qwen_Qwen3-30B-A3B.json", id: "Qwen/Qwen3-30B-A3B", kind: planner.MoE, paramsB: 30.5, tol: 0.01, activeB: 3.3, activeTl: 0.03},
	{file: "mistralai_Mixtral-8x7B-v0.1.json", id: "mistralai/Mixtral-8x7B-v0.1", kind: planner.MoE, paramsB: 46.7, tol: 0.01, activeB: 12.9, activeTl: 0.01, catalog: "mixtral-8x7b"},
	{file: "deepseek-ai_DeepSeek-V3.json", id: "deepseek-ai/DeepSeek-V3", kind: planner.MoE, paramsB: 671, tol: 0.01, activeB: 37, activeTl: 0.02, catalog: "deepseek-v3"},
	{file: "deepseek-ai_DeepSeek-R1.json", id: "deepseek-ai/DeepSeek-R1", kind: planner.MoE, paramsB: 671, tol: 0.01, activeB: 37, activeTl: 0.02}, // not compared with the catalogue row, whose mlp cell ("same as deepseek-v3") leaves it without experts
	// Kimi K2's exact count is known: 1,026,470,731,056 tensor elements in
	// its safetensors, of which ~61M are FP8 block scales.
	{file: "moonshotai_Kimi-K2-Instruct.json", id: "moonshotai/Kimi-K2-Instruct", kind: planner.MoE, paramsB: 1026.47, tol: 0.001, activeB: 32, activeTl: 0.03},
	// EXAONE 3.0/3.5 (model_type exaone) say num_layers, not num_hidden_layers.
	{file: "heegyu_EXAONE-3.0-7.8B-Instruct-bf16.json", id: "heegyu/EXAONE-3.0-7.8B-Instruct-bf16", kind: planner.Decoder, paramsB: 7.82, tol: 0.01},
	{file: "openai-community_gpt2.json", id: "openai-community/gpt2", kind: planner.Decoder, paramsB: 0.124, tol: 0.01, catalog: "gpt2"},
	{file: "google-bert_bert-base-uncased.json", id: "google-bert/bert-base-uncased", kind: planner.Encoder, paramsB: 0.110, tol: 0.01, catalog: "bert-base-uncased"},
	{file: "google_vit-base-patch16-224.json", id: "google/vit-base-patch16-224", kind: planner.VisionViT, paramsB: 0.0866, tol: 0.005, catalog: "vit-base-patch16-224", gflops: 17.6},
	{file: "openai_whisper-small.json", id: "openai/whisper-small", kind: planner.EncDec, paramsB: 0.242, tol: 0.01},
	// A fine-tune of answerdotai/ModernBERT-large (395M) with a two-class head.
	{file: "MoritzLaurer_ModernBERT-large-zeroshot-v2.0.json", id: "MoritzLaurer/ModernBERT-large-zeroshot-v2.0", kind: planner.Encoder, paramsB: 0.395, tol: 0.01},
	{file: "google-t5_t5-small.json", id: "google-t5/t5-small", kind: planner.EncDec, paramsB: 0.0605, tol: 0.01},
	// OpenCLIP's table: ViT-B/32 4.41 image + 2.96 text "GFLOPs", which are
	// multiply-adds (88M vision parameters × 50 tokens is 4.4 G of them).
	{file: "openai_clip-vit-base-patch32.json", id: "openai/clip-vit-base-patch32", kind: planner.VisionViT, paramsB: 0.1513, tol: 0.005, gflops: 7.37},
}

func readTestdata(t testing.TB, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func relErr(got, want float64) float64 { return math.Abs(got-want) / want }

// The parameter count computed from each recorded config.json is within a
// few per cent of the published size.
func TestRecordedConfigsMatchPublishedSizes(t *testing.T) {
	for _, rc := range recordedConfigs {
		t.Run(rc.id, func(t *testing.T) {
			m, err := ModelFromConfig(rc.id, readTestdata(t, rc.file))
			if err != nil {
				t.Fatal(err)
			}
			if m.ID != rc.id || m.Origin != "hub" || m.Kind != rc.kind {
				t.Errorf("ID %q Origin %q Kind %q, want %q hub %q", m.ID, m.Origin, m.Kind, rc.id, rc.kind)
			}
			if want := "https://huggingface.co/" + rc.id + "/resolve/main/config.json"; m.Source != want {
				t.Errorf("Source %q, want %q", m.Source, want)
			}
			t.Logf("%s: %.6gB params, %.4gB active, %s", rc.id, m.ParamsB, m.ActiveB, m.Notes)
			if e := relErr(m.ParamsB, rc.paramsB); e > rc.tol {
				t.Errorf("params %.4gB, published %.4gB (off %.2f%%, allowed %.2f%%)", m.ParamsB, rc.paramsB, 100*e, 100*rc.tol)
			}
			if rc.activeB > 0 {
				if e := relErr(m.ActiveB, rc.activeB); e > rc.activeTl {
					t.Errorf("active %.4gB, published %.4gB (off %.2f%%)", m.ActiveB, rc.activeB, 100*e)
				}
				if m.Experts == 0 || m.TopK == 0 || m.TopK > m.Experts {
					t.Errorf("experts %d top-%d", m.Experts, m.TopK)
				}
			} else if m.ActiveB != 0 {
				t.Errorf("dense model with ActiveB %v", m.ActiveB)
			}
			if rc.gflops > 0 {
				if e := relErr(m.FwdGFLOPs, 2*rc.gflops); e > 0.02 {
					t.Errorf("forward %.4g GFLOPs, published %.4g G multiply-adds", m.FwdGFLOPs, rc.gflops)
				}
			} else if m.FwdGFLOPs != 0 {
				t.Errorf("FwdGFLOPs %v on a token model", m.FwdGFLOPs)
			}
			if m.Layers <= 0 || m.Hidden <= 0 || m.Heads <= 0 || m.KVHeads <= 0 || m.HeadDim <= 0 || m.FFN <= 0 {
				t.Errorf("incomplete architecture: %+v", m)
			}
			if m.Heads%m.KVHeads != 0 {
				t.Errorf("heads %d not a multiple of kv heads %d", m.Heads, m.KVHeads)
			}
			if !strings.Contains(m.Notes, "derived from config.json") {
				t.Errorf("notes %q", m.Notes)
			}
		})
	}
}

// The architecture read from config.json agrees with the planner's
// catalogue row for the same model, and the computed count with the
// catalogue's reported one.
func TestRecordedConfigsMatchCatalogue(t *testing.T) {
	cat := planner.DefaultCatalog()
	checked := 0
	for _, rc := range recordedConfigs {
		if rc.catalog == "" {
			continue
		}
		want, _, err := cat.Model(rc.catalog)
		if err != nil || want.ID != rc.catalog {
			t.Logf("catalogue has no %s any more; skipped", rc.catalog)
			continue
		}
		checked++
		got, err := ModelFromConfig(rc.id, readTestdata(t, rc.file))
		if err != nil {
			t.Fatal(err)
		}
		type arch struct {
			Kind                                       planner.ModelKind
			Layers, Hidden, Heads, KVHeads, FFN, Vocab int
			Tied, Gated                                bool
			Experts, TopK                              int
		}
		a := func(m planner.Model) arch {
			return arch{m.Kind, m.Layers, m.Hidden, m.Heads, m.KVHeads, m.FFN, m.Vocab, m.Tied, m.Gated, m.Experts, m.TopK}
		}
		ga, wa := a(got), a(want)
		if want.Kind == planner.VisionViT {
			ga.Vocab, ga.Tied = wa.Vocab, wa.Tied // the catalogue leaves them blank for vision rows
		}
		if ga != wa {
			t.Errorf("%s: architecture %+v, catalogue %+v", rc.id, ga, wa)
		}
		if got.HeadDim != 0 && want.HeadDim != 0 && got.HeadDim != want.HeadDim {
			t.Errorf("%s: head_dim %d, catalogue %d", rc.id, got.HeadDim, want.HeadDim)
		}
		if e := relErr(got.ParamsB, want.ParamsB); e > 0.02 {
			t.Errorf("%s: %.4gB params, catalogue %.4gB", rc.id, got.ParamsB, want.ParamsB)
		}
		if want.ActiveB > 0 {
			if e := relErr(got.ActiveB, want.ActiveB); e > 0.02 {
				t.Errorf("%s: %.4gB active, catalogue %.4gB", rc.id, got.ActiveB, want.ActiveB)
			}
		}
		if want.FwdGFLOPs > 0 {
			if e := relErr(got.FwdGFLOPs, want.FwdGFLOPs); e > 0.02 {
				t.Errorf("%s: %.4g forward GFLOPs, catalogue %.4g", rc.id, got.FwdGFLOPs, want.FwdGFLOPs)
			}
		}
		if got.Learned != want.Learned {
			t.Errorf("%s: learned positions %v, catalogue %v", rc.id, got.Learned, want.Learned)
		}
	}
	if checked < 5 {
		t.Errorf("only %d recorded configs have catalogue rows to compare with", checked)
	}
}

// Details of the derivation that the totals alone would not catch.
func TestDerivationDetails(t *testing.T) {
	derive := func(file, id string) planner.Model {
		t.Helper()
		m, err := ModelFromConfig(id, readTestdata(t, file))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	// Llama 3.2 3B: GQA 24/8, head_dim 128, tied embeddings, 128k context.
	l := derive("meta-llama_Llama-3.2-3B.json", "meta-llama/Llama-3.2-3B")
	if l.Heads != 24 || l.KVHeads != 8 || l.HeadDim != 128 || !l.Tied || !l.Gated || l.MaxCtx != 131072 || l.Family != "Llama" {
		t.Errorf("Llama-3.2-3B: %+v", l)
	}
	// Qwen3-30B-A3B: every layer sparse, 128 experts top-8.
	q := derive("Qwen_Qwen3-30B-A3B.json", "Qwen/Qwen3-30B-A3B")
	if q.Experts != 128 || q.TopK != 8 || q.Tied || strings.Contains(q.Notes, "dense") {
		t.Errorf("Qwen3-30B-A3B: %+v", q)
	}
	// DeepSeek-V3: 3 dense layers, MLA noted, the MTP layer left out.
	d := derive("deepseek-ai_DeepSeek-V3.json", "deepseek-ai/DeepSeek-V3")
	for _, s := range []string{"3 dense layers", "latent", "multi-token-prediction"} {
		if !strings.Contains(d.Notes, s) {
			t.Errorf("DeepSeek-V3 notes lack %q: %s", s, d.Notes)
		}
	}
	if d.HeadDim != 192 || d.MaxCtx != 163840 {
		t.Errorf("DeepSeek-V3: head_dim %d ctx %d", d.HeadDim, d.MaxCtx)
	}
	// GPT-2: learned positions over 1024 tokens, FFN 4h from a null n_inner.
	g := derive("openai-community_gpt2.json", "openai-community/gpt2")
	if !g.Learned || g.MaxCtx != 1024 || g.FFN != 3072 || g.Gated {
		t.Errorf("gpt2: %+v", g)
	}
	// ViT: 197 tokens, the 1000-class head counted, ~35.2 GFLOPs (timm's
	// 17.6 GMACs).
	v := derive("google_vit-base-patch16-224.json", "google/vit-base-patch16-224")
	if v.MaxCtx != 197 || math.Abs(v.FwdGFLOPs-35.2) > 0.4 || !strings.Contains(v.Notes, "1000-class head") {
		t.Errorf("vit: ctx %d GFLOPs %.2f notes %s", v.MaxCtx, v.FwdGFLOPs, v.Notes)
	}
}

// A config.json that is not JSON, lacks fields, or has an unknown type
// gets a clear, typed error.
func TestModelFromConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, cfg string
		kind      error
		says      []string
	}{
		{"not json", "<html>rate limited</html>", ErrMalformed, []string{"not a JSON object"}},
		{"array", "[1,2]", ErrMalformed, []string{"not a JSON object"}},
		{"no type", `{"hidden_size": 8}`, ErrMalformed, []string{"no model_type"}},
		{"missing fields", `{"model_type": "llama", "hidden_size": 4096}`, ErrMalformed,
			[]string{"lacks", "num_hidden_layers", "num_attention_heads", "intermediate_size", "vocab_size"}},
		{"bad heads", `{"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 2, "num_attention_heads": 32,
			"num_key_value_heads": 5, "intermediate_size": 1, "vocab_size": 2}`, ErrMalformed, []string{"num_key_value_heads 5"}},
		{"negative", `{"model_type": "gpt2", "n_layer": -1, "n_embd": 8, "n_head": 1, "n_positions": 8, "vocab_size": 8}`,
			ErrMalformed, []string{"n_layer is -1"}},
		{"unknown type", `{"model_type": "mamba", "hidden_size": 768}`, ErrUnsupported,
			[]string{`"mamba"`, "supported model types", "llama", "deepseek_v3", "whisper", "clip"}},
	} {
		_, err := ModelFromConfig("org/model", []byte(tc.cfg))
		if !errors.Is(err, tc.kind) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.kind)
			continue
		}
		var he *Error
		if !errors.As(err, &he) || he.ID != "org/model" {
			t.Errorf("%s: not an *Error for the model: %#v", tc.name, err)
		}
		for _, s := range tc.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %q does not say %q", tc.name, err, s)
			}
		}
	}
}

func TestSupportedTypesCoverTheFamilies(t *testing.T) {
	got := strings.Join(SupportedTypes(), ",")
	for _, mt := range []string{"llama", "mistral", "qwen2", "qwen3", "gemma", "gemma2", "phi3", "mixtral", "qwen2_moe",
		"qwen3_moe", "deepseek_v2", "deepseek_v3", "gpt2", "bert", "roberta", "modernbert", "t5", "vit", "clip", "whisper"} {
		if !strings.Contains(","+got+",", ","+mt+",") {
			t.Errorf("%s not supported: %s", mt, got)
		}
	}
}

// A config.json's quantization_config says how the checkpoint's weights
// ship: DeepSeek-R1's and Kimi K2's recorded files are FP8; a plain
// config has none; the common methods map to their bits.
func TestShippedWeightFormat(t *testing.T) {
	for _, tc := range []struct {
		file string
		want planner.Precision
	}{{"deepseek-ai_DeepSeek-R1.json", planner.FP8}, {"moonshotai_Kimi-K2-Instruct.json", planner.FP8}, {"meta-llama_Llama-3.1-8B.json", ""}} {
		raw, err := os.ReadFile(filepath.Join("testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		m, err := ModelFromConfig(strings.TrimSuffix(tc.file, ".json"), raw)
		if err != nil {
			t.Fatal(err)
		}
		if m.Shipped != tc.want {
			t.Errorf("%s ships %q, want %q", tc.file, m.Shipped, tc.want)
		}
	}
	for q, want := range map[string]planner.Precision{
		`{"quant_method": "mxfp4"}`:                              planner.INT4,
		`{"quant_method": "gptq", "bits": 4}`:                    planner.INT4,
		`{"quant_method": "awq", "bits": 8}`:                     planner.INT8,
		`{"quant_method": "bitsandbytes", "load_in_8bit": true}`: planner.INT8,
		`{"quant_method": "compressed-tensors"}`:                 "",
	} {
		var c map[string]any
		if err := json.Unmarshal([]byte(q), &c); err != nil {
			t.Fatal(err)
		}
		if got := shippedFormat(conf(c)); got != want {
			t.Errorf("%s: %q, want %q", q, got, want)
		}
	}
}

// Sliding windows are read where the family uses them: layer_types names
// the local layers, Gemma 3 has one global layer in its pattern, Gemma 2
// alternates, Mistral windows every layer, and Qwen's unused
// sliding_window (use_sliding_window false) counts for nothing.
func TestSlidingWindowFromConfig(t *testing.T) {
	for _, tc := range []struct {
		mt, cfg string
		window  int
		share   float64
	}{
		{"gemma3_text", `{"sliding_window": 1024, "sliding_window_pattern": 6}`, 1024, 5.0 / 6},
		{"gpt_oss", `{"sliding_window": 128, "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention"]}`, 128, 0.5},
		{"gemma2", `{"sliding_window": 4096}`, 4096, 0.5},
		{"mistral", `{"sliding_window": 4096}`, 4096, 1},
		{"mistral", `{"sliding_window": null}`, 0, 0},
		{"qwen2", `{"sliding_window": 131072, "use_sliding_window": false}`, 0, 0},
	} {
		var c map[string]any
		if err := json.Unmarshal([]byte(tc.cfg), &c); err != nil {
			t.Fatal(err)
		}
		if w, s := slidingWindow(tc.mt, conf(c)); w != tc.window || math.Abs(s-tc.share) > 1e-9 {
			t.Errorf("%s %s: window %d share %.3f, want %d %.3f", tc.mt, tc.cfg, w, s, tc.window, tc.share)
		}
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "Qwen_Qwen2.5-7B.json"))
	if err != nil {
		t.Fatal(err)
	}
	if m, err := ModelFromConfig("Qwen/Qwen2.5-7B", raw); err != nil || m.Window != 0 {
		t.Errorf("Qwen2.5-7B: window %d (%v); its config's sliding_window is unused", m.Window, err)
	}
}
