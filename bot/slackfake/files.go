package slackfake

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The fake's file uploads (files.getUploadURLExternal, the upload itself,
// files.completeUploadExternal) and response_url posts.

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
