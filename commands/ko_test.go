package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/store"
)

// render is r as the terminal prints it.
func render(t *testing.T, r *Reply) string {
	t.Helper()
	var b bytes.Buffer
	if err := RenderText(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The reply language: Request.Lang when set, else Korean for a request
// written in Korean, else English; the reply names it.
func TestReplyLanguage(t *testing.T) {
	for _, tc := range []struct {
		lang i18n.Lang
		text string
		want i18n.Lang
	}{
		{"", "bert-base 10 epochs of 2.5M samples on h100x2", i18n.EN},
		{"", "bert-base 10 에폭 250만 샘플 h100 2장", i18n.KO},
		{i18n.EN, "bert-base 10 에폭 250만 샘플 h100 2장", i18n.EN}, // a Slack user set to English
		{i18n.KO, "bert-base 10 epochs of 2.5M samples on h100x2", i18n.KO},
		{"", "help", i18n.EN},
	} {
		r, err := New(Deps{}).Dispatch(context.Background(), Request{User: "U1", Text: tc.text, Lang: tc.lang})
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		if r.Lang != tc.want {
			t.Errorf("%q with Lang %q: answered in %q, want %q", tc.text, tc.lang, r.Lang, tc.want)
		}
	}
}

// A Korean plan card: headings, verdicts, fields and the recommendation
// table in Korean; model and GPU names, bf16, DDP, MFU as they are.
func TestKoreanPlanCardGolden(t *testing.T) {
	const text = "bert-base 10 에폭 250만 샘플 h100 2장"
	r, err := New(Deps{}).Dispatch(context.Background(), Request{User: "U1", Text: text, Lang: i18n.KO})
	if err != nil {
		t.Fatal(err)
	}
	got := render(t, r)
	for _, w := range []string{"bert-base", "2× H100 SXM5 80GB", "이렇게 읽었어요:", "✅ 메모리 OK", "총 소요 시간", "에폭당", "처리량", "비용", "팀 서버에서", "클라우드 옵션",
		"가장 빠름", "가장 저렴", "균형", "GPU당 메모리", "가정", "250만", "시간"} {
		if !strings.Contains(got, w) {
			t.Errorf("the Korean card lacks %q:\n%s", w, got)
		}
	}
	for _, w := range []string{"Read as:", "Total time", "Per epoch", "Throughput", "Recommendations", "fastest", "balanced", "Assumptions", "fits", "memory per GPU", "Share"} {
		if strings.Contains(got, w) {
			t.Errorf("the Korean card says %q in English:\n%s", w, got)
		}
	}
	golden(t, "testdata/plan.ko.golden.txt", []byte(got))
	// The same request with English asked for is the English card.
	en, err := New(Deps{}).Dispatch(context.Background(), Request{User: "U1", Text: text, Lang: i18n.EN})
	if err != nil {
		t.Fatal(err)
	}
	if txt := render(t, en); !strings.Contains(txt, "Read as:") || !strings.Contains(txt, "Total time") || strings.Contains(txt, "총 소요 시간") {
		t.Errorf("English asked for, the card is not English:\n%s", txt)
	}
}

// --json keeps English field names and says the text's language.
func TestJSONSaysLang(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.EN, i18n.KO} {
		r, err := New(Deps{}).Dispatch(context.Background(), Request{User: "U1", Text: "bert-base 10 epochs of 2.5M samples on h100x2", Lang: l})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := RenderJSON(&b, r); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v\n%s", l, err, b.String())
		}
		if m["lang"] != string(l) || m["read_as"] == nil || m["plans"] == nil && m["recommendations"] == nil {
			t.Errorf("%s: JSON lang %v, keys %v", l, m["lang"], keysOf(m))
		}
	}
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A Korean reservation, and a Korean conflict: the announcement, its
// buttons, times in Korean (내일 09:00), the holder and the earliest slot.
func TestKoreanReservationAndConflictGolden(t *testing.T) {
	s, _ := newReservations(t)
	ctx := context.Background()
	r, err := s.Dispatch(ctx, Request{User: "U0001", Channel: "C1", Text: "server-a 2장 내일 오전 9시부터 3시간 예약", Lang: i18n.KO})
	if err != nil {
		t.Fatal(err)
	}
	rv := r.Data.(store.Reservation)
	got := strings.ReplaceAll(render(t, r), rv.ID, "server-a-<id>")
	for _, w := range []string{"GPU 예약됨: server-a", "내일 09:00", "내일 12:00", "1시간 연장", "반납", "A100"} {
		if !strings.Contains(got, w) {
			t.Errorf("the Korean reservation lacks %q:\n%s", w, got)
		}
	}
	if len(r.Actions) != 2 || r.Actions[0].Label != "1시간 연장" || r.Actions[1].Label != "반납" {
		t.Errorf("buttons %+v", r.Actions)
	}
	golden(t, "testdata/reserve.ko.golden.txt", []byte(got))

	c, err := s.Dispatch(ctx, Request{User: "U0002", Channel: "C1", Text: "reserve gpus 0-3 on server-a from tomorrow 10:00 for 2h", Lang: i18n.KO})
	if err != nil {
		t.Fatal(err)
	}
	if c.Refused != "conflict" {
		t.Fatalf("not a conflict: %+v", c)
	}
	got = strings.ReplaceAll(render(t, c), rv.ID, "server-a-<id>")
	for _, w := range []string{"비어 있지 않음: server-a", "<@U0001> 님이 내일 12:00까지 사용 중", "가장 빠른 빈 시간", "이 시간으로 예약"} {
		if !strings.Contains(got, w) {
			t.Errorf("the Korean conflict lacks %q:\n%s", w, got)
		}
	}
	golden(t, "testdata/conflict.ko.golden.txt", []byte(got))
}

// Times and durations the way a Korean reader says them.
func TestKoreanTimes(t *testing.T) {
	seoul, _ := time.LoadLocation("Asia/Seoul")
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, seoul) // a Wednesday
	ko := i18n.For(i18n.KO)
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{time.Date(2026, 11, 25, 19, 28, 0, 0, seoul), "오늘 19:28"},
		{time.Date(2026, 11, 26, 9, 0, 0, 0, seoul), "내일 09:00"},
		{time.Date(2026, 11, 27, 18, 0, 0, 0, seoul), "금요일 18:00"},
		{time.Date(2026, 12, 24, 15, 4, 0, 0, seoul), "12월 24일 15:04"},
	} {
		if got := whenIn(ko, tc.t, now, seoul); got != tc.want {
			t.Errorf("whenIn(%v) = %q, want %q", tc.t, got, tc.want)
		}
		if got, want := whenIn(nil, tc.t, now, seoul), when(tc.t, now, seoul); got != want {
			t.Errorf("English whenIn %q != when %q", got, want)
		}
	}
	for d, want := range map[time.Duration]string{3 * time.Hour: "3시간", 36 * time.Hour: "1일 12시간", 90 * time.Minute: "1시간 30분", 0: "0분"} {
		if got := durationIn(ko, d); got != want {
			t.Errorf("durationIn(%v) = %q, want %q", d, got, want)
		}
		if got := durationIn(nil, d); got != formatDuration(d) {
			t.Errorf("English durationIn(%v) = %q", d, got)
		}
	}
}

