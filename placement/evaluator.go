package placement

import (
	"fmt"
	"math"
)

// A Prediction is the prediction engine's estimate of a job's completion time
// on one placement, split into its phases (all in seconds). Total is the sum
// of the four phases, which the model runs one after the other.
type Prediction struct {
	Map     float64 // CPU-bound map phase, local reads
	Shuffle float64 // all-to-all copy of map output
	Reduce  float64 // CPU-bound reduce phase
	Write   float64 // replicated HDFS write of the reduce output
	Total   float64 // Map + Shuffle + Reduce + Write: the objective
}

// An Evaluator is TARA's prediction engine (thesis 004 §3.2.2) for one
// topology and one application: it maps a candidate placement to a predicted
// job completion time. It holds the topology in precomputed form and scratch
// buffers, so that scoring a candidate costs O(VMs + racks) time and
// allocates nothing.
//
// The model (a fluid, flow-level model rather than the thesis's
// event-driven simulator; what matters is ranking candidates, §3.3.4.4):
//
//   - Input I is spread evenly: each of the r VMs holds I/r bytes and reads it
//     locally. A VM runs ceil(ceil((I/r)/SplitBytes)/MapSlots) waves of map
//     tasks; a wave lasts TaskOverhead + min(SplitBytes, I/r)·MapCostPerByte/s,
//     with s = Speed·(1 − BackgroundCPU) of the slowest chosen server. The
//     map phase ends with the slowest VM.
//   - Shuffle: map output D = I·MapSelectivity is partitioned evenly over the
//     reducers, which are spread evenly over the VMs, so every ordered pair of
//     VMs exchanges D/r² bytes. With n_k VMs in rack k, the rack's uplink
//     carries n_k·(r − n_k)·D/r² bytes in each direction and every server's
//     NIC (r − 1)·D/r². Flows share links; the phase lasts as long as its most
//     loaded resource needs: max over uplinks and NICs of bytes / (capacity −
//     background). This is the makespan of the best flow-level rate
//     allocation (give each flow size/T), a lower bound for any real one.
//   - Reduce: one wave of ReduceSlots tasks per VM, each reducing
//     D/(r·ReduceSlots) bytes: TaskOverhead + bytes·ReduceCostPerByte/s.
//   - Write: output O = D·ReduceSelectivity, O/r per VM. The first replica is
//     local; with e = min(Replication − 1, r − 1) further replicas, each VM
//     sends and receives e·O/r through its NIC. When the job spans two or more
//     racks, HDFS's default policy puts the second replica in another rack and
//     the rest beside it, so rack k sends n_k·O/r over its uplink and receives
//     (O/r)·n_k·Σ_{j≠k} n_j/(r − n_j) (other racks' blocks, landing in
//     proportion to VMs). The phase lasts as long as its most loaded resource.
//   - Total = Map + Shuffle + Reduce + Write (phases do not overlap).
//
// Not modelled: disks, the network core above the uplinks (non-blocking),
// overlap between phases, speculative execution, stragglers and memory.
// Replicas live only on the job's own VMs.
//
// An Evaluator is not safe for concurrent use: its methods reuse scratch
// buffers. Make one per goroutine.
type Evaluator struct {
	app  Application
	r    int
	nSrv int

	rackOf []int32   // server -> rack
	speed  []float64 // server -> effective core speed, 0 when unavailable
	nic    []float64 // server -> NIC capacity left for the job
	uplink []float64 // rack -> uplink capacity left for the job

	mapOverhead float64 // waves·TaskOverhead
	mapWork     float64 // waves·taskBytes·MapCostPerByte (reference-core seconds)
	redOverhead float64
	redWork     float64 // per reduce task, reference-core seconds
	pairBytes   float64 // D/r²: bytes between one ordered pair of VMs
	vmOut       float64 // O/r: reduce output per VM
	extraCopies float64 // e = min(Replication−1, r−1)

	count []int32  // scratch: VMs per rack
	stamp []uint32 // scratch: duplicate detection
	epoch uint32
}

