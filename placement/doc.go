// Package placement decides where to put a request's VMs and how many of
// which type: TARA topology-aware VM placement by genetic algorithm (Lee
// thesis ch. 3, TARA §3.2–3.3), core and accelerator pools (Lee thesis §4.2,
// §4.4.1) and locality by core reassignment (Rao–Reddy §4.1, Algorithm 1).
//
// # TARA: prediction engine and genetic search (Lee thesis §3.2–3.3)
//
// A Topology lists racks (uplink capacity and background traffic) and
// servers (rack, free VM slots, core speed, background CPU, NIC and disk
// bandwidth with their background traffic). An Application is the thesis's
// application description of a MapReduce job (§3.2.1.2): VMs requested r,
// map and reduce slots per VM, input size, split size, map and reduce
// selectivity, CPU cost per byte, per-task overhead, HDFS replication. Sizes
// are bytes, bandwidths bytes per second (Mbps converts), times seconds.
//
// NewEvaluator builds the prediction engine (§3.2.2) for one topology and
// application; Evaluator.Predict and Evaluator.CompletionTime score a
// placement (server indices). The engine is a fluid flow-level model, not
// the thesis's event-driven C++ simulator: a map phase (local disk reads and
// spills, then CPU), an all-to-all shuffle, a reduce phase (local disk
// reads, CPU) and a replicated HDFS write, run one after the other. Each
// network phase lasts as long as its most loaded resource needs (bytes over
// capacity left by background load), over every rack uplink and every
// chosen server's NIC and disk; that is the makespan of the best flow-level
// sharing of the links. The disk is the thesis's "simple disk model"
// (§3.2.2): one bandwidth per server shared by reads and writes,
// DefaultDisk (100 MB/s) unless set. Prediction.Uplink is the time the rack
// uplinks add: on identical servers, the only part of a prediction that
// placement changes. The Evaluator doc spells out the formulas and what is
// not modelled (the network core, phase overlap, multi-pass merges,
// stragglers). Like the thesis's engine (§3.3.4.4) it aims to rank
// candidates correctly rather than to predict absolute times.
//
// Search is the GA of §3.2.3: bit strings over the available servers with
// exactly r ones, a population of 100 seeded with the heuristic placements,
// mutation, swap between racks, crossover with repair, selection keeping
// the fittest plus a few weak candidates, at least 10% new offspring per
// generation, stopping on an evaluation or generation budget. The
// Heuristic values RoundRobinRacks (RR-R), RoundRobinServers (RR-S),
// Hybrid1 (H-1) and Hybrid2 (H-2) and RandomPlacement are the baselines of
// §3.3.3.2. ThesisTopology and ThesisSort build the thesis's evaluation
// scenario (§3.3.1.1, §3.3.3.1).
//
// Guarantees: every function is pure apart from the Evaluator's scratch
// buffers (an Evaluator is not safe for concurrent use); Search and
// RandomPlacement draw all randomness from the caller's *rand.Rand (nil is
// ErrNilRand) and read no clock, so equal inputs give equal outputs bit for
// bit. Every candidate Search evaluates and its result name exactly r
// distinct servers with a free slot; the best fitness never increases from
// one generation to the next; the result is never worse than the best
// seeded heuristic. A prediction does not depend on the order servers are
// listed in, in the placement or in the Topology. Predictions are finite:
// NewEvaluator rejects inputs whose worst placement would overflow.
//
// Errors: every bad input returns a *ValueError naming the field and value
// and matching ErrBadInput: NaN, infinite, negative or zero capacities and
// speeds, background load at or above capacity, rack indices out of range,
// more VMs than available servers, a placement of the wrong length or with
// an unavailable, repeated or out-of-range server, and search settings out
// of range.
//
// Decisions where the thesis is silent:
//   - One VM of a request per server (§3.2.3), so a server's FreeSlots only
//     matters as zero or not.
//   - Input is spread evenly over the VMs and read locally (§3.3.3.2 copies
//     it in beforehand); reducers are spread evenly; replicas stay on the
//     job's VMs, the second in another rack when the job spans racks
//     (HDFS's default policy).
//   - Links are full duplex: an uplink or NIC carries its capacity in each
//     direction, and background traffic takes the same amount in each.
//   - Disks: a map or reduce task reads, computes and writes in turn, so a
//     VM's disk time adds to its CPU time in those phases (the VM's slots
//     share the disk); in the shuffle and the write, data streams from disk
//     through the network to disk, so the disk is one more resource whose
//     load bounds the phase. DefaultDisk is one 7,200-rpm SATA disk of the
//     class in the thesis's testbed (four 750 GB disks per machine, §3.3.2).
//   - RR-R visits racks in index order; RR-S, H-1 and H-2 visit them by
//     available uplink bandwidth, highest first, ties by index; within a
//     rack servers are taken in index order. When one pass of H-1 (20 per
//     rack) or H-2 (10) does not reach r, further passes take up to the same
//     number again, so every heuristic succeeds when r servers are free.
//   - The thesis stops on a 60 s wall-clock limit; we stop on a budget of
//     10,000 evaluations by default (the thesis's 60 s covered about 300
//     evaluations of its 0.96 s simulator, §3.3.4.1, §3.3.4.4).
//   - The thesis scenario's seven uplink values cover twenty racks by
//     cycling (800, 700, …, 200, 800, …): three racks each at 800…300
//     Mbit/s, two at 200. The Sort job's CPU profile is not printed in the
//     thesis; ThesisSort documents the values we assumed.
//
// # Search's operators
//
// The thesis's GA (binary tournament, mutation, swap and crossover at equal
// rates, a mutation that moves a uniformly drawn VM) is little better than
// random sampling at the thesis's budget: the predicted time is a maximum
// over the uplinks, so only moving a VM off the bottleneck uplink helps,
// and a uniformly drawn VM is rarely there; when two uplinks tie at the
// maximum, relieving one changes nothing, so the population drifts on
// plateaus. Search therefore departs from it, each change measured on top
// of the previous one (study_test.go has the figures;
// TestSearchOperatorStudy reproduces them and asserts a 5% margin over the
// best of as many random candidates at 300 evaluations):
//   - ties in predicted time are broken by uplink crowding, Σ_k (t_k/t_max)⁴,
//     so selection sees progress on plateaus;
//   - mutation moves a VM off the bottleneck uplink;
//   - a 3-way tournament: parents come from the top quarter instead of the
//     top third;
//   - mutation for half the offspring, swap and crossover a quarter each.
//
// Search fixes the operators; a caller's Objective gets blind mutation and
// no tie-break, since only the prediction engine knows which uplink binds.
// Evaluator.CompletionTime allocates nothing (TestEvaluatorAllocs);
// bench_test.go holds the measured times.
//
// # Core and accelerator pools (Lee thesis §4.2, §4.4.1)
//
// PlanPools sizes an elastic MapReduce cluster for one period of production
// work. The core pool stores the data (HDFS) and is billed for the whole
// period: its type and size come from the storage requirement
// (CoreNodesForStorage: the type whose ceil(StorageGB/DiskGB)·price is least).
// Accelerators of one type join at the start of the period and are billed by
// the started hour until the work is done. Job affinity is the computing rate
// CR(i, j) of §4.2: work units an instance of type i does per hour for job j.
// Completion time is the exact fluid makespan (PoolFinishHours): tasks are
// taken to be small enough to split a job's work across both pools in any
// proportion, and the accelerators take work in decreasing order of their
// comparative advantage Rates[accel]/Rates[core] (jobs without work are
// left out, whatever their rates). The planner searches the core pool alone, the core
// pool grown by extra nodes of its type, and the core pool plus 1..N
// accelerators of each type, and returns the cheapest plan that meets the
// deadline (ties: fewer nodes, earlier finish, lower type index). The thesis
// gives no work figure for §4.4.1; 26.5 m1.large-hours due 3 h into a 4 h
// round satisfies every statement it makes and reproduces its costs:
// $12.24 (9 m1.large) → $10.88 (5 m1.large + 4 m1.large) → $8.84 (5 m1.large
// + 4 c1.medium). EC2June2011 returns Table 4.1. Beyond the thesis: with the
// deadline at the end of the round (4 h) the planner finds cheaper plans
// than the configurations the thesis tried (5 m1.large + 2 c1.medium, $8.16),
// because billing is per started hour.
//
// # Locality by core reassignment (Rao–Reddy Algorithm 1)
//
// LocalityCluster holds, per physical machine, the Release queue (VMs that
// gave up a free core) and the Assign queue (VMs waiting for a core to run a
// data-local map task). AssignMapTask launches a local task when the free
// node stores one's data; otherwise it queues the first non-local task on
// the replica node whose machine has the most Release entries (only machines
// with at least one count: the paper's "if Srq is not empty"), else the one
// whose machine has the fewest Assign entries, ties to the replica listed
// first, and registers the free node's core for release. A machine with
// entries in both queues reconfigures at once, FIFO, and the step reports
// the core moved and the task that starts. The state changes in place and
// allocates only when a queue outgrows its storage. NewLocalityCluster takes
// up to 2^20 machines and keeps queues only up to the highest machine that
// hosts a VM, so memory follows the VMs, not the machine count.
//
// PlanPools's sizes are bounded up front (MaxPoolTypes, MaxPoolJobs,
// MaxPoolNodes, MaxCoreNodes, MaxPoolSearch): it evaluates
// MaxExtraCoreNodes + 1 + len(Types)·MaxAccelerators candidates, each a
// bisection over the jobs, so (candidates)·(len(Jobs) + 8) may not exceed
// MaxPoolSearch = 2^21. It makes one allocation whatever the sizes
// (TestLimitsPools pins it at every limit; BenchmarkPlanPoolsAtLimit
// times it, bench_test.go records the times).
//
// AssignMapTask allocates nothing per step (TestAssignMapTaskAllocs) and
// PlanPools at most once; bench_test.go holds their measured times.
//
// # Limits
//
// Every size a caller controls is bounded and checked before any work; one
// beyond gives a *ValueError naming the field. TestLimitsTopology,
// TestLimitsSearch, TestLimitsLocality and TestLimitsPools run each at its
// limit and one beyond and bound the memory used; BenchmarkLimits and
// BenchmarkPlanPoolsAtLimit time them.
//
//	MaxServers = 2²⁰        len(Topology.Servers); so app.VMs and every
//	                        placement
//	MaxRacks = 2²⁰          len(Topology.Racks)
//	Replication ≤ 64        Application.Replication
//	Population ≤ 1e5        SearchOptions.Population
//	MaxSearchWork = 2²⁸     a search's most evaluations (MaxEvaluations, or
//	                        seeds + Population + MaxGenerations·offspring)
//	                        × (available servers + VMs + racks)
//	MaxSearchMemory = 2²⁷ B the candidates a search keeps, about
//	                        (Population + seeds + offspring)·(available
//	                        servers + 4·VMs + 512) bytes
//	MaxPoolTypes = 1024     len(PoolProblem.Types)
//	MaxPoolJobs = 2¹⁶       len(PoolProblem.Jobs)
//	MaxPoolNodes = 2¹⁶      MaxAccelerators, MaxExtraCoreNodes
//	MaxCoreNodes = 2²⁰      MinCoreNodes and every core or accelerator count
//	MaxPoolSearch = 2²¹     (candidates)·(len(Jobs) + 8) of PlanPools
//	MaxLocalityMachines = 2²⁰  machines of a LocalityCluster
//	MaxLocalityVMs = 2²⁰    len(vmMachine)
//	MaxLocalityQueue = 2¹⁶  entries in one machine's Release or Assign queue
//
// MapSlots and ReduceSlots may be any int ≥ 1, and the slices a call reads
// without keeping (a placement, SearchOptions.Seeds, the tasks and replicas
// of AssignMapTask) have no bound of their own: a placement names VMs
// servers, and the rest cost time linear in their length and no memory.
// Measured at the limits (go test -run '^$' -bench Limits -benchtime 3x
// -cpu 1 ./placement, 2 shared cores at a load average of 13): Search at
// MaxSearchWork on the thesis scenario (298,260 evaluations) 1.4 s and
// 1.5 MiB, at MaxSearchMemory (Population 68,850) 0.96 s and 116 MiB;
// NewEvaluator at MaxServers and MaxRacks 0.17 s and 69 MiB, Predict of
// all 2²⁰ servers 40 ms with no allocation.
package placement
