package xencredit

import (
	"fmt"
	"time"
)

// Each event method takes the current time now (not before the previous
// event's), performs the transition, appends what changed to log and
// returns it. Pass log[:0] of a reused slice to avoid allocation. On error
// the state is unchanged and log is returned as given.

func (s *State) checkTime(now time.Duration) error {
	if len(s.pcpus) == 0 {
		return &ValueError{Field: "State", Value: 0, Reason: "not built by New"}
	}
	if now < s.now {
		return &ValueError{Field: "now", Value: now.Seconds(), Reason: fmt.Sprintf("before the last event at %v s", s.now.Seconds())}
	}
	if now > MaxTime {
		return &ValueError{Field: "now", Value: now.Seconds(), Reason: "beyond MaxTime"}
	}
	return nil
}

// checkOnVCPU checks an event on VCPU v at now (checkTime, checkVCPU) and
// returns v's record.
func (s *State) checkOnVCPU(now time.Duration, v int) (*vcpu, error) {
	if err := s.checkTime(now); err != nil {
		return nil, err
	}
	if err := s.checkVCPU(v); err != nil {
		return nil, err
	}
	return &s.vcpus[v], nil
}

// beginOnPCPU checks an event on PCPU p at now (checkTime, checkPCPU) and,
// when both hold, advances the clock to now.
func (s *State) beginOnPCPU(now time.Duration, p int) error {
	if err := s.checkTime(now); err != nil {
		return err
	}
	if err := s.checkPCPU(p); err != nil {
		return err
	}
	s.now = now
	return nil
}

// Wake makes blocked VCPU v runnable (csched_vcpu_wake). An UNDER VCPU that
// is not parked is BOOSTed; OVER and BACKGROUND VCPUs are not. v goes to the
// tail of its class on its PCPU's run queue and preempts the running VCPU if
// it has strictly higher priority (__runq_tickle), unless the ratelimit keeps
// the running one (see Config.Ratelimit, Config.RatelimitDelaysBackground).
// A parked VCPU wakes into Offline and runs after accounting unparks it.
//
// Errors: v out of range; v not blocked (waking a running, queued or
// awake-but-parked VCPU); now before the previous event.
func (s *State) Wake(now time.Duration, v int, log []Change) ([]Change, error) {
	x, err := s.checkOnVCPU(now, v)
	if err != nil {
		return log, err
	}
	if !x.blocked {
		return log, &ValueError{Field: "vcpu", Value: v, Reason: "is not blocked (it is " + x.state.String() + ")"}
	}
	s.now = now
	x.blocked = false
	if x.parked {
		s.setState(v, Offline)
		return log, nil
	}
	if x.pri == Under {
		x.pri = Boost
		log = append(log, Change{Kind: BoostStart, VCPU: v, PCPU: x.pcpu, Priority: Boost})
	}
	s.setState(v, Runnable)
	s.insert(v)
	local, idler := s.tickle(v)
	if local {
		log = s.schedule(x.pcpu, log)
	}
	if idler >= 0 {
		log = s.schedule(idler, log)
	}
	return log, nil
}

// tickles reports whether queued VCPU v should preempt its PCPU's current
// VCPU: the PCPU is idle or v's priority is strictly higher (42's tickle).
func (s *State) tickles(v int) bool {
	cur := s.pcpus[s.vcpus[v].pcpu].curr
	return cur < 0 || s.vcpus[v].pri > s.vcpus[cur].pri
}

// tickle is 42's __runq_tickle for VCPU v just queued on its PCPU: local
// reports whether that PCPU must reschedule (tickles), and idler is an idle
// PCPU of v's affinity to reschedule as well when v's own PCPU is busy (it
// will steal v or another queued VCPU), or -1. Idle PCPUs are tried round
// robin after the last one this PCPU tickled (Xen's last_tickle_cpu). A
// pinned VCPU has no idler: its only PCPU is busy.
func (s *State) tickle(v int) (local bool, idler int) {
	x := &s.vcpus[v]
	pc := &s.pcpus[x.pcpu]
	idler = -1
	if pc.curr >= 0 && s.doms[x.dom].aff != nil {
		n := len(s.pcpus)
		for i := 1; i <= n; i++ {
			q := (pc.lastTickle + i) % n
			if s.pcpus[q].curr < 0 && q != x.pcpu && s.allowed(v, q) {
				idler, pc.lastTickle = q, q
				break
			}
		}
	}
	return s.tickles(v), idler
}

