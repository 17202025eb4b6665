package planner

import (
	"math"
	"strings"
)

// Build is what a box for a GPU configuration needs (seed 002's checklist,
// made concrete from the catalogue's TDP and interconnect data).
type Build struct {
	GPU             string   `json:"gpu"`
	GPUName         string   `json:"gpu_name"`
	GPUs            int      `json:"gpus"`
	GPUWatts        float64  `json:"gpu_watts"`
	SystemWatts     float64  `json:"system_watts"`
	PSUWatts        float64  `json:"psu_watts"`
	Circuits        string   `json:"circuits"`
	HostMemoryGB    int      `json:"host_memory_gb"`
	CPUCores        int      `json:"cpu_cores"`
	PCIeLanes       int      `json:"pcie_lanes"`
	Platform        string   `json:"platform"`
	PeerToPeer      string   `json:"peer_to_peer"`
	Cooling         []string `json:"cooling"`
	Notes           []string `json:"notes"`
	TotalGPUMemGB   float64  `json:"total_gpu_memory_gb"`
	AllReduceGBs    float64  `json:"allreduce_bus_gbs"`
	AllReduceRoute  string   `json:"allreduce_route"`
	TransientFactor float64  `json:"transient_factor"`
}

// Build sizes a server for h, in English.
func (c *Catalog) Build(h Hardware) (*Build, error) { return c.BuildIn(h, nil) }

// BuildIn sizes a server for h, written for pr's reader; nil means English.
//
// BuildIn is long on purpose: power, host memory, CPU lanes, P2P and
// cooling are one server's sizing, each a few lines.
func (c *Catalog) BuildIn(h Hardware, pr Printer) (*Build, error) {
	pr = printerOr(pr)
	g := h.GPU
	n := h.Count
	if n < 1 || n > 16 {
		return nil, userError(pr.T("a single server holds 1 to 16 GPUs; for more, plan several nodes"))
	}
	b := &Build{GPU: g.ID, GPUName: g.Name, GPUs: n, TotalGPUMemGB: g.MemoryGB * float64(n)}
	b.GPUWatts = g.TDPW * float64(n)
	// CPUs: one socket up to 4 GPUs, two above; plus board, fans, drives.
	cpuW := 280.0
	if n > 4 {
		cpuW = 2 * 350
	}
	other := 150 + 15*float64(n)
	b.SystemWatts = b.GPUWatts + cpuW + other
	// GeForce cards spike well above TDP for milliseconds (RTX 3090/4090
	// transients ~1.5-2x); datacenter parts are power-capped.
	b.TransientFactor = 1.25
	if g.Consumer {
		b.TransientFactor = 1.5
	}
	psu := b.GPUWatts*b.TransientFactor + cpuW + other
	b.PSUWatts = math.Ceil(psu*1.1/100) * 100 // +10 % so the PSU runs below its rating
	switch {
	case b.SystemWatts <= 1440:
		b.Circuits = pr.T("one 15 A / 120 V circuit (1440 W continuous) or any 230 V circuit")
	case b.SystemWatts <= 2990:
		b.Circuits = pr.Tf("%.0f W sustained: a 230 V circuit (16 A = 2990 W continuous), or two 120 V circuits with two PSUs", b.SystemWatts)
	default:
		b.Circuits = pr.Tf("%.0f W sustained: 208-240 V server power (C19/C20), redundant PSUs, a rack PDU", b.SystemWatts)
	}
	// Host memory: at least the GPUs' memory, twice that for pinned
	// buffers, data loading and checkpoint staging.
	b.HostMemoryGB = roundUpPow2(int(math.Max(64, 2*b.TotalGPUMemGB)))
	b.CPUCores = max(8, 4*n+4) // 4 dataloader workers per GPU plus the main processes
	b.PCIeLanes = 16*n + 8     // x16 per GPU + NVMe
	switch {
	case g.SXM:
		b.Platform = pr.T("HGX/DGX baseboard server (SXM parts are not sold as cards): buy a certified 4- or 8-GPU system")
	case b.PCIeLanes <= 24:
		b.Platform = pr.T("desktop platform is enough (x16 for the GPU + x4 NVMe)")
	case b.PCIeLanes <= 128:
		b.Platform = pr.Tf("workstation/server CPU with ≥%d PCIe lanes (Threadripper PRO, Xeon W, single-socket EPYC): desktop CPUs have 20-28 lanes and would run the cards at x8/x4", b.PCIeLanes)
	default:
		b.Platform = pr.Tf("dual-socket server (EPYC/Xeon) or PCIe switches: %d lanes needed", b.PCIeLanes)
	}
	bus, route := linkGBs(&fittedParams, g, n, max(n, 1), InterconnectAuto)
	if n > 1 {
		b.AllReduceGBs, b.AllReduceRoute = bus, linkLabel(pr, route)
	}
	switch {
	case g.SXM && g.NVLinkGBs > 0 && g.Generation == Volta && n > 4:
		b.PeerToPeer = pr.Tf("NVLink hybrid cube mesh, no NVSwitch: each GPU links directly to 4 of the other 7 (%.0f GB/s per GPU, bidirectional), the rest are two hops away", g.NVLinkGBs)
	case g.SXM && g.NVLinkGBs > 0 && g.Generation == Volta:
		b.PeerToPeer = pr.Tf("NVLink, fully connected within a quad of the hybrid cube mesh board (%.0f GB/s per GPU, bidirectional)", g.NVLinkGBs)
	case g.SXM && g.NVLinkGBs > 0:
		b.PeerToPeer = pr.Tf("NVLink/NVSwitch all-to-all, %.0f GB/s per GPU (bidirectional)", g.NVLinkGBs)
	case g.NVLinkGBs > 0:
		b.PeerToPeer = pr.Tf("NVLink bridges join pairs (%.0f GB/s); between pairs traffic crosses PCIe Gen%d", g.NVLinkGBs, g.PCIeGen)
	case g.Consumer:
		b.PeerToPeer = pr.Tf("no NVLink and no P2P with stock drivers: GPU-to-GPU traffic bounces through host memory over PCIe Gen%d", g.PCIeGen)
	default:
		b.PeerToPeer = pr.Tf("no NVLink: P2P over PCIe Gen%d (put the cards under one CPU socket or PCIe switch)", g.PCIeGen)
	}
	ff := g.FormFactor
	switch {
	case g.SXM:
		b.Cooling = append(b.Cooling, pr.Tf("%d × %.0f W SXM modules: data-centre airflow or liquid cooling; plan %.1f kW of heat per server", n, g.TDPW, b.SystemWatts/1000))
	case g.Consumer:
		b.Cooling = append(b.Cooling, pr.Tf("%s is a %s card with open-air fans: more than two side by side recirculate hot air — use blower/water-cooled versions, risers, or a spaced-out frame", g.Name, ff))
	case strings.Contains(strings.ToLower(ff), "passive"), g.TDPW >= 250 && !g.Consumer:
		b.Cooling = append(b.Cooling, pr.Tf("%s is passively cooled: it needs a server chassis with front-to-back airflow rated for %.0f W per slot; it will throttle in a desktop case", g.Name, g.TDPW))
	default:
		b.Cooling = append(b.Cooling, pr.T("blower-style card: fine in a workstation case with good front intake"))
	}
	if b.SystemWatts > 2000 {
		b.Cooling = append(b.Cooling, pr.Tf("%.0f W of heat: a room needs about %.0f BTU/h of cooling", b.SystemWatts, b.SystemWatts*3.412))
	}
	if n > 1 && g.Consumer && g.NVLinkGBs == 0 {
		b.Notes = append(b.Notes, pr.T("multi-GPU training works (NCCL falls back to shared memory), but data-parallel scaling is limited: prefer fewer, larger GPUs for models that need sharding"))
	}
	b.Notes = append(b.Notes, networkAdvice(pr, g, n)...)
	if g.MemoryGB < 24 {
		b.Notes = append(b.Notes, pr.Tf("%.0f GB per GPU limits full fine-tuning to ~1B-parameter models; LoRA/QLoRA for larger", g.MemoryGB))
	}
	return b, nil
}

