package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// No Docker engine runs here, so the Dockerfile is checked by reading it,
// and the exact build command it runs is run and its binary examined.
func TestDockerfile(t *testing.T) {
	raw, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(raw), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	idx := func(prefix string) int {
		for i, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return i
			}
		}
		return -1
	}
	var froms []string
	for _, l := range lines {
		if strings.HasPrefix(l, "FROM ") {
			froms = append(froms, l)
		}
	}
	if len(froms) < 2 || !strings.Contains(froms[0], " AS build") {
		t.Errorf("want a multi-stage build with a named build stage, got %q", froms)
	}
	if !strings.Contains(froms[len(froms)-1], "distroless") || !strings.Contains(froms[len(froms)-1], "nonroot") {
		t.Errorf("runtime stage %q should be a minimal non-root image", froms[len(froms)-1])
	}
	download, copyAll := idx("RUN go mod download"), idx("COPY . .")
	if download < 0 || copyAll < 0 || download > copyAll || idx("COPY go.mod") > download {
		t.Error("module download must be its own layer, after copying go.mod/go.sum and before the sources")
	}
	if u := idx("USER "); u < 0 || !strings.Contains(lines[u], "nonroot") || u < idx("FROM gcr.io") {
		t.Error("the runtime stage must run as a non-root user")
	}
	if e := idx("ENTRYPOINT "); e < 0 || lines[e] != `ENTRYPOINT ["/gpuplan"]` {
		t.Error(`ENTRYPOINT must be ["/gpuplan"] (one binary for serve and agent)`)
	}
	build := idx("RUN CGO_ENABLED=0")
	if build < 0 {
		t.Fatal("no static build step (RUN CGO_ENABLED=0 … go build)")
	}
	cmdline := strings.TrimPrefix(lines[build], "RUN ")
	for _, must := range []string{"-trimpath", "./cmd/gpuplan", "-o /out/gpuplan"} {
		if !strings.Contains(cmdline, must) {
			t.Errorf("build step lacks %s: %s", must, cmdline)
		}
	}
	if testing.Short() {
		return
	}
	// Run that very command the way a shell-form RUN does (/bin/sh -c),
	// writing where the test can look.
	out := filepath.Join(t.TempDir(), "gpuplan")
	cmd := exec.Command("sh", "-c", strings.Replace(cmdline, "/out/gpuplan", out, 1))
	cmd.Dir = "../.."
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmdline, err, b)
	}
	f, err := elf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Error("the binary is dynamically linked; distroless/static needs a static one")
		}
	}
	if b, err := exec.Command(out, "help").CombinedOutput(); err != nil || !strings.Contains(string(b), "plan") {
		t.Errorf("the built binary does not run: %v\n%s", err, b)
	}
}
