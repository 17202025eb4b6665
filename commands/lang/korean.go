package lang

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Korean as ML engineers write it in a team channel. A Hangul word is a
// stem with a particle or an ending glued on ("서버에서", "파인튜닝하려면",
// "걸려요"): the longest stem the lexicon knows is read and the rest is
// skipped. Latin and digit words were already cut from the Hangul beside
// them by the tokenizer ("8장으로" → "8" "장으로").

// koAction is what a Korean stem does.
type koAction int

const (
	koWord     koAction = iota + 1 // becomes a canonical word
	koAsk                          // a question kind, skipped
	koSkip                         // a filler, skipped
	koCounter                      // 장/개/대: the number before it counts GPUs
	koScale                        // 만/억/천: multiplies the number before it
	koServer                       // 서버
	koWithin                       // 안에/이내: the duration before it is a deadline
	koUntil                        // 까지: the day before it is a deadline
	koDuration                     // 하루/이틀: a duration on its own
	koDay                          // 내일/금요일: a day
	koTook                         // 걸렸: a measured run ("385시간 걸렸는데")
	koRun                          // 올리려면: loading a model to run it, skipped
)

type koEntry struct {
	act  koAction
	word string // koWord: the canonical word
	ask  Ask    // koAsk
	dur  float64
}

