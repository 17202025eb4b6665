package lang

import (
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// Task lengths: the sequence an encoder is fine-tuned or served at for its
// task, as the reference scripts set it when the user gives none.
// Hugging Face's text-classification example (run_glue.py) pads and
// truncates to max_seq_length 128 by default; its question-answering
// example (run_qa.py) cuts contexts into 384-token windows (doc_stride
// 128), as BERT's SQuAD recipe does. A planner default of the encoder's
// whole 512 positions planned a sentence classifier four times the work.
const (
	classifySeq = 128
	qaSeq       = 384
)

// encoderTask names the task an encoder request words, "" when none:
// "classify" for sequence classification ("감성분류", "sentiment",
// "문장 분류", "intent"), "qa" for extractive question answering
// ("squad", "질의응답", "기계독해", "mrc").
func encoderTask(c *canonizer) string {
	task := ""
	for _, t := range c.in {
		w := strings.ToLower(t.w)
		switch {
		case isQAWord(w):
			return "qa"
		case isClassifyWord(w):
			task = "classify"
		}
	}
	return task
}

func isClassifyWord(w string) bool {
	for _, p := range []string{"classif", "sentiment", "intent", "nli", "glue", "spam"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	// "분류", "감성분류", "문장분류를", "분류기"; "감성분석", "감정분석"
	return strings.Contains(w, "분류") || strings.HasPrefix(w, "감성") || strings.HasPrefix(w, "감정분") || strings.HasPrefix(w, "스팸") || strings.HasPrefix(w, "의도")
}

func isQAWord(w string) bool {
	return strings.HasPrefix(w, "squad") || strings.HasPrefix(w, "korquad") || w == "qa" || w == "mrc" ||
		strings.HasPrefix(w, "질의응답") || strings.HasPrefix(w, "기계독해") || strings.HasPrefix(w, "question-answer")
}

// taskSeq plans an encoder fine-tuned or served for a named task, with no
// length said, at that task's reference length, and says so; the words
// read here leave the skipped list.
func taskSeq(r *Reading, p *reqParser, c *canonizer) {
	j := &r.Request.Job
	if j.Model.Kind != planner.Encoder || j.SeqLen > 0 || AssumedWorkload(*j) == planner.Pretrain {
		return
	}
	switch encoderTask(c) {
	case "classify":
		j.SeqLen = classifySeq
		p.note(en.Tf("text classification with no length said: %d tokens a sequence, the default max_seq_length of Hugging Face's run_glue.py (say `seq N` for longer texts)", classifySeq))
	case "qa":
		j.SeqLen = qaSeq
		p.note(en.Tf("question answering with no length said: %d-token windows over each context, as Hugging Face's run_qa.py and BERT's SQuAD recipe cut them (say `seq N` for others)", qaSeq))
	default:
		return
	}
	r.notes, j.Notes = p.notes, p.req.Job.Notes
	r.Skipped = slices.DeleteFunc(r.Skipped, func(s string) bool {
		w := strings.ToLower(s)
		return isClassifyWord(w) || isQAWord(w) || strings.HasPrefix(w, "문장") || w == "sentence" || w == "sentences" // read here
	})
}
