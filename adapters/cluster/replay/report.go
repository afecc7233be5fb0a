package replay

import (
	"fmt"
	"io"
	"math"
	"slices"
)

// Table writes one row per result: outcomes, waits, preemption, CPU and
// the ETA's calibration.
func Table(w io.Writer, rs []Result) {
	fmt.Fprintf(w, "%3s %5s %5s %9s %5s %4s %6s %8s %9s %13s %9s %9s %10s %12s %4s %9s %7s %7s %6s\n",
		"rep", "load", "offer", "config", "jobs", "met", "missed", "rejected", "adm.miss", "wait p50/p90", "overhead", "preempted", "lost pod-s",
		"cpu ctl/sch", "eta", "fin err50", "fin c90", "st c90", "wall")
	for _, r := range rs {
		eta := [4]string{"-", "-", "-", "-"}
		if r.ETA.N > 0 {
			eta = [4]string{fmt.Sprint(r.ETA.N), pct(r.ETA.FinishRelErrP50), pct(r.ETA.FinishCover90), pct(r.ETA.StartCover90)}
		}
		fmt.Fprintf(w, "%3d %5s %5.2f %9s %5d %4d %6d %8d %9s %13s %9s %9d %10.0f %12s %4s %9s %7s %7s %5.0fs\n",
			r.Rep, r.Load, r.Offer, r.Config, r.Jobs, r.Met, r.Missed, r.Rejected, pct(r.MissedShare),
			fmt.Sprintf("%.0f/%.0f s", r.WaitP50, r.WaitP90), fmt.Sprintf("%.0f/%.0f s", r.OverheadP50, r.OverheadP90), r.Preempted, r.WorkLost,
			fmt.Sprintf("%.0f/%.0f s", r.ControllerCPU, r.SchedulerCPU), eta[0], eta[1], eta[2], eta[3], r.Wall)
	}
}

// spreadFigures are the figures Spread gives the range of.
var spreadFigures = []struct {
	name string
	pct  bool
	f    func(Result) float64
}{
	{"met", false, func(r Result) float64 { return float64(r.Met) }},
	{"missed", false, func(r Result) float64 { return float64(r.Missed) }},
	{"rejected", false, func(r Result) float64 { return float64(r.Rejected) }},
	{"adm.miss", true, func(r Result) float64 { return r.MissedShare }},
	{"wait p50 s", false, func(r Result) float64 { return r.WaitP50 }},
	{"wait p90 s", false, func(r Result) float64 { return r.WaitP90 }},
	{"fin err50", true, func(r Result) float64 { return r.ETA.FinishRelErrP50 }},
	{"fin c90", true, func(r Result) float64 { return r.ETA.FinishCover90 }},
}

// Spread writes, per load and configuration, the range (smallest–largest)
// over repetitions of deadlines met, missed, rejected, the share of
// admitted that missed, creation → admission p50 and p90, and the ETA's
// p50 finish error and p90 coverage; nothing with one repetition.
func Spread(w io.Writer, rs []Result) {
	gs := groupByLoadConfig(rs, func(r Result) (string, Config) { return r.Load, r.Config })
	if len(gs) == 0 || len(gs[0]) < 2 {
		return
	}
	fmt.Fprintf(w, "\nrange over %d repetitions:\n%5s %9s", len(gs[0]), "load", "config")
	for _, f := range spreadFigures {
		fmt.Fprintf(w, " %11s", f.name)
	}
	fmt.Fprintln(w)
	for _, g := range gs {
		fmt.Fprintf(w, "%5s %9s", g[0].Load, g[0].Config)
		for _, f := range spreadFigures {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, r := range g {
				lo, hi = min(lo, f.f(r)), max(hi, f.f(r))
			}
			s := fmt.Sprintf("%.0f–%.0f", lo, hi)
			if f.pct {
				s = pct(lo) + "–" + pct(hi)
			}
			fmt.Fprintf(w, " %11s", s)
		}
		fmt.Fprintln(w)
	}
}

func pct(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }

// Loads returns the loads of the results in their first order.
func loads(rs []Result) []string {
	var out []string
	for _, r := range rs {
		if !slices.Contains(out, r.Load) {
			out = append(out, r.Load)
		}
	}
	return out
}
