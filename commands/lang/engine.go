package lang

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// The serving words: the inference engine, the load (requests in flight, a
// request rate), prompt and output lengths, the KV cache's precision, the
// quantisation method and GGUF type, and llama.cpp's layer placement.
//
//	engine    = "vllm" | "tgi" | "trt-llm" | "tensorrt-llm" | "sglang" | "llama.cpp" | "ollama" | … .
//	lengths   = ("input"|"prompt"|"isl") n | ("out"|"osl") n | "in" n "out" n | n "in" ["/"] n "out" .
//	load      = ("concurrency"|"max-concurrency"|"parallel") n | n ("concurrent"|"users"|"in-flight") [requests]
//	          | n ("req/s"|"rps"|"qps") | n "requests" ("/s"|"per second") | ("rate"|"request-rate") n .
//	kv        = ("kv"|"kv-cache"|"kv cache") kvtype | kvtype ("kv"|"kv-cache"|"kv cache") .
//	quant     = "gptq" | "awq" | "bnb" | "bitsandbytes" | "gguf" | gguf-type .
//	layers    = ("ngl"|"n-gpu-layers"|"gpu-layers") n | "offload" n "layers" | n "layers on" ("gpu"|"cpu") .
//	split     = ("split-mode"|"sm") ("layer"|"row") | ("layer"|"row") "split" .
//	host      = ("cpu-bw"|"ram-bw"|"cpu bandwidth") n ["gb/s"] .
//
// "kv 8" stays the architecture's KV heads: only a precision after kv (or
// kv after a precision) is the cache's type.

// reqKwServing marks the serving words the reading pass must keep in
// place ("64 concurrent requests" is not 64 samples with an adjective):
// servingWord reads them; alone they carry no meaning.
const reqKwServing reqKwKind = 100

func init() {
	for _, w := range []string{"concurrent", "concurrency", "in-flight", "simultaneous"} {
		reqKeywords[w] = reqKeyword{kind: reqKwServing}
	}
}

// servingState is what the serving words read, finished in finishServing.
type servingState struct {
	engine           reqSlot[planner.Engine]
	quant            reqSlot[planner.QuantMethod]
	gguf             reqSlot[string]
	kv               reqSlot[planner.Precision]
	input            reqSlot[int]
	concurrency      reqSlot[int]
	rate             reqSlot[float64]
	tokRate          reqSlot[float64] // generated tokens/s the service must sustain
	gpuLayers        reqSlot[int]     // -1: none
	cpuLayers        reqSlot[int]
	split            reqSlot[planner.Split]
	hostBW           reqSlot[float64]
	bpw              reqSlot[float64] // an EXL2 file's bits per weight
	noGraphs         reqSlot[bool]    // the engine runs without CUDA graphs
	any              bool
	quantWord, first string
	at               int // the token of the first serving word
}

var engineWords = map[string]planner.Engine{
	"vllm": planner.EngineVLLM, "v-llm": planner.EngineVLLM,
	"tgi": planner.EngineTGI, "text-generation-inference": planner.EngineTGI,
	"trt-llm": planner.EngineTRTLLM, "tensorrt-llm": planner.EngineTRTLLM, "trtllm": planner.EngineTRTLLM,
	"tensorrt": planner.EngineTRTLLM, "trt": planner.EngineTRTLLM, "trtllm-serve": planner.EngineTRTLLM,
	"sglang": planner.EngineSGLang, "sg-lang": planner.EngineSGLang,
	"llama.cpp": planner.EngineLlamaCpp, "llamacpp": planner.EngineLlamaCpp, "llama-cpp": planner.EngineLlamaCpp,
	"llama-server": planner.EngineLlamaCpp, "llama-cli": planner.EngineLlamaCpp,
	"ollama":        planner.EngineOllama,
	"graph-runtime": planner.EngineGraph,
	"exllamav2":     planner.EngineExLlama, "exllama": planner.EngineExLlama, "exllama2": planner.EngineExLlama, "exl2": planner.EngineExLlama,
	"tabbyapi": planner.EngineExLlama, "tabby-api": planner.EngineExLlama,
}

var quantWords = map[string]planner.QuantMethod{
	"gptq": planner.GPTQ, "awq": planner.AWQ, "bnb": planner.BNB, "bitsandbytes": planner.BNB,
	"gguf": planner.GGUF, "ggml": planner.GGUF,
}

