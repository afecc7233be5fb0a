package leastworklost

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/factory"
)

// Args configures LeastWorkLostPreemption. The fields mean what they mean
// in DefaultPreemptionArgs, with other defaults: the number of nodes whose
// victims are computed is max(minCandidateNodesPercentage% of the nodes
// where preemption may help, minCandidateNodesAbsolute), capped at that
// number of nodes; fewer than all of them are a window of the nodes
// starting at an offset taken from the preemptor's UID rather than a
// random one.
//
//	pluginConfig:
//	- name: LeastWorkLostPreemption
//	  args:
//	    minCandidateNodesPercentage: 100
//	    minCandidateNodesAbsolute: 100
type Args struct {
	// MinCandidateNodesPercentage in [0, 100]; default 100: every node
	// where preemption may help is a candidate, so the least work lost is
	// found cluster-wide, and nodes that cannot come first are not dry-run
	// (the package doc's Cost). Below 100, the candidates are that many
	// nodes from the preemptor's offset on, not counting those where no
	// dry run can find victims (the package doc), and the choice is the
	// best of those, found with as few dry runs as with every node.
	MinCandidateNodesPercentage *int32 `json:"minCandidateNodesPercentage,omitempty"`
	// MinCandidateNodesAbsolute ≥ 0; default 100.
	MinCandidateNodesAbsolute *int32 `json:"minCandidateNodesAbsolute,omitempty"`
}

// Defaults.
const (
	DefaultMinCandidateNodesPercentage = 100
	DefaultMinCandidateNodesAbsolute   = 100
)

// DecodeArgs decodes the args (nil gives the defaults), fills the
// defaults and validates them.
func DecodeArgs(obj runtime.Object) (*Args, error) { return factory.Decode[Args](Name, obj) }

// SetDefaults fills the unset fields with DefaultMinCandidateNodesPercentage
// and DefaultMinCandidateNodesAbsolute.
func (args *Args) SetDefaults() {
	if args.MinCandidateNodesPercentage == nil {
		v := int32(DefaultMinCandidateNodesPercentage)
		args.MinCandidateNodesPercentage = &v
	}
	if args.MinCandidateNodesAbsolute == nil {
		v := int32(DefaultMinCandidateNodesAbsolute)
		args.MinCandidateNodesAbsolute = &v
	}
}

// Validate checks every field (defaults filled) and returns all the
// problems joined, as kube's ValidateDefaultPreemptionArgs does.
func (args *Args) Validate(path *field.Path) error {
	var errs field.ErrorList
	pp, ap := path.Child("minCandidateNodesPercentage"), path.Child("minCandidateNodesAbsolute")
	if args.MinCandidateNodesPercentage == nil {
		errs = append(errs, field.Required(pp, ""))
	}
	if args.MinCandidateNodesAbsolute == nil {
		errs = append(errs, field.Required(ap, ""))
	}
	if len(errs) > 0 {
		return errs.ToAggregate()
	}
	p, a := *args.MinCandidateNodesPercentage, *args.MinCandidateNodesAbsolute
	if p < 0 || p > 100 {
		errs = append(errs, field.Invalid(pp, p, "not in valid range [0, 100]"))
	}
	if a < 0 {
		errs = append(errs, field.Invalid(ap, a, "not in valid range [0, inf)"))
	}
	if p == 0 && a == 0 {
		errs = append(errs,
			field.Invalid(pp, p, "cannot be zero at the same time as minCandidateNodesAbsolute"),
			field.Invalid(ap, a, "cannot be zero at the same time as minCandidateNodesPercentage"))
	}
	return errs.ToAggregate()
}

// NumCandidates is how many of n potential nodes are dry-run.
func (a *Args) NumCandidates(n int32) int32 {
	c := int32(int64(n) * int64(*a.MinCandidateNodesPercentage) / 100)
	if c < *a.MinCandidateNodesAbsolute {
		c = *a.MinCandidateNodesAbsolute
	}
	if c > n {
		c = n
	}
	return c
}
