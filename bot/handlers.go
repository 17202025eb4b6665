package bot

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
	"go.uber.org/zap"
)

// Action and view ids the bot owns.
const (
	actionShare   = "plan.share"
	actionAdjust  = "plan.adjust"
	planModalID   = "plan.modal"
	modalInputID  = "value"
	maxAckPayload = 15000 // bytes; Slack drops socket frames ≥ 20 KB
)

// acker is the part of the socketmode client the handlers use.
type acker interface {
	AckCtx(ctx context.Context, envelopeID string, payload any) error
}

// dispatchEnvelope is called on the event loop: it must not block. It acks
// what needs no payload at once, drops redeliveries, and hands the rest to
// a tracked goroutine.
//
// dispatchEnvelope is one switch over the envelope types on purpose: each
// type's ack rule sits beside it.
func (b *Bot) dispatchEnvelope(ctx context.Context, client acker, evt socketmode.Event) {
	req := evt.Request
	if req == nil {
		return
	}
	b.ledger.done(req.EnvelopeID)
	received := b.now()
	log := b.log.With(zap.String("envelope_id", req.EnvelopeID), zap.String("type", string(evt.Type)))
	if req.RetryAttempt > 0 {
		log = log.With(zap.Int("retry_attempt", req.RetryAttempt), zap.String("retry_reason", req.RetryReason))
	}
	if b.draining.Load() {
		// Shutting down: ack so Slack does not retry into a dying process;
		// events will be redelivered to another connection if unacked, so
		// only slash commands get a word.
		b.ack(client, req.EnvelopeID, nil, received, log)
		return
	}
	// Duplicates are dropped in two steps: here, on the event loop, by the
	// bot's own memory (no I/O, so nothing waits on Redis); then, in the
	// envelope's goroutine, by the store the replicas share (sharedFirst),
	// which a slow Redis can only make late, never the loop or the ack.
	switch evt.Type {
	case socketmode.EventTypeSlashCommand:
		cmd, ok := evt.Data.(slack.SlashCommand)
		if !ok {
			b.ack(client, req.EnvelopeID, nil, received, log)
			return
		}
		key := "env:" + req.EnvelopeID
		if !b.localFirst(key, log) {
			b.ack(client, req.EnvelopeID, nil, received, log)
			return
		}
		log = log.With(zap.String("user", cmd.UserID), zap.String("command", firstWord(cmd.Text)))
		b.spawn("slash", log, func() {
			// The ack carries the answer, so it waits for the shared
			// check, but at most DedupeTimeout.
			if !b.sharedFirst(ctx, key, log) {
				b.ack(client, req.EnvelopeID, nil, received, log)
				return
			}
			b.onSlash(ctx, client, req.EnvelopeID, cmd, received, log)
		})
	case socketmode.EventTypeEventsAPI:
		b.ack(client, req.EnvelopeID, nil, received, log)
		ev, ok := evt.Data.(slackevents.EventsAPIEvent)
		if !ok {
			return
		}
		key := "evt:" + eventID(ev, req.EnvelopeID)
		if !b.localFirst(key, log) {
			return
		}
		b.spawn("event", log, func() {
			if b.sharedFirst(ctx, key, log) {
				b.onEvent(ctx, ev, log)
			}
		})
	case socketmode.EventTypeInteractive:
		cb, ok := evt.Data.(slack.InteractionCallback)
		if !ok {
			b.ack(client, req.EnvelopeID, nil, received, log)
			return
		}
		log = log.With(zap.String("user", cb.User.ID), zap.String("interaction", string(cb.Type)))
		key := "env:" + req.EnvelopeID
		if !b.localFirst(key, log) {
			b.ack(client, req.EnvelopeID, nil, received, log)
			return
		}
		if cb.Type == slack.InteractionTypeViewSubmission {
			// The ack carries the verdict (errors or close): handled inline
			// because it is quick and must precede everything else.
			b.spawn("view_submission", log, func() {
				if !b.sharedFirst(ctx, key, log) {
					b.ack(client, req.EnvelopeID, nil, received, log)
					return
				}
				b.onViewSubmission(ctx, client, req.EnvelopeID, cb, received, log)
			})
			return
		}
		b.ack(client, req.EnvelopeID, nil, received, log)
		b.spawn("interaction", log, func() {
			if b.sharedFirst(ctx, key, log) {
				b.onInteraction(ctx, cb, log)
			}
		})
	}
}

