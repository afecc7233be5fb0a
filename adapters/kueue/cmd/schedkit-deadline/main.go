// Command schedkit-deadline is the schedkit.io/deadline Kueue AdmissionCheck
// controller: it admits a Workload only when its deadline and those of the
// workloads already admitted hold at the configured confidence, and writes
// the predicted start and finish of every pending Workload behind the check
// (annotations, check message, Prometheus metrics).
//
//	go run ./cmd/schedkit-deadline -kubeconfig ~/.kube/config -confidence 0.9
//
// See package deadlinecheck for the model and the messages.
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"go.uber.org/zap/zapcore"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
	"github.com/schedkit/schedkit/adapters/kueue/deadlinecheck"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// flags are the command line, validated before any work.
type flags struct {
	kubeconfig   string
	qps          float64
	burst        int
	cfg          deadlinecheck.Config
	etaRefresh   time.Duration
	etaTolerance time.Duration
	etaInterval  time.Duration
	etaSlice     int
	workers      int
	etaWrites    float64
	eta          bool
	etaArrivals  bool
	edfBoost     bool
	etaSkips     bool
	requeueBatch time.Duration
	delayQ       float64
	delayWindow  int
	metricsAddr  string
	probeAddr    string
	pprofAddr    string
	election     leaderElection
	verbosity    int
}

