// Package progressshare schedules MapReduce tasks fairly by progress in a
// heterogeneous cluster: the progress share of the Lee thesis, §4.3
// (Eq. 4.1–4.4, Algorithms 1 and 2, the calibration phase of §4.3.1.4), with
// the baseline slot-share fair scheduler with delay scheduling beside it so
// that an adapter can compare the two.
//
// # Model
//
// A cluster is a list of slots (Slot: node, node type, rack). A job (Job)
// has a weight, a computing rate CR per node type (blocks per second per
// slot, learned while calibrating), its running tasks per node type, its
// pending input blocks with the nodes holding their replicas, and the time of
// its last launch (its delay state). Build a Scheduler once per cluster with
// NewScheduler; then for each free slot call
//
//   - PickProgressShare, Algorithm 2: calibration first (a calibrating job gets
//     one slot of each node type it has no rate for), then jobs in increasing
//     PS(j)/weight; each job's best block by BS (Eq. 4.3) is launched iff
//     1 − Pref_{j,b}(s) ≤ delay(j)/max_delay (Eq. 4.4);
//   - PickSlotShare, Algorithm 1: jobs in increasing running tasks/weight;
//     node-local at once, rack-local after d1, remote after d2.
//
// Options.AffinityFactor adds to PickProgressShare the affinity rule of
// §4.3.1.4's prose (see "The affinity rule" below); the zero value leaves
// Algorithm 2 exactly as it is.
//
// Both return a Decision: which job, block and replica to launch, or that
// the slot is skipped, and why (Reason). The caller applies it (moves the
// block to running, sets LastLaunch = now, which resets the delay) and, when
// a task finishes on a node type the job had no rate for, records the
// measured rate in Job.Rates, which ends calibration on that type.
//
// ProgressShare (Eq. 4.1), SlotShare, BestScore (Eq. 4.2–4.3), Pref
// (Eq. 4.4) and RelativeRate (§4.2) expose the quantities the pickers use. A PendingIndex, kept by
// the caller per job (Add/Remove as blocks come and go), lets the pickers
// skip reading a job's blocks to learn its best locality on a slot.
//
// A Pool holds the jobs for a caller that keeps them from events (Set a
// job when it changes, Remove it when it leaves) and decides with
// Pool.PickProgressShare exactly as PickProgressShare does on the same
// jobs, bit for bit, but reads only the jobs in increasing share up to the
// one that launches instead of every job (see Pool for what stays linear).
//
// # Computing Pref fast
//
// Eq. 4.4 sums BS over every slot. With T = Tr + Tp, Tr a step function of
// locality and Tp = 1/CR of the node type, BS_{j,b}(s) depends on s only
// through (node type, locality class of b's replicas from s). The Scheduler
// keeps slots per type, per node and per rack, so a block's group sizes
// follow from its replicas: Pref costs O(replicas × node types), not
// O(slots). The order of jobs is a heap
// built in O(jobs) and popped only as far as needed.
//
// # Guarantees
//
// Every function is deterministic and, apart from NewScheduler, allocates
// nothing once the Scheduler has seen as many jobs (pinned by
// TestDecisionAllocations). PS ∈ [0, 1]; Pref ∈ (0, 1] and is exactly 1 on
// the best slots for the block and never decreases with BS; a launched task
// never has 1 − Pref > delay/max_delay. These hold by rapid properties that
// check Pref against Eq. 4.4 summed slot by slot and both pickers against a
// sort-based oracle. With the affinity rule on, a decision differs from
// Algorithm 2's only by an affinity launch, which passes over Algorithm 2's
// job only for one whose relative rate on the slot is at least the factor
// times its own, and, bounded, only a job at or above its slot share
// (checked against an oracle from the definitions, water-filling by sort).
//
// # Errors
//
// Bad caller data gives an error matching ErrBadInput, a *ValueError naming
// the field with its index ("jobs[3].Rates[1]") and the value: a cluster with
// no slot, negative or too large identifiers, a node with two types or
// racks, read times or delays outside [0, MaxDuration] or out of order, an
// affinity factor neither 0 nor in [1, MaxRate] (or a bound without it), weights
// or measured rates outside [MinRate, MaxRate], NaN or infinite times, a last
// launch after now, running counts outside [0, slots of the type], more
// rates or counts than node types, a block without replicas or with a replica
// on a node without slots, an index out of range. The pickers check every
// job's scalar fields but read pending blocks only as far as the decision
// needs; Validate checks everything. PendingIndex.Add and Remove reject bad
// blocks and blocks the index does not hold, and a nil or zero PendingIndex;
// a zero Scheduler (not made by NewScheduler) gives errors, not 0/0.
// ProgressShare of a calibrating job returns ErrCalibrating, which is not
// bad input. Nothing panics on caller data (fuzzed by FuzzBadInput).
//
// # Decisions where the thesis is silent
//
//   - CR is in blocks per second per slot, so Tp = 1/CR seconds is comparable
//     with Options.ReadTime; only its ratios matter for PS.
//   - Calibration: a job is calibrating while some node type with slots has no
//     measured rate. A calibrating job with no rate and no running task on
//     the free slot's type gets the slot before any other job (lowest
//     weighted slot share first), whatever the locality. Besides that, a
//     calibrating job competes by weighted slot share (PS is undefined for it)
//     and its Tp is taken equal on every type (1/mean of its measured rates,
//     or 1 s): its Pref then reflects locality only.
//   - Ties: among blocks with the same BS the lowest Pending index wins;
//     among jobs with the same weighted share the lowest index wins.
//   - delay(j) = now − LastLaunch, reset by the caller on every launch, as in
//     delay scheduling; MaxDelay = 0 launches at once.
//   - The launch rule is Algorithm 2's line 4, 1 − Pref ≤ delay/max_delay.
//     §4.3.1.3's prose words it differently ("the
//     slot is taken if the delay made to the job j is less than
//     Pref·max_delay"), which read literally makes a job less willing the
//     longer it waits; its own example (Pref 0.5: launch once the delay is
//     more than half of max_delay) fits Algorithm 2.
//   - §4.3.1.4's prose also says a job "with a significantly higher
//     computing rate on the slot" may be chosen over the job with the
//     lowest share. Algorithm 2 has no such rule; this package has it as an
//     option, off by default (next section).
//   - Eq. 4.4 is discontinuous in the rates: a job equally fast on two node
//     types has Pref 1 on both, but one measured 1% faster gives the other
//     Pref ≈ its share of the slots (0.5 for two equal halves), so with
//     MaxDelay > 0 the job waits for the "faster" type, and since every
//     launch there resets its delay, it may leave the other type's slots
//     free while its tasks wait. Rates measured on single tasks make this
//     happen: in the §4.4.2 case of examples/progressshare, sort (no real
//     affinity) leaves 9,100 slot-seconds free and finishes 4% later than
//     under slot share when its rates come from one task per node type,
//     11% sooner when they are exact. The thesis gives no tolerance; the
//     package applies Eq. 4.4 as written, so a caller should record
//     rates that differ only by measurement noise as equal.
//   - Σ PS ≤ 1 holds only when the jobs share one rate ratio (no job
//     affinity). With affinity it can exceed 1: in §4.3.1.1 A on both N1 slots
//     (PS 0.6) and B on the four N2 slots (PS 2/3) sum to 1.27, which §4.3.1.1
//     calls the better assignment. The property test asserts the first.
//   - A shortcut declines a calibrated job in O(node types), without reading
//     its blocks and without entering the order, when a bound on Eq. 4.4
//     proves it must decline: with loc the best locality of its blocks on
//     the free slot (from its PendingIndex; node-local without one),
//     Pref ≤ N⁺/(N⁺ + X⁻) for every block of that locality, where X⁻ sums
//     the remote scores of node types that beat the free slot even when read
//     remotely and N⁺ the best score each other type can have at or below
//     the free slot's (see mustDecline in pick.go). It never changes which
//     job launches (checked against the oracle and by a property that
//     compares the bound with Eq. 4.4 summed slot by slot); such jobs are not
//     counted in Decision.Examined. PickSlotShare likewise passes over a job
//     whose PendingIndex shows its best locality must wait.
//
// # The affinity rule
//
// With Options.AffinityFactor = f ≥ 1, once Algorithm 2 has picked a
// calibrated job p for slot s, the slot goes instead to another calibrated
// job k with a pending block, if one qualifies:
//
//	rel(s, k) ≥ f · rel(s, p) and rel(s, k) > rel(s, p),
//	rel(s, j) = CR(s, j) · |S| / Σ_{s'∈S} CR(s', j)   (RelativeRate),
//
// and k accepts the slot by Algorithm 2's line 4 (its best block's
// 1 − Pref ≤ delay(k)/max_delay). The relative rate is the slot's rate
// against the job's mean slot: §4.2 warns that CR "is defined within the
// same job", so raw rates of two jobs are not compared. Among qualifying
// jobs the highest relative rate wins (ties: Algorithm 2's order, PS/weight
// then index); the first that accepts takes the slot (Reason
// ReasonAffinity, Decision.Bypassed = p). A calibrating job has no
// relative rate: it is neither passed over nor passes over another, and
// calibration launches are untouched. PickSlotShare ignores the option.
//
// With Options.AffinityBounded, p is passed over only while it runs at
// least its slot share: the number of slots the slot-share fair scheduler
// gives it, the weighted max-min fair split of the |S| slots over the jobs'
// demands (running plus pending tasks), min(demand_p, w_p·λ) with λ such
// that Σ_k min(demand_k, w_k·λ) = |S| (when all demands fit, every job's
// share is its whole demand and nothing is passed over). The rule then never
// leaves a job with fewer slots than slot share would give it; Algorithm 2
// itself still may (a job with fast slots gets fewer of them).
//
// What it gains. Algorithm 2 balances progress shares and lets a job with
// affinity wait (max_delay) for its fast slots, but a freed fast slot still
// goes to the lowest-PS job, whatever its use of it; with few slots per
// node, equal shares are out of reach and the split settles by ties. The
// rule gives the slot to the job that gains most from it. In the §4.4.2
// case (examples/progressshare: 8 CPU + 8 GPU slots, crypto 3× faster per
// slot on the GPU node, sort equally fast) the rule gives crypto more of
// the GPU slots than Algorithm 2 does and both jobs finish sooner than
// under slot share (bench_test.go records the figures).
//
// What it gives up. Progress shares are no longer equalised: in §4.4.2
// crypto ends at PS 0.75 and sort at 0.5, and unbounded, a job can fall
// below its slot share. With 12 slots of type X and 4 of Y, job A 4×
// faster on X (relative rate 1.23 there, 0.31 on Y) and job B equally fast
// (1), the unbounded rule at f = 1.2 hands every X slot to A and every Y
// slot to B: B runs on 4 slots (PS 0.25) against 8 under slot share and
// PS ≈ 0.55 under Algorithm 2, while A's PS is 0.92 (TestAffinityGivesUp
// shows the step). Bounded, B keeps 8. The factor sets how large an
// advantage must be before fairness yields: at f = 1 any relatively faster
// job overrides, and a large f turns the rule off in practice.
//
// Cost. The rule reads one more rate per job in the pass every decision
// makes, and only when some job qualifies, each qualifying job's best block
// and Pref (in decreasing relative rate, stopping at the first that
// accepts); the bound adds one pass over the jobs. Off, decisions are
// bit-for-bit Algorithm 2's (TestGoldenDecisions pins them on 3,000
// random worlds) and no slower within the measurements' noise.
//
// # Memory
//
// NewScheduler allocates at most 8 bytes per node identifier up to the
// largest used (8 MiB at MaxNode), 160 bytes per slot and 24 bytes per node
// type up to the largest used, plus 64 KiB; it keeps slots per (rack, node
// type) only for pairs that have slots. 131,072 slots on distinct racks
// with one slot of type MaxType take 18 MiB, 2^20 slots on distinct nodes
// and racks 144 MiB. A PendingIndex takes 4 bytes per node with slots and
// per rack. TestSchedulerMemory holds both to these bounds at the
// identifier limits.
//
// # Performance
//
// Both pickers allocate nothing per decision; bench_test.go holds the
// measured times (1,000 jobs, 5,000 slots, with and without a
// PendingIndex, the affinity rule on and off) with the command.
//
// Where the time goes. Every decision makes one O(jobs × node types) pass
// that validates each job and computes its share (memory-bound: each job's
// Rates and Running are separate arrays), and, for Algorithm 2, the bound of
// the shortcut (two divisions per node type, skipped after an O(node types)
// test when no node type beats the free slot even remotely). With a
// PendingIndex both pickers know each job's best locality on the slot in
// O(1), so the worst case without them, every job read and declining on
// locality, reads no job: Algorithm 1 passes over jobs whose locality
// must wait and Algorithm 2 over jobs the bound proves must decline. A job
// examined in full costs O(blocks × replicas) to find its best block (up to
// the first block of the best locality with an index) plus
// O(replicas × node types) for Pref, plus a heap pop.
//
// What remains over 100 µs. (1) Without a PendingIndex, a job's best
// locality is known only by reading its blocks: declining all 1,000 jobs
// reads 300,000 replicas (≈1.3 ms). Keep an index per job. (2) With
// indexes, Algorithm 2 must still compute Eq. 4.4 exactly for a job whose
// delay ratio lies between the bound (where the shortcut proves a decline)
// and 1 − Pref (where it launches); the bound cannot decide there without
// the block's replicas. The "in the gap" benchmark puts all 1,000 jobs
// there on purpose: 1,000 block reads, Prefs and heap pops. Only jobs in
// that band cost more than O(node types).
//
// # Limits
//
// Every size and value a caller controls is bounded and checked before any
// work; one beyond gives a *ValueError naming the field. TestLimits runs
// each size at its limit and one beyond, TestSchedulerMemory holds the
// Scheduler's memory at MaxSlots, MaxNode and MaxType.
//
//	MaxSlots = 2²⁰      len(slots) of NewScheduler (at most 160 bytes a slot)
//	MaxNode = 2²⁰ − 1   Slot.Node and every replica (8 bytes per identifier
//	                    up to the largest used)
//	MaxType = 1023      Slot.Type; len(Job.Rates), len(Job.Running) ≤ node types
//	MaxJobs = 2¹⁸       len(jobs) of PickProgressShare, PickSlotShare and
//	                    Validate (20 bytes of scratch a job, kept)
//	MaxPending = 2²⁰    len(Job.Pending), len(blocks) of NewPendingIndex and
//	                    the blocks a PendingIndex holds (32-bit counts)
//	[MinRate, MaxRate]  Job.Weight, measured rates; [1e-9, 1e9]
//	[0, MaxDuration]    Options' read times and delays, in seconds;
//	                    MaxDuration 1e9
//
// Rack identifiers may be any int ≥ 0 (they are compacted), the clock any
// finite float64, and Block.Replicas any length (read, not kept: a block
// costs O(replicas) and no memory). At MaxJobs both pickers, once the
// Scheduler has seen as many jobs, allocate nothing (BenchmarkLimits).
package progressshare
