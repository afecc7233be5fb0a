package replay

import (
	"fmt"
	"io"
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

// Spread writes, per load and configuration, the range over repetitions
// of deadlines met, missed, rejected and the share of admitted that
// missed; nothing with one repetition.
func Spread(w io.Writer, rs []Result) {
	type key struct {
		load string
		c    Config
	}
	var keys []key
	by := map[key][]Result{}
	for _, r := range rs {
		k := key{r.Load, r.Config}
		if _, ok := by[k]; !ok {
			keys = append(keys, k)
		}
		by[k] = append(by[k], r)
	}
	if len(by[keys[0]]) < 2 {
		return
	}
	fmt.Fprintf(w, "\nrange over %d repetitions:\n%5s %9s %9s %9s %9s %11s %11s\n", len(by[keys[0]]), "load", "config", "met", "missed", "rejected", "adm.miss", "fin c90")
	for _, k := range keys {
		g := by[k]
		rng := func(f func(Result) float64, p bool) string {
			lo, hi := f(g[0]), f(g[0])
			for _, r := range g {
				lo, hi = min(lo, f(r)), max(hi, f(r))
			}
			if p {
				return pct(lo) + "–" + pct(hi)
			}
			return fmt.Sprintf("%.0f–%.0f", lo, hi)
		}
		fmt.Fprintf(w, "%5s %9s %9s %9s %9s %11s %11s\n", k.load, k.c,
			rng(func(r Result) float64 { return float64(r.Met) }, false),
			rng(func(r Result) float64 { return float64(r.Missed) }, false),
			rng(func(r Result) float64 { return float64(r.Rejected) }, false),
			rng(func(r Result) float64 { return r.MissedShare }, true),
			rng(func(r Result) float64 { return r.ETA.FinishCover90 }, true))
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
