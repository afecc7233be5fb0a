// Command schedkit-scheduler is kube-scheduler (Kubernetes 1.37) with
// schedkit's plugins registered: Deadline (QueueSort), DeadlineAdmission
// (PreFilter), LeastWorkLostPreemption (PostFilter) and ProgressShare
// (Score). It takes kube-scheduler's flags; enable the plugins in a
// KubeSchedulerConfiguration profile (config/manager/scheduler-config.yaml):
//
//	schedkit-scheduler --config=config/manager/scheduler-config.yaml --kubeconfig=$HOME/.kube/config
package main

import (
	"os"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // rest client metrics
	_ "k8s.io/component-base/metrics/prometheus/version"  // version metric
	"k8s.io/kubernetes/cmd/kube-scheduler/app"

	"github.com/schedkit/schedkit/adapters/kubesched"
)

func main() {
	os.Exit(cli.Run(app.NewSchedulerCommand(kubesched.Plugins()...)))
}
