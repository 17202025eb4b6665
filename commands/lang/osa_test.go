package lang

import (
	"math/rand/v2"
	"testing"
)

// osaTable is the textbook full-table optimal-string-alignment distance,
// the reference for osa's three-row version.
func osaTable(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

func TestOSAMatchesTheFullTable(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"finetnue", "finetune", 1},
		{"", "", 0},
		{"", "epochs", 6},
		{"h100", "", 4},
		{"ca", "abc", 3}, // OSA, not Damerau: no edit of a transposed pair
		{"학습해", "학습", 1},
		{"pretraing", "pretraining", 2},
	} {
		if got := osa(c.a, c.b); got != c.want || got != osaTable(c.a, c.b) {
			t.Errorf("osa(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	// Random words over a small alphabet (so transpositions and repeats
	// happen), some longer than osa's stack rows.
	alphabet := []rune("abcd한국-1")
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		n := r.IntN(40)
		w := make([]rune, n)
		for i := range w {
			w[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(w)
	}
	for range 3000 {
		a, b := word(), word()
		if got, want := osa(a, b), osaTable(a, b); got != want {
			t.Fatalf("osa(%q, %q) = %d, the full table says %d", a, b, got, want)
		}
	}
}
