// Command mimp reproduces the MIMP case study (MIMP §6.6, Table 3): a 20-VM
// Hadoop cluster whose map slots share hosts with web servers runs 2.5 h
// traces of six job types under FIFO, EDF, MP (progress-aware, package edf)
// and MP with admission control (package admission: wave-aware, the paper's
// rule and strict), over several traces, and says where MP's saving comes
// from and where the results differ from the paper. -sensitivity repeats EDF
// and MP over data-node capacities; -sweep runs the overload experiment of
// MIMP §6.5 (Fig. 11).
//
//	go run ./examples/mimp                  # Table 3 over seeds 1–10
//	go run ./examples/mimp -json            # {"policies":[...], "mp_saving":{...}, ...}
//	go run ./examples/mimp -sensitivity     # MP's saving against data-node capacity
//	go run ./examples/mimp -sweep -json     # {"sweep":[...]}
//	go run ./examples/mimp -plot out        # fig15_<policy>.png
//	go run ./examples/mimp -trace ../shared/traces/swim-facebook/FB-2009_samples_24_times_1hr_0.tsv
//
// # Settings
//
// The defaults are the faithful settings; each is a flag so its effect can
// be seen. A task's bytes are conserved under data-node overload (it reads
// slower, not more); free slots are offered in heartbeat order (a seeded
// random VM order at every dispatch; -offer cluster-order offers the
// fastest first); a VM's two slots share one web VM's load; task times vary
// around the model so that the scheduler's predictions err as MIMP §6.3.1
// reports (57% too long by 35%, the rest too short by 29%; -errors none
// makes them exact), and the scheduler sees only its estimates; the data
// nodes are 6 × 60 MB/s (-capacity; the paper gives no figure). The
// simulation engine is examples/internal/hadoopsim; its package comment
// lists every modelling choice.
//
// # Results (go run ./examples/mimp, seeds 1–10)
//
// MP uses 3.6% [3.1–3.9%] less total task time than EDF (71.00 → 68.47 h;
// the paper: 6.4%). Of the 2.53 h, 2.15 h is IO slowdown MP's IO check
// avoids (EDF loses 2.58 h to overloaded data nodes, MP 0.43 h) and 0.38 h
// is run time outside overload. With the data nodes unconstrained, matching
// tasks to slots alone saves 1.1% [0.9–1.3%]; at 60 MB/s without MP's IO
// check it saves 1.7%. The saving grows as the data nodes shrink
// (-sensitivity: 17.2% at 30 MB/s, 10.9% at 40, 6.7% at 50, 1.0–1.1% from 80
// MB/s up), and where the check binds hardest MP misses far more deadlines
// (80.8 against EDF's 16.1 per trace at 30 MB/s). At 60 MB/s MP misses 3.7
// [0–9] deadlines per trace against EDF's 0.9 [0–3] (the paper: 1 vs 2): it
// finishes jobs nearer their deadlines (5th-percentile slack 9% of the
// relative deadline against EDF's 22%), and task times off the model by the
// paper's errors push some late; with exact estimates MP misses 1.0, EDF 0.
// Under less faithful settings taken together (bytes growing under overload,
// fastest slot first, web load per slot, exact estimates with 10% noise; not
// all of them are flags) the same seeds gave MP 7.5% [6.0–9.1%]. Over 30
// traces (-seeds 30) the saving is 3.7% [3.0–4.2%].
//
// # The overload sweep (-sweep)
//
// 30-minute Pi + TeraSort traces on the 40-slot case-study cluster at
// offered loads 0.5–3 of our choosing (MIMP's Fig. 11 comes from a 4-slot
// cluster and prints no load values), each load on the -seeds traces
// (default 10), summed. MP+AC is wave-aware admission (package admission's
// default mode) with margin 2.17 — the 0.97 quantile of actual/predicted
// task time under MIMP §6.3.1's errors — and MP slack 1.17. Over seeds 1–10
// it lets at most 2.5% of the jobs it admits miss at any load (13 of 515
// at load 1.25) and at load 3 meets 536 deadlines against EDF's 132 and
// MP's 63 (4.1×). MIMP's rule (MP+AC-paper) lets 29% of the jobs it admits
// miss at load 1 and 89% at load 3 — every job it admitted at load 1 took
// longer than its Eq. 7 prediction, 1.98× at the median — and strict Eq. 6
// (MP+AC-strict) 28% and 85%. The price of the margin: at light load
// MP+AC rejects jobs EDF meets (270 met against EDF's 301 at load 0.5).
// -confidence trades the two: 0.9 (margin 1.80) lets up to 3.7% miss (load
// 2.5) and meets 525 at load 3; 0.95 (2.05) up to 2.5% and 542. The margin
// covers more than the task-time errors it is read from: with exact
// estimates (-errors none) it is 1, and 65% of the jobs MP+AC admits at
// load 3 miss (12% at load 1), because the plan is EDF on the slots as
// they are now, while MP serves jobs it deems on track less than EDF
// would, the data nodes overload, the heartbeat offers free slots in
// random order and web load is redrawn every minute. With -offer
// cluster-order MP+AC lets at most 1.3% miss; with -capacity 0, 2.7%.
package main

