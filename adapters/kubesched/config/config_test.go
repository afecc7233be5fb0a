package config_test

import (
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/ptr"

	"github.com/schedkit/schedkit/adapters/kubesched/config"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/scenario"
)

// TestExampleProfile: the example KubeSchedulerConfiguration decodes with
// kube-scheduler's own scheme and validation, and the plugins accept its
// args (scenario.Profiles builds the scheduler's profiles from it).
func TestExampleProfile(t *testing.T) {
	if _, err := scenario.Profiles(); err != nil {
		t.Fatal(err)
	}
}

// TestExampleJobs: every object of example-jobs.yaml decodes, uses the
// schedkit-scheduler profile, and its annotations map without a problem.
func TestExampleJobs(t *testing.T) {
	created := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	docs := strings.Split(string(config.ExampleJobs), "\n---\n")
	if len(docs) != 3 {
		t.Fatalf("%d objects, want 3", len(docs))
	}
	for i, doc := range docs {
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode([]byte(doc), nil, nil)
		if err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
		var pod *v1.Pod
		var owner *batchv1.Job
		switch o := obj.(type) {
		case *batchv1.Job:
			owner = o
			owner.UID, owner.Namespace, owner.CreationTimestamp = "job-uid", "default", metav1.NewTime(created)
			pod = &v1.Pod{ObjectMeta: *o.Spec.Template.ObjectMeta.DeepCopy(), Spec: o.Spec.Template.Spec}
			pod.Name, pod.Namespace = o.Name+"-0", "default"
			pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: o.Name, UID: "job-uid", Controller: ptr.To(true)}}
		case *v1.Pod:
			pod = o
		default:
			t.Fatalf("object %d is a %T", i, obj)
		}
		if pod.Spec.SchedulerName != "schedkit-scheduler" {
			t.Errorf("%s: schedulerName %q", pod.Name, pod.Spec.SchedulerName)
		}
		if j := podjob.Of(pod, owner); len(j.Problems) != 0 {
			t.Errorf("%s: %v", j.Ref, j.Problems)
		}
	}
}
