package main

import (
	"context"
	"sync"

	"github.com/gpuplan/gpuplan/hub"
	"github.com/gpuplan/gpuplan/planner"
)

// hubModels reads models named by their Hugging Face Hub id or a
// config.json path. HF_ENDPOINT (a mirror), HF_TOKEN (gated models) and
// GPUPLAN_HUB_CACHE are read the first time a request names such a model,
// not at start-up.
func hubModels(getenv func(string) string) func(ctx context.Context, ref string) (planner.Model, error) {
	client := sync.OnceValue(func() *hub.Client {
		token := getenv("HF_TOKEN")
		if token == "" {
			token = getenv("HUGGING_FACE_HUB_TOKEN")
		}
		return hub.NewClient(getenv("HF_ENDPOINT"), token, getenv("GPUPLAN_HUB_CACHE"))
	})
	return func(ctx context.Context, ref string) (planner.Model, error) {
		return hub.Load(ctx, client(), ref)
	}
}
