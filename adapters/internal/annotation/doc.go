// Package annotation is the one contract between schedkit's Kubernetes
// adapters and the people who annotate their jobs: the annotation keys, the
// grammar of their values and the bounds, parsed by one function per
// concept. The Kueue AdmissionCheck controller (adapters/kueue) and the
// kube-scheduler plugins (adapters/kubesched) both call it, so one Job
// means one thing to both; the test vectors in package annotationtest
// (vectors.json) are read by every adapter's tests, through each adapter's
// own mapping from its objects.
//
// The package lives in the core module's tree under adapters/internal:
// every adapter module's import path starts with
// github.com/schedkit/schedkit/adapters/, so Go's internal rule lets them
// all import it, while it stays out of the SDK's public API and no core
// decision package depends on it. It uses the standard library only.
//
// # Keys
//
//   - schedkit.io/deadline (Deadline): an RFC 3339 time
//     ("2026-11-24T18:00:00Z", years 1–9999) or a Go duration in
//     (0, MaxDuration] ("90m", "2h30m") counted from the job's creation.
//
//   - schedkit.io/runtime (Runtime): the job's run time from start to
//     finish when it runs, a Go duration in (0, MaxDuration]. It wins over
//     the job type's model.
//
//   - schedkit.io/job-type (JobType): the job type whose run-time model (a
//     row of the adapter's table: the Kueue check's DeadlineParameters
//     jobTypes, the plugins' args jobTypes) applies: a DNS-1123 label.
//
//   - schedkit.io/rates (Rates): relative speed per node type,
//     "a100=3,t4=1.5", each in [1/MaxRate, MaxRate].
//
//   - schedkit.io/tasks (Tasks): YARN only, the app's number of map
//     tasks; a Kubernetes job's count is in its spec.
//
// Surrounding spaces are ignored in every value. A malformed value is an
// error whose text says what the grammar is; the adapters wrap it with the
// key, the value and the object that carries it.
//
// # Where a value is read
//
// A job is a pod (or a pod template) and the object that owns it (the
// batch/v1 Job; in Kueue, the Workload and its owner). A value on the pod
// wins over the same key on its owner (Lookup takes the layers innermost
// first), so a Job's pod template can carry the annotations as well as its
// own metadata. A relative deadline counts from the job's creation: the
// creationTimestamp of the outermost object the adapter knows (the owning
// Job when there is one), so every pod of a Job gets the same deadline,
// whichever object carries the annotation.
//
// # YARN application tags
//
// The YARN adapter (adapters/yarn/deadline) reads the same keys and the
// same grammar from application tags: the tag of key K and value V is
// lower(K)=lower(V), as YARN stores tags in lower case (at most 10 of 100
// ASCII characters each); schedkit.io/deadline=90m,
// schedkit.io/job-type=etl. The keys are lower case already; a deadline's
// time parses with a lower-case "t" and "z" (RFC 3339 §5.6), and a
// duration's units are lower case. An app has one layer (its tags), and a
// relative deadline counts from its startedTime, the RM's record of its
// submission. YARN reads schedkit.io/tasks and no run time: the job
// type's fitted model predicts the tasks.
//
// # The run-time estimate
//
// Every adapter takes the first of: schedkit.io/runtime; the model of
// schedkit.io/job-type in its table; its table's default. A job type the
// table does not list is an error naming the key and the value.
package annotation
