package leastworklost_test

import (
	"testing"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/scenario"
)

// TestPreemption runs the real kube-scheduler on a fake clientset with both
// profiles on the same cluster: LeastWorkLostPreemption evicts the youngest
// eligible pods and loses less work than DefaultPreemption.
func TestPreemption(t *testing.T) { scenario.Preemption(t, scenario.Fake) }

// TestPreemptionPDB: a PodDisruptionBudget outranks work lost.
func TestPreemptionPDB(t *testing.T) { scenario.PreemptionPDB(t, scenario.Fake) }

// TestPreemptionEqualPriority: pods of equal or higher priority are never
// evicted.
func TestPreemptionEqualPriority(t *testing.T) { scenario.PreemptionEqualPriority(t, scenario.Fake(t)) }

// TestPreemptionWindow: below every node a candidate, the preemptor's
// window chooses as every node would here.
func TestPreemptionWindow(t *testing.T) { scenario.PreemptionWindow(t, scenario.Fake(t)) }
