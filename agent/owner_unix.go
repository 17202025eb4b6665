//go:build unix

package agent

import (
	"os"
	"strconv"
	"syscall"
)

// dirUID is the uid owning a /proc/<pid> directory.
func dirUID(dir string) (string, bool) {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return "", false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return strconv.FormatUint(uint64(st.Uid), 10), true
}
