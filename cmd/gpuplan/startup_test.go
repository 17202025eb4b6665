//go:build unix

package main

import (
	"bufio"
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var (
	startup      = flag.Bool("startup", false, "run TestStartup: whole-process gpuplan plan against a hello-world Go binary")
	startupN     = flag.Int("startup.n", 40, "TestStartup: runs of each binary, alternated")
	startupRatio = flag.Float64("startup.max", 0, "TestStartup: fail when the median ratio is above this (0: only report)")
)

// startupRequest is the README's example.
const startupRequest = "bert-base 10 epochs of 2.5M samples on h100x2"

// TestStartup measures what a person feels from the terminal: a whole
// `gpuplan plan "<README example>"` process against a hello-world Go
// binary built by the same toolchain, run alternately so that the
// machine's load falls on both alike. It prints the medians and their
// ratio, CPU time and page faults (from the kernel's rusage), and a
// summary of GODEBUG=inittrace=1: what package initialisation costs
// every process. Only with -startup (it builds two binaries and times
// them); it asserts a ratio only when -startup.max is given.
//
//	go test ./cmd/gpuplan -run '^TestStartup$' -startup -v
func TestStartup(t *testing.T) {
	if !*startup {
		t.Skip("-startup not set")
	}
	dir := t.TempDir()
	hello := filepath.Join(dir, "hello")
	gpuplan := filepath.Join(dir, "gpuplan")
	src := filepath.Join(dir, "hellosrc")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"go.mod":  "module hello\n\ngo 1.26\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello, world\") }\n",
	} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Both are built as the Dockerfile builds the binary people run: static
	// (CGO_ENABLED=0, so no dynamic loader starts before main), trimmed and
	// stripped. A cgo build of gpuplan pays ~1.4 ms more for ld.so alone.
	build := func(dir, out, pkg string) {
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	build(src, hello, ".")
	build(".", gpuplan, ".")

	type run struct {
		wall, cpu time.Duration
		faults    int64
	}
	measure := func(args ...string) run {
		cmd := exec.Command(args[0], args[1:]...)
		start := time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		wall := time.Since(start)
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		return run{wall, cpu, ru.Minflt + ru.Majflt}
	}
	var hr, sr, gr []run
	measure(hello) // warm the page cache
	measure(gpuplan, "plan", startupRequest)
	for range *startupN {
		hr = append(hr, measure(hello))
		sr = append(sr, measure(gpuplan, "--help")) // start-up and exit: no command runs
		gr = append(gr, measure(gpuplan, "plan", startupRequest))
	}
	median := func(rs []run, f func(run) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		slices.Sort(v)
		return (v[(len(v)-1)/2] + v[len(v)/2]) / 2
	}
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	hw := median(hr, func(r run) float64 { return ms(r.wall) })
	t.Logf("STARTUP %d runs each, alternated; medians:", *startupN)
	report := func(name string, rs []run) float64 {
		w := median(rs, func(r run) float64 { return ms(r.wall) })
		t.Logf("STARTUP %-22s wall %6.2f ms (%.2fx)  cpu %5.2f ms  page faults %4.0f", name, w, w/hw,
			median(rs, func(r run) float64 { return ms(r.cpu) }), median(rs, func(r run) float64 { return float64(r.faults) }))
		return w
	}
	report("hello-world", hr)
	report("gpuplan --help", sr)
	gw := report("gpuplan plan", gr)

	// What package initialisation costs, from the runtime's own trace.
	// The median of five traces per package: one trace is as noisy as the
	// machine.
	byPkg := map[string][]initTrace{}
	var order []string
	for range 5 {
		cmd := exec.Command(gpuplan, "plan", startupRequest)
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
		for _, in := range parseInitTrace(t, stderr.String()) {
			if byPkg[in.pkg] == nil {
				order = append(order, in.pkg)
			}
			byPkg[in.pkg] = append(byPkg[in.pkg], in)
		}
	}
	var inits []initTrace
	for _, p := range order {
		ts := byPkg[p]
		slices.SortFunc(ts, func(a, b initTrace) int { return cmp.Compare(a.ms, b.ms) })
		inits = append(inits, ts[len(ts)/2])
	}
	var total float64
	var allocs int
	for _, in := range inits {
		total += in.ms
		allocs += in.allocs
	}
	t.Logf("STARTUP inittrace (median of 5): %d package inits, %.2f ms of init clock, %d allocations; the largest:", len(inits), total, allocs)
	slices.SortFunc(inits, func(a, b initTrace) int { return cmp.Compare(b.ms, a.ms) })
	for _, in := range inits[:min(8, len(inits))] {
		t.Logf("STARTUP   %-50s %.3f ms %6d allocs", in.pkg, in.ms, in.allocs)
	}
	if *startupRatio > 0 && gw/hw > *startupRatio {
		t.Errorf("gpuplan plan takes %.2fx a hello-world binary; the limit is %.1fx", gw/hw, *startupRatio)
	}
}

type initTrace struct {
	pkg    string
	ms     float64
	allocs int
}

// parseInitTrace reads GODEBUG=inittrace=1 lines:
// "init pkg @0.5 ms, 0.12 ms clock, 1234 bytes, 5 allocs".
func parseInitTrace(t *testing.T, s string) []initTrace {
	var out []initTrace
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[6] != "clock," {
			continue
		}
		ms, err1 := strconv.ParseFloat(f[4], 64)
		allocs, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			t.Fatalf("inittrace line %q", sc.Text())
		}
		out = append(out, initTrace{f[1], ms, allocs})
	}
	if len(out) == 0 {
		t.Fatalf("no inittrace lines in:\n%s", s)
	}
	return out
}

// The inittrace reader reads the runtime's lines and nothing else.
func TestParseInitTrace(t *testing.T) {
	got := parseInitTrace(t, "init internal/bytealg @0 ms, 0 ms clock, 0 bytes, 0 allocs\n"+
		"init github.com/gpuplan/gpuplan/planner @3.0 ms, 0.062 ms clock, 13000 bytes, 82 allocs\n"+
		"gpuplan: something else\n")
	want := []initTrace{{"internal/bytealg", 0, 0}, {"github.com/gpuplan/gpuplan/planner", 0.062, 82}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
