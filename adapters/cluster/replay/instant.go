package replay

import (
	"context"
	"fmt"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// instantController is the controllerName of the instant configuration's
// admission check, which the replay itself answers.
const instantController = "schedkit.io/replay-instant"

// instantEvery is how often the instant check looks for workloads holding
// quota with the check still Pending.
const instantEvery = 100 * time.Millisecond

// activateInstant marks the instant admission check Active, as its
// controller would, so that Kueue activates the ClusterQueue.
func activateInstant(ctx context.Context, cl *Cluster) error {
	for range 120 {
		ac := &kueue.AdmissionCheck{}
		err := cl.C.Get(ctx, client.ObjectKey{Name: checkName}, ac)
		if err == nil && apimeta.IsStatusConditionTrue(ac.Status.Conditions, kueue.AdmissionCheckActive) {
			return nil
		}
		if err == nil {
			apimeta.SetStatusCondition(&ac.Status.Conditions, metav1.Condition{Type: kueue.AdmissionCheckActive,
				Status: metav1.ConditionTrue, Reason: "Active", Message: "answered by the replay"})
			_ = cl.C.Status().Update(ctx, ac)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	return fmt.Errorf("AdmissionCheck %s (controller %s) not active within 60 s", checkName, instantController)
}

// answerInstant sets the instant check Ready on every workload of the
// replay's namespace that holds quota with the check Pending, every
// instantEvery until ctx ends. A write that conflicts is left to the next
// round.
func answerInstant(ctx context.Context, cl *Cluster) {
	for {
		wls := &kueue.WorkloadList{}
		if err := cl.C.List(ctx, wls, client.InNamespace(Namespace)); err == nil {
			for k := range wls.Items {
				wl := &wls.Items[k]
				if !apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadQuotaReserved) {
					continue
				}
				for j, ac := range wl.Status.AdmissionChecks {
					if string(ac.Name) != checkName || ac.State != kueue.CheckStatePending {
						continue
					}
					base := wl.DeepCopy()
					wl.Status.AdmissionChecks[j].State = kueue.CheckStateReady
					wl.Status.AdmissionChecks[j].Message = "instant"
					wl.Status.AdmissionChecks[j].LastTransitionTime = metav1.Now()
					_ = cl.C.Status().Patch(ctx, wl, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(instantEvery):
		}
	}
}
