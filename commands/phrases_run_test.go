package commands

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryPhraseRuns sends every plan sentence of the request language's
// test sets (the phrasebook, the English styles and the held-out sets)
// through the whole plan command, not only the reader: each must end in an
// answer or a user error, never a crash or an internal error. A deadline
// asked of work with no total once crashed the command after the reader
// had read it well.
func TestEveryPhraseRuns(t *testing.T) {
	files, err := filepath.Glob("lang/testdata/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no phrase files: %v", err)
	}
	s, _ := newReservationsOn(t, phrasebookServers)
	n := 0
	for _, file := range files {
		for _, p := range readPhrases(t, file) {
			if c, _ := p.Expect["command"].(string); c != "" && c != "plan" {
				continue // reserve, extend, status …: their own tests run them
			}
			n++
			text := p.Text
			if !strings.HasPrefix(text, "plan ") {
				text = "plan " + text
			}
			if err := runsCleanly(t, s, text); err != nil {
				t.Errorf("%s: %q: %v", filepath.Base(file), p.Text, err)
			}
		}
	}
	if n < 500 {
		t.Errorf("only %d plan sentences found", n)
	}
	// and requests typed while probing the reader, which reached the
	// commands past it in ways the sets above do not
	for _, text := range []string{
		"bert-base 10 epochs in a week on a100", "bert-base 10 epochs 일주일 안에 a100 몇 장?",
		"we have 2 servers with 8 a100s each, can we pretrain a 13b model on 300b tokens in a month?",
		"llama3 70b를 4bit로 양자화하면 몇 기가 필요해?", "mixtral 8x22b 추론 h200 4장 fp8", "sdxl lora 학습 시간 a100",
		"whisper small 한국어 파인튜닝 300시간", "qwen3 30b a3b 추론 l40s 2장 vllm 동시요청 32", "gemma 3 12b qlora 4bit rtx 4090 24gb 가능?",
		"deepseek-r1 671b fp8 h200 몇 장?", "phi-3 mini 3.8b inference cpu offload on 8gb gpu", "exaone 3.5 7.8b 파인튜닝 a100 4장",
		"llama 3.1 8b lora peft로 h100에서 5만 샘플 2048 토큰 얼마나 걸려?", "resnet50 배치 1 추론 지연시간 t4",
		"vit-base inference latency at batch 1 on an a100?", "bert-base finetune micro 8 seq 128 on h200 100k samples",
	} {
		if err := runsCleanly(t, s, "plan "+text); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
}

// phrase is one sentence of the request language's test sets and what
// it should read as.
type phrase struct {
	Text   string         `json:"text"`
	Expect map[string]any `json:"expect"`
}

// readPhrases reads a JSON-lines phrase file.
func readPhrases(t *testing.T, path string) []phrase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []phrase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var p phrase
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, p)
	}
	return out
}

// runsCleanly dispatches text and reports a panic or an error that is not
// the user's.
func runsCleanly(t *testing.T, s *Set, text string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	_, err = do(t, s, "U0001", text)
	if err != nil && KindOf(err) != Internal {
		return nil
	}
	return err
}

// TestCombinedPhrasesRun builds requests from fragments people type (a
// model, a workload, an amount, hardware, a deadline, a question, an
// option), in shuffled order from a fixed seed, and runs each through the
// plan command: whatever the combination, it ends in an answer or a user
// error. 30,000 of them ran clean when it was written; 2,000 run here.
func TestCombinedPhrasesRun(t *testing.T) {
	s, _ := newReservationsOn(t, phrasebookServers)
	parts := [][]string{
		{"bert-base", "llama3 8b", "mixtral 8x7b", "resnet50", "whisper small", "7b model", "gpt-neox-20b", "qwen2.5-coder 32b", "vit-base", "deepseek v3", "t5-large", "clip vit-l/14", "flan-t5-xl", ""},
		{"lora", "qlora", "finetune", "pretrain", "inference", "추론", "파인튜닝", "serving vllm", "qlora 4bit", ""},
		{"10 epochs", "of 2.5M samples", "1B tokens", "3 epochs of 52k alpaca", "5000 steps", "300시간", "10에폭 250만 샘플", ""},
		{"on h100x2", "on 8 a100", "a100 4장", "on server-h", "on our servers", "4090 두장", "on a free colab t4", "with 8 gpus", "on 2 servers with 8 a100s each", "compare on h200x4, a100x4", "on rtx 3060", "gpu 8장으로", "on rtx-4060-ti-16gb", ""},
		{"in a week", "한 달 안에", "두 시간 안에", "within 3 days", "by friday", ""},
		{"how long?", "몇 장?", "vram?", "얼마?", "fits?", "cost?", "초당 몇 토큰?", "tp=2", "cpu offload", "budget $500", "cheapest", "max batch size", "under $2/hr", "시간당 1달러 이하", "max context", "최대 컨텍스트 길이?", ""},
		{"ckpt", "fp8", "int4", "bf16", "zero3", "tuned", "seq 8192", "batch 64", "동시 요청 32", "with unsloth", "torchtitan", "activation offloading", "hf trainer + torch compile", ""},
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		var w []string
		for _, p := range parts {
			if x := p[r.IntN(len(p))]; x != "" {
				w = append(w, x)
			}
		}
		r.Shuffle(len(w), func(a, b int) { w[a], w[b] = w[b], w[a] })
		text := "plan " + strings.Join(w, " ")
		if err := runsCleanly(t, s, text); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
}
