package progressshare

// PickProgressShare is the heterogeneity-aware scheduler, Algorithm 2, with
// the calibration phase of §4.3.1.4. Call it when slot (an index into the
// cluster's slots) becomes free at time now (seconds).
//
// Calibration first: among jobs with pending blocks that are calibrating, have
// no measured rate for the slot's node type and no task running on it, the
// one with the lowest weighted slot share (ties: lower index) gets the slot
// at once with its best block (ReasonCalibration).
//
// Otherwise jobs with pending blocks are taken in increasing order of
// PS(j)/Weight (Eq. 4.1), ties by index; a calibrating job has no PS yet and
// is ordered by its weighted slot share instead. For each job the best block
// b = argmax BS(s, j, b) (ties: lowest index in Pending) is launched iff
//
//	1 − Pref_{j,b}(s) ≤ delay(j)/MaxDelay,  delay(j) = now − LastLaunch,
//
// (always when MaxDelay is 0); otherwise the next job is tried. When no job
// launches the slot is skipped with ReasonWaiting, or ReasonNoPendingTask
// when no job has a pending block. The caller resets the launched job's
// delay (LastLaunch = now) and moves the block to running.
//
// With Options.AffinityFactor f > 0, a launch of a calibrated job p by the
// rule above may be passed over (ReasonAffinity, Decision.Bypassed = p) for
// another calibrated job k with RelativeRate(slot, k) ≥ f ·
// RelativeRate(slot, p) (and above it) whose best block passes line 4 on
// this slot; the highest relative rate is tried first (ties: the order
// above). With Options.AffinityBounded only while p runs at least its slot
// share: min(demand_p, w_p·λ), the weighted max-min fair split of the slots
// over demands (running plus pending tasks of every job in jobs). See the
// package doc's "The affinity rule".
//
// Errors match ErrBadInput: slot out of range, now not finite, and any bad
// Weight, LastLaunch (after now or not finite), Rates or Running of any job.
// Pending blocks are checked only as far as they are read (each examined
// job's blocks up to its first node-local one or, with a PendingIndex, up to
// the first one of the best locality the index reports); use Validate to
// check them all.
//
// A calibrated job that must decline whatever its block, as a bound on
// Eq. 4.4 from its rates and its best locality on the slot shows in
// O(node types) (the locality comes from its PendingIndex; without one the
// bound assumes node-local), is passed over before the order is built. This
// never changes the decision; it only leaves such jobs out of
// Decision.Examined.
//
// It allocates nothing once the Scheduler has seen as many jobs.
func (s *Scheduler) PickProgressShare(slot int, jobs []Job, now float64) (Decision, error) {
	sl, o, err := s.begin(slot, len(jobs), now)
	if err != nil {
		return Decision{}, err
	}
	calJob, calKey, declined := -1, 0.0, false
	aff := s.opt.AffinityFactor > 0
	for i, j := range jobs {
		key, den, cal, err := s.jobKey(j, i, now, true)
		if err != nil {
			return Decision{}, err
		}
		if len(j.Pending) == 0 {
			continue
		}
		if cal && rateOf(j, sl.Type) == 0 && runningOf(j, sl.Type) == 0 && (calJob < 0 || key < calKey) {
			calJob, calKey = i, key
		}
		if !cal && s.opt.MaxDelay > 0 && s.mustDecline(slot, j, (now-j.LastLaunch)/s.opt.MaxDelay) {
			declined = true
			continue // it would decline whatever its block: leave it out of the order
		}
		o.keys[i] = key
		if aff {
			s.rel[i] = -1 // a calibrating job has no relative rate: the rule leaves it alone
			if !cal {
				s.rel[i] = j.Rates[sl.Type] * float64(len(s.slots)) / den
			}
		}
		o.h = append(o.h, int32(i))
	}
	if len(o.h) == 0 && calJob < 0 {
		if declined {
			return skip(ReasonWaiting, 0), nil
		}
		return skip(ReasonNoPendingTask, 0), nil
	}
	if calJob >= 0 {
		return s.calibration(slot, jobs[calJob], calJob)
	}
	o.init()
	examined := 0
	for len(o.h) > 0 {
		i := o.pop()
		j := &jobs[i]
		examined++
		cal := s.Calibrating(*j)
		d, ok, err := s.launches(slot, *j, i, cal, now)
		if err != nil {
			return Decision{}, err
		}
		if ok {
			d.Reason, d.Examined = ReasonPreferred, examined
			if aff && !cal {
				return s.affinity(slot, jobs, now, d, o)
			}
			return d, nil
		}
	}
	return skip(ReasonWaiting, examined), nil
}

// PickSlotShare is the baseline, Algorithm 1: the Hadoop Fair Scheduler
// with delay scheduling. Jobs with pending blocks are taken in increasing
// order of running tasks/Weight (ties by index); for each, the best task is
// its first pending block with the best locality from the slot (node-local,
// else rack-local, else remote). It is launched if it is node-local, or
// rack-local and delay(j) ≥ RackDelay (d1), or remote and delay(j) ≥
// RemoteDelay (d2), where delay(j) = now − LastLaunch; otherwise the next job
// is tried. A job with a PendingIndex whose best locality must wait is
// passed over before the order is built, without reading its blocks. It
// ignores computing rates (Job.Rates is not read or checked).
// Skips, errors and allocation are as for PickProgressShare.
func (s *Scheduler) PickSlotShare(slot int, jobs []Job, now float64) (Decision, error) {
	_, o, err := s.begin(slot, len(jobs), now)
	if err != nil {
		return Decision{}, err
	}
	declined := false
	for i, j := range jobs {
		key, _, _, err := s.jobKey(j, i, now, false)
		if err != nil {
			return Decision{}, err
		}
		if len(j.Pending) == 0 {
			continue
		}
		if loc := j.Index.hint(s, slot); loc >= 0 && !s.allowed(loc, now-j.LastLaunch) {
			declined = true
			continue // its best locality, known from the index, must wait
		}
		o.keys[i] = key
		o.h = append(o.h, int32(i))
	}
	if len(o.h) == 0 {
		if declined {
			return skip(ReasonWaiting, 0), nil
		}
		return skip(ReasonNoPendingTask, 0), nil
	}
	o.init()
	examined := 0
	for len(o.h) > 0 {
		i := o.pop()
		j := jobs[i]
		examined++
		b, r, loc, err := s.bestBlock(slot, j, i)
		if err != nil {
			return Decision{}, err
		}
		if s.allowed(loc, now-j.LastLaunch) {
			return Decision{Launch: true, Reason: ReasonLocality, Job: i, Block: b, Replica: r,
				Locality: loc, Examined: examined, Bypassed: -1}, nil
		}
	}
	return skip(ReasonWaiting, examined), nil
}

