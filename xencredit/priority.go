package xencredit

import (
	"strconv"

	"github.com/schedkit/schedkit/internal/enumname"
)

// A Priority is a VCPU's scheduling class. Larger runs first. The values are
// Xen's CSCHED_PRI_* with MIMP's BACKGROUND placed between OVER and IDLE.
type Priority int8

// The priority classes, highest first.
const (
	Boost      Priority = 0   // woken with credit left (UNDER), until a tick finds it running
	Under      Priority = -1  // credit ≥ 0 at the last accounting
	Over       Priority = -2  // credit < 0 at the last accounting
	Background Priority = -3  // MIMP's background class (MIMP §4.2)
	Idle       Priority = -64 // the idle VCPU; sorts last
)

// String returns Xen's name for the class, e.g. "UNDER".
func (p Priority) String() string {
	switch p {
	case Boost:
		return "BOOST"
	case Under:
		return "UNDER"
	case Over:
		return "OVER"
	case Background:
		return "BACKGROUND"
	case Idle:
		return "IDLE"
	}
	return "Priority(" + strconv.Itoa(int(p)) + ")"
}

// A Runstate is what a VCPU is doing, as in Xen's runstate accounting
// (xentop, MIMP Table 1).
type Runstate uint8

// The runstates. Offline is a parked VCPU that wants to run but is paused by
// its domain's cap.
const (
	Blocked Runstate = iota
	Runnable
	Running
	Offline
	NumRunstates // the number of runstates, the length of VCPU.Times
)

// String returns the runstate's name, e.g. "runnable".
func (r Runstate) String() string { return enumname.Of(r, "Runstate", runstateNames[:]) }

var runstateNames = [...]string{
	Blocked:  "blocked",
	Runnable: "runnable",
	Running:  "running",
	Offline:  "offline",
}

// A ChangeKind names one thing an event changed.
type ChangeKind uint8

// The kinds of change an event reports.
const (
	// Dispatch: VCPU started running on PCPU (VCPU = -1: PCPU went idle).
	Dispatch ChangeKind = iota + 1
	// Preempt: the running VCPU was descheduled while still runnable and
	// went back to the run queue.
	Preempt
	// Keep: the ratelimit kept the running VCPU although a reschedule was
	// asked for; its new slice ends at SliceEnd.
	Keep
	// BoostStart: a waking UNDER VCPU was raised to BOOST.
	BoostStart
	// BoostEnd: a tick found a BOOST VCPU running, or accounting re-set
	// its priority; it is UNDER or OVER now.
	BoostEnd
	// Park: accounting paused a capped VCPU whose credit fell below
	// minus its per-VCPU cap.
	Park
	// Unpark: accounting unpaused a parked VCPU whose credit is ≥ 0.
	Unpark
	// Raise: the starvation guard raised a background VCPU to OVER (or
	// UNDER) for a starvation slice.
	Raise
	// Lower: a raised VCPU went back to BACKGROUND (slice used or blocked).
	Lower
)

// String returns the change's name, e.g. "preempt".
func (k ChangeKind) String() string { return enumname.Of(k, "ChangeKind", changeKindNames[:]) }

var changeKindNames = [...]string{
	Dispatch:   "dispatch",
	Preempt:    "preempt",
	Keep:       "keep",
	BoostStart: "boost",
	BoostEnd:   "unboost",
	Park:       "park",
	Unpark:     "unpark",
	Raise:      "raise",
	Lower:      "lower",
}

// A Change is one entry of an event's log: what happened to which VCPU on
// which PCPU, and the VCPU's priority after it (Idle for the idle VCPU).
type Change struct {
	Kind     ChangeKind
	VCPU     int // -1 for the idle VCPU
	PCPU     int
	Priority Priority
}

// String formats c as "KIND vcpu=V pcpu=P PRIORITY".
func (c Change) String() string {
	return c.Kind.String() + " vcpu=" + strconv.Itoa(c.VCPU) + " pcpu=" + strconv.Itoa(c.PCPU) + " " + c.Priority.String()
}
