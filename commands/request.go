package commands

// The plan request language: "bert-base 10 epochs of 2.5M samples on h100x2".
//
// A request is a bag of phrases in any order. The text is normalised
// (unicode spaces and dashes, smart quotes, Slack mentions), cut into
// tokens by a small scanner, and read left to right by typed readers: a
// number reader that knows units and multipliers, a hardware reader that
// knows counts, node groups and GPU qualifiers, key readers ("seq 512",
// "batch 128 = 4x32") and a table of option words. Nothing here is a
// regular expression. Every refusal is a *UserError that names the word
// it stopped at and, where one is close, the word that was probably meant.

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/planner"
)

// ParsePlan reads a plan request ("bert-base 10 epochs of 2.5M samples on
// h100x2") into a planner.Request. Every failure is a *UserError whose Msg
// names the offending word in backticks and, where a close valid word
// exists, says "did you mean `x`?"; its Hint gives a corrected or typical
// example.
func ParsePlan(cat *planner.Catalog, text string) (planner.Request, error) {
	if cat == nil {
		cat = planner.DefaultCatalog()
	}
	text = reqStripLead(reqNormalize(text))
	if n := utf8.RuneCountInString(text); n > reqMaxRunes {
		return planner.Request{}, userErrorf(reqExample,
			"that request is %d characters long; I read plan requests of up to %d", n, reqMaxRunes)
	}
	p := &reqParser{cat: cat, text: text, toks: reqTokenize(text)}
	if err := p.run(); err != nil {
		return planner.Request{}, err
	}
	return p.req, nil
}

const (
	reqMaxGPUs  = 65536 // GPUs in a node group ("2048 nodes of 8x h100")
	reqMaxRunes = 2000
	reqExample  = "try: gpuplan plan bert-base 10 epochs of 2.5M samples on h100x2"
	// reqKinds is the hint for a word that is close to nothing.
	reqKinds = "I read: a model (bert-base, 7b params, layers 24 hidden 2048 heads 16), " +
		"the work (10 epochs of 2.5M samples, 1.2B tokens, 5000 steps), seq 512, batch 128, micro 32, " +
		"a precision (bf16, fp16, int4), options (lora, qlora, inference, ckpt, flash, zero2, fsdp, adam8bit, tuned), " +
		"hardware (on h100x2, on 2 nodes of 8x h100, compare h200x4, a100x4) " +
		"and a measurement (baseline 5.67 h/epoch on 4x v100)"
)

// ---------------------------------------------------------------------------
// Normalising and scanning

// reqNormalize maps what chat clients and shells deliver onto plain ASCII
// punctuation: unicode spaces become spaces, unicode dashes '-', '×' 'x';
// quotes (smart or not), brackets and sentence punctuation are noise and
// become spaces; Slack's HTML escapes are undone; invalid UTF-8 becomes
// U+FFFD. A '*' between two letters or digits ("h100*2") is a count 'x';
// elsewhere it is Slack bold and is dropped.
func reqNormalize(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">").Replace(s)
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' || r == '\ufeff' || r == '\u00ad':
			// zero-width characters and soft hyphens vanish
		case unicode.IsSpace(r) || unicode.Is(unicode.Zs, r) || unicode.IsControl(r):
			b.WriteByte(' ')
		case strings.ContainsRune("\"'`‘’‚‛′“”„‟″«»()[]{};!?|~≈", r):
			b.WriteByte(' ')
		case strings.ContainsRune("‐‑‒–—―−", r):
			b.WriteByte('-')
		case r == '×' || r == '✕' || r == '✖':
			b.WriteByte('x')
		case r == '＝':
			b.WriteByte('=')
		default:
			b.WriteRune(r)
		}
	}
	out := []byte(b.String())
	for i, c := range out {
		if c == '*' {
			if i > 0 && i+1 < len(out) && reqIsAlnum(out[i-1]) && reqIsAlnum(out[i+1]) {
				out[i] = 'x'
			} else if !(i+1 < len(out) && out[i+1] == ' ' && i > 0 && out[i-1] == ' ') {
				out[i] = ' ' // Slack bold; a lone " * " stays a count marker
			}
		}
	}
	return strings.TrimSpace(string(out))
}

// reqStripLead drops what precedes the request proper: Slack mention tokens
// ("<@U123ABC>") and a leading command word ("gpuplan", "/gpuplan", "plan").
func reqStripLead(s string) string {
	for {
		s = strings.TrimLeft(s, " ")
		if strings.HasPrefix(s, "<@") || strings.HasPrefix(s, "<!") {
			if j := strings.IndexByte(s, '>'); j > 0 {
				s = s[j+1:]
				continue
			}
		}
		w, rest, _ := strings.Cut(s, " ")
		switch strings.TrimRight(strings.ToLower(w), ",:") {
		case "plan", "gpuplan", "/gpuplan", "@gpuplan":
			s = rest
			continue
		}
		return s
	}
}

// reqToken is one word of a request.
type reqToken struct {
	raw        string // as typed (after normalising)
	w          string // lower case
	start, end int    // byte span in reqParser.text
}

// reqTokenize cuts normalised text into words. ',' and '=' (and ':') are
// tokens of their own, except for a digit-grouping comma ("2,464,256").
// Decoration around a word (Slack's _italic_, a sentence's final '.') is
// dropped. A key fused with its number ("r16", "seq512", "bs32") becomes
// two tokens.
func reqTokenize(s string) []reqToken {
	var toks []reqToken
	add := func(start, end int) {
		for start < end && s[start] == '_' {
			start++
		}
		for end > start && (s[end-1] == '_' || s[end-1] == '.') {
			end--
		}
		if start >= end {
			return
		}
		raw := s[start:end]
		t := reqToken{raw: raw, w: strings.ToLower(raw), start: start, end: end}
		if k, v, ok := reqSplitFused(t.w); ok && reqIsASCII(raw) {
			toks = append(toks,
				reqToken{raw: raw[:len(k)], w: k, start: start, end: start + len(k)},
				reqToken{raw: raw[len(raw)-len(v):], w: v, start: end - len(v), end: end})
			return
		}
		toks = append(toks, t)
	}
	i := 0
	for i < len(s) {
		switch c := s[i]; c {
		case ' ':
			i++
			continue
		case ',', '=', ':':
			w := string(c)
			if c == ':' {
				w = "="
			}
			toks = append(toks, reqToken{raw: string(c), w: w, start: i, end: i + 1})
			i++
			continue
		}
		j := i
		for j < len(s) {
			c := s[j]
			if c == ' ' || c == '=' || c == ':' {
				break
			}
			if c == ',' && !reqGroupComma(s, j) {
				break
			}
			j++
		}
		add(i, j)
		i = j
	}
	return toks
}

func reqIsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// reqGroupComma reports whether the comma at s[j] groups digits: a digit
// before it and exactly three after it.
func reqGroupComma(s string, j int) bool {
	if j == 0 || j+4 > len(s) || !reqIsDigit(s[j-1]) {
		return false
	}
	for k := j + 1; k <= j+3; k++ {
		if !reqIsDigit(s[k]) {
			return false
		}
	}
	return j+4 == len(s) || !reqIsDigit(s[j+4])
}

// reqSplitFused splits "r16", "seq512", "bs32", "lora-r16" into a key word
// and its number.
func reqSplitFused(w string) (key, val string, ok bool) {
	if _, known := reqKeywords[w]; known {
		return "", "", false
	}
	i := 0
	for i < len(w) && (w[i] >= 'a' && w[i] <= 'z' || w[i] == '-') {
		i++
	}
	if i == 0 || i == len(w) || !reqIsDigit(w[i]) {
		return "", "", false
	}
	k := strings.TrimRight(w[:i], "-")
	if kw, ok := reqKeywords[k]; !ok || kw.kind != reqKwKey {
		return "", "", false
	}
	return k, w[i:], true
}

