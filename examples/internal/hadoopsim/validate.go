package hadoopsim

import (
	"fmt"
	"math"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/edf"
	"github.com/schedkit/schedkit/tct"
)

// Size and value limits Validate enforces so that a run stays bounded and
// every number it computes stays finite.
const (
	MaxSlots = 1 << 16 // map slots in a cluster
	MaxJobs  = 1 << 20 // jobs in a trace
	MaxTasks = 1 << 26 // map tasks over all jobs of a trace
	// MaxTime bounds arrivals and the horizon (s, about 31 years): far
	// beyond it, t + WebPeriod rounds back to t and the clock stops.
	MaxTime = 1e9
	// MaxDeadline bounds finite deadlines (s); +Inf means no deadline.
	MaxDeadline = 2 * MaxTime
	// MinTaskTime and MaxTaskTime bound TCT(r) and Model.TCT(r) over
	// r ∈ [0, 1] (s): a shorter predicted time would overflow edf's rate sums.
	MinTaskTime = 1e-3
	MaxTaskTime = MaxTime
	// MinNoise and MaxNoise bound a task's duration factor (JobSpec.Noise).
	MinNoise = 1e-3
	MaxNoise = 1e3
	// MaxReadRate bounds ReadRate and Read90 (MB/s).
	MaxReadRate = 1e6
	// MaxWebDraws bounds the web-load redraws a run may make: VMs with a
	// web band × Horizon / WebPeriod.
	MaxWebDraws = 1e8
)

