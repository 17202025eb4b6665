package planner

// A serving engine written in Python (vLLM, TGI, SGLang) captures its
// decode step as CUDA graphs and replays them: the host launches one
// graph a step, whatever the model's depth. Without graphs (vLLM's
// --enforce-eager; TGI before 2.0, which made them its default, or with
// --cuda-graphs 0) every operator of the step is issued from Python, one
// after another, as transformers' generate issues its own (decodeOps),
// but through the engine's fused model code.

// engineDecodeOps is the host's work for one forward pass of an engine's
// model code run without CUDA graphs, in the operators forwardOps counts:
// about 65 a layer, counted from TGI 1.0.3's FlashLlamaLayer.forward (two
// fused RMSNorm calls with their output allocations, four linears at ~5
// operators each with the transpose the profiler counts, the QKV split
// and views, two rotary calls on their slices, the KV-cache write and
// paged attention with their selects, the SiLU-and-multiply on the
// gate/up halves, two tensor-parallel all-reduces), where transformers'
// LlamaDecoderLayer runs about 170; plus the 45 of embeddings, the final
// norm and the head that decodeOps counts.
func engineDecodeOps(m Model) float64 {
	if m.Layers <= 0 {
		return 0
	}
	return 65*float64(m.Layers) + 45
}

// Python reports whether e runs its model code from Python, where CUDA
// graphs decide what the host does each step.
func (e Engine) Python() bool { return e == EngineVLLM || e == EngineTGI || e == EngineSGLang }

// engineIssueS is the host's time to issue one forward pass of j's model
// on engine e beside GPU g: zero with CUDA graphs, which every Python
// engine captures by default now, and on engines that do not run Python.
func engineIssueS(p *Params, j Job, e Engine, g GPU) float64 {
	if !j.NoGraphs || !e.Python() {
		return 0
	}
	return engineDecodeOps(j.Model) * opS(p, g)
}
