package lang

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

// Serving requests as people type them: engine names, vllm bench's
// lengths and loads, llama.cpp's flags and GGUF types, the KV cache's
// type next to `kv 8` heads. Each reading restates in words that read
// back to the same job.
func TestServingWords(t *testing.T) {
	cat := planner.DefaultCatalog()
	type want struct {
		engine   planner.Engine
		seq, gen int
		conc     int
		rate     float64
		kv       planner.Precision
		quant    planner.QuantMethod
		gguf     string
		prec     planner.Precision
		ngl      int
		split    planner.Split
		workload planner.Workload
		kvHeads  int
	}
	cases := []struct {
		text string
		w    want
	}{
		{"llama-3.1-8b on vllm, in 1024 out 256, 64 concurrent requests on h100", want{engine: planner.EngineVLLM, seq: 1280, gen: 256, conc: 64}},
		{"serve llama-3.1-70b with vLLM input 1000 output 200 at 10 req/s on 4x h100", want{engine: planner.EngineVLLM, seq: 1200, gen: 200, rate: 10}},
		{"llama-3.1-8b tgi prompt 1k gen 256 concurrency 32 on a100", want{engine: planner.EngineTGI, seq: 1280, gen: 256, conc: 32}},
		{"llama-3.1-70b tensorrt-llm isl 2048 osl 128 fp8 kv cache on 8x h100", want{engine: planner.EngineTRTLLM, seq: 2176, gen: 128, kv: planner.FP8}},
		{"qwen3-32b sglang kv fp8 1024 in / 256 out on h200", want{engine: planner.EngineSGLang, seq: 1280, gen: 256, kv: planner.FP8}},
		{"llama-3.1-70b awq vllm on 2x a100", want{engine: planner.EngineVLLM, quant: planner.AWQ, prec: planner.INT4}},
		{"llama-3.1-8b gptq int8 inference on l4", want{quant: planner.GPTQ, prec: planner.INT8}},
		{"mistral-7b-v0.1 bitsandbytes 4bit inference on t4", want{quant: planner.BNB, prec: planner.INT4}},
		{"llama-3.1-70b Q4_K_M on 2x rtx 4090", want{quant: planner.GGUF, gguf: "Q4_K_M"}},
		{"llama-3.1-8b q8_0 llama.cpp on rtx 3090", want{engine: planner.EngineLlamaCpp, quant: planner.GGUF, gguf: "Q8_0"}},
		{"ollama llama-3.1-70b q4_k_m ngl 40 on 4090", want{engine: planner.EngineOllama, gguf: "Q4_K_M", quant: planner.GGUF, ngl: 40}},
		{"llama-3.1-70b gguf offload 20 layers to gpu on a single 4090", want{quant: planner.GGUF, gguf: "Q4_K_M", ngl: 20}},
		{"llama-3.1-70b q4_k_m 30 layers on cpu on 4090", want{quant: planner.GGUF, gguf: "Q4_K_M", ngl: 50}},
		{"llama-3.1-70b q4_k_m --split-mode row on 2x 3090", want{quant: planner.GGUF, gguf: "Q4_K_M", split: planner.SplitTensor}},
		{"llama-3.1-70b q4_k_m layer split on 2x 3090", want{quant: planner.GGUF, gguf: "Q4_K_M", split: planner.SplitLayer}},
		{"llama-3.1-8b -ngl 0 q4_0 llama.cpp on 4090", want{engine: planner.EngineLlamaCpp, quant: planner.GGUF, gguf: "Q4_0", ngl: -1}},
		// `kv 8` is still KV heads; `kv int8` is the cache
		{"layers 32 hidden 4096 heads 32 kv 8 inference kv int8 on h100", want{kv: planner.INT8, kvHeads: 8, workload: planner.Inference}},
		{"llama-3.1-8b finish in 3 days on h100", want{workload: planner.Finetune}},
		// TensorRT for an encoder or a CNN is TensorRT itself, not TensorRT-LLM
		{"bert-large inference seq 384 batch 8 fp16 tensorrt on a100", want{engine: planner.EngineTensorRT, seq: 384, workload: planner.Inference, prec: planner.FP16}},
		{"resnet-50 trt int8 batch 64 on t4", want{engine: planner.EngineTensorRT, workload: planner.Inference, prec: planner.INT8}},
		{"llama-3.1-8b tensorrt in 512 out 128 on h100", want{engine: planner.EngineTRTLLM, seq: 640, gen: 128}},
	}
	for _, c := range cases {
		r, err := Read(Env{Catalog: cat}, c.text)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		j := r.Request.Job
		w := c.w
		if w.workload == "" {
			w.workload = planner.Inference
		}
		got := want{engine: j.Engine, conc: j.Concurrency, rate: j.RequestRate, kv: j.KVPrecision, quant: j.Quant, gguf: j.GGUFType,
			ngl: j.GPULayers, split: j.Split, workload: j.Workload}
		if w.seq > 0 {
			got.seq, got.gen = j.SeqLen, j.GenTokens
		}
		if w.prec != "" {
			got.prec = j.Precision
		}
		if w.kvHeads > 0 {
			got.kvHeads = j.Model.KVHeads
		}
		if j.Workload == "" && w.workload == planner.Finetune {
			got.workload = planner.Finetune // the planner fills it
		}
		if got != w {
			t.Errorf("%q:\n got %+v\nwant %+v", c.text, got, w)
			continue
		}
		// the reading restates the request in words that read back the same
		again := readingText(cat, r)
		r2, err := Read(Env{Catalog: cat}, again)
		if err != nil {
			t.Errorf("%q: its reading %q does not parse: %v", c.text, again, err)
			continue
		}
		j2 := r2.Request.Job
		if j2.Engine != j.Engine || j2.SeqLen != j.SeqLen || j2.GenTokens != j.GenTokens || j2.Concurrency != j.Concurrency ||
			j2.RequestRate != j.RequestRate || j2.KVPrecision != j.KVPrecision || j2.Quant != j.Quant || j2.GGUFType != j.GGUFType ||
			j2.GPULayers != j.GPULayers || j2.Split != j.Split || j2.Precision != j.Precision {
			t.Errorf("%q: reading %q reads back as %+v", c.text, again, j2)
		}
	}
}

