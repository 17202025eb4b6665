package lang

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// readAsCases are requests whose readings use every part of the Read as
// line, with the line in English (the canonical words, as before there
// was a Korean one) and in Korean.
var readAsCases = []struct{ in, en, ko string }{
	{"bert-base 10 에폭 250만 샘플 h100 2장",
		"bert-base-uncased · finetune (assumed) · 10 epochs of 2.5M samples · on 2x h100-sxm5-80gb",
		"bert-base-uncased · 파인튜닝 (가정) · 10 에폭 × 250만 샘플 · h100-sxm5-80gb 2장"},
	{"will gemma 2 9b int4 fit on an l4?",
		"gemma-2-9b · inference (assumed from int4; say qlora to train) · int4 · on 1x l4 · will it fit?",
		"gemma-2-9b · 추론 (int4 가중치라서 가정, 학습하려면 qlora) · int4 · l4 1장 · 메모리에 들어가요?"},
	{"qlora qwen2.5 32b, 1 gpu, 80gb - doable?",
		"qwen2.5-32b · qlora · on 1x a100-pcie-80gb · will it fit? (read 80gb: a100-pcie-80gb (the cheapest card of that size)) (skipped: doable)",
		"qwen2.5-32b · qlora · a100-pcie-80gb 1장 · 메모리에 들어가요? (고쳐 읽음: 80gb: a100-pcie-80gb (그 메모리 크기에서 가장 싼 카드)) (건너뜀: doable)"},
	{"H100 vs H200 for serving llama 3.1 70b — which one is cheaper?",
		"llama-3.1-70b · inference · compare h100-sxm5-80gb, h200-sxm-141gb · what does it cost?",
		"llama-3.1-70b · 추론 · 비교: h100-sxm5-80gb, h200-sxm-141gb · 비용은 얼마?"},
	{"server-h or server-a for qlora of deepseek-r1-distill-llama-70b?",
		"deepseek-r1-distill-llama-70b · qlora · compare 4x server-h, 4x server-a · which of our servers?",
		"deepseek-r1-distill-llama-70b · qlora · 비교: server-h 4장, server-a 4장 · 팀 서버 중 어디?"},
	{"how many H100s do I need to pretrain a 1B model on 3e9 tokens in under 2 days?",
		"1B params · pretrain · of 3B tokens · on h100-sxm5-80gb × ? · how many GPUs to finish within 2 days? (skipped: do, I, to)",
		"파라미터 1B · 사전학습 · 데이터셋 30억 토큰 · h100-sxm5-80gb ?장 · GPU 몇 장? (2일 안에 끝내려면) (건너뜀: do, I, to)"},
	{"llama2 13b full ft 3 eps ~200k exmples on server-a, how many hrs",
		"llama-2-13b · finetune · 3 epochs of 200000 samples · on 4x server-a · how long? (read exmples → examples) (skipped: full)",
		"llama-2-13b · 파인튜닝 · 3 에폭 × 20만 샘플 · server-a 4장 · 얼마나 걸려요? (고쳐 읽음: exmples → examples) (건너뜀: full)"},
	{"지난번에 RTX 3090 두 장으로 같은 설정을 돌렸을 때 한 에폭에 약 9시간 정도 걸렸었는데요, 이걸 H 서버로 옮기면 얼마나 단축될지 대략적으로라도 알 수 있을까요?",
		"model not named (bert-base-uncased stands in) · finetune (assumed) · 1 epoch · baseline 9 h on 2x rtx-3090 · on 4x server-h · how long? (skipped: 지난번에, 같은, 설정을, 돌렸을, 때, 약, 정도, 걸렸었는데요, 이걸, 옮기면, 단축될지, 대략적으로라도, 알, 수, 있을까요)",
		"모델 미지정 (bert-base-uncased로 대신 계산) · 파인튜닝 (가정) · 1 에폭 · baseline 9시간 (rtx-3090 2장에서 측정) · server-h 4장 · 얼마나 걸려요? (건너뜀: 지난번에, 같은, 설정을, 돌렸을, 때, 약, 정도, 걸렸었는데요, 이걸, 옮기면, 단축될지, 대략적으로라도, 알, 수, 있을까요)"},
	{"resnet50 처음부터 학습 V100 4장에서 에폭당 40분이었는데 H200 4장이면 90에폭 얼마나?",
		"resnet-50 · pretrain · 90 epochs · baseline 0.6667 h/epoch on 4x v100-sxm2-32gb · on 4x h200-sxm-141gb · how long? (skipped: 분이었는데)",
		"resnet-50 · 사전학습 · 90 에폭 · baseline 에폭당 0.667시간 (v100-sxm2-32gb 4장에서 측정) · h200-sxm-141gb 4장 · 얼마나 걸려요? (건너뜀: 분이었는데)"},
	{"vit-base finetune ran at 850 img/s on one a100. how long for 1.28M imgs × 10 epochs on 4x v100?",
		"vit-base-patch16-224 · finetune · 10 epochs of 1.28M samples · baseline 850 samples/s on 1x a100-sxm4-80gb · on 4x v100-sxm2-32gb · how long? (skipped: ran, x)",
		"vit-base-patch16-224 · 파인튜닝 · 10 에폭 × 128만 샘플 · baseline 850 샘플/s (a100-sxm4-80gb 1장에서 측정) · v100-sxm2-32gb 4장 · 얼마나 걸려요? (건너뜀: ran, x)"},
	{"gpt2 pretrain 10B tokens seq 1024 batch 512 micro 16 tuned on 2 nodes of 8x h100",
		"gpt2 · pretrain · 10B tokens · seq 1024 batch 512 micro 16 · tuned · on 2 nodes of 8x h100-sxm5-80gb",
		"gpt2 · 사전학습 · 100억 토큰 · 시퀀스 길이 1,024, 배치 512, 마이크로 배치 16 · tuned · h100-sxm5-80gb 8장 × 노드 2개"},
	{"bert-base 19252 steps/epoch 3 epochs batch 128 on 4x v100",
		"bert-base-uncased · finetune (assumed) · 19252 steps/epoch 3 epochs · batch 128 · on 4x v100-sxm2-32gb",
		"bert-base-uncased · 파인튜닝 (가정) · 에폭당 19,252 스텝, 3 에폭 · 배치 128 · v100-sxm2-32gb 4장"},
	{"llama3-8b lora rank 16 2464256 samples on h100",
		"llama-3-8b · lora · 2.464256M samples · rank 16 · on 1x h100-sxm5-80gb",
		"llama-3-8b · lora · 2,464,256 샘플 · LoRA rank 16 · h100-sxm5-80gb 1장"},
}

