package agent

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/store"
)

// The real stores implement Sink.
var (
	_ Sink = (*store.Embedded)(nil)
	_ Sink = (*store.Redis)(nil)
)

// What the agent sends, the embedded store accepts — even at the edges of
// its limits — and shows as the server's live state.
func TestBatchesFitTheStore(t *testing.T) {
	db, err := store.OpenEmbedded(filepath.Join(t.TempDir(), "store.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()

	many := map[int]int{} // 40 processes of 40 users on GPU 0
	var apps strings.Builder
	for i := range 40 {
		many[20000+i] = 5000 + i
		apps.WriteString(zeroUUID + ", " + strconv.Itoa(20000+i) + ", 100\n")
	}
	proc := fakeProc(t, many)
	longName := func(uid string) (string, error) { return strings.Repeat("u", 60) + uid, nil }

	for i, tc := range []struct {
		name  string
		host  string
		r     Runner
		check func(t *testing.T, l store.Live)
	}{
		{"40 users, 64-byte names", "gpu-h", &recorded{gpus: "gpus-h100-80gb-hbm3-590.48.01-load.txt", apps: "=" + apps.String()},
			func(t *testing.T, l store.Live) {
				if len(l.GPUs) != 1 || len(l.GPUs[0].Users) != maxUsers || l.GPUs[0].Util != 100 {
					t.Errorf("live %+v", l)
				}
			}},
		{"a long error, a long host name", strings.Repeat("h", 300), &recorded{err: errors.New(strings.Repeat("é", 1000))},
			func(t *testing.T, l store.Live) {
				if len(l.GPUs) != 0 || !strings.HasPrefix(l.Err, "éé") || len(l.Agent) > maxAgent || !strings.HasSuffix(l.Agent, " gpuplan-agent") {
					t.Errorf("live %+v", l)
				}
			}},
		{"MIG, unknown utilization", "gpu-h", &recorded{gpus: "gpus-h200-mig-590.48.01-load.txt", apps: "apps-h200-mig-590.48.01-load.txt"},
			func(t *testing.T, l store.Live) {
				if len(l.GPUs) != 1 || l.GPUs[0].Util != -1 || l.GPUs[0].MemUsedMB != 16959 {
					t.Errorf("live %+v", l)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			server := "h" + strconv.Itoa(i) // each case starts a server's history
			a, err := New(Config{Server: server, Host: tc.host, Every: time.Second, Runner: tc.r, Now: time.Now,
				Owners: &Owners{Proc: proc, LookupID: longName}})
			if err != nil {
				t.Fatal(err)
			}
			a.Tick(ctx, db)
			if st := a.Stats(); st.Sent != 1 || st.Rejected != 0 {
				t.Fatalf("stats %+v: the store refused the batch", st)
			}
			l, err := db.Live(ctx, server)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, l)
		})
	}
}
