package lang

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/planner"
)

// Server names written in Hangul: a team names its servers in Latin
// letters (alpha, beta, gamma) and says them in Korean (알파, 베타,
// 감마에서). hangulServers writes such a word as the server's own name
// before either reader sees the text. A word matches a server when, after
// the particle is cut, three things agree between its Revised
// Romanization and the name (hangulKey, nameKeys):
//   - the first sound, as loanwords write it: a voiceless p, t, k is ㅍ,
//     ㅌ, ㅋ and a voiced b, d, g is ㅂ, ㄷ, ㄱ, so 같은 (alike) is no cat
//     (캣) and 그대로 no gamma-like name; a vowel, w or y start is ㅇ;
//   - the first vowel, as loanwords write it: 아이 is the i of tiger and
//     lion, 이 the ea of eagle, 어 the u of buster and the er of server,
//     never the e of beta (so 버트, BERT, is no beta); the 으 a cluster
//     takes (스패로우, sparrow) is no vowel of the name;
//   - the consonants, folded (ph is p, v is b, r is l, voiced and
//     voiceless alike, doubled ones once, an r after its vowel not said:
//     타이거 is tiger).
// Only a name with a consonant and a stem of two syllables or more are
// matched (오크 is oak), only when one server of the team has that key, and
// never a particle glued to the word before it ("H100이랑").

// hangulServerSuffixes are the particles and words a server's name takes
// in Korean, longest first.
var hangulServerSuffixes = []string{"서버에서", "서버로", "서버는", "서버에", "서버", "에서", "에게", "으로", "이랑", "한테", "까지", "부터",
	"에", "은", "는", "이", "가", "을", "를", "로", "의", "랑", "거", "꺼", "도", "만"}

// hangulServers rewrites the Hangul words of text that name one of the
// servers as that server's name, the particle kept after it.
func hangulServers(text string, servers []planner.Hardware) string {
	text = numberedServers(phrasalVerbs(text, servers), servers)
	keys := map[string]string{}
	count := map[string]int{}
	for _, h := range servers {
		name := strings.ToLower(h.Server)
		if strings.ContainsFunc(name, func(r rune) bool { return r < 'a' || r > 'z' }) {
			continue // "dev-3090", "server-h": no Hangul spelling to match
		}
		if consonantKey(name) == "" {
			continue
		}
		for _, k := range nameKeys(name) {
			keys[k] = h.Server
			count[k]++
		}
	}
	exact := map[string]string{}
	for _, h := range servers {
		exact[strings.ToLower(h.Server)] = h.Server
	}
	if len(keys) == 0 && len(exact) == 0 {
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
			if w == string(rs[i:j]) {
				// "셋에 2장", "둘 서버": a name of one syllable, or a number word
				w = shortServer(w, exact, string(rs[:i]), string(rs[j:]))
			}
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
		if _, num := koNumbers[stem]; slices.Contains(hangulServerSuffixes, stem) || utf8.RuneCountInString(stem) < 2 || num {
			continue // a particle alone ("이랑") or one syllable (같은's 같) names nothing; a number word is shortServer's
		}
		k := hangulKey(stem)
		if name, ok := keys[k]; ok && count[k] == 1 {
			if rest := strings.TrimPrefix(word, stem); rest != "" {
				return name + " " + rest
			}
			return name
		}
	}
	return word
}

// phrasalParticle follows an English verb a server may be named like:
// "set aside", "set up", "run out".
var phrasalParticle = regexp.MustCompile(`^\s+(aside|up|off|out|down|back)\b`)

