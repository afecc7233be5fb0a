package leastworklost

import (
	"cmp"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func TestEventMessage(t *testing.T) {
	chosen := Candidate{Node: "n-b", NumVictims: 2, Victims: []string{"default/b-young1 (3m0s)", "default/b-young2 (2m0s)"}, HighestPriority: 10, WorkLost: 300}
	tests := []struct {
		name   string
		chosen Candidate
		others []Candidate
		want   string
	}{
		{"alone", chosen, nil,
			"preempting 2 lower-priority pods on node n-b, work lost 5m0s of run time: default/b-young1 (3m0s), default/b-young2 (2m0s)"},
		{"more work lost elsewhere: no reason needed", chosen, []Candidate{{Node: "n-a", NumVictims: 1, Victims: []string{"default/a-old (1h0m0s)"}, HighestPriority: 10, WorkLost: 3600}},
			"preempting 2 lower-priority pods on node n-b, work lost 5m0s of run time: default/b-young1 (3m0s), default/b-young2 (2m0s); other candidate nodes would lose n-a 1h0m0s"},
		{"less work lost but a higher-priority victim", chosen, []Candidate{
			{Node: "n-c", NumVictims: 1, Victims: []string{"default/c (1m0s)"}, HighestPriority: 50, WorkLost: 60},
			{Node: "n-a", NumVictims: 1, Victims: []string{"default/a-old (1h0m0s)"}, HighestPriority: 10, WorkLost: 3600}},
			"preempting 2 lower-priority pods on node n-b, work lost 5m0s of run time: default/b-young1 (3m0s), default/b-young2 (2m0s); " +
				"other candidate nodes would lose n-c 1m0s (passed over: a victim of priority 50, n-b's highest is 10), n-a 1h0m0s"},
		{"less work lost but a PodDisruptionBudget violation", Candidate{Node: "n-a", NumVictims: 1, Victims: []string{"default/a-old (1h0m0s)"}, HighestPriority: 10, WorkLost: 3600},
			[]Candidate{{Node: "n-b", NumVictims: 2, Victims: []string{"default/b-young1 (3m0s)", "default/b-young2 (2m0s)"}, Violations: 2, HighestPriority: 10, WorkLost: 300}},
			"preempting 1 lower-priority pod on node n-a, work lost 1h0m0s of run time: default/a-old (1h0m0s); " +
				"other candidate nodes would lose n-b 5m0s (passed over: 2 PodDisruptionBudget violations, n-a has 0)"},
		{"equal work lost, more victims; then the name", chosen, []Candidate{
			{Node: "n-d", NumVictims: 3, Victims: []string{"x/1 (1m40s)", "x/2 (1m40s)", "x/3 (1m40s)"}, HighestPriority: 10, WorkLost: 300},
			{Node: "n-a", NumVictims: 2, Victims: []string{"y/1 (4m0s)", "y/2 (1m0s)"}, HighestPriority: 10, WorkLost: 300}},
			"preempting 2 lower-priority pods on node n-b, work lost 5m0s of run time: default/b-young1 (3m0s), default/b-young2 (2m0s); " +
				"other candidate nodes would lose n-a 5m0s (passed over: the same work lost and victims, n-b comes first by name), " +
				"n-d 5m0s (passed over: the same work lost with 3 victims, n-b has 2)"},
		{"at most three named", chosen, []Candidate{
			{Node: "n-1", WorkLost: 400}, {Node: "n-2", WorkLost: 500}, {Node: "n-3", WorkLost: 600}, {Node: "n-4", WorkLost: 700}, {Node: "n-5", WorkLost: 800}},
			"preempting 2 lower-priority pods on node n-b, work lost 5m0s of run time: default/b-young1 (3m0s), default/b-young2 (2m0s); " +
				"other candidate nodes would lose n-1 6m40s, n-2 8m20s, n-3 10m0s and 2 more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EventMessage(tt.chosen, tt.others, 0); got != tt.want {
				t.Errorf("EventMessage:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestEventMessageSkipped(t *testing.T) {
	chosen := Candidate{Node: "n-b", NumVictims: 1, Victims: []string{"default/b (2m0s)"}, HighestPriority: 10, WorkLost: 120}
	others := []Candidate{{Node: "n-a", NumVictims: 1, HighestPriority: 10, WorkLost: 600}}
	for _, tt := range []struct {
		others  []Candidate
		skipped int
		want    string
	}{
		{nil, 1, "preempting 1 lower-priority pod on node n-b, work lost 2m0s of run time: default/b (2m0s); 1 more node not dry-run: none could rank before n-b"},
		{others, 4998, "preempting 1 lower-priority pod on node n-b, work lost 2m0s of run time: default/b (2m0s); other candidate nodes would lose n-a 10m0s; 4998 more nodes not dry-run: none could rank before n-b"},
	} {
		if got := EventMessage(chosen, tt.others, tt.skipped); got != tt.want {
			t.Errorf("EventMessage(skipped %d):\n got %q\nwant %q", tt.skipped, got, tt.want)
		}
	}
}

// TestPropLeastLost: leastLost is the first maxOthers candidates of the
// list sorted by work lost in milliseconds, then node name.
func TestPropLeastLost(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 12).Draw(t, "n")
		names := rapid.Permutation([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}).Draw(t, "names")
		cs := make([]Candidate, n)
		for i := range cs {
			cs[i] = Candidate{Node: names[i], WorkLost: float64(rapid.IntRange(0, 4).Draw(t, "ms")) / 1000}
		}
		want := slices.Clone(cs)
		slices.SortFunc(want, func(a, b Candidate) int {
			return cmp.Or(cmp.Compare(millis(a.WorkLost), millis(b.WorkLost)), cmp.Compare(a.Node, b.Node))
		})
		want = want[:min(maxOthers, n)]
		if got := leastLost(cs); !slices.EqualFunc(got, want, func(a, b Candidate) bool { return a.Node == b.Node }) {
			t.Fatalf("leastLost = %v, want %v", got, want)
		}
	})
}
