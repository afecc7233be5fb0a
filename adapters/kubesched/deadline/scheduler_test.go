package deadline_test

import (
	"testing"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/scenario"
)

// TestEDFOrder runs the real kube-scheduler with the example profile on a
// fake clientset: bindings follow the Deadline queue order.
func TestEDFOrder(t *testing.T) { scenario.EDFOrder(t, scenario.Fake(t)) }