// phrasalVerbs drops a server's name where it is an English verb with its
// particle ("how many GPUs should we set aside" with a server named set):
// the particle stays, the verb reads as no server.
func phrasalVerbs(text string, servers []planner.Hardware) string {
	low := strings.ToLower(text)
	for _, h := range servers {
		name := strings.ToLower(h.Server)
		for at := 0; ; {
			k := strings.Index(low[at:], name)
			if k < 0 {
				break
			}
			k += at
			end := k + len(name)
			at = end
			if k > 0 && isWordByte(low[k-1]) || end < len(low) && isWordByte(low[end]) || !phrasalParticle.MatchString(low[end:]) {
				continue
			}
			text, low = text[:k]+text[end:], low[:k]+low[end:]
			at = k
		}
	}
	return text
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '-' || b == '_'
}

// numberedServer is a server said by its number ("2번 서버", "서버 2번",
// "1호기", "server #2").
var numberedServer = regexp.MustCompile(`(\d+)\s*번\s*서버|서버\s*(\d+)\s*번|(\d+)\s*호기|(?i)\bserver\s*#\s*(\d+)|(?i)\bserver\s+(\d+)\b`)

// numberedServers writes a server said by its number as the one server
// whose name ends in that number (gpu1, node-2, srv03), the particle kept;
// with none or several, the words stay.
func numberedServers(text string, servers []planner.Hardware) string {
	byNumber := map[int][]string{}
	for _, h := range servers {
		name := h.Server
		k := len(name)
		for k > 0 && name[k-1] >= '0' && name[k-1] <= '9' {
			k--
		}
		if n, err := strconv.Atoi(name[k:]); err == nil && k < len(name) {
			byNumber[n] = append(byNumber[n], name)
		}
	}
	if len(byNumber) == 0 {
		return text
	}
	return numberedServer.ReplaceAllStringFunc(text, func(m string) string {
		for _, g := range numberedServer.FindStringSubmatch(m)[1:] {
			if n, err := strconv.Atoi(g); err == nil && len(byNumber[n]) == 1 {
				return byNumber[n][0]
			}
		}
		return m
	})
}

// shortSuffixes are the particles that put a short word in a server's
// place ("셋에", "둘에서", "셋은"); "하나만", "셋이", "둘도" count.
var shortSuffixes = []string{"서버에서", "서버로", "서버는", "서버에", "서버", "에서", "으로", "로", "에", "은", "는", "의", "까지", "부터"}

// shortServer is word written as a server whose name its Revised
// Romanization spells exactly, when the word is of one syllable or a
// number word (셋 is set, 둘 dul, 하나 hana) and stands where a server
// does: with a server's particle ("셋에"), or before 서버, 예약, 누가 or
// a count ("셋 2장"), and not after a GPU or a number ("GPU 하나만",
// "3090 둘"). Else word as it is.
func shortServer(word string, exact map[string]string, before, after string) string {
	stem, rest := word, ""
	for _, sfx := range shortSuffixes {
		if st, ok := strings.CutSuffix(word, sfx); ok && st != "" {
			stem, rest = st, sfx
			break
		}
	}
	if _, num := koNumbers[stem]; utf8.RuneCountInString(stem) > 1 && !num {
		return word // a longer word is the loanword matcher's
	}
	name, ok := exact[romanize(stem)]
	if !ok {
		return word
	}
	prev := strings.Fields(strings.ToLower(before))
	if len(prev) > 0 {
		p := prev[len(prev)-1]
		if strings.HasPrefix(p, "gpu") || strings.HasSuffix(p, "장") || p[len(p)-1] >= '0' && p[len(p)-1] <= '9' {
			return word // "GPU 하나만", "3090 둘"
		}
	}
	next := strings.TrimSpace(after)
	placed := rest != "" || len(next) > 0 && next[0] >= '0' && next[0] <= '9' && strings.ContainsAny(strings.Fields(next)[0], "장개대시분일")
	for _, cue := range []string{"서버", "예약", "누가", "자리", "몇", "지금", "오늘", "내일", "모레", "이번", "다음", "주말", "오전", "오후", "저녁", "밤", "아침"} {
		placed = placed || strings.HasPrefix(next, cue) // "솔 지금부터 3시간 2장", "솔 자리 나면"
	}
	if !placed {
		return word
	}
	if rest != "" {
		return name + " " + rest
	}
	return name
}

