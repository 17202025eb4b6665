package commands

import (
	"fmt"

	"github.com/gpuplan/gpuplan/planner"
)

// servingFields are a serving plan's card rows: the load it carries, what
// one request sees (time to first token, time per output token, the
// whole request), what bounds it, and the cost per generated token.
func servingFields(e *planner.Estimate) []Field {
	sv := e.Serving
	if sv.Engine.Local() {
		layers := fmt.Sprintf("all %d on the GPU", sv.GPULayers)
		if sv.CPULayers > 0 {
			layers = fmt.Sprintf("%d on the GPU, %d on the CPU", sv.GPULayers, sv.CPULayers)
		}
		return []Field{
			{"Decode", fmt.Sprintf("%s tokens/s per stream (%.1f ms per token), %s", sig(sv.OutputTokPS/sv.Concurrency), sv.TPOTS*1000, sv.Engine)},
			{"Prompt", fmt.Sprintf("first token after %s for %s tokens; %s per request of %d out", secs(sv.TTFTS), thousands(float64(sv.InputTokens)), secs(sv.LatencyS), sv.OutputTokens)},
			{"Layers", layers + fmt.Sprintf(" (split: %s)", sv.Split)},
			{"Serving cost", fmt.Sprintf("%s per 1M generated tokens", money(perMillionTokens(e)))},
			{"Weights", fmt.Sprintf("%s, %.1f GiB; %s KV cache", sv.Weights, sv.WeightsGiB, sv.KVPrecision)},
		}
	}
	load := fmt.Sprintf("%s requests in flight (the KV cache holds %d)", sig(sv.Concurrency), sv.MaxInFlight)
	if sv.Saturated {
		load += " — saturated: the requested rate is more than this serves"
	}
	return []Field{
		{"Throughput", fmt.Sprintf("%s requests/s · %s output tokens/s (%s with prompts), %s continuous batching", sig(sv.RequestsPerS), sig(sv.OutputTokPS), sig(sv.TotalTokPS), sv.Engine)},
		{"Per request", fmt.Sprintf("first token %s · %.1f ms per output token · %s in all (%s in / %d out)", secs(sv.TTFTS), sv.TPOTS*1000, secs(sv.LatencyS), thousands(float64(sv.InputTokens)), sv.OutputTokens)},
		{"Load", load},
		{"Serving cost", fmt.Sprintf("%s per 1M generated tokens", money(perMillionTokens(e)))},
		{"Weights", fmt.Sprintf("%s, %.1f GiB; %s KV cache", sv.Weights, sv.WeightsGiB, sv.KVPrecision)},
	}
}

func secs(s float64) string {
	if s < 1 {
		return fmt.Sprintf("%.0f ms", s*1000)
	}
	return fmt.Sprintf("%.2g s", s)
}