// koLexicon is built on first use: only a request with Hangul in it reads
// it (koStem returns at once for a word without), so an English request's
// process never pays for its ~280 entries.
var koLexicon = sync.OnceValue(func() map[string]koEntry {
	m := map[string]koEntry{
		// amounts
		"에폭당": {act: koWord, word: "/epoch"}, "에포크당": {act: koWord, word: "/epoch"}, "스텝당": {act: koWord, word: "/step"},
		"에폭": {act: koWord, word: "epochs"}, "에포크": {act: koWord, word: "epochs"}, "에퐄": {act: koWord, word: "epochs"},
		"이폭": {act: koWord, word: "epochs"}, "회": {act: koWord, word: "epochs"},
		"회의": {act: koSkip}, "회의록": {act: koSkip}, // a meeting, not "회" (times) and a particle
		"샘플": {act: koWord, word: "samples"}, "예제": {act: koWord, word: "samples"}, "문장": {act: koWord, word: "samples"},
		"문장쌍": {act: koWord, word: "samples"}, "요청당": {act: koSkip}, "요청마다": {act: koSkip}, "페어": {act: koWord, word: "samples"},
		"이미지": {act: koWord, word: "images"}, "건": {act: koWord, word: "samples"}, "개의": {act: koWord, word: "samples"},
		"줄": {act: koWord, word: "samples"}, "행": {act: koWord, word: "samples"}, "레코드": {act: koWord, word: "samples"}, // rows of a spreadsheet
		"토큰": {act: koWord, word: "tokens"}, "스텝": {act: koWord, word: "steps"}, "스탭": {act: koWord, word: "steps"},
		"이터레이션": {act: koWord, word: "steps"},
		"파라미터":  {act: koWord, word: "params"}, "매개변수": {act: koWord, word: "params"},
		"배치": {act: koWord, word: "batch"}, "배치사이즈": {act: koWord, word: "batch"}, "시퀀스": {act: koWord, word: "seq"},
		"마이크로배치": {act: koWord, word: "micro"}, "마이크로": {act: koWord, word: "micro"},
		"플래시어텐션": {act: koWord, word: "flash"}, "플래시": {act: koWord, word: "flash"}, "어텐션": {act: koSkip},
		"켜고": {act: koSkip}, "켜서": {act: koSkip}, "켜면": {act: koSkip},
		"클라우드": {act: koSkip}, "렌탈": {act: koSkip},
		"속도":  {act: koAsk, ask: AskTime},
		"레이어": {act: koWord, word: "layers"}, "헤드": {act: koWord, word: "heads"}, "랭크": {act: koWord, word: "rank"}, "히든": {act: koWord, word: "hidden"}, "딥스피드": {act: koSkip}, "제로": {act: koWord, word: "zero"},
		"컨텍스트": {act: koWord, word: "seq"}, "시퀀스길이": {act: koWord, word: "seq"},
		"데이터셋": {act: koWord, word: "of"}, "데이터": {act: koSkip},
		// workloads
		"추론": {act: koWord, word: "inference"}, "전사하": {act: koWord, word: "inference"}, "전사할": {act: koWord, word: "inference"}, "전사해": {act: koWord, word: "inference"}, "서빙": {act: koWord, word: "inference"}, "인퍼런스": {act: koWord, word: "inference"},
		"배포": {act: koWord, word: "inference"},
		"생성": {act: koWord, word: "inference"}, "임베딩": {act: koWord, word: "inference"},
		"올리려면": {act: koRun}, "올리면": {act: koRun}, "올려서": {act: koRun}, "올리고": {act: koRun}, "올리는": {act: koRun},
		"파인튜닝": {act: koWord, word: "finetune"}, "파인튜잉": {act: koWord, word: "finetune"}, "풀파인": {act: koWord, word: "finetune"}, "풀파": {act: koWord, word: "finetune"}, "파인투닝": {act: koWord, word: "finetune"}, "파인튠닝": {act: koWord, word: "finetune"}, "파튜": {act: koWord, word: "finetune"}, "풀파튜": {act: koWord, word: "finetune"}, "파인튠": {act: koWord, word: "finetune"}, "미세조정": {act: koWord, word: "finetune"},
		"튜닝": {act: koWord, word: "finetune"}, "풀파인튜닝": {act: koWord, word: "finetune"}, "풀튜닝": {act: koWord, word: "finetune"}, "전체튜닝": {act: koWord, word: "finetune"}, "전체파인튜닝": {act: koWord, word: "finetune"},
		"사전학습": {act: koWord, word: "pretrain"}, "프리트레이닝": {act: koWord, word: "pretrain"}, "프리트레인": {act: koWord, word: "pretrain"},
		"처음부터": {act: koWord, word: "pretrain"}, "스크래치": {act: koWord, word: "pretrain"},
		"학습": {act: koSkip}, "훈련": {act: koSkip}, "트레이닝": {act: koSkip}, "풀": {act: koSkip}, "전체": {act: koSkip},
		"로라": {act: koWord, word: "lora"}, "큐로라": {act: koWord, word: "qlora"},
		"혼합정밀도": {act: koWord, word: "mixed"}, "체크포인팅": {act: koWord, word: "ckpt"},
		"비트": {act: koWord, word: "bit"}, "오프로드": {act: koWord, word: "offload"}, "오프로딩": {act: koWord, word: "offload"},
		// the software, as it is spelled in Hangul
		"언슬로스": {act: koWord, word: "unsloth"}, "토치튠": {act: koWord, word: "torchtune"}, "토치타이탄": {act: koWord, word: "torchtitan"},
		"메가트론": {act: koWord, word: "megatron"}, "허깅페이스": {act: koWord, word: "huggingface"}, "액솔로틀": {act: koWord, word: "axolotl"},
		// counts and scales
		"장": {act: koCounter}, "개": {act: koCounter}, "대": {act: koCounter}, "카드": {act: koCounter}, "짜리": {act: koSkip},
		"만": {act: koScale}, "억": {act: koScale}, "천": {act: koScale}, "백만": {act: koScale}, "천만": {act: koScale},
		"십만": {act: koScale}, "십억": {act: koScale}, "백억": {act: koScale}, "천억": {act: koScale}, "조": {act: koScale},
		// servers
		"서버": {act: koServer}, "우리": {act: koSkip}, "팀": {act: koSkip}, "박스": {act: koServer}, "머신": {act: koServer},
		"머신러닝": {act: koSkip},
		// questions
		"몇": {act: koAsk, ask: AskCount}, "몇장": {act: koAsk, ask: AskCount}, "몇명": {act: koAsk, ask: AskCount}, "몇기가": {act: koAsk, ask: AskCount}, "몇개": {act: koAsk, ask: AskCount},
		"몇대": {act: koAsk, ask: AskCount}, "몇번": {act: koAsk, ask: AskCount},
		"며칠": {act: koAsk, ask: AskTime}, "몇일": {act: koAsk, ask: AskTime}, "몇칠": {act: koAsk, ask: AskTime}, "얼마나": {act: koAsk, ask: AskTime}, "걸려": {act: koAsk, ask: AskTime},
		"걸리": {act: koAsk, ask: AskTime}, "걸릴": {act: koAsk, ask: AskTime}, "소요": {act: koAsk, ask: AskTime},
		"몇시간": {act: koAsk, ask: AskTime}, "시간이": {act: koAsk, ask: AskTime}, "언제": {act: koAsk, ask: AskTime},
		"끝나": {act: koAsk, ask: AskTime}, "끝날": {act: koAsk, ask: AskTime},
		"지연시간": {act: koAsk, ask: AskTime}, "지연": {act: koAsk, ask: AskTime}, "레이턴시": {act: koAsk, ask: AskTime},
		"응답시간": {act: koAsk, ask: AskTime}, "기간": {act: koAsk, ask: AskTime}, "학습기간": {act: koAsk, ask: AskTime},
		"돌릴": {act: koAsk, ask: AskFit}, "돌려": {act: koAsk, ask: AskFit}, "돌아가": {act: koAsk, ask: AskFit},
		"돌리": {act: koAsk, ask: AskFit}, "돌아": {act: koAsk, ask: AskFit},
		"올라가": {act: koAsk, ask: AskFit}, "올라": {act: koAsk, ask: AskFit}, "올릴": {act: koAsk, ask: AskFit},
		"올려": {act: koAsk, ask: AskFit}, "들어가": {act: koAsk, ask: AskFit}, "들어갈": {act: koAsk, ask: AskFit},
		"가능": {act: koAsk, ask: AskFit}, "충분": {act: koAsk, ask: AskFit}, "될까": {act: koAsk, ask: AskFit},
		"되나": {act: koAsk, ask: AskFit}, "돼": {act: koAsk, ask: AskFit}, "메모리": {act: koAsk, ask: AskFit},
		"터지": {act: koAsk, ask: AskFit}, "부족": {act: koAsk, ask: AskFit}, "맞아": {act: koAsk, ask: AskFit},
		"어떤": {act: koAsk, ask: AskWhichGPU}, "무슨": {act: koAsk, ask: AskWhichGPU}, "어느": {act: koAsk, ask: AskWhichGPU},
		"뭐": {act: koAsk, ask: AskWhichGPU}, "추천": {act: koAsk, ask: AskWhichGPU}, "뭘": {act: koAsk, ask: AskWhichGPU},
		"비용": {act: koAsk, ask: AskCost}, "돈": {act: koAsk, ask: AskCost}, "얼마": {act: koAsk, ask: AskCost},
		"가격": {act: koAsk, ask: AskCost}, "견적": {act: koAsk, ask: AskCost},
		// deadlines
		"안에": {act: koWithin}, "안": {act: koWithin}, "이내": {act: koWithin}, "내에": {act: koWithin}, "내로": {act: koWithin},
		"만에": {act: koWithin},
		"까지": {act: koUntil},
		"하루": {act: koDuration, dur: 24}, "이틀": {act: koDuration, dur: 48}, "사흘": {act: koDuration, dur: 72},
		"나흘": {act: koDuration, dur: 96}, "일주일": {act: koDuration, dur: 168}, "한주": {act: koDuration, dur: 168},
		"보름": {act: koDuration, dur: 360}, "한달": {act: koDuration, dur: 720}, "닷새": {act: koDuration, dur: 120},
		"엿새": {act: koDuration, dur: 144}, "열흘": {act: koDuration, dur: 240},
		"반나절": {act: koDuration, dur: 6}, "한나절": {act: koDuration, dur: 12},
		"오늘": {act: koDay}, "내일": {act: koDay}, "모레": {act: koDay}, "월요일": {act: koDay}, "화요일": {act: koDay},
		"수요일": {act: koDay}, "목요일": {act: koDay}, "금요일": {act: koDay}, "토요일": {act: koDay}, "일요일": {act: koDay},
		"시간": {act: koWord, word: "h"}, "일": {act: koWord, word: "d"}, "분": {act: koWord, word: "min"}, "주": {act: koWord, word: "w"},
		"초": {act: koWord, word: "s"}, "달": {act: koWord, word: "month"}, "개월": {act: koWord, word: "month"},
		"걸렸": {act: koTook}, "걸렸는데": {act: koTook}, "걸렸어": {act: koTook}, "걸렸음": {act: koTook},
		"돌리면": {act: koSkip}, "돌려서": {act: koSkip}, "돌려볼": {act: koSkip}, "돌리는": {act: koSkip},
		"돼요": {act: koAsk, ask: AskFit}, "되요": {act: koAsk, ask: AskFit}, "들어감": {act: koAsk, ask: AskFit},
		"ㄱㄴ": {act: koAsk, ask: AskFit}, "되겠": {act: koAsk, ask: AskFit}, "버틸": {act: koAsk, ask: AskFit},
		"빠름": {act: koAsk, ask: AskWhichGPU}, "빠를": {act: koAsk, ask: AskWhichGPU}, "빨라": {act: koAsk, ask: AskWhichGPU},
		"싼": {act: koAsk, ask: AskWhichGPU}, "저렴한": {act: koAsk, ask: AskWhichGPU}, "가성비": {act: koAsk, ask: AskCost},
		"어디": {act: koAsk, ask: AskWhichGPU}, "어디가": {act: koAsk, ask: AskWhichGPU},
		"걸린": {act: koTook}, "걸림": {act: koTook}, "나옴": {act: koTook}, "나왔": {act: koTook}, "나왔고": {act: koTook}, "걸렸었는데": {act: koTook},
		"쌍": {act: koWord, word: "samples"}, "쌍으로": {act: koWord, word: "samples"}, "문서": {act: koWord, word: "samples"},
		"프롬프트": {act: koWord, word: "samples"}, "요청": {act: koWord, word: "samples"}, "대화": {act: koWord, word: "samples"},
		"인퍼런스용": {act: koWord, word: "inference"}, "추론용": {act: koWord, word: "inference"}, "서빙용": {act: koWord, word: "inference"},
		"말고": {act: koSkip}, "아니고": {act: koSkip}, "나왔는데": {act: koTook}, "나왔어": {act: koTook}, "걸렸고": {act: koTook},
		"나오는": {act: koTook}, "나와요": {act: koTook}, "나오는데": {act: koTook},
		"처리했는데": {act: koTook}, "처리했고": {act: koTook}, "처리했어": {act: koTook}, "처리함": {act: koTook}, "처리됐는데": {act: koTook}, "처리되는데": {act: koTook},
		"타이니라마": {act: koWord, word: "tinyllama"}, "파이": {act: koWord, word: "phi"}, "비": {act: koWord, word: "b"},
		"그래픽카드": {act: koSkip}, "뭐씀": {act: koAsk, ask: AskWhichGPU}, "뭐임": {act: koAsk, ask: AskWhichGPU}, "뭐야": {act: koAsk, ask: AskWhichGPU}, "뭐써": {act: koAsk, ask: AskWhichGPU}, "뭐쓰": {act: koAsk, ask: AskWhichGPU},
		"얼마걸림": {act: koAsk, ask: AskTime}, "얼마걸려": {act: koAsk, ask: AskTime}, "얼마나걸려": {act: koAsk, ask: AskTime},
		"얼마걸릴": {act: koAsk, ask: AskTime},
		"싸":    {act: koAsk, ask: AskCost}, "싸요": {act: koAsk, ask: AskCost}, "저렴": {act: koAsk, ask: AskCost},
		"이었는데": {act: koTook}, "였는데": {act: koTook}, "이었어요": {act: koTook}, "였어요": {act: koTook}, "측정됨": {act: koTook},
		"측정":   {act: koSkip},
		"찍혔는데": {act: koTook}, "찍혔어": {act: koTook}, "찍혔고": {act: koTook}, "찍힘": {act: koTook}, "찍었는데": {act: koTook},
		"기가": {act: koWord, word: "gb"}, "기가바이트": {act: koWord, word: "gb"}, "지비": {act: koWord, word: "gb"},
		"당": {act: koWord, word: "per"},
		// fillers people type around a request
		"모델": {act: koSkip}, "으로": {act: koSkip}, "정도": {act: koSkip}, "대략": {act: koSkip}, "약": {act: koSkip},
		"그리고": {act: koSkip}, "혹시": {act: koSkip}, "좀": {act: koSkip}, "같은": {act: koSkip}, "하면": {act: koSkip},
		"하려면": {act: koSkip}, "필요": {act: koSkip}, "필요해": {act: koSkip}, "있어": {act: koSkip}, "있을까": {act: koSkip},
		"수": {act: koSkip}, "지금": {act: koSkip}, "빨리": {act: koSkip}, "제일": {act: koSkip}, "가장": {act: koSkip},
		"빠른": {act: koSkip}, "중": {act: koSkip}, "중에": {act: koSkip}, "써서": {act: koSkip}, "사용": {act: koSkip},
		"기준": {act: koSkip}, "계산": {act: koSkip}, "알려줘": {act: koSkip}, "해줘": {act: koSkip}, "주세요": {act: koSkip},
		"으면": {act: koSkip}, "이면": {act: koSkip}, "면": {act: koSkip}, "에서": {act: koSkip}, "로": {act: koSkip},
		"에": {act: koSkip}, "를": {act: koSkip}, "을": {act: koSkip}, "이": {act: koSkip}, "가": {act: koSkip},
		"은": {act: koSkip}, "는": {act: koSkip}, "의": {act: koSkip}, "도": {act: koSkip}, "랑": {act: koSkip},
		"이랑": {act: koSkip}, "하고": {act: koSkip}, "와": {act: koSkip}, "과": {act: koSkip}, "부터": {act: koSkip},
	}
	maps.Copy(m, koNames)
	return m
})

