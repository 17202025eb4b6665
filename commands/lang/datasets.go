package lang

import (
	"math"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// Dataset is a well-known training set by name, so "90 epochs of imagenet"
// has an amount. Sizes are the training split as its publisher states it.
type Dataset struct {
	Name    string
	Samples float64 // training examples (images, question–answer pairs, …)
	Tokens  float64 // training tokens, for text corpora read by tokens
	// SampleChars is the mean characters of one formatted training sample
	// (prompt template, instruction and answer) of an instruction set, 0
	// where unknown: a decoder fine-tuned on it is planned at that length
	// in tokens when no sequence length is said (sampleSeq).
	SampleChars float64
	Source      string
}

// datasets: each size with where it is published.
var datasets = []Dataset{
	{Name: "imagenet-1k", Samples: 1281167, Source: "https://www.image-net.org/download.php (ILSVRC2012 train: 1,281,167 images)"},
	{Name: "imagenet-21k", Samples: 14197122, Source: "https://www.image-net.org/ (14,197,122 images in 21,841 synsets: the full fall 2011 release people train on as ImageNet-21k/22k)"},
	{Name: "cifar-10", Samples: 50000, Source: "https://www.cs.toronto.edu/~kriz/cifar.html (50,000 training images)"},
	{Name: "cifar-100", Samples: 50000, Source: "https://www.cs.toronto.edu/~kriz/cifar.html (50,000 training images)"},
	{Name: "mnist", Samples: 60000, Source: "http://yann.lecun.com/exdb/mnist/ (60,000 training examples)"},
	{Name: "coco", Samples: 118287, Source: "https://cocodataset.org/#download (train2017: 118,287 images)"},
	{Name: "squad", Samples: 87599, Source: "https://huggingface.co/datasets/rajpurkar/squad (train: 87,599)"},
	{Name: "squad-v2", Samples: 130319, Source: "https://huggingface.co/datasets/rajpurkar/squad_v2 (train: 130,319)"},
	{Name: "mnli", Samples: 392702, Source: "https://huggingface.co/datasets/nyu-mll/glue (mnli train: 392,702)"},
	{Name: "sst-2", Samples: 67349, Source: "https://huggingface.co/datasets/nyu-mll/glue (sst2 train: 67,349)"},
	{Name: "qqp", Samples: 363846, Source: "https://huggingface.co/datasets/nyu-mll/glue (qqp train: 363,846)"},
	{Name: "qnli", Samples: 104743, Source: "https://huggingface.co/datasets/nyu-mll/glue (qnli train: 104,743)"},
	{Name: "cola", Samples: 8551, Source: "https://huggingface.co/datasets/nyu-mll/glue (cola train: 8,551)"},
	{Name: "mrpc", Samples: 3668, Source: "https://huggingface.co/datasets/nyu-mll/glue (mrpc train: 3,668)"},
	{Name: "rte", Samples: 2490, Source: "https://huggingface.co/datasets/nyu-mll/glue (rte train: 2,490)"},
	{Name: "alpaca", Samples: 52002, SampleChars: 542, Source: "https://huggingface.co/datasets/tatsu-lab/alpaca (train: 52,002; about 40% of examples have an input) ; " +
		"mean sample: https://huggingface.co/datasets/disham993/alpaca-train-validation-test-split (dataset_info: 47,764,738 bytes over 52,002 examples of the original's four columns, instruction, input, output and text, " +
		"text being the other three in Stanford Alpaca's prompt template: 918 bytes an example; the template adds 205 characters with an input and 140 without, 166 on average, so text is (918 + 166) / 2 ≈ 542)"},
	{Name: "dolly", Samples: 15011, Source: "https://huggingface.co/datasets/databricks/databricks-dolly-15k (15,011)"},
	{Name: "nsmc", Samples: 150000, Source: "https://github.com/e9t/nsmc (Naver sentiment movie corpus: 200K reviews, ratings_train.txt 150K for training)"},
	{Name: "imdb", Samples: 25000, Source: "https://huggingface.co/datasets/stanfordnlp/imdb (train: 25,000)"},
	{Name: "cnn-dailymail", Samples: 287113, Source: "https://huggingface.co/datasets/abisee/cnn_dailymail (3.0.0 train: 287,113 articles with highlights)"},
	{Name: "xsum", Samples: 204045, Source: "https://huggingface.co/datasets/EdinburghNLP/xsum (train: 204,045)"},
	{Name: "korquad", Samples: 60407, Source: "https://korquad.github.io/KorQuad%201.0/ (KorQuAD 1.0 train: 60,407 question-answer pairs)"},
	{Name: "gsm8k", Samples: 7473, Source: "https://huggingface.co/datasets/openai/gsm8k (main train: 7,473)"},
	{Name: "klue-ynat", Samples: 45678, Source: "Park et al. 2021, KLUE: Korean Language Understanding Evaluation (arXiv:2105.09680), Table 1: YNAT train 45,678"},
	{Name: "klue-ner", Samples: 21008, Source: "KLUE (arXiv:2105.09680), Table 1: NER train 21,008"},
	{Name: "klue-nli", Samples: 24998, Source: "KLUE (arXiv:2105.09680), Table 1: NLI train 24,998"},
	{Name: "klue-sts", Samples: 11668, Source: "KLUE (arXiv:2105.09680), Table 1: STS train 11,668"},
	{Name: "klue-re", Samples: 32470, Source: "KLUE (arXiv:2105.09680), Table 1: RE train 32,470"},
	{Name: "klue-mrc", Samples: 17554, Source: "KLUE (arXiv:2105.09680), Table 1: MRC train 17,554"},
	{Name: "c4", Tokens: 156e9, Source: "Dodge et al. 2021, Documenting Large Webtext Corpora (C4.en: 156B tokens)"},
	{Name: "the-pile", Tokens: 300e9, Source: "Biderman et al. 2023, Pythia (the Pile: ~300B tokens, one epoch)"},
	{Name: "openwebtext", Tokens: 9e9, Source: "https://github.com/karpathy/nanoGPT (OpenWebText train: ~9B GPT-2 tokens)"},
	{Name: "wikipedia", Tokens: 2.5e9, Source: "Devlin et al. 2019, BERT §3.1 (English Wikipedia: 2,500M words, read as tokens)"},
	{Name: "wikitext-103", Tokens: 103227021, Source: "Merity et al. 2016, Pointer Sentinel Mixture Models, Table 1 (WikiText-103 train: 103,227,021 tokens)"},
	{Name: "wikitext-2", Tokens: 2088628, Source: "Merity et al. 2016, Pointer Sentinel Mixture Models, Table 1 (WikiText-2 train: 2,088,628 tokens)"},
	{Name: "fineweb-edu", Tokens: 1.3e12, Source: "https://huggingface.co/datasets/HuggingFaceFW/fineweb-edu (1.3T tokens)"},
}

// datasetAliases are the names people type for each dataset.
var datasetAliases = map[string]string{
	"imagenet": "imagenet-1k", "imagenet1k": "imagenet-1k", "imagenet-1k": "imagenet-1k", "ilsvrc": "imagenet-1k",
	"ilsvrc2012": "imagenet-1k", "이미지넷": "imagenet-1k",
	"imagenet-21k": "imagenet-21k", "imagenet21k": "imagenet-21k", "imagenet-22k": "imagenet-21k", "imagenet22k": "imagenet-21k",
	"in21k": "imagenet-21k", "in22k": "imagenet-21k", "in-21k": "imagenet-21k", "in-22k": "imagenet-21k",
	"cifar10": "cifar-10", "cifar-10": "cifar-10", "cifar": "cifar-10", "cifar100": "cifar-100", "cifar-100": "cifar-100",
	"mnist": "mnist", "coco": "coco", "mscoco": "coco", "ms-coco": "coco",
	"squad": "squad", "squad1": "squad", "squad1.1": "squad", "squad-v1": "squad", "squad2": "squad-v2", "squad2.0": "squad-v2",
	"squad-v2": "squad-v2", "squadv2": "squad-v2",
	"mnli": "mnli", "glue-mnli": "mnli", "glue-sst2": "sst-2", "glue-sst-2": "sst-2", "glue-qqp": "qqp", "glue-qnli": "qnli",
	"glue-cola": "cola", "glue-mrpc": "mrpc", "glue-rte": "rte", "sst2": "sst-2", "sst-2": "sst-2", "qqp": "qqp", "qnli": "qnli", "cola": "cola",
	"mrpc": "mrpc", "rte": "rte", "cnn-dailymail": "cnn-dailymail", "cnn_dailymail": "cnn-dailymail", "cnndm": "cnn-dailymail", "xsum": "xsum",
	"korquad": "korquad", "korquad1": "korquad", "korquad1.0": "korquad", "코쿼드": "korquad", "gsm8k": "gsm8k", "klue-ynat": "klue-ynat", "ynat": "klue-ynat", "klue-ner": "klue-ner", "klue-nli": "klue-nli",
	"klue-sts": "klue-sts", "klue-re": "klue-re", "klue-mrc": "klue-mrc", "alpaca": "alpaca", "알파카": "alpaca", "dolly": "dolly", "dolly-15k": "dolly", "imdb": "imdb", "nsmc": "nsmc",
	"c4": "c4", "pile": "the-pile", "the-pile": "the-pile", "thepile": "the-pile", "openwebtext": "openwebtext",
	"owt": "openwebtext", "wikipedia": "wikipedia", "wiki": "wikipedia", "enwiki": "wikipedia", "위키피디아": "wikipedia",
	"위키": "wikipedia", "fineweb-edu": "fineweb-edu", "fineweb": "fineweb-edu",
	"wikitext-103": "wikitext-103", "wikitext103": "wikitext-103", "wt103": "wikitext-103", "wikitext-2": "wikitext-2",
	"wikitext2": "wikitext-2",
}

func lookupDataset(w string) (Dataset, bool) {
	name, ok := datasetAliases[strings.TrimSuffix(w, "-dataset")]
	if !ok {
		return Dataset{}, false
	}
	for _, d := range datasets {
		if d.Name == name {
			return d, true
		}
	}
	return Dataset{}, false
}

// Datasets lists the datasets known by name.
func Datasets() []Dataset { return append([]Dataset(nil), datasets...) }

// readDataset reads the dataset named by input [a, b): it is the
// request's dataset, its size goes where the name stood (emitDataset), and
// reading goes on after the name or after a size said beside it.
func (c *canonizer) readDataset(d Dataset, a, b int) int {
	if strings.HasSuffix(d.Name, "-1k") && (c.w(b) == "1k" || c.w(b) == "-1k") {
		b++ // "이미지넷 1k", "imagenet 1k": the name's own "1k", not a size
	}
	c.dataset = d.Name
	c.skipTo = 0
	c.emitDataset(d, a, b)
	if c.skipTo > a {
		return c.scaleAfter(c.skipTo)
	}
	return b
}

// emitDataset writes the dataset's size where its name stood: "of 1281167
// samples", so "90 epochs of imagenet" is 90 epochs of 1.28M images.
func (c *canonizer) emitDataset(d Dataset, a, b int) {
	if n := len(c.out); n > 1 && c.out[n-2].w == "of" {
		if _, unit, ok := reqScanNumber(c.out[n-1].w); ok && unit == "" {
			// "1 epoch of 52k alpaca": the size said before the name, in
			// the dataset's unit (not "batch 256 imagenet": a value)
			unit := "samples"
			if d.Tokens > 0 {
				unit = "tokens"
			}
			c.out = append(c.out, reqToken{raw: c.in[a].raw, w: unit, start: c.in[a].start, end: c.in[b-1].end})
			return
		}
	}
	if len(c.out) > 0 && (c.out[len(c.out)-1].w == "of" || c.out[len(c.out)-1].w == "on") {
		c.out = c.out[:len(c.out)-1]
	}
	// a size the user gave beside the name wins: "imagenet 1.28M images",
	// "ImageNet 전체(약 128만 장)", "alpaca (52k)"
	if c.hasAmountAfter(b) {
		return // named in the reading beside the size said
	}
	if n, ok := c.bareSizeAfter(b); ok {
		unit := "samples"
		if d.Tokens > 0 {
			unit = "tokens"
		}
		at := c.in[a].start
		c.out = append(c.out, reqToken{raw: c.in[a].raw, w: "of", start: at, end: at})
		c.emit(c.w(n), n, n+1)
		c.out = append(c.out, reqToken{raw: unit, w: unit, start: c.in[n].end, end: c.in[n].end})
		c.skipTo = n + 1
		if k := amountUnitWord(c.w(n + 1)); k == reqUSamples || k == reqUTokens {
			c.skipTo = n + 2 // "openwebtext 9b토큰": the unit said is the one written
		}
		return
	}
	// Otherwise the dataset's own size, placed at the end of the reading
	// pass only if the request gives no size of its own ("squad for 2
	// epochs, ~88K examples" is 88K).
	at := c.in[a].start
	end := c.in[b-1].end
	tok := func(w string) reqToken { return reqToken{raw: c.text[at:end], w: w, start: at, end: at} }
	unit := "samples"
	v := d.Samples
	if d.Tokens > 0 {
		unit, v = "tokens", d.Tokens
	}
	c.dsToks = []reqToken{tok("of"), tok(reqTrimNum(v)), {raw: c.text[at:end], w: unit, start: at, end: at}}
}

// placeDataset writes the named dataset's size where the name stood, when
// nothing else in the request says how much data.
func (c *canonizer) placeDataset() {
	if c.dsToks == nil {
		return
	}
	for k, t := range c.out {
		n, unit, ok := reqScanNumber(t.w)
		if !ok || n.v <= 0 {
			continue
		}
		if unit == "" && k+1 < len(c.out) {
			unit = c.out[k+1].w
		}
		if u := reqUnitClass(unit); u == reqUSamples || u == reqUTokens {
			return // the request's own size
		}
	}
	at := c.dsToks[0].start
	k := 0
	for k < len(c.out) && c.out[k].start < at {
		k++
	}
	c.out = append(c.out[:k], append(c.dsToks, c.out[k:]...)...)
}

// amountUnitWord is the kind of unit w names, in English ("tokens") or
// Korean ("토큰", "샘플", "개").
func amountUnitWord(w string) reqUnitKind {
	if e, ok := koLexicon()[w]; ok && e.act == koWord {
		w = e.word
	}
	return reqUnitClass(w)
}

// hasAmountAfter reports whether a dataset size follows ("imagenet (1.28M
// images)").
func (c *canonizer) hasAmountAfter(i int) bool {
	switch c.w(i) {
	case "about", "around", "approx", "roughly", "~", "약", "대략":
		i++ // "wikitext-103 (about 100M tokens)"
	}
	n, unit, ok := reqScanNumber(c.w(i))
	if !ok || n.v <= 0 {
		return false
	}
	if unit == "" {
		unit = c.w(i + 1)
	}
	k := reqUnitClass(unit)
	return k == reqUSamples || k == reqUTokens
}

// bareSizeAfter finds a number right after a dataset's name, with at most
// one word between ("alpaca (52k)", "ImageNet 전체 약 128만 장"): the size
// of the part used. A number with an epoch or step unit is no size.
func (c *canonizer) bareSizeAfter(j int) (int, bool) {
	for k := j; k <= j+2 && k < len(c.in); k++ {
		n, unit, ok := reqScanNumber(c.w(k))
		if !ok {
			switch c.w(k) {
			case "약", "전체", "전체약", "about", "around", "approx", "~", "total":
				continue // "ImageNet 전체(약 128만 장)"
			}
			return 0, false
		}
		if unit != "" || n.v < 100 {
			return 0, false
		}
		switch u := reqUnitClass(c.w(k + 1)); u {
		case reqUEpochs, reqUSteps, reqUTime:
			return 0, false
		}
		if _, e, ok := koStem(c.w(k + 1)); ok && e.act == koWord && (e.word == "epochs" || e.word == "steps") {
			return 0, false
		}
		return k, true
	}
	return 0, false
}

// Characters per token of English text: Llama 3's 128K-token tokenizer
// reads about 4.0, Llama 2's 32K one about 3.2 (Meta, in DeepLearning.AI's
// "Introducing Multimodal Llama 3.2", tokenization lesson). A vocabulary
// of 100K or more is taken to read like the first.
const (
	charsPerTokenLargeVocab = 4.0
	charsPerTokenSmallVocab = 3.2
)

// sampleSeq plans a decoder fine-tuned on a named instruction set at its
// samples' mean length when no sequence length was said: "llama 3 8b lora
// on alpaca" is 52K samples of ~136 tokens, not of the 2,048 a sequence
// defaults to (which planned it 15x too long). It is the mean, as "avg
// 300 tokens" is read: a packed or padding-free run; a note says so.
func sampleSeq(r *Reading, p *reqParser) {
	j := &r.Request.Job
	d, ok := lookupDataset(r.Dataset)
	if !ok || d.SampleChars == 0 || j.SeqLen > 0 || (j.Model.Kind != planner.Decoder && j.Model.Kind != planner.MoE) ||
		AssumedWorkload(*j) == planner.Inference || AssumedWorkload(*j) == planner.Pretrain {
		return
	}
	cpt := charsPerTokenSmallVocab
	if j.Model.Vocab >= 100000 {
		cpt = charsPerTokenLargeVocab
	}
	j.SeqLen = int(math.Ceil(d.SampleChars / cpt))
	p.note(en.Tf("%s samples average about %d tokens: planned at that length, as a packed or padding-free run does (say `seq N` for the cutoff a padded batch fills)", d.Name, j.SeqLen))
	r.notes, j.Notes = p.notes, p.req.Job.Notes
}

// Chat lengths: ShareGPT's conversations, which vLLM's and SGLang's serving
// benchmarks sample for chat (`--dataset-name sharegpt`), average about
// 205-210 prompt tokens with Llama 3's tokenizer (65,578 over 320 prompts
// in LambdaLabsML/vllm-benchmark's results) and 194 output tokens (SGLang's
// benchmark_vllm_060 README: 4,281.51 output tokens/s over 22.03
// requests/s).
const (
	chatPromptTokens = 210
	chatOutputTokens = 194
)

// chatLengths plans a chatbot served with no lengths said ("챗봇 … 띄우려면
// a100 몇 장", "a chat app on llama 3 8b", an instruct checkpoint served)
// at chat's lengths, not the
// default context's 3,840-token prompts, and says so.
func chatLengths(r *Reading, p *reqParser, c *canonizer) {
	j := &r.Request.Job
	chat := false
	for _, t := range c.in {
		w := strings.ToLower(t.w)
		chat = chat || chatWord(w) ||
			// an instruct or chat checkpoint served ("llama-3.1-8b-instruct",
			// "qwen2.5-7b-chat") is a chat service
			strings.HasSuffix(w, "-instruct") || strings.HasSuffix(w, "-chat") || w == "instruct" || strings.HasPrefix(w, "인스트럭트")
	}
	if !chat || !j.Model.IsTransformer() || j.Model.ForwardOnly() {
		return
	}
	if j.Workload == "" && !c.trainingSaid() && !j.Preference {
		j.Workload = planner.Inference // "사내 챗봇으로 쓰려는데": served, not trained
	}
	if j.Workload != planner.Inference || j.SeqLen > 0 || j.GenTokens > 0 {
		return
	}
	j.SeqLen, j.GenTokens = chatPromptTokens+chatOutputTokens, chatOutputTokens
	p.note(en.Tf("a chatbot with no lengths said: ShareGPT's mean chat turn, about %d prompt and %d output tokens, as vLLM's and SGLang's serving benchmarks sample it; say `in N out M` for yours", chatPromptTokens, chatOutputTokens))
	r.notes, j.Notes = p.notes, p.req.Job.Notes
	r.Skipped = slices.DeleteFunc(r.Skipped, func(s string) bool {
		w := strings.ToLower(s)
		return w == "chat" || w == "chatbot" || strings.HasPrefix(w, "챗봇") || strings.HasPrefix(w, "채팅") // read here
	})
}

// servedWord reports whether w says a model is served to people ("서빙",
// "serve", "서비스"): its launch line serves the instruction-tuned
// checkpoint, which answers them, not the base one.
func servedWord(w string) bool {
	return strings.HasPrefix(w, "서빙") || strings.HasPrefix(w, "서비스") || w == "serve" || w == "serving" || w == "served"
}

// chatWord reports whether w names a chat service: "chatbot", "챗봇",
// "채팅", "대화형".
func chatWord(w string) bool {
	return w == "chat" || w == "chatbot" || w == "chatbots" || strings.HasPrefix(w, "챗봇") || strings.HasPrefix(w, "채팅") || strings.HasPrefix(w, "대화형")
}

// instructNamed marks a job whose instruction-tuned checkpoint was named
// ("qwen2.5-7b-instruct", "gemma-2-9b-it", "llama-2-7b-chat"), or a
// chatbot served, so its launch line serves that repository.
func instructNamed(r *Reading, c *canonizer) {
	j := &r.Request.Job
	for _, t := range c.in {
		w := strings.ToLower(t.w)
		switch {
		case strings.HasSuffix(w, "-instruct") || strings.HasSuffix(w, "-chat") || strings.HasSuffix(w, "-it") || w == "instruct" || strings.HasPrefix(w, "인스트럭트"),
			j.Workload == planner.Inference && (chatWord(w) || servedWord(w)):
			j.Instruct = true
		}
	}
	if j.Instruct {
		r.Skipped = slices.DeleteFunc(r.Skipped, func(s string) bool { return strings.HasPrefix(s, "인스트럭트") }) // read here
	}
}
