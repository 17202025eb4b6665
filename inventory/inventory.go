package inventory

import (
	"fmt"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // zones from the config and Slack profiles must not depend on the host's zoneinfo

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/planner"
)

// Inventory is the team's GPU servers and the rules for reserving them,
// read from a YAML file (deploy/servers.example.yaml documents every key).
type Inventory struct {
	// Timezone is the default zone for users whose Slack profile has none.
	Timezone *time.Location
	// TeamChannel is where reservations are announced; "" means the
	// channel the command came from.
	TeamChannel string
	// Admins are Slack user ids allowed to --force.
	Admins []string
	// MaxDuration caps one reservation on servers that set no cap of their
	// own; ReminderBefore is how long before the end the owner is reminded
	// (0: no reminders).
	MaxDuration, ReminderBefore time.Duration
	// IdleNudgeAfter is how long reserved GPUs must be measured idle
	// before their holder gets a nudge (0: no nudges).
	IdleNudgeAfter time.Duration
	Servers        []Server
	// Users maps Unix user names to Slack user ids (for the GPU agent);
	// never nil.
	Users map[string]string
	// Models are the team's own models by lower-case name (models.go);
	// never nil after Parse.
	Models map[string]planner.Model
}

// Server is one GPU server of the team.
type Server struct {
	Name         string
	GPU          planner.GPU
	GPUIDs       []int // physical GPU ids, ascending
	Host         string
	Interconnect planner.Interconnect
	Labels       []string
	PriceUSD     float64 // per GPU-hour; 0 = the catalogue's price
	// MaxDuration caps one reservation on this server; Parse and
	// Default fill in the inventory's default when the server
	// sets none.
	MaxDuration time.Duration
}

// Count is the number of GPUs in the server.
func (s Server) Count() int { return len(s.GPUIDs) }

// Hardware is the server as the planner sees it: its GPU (with the team's
// price when one is set), count, interconnect, ids and name, one node.
func (s Server) Hardware() planner.Hardware {
	g := s.GPU
	if s.PriceUSD > 0 {
		g.PriceUSD = s.PriceUSD
		g.PriceSource = "team price for " + s.Name
	}
	return planner.Hardware{
		GPU:          g,
		Count:        s.Count(),
		Interconnect: s.Interconnect,
		GPUsPerNode:  s.Count(),
		IDs:          slices.Clone(s.GPUIDs),
		Server:       s.Name,
	}
}

// Defaults for keys a config leaves out.
const (
	defaultMaxDuration    = 72 * time.Hour
	defaultReminderBefore = 15 * time.Minute
	defaultIdleNudgeAfter = time.Hour
	maxGPUsPerServer      = 256
)

// Default is the inventory used when no config file is given, so
// the product can be tried on a fresh machine: the seeds' three servers
// (server-h with 4× H200 SXM 141GB, server-a with 4× A100 SXM4 80GB,
// server-v with 4× V100 SXM2 32GB, all NVLink), time zone UTC, no admins,
// no team channel, reservations capped at 72h and a reminder 15m before
// the end. A real team describes its own servers in a config file (see
// deploy/servers.example.yaml); nothing here is meant for production.
// A nil cat means planner.DefaultCatalog().
func Default(cat *planner.Catalog) *Inventory {
	inv := &Inventory{
		Timezone:       time.UTC,
		MaxDuration:    defaultMaxDuration,
		ReminderBefore: defaultReminderBefore,
		IdleNudgeAfter: defaultIdleNudgeAfter,
		Users:          map[string]string{},
		Models:         exampleModels(cat),
	}
	for _, s := range []struct {
		name, gpu string
		labels    []string
	}{
		{"server-h", "h200-sxm-141gb", []string{"training", "big-memory"}},
		{"server-a", "a100-sxm4-80gb", []string{"training"}},
		{"server-v", "v100-sxm2-32gb", []string{"legacy", "debugging"}},
	} {
		inv.Servers = append(inv.Servers, Server{
			Name:         s.name,
			GPU:          defaultGPU(cat, s.gpu),
			GPUIDs:       []int{0, 1, 2, 3},
			Host:         s.name + ".lab.internal",
			Interconnect: planner.NVLink,
			Labels:       s.labels,
			MaxDuration:  defaultMaxDuration,
		})
	}
	return inv
}

