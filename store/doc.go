// Package store keeps the team's GPU reservations, waiting lists and audit
// trail, and is the only package that knows Redis (and the embedded file
// store used when there is no Redis). It owns Reservation and its rules:
// a reservation's state is a pure function of time, every mutation is one
// atomic step that validates before it writes, and a request id makes a
// retried or double-clicked mutation apply once.
package store
