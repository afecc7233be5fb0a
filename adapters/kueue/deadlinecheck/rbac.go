package deadlinecheck

// The permissions the manager needs; controller-gen writes them into
// config/rbac/role.yaml (go generate ./... in adapters/kueue). Add get,
// list and watch on the kinds that own your Workloads (JobSet, RayJob, …)
// if their annotations carry the deadline: the check reads them from the
// Workload's controlling owner.
//
// +kubebuilder:rbac:groups=kueue.x-k8s.io,resources=admissionchecks;clusterqueues;localqueues,verbs=get;list;watch
// +kubebuilder:rbac:groups=kueue.x-k8s.io,resources=admissionchecks/status,verbs=get;patch
// +kubebuilder:rbac:groups=kueue.x-k8s.io,resources=workloads,verbs=get;list;watch;patch
// +kubebuilder:rbac:groups=kueue.x-k8s.io,resources=workloads/status,verbs=get;patch
// +kubebuilder:rbac:groups=schedkit.io,resources=deadlineparameters,verbs=get;list;watch
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;list;watch;create;update;patch