// NewEvaluator validates t and app and returns the prediction engine for
// them. Errors match ErrBadInput: any invalid field (see Topology.Validate,
// Application.Validate), app.VMs larger than the number of available servers,
// or inputs so large that some placement's predicted time would overflow.
func NewEvaluator(t Topology, app Application) (*Evaluator, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if err := app.Validate(); err != nil {
		return nil, err
	}
	e := &Evaluator{
		app:    app,
		r:      app.VMs,
		nSrv:   len(t.Servers),
		rackOf: make([]int32, len(t.Servers)),
		speed:  make([]float64, len(t.Servers)),
		nic:    make([]float64, len(t.Servers)),
		uplink: make([]float64, len(t.Racks)),
		count:  make([]int32, len(t.Racks)),
		stamp:  make([]uint32, len(t.Servers)),
	}
	minUp := math.Inf(1)
	for k, rk := range t.Racks {
		e.uplink[k] = rk.Uplink - rk.BackgroundUplink
		minUp = min(minUp, e.uplink[k])
	}
	avail := 0
	minSpeed, minNIC := math.Inf(1), math.Inf(1)
	for i, s := range t.Servers {
		e.rackOf[i] = int32(s.Rack)
		e.nic[i] = s.NIC - s.BackgroundNIC
		if s.FreeSlots == 0 {
			continue
		}
		avail++
		e.speed[i] = s.Speed * (1 - s.BackgroundCPU)
		if !(e.speed[i] > 0) {
			return nil, &ValueError{Field: fmt.Sprintf("Servers[%d].Speed", i), Value: s.Speed, Reason: "effective speed underflows to 0"}
		}
		minSpeed = min(minSpeed, e.speed[i])
		minNIC = min(minNIC, e.nic[i])
	}
	if app.VMs > avail {
		return nil, &ValueError{Field: "Application.VMs", Value: float64(app.VMs), Reason: fmt.Sprintf("more than the %d available servers", avail)}
	}

	r := float64(app.VMs)
	perVM := app.InputBytes / r
	tasks := math.Ceil(perVM / app.SplitBytes)
	waves := math.Ceil(tasks / float64(app.MapSlots))
	if !(waves <= 1<<53) {
		return nil, &ValueError{Field: "Application.SplitBytes", Value: app.SplitBytes, Reason: "too many map tasks per VM"}
	}
	taskBytes := min(app.SplitBytes, perVM)
	e.mapOverhead = waves * app.TaskOverhead
	e.mapWork = waves * taskBytes * app.MapCostPerByte
	d := app.InputBytes * app.MapSelectivity
	e.redOverhead = app.TaskOverhead
	e.redWork = d / r / float64(app.ReduceSlots) * app.ReduceCostPerByte
	e.pairBytes = d / (r * r)
	e.vmOut = d * app.ReduceSelectivity / r
	e.extraCopies = float64(min(app.Replication-1, app.VMs-1))

	// An upper bound on every placement's prediction: slowest core, smallest
	// link, the most traffic any rack or NIC can carry (shuffle ≤ D, write ≤
	// O·r). If it is finite, every prediction is.
	o := e.vmOut * r
	bound := e.mapOverhead + e.mapWork/minSpeed + e.redOverhead + e.redWork/minSpeed +
		(d+o*r+o*e.extraCopies)/min(minUp, minNIC)
	if !(bound <= math.MaxFloat64) {
		return nil, &ValueError{Field: "Application.InputBytes", Value: app.InputBytes, Reason: "predicted times overflow float64"}
	}
	return e, nil
}

// VMs returns r, the number of servers a placement must name.
func (e *Evaluator) VMs() int { return e.r }

// CompletionTime returns the predicted job completion time in seconds of the
// placement servers (indices into Topology.Servers, in any order): the
// objective TARA minimises. It is Predict(servers).Total.
func (e *Evaluator) CompletionTime(servers []int) (float64, error) {
	p, err := e.Predict(servers)
	return p.Total, err
}

// Predict returns the phase-by-phase prediction for the placement servers
// (indices into Topology.Servers, in any order). The placement must name
// exactly Application.VMs distinct servers, each with a free slot; otherwise
// the error is a *ValueError naming "servers" or "servers[i]". The result does
// not depend on the order of servers, nor on the order of Topology.Servers.
// It allocates nothing.
func (e *Evaluator) Predict(servers []int) (Prediction, error) {
	if len(servers) != e.r {
		return Prediction{}, &ValueError{Field: "servers", Value: float64(len(servers)), Reason: fmt.Sprintf("placement must name exactly %d servers", e.r)}
	}
	e.epoch++
	if e.epoch == 0 { // wrapped: clear stale stamps
		clear(e.stamp)
		e.epoch = 1
	}
	for i, s := range servers {
		switch {
		case s < 0 || s >= e.nSrv:
			return Prediction{}, &ValueError{Field: fmt.Sprintf("servers[%d]", i), Value: float64(s), Reason: "not a server index"}
		case e.speed[s] == 0:
			return Prediction{}, &ValueError{Field: fmt.Sprintf("servers[%d]", i), Value: float64(s), Reason: "server has no free slot"}
		case e.stamp[s] == e.epoch:
			return Prediction{}, &ValueError{Field: fmt.Sprintf("servers[%d]", i), Value: float64(s), Reason: "server named twice"}
		}
		e.stamp[s] = e.epoch
	}
	return e.predict(servers), nil
}

// predict is Predict without validation: servers must be r distinct
// available server indices.
func (e *Evaluator) predict(servers []int) Prediction {
	minSpeed, minNIC := math.Inf(1), math.Inf(1)
	for _, s := range servers {
		e.count[e.rackOf[s]]++
		minSpeed = min(minSpeed, e.speed[s])
		minNIC = min(minNIC, e.nic[s])
	}
	r := float64(e.r)

	// Racks in use, and Σ_j n_j/(r − n_j) for the write phase, summed in rack
	// order so the result does not depend on the order of servers.
	racksUsed := 0
	sumShare := 0.0
	for _, c := range e.count {
		if c > 0 {
			racksUsed++
			if n := float64(c); n < r {
				sumShare += n / (r - n)
			}
		}
	}
	shuffle := (r - 1) * e.pairBytes / minNIC
	write := e.extraCopies * e.vmOut / minNIC
	crossWrite := racksUsed > 1 && e.extraCopies > 0
	for k, c := range e.count {
		if c == 0 {
			continue
		}
		e.count[k] = 0
		n := float64(c)
		up := e.uplink[k]
		shuffle = max(shuffle, n*(r-n)*e.pairBytes/up)
		if crossWrite {
			out := n * e.vmOut
			in := e.vmOut * n * (sumShare - n/(r-n))
			write = max(write, max(out, in)/up)
		}
	}
	p := Prediction{
		Map:     e.mapOverhead + e.mapWork/minSpeed,
		Shuffle: shuffle,
		Reduce:  e.redOverhead + e.redWork/minSpeed,
		Write:   write,
	}
	p.Total = p.Map + p.Shuffle + p.Reduce + p.Write
	return p
}