// koStems are the lexicon's keys, longest first, for prefix matching.
var koStems = sync.OnceValue(func() []string {
	var s []string
	for k := range koLexicon() {
		s = append(s, k)
	}
	sort.Slice(s, func(i, j int) bool {
		if len(s[i]) != len(s[j]) {
			return len(s[i]) > len(s[j])
		}
		return s[i] < s[j]
	})
	return s
})

// koParticles end a noun; stripped when the whole word is not a stem.
var koParticles = []string{"에서는", "에서도", "에서", "으로는", "으로", "이라면", "라면", "이면", "에게", "에는",
	"까지", "부터", "이랑", "하고", "로는", "로", "면", "에", "을", "를", "이", "가", "은", "는", "의", "도", "랑", "와", "과"}

// koStem finds the lexicon entry a Hangul word starts with: the word
// itself, the word less a particle, or its longest known prefix.
func koStem(w string) (string, koEntry, bool) {
	if !strings.ContainsFunc(w, isHangul) {
		return "", koEntry{}, false // every stem is Hangul
	}
	if e, ok := koLexicon()[w]; ok {
		return w, e, true
	}
	for _, p := range koParticles {
		if s := strings.TrimSuffix(w, p); s != w && s != "" {
			if e, ok := koLexicon()[s]; ok {
				return s, e, true
			}
		}
	}
	for _, s := range koStems() {
		if len(s) > 3 && strings.HasPrefix(w, s) || len(s) == 3 && strings.HasPrefix(w, s) && koOneSyllablePrefix(s) && koGrammarRest(w[len(s):]) {
			if short, ok := strings.CutSuffix(s, "이"); ok && copulaRest(w[len(s):]) {
				if e, ok := koLexicon()[short]; ok {
					return short, e, true // "2시간이었어요", "1200시간이고": 시간 + the copula, not the question "시간이"
				}
			}
			return s, koLexicon()[s], true
		}
	}
	return "", koEntry{}, false
}

