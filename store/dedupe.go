package store

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/redis/go-redis/v9"
	bolt "go.etcd.io/bbolt"
)

// FirstSeen is the replicas' shared envelope de-duplication (see Watch).
//
// Slack delivers at least once: an Events API envelope is retried when its
// ack is late, and during a connection refresh the same event can reach two
// connections, possibly on two replicas. Each replica asks the store before
// it acts; exactly one caller sees a key as new.

// Both backends are complete: reservations and the watch half.
var (
	_ Backend = (*Redis)(nil)
	_ Backend = (*Embedded)(nil)
)

// MaxSeenKey is the longest key FirstSeen takes, in bytes.
const MaxSeenKey = 200

func checkSeen(key string, ttl time.Duration) error {
	switch {
	case key == "":
		return invalidf("dedupe key is empty")
	case len(key) > MaxSeenKey:
		return invalidf("dedupe key is %d bytes; the limit is %d", len(key), MaxSeenKey)
	case !utf8.ValidString(key):
		return invalidf("dedupe key is not valid UTF-8")
	case ttl < time.Millisecond:
		return invalidf("dedupe ttl %v is under a millisecond", ttl)
	}
	return nil
}

// seenKey is the Redis key of a FirstSeen key. It has no hash tag: each
// key is the only key of its command, so in Cluster it may live anywhere.
func seenKey(key string) string { return "gpuplan:seen:" + key }

// FirstSeen records key for ttl and reports whether it was new:
// SET gpuplan:seen:<key> <token> NX PX ttl.
//
// go-redis re-sends a command whose reply was lost, and the re-sent SET NX
// would find the key the first attempt wrote and call it a duplicate, so
// that nobody handles the envelope. Each call therefore writes its own
// random token and, when the SET is refused, reads the key back: finding
// its own token means the first attempt won.
func (r *Redis) FirstSeen(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	if err := checkSeen(key, ttl); err != nil {
		return false, err
	}
	var b [12]byte
	_, _ = rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	k := seenKey(key)
	octx, cancel := r.opContext(ctx)
	defer cancel()
	ok, err := r.client.SetNX(octx, k, token, ttl).Result()
	if err != nil {
		return false, r.wrap(ctx, "dedupe", err)
	}
	if ok {
		return true, nil
	}
	got, err := r.client.Get(octx, k).Result()
	switch {
	case errors.Is(err, redis.Nil):
		// It expired between the two commands: the holder's ttl ran out,
		// so this is a delivery after the window. Treat it as seen; the
		// window exists to drop retries, and this is one.
		return false, nil
	case err != nil:
		return false, r.wrap(ctx, "dedupe", err)
	}
	return got == token, nil
}

// bucketSeen holds FirstSeen keys in the embedded store: key → expiry
// (Unix ms, 8 bytes big-endian), by the store's clock.
var bucketSeen = []byte("seen")

// seenPruneEvery is how many new keys pass between two sweeps of the
// expired ones (the bucket's sequence counts them).
const seenPruneEvery = 64

// FirstSeen records key for ttl and reports whether it was new. One
// read-write transaction decides, so concurrent callers get one true.
// Every seenPruneEvery-th new key sweeps out the expired ones.
func (e *Embedded) FirstSeen(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	if err := checkSeen(key, ttl); err != nil {
		return false, err
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	first := false
	err := e.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketSeen)
		if err != nil {
			return err
		}
		now := e.nowMS()
		if v := b.Get([]byte(key)); len(v) == 8 && int64(binary.BigEndian.Uint64(v)) > now {
			return errRollback
		}
		var exp [8]byte
		binary.BigEndian.PutUint64(exp[:], uint64(now+ttl.Milliseconds()))
		if err := b.Put([]byte(key), exp[:]); err != nil {
			return err
		}
		first = true
		n, err := b.NextSequence()
		if err != nil {
			return err
		}
		if n%seenPruneEvery == 0 {
			return pruneSeen(b, now)
		}
		return nil
	})
	if err != nil && !errors.Is(err, errRollback) {
		return false, fmt.Errorf("store: dedupe: %w", err)
	}
	return first, nil
}

// pruneSeen deletes the keys whose expiry has passed.
func pruneSeen(b *bolt.Bucket, now int64) error {
	var old [][]byte
	err := b.ForEach(func(k, v []byte) error {
		if len(v) != 8 || int64(binary.BigEndian.Uint64(v)) <= now {
			old = append(old, append([]byte(nil), k...))
		}
		return nil
	})
	if err != nil {
		return err
	}
	return deleteKeys(b, old)
}
