// Package xencredit is the Xen credit (credit1) CPU scheduler as a
// deterministic, allocation-free state machine, with the background class of
// MIMP's Minimal Interference scheduler (MIMP §4, Table 1).
//
// # Model
//
// A State holds PCPUs, each with its own run queue, and domains (VMs) whose
// VCPUs are pinned to PCPUs. A VCPU has a credit, a priority — BOOST >
// UNDER > OVER > BACKGROUND > IDLE — an active flag (on its domain's active
// list, earning credit) and a parked flag (paused by its domain's cap).
// Events are methods that take the current time and append what changed
// (Change: dispatch, preempt, ratelimit keep, boost, unboost, park, unpark,
// raise, lower) to a caller's slice:
//
//   - Wake: an UNDER VCPU is BOOSTed; it goes to the tail of its class and
//     preempts a running VCPU of strictly lower priority.
//   - Block: the VCPU stops wanting the CPU; if running, the PCPU reschedules.
//   - Tick (every 10 ms per PCPU): the running VCPU is debited 10 credits
//     per ms it ran, loses BOOST and rejoins the active list.
//   - Account (every 30 ms): csched_acct's credit distribution by weight
//     and cap, then UNDER/OVER from the credit's sign, park/unpark, the
//     ±300 bounds, and MIMP's starvation guard.
//   - Schedule (at the PCPU's SliceEnd): the head of the run queue runs for
//     a 30 ms slice, unless the 1 ms ratelimit keeps the current VCPU.
//
// The package keeps no timers: the caller calls Tick every
// Config.TickPeriod, Account every Config.Timeslice (Xen's accounting timer
// is not in phase with the ticks) and Schedule at PCPU(p).SliceEnd. Wake,
// Block and Account reschedule by themselves when they preempt, as Xen's
// softirq does. The rules and constants follow Xen 4.2 (RELEASE-4.2.0's
// xen/common/sched_credit.c; MIMP §6.1 ran 4.2.1), overridable in Config.
//
// # The background class (MIMP §4.2)
//
// A domain with Background set is MI's batch VM: its VCPUs are BACKGROUND,
// so they queue behind every other class, are never boosted, earn no credit
// and do not count in the total weight W; any non-background VCPU that
// becomes runnable preempts a running background VCPU whatever its credit,
// even within the ratelimit (Config.RatelimitDelaysBackground restores the
// prototype's ratelimit delay). The starvation guard (Config.GuardPeriod p,
// GuardExec e) is checked at each Account: a runnable background VCPU that
// ran less than e in its last guard period is raised to OVER (UNDER with
// GuardRaiseToUnder, as the prototype does) for a starvation slice of e
// running time, then goes back to BACKGROUND.
//
// # Migration
//
// A VCPU is pinned to its Domain.PCPUs entry unless its domain has an
// Affinity of several PCPUs (a VM pinned to a set of cores, as MIMP §6.1
// pins its VMs to the shared cores). Such VCPUs move by Xen 4.2's rules:
//
//   - A wake on a busy PCPU also tickles one idle PCPU of the affinity,
//     tried round robin after the last one that PCPU tickled
//     (__runq_tickle's last_tickle_cpu). The waker's own PCPU reschedules
//     first; the idle one then steals what is still queued.
//   - A PCPU whose best VCPU (the head of its queue after re-queueing the
//     current one) is OVER, BACKGROUND or idle first looks at its busy
//     peers in order p+1, p+2, … and takes the first queued VCPU of
//     strictly higher priority allowed on it (csched_load_balance,
//     csched_runq_steal; the migration delay is 4.2's default 0, so no
//     VCPU is cache-hot). An idle peer is skipped.
//   - A tick does not move a running VCPU: 4.2's csched_vcpu_acct asks
//     _csched_cpu_pick, which moves it only to an idle PCPU with more idle
//     SMT siblings than its own, and the model has no SMT (one sibling per
//     core, one socket).
//
// So while every PCPU runs an UNDER or BOOST VCPU nothing moves: the
// placement the VCPUs had when the PCPUs filled up is kept until one
// falls OVER or idles.
//
// # Guarantees
//
// Every method is deterministic: the same event sequence gives the same
// states, bit for bit. Time is an integer time.Duration, so CPU time is
// conserved exactly: on every PCPU the running time of VCPUs on it (Busy)
// plus its idle time equals Now, and the PCPUs' busy time is the VCPUs'
// running time. Accounting leaves every active VCPU's credit in
// [−300, 300] and its priority OVER exactly when its credit is negative
// (a reschedule the accounting itself triggers, by parking, unparking or
// raising, then debits the descheduled VCPU for the time since its last
// debit, as Xen's softirq does after csched_acct).
// A VCPU is boosted only from UNDER and never while parked. A runnable
// non-background VCPU never waits behind a running BACKGROUND VCPU (a raised
// one is in its starvation slice). No event allocates: run queues are
// preallocated in New. Property tests (rapid state machines) check all of
// these; TestPropGuardGuarantee checks that the guard gives a continuously
// runnable background VCPU e of running time within every guard period plus
// the wait B it can take to get the PCPU.
//
// # Errors
//
// Bad input returns an error matching ErrBadInput, a *ValueError naming the
// field: an invalid Config field or Domain (New, Config.Validate, which join
// all problems), an unknown VCPU or PCPU, time going backwards or beyond
// MaxTime, waking a VCPU that is not blocked, blocking a blocked one. A
// rejected event leaves the State unchanged. Nothing panics on caller data.
// NaN cannot occur: all time and credit arithmetic is integer.
//
// # Decisions where the sources are silent
//
//   - Time is time.Duration since the State's origin (0), for exact sums.
//   - One run queue per PCPU; no yield (SCHEDOP_yield). Tickle is Xen
//     4.2's: preempt the VCPU's own PCPU when the waker's priority is
//     strictly higher (and see Migration).
//   - Debits are 4.2's burn_credits: 10 credits per ms rounded to nearest,
//     the remainder kept in start_time (Xen master floors and keeps a
//     residual; before 2009 Xen debited a whole tick's 100 credits from
//     whoever was running at the tick — MIMP §4.1's "coarse grain time
//     accounting" — which this model does not do).
//   - Ratelimit slice: 4.2's full ratelimit; Xen master's remainder (with a
//     100 µs floor) with Config.RatelimitRemainder. Ratelimit 0 disables it.
//   - Block accepts a queued VCPU (Xen's sleep of a queued VCPU), not only a
//     running one; Wake of a VCPU that is not blocked is an error (Xen
//     ignores it). A parked VCPU that wakes waits Offline until unparked.
//   - Runstates as xentop counts them: running, runnable (queued), blocked,
//     offline (parked while wanting to run).
//   - A domain that becomes active joins the tail of the active-domain
//     list unless Config.ActivateAtHead is set; Xen puts it at the head
//     (list_add in __csched_vcpu_acct_start). DefaultConfig keeps the
//     tail, so decisions made with DefaultConfig do not change.
//   - The credit pool C saturates at 2³²−1 (Xen's 32-bit arithmetic would
//     wrap); at that size every fair share is already at its peak.
//   - Guard period: tumbling, per VCPU. It closes at the first Account at
//     least p after it opened; then the next one opens. MIMP §4.2 says "if
//     over p seconds the VM has not been in the Running state for e
//     milliseconds"; the MIMP prototype checks instead that the VCPU has
//     not been descheduled for 500 ms, checks inactive VCPUs too, and raises
//     to UNDER with credit 0 and weight 256, so a VCPU raised while blocked
//     wakes UNDER and is boosted. Here only runnable VCPUs are raised, they
//     get no credit, and blocking ends the starvation slice.
//   - The starvation slice is e of running time (the paper's "specified
//     time slice"), dispatched in turns of at most a Timeslice; a
//     preemption does not end it, as it would if the slice ended at the
//     VCPU's next deschedule. MIMP's raise to OVER cannot help a background
//     VCPU against a CPU-bound foreground VCPU that earns what it burns and
//     so stays UNDER (TestGuardAgainstCPUBoundForeground); the prototype's
//     raise to UNDER can, one Timeslice per foreground VCPU later.
//
// # Benchmarks
//
// Every event and Account allocate nothing (TestEventsDoNotAllocate);
// bench_test.go holds the measured times per event, per Account and of
// the examples/xen driver's hour, with the commands.
//
// # Limits
//
// Every size and value a caller controls is bounded and checked before any
// work (TestLimits runs each at its limit and one beyond, with the memory
// used; BenchmarkLimits times New and Account there):
//
//	MaxPCPUs = 4096       Config.PCPUs
//	MaxVCPUs = 4096       VCPUs over all domains; so also len(Domains)
//	MaxRunQueues = 2²²    run-queue entries New preallocates, Σ over domains
//	                      of len(PCPUs) × max(1, len(Affinity)): 32 MiB
//	MaxWeight = 65535     Domain.Weight; Cap ≤ 100 × PCPUs
//	1 ms … 1 s            Timeslice; 1–100 ticks; CreditsPerMsec 1–1000;
//	                      Ratelimit 100 µs … 500 ms; GuardPeriod ≤ 1 h
//	MaxTime = 2⁶² ns      every event's time (about 146 years)
//
// len(Affinity) is at most PCPUs. An error joins at most 100 problems
// (then says the rest was not checked), so a flood of bad domains costs
// no more than a few. A slice end past MaxTime (a VCPU dispatched within a
// timeslice of it) cannot be delivered: the clock ends at MaxTime. One
// Account with 4,096 woken VCPUs allocates nothing.
package xencredit
