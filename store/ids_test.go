package store_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/store"
)

var idForm = regexp.MustCompile(`^h-1[a-z][a-z0-9]{2}$`)

// Issue 12, item 7: after data loss the sequence counts again from where
// the store was, but the new reservation's id is not the lost one's, so an
// old Release/Extend button (which carries the id) finds nothing instead of
// acting on somebody else's new reservation.
func TestIDsUniqueAcrossDataLoss(t *testing.T) {
	ctx := context.Background()
	req := func(owner string) store.ReserveRequest {
		return store.ReserveRequest{Server: "h", ServerGPUs: 1, Count: 1, Owner: owner, Duration: time.Hour}
	}
	check := func(t *testing.T, s store.Store, lose func()) {
		old, err := s.Reserve(ctx, req("U_OLD"))
		if err != nil {
			t.Fatal(err)
		}
		lose()
		fresh, err := s.Reserve(ctx, req("U_NEW"))
		if err != nil {
			t.Fatal(err)
		}
		if !idForm.MatchString(old.ID) || !idForm.MatchString(fresh.ID) {
			t.Errorf("ids %q, %q: want h-1 and a three-character suffix", old.ID, fresh.ID)
		}
		if old.ID == fresh.ID {
			t.Fatalf("after data loss the id %s was handed out again", old.ID)
		}
		if _, err := s.Release(ctx, store.ReleaseRequest{ID: old.ID, Actor: "U_OLD"}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("release through the old id: %v, want ErrNotFound", err)
		}
		if got, err := s.Get(ctx, fresh.ID); err != nil || got.Owner != "U_NEW" {
			t.Errorf("the new reservation: %+v, %v", got, err)
		}
	}
	t.Run("Redis without persistence", func(t *testing.T) {
		srv := store.StartRedis(t)
		s := store.NewRedis(srv.Client(), nil)
		defer s.Close()
		check(t, s, func() {
			if err := srv.Client().FlushDB(ctx).Err(); err != nil {
				t.Fatal(err)
			}
		})
	})
	t.Run("embedded store restored from an older backup", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "gpuplan.db")
		s, err := store.OpenEmbeddedWith(path, store.EmbeddedOptions{NoBackup: true})
		if err != nil {
			t.Fatal(err)
		}
		empty, _ := os.ReadFile(path)
		var cur store.Store = s
		check(t, storeFunc{&cur}, func() {
			cur.Close()
			if err := os.WriteFile(path, empty, 0o600); err != nil {
				t.Fatal(err)
			}
			s2, err := store.OpenEmbeddedWith(path, store.EmbeddedOptions{NoBackup: true})
			if err != nil {
				t.Fatal(err)
			}
			cur = s2
		})
		cur.Close()
	})
}

// storeFunc forwards to whatever store *s is now (the embedded case swaps
// the store under the test).
type storeFunc struct{ s *store.Store }

func (f storeFunc) Reserve(ctx context.Context, r store.ReserveRequest) (store.Reservation, error) {
	return (*f.s).Reserve(ctx, r)
}
func (f storeFunc) Release(ctx context.Context, r store.ReleaseRequest) (store.Reservation, error) {
	return (*f.s).Release(ctx, r)
}
func (f storeFunc) Extend(ctx context.Context, r store.ExtendRequest) (store.Reservation, error) {
	return (*f.s).Extend(ctx, r)
}
func (f storeFunc) Get(ctx context.Context, id string) (store.Reservation, error) {
	return (*f.s).Get(ctx, id)
}
func (f storeFunc) List(ctx context.Context, server string) ([]store.Reservation, error) {
	return (*f.s).List(ctx, server)
}
func (f storeFunc) SetAnnouncement(ctx context.Context, id, ch, ts string) error {
	return (*f.s).SetAnnouncement(ctx, id, ch, ts)
}
func (f storeFunc) MarkReminded(ctx context.Context, id string) (bool, error) {
	return (*f.s).MarkReminded(ctx, id)
}
func (f storeFunc) Wait(ctx context.Context, r store.WaitRequest) (store.Waiter, error) {
	return (*f.s).Wait(ctx, r)
}
func (f storeFunc) Waiters(ctx context.Context, server string) ([]store.Waiter, error) {
	return (*f.s).Waiters(ctx, server)
}
func (f storeFunc) RemoveWaiter(ctx context.Context, server, id string) (bool, error) {
	return (*f.s).RemoveWaiter(ctx, server, id)
}
func (f storeFunc) Audit(ctx context.Context, server string, n int) ([]store.AuditEvent, error) {
	return (*f.s).Audit(ctx, server, n)
}
func (f storeFunc) Now(ctx context.Context) (time.Time, error) { return (*f.s).Now(ctx) }
func (f storeFunc) Close() error                               { return (*f.s).Close() }
