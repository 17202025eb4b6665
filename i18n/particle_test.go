package i18n

import (
	"fmt"
	"strings"
	"testing"
)

// The particle a word takes, by the word's last sound: Hangul by its
// batchim, numbers by their Sino-Korean reading, acronyms by their
// letters' names, English words by how Korean writes them.
func TestParticleByLastSound(t *testing.T) {
	for _, tc := range []struct {
		word                 string
		eun, i, eul, gwa, ro string // 은/는, 이/가, 을/를, 과/와, 으로/로
	}{
		// Hangul
		{"모델", "은", "이", "을", "과", "로"},      // ㄹ: 로
		{"서버", "는", "가", "를", "와", "로"},      // no batchim
		{"시간", "은", "이", "을", "과", "으로"},     // ㄴ
		{"12.8시간", "은", "이", "을", "과", "으로"}, // a Korean unit after a number
		{"250만", "은", "이", "을", "과", "으로"},
		{"서울", "은", "이", "을", "과", "로"},
		{"파인튜닝", "은", "이", "을", "과", "으로"}, // ㅇ
		{"가정", "은", "이", "을", "과", "으로"},
		// numbers, read the Sino-Korean way
		{"0", "은", "이", "을", "과", "으로"},            // 영
		{"1", "은", "이", "을", "과", "로"},             // 일
		{"2", "는", "가", "를", "와", "로"},             // 이
		{"3", "은", "이", "을", "과", "으로"},            // 삼
		{"4", "는", "가", "를", "와", "로"},             // 사
		{"5", "는", "가", "를", "와", "로"},             // 오
		{"6", "은", "이", "을", "과", "으로"},            // 육
		{"7", "은", "이", "을", "과", "로"},             // 칠
		{"8", "은", "이", "을", "과", "로"},             // 팔
		{"9", "는", "가", "를", "와", "로"},             // 구
		{"10", "은", "이", "을", "과", "으로"},           // 십
		{"12", "는", "가", "를", "와", "로"},            // 십이
		{"100", "은", "이", "을", "과", "으로"},          // 백
		{"4090", "은", "이", "을", "과", "으로"},         // 사천구십
		{"4095", "는", "가", "를", "와", "로"},          // 사천구십오
		{"1,000", "은", "이", "을", "과", "으로"},        // 천
		{"20000", "은", "이", "을", "과", "으로"},        // 이만
		{"300000000", "은", "이", "을", "과", "으로"},    // 삼억
		{"2000000000000", "는", "가", "를", "와", "로"}, // 이조
		{"1.5", "는", "가", "를", "와", "로"},           // 일 점 오
		{"0.1", "은", "이", "을", "과", "로"},           // 영 점 일
		{"12.8", "은", "이", "을", "과", "로"},          // 십이 점 팔
		{"42%", "는", "가", "를", "와", "로"},
		{"$64.06", "는", "가", "를", "와", "로"}, // 64.06달러
		{"$10", "는", "가", "를", "와", "로"},    // 퍼센트
		// model and GPU ids end in a number or a letter
		{"h100", "은", "이", "을", "과", "으로"},
		{"H200", "은", "이", "을", "과", "으로"},
		{"a100-sxm4-80gb", "는", "가", "를", "와", "로"}, // 기가/비
		{"rtx-4090", "은", "이", "을", "과", "으로"},
		{"fp8", "은", "이", "을", "과", "로"},
		{"bf16", "은", "이", "을", "과", "으로"},
		{"int4", "는", "가", "를", "와", "로"},
		{"zero3", "은", "이", "을", "과", "으로"},
		{"gpt2", "는", "가", "를", "와", "로"},
		{"llama3-8b", "는", "가", "를", "와", "로"}, // 비
		{"mistral-7b", "는", "가", "를", "와", "로"},
		{"server-h", "는", "가", "를", "와", "로"}, // 에이치
		{"server-b", "는", "가", "를", "와", "로"},
		{"server-l", "은", "이", "을", "과", "로"},  // 엘
		{"server-m", "은", "이", "을", "과", "으로"}, // 엠
		// time units after a number are said as the unit
		{"2h", "은", "이", "을", "과", "으로"}, // 2시간
		{"36 h", "은", "이", "을", "과", "으로"},
		{"3d", "은", "이", "을", "과", "로"}, // 3일
		{"1d12h", "은", "이", "을", "과", "으로"},
		// acronyms read as letters
		{"GPU", "는", "가", "를", "와", "로"},
		{"DDP", "는", "가", "를", "와", "로"},
		{"NCCL", "은", "이", "을", "과", "로"}, // 엘
		{"OOM", "은", "이", "을", "과", "으로"}, // 엠
		{"gpt", "는", "가", "를", "와", "로"},
		{"fsdp", "는", "가", "를", "와", "로"},
		{"llm", "은", "이", "을", "과", "으로"},
		{"vLLM", "은", "이", "을", "과", "으로"},
		{"hf", "는", "가", "를", "와", "로"},
		{"UTC", "는", "가", "를", "와", "로"},
		{"IB", "는", "가", "를", "와", "로"},
		{"LR", "은", "이", "을", "과", "로"}, // 알
		// English words, as Korean writes them
		{"model", "은", "이", "을", "과", "로"},       // 모델
		{"mixtral", "은", "이", "을", "과", "로"},     // 믹스트랄
		{"server", "는", "가", "를", "와", "로"},      // 서버
		{"transformer", "는", "가", "를", "와", "로"}, // 트랜스포머
		{"bert-base", "는", "가", "를", "와", "로"},   // 베이스
		{"bert-large", "는", "가", "를", "와", "로"},  // 라지
		{"bert", "는", "가", "를", "와", "로"},        // 버트
		{"pipeline", "은", "이", "을", "과", "으로"},   // 파이프라인
		{"scale", "은", "이", "을", "과", "로"},       // 스케일
		{"time", "은", "이", "을", "과", "으로"},       // 타임
		{"qwen", "은", "이", "을", "과", "으로"},       // 큐웬
		{"lion", "은", "이", "을", "과", "으로"},       // 라이온
		{"sglang", "은", "이", "을", "과", "으로"},     // 에스지랭
		{"dataset", "은", "이", "을", "과", "으로"},    // 데이터셋
		{"step", "은", "이", "을", "과", "으로"},       // 스텝
		{"stack", "은", "이", "을", "과", "으로"},      // 스택
		{"spec", "은", "이", "을", "과", "으로"},       // 스펙
		{"nvlink", "는", "가", "를", "와", "로"},      // 엔브이링크
		{"flash", "는", "가", "를", "와", "로"},       // 플래시
		{"squad", "는", "가", "를", "와", "로"},       // 스쿼드
		{"eager", "는", "가", "를", "와", "로"},       // 이거
		{"LoRA", "는", "가", "를", "와", "로"},        // 로라
		{"ZeRO", "는", "가", "를", "와", "로"},        // 제로
		{"PyTorch", "는", "가", "를", "와", "로"},     // 파이토치
		{"GiB", "는", "가", "를", "와", "로"},         // 기비
		{"adamw", "는", "가", "를", "와", "로"},       // 아담더블유
		{"Asia/Seoul", "은", "이", "을", "과", "로"},  // 서울
		{"llama.cpp", "는", "가", "를", "와", "로"},   // 씨피피
		// what is not said is not read
		{"`model`", "은", "이", "을", "과", "로"},
		{"server-h (4× H200)", "는", "가", "를", "와", "로"}, // the gloss is not the word
		{"(cloud)", "는", "가", "를", "와", "로"},
	} {
		for _, c := range []struct{ written, want string }{
			{"는", tc.eun}, {"은", tc.eun}, {"가", tc.i}, {"를", tc.eul}, {"와", tc.gwa}, {"로", tc.ro}, {"으로", tc.ro},
		} {
			if got := Particle(tc.word, c.written); got != c.want {
				t.Errorf("%s + %s: %s, want %s", tc.word, c.written, got, c.want)
			}
		}
	}
}

