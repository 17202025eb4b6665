package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/gorilla/websocket"
	"github.com/gpuplan/gpuplan/bot"
	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/planner"
	"github.com/gpuplan/gpuplan/store"
	"go.uber.org/zap"
)

const doctorUsage = `Usage: gpuplan doctor [flags]

Checks tokens, scopes, the servers file, the reservation store and the Slack connection, and says
how to fix what is wrong; exits 1 when a check fails.

The embedded store's file (no REDIS_URL; GPUPLAN_DB names it):
  gpuplan doctor --repair               put the rolling backup (<file>.bak) back when the file does not
                                        pass the check; the damaged file is kept as <file>.broken-<time>
                                        (--restore is the same)
  gpuplan doctor --new-store            set a damaged, empty or foreign file aside (kept, renamed) so the
                                        next start begins an empty store
  gpuplan doctor --new-store --confirm  the same for a file that passes the check but still holds
                                        reservations or digest subscriptions (refused without --confirm)

Flags:
`

// doctor checks what serve needs and says how to fix what is wrong. A
// failed check does not stop the others: one run names every problem.
// --repair and --new-store act on the embedded store's file instead
// (repairStore).
func doctor(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	// The store-file actions are words of their own, not serve's flags
	// (Settings lists those): they are taken out before the rest is parsed.
	var repair, newStore, confirm bool
	var rest []string
	for _, a := range args {
		switch a {
		case "--repair", "-repair", "--restore", "-restore":
			repair = true
		case "--new-store", "-new-store":
			newStore = true
		case "--confirm", "-confirm":
			confirm = true
		default:
			rest = append(rest, a)
		}
	}
	c, err := parseServeFlags("doctor", rest, getenv, stderr, func(fs *flag.FlagSet) {
		fs.Usage = func() { fmt.Fprint(fs.Output(), doctorUsage); fs.PrintDefaults() }
	})
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	switch {
	case repair && newStore:
		fmt.Fprintln(stderr, "gpuplan doctor: --repair or --new-store, not both")
		return 2
	case confirm && !newStore:
		fmt.Fprintln(stderr, "gpuplan doctor: --confirm goes with --new-store")
		return 2
	case repair:
		return repairStore(getenv, stdout)
	case newStore:
		return newEmbeddedStore(getenv, confirm, time.Now(), stdout)
	}
	ok := true
	check := func(name string, err error, good string) bool {
		if err != nil {
			ok = false
			fmt.Fprintf(stdout, "✗ %s: %v\n", name, err)
			return false
		}
		fmt.Fprintf(stdout, "✓ %s: %s\n", name, good)
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	b, err := bot.New(c.bot, zap.NewNop(), commands.New(commands.Deps{}), nil)
	if check("tokens", err, "SLACK_APP_TOKEN is xapp-…, SLACK_BOT_TOKEN is xoxb-…") {
		doctorSlack(ctx, b, check)
	}
	inv, invFrom, err := loadInventory(planner.DefaultCatalog(), getenv)
	check("servers", err, fmt.Sprintf("%d from %s", lenServers(inv), invFrom))
	st, where, warnings, err := openStore(ctx, getenv)
	switch {
	case errors.Is(err, store.ErrUnsafeRedis):
		check("reservation store", nil, "Redis answers")
		check("redis policy", err, "")
	case check("reservation store", err, where):
		_, err := st.Now(ctx)
		check("reservation store answers", err, "yes")
		if getenv("REDIS_URL") != "" || getenv("REDIS_SENTINEL_ADDRS") != "" {
			good := "maxmemory-policy noeviction and append-only persistence"
			if len(warnings) > 0 {
				good = "no eviction policy, but see below"
			}
			check("redis policy", nil, good)
		}
		for _, w := range warnings {
			fmt.Fprintln(stdout, "! redis policy:", w)
		}
		st.Close()
	}
	if !ok {
		return 1
	}
	return 0
}

// doctorSlack checks the bot token, its scopes against the manifest's and
// the Socket Mode connection.
func doctorSlack(ctx context.Context, b *bot.Bot, check func(name string, err error, good string) bool) {
	scopes, err := b.Identify(ctx)
	if check("bot token (auth.test)", err, "accepted") {
		have := map[string]bool{}
		for _, s := range scopes {
			have[s] = true
		}
		var missing []string
		for _, r := range bot.RequiredScopes {
			if !have[r.Scope] {
				missing = append(missing, fmt.Sprintf("%s (%s)", r.Scope, r.Why))
			}
		}
		if len(scopes) == 0 {
			check("scopes", errors.New("the token's scopes were not reported by Slack"), "")
		} else if len(missing) > 0 {
			check("scopes", fmt.Errorf("missing %s — add them under OAuth & Permissions (or re-create the app from deploy/slack-app-manifest.yaml) and reinstall the app", strings.Join(missing, ", ")), "")
		} else {
			check("scopes", nil, fmt.Sprintf("all %d present", len(bot.RequiredScopes)))
		}
	}
	check("socket mode connection", socketCheck(ctx, b), "apps.connections.open answered and the websocket said hello")
}

// socketCheck opens a Socket Mode connection and waits for hello.
func socketCheck(ctx context.Context, b *bot.Bot) error {
	_, url, err := b.API().StartSocketModeContext(ctx)
	if err != nil {
		switch slackCode(err) {
		case "invalid_auth", "not_authed":
			return fmt.Errorf("SLACK_APP_TOKEN was refused (%v): create an app-level token with connections:write under Basic Information → App-Level Tokens", err)
		case "not_allowed":
			return fmt.Errorf("%v: turn on Socket Mode at api.slack.com/apps → your app → Socket Mode", err)
		}
		return fmt.Errorf("apps.connections.open: %w", err)
	}
	conn, _, err := websocket.DefaultDialer.DialContext(ctx, url, http.Header{})
	if err != nil {
		return fmt.Errorf("websocket: %w", err)
	}
	defer conn.Close()
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	var hello struct {
		Type string `json:"type"`
	}
	if err := conn.ReadJSON(&hello); err != nil || hello.Type != "hello" {
		return fmt.Errorf("no hello from Slack (%v)", err)
	}
	return nil
}

// embeddedFile is the embedded store's file, or why --repair and
// --new-store do not apply.
func embeddedFile(getenv func(string) string, stdout io.Writer) (string, bool) {
	if getenv("REDIS_URL") != "" || getenv("REDIS_SENTINEL_ADDRS") != "" {
		fmt.Fprintln(stdout, "✗ repair: the store is Redis (REDIS_URL is set); --repair and --new-store are for the embedded store file")
		return "", false
	}
	path, err := embeddedPath(getenv)
	if err != nil {
		fmt.Fprintln(stdout, "✗ repair:", err)
		return "", false
	}
	return path, true
}

// repairStore is `gpuplan doctor --repair`: it puts the rolling backup
// back when the file does not pass the check (the damaged file is kept
// aside). It deletes nothing.
func repairStore(getenv func(string) string, stdout io.Writer) int {
	path, ok := embeddedFile(getenv, stdout)
	if !ok {
		return 2
	}
	if err := store.CheckEmbedded(path); err == nil {
		fmt.Fprintf(stdout, "✓ store file %s passes the check; nothing to repair\n", path)
		return 0
	} else if _, serr := os.Stat(path); serr != nil && errors.Is(serr, os.ErrNotExist) {
		fmt.Fprintf(stdout, "! store file %s does not exist; it is created on the first start\n", path)
	} else {
		fmt.Fprintf(stdout, "! %v\n", err)
	}
	kept, err := store.RestoreEmbedded(path)
	if err != nil {
		fmt.Fprintln(stdout, "✗ repair:", err)
		return exitUnavailable
	}
	if kept != "" {
		fmt.Fprintf(stdout, "✓ repair: %s restored from its backup %s; the damaged file is kept as %s\n", path, store.BackupPath(path), kept)
	} else {
		fmt.Fprintf(stdout, "✓ repair: %s restored from its backup %s\n", path, store.BackupPath(path))
	}
	return 0
}

// newEmbeddedStore is `gpuplan doctor --new-store`: the file is set aside
// (renamed, never deleted) so that the next start begins an empty store.
// A damaged, empty or foreign file goes at once; one that passes the check
// is a working store, so while it holds reservations that have not ended
// or digest subscriptions it is set aside only with --confirm, and the
// refusal says what would be left behind and the way to keep it.
func newEmbeddedStore(getenv func(string) string, confirm bool, now time.Time, stdout io.Writer) int {
	path, ok := embeddedFile(getenv, stdout)
	if !ok {
		return 2
	}
	if store.CheckEmbedded(path) == nil {
		h, err := store.EmbeddedHolds(path, now)
		if err != nil {
			fmt.Fprintln(stdout, "✗ new store:", err)
			return exitUnavailable
		}
		if (h.Live > 0 || h.Subscriptions > 0) && !confirm {
			fmt.Fprintf(stdout, "✗ new store: %s passes the check and holds %s; a new store would start without them. "+
				"Nothing was changed. If the store works, keep it (`gpuplan doctor` checks it; `--repair` is for a damaged file); "+
				"to set it aside anyway (it is kept, renamed), run `gpuplan doctor --new-store --confirm`\n", path, holdings(h))
			return exitRefused
		}
	}
	kept, err := store.NewEmbeddedFile(path)
	if err != nil {
		fmt.Fprintln(stdout, "✗ new store:", err)
		return exitUnavailable
	}
	if kept != "" {
		fmt.Fprintf(stdout, "✓ new store: %s was kept as %s; the next start begins an empty store\n", path, kept)
	} else {
		fmt.Fprintf(stdout, "✓ new store: there was no %s; the next start creates it\n", path)
	}
	return 0
}

// holdings says what a store holds, in words.
func holdings(h store.Holdings) string {
	var parts []string
	if h.Live > 0 {
		parts = append(parts, fmt.Sprintf("%d reservation(s) that have not ended, on %d server(s)", h.Live, h.Servers))
	}
	if h.Subscriptions > 0 {
		parts = append(parts, fmt.Sprintf("%d digest subscription(s)", h.Subscriptions))
	}
	return strings.Join(parts, " and ")
}
