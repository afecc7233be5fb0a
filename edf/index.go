package edf

import (
	"math"
	"reflect"

	"github.com/schedkit/schedkit/internal/freelist"
	"github.com/schedkit/schedkit/internal/treap"
)

// The queue's index lets FIFO, EDF and MP decide in O(log n) instead of one
// pass over the jobs, with the same answers bit for bit:
//
//   - two binary heaps of the jobs with a pending task, one in EDF order
//     (deadline, arrival, ID) and one in FIFO order (arrival, ID), for EDF
//     and FIFO;
//   - the jobs grouped by type — jobs whose Model values are equal (==) and
//     whose TCT at the dedicated capacity is equal — since such jobs get
//     the same TCT(r), NormTCT and task rate on any slot; per type a treap
//     (a randomised balanced search tree with deterministic priorities) in
//     EDF order, each subtree carrying the least at-risk threshold and the
//     least Read90 among its jobs with a pending task. MP asks each type
//     for its first job in EDF order that is at risk (step 1) or has a
//     pending task (step 2) and that the IO check allows, then takes the
//     best over the types.
//
// A job's at-risk threshold θ_j is the earliest time from which MP's test
// (D_j − now)·ρ_j < (1 + s)·n_j holds, found exactly over float64 (the test
// is monotone in now), so "θ_j ≤ now" is the test itself, bit for bit. It
// changes only when the job's tasks start or end, or when MP is called with
// another slack s, which recomputes every threshold.
//
// Ties inside the index end on the handle, so the order is strict even for
// equal IDs; with equal IDs, which job a picker takes among equals may then
// differ from a scan's (IDs are documented as unique).

// A node is one job in its type's treap, indexed by handle.
type node struct {
	treap.Links[handle] // noJob for none
	typ                 int32
	deadline, arrival   float64
	id                  int64
	read                float64 // Read90
	theta               float64 // at risk from this time on (the index's risk)
	active              bool    // the job has a pending task
	// Over the subtree's active jobs; +Inf when it has none.
	minTheta, minRead float64
}

// A typeKey identifies a job type: a comparable model and its time on a
// dedicated slot.
type typeKey struct {
	model     Model
	dedicated float64
}

// A jobType is the jobs that share a model.
type jobType struct {
	model     Model
	dedicated float64
	grouped   bool // listed in Queue.typeOf
	root      handle
	size      int
	live      int32 // position in Queue.live
	// Per-MP-call cache of TCT(r): valid when seen == Queue.call.
	seen           uint64
	tct, inv, norm float64
	valid          bool
}

// risk is what MP's at-risk test depends on besides the job: need = the
// queue's margin and the TCTError's Mean and Spread, {1, 0} without one
// (Eq. 3's cover, n, bit for bit). The index keeps thresholds for one risk.
type risk struct {
	need, mean, spread float64
}

// of returns the right-hand side of the at-risk test for n remaining
// tasks, need·cover(n) with cover(n) = n·Mean + √n·Spread (TCTError's doc):
// need·n without TCTError, bit for bit as Eq. 3 with the margin (n·1 = n). Both
// terms of cover are non-decreasing in Mean and Spread, so is their sum in
// floating point; it is never NaN for a valid TCTError and n ≥ 0 (+Inf at
// worst). It is small enough to inline into MP's one pass.
func (k risk) of(n float64) float64 {
	if k.spread == 0 {
		return k.need * (n * k.mean)
	}
	return k.need * (n*k.mean + math.Sqrt(n)*k.spread)
}

// index is the queue's search structure.
type index struct {
	nodes      []node // by handle
	types      []jobType
	freeTypes  []int32
	live       []int32 // types with at least one job
	typeOf     map[typeKey]int32
	comparable map[reflect.Type]bool
	risk       risk       // the at-risk test the thresholds are computed for
	seq        uint64     // treap priority counter
	call       uint64     // MP call counter for the TCT cache
	edf, fifo  handleHeap // the jobs with a pending task, in EDF and FIFO order
}

// groupable reports whether m can key a map: its dynamic type is
// comparable all the way down (no interface, func, map or slice inside,
// which could panic when hashed) and m equals itself (no NaN inside).
func (x *index) groupable(m Model) bool {
	t := reflect.TypeOf(m)
	ok, seen := x.comparable[t]
	if !seen {
		ok = comparableDeep(t, 0)
		if x.comparable == nil {
			x.comparable = map[reflect.Type]bool{}
		}
		x.comparable[t] = ok
	}
	return ok && m == m
}

