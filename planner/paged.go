package planner

import "math"

// Paged optimizers (bitsandbytes PagedAdamW, PagedAdamW8bit; Hugging Face
// optim="paged_adamw_8bit"). Their states are allocated in CUDA unified
// memory: they sit on the GPU while it has room and the driver evicts
// them page by page to host RAM when it runs short, paging them back for
// the optimizer step. So they never cause an out-of-memory error and do
// not count toward the peak that must fit (PyTorch's allocator does not
// even see them); what does not fit crosses PCIe twice per step.
const (
	PagedAdamW    Optimizer = "paged-adamw"    // 32-bit moments, paged
	PagedAdam8bit Optimizer = "paged-adam8bit" // 8-bit moments, paged
)

// Paged reports whether the optimizer's states live in unified memory.
func (o Optimizer) Paged() bool { return o == PagedAdamW || o == PagedAdam8bit }

// base is the optimizer's update rule and state size, paged or not.
func (o Optimizer) base() Optimizer {
	switch o {
	case PagedAdamW:
		return AdamW
	case PagedAdam8bit:
		return Adam8bit
	}
	return o
}

// momentBytes is the optimizer-moment part of sb.optim per parameter:
// what a paged optimizer allocates in unified memory. The fp32 master
// copy of mixed precision is a model parameter in PyTorch, not optimizer
// state, and stays on the GPU.
func momentBytes(p Precision, sb stateBytes) float64 {
	if sb.weights == 2 && sb.grads == 4 || p == FP8 {
		return math.Max(0, sb.optim-4) // mixed precision: minus the master copy
	}
	return sb.optim
}

// pagedSpill is the part of the paged states (bytes per GPU) that does not
// fit beside the rest of the job and so moves over PCIe each step.
func pagedSpill(m Memory) float64 {
	return math.Max(0, m.PagedGiB-math.Max(0, m.HeadroomGiB)) * gib
}

// pcieBytesPerS is the host link's achieved bandwidth, one direction.
func pcieBytesPerS(p *Params, g GPU) float64 {
	gbs := 12.5
	switch {
	case g.HostC2CGBs > 0:
		gbs = g.HostC2CGBs / 2 // NVLink-C2C to the Grace CPU, each way
	case g.PCIeGen == 5:
		gbs = 50
	case g.PCIeGen == 4:
		gbs = 25
	}
	return gbs * p.LinkEff * 1e9
}
