package deadlineadmission

import (
	"maps"
	"slices"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/schedkit/schedkit/adapters/internal/annotation/annotationtest"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
)

// TestAnnotationVectors maps the shared test vectors of the annotation
// contract (adapters/internal/annotation/annotationtest) the way the
// plugins map a real pod: the vector's pod annotations on a pod of a
// batch/v1 Job carrying the vector's Job annotations, created at the
// vector's time; the estimate with the vector's table as the args'
// jobTypes. The Kueue check's tests read the same file.
func TestAnnotationVectors(t *testing.T) {
	annotationtest.Each(t, annotationtest.Kubernetes, func(t *testing.T, f annotationtest.File, v annotationtest.Vector, podAnn, jobAnn map[string]string) {
		args := &Args{Mode: ModeStrict}
		table := f.JobTypes()
		for _, name := range slices.Sorted(maps.Keys(table)) {
			args.JobTypes = append(args.JobTypes, JobType{Name: name, Runtime: metav1.Duration{Duration: table[name]}})
		}
		if err := args.Validate(nil); err != nil {
			t.Fatal(err)
		}
		job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "job", UID: "job-uid",
			CreationTimestamp: metav1.NewTime(v.Created), Annotations: jobAnn}}
		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "job-x", UID: "pod-uid",
			CreationTimestamp: metav1.NewTime(v.Created.Add(5 * time.Second)), Annotations: podAnn,
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: "job", UID: "job-uid", Controller: ptr.To(true)}}}}
		j := podjob.Of(pod, job)
		got := annotationtest.Want{Deadline: j.Deadline, HasDeadline: j.HasDeadline, Runtime: j.Runtime, HasRuntime: j.HasRuntime, JobType: j.JobType}
		if est, _, err := Estimate(j, args); err == nil {
			got.Estimate, got.HasEstimate = est, true
		}
		annotationtest.Check(t, v, got, func(concept string) error {
			return j.Err(f.Keys[concept][annotationtest.Kubernetes])
		})
	})
}
