package progressscore

import (
	"context"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultbinder"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	schedmetrics "k8s.io/kubernetes/pkg/scheduler/metrics"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/kubesched/deadline"
	"github.com/schedkit/schedkit/adapters/kubesched/deadlineadmission"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/factory"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/tally"
)

// sharedProfile builds, with kube-scheduler's NewFramework, one profile
// with Deadline, DeadlineAdmission, ProgressShare and DefaultBinder from
// one registry env (the framework builds them in map order, so either
// tally user may come first), and returns the two tally users.
func sharedProfile(t testing.TB, env factory.Env) (*deadlineadmission.DeadlineAdmission, *ProgressShare) {
	t.Helper()
	built := map[string]fwk.Plugin{}
	keep := func(f frameworkruntime.PluginFactory) frameworkruntime.PluginFactory {
		return func(ctx context.Context, obj runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
			p, err := f(ctx, obj, h)
			if err == nil {
				built[p.Name()] = p
			}
			return p, err
		}
	}
	r := frameworkruntime.Registry{
		deadline.Name:          factory.New[deadline.Args](deadline.Name, deadline.Build, env),
		deadlineadmission.Name: keep(factory.New[deadlineadmission.Args](deadlineadmission.Name, deadlineadmission.Build, env)),
		Name:                   keep(factory.New[Args](Name, Build, env)),
		defaultbinder.Name:     defaultbinder.New,
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	profile := &config.KubeSchedulerProfile{
		SchedulerName: "schedkit-scheduler",
		Plugins: &config.Plugins{
			QueueSort: config.PluginSet{Enabled: []config.Plugin{{Name: deadline.Name}}},
			MultiPoint: config.PluginSet{Enabled: []config.Plugin{
				{Name: deadlineadmission.Name}, {Name: Name}, {Name: defaultbinder.Name},
			}},
		},
		PluginConfig: []config.PluginConfig{{Name: Name, Args: &runtime.Unknown{
			Raw: []byte(`{"nodeTypeLabel":"node.kubernetes.io/instance-type"}`), ContentType: runtime.ContentTypeJSON}}},
	}
	schedmetrics.Register() // NewFramework instruments the plugins
	informerFactory := informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	if _, err := frameworkruntime.NewFramework(ctx, r, profile, frameworkruntime.WithInformerFactory(informerFactory)); err != nil {
		t.Fatal(err)
	}
	return built[deadlineadmission.Name].(*deadlineadmission.DeadlineAdmission), built[Name].(*ProgressShare)
}

// TestSharedTally: in one profile, DeadlineAdmission and ProgressShare
// count the same pod events once, in one tally. The events of
// TestRunningJobs (deadlineadmission) come through DeadlineAdmission's pod
// handler only, the assumption through one plugin's Reserve and its end
// through the other's Unreserve; after each, DeadlineAdmission's decision
// and ProgressShare's counts of job a agree with the step.
func TestSharedTally(t *testing.T) {
	da, pl := sharedProfile(t, factory.NewEnv(clocktesting.NewFakePassiveClock(t0)))
	pod := func(name string) *v1.Pod {
		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, UID: types.UID("uid-" + name),
			CreationTimestamp: metav1.NewTime(t0),
			Annotations: map[string]string{
				annotation.Deadline: t0.Add(90 * time.Minute).Format(time.RFC3339),
				annotation.Runtime:  time.Hour.String(),
			}},
			Spec: v1.PodSpec{SchedulerName: "schedkit-scheduler"}}
	}
	a, b := pod("a"), pod("b")
	bound := func(phase v1.PodPhase) *v1.Pod {
		p := a.DeepCopy()
		p.Spec.NodeName, p.Status.Phase = "n1", phase
		return p
	}
	h := da.PodHandler()
	h.OnAdd(a, true)
	ctx := context.Background()
	steps := []struct {
		name             string
		event            func()
		admits           bool
		pending, running int
	}{
		{"a pending", func() {}, true, 1, 0},
		{"a assumed (ProgressShare's Reserve)", func() { pl.Reserve(ctx, nil, a, "n1") }, false, 0, 1},
		{"a assumed again (DeadlineAdmission's Reserve)", func() { da.Reserve(ctx, nil, a, "n1") }, false, 0, 1},
		{"a's binding failed (DeadlineAdmission's Unreserve)", func() { da.Unreserve(ctx, nil, a, "n1") }, true, 1, 0},
		{"a assumed (DeadlineAdmission's Reserve)", func() { da.Reserve(ctx, nil, a, "n1") }, false, 0, 1},
		{"a's binding failed (ProgressShare's Unreserve)", func() { pl.Unreserve(ctx, nil, a, "n1") }, true, 1, 0},
		{"a bound", func() { h.OnUpdate(a, bound(v1.PodRunning)) }, false, 0, 1},
		{"a succeeded", func() { h.OnUpdate(a, bound(v1.PodSucceeded)) }, true, 0, 0},
		{"a bound again (the informer's view replayed)", func() { h.OnUpdate(a, bound(v1.PodRunning)) }, false, 0, 1},
		{"a deleted", func() { h.OnDelete(a) }, true, 0, 0},
	}
	for _, s := range steps {
		s.event()
		_, st := da.PreFilter(ctx, nil, b, nil)
		if st.IsSuccess() != s.admits {
			t.Fatalf("%s: DeadlineAdmission admits b = %v, want %v (%s)", s.name, st.IsSuccess(), s.admits, st.Message())
		}
		var pending, running int
		pl.tally.Read(func(v *tally.View) {
			if j := v.Job(a.UID); j != nil {
				pending, running = j.Pending, j.Running
			}
		})
		if pending != s.pending || running != s.running {
			t.Fatalf("%s: ProgressShare counts job a pending %d, running %d; want %d, %d", s.name, pending, running, s.pending, s.running)
		}
	}
}

// TestSharedTallyPerProfile: two profiles built from one registry env get
// a tally each (a pod of one profile is pending in its own tally only).
func TestSharedTallyPerProfile(t *testing.T) {
	env := factory.NewEnv(clocktesting.NewFakePassiveClock(t0))
	da1, pl1 := sharedProfile(t, env)
	_, pl2 := sharedProfile(t, env)
	p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "uid-p"}, Spec: v1.PodSpec{SchedulerName: "schedkit-scheduler"}}
	da1.PodHandler().OnAdd(p, true)
	count := func(pl *ProgressShare) (n int) {
		pl.tally.Read(func(v *tally.View) {
			if j := v.Job(p.UID); j != nil {
				n = j.Pending
			}
		})
		return n
	}
	if got1, got2 := count(pl1), count(pl2); got1 != 1 || got2 != 0 {
		t.Fatalf("pending in profile 1's tally %d, in profile 2's %d; want 1, 0", got1, got2)
	}
}
