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

// DeadlineParameters holds the run-time models of the job types a
// schedkit.io/deadline AdmissionCheck admits.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster
// +kubebuilder:printcolumn:name="Job types",type=string,JSONPath=`.spec.jobTypes[*].name`
// +kubebuilder:printcolumn:name="Default",type=string,JSONPath=`.spec.defaultJobType`
type DeadlineParameters struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec DeadlineParametersSpec `json:"spec,omitempty"`
}

// DeadlineParametersSpec lists per-job-type run-time models.
type DeadlineParametersSpec struct {
	// jobTypes are the run-time models, one per job type. A workload names
	// its job type with the annotation schedkit.io/job-type (on the Job's
	// pod template, the Workload or the object that owns it, such as the
	// batch/v1 Job); schedkit.io/runtime, when set, wins over it. Names
	// are unique.
	//
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=256
	JobTypes []JobType `json:"jobTypes,omitempty"`

	// defaultJobType is the job type of workloads with neither
	// schedkit.io/runtime nor schedkit.io/job-type. Empty: such workloads
	// fall back to spec.maximumExecutionTimeSeconds.
	//
	// +optional
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	DefaultJobType string `json:"defaultJobType,omitempty"`

	// residualCapacity is the CPU share r in (0, 1] a pod gets on its
	// node, the argument of every exp2 model (MIMP Eq. 1; 1 is a dedicated
	// node). Unset means 1.
	//
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:ExclusiveMinimum=true
	// +kubebuilder:validation:Maximum=1
	ResidualCapacity *float64 `json:"residualCapacity,omitempty"`
}

// JobType is the run-time model of one pod of a job type: exactly one of
// lognormal and exp2 is set.
//
// +kubebuilder:validation:XValidation:rule="has(self.lognormal) != has(self.exp2)",message="exactly one of lognormal and exp2 must be set"
type JobType struct {
	// name is the value of the schedkit.io/job-type annotation: a
	// DNS-1123 label, the contract of every schedkit adapter.
	//
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	Name string `json:"name"`

	// lognormal: a pod's run time is lognormal with this mean and
	// standard deviation (matched by Lee thesis Eq. 5.1).
	//
	// +optional
	Lognormal *LognormalModel `json:"lognormal,omitempty"`

	// exp2: a pod's median run time is TCT(r) = a·e^(b·r) + c·e^(d·r)
	// seconds at the residual capacity r (MIMP Eq. 1), spread lognormally
	// by sigma.
	//
	// +optional
	Exp2 *Exp2Model `json:"exp2,omitempty"`
}

// LognormalModel is a pod run time given by its mean and standard
// deviation in seconds.
type LognormalModel struct {
	// meanSeconds is the mean run time of one pod, > 0.
	//
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:ExclusiveMinimum=true
	MeanSeconds float64 `json:"meanSeconds"`
	// stdDevSeconds is its standard deviation, >= 0 (0: every pod takes
	// the mean).
	//
	// +optional
	// +kubebuilder:validation:Minimum=0
	StdDevSeconds float64 `json:"stdDevSeconds,omitempty"`
}

// Exp2Model is the exp2 task completion time model of MIMP Eq. 1:
// TCT(r) = a·e^(b·r) + c·e^(d·r) seconds.
type Exp2Model struct {
	// +required
	A float64 `json:"a"`
	// +required
	B float64 `json:"b"`
	// +optional
	C float64 `json:"c,omitempty"`
	// +optional
	D float64 `json:"d,omitempty"`
	// sigma is the standard deviation of ln(run time) around ln TCT(r),
	// >= 0; 0 makes the run time exactly TCT(r).
	//
	// +optional
	// +kubebuilder:validation:Minimum=0
	Sigma float64 `json:"sigma,omitempty"`
}

// DeadlineParametersList is a list of DeadlineParameters.
//
// +kubebuilder:object:root=true
type DeadlineParametersList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []DeadlineParameters `json:"items"`
}
