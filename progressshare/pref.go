package progressshare

// Task selection and slot preference (§4.3.1.2–4.3.1.3, Eq. 4.2–4.4).
//
// T(s, j, r) = Tr(s, r) + Tp(s, j, block(r)) with Tr a step function of the
// locality of replica r seen from slot s (Options.ReadTime) and Tp = 1/CR of
// the slot's node type. So Score_j(s, r) = 1/T (Eq. 4.2) and
// BS_{j,b}(s) = max_r Score (Eq. 4.3) depend on the slot only through its
// node type and the best locality class of b's replicas from it. Eq. 4.4's
// sums over all slots therefore collapse to sums over the (node type,
// locality class) groups, whose sizes follow from the slots per type on the
// replica nodes and in the replica racks: O(replicas·types) per Pref instead
// of O(slots).

// procTime returns Tp for node type t: 1/CR for a calibrated job. A
// calibrating job does not know its rates yet, so Tp is taken equal on every
// node type: 1/(mean of its measured rates), or 1 s when none is measured.
func procTime(j Job, t int, calibrating bool, uniform float64) float64 {
	if calibrating {
		return uniform
	}
	return 1 / rateOf(j, t) // +Inf only for a type without slots, never used
}

// uniformProcTime is the Tp a calibrating job uses on every node type.
func (s *Scheduler) uniformProcTime(j Job) float64 {
	sum, n := 0.0, 0
	for t := range min(len(j.Rates), s.numTypes) {
		if r := j.Rates[t]; r > 0 {
			sum += r
			n++
		}
	}
	if n == 0 {
		return 1
	}
	return float64(n) / sum
}

// locality returns the best locality of block b seen from slot si and the
// index of the first replica giving it. The block must have been checked.
func (s *Scheduler) locality(si int, b Block) (Locality, int) {
	node, rack := s.slots[si].Node, s.slotRack[si]
	loc, rep := Remote, 0
	for k, n := range b.Replicas {
		if n == node {
			return NodeLocal, k
		}
		if loc == Remote && s.nodeRack[n] == rack {
			loc, rep = RackLocal, k
		}
	}
	return loc, rep
}

// bestBlock implements line 3 of Algorithm 2 (and "the best task" of
// Algorithm 1): the pending block of job idx with the highest BS on slot sl.
// For one job and slot Tp is fixed, so that is the block with the best
// locality; ties go to the lowest index in Pending. It validates each block
// it reads. With a Job.Index it stops at the first block of the best
// locality the index reports. It returns block −1 when the job has no pending block.
func (s *Scheduler) bestBlock(si int, j Job, idx int) (block, replica int, loc Locality, err error) {
	block, loc = -1, Remote
	stop := j.Index.hint(s, si) // with an index: stop at the first block this good
	node, rack := s.slots[si].Node, s.slotRack[si]
	nodeRack := s.nodeRack
	for i, b := range j.Pending {
		// One pass both checks the replicas and finds the best one.
		if len(b.Replicas) == 0 {
			return -1, -1, Remote, s.checkBlock(b, idx, i)
		}
		l, r := Remote, 0
		for k, n := range b.Replicas {
			if uint(n) >= uint(len(nodeRack)) || nodeRack[n] < 0 {
				return -1, -1, Remote, s.checkBlock(b, idx, i)
			}
			if n == node {
				if l != NodeLocal {
					l, r = NodeLocal, k
				}
			} else if l == Remote && nodeRack[n] == rack {
				l, r = RackLocal, k
			}
		}
		if block < 0 || l < loc {
			block, replica, loc = i, r, l
			if l == NodeLocal || l == stop {
				break
			}
		}
	}
	return block, replica, loc, nil
}

// pref computes Eq. 4.4 for a checked job and block whose best locality
// from slot sl is loc.
func (s *Scheduler) pref(si int, j Job, b Block, loc Locality, calibrating bool, uniform float64) float64 {
	s.nextGen()
	clear(s.local)
	clear(s.inRack)
	T := s.numTypes
	for _, n := range b.Replicas {
		if c := s.nodeIdx[n]; s.nodeMark[c] != s.gen {
			s.nodeMark[c] = s.gen
			s.local[s.nodeType[c]] += int(s.nodeSlots[c])
		}
		r := s.nodeRack[n]
		if s.rackMark[r] != s.gen {
			s.rackMark[r] = s.gen
			lo, hi := s.rackStart[r], s.rackStart[r+1]
			for k, t := range s.rackTypes[lo:hi] {
				s.inRack[t] += int(s.rackCounts[int(lo)+k])
			}
		}
	}
	tr := &s.opt.ReadTime
	vs := 1 / (tr[loc] + procTime(j, s.slots[si].Type, calibrating, uniform))
	var num, den float64
	for t := range T {
		p := procTime(j, t, calibrating, uniform)
		cnt := [3]int{s.local[t], s.inRack[t] - s.local[t], s.typeSlots[t] - s.inRack[t]}
		for c, k := range cnt {
			if k == 0 {
				continue
			}
			v := 1 / (tr[c] + p)
			w := float64(k) * v
			den += w
			if v <= vs {
				num += w
			}
		}
	}
	return num / den // den ≥ vs > 0: the slot itself is in a group
}

