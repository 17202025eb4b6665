package planner

import (
	"testing"
)

// The desk and workstation cards teams own resolve by the names people
// type, and cards that are not in the catalogue stay unknown rather than
// falling to a neighbour.
func TestDeskGPUNamesResolve(t *testing.T) {
	c := DefaultCatalog()
	for _, tc := range []struct{ in, want string }{
		{"3060", "rtx-3060"}, {"rtx 3060", "rtx-3060"}, {"3060 12gb", "rtx-3060"},
		{"3070", "rtx-3070"}, {"3080", "rtx-3080"}, {"3080 10gb", "rtx-3080"},
		{"3080 12gb", "rtx-3080-12gb"}, {"rtx 3080 12gb", "rtx-3080-12gb"},
		{"3080ti", "rtx-3080ti"}, {"3080 ti", "rtx-3080ti"}, {"rtx 3080 ti", "rtx-3080ti"},
		{"3090ti", "rtx-3090ti"}, {"rtx 3090 ti", "rtx-3090ti"}, {"3090", "rtx-3090"},
		{"4060ti", "rtx-4060ti"}, {"4060ti 16gb", "rtx-4060ti"},
		{"4070", "rtx-4070"}, {"4070ti", "rtx-4070ti"}, {"4070 ti super", "rtx-4070tisuper"}, {"rtx 4070 ti super", "rtx-4070tisuper"},
		{"4080", "rtx-4080"}, {"rtx 4080", "rtx-4080"}, {"4080 super", "rtx-4080super"}, {"RTX 4080 SUPER", "rtx-4080super"},
		{"5080", "rtx-5080"}, {"rtx 5080", "rtx-5080"}, {"5090", "rtx-5090"},
		{"2080ti", "rtx-2080ti"}, {"rtx 2080 ti", "rtx-2080ti"}, {"titan rtx", "titan-rtx"}, {"titan", "titan-rtx"},
		{"a4000", "rtx-a4000"}, {"rtx a4000", "rtx-a4000"}, {"a5000", "rtx-a5000"}, {"rtx a5000", "rtx-a5000"}, {"rtxa5000", "rtx-a5000"},
		{"rtx 4000 ada", "rtx-4000-ada"}, {"rtx4000", "rtx-4000-ada"}, {"4000ada", "rtx-4000-ada"},
		{"rtx 5000 ada", "rtx-5000-ada"}, {"5000 ada", "rtx-5000-ada"},
		{"a30", "a30"}, {"A30", "a30"}, {"mi210", "mi210"}, {"p100", "p100-pcie-16gb"}, {"P100", "p100-pcie-16gb"},
		// hyphenated and with the brand words people paste from a spec sheet
		{"rtx-4060-ti-16gb", "rtx-4060ti"}, {"rtx-3080-10gb", "rtx-3080"}, {"geforce-rtx-4090", "rtx-4090"},
		{"nvidia-a100-80gb", "a100-sxm4-80gb"}, {"tesla-t4", "t4"}, {"NVIDIA H100", "h100-sxm5-80gb"}, {"amd-instinct-mi300x", "mi300x"},
		// unchanged readings
		{"rtx 6000", "rtx-6000-ada"}, {"a6000", "rtx-a6000"}, {"a10", "a10"}, {"4090", "rtx-4090"},
		{"4060", "rtx-4060"}, {"rtx 4060", "rtx-4060"},
	} {
		g, _, err := c.GPU(tc.in)
		if err != nil || g.ID != tc.want {
			t.Errorf("GPU(%q) = %q, %v; want %q", tc.in, g.ID, err, tc.want)
		}
	}
	for _, in := range []string{"1660", "gtx 1660", "1660s", "3060ti", "3060 8gb", "4060ti 8gb", "4070 super", "3080 20gb", "2080", "a2", "p40",
		"rtx-3060-ti", "geforce-rtx-4070-super", "nvidia"} {
		if g, _, err := c.GPU(in); err == nil {
			t.Errorf("GPU(%q) = %q; want unknown", in, g.ID)
		}
	}
}

