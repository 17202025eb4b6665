package planner

import (
	"embed"
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

//go:embed data/*.csv data/*.jsonl
var dataFS embed.FS

// Precision is a numeric format for weights, activations and matmuls.
type Precision string

// Precisions the planner knows. FP16 means mixed precision with fp16
// autocast (AMP) for training.
const (
	FP32 Precision = "fp32"
	TF32 Precision = "tf32"
	FP16 Precision = "fp16"
	BF16 Precision = "bf16"
	FP8  Precision = "fp8"
	INT8 Precision = "int8"
	INT4 Precision = "int4"
)

// Generation is a GPU architecture generation; it decides which precisions
// exist and how mature the software stack is.
type Generation string

// Generations in the catalogue.
const (
	Pascal    Generation = "Pascal" // no tensor cores: fp16 at twice the fp32 rate
	Volta     Generation = "Volta"
	Turing    Generation = "Turing"
	Ampere    Generation = "Ampere"
	Ada       Generation = "Ada"
	Hopper    Generation = "Hopper"
	Blackwell Generation = "Blackwell"
	CDNA2     Generation = "CDNA 2"
	CDNA3     Generation = "CDNA 3"
)

// GPU is one catalogue entry. All throughput figures are dense (no 2:4
// sparsity), per GPU, at boost clock.
type GPU struct {
	ID           string
	Name         string
	Vendor       string
	Generation   Generation
	FormFactor   string
	MemoryGB     float64 // label capacity in GB (10^9 bytes)
	MemBWGBs     float64 // HBM/GDDR bandwidth, GB/s
	peak         peakTable
	NVLinkGBs    float64 // bidirectional NVLink/fabric bandwidth per GPU; 0 = none
	PCIeGen      int
	HostC2CGBs   float64 // NVLink-C2C to the CPU (GB200, GH200), bidirectional GB/s; 0 = PCIe
	TDPW         float64
	SXM          bool // socketed board part (HGX/DGX with NVSwitch, or OAM mesh)
	Consumer     bool // GeForce card (no P2P on 4090, blower/cooling cautions)
	PriceUSD     float64
	PriceSource  string
	Source       string
	Confidence   string
	Notes        string
	family       string
	defaultScore int // higher wins when a short name matches several parts
}

// peakTable is a GPU's dense peak TFLOPS by precision, indexed by pk*: an
// array, not a map, so the generated catalogue is static data and no
// process builds a map per GPU at start-up.
type peakTable [pkCount]float64

// Indices of peakTable.
const (
	pkFP32 = iota
	pkTF32
	pkBF16
	pkFP16
	pkFP8
	pkINT8
	pkCount
)

// peakIndex is p's index in a peakTable; INT4 and unknown precisions have none.
func peakIndex(p Precision) (int, bool) {
	switch p {
	case FP32:
		return pkFP32, true
	case TF32:
		return pkTF32, true
	case BF16:
		return pkBF16, true
	case FP16:
		return pkFP16, true
	case FP8:
		return pkFP8, true
	case INT8:
		return pkINT8, true
	}
	return 0, false
}

// Peak returns the dense peak TFLOPS for p, and whether the GPU has
// hardware support for it.
func (g GPU) Peak(p Precision) (float64, bool) {
	i, ok := peakIndex(p)
	if !ok {
		return 0, false
	}
	v := g.peak[i]
	return v, v > 0
}

// Supports reports whether p runs natively on g.
func (g GPU) Supports(p Precision) bool {
	_, ok := g.Peak(p)
	return ok
}

// Model is one model architecture. Counts follow Hugging Face config names.
type Model struct {
	ID        string
	Family    string
	Kind      ModelKind
	Layers    int
	Hidden    int
	Heads     int
	KVHeads   int
	HeadDim   int
	FFN       int
	Vocab     int
	MaxCtx    int
	Tied      bool
	Gated     bool // SwiGLU/GeGLU: three MLP matrices
	Learned   bool // learned position embeddings
	ParamsB   float64
	ActiveB   float64 // MoE: parameters used per token
	Experts   int     // MoE: routed experts per layer
	TopK      int     // MoE: experts each token is routed to
	FwdGFLOPs float64 // vision/CNN: forward GFLOPs per sample at native size
	// ActivationsM: a CNN's activations per image in millions, from its timm card (0: none).
	ActivationsM float64 `json:",omitempty"`
	// Shipped is the weight format the published checkpoint comes in when
	// it is not 16-bit (DeepSeek-V3's FP8, GPT-OSS's MXFP4 experts read
	// as 4-bit): an inference plan that names no precision serves it so.
	Shipped Precision `json:",omitempty"`
	// Window is the span of a sliding-window (local) attention layer in
	// tokens and LocalShare the share of layers that are local (Gemma 3:
	// 5 of 6 at 1024; Gemma 2 and GPT-OSS: every other; Mistral 7B v0.1:
	// all at 4096). A local layer attends to, and caches, at most Window
	// tokens. 0: every layer attends to the whole context.
	Window     int     `json:",omitempty"`
	LocalShare float64 `json:",omitempty"`
	Source     string
	Notes      string
	Origin     string // "catalogue", "size", "architecture"
}

// ModelKind separates what changes the formulas.
type ModelKind string

// Model kinds.
const (
	Decoder    ModelKind = "decoder"
	Encoder    ModelKind = "encoder"
	EncDec     ModelKind = "encoder-decoder"
	MoE        ModelKind = "decoder-moe"
	VisionViT  ModelKind = "vision"
	VisionConv ModelKind = "cnn"
)

// Catalog holds the GPUs and models the planner knows.
type Catalog struct {
	GPUs   []GPU
	Models []Model

	prm *Params // nil: fittedParams; a fit probes others

	indexOnce sync.Once
	modelNorm map[string]int // norm(id) → index into Models
	gpuNorm   []string       // norm(GPUs[i].ID)
	// gpuPrefixes are the GPU families and their aliases, longest first
	// (families before aliases of the same length, in catalogue order):
	// the first that prefixes a query is the family it names.
	gpuPrefixes []gpuPrefix
}

// index builds the normalised-name lookups once; the parser asks about
// every word of every request.
func (c *Catalog) index() {
	c.indexOnce.Do(func() {
		c.modelNorm = make(map[string]int, len(c.Models))
		for i, m := range c.Models {
			c.modelNorm[norm(m.ID)] = i
		}
		c.gpuNorm = make([]string, len(c.GPUs))
		for i, g := range c.GPUs {
			c.gpuNorm[i] = norm(g.ID)
			if !slices.ContainsFunc(c.gpuPrefixes, func(p gpuPrefix) bool { return p.text == g.family }) {
				c.gpuPrefixes = append(c.gpuPrefixes, gpuPrefix{g.family, g.family})
			}
		}
		aliases := slices.Sorted(maps.Keys(gpuAliases))
		for _, a := range aliases {
			c.gpuPrefixes = append(c.gpuPrefixes, gpuPrefix{a, gpuAliases[a]})
		}
		slices.SortStableFunc(c.gpuPrefixes, func(a, b gpuPrefix) int { return len(b.text) - len(a.text) })
	})
}

// gpuPrefix is a word a GPU query may start with and the family it names.
type gpuPrefix struct{ text, family string }

//go:generate go run ./internal/gencat/cmd/gencat

// defaultCatalog is the catalogue built into the binary: the tables
// planner/internal/gencat generates from data/gpus.csv, prices.csv and
// models.csv (catalog_gen.go), so that no process parses CSV at start-up.
var defaultCatalog = &Catalog{GPUs: catalogGPUs, Models: catalogModels}

// DefaultCatalog returns the catalogue embedded in the binary. The returned
// value is a copy; callers may override prices on it.
func DefaultCatalog() *Catalog {
	c := &Catalog{GPUs: make([]GPU, len(defaultCatalog.GPUs)), Models: defaultCatalog.Models}
	copy(c.GPUs, defaultCatalog.GPUs)
	return c
}

type row map[string]string

func (r row) s(k string) string { return strings.TrimSpace(r[k]) }

func (r row) f(k string) float64 {
	v, err := strconv.ParseFloat(r.s(k), 64)
	if err != nil {
		return 0
	}
	return v
}

func readCSV(name string) ([]row, error) {
	f, err := dataFS.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := readCSVNoSource(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for _, r := range rows {
		if r.s("source") == "" {
			return nil, fmt.Errorf("%s: a row has no source", name)
		}
	}
	return rows, nil
}

// readCSVNoSource reads a headed CSV into rows keyed by column name.
func readCSVNoSource(f io.Reader) ([]row, error) {
	rd := csv.NewReader(f)
	header, err := rd.Read()
	if err != nil {
		return nil, err
	}
	var rows []row
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		r := row{}
		for i, h := range header {
			r[h] = rec[i]
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// Params is the total parameter count.
func (m Model) Params() float64 { return m.ParamsB * 1e9 }

// ActiveParams is the parameter count used per token (MoE: routed subset).
func (m Model) ActiveParams() float64 {
	if m.ActiveB > 0 {
		return m.ActiveB * 1e9
	}
	return m.Params()
}

// attnSpan is the share of full-context attention the model's layers do
// at ctx tokens of context: local layers see at most Window of them. It
// scales attention FLOPs and the KV cache; 1 without sliding windows.
func (m Model) attnSpan(ctx float64) float64 {
	if m.Window <= 0 || m.LocalShare <= 0 || ctx <= float64(m.Window) {
		return 1
	}
	return 1 - m.LocalShare + m.LocalShare*float64(m.Window)/ctx
}

// headDim returns the attention head width.
func (m Model) headDim() int {
	if m.HeadDim > 0 {
		return m.HeadDim
	}
	if m.Heads > 0 {
		return m.Hidden / m.Heads
	}
	return 0
}

func (m Model) kvHeads() int {
	if m.KVHeads > 0 {
		return m.KVHeads
	}
	return m.Heads
}

// IsTransformer reports whether the model has a token sequence.
func (m Model) IsTransformer() bool { return m.Kind != VisionConv && m.Layers > 0 && m.Hidden > 0 }

// archParams is the parameter count implied by the architecture fields
// (dense transformers only): attention with GQA, a 2- or 3-matrix MLP,
// norms, embeddings (untied doubles them) and learned positions.
func archParams(m Model) float64 {
	h, L := float64(m.Hidden), float64(m.Layers)
	d := float64(m.headDim())
	a, g := float64(m.Heads), float64(m.kvHeads())
	f := float64(m.FFN)
	attn := h*a*d + 2*h*g*d + a*d*h
	mats := 2.0
	if m.Gated {
		mats = 3
	}
	mlp := mats * h * f
	perLayer := attn + mlp + 4*h
	emb := float64(m.Vocab) * h
	if !m.Tied {
		emb *= 2
	}
	if m.Learned {
		emb += float64(m.MaxCtx) * h
	}
	return L*perLayer + emb + 2*h
}

// norm folds a name to the characters that carry meaning: "Llama3-8B",
// "llama-3-8b" and "llama_3 8b" all become "llama38b".
func norm(s string) string {
	// Most names asked are already normal ("h100", "llama3"): those are
	// returned as they are, without building a copy.
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
	}
	if plain {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '.' {
			if r == '.' {
				// keep dots only between digits ("3.1", "2.5") so "llama3.1" != "llama31"
				b.WriteByte('p')
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Resolution says how a typed name was read, when that is worth telling
// the user ("h100" became the SXM part).
type Resolution struct {
	Note string
	// Name, As and Others say the note's parts ("`Name` read as As
	// (others: …)"), so a reply in another language can say it.
	Name, As string
	Others   []string
}

// tunedVariantBase cuts an instruct/chat tune's suffix off a model name
// ("-instruct", "-chat", "-it", "-hf", with a trailing "-v0.2"): false when
// the name has none.
func tunedVariantBase(name string) (string, bool) {
	low := strings.ToLower(name)
	for _, suf := range []string{"-instruct", "-chat", "-it", "-hf", "_instruct", " instruct", " chat"} {
		i := strings.LastIndex(low, suf)
		if i <= 0 {
			continue
		}
		rest := strings.TrimLeft(low[i+len(suf):], "-_. v0123456789")
		if rest == "" || rest == "hf" || rest == "-hf" {
			return name[:i], true
		}
	}
	return "", false
}

// sameShapeVariants are the domain tunes published with their base
// model's architecture: Qwen2.5-Coder and Qwen2.5-Math at every size have
// Qwen2.5's layers, widths, heads and vocabulary (their config.json files
// on the Hub).
var sameShapeVariants = []struct{ family, tag string }{
	{"qwen2.5", "-coder"}, {"qwen2.5", "-math"},
}

// sameShapeVariant is the base model name of a same-architecture variant
// ("qwen2.5-coder-32b-instruct" → "qwen2.5-32b-instruct").
func sameShapeVariant(name string) (string, bool) {
	low := strings.ToLower(name)
	for _, v := range sameShapeVariants {
		if rest, ok := strings.CutPrefix(low, v.family+v.tag); ok && strings.HasPrefix(rest, "-") {
			return v.family + rest, true
		}
	}
	return "", false
}

// Model resolves a model name forgivingly. The error lists the nearest
// names when nothing matches.
func (c *Catalog) Model(name string) (Model, Resolution, error) {
	q := norm(name)
	if q == "" {
		return Model{}, Resolution{}, &NotFoundError{Kind: "model", Name: name}
	}
	c.index()
	if i, ok := c.modelNorm[q]; ok {
		return c.Models[i], Resolution{}, nil
	}
	if id, ok := modelAliases[q]; ok {
		m := c.Models[c.modelNorm[norm(id)]]
		return m, Resolution{Note: fmt.Sprintf("`%s` read as %s", name, m.ID), Name: name, As: m.ID}, nil
	}
	if low := strings.ToLower(name); strings.HasPrefix(low, "meta-llama") && len(name) > 5 {
		// "Meta-Llama-3-8B-Instruct", Meta's own id for Llama 3
		if m, _, err := c.Model(name[5:]); err == nil {
			return m, Resolution{Note: fmt.Sprintf("`%s` read as %s", name, m.ID), Name: name, As: m.ID}, nil
		}
	}
	if base, ok := tunedVariantBase(name); ok {
		// "llama-3-70b-instruct", "gemma-2-9b-it", "mistral-7b-instruct-v0.2":
		// a chat or instruct tune has its base model's shape
		if m, _, err := c.Model(base); err == nil {
			return m, Resolution{Note: fmt.Sprintf("`%s` read as %s", name, m.ID), Name: name, As: m.ID}, nil
		}
	}
	if base, ok := sameShapeVariant(name); ok {
		if m, _, err := c.Model(base); err == nil {
			return m, Resolution{Note: fmt.Sprintf("`%s` read as %s (the same architecture)", name, m.ID), Name: name, As: m.ID}, nil
		}
	}
	var cands []Model
	for n, i := range c.modelNorm {
		// a prefix of four letters or more: "a", "all" and "for" name no
		// model even where only one id starts with them
		if len(q) >= 4 && strings.HasPrefix(n, q) {
			cands = append(cands, c.Models[i])
		}
	}
	sort.Slice(cands, func(a, b int) bool { return c.modelNorm[norm(cands[a].ID)] < c.modelNorm[norm(cands[b].ID)] })
	if len(cands) == 1 {
		return cands[0], Resolution{Note: fmt.Sprintf("`%s` read as %s", name, cands[0].ID), Name: name, As: cands[0].ID}, nil
	}
	err := &NotFoundError{Kind: "model", Name: name}
	if len(cands) > 1 {
		for _, m := range cands {
			err.Candidates = append(err.Candidates, m.ID)
		}
		err.Ambiguous = true
		return Model{}, Resolution{}, err
	}
	err.vocabulary = c.ModelNames
	return Model{}, Resolution{}, err
}

// IsModelName reports whether name resolves to a catalogue model.
func (c *Catalog) IsModelName(name string) bool {
	_, _, err := c.Model(name)
	return err == nil
}

// ModelNames lists catalogue ids plus the short forms people type; it is
// the vocabulary for "did you mean".
func (c *Catalog) ModelNames() []string {
	out := []string{"bert-base", "bert-large", "llama3-8b", "llama3-70b", "mistral-7b", "resnet50"}
	for _, m := range c.Models {
		out = append(out, m.ID)
	}
	return out
}

// GPUNames lists catalogue ids plus the family names ("h100", "a100").
func (c *Catalog) GPUNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, g := range c.GPUs {
		if !seen[g.family] {
			seen[g.family] = true
			out = append(out, g.family)
		}
		out = append(out, g.ID)
	}
	return out
}

// gpuAliases map other spellings of a family to the catalogue family.
var gpuAliases = map[string]string{
	"rtxa6000": "a6000",
	// AWS's A10G (g5 instances) is an A10 with its clocks tuned; read as the A10
	"a10g": "a10",
	// "A6000 Ada" is what many call the RTX 6000 Ada (the Ampere card is
	// the RTX A6000)
	"a6000ada":    "6000ada",
	"rtxa6000ada": "6000ada",
	"rtx4090":     "4090",
	"geforce4090": "4090",
	"rtx3090":     "3090",
	"geforce3090": "3090",
	"rtx6000ada":  "6000ada",
	"rtx6000":     "6000ada",
	"rtx5090":     "5090",
	"geforce5090": "5090",
	"rtxpro6000":  "pro6000",
	"mi300":       "mi300x",
	"mi325":       "mi325x",
	// a family whose id carries a dash after the model number ("3080-12gb",
	// "4000-ada") is reached only through an alias, as a normalised query
	// has no dash; "rtx 4000" and "rtx 5000" name the Ada cards as
	// "rtx 6000" does
	"308012gb": "3080-12gb",
	"4000ada":  "4000-ada",
	"rtx4000":  "4000-ada",
	"5000ada":  "5000-ada",
	"rtx5000":  "5000-ada",
	"rtxa4000": "a4000",
	"rtxa5000": "a5000",
}

// GPU resolves a GPU name forgivingly: "h100" finds the SXM part and says
// so, "a100-40gb" the 40 GB SXM part, "h100-pcie" the PCIe card.
func (c *Catalog) GPU(name string) (GPU, Resolution, error) {
	q := norm(name)
	c.index()
	for i, n := range c.gpuNorm {
		if n == q {
			return c.GPUs[i], Resolution{}, nil
		}
	}
	notFound := &NotFoundError{Kind: "GPU", Name: name, vocabulary: c.GPUNames}
	g, res, ok := c.gpuByFamily(name, q)
	if !ok {
		// "nvidia-a100-80gb", "geforce-rtx-4090", "rtx-4060-ti-16gb": the
		// brand words carry nothing the model number does not
		if bare := stripGPUBrand(q); bare != q && bare != "" {
			g, res, ok = c.gpuByFamily(name, bare)
		}
	}
	if !ok {
		return GPU{}, Resolution{}, notFound
	}
	return g, res, nil
}

// stripGPUBrand drops the vendor and brand words a normalised GPU query may
// start with.
func stripGPUBrand(q string) string {
	for {
		n := q
		for _, b := range []string{"nvidia", "geforce", "tesla", "quadro", "rtx", "amd", "instinct"} {
			n = strings.TrimPrefix(n, b)
		}
		if n == q {
			return q
		}
		q = n
	}
}

// gpuByFamily resolves a normalised query by family and qualifiers.
func (c *Catalog) gpuByFamily(name, q string) (GPU, Resolution, bool) {
	// "DGX B200", "HGX B300": the system comes first in speech, last in the
	// ids; a system no row of the family names is the same GPU ("dgx b300").
	for _, sys := range []string{"dgx", "hgx"} {
		if rest, ok := strings.CutPrefix(q, sys); ok && rest != "" {
			q = rest + sys
		}
	}
	fam, quals, ok := c.splitGPUQuery(q)
	if n := len(quals); ok && n > 0 && (quals[n-1] == "dgx" || quals[n-1] == "hgx") && !c.familyHas(fam, quals[n-1]) {
		quals = quals[:n-1]
	}
	if !ok {
		return GPU{}, Resolution{}, false
	}
	var cands []GPU
	for gi, g := range c.GPUs {
		if g.family != fam {
			continue
		}
		match := true
		for _, ql := range quals {
			if mem, ok := strings.CutSuffix(ql, "gb"); ok {
				if v, err := strconv.ParseFloat(mem, 64); err != nil || v != g.MemoryGB {
					match = false
				}
			} else if !strings.Contains(c.gpuNorm[gi], ql) {
				match = false
			}
		}
		if match {
			cands = append(cands, g)
		}
	}
	if len(cands) == 0 {
		return GPU{}, Resolution{}, false
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].defaultScore > cands[j].defaultScore })
	g := cands[0]
	res := Resolution{Note: fmt.Sprintf("`%s` read as %s", name, g.Name), Name: name, As: g.Name}
	if len(cands) > 1 {
		for _, o := range cands[1:] {
			res.Others = append(res.Others, o.ID)
		}
		res.Note += " (others: " + strings.Join(res.Others, ", ") + ")"
	}
	return g, res, true
}

// familyHas reports whether a GPU of family fam has word in its id.
func (c *Catalog) familyHas(fam, word string) bool {
	for gi, g := range c.GPUs {
		if g.family == fam && strings.Contains(c.gpuNorm[gi], word) {
			return true
		}
	}
	return false
}

// IsGPUName reports whether name resolves to a catalogue GPU.
func (c *Catalog) IsGPUName(name string) bool {
	_, _, err := c.GPU(name)
	return err == nil
}

// splitGPUQuery reads a normalised query as a family ("h100", "4090") and
// qualifiers ("pcie", "sxm", "80gb"). Anything it cannot read makes ok false.
func (c *Catalog) splitGPUQuery(q string) (fam string, quals []string, ok bool) {
	c.index()
	best := ""
	for _, p := range c.gpuPrefixes {
		if p.text != "" && strings.HasPrefix(q, p.text) {
			best, fam = p.text, p.family
			break
		}
	}
	if best == "" {
		return "", nil, false
	}
	rest := q[len(best):]
	for rest != "" {
		matched := false
		for _, w := range []string{"sxm5", "sxm4", "sxm2", "sxm", "pcie", "nvl", "hgx", "dgx", "blackwell", "server"} {
			if strings.HasPrefix(rest, w) {
				quals = append(quals, w)
				rest = rest[len(w):]
				matched = true
				break
			}
		}
		if matched {
			continue
		}
		k := 0
		for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
			k++
		}
		if k == 0 {
			return "", nil, false
		}
		mem := rest[:k]
		rest = rest[k:]
		switch {
		case strings.HasPrefix(rest, "gb"):
			rest = rest[2:]
		case strings.HasPrefix(rest, "g"):
			rest = rest[1:]
		}
		quals = append(quals, mem+"gb")
	}
	return fam, quals, true
}

// NotFoundError is returned when a model or GPU name does not resolve.
type NotFoundError struct {
	Kind       string
	Name       string
	Candidates []string // the matches when Ambiguous
	Ambiguous  bool
	// vocabulary yields the names to suggest from; the ranking runs only
	// when the message is wanted (the parser probes many words that are
	// not names at all).
	vocabulary func() []string
}

// Suggestions returns up to three nearest valid names.
func (e *NotFoundError) Suggestions() []string {
	if e.Ambiguous || len(e.Candidates) > 0 || e.vocabulary == nil {
		return e.Candidates
	}
	return nearest(e.Name, e.vocabulary(), 3)
}

func (e *NotFoundError) Error() string {
	cands := e.Suggestions()
	switch {
	case e.Ambiguous:
		return fmt.Sprintf("%s `%s` matches several: %s — say which", e.Kind, e.Name, strings.Join(cands, ", "))
	case len(cands) > 0:
		return fmt.Sprintf("unknown %s `%s` — did you mean `%s`?", e.Kind, e.Name, cands[0])
	default:
		return fmt.Sprintf("unknown %s `%s`", e.Kind, e.Name)
	}
}

// nearest returns up to n names closest to q by edit distance on the
// normalised forms, closest first; names too far away are left out.
func nearest(q string, names []string, n int) []string {
	nq := norm(q)
	type scored struct {
		name string
		d    int
	}
	seen := map[string]bool{}
	var all []scored
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		nn := norm(name)
		d := Levenshtein(nq, nn)
		if strings.HasPrefix(nn, nq) || strings.HasPrefix(nq, nn) {
			d = min(d, int(math.Abs(float64(len(nn)-len(nq))))/2)
		}
		limit := max(2, len(nq)/3+1)
		if d <= limit {
			all = append(all, scored{name, d})
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].d != all[j].d {
			return all[i].d < all[j].d
		}
		return len(all[i].name) < len(all[j].name)
	})
	var out []string
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].name)
	}
	return out
}

// Levenshtein is the edit distance between a and b.
func Levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Nearest exposes the "did you mean" ranking for other vocabularies
// (command keywords) so every suggestion in gpuplan is made the same way.
func Nearest(q string, names []string, n int) []string { return nearest(q, names, n) }

// SetPrice overrides the hourly price of the GPU that name resolves to
// (a team's own servers, a negotiated cloud rate).
func (c *Catalog) SetPrice(name string, usdPerHour float64) error {
	if usdPerHour < 0 || math.IsNaN(usdPerHour) || math.IsInf(usdPerHour, 0) {
		return fmt.Errorf("price for %s must be a non-negative number of dollars per GPU-hour", name)
	}
	g, _, err := c.GPU(name)
	if err != nil {
		return err
	}
	for i := range c.GPUs {
		if c.GPUs[i].ID == g.ID {
			c.GPUs[i].PriceUSD = usdPerHour
			c.GPUs[i].PriceSource = "team price override"
		}
	}
	return nil
}