func reqIsDigit(c byte) bool { return c >= '0' && c <= '9' }
func reqIsAlnum(c byte) bool {
	return reqIsDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// ---------------------------------------------------------------------------
// Numbers and units

// reqNumber is a number as typed: "2.5M", "1,200", "1e6", "8k".
type reqNumber struct {
	v    float64 // the value, multiplier applied (may be ±Inf when absurd)
	mant float64 // the value before the multiplier
	mult byte    // 'k', 'm', 'b', 't' or 0
}

// reqStartsNumber reports whether w begins like a number ("10", ".5").
func reqStartsNumber(w string) bool {
	return w != "" && (reqIsDigit(w[0]) || w[0] == '.' && len(w) > 1 && reqIsDigit(w[1]))
}

// reqScanNumber reads the number at the start of w and returns what
// follows it. A k/m/b/t right after the digits is a multiplier (thousand,
// million, billion, trillion) unless the rest reads as a unit on its own:
// "10ms" is milliseconds, "10m" ten million, "7b-params" seven billion
// parameters.
func reqScanNumber(w string) (n reqNumber, unit string, ok bool) {
	i, digits := 0, 0
	for i < len(w) && (reqIsDigit(w[i]) || w[i] == ',' && i+1 < len(w) && reqIsDigit(w[i+1]) && digits > 0) {
		if w[i] != ',' {
			digits++
		}
		i++
	}
	if i < len(w) && w[i] == '.' && i+1 < len(w) && reqIsDigit(w[i+1]) {
		i++
		for i < len(w) && reqIsDigit(w[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return reqNumber{}, "", false
	}
	if i < len(w) && w[i] == 'e' {
		j := i + 1
		if j < len(w) && (w[j] == '+' || w[j] == '-') {
			j++
		}
		if j < len(w) && reqIsDigit(w[j]) {
			for j < len(w) && reqIsDigit(w[j]) {
				j++
			}
			i = j
		}
	}
	num := strings.ReplaceAll(w[:i], ",", "")
	v, err := strconv.ParseFloat(num, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return reqNumber{}, "", false
	}
	n = reqNumber{v: v, mant: v}
	rest := w[i:]
	if rest == "" {
		return n, "", true
	}
	if r := strings.TrimLeft(rest, "-"); reqUnitClass(r) > reqUUnknown {
		return n, r, true
	}
	if exp := strings.IndexByte("kmbt", rest[0]); exp >= 0 {
		r := strings.TrimLeft(rest[1:], "-")
		if r == "" || reqUnitClass(r) > reqUUnknown {
			n.mult = rest[0]
			if strings.Contains(num, "e") {
				n.v *= math.Pow(1000, float64(exp+1))
			} else {
				// exact decimal: "1.2b" is 1.2e9, not 1.2 × 1e9
				n.v, _ = strconv.ParseFloat(num+"e"+strconv.Itoa(3*(exp+1)), 64)
			}
			return n, r, true
		}
	}
	return n, rest, true
}

// reqScanInt reads leading decimal digits: "2x" → 2, "x"; huge counts
// saturate so range checks still see them.
func reqScanInt(w string) (n int, rest string, ok bool) {
	i := 0
	for i < len(w) && reqIsDigit(w[i]) {
		if n < 1e9 {
			n = n*10 + int(w[i]-'0')
		}
		i++
	}
	return n, w[i:], i > 0
}

type reqUnitKind int

const (
	reqUNone reqUnitKind = iota
	reqUUnknown
	reqUEpochs
	reqUSamples
	reqUTokens
	reqUSteps
	reqUStepsPerEpoch
	reqUParams
	reqUBits
	reqUNodes
	reqULayers
	reqUHeads
	reqUTime // durations and rates: a measurement, read by `baseline`
)

var reqUnits = map[string]reqUnitKind{
	"ep": reqUEpochs, "eps": reqUEpochs, "epoch": reqUEpochs, "epochs": reqUEpochs,
	"sample": reqUSamples, "samples": reqUSamples, "seqs": reqUSamples, "sequences": reqUSamples,
	"example": reqUSamples, "examples": reqUSamples, "image": reqUSamples, "images": reqUSamples, "img": reqUSamples, "imgs": reqUSamples,
	"token": reqUTokens, "tokens": reqUTokens, "tok": reqUTokens, "toks": reqUTokens,
	"step": reqUSteps, "steps": reqUSteps, "it": reqUSteps, "its": reqUSteps, "iter": reqUSteps, "iters": reqUSteps,
	"iteration": reqUSteps, "iterations": reqUSteps,
	"param": reqUParams, "params": reqUParams, "parameter": reqUParams, "parameters": reqUParams,
	"bit": reqUBits, "bits": reqUBits,
	"node": reqUNodes, "nodes": reqUNodes,
	"layer": reqULayers, "layers": reqULayers,
	"head": reqUHeads, "heads": reqUHeads,
	"h": reqUTime, "hr": reqUTime, "hrs": reqUTime, "hour": reqUTime, "hours": reqUTime,
	"min": reqUTime, "mins": reqUTime, "minute": reqUTime, "minutes": reqUTime,
	"s": reqUTime, "sec": reqUTime, "secs": reqUTime, "second": reqUTime, "seconds": reqUTime, "ms": reqUTime,
	"d": reqUTime, "day": reqUTime, "days": reqUTime,
}

// reqUnitClass classifies a unit word; "a/b" forms are steps per epoch or
// a rate.
func reqUnitClass(u string) reqUnitKind {
	if u == "" {
		return reqUNone
	}
	if num, den, ok := strings.Cut(u, "/"); ok {
		nc, dc := reqUnits[num], reqUnits[den]
		switch {
		case nc == reqUSteps && dc == reqUEpochs:
			return reqUStepsPerEpoch
		case (nc == reqUSamples || nc == reqUTokens || nc == reqUSteps || nc == reqUTime || num == "seq") &&
			(dc == reqUTime || dc == reqUSteps || dc == reqUEpochs):
			return reqUTime
		}
		return reqUUnknown
	}
	if c, ok := reqUnits[u]; ok {
		return c
	}
	return reqUUnknown
}

// ---------------------------------------------------------------------------
// Vocabulary

type reqKwKind int

const (
	reqKwWorkload reqKwKind = iota + 1
	reqKwPrecision
	reqKwCkpt
	reqKwCkptPrefix
	reqKwAttention
	reqKwStrategy
	reqKwZero
	reqKwDeepspeed
	reqKwOptimizer
	reqKwStack
	reqKwInterconnect
	reqKwKey
	reqKwModelKind
	reqKwOn
	reqKwCompare
	reqKwBaseline
	reqKwOf
	reqKwPer
)

type reqKeyword struct {
	kind reqKwKind
	val  string
}

func reqKws(kind reqKwKind, val string, words ...string) map[string]reqKeyword {
	m := map[string]reqKeyword{}
	for _, w := range words {
		m[w] = reqKeyword{kind, val}
	}
	return m
}

// reqKeywords maps every word the language knows (other than model and
// GPU names, units and numbers) to what it does.
var reqKeywords = func() map[string]reqKeyword {
	all := map[string]reqKeyword{}
	for _, m := range []map[string]reqKeyword{
		reqKws(reqKwWorkload, string(planner.Pretrain), "pretrain", "pre-train", "pretraining", "pre-training"),
		reqKws(reqKwWorkload, string(planner.Finetune), "finetune", "fine-tune", "ft", "finetuning", "fine-tuning", "sft"),
		reqKws(reqKwWorkload, string(planner.LoRA), "lora"),
		reqKws(reqKwWorkload, string(planner.QLoRA), "qlora", "q-lora"),
		reqKws(reqKwWorkload, string(planner.Inference), "inference", "infer", "serve", "serving"),
		reqKws(reqKwPrecision, string(planner.FP32), "fp32", "float32", "32bit", "32-bit"),
		reqKws(reqKwPrecision, string(planner.TF32), "tf32"),
		reqKws(reqKwPrecision, string(planner.FP16), "fp16", "float16", "half"),
		reqKws(reqKwPrecision, string(planner.BF16), "bf16", "bfloat16"),
		reqKws(reqKwPrecision, string(planner.FP8), "fp8"),
		reqKws(reqKwPrecision, string(planner.INT8), "int8", "8bit", "8-bit"),
		reqKws(reqKwPrecision, string(planner.INT4), "int4", "nf4", "4bit", "4-bit"),
		reqKws(reqKwPrecision, "amp", "amp"),
		reqKws(reqKwPrecision, "mixed", "mixed", "mixed-precision", "16bit", "16-bit"),
		reqKws(reqKwCkpt, "", "ckpt", "checkpointing", "grad-ckpt", "gradient-checkpointing", "gc",
			"activation-checkpointing", "act-ckpt", "recompute", "recomputation"),
		reqKws(reqKwCkptPrefix, "", "gradient", "grad", "activation"),
		reqKws(reqKwAttention, string(planner.Flash), "flash", "flash-attn", "flash-attention", "flashattention",
			"flashattn", "flash-attn2", "fa", "fa2", "fa3", "sdpa"),
		reqKws(reqKwAttention, string(planner.Eager), "eager"),
		reqKws(reqKwStrategy, string(planner.DDP), "ddp"),
		reqKws(reqKwStrategy, string(planner.ZeRO1), "zero1", "zero-1"),
		reqKws(reqKwStrategy, string(planner.ZeRO2), "zero2", "zero-2"),
		reqKws(reqKwStrategy, string(planner.ZeRO3), "zero3", "zero-3"),
		reqKws(reqKwStrategy, string(planner.FSDP), "fsdp"),
		reqKws(reqKwZero, "", "zero"),
		reqKws(reqKwDeepspeed, "", "deepspeed"),
		reqKws(reqKwOptimizer, string(planner.AdamW), "adamw", "adam"),
		reqKws(reqKwOptimizer, string(planner.Adam8bit), "adam8bit", "8bit-adam", "adamw8bit", "adamw-8bit", "adam-8bit",
			"bnb-adam", "8bit-adamw", "8-bit-adam"),
		reqKws(reqKwOptimizer, string(planner.SGD), "sgd"),
		reqKws(reqKwOptimizer, string(planner.Lion), "lion"),
		reqKws(reqKwStack, string(planner.HF), "hf", "huggingface", "hugging-face", "transformers", "eager-pytorch", "pytorch"),
		reqKws(reqKwStack, string(planner.Tuned), "tuned", "megatron", "megatron-lm", "fused", "nemo"),
		reqKws(reqKwInterconnect, string(planner.NVLink), "nvlink", "nvswitch"),
		reqKws(reqKwInterconnect, string(planner.PCIe), "pcie"),
		reqKws(reqKwInterconnect, string(planner.IB), "ib", "infiniband", "roce"),
		reqKws(reqKwKey, "seq", "seq", "seqlen", "seq-len", "seq-length", "sequence-length", "context", "context-length",
			"ctx", "ctx-len", "max-len", "max-length", "max-seq-len"),
		reqKws(reqKwKey, "batch", "batch", "bs", "global-batch", "batch-size", "batchsize", "global-batch-size", "gbs"),
		reqKws(reqKwKey, "micro", "micro", "micro-batch", "microbatch", "mbs", "micro-batch-size", "per-gpu", "per-device",
			"per-gpu-batch"),
		reqKws(reqKwKey, "rank", "rank", "lora-r", "lora-rank", "r"),
		reqKws(reqKwKey, "gen", "gen", "generate", "output", "max-new-tokens", "new-tokens", "gen-tokens", "output-tokens"),
		reqKws(reqKwKey, "layers", "layers", "n-layers", "num-layers", "n-layer"),
		reqKws(reqKwKey, "hidden", "hidden", "hidden-size", "d-model", "dmodel", "dim"),
		reqKws(reqKwKey, "heads", "heads", "n-heads", "num-heads", "attention-heads"),
		reqKws(reqKwKey, "kv", "kv", "kv-heads", "num-kv-heads", "kv-head", "n-kv-heads"),
		reqKws(reqKwKey, "ffn", "ffn", "ffn-dim", "intermediate", "intermediate-size", "mlp"),
		reqKws(reqKwKey, "vocab", "vocab", "vocab-size"),
		reqKws(reqKwKey, "params", "params", "parameters", "param"),
		reqKws(reqKwKey, "epochs", "epochs", "epoch", "ep"),
		reqKws(reqKwKey, "steps", "steps"),
		reqKws(reqKwKey, "precision", "precision", "dtype"),
		reqKws(reqKwModelKind, string(planner.Encoder), "encoder", "encoder-only"),
		reqKws(reqKwModelKind, string(planner.Decoder), "decoder", "decoder-only"),
		reqKws(reqKwOn, "", "on"),
		reqKws(reqKwCompare, "", "compare"),
		reqKws(reqKwBaseline, "", "baseline", "measured", "took"),
		reqKws(reqKwOf, "", "of", "dataset", "data"),
		reqKws(reqKwPer, "", "per"),
	} {
		for k, v := range m {
			all[k] = v
		}
	}
	return all
}()

// reqFillers are words that carry no meaning of their own.
var reqFillers = map[string]bool{
	"for": true, "with": true, "using": true, "and": true, "or": true, "vs": true, "versus": true, "via": true,
	"a": true, "an": true, "the": true, "in": true, "at": true, "-": true, "+": true, "&": true, "w/": true,
	"plus": true, "train": true, "training": true, "model": true, "please": true, "global": true, "job": true,
}

// reqListSeps separate entries of a hardware list.
var reqListSeps = map[string]bool{",": true, "and": true, "or": true, "vs": true, "versus": true, "/": true}

// reqSuggest is the keyword part of the "did you mean" vocabulary:
// canonical spellings only, long enough that a typo is not mistaken for a
// two-letter alias.
var reqSuggest = []string{
	"pretrain", "finetune", "lora", "qlora", "inference", "epochs", "samples", "tokens", "steps", "params",
	"seq", "context", "batch", "micro", "rank", "generate", "layers", "hidden", "heads", "kv-heads", "ffn", "vocab",
	"encoder", "decoder", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4", "nf4", "mixed", "ckpt",
	"checkpointing", "flash", "eager", "ddp", "zero1", "zero2", "zero3", "fsdp", "adamw", "adam8bit", "sgd", "lion",
	"huggingface", "tuned", "megatron", "nvlink", "pcie", "infiniband", "roce", "compare", "baseline", "nodes",
	"dataset", "precision",
}

// reqUnitSuggest is the vocabulary for the word after a number.
var reqUnitSuggest = []string{"epochs", "samples", "tokens", "steps", "params", "nodes", "layers", "heads",
	"sequences", "examples", "images"}

var reqKeyExamples = map[string]string{
	"seq": "seq 512", "batch": "batch 128", "micro": "micro 32", "rank": "rank 16", "gen": "gen 256",
	"layers": "layers 24", "hidden": "hidden 2048", "heads": "heads 16", "kv": "kv 8", "ffn": "ffn 8192",
	"vocab": "vocab 50k", "params": "params 7b", "epochs": "epochs 10", "steps": "steps 5000", "precision": "precision bf16",
}

// ---------------------------------------------------------------------------
// The parser

// reqSlot is a value the request may give once; a second, different value is
// a contradiction.
type reqSlot[T comparable] struct {
	v    T
	word string // the words that set it, as typed
	set  bool
}

type reqBatch struct {
	n      int
	tokens bool
}

type reqParser struct {
	cat  *planner.Catalog
	text string
	toks []reqToken
	i    int
	req  planner.Request

	// model
	model     reqSlot[string] // "cat:<id>" or "params:<n>"
	catModel  planner.Model
	params    float64
	arch      planner.ArchSpec
	archWords []string
	archSlots map[string]*reqSlot[int]
	kind      reqSlot[planner.ModelKind]

	// work
	epochs, samples, tokens, steps     reqSlot[float64]
	dsSamples, dsTokens, stepsPerEpoch reqSlot[float64]
	workload                           reqSlot[planner.Workload]
	seq, micro, rank, gen              reqSlot[int]
	batch                              reqSlot[reqBatch]
	precision                          reqSlot[planner.Precision]
	amp, mixed                         bool
	attention                          reqSlot[planner.Attention]
	strategy                           reqSlot[planner.Strategy]
	optimizer                          reqSlot[planner.Optimizer]
	stack                              reqSlot[planner.Stack]
	interconnect                       reqSlot[planner.Interconnect]
	compare                            bool
	compareWord                        string
	vocab                              []string
	modelNames, modelNorms, gpuSet     map[string]bool
}

func (p *reqParser) tok(i int) reqToken {
	if i < 0 || i >= len(p.toks) {
		return reqToken{start: len(p.text), end: len(p.text)}
	}
	return p.toks[i]
}

// span is the text of tokens [a, b) as typed.
func (p *reqParser) span(a, b int) string {
	if a >= len(p.toks) || b <= a {
		return ""
	}
	b = min(b, len(p.toks))
	return reqShort(p.text[p.toks[a].start:p.toks[b-1].end])
}

// reqShort keeps echoed words readable.
func reqShort(s string) string {
	if utf8.RuneCountInString(s) <= 48 {
		return s
	}
	r := []rune(s)
	return string(r[:45]) + "…"
}

// try is a hint that shows the request with tokens [a, b) replaced by repl.
func (p *reqParser) try(a, b int, repl string) string {
	start, end := p.tok(a).start, p.tok(a).start
	if b > a {
		end = p.tok(b - 1).end
	}
	s := p.text[:start] + " " + repl + " " + p.text[end:]
	s = strings.Join(strings.Fields(s), " ")
	s = strings.ReplaceAll(s, " ,", ",")
	s = strings.Trim(s, ", ")
	if s == "" || utf8.RuneCountInString(s) > 300 {
		return reqExample
	}
	return "try: gpuplan plan " + s
}

// set records v for s, or fails when s already holds a different value.
func reqSet[T comparable](p *reqParser, s *reqSlot[T], v T, a, b int, plural string) error {
	if s.set {
		if s.v == v {
			return nil
		}
		return &UserError{
			Msg:  fmt.Sprintf("two %s: `%s` and `%s` — which one?", plural, s.word, p.span(a, b)),
			Hint: p.try(a, b, ""),
		}
	}
	*s = reqSlot[T]{v: v, word: p.span(a, b), set: true}
	return nil
}

func (p *reqParser) note(s string) {
	if s != "" && !slices.Contains(p.req.Job.Notes, s) {
		p.req.Job.Notes = append(p.req.Job.Notes, s)
	}
}

func (p *reqParser) run() error {
	for p.i < len(p.toks) {
		if err := p.step(); err != nil {
			return err
		}
	}
	return p.finish()
}

// step reads one phrase at p.i.
func (p *reqParser) step() error {
	t := p.toks[p.i]
	if t.w == "," || t.w == "=" || reqFillers[t.w] {
		p.i++
		return nil
	}
	if kw, ok := reqKeywords[t.w]; ok {
		return p.keyword(kw)
	}
	if t.w[0] == '-' && reqStartsNumber(t.w[1:]) {
		return &UserError{Msg: fmt.Sprintf("`%s` is negative; amounts and sizes are positive", reqShort(t.raw)),
			Hint: p.try(p.i, p.i+1, strings.TrimLeft(t.raw, "-"))}
	}
	if reqStartsNumber(t.w) {
		return p.number()
	}
	if ok, err := p.catalogModel(); ok || err != nil {
		return err
	}
	if hw, ok, err := p.hardware(false); err != nil {
		return err
	} else if ok {
		p.req.Targets = append(p.req.Targets, hw)
		return nil
	}
	return p.unknown(p.i, nil)
}

// known reports whether token i is a word the language reads (so that an
// error about the word before it should not blame it).
func (p *reqParser) known(i int) bool {
	t := p.tok(i)
	if t.w == "" || t.w == "," || t.w == "=" || reqFillers[t.w] || reqStartsNumber(t.w) {
		return true
	}
	if _, ok := reqKeywords[t.w]; ok {
		return true
	}
	if reqUnitClass(t.w) > reqUUnknown {
		return true
	}
	if _, _, err := p.cat.Model(t.w); err == nil || reqAmbiguous(err) {
		return true
	}
	return p.isGPU(t.w)
}

func reqAmbiguous(err error) bool {
	var nf *planner.NotFoundError
	return errors.As(err, &nf) && nf.Ambiguous
}

func (p *reqParser) isGPU(w string) bool {
	_, _, err := p.cat.GPU(w)
	return err == nil
}

// unknown is the error for a word nothing reads. prefer, when given, is
// searched for a suggestion before the whole vocabulary.
func (p *reqParser) unknown(i int, prefer []string) error {
	t := p.tok(i)
	if c := reqUnitClass(t.w); c > reqUUnknown {
		return p.needNumber(i, c)
	}
	sug := p.suggest(t.w, prefer)
	if sug == "" {
		return &UserError{Msg: fmt.Sprintf("I don't understand `%s`", reqShort(t.raw)), Hint: reqKinds}
	}
	p.loadVocab()
	what := "I don't understand"
	switch {
	case p.modelNames[sug]:
		what = "unknown model"
	case p.gpuSet[sug]:
		what = "unknown GPU"
	}
	return &UserError{Msg: fmt.Sprintf("%s `%s` — did you mean `%s`?", what, reqShort(t.raw), sug),
		Hint: p.try(i, i+1, sug)}
}

// suggest returns the nearest word to w, from prefer first, then from the
// whole vocabulary; "" when nothing is close or w is too short to judge.
func (p *reqParser) suggest(w string, prefer []string) string {
	if len(reqNorm(w)) < 3 {
		return ""
	}
	if len(prefer) > 0 {
		if s := planner.Nearest(w, prefer, 1); len(s) > 0 {
			return s[0]
		}
	}
	p.loadVocab()
	if s := planner.Nearest(w, p.vocab, 1); len(s) > 0 {
		return s[0]
	}
	return ""
}

func (p *reqParser) loadVocab() {
	if p.vocab != nil {
		return
	}
	p.modelNames, p.gpuSet, p.modelNorms = map[string]bool{}, map[string]bool{}, map[string]bool{}
	p.vocab = append(p.vocab, reqSuggest...)
	for _, n := range p.cat.ModelNames() {
		p.modelNames[n] = true
		p.modelNorms[reqNorm(n)] = true
		p.vocab = append(p.vocab, n)
	}
	for _, n := range p.cat.GPUNames() {
		p.gpuSet[n] = true
		p.vocab = append(p.vocab, n)
	}
}

// gpuFamilies lists the short GPU names, for hints.
func (p *reqParser) gpuFamilies() string {
	var fam []string
	for _, n := range p.cat.GPUNames() {
		if !strings.Contains(n, "-") && !slices.Contains(fam, n) {
			fam = append(fam, n) // families ("h100") and one-word ids ("t4")
		}
	}
	return "GPUs I know: " + strings.Join(fam, ", ")
}

// reqNorm folds a name the way the catalogue does: lower case letters and
// digits, '.' as 'p'.
func reqNorm(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '.':
			b.WriteByte('p')
		}
	}
	return b.String()
}

// ---------------------------------------------------------------------------
// Keywords

func (p *reqParser) keyword(kw reqKeyword) error {
	a := p.i
	t := p.toks[a]
	p.i++
	switch kw.kind {
	case reqKwWorkload:
		return p.setWorkload(planner.Workload(kw.val), a, p.i)
	case reqKwPrecision:
		if t.w == "8bit" || t.w == "8-bit" {
			if n := p.tok(p.i).w; n == "adam" || n == "adamw" {
				p.i++
				return reqSet(p, &p.optimizer, planner.Adam8bit, a, p.i, "optimizers")
			}
		}
		if p.tok(p.i).w == "precision" {
			p.i++
		}
		return p.setPrecision(kw.val, a, p.i)
	case reqKwCkpt:
		p.req.Job.Checkpointing = true
	case reqKwCkptPrefix:
		if n := reqKeywords[p.tok(p.i).w]; n.kind == reqKwCkpt {
			p.i++
			p.req.Job.Checkpointing = true
			return nil
		}
		return &UserError{Msg: fmt.Sprintf("`%s` what? I know `%s checkpointing`", t.raw, t.w),
			Hint: p.try(a, a+1, "gradient-checkpointing")}
	case reqKwAttention:
		named := strings.Contains(t.w, "attn") || strings.Contains(t.w, "attention")
		if n := p.tok(p.i).w; n == "attention" || n == "attn" {
			p.i++
			named = true
		}
		// "flash attention 2"
		if n := p.tok(p.i).w; named && (n == "2" || n == "3") && reqUnitClass(p.tok(p.i+1).w) <= reqUUnknown {
			p.i++
		}
		return reqSet(p, &p.attention, planner.Attention(kw.val), a, p.i, "attention kernels")
	case reqKwStrategy:
		return reqSet(p, &p.strategy, planner.Strategy(kw.val), a, p.i, "sharding strategies")
	case reqKwDeepspeed:
		if n := reqKeywords[p.tok(p.i).w]; n.kind == reqKwStrategy && strings.HasPrefix(p.tok(p.i).w, "zero") || n.kind == reqKwZero {
			return nil // "deepspeed zero2": the stage says it all
		}
		return &UserError{Msg: fmt.Sprintf("`%s` needs a ZeRO stage: `zero1`, `zero2` or `zero3`", t.raw),
			Hint: p.try(a, a+1, "zero2")}
	case reqKwZero:
		for p.tok(p.i).w == "=" || p.tok(p.i).w == "stage" || p.tok(p.i).w == "-" {
			p.i++
		}
		stage := map[string]planner.Strategy{"1": planner.ZeRO1, "2": planner.ZeRO2, "3": planner.ZeRO3}[p.tok(p.i).w]
		if stage == "" {
			return &UserError{Msg: fmt.Sprintf("`%s` needs a stage: `zero1`, `zero2` or `zero3`", p.span(a, p.i+1)),
				Hint: p.try(a, a+1, "zero2")}
		}
		p.i++
		return reqSet(p, &p.strategy, stage, a, p.i, "sharding strategies")
	case reqKwOptimizer:
		if n := p.tok(p.i).w; (t.w == "adam" || t.w == "adamw") && (n == "8bit" || n == "8-bit") {
			p.i++
			return reqSet(p, &p.optimizer, planner.Adam8bit, a, p.i, "optimizers")
		}
		return reqSet(p, &p.optimizer, planner.Optimizer(kw.val), a, p.i, "optimizers")
	case reqKwStack:
		return reqSet(p, &p.stack, planner.Stack(kw.val), a, p.i, "stacks")
	case reqKwInterconnect:
		return reqSet(p, &p.interconnect, planner.Interconnect(kw.val), a, p.i, "interconnects")
	case reqKwModelKind:
		return reqSet(p, &p.kind, planner.ModelKind(kw.val), a, p.i, "model kinds")
	case reqKwKey:
		return p.key(kw.val, a)
	case reqKwPer:
		if n := p.tok(p.i).w; n == "gpu" || n == "device" {
			p.i++
			return p.key("micro", a)
		}
		return p.unknown(a, nil)
	case reqKwOf:
		return p.dataset(a)
	case reqKwOn:
		j := p.i
		for w := p.tok(j).w; w == "a" || w == "the" || w == "my"; w = p.tok(j).w {
			j++
		}
		if n := p.tok(j).w; n == "dataset" || n == "data" {
			p.i = j // "on a dataset of 2.5M samples"
			return nil
		}
		if p.i >= len(p.toks) {
			return &UserError{Msg: "`on` needs hardware after it, like `on h100x2`", Hint: p.try(a, a+1, "on h100x2")}
		}
		return p.hardwareList(true)
	case reqKwCompare:
		p.compare = true
		if p.compareWord == "" {
			p.compareWord = p.span(a, a+1)
		}
		// "compare on h200x4, a100x4", "compare h200x4 a100x4", or
		// "compare bert-base on h200x4 vs a100x4" (the targets come later)
		if p.tok(p.i).w == "on" {
			p.i++
			return p.hardwareList(true)
		}
		return p.hardwareList(p.i < len(p.toks) && !p.known(p.i))
	case reqKwBaseline:
		return p.baseline(a)
	}
	return nil
}

func (p *reqParser) setWorkload(w planner.Workload, a, b int) error {
	if p.workload.set {
		cur := p.workload.v
		// LoRA and QLoRA are ways to fine-tune: "lora finetune" is LoRA.
		if cur == planner.Finetune && (w == planner.LoRA || w == planner.QLoRA) {
			p.workload = reqSlot[planner.Workload]{v: w, word: p.span(a, b), set: true}
			return nil
		}
		if w == planner.Finetune && (cur == planner.LoRA || cur == planner.QLoRA) {
			return nil
		}
	}
	return reqSet(p, &p.workload, w, a, b, "workloads")
}

// setPrecision records a precision word. `amp` means fp16 autocast unless
// another precision is named ("bf16 amp" is bf16); `mixed` leaves the
// choice of 16-bit format to the planner.
func (p *reqParser) setPrecision(v string, a, b int) error {
	switch v {
	case "amp":
		p.amp = true
		return nil
	case "mixed":
		p.mixed = true
		return nil
	}
	return reqSet(p, &p.precision, planner.Precision(v), a, b, "precisions")
}

// ---------------------------------------------------------------------------
// Keys with a number: seq 512, batch 128 = 4x32, micro 32, layers 24, …

// value reads the number after a key. Skip words ("size", "len") and '='
// may come between. It returns the number and a unit fused to it.
func (p *reqParser) value(key string, a int, skip ...string) (reqNumber, string, error) {
	for p.tok(p.i).w == "=" || slices.Contains(skip, p.tok(p.i).w) {
		p.i++
	}
	t := p.tok(p.i)
	if !reqStartsNumber(t.w) {
		what := "`" + reqShort(p.toks[a].raw) + "` needs a number after it"
		if p.i < len(p.toks) && !p.known(p.i) {
			what = "`" + reqShort(p.toks[a].raw) + "` needs a number, not `" + reqShort(t.raw) + "`"
		}
		return reqNumber{}, "", &UserError{Msg: fmt.Sprintf("%s, like `%s`", what, reqKeyExamples[key]),
			Hint: p.try(a, p.i, reqKeyExamples[key])}
	}
	n, unit, ok := reqScanNumber(t.w)
	if !ok {
		return reqNumber{}, "", p.badNumber(p.i)
	}
	p.i++
	return n, unit, nil
}

func (p *reqParser) badNumber(i int) error {
	return &UserError{Msg: fmt.Sprintf("`%s` is not a number I can read", reqShort(p.tok(i).raw)),
		Hint: "numbers look like 512, 2.5M, 1.2B, 15T, 100k, 2,464,256 or 1e6"}
}

// check validates a value for the phrase [a, b): finite, within [lo, hi],
// and whole when asked.
func (p *reqParser) check(v float64, a, b int, lo, hi float64, hiText string, whole bool) error {
	phrase := p.span(a, b)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0) || v > hi:
		return &UserError{Msg: fmt.Sprintf("`%s` is more than gpuplan plans for (at most %s)", phrase, hiText),
			Hint: p.try(a, b, "")}
	case v <= 0:
		return &UserError{Msg: fmt.Sprintf("`%s` must be more than zero", phrase), Hint: p.try(a, b, "")}
	case whole && v != math.Trunc(v):
		return &UserError{Msg: fmt.Sprintf("`%s` must be a whole number", phrase), Hint: p.try(a, b, "")}
	case v < lo:
		return &UserError{Msg: fmt.Sprintf("`%s` must be at least %s", phrase, reqTrimNum(lo)), Hint: p.try(a, b, "")}
	}
	return nil
}

func reqTrimNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// reqSeqValue turns a context length as typed into tokens. "8k" is 8192, not
// 8000: contexts are powers of two, and people write 4k/8k/32k/128k for
// 4096…131072. So a k on a power-of-two whole number (1k, 2k, 4k … 128k,
// 256k) means ×1024; any other k ("10k", "1.5k") means ×1000, and m/b/t
// are decimal.
func reqSeqValue(n reqNumber) float64 {
	if n.mult == 'k' && n.mant >= 1 && n.mant == math.Trunc(n.mant) && n.mant < 1<<20 {
		if m := int(n.mant); m&(m-1) == 0 {
			return float64(m) * 1024
		}
	}
	return n.v
}

// plainValue reads the number after key and refuses a unit glued to it
// ("rank 16gb").
func (p *reqParser) plainValue(key string, a int, skip ...string) (reqNumber, error) {
	n, unit, err := p.value(key, a, skip...)
	if err != nil {
		return n, err
	}
	if unit != "" {
		return n, p.badNumber(p.i - 1)
	}
	return n, nil
}

func (p *reqParser) key(key string, a int) error {
	switch key {
	case "seq":
		n, unit, err := p.value(key, a, "len", "length", "size", "window", "of")
		if err != nil {
			return err
		}
		if unit == "" && reqUnitClass(p.tok(p.i).w) == reqUTokens {
			p.i++
		} else if c := reqUnitClass(unit); c != reqUNone && c != reqUTokens {
			return p.badNumber(p.i - 1)
		}
		v := reqSeqValue(n)
		if err := p.check(v, a, p.i, 1, 10e6, "10M tokens", true); err != nil {
			return err
		}
		return reqSet(p, &p.seq, int(v), a, p.i, "sequence lengths")
	case "batch":
		return p.batchKey(a)
	case "micro":
		n, err := p.plainValue(key, a, "batch", "size", "bs")
		if err != nil {
			return err
		}
		if err := p.check(n.v, a, p.i, 1, 1e6, "1M", true); err != nil {
			return err
		}
		return reqSet(p, &p.micro, int(n.v), a, p.i, "micro-batch sizes")
	case "rank":
		n, err := p.plainValue(key, a, "r", "rank")
		if err != nil {
			return err
		}
		if err := p.check(n.v, a, p.i, 1, 65536, "65536", true); err != nil {
			return err
		}
		return reqSet(p, &p.rank, int(n.v), a, p.i, "LoRA ranks")
	case "gen":
		n, unit, err := p.value(key, a, "tokens", "len", "length")
		if err != nil {
			return err
		}
		if unit == "" && reqUnitClass(p.tok(p.i).w) == reqUTokens {
			p.i++
		} else if c := reqUnitClass(unit); c != reqUNone && c != reqUTokens {
			return p.badNumber(p.i - 1)
		}
		if err := p.check(n.v, a, p.i, 1, 10e6, "10M tokens", true); err != nil {
			return err
		}
		return reqSet(p, &p.gen, int(n.v), a, p.i, "generation lengths")
	case "layers", "hidden", "heads", "kv", "ffn", "vocab":
		skip := map[string][]string{"kv": {"heads", "head"}, "hidden": {"size", "dim"}, "ffn": {"size", "dim"},
			"vocab": {"size"}}[key]
		n, err := p.plainValue(key, a, skip...)
		if err != nil {
			return err
		}
		return p.setArch(key, n.v, a, p.i)
	case "params":
		n, err := p.plainValue(key, a)
		if err != nil {
			return err
		}
		return p.setParams(n.v, a, p.i)
	case "epochs":
		n, err := p.plainValue(key, a)
		if err != nil {
			return err
		}
		return p.setAmount(reqUEpochs, n.v, a, p.i, false)
	case "steps":
		n, err := p.plainValue(key, a)
		if err != nil {
			return err
		}
		return p.setAmount(reqUSteps, n.v, a, p.i, false)
	case "precision":
		for p.tok(p.i).w == "=" {
			p.i++
		}
		if kw, ok := reqKeywords[p.tok(p.i).w]; ok && kw.kind == reqKwPrecision {
			b := p.i
			p.i++
			return p.setPrecision(kw.val, b, p.i)
		}
		return &UserError{Msg: fmt.Sprintf("`%s` needs a precision after it: fp32, tf32, fp16, bf16, fp8, int8 or int4",
			p.span(a, p.i+1)), Hint: p.try(a, p.i, "bf16")}
	}
	return nil
}

