// Command xen replays 000 Table 1 and Fig. 5 in simulation: an interactive
// VM (requests with exponential gaps, short CPU bursts, blocking on IO)
// beside a CPU-bound batch VM on a shared 2-core host, under the xencredit
// state machine — the interactive VM alone, stock credit with the batch VM
// at minimum weight (1), and MI with the batch VM in the background class —
// over a range of request rates. No hypervisor is involved: a discrete-event
// driver (examples/internal/des) calls the scheduler's events (a tick every
// 10 ms per core, accounting every 30 ms out of phase with the ticks, slice
// ends, wakes and blocks) and plays the guests.
//
//	go run ./examples/xen                 # table at each rate
//	go run ./examples/xen -json           # {"runs":[...]}
//	go run ./examples/xen -plot out/      # out/xen-response.png
//
// # Set-up (000 §4.1 and §6.1), as checked against the paper and Xen
//
//   - Each VM has 2 VCPUs: §6.1 gives every VM 2, and Table 1's runstates
//     add up to 1700.2 VCPU-seconds, 2 VCPUs × 850 s, so runs last 850 s.
//     VCPU j of each VM is pinned to shared core j (the paper pins the VMs
//     to the shared cores; migration between them is left out, as the
//     facts file advises).
//   - "Minimum weight" is 1, the lowest weight Xen accepts (1..65535); the
//     interactive VM has Xen's default 256.
//   - The credit pool belongs to a cpupool: Xen's csched_private (pool C,
//     total weight W) is per scheduler instance, one per cpupool, and
//     csched_alloc_pdata adds 300 credits for each of its PCPUs. The paper
//     pins the VMs to shared cores and Dom0 to "the server's remaining
//     cores" (§6.1) and mentions no cpupools, so one pool holds every core
//     of the host: C = 4×300 per 30 ms on the X3450 (-host-pcpus; the
//     E5-2420's 6 gives nearly the same numbers). Table 1's "2-core
//     machine" is read as the VM's 2 cores (no server in §6.1 has 2); a
//     2-core host is -host-pcpus 2.
//   - Dom0 is idle by default: its cores' credits are in the pool, its
//     weight is not in W. -dom0 2 adds two Dom0 VCPUs that never block,
//     the most Dom0 can weigh in the accounting (an ablation).
//   - The interactive VM's request needs 4 CPU bursts of 2 ms
//     (exponential) with 5 ms IO waits between them, so at 85 requests/s
//     (600 TPC-W clients at ~7 s think time) it runs 581 VCPU-s of 1700
//     and answers in 24 ms alone, against Table 1's 606 s and 25 ms. This
//     profile was fitted to the alone column only. The batch VM never
//     blocks (-batch-burst/-batch-io let it do IO).
//
// # What it shows (default run, seed 1)
//
//	rate  sched   running  runnable  blocked  resp ms  boost%  queued%
//	  85  alone     581.2       0.0   1118.8     24.0    99.9      0.0
//	  85  credit    581.2      73.6   1045.1     25.4   100.0     32.1
//	  85  mi        581.2       0.0   1118.8     24.0    99.9      0.0
//	 120  credit    818.5     158.4    723.0     45.0   100.0     39.0  (alone, mi: 0.0 s, 25.4 ms)
//	 140  credit    850.0     850.0      0.0  75439.5   100.0     55.6  (alone, mi: 0.0 s, 26.8 ms)
//
// With closed-loop clients like TPC-W's (-clients N -think 7s, one 850 s
// run each), which self-limit:
//
//	clients  sched   running  runnable  blocked  resp ms  (Table 1, 600 clients)
//	    600  alone     582.9       0.0   1117.1     24.0  (605.9    1.9  1092.4   25)
//	    600  credit    582.8      74.5   1042.7     25.4  (656.4  524.4   520.2  175.5)
//	    900  alone     874.1       0.0    825.9     25.9
//	    900  credit    865.6     307.0    527.4     95.5
//	    900  mi        874.1       0.0    825.9     25.9
//
// MI brings the runnable time to 0 and the response time to the alone case
// at every rate (the batch VCPU is preempted at once, even within the 1 ms
// ratelimit), as the paper reports. Stock credit costs little at low load
// and collapses past ~120 requests/s, where alone and MI still answer in
// 25–27 ms: the shape of Fig. 5a (credit supports about half the load).
// But at Table 1's load the model shows 74 s runnable and 25 ms, not 524 s
// and 175 ms; its knee is at a higher load than the paper's.
//
// Why, in the model (each cause isolated by an ablation; runnable s of the
// interactive VM under credit, 850 s runs):
//
//	                                   85/s   120/s   140/s
//	default (pool 4 cores, Dom0 idle)  73.6   158.4   850.0
//	-ratelimit 0                        0.7    40.9   846.1
//	-host-pcpus 2                      73.3    99.5   106.4
//	-dom0 2 (busy Dom0 in the pool)    74.3   100.7   107.5
//	-host-pcpus 2 -ratelimit 0          0.4     0.4     0.4
//
// (1) At Table 1's load the waits are Xen 4.2's ratelimit, nothing else.
// Every wake of the interactive VCPUs is boosted (boost%), but a third of
// them (queued%) come less than 1 ms after the batch VCPU was dispatched,
// typically soon after the interactive VCPU blocked and handed it the
// core, and 4.2 then keeps the batch VCPU for a full 1 ms ratelimit slice
// counted from the wake (73.6 s over 72 948 queued wakes of 226 959: about
// 1 ms each). Without the ratelimit 0.7 s remain, and the pool and Dom0
// make no difference at this load (TestRatelimitAblation). Table 1's 524 s
// over as many wakes would be 2.3 ms per wake: every wake waiting twice
// the ratelimit, or one wake in 13 waiting a whole 30 ms slice.
//
// (2) The knee needs the batch VM to stay UNDER, which happens when
// credits are not scarce: with the idle Dom0 cores in the pool every
// active VCPU is given its peak of 300 credits per 30 ms (a whole core's
// worth) and the surplus goes to the batch VM whatever its weight. Boost is
// then the interactive VM's only advantage, and it is defeated under load:
// boost ends at the first tick that finds the VCPU running, and a VCPU
// with a backlog stops blocking, so it is not boosted again; at UNDER it
// round-robins 30 ms slices with the UNDER batch VCPU. Past the point where
// the VM needs more than half of each core this feeds on itself and the
// open Poisson arrivals run away: at 140/s each interactive VCPU gets
// exactly half its core. When credits are scarce — a pool of the 2 shared
// cores, or a busy Dom0 adding its weight — the minimum weight works: the
// batch VM falls OVER and the knee leaves the range; what remains is the
// ratelimit (TestCreditPoolAblation).
//
// (3) The paper's own second cause, "Hadoop may obtain boost priority and
// interrupt TPC-W", needs a batch VM that blocks (Word Count reads 15 GB).
// A boosted batch VCPU cannot be preempted by a boosted waker, and after a
// tick ends its boost it keeps the core to the end of its 30 ms slice (a
// tick never reschedules). With -batch-burst 20ms -batch-io 2ms (a guess,
// not the default: the batch VM is CPU-bound) credit's runnable
// time at 85/s is 124.9 s and 27.3 ms (53.7 s with -ratelimit 0): more,
// still far from 524 s.
//
// The model is not tuned to hit 524 s. Where it differs from the paper:
// the rate sweep is open-loop (the exponential gaps) and runs away
// past the knee where the paper's closed-loop clients self-limit (use
// -clients); a request is 4 CPU bursts, where a real multi-tier TPC-W
// wakes many more times per request (network packets, threads, its
// database), each wake a chance to land in a ratelimit slice or behind an
// unboosted slice; no VCPU migration or work stealing; Dom0's real load,
// caches and guest spinlocks are not modelled; alone has 0 runnable time
// (each VCPU has its core) where Table 1 has 1.9 s.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "xen:", err)
		os.Exit(1)
	}
}

