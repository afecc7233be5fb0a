// Command progressshare compares the slot-share fair scheduler with delay
// scheduling (Algorithm 1 of thesis 004) and the progress-share scheduler
// (Algorithm 2, §4.3) on three scenarios:
//
//   - two-types: the §4.3.1.1 example (2 slots of N1, 4 of N2; job A 3× faster
//     on N1, B equally fast), each job's progress over time and finishing time
//     (-plot draws them like Fig. 4.6 and 4.7);
//   - gpu: the §4.4.2 case, crypto twice as fast on the GPU node, and sort, on
//     two nodes. crypto finishes 17% sooner under progress share (the thesis:
//     about 30%), sort unchanged; the gain depends on the order in which
//     slots freed together are offered (6% with a random order, negative with
//     the GPU node first). GPU's doc comment gives the reasons and the cap of
//     progress-share fairness, 1 − (3g+1)/(4g) for a per-slot speed-up g;
//   - alibaba: the Alibaba GPU trace v2023 (node inventory and pods grouped
//     into jobs, rules in Alibaba's doc comment), mean job completion time and
//     the spread of progress share. The trace is read from
//     ../shared/traces/alibaba-gpu-2023 beside the repository root (or
//     -alibaba DIR); when it is not there the scenario is skipped with a note.
//     It is not embedded: the trace's terms ask to check them before shipping
//     it in a release artefact.
//
// Usage:
//
//	go run ./examples/progressshare [-json] [-plot DIR] [-alibaba DIR]
//
// -json prints {"scenarios":[{"name","policy","jobs":[{"name","completion_s"}]}]}
// where completion_s is the job's completion time (finish − arrival) in
// seconds.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
)

// JSON output schema.
type jsonOut struct {
	Scenarios []jsonScenario `json:"scenarios"`
}

type jsonScenario struct {
	Name   string    `json:"name"`
	Policy string    `json:"policy"`
	Jobs   []jsonJob `json:"jobs"`
}

type jsonJob struct {
	Name        string  `json:"name"`
	CompletionS float64 `json:"completion_s"`
}

// A Comparison is a scenario with its results under both policies.
type Comparison struct {
	Scenario Scenario
	Results  []Result // slot share, then progress share
}

// RunAll runs every scenario under both policies. alibabaDir "" skips the
// trace run; compress divides the trace's arrival times (1 replays them as
// they are).
func RunAll(alibabaDir string, compress float64) ([]Comparison, error) {
	scs := []Scenario{TwoTypes(), GPU()}
	if alibabaDir != "" {
		sc, err := Alibaba(alibabaDir)
		if err != nil {
			return nil, err
		}
		if !(compress >= 1) {
			return nil, fmt.Errorf("-alibaba-compress %v: must be at least 1", compress)
		}
		for i := range sc.Jobs {
			sc.Jobs[i].Arrival /= compress
		}
		scs = append(scs, sc)
	}
	var runs []Comparison
	for _, sc := range scs {
		r := Comparison{Scenario: sc}
		for _, p := range []string{SlotShare, ProgressShare} {
			res, err := Run(sc, p)
			if err != nil {
				return nil, fmt.Errorf("%s/%s: %w", sc.Name, p, err)
			}
			r.Results = append(r.Results, res)
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// JSON builds the -json document.
func JSON(runs []Comparison) jsonOut {
	out := jsonOut{Scenarios: []jsonScenario{}}
	for _, r := range runs {
		for _, res := range r.Results {
			js := jsonScenario{Name: r.Scenario.Name, Policy: res.Policy, Jobs: []jsonJob{}}
			for i, j := range r.Scenario.Jobs {
				js.Jobs = append(js.Jobs, jsonJob{Name: j.Name, CompletionS: res.Completion[i]})
			}
			out.Scenarios = append(out.Scenarios, js)
		}
	}
	return out
}

// Report writes the human-readable summary.
func Report(w io.Writer, runs []Comparison) {
	for _, r := range runs {
		sc := r.Scenario
		fmt.Fprintf(w, "== %s: %d nodes, %d slots, %d node types, %d jobs (%d with more tasks than node types)\n",
			sc.Name, len(sc.Nodes), slotsOf(sc), len(sc.TypeNames), len(sc.Jobs), bigJobs(sc))
		for _, res := range r.Results {
			if len(sc.Jobs) <= 4 {
				fmt.Fprintf(w, "  %-15s", res.Policy)
				for i, j := range sc.Jobs {
					fmt.Fprintf(w, "  %s finishes at %6.1f s", j.Name, res.Completion[i])
				}
				fmt.Fprintf(w, "  (PS spread %.3f)\n", res.PSSpread)
				continue
			}
			c := slices.Clone(res.Completion)
			slices.Sort(c)
			sum := 0.0
			for _, x := range c {
				sum += x
			}
			fmt.Fprintf(w, "  %-15s mean JCT %10.0f s  median %8.0f s  p90 %9.0f s  PS spread: sd %.4f, range %.4f\n",
				res.Policy, sum/float64(len(c)), c[len(c)/2], c[len(c)*9/10], res.PSSpread, res.PSRange)
			fmt.Fprintf(w, "  %-15s %d decisions, %d declined by every job, peak %d of %d slots busy\n",
				"", res.Decisions, res.Waits, res.PeakBusy, slotsOf(sc))
		}
		if len(sc.Jobs) <= 4 {
			for i, j := range sc.Jobs {
				a, b := r.Results[0].Completion[i], r.Results[1].Completion[i]
				fmt.Fprintf(w, "  %s: progress share finishes %.0f%% sooner than slot share\n", j.Name, 100*(a-b)/a)
			}
		}
	}
}

func main() {
	asJSON := flag.Bool("json", false, "print the results as JSON")
	plotDir := flag.String("plot", "", "write PNG plots of progress and progress share into this directory")
	alibaba := flag.String("alibaba", FindAlibaba(), "directory of the Alibaba GPU trace v2023 (empty: skip that scenario)")
	compress := flag.Float64("alibaba-compress", 1, "divide the trace's arrival times by this factor (1: as recorded; a sensitivity study, not the default)")
	flag.Parse()
	runs, err := RunAll(*alibaba, *compress)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *plotDir != "" {
		if err := Plot(*plotDir, runs); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(JSON(runs)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if *alibaba == "" {
		fmt.Println("note: alibaba scenario skipped: ../shared/traces/alibaba-gpu-2023 not found beside the repository (use -alibaba DIR)")
	}
	Report(os.Stdout, runs)
}

func slotsOf(sc Scenario) int {
	n := 0
	for _, nd := range sc.Nodes {
		n += nd.Slots
	}
	return n
}

// bigJobs counts jobs with more tasks than node types: only they can run
// tasks after calibration gave them one slot of each type.
func bigJobs(sc Scenario) int {
	n := 0
	for _, j := range sc.Jobs {
		if j.Tasks > len(sc.TypeNames) {
			n++
		}
	}
	return n
}
