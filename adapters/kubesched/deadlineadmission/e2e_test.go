//go:build e2e

package deadlineadmission_test

import (
	"testing"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/scenario"
)

// TestAdmissionE2E is TestAdmission against a real kube-apiserver and etcd.
func TestAdmissionE2E(t *testing.T) { scenario.Admission(t, scenario.Real(t)) }
