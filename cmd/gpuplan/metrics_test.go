package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/store"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// promGatherer reads r's exposition back with Prometheus's own text
// parser, so the tests hold the hand-written format (promtext.go) to what
// a Prometheus server accepts, and can use client_golang's testutil
// (compare, lint) on it. client_golang is linked into the tests only.
func promGatherer(r *registry) prometheus.Gatherer {
	return prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) {
		var b bytes.Buffer
		if err := r.write(&b); err != nil {
			return nil, err
		}
		p := expfmt.NewTextParser(model.UTF8Validation)
		byName, err := p.TextToMetricFamilies(&b)
		if err != nil {
			return nil, fmt.Errorf("%w in\n%s", err, b.String())
		}
		var out []*dto.MetricFamily
		for _, mf := range byName {
			out = append(out, mf)
		}
		slices.SortFunc(out, func(a, b *dto.MetricFamily) int { return strings.Compare(a.GetName(), b.GetName()) })
		return out, nil
	})
}

// seriesCount is how many series a family has on a scrape.
func seriesCount(t *testing.T, r *registry, name string) int {
	t.Helper()
	mfs, err := promGatherer(r).Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			return len(mf.GetMetric())
		}
	}
	return 0
}

// The observer side: command labels are the table's names (aliases and
// plan requests folded in), disconnect reasons are bounded, and the
// scheduler's counters count.
func TestMetricsObserver(t *testing.T) {
	m := newMetrics()
	m.setCommands(commands.New(commands.Deps{}).Commands())
	m.CommandDone("help", "ok", 10*time.Millisecond)
	m.CommandDone("bert-base", "ok", time.Second)
	m.CommandDone("compare", "user_error", time.Millisecond)
	m.CommandDone("", "ok", time.Millisecond)
	m.CommandDone("RESERVE", "error", time.Millisecond)
	for _, tc := range []struct {
		command, outcome string
		want             float64
	}{
		{"help", "ok", 2}, {"plan", "ok", 1}, {"plan", "user_error", 1}, {"reserve", "error", 1}, {"status", "ok", 0},
	} {
		if got := m.commands.With(tc.command, tc.outcome).value(); got != tc.want {
			t.Errorf("commands{%s,%s} = %v, want %v", tc.command, tc.outcome, got, tc.want)
		}
	}
	if n := seriesCount(t, m.reg, metricCommands); n != 3*len(commands.New(commands.Deps{}).Commands()) {
		t.Errorf("%d command series: want every command × outcome and nothing else", n)
	}
	if n := histogramCount(t, m, metricCommandSeconds, "command", "plan"); n != 2 {
		t.Errorf("plan durations observed %d, want 2", n)
	}

	m.Acked(20 * time.Millisecond)
	m.Acked(2900 * time.Millisecond)
	if got := seriesCount(t, m.reg, metricAckSeconds); got != 1 {
		t.Errorf("ack histogram series %d", got)
	}
	err := testutil.GatherAndCompare(promGatherer(m.Registry()), strings.NewReader(`
# HELP gpuplan_ack_latency_seconds Time from a Socket Mode envelope's arrival to its ack being written (Slack retries after 3 s).
# TYPE gpuplan_ack_latency_seconds histogram
gpuplan_ack_latency_seconds_bucket{le="0.001"} 0
gpuplan_ack_latency_seconds_bucket{le="0.0025"} 0
gpuplan_ack_latency_seconds_bucket{le="0.005"} 0
gpuplan_ack_latency_seconds_bucket{le="0.01"} 0
gpuplan_ack_latency_seconds_bucket{le="0.025"} 1
gpuplan_ack_latency_seconds_bucket{le="0.05"} 1
gpuplan_ack_latency_seconds_bucket{le="0.1"} 1
gpuplan_ack_latency_seconds_bucket{le="0.25"} 1
gpuplan_ack_latency_seconds_bucket{le="0.5"} 1
gpuplan_ack_latency_seconds_bucket{le="1"} 1
gpuplan_ack_latency_seconds_bucket{le="1.5"} 1
gpuplan_ack_latency_seconds_bucket{le="2"} 1
gpuplan_ack_latency_seconds_bucket{le="2.5"} 1
gpuplan_ack_latency_seconds_bucket{le="3"} 2
gpuplan_ack_latency_seconds_bucket{le="5"} 2
gpuplan_ack_latency_seconds_bucket{le="+Inf"} 2
gpuplan_ack_latency_seconds_sum 2.92
gpuplan_ack_latency_seconds_count 2
`), metricAckSeconds)
	if err != nil {
		t.Error(err)
	}

	m.Connected()
	m.Connected()
	m.Connected()
	m.Disconnected("refresh_requested")
	m.Disconnected("something_new")
	m.Disconnected("warning")
	m.Refused("too_many_websockets") // turned away before hello: counted, never connected
	err = testutil.GatherAndCompare(promGatherer(m.Registry()), strings.NewReader(`
# HELP gpuplan_socketmode_connects_total Socket Mode connections Slack greeted: kind=connect for the first, reconnect after.
# TYPE gpuplan_socketmode_connects_total counter
gpuplan_socketmode_connects_total{kind="connect"} 1
gpuplan_socketmode_connects_total{kind="reconnect"} 2
# HELP gpuplan_socketmode_connected Socket Mode connections up now (1 when this replica can receive envelopes; 2 briefly during a refresh).
# TYPE gpuplan_socketmode_connected gauge
gpuplan_socketmode_connected 0
# HELP gpuplan_socketmode_disconnects_total Socket Mode connections that ended, by reason (Slack's disconnect frame, shutdown, connection_lost).
# TYPE gpuplan_socketmode_disconnects_total counter
gpuplan_socketmode_disconnects_total{reason="connection_lost"} 0
gpuplan_socketmode_disconnects_total{reason="link_disabled"} 0
gpuplan_socketmode_disconnects_total{reason="other"} 1
gpuplan_socketmode_disconnects_total{reason="refresh_requested"} 1
gpuplan_socketmode_disconnects_total{reason="shutdown"} 0
gpuplan_socketmode_disconnects_total{reason="too_many_websockets"} 1
gpuplan_socketmode_disconnects_total{reason="warning"} 1
`), metricConnects, metricConnected, metricDisconnects)
	if err != nil {
		t.Error(err)
	}

	m.DigestPosted("ok")
	m.DigestPosted("ok")
	m.DigestPosted("error")
	m.NudgeSent()
	if got := m.digests.With("ok").value(); got != 2 {
		t.Errorf("digests ok %v", got)
	}
	if got := m.digests.With("error").value(); got != 1 {
		t.Errorf("digests error %v", got)
	}
	if got := m.nudges.value(); got != 1 {
		t.Errorf("nudges %v", got)
	}

	// Every metric is named gpuplan_… (or is the Go/process collectors')
	// and passes the Prometheus linter.
	problems, err := testutil.GatherAndLint(promGatherer(m.Registry()))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		if strings.HasPrefix(p.Metric, "gpuplan_") {
			t.Errorf("lint: %s: %s", p.Metric, p.Text)
		}
	}
	mfs, _ := promGatherer(m.Registry()).Gather()
	for _, mf := range mfs {
		n := mf.GetName()
		if !strings.HasPrefix(n, "gpuplan_") && !strings.HasPrefix(n, "go_") && !strings.HasPrefix(n, "process_") {
			t.Errorf("metric %s lacks the gpuplan_ prefix", n)
		}
	}
}

