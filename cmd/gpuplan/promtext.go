package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// serve's metrics in the Prometheus text exposition format (version
// 0.0.4), written by hand: counters, gauges and histograms with fixed
// labels, scrape-time collectors, and the Go runtime and process series
// (promruntime.go). It replaced prometheus/client_golang, whose package
// initialisation (the client, protobuf, procfs, client_model, expfmt:
// ~2 ms and ~320 page faults) ran in every gpuplan process, `gpuplan plan`
// included, because a Go binary runs the init of everything it links.
// The tests parse and lint this output with Prometheus's own parser and
// linter (client_golang stays a test-only dependency).

// registry is what /metrics serves: metric families by name.
type registry struct {
	mu   sync.Mutex
	fams map[string]gatherer // by family name; a collector under its first
}

// gatherer yields whole families at scrape time.
type gatherer interface {
	names() []string
	gather() []family
}

// family is one metric family as exposed: HELP, TYPE and its samples.
type family struct {
	name, help, typ string
	samples         []sample
}

// sample is one line: name+suffix{labels} value.
type sample struct {
	suffix string
	labels []labelPair
	value  float64
}

type labelPair struct{ name, value string }

func newRegistry() *registry { return &registry{fams: map[string]gatherer{}} }

// register adds g; a family name already registered is an error and
// nothing of g is added.
func (r *registry) register(g gatherer) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range g.names() {
		if _, dup := r.fams[n]; dup {
			return fmt.Errorf("metric %s is already registered", n)
		}
	}
	for _, n := range g.names() {
		r.fams[n] = g
	}
	return nil
}

func (r *registry) mustRegister(gs ...gatherer) {
	for _, g := range gs {
		if err := r.register(g); err != nil {
			panic(err)
		}
	}
}

