// Command xen replays 000 Table 1 and Fig. 5 in simulation: an interactive
// VM (requests with exponential gaps, short CPU bursts, blocking on IO)
// beside a CPU-bound batch VM on a shared 2-core host, under the
// xencredit state machine — the interactive VM alone, stock credit with the
// batch VM at minimum weight, and MI with the batch VM in the background
// class — over a range of request rates. No hypervisor is involved: a
// discrete-event driver (examples/internal/des) calls the scheduler's
// events (ticks every 10 ms, accounting every 30 ms, slice ends, wakes and
// blocks).
//
//	go run ./examples/xen                 # table at each rate
//	go run ./examples/xen -json           # {"runs":[...]}
//	go run ./examples/xen -plot out/      # out/xen-response.png
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
	fs.IntVar(&sc.PCPUs, "pcpus", sc.PCPUs, "physical cores")
	fs.IntVar(&sc.VCPUs, "vcpus", sc.VCPUs, "VCPUs per VM")
	fs.IntVar(&sc.Interactive, "interactive", sc.Interactive, "interactive VMs")
	fs.IntVar(&sc.Batch, "batch", sc.Batch, "CPU-bound batch VMs")
	fs.IntVar(&sc.Bursts, "bursts", sc.Bursts, "CPU bursts per request")
	fs.DurationVar(&sc.BurstMean, "burst", sc.BurstMean, "mean CPU burst")
	fs.DurationVar(&sc.IOMean, "io", sc.IOMean, "mean IO wait between bursts")
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
	fmt.Fprintf(w, "%d interactive VM(s) + %d batch VM(s), %d VCPUs each, on %d PCPUs, %v per run\n",
		sc.Interactive, sc.Batch, sc.VCPUs, sc.PCPUs, sc.Duration)
	fmt.Fprintf(w, "interactive VM's VCPU-seconds (summed over its VCPUs) and mean response (000 Table 1, Fig. 5)\n\n")
	fmt.Fprintf(w, "%6s %-7s %10s %11s %10s %10s %10s %9s %8s %8s\n", "rate/s", "sched", "running s", "runnable s", "blocked s", "resp ms", "batch s", "requests", "boost%", "queued%")
	for _, r := range runs {
		fmt.Fprintf(w, "%6g %-7s %10.1f %11.1f %10.1f %10.1f %10.1f %9d %8.1f %8.1f\n",
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