// kvTypes are the cache element types people name (vLLM --kv-cache-dtype,
// llama.cpp --cache-type-k).
var kvTypes = map[string]planner.Precision{
	"fp8": planner.FP8, "fp8_e4m3": planner.FP8, "fp8_e5m2": planner.FP8, "fp8-e4m3": planner.FP8, "e4m3": planner.FP8,
	"int8": planner.INT8, "8bit": planner.INT8, "8-bit": planner.INT8, "q8_0": planner.INT8, "q8": planner.INT8,
	"int4": planner.INT4, "4bit": planner.INT4, "4-bit": planner.INT4, "q4_0": planner.INT4,
	"fp16": planner.FP16, "f16": planner.FP16, "bf16": planner.BF16, "16bit": planner.FP16, "16-bit": planner.FP16,
}

var kvWords = map[string]bool{"kv": true, "kv-cache": true, "kvcache": true, "kv_cache": true, "kv-cache-dtype": true,
	"kv_cache_dtype": true, "cache-type-k": true, "ctk": true}

// ggufType reads a GGUF file type ("q4_k_m", "Q4_K_M", "q4km", "q8_0").
func ggufType(w string) (string, bool) {
	up := strings.ToUpper(strings.ReplaceAll(w, "-", "_"))
	if t, ok := map[string]string{"Q8": "Q8_0", "Q6": "Q6_K", "Q5": "Q5_K_M", "Q4": "Q4_K_M", "Q3": "Q3_K_M", "Q2": "Q2_K"}[up]; ok {
		return t, true // "gguf q8": the usual file of that width
	}
	if _, ok := planner.GGUFBitsPerWeight[up]; ok && up != "F32" && up != "F16" && up != "BF16" {
		return up, true
	}
	for t := range planner.GGUFBitsPerWeight {
		if strings.ReplaceAll(t, "_", "") == up && len(up) >= 3 && up[0] != 'F' && up[0] != 'B' {
			return t, true
		}
	}
	return "", false
}

