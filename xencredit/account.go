package xencredit

import (
	"math"
	"time"
)

// maxPool saturates the credit pool C: Xen keeps it in 32 bits (and would
// wrap); by then every domain's fair share exceeds its peak anyway.
const maxPool = math.MaxUint32

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// Account is csched_acct, run every Timeslice on the master PCPU (the
// caller calls it; Xen's accounting timer is not in phase with the ticks).
// With W the weight of the active VCPUs and C = PCPUs×CreditsPerTimeslice
// (plus |balance| if the last balance was negative), each active domain in
// list order with n active VCPUs and weight w gets
//
//	peak = n·300 (+⌈−balance·w·n/W⌉ if balance < 0), at most ⌈cap·300/100⌉
//	fair = ⌈C·w·n/W⌉; if fair ≥ peak the surplus goes to the domains not yet
//	       visited (C += ⌈(fair−peak)·W/weight_left⌉) and fair = peak
//
// and each of its active VCPUs ⌈fair/n⌉ credits (300 = CreditsPerTimeslice).
// Then each active VCPU is OVER if its credit is negative (parked if capped
// and below −⌈capc/n⌉; clipped at −300) and UNDER otherwise (unparked; taken
// off the active list with its credit halved if above +300). A running
// VCPU that is parked is descheduled; an unparked one is queued without
// boost and may preempt. Queued VCPUs keep their run-queue places until
// their PCPU's next Tick sorts it.
//
// Then, if Config.GuardPeriod > 0, the starvation guard (MIMP §4.2) closes
// every background VCPU's guard period that has lasted at least p: if the
// VCPU is runnable (running, queued) and ran less than e in it, it is raised
// to OVER (UNDER with GuardRaiseToUnder) at the tail of that class, and
// preempts a running BACKGROUND VCPU. It stays raised until it has run e
// (its starvation slice; preemption does not end it) or blocks, and then
// goes back to BACKGROUND. Its next period starts now.
//
// Errors: now before the previous event.
func (s *State) Account(now time.Duration, log []Change) ([]Change, error) {
	if err := s.checkTime(now); err != nil {
		return log, err
	}
	s.now = now
	if s.weight == 0 {
		s.balance = 0
	} else {
		log = s.distribute(log)
		s.epoch++
	}
	if s.cfg.GuardPeriod > 0 {
		log = s.guard(log)
	}
	// The PCPUs of the VCPUs that need one reschedule first, then the idle
	// PCPUs tickled (which steal what is still queued), as in Wake.
	for p := range s.pcpus {
		if s.pcpus[p].resched {
			s.pcpus[p].resched, s.pcpus[p].reschedIdle = false, false
			log = s.schedule(p, log)
		}
	}
	for p := range s.pcpus {
		if s.pcpus[p].reschedIdle {
			s.pcpus[p].reschedIdle = false
			log = s.schedule(p, log)
		}
	}
	return log, nil
}

// distribute hands out credits and re-sets priorities; reschedules it needs
// are marked on the PCPUs and done by Account afterwards, as Xen's softirqs
// run after csched_acct.
func (s *State) distribute(log []Change) []Change {
	per := int64(s.credits)
	wTotal := s.weight
	pool := int64(len(s.pcpus)) * per
	if s.balance < 0 {
		pool -= s.balance
	}
	weightLeft := wTotal
	var balance int64
	xtra := false
	for i := 0; i < len(s.activeDoms); {
		di := int(s.activeDoms[i])
		d := &s.doms[di]
		w, n := int64(d.weight), int64(d.active)
		weightLeft -= w * n
		peak := n * per
		if s.balance < 0 {
			peak += ceilDiv(-s.balance*w*n, wTotal)
		}
		var capPer int64
		if d.cap != 0 {
			capc := ceilDiv(int64(d.cap)*per, 100)
			peak = min(peak, capc)
			capPer = ceilDiv(capc, n)
		}
		fair := ceilDiv(pool*w*n, wTotal)
		if fair < peak {
			xtra = true
		} else {
			if weightLeft != 0 {
				pool = min(pool+ceilDiv((fair-peak)*wTotal, weightLeft), maxPool)
			}
			if xtra && i > 0 { // move to the head of the active list
				copy(s.activeDoms[1:i+1], s.activeDoms[:i])
				s.activeDoms[0] = int32(di)
			}
			fair = peak
		}
		fair = ceilDiv(fair, n)
		for v := d.first; v < d.first+d.n; v++ {
			if s.vcpus[v].active {
				log = s.credit(v, int(fair), int(capPer), log)
				balance += int64(s.vcpus[v].credit)
			}
		}
		if d.onList {
			i++
		} // else it left the list and the next domain moved into place i
	}
	s.balance = balance
	return log
}

