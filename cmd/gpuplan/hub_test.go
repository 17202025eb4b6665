package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
)

// A Hub model id plans end to end: `gpuplan plan meta-llama/Llama-3.2-3B …`
// reads the model's config.json from a local fake Hub named by HF_ENDPOINT
// (with HF_TOKEN sent for the gated model), caches it under
// GPUPLAN_HUB_CACHE, and plans it; offline, a catalogue model of the same
// name stands in and the reading says so; an unknown id offline is refused
// with a suggestion.
func TestPlanHubModelEndToEnd(t *testing.T) {
	cfg, err := os.ReadFile("../../hub/testdata/meta-llama_Llama-3.2-3B.json")
	if err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int32
	hub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/meta-llama/Llama-3.2-3B/resolve/main/config.json" {
			http.NotFound(w, r)
			return
		}
		if r.Header.Get("Authorization") != "Bearer hf_test_token" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Write(cfg)
	}))
	defer hub.Close()
	cache := t.TempDir()
	env := map[string]string{"HF_ENDPOINT": hub.URL, "HF_TOKEN": "hf_test_token", "GPUPLAN_HUB_CACHE": cache}

	code, out, errOut := runCLI(t, env, "plan", "--json", "meta-llama/Llama-3.2-3B lora 1B tokens on h100")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		ReadAs string `json:"read_as"`
		Model  struct {
			ID     string  `json:"id"`
			Params float64 `json:"params"`
			Origin string  `json:"origin"`
		} `json:"model"`
		Plans []struct {
			GPUs int `json:"gpus"`
		} `json:"plans"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if doc.Model.ID != "meta-llama/Llama-3.2-3B" || doc.Model.Origin != "hub" || doc.Model.Params < 3.0e9 || doc.Model.Params > 3.4e9 {
		t.Errorf("model %+v", doc.Model)
	}
	if len(doc.Plans) != 1 || !strings.Contains(doc.ReadAs, "meta-llama/Llama-3.2-3B") {
		t.Errorf("plans %+v, read as %q", doc.Plans, doc.ReadAs)
	}
	// The cache answers the second time, with the Hub down.
	hub.Close()
	before := hits.Load()
	if code, _, errOut := runCLI(t, env, "plan", "meta-llama/Llama-3.2-3B inference on a t4"); code != 0 {
		t.Errorf("cached: exit %d: %s", code, errOut)
	}
	if hits.Load() != before {
		t.Errorf("the Hub was asked again")
	}
	if strings.Contains(errOut+out, "hf_test_token") {
		t.Errorf("the token was printed")
	}
	// Offline: a catalogue model of the same name stands in, said so.
	env["GPUPLAN_HUB_CACHE"] = t.TempDir()
	code, out, errOut = runCLI(t, env, "plan", "Qwen/Qwen2.5-7B lora 1B tokens on h100")
	if code != 0 || !strings.Contains(out, "qwen2.5-7b") || !strings.Contains(out, "planned as the catalogue's qwen2.5-7b") {
		t.Errorf("offline stand-in: exit %d\n%s\n%s", code, out, errOut)
	}
	// Offline and unknown: a clear refusal with a suggestion.
	code, _, errOut = runCLI(t, env, "plan", "someorg/some-model-7b lora 1B tokens on h100")
	if code == 0 || !strings.Contains(errOut, "someorg/some-model-7b") || !strings.Contains(errOut, "try") {
		t.Errorf("unknown offline: exit %d: %s", code, errOut)
	}
}
