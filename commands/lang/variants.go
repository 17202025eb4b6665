package lang

import (
	"slices"
	"strings"
	"unicode"

	"github.com/gpuplan/gpuplan/planner"
)

// Two choices of one kind set side by side: engines ("tgi vs vllm",
// "vllm이랑 sglang 처리량 비교"), quantisation methods ("awq랑 gptq 중"),
// stacks ("unsloth vs hf"), workloads ("lora vs full finetune memory") or
// models ("llama 3.1 8b vs qwen2.5 7b 로라 학습 시간 차이"). The request is
// read twice, once with each choice, and both are planned on the same
// hardware; a pair of GPUs or of precisions has its own readers.

// Variant is the second reading of a request that sets two choices side
// by side.
type Variant struct {
	// Kind is what the two choices are: engine, quant, stack, workload or
	// model.
	Kind string
	// Labels are the two choices as said, the one read first first.
	Labels [2]string
	// Request is the request with the second choice.
	Request planner.Request
	// Also are more choices answered beside the two ("4비트, 8비트,
	// 16비트 … 각각").
	Also []Choice
}

// said is the choices as the reading names them: "A vs B vs C".
func (v *Variant) said(together bool) string {
	sep := " vs "
	if together {
		sep = " + " // both at once on the same hardware
	}
	s := v.Labels[0] + sep + v.Labels[1]
	for _, c := range v.Also {
		s += sep + c.Label
	}
	return s
}

// Choice is one more choice of a Variant: its label and its request.
type Choice struct {
	Label   string
	Request planner.Request
}

// variantWords are the words that set two choices against each other.
var variantWords = map[string]bool{"vs": true, "vs.": true, "versus": true, "v.s.": true, "or": true, "랑": true, "이랑": true,
	"하고": true, "와": true, "과": true, "대": true, "아니면": true, "또는": true, "혹은": true}

// variantKind is the kind of choice the words of toks[a:b] name, "" for
// none.
func variantKind(cat *planner.Catalog, toks []reqToken, a, b int) string {
	if a < 0 || b > len(toks) || a >= b {
		return ""
	}
	if b-a == 3 && rankWord(toks[a].w) && toks[a+1].w == "=" && digitsOnly(toks[a+2].w) {
		return "rank" // "r=8 이랑 r=64"
	}
	var ws []string
	for _, t := range toks[a:b] {
		if t.w == "" || !unicode.IsLetter(rune(t.w[0])) && !unicode.IsDigit(rune(t.w[0])) && !isHangulWord(t.w) {
			return "" // ": llama3.1 8b": punctuation is no part of a choice
		}
		ws = append(ws, t.w)
	}
	if b-a == 1 {
		w := ws[0]
		switch {
		case engineWords[w] != "":
			return "engine"
		case gluedRank(w):
			return "rank" // "r=8 이랑 r=64", "r16"
		case isGGUFType(w):
			return "quant" // "Q8_0 vs Q4_K_M"
		case w == "awq" || w == "gptq" || w == "bnb" || w == "bitsandbytes" || w == "exl2" || w == "gguf" || w == "hqq":
			return "quant"
		case reqKeywords[w].kind == reqKwStack:
			return "stack"
		case reqKeywords[w].kind == reqKwWorkload && w != "inference":
			return "workload"
		}
	}
	if b-a == 1 {
		if _, e, ok := koStem(ws[0]); ok && e.act == koWord && reqKeywords[e.word].kind == reqKwWorkload && e.word != "inference" {
			return "workload" // "풀파인튜닝", "로라랑"
		}
	}
	if b-a == 2 && engineWords[ws[0]] != "" && weightWord(ws[1]) {
		return "engine" // "llama.cpp q8_0 vs vllm fp16": an engine with its weights
	}
	if k := settingWordsAt(ws); k > 0 && k == len(ws)-1 && digitsOnly(ws[k]) {
		return settingKind(ws[0]) // "seq 2048", "시퀀스 길이 2048", "배치사이즈 16"
	}
	if b-a == 2 && rankWord(ws[0]) && digitsOnly(ws[1]) {
		return "rank" // "rank 8 vs 64", "r16이랑 r64"
	}
	if b-a == 2 && ws[0] == "full" && reqKeywords[ws[1]].kind == reqKwWorkload {
		return "workload" // "full finetune", "full ft"
	}
	if b-a == 2 && variantKind(cat, toks, a, a+1) == "quant" && (ws[1] == "4bit" || ws[1] == "int4" || ws[1] == "8bit" || ws[1] == "int8" || ws[1] == "4-bit") {
		return "quant" // "gptq 4bit랑 awq 4bit"
	}
	for k, w := range ws {
		if stem, e, ok := koStem(w); ok && isHangulWord(w) && e.act == koWord && familyName(cat, e.word) {
			ws[k] = e.word + w[len(stem):] // "젬마2 9B": gemma2 9b
		}
	}
	for _, w := range ws {
		if isHangulWord(w) || reqKeywords[w].kind != 0 && reqKeywords[w].kind != reqKwModelKind {
			return "" // a model's name is its own words: "qwen2.5 7b", not "qwen2.5 7b 로라"
		}
	}
	for _, sep := range []string{" ", "-", ""} {
		if m, _, err := cat.Model(strings.Join(ws, sep)); err == nil && m.ID != "" {
			return "model"
		}
	}
	if len(ws) == 2 && isParamSize(ws[1]) && familyName(cat, ws[0]) {
		return "model" // "qwen 7b": a family and a size, which the reading resolves
	}
	return ""
}

