package main

import (
	"slices"
	"testing"
)

// Parts stop last built first, each once.
func TestTeardownOrder(t *testing.T) {
	var got []string
	var down teardown
	for _, name := range []string{"logger", "store", "http", "sweeps"} {
		down.add(name, func() { got = append(got, name) })
	}
	down.run()
	down.run()
	if want := []string{"sweeps", "http", "store", "logger"}; !slices.Equal(got, want) {
		t.Fatalf("stopped %v, want %v", got, want)
	}
}