// defaultRates are requests per second; 85 is Table 1's point (600 TPC-W
// clients at about 7 s think time).
const defaultRates = "20,40,60,85,100,120,140"

func run(args []string, out io.Writer) error {
	sc := DefaultScenario()
	fs := flag.NewFlagSet("xen", flag.ContinueOnError)
	rates := fs.String("rates", defaultRates, "request rates (per second) to sweep, comma-separated")
	seed := fs.Uint64("seed", 1, "random seed")
	asJSON := fs.Bool("json", false, "print the runs as JSON")
	plotDir := fs.String("plot", "", "write xen-response.png (response time vs request rate) into this directory")
	fs.DurationVar(&sc.Duration, "duration", sc.Duration, "simulated time per run")
	fs.IntVar(&sc.PCPUs, "pcpus", sc.PCPUs, "physical cores shared by the VMs (VCPUs pinned to them)")
	fs.IntVar(&sc.HostPCPUs, "host-pcpus", sc.HostPCPUs, "physical cores of the host, all in the credit pool (the others idle: Dom0's)")
	fs.IntVar(&sc.VCPUs, "vcpus", sc.VCPUs, "VCPUs per VM")
	fs.IntVar(&sc.Interactive, "interactive", sc.Interactive, "interactive VMs")
	fs.IntVar(&sc.Batch, "batch", sc.Batch, "CPU-bound batch VMs")
	fs.IntVar(&sc.Bursts, "bursts", sc.Bursts, "CPU bursts per request")
	fs.DurationVar(&sc.BurstMean, "burst", sc.BurstMean, "mean CPU burst")
	fs.DurationVar(&sc.IOMean, "io", sc.IOMean, "mean IO wait between bursts")
	fs.IntVar(&sc.Clients, "clients", 0, "closed-loop clients per interactive VM instead of the rate sweep (Table 1: 600)")
	fs.DurationVar(&sc.Think, "think", 7*time.Second, "closed-loop clients' mean think time")
	fs.DurationVar(&sc.BatchBurst, "batch-burst", sc.BatchBurst, "mean compute stretch of a batch VCPU between IO waits (0: never blocks)")
	fs.DurationVar(&sc.BatchIO, "batch-io", sc.BatchIO, "mean IO wait of a batch VCPU")
	fs.DurationVar(&sc.Ratelimit, "ratelimit", sc.Ratelimit, "Xen's sched_ratelimit (0: off), an ablation")
	fs.IntVar(&sc.Dom0, "dom0", sc.Dom0, "Dom0 VCPUs that never block, one per host core beyond -pcpus (0: Dom0 idle), an ablation")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var rs []float64
	for _, f := range strings.Split(*rates, ",") {
		r, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return fmt.Errorf("-rates: %v", err)
		}
		rs = append(rs, r)
	}
	runs, err := Sweep(sc, rs, *seed)
	if err != nil {
		return err
	}
	if *plotDir != "" {
		if err := Plot(*plotDir, runs); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Runs []Result `json:"runs"`
		}{runs})
	}
	printTable(out, sc, runs)
	return nil
}

