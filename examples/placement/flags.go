package main

import (
	"io"
	"math"

	"github.com/schedkit/schedkit/examples/internal/cli"
)

// Bounds of the flags: at the largest values a run makes about 60 million
// predictions (a few minutes on one core, with progress on stderr).
const (
	maxSeeds  = 100
	maxRandom = 100_000
	maxEvals  = 200_000
	maxDiskMB = 100_000
)

const usage = "usage: placement [-seed N] [-seeds K] [-random M] [-evals E] [-disk MB/s] [-json] [-plot DIR]"

// options are the parsed and checked flags.
type options struct {
	config
	json    bool
	plotDir string
}

// parse parses and checks args; done reports that the program must exit
// with code.
func parse(args []string, stderr io.Writer) (o options, code int, done bool) {
	fs := cli.NewFlagSet("placement", usage, stderr)
	fs.Uint64Var(&o.Seed, "seed", 1, "first seed `N`: random candidates draw from PCG(N, 1), TARA from PCG(N, 2); the table uses seed N")
	fs.IntVar(&o.Seeds, "seeds", 10, "number `K` of seeds (N … N+K−1) in the budget and convergence study")
	fs.IntVar(&o.Random, "random", thesisBudget, "number `M` of random candidates in the Fig. 3.10 comparison")
	fs.IntVar(&o.Evals, "evals", 10_000, "TARA's evaluation budget `E` (the budget study also runs 300, the thesis's)")
	fs.Float64Var(&o.DiskMB, "disk", 100, "disk bandwidth of every server in `MB/s` (placement.DefaultDisk); 0 leaves disk time out")
	fs.BoolVar(&o.json, "json", false, "print JSON instead of tables")
	fs.StringVar(&o.plotDir, "plot", "", "write fig3_10.png and convergence.png into `DIR`")
	if code, done := cli.Parse(fs, args); done {
		return o, code, true
	}
	var c cli.Checker
	c.Uint("seed", o.Seed, 0, math.MaxUint64-maxSeeds)
	c.Int("seeds", o.Seeds, 1, maxSeeds)
	c.Int("random", o.Random, 1, maxRandom)
	c.Int("evals", o.Evals, 1, maxEvals)
	if !(o.DiskMB == 0 || o.DiskMB >= 1 && o.DiskMB <= maxDiskMB) {
		c.Failf("disk", "= %v: must be 0 (no disk time) or a number in [1, %d] MB/s", o.DiskMB, maxDiskMB)
	}
	c.Dir("plot", o.plotDir)
	if err := c.Err(); err != nil {
		return o, cli.Fail(stderr, "placement", err, cli.ExitUsage), true
	}
	return o, 0, false
}
