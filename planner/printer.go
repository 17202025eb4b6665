package planner

import (
	"fmt"
	"slices"
)

// Printer writes the planner's sentences in the reader's language: T for a
// message without arguments, Tf for one with them, each keyed by its
// English text (a string literal at the call, so the catalogue test can see
// it). The planner uses the standard library only, so it owns this small
// interface; the commands layer passes an *i18n.Printer, which has exactly
// these methods. Without one the planner writes English, formatted by fmt
// exactly as it always was.
type Printer interface {
	T(key string) string
	Tf(key string, args ...any) string
}

// english is the Printer used when none is given.
type english struct{}

func (english) T(key string) string               { return key }
func (english) Tf(key string, args ...any) string { return fmt.Sprintf(key, args...) }

// printerOr is p, or English when p is nil.
func printerOr(p Printer) Printer {
	if p == nil {
		return english{}
	}
	return p
}

// counter is a Printer that writes large counts its language's way
// (Korean 250만, 1.2억); the planner's own "2.5M" is kept for English.
type counter interface {
	Korean() bool
	Count(n float64) string
}

// countText writes a count of samples, tokens or steps for pr's reader.
func countText(pr Printer, v float64) string {
	if c, ok := pr.(counter); ok && c.Korean() {
		return c.Count(v)
	}
	return humanCount(v)
}

// TopicLabel is the advice topic as the reader sees it ("precision",
// "정밀도"). Advice.Topic itself stays the English name, which renderers
// switch on ("launch", "out of memory").
func TopicLabel(pr Printer, topic string) string {
	pr = printerOr(pr)
	switch topic {
	case "serving":
		return pr.T("serving")
	case "precision":
		return pr.T("precision")
	case "batch":
		return pr.T("batch")
	case "learning rate":
		return pr.T("learning rate")
	case "multi-GPU":
		return pr.T("multi-GPU")
	case "sharding":
		return pr.T("sharding")
	case "interconnect":
		return pr.T("interconnect")
	case "checkpointing":
		return pr.T("checkpointing")
	case "memory":
		return pr.T("memory")
	case "speed":
		return pr.T("speed")
	case "launch":
		return pr.T("launch")
	case "out of memory":
		return pr.T("out of memory")
	}
	return topic
}

// memLabel is a memory breakdown line's name for pr's reader; the planner
// computes with the English names.
func memLabel(pr Printer, name string) string {
	switch name {
	case "weights":
		return pr.T("weights")
	case "LoRA adapters + their grads/optimizer":
		return pr.T("LoRA adapters + their grads/optimizer")
	case "gradients":
		return pr.T("gradients")
	case "optimizer states":
		return pr.T("optimizer states")
	case "gather/dequant workspace":
		return pr.T("gather/dequant workspace")
	case "activations":
		return pr.T("activations")
	case "logits + loss":
		return pr.T("logits + loss")
	case notAtPeakName:
		return pr.T("not alive at the peak (freed before)")
	case "allocator headroom":
		return pr.T("allocator headroom")
	case "CUDA context":
		return pr.T("CUDA context")
	case "NCCL buffers":
		return pr.T("NCCL buffers")
	case "KV cache":
		return pr.T("KV cache")
	case "activations workspace":
		return pr.T("activations workspace")
	}
	return name
}

// linkLabel is an interconnect's description for pr's reader (perf.go
// names the route while it computes its bandwidth).
func linkLabel(pr Printer, desc string) string {
	switch desc {
	case "single GPU":
		return pr.T("single GPU")
	case "multi-node InfiniBand/RoCE":
		return pr.T("multi-node InfiniBand/RoCE")
	case "PCIe ring all-reduce":
		return pr.T("PCIe ring all-reduce")
	case "PCIe through host memory (no P2P)":
		return pr.T("PCIe through host memory (no P2P)")
	case "NVLink hybrid cube mesh":
		return pr.T("NVLink hybrid cube mesh")
	case "NVLink (fully connected quad)":
		return pr.T("NVLink (fully connected quad)")
	case "NVLink/NVSwitch":
		return pr.T("NVLink/NVSwitch")
	case "NVLink bridge (pair)":
		return pr.T("NVLink bridge (pair)")
	case "NVLink pairs + PCIe between pairs":
		return pr.T("NVLink pairs + PCIe between pairs")
	case "none (independent replicas)":
		return pr.T("none (independent replicas)")
	case "none (layers run in turn)":
		return pr.T("none (layers run in turn)")
	}
	return desc
}

// localize writes the labels the planner computes with in English (memory
// breakdown names) in the reader's language, once every decision that
// reads them is made. A breakdown is copied before it is changed.
func (pc *planContext) localize(res *Result) {
	if _, ok := pc.pr.(english); ok {
		return
	}
	var seen []*Estimate
	each := func(e *Estimate) {
		if e == nil || slices.Contains(seen, e) {
			return
		}
		seen = append(seen, e)
		bd := e.Memory.Breakdown
		copied := false
		for i, it := range bd {
			if n := memLabel(pc.pr, it.Name); n != it.Name {
				if !copied {
					bd = append([]MemItem(nil), bd...)
					copied = true
				}
				bd[i].Name = n
			}
		}
		e.Memory.Breakdown = bd
	}
	for _, e := range res.Plans {
		each(e)
	}
	each(res.Recommendations.Fastest)
	each(res.Recommendations.Cheapest)
	each(res.Recommendations.Balanced)
	if res.Baseline != nil {
		each(res.Baseline.BaselinePlan)
	}
}
