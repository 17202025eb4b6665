package commands

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// RenderText writes a reply for a terminal: headings, aligned tables,
// a memory gauge, bullets. Backticks are dropped (they mark code in Slack).
func RenderText(w io.Writer, r *Reply) error {
	var b strings.Builder
	if r.Title != "" {
		b.WriteString(r.Title + "\n")
		b.WriteString(strings.Repeat("=", min(utf8.RuneCountInString(r.Title), 100)) + "\n")
	}
	if r.ReadAs != "" {
		b.WriteString("Read as: " + plain(r.ReadAs) + "\n")
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
			b.WriteString(h + "\n" + strings.Repeat("-", min(utf8.RuneCountInString(h), 100)) + "\n")
		}
		if s.Text != "" {
			prefix := ""
			if s.Kind == Context {
				prefix = "  "
			}
			b.WriteString(wrap(plain(s.Text), 100, prefix) + "\n")
		}
		if s.Bar != nil {
			b.WriteString(textBar(s.Bar) + "\n")
		}
		if len(s.Fields) > 0 {
			width := 0
			for _, f := range s.Fields {
				width = max(width, utf8.RuneCountInString(f.Label))
			}
			for _, f := range s.Fields {
				fmt.Fprintf(&b, "  %-*s  %s\n", width, f.Label, plain(f.Value))
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
		fmt.Fprintf(&b, "\n[%s: %s, %d bytes; not shown in a terminal]\n", f.Title, f.Name, len(f.Data))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RenderJSON writes the reply's data (or the reply itself) as indented JSON.
func RenderJSON(w io.Writer, r *Reply) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if r.Data != nil {
		return enc.Encode(r.Data)
	}
	return enc.Encode(r)
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

func textBar(bar *Bar) string {
	const width = 30
	frac, filled := bar.Fill(width)
	over := ""
	if frac > 1 {
		over = " OVER"
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

// wrap folds text at width, prefixing the first line with prefix and the
// rest with as many spaces.
func wrap(s string, width int, prefix string) string {
	indent := strings.Repeat(" ", utf8.RuneCountInString(prefix))
	var out []string
	for _, para := range strings.Split(s, "\n") {
		words := strings.Fields(para)
		line := prefix
		if len(out) > 0 {
			line = indent
		}
		n := utf8.RuneCountInString(line)
		start := n
		for _, w := range words {
			wl := utf8.RuneCountInString(w)
			if n > start && n+1+wl > width {
				out = append(out, line)
				line, n = indent, len(indent)
				start = n
			}
			if n > start {
				line += " "
				n++
			}
			line += w
			n += wl
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
