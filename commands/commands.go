package commands

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
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
	// Needs is what an adapter must supply before the command runs; the
	// adapter reads it here instead of knowing command names.
	Needs Needs
	run   func(ctx context.Context, s *Set, req Request, args string) (*Reply, error)
}

// Needs are what a command asks of the adapter that runs it.
type Needs struct {
	// Zone: the command reads times the user types ("tomorrow 9:00", a
	// digest schedule without a zone), so it must run with the user's time
	// zone in Request.Location. An adapter that has to look the zone up
	// does so before running it, even if that means answering later.
	Zone bool
	// Form names the form the command is asked through when it is typed
	// with no words (FormPlan); the adapter opens that form instead of
	// running the command. "" means the command runs as typed.
	Form string
	// Compute: the command plans, holding one of the process's cores
	// (Set.Busy) while it searches.
	Compute bool
}

// FormPlan is the plan form: the request's fields one by one (PlanForm).
const FormPlan = "plan"

// needing is c with its needs, so the table below says them in one place.
func needing(c Command, n Needs) Command {
	c.Needs = n
	return c
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
	// Posted is the reservation a clicked button was posted about, as
	// its message showed it (Action.Posted); when it changed owner or
	// window since, the click is refused and nothing runs. Empty: no check.
	Posted string
	// Lang is the language to answer in: the Slack user's locale, or
	// --lang / the terminal's locale. Empty: the request's own language
	// (Korean for a request written in Korean), else English.
	Lang i18n.Lang
	// Earlier is the request of the plan answered earlier in the same
	// conversation (PlanData.Request of the bot's last plan in the Slack
	// thread or DM), "" for none: words that read as no plan of their own
	// ("what about on 4x h100?", "비용은?") are read with it.
	Earlier string
	// oneQuestion: the text is one question of a message that asked
	// several, not to be cut again.
	oneQuestion bool
}

// ReplyLang is the language req is answered in: its Lang, else Korean
// for a request written in Korean, else English.
func ReplyLang(req Request) i18n.Lang {
	if req.Lang != "" {
		return i18n.For(req.Lang).Lang()
	}
	return i18n.Choose("", hasHangul(req.Text))
}

// hasHangul reports whether s has a Hangul syllable or letter: a request
// written in Korean ("h100 2장", "얼마나 걸려?").
func hasHangul(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Hangul, r) {
			return true
		}
	}
	return false
}

// printer is the printer req is answered with (Dispatch has settled its
// Lang).
func (req Request) printer() *i18n.Printer { return i18n.For(req.Lang) }

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
	// Models reads a model named by its Hugging Face Hub id or a
	// config.json path (wired by cmd/gpuplan to the hub client); nil reads
	// such names against the catalogue only.
	Models func(ctx context.Context, ref string) (planner.Model, error)
	// KRWPerUSD is how many won a dollar buys, for budgets said in won
	// ("예산 300만원"); 0 refuses such budgets with a hint (GPU prices are
	// in dollars, and no exchange rate is assumed).
	KRWPerUSD float64
	// OneShot is set by a process that answers one command and exits (the
	// terminal): its searches run one after the other, because starting
	// a second thread in a fresh process costs more than the overlap
	// saves. The bot leaves it unset and plans the team's servers and
	// the cloud side by side.
	OneShot bool
	// Cores bounds how many plans compute at once (0: GOMAXPROCS).
	Cores int
}

