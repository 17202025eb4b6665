package main

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/bot/slackfake"
	"github.com/redis/go-redis/v9"
)

// testRedis returns the URL of a Redis with the given maxmemory-policy and
// appendonly: a redis-server of its own on a free loopback port, or the
// one GPUPLAN_TEST_REDIS_URL names (database 15, reconfigured for the
// test and put back after). It skips without either.
func testRedis(t *testing.T, policy, appendonly string) string {
	t.Helper()
	if raw := os.Getenv("GPUPLAN_TEST_REDIS_URL"); raw != "" {
		opt, err := redis.ParseURL(raw)
		if err != nil {
			t.Fatalf("GPUPLAN_TEST_REDIS_URL: %v", err)
		}
		opt.DB = 15
		c := redis.NewClient(opt)
		ctx := context.Background()
		old, err := c.ConfigGet(ctx, "*").Result()
		if err != nil {
			t.Fatalf("GPUPLAN_TEST_REDIS_URL: CONFIG GET: %v", err)
		}
		set := func(k, v string) {
			if err := c.ConfigSet(ctx, k, v).Err(); err != nil {
				t.Fatalf("CONFIG SET %s %s: %v", k, v, err)
			}
		}
		set("maxmemory-policy", policy)
		set("appendonly", appendonly)
		t.Cleanup(func() {
			set("maxmemory-policy", old["maxmemory-policy"])
			set("appendonly", old["appendonly"])
			c.Close()
		})
		u, _ := url.Parse(raw)
		u.Path = "/15"
		return u.String()
	}
	return startOwnRedis(t, "--appendonly", appendonly, "--maxmemory-policy", policy).url
}

func runDoctor(t *testing.T, env map[string]string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	c := doctor(context.Background(), nil, func(k string) string { return env[k] }, &out, &bytes.Buffer{})
	return c, out.String()
}

// doctor checks Redis's policy: noeviction with append-only passes,
// persistence off passes with the warning shown, an evicting policy fails
// and says what to set.
func TestDoctorRedisPolicy(t *testing.T) {
	fake := slackfake.New(t)
	for _, tc := range []struct {
		policy, aof string
		code        int
		want        []string
	}{
		{"noeviction", "yes", 0, []string{"✓ reservation store: Redis", "✓ redis policy: maxmemory-policy noeviction"}},
		{"noeviction", "no", 0, []string{"✓ redis policy: no eviction policy, but see below", "! redis policy: Redis persistence is off"}},
		{"allkeys-lru", "yes", 1, []string{"✗ redis policy:", "allkeys-lru", "set maxmemory-policy noeviction"}},
	} {
		t.Run(tc.policy+"-aof-"+tc.aof, func(t *testing.T) {
			env := fakeEnv(t, fake, "REDIS_URL", testRedis(t, tc.policy, tc.aof))
			c, out := runDoctor(t, env)
			if c != tc.code {
				t.Errorf("exit %d, want %d:\n%s", c, tc.code, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("doctor output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// doctor reports the inventory (its server count, or the line that is
// wrong) and keeps checking the rest when the tokens are wrong.
func TestDoctorInventoryAndEveryCheckRuns(t *testing.T) {
	fake := slackfake.New(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "servers.yaml")
	if err := os.WriteFile(good, []byte("servers:\n  - name: box\n    gpu: h100\n    gpus: 2\n  - name: tiny\n    gpu: v100\n    gpus: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, out := runDoctor(t, fakeEnv(t, fake, "GPUPLAN_SERVERS", good))
	if c != 0 || !strings.Contains(out, "✓ servers: 2 from "+good) {
		t.Errorf("good inventory: exit %d\n%s", c, out)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("servers:\n  - name: box\n    gpu: h1000\n    gpus: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := fakeEnv(t, fake, "GPUPLAN_SERVERS", bad, "SLACK_BOT_TOKEN", "xoxp-wrong-kind")
	c, out = runDoctor(t, env)
	for _, want := range []string{"✗ tokens", "✗ servers: bad.yaml:3", "h1000", "✓ reservation store"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if c != 1 || strings.Contains(out, "wrong-kind") {
		t.Errorf("exit %d, or the token is shown:\n%s", c, out)
	}
}
