package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

// A mutation whose reply is lost (the connection dropped after the script
// was sent, or Redis did not answer in time) may or may not have been
// applied. Telling the user "nothing was changed" would be a guess, and a
// retry under a new request id could book twice. So the Redis store
// settles it: once Redis answers again (within one more Timeout), it looks
// up the request id. A stored answer is what happened, and is returned as
// the operation's answer. No answer means the attempt has not applied;
// the lookup fences that attempt (by a random attempt token every call
// sends), so that it cannot apply later should it still be on its way,
// and the error says that nothing was changed, which is then true. When
// Redis does not answer the lookup either, the error is an
// *OutcomeUnknownError: it says that the outcome is not known, and that a
// retry with the same request id is safe.

// ErrOutcomeUnknown is what an *OutcomeUnknownError matches: the store did
// not answer, and whether the change was made is not known.
var ErrOutcomeUnknown = errors.New("the store did not answer, so whether the change was made is not known")

// OutcomeUnknownError is a mutation that was sent but whose outcome could
// not be determined. It matches ErrOutcomeUnknown and ErrUnavailable (the
// store is not answering). Retrying with the same request id is safe: it
// applies at most once.
type OutcomeUnknownError struct {
	Op    string
	Msg   string
	Cause error
}

func (e *OutcomeUnknownError) Error() string { return e.Msg }

func (e *OutcomeUnknownError) Unwrap() []error {
	return []error{ErrOutcomeUnknown, ErrUnavailable, e.Cause}
}

// NotAppliedError is an *UnavailableError whose operation was checked and
// is known not to have been applied.
func notApplied(ue *UnavailableError, op string) error {
	return &UnavailableError{Msg: ue.Msg + fmt.Sprintf("; checked afterwards: the %s was not applied, nothing was changed", op), Cause: ue.Cause}
}

type checkingKey struct{}

// WithChecking returns a context under which a mutation whose reply was
// lost calls notify, with the operation, before it looks its request id
// up (which can take one more Timeout): a caller that can update what its
// user sees says "the store did not answer; checking…" meanwhile, then
// shows the answer. notify is called on the mutation's goroutine and must
// not block.
func WithChecking(ctx context.Context, notify func(op string)) context.Context {
	return context.WithValue(ctx, checkingKey{}, notify)
}

// NotifyChecking tells the caller whose ctx came through WithChecking that
// op's reply was lost and the store is now looking up what happened. A
// Store calls it once per call, before the lookup; without WithChecking it
// does nothing.
func NotifyChecking(ctx context.Context, op string) {
	if notify, ok := ctx.Value(checkingKey{}).(func(op string)); ok {
		notify(op)
	}
}

// newAttempt is a random token naming one call of a mutation.
func newAttempt() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// sentMaybe reports whether err could have come after Redis received the
// script: a lost connection or a timeout. An error reply from Redis (out
// of memory, read-only, loading, a script error) means the script did not
// write, and a closed client never sent it.
func sentMaybe(err error) bool {
	var ue *UnavailableError
	if !errors.As(err, &ue) {
		return false
	}
	var rerr redis.Error
	if errors.As(ue.Cause, &rerr) || errors.Is(ue.Cause, redis.ErrClosed) {
		return false
	}
	return true
}

// settle turns a lost reply into what actually happened (see above).
func (r *Redis) settle(ctx context.Context, op string, k keys, rid, attempt, raw string, err error) (string, error) {
	if err == nil || !sentMaybe(err) {
		return raw, err
	}
	var ue *UnavailableError
	errors.As(err, &ue)
	unknown := func(why string) error {
		msg := fmt.Sprintf("%v (%s), and %s; the %s may or may not have been applied — check before trying again",
			ErrOutcomeUnknown, strings.TrimSuffix(ue.Msg, "; try again"), why, op)
		if rid != "" {
			msg += "; a retry with the same request id applies at most once"
		}
		return &OutcomeUnknownError{Op: op, Msg: scrub(msg, r.secrets), Cause: ue.Cause}
	}
	if rid == "" {
		return "", unknown("without a request id it cannot be looked up")
	}
	if ctx.Err() != nil {
		return "", unknown("the request was cancelled before it could be checked")
	}
	NotifyChecking(ctx, op) // "the store did not answer; checking…"
	octx, cancel := r.opContext(ctx)
	defer cancel()
	v, ferr := fenceScript.Run(octx, r.client, []string{k.req(rid)}, attempt, reqTTLSec).Text()
	if ferr != nil {
		return "", unknown("it did not answer the check of the request id either")
	}
	if v == "" {
		return "", notApplied(ue, op)
	}
	return v, nil
}