// A terminal lines up Korean labels and table cells: Hangul takes two
// columns.
func TestKoreanTableLinesUp(t *testing.T) {
	tb := &Table{Columns: []string{"선택", "hardware"}, Rows: [][]string{{"가장 빠름", "x"}, {"balanced", "y"}}}
	lines := tb.Lines(false)
	if got := []string{lines[1][:strings.Index(lines[1], "x")], lines[2][:strings.Index(lines[2], "y")]}; displayWidth(got[0]) != displayWidth(got[1]) {
		t.Errorf("columns do not line up:\n%s", strings.Join(lines, "\n"))
	}
}

// The store's and the inventory's refusals read in Korean for a Korean
// reply, and as before in English.
func TestKoreanStoreRefusals(t *testing.T) {
	s, _ := newReservations(t)
	ctx := context.Background()
	for _, tc := range []struct{ text, ko, en string }{
		{"reserve 9 on server-a for 2h", "GPU가 4개뿐인데 9개를 요청했어요", "server-a has 4 GPUs; 9 asked"},
		{"reserve 2 on server-a for 200h", "최대 72h보다 길어요", "200h is longer than the 72h a booking may last on server-a"},
		{"reserve gpus 7 on server-a for 2h", "server-a에 없어요", "GPU 7 does not exist on server-a"},
		{"reserve 2 on server-z for 2h", "server-z`라는 서버는 없어요", "unknown server `server-z`"},
	} {
		for _, l := range []i18n.Lang{i18n.KO, i18n.EN} {
			_, err := s.Dispatch(ctx, Request{User: "U0001", Channel: "C1", Text: tc.text, Lang: l})
			ue := ExplainIn(i18n.For(l), err)
			want := tc.ko
			if l == i18n.EN {
				want = tc.en
			}
			if ue == nil || !strings.Contains(ue.Msg, want) {
				t.Errorf("%q in %s: %v, want %q", tc.text, l, err, want)
			}
		}
	}
}

// An inference card in Korean says its rates in Korean units, as its
// summary line does: 시퀀스/s, 이미지/s, 토큰/s, not the English words.
func TestKoreanInferenceRates(t *testing.T) {
	for text, want := range map[string]string{
		"bert-large 추론 seq 128 배치 8 fp16 tensorrt a100 한 장": "시퀀스/s (",
		"resnet-50 추론 배치 64 t4 한 장":                         "이미지/s (",
		"라마3 8b 추론 h100 한 장":                                "토큰/s (",
	} {
		r, err := New(Deps{}).Dispatch(context.Background(), Request{User: "U1", Text: text})
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		out := render(t, r)
		if !strings.Contains(out, want) || strings.Contains(out, "sequences/s") || strings.Contains(out, "images/s") || strings.Contains(out, " tokens/s") {
			t.Errorf("%q: the card does not say its rate in Korean (%s):\n%s", text, want, out)
		}
	}
}
