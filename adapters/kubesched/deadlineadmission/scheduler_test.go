package deadlineadmission_test

import (
	"testing"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/scenario"
)

// TestAdmission runs the real kube-scheduler with the example profile on a
// fake clientset: infeasible deadline jobs end PodScheduled=False with
// DeadlineAdmission's reason, feasible ones are bound.
func TestAdmission(t *testing.T) { scenario.Admission(t, scenario.Fake(t)) }
