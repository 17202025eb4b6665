package inventory

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/planner"
	"go.yaml.in/yaml/v3"
)

// Error is an invalid config: every problem found, each with its
// line.
type Error struct {
	Source   string
	Problems []Problem
}

// Problem is one mistake in a config, at a line (0 when the
// problem has no place, like an empty file).
type Problem struct {
	Line int
	Msg  string
}

func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		if p.Line > 0 {
			lines[i] = fmt.Sprintf("%s:%d: %s", e.Source, p.Line, p.Msg)
		} else {
			lines[i] = fmt.Sprintf("%s: %s", e.Source, p.Msg)
		}
	}
	return strings.Join(lines, "\n")
}

// maxProblems stops a hopeless file from producing pages of errors.
const maxProblems = 20

var (
	serverNameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,62}$`) })
	slackUserRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[UW][A-Z0-9]{2,}$`) })
	channelIDRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[CGD][A-Z0-9]{2,}$`) })
	// A Unix user name, or a numeric uid: the agent reports the number
	// when the host cannot name it (directory users in a static binary).
	unixUserRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-z_][a-z0-9_.-]{0,31}|[0-9]{1,10})$`) })
)

// Keys a config may use, and the usual other spellings of each (for the
// did-you-mean of an unknown key).
var (
	inventoryKeys = []string{"timezone", "team_channel", "admins", "max_duration", "reminder_before", "idle_nudge_after", "servers", "users", "models"}
	serverKeys    = []string{"name", "gpu", "gpus", "gpu_ids", "host", "interconnect", "labels", "price", "max_duration"}
	keyAliases    = map[string]string{
		"tz": "timezone", "time_zone": "timezone", "zone": "timezone",
		"channel": "team_channel", "announce_channel": "team_channel",
		"admin": "admins", "admin_users": "admins",
		"max_hours": "max_duration", "max_reservation": "max_duration", "duration": "max_duration",
		"reminder": "reminder_before", "remind_before": "reminder_before",
		"idle_after": "idle_nudge_after", "nudge_after": "idle_nudge_after", "idle_nudge": "idle_nudge_after",
		"server": "servers", "hosts": "servers", "nodes": "servers",
		"user": "users", "slack_users": "users",
		"gpu_count": "gpus", "num_gpus": "gpus", "count": "gpus", "n_gpus": "gpus", "ngpus": "gpus", "gpu_num": "gpus",
		"ids": "gpu_ids", "devices": "gpu_ids", "gpu_id": "gpu_ids", "device_ids": "gpu_ids",
		"gpu_type": "gpu", "type": "gpu", "model": "gpu", "gpu_model": "gpu",
		"hostname": "host", "address": "host", "addr": "host",
		"tags": "labels", "label": "labels",
		"price_per_hour": "price", "cost": "price", "price_usd": "price", "usd_per_gpu_hour": "price",
		"link": "interconnect", "nvlink": "interconnect", "fabric": "interconnect",
	}
)

// zoneAbbreviations are zone names people write that are not IANA names.
var zoneAbbreviations = map[string]string{
	"KST": "Asia/Seoul", "JST": "Asia/Tokyo", "IST": "Asia/Kolkata", "SGT": "Asia/Singapore",
	"CEST": "Europe/Berlin", "BST": "Europe/London", "PST": "America/Los_Angeles",
	"PDT": "America/Los_Angeles", "EDT": "America/New_York", "CDT": "America/Chicago",
	"CST": "America/Chicago", "MDT": "America/Denver", "AEST": "Australia/Sydney",
}

// inventoryParser collects problems while walking the YAML tree.
type inventoryParser struct {
	cat      *planner.Catalog
	problems []Problem
}

func (p *inventoryParser) addf(line int, format string, args ...any) {
	p.problems = append(p.problems, Problem{Line: line, Msg: fmt.Sprintf(format, args...)})
}

