package slackfake

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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

// --- views.* ---

func (s *Server) newViewIDLocked() string {
	return fmt.Sprintf("V%04d", s.nextIDLocked("view"))
}

func (s *Server) hashLocked() string {
	return fmt.Sprintf("%d.%08x", s.now().Unix(), s.nextIDLocked("hash"))
}

func (s *Server) viewWireLocked(v *viewRec) map[string]any {
	w := map[string]any{
		"private_metadata": "", "callback_id": "", "external_id": "",
		"clear_on_close": false, "notify_on_close": false,
		"title": nil, "close": nil, "submit": nil,
	}
	maps.Copy(w, v.data)
	if w["blocks"] == nil {
		w["blocks"] = []any{}
	}
	w["id"] = v.id
	w["team_id"] = TeamID
	w["state"] = map[string]any{"values": map[string]any{}}
	w["hash"] = v.hash
	w["root_view_id"] = v.root
	if v.previous != "" {
		w["previous_view_id"] = v.previous
	} else {
		w["previous_view_id"] = nil
	}
	w["app_id"] = AppID
	w["bot_id"] = BotID
	w["app_installed_team_id"] = TeamID
	return w
}

// viewArgLocked reads and checks the view parameter.
func (s *Server) viewArgLocked(c *apiCall, wantType string) (map[string]any, *apiResp) {
	view, err := c.object("view")
	if err != nil || view == nil {
		r := slackErr("invalid_arguments")
		return nil, &r
	}
	if wantType != "" && view["type"] != wantType {
		r := slackErr("invalid_arguments")
		return nil, &r
	}
	if v := validateView(c.method, view); len(v) > 0 {
		r := s.rejectLocked(v)
		return nil, &r
	}
	if b, _ := json.Marshal(view); len(b) > maxViewSize {
		r := slackErr("view_too_large")
		return nil, &r
	}
	return view, nil
}

// checkTriggerLocked checks that a trigger_id may be exchanged now.
func (s *Server) checkTriggerLocked(id string) (*trigger, string) {
	t, known := s.triggers[id]
	switch {
	case !known:
		return nil, "expired_trigger_id"
	case t.used:
		return nil, "exchanged_trigger_id"
	case s.now().Sub(t.issued) > TriggerTTL:
		return nil, "expired_trigger_id"
	}
	return t, ""
}

func (s *Server) addViewLocked(data map[string]any, root, previous, user string) *viewRec {
	v := &viewRec{id: s.newViewIDLocked(), data: data, previous: previous, user: user, hash: s.hashLocked()}
	v.root = root
	if root == "" {
		v.root = v.id
	}
	s.views[v.id] = v
	return v
}

func (s *Server) viewsOpen(c *apiCall) apiResp {
	view, fail := s.viewArgLocked(c, "modal")
	if fail != nil {
		return *fail
	}
	t, code := s.checkTriggerLocked(c.param("trigger_id"))
	if code != "" {
		return slackErr(code)
	}
	t.used = true
	v := s.addViewLocked(view, "", "", "")
	s.stacks[v.root] = 1
	return success(map[string]any{"view": s.viewWireLocked(v)})
}

// viewsPush pushes onto the stack of the modal the trigger came from (a
// trigger from outside a modal opens a new stack); at most 3 views per stack.
func (s *Server) viewsPush(c *apiCall) apiResp {
	view, fail := s.viewArgLocked(c, "modal")
	if fail != nil {
		return *fail
	}
	t, code := s.checkTriggerLocked(c.param("trigger_id"))
	if code != "" {
		return slackErr(code)
	}
	root, prev := "", ""
	if parent, ok := s.views[t.viewID]; ok && parent.data["type"] == "modal" {
		root, prev = parent.root, parent.id
		if s.stacks[root] >= 3 {
			return slackErr("push_limit_reached")
		}
	}
	t.used = true
	v := s.addViewLocked(view, root, prev, "")
	s.stacks[v.root]++
	return success(map[string]any{"view": s.viewWireLocked(v)})
}