// reqArchLimits bound the architecture numbers to what a real model could be.
var reqArchLimits = map[string]struct {
	hi     float64
	hiText string
}{
	"layers": {10000, "10,000"}, "hidden": {1e6, "1M"}, "heads": {1e5, "100k"}, "kv": {1e5, "100k"},
	"ffn": {1e7, "10M"}, "vocab": {1e7, "10M"},
}

// setArch records one architecture number. Sizes use decimal multipliers:
// "vocab 50k" is 50,000 and "vocab 32k" 32,000, as vocabularies are quoted.
func (p *reqParser) setArch(key string, v float64, a, b int) error {
	lim := reqArchLimits[key]
	if err := p.check(v, a, b, 1, lim.hi, lim.hiText, true); err != nil {
		return err
	}
	if p.archSlots == nil {
		p.archSlots = map[string]*reqSlot[int]{}
	}
	s := p.archSlots[key]
	if s == nil {
		s = &reqSlot[int]{}
		p.archSlots[key] = s
	}
	plural := map[string]string{"layers": "layer counts", "hidden": "hidden sizes", "heads": "head counts",
		"kv": "kv-head counts", "ffn": "FFN sizes", "vocab": "vocabulary sizes"}[key]
	if err := reqSet(p, s, int(v), a, b, plural); err != nil {
		return err
	}
	switch key {
	case "layers":
		p.arch.Layers = int(v)
	case "hidden":
		p.arch.Hidden = int(v)
	case "heads":
		p.arch.Heads = int(v)
	case "kv":
		p.arch.KVHeads = int(v)
	case "ffn":
		p.arch.FFN = int(v)
	case "vocab":
		p.arch.Vocab = int(v)
	}
	p.archWords = append(p.archWords, p.span(a, b))
	return nil
}

