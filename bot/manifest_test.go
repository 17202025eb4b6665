package bot

import (
	"os"
	"sort"
	"strings"
	"testing"
)

// The manifest in deploy/ grants exactly the scopes and events the bot
// uses (doctor checks a live token against the same list).
func TestManifestMatchesTheBot(t *testing.T) {
	raw, err := os.ReadFile("../deploy/slack-app-manifest.yaml")
	if err != nil {
		t.Fatal(err)
	}
	list := func(after string) []string {
		var out []string
		in := false
		indent := -1
		for _, line := range strings.Split(string(raw), "\n") {
			trimmed := strings.TrimSpace(line)
			if trimmed == after {
				in = true
				continue
			}
			if !in {
				continue
			}
			ind := len(line) - len(strings.TrimLeft(line, " "))
			if strings.HasPrefix(trimmed, "- ") && (indent < 0 || ind == indent) {
				indent = ind
				out = append(out, strings.TrimPrefix(trimmed, "- "))
				continue
			}
			if trimmed != "" {
				break
			}
		}
		sort.Strings(out)
		return out
	}
	var want []string
	for _, s := range RequiredScopes {
		want = append(want, s.Scope)
	}
	sort.Strings(want)
	if got := list("bot:"); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("manifest scopes %v, bot needs %v", got, want)
	}
	events := append([]string(nil), BotEvents...)
	sort.Strings(events)
	if got := list("bot_events:"); strings.Join(got, ",") != strings.Join(events, ",") {
		t.Errorf("manifest events %v, bot handles %v", got, events)
	}
	for _, must := range []string{"socket_mode_enabled: true", "is_enabled: true", "command: /gpuplan"} {
		if !strings.Contains(string(raw), must) {
			t.Errorf("manifest lacks %q", must)
		}
	}
}
