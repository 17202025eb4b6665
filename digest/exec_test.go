package digest

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/store"
)

// A `gpuplan exec` booking counts as booked, and apart as booked and used
// by a job; its lease is not "expiring soon" (it ends with the job).
func TestExecBookingsAreTold(t *testing.T) {
	to := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	job := store.Reservation{ID: "s1-1", Server: "s1", GPUs: []int{0, 1}, Owner: "U1", Start: to.Add(-3 * time.Hour), End: to.Add(-time.Hour),
		Note: store.ExecNote("python train.py")}
	running := store.Reservation{ID: "s1-2", Server: "s1", GPUs: []int{2}, Owner: "U2", Start: to.Add(-time.Hour), End: to.Add(4 * time.Minute),
		Note: store.ExecNote("python eval.py")}
	plain := store.Reservation{ID: "s1-3", Server: "s1", GPUs: []int{3}, Owner: "U3", Start: to.Add(-2 * time.Hour), End: to.Add(time.Hour)}
	rep := Build("day", to, []Input{{Server: testServer("s1", 4), History: []store.Reservation{job, running, plain},
		Live: []store.Reservation{running, plain}}}, time.UTC)
	sd := rep.Servers[0]
	near(t, "booked GPU-h", sd.BookedH, 2*2+1+2)
	near(t, "exec GPU-h", sd.ExecH, 2*2+1)
	if len(rep.Expiring) != 1 || rep.Expiring[0].ID != "s1-3" {
		t.Errorf("expiring soon: %+v; want only the plain booking", rep.Expiring)
	}
}
