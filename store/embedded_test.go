package store_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/store"
	"github.com/gpuplan/gpuplan/store/storetest"
)

func openEmbedded(t *testing.T, clock func() time.Time) store.Store {
	s, err := store.OpenEmbedded(filepath.Join(t.TempDir(), "gpuplan.db"), clock)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestEmbeddedContract(t *testing.T) {
	storetest.Run(t, openEmbedded)
}

func TestEmbeddedWatchContract(t *testing.T) {
	storetest.RunWatch(t, openEmbedded)
}

// The file is the store: what was written is there after a reopen, and a
// second process cannot open it at the same time.
func TestEmbeddedDurable(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gpuplan.db")
	clock := storetest.NewClock(storetest.Base)
	s, err := store.OpenEmbedded(path, clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	req := store.ReserveRequest{RequestID: "r1", Server: "h", ServerGPUs: 2, Count: 1, Owner: "U1", Duration: time.Hour}
	r, err := s.Reserve(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.OpenEmbedded(path, clock.Now); err == nil {
		t.Error("a second open of a held file succeeded")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = store.OpenEmbedded(path, clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Get(ctx, r.ID)
	if err != nil || got.Owner != "U1" || !got.End.Equal(r.End) {
		t.Errorf("after reopen: %+v, %v", got, err)
	}
	// The request id survived too: the retry is still recognised.
	again, err := s.Reserve(ctx, req)
	if err != nil || again.ID != r.ID {
		t.Errorf("retry after reopen = %+v, %v; want %s", again, err, r.ID)
	}
	if ev, _ := s.Audit(ctx, "h", 10); len(ev) != 1 {
		t.Errorf("audit after reopen = %+v", ev)
	}
}
