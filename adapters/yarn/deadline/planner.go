package deadline

import (
	"github.com/schedkit/schedkit/adapters/yarn/rm"
	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/edf"
	"github.com/schedkit/schedkit/tct"
)

// A Planner makes one controller's plans, pass after pass, in storage it
// keeps between passes: the apps' slab and indexes, admission's queue (its
// search tree's nodes and ID map), the cluster's capacities while the
// slot count stays, the ranking's jobs and ranks, and each listed app's tags as
// parsed, read again only when the app's tags or start time change (an
// app no longer listed is forgotten at the end of the pass). Its plans are
// Compute's, bit for bit; a Plan it returns shares nothing with it.
// Between passes it holds no reference to a Cluster beyond the ID and tags
// strings of the apps last listed. The zero value is ready to use. A
// Planner is not safe for concurrent use.
type Planner struct {
	apps       []parsed
	idOf       map[string]appID
	slab       []job
	jobs       []*job
	byKey      []*job
	ranked     []*job
	descs      []edf.Job
	running    [][]float64
	ranks      []edf.Ranked
	held       []float64
	admitted   []admission.Job
	candidates []*job
	memo       map[jctOf]float64
	q          admission.Queue
	// caps are the capacities of capSlots dedicated containers.
	caps     admission.Capacities
	capSlots int
	// tags holds each app's parsed tags by app ID; pass numbers the
	// passes, read the tags looked up in this one.
	tags   map[string]*tagRead
	pass   uint64
	read   int
	models map[tct.Exp2]edf.Model // each model boxed once per pass
}

// A tagRead is an app's tags and start time and what they parsed to.
type tagRead struct {
	tags    string
	started int64
	spec    Spec
	err     error
	pass    uint64 // the last pass that listed the app
}

// parseTags returns the app's tags parsed (parseTagList), from the last
// pass when its tags and start time are the same.
func (pl *Planner) parseTags(a *rm.App) (Spec, error) {
	if pl.tags == nil {
		pl.tags = make(map[string]*tagRead)
	}
	r, ok := pl.tags[a.ID]
	if !ok || r.tags != string(a.ApplicationTags) || r.started != int64(a.StartedTime) {
		r = &tagRead{tags: string(a.ApplicationTags), started: int64(a.StartedTime)}
		r.spec, r.err = parseTagList(r.tags, r.started)
		pl.tags[a.ID] = r
	}
	r.pass = pl.pass
	pl.read++
	return r.spec, r.err
}

// model returns m as an edf.Model, boxed once per pass.
func (pl *Planner) model(m tct.Exp2) edf.Model {
	b, ok := pl.models[m]
	if !ok {
		if pl.models == nil {
			pl.models = make(map[tct.Exp2]edf.Model)
		}
		b = m
		pl.models[m] = b
	}
	return b
}

// parsed is an app of the cluster with its parsed ID.
type parsed struct {
	app *rm.App
	id  appID
}

// jctOf keys the Eq. 6 JCTs of one pass: apps of one job type with as many
// remaining tasks have the same.
type jctOf struct {
	typ       string
	remaining int
}

// release drops the pass's references to its Cluster and clears the
// indexes for the next pass, keeping their storage.
func (pl *Planner) release() {
	clear(pl.apps[:cap(pl.apps)])
	clear(pl.slab[:cap(pl.slab)])
	clear(pl.jobs[:cap(pl.jobs)])
	clear(pl.byKey[:cap(pl.byKey)])
	clear(pl.ranked[:cap(pl.ranked)])
	clear(pl.descs[:cap(pl.descs)])
	clear(pl.running[:cap(pl.running)])
	clear(pl.admitted[:cap(pl.admitted)])
	clear(pl.candidates[:cap(pl.candidates)])
	clear(pl.idOf)
	clear(pl.memo)
	clear(pl.models)
	pl.q.Reset()
	if len(pl.tags) > pl.read { // apps no longer listed
		for id, r := range pl.tags {
			if r.pass != pl.pass {
				delete(pl.tags, id)
			}
		}
	}
	pl.pass++
	pl.read = 0
}
