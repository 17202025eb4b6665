package planner

// modelAliases are the names people type for catalogue entries that the
// normalised-prefix rule does not find on its own.
var modelAliases = map[string]string{
	"bert":         "bert-base-uncased",
	"bertbase":     "bert-base-uncased",
	"bertlarge":    "bert-large-uncased",
	"gpt2small":    "gpt2",
	"gpt2124m":     "gpt2",
	"mistral7b":    "mistral-7b-v0.1",
	"mistral":      "mistral-7b-v0.1",
	"mixtral":      "mixtral-8x7b",
	"llama27b":     "llama-2-7b",
	"llama213b":    "llama-2-13b",
	"llama270b":    "llama-2-70b",
	"llama38b":     "llama-3-8b",
	"llama370b":    "llama-3-70b",
	"llama3p18b":   "llama-3.1-8b",
	"llama3p170b":  "llama-3.1-70b",
	"llama405b":    "llama-3.1-405b",
	"resnet50":     "resnet-50",
	"resnet":       "resnet-50",
	"efficientnet": "efficientnet-b0",
	"effnet":       "efficientnet-b0",
	"effnetb0":     "efficientnet-b0",
	"resnext":      "resnext101-32x4d",
	"resnext101":   "resnext101-32x4d",
	"vitb16":       "vit-base-patch16-224",
	"vitl16":       "vit-large-patch16-224",
	"vitbase":      "vit-base-patch16-224",
	"vitlarge":     "vit-large-patch16-224",
	"t5":           "t5-base",
	"tinyllama":    "tinyllama-1.1b",
	"deepseekv3":   "deepseek-v3",
	"deepseekr1":   "deepseek-r1",
	"phi3mini":     "phi-3-mini-4k",
	"phi3small":    "phi-3-small-8k",
	"phi3medium":   "phi-3-medium-4k",
	"modernbert":   "modernbert-base",
	"vith14":       "vit-huge-patch14-224",
	"vithuge":      "vit-huge-patch14-224",
	"clipvitl14":   "clip-vit-large-patch14",
	"clipl14":      "clip-vit-large-patch14",
	"clip":         "clip-vit-large-patch14",
	"clipvitb16":   "clip-vit-base-patch16",
	"clipb16":      "clip-vit-base-patch16",
	"clipvitb32":   "clip-vit-base-patch32",
	"clipb32":      "clip-vit-base-patch32",
	"vitb32":       "clip-vit-base-patch32",
	"minilm":       "all-minilm-l6-v2",
	"minilml6":     "all-minilm-l6-v2",
	"allminilm":    "all-minilm-l6-v2",
	"resnet101":    "resnet-101",
	"deberta":      "deberta-v3-base",
	"debertav3":    "deberta-v3-base",
	"phi35mini":    "phi-3.5-mini",
	"phi3p5mini":   "phi-3.5-mini",
	"whisperturbo": "whisper-large-v3-turbo",
	"whisper":      "whisper-large-v3", // the size people mean by the name alone: the most used checkpoint
	"bart":         "bart-large",
	"convnext":     "convnext-base-224",
	// Korean teams' encoders, each its own row (KLUE, KoELECTRA, KoBERT
	// vocabularies); KoELECTRA-small is not in the catalogue: its
	// embeddings (128) are narrower than its hidden size (256), which the
	// model's shape does not express
	"koelectra":     "koelectra-base-v3",
	"koelectrabase": "koelectra-base-v3",
	"electra":       "electra-base",
	"kluebert":      "klue-bert-base",
	"klueroberta":   "klue-roberta-base",
	// ko-sroberta (jhgan/ko-sroberta-multitask, the usual Korean sentence
	// embedder) is klue/roberta-base fine-tuned as a sentence encoder: its
	// config.json is the base model's shape
	"kosroberta":          "klue-roberta-base",
	"kosrobertamultitask": "klue-roberta-base",
	"kobertbasev1":        "kobert",
	"skt/kobert":          "kobert",
	"exaone":              "exaone-3.5-7.8b",
	"xlmr":                "xlm-roberta-base",
	"xlmrbase":            "xlm-roberta-base",
	"xlmrlarge":           "xlm-roberta-large",
	// BAAI's cross-encoder rerankers are XLM-RoBERTa with a one-logit head
	// (their config.json: XLMRobertaForSequenceClassification, the base
	// model's dimensions); v2-m3 starts from bge-m3
	// Zephyr 7B (HuggingFaceH4) is Mistral 7B v0.1 fine-tuned: its
	// config.json is MistralForCausalLM at the base model's dimensions
	"zephyr":           "mistral-7b-v0.1",
	"zephyr7b":         "mistral-7b-v0.1",
	"zephyr7bbeta":     "mistral-7b-v0.1",
	"bgererankerlarge": "xlm-roberta-large",
	"bgererankerbase":  "xlm-roberta-base",
	"bgererankerv2m3":  "bge-m3",
	"xlmroberta":       "xlm-roberta-base",
	"bgelarge":         "bge-large-en-v1.5",
	"bgebase":          "bge-base-en-v1.5",
	"e5large":          "e5-large-v2",
	"e5base":           "e5-base-v2",
	"me5large":         "multilingual-e5-large",
	"multilinguale5":   "multilingual-e5-large",
	"mbert":            "bert-base-multilingual-cased",
	"multilingualbert": "bert-base-multilingual-cased",
	"solar":            "solar-10.7b",
	// Llama 4 by Meta's repository names (meta-llama/Llama-4-Scout-17B-16E,
	// Llama-4-Maverick-17B-128E, with or without -Instruct) and by the
	// bare model name
	"scout":                          "llama-4-scout",
	"llama4scout17b16e":              "llama-4-scout",
	"maverick":                       "llama-4-maverick",
	"llama4maverick17b128e":          "llama-4-maverick",
	"metallamallama4scout17b16e":     "llama-4-scout",
	"metallamallama4maverick17b128e": "llama-4-maverick",
	// SigLIP: the So400m tower is the one vision-language models ship with
	"siglip":                       "siglip-so400m-patch14-384",
	"siglipso400m":                 "siglip-so400m-patch14-384",
	"googlesiglipso400mpatch14384": "siglip-so400m-patch14-384",
	"siglipbase":                   "siglip-base-patch16-224",
	"siglipb16":                    "siglip-base-patch16-224",
	"googlesiglipbasepatch16224":   "siglip-base-patch16-224",
	"thenlpergtelarge":             "gte-large",
	"thenlpergtebase":              "gte-base",
}

// IsModelAlias reports whether name is one of the catalogue's other names
// for a model ("mbert", "multilingual bert", "xlmr"), spaces and case
// aside.
func IsModelAlias(name string) bool {
	_, ok := modelAliases[norm(name)]
	return ok
}
