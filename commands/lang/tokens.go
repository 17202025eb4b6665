package lang

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ---------------------------------------------------------------------------
// Normalising and scanning

// reqNormalize maps what chat clients and shells deliver onto plain ASCII
// punctuation: unicode spaces become spaces, unicode dashes '-', '×' 'x';
// quotes (smart or not), brackets and sentence punctuation are noise and
// become spaces; Slack's HTML escapes are undone; invalid UTF-8 becomes
// U+FFFD. A '*' between two letters or digits ("h100*2") is a count 'x';
// elsewhere it is Slack bold and is dropped.
// reqSizeRange is a range of model sizes written with a tilde ("7B~13B").
var (
	reqHubModelURL   = regexp.MustCompile(`(?i)\bhttps?://(?:www\.)?(?:huggingface\.co|hf\.co)/(?:models/)?([\w.-]+/[\w.-]+)(?:[/?#][^\s()<>|]*)?`)
	reqHubDatasetURL = regexp.MustCompile(`(?i)\bhttps?://(?:www\.)?(?:huggingface\.co|hf\.co)/datasets/[\w.-]+/([\w.-]+)(?:[/?#][^\s()<>|]*)?`)
)

var reqSizeRange = regexp.MustCompile(`(?i)\b(\d+(?:\.\d+)?[bm])\s*~\s*(\d+(?:\.\d+)?[bm])\b`)

func reqNormalize(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">").Replace(s)
	// "we're at 12h/epoch", "it's", "can't": a contraction's tail is no
	// word of its own ("re" was read as a model's name); "n't" is "not"
	s = reqNegations.Replace(s)
	// a pasted Hub link names the model (or dataset) by its id:
	// "https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/tree/main" is
	// "Qwen/Qwen2.5-7B-Instruct"
	s = reqHubDatasetURL.ReplaceAllString(s, "$1")
	s = reqHubModelURL.ReplaceAllStringFunc(s, func(m string) string {
		id := reqHubModelURL.FindStringSubmatch(m)[1]
		switch org, _, _ := strings.Cut(strings.ToLower(id), "/"); org {
		case "spaces", "docs", "blog", "papers", "collections", "settings", "learn", "organizations", "posts", "tasks":
			return "" // a page of the Hub, not a model
		}
		return id
	})
	// "1) h200 몇장 2) 한달 비용", "(a) fits? (b) hours?": a list's markers
	// number the questions, not GPUs or amounts
	s = listMarkers(s)
	s = reqPerPeriod.ReplaceAllStringFunc(s, func(m string) string {
		// "$2k/month", "cost/mo": a sum per month, as "$2k per month" reads
		sum, period, _ := strings.Cut(m, "/")
		switch strings.ToLower(period) {
		case "mo", "month":
			period = "month"
		case "wk", "week":
			period = "week"
		}
		return sum + " per " + period
	})
	// "7B~13B": a range of model sizes, not "about 13B"
	s = reqSizeRange.ReplaceAllString(s, "$1 to $2")
	s = reqContractions.ReplaceAllStringFunc(s, func(m string) string {
		return m[:strings.IndexAny(m, "'’")]
	})
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' || r == '\ufeff' || r == '\u00ad':
			// zero-width characters and soft hyphens vanish
		case unicode.IsSpace(r) || unicode.Is(unicode.Zs, r) || unicode.IsControl(r):
			b.WriteByte(' ')
		case strings.ContainsRune("→⇒➡👉;", r):
			b.WriteString(" , ") // "3ep 5만 → 시간?": an arrow separates phrases, as a semicolon does clauses
		case strings.ContainsRune("\"'`‘’‚‛′“”„‟″«»()[]{}!?|~≈🤔🙏😅😭ㅠㅜ", r):
			b.WriteByte(' ')
		case strings.ContainsRune("‐‑‒–—―−", r):
			b.WriteByte('-')
		case r == '×' || r == '✕' || r == '✖':
			b.WriteByte('x')
		case r == '＝':
			b.WriteByte('=')
		default:
			b.WriteRune(r)
		}
	}
	out := []byte(b.String())
	for i, c := range out {
		if c == '*' {
			if i > 0 && i+1 < len(out) && reqIsAlnum(out[i-1]) && reqIsAlnum(out[i+1]) {
				out[i] = 'x'
			} else if !(i+1 < len(out) && out[i+1] == ' ' && i > 0 && out[i-1] == ' ') {
				out[i] = ' ' // Slack bold; a lone " * " stays a count marker
			}
		}
	}
	return strings.TrimSpace(string(out))
}

// reqPerPeriod is a sum said per month, week or day in one word
// ("$2k/month", "$500/wk").
var reqPerPeriod = regexp.MustCompile(`(?i)(\$[\d.,]+[km]?|\bcost|\bprice)/(month|mo|week|wk|day)\b`)

// reqListMarker is a list item's marker: "1)", "(2)", "a)", "(b)" after a
// space or at the start.
var reqListMarker = regexp.MustCompile(`(^|[\s,;/])(\(?(?:\d{1,2}|[a-zA-Z])\))(\s|$)`)

