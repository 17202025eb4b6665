package commands

import (
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// memoryAnswer answers "how much vram for …": the peak per GPU where it
// was planned, and in all when it is spread over several.
func memoryAnswer(p *i18n.Printer, e *planner.Estimate, hw string) string {
	if sv := e.Serving; sv != nil && sv.MaxInFlight > 1 && sv.KVCacheGiB > 0 && e.Memory.EngineCapGiB > 0 {
		// a batched engine fills what it takes of the card with KV cache:
		// the need is the weights, the workspace and the cache of the
		// requests said at once (one when none was said); the peak planned
		// holds the cache of the requests it ran
		held := 0.0
		for _, it := range e.Memory.Breakdown {
			if it.Name == "KV cache" {
				held = it.GiB
			}
		}
		perReq := sv.KVCacheGiB / float64(sv.MaxInFlight)
		if n := jobLoad(sv); n > 1 {
			need := e.Memory.PerGPUGiB - held + perReq*float64(n)
			return p.Tf("It needs about %.0f GiB per GPU on %s for %d requests of %d tokens at once (their KV cache %.0f GiB); a serving engine takes %.0f of its %.0f GiB, room for %d.",
				need, hw, n, sv.InputTokens+sv.OutputTokens, perReq*float64(n), e.Memory.EngineCapGiB, e.Memory.CapacityGiB, sv.MaxInFlight)
		}
		need := e.Memory.PerGPUGiB - held + perReq
		return p.Tf("It needs about %.0f GiB per GPU on %s for one request of %d tokens; a serving engine takes %.0f of its %.0f GiB and fills the rest with KV cache, %d requests at once.",
			need, hw, sv.InputTokens+sv.OutputTokens, e.Memory.EngineCapGiB, e.Memory.CapacityGiB, sv.MaxInFlight)
	}
	weights := ""
	for _, it := range e.Memory.Breakdown {
		if (it.Name == "weight" || it.Name == "weights") && it.GiB >= 0.1 {
			// "gguf 용량 얼마": the weights are what a model's file holds
			weights = " " + p.Tf("The weights are %.1f GiB of it.", it.GiB)
			if e.GPUs > 1 {
				weights = " " + p.Tf("The weights are %.1f GiB of it on each GPU.", it.GiB)
			}
		}
	}
	lead := ""
	if !e.Memory.Fits {
		lead = p.T("It does not fit: ") // "메모리 얼마나 필요해? 타이거로 가능?"
	}
	if e.GPUs > 1 {
		return lead + p.Tf("It needs about %.0f GiB per GPU on %s, %.0f GiB in all (%.0f GiB per GPU there).", e.Memory.PerGPUGiB, hw, e.Memory.PerGPUGiB*float64(e.GPUs), e.Memory.CapacityGiB) + weights
	}
	return lead + p.Tf("It needs about %.0f GiB per GPU on %s (%.0f GiB there).", e.Memory.PerGPUGiB, hw, e.Memory.CapacityGiB) + weights
}

// usersAtOnce answers "for 20 concurrent users?" before the throughput:
// whether the KV cache holds them all at once, or how many of them (the
// rest wait in the engine's queue); "" when no users were said.
func usersAtOnce(p *i18n.Printer, e *planner.Estimate, users int) string {
	sv := e.Serving
	if sv == nil || users < 2 || sv.MaxInFlight < 1 || !e.Memory.Fits {
		return ""
	}
	if sv.MaxInFlight < users {
		return p.Tf("Partly: the KV cache holds %d of the %d requests at once, the rest wait. ", sv.MaxInFlight, users)
	}
	return p.Tf("Yes: the KV cache holds all %d requests at once. ", users)
}
