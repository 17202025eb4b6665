package slackfake

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Envelope is a Socket Mode envelope the fake pushes to the app.
type Envelope struct {
	ID                     string
	Type                   string // "events_api", "slash_commands" or "interactive"
	Payload                map[string]any
	AcceptsResponsePayload bool
	RetryAttempt           int
	RetryReason            string
}

// MarshalJSON writes the envelope as Slack does: events_api envelopes always
// carry retry_attempt and retry_reason, the others only when set.
func (e Envelope) MarshalJSON() ([]byte, error) {
	m := map[string]any{
		"envelope_id":              e.ID,
		"type":                     e.Type,
		"accepts_response_payload": e.AcceptsResponsePayload,
		"payload":                  e.Payload,
	}
	if e.Type == "events_api" || e.RetryAttempt != 0 || e.RetryReason != "" {
		m["retry_attempt"] = e.RetryAttempt
		m["retry_reason"] = e.RetryReason
	}
	return json.Marshal(m)
}

// TriggerID is the payload's trigger_id ("" if none).
func (e Envelope) TriggerID() string { s, _ := e.Payload["trigger_id"].(string); return s }

// ResponseURL is the payload's response_url ("" if none).
func (e Envelope) ResponseURL() string { s, _ := e.Payload["response_url"].(string); return s }

// EventID is the event_id of an events_api envelope ("" otherwise).
func (e Envelope) EventID() string { s, _ := e.Payload["event_id"].(string); return s }

// Event is the inner event of an events_api envelope (nil otherwise).
func (e Envelope) Event() map[string]any { m, _ := e.Payload["event"].(map[string]any); return m }

// Redeliver returns e as Slack redelivers it: a new envelope_id, the same
// payload (same event_id), and the given retry_attempt and retry_reason
// (Slack uses "timeout" when the ack was late).
func (s *Server) Redeliver(e Envelope, attempt int, reason string) Envelope {
	s.mu.Lock()
	defer s.mu.Unlock()
	e.ID = s.envelopeIDLocked()
	e.RetryAttempt = attempt
	e.RetryReason = reason
	return e
}

// Container says where a block action happened.
type Container struct {
	Type        string // "message" or "view"
	ChannelID   string
	MessageTS   string
	IsEphemeral bool
	ViewID      string
}

func (s *Server) envelopeIDLocked() string {
	return fmt.Sprintf("%08x-5afe-4a4e-8e0e-%012x", s.cfg.seed&0xffffffff, s.nextIDLocked("envelope"))
}

func (s *Server) triggerLocked(viewID string) string {
	n := s.nextIDLocked("trigger")
	id := fmt.Sprintf("%d.26768298162.%032x", 1000000000+n, n)
	s.triggers[id] = &trigger{issued: s.now(), viewID: viewID}
	return id
}

func (s *Server) responseURLLocked(r *responseURL) string {
	id := fmt.Sprint(s.nextIDLocked("response"))
	r.issued = s.now()
	s.respURLs[id] = r
	return s.url + "response/" + id
}

func (s *Server) eventIDLocked() string {
	return fmt.Sprintf("Ev%010d", s.nextIDLocked("event"))
}

func (s *Server) clientMsgIDLocked() string {
	return fmt.Sprintf("c0ffee00-0000-4000-8000-%012x", s.nextIDLocked("client_msg"))
}

func (s *Server) userObjLocked(id string) map[string]any {
	u := s.ensureUserLocked(id)
	return map[string]any{"id": u.id, "username": u.name, "name": u.name, "team_id": TeamID}
}

func channelName(c *channel) string {
	switch {
	case c.im:
		return "directmessage"
	case c.mpim:
		return "mpdm"
	case c.private && c.name == "":
		return "privategroup"
	}
	return c.name
}

var authorizations = []any{map[string]any{
	"enterprise_id": nil, "team_id": TeamID, "user_id": BotUserID,
	"is_bot": true, "is_enterprise_install": false,
}}

