package planner

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/planner/internal/gencat"
)

// The built-in catalogue is generated from the CSVs; this fails as soon
// as a CSV row is added or changed without regenerating, so the tables
// and the CSVs (which people edit and cite) cannot drift apart.
func TestCatalogGenerated(t *testing.T) {
	want, err := gencat.Generate(os.DirFS("."))
	if err != nil {
		t.Fatalf("the catalogue CSVs do not generate: %v", err)
	}
	got, err := os.ReadFile(gencat.Output)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("planner/%s does not match %s: run `go generate -run gencat ./planner` and commit it (never edit it by hand)",
			gencat.Output, strings.Join(gencat.Files, ", "))
	}
}
