package store

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Embedded is the single-node store used when there is no Redis: one bbolt
// file, every mutation one read-write transaction (serialized, fsynced on
// commit), decided by the same functions in rules.go that the Redis
// scripts mirror.
//
// Layout: bucket "servers" holds one bucket per server, which holds
// "resv" (id → record JSON), "req" (request id → stored answer),
// "wait" (waiter id → JSON) and "audit" (sequence → event JSON, capped at
// AuditCap); the server bucket's sequence numbers the ids.
type Embedded struct {
	db    *bolt.DB
	clock func() time.Time
	bak   *backup // nil: no rolling backup

	idSuffix func() string // newIDSuffix; a test may make it predictable
}

var _ Store = (*Embedded)(nil)

var (
	bucketServers = []byte("servers")
	bucketResv    = []byte("resv")
	bucketReq     = []byte("req")
	bucketWait    = []byte("wait")
	bucketAudit   = []byte("audit")
)

// errRollback ends a transaction that decided not to write.
var errRollback = errors.New("rollback")

// OpenEmbedded opens (creating if needed) the store file at path. A nil
// clock means time.Now. Only one process may hold the file; a second one
// gets an error after a second instead of waiting forever. It is
// OpenEmbeddedWith with the default options: an empty or foreign file is
// refused, and a rolling backup is kept at BackupPath(path).
func OpenEmbedded(path string, clock func() time.Time) (*Embedded, error) {
	return OpenEmbeddedWith(path, EmbeddedOptions{Clock: clock})
}

// OpenEmbeddedWith opens the store file at path defensively: it never
// panics on a damaged file, and any problem with the file is a *FileError
// (errors.Is ErrStoreFile) naming the file and the way back.
func OpenEmbeddedWith(path string, opt EmbeddedOptions) (*Embedded, error) {
	clock := opt.Clock
	if clock == nil {
		clock = time.Now
	}
	problem, err := preflight(path)
	if err != nil {
		return nil, describeFile(path, err)
	}
	if problem != "" {
		if !opt.New {
			fe := &FileError{Path: path, Problem: problem}
			if backupUsable(path) {
				fe.Backup = BackupPath(path)
			}
			return nil, fe
		}
		if _, err := setAside(path); err != nil {
			return nil, err
		}
	}
	db, err := openChecked(path, false, cmp.Or(opt.LockTimeout, time.Second))
	if err != nil {
		fe := describeFile(path, err)
		if opt.New && !fe.Locked {
			if _, err := setAside(path); err != nil {
				return nil, err
			}
			db, err = openChecked(path, false, cmp.Or(opt.LockTimeout, time.Second))
			if err != nil {
				return nil, describeFile(path, err)
			}
		} else {
			return nil, fe
		}
	}
	e := &Embedded{db: db, clock: clock, idSuffix: newIDSuffix}
	if err := e.update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bucketServers)
		return err
	}); err != nil {
		db.Close()
		return nil, describeFile(path, err)
	}
	if !opt.NoBackup {
		e.bak = &backup{path: BackupPath(path), every: cmp.Or(opt.BackupEvery, DefaultBackupEvery)}
		if _, err := os.Stat(e.bak.path); err != nil {
			// The first backup is taken at once, so a store always has one.
			e.bak.mu.Lock()
			e.backupLocked()
			e.bak.mu.Unlock()
		}
	}
	return e, nil
}

// Close closes the file.
func (e *Embedded) Close() error {
	e.closeBackup()
	return e.db.Close()
}

func (e *Embedded) nowMS() int64 { return e.clock().UnixMilli() }

// Now is the injected clock, at the store's millisecond precision.
func (e *Embedded) Now(ctx context.Context) (time.Time, error) {
	return fromMS(e.nowMS()), ctx.Err()
}

// srvTx is one transaction's view of one server's buckets.
type srvTx struct {
	tx     *bolt.Tx
	server string
	now    int64
}

func (s *srvTx) bucket(name []byte, create bool) (*bolt.Bucket, error) {
	root := s.tx.Bucket(bucketServers)
	sb := root.Bucket([]byte(s.server))
	if sb == nil {
		if !create {
			return nil, nil
		}
		var err error
		if sb, err = root.CreateBucket([]byte(s.server)); err != nil {
			return nil, err
		}
	}
	if name == nil {
		return sb, nil
	}
	b := sb.Bucket(name)
	if b == nil && create {
		return sb.CreateBucket(name)
	}
	return b, nil
}

