package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// Label values and help text that need escaping come back out of
// Prometheus's parser as they went in; a family registered twice is
// refused; a histogram's _count is its +Inf bucket even while it is
// being observed.
func TestExposition(t *testing.T) {
	r := newRegistry()
	c := newCounter("gpuplan_test_total", "Help with a \\ backslash\nand a newline.", "note")
	r.mustRegister(c)
	c.With(`say "hi" \ bye` + "\n").Add(2.5)
	c.With("plain").Inc()
	err := testutil.GatherAndCompare(promGatherer(r), strings.NewReader(`
# HELP gpuplan_test_total Help with a \\ backslash\nand a newline.
# TYPE gpuplan_test_total counter
gpuplan_test_total{note="plain"} 1
gpuplan_test_total{note="say \"hi\" \\ bye\n"} 2.5
`))
	if err != nil {
		t.Error(err)
	}
	if err := r.register(newGauge("gpuplan_test_total", "again")); err == nil {
		t.Error("a second family of the same name was registered")
	}

	h := newHistogramMetric("gpuplan_test_seconds", "Latency.", []float64{.1, 1})
	r.mustRegister(h)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
					h.With().Observe(0.5)
				}
			}
		})
	}
	for range 50 {
		var b bytes.Buffer
		if err := r.write(&b); err != nil {
			t.Fatal(err)
		}
		var inf, count string
		for _, line := range strings.Split(b.String(), "\n") {
			if v, ok := strings.CutPrefix(line, `gpuplan_test_seconds_bucket{le="+Inf"} `); ok {
				inf = v
			}
			if v, ok := strings.CutPrefix(line, "gpuplan_test_seconds_count "); ok {
				count = v
			}
		}
		if inf == "" || inf != count {
			t.Fatalf("+Inf bucket %q, count %q", inf, count)
		}
	}
	close(stop)
	wg.Wait()
}
