package progressscore_test

import (
	"testing"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/scenario"
)

// TestProgressShare runs the real kube-scheduler with the example profile
// on a fake clientset: the GPU-friendly job gets the GPU nodes and the
// other job the rest, whichever job's pods come first.
func TestProgressShare(t *testing.T) {
	t.Run("sort-first", func(t *testing.T) { scenario.ProgressShare(t, scenario.Fake(t), false) })
	t.Run("crypto-first", func(t *testing.T) { scenario.ProgressShare(t, scenario.Fake(t), true) })
}