func (s *Server) eventsAPILocked(event map[string]any, context string) Envelope {
	ts, _ := event["event_ts"].(string)
	sec := ts
	if i := strings.IndexByte(ts, '.'); i >= 0 {
		sec = ts[:i]
	}
	var eventTime int64
	fmt.Sscan(sec, &eventTime)
	return Envelope{
		ID:   s.envelopeIDLocked(),
		Type: "events_api",
		Payload: map[string]any{
			"token":                 "verification-token",
			"team_id":               TeamID,
			"context_team_id":       TeamID,
			"context_enterprise_id": nil,
			"api_app_id":            AppID,
			"event":                 event,
			"type":                  "event_callback",
			"event_id":              s.eventIDLocked(),
			"event_time":            eventTime,
			"authorizations":        authorizations,
			"is_ext_shared_channel": false,
			"event_context":         context,
		},
	}
}

// richText is the rich_text block Slack adds to user messages.
func richText(n int, text string) []any {
	var elems []any
	rest := text
	for rest != "" {
		i := strings.Index(rest, "<@")
		j := -1
		if i >= 0 {
			j = strings.IndexByte(rest[i:], '>')
		}
		if i < 0 || j < 0 {
			elems = append(elems, map[string]any{"type": "text", "text": rest})
			break
		}
		if i > 0 {
			elems = append(elems, map[string]any{"type": "text", "text": rest[:i]})
		}
		elems = append(elems, map[string]any{"type": "user", "user_id": rest[i+2 : i+j]})
		rest = rest[i+j+1:]
	}
	return []any{map[string]any{
		"type":     "rich_text",
		"block_id": fmt.Sprintf("rt%03d", n),
		"elements": []any{map[string]any{"type": "rich_text_section", "elements": elems}},
	}}
}

// SlashCommand builds a slash_commands envelope for /gpuplan. Its
// response_url (on the fake) and trigger_id are registered, and
// is_enterprise_install is the string "false", as real Slack sends it.
func (s *Server) SlashCommand(text, user, channel string) Envelope {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.ensureUserLocked(user)
	c := s.ensureChannelLocked(channel, user)
	return Envelope{
		ID:                     s.envelopeIDLocked(),
		Type:                   "slash_commands",
		AcceptsResponsePayload: true,
		Payload: map[string]any{
			"token":                 "verification-token",
			"team_id":               TeamID,
			"team_domain":           TeamDomain,
			"channel_id":            channel,
			"channel_name":          channelName(c),
			"user_id":               user,
			"user_name":             u.name,
			"command":               Command,
			"text":                  text,
			"api_app_id":            AppID,
			"is_enterprise_install": "false",
			"response_url":          s.responseURLLocked(&responseURL{channel: channel, user: user}),
			"trigger_id":            s.triggerLocked(""),
		},
	}
}

// AppMention builds an app_mention event. The text gets the "<@U0BOT> "
// prefix unless it already starts with it; threadTS "" means not in a thread.
// The message is kept in the channel (as a user's message).
func (s *Server) AppMention(text, user, channel, threadTS string) Envelope {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ensureUserLocked(user)
	s.ensureChannelLocked(channel, user)
	mention := "<@" + BotUserID + ">"
	if !strings.HasPrefix(text, mention) {
		text = mention + " " + text
	}
	ts := s.nextTSLocked()
	event := map[string]any{
		"client_msg_id": s.clientMsgIDLocked(),
		"type":          "app_mention",
		"text":          text,
		"user":          user,
		"ts":            ts,
		"team":          TeamID,
		"channel":       channel,
		"event_ts":      ts,
		"blocks":        richText(s.nextIDLocked("block"), text),
	}
	if threadTS != "" {
		event["thread_ts"] = threadTS
	}
	s.messages[channel] = append(s.messages[channel], &Message{Channel: channel, TS: ts, ThreadTS: threadTS, Text: text, User: user})
	return s.eventsAPILocked(event, fmt.Sprintf("1-app_mention-%s-%s", TeamID, channel))
}

// DirectMessage builds a message.im event: user writes text in the bot's DM
// (channel DMChannel(user), channel_type "im").
func (s *Server) DirectMessage(text, user string) Envelope {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ensureUserLocked(user)
	channel := DMChannel(user)
	s.ensureChannelLocked(channel, user)
	ts := s.nextTSLocked()
	event := map[string]any{
		"client_msg_id": s.clientMsgIDLocked(),
		"type":          "message",
		"channel":       channel,
		"channel_type":  "im",
		"user":          user,
		"text":          text,
		"ts":            ts,
		"event_ts":      ts,
		"team":          TeamID,
		"blocks":        richText(s.nextIDLocked("block"), text),
	}
	s.messages[channel] = append(s.messages[channel], &Message{Channel: channel, TS: ts, Text: text, User: user})
	return s.eventsAPILocked(event, fmt.Sprintf("1-message-%s-%s", TeamID, channel))
}

