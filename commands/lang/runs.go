package lang

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// runsSaid finds how many times the job is run ("5번 정도 돌리면", "3회
// 실험", "5 runs of 1 epoch"), said apart from an epoch or a GPU's number
// ("에폭 5번" is five epochs, "3번 GPU" a GPU), cut from the text.
var runsSaid = regexp.MustCompile(`(?i)(^|[\s,])(\d{1,3})\s*(번|회)(\s*(정도|쯤|가량|씩))?($|[\s,?.!])|(^|[\s,])(\d{1,3})\s+(runs|experiments|trials|sweeps)\b`)

// runsNotOf are the words after "N번" that make it a GPU's or a server's
// number, or epochs and steps counted, not runs.
var runsNotOf = []string{"gpu", "카드", "서버", "노드", "node", "에폭", "epoch", "스텝", "step", "장", "째"}

// cutRuns takes the runs said out of a request, so the number is no GPU
// count or amount: the text without them and the count (0 when none).
func cutRuns(text string) (string, int) {
	loc := runsSaid.FindStringSubmatchIndex(text)
	if loc == nil {
		return text, 0
	}
	numAt := 4 // the Korean form's number
	if loc[numAt] < 0 {
		numAt = 16 // the English form's
	}
	before := strings.ToLower(strings.TrimSpace(text[:loc[numAt]]))
	after := strings.ToLower(strings.TrimSpace(text[loc[1]:]))
	if f := strings.Fields(before); len(f) > 0 && (f[len(f)-1] == "에폭" || f[len(f)-1] == "epoch" || f[len(f)-1] == "epochs") && (len(f) < 2 || !reqStartsNumber(f[len(f)-2])) {
		return text, 0 // "에폭 5번": five epochs; "2에폭 3회", "2 epochs 3회": three runs of two
	}
	for _, w := range runsNotOf {
		if strings.HasPrefix(after, w) {
			return text, 0
		}
	}
	n, err := strconv.Atoi(text[loc[numAt]:loc[numAt+1]])
	if err != nil || n < 2 {
		return text, 0
	}
	rest := text[loc[1]:]
	if numAt == 16 {
		// "5 runs of 1 epoch on 50k samples": what each run is
		if t := strings.TrimSpace(rest); strings.HasPrefix(strings.ToLower(t), "of ") {
			rest = t[3:]
		}
	}
	return strings.TrimSpace(text[:loc[0]] + " " + rest), n
}

// applyRuns plans the work of every run said: a job's epochs, steps or
// tokens times the runs (the time and cost of all of them; the memory is
// one run's), or, with no amount to multiply, a note that the figures
// are one run's.
func applyRuns(r *Reading, runs int) {
	if runs < 2 {
		return
	}
	j := &r.Request.Job
	k := float64(runs)
	done := true
	switch {
	case j.Workload == planner.Inference:
		done = false
	case j.Epochs > 0:
		j.Epochs *= k
	case j.Steps > 0:
		j.Steps *= k
	case j.Tokens > 0:
		j.Tokens *= k
	case j.Samples > 0:
		j.Samples *= k
	case j.DatasetSamples > 0 || j.DatasetTokens > 0:
		j.Epochs = k // one epoch a run
	default:
		done = false
	}
	t := en.Tf("%d runs: the figures are one run's; all %d take %d× its time and cost", runs, runs, runs)
	if done {
		t = en.Tf("%d runs: planned as the work of all %d (their time and cost; the memory is one run's)", runs, runs)
	}
	j.Notes = append(j.Notes, t.String())
	r.notes = append(r.notes, t)
}

// amounts are the amounts a request says in words the reader rewrites before
// it reads them: runs ("5번정도"), a corpus in gigabytes, output lengths.
type amounts struct {
	runs   int
	corpus float64 // bytes of text
}

// amountsSaid rewrites them and keeps what applies after the reading.
func amountsSaid(text string) (string, amounts) {
	var s amounts
	text, s.runs = cutRuns(outputLengths(text))
	text, s.corpus = textTokens(text)
	return text, s
}

// apply plans every run said and says how a corpus was counted.
func (s amounts) apply(r *Reading) {
	applyRuns(r, s.runs)
	if s.corpus > 0 {
		t := en.Tf("%s bytes of text read as %s tokens, at %d bytes a token (say the tokens for your tokenizer's count)", Num(s.corpus), Num(s.corpus/bytesPerToken), bytesPerToken)
		r.Request.Job.Notes = append(r.Request.Job.Notes, t.String())
		r.notes = append(r.notes, t)
	}
}
