package kubesched

import (
	"k8s.io/kubernetes/cmd/kube-scheduler/app"
	"k8s.io/utils/clock"

	"github.com/schedkit/schedkit/adapters/kubesched/deadline"
	"github.com/schedkit/schedkit/adapters/kubesched/deadlineadmission"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/factory"
	"github.com/schedkit/schedkit/adapters/kubesched/leastworklost"
	"github.com/schedkit/schedkit/adapters/kubesched/progressscore"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// Plugins returns the options that register every schedkit plugin with
// kube-scheduler's command (app.NewSchedulerCommand or app.Setup), reading
// the wall clock.
func Plugins() []app.Option {
	return PluginsWithClock(clock.RealClock{})
}

// PluginsWithClock is Plugins with the plugins' time read from c (tests
// freeze it).
func PluginsWithClock(c clock.PassiveClock) []app.Option {
	var opts []app.Option
	for name, f := range Registry(c) {
		opts = append(opts, app.WithPlugin(name, f))
	}
	return opts
}

// Registry returns the out-of-tree registry of the schedkit plugins, for
// scheduler.New's WithFrameworkOutOfTreeRegistry. The plugins of one
// profile built from it share one tally of pod events (tally.Shared).
func Registry(c clock.PassiveClock) frameworkruntime.Registry {
	env := factory.NewEnv(c)
	return frameworkruntime.Registry{
		deadline.Name:          factory.New[deadline.Args](deadline.Name, deadline.Build, env),
		deadlineadmission.Name: factory.New[deadlineadmission.Args](deadlineadmission.Name, deadlineadmission.Build, env),
		leastworklost.Name:     factory.New[leastworklost.Args](leastworklost.Name, leastworklost.Build, env),
		progressscore.Name:     factory.New[progressscore.Args](progressscore.Name, progressscore.Build, env),
	}
}
