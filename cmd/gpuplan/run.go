package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/digest/schedule"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
	"github.com/gpuplan/gpuplan/store"
)

const usage = `gpuplan — GPU plans for ML teams

Usage:
  gpuplan plan [--json] "<request>"   plan a job: fit, time, cost, alternatives, launch line
  gpuplan run --as <user> "<command>" any command on the reservation store, as <user> (--json too):
                                      status, reserve, release, extend, mine, wait, keep, digest
                                      (also: gpuplan status …; --files DIR writes a digest's chart)
  gpuplan exec --gpus N -- CMD…       book GPUs, run CMD on them (CUDA_VISIBLE_DEVICES), release at exit
                                      (--on SERVER, --ids 0,2, --for 8h, --wait; gpuplan exec -h)
  gpuplan serve                       run the Slack bot (SLACK_APP_TOKEN, SLACK_BOT_TOKEN)
  gpuplan agent [--once]              sample this GPU server's nvidia-smi into the store (REDIS_URL)
  gpuplan doctor                      check tokens, scopes, servers, Redis and the Slack connection
                                      (doctor --repair: put the store file's backup back; doctor --new-store:
                                      set a damaged file aside and start empty; gpuplan doctor -h)
  gpuplan healthcheck [/readyz]       ask a running serve's /healthz (for images without curl)
  gpuplan build [--json] "<n>x <gpu>" size a server for a GPU configuration
  gpuplan gpus [--json] [filter]      list the GPU catalogue
  gpuplan models [--json] [filter]    list the model catalogue
  gpuplan backtest [--json]           compare the planner with published measurements
  gpuplan help [command]              the request language and examples

Flags for every command (before or after the request; "--" ends them):
  --json                 print the machine-readable result
  --lang ko|en           the language of the answer (default: LC_ALL, LC_MESSAGES or LANG; a request
                         written in Korean is answered in Korean when none of them names one)
  --price GPU=USD        override a GPU's hourly price (repeatable; also GPUPLAN_PRICES="h100=2.1,a100=1.2")

Example:
  gpuplan plan "bert-base 10 epochs of 2.5M samples on h100x2"
`

// run is the whole program but the process: it returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	sub := args[0]
	switch sub {
	case "serve":
		return serve(ctx, args[1:], getenv, stdout, stderr)
	case "doctor":
		return doctor(ctx, args[1:], getenv, stdout, stderr)
	case "healthcheck":
		return healthcheck(ctx, args[1:], getenv, stdout, stderr)
	case "agent":
		return agentMain(ctx, args[1:], getenv, stdout, stderr)
	case "exec":
		return execMain(ctx, args[1:], getenv, stdout, stderr)
	case "run":
		return runWithStore(ctx, args[1:], getenv, stdout, stderr)
	case "status", "reserve", "release", "extend", "mine", "wait", "digest", "keep":
		return runWithStore(ctx, args, getenv, stdout, stderr)
	case "plan", "build", "gpus", "models", "backtest", "help", "compare":
	default:
		fmt.Fprintf(stderr, "gpuplan: unknown command %q\n\n%s", sub, usage)
		return 2
	}
	return dispatchCLI(ctx, sub, args[1:], getenv, stdout, stderr, nil)
}

