package lang

import (
	"strconv"
	"strings"
)

// cloudInstance is a cloud GPU instance type: how many GPUs it has, and
// which (a catalogue id).
type cloudInstance struct {
	gpus int
	gpu  string
}

// cloudInstances are the GPU instance types people name for rented
// hardware ("aws p4d 기준으로", "on a g5.12xlarge"), by the provider's
// own name. AWS: the EC2 accelerated-computing families as RAPIDS'
// deployment docs tabulate them (rapidsai/deployment
// source/cloud/aws/index.md: p5.48xlarge 8× H100 80GB, p4d.24xlarge 8×
// A100 40GB, p3dn.24xlarge 8× V100 32GB, p3.2x/8x/16xlarge 1/4/8× V100
// 16GB, g6 1/4/8× L4, g5 1/4/8× A10G, g4dn 1/4/8× T4) and AWS's
// instance pages for the later ones (p4de.24xlarge 8× A100 80GB,
// p5e/p5en.48xlarge 8× H200, g6e 1/4/8× L40S). Google Cloud: the A2
// (A100 40GB; ultragpu 80GB), A3 (H100; ultragpu H200) and G2 (L4)
// machine types, whose names end in their GPU count.
var cloudInstances = func() map[string]cloudInstance {
	m := map[string]cloudInstance{
		"p5.48xlarge": {8, "h100-sxm5-80gb"}, "p5e.48xlarge": {8, "h200-sxm-141gb"}, "p5en.48xlarge": {8, "h200-sxm-141gb"},
		"p4d.24xlarge": {8, "a100-sxm4-40gb"}, "p4de.24xlarge": {8, "a100-sxm4-80gb"},
		"p3dn.24xlarge": {8, "v100-sxm2-32gb"}, "p3.2xlarge": {1, "v100-sxm2-16gb"}, "p3.8xlarge": {4, "v100-sxm2-16gb"}, "p3.16xlarge": {8, "v100-sxm2-16gb"},
		"g4dn.metal": {8, "t4"}, "a2-megagpu-16g": {16, "a100-sxm4-40gb"},
		// the families that come in one size, said alone
		"p5": {8, "h100-sxm5-80gb"}, "p5e": {8, "h200-sxm-141gb"}, "p5en": {8, "h200-sxm-141gb"}, "p4d": {8, "a100-sxm4-40gb"}, "p4de": {8, "a100-sxm4-80gb"},
	}
	// g-families: one GPU up to 16xlarge, four at 12xlarge and 24xlarge,
	// eight at 48xlarge (g4dn: four at 12xlarge, eight on metal)
	for fam, gpu := range map[string]string{"g4dn": "t4", "g5": "a10", "g6": "l4", "g6e": "l40s"} {
		for _, size := range []string{"xlarge", "2xlarge", "4xlarge", "8xlarge", "16xlarge"} {
			m[fam+"."+size] = cloudInstance{1, gpu}
		}
		m[fam+".12xlarge"] = cloudInstance{4, gpu}
		if fam != "g4dn" {
			m[fam+".24xlarge"], m[fam+".48xlarge"] = cloudInstance{4, gpu}, cloudInstance{8, gpu}
		}
	}
	for _, n := range []int{1, 2, 4, 8} {
		s := strconv.Itoa(n)
		m["a2-highgpu-"+s+"g"] = cloudInstance{n, "a100-sxm4-40gb"}
		m["a2-ultragpu-"+s+"g"] = cloudInstance{n, "a100-sxm4-80gb"}
	}
	for _, t := range []string{"a3-highgpu-8g", "a3-megagpu-8g", "a3-edgegpu-8g"} {
		m[t] = cloudInstance{8, "h100-sxm5-80gb"}
	}
	m["a3-ultragpu-8g"] = cloudInstance{8, "h200-sxm-141gb"}
	for size, n := range map[string]int{"4": 1, "8": 1, "12": 1, "16": 1, "32": 1, "24": 2, "48": 4, "96": 8} {
		m["g2-standard-"+size] = cloudInstance{n, "l4"}
	}
	return m
}()

// cloudWords name a cloud provider beside an instance type ("aws p4d",
// "ec2 g5.xlarge"): read with it.
var cloudWords = map[string]bool{"aws": true, "ec2": true, "gcp": true, "gce": true, "google": true, "azure": true}

// cloudInstancesAt reads instance types as the GPUs they hold, before the
// reading pass: "p4d.24xlarge" is "8x a100-sxm4-40gb", rented (the cloud's
// prices), and the reading says what it read it as. A provider's name
// beside one is read with it.
func (c *canonizer) cloudInstancesAt() {
	var in []reqToken
	found := false
	for i, t := range c.in {
		inst, ok := cloudInstances[strings.TrimSuffix(t.w, "?")]
		if !ok {
			in = append(in, t)
			continue
		}
		found = true
		count := strconv.Itoa(inst.gpus)
		if c.w(i-1) == "many" || strings.HasPrefix(c.w(i+1), "몇") {
			// "how many g6.xlarge", "p4d 몇 대": the instances asked, in
			// GPUs for one-GPU types, in nodes for eight-GPU ones
			c.corrected = append(c.corrected, t.raw+" → "+inst.gpu+" ("+count+" an instance)")
			c.nodesAsked = c.nodesAsked || inst.gpus == 8
			in = append(in, reqToken{raw: t.raw, w: inst.gpu, start: t.start, end: t.end})
			continue
		}
		c.corrected = append(c.corrected, t.raw+" → "+count+"x "+inst.gpu)
		in = append(in, reqToken{raw: t.raw, w: count + "x", start: t.start, end: t.end}, reqToken{raw: t.raw, w: inst.gpu, start: t.start, end: t.end})
	}
	if !found {
		return
	}
	c.in = in[:0:0]
	for _, t := range in {
		if !cloudWords[t.w] {
			c.in = append(c.in, t)
		}
	}
	c.cloud = true
}
