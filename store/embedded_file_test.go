package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/store"
	"github.com/gpuplan/gpuplan/store/storetest"
)

// fillStore writes n reservations (with notes, so the file grows past a few
// pages) and closes the store; it returns their ids.
func fillStore(t *testing.T, path string, n int) []string {
	t.Helper()
	ctx := context.Background()
	clock := storetest.NewClock(storetest.Base)
	s, err := store.OpenEmbeddedWith(path, store.EmbeddedOptions{Clock: clock.Now, BackupEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := range n {
		r, err := s.Reserve(ctx, store.ReserveRequest{RequestID: fmt.Sprint("fill-", i), Server: "h", ServerGPUs: 8, Count: 1,
			Owner: "U1", Start: storetest.Base.Add(time.Duration(i) * time.Hour), Duration: time.Hour, Note: strings.Repeat("n", 500)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ID)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return ids
}

// Issue 12, item 1: a damaged store file is an error naming the file and
// the way back, never a panic (bbolt panics with "invalid freelist page" or
// a page assertion, or faults on a truncated memory map).
func TestEmbeddedDamagedFileIsAnError(t *testing.T) {
	damage := map[string]func(t *testing.T, path string){
		"truncated to 16 KiB": func(t *testing.T, path string) {
			if err := os.Truncate(path, 16<<10); err != nil {
				t.Fatal(err)
			}
		},
		"truncated to 6 KiB": func(t *testing.T, path string) {
			if err := os.Truncate(path, 6<<10); err != nil {
				t.Fatal(err)
			}
		},
		"every data page header overwritten": func(t *testing.T, path string) {
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			for off := int64(2 * 4096); off < st.Size(); off += 4096 {
				overwrite(t, path, off, 16)
			}
		},
		"both meta pages overwritten": func(t *testing.T, path string) {
			overwrite(t, path, 0, 64)
			overwrite(t, path, 4096, 64)
		},
	}
	for name, fn := range damage {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "gpuplan.db")
			fillStore(t, path, 60)
			fn(t, path)
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("OpenEmbedded panicked: %v", r)
					}
				}()
				var s *store.Embedded
				s, err = store.OpenEmbedded(path, nil)
				if err == nil {
					// bbolt may accept a file whose damage it cannot see;
					// then every read must still work or fail cleanly.
					_, lerr := s.List(context.Background(), "h")
					s.Close()
					t.Fatalf("a damaged file opened (List: %v)", lerr)
				}
			}()
			checkFileError(t, err, path, false)
			var fe *store.FileError
			if errors.As(err, &fe) && fe.Backup == "" {
				t.Errorf("the backup was not offered: %v", err)
			}
			if !strings.Contains(err.Error(), "doctor --repair") {
				t.Errorf("the message does not say how to get back: %v", err)
			}
			// It is said in words, not with the Go panic bbolt raised.
			for _, raw := range []string{"runtime error", "nil pointer", "panic", "assertion failed", "goroutine", "unexpected fault"} {
				if strings.Contains(err.Error(), raw) {
					t.Errorf("the message carries Go's panic text %q: %v", raw, err)
				}
			}
			// CheckEmbedded (doctor) says the same, without a panic.
			if cerr := store.CheckEmbedded(path); !errors.Is(cerr, store.ErrStoreFile) {
				t.Errorf("CheckEmbedded = %v", cerr)
			}
		})
	}
}

func overwrite(t *testing.T, path string, off int64, n int) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	junk := make([]byte, n)
	for i := range junk {
		junk[i] = byte(0xA5 + i)
	}
	if _, err := f.WriteAt(junk, off); err != nil {
		t.Fatal(err)
	}
}

func checkFileError(t *testing.T, err error, path string, locked bool) {
	t.Helper()
	if !errors.Is(err, store.ErrStoreFile) {
		t.Fatalf("err = %v; want a *FileError", err)
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("the message does not name the file: %v", err)
	}
	if got := strings.Contains(err.Error(), "another gpuplan"); got != locked {
		t.Errorf("mentions another gpuplan = %v, want %v: %v", got, locked, err)
	}
}

