//go:build e2e

package progressscore_test

import (
	"testing"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/scenario"
)

// TestProgressShareE2E is TestProgressShare against a real kube-apiserver
// and etcd.
func TestProgressShareE2E(t *testing.T) {
	t.Run("sort-first", func(t *testing.T) { scenario.ProgressShare(t, scenario.Real(t), false) })
	t.Run("crypto-first", func(t *testing.T) { scenario.ProgressShare(t, scenario.Real(t), true) })
}
