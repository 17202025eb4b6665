package slackfake

import (
	"strings"
	"time"
	"unicode/utf8"
)

// The fake's users.info and conversations.open and conversations.info.

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
	w := s.userWireLocked(u)
	if c.param("include_locale") == "true" { // Slack sends the locale only when asked
		w["locale"] = u.locale
		if u.locale == "" {
			w["locale"] = "en-US"
		}
	}
	return success(map[string]any{"user": w})
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
