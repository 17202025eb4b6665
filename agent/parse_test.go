package agent

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const zeroUUID = "GPU-00000000-0000-0000-0000-000000000000" // the recordings' masked UUID

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Every recording in testdata, with what the parsers must make of it.
// testdata/README.md says where each one comes from.
var gpuRecordings = []struct {
	file string
	want []GPU
	err  error // the *Failure kind
}{
	{"gpus-h200-mig-590.48.01-idle.txt", []GPU{{0, zeroUUID, -1, 55, 143771}}, nil},
	{"gpus-h200-mig-590.48.01-load.txt", []GPU{{0, zeroUUID, -1, 16959, 143771}}, nil},
	{"gpus-h100-80gb-hbm3-590.48.01-load.txt", []GPU{{0, zeroUUID, 100, 19818, 81559}}, nil},
	{"gpus-h100-mig-590.48.01-load.txt", []GPU{{0, zeroUUID, -1, 11125, 81559}}, nil},
	{"gpus-rtx-4080-super-595.71.05-load.txt", []GPU{{0, zeroUUID, 7, 1474, 16376}}, nil},
	{"gpus-rtx-4090-535.86.05-idle.txt", []GPU{{0, "GPU-71d1acc2-662d-2166-bf9f-65272d2fc437", 0, 2, 24564}}, nil},
	{"gpus-a100-sxm4-80gb-mig-535.54.03.txt", []GPU{{0, "GPU-513536b6-7d19-9063-b049-1e69664bb298", -1, 50, 81920}}, nil},
	{"err-no-devices.txt", nil, ErrNoDevices},
	{"err-driver-not-loaded.txt", nil, ErrDriver},
	{"err-nvml-mismatch.txt", nil, ErrDriver},
}

var appRecordings = []struct {
	file string
	want []App
	err  error
}{
	{"apps-h200-mig-590.48.01-idle.txt", nil, nil},
	{"apps-h200-mig-590.48.01-load.txt", []App{{zeroUUID, 12249, 2194}, {zeroUUID, 12250, 1170}, {zeroUUID, 12267, 13526}}, nil},
	{"apps-h100-80gb-hbm3-590.48.01-load.txt", []App{{zeroUUID, 11327, 2566}, {zeroUUID, 11328, 1542}, {zeroUUID, 11345, 15690}}, nil},
	{"apps-h100-mig-590.48.01-load.txt", []App{{zeroUUID, 21180, 2296}, {zeroUUID, 21181, 1272}, {zeroUUID, 21198, 7484}}, nil},
	{"apps-rtx-4080-super-595.71.05-load.txt", []App{{zeroUUID, 2165, 25}, {zeroUUID, 5022, 503}, {zeroUUID, 5021, 360}}, nil},
	{"apps-rtx-4090-535.86.05-idle.txt", nil, nil},
	{"apps-a100-sxm4-80gb-mig-535.54.03.txt", nil, nil},
	{"apps-mig-container-insufficient-permissions.txt", []App{{"GPU-ae3738d5-9aa2-e1c9-53be-65b6d373d3d9", 0, -1}}, nil},
	{"apps-rtx-2080-super-windows-wddm.txt", []App{{zeroUUID, 2056, -1}}, nil},
	{"err-no-devices.txt", nil, ErrNoDevices},
	{"err-driver-not-loaded.txt", nil, ErrDriver},
	{"err-nvml-mismatch.txt", nil, ErrDriver},
}

func TestParseGPUsRecordings(t *testing.T) {
	for _, tc := range gpuRecordings {
		t.Run(tc.file, func(t *testing.T) {
			got, problems, err := ParseGPUs(readTestdata(t, tc.file))
			checkErr(t, err, tc.err)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("GPUs\n got %+v\nwant %+v", got, tc.want)
			}
			if tc.err == nil && len(problems) > 0 {
				t.Errorf("problems in a clean recording: %v", problems)
			}
		})
	}
}

func TestParseAppsRecordings(t *testing.T) {
	for _, tc := range appRecordings {
		t.Run(tc.file, func(t *testing.T) {
			got, problems, err := ParseApps(readTestdata(t, tc.file))
			checkErr(t, err, tc.err)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("apps\n got %+v\nwant %+v", got, tc.want)
			}
			if tc.err == nil && len(problems) > 0 {
				t.Errorf("problems in a clean recording: %v", problems)
			}
		})
	}
}

