// Package v1alpha1 is the API of the schedkit deadline check's parameters:
// DeadlineParameters, group schedkit.io, version v1alpha1, cluster-scoped.
//
// An AdmissionCheck with spec.controllerName schedkit.io/deadline names one
// DeadlineParameters object in spec.parameters (apiGroup schedkit.io, kind
// DeadlineParameters). It holds the run-time models of the job types whose
// workloads the check admits. config/crd holds the CustomResourceDefinition.
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the group and version of DeadlineParameters.
var GroupVersion = schema.GroupVersion{Group: "schedkit.io", Version: "v1alpha1"}

// Kind is the kind an AdmissionCheck's spec.parameters names.
const Kind = "DeadlineParameters"

// AddToScheme registers DeadlineParameters and DeadlineParametersList.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &DeadlineParameters{}, &DeadlineParametersList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}

// DeadlineParameters holds the run-time models of a deadline check.
type DeadlineParameters struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec DeadlineParametersSpec `json:"spec,omitempty"`
}

// DeadlineParametersSpec lists per-job-type run-time models.
type DeadlineParametersSpec struct {
	// JobTypes are the run-time models, one per job type. A workload names
	// its job type with the annotation schedkit.io/job-type (on the Workload
	// or on the object that owns it, such as the batch/v1 Job). Names are
	// unique.
	JobTypes []JobType `json:"jobTypes,omitempty"`

	// DefaultJobType is the job type of workloads without the annotation.
	// Empty: such workloads fall back to spec.maximumExecutionTimeSeconds.
	DefaultJobType string `json:"defaultJobType,omitempty"`

	// ResidualCapacity is the CPU share r in (0, 1] a pod gets on its node,
	// the argument of every exp2 model (MIMP Eq. 1; 1 is a dedicated
	// node). Nil means 1.
	ResidualCapacity *float64 `json:"residualCapacity,omitempty"`
}

// JobType is the run-time model of one pod of a job type: exactly one of
// Lognormal and Exp2 is set.
type JobType struct {
	// Name is the value of the schedkit.io/job-type annotation.
	Name string `json:"name"`

	// Lognormal: a pod's run time is lognormal with this mean and standard
	// deviation (matched by Lee thesis Eq. 5.1).
	Lognormal *LognormalModel `json:"lognormal,omitempty"`

	// Exp2: a pod's median run time is TCT(r) = a·e^(b·r) + c·e^(d·r)
	// seconds at the residual capacity r (MIMP Eq. 1), spread
	// lognormally by Sigma.
	Exp2 *Exp2Model `json:"exp2,omitempty"`
}

// LognormalModel is a pod run time given by its mean and standard
// deviation in seconds.
type LognormalModel struct {
	// MeanSeconds is the mean run time of one pod, > 0.
	MeanSeconds float64 `json:"meanSeconds"`
	// StdDevSeconds is its standard deviation, >= 0 (0: every pod takes
	// the mean).
	StdDevSeconds float64 `json:"stdDevSeconds,omitempty"`
}

// Exp2Model is the exp2 task completion time model of MIMP Eq. 1.
type Exp2Model struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
	C float64 `json:"c,omitempty"`
	D float64 `json:"d,omitempty"`
	// Sigma is the standard deviation of ln(run time) around ln TCT(r),
	// >= 0; 0 makes the run time exactly TCT(r).
	Sigma float64 `json:"sigma,omitempty"`
}

// DeadlineParametersList is a list of DeadlineParameters.
type DeadlineParametersList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []DeadlineParameters `json:"items"`
}
