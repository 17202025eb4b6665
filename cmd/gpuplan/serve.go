package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gpuplan/gpuplan/bot"
	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/digest/schedule"
	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/planner"
	"github.com/gpuplan/gpuplan/store"
	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// serveConfig is the bot's configuration from the environment and flags.
type serveConfig struct {
	bot        bot.Config
	logLevel   string
	logFormat  string
	sweepEvery time.Duration
	httpAddr   string // health and metrics; "" turns them off
}

// more adds a command's own flags (doctor's --repair, --new-store).
func parseServeFlags(name string, args []string, getenv func(string) string, stderr io.Writer, more ...func(*flag.FlagSet)) (*serveConfig, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &serveConfig{}
	fs.StringVar(&c.bot.APIURL, "api-url", getenv("SLACK_API_URL"), "Slack API base URL (env SLACK_API_URL; for a local fake Slack)")
	fs.StringVar(&c.logLevel, "log-level", envOr(getenv, "GPUPLAN_LOG_LEVEL", "info"), "debug, info, warn or error (env GPUPLAN_LOG_LEVEL)")
	fs.StringVar(&c.logFormat, "log-format", envOr(getenv, "GPUPLAN_LOG_FORMAT", "json"), "json or console (env GPUPLAN_LOG_FORMAT)")
	fs.DurationVar(&c.bot.DrainTimeout, "drain-timeout", 20*time.Second, "how long shutdown waits for in-flight commands")
	fs.IntVar(&c.bot.Workers, "workers", 16, "commands that may run at once")
	fs.DurationVar(&c.sweepEvery, "sweep-every", 30*time.Second, "how often reminders, expiries and waiting lists are checked")
	fs.StringVar(&c.httpAddr, "http-addr", envOr(getenv, "GPUPLAN_HTTP_ADDR", defaultHTTPAddr), "address for /healthz, /readyz and /metrics; empty or off: none (env GPUPLAN_HTTP_ADDR)")
	for _, m := range more {
		m(fs)
	}
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	// Tokens come from the environment only: flags show up in `ps`.
	c.bot.AppToken = bot.Secret(strings.TrimSpace(getenv("SLACK_APP_TOKEN")))
	c.bot.BotToken = bot.Secret(strings.TrimSpace(getenv("SLACK_BOT_TOKEN")))
	return c, nil
}

func envOr(getenv func(string) string, k, def string) string {
	if v := getenv(k); v != "" {
		return v
	}
	return def
}

// newLogger builds the zap logger for serve/doctor.
func newLogger(level, format string, w io.Writer) (*zap.Logger, error) {
	var lvl zapcore.Level
	if err := lvl.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("log level %q: use debug, info, warn or error", level)
	}
	encCfg := zap.NewProductionEncoderConfig()
	encCfg.TimeKey = "ts"
	encCfg.EncodeTime = zapcore.ISO8601TimeEncoder
	var enc zapcore.Encoder
	switch format {
	case "json":
		enc = zapcore.NewJSONEncoder(encCfg)
	case "console":
		enc = zapcore.NewConsoleEncoder(encCfg)
	default:
		return nil, fmt.Errorf("log format %q: use json or console", format)
	}
	return zap.New(zapcore.NewCore(enc, zapcore.AddSync(w), lvl)), nil
}

