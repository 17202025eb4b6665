package lang

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Numbers and GPU names spelled in Hangul. People in a hurry write
// "에이치백" for H100, "사공구공" for 4090 and "오만 개", "삼십억 토큰",
// "이천스텝" for 50,000, 3 billion and 2,000: the same words read aloud.
// respellKorean rewrites such a word's front as the digits or the GPU name
// before the reading pass, and keeps what follows it (a counter, a unit, a
// particle) as a word of its own.

// sinoDigits are the Sino-Korean digits; 공 and 영 are zero, read
// digit by digit in model numbers ("사공구공").
var sinoDigits = map[rune]int{'공': 0, '영': 0, '일': 1, '이': 2, '삼': 3, '사': 4, '오': 5, '육': 6, '칠': 7, '팔': 8, '구': 9}

// sinoSmall are the scales inside a group of four digits; sinoLarge the
// groups' own scales.
var (
	sinoSmall = map[rune]int{'십': 10, '백': 100, '천': 1000}
	sinoLarge = map[rune]float64{'만': 1e4, '억': 1e8, '조': 1e12}
)

// sinoNumber reads a Sino-Korean numeral at the start of w ("삼십억",
// "오백억", "이천", "이십만", "백"): its value and how many bytes it took.
// A numeral needs a scale word (십, 백, 천, 만, 억, 조), so a lone syllable
// that is also a word ("이", "오") is none.
func sinoNumber(w string) (float64, int) {
	total, group, digit := 0.0, 0, -1
	scaled := false
	n := 0
	for k, r := range w {
		switch {
		case sinoDigits[r] > 0:
			if digit >= 0 {
				return 0, 0 // two digits in a row: not a numeral ("이사")
			}
			digit = sinoDigits[r]
		case sinoSmall[r] > 0:
			if digit < 0 {
				digit = 1 // "백" is one hundred
			}
			group += digit * sinoSmall[r]
			digit = -1
			scaled = true
		case sinoLarge[r] > 0:
			if digit >= 0 {
				group += digit
			}
			if group == 0 {
				group = 1 // "만" is ten thousand
			}
			total += float64(group) * sinoLarge[r]
			group, digit = 0, -1
			scaled = true
		default:
			if !scaled {
				return 0, 0
			}
			n = k
			if digit >= 0 {
				group += digit
			}
			return total + float64(group), n
		}
		n = k + utf8.RuneLen(r)
	}
	if !scaled {
		return 0, 0
	}
	if digit >= 0 {
		group += digit
	}
	return total + float64(group), n
}

// digitByDigit reads three or more Sino-Korean digits read one by one at
// the start of w ("사공구공" is 4090): the digits and the bytes they took.
func digitByDigit(w string) (string, int) {
	var b strings.Builder
	n := 0
	for k, r := range w {
		d, ok := sinoDigits[r]
		if !ok {
			break
		}
		b.WriteString(strconv.Itoa(d))
		n = k + utf8.RuneLen(r)
	}
	if b.Len() < 3 {
		return "", 0
	}
	return b.String(), n
}

// koGPULetters are the letters GPU names start with, as read aloud,
// longest first so "에이치" is H before "에이" is A.
var koGPULetters = []struct{ ko, en string }{
	{"에이치", "h"}, {"에이", "a"}, {"브이", "v"}, {"엘", "l"}, {"비", "b"}, {"티", "t"}, {"피", "p"},
}