func (p *reqParser) setParams(v float64, a, b int) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 1e6 || v > 5e12 {
		return &UserError{Msg: fmt.Sprintf("`%s` is outside the 1M–5T parameters gpuplan plans for", p.span(a, b)),
			Hint: p.try(a, b, "7b params")}
	}
	if err := reqSet(p, &p.model, "params:"+reqTrimNum(v), a, b, "models"); err != nil {
		return err
	}
	p.params = v
	return nil
}

// batchKey reads "batch 128", "batch 4M tokens", "batch 4x32",
// "batch 128 = 4x32" (4 GPUs × micro-batch 32) and "batch 32 per gpu".
func (p *reqParser) batchKey(a int) error {
	for p.tok(p.i).w == "=" || p.tok(p.i).w == "size" || p.tok(p.i).w == "of" {
		p.i++
	}
	if f, next, ok := p.factors(p.i); ok {
		p.i = next
		prod := 1
		for _, x := range f {
			prod *= x
		}
		if err := p.check(float64(prod), a, p.i, 1, 100e6, "100M", true); err != nil {
			return err
		}
		if err := reqSet(p, &p.batch, reqBatch{n: prod}, a, p.i, "batch sizes"); err != nil {
			return err
		}
		return reqSet(p, &p.micro, f[1], a, p.i, "micro-batch sizes")
	}
	n, unit, err := p.value("batch", a)
	if err != nil {
		return err
	}
	tokens := false
	if unit == "" {
		switch reqUnitClass(p.tok(p.i).w) {
		case reqUTokens:
			tokens = true
			p.i++
		case reqUSamples:
			p.i++
		}
	} else {
		switch reqUnitClass(unit) {
		case reqUTokens:
			tokens = true
		case reqUSamples:
		default:
			return p.badNumber(p.i - 1)
		}
	}
	if w := p.tok(p.i).w; !tokens && (w == "per-gpu" || w == "/gpu" || w == "per-device" ||
		w == "per" && (p.tok(p.i+1).w == "gpu" || p.tok(p.i+1).w == "device")) {
		p.i++
		if w == "per" {
			p.i++
		}
		if err := p.check(n.v, a, p.i, 1, 1e6, "1M", true); err != nil {
			return err
		}
		return reqSet(p, &p.micro, int(n.v), a, p.i, "micro-batch sizes")
	}
	if tokens {
		if err := p.check(n.v, a, p.i, 1, 10e9, "10B tokens", true); err != nil {
			return err
		}
	} else if err := p.check(n.v, a, p.i, 1, 100e6, "100M", true); err != nil {
		return err
	}
	// "= 4x32": GPUs × micro-batch (× accumulation)
	j := p.i
	if p.tok(j).w == "=" {
		j++
	}
	f, next, ok := p.factors(j)
	if !ok {
		return reqSet(p, &p.batch, reqBatch{n: int(n.v), tokens: tokens}, a, p.i, "batch sizes")
	}
	if tokens {
		return &UserError{Msg: fmt.Sprintf("`%s` mixes a batch in tokens with GPUs × micro-batch", p.span(a, next)),
			Hint: p.try(a, next, "batch 128 = 4x32")}
	}
	p.i = next
	prod := 1
	for _, x := range f {
		prod *= x
	}
	if int(n.v)%prod != 0 || len(f) == 3 && prod != int(n.v) {
		return &UserError{Msg: fmt.Sprintf("`%s` does not add up: %s is %d", p.span(a, p.i), p.span(j, next), prod),
			Hint: p.try(a, p.i, fmt.Sprintf("batch %d = %s", prod, p.span(j, next)))}
	}
	if err := reqSet(p, &p.batch, reqBatch{n: int(n.v)}, a, p.i, "batch sizes"); err != nil {
		return err
	}
	return reqSet(p, &p.micro, f[1], a, p.i, "micro-batch sizes")
}

// factors reads "4x32" (GPUs × micro-batch) or "4x32x2" (× accumulation)
// at token i, also spelled "4 x 32".
func (p *reqParser) factors(i int) ([]int, int, bool) {
	w, next := p.tok(i).w, i+1
	if _, rest, ok := reqScanInt(w); ok && rest == "" && (p.tok(i+1).w == "x" || p.tok(i+1).w == "*") {
		w, next = w+"x"+p.tok(i+2).w, i+3
	}
	parts := strings.FieldsFunc(w, func(r rune) bool { return r == 'x' || r == '*' })
	if len(parts) < 2 || len(parts) > 3 || strings.Count(w, "x")+strings.Count(w, "*") != len(parts)-1 {
		return nil, 0, false
	}
	var f []int
	for _, s := range parts {
		n, rest, ok := reqScanInt(s)
		if !ok || rest != "" || n < 1 || n > 1e6 {
			return nil, 0, false
		}
		f = append(f, n)
	}
	return f, next, true
}

// ---------------------------------------------------------------------------
// Amounts: 10 epochs, of 2.5M samples, 1.2B tokens, 5000 steps

// reqQuantity is a number and the unit after it.
type reqQuantity struct {
	n     reqNumber
	unit  string
	class reqUnitKind
	fused bool // the unit was part of the number's token
}

// readQuantity reads a number at p.i and, when it has one, its unit: fused
// ("10ep"), the next word ("10 epochs"), or steps per epoch spelled
// "steps/epoch", "steps / epoch" or "steps per epoch".
func (p *reqParser) readQuantity() (reqQuantity, error) {
	n, unit, ok := reqScanNumber(p.tok(p.i).w)
	if !ok {
		return reqQuantity{}, p.badNumber(p.i)
	}
	p.i++
	q := reqQuantity{n: n, unit: unit, class: reqUnitClass(unit), fused: unit != ""}
	if unit == "" {
		if c := reqUnitClass(p.tok(p.i).w); c > reqUUnknown {
			q.unit, q.class = p.tok(p.i).w, c
			p.i++
		}
	}
	if q.class == reqUSteps {
		switch {
		case (p.tok(p.i).w == "per" || p.tok(p.i).w == "/" || p.tok(p.i).w == "an" || p.tok(p.i).w == "a") &&
			reqUnitClass(p.tok(p.i+1).w) == reqUEpochs:
			p.i += 2
			q.class = reqUStepsPerEpoch
		case strings.HasPrefix(p.tok(p.i).w, "/") && reqUnitClass(p.tok(p.i).w[1:]) == reqUEpochs:
			p.i++
			q.class = reqUStepsPerEpoch
		}
	}
	return q, nil
}

// number reads a phrase that starts with a number.
func (p *reqParser) number() error {
	a := p.i
	q, err := p.readQuantity()
	if err != nil {
		return err
	}
	b := p.i
	switch q.class {
	case reqUEpochs, reqUSamples, reqUTokens, reqUSteps, reqUStepsPerEpoch:
		return p.setAmount(q.class, q.n.v, a, b, false)
	case reqUParams:
		return p.setParams(q.n.v, a, b)
	case reqUBits:
		v := map[float64]string{4: string(planner.INT4), 8: string(planner.INT8), 16: "mixed", 32: string(planner.FP32)}[q.n.v]
		if v == "" {
			return &UserError{Msg: fmt.Sprintf("`%s` is not a precision I know; 4-bit, 8-bit, 16-bit and 32-bit are", p.span(a, b)),
				Hint: p.try(a, b, "int4")}
		}
		return p.setPrecision(v, a, b)
	case reqULayers:
		return p.setArch("layers", q.n.v, a, b)
	case reqUHeads:
		return p.setArch("heads", q.n.v, a, b)
	case reqUTime:
		return &UserError{
			Msg:  fmt.Sprintf("`%s` is a measurement; a plan needs the work (`10 epochs`, `5000 steps`) — a measured run goes in a baseline", p.span(a, b)),
			Hint: p.try(a, b, "baseline "+p.span(a, b)+" on 4x v100"),
		}
	}
	// No unit: hardware ("2 h100", "2xh100", "4090", "2 nodes of 8x h100")?
	p.i = a
	hw, ok, err := p.hardware(false)
	if err != nil {
		return err
	}
	if ok {
		p.req.Targets = append(p.req.Targets, hw)
		return nil
	}
	p.i = a
	t := p.toks[a]
	if q.fused && q.class == reqUUnknown {
		u := strings.TrimLeft(q.unit, "-")
		if sug := p.suggest(u, reqUnitSuggest); sug != "" {
			fix := strings.TrimSuffix(t.w, q.unit) + " " + sug
			return &UserError{Msg: fmt.Sprintf("I don't understand `%s` — did you mean `%s`?", reqShort(t.raw), fix),
				Hint: p.try(a, a+1, fix)}
		}
		return &UserError{Msg: fmt.Sprintf("I don't understand `%s`", reqShort(t.raw)), Hint: reqKinds}
	}
	if a+1 < len(p.toks) && !p.known(a+1) {
		return p.unknown(a+1, reqUnitSuggest)
	}
	return &UserError{
		Msg: fmt.Sprintf("`%s` needs a unit: `%s epochs`, `%s samples`, `%s tokens`, `%s steps` or `%s params`?",
			reqShort(t.raw), reqShort(t.raw), reqShort(t.raw), reqShort(t.raw), reqShort(t.raw), reqShort(t.raw)),
		Hint: p.try(a, a+1, t.raw+" epochs"),
	}
}

