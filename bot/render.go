package bot

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/slack-go/slack"
)

// Block Kit limits (slack-platform-limits.md §2). The builders below never
// exceed them; render_test.go checks every reply against them.
const (
	maxMessageBlocks = 50
	maxViewBlocks    = 100
	maxSectionText   = 3000
	maxFields        = 10
	maxFieldText     = 2000
	maxHeaderText    = 150
	maxContextElems  = 10
	maxButtonText    = 75
	maxButtonValue   = 2000
	maxFallbackText  = 3000
)

// escape makes text safe for mrkdwn: no <!channel> or <!here>, no links
// the user did not see, no bidi or other invisible format characters.
// User and channel mentions (<@U…>, <#C…>) stay live: the command layer
// writes them for owners and channels. Text a user typed (a note, a
// schedule, a model name read back) reaches a reply through
// commands.Untrusted, which turns its mentions into plain text first, so
// only the command layer's own mentions ping.
func escape(s string) string { return escaper{}.text(s) }

// escaper is the one path every string of a message takes into mrkdwn
// (blocks and the plain-text fallback alike). Its zero value is escape.
// An error answering a request may quote the request's own words ("unknown
// server `<@U0ADMIN>`"), and the grammar's refusals quote them as typed:
// asked holds the request's letters and digits (foldIDs), and a mention
// whose id is among them is the user's own text echoed back, so it stays
// escaped — shown as typed, not live. A mention the command layer wrote
// for someone the request did not name (the holder of the GPUs) stays
// live. Treating a name the user did type as echoed only costs a ping.
type escaper struct{ asked string }

// echoing is the escaper for an answer to a request whose text is asked.
func echoing(asked string) escaper { return escaper{asked: foldIDs(asked)} }

// mrkdwnEscaper escapes Slack's three control characters; it is built once
// (a Replacer builds its tables on first use, per value).
var mrkdwnEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func (e escaper) text(s string) string {
	s = commands.StripFormat(s)
	if strings.ContainsAny(s, "&<>") {
		s = mrkdwnEscaper.Replace(s)
	}
	if !strings.Contains(s, "&lt;@") && !strings.Contains(s, "&lt;#") {
		return s
	}
	return mentionRe().ReplaceAllStringFunc(s, func(m string) string {
		sub := mentionRe().FindStringSubmatch(m)
		if e.asked != "" && strings.Contains(e.asked, sub[1][1:]) {
			return m // the user's own words: shown as typed
		}
		return "<" + sub[1] + ">"
	})
}

// foldIDs keeps what a Slack id could be read from in s: its ASCII letters
// and digits (full-width ones too), upper-cased. The request language drops
// zero-width characters, undoes &lt; and lower-cases words before it quotes
// them, so an id echoed back is found here however it was typed.
func foldIDs(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '！' && r <= '～' { // full-width ASCII
			r -= '！' - '!'
		}
		switch {
		case r >= 'a' && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mentionRe matches an escaped user or channel mention; a label after |
// is dropped (Slack shows the current name).
var mentionRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`&lt;([@][UW][A-Z0-9]{2,}|#[CG][A-Z0-9]{2,})(?:\|[^&]*)?&gt;`)
})

// truncate cuts s to at most n runes, marking the cut.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func mrkdwn(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.MarkdownType, truncate(s, maxSectionText), false, false)
}

func plainText(s string, n int) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.PlainTextType, truncate(commands.StripFormat(s), n), false, false)
}

// Message is a rendered reply: blocks plus the plain-text fallback Slack
// shows in notifications and to screen readers.
type Message struct {
	Text   string
	Blocks []slack.Block
}

// renderReply turns a Reply into a message of at most limit blocks.
func renderReply(r *commands.Reply, limit int) Message {
	return Message{Text: fallbackText(r), Blocks: fitBlocks(i18n.For(r.Lang), replyBlocks(r, nil), limit)}
}

