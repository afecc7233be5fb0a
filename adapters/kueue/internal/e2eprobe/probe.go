// Package e2eprobe only checks that Kueue's controllers build in this module.
package e2eprobe

import (
	_ "sigs.k8s.io/controller-runtime/pkg/envtest"
	_ "sigs.k8s.io/kueue/pkg/cache/queue"
	_ "sigs.k8s.io/kueue/pkg/cache/scheduler"
	_ "sigs.k8s.io/kueue/pkg/controller/core"
	_ "sigs.k8s.io/kueue/pkg/controller/core/indexer"
	_ "sigs.k8s.io/kueue/pkg/scheduler"
	_ "sigs.k8s.io/kueue/pkg/scheduler/preemption/expectations"
	_ "sigs.k8s.io/kueue/pkg/webhooks"
)
