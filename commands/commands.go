package commands

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/planner"
	"github.com/gpuplan/gpuplan/store"
)

// Command is one row of the command table. Help, the README's command list
// and "did you mean" all come from this table.
type Command struct {
	Name     string
	Aliases  []string
	Usage    string   // "plan <request>"
	Summary  string   // one line
	Grammar  []string // the words it understands, one per line (plan)
	Examples []string // full commands as typed after /gpuplan
	run      func(ctx context.Context, s *Set, req Request, args string) (*Reply, error)
}

// Request is one command invocation, from Slack or the terminal.
type Request struct {
	User    string // Slack user id, or the --as name in the terminal
	Channel string
	Text    string // everything after /gpuplan (or the mention, or the DM text)
	// ID makes a state change idempotent: the same ID applies once (a
	// retried envelope, a double-clicked button). Empty: one is made up.
	ID string
	// Location is the user's time zone (Slack profile); nil means the
	// inventory's default.
	Location *time.Location
}

// Deps are what the commands need from outside.
type Deps struct {
	// Catalog is the GPU/model catalogue, with any price overrides applied.
	Catalog *planner.Catalog
	// Inventory is the team's servers; nil means inventory.Default (the
	// seeds' three servers), so the product can be tried without a config.
	Inventory *inventory.Inventory
	// Reservations is the store; nil disables the reservation commands
	// (they answer that no store is configured).
	Reservations store.Store
	// Watch is the store's watch half (agent samples, digest
	// subscriptions); nil leaves digests, nudges and measured
	// utilization out.
	Watch store.Watch
	// Schedule reads digest cron specs (from robfig/cron, wired by
	// cmd/gpuplan); nil allows only daily and weekly digests.
	Schedule ScheduleFunc
}

// Set is the command table bound to its dependencies.
type Set struct {
	deps  Deps
	cmds  []Command
	index map[string]*Command
	sweep sweeper
	// holder names this process in the store's claims.
	holder string
}

// New builds the command table. A duplicate name or a missing field is a
// programming error and panics.
func New(deps Deps) *Set {
	if deps.Catalog == nil {
		deps.Catalog = planner.DefaultCatalog()
	}
	if deps.Inventory == nil {
		deps.Inventory = inventory.Default(deps.Catalog)
	}
	s := &Set{deps: deps, index: map[string]*Command{}, holder: newHolder()}
	s.cmds = []Command{
		planCommand(),
		statusCommand(),
		reserveCommand(),
		releaseCommand(),
		extendCommand(),
		mineCommand(),
		waitCommand(),
		digestCommand(),
		keepCommand(),
		buildCommand(),
		gpusCommand(),
		modelsCommand(),
		backtestCommand(),
		helpCommand(),
	}
	for i := range s.cmds {
		c := &s.cmds[i]
		if c.Name == "" || c.Usage == "" || c.Summary == "" || len(c.Examples) == 0 || c.run == nil {
			panic(fmt.Sprintf("commands: command %q is missing a field", c.Name))
		}
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			if _, dup := s.index[n]; dup {
				panic("commands: duplicate command name " + n)
			}
			s.index[n] = c
		}
	}
	return s
}

// Commands lists the table in order.
func (s *Set) Commands() []Command { return s.cmds }

// Catalog returns the catalogue the commands use.
func (s *Set) Catalog() *planner.Catalog { return s.deps.Catalog }

// Dispatch runs the command the text names. Text that starts with no
// command word is a plan request ("bert-base 10 epochs on h100x2"). Errors
// a user can fix are *UserError; anything else is internal.
func (s *Set) Dispatch(ctx context.Context, req Request) (*Reply, error) {
	text := normalizeText(req.Text)
	if text == "" {
		return s.help(""), nil
	}
	word, rest, _ := strings.Cut(text, " ")
	if c, ok := s.index[strings.ToLower(word)]; ok {
		return c.run(ctx, s, req, strings.TrimSpace(rest))
	}
	if strings.EqualFold(word, "compare") {
		return s.index["plan"].run(ctx, s, req, text)
	}
	reply, err := s.index["plan"].run(ctx, s, req, text)
	if ue, ok := err.(*UserError); ok && isFirstWordUnknown(ue, word) {
		// The first word is neither a command nor plan vocabulary: suggest
		// commands too, since that is the likelier mistake.
		if sug := planner.Nearest(word, s.names(), 1); len(sug) > 0 {
			return nil, userErrorf("try `help` for the command list, or `help plan` for the request language",
				"unknown command `%s` — did you mean `%s`?", word, sug[0])
		}
	}
	return reply, err
}

func isFirstWordUnknown(ue *UserError, word string) bool {
	return strings.Contains(ue.Msg, "`"+word+"`") && (strings.Contains(ue.Msg, "understand") || strings.Contains(ue.Msg, "unknown"))
}

func (s *Set) names() []string {
	var out []string
	for n := range s.index {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// normalizeText turns what Slack or a shell delivers into plain words:
// non-breaking and other unicode spaces become spaces, smart quotes
// become ASCII, and a leading bot mention is dropped.
func normalizeText(s string) string {
	r := strings.NewReplacer(
		"\u00a0", " ", "\u2007", " ", "\u202f", " ", "\u2009", " ", "\u200b", "",
		"\u201c", `"`, "\u201d", `"`, "\u2018", "'", "\u2019", "'", "\u00d7", "x",
		"&amp;", "&", "&lt;", "<", "&gt;", ">",
	)
	return strings.Join(strings.Fields(StripMentions(r.Replace(s))), " ")
}
