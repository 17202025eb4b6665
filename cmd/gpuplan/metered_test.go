package main

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/gpuplan/gpuplan/store"
)

// fakeBackend implements store.Backend; every method fails with err.
type fakeBackend struct{ err error }

func (f fakeBackend) Reserve(context.Context, store.ReserveRequest) (store.Reservation, error) {
	return store.Reservation{}, f.err
}
func (f fakeBackend) Release(context.Context, store.ReleaseRequest) (store.Reservation, error) {
	return store.Reservation{}, f.err
}
func (f fakeBackend) Extend(context.Context, store.ExtendRequest) (store.Reservation, error) {
	return store.Reservation{}, f.err
}
func (f fakeBackend) Get(context.Context, string) (store.Reservation, error) {
	return store.Reservation{}, f.err
}
func (f fakeBackend) List(context.Context, string) ([]store.Reservation, error) { return nil, f.err }
func (f fakeBackend) SetAnnouncement(context.Context, string, string, string) error {
	return f.err
}
func (f fakeBackend) MarkReminded(context.Context, string) (bool, error) { return false, f.err }
func (f fakeBackend) Wait(context.Context, store.WaitRequest) (store.Waiter, error) {
	return store.Waiter{}, f.err
}
func (f fakeBackend) Waiters(context.Context, string) ([]store.Waiter, error) { return nil, f.err }
func (f fakeBackend) RemoveWaiter(context.Context, string, string) (bool, error) {
	return false, f.err
}
func (f fakeBackend) Audit(context.Context, string, int) ([]store.AuditEvent, error) {
	return nil, f.err
}
func (f fakeBackend) Now(context.Context) (time.Time, error)                 { return time.Time{}, f.err }
func (f fakeBackend) Close() error                                           { return f.err }
func (f fakeBackend) RecordSamples(context.Context, store.SampleBatch) error { return f.err }
func (f fakeBackend) Usage(context.Context, string, time.Time, time.Time) ([]store.HourUsage, error) {
	return nil, f.err
}
func (f fakeBackend) Live(context.Context, string) (store.Live, error) { return store.Live{}, f.err }
func (f fakeBackend) History(context.Context, string, time.Time, time.Time) ([]store.Reservation, error) {
	return nil, f.err
}
func (f fakeBackend) PutSubscription(context.Context, store.Subscription) error { return f.err }
func (f fakeBackend) DeleteSubscription(context.Context, string) (bool, error)  { return false, f.err }
func (f fakeBackend) Subscriptions(context.Context) ([]store.Subscription, error) {
	return nil, f.err
}
func (f fakeBackend) Claim(context.Context, string, string, time.Duration) (bool, error) {
	return false, f.err
}
func (f fakeBackend) Done(context.Context, string) error { return f.err }
func (f fakeBackend) FirstSeen(context.Context, string, time.Duration) (bool, error) {
	return false, f.err
}

// storeOnly hides the watch half of a backend.
type storeOnly struct{ store.Store }

// snake is the op label of a method: RecordSamples → record_samples.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// methodSet is the names of an interface type's methods.
func methodSet(t reflect.Type) []string {
	var out []string
	for i := range t.NumMethod() {
		out = append(out, t.Method(i).Name)
	}
	return out
}

// The decorator is complete: it has every method of store.Store (and of
// store.Watch when the backend has them), and each one is metered under
// its own op label — call it through reflection and look. A method added
// to the store without a metered wrapper fails here.
func TestMeteredStoreCoversEveryMethod(t *testing.T) {
	failure := errors.New("boom")
	m := newMetrics()
	full := meterStore(fakeBackend{err: failure}, m)
	if _, ok := full.(store.Backend); !ok {
		t.Fatal("a backend with the watch half lost it behind the decorator")
	}
	if _, ok := meterStore(storeOnly{fakeBackend{}}, newMetrics()).(store.Watch); ok {
		t.Error("a store without the watch half gained one")
	}
	methods := append(methodSet(reflect.TypeFor[store.Store]()), methodSet(reflect.TypeFor[store.Watch]())...)
	v := reflect.ValueOf(full)
	for _, name := range methods {
		fn := v.MethodByName(name)
		if !fn.IsValid() {
			t.Errorf("the metered store has no %s", name)
			continue
		}
		args := make([]reflect.Value, fn.Type().NumIn())
		for i := range args {
			args[i] = reflect.Zero(fn.Type().In(i))
		}
		if len(args) > 0 {
			args[0] = reflect.ValueOf(context.Background())
		}
		out := fn.Call(args)
		if got := out[len(out)-1].Interface(); got != failure {
			t.Errorf("%s returned %v, want the inner store's error", name, got)
		}
		op := snake(name)
		if n := histogramCount(t, m, metricStoreSeconds, "op", op); n != 1 {
			t.Errorf("%s: %d latencies observed under op=%q, want 1", name, n, op)
		}
		if got := m.storeErrors.With(op).value(); got != 1 {
			t.Errorf("%s: errors{op=%q} = %v, want 1", name, op, got)
		}
	}
	// No extra exported methods either: the decorator is the contract.
	for i := range v.Type().NumMethod() {
		name := v.Type().Method(i).Name
		found := false
		for _, want := range methods {
			found = found || want == name
		}
		if !found {
			t.Errorf("the metered store has %s, which is not a store method", name)
		}
	}
}

// histogramCount gathers m's registry and returns how many observations
// the histogram name has for label=value.
func histogramCount(t *testing.T, m *Metrics, name, label, value string) uint64 {
	t.Helper()
	mfs, err := promGatherer(m.Registry()).Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, s := range mf.GetMetric() {
			for _, l := range s.GetLabel() {
				if l.GetName() == label && l.GetValue() == value {
					return s.GetHistogram().GetSampleCount()
				}
			}
		}
	}
	return 0
}

// The store's answers are not failures; the store being away is.
func TestStoreFailedClassifies(t *testing.T) {
	for _, tc := range []struct {
		err  error
		fail bool
	}{
		{nil, false},
		{&store.ConflictError{}, false},
		{fmt.Errorf("x: %w", store.ErrNotFound), false},
		{store.ErrNotOwner, false},
		{store.ErrEnded, false},
		{&store.InvalidError{Reason: "no"}, false},
		{context.Canceled, false},
		{&store.UnavailableError{Msg: "redis away", Cause: errors.New("dial")}, true},
		{context.DeadlineExceeded, true},
		{errors.New("script error"), true},
	} {
		if got := storeFailed(tc.err); got != tc.fail {
			t.Errorf("storeFailed(%v) = %v, want %v", tc.err, got, tc.fail)
		}
	}
}
