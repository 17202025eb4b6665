package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/slack-go/slack"
	"go.uber.org/zap"
)

// fieldLabel is a plan modal input's label, hint and placeholder in p's
// language. The placeholders are request words, which read the same in
// every language.
func fieldLabel(p *i18n.Printer, name string) (label, hint, placeholder string) {
	switch name {
	case "model":
		return p.T("Model"), p.T("A catalogue name, a size or an architecture."), "llama3-8b · 7b params · layers 24 hidden 2048 heads 16"
	case "workload":
		return p.T("Workload"), p.T("pretrain, finetune, lora, qlora or inference."), "lora"
	case "amount":
		return p.T("Amount of work"), p.T("Epochs over a dataset, tokens, samples or steps."), "3 epochs of 50k samples"
	case "shape":
		return p.T("Sequence and batch"), p.T("seq, global batch, micro-batch per GPU."), "seq 2048 batch 64"
	case "precision":
		return p.T("Precision"), p.T("fp32, tf32, fp16, bf16, fp8; int8/int4 for inference."), "bf16"
	case "hardware":
		return p.T("Hardware"), p.T("One configuration, or several separated by commas to compare."), "2x h100 · 4x h200, 4x a100"
	case "options":
		return p.T("Options"), p.T("ckpt, flash, zero2, fsdp, adam8bit, tuned, baseline 5.67 h/epoch on 4x v100 …"), "ckpt tuned"
	}
	return name, "", ""
}

// planModal builds the Adjust/plan modal with form's fields prefilled, in
// meta's language.
func planModal(form commands.PlanForm, meta modalMeta) slack.ModalViewRequest {
	p := i18n.For(meta.Lang)
	var blocks []slack.Block
	for _, name := range commands.FormFields {
		label, hint, placeholder := fieldLabel(p, name)
		input := slack.NewPlainTextInputBlockElement(plainText(placeholder, 150), modalInputID)
		input.InitialValue = form.Get(name)
		block := slack.NewInputBlock(name, plainText(label, 2000), plainText(hint, 2000), input)
		block.Optional = name != "model"
		blocks = append(blocks, block)
	}
	md, _ := json.Marshal(meta)
	return slack.ModalViewRequest{
		Type:            slack.VTModal,
		CallbackID:      planModalID,
		Title:           plainText(p.T("Plan a GPU job"), 24),
		Submit:          plainText(p.T("Plan"), 24),
		Close:           plainText(p.T("Cancel"), 24),
		Blocks:          slack.Blocks{BlockSet: blocks},
		PrivateMetadata: string(md),
	}
}

// formFromState reads the submitted modal back into a form.
func formFromState(st *slack.ViewState) commands.PlanForm {
	var f commands.PlanForm
	if st == nil {
		return f
	}
	for _, name := range commands.FormFields {
		if v, ok := st.Values[name][modalInputID]; ok {
			f.Set(name, v.Value)
		}
	}
	return f
}

// The Reserve modal (App Home's "Reserve GPUs"): its callback id and the
// block ids of its inputs; every input's action id is modalInputID.
const (
	reserveModalID  = "reserve.modal"
	reserveServer   = "server"
	reserveCount    = "count"
	reserveDuration = "duration"
	reserveStart    = "start"
	reserveNote     = "note"
	maxNoteLen      = 300 // what the reserve command accepts
	maxSelectOpts   = 100 // Block Kit's limit for a static select
)

// reserveMeta travels in the Reserve modal's private_metadata.
type reserveMeta struct {
	Channel string    `json:"c,omitempty"`  // where it was opened, if from a message
	TZ      string    `json:"tz,omitempty"` // the user's zone, when known at opening
	Home    bool      `json:"h,omitempty"`  // opened from the App Home: refresh it after
	Lang    i18n.Lang `json:"l,omitempty"`  // the language it was opened in: its errors and answer too
}

