package planner

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any of them leaves a goroutine
// behind (issue 12).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