func parse(args []string, stderr io.Writer) (*flags, int) {
	f := &flags{cfg: deadlinecheck.DefaultConfig()}
	fs := flag.NewFlagSet("schedkit-deadline", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, `Usage: schedkit-deadline [flags]

The schedkit.io/deadline Kueue AdmissionCheck controller. It serves every
AdmissionCheck whose spec.controllerName is schedkit.io/deadline: a workload
behind it is Ready when it and every admitted deadline workload of its
ClusterQueue meet their deadlines with probability >= -confidence, Retry
when it could fit later, Rejected when it never can or its input is
malformed. Pending workloads get their predicted start and finish (p50,
p90) as annotations, in the check message and as Prometheus metrics.

Flags:
`)
		fs.PrintDefaults()
	}
	fs.StringVar(&f.kubeconfig, "kubeconfig", "", "path to a kubeconfig; empty: $KUBECONFIG, in-cluster config, then ~/.kube/config")
	fs.Float64Var(&f.qps, "kube-api-qps", 0, "client-side limit on requests per second to the API server, whichever way the kubeconfig is found; 0: no client-side limit (the API server's priority and fairness applies), as controller-runtime's default")
	fs.IntVar(&f.burst, "kube-api-burst", 0, "requests allowed at once above -kube-api-qps; 0: twice -kube-api-qps, rounded up")
	fs.Float64Var(&f.cfg.Confidence, "confidence", f.cfg.Confidence, "probability in (0, 1] with which every protected deadline must hold for Ready")
	fs.IntVar(&f.cfg.Samples, "samples", f.cfg.Samples, fmt.Sprintf("Monte-Carlo draws of each workload's run time, in [1, %d]", deadlinecheck.MaxSamples))
	fs.Uint64Var(&f.cfg.Seed, "seed", f.cfg.Seed, "seed of the Monte-Carlo draws (each workload's draws also depend on its UID)")
	fs.DurationVar(&f.cfg.MinRetry, "min-retry", f.cfg.MinRetry, "shortest requeueAfterSeconds of a Retry, in [1s, 24h]")
	fs.DurationVar(&f.cfg.MaxRetry, "max-retry", f.cfg.MaxRetry, "longest requeueAfterSeconds of a Retry, in [min-retry, 24h]")
	fs.DurationVar(&f.cfg.StartDelay, "start-delay", f.cfg.StartDelay, "time the control plane adds to each workload's run (admission to pods running, pods' end to finish), in [0s, 1h]")
	fs.Float64Var(&f.delayQ, "start-delay-quantile", 0, "when in (0, 1]: decide with this quantile of the start delay observed on the latest -start-delay-window finished workloads of each ClusterQueue (from the check's Ready to finished, less the run time), -start-delay until enough have finished; 0: -start-delay always")
	fs.IntVar(&f.delayWindow, "start-delay-window", deadlinecheck.DefaultDelayWindow, fmt.Sprintf("finished workloads the learnt start delay is taken over, in [%d, %d]", deadlinecheck.MinDelayObservations, deadlinecheck.MaxDelayWindow))
	fs.DurationVar(&f.etaRefresh, "eta-refresh", 30*time.Second, "how often ETAs are recomputed when nothing changes, in [1s, 1h]")
	fs.DurationVar(&f.etaTolerance, "eta-tolerance", 30*time.Second, "rewrite an ETA only when it moves at least this much, in [0s, 1h]")
	fs.DurationVar(&f.etaInterval, "eta-interval", 0, "shortest time between two ETA passes of one ClusterQueue (each predicts every pending workload), in [0s, eta-refresh]; decisions do not wait for it; 0: 5s or -eta-refresh if shorter")
	fs.IntVar(&f.etaSlice, "eta-slice", deadlinecheck.DefaultETASliceStarts, "most work of an ETA pass in one reconcile, in predicted starts (a pending workload in a sample; a pass is 1.25 × pending × samples): a larger pass goes on in the reconciles after it, each deciding first, and its ETAs land when it ends; in [0, 1000000000], 0: the whole pass in one reconcile")
	fs.Float64Var(&f.etaWrites, "eta-writes-per-second", deadlinecheck.DefaultETAWritesPerSecond, "workloads a second whose ETA is written, over all ClusterQueues (decisions are not counted; two workloads' ETAs are written at once at most, so a slow API server slows them further), in (0, 100000]")
	fs.BoolVar(&f.eta, "eta", true, "predict and write each waiting workload's ETA (its annotations, Pending message and metrics); false: no ETA pass, only the decisions")
	fs.BoolVar(&f.etaArrivals, "eta-arrivals", true, "the ETA counts the workloads each ClusterQueue's arrivals so far say will come and go ahead (a Poisson rate over its latest 50 arrivals, each like one of them); false: only the workloads there are")
	fs.BoolVar(&f.etaSkips, "eta-skips", true, "the ETA counts the time Kueue's scheduler takes to walk its queue: on each waiting workload ahead that it tries and does not admit, one status write each (the median round trip of the check's latest 50 status writes), and -kueue-requeue-batch from quota freeing to the walk; false: neither")
	fs.BoolVar(&f.edfBoost, "edf-priority-boost", false, "write Kueue's priority boost (annotation kueue.x-k8s.io/priority-boost) on every workload waiting behind the check with a deadline, the earlier the deadline the larger, so that Kueue admits in earliest-deadline-first order; Kueue reads it only with its PriorityBoost feature gate on")
	fs.DurationVar(&f.requeueBatch, "kueue-requeue-batch", deadlinecheck.DefaultKueueRequeueBatch, "Kueue's batch period for putting the workloads it set aside back into the queue when quota frees (1s in Kueue v0.19, 10s with its SchedulerLongRequeueInterval feature gate), in [0s, 1m]; 0s: none")
	fs.IntVar(&f.workers, "workers", deadlinecheck.DefaultWorkers, fmt.Sprintf("ClusterQueues reconciled at once, in [1, %d]", deadlinecheck.MaxWorkers))
	fs.StringVar(&f.metricsAddr, "metrics-bind-address", ":8080", `address of the Prometheus metrics endpoint; "0" disables it`)
	fs.StringVar(&f.probeAddr, "health-probe-bind-address", ":8081", `address of the /healthz and /readyz probes; "0" disables them`)
	fs.StringVar(&f.pprofAddr, "pprof-bind-address", "", `address of Go's pprof endpoints (/debug/pprof/); "" or "0" disables them`)
	f.election.register(fs)
	fs.IntVar(&f.verbosity, "v", 0, "log verbosity, in [0, 10]")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, 0
		}
		return nil, 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "schedkit-deadline: unexpected argument %q (flags only; -h lists them)\n", fs.Arg(0))
		return nil, 2
	}
	var errs []error
	if err := f.cfg.Validate(); err != nil {
		errs = append(errs, err)
	}
	if f.etaRefresh < time.Second || f.etaRefresh > time.Hour {
		errs = append(errs, fmt.Errorf("eta-refresh = %v: must be in [1s, 1h]", f.etaRefresh))
	}
	if f.etaTolerance < 0 || f.etaTolerance > time.Hour {
		errs = append(errs, fmt.Errorf("eta-tolerance = %v: must be in [0s, 1h]", f.etaTolerance))
	}
	if f.etaInterval < 0 || f.etaInterval > f.etaRefresh {
		errs = append(errs, fmt.Errorf("eta-interval = %v: must be in [0s, eta-refresh]", f.etaInterval))
	}
	if f.requeueBatch < 0 || f.requeueBatch > time.Minute {
		errs = append(errs, fmt.Errorf("kueue-requeue-batch = %v: must be in [0s, 1m]", f.requeueBatch))
	}
	if f.etaSlice < 0 || f.etaSlice > maxETASlice {
		errs = append(errs, fmt.Errorf("eta-slice = %d: must be in [0, %d]", f.etaSlice, maxETASlice))
	}
	if !(f.etaWrites > 0 && f.etaWrites <= maxQPS) {
		errs = append(errs, fmt.Errorf("eta-writes-per-second = %v: must be in (0, %d]", f.etaWrites, maxQPS))
	}
	if f.delayQ != 0 {
		if _, err := deadlinecheck.EstimateDelay(nil, f.delayQ, f.delayWindow, 0); err != nil {
			errs = append(errs, err)
		}
	}
	if f.workers < 1 || f.workers > deadlinecheck.MaxWorkers {
		errs = append(errs, fmt.Errorf("workers = %d: must be in [1, %d]", f.workers, deadlinecheck.MaxWorkers))
	}
	if !(f.qps >= 0 && f.qps <= maxQPS) {
		errs = append(errs, fmt.Errorf("kube-api-qps = %v: must be in [0, %d]", f.qps, maxQPS))
	}
	if f.burst < 0 || f.burst > maxBurst {
		errs = append(errs, fmt.Errorf("kube-api-burst = %d: must be in [0, %d]", f.burst, maxBurst))
	}
	errs = append(errs, f.election.validate()...)
	if f.verbosity < 0 || f.verbosity > 10 {
		errs = append(errs, fmt.Errorf("v = %d: must be in [0, 10]", f.verbosity))
	}
	if err := errors.Join(errs...); err != nil {
		fmt.Fprintf(stderr, "schedkit-deadline: bad flags:\n%v\n", err)
		return nil, 2
	}
	return f, -1
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f, code := parse(args, stderr)
	if f == nil {
		return code
	}
	log := zap.New(zap.WriteTo(stderr), zap.Level(zapcore.Level(-f.verbosity)))
	ctrl.SetLogger(log)

	cfg, err := restConfig(f.kubeconfig, f.qps, f.burst)
	if err != nil {
		fmt.Fprintf(stderr, "schedkit-deadline: kubeconfig: %v\n", err)
		return 1
	}
	scheme := runtime.NewScheme()
	if err := errors.Join(clientgoscheme.AddToScheme(scheme), kueue.AddToScheme(scheme), v1alpha1.AddToScheme(scheme)); err != nil {
		fmt.Fprintf(stderr, "schedkit-deadline: scheme: %v\n", err)
		return 1
	}
	opts := ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: f.metricsAddr},
		HealthProbeBindAddress: f.probeAddr,
		PprofBindAddress:       f.pprofAddr,
		// Nothing reads the managed fields: the cache keeps its objects
		// without them.
		Cache: cache.Options{DefaultTransform: cache.TransformStripManagedFields()},
	}
	f.election.apply(&opts, cfg)
	mgr, err := ctrl.NewManager(cfg, opts)
	if err != nil {
		fmt.Fprintf(stderr, "schedkit-deadline: manager: %v\n", err)
		return 1
	}
	ctx, cancel := context.WithCancel(ctrl.SetupSignalHandler())
	defer cancel()
	if err := deadlinecheck.Setup(ctx, mgr, deadlinecheck.Options{
		Config:             f.cfg,
		ETARefresh:         f.etaRefresh,
		ETATolerance:       f.etaTolerance,
		ETAInterval:        f.etaInterval,
		ETASliceStarts:     cmp.Or(f.etaSlice, -1),
		Workers:            f.workers,
		ETAWritesPerSecond: f.etaWrites,
		NoETA:              !f.eta,
		NoETAArrivals:      !f.etaArrivals,
		EDFPriorityBoost:   f.edfBoost,
		NoETASkips:         !f.etaSkips,
		KueueRequeueBatch:  cmp.Or(f.requeueBatch, -1),
		StartDelayQuantile: f.delayQ,
		StartDelayWindow:   f.delayWindow,
	}); err != nil {
		fmt.Fprintf(stderr, "schedkit-deadline: setup: %v\n", err)
		return 1
	}
	if err := errors.Join(mgr.AddHealthzCheck("healthz", healthz.Ping), mgr.AddReadyzCheck("readyz", healthz.Ping)); err != nil {
		fmt.Fprintf(stderr, "schedkit-deadline: probes: %v\n", err)
		return 1
	}
	log.Info("starting", "controllerName", deadlinecheck.ControllerName, "confidence", f.cfg.Confidence,
		"samples", f.cfg.Samples, "metrics", f.metricsAddr)
	if err := mgr.Start(ctx); err != nil {
		fmt.Fprintf(stderr, "schedkit-deadline: %v\n", err)
		return 1
	}
	return 0
}