func TestParseListRecording(t *testing.T) {
	got, err := ParseList(readTestdata(t, "list-h200-mig-590.48.01.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		zeroUUID: zeroUUID,
		"MIG-00000000-0000-0000-0000-000000000000": zeroUUID,
		"MIG-00000001-0000-0000-0000-000000000001": zeroUUID,
		"MIG-00000002-0000-0000-0000-000000000002": zeroUUID,
		"MIG-00000003-0000-0000-0000-000000000003": zeroUUID,
		"MIG-00000004-0000-0000-0000-000000000004": zeroUUID,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if _, err := ParseList(readTestdata(t, "err-driver-not-loaded.txt")); !errors.Is(err, ErrDriver) {
		t.Errorf("driver failure: err = %v", err)
	}
}

// A recording added to testdata must get expected results above.
func TestEveryRecordingIsChecked(t *testing.T) {
	checked := map[string]bool{"list-h200-mig-590.48.01.txt": true, "README.md": true}
	for _, tc := range gpuRecordings {
		checked[tc.file] = true
	}
	for _, tc := range appRecordings {
		checked[tc.file] = true
	}
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() && !checked[e.Name()] {
			t.Errorf("testdata/%s has no expected result in parse_test.go", e.Name())
		}
	}
}

func checkErr(t *testing.T, err, want error) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Fatalf("err = %v", err)
		}
		return
	}
	var f *Failure
	if !errors.As(err, &f) || !errors.Is(err, want) {
		t.Fatalf("err = %v, want a *Failure of %v", err, want)
	}
}

// Shapes the recordings do not show, written by hand: the tokens
// nvidia-smi prints for a value it cannot read, the noise of a shell or a
// broken pipe, and garbage. Each bad line is skipped and reported.
func TestParseGPUsLines(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in       string
		want     []GPU
		problems []int // line numbers reported
		err      error
	}{
		{"unknown tokens", "0, GPU-a, [GPU requires reset], [GPU requires reset], [GPU requires reset]\n" +
			"1, GPU-b, [Unknown Error], [Not Supported], 81920\n2, [N/A], N/A, 0, [Insufficient Permissions]\n",
			[]GPU{{0, "GPU-a", -1, -1, -1}, {1, "GPU-b", -1, -1, 81920}, {2, "", -1, 0, -1}}, nil, nil},
		{"CRLF, spaces, blank lines", "\r\n  0 ,  GPU-a ,  5 , 10 ,  20  \r\n\r\n\t1,GPU-b,6,11,21\r\n\n", []GPU{{0, "GPU-a", 5, 10, 20}, {1, "GPU-b", 6, 11, 21}}, nil, nil},
		{"lone CR", "0, GPU-a, 5, 10, 20\r1, GPU-b, 6, 11, 21", []GPU{{0, "GPU-a", 5, 10, 20}, {1, "GPU-b", 6, 11, 21}}, nil, nil},
		{"units and a header", "index, uuid, utilization.gpu [%], memory.used [MiB], memory.total [MiB]\n0, GPU-a, 100 %, 80620 MiB, 81559 MiB\n", []GPU{{0, "GPU-a", 100, 80620, 81559}}, nil, nil},
		{"truncated last line", "0, GPU-a, 5, 10, 20\n1, GPU-b, 6", []GPU{{0, "GPU-a", 5, 10, 20}}, []int{2}, nil},
		{"too many fields", "0, GPU-a, 5, 10, 20, 30\n1, GPU-b, 6, 11, 21\n", []GPU{{1, "GPU-b", 6, 11, 21}}, []int{1}, nil},
		{"bad numbers", "x, GPU-a, 5, 10, 20\n1, GPU-b, 101, 11, 21\n2, GPU-c, 5, -3, 21\n3, GPU-d, 5, 1, 1e3\n4, GPU-e, 5, 1, 2\n",
			[]GPU{{4, "GPU-e", 5, 1, 2}}, []int{1, 2, 3, 4}, nil},
		{"bad uuid", "0, GPU a b, 5, 10, 20\n1, GPU-b, 6, 11, 21\n", []GPU{{1, "GPU-b", 6, 11, 21}}, []int{1}, nil},
		{"duplicate index", "0, GPU-a, 5, 10, 20\n0, GPU-b, 6, 11, 21\n", []GPU{{0, "GPU-a", 5, 10, 20}}, []int{2}, nil},
		{"a GPU that fell off among good ones", "Unable to determine the device handle for GPU0000:BA:00.0: Unknown Error\n1, GPU-b, 6, 11, 21\n", []GPU{{1, "GPU-b", 6, 11, 21}}, []int{1}, nil},
		{"garbage only", "Segmentation fault\n\x00\xff\xfe\n", nil, []int{1, 2}, ErrUnreadable},
		{"nothing", "", nil, nil, ErrEmpty},
		{"only blank lines", "\n \r\n\t\n", nil, nil, ErrEmpty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, problems, err := ParseGPUs([]byte(tc.in))
			checkErr(t, err, tc.err)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("GPUs\n got %+v\nwant %+v", got, tc.want)
			}
			if lines := problemLines(problems); !slices.Equal(lines, tc.problems) {
				t.Errorf("problem lines %v, want %v (%v)", lines, tc.problems, problems)
			}
		})
	}
}

