//go:build e2e

package leastworklost_test

import (
	"testing"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/scenario"
)

// TestPreemptionE2E is TestPreemption against a real kube-apiserver and
// etcd (one per profile): victims are really deleted by the API server.
func TestPreemptionE2E(t *testing.T) { scenario.Preemption(t, scenario.Real) }

// TestPreemptionPDBE2E is TestPreemptionPDB against a real API server.
func TestPreemptionPDBE2E(t *testing.T) { scenario.PreemptionPDB(t, scenario.Real) }

// TestPreemptionEqualPriorityE2E is TestPreemptionEqualPriority against a
// real API server.
func TestPreemptionEqualPriorityE2E(t *testing.T) {
	scenario.PreemptionEqualPriority(t, scenario.Real(t))
}

// TestPreemptionWindowE2E is TestPreemptionWindow against a real API
// server.
func TestPreemptionWindowE2E(t *testing.T) { scenario.PreemptionWindow(t, scenario.Real(t)) }
