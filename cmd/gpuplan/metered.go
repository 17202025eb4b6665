package main

import (
	"context"
	"errors"
	"time"

	"github.com/gpuplan/gpuplan/store"
)

// meterStore wraps st so that every call is timed and its failures
// counted by operation. When st also implements store.Watch, so does the
// result, metered the same way. The decorator adds nothing else: it is a
// thin, complete pass-through (a test compares method sets).
func meterStore(st store.Store, m *Metrics) store.Store {
	ms := meteredStore{s: st, m: m}
	if w, ok := st.(store.Watch); ok {
		return &meteredBackend{meteredStore: ms, w: w}
	}
	return &ms
}

// storeFailed tells a failure from the store's answers: a conflict, an
// unknown id, someone else's reservation, an ended one and an invalid
// request are results, and a caller that gave up is not the store's fault.
func storeFailed(err error) bool {
	if err == nil {
		return false
	}
	for _, answer := range []error{store.ErrConflict, store.ErrNotFound, store.ErrNotOwner, store.ErrEnded, store.ErrInvalid, context.Canceled} {
		if errors.Is(err, answer) {
			return false
		}
	}
	return true
}

type meteredStore struct {
	s store.Store
	m *Metrics
}

// record records one call; use it as `defer s.record("op", time.Now(), &err)`.
func (s *meteredStore) record(op string, start time.Time, err *error) {
	s.m.storeOp(op, time.Since(start), *err)
}

func (s *meteredStore) Reserve(ctx context.Context, req store.ReserveRequest) (r store.Reservation, err error) {
	defer s.record("reserve", time.Now(), &err)
	return s.s.Reserve(ctx, req)
}

func (s *meteredStore) Release(ctx context.Context, req store.ReleaseRequest) (r store.Reservation, err error) {
	defer s.record("release", time.Now(), &err)
	return s.s.Release(ctx, req)
}

func (s *meteredStore) Extend(ctx context.Context, req store.ExtendRequest) (r store.Reservation, err error) {
	defer s.record("extend", time.Now(), &err)
	return s.s.Extend(ctx, req)
}

func (s *meteredStore) Get(ctx context.Context, id string) (r store.Reservation, err error) {
	defer s.record("get", time.Now(), &err)
	return s.s.Get(ctx, id)
}

func (s *meteredStore) List(ctx context.Context, server string) (rs []store.Reservation, err error) {
	defer s.record("list", time.Now(), &err)
	return s.s.List(ctx, server)
}

func (s *meteredStore) SetAnnouncement(ctx context.Context, id, channel, ts string) (err error) {
	defer s.record("set_announcement", time.Now(), &err)
	return s.s.SetAnnouncement(ctx, id, channel, ts)
}

func (s *meteredStore) MarkReminded(ctx context.Context, id string) (ok bool, err error) {
	defer s.record("mark_reminded", time.Now(), &err)
	return s.s.MarkReminded(ctx, id)
}

func (s *meteredStore) Wait(ctx context.Context, req store.WaitRequest) (w store.Waiter, err error) {
	defer s.record("wait", time.Now(), &err)
	return s.s.Wait(ctx, req)
}

func (s *meteredStore) Waiters(ctx context.Context, server string) (ws []store.Waiter, err error) {
	defer s.record("waiters", time.Now(), &err)
	return s.s.Waiters(ctx, server)
}

func (s *meteredStore) RemoveWaiter(ctx context.Context, server, id string) (ok bool, err error) {
	defer s.record("remove_waiter", time.Now(), &err)
	return s.s.RemoveWaiter(ctx, server, id)
}

func (s *meteredStore) Audit(ctx context.Context, server string, n int) (ev []store.AuditEvent, err error) {
	defer s.record("audit", time.Now(), &err)
	return s.s.Audit(ctx, server, n)
}

func (s *meteredStore) Now(ctx context.Context) (t time.Time, err error) {
	defer s.record("now", time.Now(), &err)
	return s.s.Now(ctx)
}

func (s *meteredStore) Close() (err error) {
	defer s.record("close", time.Now(), &err)
	return s.s.Close()
}

// meteredBackend is a metered store whose backend has the watch half too.
type meteredBackend struct {
	meteredStore
	w store.Watch
}

func (s *meteredBackend) RecordSamples(ctx context.Context, b store.SampleBatch) (err error) {
	defer s.record("record_samples", time.Now(), &err)
	return s.w.RecordSamples(ctx, b)
}

func (s *meteredBackend) Usage(ctx context.Context, server string, from, to time.Time) (u []store.HourUsage, err error) {
	defer s.record("usage", time.Now(), &err)
	return s.w.Usage(ctx, server, from, to)
}

func (s *meteredBackend) Live(ctx context.Context, server string) (l store.Live, err error) {
	defer s.record("live", time.Now(), &err)
	return s.w.Live(ctx, server)
}

func (s *meteredBackend) History(ctx context.Context, server string, from, to time.Time) (rs []store.Reservation, err error) {
	defer s.record("history", time.Now(), &err)
	return s.w.History(ctx, server, from, to)
}

func (s *meteredBackend) PutSubscription(ctx context.Context, sub store.Subscription) (err error) {
	defer s.record("put_subscription", time.Now(), &err)
	return s.w.PutSubscription(ctx, sub)
}

func (s *meteredBackend) DeleteSubscription(ctx context.Context, channel string) (ok bool, err error) {
	defer s.record("delete_subscription", time.Now(), &err)
	return s.w.DeleteSubscription(ctx, channel)
}

func (s *meteredBackend) Subscriptions(ctx context.Context) (subs []store.Subscription, err error) {
	defer s.record("subscriptions", time.Now(), &err)
	return s.w.Subscriptions(ctx)
}

func (s *meteredBackend) Claim(ctx context.Context, job, holder string, lease time.Duration) (ok bool, err error) {
	defer s.record("claim", time.Now(), &err)
	return s.w.Claim(ctx, job, holder, lease)
}

func (s *meteredBackend) Done(ctx context.Context, job string) (err error) {
	defer s.record("done", time.Now(), &err)
	return s.w.Done(ctx, job)
}

func (s *meteredBackend) FirstSeen(ctx context.Context, key string, ttl time.Duration) (ok bool, err error) {
	defer s.record("first_seen", time.Now(), &err)
	return s.w.FirstSeen(ctx, key, ttl)
}

var (
	_ store.Store   = (*meteredStore)(nil)
	_ store.Backend = (*meteredBackend)(nil)
)