// weightWord reports whether w names the weights' precision or format:
// "fp16", "int4", "q8_0", "awq".
func weightWord(w string) bool {
	if _, ok := ggufType(w); ok {
		return true
	}
	if _, ok := kvTypes[w]; ok {
		return true
	}
	return reqKeywords[w].kind == reqKwPrecision || w == "awq" || w == "gptq" || w == "gguf"
}

// familyName reports whether w is the first part of a catalogue model's
// name ("qwen", "llama3", "gemma").
func familyName(cat *planner.Catalog, w string) bool {
	for _, ps := range modelNameIndex(cat).parts {
		if len(ps) > 0 && ps[0] == w {
			return true
		}
	}
	return false
}

// findVariant finds "A vs B" in toks: the spans of A and B (B ending
// where the words that name it end) and where the word between starts;
// ok false when the request sets no two choices of one kind side by side.
func findVariant(cat *planner.Catalog, toks []reqToken, text string) (a, b [2]int, cmp int, kind string, ok bool) {
	compareSaid := strings.Contains(text, "compare") || strings.Contains(text, "비교") || strings.Contains(text, "차이") || strings.Contains(text, "difference")
	for k := 1; k+1 < len(toks); k++ {
		w := toks[k].w
		swap := (w == "을" || w == "를") && switchAfter(toks, k) || fromTo(toks, k)
		if !variantWords[w] && !(w == "and" && (compareSaid || togetherSaid(text))) && !swap {
			continue
		}
		// the longest span on each side that names a choice, the same kind
		for la := min(4, k); la >= 1; la-- {
			ka := variantKind(cat, toks, k-la, k)
			if ka == "" {
				continue
			}
			if (ka == "rank" || ka == "seq" || ka == "batch") && k+1 < len(toks) && digitsOnly(toks[k+1].w) {
				return [2]int{k - la, k}, [2]int{k + 1, k + 2}, k, ka, true // "rank 8 vs 64": the second rank, its word left out
			}
			for lb := min(4, len(toks)-k-1); lb >= 1; lb-- {
				if kb := variantKind(cat, toks, k+1, k+1+lb); kb == ka {
					if ka == "model" && lb+la == 2 && toks[k-1].w == toks[k+1].w {
						continue
					}
					return [2]int{k - la, k}, [2]int{k + 1, k + 1 + lb}, k, ka, true
				}
			}
			break
		}
	}
	return gluedVariant(cat, toks)
}

