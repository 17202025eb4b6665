package slackfake_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"

	"github.com/gpuplan/gpuplan/bot/slackfake"
)

// TestSlackGoSmoke drives the fake with the real slack-go client: Socket Mode
// connect, envelopes of every kind parsed by slack-go, acks with payloads, and
// the Web API encodings slack-go uses.
func TestSlackGoSmoke(t *testing.T) {
	fake := slackfake.New(t, slackfake.WithFailOnViolation())
	api := slack.New(slackfake.BotToken,
		slack.OptionAPIURL(fake.URL()),
		slack.OptionAppLevelToken(slackfake.AppToken))
	sm := socketmode.New(api, socketmode.OptionPingInterval(2*time.Second))

	ctx, cancel := context.WithCancel(context.Background())
	runDone := make(chan error, 1)
	go func() { runDone <- sm.RunContext(ctx) }()
	events := make(chan socketmode.Event, 16)
	loopDone := make(chan struct{})
	go func() {
		defer close(loopDone)
		for {
			select {
			case <-ctx.Done():
				return
			case evt := <-sm.Events:
				switch evt.Type {
				case socketmode.EventTypeSlashCommand, socketmode.EventTypeEventsAPI, socketmode.EventTypeInteractive:
					events <- evt
				case socketmode.EventTypeErrorBadMessage, socketmode.EventTypeIncomingError:
					// When the fake disconnects it, slack-go closes its
					// own socket, and its reader may report that read
					// (net.ErrClosed) before it reconnects: no frame.
					if ie, ok := evt.Data.(*slack.IncomingEventError); ok && errors.Is(ie.ErrorObj, net.ErrClosed) {
						continue
					}
					t.Errorf("slack-go could not use a frame: %+v", evt.Data)
				}
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-runDone; !errors.Is(err, context.Canceled) {
			t.Errorf("RunContext = %v", err)
		}
		<-loopDone
	})
	fake.WaitConnections(t, 1, 2*time.Second)

	next := func() socketmode.Event {
		t.Helper()
		select {
		case evt := <-events:
			return evt
		case <-time.After(2 * time.Second):
			t.Fatal("slack-go delivered no event")
		}
		return socketmode.Event{}
	}

	// Slash command, acked with a response payload.
	env := fake.SlashCommand("bert-base 10 epochs on h100x2", "U0001", "C0001")
	id := fake.Push(env)
	evt := next()
	cmd, isCmd := evt.Data.(slack.SlashCommand)
	if !isCmd || cmd.Command != "/gpuplan" || cmd.UserID != "U0001" || cmd.IsEnterpriseInstall || evt.Request.EnvelopeID != id {
		t.Fatalf("slash command event = %+v", evt)
	}
	if err := sm.Ack(*evt.Request, map[string]any{"response_type": "ephemeral", "text": "Plan: ~1.4 h"}); err != nil {
		t.Fatal(err)
	}
	ack := fake.WaitAck(t, id, 2*time.Second)
	var payload struct{ Text string }
	if err := json.Unmarshal(ack.Payload, &payload); err != nil || payload.Text != "Plan: ~1.4 h" {
		t.Fatalf("ack payload %s (%v)", ack.Payload, err)
	}

	// Web API with slack-go's encodings.
	auth, err := api.AuthTest()
	if err != nil || auth.UserID != slackfake.BotUserID || auth.BotID != slackfake.BotID || auth.Header.Get("X-OAuth-Scopes") == "" {
		t.Fatalf("AuthTest = %+v, %v", auth, err)
	}
	ch, ts, err := api.PostMessage("C0001", slack.MsgOptionText("Reserved 2×H100 on node1", false),
		slack.MsgOptionBlocks(slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, "*Reserved*", false, false), nil, nil)))
	if err != nil || ch != "C0001" || ts == "" {
		t.Fatalf("PostMessage = %q %q %v", ch, ts, err)
	}
	calls := fake.Calls("chat.postMessage")
	if len(calls) != 1 || calls[0].Form.Get("token") != slackfake.BotToken || calls[0].Form.Get("channel") != "C0001" ||
		calls[0].Form.Get("blocks") == "" {
		t.Fatalf("chat.postMessage calls = %+v", calls)
	}
	view, err := api.OpenView(cmd.TriggerID, slack.ModalViewRequest{
		Type: slack.VTModal, CallbackID: "reserve.modal",
		Title:  slack.NewTextBlockObject(slack.PlainTextType, "Reserve GPUs", false, false),
		Submit: slack.NewTextBlockObject(slack.PlainTextType, "Reserve", false, false),
		Blocks: slack.Blocks{BlockSet: []slack.Block{slack.NewDividerBlock()}},
	})
	if err != nil || view.ID == "" {
		t.Fatalf("OpenView = %+v, %v", view, err)
	}
	if _, err := api.OpenView(cmd.TriggerID, slack.ModalViewRequest{Type: slack.VTModal,
		Title: slack.NewTextBlockObject(slack.PlainTextType, "x", false, false)}); err == nil || err.Error() != "exchanged_trigger_id" {
		t.Fatalf("second OpenView err = %v", err)
	}
	if _, _, err := api.PostMessage("", slack.MsgOptionResponseURL(cmd.ResponseURL, slack.ResponseTypeEphemeral),
		slack.MsgOptionText("done", false)); err != nil {
		t.Fatalf("response_url post: %v", err)
	}
	fake.WaitResponsePosts(t, 1, time.Second)
	fake.Inject("users.info", slackfake.Fault{Status: 429, RetryAfter: 3})
	var rl *slack.RateLimitedError
	if _, err := api.GetUserInfo("U0001"); !errors.As(err, &rl) || rl.RetryAfter != 3*time.Second {
		t.Fatalf("GetUserInfo under 429 = %v", err)
	}
	if u, err := api.GetUserInfo("U0001"); err != nil || u.TZ != "Europe/Berlin" {
		t.Fatalf("GetUserInfo = %+v, %v", u, err)
	}

	f, err := api.UploadFile(slack.UploadFileParameters{Filename: "plan.csv", Content: "gpu,hours\nh100,1.4\n",
		FileSize: 20, Channel: "C0001", Title: "Plan"})
	if files := fake.Files(); err != nil || f.ID == "" || len(files) != 1 || string(files[0].Content) != "gpu,hours\nh100,1.4\n" ||
		files[0].Channel != "C0001" || !files[0].Completed {
		t.Fatalf("UploadFile = %+v, %v; fake has %+v", f, err, files)
	}

	// Every other envelope kind parses in slack-go.
	fake.Push(fake.AppMention("status node1", "U0002", "C0001", ""))
	if ev, ok := next().Data.(slackevents.EventsAPIEvent); !ok || ev.InnerEvent.Type != "app_mention" ||
		ev.InnerEvent.Data.(*slackevents.AppMentionEvent).Text != "<@U0BOT> status node1" {
		t.Fatalf("app_mention = %+v", ev)
	}
	fake.Push(fake.DirectMessage("reserve 2 on node1 for 4h", "U0001"))
	if ev, ok := next().Data.(slackevents.EventsAPIEvent); !ok || ev.InnerEvent.Data.(*slackevents.MessageEvent).ChannelType != "im" {
		t.Fatalf("message.im = %+v", ev)
	}
	fake.Push(fake.BotEcho("Reserved"))
	if ev, ok := next().Data.(slackevents.EventsAPIEvent); !ok || ev.InnerEvent.Data.(*slackevents.MessageEvent).BotID != slackfake.BotID {
		t.Fatalf("bot echo = %+v", ev)
	}
	if _, err := api.PublishView("U0001", slack.HomeTabViewRequest{Type: slack.VTHomeTab,
		Blocks: slack.Blocks{BlockSet: []slack.Block{slack.NewDividerBlock()}}}, ""); err != nil {
		t.Fatal(err)
	}
	fake.Push(fake.AppHomeOpened("U0001"))
	if ev, ok := next().Data.(slackevents.EventsAPIEvent); !ok || ev.InnerEvent.Data.(*slackevents.AppHomeOpenedEvent).View == nil {
		t.Fatalf("app_home_opened = %+v", ev)
	}
	fake.Push(fake.BlockAction("U0001", "reservation.release", "42", slackfake.Container{Type: "message", ChannelID: "C0001", MessageTS: ts}))
	if cb, ok := next().Data.(slack.InteractionCallback); !ok || cb.Type != slack.InteractionTypeBlockActions ||
		cb.ActionCallback.BlockActions[0].Value != "42" || cb.Container.MessageTs != ts || cb.ResponseURL == "" {
		t.Fatalf("block_actions = %+v", cb)
	}
	sub := fake.ViewSubmission("U0001", "reserve.modal", "{}", map[string]map[string]any{
		"count": {"count_input": map[string]any{"type": "number_input", "value": "2"}}})
	subID := fake.Push(sub)
	evt = next()
	cb, _ := evt.Data.(slack.InteractionCallback)
	if cb.Type != slack.InteractionTypeViewSubmission || cb.View.ID != view.ID || cb.View.State.Values["count"]["count_input"].Value != "2" {
		t.Fatalf("view_submission = %+v", cb)
	}
	if err := sm.Ack(*evt.Request, slack.NewErrorsViewSubmissionResponse(map[string]string{"count": "Only 1 GPU free"})); err != nil {
		t.Fatal(err)
	}
	fake.WaitAck(t, subID, time.Second)

	// The fake's disconnects drive slack-go's reconnect loop. (slack-go also
	// reconnects at once on reason "warning": it treats every disconnect alike.)
	fake.Disconnect("refresh_requested")
	fake.WaitOpens(t, 2, 2*time.Second)
	fake.WaitConnections(t, 1, 2*time.Second)
	fake.DropConnections()
	fake.WaitOpens(t, 3, 2*time.Second)
	fake.WaitConnections(t, 1, 2*time.Second)
	id = fake.Push(fake.DirectMessage("still there?", "U0001"))
	if err := sm.Ack(*next().Request); err != nil {
		t.Fatal(err)
	}
	if a := fake.WaitAck(t, id, time.Second); a.Conn != 3 {
		t.Fatalf("ack after reconnects = %+v", a)
	}
}
