package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// TestEveryPackageHasDoc: every package in the module says what it is for.
func TestEveryPackageHasDoc(t *testing.T) {
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	n := 0
	for dec.More() {
		var p struct {
			ImportPath string
			Name       string
			Doc        string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		n++
		want := "Package " + p.Name
		if p.Name == "main" {
			want = "Command "
		}
		if !strings.HasPrefix(p.Doc, want) {
			t.Errorf("%s: package doc %q should start with %q", p.ImportPath, p.Doc, want)
		}
	}
	if n < 3 {
		t.Errorf("saw %d packages", n)
	}
}
