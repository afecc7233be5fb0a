package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/schedkit/schedkit/progressshare"

	"github.com/schedkit/schedkit/examples/internal/tracedir"
)

// TwoTypes is the §4.3.1.1 example (Fig. 4.5–4.7): two slots of node type N1
// on one node and four of N2 on two nodes; job A runs three times faster on
// N1 (10 s a task against 30 s), job B takes 20 s on either. Both arrive at
// t = 0 with 24 tasks. Every block has a replica on every node, so locality
// plays no part; max_delay is 10 s.
func TwoTypes(affinity float64) Scenario {
	return Scenario{
		Name:        "two-types",
		TypeNames:   []string{"N1", "N2"},
		Nodes:       []NodeSpec{{Type: 0, Slots: 2}, {Type: 1, Slots: 2}, {Type: 1, Slots: 2}},
		Jobs:        []JobSpec{{Name: "A", Tasks: 24, TaskTime: []float64{10, 30}}, {Name: "B", Tasks: 24, TaskTime: []float64{20, 20}}},
		Options:     progressshare.Options{MaxDelay: 10},
		Replication: 3,
		Heartbeat:   1,
		Seed:        1,
		Trace:       true,
		Affinity:    affinity,
		Describe:    "§4.3.1.1 (Fig. 4.5–4.7): 2 N1 + 4 N2 slots; job A 3× faster on N1, B equally fast; 24 tasks each, exact task times, slot order, one run",
		Paper:       "under progress share both jobs progress faster than under slot share (Fig. 4.7 against 4.6), which holds here",
	}
}

// GPU is the §4.4.2 case: two nodes of 8 slots, one cc1.4xlarge (CPU only)
// and one cg1.4xlarge (the same with GPUs). A crypto task takes 40 s on a
// CPU slot and 40/g s on a GPU slot; a sort task takes 40 s on either. Both
// jobs arrive at t = 0 with tasks tasks each; replication 2 puts every block
// on both nodes. Task times vary by ±spread (uniform, per task, the same
// draw under every policy), slots freed at one instant are offered in a
// random order, and each policy is run with seeds seeds; max_delay is 10 s
// (delay scheduling's longest wait, §4.3.1.3) and the affinity rule's
// factor is affinity. The thesis gives no task counts; 1,024 tasks a job
// (about 64 waves) let sharing, not the start-up and the tail, decide the
// completion times (the command's doc gives 64 and 256 too).
func GPU(g, spread float64, tasks, seeds int, affinity float64) Scenario {
	return Scenario{
		Name:          "gpu",
		TypeNames:     []string{"cc1.4xlarge", "cg1.4xlarge"},
		Nodes:         []NodeSpec{{Type: 0, Slots: 8}, {Type: 1, Slots: 8}},
		Jobs:          []JobSpec{{Name: "crypto", Tasks: tasks, TaskTime: []float64{40, 40 / g}}, {Name: "sort", Tasks: tasks, TaskTime: []float64{40, 40}}},
		Options:       progressshare.Options{MaxDelay: 10},
		Replication:   2,
		Heartbeat:     1,
		Seed:          1,
		Trace:         true,
		ShuffleOffers: true,
		Spread:        spread,
		Affinity:      affinity,
		Seeds:         seeds,
		Describe: fmt.Sprintf("§4.4.2: 8 cc1.4xlarge + 8 cg1.4xlarge slots; crypto %g× faster per slot on cg1.4xlarge, sort "+
			"equally fast; %d tasks a job, task times ±%g%%, slots offered in random order, %d seeds", g, tasks, 100*spread, seeds),
		Paper: "crypto about 30% sooner under progress share than under the fair scheduler, and sort sooner too",
	}
}

// gpuTFLOPS is the relative computing power assumed per GPU model: peak
// FP32 TFLOPS from the vendors' public data sheets (P100 PCIe 9.3, T4 8.1,
// V100 15.7, A10 31.2). G1, G2 and G3 are undisclosed codes in the trace;
// they are given the T4's 8.1, the commonest disclosed model. This is an
// assumption of the example, not data of the trace.
var gpuTFLOPS = map[string]float64{
	"P100": 9.3, "T4": 8.1, "V100M16": 15.7, "V100M32": 15.7, "A10": 31.2,
	"G1": 8.1, "G2": 8.1, "G3": 8.1,
}

// Alibaba-run parameters (documented rules, not tuned).
const (
	groupGap      = 60.0 // pods of the same shape created within 60 s of the previous one form one job
	referenceTF   = 8.1  // trace run times are taken as run times on a T4-class GPU
	sharingAffine = 0.3  // affinity exponent of GPU-sharing pods (gpu_milli < 1000)
	rackSize      = 16   // nodes per rack, in inventory order (racks are not in the trace)
)

// FindAlibaba returns the trace directory ../shared/traces/alibaba-gpu-2023
// beside the repository (tracedir.Find), or "" when it or its pod list is
// not there.
func FindAlibaba() string {
	traces := tracedir.Find()
	if traces == "" {
		return ""
	}
	p := filepath.Join(traces, "alibaba-gpu-2023")
	if _, err := os.Stat(filepath.Join(p, "openb_pod_list_default.csv")); err != nil {
		return ""
	}
	return p
}

