package agent

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// The agent runs on every GPU server: it imports the standard library and
// the store's types, nothing else (no zap, no Slack, no Redis client of
// its own).
func TestImportsStayNarrow(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	var p struct{ Imports []string }
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatal(err)
	}
	for _, imp := range p.Imports {
		if imp != "github.com/gpuplan/gpuplan/store" && strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") {
			t.Errorf("agent imports %s", imp)
		}
	}
}
