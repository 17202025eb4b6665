package hub

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// family describes how one config.json model_type is read.
type family struct {
	name   string // what people call it ("Llama", "Qwen2-MoE")
	derive func(d *deriv) error
	// Dense decoders: the class defaults and layer details that change
	// the parameter count.
	tied    bool // the config class's tie_word_embeddings default
	qkvBias bool // q, k, v projections always carry a bias (Qwen2)
	norms   int  // norm vectors per layer (2, or 4 with Gemma 2/3's sandwich norms)
	qkNorm  bool // per-head RMSNorm on q and k (Qwen3, Gemma 3)
	learned bool // learned absolute positions
}

// families maps config.json's model_type to its reader.
var families = map[string]family{
	"llama":       {name: "Llama", derive: denseDecoder, norms: 2},
	"mistral":     {name: "Mistral", derive: denseDecoder, norms: 2},
	"qwen2":       {name: "Qwen2", derive: denseDecoder, norms: 2, qkvBias: true},
	"qwen3":       {name: "Qwen3", derive: denseDecoder, norms: 2, qkNorm: true},
	"gemma":       {name: "Gemma", derive: denseDecoder, norms: 2, tied: true},
	"gemma2":      {name: "Gemma 2", derive: denseDecoder, norms: 4, tied: true},
	"gemma3_text": {name: "Gemma 3", derive: denseDecoder, norms: 4, tied: true, qkNorm: true},
	"phi3":        {name: "Phi-3", derive: denseDecoder, norms: 2},
	"exaone":      {name: "EXAONE", derive: denseDecoder, norms: 2, tied: true},

	"mixtral":     {name: "Mixtral", derive: moeDecoder, norms: 2},
	"qwen2_moe":   {name: "Qwen2-MoE", derive: moeDecoder, norms: 2, qkvBias: true},
	"qwen3_moe":   {name: "Qwen3-MoE", derive: moeDecoder, norms: 2, qkNorm: true},
	"deepseek_v2": {name: "DeepSeek-V2", derive: deepseek, norms: 2},
	"deepseek_v3": {name: "DeepSeek-V3", derive: deepseek, norms: 2},
	"kimi_k2":     {name: "Kimi K2", derive: deepseek, norms: 2},

	"gpt2": {name: "GPT-2", derive: gpt2, tied: true, learned: true},

	"bert":        {name: "BERT", derive: bert, tied: true, learned: true},
	"roberta":     {name: "RoBERTa", derive: bert, tied: true, learned: true},
	"electra":     {name: "ELECTRA", derive: bert, tied: true, learned: true},
	"xlm-roberta": {name: "XLM-RoBERTa", derive: bert, tied: true, learned: true},
	"modernbert":  {name: "ModernBERT", derive: modernBERT, tied: true},

	"t5":      {name: "T5", derive: t5, tied: true},
	"mt5":     {name: "mT5", derive: t5},
	"whisper": {name: "Whisper", derive: whisper, tied: true, learned: true},

	"vit":  {name: "ViT", derive: vit, learned: true},
	"clip": {name: "CLIP", derive: clip, learned: true},
}

