package agent

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/store"
)

// The nvidia-smi queries the agent runs. A recording in testdata answers
// exactly one of them.
var (
	GPUQueryArgs  = []string{"--query-gpu=index,uuid,utilization.gpu,memory.used,memory.total", "--format=csv,noheader,nounits"}
	AppsQueryArgs = []string{"--query-compute-apps=gpu_uuid,pid,used_memory", "--format=csv,noheader,nounits"}
	// ListArgs lists GPUs and MIG devices with their UUIDs; the agent asks
	// only when a compute app names a MIG device it cannot place.
	ListArgs = []string{"-L"}
)

// GPU is one line of the GPU query. Unknown values are -1.
type GPU struct {
	Index      int
	UUID       string // "" when nvidia-smi could not say
	Util       int    // percent 0–100
	MemUsedMB  int
	MemTotalMB int
}

// App is one line of the compute-apps query: a process with a CUDA
// context on a GPU (on a MIG-enabled GPU, the parent GPU's UUID on the
// drivers we have recordings of; see testdata/README.md).
type App struct {
	GPUUUID string
	PID     int // 0 when nvidia-smi could not say ([Insufficient Permissions] in a container)
	UsedMB  int // -1 when unknown ([N/A] under Windows WDDM)
}

// LineError is a line that was skipped. The rest of the output is kept.
type LineError struct {
	Line   int    // 1-based line number in the output
	Text   string // the line, trimmed and shortened
	Reason string
}

func (e LineError) Error() string {
	return fmt.Sprintf("line %d %q: %s", e.Line, e.Text, e.Reason)
}

// What can go wrong with a whole reading. A *Failure wraps one of these.
var (
	// ErrNoDevices: nvidia-smi ran but found no GPU.
	ErrNoDevices = errors.New("nvidia-smi found no GPU")
	// ErrDriver: nvidia-smi could not talk to the driver (not loaded,
	// version mismatch after an upgrade without reboot).
	ErrDriver = errors.New("nvidia-smi cannot talk to the NVIDIA driver")
	// ErrUnreadable: output with no line the parser understood.
	ErrUnreadable = errors.New("nvidia-smi output not understood")
	// ErrEmpty: no output at all.
	ErrEmpty = errors.New("nvidia-smi printed nothing")
)

// Failure is a reading that produced no data, with what nvidia-smi said.
type Failure struct {
	Kind error  // ErrNoDevices, ErrDriver, ErrUnreadable or ErrEmpty
	Text string // nvidia-smi's own words (first line), shortened
}

func (f *Failure) Error() string {
	if f.Text == "" {
		return f.Kind.Error()
	}
	return fmt.Sprintf("%v: %s", f.Kind, f.Text)
}

func (f *Failure) Unwrap() error { return f.Kind }

