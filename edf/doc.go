// Package edf decides which job gets a free Hadoop slot: the deadline checks
// and slot pickers of MIMP (MIMP §5.1–5.2: FIFO, EDF and Maximum Progress
// with the data-node IO check) and the minimum-slot sizing and
// completion-time scheduler of Rao–Reddy (§2.1 Eq. 1–10, Algorithm 2).
//
// # What is here
//
//   - Model: the one-method interface TCT(r) for a job type's task completion
//     time model (tct.Exp2 satisfies it; edf imports no other schedkit
//     package). NormTCT is Eq. 2, IOLoad Eq. 5.
//   - CompletableTasks (Eq. 3), CompletionTime (Eq. 4, normalised like Eq. 6)
//     and CompletionTimeRate (the rate form) on an explicit resource vector R.
//   - Queue: the job queue with incremental per-job state, addressed by the
//     caller's job ID. The caller reports task starts (Start) and ends
//     (End); Queue keeps each job's pending count, Σ 1/TCT_j(R_i) over its
//     running tasks and the total data-node IO, and an index, so the
//     pickers never scan slots or jobs: FIFO and EDF are O(1), MP O(T log n)
//     for T job types, Start and End O(log n). Each picker returns a
//     Decision with the job's ID and a Reason (idle, order, at-risk,
//     best-fit, io-skip) for an adapter's log. A Task carries its predicted
//     time TCT_j(r) and its planned end under the queue's Config.Margin.
//   - CompareEDF, the EDF order of two jobs (deadline, arrival, ID).
//   - Rank, the order in which EDF or MP (IO check off) give one free slot
//     after another with no task started in between, each chosen job
//     leaving the queue: Queue's repeated picks as one sort, O(n log n)
//     and allocation-free into a reused buffer, with each job's Reason,
//     Eq. 3 count and at-risk verdict (for a scheduler that sets
//     priorities rather than filling one slot, like YARN's).
//   - TCTError, MP's option to protect deadlines against its models'
//     estimation error, and ErrorAt, which derives it from a distribution of
//     real/predicted task times (jct.Distribution, jct.Lognormal) at a
//     confidence.
//   - MinimumSlots (Rao–Reddy Eq. 10) with explicit no-estimate and
//     infeasible results, and Algorithm2, Rao–Reddy's scheduler as a slot
//     picker.
//
// # Jobs
//
// A job is one value of one type, Job, in package edf and package
// admission alike (declared once, under internal/), so a scheduler describes
// a job once, gives the same value to both queues, and both check it with
// the same function: a job one package's queue takes the other's takes
// too, in either order, and the two queues stay in step without undoing
// either. The description every package reads:
//
//   - ID (int64): the caller's identifier, unique within a queue; adding an
//     ID already queued is an error. The last EDF tie-break.
//   - Arrival (seconds): finite. The second EDF tie-break.
//   - Deadline (seconds, absolute): finite, or NoDeadline() (+Inf) for a
//     job without one; NaN and −Inf are errors. A deadline in the past is
//     allowed.
//   - Tasks: the tasks not yet started, ≥ 0.
//   - Model: TCT(r), one task's time in seconds on a slot of residual
//     capacity r (MIMP Eq. 1); not nil when Tasks > 0 (neither a nil
//     interface nor one holding a nil pointer, map, func or channel). A
//     task time is valid when it is > 0 and at most MaxDuration; the
//     model's times are checked where a decision uses them, not when the
//     job is added.
//
// A queue holds at most MaxJobs jobs. Queue.Add checks exactly these, in
// this order, then the fields one package reads (Read90 finite and ≥ 0,
// JCT in [0, MaxDuration]) and Running 0 (a job enters with nothing
// running), then the ID's uniqueness and the queue's size; each error names
// the field ("Job.Tasks") and matches ErrBadInput. package admission's
// Queue.Insert checks the same, in the same order. A job whose model gives
// no valid time on a slot is never offered that slot (nor any slot, when
// it gives none at the dedicated capacity), and Queue.Start there is an
// error.
//
// # Decisions where the papers are silent or ambiguous
//
//   - Eq. 3 sums only over slots the job holds (R_i > 0): the printed sum
//     runs over every slot, and TCT_j(0) is finite under exp2, so read
//     literally it would count tasks on slots the job does not have.
//     "Remaining tasks" in the at-risk test are the job's pending plus
//     running tasks: a running task still has to finish, and counting it
//     whole is the conservative choice. A job holding no slot is at risk (0
//     completable tasks), so a new deadline job is served EDF-first until it
//     is on track — the behaviour of MIMP Fig. 7.
//   - The at-risk test uses the allocation each task was started with: a
//     Task records its r and the Queue never re-reads slot capacities. A
//     caller that wants a changed residual capacity reflected releases and
//     re-assigns.
//   - MP's at-risk test keeps the margin the scheduler plans with
//     (Config.Margin m, beyond MIMP): a job is at risk while
//     CompletableTasks < m · remaining. MIMP's test (m = 1) plans every job
//     to finish exactly at its deadline, so task noise and whole waves push
//     jobs over; m > 1 buys that margin with efficiency (fewer best-fit
//     placements, more total task time; large m approaches EDF). The same
//     m sets each Task's planned end (start + TCT × m), so admission's plan
//     and MP's test use one number. Config.Margin's comment has the
//     details.
//   - MP can protect deadlines against the estimation error of its models
//     (MPOptions.TCTError, beyond MIMP), derived from a distribution of
//     ν = real/predicted task time at a confidence p by ErrorAt: Mean = E[ν],
//     Spread = Q_p(ν) − Mean. It enters MP twice. Eq. 3 takes each TCT at
//     face value; with the error, a job's n remaining tasks are covered by
//     n·Mean + √n·Spread predicted task times (one task at its p-quantile,
//     the sum of n independent errors with a spread growing as √n). And
//     Eq. 3 counts a slot's rate toward a job even when the one task the
//     slot would run ends after the job's deadline: the late-task rule
//     gives no job a slot where its task, at (Mean + Spread) times its
//     predicted time, would end after the deadline while on a dedicated
//     slot it would end in time (TCTError's doc has the derivation). In the
//     MIMP case study (examples/mimp) MP with TCTError misses about as few
//     deadlines as EDF while saving as much task time as MIMP's MP
//     (bench_test.go has the figures).
//   - MP's IO check applies in both steps by default (MPOptions switch it off
//     in step 1 or entirely). If no at-risk job passes the IO check, MP falls
//     through to the best-fit step (a lighter job may still use the slot) and
//     reports io-skip; if nothing fits, the slot stays idle. FIFO and EDF are
//     MIMP's baselines and do no IO check.
//   - Tie-breaks, all ending on the unique job ID: FIFO (arrival, ID); EDF and
//     MP step 1 (deadline, arrival, ID), jobs without deadline last; MP step 2
//     (NormTCT, deadline, arrival, ID). Decisions never depend on insertion
//     order. A job the late-task rule refuses is not a candidate for the
//     slot: it is not the "first choice" an io-skip reason refers to.
//   - DataNodes{Count: 0} means no data-node model (the IO check passes).
//   - The index (see "Decisions at scale") never changes an answer: the
//     pickers decide bit for bit as one pass over the jobs does.
//   - MinimumSlots rounds Eq. 10 up and then lowers each count to the least
//     integer that still meets the deadline given the other, so one slot
//     fewer on either side misses it; counts are capped at MaxPhaseSlots,
//     and a job is infeasible only if MaxPhaseSlots of each miss its
//     deadline.
//     Algorithm2 caps a job without estimate at one running task per phase
//     and does not cap an infeasible job.
//
// # Guarantees and errors
//
// Everything is deterministic and allocation-free on the decision path
// (pinned by TestHotPathsAllocateNothing). No function panics on caller
// data: NaN, ±Inf, negative counts, capacities outside [0, 1], nil models,
// duplicate or unknown job IDs, stale tasks and nil or failing error
// distributions give an error matching ErrBadInput (a *ValueError naming
// the field at fault; an unknown ID also matches ErrUnknownJob, a job
// without pending task ErrNoPendingTask, a nil model ErrNilModel, a failing
// distribution its own error, through errors.Unwrap).
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
// A model that predicts no valid task time (> 0 and at most MaxDuration)
// on a slot is refused there by Start and never offered that slot by MP;
// one that predicts none at the dedicated capacity (NormTCT's denominator)
// is offered no slot. Neither is a task whose rate
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
//     MP's test (D_j − now)·ρ_j < (1 + s)·cover(n_j) holds (n_j its pending
//     plus running tasks, ρ_j its rate sum, cover(n) = n without TCTError).
//     The test is monotone in now, so θ_j is found exactly by a search over
//     float64 values starting at D_j − (1 + s)·cover(n_j)/ρ_j, and "θ_j ≤
//     now" is the test itself, bit for bit. θ_j changes only when the job's
//     tasks start or end (Start, End: O(log n)). The queue keeps
//     thresholds for its margin and the TCTError of the last MP call; a
//     call with another TCTError recomputes them all, O(n).
//   - The late-task rule refuses, per type, the jobs due in [lo, hi) with
//     lo = now + TCT(Dedicated)·c and hi = now + TCT(r)·c: a band of
//     deadlines, so of EDF order. The first candidate outside it is the
//     first one due before lo, else the first one due at hi or later: two
//     searches of the type's tree, each O(log n), so the rule adds O(T log n)
//     whatever the number of jobs it refuses.
//   - A queue with more than one type per two jobs (every job its own model)
//     gains nothing from types: MP then makes one pass over the jobs (the
//     oracle the index is checked against), which gives the same answers.
//
// TestPropIndexMatchesOracle checks, over random queues and random
// sequences of adds, removals, task starts and ends and MP calls (random
// slots, times — including each job's exact threshold, the times that put
// its deadline at an edge of the late-task band, and their float
// neighbours —, margins, TCTErrors and IO options; data nodes tight enough
// that the IO check falls through to step 2), that FIFO, EDF and MP decide
// exactly as the one-pass pickers do, every Decision field bit for bit; it
// passes at -rapid.checks=10000.
//
// Models must be pure (equal models give equal times), as the one-pass
// pickers assume of one model across calls. A model that cannot be
// compared with == without risking a panic (a func, map or slice, or an
// interface inside its type) or that differs from itself (NaN inside) makes
// its job a type of its own.
//
// # Performance
//
// FIFO and EDF are O(1), MP O(T log n) for T job types and n jobs (one
// pass over the jobs when there are more than half as many types as
// jobs), Start and End O(log n); MPOptions.TCTError adds one search per
// type. Every picker and Start and End allocate nothing
// (TestHotPathsAllocateNothing). bench_test.go holds the measured times,
// with the command that reproduces them.
//
// # Limits
//
// Every size a caller controls is bounded and checked before any work; one
// beyond gives a *ValueError naming the field (TestLimits runs each at its
// limit and one beyond):
//
//	MaxJobs = 2¹⁸       jobs a Queue holds (Queue.Add: "Queue.Len") and
//	                    len(jobs) of Algorithm2
//	MaxDuration = 10¹⁵  seconds, a queued job's task time (package
//	                    admission's bound)
//	MaxMargin = 1000    Config.Margin (admission's bound)
//	MaxPhaseSlots = 2³⁰ the slot counts MinimumSlots returns (a job needing
//	                    more is infeasible)
//
// Task counts (Job.Tasks, SlotEstimate's counts, nTasks) may be any int ≥ 0:
// they are only counted, never allocated for. The slices a function reads
// without keeping (CompletableTasks's and CompletionTime's R) cost time
// linear in their length and no memory. A Queue keeps of each job only the
// fields it reads, and FIFO, EDF and MP on a full Queue allocate nothing;
// Algorithm2 over MaxJobs jobs allocates nothing (TestLimits, which also
// bounds the bytes a full Queue holds).
package edf
