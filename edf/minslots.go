package edf

import (
	"math"

	"github.com/schedkit/schedkit/internal/enumname"
)

// SlotStatus says whether MinimumSlots found a slot count.
type SlotStatus uint8

const (
	// SlotsFeasible: Map and Reduce meet the deadline under the model.
	SlotsFeasible SlotStatus = iota
	// SlotsNoEstimate: no map task has completed yet, so t_m is unknown;
	// the scheduler should run the job first to calibrate (Rao–Reddy §4.2).
	SlotsNoEstimate
	// SlotsInfeasible: C = D − u·v·t_c ≤ 0 (the shuffle alone overruns the
	// deadline) or the count would exceed MaxPhaseSlots: no slot count meets it.
	SlotsInfeasible
)

// String returns "feasible", "no-estimate", "infeasible", or
// "SlotStatus(n)" for any other value.
func (s SlotStatus) String() string { return enumname.Of(s, "SlotStatus", slotStatusNames[:]) }

var slotStatusNames = [...]string{
	SlotsFeasible:   "feasible",
	SlotsNoEstimate: "no-estimate",
	SlotsInfeasible: "infeasible",
}

// A SlotEstimate is what Rao–Reddy §2.1 knows about a running job. Counts are
// of REMAINING tasks (not started plus running), so recomputing as tasks
// finish (Algorithm 2, line 19) is calling MinimumSlots again.
type SlotEstimate struct {
	MapTasks    int // u: map tasks not completed, ≥ 0
	ReduceTasks int // v: reduce tasks not completed, ≥ 0
	// CompletedMaps is |C|, the number of completed map tasks; 0 means no
	// estimate yet.
	CompletedMaps int
	// MeanMapTime is t_m (Rao–Reddy Eq. 1), the mean duration of completed map
	// tasks in seconds, finite and > 0 when CompletedMaps > 0.
	MeanMapTime float64
	// CompletedReduces counts completed reduce tasks; while it is 0, t_r =
	// t_m (Rao–Reddy Eq. 3), afterwards MeanReduceTime is used.
	CompletedReduces int
	MeanReduceTime   float64 // t_r, seconds, > 0 when CompletedReduces > 0
	// CopyTime is t_c, the time of one (mapper, reducer) copy, ≥ 0.
	CopyTime float64
	// TimeLeft is D, the seconds left to the deadline (may be ≤ 0).
	TimeLeft float64
}

// MinSlots is MinimumSlots's answer.
type MinSlots struct {
	Status SlotStatus
	// Map and Reduce are n_m and n_r (0 unless Status is SlotsFeasible).
	Map, Reduce int
	// A = u·t_m, B = v·t_r, C = D − u·v·t_c (Rao–Reddy Eq. 9), for the log.
	A, B, C float64
}

// Meets reports whether map and reduce slot counts meet the deadline under
// Rao–Reddy's model, A/n_m + B/n_r ≤ C, with the convention A/0 = +Inf for A > 0
// and 0/0 = 0 (no tasks need no slot).
func (m MinSlots) Meets(nMap, nReduce int) bool {
	return meets(m.A, m.B, m.C, nMap, nReduce)
}

func phase(a float64, n int) float64 {
	if a == 0 {
		return 0
	}
	if n <= 0 {
		return math.Inf(1)
	}
	return a / float64(n)
}

func meets(a, b, c float64, nm, nr int) bool {
	return c > 0 && phase(a, nm)+phase(b, nr) <= c
}