func TestParseAppsLines(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in       string
		want     []App
		problems []int
		err      error
	}{
		{"header and units", "gpu_uuid, pid, used_gpu_memory [MiB]\nGPU-a, 42, 818 MiB\n", []App{{"GPU-a", 42, 818}}, nil, nil},
		{"MIG UUIDs", "MIG-GPU-e91edf3b-b297-37c1-a2a7-7601c98c5b5b/1/0, 7, 100\r\nMIG-11111111-2222-3333-4444-555555555555, 8, 200\r\n",
			[]App{{"MIG-GPU-e91edf3b-b297-37c1-a2a7-7601c98c5b5b/1/0", 7, 100}, {"MIG-11111111-2222-3333-4444-555555555555", 8, 200}}, nil, nil},
		{"bad lines kept out", "GPU-a, 41, 10\n[N/A], 5, 5\nGPU-a, 0, 5\nGPU-a, x, 5\nGPU-a, 43\nGPU-a, 44, 20, 1\nGPU-a, 45, many\nGPU-a, 46, 20\n",
			[]App{{"GPU-a", 41, 10}, {"GPU-a", 46, 20}}, []int{2, 3, 4, 5, 6, 7}, nil},
		{"garbage is not a failure", "core dumped\n", nil, []int{1}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, problems, err := ParseApps([]byte(tc.in))
			checkErr(t, err, tc.err)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("apps\n got %+v\nwant %+v", got, tc.want)
			}
			if lines := problemLines(problems); !slices.Equal(lines, tc.problems) {
				t.Errorf("problem lines %v, want %v (%v)", lines, tc.problems, problems)
			}
		})
	}
}

func TestGPUOf(t *testing.T) {
	list := map[string]string{"MIG-1": "GPU-p"}
	for in, want := range map[string]string{
		"GPU-a": "GPU-a",
		"MIG-GPU-e91edf3b-b297-37c1-a2a7-7601c98c5b5b/1/0": "GPU-e91edf3b-b297-37c1-a2a7-7601c98c5b5b",
		"MIG-1": "GPU-p",
		"MIG-2": "MIG-2",
	} {
		if got := gpuOf(in, list); got != want {
			t.Errorf("gpuOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLineErrorTextIsShortAndValid(t *testing.T) {
	long := "0, GPU-a, " + strings.Repeat("é", 200) + "\xff, 1, 2"
	_, problems, _ := ParseGPUs([]byte(long))
	if len(problems) != 1 {
		t.Fatalf("problems %v", problems)
	}
	if p := problems[0]; len(p.Text) > maxLineText+len("…") || !strings.HasSuffix(p.Text, "…") {
		t.Errorf("text %q (%d bytes)", p.Text, len(p.Text))
	}
}

func problemLines(ps []LineError) []int {
	var n []int
	for _, p := range ps {
		n = append(n, p.Line)
	}
	return n
}

// The parsers must never panic, whatever nvidia-smi (or a broken pipe)
// prints, and what they return must be in range.
func FuzzParseGPUs(f *testing.F) {
	seedFuzz(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		gpus, problems, err := ParseGPUs(in)
		if (len(gpus) == 0) != (err != nil) {
			t.Fatalf("%d GPUs with err %v", len(gpus), err)
		}
		seen := map[int]bool{}
		for _, g := range gpus {
			if g.Index < 0 || seen[g.Index] || g.Util < -1 || g.Util > 100 || g.MemUsedMB < -1 || g.MemTotalMB < -1 {
				t.Fatalf("out of range: %+v", g)
			}
			seen[g.Index] = true
		}
		checkProblems(t, problems)
	})
}

func FuzzParseApps(f *testing.F) {
	seedFuzz(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		apps, problems, err := ParseApps(in)
		if err != nil && len(apps) > 0 {
			t.Fatalf("%d apps with err %v", len(apps), err)
		}
		for _, a := range apps {
			if a.GPUUUID == "" || a.PID < 0 || a.UsedMB < -1 {
				t.Fatalf("out of range: %+v", a)
			}
		}
		checkProblems(t, problems)
	})
}

func FuzzParseList(f *testing.F) {
	seedFuzz(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		list, err := ParseList(in)
		if err != nil && len(list) > 0 {
			t.Fatalf("%d entries with err %v", len(list), err)
		}
		for id, gpu := range list {
			_ = gpuOf(id, list)
			if list[gpu] != gpu {
				t.Fatalf("%s's GPU %s is not listed as a GPU", id, gpu)
			}
		}
	})
}

func seedFuzz(f *testing.F) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".txt") {
			f.Add(readTestdata(f, e.Name()))
		}
	}
	f.Add([]byte("0, GPU-a, [GPU requires reset], 1, 2\r\n1,,,,\n,,\n"))
}

func checkProblems(t *testing.T, problems []LineError) {
	t.Helper()
	for _, p := range problems {
		if p.Line < 1 || p.Reason == "" || !utf8Valid(p.Text) || len(p.Text) > maxLineText+len("…") {
			t.Fatalf("bad problem %+v", p)
		}
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "") == s }
