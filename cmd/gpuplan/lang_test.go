package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// --lang picks the answer's language on every command, before or after
// the request; unset, the terminal's locale does, and with none a request
// written in Korean is answered in Korean. JSON keeps English field names
// and says the language in "lang".
func TestLangFlag(t *testing.T) {
	const ko = "bert-base 10 에폭 250만 샘플 h100 2장"
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string // a word only the wanted language's card has
	}{
		{nil, []string{"plan", "--lang", "ko", ko}, "총 소요 시간"},
		{nil, []string{"plan", ko, "--lang=ko"}, "총 소요 시간"},
		{nil, []string{"plan", ko}, "총 소요 시간"}, // no locale: the request's language
		{map[string]string{"LANG": "en_US.UTF-8"}, []string{"plan", ko}, "Total time"},
		{map[string]string{"LANG": "C.UTF-8"}, []string{"plan", ko}, "총 소요 시간"}, // C names no language
		{map[string]string{"LC_ALL": "ko_KR.UTF-8"}, []string{"plan", "bert-base 10 epochs of 2.5M samples on h100x2"}, "총 소요 시간"},
		{map[string]string{"LC_ALL": "ko_KR.UTF-8"}, []string{"plan", "--lang", "en", ko}, "Total time"},
		{nil, []string{"plan", "bert-base 10 epochs of 2.5M samples on h100x2"}, "Total time"},
	} {
		code, out, errOut := runCLI(t, tc.env, tc.args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v %q: exit %d, want %q in:\n%.600s%s", tc.env, tc.args, code, tc.want, out, errOut)
		}
	}
	if code, _, errOut := runCLI(t, nil, "plan", "--lang", "fr", ko); code != 2 || !strings.Contains(errOut, "ko or en") {
		t.Errorf("--lang fr: exit %d %s", code, errOut)
	}
	code, out, errOut := runCLI(t, nil, "plan", "--json", "--lang", "ko", ko)
	var m map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &m) != nil || m["lang"] != "ko" || m["read_as"] == nil {
		t.Errorf("plan --json --lang ko: exit %d lang %v\n%.300s%s", code, m["lang"], out, errOut)
	}

	// A Korean reservation through gpuplan run, and its refusal in Korean.
	env := map[string]string{"GPUPLAN_DB": filepath.Join(t.TempDir(), "gpuplan.db")}
	if code, out, errOut := runCLI(t, env, "run", "--lang", "ko", "--as", "alice", "server-a 2장 내일 오전 9시부터 3시간 예약"); code != 0 ||
		!strings.Contains(out, "GPU 예약됨: server-a") || !strings.Contains(out, "내일 09:00") {
		t.Errorf("Korean reservation: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, env, "extend", "server-h 1h", "--as", "alice", "--lang", "ko"); code == 0 || !strings.Contains(errOut, "연장할 예약이 없어요") {
		t.Errorf("Korean refusal: exit %d\n%s%s", code, out, errOut)
	}
}
