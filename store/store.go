package store

import (
	"context"
	"time"
)

// ReserveRequest asks for GPUs on one server.
type ReserveRequest struct {
	RequestID  string // idempotency key: the same id applies once and returns the same result
	Server     string
	ServerGPUs int   // how many GPUs the server has (ids 0..ServerGPUs-1), from the inventory
	Count      int   // this many GPUs, any free ids (lowest first)…
	GPUs       []int // …or exactly these ids
	Owner      string
	Start      time.Time     // zero: now (the store's clock)
	Duration   time.Duration // the window is [Start, Start+Duration)
	// MaxDuration caps Duration for this server; 0 means no cap.
	MaxDuration time.Duration
	Note        string
}

// ReleaseRequest ends a reservation now (or cancels a pending one).
type ReleaseRequest struct {
	RequestID string
	ID        string
	Actor     string // who asks; must be the owner unless Force
	Force     bool   // the caller checked that Actor is an admin
}

// ExtendRequest moves a reservation's end: later by a positive By, earlier
// (shortened, never to or before its start or now) by a negative one.
type ExtendRequest struct {
	RequestID   string
	ID          string
	Actor       string
	Force       bool
	By          time.Duration
	MaxDuration time.Duration // cap on the whole reservation; 0 = none
}

// Waiter is someone waiting for GPUs on a server.
type Waiter struct {
	ID      string    `json:"id"`
	Server  string    `json:"server"`
	Count   int       `json:"count"`
	Owner   string    `json:"owner"`
	Since   time.Time `json:"since"`
	Expires time.Time `json:"expires"`
}

// WaitRequest joins a server's waiting list.
type WaitRequest struct {
	RequestID string
	Server    string
	Count     int
	Owner     string
	For       time.Duration // how long the wait lasts
}

// AuditEvent is one change, as appended to the audit stream.
type AuditEvent struct {
	At     time.Time `json:"at"`
	Action string    `json:"action"` // reserve, release, extend, wait, unwait, announce, remind
	Server string    `json:"server"`
	ID     string    `json:"id"`
	Actor  string    `json:"actor"`
	Detail string    `json:"detail,omitempty"`
}

// Store is the contract both backends (Redis and the embedded file)
// implement; storetest runs one suite against each.
type Store interface {
	// Reserve holds GPUs. A conflict returns *ConflictError (errors.Is
	// ErrConflict); a bad request *InvalidError.
	Reserve(ctx context.Context, req ReserveRequest) (Reservation, error)
	Release(ctx context.Context, req ReleaseRequest) (Reservation, error)
	// Extend moves a reservation's end, later or (By < 0) earlier.
	Extend(ctx context.Context, req ExtendRequest) (Reservation, error)
	Get(ctx context.Context, id string) (Reservation, error)
	// List returns the server's reservations that have not ended at the
	// store's now, earliest start first.
	List(ctx context.Context, server string) ([]Reservation, error)
	// SetAnnouncement records where a reservation was announced.
	SetAnnouncement(ctx context.Context, id, channel, ts string) error
	// MarkReminded records that the expiry reminder went out; it reports
	// false if it had already been marked (so one replica sends it).
	MarkReminded(ctx context.Context, id string) (bool, error)
	Wait(ctx context.Context, req WaitRequest) (Waiter, error)
	Waiters(ctx context.Context, server string) ([]Waiter, error) // not expired, oldest first
	// RemoveWaiter takes a waiter off the list; it reports whether this
	// call removed it, so of several replicas exactly one tells the waiter.
	RemoveWaiter(ctx context.Context, server, id string) (bool, error)
	// Audit returns the server's last n changes, newest last.
	Audit(ctx context.Context, server string, n int) ([]AuditEvent, error)
	// Now is the store's clock (Redis TIME; the injected clock in tests).
	Now(ctx context.Context) (time.Time, error)
	Close() error
}
