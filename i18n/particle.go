package i18n

import (
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// Korean particles change with the sound they follow: 모델은 but 서버는,
// GPU가 but 모델이, 8로 and 서울로 but 삼으로. A catalogue text cannot know
// the word a %s will be, so it writes one form (`%s`는) and the printer
// chooses after formatting: a verb the catalogue follows with a particle
// is wrapped in marks, and the particle after each mark is put in the
// form the argument's last sound takes. Only a particle right after an
// argument (or after the closing backtick or quote around it) changes,
// never the catalogue's own words, and one the sound of the word is not
// known for stays as the catalogue wrote it.
//
// The last sound of a word, as a Korean engineer reads it aloud:
//   - Hangul: the final consonant (batchim) of its last syllable; ㄹ is
//     told apart, because 로 follows it where other batchim take 으로.
//   - a number: its Sino-Korean reading — the last digit (영 일 이 삼 사 오
//     육 칠 팔 구), or 십 백 천 만 억 조 by its trailing zeros (100 is 백,
//     12,000 is 만); after a decimal point, the last digit. A dollar
//     amount ends in 달러: $64.06 is 64.06달러.
//   - a time unit right after a number is read as the unit: 2h is 2시간,
//     3d is 3일 (the replies say durations that way). Other units are read
//     as letters (70b as 비, 32gb as 비 — 기가 ends the same way).
//   - Latin letters read as letters when they are an acronym: a single
//     letter (server-h, 70b), all capitals (GPU, NCCL), or no vowel at all
//     (ddp, fsdp, llm, gb). Letter names end in a vowel except L and R (엘,
//     알: ㄹ) and M and N (엠, 엔).
//   - otherwise as an English word, by how loanwords are written in Hangul:
//     final l is ㄹ (model 모델, mixtral 믹스트랄); m, n, ng are batchim
//     (lion 라이온, qwen 큐웬, sglang 에스지랭); p, t, k, c after one short
//     vowel are batchim (dataset 데이터셋, step 스텝, stack 스택); a silent
//     final e leaves the consonant before it (pipeline 파이프라인, scale
//     스케일, base 베이스); anything else takes 으 and ends in a vowel (bert
//     버트, server 서버, flash 플래시, squad 스쿼드).
//   - % is 퍼센트. Anything else is not known and leaves the particle as
//     written.

// Marks around an argument whose particle is to be chosen: private-use
// code points, which no catalogue text uses.
const (
	markOpen  = '\ue000'
	markClose = '\ue001'
)

// sound is the last sound of a word.
type sound int

const (
	soundUnknown   sound = iota
	soundVowel           // no batchim: 는 가 를 와 로 예요
	soundRieul           // ㄹ: 은 이 을 과, but 로
	soundConsonant       // other batchim: 은 이 을 과 으로 이에요
)

// particle is one particle's two forms: after a batchim and after a vowel.
// ro marks the 으로 family, which ㄹ takes in its vowel form.
type particle struct {
	batchim, vowel string
	ro             bool
}

var particles = []particle{
	{"은", "는", false}, {"이", "가", false}, {"을", "를", false}, {"과", "와", false},
	{"과는", "와는", false}, {"과도", "와도", false}, {"과의", "와의", false},
	{"으로", "로", true}, {"으로는", "로는", true}, {"으로도", "로도", true}, {"으로만", "로만", true},
	{"으로서", "로서", true}, {"으로써", "로써", true}, {"으로의", "로의", true},
	{"이에요", "예요", false}, {"이라서", "라서", false}, {"이라고", "라고", false}, {"이라는", "라는", false},
	{"이라면", "라면", false}, {"이면", "면", false}, {"이나", "나", false}, {"이랑", "랑", false},
}

// particleToken is a way a catalogue may write a particle: either form,
// or both as Korean style guides write an unknown word's (은(는), (으)로).
type particleToken struct {
	text string
	p    particle
}

// particleTokens are every written form, longest first, so 이에요 is read
// before 이 and 으로는 before 으로. Built on first use: only the Korean
// printer reads them, and an English process should not pay for them.
var particleTokens = sync.OnceValue(func() []particleToken {
	var ts []particleToken
	for _, p := range particles {
		ts = append(ts, particleToken{p.batchim, p}, particleToken{p.vowel, p})
		switch {
		case utf8.RuneCountInString(p.batchim) == 1:
			// 은(는), 는(은), 이(가), 가(이) …
			ts = append(ts, particleToken{p.batchim + "(" + p.vowel + ")", p}, particleToken{p.vowel + "(" + p.batchim + ")", p})
		case strings.HasPrefix(p.batchim, "이") && p.batchim[len("이"):] == p.vowel,
			strings.HasPrefix(p.batchim, "으") && p.batchim[len("으"):] == p.vowel:
			// (이)라서, (으)로 …
			ts = append(ts, particleToken{"(" + p.batchim[:len("이")] + ")" + p.vowel, p})
		}
	}
	sort.SliceStable(ts, func(i, j int) bool { return len(ts[i].text) > len(ts[j].text) })
	return ts
})

// closers may stand between an argument and its particle: `%s`는, "%s"를.
const closers = "`'\"”’」』*_~"

// particleAt is the particle s starts with, if any: a written form not
// followed by another Hangul syllable (%d가지 is no particle).
func particleAt(s string) (particleToken, bool) {
	for _, t := range particleTokens() {
		if !strings.HasPrefix(s, t.text) {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(s[len(t.text):]); isHangul(r) {
			continue
		}
		return t, true
	}
	return particleToken{}, false
}

// form is the particle's form after a word ending in sd; the written form
// when the sound is not known.
func (t particleToken) form(sd sound) string {
	switch {
	case sd == soundUnknown:
		return t.text
	case sd == soundVowel, sd == soundRieul && t.p.ro:
		return t.p.vowel
	}
	return t.p.batchim
}

// markParticles wraps in marks each verb of a Korean text that a particle
// follows, and says how many it wrapped.
func markParticles(text string) (string, int) {
	var b strings.Builder
	n := 0
	for i := 0; i < len(text); {
		j := verbEnd(text, i)
		if j < 0 {
			b.WriteByte(text[i])
			i++
			continue
		}
		rest := strings.TrimLeft(text[j:], closers)
		if _, ok := particleAt(rest); ok && text[j-1] != '%' {
			b.WriteRune(markOpen)
			b.WriteString(text[i:j])
			b.WriteRune(markClose)
			n++
		} else {
			b.WriteString(text[i:j])
		}
		i = j
	}
	return b.String(), n
}

// verbEnd is the end of the fmt verb at s[i] ("%s", "%-8.2f", "%[2]d",
// "%%"), or -1 when s[i] starts none.
func verbEnd(s string, i int) int {
	if s[i] != '%' {
		return -1
	}
	for j := i + 1; j < len(s); j++ {
		c := s[j]
		switch {
		case strings.IndexByte("+-# 0123456789.*", c) >= 0:
		case c == '[':
			k := strings.IndexByte(s[j:], ']')
			if k < 0 {
				return -1
			}
			j += k
		case c < utf8.RuneSelf:
			return j + 1
		default:
			return -1
		}
	}
	return -1
}

// fixParticles puts each particle after a marked argument in the form the
// argument's last sound takes, and removes the marks. It reports false
// when the marks are not the want pairs the text was given (an argument
// carried a mark of its own): the caller formats without them then.
func fixParticles(s string, want int) (string, bool) {
	if strings.Count(s, string(markOpen)) != want || strings.Count(s, string(markClose)) != want {
		return "", false
	}
	var b strings.Builder
	start := -1
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch r {
		case markOpen:
			if start >= 0 {
				return "", false
			}
			start = b.Len()
			i += size
			continue
		case markClose:
			if start < 0 {
				return "", false
			}
			word := b.String()[start:]
			start = -1
			i += size
			j := i
			for j < len(s) {
				c, n := utf8.DecodeRuneInString(s[j:])
				if !strings.ContainsRune(closers, c) {
					break
				}
				j += n
			}
			b.WriteString(s[i:j])
			i = j
			if t, ok := particleAt(s[i:]); ok {
				b.WriteString(t.form(lastSound(word)))
				i += len(t.text)
			}
			continue
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	return b.String(), start < 0
}

// Particle is particle (either form: 는 or 은, 로 or 으로) in the form that
// follows word: Particle("model", "는") is "은", Particle("GPU", "이") is
// "가". A particle it does not know, or a word whose sound it cannot tell,
// is returned as given.
func Particle(word, particle string) string {
	for _, t := range particleTokens() {
		if t.text == particle {
			return t.form(lastSound(word))
		}
	}
	return particle
}

func isHangul(r rune) bool { return r >= 0xAC00 && r <= 0xD7A3 }

// silent are written but not said at the end of a word. (A * is: the
// end of a cron spec is no word, and its particle stays as written.)
const silent = "`'\"”’」』.,:;!?…"

// lastSound is the last sound of word said aloud (see the top of the
// file).
func lastSound(word string) sound {
	s := strings.TrimRight(word, " \t\n")
	for {
		s = strings.TrimRight(s, silent+" \t\n")
		// A parenthesis glosses the word before it, which the particle
		// follows: "server-h (4× H200)"는 is server-h's.
		if !strings.HasSuffix(s, ")") && !strings.HasSuffix(s, "]") {
			break
		}
		open := matchingOpen(s)
		if open < 0 {
			s = s[:len(s)-1]
			continue
		}
		if strings.TrimSpace(s[:open]) == "" {
			s = s[open+1 : len(s)-1] // all of it is in brackets: read inside
			continue
		}
		s = s[:open]
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	switch {
	case isHangul(r):
		switch (r - 0xAC00) % 28 {
		case 0:
			return soundVowel
		case 8:
			return soundRieul
		}
		return soundConsonant
	case r >= '0' && r <= '9':
		return numberSound(s)
	case r == '%':
		return soundVowel // 퍼센트
	case r < utf8.RuneSelf && isLatin(byte(r)):
		return latinSound(s)
	}
	return soundUnknown
}

// matchingOpen is the index of the bracket that opens the one s ends with,
// or -1.
func matchingOpen(s string) int {
	closeB := s[len(s)-1]
	openB := byte('(')
	if closeB == ']' {
		openB = '['
	}
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case closeB:
			depth++
		case openB:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// digitSounds are the last sounds of 영 일 이 삼 사 오 육 칠 팔 구.
var digitSounds = [10]sound{soundConsonant, soundRieul, soundVowel, soundConsonant, soundVowel, soundVowel, soundConsonant, soundRieul, soundRieul, soundVowel}

// numberSound is the last sound of the number s ends with, read the
// Sino-Korean way.
func numberSound(s string) sound {
	i := len(s)
	for i > 0 && (s[i-1] >= '0' && s[i-1] <= '9' || s[i-1] == ',' || s[i-1] == '.') {
		i--
	}
	if i > 0 && s[i-1] == '$' {
		return soundVowel // $64 is said 64달러
	}
	num := strings.ReplaceAll(s[i:], ",", "")
	num = strings.TrimRight(num, ".")
	if dot := strings.LastIndexByte(num, '.'); dot >= 0 {
		return digitSounds[num[len(num)-1]-'0'] // 1.5 is 일 점 오
	}
	num = strings.TrimLeft(num, "0")
	if num == "" {
		return soundConsonant // 영
	}
	zeros := len(num) - len(strings.TrimRight(num, "0"))
	switch {
	case zeros == 0:
		return digitSounds[num[len(num)-1]-'0']
	case zeros < 4: // 십 백 천
		return soundConsonant
	case zeros < 8: // 만
		return soundConsonant
	case zeros < 12: // 억
		return soundConsonant
	case zeros < 16: // 조
		return soundVowel
	}
	return soundConsonant // 경
}

func isLatin(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

// latinSound is the last sound of the Latin letters s ends with.
func latinSound(s string) sound {
	i := len(s)
	for i > 0 && isLatin(s[i-1]) {
		i--
	}
	run := s[i:]
	w := strings.ToLower(run)
	// A time unit after a number is said as the unit: 2h 2시간, 3d 3일.
	if before := strings.TrimRight(s[:i], " "); before != "" && before[len(before)-1] >= '0' && before[len(before)-1] <= '9' {
		switch w {
		case "h", "hr", "hrs", "hour", "hours":
			return soundConsonant // 시간
		case "d", "day", "days":
			return soundRieul // 일
		}
	}
	if len(w) == 1 || run == strings.ToUpper(run) || !strings.ContainsAny(w, "aeiouy") {
		return letterSound(w[len(w)-1])
	}
	n := len(w)
	switch last := w[n-1]; last {
	case 'l':
		return soundRieul
	case 'm', 'n':
		return soundConsonant
	case 'g':
		if w[n-2] == 'n' {
			return soundConsonant // ng
		}
	case 'e':
		// A silent e after a consonant: the consonant before it ends
		// the word (pipeline 파이프라인, scale 스케일, base 베이스).
		if n >= 3 && !isVowel(w[n-2]) && strings.ContainsAny(w[:n-2], "aeiouy") {
			switch w[n-2] {
			case 'l':
				return soundRieul
			case 'm', 'n':
				return soundConsonant
			}
		}
	case 'p', 't', 'k', 'c':
		// After one short vowel: step 스텝, dataset 데이터셋, stack 스택.
		stem := w[:n-1]
		if last == 'k' && strings.HasSuffix(stem, "c") {
			stem = stem[:len(stem)-1]
		}
		if m := len(stem); m >= 1 && isVowel(stem[m-1]) && (m == 1 || !isVowel(stem[m-2])) {
			return soundConsonant
		}
	}
	return soundVowel
}

// letterSound is the last sound of a letter's Korean name: 엘 알 end in ㄹ,
// 엠 엔 in a batchim, the rest (에이 비 씨 … 에프 에이치 에스 엑스) in a vowel.
func letterSound(c byte) sound {
	switch c {
	case 'l', 'r':
		return soundRieul
	case 'm', 'n':
		return soundConsonant
	}
	return soundVowel
}
