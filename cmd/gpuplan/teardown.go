package main

import (
	"time"

	"go.uber.org/zap"
)

// teardown is serve's parts in the order they were built, each with how
// to stop it (alertmanager's cleanup stack). run stops them last built
// first, so the order is written where the parts are built, not implied
// by the order of defers: what posts through the bot stops before the
// health server that reports on the store, which stops before the store,
// and the logger is flushed last.
type teardown struct {
	log   *zap.Logger // nil until the logger exists
	steps []cleanup
}

// cleanup is one step: a name for the log and how to stop the part.
type cleanup struct {
	name string
	stop func()
}

// add pushes a part's stop.
func (t *teardown) add(name string, stop func()) {
	t.steps = append(t.steps, cleanup{name, stop})
}

// run stops every part, last added first, once; later calls do nothing.
func (t *teardown) run() {
	for len(t.steps) > 0 {
		c := t.steps[len(t.steps)-1]
		t.steps = t.steps[:len(t.steps)-1]
		start := time.Now()
		c.stop()
		if t.log != nil && c.name != "logger" {
			t.log.Debug("stopped", zap.String("part", c.name), zap.Duration("took", time.Since(start)))
		}
	}
}
