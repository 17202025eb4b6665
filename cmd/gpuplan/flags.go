package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/i18n"
)

// parseFlags parses a subcommand's flags wherever they stand among its
// arguments, so `gpuplan plan --json "…"`, `gpuplan plan "…" --json` and
// `gpuplan status --channel C123` all work. The subcommand's FlagSet is
// the one list of its flags: a flag added to it is accepted before, after
// or between the words of the request with no other change (the
// hand-written reordering this replaces knew three flags).
//
// A word is a flag when it starts with "-" and a letter ("-json",
// "--as=alice"); a flag the set does not define is an error, as with
// flag.Parse. Other words — the request, and request words that merely
// start with "-" such as "-1h" — are kept, in order, as fs.Args(). "--"
// ends the flags.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var text []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			text = append(text, args[i+1:]...)
			break
		}
		if !isFlagWord(a) {
			text = append(text, a)
			continue
		}
		chunk := []string{a}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if f := fs.Lookup(name); f != nil && !hasValue && !isBoolFlag(f) && i+1 < len(args) {
			chunk = append(chunk, args[i+1]) // the flag's value, whatever it looks like
			i++
		}
		if err := fs.Parse(chunk); err != nil {
			return err
		}
	}
	return fs.Parse(append([]string{"--"}, text...))
}

// isFlagWord reports whether a looks like a flag: "-x…" or "--x…" with x a
// letter.
func isFlagWord(a string) bool {
	s := strings.TrimPrefix(a, "-")
	if s == a {
		return false
	}
	s = strings.TrimPrefix(s, "-")
	return s != "" && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
}

// isBoolFlag reports whether f takes no value (flag's own rule).
func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// langValue is --lang: the language answers are written in. Unset, it is
// the terminal's (LC_ALL, LC_MESSAGES, LANG) when one of them names a
// language, else empty, so that a request written in Korean is answered
// in Korean.
type langValue struct {
	set  i18n.Lang // from --lang
	env  i18n.Lang // from the environment, "" when it names none
	seen bool
}

// langFlag defines --lang on fs, defaulting from the environment.
func langFlag(fs *flag.FlagSet, getenv func(string) string) *langValue {
	v := &langValue{}
	if loc := localeEnv(getenv); loc != "" && envNamesLang(loc) {
		v.env = i18n.FromEnv(func(string) string { return loc })
	}
	fs.Var(v, "lang", "the answer's language: ko or en (default: LC_ALL, LC_MESSAGES or LANG)")
	return v
}

// localeEnv is the terminal's locale for messages, in POSIX precedence:
// LC_ALL, else LC_MESSAGES, else LANG.
func localeEnv(getenv func(string) string) string {
	for _, v := range []string{getenv("LC_ALL"), getenv("LC_MESSAGES"), getenv("LANG")} {
		if v != "" {
			return v
		}
	}
	return ""
}

// envNamesLang reports whether a locale says a language (C/POSIX does
// not: the request's language decides).
func envNamesLang(loc string) bool {
	up := strings.ToUpper(loc)
	return up != "C" && up != "POSIX" && !strings.HasPrefix(up, "C.")
}

func (v *langValue) String() string {
	if v == nil {
		return ""
	}
	return string(v.lang())
}

func (v *langValue) Set(s string) error {
	l, ok := i18n.Parse(s)
	if !ok {
		return fmt.Errorf("want ko or en, got %q", s)
	}
	v.set, v.seen = l, true
	return nil
}

// lang is the language chosen: --lang, else the environment's, else ""
// (the request's own language decides).
func (v *langValue) lang() i18n.Lang {
	if v == nil {
		return ""
	}
	if v.seen {
		return v.set
	}
	return v.env
}