// serve runs the Slack bot until SIGINT/SIGTERM, then drains and exits 0.
// Each part it builds is pushed on a teardown stack as it is built; the
// bot drains inside b.Run, and then the stack stops the rest, last built
// first. It runs past 80 lines on purpose: it is the one place the parts
// are built, in order, each in a few lines, and reads best in one piece.
func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	c, err := parseServeFlags("serve", args, getenv, stderr)
	if err != nil {
		return 2
	}
	log, err := newLogger(c.logLevel, c.logFormat, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "gpuplan serve:", err)
		return 2
	}
	down := &teardown{log: log}
	defer down.run()
	down.add("logger", func() { _ = log.Sync() }) // nothing to do if stderr is gone
	cat := planner.DefaultCatalog()
	inv, invFrom, err := loadInventory(cat, getenv)
	if err == nil {
		err = applyEnvPrices(cat, getenv) // as in the terminal: over the inventory's
	}
	krw, krwErr := krwPerUSD(getenv)
	if err == nil {
		err = krwErr
	}
	if err != nil {
		fmt.Fprintln(stderr, "gpuplan serve:", err)
		return 2
	}
	redis.SetLogger(redisLogger{log.Named("redis")}) // go-redis's own notes, as JSON lines like the rest
	st, where, warnings, err := openStore(ctx, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "gpuplan serve:", err)
		return 2
	}
	down.add("store", func() { st.Close() })
	for _, w := range warnings {
		log.Warn("reservation store", zap.String("warning", w))
	}
	log.Info("reservations", zap.String("store", where), zap.String("servers", invFrom), zap.Int("count", len(inv.Servers)))
	metrics := newMetrics()
	rawStore := st
	st = meterStore(st, metrics) // the "store" step closes the store itself
	watch, _ := st.(store.Watch) // both backends have it; the metered store keeps it
	set := commands.New(commands.Deps{Catalog: cat, Inventory: inv, Reservations: st, Watch: watch, Schedule: schedule.NextFunc,
		Models: hubModels(getenv), KRWPerUSD: krw})
	metrics.setCommands(set.Commands())
	metrics.watchFleet(st, serverNames(inv))
	c.bot.Observer = metrics
	// Replicas sharing a Redis de-duplicate Slack's redeliveries there.
	var dedup bot.Deduper
	if d, ok := st.(bot.Deduper); ok {
		dedup = &storeDeduper{d: d, timeout: dedupTimeout}
	}
	b, err := bot.New(c.bot, log, set, dedup)
	if err != nil {
		fmt.Fprintln(stderr, "gpuplan serve:", err)
		return 2
	}
	log.Info("starting", zap.String("api", apiName(c.bot.APIURL)), zap.Int("workers", c.bot.Workers))
	// Health and metrics: up before the bot connects (liveness), stopped
	// after it has drained and the sweeps have stopped.
	if c.httpAddr != "" && c.httpAddr != "off" {
		ready := &readiness{connected: b.Connected, now: time.Now, log: log.Named("health"),
			ping: func(ctx context.Context) error { _, err := st.Now(ctx); return err }}
		hs, err := startHTTP(c.httpAddr, newHTTPHandler(metrics.Registry(), ready), log)
		if err != nil {
			fmt.Fprintln(stderr, "gpuplan serve:", err)
			return 2
		}
		down.add("http", func() { hs.stop(5 * time.Second) })
	}
	// Reminders, expiry updates and waiting lists: a sweep every half
	// minute, stopped and waited for before serve returns.
	sweepCtx, stopSweeps := context.WithCancel(ctx)
	var sweeps sync.WaitGroup
	sweeps.Go(func() { b.RunSweeps(sweepCtx, countNudges{set, metrics}, c.sweepEvery) })
	// The Redis policy was checked at start; it is re-read while serving.
	if r, ok := rawStore.(*store.Redis); ok {
		sweeps.Go(func() { watchRedisPolicy(sweepCtx, r, metrics, redisPolicyEvery, log.Named("redis")) })
	}
	// Digests: every replica runs the scheduler; a claim per slot in the
	// store lets one post.
	if watch != nil {
		sched := newScheduler(set, watch, st.Now, b.Post, log.Named("digest"), replicaName())
		sched.posted = metrics.DigestPosted
		sweeps.Go(func() { sched.Run(sweepCtx, inv.Timezone) })
	}
	down.add("sweeps and digests", func() { stopSweeps(); sweeps.Wait() })
	if err := b.Run(ctx); err != nil {
		var te *bot.TokenError
		if errors.As(err, &te) {
			fmt.Fprintln(stderr, "gpuplan serve:", err)
			return 2
		}
		log.Error("bot stopped", zap.Error(err))
		return 1
	}
	log.Info("stopped")
	return 0
}

// redisLogger routes go-redis's internal log lines (pool dial failures,
// Sentinel switching masters) through zap instead of raw stderr.
type redisLogger struct{ log *zap.Logger }

func (l redisLogger) Printf(_ context.Context, format string, v ...any) {
	l.log.Warn(fmt.Sprintf(format, v...))
}

// countNudges counts the idle nudges a sweep hands the bot.
type countNudges struct {
	set *commands.Set
	m   *Metrics
}

func (c countNudges) Sweep(ctx context.Context) ([]commands.Notice, error) {
	ns, err := c.set.Sweep(ctx)
	for _, n := range ns {
		if n.Kind == "nudge" {
			c.m.NudgeSent()
		}
	}
	return ns, err
}

// replicaName names this process in digest claims and logs: host, pid and
// a random suffix, so two replicas never share a lease.
func replicaName() string {
	host, _ := os.Hostname()
	var b [3]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s-%d-%x", host, os.Getpid(), b)
}

func serverNames(inv *inventory.Inventory) []string {
	names := make([]string, len(inv.Servers))
	for i, s := range inv.Servers {
		names[i] = s.Name
	}
	return names
}

func apiName(u string) string {
	if u == "" {
		return "slack.com"
	}
	return u
}

func lenServers(inv *inventory.Inventory) int {
	if inv == nil {
		return 0
	}
	return len(inv.Servers)
}

// storeDeduper is the store as the bot's Deduper. The bot asks it on its
// event loop, before the ack, so each call is bounded (dedupTimeout, well
// inside Slack's 3 s), and after a store error the store is not asked
// again for dedupPause: the bot then handles envelopes without
// de-duplication (it logs each one) rather than holding every envelope
// for a timeout while Redis is away. The timeout is not shorter because
// a spurious one (a loaded host) costs the pause's de-duplication.
type storeDeduper struct {
	d       bot.Deduper
	timeout time.Duration
	mu      sync.Mutex
	pausing time.Time // until then, skip the store
}

const (
	dedupTimeout = time.Second
	dedupPause   = 2 * time.Second
)

var errDedupPaused = errors.New("dedupe store skipped for a few seconds after an error")

func (s *storeDeduper) FirstSeen(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	s.mu.Lock()
	paused := time.Now().Before(s.pausing)
	s.mu.Unlock()
	if paused {
		return false, errDedupPaused
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	ok, err := s.d.FirstSeen(ctx, key, ttl)
	if err != nil {
		s.mu.Lock()
		s.pausing = time.Now().Add(dedupPause)
		s.mu.Unlock()
	}
	return ok, err
}
