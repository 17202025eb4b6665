package commands

import (
	"fmt"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// servingFields are a serving plan's card rows: the load it carries, what
// one request sees (time to first token, time per output token, the
// whole request), what bounds it, and the cost per generated token.
func servingFields(p *i18n.Printer, e *planner.Estimate) []Field {
	sv := e.Serving
	if sv.Engine.Local() {
		layers := p.Tf("all %d on the GPU", sv.GPULayers)
		if sv.CPULayers > 0 {
			layers = p.Tf("%d on the GPU, %d on the CPU", sv.GPULayers, sv.CPULayers)
		}
		return []Field{
			{p.T("Decode"), p.Tf("%s tokens/s per stream (%.1f ms per token), %s", sig(sv.OutputTokPS/sv.Concurrency), sv.TPOTS*1000, sv.Engine)},
			{p.T("Prompt"), p.Tf("first token after %s for %s tokens; %s per request of %d out", secs(sv.TTFTS), thousands(float64(sv.InputTokens)), secs(sv.LatencyS), sv.OutputTokens)},
			{p.T("Layers"), layers + p.Tf(" (split: %s)", sv.Split)},
			{p.T("Serving cost"), p.Tf("%s per 1M generated tokens", money(perMillionTokens(e)))},
			{p.T("Weights"), p.Tf("%s, %.1f GiB; %s KV cache", sv.Weights, sv.WeightsGiB, sv.KVPrecision)},
		}
	}
	load := p.Tf("%s requests in flight (the KV cache holds %d)", sig(sv.Concurrency), sv.MaxInFlight)
	if sv.Saturated {
		load += p.T(" — saturated: the requested rate is more than this serves")
	}
	return []Field{
		{p.T("Throughput"), p.Tf("%s requests/s · %s output tokens/s (%s with prompts), %s continuous batching", sig(sv.RequestsPerS), sig(sv.OutputTokPS), sig(sv.TotalTokPS), sv.Engine)},
		{p.T("Per request"), p.Tf("first token %s · %.1f ms per output token · %s in all (%s in / %d out)", secs(sv.TTFTS), sv.TPOTS*1000, secs(sv.LatencyS), thousands(float64(sv.InputTokens)), sv.OutputTokens)},
		{p.T("Load"), load},
		{p.T("Serving cost"), p.Tf("%s per 1M generated tokens", money(perMillionTokens(e)))},
		{p.T("Weights"), p.Tf("%s, %.1f GiB; %s KV cache", sv.Weights, sv.WeightsGiB, sv.KVPrecision)},
	}
}

func secs(s float64) string {
	if s < 1 {
		return fmt.Sprintf("%.0f ms", s*1000)
	}
	return fmt.Sprintf("%.2g s", s)
}
