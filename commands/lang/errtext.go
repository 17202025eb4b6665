package lang

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/i18n"
)

// text is a refusal's sentence kept with its English format and
// arguments, so a reply in another language can say it in that language
// (Localize). The readers build their refusals without knowing the reply
// language: the sentence is written once, in English, as a key.
type text struct {
	key   string
	args  []any
	plain bool // en.T: the key is printed as it is, like fmt with no arguments
}

// english writes refusal texts. en.T / en.Tf take the English sentence as
// a literal, like an i18n.Printer's T / Tf, so i18n's test finds every one
// and requires its Korean.
type english struct{}

var en english

// En writes a refusal sentence for code outside the reader (inventory):
// En.Tf("unknown server `%s`", name), given to Said, is said in the
// reply's language by Localize like the reader's own.
var En = en

// Said is a UserError whose Msg is t: what En.T / En.Tf wrote.
func Said(t text, ue *UserError) *UserError { return said(t, ue) }

func (english) T(key string) text               { return text{key: key, plain: true} }
func (english) Tf(key string, args ...any) text { return text{key: key, args: args} }

// String is the English sentence.
func (t text) String() string {
	if t.plain {
		return t.key
	}
	return fmt.Sprintf(t.key, t.args...)
}

// in is the sentence in p's language; a text argument (a phrase named
// inside a sentence) is said in p's language too.
func (t text) in(p *i18n.Printer) string {
	args := make([]any, len(t.args))
	for i, a := range t.args {
		if at, ok := a.(interface{ in(*i18n.Printer) string }); ok {
			a = at.in(p) // a text, or a hubReason
		}
		args[i] = a
	}
	// The key is a literal at its en.T / en.Tf call, where i18n's test
	// reads it; here it is passed on.
	say, sayf := p.T, p.Tf
	if t.plain {
		return say(t.key)
	}
	return sayf(t.key, args...)
}

// said is ue with its Msg said by t.
func said(t text, ue *UserError) *UserError {
	ue.Msg = t.String()
	ue.text = t
	return ue
}

// Localize says err's *UserError in p's language (nil or English: as it
// is): its Msg when a reader wrote it with en.T / en.Tf and nothing has
// rewritten it since, and its Hint's words around the request examples,
// which stay as typed. Any other error is returned as it is.
func Localize(p *i18n.Printer, err error) error {
	var ue *UserError
	if !p.Korean() || !errors.As(err, &ue) {
		return err
	}
	if ue.text.key != "" && ue.Msg == ue.text.String() {
		ue.Msg = ue.text.in(p)
	}
	ue.Hint = hintIn(p, ue.Hint)
	ue.text = text{}
	return err
}

// hintIn is a hint in p's language. Hints are a fixed sentence, an example
// request ("try: gpuplan plan …", "e.g. `…` or `…`"), or a sentence ending
// in one: the sentences are translated, the examples kept as typed.
func hintIn(p *i18n.Printer, h string) string {
	if h == "" || !p.Korean() {
		return h
	}
	if s, ok := hintSentence(p, h); ok {
		return s
	}
	if rest, ok := strings.CutPrefix(h, tryPrefix); ok {
		return p.Tf("try: gpuplan plan %s", rest)
	}
	if rest, ok := strings.CutPrefix(h, "e.g. with a size: "); ok {
		return p.Tf("e.g. with a size: %s (Chinchilla's 20 tokens a parameter), or 7b params", rest)
	}
	if rest, ok := strings.CutPrefix(h, "e.g. with a model: "); ok {
		return p.Tf("e.g. with a model: %s", rest)
	}
	if rest, ok := strings.CutPrefix(h, "e.g. "); ok && strings.HasPrefix(rest, "`") {
		if i := strings.LastIndex(rest, "` or `"); i >= 0 {
			return p.Tf("e.g. %s or %s", rest[:i+1], rest[i+len("` or "):])
		}
		return p.Tf("e.g. %s", rest)
	}
	if rest, ok := strings.CutPrefix(h, "e.g. "); ok {
		return p.Tf("e.g. %s", rest)
	}
	if rest, ok := strings.CutPrefix(h, startNowHint); ok {
		return p.Tf("to start now, say only the end: %s", rest)
	}
	if rest, ok := strings.CutPrefix(h, "servers: "); ok {
		return p.Tf("servers: %s", rest)
	}
	if rest, ok := strings.CutPrefix(h, "say "); ok {
		if a, b, ok := strings.Cut(rest, itsHintMiddle); ok {
			return p.Tf("say %s (1 ÷ it/s, if each iteration is one optimizer step) or %s", a, b)
		}
		return p.Tf("say %s", rest)
	}
	for _, tail := range []string{whenExample, durationExample} {
		if head, ok := strings.CutSuffix(h, " — "+tail); ok {
			if s, ok := hintSentence(p, head); ok {
				return s + " — " + hintIn(p, tail)
			}
		}
	}
	return h
}

