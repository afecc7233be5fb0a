//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-logr/logr"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crconfig "sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	kueueconfig "sigs.k8s.io/kueue/apis/config/v1beta2"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	"sigs.k8s.io/kueue/pkg/constants"
	"sigs.k8s.io/kueue/pkg/controller/core"
	"sigs.k8s.io/kueue/pkg/controller/core/indexer"
	"sigs.k8s.io/kueue/pkg/scheduler"
	preemptexpectations "sigs.k8s.io/kueue/pkg/scheduler/preemption/expectations"
	"sigs.k8s.io/kueue/pkg/webhooks"
	"sigs.k8s.io/kueue/pkg/workload"
	workloadpatching "sigs.k8s.io/kueue/pkg/workload/patching"
	"sigs.k8s.io/yaml"

	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
	"github.com/schedkit/schedkit/adapters/kueue/deadlinecheck"
)

// env is one real control plane with Kueue running in it.
type env struct {
	cfg         *rest.Config
	scheme      *runtime.Scheme
	c           client.Client // uncached: reads what the API server has
	metricsAddr string        // the check's metrics endpoint, host:port
	managerPid  int           // the process runManager started (0: none)
	managerArgs []string      // flags runManager adds to those of checkOpts
	managerLog  io.Writer     // also gets the output of runManager's process (nil: none)
	stopCheck   func()        // stops the check's manager (nil when stopped)
	checkOpts   deadlinecheck.Options
	queues      *qcache.Manager // Kueue's queue manager, in this process
	top         *testing.T      // the test that owns the servers: cleanups go there
}

// startEnv starts etcd and kube-apiserver (envtest, from
// KUBEBUILDER_ASSETS), installs Kueue's CRDs and webhooks and the check's
// CRD, and runs Kueue's controllers, scheduler and webhooks in a manager.
// Everything stops in t.Cleanup. A missing binary or a server that does
// not start fails the test.
func startEnv(t *testing.T) *env {
	t.Helper()
	e := startControlPlane(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); e.completeEvictions(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return e
}

// startControlPlane is startEnv without the loop that completes evictions
// (a test that watches the Workloads completes them itself).
func startControlPlane(t *testing.T) *env {
	t.Helper()
	return startControlPlaneWith(t, kueueOptions{})
}

// kueueOptions set how the test's Kueue manager runs; the zero value is
// controller-runtime's defaults (one worker per controller, envtest's
// client limits).
type kueueOptions struct {
	// concurrency is the manager's GroupKindConcurrency (workers per
	// controller, by kind).
	concurrency map[string]int
	// qps and burst limit Kueue's client (0: envtest's).
	qps   float32
	burst int
}

// perfKueue is how Kueue's own scheduler-performance harness runs Kueue
// (test/performance/scheduler/minimalkueue, after Kueue's default
// configuration): five Workload workers, one for each other core
// controller, client limits of 50 requests a second, bursts of 100.
var perfKueue = kueueOptions{
	concurrency: map[string]int{
		"Workload.kueue.x-k8s.io":       5,
		"LocalQueue.kueue.x-k8s.io":     1,
		"ClusterQueue.kueue.x-k8s.io":   1,
		"ResourceFlavor.kueue.x-k8s.io": 1,
	},
	qps:   50,
	burst: 100,
}

// startControlPlaneWith is startControlPlane with Kueue run as ko says.
func startControlPlaneWith(t *testing.T, ko kueueOptions) *env {
	t.Helper()
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		t.Fatal("KUBEBUILDER_ASSETS is not set: run bash adapters/test-e2e.sh, which builds kube-apiserver and etcd and sets it")
	}
	for _, bin := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(assets, bin)); err != nil {
			t.Fatalf("KUBEBUILDER_ASSETS=%s: %v", assets, err)
		}
	}
	if os.Getenv("SCHEDKIT_E2E_LOG") != "" {
		ctrl.SetLogger(zap.New(zap.WriteTo(os.Stderr), zap.UseDevMode(true)))
	} else {
		ctrl.SetLogger(logr.Discard())
	}

	kueueDir := moduleDir(t, "sigs.k8s.io/kueue")
	mutating, validating := kueueWebhooks(t, filepath.Join(kueueDir, "config", "components", "webhook", "manifests.yaml"))
	te := &envtest.Environment{
		CRDDirectoryPaths: []string{
			filepath.Join(kueueDir, "config", "components", "crd", "bases"),
			filepath.Join("..", "config", "crd"),
		},
		ErrorIfCRDPathMissing:    true,
		CRDInstallOptions:        envtest.CRDInstallOptions{MaxTime: 3 * time.Minute}, // a loaded two-core machine
		BinaryAssetsDirectory:    assets,
		ControlPlaneStartTimeout: 3 * time.Minute, // a loaded two-core machine
		ControlPlaneStopTimeout:  60 * time.Second,
		WebhookInstallOptions:    envtest.WebhookInstallOptions{MutatingWebhooks: mutating, ValidatingWebhooks: validating},
	}
	cfg, err := te.Start()
	if err != nil {
		_ = te.Stop() // what did start
		t.Fatalf("starting kube-apiserver and etcd from %s: %v", assets, err)
	}
	t.Cleanup(func() {
		if err := te.Stop(); err != nil {
			t.Errorf("stopping kube-apiserver and etcd: %v", err)
		}
	})

	scheme := runtime.NewScheme()
	if err := errors.Join(clientgoscheme.AddToScheme(scheme), kueue.AddToScheme(scheme),
		kueueconfig.AddToScheme(scheme), v1alpha1.AddToScheme(scheme)); err != nil {
		t.Fatal(err)
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{cfg: cfg, scheme: scheme, c: c, metricsAddr: freeAddr(t), top: t}
	e.startKueue(t, &te.WebhookInstallOptions, ko)
	return e
}

