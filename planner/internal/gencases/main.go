// Command gencases parses every request of planner/data/backtest.csv with
// the request language users type and writes the parsed form to
// planner/data/backtest-cases.jsonl, which the planner's fit replays
// (the planner cannot import the parser: the parser imports the planner).
// Run by `go generate ./planner` from the planner directory.
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/planner"
)

func main() {
	cat := planner.DefaultCatalog()
	rows, _, err := planner.BackTestRows()
	if err != nil {
		fail(err)
	}
	var out bytes.Buffer
	for _, r := range rows {
		req, err := lang.ParsePlan(cat, r.Request)
		if err != nil {
			fail(fmt.Errorf("%s: %q: %w", r.ID, r.Request, err))
		}
		req.NoSearch = true
		line, err := planner.EncodeBackTestCase(r, req)
		if err != nil {
			fail(fmt.Errorf("%s: %w", r.ID, err))
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	if err := os.WriteFile("data/backtest-cases.jsonl", out.Bytes(), 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gencases:", err)
	os.Exit(1)
}
