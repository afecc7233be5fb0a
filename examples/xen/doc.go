// Command xen replays MIMP Table 1 and Fig. 5a in simulation: an
// interactive VM (TPC-W-like closed-loop clients, short CPU bursts,
// blocking on IO) beside a CPU-bound batch VM on 2 shared cores, under the
// xencredit state machine — the interactive VM alone, stock credit with the
// batch VM at minimum weight (1), and MIMP's MI scheduler with the batch VM
// in the background class, under both readings of how MI meets Xen's
// ratelimit. No hypervisor is involved: a discrete-event driver
// (examples/internal/des) calls the scheduler's events (a tick every 10 ms
// per core, accounting every 30 ms out of phase with the ticks, slice ends,
// wakes and blocks) and plays the guests.
//
//	go run ./examples/xen                    # client sweep; Table 1 is 600 clients
//	go run ./examples/xen -json              # {"ratelimit_delays_background":…, "runs":[…]}
//	go run ./examples/xen -plot out/         # out/xen-response.png, out/xen-runnable.png
//	go run ./examples/xen -rates 20,85,140   # open-loop arrivals instead
//
// # Set-up (MIMP §4.1, §6.1, and Xen 4.2)
//
//   - Each VM has 2 VCPUs (§6.1), and Table 1's runstates add up to 1700.2
//     VCPU-seconds, 2 VCPUs × 850 s, so runs last 850 s.
//   - "The web server VM is always pinned to shared CPU cores and Hadoop
//     VMs are pinned to … shared CPU cores" (§6.1): each VM's VCPUs have
//     both shared cores as their affinity, and Xen 4.2's rules move them
//     (xencredit.Domain.Affinity: a wake on a busy core tickles an idle
//     one; a core whose best VCPU is OVER, BACKGROUND or idle steals a
//     higher-priority VCPU queued on the other). -pinning vcpu pins VCPU j
//     to core j instead.
//   - "Minimum weight" is 1, the lowest weight Xen accepts; the
//     interactive VM has Xen's default 256.
//   - The credit pool belongs to the cpupool, and one pool holds every
//     core of the host (the paper names no cpupools): C = 4×300 per 30 ms
//     on the 4-core X3450, of which 2 cores run the VMs and the others
//     Dom0 (-host-pcpus; -host-pcpus 2 is a cpupool of the shared cores).
//   - A domain that becomes active joins the head of the accounting's
//     domain list, as Xen's __csched_vcpu_acct_start does
//     (xencredit.Config.ActivateAtHead; -activate-at-head=false for the
//     tail).
//   - The ratelimit (Xen 4.2's 1 ms sched_ratelimit_us) applies to MI's
//     background VCPUs as in the MIMP prototype's code
//     (-ratelimit-delays-background, default true); the other setting,
//     MIMP §4.2's "will always be able to preempt a background VM", runs
//     beside it as mi-exempt.
//   - Clients: TPC-W's emulated browsers, closed loop, exponential think
//     time of mean 7 s; Table 1 has 600 (about 85 requests/s). A request
//     needs 4 bursts of 2 ms of CPU with 5 ms IO waits between them
//     (exponential), fitted to Table 1's alone column only: 583 VCPU-s
//     running and 24.0 ms alone against 605.9 s and 25 ms. Dom0 is idle
//     (-dom0 2 gives it two busy VCPUs on its own cores).
//
// # What it shows (default run, seed 1; go run ./examples/xen)
//
//	clients set-up      running  runnable  blocked  resp ms  shared%
//	    600 alone         582.9       0.0   1117.1     24.0      0.0
//	    600 credit        560.7    1004.6    134.7    310.7     99.8
//	    600 mi            582.5     185.7    931.7     28.6     45.5
//	    600 mi-exempt     582.9       0.0   1117.1     24.0      0.0
//	    Table 1: alone    605.9       1.9   1092.4     25
//	    Table 1: +WC      656.4     524.4    520.2    175.5
//
// Over clients 200, 400, 600, 800, 1000 stock credit's mean response is
// 27.6, 36.3, 311, 2620, 1017 ms (runnable 95, 307, 1005, 1132, 849 s),
// crossing 100 ms between 400 and 600 clients — Fig. 5a: "only supporting
// about 500 clients before … the response time [rises] over 100ms" — while
// alone and mi-exempt answer in 23–27 ms with no waiting and mi in
// 24.8–33.9 ms (runnable 37–259 s). Seeds 2 and 3 at 600 clients: credit
// 990 and 959 s, 288 and 290 ms; mi 184 and 183 s.
//
// Why stock credit waits: Xen 4.2 moves a VCPU only to a core that is idle
// or whose best VCPU is OVER. The weight-1 batch VCPUs are CPU-bound, so
// neither core is ever idle, and they are handed the credit the pool's two
// idle Dom0 cores cannot use (the interactive domain, re-activated at the
// head of the list, leaves its surplus to the batch domain after it), so
// they stay UNDER. Early in the run a batch VCPU is briefly OVER, its core
// steals a queued interactive VCPU onto the core of its sibling, and from
// then on nothing separates them (shared% ≈ 100): the VM's two VCPUs take
// turns on one core with a batch VCPU, a boosted VCPU never preempting its
// boosted sibling and an UNDER one waiting out the batch VCPU's 30 ms
// slice. The VM gets at most two thirds of that core, 0.67 cores, against
// the 0.69 it needs: open-loop arrivals at 85/s run away (-rates 85:
// saturated), the closed loop throttles to 82 requests/s at 311 ms.
//
// Ablations at 600 clients (runnable s and ms under credit; mi with the
// prototype's ratelimit), each one setting changed:
//
//	                                        credit            mi
//	default                             1004.6  310.7    185.7  28.6
//	-pinning vcpu                         84.9   26.0     73.6  25.4
//	-activate-at-head=false              189.2   28.7    185.7  28.6
//	both (no migration, tail of the list) 74.5   25.4     73.6  25.4
//	-host-pcpus 2                        187.8   28.6    185.7  28.6
//	-dom0 2                              186.9   28.6    183.6  28.5
//	-ratelimit 0                         900.0  272.3      0.0  24.0
//	-batch-weight 256                    952.9  282.0    185.7  28.6
//	-batch-burst 100ms -batch-io 5ms     432.0   45.3    177.8  28.3
//	-batch-burst 20ms -batch-io 5ms      528.6   49.0    142.7  27.3
//	-batch-burst 20ms -batch-io 1ms      687.3   91.1    156.1  27.6
//	-batch-burst 5ms -batch-io 1ms       981.9  523.7    109.9  26.2
//	-batch-burst 5ms -batch-io 5ms       260.4   31.7     73.3  25.6
//
// Table 1's 524.4 s and 175.5 ms lie inside what a batch VM that blocks
// gives (a Word Count VM reading 15 GB does block; the paper gives no
// pattern, so none is the default). With a batch VM that never blocks the
// packing is permanent and the model waits about twice as long as Table 1.
//
// MI and the ratelimit: with the prototype's setting a regular VCPU that
// wakes less than 1 ms after a background VCPU was dispatched waits out a
// 1 ms ratelimit slice (44% of wakes at 600 clients), and such a queued
// VCPU can then be moved onto its sibling's core (shared 45%). MI's
// runnable time at Table 1's load is 185.7 s, 0.185 of stock credit's:
// the bar of one tenth does not hold (seeds 2, 3: 0.186, 0.191). It
// depends on how soon after blocking the web VM wakes again, which the
// paper does not give: the same alone column fitted with other request
// shapes gives mi/credit 0.049 (2 bursts of 4 ms, 15 ms IO: 50.7 of
// 1030.2 s), 0.009 (one 8 ms burst: 9.5 of 1061.3 s, but 9 ms alone) and
// 0.595 (16 bursts of 0.5 ms, 1 ms IO: 594.8 of 998.9 s). With background
// exempt from the ratelimit (mi-exempt, or -ratelimit 0) MI is the alone
// case exactly.
//
// Where it differs from the paper, and why (the table's footer says the
// same with the run's numbers): alone waits 0 s where Table 1 has 1.9 s —
// 7.9 µs per wake of the model's 239 846, the order of Xen's event-to-run
// path and of Dom0 and Xen work on the shared cores, none of which is
// modelled; requests need the same CPU under every set-up (no cache
// interference), so credit's running time cannot rise above alone's as
// Table 1's does (656.4 against 605.9 s); VCPUs of one socket without SMT
// (a tick never moves a running VCPU: 4.2's _csched_cpu_pick moves it only
// to an idle core with more idle SMT siblings).
//
// Open-loop runs (-rates) report a run whose backlog at the end exceeds one
// second of arrivals as saturated: its mean response time grows with the
// run's length. Every run's expected work is bounded before it starts
// (Scenario.EventRate: at most MaxEventRate events per simulated second and
// MaxEvents per run), with an error naming the field.
package main
