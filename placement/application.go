package placement

import (
	"fmt"
	"math"
)

// An Application is TARA's application description for a MapReduce job
// (Lee thesis §3.2.1.2): the resource request, the framework configuration
// and the job profile measured from an earlier run's logs. Sizes are in
// bytes, CPU costs in seconds per byte on a reference core (Server.Speed 1).
type Application struct {
	// VMs is r, the number of VMs requested. Valid range [1, available servers].
	VMs int
	// MapSlots and ReduceSlots are the map and reduce slots per VM (Hadoop's
	// tasktracker maximums); each slot runs on one core. Valid range [1, +∞).
	MapSlots, ReduceSlots int
	// InputBytes is the job's total input, spread evenly over the VMs before
	// the job starts (§3.3.3.2: input is copied into the VMs beforehand), so
	// map reads are local. Valid range [0, +∞).
	InputBytes float64
	// SplitBytes is the input of one map task (the HDFS block size).
	// Valid range (0, +∞).
	SplitBytes float64
	// MapSelectivity is map output over map input (1 for sort).
	// Valid range [0, +∞).
	MapSelectivity float64
	// ReduceSelectivity is reduce output over reduce input (1 for sort).
	// Valid range [0, +∞).
	ReduceSelectivity float64
	// MapCostPerByte and ReduceCostPerByte are the CPU seconds a reference
	// core spends per input byte of a map or reduce task (linear-time tasks,
	// §3.2.2). Valid range [0, +∞).
	MapCostPerByte, ReduceCostPerByte float64
	// TaskOverhead is the fixed start-up time of every task in seconds
	// (Hadoop's per-task initialisation). Valid range [0, +∞).
	TaskOverhead float64
	// Replication is the HDFS replication factor of the job's output (3 in
	// the thesis's testbed, §3.3.2). Valid range [1, 64].
	Replication int
}

// maxReplication bounds Application.Replication; HDFS itself caps it at 512,
// and anything above a few copies is a typo in practice.
const maxReplication = 64

// Validate reports the first field of a that is out of range as a
// *ValueError (matching ErrBadInput), or nil. It does not compare VMs with a
// topology; NewEvaluator does.
func (a Application) Validate() error {
	f := func(name string) string { return "Application." + name }
	nonNeg := []struct {
		name string
		v    float64
	}{
		{"InputBytes", a.InputBytes},
		{"MapSelectivity", a.MapSelectivity},
		{"ReduceSelectivity", a.ReduceSelectivity},
		{"MapCostPerByte", a.MapCostPerByte},
		{"ReduceCostPerByte", a.ReduceCostPerByte},
		{"TaskOverhead", a.TaskOverhead},
	}
	switch {
	case a.VMs < 1:
		return &ValueError{Field: f("VMs"), Value: a.VMs, Reason: "must be >= 1"}
	case a.MapSlots < 1:
		return &ValueError{Field: f("MapSlots"), Value: a.MapSlots, Reason: "must be >= 1"}
	case a.ReduceSlots < 1:
		return &ValueError{Field: f("ReduceSlots"), Value: a.ReduceSlots, Reason: "must be >= 1"}
	case a.Replication < 1 || a.Replication > maxReplication:
		return &ValueError{Field: f("Replication"), Value: a.Replication, Reason: fmt.Sprintf("must be in [1, %d]", maxReplication)}
	case !(a.SplitBytes > 0) || math.IsInf(a.SplitBytes, 1):
		return &ValueError{Field: f("SplitBytes"), Value: a.SplitBytes, Reason: "must be finite and > 0"}
	}
	for _, x := range nonNeg {
		if !(x.v >= 0) || math.IsInf(x.v, 1) {
			return &ValueError{Field: f(x.name), Value: x.v, Reason: "must be finite and >= 0"}
		}
	}
	return nil
}
