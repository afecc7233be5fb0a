package tally

import (
	"context"
	"fmt"
	"sync"

	fwk "k8s.io/kube-scheduler/framework"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/owner"
)

// Shared hands out one tally per scheduling profile, so that the plugins
// of a profile (DeadlineAdmission and ProgressShare) count the same pod
// events once: kube-scheduler builds every plugin of a profile on the same
// framework.Handle, which is the key. The tally counts the pending pods of
// the profile's scheduler name, finds owners through the handle's Job
// lister and is fed by the handle's informers (Watch), registered once.
// A profile's tally is dropped when the context its plugins were built
// with ends (the scheduler stopped). The zero value is ready to use; it is
// safe for concurrent use.
type Shared struct {
	mu     sync.Mutex
	byProf map[fwk.Handle]*Tally
}

// For returns the profile's tally, making it on the plugin factory's first
// call. typeLabel is the node-type label the caller reads ByType by, ""
// when it reads no types; two callers of one profile naming different
// labels are an error, as is naming one after the tally has seen nodes
// without it.
func (s *Shared) For(ctx context.Context, h fwk.Handle, typeLabel string) (*Tally, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.byProf[h]; ok {
		return t, t.setTypeLabel(typeLabel)
	}
	t := New(h.ProfileName(), typeLabel, owner.NewResolver(h).Job)
	if err := t.Watch(h.SharedInformerFactory()); err != nil {
		return nil, err
	}
	if s.byProf == nil {
		s.byProf = map[fwk.Handle]*Tally{}
	}
	s.byProf[h] = t
	context.AfterFunc(ctx, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.byProf, h)
	})
	return t, nil
}

// setTypeLabel gives the tally the node-type label typeLabel ("" leaves it
// as it is).
func (t *Tally) setTypeLabel(typeLabel string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case typeLabel == "" || typeLabel == t.typeLabel:
		return nil
	case t.typeLabel != "":
		return fmt.Errorf("profile %q: node-type labels %q and %q for one tally", t.scheduler, t.typeLabel, typeLabel)
	case len(t.nodes) > 0:
		return fmt.Errorf("profile %q: node-type label %q set after nodes were counted", t.scheduler, typeLabel)
	}
	t.typeLabel = typeLabel
	return nil
}
