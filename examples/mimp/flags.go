package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/schedkit/schedkit/examples/internal/cli"
	"github.com/schedkit/schedkit/examples/internal/hadoopsim"
)

const usage = `usage: mimp [-seed N] [-seeds K] [-sensitivity | -sweep] [-capacity MB/s] [-errors paper|none]
            [-offer heartbeat|cluster-order] [-read90 mean|p90] [-noiocheck] [-confidence P]
            [-trace FILE [-window S] [-maxmaps N]] [-json] [-plot DIR]

Runs the MIMP case study (MIMP §6.6, Table 3) under FIFO, EDF, MP-paper
(MIMP's MP), MP (MIMP's MP protecting deadlines against the models'
errors), MP+AC, MP+AC-paper and MP+AC-strict on K traces (seeds N …
N+K−1) and prints mean [min–max] over them, where MP's saving over EDF
comes from, what the deadline protection trades, and where the result
differs from the paper. -sensitivity repeats EDF and MP over
data-node capacities; -sweep runs the overload experiment of MIMP §6.5
(Fig. 11) at loads 0.5–3 on the same K seeds and sums them.

Flags:`

// defaultSeeds is -seeds' default, for the case study and the sweep.
const defaultSeeds = 10

// Flag limits: no flag can make a run take more than about a minute.
const (
	maxSeeds    = 100
	maxCapacity = 1e6 // MB/s per data node
	maxMapsCap  = 1 << 20
)

// options are the command-line flags.
type options struct {
	seed        uint64
	seeds       int
	json        bool
	sweep       bool
	sensitivity bool
	plotDir     string
	trace       string
	window      float64
	maxMaps     int
	settings
}

// settings are the modelling choices a run is made under; the defaults are
// the faithful ones.
type settings struct {
	capacity  float64 // MB/s per data node; 0 = unconstrained
	errors    string  // "paper" (MIMP §6.3.1) or "none"
	offer     string  // "heartbeat" or "cluster-order"
	read90    string  // "mean" or "p90"
	noIOCheck bool
	// confidence is the confidence MP's deadline protection
	// (hadoopsim.PredictionError.MPError) and MP+AC's margin (the quantile of
	// actual/predicted task time, hadoopsim.AdmissionMargin) are derived at.
	confidence float64
}

// defaultSettings are the faithful settings.
var defaultSettings = settings{capacity: 60, errors: "paper", offer: "heartbeat", read90: "mean", confidence: hadoopsim.AdmissionConfidence}

// margin is MP+AC's margin under s: the confidence quantile of the
// scheduler's actual/predicted task time (1 with exact estimates).
func (s settings) margin() (float64, error) {
	return s.predictionError().AdmissionMargin(s.confidence)
}

// predictionError is the hadoopsim setting of s.errors.
func (s settings) predictionError() hadoopsim.PredictionError {
	if s.errors == "none" {
		return hadoopsim.PredictionError{}
	}
	return hadoopsim.PaperError
}

// apply sets s on a scenario drawn with s.predictionError().
func (s settings) apply(sc *hadoopsim.Scenario) error {
	if s.confidence != hadoopsim.AdmissionConfidence { // the scenario has that one
		m, err := s.margin()
		if err != nil {
			return err
		}
		e, err := s.predictionError().MPError(s.confidence)
		if err != nil {
			return err
		}
		sc.Margin, sc.TCTError = m, e
	}
	if s.capacity == 0 {
		sc.Cluster.DataNodes = 0
	} else {
		sc.Cluster.NodeCapacity = s.capacity
	}
	if s.read90 == "p90" {
		sc.Types = hadoopsim.WithRead90Percentile(sc.Types, s.predictionError())
	}
	sc.Offer = hadoopsim.OfferHeartbeat
	if s.offer == "cluster-order" {
		sc.Offer = hadoopsim.OfferClusterOrder
	}
	sc.NoIOCheck = s.noIOCheck
	return nil
}

// describe says in words what s is.
func (s settings) describe() string { return dataNodes(s) + "; " + s.describeOthers() }

// dataNodes says in words what the data nodes of s are.
func dataNodes(s settings) string {
	if s.capacity == 0 {
		return "data nodes unconstrained"
	}
	return fmt.Sprintf("data nodes %d × %g MB/s", hadoopsim.CaseStudyCluster().DataNodes, s.capacity)
}

// describeOthers says in words what s is, leaving out the data nodes.
func (s settings) describeOthers() string {
	errs := "task times and the scheduler's errors as MIMP §6.3.1"
	if s.errors == "none" {
		errs = "exact estimates (every task takes its model's time)"
	}
	r90 := "Read90 = mean read rate"
	if s.read90 == "p90" {
		r90 = "Read90 = 90th percentile of the read rate"
	}
	io := "MP's IO check on"
	if s.noIOCheck {
		io = "MP's IO check off"
	}
	if s.confidence != defaultSettings.confidence {
		io += fmt.Sprintf("; MP's deadline protection and MP+AC's margin at confidence %g", s.confidence)
	}
	offer := "free slots offered in heartbeat order (a random VM order per dispatch)"
	if s.offer == "cluster-order" {
		offer = "free slots offered fastest first (cluster order)"
	}
	return fmt.Sprintf("%s; %s; %s; %s", errs, offer, r90, io)
}

