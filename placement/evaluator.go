package placement

import (
	"fmt"
	"math"
)

// A Prediction is the prediction engine's estimate of a job's completion time
// on one placement, split into its phases (all in seconds). Total is the sum
// of the four phases, which the model runs one after the other.
type Prediction struct {
	Map     float64 // map phase: local disk reads and spills, CPU
	Shuffle float64 // all-to-all copy of map output
	Reduce  float64 // reduce phase: local disk reads, CPU
	Write   float64 // replicated HDFS write of the reduce output
	Total   float64 // Map + Shuffle + Reduce + Write: the objective
	// Uplink is the part of Shuffle + Write that rack uplinks add: Total
	// minus the prediction of the same placement with every uplink
	// unconstrained. On servers that are all alike it is the only part of
	// Total that placement changes; the rest (CPU, disks, NICs) is the same
	// for every placement.
	Uplink float64
}

// An Evaluator is TARA's prediction engine (Lee thesis §3.2.2) for one
// topology and one application: it maps a candidate placement to a predicted
// job completion time. It holds the topology in precomputed form and scratch
// buffers, so that scoring a candidate costs O(VMs + racks) time and
// allocates nothing.
//
// The model (a fluid, flow-level model rather than the thesis's
// event-driven simulator; what matters is ranking candidates, §3.3.4.4).
// Each VM runs on one server with effective core speed s = Speed·(1 −
// BackgroundCPU), NIC bandwidth left N = NIC − BackgroundNIC and disk
// bandwidth left B = Disk − BackgroundDisk (DefaultDisk when Disk is 0).
//
//   - Map: input I is spread evenly; each of the r VMs holds I/r bytes and
//     reads it locally. A VM runs ceil(ceil((I/r)/SplitBytes)/MapSlots)
//     waves of map tasks; a wave's CPU time is TaskOverhead +
//     min(SplitBytes, I/r)·MapCostPerByte/s. Its map tasks also read their
//     input from the local disk and spill their output there:
//     (I/r)·(1 + MapSelectivity) bytes over B, added to the CPU time (a task
//     reads, computes and writes in turn; the VM's slots share its disk).
//     The phase ends with the slowest VM.
//   - Shuffle: map output D = I·MapSelectivity is partitioned evenly over the
//     reducers, which are spread evenly over the VMs, so every ordered pair of
//     VMs exchanges D/r² bytes. With n_k VMs in rack k, the rack's uplink
//     carries n_k·(r − n_k)·D/r² bytes in each direction and every server's
//     NIC (r − 1)·D/r²; every VM's disk reads the D/r bytes it serves and
//     writes the D/r bytes it fetches (2D/r). Flows stream from disk through
//     the network to disk; the phase lasts as long as its most loaded
//     resource needs: max over uplinks, NICs and disks of bytes / capacity
//     left. This is the makespan of the best flow-level rate allocation
//     (give each flow size/T), a lower bound for any real one.
//   - Reduce: one wave of ReduceSlots tasks per VM, each reducing
//     D/(r·ReduceSlots) bytes: TaskOverhead + bytes·ReduceCostPerByte/s of
//     CPU, plus the VM's D/r bytes of reduce input read from its disk over B.
//   - Write: output O = D·ReduceSelectivity, O/r per VM. The first replica is
//     local; with e = min(Replication − 1, r − 1) further replicas, each VM
//     sends and receives e·O/r through its NIC and writes (1 + e)·O/r to its
//     disk. When the job spans two or more racks, HDFS's default policy puts
//     the second replica in another rack and the rest beside it, so rack k
//     sends n_k·O/r over its uplink and receives
//     (O/r)·n_k·Σ_{j≠k} n_j/(r − n_j) (other racks' blocks, landing in
//     proportion to VMs). The phase lasts as long as its most loaded resource.
//   - Total = Map + Shuffle + Reduce + Write (phases do not overlap).
//
// Not modelled: the network core above the uplinks (non-blocking), overlap
// between phases, multi-pass merges, speculative execution, stragglers and
// memory. Replicas live only on the job's own VMs.
//
// An Evaluator is not safe for concurrent use: its methods reuse scratch
// buffers. Make one per goroutine.
type Evaluator struct {
	app  Application
	r    int
	nSrv int

	rackOf []int32   // server -> rack
	avail  []bool    // server -> has a free slot
	mapT   []float64 // server -> map phase of a VM there (CPU + disk)
	redT   []float64 // server -> reduce phase of a VM there (CPU + disk)
	shufT  []float64 // server -> shuffle time its NIC and disk need
	writeT []float64 // server -> write time its NIC and disk need
	uplink []float64 // rack -> uplink capacity left for the job

	pairBytes   float64 // D/r²: bytes between one ordered pair of VMs
	vmOut       float64 // O/r: reduce output per VM
	extraCopies float64 // e = min(Replication−1, r−1)

	count []int32   // scratch: VMs per rack
	shK   []float64 // scratch: shuffle time each rack's uplink needs
	wrK   []float64 // scratch: write time each rack's uplink needs
	stamp []uint32  // scratch: duplicate detection
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
	nS, nR := len(t.Servers), len(t.Racks)
	e := &Evaluator{
		app:    app,
		r:      app.VMs,
		nSrv:   nS,
		rackOf: make([]int32, nS),
		avail:  make([]bool, nS),
		mapT:   make([]float64, nS),
		redT:   make([]float64, nS),
		shufT:  make([]float64, nS),
		writeT: make([]float64, nS),
		uplink: make([]float64, nR),
		count:  make([]int32, nR),
		shK:    make([]float64, nR),
		wrK:    make([]float64, nR),
		stamp:  make([]uint32, nS),
	}
	minUp := math.Inf(1)
	for k, rk := range t.Racks {
		e.uplink[k] = rk.Uplink - rk.BackgroundUplink
		minUp = min(minUp, e.uplink[k])
	}
	avail := 0
	for _, s := range t.Servers {
		if s.FreeSlots > 0 {
			avail++
		}
	}
	if app.VMs > avail {
		return nil, &ValueError{Field: "Application.VMs", Value: app.VMs, Reason: fmt.Sprintf("more than the %d available servers", avail)}
	}

	r := float64(app.VMs)
	perVM := app.InputBytes / r
	tasks := math.Ceil(perVM / app.SplitBytes)
	waves := math.Ceil(tasks / float64(app.MapSlots))
	if !(waves <= 1<<53) {
		return nil, &ValueError{Field: "Application.SplitBytes", Value: app.SplitBytes, Reason: "too many map tasks per VM"}
	}
	taskBytes := min(app.SplitBytes, perVM)
	mapOverhead := waves * app.TaskOverhead
	mapWork := waves * taskBytes * app.MapCostPerByte
	d := app.InputBytes * app.MapSelectivity
	redWork := d / r / float64(app.ReduceSlots) * app.ReduceCostPerByte
	e.pairBytes = d / (r * r)
	e.vmOut = d * app.ReduceSelectivity / r
	e.extraCopies = float64(min(app.Replication-1, app.VMs-1))
	mapDisk := perVM + perVM*app.MapSelectivity // input read, map output spilled
	redDisk := d / r                            // reduce input read
	shufDisk := 2 * d / r                       // map output served, fetched copies written
	writeDisk := (1 + e.extraCopies) * e.vmOut  // own block and the replicas received
	shufNIC := (r - 1) * e.pairBytes
	writeNIC := e.extraCopies * e.vmOut

	worst := 0.0 // the largest time any one server's resources need
	for i, s := range t.Servers {
		e.rackOf[i] = int32(s.Rack)
		if s.FreeSlots == 0 {
			continue
		}
		e.avail[i] = true
		speed := s.Speed * (1 - s.BackgroundCPU)
		if !(speed > 0) {
			return nil, &ValueError{Field: fmt.Sprintf("Servers[%d].Speed", i), Value: s.Speed, Reason: "effective speed underflows to 0"}
		}
		nic := s.NIC - s.BackgroundNIC
		disk := s.disk() - s.BackgroundDisk
		e.mapT[i] = mapOverhead + mapWork/speed + mapDisk/disk
		e.redT[i] = app.TaskOverhead + redWork/speed + redDisk/disk
		e.shufT[i] = max(shufNIC/nic, shufDisk/disk)
		e.writeT[i] = max(writeNIC/nic, writeDisk/disk)
		worst = max(worst, e.mapT[i]+e.redT[i]+e.shufT[i]+e.writeT[i])
	}

	// An upper bound on every placement's prediction: the slowest server's
	// own needs plus the most traffic any uplink can carry (shuffle ≤ D,
	// write ≤ O·r). If it is finite, every prediction is.
	o := e.vmOut * r
	bound := worst + (d+o*r)/minUp
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
		return Prediction{}, &ValueError{Field: "servers", Value: len(servers), Reason: fmt.Sprintf("placement must name exactly %d servers", e.r)}
	}
	e.epoch++
	if e.epoch == 0 { // wrapped: clear stale stamps
		clear(e.stamp)
		e.epoch = 1
	}
	for i, s := range servers {
		switch {
		case s < 0 || s >= e.nSrv:
			return Prediction{}, &ValueError{Field: fmt.Sprintf("servers[%d]", i), Value: s, Reason: "not a server index"}
		case !e.avail[s]:
			return Prediction{}, &ValueError{Field: fmt.Sprintf("servers[%d]", i), Value: s, Reason: "server has no free slot"}
		case e.stamp[s] == e.epoch:
			return Prediction{}, &ValueError{Field: fmt.Sprintf("servers[%d]", i), Value: s, Reason: "server named twice"}
		}
		e.stamp[s] = e.epoch
	}
	return e.predict(servers), nil
}