// koGrammarRest reports whether what follows a one-syllable stem is grammar
// or another known word (a particle, a counter, a unit, a scale: "장으로",
// "만개", "천스텝"), so "만들려고" is not "만" + "들려고".
func koGrammarRest(rest string) bool {
	if rest == "" || slices.Contains(koParticles, rest) {
		return true
	}
	for _, p := range []string{"이면", "으로", "에서", "씩", "만", "짜리", "정도", "쯤", "당", "까지", "부터", "안에", "이내", "동안", "이상", "이하", "이면은",
		"이고", "이며", "인데", "이라", "이니까", "이에요", "입니다", "이요", "임", "씩이면", "이었", "였", "걸렸", "걸림", "나왔", "나옴"} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	if e, ok := koLexicon()[rest]; ok {
		return e.act == koCounter || e.act == koScale || e.act == koWord
	}
	for _, k := range []string{"개", "장", "대", "쌍", "건", "스텝", "토큰", "샘플", "에폭", "시간", "분", "일", "천", "백", "만", "억"} {
		if strings.HasPrefix(rest, k) {
			return true
		}
	}
	return false
}

// koOneSyllablePrefix lists the one-syllable stems that may start a longer
// word ("장으로", "몇장이면"); other one-syllable stems only stand alone
// or before a particle, so "대략" is not "대" + "략".
func koOneSyllablePrefix(s string) bool {
	switch s {
	case "장", "개", "대", "몇", "만", "억", "천", "조", "일", "분", "주", "회", "건":
		return true
	}
	return false
}

// korean1 reads the Hangul word at i.

func (c *canonizer) korean1(i int) int {
	w := c.w(i)
	// "우리 서버 중" — which of our servers
	if w == "우리" && (strings.HasPrefix(c.w(i+1), "서버") || strings.HasPrefix(c.w(i+1), "장비")) {
		c.setAsk(AskWhichServer)
		c.skip(i, i+2)
		return i + 2
	}
	for _, read := range koPhrases {
		if n := read(c, i); n > i {
			return n
		}
	}
	if n := c.koNumber(i); n > i {
		return n
	}
	if d, ok := lookupDataset(w); ok {
		return c.readDataset(d, i, i+1)
	}
	for _, p := range koParticles {
		if d, ok := lookupDataset(strings.TrimSuffix(w, p)); ok && strings.HasSuffix(w, p) {
			return c.readDataset(d, i, i+1)
		}
	}
	stem, e, ok := koStem(w)
	if !ok {
		c.notePreference(w) // "싸게", "저렴하게"
		c.skip(i, i+1)
		return i + 1
	}
	if rest := w[len(stem):]; rest != "" && e.act == koWord && (!koGrammarRest(rest) || koLexicon()[rest].act == koWord) {
		if s2, e2, ok := koStem(rest); ok && e2.act == koWord && s2 != "" && strings.HasPrefix(rest, s2) {
			// "버트라지", "라마큐로라": two words written together
			c.emit(e.word, i, i+1)
			c.out = append(c.out, reqToken{raw: rest, w: e2.word, start: c.in[i].end, end: c.in[i].end})
			return i + 1
		}
	}
	switch e.act {
	case koWord:
		return c.koWordAt(i, w, stem, e)
	case koAsk:
		return c.koAskAt(i, w, stem, e)
	case koSkip:
		return c.koSkipAt(i, w, stem, e)
	case koCounter:
		return c.koCounterAt(i, w, stem, e)
	case koScale:
		return c.koScaleAt(i, w, stem, e)
	case koServer:
		return c.koServerAt(i, w, stem, e)
	case koWithin, koUntil:
		return c.koWithinAt(i, w, stem, e)
	case koDuration:
		return c.koDurationAt(i, w, stem, e)
	case koDay:
		return c.koDayAt(i, w, stem, e)
	case koTook:
		return c.koTookAt(i, w, stem, e)
	case koRun:
		// "gpt-oss-120b 올리려면 h100 몇 장", "h100 두장에 올리면": a model
		// put on GPUs to run; "배치 올리면" raises a setting instead
		if koRaisesModel(c.w(i - 1)) {
			c.runWord = true
		}
		c.skip(i, i+1)
		return i + 1
	}
	return i + 1
}

