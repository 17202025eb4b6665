package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// slackLog receives slack-go's socketmode log lines; they stay at debug.
type slackLog struct{ bot *Bot }

func (l *slackLog) Output(_ int, s string) error {
	if l.bot.log.Core().Enabled(zapcore.DebugLevel) {
		l.bot.log.Debug("slack-go", zap.String("line", strings.TrimSpace(s)))
	}
	return nil
}

// Reconnect pauses (Run): doubling from Config.ReconnectBackoff to
// maxReconnectBackoff; a connection that ran healthyRun before Slack sent
// it away starts again from the first step.
const (
	maxReconnectBackoff = 5 * time.Minute
	healthyRun          = time.Minute
)

// onDisconnectFrame decides what a disconnect means. slack-go reconnects
// at once on every one; for link_disabled and too_many_websockets,
// reconnecting at once is a storm, so Run stops the client and pauses
// (and logs the reason, with the pause, in pauseWords' words). Each
// disconnect is logged once.
func (b *Bot) onDisconnectFrame(reason string) {
	switch reason {
	case "link_disabled", "too_many_websockets":
		if !b.signalStorm(reason) {
			// Run is already stopping for an earlier one.
			b.log.Debug("Slack sent another disconnect while pausing", zap.String("reason", reason))
		}
		// Stop the client now, from the frame tap, before slack-go reads
		// the frame and dials again on its own.
		b.stopMu.Lock()
		stop := b.stopClient
		b.stopMu.Unlock()
		if stop != nil {
			stop()
		}
	default: // refresh_requested, warning: routine
		b.log.Info("Slack asked to reconnect", zap.String("reason", reason))
	}
}

// pauseWords is the log line (and its level) for a pause before
// reconnecting after reason.
func pauseWords(reason string) (string, zapcore.Level) {
	switch reason {
	case "link_disabled":
		return "Slack disabled Socket Mode for this app (link_disabled): turn it back on at api.slack.com/apps → your app → Socket Mode; socket mode paused before reconnecting", zapcore.ErrorLevel
	case "too_many_websockets":
		return "Slack refused the connection: too many Socket Mode connections for this app (limit 10: other replicas, or connections not closed); socket mode paused before reconnecting", zapcore.WarnLevel
	}
	return "socket mode paused before reconnecting", zapcore.WarnLevel
}

func (b *Bot) setStopClient(stop context.CancelFunc) {
	b.stopMu.Lock()
	defer b.stopMu.Unlock()
	b.stopClient = stop
}

// drainStorm drops the reasons queued behind the one being handled: the
// frames of the connections just closed, which one pause covers.
func (b *Bot) drainStorm() {
	for {
		select {
		case <-b.storm:
		default:
			return
		}
	}
}

func (b *Bot) signalStorm(reason string) bool {
	select {
	case b.storm <- reason:
		return true
	default:
		return false
	}
}

// redactLogger wraps log so that the secrets never appear in a message or
// a string field, whatever a caller or a library passes in.
func redactLogger(log *zap.Logger, secrets ...string) *zap.Logger {
	var keep []string
	for _, s := range secrets {
		if len(s) >= 8 {
			keep = append(keep, s)
		}
	}
	if len(keep) == 0 {
		return log
	}
	return log.WithOptions(zap.WrapCore(func(c zapcore.Core) zapcore.Core { return &redactCore{Core: c, secrets: keep} }))
}

type redactCore struct {
	zapcore.Core
	secrets []string
}

func (c *redactCore) redact(s string) string {
	for _, sec := range c.secrets {
		s = strings.ReplaceAll(s, sec, "[redacted]")
	}
	return s
}

func (c *redactCore) fields(fs []zapcore.Field) []zapcore.Field {
	out := make([]zapcore.Field, len(fs))
	for i, f := range fs {
		switch {
		case f.Type == zapcore.StringType:
			f.String = c.redact(f.String)
		case f.Type == zapcore.ErrorType:
			if err, ok := f.Interface.(error); ok && err != nil {
				f = zap.String(f.Key, c.redact(err.Error()))
			}
		case f.Type == zapcore.StringerType || f.Type == zapcore.ReflectType:
			f = zap.String(f.Key, c.redact(strings.TrimSpace(zapAny(f))))
		}
		out[i] = f
	}
	return out
}

func zapAny(f zapcore.Field) string {
	enc := zapcore.NewMapObjectEncoder()
	f.AddTo(enc)
	if v, ok := enc.Fields[f.Key]; ok {
		if s, ok := v.(string); ok {
			return s
		}
		return strings.TrimSpace(strings.ReplaceAll(fmtAny(v), "\n", " "))
	}
	return ""
}

func (c *redactCore) With(fs []zapcore.Field) zapcore.Core {
	return &redactCore{Core: c.Core.With(c.fields(fs)), secrets: c.secrets}
}

func (c *redactCore) Check(ent zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	if c.Enabled(ent.Level) {
		return ce.AddCore(ent, c)
	}
	return ce
}

func (c *redactCore) Write(ent zapcore.Entry, fs []zapcore.Field) error {
	ent.Message = c.redact(ent.Message)
	return c.Core.Write(ent, c.fields(fs))
}

func fmtAny(v any) string { return fmt.Sprint(v) }
