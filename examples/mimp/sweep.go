package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/schedkit/schedkit/examples/internal/hadoopsim"
)

// SweepLoads are the offered utilizations of the Fig. 11 sweep.
var SweepLoads = []float64{0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3}

// SweepPolicies are the schedulers of 000 Fig. 11 (EDF, MIMP, MIMP w/AC)
// plus the strict admission variant.
var SweepPolicies = []hadoopsim.Policy{hadoopsim.EDF, hadoopsim.MP, hadoopsim.MPAC, hadoopsim.MPACStrict}

// sweepPoint is one entry of -sweep -json's "sweep" (names fixed by the issue).
type sweepPoint struct {
	Load     float64 `json:"load"`
	Policy   string  `json:"policy"`
	Met      int     `json:"met"`
	Missed   int     `json:"missed"`
	Rejected int     `json:"rejected"`
}

// sweep runs 30-minute Pi + TeraSort traces at each load (000 §6.5). Jobs
// still unfinished at the horizon count as missed.
func sweep(seed uint64, loads []float64) ([]sweepPoint, error) {
	var out []sweepPoint
	for _, load := range loads {
		sc := hadoopsim.SweepScenario(seed, load, hadoopsim.PaperError)
		for _, p := range SweepPolicies {
			r, err := hadoopsim.Run(&sc, p)
			if err != nil {
				return nil, fmt.Errorf("load %v %v: %w", load, p, err)
			}
			out = append(out, sweepPoint{Load: load, Policy: p.String(), Met: r.Met, Missed: r.Missed + r.Failed, Rejected: r.Rejected})
		}
	}
	return out, nil
}

func printSweep(w io.Writer, points []sweepPoint) error {
	fmt.Fprintln(w, "Admission under overload (000 §6.5, Fig. 11): 30-minute Pi + TeraSort traces")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "load\tpolicy\tmet\tmissed\trejected\t")
	for _, p := range points {
		fmt.Fprintf(tw, "%.2f\t%s\t%d\t%d\t%d\t\n", p.Load, p.Policy, p.Met, p.Missed, p.Rejected)
	}
	return tw.Flush()
}
