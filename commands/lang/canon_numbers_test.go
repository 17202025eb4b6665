package lang

import (
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

// Numbers said in words, in several parts, are the numbers people mean —
// and words that only sit next to each other stay apart.
func TestSpelledOutNumbers(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, tc := range []struct{ in, want string }{
		{"gpt2 3 epochs of five hundred thousand samples on eight a100s",
			"model=gpt2 ep=3 ds=500000 on=a100-sxm4-80gbx8"},
		{"gpt2 seven hundred steps on h100", "model=gpt2 steps=700 on=h100-sxm5-80gbx1"},
		{"bert-base 2 epochs of two hundred fifty thousand samples", "model=bert-base-uncased ep=2 ds=250000"},
		{"bert-base 2 epochs of two hundred and fifty thousand samples", "model=bert-base-uncased ep=2 ds=250000"},
		{"gpt2 pretrain one and a half million tokens", "model=gpt2 wl=pretrain tok=1.5e+06"},
		{"gpt2 a hundred steps", "model=gpt2 steps=100"},
		{"gpt2 a thousand steps", "model=gpt2 steps=1000"},
		{"bert-base 3 epochs of twelve thousand samples on twenty-four a100s",
			"model=bert-base-uncased ep=3 ds=12000 on=a100-sxm4-80gbx24"},
		{"bert-base 3 epochs of fifteen hundred samples", "model=bert-base-uncased ep=3 ds=1500"},
		{"gpt2 pretrain two billion five hundred million tokens", "model=gpt2 wl=pretrain tok=2.5e+09"},
		{"gpt2 pretrain ninety-nine thousand tokens", "model=gpt2 wl=pretrain tok=99000"},
		{"bert-base twenty five epochs", "model=bert-base-uncased ep=25"},
		// Hangul numerals spaced between their groups are one number
		{"bert-base 만 오천 스텝 h100", "model=bert-base-uncased steps=15000 on=h100-sxm5-80gbx1"},
		{"gpt2 사전학습 삼억 오천만 토큰", "model=gpt2 wl=pretrain tok=3.5e+08"},
		{"bert-base 3 에폭 이만 삼천 샘플", "model=bert-base-uncased ep=3 ds=23000"},
		// sentence pairs are samples
		{"bert-base 파인튜닝 200만 문장쌍", "model=bert-base-uncased wl=finetune smp=2e+06"},
		// one word stays what it was
		{"bert-base three epochs on two h100s", "model=bert-base-uncased ep=3 on=h100-sxm5-80gbx2"},
		{"bert-base 3 epochs on a pair of a100s", "model=bert-base-uncased ep=3 on=a100-sxm4-80gbx2"},
		// "and" after a scale starts a list
		{"gpt2 pretrain a million tokens and two h100s", "model=gpt2 wl=pretrain tok=1e+06 on=h100-sxm5-80gbx2"},
	} {
		req, err := ParsePlan(cat, tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := summary(req); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
	// a smaller group before a larger one is two numbers ("오천 만" is not 15,000)
	if req, err := ParsePlan(cat, "bert-base 오천 만 스텝"); err == nil && req.Job.Steps == 15000 {
		t.Errorf("`오천 만 스텝` read as 15,000 steps")
	}
	// two numbers side by side are not one ("five seven" is not 12)
	if req, err := ParsePlan(cat, "gpt2 five seven steps"); err == nil && req.Job.Steps == 12 {
		t.Errorf("`five seven steps` read as 12 steps")
	}
}