func roundUpPow2(v int) int {
	p := 1
	for p < v {
		p <<= 1
	}
	return p
}

// networkAdvice is seed 002's networking checklist: what one server needs,
// and what it takes to join several for one training job.
func networkAdvice(pr Printer, g GPU, n int) []string {
	out := []string{pr.Tf("network for one server: the GPUs talk over %s; the network only brings data in and checkpoints out — a dual-port 25-100 GbE NIC to your storage, with the dataset on local NVMe, is enough",
		map[bool]string{true: "NVLink", false: "PCIe"}[g.NVLinkGBs > 0])}
	if g.Consumer {
		return append(out, pr.T("several servers: GeForce cards have no GPUDirect RDMA, so gradients between boxes go through host memory; 100 GbE with RoCE is the most that helps, and data-parallel scaling across boxes stays poor — prefer one box with more memory per GPU"))
	}
	gbps := 200
	fabric := "HDR InfiniBand (ConnectX-6) or 200 GbE RoCE v2"
	if g.Generation == Hopper || g.Generation == Blackwell {
		gbps, fabric = 400, "NDR InfiniBand (ConnectX-7) or 400 GbE RoCE v2"
	}
	if g.Generation == Pascal || g.Generation == Volta || g.Generation == Turing {
		gbps, fabric = 100, "EDR InfiniBand or 100 GbE RoCE v2"
	}
	return append(out, pr.Tf("several servers for one job: one %d Gb/s NIC per GPU (%d for this box; %s) on the GPU's own PCIe switch for GPUDirect RDMA, a non-blocking rail-optimised switch fabric, and for RoCE a lossless Ethernet (PFC/ECN); plain TCP Ethernet makes the gradient all-reduce across boxes the bottleneck. Plus a separate 25-100 GbE storage/management network",
		gbps, n, fabric))
}