// smallest returns the least n in [1, MaxPhaseSlots] with phase(a, n) + other ≤
// c (0 when a = 0), exact for meets whatever rounding does: the test is
// monotone in n, so the estimate a/(c−other) is checked and, when it is
// off, the answer is found by bisection (at most 31 tests). Rounding can
// make the estimate useless: with a subnormal a, a/n + other = other for
// every n, so the least n is 1 even when c − other is 0; with a tiny a
// beside a huge other, stepping from the estimate could take 2³⁰ steps.
func smallest(a, other, c float64) (int, bool) {
	ok := func(n int) bool { return phase(a, n)+other <= c }
	if a == 0 {
		return 0, other <= c
	}
	if !ok(MaxPhaseSlots) {
		return 0, false
	}
	lo, hi := 1, MaxPhaseSlots // the answer is in [lo, hi]; hi passes
	if room := c - other; room > 0 {
		if est := math.Ceil(a / room); est <= MaxPhaseSlots {
			n := max(int(est), 1)
			switch {
			case ok(n) && (n == 1 || !ok(n-1)):
				return n, true // the estimate is exact: the usual case
			case ok(n):
				hi = n - 1
			default:
				lo = n + 1
			}
		}
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, true
}

// MinimumSlots returns the minimum map and reduce slots for a job to meet
// its deadline, Rao–Reddy §2.1 (Eq. 4–10; their printed forms did not all
// survive, so we restate them from the text around them and Eq. 9's A, B
// and C): map phase u·t_m/n_m, reduce phase v·t_r/n_r, shuffle u·v·t_c, so
// the deadline holds iff A/n_m + B/n_r ≤ C with A = u·t_m, B = v·t_r,
// C = D − u·v·t_c. Minimising n_m + n_r by Lagrange multipliers (Eq. 10)
// gives n_m = √A(√A+√B)/C and n_r = √B(√A+√B)/C. We round both up, then
// lower each to the smallest integer that still meets the deadline given
// the other (first n_m, then n_r), so that the answer meets the deadline
// under its own model and one slot fewer on either side does not (each
// count is minimal given the other).
//
// Results (not errors): SlotsNoEstimate when CompletedMaps = 0;
// SlotsInfeasible when C ≤ 0 while work remains, or when even MaxPhaseSlots map
// and MaxPhaseSlots reduce slots miss the deadline. When Eq. 10's map count
// exceeds MaxPhaseSlots but the deadline can be met within the caps, the map
// count is capped and the reduce count raised to meet it (then each is
// again lowered to the minimum given the other). A job with no remaining
// task needs 0 slots (feasible, even if TimeLeft ≤ 0).
//
// Errors (matching ErrBadInput): negative counts; MeanMapTime not finite
// and > 0 when CompletedMaps > 0; MeanReduceTime not finite and > 0 when
// CompletedReduces > 0; CopyTime NaN, infinite or < 0; TimeLeft NaN or
// infinite.
func MinimumSlots(e SlotEstimate) (MinSlots, error) {
	for _, c := range [...]struct {
		f string
		n int
	}{{"MapTasks", e.MapTasks}, {"ReduceTasks", e.ReduceTasks}, {"CompletedMaps", e.CompletedMaps}, {"CompletedReduces", e.CompletedReduces}} {
		if c.n < 0 {
			return MinSlots{}, checkTasks("SlotEstimate."+c.f, c.n)
		}
	}
	if e.CompletedMaps > 0 && !validTime(e.MeanMapTime) {
		return MinSlots{}, &ValueError{Field: "SlotEstimate.MeanMapTime", Value: e.MeanMapTime, Reason: "must be finite and > 0"}
	}
	if e.CompletedReduces > 0 && !validTime(e.MeanReduceTime) {
		return MinSlots{}, &ValueError{Field: "SlotEstimate.MeanReduceTime", Value: e.MeanReduceTime, Reason: "must be finite and > 0"}
	}
	if !(e.CopyTime >= 0 && e.CopyTime <= math.MaxFloat64) {
		return MinSlots{}, &ValueError{Field: "SlotEstimate.CopyTime", Value: e.CopyTime, Reason: "must be finite and >= 0"}
	}
	if math.IsNaN(e.TimeLeft) || math.IsInf(e.TimeLeft, 0) {
		return MinSlots{}, &ValueError{Field: "SlotEstimate.TimeLeft", Value: e.TimeLeft, Reason: "must be finite"}
	}
	if e.MapTasks == 0 && e.ReduceTasks == 0 {
		return MinSlots{Status: SlotsFeasible, C: e.TimeLeft}, nil
	}
	if e.CompletedMaps == 0 {
		return MinSlots{Status: SlotsNoEstimate}, nil
	}
	tm := e.MeanMapTime
	tr := tm // Rao–Reddy Eq. 3 until a reduce task has completed
	if e.CompletedReduces > 0 {
		tr = e.MeanReduceTime
	}
	u, v := float64(e.MapTasks), float64(e.ReduceTasks)
	a, b := u*tm, v*tr
	c := e.TimeLeft - u*v*e.CopyTime
	out := MinSlots{Status: SlotsInfeasible, A: a, B: b, C: c}
	if !(c > 0) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return out, nil
	}
	if !meets(a, b, c, MaxPhaseSlots, MaxPhaseSlots) {
		return out, nil // not even MaxPhaseSlots of each kind meet the deadline
	}
	sb := math.Sqrt(b)
	fr := math.Ceil(sb * (math.Sqrt(a) + sb) / c) // Eq. 10, rounded up (may be +Inf)
	nr := MaxPhaseSlots
	if fr <= MaxPhaseSlots {
		nr = int(fr)
	}
	nm, ok := smallest(a, phase(b, nr), c)
	if ok {
		nr, _ = smallest(b, phase(a, nm), c) // no more than before: (nm, nr) meets
	} else {
		// Eq. 10's map count exceeds MaxPhaseSlots: cap it, take the fewest
		// reduce slots that then meet the deadline (MaxPhaseSlots do), and lower
		// the map count again given those.
		nr, _ = smallest(b, phase(a, MaxPhaseSlots), c)
		nm, _ = smallest(a, phase(b, nr), c)
	}
	out.Status, out.Map, out.Reduce = SlotsFeasible, nm, nr
	return out, nil
}