// Set is the command table bound to its dependencies.
type Set struct {
	deps  Deps
	cmds  []Command
	index map[string]*Command
	sweep sweeper
	cores cores
	// holder names this process in the store's claims; drawn on first
	// use (crypto/rand's first read costs a terminal plan ~50 µs).
	holder func() string
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
	s := &Set{deps: deps, index: map[string]*Command{}, holder: sync.OnceValue(newHolder), cores: newCores(deps.Cores)}
	s.cmds = []Command{
		needing(planCommand(), Needs{Form: FormPlan, Compute: true}),
		statusCommand(),
		needing(reserveCommand(), Needs{Zone: true}),
		releaseCommand(),
		needing(extendCommand(), Needs{Zone: true}),
		needing(shortenCommand(), Needs{Zone: true}),
		mineCommand(),
		needing(waitCommand(), Needs{Zone: true}),
		needing(digestCommand(), Needs{Zone: true}), // a schedule without a zone is read in the user's
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

// command is the command text names: the first word's, else plan (a
// request that starts with no command word is a plan).
func (s *Set) command(text string) (c *Command, rest string) {
	word, rest, _ := strings.Cut(normalizeText(text), " ")
	if c, ok := s.index[strings.ToLower(word)]; ok {
		return c, strings.TrimSpace(rest)
	}
	return s.index["plan"], strings.TrimSpace(word + " " + rest)
}

// NeedsOf is what the command text names needs from the adapter.
func (s *Set) NeedsOf(text string) Needs {
	c, _ := s.command(text)
	return c.Needs
}

// FormFor is the form to open for text, when text names a command with a
// form and nothing else (or is empty: a plan asked for with no words);
// "" when the text should run as typed.
func (s *Set) FormFor(text string) string {
	if c, rest := s.command(text); rest == "" {
		return c.Needs.Form
	}
	return ""
}

// Catalog returns the catalogue the commands use.
func (s *Set) Catalog() *planner.Catalog { return s.deps.Catalog }

// Dispatch runs the command the text names. Text that starts with no
// command word is a plan request ("bert-base 10 epochs on h100x2"). Errors
// a user can fix are *UserError; anything else is internal. The reply is
// written in req's language (Request.Lang), which it names (Reply.Lang).
func (s *Set) Dispatch(ctx context.Context, req Request) (*Reply, error) {
	req.Lang = ReplyLang(req)
	reply, err := s.dispatch(ctx, req)
	if reply != nil {
		reply.Lang = req.Lang
	}
	// The request language's refusals are written in English; say them in
	// the reply's language.
	err = lang.Localize(req.printer(), err)
	if ue := Explain(err); ue != nil {
		ue.Hint = s.teamExample(ue.Hint)
	}
	return reply, err
}

// teamExample writes an example's built-in server names (`server-h`,
// `server-a`) as the team's own when the team has none by those names:
// "try: `reserve 2 on server-h for 4h`" names a server the asker can book.
func (s *Set) teamExample(hint string) string {
	inv := s.deps.Inventory
	if inv == nil || len(inv.Servers) == 0 || hint == "" {
		return hint
	}
	names := map[string]bool{}
	for _, h := range inv.Servers {
		names[h.Name] = true
	}
	for k, ex := range []string{"server-h", "server-a"} {
		if names[ex] || !strings.Contains(hint, ex) {
			continue
		}
		own := inv.Servers[min(k, len(inv.Servers)-1)].Name
		hint = regexp.MustCompile(regexp.QuoteMeta(ex)+`\b`).ReplaceAllString(hint, own)
	}
	return hint
}

func (s *Set) dispatch(ctx context.Context, req Request) (*Reply, error) {
	p := req.printer()
	if req.Posted != "" {
		if err := s.checkPosted(ctx, req); err != nil {
			return nil, err
		}
	}
	text := normalizeText(req.Text)
	if text == "" {
		return s.help(p, ""), nil
	}
	word, rest, _ := strings.Cut(text, " ")
	if c, ok := s.index[strings.ToLower(word)]; ok {
		reply, err := c.run(ctx, s, req, strings.TrimSpace(rest))
		if err != nil && sentenceCommands[c.Name] && !(c.Name == "release" && lang.UnknownServer(err)) {
			// "reserve one gpu on server h from 2pm for 5h": the command's
			// own grammar refused it; read it as a sentence once more.
			if cr, ok := lang.ReadCommand(s.planEnv(), text); ok && cr.Name == c.Name && cr.Args != strings.TrimSpace(rest) {
				if r2, err2 := c.run(ctx, s, req, cr.Args); err2 == nil {
					return r2, nil
				}
			}
		}
		return reply, err
	}
	if strings.EqualFold(word, "compare") {
		return s.index["plan"].run(ctx, s, req, text)
	}
	if cr, ok := lang.ReadCommand(s.planEnv(), text); ok {
		// "server-a 2장 내일 오전 9시부터 3시간 예약", "who's using server-h?"
		if c, ok := s.index[cr.Name]; ok {
			return c.run(ctx, s, req, cr.Args)
		}
	}
	if r, ok := s.statusBeside(ctx, req, text); ok {
		return r, nil // "server-h 비어있어? qwen 72b lora 하려는데 4장 다 필요함?"
	}
	reply, err := s.index["plan"].run(ctx, s, req, text)
	if KindOf(err) == Invalid {
		// A first word the request language does not read is likelier a
		// mistyped command than a plan: suggest one.
		if sug := planner.Nearest(word, s.names(), 1); len(sug) > 0 && asciiWord(word) && !s.planWord(word) && !lang.NamesUnsupportedFamily(text) {
			return nil, &UserError{Msg: p.Tf("unknown command `%s` — did you mean `%s`?", word, sug[0]),
				Hint: p.T("try `help` for the command list, or `help plan` for the request language")}
		}
	}
	return reply, err
}

// asciiWord reports whether word is written in ASCII, as every command
// name is: a Korean first word ("라마 3.2 3B …") is no mistyped command.
func asciiWord(word string) bool {
	for _, r := range word {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

// planProbe is a request that reads, for planWord to put a word in front of.
const planProbe = "bert-base 1 epoch of 1000 samples on h100x1"

// planWord reports whether the request language reads word as part of a
// plan (a model, a keyword, an option…): put in front of a request that
// reads, it is neither refused nor skipped as filler. It asks the language
// what it read instead of reading its error messages.
func (s *Set) planWord(word string) bool {
	rd, err := lang.Read(lang.Env{Catalog: s.deps.Catalog}, word+" "+planProbe)
	if err != nil {
		return false
	}
	return !slices.ContainsFunc(rd.Skipped, func(w string) bool { return strings.EqualFold(w, word) })
}

// sentenceCommands are the commands a sentence may ask for in its own
// words (lang.ReadCommand).
var sentenceCommands = map[string]bool{"reserve": true, "release": true, "extend": true, "shorten": true, "wait": true, "status": true}

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
	s = slackLink.ReplaceAllStringFunc(r.Replace(s), func(m string) string {
		// <https://huggingface.co/Qwen/Qwen2.5-7B|Qwen2.5-7B>: the link
		// itself when it is the Hub's (the request language reads the
		// model's id from it), else what the message showed
		sub := slackLink.FindStringSubmatch(m)
		if sub[2] == "" || strings.Contains(strings.ToLower(sub[1]), "huggingface.co/") || strings.Contains(strings.ToLower(sub[1]), "hf.co/") {
			return sub[1]
		}
		return sub[2]
	})
	return strings.Join(strings.Fields(StripMentions(s)), " ")
}

// slackLink is a link as Slack delivers it in a message's text:
// <https://x> or <https://x|label>.
var slackLink = regexp.MustCompile(`<(https?://[^|<>\s]+)(?:\|([^<>]*))?>`)

// msg marks an English text that is written in one place and shown in
// another, such as a command's summary in the table (gettext's N_): where
// it is written it is the text itself, and the catalogue test sees its key
// there; tr shows it in the reader's language.
var msg marked

type marked struct{}

// T is key itself: the text as written.
func (marked) T(key string) string { return key }

// tr is a text marked with msg in p's language.
func tr(p *i18n.Printer, key string) string {
	lookup := p.T // key is a literal where it was marked (msg.T)
	return lookup(key)
}
