package main

import "testing"

// The compute-only commands leave signals to the default (the process
// ends); the ones that hold a store, a socket or a child process get them
// as a cancelled context.
func TestWantsSignals(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false}, {[]string{"--help"}, false}, {[]string{"plan", "bert-base"}, false}, {[]string{"gpus"}, false},
		{[]string{"serve"}, true}, {[]string{"exec", "--", "python"}, true}, {[]string{"reserve", "1"}, true},
		{[]string{"run", "status"}, true}, {[]string{"agent"}, true}, {[]string{"digest"}, true}, {[]string{"unknown"}, true},
	} {
		if got := wantsSignals(tc.args); got != tc.want {
			t.Errorf("wantsSignals(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
