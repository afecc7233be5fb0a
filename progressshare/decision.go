package progressshare

import (
	"github.com/schedkit/schedkit/internal/enumname"
)

// A Reason says why a picker launched a task on the free slot or skipped it.
type Reason int

// Reasons. ReasonCalibration, ReasonPreferred, ReasonLocality and
// ReasonAffinity are launches; ReasonNoPendingTask and ReasonWaiting skips.
const (
	// ReasonCalibration: the job is calibrating and has no measured rate and
	// no running task on the slot's node type, so it gets the slot at once
	// (§4.3.1.4, Algorithm 2's picker only).
	ReasonCalibration Reason = iota
	// ReasonPreferred: Algorithm 2 line 4, 1 − Pref ≤ delay(j)/max_delay.
	ReasonPreferred
	// ReasonLocality: Algorithm 1, the task's locality is allowed at the
	// job's delay: node-local at once, rack-local after d1, remote after d2.
	ReasonLocality
	// ReasonNoPendingTask: no job has a pending block; the slot stays free.
	ReasonNoPendingTask
	// ReasonWaiting: every job with pending blocks was examined and chose
	// to wait for a better slot; the slot stays free.
	ReasonWaiting
	// ReasonAffinity: the affinity rule (Options.AffinityFactor) passed
	// over the job Algorithm 2 picked (Decision.Bypassed) for this one,
	// whose relative rate on the slot is at least the factor times the
	// bypassed job's and which accepts the slot by Algorithm 2's line 4.
	ReasonAffinity
)

// String returns the reason's short name ("calibration", "preferred",
// "locality", "no-pending-task", "waiting", "affinity"), and "Reason(n)"
// for any other value.
func (r Reason) String() string { return enumname.Of(r, "Reason", reasonNames[:]) }

var reasonNames = [...]string{
	ReasonCalibration:   "calibration",
	ReasonPreferred:     "preferred",
	ReasonLocality:      "locality",
	ReasonNoPendingTask: "no-pending-task",
	ReasonWaiting:       "waiting",
	ReasonAffinity:      "affinity",
}

// A Decision is what a picker does with one free slot. A skip is a result,
// not an error.
type Decision struct {
	Launch bool   // a task is launched on the slot
	Reason Reason // why

	// Job, Block and Replica say what to launch: jobs[Job].Pending[Block],
	// reading jobs[Job].Pending[Block].Replicas[Replica]. All −1 on a skip.
	Job, Block, Replica int

	// Locality of the chosen replica from the slot (Remote on a skip).
	Locality Locality

	// Pref is Pref_{j,b}(s) of the launched task (Algorithm 2 only; 0 for
	// Algorithm 1 and on a skip).
	Pref float64

	// Calibrating reports that the launched job was still calibrating, so it
	// was ordered by slot share and its Pref assumed equal rates on every
	// node type; its progress share was not used.
	Calibrating bool

	// Examined counts the jobs whose best task was considered, including the
	// launched one. Jobs declined without reading their blocks are not
	// counted: calibrated jobs that PickProgressShare proves must decline
	// from node types and the best locality alone (the shortcut in the
	// package doc), and jobs whose PendingIndex tells PickSlotShare that
	// their best locality must wait.
	Examined int

	// Bypassed is, for ReasonAffinity, the job (index into jobs) that
	// Algorithm 2 picked and the affinity rule passed over; −1 otherwise.
	Bypassed int
}

func skip(r Reason, examined int) Decision {
	return Decision{Reason: r, Job: -1, Block: -1, Replica: -1, Locality: Remote, Examined: examined, Bypassed: -1}
}

// order is a binary min-heap of job indices keyed by s.keys, ties broken by
// the lower index, so jobs come out in increasing (share/weight, index)
// without sorting all of them: a decision usually stops at the first jobs.
type order struct {
	keys []float64
	rel  []float64 // nil, or relative rates ordering before keys (highest first)
	h    []int32
}

func (o *order) less(a, b int32) bool {
	if o.rel != nil { // the affinity rule's order: highest relative rate first
		if ra, rb := o.rel[a], o.rel[b]; ra != rb {
			return ra > rb
		}
	}
	ka, kb := o.keys[a], o.keys[b]
	return ka < kb || (ka == kb && a < b)
}

func (o *order) init() {
	for i := len(o.h)/2 - 1; i >= 0; i-- {
		o.down(i)
	}
}

func (o *order) down(i int) {
	n := len(o.h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && o.less(o.h[r], o.h[l]) {
			m = r
		}
		if !o.less(o.h[m], o.h[i]) {
			return
		}
		o.h[i], o.h[m] = o.h[m], o.h[i]
		i = m
	}
}

func (o *order) pop() int {
	top := o.h[0]
	n := len(o.h) - 1
	o.h[0] = o.h[n]
	o.h = o.h[:n]
	if n > 0 {
		o.down(0)
	}
	return int(top)
}

// begin validates slot and now and sizes the scratch space for n jobs.
func (s *Scheduler) begin(slot int, n int, now float64) (Slot, order, error) {
	sl, err := s.slot(slot)
	if err != nil {
		return Slot{}, order{}, err
	}
	if now-now != 0 {
		return Slot{}, order{}, &ValueError{Field: "now", Value: now, Reason: "must be finite"}
	}
	if n > MaxJobs {
		return Slot{}, order{}, &ValueError{Field: "len(jobs)", Value: n, Reason: "more than MaxJobs = 2^18 jobs"}
	}
	if cap(s.keys) < n {
		s.keys = make([]float64, n)
		s.heap = make([]int32, 0, n)
	}
	if s.opt.AffinityFactor > 0 && cap(s.rel) < n {
		s.rel = make([]float64, n)
	}
	return sl, order{keys: s.keys[:n], h: s.heap[:0]}, nil
}
