package gencat

import (
	"strings"
	"testing"
	"testing/fstest"
)

const (
	gpusHeader   = "id,name,vendor,architecture,form_factor,memory_gb,mem_bw_gbs,fp32_tflops,tf32_tflops_dense,bf16_tflops_dense,fp16_tflops_dense,fp8_tflops_dense,int8_tops_dense,nvlink_gbs_bidir,host_link,tdp_w,source,confidence,notes\n"
	h100Row      = "h100-sxm,H100 SXM5 80GB,NVIDIA,Hopper (GH100),SXM5,80,3350,67,494.5,989.5,989.5,1979,1979,900,PCIe Gen5 x16,700,https://example.test/h100,high,\n"
	pricesHeader = "gpu,usd_per_gpu_hour,source\n"
	h100Price    = "h100-sxm,2.5,\"estimate, 2026\"\n"
	modelsHeader = "id,family,type,layers,hidden,heads,kv_heads,head_dim,ffn_intermediate,vocab,max_ctx,tied_embeddings,mlp,norm,position,params_b_reported,params_b_computed,active_params_b,notes,source\n"
	bertRow      = "bert-base-uncased,BERT,encoder,12,768,12,12,64,3072,30522,512,yes,gelu,layernorm,learned,0.11,0.109,,incl. pooler,https://example.test/bert\n"
)

func catalogFS(gpus, prices, models string) fstest.MapFS {
	return fstest.MapFS{
		"data/gpus.csv":   {Data: []byte(gpusHeader + gpus)},
		"data/prices.csv": {Data: []byte(pricesHeader + prices)},
		"data/models.csv": {Data: []byte(modelsHeader + models)},
	}
}

// A GPU row becomes one literal with the derived fields (generation,
// PCIe generation, SXM, family, claim score) and its price; a model row
// its typed fields; zero values are left out.
func TestGenerateRows(t *testing.T) {
	src, err := Generate(catalogFS(h100Row, h100Price,
		bertRow+"deepseek-v3,DeepSeek,decoder,61,7168,128,128,,18432,129280,163840,no,swiglu; 256 routed experts top-8 + 1 shared,rmsnorm,rope,671,,37,,https://example.test/ds\n"+
			"resnet-50,ResNet,cnn,50 (conv),,,,,,,224,no,,batchnorm,,0.0256,,,~4.1 GFLOPs fwd at 224x224 (11.1M activations),https://example.test/rn\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`{ID: "h100-sxm", Name: "H100 SXM5 80GB", Vendor: "NVIDIA", Generation: Hopper, FormFactor: "SXM5", MemoryGB: 80, MemBWGBs: 3350, peak: peakTable{pkFP32: 67, pkTF32: 494.5, pkBF16: 989.5, pkFP16: 989.5, pkFP8: 1979, pkINT8: 1979}, NVLinkGBs: 900, PCIeGen: 5, TDPW: 700, SXM: true, PriceUSD: 2.5, PriceSource: "estimate, 2026", Source: "https://example.test/h100", Confidence: "high", family: "h100", defaultScore: 1080},`,
		`{ID: "bert-base-uncased", Family: "BERT", Kind: Encoder, Layers: 12, Hidden: 768, Heads: 12, KVHeads: 12, HeadDim: 64, FFN: 3072, Vocab: 30522, MaxCtx: 512, Tied: true, Learned: true, ParamsB: 0.11, Source: "https://example.test/bert", Notes: "incl. pooler", Origin: "catalogue"},`,
		`Kind: MoE, Layers: 61,`, `Gated: true, ParamsB: 671, ActiveB: 37, Experts: 256, TopK: 8,`,
		`{ID: "resnet-50", Family: "ResNet", Kind: VisionConv, Layers: 50, MaxCtx: 224, ParamsB: 0.0256, FwdGFLOPs: 4.1, ActivationsM: 11.1,`,
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("generated source lacks\n%s\nin\n%s", want, src)
		}
	}
}

// What the planner refused at run time, the generator refuses, naming
// the row.
func TestGenerateRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, gpus, prices, models, want string
	}{
		{"no price row", h100Row, "", bertRow, "gpu h100-sxm has no price row"},
		{"no source", strings.Replace(h100Row, "https://example.test/h100", "", 1), h100Price, bertRow, "data/gpus.csv: row 2 has no source"},
		{"unknown architecture", strings.Replace(h100Row, "Hopper (GH100)", "Rubin", 1), h100Price, bertRow, `gpu h100-sxm: unknown architecture "Rubin"`},
		{"no memory", strings.Replace(h100Row, ",80,3350,", ",,3350,", 1), h100Price, bertRow, "gpu h100-sxm: memory and bandwidth are required"},
		{"not a number", strings.Replace(h100Row, ",67,", ",NaN,", 1), h100Price, bertRow, "gpu h100-sxm: fp32_tflops is NaN"},
		{"no parameters", h100Row, h100Price, strings.Replace(bertRow, ",0.11,", ",,", 1), "model bert-base-uncased: no parameter count"},
		{"MoE without top-k", h100Row, h100Price, strings.Replace(bertRow, ",gelu,", ",8 experts,", 1), "model bert-base-uncased: MoE needs expert count, top-k and active parameters"},
		{"vision without GFLOPs", h100Row, h100Price, strings.Replace(bertRow, ",encoder,", ",cnn,", 1), "model bert-base-uncased: vision model without forward GFLOPs in notes"},
	} {
		_, err := Generate(catalogFS(tc.gpus, tc.prices, tc.models))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		}
	}
}

// The weight format a checkpoint ships in is read from the notes.
func TestShippedFormat(t *testing.T) {
	for notes, want := range map[string]string{
		"experts ship in MXFP4 (~60.8 GiB checkpoint)": "INT4",
		"trained FP8; weights ship in FP8 (e4m3)":      "FP8",
		"tied embeddings; model card 3.21B":            "",
	} {
		if got := shippedFormat(notes); got != want {
			t.Errorf("shippedFormat(%q) = %q, want %q", notes, got, want)
		}
	}
}

// Sliding-window attention is read from the position and notes columns.
func TestSlidingWindow(t *testing.T) {
	for _, tc := range []struct {
		position, notes string
		window          int
		share           float64
	}{
		{"rope; 5 local (1024 window) : 1 global", "", 1024, 5.0 / 6},
		{"rope; alternating 4096 sliding window", "", 4096, 0.5},
		{"rope(yarn factor 32); alternating full / 128-token sliding-window attention with sinks", "", 128, 0.5},
		{"rope", "sliding window 4096 (v0.1)", 4096, 1},
		{"rope; global attention every 3rd layer, 128-token local window otherwise", "", 128, 2.0 / 3},
		{"rope", "", 0, 0},
	} {
		w, s := slidingWindow(tc.position, tc.notes)
		if w != tc.window || s != tc.share {
			t.Errorf("slidingWindow(%q, %q) = %d, %.3f; want %d, %.3f", tc.position, tc.notes, w, s, tc.window, tc.share)
		}
	}
}

// An NVLink-C2C host link (GB200, GH200) is read with its bandwidth; a
// PCIe one is not.
func TestC2CHostLink(t *testing.T) {
	for host, want := range map[string]float64{
		"NVLink-C2C 900 GB/s to the Grace CPU (faster than PCIe Gen5 x16)": 900,
		"PCIe Gen5 x16 (128 GB/s bidir)":                                   0,
		"NVLink-C2C":                                                       0,
	} {
		if got := c2cGBs(host); got != want {
			t.Errorf("%q: %v, want %v", host, got, want)
		}
	}
}