// allowed is the launch rule of delay scheduling (Algorithm 1): node-local
// at once, rack-local after RackDelay, any locality after RemoteDelay.
func (s *Scheduler) allowed(loc Locality, delay float64) bool {
	return loc == NodeLocal || (loc == RackLocal && delay >= s.opt.RackDelay) || delay >= s.opt.RemoteDelay
}

// mustDecline reports, in O(node types) and without reading any block, that
// a calibrated job j must decline free slot si at delay ratio
// delay(j)/max_delay = ratio, whatever block it picks.
//
// Let loc be the best locality any of j's pending blocks has on si: read from
// j.Index in O(1) when the job has one, else NodeLocal (the best case, which
// bounds every other). The chosen block then has BS(si) = vs =
// 1/(Tr[loc] + Tp(type of si)). Eq. 4.4 is Pref = N/(N + X) with N the BS
// summed over slots whose BS ≤ vs and X over the others; it grows with N and
// falls with X. Per node type t the locality classes have BS
// 1/(Tr[c] + Tp(t)), falling from node-local to remote, so
//
//   - N ≤ N⁺ = Σ_t slots(t) · BS of the best class of t that is not surely
//     above vs (the included slots of t are at most all of them at that BS);
//   - X ≥ X⁻ = Σ over types whose remote class is surely above vs of
//     slots(t) · remote BS (every slot of such a type beats si).
//
// The job declines when X⁻/(N⁺ + X⁻) > ratio: then 1 − Pref ≥ that > ratio.
// "Surely above" compares task times with a relative margin of 1e-12, so it
// agrees with pref's comparison of the rounded scores; a margin of 1e-9 on the
// final test keeps summation rounding from overruling the exact test.
func (s *Scheduler) mustDecline(si int, j Job, ratio float64) bool {
	if ratio >= 1 {
		return false
	}
	loc := j.Index.hint(s, si)
	if loc < 0 {
		loc = NodeLocal
	}
	tr := &s.opt.ReadTime
	cut := (tr[loc] + 1/j.Rates[s.slots[si].Type]) * (1 - 1e-12) // a task time below cut surely beats si
	// X⁻ > 0 needs a type whose remote task time is below cut: if the
	// fastest type's is not, none is, and the job may launch.
	fastest := 0.0
	for _, r := range j.Rates {
		fastest = max(fastest, r)
	}
	if !(tr[Remote]+1/fastest < cut) {
		return false
	}
	var n, x float64
	for t, slots := range s.typeSlots {
		if slots == 0 {
			continue
		}
		p := 1 / j.Rates[t]
		switch {
		case tr[Remote]+p < cut:
			x += float64(slots) / (tr[Remote] + p)
		case tr[RackLocal]+p < cut:
			n += float64(slots) / (tr[Remote] + p)
		case tr[NodeLocal]+p < cut:
			n += float64(slots) / (tr[RackLocal] + p)
		default:
			n += float64(slots) / (tr[NodeLocal] + p)
		}
	}
	return x > (ratio+1e-9)*(n+x)
}

// jobKey validates job idx (everything but its blocks; its rates only when
// rates is set) and returns, in one pass over node types, its sort key:
// PS(j)/Weight for a calibrated job under Algorithm 2, else slot
// share/Weight; Σ_{s∈S} CR(s, j) (Eq. 4.1's denominator, 0 unless rates);
// and whether it is calibrating. It agrees with checkJob, progressShare,
// slotShare and Calibrating, which give the error text.
func (s *Scheduler) jobKey(j Job, idx int, now float64, rates bool) (key, den float64, cal bool, err error) {
	bad := !(j.Weight >= MinRate && j.Weight <= MaxRate) || !(j.LastLaunch <= now && j.LastLaunch-j.LastLaunch == 0) ||
		len(j.Running) > s.numTypes || (rates && len(j.Rates) > s.numTypes) || len(j.Pending) > MaxPending
	var num float64
	running := 0
	for t := 0; t < s.numTypes && !bad; t++ {
		n, slots := 0, s.typeSlots[t]
		if t < len(j.Running) {
			n = j.Running[t]
			bad = n < 0 || n > slots
			running += n
		}
		if !rates {
			continue
		}
		r := 0.0
		if t < len(j.Rates) {
			r = j.Rates[t]
			bad = bad || (r != 0 && !(r >= MinRate && r <= MaxRate))
		}
		cal = cal || (r == 0 && slots > 0)
		num += float64(n) * r
		den += float64(slots) * r
	}
	if bad {
		return 0, 0, false, s.checkJob(j, idx, now, rates)
	}
	if rates && !cal {
		return min(num/den, 1) / j.Weight, den, false, nil
	}
	return float64(running) / float64(len(s.slots)) / j.Weight, den, cal, nil
}
