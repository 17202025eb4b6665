package commands

import (
	"context"
	"errors"
	"testing"
)

// A plan waits for one of the process's cores while every one is
// computing, and gives up with its context; a command that does not plan
// does not wait. One core answers the same plan as many: the cloud search
// runs after the team's instead of beside it.
func TestPlansWaitForACore(t *testing.T) {
	const text = "bert-base 10 epochs of 2.5M samples on h100x2"
	one := New(Deps{Cores: 1})
	many := New(Deps{Cores: 4})
	if one.Busy() {
		t.Fatal("a set with its core free says it is busy")
	}
	release, err := one.cores.take(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !one.Busy() {
		t.Fatal("a set whose only core is taken does not say it is busy")
	}
	if !one.NeedsOf(text).Compute || one.NeedsOf("help").Compute || one.NeedsOf("status").Compute {
		t.Errorf("Compute: plan %v, help %v, status %v; want only the plan", one.NeedsOf(text).Compute, one.NeedsOf("help").Compute, one.NeedsOf("status").Compute)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := one.Dispatch(ctx, Request{Text: text})
		done <- err
	}()
	if _, err := one.Dispatch(context.Background(), Request{Text: "help"}); err != nil {
		t.Fatalf("help while the core is taken: %v", err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("a plan asked while the only core was taken and then cancelled: err %v, want it to have waited and given up", err)
	}
	release()
	got, err := one.Dispatch(context.Background(), Request{Text: text})
	if err != nil {
		t.Fatal(err)
	}
	want, err := many.Dispatch(context.Background(), Request{Text: text})
	if err != nil {
		t.Fatal(err)
	}
	if g, w := render(t, got), render(t, want); g != w {
		t.Errorf("one core answers differently from four:\n%s\n---\n%s", g, w)
	}
	if one.Busy() {
		t.Error("the core was not given back after the plan")
	}
}