// Parse reads a servers config. source names the file in error
// messages ("servers.yaml:12: …"). Every problem found is reported, each
// with its line, in an *Error: unknown keys (with a
// did-you-mean), duplicate keys and server names, a missing name or gpu,
// GPU names the catalogue does not know (with a did-you-mean), a count
// that is not positive, both gpus and gpu_ids, duplicate or negative ids,
// durations not in Go's form (72h, 90m, 1h30m), unknown time zones,
// server names outside [a-z0-9][a-z0-9._-]{0,62}, admins that are not
// Slack user ids (U…/W…). A nil cat means planner.DefaultCatalog().
func Parse(cat *planner.Catalog, data []byte, source string) (*Inventory, error) {
	if cat == nil {
		cat = planner.DefaultCatalog()
	}
	if source == "" {
		source = "servers.yaml"
	}
	fail := func(line int, format string, args ...any) error {
		return &Error{Source: source, Problems: []Problem{{Line: line, Msg: fmt.Sprintf(format, args...)}}}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line, msg := yamlErrorLine(err)
		return nil, fail(line, "not valid YAML: %s", msg)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 || doc.Content[0].ShortTag() == "!!null" {
		return nil, fail(0, "the file is empty — it needs at least `servers:` (see deploy/servers.example.yaml)")
	}
	root := resolveAlias(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		return nil, fail(root.Line, "the file must be a mapping of keys (timezone:, servers:, …), not %s", kindName(root))
	}
	p := &inventoryParser{cat: cat}
	inv := &Inventory{
		Timezone:       time.UTC,
		MaxDuration:    defaultMaxDuration,
		ReminderBefore: defaultReminderBefore,
		IdleNudgeAfter: defaultIdleNudgeAfter,
		Users:          map[string]string{},
		Models:         map[string]planner.Model{},
	}
	var serversNode *yaml.Node
	p.mapping(root, "", inventoryKeys, func(key string, k, v *yaml.Node) {
		switch key {
		case "timezone":
			if s, ok := p.str(v, key); ok && s != "" {
				inv.Timezone = p.zone(v, s)
			}
		case "team_channel":
			if s, ok := p.str(v, key); ok && s != "" {
				if !channelIDRe().MatchString(s) {
					p.addf(v.Line, "team_channel: %q is not a Slack channel id — use the id (C…) from the channel's details, not its name", s)
				}
				inv.TeamChannel = s
			}
		case "admins":
			inv.Admins = p.admins(v)
		case "max_duration":
			if d, ok := p.duration(v, key, false); ok {
				inv.MaxDuration = d
			}
		case "reminder_before":
			if d, ok := p.duration(v, key, true); ok {
				inv.ReminderBefore = d
			}
		case "idle_nudge_after":
			if d, ok := p.duration(v, key, true); ok {
				inv.IdleNudgeAfter = d
			}
		case "servers":
			serversNode = v
		case "users":
			p.users(v, inv.Users)
		case "models":
			p.models(v, inv.Models)
		}
	})
	if serversNode == nil {
		p.addf(0, "no `servers:` — list the team's GPU servers (see deploy/servers.example.yaml)")
	} else {
		inv.Servers = p.servers(serversNode, inv.MaxDuration)
	}
	if len(p.problems) > 0 {
		return nil, p.error(source)
	}
	return inv, nil
}

// admins reads the admins' Slack user ids, reporting names and repeats.
func (p *inventoryParser) admins(v *yaml.Node) []string {
	var out []string
	for _, item := range p.strList(v, "admins") {
		if !slackUserRe().MatchString(item.s) {
			p.addf(item.line, "admins: %q is not a Slack user id (U… or W…) — copy it from the user's profile (⋮ → Copy member ID)", item.s)
			continue
		}
		if slices.Contains(out, item.s) {
			p.addf(item.line, "admins: %q is listed twice", item.s)
			continue
		}
		out = append(out, item.s)
	}
	return out
}

// error is the problems found, in line order, at most maxProblems.
func (p *inventoryParser) error(source string) *Error {
	sort.SliceStable(p.problems, func(i, j int) bool { return p.problems[i].Line < p.problems[j].Line })
	if len(p.problems) > maxProblems {
		extra := len(p.problems) - maxProblems
		p.problems = append(p.problems[:maxProblems], Problem{Msg: fmt.Sprintf("… and %d more problems", extra)})
	}
	return &Error{Source: source, Problems: p.problems}
}

// yamlErrorLine pulls the line out of a yaml.v3 error ("yaml: line 3: …").
func yamlErrorLine(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, tail, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil {
				return n, tail
			}
		}
	}
	return 0, msg
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			return "empty"
		}
		return fmt.Sprintf("the value %q", n.Value)
	}
	return "something else"
}

