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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// dropRedisLog drops go-redis's log lines.
type dropRedisLog struct{}

func (dropRedisLog) Printf(context.Context, string, ...any) {}
