// Package deadlinecheck is the schedkit.io/deadline Kueue AdmissionCheck
// controller: Kueue admits a Workload behind the check only when its
// deadline, and those of the workloads the check already let through, hold
// at the configured confidence; every pending Workload gets its predicted
// start and finish. The decisions are schedkit's admission package
// (confidence mode) on completion-time samples from schedkit's tct package;
// this package only maps Kueue's objects to their inputs and acts on the
// answers.
//
// # What a user writes
//
//   - schedkit.io/deadline, an annotation on the Workload or on the object
//     that owns it (the batch/v1 Job, JobSet, …; the Workload's own wins):
//     an RFC 3339 time ("2026-11-24T18:00:00Z") or a positive Go duration
//     ("90m") counted from that object's creation.
//   - schedkit.io/job-type, likewise: the job type whose run-time model
//     applies to the workload's pods.
//   - DeadlineParameters (schedkit.io/v1alpha1, cluster-scoped, named by
//     the AdmissionCheck's spec.parameters; CRD in config/crd): per job
//     type, the run time of one pod, lognormal by mean and standard
//     deviation (moment-matched, Lee thesis Eq. 5.1), or exp2 (MIMP Eq. 1:
//     median TCT(r) at spec.residualCapacity r, spread lognormally by
//     sigma); and a default job type. Without a model a workload's pods take
//     spec.maximumExecutionTimeSeconds each (Kueue stops it then).
//
// config/samples holds a complete example; config/rbac the permissions.
//
// # How Kueue's objects become schedkit's inputs (Map)
//
//   - Capacity: the ClusterQueue's nominal quota, summed over its flavors
//     (borrowing is not guaranteed capacity and is left out), in units of
//     the workload's mean pod: Slots = min over requested resources of
//     ⌊quota / request⌋, with the pod request taken from what Kueue recorded
//     (the admission's resource usage, else status.resourceRequests, else
//     the pod templates) divided by the pod count. A workload holding quota
//     counts at least its own pod count.
//   - Work left: the pods not yet finished (status.reclaimablePods). Each
//     takes a draw of the pod model conditioned on the time the workload has
//     executed (status.accumulatedPastExecutionTimeSeconds plus the time
//     since Admitted; tct.Lognormal.DrawRemaining). The controller does not
//     watch pods: every unfinished pod of an admitted workload is taken to
//     have run since admission.
//   - Per Monte-Carlo draw s: own[s], the longest remaining pod (all pods
//     run at once: Kueue reserves quota for all of them), and fluid[s], the
//     remaining pod-seconds over Slots (MIMP Eq. 6 on dedicated slots).
//     Draws depend on the workload's UID and the seed only.
//   - Phase: Promised (check Ready, quota held), Deciding (quota reserved,
//     check Pending, not evicted) or Waiting (anything else behind the
//     check). Finished, deactivated and Rejected workloads are left alone.
//
// # Decisions (Plan)
//
// In EDF order of the workloads awaiting a decision: malformed input, or a
// deadline without any run-time model, is Rejected naming the field and the
// value; no deadline is Ready; a workload that misses its deadline at the
// confidence even if started now alone (admission.DecideConfidence, empty
// queue, own samples) is Rejected; otherwise admission.DecideConfidence
// with the promised deadline workloads' fluid samples as the queue (the
// sequential EDF model of MIMP Eq. 7 over the quota) gives Ready, or Retry
// with requeueAfterSeconds = the median time until the first promised
// workload finishes, no later than the workload's latest start, within
// [-min-retry, -max-retry]. A Ready workload joins the queue at once, so
// two decisions of one reconcile never both count the same room. Kueue
// acts on a check only while a workload holds quota (and never reserves
// quota for one whose check is Rejected), so a workload still waiting is
// not rejected yet: its check message says it will be.
//
// What the queue test adds: Kueue has already reserved the quota, and with
// exact run times, workloads of one pod shape that fit the nominal quota
// side by side, each meeting its own deadline, keep each other's deadlines
// in the fluid EDF sums (each prefix is at most its deadline times the
// share of the quota in use). The test therefore holds a workload back when
// quota is borrowed beyond the nominal, when pod shapes differ across
// resources (or round down to fewer slots), and through the joint
// probability of several uncertain run times. Admitted workloads without a
// deadline are not counted ahead of deadline work in decisions (admission's
// model serves deadline work first); they are counted in ETAs.
//
// # Messages
//
// One line on the Workload's admission check (kubectl describe workload),
// repeated as an event (reasons DeadlineReady, DeadlineRetry,
// DeadlineRejected); times RFC 3339 UTC, probabilities two decimals:
//
//	Ready: predicted finish 2026-11-24T12:10:00Z (p50) / 2026-11-24T12:10:00Z (p90), deadline 2026-11-24T12:11:40Z; P(it and the 1 later admitted deadline in ClusterQueue cq hold) = 1.00 >= 0.90
//	Retry in 5m0s: admitting it now would push admitted ns/a past its deadline 2026-11-24T12:16:40Z: P(ns/a on time) = 0.00 < 0.90; alone it would finish 2026-11-24T12:10:00Z (p50) / 2026-11-24T12:10:00Z (p90), deadline 2026-11-24T12:15:50Z
//	Rejected: even started now with the quota to itself it would finish 2026-11-24T12:10:00Z (p50) / 2026-11-24T12:10:00Z (p90), after its deadline 2026-11-24T12:04:00Z: P(on time) = 0.00 < 0.90 (job type "fixed", 1 pod)
//	Rejected: annotation schedkit.io/deadline = "tomorrow": not an RFC 3339 time (2026-11-24T18:00:00Z) or a positive duration (90m)
//	Pending: predicted start 2026-11-24T12:06:40Z (p50) / 2026-11-24T12:06:40Z (p90), finish 2026-11-24T12:16:40Z (p50) / 2026-11-24T12:16:40Z (p90), deadline 2026-11-24T15:00:00Z
//
// # ETA
//
// Every pending workload behind the check: start = now + the fluid work of
// the promised workloads and of the pending ones before it in EDF order,
// finish = start + its own run time, per draw; the p50 and p90 (tct
// type-7 quantiles) go into the annotations schedkit.io/predicted-start-p50,
// -p90, schedkit.io/predicted-finish-p50, -p90, into the Pending check
// message, and into the metrics (see Metrics). Kueue serves a queue by
// priority and creation time, not EDF, so starts may come in another order.
// An ETA is rewritten only when it moves by -eta-tolerance or more, and
// recomputed every -eta-refresh.
//
// # Guarantees
//
// Plan is pure: the same workloads, time and configuration give the same
// outcomes, bit for bit, whatever their order (rapid-tested). The
// reconciler decides one ClusterQueue at a time (its name is the
// reconcile key), on whole seconds; its writes carry the resourceVersion
// they were computed from, so a workload that changed meanwhile is
// reconciled again rather than overwritten; it does not decide while its
// cache still shows a workload as it was before its own last write. All
// state is in the API server: a restarted controller rebuilds it and
// changes no decision (a Ready check is never revoked). A malformed object
// gets a rejection naming the field; a workload whose owner cannot be read
// (no permission on its kind) stays Pending with that reason; the
// controller keeps serving the others.
//
// # Checked against real Kueue, and not
//
// The real tier (../e2e, build tag e2e, run by adapters/test-e2e.sh) runs
// Kueue v0.19.2's core controllers (core.SetupControllers), its scheduler
// (scheduler.New with its preemption-expectations store) and its webhooks
// for the kueue.x-k8s.io group in-process, with this controller, against
// kube-apiserver v1.37.2 and etcd v3.7.0 built from source (envtest), with
// Kueue's own CRDs. It shows: a feasible workload Ready and admitted, and its
// quota released when it finishes; a hopeless one Rejected and deactivated
// by Kueue with the check's message; a workload that would push an admitted
// one past its deadline held with Retry (Kueue evicts, counts and requeues
// it after requeueAfterSeconds) and admitted once the other finishes; ETAs
// on pending workloads in annotations, message and the metrics endpoint,
// moving up as the queue drains; malformed annotations rejected naming
// field and value; a restart that loses no decision (the check comes back
// as the cmd/schedkit-deadline binary, built and run with its flags and a
// kubeconfig, serving /readyz and /metrics); the example YAML and RBAC
// accepted by the API server and Kueue's webhooks.
//
// Not checked: Kueue's job integrations. Kueue's jobframework does not
// build with k8s.io/api v0.37 (kubeflow trainer's generated OpenAPI uses
// corev1.PodStatusResult, removed in 0.37), so the tests create each
// Workload themselves, owned by a real batch/v1 Job that carries the
// annotations, as Kueue's own scheduler tests do, and do the integration's
// two steps with Kueue's functions: releasing an evicted workload's quota,
// and marking a workload Finished. No kubelet or kube-scheduler runs: no
// pod starts, and unsuspending the Job is not exercised. Not covered
// either: fair sharing, preemption, topology-aware scheduling, MultiKueue,
// two schedkit.io/deadline checks on one ClusterQueue, leader election.
//
// # On a running cluster
//
// The cluster tier (adapters/cluster/e2e, also run by adapters/test-e2e.sh)
// covers what needs a Job to run: Kueue v0.19.2's own manager binary with
// its batch/v1 Job integration and webhooks, the real job controller,
// schedkit-scheduler and kube-scheduler, with this controller installed
// from config/default and run as its ServiceAccount. There a feasible Job
// is Ready, admitted, unsuspended, its pods created, bound, run and
// completed before its deadline, and Kueue marks the Workload Finished; a
// hopeless Job is deactivated and never gets a pod; a held Job is admitted
// once the Job it protected has really completed; ETAs move up when a Job
// ends before its model said. What is simulated there is the nodes and the
// pods' run time (kwok); see the README's "Try schedkit on a simulated
// cluster".
//
// # Cost
//
// A plan draws pods × samples lognormals per workload; WorkCache keeps the
// draws between plans (a waiting workload's never change; a running one's
// at most once a second). Measured with go test -run '^$' -bench Plan
// -benchtime 20x -cpu 1 ./deadlinecheck on the 2-core machine shared with
// other builds (load average 11, so times are inflated several-fold):
//
//	Plan, 10 workloads × 4 pods, 1000 samples, cold         12–14 ms/op   204 allocs/op
//	Plan, 100 workloads × 4 pods, 1000 samples, cold        99–159 ms/op  1760 allocs/op
//	Plan, 100 workloads × 64 pods, 1000 samples, cold       1.2–1.8 s/op  2032 allocs/op
//	Plan, 100 workloads × 4 pods, 100 samples, cold         8–9 ms/op     1758 allocs/op
//	Plan, 10 workloads × 4 pods, 1000 samples, cached       1.6–2.3 ms/op 180 allocs/op
//	Plan, 100 workloads × 64 pods, 1000 samples, cached     38–39 ms/op   1743 allocs/op
//
// A cached plan's cost is the admission decisions and the sorts behind the
// quantiles.
package deadlinecheck