// hintSentence is a fixed hint in p's language; false for one it does not
// know. Each key is the hint as the readers write it (a test checks the
// English side is the same text).
func hintSentence(p *i18n.Printer, h string) (string, bool) {
	switch h {
	case "try a catalogue name (`gpuplan models` lists them)":
		return p.T("try a catalogue name (`gpuplan models` lists them)"), true
	case detectionHint:
		return p.T("for a rough bound, plan its backbone at its image count: `gpuplan plan resnet-50 100 epochs of coco on a 4090` (a detector at 640 px does several times the work)"), true
	case "an admin lists them in the servers file (see deploy/servers.example.yaml)": // inventory's
		return p.T("an admin lists them in the servers file (see deploy/servers.example.yaml)"), true
	case "run `gpuplan serve` or `gpuplan run` with REDIS_URL, or with the embedded store (the default), to use status/reserve/release": // commands'
		return p.T("run `gpuplan serve` or `gpuplan run` with REDIS_URL, or with the embedded store (the default), to use status/reserve/release"), true
	case reqKinds:
		return p.T("I read: a model (bert-base, 7b params, layers 24 hidden 2048 heads 16), the work (10 epochs of 2.5M samples, 1.2B tokens, 5000 steps), seq 512, batch 128, micro 32, a precision (bf16, fp16, int4), options (lora, qlora, inference, ckpt, flash, zero2, fsdp, adam8bit, tuned), hardware (on h100x2, on 2 nodes of 8x h100, compare h200x4, a100x4) and a measurement (baseline 5.67 h/epoch on 4x v100)"), true
	case reqExample:
		return p.T("e.g. gpuplan plan bert-base 10 epochs of 2.5M samples on h100x2"), true
	case whenExample:
		return p.T("try: `reserve 2 on server-h from tomorrow 9:00 for 4h` (or `for 2h`, `until fri 18:00`, `from 14:00 until 18:00`)"), true
	case durationExample:
		return p.T("write durations like `2h`, `90m`, `1d12h`, `1.5h` or `1w` — e.g. `reserve 2 on server-h for 4h`"), true
	case reserveHint:
		return p.T("try: `reserve 2 on server-h for 4h` or `reserve gpus 0-3 on server-a from tomorrow 9:00 for 8h`"), true
	case waitHint:
		return p.T("try: `wait 4 on server-h` or `wait 2 on server-a for 8h`"), true
	case extendHint:
		return p.T("try: `extend server-h-3 2h`, `extend server-h 2h` or `extend server-h-3 until 20:00` — `mine` lists your reservations"), true
	case scheduleHint:
		return p.T("try `digest daily 09:00`, `digest weekly mon 09:00 Europe/Berlin` or `digest cron \"0 9 * * 1-5\"`"), true
	case "dates are written 2026-11-24 or nov 24":
		return p.T("dates are written 2026-11-24 or nov 24"), true
	case "times are written 9, 9:30, 18:00, 9am, 6pm, noon or midnight":
		return p.T("times are written 9, 9:30, 18:00, 9am, 6pm, noon or midnight"), true
	case "numbers look like 512, 2.5M, 1.2B, 15T, 100k, 2,464,256 or 1e6":
		return p.T("numbers look like 512, 2.5M, 1.2B, 15T, 100k, 2,464,256 or 1e6"), true
	case "the global batch is GPUs × micro-batch × accumulation steps, e.g. batch 128 = 4x32":
		return p.T("the global batch is GPUs × micro-batch × accumulation steps, e.g. batch 128 = 4x32"), true
	case "batch in tokens = sequences × seq, e.g. batch 1M tokens with seq 2048":
		return p.T("batch in tokens = sequences × seq, e.g. batch 1M tokens with seq 2048"), true
	case "`release <id>`, `release <server>` or `release all` — `mine` lists your reservations":
		return p.T("`release <id>`, `release <server>` or `release all` — `mine` lists your reservations"), true
	case "type `#` and pick the channel from the list, so Slack sends its id":
		return p.T("type `#` and pick the channel from the list, so Slack sends its id"), true
	case "try `digest #gpu-team daily 09:00`, `digest weekly mon 09:00`, `digest off`, `digest list` or `digest now`":
		return p.T("try `digest #gpu-team daily 09:00`, `digest weekly mon 09:00`, `digest off`, `digest list` or `digest now`"), true
	case "put the spec in quotes: `digest cron \"0 9 * * 1-5\"`":
		return p.T("put the spec in quotes: `digest cron \"0 9 * * 1-5\"`"), true
	case "five fields: minute hour day-of-month month day-of-week, e.g. \"0 9 * * 1-5\"":
		return p.T("five fields: minute hour day-of-month month day-of-week, e.g. \"0 9 * * 1-5\""), true
	case "time zones are IANA names: `Asia/Seoul`, `Europe/Berlin`, `America/New_York`, `UTC`":
		return p.T("time zones are IANA names: `Asia/Seoul`, `Europe/Berlin`, `America/New_York`, `UTC`"), true
	}
	return "", false
}

