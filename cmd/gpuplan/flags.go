package main

import (
	"flag"
	"strings"
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
