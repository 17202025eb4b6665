package lang

import (
	"testing"

	"github.com/gpuplan/gpuplan/planner"
)

// A server named in Latin letters and said in Hangul is read as the
// server; a common word with the same consonants is not, nor a name two
// servers share the sound of.
func TestHangulServerNames(t *testing.T) {
	var servers []planner.Hardware
	for _, n := range []string{"alpha", "beta", "gamma", "node", "dev", "atlas", "dev-3090", "server-h"} {
		servers = append(servers, planner.Hardware{Server: n, Count: 4})
	}
	for in, want := range map[string]string{
		"베타 지금 비어있으면 2장": "beta 지금 비어있으면 2장",
		"감마에서 돌려도 돼요?":   "gamma 에서 돌려도 돼요?",
		"알파서버 전부 잡아줘":    "alpha 서버 전부 잡아줘",
		"데브 서버 2장":       "dev 서버 2장",
		"아틀라스 누가 써요":     "atlas 누가 써요",
		"노드 하나 더":        "node 하나 더",
		"나도 써도 돼요?":      "나도 써도 돼요?",
		"내일 오전에 3090 한장": "내일 오전에 3090 한장",
	} {
		if got := hangulServers(in, servers); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	two := []planner.Hardware{{Server: "alpha"}, {Server: "alfa"}}
	if got := hangulServers("알파 2장", two); got != "알파 2장" {
		t.Errorf("two servers sound alike: %q", got)
	}
	for hangul, rr := range map[string]string{"알파": "alpa", "감마": "gamma", "베타": "beta", "서버": "seobeo", "데브": "debeu"} {
		if got := romanize(hangul); got != rr {
			t.Errorf("romanize(%q) = %q, want %q", hangul, got, rr)
		}
	}
}

// A server name one letter off ("hoper") is the server when only one is
// that close and the word is no GPU or model.
func TestMisspeltServerNames(t *testing.T) {
	servers := []planner.Hardware{{Server: "hopper"}, {Server: "ampere"}, {Server: "node1"}, {Server: "node2"}, {Server: "ada"}}
	env := Env{Catalog: planner.DefaultCatalog()}
	for in, want := range map[string]string{
		"hoper 자리 나면 대기 걸어줘":   "hopper 자리 나면 대기 걸어줘",
		"reserve 2 on amper":   "reserve 2 on ampere",
		"node3 2장 쓸게요":         "node3 2장 쓸게요",
		"llama 3 8b on hopper": "llama 3 8b on hopper",
		"book 2 on adda":       "book 2 on adda",
	} {
		if got := misspeltServers(in, servers, env.knownWord); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// Common words are no server, for a team with twenty servers named like
// English words: the first sound's voicing (카드 is no cat, 그대로 none),
// the vowels after the first (이걸 is no eagle), a one-syllable stem (같은,
// 같이), BERT said in Hangul (버트 is no beta), and a final ㅇ (러닝 is no
// luna). Each name said in Hangul still is its server.
func TestCommonWordsAreNoServers(t *testing.T) {
	names := []string{"falcon", "eagle", "sparrow", "tiger", "lion", "cat", "alpha", "beta", "gamma", "hopper", "ampere", "ada", "node", "dev", "delta", "atlas", "orion", "titan", "luna", "nova"}
	var servers []planner.Hardware
	for _, n := range names {
		servers = append(servers, planner.Hardware{Server: n, Count: 8})
	}
	for _, w := range []string{"같은", "같이", "그대로", "카드", "버트", "사비로", "여덟", "올리는", "올리는게", "이걸", "러닝", "머신 러닝", "길이", "이후부터", "나도", "이거", "그래픽 카드", "데이터", "배치", "모델"} {
		if got := hangulServers(w, servers); got != w {
			t.Errorf("%q read as a server: %q", w, got)
		}
	}
	for hangul, want := range map[string]string{"팔콘": "falcon", "이글": "eagle", "스패로우": "sparrow", "타이거": "tiger", "라이언": "lion", "알파": "alpha", "베타": "beta",
		"감마": "gamma", "호퍼": "hopper", "암페어": "ampere", "노드": "node", "데브": "dev", "델타": "delta", "아틀라스": "atlas", "오리온": "orion", "타이탄": "titan", "루나": "luna", "노바": "nova"} {
		if got := hangulServers(hangul, servers); got != want {
			t.Errorf("%q: %q, want %q", hangul, got, want)
		}
	}
}
