package hadoopsim

import (
	"fmt"
	"math"
)

// Size limits Validate enforces so that a run stays bounded.
const (
	MaxSlots = 1 << 16 // map slots in a cluster
	MaxJobs  = 1 << 20 // jobs in a trace
	// MaxTime bounds arrivals and the horizon (s, about 31 years): far
	// beyond it, t + WebPeriod rounds back to t and the clock stops.
	MaxTime = 1e9
)

// finite reports whether x is a finite number.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Validate checks a scenario before Run: a cluster with 1..MaxSlots slots;
// web bands with 0 ≤ WebLow ≤ WebHigh (finite); DataNodes ≥ 0; NodeCapacity
// finite and ≥ 0; WebPeriod 0 (fixed web load) or in [1 s, MaxTime]; job
// types whose model predicts a finite positive time at r = 0 and r = 1 (an
// exp2 sum of two exponentials then stays positive in between) and whose
// Read90 is finite and ≥ 0; at most MaxJobs jobs, job i with ID i, a known
// type, 0 ≤ Maps ≤ MaxJobMaps, an Arrival in [0, MaxTime], a Deadline that
// is not NaN and a finite positive noise factor per map; a Horizon ≤
// MaxTime. Run calls it; the error names the first bad field.
func (s *Scenario) Validate() error {
	c := s.Cluster
	if len(c.VMs) == 0 || c.SlotsPerVM <= 0 || c.SlotsPerVM > MaxSlots || len(c.VMs) > MaxSlots/c.SlotsPerVM {
		return fmt.Errorf("hadoopsim: cluster of %d VMs × %d slots: want 1..%d slots", len(c.VMs), c.SlotsPerVM, MaxSlots)
	}
	for v, k := range c.VMs {
		if !(k.WebLow >= 0 && k.WebLow <= k.WebHigh && finite(k.WebHigh)) {
			return fmt.Errorf("hadoopsim: VMs[%d] web band [%v, %v]", v, k.WebLow, k.WebHigh)
		}
	}
	if !(c.WebPeriod == 0 || c.WebPeriod >= 1 && c.WebPeriod <= MaxTime) {
		return fmt.Errorf("hadoopsim: WebPeriod = %v: want 0 (web load fixed) or in [1, %g] s", c.WebPeriod, MaxTime)
	}
	if c.DataNodes < 0 || !(c.NodeCapacity >= 0 && finite(c.NodeCapacity)) {
		return fmt.Errorf("hadoopsim: DataNodes %d, NodeCapacity %v: want >= 0 and finite", c.DataNodes, c.NodeCapacity)
	}
	for i, jt := range s.Types {
		for _, r := range []float64{0, 1} {
			if t := jt.Model.TCT(r); !(t > 0 && finite(t)) {
				return fmt.Errorf("hadoopsim: Types[%d].Model.TCT(%v) = %v: want finite and > 0", i, r, t)
			}
		}
		if !(jt.Read90 >= 0 && finite(jt.Read90)) {
			return fmt.Errorf("hadoopsim: Types[%d].Read90 = %v", i, jt.Read90)
		}
	}
	if len(s.Jobs) > MaxJobs {
		return fmt.Errorf("hadoopsim: %d jobs, more than %d", len(s.Jobs), MaxJobs)
	}
	for i, j := range s.Jobs {
		switch {
		case j.ID != i:
			return fmt.Errorf("hadoopsim: job %d has ID %d, want its index", i, j.ID)
		case j.Type < 0 || j.Type >= len(s.Types):
			return fmt.Errorf("hadoopsim: Jobs[%d].Type = %d: no such type", i, j.Type)
		case j.Maps < 0 || j.Maps > MaxJobMaps || len(j.Noise) < j.Maps:
			return fmt.Errorf("hadoopsim: Jobs[%d]: %d maps, %d noise factors", i, j.Maps, len(j.Noise))
		case !(j.Arrival >= 0 && j.Arrival <= MaxTime):
			return fmt.Errorf("hadoopsim: Jobs[%d].Arrival = %v", i, j.Arrival)
		case math.IsNaN(j.Deadline):
			return fmt.Errorf("hadoopsim: Jobs[%d].Deadline is NaN", i)
		}
		for k, f := range j.Noise[:j.Maps] {
			if !(f > 0 && finite(f)) {
				return fmt.Errorf("hadoopsim: Jobs[%d].Noise[%d] = %v", i, k, f)
			}
		}
	}
	if !(s.Horizon <= MaxTime) || math.IsNaN(s.Horizon) {
		return fmt.Errorf("hadoopsim: Horizon = %v: want at most %g s", s.Horizon, MaxTime)
	}
	return nil
}
