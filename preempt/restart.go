package preempt

import "math"

// RestartSooner is a Mantri-style kill-and-restart rule (beyond GP; after
// Ananthanarayanan et al., "Reining in the Outliers in Map-Reduce Clusters
// using Mantri", OSDI 2010): kill a task and run it again from scratch only
// when a new copy is likely to finish sooner than the running one. With
// remaining the running copy's estimated remaining time and fresh the
// estimated time of a new copy (seconds, finite, ≥ 0), it restarts when
//
//	remaining > margin · fresh,
//
// margin ≥ 1 (finite) demanding that much gain to pay for the work lost: 1
// restarts on any expected gain, 2 only when the restart halves the time.
// Ties do not restart. The result is independent of GP and Baseline, which
// callers may combine with it (e.g. exempt tasks that would not restart).
func RestartSooner(remaining, fresh, margin float64) (bool, error) {
	switch {
	case !(remaining >= 0) || math.IsInf(remaining, 1):
		return false, bad("remaining", remaining, "must be finite and ≥ 0")
	case !(fresh >= 0) || math.IsInf(fresh, 1):
		return false, bad("fresh", fresh, "must be finite and ≥ 0")
	case !(margin >= 1) || math.IsInf(margin, 1):
		return false, bad("margin", margin, "must be finite and ≥ 1")
	}
	return remaining > margin*fresh, nil
}