// servingWord reads one serving phrase at p.i, if there is one there.
//
// servingWord is one switch on purpose: each phrase's form sits beside
// its word, in the order of precedence.
func (p *reqParser) servingWord() (bool, error) {
	a := p.i
	t := p.tok(a)
	w := strings.TrimLeft(t.w, "-")
	next := p.tok(a + 1).w
	sv := &p.serve
	mark := func() {
		if !sv.any {
			sv.any, sv.first = true, p.span(a, p.i)
		}
	}
	// "on vllm", "with ollama": the engine, not hardware
	if (w == "on" || w == "via" || w == "through") && engineWords[strings.TrimLeft(next, "-")] != "" {
		p.i++
		return true, nil
	}
	// The reading pass turns a weight format into its precision word
	// ("q4_k_m" → int4, "awq" → int4); the word as typed names the method.
	if raw := strings.ToLower(t.raw); raw != t.w && reqKeywords[t.w].kind == reqKwPrecision {
		if q, ok := quantWords[raw]; ok {
			sv.quantWord = t.raw
			if err := reqSet(p, &sv.quant, q, a, a+1, "quantisation methods"); err != nil {
				return true, err
			}
			if reqKeywords[next].kind == reqKwPrecision || p.precision.set {
				p.i++ // "gptq int8", "int8 gptq": the bits said win over the method's usual 4
				return true, nil
			}
			return false, nil
		}
		if g, ok := ggufType(raw); ok {
			if err := reqSet(p, &sv.gguf, g, a, a+1, "GGUF types"); err != nil {
				return true, err
			}
			return false, reqSet(p, &sv.quant, planner.GGUF, a, a+1, "quantisation methods")
		}
		if raw == "exl2" {
			// "exl2": ExLlamaV2's format, read as its engine (the bits, if
			// said, come with `bpw`)
			mark()
			return false, reqSet(p, &sv.engine, planner.EngineExLlama, a, a+1, "engines")
		}
	}
	if e, ok := engineWords[w]; ok {
		p.i++
		if n := p.tok(p.i).w; n == "serve" || n == "server" || n == "engine" || n == "backend" {
			p.i++
		}
		mark()
		if err := reqSet(p, &sv.engine, e, a, p.i, "engines"); err != nil {
			return true, err
		}
		return true, p.engineVersion(e)
	}
	if ok, err := p.graphsWord(a); ok {
		mark()
		return true, err
	}
	// KV cache precision: "kv fp8", "kv cache int8", "fp8 kv", "fp8 kv cache"
	if kvWords[w] {
		j := a + 1
		if p.tok(j).w == "cache" || p.tok(j).w == "dtype" || p.tok(j).w == "=" {
			j++
		}
		if p.tok(j).w == "dtype" || p.tok(j).w == "=" {
			j++
		}
		if kt, ok := kvTypes[p.tok(j).w]; ok {
			p.i = j + 1
			mark()
			return true, reqSet(p, &sv.kv, kt, a, p.i, "KV cache types")
		}
		if w == "kv" && p.tok(j).w != "cache" && j == a+1 {
			return false, nil // "kv 8": KV heads
		}
	}
	if kt, ok := kvTypes[w]; ok && kvWords[next] {
		p.i = a + 2
		if p.tok(p.i).w == "cache" {
			p.i++
		}
		mark()
		return true, reqSet(p, &sv.kv, kt, a, p.i, "KV cache types")
	}
	if q, ok := quantWords[w]; ok {
		p.i++
		sv.quantWord = p.span(a, p.i)
		return true, reqSet(p, &sv.quant, q, a, p.i, "quantisation methods")
	}
	if g, ok := ggufType(w); ok {
		p.i++
		if err := reqSet(p, &sv.gguf, g, a, p.i, "GGUF types"); err != nil {
			return true, err
		}
		return true, reqSet(p, &sv.quant, planner.GGUF, a, p.i, "quantisation methods")
	}
	switch w {
	case "input", "input-len", "input-length", "input-tokens", "prompt", "prompt-len", "prompt-length", "prompt-tokens",
		"isl", "in", "random-input-len":
		if w == "in" && !(reqStartsNumber(next) && (p.tok(a+2).w == "out" || p.tok(a+2).w == "output" || p.tok(a+2).w == "/")) {
			return false, nil // "in" is filler, or a deadline ("in 3 days")
		}
		return true, p.servingLength(a, true)
	case "out", "osl", "output-len", "random-output-len":
		if !reqStartsNumber(next) {
			return false, nil
		}
		return true, p.servingLength(a, false)
	case "concurrency", "max-concurrency", "concurrent", "parallel", "np", "max-num-seqs", "in-flight":
		if !reqStartsNumber(next) {
			return false, nil
		}
		p.i++
		return true, p.servingCount(a, &sv.concurrency, "concurrencies")
	case "rate", "request-rate", "rps", "qps":
		if !reqStartsNumber(next) {
			return false, nil
		}
		p.i++
		return true, p.servingRate(a)
	case "output-rate":
		if !reqStartsNumber(next) {
			return false, nil
		}
		p.i++
		n, _, err := p.value("output-rate", a)
		if err != nil {
			return true, err
		}
		if err := p.check(n.v, a, p.i, 0, 1e9, "1G tokens/s", false); err != nil {
			return true, err
		}
		p.serveMark(a)
		return true, reqSet(p, &sv.tokRate, n.v, a, p.i, "output rates")
	case "ngl", "n-gpu-layers", "gpu-layers", "n_gpu_layers":
		p.i++
		if p.tok(p.i).w == "=" {
			p.i++
		}
		return true, p.servingLayers(a, &sv.gpuLayers)
	case "offload", "offloaded":
		// llama.cpp's sense: "offload 20 layers" puts 20 layers on the GPU
		if reqStartsNumber(next) && strings.HasPrefix(p.tok(a+2).w, "layer") {
			p.i++
			return true, p.servingLayers(a, &sv.gpuLayers)
		}
	case "split-mode", "sm":
		if m, ok := splitWords[next]; ok {
			p.i = a + 2
			mark()
			return true, reqSet(p, &sv.split, m, a, p.i, "splits")
		}
	case "cpu-bw", "ram-bw", "cpu-bandwidth", "ram-bandwidth", "memory-bandwidth":
		p.i++
		return true, p.servingHostBW(a)
	case "bpw":
		if v, _, ok := reqScanNumber(next); ok && reqStartsNumber(next) {
			p.i = a + 2
			return true, p.servingBPW(v.v, a)
		}
	case "cpu", "ram", "host":
		if n := p.tok(a + 1).w; (n == "bandwidth" || n == "bw") && reqStartsNumber(p.tok(a+2).w) {
			p.i = a + 2
			return true, p.servingHostBW(a)
		}
	}
	if m, ok := splitWords[w]; ok && (next == "split" || next == "split-mode") {
		p.i = a + 2
		mark()
		return true, reqSet(p, &sv.split, m, a, p.i, "splits")
	}
	if v, u, ok := reqScanNumber(w); ok && (u == "bpw" || u == "" && next == "bpw") {
		// "4.65bpw", "6.0 bpw": an EXL2 file's bits per weight
		p.i = a + 1
		if u == "" {
			p.i++
		}
		return true, p.servingBPW(v.v, a)
	}
	if reqStartsNumber(w) {
		return p.servingNumber(a)
	}
	return false, nil
}