// settingWordsAt is how many of ws's first words name a setting whose
// value follows ("seq", "시퀀스 길이", "배치 사이즈", "batch size"), 0 for
// none.
func settingWordsAt(ws []string) int {
	switch {
	case len(ws) >= 3 && (ws[0] == "시퀀스" || ws[0] == "sequence" || ws[0] == "context" || ws[0] == "컨텍스트") && (ws[1] == "길이" || ws[1] == "length" || ws[1] == "len"),
		len(ws) >= 3 && (ws[0] == "배치" || ws[0] == "batch") && (ws[1] == "사이즈" || ws[1] == "size" || ws[1] == "크기"):
		return 2
	case len(ws) >= 2 && (ws[0] == "seq" || ws[0] == "seqlen" || ws[0] == "seq-len" || ws[0] == "시퀀스" || ws[0] == "max-length" || ws[0] == "ctx" || ws[0] == "context" ||
		ws[0] == "batch" || ws[0] == "bs" || ws[0] == "배치" || ws[0] == "배치사이즈" || ws[0] == "batch-size" || ws[0] == "배치크기"):
		return 1
	}
	return 0
}

// settingKind is the variant kind of a setting's first word.
func settingKind(w string) string {
	switch w {
	case "배치", "batch", "bs", "배치사이즈", "batch-size", "배치크기":
		return "batch"
	}
	return "seq"
}

// fromTo reports whether toks[k] is the 에서 of "2048에서 4096으로
// 늘리면": a setting changed from one value to another, set side by side.
func fromTo(toks []reqToken, k int) bool {
	if toks[k].w != "에서" || k+2 >= len(toks) || !digitsOnly(toks[k+1].w) || !digitsOnly(toks[k-1].w) {
		return false
	}
	if p := toks[k+2].w; p != "로" && p != "으로" {
		return false
	}
	return true
}

// gluedVariant finds "A이랑 B" with the particle glued to A ("7b 모델
// 풀파인튜닝이랑 lora 메모리 차이"): cmp is then B's first token, as if the
// particle stood there.
func gluedVariant(cat *planner.Catalog, toks []reqToken) (a, b [2]int, cmp int, kind string, ok bool) {
	for k := 0; k+1 < len(toks); k++ {
		w := toks[k].w
		if !isHangulWord(w) || !slices.ContainsFunc([]string{"이랑", "랑", "하고", "아니면"}, func(p string) bool { return strings.HasSuffix(w, p) && w != p }) {
			continue
		}
		for la := min(4, k+1); la >= 1; la-- {
			ka := gluedKind(cat, toks[k+1-la:k+1])
			if ka == "" {
				continue
			}
			for lb := min(4, len(toks)-k-1); lb >= 1; lb-- {
				if variantKind(cat, toks, k+1, k+1+lb) == ka {
					return [2]int{k + 1 - la, k + 1}, [2]int{k + 1, k + 1 + lb}, k + 1, ka, true
				}
			}
		}
	}
	return a, b, 0, "", false
}

// gluedKind is the kind of choice span names, its last word's particle
// set aside when the words before it are a model ("llama3 8b랑": the
// model llama3 8b); a single word is read with its particle as it is.
func gluedKind(cat *planner.Catalog, span []reqToken) string {
	if len(span) == 1 {
		return variantKind(cat, span, 0, 1)
	}
	last := span[len(span)-1].w
	for _, p := range []string{"이랑", "랑", "하고", "아니면"} {
		if t, ok := strings.CutSuffix(last, p); ok && t != "" {
			words := slices.Clone(span)
			words[len(words)-1].w = t
			if k := variantKind(cat, words, 0, len(words)); k == "model" {
				return k
			}
		}
	}
	return ""
}

