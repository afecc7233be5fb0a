// Package kubesched carries schedkit's decisions into kube-scheduler as
// scheduling-framework plugins, one per folder like
// sigs.k8s.io/scheduler-plugins:
//
//   - deadline: Deadline (QueueSort), pods of deadline jobs in
//     earliest-deadline-first order (edf's order), then PrioritySort's;
//   - deadlineadmission: DeadlineAdmission (PreFilter), a job that cannot
//     meet its deadline beside the running deadline jobs is
//     UnschedulableAndUnresolvable, decided by admission.Decide;
//   - leastworklost: LeastWorkLostPreemption (PostFilter), preemption that
//     evicts the most recently started lower-priority pods (preempt.GP's
//     order) on the node where the least work is lost;
//   - progressshare: ProgressShare (Score), nodes ranked by progressshare's
//     Algorithm 2 and Pref so accelerators go to the jobs they speed up.
//
// cmd/schedkit-scheduler is kube-scheduler with the four registered, and
// config/ holds an example KubeSchedulerConfiguration and the RBAC the
// plugins need beyond kube-scheduler's own (read batch/v1 Jobs).
//
// # Kubernetes version
//
// The module is built against Kubernetes 1.37 (k8s.io/kubernetes v1.37.2,
// every k8s.io staging module replaced by v0.37.2) and only that minor: the
// framework's interfaces change between minors (in 1.37 QueueSortPlugin.Less
// takes QueuedEntityInfo, a pod or a pod group). Run it against a 1.37
// control plane.
//
// # Annotations
//
// Jobs describe themselves with annotations on the pod or its owning
// batch/v1 Job (package internal/podjob): schedkit.io/deadline (RFC 3339
// time, or a duration after the Job's creation), schedkit.io/runtime (run
// time), schedkit.io/job-class (a row of a plugin's args table) and
// schedkit.io/rates (relative speed per node type, "a100=3").
//
// # Tests
//
// The fast tier (go test ./...) runs the real scheduler
// (k8s.io/kubernetes/pkg/scheduler.New) with the example profile on a
// fake clientset. The real tier (go test -tags e2e ./..., run by
// adapters/test-e2e.sh) runs the same scenarios against a real
// kube-apiserver and etcd started by controller-runtime's envtest, built
// from source by that script: pods are really bound by the API server and
// victims really deleted. No kubelet runs in either tier: the tests set
// status.startTime as a kubelet would, and give victims a zero termination
// grace period so that the API server deletes them at once.
package kubesched