var splitWords = map[string]planner.Split{"layer": planner.SplitLayer, "layers": planner.SplitLayer,
	"row": planner.SplitTensor, "rows": planner.SplitTensor, "tensor": planner.SplitTensor}

// servingNumber reads the phrases that start with a number: "1024 in / 256
// out", "64 concurrent requests", "10 req/s", "40 layers on the gpu". It is
// long on purpose: one switch over the word after the number, a case per
// phrase, sharing one cursor.
func (p *reqParser) servingNumber(a int) (bool, error) {
	sv := &p.serve
	n, unit, ok := reqScanNumber(p.tok(a).w)
	if !ok {
		return false, nil
	}
	next := unit
	j := a + 1
	if next == "" {
		next = p.tok(j).w
		j++
	}
	switch next {
	case "out", "output":
		// "in 1024 out 256" (the reading pass drops the "in")
		if w := p.tok(a - 1).w; w != "in" && w != "input" {
			return false, nil
		}
		m, u2, ok := reqScanNumber(p.tok(j).w)
		if !ok || u2 != "" || !reqStartsNumber(p.tok(j).w) {
			return false, nil
		}
		p.i = j + 1
		return true, p.setLengths(a-1, reqSeqValue(n), m.v)
	case "in", "input":
		k := j
		if p.tok(k).w == "/" || p.tok(k).w == "," || p.tok(k).w == "and" {
			k++
		}
		m, u2, ok := reqScanNumber(p.tok(k).w)
		if !ok || !reqStartsNumber(p.tok(k).w) {
			return false, nil
		}
		o := u2
		end := k + 1
		if o == "" {
			o = p.tok(end).w
			end++
		}
		if o != "out" && o != "output" {
			return false, nil
		}
		p.i = end
		return true, p.setLengths(a, reqSeqValue(n), m.v)
	case "concurrent", "simultaneous", "users", "in-flight", "parallel", "clients", "streams", "sessions":
		p.i = j
		if w := p.tok(p.i).w; w == "requests" || w == "users" || w == "request" || w == "streams" || w == "sessions" {
			p.i++
		}
		return true, p.setCount(a, &sv.concurrency, n.v, "concurrencies")
	case "req/s", "rps", "qps", "requests/s", "request/s", "reqs/s", "req/sec", "requests/sec":
		p.i = j
		return true, p.setRate(a, n.v)
	case "requests", "request", "reqs", "queries":
		if p.tok(j).w == "/s" || p.tok(j).w == "per" && (p.tok(j+1).w == "second" || p.tok(j+1).w == "sec" || p.tok(j+1).w == "s") {
			p.i = j + 1
			if p.tok(j).w == "per" {
				p.i = j + 2
			}
			return true, p.setRate(a, n.v)
		}
		if p.tok(j).w == "in" && p.tok(j+1).w == "flight" || p.tok(j).w == "in-flight" || p.tok(j).w == "at" && p.tok(j+1).w == "once" {
			p.i = j + 1
			if p.tok(j).w != "in-flight" {
				p.i = j + 2
			}
			return true, p.setCount(a, &sv.concurrency, n.v, "concurrencies")
		}
	case "layers", "layer":
		k := j
		if p.tok(k).w == "on" || p.tok(k).w == "to" || p.tok(k).w == "in" {
			k++
		}
		if p.tok(k).w == "the" {
			k++
		}
		switch p.tok(k).w {
		case "gpu", "gpus", "vram":
			p.i = k + 1
			return true, p.setLayers(a, &sv.gpuLayers, n.v)
		case "cpu", "ram", "host":
			p.i = k + 1
			return true, p.setLayers(a, &sv.cpuLayers, n.v)
		}
	}
	return false, nil
}

