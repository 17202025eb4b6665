package bot

import (
	"sync"
	"time"

	"github.com/gpuplan/gpuplan/commands"
)

// conversations remembers, for each Slack thread (and direct-message
// channel) the bot answered a plan in, that plan's request
// (commands.PlanData.Request), so a follow-up there ("what about on 4x
// h100?", "그럼 bf16으로 하면?", "비용은?") is read with it
// (commands.Request.Earlier).
//
// The memory is the process's own: a restart forgets it, and a follow-up
// after one is read on its own words, as before. Slack could give the
// thread back (conversations.replies), but only with the channels:history
// scope, which lets the bot read every message of its channels; the bot
// asks for no more than it uses.
type conversations struct {
	mu sync.Mutex
	m  map[string]earlierPlan
}

type earlierPlan struct {
	request string
	at      time.Time
}

const (
	// threadMemory is how long a thread's plan is followed up on; a DM,
	// having no threads, only a short while.
	threadMemory = 24 * time.Hour
	dmMemory     = time.Hour
	// conversationsMax bounds the memory: past it the oldest goes.
	conversationsMax = 4096
)

// get is the request of the plan answered in key, "" when there is none
// younger than ttl.
func (c *conversations) get(key string, now time.Time, ttl time.Duration) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok || now.Sub(e.at) > ttl {
		return ""
	}
	return e.request
}

// remember keeps the request of a plan reply answered in key.
func (c *conversations) remember(key string, reply *commands.Reply, now time.Time) {
	if reply == nil {
		return
	}
	pd, ok := reply.Data.(*commands.PlanData)
	if !ok || pd == nil || pd.Request == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]earlierPlan{}
	}
	if _, ok := c.m[key]; !ok && len(c.m) >= conversationsMax {
		oldest, at := "", now
		for k, e := range c.m {
			if e.at.Before(at) {
				oldest, at = k, e.at
			}
		}
		delete(c.m, oldest)
	}
	c.m[key] = earlierPlan{request: pd.Request, at: now}
}