// unbracket narrows the word s[start:end] to what its brackets hold, and
// drops underscores around it and a full stop after it:
// "(데이터 2만5천 개, 에폭 5)", "[lora]" group words for the eye, and the
// words inside are read as words; "f(x)" keeps its own.
func unbracket(s string, start, end int) (int, int) {
	for start < end && s[start] == '_' {
		start++
	}
	for end > start && (s[end-1] == '_' || s[end-1] == '.') {
		end--
	}
	for start < end && (s[start] == '(' || s[start] == '[') {
		start++
	}
	for end > start && (s[end-1] == ')' || s[end-1] == ']') && !strings.Contains(s[start:end-1], "(") {
		end--
	}
	return start, end
}

// listMarkers replaces each list marker of s with a separator. "5)" that
// closes a parenthesis opened before it ("(데이터 2만5천 개, 에폭 5)",
// "(epochs 5)") is a value and its bracket, not a marker.
func listMarkers(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range reqListMarker.FindAllStringSubmatchIndex(s, -1) {
		marker := s[m[4]:m[5]]
		if !strings.HasPrefix(marker, "(") && strings.Count(s[:m[4]], "(") > strings.Count(s[:m[4]], ")") {
			continue // it closes an open bracket
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(s[m[2]:m[3]] + " , " + s[m[6]:m[7]])
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// reqStripLead drops what precedes the request proper: Slack mention tokens
// ("<@U123ABC>") and a leading command word ("gpuplan", "/gpuplan", "plan").
func reqStripLead(s string) string {
	for {
		s = strings.TrimLeft(s, " ")
		if strings.HasPrefix(s, "<@") || strings.HasPrefix(s, "<!") {
			if j := strings.IndexByte(s, '>'); j > 0 {
				s = s[j+1:]
				continue
			}
		}
		w, rest, _ := strings.Cut(s, " ")
		switch strings.TrimRight(strings.ToLower(w), ",:") {
		case "plan", "gpuplan", "/gpuplan", "@gpuplan":
			s = rest
			continue
		}
		return s
	}
}

// reqToken is one word of a request.
type reqToken struct {
	raw        string // as typed (after normalising)
	w          string // lower case
	start, end int    // byte span in reqParser.text
}

// reqTokenize cuts normalised text into words. ',' and '=' (and ':') are
// tokens of their own, except for a digit-grouping comma ("2,464,256").
// Decoration around a word (Slack's _italic_, a sentence's final '.') is
// dropped. A key fused with its number ("r16", "seq512", "bs32") becomes
// two tokens.
func reqTokenize(s string) []reqToken {
	var toks []reqToken
	var add func(start, end int)
	add = func(start, end int) {
		start, end = unbracket(s, start, end)
		if start >= end {
			return
		}
		if a, b, ok := strings.Cut(strings.ToLower(s[start:end]), "/"); ok && weighedWord(a) && weighedWord(b) {
			add(start, start+len(a)) // "quality/memory": two words
			add(start+len(a)+1, end)
			return
		}
		if slashList(s, start, end) {
			forSlashParts(s, start, end, add, func(at int) { toks = append(toks, reqToken{raw: ",", w: ",", start: at, end: at + 1}) })
			return
		}
		if k := hangulBoundary(s[start:end]); k > 0 {
			// "server-v에서", "8장으로", "qlora로": Korean particles and
			// counters glued to a Latin or digit word are words of their own.
			add(start, start+k)
			add(start+k, end)
			return
		}
		raw := s[start:end]
		w := strings.ToLower(raw)
		if strings.Contains(w, "_") && !strings.Contains(w, "/") {
			// "max_length", "per_device_train_batch_size": a trainer's
			// argument names, read as the language's hyphenated words (a
			// Hub id keeps its own spelling)
			w = strings.ReplaceAll(w, "_", "-")
		}
		t := reqToken{raw: raw, w: w, start: start, end: end}
		if k, v, ok := reqSplitFused(t.w); ok && reqIsASCII(raw) {
			toks = append(toks,
				reqToken{raw: raw[:len(k)], w: k, start: start, end: start + len(k)},
				reqToken{raw: raw[len(raw)-len(v):], w: v, start: end - len(v), end: end})
			return
		}
		toks = append(toks, t)
	}
	i := 0
	for i < len(s) {
		switch c := s[i]; c {
		case ' ':
			i++
			continue
		case ',', '=', ':':
			w := string(c)
			if c == ':' {
				w = "="
			}
			toks = append(toks, reqToken{raw: string(c), w: w, start: i, end: i + 1})
			i++
			continue
		}
		j := i
		for j < len(s) {
			c := s[j]
			if c == ' ' || c == '=' || c == ':' {
				break
			}
			if c == '@' && j > i && j+1 < len(s) && reqIsAlnum(s[j-1]) && reqIsAlnum(s[j+1]) {
				break // "mistral7b@bf16": the model at a precision
			}
			if c == ',' && !reqGroupComma(s, j) {
				break
			}
			j++
		}
		add(i, j)
		i = j
		if i < len(s) && s[i] == '@' {
			i++
		}
	}
	return toks
}

// forSlashParts reads a slash-separated list ("llama8b/lora/5만/3ep/
// a100x2/"): each part as a word, a separator between parts, except
// between a family and its size ("라마/8b"). One slash inside a word
// stays ("tok/s", "org/name"): see slashList.
func forSlashParts(s string, start, end int, part func(a, b int), sep func(at int)) {
	for k := start; k < end; {
		e := strings.IndexByte(s[k:end], '/')
		if e < 0 {
			e = end - k
		}
		part(k, k+e)
		if k+e < end && !familyThenSize(s[k:k+e], s[k+e+1:end]) {
			sep(k + e)
		}
		k += e + 1
	}
}

// slashList reports whether s[start:end] is a slash-separated list: two
// slashes or more, or one at an edge facing a space ("vllm/"), and no
// rate's units.
func slashList(s string, start, end int) bool {
	part := s[start:end]
	edge := end-start > 1 && (s[start] == '/' && (start == 0 || s[start-1] == ' ') || s[end-1] == '/' && (end == len(s) || s[end] == ' '))
	return (strings.Count(part, "/") >= 2 || edge) && !perUnitPath(part)
}

// perUnitPath reports a rate's units ("tokens/s/gpu", "img/s/gpu"): a
// unit of time or a per-GPU share right after a counted thing or another
// such unit.
func perUnitPath(part string) bool {
	pieces := strings.Split(strings.ToLower(part), "/")
	per := func(p string) bool {
		switch p {
		case "s", "sec", "secs", "second", "h", "hr", "hour", "min", "d", "day", "gpu", "step", "it", "epoch", "ep", "node", "user", "초", "시간", "gpu당":
			return true
		}
		return false
	}
	for k := 1; k < len(pieces); k++ {
		prev := strings.TrimLeft(pieces[k-1], "0123456789.,")
		if per(pieces[k]) && (per(prev) || reqUnitClass(prev) > reqUUnknown || prev == "tok" || prev == "img" || prev == "req" || prev == "토큰") {
			return true
		}
	}
	return false
}

// familyThenSize reports a slash list's family word followed by the
// model's size ("라마/8b/…"): one model, not two phrases.
func familyThenSize(left, rest string) bool {
	right, _, _ := strings.Cut(rest, "/")
	if left == "" || strings.ContainsAny(left, "0123456789") {
		return false
	}
	_, ok := paramSize(strings.ToLower(right))
	return ok
}

func reqIsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// reqGroupComma reports whether the comma at s[j] groups digits: a digit
// before it and exactly three after it.
func reqGroupComma(s string, j int) bool {
	if j == 0 || j+4 > len(s) || !reqIsDigit(s[j-1]) {
		return false
	}
	for k := j + 1; k <= j+3; k++ {
		if !reqIsDigit(s[k]) {
			return false
		}
	}
	return j+4 == len(s) || !reqIsDigit(s[j+4])
}

// reqSplitFused splits "r16", "seq512", "bs32", "lora-r16" into a key word
// and its number.
func reqSplitFused(w string) (key, val string, ok bool) {
	if _, known := reqKeywords[w]; known || w == "r1" {
		// "r1" is DeepSeek-R1 far more often than a LoRA rank of 1
		return "", "", false
	}
	i := 0
	for i < len(w) && (w[i] >= 'a' && w[i] <= 'z' || w[i] == '-') {
		i++
	}
	if i == 0 || i == len(w) || !reqIsDigit(w[i]) {
		return "", "", false
	}
	k := strings.TrimRight(w[:i], "-")
	if kw, ok := reqKeywords[k]; !ok || kw.kind != reqKwKey {
		return "", "", false
	}
	// "seq512", "r16", "bs32k": the rest is one number; "r1-distill-…" is a name
	if _, unit, ok := reqScanNumber(w[i:]); !ok || unit != "" {
		return "", "", false
	}
	return k, w[i:], true
}

func reqIsDigit(c byte) bool { return c >= '0' && c <= '9' }
func reqIsAlnum(c byte) bool {
	return reqIsDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// isHangul reports whether r is a Hangul syllable or jamo.
func isHangul(r rune) bool { return unicode.Is(unicode.Hangul, r) }

// hangulBoundary is the byte offset of the first change between Hangul and
// other letters or digits in w (0: none). Punctuation does not count as a
// change, so "server-v" stays whole.
func hangulBoundary(w string) int {
	first := true
	var prev bool
	for i, r := range w {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			continue
		}
		h := isHangul(r)
		if !first && h != prev {
			return i
		}
		first, prev = false, h
	}
	return 0
}

// reqContractions are English contractions: a letter, an apostrophe and
// re, ll, ve, m, d or s.
var reqContractions = regexp.MustCompile(`(?i)[a-z]['’](?:re|ll|ve|m|d|s)\b`)

// reqNegations spell out "n't".
var reqNegations = strings.NewReplacer("can't", "can not", "can’t", "can not", "won't", "will not", "won’t", "will not",
	"n't", " not", "n’t", " not", "N'T", " NOT")
