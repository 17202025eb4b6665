package commands

import (
	"context"
	"strings"

	"github.com/gpuplan/gpuplan/commands/lang"
)

// notAPlan answers a request the plan language refused when it asks
// something else: GPUs' price with no job ("h100 8장 일주일 빌리면
// 얼마야"), or the reservations' status ("plan server-h 비었어?"); a booking
// sent as a plan is not made, and the answer says what it reads as.
// Otherwise the plan language's refusal stands.
func (s *Set) notAPlan(ctx context.Context, ureq Request, args string, err error) (*Reply, error) {
	p := ureq.printer()
	if rt, ok := lang.ReadRental(s.planEnvCtx(ctx), args); ok {
		r, err := rentalReply(p, rt)
		if err == nil && rt.InWon {
			r.Summary = inWon(p, lang.Reading{InWon: true}, s.deps.KRWPerUSD, r.Summary) // "원화로"
		}
		if gs := lang.GPUsNamed(s.deps.Catalog, args); err == nil && len(gs) >= 2 && valueAsked(args) {
			r.Summary = valueLine(p, gs) + "\n" + r.Summary // "which is more cost-effective, a100 or h100?"
		}
		return r, err
	}
	if gs := lang.GPUsNamed(s.deps.Catalog, args); len(gs) >= 2 && lang.NoModel(err) {
		// "h100 vs h200 차이가 뭐야": the GPUs side by side, and how to plan on them
		r := gpuTable(p, gs)
		r.Summary += " — " + p.Tf("name a model to plan a job on them: `llama 3 8b lora on %s vs %s`", gs[0].ID, gs[1].ID)
		if valueAsked(args) {
			// "에이100이랑 h100 중에 뭐가 가성비 좋아요?": the work per dollar first
			r.Summary = valueLine(p, gs) + "\n" + r.Summary
		} else if line := speedLine(p, s.deps.Catalog, gs, speedJob(args)); line != "" {
			// "에이백 80기가랑 에이치백 비교하면 파인튜닝 속도 얼마나 차이나?"
			r.Summary = line + "\n" + r.Summary
		}
		return r, nil
	}
	if lang.NoModel(err) && whereAsked(args) && s.deps.Inventory != nil && len(s.deps.Inventory.Servers) > 0 {
		// "오늘 좀 큰 모델 돌려야 되는데 어디 쓰면 돼?": what is free now,
		// and that the model picks the server
		if r, serr := s.index["status"].run(ctx, s, ureq, ""); serr == nil {
			r.Summary = p.T("Name the model (and the job) for a plan that picks the server; what is free now:") + " " + r.Summary
			return r, nil
		}
	}
	if cr, ok := lang.ReadCommand(s.planEnv(), args); ok {
		if c, ok := s.index[cr.Name]; ok && (cr.Name == "status" || cr.Name == "mine") {
			return c.run(ctx, s, ureq, cr.Args)
		}
		return nil, &UserError{Msg: p.Tf("that reads as `%s %s`, not a plan: send it without `plan`", cr.Name, cr.Args),
			Hint: cr.Name + " " + cr.Args}
	}
	return nil, err
}

// tookSaid reports whether a request says a run was measured ("걸렸는데",
// "took"): its hours are the run's, not a rental's span.
func tookSaid(text string) bool {
	low := strings.ToLower(text)
	for _, w := range []string{"걸렸", "걸리던", "돌렸", "took", "baseline", "measured", "it ran", "ran for"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}
