package planner

import (
	"fmt"
	"math"
)

// ArchSpec overrides or defines a transformer architecture. Zero fields
// keep the base model's value.
type ArchSpec struct {
	Layers  int
	Hidden  int
	Heads   int
	KVHeads int
	FFN     int
	Vocab   int
	MaxCtx  int
	Kind    ModelKind // Decoder or Encoder; "" keeps the base (or Decoder)
}

// IsZero reports whether the spec overrides nothing.
func (s ArchSpec) IsZero() bool { return s == ArchSpec{} }

// ModelFromArch builds a model from an architecture. With base nil it
// defines a new GPT-style decoder (FFN 4h, untied embeddings, learned
// positions off, vocab 50,257 unless given); with a base it overrides the
// given fields ("bert-base vocab 10k") and recomputes the parameter count.
func ModelFromArch(base *Model, spec ArchSpec) (Model, error) {
	var m Model
	if base != nil {
		m = *base
		m.Notes = ""
		m.Origin = "catalogue"
	} else {
		if spec.Layers == 0 || spec.Hidden == 0 {
			return Model{}, fmt.Errorf("an architecture needs at least `layers` and `hidden` (e.g. `layers 24 hidden 2048 heads 16`)")
		}
		m = Model{ID: "custom", Family: "custom", Kind: Decoder, Vocab: 50257, MaxCtx: 2048, Origin: "architecture",
			Source: "architecture given in the request"}
	}
	if m.Kind == MoE || m.Kind == EncDec || m.Kind == VisionConv || m.Kind == VisionViT {
		if !spec.IsZero() {
			return Model{}, fmt.Errorf("%s: architecture overrides are supported for dense transformer models only", m.ID)
		}
		return m, nil
	}
	set := func(dst *int, v int) {
		if v > 0 {
			*dst = v
		}
	}
	set(&m.Layers, spec.Layers)
	set(&m.Hidden, spec.Hidden)
	set(&m.Heads, spec.Heads)
	set(&m.KVHeads, spec.KVHeads)
	set(&m.FFN, spec.FFN)
	set(&m.Vocab, spec.Vocab)
	set(&m.MaxCtx, spec.MaxCtx)
	if spec.Kind != "" {
		m.Kind = spec.Kind
	}
	if m.Heads == 0 {
		m.Heads = max(1, m.Hidden/128)
		if m.Hidden < 2048 {
			m.Heads = max(1, m.Hidden/64)
		}
	}
	if spec.Hidden > 0 || spec.Heads > 0 {
		m.HeadDim = m.Hidden / m.Heads
	}
	if m.KVHeads == 0 || m.KVHeads > m.Heads {
		m.KVHeads = m.Heads
	}
	if m.FFN == 0 {
		m.FFN = 4 * m.Hidden
	}
	if (spec.Hidden > 0 || spec.Heads > 0) && m.Hidden%m.Heads != 0 {
		return Model{}, fmt.Errorf("hidden %d is not divisible by heads %d", m.Hidden, m.Heads)
	}
	if m.Heads%m.KVHeads != 0 {
		return Model{}, fmt.Errorf("heads %d is not a multiple of kv heads %d", m.Heads, m.KVHeads)
	}
	if !spec.IsZero() || base == nil {
		m.ParamsB = archParams(m) / 1e9
		m.ActiveB = 0
		if base != nil {
			// Keep the model card's count and apply only the change the
			// override makes (cards include pooler/head weights the
			// formula leaves out).
			m.ParamsB = base.ParamsB + (archParams(m)-archParams(*base))/1e9
			m.ID = base.ID + " (modified)"
			m.Origin = "catalogue+architecture"
		} else {
			m.ID = fmt.Sprintf("custom-%s", formatParams(m.Params()))
		}
	}
	return m, nil
}

// sizeLadder is GPT-3's shape table (Brown et al. 2020, Table 2.1) extended
// with the Llama shapes; a model given only by size borrows the nearest
// width and gets the depth that matches its count.
var sizeLadder = []struct {
	params float64
	hidden int
	heads  int
}{
	{125e6, 768, 12}, {350e6, 1024, 16}, {760e6, 1536, 16}, {1.3e9, 2048, 16},
	{2.7e9, 2560, 32}, {6.7e9, 4096, 32}, {13e9, 5120, 40}, {30e9, 6656, 52},
	{65e9, 8192, 64}, {175e9, 12288, 96}, {405e9, 16384, 128}, {1e12, 25600, 160},
}

// ModelFromParams builds a GPT-style decoder of about the given size. Its
// width comes from the nearest entry of a standard shape ladder, its depth
// from the count: 12·L·h² + V·h ≈ params.
func ModelFromParams(params float64) (Model, error) {
	if params < 1e6 || params > 5e12 {
		return Model{}, fmt.Errorf("model size %s is outside 1M–5T parameters", formatParams(params))
	}
	best := sizeLadder[0]
	for _, s := range sizeLadder {
		if math.Abs(math.Log(s.params/params)) < math.Abs(math.Log(best.params/params)) {
			best = s
		}
	}
	h := float64(best.hidden)
	vocab := 50257.0
	if params < 2e8 {
		// small models: shrink the width too so depth stays ≥ 2
		for h > 256 && (params-vocab*h)/(12*h*h) < 4 {
			h /= 2
		}
	}
	layers := int(math.Round((params - vocab*h) / (12 * h * h)))
	layers = max(layers, 1)
	m := Model{
		ID: formatParams(params) + "-params", Family: "custom", Kind: Decoder,
		Layers: layers, Hidden: int(h), Heads: max(1, int(h)/64), FFN: 4 * int(h),
		Vocab: int(vocab), MaxCtx: 2048, Tied: true, ParamsB: params / 1e9,
		Origin: "size",
		Source: "size given in the request; shape from the GPT-3 ladder (Brown et al. 2020, Table 2.1)",
	}
	if h >= 2048 {
		m.Heads = int(h) / 128
	}
	m.KVHeads = m.Heads
	if params >= 1e9 {
		// grouped-query attention with 8 KV heads: the open decoders of
		// a billion parameters and more since Llama 2 70B (Llama 3 and
		// 3.2, Mistral, Qwen2.5 72B, Gemma 2) share their keys and values
		// so; a size said alone is one of them, and with as many KV heads
		// as query heads its KV cache would be 8x theirs
		m.KVHeads = min(m.Heads, 8)
	}
	return m, nil
}

// formatParams writes 6.7e9 as "6.7B" and 350e6 as "350M".
func formatParams(p float64) string { return humanCount(p) }

func trimFloat(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		s := fmt.Sprintf("%.1f", v)
		return trimZero(s)
	default:
		return trimZero(fmt.Sprintf("%.2f", v))
	}
}

func trimZero(s string) string {
	for len(s) > 1 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}
