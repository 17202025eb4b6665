package lang

import "strings"

// FollowUp reads text as a follow-up to an earlier request in the same
// conversation ("what about on 4x h100?", "그럼 bf16으로 하면?", "비용은?"
// under a plan): the earlier request's words (RequestText) and then the
// new ones, the new ones said last so they win where the language lets
// the last word win (a second GPU is a comparison, a second format the
// one planned). Where the two clash (`lora` then `qlora`, one dataset
// then another), the earlier part the new words replace is left out: each
// of the earlier parts in turn, the first reading that succeeds. It
// returns the reading and the text read, or the error of the whole.
func FollowUp(env Env, earlier, text string) (Reading, string, error) {
	joined := earlier + " " + text
	r, err := Read(env, joined)
	if err == nil {
		return r, joined, nil
	}
	parts := strings.Split(earlier, " · ")
	for k := 1; k < len(parts); k++ { // the model, first, always stays
		rest := append(append([]string{}, parts[:k]...), parts[k+1:]...)
		try := strings.Join(rest, " · ") + " " + text
		if r, e := Read(env, try); e == nil {
			return r, try, nil
		}
	}
	return Reading{}, "", err
}
