package main

import (
	"context"
	"io"
	"testing"
)

// BenchmarkCLIPlan is the work of one `gpuplan plan "<README example>"`
// inside a warm process: flags, catalogue, reading, both searches and the
// text (what a fresh process pays on top of start-up is in TestStartup).
func BenchmarkCLIPlan(b *testing.B) {
	getenv := func(string) string { return "" }
	b.ReportAllocs()
	for b.Loop() {
		if code := run(context.Background(), []string{"plan", "bert-base 10 epochs of 2.5M samples on h100x2"}, getenv, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
