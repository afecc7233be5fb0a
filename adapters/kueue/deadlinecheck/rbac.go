package deadlinecheck

// The permissions the manager needs; controller-gen writes them into
// config/rbac/role.yaml (go generate ./... in adapters/kueue). Add get,
// list and watch on the kinds that own your Workloads (JobSet, RayJob, …)
// if their annotations carry the deadline: the check reads them from the
// Workload's controlling owner. Leader election's lease and its events are
// namespaced, in config/rbac/leader_election_role.yaml. adapters/README.md
// lists the code path behind each rule.
//
// +kubebuilder:rbac:groups=kueue.x-k8s.io,resources=admissionchecks;clusterqueues;localqueues,verbs=list;watch
// +kubebuilder:rbac:groups=kueue.x-k8s.io,resources=admissionchecks/status,verbs=patch
// +kubebuilder:rbac:groups=kueue.x-k8s.io,resources=workloads,verbs=get;list;watch;patch
// +kubebuilder:rbac:groups=kueue.x-k8s.io,resources=workloads/status,verbs=patch
// +kubebuilder:rbac:groups=schedkit.io,resources=deadlineparameters,verbs=list;watch
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
