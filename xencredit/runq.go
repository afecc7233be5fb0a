package xencredit

// insert puts v into its PCPU's run queue before the first VCPU of strictly
// lower priority, that is at the tail of its class (Xen's __runq_insert).
// The queue's capacity is the number of VCPUs on the PCPU, so this never
// allocates.
func (s *State) insert(v int) {
	x := &s.vcpus[v]
	pc := &s.pcpus[x.pcpu]
	i := 0
	for i < len(pc.runq) && s.vcpus[pc.runq[i]].pri >= x.pri {
		i++
	}
	pc.runq = append(pc.runq, 0)
	copy(pc.runq[i+1:], pc.runq[i:])
	pc.runq[i] = v
}

// remove takes v out of its PCPU's run queue.
func (s *State) remove(v int) {
	x := &s.vcpus[v]
	pc := &s.pcpus[x.pcpu]
	for i, w := range pc.runq {
		if w == v {
			pc.runq = append(pc.runq[:i], pc.runq[i+1:]...)
			break
		}
	}
}

// sortRunq is csched_runq_sort: a stable partition moving every VCPU of
// priority UNDER or above ahead of the others, keeping order within each
// part (BOOST and UNDER are not reordered against each other).
func (s *State) sortRunq(p int) {
	q := s.pcpus[p].runq
	k := 0 // q[:k] are the UNDER-or-above VCPUs seen so far
	for i, v := range q {
		if s.vcpus[v].pri >= Under {
			copy(q[k+1:i+1], q[k:i])
			q[k] = v
			k++
		}
	}
}

// headPriority is the priority of the head of p's run queue, Idle if empty.
func (s *State) headPriority(p int) Priority {
	q := s.pcpus[p].runq
	if len(q) == 0 {
		return Idle
	}
	return s.vcpus[q[0]].pri
}
