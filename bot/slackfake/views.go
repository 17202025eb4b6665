package slackfake

import (
	"encoding/json"
	"fmt"
	"maps"
)

// The fake's views.open, views.push, views.update and views.publish.

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