// Block makes VCPU v not runnable (csched_vcpu_sleep): a running VCPU is
// descheduled at once and its PCPU picks the next VCPU; a queued one leaves
// the run queue. Credit, priority and active status do not change, except
// that a raised background VCPU goes back to BACKGROUND.
//
// Errors: v out of range or already blocked; now before the previous event.
func (s *State) Block(now time.Duration, v int, log []Change) ([]Change, error) {
	x, err := s.checkOnVCPU(now, v)
	if err != nil {
		return log, err
	}
	if x.blocked {
		return log, &ValueError{Field: "vcpu", Value: v, Reason: "is already blocked"}
	}
	s.now = now
	x.blocked = true
	if x.raised && x.state != Running {
		log = s.lower(v, log)
	}
	switch x.state {
	case Running:
		log = s.schedule(x.pcpu, log)
	case Runnable:
		s.remove(v)
		s.setState(v, Blocked)
	case Offline:
		s.setState(v, Blocked)
	}
	return log, nil
}

// Tick is the per-PCPU 10 ms tick (csched_tick → csched_vcpu_acct): the
// running non-idle, non-background VCPU stops being BOOST (becomes UNDER),
// is debited for the time it ran (burn_credits: 10 credits per ms, rounded
// to nearest, remainder kept), and is put back on the active list if it was
// off it. Then, once per accounting epoch, the run queue is sorted. A tick
// never reschedules.
//
// Errors: p out of range; now before the previous event.
func (s *State) Tick(now time.Duration, p int, log []Change) ([]Change, error) {
	if err := s.beginOnPCPU(now, p); err != nil {
		return log, err
	}
	pc := &s.pcpus[p]
	if cur := pc.curr; cur >= 0 && !s.doms[s.vcpus[cur].dom].background {
		x := &s.vcpus[cur]
		if x.pri == Boost {
			x.pri = Under
			log = append(log, Change{Kind: BoostEnd, VCPU: cur, PCPU: p, Priority: Under})
		}
		s.burn(cur)
		if !x.active {
			s.activate(cur)
		}
	}
	if pc.epoch != s.epoch {
		s.sortRunq(p)
		pc.epoch = s.epoch
	}
	return log, nil
}

// Schedule is csched_schedule on PCPU p: call it when the slice ends
// (PCPU(p).SliceEnd); Wake, Block and Account call it themselves when they
// preempt. It debits the current VCPU; if the ratelimit applies (the
// current VCPU is runnable and has run less than Config.Ratelimit) it keeps
// running for a ratelimit slice; otherwise it goes to the tail of its class
// and the head of the run queue runs for a Timeslice (a raised background
// VCPU for what is left of its starvation slice, at most a Timeslice; the
// idle VCPU for ever).
//
// Errors: p out of range; now before the previous event.
func (s *State) Schedule(now time.Duration, p int, log []Change) ([]Change, error) {
	if err := s.beginOnPCPU(now, p); err != nil {
		return log, err
	}
	return s.schedule(p, log), nil
}

func (s *State) schedule(p int, log []Change) []Change {
	now := s.now
	pc := &s.pcpus[p]
	cur := pc.curr
	if cur < 0 {
		next := s.pick(p)
		if next < 0 {
			return log // idle stays idle
		}
		pc.idle += now - pc.idleSince
		pc.idleSince = now
		return s.dispatch(p, next, log)
	}
	x := &s.vcpus[cur]
	bg := s.doms[x.dom].background
	runtime := now - x.since
	if !bg {
		s.burn(cur)
	}
	runnable := !x.blocked && !x.parked
	if rl := s.cfg.Ratelimit; rl > 0 && runnable && runtime < rl &&
		!(x.pri == Background && !s.cfg.RatelimitDelaysBackground && s.headPriority(p) > Background) {
		slice := rl
		if s.cfg.RatelimitRemainder {
			slice = max(rl-runtime, MinTimer)
		}
		pc.sliceEnd = now + slice
		return append(log, Change{Kind: Keep, VCPU: cur, PCPU: p, Priority: x.pri})
	}
	if x.raised {
		x.raisedRan += runtime
		if x.raisedRan >= s.cfg.GuardExec || !runnable {
			log = s.lower(cur, log)
		}
	}
	if runnable && s.headPriority(p) < x.pri && (x.pri > Over || s.steal(p, x.pri) < 0) {
		// It would be inserted at the head and picked again (nothing to
		// steal either): it keeps the PCPU with a fresh slice and no
		// context switch (its runstate entry time, which the ratelimit
		// reads, does not change).
		if x.raised {
			x.raisedRan -= runtime // counted again when it is descheduled
		}
		pc.sliceEnd = now + s.sliceFor(cur, runtime)
		return log
	}
	x.startTime -= now // keep the unburned remainder as an offset
	pc.curr = -1
	if runnable {
		s.setState(cur, Runnable)
		s.insert(cur)
		log = append(log, Change{Kind: Preempt, VCPU: cur, PCPU: p, Priority: x.pri})
	} else if x.parked && !x.blocked {
		s.setState(cur, Offline)
	} else {
		s.setState(cur, Blocked)
	}
	pc.idleSince = now
	return s.dispatch(p, s.pick(p), log)
}