// prepare validates job j (number idx, or −1) and the block, for the
// exported single-job functions.
func (s *Scheduler) prepare(slot int, j Job, block int) (Block, bool, float64, error) {
	if _, err := s.slot(slot); err != nil {
		return Block{}, false, 0, err
	}
	if err := s.checkRatesRunning(j, -1); err != nil {
		return Block{}, false, 0, err
	}
	if block < 0 || block >= len(j.Pending) {
		return Block{}, false, 0, &ValueError{Field: "block", Value: block, Reason: "must index job.Pending"}
	}
	b := j.Pending[block]
	if err := s.checkBlock(b, -1, block); err != nil {
		return Block{}, false, 0, err
	}
	cal := s.Calibrating(j)
	uni := 0.0
	if cal {
		uni = s.uniformProcTime(j)
	}
	return b, cal, uni, nil
}

// BestScore returns BS_{j,b}(s) of Eq. 4.3, the highest Score_j(s, r) =
// 1/T(s, j, r) (Eq. 4.2) over the replicas r of block Pending[block] of job j
// on slot s, in 1/seconds, and the locality of the best replica. For a
// calibrating job Tp is equal on every node type (see PickProgressShare).
// Errors match ErrBadInput: a slot or block index out of range, a bad rate,
// running count or replica.
func (s *Scheduler) BestScore(slot int, j Job, block int) (float64, Locality, error) {
	b, cal, uni, err := s.prepare(slot, j, block)
	if err != nil {
		return 0, Remote, err
	}
	loc, _ := s.locality(slot, b)
	return 1 / (s.opt.ReadTime[loc] + procTime(j, s.slots[slot].Type, cal, uni)), loc, nil
}

// Pref returns Pref_{j,b}(s) of Eq. 4.4 for block Pending[block] of job j
// on slot s: the sum of BS over the slots whose BS is at most BS(s), divided
// by the sum over all slots. It lies in (0, 1]; the best slots for the block
// have exactly 1, and it never decreases as BS(s) grows. Errors as BestScore.
func (s *Scheduler) Pref(slot int, j Job, block int) (float64, error) {
	b, cal, uni, err := s.prepare(slot, j, block)
	if err != nil {
		return 0, err
	}
	loc, _ := s.locality(slot, b)
	return s.pref(slot, j, b, loc, cal, uni), nil
}

// best is the task Algorithm 2 would launch of one job on slot si: the
// job's best block and replica, its locality and preference (calibrating:
// with the uniform run time for its unknown one). The decision names the
// job (idx) and launches; the caller sets its reason, Examined and
// Bypassed.
func (s *Scheduler) best(si int, j Job, idx int, calibrating bool) (Decision, error) {
	b, r, loc, err := s.bestBlock(si, j, idx)
	if err != nil {
		return Decision{}, err
	}
	uni := 0.0
	if calibrating {
		uni = s.uniformProcTime(j)
	}
	p := s.pref(si, j, j.Pending[b], loc, calibrating, uni)
	return Decision{Launch: true, Job: idx, Block: b, Replica: r, Locality: loc, Pref: p, Calibrating: calibrating, Bypassed: -1}, nil
}

// launches is Algorithm 2's test of one job on slot si at now: its best
// task (best) is launched when the preference makes up for the time since
// the job's last launch, 1 − pref ≤ (now − LastLaunch) / MaxDelay, or
// always with MaxDelay 0; ok is false when the job is declined.
func (s *Scheduler) launches(si int, j Job, idx int, calibrating bool, now float64) (d Decision, ok bool, err error) {
	d, err = s.best(si, j, idx, calibrating)
	if err != nil {
		return Decision{}, false, err
	}
	return d, s.opt.MaxDelay == 0 || 1-d.Pref <= (now-j.LastLaunch)/s.opt.MaxDelay, nil
}

// calibration launches the best task of job idx, the calibrating job
// chosen for slot si, whatever its preference (the calibration phase of
// §4.3.1.4: a job with no measured rate on the slot's type runs a task
// there first).
func (s *Scheduler) calibration(si int, j Job, idx int) (Decision, error) {
	d, err := s.best(si, j, idx, true)
	if err != nil {
		return Decision{}, err
	}
	d.Reason, d.Examined = ReasonCalibration, 1
	return d, nil
}
