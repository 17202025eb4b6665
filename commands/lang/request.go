package lang

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
