package perf

import (
	"fmt"
	"os"
	"testing"

	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
	"k8s.io/utils/clock"

	"github.com/schedkit/schedkit/adapters/kubesched"
)

func TestMain(m *testing.M) {
	if err := perf.InitTests(); err != nil {
		fmt.Fprintf(os.Stderr, "%v\n", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func BenchmarkPerfScheduling(b *testing.B) {
	perf.RunBenchmarkPerfScheduling(b, "performance-config.yaml", "schedkit", kubesched.Registry(clock.RealClock{}))
}
