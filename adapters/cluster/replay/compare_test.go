package replay

import (
	"strings"
	"testing"
	"time"
)

// outcome is a Job that met (finished before its deadline), missed, or was
// rejected.
func outcome(kind string) Outcome {
	t := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	o := Outcome{Created: t, Deadline: t.Add(10 * time.Second)}
	switch kind {
	case "met":
		o.Finished = t.Add(5 * time.Second)
	case "missed":
		o.Finished = t.Add(15 * time.Second)
	case "rejected":
		o.Rejected = true
	}
	return o
}

func outcomes(kinds ...string) []Outcome {
	var out []Outcome
	for _, k := range kinds {
		out = append(out, outcome(k))
	}
	return out
}

func TestCompare(t *testing.T) {
	rs := []Result{
		{Config: Stock, Rep: 1, Load: "1×", Outcomes: outcomes("met", "met", "met", "missed", "missed", "met")},
		{Config: Check, Rep: 1, Load: "1×", Outcomes: outcomes("met", "rejected", "missed", "met", "rejected", "rejected")},
		{Config: Schedkit, Rep: 1, Load: "2×", Outcomes: outcomes("met", "met", "met", "met", "met", "met")}, // no stock at 2×
	}
	got := Compare(rs)
	want := Comparison{Rep: 1, Load: "1×", Config: Check, StockMetMet: 1, StockMetRejected: 2, StockMetMissed: 1, StockMissedMet: 1}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("Compare = %+v, want [%+v]", got, want)
	}
	var b strings.Builder
	CompareTable(&b, got)
	if !strings.Contains(b.String(), "  1    1×     check              1                   2                 1                  1") {
		t.Errorf("CompareTable:\n%s", b.String())
	}
}