// credit adds fair credits to active VCPU v and re-sets its priority.
func (s *State) credit(v, fair, capPer int, log []Change) []Change {
	x := &s.vcpus[v]
	d := &s.doms[x.dom]
	x.credit += fair
	wasBoost := x.pri == Boost
	if x.credit < 0 {
		x.pri = Over
		if wasBoost {
			log = append(log, Change{Kind: BoostEnd, VCPU: v, PCPU: x.pcpu, Priority: Over})
		}
		if d.cap != 0 && x.credit < -capPer && !x.parked {
			x.parked = true
			log = append(log, Change{Kind: Park, VCPU: v, PCPU: x.pcpu, Priority: Over})
			switch x.state {
			case Running:
				s.pcpus[x.pcpu].resched = true
			case Runnable:
				s.remove(v)
				s.setState(v, Offline)
			}
		}
		if x.credit < -s.credits {
			x.credit = -s.credits
		}
		return log
	}
	x.pri = Under
	if wasBoost {
		log = append(log, Change{Kind: BoostEnd, VCPU: v, PCPU: x.pcpu, Priority: Under})
	}
	if x.parked {
		// Unpause first, clear the flag after, so the wake does not boost.
		log = append(log, Change{Kind: Unpark, VCPU: v, PCPU: x.pcpu, Priority: Under})
		if x.state == Offline {
			s.setState(v, Runnable)
			s.insert(v)
			// The unpause is a wake: tickle as Wake does.
			local, idler := s.tickle(v)
			if local {
				s.pcpus[x.pcpu].resched = true
			}
			if idler >= 0 {
				s.pcpus[idler].reschedIdle = true
			}
		}
		x.parked = false
	}
	if x.credit > s.credits {
		s.deactivate(v)
		x.credit /= 2
	}
	return log
}

// guard is the starvation guard of MIMP §4.2 (see Account).
func (s *State) guard(log []Change) []Change {
	p, e := s.cfg.GuardPeriod, s.cfg.GuardExec
	for di := range s.doms {
		d := &s.doms[di]
		if !d.background {
			continue
		}
		for v := d.first; v < d.first+d.n; v++ {
			x := &s.vcpus[v]
			if s.now-x.guardStart < p {
				continue
			}
			ran := s.ranTotal(v)
			if ran-x.guardRan < e && !x.blocked && !x.raised {
				log = s.raise(v, log)
			}
			x.guardStart, x.guardRan = s.now, ran
		}
	}
	return log
}

// raise starts v's starvation slice.
func (s *State) raise(v int, log []Change) []Change {
	x := &s.vcpus[v]
	x.raised = true
	x.pri = Over
	if s.cfg.GuardRaiseToUnder {
		x.pri = Under
	}
	x.raisedRan = 0
	log = append(log, Change{Kind: Raise, VCPU: v, PCPU: x.pcpu, Priority: x.pri})
	switch x.state {
	case Running:
		x.raisedRan = -(s.now - x.since) // count only running time from now on
	case Runnable:
		s.remove(v)
		s.insert(v)
		if s.tickles(v) {
			s.pcpus[x.pcpu].resched = true
		}
	}
	return log
}

// lower ends v's starvation slice.
func (s *State) lower(v int, log []Change) []Change {
	x := &s.vcpus[v]
	x.raised = false
	x.pri = Background
	x.raisedRan = 0
	return append(log, Change{Kind: Lower, VCPU: v, PCPU: x.pcpu, Priority: Background})
}
