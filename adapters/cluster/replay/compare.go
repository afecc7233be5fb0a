package replay

import (
	"fmt"
	"io"
)

// A Comparison follows, Job by Job, what a configuration with the check
// did with the same submissions as stock at the same load and
// repetition: of the Jobs stock met, how many it met too, rejected, or
// missed; of those stock missed, how many it met.
type Comparison struct {
	Rep    int    `json:"rep"`
	Load   string `json:"load"`
	Config Config `json:"config"`
	// StockMet* split the Jobs stock met by this configuration's outcome;
	// StockMissedMet counts the Jobs stock missed that it met.
	StockMetMet, StockMetRejected, StockMetMissed, StockMissedMet int
}

// Compare pairs every result that is not stock with the stock result of
// its load and repetition (none: no comparison), Job by Job (the
// submissions are the same, in the same order).
func Compare(rs []Result) []Comparison {
	type key struct {
		rep  int
		load string
	}
	stock := map[key]Result{}
	for _, r := range rs {
		if r.Config == Stock {
			stock[key{r.Rep, r.Load}] = r
		}
	}
	var out []Comparison
	for _, r := range rs {
		s, ok := stock[key{r.Rep, r.Load}]
		if r.Config == Stock || !ok || len(s.Outcomes) != len(r.Outcomes) {
			continue
		}
		c := Comparison{Rep: r.Rep, Load: r.Load, Config: r.Config}
		for i := range r.Outcomes {
			o, so := &r.Outcomes[i], &s.Outcomes[i]
			switch {
			case so.Met() && o.Met():
				c.StockMetMet++
			case so.Met() && o.Rejected:
				c.StockMetRejected++
			case so.Met():
				c.StockMetMissed++
			case o.Met():
				c.StockMissedMet++
			}
		}
		out = append(out, c)
	}
	return out
}

// CompareTable writes the comparisons, one row each.
func CompareTable(w io.Writer, cs []Comparison) {
	if len(cs) == 0 {
		return
	}
	fmt.Fprintf(w, "\nJob by Job against stock (same load and repetition):\n%3s %5s %9s %14s %19s %17s %18s\n",
		"rep", "load", "config", "stock met: met", "stock met: rejected", "stock met: missed", "stock missed: met")
	for _, c := range cs {
		fmt.Fprintf(w, "%3d %5s %9s %14d %19d %17d %18d\n", c.Rep, c.Load, c.Config, c.StockMetMet, c.StockMetRejected, c.StockMetMissed, c.StockMissedMet)
	}
}
