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

	"github.com/redis/go-redis/v9"
)

func main() {
	// go-redis prints its own notes ("redis: … pool.go: failed to dial")
	// on the process's stderr; the commands report what failed themselves.
	// serve routes them through its logger instead.
	redis.SetLogger(dropRedisLog{})
	ctx, stop := context.Background(), func() {}
	if wantsSignals(os.Args[1:]) {
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	}
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// dropRedisLog drops go-redis's log lines.
type dropRedisLog struct{}

func (dropRedisLog) Printf(context.Context, string, ...any) {}

// wantsSignals reports whether a command needs Ctrl-C and SIGTERM as a
// cancelled context (serve drains, exec forwards, a reservation is not
// left half-made). The commands that only compute and print are killed
// by the signal as any terminal program is: catching it would start the
// runtime's signal goroutine and thread, ~0.2 ms of a 3 ms plan.
func wantsSignals(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "-h", "--help", "plan", "build", "gpus", "models", "backtest", "help", "compare":
		return false
	}
	return true
}
