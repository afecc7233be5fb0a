// Package edf decides which job gets a free Hadoop slot: the deadline checks
// and slot pickers of MIMP (paper 000 §5.1–5.2: FIFO, EDF and Maximum
// Progress with the data-node IO check) and the minimum-slot sizing and
// completion-time scheduler of paper 002 (§2.1 Eq. 1–10, Algorithm 2).
//
// # What is here
//
//   - Model: the one-method interface TCT(r) for a job type's task completion
//     time model (tct.Exp2 satisfies it; edf imports no other schedkit
//     package). NormTCT is Eq. 2, IOLoad Eq. 5.
//   - CompletableTasks (Eq. 3), CompletionTime (Eq. 4, normalised like Eq. 6)
//     and CompletionTimeRate (the rate form) on an explicit resource vector R.
//   - Queue: the job queue with incremental per-job state. The caller reports
//     task starts (Assign) and ends (Release); Queue keeps each job's
//     Σ 1/TCT_j(R_i) over its running tasks and the total data-node IO, and
//     an index, so the pickers never scan slots or jobs: FIFO and EDF are
//     O(1), MP O(T log n) for T job types, Assign and Release O(log n).
//     Each returns a Decision with the job and a Reason (idle, order,
//     at-risk, best-fit, io-skip) for an adapter's log.
//   - MinimumSlots (002 Eq. 10) with explicit no-estimate and infeasible
//     results, and Algorithm2, 002's scheduler as a slot picker.
//
// # Decisions where the papers and SPEC are silent
//
//   - Eq. 3 sums only over slots the job holds (R_i > 0). "Remaining tasks"
//     in the at-risk test are the job's pending plus running tasks: a running
//     task still has to finish, and counting it whole is the conservative
//     choice. A job holding no slot is at risk (0 completable tasks), so a new
//     deadline job is served EDF-first until it is on track — the behaviour
//     of 000 Fig. 7.
//   - The at-risk test uses the allocation each task was started with: a
//     Task records its r and the Queue never re-reads slot capacities. A
//     caller that wants a changed residual capacity reflected releases and
//     re-assigns.
//   - MP's at-risk test can keep slack (MPOptions.Slack, beyond the paper):
//     a job is at risk while CompletableTasks < (1 + s) · remaining. The
//     paper's test (s = 0) plans every job to finish exactly at its
//     deadline, so task noise and whole waves push jobs over; s > 0 buys
//     that margin with efficiency (fewer best-fit placements, more total
//     task time; large s approaches EDF). MPOptions.Slack's comment has the
//     details.
//   - MP's IO check applies in both steps by default (MPOptions switch it off
//     in step 1 or entirely). If no at-risk job passes the IO check, MP falls
//     through to the best-fit step (a lighter job may still use the slot) and
//     reports io-skip; if nothing fits, the slot stays idle. FIFO and EDF are
//     the paper's baselines and do no IO check.
//   - Tie-breaks, all ending on the unique job ID: FIFO (arrival, ID); EDF and
//     MP step 1 (deadline, arrival, ID), jobs without deadline last; MP step 2
//     (NormTCT, deadline, arrival, ID). Decisions never depend on insertion
//     order.
//   - DataNodes{Count: 0} means no data-node model (the IO check passes).
//   - The index (see "Decisions at scale") never changes an answer: the
//     pickers decide bit for bit as one pass over the jobs does.
//   - MinimumSlots rounds Eq. 10 up and then lowers each count to the least
//     integer that still meets the deadline given the other, so one slot fewer
//     on either side misses it; counts are capped at MaxSlots, and a job is
//     infeasible only if MaxSlots of each miss its deadline. Algorithm2 caps a job without estimate at one
//     running task per phase and does not cap an infeasible job.
//
// # Guarantees and errors
//
// Everything is deterministic and allocation-free on the decision path
// (pinned by TestHotPathsAllocateNothing). No function panics on caller
// data: NaN, ±Inf, negative counts, capacities outside [0, 1], nil models,
// unknown handles and stale tasks give an error matching ErrBadInput (a
// *ValueError naming the field at fault; unknown handles also match
// ErrUnknownJob, a job without pending task ErrNoPendingTask, a nil model
// ErrNilModel).
//
// A nil model is detected, not recovered from: a nil interface, or a nil
// pointer, map, func or channel inside one (a typed nil, whose TCT
// would dereference its receiver), is rejected before any call, by Add and
// by every free function. Detection costs one reflect kind test per model,
// outside MP's hot path (Add validates once), leaves no half-updated queue
// behind, and does not disguise a genuine bug inside a non-nil model as a
// bad-input error, as recovering every panic would. A nil pointer whose
// method would not touch its receiver is rejected too.
//
// A model that predicts a non-finite or non-positive time is rejected at
// Add (at the dedicated capacity) and Assign, and never offered a slot by
// MP. Neither is a task whose rate
// 1/TCT or Eq. 5 IO load would overflow the job's rate sum or the data
// nodes' IO sum (a subnormal task time, a read rate near MaxFloat64), so
// Status, IO and Decision never carry NaN or ±Inf. The free functions
// CompletableTasks, CompletionTime and CompletionTimeRate return +Inf when
// the exact result overflows float64 (and CompletionTime/-Rate for work on
// no slot); they never return NaN.
//
// # Decisions at scale
//
// The Queue keeps an index so that no picker scans the queue:
//
//   - FIFO and EDF read the top of a binary heap of the jobs with a pending
//     task, kept in FIFO (arrival, ID) and EDF (deadline, arrival, ID)
//     order: O(1). A job enters or leaves the heaps when its pending count
//     leaves or reaches 0, O(log n).
//   - MP groups the jobs by type: equal Model values (==) with equal
//     TCT at the dedicated capacity. Jobs of one type get the same TCT(r),
//     NormTCT and task rate on a slot, so MP evaluates each type's model
//     once per call. Per type, a treap (a balanced search tree with
//     deterministic priorities) keeps the jobs in EDF order, each subtree
//     carrying the least at-risk threshold and the least Read90 of its jobs
//     with a pending task. Step 1 takes, per type, the first job in EDF
//     order whose threshold is ≤ now; step 2 the type's first job in EDF
//     order; with the IO check, the first one whose Read90 the check allows
//     (the check only gets harder as Read90 grows, so a subtree whose least
//     Read90 fails is skipped). The best over the types is MP's answer:
//     O(T log n) for T types, however many tasks run. Each job that the IO
//     check or an overflow guard passes over adds O(log n).
//   - A job's at-risk threshold θ_j is the earliest float64 time from which
//     MP's test (D_j − now)·ρ_j < (1 + s)·n_j holds (n_j its pending plus
//     running tasks, ρ_j its rate sum). The test is monotone in now, so θ_j
//     is found exactly by a search over float64 values starting at
//     D_j − (1 + s)·n_j/ρ_j, and "θ_j ≤ now" is the test itself, bit for
//     bit. θ_j changes only when the job's tasks start or end (Assign,
//     Release: O(log n)). The queue keeps thresholds for the Slack of the
//     last MP call; a call with another Slack recomputes them all, O(n).
//   - A queue with more than one type per two jobs (every job its own model)
//     gains nothing from types: MP then makes the one pass over the jobs it
//     made before the index, which gives the same answers.
//
// TestIndexedPickersMatchOracle checks, over random queues and random
// sequences of adds, removals, task starts and ends and MP calls (random
// slots, times — including each job's exact threshold and its float
// neighbours —, slacks and IO options; data nodes tight enough that the IO
// check falls through to step 2), that FIFO, EDF and MP decide exactly as
// the one-pass pickers do, every Decision field bit for bit; it passes at
// -rapid.checks=10000.
//
// Models must be pure (equal models give equal times), as the one-pass
// pickers also assumed of one model across calls. A model that cannot be
// compared with == without risking a panic (a func, map or slice, or an
// interface inside its type) or that differs from itself (NaN inside) makes
// its job a type of its own.
//
// # Performance
//
// Measured with go test -run '^$' -bench . -benchtime 0.5s -count 3 -cpu 1
// ./edf on 2 AMD EPYC cores shared with other engineers' builds (load
// average 8.3–8.4; timings are inflated about threefold — MinimumSlots took
// 163–184 ns against 47–52 ns on a quieter machine — and vary run to run;
// allocation counts are exact and pinned by TestHotPathsAllocateNothing).
// All figures from one run, so the ratios hold:
//
//	                                      jobs=10      jobs=1,000   jobs=100,000
//	                                      tasks=100    tasks=10,000 tasks=1,000,000
//	MP, best fit (now 0)                  0.80–1.1 µs  0.83–1.0 µs  1.0–1.1 µs
//	MP, Slack 1                           0.80–1.4 µs  0.86–1.0 µs  1.1–1.3 µs
//	MP, 1 job in 50 at risk (now 9,900)   0.76–0.87 µs 0.60–0.83 µs 1.6–1.7 µs
//	MP one pass (before the index), now 0 0.77–0.94 µs 70–254 µs    6.8–8.3 ms
//	MP one pass, now 9,900                0.76–1.1 µs  4.8–6.0 µs   0.52–0.56 ms
//	EDF                                   12–16 ns     15–18 ns     20–31 ns
//	FIFO                                  17–21 ns     14–19 ns     15–16 ns
//	Assign + Release                      0.19–0.20 µs 0.22–0.27 µs 0.22–0.27 µs
//
// Six job types throughout; every figure allocates nothing. At 10 jobs of
// six types MP makes the one pass (more than one type per two jobs), so the
// two rows agree. With 1,000 jobs of 1,000 types MP also makes the one
// pass: 64–79 µs (4.3–12 µs at now 9,900).
package edf