// mapping walks a mapping node, reporting duplicate and unknown keys, and
// calls fn for each known key. ctx prefixes messages ("server \"x\": ").
// It returns the messages it gave for unknown keys, so a caller can tell
// which missing keys were probably misspelt rather than left out.
func (p *inventoryParser) mapping(n *yaml.Node, ctx string, known []string, fn func(key string, k, v *yaml.Node)) (unknown []string) {
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		key := k.Value
		if first, dup := seen[key]; dup {
			p.addf(k.Line, "%s`%s` is given twice (first at line %d)", ctx, key, first)
			continue
		}
		seen[key] = k.Line
		if !slices.Contains(known, key) {
			msg := unknownKey(key, known)
			unknown = append(unknown, msg)
			p.addf(k.Line, "%s%s", ctx, msg)
			continue
		}
		fn(key, k, v)
	}
	return unknown
}

// unknownKey explains a key that is not in known, with a did-you-mean.
func unknownKey(key string, known []string) string {
	msg := fmt.Sprintf("unknown key `%s`", key)
	lk := strings.ToLower(strings.ReplaceAll(key, "-", "_"))
	if slices.Contains(known, lk) {
		return msg + fmt.Sprintf(" — did you mean `%s`? (keys are lower case with underscores)", lk)
	}
	if a, ok := keyAliases[lk]; ok && slices.Contains(known, a) {
		return msg + fmt.Sprintf(" — did you mean `%s`?", a)
	}
	if sug := planner.Nearest(key, known, 1); len(sug) > 0 {
		return msg + fmt.Sprintf(" — did you mean `%s`?", sug[0])
	}
	return msg + " — known keys: " + strings.Join(known, ", ")
}

// str reads a scalar as a string; ok is false (and a problem recorded)
// when the node is a list or mapping. Null is "".
func (p *inventoryParser) str(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		p.addf(n.Line, "%s must be a single value, not %s", what, kindName(n))
		return "", false
	}
	if n.ShortTag() == "!!null" {
		return "", true
	}
	return strings.TrimSpace(n.Value), true
}

type lineString struct {
	s    string
	line int
}

// strList reads a list of scalars (a single scalar counts as a list of one).
func (p *inventoryParser) strList(n *yaml.Node, what string) []lineString {
	switch {
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null":
		return nil
	case n.Kind == yaml.ScalarNode:
		return []lineString{{strings.TrimSpace(n.Value), n.Line}}
	case n.Kind != yaml.SequenceNode:
		p.addf(n.Line, "%s must be a list like [a, b], not %s", what, kindName(n))
		return nil
	}
	var out []lineString
	for _, it := range n.Content {
		it = resolveAlias(it)
		if it.Kind != yaml.ScalarNode || it.ShortTag() == "!!null" {
			p.addf(it.Line, "%s: each entry must be a single value, not %s", what, kindName(it))
			continue
		}
		out = append(out, lineString{strings.TrimSpace(it.Value), it.Line})
	}
	return out
}

// duration reads a Go-style duration ("72h", "90m", "1h30m"). zeroOK
// allows 0 (reminder_before: 0 turns reminders off).
func (p *inventoryParser) duration(n *yaml.Node, what string, zeroOK bool) (time.Duration, bool) {
	s, ok := p.str(n, what)
	if !ok {
		return 0, false
	}
	if s == "" {
		p.addf(n.Line, "%s is empty — write a duration like 72h", what)
		return 0, false
	}
	if s == "0" && zeroOK {
		return 0, true
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		msg := fmt.Sprintf("%s: %q is not a duration — write hours and minutes, e.g. 72h, 90m or 1h30m", what, s)
		if chat, err := lang.ParseDuration(s); err == nil {
			msg = fmt.Sprintf("%s: %q is not a duration here — write it as %s", what, s, goDuration(chat))
		}
		p.addf(n.Line, "%s", msg)
		return 0, false
	}
	if d < 0 || (d == 0 && !zeroOK) {
		p.addf(n.Line, "%s: %q must be longer than zero", what, s)
		return 0, false
	}
	return d, true
}

