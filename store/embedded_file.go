package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// How the embedded store guards its file. bbolt trusts its file: a
// truncated file or a damaged page makes it panic (or fault on the memory
// map) on open or on the first read that reaches the page. So the store
// opens the file with those panics recovered and faults turned into
// panics, walks every bucket and runs bbolt's own consistency check before
// it answers anything, and turns any failure into a *FileError that names
// the file and the way back. A file that is empty or is not a bbolt file is
// refused instead of being initialised over, unless the caller asks for a
// new store. After successful writes it keeps a rolling copy of the file
// (BackupPath), which RestoreEmbedded puts back.

// ErrStoreFile is what every *FileError matches: the embedded store's file
// cannot be used as it is.
var ErrStoreFile = errors.New("the store file cannot be used")

// FileError says what is wrong with the embedded store's file and what to
// do about it.
type FileError struct {
	Path    string
	Problem string // "is empty (0 bytes)", "is damaged (…)", …
	// Locked is true only when another process holds the file.
	Locked bool
	// Backup is the rolling backup's path when one exists and passed the
	// consistency check; "" otherwise.
	Backup string
	Err    error
}

func (e *FileError) Error() string {
	msg := fmt.Sprintf("store file %s %s", e.Path, e.Problem)
	switch {
	case e.Locked:
		msg += "; stop the other gpuplan, or point GPUPLAN_DB at another file"
	case e.Backup != "":
		msg += fmt.Sprintf("; nothing was changed. To go back to the last backup (%s), run `gpuplan doctor --repair`; to start an empty store instead, run `gpuplan doctor --new-store` (the file is kept aside)", e.Backup)
	default:
		msg += "; nothing was changed and there is no usable backup. Restore the file from your own backup, or run `gpuplan doctor --new-store` to start an empty store (the file is kept aside)"
	}
	return msg
}

func (e *FileError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrStoreFile}
	}
	return []error{ErrStoreFile, e.Err}
}

// EmbeddedOptions tune OpenEmbeddedWith.
type EmbeddedOptions struct {
	// Clock replaces time.Now (tests).
	Clock func() time.Time
	// New allows starting a new, empty store where the file exists but is
	// empty or not a gpuplan store: such a file is renamed to
	// "<path>.broken-<unix time>" first, never overwritten. A missing file
	// is always created.
	New bool
	// BackupEvery is the least time between two rolling backups; 0 means
	// DefaultBackupEvery. A write that comes sooner marks the store dirty,
	// and the backup follows when the interval has passed (and on Close).
	BackupEvery time.Duration
	// NoBackup turns the rolling backup off.
	NoBackup bool
	// LockTimeout is how long to wait for another process's lock (default 1 s).
	LockTimeout time.Duration
}

// DefaultBackupEvery is EmbeddedOptions.BackupEvery when left zero.
const DefaultBackupEvery = time.Minute

// BackupPath is where the rolling backup of the store file at path lives.
func BackupPath(path string) string { return path + ".bak" }

// bbolt's meta page: a 16-byte page header, then the magic and the version.
const (
	boltMagic   = 0xED0CDAED
	boltVersion = 2
)

// looksLikeBolt reports whether head (the file's first bytes) carries a
// bbolt meta page at page 0 or at page 1 for one of the usual page sizes.
func looksLikeBolt(f *os.File) bool {
	for _, off := range []int64{0, 4096, 8192, 16384, 32768, 65536} {
		var b [24]byte
		if n, _ := f.ReadAt(b[:], off); n < len(b) {
			continue
		}
		for _, bo := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			if bo.Uint32(b[16:20]) == boltMagic && bo.Uint32(b[20:24]) == boltVersion {
				return true
			}
		}
	}
	return false
}

// preflight looks at the file before bbolt does: missing (fine, created),
// empty, or not a bbolt file.
func preflight(path string) (problem string, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	switch {
	case st.IsDir():
		return "is a directory, not a gpuplan store", nil
	case st.Size() == 0:
		return "is empty (0 bytes), so it holds no reservations; gpuplan does not start a new store over it on its own", nil
	case !looksLikeBolt(f):
		return fmt.Sprintf("is not a gpuplan store (%d bytes, no store header)", st.Size()), nil
	}
	return "", nil
}

