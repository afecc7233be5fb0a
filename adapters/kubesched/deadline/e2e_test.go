//go:build e2e

package deadline_test

import (
	"testing"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/scenario"
)

// TestEDFOrderE2E is TestEDFOrder against a real kube-apiserver and etcd.
func TestEDFOrderE2E(t *testing.T) { scenario.EDFOrder(t, scenario.Real(t)) }