func readAsEnv(t *testing.T) (*planner.Catalog, Env) {
	cat := planner.DefaultCatalog()
	return cat, Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)}
}

func TestReadAsInKorean(t *testing.T) {
	cat, env := readAsEnv(t)
	ko, en := i18n.For(i18n.KO), i18n.For(i18n.EN)
	for _, tc := range readAsCases {
		r, err := Read(env, tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := ReadAs(cat, r); got != tc.en {
			t.Errorf("%q in English:\n got %s\nwant %s", tc.in, got, tc.en)
		}
		if got := ReadAsIn(en, cat, r); got != tc.en {
			t.Errorf("%q with the English printer:\n got %s\nwant %s", tc.in, got, tc.en)
		}
		if got := ReadAsIn(ko, cat, r); got != tc.ko {
			t.Errorf("%q in Korean:\n got %s\nwant %s", tc.in, got, tc.ko)
		}
	}
}

// englishInKorean are words of the English line that the Korean one says
// in Korean; none may be left in it.
var englishInKorean = []string{
	"(assumed", "epochs", "epoch ", "of ", "samples", "tokens", "steps", " on ", "compare ", "stands in", "params",
	"will it fit", "how long", "how many GPUs", "which GPU", "which of our", "what does it cost", "finish within",
	"(read ", "(skipped", "cheapest card", "safe side", "nodes", "seq ", "batch ", "micro ", "gen ", " days",
}

// Every reading of the phrasebooks says the same parts in Korean as in
// English — the model, workload, amount, shape, precision, options,
// hardware and question — and says in Korean what English says in words.
func TestReadAsInKoreanSaysEveryPart(t *testing.T) {
	cat, env := readAsEnv(t)
	ko := i18n.For(i18n.KO)
	files, err := filepath.Glob("testdata/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no phrasebooks: %v", err)
	}
	n := 0
	for _, f := range files {
		for _, p := range loadPhrases(t, f) {
			r, err := Read(env, p.Text)
			if err != nil {
				continue
			}
			n++
			// the words the user typed are quoted as typed: leave
			// them out of both lines
			r.Skipped, r.Dataset = nil, ""
			r.Corrected = append([]string(nil), r.Corrected...)
			for i, c := range r.Corrected {
				// a slip's keyword is the grammar's, in either line
				if strings.Contains(c, " → ") && !strings.HasSuffix(c, int8Note) {
					r.Corrected[i] = "x → y"
				} else if _, card, ok := strings.Cut(c, ": "); ok {
					r.Corrected[i] = "x: " + card
				}
			}
			en, kr := ReadAs(cat, r), ReadAsIn(ko, cat, r)
			if a, b := strings.Count(en, " · "), strings.Count(kr, " · "); a != b {
				t.Errorf("%q: %d parts in English, %d in Korean:\n%s\n%s", p.Text, a+1, b+1, en, kr)
			}
			for _, w := range englishInKorean {
				if strings.Contains(kr, w) {
					t.Errorf("%q: the Korean line says %q in English:\n%s", p.Text, w, kr)
				}
			}
		}
	}
	if n < 500 {
		t.Errorf("only %d phrasebook requests read", n)
	}
}