func (s *srvTx) nextID(prefix string) (string, error) {
	sb, err := s.bucket(nil, true)
	if err != nil {
		return "", err
	}
	n, err := sb.NextSequence()
	if err != nil {
		return "", err
	}
	return s.server + "-" + prefix + strconv.FormatUint(n, 10), nil
}

func (s *srvTx) records() ([]record, error) {
	b, err := s.bucket(bucketResv, false)
	if err != nil {
		return nil, err
	}
	return decodeAll[record](b)
}

// decodeAll unmarshals every JSON value of b, in key order; a nil bucket
// holds none.
func decodeAll[T any](b *bolt.Bucket) ([]T, error) {
	if b == nil {
		return nil, nil
	}
	var all []T
	err := b.ForEach(func(_, v []byte) error {
		var x T
		if err := json.Unmarshal(v, &x); err != nil {
			return err
		}
		all = append(all, x)
		return nil
	})
	return all, err
}

func (s *srvTx) record(id string) (record, bool, error) {
	var r record
	b, err := s.bucket(bucketResv, false)
	if b == nil || err != nil {
		return r, false, err
	}
	v := b.Get([]byte(id))
	if v == nil {
		return r, false, nil
	}
	return r, true, json.Unmarshal(v, &r)
}

func (s *srvTx) putRecord(r record) error {
	b, err := s.bucket(bucketResv, true)
	if err != nil {
		return err
	}
	v, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return b.Put([]byte(r.ID), v)
}

func (s *srvTx) deleteRecord(id string) error {
	b, err := s.bucket(bucketResv, true)
	if err != nil {
		return err
	}
	return b.Delete([]byte(id))
}

type storedReq struct {
	Expires int64  `json:"expires"`
	Answer  string `json:"answer"`
}

func (s *srvTx) request(rid string) (string, bool, error) {
	b, err := s.bucket(bucketReq, false)
	if b == nil || err != nil {
		return "", false, err
	}
	v := b.Get([]byte(rid))
	if v == nil {
		return "", false, nil
	}
	var sr storedReq
	if err := json.Unmarshal(v, &sr); err != nil {
		return "", false, err
	}
	if sr.Expires <= s.now {
		return "", false, nil
	}
	return sr.Answer, true, nil
}

func (s *srvTx) putRequest(rid, answer string) error {
	b, err := s.bucket(bucketReq, true)
	if err != nil {
		return err
	}
	v, err := json.Marshal(storedReq{Expires: s.now + RequestTTL.Milliseconds(), Answer: answer})
	if err != nil {
		return err
	}
	return b.Put([]byte(rid), v)
}

func (s *srvTx) audit(action, id, actor, detail string) error {
	b, err := s.bucket(bucketAudit, true)
	if err != nil {
		return err
	}
	n, err := b.NextSequence()
	if err != nil {
		return err
	}
	v, err := json.Marshal(AuditEvent{At: fromMS(s.now), Action: action, Server: s.server, ID: id, Actor: actor, Detail: detail})
	if err != nil {
		return err
	}
	if err := b.Put(seqKey(n), v); err != nil {
		return err
	}
	// Keys are consecutive, so the oldest kept is n-AuditCap+1.
	var old [][]byte
	c := b.Cursor()
	for k, _ := c.First(); k != nil && n-binary.BigEndian.Uint64(k) >= AuditCap; k, _ = c.Next() {
		old = append(old, slices.Clone(k))
	}
	return deleteKeys(b, old)
}