// goDuration writes d the way time.ParseDuration reads it, without the
// zero tails ("72h", "1h30m").
func goDuration(d time.Duration) string {
	s := d.String()
	s = strings.TrimSuffix(s, "0s")
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// zone loads a time zone, suggesting the IANA name for abbreviations.
func (p *inventoryParser) zone(n *yaml.Node, s string) *time.Location {
	if s == "Local" {
		p.addf(n.Line, "timezone: \"Local\" depends on the machine the bot runs on — name the zone, e.g. Asia/Seoul")
		return time.UTC
	}
	loc, err := time.LoadLocation(s)
	if err == nil {
		return loc
	}
	msg := fmt.Sprintf("timezone: unknown time zone %q — use an IANA name such as Asia/Seoul, Europe/Berlin, America/New_York or UTC", s)
	if iana, ok := zoneAbbreviations[strings.ToUpper(s)]; ok {
		msg = fmt.Sprintf("timezone: unknown time zone %q — did you mean %q?", s, iana)
	}
	p.addf(n.Line, "%s", msg)
	return time.UTC
}

// users reads the Unix user → Slack id mapping.
func (p *inventoryParser) users(n *yaml.Node, out map[string]string) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return
	}
	if n.Kind != yaml.MappingNode {
		p.addf(n.Line, "users must map Unix user names to Slack user ids (alice: U0001), not %s", kindName(n))
		return
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		if first, dup := seen[k.Value]; dup {
			p.addf(k.Line, "users: %q is given twice (first at line %d)", k.Value, first)
			continue
		}
		seen[k.Value] = k.Line
		if !unixUserRe().MatchString(k.Value) {
			p.addf(k.Line, "users: %q is not a Unix user name or numeric uid", k.Value)
			continue
		}
		id, ok := p.str(v, "users: "+k.Value)
		if !ok {
			continue
		}
		if !slackUserRe().MatchString(id) {
			p.addf(v.Line, "users: %s: %q is not a Slack user id (U… or W…)", k.Value, id)
			continue
		}
		out[k.Value] = id
	}
}

// servers reads the server list; defMax fills servers without a cap.
func (p *inventoryParser) servers(n *yaml.Node, defMax time.Duration) []Server {
	if n.Kind != yaml.SequenceNode {
		p.addf(n.Line, "servers must be a list (each entry starting with `- name: …`), not %s", kindName(n))
		return nil
	}
	if len(n.Content) == 0 {
		p.addf(n.Line, "servers is empty — list at least one server")
		return nil
	}
	var out []Server
	names := map[string]int{}
	for _, item := range n.Content {
		item = resolveAlias(item)
		s, ok := p.server(item, defMax)
		if !ok {
			continue
		}
		if first, dup := names[s.Name]; dup {
			p.addf(item.Line, "server %q is listed twice (first at line %d)", s.Name, first)
			continue
		}
		names[s.Name] = item.Line
		out = append(out, s)
	}
	return out
}

// server reads one server entry; ok is false when it has a problem.
func (p *inventoryParser) server(n *yaml.Node, defMax time.Duration) (Server, bool) {
	if n.Kind != yaml.MappingNode {
		p.addf(n.Line, "each server must be a mapping (name:, gpu:, gpus:, …), not %s", kindName(n))
		return Server{}, false
	}
	before := len(p.problems)
	// The name first, so every other message can say which server.
	s := Server{Name: p.serverName(n)}
	ctx := "server: "
	if raw := strings.TrimSpace(rawName(n)); raw != "" {
		ctx = fmt.Sprintf("server %q: ", raw)
	}
	var c gpuCount
	unknown := p.mapping(n, ctx, serverKeys, func(key string, k, v *yaml.Node) {
		switch key {
		case "gpu":
			c.gpuSet = true
			if g, ok := p.gpu(v, ctx); ok {
				s.GPU = g
			}
		case "gpus":
			c.countSet, c.countLine = true, v.Line
			c.count = p.gpuCount(v, ctx)
		case "gpu_ids":
			c.idsSet = true
			s.GPUIDs = p.gpuIDs(v, ctx)
		case "host":
			if h, ok := p.str(v, ctx+"host"); ok {
				if strings.ContainsAny(h, " \t/") {
					p.addf(v.Line, "%shost %q: give a host name or address, like server-h.lab.internal", ctx, h)
					break
				}
				s.Host = h
			}
		case "interconnect":
			if ic, ok := p.interconnect(v, ctx); ok {
				s.Interconnect = ic
			}
		case "labels":
			s.Labels = p.labels(v, ctx)
		case "price":
			if price, ok := p.price(v, ctx); ok {
				s.PriceUSD = price
			}
		case "max_duration":
			if d, ok := p.duration(v, ctx+"max_duration", false); ok {
				s.MaxDuration = d
			}
		}
	})
	for _, msg := range unknown {
		if strings.Contains(msg, "`gpus`") || strings.Contains(msg, "`gpu_ids`") {
			c.suggested = true // "gpu_count: 4": already said, do not also say gpus is missing
		}
	}
	if s.Name == "" && !hasKey(n, "name") {
		p.addf(n.Line, "a server has no name — add `name: server-x`")
	}
	if ids := p.checkGPUs(n, ctx, c); ids != nil {
		s.GPUIDs = ids
	}
	if s.MaxDuration == 0 {
		s.MaxDuration = defMax
	}
	return s, len(p.problems) == before
}

