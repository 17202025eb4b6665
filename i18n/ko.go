package i18n

import (
	"fmt"
	"sync"
)

// korean is the Korean catalogue: English format string → Korean text with
// the same verbs in the same order. It is written for how Korean ML
// engineers talk: GPU, bf16, DDP, ZeRO, LoRA, OOM, torchrun stay as they
// are. Each part of the product keeps its own file (ko_*.go); a key in two
// files is a mistake the merge refuses.
// It is built on first use, like the printer: English answers never pay
// for it.
var korean = sync.OnceValue(func() map[string]string {
	return merge(koCommands(), koReservations(), koPlanner(), koDigest(), koHome(), koLang(), koStore())
})

func merge(parts ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, p := range parts {
		for k, v := range p {
			if old, dup := out[k]; dup && old != v {
				panic(fmt.Sprintf("i18n: two Korean texts for %q: %q and %q", k, old, v))
			}
			out[k] = v
		}
	}
	return out
}
