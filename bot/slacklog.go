package bot

import (
	"fmt"
	"strings"

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

// onDisconnectFrame decides what a disconnect means. slack-go reconnects
// at once on every one; for these two, reconnecting at once is a storm.
func (b *Bot) onDisconnectFrame(reason string) {
	switch reason {
	case "link_disabled":
		b.log.Error("Slack disabled Socket Mode for this app (link_disabled): turn it back on at api.slack.com/apps → your app → Socket Mode; backing off")
		b.signalStorm(reason)
	case "too_many_websockets":
		b.log.Warn("Slack refused the connection: too many Socket Mode connections for this app (limit 10); backing off")
		b.signalStorm(reason)
	default: // refresh_requested, warning: routine
		b.log.Info("Slack asked to reconnect", zap.String("reason", reason))
	}
}

func (b *Bot) signalStorm(reason string) {
	select {
	case b.storm <- reason:
	default:
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
