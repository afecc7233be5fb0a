package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/schedkit/schedkit/examples/internal/cli"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

const usage = `usage: xen [-clients LIST | -rates LIST] [-json] [-plot DIR] [-ratelimit-delays-background=true|false] [flags]

Replays MIMP Table 1 and Fig. 5a: an interactive VM beside a CPU-bound
batch VM on 2 shared cores, under Xen 4.2's credit scheduler (stock, batch
VM at weight 1) and MIMP's MI scheduler (batch VM in the background class).
Flags:`

// Table1Clients is the load this example calls Table 1's: 600 TPC-W
// clients (MIMP Table 1), about 85 requests per second at TPC-W's 7 s think
// time; with -rates, the open-loop rate Table1Rate.
const (
	Table1Clients = 600
	Table1Rate    = 85
)

// Bounds on the flags: each keeps a default-sized run within minutes.
const (
	maxDuration = 24 * time.Hour
	maxClients  = 100_000
	maxRate     = 10_000
	maxPoints   = 50
)

func run(args []string, stdout, stderr io.Writer) int {
	sc := DefaultScenario()
	fs := cli.NewFlagSet("xen", usage, stderr)
	clients := fs.String("clients", "200,400,600,800,1000", "closed-loop TPC-W-like clients per interactive VM to sweep, comma-separated (Fig. 5a's axis; 600 is Table 1's load)")
	rates := fs.String("rates", "", "open-loop request rates (per second) to sweep instead of -clients, comma-separated (85 is Table 1's load)")
	seed := fs.Uint64("seed", 1, "random seed")
	asJSON := fs.Bool("json", false, "print the runs as JSON on stdout")
	plotDir := fs.String("plot", "", "write xen-response.png and xen-runnable.png into `DIR`")
	fs.BoolVar(&sc.RatelimitDelaysBackground, "ratelimit-delays-background", sc.RatelimitDelaysBackground,
		"under MI, the 1 ms ratelimit keeps a background VCPU that has just been dispatched when a regular VCPU wakes (the MIMP prototype's Xen 4.2.1 code); false: it is preempted at once (MIMP §4.2). The other setting is reported as mi-exempt or mi-ratelimited")
	fs.DurationVar(&sc.Duration, "duration", sc.Duration, "simulated time per run (Table 1: 850 s)")
	fs.StringVar(&sc.Pinning, "pinning", sc.Pinning, `"vm": each VM pinned to the shared cores as a set, VCPUs move by Xen 4.2's rules; "vcpu": VCPU j pinned to core j`)
	fs.IntVar(&sc.PCPUs, "pcpus", sc.PCPUs, "physical cores shared by the VMs")
	fs.IntVar(&sc.HostPCPUs, "host-pcpus", sc.HostPCPUs, "physical cores of the host, all in the credit pool (the others run Dom0)")
	fs.IntVar(&sc.VCPUs, "vcpus", sc.VCPUs, "VCPUs per VM")
	fs.IntVar(&sc.Interactive, "interactive", sc.Interactive, "interactive VMs")
	fs.IntVar(&sc.Batch, "batch", sc.Batch, "batch VMs")
	fs.IntVar(&sc.BatchWeight, "batch-weight", sc.BatchWeight, "batch VM's credit weight under stock credit (1 is Xen's minimum; the interactive VM has 256)")
	fs.IntVar(&sc.Bursts, "bursts", sc.Bursts, "CPU bursts per request")
	fs.DurationVar(&sc.BurstMean, "burst", sc.BurstMean, "mean CPU burst (exponential)")
	fs.DurationVar(&sc.IOMean, "io", sc.IOMean, "mean IO wait between bursts (exponential)")
	fs.DurationVar(&sc.Think, "think", sc.Think, "closed-loop clients' mean think time (TPC-W: 7 s)")
	fs.DurationVar(&sc.BatchBurst, "batch-burst", sc.BatchBurst, "mean CPU time a batch VCPU runs between IO waits (0: never blocks)")
	fs.DurationVar(&sc.BatchIO, "batch-io", sc.BatchIO, "mean IO wait of a batch VCPU")
	fs.DurationVar(&sc.Ratelimit, "ratelimit", sc.Ratelimit, "Xen's sched_ratelimit (0: off)")
	fs.BoolVar(&sc.ActivateAtHead, "activate-at-head", sc.ActivateAtHead, "a domain that becomes active joins the head of the credit accounting's domain list, as Xen's code does; false: the tail (xencredit's default)")
	fs.IntVar(&sc.Dom0, "dom0", sc.Dom0, "Dom0 VCPUs that never block, one per host core beyond -pcpus (0: Dom0 idle)")
	if code, done := cli.Parse(fs, args); done {
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	var c cli.Checker
	var points []Point
	if *rates != "" {
		if set["clients"] {
			c.Failf("rates", "and -clients: give one of them")
		}
		for _, r := range listOf(&c, "rates", *rates, func(s string) (float64, bool) {
			r, err := strconv.ParseFloat(s, 64)
			return r, err == nil && r > 0 && r <= maxRate
		}, fmt.Sprintf("numbers in (0, %d]", maxRate)) {
			points = append(points, Point{Rate: r})
		}
	} else {
		for _, n := range listOf(&c, "clients", *clients, func(s string) (int, bool) {
			n, err := strconv.Atoi(s)
			return n, err == nil && n >= 1 && n <= maxClients
		}, fmt.Sprintf("integers in [1, %d]", maxClients)) {
			points = append(points, Point{Clients: n})
		}
	}
	if sc.Duration <= 0 || sc.Duration > maxDuration {
		c.Failf("duration", "= %v: must be in (0s, %v]", sc.Duration, maxDuration)
	}
	c.OneOf("pinning", sc.Pinning, PinVM, PinVCPU)
	c.Int("pcpus", sc.PCPUs, 1, 64)
	c.Int("host-pcpus", sc.HostPCPUs, max(sc.PCPUs, 1), 1024)
	c.Int("vcpus", sc.VCPUs, 1, 64)
	c.Int("interactive", sc.Interactive, 1, 64)
	c.Int("batch", sc.Batch, 0, 64)
	c.Int("batch-weight", sc.BatchWeight, 1, 65535)
	c.Int("bursts", sc.Bursts, 1, 1000)
	checkDuration(&c, "burst", sc.BurstMean, false)
	checkDuration(&c, "io", sc.IOMean, true)
	checkDuration(&c, "think", sc.Think, false)
	checkDuration(&c, "batch-burst", sc.BatchBurst, true)
	checkDuration(&c, "batch-io", sc.BatchIO, true)
	if r := sc.Ratelimit; r != 0 && (r < 100*time.Microsecond || r > 30*time.Millisecond) {
		c.Failf("ratelimit", "= %v: must be 0 (off) or in [100µs, 30ms] (Xen's range, at most the 30 ms timeslice)", r)
	}
	c.Int("dom0", sc.Dom0, 0, max(sc.HostPCPUs-sc.PCPUs, 0))
	c.Dir("plot", *plotDir)
	if err := c.Err(); err != nil {
		return cli.Fail(stderr, "xen", err, cli.ExitUsage)
	}
	// The work of each run, checked before any of it starts.
	for _, pt := range points {
		s := sc
		s.Clients = pt.Clients
		if err := s.Validate(); err != nil {
			return cli.Fail(stderr, "xen", err, cli.ExitUsage)
		}
		if err := s.checkWork(pt.Rate); err != nil {
			return cli.Fail(stderr, "xen", workProblem(err.(*WorkError), pt), cli.ExitUsage)
		}
	}

	var progress *cli.Progress
	if !*asJSON {
		progress = cli.NewProgress(stderr, "xen: runs", len(points)*len(setUps(sc)))
	}
	runs, err := Sweep(sc, points, *seed, func() { progress.Add(1) })
	progress.Done()
	if err != nil {
		return cli.Fail(stderr, "xen", err, cli.ExitError)
	}
	for i := range runs {
		r := &runs[i]
		r.Table1 = r.Clients == Table1Clients || (r.Clients == 0 && r.Rate == Table1Rate)
	}
	return cli.Emit(stdout, stderr, "xen", cli.Output{
		PlotDir: *plotDir, Plot: func(dir string) error { return Plot(dir, sc, runs) },
		JSON: *asJSON, Doc: func() any { return report(sc, *seed, runs) },
		Text: func(w io.Writer) error { printReport(w, sc, *seed, runs); return nil },
	})
}

// workProblem restates a WorkError in terms of the flags that set its field.
func workProblem(e *WorkError, pt Point) error {
	per := fmt.Sprintf("needs about %.3g events per simulated second, at most %.0g", e.Rate, MaxEventRate)
	switch e.Field {
	case "BatchBurst+BatchIO":
		return fmt.Errorf("-batch-burst + -batch-io = %s: batch VCPUs that block and wake this often %s; use a longer mean", e.Value, per)
	case "Clients/Think":
		return fmt.Errorf("-clients = %d with -think, -bursts, -burst and -io: requests this frequent %s", pt.Clients, per)
	case "rate":
		return fmt.Errorf("-rates = %s: requests this frequent %s", e.Value, per)
	}
	return fmt.Errorf("-duration = %s: about %.3g events at %.3g per simulated second, at most %.0g per run; use a shorter -duration", e.Value, e.Total, e.Rate, MaxEvents)
}

// listOf parses a comma-separated list of at most maxPoints values with
// parse, recording a problem naming the flag when an element is malformed or
// out of range (want says what the elements must be).
func listOf[T any](c *cli.Checker, name, s string, parse func(string) (T, bool), want string) []T {
	var out []T
	fields := strings.Split(s, ",")
	if len(fields) > maxPoints {
		c.Failf(name, "= %q: at most %d values", s, maxPoints)
		return nil
	}
	for _, f := range fields {
		v, ok := parse(strings.TrimSpace(f))
		if !ok {
			c.Failf(name, "= %q: %q is not one of the %s it must list", s, strings.TrimSpace(f), want)
			return nil
		}
		out = append(out, v)
	}
	return out
}

// checkDuration checks a mean time flag: (0, 1h], or [0, 1h] when zero is
// allowed.
func checkDuration(c *cli.Checker, name string, d time.Duration, zero bool) {
	lo := "(0s"
	if zero {
		lo = "[0s"
	}
	if d < 0 || (d == 0 && !zero) || d > time.Hour {
		c.Failf(name, "= %v: must be in %s, 1h0m0s]", d, lo)
	}
}