// reserveModal builds the Reserve form in meta's language. servers fill
// a static select; a team without an inventory gets a text field instead.
// The placeholders are request words ("4h", "tomorrow 9:00"), which the
// form's fields read in every language.
func reserveModal(servers []string, meta reserveMeta) slack.ModalViewRequest {
	p := i18n.For(meta.Lang)
	var server slack.BlockElement
	if len(servers) == 0 {
		server = slack.NewPlainTextInputBlockElement(plainText("server-h", 150), modalInputID)
	} else {
		var opts []*slack.OptionBlockObject
		for _, s := range servers[:min(len(servers), maxSelectOpts)] {
			opts = append(opts, slack.NewOptionBlockObject(s, plainText(s, 75), nil))
		}
		server = slack.NewOptionsSelectBlockElement(slack.OptTypeStatic, plainText(p.T("Choose a server"), 150), modalInputID, opts...)
	}
	count := slack.NewNumberInputBlockElement(plainText("2", 150), modalInputID, false)
	count.MinValue = "1"
	note := slack.NewPlainTextInputBlockElement(plainText(p.T("what runs on them"), 150), modalInputID)
	note.MaxLength = maxNoteLen
	input := func(id, label, hint string, el slack.BlockElement, optional bool) *slack.InputBlock {
		b := slack.NewInputBlock(id, plainText(label, 2000), plainText(hint, 2000), el)
		b.Optional = optional
		return b
	}
	blocks := []slack.Block{
		input(reserveServer, p.T("Server"), p.T("The team server to book GPUs on."), server, false),
		input(reserveCount, p.T("GPUs"), p.T("How many; free ones are picked for you."), count, false),
		input(reserveDuration, p.T("For how long"), p.T("e.g. 4h, 90m, 1d12h. The server's maximum applies."),
			slack.NewPlainTextInputBlockElement(plainText("4h", 150), modalInputID), false),
		input(reserveStart, p.T("Start"), p.T("Leave empty to start now. Times are in your Slack time zone."),
			slack.NewPlainTextInputBlockElement(plainText("tomorrow 9:00", 150), modalInputID), true),
		input(reserveNote, p.T("Note"), p.T("Shown with the reservation."), note, true),
	}
	md, _ := json.Marshal(meta)
	return slack.ModalViewRequest{
		Type:            slack.VTModal,
		CallbackID:      reserveModalID,
		Title:           plainText(p.T("Reserve GPUs"), 24),
		Submit:          plainText(p.T("Reserve"), 24),
		Close:           plainText(p.T("Cancel"), 24),
		Blocks:          slack.Blocks{BlockSet: blocks},
		PrivateMetadata: string(md),
	}
}

// reserveForm is a submitted Reserve modal.
type reserveForm struct {
	Server, Count, Duration, Start, Note string
}

func reserveFormFromState(st *slack.ViewState) reserveForm {
	var f reserveForm
	if st == nil {
		return f
	}
	get := func(block string) string {
		a, ok := st.Values[block][modalInputID]
		if !ok {
			return ""
		}
		if a.SelectedOption.Value != "" {
			return strings.TrimSpace(a.SelectedOption.Value)
		}
		return strings.TrimSpace(a.Value)
	}
	f.Server, f.Count, f.Duration = get(reserveServer), get(reserveCount), get(reserveDuration)
	f.Start, f.Note = get(reserveStart), get(reserveNote)
	return f
}

// command checks what can be checked without the store (so those errors
// are instant) and builds the reserve command the form stands for:
// reserve <n> on <server> for <dur> [from <start>] [note "<note>"]. The
// errors are keyed by block id, as response_action "errors" wants them,
// and written in p's language.
func (f reserveForm) command(p *i18n.Printer) (string, map[string]string) {
	errs := map[string]string{}
	if f.Server == "" || strings.ContainsAny(f.Server, " \t\"'") {
		errs[reserveServer] = p.T("Choose a server.")
	}
	n, err := strconv.Atoi(f.Count)
	switch {
	case err != nil || n < 1:
		errs[reserveCount] = p.T("A whole number of GPUs, 1 or more.")
	case n > 999:
		errs[reserveCount] = p.T("That is more GPUs than any server has.")
	}
	if _, err := commands.ParseDuration(f.Duration); err != nil {
		errs[reserveDuration] = p.Tf("%s — e.g. 4h, 90m or 1d12h.", fieldText(p, err))
	}
	if strings.ContainsAny(f.Start, "\"'“”‘’") {
		errs[reserveStart] = p.T("Write the start without quotes, e.g. tomorrow 9:00.")
	}
	if utf8.RuneCountInString(f.Note) > maxNoteLen {
		errs[reserveNote] = p.Tf("Keep the note under %d characters.", maxNoteLen)
	}
	if len(errs) > 0 {
		return "", errs
	}
	text := fmt.Sprintf("reserve %d on %s for %s", n, f.Server, strings.Join(strings.Fields(f.Duration), ""))
	if f.Start != "" {
		text += " from " + strings.Join(strings.Fields(f.Start), " ")
	}
	if f.Note != "" {
		// The note is quoted: a double quote inside would end it early.
		note := strings.NewReplacer(`"`, "'", "“", "'", "”", "'").Replace(strings.Join(strings.Fields(f.Note), " "))
		text += ` note "` + note + `"`
	}
	return text, nil
}

// errorField is the input a command's complaint is about: the field the
// reader that refused it named (lang.UserError.Field); a refusal of the
// whole request (the GPUs are not free) goes under the GPU count.
func errorField(ue *commands.UserError) string {
	switch ue.Field {
	case "note":
		return reserveNote
	case "start":
		return reserveStart
	case "end", "duration":
		return reserveDuration
	case "count", "ids":
		return reserveCount
	case "server":
		return reserveServer
	}
	return reserveCount
}