// finite reports whether x is a finite number.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// exp2Range returns the least and greatest value of m.TCT over r ∈ [0, 1]:
// the ends and the one interior stationary point a·b·e^(b·r) + c·d·e^(d·r) = 0
// an exp2 can have. NaN parameters give NaN.
func exp2Range(m tct.Exp2) (lo, hi float64) {
	at := [3]float64{0, 1, 0}
	n := 2
	if ab, cd := m.A*m.B, m.C*m.D; ab != 0 && m.B != m.D && -cd/ab > 0 {
		if r := math.Log(-cd/ab) / (m.B - m.D); r > 0 && r < 1 {
			at[2], n = r, 3
		}
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, r := range at[:n] {
		v := m.TCT(r)
		if math.IsNaN(v) {
			return v, v
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo, hi
}

// checkModel reports a model whose TCT leaves [MinTaskTime, MaxTaskTime]
// somewhere on [0, 1].
func checkModel(field string, m tct.Exp2) error {
	if lo, hi := exp2Range(m); !(lo >= MinTaskTime && hi <= MaxTaskTime) {
		return fmt.Errorf("hadoopsim: %s = %+v: TCT over r in [0, 1] spans [%v, %v] s, want within [%g, %g]", field, m, lo, hi, MinTaskTime, MaxTaskTime)
	}
	return nil
}

// Validate checks a scenario before Run, so that a valid scenario runs to
// its horizon with finite numbers and no error:
//
//   - a cluster of 1..MaxSlots slots; web bands with 0 ≤ WebLow ≤ WebHigh,
//     finite; WebPeriod 0 (fixed web load) or in [1 s, MaxTime]; DataNodes in
//     [0, MaxSlots] and, when DataNodes > 0, NodeCapacity in
//     [MinNodeCapacity, MaxNodeCapacity];
//   - job types whose TCT and Model stay within [MinTaskTime, MaxTaskTime]
//     over r ∈ [0, 1] and whose ReadRate and Read90 lie in [0, MaxReadRate];
//   - at most MaxJobs jobs and MaxTasks maps in all, job i with ID i, a known
//     type, 0 ≤ Maps ≤ MaxJobMaps, an Arrival in [0, MaxTime], a Deadline in
//     [0, MaxDeadline] or +Inf, and a factor in [MinNoise, MaxNoise] per map;
//   - a Horizon in [LastArrival(Jobs), MaxTime], RecordUntil in [0, MaxTime],
//     a Margin of 0 or in [1, admission.MaxMargin], a TCTError that is zero
//     or has Mean finite and > 0 and Spread finite and >= 0, a known Offer,
//     and at most MaxWebDraws web-load redraws.
//
// Run calls it; the error names the first bad field and its value.
func (s *Scenario) Validate() error {
	if s == nil {
		return fmt.Errorf("hadoopsim: scenario is nil")
	}
	c := s.Cluster
	if len(c.VMs) == 0 || c.SlotsPerVM <= 0 || c.SlotsPerVM > MaxSlots || len(c.VMs) > MaxSlots/c.SlotsPerVM {
		return fmt.Errorf("hadoopsim: cluster of %d VMs × %d slots (SlotsPerVM): want 1..%d slots", len(c.VMs), c.SlotsPerVM, MaxSlots)
	}
	banded := 0
	for v, k := range c.VMs {
		if !(k.WebLow >= 0 && k.WebLow <= k.WebHigh && finite(k.WebHigh)) {
			return fmt.Errorf("hadoopsim: Cluster.VMs[%d] web band [WebLow, WebHigh] = [%v, %v]: want 0 <= WebLow <= WebHigh, finite", v, k.WebLow, k.WebHigh)
		}
		if k.WebHigh > k.WebLow {
			banded++
		}
	}
	if !(c.WebPeriod == 0 || c.WebPeriod >= 1 && c.WebPeriod <= MaxTime) {
		return fmt.Errorf("hadoopsim: Cluster.WebPeriod = %v: want 0 (web load fixed) or in [1, %g] s", c.WebPeriod, MaxTime)
	}
	if c.DataNodes < 0 || c.DataNodes > MaxSlots {
		return fmt.Errorf("hadoopsim: Cluster.DataNodes = %d: want in [0, %d] (0: unconstrained)", c.DataNodes, MaxSlots)
	}
	if c.DataNodes > 0 && !(c.NodeCapacity >= MinNodeCapacity && c.NodeCapacity <= MaxNodeCapacity) {
		return fmt.Errorf("hadoopsim: Cluster.NodeCapacity = %v: want in [%g, %g] MB/s (or DataNodes = 0 for no limit)", c.NodeCapacity, MinNodeCapacity, MaxNodeCapacity)
	}
	for i, jt := range s.Types {
		if err := checkModel(fmt.Sprintf("Types[%d].TCT", i), jt.TCT); err != nil {
			return err
		}
		if err := checkModel(fmt.Sprintf("Types[%d].Model", i), jt.Model); err != nil {
			return err
		}
		if !(jt.ReadRate >= 0 && jt.ReadRate <= MaxReadRate) {
			return fmt.Errorf("hadoopsim: Types[%d].ReadRate = %v: want in [0, %g] MB/s", i, jt.ReadRate, MaxReadRate)
		}
		if !(jt.Read90 >= 0 && jt.Read90 <= MaxReadRate) {
			return fmt.Errorf("hadoopsim: Types[%d].Read90 = %v: want in [0, %g] MB/s", i, jt.Read90, MaxReadRate)
		}
	}
	if len(s.Jobs) > MaxJobs {
		return fmt.Errorf("hadoopsim: %d jobs, more than %d (MaxJobs)", len(s.Jobs), MaxJobs)
	}
	tasks := 0
	for i, j := range s.Jobs {
		switch {
		case j.ID != i:
			return fmt.Errorf("hadoopsim: Jobs[%d].ID = %d: want its index %d", i, j.ID, i)
		case j.Type < 0 || j.Type >= len(s.Types):
			return fmt.Errorf("hadoopsim: Jobs[%d].Type = %d: no such type (%d types)", i, j.Type, len(s.Types))
		case j.Maps < 0 || j.Maps > MaxJobMaps:
			return fmt.Errorf("hadoopsim: Jobs[%d].Maps = %d: want in [0, %d]", i, j.Maps, MaxJobMaps)
		case len(j.Noise) < j.Maps:
			return fmt.Errorf("hadoopsim: Jobs[%d].Noise has %d factors for %d maps", i, len(j.Noise), j.Maps)
		case !(j.Arrival >= 0 && j.Arrival <= MaxTime):
			return fmt.Errorf("hadoopsim: Jobs[%d].Arrival = %v: want in [0, %g] s", i, j.Arrival, MaxTime)
		case !(j.Deadline >= 0 && j.Deadline <= MaxDeadline || math.IsInf(j.Deadline, 1)):
			return fmt.Errorf("hadoopsim: Jobs[%d].Deadline = %v: want in [0, %g] s or +Inf (none)", i, j.Deadline, MaxDeadline)
		}
		if tasks += j.Maps; tasks > MaxTasks {
			return fmt.Errorf("hadoopsim: Jobs[..%d] have %d maps, more than %d (MaxTasks)", i, tasks, MaxTasks)
		}
		for k, f := range j.Noise[:j.Maps] {
			if !(f >= MinNoise && f <= MaxNoise) {
				return fmt.Errorf("hadoopsim: Jobs[%d].Noise[%d] = %v: want in [%g, %g]", i, k, f, MinNoise, MaxNoise)
			}
		}
	}
	if last := LastArrival(s.Jobs); !(s.Horizon >= last && s.Horizon <= MaxTime) {
		return fmt.Errorf("hadoopsim: Horizon = %v: want in [%v (last arrival), %g] s", s.Horizon, last, MaxTime)
	}
	if !(s.RecordUntil >= 0 && s.RecordUntil <= MaxTime) {
		return fmt.Errorf("hadoopsim: RecordUntil = %v: want in [0, %g] s", s.RecordUntil, MaxTime)
	}
	if !(s.Margin == 0 || s.Margin >= 1 && s.Margin <= admission.MaxMargin) {
		return fmt.Errorf("hadoopsim: Margin = %v: want 0 (meaning 1) or in [1, %g]", s.Margin, float64(admission.MaxMargin))
	}
	if e := s.TCTError; e != (edf.TCTError{}) && !(e.Mean > 0 && finite(e.Mean) && e.Spread >= 0 && finite(e.Spread)) {
		return fmt.Errorf("hadoopsim: TCTError = %+v: want zero (the paper's MP) or Mean finite and > 0, Spread finite and >= 0", e)
	}
	if s.Offer != OfferHeartbeat && s.Offer != OfferClusterOrder {
		return fmt.Errorf("hadoopsim: Offer = %d: want OfferHeartbeat or OfferClusterOrder", int(s.Offer))
	}
	if c.WebPeriod > 0 {
		if draws := float64(banded) * s.Horizon / c.WebPeriod; draws > MaxWebDraws {
			return fmt.Errorf("hadoopsim: %d VMs with a web band × Horizon %v s / WebPeriod %v s = %.3g web-load redraws, more than %g", banded, s.Horizon, c.WebPeriod, draws, MaxWebDraws)
		}
	}
	return nil
}