// guard runs fn with panics recovered and memory faults (a truncated,
// memory-mapped file) turned into panics, and returns them as an error.
func guard(fn func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	defer func() {
		if r := recover(); r != nil {
			err = &readPanic{value: r}
		}
	}()
	return fn()
}

// readPanic is a panic or memory fault inside bbolt while it read the
// file: the file is damaged where bbolt looked. Its text is bbolt's or the
// runtime's ("invalid freelist page", "invalid memory address or nil
// pointer dereference"): for logs and wrapped errors, not for the message
// a user reads (describeFile).
type readPanic struct{ value any }

func (p *readPanic) Error() string { return fmt.Sprintf("reading the file panicked: %v", p.value) }

// openChecked opens path with bbolt and proves the whole file readable:
// every bucket and key is walked and bbolt's consistency check runs.
//
// A panic inside bbolt leaves its memory map of the file behind, and the
// map keeps the file's lock (flock belongs to the open file, which the map
// holds on to) for the life of the process: a later restore or reopen in
// the same process would find the file locked. So the check runs first on
// a private copy, whose leftovers harm nobody, and the file itself is
// opened only once its copy passed.
func openChecked(path string, readOnly bool, lockTimeout time.Duration) (*bolt.DB, error) {
	if _, err := os.Stat(path); err == nil {
		if err := checkCopy(path); err != nil {
			return nil, err
		}
	}
	db, err := openRaw(path, readOnly, lockTimeout)
	if err != nil {
		return nil, err
	}
	if err := checkDB(db); err != nil {
		_ = guard(db.Close)
		return nil, err
	}
	return db, nil
}

// checkCopy opens a copy of path the way the store opens it and checks it.
func checkCopy(path string) error {
	in, err := os.Open(path)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp, err := os.CreateTemp("", "gpuplan-check-*.db")
	if err != nil {
		return fmt.Errorf("a copy to check: %w", err)
	}
	name := tmp.Name()
	defer os.Remove(name)
	_, err = io.Copy(tmp, in)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("a copy to check: %w", err)
	}
	db, err := openRaw(name, false, time.Second)
	if err != nil {
		return err
	}
	err = checkDB(db)
	_ = guard(db.Close)
	return err
}

func openRaw(path string, readOnly bool, lockTimeout time.Duration) (*bolt.DB, error) {
	var db *bolt.DB
	err := guard(func() error {
		var err error
		db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: lockTimeout, ReadOnly: readOnly})
		return err
	})
	return db, err
}

// checkDB reads every page a reader can reach and runs bbolt's check.
func checkDB(db *bolt.DB) error {
	return guard(func() error {
		return db.View(func(tx *bolt.Tx) error {
			if err := walk(tx); err != nil {
				return err
			}
			var errs []error
			for err := range tx.Check() {
				errs = append(errs, err)
				if len(errs) == 5 {
					break
				}
			}
			return errors.Join(errs...)
		})
	})
}

func walk(tx *bolt.Tx) error {
	var visit func(b *bolt.Bucket, depth int) error
	visit = func(b *bolt.Bucket, depth int) error {
		if depth > 16 {
			return errors.New("buckets nested too deep")
		}
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				if c := b.Bucket(k); c != nil {
					return visit(c, depth+1)
				}
			}
			return nil
		})
	}
	return tx.ForEach(func(_ []byte, b *bolt.Bucket) error { return visit(b, 1) })
}

// describeFile turns an open failure into a FileError.
func describeFile(path string, err error) *FileError {
	fe := &FileError{Path: path, Err: err}
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		fe.Problem, fe.Locked = "is locked by another process (is another gpuplan using it?)", true
		return fe
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum):
		fe.Problem = fmt.Sprintf("is damaged: both of its header pages are unreadable (%v)", err)
	case errors.Is(err, berrors.ErrVersionMismatch):
		fe.Problem = fmt.Sprintf("was written by an incompatible store version (%v)", err)
	case errors.Is(err, os.ErrPermission):
		fe.Problem = fmt.Sprintf("cannot be opened: %v", err)
		return fe
	case errors.As(err, new(*readPanic)):
		fe.Problem = "is damaged: a page that bbolt reads (a header, the freelist or a bucket) is not what it should be, or the file ends too soon"
	default:
		fe.Problem = fmt.Sprintf("is damaged (its consistency check says: %v)", err)
	}
	if backupUsable(path) {
		fe.Backup = BackupPath(path)
	}
	return fe
}

