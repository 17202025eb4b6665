package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Runner runs nvidia-smi with args and returns what it printed on stdout.
// A failed run may still return output: nvidia-smi prints "No devices
// were found" and exits 6. Tests replace the real one with recordings.
type Runner interface {
	Run(ctx context.Context, args ...string) ([]byte, error)
}

// RunnerFunc adapts a function to Runner.
type RunnerFunc func(ctx context.Context, args ...string) ([]byte, error)

// Run calls f.
func (f RunnerFunc) Run(ctx context.Context, args ...string) ([]byte, error) { return f(ctx, args...) }

// DefaultTimeout is how long ExecRunner waits for nvidia-smi. It answers
// in well under a second; one that hangs (a GPU fallen off the bus, a
// wedged driver) is killed so the agent can report it.
const DefaultTimeout = 10 * time.Second

// maxOutput caps what is read from nvidia-smi; a real answer is a few KiB.
const maxOutput = 4 << 20

// ErrTimeout: nvidia-smi did not answer in time and was killed.
var ErrTimeout = errors.New("nvidia-smi did not answer in time")

// ExecRunner runs the nvidia-smi binary.
type ExecRunner struct {
	Path    string        // "" means "nvidia-smi" on $PATH
	Timeout time.Duration // 0 means DefaultTimeout
}

// Run runs nvidia-smi. A missing binary is an error that
// errors.Is(err, exec.ErrNotFound), whether Path is a bare name looked up
// on $PATH or a path.
func (r ExecRunner) Run(ctx context.Context, args ...string) ([]byte, error) {
	path := r.Path
	if path == "" {
		path = "nvidia-smi"
	}
	if strings.ContainsRune(path, os.PathSeparator) {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, &exec.Error{Name: path, Err: exec.ErrNotFound}
		}
	}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	// A killed nvidia-smi may leave a child holding the pipes; do not wait
	// for it longer than this.
	cmd.WaitDelay = time.Second
	var stdout, stderr limitedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	out := stdout.Bytes()
	switch {
	case err == nil:
		return out, nil
	case ctx.Err() == context.DeadlineExceeded:
		return out, fmt.Errorf("%s: %w after %v, killed", path, ErrTimeout, timeout)
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return nil, &exec.Error{Name: path, Err: exec.ErrNotFound}
	}
	if msg := firstLine(stderr.Bytes()); msg != "" {
		return out, fmt.Errorf("%s: %w: %s", path, err, msg)
	}
	return out, fmt.Errorf("%s: %w", path, err)
}

func firstLine(b []byte) string {
	var first string
	lines(b, func(_ int, line string) {
		if first == "" {
			first = shorten(line)
		}
	})
	return first
}

// limitedBuffer keeps the first maxOutput bytes and drops the rest, so a
// runaway child cannot fill the agent's memory. (It does not embed
// bytes.Buffer: io.Copy would use the buffer's ReadFrom and skip the cap.)
type limitedBuffer struct{ buf bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := maxOutput - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *limitedBuffer) Bytes() []byte { return b.buf.Bytes() }
