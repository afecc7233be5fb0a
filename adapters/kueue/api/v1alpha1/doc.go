// Package v1alpha1 is the API of the schedkit deadline check's parameters:
// DeadlineParameters, group schedkit.io, version v1alpha1, cluster-scoped.
//
// An AdmissionCheck with spec.controllerName schedkit.io/deadline names one
// DeadlineParameters object in spec.parameters (apiGroup schedkit.io, kind
// DeadlineParameters). It holds the run-time models of the job types whose
// workloads the check admits.
//
// The types carry kubebuilder markers; controller-gen
// (sigs.k8s.io/controller-tools, the version pinned in generate.go) writes
// their deepcopy (zz_generated.deepcopy.go), the CustomResourceDefinition
// (config/crd) and, from the markers of package deadlinecheck, the
// ClusterRole (config/rbac/role.yaml): run go generate ./... in
// adapters/kueue. A test fails when the files on disk are not what
// controller-gen writes.
//
// +kubebuilder:object:generate=true
// +groupName=schedkit.io
package v1alpha1