// readVariants reads a request that sets two choices side by side as two
// requests: the text without the second choice, and the text with the
// second in the first's place. ok false when there is no such pair or
// either reading fails (the ordinary reading then says why).
func readVariants(env Env, text string) (Reading, bool) {
	cat := env.Catalog
	if cat == nil {
		cat = planner.DefaultCatalog()
	}
	toks := reqTokenize(text)
	a, b, cmp, kind, ok := findVariant(cat, toks, strings.ToLower(text))
	if !ok {
		return Reading{}, false
	}
	span := func(x [2]int) (int, int) { return toks[x[0]].start, toks[x[1]-1].end }
	as, ae := span(a)
	bs, be := span(b)
	cs := toks[cmp].start
	third := ""
	if k := b[1]; k+1 < len(toks) && variantWords[toks[k].w] {
		// "ollama vs vllm vs tgi", "A vs B vs C serving throughput": a
		// third choice of the same kind, answered beside the two
		for lc := min(4, len(toks)-k-1); lc >= 1; lc-- {
			if variantKind(cat, toks, k+1, k+1+lc) == kind {
				third = text[toks[k+1].start:toks[k+lc].end]
				text = text[:toks[k].start] + text[toks[k+lc].end:]
				break
			}
		}
	}
	if k := a[0] - 1; k >= 0 && (toks[k].w == "compare" || toks[k].w == "comparing") {
		// "compare full finetune vs lora": the two choices are the
		// comparison; the word would ask for hardware to compare
		text = text[:toks[k].start] + strings.Repeat(" ", toks[k].end-toks[k].start) + text[toks[k].end:]
	}
	first := text[:cs] + text[be:]
	bText := text[bs:be]
	if (kind == "rank" || kind == "seq" || kind == "batch") && digitsOnly(toks[b[0]].w) {
		bText = kind + " " + bText // "rank 8 vs 64": 64 is a rank too; "seq 2048에서 4096으로": a length
	}
	second := text[:as] + bText + text[ae:cs] + text[be:]
	env.noVariant = true
	r1, err1 := Read(env, first)
	r2, err2 := Read(env, second)
	if err1 != nil || err2 != nil {
		return Reading{}, false
	}
	label := func(s string) string {
		if isHangulWord(s) {
			for _, p := range []string{"이랑", "랑", "하고", "과", "와", "은", "는", "이", "가", "을", "를"} {
				if t, ok := strings.CutSuffix(s, p); ok && t != "" {
					return t // "풀파인튜닝이랑": the choice, not its particle
				}
			}
		}
		return s
	}
	if kind == "batch" {
		// "배치사이즈 16에서 32로": the batch each GPU runs at once (the
		// trainer's per-device batch), what decides its memory
		for _, r := range []*Reading{&r1, &r2} {
			if j := &r.Request.Job; j.MicroBatch == 0 && j.GlobalBatch > 0 {
				j.MicroBatch, j.GlobalBatch = j.GlobalBatch, 0
			}
		}
	}
	r1.Variant = &Variant{Kind: kind, Labels: [2]string{label(text[as:ae]), label(bText)}, Request: r2.Request}
	if kind == "model" && togetherSaid(strings.ToLower(text)) {
		bothAtOnce(&r1)
	}
	variantAsk(&r1, kind, text)
	if third != "" {
		if r3, err := Read(env, text[:as]+third+text[ae:cs]+text[be:]); err == nil {
			r1.Variant.Also = []Choice{{Label: third, Request: r3.Request}}
		} else {
			t := en.Tf("`%s` also named: %s and %s compared; ask it against one of them on its own", third, r1.Variant.Labels[0], r1.Variant.Labels[1])
			r1.notes = append(r1.notes, t)
			r1.Request.Job.Notes = append(r1.Request.Job.Notes, t.String())
		}
	}
	return r1, true
}

// rankWord reports whether w names a LoRA rank's key ("rank", "r", "랭크").
// gluedRank reports whether w is a LoRA rank written in one word: "r=8",
// "r16", "rank=64".
func gluedRank(w string) bool {
	for _, p := range []string{"rank=", "r=", "r"} {
		if rest, ok := strings.CutPrefix(w, p); ok && rest != "" && digitsOnly(rest) {
			return true
		}
	}
	return false
}

// isGGUFType reports whether w names a GGUF file type ("q8_0", "q4_k_m").
func isGGUFType(w string) bool {
	_, ok := ggufType(w)
	return ok && strings.HasPrefix(w, "q") || ok && strings.HasPrefix(w, "iq")
}

