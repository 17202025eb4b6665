package planner

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// BackTestCase is one back-test row with its request already parsed: the
// form the fit (fit.go) replays thousands of times without the request
// language, which lives outside this package. planner/data/backtest-cases.json
// holds them; `go generate ./planner` rewrites it by parsing every request of
// backtest.csv with the same parser users type into, and the back-test
// command checks that the file still matches its parse.
type BackTestCase struct {
	ID        string
	Publisher string // who published the measurement: the unit left out by leave-one-source-out
	Metric    string
	Measured  float64
	Request   Request
}

// caseJSON is the stored form: GPUs by id (their peaks are unexported
// catalogue data), everything else as the parser produced it.
type caseJSON struct {
	ID        string    `json:"id"`
	Publisher string    `json:"publisher"`
	Metric    string    `json:"metric"`
	Measured  float64   `json:"measured"`
	Job       Job       `json:"job"`
	Targets   []hwJSON  `json:"targets"`
	Baseline  *baseJSON `json:"baseline,omitempty"`
	Compare   bool      `json:"compare,omitempty"`
}

type hwJSON struct {
	GPU          string       `json:"gpu"`
	Count        int          `json:"count"`
	Interconnect Interconnect `json:"interconnect,omitempty"`
	GPUsPerNode  int          `json:"gpus_per_node,omitempty"`
}

type baseJSON struct {
	Value     float64      `json:"value"`
	Unit      BaselineUnit `json:"unit"`
	Hardware  hwJSON       `json:"hardware"`
	Precision Precision    `json:"precision,omitempty"`
}

func toHW(h Hardware) hwJSON {
	return hwJSON{GPU: h.GPU.ID, Count: h.Count, Interconnect: h.Interconnect, GPUsPerNode: h.GPUsPerNode}
}

func (c *Catalog) fromHW(h hwJSON) (Hardware, error) {
	for _, g := range c.GPUs {
		if g.ID == h.GPU {
			return Hardware{GPU: g, Count: h.Count, Interconnect: h.Interconnect, GPUsPerNode: h.GPUsPerNode}, nil
		}
	}
	return Hardware{}, fmt.Errorf("no GPU %q in the catalogue", h.GPU)
}

// EncodeBackTestCase renders one parsed back-test row as its stored JSON
// (one line).
func EncodeBackTestCase(r BackTestRow, req Request) ([]byte, error) {
	cj := caseJSON{ID: r.ID, Publisher: r.Publisher, Metric: r.Metric, Measured: r.Measured, Job: req.Job, Compare: req.Compare}
	for _, h := range req.Targets {
		cj.Targets = append(cj.Targets, toHW(h))
	}
	if b := req.Baseline; b != nil {
		cj.Baseline = &baseJSON{Value: b.Value, Unit: b.Unit, Hardware: toHW(b.Hardware), Precision: b.Precision}
	}
	return json.Marshal(cj)
}

// StoredBackTestCase returns the stored JSON line of row id, for the
// back-test command's staleness check.
func StoredBackTestCase(id string) ([]byte, bool) {
	lines, err := caseLines()
	if err != nil {
		return nil, false
	}
	for _, l := range lines {
		var head struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(l, &head) == nil && head.ID == id {
			return l, true
		}
	}
	return nil, false
}

func caseLines() ([][]byte, error) {
	raw, err := dataFS.ReadFile("data/backtest-cases.jsonl")
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, l := range bytes.Split(raw, []byte("\n")) {
		if l = bytes.TrimSpace(l); len(l) > 0 {
			out = append(out, l)
		}
	}
	return out, nil
}

// BackTestCases returns the stored parsed rows, resolved against c.
func (c *Catalog) BackTestCases() ([]BackTestCase, error) {
	lines, err := caseLines()
	if err != nil {
		return nil, err
	}
	var out []BackTestCase
	for _, l := range lines {
		var cj caseJSON
		if err := json.Unmarshal(l, &cj); err != nil {
			return nil, fmt.Errorf("backtest-cases.jsonl: %w", err)
		}
		req := Request{Job: cj.Job, Compare: cj.Compare, NoSearch: true}
		for _, h := range cj.Targets {
			hw, err := c.fromHW(h)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", cj.ID, err)
			}
			req.Targets = append(req.Targets, hw)
		}
		if b := cj.Baseline; b != nil {
			hw, err := c.fromHW(b.Hardware)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", cj.ID, err)
			}
			req.Baseline = &Baseline{Value: b.Value, Unit: b.Unit, Hardware: hw, Precision: b.Precision}
		}
		out = append(out, BackTestCase{ID: cj.ID, Publisher: cj.Publisher, Metric: cj.Metric, Measured: cj.Measured, Request: req})
	}
	return out, nil
}
