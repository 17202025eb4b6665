package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// Setting is one environment variable or flag the binary reads. Settings
// is the single list of them: the README's configuration reference is
// generated from it (`go test ./cmd/gpuplan -run TestConfigReference
// -update`), and tests check it against the flags each subcommand defines,
// the variables the code reads and the variables the deploy files set.
type Setting struct {
	Env  string // environment variable; "" for a flag only
	Flag string // flag name without dashes; "" for a variable only
	// Commands are the subcommands that read it. "plan" stands for every
	// terminal command (plan, build, gpus, models, backtest, help); doctor
	// accepts serve's flags.
	Commands []string
	Default  string // Markdown
	What     string // Markdown
	Wrong    string // what happens when it is wrong; Markdown
	// Secret settings never appear with a value in a deploy file; they
	// come from an env file or a Kubernetes Secret.
	Secret bool
}

// Settings lists every environment variable and flag, in the order the
// README shows them.
var Settings = []Setting{
	{Env: "SLACK_APP_TOKEN", Commands: []string{"serve", "doctor"}, Default: "— (required)", Secret: true,
		What:  "app-level token `xapp-…` for the Socket Mode connection (scope `connections:write`)",
		Wrong: "missing, wrong prefix or refused: exits 2 naming the token, the prefix it needs and where to create it; the value is never printed"},
	{Env: "SLACK_BOT_TOKEN", Commands: []string{"serve", "doctor", "exec"}, Default: "— (required; `exec`: none)", Secret: true,
		What:  "bot token `xoxb-…` for the Web API; `exec` posts its announcements in the `team_channel` with it when set",
		Wrong: "as above; swapped tokens are recognised and said; `doctor` names missing scopes; `exec` says it in one line and only prints its announcements"},
	{Env: "SLACK_API_URL", Flag: "api-url", Commands: []string{"serve", "doctor"}, Default: "Slack",
		What:  "another Slack API base (a local fake Slack in tests)",
		Wrong: "connection errors are logged and retried with backoff; `/readyz` stays 503"},
	{Env: "GPUPLAN_LOG_LEVEL", Flag: "log-level", Commands: []string{"serve", "doctor", "agent"}, Default: "`info`",
		What:  "`debug`, `info`, `warn`, `error`",
		Wrong: "exits 2 and names the accepted values"},
	{Env: "GPUPLAN_LOG_FORMAT", Flag: "log-format", Commands: []string{"serve", "doctor"}, Default: "`json`",
		What:  "`json` or `console` (zap)",
		Wrong: "exits 2"},
	{Env: "GPUPLAN_HTTP_ADDR", Flag: "http-addr", Commands: []string{"serve", "healthcheck"}, Default: "`" + defaultHTTPAddr + "`",
		What:  "where `/healthz`, `/readyz` and `/metrics` are served ([docs/operations.md](docs/operations.md)); `--http-addr=` (empty) or `off` turns the listener off; `healthcheck` asks it",
		Wrong: "an address that cannot be bound (taken port, bad host): exits 2 naming it"},
	{Flag: "workers", Commands: []string{"serve"}, Default: "16",
		What:  "commands computed at once (bounded pool)",
		Wrong: "0 or less means the default"},
	{Flag: "drain-timeout", Commands: []string{"serve"}, Default: "20s",
		What:  "how long SIGTERM waits for in-flight commands; give the orchestrator's grace period more than this",
		Wrong: "0 or less means the default; work still running at the deadline is cancelled"},
	{Flag: "sweep-every", Commands: []string{"serve"}, Default: "30s",
		What:  "how often reminders, expiries and waiting lists are checked",
		Wrong: "not a Go duration: exits 2"},
	{Env: "GPUPLAN_SERVERS", Commands: []string{"serve", "doctor", "run", "exec"}, Default: "built-in example servers",
		What:  "the team's server inventory (YAML: servers, GPUs, admins, time zone, max duration, team channel; see `deploy/servers.example.yaml`)",
		Wrong: "the start stops with `file:line: reason`; `doctor` shows it"},
	{Env: "REDIS_URL", Commands: []string{"serve", "doctor", "run", "agent", "exec"}, Default: "— (embedded store)",
		What:  "Redis for reservations (`redis://` or `rediss://`; several `addr=` make a Cluster seed list); several replicas share it",
		Wrong: "unreachable: the start fails saying so; an evicting `maxmemory-policy` is refused (set `noeviction`); persistence off is a warning"},
	{Env: "REDIS_SENTINEL_ADDRS", Commands: []string{"serve", "doctor", "run", "agent", "exec"}, Default: "—",
		What:  "comma-separated `host:port` of Redis Sentinels (failover), instead of `REDIS_URL`",
		Wrong: "without `REDIS_MASTER_NAME` the start fails and names it"},
	{Env: "REDIS_MASTER_NAME", Commands: []string{"serve", "doctor", "run", "agent", "exec"}, Default: "—",
		What:  "the master name the Sentinels monitor",
		Wrong: "an unknown name: the start fails (Sentinel does not know that master)"},
	{Env: "REDIS_PASSWORD", Commands: []string{"serve", "doctor", "run", "agent", "exec"}, Default: "— (the URL's)", Secret: true,
		What:  "Redis password, overriding the URL's; never logged",
		Wrong: "refused: the start fails saying Redis refused the credentials"},
	{Env: "REDIS_WAIT_REPLICAS", Commands: []string{"serve", "run", "agent", "exec"}, Default: "0 (off)",
		What:  "after each reservation change, wait (`WAIT`, up to 100 ms) until this many Redis replicas have it, and count the changes they did not confirm; narrows what a failover can lose (docs/scale.md)",
		Wrong: "not a whole number ≥ 0: the start stops and says so; more replicas than exist: every change waits the full 100 ms"},
	{Env: "GPUPLAN_DB", Commands: []string{"serve", "doctor", "run", "agent", "exec"}, Default: "`$XDG_DATA_HOME/gpuplan/reservations.db`",
		What:  "the embedded store's file when there is no Redis (one process at a time)",
		Wrong: "unwritable or held by another gpuplan: the start fails with the path"},
	{Env: "XDG_DATA_HOME", Commands: []string{"serve", "doctor", "run", "agent", "exec"}, Default: "`$HOME/.local/share`",
		What:  "where the embedded store's default file lives",
		Wrong: "—"},
	{Env: "HOME", Commands: []string{"serve", "doctor", "run", "agent", "exec"}, Default: "the user's home",
		What:  "the fallback for `XDG_DATA_HOME`",
		Wrong: "neither set and no home directory: the start asks for `GPUPLAN_DB`"},
	{Env: "USER", Flag: "as", Commands: []string{"run", "plan", "exec"}, Default: "`$USER`, else `terminal`",
		What:  "who a terminal command runs as (a Slack user id or a name)",
		Wrong: "—"},
	{Env: "HF_TOKEN", Commands: []string{"serve", "run", "plan"}, Default: "none", Secret: true,
		What:  "Hugging Face token, read when a request names a gated Hub model (`plan meta-llama/Llama-3.2-3B …`)",
		Wrong: "refused or missing for a gated model: the answer says to set it and accept the model's licence; the value is never printed"},
	{Env: "HUGGING_FACE_HUB_TOKEN", Commands: []string{"serve", "run", "plan"}, Default: "none", Secret: true,
		What:  "the older name of `HF_TOKEN`, read when `HF_TOKEN` is empty",
		Wrong: "as `HF_TOKEN`"},
	{Env: "HF_ENDPOINT", Commands: []string{"serve", "run", "plan"}, Default: "`https://huggingface.co`",
		What:  "a Hugging Face Hub mirror for models named by id",
		Wrong: "unreachable: the answer says the Hub cannot be reached and plans a catalogue model of that name when there is one"},
	{Env: "GPUPLAN_HUB_CACHE", Commands: []string{"serve", "run", "plan"}, Default: "the user cache directory`/gpuplan/hub`",
		What:  "where fetched `config.json` files are kept; a cached file answers without the network",
		Wrong: "not writable: the file is fetched again each time"},
	{Env: "GPUPLAN_PRICES", Commands: []string{"serve", "run", "plan"}, Default: "catalogue prices (`gpuplan gpus`), then the inventory's `price:`",
		What:  "hourly price per GPU for cost, over the inventory's: `GPUPLAN_PRICES=\"h100=2.1,a100=1.2\"`",
		Wrong: "an unknown GPU or a non-number stops the start (or the command) with exit 2 and says which"},
	{Env: "GPUPLAN_KRW_PER_USD", Commands: []string{"serve", "run", "plan"}, Default: "unset: ₩1,422 a dollar, the 2025 average (the reading says it assumed it)",
		What:  "won per dollar, for budgets said in won (`예산 300만원`, `₩3,000,000`): `GPUPLAN_KRW_PER_USD=1400`; the reading says the dollars it used",
		Wrong: "not a positive number stops the start (or the command) with exit 2 and says so"},
	{Flag: "price", Commands: []string{"run", "plan"}, Default: "`GPUPLAN_PRICES`",
		What:  "`--price h100=2.1` (repeatable): a terminal command's price, over `GPUPLAN_PRICES`",
		Wrong: "as `GPUPLAN_PRICES`"},
	{Flag: "json", Commands: []string{"run", "plan"}, Default: "off",
		What:  "print the result as JSON (`plan`: a `planner.Result`, see docs/planner.md)",
		Wrong: "—"},
	{Env: "LANG", Flag: "lang", Commands: []string{"run", "plan", "exec"}, Default: "`LC_ALL`, else `LC_MESSAGES`, else `LANG` (`ko_KR.UTF-8`: Korean); none, or `C`: the request's own language",
		What:  "the answer's language, `ko` or `en` (before or after the request); `--json` keeps English field names and says `\"lang\"`",
		Wrong: "`--lang` another language: exit 2; a locale gpuplan does not speak: English"},
	{Env: "LC_ALL", Commands: []string{"run", "plan", "exec"}, Default: "unset",
		What:  "the POSIX locale override; read before `LC_MESSAGES` and `LANG` for the answer's language (see `--lang`)",
		Wrong: "a locale gpuplan does not speak: English"},
	{Env: "LC_MESSAGES", Commands: []string{"run", "plan", "exec"}, Default: "unset",
		What:  "the POSIX locale for messages; read before `LANG` for the answer's language (see `--lang`)",
		Wrong: "a locale gpuplan does not speak: English"},
	{Flag: "channel", Commands: []string{"run", "plan"}, Default: "none",
		What:  "the Slack channel id a terminal command acts for (`digest` schedules default to it)",
		Wrong: "—"},
	{Flag: "request-id", Commands: []string{"run", "plan"}, Default: "a new one per run",
		What:  "the change's idempotency key: the same id applies once. Printed when the store stopped answering after a change was sent (exit 6); rerun with it to retry safely",
		Wrong: "—"},
	{Flag: "files", Commands: []string{"run", "plan"}, Default: "none",
		What:  "write a reply's attachments (the digest's chart) into this directory",
		Wrong: "unwritable: the answer is printed, then exit 1 naming the file"},
	{Env: "GPUPLAN_EXEC_LEASE", Commands: []string{"exec"}, Default: "`5m`",
		What:  "how long an `exec` booking holds its GPUs beyond the last heartbeat (renewed every third of it while the command runs): a gpuplan killed with -9 frees them this long after",
		Wrong: "not a duration from 1s to 1h: exits 2"},
	{Flag: "on", Commands: []string{"exec"}, Default: "the server whose `host:` is this machine",
		What:  "the server `exec` books on",
		Wrong: "not in the inventory, or no server for this host: exits 2 naming the servers"},
	{Flag: "gpus", Commands: []string{"exec"}, Default: "—",
		What:  "how many GPUs `exec` books: the free ones the agent saw idle first, then the least recently booked",
		Wrong: "more than the server has: exits 2"},
	{Flag: "ids", Commands: []string{"exec"}, Default: "—",
		What:  "exactly these GPU ids for `exec` (`0,2`, `0-3`), instead of `--gpus`",
		Wrong: "an id the server does not have: exits 2"},
	{Flag: "for", Commands: []string{"exec"}, Default: "the server's `max_duration`",
		What:  "the longest an `exec` command may hold its GPUs; at the end it gets SIGTERM (SIGKILL 10 s later) and `exec` exits 124",
		Wrong: "longer than the server's maximum, or not a duration: exits 2"},
	{Flag: "wait", Commands: []string{"exec"}, Default: "off (`--wait` alone: 1h)",
		What:  "when the GPUs are not free, join the waiting list and start when they are (`--wait=30m` gives up after 30 min, exit 75)",
		Wrong: "not a duration: exits 2"},
	{Env: "GPUPLAN_AGENT_SERVER", Flag: "server", Commands: []string{"agent"}, Default: "the host name, lower-cased",
		What:  "this GPU server's name in the inventory (`servers.yaml` `name:`)",
		Wrong: "not a valid server name: exits 2; a name that is not the inventory's: its readings are kept under a server nobody asks about"},
	{Env: "GPUPLAN_AGENT_EVERY", Flag: "every", Commands: []string{"agent"}, Default: "`30s`",
		What:  "how often the agent samples `nvidia-smi`, 1s to 5m",
		Wrong: "not a duration or out of range: exits 2"},
	{Env: "GPUPLAN_AGENT_NVIDIA_SMI", Flag: "nvidia-smi", Commands: []string{"agent"}, Default: "`nvidia-smi` on `$PATH`",
		What:  "the `nvidia-smi` binary",
		Wrong: "missing or failing: the agent keeps running and sends heartbeats that say why (`--once` exits 1)"},
	{Flag: "once", Commands: []string{"agent"}, Default: "off",
		What:  "sample once, print the reading as JSON and exit; needs no store",
		Wrong: "—"},
	{Flag: "proc", Commands: []string{"agent"}, Default: "`/proc`",
		What:  "the proc filesystem, where GPU processes' owners are read",
		Wrong: "unreadable: GPU processes are reported without their owners"},
}

