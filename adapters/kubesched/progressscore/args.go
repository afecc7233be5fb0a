package progressscore

import (
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	ps "github.com/schedkit/schedkit/progressshare"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/factory"
)

// Args configures ProgressShare.
//
//	pluginConfig:
//	- name: ProgressShare
//	  args:
//	    nodeTypeLabel: node.kubernetes.io/instance-type
//	    maxDelay: 60s
//	    jobTypes:
//	    - name: crypto
//	      rates: {p4d.24xlarge: 3}
type Args struct {
	// NodeTypeLabel is the node label whose value is the node's type, the
	// key of a job's rates. Default node.kubernetes.io/instance-type. A
	// node without it has the type "" (which no rate can name, so every job
	// runs at rate 1 there).
	NodeTypeLabel string `json:"nodeTypeLabel,omitempty"`

	// MaxDelay is max_delay of the thesis's Algorithm 2: a job that has
	// launched no pod for delay seconds accepts a node type whose preference
	// Pref (Eq. 4.4) satisfies 1 − Pref ≤ delay/MaxDelay. Default 60s;
	// zero makes every job accept any node type at once (then the
	// Algorithm 2 part of the score follows progress shares only).
	MaxDelay *metav1.Duration `json:"maxDelay,omitempty"`

	// AffinityFactor turns on progressshare's affinity rule (Lee thesis
	// §4.3.1.4's prose, Options.AffinityFactor): the job Algorithm 2 picks
	// for a node type is passed over for a job whose relative rate there is
	// at least AffinityFactor times its own. Zero (the default) is
	// Algorithm 2 as printed; otherwise in [1, 1e9].
	AffinityFactor float64 `json:"affinityFactor,omitempty"`
	// AffinityBounded limits the affinity rule to picked jobs that already
	// run at least their slot share (Options.AffinityBounded). It needs
	// AffinityFactor ≥ 1.
	AffinityBounded bool `json:"affinityBounded,omitempty"`

	// JobTypes give rates by job type (schedkit.io/job-type) to jobs
	// without a schedkit.io/rates annotation.
	JobTypes []JobType `json:"jobTypes,omitempty"`
}

// A JobType is one row of the rate table.
type JobType struct {
	// Name is matched against schedkit.io/job-type; a DNS-1123 label.
	Name string `json:"name"`
	// Rates maps node types (label values) to the class's relative speed
	// there, in [1e-6, 1e6]; node types not listed have rate 1.
	Rates map[string]float64 `json:"rates"`
}

// Defaults.
const (
	DefaultNodeTypeLabel = "node.kubernetes.io/instance-type"
	DefaultMaxDelay      = 60 * time.Second
)

// DecodeArgs decodes the args (nil gives the defaults), fills the
// defaults and validates them.
func DecodeArgs(obj runtime.Object) (*Args, error) { return factory.Decode[Args](Name, obj) }

// SetDefaults fills NodeTypeLabel and MaxDelay when unset.
func (args *Args) SetDefaults() {
	if args.NodeTypeLabel == "" {
		args.NodeTypeLabel = DefaultNodeTypeLabel
	}
	if args.MaxDelay == nil {
		args.MaxDelay = &metav1.Duration{Duration: DefaultMaxDelay}
	}
}

// Validate checks every field (defaults filled) and returns all the
// problems joined, as kube's ValidateXxxArgs do.
func (args *Args) Validate(path *field.Path) error {
	var errs field.ErrorList
	for _, msg := range validation.IsQualifiedName(args.NodeTypeLabel) {
		errs = append(errs, field.Invalid(path.Child("nodeTypeLabel"), args.NodeTypeLabel, msg))
	}
	maxDelay := time.Duration(ps.MaxDuration) * time.Second
	if args.MaxDelay == nil {
		errs = append(errs, field.Required(path.Child("maxDelay"), ""))
	} else if d := args.MaxDelay.Duration; d < 0 || d > maxDelay {
		errs = append(errs, field.Invalid(path.Child("maxDelay"), args.MaxDelay.String(), fmt.Sprintf("must be in [0, %v]", maxDelay)))
	}
	if f := args.AffinityFactor; f != 0 && !(f >= 1 && f <= ps.MaxRate) {
		errs = append(errs, field.Invalid(path.Child("affinityFactor"), f, fmt.Sprintf("must be 0 (off) or in [1, %g]", ps.MaxRate)))
	}
	if args.AffinityBounded && args.AffinityFactor == 0 {
		errs = append(errs, field.Invalid(path.Child("affinityBounded"), true, "needs affinityFactor ≥ 1"))
	}
	errs = append(errs, factory.JobTypeNames(path.Child("jobTypes"), args.JobTypes, func(c JobType) string { return c.Name })...)
	for i, c := range args.JobTypes {
		p := path.Child("jobTypes").Index(i)
		if len(c.Rates) == 0 {
			errs = append(errs, field.Required(p.Child("rates"), "at least one node type"))
		}
		types := make([]string, 0, len(c.Rates))
		for t := range c.Rates {
			types = append(types, t)
		}
		slices.Sort(types) // report in a stable order
		for _, t := range types {
			rp := p.Child("rates").Key(t)
			if t == "" {
				errs = append(errs, field.Invalid(rp, t, "node type must not be empty"))
			}
			for _, msg := range validation.IsValidLabelValue(t) {
				errs = append(errs, field.Invalid(rp, t, msg))
			}
			if r := c.Rates[t]; !annotation.ValidRate(r) {
				errs = append(errs, field.Invalid(rp, r, fmt.Sprintf("rate must be in [%g, %g]", 1/annotation.MaxRate, annotation.MaxRate)))
			}
		}
	}
	return errs.ToAggregate()
}

// options are the progressshare options the args give.
func (a *Args) options() ps.Options {
	return ps.Options{
		MaxDelay:        a.MaxDelay.Duration.Seconds(),
		AffinityFactor:  a.AffinityFactor,
		AffinityBounded: a.AffinityBounded,
	}
}