// failureKind recognizes the messages nvidia-smi prints instead of CSV.
func failureKind(line string) error {
	switch {
	case hasPrefixFold(line, "No devices were found"):
		return ErrNoDevices
	case hasPrefixFold(line, "NVIDIA-SMI has failed"),
		hasPrefixFold(line, "Failed to initialize NVML"),
		hasPrefixFold(line, "NVML: Driver/library version mismatch"):
		return ErrDriver
	}
	return nil
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

const maxLineText = 120

func shorten(s string) string {
	s = strings.ToValidUTF8(s, "?")
	if len(s) <= maxLineText {
		return s
	}
	cut := maxLineText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// lines calls f with each trimmed, non-blank line and its 1-based number.
// Lines end in \n, \r\n or a lone \r.
func lines(out []byte, f func(n int, line string)) {
	s := string(out)
	n := 0
	emit := func(line string) {
		n++
		if line = strings.TrimSpace(line); line != "" {
			f(n, line)
		}
	}
	for len(s) > 0 {
		var line string
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			line, s = s, ""
		}
		line = strings.TrimSuffix(line, "\r")
		for {
			i := strings.IndexByte(line, '\r')
			if i < 0 {
				break
			}
			emit(line[:i])
			line = line[i+1:]
		}
		emit(line)
	}
}

// fields splits a CSV line. nvidia-smi does not quote: a comma inside a
// value (a process name) is printed as '?' by current drivers, and we do
// not ask for names.
func fields(line string, want int, buf []string) ([]string, string) {
	buf = buf[:0]
	for range want - 1 {
		i := strings.IndexByte(line, ',')
		if i < 0 {
			break
		}
		buf = append(buf, strings.TrimSpace(line[:i]))
		line = line[i+1:]
	}
	buf = append(buf, strings.TrimSpace(line))
	switch {
	case len(buf) < want:
		return nil, fmt.Sprintf("truncated: %d of %d fields", len(buf), want)
	case strings.IndexByte(buf[want-1], ',') >= 0:
		return nil, fmt.Sprintf("%d fields, want %d", want+strings.Count(buf[want-1], ","), want)
	}
	return buf, ""
}

// unknown reports whether v is nvidia-smi's way of saying it has no value:
// a bracketed reason such as [N/A], [Not Supported], [GPU requires reset],
// [Unknown Error] or [Insufficient Permissions]; some drivers print a bare
// N/A.
func unknown(v string) bool {
	return len(v) >= 2 && v[0] == '[' && v[len(v)-1] == ']' || strings.EqualFold(v, "N/A")
}

// number reads a non-negative integer no larger than max, allowing the
// unit nvidia-smi prints without nounits ("81559 MiB", "100 %").
func number(v, unit string, max int) (int, bool) {
	v = strings.TrimSpace(strings.TrimSuffix(v, unit))
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > max {
		return 0, false
	}
	return n, true
}

// A value is known, unknown (-1), or garbage (the line is skipped).
func value(v, unit string, max int) (n int, ok bool) {
	if unknown(v) {
		return -1, true
	}
	return number(v, unit, max)
}

// uuid accepts what nvidia-smi prints for a GPU or MIG device: letters,
// digits and "-/:_." ("GPU-…", "MIG-…", the old "MIG-GPU-…/1/0").
func uuid(v string) bool {
	if v == "" || len(v) > maxUUID {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !uuidByte[v[i]] {
			return false
		}
	}
	return true
}

var uuidByte = func() (t [256]bool) {
	for _, c := range "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-/:_." {
		t[c] = true
	}
	return t
}()

// Bounds on a reading; the store refuses a batch beyond them.
const (
	maxIndex = store.MaxServerGPUs - 1
	maxMiB   = 1 << 24 // 16 TiB: anything above is not a reading
	maxPID   = 1 << 30
	maxUUID  = 100
)

// ParseGPUs reads the output of nvidia-smi GPUQueryArgs. Lines it cannot
// read are returned as problems and skipped; the error is a *Failure when
// the output holds no GPU at all (nvidia-smi's failure messages, garbage,
// nothing).
func ParseGPUs(out []byte) ([]GPU, []LineError, error) {
	var (
		gpus     []GPU
		problems []LineError
		failure  *Failure
		seen     = map[int]bool{}
		buf      = make([]string, 0, 5)
		nonblank bool
	)
	bad := func(n int, line, reason string) {
		problems = append(problems, LineError{Line: n, Text: shorten(line), Reason: reason})
	}
	lines(out, func(n int, line string) {
		nonblank = true
		if kind := failureKind(line); kind != nil {
			if failure == nil {
				failure = &Failure{Kind: kind, Text: shorten(line)}
			}
			bad(n, line, "nvidia-smi: "+kind.Error())
			return
		}
		f, why := fields(line, 5, buf)
		if f == nil {
			bad(n, line, why)
			return
		}
		if f[0] == "index" { // a header: the query was run without noheader
			return
		}
		var g GPU
		var ok bool
		if g.Index, ok = number(f[0], "", maxIndex); !ok {
			bad(n, line, fmt.Sprintf("index %q is not a GPU index", shorten(f[0])))
			return
		}
		if seen[g.Index] {
			bad(n, line, fmt.Sprintf("GPU %d listed twice", g.Index))
			return
		}
		if !unknown(f[1]) {
			if !uuid(f[1]) {
				bad(n, line, fmt.Sprintf("uuid %q is not a GPU UUID", shorten(f[1])))
				return
			}
			g.UUID = f[1]
		}
		if g.Util, ok = value(f[2], "%", 100); !ok {
			bad(n, line, fmt.Sprintf("utilization %q is not a percentage", shorten(f[2])))
			return
		}
		if g.MemUsedMB, ok = value(f[3], "MiB", maxMiB); !ok {
			bad(n, line, fmt.Sprintf("memory.used %q is not MiB", shorten(f[3])))
			return
		}
		if g.MemTotalMB, ok = value(f[4], "MiB", maxMiB); !ok {
			bad(n, line, fmt.Sprintf("memory.total %q is not MiB", shorten(f[4])))
			return
		}
		seen[g.Index] = true
		gpus = append(gpus, g)
	})
	if len(gpus) > 0 {
		return gpus, problems, nil
	}
	switch {
	case failure != nil:
		return nil, problems, failure
	case nonblank:
		f := &Failure{Kind: ErrUnreadable}
		if len(problems) > 0 {
			f.Text = problems[0].Text
		}
		return nil, problems, f
	}
	return nil, problems, &Failure{Kind: ErrEmpty}
}

// ParseApps reads the output of nvidia-smi AppsQueryArgs. No output means
// no process. Lines it cannot read are returned as problems and skipped;
// the error is a *Failure only when nvidia-smi printed a failure message
// and no process.
func ParseApps(out []byte) ([]App, []LineError, error) {
	var (
		apps     []App
		problems []LineError
		failure  *Failure
		buf      = make([]string, 0, 3)
	)
	bad := func(n int, line, reason string) {
		problems = append(problems, LineError{Line: n, Text: shorten(line), Reason: reason})
	}
	lines(out, func(n int, line string) {
		if kind := failureKind(line); kind != nil {
			if failure == nil {
				failure = &Failure{Kind: kind, Text: shorten(line)}
			}
			bad(n, line, "nvidia-smi: "+kind.Error())
			return
		}
		f, why := fields(line, 3, buf)
		if f == nil {
			bad(n, line, why)
			return
		}
		if f[0] == "gpu_uuid" { // header
			return
		}
		if !uuid(f[0]) {
			bad(n, line, fmt.Sprintf("gpu_uuid %q is not a GPU UUID", shorten(f[0])))
			return
		}
		a := App{GPUUUID: f[0]}
		var ok bool
		if !unknown(f[1]) {
			if a.PID, ok = number(f[1], "", maxPID); !ok || a.PID == 0 {
				bad(n, line, fmt.Sprintf("pid %q is not a process id", shorten(f[1])))
				return
			}
		}
		if a.UsedMB, ok = value(f[2], "MiB", maxMiB); !ok {
			bad(n, line, fmt.Sprintf("used_memory %q is not MiB", shorten(f[2])))
			return
		}
		apps = append(apps, a)
	})
	if len(apps) == 0 && failure != nil {
		return nil, problems, failure
	}
	return apps, problems, nil
}

// ParseList reads `nvidia-smi -L` into a map from every GPU and MIG
// device UUID to its GPU's UUID:
//
//	GPU 0: NVIDIA H200 (UUID: GPU-…)
//	  MIG 1g.18gb     Device  3: (UUID: MIG-…)
func ParseList(out []byte) (map[string]string, error) {
	parent := map[string]string{}
	var gpu string
	var failure *Failure
	lines(out, func(_ int, line string) {
		if kind := failureKind(line); kind != nil && failure == nil {
			failure = &Failure{Kind: kind, Text: shorten(line)}
			return
		}
		i := strings.LastIndex(line, "(UUID: ")
		if i < 0 || !strings.HasSuffix(line, ")") {
			return
		}
		id := strings.TrimSpace(line[i+len("(UUID: ") : len(line)-1])
		if !uuid(id) {
			return
		}
		switch {
		case strings.HasPrefix(line, "GPU "):
			gpu = id
			parent[id] = id
		case strings.HasPrefix(line, "MIG ") && gpu != "" && parent[id] != id:
			parent[id] = gpu
		}
	})
	if len(parent) == 0 && failure != nil {
		return nil, failure
	}
	return parent, nil
}

// gpuOf returns the UUID of the GPU an app runs on: its own UUID, the GPU
// part of an old-style MIG UUID ("MIG-GPU-<uuid>/<gi>/<ci>", R450/R460),
// or the parent from `nvidia-smi -L`.
func gpuOf(app string, list map[string]string) string {
	if rest, ok := strings.CutPrefix(app, "MIG-GPU-"); ok {
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			return "GPU-" + rest[:i]
		}
	}
	if p, ok := list[app]; ok {
		return p
	}
	return app
}