// replyBlocks lays a reply out: header, summary, the lead buttons (the
// App Home's quick actions; nil in messages), each section followed by its
// own buttons, then the reply's buttons. Its own words (the table's cut,
// the gauge's overflow) are in the reply's language.
func replyBlocks(r *commands.Reply, lead []commands.Action) []slack.Block {
	p := i18n.For(r.Lang)
	var blocks []slack.Block
	if r.Title != "" {
		blocks = append(blocks, slack.NewHeaderBlock(plainText(r.Title, maxHeaderText)))
	}
	if r.ReadAs != "" {
		blocks = append(blocks, slack.NewContextBlock("", mrkdwn("_"+p.T("Read as:")+"_ "+escape(commands.Untrusted(r.ReadAs)))))
	}
	if r.Summary != "" {
		blocks = append(blocks, slack.NewSectionBlock(mrkdwn("*"+escape(r.Summary)+"*"), nil, nil))
	}
	if act := renderActions("quick", lead); act != nil {
		blocks = append(blocks, act)
	}
	for i, s := range r.Sections {
		blocks = append(blocks, renderSection(p, s)...)
		// Block ids are unique within a message or view.
		if act := renderActions(fmt.Sprintf("actions.%d", i), s.Actions); act != nil {
			blocks = append(blocks, act)
		}
	}
	if act := renderActions("actions", r.Actions); act != nil {
		blocks = append(blocks, act)
	}
	return blocks
}

// fitBlocks cuts blocks to limit, keeping the head and a final row of
// buttons and saying what was cut, in p's language.
func fitBlocks(p *i18n.Printer, blocks []slack.Block, limit int) []slack.Block {
	if len(blocks) > limit {
		// Keep the head and the buttons; say what was cut.
		keep := blocks[:limit-2]
		note := slack.NewContextBlock("", mrkdwn(p.Tf("_%d more blocks left out: run the same request in a terminal (`gpuplan …`) for the whole report._", len(blocks)-limit+2)))
		last := blocks[len(blocks)-1]
		blocks = append(append(keep[:len(keep):len(keep)], note), last)
		if ab, ok := last.(*slack.ActionBlock); !ok || ab.BlockID != "actions" {
			// Only the reply's own buttons survive a cut: a section's
			// buttons without their section would be a riddle.
			blocks = blocks[:len(blocks)-1]
		}
	}
	return blocks
}

// fallbackText is the message's top-level text: title and summary.
func fallbackText(r *commands.Reply) string {
	parts := []string{}
	if r.Title != "" {
		parts = append(parts, r.Title)
	}
	if r.Summary != "" {
		parts = append(parts, r.Summary)
	}
	if len(parts) == 0 {
		return "gpuplan"
	}
	return truncate(escape(strings.ReplaceAll(strings.Join(parts, " — "), "`", "")), maxFallbackText)
}

func renderSection(p *i18n.Printer, s commands.Section) []slack.Block {
	var out []slack.Block
	prefix := ""
	if s.Kind == commands.Warning {
		prefix = ":warning: "
	}
	if s.Kind == commands.Context {
		return renderContext(s)
	}
	var lines []string
	if s.Heading != "" {
		lines = append(lines, prefix+"*"+escape(s.Heading)+"*")
		prefix = ""
	}
	if s.Text != "" {
		lines = append(lines, prefix+escape(s.Text))
	}
	if s.Bar != nil {
		lines = append(lines, renderBar(p, s.Bar))
	}
	if len(lines) > 0 {
		out = append(out, textSections(strings.Join(lines, "\n"))...)
	}
	for i := 0; i < len(s.Fields); i += maxFields {
		var fs []*slack.TextBlockObject
		for _, f := range s.Fields[i:min(i+maxFields, len(s.Fields))] {
			fs = append(fs, slack.NewTextBlockObject(slack.MarkdownType,
				truncate("*"+escape(f.Label)+"*\n"+escape(f.Value), maxFieldText), false, false))
		}
		out = append(out, slack.NewSectionBlock(nil, fs, nil))
	}
	if s.Table != nil {
		out = append(out, textSections(renderTable(p, s.Table))...)
	}
	if len(s.Bullets) > 0 {
		var b []string
		for _, it := range s.Bullets {
			b = append(b, "• "+escape(it))
		}
		out = append(out, textSections(strings.Join(b, "\n"))...)
	}
	return out
}

// textSections splits long mrkdwn over several sections at line breaks.
func textSections(text string) []slack.Block {
	var out []slack.Block
	for _, chunk := range splitLines(text, maxSectionText) {
		out = append(out, slack.NewSectionBlock(mrkdwn(chunk), nil, nil))
	}
	return out
}

// splitLines packs lines into chunks of at most n runes; a single longer
// line is cut.
func splitLines(text string, n int) []string {
	var out []string
	var cur strings.Builder
	curLen := 0
	for _, line := range strings.Split(text, "\n") {
		l := utf8.RuneCountInString(line)
		if l > n {
			line, l = truncate(line, n), n
		}
		if curLen > 0 && curLen+1+l > n {
			out = append(out, cur.String())
			cur.Reset()
			curLen = 0
		}
		if curLen > 0 {
			cur.WriteByte('\n')
			curLen++
		}
		cur.WriteString(line)
		curLen += l
	}
	if curLen > 0 {
		out = append(out, cur.String())
	}
	return out
}

