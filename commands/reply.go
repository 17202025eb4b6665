package commands

import (
	"math"

	"github.com/gpuplan/gpuplan/i18n"
	"strings"
)

// Reply is what every command returns: one structured answer that the
// terminal renderer prints as text, --json prints as data, and the Slack
// adapter renders as Block Kit. Text in a Reply is plain: renderers escape
// it for their medium; only the `code` spans written with backticks are
// formatting.
type Reply struct {
	Title string // header line
	// ReadAs restates what the request was read as ("Read as: …"), shown
	// right under the title so a misreading is seen before the answer.
	ReadAs   string    `json:",omitempty"`
	Summary  string    // one line that stands alone: Slack's notification/fallback text
	Sections []Section // the body, in order
	Actions  []Action  // buttons (Slack) / follow-up commands (terminal)
	// InChannel marks answers that change shared state and belong in the
	// channel; everything else is shown only to the asker.
	InChannel bool
	// Data is the machine-readable result for --json (a documented type
	// such as *planner.Result); nil means the Reply itself is the data.
	Data any
	// Channel, when set on an InChannel reply, is where to announce it
	// (the team channel) instead of where the command was typed.
	Channel string
	// Announces names the reservation this reply announces; the adapter
	// reports where the message went (Set.Announced) so it can be updated.
	Announces string
	// Files are attachments such as the digest's chart. Slack uploads
	// them with the message; the terminal says where it wrote them.
	Files []File `json:"-"`
	// Refused, when set, says why the command did not do what was asked
	// although it was understood ("conflict": the GPUs are not free;
	// "nothing to do": nothing to release). The reply explains it; the
	// terminal exits non-zero.
	Refused string `json:",omitempty"`
	// Lang is the language the reply's text is written in ("en", "ko");
	// field names in JSON stay English.
	Lang i18n.Lang `json:"lang,omitempty"`
}

// File is an attachment: a name, a title, the bytes and a text
// alternative for screen readers (and for the terminal).
type File struct {
	Name    string // "digest-2026-11-21.png"
	Title   string
	AltText string
	Type    string // MIME type
	Data    []byte
}

// SectionKind tells renderers how prominent a section is.
type SectionKind int

// Section kinds.
const (
	Normal  SectionKind = iota
	Warning             // something the user should not miss
	Context             // small print: assumptions, sources
)

// Section is one block of a reply. Any combination of its parts may be
// set; renderers show them in the order Text, Bar, Fields, Table, Bullets.
type Section struct {
	Heading string
	Kind    SectionKind
	Text    string
	Bar     *Bar
	Fields  []Field
	Table   *Table
	Bullets []string
	// Actions are buttons that belong to this section (a reservation's
	// Extend and Release on the App Home); the reply's own Actions come
	// after all sections.
	Actions []Action
}

// Field is a label and its value ("Time", "3.2 h").
type Field struct {
	Label string
	Value string
}

// Table is a small grid; the first column names the rows.
type Table struct {
	Columns []string
	Rows    [][]string
}

// Bar is a filled gauge such as memory used of capacity.
type Bar struct {
	Label string
	Used  float64
	Total float64
	Unit  string
}

// Action is a follow-up the user can take: a Slack button, or the
// command to type in a terminal.
type Action struct {
	ID      string // stable action id ("plan.share")
	Label   string // button text
	Value   string // payload: the command text to run, or an id
	Command string // what to type for the same thing in a terminal; empty if Slack-only
	Style   string // "primary", "danger" or ""
	// RequestID travels with a "run" action so that clicking it twice
	// applies once.
	RequestID string
	// Posted, on a button about a reservation, is that reservation as
	// the message showed it ("<id>@<owner>@<end unix>"): a click after
	// its owner or window changed is refused (posted.go).
	Posted string
}

// ActionRun is the action id of buttons that run Command as the clicking
// user (Release, Extend 1h, Book this slot).
const ActionRun = "run"

// Fill returns the used share (may exceed 1) and how many of width cells
// a gauge fills: the one layout both renderers draw with their own marks.
func (b *Bar) Fill(width int) (frac float64, filled int) {
	if b.Total > 0 {
		frac = b.Used / b.Total
	}
	return frac, int(math.Round(math.Min(frac, 1) * float64(width)))
}

// Lines lays the table out as aligned plain-text lines (header first,
// backticks dropped, trailing spaces trimmed); sep, when not empty, adds a
// dashed rule under the header.
func (t *Table) Lines(sep bool) []string {
	widths := make([]int, len(t.Columns))
	for i, c := range t.Columns {
		widths[i] = displayWidth(c)
	}
	for _, row := range t.Rows {
		for i, c := range row {
			if i < len(widths) {
				widths[i] = max(widths[i], displayWidth(plain(c)))
			}
		}
	}
	line := func(cells []string) string {
		var b strings.Builder
		for i := range widths {
			c := ""
			if i < len(cells) {
				c = plain(cells[i])
			}
			b.WriteString(c + strings.Repeat(" ", widths[i]-displayWidth(c)) + "  ")
		}
		return strings.TrimRight(b.String(), " ")
	}
	out := []string{line(t.Columns)}
	if sep {
		rule := make([]string, len(widths))
		for i, w := range widths {
			rule[i] = strings.Repeat("-", w)
		}
		out = append(out, line(rule))
	}
	for _, r := range t.Rows {
		out = append(out, line(r))
	}
	return out
}

// StripMentions drops leading <@U…> mentions (how Slack delivers
// "@gpuplan …").
func StripMentions(s string) string {
	s = strings.TrimSpace(s)
	for strings.HasPrefix(s, "<@") {
		end := strings.IndexByte(s, '>')
		if end < 0 {
			break
		}
		s = strings.TrimSpace(s[end+1:])
	}
	return s
}
