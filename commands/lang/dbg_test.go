package lang

import (
	"fmt"
	"github.com/gpuplan/gpuplan/planner"
	"testing"
	"time"
)

func TestDbgTokens(t *testing.T) {
	cat := planner.DefaultCatalog()
	for _, s := range []string{"예산 500만원 안에서 mistral 7b", "300만 원으로 mistral 7b", "50만원이면 mistral 7b", "1억원 mistral 7b", "예산 5000000원"} {
		p := &reqParser{cat: cat, text: s}
		c := newCanonizer(cat, p, s, map[string]bool{}, map[string]string{}, time.Now())
		var in []string
		for _, t := range c.in {
			in = append(in, t.w)
		}
		fmt.Println(in)
	}
}
