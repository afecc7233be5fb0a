package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/schedkit/schedkit/examples/internal/des"
	"github.com/schedkit/schedkit/xencredit"
)

// Simulate runs one scheduler set-up at rate requests per second per
// interactive VM (with sc.Clients > 0, the closed loop sets the rate and
// rate is ignored). Equal inputs and seed give equal results. Errors name
// the field: a Scenario field out of range, a rate outside (0, 1e5], or a
// run whose expected events exceed MaxEventRate per simulated second or
// MaxEvents in all.
func Simulate(sc Scenario, scheduler string, rate float64, seed uint64) (Result, error) {
	if err := sc.Validate(); err != nil {
		return Result{}, err
	}
	if sc.Clients > 0 {
		rate = float64(sc.Clients) / sc.Think.Seconds() // only seeds the generator
	} else if !(rate > 0) || rate > 1e5 {
		return Result{}, fmt.Errorf("rate = %v out of range (0, 1e5]", rate)
	}
	if err := sc.checkWork(rate); err != nil {
		return Result{}, err
	}
	cfg := xencredit.DefaultConfig(sc.HostPCPUs)
	cfg.Ratelimit = sc.Ratelimit // New validates it
	cfg.RatelimitDelaysBackground = sc.RatelimitDelaysBackground
	cfg.ActivateAtHead = sc.ActivateAtHead
	var affinity []int // the shared cores, for PinVM
	if sc.Pinning == PinVM && sc.PCPUs > 1 {
		for p := range sc.PCPUs {
			affinity = append(affinity, p)
		}
	}
	place := func() []int {
		p := make([]int, sc.VCPUs)
		for j := range p {
			p[j] = j % sc.PCPUs
		}
		return p
	}
	doms := make([]xencredit.Domain, 0, sc.Interactive+sc.Batch+1)
	for range sc.Interactive {
		doms = append(doms, xencredit.Domain{Weight: sc.Weight, PCPUs: place(), Affinity: affinity})
	}
	batch := sc.Batch
	switch scheduler {
	case Alone:
		batch = 0
	case Credit:
	case MI:
		cfg.GuardPeriod, cfg.GuardExec = sc.GuardPeriod, sc.GuardExec
	default:
		return Result{}, fmt.Errorf("scheduler = %q, want %q, %q or %q", scheduler, Alone, Credit, MI)
	}
	for range batch {
		doms = append(doms, xencredit.Domain{Weight: sc.BatchWeight, Background: scheduler == MI, PCPUs: place(), Affinity: affinity})
	}
	if sc.Dom0 > 0 {
		p := make([]int, sc.Dom0)
		for j := range p {
			p[j] = sc.PCPUs + j
		}
		doms = append(doms, xencredit.Domain{Weight: 256, PCPUs: p})
	}
	s, err := xencredit.New(cfg, doms)
	if err != nil {
		return Result{}, err
	}
	m := &sim{
		sc: sc, rate: rate, s: s,
		rng:      rand.New(rand.NewPCG(seed, math.Float64bits(rate))),
		draw:     rand.NewPCG(0, 0),
		batchRNG: rand.New(rand.NewPCG(seed, 7)),
		seed:     seed,
		log:      make([]xencredit.Change, 0, 64),
		nInter:   sc.Interactive * sc.VCPUs,
		vcpus:    make([]guestVCPU, (sc.Interactive+batch)*sc.VCPUs),
		ready:    make([]fifo, sc.Interactive),
		slice:    make([]time.Duration, sc.HostPCPUs),
		sliceV:   make([]int, sc.HostPCPUs),
		onPCPU:   make([]int, sc.HostPCPUs),
	}
	m.drawRNG = rand.New(m.draw)
	for v := range m.vcpus {
		x, _ := s.VCPU(v)
		m.vcpus[v] = guestVCPU{vm: v / sc.VCPUs, req: -1, pcpu: x.PCPU}
		if v < sc.VCPUs {
			m.onPCPU[x.PCPU]++
		}
	}
	for _, n := range m.onPCPU {
		m.collisions += max(0, n-1)
	}
	for p := range m.slice {
		m.slice[p] = xencredit.Never
	}
	return m.run(scheduler)
}