// gpuCount is what a server entry said about its GPUs.
type gpuCount struct {
	gpuSet, countSet, idsSet bool
	count, countLine         int
	suggested                bool // an unknown key's did-you-mean already named gpus or gpu_ids
}

// checkGPUs reports a server that names no GPU model, gives both or
// neither of gpus and gpu_ids; a valid count becomes ids 0…count-1.
func (p *inventoryParser) checkGPUs(n *yaml.Node, ctx string, c gpuCount) []int {
	if !c.gpuSet {
		p.addf(n.Line, "%sno `gpu:` — say which GPU model it has, e.g. `gpu: h100`", ctx)
	}
	switch {
	case c.countSet && c.idsSet:
		p.addf(c.countLine, "%sgive either `gpus: N` or `gpu_ids: [...]`, not both", ctx)
	case !c.countSet && !c.idsSet && !c.suggested:
		p.addf(n.Line, "%sno `gpus:` — say how many GPUs it has (`gpus: 4`) or which ids (`gpu_ids: [0,1,2,3]`)", ctx)
	case c.countSet && c.count > 0:
		ids := make([]int, c.count)
		for i := range ids {
			ids[i] = i
		}
		return ids
	}
	return nil
}

// serverName reads a server entry's name, reporting one that is empty or
// not of the allowed form; "" when there is none to use.
func (p *inventoryParser) serverName(n *yaml.Node) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "name" {
			continue
		}
		v := resolveAlias(n.Content[i+1])
		name, ok := p.str(v, "name")
		switch {
		case !ok:
		case name == "":
			p.addf(v.Line, "a server's name is empty")
		case !serverNameRe().MatchString(name):
			msg := fmt.Sprintf("server name %q: use 1–63 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit", name)
			if fixed := suggestServerName(name); fixed != "" {
				msg += fmt.Sprintf(" — e.g. %q", fixed)
			}
			p.addf(v.Line, "%s", msg)
		default:
			return name
		}
		return ""
	}
	return ""
}

// gpu reads a server's GPU model from the catalogue, with a did-you-mean
// for one it does not know.
func (p *inventoryParser) gpu(v *yaml.Node, ctx string) (planner.GPU, bool) {
	name, ok := p.str(v, ctx+"gpu")
	if !ok {
		return planner.GPU{}, false
	}
	if name == "" {
		p.addf(v.Line, "%sgpu is empty — name the GPU model, e.g. h100 or a100-sxm4-80gb", ctx)
		return planner.GPU{}, false
	}
	g, _, err := p.cat.GPU(name)
	if err != nil {
		msg := fmt.Sprintf("%sunknown GPU %q", ctx, name)
		var nf *planner.NotFoundError
		if errors.As(err, &nf) {
			if sug := nf.Suggestions(); len(sug) > 0 {
				msg += fmt.Sprintf(" — did you mean %q?", sug[0])
			}
		}
		p.addf(v.Line, "%s (`gpuplan gpus` lists the catalogue)", msg)
		return planner.GPU{}, false
	}
	return g, true
}

// gpuCount reads gpus: N, 1 to maxGPUsPerServer; 0 when it is not usable.
func (p *inventoryParser) gpuCount(v *yaml.Node, ctx string) int {
	n, ok := p.integer(v, ctx+"gpus")
	if !ok {
		return 0
	}
	if n <= 0 || n > maxGPUsPerServer {
		p.addf(v.Line, "%sgpus: %d — a server has 1 to %d GPUs", ctx, n, maxGPUsPerServer)
		return 0
	}
	return n
}