// BotEcho builds a message.im event for a message the bot itself posted
// (bot_id B0001, subtype "bot_message") in U0001's DM; the bot must ignore it.
func (s *Server) BotEcho(text string) Envelope {
	s.mu.Lock()
	defer s.mu.Unlock()
	channel := DMChannel("U0001")
	s.ensureChannelLocked(channel, "U0001")
	ts := s.nextTSLocked()
	event := map[string]any{
		"type":         "message",
		"subtype":      "bot_message",
		"channel":      channel,
		"channel_type": "im",
		"bot_id":       BotID,
		"app_id":       AppID,
		"username":     BotName,
		"text":         text,
		"ts":           ts,
		"event_ts":     ts,
		"bot_profile":  map[string]any{"id": BotID, "app_id": AppID, "name": BotName, "team_id": TeamID, "deleted": false},
	}
	return s.eventsAPILocked(event, fmt.Sprintf("1-message-%s-%s", TeamID, channel))
}

// AppHomeOpened builds an app_home_opened event for the Home tab. It carries
// the view last published for user, and no view if none was.
func (s *Server) AppHomeOpened(user string) Envelope {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ensureUserLocked(user)
	channel := DMChannel(user)
	s.ensureChannelLocked(channel, user)
	event := map[string]any{
		"type":     "app_home_opened",
		"user":     user,
		"channel":  channel,
		"tab":      "home",
		"event_ts": s.nextTSLocked(),
	}
	if id, ok := s.homeViews[user]; ok {
		event["view"] = s.viewWireLocked(s.views[id])
	}
	return s.eventsAPILocked(event, fmt.Sprintf("1-app_home_opened-%s-%s", TeamID, channel))
}

// BlockAction builds a block_actions interaction for a button press.
// Message containers get a registered response_url and, unless ephemeral, the
// message as the fake keeps it; view containers get the view. The action's
// block_id and text come from the button with actionID if the fake can find it.
func (s *Server) BlockAction(user, actionID, value string, c Container) Envelope {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.Type == "" {
		c.Type = "message"
		if c.ViewID != "" {
			c.Type = "view"
		}
	}
	actionTS := s.nextTSLocked()
	payload := map[string]any{
		"type":                  "block_actions",
		"user":                  s.userObjLocked(user),
		"api_app_id":            AppID,
		"token":                 "verification-token",
		"team":                  map[string]any{"id": TeamID, "domain": TeamDomain},
		"enterprise":            nil,
		"is_enterprise_install": false,
		"state":                 map[string]any{"values": map[string]any{}},
	}
	var blocks []any
	switch c.Type {
	case "view":
		payload["container"] = map[string]any{"type": "view", "view_id": c.ViewID}
		payload["trigger_id"] = s.triggerLocked(c.ViewID)
		if v, ok := s.views[c.ViewID]; ok {
			payload["view"] = s.viewWireLocked(v)
			blocks, _ = blocksOf(v.data["blocks"])
		} else {
			payload["view"] = map[string]any{"id": c.ViewID, "team_id": TeamID, "type": "modal",
				"blocks": []any{}, "state": map[string]any{"values": map[string]any{}}, "app_id": AppID, "bot_id": BotID}
		}
	default:
		ch := s.ensureChannelLocked(c.ChannelID, user)
		payload["container"] = map[string]any{
			"type": "message", "message_ts": c.MessageTS, "channel_id": c.ChannelID, "is_ephemeral": c.IsEphemeral,
		}
		payload["channel"] = map[string]any{"id": c.ChannelID, "name": channelName(ch)}
		payload["trigger_id"] = s.triggerLocked("")
		payload["response_url"] = s.responseURLLocked(&responseURL{
			channel: c.ChannelID, messageTS: c.MessageTS, user: user,
		})
		if m := s.findMessageLocked(c.ChannelID, c.MessageTS); m != nil {
			blocks = m.Blocks
			if !c.IsEphemeral {
				msg := map[string]any{"type": "message", "text": m.Text, "user": m.User, "ts": m.TS, "team": TeamID, "blocks": m.Blocks}
				if m.BotID != "" {
					msg["bot_id"] = m.BotID
					msg["app_id"] = AppID
				}
				if m.ThreadTS != "" {
					msg["thread_ts"] = m.ThreadTS
				}
				payload["message"] = msg
			}
		}
	}
	blockID, text := findButton(blocks, actionID)
	if blockID == "" {
		blockID = fmt.Sprintf("b%03d", s.nextIDLocked("block"))
	}
	if text == nil {
		text = map[string]any{"type": "plain_text", "text": actionID, "emoji": true}
	}
	payload["actions"] = []any{map[string]any{
		"type": "button", "action_id": actionID, "block_id": blockID,
		"text": text, "value": value, "action_ts": actionTS,
	}}
	return Envelope{ID: s.envelopeIDLocked(), Type: "interactive", AcceptsResponsePayload: false, Payload: payload}
}

