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
//     Σ 1/TCT_j(R_i) over its running tasks and the total data-node IO, so
//     the pickers FIFO, EDF and MP decide in one pass over the jobs and never
//     scan slots. Each returns a Decision with the job and a Reason (idle,
//     order, at-risk, best-fit, io-skip) for an adapter's log.
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
// # Performance
//
// Measured with go test -run '^$' -bench . -benchtime 200x -cpu 1 ./edf on
// 2 AMD EPYC cores shared with other builds (load average 8–10; timings
// are inflated and vary run to run, allocation counts are exact):
//
//	MP, 10 jobs, 100 running tasks                0.34–0.57 µs/op  0 allocs/op
//	MP, 1,000 jobs, 10,000 running tasks          32–54 µs/op      0 allocs/op
//	MP, 1,000 jobs, 10,000 tasks, Slack 1         32–39 µs/op      0 allocs/op
//	EDF, 1,000 jobs                               2.7–3.0 µs/op    0 allocs/op
//	Assign + Release                              71 ns/op         0 allocs/op
//	MinimumSlots                                  47–52 ns/op      0 allocs/op
//
// MP's cost is one or two model evaluations per queued job (two exponentials
// for exp2); it does not grow with the number of slots.
package edf