// EnvVars is every environment variable in Settings.
func EnvVars() []string {
	var out []string
	for _, s := range Settings {
		if s.Env != "" {
			out = append(out, s.Env)
		}
	}
	return out
}

// settingFor finds a variable's row.
func settingFor(env string) (Setting, bool) {
	for _, s := range Settings {
		if s.Env == env {
			return s, true
		}
	}
	return Setting{}, false
}

// ConfigReferenceMarkdown renders Settings as the README's table.
func ConfigReferenceMarkdown() string {
	var b strings.Builder
	b.WriteString("| variable / flag | read by | default | what it does | when it is wrong |\n")
	b.WriteString("|---|---|---|---|---|\n")
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for _, s := range Settings {
		var names []string
		if s.Env != "" {
			names = append(names, "`"+s.Env+"`")
		}
		if s.Flag != "" {
			names = append(names, "`--"+s.Flag+"`")
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", strings.Join(names, ", "), strings.Join(s.Commands, ", "),
			cell(s.Default), cell(s.What), cell(s.Wrong))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// applyEnvPrices sets GPUPLAN_PRICES ("h100=2.1,a100=1.2") on cat, as the
// terminal commands do.
func applyEnvPrices(cat *planner.Catalog, getenv func(string) string) error {
	env := getenv("GPUPLAN_PRICES")
	if env == "" {
		return nil
	}
	var prices priceFlags
	for _, kv := range strings.Split(env, ",") {
		if err := prices.Set(strings.TrimSpace(kv)); err != nil {
			return fmt.Errorf("GPUPLAN_PRICES: %w", err)
		}
	}
	for _, p := range prices {
		if err := cat.SetPrice(p.gpu, p.usd); err != nil {
			return fmt.Errorf("GPUPLAN_PRICES: %s=%g: %w", p.gpu, p.usd, err)
		}
	}
	return nil
}

// krwPerUSD reads GPUPLAN_KRW_PER_USD: won per dollar, 0 when unset.
func krwPerUSD(getenv func(string) string) (float64, error) {
	v := strings.TrimSpace(getenv("GPUPLAN_KRW_PER_USD"))
	if v == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", ""), 64)
	if err != nil || f <= 0 || math.IsInf(f, 0) {
		return 0, fmt.Errorf("GPUPLAN_KRW_PER_USD=%q: want won per dollar, a positive number like 1400", v)
	}
	return f, nil
}
