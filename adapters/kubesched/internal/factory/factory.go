// Package factory writes the schedkit plugins' framework factory once. A
// plugin's args type fills its own defaults and validates every field, the
// problems joined as kube's ValidateXxxArgs join theirs; Decode reads the
// args from the profile's pluginConfig (nil: all defaults), and New makes
// the factory kube-scheduler's registry takes from a plugin's Build.
package factory

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	fwk "k8s.io/kube-scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/utils/clock"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/tally"
)

// Args is what a plugin's args type A provides, on its pointer.
type Args[A any] interface {
	*A
	// SetDefaults fills the fields left unset.
	SetDefaults()
	// Validate checks every field (defaults filled) and returns all the
	// problems joined, or nil.
	Validate(path *field.Path) error
}

// Decode decodes the named plugin's args, fills their defaults and
// validates them. Errors name the plugin.
func Decode[A any, P Args[A]](name string, obj runtime.Object) (*A, error) {
	args := P(new(A))
	if err := frameworkruntime.DecodeInto(obj, args); err != nil {
		return nil, fmt.Errorf("%s args: %w", name, err)
	}
	args.SetDefaults()
	if err := args.Validate(field.NewPath("args")); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return (*A)(args), nil
}

// Env is what the plugins of one registry share: the clock they read the
// time from and the per-profile tallies of pod events.
type Env struct {
	Clock   clock.PassiveClock
	Tallies *tally.Shared
}

// NewEnv returns an Env reading the time from c, with no tally made yet.
func NewEnv(c clock.PassiveClock) Env { return Env{Clock: c, Tallies: &tally.Shared{}} }

// A Build makes a plugin from its args on the scheduler's handle, in env.
type Build[A any] func(ctx context.Context, args *A, h fwk.Handle, env Env) (fwk.Plugin, error)

// New returns the named plugin's factory: Decode, then build in env.
func New[A any, P Args[A]](name string, build Build[A], env Env) frameworkruntime.PluginFactory {
	return func(ctx context.Context, obj runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
		args, err := Decode[A, P](name, obj)
		if err != nil {
			return nil, err
		}
		return build(ctx, args, h, env)
	}
}

// JobTypeNames validates the names (name of each row) of an args table of
// job types at path (e.g. args.jobTypes): each a job type of the
// annotation contract (annotation.ValidJobType), none twice.
func JobTypeNames[T any](path *field.Path, rows []T, name func(T) string) field.ErrorList {
	var errs field.ErrorList
	seen := make(map[string]bool, len(rows))
	for i, row := range rows {
		name := name(row)
		p := path.Index(i).Child("name")
		if err := annotation.ValidJobType(name); err != nil {
			errs = append(errs, field.Invalid(p, name, err.Error()))
		}
		if seen[name] {
			errs = append(errs, field.Duplicate(p, name))
		}
		seen[name] = true
	}
	return errs
}
