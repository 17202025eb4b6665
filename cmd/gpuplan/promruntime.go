package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// The go_* and process_* series client_golang's Go and process collectors
// exported, by the same names and meanings, read at scrape time: what a
// dashboard or alert on them keeps working with. Not exported: the
// go_gc_gogc_percent and go_gc_gomemlimit_bytes gauges and the
// process_network_* counters.

// memstats are the go_memstats_* series read from runtime.ReadMemStats.
var memstats = []struct {
	name, help, typ string
	v               func(*runtime.MemStats) float64
}{
	{"alloc_bytes", "Number of bytes allocated in heap and currently in use.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.Alloc) }},
	{"alloc_bytes_total", "Total number of bytes allocated in heap until now, even if released already.", "counter", func(m *runtime.MemStats) float64 { return float64(m.TotalAlloc) }},
	{"sys_bytes", "Number of bytes obtained from system.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.Sys) }},
	{"mallocs_total", "Total number of heap objects allocated, both live and gc-ed.", "counter", func(m *runtime.MemStats) float64 { return float64(m.Mallocs) }},
	{"frees_total", "Total number of heap objects frees.", "counter", func(m *runtime.MemStats) float64 { return float64(m.Frees) }},
	{"heap_alloc_bytes", "Number of heap bytes allocated and currently in use, same as go_memstats_alloc_bytes.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.HeapAlloc) }},
	{"heap_sys_bytes", "Number of heap bytes obtained from system.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.HeapSys) }},
	{"heap_idle_bytes", "Number of heap bytes waiting to be used.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.HeapIdle) }},
	{"heap_inuse_bytes", "Number of heap bytes that are in use.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.HeapInuse) }},
	{"heap_released_bytes", "Number of heap bytes released to OS.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.HeapReleased) }},
	{"heap_objects", "Number of currently allocated objects.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.HeapObjects) }},
	{"stack_inuse_bytes", "Number of bytes obtained from system for stack allocator in non-CGO environments.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.StackInuse) }},
	{"stack_sys_bytes", "Number of bytes obtained from system for stack allocator.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.StackSys) }},
	{"mspan_inuse_bytes", "Number of bytes in use by mspan structures.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.MSpanInuse) }},
	{"mspan_sys_bytes", "Number of bytes used for mspan structures obtained from system.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.MSpanSys) }},
	{"mcache_inuse_bytes", "Number of bytes in use by mcache structures.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.MCacheInuse) }},
	{"mcache_sys_bytes", "Number of bytes used for mcache structures obtained from system.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.MCacheSys) }},
	{"buck_hash_sys_bytes", "Number of bytes used by the profiling bucket hash table.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.BuckHashSys) }},
	{"gc_sys_bytes", "Number of bytes used for garbage collection system metadata.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.GCSys) }},
	{"other_sys_bytes", "Number of bytes used for other system allocations.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.OtherSys) }},
	{"next_gc_bytes", "Number of heap bytes when next garbage collection will take place.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.NextGC) }},
	{"last_gc_time_seconds", "Number of seconds since 1970 of last garbage collection.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.LastGC) / 1e9 }},
}

// goCollector reads the Go runtime's series.
func goCollector() *collector {
	names := []string{"go_goroutines", "go_threads", "go_info", "go_sched_gomaxprocs_threads", "go_gc_duration_seconds"}
	for _, s := range memstats {
		names = append(names, "go_memstats_"+s.name)
	}
	return &collector{declared: names, fn: func() []family {
		one := func(name, help, typ string, v float64, labels ...labelPair) family {
			return family{name: name, help: help, typ: typ, samples: []sample{{labels: labels, value: v}}}
		}
		threads, _ := runtime.ThreadCreateProfile(nil)
		out := []family{
			one("go_goroutines", "Number of goroutines that currently exist.", "gauge", float64(runtime.NumGoroutine())),
			one("go_threads", "Number of OS threads created.", "gauge", float64(threads)),
			one("go_info", "Information about the Go environment.", "gauge", 1, labelPair{"version", runtime.Version()}),
			one("go_sched_gomaxprocs_threads", "The current runtime.GOMAXPROCS setting, or the number of operating system threads that can execute user-level Go code simultaneously.", "gauge", float64(runtime.GOMAXPROCS(0))),
		}
		var gc debug.GCStats
		gc.PauseQuantiles = make([]time.Duration, 5)
		debug.ReadGCStats(&gc)
		pauses := family{name: "go_gc_duration_seconds", help: "A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles.", typ: "summary"}
		for i, q := range []string{"0", "0.25", "0.5", "0.75", "1"} {
			pauses.samples = append(pauses.samples, sample{labels: []labelPair{{"quantile", q}}, value: gc.PauseQuantiles[i].Seconds()})
		}
		pauses.samples = append(pauses.samples, sample{suffix: "_sum", value: gc.PauseTotal.Seconds()},
			sample{suffix: "_count", value: float64(gc.NumGC)})
		out = append(out, pauses)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		for _, s := range memstats {
			out = append(out, one("go_memstats_"+s.name, s.help, s.typ, s.v(&ms)))
		}
		return out
	}}
}

// processCollector reads the process's series from /proc (Linux); where
// there is no /proc only the start time is exported.
func processCollector() *collector {
	names := []string{"process_cpu_seconds_total", "process_open_fds", "process_max_fds", "process_virtual_memory_bytes",
		"process_virtual_memory_max_bytes", "process_resident_memory_bytes", "process_start_time_seconds"}
	fallbackStart := float64(time.Now().UnixNano()) / 1e9
	return &collector{declared: names, fn: func() []family {
		one := func(name, help, typ string, v float64) family {
			return family{name: name, help: help, typ: typ, samples: []sample{{value: v}}}
		}
		st, ok := readProcStat()
		start := fallbackStart
		if ok && st.start > 0 {
			start = st.start
		}
		out := []family{one("process_start_time_seconds", "Start time of the process since unix epoch in seconds.", "gauge", start)}
		if ok {
			out = append(out,
				one("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", "counter", st.cpu),
				one("process_virtual_memory_bytes", "Virtual memory size in bytes.", "gauge", st.vsize),
				one("process_resident_memory_bytes", "Resident memory size in bytes.", "gauge", st.rss))
		}
		if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
			out = append(out, one("process_open_fds", "Number of open file descriptors.", "gauge", float64(len(fds))))
		}
		if files, mem, ok := rlimits(); ok {
			out = append(out, one("process_max_fds", "Maximum number of open file descriptors.", "gauge", files),
				one("process_virtual_memory_max_bytes", "Maximum amount of virtual memory available in bytes.", "gauge", mem))
		}
		return out
	}}
}

type procStat struct{ cpu, vsize, rss, start float64 }

// userHZ is the unit of /proc's CPU times; Linux reports them in 1/100 s
// whatever the kernel's tick (as procfs assumes too).
const userHZ = 100

// readProcStat reads /proc/self/stat (CPU time, sizes, start in ticks
// since boot) and /proc/stat (boot time).
func readProcStat() (procStat, bool) {
	raw, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return procStat{}, false
	}
	// The command name, in parentheses, may hold spaces: fields count
	// from after its closing parenthesis (field 3, the state).
	i := strings.LastIndexByte(string(raw), ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(string(raw[i+1:]))
	if len(f) < 22 {
		return procStat{}, false
	}
	num := func(field int) float64 { // field as proc(5) numbers them
		v, _ := strconv.ParseFloat(f[field-3], 64)
		return v
	}
	st := procStat{
		cpu:   (num(14) + num(15)) / userHZ,
		vsize: num(23),
		rss:   num(24) * float64(os.Getpagesize()),
	}
	if stat, err := os.ReadFile("/proc/stat"); err == nil {
		for _, line := range strings.Split(string(stat), "\n") {
			if v, ok := strings.CutPrefix(line, "btime "); ok {
				if boot, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					st.start = boot + num(22)/userHZ
				}
				break
			}
		}
	}
	return st, true
}
