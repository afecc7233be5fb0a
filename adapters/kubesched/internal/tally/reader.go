package tally

import "k8s.io/apimachinery/pkg/types"

// A Reader is one plugin's own record of the changes since it last read
// them: the plugins of a profile share one tally, and each must see every
// change, whoever read the tally before it. View.Changes is the record of
// the tally's first reader; every other plugin takes a Reader
// (Tally.NewReader) and reads it with View.ChangesOf. Changes and
// ChangesOf behave alike, each on its own record.
type Reader struct {
	changed      map[types.UID]struct{}
	reset        bool
	nodesChanged bool
}

// NewReader returns a new record of changes. Its first read is a reset:
// every job the tally holds then.
func (t *Tally) NewReader() *Reader {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := &Reader{changed: map[types.UID]struct{}{}, reset: true, nodesChanged: true}
	t.readers = append(t.readers, r)
	return r
}

// ChangesOf is Changes on r's record: f is called for each job whose
// counts or attributes changed since r was last read (nil for a job that no
// longer has pods), or for every job the tally holds when reset is true.
func (v *View) ChangesOf(r *Reader, f func(key types.UID, j *Job)) (nodesChanged, reset bool) {
	return v.changes(r.changed, &r.reset, &r.nodesChanged, f)
}

// changes reads and clears one record of changes (Changes, ChangesOf).
func (v *View) changes(changed map[types.UID]struct{}, reset, nodes *bool, f func(key types.UID, j *Job)) (nodesChanged, wasReset bool) {
	t := v.t
	if *reset {
		for key, j := range t.jobs {
			f(key, j)
		}
	} else {
		for key := range changed {
			f(key, t.jobs[key])
		}
	}
	clear(changed)
	nodesChanged, *nodes = *nodes, false
	wasReset, *reset = *reset, false
	return nodesChanged, wasReset
}

// markIn records in one record of changes that the job with key changed,
// in a tally holding n jobs: past 2n + 1024 changed jobs the record
// becomes a reset.
func markIn(changed map[types.UID]struct{}, reset *bool, key types.UID, n int) {
	if *reset {
		return
	}
	changed[key] = struct{}{}
	if len(changed) > 2*n+1024 {
		clear(changed)
		*reset = true
	}
}

// readersNodesChanged records a change of the nodes for every Reader.
func (t *Tally) readersNodesChanged() {
	for _, r := range t.readers {
		r.nodesChanged = true
	}
}