// completeEvictions does for every evicted Workload what Kueue's batch/v1
// Job integration does once it has suspended the evicted Job: it marks the
// workload requeued (only for preemption and node failures) and releases
// its quota reservation, with Kueue's own functions
// (workload.SetRequeuedCondition, workload.UnsetQuotaReservationWithCondition,
// written by workloadpatching.PatchAdmissionStatus), as Kueue's scheduler
// integration tests do. Without it an eviction never completes: there is no
// Job controller here.
func (e *env) completeEvictions(ctx context.Context) {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		l := &kueue.WorkloadList{}
		if err := e.c.List(ctx, l); err != nil {
			continue
		}
		for i := range l.Items {
			_, _ = releaseEvicted(ctx, e.c, &l.Items[i])
		}
	}
}

// releaseEvicted does for an evicted Workload holding quota what Kueue's
// job integration does (see completeEvictions); it reports whether the
// workload was one.
func releaseEvicted(ctx context.Context, c client.Client, wl *kueue.Workload) (bool, error) {
	ev := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadEvicted)
	if ev == nil || ev.Status != metav1.ConditionTrue || !workload.HasQuotaReservation(wl) {
		return false, nil
	}
	return true, workloadpatching.PatchAdmissionStatus(ctx, c, wl, clock.RealClock{}, func(wl *kueue.Workload) (bool, error) {
		requeued := ev.Reason == kueue.WorkloadEvictedByPreemption || ev.Reason == kueue.WorkloadEvictedDueToNodeFailures
		updated := workload.SetRequeuedCondition(wl, ev.Reason, ev.Message, requeued)
		reason := workload.UnadmittedWorkloadReasonWithFallback(kueue.WorkloadQuotaReservedReasonPendingEvaluation, kueue.WorkloadPending) //nolint:staticcheck // as Kueue's job integration
		if workload.UnsetQuotaReservationWithCondition(wl, reason, ev.Message, time.Now()) {
			updated = true
		}
		return updated, nil
	})
}

