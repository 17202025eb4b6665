package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/agent"
	"github.com/gpuplan/gpuplan/store"
)

const agentUsage = `gpuplan agent — report this GPU server's usage to the team's bot

Usage:
  gpuplan agent [--server NAME] [--every 30s] [--nvidia-smi PATH]
  gpuplan agent --once [--nvidia-smi PATH]   sample once, print the reading as JSON, exit

Runs on each GPU server (see deploy/systemd/). Every --every it runs
nvidia-smi, finds the Unix user that owns each GPU process in /proc, and
records the reading in the reservation store; the bot turns the readings
into usage digests and maps Unix users to Slack users with the inventory's
users: section. Details: docs/agent.md.

The store is the bot's, from the same environment as gpuplan serve:
REDIS_URL (or REDIS_SENTINEL_ADDRS and REDIS_MASTER_NAME), REDIS_PASSWORD.
In production the agent needs that shared Redis: without REDIS_URL it
opens the embedded store, a file only one process can hold, so the agent
and the bot could not share it. --once needs no store.

When nvidia-smi is missing or fails, the agent keeps running and sends
heartbeats that say why; while the store is unreachable it keeps up to two
hours of readings in memory and sends them when the store is back.

Flags:
`

type agentConfig struct {
	server    string
	every     time.Duration
	nvidiaSMI string
	once      bool
	proc      string
	logLevel  string
}

func parseAgentFlags(args []string, getenv func(string) string, stderr io.Writer) (*agentConfig, error) {
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, agentUsage)
		fs.PrintDefaults()
	}
	c := &agentConfig{}
	host, _ := os.Hostname()
	fs.StringVar(&c.server, "server", envOr(getenv, "GPUPLAN_AGENT_SERVER", strings.ToLower(host)),
		"this server's name in the inventory (env GPUPLAN_AGENT_SERVER; default: the host name)")
	every := envOr(getenv, "GPUPLAN_AGENT_EVERY", agent.DefaultEvery.String())
	fs.StringVar(&every, "every", every, "sampling interval, 1s to 5m (env GPUPLAN_AGENT_EVERY)")
	fs.StringVar(&c.nvidiaSMI, "nvidia-smi", envOr(getenv, "GPUPLAN_AGENT_NVIDIA_SMI", "nvidia-smi"),
		"the nvidia-smi binary: a name on $PATH or a path (env GPUPLAN_AGENT_NVIDIA_SMI)")
	fs.BoolVar(&c.once, "once", false, "sample once, print the reading as JSON to stdout and exit (1 if nvidia-smi could not be read)")
	fs.StringVar(&c.proc, "proc", "/proc", "the proc filesystem, where process owners are read")
	fs.StringVar(&c.logLevel, "log-level", envOr(getenv, "GPUPLAN_LOG_LEVEL", "info"), "debug, info, warn or error (env GPUPLAN_LOG_LEVEL)")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q (see gpuplan agent -h)", fs.Arg(0))
	}
	d, err := time.ParseDuration(every)
	if err != nil {
		return nil, fmt.Errorf("--every %q: not a duration (try 30s)", every)
	}
	if d < time.Second || d > store.MaxSampleWeight {
		// Longer than MaxSampleWeight and the store would count only part
		// of each interval.
		return nil, fmt.Errorf("--every %v: use 1s to %v", d, store.MaxSampleWeight)
	}
	c.every = d
	if !store.ValidServerName(c.server) {
		return nil, fmt.Errorf("server name %q: set --server (or GPUPLAN_AGENT_SERVER) to the server's name in the inventory: lowercase letters, digits, '-', '_', '.'", c.server)
	}
	return c, nil
}

// agentMain runs `gpuplan agent`.
func agentMain(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	c, err := parseAgentFlags(args, getenv, stderr)
	if err == flag.ErrHelp {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "gpuplan agent:", err)
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		fmt.Fprintf(stderr, "gpuplan agent: log level %q: use debug, info, warn or error\n", c.logLevel)
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	a, err := agent.New(agent.Config{
		Server: c.server,
		Every:  c.every,
		Runner: agent.ExecRunner{Path: c.nvidiaSMI},
		Owners: &agent.Owners{Proc: c.proc},
		Log:    log,
	})
	if err != nil {
		fmt.Fprintln(stderr, "gpuplan agent:", err)
		return 2
	}
	if c.once {
		b := a.Sample(ctx)
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(b); err != nil {
			fmt.Fprintln(stderr, "gpuplan agent:", err)
			return 3
		}
		if b.Err != "" {
			return 1
		}
		return 0
	}

	st, where, warnings, err := openStore(ctx, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "gpuplan agent:", err)
		return 2
	}
	defer st.Close()
	for _, w := range warnings {
		log.Warn("reservation store", "warning", w)
	}
	sink, ok := st.(agent.Sink)
	if !ok {
		fmt.Fprintf(stderr, "gpuplan agent: the %s cannot record GPU samples (this build's store has no RecordSamples)\n", where)
		return 2
	}
	if getenv("REDIS_URL") == "" && getenv("REDIS_SENTINEL_ADDRS") == "" {
		log.Warn("no REDIS_URL: recording into the embedded store, which the bot cannot open at the same time; set REDIS_URL to the bot's Redis", "store", where)
	}
	log.Info("recording GPU samples", "store", where, "nvidia_smi", c.nvidiaSMI)
	a.Run(ctx, sink)
	return 0
}