// hangulKey is a Hangul stem's key: its first sound, its first vowel
// (아이 and 에이 as one, a cluster's 으 passed over) and its consonants.
func hangulKey(stem string) string {
	rs := []rune(stem)
	first := ""
	vowel := ""
	for k, r := range rs {
		if !isHangulSyllable(r) {
			return ""
		}
		n := int(r - 0xAC00)
		if k == 0 {
			first = hangulFirstSound[n/588]
		}
		v := rrMedial[(n%588)/28]
		if v == "eu" && k+1 < len(rs) {
			continue // 스패로우: the 으 of a cluster
		}
		if (v == "a" || v == "e") && k+1 < len(rs) && diphthongEnd(rs[k+1], "i") {
			v += "i" // 타이거, 케이트, 파인
		}
		vowel = v
		break
	}
	// syllables apart, so 는게's n and g are no "ng"
	syl := make([]string, len(rs))
	for k, r := range rs {
		syl[k] = romanize(string(r))
	}
	return first + "|" + vowel + "|" + strconv.Itoa(hangulVowels(rs)) + "|" + consonantKey(strings.Join(syl, "'"))
}

// diphthongEnd reports whether r is a syllable with no first consonant
// and the vowel v (이, 인, 우, 운 …): after a vowel it ends a diphthong,
// as 파인 is pine and 타이거 tiger.
func diphthongEnd(r rune, v string) bool {
	if !isHangulSyllable(r) {
		return false
	}
	n := int(r - 0xAC00)
	return n/588 == 11 && rrMedial[(n%588)/28] == v
}

// hangulVowels counts a stem's vowels after its first: 으 (a cluster's or
// a final consonant's) is none, and 이 or 우 after a vowel ends a diphthong
// (타이거, 스패로우). 이걸 (this) has one where eagle (이글) has none.
func hangulVowels(rs []rune) int {
	n := 0
	for k, r := range rs {
		v := rrMedial[(int(r-0xAC00)%588)/28]
		if v == "eu" || k > 0 && (diphthongEnd(r, "i") || diphthongEnd(r, "u")) {
			continue
		}
		n++
	}
	return max(0, n-1)
}

// vowelDigraphs are two vowel letters English says as one sound.
var vowelDigraphs = []string{"ai", "au", "ea", "ee", "ei", "eu", "ie", "oa", "oe", "oi", "oo", "ou", "ue", "ui"}

// nameVowels counts a Latin name's vowels after its first, as syllables:
// two vowels that spell one sound (ea, ai, ou …) are one, others two (li-
// on); a final y after a consonant is one (ruby), a final silent e none
// (node, eagle) unless after r (ampere, 암페어).
func nameVowels(name string) int {
	n := 0
	for i := 0; i < len(name); i++ {
		vowel := strings.IndexByte("aeiou", name[i]) >= 0 || name[i] == 'y' && i == len(name)-1 && i > 0
		if !vowel || i > 0 && strings.IndexByte("aeiou", name[i-1]) >= 0 && slices.Contains(vowelDigraphs, name[i-1:i+1]) {
			continue
		}
		if name[i] == 'e' && i == len(name)-1 && i > 0 && name[i-1] != 'r' && n > 0 {
			continue
		}
		n++
	}
	return max(0, n-1)
}

// hangulFirstSound is the class of each initial jamo as hangulKey and
// nameKeys compare it: plain and aspirated apart, tense with aspirated.
var hangulFirstSound = []string{"g", "k", "n", "d", "t", "l", "m", "b", "p", "s", "s", "^", "j", "j", "j", "k", "t", "p", "h"}

