// Command placement reproduces the TARA comparison of thesis 004 §3.3.4.2
// and Fig. 3.10 with the placement package's prediction engine: the Sort
// benchmark (80 VMs, 2 GB per VM) on 20 racks × 40 servers whose uplinks range
// from 800 down to 200 Mbit/s. It prints the predicted completion time of the
// heuristics RR-R, RR-S, H-1 and H-2, of the best, mean and worst of 300
// random candidates, and of TARA's genetic search.
//
// Usage:
//
//	placement [-seed N] [-random 300] [-evals 10000] [-json] [-plot DIR]
//
// -json prints {"policies":[{"name":…,"completion_s":…},…]} with the names
// RR-R, RR-S, H-1, H-2, random-best, random-mean, random-worst, TARA.
// -plot DIR writes DIR/fig3_10.png: random candidates as dots, policies as
// lines.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/schedkit/schedkit/placement"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// config is what the flags set.
type config struct {
	Seed   uint64 // seeds the random candidates (stream 1) and TARA (stream 2)
	Random int    // number of random candidates (the thesis's ~300)
	Evals  int    // TARA's evaluation budget
}

// policy is one line of the report; the JSON names are the schema.
type policy struct {
	Name        string  `json:"name"`
	CompletionS float64 `json:"completion_s"`
}

// report is the outcome of one run.
type report struct {
	Policies []policy `json:"policies"`
	// Random holds every random candidate's predicted time, in draw order.
	Random []float64 `json:"-"`
	// TARAPerRack is how many VMs TARA put in each rack.
	TARAPerRack []int `json:"-"`
	// TARAThesisBudget is TARA with the thesis's budget: as many evaluations
	// as random candidates.
	TARAThesisBudget float64 `json:"-"`
	Evaluations      int     `json:"-"`
}

// run computes the report for the thesis scenario.
func run(cfg config) (report, error) {
	if cfg.Random < 1 || cfg.Evals < 1 {
		return report{}, errors.New("-random and -evals must be at least 1")
	}
	top, app := placement.ThesisTopology(), placement.ThesisSort()
	ev, err := placement.NewEvaluator(top, app)
	if err != nil {
		return report{}, err
	}
	var rep report
	for _, h := range placement.Heuristics {
		s, err := h.Place(top, app.VMs)
		if err != nil {
			return report{}, err
		}
		f, err := ev.CompletionTime(s)
		if err != nil {
			return report{}, err
		}
		rep.Policies = append(rep.Policies, policy{h.String(), f})
	}

	rng := rand.New(rand.NewPCG(cfg.Seed, 1))
	sum := 0.0
	for range cfg.Random {
		s, err := placement.RandomPlacement(top, app.VMs, rng)
		if err != nil {
			return report{}, err
		}
		f, err := ev.CompletionTime(s)
		if err != nil {
			return report{}, err
		}
		rep.Random = append(rep.Random, f)
		sum += f
	}
	rep.Policies = append(rep.Policies,
		policy{"random-best", slices.Min(rep.Random)},
		policy{"random-mean", sum / float64(cfg.Random)},
		policy{"random-worst", slices.Max(rep.Random)})

	res, err := placement.Search(top, app, placement.SearchConfig{MaxEvaluations: cfg.Evals}, rand.New(rand.NewPCG(cfg.Seed, 2)))
	if err != nil {
		return report{}, err
	}
	rep.Policies = append(rep.Policies, policy{"TARA", res.Fitness})
	rep.Evaluations = res.Evaluations
	rep.TARAPerRack = make([]int, len(top.Racks))
	for _, s := range res.Servers {
		rep.TARAPerRack[top.Servers[s].Rack]++
	}
	small, err := placement.Search(top, app, placement.SearchConfig{MaxEvaluations: cfg.Random}, rand.New(rand.NewPCG(cfg.Seed, 2)))
	if err != nil {
		return report{}, err
	}
	rep.TARAThesisBudget = small.Fitness
	return rep, nil
}

// completion returns the time of the named policy.
func (r report) completion(name string) float64 {
	for _, p := range r.Policies {
		if p.Name == name {
			return p.CompletionS
		}
	}
	return 0
}