import (
	"encoding/json"
	"io"
	"os"

	"github.com/schedkit/schedkit/examples/internal/cli"
	"github.com/schedkit/schedkit/examples/internal/hadoopsim"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the whole program; it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	o, code, done := parse(args, stderr)
	if done {
		return code
	}
	fail := func(err error) int { return cli.Fail(stderr, "mimp", err, cli.ExitError) }
	progress := stderr
	if o.json {
		progress = nil
	}
	switch {
	case o.sweep:
		points, err := sweep(o.seed, o.seeds, o.settings, SweepLoads, SweepPolicies, cli.NewProgress(progress, "sweep", len(SweepLoads)*o.seeds*len(SweepPolicies)))
		if err != nil {
			return fail(err)
		}
		m, err := o.settings.margin()
		if err != nil {
			return fail(err)
		}
		r := sweepResult{points: points, margin: m}
		if o.plotDir != "" {
			if err := plotSweep(o.plotDir, points); err != nil {
				return fail(err)
			}
		}
		if o.json {
			return done1(writeJSON(stdout, sweepJSON(o, r)), stderr)
		}
		return done1(printSweep(stdout, o, r), stderr)
	case o.sensitivity:
		rows, err := sensitivity(o, cli.NewProgress(progress, "sensitivity", len(capacities)*o.seeds*3))
		if err != nil {
			return fail(err)
		}
		if o.plotDir != "" {
			if err := plotSensitivity(o.plotDir, rows); err != nil {
				return fail(err)
			}
		}
		if o.json {
			return done1(writeJSON(stdout, sensitivityJSON(o, rows)), stderr)
		}
		return done1(printSensitivity(stdout, o, rows), stderr)
	}
	trace, err := readTrace(o.trace)
	if err != nil {
		return fail(err)
	}
	prog := cli.NewProgress(progress, "case study", o.seeds*len(hadoopsim.Policies)+ablationRuns(o.settings, o.seeds))
	s, err := runStudy(o, o.settings, trace, hadoopsim.Policies, prog)
	if err != nil {
		return fail(err)
	}
	abl, err := runAblations(o, s, trace, prog)
	if err != nil {
		return fail(err)
	}
	prog.Done()
	rp := buildReport(o, s, abl)
	if o.plotDir != "" {
		if err := plotAllocation(o.plotDir, &s.scen[0], s.res[0]); err != nil {
			return fail(err)
		}
	}
	if o.json {
		return done1(writeJSON(stdout, rp), stderr)
	}
	return done1(printReport(stdout, rp), stderr)
}

// done1 turns a write error into exit code 1.
func done1(err error, stderr io.Writer) int {
	if err != nil {
		return cli.Fail(stderr, "mimp", err, cli.ExitError)
	}
	return cli.ExitOK
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
