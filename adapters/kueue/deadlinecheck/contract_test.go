package deadlinecheck

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/internal/annotation/annotationtest"
	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
)

// TestAnnotationVectors maps the shared test vectors of the annotation
// contract (adapters/internal/annotation/annotationtest) the way the check
// maps a real Job: the vector's pod annotations in the Workload's pod
// template, its Job annotations on the owning Job, created at the vector's
// time; the run-time table as a DeadlineParameters with exact (σ = 0)
// lognormal models. The kube-scheduler plugins' tests read the same file.
func TestAnnotationVectors(t *testing.T) {
	annotationtest.Each(t, annotationtest.Kubernetes, func(t *testing.T, f annotationtest.File, v annotationtest.Vector, podAnn, jobAnn map[string]string) {
		var types []v1alpha1.JobType
		table := f.JobTypes()
		for _, name := range slices.Sorted(maps.Keys(table)) {
			types = append(types, v1alpha1.JobType{Name: name, Lognormal: &v1alpha1.LognormalModel{MeanSeconds: table[name].Seconds()}})
		}
		models := CompileModels(params(v1alpha1.DeadlineParametersSpec{JobTypes: types}))
		wl := workload("w", kueue.CheckStatePending)
		wl.CreationTimestamp = metav1.NewTime(v.Created.Add(time.Second))
		wl.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: "job", UID: "job-uid", Controller: ptr(true)}}
		wl.Spec.PodSets[0].Template.Annotations = podAnn
		owner := &metav1.ObjectMeta{Namespace: "ns", Name: "job", UID: "job-uid", CreationTimestamp: metav1.NewTime(v.Created), Annotations: jobAnn}
		w, ok := Map(wl, owner, testCheck, rl("cpu", "8", "memory", "64Gi"), models, v.Created.Add(time.Minute))
		if !ok {
			t.Fatal("not mapped")
		}
		got := annotationtest.Want{Deadline: w.Deadline, HasDeadline: w.HasDeadline(), Runtime: w.Runtime, HasRuntime: w.Runtime > 0, JobType: w.JobType}
		if w.RunTime != nil {
			got.Estimate, got.HasEstimate = time.Duration(w.RunTime.Exact*float64(time.Second)), true
		}
		annotationtest.Check(t, v, got, func(concept string) error {
			key := f.Keys[concept][annotationtest.Kubernetes]
			for _, err := range []error{w.Problem, w.NoRunTime} {
				var ie *InputError
				if errors.As(err, &ie) && ie.Field == "annotation "+key && errors.Is(err, annotation.ErrSyntax) {
					return err
				}
			}
			return nil
		})
		if w.HasDeadline() && !strings.Contains(w.DeadlineFrom, "annotation "+DeadlineAnnotation) {
			t.Errorf("DeadlineFrom %q does not name the annotation", w.DeadlineFrom)
		}
	})
}
