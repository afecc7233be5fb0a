package leastworklost

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/words"
)

// A Candidate is one node the preemption dry-ran, as the event reports it:
// the victims chosen there, with the numbers the node order
// (OrderedScoreFuncs) compares.
type Candidate struct {
	Node string
	// NumVictims is the number of victims.
	NumVictims int
	// Victims are "namespace/name (run time)" in eviction order; the event
	// names the chosen node's victims only, so the other candidates' may
	// be left nil.
	Victims []string
	// Violations is the number of victims whose eviction violates a
	// PodDisruptionBudget.
	Violations int64
	// HighestPriority is the highest priority among the victims.
	HighestPriority int32
	// WorkLost is the victims' total run time in seconds.
	WorkLost float64
}

// maxOthers is how many other candidate nodes the event names.
const maxOthers = 3

// EventMessage is the note of the LeastWorkLostPreemption event: the chosen
// node, its victims and the work lost; then up to maxOthers other candidate
// nodes, least work lost first (ties: node name), each with why it was
// passed over when it would have lost no more than the chosen node: the
// first criterion of the node order on which it comes after the chosen one
// (more PodDisruptionBudget violations, a higher-priority victim, more
// victims, or the node name); then how many nodes were not dry-run
// because their bound showed they could not rank before the chosen one
// (skipped, see SelectVictimsOnNode). Which nodes are skipped, and so
// which are named, depends on the order the parallel dry runs finish in;
// the chosen node does not.
func EventMessage(chosen Candidate, others []Candidate, skipped int) string {
	n := chosen.NumVictims
	msg := fmt.Sprintf("preempting %d lower-priority %s on node %s, work lost %s of run time: %s",
		n, words.Plural(n, "pod", "pods"), chosen.Node, words.Seconds(chosen.WorkLost), strings.Join(chosen.Victims, ", "))
	if len(others) > 0 {
		msg += otherCandidates(chosen, others)
	}
	if skipped > 0 {
		msg += fmt.Sprintf("; %d more %s not dry-run: none could rank before %s", skipped, words.Plural(skipped, "node", "nodes"), chosen.Node)
	}
	return msg
}

// otherCandidates names up to maxOthers other candidates for EventMessage.
func otherCandidates(chosen Candidate, others []Candidate) string {
	parts := make([]string, 0, maxOthers)
	for _, o := range leastLost(others) {
		part := fmt.Sprintf("%s %s", o.Node, words.Seconds(o.WorkLost))
		if millis(o.WorkLost) <= millis(chosen.WorkLost) {
			part += " (passed over: " + passedOver(chosen, o) + ")"
		}
		parts = append(parts, part)
	}
	msg := "; other candidate nodes would lose " + strings.Join(parts, ", ")
	if len(others) > maxOthers {
		msg += fmt.Sprintf(" and %d more", len(others)-maxOthers)
	}
	return msg
}

// passedOver says on which criterion of the node order o comes after
// chosen, given that o loses no more work.
func passedOver(chosen, o Candidate) string {
	switch {
	case o.Violations != chosen.Violations:
		return fmt.Sprintf("%d PodDisruptionBudget %s, %s has %d", o.Violations, words.Plural(int(o.Violations), "violation", "violations"), chosen.Node, chosen.Violations)
	case o.HighestPriority != chosen.HighestPriority:
		return fmt.Sprintf("a victim of priority %d, %s's highest is %d", o.HighestPriority, chosen.Node, chosen.HighestPriority)
	case millis(o.WorkLost) != millis(chosen.WorkLost):
		// Not reached: the order ranks less work lost first.
		return "less work lost ranks first"
	case o.NumVictims != chosen.NumVictims:
		return fmt.Sprintf("the same work lost with %d victims, %s has %d", o.NumVictims, chosen.Node, chosen.NumVictims)
	default:
		return fmt.Sprintf("the same work lost and victims, %s comes first by name", chosen.Node)
	}
}

// leastLost returns up to maxOthers of the candidates, least work lost
// first (ties: node name), in one pass: a preemption at 10 % of 5,000
// nodes has 500.
func leastLost(cs []Candidate) []Candidate {
	before := func(a, b *Candidate) bool {
		return cmp.Or(cmp.Compare(millis(a.WorkLost), millis(b.WorkLost)), cmp.Compare(a.Node, b.Node)) < 0
	}
	top := make([]Candidate, 0, maxOthers)
	for i := range cs {
		c := &cs[i]
		if len(top) == maxOthers && !before(c, &top[maxOthers-1]) {
			continue
		}
		if len(top) < maxOthers {
			top = append(top, Candidate{})
		}
		j := len(top) - 1
		for ; j > 0 && before(c, &top[j-1]); j-- {
			top[j] = top[j-1]
		}
		top[j] = *c
	}
	return top
}
