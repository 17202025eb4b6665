package commands

// Reply is what every command returns: one structured answer that the
// terminal renderer prints as text, --json prints as data, and the Slack
// adapter renders as Block Kit. Text in a Reply is plain: renderers escape
// it for their medium; only the `code` spans written with backticks are
// formatting.
type Reply struct {
	Title    string    // header line
	Summary  string    // one line that stands alone: Slack's notification/fallback text
	Sections []Section // the body, in order
	Actions  []Action  // buttons (Slack) / follow-up commands (terminal)
	// InChannel marks answers that change shared state and belong in the
	// channel; everything else is shown only to the asker.
	InChannel bool
	// Data is the machine-readable result for --json (a documented type
	// such as *planner.Result); nil means the Reply itself is the data.
	Data any
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
}