// Contradictions are refused with a correction that parses.
func TestServingRefusals(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, text := range []string{
		"llama-3.1-8b lora vllm on h100",
		"llama-3.1-8b vllm q4_k_m on h100",
		"llama-3.1-8b vllm tgi on h100",
		"llama-3.1-8b awq fp16 vllm on h100",
		"llama-3.1-8b ngl 20 30 layers on cpu q4_0 on 4090",
		"llama-3.1-8b vllm seq 4096 in 1024 out 256 on h100",
	} {
		_, err := Read(Env{Catalog: cat}, text)
		ue, ok := err.(*UserError)
		if !ok {
			t.Errorf("%q: want a refusal, got %v", text, err)
			continue
		}
		if next, ok := strings.CutPrefix(ue.Hint, "try: gpuplan plan "); ok {
			if _, err := Read(Env{Catalog: cat}, next); err != nil {
				t.Errorf("%q: hint %q does not parse: %v", text, next, err)
			}
		}
	}
}

// Frameworks and servers the planner has no model of are passed over and
// said so, not refused as a GPU (`triton` is not a mistyped `titan`) or a
// precision (`tf2` is not `tf32`).
func TestSoftwareNamesAreSkipped(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, w := range []string{"triton", "tf2", "xla", "onnxruntime", "openvino"} {
		text := "bert-large inference seq 128 batch 1 fp16 " + w + " on v100"
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		ra := ReadAs(nil, r)
		if reqGraphRuntimes[w] {
			// an encoder served by a graph runtime: read as that engine
			if !strings.Contains(ra, "graph-runtime") || strings.Contains(ra, "skipped") || r.Request.Job.Precision != planner.FP16 || !strings.Contains(ra, "v100") {
				t.Errorf("%q read as %q, want the graph runtime, fp16 and the V100", text, ra)
			}
			continue
		}
		if !strings.Contains(ra, "skipped: "+w) || !strings.Contains(ra, "v100") {
			t.Errorf("%q read as %q, want %s skipped and the V100 kept", text, ra, w)
		}
	}
}