// pick chooses what p runs next (csched_schedule after the current VCPU
// was re-queued): the head of its run queue, unless that is OVER,
// BACKGROUND or the idle VCPU, in which case a strictly higher-priority
// VCPU stolen from a busy peer (csched_load_balance) if there is one. It
// returns -1 for idle. The VCPU is still queued where it was.
func (s *State) pick(p int) int {
	head := s.headPriority(p)
	if head <= Over {
		if v := s.steal(p, head); v >= 0 {
			return v
		}
	}
	if len(s.pcpus[p].runq) == 0 {
		return -1
	}
	return s.pcpus[p].runq[0]
}

// steal is csched_load_balance's search: the busy peers of p in order
// p+1, p+2, … (wrapping), each run queue from its head while its VCPUs
// have priority strictly above pri; the first VCPU allowed on p is taken.
// Idle peers are skipped (they are about to run their own queue). It
// returns -1 when there is none; pinned VCPUs are never taken.
func (s *State) steal(p int, pri Priority) int {
	n := len(s.pcpus)
	for i := 1; i < n; i++ {
		q := (p + i) % n
		if s.pcpus[q].curr < 0 {
			continue
		}
		for _, v := range s.pcpus[q].runq {
			if s.vcpus[v].pri <= pri {
				break
			}
			if s.allowed(v, p) {
				return v
			}
		}
	}
	return -1
}

// dispatch runs queued VCPU next on p from now (next < 0: p idles),
// moving it to p if it was queued elsewhere; p's current VCPU has already
// been descheduled.
func (s *State) dispatch(p, next int, log []Change) []Change {
	pc := &s.pcpus[p]
	if next < 0 {
		pc.curr, pc.sliceEnd = -1, Never
		return append(log, Change{Kind: Dispatch, VCPU: -1, PCPU: p, Priority: Idle})
	}
	s.remove(next)
	y := &s.vcpus[next]
	y.pcpu = p
	s.setState(next, Running)
	y.startTime += s.now
	pc.curr = next
	pc.sliceEnd = s.now + s.sliceFor(next, 0)
	return append(log, Change{Kind: Dispatch, VCPU: next, PCPU: p, Priority: y.pri})
}

// sliceFor is the slice of a VCPU being dispatched (or kept after running
// for stint): a Timeslice, or for a raised VCPU the rest of its starvation
// slice if that is shorter.
func (s *State) sliceFor(v int, stint time.Duration) time.Duration {
	x := &s.vcpus[v]
	if x.raised {
		if rest := s.cfg.GuardExec - x.raisedRan - stint; rest < s.cfg.Timeslice {
			return rest
		}
	}
	return s.cfg.Timeslice
}

// burn is burn_credits (Xen 4.2): debit CreditsPerMsec per ms run since
// startTime, rounded to nearest, and advance startTime by the time those
// credits stand for, so no remainder is lost.
func (s *State) burn(v int) {
	x := &s.vcpus[v]
	delta := s.now - x.startTime
	if delta <= 0 {
		return
	}
	// One credit is unit = 1 ms/CreditsPerMsec, a whole number of ns, so
	// (delta + unit/2)/unit is Xen's (delta·cpm + 1ms/2)/1ms without the
	// multiplication that could overflow.
	unit := time.Millisecond / time.Duration(s.cfg.CreditsPerMsec)
	credits := (delta + unit/2) / unit
	x.credit -= int(credits)
	x.startTime += credits * unit
}

// activate is __csched_vcpu_acct_start: v joins its domain's active list,
// W grows by the domain weight, and the domain joins the active domain list
// if it was off it: at the head with Config.ActivateAtHead (Xen's
// list_add), else at the tail.
func (s *State) activate(v int) {
	x := &s.vcpus[v]
	d := &s.doms[x.dom]
	x.active = true
	d.active++
	s.weight += int64(d.weight)
	if !d.onList {
		d.onList = true
		s.activeDoms = append(s.activeDoms, int32(x.dom))
		if s.cfg.ActivateAtHead {
			copy(s.activeDoms[1:], s.activeDoms[:len(s.activeDoms)-1])
			s.activeDoms[0] = int32(x.dom)
		}
	}
}

// deactivate is __csched_vcpu_acct_stop_locked.
func (s *State) deactivate(v int) {
	x := &s.vcpus[v]
	d := &s.doms[x.dom]
	x.active = false
	d.active--
	s.weight -= int64(d.weight)
	if d.active == 0 {
		d.onList = false
		for i, e := range s.activeDoms {
			if int(e) == x.dom {
				s.activeDoms = append(s.activeDoms[:i], s.activeDoms[i+1:]...)
				break
			}
		}
	}
}
