package slackfake

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // users.info tz_offset must not depend on the host's zoneinfo
	"unicode/utf8"
)

const (
	maxBody     = 10 << 20
	maxViewSize = 250 * 1024
	maxMsgText  = 40000
)

type apiCall struct {
	method string
	form   url.Values
	json   map[string]any
	header http.Header
}

type apiResp struct {
	status int
	body   map[string]any
	header http.Header
}

func success(fields map[string]any) apiResp {
	m := map[string]any{"ok": true}
	maps.Copy(m, fields)
	return apiResp{status: http.StatusOK, body: m}
}

func slackErr(code string) apiResp {
	return apiResp{status: http.StatusOK, body: map[string]any{"ok": false, "error": code}}
}

func (r apiResp) errorCode() string {
	if e, _ := r.body["error"].(string); e != "" {
		return e
	}
	if r.status != http.StatusOK {
		return http.StatusText(r.status)
	}
	return ""
}

func writeResp(w http.ResponseWriter, r apiResp) {
	for k, v := range r.header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(r.status)
	_ = json.NewEncoder(w).Encode(r.body)
}

func faultResp(f Fault) apiResp {
	if f.Status == 0 {
		return slackErr(f.SlackError)
	}
	r := apiResp{status: f.Status, header: http.Header{}, body: map[string]any{"ok": false, "error": f.SlackError}}
	if f.Status == http.StatusTooManyRequests {
		ra := f.RetryAfter
		if ra == 0 {
			ra = 1
		}
		if ra > 0 {
			r.header.Set("Retry-After", strconv.Itoa(ra))
		}
		if f.SlackError == "" {
			r.body["error"] = "ratelimited"
		}
	} else if f.SlackError == "" {
		r.body["error"] = "internal_error"
	}
	return r
}

// param returns a parameter from the JSON body (strings only) or the form.
func (c *apiCall) param(name string) string {
	if c.json != nil {
		if v, ok := c.json[name]; ok {
			switch v := v.(type) {
			case string:
				return v
			case bool, float64:
				return fmt.Sprint(v)
			}
		}
	}
	return c.form.Get(name)
}

func (c *apiCall) has(name string) bool {
	if c.json != nil {
		if _, ok := c.json[name]; ok {
			return true
		}
	}
	return c.form.Has(name)
}

// object returns a JSON object parameter (an object in a JSON body, or a JSON
// string in a form).
func (c *apiCall) object(name string) (map[string]any, error) {
	var raw any
	if c.json != nil {
		raw = c.json[name]
	}
	if raw == nil && c.form.Has(name) {
		raw = c.form.Get(name)
	}
	switch v := raw.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return v, nil
	case string:
		var m map[string]any
		if err := json.Unmarshal([]byte(v), &m); err != nil {
			return nil, fmt.Errorf("%s is not a JSON object: %v", name, err)
		}
		return m, nil
	}
	return nil, fmt.Errorf("%s is a %T, not an object", name, raw)
}

// blocks returns the blocks parameter and whether it was sent.
func (c *apiCall) blocks() ([]any, bool, error) {
	var raw any
	if c.json != nil {
		raw = c.json["blocks"]
	}
	if raw == nil && c.form.Has("blocks") {
		raw = c.form.Get("blocks")
	}
	if raw == nil {
		return nil, false, nil
	}
	b, err := blocksOf(raw)
	return b, true, err
}

// blocksOf turns a blocks value (array, JSON string, or null) into a slice.
func blocksOf(raw any) ([]any, error) {
	switch v := raw.(type) {
	case nil:
		return nil, nil
	case []any:
		return v, nil
	case string:
		if strings.TrimSpace(v) == "" {
			return nil, nil
		}
		var b []any
		if err := json.Unmarshal([]byte(v), &b); err != nil {
			return nil, fmt.Errorf("blocks is not a JSON array: %v", err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("blocks is a %T, not an array", raw)
}

func (c *apiCall) token() string {
	if t := c.form.Get("token"); t != "" {
		return t
	}
	if c.json != nil {
		if t, _ := c.json["token"].(string); t != "" {
			return t
		}
	}
	if h := c.header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		return strings.TrimPrefix(h, "Bearer ")
	}
	return ""
}

func readCall(r *http.Request, method string) (*apiCall, error) {
	c := &apiCall{method: method, header: r.Header.Clone()}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/json" {
		c.form = r.URL.Query()
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
		if err != nil {
			return c, err
		}
		c.json = map[string]any{}
		if len(bytes.TrimSpace(body)) > 0 {
			if err := json.Unmarshal(body, &c.json); err != nil {
				return c, err
			}
		}
		return c, nil
	}
	if err := r.ParseForm(); err != nil {
		c.form = url.Values{}
		return c, err
	}
	c.form = r.Form
	return c, nil
}

// sleep waits d unless the request or the server goes away first.
func (s *Server) sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	case <-s.done:
	}
}

