package commands

import (
	"fmt"

	"github.com/gpuplan/gpuplan/commands/lang"
)

// UserError is a mistake the user can fix: what was wrong, and how to say
// it instead. It is the request language's error type, so a refusal from
// the grammar and one from a command read the same everywhere.
type UserError = lang.UserError

// userErrorf builds a UserError with a hint.
func userErrorf(hint, format string, args ...any) *UserError {
	return &UserError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}