// parse parses and checks args. done = true means exit with code now.
func parse(args []string, stderr io.Writer) (o options, code int, done bool) {
	fs := cli.NewFlagSet("mimp", usage, stderr)
	fs.Uint64Var(&o.seed, "seed", 1, "first seed `N` of the traces, task times, web load and heartbeat order")
	fs.IntVar(&o.seeds, "seeds", defaultSeeds, fmt.Sprintf("number `K` of traces (seeds), in [1, %d]; -sweep runs each load on each", maxSeeds))
	fs.BoolVar(&o.json, "json", false, "print JSON instead of tables")
	fs.BoolVar(&o.sweep, "sweep", false, "run the Fig. 11 overload sweep (MIMP §6.5) on -seed instead of the case study")
	fs.BoolVar(&o.sensitivity, "sensitivity", false, "run EDF and MP over data-node capacities 30 … 150 MB/s and unconstrained")
	fs.StringVar(&o.plotDir, "plot", "", "write PNG figures into `DIR`: fig15_<policy>.png (case study, first seed), fig11.png (-sweep), sensitivity.png (-sensitivity)")
	fs.StringVar(&o.trace, "trace", "", "SWIM trace `FILE` (tab-separated) to take arrivals and sizes from instead of the Poisson trace")
	fs.Float64Var(&o.window, "window", hadoopsim.CaseStudyDuration, "with -trace: keep jobs submitted in the first this many `seconds` (0 = all)")
	fs.IntVar(&o.maxMaps, "maxmaps", 0, "with -trace: cap each job's map count (0 = no cap)")
	fs.Float64Var(&o.capacity, "capacity", defaultSettings.capacity, "read capacity of each of the 6 data nodes in `MB/s`, 0 = unconstrained")
	fs.StringVar(&o.errors, "errors", defaultSettings.errors, "task-time variation and the scheduler's errors: paper (MIMP §6.3.1) or none (exact)")
	fs.StringVar(&o.offer, "offer", defaultSettings.offer, "order free slots are offered in: heartbeat (random per dispatch) or cluster-order (fastest first)")
	fs.StringVar(&o.read90, "read90", defaultSettings.read90, "the scheduler's Eq. 5 read rate: mean or p90 (the 90th percentile)")
	fs.BoolVar(&o.noIOCheck, "noiocheck", false, "switch MP's data-node IO check (Eq. 5) off")
	fs.Float64Var(&o.confidence, "confidence", defaultSettings.confidence, "MP's deadline protection and MP+AC's margin are derived at this `quantile` of the scheduler's actual/predicted task time, in [0.5, 1]")
	if code, done := cli.Parse(fs, args); done {
		return o, code, true
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var c cli.Checker
	c.Uint("seed", o.seed, 0, math.MaxUint64-maxSeeds)
	c.Int("seeds", o.seeds, 1, maxSeeds)
	if !(o.capacity == 0 || o.capacity >= hadoopsim.MinNodeCapacity && o.capacity <= maxCapacity) {
		c.Failf("capacity", "= %v: must be 0 (unconstrained) or a number in [%g, %g] MB/s", o.capacity, hadoopsim.MinNodeCapacity, maxCapacity)
	}
	c.OneOf("errors", o.errors, "paper", "none")
	c.OneOf("offer", o.offer, "heartbeat", "cluster-order")
	c.OneOf("read90", o.read90, "mean", "p90")
	c.Float("confidence", o.confidence, 0.5, 1)
	c.Float("window", o.window, 0, hadoopsim.MaxTime)
	c.Int("maxmaps", o.maxMaps, 0, maxMapsCap)
	c.File("trace", o.trace)
	c.Dir("plot", o.plotDir)
	if o.sweep && o.sensitivity {
		c.Failf("sweep", "and -sensitivity: choose one")
	}
	if o.trace != "" && o.sweep {
		c.Failf("trace", "= %q: -sweep draws its own Pi + TeraSort traces", o.trace)
	}
	for _, f := range []string{"window", "maxmaps"} {
		if set[f] && o.trace == "" {
			c.Failf(f, "applies only with -trace")
		}
	}
	if err := c.Err(); err != nil {
		return o, cli.Fail(stderr, "mimp", err, cli.ExitUsage), true
	}
	return o, 0, false
}

// readTrace reads the -trace file once.
func readTrace(path string) ([]byte, error) {
	if path == "" {
		return nil, nil
	}
	return os.ReadFile(path)
}
