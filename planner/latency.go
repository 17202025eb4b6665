package planner

import "math"

// The latency floor of a forward pass. Eager PyTorch issues every kernel
// from the host, one at a time; at small batches the GPU finishes each
// kernel before the next arrives, so a batch of 1 takes about as long as a
// batch of 8 (NVIDIA's ResNet-50 tables: 12.8 ms at batch 1 and 13.7 ms at
// batch 8 on a V100, within 3 % of each other on a T4, whose compute is a
// quarter of the V100's).

// forwardKernels is the number of kernels one eager forward pass issues:
// a CNN "layer" is a convolution, its batch norm and its activation; a
// transformer layer is its projections, the attention's matmuls, scale,
// mask and softmax, two residual adds with layer norms and the MLP
// (about 16 with the reshapes that copy).
func forwardKernels(m Model) float64 {
	if m.Layers <= 0 {
		return 0
	}
	if m.Kind == VisionConv || !m.IsTransformer() {
		return 3 * float64(m.Layers)
	}
	return 16 * float64(m.Layers)
}

// withLaunchFloor returns the time of a forward pass whose GPU work takes
// compute seconds, once the host's kernel issue is counted: the two
// overlap, imperfectly (p.LaunchBlend).
func withLaunchFloor(p *Params, m Model, compute float64) float64 {
	issue := forwardKernels(m) * p.LaunchS
	if issue == 0 {
		return compute
	}
	k := p.LaunchBlend
	return math.Pow(math.Pow(issue, k)+math.Pow(compute, k), 1/k)
}
