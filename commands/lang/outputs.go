package lang

import (
	"regexp"
	"strconv"
	"strings"
)

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
	text = wonUnits.ReplaceAllString(text, "원화로")
	return setAside.ReplaceAllString(text, "$1")
}

// wonUnits asks the answer in won ("만원 단위로 알려주세요"), not a budget
// of ten thousand won.
var wonUnits = regexp.MustCompile(`(?:만\s*)?원\s*단위(?:로)?`)

// textGB is a corpus said by its size on disk ("텍스트 20GB 정도", "20GB
// of text", "코퍼스 1.5TB"): an amount of training tokens, not a GPU's
// memory.
var textGB = []*regexp.Regexp{
	regexp.MustCompile(`(?i)(텍스트|데이터셋|데이터|말뭉치|코퍼스|corpus|text|dataset)\s*(?:가|이|는|도|만)?\s*(?:약\s*|about\s+|~)?(\d+(?:\.\d+)?)\s*(gb|기가바이트|기가|tb|테라바이트|테라)`),
	regexp.MustCompile(`(?i)(?:약\s*|about\s+|~)?(\d+(?:\.\d+)?)\s*(gb|기가바이트|기가|tb|테라바이트|테라)\s*(?:of\s+|짜리\s*|정도\s*|의\s*)?(텍스트|데이터셋|데이터|말뭉치|코퍼스|corpus|text|raw text|dataset)`),
}

// bytesPerToken is what a BPE tokenizer packs into a token of web text
// (GPT-2 and Llama tokenizers: ~4 characters of English a token); Korean
// in UTF-8 packs a little more bytes a token, so its count comes out low.
const bytesPerToken = 4

// textTokens writes a corpus said in gigabytes or terabytes as its tokens
// at bytesPerToken, and returns the bytes read (0 when none).
func textTokens(text string) (string, float64) {
	var bytes float64
	for k, re := range textGB {
		text = re.ReplaceAllStringFunc(text, func(m string) string {
			sub := re.FindStringSubmatch(m)
			num, unit := sub[2], sub[3]
			if k == 1 {
				num, unit = sub[1], sub[2]
			}
			v, err := strconv.ParseFloat(num, 64)
			if err != nil || v <= 0 {
				return m
			}
			scale := 1e9
			if u := strings.ToLower(unit); strings.HasPrefix(u, "t") || strings.HasPrefix(u, "테") {
				scale = 1e12
			}
			bytes += v * scale
			return strconv.FormatFloat(v*scale/bytesPerToken/1e9, 'f', -1, 64) + "B tokens"
		})
	}
	return text, bytes
}