// interconnect reads nvlink, pcie or ib (and their other names); false
// when it is left empty or not one of them.
func (p *inventoryParser) interconnect(v *yaml.Node, ctx string) (planner.Interconnect, bool) {
	ic, ok := p.str(v, ctx+"interconnect")
	if !ok || ic == "" {
		return "", false
	}
	switch strings.ToLower(ic) {
	case "nvlink", "nvswitch":
		return planner.NVLink, true
	case "pcie":
		return planner.PCIe, true
	case "ib", "infiniband", "roce":
		return planner.IB, true
	}
	msg := fmt.Sprintf("%sinterconnect %q: use nvlink, pcie or ib (or leave it out to use what the GPU has)", ctx, ic)
	if sug := planner.Nearest(ic, []string{"nvlink", "pcie", "ib"}, 1); len(sug) > 0 {
		msg = fmt.Sprintf("%sinterconnect %q — did you mean %q? (nvlink, pcie or ib)", ctx, ic, sug[0])
	}
	p.addf(v.Line, "%s", msg)
	return "", false
}

// labels reads a server's labels, reporting empty and repeated ones.
func (p *inventoryParser) labels(v *yaml.Node, ctx string) []string {
	var out []string
	for _, l := range p.strList(v, ctx+"labels") {
		switch {
		case l.s == "":
			p.addf(l.line, "%sa label is empty", ctx)
		case slices.Contains(out, l.s):
			p.addf(l.line, "%slabel %q is listed twice", ctx, l.s)
		default:
			out = append(out, l.s)
		}
	}
	return out
}

// rawName is the server entry's name as written, valid or not.
func rawName(n *yaml.Node) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if v := resolveAlias(n.Content[i+1]); n.Content[i].Value == "name" && v.Kind == yaml.ScalarNode && v.ShortTag() != "!!null" {
			return v.Value
		}
	}
	return ""
}

func hasKey(n *yaml.Node, key string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

// suggestServerName folds a name into the allowed form ("Server H" →
// "server-h"), or "" when nothing usable is left.
func suggestServerName(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(name)) {
		switch {
		case (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '.' || r == '_' || r == '-':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	s := strings.TrimLeft(b.String(), "._-")
	if len(s) > 63 {
		s = s[:63]
	}
	if !serverNameRe().MatchString(s) {
		return ""
	}
	return s
}

// integer reads a whole number.
func (p *inventoryParser) integer(n *yaml.Node, what string) (int, bool) {
	s, ok := p.str(n, what)
	if !ok {
		return 0, false
	}
	v, err := strconv.Atoi(s)
	if err != nil || n.ShortTag() != "!!int" {
		p.addf(n.Line, "%s: %q is not a whole number", what, s)
		return 0, false
	}
	return v, true
}

// gpuIDs reads a list of distinct, non-negative GPU ids, sorted.
func (p *inventoryParser) gpuIDs(n *yaml.Node, ctx string) []int {
	if n.Kind != yaml.SequenceNode {
		p.addf(n.Line, "%sgpu_ids must be a list like [0, 1, 2, 3], not %s", ctx, kindName(n))
		return nil
	}
	if len(n.Content) == 0 {
		p.addf(n.Line, "%sgpu_ids is empty", ctx)
		return nil
	}
	if len(n.Content) > maxGPUsPerServer {
		p.addf(n.Line, "%sgpu_ids lists %d GPUs — a server has at most %d", ctx, len(n.Content), maxGPUsPerServer)
		return nil
	}
	var ids []int
	seen := map[int]bool{}
	for _, it := range n.Content {
		it = resolveAlias(it)
		id, ok := p.integer(it, ctx+"gpu_ids")
		if !ok {
			continue
		}
		switch {
		case id < 0:
			p.addf(it.Line, "%sgpu id %d is negative — ids are what nvidia-smi shows, from 0", ctx, id)
		case id > 1023:
			p.addf(it.Line, "%sgpu id %d is too large", ctx, id)
		case seen[id]:
			p.addf(it.Line, "%sgpu id %d is listed twice", ctx, id)
		default:
			seen[id] = true
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// price reads a non-negative number of dollars per GPU-hour.
func (p *inventoryParser) price(n *yaml.Node, ctx string) (float64, bool) {
	s, ok := p.str(n, ctx+"price")
	if !ok || s == "" {
		return 0, false
	}
	tag := n.ShortTag()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || (tag != "!!int" && tag != "!!float") || math.IsNaN(v) || math.IsInf(v, 0) {
		p.addf(n.Line, "%sprice %q: write US dollars per GPU-hour as a plain number, e.g. 3.20", ctx, s)
		return 0, false
	}
	if v < 0 {
		p.addf(n.Line, "%sprice %v is negative", ctx, v)
		return 0, false
	}
	return v, true
}