// servingLength reads "input 1024", "prompt 1k", "isl 1024", "out 256",
// "in 1024 out 256".
func (p *reqParser) servingLength(a int, input bool) error {
	p.i = a + 1
	for p.tok(p.i).w == "=" || p.tok(p.i).w == "len" || p.tok(p.i).w == "length" {
		p.i++
	}
	n, unit, ok := reqScanNumber(p.tok(p.i).w)
	if !ok || unit != "" && reqUnitClass(unit) != reqUTokens {
		return p.badNumber(p.i)
	}
	p.i++
	if reqUnitClass(p.tok(p.i).w) == reqUTokens {
		p.i++
	}
	v := reqSeqValue(n)
	if err := p.check(v, a, p.i, 1, 10e6, "10M tokens", true); err != nil {
		return err
	}
	if !input {
		return reqSet(p, &p.gen, int(v), a, p.i, "generation lengths")
	}
	if err := reqSet(p, &p.serve.input, int(v), a, p.i, "prompt lengths"); err != nil {
		return err
	}
	// "in 1024 out 256": the output follows
	if w := p.tok(p.i).w; w == "/" || w == "," {
		if o := p.tok(p.i + 1).w; o == "out" || o == "output" {
			p.i++
		}
	}
	if w := p.tok(p.i).w; (w == "out" || w == "output") && reqStartsNumber(p.tok(p.i+1).w) {
		return p.servingLength(p.i, false)
	}
	return nil
}

func (p *reqParser) setLengths(a int, in float64, out float64) error {
	if err := p.check(in, a, p.i, 1, 10e6, "10M tokens", true); err != nil {
		return err
	}
	if err := p.check(out, a, p.i, 1, 10e6, "10M tokens", true); err != nil {
		return err
	}
	if err := reqSet(p, &p.serve.input, int(in), a, p.i, "prompt lengths"); err != nil {
		return err
	}
	return reqSet(p, &p.gen, int(out), a, p.i, "generation lengths")
}

func (p *reqParser) servingCount(a int, s *reqSlot[int], plural string) error {
	if p.tok(p.i).w == "=" {
		p.i++
	}
	n, err := p.plainValue("batch", a)
	if err != nil {
		return err
	}
	return p.setCount(a, s, n.v, plural)
}

func (p *reqParser) setCount(a int, s *reqSlot[int], v float64, plural string) error {
	if err := p.check(v, a, p.i, 1, 1e6, "1M", true); err != nil {
		return err
	}
	p.serveMark(a)
	return reqSet(p, s, int(v), a, p.i, plural)
}

func (p *reqParser) servingRate(a int) error {
	if p.tok(p.i).w == "=" {
		p.i++
	}
	n, unit, err := p.value("batch", a)
	if err != nil {
		return err
	}
	if unit == "" {
		switch p.tok(p.i).w {
		case "req/s", "rps", "qps", "requests/s", "/s":
			p.i++
		}
	}
	return p.setRate(a, n.v)
}

func (p *reqParser) setRate(a int, v float64) error {
	if err := p.check(v, a, p.i, 0, 1e6, "1M requests/s", false); err != nil {
		return err
	}
	p.serveMark(a)
	return reqSet(p, &p.serve.rate, v, a, p.i, "request rates")
}

func (p *reqParser) servingLayers(a int, s *reqSlot[int]) error {
	n, unit, ok := reqScanNumber(p.tok(p.i).w)
	if !ok || unit != "" || !reqStartsNumber(p.tok(p.i).w) {
		return said(en.Tf("`%s` needs a number of layers, like `ngl 40`", p.span(a, p.i)), &UserError{Hint: p.try(a, p.i, "ngl 40")})
	}
	p.i++
	if strings.HasPrefix(p.tok(p.i).w, "layer") {
		p.i++
	}
	if w := p.tok(p.i).w; w == "to" || w == "on" {
		if n := p.tok(p.i + 1).w; n == "gpu" || n == "the" && p.tok(p.i+2).w == "gpu" {
			p.i += 2
			if n == "the" {
				p.i++
			}
		}
	}
	if n.v == 0 {
		p.serveMark(a)
		return reqSet(p, s, -1, a, p.i, "GPU layer counts")
	}
	return p.setLayers(a, s, n.v)
}

func (p *reqParser) setLayers(a int, s *reqSlot[int], v float64) error {
	if err := p.check(v, a, p.i, 0, 10000, "10,000", true); err != nil {
		return err
	}
	p.serveMark(a)
	return reqSet(p, s, int(v), a, p.i, "layer counts")
}