// Issue 12, item 2: an empty or foreign file is refused, not made into a
// new empty store, unless a new store is asked for (and then the old file
// is kept aside); only a held lock says "another gpuplan".
func TestEmbeddedEmptyOrForeignFileRefused(t *testing.T) {
	for name, content := range map[string][]byte{
		"0 bytes":   {},
		"100 bytes": []byte(strings.Repeat("not a store ", 9)[:100]),
		"text file": []byte("reservations:\n  - h-1\n" + strings.Repeat("x", 20000)),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "gpuplan.db")
			if err := os.WriteFile(path, content, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := store.OpenEmbedded(path, nil)
			checkFileError(t, err, path, false)
			if !strings.Contains(err.Error(), "--new-store") {
				t.Errorf("the message does not say how to start a new store: %v", err)
			}
			if got, _ := os.ReadFile(path); string(got) != string(content) {
				t.Fatal("the refused file was changed")
			}
			// Asked for: a new store, the old file kept aside.
			s, err := store.OpenEmbeddedWith(path, store.EmbeddedOptions{New: true})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Reserve(context.Background(), store.ReserveRequest{Server: "h", ServerGPUs: 1, Count: 1, Owner: "U", Duration: time.Hour}); err != nil {
				t.Fatal(err)
			}
			s.Close()
			kept, _ := filepath.Glob(path + ".broken-*")
			if len(kept) != 1 {
				t.Fatalf("kept aside: %v", kept)
			}
			if got, _ := os.ReadFile(kept[0]); string(got) != string(content) {
				t.Error("the kept file differs from the original")
			}
		})
	}
	t.Run("locked", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "gpuplan.db")
		s, err := store.OpenEmbedded(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		_, err = store.OpenEmbeddedWith(path, store.EmbeddedOptions{LockTimeout: 50 * time.Millisecond})
		checkFileError(t, err, path, true)
		var fe *store.FileError
		if !errors.As(err, &fe) || !fe.Locked {
			t.Errorf("not marked locked: %#v", err)
		}
		// New never takes a held file away from its owner.
		if _, err := store.OpenEmbeddedWith(path, store.EmbeddedOptions{New: true, LockTimeout: 50 * time.Millisecond}); err == nil {
			t.Error("New opened a file held by another store")
		}
	})
	t.Run("missing file is created", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "sub-none.db")
		s, err := store.OpenEmbedded(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	})
}

// The rolling backup follows the writes (throttled), and RestoreEmbedded
// brings a damaged store back to it, keeping the damaged file aside.
func TestEmbeddedBackupAndRestore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "gpuplan.db")
	ids := fillStore(t, path, 30) // Close writes the owed backup
	if err := store.CheckEmbedded(store.BackupPath(path)); err != nil {
		t.Fatalf("backup after close: %v", err)
	}

	// Throttled: a write within the interval is copied when it has passed.
	s, err := store.OpenEmbeddedWith(path, store.EmbeddedOptions{BackupEvery: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.BackupNow(); err != nil {
		t.Fatal(err)
	}
	r, err := s.Reserve(ctx, store.ReserveRequest{RequestID: "late", Server: "v", ServerGPUs: 1, Count: 1, Owner: "U2", Duration: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !backupHas(t, path, r.ID) {
		if time.Now().After(deadline) {
			t.Fatal("the write never reached the backup")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := s.BackupErr(); err != nil {
		t.Fatal(err)
	}
	s.Close()

	os.Truncate(path, 16<<10)
	if _, err := store.OpenEmbedded(path, nil); !errors.Is(err, store.ErrStoreFile) {
		t.Fatalf("damaged open: %v", err)
	}
	kept, err := store.RestoreEmbedded(path)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(kept); err != nil || st.Size() != 16<<10 {
		t.Errorf("damaged file not kept aside: %v %v", kept, err)
	}
	s, err = store.OpenEmbedded(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, id := range append(ids, r.ID) {
		if _, err := s.Get(ctx, id); err != nil {
			t.Errorf("after restore, %s: %v", id, err)
		}
	}
}

func backupHas(t *testing.T, path, id string) bool {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), "copy.db")
	data, err := os.ReadFile(store.BackupPath(path))
	if err != nil {
		return false
	}
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := store.OpenEmbeddedWith(tmp, store.EmbeddedOptions{NoBackup: true})
	if err != nil {
		return false
	}
	defer s.Close()
	_, err = s.Get(context.Background(), id)
	return err == nil
}

// A restore refuses a damaged backup and leaves the file alone.
func TestEmbeddedRestoreRefusesDamagedBackup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gpuplan.db")
	fillStore(t, path, 10)
	os.Truncate(store.BackupPath(path), 5000)
	before, _ := os.ReadFile(path)
	if _, err := store.RestoreEmbedded(path); err == nil {
		t.Fatal("restored from a damaged backup")
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("the store file changed")
	}
}
