package lang

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/gpuplan/gpuplan/planner"
)

// Server names written in Hangul: a team names its servers in Latin
// letters (alpha, beta, gamma) and says them in Korean (알파, 베타,
// 감마에서). hangulServers writes such a word as the server's own name
// before either reader sees the text. A word matches a server when the
// consonants of its Revised Romanization, after the particle is cut, are
// the consonants of the server's name, both folded the same way (ph is p,
// v is b, r is l, voiced and voiceless alike, doubled ones once): 알파
// (alpa) is alpha, 감마 (gamma) gamma, 데브 (debeu) dev, and an r after
// its vowel is not said (타이거 is tiger); and their first vowels must
// agree, as loanwords write them (아이 is the i of tiger and lion:
// loanVowels). Only a name of letters with two consonants or more is
// matched, only when one server of the team has that key, and never a
// particle glued to the word before it ("H100이랑").

// hangulServerSuffixes are the particles and words a server's name takes
// in Korean, longest first.
var hangulServerSuffixes = []string{"서버에서", "서버로", "서버는", "서버에", "서버", "에서", "에게", "으로", "이랑", "한테", "까지", "부터",
	"에", "은", "는", "이", "가", "을", "를", "로", "의", "랑", "거", "꺼", "도", "만"}

// hangulServers rewrites the Hangul words of text that name one of the
// servers as that server's name, the particle kept after it.
func hangulServers(text string, servers []planner.Hardware) string {
	keys := map[string]string{}
	count := map[string]int{}
	for _, h := range servers {
		name := strings.ToLower(h.Server)
		if strings.ContainsFunc(name, func(r rune) bool { return r < 'a' || r > 'z' }) {
			continue // "dev-3090", "server-h": no Hangul spelling to match
		}
		ck := consonantKey(name)
		ks := []string{firstVowel(name) + ck}
		if v := strings.IndexAny(name, "aeiou"); v >= 0 && (strings.HasPrefix(name[v:], "ea") || strings.HasPrefix(name[v:], "ee")) {
			ks = append(ks, "i"+ck) // eagle is 이글, beetle 비틀
		}
		for _, k := range ks {
			if len(k) >= 3 {
				keys[k] = h.Server
				count[k]++
			}
		}
	}
	if len(keys) == 0 {
		return text
	}
	var b strings.Builder
	rs := []rune(text)
	for i := 0; i < len(rs); {
		if !isHangulSyllable(rs[i]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j := i
		for j < len(rs) && isHangulSyllable(rs[j]) {
			j++
		}
		if i > 0 && (unicode.IsLetter(rs[i-1]) || unicode.IsDigit(rs[i-1])) {
			// "H100이랑", "gpu1에": the particle of the word before it
			b.WriteString(string(rs[i:j]))
		} else {
			w := serverOrWord(string(rs[i:j]), keys, count)
			b.WriteString(w)
			if w != string(rs[i:j]) && j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j])) && !isHangulSyllable(rs[j]) {
				b.WriteByte(' ') // "팔콘a100": the server, then its GPU
			}
		}
		i = j
	}
	return b.String()
}

// serverOrWord is word with its stem written as the server it names, or
// word as it is.
func serverOrWord(word string, keys map[string]string, count map[string]int) string {
	stems := []string{word}
	for _, s := range hangulServerSuffixes {
		if stem, ok := strings.CutSuffix(word, s); ok && stem != "" {
			stems = append(stems, stem)
		}
	}
	for _, stem := range stems {
		if slices.Contains(hangulServerSuffixes, stem) {
			continue // a particle alone ("이랑", "에서") names nothing
		}
		rr := romanize(stem)
		ck := consonantKey(rr)
		for _, v := range loanVowels(rr) {
			if name, ok := keys[v+ck]; ok && count[v+ck] == 1 {
				if rest := strings.TrimPrefix(word, stem); rest != "" {
					return name + " " + rest
				}
				return name
			}
		}
	}
	return word
}