// Two floating-point formats in one message are a choice being made
// ("bf16 won't run on a V100, so fp16"; "fp8 or bf16, doesn't matter"):
// the last one named is planned, and the reading says so. A weight format
// against a compute format is still a question back.
func TestLastFloatFormatWins(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]planner.Precision{
		"qwen3 8b lora on v100 32gb? bf16 won't work there so fp16":            planner.FP16,
		"fp8 or bf16 doesn't matter, does qwen3 32b inference fit on one h100": planner.BF16,
		"bert-base bf16 fp16 on h100":                                          planner.FP16,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if j := r.Request.Job; j.Precision != want || !strings.Contains(strings.Join(j.Notes, " "), "the last one") {
			t.Errorf("%q: precision %q, notes %q; want %s and a note", text, j.Precision, j.Notes, want)
		}
	}
	if _, err := Read(Env{Catalog: cat}, "llama-3.1-8b int4 bf16 on h100"); err == nil || !strings.Contains(err.Error(), "two precisions") {
		t.Errorf("int4 against bf16: %v, want a question back", err)
	}
}

// A message that names two models: with a measured run, the model named
// nearest before it is the run's and the other is planned; without one,
// the last model named (after a sentence ends) is planned. Two models side
// by side are still a question back.
func TestTwoModelsInOneMessage(t *testing.T) {
	cat := planner.DefaultCatalog()
	cases := []struct{ text, plan, ran string }{
		{"we ran qwen2.5 3b lora at 1.8 h/epoch on 2x 3090 last week. for qwen2.5 7b lora on a100, how many GPUs do we need?", "qwen2.5-7b", "qwen2.5-3b"},
		{"qwen2.5 7b lora on a100: how many GPUs? we ran qwen2.5 3b lora at 1.8 h/epoch on 2x 3090", "qwen2.5-7b", "qwen2.5-3b"},
		{"We fine-tuned llama 3.1 8b and it took 9 hours per epoch on 2x A100. Now the 70b version on the same data, how many H100s?", "llama-3.1-70b", "llama-3.1-8b"},
		{"지난 분기에 라마2 7b 파인튜닝 했었는데요. 이번엔 13b로 키우려고 합니다. 20만 건, 3에폭", "llama-2-13b", ""},
		{"phi-3 medium 로라랑 qwen2.5 14b 로라 중에 고민 중입니다. 일단 qwen2.5 14b로 할게요. a100 두 장", "qwen2.5-14b", ""},
	}
	for _, c := range cases {
		r, err := Read(Env{Catalog: cat}, c.text)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		req := r.Request
		if req.Job.Model.ID != c.plan {
			t.Errorf("%q: planned %s, want %s", c.text, req.Job.Model.ID, c.plan)
		}
		switch b := req.Baseline; {
		case c.ran == "" && b != nil && b.Model != nil:
			t.Errorf("%q: a measured run's model %s where none was said", c.text, b.Model.ID)
		case c.ran != "" && (b == nil || b.Model == nil || b.Model.ID != c.ran):
			t.Errorf("%q: measured run %+v, want one of %s", c.text, b, c.ran)
		}
		// the reading restates the run's model and reads back the same
		text := readingText(cat, r)
		again, err := Read(Env{Catalog: cat}, text)
		if err != nil || again.Request.Job.Model.ID != c.plan || (c.ran != "" && (again.Request.Baseline == nil || again.Request.Baseline.Model == nil || again.Request.Baseline.Model.ID != c.ran)) {
			t.Errorf("%q: its reading %q does not read back: %v", c.text, text, err)
		}
	}
	for _, text := range []string{"bert-base gpt2 on h100", "bert-base compare on bert-large"} {
		if _, err := Read(Env{Catalog: cat}, text); err == nil || !strings.Contains(err.Error(), "two models") {
			t.Errorf("%q: %v, want a question back", text, err)
		}
	}
}

// readingText is a reading's restatement as a request: the "Read as" line
// without its notes in brackets and its separators.
func readingText(cat *planner.Catalog, r Reading) string {
	return strings.ReplaceAll(RequestText(cat, r), " · ", " ")
}