// deleteKeys deletes after iterating: a bbolt cursor that deletes while it
// walks can skip entries.
func deleteKeys(b *bolt.Bucket, keys [][]byte) error {
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

func seqKey(n uint64) []byte {
	k := make([]byte, 8)
	binary.BigEndian.PutUint64(k, n)
	return k
}

// cleanup drops reservations that ended CleanupAfter ago and request ids
// past their time, as the reserve script does.
func (s *srvTx) cleanup() error {
	all, err := s.records()
	if err != nil {
		return err
	}
	for _, r := range all {
		if r.End <= s.now-CleanupAfter.Milliseconds() {
			if err := s.deleteRecord(r.ID); err != nil {
				return err
			}
		}
	}
	b, err := s.bucket(bucketReq, false)
	if b == nil || err != nil {
		return err
	}
	var old [][]byte
	err = b.ForEach(func(k, v []byte) error {
		var sr storedReq
		if json.Unmarshal(v, &sr) != nil || sr.Expires <= s.now {
			old = append(old, slices.Clone(k))
		}
		return nil
	})
	if err != nil {
		return err
	}
	return deleteKeys(b, old)
}

// apply runs one mutation in one transaction: a stored answer for the
// request id wins; otherwise decide runs, and a failed decision writes
// nothing (the transaction is rolled back).
func (e *Embedded) apply(ctx context.Context, op, server, rid string, decide func(s *srvTx) (outcome, error)) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	var answer string
	err := e.update(func(tx *bolt.Tx) error {
		s := &srvTx{tx: tx, server: server, now: e.nowMS()}
		if rid != "" {
			prev, ok, err := s.request(rid)
			if err != nil {
				return err
			}
			if ok {
				answer = prev
				return errRollback
			}
		}
		o, err := decide(s)
		if err != nil {
			return err
		}
		o.Op = op
		b, err := json.Marshal(o)
		if err != nil {
			return err
		}
		answer = string(b)
		if o.Err != "" {
			return errRollback
		}
		if rid != "" {
			return s.putRequest(rid, answer)
		}
		return nil
	})
	if err != nil && !errors.Is(err, errRollback) {
		return "", fmt.Errorf("store: %s: %w", op, err)
	}
	return answer, nil
}

// Reserve holds GPUs (see Store).
func (e *Embedded) Reserve(ctx context.Context, req ReserveRequest) (Reservation, error) {
	a, err := validateReserve(req)
	if err != nil {
		return Reservation{}, err
	}
	suffix := e.idSuffix()
	raw, err := e.apply(ctx, "reserve", a.Server, req.RequestID, func(s *srvTx) (outcome, error) {
		all, err := s.records()
		if err != nil {
			return outcome{}, err
		}
		gpus, start, end, fail := decideReserve(a, s.now, all)
		if fail != nil {
			return *fail, nil
		}
		id, err := s.nextID("")
		if err != nil {
			return outcome{}, err
		}
		id += suffix
		r := record{ID: id, Server: a.Server, GPUs: gpus, Owner: a.Owner, Start: start, End: end, Note: a.Note, Created: s.now}
		if err := s.putRecord(r); err != nil {
			return outcome{}, err
		}
		if seqOf(id)%SweepEvery == 0 {
			if err := s.cleanup(); err != nil {
				return outcome{}, err
			}
		}
		if err := s.audit("reserve", id, r.Owner, reserveDetail(r)); err != nil {
			return outcome{}, err
		}
		return okOutcome("reserve", r), nil
	})
	return reservationAnswer("reserve", raw, err)
}

// Release ends or cancels a reservation (see Store).
func (e *Embedded) Release(ctx context.Context, req ReleaseRequest) (Reservation, error) {
	if err := validateRelease(req); err != nil {
		return Reservation{}, err
	}
	server, ok := ServerOf(req.ID)
	if !ok {
		return Reservation{}, ErrNotFound
	}
	raw, err := e.apply(ctx, "release", server, req.RequestID, func(s *srvTx) (outcome, error) {
		r, found, err := s.record(req.ID)
		if err != nil || !found {
			return outcome{Err: errNotFound}, err
		}
		keep, out, detail, fail := decideRelease(r, req.Actor, req.Force, s.now)
		if fail != nil {
			return *fail, nil
		}
		if keep != nil {
			err = s.putRecord(*keep)
		} else {
			err = s.deleteRecord(r.ID)
		}
		if err != nil {
			return outcome{}, err
		}
		if err := s.audit("release", r.ID, req.Actor, detail); err != nil {
			return outcome{}, err
		}
		return okOutcome("release", out), nil
	})
	return reservationAnswer("release", raw, err)
}