// A word whose sound is not known keeps the particle as written, and a
// word that is not a particle is returned as it is.
func TestParticleUnknown(t *testing.T) {
	for _, w := range []string{"", "…", "🚀", "×", "ㅋㅋ", "0 9 * * *", "C++"} {
		if got := Particle(w, "는"); got != "는" {
			t.Errorf("%q + 는: %s", w, got)
		}
	}
	if got := Particle("model", "에서"); got != "에서" {
		t.Errorf("에서 is one form for every word: %s", got)
	}
}

// The longer particles and the both-forms spellings.
func TestParticleForms(t *testing.T) {
	for _, tc := range []struct{ word, written, want string }{
		{"서버", "이에요", "예요"}, {"모델", "예요", "이에요"},
		{"12.8시간", "면", "이면"}, {"2일", "면", "이면"}, {"2h", "면", "이면"}, {"1.5", "이면", "면"},
		{"bert", "라서", "라서"}, {"model", "라서", "이라서"},
		{"h100", "라는", "이라는"}, {"GPU", "이라고", "라고"},
		{"model", "은(는)", "은"}, {"GPU", "은(는)", "는"}, {"cron", "이(가)", "이"}, {"0 9 * * 1", "을(를)", "을"}, {"0 9 * * *", "을(를)", "을(를)"},
		{"모델", "(으)로", "로"}, {"fp16", "(으)로", "으로"}, {"server-a", "(으)로", "로"},
		{"h100", "로는", "으로는"}, {"a100", "와의", "과의"}, {"gpt", "과도", "와도"},
	} {
		if got := Particle(tc.word, tc.written); got != tc.want {
			t.Errorf("%s + %s: %s, want %s", tc.word, tc.written, got, tc.want)
		}
	}
}

