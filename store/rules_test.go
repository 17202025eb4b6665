package store

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// crc16 is Redis Cluster's key hash (CRC-16/XMODEM), written out here so
// the test does not lean on the code it checks.
func crc16(s string) uint16 {
	var crc uint16
	for i := 0; i < len(s); i++ {
		crc ^= uint16(s[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// clusterSlot follows the Cluster spec: hash the first non-empty {…}.
func clusterSlot(key string) int {
	if s := strings.IndexByte(key, '{'); s >= 0 {
		if e := strings.IndexByte(key[s+1:], '}'); e > 0 {
			key = key[s+1 : s+1+e]
		}
	}
	return int(crc16(key) % 16384)
}

func TestClusterSlotVector(t *testing.T) {
	// The Cluster spec's check value, and two slots redis-cli prints.
	if got := crc16("123456789"); got != 0x31C3 {
		t.Fatalf("crc16(123456789) = %#x, want 0x31c3", got)
	}
	if clusterSlot("foo") != 12182 || clusterSlot("{user1000}.following") != clusterSlot("{user1000}.followers") {
		t.Fatalf("slot(foo) = %d, want 12182", clusterSlot("foo"))
	}
}

// Every key a script touches for one server is in one Cluster slot, and
// two servers' keys never share a tag.
func TestKeyLayoutOneSlotPerServer(t *testing.T) {
	for _, server := range []string{"h", "a100-box.2", "v_100", "x-7-", strings.Repeat("z", MaxServerNameLen)} {
		k := keysFor(server)
		all := k.all("Uabc:req-1{tricky}")
		slot := clusterSlot(all[0])
		for _, key := range all {
			if !strings.HasPrefix(key, "gpuplan:{srv:"+server+"}:") {
				t.Errorf("key %q lacks the hash tag {srv:%s}", key, server)
			}
			if s := clusterSlot(key); s != slot {
				t.Errorf("%s: key %q in slot %d, %q in %d", server, key, s, all[0], slot)
			}
		}
	}
	if keysFor("h").resv == keysFor("h2").resv {
		t.Error("two servers share a key")
	}
}

// The scripts may only touch keys passed in KEYS: no key is built inside
// Lua (an undeclared key breaks Cluster routing and script replication).
func TestScriptsDeclareTheirKeys(t *testing.T) {
	src, err := os.ReadFile("scripts.go")
	if err != nil {
		t.Fatal(err)
	}
	// Helper functions take their key as a parameter (key, resv, ends,
	// req, gidx, or a cursor's c.key, set from gidx); every call of a
	// helper passes KEYS[n].
	call := regexp.MustCompile(`redis\.call\('([A-Z]+)',\s*([^,)]+)`)
	for _, m := range call.FindAllStringSubmatch(string(src), -1) {
		cmd, key := m[1], strings.TrimSpace(m[2])
		if cmd == "TIME" {
			continue
		}
		if !strings.HasPrefix(key, "KEYS[") && !slices.Contains([]string{"key", "resv", "ends", "req", "gidx", "c.key"}, key) {
			t.Errorf("redis.call('%s', %s): the key is not from KEYS", cmd, key)
		}
	}
}

// Scripts never run in a pipeline: Script.Run's NOSCRIPT fallback does not
// work there (go-redis #3228).
func TestNoScriptsInPipelines(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, _ := os.ReadFile(f)
		if strings.Contains(string(src), "Pipeline") || strings.Contains(string(src), "TxPipelined") {
			t.Errorf("%s uses a pipeline", f)
		}
	}
}

func TestServerOf(t *testing.T) {
	for id, want := range map[string]string{"h-1": "h", "a100-box-12": "a100-box", "h-w3": "h", "x.y_z-0": "x.y_z"} {
		if got, ok := ServerOf(id); !ok || got != want {
			t.Errorf("ServerOf(%q) = %q, %v; want %q", id, got, ok, want)
		}
	}
	for id, want := range map[string]string{"h-1k3x": "h", "server-h-12ab": "server-h", "h-7z": "h"} {
		if got, ok := ServerOf(id); !ok || got != want {
			t.Errorf("ServerOf(%q) = %q, %v; want %q", id, got, ok, want)
		}
		if seqOf(id) == 0 {
			t.Errorf("seqOf(%q) = 0", id)
		}
	}
	for _, id := range []string{"", "h", "h-", "-1", "H-1", "h-1X", "h-x1", "h-1k3xyz", "h-w", "a b-1", "h-ww1", "h-w1k3"} {
		if s, ok := ServerOf(id); ok {
			t.Errorf("ServerOf(%q) = %q, want no server", id, s)
		}
	}
}

func TestRoundDur(t *testing.T) {
	for d, want := range map[time.Duration]string{
		2 * time.Hour: "2h", 90 * time.Minute: "1h30m", 45 * time.Second: "45s", 24 * time.Hour: "24h", 0: "0s",
		time.Hour + 30*time.Second: "1h1m", // rounded to the minute
	} {
		if got := roundDur(d); got != want {
			t.Errorf("roundDur(%v) = %q, want %q", d, got, want)
		}
	}
}

// decideReserve's earliest slot, on a hand-checked timeline.
func TestDecideReserveEarliest(t *testing.T) {
	h := int64(time.Hour / time.Millisecond)
	now := int64(1_000_000)
	all := []record{
		{ID: "s-1", GPUs: []int{0, 1}, Start: now, End: now + 2*h},
		{ID: "s-2", GPUs: []int{2}, Start: now + h, End: now + 4*h},
		{ID: "s-3", GPUs: []int{3}, Start: now - 2*h, End: now - h}, // ended: ignored
	}
	a := reserveArgs{Server: "s", ServerGPUs: 4, Count: 3, Duration: h}
	_, _, _, fail := decideReserve(a, now, all)
	if fail == nil || fail.Err != errConflict {
		t.Fatalf("want a conflict, got %+v", fail)
	}
	// At +2h s-1 has ended and s-2 still holds GPU 2: 0, 1 and 3 are free.
	if fail.Earliest != now+2*h || !slices.Equal(fail.EarliestGPUs, []int{0, 1, 3}) {
		t.Errorf("earliest = +%dms %v, want +2h [0 1 3]", fail.Earliest-now, fail.EarliestGPUs)
	}
	if len(fail.Holders) != 1 || fail.Holders[0].ID != "s-1" {
		t.Errorf("holders = %+v, want s-1 only", fail.Holders)
	}
	gpus, s, e, fail := decideReserve(reserveArgs{ServerGPUs: 4, Count: 1, Duration: h}, now, all)
	// GPU 2 is free until s-2 starts at +1h, exactly when this one ends.
	if fail != nil || !slices.Equal(gpus, []int{2}) || s != now || e != now+h {
		t.Errorf("count 1 now = %v %d %d %+v, want [2]", gpus, s-now, e-now, fail)
	}
}
