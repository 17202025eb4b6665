package planner

// A layout said with the job ("tp 8 pp 2", "TP=4"): the measured run was
// split that way, or the team means to split it so. It is planned as said
// on the hardware it belongs to — the measured run's when there is one,
// else the named targets — so the model's speed for that run is the speed
// of that layout; the recommendation search picks its own layout for every
// other option, as it would for a new job.

// layoutSaid reports whether the job names a tensor or pipeline degree.
func (j *Job) layoutSaid() bool { return j.TensorParallel > 0 || j.PipelineParallel > 0 }

// resolveLayout drops a layout said with a served model: a serving engine
// splits the model over the GPUs it is given.
func (pc *planContext) resolveLayout() {
	j := &pc.job
	if !j.layoutSaid() || j.Workload != Inference {
		return
	}
	j.TensorParallel, j.PipelineParallel = 0, 0
	pc.assume(pc.pr.T("a served model is split over the GPUs it is given (tensor parallel across them): the degree said is not planned apart"))
}

// checkLayout says why the layout said cannot run on h, or nil.
func (pc *planContext) checkLayout(h Hardware) error {
	j := &pc.job
	if !j.layoutSaid() {
		return nil
	}
	tp, pp := max(1, j.TensorParallel), max(1, j.PipelineParallel)
	m := j.Model
	switch {
	case !m.IsTransformer() && tp*pp > 1:
		return userError(pc.pr.Tf("tensor and pipeline parallelism split a transformer's layers; %s is not one: leave them out", m.ID))
	case tp > 1 && m.Heads%tp != 0:
		return userError(pc.pr.Tf("tensor parallel %d needs a head count it divides: %s has %d attention heads", tp, m.ID, m.Heads))
	case pp > m.Layers:
		return userError(pc.pr.Tf("pipeline parallel %d needs at least as many layers: %s has %d", pp, m.ID, m.Layers))
	case h.Count%(tp*pp*max(1, j.ContextParallel)) != 0:
		return userError(pc.pr.Tf("tensor × pipeline parallel %d × %d needs a GPU count it divides; %d GPUs do not", tp, pp, h.Count))
	case tp*pp > 1 && j.Strategy == DDP:
		return userError(pc.pr.T("`ddp` keeps a whole model on every GPU; with tensor or pipeline parallelism say `zero1` or `fsdp`, or leave the strategy out"))
	case tp*pp > 1 && (j.Strategy == ZeRO2 || j.Strategy == ZeRO3):
		return userError(pc.pr.T("ZeRO-2 and ZeRO-3 are not run beside tensor or pipeline parallelism (Megatron pairs them with the distributed optimizer, ZeRO-1): say `zero1` or `fsdp`, or leave the strategy out"))
	}
	return nil
}
