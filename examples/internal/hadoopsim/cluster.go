package hadoopsim

import (
	"math"
	"math/rand/v2"
)

// A VMClass is a band of web-server CPU load on the host a Hadoop VM shares
// (MIMP §6.6). Web load is in percent of ONE core; the host has two cores.
type VMClass struct {
	Name            string
	WebLow, WebHigh float64 // web VM CPU, % of one core
}

// The four classes of MIMP §6.6.
var (
	Dedicated = VMClass{"dedicated", 0, 0}
	Light     = VMClass{"light", 20, 35}
	Medium    = VMClass{"medium", 85, 95}
	Heavy     = VMClass{"heavy", 130, 170}
)

// Residual maps a web VM's CPU use (percent of one core) on a two-core host
// to each of the Hadoop VM's two map slots: the MI scheduler gives the web VM
// what it asks for, and the Hadoop VM's two slots split the remaining
// 200% − web evenly, so r = (200 − web) / 200 per slot, clamped to [0, 1].
// Light (20–35%) gives r ∈ [0.825, 0.90], medium (85–95%) [0.525, 0.575],
// heavy (130–170%) [0.15, 0.35]; a dedicated host gives 1. This matches MIMP
// §6.4, where a web server "leaves 164% of the CPU available" to the Hadoop
// VM. A NaN load gives 0 (no capacity assumed), ±Inf the clamped ends.
func Residual(webPercent float64) float64 {
	r := (200 - webPercent) / 200
	if !(r > 0) {
		return 0 // also NaN
	}
	return math.Min(1, r)
}

// Cluster is the Hadoop cluster of the case study: VMs, each with
// SlotsPerVM map slots, plus the data-node model.
type Cluster struct {
	VMs        []VMClass
	SlotsPerVM int
	// WebPeriod is how often (s) each shared VM's web load is redrawn
	// uniformly within its band; one draw per VM, shared by its slots.
	WebPeriod float64
	// DataNodes and NodeCapacity: the dedicated hosts serve HDFS reads; each
	// can serve NodeCapacity MB/s, in [MinNodeCapacity, MaxNodeCapacity].
	// A task started while the running tasks' reads plus its own would
	// exceed DataNodes·NodeCapacity runs longer by the overload factor.
	// DataNodes = 0 is an unconstrained store: no overload, no IO check.
	DataNodes    int
	NodeCapacity float64
}

// Limits on a data node's read capacity when DataNodes > 0 (MB/s).
const (
	MinNodeCapacity = 1e-3
	MaxNodeCapacity = 1e9
)

// Unconstrained reports whether the cluster has no data-node limit.
func (c Cluster) Unconstrained() bool { return c.DataNodes == 0 }

// CaseStudyCluster is MIMP §6.6: 20 two-core VMs with 2 map slots each —
// 6 dedicated, 6 light, 6 medium, 2 heavy. The 6 dedicated hosts are the data
// nodes. WebPeriod (60 s) and NodeCapacity (60 MB/s) are our choices: the
// paper gives neither.
func CaseStudyCluster() Cluster {
	vms := make([]VMClass, 0, 20)
	for _, c := range []struct {
		k VMClass
		n int
	}{{Dedicated, 6}, {Light, 6}, {Medium, 6}, {Heavy, 2}} {
		for range c.n {
			vms = append(vms, c.k)
		}
	}
	return Cluster{VMs: vms, SlotsPerVM: 2, WebPeriod: 60, DataNodes: 6, NodeCapacity: 60}
}

// Slots returns the number of map slots.
func (c Cluster) Slots() int { return len(c.VMs) * c.SlotsPerVM }

// webLoad draws a web load within the class's band.
func webLoad(k VMClass, rng *rand.Rand) float64 {
	return k.WebLow + (k.WebHigh-k.WebLow)*rng.Float64()
}

// MeanCapacity returns Σ over slots of the mid-band residual capacity: the
// cluster's capacity in dedicated-slot equivalents (0 for no slots).
func (c Cluster) MeanCapacity() float64 {
	s := 0.0
	for _, k := range c.VMs {
		s += float64(c.SlotsPerVM) * Residual((k.WebLow+k.WebHigh)/2)
	}
	return s
}