// Bounds of the client rate-limit flags.
const (
	maxQPS   = 100_000
	maxBurst = 1_000_000
)

// maxETASlice bounds -eta-slice.
const maxETASlice = 1_000_000_000

// restConfig loads the kubeconfig (the file at path, else controller-
// runtime's search: $KUBECONFIG, in-cluster, ~/.kube/config) and sets its
// client-side rate limit from the flags, so that both ways of finding the
// kubeconfig give the same client. qps 0 turns the client-side limiter off
// (rest.Config.QPS < 0), which is controller-runtime's default: the API
// server's priority and fairness limits the controller instead. client-go's
// own default (5 requests/s, burst 10) is never used: in a burst of
// workloads it delays the check's answers by seconds.
func restConfig(path string, qps float64, burst int) (*rest.Config, error) {
	var cfg *rest.Config
	var err error
	if path != "" {
		cfg, err = clientcmd.BuildConfigFromFlags("", path)
	} else {
		cfg, err = ctrl.GetConfig()
	}
	if err != nil {
		return nil, err
	}
	cfg.RateLimiter = nil
	cfg.QPS, cfg.Burst = -1, 0
	if qps > 0 {
		cfg.QPS = float32(qps)
		cfg.Burst = burst
		if burst == 0 {
			cfg.Burst = int(math.Ceil(2 * qps))
		}
	}
	return cfg, nil
}