// startKueue runs Kueue as its own main does: indexes, the scheduler cache
// and queue manager, the core controllers, the webhooks and the scheduler.
func (e *env) startKueue(t *testing.T, wh *envtest.WebhookInstallOptions, ko kueueOptions) {
	t.Helper()
	restCfg := rest.CopyConfig(e.cfg)
	if ko.qps > 0 {
		restCfg.QPS, restCfg.Burst = ko.qps, ko.burst
	}
	mgr, err := ctrl.NewManager(restCfg, ctrl.Options{
		Scheme:  e.scheme,
		Metrics: metricsserver.Options{BindAddress: "0"},
		WebhookServer: webhook.NewServer(webhook.Options{
			Host: wh.LocalServingHost, Port: wh.LocalServingPort, CertDir: wh.LocalServingCertDir,
		}),
		HealthProbeBindAddress: "0",
		// Each test of this package runs its own Kueue in this process.
		Controller: crconfig.Controller{SkipNameValidation: ptr(true), GroupKindConcurrency: ko.concurrency},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := indexer.Setup(ctx, mgr.GetFieldIndexer()); err != nil {
		t.Fatal(err)
	}
	cfg := &kueueconfig.Configuration{}
	e.scheme.Default(cfg)
	cCache := schdcache.New(mgr.GetClient())
	requeuer := qcache.NewRequeuer()
	if err := mgr.Add(requeuer); err != nil {
		t.Fatal(err)
	}
	expectations := preemptexpectations.New()
	queues := qcache.NewManager(mgr.GetClient(), cCache, requeuer, qcache.WithPreemptionExpectations(expectations))
	e.queues = queues
	if name, err := core.SetupControllers(mgr, queues, cCache, cfg, core.SetupControllersOpts{PreemptionExpectations: expectations}); err != nil {
		t.Fatalf("Kueue controller %s: %v", name, err)
	}
	if name, err := webhooks.Setup(mgr, nil); err != nil {
		t.Fatalf("Kueue webhook %s: %v", name, err)
	}
	sched := scheduler.New(queues, cCache, mgr.GetClient(), mgr.GetEventRecorder(constants.AdmissionName),
		scheduler.WithPreemptionExpectations(expectations))
	if err := mgr.Add(sched); err != nil {
		t.Fatal(err)
	}
	go queues.CleanUpOnContext(ctx)
	go cCache.CleanUpOnContext(ctx)
	startManagerForTest(t, "Kueue manager", ctx, cancel, mgr)
	// Kueue's webhooks must serve before any Kueue object is created.
	addr := net.JoinHostPort(wh.LocalServingHost, strconv.Itoa(wh.LocalServingPort))
	waitFor(t, 60*time.Second, "Kueue's webhook server", func() (bool, string) {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return false, err.Error()
		}
		conn.Close()
		return true, ""
	})
}

// startCheck runs the schedkit.io/deadline controller in its own manager,
// as cmd/schedkit-deadline does, serving metrics on e.metricsAddr.
func (e *env) startCheck(t *testing.T) {
	t.Helper()
	if e.stopCheck != nil {
		t.Fatal("the check is already running")
	}
	mgr, err := ctrl.NewManager(e.cfg, ctrl.Options{
		Scheme:                 e.scheme,
		Metrics:                metricsserver.Options{BindAddress: e.metricsAddr},
		HealthProbeBindAddress: "0",
		// A restarted check registers its controllers again in this process.
		Controller: crconfig.Controller{SkipNameValidation: ptr(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := deadlinecheck.Setup(ctx, mgr, e.checkOpts); err != nil {
		cancel()
		t.Fatal(err)
	}
	stop := startManager(ctx, cancel, mgr)
	stopped := false
	e.stopCheck = func() {
		if stopped {
			return
		}
		stopped = true
		if err := stop(); err != nil {
			e.top.Errorf("check manager: %v", err)
		}
		e.stopCheck = nil
	}
	// Stopped with the servers, not with the subtest that (re)started it.
	e.top.Cleanup(func() {
		if e.stopCheck != nil {
			e.stopCheck()
		}
	})
}

// startManager starts mgr on ctx and returns stop, which cancels ctx,
// waits for the manager to return and returns its error.
func startManager(ctx context.Context, cancel context.CancelFunc, mgr ctrl.Manager) (stop func() error) {
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	return func() error {
		cancel()
		return <-done
	}
}

// startManagerForTest starts mgr on ctx and stops it when t ends,
// reporting its error as name's.
func startManagerForTest(t *testing.T, name string, ctx context.Context, cancel context.CancelFunc, mgr ctrl.Manager) {
	stop := startManager(ctx, cancel, mgr)
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	})
}

// runManager builds cmd/schedkit-deadline and runs it as its own process
// against the test's API server, as an operator would, with flags matching
// e.checkOpts. It returns the process's metrics address and a function
// that stops it with SIGTERM (also run in cleanup).
func (e *env) runManager(t *testing.T) (metricsAddr string, stop func()) {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "schedkit-deadline")
	build := exec.Command("go", "build", "-o", bin, "./cmd/schedkit-deadline")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/schedkit-deadline: %v\n%s", err, out)
	}
	kc := clientcmdapi.NewConfig()
	kc.Clusters["envtest"] = &clientcmdapi.Cluster{Server: e.cfg.Host, CertificateAuthorityData: e.cfg.CAData}
	kc.AuthInfos["admin"] = &clientcmdapi.AuthInfo{ClientCertificateData: e.cfg.CertData, ClientKeyData: e.cfg.KeyData, Token: e.cfg.BearerToken}
	kc.Contexts["envtest"] = &clientcmdapi.Context{Cluster: "envtest", AuthInfo: "admin"}
	kc.CurrentContext = "envtest"
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := clientcmd.WriteToFile(*kc, kubeconfig); err != nil {
		t.Fatal(err)
	}
	metricsAddr, probeAddr := freeAddr(t), freeAddr(t)
	cfg := e.checkOpts.Config
	cmd := exec.Command(bin, "-kubeconfig", kubeconfig,
		"-confidence", strconv.FormatFloat(cfg.Confidence, 'g', -1, 64), "-samples", strconv.Itoa(cfg.Samples),
		"-min-retry", cfg.MinRetry.String(), "-max-retry", cfg.MaxRetry.String(),
		"-eta-refresh", e.checkOpts.ETARefresh.String(), "-eta-tolerance", e.checkOpts.ETATolerance.String(),
		"-metrics-bind-address", metricsAddr, "-health-probe-bind-address", probeAddr)
	cmd.Args = append(cmd.Args, e.managerArgs...)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if e.managerLog != nil {
		cmd.Stdout = io.MultiWriter(&logs, e.managerLog)
		cmd.Stderr = cmd.Stdout
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	e.managerPid = cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-done:
			if err != nil {
				e.top.Errorf("schedkit-deadline exited with %v:\n%s", err, logs.String())
			}
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			e.top.Errorf("schedkit-deadline did not stop on SIGTERM:\n%s", logs.String())
		}
	}
	e.top.Cleanup(stop)
	waitFor(t, 60*time.Second, "schedkit-deadline's /readyz", func() (bool, string) {
		select {
		case err := <-done:
			t.Fatalf("schedkit-deadline exited early (%v):\n%s", err, logs.String())
		default:
		}
		resp, err := http.Get("http://" + probeAddr + "/readyz")
		if err != nil {
			return false, err.Error()
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, resp.Status
	})
	return metricsAddr, stop
}

// metrics returns the check's metrics endpoint's text exposition.
func (e *env) metrics(t *testing.T) string {
	t.Helper()
	return scrape(t, e.metricsAddr)
}

func scrape(t *testing.T, addr string) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatalf("metrics endpoint: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// moduleDir is the directory of a module in the module cache.
func moduleDir(t *testing.T, mod string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	if err != nil {
		t.Fatalf("go list -m %s: %v", mod, err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		t.Fatalf("module %s is not in the module cache (go mod download)", mod)
	}
	return dir
}

// kueueWebhooks reads Kueue's webhook configurations and keeps the
// webhooks of Kueue's own API group: the job integrations' webhooks
// (batch/v1 Jobs and the rest) are not served here.
func kueueWebhooks(t *testing.T, path string) ([]*admissionv1.MutatingWebhookConfiguration, []*admissionv1.ValidatingWebhookConfiguration) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	kueueOnly := func(rules []admissionv1.RuleWithOperations) bool {
		for _, r := range rules {
			for _, g := range r.APIGroups {
				if g == kueue.SchemeGroupVersion.Group {
					return true
				}
			}
		}
		return false
	}
	var muts []*admissionv1.MutatingWebhookConfiguration
	var vals []*admissionv1.ValidatingWebhookConfiguration
	dec := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(raw)))
	for {
		doc, err := dec.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var meta struct{ Kind string }
		unmarshalDoc(t, doc, &meta)
		switch meta.Kind {
		case "MutatingWebhookConfiguration":
			m := &admissionv1.MutatingWebhookConfiguration{}
			unmarshalDoc(t, doc, m)
			m.Webhooks = slices.DeleteFunc(m.Webhooks, func(w admissionv1.MutatingWebhook) bool { return !kueueOnly(w.Rules) })
			muts = append(muts, m)
		case "ValidatingWebhookConfiguration":
			v := &admissionv1.ValidatingWebhookConfiguration{}
			unmarshalDoc(t, doc, v)
			v.Webhooks = slices.DeleteFunc(v.Webhooks, func(w admissionv1.ValidatingWebhook) bool { return !kueueOnly(w.Rules) })
			vals = append(vals, v)
		}
	}
	if len(muts) == 0 || len(vals) == 0 {
		t.Fatalf("%s: no webhook configurations", path)
	}
	return muts, vals
}

// unmarshalDoc decodes one YAML document into v, failing t on an error.
func unmarshalDoc(t *testing.T, doc []byte, v any) {
	t.Helper()
	if err := yaml.Unmarshal(doc, v); err != nil {
		t.Fatal(err)
	}
}

// freeAddr returns a localhost address with a port nobody listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// waitFor polls cond every 100 ms until it holds, failing the test with
// cond's last explanation after timeout.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	last := ""
	for {
		ok, why := cond()
		if ok {
			return
		}
		last = why
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s: %s", timeout, what, last)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func ptr[T any](v T) *T { return &v }
