package commands

import (
	"context"
	"runtime"
)

// cores bounds how many plans compute at once: the searches are CPU work,
// and more of them at once than the machine has cores make each one later
// and leave no CPU for a bot's acks, which then queue behind them on an
// overloaded machine. A plan holds a core for its reading's searches only,
// never while it waits on the store or the Hub.
type cores chan struct{}

// newCores bounds plans to n at once; 0 means GOMAXPROCS.
func newCores(n int) cores {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return make(cores, n)
}

// take waits for a core; release gives it back.
func (c cores) take(ctx context.Context) (release func(), err error) {
	select {
	case c <- struct{}{}:
		return func() { <-c }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// spareCore takes a second core for a plan only when one is free at once
// (its cloud search beside its team search), and never for a process that
// answers one command (Deps.OneShot), where starting a thread costs more
// than the overlap saves.
func (s *Set) spareCore() (release func(), ok bool) {
	if s.deps.OneShot {
		return nil, false
	}
	select {
	case s.cores <- struct{}{}:
		return func() { <-s.cores }, true
	default:
		return nil, false
	}
}

// Busy reports that every core is computing a plan, so a plan asked now
// waits for one: an adapter acks it sooner rather than hold the ack for
// the whole budget.
func (s *Set) Busy() bool { return len(s.cores) == cap(s.cores) }