func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/")
	switch {
	case path == "link/" || path == "link":
		s.serveLink(w, r)
	case strings.HasPrefix(path, "response/"):
		s.serveResponseURL(w, r, strings.TrimPrefix(path, "response/"))
	case strings.HasPrefix(path, "upload/"):
		s.serveUpload(w, r, strings.TrimPrefix(path, "upload/"))
	default:
		s.serveAPI(w, r, path)
	}
}

// takeFault claims the next injected fault for method, if any, and waits
// out its delay.
func (s *Server) takeFault(r *http.Request, method string) (Fault, bool) {
	s.mu.Lock()
	f, faulted := s.takeFaultLocked(method)
	s.mu.Unlock()
	if faulted && f.Delay > 0 {
		s.sleep(r.Context(), f.Delay)
	}
	return f, faulted
}

func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, method string) {
	at := time.Now()
	c, perr := readCall(r, method)

	f, faulted := s.takeFault(r, method)

	s.mu.Lock()
	var resp apiResp
	switch {
	case faulted && (f.Status != 0 || f.SlackError != ""):
		resp = faultResp(f)
	case perr != nil:
		resp = slackErr("invalid_form_data")
	default:
		resp = s.dispatchLocked(c)
	}
	call := Call{Method: method, JSON: c.json, Header: c.header, At: at, Status: resp.status, Error: resp.errorCode()}
	if len(c.form) > 0 {
		call.Form = c.form
	}
	s.calls = append(s.calls, call)
	s.notifyLocked()
	s.mu.Unlock()
	writeResp(w, resp)
}

var handlers = map[string]func(*Server, *apiCall) apiResp{
	"auth.test":                    (*Server).authTest,
	"chat.postMessage":             (*Server).chatPostMessage,
	"chat.postEphemeral":           (*Server).chatPostEphemeral,
	"chat.update":                  (*Server).chatUpdate,
	"chat.delete":                  (*Server).chatDelete,
	"views.open":                   (*Server).viewsOpen,
	"views.push":                   (*Server).viewsPush,
	"views.update":                 (*Server).viewsUpdate,
	"views.publish":                (*Server).viewsPublish,
	"users.info":                   (*Server).usersInfo,
	"conversations.open":           (*Server).conversationsOpen,
	"conversations.info":           (*Server).conversationsInfo,
	"files.getUploadURLExternal":   (*Server).filesGetUploadURL,
	"files.completeUploadExternal": (*Server).filesComplete,
}

func (s *Server) dispatchLocked(c *apiCall) apiResp {
	if c.method == "apps.connections.open" {
		return s.serveOpenLocked(c)
	}
	h, known := handlers[c.method]
	if !known {
		return apiResp{status: http.StatusNotFound, body: map[string]any{"ok": false, "error": "unknown_method"}}
	}
	switch tok := c.token(); tok {
	case "":
		return slackErr("not_authed")
	case BotToken:
	default:
		return slackErr("invalid_auth")
	}
	resp := h(s, c)
	if resp.header == nil {
		resp.header = http.Header{}
	}
	resp.header.Set("X-OAuth-Scopes", strings.Join(s.scopes, ","))
	return resp
}

// scopeErrLocked answers missing_scope when the bot lacks scope.
func (s *Server) scopeErrLocked(scope string) *apiResp {
	if s.hasScopeLocked(scope) {
		return nil
	}
	r := slackErr("missing_scope")
	r.body["needed"] = scope
	r.body["provided"] = strings.Join(s.scopes, ",")
	return &r
}

func (s *Server) rejectLocked(violations []string) apiResp {
	for _, v := range violations {
		s.violationLocked(v)
	}
	return slackErr("invalid_blocks")
}

func (s *Server) authTest(*apiCall) apiResp {
	return success(map[string]any{
		"url":                   "https://" + TeamDomain + ".slack.com/",
		"team":                  TeamDomain,
		"user":                  BotName,
		"team_id":               TeamID,
		"user_id":               BotUserID,
		"bot_id":                BotID,
		"is_enterprise_install": false,
	})
}

// --- chat.* ---

// postTargetLocked resolves the channel of chat.postMessage (a user ID means
// the bot's DM with that user) and checks that the bot may post there.
func (s *Server) postTargetLocked(id string, needMember bool) (*channel, string) {
	if id == "" {
		return nil, "channel_not_found"
	}
	if strings.HasPrefix(id, "U") {
		if _, ok := s.users[id]; !ok {
			return nil, "channel_not_found"
		}
		uid := id
		id = DMChannel(uid)
		s.ensureChannelLocked(id, uid)
	}
	c := s.channels[id]
	switch {
	case c == nil:
		return nil, "channel_not_found"
	case c.member:
		return c, ""
	case c.im || c.mpim || c.private:
		return nil, "channel_not_found"
	case needMember || !s.hasScopeLocked("chat:write.public"):
		return nil, "not_in_channel"
	}
	return c, ""
}

func (s *Server) findMessageLocked(channel, ts string) *Message {
	for _, m := range s.messages[channel] {
		if m.TS == ts {
			return m
		}
	}
	return nil
}