// Alibaba builds the trace run from the Alibaba GPU cluster trace v2023
// (OpenB) in dir:
//
//   - Cluster: every node with GPUs; one slot per GPU; node type = GPU model;
//     racks of 16 nodes in inventory order. Reading costs nothing anywhere
//     (ReadTime 0: GPU jobs read from remote storage), so racks do not matter.
//   - Jobs: pods that need at least one GPU and were scheduled with a positive
//     run time (deletion − scheduled). Taken in creation order, a pod joins
//     the last job of the same shape (cpu_milli, memory_mib, num_gpu,
//     gpu_milli, gpu_spec, qos) if it was created within 60 s of that job's
//     previous pod, else it starts a new job. A pod gives num_gpu tasks; a
//     job arrives at its first pod's creation time and its task time is the
//     mean run time of its pods. gpu_spec constraints are not enforced.
//   - Computing rate per GPU model: CR(m, j) = (TFLOPS(m)/8.1)^α with α = 1
//     for pods that take whole GPUs (compute-bound) and α = 0.3 for
//     GPU-sharing pods; the trace's run time is taken as the time on a
//     T4-class GPU (8.1 TFLOPS), so TaskTime(m) = run time / CR(m, j).
//   - max_delay 10 s, heartbeat 3 s (Hadoop's default heartbeat interval).
func Alibaba(dir string) (Scenario, error) {
	nodes, err := readCSV(filepath.Join(dir, "openb_node_list_all_node.csv"))
	if err != nil {
		return Scenario{}, err
	}
	sc := Scenario{Name: "alibaba", Options: progressshare.Options{MaxDelay: 10}, Replication: 1, Heartbeat: 3, Seed: 1}
	typeOf := map[string]int{}
	var tf []float64
	for _, r := range nodes {
		gpus, err := strconv.Atoi(r["gpu"])
		if err != nil || gpus <= 0 {
			continue
		}
		m := r["model"]
		t, ok := typeOf[m]
		if !ok {
			p, known := gpuTFLOPS[m]
			if !known {
				return Scenario{}, fmt.Errorf("alibaba: unknown GPU model %q", m)
			}
			t = len(sc.TypeNames)
			typeOf[m] = t
			sc.TypeNames = append(sc.TypeNames, m)
			tf = append(tf, p)
		}
		sc.Nodes = append(sc.Nodes, NodeSpec{Type: t, Rack: len(sc.Nodes) / rackSize, Slots: gpus})
	}
	pods, err := readCSV(filepath.Join(dir, "openb_pod_list_default.csv"))
	if err != nil {
		return Scenario{}, err
	}
	type group struct {
		job      int
		last     float64
		runSum   float64
		pods     int
		affinity float64
	}
	open := map[string]*group{}
	var groups []*group
	st := &TraceStats{}
	first, last := math.Inf(1), math.Inf(-1)
	for _, r := range pods {
		ngpu, err1 := strconv.Atoi(r["num_gpu"])
		created, err2 := strconv.ParseFloat(r["creation_time"], 64)
		sched, err3 := strconv.ParseFloat(r["scheduled_time"], 64)
		deleted, err4 := strconv.ParseFloat(r["deletion_time"], 64)
		milli, err5 := strconv.Atoi(r["gpu_milli"])
		if err1 != nil || ngpu < 1 || err2 != nil || err3 != nil || err4 != nil || err5 != nil || !(deleted > sched) {
			continue
		}
		key := r["cpu_milli"] + "," + r["memory_mib"] + "," + r["num_gpu"] + "," + r["gpu_milli"] + "," + r["gpu_spec"] + "," + r["qos"]
		g := open[key]
		if g == nil || created-g.last > groupGap {
			alpha := 1.0
			if milli < 1000 {
				alpha = sharingAffine
			}
			g = &group{job: len(sc.Jobs), affinity: alpha}
			open[key] = g
			groups = append(groups, g)
			sc.Jobs = append(sc.Jobs, JobSpec{Name: r["name"], Arrival: created})
		}
		run := deleted - sched
		st.Pods++
		st.GPUSeconds += float64(ngpu) * run
		if run > 86400 {
			st.LongGPUSeconds += float64(ngpu) * run
		}
		first, last = min(first, created), max(last, created)
		g.last = created
		g.runSum += run
		g.pods++
		sc.Jobs[g.job].Tasks += ngpu
	}
	for _, g := range groups {
		js := &sc.Jobs[g.job]
		run := g.runSum / float64(g.pods)
		js.TaskTime = make([]float64, len(tf))
		for t, p := range tf {
			js.TaskTime[t] = run / math.Pow(p/referenceTF, g.affinity)
		}
	}
	if len(sc.Jobs) == 0 || len(sc.Nodes) == 0 {
		return Scenario{}, fmt.Errorf("alibaba: no GPU jobs or nodes in %s", dir)
	}
	st.Span = last - first
	sc.Stats = st
	return sc, nil
}

// TraceStats describes the pods a trace scenario was built from.
type TraceStats struct {
	Pods           int     // GPU pods with a positive run time
	GPUSeconds     float64 // Σ num_gpu × run time
	LongGPUSeconds float64 // the part from pods running more than a day
	Span           float64 // seconds from the first pod's creation to the last's
}

// readCSV reads a CSV file with a header into one map per row.
func readCSV(path string) ([]map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var rows []map[string]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		row := make(map[string]string, len(head))
		for i, h := range head {
			row[h] = rec[i]
		}
		rows = append(rows, row)
	}
}
