package bot

import (
	"context"
	"encoding/json"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/slack-go/slack"
	"go.uber.org/zap"
)

// origin is the kind of place a command came from.
type origin int

const (
	fromSlash       origin = iota // /gpuplan …
	fromMention                   // @gpuplan … in a channel
	fromDM                        // a direct message to the bot
	fromShare                     // a plan's Share button
	fromRunButton                 // a button that runs a command, on a message
	fromHomeButton                // a button that runs a command, on the App Home
	fromPlanForm                  // the plan modal, submitted
	fromReserveForm               // the Reserve modal, submitted
)

// where says where a command came from, and so where its answer goes.
type where struct {
	from    origin
	channel string // the channel it was asked in (a DM's channel for fromDM)
	user    string // who asked
	thread  string // the thread of a mention or a DM
	// mentionTS is the mention's own message: a mention outside a thread
	// is answered in a new thread under it.
	mentionTS   string
	responseURL string // a slash command's, a button's or the plan modal's
	// ack, when set, may carry a private answer small enough for the
	// envelope's ack (a slash command answered within its budget);
	// deliver acks through it exactly once.
	ack func(payload any)
	// replace: the private answer replaces the "Working on it…" message.
	replace bool
	// message and messageTS are the message a run button was on; a state
	// change replaces it.
	message, messageTS string
	// home: the form was opened from the App Home, which is refreshed.
	home bool
}

// deliver sends a command's outcome where it belongs. It is the one place
// that chooses between announcing in a channel and answering privately: a
// state change (Reply.InChannel) is announced in the channel — the reply's
// team channel, else where the command came from — and recorded; anything
// else (a query, a mistake, an internal error's reference) answers the
// asker where they asked: in the slash command's ack or response_url,
// visibly in a mention's thread (started under the mention when it was
// not in one: the team asked in front of each other), in the DM. Errors become words in b.message, once.
func (b *Bot) deliver(ctx context.Context, reply *commands.Reply, err error, w where, log *zap.Logger) {
	announce := err == nil && reply.InChannel
	switch w.from {
	case fromSlash:
		if announce {
			w.acked(nil)
			b.announce(ctx, w.channel, w.responseURL, w.replace, reply, log)
			return
		}
		msg, inChannel := b.message(reply, err, log)
		p := toPayload(msg, inChannel)
		if w.ack != nil {
			if raw, err := json.Marshal(p); err == nil && len(raw) < maxAckPayload {
				w.ack(p)
				return
			}
			w.ack(nil)
		}
		p.ReplaceOriginal = w.replace
		b.respond(ctx, w.responseURL, p, log)
	case fromMention:
		if announce {
			b.announceIn(ctx, w.channel, w.thread, reply, log)
			return
		}
		// A mention is a question asked in front of the team: the answer
		// (a plan, a status, a mistake) is posted visibly in the mention's
		// thread, started under the mention when it was not in one.
		msg, _ := b.message(reply, err, log)
		thread := w.thread
		if thread == "" {
			thread = w.mentionTS
		}
		b.post(ctx, w.channel, thread, msg, log)
	case fromDM:
		if announce && reply.Channel != "" {
			b.announceIn(ctx, reply.Channel, "", reply, log) // the team channel
		}
		msg, _ := b.message(reply, err, log) // and the answer in the DM
		b.post(ctx, w.channel, w.thread, msg, log)
	case fromShare:
		b.share(ctx, reply, err, w, log)
	case fromRunButton:
		if !announce {
			msg, _ := b.message(reply, err, log)
			if w.responseURL != "" {
				b.respond(ctx, w.responseURL, toPayload(msg, false), log)
			}
			return
		}
		if w.message != "" && b.replaceMessage(ctx, w.message, w.messageTS, reply, log) {
			return
		}
		b.announce(ctx, w.channel, w.responseURL, false, reply, log) // never replace the message the button was on
	case fromHomeButton:
		if announce && reply.Channel != "" {
			b.announceIn(ctx, reply.Channel, "", reply, log)
		}
		b.publishHome(ctx, w.user, b.homeBanner(reply, err, log), log) // home.go
	case fromPlanForm:
		msg, _ := b.message(reply, err, log)
		if w.responseURL != "" {
			b.respond(ctx, w.responseURL, toPayload(msg, false), log)
			return
		}
		b.postToDM(ctx, w.user, msg, log) // opened without a message to answer (App Home)
	case fromReserveForm:
		if !announce {
			msg, _ := b.message(reply, err, log)
			b.postToDM(ctx, w.user, msg, log)
			return
		}
		b.announceFromForm(ctx, reply, w, log)
	}
}

// share posts a private plan for the channel to see, credited to who
// shared it; a failure stays private.
func (b *Bot) share(ctx context.Context, reply *commands.Reply, err error, w where, log *zap.Logger) {
	msg, _ := b.message(reply, err, log)
	p := toPayload(msg, err == nil)
	if err == nil {
		p.Text = "<@" + w.user + "> shared: " + p.Text
	}
	if w.responseURL != "" {
		b.respond(ctx, w.responseURL, p, log)
		return
	}
	b.post(ctx, w.channel, "", msg, log)
}

// announceFromForm announces a state change made through the Reserve
// form: in the team channel, else where the form was opened, else the
// user's DM (where its buttons work too); a Home it came from is
// refreshed.
func (b *Bot) announceFromForm(ctx context.Context, reply *commands.Reply, w where, log *zap.Logger) {
	target := reply.Channel
	if target == "" {
		target = w.channel
	}
	if target == "" {
		dm, err := b.openDM(ctx, w.user)
		if err != nil {
			log.Error("conversations.open failed", zap.Error(err))
			return
		}
		target = dm
	}
	b.announceIn(ctx, target, "", reply, log)
	if w.home {
		b.publishHome(ctx, w.user, []slack.Block{slack.NewContextBlock("", mrkdwn(":white_check_mark: "+escape(reply.Title)))}, log)
	}
}

// acked acks through w.ack when there is one.
func (w where) acked(payload any) {
	if w.ack != nil {
		w.ack(payload)
	}
}

// postToDM posts m in the bot's DM with user.
func (b *Bot) postToDM(ctx context.Context, user string, m Message, log *zap.Logger) {
	dm, err := b.openDM(ctx, user)
	if err != nil {
		log.Error("conversations.open failed", zap.Error(err))
		return
	}
	_ = b.pace(ctx, dm)
	b.post(ctx, dm, "", m, log)
}

// replaceMessage replaces the message a button was on with a state
// change's announcement and records it; false when Slack refused.
func (b *Bot) replaceMessage(ctx context.Context, channel, ts string, reply *commands.Reply, log *zap.Logger) bool {
	msg := renderReply(reply, maxMessageBlocks)
	if _, _, _, err := b.api.UpdateMessageContext(ctx, channel, ts,
		slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(msg.Blocks...)); err != nil {
		log.Warn("chat.update failed; posting anew", zap.Error(err))
		return false
	}
	if reply.Announces != "" {
		_ = b.cmds.Announced(ctx, reply.Announces, channel, ts)
	}
	return true
}
