// Package deadline maps a YARN cluster, as the ResourceManager's REST API
// reports it, to schedkit's inputs and plans what a deadline controller
// should change: which ACCEPTED apps to kill, which priority each deadline
// app gets, which reservations to make, which LIFETIME timeouts to set.
// Every decision is schedkit's — admission's strict check (MIMP Eq. 6–7),
// edf's MP and EDF pickers (MIMP §5.2), its at-risk test (MIMP Eq. 3) and
// minimum slots (Rao–Reddy Eq. 10), tct's workers-for-confidence and
// completion-time distribution (Lee thesis §5.2, §5.4.1) — never
// re-implemented here. Compute is pure: the same Cluster and Config give the
// same Plan, whatever the order the RM listed the apps in.
//
// # Tags
//
// The tags are the annotation contract of schedkit's Kubernetes adapters
// (adapters/internal/annotation: keys, grammar, bounds, and the test
// vectors every adapter reads), one tag lower(key)=lower(value) per key, as
// YARN stores tags in lower case, at most 10 of 100 characters. An app is a
// deadline app when it carries schedkit.io/deadline: an RFC 3339 time
// (schedkit.io/deadline=2024-06-10t12:08:20z) or a Go duration after its
// start, its startedTime (schedkit.io/deadline=45m).
// schedkit.io/job-type=<type> names its job type in the catalog (else
// Config.DefaultModel), schedkit.io/tasks=<n> its map tasks (else the
// type's median). YARN reads no schedkit.io/runtime or schedkit.io/rates:
// the job type's fitted model predicts the tasks. A misspelt or unknown
// schedkit.… key, a key given twice or a malformed value rejects the app
// with the reasons: it is left alone, never guessed at.
//
// # Mapping (decisions where the papers and YARN are silent)
//
//   - Time is seconds relative to the reading (Cluster.Now); app IDs are
//     ranked by cluster timestamp and sequence number and the rank is the
//     schedkit job ID, so tie-breaks follow submission.
//   - Slots: each RUNNING node holds ⌊min(memory/ContainerMB,
//     vcores/ContainerVCores)⌋ containers (used plus available). A
//     container is a dedicated slot, residual capacity 1: YARN isolates
//     containers, and the REST API reports no co-located load.
//   - An app's running tasks are its running containers minus the
//     ApplicationMaster's; its remaining map tasks are
//     ⌈tasks·(1 − progress/100)⌉ and never fewer than its running ones.
//     The RM's progress is the AM's estimate over map and reduce phases;
//     treating it as the map fraction is an approximation, and the papers'
//     models (MIMP §5, Rao–Reddy §2.1) are of the map phase too.
//   - Task time: the job type's exp2 model when it was fitted against
//     residual capacity, else the constant TCT = the mean of its fitted
//     lognormal (the same at r = 1, the only capacity used).
//   - Admission: RUNNING apps, and ACCEPTED apps already in their
//     reservation's queue, are admitted. Other ACCEPTED apps are decided
//     in submission order (startedTime, then ID) against those admitted
//     before them with admission.ModeStrict, named explicitly: an app
//     admitted earlier is never displaced by a later arrival. A rejected
//     app is killed with a diagnostic naming the number behind it (how
//     late it would be, or which admitted app it would make late and by
//     how much); RUNNING apps are never killed. With no slot nothing is
//     decided.
//   - Priorities: edf.Queue.MP (IO check off, MPOptions named explicitly:
//     YARN reports no data-node read rates) or edf.Queue.EDF picks the
//     app a free container should go to; that app takes the next rank and
//     leaves the queue. Rank i gets max(MaxPriority − i, MinPriority); a
//     priority is written only where it differs, and only under the
//     Capacity Scheduler, the one that honours application priorities. The
//     Capacity Scheduler caps priorities at yarn.cluster.max-application-
//     priority, which is 0 by default: raise it to at least MaxPriority.
//   - Reservations (Config.PlanQueue): for an admitted ACCEPTED app, the
//     containers are jct.WorkersFor's answer for the time left and
//     Config.Confidence (the job type's lognormal arrival, map and reduce
//     phases; at most the cluster's slots); each lasts the Confidence
//     quantile of the completion time with that many (jct.Predict); the
//     minimum concurrency is edf.MinimumSlots' map plus reduce slots
//     (Rao–Reddy Eq. 10 with the type's mean task times), capped at the
//     containers. Both are asked for with one container more, for the
//     ApplicationMaster: an app moved into a reservation's queue runs its
//     ApplicationMaster there too.
//     Arrival is now, deadline the app's, interpreter R_ALL, name
//     "schedkit/<application ID>" — how the controller finds its
//     reservations again and the only ones it deletes (once their app has
//     left ACCEPTED and RUNNING). The app is then moved into the
//     reservation's queue: the reservation ID under the Capacity
//     Scheduler, root.<plan>.<ID> under the Fair Scheduler. An existing
//     reservation of the app is reused, and updated only when it holds
//     fewer containers than now needed.
//   - Lifetimes (Config.Lifetime): LIFETIME = deadline + LifetimeGrace,
//     written when it differs from the app's, never in the past.
//
// # Performance
//
// A pass without reservations (BenchmarkCompute: a third of the apps
// ACCEPTED, nodes of 16 containers). On 2 shared AMD EPYC cores, wall time
// with the machine nearly idle (load average 0.7), and CPU time per pass
// under the load of other builds and tests (load average 12–20, which
// inflates it — at 22–24 the same binary took 116–153 ms: the difference of two runs of 10 and 40 passes, user plus
// system time from /usr/bin/time). Left of each arrow, run interleaved on
// the same machine, the same benchmark at commit 7e7529c, which inserts
// the admitted apps into admission's queue one by one, evaluates JCTOn per
// app and keeps each pass's outcomes in maps:
//
//	go test -run '^$' -bench Compute -cpu 1 -benchtime 20x ./deadline
//
//	apps=100/containers=1600      CPU 1.1 → 0.6 ms/pass
//	apps=1000/containers=1600     CPU 13.2 → 7.1 ms/pass
//	apps=10000/containers=50000   CPU 111–161 → 72–120 ms/pass under load;
//	                              wall 116 ms/pass at 7e7529c, nearly idle;
//	                              36.3 MB → 25.9 MB, 63,315 → 20,477
//	                              allocs/pass
//
// Admission costs O(apps · log apps): each app's Eq. 6 estimate is
// admission.JCTOn on the containers read once by admission.NewCapacities
// (one run of dedicated containers: O(log containers) per app instead of
// a walk over every container), evaluated once per job type and remaining
// task count; the admitted apps enter admission's search tree at once
// (admission.Queue.InsertAll: a sort and a linear build, the same tree as
// inserting them one by one), and each ACCEPTED app is decided by
// admission.Queue.Decide, O(log apps) on that tree plus the update of its
// Eq. 7 sums. Each app's state, view and outcomes live in one slab indexed
// by its schedkit ID (no map per pass beyond the app-ID one), and its tags
// are parsed from the RM's comma-separated list without splitting it into
// a slice. The plans are
// those of admission.JCT and Workspace.Decide bit for bit (admission's
// TestPropJCTOn, TestPropQueueDecideExact and TestPropInsertAll), and
// TestComputeGolden pins the SHA-256 of 430 plans (up to 10,000 apps) as
// commit 7e7529c makes them. At 10,000 apps about 45% of a pass is the
// ranking (edf.Queue's Add, Start, MP picks and Remove, one per app), 30%
// admission, 12% mapping the apps (their tags) and the rest the output.
// Each reservation adds tct's Monte-Carlo predictions: about log₂(slots) +
// 2 of Config.Runs runs each (the demo's one reservation, 192 maps on 32
// slots at 500 runs, takes about 0.1 s).
//
// # What it is checked against
//
// The package is tested on hand-worked clusters and, through package
// controller, against package rmtest and, in the real tier, Hadoop
// 3.5.0's ResourceManager (see package controller for what was shown
// there and what was not).
package deadline
