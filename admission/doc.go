// Package admission accepts or rejects an arriving job with a deadline so
// that admitted jobs keep meeting theirs. By default it plans the work (wave
// mode, beyond MIMP); it also provides MIMP's admission controller as
// printed (MIMP §5.3, Eq. 6 and 7, evaluated under overload in §6.5,
// Fig. 11), a strict variant that also protects queued jobs, and a
// confidence mode driven by completion-time samples.
//
// # Modes
//
//   - ModeWave, the default (zero Options): on each arrival, list-schedule
//     the pending tasks of the queued deadline jobs plus the new job's, in
//     EDF order, onto the cluster's slots (Options.Cluster): each slot
//     becomes free when its running task is planned to end (Slot.FreeAt,
//     or the planned end a Queue recorded with Start),
//     each task takes TCT_j(r) × Options.Margin on the slot it lands on, no
//     running task is pre-empted. Admit iff the new job completes by its
//     deadline in that plan and every queued job that completes by its
//     deadline in the plan without the new job still does. Each task goes
//     to the slot that frees first; a queued job is also protected when it
//     is on time only if its tasks wait for the slots where they end first
//     (a second, end-first plan), so a fast slot freeing soon is not taken
//     for no slot at all. The evidence names the job that would become late
//     and by how much (its negative Slack).
//   - ModeStrict: Eq. 7's sequential sum, checked for the new job and for
//     every queued job that meets its deadline without it.
//   - ModePaper: Eq. 7 as printed: Σ JCT over the queued jobs before the new
//     one in EDF order plus the new job ≤ deadline_new − now.
//   - ModeConfidence: admit iff P(every protected deadline met) ≥ p, from
//     per-job completion-time samples with a common index (independent
//     jobs), in Eq. 7's sequential EDF model.
//
// # Jobs
//
// A job is one value of one type, Job, in package admission and package
// edf alike (declared once, under internal/), so a scheduler describes
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
// A queue holds at most MaxJobs jobs. Queue.Insert checks exactly these, in
// this order, then the fields one package reads (Read90 finite and ≥ 0,
// JCT in [0, MaxDuration]) and Running 0 (a job enters with nothing
// running), then the ID's uniqueness and the queue's size; each error names
// the field ("Job.Tasks") and matches ErrBadInput. package edf's Queue.Add
// checks the same, in the same order. A decision checks its new job the
// same way ("NewJob.Tasks"), in every mode, so a job a decision admits
// Insert takes, unless its ID is queued or the queue is full, which both
// queues refuse alike. A wave decision refuses a model that gives no valid
// time on a slot its plan uses.
//
// # Deciding and recording progress
//
// A scheduler that keeps its admitted jobs in a Queue decides with
// Queue.Decide and records what happens with Queue.Start (a task starts on
// a slot, planned to end at a time it knows: edf.Task.PlannedEnd), End (it
// ends, completed or not), SetJCT (paper and strict mode's Eq. 6 estimate
// changes) and Remove (the job is done); the Queue keeps each job's
// pending count, running tasks and their latest planned end, and each
// slot's planned free time, so the caller scans no slots and copies no
// counts. A caller that holds its jobs elsewhere (an adapter rebuilding its
// view from the cluster's objects on each pass) decides with
// Workspace.Decide over a []Job in EDF order: the same decision, bit for
// bit (Queue.Decide on q is Workspace.Decide on q.Jobs() and the cluster
// with q's recorded tasks), at the cost of one pass over the jobs.
//
// Eq. 6 (JCT) estimates a job's completion time as if it ran alone on the
// whole cluster: nRemaining · Σ_i TCT_j(R_i) / n² over every slot's residual
// capacity R_i. The caller computes it per job (JCT takes any Model, such as
// tct.Exp2, without importing tct) and passes it in Job.JCT for paper and
// strict mode. For many jobs on one cluster, NewCapacities reads the
// cluster once and JCTOn gives JCT's value, bit for bit, without a walk
// over every slot per job (see Performance). Eq. 7 then treats the
// deadline jobs as running one after another in EDF order: job k completes
// Σ_{i≤k} JCT_i after now.
//
// # Why wave mode is the default
//
// The paper calls Eq. 6 an over-estimate; for real jobs it is an
// under-estimate. It treats work as divisible (26 tasks on 40 slots take
// one full task time, not 26/40 of one), averages TCT over all slots
// instead of placing tasks on the slow ones they get, and ignores that
// running tasks hold their slots until they end. In the MIMP case-study
// simulation (examples/mimp -sweep, whose doc gives the figures) nearly
// every job the paper rule admits takes longer than its Eq. 7 sum, and
// under overload most jobs it admits miss, while wave mode with the margin
// read from the models' errors lets few miss. A job's exact plan on an idle
// cluster is longer than its Eq. 6 JCT whenever its tasks come in waves,
// and longer still when free slots are offered in random heartbeat order
// rather than fastest first, which the margin must then absorb. Strict mode
// fixes the paper rule's other flaw (a new job with an earlier deadline may
// push a queued job late) but keeps Eq. 6, so it keeps the first.
//
// How the modes relate (TestPropWaveVersusEq7, TestDecideWaveHandWorked): when
// every task of a job takes the same time on every slot, the margin is ≥ 1
// and JCT is Eq. 6 of the pending tasks, a job that meets its deadline in
// the plan together with every job before it meets it under Eq. 7 too (the
// first k jobs' work needs at least W_k/n of the n slots' time, and Eq. 7
// charges exactly W_k/n). So on a queue that is feasible in the plan,
// wave admits ⇒ strict admits ⇒ paper admits: wave mode is the most
// conservative, paper the least. Wave mode admits more only when the queue
// already holds a job its plan finds late (that job is not protected, while
// Eq. 7 charges its whole JCT to every later job), or on heterogeneous
// slots, where Eq. 6's average hides a fast free slot. (On identical slots
// the first-free and end-first plans coincide.)
//
// With margin 1 and exact task times the first-free plan is what an EDF
// scheduler that gives each free slot to the earliest-deadline job will do:
// replaying it, every job admitted with a deadline meets it, arrival after
// arrival (TestPropWaveReplay, which also checks every decision's
// evidence against independent replays of both plans, in that world and in
// one where tasks land on random slots). Real task times differ from the models;
// Options.Margin, chosen by hand or by MarginAt from the spread of the
// models' errors at a confidence level, absorbs that.
//
// # Decisions where MIMP is silent
//
//   - EDF order and ties: deadline, then arrival, then ID (CompareEDF). A new
//     job therefore comes after queued jobs with an equal deadline that arrived
//     earlier; the paper's set ("earlier deadline") becomes "before the new job
//     in EDF order", which is what an EDF scheduler runs first.
//   - Wave mode's plan, exactly: usable slots (R > 0) start free at
//     max(0, FreeAt − now) (at 0 if not Busy); jobs are taken in EDF order, each job's pending
//     tasks one at a time. Two placements are planned: first free, each task
//     onto the slot that becomes free first, ties to the lowest index in
//     Options.Cluster; and end first, each task onto the slot where it ends
//     first (least free time + TCT_j(R) × margin), ties to the lowest index.
//     A job completes at the end of its last planned task or, while tasks
//     of it run, at RunningUntil if later. The new job is judged first free. A queued job
//     after it is protected iff it is on time without the new job in either
//     placement, and then must stay on time with it in each placement in
//     which it was; its evidence comes from the later of those. Why both:
//     first free alone takes a job for already late (and leaves it
//     unprotected) when one of its tasks lands on a slow slot that frees
//     early although a fast one frees soon enough (TestDecideWaveHandWorked,
//     "a job on time in the end-first plan is protected": the job the plan
//     gave up then ran 1.8 s late); end first alone assumes a task waits for
//     a fast slot, which MP does not do for an at-risk job, and in
//     examples/mimp -sweep it let more admitted jobs miss than both plans
//     together, nearly all Pi jobs with one task MP had started on a heavy
//     slot (r ≈ 0.2, about as long as the deadline). Jobs without a deadline are not planned (EDF serves them
//     last; their running tasks count through FreeAt). FreeAt and
//     RunningUntil are planned ends (start + TCT × margin, computed once,
//     when the task started) and are not multiplied by the margin again. A slot's residual capacity is taken as constant over the
//     plan. The model must give a valid time at every usable R (every slot
//     is a candidate for every task).
//   - Wave mode does not pre-empt, does not model data-node IO, and plans
//     EDF, not MP: MP may give a slot to a better-fitting later job first,
//     which the plan does not foresee (edf's Config.Margin, the same
//     margin, keeps MP's deadline jobs ahead of their plan).
//   - No deadline is Deadline = NoDeadline() (+Inf): always admitted,
//     sorted last, never summed, so it never delays a deadline job's
//     admission.
//   - A queued job that is already late without the new job is reported but
//     not protected in wave and strict mode (likewise a job already below p
//     in confidence mode): otherwise one doomed job would block every admission
//     until it finished. When the queue is feasible, strict mode is exactly
//     "every job k in EDF order has Σ_{i≤k} JCT_i ≤ deadline_k − now".
//   - Eq. 6 counts only slots with R_i > 0 (a slot with no capacity cannot
//     run a task, and read literally Eq. 6 would count TCT_j(0), which exp2
//     makes finite; edf reads Eq. 3 and 4 the same way); no such slot is
//     ErrNoCapacity.
//   - The comparison is ≤: a job finishing exactly at its deadline meets it.
//   - The queue is passed pre-sorted (Queue maintains it incrementally) and
//     validated in the decision's single pass rather than sorted, and the
//     evidence and the plans live in a reusable Workspace, so a decision
//     allocates nothing in steady state.
//
// # Guarantees and errors
//
// Every function is pure apart from the Workspace's and Queue's own buffers:
// equal inputs give equal outputs, bit for bit; nothing panics on caller
// data; every number in a Decision is finite. Bad input returns a
// *ValueError naming the field and value, which matches ErrBadInput: NaN or
// infinite times, NaN or -Inf deadlines, a JCT or sample outside [0,
// MaxDuration], a queue out of EDF order, a duplicate new-job ID, a new
// job failing the "Jobs" contract, a confidence outside [0, 1], sample
// slices of unequal length; in wave mode a margin outside (0, MaxMargin],
// a slot's R outside [0, 1] or a busy slot's FreeAt NaN or beyond now +
// MaxDuration, a cluster with no usable slot (for a new job with a
// deadline), negative Tasks or Running, RunningUntil NaN, +Inf or beyond
// now + MaxDuration while tasks run, a nil model (a nil interface, or a
// typed nil: detected, never called) for a job with pending tasks, a model
// time outside (0, MaxDuration] on a slot the plan uses; a model (JCT)
// that is nil or gives NaN, non-positive or too large times. A Queue's
// Start and End refuse an unknown ID (also ErrUnknownJob), a job without
// a pending task (also ErrNoPendingTask), a bad or busy slot and a
// non-finite planned end. A distribution's own error (MarginAt) is wrapped:
// errors.Is reaches it. A rejection is a Decision, not an error.
//
// # Limits
//
// Every size and duration a caller controls is bounded and checked up
// front (limits.go): MaxDuration = 1e15 s for every duration, so no sum
// overflows and no evidence is ±Inf; MaxMargin = 1000; MaxSlots = 2^20
// slots; MaxPlannedTasks = 2^22 pending tasks planned per wave decision;
// MaxJobs = 2^18 jobs in a decision's queue and in a Queue; MaxSamples =
// 2^20 samples per job in confidence mode. One beyond gives a *ValueError
// naming the field ("len(queue)", "Queue.Len", "len(NewJob.Samples)",
// "Options.Cluster", "NewJob.Tasks" or the queued job where the planned
// tasks pass the bound). TestLimits runs each at its limit and one beyond:
// at MaxJobs paper, strict and confidence mode keep one Check per job and,
// with a warmed Workspace, allocate nothing; a wave decision at MaxSlots and
// MaxPlannedTasks at once allocates its scratch once, in the Workspace
// (limits_test.go records its time and size).
// Queue.Decide's wave plan keeps about 32 bytes per planned task and 72 per
// deadline job (about 150 MB at MaxPlannedTasks and MaxJobs). Job IDs,
// Tasks below the planned bound and slices read once (JCT's cluster) have
// no bound of their own.
//
// # Performance
//
// Queue.Decide answers paper and strict mode in O(log n) for n queued jobs
// from the Queue's search tree (index.go): a treap in EDF order whose
// subtrees carry the Σ JCT of their deadline jobs and the least and greatest
// deadline − Eq. 7 prefix counted from the subtree's start. The new job's
// place is one descent; the queued jobs after it that may be protected and
// hurt (slack in [0, JCT_new]) are found by a search that skips every
// subtree whose jobs are all late already or all keep JCT_new of slack,
// the band widened by a bound on how far the tree's sums, formed in tree
// order, can be from the pass's (8 roundings of 2^−53 of the largest
// magnitude per job; the tree's depth and the pass's additions account for
// at most 5n + 12). Each candidate is then decided with Eq. 7's sums as
// Workspace.Decide forms them, one addition after another in EDF order,
// which the Queue keeps per job and extends on demand from the last
// change: the decision and its Checks are Workspace.Decide's, bit for bit
// (TestPropQueueDecide, TestPropQueueDecideFeasible, and
// TestPropQueueDecideExact with deadlines on the rounding boundary, at
// -rapid.checks=10000). Each subtree mixing late jobs with others on the
// way adds O(log n). The tree is the Queue's storage: Insert, Remove and
// SetJCT update one path, O(log n) (and, once Queue.Decide has used the
// sums, Insert and Remove shift the kept JCTs: O(n) moves of 8 bytes);
// Start and End change one job and one slot, O(1) but for the ID lookup
// (End walks the job's running tasks when the one planned to end last
// ends); Jobs copies the jobs out in EDF order, O(n).
//
// Workspace.Decide is one pass over the queue, O(len(queue)), in paper and
// strict mode; confidence mode O((len(queue)+1)·N) with N samples. Wave
// mode, O(S log S + J·G + T (log S + log G)) for S slots in G groups of
// equal residual capacity, J deadline jobs and T of their pending tasks,
// plans four schedules (first free and end first, with and without the new
// job; the jobs before it twice).
//
// Queue.Decide in wave mode keeps the plan of its own jobs, without a new
// job, for the time, cluster and margin of its decisions (queue_wave.go):
// each job's evidence and completions in both placements, the slot and end
// of every task placed, and every slot's free time at checkpoints 2S tasks
// apart. A decision with the same time, cluster and margin (compared bit
// for bit, O(S)) restores the state before the new job's EDF place from
// the last checkpoint and the tasks logged since (O(S) plus the tasks
// since the checkpoint, about 2S), copies the evidence of the jobs before it, and plans only the
// new job and the jobs after it, with the new job, first free and end
// first; their completions without it are read from the plan. The next
// placement of a plan depends only on each slot's free time (ties go to
// the lowest slot index, a unique key), so the restored state plans as the
// planner that reached it: TestPropQueueWave checks every Queue.Decide
// against Workspace.Decide on the same jobs and cluster, bit for bit and
// errors included, through Insert, Remove, Start and End (each drops the
// plan from the changed job's place on; a start or end also changes its
// slot's free time, so the next decision plans anew) and decisions that
// keep or change the time, cluster and margin. This serves the decisions
// of one instant: arrivals handled at one time against one view of the
// cluster (a scheduler can decide every arrival of a round at the round's
// time), or pending jobs decided again. A decision at another time, or on
// another cluster or margin, first plans every job again and costs about
// what Workspace.Decide costs (bench_test.go measures both): the plan's
// times are relative to now, so a plan made at one time is not, to the
// bit, the plan at another.
//
// Workspace.Decide plans the jobs before the new one twice and those after
// it four times; the kept plan, those after it twice and those before it
// not at all, so the gain is about 2× with the new job first, 3× in the
// middle, and, with the new job last, the O(S) restore and the copy of the
// evidence against a plan of every job. Every decision allocates nothing
// once the buffers fit (TestSteadyStateAllocs). bench_test.go holds the
// measured times of every mode, with the commands that reproduce them.
//
// Eq. 6 for many jobs on one cluster: JCTOn over NewCapacities' runs of
// equal residual capacity gives JCT's value bit for bit (addRepeated adds a
// run of equal task times in O(log) float operations: within a binade each
// addition adds the same multiple of the spacing once one addition has
// fixed the parity, so the additions that stay in the binade are one
// multiplication; TestPropAddRepeated and TestPropJCTOn, ties and
// subnormals included), in O(runs) per job instead of O(slots)
// (BenchmarkJCTCluster, BenchmarkStrictPass: a YARN controller's pass
// over 10,000 apps on 50,000 containers).
package admission
