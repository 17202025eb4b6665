package commands

import (
	"context"
	"strings"

	"github.com/gpuplan/gpuplan/commands/lang"
)

// maxQuestions is how many separate questions one message is answered
// for; a longer list is better asked one at a time.
const maxQuestions = 3

// question is one question of a message that asks several: its words,
// and for one that names no plan of its own ("그리고 서빙은 몇장?"), the
// request of the question before it, which it is read with.
type question struct {
	text, earlier string
}

// questionParts cuts a message that does not read as one plan into the
// questions it asks, when each reads as a plan of its own: "how long to
// fine-tune bert-base on an a100? also how many h100s to serve llama 3
// 70b?". A sentence that names no plan of its own is read with the one
// before it ("gemma 2 9b 파인튜닝 얼마나 걸려? 그리고 서빙은 몇장?"), and one
// that does not read even so stays with it. Nil when the message is one
// question.
//
// A message that reads as one plan is cut only when its questions plan
// different models, each with its own question or hardware ("resnet50 on
// 4x a100, how long. and whisper on 1000 hours of audio on an l4"): read
// whole, one model would stand for both.
func questionParts(env lang.Env, text string, readWhole bool) []question {
	// Each candidate is read once: a sentence is tried on its own, with the
	// one before it and again in the check below, and a Hub model id in it
	// can mean a cache lookup on every reading.
	type read1 struct {
		r   lang.Reading
		err error
	}
	seen := map[question]read1{}
	read := func(q question) (lang.Reading, error) {
		if got, ok := seen[q]; ok {
			return got.r, got.err
		}
		var got read1
		if q.earlier != "" {
			got.r, _, got.err = lang.FollowUp(env, q.earlier, q.text)
		} else {
			got.r, got.err = lang.Read(env, q.text)
		}
		seen[q] = got
		return got.r, got.err
	}
	sentences := lang.Sentences(text)
	if len(sentences) == 1 {
		if halves := lang.JoinedQuestions(text); halves != nil {
			sentences = halves // "… 얼마나 걸려 그리고 llama 70b 서빙 h100 몇장"
		}
	}
	var parts []question
	var cur question
	for _, s := range sentences {
		if cur.text != "" && alternativeOnly(env, s) {
			// "… v100 한장에도 올라가나요? 아님 전체 30B 다 올려야 하나요": the
			// other answer to the same question, not a plan of its own
			cur.text = strings.TrimSpace(cur.text + " " + s)
			continue
		}
		if cur.text != "" {
			if rc, err := read(cur); err == nil {
				if _, err := read(question{text: s}); err == nil {
					parts, cur = append(parts, cur), question{text: s}
					continue
				}
				earlier := lang.RequestText(env.Catalog, rc)
				if _, err := read(question{s, earlier}); err == nil && !readWhole {
					parts, cur = append(parts, cur), question{s, earlier}
					continue
				}
			}
		}
		cur.text = strings.TrimSpace(cur.text + " " + s)
	}
	if cur.text != "" {
		parts = append(parts, cur)
	}
	if len(parts) < 2 || len(parts) > maxQuestions {
		return nil
	}
	models := map[string]bool{}
	for _, q := range parts {
		r, err := read(q)
		if err != nil {
			return nil
		}
		if r.StandIn {
			return nil // "… h100이면? bert-large 파인튜닝임": a part that names no model is context for the rest
		}
		models[r.Request.Job.Model.ID] = true
		if readWhole && r.Ask == lang.AskNone && len(r.Request.Targets) == 0 {
			return nil // "… or roberta-base?": an alternative, not a question
		}
	}
	if readWhole && len(models) < len(parts) {
		return nil
	}
	return parts
}

// manyQuestions answers each question of a message that asks several: the
// answers first, one line each, then each plan's card under its question.
// A reply that runs past Slack's block limit is cut at the end, where the
// later cards are; the answers stay.
func manyQuestions(ctx context.Context, s *Set, ureq Request, parts []question) (*Reply, error) {
	p := ureq.printer()
	ureq.oneQuestion = true
	var out *Reply
	var answers, summaries []string
	var also []*PlanData
	for i, part := range parts {
		ureq.Earlier = part.earlier
		r, err := runPlan(ctx, s, ureq, part.text)
		if err != nil {
			return nil, err
		}
		answers = append(answers, p.Tf("%d. %s — %s", i+1, r.ReadAs, r.Summary))
		summaries = append(summaries, p.Tf("%d) %s", i+1, r.Summary))
		if i == 0 {
			out = r
			continue
		}
		head := Section{Heading: p.Tf("Question %d: %s", i+1, r.ReadAs), Text: r.Summary}
		out.Sections = append(append(out.Sections, head), r.Sections...)
		if d, ok := r.Data.(*PlanData); ok {
			also = append(also, d)
		}
	}
	out.Summary = strings.Join(summaries, " ")
	out.Sections = append([]Section{{Heading: p.Tf("%d questions in one message: each is answered below", len(parts)), Bullets: answers}}, out.Sections...)
	if d, ok := out.Data.(*PlanData); ok {
		d.Also = also
	}
	return out, nil
}

// statusBeside answers a message that asks after the servers in one
// sentence and plans a job in another ("server-h 비어있어? qwen 72b lora
// 하려는데 4장 다 필요함?"): the plan, read from the whole message so the
// server named stays its hardware, with the servers' status ahead of the
// card. False when no sentence asks the status or the rest plans nothing.
func (s *Set) statusBeside(ctx context.Context, ureq Request, text string) (*Reply, bool) {
	sentences := lang.Sentences(text)
	if len(sentences) < 2 || len(sentences) > maxQuestions {
		return nil, false
	}
	for i, sent := range sentences {
		cr, ok := lang.ReadCommand(s.planEnv(), sent)
		if !ok || cr.Name != "status" {
			continue
		}
		planText := text
		if _, err := lang.Read(s.planEnv(), text); err != nil {
			planText = strings.Join(append(append([]string(nil), sentences[:i]...), sentences[i+1:]...), " ")
		}
		plan, err := s.index["plan"].run(ctx, s, ureq, planText)
		if err != nil {
			return nil, false
		}
		st, err := s.index["status"].run(ctx, s, ureq, cr.Args)
		if err != nil {
			return nil, false
		}
		head := Section{Heading: st.Title, Text: st.Summary}
		plan.Sections = append(append([]Section{head}, st.Sections...), plan.Sections...)
		plan.Summary = st.Summary + " · " + plan.Summary
		return plan, true
	}
	return nil, false
}

// alternativeOnly reports whether sentence s offers the other answer to
// the question before it ("아님 전체 30B 다 올려야 하나요?", "or do I need
// all of it?"): it opens with "or" and names no GPU of its own ("아니면
// h100 1장?" asks about other hardware, a question of its own).
func alternativeOnly(env lang.Env, s string) bool {
	f := strings.Fields(strings.ToLower(s))
	if len(f) < 2 {
		return false
	}
	switch f[0] {
	case "아님", "아니면", "혹은", "또는", "or":
	default:
		return false
	}
	for _, w := range f[1:] {
		w = strings.Trim(w, "?.,!")
		if env.Catalog != nil && env.Catalog.IsGPUName(w) {
			return false
		}
	}
	return true
}
