package lang

import "regexp"

// tokenOutputs are output lengths said as a kind of output ("~500 token
// outputs", "500-token responses", "outputs of about 500 tokens"), which
// the reader takes as `osl N`, the generation length; a bare "500
// tokens" would be an amount of work.
var tokenOutputs = []struct {
	re  *regexp.Regexp
	out string
}{
	{regexp.MustCompile(`(?i)(^|\s)~?(\d+(?:\.\d+)?[kK]?)[\s-]*tokens?\s+(?:long\s+)?(?:outputs?|responses?|completions?|answers?|generations?|replies)\b`), "${1}osl $2"},
	{regexp.MustCompile(`(?i)\b(?:outputs?|responses?|completions?|answers?|replies)\s+of\s+(?:about\s+|around\s+|~)?(\d+(?:\.\d+)?[kK]?)\s*tokens?\b`), "osl $1"},
}

// setAside is the phrasal verb "set aside" / "set up", no `set` of a
// request's settings.
var setAside = regexp.MustCompile(`(?i)\bset\s+(aside|up)\b`)

// outputLengths writes the output lengths said as kinds of output as
// `osl N`, and drops the verb of "set aside".
func outputLengths(text string) string {
	for _, t := range tokenOutputs {
		text = t.re.ReplaceAllString(text, t.out)
	}
	return setAside.ReplaceAllString(text, "$1")
}
