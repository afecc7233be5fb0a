// Package scenario holds the scenarios both test tiers run against the real
// kube-scheduler: the fast tier on a fake clientset (Fake), the real tier
// on a kube-apiserver and etcd started by envtest (Real, build tag e2e).
// Each scenario builds its cluster through the Backend's client, starts the
// scheduler (scheduler.New with the example profile and the schedkit
// plugins, their clock frozen) and asserts on what the API shows: bindings,
// pod conditions, deletions and events.
package scenario

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	configv1 "k8s.io/kube-scheduler/config/v1"
	"k8s.io/kubernetes/pkg/scheduler"
	schedulerapi "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
	"k8s.io/kubernetes/pkg/scheduler/profile"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/schedkit/schedkit/adapters/kubesched"
	"github.com/schedkit/schedkit/adapters/kubesched/config"
	"github.com/schedkit/schedkit/adapters/kubesched/leastworklost"
)

// Scheduler names of the profiles every scenario's scheduler runs.
const (
	// Schedkit is the example profile, config/manager/scheduler-config.yaml.
	Schedkit = "schedkit-scheduler"
	// DefaultPreemption is the example profile with kube's DefaultPreemption
	// in place of LeastWorkLostPreemption, for the comparison.
	DefaultPreemption = "default-preemption"
	// Window is the example profile with LeastWorkLostPreemption's
	// minCandidateNodesPercentage 67 and minCandidateNodesAbsolute 1:
	// two of three nodes where preemption may help are candidates (the
	// preemptor's window).
	Window = "schedkit-window"
)

// A Backend is a Kubernetes API for one scenario.
type Backend struct {
	Name   string // "fake" or "envtest"
	Client kubernetes.Interface
	// Real is true for a real kube-apiserver: it sets creation
	// timestamps, runs admission and binds pods itself.
	Real bool
}

// Fake returns a fake clientset that binds pods as the API server's
// pods/binding does: spec.nodeName set and PodScheduled=True.
func Fake(t *testing.T) *Backend {
	t.Helper()
	c := fake.NewClientset()
	c.PrependReactor("create", "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
		ca, ok := a.(clienttesting.CreateAction)
		if !ok || a.GetSubresource() != "binding" {
			return false, nil, nil
		}
		b := ca.GetObject().(*v1.Binding)
		obj, err := c.Tracker().Get(v1.SchemeGroupVersion.WithResource("pods"), b.Namespace, b.Name)
		if err != nil {
			return true, nil, err
		}
		pod := obj.(*v1.Pod).DeepCopy()
		if pod.Spec.NodeName != "" {
			return true, nil, apierrors.NewConflict(v1.Resource("pods/binding"), b.Name, fmt.Errorf("pod %s is already assigned to node %q", b.Name, pod.Spec.NodeName))
		}
		pod.Spec.NodeName = b.Target.Name
		setCondition(pod, v1.PodCondition{Type: v1.PodScheduled, Status: v1.ConditionTrue})
		return true, b, c.Tracker().Update(v1.SchemeGroupVersion.WithResource("pods"), pod, b.Namespace)
	})
	return &Backend{Name: "fake", Client: c}
}

func setCondition(pod *v1.Pod, c v1.PodCondition) {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == c.Type {
			pod.Status.Conditions[i] = c
			return
		}
	}
	pod.Status.Conditions = append(pod.Status.Conditions, c)
}

// An Env is one running scenario: the backend, the frozen time T0 the
// plugins read, and a context cancelled at the end of the test.
type Env struct {
	T      *testing.T
	B      *Backend
	Ctx    context.Context
	T0     time.Time
	cancel context.CancelFunc
}

