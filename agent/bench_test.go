package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// eightGPUs is an 8-GPU server's answer, made by repeating the H100
// recording's line with other indexes (there is no 8-GPU recording in
// testdata); the parser's cost is per line.
func eightGPUs() []byte {
	var b strings.Builder
	for i := range 8 {
		fmt.Fprintf(&b, "%d, GPU-%08d-0000-0000-0000-000000000000, 100, 19818, 81559\n", i, i)
	}
	return []byte(b.String())
}

func BenchmarkParseGPUs(b *testing.B) {
	out := eightGPUs()
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ParseGPUs(out); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseApps(b *testing.B) {
	var sb strings.Builder
	for i := range 32 { // 4 processes on each of 8 GPUs
		fmt.Fprintf(&sb, "GPU-%08d-0000-0000-0000-000000000000, %d, 2566\n", i%8, 11000+i)
	}
	out := []byte(sb.String())
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ParseApps(out); err != nil {
			b.Fatal(err)
		}
	}
}

// One whole reading from recordings, owners from a fake /proc: the agent's
// own cost per sample, without nvidia-smi's.
func BenchmarkSample(b *testing.B) {
	proc := fakeProc(b, map[int]int{11327: 1001, 11328: 1001, 11345: 1002})
	a, err := New(Config{Server: "h", Host: "x", Every: time.Second,
		Runner: &recorded{gpus: "gpus-h100-80gb-hbm3-590.48.01-load.txt", apps: "apps-h100-80gb-hbm3-590.48.01-load.txt"},
		Owners: &Owners{Proc: proc, LookupID: func(uid string) (string, error) { return "u" + uid, nil }}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if s := a.Sample(context.Background()); s.Err != "" {
			b.Fatal(s.Err)
		}
	}
}
