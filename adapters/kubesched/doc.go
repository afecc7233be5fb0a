// Package kubesched carries schedkit's decisions into kube-scheduler as
// scheduling-framework plugins, one per folder like
// sigs.k8s.io/scheduler-plugins:
//
//   - deadline: Deadline (QueueSort), pods of deadline jobs in
//     earliest-deadline-first order (edf's order), then PrioritySort's;
//   - deadlineadmission: DeadlineAdmission (PreFilter), a job that cannot
//     meet its deadline beside the running deadline jobs is
//     UnschedulableAndUnresolvable, decided by admission.Workspace.Decide;
//   - leastworklost: LeastWorkLostPreemption (PostFilter), preemption that
//     evicts the most recently started lower-priority pods (preempt.GP's
//     order) on the node where the least work is lost;
//   - progressscore: ProgressShare (Score), nodes ranked by progressshare's
//     Algorithm 2 and Pref so accelerators go to the jobs they speed up.
//
// Each plugin type is named after its plugin, in a folder of its own
// (progressscore holds ProgressShare, apart from schedkit's progressshare
// package it calls). Each args type fills its own defaults (SetDefaults)
// and validates every field, the problems joined as kube's ValidateXxxArgs
// join theirs (Validate); the registry's factories are written once, in
// internal/factory: decode the pluginConfig args, default, validate, build.
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
// time), schedkit.io/job-type (a row of a plugin's args table) and
// schedkit.io/rates (relative speed per node type, "a100=3"). The keys,
// their grammar and bounds, and which value wins, are the contract the
// Kueue adapter reads too (adapters/internal/annotation); the tests of
// both read its shared test vectors.
//
// # Tests
//
// The fast tier (go test ./...) runs the real scheduler
// (k8s.io/kubernetes/pkg/scheduler.New, its informers, queue, framework and
// the in-tree plugins of the example profile) on a fake clientset whose
// pods/binding does what the API server's does. The real tier (go test
// -tags e2e ./..., run by adapters/test-e2e.sh) runs the same scenarios
// against a real kube-apiserver and etcd started by controller-runtime's
// envtest, both built from source by that script: pods are bound through
// the API server's binding subresource, priorities come from real
// PriorityClasses through the Priority admission plugin, and victims are
// deleted by the API server. A real tier that cannot start the servers
// fails; it never skips. The scenarios:
//
//   - Deadline: six queued pods land on six ranked nodes in EDF order
//     (deadlines from a Job's relative annotation, a pod's, absolute ones),
//     then priority, then the pods without deadline;
//   - DeadlineAdmission: the pod that would make a running deadline job
//     late, the hopeless one, and the malformed, unestimated and
//     unknown-job-type ones end PodScheduled=False with the exact reason; the
//     feasible ones (estimate from the pod, from a Job's job type) are bound;
//   - LeastWorkLostPreemption: one cluster, both profiles: DefaultPreemption
//     evicts a 60-minute-old pod (3,600 s lost), LeastWorkLostPreemption
//     the two youngest (300 s), with the event and metric checked; a PDB
//     over the young pods moves it to the 50-minute-old one (3,000 s); PDBs
//     over all of a node move it to the node whose victims violate none; a
//     preemptor of equal priority evicts nothing;
//   - ProgressShare: the GPU-friendly job's pods land on the GPU nodes and
//     the other job's elsewhere, whichever job's pods are queued first.
//
// What neither tier has: no kubelet (the tests set status.startTime as a
// kubelet would; victims have a zero termination grace period, so the API
// server deletes them at once rather than after the kubelet stops them),
// no Job controller (the tests create a Job's pods themselves), no
// disruption controller (a PDB keeps status.disruptionsAllowed 0, which is
// what the tests want), and no leader election (the scheduler runs through
// scheduler.New, not the binary's command; the command's flag parsing and
// config loading are kube-scheduler's own, and the example profile is
// loaded with kube-scheduler's scheme and validation in both tiers). The
// mappings from pods to schedkit inputs are checked by rapid properties
// and by tables worked by hand.
//
// The cluster tier (adapters/cluster/e2e, also run by adapters/test-e2e.sh)
// has them: the schedkit-scheduler binary, installed from config/default
// and run with its Deployment's arguments and ConfigMap as its
// ServiceAccount (leader election included), beside the stock
// kube-scheduler, kube-controller-manager's job, garbage-collector and
// disruption controllers, and Kueue. There pods of real Jobs, created by
// the job controller, queue behind a busy node and are bound in EDF order;
// a job class three times faster on gpu-a100 lands on the GPU nodes; and
// on twin node sets, a high-priority Job makes LeastWorkLostPreemption
// evict the pods that have run least where the stock DefaultPreemption
// evicts more run time. kwok plays the nodes and the pods' run times (a
// pod's start time is when kwok reports it running; victims are deleted as
// soon as the job controller releases them).
package kubesched
