// Package perf runs the schedkit plugins in kube-scheduler's own benchmark
// harness, k8s.io/kubernetes/test/integration/scheduler_perf
// (RunBenchmarkPerfScheduling with the schedkit registry as the
// out-of-tree registry): the real scheduler against an in-process
// kube-apiserver and an etcd found on PATH, nodes and pods created through
// the API, no kubelet (bound pods never start or finish).
//
// performance-config.yaml runs each workload under kube-scheduler's
// default profile and under the schedkit profile
// (config/manager/scheduler-config.yaml, the shipped example, loaded as it
// is), one after the other in the same process, so their figures are side
// by side:
//
//   - SchedulingBasic: pods that fit anywhere (kube's own workload);
//   - Preemption: four low-priority 0.9-CPU pods on every 4-CPU node, then
//     high-priority 3-CPU pods that each evict three; a third profile,
//     leastworklost (scheduler-config-leastworklost.yaml), is the default
//     profile with LeastWorkLostPreemption in DefaultPreemption's place at
//     DefaultPreemption's candidate-node args;
//   - DeadlineRates: nodes of two instance types (a quarter gpu-a100), a
//     quarter of the pods with a deadline and a run time, a quarter with
//     rates (by job type or schedkit.io/rates), the rest plain.
//
// The harness's pods have no owning Job, so every pod is a job of its own:
// the most jobs per pod the per-job plugins can meet.
//
// Labels pick the size: ci (100 nodes), small (500 nodes), mid (1,000
// nodes), large (SchedulingBasic alone at 5,000 nodes, 1,000 measured
// pods) and performance (5,000 nodes, the harness's default filter and
// Kubernetes' CI size for SchedulingBasic).
//
// # Order and rounds
//
// The harness runs its test cases in the file's order, so in one round a
// workload's default profile always runs first. On a machine whose load
// moves during the runs that favours one profile. -schedkit-rounds n runs
// every workload's profiles n times, forward in odd rounds and reversed in
// even ones (default, schedkit, then schedkit, default: rounds), each
// ratio taken within a round, and perftable reports each workload's median
// ratio over the rounds with its minimum and maximum. -schedkit-runs FILE
// writes, per run, the 1-minute load average at its start and end and the
// process's CPU and wall seconds (RunRecord); perftable -runs FILE puts
// them beside each run's throughput.
//
// # Opportunistic batching
//
// kube-scheduler 1.37 may place a pod on a node taken from the previous
// pod's cached filter and score results when the profile's plugins sign
// both pods alike (progressscore's package doc says what is reused and
// why ProgressShare signs no pod). Each run's record counts the attempts
// by result and the cache flushes by reason (RunRecord.Batch and
// BatchFlushes), and perftable -runs prints them. At these workloads
// neither profile batches a pod: PodTopologySpread at its default
// (defaultingType System, the system default spread constraints) refuses
// to sign every pod, in the default profile as in the schedkit one, so
// every cycle is a full one in both. Without it the harness would still
// keep every signature apart: createPods labels each pod
// signature=signature-label-<index/signatureBatchSize>, a label of its own
// while signatureBatchSize is unset (these workloads leave it unset), and
// InterPodAffinity signs the pod's labels. Measured on 2026-11-28 (2 cores,
// 24 GiB, load average 3.0–9.4, label ci, the first command below run
// twice, two rounds each): every run of every profile 0 pods on a hint,
// 2,100 pods without one in SchedulingBasic and DeadlineRates and 601–606
// scheduling attempts in Preemption, every cache flush "pod_not_batchable"
// or "empty_list" (a pod with no signature and one feasible node).
//
// # Commands
//
// From this directory, with etcd on PATH (adapters/test-e2e.sh builds one
// into $HOME/.cache/schedkit-e2e):
//
//	export PATH=$HOME/.cache/schedkit-e2e/etcd-v3.7.0:$PATH
//	go test -c -o perf.test .
//	nice -n 10 ./perf.test -test.run '^$' -test.bench BenchmarkPerfScheduling -test.benchtime 1x \
//	    -test.timeout 3h -perf-scheduling-label-filter ci -schedkit-rounds 2 \
//	    -schedkit-runs out/runs.jsonl -data-items-dir out
//	go run ./cmd/perftable -runs out/runs.jsonl out/BenchmarkPerfScheduling_benchmark_schedkit_*.json
//
// with small, mid, large or performance in place of ci for the larger sizes;
// -test.bench 'BenchmarkPerfScheduling/SchedulingBasic_' (or Preemption_,
// DeadlineRates_) runs one workload, and -perf-cpuprofile writes a CPU
// profile per run into the -data-items-dir directory. On 2 cores shared
// with other jobs (load average 7–18), one round of all seven runs at
// label ci took 5–6 minutes; label large (SchedulingBasic, 5,000 nodes,
// 1,000 measured pods), two rounds, niced, 14 minutes and 0.83 GB. The
// 5,000-node size with
// every workload is label performance (test.timeout 6h; one pair of runs of
// SchedulingBasic at 10,000 pods took 11 minutes and 1.3 GB on 2 cores).
//
// Throughput is perftable's. Each run's record (-schedkit-runs) times the
// measured pods from the benchmark's own watch of the pods (Span): the
// bound pods over the time from the first created to the last bound, and
// the process's CPU milliseconds per pod over that span; the ratios are of
// that rate. The harness's own figures are printed beside it, and neither
// serves for a ratio: its SchedulingDuration (from the start of the
// measured pods' creation) ends at the first of its once-a-second polls
// that finds every measured pod bound, so it is the creation time plus a
// whole number of seconds; and its SchedulingThroughput, a mean of
// one-second samples, leaves out the pods bound after its last sample.
// The Preemption workload at label ci takes three to nine seconds and
// binds nearly all its preemptors in one burst after preempting for them,
// so its SchedulingDuration-based rate takes the values 100 ÷ (k + 0.15…
// 0.4): 31–32 pods/s at three seconds, 24 at four, 19, 16 and 14 at five
// to seven, whatever the profile, and its sampled mean swings with the
// phase of the ticks (perftable's doc).
//
// CI runs the ci label in two rounds through slice.sh (from
// adapters/test-e2e.sh; SCHEDKIT_PERF_ROUNDS sets the rounds). The slice
// fails when the harness fails (a measured pod not scheduled within
// the harness's timeout) or when perftable -check finds a round's profile,
// its SchedulingDuration, or the schedkit plugins' figures in the profiles
// that enable them, missing, or a plugin in a profile that does not enable
// it. It asserts no speed. The
// harness's metric list is fixed when it loads and names only in-tree
// plugins, so the YAML's metricsCollectorConfig names the schedkit
// plugins; per-plugin latencies are in the data-items JSON, which perftable
// turns into the README's tables. The scheduler records per-plugin
// durations in a sample of its cycles (10%), and the histogram's top
// bucket is 22 ms, so percentiles above it are capped.
package perf
