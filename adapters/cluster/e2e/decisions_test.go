//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// A decisionLog watches the Workloads of some namespaces and keeps, for
// each (by its Job, "namespace/job"), every decision of the check it was
// seen to carry, in order: a new entry each time the decision differs from
// the last one. A decision is the check's state Ready, Retry or Rejected
// with its message, or its deactivation of a workload waiting for quota
// (written as the Rejected it stands for). Digits are masked (#), so that
// two workloads submitted at different times compare equal when they were
// decided alike. The watch resumes from the last resourceVersion it saw
// when the API server closes it, and lists again when that is too old.
type decisionLog struct {
	mu      sync.Mutex
	seq     map[string][]string
	first   map[string]time.Time // when the first decision was seen
	relists int                  // watches that could not resume
	// created is each Workload's creationTimestamp; reserved, when its
	// first quota reservation was seen.
	created, reserved map[string]time.Time
}

var digits = regexp.MustCompile(`[0-9]+`)

// decisionOf is the decision a Workload carries, "" when none.
func decisionOf(wl *kueue.Workload) string {
	st := checkState(wl)
	switch st.State {
	case kueue.CheckStateReady, kueue.CheckStateRetry, kueue.CheckStateRejected:
		return string(st.State) + ": " + digits.ReplaceAllString(strings.SplitN(st.Message, ": ", 2)[1], "#")
	}
	if r, ok := strings.CutPrefix(st.Message, "Rejected and deactivated while waiting for quota: "); ok {
		return "Rejected: " + digits.ReplaceAllString(r, "#")
	}
	return ""
}

// jobOf names the Job that owns a Workload, "namespace/job".
func jobOf(wl *kueue.Workload) string {
	for _, o := range wl.OwnerReferences {
		if o.Kind == "Job" {
			return wl.Namespace + "/" + o.Name
		}
	}
	return wl.Namespace + "/" + wl.Name
}

// recordDecisions starts a decisionLog on the namespaces; it stops when
// the test ends.
func (cl *cluster) recordDecisions(t *testing.T, namespaces ...string) *decisionLog {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", cl.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := kueue.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	wc, err := client.NewWithWatch(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	d := &decisionLog{seq: map[string][]string{}, first: map[string]time.Time{},
		created: map[string]time.Time{}, reserved: map[string]time.Time{}}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, ns := range namespaces {
		list := func() (*kueue.WorkloadList, error) {
			l := &kueue.WorkloadList{}
			return l, wc.List(ctx, l, client.InNamespace(ns))
		}
		l, err := list()
		if err != nil {
			t.Fatal(err)
		}
		for i := range l.Items {
			d.see(&l.Items[i])
		}
		wg.Add(1)
		go func(rv string) {
			defer wg.Done()
			for ctx.Err() == nil {
				w, err := wc.Watch(ctx, &kueue.WorkloadList{}, client.InNamespace(ns),
					&client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true}})
				if err != nil {
					time.Sleep(200 * time.Millisecond) // the API server is down: try again
					continue
				}
				rv = d.drain(w, rv)
				w.Stop()
				if rv == "" { // too old to resume: list again
					d.mu.Lock()
					d.relists++
					d.mu.Unlock()
					if l, err := list(); err == nil {
						for i := range l.Items {
							d.see(&l.Items[i])
						}
						rv = l.ResourceVersion
					}
				}
			}
		}(l.ResourceVersion)
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
	return d
}

// drain handles a watch's events until it closes and returns the
// resourceVersion to resume from, "" when it expired.
func (d *decisionLog) drain(w watch.Interface, rv string) string {
	for ev := range w.ResultChan() {
		switch ev.Type {
		case watch.Error:
			if apierrors.IsResourceExpired(apierrors.FromObject(ev.Object)) || apierrors.IsGone(apierrors.FromObject(ev.Object)) {
				return ""
			}
			return rv
		case watch.Added, watch.Modified, watch.Bookmark:
			wl, ok := ev.Object.(*kueue.Workload)
			if !ok {
				continue
			}
			rv = wl.ResourceVersion
			if ev.Type != watch.Bookmark {
				d.see(wl)
			}
		case watch.Deleted:
			if wl, ok := ev.Object.(*kueue.Workload); ok {
				rv = wl.ResourceVersion
			}
		}
	}
	return rv
}

func (d *decisionLog) see(wl *kueue.Workload) {
	k := jobOf(wl)
	dec := decisionOf(wl)
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.created[k]; !ok {
		d.created[k] = wl.CreationTimestamp.Time
	}
	if _, ok := d.reserved[k]; !ok && condTrue(wl, kueue.WorkloadQuotaReserved) {
		d.reserved[k] = time.Now()
	}
	if dec == "" {
		return
	}
	s := d.seq[k]
	if len(s) == 0 || s[len(s)-1] != dec {
		d.seq[k] = append(s, dec)
	}
	if _, ok := d.first[k]; !ok {
		d.first[k] = time.Now()
	}
}

// of returns the decisions seen on a Job's Workload and when the first was.
func (d *decisionLog) of(ns, job string) ([]string, time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.seq[ns+"/"+job]), d.first[ns+"/"+job]
}

// times returns when a Job's Workload was created, when its first quota
// reservation and its first decision were seen (zero: not seen).
func (d *decisionLog) times(ns, job string) (created, reserved, decided time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	k := ns + "/" + job
	return d.created[k], d.reserved[k], d.first[k]
}

// waitDecided waits until every Job of jobs in ns has a decision.
func (d *decisionLog) waitDecided(t *testing.T, ns string, jobs []string, limit time.Duration) {
	t.Helper()
	eventually(t, limit, fmt.Sprintf("%d workloads of %s decided", len(jobs), ns), func() (bool, string) {
		var open []string
		for _, j := range jobs {
			if s, _ := d.of(ns, j); len(s) == 0 {
				open = append(open, j)
			}
		}
		return len(open) == 0, fmt.Sprintf("undecided: %v", open)
	})
}

// undecided counts the Jobs of jobs in ns without a decision yet.
func (d *decisionLog) undecided(ns string, jobs []string) int {
	n := 0
	for _, j := range jobs {
		if s, _ := d.of(ns, j); len(s) == 0 {
			n++
		}
	}
	return n
}

// checkOnce fails the test for every Job of jobs in ns that did not get
// exactly one decision, or (want not nil) not the one want gives.
func (d *decisionLog) checkOnce(t *testing.T, ns string, jobs []string, want func(job string) string) {
	t.Helper()
	for _, j := range jobs {
		s, _ := d.of(ns, j)
		if len(s) != 1 {
			t.Errorf("%s/%s: %d decisions %q, want exactly one", ns, j, len(s), s)
			continue
		}
		if want != nil {
			if w := want(j); !strings.HasPrefix(s[0], w) {
				t.Errorf("%s/%s: decided %q, want %q", ns, j, s[0], w)
			}
		}
	}
}
