//go:build linux || darwin || freebsd || netbsd || openbsd

package main

import (
	"syscall"
	"unsafe"
)

// terminalSignalsCommand reports whether a terminal's SIGINT reaches the
// command without gpuplan: stdin is a terminal whose foreground process
// group is gpuplan's, which the command shares. Ctrl-C then goes to both,
// and forwarding it too would interrupt the command twice (a second
// KeyboardInterrupt in the middle of its own cleanup).
func terminalSignalsCommand() bool {
	var fg int32
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, 0, uintptr(syscall.TIOCGPGRP), uintptr(unsafe.Pointer(&fg)))
	return errno == 0 && int(fg) == syscall.Getpgrp()
}