func rankWord(w string) bool {
	return w == "rank" || w == "r" || w == "lora-r" || w == "lora-rank" || w == "랭크"
}

// switchAfter reports whether a switch is said after the object particle
// at k: "A를 B로 바꾸면", "A을 B로 교체": B, then 로/으로, then a verb of
// changing.
func switchAfter(toks []reqToken, k int) bool {
	for j := k + 2; j < len(toks) && j <= k+5; j++ {
		if toks[j].w != "로" && toks[j].w != "으로" {
			continue
		}
		next := toks[min(j+1, len(toks)-1)].w
		for _, v := range []string{"바꾸", "바꿔", "바꿀", "변경", "교체", "갈아타"} {
			if strings.HasPrefix(next, v) {
				return true
			}
		}
	}
	return false
}

// togetherSaid reports whether a request sets two models on the same
// hardware at once ("같이", "함께", "동시에", "together", "on the same
// gpu") rather than against each other.
func togetherSaid(text string) bool {
	for _, w := range []string{"같이", "함께", "동시에", "한꺼번에", "together", "same gpu", "same card", "on the same", "share the", "share a", "at the same time", "alongside", "both on", "공유"} {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// bothAtOnce reads two models set on the same hardware at once ("llama 3
// 8b랑 whisper 같이 a100 한장에"): whether they fit together is asked,
// and with no work said both are served.
func bothAtOnce(r1 *Reading) {
	r1.Together = true
	if r1.Ask == AskWhichGPU || r1.Ask == AskNone {
		r1.Ask = AskFit
	}
	if r1.WorkloadAssumed == "not said" {
		r1.Request.Job.Workload, r1.Variant.Request.Job.Workload, r1.WorkloadAssumed = planner.Inference, planner.Inference, ""
		r1.notes = append(r1.notes, en.T("two models at once on the same GPUs: planned as serving both (say finetune to train)"))
		r1.Request.Job.Notes = append(r1.Request.Job.Notes, r1.notes[len(r1.notes)-1].String())
	}
	if v := &r1.Variant.Request.Job; v.Workload == "" {
		v.Workload = r1.Request.Job.Workload // run at once, both the same way
	}
}

// adviceAsked reports whether a choice is asked as which to use ("which
// one should I use", "뭐 써야 돼요", "어느 게 나아", "추천"), not which fits.
func adviceAsked(text string) bool {
	for _, w := range []string{"should", "recommend", "better", "써야", "쓸까", "추천", "나아", "낫", "좋아", "좋을"} {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// variantAsk settles what a pair of choices asks: which of the two on a
// team server, not which server; which is faster or cheaper (both
// answered); whether two models fit together; which to use (memory and
// speed side by side).
func variantAsk(r1 *Reading, kind, text string) {
	if r1.Ask == AskWhichServer && kind != "server" && len(r1.Request.Targets) == 1 && namesServer(r1.Request.Targets) {
		// "Mistral-7B vs Llama-3-8B LoRA on server-a: which one is
		// faster": which of the two choices there, not which server
		r1.Ask = AskWhichGPU
	}
	if r1.Ask == AskWhichGPU || r1.Ask == AskFit && r1.AlsoTime && r1.Prefer != "" && !r1.Memory {
		// "which is faster": which of the two choices, both answered, not
		// a GPU, nor whether one fits on the GPU said ("lora vs qlora on
		// a 4090, which one's faster")
		r1.Ask = AskNone
		if r1.Prefer == "cheapest" {
			r1.Ask = AskCost // "which is cheaper": each one's cost
		}
	}
	if kind == "workload" && r1.Ask == AskFit && r1.AlsoTime && !r1.Memory && r1.Prefer == "" && adviceAsked(strings.ToLower(text)) {
		// "qlora랑 lora 중에 뭐 써야 돼요? 4090 한 장": which to use is
		// what each needs and how fast each runs, side by side
		r1.Memory, r1.Ask = true, AskTime
	}
}