// comparableDeep reports whether values of t compare with == without
// possibly panicking: no interface, func, map or slice anywhere inside.
func comparableDeep(t reflect.Type, depth int) bool {
	if depth > 32 {
		return false
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String,
		reflect.Pointer, reflect.Chan, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return comparableDeep(t.Elem(), depth+1)
	case reflect.Struct:
		for i := range t.NumField() {
			if !comparableDeep(t.Field(i).Type, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// typeFor returns the type of a job with model m and dedicated time d,
// creating it if needed.
func (x *index) typeFor(m Model, d float64) int32 {
	key := typeKey{m, d}
	grouped := validTime(d) && x.groupable(m) // d is NaN for a nil model or one with no valid dedicated time
	if grouped {
		if t, ok := x.typeOf[key]; ok {
			return t
		}
	}
	t := freelist.Take(&x.types, &x.freeTypes)
	x.types[t] = jobType{model: m, dedicated: d, grouped: grouped, root: noJob, live: int32(len(x.live))}
	x.live = append(x.live, t)
	if grouped {
		if x.typeOf == nil {
			x.typeOf = map[typeKey]int32{}
		}
		x.typeOf[key] = t
	}
	return t
}

// dropType retires type t once its last job left.
func (x *index) dropType(t int32) {
	ty := &x.types[t]
	if ty.grouped {
		delete(x.typeOf, typeKey{ty.model, ty.dedicated})
	}
	last := x.live[len(x.live)-1]
	x.live[ty.live] = last
	x.types[last].live = ty.live
	x.live = x.live[:len(x.live)-1]
	*ty = jobType{root: noJob}
	x.freeTypes = append(x.freeTypes, t)
}

// before orders nodes by (deadline, arrival, ID, handle): EDF order, strict;
// nodes of one deadline in FIFO order.
func (x *index) before(a, b handle) bool {
	if da, db := x.nodes[a].deadline, x.nodes[b].deadline; da != db {
		return da < db
	}
	return x.fifoBeforeNode(a, b)
}

// fifoBeforeNode orders nodes by (arrival, ID, handle): FIFO order, strict.
func (x *index) fifoBeforeNode(a, b handle) bool {
	na, nb := &x.nodes[a], &x.nodes[b]
	if na.arrival != nb.arrival {
		return na.arrival < nb.arrival
	}
	if na.id != nb.id {
		return na.id < nb.id
	}
	return a < b
}

// pull recomputes node h's subtree minima from its own values and its
// children's, and reports whether they changed.
func (x *index) pull(h handle) bool {
	n := &x.nodes[h]
	mt, mr := math.Inf(1), math.Inf(1)
	if n.active {
		mt, mr = n.theta, n.read
	}
	if c := n.Left; c != noJob {
		mt, mr = min(mt, x.nodes[c].minTheta), min(mr, x.nodes[c].minRead)
	}
	if c := n.Right; c != noJob {
		mt, mr = min(mt, x.nodes[c].minTheta), min(mr, x.nodes[c].minRead)
	}
	changed := mt != n.minTheta || mr != n.minRead
	n.minTheta, n.minRead = mt, mr
	return changed
}

// fixUp pulls h and its ancestors until the minima stop changing.
func (x *index) fixUp(h handle) {
	for h != noJob && x.pull(h) {
		h = x.nodes[h].Parent
	}
}

// Links, Before and Pull let package treap shape a type's tree.
func (x *index) Links(h handle) *treap.Links[handle] { return &x.nodes[h].Links }
func (x *index) Before(a, b handle) bool             { return x.before(a, b) }
func (x *index) Pull(h handle)                       { x.pull(h) }

// insert links node h (its keys, type and values set) into its type's treap.
func (x *index) insert(h handle) {
	n := &x.nodes[h]
	x.seq++
	n.Links = treap.Links[handle]{Left: noJob, Right: noJob, Parent: noJob, Prio: treap.Priority(x.seq)}
	x.pull(h)
	ty := &x.types[n.typ]
	ty.size++
	treap.Insert(x, &ty.root, h)
}

// unlink removes node h from its type's treap.
func (x *index) unlink(h handle) {
	ty := &x.types[x.nodes[h].typ]
	treap.Remove(x, &ty.root, h)
	ty.size--
}

// rebuild recomputes every subtree's minima below h (after all thresholds
// changed): a post-order walk.
func (x *index) rebuild(h handle) {
	if h == noJob {
		return
	}
	x.rebuild(x.nodes[h].Left)
	x.rebuild(x.nodes[h].Right)
	x.pull(h)
}

// riskFrom returns the earliest time t from which (d − t)·rate < c holds,
// over the finite float64 values: -Inf if it holds at every finite t, +Inf
// at none. The test is non-decreasing in t (d − t does not grow as t grows,
// and rounding keeps that), so a binary search over the ordered float64
// bit patterns finds the exact boundary; it starts from d − c/rate and
// gallops outwards, so it takes a handful of evaluations.
func riskFrom(d, rate, c float64) float64 {
	holds := func(t float64) bool { return (d-t)*rate < c }
	lo, hi := ordOf(-math.MaxFloat64), ordOf(math.MaxFloat64)
	if holds(-math.MaxFloat64) {
		return math.Inf(-1)
	}
	if !holds(math.MaxFloat64) {
		return math.Inf(1)
	}
	// Invariant: the test fails at lo and holds at hi.
	if g := d - c/rate; g > -math.MaxFloat64 && g < math.MaxFloat64 {
		k := ordOf(g)
		if holds(g) {
			hi = k
			for step := int64(1); ; step *= 2 {
				if uint64(k-lo) <= uint64(step) {
					break
				}
				if !holds(fromOrd(k - step)) {
					lo = k - step
					break
				}
				hi = k - step
			}
		} else {
			lo = k
			for step := int64(1); ; step *= 2 {
				if uint64(hi-k) <= uint64(step) {
					break
				}
				if holds(fromOrd(k + step)) {
					hi = k + step
					break
				}
				lo = k + step
			}
		}
	}
	for uint64(hi-lo) > 1 { // the span of int64 ords can exceed MaxInt64: unsigned
		mid := lo + int64(uint64(hi-lo)/2)
		if holds(fromOrd(mid)) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return fromOrd(hi)
}

// ordOf maps a float64 to an int64 that orders as the float does (both
// zeros map to 0); fromOrd is its inverse (0 maps to +0).
func ordOf(f float64) int64 {
	b := math.Float64bits(f)
	if b>>63 == 0 {
		return int64(b)
	}
	return -int64(b &^ (1 << 63))
}

func fromOrd(i int64) float64 {
	if i >= 0 {
		return math.Float64frombits(uint64(i))
	}
	return math.Float64frombits(uint64(-i) | 1<<63)
}

// A handleHeap is a binary min-heap of handles with each handle's position,
// in EDF or FIFO order.
type handleHeap struct {
	items []handle
	pos   []int32 // by handle; -1 when absent
}

// heapLess orders the EDF heap (x.edf) in EDF order and the FIFO heap
// (x.fifo) in FIFO order.
func (x *index) heapLess(hp *handleHeap, a, b handle) bool {
	if hp == &x.fifo {
		return x.fifoBeforeNode(a, b)
	}
	return x.before(a, b)
}

// grow makes room for handle h in the heap's position table.
func (hp *handleHeap) grow(h handle) {
	for int(h) >= len(hp.pos) {
		hp.pos = append(hp.pos, -1)
	}
}

func (x *index) heapPush(hp *handleHeap, h handle) {
	hp.grow(h)
	if hp.pos[h] >= 0 {
		return
	}
	hp.pos[h] = int32(len(hp.items))
	hp.items = append(hp.items, h)
	x.heapUp(hp, int(hp.pos[h]))
}

func (x *index) heapRemove(hp *handleHeap, h handle) {
	if int(h) >= len(hp.pos) || hp.pos[h] < 0 {
		return
	}
	i := int(hp.pos[h])
	last := len(hp.items) - 1
	hp.pos[h] = -1
	if i != last {
		m := hp.items[last]
		hp.put(i, m)
		hp.items = hp.items[:last]
		x.heapDown(hp, i)
		x.heapUp(hp, int(hp.pos[m]))
		return
	}
	hp.items = hp.items[:last]
}

func (x *index) heapUp(hp *handleHeap, i int) {
	it := hp.items
	h := it[i]
	for i > 0 {
		p := (i - 1) / 2
		if !x.heapLess(hp, h, it[p]) {
			break
		}
		hp.put(i, it[p])
		i = p
	}
	hp.put(i, h)
}

func (x *index) heapDown(hp *handleHeap, i int) {
	it := hp.items
	n := len(it)
	h := it[i]
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && x.heapLess(hp, it[c+1], it[c]) {
			c++
		}
		if !x.heapLess(hp, it[c], h) {
			break
		}
		hp.put(i, it[c])
		i = c
	}
	hp.put(i, h)
}

// put stores h at position i of the heap and records the position.
func (hp *handleHeap) put(i int, h handle) {
	hp.items[i] = h
	hp.pos[h] = int32(i)
}

// top returns the heap's first handle, or noJob.
func (hp *handleHeap) top() handle {
	if len(hp.items) == 0 {
		return noJob
	}
	return hp.items[0]
}