// Extend moves a reservation's end later (see Store).
func (e *Embedded) Extend(ctx context.Context, req ExtendRequest) (Reservation, error) {
	if err := validateExtend(req); err != nil {
		return Reservation{}, err
	}
	server, ok := ServerOf(req.ID)
	if !ok {
		return Reservation{}, ErrNotFound
	}
	raw, err := e.apply(ctx, "extend", server, req.RequestID, func(s *srvTx) (outcome, error) {
		r, found, err := s.record(req.ID)
		if err != nil || !found {
			return outcome{Err: errNotFound}, err
		}
		all, err := s.records()
		if err != nil {
			return outcome{}, err
		}
		r, fail := decideExtend(r, req.Actor, req.Force, req.By.Milliseconds(), req.MaxDuration.Milliseconds(), s.now, all)
		if fail != nil {
			return *fail, nil
		}
		if err := s.putRecord(r); err != nil {
			return outcome{}, err
		}
		if err := s.audit("extend", r.ID, req.Actor, extendDetail(r, req.Actor)); err != nil {
			return outcome{}, err
		}
		return okOutcome("extend", r), nil
	})
	return reservationAnswer("extend", raw, err)
}

func extendDetail(r record, actor string) string {
	d := "end moved to " + strconv.FormatInt(r.End, 10)
	if actor != r.Owner {
		d += " (forced)"
	}
	return d
}

// Get returns a reservation, also an ended one until it is cleaned up.
func (e *Embedded) Get(ctx context.Context, id string) (Reservation, error) {
	server, ok := ServerOf(id)
	if !ok {
		return Reservation{}, ErrNotFound
	}
	if err := ctx.Err(); err != nil {
		return Reservation{}, err
	}
	var r record
	var found bool
	err := e.view(func(tx *bolt.Tx) error {
		var err error
		r, found, err = (&srvTx{tx: tx, server: server}).record(id)
		return err
	})
	if err != nil {
		return Reservation{}, fmt.Errorf("store: get: %w", err)
	}
	if !found {
		return Reservation{}, ErrNotFound
	}
	return r.reservation(), nil
}