func renderContext(s commands.Section) []slack.Block {
	var items []string
	if s.Heading != "" {
		items = append(items, "*"+escape(s.Heading)+"*")
	}
	if s.Text != "" {
		items = append(items, escape(s.Text))
	}
	for _, b := range s.Bullets {
		items = append(items, escape(b))
	}
	// At most 10 elements: pack items into 10 joined chunks.
	var elems []slack.MixedElement
	per := int(math.Ceil(float64(len(items)) / maxContextElems))
	for i := 0; i < len(items); i += max(per, 1) {
		chunk := strings.Join(items[i:min(i+max(per, 1), len(items))], " · ")
		elems = append(elems, mrkdwn(chunk))
	}
	if len(elems) == 0 {
		return nil
	}
	return []slack.Block{slack.NewContextBlock("", elems...)}
}

// renderBar draws a memory gauge with block characters.
func renderBar(p *i18n.Printer, b *commands.Bar) string {
	const width = 20
	frac, filled := b.Fill(width)
	over := ""
	if frac > 1 {
		over = p.T(" *over capacity*")
	}
	return fmt.Sprintf("`%s%s` %.1f / %.1f %s (%.0f%%)%s", strings.Repeat("█", filled), strings.Repeat("░", width-filled),
		b.Used, b.Total, escape(b.Unit), frac*100, over)
}

// renderTable draws a table as a monospaced block (Slack's table block is
// not accepted everywhere a message goes), cut to fit one section; the
// cut is said in p's language.
func renderTable(p *i18n.Printer, t *commands.Table) string {
	rows := t.Lines(false)
	var kept []string
	size := 8
	for i, r := range rows {
		if size+utf8.RuneCountInString(r)+1 > maxSectionText-40 {
			kept = append(kept, p.Tf("… %d more rows", len(rows)-i))
			break
		}
		kept = append(kept, r)
		size += utf8.RuneCountInString(r) + 1
	}
	return "```\n" + escape(strings.Join(kept, "\n")) + "\n```"
}

// renderActions draws buttons as one actions block with blockID (nil
// when there is no button to draw).
func renderActions(blockID string, actions []commands.Action) slack.Block {
	var elems []slack.BlockElement
	for _, a := range actions {
		value, id := a.Value, a.ID
		if a.ID == commands.ActionRun {
			raw, _ := json.Marshal(runValue{Command: a.Command, RequestID: a.RequestID, Posted: a.Posted})
			value = string(raw)
			id = fmt.Sprintf("%s.%d", commands.ActionRun, len(elems)) // action ids must differ within a block
		}
		if len(value) > maxButtonValue {
			continue // the payload would not survive the round trip
		}
		btn := slack.NewButtonBlockElement(id, value, plainText(a.Label, maxButtonText))
		switch a.Style {
		case "primary":
			btn.Style = slack.StylePrimary
		case "danger":
			btn.Style = slack.StyleDanger
		}
		elems = append(elems, btn)
	}
	if len(elems) == 0 {
		return nil
	}
	return slack.NewActionBlock(blockID, elems...)
}

// errorMessage is what a user sees for a mistake they can fix; e escapes
// it (echoing the request, whose words the mistake may quote), the
// fallback text included.
func errorMessage(ue *commands.UserError, e escaper) Message {
	text := ":warning: " + e.text(ue.Msg)
	if ue.Hint != "" {
		text += "\n" + e.text(ue.Hint)
	}
	return Message{Text: truncate(e.text(strings.ReplaceAll(ue.Msg, "`", "")), maxFallbackText),
		Blocks: []slack.Block{slack.NewSectionBlock(mrkdwn(text), nil, nil)}}
}

// internalErrorMessage hides the cause and gives a reference to the log line.
func internalErrorMessage(p *i18n.Printer, ref string) Message {
	t := p.Tf(":x: Something went wrong on our side (ref `%s`). It has been logged; try again, and quote the ref if it keeps happening.", ref)
	return Message{Text: p.Tf("Something went wrong (ref %s)", ref), Blocks: []slack.Block{slack.NewSectionBlock(mrkdwn(t), nil, nil)}}
}

// runValue is the payload of a button that runs a command.
type runValue struct {
	Command   string `json:"c"`
	RequestID string `json:"r"`
	// Posted is the reservation the button is about, as its message
	// showed it (commands.Action.Posted); absent on older buttons.
	Posted string `json:"p,omitempty"`
}