// koSpelledGPU reads a GPU name spelled in Hangul at the start of w:
// "에이치백" (h100), "에이치이백" (h200), "브이백" (v100), "엘사십에스"
// (l40s), "사공구공" (4090), "에이육천" (a6000). It returns the name and
// the bytes it took when isGPU knows the name.
func koSpelledGPU(w string, isGPU func(string) bool) (string, int) {
	if d, n := digitByDigit(w); n > 0 && isGPU(d) {
		return d, n // "사공구공", "삼공구공"
	}
	for lead, d := range map[string]string{"삼": "3", "사": "4", "오": "5"} {
		if strings.HasPrefix(w, lead+"구공") && isGPU(d+"090") {
			return d + "090", len(lead + "구공") // "사구공": the 4090 as it is nicknamed
		}
	}
	for _, l := range koGPULetters {
		rest, ok := strings.CutPrefix(w, l.ko)
		if !ok {
			continue
		}
		num, n := "", 0
		if v, k := sinoNumber(rest); k > 0 {
			num, n = strconv.Itoa(int(v)), k
			// "에이치백이랑": 백이 reads as 102; a shorter numeral may name the GPU
			for j := k; j > 0 && !isGPU(l.en+num) && !isGPU(l.en+num+"s"); {
				_, size := utf8.DecodeLastRuneInString(rest[:j])
				j -= size
				if v2, k2 := sinoNumber(rest[:j]); j > 0 && k2 == j {
					if d := strconv.Itoa(int(v2)); isGPU(l.en+d) || isGPU(l.en+d+"s") {
						num, n = d, j
					}
				}
			}
		} else if d, k := digitByDigit(rest); k > 0 {
			num, n = d, k
		} else if v, k := englishDigitWord(rest); k > 0 {
			num, n = strconv.Itoa(v), k // "에이식스천": a6000, the digit said in English
		}
		if n == 0 {
			continue
		}
		name := l.en + num
		used := len(l.ko) + n
		if strings.HasPrefix(w[used:], "에스") && isGPU(name+"s") {
			return name + "s", used + len("에스") // "엘사십에스": l40s
		}
		if isGPU(name) {
			return name, used
		}
	}
	return "", 0
}

// koEnglishDigits are English digits as Hangul writes them, for GPU
// names read half in English ("에이식스천", A6000; "에이포천", A4000).
var koEnglishDigits = []struct {
	ko string
	d  int
}{{"원", 1}, {"투", 2}, {"쓰리", 3}, {"포", 4}, {"파이브", 5}, {"식스", 6}, {"세븐", 7}, {"에잇", 8}, {"나인", 9}}

// englishDigitWord reads an English digit in Hangul and the Korean place
// after it ("식스천": 6000) at the start of w: the value and the bytes.
func englishDigitWord(w string) (int, int) {
	for _, e := range koEnglishDigits {
		rest, ok := strings.CutPrefix(w, e.ko)
		if !ok {
			continue
		}
		for _, p := range []struct {
			ko string
			m  int
		}{{"천", 1000}, {"백", 100}, {"십", 10}} {
			if strings.HasPrefix(rest, p.ko) {
				return e.d * p.m, len(e.ko) + len(p.ko)
			}
		}
	}
	return 0, 0
}

// koNumberRest reports whether what follows a numeral in one word is a
// unit, a counter or a particle ("스텝", "개", "토큰이면", "으로"), so
// "백업" (backup) is no hundred.
func koNumberRest(rest string) bool {
	if rest == "" {
		return true
	}
	for _, p := range []string{"스텝", "토큰", "개", "건", "샘플", "문장", "이미지", "장", "에폭", "번", "명", "시간", "일", "분", "주", "달", "개월", "원", "달러", "불", "기가",
		"으로", "로", "을", "를", "이", "가", "은", "는", "의", "에", "정도", "쯤", "짜리", "씩"} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return false
}