// List returns the server's reservations that have not ended, earliest
// start first.
func (e *Embedded) List(ctx context.Context, server string) ([]Reservation, error) {
	if !ValidServerName(server) {
		return nil, checkServer(server)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var all []record
	now := e.nowMS()
	err := e.view(func(tx *bolt.Tx) error {
		var err error
		all, err = (&srvTx{tx: tx, server: server}).records()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: list: %w", err)
	}
	return listed(all, now), nil
}

// listed is List's answer from the stored records, shared by both stores.
func listed(all []record, now int64) []Reservation {
	live := liveAt(all, now)
	slices.SortFunc(live, byStart)
	out := make([]Reservation, 0, len(live))
	for _, r := range live {
		out = append(out, r.reservation())
	}
	return out
}

// SetAnnouncement records where a reservation was announced.
func (e *Embedded) SetAnnouncement(ctx context.Context, id, channel, ts string) error {
	server, ok := ServerOf(id)
	if !ok {
		return ErrNotFound
	}
	raw, err := e.apply(ctx, "announce", server, "", func(s *srvTx) (outcome, error) {
		r, found, err := s.record(id)
		if err != nil || !found {
			return outcome{Err: errNotFound}, err
		}
		r.Channel, r.MessageTS = channel, ts
		if err := s.putRecord(r); err != nil {
			return outcome{}, err
		}
		if err := s.audit("announce", id, "", "channel "+channel+" ts "+ts); err != nil {
			return outcome{}, err
		}
		return okOutcome("announce", true), nil
	})
	_, err = decodeAnswer[bool]("announce", raw, err)
	return err
}

// MarkReminded records that the expiry reminder went out; false if it
// already had.
func (e *Embedded) MarkReminded(ctx context.Context, id string) (bool, error) {
	server, ok := ServerOf(id)
	if !ok {
		return false, ErrNotFound
	}
	raw, err := e.apply(ctx, "remind", server, "", func(s *srvTx) (outcome, error) {
		r, found, err := s.record(id)
		if err != nil || !found {
			return outcome{Err: errNotFound}, err
		}
		if r.Reminded {
			return okOutcome("remind", false), nil
		}
		r.Reminded = true
		if err := s.putRecord(r); err != nil {
			return outcome{}, err
		}
		if err := s.audit("remind", id, "", ""); err != nil {
			return outcome{}, err
		}
		return okOutcome("remind", true), nil
	})
	return decodeAnswer[bool]("remind", raw, err)
}

// Wait joins a server's waiting list.
func (e *Embedded) Wait(ctx context.Context, req WaitRequest) (Waiter, error) {
	if err := validateWait(req); err != nil {
		return Waiter{}, err
	}
	raw, err := e.apply(ctx, "wait", req.Server, req.RequestID, func(s *srvTx) (outcome, error) {
		b, err := s.bucket(bucketWait, true)
		if err != nil {
			return outcome{}, err
		}
		var old [][]byte
		err = b.ForEach(func(k, v []byte) error {
			var w waiterRecord
			if json.Unmarshal(v, &w) != nil || w.Expires <= s.now {
				old = append(old, slices.Clone(k))
			}
			return nil
		})
		if err != nil {
			return outcome{}, err
		}
		if err := deleteKeys(b, old); err != nil {
			return outcome{}, err
		}
		id, err := s.nextID("w")
		if err != nil {
			return outcome{}, err
		}
		w := waiterRecord{ID: id, Server: req.Server, Count: req.Count, Owner: req.Owner,
			Since: s.now, Expires: s.now + req.For.Milliseconds()}
		v, err := json.Marshal(w)
		if err != nil {
			return outcome{}, err
		}
		if err := b.Put([]byte(id), v); err != nil {
			return outcome{}, err
		}
		if err := s.audit("wait", id, w.Owner, waitDetail(w)); err != nil {
			return outcome{}, err
		}
		return okOutcome("wait", w), nil
	})
	w, err := decodeAnswer[waiterRecord]("wait", raw, err)
	if err != nil {
		return Waiter{}, err
	}
	return w.waiter(), nil
}

func waitDetail(w waiterRecord) string {
	return fmt.Sprintf("count %d until %d", w.Count, w.Expires)
}

// Waiters lists the server's waiters that have not expired, oldest first.
func (e *Embedded) Waiters(ctx context.Context, server string) ([]Waiter, error) {
	if !ValidServerName(server) {
		return nil, checkServer(server)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var all []waiterRecord
	now := e.nowMS()
	err := e.view(func(tx *bolt.Tx) error {
		b, err := (&srvTx{tx: tx, server: server}).bucket(bucketWait, false)
		if err != nil {
			return err
		}
		all, err = decodeAll[waiterRecord](b)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: waiters: %w", err)
	}
	return waiting(all, now), nil
}

// waiting is Waiters' answer from the stored waiters, shared by both stores.
func waiting(all []waiterRecord, now int64) []Waiter {
	all = slices.DeleteFunc(all, func(w waiterRecord) bool { return w.Expires <= now })
	slices.SortFunc(all, func(a, b waiterRecord) int {
		return cmp.Or(cmpInt64(a.Since, b.Since), cmpInt64(seqOf(a.ID), seqOf(b.ID)))
	})
	out := make([]Waiter, 0, len(all))
	for _, w := range all {
		out = append(out, w.waiter())
	}
	return out
}

// RemoveWaiter takes a waiter off the list. Removing one that is not
// there (already removed, expired) is not an error, so a retry is safe.
func (e *Embedded) RemoveWaiter(ctx context.Context, server, id string) (bool, error) {
	if err := checkServer(server); err != nil {
		return false, err
	}
	raw, err := e.apply(ctx, "unwait", server, "", func(s *srvTx) (outcome, error) {
		b, err := s.bucket(bucketWait, false)
		if b == nil || err != nil {
			return okOutcome("unwait", false), err
		}
		v := b.Get([]byte(id))
		if v == nil {
			return okOutcome("unwait", false), nil
		}
		var w waiterRecord
		if err := json.Unmarshal(v, &w); err != nil {
			return outcome{}, err
		}
		if err := b.Delete([]byte(id)); err != nil {
			return outcome{}, err
		}
		if err := s.audit("unwait", id, w.Owner, ""); err != nil {
			return outcome{}, err
		}
		return okOutcome("unwait", true), nil
	})
	return decodeAnswer[bool]("unwait", raw, err)
}

// Audit returns the server's last n changes, newest last.
func (e *Embedded) Audit(ctx context.Context, server string, n int) ([]AuditEvent, error) {
	if !ValidServerName(server) {
		return nil, checkServer(server)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []AuditEvent
	err := e.view(func(tx *bolt.Tx) error {
		b, err := (&srvTx{tx: tx, server: server}).bucket(bucketAudit, false)
		if b == nil || err != nil {
			return err
		}
		c := b.Cursor()
		for k, v := c.Last(); k != nil && len(out) < n; k, v = c.Prev() {
			var ev AuditEvent
			if err := json.Unmarshal(v, &ev); err != nil {
				return err
			}
			out = append(out, ev)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: audit: %w", err)
	}
	slices.Reverse(out)
	return out, nil
}
