package lang

import (
	"errors"
	"strings"
)

// UserError is a mistake the user can fix: what was wrong, and how to say
// it instead. Every renderer shows Msg and Hint as they are; nothing else
// about an error reaches a user.
type UserError struct {
	Msg  string // what is wrong, naming the word ("unknown model `bert-bse` — did you mean `bert-base`?")
	Hint string // how to fix it, usually an example ("try: gpuplan plan bert-base 3 epochs of 1M samples on h100x2")
	// Field is the argument the mistake is in, when a reader knows it:
	// "server", "count", "ids", "start", "end", "duration", "note" — so a
	// form can show it under its own input without reading Msg.
	Field string

	// slip marks a Hint that fixes a typo (suggest.go).
	slip bool
	// text is Msg as a reader wrote it (en.T / en.Tf), for Localize.
	text text
}

// Fields a mistake can be in.
const (
	FieldServer   = "server"
	FieldCount    = "count"
	FieldIDs      = "ids"
	FieldStart    = "start"
	FieldEnd      = "end"
	FieldDuration = "duration"
	FieldNote     = "note"
)

// inField marks err's *UserError with the field it is in, unless a reader
// already said.
func inField(err error, field string) error {
	if ue, ok := err.(*UserError); ok && ue.Field == "" && field != "" {
		ue.Field = field
	}
	return err
}

// InField is inField for the commands' own readers.
func InField(err error, field string) error { return inField(err, field) }

func (e *UserError) Error() string {
	if e.Hint == "" {
		return e.Msg
	}
	return e.Msg + "\n" + e.Hint
}

// userErrorf builds a UserError with a hint.
func userErrorf(hint string, t text) *UserError {
	return said(t, &UserError{Hint: hint})
}

// NoModel reports whether err is the reader's refusal for a request that
// names no model it knows ("which model? …"): a message that names only
// GPUs is then a question about them.
func NoModel(err error) bool {
	var ue *UserError
	return errors.As(err, &ue) && strings.HasPrefix(ue.Msg, "which model?")
}

// UnknownServer reports whether err is a refusal for a server name the
// team does not have: a destructive command read again as a sentence
// would drop the name and act on every server ("release nowhere all").
func UnknownServer(err error) bool {
	var ue *UserError
	return errors.As(err, &ue) && strings.HasPrefix(ue.Msg, "unknown server")
}
