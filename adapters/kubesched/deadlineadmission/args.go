package deadlineadmission

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/factory"
)

// Args configures DeadlineAdmission (pluginConfig args of the profile).
//
//	pluginConfig:
//	- name: DeadlineAdmission
//	  args:
//	    mode: Strict
//	    defaultRuntime: 0s
//	    jobTypes:
//	    - name: etl
//	      runtime: 20m
type Args struct {
	// Mode is the admission rule: "Strict" (the default when empty) or
	// "Paper". Strict admits a job only if it meets its own deadline and no
	// running deadline job that meets its deadline would miss it
	// (admission.ModeStrict); Paper checks the new job's deadline only
	// (admission.ModePaper, MIMP Eq. 7 as printed).
	Mode string `json:"mode,omitempty"`

	// JobTypes are run-time estimates by job type: a deadline job whose
	// pod or owning Job has schedkit.io/job-type: NAME and no
	// schedkit.io/runtime is estimated to run Runtime. Names are unique.
	JobTypes []JobType `json:"jobTypes,omitempty"`

	// DefaultRuntime is the estimate for a deadline job with neither
	// schedkit.io/runtime nor a job type. Zero (the default) has none: such
	// a job is rejected with a message asking for an estimate, because its
	// deadline cannot be checked.
	DefaultRuntime metav1.Duration `json:"defaultRuntime,omitempty"`
}

// A JobType is one row of the run-time table.
type JobType struct {
	// Name is matched against schedkit.io/job-type; a DNS-1123 label.
	Name string `json:"name"`
	// Runtime is the run time of a job of this type, in
	// (0, annotation.MaxDuration].
	Runtime metav1.Duration `json:"runtime"`
}

// Modes.
const (
	ModeStrict = "Strict"
	ModePaper  = "Paper"
)

// DecodeArgs decodes the plugin's args (nil gives the defaults), fills
// the defaults and validates them.
func DecodeArgs(obj runtime.Object) (*Args, error) { return factory.Decode[Args](Name, obj) }

// SetDefaults fills Mode (Strict).
func (args *Args) SetDefaults() {
	if args.Mode == "" {
		args.Mode = ModeStrict
	}
}

// Validate checks every field of args and returns all the problems joined
// (a field.ErrorList aggregate, as kube's ValidateXxxArgs), or nil.
func (args *Args) Validate(path *field.Path) error {
	var errs field.ErrorList
	switch args.Mode {
	case ModeStrict, ModePaper:
	default:
		errs = append(errs, field.NotSupported(path.Child("mode"), args.Mode, []string{ModeStrict, ModePaper}))
	}
	if d := args.DefaultRuntime.Duration; d < 0 || d > annotation.MaxDuration {
		errs = append(errs, field.Invalid(path.Child("defaultRuntime"), args.DefaultRuntime.String(),
			fmt.Sprintf("must be in [0, %v]; 0 means no default", annotation.MaxDuration)))
	}
	errs = append(errs, factory.JobTypeNames(path.Child("jobTypes"), args.JobTypes, func(c JobType) string { return c.Name })...)
	for i, c := range args.JobTypes {
		p := path.Child("jobTypes").Index(i)
		if d := c.Runtime.Duration; d <= 0 || d > annotation.MaxDuration {
			errs = append(errs, field.Invalid(p.Child("runtime"), c.Runtime.String(),
				fmt.Sprintf("must be in (0, %v]", annotation.MaxDuration)))
		}
	}
	return errs.ToAggregate()
}
