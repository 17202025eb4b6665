package store

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// State of a reservation at a moment; derived, never stored.
type State string

// States.
const (
	Pending  State = "pending"  // starts later
	Active   State = "active"   // holds its GPUs now
	Expired  State = "expired"  // ended by time
	Released State = "released" // ended early by its owner or an admin
)

// Reservation is a hold on some GPUs of one server for a time window.
type Reservation struct {
	ID         string    `json:"id"` // "<server>-<n>", unique per server
	Server     string    `json:"server"`
	GPUs       []int     `json:"gpus"`
	Owner      string    `json:"owner"` // Slack user id (or the --as name in the terminal)
	Start      time.Time `json:"start"`
	End        time.Time `json:"end"` // exclusive; a release moves it to the release time
	Note       string    `json:"note,omitempty"`
	CreatedAt  time.Time `json:"created_at"`
	ReleasedBy string    `json:"released_by,omitempty"` // set when released early
	// Channel and MessageTS locate the announcement, so it can be updated.
	Channel   string `json:"channel,omitempty"`
	MessageTS string `json:"message_ts,omitempty"`
	// Reminded is set once the expiry reminder was sent.
	Reminded bool `json:"reminded,omitempty"`
}

// State is the reservation's state at now.
func (r Reservation) State(now time.Time) State {
	switch {
	case r.ReleasedBy != "":
		// Released early (its end moved to the release time) or cancelled
		// before it started (its window kept as it was booked).
		return Released
	case now.Before(r.Start):
		return Pending
	case now.Before(r.End):
		return Active
	default:
		return Expired
	}
}

// Overlaps reports whether r and o share a GPU during a shared moment.
func (r Reservation) Overlaps(o Reservation) bool {
	if r.Server != o.Server || !r.Start.Before(o.End) || !o.Start.Before(r.End) {
		return false
	}
	for _, g := range r.GPUs {
		if slices.Contains(o.GPUs, g) {
			return true
		}
	}
	return false
}

// GPUList writes the GPU ids as "0,1,2" (the form CUDA_VISIBLE_DEVICES takes).
func (r Reservation) GPUList() string {
	s := make([]string, len(r.GPUs))
	for i, g := range r.GPUs {
		s[i] = fmt.Sprint(g)
	}
	return strings.Join(s, ",")
}

// Sentinel errors; match with errors.Is. Details travel in the typed
// errors below.
var (
	ErrConflict    = errors.New("the GPUs are held for that time")
	ErrNotFound    = errors.New("no such reservation")
	ErrNotOwner    = errors.New("only the owner (or an admin, with --force) may do that")
	ErrEnded       = errors.New("the reservation has already ended")
	ErrInvalid     = errors.New("invalid request")
	ErrUnavailable = errors.New("the reservation store is unavailable")
)

// ConflictError says who holds the GPUs and when enough are free.
type ConflictError struct {
	Holders []Reservation // overlapping reservations, earliest first
	// Earliest is the first start at or after the requested one at which
	// the request fits for its whole duration; zero if it does not fit
	// within the booking horizon (Horizon). Asking for more GPUs than the
	// server has is an InvalidError, not a conflict.
	Earliest     time.Time
	EarliestGPUs []int
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%v: %d overlapping reservation(s)", ErrConflict, len(e.Holders))
}

func (e *ConflictError) Unwrap() error { return ErrConflict }

// InvalidError says what is wrong with a request.
type InvalidError struct {
	Reason string
	// Field is the argument the rule refused: "server", "count", "start",
	// "duration" or "note"; "" for the request as a whole.
	Field string
	// Format and Args are Reason before formatting, so a reply in another
	// language can say it (its words are message keys; i18n's test reads
	// every invalidf / invalidIn format and requires its Korean). Empty
	// for a reason that came back from Redis as text.
	Format string
	Args   []any
}

func (e *InvalidError) Error() string { return e.Reason }

func (e *InvalidError) Unwrap() error { return ErrInvalid }

func invalidf(format string, args ...any) error {
	return &InvalidError{Reason: fmt.Sprintf(format, args...), Format: format, Args: args}
}

// invalidIn is invalidf for a refusal of one argument.
func invalidIn(field, format string, args ...any) error {
	return &InvalidError{Reason: fmt.Sprintf(format, args...), Field: field, Format: format, Args: args}
}