// The new rows keep the catalogue's conventions: dense rates, GeForce
// FP16/BF16 at half rate with FP32 accumulate, workstation cards at full
// rate, no BF16 on Turing, and memory and links as the cards have them.
func TestDeskGPURows(t *testing.T) {
	c := DefaultCatalog()
	for _, tc := range []struct {
		id       string
		memGB    float64
		bf16     float64
		consumer bool
		nvlink   float64
	}{
		{"rtx-3060", 12, 25.5, true, 0}, {"rtx-3070", 8, 40.6, true, 0}, {"rtx-3080", 10, 59.5, true, 0},
		{"rtx-3080-12gb", 12, 61.3, true, 0}, {"rtx-3080ti", 12, 68.2, true, 0}, {"rtx-3090ti", 24, 80, true, 0},
		{"rtx-4060ti", 16, 44.1, true, 0}, {"rtx-4070", 12, 58.3, true, 0}, {"rtx-4070ti", 12, 80.2, true, 0},
		{"rtx-4070tisuper", 16, 88.2, true, 0}, {"rtx-4080", 16, 97.5, true, 0}, {"rtx-4080super", 16, 104.4, true, 0},
		{"rtx-5080", 16, 112.6, true, 0},
		{"rtx-a4000", 16, 76.7, false, 0}, {"rtx-a5000", 24, 111.1, false, 0},
		{"rtx-4000-ada", 20, 106.9, false, 0}, {"rtx-5000-ada", 32, 261.1, false, 0},
		{"a30", 24, 165, false, 0}, {"mi210", 64, 181, false, 0},
	} {
		g := mustGPU(t, c, tc.id, 1).GPU
		bf16, _ := g.Peak(BF16)
		if g.MemoryGB != tc.memGB || bf16 != tc.bf16 || g.Consumer != tc.consumer || g.NVLinkGBs != tc.nvlink {
			t.Errorf("%s: %.0f GB, bf16 %.1f, consumer %v, nvlink %.0f; want %.0f GB, bf16 %.1f, consumer %v, nvlink %.0f",
				tc.id, g.MemoryGB, bf16, g.Consumer, g.NVLinkGBs, tc.memGB, tc.bf16, tc.consumer, tc.nvlink)
		}
		if g.PriceUSD <= 0 || g.TDPW <= 0 || g.MemBWGBs <= 0 {
			t.Errorf("%s: price %.2f, %0.f W, %.0f GB/s", tc.id, g.PriceUSD, g.TDPW, g.MemBWGBs)
		}
	}
	// GeForce halves FP16/BF16 with FP32 accumulate: twice the FP32 shader
	// rate, not four times as on the workstation parts of the same chips.
	for id, ratio := range map[string]float64{"rtx-3080": 2, "rtx-4080": 2, "rtx-5080": 2, "rtx-a5000": 4, "rtx-5000-ada": 4} {
		g := mustGPU(t, c, id, 1).GPU
		fp32, _ := g.Peak(FP32)
		bf16, _ := g.Peak(BF16)
		if r := bf16 / fp32; r < ratio*0.98 || r > ratio*1.02 {
			t.Errorf("%s: bf16/fp32 = %.2f, want %.0f", id, r, ratio)
		}
	}
	// Turing: FP16 tensor cores, no BF16; the TITAN keeps full-rate FP32
	// accumulate, the 2080 Ti has half.
	for id, fp16 := range map[string]float64{"rtx-2080ti": 56.9, "titan-rtx": 130.5} {
		g := mustGPU(t, c, id, 1).GPU
		got, _ := g.Peak(FP16)
		if raw := g.peak[pkBF16]; raw != 0 || got != fp16 || g.Generation != Turing || g.NVLinkGBs != 100 {
			t.Errorf("%s: fp16 %.1f, bf16 %.1f, %s, nvlink %.0f", id, got, raw, g.Generation, g.NVLinkGBs)
		}
	}
}
