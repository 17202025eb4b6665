package commands

import (
	"fmt"
	"time"

	"github.com/gpuplan/gpuplan/commands/lang"
	"github.com/gpuplan/gpuplan/planner"
)

// PlanData is a plan's --json form: the planner's result with what was read
// and, for a question, its answer in one line.
type PlanData struct {
	// ReadAs restates the request in canonical words (the "Read as:" line).
	ReadAs string `json:"read_as"`
	// Question is the question asked ("fit", "time", "count", "which_gpu",
	// "which_server", "cost"), empty for a plain request.
	Question string `json:"question,omitempty"`
	// Answer is the one-line answer to a "how many" question.
	Answer string `json:"answer,omitempty"`
	*planner.Result
}

// planEnv is what plan requests are read against: the catalogue and the
// team's servers.
func (s *Set) planEnv() lang.Env {
	env := lang.Env{Catalog: s.deps.Catalog, Now: time.Now()}
	if inv := s.deps.Inventory; inv != nil {
		if inv.Timezone != nil {
			env.Now = env.Now.In(inv.Timezone) // "by friday" ends on the team's Friday
		}
		for _, srv := range inv.Servers {
			env.Servers = append(env.Servers, srv.Hardware())
		}
	}
	return env
}

// countLadder is the GPU counts a "how many" question tries.
var countLadder = []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}

// answerQuestion turns the question a request asks into the request to
// plan. "How many H100s (to finish in a day)?" tries counts of that GPU
// and plans the smallest that fits and meets the deadline; "which of our
// servers" plans on every team server and lets the team section rank
// them. Other questions are answered by the plan card itself.
func (s *Set) answerQuestion(rd lang.Reading) (planner.Request, string, error) {
	req := rd.Request
	if rd.Ask == lang.AskWhichServer && len(req.Targets) == 0 && s.deps.Inventory != nil {
		for _, srv := range s.deps.Inventory.Servers {
			req.Pool = append(req.Pool, srv.Hardware())
		}
		return req, "", nil
	}
	if !rd.CountOpen {
		return req, "", nil
	}
	base := req.Targets[0]
	var best *planner.Estimate
	var fastest *planner.Estimate
	for _, n := range countLadder {
		hw := base
		hw.Count = n
		hw.GPUsPerNode = 0
		r, err := s.deps.Catalog.Plan(planner.Request{Job: req.Job, Targets: []planner.Hardware{hw}, NoSearch: true, Baseline: req.Baseline})
		if err != nil || len(r.Plans) == 0 || !r.Plans[0].Memory.Fits {
			continue
		}
		e := r.Plans[0]
		if fastest == nil || e.Time.TotalHours != nil && fastest.Time.TotalHours != nil && *e.Time.TotalHours < *fastest.Time.TotalHours {
			fastest = e
		}
		if rd.Deadline > 0 {
			if e.Time.TotalHours == nil || time.Duration(*e.Time.TotalHours*float64(time.Hour)) > rd.Deadline {
				continue
			}
		}
		best = e
		break
	}
	name := base.GPU.Name
	switch {
	case best != nil:
		req.Targets[0].Count = best.GPUs
		req.Targets[0].GPUsPerNode = 0
		msg := fmt.Sprintf("%d× %s", best.GPUs, name)
		if rd.Deadline > 0 && best.Time.TotalHours != nil {
			msg += fmt.Sprintf(" — the fewest that finish within %s (%s)", rd.DeadlineWords, planner.FormatHours(*best.Time.TotalHours))
		} else {
			msg += " — the fewest that fit"
			if best.Time.TotalHours != nil {
				msg += fmt.Sprintf(" (%s)", planner.FormatHours(*best.Time.TotalHours))
			}
		}
		return req, msg, nil
	case fastest != nil:
		req.Targets[0].Count = fastest.GPUs
		req.Targets[0].GPUsPerNode = 0
		return req, fmt.Sprintf("no count of %s finishes within %s; the fastest tried is %d× at %s",
			name, rd.DeadlineWords, fastest.GPUs, planner.FormatHours(*fastest.Time.TotalHours)), nil
	default:
		return req, fmt.Sprintf("%s does not hold this job at up to %d GPUs — see the recommendations", name, countLadder[len(countLadder)-1]), nil
	}
}