// predict is Predict without validation: servers must be r distinct
// available server indices.
func (e *Evaluator) predict(servers []int) Prediction {
	p, _ := e.predictRacks(servers, false)
	return p
}

// uplinkLoad describes how the uplinks bind a placement, for the search:
// the racks whose uplink bounds the shuffle and the write (−1 when the
// servers' own NICs or disks bound the phase, or no traffic crosses an
// uplink), and crowding = Σ_k (shuffle_k/shuffle_max)⁴ + (write_k/write_max)⁴
// over the uplink times of every rack, in [0, 2·racks]: how many uplinks are
// close to the bottleneck.
type uplinkLoad struct {
	hotShuffle, hotWrite int
	crowding             float64
}

// predictRacks is predict plus, with load set, the uplink load (without,
// the zero uplinkLoad).
func (e *Evaluator) predictRacks(servers []int, load bool) (Prediction, uplinkLoad) {
	var p Prediction
	floorS, floorW := 0.0, 0.0
	for _, s := range servers {
		e.count[e.rackOf[s]]++
		p.Map = max(p.Map, e.mapT[s])
		p.Reduce = max(p.Reduce, e.redT[s])
		floorS = max(floorS, e.shufT[s])
		floorW = max(floorW, e.writeT[s])
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
	crossWrite := racksUsed > 1 && e.extraCopies > 0
	ul := uplinkLoad{hotShuffle: -1, hotWrite: -1}
	upS, upW := 0.0, 0.0 // the most loaded uplink's time, per phase
	for k, c := range e.count {
		if c == 0 {
			continue
		}
		e.count[k] = 0
		n := float64(c)
		up := e.uplink[k]
		sh := n * (r - n) * e.pairBytes / up
		if sh > upS {
			upS, ul.hotShuffle = sh, k
		}
		wr := 0.0
		if crossWrite {
			out := n * e.vmOut
			in := e.vmOut * n * (sumShare - n/(r-n))
			wr = max(out, in) / up
			if wr > upW {
				upW, ul.hotWrite = wr, k
			}
		}
		if load {
			e.shK[k], e.wrK[k] = sh, wr
		}
	}
	if load {
		if !(upS > floorS) { // the servers bound the shuffle, not an uplink
			ul.hotShuffle = -1
		}
		if !(upW > floorW) {
			ul.hotWrite = -1
		}
		for k := range e.shK {
			if upS > 0 {
				x := e.shK[k] / upS
				x *= x
				ul.crowding += x * x
			}
			if upW > 0 {
				x := e.wrK[k] / upW
				x *= x
				ul.crowding += x * x
			}
			e.shK[k], e.wrK[k] = 0, 0
		}
	} else {
		ul = uplinkLoad{}
	}
	p.Shuffle = max(floorS, upS)
	p.Write = max(floorW, upW)
	p.Total = p.Map + p.Shuffle + p.Reduce + p.Write
	p.Uplink = (p.Shuffle - floorS) + (p.Write - floorW)
	return p, ul
}