// nameKeys are the keys a Latin server name is said with in Hangul: each
// way a loanword writes its first sound and its first vowel, with its
// consonants.
func nameKeys(name string) []string {
	var firsts []string
	switch c, rest := name[0], name[1:]; {
	case strings.ContainsRune("aeiouwy", rune(c)):
		firsts = []string{"^"}
	case strings.HasPrefix(name, "ch"):
		firsts = []string{"j"}
	case strings.HasPrefix(name, "sh"):
		firsts = []string{"s"}
	case strings.HasPrefix(name, "ph") || c == 'f':
		firsts = []string{"p"}
	case strings.HasPrefix(name, "th"):
		firsts = []string{"s", "t"}
	case c == 'c' && rest != "" && strings.ContainsRune("eiy", rune(rest[0])):
		firsts = []string{"s"}
	case c == 'c' || c == 'k' || c == 'q':
		firsts = []string{"k"}
	case c == 'g' && rest != "" && strings.ContainsRune("ei", rune(rest[0])):
		firsts = []string{"g", "j"}
	case c == 'v':
		firsts = []string{"b"}
	case c == 'z' || c == 'j' || c == 'x':
		firsts = []string{"j"}
	case c == 'r':
		firsts = []string{"l"}
	default:
		firsts = []string{string(c)}
	}
	var vowels []string
	if v := strings.IndexAny(name, "aeiou"); v >= 0 {
		group := name[v:]
		end := strings.IndexFunc(group, func(r rune) bool { return !strings.ContainsRune("aeiou", r) })
		after := byte(0)
		if end > 0 {
			after = group[end]
		}
		r := after == 'r'
		switch {
		case strings.HasPrefix(group, "ea") || strings.HasPrefix(group, "ee"):
			vowels = []string{"i", "e"} // eagle 이글
		case group[0] == 'a':
			vowels = []string{"a", "ae", "ei"} // alpha 알파, cat 캣, kate 케이트
		case group[0] == 'e' && r:
			vowels = []string{"eo", "e"} // server 서버
		case group[0] == 'e':
			vowels = []string{"e"}
		case group[0] == 'i' && r:
			vowels = []string{"eo", "i"} // bird 버드
		case group[0] == 'i':
			vowels = []string{"i", "ai"} // tiger 타이거, lion 라이언
		case group[0] == 'o':
			vowels = []string{"o"}
		case group[0] == 'u':
			vowels = []string{"eo", "u", "yu"} // buster 버스터, unity 유니티
		}
	}
	counts := []int{nameVowels(name)}
	for _, d := range []string{"oa", "oe", "ue", "ui"} {
		if strings.Contains(name, d) {
			counts = append(counts, counts[0]+1) // koala 코알라, noel 노엘: two syllables as loanwords write them
			break
		}
	}
	var keys []string
	for _, f := range firsts {
		for _, v := range vowels {
			for _, n := range counts {
				keys = append(keys, f+"|"+v+"|"+strconv.Itoa(n)+"|"+consonantKey(name))
			}
		}
	}
	return keys
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

// consonantKey is a spelling's consonants folded so a Latin name and its
// Hangul spelling meet: digraphs to one sound, f to p and v to b, r to l,
// vowels and a final h dropped, a doubled consonant once (호퍼 is hopper). Voiced and voiceless
// stay apart, as loanwords keep them (카드, card, is no cat).
func consonantKey(s string) string {
	s = strings.NewReplacer("ph", "p", "th", "t", "sh", "s", "ch", "c", "ck", "k", "ng", "ŋ", "qu", "k", "x", "ks").Replace(strings.ToLower(s))
	fold := map[rune]rune{'f': 'p', 'v': 'b', 'q': 'k', 'c': 'k', 'j': 'c', 'z': 'c', 'r': 'l'}
	var out []rune
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) || strings.ContainsRune("aeiouyw", r) || r == 'h' && i+1 == len(rs) {
			continue
		}
		if r == 'r' && (i+1 == len(rs) || !strings.ContainsRune("aeiouy", rs[i+1]) || i+2 == len(rs) && rs[i+1] == 'e') {
			continue // tiger is 타이거, server 서버, ampere 암페어: an r after its vowel is not said
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
