package commands

import (
	"context"
	"errors"
	"fmt"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/store"
)

// UserError is a mistake the user can fix: what was wrong, and how to say
// it instead. It is the request language's error type, so a refusal from
// the grammar and one from a command read the same everywhere.
type UserError = lang.UserError

// Kind says what sort of failure an error is, in the manner of upspin's
// errors.Kind: code that fails says the kind, Explain chooses the words
// by it, and nothing reads an error's text to decide what it was.
type Kind uint8

const (
	// Internal is a failure the user cannot act on (a bug, an unexpected
	// store error): an adapter logs it with a reference and shows only
	// that reference.
	Internal Kind = iota
	// Invalid is a request that cannot be used as typed; a *UserError
	// says why and how to say it instead.
	Invalid
	// NotFound: the reservation named does not exist.
	NotFound
	// Permission: the reservation is someone else's.
	Permission
	// Ended: the reservation is over, so it cannot be changed.
	Ended
	// Unavailable: the store is not answering; nothing was changed.
	Unavailable
	// Unknown: the store did not answer after the change was sent, so
	// whether it was made is not known (store.ErrOutcomeUnknown).
	Unknown
	// Refused: the request was understood but cannot be done as asked
	// (the GPUs are booked right after an extension).
	Refused
)

var kindNames = [...]string{Internal: "internal", Invalid: "invalid", NotFound: "not found",
	Permission: "permission", Ended: "ended", Unavailable: "unavailable", Unknown: "outcome unknown", Refused: "refused"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Error is a command's failure with its kind: Op is what was being done
// ("reserve", "digest"), Err the cause.
type Error struct {
	Kind Kind
	Op   string
	Err  error
}

func (e *Error) Error() string {
	if e.Op == "" {
		return e.Err.Error()
	}
	return e.Op + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// KindOf is err's kind: an *Error's own, Invalid for a *UserError,
// Internal for anything else (and for nil).
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	var ue *UserError
	if errors.As(err, &ue) {
		return Invalid
	}
	return Internal
}

// Explain is the one place a failed command becomes words for its user:
// the *UserError to show, or nil when err is Internal (the adapter logs
// it and shows a reference, never err.Error()). The terminal, the Slack
// adapter and its modals all call it.
func Explain(err error) *UserError { return ExplainIn(nil, err) }

// ExplainIn is Explain in p's language (nil: English). A *UserError keeps
// the words of the code that refused, which wrote them in the request's
// language.
func ExplainIn(p *i18n.Printer, err error) *UserError {
	var ue *UserError
	if errors.As(err, &ue) {
		lang.Localize(p, ue) // the words of the code that refused, in p's language
		return ue
	}
	op := "help"
	var e *Error
	if errors.As(err, &e) && e.Op != "" {
		op = e.Op
	}
	switch KindOf(err) {
	case Invalid:
		var inv *store.InvalidError
		if errors.As(err, &inv) {
			msg := inv.Reason
			if inv.Format != "" && p.Korean() {
				sayf := p.Tf // the store's format is the key (i18n's test reads it at invalidIn / invalidf)
				msg = sayf(inv.Format, inv.Args...)
			}
			return &UserError{Msg: msg, Hint: p.Tf("`help %s` shows the words and examples", op), Field: inv.Field}
		}
		return &UserError{Msg: p.T("that request cannot be used as typed"), Hint: p.Tf("`help %s` shows the words and examples", op)}
	case NotFound:
		return &UserError{Msg: p.T("no such reservation"), Hint: p.T("`mine` lists yours with their ids")}
	case Permission:
		return &UserError{Msg: p.T("that reservation is someone else's: only its owner can change it (admins may add `--force`)")}
	case Ended:
		return &UserError{Msg: p.T("that reservation has already ended"), Hint: p.T("`status` shows what is held now")}
	case Unavailable:
		return &UserError{Msg: p.T("the reservation store is not answering right now, so nothing was changed — try again in a moment"),
			Hint: p.T("if it persists, an admin can run `gpuplan doctor`")}
	case Unknown:
		return &UserError{Msg: p.Tf("the reservation store stopped answering after the %s was sent, so I cannot tell whether it was done", op),
			Hint: p.T("check with `mine` (or `status`) before trying again. Pressing the same button again is safe (it carries the same request, so it applies at most once); a command typed again is a new request and could do it twice")}
	}
	return nil
}

// storeError gives a store failure its kind; op is the command.
func storeError(err error, op string) error {
	var inv *store.InvalidError
	kind := Internal
	switch {
	case errors.As(err, &inv):
		kind = Invalid
	case errors.Is(err, store.ErrNotFound):
		kind = NotFound
	case errors.Is(err, store.ErrNotOwner):
		kind = Permission
	case errors.Is(err, store.ErrEnded):
		kind = Ended
	case errors.Is(err, store.ErrOutcomeUnknown):
		kind = Unknown
	case errors.Is(err, store.ErrUnavailable):
		kind = Unavailable
	}
	return &Error{Kind: kind, Op: op, Err: err}
}

// CheckingText is what a user sees while the store looks up whether a
// change whose reply was lost was made (WithOutcomeCheck); the answer
// replaces it.
const CheckingText = "The reservation store did not answer; checking whether the change was made…"

// CheckingIn is CheckingText in p's language.
func CheckingIn(p *i18n.Printer) string {
	return p.T("The reservation store did not answer; checking whether the change was made…")
}

// WithOutcomeCheck returns ctx under which a change whose reply the store
// lost calls notify before the store looks its request id up, which can
// take one more store timeout (store.WithChecking): an adapter that can
// update what its user sees shows CheckingText meanwhile. notify runs on
// the command's goroutine and must not block.
func WithOutcomeCheck(ctx context.Context, notify func()) context.Context {
	return store.WithChecking(ctx, func(string) { notify() })
}