// koTimeUnit reads 시간/일/분 after a number: "24시간 안에" is a deadline,
// "385시간 걸렸는데" a measured run, otherwise a plain unit.
func (c *canonizer) koTimeUnit(i int, unit string) int {
	during := (strings.HasSuffix(c.w(i), "동안") || strings.HasPrefix(c.w(i+1), "동안") || koAfterWord(c.w(i+1))) && !c.koPastSaid()
	if next, _, ok := koStem(c.w(i + 1)); ok && koLexicon()[next].act == koWithin || during ||
		strings.HasSuffix(c.w(i), "안에") || strings.HasSuffix(c.w(i), "이내") || strings.HasSuffix(c.w(i), "내에") || c.koBareDeadline(i, unit) {
		if len(c.out) > 0 {
			if n, u, ok := reqScanNumber(c.out[len(c.out)-1].w); ok && u == "" {
				d, _ := deadlineUnit(unit)
				a := len(c.out) - 1
				start := c.out[a].start
				c.out = c.out[:a]
				c.deadline = 0
				c.setDeadline(durScale(n.v, d), i, i+1)
				c.deadlineWord = c.text[start:c.in[i].end]
				if koLexicon()[next].act == koWithin || strings.HasPrefix(c.w(i+1), "동안") || koAfterWord(c.w(i+1)) {
					c.deadlineWord = c.text[start:c.in[i+1].end]
					return i + 2
				}
				return i + 1
			}
		}
	}
	if len(c.out) == 0 || !reqStartsNumber(c.out[len(c.out)-1].w) || koTimeAndCost(c.w(i), c.w(i+1)) || c.gpu(c.w(i-1)) && lastW(c.out) == c.w(i-1) {
		// "… 시간?", "시간 얼마나": a unit without a number asks how long;
		// "데이터 1만 시간이랑 비용 둘다": the time asked beside the cost;
		// "4090 시간 얼마나": the number before is a GPU's name
		c.setAsk(AskTime)
		c.skip(i, i+1)
		return i + 1
	}
	if n := len(c.out) - 1; c.w(i+1) == "반" && (unit == "h" || unit == "d" || unit == "min") {
		// "5시간 반": and a half
		if v, u, ok := reqScanNumber(c.out[n].w); ok && u == "" {
			c.out[n].w = reqTrimNum(v.v + 0.5)
			c.emit(unit, i, i+2)
			return c.koAfterTime(i + 2)
		}
	}
	c.emit(unit, i, i+1)
	return c.koAfterTime(i + 1)
}

// koAfterTime reads what follows a time read at i-1: a verb that makes it
// a measured run ("385시간 걸리는", "에폭당 40분이었는데").
func (c *canonizer) koAfterTime(j int) int {
	i := j - 1
	if strings.HasPrefix(c.w(i+1), "걸리는") || strings.HasPrefix(c.w(i+1), "걸리던") {
		c.koTook(i + 1) // "385시간 걸리는 프리트레이닝": a job that takes that long, measured
		return i + 2
	}
	for _, past := range []string{"이었", "였", "걸렸", "걸림", "나왔", "나옴"} {
		if strings.Contains(c.w(i), past) {
			c.koTook(i) // "에폭당 40분이었는데": a measured run
			break
		}
	}
	return i + 1
}

// koDeadline turns "3일 안에" / "금요일까지" into a deadline when the words
// before the particle were a duration or a day (already emitted).
func (c *canonizer) koDeadline(i int, act koAction) {
	if len(c.out) < 1 {
		return
	}
	last := c.out[len(c.out)-1]
	if d, ok := deadlineUnit(last.w); ok && act == koWithin && len(c.out) >= 2 {
		if n, u, ok := reqScanNumber(c.out[len(c.out)-2].w); ok && u == "" {
			start := c.out[len(c.out)-2].start
			c.out = c.out[:len(c.out)-2]
			c.setDeadline(durScale(n.v, d), i, i+1)
			c.deadlineWord = c.text[start:c.in[i].end]
		}
	}
}

func durHours(h float64) time.Duration { return durScale(h, time.Hour) }

// durScale is n units of d, without overflow for absurd n.
func durScale(n float64, d time.Duration) time.Duration {
	v := n * float64(d)
	if v > float64(1<<62) {
		return 1 << 62
	}
	return time.Duration(v)
}

