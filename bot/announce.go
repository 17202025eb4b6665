package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/slack-go/slack"
	"go.uber.org/zap"
)

// Announcer posts a command's announcements from outside the bot, with
// the bot token alone (no Socket Mode): `gpuplan exec` announces its
// booking in the team channel as the bot announces a reservation, and
// follows the announcement up when its job ends. Messages are rendered as
// the bot renders them and go out through Post's path (paced per channel,
// 429s waited out). Recording where an announcement went is the caller's
// (it has the store; the bot's Commands are not here).
type Announcer struct {
	b     *Bot
	token string
}

// Posted is where an announcement went: the channel's id and the
// message's ts.
type Posted struct{ Channel, TS string }

// NewAnnouncer checks the bot token's prefix and builds an Announcer for
// the Web API at apiURL ("" means Slack itself). It does not connect.
func NewAnnouncer(token Secret, apiURL string) (*Announcer, error) {
	t := token.Reveal()
	switch {
	case t == "":
		return nil, &TokenError{Name: "SLACK_BOT_TOKEN", Want: "xoxb-", Problem: "is not set", Where: botTokenWhere}
	case strings.HasPrefix(t, "xapp-"):
		return nil, &TokenError{Name: "SLACK_BOT_TOKEN", Want: "xoxb-", Problem: "holds the app-level token", Where: botTokenWhere}
	case !strings.HasPrefix(t, "xoxb-"):
		return nil, &TokenError{Name: "SLACK_BOT_TOKEN", Want: "xoxb-", Problem: "has the wrong prefix", Where: botTokenWhere}
	}
	if apiURL != "" && !strings.HasSuffix(apiURL, "/") {
		apiURL += "/"
	}
	b := &Bot{cfg: Config{BotToken: token, APIURL: apiURL}, log: zap.NewNop(), now: time.Now}
	return &Announcer{b: b, token: t}, nil
}

// Announce posts reply in reply.Channel as a Block Kit message with its
// plain-text fallback, and says where it went.
func (a *Announcer) Announce(ctx context.Context, reply *commands.Reply) (Posted, error) {
	if reply == nil || reply.Channel == "" {
		return Posted{}, errors.New("announce: no channel")
	}
	ch, ts, err := a.b.postMessage(ctx, reply.Channel, "", renderReply(reply, maxMessageBlocks))
	if err != nil {
		return Posted{}, a.words("chat.postMessage", err)
	}
	return Posted{Channel: ch, TS: ts}, nil
}

// Follow replaces the announcement at p with reply, so the channel's
// message shows how things ended, and posts reply in its thread, so that
// whoever follows the thread hears of it. Both are tried; the first
// failure is returned.
func (a *Announcer) Follow(ctx context.Context, p Posted, reply *commands.Reply) error {
	msg := renderReply(reply, maxMessageBlocks)
	upd := retryRateLimited(ctx, func() error {
		_, _, _, err := a.b.postClient().UpdateMessageContext(ctx, p.Channel, p.TS,
			slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(msg.Blocks...))
		return err
	})
	if upd != nil {
		upd = a.words("chat.update", upd)
	}
	if _, _, err := a.b.postMessage(ctx, p.Channel, p.TS, msg); err != nil && upd == nil {
		return a.words("chat.postMessage", err)
	}
	return upd
}

// words is a failed call as a short line for a terminal or a log: the
// error code when Slack answered one, else the error; never the token.
func (a *Announcer) words(method string, err error) error {
	var se slack.SlackErrorResponse
	text := err.Error()
	if errors.As(err, &se) {
		text = se.Err
	}
	if a.token != "" {
		text = strings.ReplaceAll(text, a.token, "[redacted]")
	}
	return fmt.Errorf("%s: %s", method, text)
}
