package lang

import (
	"strings"
	"unicode"
)

// questionJoins are the words that open a second question in one message
// ("… on an a100? also how many h100s …", "… 걸려? 그리고 …").
var questionJoins = map[string]bool{"also": true, "plus": true, "additionally": true, "and": true,
	"그리고": true, "또": true, "또한": true, "그리고요": true, "아울러": true}

// Sentences cuts a message at its sentence ends (?, !, a full stop before a
// space, a new line) and drops a joining word that opens the next one
// ("also", "그리고"): the pieces a message that asks two things is asked in.
// A message of one sentence is one piece.
func Sentences(text string) []string {
	var out []string
	start := 0
	flush := func(end int) {
		if s := strings.TrimSpace(text[start:end]); s != "" {
			out = append(out, s)
		}
		start = end
	}
	rs := []rune(text)
	at := 0 // byte offset of rs[k]
	for k, r := range rs {
		at += len(string(r))
		switch {
		case r == '?' || r == '？' || r == '!' || r == '\n' || r == '。':
			flush(at)
		case r == '.' && (k+1 == len(rs) || unicode.IsSpace(rs[k+1])):
			flush(at)
		}
	}
	flush(len(text))
	for i, s := range out {
		if first, rest, ok := strings.Cut(s, " "); ok && i > 0 && questionJoins[strings.ToLower(strings.Trim(first, ",:"))] {
			out[i] = strings.TrimSpace(rest)
			if first, rest, ok := strings.Cut(out[i], " "); ok && strings.EqualFold(first, "also") {
				out[i] = strings.TrimSpace(rest) // "and also …"
			}
		}
	}
	return out
}

// midJoins are the words that open a second question inside one sentence
// ("… 얼마나 걸려 그리고 llama 70b 서빙 h100 몇장", "… on an a100 and also how
// many h100s …"): only these, and "and" alone is not one ("train and
// serve" is one job).
var midJoins = []string{" 그리고 ", " and also ", " also ", " 그리고요 ", " 또한 "}

// JoinedQuestions cuts a one-sentence message at the first word that joins
// a second question to it; nil when there is none.
func JoinedQuestions(text string) []string {
	low := strings.ToLower(text)
	for _, j := range midJoins {
		if i := strings.Index(low, j); i > 0 {
			a, b := strings.TrimSpace(text[:i]), strings.TrimSpace(text[i+len(j):])
			if a != "" && b != "" {
				return []string{a, b}
			}
		}
	}
	return nil
}