// koNumbers are the native Korean numbers used before counters ("두 장",
// "한대", "여덟 장").
var koNumbers = map[string]int{"한": 1, "하나": 1, "두": 2, "둘": 2, "세": 3, "셋": 3, "석": 3, "네": 4, "넷": 4,
	"다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10, "열두": 12, "열여섯": 16, "스무": 20}

// koDeadlineAt reports whether the time word at i ends a deadline ("3일
// 안에", "한 달 이내", "2개월 내에").
func (c *canonizer) koDeadlineAt(i int) bool {
	w := c.w(i)
	if strings.HasSuffix(w, "안에") || strings.HasSuffix(w, "이내") || strings.HasSuffix(w, "내에") {
		return true
	}
	next, _, ok := koStem(c.w(i + 1))
	return ok && koLexicon()[next].act == koWithin
}

// isDurationUnit reports whether a lexicon word is a unit of time.
func isDurationUnit(w string) bool {
	switch w {
	case "h", "d", "min", "w", "s", "month":
		return true
	}
	return false
}

// koNumber reads a native Korean number, alone ("두 장") or glued to its
// counter ("한장", "두대").
func (c *canonizer) koNumber(i int) int {
	w := c.w(i)
	if i > 0 && strings.HasPrefix(c.w(i-1), "서버") {
		if _, ok := koNumbers[w]; ok {
			if s, e, ok := koStem(c.w(i + 1)); ok && e.act == koCounter && s == "대" {
				c.skip(i, i+2) // "우리 서버 세 대": how many servers, not GPUs
				return i + 2
			}
		}
	}
	for _, n := range []string{"열여섯", "열두", "여덟", "아홉", "다섯", "여섯", "일곱", "하나", "스무", "한", "두", "둘", "세", "셋", "석", "네", "넷", "열"} {
		if !strings.HasPrefix(w, n) {
			continue
		}
		rest := w[len(n):]
		counterNext := false
		if rest == "" {
			if s, e, ok := koStem(c.w(i + 1)); ok && e.act == koCounter && s != "" {
				counterNext = true
			}
			if _, e, ok := koStem(c.w(i + 1)); ok && e.act == koWord && (e.word == "epochs" || e.word == "steps" || isDurationUnit(e.word) && (e.word != "month" || c.koDeadlineAt(i+1))) {
				// "한 에폭에": one epoch; "두 시간 안에", "한 달": a duration
				c.out = append(c.out, reqToken{raw: n, w: strconv.Itoa(koNumbers[n]), start: c.in[i].start, end: c.in[i].end})
				return i + 1
			}
			if !counterNext && n != "하나" {
				return i
			}
			if n == "하나" && !counterNext {
				// "a10 하나", "h100 하나로": one GPU
				start := c.in[i].start
				c.out = append(c.out, reqToken{raw: w, w: "1", start: start, end: start + len(n)},
					reqToken{raw: w, w: "\x00count", start: start + len(n), end: c.in[i].end})
				return i + 1
			}
		} else if (rest == "번" || rest == "회" || rest == "바퀴") && koEpochWord(c.w(i-1)) {
			// "에폭 세번", "에폭 다섯 번": the epochs, counted natively
			c.out = append(c.out, reqToken{raw: n, w: strconv.Itoa(koNumbers[n]), start: c.in[i].start, end: c.in[i].start + len(n)})
			return i + 1
		} else if s, e, ok := koStem(rest); !ok || e.act != koCounter || !strings.HasPrefix(rest, s) {
			return i
		}
		v := strconv.Itoa(koNumbers[n])
		start := c.in[i].start
		c.out = append(c.out, reqToken{raw: n, w: v, start: start, end: start + len(n)})
		if rest != "" {
			c.out = append(c.out, reqToken{raw: rest, w: "\x00count", start: start + len(n), end: c.in[i].end})
		}
		return i + 1
	}
	return i
}

func lastW(toks []reqToken) string {
	if len(toks) == 0 {
		return ""
	}
	return toks[len(toks)-1].w
}

// unitMark is a unit said before its number ("토큰 150억"); itemsMark a
// counted number of items ("5만개"). placeUnits resolves both.
const (
	unitMark  = "\x00unit:"
	itemsMark = "\x00items"
)

// koNumberWord reports whether w starts a Korean number ("만", "천", "한").
func koNumberWord(w string) bool {
	if _, e, ok := koStem(w); ok && e.act == koScale {
		return true
	}
	for n := range koNumbers {
		if strings.HasPrefix(w, n) {
			return true
		}
	}
	return false
}

// placeUnits puts each unit said before its number after it, and names a
// counted number of items by that unit (else samples): "토큰 150억" →
// "15000000000 tokens", "샘플 5만개" → "50000 samples".
func (c *canonizer) placeUnits() {
	var out []reqToken
	pending := ""
	for k := 0; k < len(c.out); k++ {
		t := c.out[k]
		if u, ok := strings.CutPrefix(t.w, unitMark); ok {
			pending = u
			continue
		}
		if t.w == itemsMark {
			u := "samples"
			if pending != "" {
				u, pending = pending, ""
			}
			t.w = u
			out = append(out, t)
			continue
		}
		out = append(out, t)
		if pending == "" {
			continue
		}
		if n, unit, ok := reqScanNumber(t.w); ok && unit == "" && n.v > 0 {
			next := ""
			if k+1 < len(c.out) {
				next = c.out[k+1].w
			}
			if next == itemsMark {
				continue // the counter names it
			}
			after := ""
			if k+2 < len(c.out) {
				after = c.out[k+2].w
			}
			if reqUnitClass(next) <= reqUUnknown || (next == "epochs" || next == "steps") && reqStartsNumber(after) && !c.gpu(after) {
				// "데이터 8만 에폭 3": the epochs word has its own number
				out = append(out, reqToken{raw: pending, w: pending, start: t.end, end: t.end})
			}
			pending = ""
		}
	}
	c.out = out
}

// koCompound adds a number read with a smaller scale to the one before it
// that was read with a larger one: "1만 5천" is 15,000, "2만5천" 25,000.
func (c *canonizer) koCompound(f float64) {
	n := len(c.out)
	if n < 2 {
		return
	}
	cur, prev := c.out[n-1], c.out[n-2]
	pv, pu, ok1 := reqScanNumber(prev.w)
	cv, _, ok2 := reqScanNumber(cur.w)
	if !ok1 || !ok2 || pu != "" || !strings.ContainsAny(c.text[prev.start:prev.end], "천만억조") {
		return // the one before was not read with a Korean scale ("7B 3억": a model's size, then tokens)
	}
	if pv.v >= 10*f && pv.v > cv.v && cur.start-prev.end <= 1 {
		c.out[n-2].w = reqTrimNum(pv.v + cv.v)
		c.out[n-2].end = cur.end
		c.out[n-2].raw = c.text[prev.start:cur.end]
		c.out = c.out[:n-1]
	}
}

func (c *canonizer) koWordAt(i int, w, stem string, e koEntry) int {
	if n := c.koCkptWords(i, e); n > i {
		return n
	}
	if n := c.koRateNoun(i, e); n > i {
		return n
	}
	if e.word == "month" && !c.koDeadlineAt(i) {
		c.skip(i, i+1) // "한 달 비용": a month of serving, not a deadline
		c.serveHours = 730
		return i + 1
	}
	if isDurationUnit(e.word) {
		return c.koTimeUnit(i, e.word)
	}
	if e.word == "of" && (reqStartsNumber(c.w(i+1)) || koNumberWord(c.w(i+1))) && !c.koUnitAfter(i+2) {
		// "데이터셋 30만": a dataset of that many samples, unless a unit
		// follows the number ("데이터셋 100만 샘플", "10억 토큰")
		c.emit("of", i, i+1)
		return c.koUnitFirst(i, "samples")
	}
	if (e.word == "samples" || e.word == "tokens" || e.word == "images" || e.word == "steps") && (!c.numberJustBefore(i) || c.koCountAfter(i)) {
		return c.koUnitFirst(i, e.word)
	}
	if n := c.w(i + 1); (n == "말고" || n == "아니고" || n == "말고요") && koLexicon()[stem].act == koWord {
		c.skip(i, i+2) // "추론 말고 학습": not that
		return i + 2
	}
	if n := c.koTimesCounted(i, e); n > i {
		return n
	}
	if e.word == "epochs" || e.word == "samples" || e.word == "tokens" || e.word == "steps" || e.word == "params" || e.word == "images" {
		// "2에폭" was split as "2" "에폭": glue the unit to its number
		// so "10만 샘플" reads as one amount.
		c.emit(e.word, i, i+1)
		return i + 1
	}
	if e.word == "b" {
		// "70비" is 70B
		if len(c.out) > 0 && reqStartsNumber(lastW(c.out)) && c.out[len(c.out)-1].end == c.in[i].start {
			last := &c.out[len(c.out)-1]
			last.w += "b"
			last.end = c.in[i].end
			last.raw = c.text[last.start:last.end]
		} else {
			c.skip(i, i+1)
		}
		return i + 1
	}
	if e.word == "batch" && !reqStartsNumber(c.w(i+1)) {
		c.skip(i, i+1) // "배치 작게 해도": no size given
		return i + 1
	}
	if (e.word == "gb" || e.word == "/epoch" || e.word == "/step") && len(c.out) > 0 && reqStartsNumber(c.out[len(c.out)-1].w) && e.word == "gb" {
		last := &c.out[len(c.out)-1]
		if !strings.HasSuffix(last.w, "gb") {
			last.w += "gb" // "80기가" is 80gb
		}
		last.end = c.in[i].end
		last.raw = c.text[last.start:last.end]
		before := ""
		if len(c.out) >= 2 {
			before = c.out[len(c.out)-2].w
		}
		if !c.gpu(before) && !c.gpu(c.w(i+1)) && c.gpuByMem != nil {
			// "24기가로 돌아가?": a card of that size stands in
			if v, _, _ := reqScanNumber(last.w); v.v > 0 {
				if id := c.gpuByMem(v.v); id != "" {
					c.standInGPU = fmt.Sprintf("%s: %s", last.raw, id)
					last.w = id
				}
			}
		}
		return i + 1
	}
	if e.word == "gb" {
		c.skip(i, i+1)
		return i + 1
	}
	c.emit(e.word, i, i+1)
	return i + 1
}

func (c *canonizer) koAskAt(i int, w, stem string, e koEntry) int {
	ask := e.ask
	next := c.w(i + 1)
	c.koAskFlags(i, stem)
	if ask == AskFit && strings.HasPrefix(stem, "돌") && koIntent(w, next) {
		// "돌릴 건데 얼마나 걸려", "돌리려고 하는데": running is what
		// is planned, not the question ("딥시크 v3 돌리려면": with no
		// training said, running the model is inference)
		c.runWord = true
		c.skip(i, i+1)
		return i + 1
	}
	if ask == AskFit && c.koRunVerb(i, w, stem) {
		c.runWord = true
	}
	if ask == AskFit && (koAuxiliaryFit(stem, c.w(i-1), c.ask) || strings.HasPrefix(stem, "들어") && c.koIntoOther(i-1)) {
		c.skip(i, i+1)
		return i + 1
	}
	if ask == AskWhichGPU && strings.HasPrefix(stem, "빨") && c.w(i-1) == "얼마나" {
		ask = AskTime // "얼마나 빨라져": how much faster, a time
	}
	if stem == "어느" && strings.HasPrefix(next, "정도") {
		c.skip(i, i+2) // "어느 정도": about, not which
		return i + 2
	}
	if strings.HasPrefix(w, "어느정도") {
		c.skip(i, i+1) // "토큰 속도 어느정도?": about, not which
		return i + 1
	}
	if ask == AskCost && (c.latency || strings.HasPrefix(next, "걸") || strings.HasPrefix(next, "소요") || c.w(i-1) == "에폭당" || c.w(i-1) == "스텝당" || c.w(i-1) == "에포크당" || c.koTookBefore(i) && !c.costWordSaid()) {
		ask = AskTime // "얼마 걸려", "에폭당 얼마?" are how long, not how much
	}
	prev := c.w(i - 1)
	if prev == "각각" || prev == "다" || prev == "총" {
		prev = c.w(i - 2) // "VRAM 각각 얼마나": each one's memory
	}
	if (ask == AskCost || ask == AskTime) && i > 0 && memoryWord(prev) && !(ask == AskCost && prev == "gpu") || ask == AskCost && memoryWord(next) || memoryWord(w) && koMemoryAsk(next) {
		ask = AskFit // "메모리 얼마나 필요해", "vram 얼마", "메모리 사용량": how much memory
		c.memory = true
	}
	if ask == AskCost && c.koBatchBefore(i) {
		ask, c.maxBatch = AskFit, true // "배치 사이즈 얼마로 해야돼": the batch asked, not money
	}
	if ask == AskWhichGPU && strings.HasPrefix(next, "서버") {
		ask = AskWhichServer // "어느 서버", "어떤 서버가 제일 빨라"
	}
	if (ask == AskCost || ask == AskCount) && koRateWord(prev) {
		ask, c.rate, c.runWord = AskTime, true, true // "tokens/s 얼마?", "처리량 얼마": the rate, not its cost
	}
	c.setAsk(ask)
	c.notePreference(stem)
	c.skip(i, i+1)
	if e.ask == AskCount {
		if n, ok := c.koHowMany(i, w); ok {
			return n
		}
	}
	if strings.HasPrefix(w, "몇초") && c.w(i-1) == "스텝당" || w == "몇" && strings.HasPrefix(c.w(i+1), "초") && c.w(i-1) == "스텝당" {
		c.stepAsked = true // "스텝당 몇초": a step's time
	}
	if w == "몇시간" || strings.HasPrefix(w, "몇분") || strings.HasPrefix(w, "몇시") || strings.HasPrefix(w, "몇초") {
		c.ask = AskNone
		c.setAsk(AskTime)
	}
	if e.ask == AskCount {
		// "몇 장": the counter after it asks for a count, it is no count
		if s, e2, ok := koStem(c.w(i + 1)); ok && e2.act == koCounter && s != "" {
			c.skip(i+1, i+2)
			return i + 2
		}
	}
	return i + 1
}

func (c *canonizer) koSkipAt(i int, w, stem string, e koEntry) int {
	if rest := strings.TrimPrefix(w, stem); (stem == "데이터" || stem == "학습데이터") && (rest == "" || rest == "는" || rest == "가" || rest == "도") && (reqStartsNumber(c.w(i+1)) || koNumberWord(c.w(i+1))) && !c.koUnitAfter(i+2) && !c.gpu(c.w(i+1)) {
		c.emit("of", i, i+1)
		return c.koUnitFirst(i, "samples") // "데이터 30만": samples, as "데이터셋 30만"
	}
	c.notePreference(stem)                              // "제일 싸게"
	c.cloud = c.cloud || stem == "클라우드" || stem == "렌탈" // "클라우드에서 하면": rented GPUs, not the team's
	switch stem {
	case "돌리면", "돌려서", "돌려볼", "돌리는":
		// "라마 70B를 H200에서 돌리면 A100보다 얼마나 빨라요?": running the
		// model, which is inference when nothing says training (settleAsk)
		c.runWord = true
	case "학습", "훈련", "트레이닝":
		// "training", read as English "train" is: not listed as skipped
		// (the workload is said by the other words, or shown as assumed).
		return i + 1
	}
	if !slices.Contains(koParticles, w) {
		c.skip(i, i+1) // particles alone are grammar, not words to list
	}
	return i + 1
}

func (c *canonizer) koCounterAt(i int, w, stem string, e koEntry) int {
	if len(c.out) > 0 {
		if n, unit, ok := reqScanNumber(c.out[len(c.out)-1].w); ok && unit == "" && n.v > 1024 {
			// "250만개", "5만 장": that many items, not GPUs
			c.emit(itemsMark, i, i+1)
			return i + 1
		}
		if _, rest, ok := reqScanInt(c.out[len(c.out)-1].w); ok && rest == "" {
			c.out = append(c.out, reqToken{raw: w, w: "\x00count", start: c.in[i].start, end: c.in[i].end})
			return i + 1
		}
	}
	c.skip(i, i+1)
	return i + 1
}

// koCkptWords reads checkpointing asked on and off ("체크포인팅 켰을 때랑
// 껐을 때") or off ("체크포인팅 안 켜면"), or offloading said off ("오프로드
// 없이"), at the option's word i; i when none of these.
func (c *canonizer) koCkptWords(i int, e koEntry) int {
	if e.word == "offload" && koNegatedAt(c.w(i+1), c.w(i+2)) > 0 {
		// "오프로드 없이", "오프로드 안 하고": none
		n := i + 1 + koNegatedAt(c.w(i+1), c.w(i+2))
		c.skip(i, n)
		return n
	}
	if n := c.koCkptOnOff(i); e.word == "ckpt" && n > i {
		// "체크포인팅 켰을 때랑 껐을 때", "체크포인팅 유무", "체크포인팅 on/off":
		// both planned, side by side
		c.compareCkpt = true
		c.skip(i, n)
		return n
	}
	if e.word == "ckpt" && koNegatedAt(c.w(i+1), c.w(i+2)) > 0 {
		// "체크포인팅 안 켜면", "체크포인팅 없이", "체크포인팅 끄고"
		n := i + 1 + koNegatedAt(c.w(i+1), c.w(i+2))
		c.emit("no-ckpt", i, n)
		return n
	}
	return i
}

// koTimesCounted reads epochs or steps counted after the word ("에폭 5번",
// "에폭 열 번"); i when none.
func (c *canonizer) koTimesCounted(i int, e koEntry) int {
	if v, ok := koNumbers[c.w(i+1)]; ok && (e.word == "epochs" || e.word == "steps") && !c.numberJustBefore(i) && (strings.HasPrefix(c.w(i+2), "번") || strings.HasPrefix(c.w(i+2), "회")) {
		// "에폭 열 번", "에폭 세 번": that many epochs in native numbers
		c.emit(strconv.Itoa(v), i+1, i+2)
		c.out = append(c.out, reqToken{raw: c.in[i].raw, w: e.word, start: c.in[i+2].end, end: c.in[i+2].end})
		return i + 3
	}
	if (e.word == "epochs" || e.word == "steps") && reqStartsNumber(c.w(i+1)) {
		if n2, _, ok := koStem(c.w(i + 2)); ok && (n2 == "번" || n2 == "회") || strings.HasPrefix(c.w(i+2), "번") || strings.HasPrefix(c.w(i+2), "회") {
			// "에폭 5번": five epochs
			c.emit(c.w(i+1), i+1, i+2)
			c.out = append(c.out, reqToken{raw: c.in[i].raw, w: e.word, start: c.in[i+2].end, end: c.in[i+2].end})
			return i + 3
		}
	}
	return i
}

// koRunVerb reports whether the fit word at i is running or loading the
// model: "딥시크 v3 돌리려면", "돌릴 수 있나요", "돌아가?", "h200에 올릴 수
// 있어?", "올라가?" (unless training is said, that is inference).
func (c *canonizer) koRunVerb(i int, w, stem string) bool {
	switch {
	case strings.HasPrefix(stem, "돌") && (strings.Contains(w, "려면") || strings.HasSuffix(w, "리면")):
		return true
	case strings.HasPrefix(stem, "올") && koRaisesModel(c.w(i-1)):
		return true
	}
	return strings.HasPrefix(stem, "돌") && (strings.HasPrefix(c.w(i+1), "수") || strings.HasPrefix(stem, "돌아가") ||
		strings.HasPrefix(strings.TrimPrefix(w, stem), "수")) // "돌릴수 있어요", spaced or not
}

// koHowMany reads what 몇 at i asks when it is not how many GPUs: memory
// ("몇기가", "몇 GB"), money ("몇 달러", "몇 만원"), tokens or a rate, a
// time ("몇 시간"); false for a count of GPUs.
func (c *canonizer) koHowMany(i int, w string) (int, bool) {
	if n, ok := c.koRateComesOut(i, w); ok {
		return n, true
	}
	if strings.HasPrefix(w, "몇기가") || strings.HasPrefix(w, "몇기") && strings.Contains(w, "바이트") {
		// "vram 몇기가 필요해": how much memory, the unit glued to 몇
		c.ask = AskNone
		c.setAsk(AskFit)
		c.memory = true
		return i + 1, true
	}
	// "몇 기가", "몇 GB": how much memory, not how many GPUs
	if s, e2, ok := koStem(c.w(i + 1)); ok && e2.act == koWord && e2.word == "gb" && s != "" || strings.HasPrefix(c.w(i+1), "gb") || strings.HasPrefix(c.w(i+1), "gib") {
		c.ask = AskNone
		c.setAsk(AskFit)
		c.memory = true
		c.skip(i+1, i+2)
		return i + 2, true
	}
	// "몇 달러", "몇 원", "몇 만원": money, not how many GPUs
	if n := c.w(i + 1); strings.HasPrefix(n, "달러") || strings.HasPrefix(n, "원") || strings.HasPrefix(n, "만원") || strings.HasPrefix(n, "불") {
		c.ask = AskNone
		c.setAsk(AskCost)
		c.skip(i+1, i+2)
		return i + 2, true
	}
	if n, ok := c.koHowManyTokens(i, w); ok {
		return n, true
	}
	// "몇 시간", "몇 분", "몇 일", "몇 주": how long, not how many GPUs
	if koTimeUnitWord(c.w(i + 1)) {
		c.ask = AskNone
		c.setAsk(AskTime)
		c.skip(i+1, i+2)
		return i + 2, true
	}
	return 0, false
}