// One machine and then its GPUs ("one HGX H200 node (8 GPUs)", "노드
// 하나(A100 8장)") is that many GPUs, not a count given twice; two counts
// with no machine word between them are still asked about.
func TestOneMachineThenItsGPUs(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]int{
		"llama 3.1 405b fp8 serving: does it fit on one HGX H200 node (8 GPUs)?": 8,
		"phi-3 mini 파인튜닝 10만건, 노드 하나(A100 8장)면 시간 얼마나 걸릴까":                       8,
		"bert-base on 1 dgx a100 x8": 8,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if ts := r.Request.Targets; len(ts) != 1 || ts[0].Count != want {
			t.Errorf("%q: targets %+v, want %d GPUs", text, ts, want)
		}
	}
	for _, text := range []string{"bert-base on 1x h100 x8", "bert-base on 2x h100 x2"} {
		if _, err := Read(Env{Catalog: cat}, text); err == nil || !strings.Contains(err.Error(), "twice") {
			t.Errorf("%q: %v, want the count given twice", text, err)
		}
	}
}

// TensorFlow/XLA, JAX or ONNX Runtime named for serving an encoder is a
// graph runtime; named for a decoder's inference it is passed over.
func TestGraphRuntimeWords(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]planner.Engine{
		"bert-large inference seq 128 batch 1 fp16 tensorflow xla on v100": planner.EngineGraph,
		"bert-base inference onnxruntime batch 8 on t4":                    planner.EngineGraph,
		"llama-3.1-8b inference jax on h100":                               "",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if e := r.Request.Job.Engine; e != want {
			t.Errorf("%q: engine %q, want %q", text, e, want)
		}
		if want != "" {
			if back, err := Read(Env{Catalog: cat}, readingText(cat, r)); err != nil || back.Request.Job.Engine != want {
				t.Errorf("%q: reading %q reads back as %v (%v)", text, readingText(cat, r), back.Request.Job.Engine, err)
			}
		}
	}
}

// TensorFlow or JAX named for training is the graph stack (planner.Graph),
// read back as `xla` and no longer listed as skipped; ONNX Runtime or
// TorchScript named for training is not a trainer and stays skipped.
func TestGraphRuntimeTraining(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]planner.Stack{
		"bert-large finetune tensorflow on v100":                            planner.Graph,
		"bert-large-uncased pretrain seq 128 micro 60 fp16 tf2 on 16x v100": planner.Graph,
		"gpt2 pretrain 10B tokens jax on 8x h100":                           planner.Graph,
		"bert-large finetune tensorflow hf on v100":                         planner.HF,
		"bert-base finetune onnxruntime on t4":                              "",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if s := r.Request.Job.Stack; s != want {
			t.Errorf("%q: stack %q, want %q", text, s, want)
		}
		if want == planner.Graph {
			if len(r.Skipped) > 0 {
				t.Errorf("%q: skipped %q, want the runtime read", text, r.Skipped)
			}
			back, err := Read(Env{Catalog: cat}, readingText(cat, r))
			if err != nil || back.Request.Job.Stack != want {
				t.Errorf("%q: reading %q reads back as %v (%v)", text, readingText(cat, r), back.Request.Job.Stack, err)
			}
		}
	}
}

// A family and a size that the catalogue has under an id without the size
// ("deepseek r1 671b") is that model; a size the family lacks is still a
// model of that size. Two GPUs offered as alternatives to a "will it fit"
// ask which to use.
func TestCatalogueSizeAndAlternatives(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]string{
		"deepseek r1 671b inference fp8 on h200, how many?": "deepseek-r1",
		"딥시크 R1 671b 서빙하려면 H200 몇 장이 필요해요? fp8로요":           "deepseek-r1",
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Request.Job.Model.ID != want {
			t.Errorf("%q: %v, %v; want %s", text, r.Request.Job.Model.ID, err, want)
		}
	}
	for text, want := range map[string]Ask{
		"qwen3 30b a3b inference, is l4 enough or do we need l40s?": AskWhichGPU,
		"qwen3 30b a3b 서빙이면 L4로도 충분한가요, 아니면 L40S 가야 하나요?":           AskWhichGPU,
		"does llama 3 8b lora fit on a 4090 vs a 3090?":             AskFit,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil || r.Ask != want {
			t.Errorf("%q: ask %q (%v), want %q", text, r.Ask, err, want)
		}
	}
}