// backupUsable reports whether the rolling backup of path exists and
// passes the consistency check.
func backupUsable(path string) bool {
	b := BackupPath(path)
	if p, err := preflight(b); err != nil || p != "" {
		return false
	}
	if _, err := os.Stat(b); err != nil {
		return false
	}
	db, err := openChecked(b, true, time.Second)
	if err != nil {
		return false
	}
	db.Close()
	return true
}

// CheckEmbedded checks the store file at path without changing it (the
// file must not be open in this process): nil when it is a sound gpuplan
// store, else a *FileError. A missing file is a *FileError too.
func CheckEmbedded(path string) error {
	if _, err := os.Stat(path); err != nil {
		return &FileError{Path: path, Problem: "does not exist", Err: err}
	}
	if p, err := preflight(path); err != nil {
		return describeFile(path, err)
	} else if p != "" {
		fe := &FileError{Path: path, Problem: p}
		if backupUsable(path) {
			fe.Backup = BackupPath(path)
		}
		return fe
	}
	db, err := openChecked(path, true, time.Second)
	if err != nil {
		return describeFile(path, err)
	}
	return db.Close()
}

// RestoreEmbedded puts the rolling backup back in place of the store file
// at path (which must not be open): the backup is checked first, and the
// current file, if any, is renamed to "<path>.broken-<unix time>", never
// deleted. It returns the name the old file was kept under ("" if there
// was none).
func RestoreEmbedded(path string) (kept string, err error) {
	b := BackupPath(path)
	if _, err := os.Stat(b); err != nil {
		return "", fmt.Errorf("store: no backup to restore: %w", err)
	}
	if p, err := preflight(b); err != nil || p != "" {
		return "", fmt.Errorf("store: the backup %s cannot be used: %s%v", b, p, errOrNil(err))
	}
	db, err := openChecked(b, true, time.Second)
	if err != nil {
		return "", fmt.Errorf("store: the backup %s is damaged too (%v); restore the file from your own backup", b, err)
	}
	db.Close()
	if kept, err = setAside(path); err != nil {
		return "", err
	}
	tmp := path + ".restore"
	if err := copyFile(b, tmp); err != nil {
		return kept, fmt.Errorf("store: restore: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return kept, fmt.Errorf("store: restore: %w", err)
	}
	return kept, syncDir(path)
}

// NewEmbeddedFile sets the file at path aside (renamed, never deleted) so
// that the next open starts a new, empty store. It returns the name the old
// file was kept under ("" if there was none): "<path>.broken-<unix time>"
// for a file that does not pass the check, "<path>.old-<unix time>" for
// one that does (a caller asks EmbeddedHolds first, and the user, before
// setting a good store aside).
func NewEmbeddedFile(path string) (string, error) {
	if _, err := os.Stat(path); err == nil && CheckEmbedded(path) == nil {
		return setAsideAs(path, ".old-")
	}
	return setAside(path)
}

// Holdings is what a store file holds that a new store would leave behind.
type Holdings struct {
	Live          int // reservations that have not ended (held now or booked ahead)
	Servers       int // servers those are on
	Subscriptions int // digest subscriptions
}

// EmbeddedHolds reads what the store file at path holds at now, read-only
// (so not while a serve holds it). The file must pass the check.
func EmbeddedHolds(path string, now time.Time) (Holdings, error) {
	var h Holdings
	if err := CheckEmbedded(path); err != nil {
		return h, err
	}
	db, err := openChecked(path, true, time.Second)
	if err != nil {
		return h, describeFile(path, err)
	}
	defer db.Close()
	err = guard(func() error {
		return db.View(func(tx *bolt.Tx) error {
			if root := tx.Bucket(bucketServers); root != nil {
				err := root.ForEachBucket(func(name []byte) error {
					b := root.Bucket(name).Bucket(bucketResv)
					if b == nil {
						return nil
					}
					recs, err := decodeAll[record](b)
					if err != nil {
						return err
					}
					n := 0
					for _, r := range recs {
						if r.End > now.UnixMilli() {
							n++
						}
					}
					h.Live += n
					if n > 0 {
						h.Servers++
					}
					return nil
				})
				if err != nil {
					return err
				}
			}
			if b := tx.Bucket(bucketSubs); b != nil {
				h.Subscriptions = b.Stats().KeyN
			}
			return nil
		})
	})
	if err != nil {
		return h, describeFile(path, err)
	}
	return h, nil
}

func errOrNil(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func setAside(path string) (string, error) { return setAsideAs(path, ".broken-") }

// setAsideAs renames the file at path to path+label+<unix time>.
func setAsideAs(path, label string) (string, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	kept := path + label + strconv.FormatInt(time.Now().Unix(), 10)
	for i := 1; ; i++ {
		if _, err := os.Stat(kept); errors.Is(err, os.ErrNotExist) {
			break
		}
		kept = path + label + strconv.FormatInt(time.Now().Unix(), 10) + "-" + strconv.Itoa(i)
	}
	if err := os.Rename(path, kept); err != nil {
		return "", fmt.Errorf("store: set %s aside: %w", path, err)
	}
	return kept, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func syncDir(path string) error {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return nil
	}
	defer d.Close()
	_ = d.Sync()
	return nil
}

// backup keeps the rolling copy of the store file.
type backup struct {
	mu      sync.Mutex
	path    string
	every   time.Duration
	last    time.Time
	dirty   bool
	timer   *time.Timer
	closed  bool
	lastErr error
}

// wrote is called after a successful write transaction: it copies the
// file now if the interval has passed, else makes sure a copy follows.
func (e *Embedded) wrote() {
	b := e.bak
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.dirty = true
	if wait := b.every - time.Since(b.last); wait > 0 {
		if b.timer == nil {
			b.timer = time.AfterFunc(wait, e.backupLater)
		}
		return
	}
	e.backupLocked()
}

func (e *Embedded) backupLater() {
	b := e.bak
	b.mu.Lock()
	defer b.mu.Unlock()
	b.timer = nil
	if !b.closed && b.dirty {
		e.backupLocked()
	}
}

// backupLocked writes a consistent copy (one read transaction, checked
// first) to a temporary file and renames it over the backup, so the backup
// is always a whole, checked store. b.mu is held.
func (e *Embedded) backupLocked() {
	b := e.bak
	b.last, b.dirty = time.Now(), false
	tmp := b.path + ".tmp"
	err := guard(func() error {
		return e.db.View(func(tx *bolt.Tx) error {
			var errs []error
			for err := range tx.Check() {
				errs = append(errs, err)
			}
			if len(errs) > 0 {
				return fmt.Errorf("the store failed its check, the last backup is kept: %w", errors.Join(errs...))
			}
			var buf bytes.Buffer
			if _, err := tx.WriteTo(&buf); err != nil {
				return err
			}
			return writeFileSync(tmp, buf.Bytes())
		})
	})
	if err == nil {
		err = os.Rename(tmp, b.path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	b.lastErr = err
}

func writeFileSync(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// BackupNow writes the rolling backup at once (doctor; tests). It returns
// the backup's path.
func (e *Embedded) BackupNow() (string, error) {
	if e.bak == nil {
		return "", errors.New("store: backups are off")
	}
	e.bak.mu.Lock()
	defer e.bak.mu.Unlock()
	e.backupLocked()
	return e.bak.path, e.bak.lastErr
}

// BackupErr is the last backup's error (nil after a good one).
func (e *Embedded) BackupErr() error {
	if e.bak == nil {
		return nil
	}
	e.bak.mu.Lock()
	defer e.bak.mu.Unlock()
	return e.bak.lastErr
}

// closeBackup stops the timer and writes a last backup if one is owed.
func (e *Embedded) closeBackup() {
	b := e.bak
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	if b.dirty {
		e.backupLocked()
	}
	b.closed = true
}

// update and view run a bbolt transaction with panics recovered: a page
// damaged after the open check is an error, not a crash. A successful
// update schedules the rolling backup.
func (e *Embedded) update(fn func(*bolt.Tx) error) error {
	err := guard(func() error { return e.db.Update(fn) })
	if err == nil {
		e.wrote()
	}
	return err
}

func (e *Embedded) view(fn func(*bolt.Tx) error) error {
	return guard(func() error { return e.db.View(fn) })
}