// needNumber is the error for a unit word with no number before it.
func (p *reqParser) needNumber(i int, c reqUnitKind) error {
	ex := map[reqUnitKind]string{reqUEpochs: "10 epochs", reqUSamples: "2.5M samples", reqUTokens: "1.2B tokens",
		reqUSteps: "5000 steps", reqUStepsPerEpoch: "19252 steps/epoch", reqUParams: "7b params", reqUBits: "4bit",
		reqUNodes: "on 2 nodes of 8x h100", reqULayers: "24 layers", reqUHeads: "16 heads", reqUTime: "baseline 5.67 h/epoch on 4x v100"}[c]
	return &UserError{Msg: fmt.Sprintf("`%s` needs a number before it, like `%s`", reqShort(p.tok(i).raw), ex),
		Hint: p.try(i, i+1, ex)}
}

// dataset reads "of 2.5M samples" / "of 1.2B tokens" after `of` at a.
func (p *reqParser) dataset(a int) error {
	for w := p.tok(p.i).w; w == "of" || w == "=" || w == "size" || w == "is"; w = p.tok(p.i).w {
		p.i++
	}
	if reqStartsNumber(p.tok(p.i).w) {
		q, err := p.readQuantity()
		if err != nil {
			return err
		}
		if q.class == reqUSamples || q.class == reqUTokens {
			return p.setAmount(q.class, q.n.v, a, p.i, true)
		}
	}
	return &UserError{Msg: fmt.Sprintf("`%s` should say the dataset size, like `of 2.5M samples` or `of 1.2B tokens`",
		p.span(a, p.i+1)), Hint: p.try(a, p.i, "of 2.5M samples")}
}

// setAmount records an amount of work. Bare samples and tokens are totals
// unless epochs are given (then they are the dataset, sorted out at the
// end); after `of` they are always the dataset.
func (p *reqParser) setAmount(c reqUnitKind, v float64, a, b int, of bool) error {
	type limit struct {
		hi     float64
		hiText string
	}
	lim := map[reqUnitKind]limit{reqUEpochs: {100e3, "100k epochs"}, reqUSamples: {1e13, "10T samples"},
		reqUTokens: {1e15, "1000T tokens"}, reqUSteps: {1e9, "1B steps"}, reqUStepsPerEpoch: {1e9, "1B steps"}}[c]
	if err := p.check(v, a, b, 0, lim.hi, lim.hiText, c == reqUSteps || c == reqUStepsPerEpoch); err != nil {
		return err
	}
	switch {
	case c == reqUEpochs:
		return reqSet(p, &p.epochs, v, a, b, "epoch counts")
	case c == reqUSteps:
		return reqSet(p, &p.steps, v, a, b, "step counts")
	case c == reqUStepsPerEpoch:
		return reqSet(p, &p.stepsPerEpoch, v, a, b, "epoch sizes")
	case c == reqUSamples && of:
		return reqSet(p, &p.dsSamples, v, a, b, "dataset sizes")
	case c == reqUTokens && of:
		return reqSet(p, &p.dsTokens, v, a, b, "dataset sizes")
	case c == reqUSamples:
		return reqSet(p, &p.samples, v, a, b, "sample counts")
	default:
		return reqSet(p, &p.tokens, v, a, b, "token counts")
	}
}

// ---------------------------------------------------------------------------
// Models

// catalogModel reads a catalogue model name at p.i: one word ("llama3-8b")
// or, spelled with spaces, two or three that together are exactly a
// catalogue name ("llama 3 8b", "bert base").
func (p *reqParser) catalogModel() (bool, error) {
	p.loadVocab()
	for n := 3; n >= 2; n-- {
		if p.i+n > len(p.toks) {
			continue
		}
		var parts []string
		for _, t := range p.toks[p.i : p.i+n] {
			parts = append(parts, t.w)
		}
		joined := strings.Join(parts, " ")
		if !p.modelNorms[reqNorm(joined)] {
			continue
		}
		if m, res, err := p.cat.Model(joined); err == nil {
			return true, p.setModel(m, res, p.i, p.i+n)
		}
	}
	t := p.toks[p.i]
	m, res, err := p.cat.Model(t.w)
	if err == nil {
		return true, p.setModel(m, res, p.i, p.i+1)
	}
	var nf *planner.NotFoundError
	if errors.As(err, &nf) && nf.Ambiguous && len(nf.Candidates) > 0 && len(reqNorm(t.w)) >= 3 {
		c := nf.Candidates
		more := ""
		if len(c) > 5 {
			more = fmt.Sprintf(" and %d more", len(c)-5)
			c = c[:5]
		}
		return true, &UserError{
			Msg:  fmt.Sprintf("model `%s` matches several: `%s`%s — say which", reqShort(t.raw), strings.Join(c, "`, `"), more),
			Hint: p.try(p.i, p.i+1, c[0]),
		}
	}
	return false, nil
}

func (p *reqParser) setModel(m planner.Model, res planner.Resolution, a, b int) error {
	if err := reqSet(p, &p.model, "cat:"+m.ID, a, b, "models"); err != nil {
		return err
	}
	p.catModel = m
	p.note(res.Note)
	p.i = b
	return nil
}

// ---------------------------------------------------------------------------
// Hardware: on h100x2, on 2x h100, on H100 x 2, on 2 nodes of 8x h100

// hardwareList reads hardware entries after `on` or `compare`, separated
// by commas, `and` or `vs`. With must, the first entry has to be there;
// the others are read while they look like hardware.
func (p *reqParser) hardwareList(must bool) error {
	for n := 0; ; n++ {
		save := p.i
		commit := must && n == 0
		if n > 0 {
			sep := false
			for reqListSeps[p.tok(p.i).w] {
				p.i++
				sep = true
			}
			// after a separator, a word nothing else reads is a GPU typo
			commit = sep && p.i < len(p.toks) && !p.known(p.i)
		}
		hw, ok, err := p.hardware(commit)
		if err != nil {
			return err
		}
		if !ok {
			p.i = save
			return nil
		}
		p.req.Targets = append(p.req.Targets, hw)
	}
}

// hardware reads one entry at p.i. Without commit it gives up quietly
// (ok false, p.i unchanged) when the words do not look like hardware; with
// commit, or once a count marker ("2x", "nodes") has been read, it fails
// with an error that names the word.
func (p *reqParser) hardware(commit bool) (planner.Hardware, bool, error) {
	a := p.i
	fail := func() (planner.Hardware, bool, error) {
		p.i = a
		return planner.Hardware{}, false, nil
	}
	t := p.tok(p.i)
	if t.w == "" {
		if commit {
			return planner.Hardware{}, false, &UserError{Msg: "which GPUs? the request ends where hardware should be",
				Hint: p.try(p.i, p.i, "h100x2")}
		}
		return fail()
	}
	// "2 nodes of 8x h100"
	if n, rest, ok := reqScanInt(t.w); ok && !p.isGPU(t.w) {
		j := -1
		switch {
		case reqUnitClass(rest) == reqUNodes:
			j = p.i + 1
		case rest == "" && reqUnitClass(p.tok(p.i+1).w) == reqUNodes:
			j = p.i + 2
		}
		if j >= 0 {
			p.i = j
			for w := p.tok(p.i).w; w == "of" || w == "with" || w == "x" || w == "*" || w == "=" || w == "each"; w = p.tok(p.i).w {
				p.i++
			}
			inner, _, err := p.hardware(true)
			if err != nil {
				return inner, false, err
			}
			if inner.GPUsPerNode > 0 {
				return inner, false, &UserError{Msg: fmt.Sprintf("`%s` nests nodes in nodes", p.span(a, p.i)),
					Hint: p.try(a, p.i, "2 nodes of 8x h100")}
			}
			// Each written count is 1–4096; a node group may total more, as
			// published runs do (Llama 3.1 405B: 2048 nodes of 8x h100).
			if n < 1 || n*inner.Count > reqMaxGPUs {
				return inner, false, &UserError{Msg: fmt.Sprintf("`%s` is %s GPUs; a plan takes 1 to %d", p.span(a, p.i), reqCountText(n, inner.Count), reqMaxGPUs),
					Hint: p.try(a, p.i, "2 nodes of 8x "+inner.GPU.ID)}
			}
			hw := inner
			hw.Count, hw.GPUsPerNode = n*inner.Count, inner.Count
			if n > 1 && hw.Interconnect == planner.InterconnectAuto {
				hw.Interconnect = planner.IB
			}
			return hw, true, nil
		}
	}
	count, countTok := 0, -1
	first, firstTok := t.w, p.i
	if n, rest, ok := reqScanInt(t.w); ok && !p.isGPU(t.w) {
		switch {
		case rest == "x" || rest == "*":
			count, countTok, commit = n, p.i, true
			p.i++
			first, firstTok = p.tok(p.i).w, p.i
		case rest == "" && (p.tok(p.i+1).w == "x" || p.tok(p.i+1).w == "*"):
			count, countTok, commit = n, p.i, true
			p.i += 2
			first, firstTok = p.tok(p.i).w, p.i
		case rest == "":
			count, countTok = n, p.i
			p.i++
			first, firstTok = p.tok(p.i).w, p.i
		case rest[0] == 'x' || rest[0] == '*':
			count, countTok, commit = n, p.i, true
			first = rest[1:] // "2xh100"
		default:
			if commit {
				return planner.Hardware{}, false, &UserError{
					Msg:  fmt.Sprintf("`%s` is not a GPU count; counts are whole numbers, like `on 2x h100`", reqShort(t.raw)),
					Hint: p.try(a, a+1, "2x h100")}
			}
			return fail()
		}
	}
	m, ok := p.gpuName(firstTok, first)
	if !ok {
		if !commit {
			return fail()
		}
		return planner.Hardware{}, false, p.unknownGPU(firstTok, first, count)
	}
	p.i = m.next
	if m.sfxTok < 0 {
		// "h100 x2", "H100 x 2"
		w := p.tok(p.i).w
		if w == "x" || w == "*" {
			if n, rest, ok := reqScanInt(p.tok(p.i + 1).w); ok && rest == "" {
				m.sfx, m.sfxTok = n, p.i+1
				p.i += 2
			}
		} else if len(w) > 1 && (w[0] == 'x' || w[0] == '*') {
			if n, rest, ok := reqScanInt(w[1:]); ok && rest == "" {
				m.sfx, m.sfxTok = n, p.i
				p.i++
			}
		}
	}
	if m.sfxTok >= 0 {
		if countTok >= 0 {
			return planner.Hardware{}, false, &UserError{
				Msg:  fmt.Sprintf("`%s` gives the GPU count twice", p.span(a, p.i)),
				Hint: p.try(a, p.i, fmt.Sprintf("%dx %s", count, m.g.ID))}
		}
		count, countTok = m.sfx, m.sfxTok
	}
	if countTok < 0 {
		count = 1
	}
	if w := p.tok(p.i).w; w == "gpu" || w == "gpus" || w == "cards" || w == "card" {
		p.i++
	}
	hw := planner.Hardware{GPU: m.g, Count: count}
	j := p.i
	if w := p.tok(j).w; w == "with" || w == "over" || w == "via" {
		j++
	}
	if kw, ok := reqKeywords[p.tok(j).w]; ok && kw.kind == reqKwInterconnect {
		hw.Interconnect = planner.Interconnect(kw.val)
		p.i = j + 1
		// "8x a100 pcie" is the PCIe card, as "a100 pcie" is, when there is one
		if hw.Interconnect == planner.PCIe && !strings.Contains(m.name, "pcie") {
			if g, res, err := p.cat.GPU(m.name + "-pcie"); err == nil {
				hw.GPU, hw.Interconnect, m.res = g, planner.InterconnectAuto, res
			}
		}
	}
	if count < 1 || count > 4096 {
		return hw, false, &UserError{
			Msg: fmt.Sprintf("GPU count %d in `%s` is out of range — a plan takes 1 to 4096 GPUs",
				count, p.span(a, max(m.next, countTok+1))),
			Hint: p.try(a, p.i, m.name+"x1")}
	}
	p.note(m.res.Note)
	return hw, true, nil
}

