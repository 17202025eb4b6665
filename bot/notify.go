package bot

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/slack-go/slack"
	"go.uber.org/zap"
)

// Notify delivers a notice the commands decided on without being asked:
// a DM (reminders, waiting lists) or an update of an announcement.
func (b *Bot) Notify(ctx context.Context, n commands.Notice) error {
	msg := renderReply(n.Reply, maxMessageBlocks)
	opts := []slack.MsgOption{slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(msg.Blocks...)}
	if n.User != "" {
		ch, _, _, err := b.api.OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{n.User}})
		if err != nil {
			return fmt.Errorf("open DM with %s: %w", n.User, err)
		}
		_, _, err = b.api.PostMessageContext(ctx, ch.ID, opts...)
		return err
	}
	_, _, _, err := b.api.UpdateMessageContext(ctx, n.Channel, n.TS, opts...)
	return err
}

// Sweeper is what the bot's sweep loop asks for notices (a *commands.Set).
type Sweeper interface {
	Sweep(ctx context.Context) ([]commands.Notice, error)
}

// RunSweeps calls s.Sweep every interval until ctx ends and delivers what
// it returns, each DM in its reader's Slack language; errors are logged,
// never fatal.
func (b *Bot) RunSweeps(ctx context.Context, s Sweeper, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		ns, err := s.Sweep(commands.WithUserLang(ctx, b.userLang))
		if err != nil {
			b.log.Warn("sweep failed", zap.Error(err))
		}
		for _, n := range ns {
			if err := b.Notify(ctx, n); err != nil {
				b.log.Warn("notice not delivered", zap.String("kind", n.Kind), zap.String("user", n.User), zap.Error(err))
			} else {
				b.log.Info("notice delivered", zap.String("kind", n.Kind), zap.String("user", n.User))
			}
		}
	}
}

// tzCache keeps what users.info says of a user for an hour: their time
// zone and the language they read (Slack's locale).
type tzCache struct {
	mu       sync.Mutex
	m        map[string]tzEntry
	inflight map[string]chan struct{} // users.info asked and not yet answered
}

type tzEntry struct {
	loc    *time.Location // nil: Slack has no zone gpuplan can load
	lang   i18n.Lang      // "": a locale gpuplan does not speak
	at     time.Time
	failed bool // users.info failed: asked again after failedUserTTL
}

// failedUserTTL is how long a failed users.info (a missing users:read
// scope, Slack down) is remembered: meanwhile commands go on with the
// default zone and the request's language instead of each waiting on a
// look-up that fails again.
const failedUserTTL = 5 * time.Minute

// cached returns what is known of a user without the Web API.
func (b *Bot) cached(user string) (tzEntry, bool) {
	b.tz.mu.Lock()
	defer b.tz.mu.Unlock()
	e, ok := b.tz.m[user]
	if !ok || b.now().Sub(e.at) >= time.Hour || e.failed && b.now().Sub(e.at) >= failedUserTTL {
		return tzEntry{}, false
	}
	return e, true
}

// cachedLocation returns a user's time zone if it is known (no Web API).
func (b *Bot) cachedLocation(user string) *time.Location {
	e, _ := b.cached(user)
	return e.loc
}

// cachedLang returns a user's Slack language if it is known (no Web API):
// what a modal opened within its trigger's 3 s is written in. "" when
// users.info was not asked yet or named a language gpuplan does not speak.
func (b *Bot) cachedLang(user string) i18n.Lang {
	e, _ := b.cached(user)
	return e.lang
}

// lookupLocation asks users.info for a user's time zone (only ever after
// the envelope was acked) and caches it with their language; nil when
// Slack has none.
func (b *Bot) lookupLocation(ctx context.Context, user string) *time.Location {
	return b.lookupUser(ctx, user).loc
}

// lookupLang is a user's Slack language (users.info's locale, cached), ""
// when Slack's locale is not one gpuplan speaks or cannot be read: then
// the request's own language decides (i18n.Choose).
func (b *Bot) lookupLang(ctx context.Context, user string) i18n.Lang {
	return b.lookupUser(ctx, user).lang
}

// lookupUser asks users.info once an hour per user, only ever after the
// envelope was acked. A failed look-up is remembered for failedUserTTL.
func (b *Bot) lookupUser(ctx context.Context, user string) tzEntry {
	if e, ok := b.cached(user); ok {
		return e
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	u, err := b.api.GetUserInfoContext(ctx, user)
	if err != nil {
		b.log.Debug("users.info failed; using the default time zone and the request's language", zap.String("user", user), zap.Error(err))
		b.remember(user, tzEntry{at: b.now(), failed: true})
		return tzEntry{}
	}
	e := tzEntry{at: b.now()}
	if l, ok := i18n.Parse(u.Locale); ok {
		e.lang = l
	}
	if loc, err := time.LoadLocation(u.TZ); err == nil && u.TZ != "" {
		e.loc = loc
	}
	b.remember(user, e)
	return e
}

func (b *Bot) remember(user string, e tzEntry) {
	b.tz.mu.Lock()
	defer b.tz.mu.Unlock()
	if b.tz.m == nil {
		b.tz.m = map[string]tzEntry{}
	}
	b.tz.m[user] = e
}

// userLang is the language of a notice's reader: their Slack locale, else
// English (a notice answers no request whose language could decide).
func (b *Bot) userLang(ctx context.Context, user string) i18n.Lang {
	return i18n.Choose(string(b.lookupLang(ctx, user)), false)
}

// ackPrinter is the printer for what an ack says before any Web API call
// (no users.info yet): the user's Slack language if it is cached, else
// Korean for a request written in Korean, else English.
func (b *Bot) ackPrinter(user, text string) *i18n.Printer {
	return i18n.For(i18n.Choose(string(b.cachedLang(user)), writtenInKorean(text)))
}

// writtenInKorean reports whether text has Hangul in it ("h100 2장").
func writtenInKorean(text string) bool {
	return strings.ContainsFunc(text, func(r rune) bool { return unicode.Is(unicode.Hangul, r) })
}