// A correction the reader makes on its own side (a 4- to 8-bit level
// priced as 8-bit) is said in Korean too.
func TestReadAsInKoreanSaysTheInt8Note(t *testing.T) {
	ko := i18n.For(i18n.KO)
	if got, want := correctedIn(ko, "q6_k"+int8Note), "q6_k → int8 (안전하게 8-bit로 계산)"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := correctedIn(ko, "finetnue → finetune"), "finetnue → finetune"; got != want {
		t.Errorf("a slip is said as it is: %s", got)
	}
}

func TestDurationWordsIn(t *testing.T) {
	ko := i18n.For(i18n.KO)
	for _, tc := range []struct {
		d      time.Duration
		en, ko string
	}{
		{30 * time.Minute, "30 min", "30분"},
		{36 * time.Hour, "36 h", "36시간"},
		{90 * time.Minute, "1.5 h", "1.5시간"},
		{60 * time.Hour, "2.5 days", "2.5일"},
	} {
		if got := DurationWords(tc.d); got != tc.en {
			t.Errorf("%v in English: %s, want %s", tc.d, got, tc.en)
		}
		if got := DurationWordsIn(ko, tc.d); got != tc.ko {
			t.Errorf("%v in Korean: %s, want %s", tc.d, got, tc.ko)
		}
	}
}

// Counts are written the Korean way where that is exact, else in digits.
func TestKoreanNum(t *testing.T) {
	ko := i18n.For(i18n.KO)
	for v, want := range map[float64]string{
		1.5: "1.5", 5000: "5000", 2_500_000: "250만", 120_000_000: "1.2억", 15e12: "15조",
		2_464_256: "2,464,256", 1_281_167: "1,281,167", 12_345: "12,345", 3e9: "30억",
	} {
		if got := koreanNum(ko, v); got != want {
			t.Errorf("koreanNum(%v) = %s, want %s", v, got, want)
		}
	}
}