// localFirst is the event loop's duplicate check: the bot's own memory.
func (b *Bot) localFirst(key string, log *zap.Logger) bool {
	if b.local.FirstSeen(key, b.cfg.DedupeTTL) {
		return true
	}
	log.Info("duplicate delivery dropped", zap.String("key", key))
	return false
}

// sharedFirst asks the store the replicas share whether another replica
// has the envelope already, within DedupeTimeout. It runs off the event
// loop. A store that fails or does not answer in time lets the envelope
// through: better a rare double answer than a lost command (a change
// still applies once, by its request id).
func (b *Bot) sharedFirst(ctx context.Context, key string, log *zap.Logger) bool {
	if b.shared == nil {
		return true
	}
	dctx, cancel := context.WithTimeout(ctx, b.cfg.DedupeTimeout)
	defer cancel()
	ok, err := b.shared.FirstSeen(dctx, key, b.cfg.DedupeTTL)
	if err != nil {
		log.Warn("dedupe store unavailable; processing anyway", zap.Error(err))
		return true
	}
	if !ok {
		log.Info("duplicate delivery dropped", zap.String("key", key), zap.String("by", "shared store"))
	}
	return ok
}

func eventID(ev slackevents.EventsAPIEvent, fallback string) string {
	if cb, ok := ev.Data.(*slackevents.EventsAPICallbackEvent); ok && cb.EventID != "" {
		return cb.EventID
	}
	return fallback
}

// ack answers an envelope within a short deadline and logs its latency.
func (b *Bot) ack(client acker, envelopeID string, payload any, received time.Time, log *zap.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	b.acks.queued(envelopeID, payload, b.now())
	b.ackStarted(envelopeID, received) // the latency is observed when the frame is written
	err := client.AckCtx(ctx, envelopeID, payload)
	lat := b.now().Sub(received)
	if err != nil {
		log.Warn("ack failed", zap.Duration("ack_latency", lat), zap.Error(err))
		return
	}
	log.Debug("acked", zap.Duration("ack_latency", lat))
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return strings.ToLower(w)
}

// slashPayload is a slash-command answer as an ack payload or a
// response_url body.
type slashPayload struct {
	ResponseType    string        `json:"response_type"`
	Text            string        `json:"text"`
	Blocks          []slack.Block `json:"blocks,omitempty"`
	ReplaceOriginal bool          `json:"replace_original,omitempty"`
}

func toPayload(m Message, inChannel bool) slashPayload {
	rt := slack.ResponseTypeEphemeral
	if inChannel {
		rt = slack.ResponseTypeInChannel
	}
	return slashPayload{ResponseType: rt, Text: m.Text, Blocks: m.Blocks}
}

