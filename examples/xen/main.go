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
// # Set-up (000 §6.1 and §4.1)
//
// Each VM has 2 VCPUs (§6.1); VCPU j of each VM is pinned to shared core j.
// The host has 4 cores (the X3450; the E5-2420 has 6, which behaves the
// same) and the other cores, Dom0's, are idle in the model, but they are in
// Xen's credit pool: C = 4×300 credits per 30 ms (-host-pcpus). The
// interactive VM's request needs 4 CPU bursts of 2 ms (exponential) with
// 5 ms IO waits between them, so at 85 requests/s (600 TPC-W clients at
// ~7 s think time) it runs 581 VCPU-s of 1700 and answers in 24 ms alone,
// against Table 1's 606 s and 25 ms. Runs last 850 s (Table 1's 1700
// VCPU-seconds). The batch VM never blocks.
//
// # What it shows (default run, seed 1)
//
//	rate  sched   running  runnable  blocked  resp ms
//	  85  alone     581.2       0.0   1118.8     24.0
//	  85  credit    581.2      73.6   1045.1     25.4
//	  85  mi        581.2       0.0   1118.8     24.0
//	 120  credit    818.5     158.4    723.0     45.0   (alone, mi: 0.0 s, 25.4 ms)
//	 140  credit    850.0     850.0      0.0  75439.5   (alone, mi: 0.0 s, 26.8 ms)
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
// ratelimit). Stock credit costs little at low load and collapses past
// ~120 requests/s, where alone and MI still answer in 25–27 ms: the shape of
// Fig. 5a (credit supports about half the load). Table 1's 524 s runnable
// and 175 ms at 600 clients sit between our 120 and 140 requests/s points.
//
// Why stock credit fails, in the model: (1) the minimum weight does not
// hold the batch VM down, because credits are not scarce. The pool counts
// all 4 host cores but the 4 VCPUs share 2, so each active VCPU is given
// its peak of 300 credits per 30 ms (a whole core's worth) and the surplus
// goes to the batch VM whatever its weight; the batch VCPUs stay UNDER like
// the interactive ones (with a pool of only the 2 shared cores,
// -host-pcpus 2, they fall OVER and the collapse moves out of the range:
// TestCreditPoolAblation). (2) Boost is then the interactive VM's only
// advantage, and it is defeated under load: boost ends at the first tick
// that finds the VCPU running, and a VCPU with a backlog of requests stops
// blocking, so it is never re-boosted; at UNDER it round-robins 30 ms slices
// with the batch VCPU, waiting 30 ms each time. Past the point where the
// VM needs more than half of each core this feeds on itself (more waiting,
// longer busy periods, fewer wakes) and the open Poisson arrivals run away:
// at 140/s each interactive VCPU gets exactly half its core. (3) At low
// load the waits are the 1 ms ratelimit: the batch VCPU, just dispatched
// after the interactive one blocked, keeps the core for 1 ms when the next
// wake comes (the "queued%" column).
//
// Where the model differs from the paper: the rate sweep is open-loop (the
// issue's exponential gaps), which runs away past the knee where the
// paper's closed-loop clients self-limit (use -clients for that); our
// VCPUs are pinned one per core with no migration or work stealing; Dom0,
// caches and the guests' own scheduling are not modelled; alone has 0
// runnable time (each VCPU has its core) where Table 1 has 1.9 s.
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
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