func reqCountText(n, per int) string {
	if n > 1e6 || per > 1e6 {
		return "too many"
	}
	return strconv.Itoa(n * per)
}

// reqSplitCount splits a fused count suffix: "h100x2" → "h100", 2.
func reqSplitCount(w string) (string, int, bool) {
	k := strings.LastIndexAny(w, "x*")
	if k <= 0 || k == len(w)-1 {
		return "", 0, false
	}
	n, rest, ok := reqScanInt(w[k+1:])
	if !ok || rest != "" {
		return "", 0, false
	}
	return w[:k], n, true
}

// reqGPUMatch is a GPU name read from the request.
type reqGPUMatch struct {
	g      planner.GPU
	res    planner.Resolution
	name   string // the name that resolved ("rtx4090", "a100-80gb")
	next   int    // the token after the name
	sfx    int    // a count fused to the name ("h100x2")
	sfxTok int    // its token, or -1
}

// gpuName resolves a GPU name at token i whose text is first (the token,
// or its tail after a fused count as in "2xh100"). It reads a vendor word
// before it ("nvidia h100", "rtx 4090"), a fused count after it ("h100x2"),
// a plural ("a100s") and qualifier words ("a100 80gb", "h100 pcie").
func (p *reqParser) gpuName(i int, first string) (reqGPUMatch, bool) {
	m := reqGPUMatch{sfxTok: -1}
	if first == "" {
		return m, false
	}
	j, w, prefix := i, first, ""
	if first == p.tok(i).w {
		switch w {
		case "nvidia", "amd", "tesla", "instinct", "quadro":
			if j+1 < len(p.toks) {
				j++
				w = p.tok(j).w
			}
		}
		if (w == "rtx" || w == "geforce") && j+1 < len(p.toks) {
			prefix = w
			j++
			w = p.tok(j).w
		}
	}
	resolve := func(name string) bool {
		cands := []string{name}
		if prefix != "" {
			cands = []string{prefix + name, name}
		}
		if strings.HasSuffix(name, "s") && len(name) > 2 {
			cands = append(cands, strings.TrimSuffix(name, "s")) // "a100s"
		}
		for _, c := range cands {
			if g, res, err := p.cat.GPU(c); err == nil {
				m.g, m.res, m.name = g, res, c
				return true
			}
		}
		return false
	}
	if !resolve(w) {
		head, n, ok := reqSplitCount(w)
		if !ok || !resolve(head) {
			return m, false
		}
		m.sfx, m.sfxTok = n, j
	}
	// qualifier words: "a100 80gb", "h100 pcie", "rtx 6000 ada"
	for j+1 < len(p.toks) {
		q := p.tok(j + 1).w
		if kw, isKw := reqKeywords[q]; isKw && kw.kind != reqKwInterconnect || !strings.ContainsAny(q, "abcdefghijklmnopqrstuvwxyz") {
			break
		}
		name := m.name + "-" + q
		g, res, err := p.cat.GPU(name)
		if err != nil && m.sfxTok < 0 {
			if head, n, ok := reqSplitCount(q); ok {
				name = m.name + "-" + head
				if g, res, err = p.cat.GPU(name); err == nil {
					m.sfx, m.sfxTok = n, j+1
				}
			}
		}
		if err != nil {
			break
		}
		m.g, m.res, m.name = g, res, name
		j++
	}
	m.next = j + 1
	return m, true
}

// unknownGPU is the error for a word where a GPU name should be.
func (p *reqParser) unknownGPU(i int, name string, count int) error {
	t := p.tok(i)
	if i >= len(p.toks) {
		return &UserError{Msg: fmt.Sprintf("which GPU? `%s` names none, like `on %dx h100`", p.span(p.i-1, p.i), max(count, 1)),
			Hint: p.gpuFamilies()}
	}
	if head, _, ok := reqSplitCount(name); ok {
		name = head
	}
	if name == "gpu" || name == "gpus" || name == "cards" {
		return &UserError{Msg: fmt.Sprintf("which GPU? `%s` does not say — name it, like `on 8x h100`", reqShort(t.raw)),
			Hint: p.gpuFamilies()}
	}
	p.loadVocab()
	var gpuNames []string
	for n := range p.gpuSet {
		gpuNames = append(gpuNames, n)
	}
	slices.Sort(gpuNames)
	shown := name
	if name == t.w {
		shown = t.raw
	}
	sug := ""
	if len(reqNorm(name)) >= 2 {
		if s := planner.Nearest(name, gpuNames, 1); len(s) > 0 {
			sug = s[0]
		}
	}
	if sug == "" {
		return &UserError{Msg: fmt.Sprintf("unknown GPU `%s`", reqShort(shown)), Hint: p.gpuFamilies()}
	}
	return &UserError{Msg: fmt.Sprintf("unknown GPU `%s` — did you mean `%s`?", reqShort(shown), sug),
		Hint: p.try(i, i+1, strings.Replace(t.w, name, sug, 1))}
}

// ---------------------------------------------------------------------------
// Baseline: baseline 5.67 h/epoch on 4x v100-32gb

// baseline reads a measured run: a value with a rate or duration unit, the
// hardware it ran on (its own `on`, which is not a target) and optionally
// the precision it ran in, in any order within the clause.
func (p *reqParser) baseline(a int) error {
	if p.req.Baseline != nil {
		return &UserError{Msg: fmt.Sprintf("a second `%s`: give one measured run", p.toks[a].raw), Hint: p.try(a, a+1, "")}
	}
	b := &planner.Baseline{}
	haveValue, haveHW := false, false
	for {
		for p.tok(p.i).w == "=" || p.tok(p.i).w == "of" || p.tok(p.i).w == "at" || p.tok(p.i).w == "," {
			p.i++
		}
		w := p.tok(p.i).w
		switch {
		case !haveValue && reqStartsNumber(w) && !p.looksHardware():
			if err := p.rate(b, a); err != nil {
				return err
			}
			haveValue = true
			continue
		case !haveHW && w == "on":
			p.i++
			hw, _, err := p.hardware(true)
			if err != nil {
				return err
			}
			b.Hardware, haveHW = hw, true
			continue
		case !haveHW && p.looksHardware():
			hw, ok, err := p.hardware(false)
			if err != nil {
				return err
			}
			if ok {
				b.Hardware, haveHW = hw, true
				continue
			}
		case b.Precision == "":
			if kw, ok := reqKeywords[w]; ok && kw.kind == reqKwPrecision && kw.val != "amp" && kw.val != "mixed" {
				b.Precision = planner.Precision(kw.val)
				p.i++
				continue
			}
		}
		break
	}
	switch {
	case !haveValue:
		return &UserError{Msg: fmt.Sprintf("`%s` needs a measurement, like `baseline 5.67 h/epoch on 4x v100`", p.span(a, p.i)),
			Hint: p.try(a, p.i, "baseline 5.67 h/epoch on 4x v100")}
	case !haveHW:
		return &UserError{Msg: fmt.Sprintf("`%s` needs the hardware it was measured on, like `on 4x v100`", p.span(a, p.i)),
			Hint: p.try(a, p.i, p.span(a, p.i)+" on 4x v100")}
	}
	p.req.Baseline = b
	return nil
}

// looksHardware reports whether the words at p.i read as hardware.
func (p *reqParser) looksHardware() bool {
	save := p.i
	_, ok, err := p.hardware(false)
	p.i = save
	return ok || err != nil
}

