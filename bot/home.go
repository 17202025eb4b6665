package bot

import (
	"context"
	"time"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"go.uber.org/zap"
)

// homeCallbackID names the App Home view the bot publishes.
const homeCallbackID = "home"

// quickActions are the Home's buttons that open a form; every other
// reply action is rendered where renderReply puts it.
func quickActions(actions []commands.Action) (quick, rest []commands.Action) {
	for _, a := range actions {
		if a.ID == commands.ActionOpenPlan || a.ID == commands.ActionOpenReserve {
			quick = append(quick, a)
		} else {
			rest = append(rest, a)
		}
	}
	return quick, rest
}

// homeView renders a Home reply as a Home tab: header, the quick actions
// right under it, then the sections, each followed by its own buttons
// (a reservation's Extend and Release). banner, when set, goes first
// under the header: what the last click did.
func homeView(r *commands.Reply, banner []slack.Block) slack.HomeTabViewRequest {
	rr := *r
	quick, rest := quickActions(r.Actions)
	rr.Actions = rest
	blocks := replyBlocks(&rr, quick)
	if len(banner) > 0 && len(blocks) > 0 {
		if _, ok := blocks[0].(*slack.HeaderBlock); ok {
			blocks = append(append([]slack.Block{blocks[0]}, banner...), blocks[1:]...)
		} else {
			blocks = append(append([]slack.Block{}, banner...), blocks...)
		}
	}
	return slack.HomeTabViewRequest{Type: slack.VTHomeTab, CallbackID: homeCallbackID, Blocks: slack.Blocks{BlockSet: fitBlocks(i18n.For(r.Lang), blocks, maxViewBlocks)}}
}

// homeErrorView is the Home when it could not be built: what went wrong
// in user words (msg, from Bot.message) and the quick actions, which work
// without the store, in p's language.
func homeErrorView(msg Message, p *i18n.Printer) slack.HomeTabViewRequest {
	blocks := []slack.Block{slack.NewHeaderBlock(plainText("gpuplan", maxHeaderText))}
	blocks = append(blocks, msg.Blocks...)
	blocks = append(blocks, renderActions("quick", commands.QuickActions(p)))
	blocks = append(blocks, slack.NewContextBlock("", mrkdwn(p.T("Open this tab again in a moment to retry."))))
	return slack.HomeTabViewRequest{Type: slack.VTHomeTab, CallbackID: homeCallbackID, Blocks: slack.Blocks{BlockSet: blocks}}
}

// onHomeOpened publishes the Home whenever its tab is opened (the event
// was acked and deduplicated by the event loop).
func (b *Bot) onHomeOpened(ctx context.Context, e *slackevents.AppHomeOpenedEvent, log *zap.Logger) {
	if e.Tab != "home" || e.User == "" || e.User == b.botUserID {
		return
	}
	b.publishHome(ctx, e.User, nil, log.With(zap.String("user", e.User), zap.String("command", "home")))
}

// publishHome builds user's Home and publishes it with views.publish; when
// it cannot be built, it publishes the error instead of leaving a stale
// or empty tab.
func (b *Bot) publishHome(ctx context.Context, user string, banner []slack.Block, log *zap.Logger) {
	reply, err := b.runHome(ctx, user)
	var view slack.HomeTabViewRequest
	if err != nil {
		msg, _ := b.message(reply, err, log) // logs it once, with a ref
		view = homeErrorView(msg, i18n.For(b.lookupLang(ctx, user)))
	} else {
		view = homeView(reply, banner)
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if _, err := b.api.PublishViewContext(ctx, slack.PublishViewContextRequest{UserID: user, View: view}); err != nil {
		log.Error("views.publish failed", zap.Error(err))
		return
	}
	log.Debug("home published")
}

// runHome builds the Home in a pool slot, a panic becoming an internal
// error, in the user's time zone and Slack language (looked up after the
// ack).
func (b *Bot) runHome(ctx context.Context, user string) (reply *commands.Reply, err error) {
	u := b.lookupUser(ctx, user)
	select {
	case b.pool <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-b.pool }()
	defer func() {
		if p := recover(); p != nil {
			reply, err = nil, &panicError{value: p}
		}
	}()
	return b.cmds.Home(ctx, commands.Request{User: user, Location: u.loc, Lang: i18n.Choose(string(u.lang), false)})
}

// fromHome reports whether a click came from a Home tab.
func fromHome(cb slack.InteractionCallback) bool {
	return cb.View.Type == slack.VTHomeTab
}

// homeBanner is the line a Home shows after one of its buttons ran a
// command: what happened, or what was wrong.
func (b *Bot) homeBanner(reply *commands.Reply, err error, log *zap.Logger) []slack.Block {
	if err != nil {
		msg, _ := b.message(reply, err, log)
		return msg.Blocks
	}
	what, icon := reply.Title, ":white_check_mark: "
	if what == "" {
		what = reply.Summary
	}
	if !reply.InChannel {
		icon = ":information_source: " // nothing changed ("Nothing to release")
	}
	return []slack.Block{slack.NewContextBlock("", mrkdwn(icon+escape(what)))}
}