// writeText prints the table with TARA's improvement over each policy and
// the thesis's figure where it reports one.
func writeText(w io.Writer, r report) {
	thesis := map[string]string{"RR-R": "25%", "RR-S": "59%", "H-1": "49%", "H-2": "28%",
		"random-best": "10%", "random-mean": "38%", "random-worst": "69%"}
	tara := r.completion("TARA")
	fmt.Fprintln(w, "TARA on the thesis scenario (004 §3.3): 20 racks x 40 servers, uplinks 800..200 Mbit/s, Sort of 80 VMs x 2 GB")
	fmt.Fprintf(w, "%-13s %14s %16s %12s\n", "policy", "predicted (s)", "TARA better by", "thesis says")
	for _, p := range r.Policies {
		if p.Name == "TARA" {
			fmt.Fprintf(w, "%-13s %14.1f %16s %12s\n", p.Name, p.CompletionS, "", "")
			continue
		}
		fmt.Fprintf(w, "%-13s %14.1f %15.0f%% %12s\n", p.Name, p.CompletionS, 100*(1-tara/p.CompletionS), thesis[p.Name])
	}
	fmt.Fprintf(w, "TARA used %d evaluations; with the thesis's budget of %d evaluations it predicts %.1f s.\n",
		r.Evaluations, len(r.Random), r.TARAThesisBudget)
	fmt.Fprintf(w, "TARA's VMs per rack (uplinks cycle 800,700,...,200 Mbit/s): %v\n", r.TARAPerRack)
}

// writePlot draws Fig. 3.10: random candidates as dots, policies as lines.
func writePlot(dir string, r report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	p := plot.New()
	p.Title.Text = "Completion time of random candidates and policies (Fig. 3.10)"
	p.X.Label.Text = "random candidate"
	p.Y.Label.Text = "predicted completion time (s)"
	dots := make(plotter.XYs, len(r.Random))
	for i, f := range r.Random {
		dots[i] = plotter.XY{X: float64(i + 1), Y: f}
	}
	sc, err := plotter.NewScatter(dots)
	if err != nil {
		return err
	}
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	sc.GlyphStyle.Radius = vg.Points(1.5)
	p.Add(sc)
	p.Legend.Add("random", sc)
	i := 0
	for _, pol := range r.Policies {
		switch pol.Name {
		case "random-best", "random-mean", "random-worst":
			continue
		}
		ln, err := plotter.NewLine(plotter.XYs{{X: 1, Y: pol.CompletionS}, {X: float64(len(r.Random)), Y: pol.CompletionS}})
		if err != nil {
			return err
		}
		ln.Color = plotutil.Color(i)
		ln.Dashes = plotutil.Dashes(i)
		ln.Width = vg.Points(1.5)
		p.Add(ln)
		p.Legend.Add(pol.Name, ln)
		i++
	}
	p.Legend.Top = true
	p.Y.Min = 0
	p.Y.Max = 1.3 * slices.Max(r.Random) // room for the legend above the dots
	return p.Save(8*vg.Inch, 5*vg.Inch, filepath.Join(dir, "fig3_10.png"))
}

func main() {
	var cfg config
	flag.Uint64Var(&cfg.Seed, "seed", 1, "seed for the random candidates and the GA")
	flag.IntVar(&cfg.Random, "random", 300, "number of random candidates")
	flag.IntVar(&cfg.Evals, "evals", 10_000, "TARA's evaluation budget")
	asJSON := flag.Bool("json", false, "print the policies as JSON")
	plotDir := flag.String("plot", "", "write fig3_10.png into this directory")
	flag.Parse()

	rep, err := run(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "placement:", err)
		os.Exit(1)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintln(os.Stderr, "placement:", err)
			os.Exit(1)
		}
	} else {
		writeText(os.Stdout, rep)
	}
	if *plotDir != "" {
		if err := writePlot(*plotDir, rep); err != nil {
			fmt.Fprintln(os.Stderr, "placement:", err)
			os.Exit(1)
		}
	}
}
