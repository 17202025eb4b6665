package lang

import (
	"sync"

	"github.com/gpuplan/gpuplan/planner"
)

// nameIndex is a catalogue's model names split into their parts, built once
// per catalogue: reading one request asks for them word by word, and
// splitting every name each time was most of a request's cost.
type nameIndex struct {
	n     int    // len(cat.Models) when built: a changed catalogue is rebuilt
	last  string // the last model's id when built
	names []string
	parts [][]string
	inner map[string]bool // parts after the family ("nemo" in mistral-nemo-12b)
	words map[string]bool // every part that is not a size, families included
	ngpu  int             // len(cat.GPUs) when built

	vocabOnce sync.Once
	vocab     vocabulary
	normsOnce sync.Once
	norms     map[string]bool // reqNorm of every model name
}

// vocabulary is what the "did you mean" readers compare a word with: the
// keywords, every model and GPU name, and the names as sets. Read-only once
// built, so every request on the catalogue shares it.
type vocabulary struct {
	all                            []string
	modelNames, gpuSet, modelNorms map[string]bool
}

// vocabulary builds ix's vocabulary on first use.
func (ix *nameIndex) vocabulary(cat *planner.Catalog) *vocabulary {
	ix.vocabOnce.Do(func() {
		v := &ix.vocab
		v.modelNames, v.gpuSet, v.modelNorms = map[string]bool{}, map[string]bool{}, ix.modelNorms()
		v.all = append(v.all, reqSuggest...)
		for _, n := range ix.names {
			v.modelNames[n] = true
			v.all = append(v.all, n)
		}
		for _, n := range cat.GPUNames() {
			v.gpuSet[n] = true
			v.all = append(v.all, n)
		}
	})
	return &ix.vocab
}

// modelNorms is the set of the models' normalised names, built on first
// use: every request that names a model asks it, while the rest of the
// vocabulary (every keyword and name, for "did you mean") is built only
// for a word nothing else reads.
func (ix *nameIndex) modelNorms() map[string]bool {
	ix.normsOnce.Do(func() {
		ix.norms = make(map[string]bool, len(ix.names))
		for _, n := range ix.names {
			ix.norms[reqNorm(n)] = true
		}
	})
	return ix.norms
}

var nameIndexes sync.Map // *planner.Catalog → *nameIndex

// modelNameIndex returns cat's index, building it on first use or when the
// catalogue's models changed since.
func modelNameIndex(cat *planner.Catalog) *nameIndex {
	key, last := catalogKey(cat)
	if v, ok := nameIndexes.Load(cat); ok {
		if ix := v.(*nameIndex); ix.n == key && ix.last == last && ix.ngpu == len(cat.GPUs) {
			return ix
		}
	}
	ix := &nameIndex{n: key, last: last, ngpu: len(cat.GPUs), names: cat.ModelNames(), inner: map[string]bool{}, words: map[string]bool{}}
	ix.parts = make([][]string, len(ix.names))
	for i, n := range ix.names {
		ps := nameParts(n)
		ix.parts[i] = ps
		for j, p := range ps {
			if j > 0 {
				ix.inner[p] = true
			}
			if !reqStartsNumber(p) && len(p) > 1 {
				ix.words[p] = true
			}
		}
	}
	nameIndexes.Store(cat, ix)
	return ix
}

// catalogKey is what tells a catalogue's model list apart from the one an
// index was built from: its length and last id (models are only appended).
func catalogKey(cat *planner.Catalog) (int, string) {
	if len(cat.Models) == 0 {
		return 0, ""
	}
	return len(cat.Models), cat.Models[len(cat.Models)-1].ID
}
