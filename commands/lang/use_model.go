package lang

import (
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// useModel is a common open model for a use said with no model named: a
// chatbot (or an LLM) is planned with Qwen2.5-7B-Instruct's shape, an
// embedding or search model with BGE-M3, both of which read Korean; a note
// says so and how to name another. False when no such use is said.
func (p *reqParser) useModel() (planner.Model, bool) {
	low := strings.ToLower(p.text)
	var id string
	var note text
	switch {
	case strings.Contains(low, "임베딩") || strings.Contains(low, "embedding") || strings.Contains(low, "벡터") || strings.Contains(low, "vector"):
		id, note = "bge-m3", en.T("no model named: planned with bge-m3, a common open embedding model that reads Korean; name yours (`multilingual-e5-large`, `bge-large-en-v1.5` …) to plan it")
	case imageClassifier(low):
		id, note = "resnet-50", en.T("no model named: planned with resnet-50, the usual image classifier; name yours (`resnet-18`, `vit-base-patch16-224`, `convnext-base-224` …) to plan it")
		if strings.Contains(low, "small") || strings.Contains(low, "작은") || strings.Contains(low, "가벼운") || strings.Contains(low, "tiny") {
			id = "resnet-18"
			note = en.T("no model named: planned with resnet-18, a small image classifier; name yours (`resnet-50`, `vit-base-patch16-224` …) to plan it")
		}
	case strings.Contains(low, "챗봇") || strings.Contains(low, "chatbot") || strings.Contains(low, "chat bot") || strings.Contains(low, "chatgpt") ||
		strings.Contains(low, "챗gpt") || strings.Contains(low, "llm"):
		id, note = "qwen2.5-7b", en.T("no model named: planned with qwen2.5-7b, a common open chat model that reads Korean; name yours (`llama-3.1-8b`, `qwen2.5-14b`, `gemma-2-9b` …) to plan it")
	default:
		return planner.Model{}, false
	}
	m, _, err := p.cat.Model(id)
	if err != nil {
		return planner.Model{}, false
	}
	p.skipped = slices.DeleteFunc(p.skipped, func(w string) bool { return strings.EqualFold(w, "llm") || strings.EqualFold(w, "chatgpt") })
	p.note(note)
	return m, true
}

// imageClassifier reports whether low asks for an image classifier with
// no model named ("a small image classifier", "이미지 분류 모델").
func imageClassifier(low string) bool {
	for _, w := range []string{"image classif", "classify images", "classifying images", "이미지 분류", "이미지분류", "사진 분류", "사진분류"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}