// dispatchCLI parses the common flags, builds the command set (with the
// store when withStore is set) and prints one command's reply.
//
// dispatchCLI is one switch over the subcommands on purpose.
func dispatchCLI(ctx context.Context, sub string, args []string, getenv func(string) string, stdout, stderr io.Writer,
	withStore func(*commands.Deps) (func(), error)) int {
	fs := flag.NewFlagSet(sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the machine-readable result")
	as := fs.String("as", envOr(getenv, "USER", "terminal"), "the user the command runs as (a Slack user id or a name)")
	var prices priceFlags
	fs.Var(&prices, "price", "override a GPU's hourly price: GPU=USD (repeatable)")
	filesDir := fs.String("files", "", "write attachments (the digest's chart) into this directory")
	channel := fs.String("channel", "", "the Slack channel id the command is typed in (digest schedules default to it)")
	lang := langFlag(fs, getenv)
	requestID := fs.String("request-id", "", "the change's idempotency key: the same id applies once (default: a new one per run; printed when the outcome is unknown)")
	if err := parseFlags(fs, args); err != nil {
		return 2
	}
	cat := planner.DefaultCatalog()
	if env := getenv("GPUPLAN_PRICES"); env != "" {
		for _, kv := range strings.Split(env, ",") {
			if err := prices.Set(strings.TrimSpace(kv)); err != nil {
				fmt.Fprintf(stderr, "gpuplan: GPUPLAN_PRICES: %v\n", err)
				return 2
			}
		}
	}
	krw, err := krwPerUSD(getenv)
	if err != nil {
		fmt.Fprintln(stderr, "gpuplan:", err)
		return 2
	}
	deps := commands.Deps{Catalog: cat, Models: hubModels(getenv), OneShot: true, KRWPerUSD: krw}
	if withStore != nil {
		closeFn, err := withStore(&deps)
		if err != nil {
			fmt.Fprintln(stderr, "gpuplan:", err)
			return exitForOpen(err)
		}
		defer closeFn()
	}
	for _, p := range prices {
		if err := cat.SetPrice(p.gpu, p.usd); err != nil {
			fmt.Fprintf(stderr, "gpuplan: --price %s=%g: %v\n", p.gpu, p.usd, err)
			return 2
		}
	}
	set := commands.New(deps)
	text := strings.TrimSpace(strings.TrimPrefix(sub+" "+strings.Join(fs.Args(), " "), "run "))
	rid := *requestID
	if rid == "" {
		rid = cliRequestID()
	}
	// A change whose reply was lost is looked up (one more store timeout):
	// the terminal says so meanwhile.
	// errors in the request's language, as its reply would be (Korean for
	// a request written in Korean unless a language is set)
	p := i18n.For(commands.ReplyLang(commands.Request{Text: text, Lang: lang.lang()}))
	ctx = commands.WithOutcomeCheck(ctx, func() { fmt.Fprintln(stderr, "gpuplan: "+commands.CheckingIn(p)) })
	reply, err := set.Dispatch(ctx, commands.Request{User: *as, Channel: *channel, Text: text, ID: rid, Lang: lang.lang()})
	if err != nil {
		if ue := commands.ExplainIn(p, err); ue != nil {
			fmt.Fprintln(stderr, "gpuplan: "+strings.ReplaceAll(ue.Msg, "`", ""))
			code := exitForError(err)
			if code == exitUnknown {
				// A new run would be a new request; this id makes the
				// retry apply at most once.
				fmt.Fprintln(stderr, p.Tf("check with gpuplan mine; to retry safely, run the same command with --request-id %s (it applies at most once)", rid))
			} else if ue.Hint != "" {
				fmt.Fprintln(stderr, strings.ReplaceAll(ue.Hint, "`", ""))
			}
			return code
		}
		fmt.Fprintf(stderr, "gpuplan: internal error: %v\n", err)
		return exitInternal
	}
	if *asJSON {
		err = commands.RenderJSON(stdout, reply)
	} else {
		err = commands.RenderText(stdout, reply)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gpuplan: %v\n", err)
		return 3
	}
	if *filesDir != "" {
		for _, f := range reply.Files {
			path := filepath.Join(*filesDir, filepath.Base(f.Name))
			if err := os.WriteFile(path, f.Data, 0o644); err != nil {
				fmt.Fprintf(stderr, "gpuplan: --files: %v\n", err)
				return 1
			}
			fmt.Fprintln(stderr, "gpuplan: wrote", path)
		}
	}
	if reply.Refused != "" {
		return exitRefused
	}
	return exitOK
}

// runWithStore runs a command with the reservation store and inventory.
func runWithStore(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	return dispatchCLI(ctx, "run", args, getenv, stdout, stderr, func(d *commands.Deps) (func(), error) {
		inv, _, err := loadInventory(d.Catalog, getenv)
		if err != nil {
			return nil, err
		}
		st, _, warnings, err := openStore(ctx, getenv)
		if err != nil {
			return nil, err
		}
		for _, w := range warnings {
			fmt.Fprintln(stderr, "gpuplan: warning:", w)
		}
		d.Inventory, d.Reservations = inv, st
		d.Watch, _ = st.(store.Watch)
		d.Schedule = schedule.NextFunc
		return func() { st.Close() }, nil
	})
}

type priceFlag struct {
	gpu string
	usd float64
}

type priceFlags []priceFlag

func (p *priceFlags) String() string { return fmt.Sprint(*p) }

func (p *priceFlags) Set(v string) error {
	name, val, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return fmt.Errorf("want GPU=USD, e.g. h100=2.10, got %q", v)
	}
	usd, err := strconv.ParseFloat(strings.TrimPrefix(val, "$"), 64)
	if err != nil {
		return fmt.Errorf("price %q is not a number", val)
	}
	*p = append(*p, priceFlag{name, usd})
	return nil
}
