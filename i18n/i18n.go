package i18n

import (
	"fmt"
	"strings"
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// Lang is a reply language.
type Lang string

// The languages gpuplan answers in.
const (
	EN Lang = "en"
	KO Lang = "ko"
)

// Parse reads a language as people and systems write it: "ko", "ko-KR",
// "ko_KR.UTF-8", "Korean", "한국어", "en_US", "C". It reports false for a
// language gpuplan does not answer in.
func Parse(s string) (Lang, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i] // "ko_KR.UTF-8", "en_US@euro"
	}
	s = strings.ReplaceAll(s, "_", "-")
	switch {
	case s == "ko" || strings.HasPrefix(s, "ko-") || s == "korean" || s == "한국어" || s == "kor":
		return KO, true
	case s == "en" || strings.HasPrefix(s, "en-") || s == "english" || s == "c" || s == "posix":
		return EN, true
	}
	return "", false
}

// FromEnv is the terminal's language: LC_ALL, then LC_MESSAGES, then LANG
// (POSIX precedence); English when none names a language gpuplan speaks.
func FromEnv(getenv func(string) string) Lang {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			if l, ok := Parse(v); ok {
				return l
			}
			return EN // the first one set decides, as in POSIX
		}
	}
	return EN
}

// Choose is a Slack user's reply language: Korean when their Slack locale
// is Korean or the request is written in Korean, else English. An English
// locale does not outvote a Korean request: it is Slack's default, which
// many Korean users never change, while a request typed in Korean says
// plainly what its writer reads.
func Choose(slackLocale string, requestKorean bool) Lang {
	if l, ok := Parse(slackLocale); ok && l == KO || requestKorean {
		return KO
	}
	return EN
}

// Printer writes messages in one language.
type Printer struct {
	lang Lang
	p    *message.Printer // nil for English: fmt formats the key itself
	// marked are the Korean texts whose particles follow an argument,
	// with those arguments marked (particle.go), by key.
	marked map[string]markedText
}

// markedText is a catalogue text with marks around the arguments a
// particle follows, and how many it marks.
type markedText struct {
	text  string
	marks int
}

// english prints the keys themselves; it needs no catalogue.
var english = &Printer{lang: EN}

// korean builds the Korean printer on first use: the catalogue costs ~2 ms
// and 600 kB to build, which a process that answers in English (gpuplan
// plan in an English terminal) should not pay at start-up.
var koreanPrinter = sync.OnceValue(func() *Printer {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	marked := map[string]markedText{}
	for k, v := range korean() {
		if err := b.SetString(language.Korean, k, v); err != nil {
			panic(fmt.Sprintf("i18n: Korean text for %q: %v", k, err))
		}
		if m, n := markParticles(v); n > 0 {
			marked[k] = markedText{m, n}
		}
	}
	return &Printer{lang: KO, p: message.NewPrinter(language.Korean, message.Catalog(b)), marked: marked}
})

// For is the printer for l (English for an unknown language).
func For(l Lang) *Printer {
	if l == KO {
		return koreanPrinter()
	}
	return english
}

// Lang is the printer's language.
func (p *Printer) Lang() Lang {
	if p == nil {
		return EN
	}
	return p.lang
}

// Korean reports whether p writes Korean.
func (p *Printer) Korean() bool { return p.Lang() == KO }

// T is a message without arguments.
func (p *Printer) T(key string) string {
	if p == nil || p.p == nil {
		return key
	}
	return p.p.Sprintf(key)
}

// Tf is a message with arguments; key is its English format string. In
// Korean, a particle right after an argument takes the form the
// argument's last sound asks for (`model`은, `GPU`는; particle.go).
func (p *Printer) Tf(key string, args ...any) string {
	if p == nil || p.p == nil {
		return fmt.Sprintf(key, args...)
	}
	if m, ok := p.marked[key]; ok {
		// The marked text is no key of the catalogue, so the printer
		// formats it as it is, numbers the Korean way as before.
		if s, ok := fixParticles(p.p.Sprintf(m.text, args...), m.marks); ok {
			return s
		}
	}
	return p.p.Sprintf(key, args...)
}

// Count writes a count for people: "2,500,000" in English, "250만" in
// Korean (만 = 10⁴, 억 = 10⁸, 조 = 10¹²), keeping up to three significant
// digits.
func (p *Printer) Count(n float64) string {
	if !p.Korean() {
		return message.NewPrinter(language.English).Sprintf("%.0f", n)
	}
	for _, u := range []struct {
		v    float64
		name string
	}{{1e12, "조"}, {1e8, "억"}, {1e4, "만"}} {
		if n >= u.v {
			v := n / u.v
			s := fmt.Sprintf("%.3g", v)
			if strings.ContainsAny(s, "e") {
				s = fmt.Sprintf("%.0f", v)
			}
			return p.p.Sprintf("%s", s) + u.name
		}
	}
	return p.p.Sprintf("%.0f", n)
}
