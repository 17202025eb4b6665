package store

import (
	"context"
	goflag "flag"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

var vsRaw = goflag.Bool("vsraw", false, "compare the reserve path's rate with redis-benchmark running the same reserve script")

// The throughput target, measured like for like: reservations per
// second through the whole Go path (validation, go-redis, Script.Run,
// decoding the answer) next to redis-benchmark sending EVALSHA of the same
// reserve script, with the same keys and arguments, from C. Both make a
// real reservation on every call (1 ms long, on a 64-GPU server, with
// Redis TIME, a fresh request id each), 50 connections, on one idle
// Redis started for the test. It reports; it asserts only that both ran.
//
//	go test ./store -run TestReserveRateVsRawScript -vsraw -v
func TestReserveRateVsRawScript(t *testing.T) {
	if !*vsRaw {
		t.Skip("a measurement: run with -vsraw")
	}
	bench, err := exec.LookPath("redis-benchmark")
	if err != nil {
		t.Skip("no redis-benchmark on PATH")
	}
	srv := StartRedis(t)
	srv.NeedOwn(t)
	const server, gpus, clients, n = "rate", 64, 50, 100000
	ctx := context.Background()
	client := redis.NewClient(srv.Options())
	defer client.Close()
	sha, err := client.ScriptLoad(ctx, reserveLua).Result()
	if err != nil {
		t.Fatal(err)
	}
	k := keysFor(server)
	req := ReserveRequest{RequestID: "x", Server: server, ServerGPUs: gpus, Count: 1, Owner: "U0BENCH", Duration: time.Millisecond}
	a, err := validateReserve(req)
	if err != nil {
		t.Fatal(err)
	}
	// The arguments Reserve sends, with the request id (and its key)
	// randomized per call by redis-benchmark.
	args := []string{"EVALSHA", sha, "6", k.resv, k.ends, k.seq, k.audit, k.req("__rand_int__"), k.gidx,
		"", "r__rand_int__", a.Server, fmt.Sprint(a.ServerGPUs), fmt.Sprint(a.Count), joinInts(a.GPUs), a.Owner,
		fmt.Sprint(a.Start), fmt.Sprint(a.Duration), fmt.Sprint(a.Max), jsonString(a.Note), fmt.Sprint(msGrace), fmt.Sprint(msHorizon),
		fmt.Sprint(msCleanup), fmt.Sprint(reqTTLSec), fmt.Sprint(AuditCap), fmt.Sprint(msSpan), jsonString(a.Owner), fmt.Sprint(SweepEvery)}
	host, port, _ := strings.Cut(srv.Addr, ":")
	rawRate := func() float64 {
		cmd := exec.Command(bench, append([]string{"-h", host, "-p", port, "-n", fmt.Sprint(n), "-c", fmt.Sprint(clients), "-r", "1000000000", "-q"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("redis-benchmark: %v\n%s", err, out)
		}
		m := regexp.MustCompile(`([0-9.]+) requests per second`).FindStringSubmatch(string(out))
		if m == nil {
			t.Fatalf("redis-benchmark said: %s", out)
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return v
	}
	// Every raw call must have been a reservation, not an error or a
	// conflict: the answers are checked on a sample through redis-cli's
	// path (go-redis) with the same arguments.
	check, err := client.EvalSha(ctx, sha, args[3:9], toAny(args[9:])...).Text()
	if err != nil || !strings.Contains(check, `"ok"`) {
		t.Fatalf("the raw arguments do not make a reservation: %v %s", err, check)
	}
	o := srv.Options()
	o.PoolSize = 64
	s := NewRedis(redis.NewClient(o), nil)
	defer s.Close()
	goRate := func() float64 {
		var next, fails atomic.Int64
		start := time.Now()
		var wg sync.WaitGroup
		for range clients {
			wg.Go(func() {
				for {
					i := next.Add(1)
					if i > n {
						return
					}
					r := req
					r.RequestID = "g" + strconv.FormatInt(i, 36) + "-" + strconv.FormatInt(start.UnixNano(), 36)
					if _, err := s.Reserve(ctx, r); err != nil {
						fails.Add(1)
					}
				}
			})
		}
		wg.Wait()
		if f := fails.Load(); f > 0 {
			t.Fatalf("%d of %d Go reserves failed", f, n)
		}
		return float64(n) / time.Since(start).Seconds()
	}
	var raws, gos []float64
	for range 3 {
		raws = append(raws, rawRate())
		gos = append(gos, goRate())
	}
	med := func(v []float64) float64 {
		c := append([]float64(nil), v...)
		for i := range c {
			for j := i + 1; j < len(c); j++ {
				if c[j] < c[i] {
					c[i], c[j] = c[j], c[i]
				}
			}
		}
		return c[len(c)/2]
	}
	t.Logf("RATE raw EVALSHA of the reserve script (redis-benchmark, %d connections): %.0f %.0f %.0f /s, median %.0f", clients, raws[0], raws[1], raws[2], med(raws))
	t.Logf("RATE reserves through the Go path (%d goroutines): %.0f %.0f %.0f /s, median %.0f", clients, gos[0], gos[1], gos[2], med(gos))
	t.Logf("RATE ratio %.2f", med(gos)/med(raws))
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