// findButton looks for an element with actionID in blocks and returns its
// block_id and text.
func findButton(blocks []any, actionID string) (string, any) {
	for _, b := range blocks {
		bm, _ := b.(map[string]any)
		if bm == nil {
			continue
		}
		bid, _ := bm["block_id"].(string)
		var elems []any
		if es, ok := bm["elements"].([]any); ok {
			elems = append(elems, es...)
		}
		if acc, ok := bm["accessory"]; ok {
			elems = append(elems, acc)
		}
		for _, e := range elems {
			em, _ := e.(map[string]any)
			if em != nil && em["action_id"] == actionID {
				return bid, em["text"]
			}
		}
	}
	return "", nil
}

// ViewSubmission builds a view_submission interaction for the modal with
// callbackID that the app opened last (a fresh view id if it opened none).
// values is state.values: block_id -> action_id -> element state, e.g.
//
//	{"count": {"count_input": {"type": "number_input", "value": "2"}}}
func (s *Server) ViewSubmission(user, callbackID, privateMetadata string, values map[string]map[string]any) Envelope {
	s.mu.Lock()
	defer s.mu.Unlock()
	var v *viewRec
	for _, r := range s.views {
		if cb, _ := r.data["callback_id"].(string); cb == callbackID && r.data["type"] == "modal" {
			if v == nil || viewNum(r.id) > viewNum(v.id) {
				v = r
			}
		}
	}
	var view map[string]any
	if v != nil {
		view = s.viewWireLocked(v)
	} else {
		id := s.newViewIDLocked()
		view = map[string]any{
			"id": id, "team_id": TeamID, "type": "modal", "callback_id": callbackID,
			"title":  map[string]any{"type": "plain_text", "text": "gpuplan"},
			"submit": map[string]any{"type": "plain_text", "text": "Submit"},
			"blocks": []any{}, "hash": s.hashLocked(), "root_view_id": id, "previous_view_id": nil,
			"app_id": AppID, "bot_id": BotID, "external_id": "", "clear_on_close": false, "notify_on_close": false,
			"app_installed_team_id": TeamID,
		}
	}
	state := map[string]any{}
	for block, actions := range values {
		state[block] = map[string]any(actions)
	}
	view["private_metadata"] = privateMetadata
	view["state"] = map[string]any{"values": state}
	viewID, _ := view["id"].(string)
	return Envelope{
		ID:                     s.envelopeIDLocked(),
		Type:                   "interactive",
		AcceptsResponsePayload: true,
		Payload: map[string]any{
			"type":                  "view_submission",
			"team":                  map[string]any{"id": TeamID, "domain": TeamDomain},
			"user":                  s.userObjLocked(user),
			"api_app_id":            AppID,
			"token":                 "verification-token",
			"trigger_id":            s.triggerLocked(viewID),
			"is_enterprise_install": false,
			"enterprise":            nil,
			"response_urls":         []any{},
			"view":                  view,
		},
	}
}

func viewNum(id string) int {
	var n int
	fmt.Sscanf(id, "V%d", &n)
	return n
}
