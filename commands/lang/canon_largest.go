package lang

import "strings"

// largestAt reads a question for the largest model that fits or that a
// budget trains ("what's the largest model I can fine-tune on a 4090",
// "the biggest model we can pretrain for $10k", "4090 한장으로 lora 가능한
// 최대 모델 크기", "4090으로 몇b까지 돌아가?", "h100 2장이면 최대 몇 b 모델까지
// 추론 가능?"): the model's size is what is asked, so none need be named;
// i when no such words are there.
func (c *canonizer) largestAt(i int) int {
	w := c.w(i)
	model := func(k int) bool {
		m := c.w(k)
		return m == "model" || m == "models" || m == "llm" || strings.HasPrefix(m, "모델")
	}
	end := 0
	switch {
	case w == "biggest" || w == "largest":
		switch {
		case model(i + 1):
			end = i + 2
		case model(i+2) && largestFiller[c.w(i+1)]:
			end = i + 3 // "largest possible model"
		case c.named(i + 1):
			end = i + 1 // "largest qwen2.5 (model)": the family's largest that fits
		}
	case (w == "max" || w == "maximum") && model(i+1):
		end = i + 2
	case w == "how" && (c.w(i+1) == "big" || c.w(i+1) == "large") && (model(i+2) || c.w(i+2) == "a" && model(i+3)):
		end = i + 3
		if c.w(i+2) == "a" {
			end++
		}
	case w == "what" && c.w(i+1) == "size" && (model(i+2) || c.w(i+2) == "of" && model(i+3)):
		end = i + 3
		if c.w(i+2) == "of" {
			end++
		}
	case w == "최대" && (model(i+1) || c.w(i+1) == "몇"):
		end = i + 2
	case (w == "제일" || w == "가장") && strings.HasPrefix(c.w(i+1), "큰") && model(i+2):
		end = i + 3
	case (w == "제일" || w == "가장") && strings.HasPrefix(c.w(i+1), "큰") && c.named(i+2):
		end = i + 2 // "가장 큰 qwen3 모델": the family's largest
	case (w == "제일" || w == "가장") && strings.HasPrefix(c.w(i+1), "큰") && c.namedHangul(i-1):
		// "라마 제일 큰 거 우리 서버에서 돌릴 수 있어요?": the family's top
		// member, whatever it fits on
		n := i + 2
		if k := c.w(n); strings.HasPrefix(k, "거") || strings.HasPrefix(k, "것") || strings.HasPrefix(k, "버전") || strings.HasPrefix(k, "모델") {
			n++
		}
		c.familyTop = true
		c.skip(i, n)
		return n
	case w == "몇" && c.w(i+1) == "b" && (c.w(i-1) == "최대" || strings.HasPrefix(c.w(i+2), "까지") || model(i+2)):
		end = i + 2
	}
	if end == 0 {
		return i
	}
	for (c.w(end) == "size" || c.w(end) == "크기" || c.w(end) == "b" || c.w(end) == "까지" || strings.HasPrefix(c.w(end), "모델") && c.w(end-1) == "b") && end < len(c.in) {
		end++ // "max model size", "최대 몇 b 모델까지", "몇 b 까지"
	}
	c.largest = true
	c.skip(i, end)
	return end
}

// largestFiller are the words that may stand between "largest" and
// "model" without naming one.
var largestFiller = map[string]bool{"possible": true, "language": true, "open": true, "open-source": true, "dense": true, "llm": true, "ai": true}

// named reports whether the word at k names a model or a family of them
// ("qwen2.5", "llama"), so "largest" before it asks the family's largest.
func (c *canonizer) named(k int) bool {
	w := c.w(k)
	return w != "" && (c.modelKnown != nil && c.modelKnown(w) || c.familyLike != nil && c.familyLike(w))
}

// namedHangul is named for a family spelled in Hangul ("라마", "큐웬").
func (c *canonizer) namedHangul(k int) bool {
	if s, e, ok := koStem(c.w(k)); ok && s != "" && e.act == koWord && e.word != "" {
		w := e.word
		return c.modelKnown != nil && c.modelKnown(w) || c.familyLike != nil && c.familyLike(w)
	}
	return c.named(k)
}