func (s *Server) viewsUpdate(c *apiCall) apiResp {
	var v *viewRec
	if id := c.param("view_id"); id != "" {
		v = s.views[id]
	} else if ext := c.param("external_id"); ext != "" {
		for _, r := range s.views {
			if r.data["external_id"] == ext && (v == nil || viewNum(r.id) > viewNum(v.id)) {
				v = r
			}
		}
	} else {
		return slackErr("invalid_arguments")
	}
	if v == nil {
		return slackErr("not_found")
	}
	want, _ := v.data["type"].(string)
	view, fail := s.viewArgLocked(c, want)
	if fail != nil {
		return *fail
	}
	if h := c.param("hash"); h != "" && h != v.hash {
		return slackErr("hash_conflict")
	}
	v.data = view
	v.hash = s.hashLocked()
	return success(map[string]any{"view": s.viewWireLocked(v)})
}

func (s *Server) viewsPublish(c *apiCall) apiResp {
	uid := c.param("user_id")
	if _, known := s.users[uid]; !known {
		return slackErr("user_not_found")
	}
	view, fail := s.viewArgLocked(c, "home")
	if fail != nil {
		return *fail
	}
	if id, ok := s.homeViews[uid]; ok {
		v := s.views[id]
		if h := c.param("hash"); h != "" && h != v.hash {
			return slackErr("hash_conflict")
		}
		v.data = view
		v.hash = s.hashLocked()
		return success(map[string]any{"view": s.viewWireLocked(v)})
	}
	v := s.addViewLocked(view, "", "", uid)
	s.homeViews[uid] = v.id
	return success(map[string]any{"view": s.viewWireLocked(v)})
}

// --- users.info, conversations.* ---

func (s *Server) userWireLocked(u *user) map[string]any {
	offset, label := 0, "UTC"
	if loc, err := time.LoadLocation(u.tz); err == nil {
		label, offset = s.now().In(loc).Zone()
	}
	real := u.name
	if r, n := utf8.DecodeRuneInString(real); n > 0 {
		real = strings.ToUpper(string(r)) + real[n:]
	}
	return map[string]any{
		"id": u.id, "team_id": TeamID, "name": u.name, "deleted": false, "color": "9f69e7",
		"real_name": real, "tz": u.tz, "tz_label": label, "tz_offset": offset,
		"is_admin": u.admin, "is_owner": false, "is_primary_owner": false,
		"is_restricted": false, "is_ultra_restricted": false, "is_bot": u.bot, "is_app_user": false,
		"updated": s.tsBase,
		"profile": map[string]any{
			"real_name": real, "real_name_normalized": real,
			"display_name": u.name, "display_name_normalized": u.name, "team": TeamID,
		},
	}
}

func (s *Server) usersInfo(c *apiCall) apiResp {
	if e := s.scopeErrLocked("users:read"); e != nil {
		return *e
	}
	u, known := s.users[c.param("user")]
	if !known || u.name == "" {
		return slackErr("user_not_found")
	}
	return success(map[string]any{"user": s.userWireLocked(u)})
}

func (s *Server) channelWireLocked(c *channel) map[string]any {
	w := map[string]any{
		"id": c.id, "created": s.tsBase, "is_archived": false,
		"is_channel": !c.im && !c.mpim && !c.private,
		"is_group":   c.private && !c.mpim,
		"is_im":      c.im, "is_mpim": c.mpim,
		"is_private": c.private || c.im || c.mpim,
	}
	if c.im {
		w["user"] = c.user
		w["is_open"] = true
	} else {
		w["name"] = c.name
		w["name_normalized"] = c.name
		w["is_member"] = c.member
		w["is_general"] = c.name == "general"
	}
	return w
}