// Sweep runs every set-up at every rate, rate by rate in the order alone,
// credit, mi. The runs are independent and deterministic, so they run on
// GOMAXPROCS goroutines without changing the results.
func Sweep(sc Scenario, rates []float64, seed uint64) ([]Result, error) {
	scheds := []string{Alone, Credit, MI}
	runs := make([]Result, len(rates)*len(scheds))
	errs := make([]error, len(runs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := range runs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			r, sched := rates[i/len(scheds)], scheds[i%len(scheds)]
			res, err := Simulate(sc, sched, r, seed)
			if err != nil {
				err = fmt.Errorf("%s at %v/s: %w", sched, r, err)
			}
			runs[i], errs[i] = res, err
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return runs, nil
}

func printTable(w io.Writer, sc Scenario, runs []Result) {
	fmt.Fprintf(w, "%d interactive VM(s) + %d batch VM(s), %d VCPUs each, pinned to %d of the host's %d PCPUs, %v per run\n",
		sc.Interactive, sc.Batch, sc.VCPUs, sc.PCPUs, sc.HostPCPUs, sc.Duration)
	fmt.Fprintf(w, "credit pool %d×300 per 30 ms (one cpupool, the whole host), %d busy Dom0 VCPU(s), ratelimit %v\n",
		sc.HostPCPUs, sc.Dom0, sc.Ratelimit)
	fmt.Fprintf(w, "interactive VM's VCPU-seconds (summed over its VCPUs) and mean response (000 Table 1, Fig. 5)\n\n")
	fmt.Fprintf(w, "%6s %-7s %10s %11s %10s %10s %10s %9s %8s %8s\n", "rate/s", "sched", "running s", "runnable s", "blocked s", "resp ms", "batch s", "requests", "boost%", "queued%")
	for _, r := range runs {
		fmt.Fprintf(w, "%6.4g %-7s %10.1f %11.1f %10.1f %10.1f %10.1f %9d %8.1f %8.1f\n",
			r.Rate, r.Scheduler, r.RunningS, r.RunnableS, r.BlockedS, r.MeanResponseMS, r.BatchS, r.Requests,
			pct(r.BoostedWakes, r.Wakes), pct(r.QueuedWakes, r.Wakes))
	}
	fmt.Fprintf(w, "\npaper (Table 1, 600 clients): alone running 605.9 runnable 1.9 blocked 1092.4, 25 ms;\n")
	fmt.Fprintf(w, "                              +WC min weight running 656.4 runnable 524.4 blocked 520.2, 175.5 ms\n")
	fmt.Fprintf(w, "(boost%%: wakes of the interactive VCPUs that were boosted; queued%%: wakes that had to wait in the run queue)\n")
	fmt.Fprintf(w, "(why credit differs from the paper: go doc ./examples/xen; ablations -ratelimit 0, -host-pcpus 2, -dom0 2, -batch-burst)\n")
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
