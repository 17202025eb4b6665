//go:build unix

package main

import "syscall"

// rlimits are the soft limits on open files and address space; an
// unlimited one reads as the largest value, as client_golang reported it.
func rlimits() (files, mem float64, ok bool) {
	var f, m syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &f) != nil || syscall.Getrlimit(syscall.RLIMIT_AS, &m) != nil {
		return 0, 0, false
	}
	return float64(f.Cur), float64(m.Cur), true
}