func (p *reqParser) servingHostBW(a int) error {
	if p.tok(p.i).w == "=" {
		p.i++
	}
	n, unit, err := p.value("batch", a)
	if err != nil {
		return err
	}
	if unit == "" {
		if w := p.tok(p.i).w; w == "gb/s" || w == "gbps" || w == "gb/sec" {
			p.i++
		}
	}
	if err := p.check(n.v, a, p.i, 1, 10000, "10,000 GB/s", false); err != nil {
		return err
	}
	p.serveMark(a)
	return reqSet(p, &p.serve.hostBW, n.v, a, p.i, "host bandwidths")
}

// graphRuntime reads a graph runtime's words: serving an encoder or a
// CNN, the engine ("bert-large inference … tensorflow xla"); training, the
// stack ("bert-large pretrain … tf2", "jax"). Read, they are no longer
// listed as skipped.
func (p *reqParser) graphRuntime() {
	sv, j := &p.serve, &p.req.Job
	switch {
	case p.graphWord && !sv.engine.set && j.Workload == planner.Inference && j.Model.Layers > 0 && j.Model.ForwardOnly():
		sv.engine = reqSlot[planner.Engine]{v: planner.EngineGraph, word: string(planner.EngineGraph), set: true}
		sv.any = true
	case p.graphTrainer && !p.stack.set && j.Workload != planner.Inference && j.Workload != "":
		j.Stack = planner.Graph
	default:
		return
	}
	p.skipped = slices.DeleteFunc(p.skipped, func(w string) bool { return reqGraphRuntimes[strings.ToLower(w)] })
}

func (p *reqParser) serveMark(a int) {
	if !p.serve.any {
		p.serve.any, p.serve.first, p.serve.at = true, p.span(a, p.i), a
	}
}

// finishServing puts the serving words into the job: the prompt length
// makes the context (prompt + output); an engine or a load means
// inference; GPTQ/AWQ/bitsandbytes without a precision are 4-bit.
func (p *reqParser) finishServing() error {
	sv := &p.serve
	j := &p.req.Job
	p.graphRuntime()
	if p.workload.set && p.workload.v != planner.Inference && sv.any && p.thenAfter(p.workloadAt, sv.at) {
		p.thenServe = true // "lora 학습하고 vllm으로 20명 동시에": trained, then served
	}
	if !sv.any && !sv.input.set && !sv.quant.set && !p.thenServe {
		return nil
	}
	if p.thenServe {
		j = p.serveAfterTraining(j) // the serving words go to the serving after the training
	} else if p.workload.set && p.workload.v != planner.Inference && sv.any {
		return said(en.Tf("`%s` is about serving a model, but the request says `%s`", sv.first, p.workload.word), &UserError{Hint: "try: gpuplan plan llama-3.1-8b inference vllm in 1024 out 256 on h100"})
	}
	if j.Workload == "" && (sv.any || sv.input.set) {
		j.Workload = planner.Inference // an engine or a load is serving; a format alone is left to weightOnlyInference
	}
	if sv.input.set {
		out := j.GenTokens
		if out == 0 {
			out = 256
			j.GenTokens = out
			p.note(en.T("output length not given: 256 generated tokens per request (say `out N`)"))
		}
		if p.seq.set && p.seq.v != sv.input.v+out && !p.thenServe {
			return said(en.Tf("`%s` and `%s` disagree: the context is the prompt plus the output (%d)", p.seq.word, sv.input.word, sv.input.v+out), &UserError{Hint: p.tryWithout(p.seq.word)})
		}
		j.SeqLen = sv.input.v + out
	}
	j.Engine, j.Quant, j.GGUFType, j.KVPrecision = sv.engine.v, sv.quant.v, sv.gguf.v, sv.kv.v
	if err := p.finishGraphs(j); err != nil {
		return err
	}
	if j.Engine == planner.EngineTRTLLM && j.Model.Layers > 0 && j.Model.ForwardOnly() {
		j.Engine = planner.EngineTensorRT // an encoder or vision model is built with TensorRT itself
	}
	j.Concurrency, j.RequestRate, j.Split, j.HostMemBWGBs = sv.concurrency.v, sv.rate.v, sv.split.v, sv.hostBW.v
	j.OutputTokPS = sv.tokRate.v
	j.GPULayers = sv.gpuLayers.v
	if err := p.exl2Bits(j); err != nil {
		return err
	}
	if j.Quant == planner.GGUF && j.GGUFType == "" {
		j.GGUFType = "Q4_K_M"
		p.note(en.T("`gguf` without a type read as Q4_K_M (4.84 bits per weight, the usual download); name it (`q8_0`, `q5_k_m`) to change it"))
	}
	if j.GGUFType != "" && j.Engine != "" && !j.Engine.Local() {
		return said(en.Tf("`%s` is a llama.cpp format; %s serves GPTQ/AWQ/fp8 weights", strings.ToLower(j.GGUFType), j.Engine), &UserError{Hint: p.tryWithout(sv.engine.word)})
	}
	switch j.Quant {
	case planner.GPTQ, planner.AWQ, planner.BNB:
		if j.Precision == "" {
			j.Precision = planner.INT4
			p.note(en.Tf("`%s` read as 4-bit weights (say `int8` for 8-bit)", sv.quantWord))
		}
		if j.Precision != planner.INT4 && j.Precision != planner.INT8 && reqFloatFormat(j.Precision) && p.sideBySide(sv.quantWord, p.precision.word) {
			// "awq랑 fp16 비교", "gptq vs bf16": 4-bit weights set
			// against 16-bit ones, side by side; the card plans the latter
			p.precisionPair = [2]planner.Precision{planner.INT4, j.Precision}
			j.Quant = ""
		} else if j.Precision != planner.INT4 && j.Precision != planner.INT8 {
			return said(en.Tf("`%s` quantises to 4 or 8 bits, not %s", sv.quantWord, j.Precision), &UserError{Hint: p.tryWithout(p.precision.word)})
		}
	}
	if sv.cpuLayers.set {
		if sv.gpuLayers.set {
			return said(en.Tf("`%s` and `%s`: say the layers on the GPU or on the CPU, not both", sv.gpuLayers.word, sv.cpuLayers.word), &UserError{Hint: p.tryWithout(sv.cpuLayers.word)})
		}
		L := j.Model.Layers
		switch {
		case L == 0:
			return said(en.Tf("`%s` needs a model with layers", sv.cpuLayers.word), &UserError{Hint: reqExample})
		case sv.cpuLayers.v >= L:
			j.GPULayers = -1
		default:
			j.GPULayers = L - sv.cpuLayers.v
		}
	}
	return nil
}

