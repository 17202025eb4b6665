package commands

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"

	"github.com/gpuplan/gpuplan/i18n"
)

// RenderText writes a reply for a terminal: headings, aligned tables,
// a memory gauge, bullets. Backticks are dropped (they mark code in Slack).
func RenderText(w io.Writer, r *Reply) error {
	p := i18n.For(r.Lang)
	var b strings.Builder
	if r.Title != "" {
		b.WriteString(r.Title + "\n")
		b.WriteString(strings.Repeat("=", min(displayWidth(r.Title), 100)) + "\n")
	}
	if r.ReadAs != "" {
		b.WriteString(p.T("Read as:") + " " + plain(r.ReadAs) + "\n")
	}
	if r.Summary != "" {
		b.WriteString(plain(r.Summary) + "\n")
	}
	for _, s := range r.Sections {
		b.WriteString("\n")
		if s.Heading != "" {
			h := plain(s.Heading)
			if s.Kind == Warning {
				h = "! " + h
			}
			b.WriteString(h + "\n" + strings.Repeat("-", min(displayWidth(h), 100)) + "\n")
		}
		if s.Text != "" {
			prefix := ""
			if s.Kind == Context {
				prefix = "  "
			}
			b.WriteString(wrap(plain(s.Text), 100, prefix) + "\n")
		}
		if s.Bar != nil {
			b.WriteString(textBar(p, s.Bar) + "\n")
		}
		if len(s.Fields) > 0 {
			width := 0
			for _, f := range s.Fields {
				width = max(width, displayWidth(f.Label))
			}
			for _, f := range s.Fields {
				fmt.Fprintf(&b, "  %s%s  %s\n", f.Label, strings.Repeat(" ", width-displayWidth(f.Label)), plain(f.Value))
			}
		}
		if s.Table != nil {
			b.WriteString(textTable(s.Table))
		}
		for _, it := range s.Bullets {
			b.WriteString(wrap(plain(it), 100, "  - ") + "\n")
		}
		for _, c := range actionCommands(s.Actions) {
			b.WriteString("  > " + c + "\n")
		}
	}
	if cmds := actionCommands(r.Actions); len(cmds) > 0 {
		b.WriteString("\n" + strings.Join(cmds, "\n") + "\n")
	}
	for _, f := range r.Files {
		b.WriteString("\n" + p.Tf("[%s: %s, %d bytes; not shown in a terminal]", f.Title, f.Name, len(f.Data)) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RenderJSON writes the reply's data (or the reply itself) as indented
// JSON. Field names stay English; an object says which language its text
// fields use in "lang" ("en", "ko"). A list is written as it is.
func RenderJSON(w io.Writer, r *Reply) error {
	if r.Data == nil {
		return writeJSON(w, r)
	}
	raw, err := json.Marshal(r.Data)
	if err != nil {
		return err
	}
	if r.Lang != "" && len(raw) > 1 && raw[0] == '{' && !hasKey(raw, "lang") {
		head := fmt.Sprintf(`{"lang":%q`, string(r.Lang))
		if raw[1] != '}' {
			head += ","
		}
		raw = append([]byte(head), raw[1:]...)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// hasKey reports whether the JSON object raw has key at its top level.
func hasKey(raw []byte, key string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	_, ok := m[key]
	return ok
}

// actionCommands lists the actions a terminal user can type.
func actionCommands(as []Action) []string {
	var cmds []string
	for _, a := range as {
		if a.Command != "" {
			cmds = append(cmds, a.Label+": "+a.Command)
		}
	}
	return cmds
}

func plain(s string) string { return strings.ReplaceAll(s, "`", "") }

func textBar(p *i18n.Printer, bar *Bar) string {
	const width = 30
	frac, filled := bar.Fill(width)
	over := ""
	if frac > 1 {
		over = p.T(" OVER")
	}
	return fmt.Sprintf("  %s [%s%s] %.1f / %.1f %s (%.0f%%)%s", bar.Label,
		strings.Repeat("#", filled), strings.Repeat(".", width-filled), bar.Used, bar.Total, bar.Unit, frac*100, over)
}

func textTable(t *Table) string {
	var b strings.Builder
	for _, l := range t.Lines(true) {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// wrap folds text at width terminal columns (displayWidth: a Hangul
// syllable is two), prefixing the first line with prefix and the rest with
// as many spaces.
func wrap(s string, width int, prefix string) string {
	indent := strings.Repeat(" ", displayWidth(prefix))
	var b strings.Builder
	b.Grow(len(s) + len(s)/width*(len(indent)+1) + len(prefix))
	for pi, para := range strings.Split(s, "\n") {
		line := prefix
		if pi > 0 {
			b.WriteByte('\n')
			line = indent
		}
		b.WriteString(line)
		n := displayWidth(line)
		start := n
		for _, w := range strings.Fields(para) {
			wl := displayWidth(w)
			if n > start && n+1+wl > width {
				b.WriteByte('\n')
				b.WriteString(indent)
				n = len(indent)
				start = n
			}
			if n > start {
				b.WriteByte(' ')
				n++
			}
			b.WriteString(w)
			n += wl
		}
	}
	return b.String()
}

// displayWidth is how many columns s takes in a terminal, or in Slack's
// code blocks, whose monospace font draws Hangul at about two columns too:
// East Asian Wide and Fullwidth characters (Hangul syllables, CJK,
// fullwidth forms, emoji such as ✅) take two, combining marks and
// invisible format characters none, everything else one. Ambiguous
// characters (×, —, ≥) are one column, as Western and Korean terminal
// fonts that gpuplan's users run draw them.
//
// The widths come from golang.org/x/text/width, Unicode's East Asian Width
// property kept by the Go team and already a dependency (i18n's catalogue
// is x/text's). github.com/mattn/go-runewidth would be a new module for
// the same table plus ambiguous-width and emoji-sequence switches we have
// no use for.
func displayWidth(s string) int {
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < utf8.RuneSelf
	}
	if ascii {
		return len(s) // one column a byte: most of every card
	}
	n := 0
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		case isWide(r):
			n += 2
		default:
			n++
		}
	}
	return n
}

// isWide reports whether r takes two columns.
func isWide(r rune) bool {
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return true
	}
	return false
}