// The fleet collector reads reservations and agent samples at scrape
// time, caches them for 15 s, and leaves agent age out for a server no
// agent reported from.
func TestFleetCollector(t *testing.T) {
	now := time.Now().Truncate(time.Second)
	clock := func() time.Time { return now }
	e, err := store.OpenEmbedded(filepath.Join(t.TempDir(), "r.db"), clock)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	if _, err := e.Reserve(ctx, store.ReserveRequest{RequestID: "r1", Server: "box", ServerGPUs: 4, Count: 3, Owner: "U1", Duration: time.Hour}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Reserve(ctx, store.ReserveRequest{RequestID: "r2", Server: "box", ServerGPUs: 4, Count: 1, Owner: "U2",
		Start: now.Add(2 * time.Hour), Duration: time.Hour}); err != nil {
		t.Fatal(err)
	}
	var w store.Watch = e
	if err := w.RecordSamples(ctx, store.SampleBatch{Server: "box", At: now.Add(-40 * time.Second), Every: 30 * time.Second,
		GPUs: []store.GPUSample{{Index: 0, Util: 90}}}); err != nil {
		t.Fatal(err)
	}
	m := newMetrics()
	st := meterStore(e, m)
	c := newFleetCollector(st, []string{"box", "idle"}, clock)
	reg := newRegistry()
	reg.mustRegister(c)
	expect := func(held, gpus int, age float64) {
		t.Helper()
		err := testutil.GatherAndCompare(promGatherer(reg), strings.NewReader(`
# HELP gpuplan_agent_last_sample_age_seconds Seconds since the server's gpuplan agent last reported; absent when no agent ever has.
# TYPE gpuplan_agent_last_sample_age_seconds gauge
gpuplan_agent_last_sample_age_seconds{server="box"} `+ftoa(age)+`
# HELP gpuplan_agent_samples_total Agent sample batches the store has recorded for the server (all replicas and agents; read at scrape time).
# TYPE gpuplan_agent_samples_total counter
gpuplan_agent_samples_total{server="box"} 1
# HELP gpuplan_gpus_held GPUs held by reservations now, per server (read at scrape time, cached 15 s).
# TYPE gpuplan_gpus_held gauge
gpuplan_gpus_held{server="box"} `+ftoa(float64(gpus))+`
gpuplan_gpus_held{server="idle"} 0
# HELP gpuplan_reservations_held Reservations holding GPUs now, per server (read at scrape time, cached 15 s).
# TYPE gpuplan_reservations_held gauge
gpuplan_reservations_held{server="box"} `+ftoa(float64(held))+`
gpuplan_reservations_held{server="idle"} 0
`))
		if err != nil {
			t.Error(err)
		}
	}
	expect(1, 3, 40)
	// A new reservation within the cache window is not read yet; the
	// agent's age still grows with the clock.
	if _, err := e.Reserve(ctx, store.ReserveRequest{RequestID: "r3", Server: "box", ServerGPUs: 4, Count: 1, Owner: "U3", Duration: time.Hour}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(10 * time.Second)
	expect(1, 3, 50)
	now = now.Add(fleetCacheTTL)
	expect(2, 4, 65)
	if n := histogramCount(t, m, metricStoreSeconds, "op", "live"); n != 4 {
		t.Errorf("%d metered Live calls, want 4 (two servers, two refreshes)", n)
	}
}

// A store that cannot answer leaves the server out of the scrape rather
// than failing it.
func TestFleetCollectorStoreDown(t *testing.T) {
	m := newMetrics()
	c := newFleetCollector(meterStore(fakeBackend{err: store.ErrUnavailable}, m), []string{"box"}, time.Now)
	reg := newRegistry()
	reg.mustRegister(c)
	if n := seriesCount(t, reg, metricReservations) + seriesCount(t, reg, metricGPUsHeld); n != 0 {
		t.Errorf("%d series from a store that is down", n)
	}
	if got := m.storeErrors.With("list").value(); got != 1 {
		t.Errorf("list errors %v", got)
	}
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
