//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package main

// terminalSignalsCommand: without a way to ask the terminal, every
// signal is forwarded.
func terminalSignalsCommand() bool { return false }
