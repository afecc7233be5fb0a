// Command placement reproduces the TARA comparison of the Lee thesis
// (TARA, ch. 3: §3.3.4.2, Fig. 3.10 and Table 3.1) with the placement
// package's prediction engine and genetic search: the Sort benchmark (80 VMs,
// 2 GB per VM) on 20 racks × 40 servers whose uplinks range from 800 down to
// 200 Mbit/s.
//
//	go run ./examples/placement              # the tables below
//	go run ./examples/placement -json        # {"policies":[…],"budgets":[…],"convergence":[…],…}
//	go run ./examples/placement -plot out    # out/fig3_10.png, out/convergence.png
//	go run ./examples/placement -disk 50     # slower disks: more time placement cannot change
//
// It prints three tables. The first is Fig. 3.10 at the default budget
// (10,000 evaluations, seed 1): the predicted completion time of the
// heuristics RR-R, RR-S, H-1 and H-2, of the best, mean and worst of 300
// random candidates and of TARA, each split into its phases, with the share
// of the time spent in the network phases and the share that placement can
// change (the time the rack uplinks add: the servers are identical, so CPU,
// disk and NIC time is the same for every placement). The second is the
// thesis's comparison (Table 3.1): TARA against the best of as many random
// candidates as it evaluates, at 300 evaluations and at the default budget,
// with and without the heuristic placements seeded into the initial
// population, over seeds 1–10 (mean and range). The third is convergence:
// the mean best predicted time against evaluations. Each disk (placement.
// DefaultDisk, -disk) gives map and reduce their reads and spills and bounds
// the shuffle and write from below, so the model has time placement cannot
// change.
//
// # Results (go run ./examples/placement; 2-core machine shared with other
// builds, about 2 s)
//
// RESULTS
package main

import (
	"encoding/json"
	"io"
	"os"

	"github.com/schedkit/schedkit/examples/internal/cli"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the whole program; it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	o, code, done := parse(args, stderr)
	if done {
		return code
	}
	progress := stderr
	if o.json {
		progress = nil
	}
	prog := cli.NewProgress(progress, "placement", work(o.config))
	rep, err := study(o.config, prog)
	if err != nil {
		return cli.Fail(stderr, "placement", err, cli.ExitError)
	}
	prog.Done()
	if o.plotDir != "" {
		if err := writePlots(o.plotDir, rep); err != nil {
			return cli.Fail(stderr, "placement", err, cli.ExitError)
		}
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep)
	} else {
		err = writeText(stdout, rep)
	}
	if err != nil {
		return cli.Fail(stderr, "placement", err, cli.ExitError)
	}
	return cli.ExitOK
}
