//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	"sigs.k8s.io/kueue/pkg/features"

	"github.com/schedkit/schedkit/adapters/kueue/deadlinecheck"
)

// TestKueueEDFPriorityBoost: with Kueue's PriorityBoost feature gate on and
// the check's EDFPriorityBoost option, Kueue admits in earliest-deadline
// order. On a queue of 2 cpu that a holds for 600 s, b (deadline 3 h)
// waits first and c (deadline 2 h) a second later: the check writes on
// each the boost of its deadline, predicts c to start when a ends and b
// 60 s later, and when a finishes Kueue admits c before b (without the
// boost, Kueue's FIFO takes b first: ETAFollowsKueuesOrder).
func TestKueueEDFPriorityBoost(t *testing.T) {
	features.SetFeatureGateDuringTest(t, features.PriorityBoost, true)
	e := startEnv(t)
	e.checkOpts = deadlinecheck.Options{
		Config:           deadlinecheck.Config{Confidence: 0.9, Samples: 500, MinRetry: time.Second, MaxRetry: 3 * time.Second},
		ETARefresh:       2 * time.Second,
		ETATolerance:     time.Second,
		EDFPriorityBoost: true,
	}
	e.startCheck(t)
	e.setupCluster(t)

	e.queue(t, "s9", "2", "")
	ta := e.behindA(t, "s9", queued{"b", 2, annotations("3h", "fixed-200")}, queued{"c", 2, annotations("2h", "fixed-60")})
	const tol = 10 * time.Second
	waitFor(t, 30*time.Second, "boosts and ETAs in EDF order on s9/b and s9/c", func() (bool, string) {
		b, c := e.get(t, "s9", "b"), e.get(t, "s9", "c")
		wantB := deadlinecheck.FormatBoost(deadlinecheck.DeadlineBoost(b.CreationTimestamp.Add(3 * time.Hour)))
		wantC := deadlinecheck.FormatBoost(deadlinecheck.DeadlineBoost(c.CreationTimestamp.Add(2 * time.Hour)))
		cs, err1 := time.Parse(time.RFC3339, c.Annotations[deadlinecheck.StartP50Annotation])
		bs, err2 := time.Parse(time.RFC3339, b.Annotations[deadlinecheck.StartP50Annotation])
		ok := b.Annotations[deadlinecheck.PriorityBoostAnnotation] == wantB && c.Annotations[deadlinecheck.PriorityBoostAnnotation] == wantC &&
			err1 == nil && err2 == nil && near(cs, ta.Add(600*time.Second), tol) && near(bs, ta.Add(660*time.Second), tol)
		return ok, fmt.Sprintf("b %v (boost want %s), c %v (want %s); want c to start at %v, b at %v",
			b.Annotations, wantB, c.Annotations, wantC, ta.Add(600*time.Second), ta.Add(660*time.Second))
	})
	e.finish(t, "s9", "a")
	e.waitAdmittedFirst(t, "s9", "c", "b")
}
