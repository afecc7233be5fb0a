package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// printReport prints the case study in the layout of MIMP Table 3, then
// MP's saving and its sources, the ablations, the terms and where the
// results differ from the paper.
func printReport(w io.Writer, rp *report) error {
	t := rp.Traces
	n := len(rp.Settings.Seeds)
	seeds := fmt.Sprintf("seed %d", rp.Settings.Seeds[0])
	if n > 1 {
		seeds = fmt.Sprintf("seeds %d–%d", rp.Settings.Seeds[0], rp.Settings.Seeds[n-1])
	}
	src := "Poisson traces of six job types"
	if rp.Settings.Trace != "" {
		src = "SWIM trace " + rp.Settings.Trace
	}
	fmt.Fprintf(w, "MIMP case study (MIMP §6.6, Table 3): %d runs (%s) of %s, %s jobs (%s with a deadline) over %s h on %d map slots, offered utilization %s.\n",
		n, seeds, src, t.Jobs.cell(1, 0), t.DeadlineJobs.cell(1, 0), t.Hours.cell(2, 2), t.Slots, t.OfferedUtilization.cell(2, 2))
	fmt.Fprintf(w, "Settings: %s.\n", rp.Settings.Description)
	if n > 1 {
		fmt.Fprintln(w, "Cells: mean over the runs [min–max].")
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for _, p := range rp.Policies {
		fmt.Fprintf(tw, "%s\t", p.Name)
	}
	fmt.Fprintln(tw)
	for _, m := range metrics {
		fmt.Fprintf(tw, "%s\t", m.label)
		for _, p := range rp.Policies {
			fmt.Fprintf(tw, "%s\t", rp.stats[p.Name][m.key].cell(m.prec, m.rangePrec))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, rp.paperLine)
	if pe, ok := rp.errs["MP"]; ok {
		fmt.Fprintf(w, "The scheduler's TCT predictions on MP's completed tasks: %.0f%% too long, by %.0f%% on average, the rest too short by %.0f%% (MIMP §6.3.1: 57%%, 35%%, 29%%).\n",
			100*pe.OverShare, 100*pe.MeanOver, 100*pe.MeanUnder)
	}
	if rp.MPSaving.Sources != "" {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "MP's saving over EDF: %s%% of total task time (MIMP Table 3: %.1f%%). Where it comes from:\n", rp.MPSaving.Percent.cell(1, 1), paperSaving)
		fmt.Fprint(w, wrap(rp.MPSaving.Sources, "  "))
	}
	if g := rp.Guard; g.Text != "" {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "MP's deadline protection (edf.MPOptions.TCTError at confidence %g: Mean %.3f, Spread %.3f), what it trades:\n", g.Confidence, g.Mean, g.Spread)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "\t#Miss deadline\tsaving over EDF (%)\t")
		fmt.Fprintf(tw, "  EDF\t%s\t\t\n", g.EDFMissed.cell(1, 0))
		fmt.Fprintf(tw, "  MP-paper (without)\t%s\t%s\t\n", g.MPPaperMissed.cell(1, 0), g.MPPaperSaving.cell(1, 1))
		fmt.Fprintf(tw, "  MP (with)\t%s\t%s\t\n", g.MPMissed.cell(1, 0), g.MPSaving.cell(1, 1))
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprint(w, wrap(g.Text, "  "))
	}
	if len(rp.Ablations) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "The same traces with one setting changed (MP's saving over EDF; deadlines missed by EDF / MP-paper / MP, means):")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, a := range rp.Ablations {
			fmt.Fprintf(tw, "  %s\t%s\t%s%%\t%.1f / %.1f / %.1f\n", a.Flag, a.Name, a.Saving.cell(1, 1), a.EDFMissed.Mean, a.MPPaperMissed.Mean, a.MPMissed.Mean)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Terms:")
	for _, s := range rp.Terms {
		fmt.Fprint(w, wrap(s, "  "))
	}
	if len(rp.Differs) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Differs from the paper because:")
		for _, s := range rp.Differs {
			fmt.Fprint(w, wrap("- "+s, "  "))
		}
	}
	return nil
}

// wrap breaks s into lines of at most 100 characters, the first starting
// with indent and the rest indented two more, each ending in a newline.
func wrap(s, indent string) string {
	var b strings.Builder
	line := indent
	for i, word := range strings.Fields(s) {
		if i > 0 && len([]rune(line))+1+len([]rune(word)) > 100 {
			b.WriteString(line + "\n")
			line = indent + "  "
		} else if i > 0 {
			line += " "
		}
		line += word
	}
	b.WriteString(line + "\n")
	return b.String()
}