// fieldText is a mistake's message for an input's error line (plain
// text, shorter than a message).
func fieldText(p *i18n.Printer, err error) string {
	ue := commands.ExplainIn(p, err)
	if ue == nil {
		return p.T("Something is wrong here.")
	}
	return truncate(strings.ReplaceAll(ue.Msg, "`", ""), 250)
}

// openReserveModal opens the Reserve form for a quick-action click. The
// user's zone goes into the form when it is known; otherwise it is looked
// up now, while the user types, so the submission can be answered inline.
func (b *Bot) openReserveModal(ctx context.Context, cb slack.InteractionCallback, log *zap.Logger) {
	meta := reserveMeta{Channel: cb.Channel.ID, Home: fromHome(cb), Lang: b.formLang(ctx, cb.User.ID)}
	loc := b.cachedLocation(cb.User.ID)
	if loc != nil {
		meta.TZ = loc.String()
	}
	vctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	defer cancel()
	if _, err := b.api.OpenViewContext(vctx, cb.TriggerID, reserveModal(b.cmds.Servers(), meta)); err != nil {
		log.Error("views.open failed", zap.Error(err))
		return
	}
	if loc == nil {
		b.lookupLocation(ctx, cb.User.ID)
	}
}

// onReserveSubmit answers the Reserve form. Mistakes found without the
// store come back at once as field errors. Otherwise the form becomes a
// reserve command run as the submitting user through Dispatch, like a
// slash command: if it answers within the ack budget, a mistake (a
// *commands.UserError) is shown under the field it most likely concerns
// and anything else closes the form and is announced or DMed; if not, the
// form closes and the result follows by DM or announcement.
func (b *Bot) onReserveSubmit(ctx context.Context, client acker, envelopeID string, cb slack.InteractionCallback, received time.Time, log *zap.Logger) {
	var meta reserveMeta
	_ = json.Unmarshal([]byte(cb.View.PrivateMetadata), &meta)
	p := i18n.For(meta.Lang)
	form := reserveFormFromState(cb.View.State)
	text, errs := form.command(p)
	log = log.With(zap.String("command", "reserve"))
	if len(errs) > 0 {
		b.ack(client, envelopeID, slack.NewErrorsViewSubmissionResponse(errs), received, log)
		return
	}
	user := cb.User.ID
	req := commands.Request{User: user, Channel: meta.Channel, Text: text, ID: envelopeID, Location: b.cachedLocation(user), Lang: meta.Lang}
	if req.Location == nil && meta.TZ != "" {
		if loc, err := time.LoadLocation(meta.TZ); err == nil {
			req.Location = loc
		}
	}
	if req.Location == nil {
		// The zone decides what "tomorrow 9:00" means and only users.info
		// knows it, which may not be called before the ack.
		b.ack(client, envelopeID, nil, received, log)
		req.Location = b.lookupLocation(ctx, user)
		reply, err := b.run(ctx, req)
		b.deliver(ctx, reply, err, where{from: fromReserveForm, channel: meta.Channel, user: user, home: meta.Home}, log)
		b.logDone(log, received, err)
		return
	}
	type outcome struct {
		reply *commands.Reply
		err   error
	}
	done := make(chan outcome, 1)
	b.spawn("reserve.run", log, func() {
		r, err := b.run(ctx, req)
		done <- outcome{r, err}
	})
	timer := time.NewTimer(b.cfg.AckBudget)
	defer timer.Stop()
	var out outcome
	select {
	case out = <-done:
		if ue := commands.ExplainIn(p, out.err); ue != nil {
			log.Info("user error", zap.String("msg", ue.Msg))
			field := errorField(ue)
			b.ack(client, envelopeID, slack.NewErrorsViewSubmissionResponse(map[string]string{field: fieldText(p, ue)}), received, log)
			b.logDone(log, received, out.err)
			return
		}
		b.ack(client, envelopeID, nil, received, log)
	case <-timer.C:
		b.ack(client, envelopeID, nil, received, log)
		out = <-done
	}
	b.deliver(ctx, out.reply, out.err, where{from: fromReserveForm, channel: meta.Channel, user: user, home: meta.Home}, log)
	b.logDone(log, received, out.err)
}

// formLang is the language a form opens in: the user's Slack language,
// looked up now if it is not known, within a second so that the trigger
// (valid 3 s) can still open the form; English when Slack is slower or
// speaks a language gpuplan does not. The form keeps it (private_metadata)
// for its errors and its answer.
func (b *Bot) formLang(ctx context.Context, user string) i18n.Lang {
	if e, ok := b.cached(user); ok {
		return i18n.Choose(string(e.lang), false)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return i18n.Choose(string(b.lookupLang(ctx, user)), false)
}

// openDM opens (or finds) the bot's DM with user.
func (b *Bot) openDM(ctx context.Context, user string) (string, error) {
	ch, _, _, err := b.api.OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{user}})
	if err != nil {
		return "", err
	}
	return ch.ID, nil
}
