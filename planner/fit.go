package planner

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"
)

//go:generate go run ./internal/gencases
//go:generate go test -run ^TestFittedParamsAreReproduced$ -update .

// The fit. Every free constant of the model (Params) starts at its prior
// and may move inside its physical range. The loss is the mean absolute
// log error, mean |ln(predicted/measured)|, over the calibration rows: it
// treats 2x too fast and 2x too slow alike and no single row can dominate
// it the way a squared error lets an outlier do. The search is coordinate
// descent in log space: for each constant in turn multiply it by a step
// (or divide) and keep walking that way while the loss falls; when a full
// sweep improves nothing, halve the step (in log terms) until it is under
// 0.5 %. Deterministic: same rows, same order, same answer.
//
// A constant that no row is sensitive to (AMD: no MI300X run in the set)
// keeps its prior. `go generate ./planner` re-parses the rows, refits,
// recomputes every publisher's hold-out (data/loso.csv) and rewrites the
// generated tables of docs/planner.md; go test ./planner checks all four.

// predictCase plans one row with constants p and reads its metric.
func (c *Catalog) predictCase(p *Params, k BackTestCase) (float64, error) {
	res, err := c.withParams(p).Plan(k.Request)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", k.ID, err)
	}
	if len(res.Plans) != 1 {
		return 0, fmt.Errorf("%s: request must name exactly one hardware target", k.ID)
	}
	v, err := Metric(res.Plans[0], k.Metric)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", k.ID, err)
	}
	if !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s: predicted %v", k.ID, v)
	}
	return v, nil
}

// loss is the mean |ln(pred/meas)| of rows under p.
func (c *Catalog) loss(p *Params, rows []BackTestCase) float64 {
	s := 0.0
	for _, k := range rows {
		v, err := c.predictCase(p, k)
		if err != nil {
			return math.Inf(1)
		}
		s += math.Abs(math.Log(v / k.Measured))
	}
	return s / float64(len(rows))
}

// Fit returns the constants that minimise the loss over rows, starting
// from the priors.
func (c *Catalog) Fit(rows []BackTestCase) Params {
	p := priorParams()
	// Each row's |ln(pred/meas)| under p; a trial move of one constant
	// re-plans only the rows that respond to it.
	errs := make([]float64, len(rows))
	for r, k := range rows {
		errs[r] = c.rowError(&p, k)
	}
	// Which rows respond to which constant (probed both ways from the
	// prior); constants no row responds to keep their priors.
	var active []int
	sens := make([][]int, len(paramSpecs))
	for i, s := range paramSpecs {
		for _, f := range []float64{1.3, 1 / 1.3} {
			q := p
			q.set(i, math.Min(s.hi, math.Max(s.lo, s.prior*f)))
			for r, k := range rows {
				if c.rowError(&q, k) != errs[r] && !contains(sens[i], r) {
					sens[i] = append(sens[i], r)
				}
			}
		}
		if len(sens[i]) > 0 {
			sort.Ints(sens[i])
			active = append(active, i)
		}
	}
	sum := func(e []float64) float64 {
		t := 0.0
		for _, v := range e {
			t += v
		}
		return t / float64(len(e))
	}
	best := sum(errs)
	trial := make([]float64, len(rows))
	step := math.Log(1.3)
	for step > math.Log(1.005) {
		improved := false
		for _, i := range active {
			s := paramSpecs[i]
			for _, dir := range []float64{1, -1} {
				moved := false
				// walk while it keeps improving
				for {
					cur := p.get(i)
					v := math.Min(s.hi, math.Max(s.lo, cur*math.Exp(dir*step)))
					if v == cur {
						break
					}
					p.set(i, v)
					copy(trial, errs)
					for _, r := range sens[i] {
						trial[r] = c.rowError(&p, rows[r])
					}
					if l := sum(trial); l < best-1e-9 {
						best, moved, improved = l, true, true
						copy(errs, trial)
						continue
					}
					p.set(i, cur)
					break
				}
				if moved {
					break
				}
			}
		}
		if !improved {
			step /= 2
		}
	}
	for i := range paramSpecs {
		p.set(i, roundParam(p.get(i)))
	}
	return p
}

// rowError is |ln(pred/meas)| of one row under p (+Inf if it cannot be
// planned).
func (c *Catalog) rowError(p *Params, k BackTestCase) float64 {
	v, err := c.predictCase(p, k)
	if err != nil {
		return math.Inf(1)
	}
	return math.Abs(math.Log(v / k.Measured))
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// LOSORow is one row's prediction with every source's constants (in-sample)
// and with the constants fitted without its own publisher's rows.
type LOSORow struct {
	ID        string
	Publisher string
	Metric    string
	Measured  float64
	InSample  float64
	LOSO      float64
}

// LeaveOneSourceOut fits once per publisher without that publisher's rows
// and predicts them; in-sample predictions use inSample. Publishers run in
// parallel; only is an optional subset of publishers (nil: all).
func (c *Catalog) LeaveOneSourceOut(rows []BackTestCase, inSample Params, only []string) ([]LOSORow, error) {
	pubs := publishers(rows)
	if only != nil {
		pubs = only
	}
	out := make([][]LOSORow, len(pubs))
	errs := make([]error, len(pubs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for pi, pub := range pubs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			var train, test []BackTestCase
			for _, k := range rows {
				if k.Publisher == pub {
					test = append(test, k)
				} else {
					train = append(train, k)
				}
			}
			p := c.Fit(train)
			for _, k := range test {
				in, err := c.predictCase(&inSample, k)
				if err != nil {
					errs[pi] = err
					return
				}
				lo, err := c.predictCase(&p, k)
				if err != nil {
					errs[pi] = err
					return
				}
				out[pi] = append(out[pi], LOSORow{ID: k.ID, Publisher: pub, Metric: k.Metric, Measured: k.Measured, InSample: in, LOSO: lo})
			}
		}()
	}
	wg.Wait()
	var all []LOSORow
	for pi := range pubs {
		if errs[pi] != nil {
			return nil, errs[pi]
		}
		all = append(all, out[pi]...)
	}
	order := map[string]int{}
	for i, k := range rows {
		order[k.ID] = i
	}
	sort.SliceStable(all, func(a, b int) bool { return order[all[a].ID] < order[all[b].ID] })
	return all, nil
}

func publishers(rows []BackTestCase) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range rows {
		if !seen[k.Publisher] {
			seen[k.Publisher] = true
			out = append(out, k.Publisher)
		}
	}
	return out
}