// thenAfter reports whether the words at token b follow the training
// named at token a as a next step: after it, with a word that says so
// between them ("then", "and", "after", "하고", "후", "다음", "까지", or
// the training verb's own 하고/해서/한 뒤).
func (p *reqParser) thenAfter(a, b int) bool {
	if a < 0 || b <= a || b >= len(p.toks) || p.toks[a].end > p.toks[b].start || p.toks[b].start > len(p.text) {
		return false
	}
	between := strings.ToLower(p.text[p.toks[a].start:p.toks[b].start])
	for _, w := range []string{"then", " and ", "after", "afterwards", "하고", "해서", "한 뒤", "한뒤", "후", "다음", "나서", "까지", "시키고", "돌리고"} {
		if strings.Contains(between, w) {
			return true
		}
	}
	return false
}

// tryWithout is a hint with the words w taken out of the request.
func (p *reqParser) tryWithout(w string) string {
	s := strings.Join(strings.Fields(strings.Replace(p.text, w, "", 1)), " ")
	if s == "" {
		return reqExample
	}
	return "try: gpuplan plan " + s
}

// servingBPW sets an EXL2 file's bits per weight, said from a on.
func (p *reqParser) servingBPW(v float64, a int) error {
	if v < 2 || v > 8.5 {
		return said(en.Tf("`%s`: EXL2 files hold 2 to 8 bits per weight", p.span(a, p.i)), &UserError{Hint: reqEg("4.65bpw")})
	}
	p.serveMark(a)
	return reqSet(p, &p.serve.bpw, v, a, p.i, "bits per weight")
}

// servingWords restates the serving fields in words the parser reads back.
func servingWords(j planner.Job) []string {
	var w []string
	if j.Engine != "" {
		w = append(w, string(j.Engine))
	}
	if j.NoGraphs {
		w = append(w, noGraphsWord(j.Engine))
	}
	switch {
	case j.GGUFType != "":
		w = append(w, strings.ToLower(j.GGUFType))
	case j.WeightBits > 0:
		w = append(w, "bpw "+Num(j.WeightBits))
	case j.Quant != "":
		w = append(w, string(j.Quant))
	}
	if j.KVPrecision != "" {
		w = append(w, "kv "+string(j.KVPrecision))
	}
	if j.Concurrency > 0 {
		w = append(w, "concurrency "+strconv.Itoa(j.Concurrency))
	}
	if j.RequestRate > 0 {
		w = append(w, Num(j.RequestRate)+" req/s")
	}
	if j.OutputTokPS > 0 {
		w = append(w, "output-rate "+Num(j.OutputTokPS)+" tok/s")
	}
	switch {
	case j.GPULayers < 0:
		w = append(w, "ngl 0")
	case j.GPULayers > 0:
		w = append(w, "ngl "+strconv.Itoa(j.GPULayers))
	}
	switch j.Split {
	case planner.SplitLayer:
		w = append(w, "split-mode layer")
	case planner.SplitTensor:
		w = append(w, "split-mode row")
	}
	if j.HostMemBWGBs > 0 {
		w = append(w, "cpu-bw "+Num(j.HostMemBWGBs))
	}
	return w
}

