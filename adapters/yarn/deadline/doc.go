// Package deadline maps a YARN cluster, as the ResourceManager's REST API
// reports it, to schedkit's inputs and plans what a deadline controller
// should change: which ACCEPTED apps to kill, which priority each deadline
// app gets, which reservations to make, which LIFETIME timeouts to set.
// Every decision is schedkit's — admission's strict check (MIMP Eq. 6–7),
// edf's MP and EDF pickers (MIMP §5.2; their pick order, a sort on
// dedicated containers, is checked against them), its at-risk test (MIMP
// Eq. 3) and minimum slots (Rao–Reddy Eq. 10), tct's workers-for-confidence
// and completion-time distribution (Lee thesis §5.2, §5.4.1). Compute is
// pure: the same Cluster and Config give the same Plan, whatever the order
// the RM listed the apps in; a Planner gives the same plans pass after
// pass in storage it keeps.
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
//   - An ACCEPTED or RUNNING deadline app listed with startedTime 0 is left
//     alone, with a reason naming VIEW_APP: with ACLs on, the RM lists an
//     app its caller may not view with its state and tags but zeros for
//     its start time and usage.
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
//   - Priorities: the order comes from edf.Rank, the sequence in which
//     edf's MP picker (IO check off: YARN reports no data-node read rates)
//     or its EDF picker gives one free dedicated container after another,
//     each chosen app leaving the queue, then the apps it never chooses in
//     EDF order (edf's TestPropRankPicks checks it against edf.Queue's
//     picks). Each app is an edf.Job with its pending map tasks and a
//     running task at capacity 1 per container it holds; edf.Rank also
//     gives its at-risk verdict and Eq. 3 count, which the plan reports.
//     Rank i gets max(MaxPriority − i, MinPriority); a priority is
//     written only where it differs, and only under the
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
// One pass without reservations (a third of the apps ACCEPTED, nodes of 16
// containers): BenchmarkCompute with a new Planner each pass (a cold
// pass, the controller's first), BenchmarkPlanner with one Planner pass
// after pass (as the controller runs). On 2 shared AMD EPYC cores, -cpu
// 1, the old figure the same benchmark at commit 777340f (which ranks with
// an edf.Queue built per pass), the binaries run in turn, three rounds, at
// load average 19–21 from other helpers' builds and clusters (which
// inflates every wall time; compare within a row):
//
//	go test -run '^$' -bench '(Compute|Planner)/apps=10000' -benchtime 20x -cpu 1 -count 3 -benchmem ./deadline
//
//	                              777340f      Compute       Planner
//	apps=100/containers=1600      4.4–5.2 ms   2.8–3.5 ms    1.1–1.6 ms
//	apps=1000/containers=1600     34–44 ms     27–32 ms      12–16 ms
//	apps=10000/containers=50000   505–722 ms   335–496 ms    226–289 ms
//	  per pass at 10,000 apps     30.9 MB,     24.4 MB,      3.1 MB,
//	                              100,476      20,394        1,100 allocs
//
// The same command on an idle machine (2 Intel Xeon cores, 24 GiB, load
// average 0.1–0.2, 2026-11-29), five rounds:
//
//	                              Compute       Planner
//	apps=100/containers=1600      0.33–0.45 ms  0.12–0.13 ms
//	apps=1000/containers=1600     3.0–4.2 ms    1.6–2.0 ms
//	apps=10000/containers=50000   43–45 ms      22–25 ms
//	  per pass at 10,000 apps     30.6 MB,      2.0 MB (3.4 MB the first),
//	                              20,431        84 (997) allocs
//
// So a full plan of 10,000 apps on 50,000 containers takes a quarter of
// the 100 ms a controller's pass may spend on it, a cold one under half;
// the figures above were inflated by the load. A plan with reservations
// (Config.PlanQueue) adds their Monte-Carlo predictions, below.
//
// CPU time per pass at 10,000 apps (user plus system of the whole
// process, 40 passes minus 10, /usr/bin/time), at load average 13–17:
// 133–136 ms at 777340f, 68–75 ms Compute, 50 ms Planner; 20 passes of
// the Planner against 20 of 777340f's Compute in turn, five pairs of
// whole processes at load average 19–23: CPU 0.33–0.49 of the old, median
// 0.35. At 777340f the same pass took 87–102 ms of wall time on the nearly
// idle machine (load average 1.5).
//
// Admission costs O(apps · log apps) plus the Eq. 7 sums: each app's
// Eq. 6 estimate is admission.JCTOn on the containers read once by
// admission.NewCapacities (one run of dedicated containers), evaluated
// once per job type and remaining task count; the admitted apps enter
// admission's search tree at once (admission.Queue.InsertAll), and each
// ACCEPTED app is decided by admission.Queue.Decide, O(log apps) on that
// tree plus the extension of its Eq. 7 prefix sums, formed one addition
// after another in EDF order as admission.Workspace.Decide forms them
// (bit for bit), from the place of the last admitted app. The ranking is
// edf.Rank, one sort of the apps. A Planner keeps its slab, indexes,
// admission queue, the capacities, the ranking's storage and each app's
// parsed tags between passes, so a pass allocates little beyond its Plan.
// The plans are those of admission.JCT, Workspace.Decide and edf.Queue's
// picks (through edf.Rank) bit for bit (admission's TestPropJCTOn,
// TestPropQueueDecideExact and
// TestPropInsertAll, edf's TestPropRankPicks), and
// TestComputeGolden pins the SHA-256 of 430 plans (up to 10,000 apps),
// made by Compute and by one Planner in turn. At 10,000 apps about 55% of
// a Planner's pass is admission (a fifth of it the Eq. 7 sums), 10% the
// ranking (edf.Rank's checks, Eq. 3 counts and sort), 10% mapping the
// apps, and the rest the output and the indexes. Each reservation adds tct's Monte-Carlo
// predictions: about log₂(slots) + 2 of Config.Runs runs each (the demo's
// one reservation, 192 maps on 32 slots at 500 runs, takes about 0.1 s).
//
// # What it is checked against
//
// The package is tested on hand-worked clusters and, through package
// controller, against package rmtest and, in the real tier, Hadoop
// 3.5.0's ResourceManager (see package controller for what was shown
// there and what was not).
package deadline