// gather collects every family, sorted by name, each family's samples by
// label values (as client_golang orders them).
func (r *registry) gather() []family {
	r.mu.Lock()
	seen := map[gatherer]bool{}
	var gs []gatherer
	for _, g := range r.fams {
		if !seen[g] {
			seen[g] = true
			gs = append(gs, g)
		}
	}
	r.mu.Unlock()
	var out []family
	for _, g := range gs {
		for _, f := range g.gather() {
			if len(f.samples) > 0 {
				out = append(out, f)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// write writes the exposition of every family.
func (r *registry) write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, f := range r.gather() {
		fmt.Fprintf(bw, "# HELP %s %s\n# TYPE %s %s\n", f.name, escapeHelp(f.help), f.name, f.typ)
		for _, s := range f.samples {
			bw.WriteString(f.name)
			bw.WriteString(s.suffix)
			if len(s.labels) > 0 {
				bw.WriteByte('{')
				for i, l := range s.labels {
					if i > 0 {
						bw.WriteByte(',')
					}
					bw.WriteString(l.name)
					bw.WriteString(`="`)
					bw.WriteString(escapeLabel(l.value))
					bw.WriteByte('"')
				}
				bw.WriteByte('}')
			}
			bw.WriteByte(' ')
			bw.WriteString(formatValue(s.value))
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

// ServeHTTP answers a scrape.
func (r *registry) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	r.write(w) // a scraper that hung up gets nothing more either way
}

var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

func escapeHelp(s string) string  { return helpEscaper.Replace(s) }
func escapeLabel(s string) string { return labelEscaper.Replace(s) }

func formatValue(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// atomicFloat is a float64 updated without a lock.
type atomicFloat struct{ bits atomic.Uint64 }

func (a *atomicFloat) add(d float64) {
	for {
		old := a.bits.Load()
		if a.bits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+d)) {
			return
		}
	}
}

func (a *atomicFloat) set(v float64) { a.bits.Store(math.Float64bits(v)) }
func (a *atomicFloat) load() float64 { return math.Float64frombits(a.bits.Load()) }

// counter only goes up.
type counter struct{ v atomicFloat }

func (c *counter) Inc() { c.v.add(1) }

// Add adds d, which must not be negative.
func (c *counter) Add(d float64) {
	if d < 0 {
		panic("counter cannot decrease")
	}
	c.v.add(d)
}

func (c *counter) value() float64 { return c.v.load() }

// gauge goes up and down.
type gauge struct{ v atomicFloat }

func (g *gauge) Set(v float64)  { g.v.set(v) }
func (g *gauge) Inc()           { g.v.add(1) }
func (g *gauge) Dec()           { g.v.add(-1) }
func (g *gauge) value() float64 { return g.v.load() }

// histogram counts observations into cumulative buckets.
type histogram struct {
	bounds []float64       // upper bounds, ascending; +Inf is implicit
	counts []atomic.Uint64 // per bucket, not cumulative; the last is +Inf
	sum    atomicFloat
}

func newHistogram(bounds []float64) *histogram {
	return &histogram{bounds: bounds, counts: make([]atomic.Uint64, len(bounds)+1)}
}

// Observe records v in the first bucket whose bound is at least v.
func (h *histogram) Observe(v float64) {
	h.counts[sort.SearchFloat64s(h.bounds, v)].Add(1)
	h.sum.add(v)
}

// samples are the _bucket lines (with le), _sum and _count, _count being
// the +Inf bucket so that the two always agree.
func (h *histogram) samples(labels []labelPair) []sample {
	out := make([]sample, 0, len(h.counts)+2)
	var cum uint64
	for i := range h.counts {
		cum += h.counts[i].Load()
		le := "+Inf"
		if i < len(h.bounds) {
			le = formatValue(h.bounds[i])
		}
		out = append(out, sample{suffix: "_bucket", labels: append(slices.Clip(labels), labelPair{"le", le}), value: float64(cum)})
	}
	return append(out, sample{suffix: "_sum", labels: labels, value: h.sum.load()},
		sample{suffix: "_count", labels: labels, value: float64(cum)})
}

// metric is one family of one type, without labels or with a fixed list
// of them; its series are made on first use (or ahead, to export zeros).
type metric[T any] struct {
	name, help, typ string
	labels          []string
	make            func() *T
	samples         func(*T, []labelPair) []sample

	mu     sync.RWMutex
	series map[string]*series[T]
}

type series[T any] struct {
	values []string
	m      *T
}

func newMetric[T any](name, help, typ string, labels []string, mk func() *T, samples func(*T, []labelPair) []sample) *metric[T] {
	m := &metric[T]{name: name, help: help, typ: typ, labels: labels, make: mk, samples: samples, series: map[string]*series[T]{}}
	if len(labels) == 0 {
		m.With() // an unlabelled metric is exported from the start, as 0
	}
	return m
}

func newCounter(name, help string, labels ...string) *metric[counter] {
	return newMetric(name, help, "counter", labels, func() *counter { return &counter{} },
		func(c *counter, l []labelPair) []sample { return []sample{{labels: l, value: c.value()}} })
}

func newGauge(name, help string, labels ...string) *metric[gauge] {
	return newMetric(name, help, "gauge", labels, func() *gauge { return &gauge{} },
		func(g *gauge, l []labelPair) []sample { return []sample{{labels: l, value: g.value()}} })
}

func newHistogramMetric(name, help string, bounds []float64, labels ...string) *metric[histogram] {
	if !sort.Float64sAreSorted(bounds) {
		panic(name + ": buckets not ascending")
	}
	return newMetric(name, help, "histogram", labels, func() *histogram { return newHistogram(bounds) },
		(*histogram).samples)
}

// With returns the series for the label values, in the order the labels
// were declared, making it on first use.
func (m *metric[T]) With(values ...string) *T {
	if len(values) != len(m.labels) {
		panic(fmt.Sprintf("%s: %d label values for %d labels", m.name, len(values), len(m.labels)))
	}
	key := strings.Join(values, "\xff")
	m.mu.RLock()
	s, ok := m.series[key]
	m.mu.RUnlock()
	if ok {
		return s.m
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.series[key]; ok {
		return s.m
	}
	s = &series[T]{values: slices.Clone(values), m: m.make()}
	m.series[key] = s
	return s.m
}

func (m *metric[T]) names() []string { return []string{m.name} }

func (m *metric[T]) gather() []family {
	m.mu.RLock()
	all := make([]*series[T], 0, len(m.series))
	for _, s := range m.series {
		all = append(all, s)
	}
	m.mu.RUnlock()
	slices.SortFunc(all, func(a, b *series[T]) int { return slices.Compare(a.values, b.values) })
	f := family{name: m.name, help: m.help, typ: m.typ}
	for _, s := range all {
		labels := make([]labelPair, len(m.labels))
		for i, n := range m.labels {
			labels[i] = labelPair{n, s.values[i]}
		}
		f.samples = append(f.samples, m.samples(s.m, labels)...)
	}
	return []family{f}
}

// collector is a set of families read at scrape time by fn.
type collector struct {
	declared []string
	fn       func() []family
}

func (c *collector) names() []string  { return c.declared }
func (c *collector) gather() []family { return c.fn() }