func (s *Server) conversationsOpen(c *apiCall) apiResp {
	if id := c.param("channel"); id != "" {
		ch, known := s.channels[id]
		if !known || !ch.member {
			return slackErr("channel_not_found")
		}
		return success(map[string]any{"channel": map[string]any{"id": ch.id}, "no_op": true, "already_open": true})
	}
	raw := c.param("users")
	if raw == "" {
		return slackErr("users_list_not_supplied")
	}
	ids := strings.Split(raw, ",")
	for _, id := range ids {
		if _, known := s.users[id]; !known {
			return slackErr("user_not_found")
		}
	}
	var ch *channel
	if len(ids) == 1 {
		if e := s.scopeErrLocked("im:write"); e != nil {
			return *e
		}
		id := DMChannel(ids[0])
		ch = s.ensureChannelLocked(id, ids[0])
		ch.im, ch.user, ch.member = true, ids[0], true
	} else {
		if e := s.scopeErrLocked("mpim:write"); e != nil {
			return *e
		}
		id := "G" + strings.ReplaceAll(strings.Join(ids, ""), "U", "")
		ch = s.channels[id]
		if ch == nil {
			ch = &channel{id: id, name: "mpdm-" + strings.Join(ids, "--"), mpim: true, private: true, member: true}
			s.channels[id] = ch
		}
	}
	already := ch.opened
	ch.opened = true
	w := map[string]any{"id": ch.id}
	if c.param("return_im") == "true" {
		w = s.channelWireLocked(ch)
	}
	return success(map[string]any{"channel": w, "no_op": already, "already_open": already})
}

func (s *Server) conversationsInfo(c *apiCall) apiResp {
	ch, known := s.channels[c.param("channel")]
	if !known {
		return slackErr("channel_not_found")
	}
	scope := "channels:read"
	switch {
	case ch.im:
		scope = "im:read"
	case ch.mpim:
		scope = "mpim:read"
	case ch.private:
		scope = "groups:read"
	}
	if e := s.scopeErrLocked(scope); e != nil {
		return *e
	}
	if (ch.private || ch.im || ch.mpim) && !ch.member {
		return slackErr("channel_not_found")
	}
	return success(map[string]any{"channel": s.channelWireLocked(ch)})
}

// --- files ---

func (s *Server) filesGetUploadURL(c *apiCall) apiResp {
	if e := s.scopeErrLocked("files:write"); e != nil {
		return *e
	}
	name := c.param("filename")
	n, err := strconv.Atoi(c.param("length"))
	if name == "" || err != nil || n <= 0 {
		return slackErr("invalid_arguments")
	}
	id := fmt.Sprintf("F%04d", s.nextIDLocked("file"))
	s.files[id] = &File{ID: id, Filename: name}
	s.fileOrder = append(s.fileOrder, id)
	return success(map[string]any{"upload_url": s.url + "upload/" + id, "file_id": id})
}

