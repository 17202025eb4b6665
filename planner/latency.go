package planner

import "math"

// The latency floor of a forward pass. Eager PyTorch issues every kernel
// from the host, one at a time; at small batches the GPU finishes each
// kernel before the next arrives, so a batch of 1 takes about as long as a
// batch of 8 (NVIDIA's ResNet-50 tables: 12.8 ms at batch 1 and 13.7 ms at
// batch 8 on a V100, within 3 % of each other on a T4, whose compute is a
// quarter of the V100's).

// forwardKernels is the number of kernels one eager forward pass issues,
// counted with torch.profiler (PyTorch 2.11, fp16, batch 1; the script
// and counts are in docs/device): torchvision's ResNet-50 issues 280 for
// its 50 layers (a convolution can take two kernels in channels-last fp16,
// then its batch norm, activation and the blocks' residual adds), so 5.6
// per CNN layer; a transformer layer issues 11-12 (its projections, fused
// attention, two residual adds with layer norms and the MLP), and the
// embeddings, mask and head add a handful to a few dozen: ViT-B/16 138
// (12 layers) and ViT-L/16 270 (24), BERT-base 177 (12) and BERT-large
// 321 (24).
func forwardKernels(m Model) float64 {
	if m.Layers <= 0 {
		return 0
	}
	if m.Kind == VisionConv || !m.IsTransformer() {
		return 5.6 * float64(m.Layers)
	}
	return 12*float64(m.Layers) + 20
}

// withLaunchFloor returns the time of a forward pass whose GPU work takes
// compute seconds, once the host's kernel issue is counted: the two
// overlap, imperfectly (p.LaunchBlend).
func withLaunchFloor(p *Params, m Model, compute float64) (t float64, hostBound bool) {
	return blendIssue(p, forwardKernels(m)*p.LaunchS, compute)
}

// withTrainLaunchFloor is withLaunchFloor for one training micro-batch on
// one GPU. A step issues a multiple of the forward's kernels, counted on
// the H200 with bf16 autocast and a fused optimizer (docs/device,
// count_ops.py): 2.8x for ResNet-50 (962 against 342), 5.9x for ViT-B/16
// (839 against 143) and 6.8x for BERT-base (1,212 against 178) — backward
// kernels, autocast's casts, the loss. A checkpointed forward runs once
// more, and a pipeline stage issues only its own layers. Small models at
// small micro-batches are host-bound: BERT-base fine-tuning at
// micro-batch 32 takes the H200's host 24-48 ms a step, the GPU about 15.
func withTrainLaunchFloor(p *Params, m Model, ckpt bool, pp int, compute float64) (t float64, hostBound bool) {
	passes := 6.3
	if m.Kind == VisionConv || !m.IsTransformer() {
		passes = 2.8
	}
	if ckpt {
		passes++
	}
	return blendIssue(p, forwardKernels(m)*passes*p.LaunchS/float64(max(pp, 1)), compute)
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