// respellKorean rewrites Hangul-spelled GPU names and numerals at the
// front of each word as the Latin name or the digits, splitting off what
// follows as a word of its own.
func respellKorean(toks []reqToken, isGPU func(string) bool) []reqToken {
	var out []reqToken
	skip := -1
	for k, t := range toks {
		if k == skip {
			continue
		}
		if g := hangulLetterGPU(toks, k, isGPU); g != "" {
			// "에이100", "에이치100": the letter read aloud, the number in digits
			out = append(out, reqToken{raw: t.raw + toks[k+1].raw, w: g, start: t.start, end: toks[k+1].end})
			skip = k + 1
			continue
		}
		if !isHangulWord(t.w) || t.w != t.raw || k > 0 && (reqStartsNumber(toks[k-1].w) || toks[k-1].end == t.start) {
			// "2천만", "10 만": a scale after digits is the digits' own;
			// "inference만": glued to a word, a particle
			out = append(out, t)
			continue
		}
		front, n := koSpelledGPU(t.w, isGPU)
		if n == 0 {
			front, n = koSpelledSize(t.w)
		}
		if n == 0 {
			if v, k := sinoNumber(t.w); k > 0 && koNumberRest(t.w[k:]) {
				front, n = strconv.FormatFloat(v, 'f', -1, 64), k
			}
		}
		if n == 0 {
			out = append(out, t)
			continue
		}
		if k > 0 && len(out) > 0 && joinsSpelled(toks[k-1], out[len(out)-1], front) {
			// "만 오천", "삼억 오천만": the groups of one numeral, spaced
			prev := &out[len(out)-1]
			a, _ := strconv.ParseFloat(prev.w, 64)
			b, _ := strconv.ParseFloat(front, 64)
			prev.w = strconv.FormatFloat(a+b, 'f', -1, 64)
			prev.raw, prev.end = prev.raw+" "+t.raw[:n], t.start+n
			if n < len(t.w) {
				out = append(out, reqToken{raw: t.raw[n:], w: t.w[n:], start: t.start + n, end: t.end})
			}
			continue
		}
		out = append(out, reqToken{raw: t.raw[:n], w: front, start: t.start, end: t.start + n})
		if n < len(t.w) {
			out = append(out, reqToken{raw: t.raw[n:], w: t.w[n:], start: t.start + n, end: t.end})
		}
	}
	return out
}

// joinsSpelled reports whether the numeral next (digits, read from Hangul)
// continues the spelled numeral last, which was the whole of the word
// before it: a larger group's value ("만", "삼억") followed by a smaller
// one ("오천", "오천만") is one number written with a space.
func joinsSpelled(before, last reqToken, next string) bool {
	if !isHangulWord(before.raw) || last.raw != before.raw || last.w == before.w {
		return false
	}
	a, err1 := strconv.ParseFloat(last.w, 64)
	b, err2 := strconv.ParseFloat(next, 64)
	if err1 != nil || err2 != nil || a < 1e4 || b <= 0 {
		return false
	}
	for _, scale := range []float64{1e12, 1e8, 1e4} {
		if math.Mod(a, scale) == 0 {
			return b < scale
		}
	}
	return false
}

// koSizeDigits are the one-syllable digits read as a model size before 비
// ("칠비", "팔비"); 이, 일, 사 and 구 are left out, as 이비, 일비 (daily
// costs), 사비 (one's own money) and 구비 (to have on hand) are words.
var koSizeDigits = map[rune]string{'삼': "3", '오': "5", '육': "6", '칠': "7", '팔': "8"}

// koSpelledSize reads a model size spelled in Hangul at the start of w:
// "칠십이비" (72b), "이십칠비" (27b), "칠비" (7b), "삼백오십엠" (350m); the
// size and the bytes it took, 0 when w starts with none.
func koSpelledSize(w string) (string, int) {
	num, n := "", 0
	if v, k := sinoNumber(w); k > 0 {
		num, n = strconv.FormatFloat(v, 'f', -1, 64), k
	} else if r, k := utf8.DecodeRuneInString(w); koSizeDigits[r] != "" {
		num, n = koSizeDigits[r], k
	}
	if n == 0 {
		return "", 0
	}
	for _, u := range []struct{ ko, unit string }{{"비", "b"}, {"엠", "m"}} {
		rest, ok := strings.CutPrefix(w[n:], u.ko)
		if !ok || u.unit == "m" && len(num) < 2 {
			continue
		}
		if rest == "" || koNumberRest(rest) || strings.HasPrefix(rest, "모델") || strings.HasPrefix(rest, "급") {
			return num + u.unit, n + len(u.ko)
		}
	}
	return "", 0
}

// hangulLetterGPU is the GPU named by the Hangul letter at k and the
// digits glued after it ("에이" "100" is a100), "" when they name none.
func hangulLetterGPU(toks []reqToken, k int, isGPU func(string) bool) string {
	if k+1 >= len(toks) || toks[k+1].start != toks[k].end || !reqStartsNumber(toks[k+1].w) {
		return ""
	}
	for _, l := range koGPULetters {
		if toks[k].w == l.ko && isGPU(l.en+toks[k+1].w) {
			return l.en + toks[k+1].w
		}
	}
	return ""
}