func (s *Server) serveUpload(w http.ResponseWriter, r *http.Request, id string) {
	var content []byte
	if f, _, err := r.FormFile("file"); err == nil {
		content, _ = io.ReadAll(io.LimitReader(f, maxBody))
		f.Close()
	} else {
		content, _ = io.ReadAll(io.LimitReader(r.Body, maxBody))
	}
	s.mu.Lock()
	f := s.files[id]
	if f != nil {
		f.Content = content
		s.notifyLocked()
	}
	s.mu.Unlock()
	if f == nil {
		http.Error(w, "no such upload", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	fmt.Fprintf(w, "OK - %d", len(content))
}

func (s *Server) filesComplete(c *apiCall) apiResp {
	if e := s.scopeErrLocked("files:write"); e != nil {
		return *e
	}
	var list []struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	}
	if err := json.Unmarshal([]byte(c.param("files")), &list); err != nil || len(list) == 0 {
		return slackErr("invalid_arguments")
	}
	target := c.param("channel_id")
	if target == "" {
		target, _, _ = strings.Cut(c.param("channels"), ",")
	}
	if target != "" {
		ch, code := s.postTargetLocked(target, false)
		if code != "" {
			return slackErr(code)
		}
		target = ch.id
	}
	var out []any
	for _, it := range list {
		f := s.files[it.ID]
		if f == nil || f.Content == nil {
			return slackErr("file_not_found")
		}
		f.Title, f.Channel, f.ThreadTS, f.InitialComment, f.Completed =
			it.Title, target, c.param("thread_ts"), c.param("initial_comment"), true
		out = append(out, map[string]any{"id": f.ID, "title": f.Title})
	}
	s.notifyLocked()
	return success(map[string]any{"files": out})
}

// --- response_url ---

func (s *Server) serveResponseURL(w http.ResponseWriter, r *http.Request, id string) {
	at := time.Now()
	raw, _ := io.ReadAll(io.LimitReader(r.Body, maxBody))
	var body map[string]any
	perr := json.Unmarshal(raw, &body)
	if perr == nil && body == nil {
		perr = errors.New("null body")
	}

	f, faulted := s.takeFault(r, "response_url")

	s.mu.Lock()
	var resp apiResp
	switch {
	case faulted && (f.Status != 0 || f.SlackError != ""):
		resp = faultResp(f)
	case r.Method != http.MethodPost:
		resp = apiResp{status: http.StatusMethodNotAllowed, body: map[string]any{"ok": false, "error": "method_not_allowed"}}
	case perr != nil:
		resp = apiResp{status: http.StatusBadRequest, body: map[string]any{"ok": false, "error": "invalid_payload"}}
	default:
		resp = s.responsePostLocked(id, body)
	}
	s.respPosts = append(s.respPosts, ResponsePost{
		URL: s.url + "response/" + id, Body: body, At: at, Status: resp.status, Error: resp.errorCode(),
	})
	s.notifyLocked()
	s.mu.Unlock()
	writeResp(w, resp)
}

func truthy(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return v == "true"
	}
	return false
}

func (s *Server) responsePostLocked(id string, body map[string]any) apiResp {
	gone := func(code string) apiResp {
		return apiResp{status: http.StatusNotFound, body: map[string]any{"ok": false, "error": code}}
	}
	ru := s.respURLs[id]
	switch {
	case ru == nil:
		return gone("no_such_url")
	case s.now().Sub(ru.issued) > ResponseURLTTL:
		return gone("expired_url")
	case ru.uses >= ResponseURLUses:
		return gone("used_url")
	}
	var text string
	var blocks []any
	deleting := truthy(body["delete_original"])
	if !deleting {
		var err error
		if blocks, err = blocksOf(body["blocks"]); err != nil {
			return s.rejectLocked([]string{"response_url: " + err.Error()})
		}
		text, _ = body["text"].(string)
		if text == "" && len(blocks) == 0 && body["attachments"] == nil {
			return slackErr("no_text")
		}
		if v := validateMessage("response_url", text, blocks); len(v) > 0 {
			return s.rejectLocked(v)
		}
	}
	ru.uses++

	orig := s.findMessageLocked(ru.channel, ru.messageTS)
	if orig != nil && orig.User != BotUserID {
		orig = nil
	}
	switch {
	case deleting:
		if orig != nil {
			orig.Deleted = true
		}
	case truthy(body["replace_original"]):
		if orig != nil {
			orig.Text, orig.Blocks = text, blocks
			orig.Edits++
		}
	default:
		m := &Message{Channel: ru.channel, TS: s.nextTSLocked(), Text: text, Blocks: blocks, User: BotUserID, BotID: BotID}
		if body["response_type"] != "in_channel" {
			m.EphemeralTo = ru.user
		}
		if ru.channel != "" {
			s.messages[ru.channel] = append(s.messages[ru.channel], m)
		}
	}
	return success(nil)
}
