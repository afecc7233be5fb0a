package deadlinecheck

import (
	"context"
	"errors"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
)

// ControllerName is the spec.controllerName of the AdmissionChecks this
// controller serves.
const ControllerName = "schedkit.io/deadline"

// checkReconciler keeps the Active condition of the schedkit.io/deadline
// AdmissionChecks: True when its parameters can be read (or it has none),
// False naming the bad reference otherwise. Kueue keeps a ClusterQueue
// inactive until each of its checks is Active.
type checkReconciler struct {
	client client.Client
	clock  clock.PassiveClock
}

func (r *checkReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	ac := &kueue.AdmissionCheck{}
	if err := r.client.Get(ctx, req.NamespacedName, ac); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if ac.Spec.ControllerName != ControllerName {
		return reconcile.Result{}, nil
	}
	cond := metav1.Condition{
		Type:               kueue.AdmissionCheckActive,
		Status:             metav1.ConditionTrue,
		Reason:             "Active",
		ObservedGeneration: ac.Generation,
	}
	params, err := parameters(ctx, r.client, ac)
	var bad *refError
	switch {
	case errors.As(err, &bad):
		cond.Status, cond.Reason, cond.Message = metav1.ConditionFalse, "BadParametersRef", err.Error()
	case err != nil:
		return reconcile.Result{}, err
	default:
		cond.Message = activeMessage(params)
	}
	cur := apimeta.FindStatusCondition(ac.Status.Conditions, kueue.AdmissionCheckActive)
	if cur != nil && cur.Status == cond.Status && cur.Reason == cond.Reason && cur.Message == cond.Message && cur.ObservedGeneration == cond.ObservedGeneration {
		return reconcile.Result{}, nil
	}
	ltt := metav1.NewTime(r.clock.Now())
	if cur != nil && cur.Status == cond.Status {
		ltt = cur.LastTransitionTime
	}
	// Server-side apply of the Active condition only (conditions are a map
	// keyed by type), field owner ControllerName.
	apply := kueueac.AdmissionCheck(ac.Name).WithResourceVersion(ac.ResourceVersion).WithStatus(kueueac.AdmissionCheckStatus().WithConditions(
		metav1ac.Condition().WithType(cond.Type).WithStatus(cond.Status).WithReason(cond.Reason).WithMessage(cond.Message).
			WithObservedGeneration(cond.ObservedGeneration).WithLastTransitionTime(ltt)))
	err = r.client.Status().Apply(ctx, apply, client.FieldOwner(ControllerName), client.ForceOwnership)
	return reconcile.Result{}, client.IgnoreNotFound(err)
}

// activeMessage says which models the check uses, and which job types are
// unusable (their workloads are rejected naming the field).
func activeMessage(p *v1alpha1.DeadlineParameters) string {
	if p == nil {
		return "Active: no parameters; run times fall back to spec.maximumExecutionTimeSeconds"
	}
	m := CompileModels(p)
	var bad []string
	for _, name := range m.names {
		if e := m.byType[name]; e.err != nil {
			bad = append(bad, name)
		}
	}
	msg := fmt.Sprintf("Active: DeadlineParameters %s, %d job types", p.Name, len(m.names))
	if len(bad) > 0 {
		msg += fmt.Sprintf("; unusable (their workloads are rejected): %s", strings.Join(bad, ", "))
	}
	if m.defaultErr != nil {
		msg += "; " + m.defaultErr.Error()
	}
	return msg
}

// A refError is an AdmissionCheck's spec.parameters that names something
// the controller cannot use.
type refError struct{ msg string }

func (e *refError) Error() string { return e.msg }

// parameters reads the DeadlineParameters an AdmissionCheck names, nil
// when it names none. A reference to another kind, or to a missing object,
// is a *refError naming it; other errors are the API server's.
func parameters(ctx context.Context, c client.Client, ac *kueue.AdmissionCheck) (*v1alpha1.DeadlineParameters, error) {
	ref := ac.Spec.Parameters
	if ref == nil {
		return nil, nil
	}
	if ref.APIGroup != v1alpha1.GroupVersion.Group || ref.Kind != v1alpha1.Kind {
		return nil, &refError{fmt.Sprintf("spec.parameters names %s %s/%s; this controller reads %s %s", ref.APIGroup, ref.Kind, ref.Name, v1alpha1.GroupVersion.Group, v1alpha1.Kind)}
	}
	p := &v1alpha1.DeadlineParameters{}
	if err := c.Get(ctx, client.ObjectKey{Name: ref.Name}, p); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, &refError{fmt.Sprintf("spec.parameters: DeadlineParameters %s not found", ref.Name)}
		}
		return nil, err
	}
	return p, nil
}
