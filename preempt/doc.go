// Package preempt chooses which running tasks to kill when a MapReduce
// cluster must free slots, and measures what preemption costs.
//
// Source: GP (Cheng, Zhang, Boutaba, Global Preemption; see PAPERS.md), §IV–VI,
// Algorithm 1 and Table IV.
//
//   - Baseline is the per-job preemption of the Hadoop Fair Scheduler: only
//     overflowing tasks (a job's tasks beyond its share) are victims, the most
//     recently launched first.
//   - GP is Global Preemption (Algorithm 1): the overflowing tasks of long jobs
//     that starve others go first, then the most recently started tasks
//     cluster-wide, which kills short, young tasks instead of long ones.
//   - Starvation (§V) needs all three conditions (Starves): the long job holds
//     more than its share; the cluster is busy, kept by OccupancyWindow from
//     the caller's occupancy samples; and the slots queued by the other
//     jobs (not the long job's own) exceed n_task
//     (NTask, from Little's law, Eq. 1–2; ExpectedANP). GraduatedKill kills
//     half of the overflowing tasks until starvation has lasted T_timeout,
//     then all of them; QueueDominated is the 90%-of-queue exception of §VI.
//   - DeficiencyOrder says which job gets freed slots first (largest share −
//     running).
//   - CompareRecency compares two tasks in the order GP takes its
//     most-recent victims, for a caller that orders tasks itself (a
//     scheduler sorting one node's candidate victims) without a decision.
//   - Evaluate computes Table IV: ANP, SNP (geometric mean), slowdown norms
//     l1 and l2, unfairness (coefficient of variation) and average response
//     time.
//   - Beyond the paper: the work a victim loses, (now − start)·slots in
//     slot·seconds, reported per victim and per decision (WorkLost), and a
//     Mantri-style kill-and-restart rule (RestartSooner).
//
// # Guarantees
//
// Every function is pure: no I/O, clock, randomness or global state; equal
// inputs give equal outputs, bit for bit. Ties in recency go to the lower job
// index, then the lower task ID, then the lower position in Cluster.Tasks.
// Victims are distinct running tasks of jobs not marked NoPreempt.
//
// Exactness and tasks holding several slots: a victim frees all its slots.
// Victims are taken in priority order, skipping a task that holds more slots
// than are still needed, so the decision frees exactly k slots whenever that
// greedy pass reaches k — always when every task holds one slot (the Hadoop
// slot model), and whenever at least k one-slot tasks are eligible. When it
// cannot reach k but the eligible tasks hold at least k slots, one more task,
// the one holding the fewest slots, is added: then k < Freed < k + its slots.
// Exactness in general would be a subset-sum problem; the package does not
// trade priority order for it. When fewer than k slots are eligible, all of
// them are freed.
//
// Work lost: with one-slot tasks and no starving long job, GP never loses
// more work than Baseline freeing the same number of slots (it picks the
// newest tasks of a superset of Baseline's candidates). With multi-slot tasks
// that can fail (see TestGPMultiSlotCanLoseMore). A starving long job's
// victims are old by design, and with StarvationBeyondK they are kills the
// caller's k did not ask for: under a load where a long job often starves
// others, GP can lose more work than Baseline in all while losing less for
// k (examples/preemption reports the two apart).
//
// # Errors
//
// Bad input — NaN or infinite times and shares, times beyond ±MaxTime, a task
// starting after Cluster.Now, slots outside [1, MaxSlots], a task whose job
// index is out of range, negative k or queued demand, option fractions out of
// range, mismatched lengths — returns an error matching ErrBadInput, a
// *ValueError naming the field and its index. The value helpers ANP,
// CompareRecency, Deficiency and WorkLost check their arguments the same
// way (so no NaN or infinity comes out); Starves, a plain predicate,
// answers false when a NaN makes a comparison fail. Nothing panics on
// caller data.
//
// # Decisions where the paper is silent
//
//   - Shares are in slots and may be fractional; a job keeps ⌈Share⌉ slots
//     before any task counts as overflowing, so killing overflowing tasks
//     never takes a job below its share.
//   - The baseline takes the overflowing tasks of all jobs in one recency
//     order (newest first), as HFS's preemptTasks sorts them; within each
//     job that is "most recent first". It is per job, as GP §IV–V describes
//     HFS, which is HFS 0.21 with each job in its own pool; HFS 0.21's
//     preemptTasks works per pool (victims newest first from pools above
//     their fair share), and a caller gets that by passing pools as
//     Cluster.Jobs (examples/preemption does both, -model per-job and
//     -model two-pool). Mark the jobs or pools being preempted for
//     NoPreempt.
//   - Algorithm 1 line 5 returns every starvation victim even beyond k; GP
//     stops at k so a decision always frees k slots, unless
//     GPOptions.StarvationBeyondK asks for the line as written (victims
//     beyond k, and at a check with k = 0).
//   - Condition (3) and the 90%-of-queue exception are judged for each long
//     job over the queued demand of the other jobs: Algorithm 1 asks whether
//     long jobs "starve other jobs", and a long job's own queued tasks —
//     its starvation victims among them, queued again — are not others
//     waiting.
//   - The graduated kill rounds up (⌈50% · overflow⌉), so a starving job with
//     one overflowing task loses it.
//   - The busy test counts samples, not time: feed samples at a fixed period.
//   - Unfairness uses the population standard deviation.
//
// # Performance
//
// A GP decision over n running tasks costs O(n log k) with a bounded heap
// (never a full sort) when the newest eligible tasks fill k, which is always
// the case with one-slot tasks; otherwise the remainder is sorted. The
// overflowing tasks of a job (Baseline, starving jobs) are found with a
// bounded heap of ⌊held − ⌈Share⌉⌋ tasks. A Workspace makes repeated
// decisions allocation-free (bench_test.go holds the measured times, with
// the command).
//
// # Limits
//
// Every size a caller controls is bounded and checked before any work; one
// beyond gives a *ValueError naming the field (TestLimits, TestLimitsPerJob
// and TestLimitsWindow run each at its limit and one beyond, with the memory
// used; BenchmarkLimits times the decision at all of them at once).
//
//	MaxTasks = 2²⁰          len(Cluster.Tasks)
//	MaxJobs = 2²⁰           len(Cluster.Jobs); len(ideal) in Evaluate, len(shares)
//	                        in DeficiencyOrder, len(queued) in QueueDominated
//	MaxSlots = 2²⁰          Task.Slots, so slot sums stay below 2⁴⁰
//	MaxTime = 1e15 s        |Cluster.Now|, |Task.Start|, |t| in OccupancyWindow.Add
//	MinTime = 1e-9 s        the smallest response time Evaluate takes
//	MaxWindowSamples = 2²⁰  samples one OccupancyWindow holds
//
// k, Job.Queued and GraduatedKill's overflow may be any int ≥ 0 (work and
// memory follow the tasks, not k; queued demand is summed exactly in 128
// bits and compared in float64), and shares, StarvingFor and timeouts any
// finite float64 ≥ 0. At all the limits at once (every task a victim, k =
// MaxInt) a Workspace holds 9 bytes per task and 20 per job of scratch and
// 48 per victim, allocated once (a warmed Workspace allocates nothing).
package preempt
