package planner

import "math"

// The latency floor of a forward pass. Eager PyTorch issues every kernel
// from the host, one at a time; at small batches the GPU finishes each
// kernel before the next arrives, so a batch of 1 takes about as long as a
// batch of 8 (NVIDIA's ResNet-50 tables: 12.8 ms at batch 1 and 13.7 ms at
// batch 8 on a V100, within 3 % of each other on a T4, whose compute is a
// quarter of the V100's).
//
// What the host spends its time on is ATen operators, not kernels: every
// view, reshape, transpose and mask op passes the dispatcher, and most
// launch nothing. Counted per batch-1 forward with torch.profiler
// (PyTorch 2.11, docs/device/ops-h200-2026-11-27.jsonl), ResNet-50 runs
// 973 operators for 342 kernels, ViT-B/16 871 for 143 and BERT-base 1,038
// for 177; on the H200 the three take 3.2, 3.3 and 6.8 ms at batch 1, so
// operators (3.3-6.5 µs each) track the host's time better than kernels
// (11-38 µs each).

// forwardOps is the number of ATen operators one eager forward pass runs:
// 19.5 per CNN layer (ResNet-50's 973 over 50 layers); 75 per transformer
// layer plus 45 for embeddings, mask and head, between ViT's (871 and
// 1,711 for 12 and 24 layers: 70 a layer + 31) and BERT's (1,038 and
// 2,010: 81 a layer + 66).
func forwardOps(m Model) float64 {
	if m.Layers <= 0 {
		return 0
	}
	if m.Kind == VisionConv || !m.IsTransformer() {
		return 19.5 * float64(m.Layers)
	}
	return 75*float64(m.Layers) + 45
}

// decodeOps is the host's work for one token of eager decoding, in the
// operators forwardOps counts: a decoder layer with its KV cache runs
// about 170 a token (rotary embedding, two RMSNorms in fp32, the cache
// update, grouped-query attention, the gated MLP) against a BERT layer's
// 75. Two measurements agree on it: PyTorch's gpt-fast post starts from a
// plain eager loop at 25.5 tokens/s for Llama 2 7B on an A100 (39 ms a
// token, host-bound: 166 a layer at the A100's operator cost), and
// transformers' generate() on our H200 took 0.74 ms more a token per
// layer from Llama 3.2 1B (16 layers, 50.4 ms) to Llama 3.1 8B (32, 62.2
// ms): 178 a layer at the H200's. What generate() adds around the model
// (38 ms a token on that VM, whatever the size) is the host's and is not
// in the plan.
func decodeOps(m Model) float64 {
	if m.Layers <= 0 {
		return 0
	}
	return 170*float64(m.Layers) + 45
}

// graphOps is the number of operators a graph runtime issues for one
// forward pass: p.GraphOps a transformer layer where eager PyTorch runs
// 75 (XLA fuses the element-wise ones, and no Python runs between them),
// and a CNN layer in the same proportion.
func graphOps(p *Params, m Model) float64 {
	return forwardOps(m) * p.GraphOps / 75
}

// withLaunchFloor returns the time of a forward pass whose GPU work takes
// compute seconds, once the host's issue is counted: the two overlap,
// imperfectly (p.LaunchBlend).
func withLaunchFloor(p *Params, g GPU, m Model, compute float64) (t float64, hostBound bool) {
	return blendIssue(p, forwardOps(m)*opS(p, g), compute)
}

// opS is the host's time to run one eager operator beside GPU g: p.LaunchS
// on a PCIe Gen4 host platform, p.HostGen times slower per generation
// older and faster per generation newer. The GPU says which servers it
// comes in, and so which CPU and which era of software: the same
// ResNet-50 forward takes 12.8 ms on NVIDIA's 2020 V100 host (Gen3),
// 7.7 ms on AITemplate's 2022 A100 host (Gen4) and 3.2 ms on the 2026
// H200 (Gen5).
func opS(p *Params, g GPU) float64 {
	gen := min(max(g.PCIeGen, 3), 5)
	if g.PCIeGen == 0 {
		gen = 4
	}
	return p.LaunchS * math.Pow(p.HostGen, float64(4-gen))
}

// withTrainLaunchFloor is withLaunchFloor for one training micro-batch on
// one GPU. A step runs a multiple of the forward's operators, counted on
// the H200 with bf16 autocast and a fused optimizer (docs/device,
// count_ops.py): 2.7x for ResNet-50 (2,649 against 973), 4.2x for ViT-B/16
// and ViT-L/16, 5.0x for BERT-base (5,227 against 1,044): backward,
// autocast's casts, the loss, the optimizer. A checkpointed forward runs
// once more, and a pipeline stage issues only its own layers. Small
// models at small micro-batches are host-bound: BERT-base fine-tuning at
// micro-batch 32 takes the H200's host 24-48 ms a step, the GPU about 15.
func withTrainLaunchFloor(p *Params, g GPU, m Model, stack Stack, ckpt bool, pp int, compute float64) (t float64, hostBound bool) {
	ops := forwardOps(m)
	if stack == Graph {
		ops = graphOps(p, m) // a compiled step: no Python between operators
	}
	passes := 4.4
	if m.Kind == VisionConv || !m.IsTransformer() {
		passes = 2.7
	}
	if ckpt {
		passes++
	}
	return blendIssue(p, ops*passes*opS(p, g)/float64(max(pp, 1)), compute)
}

// blendIssue is the smooth max of the host's issue time and the GPU's,
// and whether the host's is the larger.
func blendIssue(p *Params, issue, compute float64) (float64, bool) {
	if issue == 0 {
		return compute, false
	}
	k := p.LaunchBlend
	return math.Pow(math.Pow(issue, k)+math.Pow(compute, k), 1/k), issue > compute
}
