package bot

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/gpuplan/gpuplan/commands"
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
// it returns; errors are logged, never fatal.
func (b *Bot) RunSweeps(ctx context.Context, s Sweeper, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		ns, err := s.Sweep(ctx)
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

// tzCache keeps users' time zones from users.info for an hour.
type tzCache struct {
	mu sync.Mutex
	m  map[string]tzEntry
}

type tzEntry struct {
	loc *time.Location
	at  time.Time
}

// cachedLocation returns a user's time zone if it is known (no Web API).
func (b *Bot) cachedLocation(user string) *time.Location {
	b.tz.mu.Lock()
	defer b.tz.mu.Unlock()
	if e, ok := b.tz.m[user]; ok && b.now().Sub(e.at) < time.Hour {
		return e.loc
	}
	return nil
}

// lookupLocation asks users.info for a user's time zone (only ever after
// the envelope was acked) and caches it; nil when Slack has none.
func (b *Bot) lookupLocation(ctx context.Context, user string) *time.Location {
	if loc := b.cachedLocation(user); loc != nil {
		return loc
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	u, err := b.api.GetUserInfoContext(ctx, user)
	if err != nil {
		b.log.Debug("users.info failed; using the default time zone", zap.String("user", user), zap.Error(err))
		return nil
	}
	loc, err := time.LoadLocation(u.TZ)
	if err != nil || u.TZ == "" {
		return nil
	}
	b.tz.mu.Lock()
	defer b.tz.mu.Unlock()
	if b.tz.m == nil {
		b.tz.m = map[string]tzEntry{}
	}
	b.tz.m[user] = tzEntry{loc: loc, at: b.now()}
	return loc
}