// NewEnv freezes the plugins' clock at the current second. With
// SCHEDKIT_TEST_V=N in the environment the scheduler logs at verbosity N.
func NewEnv(t *testing.T, b *Backend) *Env {
	if v := os.Getenv("SCHEDKIT_TEST_V"); v != "" {
		var fs flag.FlagSet
		klog.InitFlags(&fs)
		if err := fs.Set("v", v); err != nil {
			t.Fatalf("SCHEDKIT_TEST_V=%q: %v", v, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return &Env{T: t, B: b, Ctx: ctx, T0: time.Now().UTC().Truncate(time.Second), cancel: cancel}
}

// Profiles returns the example profile, its DefaultPreemption twin and
// its Window twin, as kube-scheduler loads them (decoded with defaults
// applied, validated).
func Profiles() ([]schedulerapi.KubeSchedulerProfile, error) {
	var vcfg configv1.KubeSchedulerConfiguration
	if err := yaml.UnmarshalStrict(config.SchedulerConfig, &vcfg); err != nil {
		return nil, fmt.Errorf("config/manager/scheduler-config.yaml: %w", err)
	}
	if len(vcfg.Profiles) != 1 || vcfg.Profiles[0].SchedulerName == nil || *vcfg.Profiles[0].SchedulerName != Schedkit {
		return nil, fmt.Errorf("config/manager/scheduler-config.yaml: want one profile %q", Schedkit)
	}
	twin := vcfg.Profiles[0].DeepCopy()
	twin.SchedulerName = ptr.To(DefaultPreemption)
	mp := &twin.Plugins.MultiPoint
	mp.Enabled = slices.DeleteFunc(mp.Enabled, func(p configv1.Plugin) bool { return p.Name == leastworklost.Name })
	mp.Disabled = slices.DeleteFunc(mp.Disabled, func(p configv1.Plugin) bool { return p.Name == "DefaultPreemption" })
	twin.PluginConfig = slices.DeleteFunc(twin.PluginConfig, func(p configv1.PluginConfig) bool { return p.Name == leastworklost.Name })
	window := vcfg.Profiles[0].DeepCopy()
	window.SchedulerName = ptr.To(Window)
	for i, p := range window.PluginConfig {
		if p.Name == leastworklost.Name {
			window.PluginConfig[i].Args = runtime.RawExtension{Raw: []byte(`{"minCandidateNodesPercentage":67,"minCandidateNodesAbsolute":1}`)}
		}
	}
	vcfg.Profiles = append(vcfg.Profiles, *twin, *window)
	data, err := json.Marshal(&vcfg)
	if err != nil {
		return nil, err
	}
	obj, _, err := scheme.Codecs.UniversalDecoder().Decode(data, nil, nil)
	if err != nil {
		return nil, err
	}
	cfg, ok := obj.(*schedulerapi.KubeSchedulerConfiguration)
	if !ok {
		return nil, fmt.Errorf("config/manager/scheduler-config.yaml decodes to %T", obj)
	}
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return nil, err
	}
	return cfg.Profiles, nil
}

// StartScheduler runs kube-scheduler's scheduler.New with both profiles
// and the schedkit plugins (clock frozen at T0) until the test ends, after
// its informers and event handlers have synced.
func (e *Env) StartScheduler() {
	t := e.T
	t.Helper()
	profiles, err := Profiles()
	if err != nil {
		t.Fatalf("loading the example profile: %v", err)
	}
	ctx := klog.NewContext(e.Ctx, klog.Background())
	client := e.B.Client
	informers := scheduler.NewInformerFactory(client, 0, nil)
	broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: client.EventsV1()})
	broadcaster.StartRecordingToSink(ctx.Done())
	t.Cleanup(broadcaster.Shutdown)
	sched, err := scheduler.New(ctx, client, informers, nil, profile.NewRecorderFactory(broadcaster),
		scheduler.WithProfiles(profiles...),
		scheduler.WithFrameworkOutOfTreeRegistry(kubesched.Registry(clocktesting.NewFakePassiveClock(e.T0))),
		scheduler.WithPodInitialBackoffSeconds(1),
		scheduler.WithPodMaxBackoffSeconds(1),
	)
	if err != nil {
		t.Fatalf("scheduler.New: %v", err)
	}
	informers.Start(ctx.Done())
	t.Cleanup(informers.Shutdown)
	informers.WaitForCacheSync(ctx.Done())
	if err := sched.WaitForHandlersSync(ctx); err != nil {
		t.Fatalf("waiting for the scheduler's event handlers: %v", err)
	}
	done := make(chan struct{})
	go func() { sched.Run(ctx); close(done) }()
	t.Cleanup(func() {
		e.cancel()
		<-done
	})
}

// Eventually polls cond every 50 ms for up to 30 s.
func (e *Env) Eventually(what string, cond func() (bool, error)) {
	e.T.Helper()
	err := wait.PollUntilContextTimeout(e.Ctx, 50*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		return cond()
	})
	if err != nil {
		e.T.Fatalf("%s: %v", what, err)
	}
}

// Pod gets a pod of the default namespace.
func (e *Env) Pod(name string) (*v1.Pod, error) {
	return e.B.Client.CoreV1().Pods(Namespace).Get(e.Ctx, name, metav1.GetOptions{})
}

// WaitBound waits until every named pod is bound and returns their nodes.
func (e *Env) WaitBound(names ...string) map[string]string {
	e.T.Helper()
	out := map[string]string{}
	var pending *v1.Pod
	err := wait.PollUntilContextTimeout(e.Ctx, 50*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		for _, n := range names {
			p, err := e.Pod(n)
			if err != nil {
				return false, err
			}
			if p.Spec.NodeName == "" {
				pending = p
				return false, nil
			}
			out[n] = p.Spec.NodeName
		}
		return true, nil
	})
	if err != nil {
		e.T.Fatalf("waiting for %s to be bound: %v; %s is not, conditions %+v", strings.Join(names, ", "), err, pending.Name, pending.Status.Conditions)
	}
	return out
}

// WaitUnschedulable waits until the pod has PodScheduled=False and returns
// the condition.
func (e *Env) WaitUnschedulable(name string) v1.PodCondition {
	e.T.Helper()
	var c v1.PodCondition
	e.Eventually("waiting for "+name+" to be unschedulable", func() (bool, error) {
		p, err := e.Pod(name)
		if err != nil {
			return false, err
		}
		for _, pc := range p.Status.Conditions {
			if pc.Type == v1.PodScheduled && pc.Status == v1.ConditionFalse {
				c = pc
				return true, nil
			}
		}
		return false, nil
	})
	return c
}

// Events lists the events regarding the named pod with the given reason.
func (e *Env) Events(pod, reason string) ([]eventsv1.Event, error) {
	l, err := e.B.Client.EventsV1().Events(Namespace).List(e.Ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var out []eventsv1.Event
	for _, ev := range l.Items {
		if ev.Regarding.Name == pod && ev.Reason == reason {
			out = append(out, ev)
		}
	}
	return out, nil
}

// Existing returns which of the named pods still exist.
func (e *Env) Existing(names ...string) ([]string, error) {
	var out []string
	for _, n := range names {
		_, err := e.Pod(n)
		switch {
		case err == nil:
			out = append(out, n)
		case !apierrors.IsNotFound(err):
			return nil, err
		}
	}
	return out, nil
}
