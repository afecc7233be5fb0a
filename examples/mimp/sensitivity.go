package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/schedkit/schedkit/examples/internal/cli"
	"github.com/schedkit/schedkit/examples/internal/hadoopsim"
)

// capacities are the data-node read capacities of -sensitivity, MB/s per
// node; 0 is the unconstrained row.
var capacities = []float64{30, 40, 50, 60, 80, 100, 150, 0}

// sensitivityRow is EDF, MP and MP without its IO check at one capacity,
// over the seeds.
type sensitivityRow struct {
	CapacityMBs   float64 `json:"node_capacity_mb_s"`
	Unconstrained bool    `json:"unconstrained"`
	EDFHours      stat    `json:"edf_total_task_hours"`
	MPHours       stat    `json:"mp_total_task_hours"`
	Saving        stat    `json:"mp_saving_pct"`
	SavingNoIO    stat    `json:"mp_no_io_check_saving_pct"`
	EDFIOSlow     stat    `json:"edf_io_slowdown_hours"`
	MPIOSlow      stat    `json:"mp_io_slowdown_hours"`
	EDFMissed     stat    `json:"edf_missed"`
	MPMissed      stat    `json:"mp_missed"`
	MPNoIOMissed  stat    `json:"mp_no_io_check_missed"`
}

// sensitivity runs EDF, MP and MP without its IO check at every capacity
// under o's other settings.
func sensitivity(o options, prog *cli.Progress) ([]sensitivityRow, error) {
	trace, err := readTrace(o.trace)
	if err != nil {
		return nil, err
	}
	var rows []sensitivityRow
	for _, c := range capacities {
		st := o.settings
		st.capacity = c
		s, err := runStudy(o, st, trace, []hadoopsim.Policy{hadoopsim.EDF, hadoopsim.MP}, prog)
		if err != nil {
			return nil, err
		}
		st.noIOCheck = true
		n, err := runStudy(o, st, trace, []hadoopsim.Policy{hadoopsim.MP}, prog)
		if err != nil {
			return nil, err
		}
		edf, mp, mpn := s.of(hadoopsim.EDF), s.of(hadoopsim.MP), n.of(hadoopsim.MP)
		hours := func(r hadoopsim.Result) float64 { return r.TaskHours }
		slow := func(r hadoopsim.Result) float64 { return r.IOSlowdownHours }
		missed := func(r hadoopsim.Result) float64 { return float64(r.Missed) }
		rows = append(rows, sensitivityRow{CapacityMBs: c, Unconstrained: c == 0,
			EDFHours: statOf(over(edf, hours)).rounded(3), MPHours: statOf(over(mp, hours)).rounded(3),
			Saving: statOf(savings(edf, mp)).rounded(3), SavingNoIO: statOf(savings(edf, mpn)).rounded(3),
			EDFIOSlow: statOf(over(edf, slow)).rounded(3), MPIOSlow: statOf(over(mp, slow)).rounded(3),
			EDFMissed: statOf(over(edf, missed)), MPMissed: statOf(over(mp, missed)), MPNoIOMissed: statOf(over(mpn, missed))})
	}
	prog.Done()
	return rows, nil
}

// sensitivityNote says what the table shows.
func sensitivityNote(rows []sensitivityRow) string {
	var tight, free sensitivityRow
	for _, r := range rows {
		if r.Unconstrained {
			free = r
		} else if tight.CapacityMBs == 0 || r.CapacityMBs < tight.CapacityMBs {
			tight = r
		}
	}
	note := fmt.Sprintf("Matching tasks to slots alone (unconstrained data nodes) saves %.1f%%; the IO check's share grows as the data nodes shrink, to %.1f%% at %g MB/s, where EDF loses %.1f h to overload.",
		free.Saving.Mean, tight.Saving.Mean, tight.CapacityMBs, tight.EDFIOSlow.Mean)
	if tight.MPMissed.Mean > tight.EDFMissed.Mean {
		note += fmt.Sprintf(" There MP misses %.1f deadlines per trace against EDF's %.1f: the IO check holds data-reading tasks back.", tight.MPMissed.Mean, tight.EDFMissed.Mean)
	}
	return note + fmt.Sprintf(" MIMP gives no data-node capacity or read rates, so its %.1f%% fixes no point on this curve.", paperSaving)
}

func sensitivityJSON(o options, rows []sensitivityRow) any {
	seeds := make([]uint64, o.seeds)
	for k := range seeds {
		seeds[k] = o.seed + uint64(k)
	}
	return struct {
		Seeds       []uint64         `json:"seeds"`
		Settings    string           `json:"settings"`
		DataNodes   int              `json:"data_nodes"`
		Sensitivity []sensitivityRow `json:"sensitivity"`
		Note        string           `json:"note"`
	}{seeds, o.settings.describe(), hadoopsim.CaseStudyCluster().DataNodes, rows, sensitivityNote(rows)}
}

func printSensitivity(w io.Writer, o options, rows []sensitivityRow) error {
	fmt.Fprintf(w, "Data-node sensitivity of the MIMP case study (MIMP §6.6): EDF and MP on seeds %d–%d against the read capacity of each of the %d data nodes.\n",
		o.seed, o.seed+uint64(o.seeds)-1, hadoopsim.CaseStudyCluster().DataNodes)
	fmt.Fprintf(w, "Other settings: %s.\nCells: mean [min–max] over the runs; saving = MP's total task time below EDF's.\n\n", o.settings.describeOthers())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "capacity\tEDF total TCT (h)\tMP total TCT (h)\tMP saving (%)\tno IO check (%)\tIO slowdown EDF / MP (h)\tmissed EDF / MP / no IO check\t")
	for _, r := range rows {
		c := fmt.Sprintf("%g MB/s", r.CapacityMBs)
		if r.Unconstrained {
			c = "unconstrained"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2f / %.2f\t%.1f / %.1f / %.1f\t\n", c, r.EDFHours.cell(2, 2), r.MPHours.cell(2, 2),
			r.Saving.cell(1, 1), r.SavingNoIO.cell(1, 1), r.EDFIOSlow.Mean, r.MPIOSlow.Mean, r.EDFMissed.Mean, r.MPMissed.Mean, r.MPNoIOMissed.Mean)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, wrap(sensitivityNote(rows), ""))
	return nil
}