// pluralText names what a request gave twice ("two batch sizes"), so the
// refusal can say it in the reply's language.
func pluralText(plural string) any {
	switch plural {
	case "amounts of work":
		return en.T("amounts of work")
	case "attention kernels":
		return en.T("attention kernels")
	case "batch sizes":
		return en.T("batch sizes")
	case "dataset sizes":
		return en.T("dataset sizes")
	case "engines":
		return en.T("engines")
	case "epoch counts":
		return en.T("epoch counts")
	case "epoch sizes":
		return en.T("epoch sizes")
	case "generation lengths":
		return en.T("generation lengths")
	case "host bandwidths":
		return en.T("host bandwidths")
	case "interconnects":
		return en.T("interconnects")
	case "layer counts":
		return en.T("layer counts")
	case "micro-batch sizes":
		return en.T("micro-batch sizes")
	case "model kinds":
		return en.T("model kinds")
	case "models":
		return en.T("models")
	case "optimizers":
		return en.T("optimizers")
	case "precisions":
		return en.T("precisions")
	case "prompt lengths":
		return en.T("prompt lengths")
	case "quantisation methods":
		return en.T("quantisation methods")
	case "request rates":
		return en.T("request rates")
	case "sample counts":
		return en.T("sample counts")
	case "sequence lengths":
		return en.T("sequence lengths")
	case "sharding strategies":
		return en.T("sharding strategies")
	case "splits":
		return en.T("splits")
	case "stacks":
		return en.T("stacks")
	case "step counts":
		return en.T("step counts")
	case "token counts":
		return en.T("token counts")
	case "workloads":
		return en.T("workloads")
	}
	return plural
}

// itsHintMiddle joins the two examples of the it/s refusal's hint.
const itsHintMiddle = " (1 ÷ it/s, if each iteration is one optimizer step) or "
