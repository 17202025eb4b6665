package inventory

import (
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gpuplan/gpuplan/planner"
)

// The team's own models: names the team calls its models by ("logbert"),
// each a catalogue architecture with what the team changed (its vocabulary,
// its sequence length). A plan request names them like any model:
//
//	models:
//	  logbert: {base: bert-base-uncased, vocab: 10000, seq: 512}

var (
	modelKeys   = []string{"base", "vocab", "seq"}
	modelNameRe = regexp.MustCompile(`^[a-z][a-z0-9._-]{1,39}$`)
)

// models reads the models mapping into out, keyed by lower-case name.
func (p *inventoryParser) models(n *yaml.Node, out map[string]planner.Model) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return
	}
	if n.Kind != yaml.MappingNode {
		p.addf(n.Line, "models must map the team's model names to their base (logbert: {base: bert-base-uncased, vocab: 10000}), not %s", kindName(n))
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		name := strings.ToLower(k.Value)
		if !modelNameRe.MatchString(name) {
			p.addf(k.Line, "models: %q is not a model name (letters, digits, '-', '.', '_'; starting with a letter)", k.Value)
			continue
		}
		if _, dup := out[name]; dup {
			p.addf(k.Line, "models: %q is given twice", k.Value)
			continue
		}
		if _, _, err := p.cat.Model(name); err == nil {
			p.addf(k.Line, "models: %q is already a catalogue model — give the team's model a name of its own", k.Value)
			continue
		}
		if m, ok := p.model(name, v); ok {
			out[name] = m
		}
	}
}

// model reads one team model: its catalogue base and what the team changed.
func (p *inventoryParser) model(name string, v *yaml.Node) (planner.Model, bool) {
	ctx := "models: " + name + ": "
	if v.Kind != yaml.MappingNode {
		p.addf(v.Line, "%sgive its base, like {base: bert-base-uncased, vocab: 10000}", ctx)
		return planner.Model{}, false
	}
	var base planner.Model
	var spec planner.ArchSpec
	based := false
	p.mapping(v, ctx, modelKeys, func(key string, k, val *yaml.Node) {
		switch key {
		case "base":
			s, ok := p.str(val, ctx+"base")
			if !ok {
				return
			}
			b, _, err := p.cat.Model(s)
			if err != nil {
				p.addf(val.Line, "%sbase: %v", ctx, err)
				return
			}
			base, based = b, true
		case "vocab":
			if n, ok := p.integer(val, ctx+"vocab"); ok && n > 0 {
				spec.Vocab = n
			}
		case "seq":
			if n, ok := p.integer(val, ctx+"seq"); ok && n > 0 {
				spec.MaxCtx = n
			}
		}
	})
	if !based {
		p.addf(v.Line, "%sgive its base, a catalogue model (base: bert-base-uncased)", ctx)
		return planner.Model{}, false
	}
	m, err := planner.ModelFromArch(&base, spec) // the parameters follow the vocabulary
	if err != nil {
		p.addf(v.Line, "%s%v", ctx, err)
		return planner.Model{}, false
	}
	m.ID, m.Origin = name, "team"
	m.Notes = "the team's model: " + base.ID + " as configured in the servers file"
	return m, true
}

// exampleModels are the example team's models (Default): LogBERT, BERT-base
// with a 10,000-word vocabulary and 512-token sequences, as the team's own
// document describes it (seed 000).
func exampleModels(cat *planner.Catalog) map[string]planner.Model {
	if cat == nil {
		cat = planner.DefaultCatalog()
	}
	out := map[string]planner.Model{}
	base, _, err := cat.Model("bert-base-uncased")
	if err != nil {
		return out // a catalogue without BERT-base: no example model
	}
	m, err := planner.ModelFromArch(&base, planner.ArchSpec{Vocab: 10000, MaxCtx: 512})
	if err != nil {
		return out
	}
	m.ID, m.Origin, m.Notes = "logbert", "team", "the team's model: bert-base-uncased with a 10,000-word vocabulary (example servers file)"
	out[m.ID] = m
	return out
}
