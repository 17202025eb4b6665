package lang

import (
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

// An encoder fine-tuned or served for a named task, with no length said,
// is planned at the task's reference length (run_glue's 128, run_qa's
// 384); a length said, no task word, or a decoder keeps its own.
func TestEncoderTaskLengths(t *testing.T) {
	cat := planner.DefaultCatalog()
	for text, seq := range map[string]int{
		"bert-base로 문장 분류 파인튜닝 하려는데 데이터 10만개, 3090 4장이면 얼마나 걸려요?": 128,
		"klue/roberta-base 감성분류 fine-tune 5 epochs 20만 문장 on 4x 4090":  128,
		"fine-tune bert-large for sentiment classification on 50k reviews":  128,
		"bert-base 감성분석 모델 서빙 a10 몇 장?":                                   128,
		"bert-large 기계독해 파인튜닝 a100에서 얼마나 걸려?":                            384,
		"bert-base 분류 seq 256 fine-tune on a100":                            256,
		"bert-base fine-tune 10만 샘플 on a100":                                0,
		"llama 3 8b lora 분류 on a100":                                        0,
	} {
		r, err := Read(Env{Catalog: cat}, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if r.Request.Job.SeqLen != seq {
			t.Errorf("%q: seq %d, want %d", text, r.Request.Job.SeqLen, seq)
		}
		if seq == 128 && slices.ContainsFunc(r.Skipped, isClassifyWord) {
			t.Errorf("%q: task word still skipped: %v", text, r.Skipped)
		}
	}
}