// onSlash answers /gpuplan: in the ack when the answer is ready within the
// budget and small, else through response_url.
func (b *Bot) onSlash(ctx context.Context, client acker, envelopeID string, cmd slack.SlashCommand, received time.Time, log *zap.Logger) {
	text := strings.TrimSpace(cmd.Text)
	if b.cmds.FormFor(text) == commands.FormPlan {
		b.ack(client, envelopeID, nil, received, log)
		b.openPlanModal(ctx, cmd.TriggerID, commands.PlanForm{}, modalMeta{Channel: cmd.ChannelID, ResponseURL: cmd.ResponseURL, Lang: b.formLang(ctx, cmd.UserID)}, log)
		return
	}
	w := where{from: fromSlash, channel: cmd.ChannelID, user: cmd.UserID, responseURL: cmd.ResponseURL}
	type outcome struct {
		reply *commands.Reply
		err   error
	}
	done := make(chan outcome, 1)
	// checking: the store lost a change's reply and is looking up whether
	// it was made; the user is told so where the answer will go.
	checking := make(chan struct{}, 1)
	runCtx := commands.WithOutcomeCheck(ctx, func() {
		select {
		case checking <- struct{}{}:
		default:
		}
	})
	notice := slashPayload{ResponseType: slack.ResponseTypeEphemeral, Text: ":hourglass_flowing_sand: " + commands.CheckingIn(b.ackPrinter(cmd.UserID, text))}
	// finish waits for the outcome after the ack went out; a checking
	// notice meanwhile is posted on response_url (by this goroutine, so it
	// always precedes the answer, which replaces it).
	finish := func() {
		var out outcome
		select {
		case out = <-done:
		case <-checking:
			notice.ReplaceOriginal = w.replace
			b.respond(ctx, w.responseURL, notice, log)
			w.replace = true
			out = <-done
		}
		b.deliver(ctx, out.reply, out.err, w, log)
		b.logDone(log, received, out.err)
	}
	if b.cmds.NeedsOf(text).Zone && b.cachedLocation(cmd.UserID) == nil {
		// The user's time zone decides what "tomorrow 9:00" means: ack
		// first, then ask Slack for it, then answer.
		b.ack(client, envelopeID, nil, received, log)
		<-b.lookupOnce(ctx, cmd.UserID, log) // one users.info per user at a time, as for the language
		loc := b.cachedLocation(cmd.UserID)
		b.spawn("slash.run", log, func() {
			r, err := b.run(runCtx, commands.Request{User: cmd.UserID, Channel: cmd.ChannelID, Text: text, ID: envelopeID, Location: loc, Lang: b.cachedLang(cmd.UserID)})
			done <- outcome{r, err}
		})
		finish()
		return
	}
	budget := b.ackBudget(text)
	b.spawn("slash.run", log, func() {
		r, err := b.run(runCtx, commands.Request{User: cmd.UserID, Channel: cmd.ChannelID, Text: text, ID: envelopeID, Lang: b.slashLang(ctx, cmd.UserID, log)})
		done <- outcome{r, err}
	})
	timer := time.NewTimer(budget)
	defer timer.Stop()
	select {
	case out := <-done:
		// In time: a small private answer rides in the ack.
		w.ack = func(p any) { b.ack(client, envelopeID, p, received, log) }
		b.deliver(ctx, out.reply, out.err, w, log)
		b.logDone(log, received, out.err)
	case <-checking:
		// The store lost the reply before the ack was due: the ack says
		// so, and the answer replaces it.
		b.ack(client, envelopeID, notice, received, log)
		w.replace = true
		finish()
	case <-timer.C:
		b.ack(client, envelopeID, slashPayload{ResponseType: slack.ResponseTypeEphemeral, Text: ":hourglass_flowing_sand: " + b.ackPrinter(cmd.UserID, text).T("Working on it…")}, received, log)
		w.replace = true
		finish()
	}
}

// slashLang is the language a slash command is answered in: the user's
// Slack language. A user not seen within the hour is looked up first,
// within a third of the ack budget: a slow users.info makes the answer
// late, never the ack, and one that fails or is late leaves the request's
// own language to decide (the look-up still fills the cache for next time).
// Commands that arrive while the user's look-up is out wait for that one.
func (b *Bot) slashLang(ctx context.Context, user string, log *zap.Logger) i18n.Lang {
	if e, known := b.cached(user); known {
		return e.lang
	}
	done := b.lookupOnce(ctx, user, log)
	wait := time.NewTimer(b.cfg.AckBudget / 3)
	defer wait.Stop()
	select {
	case <-done:
		e, _ := b.cached(user)
		return e.lang
	case <-wait.C:
		return ""
	}
}

// lookupOnce asks users.info for user unless a look-up is already out,
// and returns a channel closed when the one out has finished.
func (b *Bot) lookupOnce(ctx context.Context, user string, log *zap.Logger) <-chan struct{} {
	b.tz.mu.Lock()
	defer b.tz.mu.Unlock()
	if ch, out := b.tz.inflight[user]; out {
		return ch
	}
	if b.tz.inflight == nil {
		b.tz.inflight = map[string]chan struct{}{}
	}
	ch := make(chan struct{})
	b.tz.inflight[user] = ch
	b.spawn("users.info", log, func() {
		defer func() {
			b.tz.mu.Lock()
			delete(b.tz.inflight, user)
			b.tz.mu.Unlock()
			close(ch)
		}()
		b.lookupUser(ctx, user)
	})
	return ch
}

