package perf

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	"k8s.io/component-base/metrics/legacyregistry"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
	"k8s.io/kubernetes/test/utils/client-go/ktesting"
	"k8s.io/utils/clock"

	"github.com/schedkit/schedkit/adapters/kubesched"
)

var (
	roundsFlag = flag.Int("schedkit-rounds", 1,
		"run each workload's profiles this many times, in forward order in odd rounds and reverse order in even ones")
	runsFlag = flag.String("schedkit-runs", "",
		"append one JSON line per workload run to this file: its name, the 1-minute load average at its start and end, its wall and process CPU seconds")
)

func TestMain(m *testing.M) {
	if err := perf.InitTests(); err != nil {
		fmt.Fprintf(os.Stderr, "%v\n", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func BenchmarkPerfScheduling(b *testing.B) {
	config, err := os.ReadFile("performance-config.yaml")
	if err != nil {
		b.Fatal(err)
	}
	rewritten, err := rounds(config, *roundsFlag)
	if err != nil {
		b.Fatalf("-schedkit-rounds: %v", err)
	}
	path := filepath.Join(b.TempDir(), "performance-config.yaml")
	if err := os.WriteFile(path, rewritten, 0o644); err != nil {
		b.Fatal(err)
	}
	var opts []perf.SchedulerPerfOption
	if *runsFlag != "" {
		opts = append(opts, perf.WithPrepareFn(recordRun(*runsFlag)))
	}
	perf.RunBenchmarkPerfScheduling(b, path, "schedkit", kubesched.Registry(clock.RealClock{}), opts...)
}

// recordRun returns the prepare hook that appends each run's record to
// path.
func recordRun(path string) perf.HookFn {
	var mu sync.Mutex
	return func(tCtx ktesting.TContext) error {
		tb := tCtx.TB()
		start, cpu, load, delay := time.Now(), cpuSeconds(), load1(), waitSeconds()
		g := legacyregistry.DefaultGatherer
		attempts, flushes := counters(g, batchAttempts, "result"), counters(g, batchFlushes, "reason")
		pods, stop, err := watchPods(tCtx, start)
		if err != nil {
			return err
		}
		tb.Cleanup(func() {
			stop()
			rec := RunRecord{Name: tb.Name(), LoadStart: load, LoadEnd: load1(),
				Wall: time.Since(start).Seconds(), CPU: cpuSeconds() - cpu, RunDelay: waitSeconds() - delay,
				Batch:        since(attempts, counters(g, batchAttempts, "result")),
				BatchFlushes: since(flushes, counters(g, batchFlushes, "reason")),
				Pods:         pods.all()}
			line, err := json.Marshal(rec)
			if err != nil {
				tb.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				tb.Error(err)
				return
			}
			defer f.Close()
			if _, err := f.Write(append(line, '\n')); err != nil {
				tb.Error(err)
			}
		})
		return nil
	}
}

// watchPods starts a watch of every pod of the run's API server that
// notes, in the returned spans, each pod's creation and binding with the
// time since start and the process CPU seconds when it is seen. stop ends
// the watch.
func watchPods(tCtx ktesting.TContext, start time.Time) (*spans, func(), error) {
	out := &spans{}
	factory := informers.NewSharedInformerFactory(tCtx.Client(), 0)
	_, err := factory.Core().V1().Pods().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if p, ok := obj.(*v1.Pod); ok {
				out.created(p.Namespace, time.Since(start).Seconds(), cpuSeconds())
				if p.Spec.NodeName != "" {
					out.bound(p.Namespace, time.Since(start).Seconds(), cpuSeconds())
				}
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			old, okOld := oldObj.(*v1.Pod)
			p, ok := newObj.(*v1.Pod)
			if okOld && ok && old.Spec.NodeName == "" && p.Spec.NodeName != "" {
				out.bound(p.Namespace, time.Since(start).Seconds(), cpuSeconds())
			}
		},
	})
	if err != nil {
		return nil, nil, fmt.Errorf("pod watch: %w", err)
	}
	ctx, cancel := context.WithCancel(tCtx)
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	return out, func() { cancel(); factory.Shutdown() }, nil
}

// cpuSeconds is the process's user and system CPU time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// waitSeconds is the time the process's threads have waited on a run
// queue, ready to run, so far (runDelay over /proc/self/task); 0 when it
// cannot be read. A thread that exits takes its share with it.
func waitSeconds() float64 {
	paths, _ := filepath.Glob("/proc/self/task/*/schedstat")
	var lines []string
	for _, p := range paths {
		if raw, err := os.ReadFile(p); err == nil {
			lines = append(lines, string(raw))
		}
	}
	v, err := runDelay(lines)
	if err != nil {
		return 0
	}
	return v
}

// load1 is the 1-minute load average, 0 when /proc/loadavg is unreadable.
func load1() float64 {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(raw))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}
