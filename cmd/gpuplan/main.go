// Command gpuplan plans GPU training and inference jobs from the terminal
// and (in later subcommands) runs the Slack bot that does the same for a
// team. main only parses the process environment and exits; the work is
// in run.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
