package lang

import (
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// Weight-only quantisation and the workload it implies.
//
// People who name a 4- or 8-bit weight format ("int4", "q4_k_m", "awq",
// "gptq", "a gguf") and say nothing about training are asking about running
// the model: "will llama3 8b int4 fit on a t4?" is an inference question.
// Training on a 4-bit base is QLoRA and is said so ("qlora", "train … int4",
// "3 epochs of …"). Whatever workload the request did not say is shown in
// the Read as line as assumed, so a misreading is visible at once.

// quantLevel reads a llama.cpp quantisation level ("q4_k_m", "q4_0",
// "iq4_xs", "q8_0", "Q5_K_S"): the precision the planner prices it as, and
// whether the level lies between the planner's 4- and 8-bit formats (and so
// is priced as 8-bit, the safe side).
func quantLevel(w string) (planner.Precision, bool, bool) {
	w = strings.TrimPrefix(w, "i") // the importance-matrix variants ("iq4_xs")
	if len(w) < 2 || w[0] != 'q' || w[1] < '1' || w[1] > '8' || w[1] == '1' && !strings.HasPrefix(w, "q1_") {
		return "", false, false
	}
	for _, r := range w[2:] {
		if !strings.ContainsRune("_-kmslx01", r) {
			return "", false, false // "q4x" would pass, "q4_k_m" does; "qwen" does not
		}
	}
	switch w[1] {
	case '1', '2', '3', '4':
		return planner.INT4, false, true
	case '5', '6':
		return planner.INT8, true, true
	case '8':
		return planner.INT8, false, true
	}
	return "", false, false
}

// quantFormats are weight-only formats named by their tool: their usual
// bit width.
var quantFormats = map[string]planner.Precision{
	"awq": planner.INT4, "gptq": planner.INT4, "exl2": planner.INT4, "bnb-4bit": planner.INT4, "4bits": planner.INT4,
	"4-bits": planner.INT4, "int-4": planner.INT4, "bnb-8bit": planner.INT8, "llm.int8": planner.INT8,
	"8bits": planner.INT8, "8-bits": planner.INT8, "int-8": planner.INT8,
}

// quantContainers hold quantised weights without saying the level: a
// "gguf" is llama.cpp's file, most often Q4_K_M.
var quantContainers = map[string]bool{"gguf": true, "ggml": true}

// quant reads a quantisation word at input i: a level or a named format
// becomes its precision keyword; a container is remembered (its level is
// 4-bit unless another word says) and read as said.
func (c *canonizer) quant(i int) int {
	w := c.w(i)
	if quantContainers[w] {
		c.weightFormat = w // read, not skipped: the level it implies is in the reading
		c.emit(w, i, i+1)  // engine.go reads the format
		return i + 1
	}
	if p, ok := quantFormats[w]; ok {
		c.emit(string(p), i, i+1)
		return i + 1
	}
	if w == "1.58bit" || w == "1.58-bit" || w == "1.58비트" || w == "1.58" && (c.w(i+1) == "bit" || c.w(i+1) == "bits" || c.w(i+1) == "비트") {
		// "deepseek r1 1.58bit": the ternary-sized GGUF files (IQ1_S)
		n := i + 1
		if w == "1.58" {
			n++
		}
		c.weightFormat = "gguf"
		c.emit("gguf", i, n)
		c.emit("iq1_s", i, n)
		return n
	}
	if p, between, ok := quantLevel(w); ok {
		if between {
			c.corrected = append(c.corrected, c.in[i].raw+" → int8 (priced as 8-bit, the safe side)")
		}
		c.emit(string(p), i, i+1)
		return i + 1
	}
	return i
}

// trainingWords say the request trains the model, even with no workload
// word ("train llama3 8b int4", "학습하려면").
var trainingWords = map[string]bool{
	"train": true, "training": true, "trained": true, "trainer": true, "retrain": true, "retraining": true,
	"tune": true, "tuning": true,
}

// trainWorkloadSaid reports whether a training workload is named:
// "finetune", "lora", "sft", "pretrain".
func trainWorkloadSaid(in []reqToken) bool {
	for _, t := range in {
		if k := reqKeywords[t.w]; k.kind == reqKwWorkload && k.val != string(planner.Inference) {
			return true
		}
	}
	return false
}

// trainingAhead reports whether a word of the input says training is
// the job: trainingSaid without "trained", which names a model already
// trained ("llama 3 8b i trained, how fast does it run").
func trainingAhead(in []reqToken) bool {
	for _, t := range in {
		if t.w != "trained" && trainingSaid([]reqToken{t}) {
			return true
		}
	}
	return false
}

// trainingSaid reports whether a word of the input says training.
func trainingSaid(in []reqToken) bool {
	for _, t := range in {
		if trainingWords[t.w] {
			return true
		}
		for _, ko := range []string{"학습", "훈련", "트레이닝", "튜닝"} {
			if strings.Contains(t.w, ko) { // "풀파인튜닝" says training too
				return true
			}
		}
	}
	return false
}

// weightOnlyInference plans a request that names a 4- or 8-bit weight
// format and nothing of training as inference, and says why. Training is
// said by a training word, an amount of work (epochs, samples, tokens,
// steps, a dataset), a LoRA rank, an optimizer, a sharding strategy or
// checkpointing.
func (p *reqParser) weightOnlyInference(trained bool, container string) {
	j := &p.req.Job
	if container != "" && j.Precision == "" {
		j.Precision = planner.INT4
		p.note(en.Tf("`%s` with no level: weights read as 4-bit (Q4_K_M, llama.cpp's usual); say `q8_0` for 8-bit", container))
	}
	quant := func(v planner.Precision) bool { return v == planner.INT4 || v == planner.INT8 }
	pr := j.Precision
	if !quant(pr) {
		for _, v := range append(p.precisionPair[:], p.precisionMiddle.v) {
			if quant(v) {
				pr = v // "int4 vs int8 vs fp16": weights compared, for inference
			}
		}
	}
	if j.Workload != "" || !quant(pr) {
		return
	}
	if trained || trainingJob(p.req) {
		return
	}
	j.Workload = planner.Inference
	p.workloadAssumed = weightsAssumed(pr)
	p.note(en.Tf("%s weights and no training word: planned as inference (say `qlora` to train on a 4-bit base)", string(pr)))
}

// trainingJob reports whether what was read of a request says training
// without a training word: an amount of work (epochs, samples, tokens,
// steps, a dataset), a LoRA rank, an optimizer, a sharding strategy,
// checkpointing, preference pairs (DPO) or a measured run.
func trainingJob(r planner.Request) bool {
	j := r.Job
	return j.Epochs > 0 || j.Samples > 0 || j.Tokens > 0 || j.Steps > 0 || j.DatasetSamples > 0 ||
		j.DatasetTokens > 0 || j.LoRARank > 0 || j.Optimizer != "" || j.Strategy != "" || j.Checkpointing ||
		j.Preference || r.Baseline != nil
}

// AssumedWorkload is the workload a job that does not say one is planned
// as: the planner's default (finetune for a catalogue language model,
// pretrain for anything else; 4-bit training is QLoRA). Read restates it
// as assumed; TestAssumedWorkloadIsThePlanners holds it to the planner's.
func AssumedWorkload(j planner.Job) planner.Workload {
	if j.Workload != "" {
		return j.Workload
	}
	w := planner.Pretrain
	if j.Model.Origin == "catalogue" && j.Model.Kind != planner.VisionConv && j.Model.Kind != planner.VisionViT {
		w = planner.Finetune
	}
	if j.Preference {
		w = planner.Finetune // DPO tunes a trained model
	}
	if j.Precision == planner.INT4 && w == planner.Finetune {
		w = planner.QLoRA
	}
	return w
}

// epochsSaid reports whether in counts epochs ("3 epochs", "per epoch",
// "에폭"): passes over data to learn from, so the job trains.
func epochsSaid(in []reqToken) bool {
	for _, t := range in {
		if t.w == "epoch" || t.w == "epochs" || strings.HasPrefix(t.w, "에폭") || strings.HasPrefix(t.w, "에포크") {
			return true
		}
	}
	return false
}

// sixteenBeside reports whether "16bit" at [a, b) is set beside a
// quantised format said just before or after it ("int4 vs 16bit", "16bit
// vs 4bit"): 16-bit weights then, not the planner's choice of 16-bit
// training format.
func (p *reqParser) sixteenBeside(a, b int) bool {
	if !strings.Contains(p.span(a, b), "16") {
		return false
	}
	quant := func(w string) bool { v := kvTypes[w]; return v == planner.INT4 || v == planner.INT8 }
	if pr := p.precision; pr.set && (pr.v == planner.INT4 || pr.v == planner.INT8) && p.onlySeparators(p.precisionEnd, a) {
		return true
	}
	for k := b; k < len(p.toks) && k < b+3; k++ {
		if quant(p.toks[k].w) {
			return p.onlySeparators(b, k)
		}
	}
	return false
}

// thirdPrecision is the middle of three formats said side by side when
// memory is asked ("4비트, 8비트, 16비트로 … VRAM 각각": each one's memory);
// asked anything else, the two at the ends are compared and the note
// says so.
func (p *reqParser) thirdPrecision(memory bool) planner.Precision {
	m := p.precisionMiddle
	switch {
	case !m.set:
		return ""
	case memory:
		return m.v
	}
	p.note(en.Tf("`%s` also named: %s and %s compared; ask it against one of them on its own", m.word, p.precisionPair[0], p.precisionPair[1]))
	return ""
}
