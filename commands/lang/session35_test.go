package lang

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// TestProbe32Bookings: everyday GPU-sharing talk from blind probe 32 —
// "내일 오후까지" is until the end of tomorrow's working day (it was a
// window inside tomorrow afternoon), "for the weekend" is Saturday and
// Sunday, "써야 하는데 가능할까요" books, "빈 거 있나요" and someone's hold
// asked about ("김대리가 잡은 gpu 언제 끝나요?") are status, and "free up
// the GPU I reserved" releases the asker's own.
func TestProbe32Bookings(t *testing.T) {
	cat := planner.DefaultCatalog()
	// a Wednesday morning: the weekend and next Monday are ahead
	env := Env{Catalog: cat, Servers: teamServers(t, cat), Now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)}
	for text, want := range map[string]string{
		"server-a GPU 2장 내일 오후까지 쓸게요":                    "reserve 2 on server-a until tomorrow",
		"server-a 1장 오늘 밤까지 쓸게요":                         "reserve 1 on server-a until today midnight",
		"server-a 1장 내일 오전까지 쓸게요":                        "reserve 1 on server-a until tomorrow noon",
		"server-a 1장 오후까지 쓸게요":                           "reserve 1 on server-a until today",
		"Book 4 GPUs on server-a for the weekend please": "reserve 4 on server-a from sat 0:00 until sun midnight",
		"server-a 8장 다음주 월요일부터 3일 풀로 써야하는데 가능할까요":        "reserve 8 on server-a from mon for 72h",
		"server-v V100 빈거 있나요?":                          "status server-v",
		"김대리가 잡은 gpu 언제 끝나요?":                            "status ",
		"can you free up the GPU I reserved":             "release all",
		"server-a 하나만 오늘 저녁까지 빌려주세요":                     "reserve 1 on server-a until today",
	} {
		cr, ok := ReadCommand(env, text)
		if got := cr.Name + " " + cr.Args; !ok || got != want {
			t.Errorf("%q: read as %q (%v), want %q", text, got, ok, want)
		}
	}
}