// ackBudget is how long a slash command with text may compute before its
// ack goes out without the answer. When every worker is busy the command
// would queue for a slot, so it is acked "working on it" at once and
// answered on response_url, instead of holding its ack until the budget
// runs out. A plan that finds every core computing (Commands.Busy) waits
// coreWait: at a few milliseconds a plan most still answer in the ack,
// and on an overloaded machine the acks stay quick while plans queue.
func (b *Bot) ackBudget(text string) time.Duration {
	if len(b.pool) == cap(b.pool) {
		return 0
	}
	if b.cmds.Busy() && b.cmds.NeedsOf(text).Compute {
		return min(b.cfg.AckBudget, coreWait)
	}
	return b.cfg.AckBudget
}

// coreWait is how long a slash plan that finds every core computing may
// wait for its answer before the ack goes out without it.
const coreWait = 25 * time.Millisecond

func (b *Bot) logDone(log *zap.Logger, received time.Time, err error) {
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	log.Info("command answered", zap.String("outcome", outcome), zap.Duration("latency", b.now().Sub(received)))
}

// respond posts to a response_url (usable 5 times in 30 minutes).
func (b *Bot) respond(ctx context.Context, url string, p slashPayload, log *zap.Logger) {
	if url == "" {
		log.Warn("no response_url to answer on")
		return
	}
	opts := []slack.MsgOption{
		slack.MsgOptionResponseURL(url, p.ResponseType),
		slack.MsgOptionText(p.Text, false),
		slack.MsgOptionBlocks(p.Blocks...),
	}
	if p.ReplaceOriginal {
		opts = append(opts, slack.MsgOptionReplaceOriginal(url))
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if _, _, err := b.api.PostMessageContext(ctx, "", opts...); err != nil {
		log.Error("response_url post failed", zap.Error(err))
	}
}

// onEvent answers mentions and direct messages with the same grammar.
func (b *Bot) onEvent(ctx context.Context, ev slackevents.EventsAPIEvent, log *zap.Logger) {
	switch e := ev.InnerEvent.Data.(type) {
	case *slackevents.AppMentionEvent:
		if e.BotID != "" || e.User == b.botUserID {
			return
		}
		thread := e.ThreadTimeStamp
		log = log.With(zap.String("user", e.User), zap.String("channel", e.Channel), zap.String("command", firstWord(commands.StripMentions(e.Text))))
		u := b.lookupUser(ctx, e.User) // their zone and Slack language
		root := thread                 // the answer goes to the mention's thread, or starts one under it
		if root == "" {
			root = e.TimeStamp
		}
		conv := e.Channel + "/" + root
		earlier := ""
		if thread != "" {
			earlier = b.convs.get(conv, b.now(), threadMemory)
		}
		reply, err := b.run(ctx, commands.Request{User: e.User, Channel: e.Channel, Text: e.Text, ID: eventID(ev, e.TimeStamp),
			Location: u.loc, Lang: u.lang, Earlier: earlier})
		if err == nil {
			b.convs.remember(conv, reply, b.now())
		}
		b.deliver(ctx, reply, err, where{from: fromMention, channel: e.Channel, user: e.User, thread: thread, mentionTS: e.TimeStamp}, log)
	case *slackevents.AppHomeOpenedEvent:
		b.onHomeOpened(ctx, e, log) // home.go
	case *slackevents.MessageEvent:
		// Only direct messages from people: never the bot's own posts,
		// edits, joins or other subtypes.
		if e.ChannelType != "im" || e.BotID != "" || e.SubType != "" || e.User == "" || e.User == b.botUserID {
			return
		}
		log = log.With(zap.String("user", e.User), zap.String("command", firstWord(e.Text)))
		u := b.lookupUser(ctx, e.User) // their zone and Slack language
		conv := e.Channel + "/" + e.ThreadTimeStamp
		reply, err := b.run(ctx, commands.Request{User: e.User, Channel: e.Channel, Text: e.Text, ID: eventID(ev, e.TimeStamp),
			Location: u.loc, Lang: u.lang, Earlier: b.convs.get(conv, b.now(), dmMemory)})
		if err == nil {
			b.convs.remember(conv, reply, b.now())
		}
		b.deliver(ctx, reply, err, where{from: fromDM, channel: e.Channel, user: e.User, thread: e.ThreadTimeStamp}, log)
	}
}

func (b *Bot) post(ctx context.Context, channel, thread string, m Message, log *zap.Logger) {
	opts := []slack.MsgOption{slack.MsgOptionText(m.Text, false), slack.MsgOptionBlocks(m.Blocks...)}
	if thread != "" {
		opts = append(opts, slack.MsgOptionTS(thread))
	}
	if _, _, err := b.api.PostMessageContext(ctx, channel, opts...); err != nil {
		log.Error("chat.postMessage failed", zap.String("channel", channel), zap.Error(err))
	}
}

// onInteraction handles buttons: Share re-posts a plan in the channel,
// Adjust opens the plan modal prefilled.
func (b *Bot) onInteraction(ctx context.Context, cb slack.InteractionCallback, log *zap.Logger) {
	if cb.Type != slack.InteractionTypeBlockActions {
		return
	}
	for _, a := range cb.ActionCallback.BlockActions {
		log := log.With(zap.String("action", a.ActionID))
		id := a.ActionID
		if strings.HasPrefix(id, commands.ActionRun+".") {
			id = commands.ActionRun
		}
		switch id {
		case actionShare:
			reply, err := b.run(ctx, commands.Request{User: cb.User.ID, Channel: cb.Channel.ID, Text: a.Value, Lang: b.cachedLang(cb.User.ID)})
			b.deliver(ctx, reply, err, where{from: fromShare, channel: cb.Channel.ID, user: cb.User.ID, responseURL: cb.ResponseURL}, log)
		case commands.ActionRun:
			b.onRunButton(ctx, cb, a, log)
		case commands.ActionOpenPlan: // the App Home's quick actions
			b.openPlanModal(ctx, cb.TriggerID, commands.PlanForm{}, modalMeta{Channel: cb.Channel.ID, ResponseURL: cb.ResponseURL, Lang: b.formLang(ctx, cb.User.ID)}, log)
		case commands.ActionOpenReserve:
			b.openReserveModal(ctx, cb, log) // modal.go
		case actionAdjust:
			form, err := b.cmds.Form(a.Value)
			if err != nil {
				form = commands.PlanForm{Model: a.Value}
			}
			b.openPlanModal(ctx, cb.TriggerID, form, modalMeta{Channel: cb.Channel.ID, ResponseURL: cb.ResponseURL, Lang: b.formLang(ctx, cb.User.ID)}, log)
		}
	}
}

// modalMeta travels in the modal's private_metadata: where to answer.
type modalMeta struct {
	Channel     string    `json:"c,omitempty"`
	ResponseURL string    `json:"u,omitempty"`
	Lang        i18n.Lang `json:"l,omitempty"` // the language it was opened in
}

func (b *Bot) openPlanModal(ctx context.Context, triggerID string, form commands.PlanForm, meta modalMeta, log *zap.Logger) {
	view := planModal(form, meta)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	defer cancel()
	if _, err := b.api.OpenViewContext(ctx, triggerID, view); err != nil {
		log.Error("views.open failed", zap.Error(err))
	}
}

// onViewSubmission validates the plan modal: field errors go back in the
// ack (response_action: errors); a valid request closes the modal and the
// plan is posted where the modal came from.
func (b *Bot) onViewSubmission(ctx context.Context, client acker, envelopeID string, cb slack.InteractionCallback, received time.Time, log *zap.Logger) {
	if cb.View.CallbackID == reserveModalID {
		b.onReserveSubmit(ctx, client, envelopeID, cb, received, log) // modal.go
		return
	}
	if cb.View.CallbackID != planModalID {
		b.ack(client, envelopeID, nil, received, log)
		return
	}
	var meta modalMeta
	_ = json.Unmarshal([]byte(cb.View.PrivateMetadata), &meta)
	form := formFromState(cb.View.State)
	text, errs := b.cmds.ValidateForm(form, meta.Lang)
	if len(errs) > 0 {
		b.ack(client, envelopeID, slack.NewErrorsViewSubmissionResponse(errs), received, log)
		return
	}
	b.ack(client, envelopeID, nil, received, log)
	log = log.With(zap.String("command", "plan"))
	reply, err := b.run(ctx, commands.Request{User: cb.User.ID, Channel: meta.Channel, Text: text, Lang: meta.Lang})
	b.deliver(ctx, reply, err, where{from: fromPlanForm, channel: meta.Channel, user: cb.User.ID, responseURL: meta.ResponseURL}, log)
	b.logDone(log, received, err)
}

// announce posts a state change in the channel (the reply's team channel,
// else where the command came from), records where it went, and falls back
// to the response_url when the bot cannot post there.
//
// replace: a private message the asker sees ("Working on it…", "checking…")
// stands in for the answer; it is replaced by where the answer went.
func (b *Bot) announce(ctx context.Context, channel, responseURL string, replace bool, reply *commands.Reply, log *zap.Logger) {
	msg := renderReply(reply, maxMessageBlocks)
	target := channel
	if reply.Channel != "" {
		target = reply.Channel
	}
	_ = b.pace(ctx, target) // ≤ 1 message/s per channel (post.go)
	ch, ts, err := b.api.PostMessageContext(ctx, target, slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(msg.Blocks...))
	if err != nil {
		log.Warn("announcement post failed; answering in place", zap.String("channel", target), zap.Error(err))
		p := toPayload(msg, true)
		p.ReplaceOriginal = replace
		b.respond(ctx, responseURL, p, log)
		return
	}
	if reply.Announces != "" {
		if err := b.cmds.Announced(ctx, reply.Announces, ch, ts); err != nil {
			log.Warn("could not record the announcement", zap.Error(err))
		}
	}
	if (target != channel || replace) && responseURL != "" {
		b.respond(ctx, responseURL, slashPayload{ResponseType: slack.ResponseTypeEphemeral, Text: i18n.For(reply.Lang).Tf("Announced in <#%s>: %s", target, msg.Text),
			ReplaceOriginal: replace}, log)
	}
}

// onRunButton runs the command a button carries as the user who clicked
// it; its request id makes a double click apply once. A state change
// replaces the message the button was on; an error goes to the clicker.
func (b *Bot) onRunButton(ctx context.Context, cb slack.InteractionCallback, a *slack.BlockAction, log *zap.Logger) {
	var rv runValue
	if err := json.Unmarshal([]byte(a.Value), &rv); err != nil || rv.Command == "" {
		log.Warn("run button with an unreadable value")
		return
	}
	log = log.With(zap.String("command", firstWord(rv.Command)))
	u := b.lookupUser(ctx, cb.User.ID) // their zone and Slack language
	reply, err := b.run(ctx, commands.Request{User: cb.User.ID, Channel: cb.Channel.ID, Text: rv.Command, ID: rv.RequestID,
		Posted: rv.Posted, Location: u.loc, Lang: u.lang})
	w := where{from: fromRunButton, channel: cb.Channel.ID, user: cb.User.ID, responseURL: cb.ResponseURL}
	switch {
	case fromHome(cb):
		w.from = fromHomeButton
	case cb.Container.Type == "message" && !cb.Container.IsEphemeral && cb.Container.ChannelID != "":
		w.message, w.messageTS = cb.Container.ChannelID, cb.Container.MessageTs
	}
	b.deliver(ctx, reply, err, w, log)
}

// announceIn posts a state change from a mention into its channel (and
// thread), recording the announcement.
func (b *Bot) announceIn(ctx context.Context, channel, thread string, reply *commands.Reply, log *zap.Logger) {
	msg := renderReply(reply, maxMessageBlocks)
	opts := []slack.MsgOption{slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(msg.Blocks...)}
	if thread != "" && reply.Channel == "" {
		opts = append(opts, slack.MsgOptionTS(thread))
	}
	target := channel
	if reply.Channel != "" {
		target = reply.Channel
	}
	_ = b.pace(ctx, target) // ≤ 1 message/s per channel (post.go)
	ch, ts, err := b.api.PostMessageContext(ctx, target, opts...)
	if err != nil {
		log.Error("announcement failed", zap.String("channel", target), zap.Error(err))
		return
	}
	if reply.Announces != "" {
		_ = b.cmds.Announced(ctx, reply.Announces, ch, ts)
	}
}