func messageWire(m *Message) map[string]any {
	w := map[string]any{
		"type": "message", "text": m.Text, "user": m.User, "ts": m.TS, "team": TeamID,
	}
	if m.Blocks != nil {
		w["blocks"] = m.Blocks
	}
	if m.BotID != "" {
		w["bot_id"] = m.BotID
		w["app_id"] = AppID
		w["bot_profile"] = map[string]any{"id": BotID, "app_id": AppID, "name": BotName, "team_id": TeamID, "deleted": false}
	}
	if m.ThreadTS != "" {
		w["thread_ts"] = m.ThreadTS
	}
	return w
}

// messageContentLocked reads and checks text and blocks of a chat.* call.
func (s *Server) messageContentLocked(c *apiCall) (text string, blocks []any, blocksSent bool, fail *apiResp) {
	text = c.param("text")
	blocks, blocksSent, err := c.blocks()
	if err != nil {
		r := s.rejectLocked([]string{c.method + ": " + err.Error()})
		return "", nil, false, &r
	}
	if text == "" && len(blocks) == 0 && c.param("attachments") == "" {
		r := slackErr("no_text")
		return "", nil, false, &r
	}
	if v := validateMessage(c.method, text, blocks); len(v) > 0 {
		r := s.rejectLocked(v)
		return "", nil, false, &r
	}
	if utf8.RuneCountInString(text) > maxMsgText {
		r := slackErr("msg_too_long")
		return "", nil, false, &r
	}
	return text, blocks, blocksSent, nil
}

func (s *Server) chatPostMessage(c *apiCall) apiResp {
	if e := s.scopeErrLocked("chat:write"); e != nil {
		return *e
	}
	ch, code := s.postTargetLocked(c.param("channel"), false)
	if code != "" {
		return slackErr(code)
	}
	text, blocks, _, fail := s.messageContentLocked(c)
	if fail != nil {
		return *fail
	}
	m := &Message{Channel: ch.id, TS: s.nextTSLocked(), ThreadTS: c.param("thread_ts"),
		Text: text, Blocks: blocks, User: BotUserID, BotID: BotID}
	s.messages[ch.id] = append(s.messages[ch.id], m)
	return success(map[string]any{"channel": ch.id, "ts": m.TS, "message": messageWire(m)})
}

func (s *Server) chatPostEphemeral(c *apiCall) apiResp {
	if e := s.scopeErrLocked("chat:write"); e != nil {
		return *e
	}
	ch, code := s.postTargetLocked(c.param("channel"), true)
	if code != "" {
		return slackErr(code)
	}
	to := c.param("user")
	if _, known := s.users[to]; !known {
		return slackErr("user_not_found")
	}
	text, blocks, _, fail := s.messageContentLocked(c)
	if fail != nil {
		return *fail
	}
	m := &Message{Channel: ch.id, TS: s.nextTSLocked(), ThreadTS: c.param("thread_ts"),
		Text: text, Blocks: blocks, User: BotUserID, BotID: BotID, EphemeralTo: to}
	s.messages[ch.id] = append(s.messages[ch.id], m)
	return success(map[string]any{"message_ts": m.TS})
}

// existingLocked finds the message chat.update/chat.delete refer to.
func (s *Server) existingLocked(c *apiCall, cantCode string) (*Message, string) {
	id := c.param("channel")
	if strings.HasPrefix(id, "U") {
		id = DMChannel(id)
	}
	if _, known := s.channels[id]; !known {
		return nil, "channel_not_found"
	}
	m := s.findMessageLocked(id, c.param("ts"))
	switch {
	case m == nil || m.Deleted:
		return nil, "message_not_found"
	case m.EphemeralTo != "":
		// Ephemeral messages can only be replaced through response_url.
		if cantCode == "cant_update_message" {
			return nil, cantCode
		}
		return nil, "message_not_found"
	case m.User != BotUserID:
		return nil, cantCode
	}
	return m, ""
}

func (s *Server) chatUpdate(c *apiCall) apiResp {
	if e := s.scopeErrLocked("chat:write"); e != nil {
		return *e
	}
	m, code := s.existingLocked(c, "cant_update_message")
	if code != "" {
		return slackErr(code)
	}
	text, blocks, blocksSent, fail := s.messageContentLocked(c)
	if fail != nil {
		return *fail
	}
	if c.has("text") {
		m.Text = text
	}
	if blocksSent {
		m.Blocks = blocks
	}
	m.Edits++
	return success(map[string]any{"channel": m.Channel, "ts": m.TS, "text": m.Text, "message": messageWire(m)})
}

func (s *Server) chatDelete(c *apiCall) apiResp {
	if e := s.scopeErrLocked("chat:write"); e != nil {
		return *e
	}
	m, code := s.existingLocked(c, "cant_delete_message")
	if code != "" {
		return slackErr(code)
	}
	m.Deleted = true
	return success(map[string]any{"channel": m.Channel, "ts": m.TS})
}
