package deadlinecheck

import (
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/types"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// An etaHandoff remembers, per workload, the ETA outcome a ClusterQueue's
// check last handed the ETA writer and the resourceVersion it was
// computed on. A reconcile hands a workload's outcome again only when one
// of them changed: the same outcome on the same object is the same write
// (or the same decision not to write), and the writer still holds it or
// has done it. Between two ETA passes every reconcile recalls the same
// ETAs, so a reconcile of a long queue copies and hands over the
// workloads whose ETA or object changed, not the queue. A write that
// fails is forgotten (forget), and the next reconcile hands it again, as
// it did when every reconcile handed every ETA. Safe for concurrent use
// (the writer forgets from its own goroutines).
type etaHandoff struct {
	mu    sync.Mutex
	byUID map[types.UID]*handedETA
	round uint64 // reconciles
	seen  int    // workloads looked at in this round
}

type handedETA struct {
	rv       string
	eta      ETA
	hasETA   bool
	note     string
	unknown  bool
	lastSeen uint64
}

// begin starts a reconcile's hand-over.
func (h *etaHandoff) begin() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.round++
	h.seen = 0
}

// due reports whether o, computed on wl, differs from what was last
// handed over for wl, and remembers it as handed when it does.
func (h *etaHandoff) due(wl *kueue.Workload, o Outcome) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seen++
	if h.byUID == nil {
		h.byUID = map[types.UID]*handedETA{}
	}
	e := h.byUID[wl.UID]
	if e == nil {
		e = &handedETA{}
		h.byUID[wl.UID] = e
	} else if e.rv == wl.ResourceVersion && e.hasETA == (o.ETA != nil) && (o.ETA == nil || e.eta == *o.ETA) &&
		e.note == o.Note && e.unknown == o.etaUnknown {
		e.lastSeen = h.round
		return false
	}
	*e = handedETA{rv: wl.ResourceVersion, hasETA: o.ETA != nil, note: strings.Clone(o.Note), unknown: o.etaUnknown, lastSeen: h.round}
	if o.ETA != nil {
		e.eta = *o.ETA
	}
	return true
}

// end ends a reconcile's hand-over: once the memory holds more than twice
// the workloads looked at, it drops those not looked at in this round
// (gone, decided, or no longer waiting).
func (h *etaHandoff) end() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.byUID) <= 2*h.seen+64 {
		return
	}
	for uid, e := range h.byUID {
		if e.lastSeen != h.round {
			delete(h.byUID, uid)
		}
	}
}

// forget drops what was handed over for a workload, so that the next
// reconcile hands its outcome again.
func (h *etaHandoff) forget(uid types.UID) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.byUID, uid)
}
