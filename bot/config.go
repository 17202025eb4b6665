package bot

import (
	"fmt"
	"strings"
	"time"
)

// Secret is a token that never prints: fmt, zap and JSON all see
// "[redacted]". Use Reveal only where the value is handed to Slack.
type Secret string

func (s Secret) String() string { return "[redacted]" }

// GoString keeps %#v from printing the value.
func (s Secret) GoString() string { return "[redacted]" }

// MarshalJSON keeps the value out of JSON.
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"[redacted]"`), nil }

// MarshalText keeps the value out of text encoders (zap, yaml).
func (s Secret) MarshalText() ([]byte, error) { return []byte("[redacted]"), nil }

// Reveal returns the token itself.
func (s Secret) Reveal() string { return string(s) }

// Config is what the bot needs to run.
type Config struct {
	AppToken Secret // xapp-…, Socket Mode connection
	BotToken Secret // xoxb-…, Web API
	// APIURL points the Slack client at another API base (a local fake in
	// tests); empty means Slack itself.
	APIURL string
	// Workers bounds how many commands run at once (default 16).
	Workers int
	// AckBudget is how long a slash command may compute before it is acked
	// without an answer and finished through response_url (default 1.5 s,
	// well inside Slack's 3 s).
	AckBudget time.Duration
	// DrainTimeout bounds how long shutdown waits for in-flight work
	// (default 20 s).
	DrainTimeout time.Duration
	// DedupeTTL is how long an envelope or event id is remembered; Slack's
	// last retry comes ~5 minutes after the first delivery (default 10 min).
	DedupeTTL time.Duration
	// StartBackoff is the first wait between tries to reach Slack at
	// start; it doubles up to a minute (default 1 s).
	StartBackoff time.Duration
	// ReconnectBackoff is the first pause before reconnecting when Slack
	// says to stay away (too_many_websockets, link_disabled); it doubles
	// up to 5 minutes while that goes on (default 1 s).
	ReconnectBackoff time.Duration
	// DedupeTimeout bounds the shared (Redis) duplicate check, which runs
	// off the event loop; past it the envelope is processed (default
	// 50 ms), so a slow Redis never holds an ack back longer.
	DedupeTimeout time.Duration
	// PingInterval is how long to wait for Slack's pings before
	// reconnecting (slack-go default 30 s).
	PingInterval time.Duration
	// Observer is told about commands, acks and connections (metrics);
	// nil means NopObserver.
	Observer Observer
}

// TokenError says which token is wrong and how to fix it, without its value.
type TokenError struct {
	Name, Want, Where, Problem string
}

func (e *TokenError) Error() string {
	if e.Want == "" {
		return fmt.Sprintf("%s %s — %s", e.Name, e.Problem, e.Where)
	}
	return fmt.Sprintf("%s %s: it must start with %q — %s", e.Name, e.Problem, e.Want, e.Where)
}

const (
	appTokenWhere = "create it at api.slack.com/apps → your app → Basic Information → App-Level Tokens, with the connections:write scope"
	botTokenWhere = "copy the Bot User OAuth Token from api.slack.com/apps → your app → OAuth & Permissions (install the app first)"
)

// Validate checks the tokens' presence and prefixes and fills defaults.
// Swapped tokens get their own message: it is the usual mistake.
func (c *Config) Validate() error {
	app, botTok := c.AppToken.Reveal(), c.BotToken.Reveal()
	switch {
	case strings.HasPrefix(app, "xoxb-") && strings.HasPrefix(botTok, "xapp-"):
		return &TokenError{Name: "SLACK_APP_TOKEN and SLACK_BOT_TOKEN", Problem: "are swapped",
			Where: "put the xapp- token in SLACK_APP_TOKEN and the xoxb- token in SLACK_BOT_TOKEN"}
	case app == "":
		return &TokenError{Name: "SLACK_APP_TOKEN", Want: "xapp-", Problem: "is not set", Where: appTokenWhere}
	case !strings.HasPrefix(app, "xapp-"):
		return &TokenError{Name: "SLACK_APP_TOKEN", Want: "xapp-", Problem: "has the wrong prefix", Where: appTokenWhere}
	case botTok == "":
		return &TokenError{Name: "SLACK_BOT_TOKEN", Want: "xoxb-", Problem: "is not set", Where: botTokenWhere}
	case !strings.HasPrefix(botTok, "xoxb-"):
		return &TokenError{Name: "SLACK_BOT_TOKEN", Want: "xoxb-", Problem: "has the wrong prefix", Where: botTokenWhere}
	}
	if c.APIURL != "" && !strings.HasSuffix(c.APIURL, "/") {
		c.APIURL += "/"
	}
	if c.Workers <= 0 {
		c.Workers = 16
	}
	if c.AckBudget <= 0 {
		c.AckBudget = 1500 * time.Millisecond
	}
	if c.DrainTimeout <= 0 {
		c.DrainTimeout = 20 * time.Second
	}
	if c.DedupeTTL <= 0 {
		c.DedupeTTL = 10 * time.Minute
	}
	if c.StartBackoff <= 0 {
		c.StartBackoff = time.Second
	}
	if c.ReconnectBackoff <= 0 {
		c.ReconnectBackoff = time.Second
	}
	if c.DedupeTimeout <= 0 {
		c.DedupeTimeout = 50 * time.Millisecond
	}
	if c.PingInterval <= 0 {
		c.PingInterval = 30 * time.Second
	}
	return nil
}