func (m *sim) push(at time.Duration, kind, a, b int) {
	m.q.Push(des.Event{Time: secs(at), Kind: kind, A: a, B: b})
}

// exp draws an exponential time for draw number k of request r, from a
// stream of its own: every set-up sees the same request sizes (common
// random numbers), whatever order the scheduler serves them in.
func (m *sim) exp(r *request, k int, mean time.Duration) time.Duration {
	m.draw.Seed(m.seed^0x9e3779b97f4a7c15, r.serial<<20|uint64(k))
	return time.Duration(m.drawRNG.ExpFloat64() * float64(mean))
}

// burst is request r's next CPU burst.
func (m *sim) burst(r *request) time.Duration {
	return m.exp(r, 2*(m.sc.Bursts-r.left), m.sc.BurstMean)
}

func (m *sim) run(scheduler string) (Result, error) {
	sc := m.sc
	tick := m.s.Config().TickPeriod()
	// Every PCPU's ticker, and the accounting timer, in its own phase.
	busy := m.busyPCPUs()
	for p := range busy {
		m.push(tick+time.Duration(p)*tick/time.Duration(busy), evTick, p, 0)
	}
	m.push(m.s.Config().Timeslice+time.Millisecond, evAccount, 0, 0)
	for vm := range sc.Interactive {
		if sc.Clients == 0 {
			m.push(m.arrivalGap(), evArrival, vm, 0)
		}
		for range sc.Clients {
			m.push(m.thinkTime(), evArrival, vm, 0)
		}
	}
	// The batch VMs' VCPUs (and Dom0's) are runnable from the start; only
	// batch VCPUs with BatchBurst > 0 ever block.
	for v := m.nInter; v < m.s.NumVCPUs(); v++ {
		if v < len(m.vcpus) {
			g := &m.vcpus[v]
			g.busy, g.left = true, m.batchStretch()
		}
		if err := m.xen(m.s.Wake(0, v, m.log[:0])); err != nil {
			return Result{}, err
		}
	}
	for {
		e, ok := m.q.Pop()
		if !ok {
			break
		}
		now := fromSecs(e.Time)
		if now > sc.Duration {
			break
		}
		m.events++
		var err error
		switch e.Kind {
		case evTick:
			err = m.xen(m.s.Tick(now, e.A, m.log[:0]))
			m.push(now+tick, evTick, e.A, 0)
		case evAccount:
			err = m.xen(m.s.Account(now, m.log[:0]))
			m.push(now+m.s.Config().Timeslice, evAccount, 0, 0)
		case evSlice:
			if e.B == m.sliceV[e.A] { // the live timer
				m.slice[e.A] = xencredit.Never
				if pc, _ := m.s.PCPU(e.A); pc.SliceEnd <= now {
					err = m.xen(m.s.Schedule(now, e.A, m.log[:0]))
				} else {
					m.rearm() // the slice was extended
				}
			}
		case evArrival:
			err = m.arrive(now, e.A)
			if sc.Clients == 0 {
				m.push(now+m.arrivalGap(), evArrival, e.A, 0)
			}
		case evBurst:
			if e.B == m.vcpus[e.A].version {
				err = m.burstDone(now, e.A)
			}
		case evIO:
			err = m.readyBurst(now, e.A)
		case evBatchDone:
			if e.B == m.vcpus[e.A].version {
				g := &m.vcpus[e.A]
				g.busy, g.running = false, false
				m.push(now+m.batchExp(sc.BatchIO), evBatchWake, e.A, 0)
				err = m.xen(m.s.Block(now, e.A, m.log[:0]))
			}
		case evBatchWake:
			g := &m.vcpus[e.A]
			g.busy, g.left = true, m.batchStretch()
			err = m.xen(m.s.Wake(now, e.A, m.log[:0]))
		}
		if err != nil {
			return Result{}, err
		}
	}
	// Close the books at Duration (an Account there changes no runstate).
	if err := m.xen(m.s.Account(sc.Duration, m.log[:0])); err != nil {
		return Result{}, err
	}
	m.sharedUntil(sc.Duration)
	res := Result{Scheduler: scheduler, Rate: m.rate, Clients: sc.Clients, Requests: m.done, Events: m.events,
		Unfinished: m.arrived - m.done, Wakes: m.wakes,
		BoostPct: pct(m.boosted, m.wakes), QueuedPct: pct(m.queued, m.wakes),
		SharedPct: 100 * m.shared.Seconds() / sc.Duration.Seconds()}
	if sc.Clients > 0 {
		res.Rate = float64(m.done) / sc.Duration.Seconds() / float64(sc.Interactive)
	} else {
		res.Saturated = float64(res.Unfinished) > m.rate*float64(sc.Interactive)
	}
	for v := range sc.VCPUs { // the first interactive VM's VCPUs
		x, _ := m.s.VCPU(v)
		res.RunningS += x.Times[xencredit.Running].Seconds()
		res.RunnableS += x.Times[xencredit.Runnable].Seconds()
		res.BlockedS += x.Times[xencredit.Blocked].Seconds()
	}
	for v := m.nInter; v < len(m.vcpus); v++ {
		x, _ := m.s.VCPU(v)
		res.BatchS += x.Times[xencredit.Running].Seconds()
	}
	if m.done > 0 {
		res.MeanResponseMS = float64(m.respSum) / float64(m.done) / 1e6
	}
	return res, nil
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// batchExp draws from the batch VCPUs' own generator.
func (m *sim) batchExp(mean time.Duration) time.Duration {
	return time.Duration(m.batchRNG.ExpFloat64() * float64(mean))
}

// batchStretch is the CPU time of a batch VCPU's next compute stretch:
// exponential with mean BatchBurst, or for ever when BatchBurst is 0.
func (m *sim) batchStretch() time.Duration {
	if m.sc.BatchBurst == 0 {
		return time.Duration(math.MaxInt64)
	}
	return max(m.batchExp(m.sc.BatchBurst), 1)
}

func (m *sim) thinkTime() time.Duration {
	return time.Duration(m.rng.ExpFloat64() * float64(m.sc.Think))
}

func (m *sim) arrivalGap() time.Duration {
	return time.Duration(m.rng.ExpFloat64() / m.rate * 1e9)
}

// xen applies the changes of one scheduler event to the guests: a dispatched
// VCPU resumes its burst or compute stretch, a preempted one pauses it.
// Then it re-arms each PCPU's slice timer when its SliceEnd comes before
// the live timer event (a later SliceEnd is re-armed lazily when the timer
// fires, so the queue is not filled with stale timers).
func (m *sim) xen(log []xencredit.Change, err error) error {
	if err != nil {
		return err
	}
	m.log = log
	now := m.s.Now()

	for _, c := range log {
		if c.VCPU < 0 || c.VCPU >= len(m.vcpus) {
			continue
		}
		g := &m.vcpus[c.VCPU]
		switch c.Kind {
		case xencredit.Dispatch:
			g.running, g.runStart = true, now
			if c.VCPU < m.sc.VCPUs && g.pcpu != c.PCPU {
				m.move(now, g.pcpu, c.PCPU)
			}
			g.pcpu = c.PCPU
			switch {
			case c.VCPU < m.nInter && g.req >= 0:
				g.version++
				m.push(now+g.left, evBurst, c.VCPU, g.version)
			case c.VCPU >= m.nInter && g.busy && g.left < time.Duration(math.MaxInt64):
				g.version++
				m.push(now+g.left, evBatchDone, c.VCPU, g.version)
			}
		case xencredit.Preempt:
			g.running = false
			if (c.VCPU < m.nInter && g.req >= 0) || (c.VCPU >= m.nInter && g.left < time.Duration(math.MaxInt64)) {
				g.left -= now - g.runStart
				g.version++
			}
		}
	}
	m.rearm()
	return nil
}

// move records a VCPU of the first interactive VM moving from PCPU a to b.
func (m *sim) move(now time.Duration, a, b int) {
	m.sharedUntil(now)
	m.collisions -= max(0, m.onPCPU[a]-1) + max(0, m.onPCPU[b]-1)
	m.onPCPU[a]--
	m.onPCPU[b]++
	m.collisions += max(0, m.onPCPU[a]-1) + max(0, m.onPCPU[b]-1)
}

// sharedUntil adds the time since the last call to shared if two VCPUs of
// the first interactive VM were on one PCPU.
func (m *sim) sharedUntil(now time.Duration) {
	if m.collisions > 0 {
		m.shared += now - m.sharedSince
	}
	m.sharedSince = now
}

// busyPCPUs is the number of PCPUs with VCPUs: the shared ones, then
// Dom0's. The host's other PCPUs have none.
func (m *sim) busyPCPUs() int { return m.sc.PCPUs + m.sc.Dom0 }

// rearm pushes a slice-timer event for every busy PCPU whose SliceEnd
// comes before its live timer.
func (m *sim) rearm() {
	for p := range m.busyPCPUs() {
		pc, _ := m.s.PCPU(p)
		if pc.SliceEnd < m.slice[p] {
			m.slice[p] = pc.SliceEnd
			m.sliceV[p]++
			m.push(pc.SliceEnd, evSlice, p, m.sliceV[p])
		}
	}
}

func (m *sim) arrive(now time.Duration, vm int) error {
	r := request{vm: vm, serial: m.serial, arrival: now, left: m.sc.Bursts}
	m.serial++
	m.arrived++
	id := len(m.reqs)
	if n := len(m.free); n > 0 {
		id = m.free[n-1]
		m.free = m.free[:n-1]
		m.reqs[id] = r
	} else {
		m.reqs = append(m.reqs, r)
	}
	return m.readyBurst(now, id)
}

// readyBurst hands request id's next burst to an idle VCPU of its VM (the
// lowest-numbered, woken in Xen) or queues it in the guest.
func (m *sim) readyBurst(now time.Duration, id int) error {
	vm := m.reqs[id].vm
	for v := vm * m.sc.VCPUs; v < (vm+1)*m.sc.VCPUs; v++ {
		if g := &m.vcpus[v]; g.req < 0 {
			g.req, g.left = id, m.burst(&m.reqs[id])
			err := m.xen(m.s.Wake(now, v, m.log[:0]))
			if vm == 0 {
				x, _ := m.s.VCPU(v)
				m.wakes++
				if x.Priority == xencredit.Boost {
					m.boosted++
				}
				if x.State != xencredit.Running {
					m.queued++
				}
			}
			return err
		}
	}
	m.ready[vm].push(id)
	return nil
}

// burstDone: VCPU v finished its burst. The request goes to IO or is done;
// v takes the guest's next ready burst or blocks.
func (m *sim) burstDone(now time.Duration, v int) error {
	g := &m.vcpus[v]
	r := &m.reqs[g.req]
	r.left--
	if r.left > 0 {
		m.push(now+m.exp(r, 2*(m.sc.Bursts-r.left)-1, m.sc.IOMean), evIO, g.req, 0)
	} else {
		m.respSum += now - r.arrival
		m.done++
		m.free = append(m.free, g.req)
		if m.sc.Clients > 0 { // the client thinks, then sends its next request
			m.push(now+m.thinkTime(), evArrival, r.vm, 0)
		}
	}
	g.req = -1
	if id, ok := m.ready[g.vm].pop(); ok {
		g.req, g.left = id, m.burst(&m.reqs[id])
		g.runStart = now
		g.version++
		m.push(now+g.left, evBurst, v, g.version)
		return nil
	}
	g.running = false
	return m.xen(m.s.Block(now, v, m.log[:0]))
}

// fifo is a queue of request ids; pop is O(1) amortised however long a
// backlog grows.
type fifo struct {
	q    []int
	head int
}

func (f *fifo) push(id int) {
	if f.head > 0 && f.head == len(f.q) {
		f.q, f.head = f.q[:0], 0
	}
	f.q = append(f.q, id)
}

func (f *fifo) pop() (int, bool) {
	if f.head == len(f.q) {
		return 0, false
	}
	id := f.q[f.head]
	f.head++
	if f.head > 1024 && 2*f.head > len(f.q) { // drop the consumed half
		f.q, f.head = f.q[:copy(f.q, f.q[f.head:])], 0
	}
	return id, true
}