// loanVowels are the Latin vowels a romanized loanword's first vowel may
// have been written with: 아이 (ai) is the i of tiger and lion, 에이 (ei)
// the a of kate, 어 (eo) the u of buster and the e of server (the ea of
// eagle, said 이, is the name's: hangulServers). The 으 (eu) a loanword puts in a cluster (스패로우 for
// sparrow, 스타 for star) is no vowel of the name.
func loanVowels(rr string) []string {
	i := strings.IndexAny(rr, "aeiou")
	for i >= 0 && strings.HasPrefix(rr[i:], "eu") {
		if j := strings.IndexAny(rr[i+2:], "aeiou"); j >= 0 {
			i += 2 + j
		} else {
			break
		}
	}
	if i < 0 {
		return []string{""}
	}
	switch rest := rr[i:]; {
	case strings.HasPrefix(rest, "ai"):
		return []string{"a", "i"}
	case strings.HasPrefix(rest, "ei"):
		return []string{"e", "a"}
	case strings.HasPrefix(rest, "eo"):
		return []string{"e", "u", "o"}
	}
	return []string{rr[i : i+1]}
}

func isHangulSyllable(r rune) bool { return r >= 0xAC00 && r <= 0xD7A3 }

// Revised Romanization of the jamo: initials, medials, finals.
var (
	rrInitial = []string{"g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h"}
	rrMedial  = []string{"a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi", "yu", "eu", "ui", "i"}
	rrFinal   = []string{"", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "p", "l", "l", "p", "l", "m", "p", "p", "t", "t", "ng", "t", "t", "k", "t", "p", "t"}
)

// romanize writes Hangul syllables in Revised Romanization (without its
// rules across syllables, which the consonant key folds away).
func romanize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if !isHangulSyllable(r) {
			b.WriteRune(r)
			continue
		}
		n := int(r - 0xAC00)
		b.WriteString(rrInitial[n/588])
		b.WriteString(rrMedial[(n%588)/28])
		b.WriteString(rrFinal[n%28])
	}
	return b.String()
}

// firstVowel is the first vowel letter of a spelling, "" for none: the
// consonants alone would take 나도 ("nado", me too) for a server "node".
func firstVowel(s string) string {
	if i := strings.IndexAny(strings.ToLower(s), "aeiou"); i >= 0 {
		return s[i : i+1]
	}
	return ""
}

// consonantKey is a spelling's consonants folded so a Latin name and its
// Hangul spelling meet: digraphs to one sound, voiced to voiceless, r to
// l, h and vowels dropped, a doubled consonant once.
func consonantKey(s string) string {
	s = strings.NewReplacer("ph", "p", "th", "t", "sh", "s", "ch", "c", "ck", "k", "ng", "n", "qu", "k", "x", "ks").Replace(strings.ToLower(s))
	fold := map[rune]rune{'f': 'p', 'v': 'p', 'b': 'p', 'g': 'k', 'q': 'k', 'c': 'k', 'd': 't', 'j': 'c', 'z': 'c', 'r': 'l'}
	var out []rune
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) || strings.ContainsRune("aeiouywh", r) {
			continue
		}
		if r == 'r' && (i+1 == len(rs) || !strings.ContainsRune("aeiouy", rs[i+1])) {
			continue // tiger is 타이거, server 서버: an r after its vowel is not said
		}
		if f, ok := fold[r]; ok {
			r = f
		}
		if len(out) > 0 && out[len(out)-1] == r {
			continue
		}
		out = append(out, r)
	}
	return string(out)
}

// serverTypoRE is a Latin word long enough to be a misspelt server name.
var serverTypoRE = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_-]{4,}`)

// misspeltServers writes a word one letter off a server's name ("hoper"
// for hopper) as the name, when only one server is that close, the name
// has five letters or more and the word names nothing else (known: a GPU
// or a model the catalogue has).
func misspeltServers(text string, servers []planner.Hardware, known func(string) bool) string {
	if len(servers) == 0 {
		return text
	}
	return serverTypoRE.ReplaceAllStringFunc(text, func(w string) string {
		low := strings.ToLower(w)
		if strings.ContainsAny(low, "0123456789") {
			return w // "server-v1장": a server and its count glued, not a typo
		}
		match := ""
		for _, h := range servers {
			name := strings.ToLower(h.Server)
			if name == low {
				return w
			}
			if len(name) >= 5 && planner.Levenshtein(low, name) == 1 {
				if match != "" {
					return w // two servers as close: no guess
				}
				match = h.Server
			}
		}
		if match == "" || known != nil && known(low) {
			return w
		}
		return match
	})
}

// knownWord reports whether w names a GPU or a model of the catalogue:
// no server name is guessed for it.
func (e Env) knownWord(w string) bool {
	cat := e.Catalog
	if cat == nil {
		cat = planner.DefaultCatalog()
	}
	if _, _, err := cat.GPU(w); err == nil {
		return true
	}
	_, _, err := cat.Model(w)
	return err == nil
}
