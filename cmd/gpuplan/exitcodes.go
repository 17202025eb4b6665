package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/store"
)

// Exit codes of the commands that touch the reservation store (run,
// status, reserve, release, extend, mine, wait, keep, digest) and of the
// planner commands; README.md lists them. 0 means the command did what was
// asked, so `gpuplan reserve … && python train.py` starts only with GPUs.
const (
	exitOK = 0
	// exitBadInput: the request cannot be used as typed (also a plan
	// that cannot be read).
	exitBadInput = 1
	// exitBadUsage: an unknown command or flag, or a configuration that
	// cannot be used (GPUPLAN_SERVERS, GPUPLAN_PRICES).
	exitBadUsage = 2
	// exitInternal: a failure the user cannot act on.
	exitInternal = 3
	// exitRefused: understood, but not done: the GPUs are not free, there
	// is nothing to release, the reservation does not exist, is someone
	// else's, or has ended.
	exitRefused = 4
	// exitUnavailable: the store cannot be reached or opened (Redis down,
	// a damaged store file); nothing was changed.
	exitUnavailable = 5
	// exitUnknown: the store stopped answering after a change was sent;
	// whether it was made is not known. Check before retrying.
	exitUnknown = 6
)

// exitForError is the exit code of a command that failed with err.
func exitForError(err error) int {
	switch {
	case errors.Is(err, store.ErrOutcomeUnknown):
		return exitUnknown
	case errors.Is(err, store.ErrUnavailable), errors.Is(err, store.ErrStoreFile):
		return exitUnavailable
	}
	switch commands.KindOf(err) {
	case commands.Invalid:
		return exitBadInput
	case commands.NotFound, commands.Permission, commands.Ended, commands.Refused:
		return exitRefused
	case commands.Unavailable:
		return exitUnavailable
	case commands.Unknown:
		return exitUnknown
	}
	return exitInternal
}

// exitForOpen is the exit code when the store or its configuration could
// not be set up.
func exitForOpen(err error) int {
	if errors.Is(err, store.ErrUnavailable) || errors.Is(err, store.ErrStoreFile) || errors.Is(err, store.ErrUnsafeRedis) {
		return exitUnavailable
	}
	return exitBadUsage
}

// cliRequestID is one run's idempotency key (--request-id overrides it).
func cliRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "cli-" + hex.EncodeToString(b[:])
}