// "The dataset is 3x bigger" than a measured run given in hours scales
// the run's work; with no such run it asks for one.
func TestDataTimesBiggerThanTheRun(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string]float64{
		"Last month: llama 2 7b lora, 6.5 hours on 1x A100 80GB. This month the dataset is 3x bigger. H200 one card, how long?": 3,
		"llama 2 7b lora 6.5 hours on 1x A100 80GB, the data is twice as big, on h200?":                                         2,
		"지난달 라마2 7b lora a100 한 장에서 6.5시간 걸렸는데 이번엔 데이터가 3배예요. h200 한 장이면 얼마나?":                                                  3,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if b := r.Request.Baseline; b == nil || b.WorkScale != want {
			t.Errorf("%q: measured run %+v, want its data × %v", text, b, want)
			continue
		}
		if back, err := Read(Env{Catalog: cat}, readingText(cat, r)); err != nil || back.Request.Baseline == nil || back.Request.Baseline.WorkScale != want {
			t.Errorf("%q: reading %q does not read back (%v)", text, readingText(cat, r), err)
		}
	}
	if _, err := Read(Env{Catalog: cat}, "llama 2 7b lora 3 epochs of 50k samples, dataset 3x bigger on h200"); err == nil || !strings.Contains(err.Error(), "scales a measured run") {
		t.Errorf("a scale with no measured run: %v", err)
	}
}

// More GPUs than a team server holds ("bump to 8 gpus on server-a", "8-way
// a100 node" where server-a has 4 A100s) is that many of its GPU, planned
// off the server and said so, not refused.
func TestMoreGPUsThanTheServerHolds(t *testing.T) {
	cat := planner.DefaultCatalog()
	env := Env{Catalog: cat, Servers: teamServers(t, cat)}
	r, err := Read(env, "if we bump to 8 gpus on server-a, how long for llama-3-8b full ft 2B tokens?")
	if err != nil {
		t.Fatal(err)
	}
	ts := r.Request.Targets
	if len(ts) != 1 || ts[0].Count != 8 || ts[0].Server != "" || !strings.HasPrefix(ts[0].GPU.ID, "a100") {
		t.Errorf("targets %+v, want 8 of server-a's A100s, off the server", ts)
	}
	if !strings.Contains(strings.Join(r.Request.Job.Notes, " "), "more than it holds") {
		t.Errorf("notes %q do not say the server holds fewer", r.Request.Job.Notes)
	}
	if _, err := Read(env, "bert-base on 3x server-a"); err != nil {
		t.Errorf("3 of server-a's 4: %v", err)
	}
}

// "GPU N장짜리" is a machine of N; a count of machines after it ("서버
// 2대", "노드 4대로", "HGX 한 대") makes that many nodes of N.
func TestKoreanMachinesOfN(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, want := range map[string][2]int{ // GPUs in all, nodes
		"H100 8장짜리 노드 4대로 llama 3 70b 파인튜닝 10억 토큰":               {32, 4},
		"llama 3 70b 사전학습 1조 토큰 A100 8장짜리 서버 2대로 며칠?":            {16, 2},
		"라마3 70b 사전학습 1조 토큰, A100 8장짜리 서버 2대로 며칠?":               {16, 2},
		"B200 8장짜리 HGX 한 대면 llama 3.1 70b 사전학습 토큰 1조개에 몇 일 걸려요?": {8, 1},
		"llama 3 8b lora a100 8장짜리로 돼?":                          {8, 1},
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		ts := r.Request.Targets
		if len(ts) != 1 || ts[0].Count != want[0] || want[1] > 1 && ts[0].GPUsPerNode != want[0]/want[1] {
			t.Errorf("%q: targets %+v, want %d GPUs on %d nodes", text, ts, want[0], want[1])
		}
	}
}
