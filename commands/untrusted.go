package commands

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Untrusted makes text that came from a user (a reservation note, a
// digest's schedule, a model name read back) safe to put into any reply:
//
//   - Slack's mention and link syntax is turned into the plain text it
//     shows, so it cannot ping or link: <@U123|alice> → @alice, <@U123> →
//     @U123, <#C123|general> → #general, <!here> → @here,
//     <https://x|label> → label (https://x); repeated until none is left,
//     so nesting cannot rebuild one;
//   - bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
//     U+061C) and other invisible format characters are dropped, keeping
//     the zero-width joiner of emoji sequences; control characters other
//     than newline and tab, and private-use characters, are dropped too.
//
// Mentions that the command layer writes itself (mention, for owners) are
// added after this, so they stay live. Renderers still escape &, < and >.
func Untrusted(s string) string {
	s = StripFormat(s)
	for i := 0; i < 8; i++ {
		t := slackSyntax().ReplaceAllStringFunc(s, plainSyntax)
		if t == s {
			break
		}
		s = t
	}
	return s
}

// slackSyntax is one <…> construct of Slack's message syntax.
var slackSyntax = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<([@#!]?)([^<>|]*)(?:\|([^<>]*))?>`) })

func plainSyntax(m string) string {
	sub := slackSyntax().FindStringSubmatch(m)
	kind, target, label := sub[1], sub[2], sub[3]
	switch kind {
	case "@":
		if label != "" {
			return "@" + strings.TrimPrefix(label, "@")
		}
		return "@" + target
	case "#":
		if label != "" {
			return "#" + strings.TrimPrefix(label, "#")
		}
		return "#" + target
	case "!":
		if label != "" {
			return "@" + strings.TrimPrefix(label, "@")
		}
		name, _, _ := strings.Cut(target, "^")
		return "@" + name
	}
	if label != "" {
		return label + " (" + target + ")"
	}
	// Not Slack syntax (a "<3", "a <b> c"): the brackets go; renderers
	// would have escaped them anyway, and this way nothing is rebuilt.
	return "‹" + target + "›"
}

// StripFormat drops bidi controls, invisible format characters (all of
// Unicode's Cf but the zero-width joiner), control characters other than
// newline and tab, and private-use characters.
func StripFormat(s string) string {
	clean := true
	for _, r := range s {
		if dropRune(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if dropRune(r) {
			return -1
		}
		return r
	}, s)
}

func dropRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r == '\u200d': // zero-width joiner: emoji sequences
		return false
	case r == unicode.ReplacementChar:
		return false
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r) ||
		(r >= 0xFFF9 && r <= 0xFFFB) // interlinear annotation characters
}