// Tf chooses the particle after an argument and after the backtick that
// closes it; the catalogue's own words stay as they are.
func TestTfChoosesParticles(t *testing.T) {
	ko := For(KO)
	for _, tc := range []struct {
		key  string
		args []any
		want string
	}{
		{"I don't understand `%s`", []any{"model"}, "`model`은 이해하지 못했어요"},
		{"I don't understand `%s`", []any{"gpt"}, "`gpt`는 이해하지 못했어요"},
		{"I don't understand `%s`", []any{"서울"}, "`서울`은 이해하지 못했어요"},
		{"extend `%s` by how much? add a duration (`2h`) or an end (`until 20:00`)", []any{"server-h-3"},
			"`server-h-3`을 얼마나 연장할까요? 기간(`2h`)이나 종료 시각(`until 20:00`)을 붙여 주세요"},
		{"`%s` and `%s` disagree: the context is the prompt plus the output (%d)", []any{"ctx 8k", "gen 256", 8448},
			"`ctx 8k`와 `gen 256`이 맞지 않아요: context는 프롬프트 + 출력이에요 (8,448)"},
		{"`%s` and `%s` disagree: the context is the prompt plus the output (%d)", []any{"ctx 4096", "prompt 3000", 4096},
			"`ctx 4096`과 `prompt 3000`이 맞지 않아요: context는 프롬프트 + 출력이에요 (4,096)"},
		// a duration the reply writes in Korean: 시간이면
		{"; %d× %s does it for %s", []any{4, "H100", "12.8시간"}, "; 4× H100 구성으로도 12.8시간이면 충분"},
		{"; %d× %s does it for %s", []any{4, "H100", "$12.5"}, "; 4× H100 구성으로도 $12.5면 충분"},
	} {
		if got := ko.Tf(tc.key, tc.args...); got != tc.want {
			t.Errorf("%q %v:\n got %s\nwant %s", tc.key, tc.args, got, tc.want)
		}
	}
	// English is fmt, untouched.
	if got := For(EN).Tf("I don't understand `%s`", "model"); got != "I don't understand `model`" {
		t.Errorf("English: %s", got)
	}
}

// An argument carrying a mark of its own cannot move the marks: the text
// is formatted as the catalogue wrote it.
func TestTfArgumentWithAMark(t *testing.T) {
	arg := "x" + string(markClose) + "는" + string(markOpen)
	got := For(KO).Tf("I don't understand `%s`", arg)
	if want := "`" + arg + "`는 이해하지 못했어요"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A marked text is formatted exactly as the catalogue formats its key:
// for every entry, with arguments of the verbs' kinds, the output with
// the marks removed is the catalogue's. (The marks only show where the
// arguments are; were the catalogue to read its texts differently from
// a format string, the particles would be fixed in a different text.)
func TestMarkedTextFormatsAsTheCatalogue(t *testing.T) {
	ko := For(KO)
	n := 0
	for key, m := range ko.marked {
		args := sampleArgs(key)
		want := ko.p.Sprintf(key, args...)
		got := strings.NewReplacer(string(markOpen), "", string(markClose), "").Replace(ko.p.Sprintf(m.text, args...))
		if got != want {
			t.Errorf("%q: marked text formats as\n%s\nthe catalogue as\n%s", key, got, want)
		}
		n++
	}
	if n < 50 {
		t.Errorf("only %d catalogue texts have a particle after an argument; the scan misses some", n)
	}
}

// sampleArgs are arguments for a format's verbs: a word for %s, %v and %q,
// a number for the rest.
func sampleArgs(format string) []any {
	var args []any
	for _, v := range strings.Fields(verbs(format)) {
		switch v[len(v)-1] {
		case 's', 'v', 'q':
			args = append(args, "server-h")
		case 'd':
			args = append(args, 12345)
		default:
			args = append(args, 12.5)
		}
	}
	return args
}

// Only a verb a particle follows is marked, and %% and %d가지 are not.
func TestMarkParticles(t *testing.T) {
	o, c := string(markOpen), string(markClose)
	for in, want := range map[string]string{
		"`%s`는 %s예요":           "`" + o + "%s" + c + "`는 " + o + "%s" + c + "예요",
		"%d가지 중 %d가지":          "%d가지 중 %d가지",
		"%.0f%%는":              "%.0f%%는",
		"%[2]s로 %[1]d장":        o + "%[2]s" + c + "로 %[1]d장",
		"%s에는 %s이상":            "%s에는 %s이상",
		"cron 스펙 `%s`이(가) 틀려요": "cron 스펙 `" + o + "%s" + c + "`이(가) 틀려요",
	} {
		got, n := markParticles(in)
		if got != want || n != strings.Count(want, o) {
			t.Errorf("%q: %q (%d marks), want %q", in, got, n, want)
		}
	}
}

func ExamplePrinter_Tf_particles() {
	ko := For(KO)
	for _, w := range []string{"gpt", "model", "server-b", "h100"} {
		fmt.Println(ko.Tf("I don't understand `%s`", w))
	}
	// Output:
	// `gpt`는 이해하지 못했어요
	// `model`은 이해하지 못했어요
	// `server-b`는 이해하지 못했어요
	// `h100`은 이해하지 못했어요
}
