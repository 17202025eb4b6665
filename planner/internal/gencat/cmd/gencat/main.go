// Command gencat writes planner/catalog_gen.go from the catalogue CSVs.
// Run by `go generate ./planner` from the planner directory.
package main

import (
	"fmt"
	"os"

	"github.com/gpuplan/gpuplan/planner/internal/gencat"
)

func main() {
	src, err := gencat.Generate(os.DirFS("."))
	if err == nil {
		err = os.WriteFile(gencat.Output, src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencat:", err)
		os.Exit(1)
	}
}