// kvCache reads "kv cache" next to a cache type ("kv cache fp8", "fp8 kv
// cache") as the cache's type for the parser; without a type the reading
// pass skips the words, as before. It returns i when it reads nothing.
func (c *canonizer) kvCache(i int) int {
	n := i + 1
	if c.w(i) == "kv" {
		n = i + 2
	}
	if _, ok := kvTypes[c.w(n)]; ok {
		c.emit("kv-cache", i, n)
		return n
	}
	if _, ok := kvTypes[c.w(i-1)]; ok && i > 0 {
		c.emit("kv-cache", i, n)
		return n
	}
	return i
}

// sideBySide reports whether the request names a and b with only a word
// of comparison between them ("awq랑 fp16", "gptq vs bf16", "awq, fp16").
func (p *reqParser) sideBySide(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	t := strings.ToLower(p.text)
	i := strings.Index(t, strings.ToLower(a))
	if i < 0 {
		return false
	}
	rest := strings.TrimSpace(t[i+len(a):])
	for _, sep := range []string{"이랑", "랑", "vs.", "vs", "versus", "or", ",", "대비", "와", "과", "/"} {
		if r, ok := strings.CutPrefix(rest, sep); ok {
			return strings.HasPrefix(strings.TrimSpace(r), strings.ToLower(b))
		}
	}
	return false
}

// thenServeRequest is the serving after the training (thenServe): the
// request's hardware words with the serving job; nil when there is none.
func (p *reqParser) thenServeRequest() *planner.Request {
	if p.serveJob == nil {
		return nil
	}
	serve := p.req
	serve.Job = *p.serveJob
	serve.Job.Notes = nil
	serve.Baseline = nil
	return &serve
}

// serveAfterTraining starts the serving job of a trained model (the
// model as trained, its adapter merged, in the training's 16-bit format
// unless a weight format is said) and returns it for the serving words.
func (p *reqParser) serveAfterTraining(trained *planner.Job) *planner.Job {
	s := planner.Job{Model: trained.Model, Workload: planner.Inference}
	if trained.Precision == planner.BF16 || trained.Precision == planner.FP16 {
		s.Precision = trained.Precision
	}
	p.serveJob = &s
	return &s
}

// exl2Bits puts an EXL2 file's bits per weight into j: served by
// ExLlamaV2 unless another local engine is named, computed in 16 bits
// over 4- or 8-bit-class weights; an ExLlamaV2 named with no bits takes
// 4.0 and says so.
func (p *reqParser) exl2Bits(j *planner.Job) error {
	sv := &p.serve
	if !sv.bpw.set && j.Engine != planner.EngineExLlama {
		return nil
	}
	if j.GGUFType != "" {
		return said(en.Tf("`%s` is a GGUF type; ExLlamaV2 reads EXL2 files (say `4.65bpw`)", strings.ToLower(j.GGUFType)), &UserError{Hint: reqEg("exllamav2 4.65bpw")})
	}
	if j.Engine != "" && !j.Engine.Local() {
		return said(en.Tf("EXL2 weights are ExLlamaV2's; %s does not read them", j.Engine), &UserError{Hint: p.tryWithout(sv.engine.word)})
	}
	j.WeightBits = sv.bpw.v
	if !sv.bpw.set {
		j.WeightBits = 4
		p.note(en.T("ExLlamaV2 with no bits said: a 4.0 bpw EXL2 file (say `4.65bpw`, `6bpw`)"))
	}
	if j.Engine == "" {
		j.Engine = planner.EngineExLlama
	}
	if j.Precision == "" || j.Precision == planner.INT4 || j.Precision == planner.INT8 {
		j.Precision = planner.INT4
		if j.WeightBits > 5 {
			j.Precision = planner.INT8
		}
	}
	return nil
}