// rate reads a baseline value and unit: samples/s, tokens/s, s/step,
// h/epoch or h, in their common spellings ("120 samples/sec",
// "500 ms/step", "30 min/epoch", "2 days").
func (p *reqParser) rate(b *planner.Baseline, a int) error {
	v0 := p.i
	n, unit, ok := reqScanNumber(p.tok(p.i).w)
	if !ok {
		return p.badNumber(p.i)
	}
	p.i++
	if unit == "" {
		unit = p.tok(p.i).w
		p.i++
	}
	if strings.HasSuffix(unit, "/") && p.i < len(p.toks) {
		unit += p.tok(p.i).w
		p.i++
	} else if !strings.Contains(unit, "/") {
		if w := p.tok(p.i).w; (w == "/" || w == "per" || w == "a" || w == "an") && reqRateDen(p.tok(p.i+1).w) != "" {
			unit += "/" + p.tok(p.i+1).w
			p.i += 2
		} else if strings.HasPrefix(w, "/") && reqRateDen(w[1:]) != "" {
			unit += w
			p.i++
		}
	}
	end := p.i
	num, den, _ := strings.Cut(unit, "/")
	nu, de := reqRateNum(num), reqRateDen(den)
	v := n.v
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 || v > 1e12 {
		return &UserError{Msg: fmt.Sprintf("`%s` is not a measurement I can use", p.span(v0, end)),
			Hint: p.try(a, end, "baseline 5.67 h/epoch")}
	}
	switch {
	case nu == "it" && de == "s":
		return &UserError{
			Msg: fmt.Sprintf("`%s` counts loop iterations, which depend on batch and accumulation; give seconds per optimizer step or samples per second", p.span(v0, end)),
			Hint: fmt.Sprintf("try: baseline %s s/step (1 ÷ it/s, if each iteration is one optimizer step) or baseline <it/s × batch> samples/s",
				strconv.FormatFloat(1/v, 'g', 3, 64)),
		}
	case nu == "samples" && de == "s":
		b.Unit = planner.SamplesPerS
	case nu == "tokens" && de == "s":
		b.Unit = planner.TokensPerS
	case nu == "steps" && de == "s":
		b.Unit, v = planner.SecPerStep, 1/v // steps/s is exact: s/step is its inverse
	case de == "step" && (nu == "s" || nu == "ms" || nu == "min"):
		b.Unit, v = planner.SecPerStep, v*reqSeconds[nu]
	case de == "epoch" && reqSeconds[nu] > 0:
		b.Unit, v = planner.HoursPerEpoch, v*reqSeconds[nu]/3600
	case de == "" && reqSeconds[nu] > 0 && den == "":
		b.Unit, v = planner.Hours, v*reqSeconds[nu]/3600
	default:
		return &UserError{
			Msg:  fmt.Sprintf("`%s` is not a unit I read for a baseline; I read samples/s, tokens/s, s/step, h/epoch or h", p.span(v0, end)),
			Hint: p.try(a, end, "baseline 5.67 h/epoch"),
		}
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 || v > 1e12 {
		return &UserError{Msg: fmt.Sprintf("`%s` is not a measurement I can use", p.span(v0, end)),
			Hint: p.try(a, end, "baseline 5.67 h/epoch")}
	}
	b.Value = v
	return nil
}

var reqSeconds = map[string]float64{"s": 1, "ms": 1e-3, "min": 60, "h": 3600, "d": 86400}

// reqRateNum normalises the numerator of a baseline unit.
func reqRateNum(w string) string {
	switch w {
	case "s", "sec", "secs", "second", "seconds":
		return "s"
	case "ms", "msec":
		return "ms"
	case "min", "mins", "minute", "minutes":
		return "min"
	case "h", "hr", "hrs", "hour", "hours":
		return "h"
	case "d", "day", "days":
		return "d"
	case "it", "its", "iter", "iters", "iteration", "iterations":
		return "it"
	case "step", "steps":
		return "steps"
	case "seq":
		return "samples"
	}
	switch reqUnits[w] {
	case reqUSamples:
		return "samples"
	case reqUTokens:
		return "tokens"
	}
	return ""
}

// reqRateDen normalises the denominator of a baseline unit.
func reqRateDen(w string) string {
	switch w {
	case "s", "sec", "secs", "second", "seconds":
		return "s"
	case "step", "steps", "it", "iter", "iteration":
		return "step"
	case "epoch", "epochs", "ep":
		return "epoch"
	}
	return ""
}

// ---------------------------------------------------------------------------
// Putting it together

func (p *reqParser) finish() error {
	j := &p.req.Job
	// model
	m, err := p.buildModel()
	if err != nil {
		return err
	}
	j.Model = m

	// amounts: bare samples/tokens are the dataset when epochs are given
	if p.epochs.set {
		for _, mv := range []struct{ from, to *reqSlot[float64] }{{&p.samples, &p.dsSamples}, {&p.tokens, &p.dsTokens}} {
			if !mv.from.set {
				continue
			}
			if mv.to.set && mv.to.v != mv.from.v {
				return &UserError{Msg: fmt.Sprintf("two dataset sizes: `%s` and `%s` — which one?", mv.to.word, mv.from.word),
					Hint: reqExample}
			}
			*mv.to, *mv.from = *mv.from, reqSlot[float64]{}
		}
	}
	if err := p.one("amounts of work", &p.epochs, &p.samples, &p.tokens, &p.steps); err != nil {
		return err
	}
	if err := p.one("dataset sizes", &p.dsSamples, &p.dsTokens, &p.stepsPerEpoch); err != nil {
		return err
	}
	j.Epochs, j.Samples, j.Tokens, j.Steps = p.epochs.v, p.samples.v, p.tokens.v, p.steps.v
	j.DatasetSamples, j.DatasetTokens, j.StepsPerEpoch = p.dsSamples.v, p.dsTokens.v, p.stepsPerEpoch.v

	// shape
	j.Workload = p.workload.v
	j.SeqLen = p.seq.v
	if p.batch.v.tokens {
		j.GlobalBatchTokens = p.batch.v.n
	} else {
		j.GlobalBatch = p.batch.v.n
	}
	j.MicroBatch = p.micro.v
	if j.GlobalBatch > 0 && j.MicroBatch > j.GlobalBatch {
		return &UserError{Msg: fmt.Sprintf("micro-batch `%s` is larger than the global batch `%s`", p.micro.word, p.batch.word),
			Hint: "the global batch is GPUs × micro-batch × accumulation steps, e.g. batch 128 = 4x32"}
	}
	if j.GlobalBatchTokens > 0 && j.SeqLen > 0 && j.GlobalBatchTokens < j.SeqLen {
		return &UserError{Msg: fmt.Sprintf("`%s` is less than one sequence of `%s`", p.batch.word, p.seq.word),
			Hint: "batch in tokens = sequences × seq, e.g. batch 1M tokens with seq 2048"}
	}
	j.LoRARank = p.rank.v
	j.GenTokens = p.gen.v
	if j.GenTokens > 0 && j.SeqLen > 0 && j.GenTokens >= j.SeqLen {
		return &UserError{
			Msg:  fmt.Sprintf("`%s` leaves no room for a prompt in `%s`: the context counts prompt and generated tokens", p.gen.word, p.seq.word),
			Hint: fmt.Sprintf("try: ctx %d gen %d", j.SeqLen, max(1, j.SeqLen/4)),
		}
	}

	// precision: an explicit format wins over `amp` and `mixed`
	j.Precision = p.precision.v
	if j.Precision == "" {
		switch {
		case p.amp:
			j.Precision = planner.FP16
		case p.mixed:
			p.note("`mixed` read as mixed precision: the best 16-bit format the GPU supports (bf16, else fp16)")
		}
	}
	j.Attention, j.Strategy, j.Optimizer, j.Stack = p.attention.v, p.strategy.v, p.optimizer.v, p.stack.v

	// interconnect given outside a hardware clause applies to every target
	if p.interconnect.set {
		if len(p.req.Targets) == 0 {
			return &UserError{
				Msg:  fmt.Sprintf("`%s` says how GPUs connect, but no GPUs are named — put it after them, like `on 8x a100 %s`", p.interconnect.word, p.interconnect.word),
				Hint: reqExample + " " + p.interconnect.word,
			}
		}
		for k := range p.req.Targets {
			if p.req.Targets[k].Interconnect == planner.InterconnectAuto {
				p.req.Targets[k].Interconnect = p.interconnect.v
			}
		}
	}
	if p.compare && len(p.req.Targets) < 2 {
		return &UserError{Msg: fmt.Sprintf("`%s` needs at least two setups, like `compare h200x4, a100x4`", p.compareWord),
			Hint: "try: gpuplan plan " + p.text + ", a100x4"}
	}
	p.req.Compare = len(p.req.Targets) >= 2
	return nil
}

// one fails when more than one of the slots is set.
func (p *reqParser) one(plural string, slots ...*reqSlot[float64]) error {
	var words []string
	for _, s := range slots {
		if s.set {
			words = append(words, s.word)
		}
	}
	if len(words) > 1 {
		return &UserError{Msg: fmt.Sprintf("two %s: `%s` and `%s` — which one?", plural, words[0], words[1]),
			Hint: reqExample}
	}
	return nil
}

// buildModel makes the one model the request names: a catalogue entry
// (with architecture overrides), a size, or an architecture.
func (p *reqParser) buildModel() (planner.Model, error) {
	spec := p.arch
	spec.Kind = p.kind.v
	archText := strings.Join(p.archWords, " ")
	var m planner.Model
	var err error
	switch {
	case strings.HasPrefix(p.model.v, "cat:"):
		base := p.catModel
		if spec.Kind == base.Kind {
			spec.Kind = ""
		}
		m = base
		if !spec.IsZero() {
			m, err = planner.ModelFromArch(&base, spec)
		}
	case strings.HasPrefix(p.model.v, "params:"):
		// A size takes a vocabulary and a kind ("65.2b params vocab 32000"):
		// the count stays as given, the shape is the size ladder's. Other
		// architecture words would contradict the count.
		if shape := (planner.ArchSpec{Layers: p.arch.Layers, Hidden: p.arch.Hidden, Heads: p.arch.Heads,
			KVHeads: p.arch.KVHeads, FFN: p.arch.FFN}); !shape.IsZero() {
			return m, &UserError{Msg: fmt.Sprintf("two models: `%s` and `%s` — give a size or an architecture, not both", p.model.word, archText),
				Hint: "try: gpuplan plan 7b params 1.2B tokens on 8x h100"}
		}
		m, err = planner.ModelFromParams(p.params)
		if err == nil && spec.Kind != "" {
			m.Kind = spec.Kind
		}
		if err == nil && spec.Vocab > 0 {
			m.Vocab = spec.Vocab
		}
	case !p.arch.IsZero():
		m, err = planner.ModelFromArch(nil, spec)
	default:
		hint := "try: gpuplan plan bert-base " + p.text
		if p.text == "" || utf8.RuneCountInString(p.text) > 300 {
			hint = reqExample
		}
		return m, &UserError{
			Msg:  "which model? name one (`bert-base`, `llama3-8b`), give a size (`7b params`) or an architecture (`layers 24 hidden 2048 heads 16`)",
			Hint: hint,
		}
	}
	if err != nil {
		msg := err.Error()
		if !strings.Contains(msg, "`") {
			what := archText
			if what == "" {
				what = p.model.word
			}
			msg = fmt.Sprintf("`%s`: %s", what, msg)
		}
		return m, &UserError{Msg: msg, Hint: "try: gpuplan plan layers 24 hidden 2048 heads 16 vocab 50k 20B tokens on 8x a100"}
	}
	if params := m.Params(); math.IsNaN(params) || math.IsInf(params, 0) || params <= 0 || params > 5e12 {
		return m, &UserError{Msg: fmt.Sprintf("`%s` works out to %s parameters, outside the 1M–5T gpuplan plans for", archText, reqParamsText(params)),
			Hint: "try: gpuplan plan layers 24 hidden 2048 heads 16 vocab 50k 20B tokens on 8x a100"}
	}
	return m, nil
}

func reqParamsText(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0) || v >= 1e15:
		return "over 1000T"
	case v >= 1e12:
		return strconv.FormatFloat(v/1e12, 'g', 3, 64) + "T"
	case v >= 1e9:
		return strconv.FormatFloat(v/1e9, 'g', 3, 64) + "B"
	default:
		return strconv.FormatFloat(v/1e6, 'g', 3, 64) + "M"
	}
}