// SupportedTypes lists the config.json model_type values ModelFromConfig
// reads.
func SupportedTypes() []string {
	out := make([]string, 0, len(families))
	for k := range families {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ModelFromConfig derives a planner model from a config.json: the
// architecture (layers, width, heads and KV heads, MLP, vocabulary,
// context, experts) and the parameter counts computed from it, total and
// (for MoE) active per token. The ID is id, the Source the Hub URL of the
// file and the Origin "hub".
//
// The counts are exact for the layer shapes of each family (biases, norms,
// tied or untied embeddings, shared experts, dense first layers); they
// leave out what a checkpoint carries beside the model proper (DeepSeek's
// multi-token-prediction layer, quantisation scales).
func ModelFromConfig(id string, cfg []byte) (planner.Model, error) {
	var raw map[string]any
	if err := json.Unmarshal(cfg, &raw); err != nil || raw == nil {
		if err == nil {
			err = fmt.Errorf("null")
		}
		return planner.Model{}, &Error{Kind: ErrMalformed, ID: id, Err: err,
			Msg: fmt.Sprintf("the config.json of %s is not a JSON object: %v", id, err)}
	}
	c := conf(raw)
	mt := c.str("model_type")
	if mt == "" {
		return planner.Model{}, &Error{Kind: ErrMalformed, ID: id,
			Msg: fmt.Sprintf("the config.json of %s has no model_type, so its architecture cannot be read", id)}
	}
	fam, ok := families[mt]
	if !ok {
		return planner.Model{}, &Error{Kind: ErrUnsupported, ID: id,
			Msg: fmt.Sprintf("%s is a %q model, which the planner cannot read yet; supported model types: %s",
				id, mt, strings.Join(SupportedTypes(), ", "))}
	}
	d := &deriv{id: id, mt: mt, fam: fam, c: c, m: planner.Model{
		ID:      id,
		Family:  fam.name,
		Learned: fam.learned,
		Source:  DefaultEndpoint + "/" + id + "/resolve/main/config.json",
		Origin:  "hub",
	}}
	if err := fam.derive(d); err != nil {
		return planner.Model{}, err
	}
	if len(d.missing) > 0 {
		return planner.Model{}, &Error{Kind: ErrMalformed, ID: id,
			Msg: fmt.Sprintf("the config.json of %s (%s) lacks %s", id, mt, strings.Join(d.missing, ", "))}
	}
	if len(d.bad) > 0 {
		return planner.Model{}, &Error{Kind: ErrMalformed, ID: id,
			Msg: fmt.Sprintf("the config.json of %s (%s) is inconsistent: %s", id, mt, strings.Join(d.bad, "; "))}
	}
	m := &d.m
	m.ParamsB = d.total / 1e9
	m.Window, m.LocalShare = slidingWindow(mt, c)
	if m.Window > 0 {
		d.notes = append(d.notes, fmt.Sprintf("sliding window %d tokens on %.0f%% of the layers", m.Window, m.LocalShare*100))
	}
	if q, ok := c.sub("quantization_config"); ok {
		// the checkpoint's own weight format: an inference plan that
		// names no precision serves it as shipped
		m.Shipped = shippedFormat(q)
		if m.Shipped != "" {
			d.notes = append(d.notes, fmt.Sprintf("weights ship in %s (%s)", m.Shipped, q.str("quant_method")))
		}
	}
	if m.Kind == planner.MoE {
		m.ActiveB = d.active / 1e9
	}
	if m.HeadDim == 0 && m.Heads > 0 {
		m.HeadDim = m.Hidden / m.Heads
	}
	if m.KVHeads == 0 {
		m.KVHeads = m.Heads
	}
	note := fmt.Sprintf("derived from config.json (%s): %s parameters computed from the architecture", mt, humanCount(d.total))
	if m.Kind == planner.MoE {
		note += fmt.Sprintf(", %s active per token", humanCount(d.active))
	}
	m.Notes = strings.Join(append([]string{note}, d.notes...), "; ")
	return *m, nil
}

// deriv carries one derivation: the config, the model being filled, the
// parameter counts and what was missing or wrong.
type deriv struct {
	id, mt  string
	fam     family
	c       conf
	m       planner.Model
	total   float64
	active  float64
	notes   []string
	missing []string
	bad     []string
}

// need reads a required positive integer (the first of names present).
func (d *deriv) need(c conf, names ...string) int {
	v, ok := c.num(names...)
	if !ok {
		d.missing = append(d.missing, names[0])
		return 0
	}
	if v <= 0 || v != math.Trunc(v) {
		d.bad = append(d.bad, fmt.Sprintf("%s is %v", names[0], v))
		return 0
	}
	return int(v)
}

// opt reads an optional integer, def when absent or null.
func (d *deriv) opt(c conf, def int, names ...string) int {
	if v, ok := c.num(names...); ok && v >= 0 {
		return int(v)
	}
	return def
}

// conf is a decoded config.json object.
type conf map[string]any

// num returns the first of keys present as a number (null counts as
// absent).
func (c conf) num(keys ...string) (float64, bool) {
	for _, k := range keys {
		if v, ok := c[k].(float64); ok {
			return v, true
		}
	}
	return 0, false
}

func (c conf) str(k string) string {
	s, _ := c[k].(string)
	return s
}

func (c conf) flag(k string, def bool) bool {
	if b, ok := c[k].(bool); ok {
		return b
	}
	return def
}

// sub returns the first of keys present as an object.
func (c conf) sub(keys ...string) (conf, bool) {
	for _, k := range keys {
		if m, ok := c[k].(map[string]any); ok {
			return conf(m), true
		}
	}
	return nil, false
}

// arch is the first entry of architectures ("LlamaForCausalLM"), or "".
func (c conf) arch() string {
	if a, ok := c["architectures"].([]any); ok && len(a) > 0 {
		s, _ := a[0].(string)
		return s
	}
	return ""
}

// labels is the number of classes in id2label (0 when absent).
func (c conf) labels() int {
	if l, ok := c["id2label"].(map[string]any); ok {
		return len(l)
	}
	return 0
}

// ints returns a list of integers (mlp_only_layers).
func (c conf) ints(k string) map[int]bool {
	out := map[int]bool{}
	if l, ok := c[k].([]any); ok {
		for _, v := range l {
			if f, ok := v.(float64); ok {
				out[int(f)] = true
			}
		}
	}
	return out
}

// attention reads the standard (GQA) attention shape into d.m and returns
// its parameters per layer: q and o are h×(a·d), k and v h×(g·d), plus
// the biases the family or config asks for and per-head q/k norms.
func (d *deriv) attention(c conf) float64 {
	h := d.need(c, "hidden_size")
	a := d.need(c, "num_attention_heads")
	g := d.opt(c, a, "num_key_value_heads")
	hd := d.opt(c, 0, "head_dim")
	if hd == 0 && h > 0 && a > 0 {
		if h%a != 0 {
			d.bad = append(d.bad, fmt.Sprintf("hidden_size %d is not a multiple of num_attention_heads %d and head_dim is not given", h, a))
		}
		hd = h / a
	}
	if a > 0 && (g <= 0 || g > a || a%g != 0) {
		d.bad = append(d.bad, fmt.Sprintf("num_attention_heads %d is not a multiple of num_key_value_heads %d", a, g))
		g = max(g, 1)
	}
	d.m.Hidden, d.m.Heads, d.m.KVHeads, d.m.HeadDim = h, a, g, hd
	H, A, G, D := float64(h), float64(a), float64(g), float64(hd)
	p := 2*H*A*D + 2*H*G*D
	switch {
	case d.fam.qkvBias:
		p += A*D + 2*G*D
	case c.flag("attention_bias", false):
		p += A*D + 2*G*D + H
	}
	if d.fam.qkNorm {
		p += 2 * D
	}
	return p
}

// gatedMLP is a SwiGLU/GeGLU block of width f: gate, up and down.
func gatedMLP(h, f float64, bias bool) float64 {
	p := 3 * h * f
	if bias {
		p += 2*f + h
	}
	return p
}

// embeddings are the input table and, untied, the output head.
func (d *deriv) embeddings(c conf, h int) float64 {
	v := d.need(c, "vocab_size")
	d.m.Vocab = v
	d.m.Tied = c.flag("tie_word_embeddings", d.fam.tied)
	e := float64(v) * float64(h)
	if !d.m.Tied {
		e *= 2
	}
	return e
}

// denseDecoder: Llama, Mistral, Qwen2/3, Gemma 1/2/3, Phi-3 and Phi-4, and
// EXAONE 3.x (the Llama shape under its own key names: num_layers).
func denseDecoder(d *deriv) error {
	c := d.c
	m := &d.m
	m.Kind = planner.Decoder
	m.Gated = true
	m.Layers = d.need(c, "num_hidden_layers", "num_layers")
	attn := d.attention(c)
	m.FFN = d.need(c, "intermediate_size")
	m.MaxCtx = d.opt(c, 0, "max_position_embeddings")
	h := float64(m.Hidden)
	per := attn + gatedMLP(h, float64(m.FFN), c.flag("mlp_bias", false)) + float64(d.fam.norms)*h
	d.total = float64(m.Layers)*per + h + d.embeddings(c, m.Hidden)
	d.active = d.total
	return nil
}

// moeDecoder: Mixtral, Qwen2-MoE, Qwen3-MoE. Each MoE layer has a router
// (h×E), E routed experts (SwiGLU of moe_intermediate_size, or
// intermediate_size for Mixtral) and, for Qwen2-MoE, a shared expert with
// its sigmoid gate; layers listed in mlp_only_layers or off the
// decoder_sparse_step stride are dense.
func moeDecoder(d *deriv) error {
	c := d.c
	m := &d.m
	m.Kind = planner.MoE
	m.Gated = true
	m.Layers = d.need(c, "num_hidden_layers")
	attn := d.attention(c)
	m.FFN = d.need(c, "intermediate_size")
	m.MaxCtx = d.opt(c, 0, "max_position_embeddings")
	m.Experts = d.need(c, "num_local_experts", "num_experts")
	m.TopK = d.need(c, "num_experts_per_tok")
	fe := m.FFN
	if d.mt != "mixtral" {
		fe = d.need(c, "moe_intermediate_size")
	}
	fs := d.opt(c, 0, "shared_expert_intermediate_size")
	step := max(1, d.opt(c, 1, "decoder_sparse_step"))
	denseOnly := c.ints("mlp_only_layers")
	if m.TopK > m.Experts {
		d.bad = append(d.bad, fmt.Sprintf("num_experts_per_tok %d exceeds the %d experts", m.TopK, m.Experts))
	}
	h := float64(m.Hidden)
	E, k := float64(m.Experts), float64(m.TopK)
	expert := gatedMLP(h, float64(fe), false)
	shared := 0.0
	if fs > 0 {
		shared = gatedMLP(h, float64(fs), false) + h
	}
	norms := float64(d.fam.norms) * h
	dense := 0
	for i := 0; i < m.Layers; i++ {
		if denseOnly[i] || (i+1)%step != 0 {
			dense++
			mlp := gatedMLP(h, float64(m.FFN), false)
			d.total += attn + mlp + norms
			d.active += attn + mlp + norms
			continue
		}
		d.total += attn + h*E + E*expert + shared + norms
		d.active += attn + h*E + k*expert + shared + norms
	}
	emb := h + d.embeddings(c, m.Hidden)
	d.total += emb
	d.active += emb
	if dense > 0 {
		d.notes = append(d.notes, fmt.Sprintf("%d of %d layers dense", dense, m.Layers))
	}
	d.notes = append(d.notes, fmt.Sprintf("%d experts of width %d, top-%d", m.Experts, fe, m.TopK))
	if fs > 0 {
		d.notes = append(d.notes, fmt.Sprintf("shared expert of width %d", fs))
	}
	return nil
}

// deepseek: DeepSeek-V2/V3 and Kimi K2 (the V3 architecture): multi-head
// latent attention (q and kv through low-rank projections) and DeepSeekMoE
// (first_k_dense_replace dense layers, then routed plus shared experts).
func deepseek(d *deriv) error {
	c := d.c
	m := &d.m
	m.Kind = planner.MoE
	m.Gated = true
	m.Layers = d.need(c, "num_hidden_layers")
	h := d.need(c, "hidden_size")
	a := d.need(c, "num_attention_heads")
	m.Hidden, m.Heads = h, a
	m.KVHeads = d.opt(c, a, "num_key_value_heads")
	qr := d.opt(c, 0, "q_lora_rank")
	kvr := d.need(c, "kv_lora_rank")
	dn := d.need(c, "qk_nope_head_dim")
	dr := d.need(c, "qk_rope_head_dim")
	dv := d.need(c, "v_head_dim")
	m.HeadDim = dn + dr
	m.FFN = d.need(c, "intermediate_size")
	m.MaxCtx = d.opt(c, 0, "max_position_embeddings")
	m.Experts = d.need(c, "n_routed_experts")
	m.TopK = d.need(c, "num_experts_per_tok")
	fe := d.need(c, "moe_intermediate_size")
	nShared := d.opt(c, 0, "n_shared_experts")
	firstDense := d.opt(c, 0, "first_k_dense_replace")
	freq := max(1, d.opt(c, 1, "moe_layer_freq"))
	H, A := float64(h), float64(a)
	qk := float64(dn + dr)
	var attn float64
	if qr > 0 {
		attn += H*float64(qr) + float64(qr) + float64(qr)*A*qk // q_a_proj, q_a_layernorm, q_b_proj
	} else {
		attn += H * A * qk
	}
	attn += H*float64(kvr+dr) + float64(kvr) + float64(kvr)*A*float64(dn+dv) // kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj
	attn += A * float64(dv) * H                                              // o_proj
	if c.flag("attention_bias", false) {
		attn += float64(qr) + float64(kvr+dr) + H
	}
	E, k := float64(m.Experts), float64(m.TopK)
	expert := gatedMLP(H, float64(fe), false)
	router := H * E
	if c.str("topk_method") == "noaux_tc" {
		router += E // e_score_correction_bias
	}
	norms := 2 * H
	for i := 0; i < m.Layers; i++ {
		if i < firstDense || i%freq != 0 {
			mlp := gatedMLP(H, float64(m.FFN), false)
			d.total += attn + mlp + norms
			d.active += attn + mlp + norms
			continue
		}
		sh := float64(nShared) * expert
		d.total += attn + router + E*expert + sh + norms
		d.active += attn + router + k*expert + sh + norms
	}
	emb := H + d.embeddings(c, h)
	d.total += emb
	d.active += emb
	d.notes = append(d.notes,
		fmt.Sprintf("multi-head latent attention: the KV cache holds a %d-wide latent (kv_lora_rank %d + rope %d) per layer, not %d heads", kvr+dr, kvr, dr, m.KVHeads),
		fmt.Sprintf("%d dense layers, then %d routed experts of width %d (top-%d) + %d shared", min(firstDense, m.Layers), m.Experts, fe, m.TopK, nShared))
	if n := d.opt(c, 0, "num_nextn_predict_layers"); n > 0 {
		d.notes = append(d.notes, fmt.Sprintf("the checkpoint's %d multi-token-prediction layer(s) are not counted", n))
	}
	return nil
}

// gpt2: learned positions, fused qkv with biases, GELU MLP of n_inner
// (4h when null), LM head tied to the token embedding.
func gpt2(d *deriv) error {
	c := d.c
	m := &d.m
	m.Kind = planner.Decoder
	m.Layers = d.need(c, "n_layer", "num_hidden_layers")
	m.Hidden = d.need(c, "n_embd", "hidden_size")
	m.Heads = d.need(c, "n_head", "num_attention_heads")
	m.MaxCtx = d.need(c, "n_positions", "n_ctx", "max_position_embeddings")
	m.Vocab = d.need(c, "vocab_size")
	m.FFN = d.opt(c, 4*m.Hidden, "n_inner")
	m.Tied = true
	h, f := float64(m.Hidden), float64(m.FFN)
	per := 2*h + (3*h*h + 3*h) + (h*h + h) + 2*h + (h*f + f) + (f*h + h)
	d.total = float64(m.Layers)*per + 2*h + float64(m.Vocab)*h + float64(m.MaxCtx)*h
	return nil
}

// bertLayer is a post-LN encoder layer with biases everywhere.
func bertLayer(h, f float64) float64 {
	return 4*h*h + 4*h + 2*h + h*f + f + f*h + h + 2*h
}

// bert: BERT, RoBERTa, XLM-RoBERTa: word, position and token-type
// embeddings with a LayerNorm, post-LN layers and the pooler (the MLM
// head's decoder is tied to the word embeddings).
func bert(d *deriv) error {
	c := d.c
	m := &d.m
	m.Kind = planner.Encoder
	m.Layers = d.need(c, "num_hidden_layers")
	m.Hidden = d.need(c, "hidden_size")
	m.Heads = d.need(c, "num_attention_heads")
	m.FFN = d.need(c, "intermediate_size")
	m.Vocab = d.need(c, "vocab_size")
	m.MaxCtx = d.need(c, "max_position_embeddings")
	m.Tied = true
	types := d.opt(c, 2, "type_vocab_size")
	h := float64(m.Hidden)
	emb := (float64(m.Vocab)+float64(m.MaxCtx)+float64(types))*h + 2*h
	d.total = emb + float64(m.Layers)*bertLayer(h, float64(m.FFN)) + h*h + h
	return nil
}

// modernBERT: rotary positions, pre-norm layers without biases (by
// default), GeGLU MLP (Wi is h×2f), no norm before the first layer's
// attention, and the MLM head (dense + norm, decoder tied, with a bias).
func modernBERT(d *deriv) error {
	c := d.c
	m := &d.m
	m.Kind = planner.Encoder
	m.Gated = true
	m.Tied = true
	m.Layers = d.need(c, "num_hidden_layers")
	m.Hidden = d.need(c, "hidden_size")
	m.Heads = d.need(c, "num_attention_heads")
	m.FFN = d.need(c, "intermediate_size")
	m.Vocab = d.need(c, "vocab_size")
	m.MaxCtx = d.opt(c, 8192, "max_position_embeddings")
	h, f := float64(m.Hidden), float64(m.FFN)
	b := func(flag string, n float64) float64 {
		if c.flag(flag, false) {
			return n
		}
		return 0
	}
	norm := h + b("norm_bias", h)
	layer := norm + 3*h*h + b("attention_bias", 3*h) + h*h + b("attention_bias", h) + // attn_norm, Wqkv, Wo
		norm + 2*h*f + b("mlp_bias", 2*f) + f*h + b("mlp_bias", h) // mlp_norm, Wi, Wo
	d.total = float64(m.Vocab)*h + norm + // embeddings and their norm
		float64(m.Layers)*layer - norm + // layer 0 has no attention norm
		norm // final norm
	arch := c.arch()
	switch {
	case arch == "ModernBertModel":
	case strings.Contains(arch, "Classification"):
		labels := float64(max(c.labels(), 2))
		d.total += h*h + b("classifier_bias", h) + norm + h*labels + labels // head, classifier
	default: // ModernBertForMaskedLM: head, decoder tied to the embeddings
		d.total += h*h + b("classifier_bias", h) + norm
		if c.flag("decoder_bias", true) {
			d.total += float64(m.Vocab)
		}
	}
	return nil
}

// t5: T5 and mT5 encoder-decoders. Layers counts both stacks (the
// catalogue's convention); relative position biases live in each stack's
// first layer; v1.1 and mT5 use a gated-GELU MLP and an untied LM head.
func t5(d *deriv) error {
	c := d.c
	m := &d.m
	m.Kind = planner.EncDec
	dm := d.need(c, "d_model")
	dkv := d.need(c, "d_kv")
	ff := d.need(c, "d_ff")
	enc := d.need(c, "num_layers")
	dec := d.opt(c, enc, "num_decoder_layers")
	heads := d.need(c, "num_heads")
	m.Vocab = d.need(c, "vocab_size")
	m.Hidden, m.HeadDim, m.FFN, m.Heads, m.KVHeads = dm, dkv, ff, heads, heads
	m.Layers = enc + dec
	m.MaxCtx = d.opt(c, 512, "n_positions")
	proj := c.str("feed_forward_proj")
	m.Gated = strings.HasPrefix(proj, "gated-") || c.flag("is_gated_act", false)
	m.Tied = c.flag("tie_word_embeddings", d.fam.tied)
	D, inner, F := float64(dm), float64(heads*dkv), float64(ff)
	attn := 4 * D * inner
	mlp := 2 * D * F
	if m.Gated {
		mlp = 3 * D * F
	}
	rel := float64(d.opt(c, 32, "relative_attention_num_buckets") * heads)
	encoder := float64(enc)*(attn+mlp+2*D) + rel + D
	decoder := float64(dec)*(2*attn+mlp+3*D) + rel + D
	d.total = float64(m.Vocab)*D + encoder + decoder
	if !m.Tied {
		d.total += float64(m.Vocab) * D
	}
	d.notes = append(d.notes, fmt.Sprintf("%d encoder + %d decoder layers", enc, dec))
	return nil
}

// whisper: a two-convolution audio stem and learned positions (1500
// frames = 30 s) before the encoder; a text decoder with cross-attention
// and a tied output projection. Layers counts both stacks.
func whisper(d *deriv) error {
	c := d.c
	m := &d.m
	m.Kind = planner.EncDec
	m.Tied = true
	dm := d.need(c, "d_model")
	enc := d.need(c, "encoder_layers")
	dec := d.need(c, "decoder_layers")
	heads := d.need(c, "encoder_attention_heads")
	fEnc := d.need(c, "encoder_ffn_dim")
	fDec := d.opt(c, fEnc, "decoder_ffn_dim")
	m.Vocab = d.need(c, "vocab_size")
	mels := d.opt(c, 80, "num_mel_bins")
	src := d.opt(c, 1500, "max_source_positions")
	tgt := d.opt(c, 448, "max_target_positions")
	m.Hidden, m.Heads, m.KVHeads, m.FFN = dm, heads, heads, fEnc
	m.Layers = enc + dec
	m.MaxCtx = src
	D := float64(dm)
	attn := 4*D*D + 3*D // q, v and out projections carry biases, k does not
	ffn := func(f float64) float64 { return D*f + f + f*D + D }
	stem := float64(mels)*D*3 + D + D*D*3 + D
	encoder := stem + float64(src)*D + float64(enc)*(attn+2*D+ffn(float64(fEnc))+2*D) + 2*D
	decoder := float64(m.Vocab)*D + float64(tgt)*D + float64(dec)*(2*attn+3*2*D+ffn(float64(fDec))) + 2*D
	d.total = encoder + decoder
	d.notes = append(d.notes, fmt.Sprintf("%d encoder layers over %d audio frames, %d decoder layers over up to %d tokens", enc, src, dec, tgt))
	return nil
}

// vitTower counts a ViT-style vision transformer: patch embedding, class
// token, positions, pre-LN layers with biases, final LayerNorm. It returns
// the parameters, the tokens per image and the forward multiply-adds.
func vitTower(d *deriv, c conf, defaults map[string]int, patchBias bool) (params, tokens, macs float64) {
	get := func(k string) int {
		if def, ok := defaults[k]; ok {
			return d.opt(c, def, k)
		}
		return d.need(c, k)
	}
	hi := get("hidden_size")
	h := float64(hi)
	L := float64(get("num_hidden_layers"))
	heads := get("num_attention_heads")
	f := float64(d.opt(c, hi*4, "intermediate_size"))
	img := float64(d.opt(c, defaults["image_size"], "image_size"))
	p := float64(d.opt(c, defaults["patch_size"], "patch_size"))
	ch := float64(d.opt(c, 3, "num_channels"))
	if p <= 0 || img <= 0 || math.Mod(img, p) != 0 {
		d.bad = append(d.bad, fmt.Sprintf("image_size %v is not a multiple of patch_size %v", img, p))
		return 0, 0, 0
	}
	n := (img / p) * (img / p)
	tokens = n + 1
	patch := ch * p * p * h
	if patchBias {
		patch += h
	}
	layer := 2*h + 4*h*h + 4*h + 2*h + h*f + f + f*h + h
	params = patch + h + tokens*h + L*layer + 2*h
	// Multiply-adds of the forward pass: the GEMMs over every token plus
	// the s² attention scores and their weighted sum, and the patch
	// projection (what the ViT/DeiT papers and the timm cards print as
	// "GFLOPs" or GMACs). The catalogue and the planner count FLOPs, two
	// per multiply-add.
	macs = L*(tokens*(4*h*h+2*h*f)+2*tokens*tokens*h) + n*ch*p*p*h
	if d.m.Layers == 0 {
		d.m.Layers, d.m.Hidden, d.m.Heads, d.m.FFN = int(L), int(h), heads, int(f)
		d.m.KVHeads = heads
		d.m.MaxCtx = int(tokens)
	}
	return params, tokens, macs
}

// vit: a ViT backbone with its classification head (one row per label in
// id2label) or pooler.
func vit(d *deriv) error {
	c := d.c
	d.m.Kind = planner.VisionViT
	params, tokens, macs := vitTower(d, c, map[string]int{"image_size": 224, "patch_size": 16}, true)
	h := float64(d.m.Hidden)
	head := ""
	labels := c.labels()
	arch := c.arch()
	switch {
	case strings.Contains(arch, "ImageClassification") && labels > 0:
		params += h*float64(labels) + float64(labels)
		macs += h * float64(labels)
		head = fmt.Sprintf("a %d-class head", labels)
	case arch == "" || arch == "ViTModel":
		params += h*h + h // pooler
		head = "the pooler"
	}
	d.total = params
	d.m.FwdGFLOPs = 2 * macs / 1e9
	note := fmt.Sprintf("%v tokens per image (patches + class token); %.1f GFLOPs forward (%.1f G multiply-adds)", tokens, d.m.FwdGFLOPs, macs/1e9)
	if head != "" {
		note += ", including " + head
	}
	d.notes = append(d.notes, note)
	return nil
}

// clip: the vision tower (pre- and post-LayerNorm, no patch bias) and the
// text tower with their projections; the plan treats a sample as one
// image and one caption.
func clip(d *deriv) error {
	c := d.c
	d.m.Kind = planner.VisionViT
	vc, ok := c.sub("vision_config", "vision_config_dict")
	if !ok {
		vc = conf{}
	}
	tc, ok := c.sub("text_config", "text_config_dict")
	if !ok {
		tc = conf{}
	}
	// CLIPVisionConfig / CLIPTextConfig defaults, which Transformers
	// leaves out of nested configs.
	vision, _, vmacs := vitTower(d, vc, map[string]int{"hidden_size": 768, "num_hidden_layers": 12,
		"num_attention_heads": 12, "image_size": 224, "patch_size": 32}, false)
	vision += 2 * float64(d.m.Hidden) // pre_layrnorm
	th := float64(d.opt(tc, 512, "hidden_size"))
	tl := float64(d.opt(tc, 12, "num_hidden_layers"))
	tf := float64(d.opt(tc, 2048, "intermediate_size"))
	tv := float64(d.opt(tc, 49408, "vocab_size"))
	tp := float64(d.opt(tc, 77, "max_position_embeddings"))
	layer := 2*th + 4*th*th + 4*th + 2*th + th*tf + tf + tf*th + th
	text := tv*th + tp*th + tl*layer + 2*th
	proj := float64(d.opt(c, 512, "projection_dim"))
	d.total = vision + text + float64(d.m.Hidden)*proj + th*proj + 1 // projections, logit_scale
	tmacs := tl * (tp*(4*th*th+2*th*tf) + 2*tp*tp*th)
	d.m.FwdGFLOPs = 2 * (vmacs + tmacs) / 1e9
	d.notes = append(d.notes, fmt.Sprintf("vision tower %s + text tower %s parameters; a sample is one image and one %v-token caption (%.1f GFLOPs forward, %.1f G multiply-adds)",
		humanCount(vision), humanCount(text), tp, d.m.FwdGFLOPs, (vmacs+tmacs)/1e9))
	return nil
}

// humanCount writes 3.21e9 as "3.21B" and 124e6 as "124M".
func humanCount(v float64) string {
	unit := ""
	switch {
	case v >= 1e12:
		v, unit = v/1e12, "T"
	case v >= 1e9:
		v, unit = v/1e9, "B"
	case v >= 1e6:
		v, unit = v/1e6, "M"
	case v >= 1e3:
		v, unit = v/1e3, "K"
	}
	s := fmt.Sprintf("%.3g", v)
	if v >= 1000 {
		s = fmt.Sprintf("%.0f", v)
	}
	return s + unit
}

// shippedFormat maps a config.json quantization_config to the precision
// its weights are stored in: FP8 block-scaled checkpoints (DeepSeek-V3,
// Kimi K2, Qwen3 -FP8), 4-bit MXFP4/GPTQ/AWQ/bitsandbytes NF4 and 8-bit
// GPTQ/bitsandbytes; "" for a method the planner has no format for.
func shippedFormat(q conf) planner.Precision {
	bits, _ := q.num("bits", "w_bit")
	switch strings.ToLower(q.str("quant_method")) {
	case "fp8", "fbgemm_fp8":
		return planner.FP8
	case "mxfp4":
		return planner.INT4
	case "gptq", "awq":
		if bits == 8 {
			return planner.INT8
		}
		return planner.INT4
	case "bitsandbytes":
		if q.flag("load_in_8bit", false) {
			return planner.INT8
		}
		if q.flag("load_in_4bit", false) {
			return planner.INT4
		}
	}
	return ""
}

// slidingWindow reads a config's sliding-window attention: the window in
// tokens and the share of layers that use it. layer_types, where given,
// says which layers are local (GPT-OSS, newer Gemma 3 files); Gemma 3
// otherwise has one global layer in sliding_window_pattern (6), Gemma 2
// alternates, and Mistral applies its window to every layer. Qwen's
// configs carry a sliding_window they do not use unless use_sliding_window
// is set, so a window counts only where the family uses it.
func slidingWindow(mt string, c conf) (int, float64) {
	w, ok := c.num("sliding_window")
	if !ok || w <= 0 {
		return 0, 0
	}
	if types, ok := c["layer_types"].([]any); ok && len(types) > 0 {
		local := 0
		for _, t := range types {
			if s, _ := t.(string); s == "sliding_attention" {
				local++
			}
		}
		return int(w), float64(local) / float64(len(types))
	}
	switch mt {
	case "gemma3_text", "gemma3":
		p, ok := c.num("sliding_window_pattern")
		if !ok || p < 2 {
			p = 6
		}
		return int(w), (p - 1) / p
	case "gemma2":
		return int(w), 0.5
	case "mistral", "mixtral":
		return int(w), 1
	}
	if c.flag("use_sliding_window", false) {
		return int(w), 1
	}
	return 0, 0
}
