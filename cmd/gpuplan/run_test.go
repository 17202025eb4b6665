package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func runCLI(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, func(k string) string { return env[k] }, &out, &errb)
	return code, out.String(), errb.String()
}

func TestPlanPrintsAReport(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "plan", "bert-base 10 epochs of 2.5M samples on h100x2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"H100 SXM5 80GB", "fits", "memory per GPU", "Read as: bert-base-uncased", "On the team's servers", "Cloud options", "torchrun --nproc_per_node=2", "Assumptions"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func TestPlanJSONIsTheDocumentedResult(t *testing.T) {
	// --json may come before or after the request.
	for _, args := range [][]string{
		{"plan", "--json", "llama3-8b lora 3 epochs of 50k samples on h100x2"},
		{"plan", "llama3-8b lora 3 epochs of 50k samples on h100x2", "--json"},
	} {
		code, out, errOut := runCLI(t, nil, args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var doc struct {
			Plans []struct {
				GPU    string `json:"gpu"`
				GPUs   int    `json:"gpus"`
				Memory struct {
					Fits bool `json:"fits"`
				} `json:"memory"`
				CostUSD *float64 `json:"cost_usd"`
			} `json:"plans"`
			Recommendations struct {
				Balanced *struct{ GPU string } `json:"balanced"`
			} `json:"recommendations"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		if len(doc.Plans) != 1 || doc.Plans[0].GPUs != 2 || !doc.Plans[0].Memory.Fits || doc.Plans[0].CostUSD == nil || doc.Recommendations.Balanced == nil {
			t.Errorf("unexpected document: %+v", doc)
		}
	}
}

func TestBadRequestExitsNonZeroWithTheMessageOnStderr(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "plan", "bert-bse 10 epochs on h100x2")
	if code != 1 || out != "" || !strings.Contains(errOut, "did you mean bert-base") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, _, errOut = runCLI(t, nil, "plna", "x")
	if code != 2 || !strings.Contains(errOut, "unknown command") {
		t.Errorf("unknown subcommand: exit %d, %q", code, errOut)
	}
}

func TestPriceOverride(t *testing.T) {
	cost := func(env map[string]string, args ...string) float64 {
		code, out, errOut := runCLI(t, env, append([]string{"plan", "--json", "gpt2 1B tokens on h100x1"}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var doc struct {
			Plans []struct {
				CostUSD float64 `json:"cost_usd"`
			} `json:"plans"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Plans[0].CostUSD
	}
	base := cost(nil)
	if got := cost(nil, "--price", "h100=5.00"); got < 1.99*base || got > 2.01*base {
		t.Errorf("doubling the price: %.2f → %.2f", base, got)
	}
	if got := cost(map[string]string{"GPUPLAN_PRICES": "h100=1.25"}); got < 0.49*base || got > 0.51*base {
		t.Errorf("GPUPLAN_PRICES halving: %.2f → %.2f", base, got)
	}
	code, _, errOut := runCLI(t, nil, "plan", "--price", "h999=1", "gpt2 on h100")
	if code != 2 || !strings.Contains(errOut, "h999") {
		t.Errorf("bad price GPU: exit %d %q", code, errOut)
	}
}

func TestCatalogAndBuildCommands(t *testing.T) {
	for _, args := range [][]string{{"gpus"}, {"models"}, {"build", "4x rtx-4090"}, {"help", "plan"}, {"--help"}} {
		if code, out, errOut := runCLI(t, nil, args...); code != 0 || out == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// A budget in won plans in dollars at GPUPLAN_KRW_PER_USD and says the
// rate; unset, it uses the 2025 average and says so; a bad rate stops
// with exit 2.
func TestBudgetInWonFromTheEnvironment(t *testing.T) {
	const req = "예산 280만원으로 llama3 8b lora h100 몇 토큰까지?"
	code, out, _ := runCLI(t, map[string]string{"GPUPLAN_KRW_PER_USD": "1400"}, "plan", "--lang", "ko", req)
	if code != 0 || !strings.Contains(out, "$2,000") || !strings.Contains(out, "₩2,800,000") {
		t.Errorf("rate set: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, nil, "plan", "--lang", "ko", req)
	if code != 0 || !strings.Contains(out, "$1,969") || !strings.Contains(out, "2025년 평균") {
		t.Errorf("rate unset: exit %d\n%s", code, out)
	}
	code, _, errOut := runCLI(t, map[string]string{"GPUPLAN_KRW_PER_USD": "lots"}, "plan", req)
	if code != 2 || !strings.Contains(errOut, "GPUPLAN_KRW_PER_USD") {
		t.Errorf("bad rate: exit %d, %q", code, errOut)
	}
}
