package lang

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/planner"
)

// ---------------------------------------------------------------------------
// Models

// catalogModel reads a catalogue model name at p.i: one word ("llama3-8b")
// or, spelled with spaces, two or three that together are exactly a
// catalogue name ("llama 3 8b", "bert base").
func (p *reqParser) catalogModel() (bool, error) {
	p.loadVocab()
	for n := 3; n >= 2; n-- {
		if p.i+n > len(p.toks) {
			continue
		}
		var parts []string
		for _, t := range p.toks[p.i : p.i+n] {
			parts = append(parts, t.w)
		}
		joined := strings.Join(parts, " ")
		if !p.modelNorms[reqNorm(joined)] {
			continue
		}
		if m, res, err := p.cat.Model(joined); err == nil {
			return true, p.setModel(m, res, p.i, p.i+n)
		}
	}
	t := p.toks[p.i]
	m, res, err := p.cat.Model(t.w)
	if err == nil {
		return true, p.setModel(m, res, p.i, p.i+1)
	}
	var nf *planner.NotFoundError
	if errors.As(err, &nf) && nf.Ambiguous && len(nf.Candidates) > 0 && len(reqNorm(t.w)) >= 3 {
		c := nf.Candidates
		more := ""
		if len(c) > 5 {
			more = fmt.Sprintf(" and %d more", len(c)-5)
			c = c[:5]
		}
		return true, &UserError{
			Msg:  fmt.Sprintf("model `%s` matches several: `%s`%s — say which", reqShort(t.raw), strings.Join(c, "`, `"), more),
			Hint: p.try(p.i, p.i+1, c[0]),
		}
	}
	return false, nil
}

func (p *reqParser) setModel(m planner.Model, res planner.Resolution, a, b int) error {
	if err := reqSet(p, &p.model, "cat:"+m.ID, a, b, "models"); err != nil {
		return err
	}
	p.catModel = m
	p.note(res.Note)
	p.i = b
	return nil
}
