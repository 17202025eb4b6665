package lang

import (
	"errors"
	"strings"

	"github.com/gpuplan/gpuplan/hub"
	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/planner"
)

// Models named by their Hugging Face Hub id or a config.json path.

// hubMark starts the canonical word for a model named by its Hub id or a
// config.json path; the rest is the reference as typed (ids are
// case-sensitive).
const hubMark = "\x00hub:"

// hubModel reads a model named by its Hugging Face Hub id or a config.json
// path through the resolver. When the Hub cannot be asked (no resolver,
// offline, gated), a catalogue model of the same name stands in, said so;
// otherwise the refusal names the reason and the catalogue's nearest names.
func (p *reqParser) hubModel(ref string) error {
	a := p.i
	var err error
	if p.resolve != nil {
		var m planner.Model
		if m, err = p.resolve(ref); err == nil {
			p.note(en.Tf("`%s` read from its config.json", ref))
			return p.setModel(m, planner.Resolution{}, a, a+1)
		}
	}
	name := ref[strings.LastIndexByte(ref, '/')+1:]
	if m, _, cerr := p.cat.Model(name); cerr == nil {
		why := en.T("the Hub was not asked")
		if err != nil {
			p.note(en.Tf("`%s`: %s; planned as the catalogue's %s", ref, hubReason{err}, m.ID))
		} else {
			p.note(en.Tf("`%s`: %s; planned as the catalogue's %s", ref, why, m.ID))
		}
		return p.standInFor(ref, m, a)
	}
	msg := en.Tf("model `%s` is not in the catalogue, and reading it from the Hugging Face Hub needs the Hub", reqShort(ref))
	if err != nil {
		msg = en.Tf("model `%s`: %s", reqShort(ref), hubReason{err})
	}
	hint := "try a catalogue name (`gpuplan models` lists them)"
	near := hubNearest(name, p.cat.ModelNames(), 3)
	if m, ok := p.sameFamilySize(name, near, err); ok {
		// "mistralai/Mistral-7B-v0.3" with the Hub out of reach: Mistral 7B
		if err != nil {
			p.note(en.Tf("`%s`: %s; planned as the catalogue's %s, the same family at the same size", ref, hubReason{err}, m.ID))
		} else {
			p.note(en.Tf("`%s`: %s; planned as the catalogue's %s, the same family at the same size", ref, en.T("the Hub was not asked"), m.ID))
		}
		return p.standInFor(ref, m, a)
	}
	if len(near) > 0 {
		msg = en.Tf("%s; the catalogue's nearest: %s", msg, strings.Join(near, ", ")) // hubnear.go
		hint = p.try(a, a+1, near[0])
	}
	return said(msg, &UserError{Hint: hint})
}

// standInFor plans catalogue model m for the Hub id ref the asker typed,
// whose repository the launch line then serves (Job.Repo).
func (p *reqParser) standInFor(ref string, m planner.Model, a int) error {
	if err := p.setModel(m, planner.Resolution{}, a, a+1); err != nil {
		return err
	}
	if !strings.HasSuffix(ref, ".json") {
		p.req.Job.Repo = ref
	}
	return nil
}

// sameFamilySize is the catalogue's nearest model to a Hub name when the
// Hub could not say what the id is (not asked, offline, gated) and the
// nearest is of the same family at the same size: another version or a
// fine-tune of it has its shape. A name the Hub does not know is refused.
func (p *reqParser) sameFamilySize(name string, near []string, err error) (planner.Model, bool) {
	if len(near) == 0 || err != nil && !errors.Is(err, hub.ErrOffline) && !errors.Is(err, hub.ErrGated) {
		return planner.Model{}, false
	}
	said, have := hubNameParts(name), hubNameParts(near[0])
	if size := partsSize(said); size == 0 || len(have) == 0 || said[0] != have[0] || partsSize(have) != size {
		return planner.Model{}, false
	}
	m, _, cerr := p.cat.Model(near[0])
	return m, cerr == nil
}

// isHubRef reports whether a word names a Hub model ("Qwen/Qwen2.5-7B",
// "meta-llama/Llama-3.2-3B-Instruct") or a config file ("./config.json"),
// not a rate ("h/epoch", "samples/s").
func isHubRef(w string) bool {
	if strings.HasSuffix(w, ".json") && (strings.HasPrefix(w, "/") || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "~/")) {
		return true
	}
	org, name, ok := strings.Cut(w, "/")
	if !ok || org == "" || name == "" || strings.Contains(name, "/") || reqUnitClass(w) > reqUUnknown {
		return false
	}
	letters := false
	for _, r := range w {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letters = true
		case r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' || r == '/':
		default:
			return false
		}
	}
	if !letters || reqStartsNumber(org) {
		return false
	}
	// a rate or unit pair is not an id: "tokens/s", "h/epoch", "steps/epoch"
	if reqUnitClass(strings.ToLower(org)) > reqUUnknown || reqUnitClass(strings.ToLower(name)) > reqUUnknown {
		return false
	}
	// two things weighed, not an id: "quality/memory", "time/cost"
	if weighedWord(strings.ToLower(org)) || weighedWord(strings.ToLower(name)) {
		return false
	}
	return len(org) >= 2
}

// hubReason is why the Hub could not give a model: the client's message
// in English (it names the URL and the cause), a sentence by its kind in
// another language, with what to do.
type hubReason struct{ err error }

func (h hubReason) String() string { return h.err.Error() }

func (h hubReason) in(p *i18n.Printer) string {
	if !p.Korean() {
		return h.err.Error()
	}
	switch {
	case errors.Is(h.err, hub.ErrOffline):
		return p.T("the Hugging Face Hub cannot be reached from here, so its config.json was not read: run once with network access to cache it, set HF_ENDPOINT to a reachable mirror, or give the path of a local config.json")
	case errors.Is(h.err, hub.ErrGated):
		return p.T("it is gated or private: accept its licence on huggingface.co and set HF_TOKEN")
	case errors.Is(h.err, hub.ErrNotFound):
		return p.T("the Hub has no model by that name (check the org/name spelling)")
	case errors.Is(h.err, hub.ErrMalformed):
		return p.T("its config.json could not be read as a model config")
	case errors.Is(h.err, hub.ErrUnsupported):
		return p.T("it is a model type gpuplan cannot size yet")
	case errors.Is(h.err, hub.ErrInvalidID):
		return p.T("that is not a Hugging Face model id (org/name)")
	}
	return h.err.Error()
}