// defaultGPU finds id in cat, falling back to the embedded catalogue when
// cat is nil or lacks it.
func defaultGPU(cat *planner.Catalog, id string) planner.GPU {
	if cat != nil {
		if g, _, err := cat.GPU(id); err == nil {
			return g
		}
	}
	g, _, err := planner.DefaultCatalog().GPU(id)
	if err != nil {
		panic("inventory: the embedded catalogue lacks " + id)
	}
	return g
}

// IsAdmin reports whether the Slack user id is one of the admins.
func (inv *Inventory) IsAdmin(user string) bool {
	if inv == nil || user == "" {
		return false
	}
	for _, a := range inv.Admins {
		if strings.EqualFold(a, user) {
			return true
		}
	}
	return false
}

// Server finds a server by name, forgivingly: case does not matter,
// separators do not matter ("server h", "Server_H" and "serverh" find
// server-h), a part of the name finds it when no other server has that
// part ("h" finds server-h), and as a last resort a GPU name finds the
// only server with that GPU ("h200"). A name that matches several servers
// or none is a *lang.UserError (with a did-you-mean for none).
func (inv *Inventory) Server(name string) (Server, error) {
	var servers []Server
	if inv != nil {
		servers = inv.Servers
	}
	q := strings.ToLower(strings.Trim(strings.TrimSpace(name), "`'\"#*_"))
	if len(servers) == 0 {
		return Server{}, lang.Said(lang.En.T("no GPU servers are configured"), &lang.UserError{Hint: "an admin lists them in the servers file (see deploy/servers.example.yaml)"})
	}
	hint := "servers: " + inv.serverList()
	if q == "" {
		return Server{}, lang.Said(lang.En.T("which server?"), &lang.UserError{Hint: hint})
	}
	qKey := invKey(q)
	qTok := invTokens(q)
	tiers := []func(Server) bool{
		func(s Server) bool { return strings.EqualFold(s.Name, q) },
		func(s Server) bool { return qKey != "" && invKey(s.Name) == qKey },
		func(s Server) bool { return containsRun(invTokens(s.Name), qTok) },
		func(s Server) bool {
			family, _, _ := strings.Cut(s.GPU.ID, "-")
			return qKey != "" && (qKey == invKey(s.GPU.ID) || qKey == invKey(family))
		},
	}
	for _, match := range tiers {
		var hits []Server
		for _, s := range servers {
			if match(s) {
				hits = append(hits, s)
			}
		}
		switch len(hits) {
		case 0:
			continue
		case 1:
			return hits[0], nil
		default:
			names := make([]string, len(hits))
			for i, h := range hits {
				names[i] = "`" + h.Name + "`"
			}
			return Server{}, lang.Said(lang.En.Tf("`%s` matches several servers: %s — say which", name, strings.Join(names, ", ")), &lang.UserError{Hint: hint})
		}
	}
	names := make([]string, len(servers))
	for i, s := range servers {
		names[i] = s.Name
	}
	if sug := planner.Nearest(q, names, 1); len(sug) > 0 {
		return Server{}, lang.Said(lang.En.Tf("unknown server `%s` — did you mean `%s`?", strings.TrimSpace(name), sug[0]), &lang.UserError{Hint: hint})
	}
	return Server{}, lang.Said(lang.En.Tf("unknown server `%s`", strings.TrimSpace(name)), &lang.UserError{Hint: hint})
}

// serverList names the servers with their GPUs for hints.
func (inv *Inventory) serverList() string {
	parts := make([]string, len(inv.Servers))
	for i, s := range inv.Servers {
		parts[i] = fmt.Sprintf("`%s` (%d× %s)", s.Name, s.Count(), s.GPU.Name)
	}
	return strings.Join(parts, ", ")
}

// invKey folds a name to its letters and digits.
func invKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// invTokens splits a name into its letter-and-digit runs ("server-h" →
// server, h).
func invTokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9')
	})
}

// containsRun reports whether sub occurs in toks as consecutive tokens.
func containsRun(toks, sub []string) bool {
	if len(sub) == 0 {
		return false
	}
	for i := 0; i+len(sub) <= len(toks); i++ {
		if slices.Equal(toks[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}
